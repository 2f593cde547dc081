"""Paying and checking in, on the sandbox payment provider: a new member on a phone books the next
free slot, pays by PIX (QR code and copia-e-cola) with the sandbox's test bank, sees the booking
confirmed, checks in with the code and checks out, and finds it all in the notifications; a
declined card and a boleto are explained in plain words.

The space is prepared through the API (journeys.space_open_now): open 24 h with check-in open a
day ahead, so the run works at any hour."""

from __future__ import annotations

import re
import uuid
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from selenium.webdriver.common.by import By

from journeys import (
    api, book, brl, confirmed_and_checked_in, eventually, member, pick_first_free_slot, quote_and_book, register, sign_in, space_open_now,
)


def qr_of(ui, css: str = ".qr"):
    """The QR code's SVG: its version, modules per side and viewBox must agree."""
    svg = ui.wait(lambda d: (d.find_elements(By.CSS_SELECTOR, f"svg{css}") or [False])[0], "no QR code")
    version = int(svg.get_attribute("data-versao"))
    modules = int(svg.get_attribute("data-modulos"))
    assert 1 <= version <= 40 and modules == 17 + 4 * version, (version, modules)
    assert svg.get_dom_attribute("viewBox") == f"0 0 {modules + 8} {modules + 8}", "4 modules of quiet zone on each side"
    path = svg.find_element(By.CSS_SELECTOR, "path").get_attribute("d")
    dark = path.count("M")
    assert modules * modules * 0.3 < dark < modules * modules * 0.7, f"{dark} dark modules of {modules * modules}"
    assert svg.get_dom_attribute("role") == "img" and svg.find_element(By.CSS_SELECTOR, "title").get_attribute("textContent")
    return version, modules


def test_member_pays_by_pix_in_the_sandbox_and_checks_in_with_the_code(browser, server):
    nome = f"Sala Pix {uuid.uuid4().hex[:4]}"
    _, espaco = space_open_now(server, nome)
    ui = browser(size=(390, 844), mobile=True)
    ui.driver.execute_cdp_cmd("Browser.grantPermissions", {
        "origin": server.url, "permissions": ["clipboardReadWrite", "clipboardSanitizedWrite"]})
    register(ui, "Bruno Lima", f"bruno.{uuid.uuid4().hex[:8]}@exemplo.com.br", "senha-forte-456")
    ui.step("membro novo entrou")

    # book the next free slot, PIX (the default)
    ui.open(f"/espacos/{espaco}")
    ui.wait_heading(nome)
    hhmm = pick_first_free_slot(ui)
    quote_and_book(ui, "PIX")
    ui.step("reservado com PIX")
    ui.click_link("Pagar agora", ".result")

    # the charge: QR code drawn from the copia-e-cola, the code to copy
    ui.wait_heading("Pagamento da reserva")
    ui.wait_text("Pague com PIX")
    version, modules = qr_of(ui)
    copia = ui.value("PIX copia e cola")
    assert copia.startswith("000201") and "br.gov.bcb.pix" in copia, copia
    assert version >= 5, f"a {len(copia)}-byte payload needs version 5 or more at level M, got {version}"
    total = re.search(r"Total\s+(R\$\s[\d.,]+)", ui.driver.find_element(By.CSS_SELECTOR, "#view .facts").text).group(1)
    assert f"PIX de {total}" in ui.driver.find_element(By.CSS_SELECTOR, ".pix figcaption").get_attribute("textContent").replace("\xa0", " "), total
    ui.click("Copiar código PIX")
    ui.wait_text("Código PIX copiado")
    copied = ui.driver.execute_async_script("navigator.clipboard.readText().then(arguments[0], () => arguments[0](null))")
    assert copied == copia, copied
    ui.step("pix com qr code")

    # the test bank pays it; the booking turns confirmed by itself
    panel = ui.wait_text("Banco de testes (sandbox)", "#view section")
    assert "nenhum dinheiro é movimentado" in panel.text, panel.text
    ui.click("Pagar no sandbox")
    ui.wait_text("Pagamento confirmado e reserva confirmada!")
    ui.wait_text("Confirmada", "#view .facts")
    assert "Banco de testes" not in ui.driver.find_element(By.ID, "view").text, "the test bank leaves once paid"
    ui.step("pagamento confirmado")

    # check in with the code, then check out
    ui.click_link("Ver código de check-in")
    ui.wait_heading("Check-in")
    code = ui.wait_text("Código de check-in", ".checkin-code").find_element(By.CSS_SELECTOR, ".code").text
    assert re.fullmatch(r"[A-Z0-9]{6}", code), code
    qr_of(ui)
    ui.step("codigo de check-in")
    ui.click("Fazer check-in agora")
    ui.wait_text("Check-in feito às", "#flash")
    ui.wait_text("Check-in feito", "#view .badge")
    ui.step("check-in feito")
    ui.click("Fazer checkout")
    ui.click("Fazer checkout", ui.dialog())
    ui.wait_text("Checkout registrado às", "#flash")
    ui.wait_text("Checkout feito", "#view .badge")
    ui.step("checkout feito")

    # my bookings and the inbox tell the same story
    ui.menu("Minhas reservas")
    ui.wait_heading("Minhas reservas")
    row = ui.row(nome)
    assert "Confirmada" in row.text and hhmm in row.text, row.text
    ui.menu("Notificações")
    ui.wait_heading("Notificações")
    ui.wait_text("Pagamento recebido")
    ui.wait_text(f"Reserva confirmada: {nome}")
    ui.step("notificacoes")


def test_a_declined_card_and_a_boleto_are_explained(browser, server):
    nome = f"Sala Cartão {uuid.uuid4().hex[:4]}"
    _, espaco = space_open_now(server, nome)
    ui = browser()
    sign_in(ui, *server.member, expect_heading="Encontre um espaço")

    # a card the issuer declines: the booking is released, in words
    ui.open(f"/espacos/{espaco}")
    ui.wait_heading(nome)
    pick_first_free_slot(ui)
    ui.click("Ver preço")
    ui.wait_text("Composição do preço", ".quote")
    # a slot this close cannot be paid by boleto (a day to pay, a day to clear)
    assert ui.driver.find_element(By.CSS_SELECTOR, ".quote input[value='boleto']").get_attribute("disabled") is not None
    assert "só para reservas a partir de 2 dias" in ui.driver.find_element(By.CSS_SELECTOR, ".quote").text
    ui.press(ui.driver.find_element(By.XPATH, "//*[contains(@class,'quote')]//label[normalize-space()='Cartão de crédito']"))
    ui.click("Reservar", ".quote")
    ui.wait_text("Informe o token do cartão.", ".quote .field__error")
    assert "tok_sandbox_recusado" in ui.driver.find_element(By.CSS_SELECTOR, ".quote").text, "the hint names the sandbox tokens"
    ui.step("cartao sem token")
    ui.fill("Token do cartão", "tok_sandbox_recusado")
    ui.click("Reservar", ".quote")
    ui.wait_text("Reserva solicitada!", ".result")
    ui.click_link("Pagar agora", ".result")
    ui.wait_heading("Pagamento da reserva")
    ui.wait_text("Pagamento recusado.")
    ui.wait_text("O horário foi liberado e nada foi cobrado")
    assert "cartão recusado" in ui.driver.find_element(By.ID, "view").text
    ui.wait_text("Recusada", "#view .facts")
    ui.step("cartao recusado")

    # a boleto, four days ahead (its first free hour may be midnight: still 48 h on should the
    # test cross a midnight): the linha digitável and the due date; the test bank declines it
    ui.click_link("Reservar de novo")
    ui.wait_heading(nome)
    dia = (datetime.now(ZoneInfo("America/Sao_Paulo")).date() + timedelta(days=4)).isoformat()
    ui.open(f"/espacos/{espaco}?data={dia}")
    ui.wait_heading(nome)
    pick_first_free_slot(ui)
    quote_and_book(ui, "Boleto")
    assert "Seu horário está guardado até" in ui.driver.find_element(By.CSS_SELECTOR, ".result").text
    ui.click_link("Pagar agora", ".result")
    ui.wait_heading("Pagamento da reserva")
    boleto = ui.wait_text("Pague com boleto", "#view .boleto")
    linha = boleto.find_element(By.CSS_SELECTOR, ".linha-digitavel").text
    assert re.fullmatch(r"\d{5}\.\d{5} \d{5}\.\d{6} \d{5}\.\d{6} \d \d{14}", linha), linha
    assert "Vencimento" in boleto.text
    ui.step("boleto")
    ui.click("Recusar")
    ui.wait_text("Pagamento recusado.")
    ui.wait_text("recusado no banco de testes")
    ui.step("boleto recusado")


def test_my_bookings_offer_only_what_can_still_be_done(browser, server):
    """Four bookings of one member, prepared through the API: checked in (checkout, no cancel, no
    second check-in), checked in and out (nothing but the payment), declined by the card issuer
    ("Recusada", the reason, nothing charged; no refund and penalty of a cancellation), and one
    confirmed and untouched (check-in and cancel, as before)."""
    nome = f"Sala Ações {uuid.uuid4().hex[:4]}"
    _, espaco = space_open_now(server, nome)
    email, senha, membro = member(server, "Diana Reis")
    agora = datetime.now(ZoneInfo("America/Sao_Paulo")).replace(second=0, microsecond=0)
    inicio = agora - timedelta(minutes=agora.minute % 30) + timedelta(hours=1)  # the next half hour, an hour on
    cartao = {"metodo": "cartao", "cartaoToken": "tok_visa"}
    presente, encerrada, recusada, intacta = (
        book(server, membro, espaco, inicio + timedelta(hours=2 * i), inicio + timedelta(hours=2 * i + 1), pagamento)
        for i, pagamento in enumerate([cartao, cartao, {"metodo": "cartao", "cartaoToken": "tok_sandbox_recusado"}, cartao]))
    confirmed_and_checked_in(server, membro, presente)
    confirmed_and_checked_in(server, membro, encerrada, checkout=True)
    eventually(lambda: api(server, "GET", f"/api/reservas/{recusada['id']}", token=membro)["status"] == "cancelada", "the decline")
    eventually(lambda: api(server, "GET", f"/api/reservas/{intacta['id']}", token=membro)["status"] == "confirmada", "the confirmation")

    ui = browser()
    sign_in(ui, email, senha, expect_heading="Encontre um espaço")
    ui.menu("Minhas reservas")
    ui.wait_heading("Minhas reservas")

    def row(reserva):
        return ui.row("", f"#view tr[data-reserva='{reserva['id']}']")

    def offered(reserva):
        """The actions' names, as a screen reader says them."""
        cell = row(reserva).find_element(By.CSS_SELECTOR, "td:last-child")
        return [" ".join(b.text.split()) for b in cell.find_elements(By.CSS_SELECTOR, "a, button")]

    assert offered(presente) == ["Checkout desta reserva", "Pagamento desta reserva"], offered(presente)
    assert "Confirmada" in row(presente).text and "Check-in às" in row(presente).text, row(presente).text
    assert offered(encerrada) == ["Pagamento desta reserva"], offered(encerrada)
    assert "checkout às" in row(encerrada).text, row(encerrada).text
    assert offered(intacta) == ["Check-in desta reserva", "Pagamento desta reserva", "Cancelar esta reserva"], offered(intacta)

    declined = row(recusada).text
    assert "Recusada" in declined and "Pagamento recusado: cartão recusado pelo emissor." in declined, declined
    assert "O horário foi liberado e nada foi cobrado." in declined, declined
    assert "Cancelada" not in declined and "Multa" not in declined, declined
    assert offered(recusada) == [], offered(recusada)
    ui.step("minhas reservas so com o que da para fazer")

    # cancelling the untouched one, hours ahead under "free until 24 h before, then 50 %": the
    # dialog estimates the fee on what its payment holds, and the answer charges just that
    total = api(server, "GET", f"/api/reservas/{intacta['id']}", token=membro)["total"]
    multa = (total * 5000 + 5000) // 10000
    ui.click("Cancelar", row(intacta))
    dialog = ui.dialog()
    estimativa = f"cancelar agora tem multa estimada de {brl(multa)}; reembolso estimado de {brl(total - multa)}."
    assert estimativa in " ".join(dialog.text.split()), dialog.text
    ui.step("cancelar com multa estimada")
    ui.click("Cancelar reserva", dialog)
    ui.wait_text(f"Reserva cancelada. Reembolso: {brl(total - multa)}. Multa: {brl(multa)}.", "#flash")

    # checkout goes to the check-in screen, where the checkout is
    ui.click("Checkout", row(presente))
    ui.wait_heading("Check-in")
    ui.wait_text("Check-in feito", "#view .badge")
    ui.button("Fazer checkout")
    ui.step("checkout a partir da lista")

    # the payment screen of the declined booking says "Recusada" too
    ui.open(f"/reservas/{recusada['id']}/pagamento")
    ui.wait_heading("Pagamento da reserva")
    ui.wait_text("Recusada", "#view .facts")
    ui.step("pagamento recusado")
