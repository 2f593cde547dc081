"""Recurring bookings: on a space's page the demo member picks 10:00–11:00 two days ahead, sees
the price (paid by PIX, card or boleto: not "Registrado pela recepção", an operator's record),
chooses "Repetir: Toda semana" four times (PIX and boleto are then disabled and the
card is chosen: a series is charged per occurrence by card) and books the series. The third
Tuesday is taken by another member, so the result says "Série reservada: 3 de 4", lists each
occurrence with its price and the third as "Não reservada" with the reason; the inbox has one
notice for the series, its occurrences line by line. Thirty times is
refused next to "Quantas vezes" before anything is sent. On "Minhas reservas" each booking of the
series says which it is; "Cancelar esta e as próximas" on the second, after a confirmation,
cancels the second and the fourth and leaves the first (the API agrees); the dialog says how many
it cancels and the refund it estimates, and the inbox has one notice for both. On a phone a monthly
series ("Todo mês, na segunda terça-feira": the weekday of the month the day gives; "Todo mês, no
dia 8", its day of the month, is offered next) is booked; the repeat fields, the series' result, the
list and the inbox fit the screen."""

from __future__ import annotations

import uuid
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from selenium.webdriver.common.by import By

from journeys import api, book, eventually, meeting_room, member, open_signed_in, token

SP = ZoneInfo("America/Sao_Paulo")


def test_a_member_books_a_weekly_series_and_cancels_the_rest_of_it(browser, server):
    sufixo = uuid.uuid4().hex[:4]
    _, sala = meeting_room(server, f"Sala Série {sufixo}")
    primeiro = (datetime.now(SP) + timedelta(days=2)).replace(hour=10, minute=0, second=0, microsecond=0)
    # another member holds the third week's hour
    _, _, outro = member(server, "Rafael Série")
    book(server, outro, sala, primeiro + timedelta(days=14), primeiro + timedelta(days=14, hours=1))

    ui = browser(size=(1280, 900))
    open_signed_in(ui, server, server.member, f"/espacos/{sala}?data={primeiro.date().isoformat()}&de=10:00&ate=11:00")
    ui.wait_text("Composição do preço", ".quote")
    ui.choose("Repetir", "Toda semana")
    quote = ui.driver.find_element(By.CSS_SELECTOR, ".quote")
    disabled = {i.get_attribute("value"): i.get_attribute("disabled") is not None for i in quote.find_elements(By.CSS_SELECTOR, "input[name=metodo]")}
    # what a member pays with (an operator's "recorded at the desk" is not offered)
    assert sorted(disabled) == ["boleto", "cartao", "pix"], disabled
    assert disabled["pix"] and disabled["boleto"] and not disabled["cartao"], disabled
    assert quote.find_element(By.CSS_SELECTOR, "input[value=cartao]").is_selected()
    assert "cada reserva é cobrada no cartão" in quote.text, quote.text

    # thirty times: refused next to the field, nothing sent
    ui.fill("Quantas vezes, contando esta", "30")
    ui.fill("Token do cartão", "tok_visa")
    ui.click("Reservar a série", ".quote")
    erro = ui.wait(lambda d: d.find_element(By.CSS_SELECTOR, "[data-field=ocorrencias] .field__error").text, "no error next to the field")
    assert "de 2 a 26" in erro, erro
    ui.step("serie-vezes-demais")

    ui.fill("Quantas vezes, contando esta", "4")
    ui.click("Reservar a série", ".quote")
    result = ui.wait_text("Série reservada: 3 de 4", ".result")
    assert "Toda semana, 4 vezes" in result.text and "R$ 180,00" in result.text, result.text
    rows = result.find_elements(By.CSS_SELECTOR, "tbody tr")
    assert [r.get_attribute("data-situacao") for r in rows] == ["reservada", "reservada", "recusada", "reservada"]
    assert "Não reservada: o espaço já está reservado" in rows[2].text, rows[2].text
    assert "R$ 60,00" in rows[0].text, rows[0].text
    ui.step("serie-reservada")

    # one notice for the series in the inbox, its occurrences line by line
    eventually(lambda: any(n["titulo"].startswith("Série reservada") for n in api(server, "GET", "/api/notificacoes", token=token(server, server.member))["itens"]),
               "the series' notice")
    ui.open("/notificacoes")
    ui.wait_heading("Notificações")
    aviso = ui.row(f"Série reservada: Sala Série {sufixo}, 3 de 4", "#view .inbox__item")
    linhas = aviso.find_element(By.CSS_SELECTOR, ".inbox__texto").text.split("\n")
    assert len(linhas) >= 5 and "não reservada" in linhas[3], linhas
    assert aviso.find_element(By.PARTIAL_LINK_TEXT, "Minhas reservas").is_displayed()
    assert "Série de reservas" in aviso.find_element(By.CSS_SELECTOR, ".inbox__meta").text, aviso.text
    ui.step("aviso-da-serie")

    # "Minhas reservas": each occurrence says which; cancel from the second on
    mine = token(server, server.member)
    serie = [r for r in api(server, "GET", "/api/reservas", token=mine)["itens"] if r.get("serie") and r["espacoId"] == sala]
    assert sorted(r["serie"]["numero"] for r in serie) == [1, 2, 4], serie
    por_numero = {r["serie"]["numero"]: r["id"] for r in serie}
    eventually(lambda: all(api(server, "GET", f"/api/reservas/{i}", token=mine)["status"] == "confirmada" for i in por_numero.values()),
               "the card payments")
    ui.open("/reservas")
    ui.wait_heading("Minhas reservas")
    segunda = ui.wait(lambda d: d.find_element(By.CSS_SELECTOR, f"tr[data-reserva='{por_numero[2]}']"), "the second booking's row")
    assert "Série: 2ª reserva" in segunda.text, segunda.text
    ui.click("Cancelar esta e as próximas", segunda)
    dialog = ui.dialog()
    assert "As reservas anteriores da série ficam como estão" in dialog.text, dialog.text
    # what it cancels, the refund the policy gives (more than a week ahead: all of it), one e-mail
    assert "Serão canceladas 2 reservas, até" in dialog.text, dialog.text
    assert "Reembolso estimado: R$ 120,00 no total." in dialog.text, dialog.text
    assert "Você recebe um e-mail com o resumo." in dialog.text, dialog.text
    ui.step("cancelar-serie")
    ui.click("Cancelar as reservas", dialog)
    ui.wait_text("2 reservas da série canceladas", "#flash")
    ui.step("serie-cancelada")
    estados = {n: api(server, "GET", f"/api/reservas/{i}", token=mine)["status"] for n, i in por_numero.items()}
    assert estados == {1: "confirmada", 2: "cancelada", 4: "cancelada"}, estados
    # one notice for both, in the inbox too, not one per booking
    titulo = f"Série cancelada: Sala Série {sufixo}, 2 reservas"
    eventually(lambda: any(n["titulo"] == titulo for n in api(server, "GET", "/api/notificacoes", token=mine)["itens"]), "the cancellation's notice")
    ui.open("/notificacoes")
    ui.wait_heading("Notificações")
    cancelamento = ui.row(titulo, "#view .inbox__item")
    texto = cancelamento.find_element(By.CSS_SELECTOR, ".inbox__texto").text
    assert "Foram canceladas 2 reservas" in texto and "Você receberá R$ 120,00 de volta." in texto, texto
    assert cancelamento.find_element(By.PARTIAL_LINK_TEXT, "Minhas reservas").is_displayed()
    itens = api(server, "GET", "/api/notificacoes", token=mine)["itens"]
    avulsos = [n["titulo"] for n in itens if n["titulo"] == "Reserva cancelada" and n.get("reservaId") in (por_numero[2], por_numero[4])]
    assert not avulsos, avulsos
    ui.step("serie-cancelada-aviso")

    # on a phone: the repeat fields and the result fit the screen
    phone = browser(size=(390, 844), mobile=True)
    segundo = primeiro + timedelta(days=1)
    open_signed_in(phone, server, server.member, f"/espacos/{sala}?data={segundo.date().isoformat()}&de=10:00&ate=11:00")
    phone.wait_text("Composição do preço", ".quote")
    # once a month, the same weekday of the same week (any day of the week: "De segunda a sexta"
    # from a Saturday would be refused, and this day is three days on, whatever it is)
    # ("Todo mês" names the weekday of the month: "na segunda terça-feira", "no último sábado")
    fim_de_semana = segundo.weekday() >= 5
    qual = (["primeiro", "segundo", "terceiro", "quarto"] if fim_de_semana else ["primeira", "segunda", "terceira", "quarta"])[(segundo.day - 1) // 7] \
        if segundo.day <= 28 else ("último" if fim_de_semana else "última")
    dia = ["segunda-feira", "terça-feira", "quarta-feira", "quinta-feira", "sexta-feira", "sábado", "domingo"][segundo.weekday()]
    mensal = f"Todo mês, {'no' if fim_de_semana else 'na'} {qual} {dia}"
    # the day of the month is offered too, named ("Todo mês, no dia 5"; from the 29th, and the
    # shorter months' last day)
    opcoes = [o.text for o in phone.driver.find_elements(By.CSS_SELECTOR, "select[name=frequencia] option")]
    no_dia = f"Todo mês, no dia {segundo.day}" + (" (ou no último dia dos meses mais curtos)" if segundo.day > 28 else "")
    assert opcoes[-2:] == [mensal, no_dia], opcoes
    phone.choose("Repetir", mensal)
    phone.fill("Quantas vezes, contando esta", "2")
    phone.fill("Token do cartão", "tok_visa")
    phone.step("repetir-celular")
    phone.click("Reservar a série", ".quote")
    result = phone.wait_text("Série reservada!", ".result")
    assert f"{mensal}, 2 vezes" in result.text, result.text
    datas = [r.text for r in result.find_elements(By.CSS_SELECTOR, "tbody tr")]
    assert len(datas) == 2 and segundo.strftime("%d/%m/%Y") in datas[0], datas
    largura = phone.driver.execute_script("return document.documentElement.scrollWidth")
    assert largura <= 390, f"the page is {largura} px wide on a 390 px screen"
    phone.step("serie-celular")
    # the list and the inbox on the phone: the series' label, its cancel button, its notice
    phone.open("/reservas")
    phone.wait_heading("Minhas reservas")
    phone.wait_text("Série: 2ª reserva")
    phone.wait_text("Cancelar esta e as próximas")
    assert phone.driver.execute_script("return document.documentElement.scrollWidth") <= 390
    phone.step("minhas-reservas-celular")
    # the cancel dialog of the monthly series, from its first booking: both named, kept
    mensal_1 = phone.wait(lambda d: next((r for r in d.find_elements(By.CSS_SELECTOR, "tr[data-reserva]")
                                          if segundo.strftime("%d/%m/%Y") in r.text and "Série: 1ª reserva" in r.text), None),
                          "the monthly series' first booking")
    phone.click("Cancelar esta e as próximas", mensal_1)
    dialogo = phone.dialog()
    assert "Serão canceladas 2 reservas, até" in dialogo.text, dialogo.text
    phone.step("cancelar-serie-celular")
    phone.click("Manter a série", dialogo)
    phone.open("/notificacoes")
    phone.wait_heading("Notificações")
    phone.wait_text(f"Série reservada: Sala Série {sufixo}, 2 de 2")
    assert phone.driver.execute_script("return document.documentElement.scrollWidth") <= 390
    phone.step("aviso-celular")


def test_a_member_books_a_series_with_a_coupon_of_two_uses(browser, server):
    """On a phone, the coupon typed for the slot goes with the series: "Repetir" says it counts
    once per occurrence while it has uses, and of three Tuesdays with a coupon of two uses the
    first two are 10 % off and the third at its price."""
    sufixo = uuid.uuid4().hex[:4]
    _, sala = meeting_room(server, f"Sala Cupom {sufixo}")
    codigo = f"SERIE{sufixo.upper()}"
    agora = datetime.now(SP).replace(microsecond=0)
    api(server, "POST", "/api/admin/cupons", {
        "codigo": codigo, "desconto": {"tipo": "percentual", "bp": 1000}, "maxUsos": 2,
        "validoDe": (agora - timedelta(days=1)).isoformat(), "validoAte": (agora + timedelta(days=60)).isoformat(),
    }, token(server, server.admin))
    primeiro = (agora + timedelta(days=2)).replace(hour=10, minute=0, second=0)

    ui = browser(size=(390, 844), mobile=True)
    open_signed_in(ui, server, server.member, f"/espacos/{sala}?data={primeiro.date().isoformat()}&de=10:00&ate=11:00&cupom={codigo}")
    ui.wait_text("R$ 54,00", ".quote")
    ui.choose("Repetir", "Toda semana")
    quote = ui.wait_text("cupom vale para cada ocorrência enquanto tiver usos", ".quote")
    ui.fill("Quantas vezes, contando esta", "3")
    ui.fill("Token do cartão", "tok_visa")
    ui.scroll(quote.find_element(By.XPATH, ".//*[contains(text(), 'cupom vale para cada')]"))
    ui.step("serie-com-cupom")
    ui.click("Reservar a série", ".quote")
    result = ui.wait_text("Série reservada!", ".result")
    rows = result.find_elements(By.CSS_SELECTOR, "tbody tr")
    assert [("R$ 54,00" in r.text, "R$ 60,00" in r.text) for r in rows] == [(True, False), (True, False), (False, True)], [r.text for r in rows]
    assert "R$ 168,00" in result.text, result.text
    ui.scroll(result)
    ui.step("serie-com-cupom-reservada")
    usos = api(server, "GET", f"/api/admin/cupons/{codigo}", token=token(server, server.admin))
    assert usos["usos"] == 2, usos


def test_a_member_moves_the_rest_of_a_series_together(browser, server):
    """"Mudar horário" on an occurrence of a series offers "Mudar também as próximas reservas da
    série": with it ticked, the second of three weekly bookings moves to the next day at 16:00 and
    the third with it (the first stays). A time one of them cannot take (another member holds the
    third's new hour) is refused for all, the message naming that occurrence and its date, and
    nothing moves. The inbox has one notice for the move. On a phone the panel with the box fits."""
    from test_remarcacao import CARTAO, at, choose_time, fits, panel, quando, ready
    from journeys import room, unit

    sufixo = uuid.uuid4().hex[:4]
    unidade = unit(server, f"CoworkFlow Série {sufixo}")
    nome_sala = f"Sala Série Move {sufixo}"
    sala = room(server, unidade["id"], nome_sala)
    email, senha, membro = member(server, f"Lia Série{sufixo}")
    primeiro = at(2, 10)
    serie = api(server, "POST", "/api/reservas/series", {
        "espacoId": sala, "inicio": primeiro.isoformat(), "fim": (primeiro + timedelta(hours=1)).isoformat(),
        "frequencia": "semanal", "ocorrencias": 3, "pagamento": CARTAO}, membro)
    ids = [o["reservaId"] for o in serie["ocorrencias"]]
    assert len(ids) == 3 and all(ids), serie
    for reserva_id in ids:
        ready(server, membro, reserva_id)
    # another member holds the third's next day at 15:00
    _, _, outro = member(server, f"Caio Série{sufixo}")
    book(server, outro, sala, primeiro + timedelta(days=15, hours=5), primeiro + timedelta(days=15, hours=6))

    ui = browser(size=(1280, 900))
    open_signed_in(ui, server, (email, senha), "/reservas")
    ui.wait_heading("Minhas reservas")
    row = lambda: ui.row("", f"#view tr[data-reserva='{ids[1]}']")  # noqa: E731
    ui.click("Mudar horário", row())
    aberto = panel(ui)
    caixa = aberto.find_element(By.CSS_SELECTOR, "input[name=serie]")
    assert "Mudar também as próximas reservas da série" in aberto.text and "nenhuma muda" in aberto.text and not caixa.is_selected(), aberto.text
    segundo = primeiro + timedelta(days=7)
    ui.set_value("Nova data", (segundo + timedelta(days=1)).date().isoformat())
    choose_time(ui, segundo + timedelta(days=1, hours=5))
    ui.press(aberto.find_element(By.CSS_SELECTOR, f"label[for='{caixa.get_attribute('id')}']"))
    assert caixa.is_selected()
    ui.expect_http(409, f"/api/reservas/series/{serie['id']}/remarcacao")
    ui.click("Confirmar novo horário", aberto)
    terceiro = primeiro + timedelta(days=14)
    erro = ui.wait_text(f"A ocorrência 3 ({terceiro:%d/%m/%Y}) não pode mudar", ".remarcacao [role=alert]")
    assert "já está reservado" in erro.text, erro.text
    ui.step("serie-remarcar-recusada")
    assert [api(server, "GET", f"/api/reservas/{i}", token=membro)["inicio"] for i in ids] == [o["inicio"] for o in serie["ocorrencias"]]

    # 16:00 the next day: the second and the third move, the first stays
    choose_time(ui, segundo + timedelta(days=1, hours=6))
    assert caixa.is_selected()
    ui.step("serie-remarcar")
    ui.click("Confirmar novo horário", aberto)
    novo = segundo + timedelta(days=1, hours=6)
    ui.wait_text(f"Série remarcada: 2 reservas a partir de {quando(novo, novo + timedelta(hours=1))}, cada uma às 16:00.", "#flash")
    ui.wait(lambda d: quando(novo, novo + timedelta(hours=1)) in row().text, "the row kept the old time")
    ui.step("serie-remarcada")
    inicios = [datetime.fromisoformat(api(server, "GET", f"/api/reservas/{i}", token=membro)["inicio"].replace("Z", "+00:00")) for i in ids]
    assert inicios == [primeiro, novo, novo + timedelta(days=7)], inicios

    # one notice for the move
    titulo = f"Série remarcada: {nome_sala}, 2 reservas"
    eventually(lambda: any(n["titulo"] == titulo for n in api(server, "GET", "/api/notificacoes", token=membro)["itens"]), "the move's notice")
    itens = api(server, "GET", "/api/notificacoes", token=membro)["itens"]
    assert not [n for n in itens if n["titulo"].startswith("Reserva remarcada")], [n["titulo"] for n in itens]

    # on a phone: the panel with the box fits the screen
    phone = browser(size=(390, 844), mobile=True)
    open_signed_in(phone, server, (email, senha), "/reservas")
    phone.wait_heading("Minhas reservas")
    phone.click("Mudar horário", phone.row("", f"#view tr[data-reserva='{ids[0]}']"))
    phone.scroll(panel(phone).find_element(By.CSS_SELECTOR, "input[name=serie]"))
    assert "Mudar também as próximas reservas da série" in panel(phone).text
    assert fits(phone)
    phone.step("serie-remarcar-celular")


def test_the_desk_moves_the_rest_of_a_members_series(browser, server):
    """On "Reservas do dia" the desk's "Mudar horário" on a member's series offers the same box:
    the first of three weekly bookings and the two after it move two hours on, together."""
    from test_remarcacao import CARTAO, at, choose_time, panel, quando
    from journeys import room, unit

    sufixo = uuid.uuid4().hex[:4]
    unidade = unit(server, f"CoworkFlow Série Balcão {sufixo}")
    sala = room(server, unidade["id"], f"Sala Série Balcão {sufixo}")
    nome = f"Otavio Série{sufixo}"
    _, _, membro = member(server, nome)
    primeiro = at(2, 10)
    serie = api(server, "POST", "/api/reservas/series", {
        "espacoId": sala, "inicio": primeiro.isoformat(), "fim": (primeiro + timedelta(hours=1)).isoformat(),
        "frequencia": "semanal", "ocorrencias": 3, "pagamento": CARTAO}, membro)
    ids = [o["reservaId"] for o in serie["ocorrencias"]]
    for i in ids:
        eventually(lambda i=i: api(server, "GET", f"/api/reservas/{i}", token=membro)["status"] == "confirmada", "the card payments")

    ui = browser(size=(1280, 900))
    open_signed_in(ui, server, server.admin, f"/admin/reservas?unidade={unidade['id']}&data={primeiro.date().isoformat()}")
    ui.wait_heading("Reservas do dia")
    ui.click("Mudar horário", ui.row(nome, "#view tbody tr[data-reserva]"))
    aberto = panel(ui)
    novo = primeiro + timedelta(hours=2)
    choose_time(ui, novo)
    caixa = aberto.find_element(By.CSS_SELECTOR, "input[name=serie]")
    ui.press(aberto.find_element(By.CSS_SELECTOR, f"label[for='{caixa.get_attribute('id')}']"))
    assert caixa.is_selected()
    ui.step("equipe-remarcar-serie")
    ui.click("Confirmar novo horário", aberto)
    ui.wait_text(f"Série de {nome} remarcada: 3 reservas a partir de {quando(novo, novo + timedelta(hours=1))}, cada uma às 12:00.", "#flash")
    ui.step("equipe-serie-remarcada")
    inicios = [datetime.fromisoformat(api(server, "GET", f"/api/reservas/{i}", token=membro)["inicio"].replace("Z", "+00:00")) for i in ids]
    assert inicios == [novo, novo + timedelta(days=7), novo + timedelta(days=14)], inicios
    titulo = f"Série remarcada: Sala Série Balcão {sufixo}, 3 reservas"
    eventually(lambda: any(n["titulo"] == titulo for n in api(server, "GET", "/api/notificacoes", token=membro)["itens"]), "the move's notice")
