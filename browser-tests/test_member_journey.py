"""A member on a phone: register (signed in at once) → find a space → see its day → quote → book → see it
in "Minhas reservas" → cancel (with the refund the policy gives) → export and erase my data."""

from __future__ import annotations

import json
import uuid
from datetime import datetime
from datetime import time as dtime

from selenium.webdriver.common.by import By

from journeys import go_to_day, login_allowance, pick_slot, sign_in


def test_member_registers_books_and_cancels_a_room_on_a_phone(browser, server, booking_day):
    ui = browser(size=(390, 844), mobile=True)
    email = f"ana.{uuid.uuid4().hex[:8]}@exemplo.com.br"
    senha = "senha-forte-123"

    ui.open("/")
    assert ui.heading() == "Encontre um espaço"
    ui.wait_catalog()
    ui.step("catálogo para visitantes")

    # register
    ui.menu("Criar conta")
    ui.wait_heading("Criar conta")
    ui.fill("Nome completo", "Ana Souza")
    ui.fill("E-mail", email)
    ui.fill("Senha", senha)
    ui.step("cadastro preenchido")
    login_allowance()
    ui.click("Criar conta", "#view form")
    # the new account is signed in at once
    ui.wait_heading("Encontre um espaço")
    ui.wait_text("Conta criada! Bem-vindo(a), Ana!", "#flash")
    ui.step("conta criada e dentro")

    # find a space: meeting rooms of the Paulista unit for 6+ with a projector
    ui.choose("Unidade", "CoworkFlow Paulista")
    ui.choose("Tipo", "Sala de reunião")
    ui.fill("Pessoas (mínimo)", "6")
    ui.choose("Comodidade", "Projetor")
    ui.click("Buscar")
    ui.wait_url("tipo=sala_reuniao")
    ui.wait_text("1 espaço")
    cards = ui.driver.find_elements("css selector", ".cards .card")
    assert [c.find_element("css selector", "h2").text for c in cards] == ["Sala Ipê"]
    ui.wait_text("R$ 80,00")
    ui.step("busca filtrada")

    # its day view
    ui.click_link("Ver disponibilidade", ".cards")
    ui.wait_heading("Sala Ipê")
    go_to_day(ui, booking_day)
    ui.wait_text("Livre", ".slots")
    ui.step("disponibilidade do dia")

    # 10:00–12:00: the first click takes the minimum hour, a click on 11:30 stretches it to 12:00
    pick_slot(ui, "10:00")
    pick_slot(ui, "11:30")
    assert ui.value("Início") == "10:00"
    assert ui.value("Fim") == "12:00 (2 h)"
    ui.click("Ver preço")
    ui.wait_text("Composição do preço", ".quote")
    quote = ui.driver.find_element("css selector", ".quote").text
    assert "2 h × R$ 80,00" in quote, quote
    assert "R$ 160,00" in quote, quote
    ui.step("cotação linha a linha")

    # book: the slot is held until expiraEm. The booking answers with what it wrote
    # (Coworkflow-Consistencia) and the app's next reads send it back (ADR 0005): recorded here.
    ui.driver.execute_script(
        """
        window.__pedidos = [];
        const original = window.fetch;
        window.fetch = async (url, options = {}) => {
          const pedido = {metodo: options.method || 'GET', url: String(url),
                          enviado: (options.headers || {})['Coworkflow-Consistencia'] || null};
          window.__pedidos.push(pedido);
          const response = await original(url, options);
          pedido.recebido = response.headers.get('Coworkflow-Consistencia');
          return response;
        };
        """
    )
    ui.click("Reservar", ".quote")
    ui.wait_text("Reserva solicitada!", ".result")
    result = ui.driver.find_element("css selector", ".result").text
    assert "Seu horário está guardado até as" in result, result
    assert "R$ 160,00" in result, result
    ui.wait(lambda d: "Ocupado" in d.find_element("css selector", ".slots").text, "the booked slots never showed as taken")
    ui.step("reserva solicitada")
    pedidos = ui.driver.execute_script("return window.__pedidos")
    reservou = next(i for i, p in enumerate(pedidos) if p["metodo"] == "POST" and p["url"].endswith("/api/reservas"))
    escrito = pedidos[reservou].get("recebido") or ""
    solicitada = next((e for e in escrito.split(",") if e.startswith("ReservaSolicitada=")), None)
    assert solicitada, f"the booking's answer names what it wrote: {pedidos[reservou]}"
    depois = [p for p in pedidos[reservou + 1 :] if p["metodo"] == "GET"]
    assert any(solicitada in (p["enviado"] or "").split(",") for p in depois), f"a read after it sends it back: {depois}"

    # my bookings
    ui.menu("Minhas reservas")
    ui.wait_heading("Minhas reservas")
    row = ui.row("Sala Ipê")
    assert "Aguardando pagamento" in row.text and "R$ 160,00" in row.text, row.text
    assert f"{booking_day:%d/%m/%Y}, 10:00–12:00" in row.text, row.text
    ui.step("minhas reservas")

    # cancel: the dialog says the policy; the answer says refund and penalty
    ui.click("Cancelar", row)
    dialog = ui.dialog()
    assert "Política da unidade" in dialog.text and "nada será cobrado" in dialog.text, dialog.text
    ui.step("confirmar cancelamento")
    ui.click("Cancelar reserva", dialog)
    ui.wait_text("Reserva cancelada. Reembolso: R$ 0,00. Multa: R$ 0,00.", "#flash")
    row = ui.row("Sala Ipê")
    ui.wait(lambda d: "Cancelada" in ui.row("Sala Ipê").text)
    assert "Reembolso: R$ 0,00 · Multa: R$ 0,00" in ui.row("Sala Ipê").text
    ui.step("reserva cancelada")

    # my data: export as JSON, then erase
    ui.menu("Meus dados")
    ui.wait_heading("Meus dados")
    ui.wait_text(email)
    ui.click("Baixar meus dados")
    ui.wait_text("Arquivo gerado")
    files = ui.wait(lambda d: [p for p in ui.downloads.glob("coworkflow-meus-dados-*.json")] or False, "no export downloaded")
    exported = json.loads(files[0].read_text())
    assert exported["perfil"]["email"] == email
    assert any(a["tipo"] == "ReservaCancelada" for a in exported["atividade"]), "the export lists my activity"
    ui.step("dados exportados")

    ui.click("Apagar meus dados")
    dialog = ui.dialog()
    ui.fill("Digite APAGAR para confirmar", "APAGAR", dialog)
    ui.step("confirmar apagamento")
    ui.click("Apagar para sempre", dialog)
    ui.wait_text("Seus dados pessoais foram apagados", "#flash")
    ui.wait_heading("Encontre um espaço")
    ui.step("dados apagados")


def test_member_books_with_the_keyboard_only(browser, server, booking_day):
    """Slots, "Ver preço" and "Reservar" work with Enter on the focused button (no mouse), and
    focus lands on the confirmation."""
    from selenium.webdriver.common.keys import Keys

    from journeys import slot

    ui = browser()
    sign_in(ui, *server.member, expect_heading="Encontre um espaço")
    ui.open(f"/espacos/{server.espacos['Sala Jacarandá']}?data={booking_day.isoformat()}")
    ui.wait_heading("Sala Jacarandá")
    ui.wait_text("Livre", ".slots")

    first = slot(ui, "15:00")
    ui.scroll(first)
    ui.driver.execute_script("arguments[0].focus()", first)
    first.send_keys(Keys.ENTER)
    ui.wait(lambda d: slot(ui, "15:00").get_attribute("aria-pressed") == "true")
    assert ui.value("Fim") == "16:00 (1 h)"
    button = ui.button("Ver preço")
    ui.driver.execute_script("arguments[0].focus()", button)
    button.send_keys(Keys.ENTER)
    ui.wait_text("R$ 50,00", ".quote")
    ui.step("cotação pelo teclado")
    book = ui.button("Reservar", ".quote")
    ui.driver.execute_script("arguments[0].focus()", book)
    book.send_keys(Keys.ENTER)
    ui.wait_text("Reserva solicitada!", ".result")
    assert ui.active_element_text().startswith("Reserva solicitada!"), "focus moves to the confirmation"
    ui.wait(lambda d: "Ocupado" in d.find_element("css selector", ".slots").text)
    ui.step("reservada pelo teclado")


def test_a_second_click_never_moves_the_start_without_saying_so(browser, server, booking_day):
    """A room with a 1 h minimum and a 3 h maximum, 16:00 taken: 14:00 then 14:30 keeps the start
    at 14:00 (the minimum hour, said in words); a later slot sets the end; a slot past the taken
    hour, or before the start, starts a new selection and says so; the end stops at the maximum.
    The range stays written out ("Das 14:00 às 15:00") and the quote is for that range."""
    from zoneinfo import ZoneInfo

    from journeys import ALWAYS_OPEN, book, meeting_room, member, slot

    nome = f"Sala Mínimo {uuid.uuid4().hex[:4]}"
    _, espaco = meeting_room(server, nome, horario={d: [{"abre": 480, "fecha": 1200}] for d in ALWAYS_OPEN}, minimo=60, maximo=180)
    _, _, outro = member(server, "Carla Dias")
    tz = ZoneInfo("America/Sao_Paulo")
    at = lambda hh: datetime.combine(booking_day, dtime(hh), tz)  # noqa: E731
    book(server, outro, espaco, at(16), at(17))

    ui = browser(size=(390, 844), mobile=True)
    sign_in(ui, *server.member, expect_heading="Encontre um espaço")
    ui.open(f"/espacos/{espaco}?data={booking_day.isoformat()}")
    ui.wait_heading(nome)
    ui.wait_text("Ocupado", ".slots")

    def chosen():
        return ui.value("Início"), ui.value("Fim")

    def said(*texts):
        box = ui.driver.find_element(By.CSS_SELECTOR, ".selection [role=status]")
        for text in texts:
            ui.wait(lambda d: text in box.text, f"'{text}' not in the selection's text: {box.text!r}")
        return box.text

    # the first click takes the minimum hour; a click inside it keeps the start and says why
    pick_slot(ui, "14:00")
    assert chosen() == ("14:00", "15:00 (1 h)"), chosen()
    pick_slot(ui, "14:30")
    assert chosen() == ("14:00", "15:00 (1 h)"), f"the second click moved the range to {chosen()}"
    assert slot(ui, "14:00").get_attribute("aria-pressed") == "true"
    said("Das 14:00 às 15:00", "A duração mínima é 1 h")
    ui.step("segundo clique dentro do minimo")

    # a later slot sets the end
    pick_slot(ui, "15:30")
    assert chosen() == ("14:00", "16:00 (2 h)"), chosen()
    said("Das 14:00 às 16:00", "Termina às 16:00")

    # past the taken hour: a new selection, in words
    pick_slot(ui, "17:30")
    assert chosen() == ("17:30", "18:30 (1 h)"), chosen()
    said("Das 17:30 às 18:30", "Nova seleção: começa às 17:30, porque o horário das 16:00 está ocupado")
    assert slot(ui, "14:00").get_attribute("aria-pressed") == "false"
    ui.step("nova selecao depois do horario ocupado")

    # before the start: a new selection; then the end stops at the 3 h maximum
    pick_slot(ui, "09:00")
    assert chosen() == ("09:00", "10:00 (1 h)"), chosen()
    said("Das 09:00 às 10:00", "Nova seleção: começa às 09:00 (antes começava às 17:30)")
    ui.press(slot(ui, "12:30"))  # ends at 13:00, 4 h after the start
    assert chosen() == ("09:00", "12:00 (3 h)"), chosen()
    assert slot(ui, "12:30").get_attribute("aria-pressed") == "false"
    said("Das 09:00 às 12:00", "A duração máxima é 3 h: a reserva termina às 12:00")
    ui.step("fim limitado pela duracao maxima")

    # the quote is for the range shown
    ui.click("Ver preço")
    ui.wait_text("Composição do preço", ".quote")
    assert f"{booking_day:%d/%m/%Y}, 09:00–12:00 (3 h)" in ui.driver.find_element(By.CSS_SELECTOR, ".quote").text

    # starting over
    ui.click("Limpar seleção")
    said("Nenhum horário escolhido")
    assert not ui.driver.find_elements(By.CSS_SELECTOR, ".slots button[aria-pressed=true]")
    assert ui.driver.find_element(By.CSS_SELECTOR, ".quote").text == ""
    ui.step("selecao desfeita")
