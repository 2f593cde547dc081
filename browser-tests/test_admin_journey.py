"""An operator: log in with the seeded admin → create a unit (ISS 2 %, check-in from the start)
and a space with a price (a rule and a blackout added and removed on the way) → a member books the
new space and pays by PIX in the sandbox → the operator sees the booking confirmed in the unit's
day, the reception refuses the member's code before the window opens → finance: revenue chart,
by space type, ledger, CSV exports, the invoice → indicators: rates, the hour-of-week heatmap,
revenue by type, top members → the member in users and the confirmation in the audit trail."""

from __future__ import annotations

import csv
import io
import uuid

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from journeys import api, go_to_day, pick_slot, session, sign_in, token


def test_admin_creates_a_space_sees_it_paid_and_follows_finance_and_indicators(browser, server, booking_day):
    ui = browser(size=(1280, 900))
    unidade = f"CoworkFlow Recife {uuid.uuid4().hex[:4]}"
    espaco = "Sala Capibaribe"

    sign_in(ui, *server.admin, expect_heading="Reservas do dia")
    ui.wait_text("Auditoria", "#menu")  # the operator part of the menu
    ui.step("operador entrou")

    # a unit
    ui.menu("Unidades")
    ui.wait_heading("Unidades")
    ui.wait_text("Unidades cadastradas", "#view table caption")
    ui.click("Nova unidade")
    ui.wait_heading("Nova unidade")
    ui.fill("Nome da unidade", unidade)
    ui.fill("Logradouro", "Rua da Aurora")
    ui.fill("Número", "325")
    ui.fill("Bairro", "Boa Vista")
    ui.fill("Cidade", "Recife")
    ui.choose("UF", "PE")
    ui.fill("CEP", "50050-000")
    ui.fill("Fuso horário (IANA)", "America/Recife")
    ui.fill("Multa depois disso (% do total)", "30")
    ui.fill("Créditos devolvidos a quem não comparece (%)", "50")
    ui.fill("ISS (% sobre cada fatura)", "2")
    ui.fill("Check-in abre (minutos antes do início)", "0")
    ui.step("nova unidade")
    ui.click("Cadastrar unidade")
    ui.wait_heading("Espaços")
    ui.wait_text(f"Unidade {unidade} cadastrada", "#flash")
    assert ui.value("Unidade") == unidade
    ui.wait_text("Nenhum espaço ativo nesta unidade.")
    ui.step("unidade cadastrada")

    # a space in it
    ui.click("Novo espaço")
    ui.wait_heading("Novo espaço")
    assert ui.value("Unidade") == unidade
    ui.fill("Nome", espaco)
    ui.choose("Tipo", "Sala de reunião")
    ui.fill("Capacidade (pessoas)", "6")
    ui.fill("Comodidades", "projetor, café")
    ui.step("novo espaço")
    ui.click("Cadastrar espaço")
    ui.wait_heading(f"Preços — {espaco}")
    ui.wait_text("Defina a tabela de preços", "#flash")
    ui.step("espaço cadastrado, sem preço")

    # its price
    ui.fill("Por hora (R$)", "90,00")
    ui.fill("Meio período (R$)", "300,00")
    ui.fill("Diária (R$)", "550,00")
    ui.click("Definir preços")
    ui.wait_text(f"Preços de {espaco} salvos: R$ 90,00 por hora.", "#flash")
    ui.wait_text("Nenhuma regra: vale o preço base.")
    ui.step("preços definidos")

    # a peak-hour rule, then removed
    ui.choose("Tipo de regra", "Horário de pico")
    ui.click("Adicionar regra")
    ui.wait_text('Regra "Horário de pico" adicionada.', "#flash")
    rule = ui.row("Horário de pico")
    assert "seg, ter, qua, qui, sex, 09:00–12:00: preço × 150 %" in rule.text, rule.text
    ui.step("regra de pico")
    ui.click("Remover", rule)
    ui.click("Remover regra", ui.dialog())
    ui.wait_text("Regra removida.", "#flash")
    ui.wait_text("Nenhuma regra: vale o preço base.")

    # a blackout, then removed
    ui.click_link("Bloqueios", ".tabs")
    ui.wait_heading(f"Bloqueios — {espaco}")
    ui.set_value("Data de início", booking_day.isoformat())
    ui.set_value("Data de fim", booking_day.isoformat())
    ui.fill("Descrição", "pintura")
    ui.click("Agendar bloqueio")
    ui.wait_text("Bloqueio agendado.", "#flash")
    blackout = ui.row("pintura")
    assert f"{booking_day:%d/%m/%Y}, 08:00–12:00" in blackout.text and "Manutenção" in blackout.text, blackout.text
    ui.step("bloqueio agendado")
    ui.click("Remover", blackout)
    ui.click("Remover bloqueio", ui.dialog())
    ui.wait_text("Bloqueio removido.", "#flash")
    ui.wait_text("Nenhum bloqueio agendado.")

    # the space is in the unit's list with its price
    ui.menu("Espaços e preços")
    ui.wait_heading("Espaços")
    ui.choose("Unidade", unidade)
    listed = ui.row(espaco)
    assert "R$ 90,00" in listed.text and "Sala de reunião" in listed.text, listed.text
    ui.step("espaço na lista da unidade")
    ui.sign_out()

    # a member books it
    sign_in(ui, *server.member, expect_heading="Encontre um espaço")
    ui.choose("Unidade", unidade)
    ui.click("Buscar")
    ui.wait_text("1 espaço")
    ui.click_link("Ver disponibilidade", ".cards")
    ui.wait_heading(espaco)
    go_to_day(ui, booking_day)
    pick_slot(ui, "14:00")
    assert ui.value("Fim") == "15:00 (1 h)"
    ui.click("Ver preço")
    ui.wait_text("R$ 90,00", ".quote")
    ui.click("Reservar", ".quote")
    ui.wait_text("Reserva solicitada!", ".result")
    ui.step("membro reservou o espaço novo")
    ui.click_link("Pagar agora", ".result")
    ui.wait_text("Pague com PIX")
    ui.click("Pagar no sandbox")
    ui.wait_text("Pagamento confirmado e reserva confirmada!")
    ui.step("membro pagou no sandbox")
    ui.click_link("Ver código de check-in")
    codigo = ui.wait_text("Código de check-in", ".checkin-code").find_element(By.CSS_SELECTOR, ".code").text
    ui.wait_text("O check-in abre às")
    ui.sign_out()

    # the operator sees it confirmed in the unit's day; the reception cannot check in yet
    sign_in(ui, *server.admin, expect_heading="Reservas do dia")
    ui.choose("Unidade", unidade)
    ui.wait_idle()
    go_to_day(ui, booking_day)
    booking = ui.row(espaco)
    assert "14:00–15:00" in booking.text and "Membro Demo" in booking.text and "Confirmada" in booking.text, booking.text
    assert "R$ 90,00" in booking.text, booking.text
    ui.step("reserva paga no dia da unidade")
    ui.fill("Código de check-in", codigo.lower())
    ui.expect_http(409, "/api/checkin")
    ui.click("Registrar check-in")
    ui.wait_text("Ainda é cedo: o check-in desta reserva abre em", "#view [role=alert]")
    ui.step("recepcao antes da janela")

    # finance: the unit's revenue, by day and by type, the ledger, the exports, the invoice
    ui.menu("Financeiro")
    ui.wait_heading("Financeiro")
    ui.choose("Unidade", unidade)
    ui.wait_text("Receita líquida", "#view .facts")
    receita = ui.wait_text("Receita do período", "#view section")
    assert "R$ 90,00" in receita.find_element(By.CSS_SELECTOR, ".facts").text, receita.text
    chart = ui.driver.find_element(By.CSS_SELECTOR, "svg.chart--receita")
    assert chart.get_dom_attribute("role") == "img" and "R$ 90,00" in chart.find_element(By.CSS_SELECTOR, "desc").get_attribute("textContent").replace("\xa0", " ")
    bars = [int(b.get_attribute("data-valor")) for b in chart.find_elements(By.CSS_SELECTOR, ".chart__bar")]
    assert len(bars) == 30 and sum(bars) == 9000, bars
    ui.press(receita.find_element(By.XPATH, ".//summary[normalize-space()='Ver os números em tabela']"))
    dias = ui.wait(lambda d: receita.find_element(By.CSS_SELECTOR, "details table").is_displayed() and receita.find_element(By.CSS_SELECTOR, "details table"))
    assert "R$ 90,00" in dias.text, dias.text
    ui.step("receita por dia")
    assert "Sala de reunião" in ui.driver.find_element(By.CSS_SELECTOR, "svg.chart--hbars").get_attribute("textContent")
    razao = ui.wait_text("Equilibrado", "#view section")
    assert "Caixa" in razao.text and "R$ 90,00" in razao.text and "R$ 1,80" in razao.text, razao.text
    ui.step("razao")

    ui.click("Baixar faturas (CSV)")
    ui.wait_text("Confira a pasta de downloads")
    faturas = ui.wait(lambda d: [p for p in ui.downloads.glob("faturas-*.csv") if p.stat().st_size] or False, "no invoices CSV downloaded")
    linhas = list(csv.DictReader(io.StringIO(faturas[0].read_text(encoding="utf-8"))))
    assert [(l["codigo"], l["valor"], l["iss"]) for l in linhas] == [("F-1", "90.00", "1.80")], linhas
    ui.click("Baixar lançamentos do razão (CSV)")
    razao_csv = ui.wait(lambda d: [p for p in ui.downloads.glob("razao-*.csv") if p.stat().st_size] or False, "no ledger CSV downloaded")
    contas = {l["conta"] for l in csv.DictReader(io.StringIO(razao_csv[0].read_text(encoding="utf-8")))}
    assert {"caixa", "receita_de_servicos", "iss_a_recolher"} <= contas, contas
    ui.step("exportacoes csv")

    # The tab keeps the unit chosen: its invoices only (numbers run per unit: other tests' units
    # have an F-1 of their own, and all units' invoices together run past one page).
    ui.click_link("Faturas", ".tabs")
    ui.wait_url("/admin/financeiro/faturas?unidade=")
    selected = Select(ui.control("Unidade")).first_selected_option.text
    assert selected == unidade, selected
    invoice = ui.row("F-1")
    assert len(ui.driver.find_elements(By.CSS_SELECTOR, "#view table tbody tr")) == 1
    assert "F-1" in invoice.text and "R$ 90,00" in invoice.text and "Paga" in invoice.text and "PIX" in invoice.text, invoice.text
    ui.step("faturas")
    ui.press(invoice.find_element(By.LINK_TEXT, "F-1"))
    ui.wait_heading("Fatura F-1")
    ui.wait_text("R$ 1,80 (2 %)")
    ui.wait_text("Nenhuma nota de crédito")
    assert "Membro Demo" in ui.driver.find_element(By.ID, "view").text
    ui.step("fatura")
    # the member's receipt, for the desk to print; back to the invoice
    ui.click_link("Recibo para imprimir")
    ui.wait_heading("Recibo da fatura F-1")
    recibo = ui.wait_text("Membro Demo", ".receipt").text
    assert unidade in recibo and "R$ 90,00" in recibo.replace("\xa0", " "), recibo
    ui.step("recibo pela operacao")
    ui.click_link("← Fatura")
    ui.wait_heading("Fatura F-1")
    # and back to the unit's invoices
    ui.click_link("← Faturas")
    ui.wait_url("/admin/financeiro/faturas?unidade=")
    assert Select(ui.control("Unidade")).first_selected_option.text == unidade

    # indicators
    ui.menu("Indicadores")
    ui.wait_heading("Indicadores")
    ui.wait_text("Taxa de ausência (no-show)", "#view .kpis")
    heatmap = ui.driver.find_element(By.CSS_SELECTOR, "svg.chart--heatmap")
    assert len(heatmap.find_elements(By.CSS_SELECTOR, ".chart__cell")) == 7 * 24
    ui.choose("Espaço", f"{espaco} (Sala de reunião)")
    ui.wait(lambda d: "às 14h" in d.find_element(By.CSS_SELECTOR, ".chart-summary").text, "the booked hour is not the busiest of the new room")
    ui.step("ocupacao por hora da semana")
    tipos = ui.wait(lambda d: (d.find_elements(By.CSS_SELECTOR, "svg.chart--receita-tipo") or [False])[0], "no revenue by type")
    assert "Sala de reunião" in tipos.get_attribute("textContent")
    # the ranking is the network's since the start: members of other files on this server may
    # all rank above the demo member, who is then rightly missing from the top 10
    top = api(server, "GET", "/api/analytics/membros?limite=10", token=token(server, server.admin))
    demo = session(server, server.member)["usuario"]["id"]
    ranked = any(m["usuarioId"] == demo for m in top["porHoras"] + top["porReceita"])
    ui.wait_text("Membro Demo" if ranked else "Por receita", "#view section[aria-labelledby=membros-titulo]")
    ui.step("indicadores")

    # users: find the member
    ui.menu("Usuários")
    ui.wait_heading("Usuários")
    ui.fill("E-mail contém", "membro@demo")
    ui.click("Filtrar")
    ui.wait_url("email=membro")
    member = ui.row("membro@demo.coworkflow")
    assert "Membro Demo" in member.text and "Membro" in member.text, member.text
    ui.step("usuários filtrados")

    # audit trail: the confirmation (by the payment), by type
    ui.menu("Auditoria")
    ui.wait_heading("Trilha de auditoria")
    ui.choose("Tipo de evento", "Reserva confirmada")
    ui.click("Filtrar")
    ui.wait_url("tipo=ReservaConfirmada")
    event = ui.row("Reserva confirmada")
    assert "Reservas" in event.text, event.text
    ui.step("auditoria da confirmação")
