"""The reception's day board: a unit's spaces as rows and the day's hours across, each booking a
block with its member's name and where it stands (aguardando, presente, saiu, cancelada,
aguardando pagamento), a blackout as blocked time; under it the list, where the arrival and the
departure are registered only when they can be, the server's refusal said in words; and the board
keeps itself current while it is open. The desk's cancellation refunds a booking whole, or charges
the unit's fee when the operator asks, and cancels the rest of a member's series at once.

Everything is prepared through the API in units of the test's own, open around the clock, with
bookings an hour or more ahead (check-in opens a day ahead), so the run works at any hour."""

from __future__ import annotations

import uuid
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from selenium.webdriver.common.by import By

from journeys import api, book, confirmed_and_checked_in, eventually, member, room, sign_in, token, unit

SP = ZoneInfo("America/Sao_Paulo")
CARTAO = {"metodo": "cartao", "cartaoToken": "tok_visa"}


def first_free_hour(hours: int) -> datetime:
    """The next whole hour an hour or more from now, or the next midnight when `hours` hours from
    it would cross into another day (the board shows one day)."""
    agora = datetime.now(SP).replace(minute=0, second=0, microsecond=0)
    base = agora + timedelta(hours=2)
    if (base + timedelta(hours=hours)).date() != base.date():
        base = (base + timedelta(days=1)).replace(hour=0)
    return base


def confirmed(server, membro: str, reserva: dict) -> dict:
    eventually(lambda: api(server, "GET", f"/api/reservas/{reserva['id']}", token=membro)["status"] == "confirmada", "the confirmation")
    eventually(lambda: api(server, "GET", f"/api/reservas/{reserva['id']}/checkin", token=membro).get("codigo"), "the check-in code")
    return reserva


def block(ui, espaco: str, nome: str):
    """The board's block of `nome` in the row of space `espaco`."""
    def find(d):
        for b in d.find_elements(By.CSS_SELECTOR, f".board__row[data-espaco='{espaco}'] .board__block"):
            if nome in b.text:
                return b
        return False
    return ui.wait(find, f"no block of {nome} on the board")


def offered(row) -> list[str]:
    """A row's actions, as a screen reader says them."""
    cell = row.find_element(By.CSS_SELECTOR, "td:last-child")
    return [" ".join(b.get_attribute("textContent").split()) for b in cell.find_elements(By.CSS_SELECTOR, "button")]


def test_the_reception_sees_the_day_and_registers_arrivals_and_departures(browser, server):
    sufixo = uuid.uuid4().hex[:4]
    unidade = unit(server, f"CoworkFlow Recepção {sufixo}")
    norte = room(server, unidade["id"], f"Sala Norte {sufixo}")
    sul = room(server, unidade["id"], f"Sala Sul {sufixo}")
    base = first_free_hour(5)
    hora = lambda n: base + timedelta(hours=n)  # noqa: E731
    admin = token(server, server.admin)
    api(server, "POST", f"/api/admin/espacos/{sul}/bloqueios",
        {"inicio": hora(3).isoformat(), "fim": hora(5).isoformat(), "motivo": "manutencao", "descricao": "Pintura"}, admin)

    pessoas = {nome: member(server, nome)[2] for nome in ("Paula Souza", "Rui Castro", "Lia Mendes", "Davi Rocha", "Sofia Lima", "Marcos Pires")}
    paula = book(server, pessoas["Paula Souza"], norte, hora(0), hora(1), CARTAO)
    rui = book(server, pessoas["Rui Castro"], norte, hora(1), hora(2), CARTAO)
    lia = confirmed(server, pessoas["Lia Mendes"], book(server, pessoas["Lia Mendes"], norte, hora(2), hora(3), CARTAO))
    davi = confirmed(server, pessoas["Davi Rocha"], book(server, pessoas["Davi Rocha"], norte, hora(3), hora(4), CARTAO))
    book(server, pessoas["Sofia Lima"], sul, hora(0), hora(1))  # PIX, never paid: the slot is held
    marcos = confirmed(server, pessoas["Marcos Pires"], book(server, pessoas["Marcos Pires"], sul, hora(1), hora(2), CARTAO))
    confirmed_and_checked_in(server, pessoas["Paula Souza"], paula)
    confirmed_and_checked_in(server, pessoas["Rui Castro"], rui, checkout=True)
    api(server, "POST", f"/api/reservas/{davi['id']}/cancelamento", {}, pessoas["Davi Rocha"])
    eventually(lambda: api(server, "GET", f"/api/reservas/{davi['id']}", token=pessoas["Davi Rocha"])["status"] == "cancelada", "the cancellation")
    eventually(lambda: api(server, "GET", f"/api/reservas/{rui['id']}", token=pessoas["Rui Castro"]).get("checkoutEm"), "the checkout in the booking")

    ui = browser(size=(1280, 900))
    sign_in(ui, *server.admin, expect_heading="Reservas do dia")
    ui.open(f"/admin/reservas?unidade={unidade['id']}&data={base.date().isoformat()}")
    ui.wait_heading("Reservas do dia")
    ui.wait_text("Quadro do dia")

    # the board: a row per space, a block per booking with the member's name and state
    states = {
        (norte, "Paula Souza"): ("presente", "Presente"), (norte, "Rui Castro"): ("saiu", "Saiu"),
        (norte, "Lia Mendes"): ("aguardando", "Aguardando"), (norte, "Davi Rocha"): ("cancelada", "Cancelada"),
        (sul, "Sofia Lima"): ("pendente", "Aguardando pagamento"), (sul, "Marcos Pires"): ("aguardando", "Aguardando"),
    }
    for (espaco, nome), (estado, palavra) in states.items():
        b = block(ui, espaco, nome)
        assert b.get_attribute("data-estado") == estado and palavra in b.text, (nome, estado, b.text)
    blocked = block(ui, sul, "Bloqueado: Manutenção")
    assert blocked.get_attribute("data-estado") == "bloqueado", blocked.get_attribute("outerHTML")
    names = [e.text for e in ui.driver.find_elements(By.CSS_SELECTOR, ".board__row:not(.board__row--hours) .board__space")]
    assert names == [f"Sala Norte {sufixo}", f"Sala Sul {sufixo}"], names

    # each block sits under its hours: its left edge at its start's label, as wide as the booking
    geometry = ui.driver.execute_script("""
      const labels = [...document.querySelectorAll('.board__hour')].map((l) => [l.textContent, l.getBoundingClientRect()]);
      const at = (x) => labels.reduce((best, l) => (Math.abs(l[1].left + l[1].width / 2 - x) < Math.abs(best[1].left + best[1].width / 2 - x) ? l : best))[0];
      return [...arguments].map((b) => { const r = b.getBoundingClientRect(); return [at(r.left), at(r.right), Math.round(r.width)]; });
    """, block(ui, norte, "Paula Souza"), block(ui, norte, "Rui Castro"), blocked)
    hh = lambda n: f"{hora(n).hour:02d}:00"  # noqa: E731
    assert geometry[0][:2] == [hh(0), hh(1)] and geometry[1][:2] == [hh(1), hh(2)], geometry
    assert geometry[2][:2] == [hh(3), hh(5)] and abs(geometry[2][2] - 2 * geometry[0][2]) <= 4, geometry
    ui.step("quadro do dia")

    # the list: only what can be done now
    row = lambda nome: ui.row(nome, "#view tbody tr")  # noqa: E731
    assert offered(row("Paula Souza")) == ["Registrar saída de Paula Souza"], offered(row("Paula Souza"))
    assert "Presente" in row("Paula Souza").text and "Entrada às" in row("Paula Souza").text, row("Paula Souza").text
    assert offered(row("Rui Castro")) == [] and "Saída às" in row("Rui Castro").text, row("Rui Castro").text
    assert offered(row("Lia Mendes")) == ["Registrar entrada de Lia Mendes", "Cancelar a reserva de Lia Mendes"], offered(row("Lia Mendes"))
    assert offered(row("Davi Rocha")) == [] and "Cancelada" in row("Davi Rocha").text, row("Davi Rocha").text
    assert offered(row("Sofia Lima")) == ["Cancelar a reserva de Sofia Lima"], offered(row("Sofia Lima"))
    assert "Aguardando pagamento" in row("Sofia Lima").text, row("Sofia Lima").text

    # the arrival, then the departure, of Lia
    ui.driver.execute_script("window.semRecarregar = true")
    ui.click("Registrar entrada", row("Lia Mendes"))
    ui.wait_text("Entrada registrada: Lia Mendes", "#flash")
    ui.wait(lambda d: block(ui, norte, "Lia Mendes").get_attribute("data-estado") == "presente", "Lia's block did not turn presente")
    ui.wait(lambda d: offered(row("Lia Mendes")) == ["Registrar saída de Lia Mendes"], "no departure offered after the arrival")
    assert "Presente" in row("Lia Mendes").text
    ui.step("entrada registrada")
    ui.click("Registrar saída", row("Lia Mendes"))
    dialog = ui.dialog()
    assert "Lia Mendes" in dialog.text, dialog.text
    ui.click("Registrar saída", dialog)
    ui.wait_text("Saída registrada: Lia Mendes", "#flash")
    ui.wait(lambda d: block(ui, norte, "Lia Mendes").get_attribute("data-estado") == "saiu", "Lia's block did not turn saiu")
    ui.wait(lambda d: offered(row("Lia Mendes")) == [], "actions left after the departure")
    ui.step("saida registrada")

    # live: Marcos checks in with his phone; the board shows it by itself, without a reload
    confirmed_and_checked_in(server, pessoas["Marcos Pires"], marcos)
    ui.wait(lambda d: block(ui, sul, "Marcos Pires").get_attribute("data-estado") == "presente", "the board did not refresh by itself", timeout=40)
    assert ui.driver.execute_script("return window.semRecarregar === true"), "the page was reloaded"
    ui.wait(lambda d: offered(row("Marcos Pires")) == ["Registrar saída de Marcos Pires"])
    ui.step("quadro atualizado sozinho")


def test_the_desk_cancels_a_booking_refunded_whole_or_under_the_policy(browser, server):
    """An operator's cancellation of a member's booking gives it all back (the dialog says so, with
    the amount); ticking "Aplicar a política da unidade" charges the fee a member would pay (here,
    within 24 h of the start: half)."""
    sufixo = uuid.uuid4().hex[:4]
    unidade = unit(server, f"CoworkFlow Cancelamento {sufixo}")
    sala = room(server, unidade["id"], f"Sala Cancelamento {sufixo}")
    base = first_free_hour(2)
    pessoas = {nome: member(server, nome)[2] for nome in ("Tania Reis", "Ugo Prado", "Vera Lins")}
    tania = confirmed(server, pessoas["Tania Reis"], book(server, pessoas["Tania Reis"], sala, base, base + timedelta(hours=1), CARTAO))
    ugo = confirmed(server, pessoas["Ugo Prado"],
                    book(server, pessoas["Ugo Prado"], sala, base + timedelta(hours=1), base + timedelta(hours=2), CARTAO))
    vera = confirmed(server, pessoas["Vera Lins"],
                     book(server, pessoas["Vera Lins"], sala, base + timedelta(hours=2), base + timedelta(hours=3), CARTAO))

    ui = browser(size=(1280, 900))
    sign_in(ui, *server.admin, expect_heading="Reservas do dia")
    ui.open(f"/admin/reservas?unidade={unidade['id']}&data={base.date().isoformat()}")
    ui.wait_heading("Reservas do dia")
    row = lambda nome: ui.row(nome, "#view tbody tr")  # noqa: E731

    # by default: refunded whole, no fee
    ui.click("Cancelar", row("Tania Reis"))
    dialog = ui.dialog()
    assert "reembolsada por inteiro (R$ 60,00), sem multa" in dialog.text, dialog.text
    assert not dialog.find_element(By.CSS_SELECTOR, "input[name=aplicarMulta]").is_selected()
    ui.step("cancelar pela equipe")
    ui.click("Cancelar reserva", dialog)
    ui.wait_text("Reserva cancelada. Reembolso: R$ 60,00. Multa: R$ 0,00.", "#flash")
    cancelada = api(server, "GET", f"/api/reservas/{tania['id']}", token=pessoas["Tania Reis"])
    assert cancelada["status"] == "cancelada" and cancelada["cancelamento"]["reembolso"] == 6000, cancelada

    # under the unit's policy, when the operator says so: within 24 h of the start, half is kept
    ui.click("Cancelar", row("Ugo Prado"))
    dialog = ui.dialog()
    dialog.find_element(By.CSS_SELECTOR, "input[name=aplicarMulta]").click()
    assert "Pela política da unidade: multa estimada de R$ 30,00, reembolso estimado de R$ 30,00" in dialog.text, dialog.text
    assert "reembolsada por inteiro" not in dialog.text, dialog.text
    ui.step("cancelar com a multa")
    ui.click("Cancelar reserva", dialog)
    ui.wait_text("Reserva cancelada. Reembolso: R$ 30,00. Multa: R$ 30,00.", "#flash")
    cancelada = api(server, "GET", f"/api/reservas/{ugo['id']}", token=pessoas["Ugo Prado"])
    assert cancelada["cancelamento"]["multa"] == 3000 and cancelada["cancelamento"]["reembolso"] == 3000, cancelada
    ui.step("cancelada com a multa")

    # on a phone the dialog fits; kept, nothing changes
    phone_cancel_dialog_fits(browser, server, unidade, base, "Vera Lins", "Cancelar", "Manter", "cancelar pela equipe no celular")
    assert api(server, "GET", f"/api/reservas/{vera['id']}", token=pessoas["Vera Lins"])["status"] == "confirmada"


def phone_cancel_dialog_fits(browser, server, unidade, dia, membro, botao, manter, passo):
    """On a phone, the desk's cancel dialog (`botao` on `membro`'s row of `dia`), with the unit's
    policy ticked, fits the screen's width; `manter` closes it and changes nothing."""
    phone = browser(size=(390, 844), mobile=True)
    sign_in(phone, *server.admin, expect_heading="Reservas do dia")
    phone.open(f"/admin/reservas?unidade={unidade['id']}&data={dia.date().isoformat()}")
    phone.wait_heading("Reservas do dia")
    phone.click(botao, phone.row(membro, "#view tbody tr"))
    dialog = phone.dialog()
    dialog.find_element(By.CSS_SELECTOR, "input[name=aplicarMulta]").click()
    assert phone.driver.execute_script("return document.documentElement.scrollWidth") <= 390
    phone.step(passo)
    phone.click(manter, dialog)


def test_the_desk_cancels_the_rest_of_a_members_series(browser, server):
    """A member's weekly room: on the day of its second booking the desk cancels that one and the
    later ones at once ("Cancelar esta e as próximas"), each refunded whole; the first stays, and the
    member gets one e-mail's notice for all of them."""
    sufixo = uuid.uuid4().hex[:4]
    unidade = unit(server, f"CoworkFlow Série {sufixo}")
    sala = room(server, unidade["id"], f"Sala Semanal {sufixo}")
    primeiro = first_free_hour(1) + timedelta(days=1)
    _, _, wagner = member(server, "Wagner Dias")
    serie = api(server, "POST", "/api/reservas/series", {
        "espacoId": sala, "inicio": primeiro.isoformat(), "fim": (primeiro + timedelta(hours=1)).isoformat(),
        "frequencia": "semanal", "ocorrencias": 3, "pagamento": CARTAO}, wagner)
    ids = [o["reservaId"] for o in serie["ocorrencias"]]
    for i in ids:
        eventually(lambda i=i: api(server, "GET", f"/api/reservas/{i}", token=wagner)["status"] == "confirmada", "the card payments")
    segundo = primeiro + timedelta(days=7)

    # on a phone the dialog, with the policy applied, fits; kept, nothing changes
    phone_cancel_dialog_fits(
        browser, server, unidade, segundo, "Wagner Dias", "Cancelar esta e as próximas", "Manter a série",
        "cancelar a serie pela equipe no celular")

    ui = browser(size=(1280, 900))
    sign_in(ui, *server.admin, expect_heading="Reservas do dia")
    ui.open(f"/admin/reservas?unidade={unidade['id']}&data={segundo.date().isoformat()}")
    ui.wait_heading("Reservas do dia")
    linha = ui.row("Wagner Dias", "#view tbody tr")
    assert offered(linha) == ["Cancelar a reserva de Wagner Dias", "Cancelar esta e as próximas da série de Wagner Dias"], offered(linha)
    assert "Série: 2ª reserva" in linha.text, linha.text
    ui.click("Cancelar esta e as próximas", linha)
    dialog = ui.dialog()
    assert "a 2ª reserva da série e as seguintes" in dialog.text and "reembolsada por inteiro" in dialog.text, dialog.text
    # the policy may be applied to each, as if the member cancelled: a week ahead, this one has no fee
    politica = dialog.find_element(By.CSS_SELECTOR, "input[name=aplicarMulta]")
    politica.click()
    ui.wait(lambda d: "cada reserva como se o membro cancelasse: esta sai sem multa; "
            "as seguintes, sem multa quando faltam 24 h ou mais para o início" in dialog.text, "the policy's effect")
    ui.step("cancelar a serie pela equipe com a politica")
    politica.click()
    ui.wait(lambda d: "reembolsada por inteiro" in dialog.text, "the exemption again")
    ui.fill("Motivo", "sala em reforma")
    ui.step("cancelar a serie pela equipe")
    ui.click("Cancelar as reservas", dialog)
    ui.wait_text("2 reservas da série de Wagner Dias canceladas, reembolsadas por inteiro.", "#flash")
    estados = [api(server, "GET", f"/api/reservas/{i}", token=wagner) for i in ids]
    assert [e["status"] for e in estados] == ["confirmada", "cancelada", "cancelada"], [e["status"] for e in estados]
    assert all(e["cancelamento"]["reembolso"] == 6000 for e in estados[1:]), estados
    eventually(lambda: any(n["titulo"].startswith("Série cancelada") for n in api(server, "GET", "/api/notificacoes", token=wagner)["itens"]),
               "the series' cancellation notice")
    ui.step("serie cancelada pela equipe")


def test_the_day_board_says_when_arrival_opens_and_the_servers_refusal(browser, server):
    """The unit's window decides when the list offers the arrival; a booking keeps the window it
    was confirmed with, so after the unit widens its window the server may still refuse: said in words."""
    sufixo = uuid.uuid4().hex[:4]
    unidade = unit(server, f"CoworkFlow Janela {sufixo}", antes=15)
    sala = room(server, unidade["id"], f"Sala Janela {sufixo}")
    agora = datetime.now(SP).replace(second=0, microsecond=0)
    cedo = agora - timedelta(minutes=agora.minute % 30) + timedelta(hours=2)  # 1 h 30 to 2 h ahead
    tarde = cedo + timedelta(hours=2)
    nina = member(server, "Nina Alves")[2]
    otto = member(server, "Otto Brandão")[2]
    confirmed(server, nina, book(server, nina, sala, cedo, cedo + timedelta(hours=1), CARTAO))
    confirmed(server, otto, book(server, otto, sala, tarde, tarde + timedelta(hours=1), CARTAO))
    # the unit now opens check-in 2 h 30 before: Nina's (confirmed with 15 min) looks open, Otto's not yet
    api(server, "PATCH", f"/api/admin/unidades/{unidade['id']}",
        {"operacao": {"aliquotaISSBP": 200, "janelaDeCheckin": {"antesMinutos": 150, "depoisMinutos": 30}}}, token(server, server.admin))

    ui = browser(size=(1280, 900))
    sign_in(ui, *server.admin, expect_heading="Reservas do dia")
    ui.open(f"/admin/reservas?unidade={unidade['id']}&data={tarde.date().isoformat()}")
    ui.wait_heading("Reservas do dia")
    opens = (tarde - timedelta(minutes=150)).strftime("%H:%M")
    otto_row = ui.row("Otto Brandão", "#view tbody tr")
    assert f"Entrada a partir das {opens}" in otto_row.text and offered(otto_row) == ["Cancelar a reserva de Otto Brandão"], otto_row.text
    if cedo.date() != tarde.date():
        ui.open(f"/admin/reservas?unidade={unidade['id']}&data={cedo.date().isoformat()}")
    ui.expect_http(409, "/api/checkin")
    ui.click("Registrar entrada", ui.row("Nina Alves", "#view tbody tr"))
    alert = ui.wait_text("Ainda é cedo: o check-in desta reserva abre em", "#view tbody [role=alert]")
    assert "Nina Alves" in alert.find_element(By.XPATH, "ancestor::tr").text
    assert block(ui, sala, "Nina Alves").get_attribute("data-estado") == "aguardando"
    ui.step("entrada recusada pelo servidor")


def test_the_day_board_on_a_phone_scrolls_in_its_own_box(browser, server):
    sufixo = uuid.uuid4().hex[:4]
    unidade = unit(server, f"CoworkFlow Celular {sufixo}")
    salas = [room(server, unidade["id"], f"Sala {n} {sufixo}") for n in ("Ipê", "Jatobá")]
    base = first_free_hour(3)
    pessoa = member(server, "Beatriz Nogueira")[2]
    reserva = book(server, pessoa, salas[1], base + timedelta(hours=1), base + timedelta(hours=3), CARTAO)
    confirmed_and_checked_in(server, pessoa, reserva)

    ui = browser(size=(390, 844), mobile=True)
    sign_in(ui, *server.admin, expect_heading="Reservas do dia")
    ui.open(f"/admin/reservas?unidade={unidade['id']}&data={base.date().isoformat()}")
    ui.wait_heading("Reservas do dia")
    b = block(ui, salas[1], "Beatriz Nogueira")
    ui.scroll(b)
    sizes = ui.driver.execute_script("""
      const box = document.querySelector('.board-scroll');
      const name = document.querySelector('.board__row:not(.board__row--hours) .board__space');
      return {box: box.getBoundingClientRect().right, view: window.innerWidth, scrolls: box.scrollWidth > box.clientWidth,
              name: name.getBoundingClientRect().width, hour: document.querySelector('.board').style.getPropertyValue('--horas')};
    """)
    assert sizes["box"] <= sizes["view"] and sizes["scrolls"], f"the board must scroll inside its own box: {sizes}"
    # the spaces' names stay in sight while the hours scroll under them
    ui.driver.execute_script("document.querySelector('.board-scroll').scrollLeft = 400")
    left = ui.driver.execute_script("return document.querySelector('.board__row:not(.board__row--hours) .board__space').getBoundingClientRect().left")
    assert abs(left - ui.driver.execute_script("return document.querySelector('.board-scroll').getBoundingClientRect().left")) <= 2, left
    ui.step("quadro no celular")
    row = ui.row("Beatriz Nogueira", "#view tbody tr")
    ui.scroll(row)
    assert "Presente" in row.text and offered(row) == ["Registrar saída de Beatriz Nogueira"], row.text
    ui.step("lista no celular")
