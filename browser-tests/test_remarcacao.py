"""Moving a booking to another time ("Mudar horário"): the same space, the same length, the same
price and check-in code.

A member books a room two days ahead by PIX and pays it in the sandbox's test bank; on "Minhas
reservas" the booking offers "Mudar horário", whose panel opens under its row with the focus on
its heading (and "Fechar" gives it back to the button): the booking's day, its own hour counting
as free for itself (10:30–11:30 is offered for 10:00–11:00, 10:00 itself is not), "O valor e o
código de check-in continuam os mesmos". An evening hour the price table makes dearer is refused
in words with both prices as it is picked ("Este horário custa mais pela tabela") and again by
the API on "Confirmar" (409 `remarcacao_mais_cara`); the next day at 15:00, "Mesmo preço", is
taken: the list shows the new time and "Remarcada", the API agrees (the same total,
`remarcacoes` 1) and the old hour is free again on the space's page.

The front desk moves a member's booking starting within the member's free window (the member
is refused by the API: 409 `remarcacao_fora_do_prazo`) onto a peak hour on "Reservas do dia"
(the desk is bound by neither): the row shows the new time and "Remarcada", the total stays.

A member's list offers the move only where it can be done: not on a booking waiting for its
payment, nor on one within the free window (which says "Para mudar o horário, fale com a
recepção."). The panel on both screens at 1280×800 and 390×844 (nothing scrolls sideways; Esc
closes it on the phone, the focus back on the button).

Units and rooms of the test's own, open around the clock (journeys.unit: 24 h without fee, then
50 %), so the run works at any hour."""

from __future__ import annotations

import urllib.error
import uuid
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from journeys import api, book, eventually, member, open_signed_in, quote_and_book, room, session, slot, token, unit

SP = ZoneInfo("America/Sao_Paulo")
CARTAO = {"metodo": "cartao", "cartaoToken": "tok_visa"}
TODOS_OS_DIAS = ["segunda", "terca", "quarta", "quinta", "sexta", "sabado", "domingo"]


def at(days: int, hour: int, minute: int = 0) -> datetime:
    return (datetime.now(SP) + timedelta(days=days)).replace(hour=hour, minute=minute, second=0, microsecond=0)


def quando(inicio: datetime, fim: datetime) -> str:
    """As the app writes a booking's time: "26/11/2026, 15:00–16:00"."""
    return f"{inicio.strftime('%d/%m/%Y, %H:%M')}–{fim.strftime('%H:%M')}"


def ms(instant: datetime) -> str:
    return str(int(instant.timestamp() * 1000))


def ready(server, membro: str, reserva_id: str) -> None:
    """Confirmed, and its check-in code issued (the screens as a member finds them a moment later)."""
    eventually(lambda: api(server, "GET", f"/api/reservas/{reserva_id}", token=membro)["status"] == "confirmada", "the confirmation")
    eventually(lambda: api(server, "GET", f"/api/reservas/{reserva_id}/checkin", token=membro).get("codigo"), "the check-in code")


def peak(server, espaco: str, inicio: datetime, horas: int = 1) -> None:
    """A peak rule on every day of the week: 1.5 × the hourly price from `inicio`'s hour."""
    api(server, "POST", f"/api/admin/espacos/{espaco}/precos/regras", {
        "tipo": "horario_de_pico", "dias": TODOS_OS_DIAS, "inicioMinutos": inicio.hour * 60,
        "fimMinutos": (inicio.hour + horas) * 60, "multiplicadorBP": 15000}, token(server, server.admin))


def panel(ui):
    return ui.wait(lambda d: next((p for p in d.find_elements(By.CSS_SELECTOR, ".remarcacao") if p.is_displayed()), False), "no panel")


def times(ui) -> list[str]:
    """The panel's offered times, once loaded."""
    ui.wait_idle()
    return [" ".join(label.text.split()) for label in panel(ui).find_elements(By.CSS_SELECTOR, ".remarcacao__opcao label")]


def choose_time(ui, inicio: datetime) -> None:
    """Picks the offered start `inicio` (the radio's value is the instant: the day is the one shown)."""
    radio = ui.wait(lambda d: (d.find_elements(By.CSS_SELECTOR, f".remarcacao input[name=inicio][value='{ms(inicio)}']") or [False])[0],
                    f"{inicio:%d/%m %H:%M} not offered")
    ui.press(ui.driver.find_element(By.CSS_SELECTOR, f"label[for='{radio.get_attribute('id')}']"))
    assert radio.is_selected()


def focused(ui) -> dict:
    return ui.driver.execute_script(
        "const el = document.activeElement;"
        "return {tag: el.tagName.toLowerCase(), cls: el.className, acao: el.dataset.acao || '', expanded: el.getAttribute('aria-expanded'),"
        " reserva: el.closest('tr') ? el.closest('tr').dataset.reserva || '' : ''};")


def fits(ui) -> bool:
    """The page does not scroll sideways, nor does the box of times (only down)."""
    return ui.driver.execute_script(
        "const o = document.querySelector('.remarcacao__opcoes');"
        "return document.documentElement.scrollWidth <= document.documentElement.clientWidth && (!o || o.scrollWidth <= o.clientWidth);")


def move_button(ui, row):
    return ui.button("Mudar horário", row)


def test_a_member_moves_a_paid_booking_to_another_day_and_the_old_hour_is_free_again(browser, server):
    sufixo = uuid.uuid4().hex[:4]
    unidade = unit(server, f"CoworkFlow Remarca {sufixo}")
    nome_sala = f"Sala Remarca {sufixo}"
    sala = room(server, unidade["id"], nome_sala)
    email, senha, membro = member(server, f"Clara Remarca{sufixo}")
    antes, depois = at(2, 10), at(3, 15)
    peak(server, sala, at(2, 18))

    # booked by PIX on the space's page and paid in the sandbox's test bank
    ui = browser(size=(1280, 800))
    open_signed_in(ui, server, (email, senha), f"/espacos/{sala}?data={antes.date().isoformat()}&de=10:00&ate=11:00")
    ui.wait_text("Composição do preço", ".quote")
    quote_and_book(ui, "PIX")
    ui.click_link("Pagar agora", ".result")
    ui.wait_heading("Pagamento da reserva")
    ui.click("Pagar no sandbox")
    ui.wait_text("Pagamento confirmado e reserva confirmada!")
    reserva = next(r for r in api(server, "GET", "/api/reservas", token=membro)["itens"] if r["espacoId"] == sala)
    ready(server, membro, reserva["id"])
    ui.step("reserva paga no sandbox")

    ui.menu("Minhas reservas")
    ui.wait_heading("Minhas reservas")
    row = lambda: ui.row("", f"#view tr[data-reserva='{reserva['id']}']")  # noqa: E731
    assert quando(antes, antes + timedelta(hours=1)) in row().text and "Remarcada" not in row().text, row().text

    # the panel opens under the row, the focus on its heading; "Fechar" gives it back to the button
    ui.click("Mudar horário", row())
    aberto = panel(ui)
    assert focused(ui)["cls"] == "remarcacao__titulo", focused(ui)
    assert move_button(ui, row()).get_attribute("aria-expanded") == "true"
    assert "O valor e o código de check-in continuam os mesmos" in aberto.text, aberto.text
    assert f"Agora: {nome_sala}, {quando(antes, antes + timedelta(hours=1))} (1 h)" in aberto.text, aberto.text
    assert ui.value("Nova data") == antes.date().isoformat()
    offered = times(ui)
    # its own hour is free for itself: half an hour later overlaps it and is offered; the same start is not
    assert "10:30–11:30" in offered and "09:30–10:30" in offered and "10:00–11:00" not in offered, offered
    assert fits(ui)
    ui.step("painel mudar horario")
    ui.click("Fechar", aberto)
    ui.wait(lambda d: not d.find_elements(By.CSS_SELECTOR, ".remarcacao"), "the panel stayed open")
    assert focused(ui)["acao"] == "mudar-horario" and focused(ui)["expanded"] == "false", focused(ui)

    # a dearer hour (the peak rule): said as it is picked, then refused in words, both prices said
    ui.click("Mudar horário", row())
    choose_time(ui, at(2, 18))
    aviso = ui.wait_text("Este horário custa mais pela tabela", ".remarcacao__preco")
    assert "(R$ 90,00 contra R$ 60,00)" in aviso.text.replace("\xa0", " ") and "remarcacao__preco--caro" in aviso.get_attribute("class"), aviso.text
    ui.step("mais caro avisado")
    ui.expect_http(409, f"/api/reservas/{reserva['id']}/remarcacao")
    ui.click("Confirmar novo horário", panel(ui))
    erro = ui.wait_text("O novo horário custa R$", ".remarcacao [role=alert]")
    texto = erro.text.replace("\xa0", " ")
    assert "R$ 90,00 pela tabela de preços, mais que os R$ 60,00 do atual" in texto and "cancele esta reserva" in texto, texto
    ui.step("mais caro recusado")

    # another day: its times once loaded, 15:00–16:00 chosen
    ui.set_value("Nova data", depois.date().isoformat())
    assert not panel(ui).find_element(By.CSS_SELECTOR, ".remarcacao__preco").text, "the other day's price hint stayed"
    choose_time(ui, depois)
    mesmo = ui.wait_text("Mesmo preço pela tabela", ".remarcacao__preco")
    assert "(R$ 60,00)" in mesmo.text.replace("\xa0", " ") and "remarcacao__preco--caro" not in mesmo.get_attribute("class"), mesmo.text
    ui.step("outro dia escolhido")
    ui.click("Confirmar novo horário", panel(ui))
    novo = quando(depois, depois + timedelta(hours=1))
    ui.wait_text(f"Reserva remarcada para {novo}. O valor e o código de check-in continuam os mesmos.", "#flash")
    ui.wait(lambda d: novo in row().text, "the row kept the old time")
    assert "Remarcada" in row().text and "R$ 60,00" in row().text.replace("\xa0", " "), row().text
    assert not ui.driver.find_elements(By.CSS_SELECTOR, ".remarcacao"), "the panel stayed open"
    assert focused(ui)["reserva"] == reserva["id"], focused(ui)
    ui.step("reserva remarcada")

    movida = api(server, "GET", f"/api/reservas/{reserva['id']}", token=membro)
    assert datetime.fromisoformat(movida["inicio"].replace("Z", "+00:00")) == depois, movida
    assert movida["remarcacoes"] == 1 and movida["total"] == reserva["total"] == 6000 and movida["status"] == "confirmada", movida

    # the old hour is free again on the space's page
    ui.open(f"/espacos/{sala}?data={antes.date().isoformat()}")
    ui.wait_heading(nome_sala)
    assert "livre" in slot(ui, "10:00").get_attribute("aria-label"), slot(ui, "10:00").get_attribute("aria-label")
    ui.step("horario antigo livre")


def test_the_front_desk_moves_a_members_booking_onto_a_dearer_hour_within_the_members_closed_window(browser, server):
    sufixo = uuid.uuid4().hex[:4]
    unidade = unit(server, f"CoworkFlow Balcão {sufixo}")
    sala = room(server, unidade["id"], f"Sala Balcão {sufixo}")
    nome = f"Marina Balcão{sufixo}"
    _, _, membro = member(server, nome)
    # the next whole hour two or more hours on, leaving room for an hour two hours later that day
    inicio = (datetime.now(SP) + timedelta(hours=2)).replace(minute=0, second=0, microsecond=0) + timedelta(hours=1)
    if inicio.hour > 20:
        inicio = (inicio + timedelta(days=1)).replace(hour=8)
    destino = inicio + timedelta(hours=2)
    peak(server, sala, destino)
    reserva = book(server, membro, sala, inicio, inicio + timedelta(hours=1), CARTAO)
    ready(server, membro, reserva["id"])

    # less than 24 h ahead: the member may no longer move it
    with pytest.raises(urllib.error.HTTPError) as refused:
        api(server, "POST", f"/api/reservas/{reserva['id']}/remarcacao",
            {"inicio": destino.isoformat(), "fim": (destino + timedelta(hours=1)).isoformat()}, membro)
    assert refused.value.code == 409 and b"remarcacao_fora_do_prazo" in refused.value.read()

    ui = browser(size=(1280, 800))
    open_signed_in(ui, server, server.admin, f"/admin/reservas?unidade={unidade['id']}&data={inicio.date().isoformat()}")
    ui.wait_heading("Reservas do dia")
    row = lambda: ui.row(nome, "#view tbody tr[data-reserva]")  # noqa: E731
    ui.click("Mudar horário", row())
    aberto = panel(ui)
    assert focused(ui)["cls"] == "remarcacao__titulo", focused(ui)
    assert f"Mudar o horário da reserva de {nome}" in aberto.text, aberto.text
    assert "mesmo que o novo horário custe mais" in aberto.text, aberto.text
    assert ui.value("Nova data") == inicio.date().isoformat()
    assert f"{destino:%H:%M}–{destino + timedelta(hours=1):%H:%M}" in times(ui), times(ui)
    choose_time(ui, destino)
    ui.step("recepcao painel mudar horario")
    ui.click("Confirmar novo horário", aberto)
    novo = quando(destino, destino + timedelta(hours=1))
    ui.wait_text(f"Reserva de {nome} remarcada para {novo}.", "#flash")
    ui.wait(lambda d: f"{destino:%H:%M}–{destino + timedelta(hours=1):%H:%M}" in row().text, "the row kept the old time")
    assert "Remarcada" in row().text, row().text
    ui.step("recepcao reserva remarcada")

    movida = api(server, "GET", f"/api/reservas/{reserva['id']}", token=membro)
    assert datetime.fromisoformat(movida["inicio"].replace("Z", "+00:00")) == destino, movida
    assert movida["total"] == 6000 and movida["remarcacoes"] == 1, movida

    # on a phone: the panel fits the screen; "Fechar" gives the focus back to the button
    phone = browser(size=(390, 844), mobile=True)
    open_signed_in(phone, server, server.admin, f"/admin/reservas?unidade={unidade['id']}&data={inicio.date().isoformat()}")
    phone.wait_heading("Reservas do dia")
    card = phone.row(nome, "#view tbody tr[data-reserva]")
    phone.click("Mudar horário", card)
    phone.scroll(panel(phone))
    assert times(phone), "no time offered on the phone"
    assert fits(phone)
    phone.step("recepcao painel no celular")
    phone.click("Fechar", panel(phone))
    phone.wait(lambda d: not d.find_elements(By.CSS_SELECTOR, ".remarcacao"), "the panel stayed open")
    assert focused(phone)["acao"] == "mudar-horario", focused(phone)


def test_a_member_is_offered_the_move_only_where_it_can_be_done(browser, server):
    sufixo = uuid.uuid4().hex[:4]
    unidade = unit(server, f"CoworkFlow Prazo {sufixo}")
    sala = room(server, unidade["id"], f"Sala Prazo {sufixo}")
    email, senha, membro = member(server, f"Otavio Prazo{sufixo}")
    agora = datetime.now(SP).replace(second=0, microsecond=0)
    logo = agora - timedelta(minutes=agora.minute % 30) + timedelta(hours=3)  # a half hour 2 h 30 to 3 h on
    pendente = book(server, membro, sala, at(3, 9), at(3, 10))  # PIX, never paid
    paga = book(server, membro, sala, at(3, 14), at(3, 15), CARTAO)
    em_cima = book(server, membro, sala, logo, logo + timedelta(hours=1), CARTAO)
    ready(server, membro, paga["id"])
    ready(server, membro, em_cima["id"])

    for size, mobile in (((1280, 800), False), ((390, 844), True)):
        ui = browser(size=size, mobile=mobile)
        open_signed_in(ui, server, (email, senha), "/reservas")
        ui.wait_heading("Minhas reservas")
        row = lambda r: ui.row("", f"#view tr[data-reserva='{r['id']}']")  # noqa: E731
        names = lambda r: [" ".join(b.get_attribute("textContent").split()) for b in row(r).find_elements(By.CSS_SELECTOR, "td:last-child button")]  # noqa: E731
        assert "Mudar horário desta reserva" not in names(pendente), names(pendente)
        assert "Aguardando pagamento" in row(pendente).text and "fale com a recepção" not in row(pendente).text, row(pendente).text
        assert names(paga) == ["Mudar horário desta reserva", "Cancelar esta reserva"], names(paga)
        assert "Mudar horário desta reserva" not in names(em_cima), names(em_cima)
        assert "Para mudar o horário, fale com a recepção." in row(em_cima).text, row(em_cima).text
        ui.step("so onde da para mudar")

        # the panel of the one that can move; Esc closes it, the focus back on the button
        ui.click("Mudar horário", row(paga))
        ui.scroll(panel(ui))
        assert "14:30–15:30" in times(ui), times(ui)
        choose_time(ui, at(3, 14, 30))
        ui.wait_text("Mesmo preço pela tabela", ".remarcacao__preco")
        assert fits(ui)
        ui.step("painel do membro")
        panel(ui).find_element(By.CSS_SELECTOR, "input[type=date]").send_keys(Keys.ESCAPE)
        ui.wait(lambda d: not d.find_elements(By.CSS_SELECTOR, ".remarcacao"), "Esc left the panel open")
        assert focused(ui)["acao"] == "mudar-horario" and focused(ui)["reserva"] == paga["id"], focused(ui)


MESES = ["janeiro", "fevereiro", "março", "abril", "maio", "junho", "julho", "agosto", "setembro", "outubro", "novembro", "dezembro"]


def dia_do_mes(meses: int, dia: int, hora: int) -> datetime:
    """`dia` at `hora` (São Paulo) of the month `meses` months after this one."""
    hoje = datetime.now(SP)
    ano, mes = divmod(hoje.month - 1 + meses, 12)
    return datetime(hoje.year + ano, mes + 1, dia, hora, tzinfo=SP)


def test_a_member_cannot_move_a_booking_paid_by_the_company_into_a_month_where_their_cap_is_full(browser, server):
    """A booking the company's pool paid counts in its month under the cap the manager set; moved
    into a month where the member has used the cap already, it is refused in words naming that
    month (409 `limite_do_mes`), and nothing moves. Desktop and phone."""
    from test_companies import empresa_com

    sufixo = uuid.uuid4().hex[:4]
    admin = token(server, server.admin)
    plano = api(server, "POST", "/api/admin/planos", {
        "nome": f"Equipe Remarca {sufixo}", "periodicidade": "mensal", "valorCentavos": 20000, "horasMinutos": 1800,
        "tiposDasHoras": ["sala_reuniao"]}, admin)
    gestora = member(server, f"Helena Remarca{sufixo}")
    email, senha, membro = member(server, f"Ivo Remarca{sufixo}")
    eid = empresa_com(server, gestora, [(email, senha, membro)], f"Limite {sufixo}")
    api(server, "POST", f"/api/empresas/{eid}/assinatura", {"planoId": plano["planoId"], "metodo": "boleto", "assentos": 2}, gestora[2])
    eventually(lambda: api(server, "GET", f"/api/empresas/{eid}/creditos", token=gestora[2])["minutos"] >= 120, "the pool's hours")
    membro_id = session(server, (email, senha))["usuario"]["id"]
    api(server, "PUT", f"/api/empresas/{eid}/integrantes/{membro_id}/limite", {"minutosPorMes": 60}, gestora[2])

    unidade = unit(server, f"CoworkFlow Limite {sufixo}")
    sala = room(server, unidade["id"], f"Sala Limite {sufixo}")
    # an hour next month and an hour the month after, each the month's whole cap, both from the pool
    proximo, seguinte, destino = dia_do_mes(1, 10, 10), dia_do_mes(2, 10, 10), dia_do_mes(2, 11, 10)
    movida = book(server, membro, sala, proximo, proximo + timedelta(hours=1))
    book(server, membro, sala, seguinte, seguinte + timedelta(hours=1))
    assert movida["total"] == 0 and movida["creditos"]["daEmpresa"]["minutos"] == 60, movida
    eventually(lambda: api(server, "GET", f"/api/reservas/{movida['id']}", token=membro)["status"] == "confirmada", "the confirmation")

    mes = f"{MESES[destino.month - 1]} de {destino.year}"
    for size, mobile, nome in (((1280, 800), False, "1280x800"), ((390, 844), True, "390x844")):
        ui = browser(size=size, mobile=mobile)
        open_signed_in(ui, server, (email, senha), "/reservas")
        ui.wait_heading("Minhas reservas")
        row = lambda: ui.row("", f"#view tr[data-reserva='{movida['id']}']")  # noqa: E731
        ui.click("Mudar horário", row())
        ui.set_value("Nova data", destino.date().isoformat())
        choose_time(ui, destino)
        ui.wait_text("Mesmo preço pela tabela", ".remarcacao__preco")
        ui.expect_http(409, f"/api/reservas/{movida['id']}/remarcacao")
        ui.click("Confirmar novo horário", panel(ui))
        erro = ui.wait_text("O limite mensal que a sua empresa definiu", ".remarcacao [role=alert]")
        assert f"não tem espaço em {mes} para esta reserva" in erro.text and "Escolha um horário no mesmo mês" in erro.text, erro.text
        assert fits(ui)
        ui.scroll(erro)
        ui.step(f"limite do mes na remarcacao {nome}")

    # nothing moved: the booking keeps its time, each month its hour
    depois = api(server, "GET", f"/api/reservas/{movida['id']}", token=membro)
    assert depois["inicio"] == movida["inicio"] and depois.get("remarcacoes", 0) == 0, depois
    for quando_ in (proximo, seguinte):
        uso = api(server, "GET", f"/api/empresas/{eid}/uso?mes={quando_:%Y-%m}", token=membro)["pessoas"]
        assert [p["minutos"] for p in uso] == [60], (quando_, uso)
