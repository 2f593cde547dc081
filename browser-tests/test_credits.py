"""Credits: the seeded member holding 4 h of meeting room (90 days) and R$ 50,00 sees them in
"Meus créditos" (the balance, the lots, the statement); books 2 h of Sala Ipê, whose quote says
the credits pay it all (R$ 0,00, no payment method asked) and whose booking is confirmed at once
with nothing to pay; then 2 h are left and the statement says "Usados na reserva" with a link to
the booking, whose page says it was paid with credits. An operator opens the member from
"Usuários": an adjustment without a reason is refused next to "Motivo" and changes nothing, taking
away more than there is is refused next to "Quantidade" in hours, and adding 1 h moves the
balance and the statement (and the member sees the new lot). Desktop and phone."""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from selenium.webdriver.common.by import By

from conftest import first_weekday_from, session_booking_day
from journeys import api, go_to_day, open_signed_in, pick_slot, token

SP = ZoneInfo("America/Sao_Paulo")


def horas(minutos: int) -> str:
    """As the app writes hours: "3 h 30 min", "2 h", "45 min", "0 h"."""
    h, m = divmod(minutos, 60)
    if h and m:
        return f"{h} h {m} min"
    return f"{h} h" if h or not m else f"{m} min"


def text(ui, css: str) -> str:
    return ui.driver.find_element(By.CSS_SELECTOR, css).text.replace("\xa0", " ")


def balance(ui) -> dict[str, str]:
    """The balance boxes of the page: {"minutos": "4 h", "centavos": "R$ 50,00"}."""
    ui.wait(lambda d: d.find_elements(By.CSS_SELECTOR, ".credit-balance"), "no balance on the page")
    return {li.get_attribute("data-medida"): li.find_element(By.CSS_SELECTOR, ".kpi__value").text.replace("\xa0", " ")
            for li in ui.driver.find_elements(By.CSS_SELECTOR, ".credit-balance li")}


def statement_rows(ui):
    return ui.driver.find_elements(By.CSS_SELECTOR, ".table--extrato tbody tr")


def credits_day():
    """A weekday after the one the other journeys book Sala Ipê on (booking_day), so the slots are free."""
    return first_weekday_from(session_booking_day() + timedelta(days=1))


def test_member_sees_credits_books_with_them_and_finds_the_booking_in_the_statement(browser, server):
    membro = token(server, server.credits)
    carteira = api(server, "GET", "/api/creditos", token=membro)
    assert carteira["minutos"] == 240 and carteira["centavos"] == 5000, carteira
    lote_horas = next(l for l in carteira["lotes"] if l["medida"] == "minutos")
    validade = datetime.fromisoformat(lote_horas["validoAte"].replace("Z", "+00:00")).astimezone(SP)

    ui = browser()
    open_signed_in(ui, server, server.credits, "/espacos")
    ui.menu("Meus créditos")
    ui.wait_heading("Meus créditos")
    assert balance(ui) == {"minutos": "4 h", "centavos": "R$ 50,00"}, balance(ui)
    lotes = text(ui, ".credit-lots")
    assert "Restam 4 h de 4 h" in lotes and "Sala de reunião" in lotes, lotes
    assert f"Válido até {validade:%d/%m/%Y}" in lotes and "Restam R$ 50,00 de R$ 50,00" in lotes and "Sem validade" in lotes, lotes
    rows = [r.text for r in statement_rows(ui)]
    assert len(rows) == 2 and all("Ajuste da operação" in r and "Motivo: demonstração" in r for r in rows), rows
    ui.step("meus creditos 1280x900")

    # 2 h of Sala Ipê: the hours pay it all, so there is nothing to pay and no method to choose
    dia = credits_day()
    ui.open(f"/espacos/{server.espacos['Sala Ipê']}")
    ui.wait_heading("Sala Ipê")
    go_to_day(ui, dia)
    pick_slot(ui, "09:00")
    pick_slot(ui, "10:30")
    assert ui.value("Fim") == "11:00 (2 h)"
    ui.click("Ver preço")
    quote = ui.wait_text("Composição do preço", ".quote").text.replace("\xa0", " ")
    assert "Créditos: 2 h do seu saldo" in quote and "-R$ 160,00" in quote, quote
    assert "Pago com créditos\n− R$ 160,00 (2 h do seu saldo)" in quote, quote
    assert "Total\nR$ 0,00" in quote and "Nada a pagar." in quote, quote
    assert not ui.driver.find_elements(By.CSS_SELECTOR, ".quote input[name=metodo]"), "a payment method was asked for"
    assert "Descontos" not in quote, quote
    ui.step("cotacao paga com creditos")

    ui.click("Reservar com créditos", ".quote")
    ui.wait_text("Reserva confirmada!", ".result")
    result = text(ui, ".result")
    assert "Pago com créditos\n2 h do seu saldo" in result and "R$ 0,00 — nada a pagar" in result and "Confirmada" in result, result
    assert "Pague" not in result and "guardado" not in result, result
    ui.step("reserva confirmada com creditos")
    reserva = next(r for r in api(server, "GET", "/api/reservas", token=membro)["itens"] if r["espacoId"] == server.espacos["Sala Ipê"])
    assert reserva["status"] == "confirmada" and reserva["total"] == 0 and reserva["creditos"]["minutos"] == 120, reserva

    # 2 h left; the statement's newest line is the booking's
    ui.menu("Meus créditos")
    ui.wait_heading("Meus créditos")
    ui.wait(lambda d: balance(ui)["minutos"] == "2 h", "the hours did not go down to 2 h")
    assert "Restam 2 h de 4 h" in text(ui, ".credit-lots")
    quando = f"Sala Ipê, {dia:%d/%m/%Y}, 09:00–11:00"
    primeira = statement_rows(ui)[0]
    assert "Usados na reserva" in primeira.text and quando in primeira.text and "−2 h" in primeira.text, primeira.text
    ui.step("meus creditos depois da reserva")

    link = primeira.find_element(By.LINK_TEXT, quando)
    ui.press(link)
    ui.wait_heading("Pagamento da reserva")
    ui.wait_text("Nada a pagar: esta reserva foi paga com seus créditos (2 h do seu saldo) e está confirmada.")
    page = text(ui, "#view")
    assert "Forma de pagamento\nCréditos do seu saldo" in page and "Pague com PIX" not in page and "PIX" not in page, page
    assert "Total\nR$ 0,00 — nada a pagar" in page, page
    ui.step("pagamento da reserva paga com creditos")

    # "Minhas reservas" says the credits paid it
    ui.menu("Minhas reservas")
    ui.wait_heading("Minhas reservas")
    row = ui.row(quando.split(", ", 1)[1])
    assert "Confirmada" in row.text and "Pago com créditos: 2 h" in row.text, row.text
    ui.step("minhas reservas com creditos")

    # on a phone: the wallet, and a quote of 1 h that the remaining hours pay
    phone = browser(size=(390, 844), mobile=True)
    open_signed_in(phone, server, server.credits, "/creditos")
    phone.wait_heading("Meus créditos")
    phone.wait(lambda d: balance(phone)["minutos"] == "2 h", "the hours on the phone")
    phone.step("meus creditos 390x844")
    phone.open(f"/espacos/{server.espacos['Sala Ipê']}")
    phone.wait_heading("Sala Ipê")
    go_to_day(phone, dia)
    pick_slot(phone, "14:00")
    phone.click("Ver preço")
    quote = phone.wait_text("Composição do preço", ".quote").text.replace("\xa0", " ")
    assert "Créditos: 1 h do seu saldo" in quote and "Nada a pagar." in quote, quote
    phone.scroll(phone.driver.find_element(By.CSS_SELECTOR, ".quote"))
    phone.step("cotacao com creditos 390x844")
    phone.open(f"/reservas/{reserva['id']}/pagamento")
    phone.wait_text("Nada a pagar: esta reserva foi paga com seus créditos")
    phone.step("pagamento com creditos 390x844")


def test_operator_adjusts_a_members_credits_with_a_reason(browser, server):
    admin = token(server, server.admin)
    conta = api(server, "GET", f"/api/admin/usuarios?email={server.credits[0]}", token=admin)["itens"][0]
    antes = api(server, "GET", f"/api/admin/usuarios/{conta['id']}/creditos", token=admin)

    ui = browser()
    open_signed_in(ui, server, server.admin, "/admin/usuarios")
    ui.wait_heading("Usuários")
    ui.fill("E-mail contém", "creditos@")
    ui.click("Filtrar")
    ui.wait_text("1 conta")
    ui.click_link(conta["nome"], "#view table")
    ui.wait_heading(conta["nome"])
    ui.wait_text(server.credits[0])
    assert balance(ui) == {"minutos": horas(antes["minutos"]), "centavos": "R$ 50,00"}, balance(ui)
    assert any("Ajuste da operação" in r.text and "Por: carga de demonstração" in r.text for r in statement_rows(ui))
    ui.step("conta com creditos")

    # no reason: the server names the field, and the error shows next to it
    ui.fill("Quantidade", "1")
    ui.expect_http(422, "/creditos/ajustes")
    ui.click("Registrar ajuste")
    motivo = ui.driver.find_element(By.CSS_SELECTOR, "[data-field=motivo]")
    ui.wait(lambda d: "Diga o motivo do ajuste" in motivo.text, "no error next to Motivo")
    assert motivo.find_element(By.TAG_NAME, "textarea").get_attribute("aria-invalid") == "true"
    assert not ui.driver.find_element(By.CSS_SELECTOR, "[data-field=quantidade] .field__error").text
    assert api(server, "GET", f"/api/admin/usuarios/{conta['id']}/creditos", token=admin)["minutos"] == antes["minutos"]
    assert balance(ui)["minutos"] == horas(antes["minutos"])
    ui.step("ajuste sem motivo recusado")

    # taking away more than there is: said in hours, next to the amount
    ui.press(ui.driver.find_element(By.XPATH, "//label[normalize-space()='Retirar']"))
    # a withdrawal names no lot: the lot's name and terms are not asked for
    assert not ui.driver.find_element(By.CSS_SELECTOR, "[data-field=descricao]").is_displayed()
    assert not ui.driver.find_element(By.CSS_SELECTOR, ".credit-adjust__lote").is_displayed()
    ui.fill("Quantidade", "999")
    ui.fill("Motivo", "Teste de retirada")
    ui.expect_http(422, "/creditos/ajustes")
    ui.click("Registrar ajuste")
    quantidade = ui.driver.find_element(By.CSS_SELECTOR, "[data-field=quantidade]")
    ui.wait(lambda d: "Não há tanto a retirar" in quantidade.text, "no error next to Quantidade")
    assert f"é de {horas(antes['minutos'])}." in quantidade.text, quantidade.text
    ui.step("retirada alem do saldo recusada")

    # 1 h more, for meeting rooms, for 30 days
    ui.press(ui.driver.find_element(By.XPATH, "//label[normalize-space()='Adicionar']"))
    ui.fill("Quantidade", "1")
    ui.fill("Motivo", "Cortesia pela manutenção do ar-condicionado")
    ui.fill("Descrição", "Cortesia: 1 h de sala")
    ui.press(ui.driver.find_element(By.XPATH, "//label[normalize-space()='Sala de reunião']"))
    ate = datetime.now(SP).date() + timedelta(days=30)
    ui.set_value("Válido até", ate.isoformat())
    ui.click("Registrar ajuste")
    ui.wait_text(f"Ajuste registrado: +1 h. Saldo agora: {horas(antes['minutos'] + 60)} e R$ 50,00.")
    ui.wait(lambda d: balance(ui)["minutos"] == horas(antes["minutos"] + 60), "the balance did not move")
    ui.wait(lambda d: "Cortesia pela manutenção" in statement_rows(ui)[0].text, "the statement did not show the adjustment")
    primeira = statement_rows(ui)[0].text
    assert "Ajuste da operação" in primeira and "+1 h" in primeira and "Por: Admin Demo" in primeira, primeira
    assert "Cortesia: 1 h de sala" in text(ui, ".credit-lots")
    assert ui.value("Quantidade") == "" and ui.value("Motivo") == ""
    depois = api(server, "GET", f"/api/admin/usuarios/{conta['id']}/creditos", token=admin)
    assert depois["minutos"] == antes["minutos"] + 60, depois
    novo = next(l for l in depois["lotes"] if l["descricao"] == "Cortesia: 1 h de sala")
    assert novo["tipos"] == ["sala_reuniao"] and novo["quantidade"] == 60, novo
    assert datetime.fromisoformat(novo["validoAte"].replace("Z", "+00:00")).astimezone(SP).date() == ate, novo
    ui.step("ajuste de 1 h registrado")

    # on a phone: the operator's view, and the member's with the new lot
    phone = browser(size=(390, 844), mobile=True)
    open_signed_in(phone, server, server.admin, f"/admin/usuarios/{conta['id']}")
    phone.wait_heading(conta["nome"])
    phone.wait_text("Cortesia pela manutenção")
    phone.step("conta com creditos 390x844")
    phone.scroll(phone.driver.find_element(By.CSS_SELECTOR, ".credit-adjust"))
    phone.step("formulario de ajuste 390x844")
    phone.press(phone.driver.find_element(By.XPATH, "//label[normalize-space()='Retirar']"))
    phone.wait(lambda d: not d.find_element(By.CSS_SELECTOR, "[data-field=descricao]").is_displayed(), "Descrição still shown")
    phone.step("formulario de retirada 390x844")

    member = browser(size=(390, 844), mobile=True)
    open_signed_in(member, server, server.credits, "/creditos")
    member.wait_heading("Meus créditos")
    member.wait_text("Cortesia: 1 h de sala", ".credit-lots")
    member.wait_text("Motivo: Cortesia pela manutenção do ar-condicionado", ".table--extrato")
    member.step("membro ve o ajuste 390x844")
