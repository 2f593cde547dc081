"""The reception books for a member: on "Reservas do dia" a link leads to the unit's spaces on the
day; on a space's page an operator names the member by e-mail under "Reservar para" (an e-mail
nobody has is said next to the field, and nothing is quoted). The quote is then the member's
("Preço para Helena…"), and the ways to pay are the desk's: "Pago aqui na recepção" first, then
PIX, card and boleto. Booked paid at the desk, the result says "Reserva de Helena … confirmada!"
and the API agrees: the booking is Helena's, confirmed, its payment `manual` with no charge at
the provider. A member's own form offers no such thing. On a phone the member's field, the quote
and the result fit the screen."""

from __future__ import annotations

import uuid
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from selenium.webdriver.common.by import By

from journeys import api, eventually, member, open_signed_in, room, unit
from test_companies import empresa_com

SP = ZoneInfo("America/Sao_Paulo")


def test_the_reception_books_a_room_for_a_member_paid_at_the_desk(browser, server):
    sufixo = uuid.uuid4().hex[:4]
    unidade = unit(server, f"CoworkFlow Recepção {sufixo}")["id"]
    sala = room(server, unidade, f"Sala Recepção {sufixo}")
    email, senha, helena = member(server, f"Helena Recepção{sufixo}")
    nome = f"Helena Recepção{sufixo}"
    dia = (datetime.now(SP) + timedelta(days=2)).date()

    ui = browser(size=(1280, 900))
    # "Reservas do dia" leads to the unit's spaces on the day shown
    open_signed_in(ui, server, server.admin, f"/admin/reservas?unidade={unidade}&data={dia.isoformat()}")
    nova = ui.wait(lambda d: d.find_element(By.LINK_TEXT, "Reservar para um membro"), "no link to book for a member")
    assert nova.get_attribute("href").endswith(f"/unidades/{unidade}/dia?data={dia.isoformat()}"), nova.get_attribute("href")

    ui.open(f"/espacos/{sala}?data={dia.isoformat()}&de=10:00&ate=11:00")
    ui.wait_text("Composição do preço", ".quote")
    # an e-mail nobody has: said next to the field, and the quote for the operator is gone
    ui.fill("Reservar para (e-mail do membro)", f"ninguem.{sufixo}@exemplo.com.br")
    assert not ui.driver.find_elements(By.CSS_SELECTOR, ".quote table"), "the operator's own quote stayed under another e-mail"
    ui.click("Ver preço", ".booking-form")
    erro = ui.wait(lambda d: d.find_element(By.CSS_SELECTOR, "[data-field=para] .field__error").text, "no error next to the member's field")
    assert "Nenhum membro ativo" in erro, erro
    ui.step("recepcao-membro-inexistente")

    ui.fill("Reservar para (e-mail do membro)", email)
    ui.click("Ver preço", ".booking-form")
    quote = ui.wait_text(f"Preço para {nome}", ".quote")
    assert email in quote.text and "R$ 60,00" in quote.text, quote.text
    metodos = [i.get_attribute("value") for i in quote.find_elements(By.CSS_SELECTOR, "input[name=metodo]")]
    assert metodos == ["manual", "pix", "cartao", "boleto"], metodos
    assert quote.find_element(By.CSS_SELECTOR, "input[value=manual]").is_selected()
    assert "confirmada na hora" in quote.text, quote.text
    ui.scroll(quote.find_element(By.CSS_SELECTOR, ".payment-choice"))
    ui.step("recepcao-preco-do-membro")

    ui.click(f"Reservar para {nome}", ".quote")
    result = ui.wait_text(f"Reserva de {nome} confirmada!", ".result")
    assert "Registrado pela recepção" in result.text and "R$ 60,00" in result.text and email in result.text, result.text
    assert result.find_element(By.LINK_TEXT, "Ver as reservas do dia").is_displayed()
    ui.step("recepcao-reserva-confirmada")

    # the booking is Helena's, confirmed, paid at the desk with no charge at the provider
    minhas = api(server, "GET", "/api/reservas", token=helena)["itens"]
    reserva = next(r for r in minhas if r["espacoId"] == sala)
    assert reserva["status"] == "confirmada", reserva
    pagamento = api(server, "GET", f"/api/reservas/{reserva['id']}/pagamento", token=helena)
    assert pagamento["metodo"] == "manual" and pagamento["status"] == "confirmado" and not pagamento.get("cobrancaId"), pagamento

    # a weekly series for Helena, paid at the desk (PIX and boleto are then disabled)
    ui.open(f"/espacos/{sala}?data={dia.isoformat()}&de=14:00&ate=15:00")
    ui.wait_text("Composição do preço", ".quote")
    ui.fill("Reservar para (e-mail do membro)", email)
    ui.click("Ver preço", ".booking-form")
    quote = ui.wait_text(f"Preço para {nome}", ".quote")
    ui.choose("Repetir", "Toda semana")
    ui.fill("Quantas vezes, contando esta", "2")
    disabled = {i.get_attribute("value"): i.get_attribute("disabled") is not None for i in quote.find_elements(By.CSS_SELECTOR, "input[name=metodo]")}
    assert disabled == {"manual": False, "pix": True, "cartao": False, "boleto": True}, disabled
    assert quote.find_element(By.CSS_SELECTOR, "input[value=manual]").is_selected()
    assert "registrada como paga aqui na recepção" in quote.text, quote.text
    ui.scroll(quote.find_element(By.CSS_SELECTOR, ".payment-choice"))
    ui.step("recepcao-serie")
    ui.click(f"Reservar a série para {nome}", ".quote")
    serie = ui.wait_text(f"Série de {nome} reservada!", ".result")
    assert "R$ 120,00 (cada reserva registrada como paga aqui na recepção)" in serie.text, serie.text
    ui.step("recepcao-serie-reservada")
    def confirmadas():
        itens = [r for r in api(server, "GET", "/api/reservas", token=helena)["itens"] if r.get("serie") and r["status"] == "confirmada"]
        return itens if len(itens) == 2 else None
    na_serie = eventually(confirmadas, "Helena's confirmed series")
    assert sorted(r["serie"]["numero"] for r in na_serie) == [1, 2], na_serie

    # on Helena's list it says where it is cancelled, instead of a button the server would refuse
    dela = browser(size=(1280, 900))
    open_signed_in(dela, server, (email, senha), "/reservas")
    dela.wait_heading("Minhas reservas")
    linha = dela.wait(lambda d: d.find_element(By.CSS_SELECTOR, f"tr[data-reserva='{reserva['id']}']"), "Helena's booking row")
    assert "Paga na recepção: para cancelar, fale com a recepção." in linha.text, linha.text
    assert not [b for b in linha.find_elements(By.CSS_SELECTOR, "button") if b.text.startswith("Cancelar")], linha.text
    dela.step("recepcao-minhas-reservas")

    # a member's own form does not offer it
    membro = browser(size=(1280, 900))
    open_signed_in(membro, server, server.member, f"/espacos/{sala}?data={dia.isoformat()}&de=18:00&ate=19:00")
    preco = membro.wait_text("Composição do preço", ".quote")
    assert not membro.driver.find_elements(By.CSS_SELECTOR, "input[value=manual]"), preco.text
    assert not membro.driver.find_elements(By.CSS_SELECTOR, "[data-field=para]"), "a member is offered to book for someone"

    # on a phone: the member's field, the quote and the result fit the screen
    phone = browser(size=(390, 844), mobile=True)
    open_signed_in(phone, server, server.admin, f"/espacos/{sala}?data={dia.isoformat()}&de=16:00&ate=17:00")
    phone.wait_text("Composição do preço", ".quote")
    phone.fill("Reservar para (e-mail do membro)", email)
    phone.step("recepcao-celular-membro")
    phone.click("Ver preço", ".booking-form")
    phone.wait_text(f"Preço para {nome}", ".quote")
    assert phone.driver.execute_script("return document.documentElement.scrollWidth") <= 390
    phone.step("recepcao-celular-preco")
    phone.click(f"Reservar para {nome}", ".quote")
    phone.wait_text(f"Reserva de {nome} confirmada!", ".result")
    assert phone.driver.execute_script("return document.documentElement.scrollWidth") <= 390
    phone.step("recepcao-celular-confirmada")
    eventually(lambda: sum(1 for r in api(server, "GET", "/api/reservas", token=helena)["itens"] if r["espacoId"] == sala) == 4,
               "Helena's fourth booking")
    # and Helena's list on her phone
    celular = browser(size=(390, 844), mobile=True)
    open_signed_in(celular, server, (email, senha), "/reservas")
    celular.wait_heading("Minhas reservas")
    celular.wait_text("Paga na recepção: para cancelar, fale com a recepção.")
    assert celular.driver.execute_script("return document.documentElement.scrollWidth") <= 390
    celular.step("recepcao-minhas-reservas-celular")


def test_a_company_manager_books_for_a_colleague_who_pays_it(browser, server):
    """A company's manager sees "Reservar para" with "Para mim" and the company's people; the quote
    is the colleague's, the ways to pay are a member's (no desk), and after booking by PIX the result
    says the colleague pays it in "Minhas reservas" (where it is, waiting for its payment). A member
    of no company sees no such field."""
    sufixo = uuid.uuid4().hex[:4]
    unidade = unit(server, f"CoworkFlow Empresa {sufixo}")["id"]
    sala = room(server, unidade, f"Sala Empresa {sufixo}")
    gestora = member(server, f"Gabriela Gestora{sufixo}")
    colega = member(server, f"Otavio Colega{sufixo}")
    empresa_com(server, gestora, [colega], f"Oficina {sufixo}")
    dia = (datetime.now(SP) + timedelta(days=3)).date()
    nome = f"Otavio Colega{sufixo}"

    ui = browser(size=(1280, 900))
    open_signed_in(ui, server, gestora[:2], f"/espacos/{sala}?data={dia.isoformat()}&de=09:00&ate=10:00")
    ui.wait_text("Composição do preço", ".quote")
    ui.choose("Reservar para", nome)
    assert not ui.driver.find_elements(By.CSS_SELECTOR, ".quote table"), "the manager's own quote stayed for the colleague"
    ui.click("Ver preço", ".booking-form")
    quote = ui.wait_text(f"Preço para {nome}", ".quote")
    metodos = [i.get_attribute("value") for i in quote.find_elements(By.CSS_SELECTOR, "input[name=metodo]")]
    assert metodos == ["pix", "cartao", "boleto"], metodos
    assert f"{nome} paga pelo PIX em Minhas reservas" in quote.text, quote.text
    ui.scroll(quote.find_element(By.CSS_SELECTOR, ".payment-choice"))
    ui.step("gestora-preco-do-colega")
    ui.click(f"Reservar para {nome}", ".quote")
    result = ui.wait_text(f"Reserva de {nome} feita!", ".result")
    assert f"Aguardando o pagamento de {nome}" in result.text and "paga até" in result.text, result.text
    ui.step("gestora-reserva-feita")
    dele = [r for r in api(server, "GET", "/api/reservas", token=colega[2])["itens"] if r["espacoId"] == sala]
    assert len(dele) == 1 and dele[0]["status"] == "solicitada", dele

    # a member of no company: no such field
    outro = browser(size=(390, 844), mobile=True)
    open_signed_in(outro, server, server.member, f"/espacos/{sala}?data={dia.isoformat()}&de=11:00&ate=12:00")
    outro.wait_text("Composição do preço", ".quote")
    assert not outro.driver.find_element(By.CSS_SELECTOR, "[data-field=paraColega]").is_displayed()
