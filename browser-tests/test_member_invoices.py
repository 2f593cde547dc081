"""A member's invoices and unread notices: a booking paid by card (prepared through the API, the
sandbox approves tok_visa) brings an invoice to "Minhas faturas" with its printable receipt (the
unit's name and address, the member, the space and time, the price lines, ISS and total, a print
button), on a desktop and on a phone; the notices it sent are counted beside "Notificações" in
the menu, marked new in the inbox, and opening the inbox clears the count."""

from __future__ import annotations

import uuid
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from selenium.webdriver.common.by import By

from journeys import api, book, eventually, member, sign_in, space_open_now


def text_of(ui, css: str) -> str:
    return ui.driver.find_element(By.CSS_SELECTOR, css).text.replace("\xa0", " ")


def check_receipt(ui, nome: str, unidade: str, membro: str, codigo: str) -> None:
    ui.wait_heading(f"Recibo da fatura {codigo}")
    receipt = ui.wait_text(nome, ".receipt")
    text = receipt.text.replace("\xa0", " ")
    assert unidade in text and "Rua Augusta, 500" in text and "São Paulo – SP" in text and "CEP 01304-000" in text, text
    assert membro in text, text
    assert "ISS incluso (2 %)" in text and "R$ 1,20" in text, text
    assert "R$ 60,00" in text_of(ui, ".receipt__total"), text
    assert ui.driver.find_elements(By.CSS_SELECTOR, ".receipt__lines tbody tr"), "the price lines"
    # the print style keeps the receipt and leaves out the menu and the buttons
    ui.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "print"})
    try:
        assert not ui.driver.find_element(By.CSS_SELECTOR, ".site-header").is_displayed()
        assert not any(b.is_displayed() for b in ui.driver.find_elements(By.CSS_SELECTOR, "#view button"))
        assert ui.driver.find_element(By.CSS_SELECTOR, ".receipt").is_displayed()
    finally:
        ui.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": ""})


def test_member_sees_invoice_receipt_and_unread_notices(browser, server):
    nome = f"Sala Recibo {uuid.uuid4().hex[:4]}"
    unidade, espaco = space_open_now(server, nome)
    membro = "Helena Prado"
    email, senha, token = member(server, membro)
    agora = datetime.now(ZoneInfo("America/Sao_Paulo")).replace(second=0, microsecond=0)
    inicio = agora - timedelta(minutes=agora.minute % 30) + timedelta(hours=2)
    reserva = book(server, token, espaco, inicio, inicio + timedelta(hours=1), {"metodo": "cartao", "cartaoToken": "tok_visa"})
    fatura = eventually(lambda: next((f for f in api(server, "GET", "/api/faturas", token=token)["itens"]
                                      if f["reservaId"] == reserva["id"]), None), "the invoice")
    eventually(lambda: api(server, "GET", "/api/notificacoes", token=token)["naoLidas"] >= 2, "the notices")
    codigo = fatura.get("codigo") or str(fatura["numero"])

    ui = browser()
    sign_in(ui, email, senha, expect_heading="Encontre um espaço")

    # the menu counts the unread notices
    badge = ui.wait(lambda d: next((b for b in d.find_elements(By.ID, "menu-nao-lidas") if b.is_displayed()), False),
                    "no unread count beside Notificações")
    unread = api(server, "GET", "/api/notificacoes", token=token)["naoLidas"]
    assert badge.text.split()[0] == str(unread), (badge.text, unread)
    ui.step("menu com notificacoes nao lidas")

    # my invoices: the one of the booking, with its receipt
    ui.menu("Minhas faturas")
    ui.wait_heading("Minhas faturas")
    row = ui.row(codigo)
    text = row.text.replace("\xa0", " ")
    assert "R$ 60,00" in text and "R$ 1,20" in text and "Paga" in text, text
    ui.step("minhas faturas")
    link = row.find_element(By.CSS_SELECTOR, "a[href$='/recibo']")
    assert link.get_attribute("textContent").startswith("Recibo"), link.get_attribute("textContent")
    ui.press(link)
    check_receipt(ui, nome, unidade, membro, codigo)
    assert ui.driver.find_element(By.XPATH, "//*[@id='view']//button[normalize-space()='Imprimir']").is_displayed()
    ui.step("recibo 1280x900")

    # opening the inbox marks what was new and clears the count
    ui.menu("Notificações")
    ui.wait_heading("Notificações")
    ui.wait_text(f"Reserva confirmada: {nome}")
    novas = ui.driver.find_elements(By.CSS_SELECTOR, ".inbox__item--nova")
    assert len(novas) == unread and all("Nova" in n.text for n in novas), [n.text for n in novas]
    ui.wait(lambda d: not d.find_element(By.ID, "menu-nao-lidas").is_displayed(), "the count stayed after opening the inbox")
    eventually(lambda: api(server, "GET", "/api/notificacoes", token=token)["naoLidas"] == 0, "the notices read")
    ui.step("notificacoes lidas")
    ui.open("/notificacoes")
    ui.wait_text(f"Reserva confirmada: {nome}")
    assert not ui.driver.find_elements(By.CSS_SELECTOR, ".inbox__item--nova")
    assert not ui.driver.find_element(By.ID, "menu-nao-lidas").is_displayed()

    # the receipt on a phone
    phone = browser(size=(390, 844), mobile=True)
    sign_in(phone, email, senha, expect_heading="Encontre um espaço")
    phone.open(f"/faturas/{fatura['id']}/recibo")
    check_receipt(phone, nome, unidade, membro, codigo)
    phone.step("recibo 390x844")
