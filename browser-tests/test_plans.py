"""Plans and subscriptions: an operator creates a plan in "Planos" (R$, hours and percentages typed
as people say them, converted to centavos, minutes and basis points) and adds a version from a
later date; a new member finds it in "Meu plano" (price, setup fee, hours and money per cycle,
roll-over, discount with its space types and days, the version to come), is told plainly that a
card needs its token, subscribes by boleto and sees the first cycle prorated (its period, value
made of the prorated fee and the setup fee, the credits granted, awaiting payment), the credits
in "Meus créditos", schedules a cancellation (confirmed in a dialog) and undoes it, schedules a
change to a cheaper plan and undoes it; the cycle's boleto shows by itself. The operator finds
the subscription under "Assinaturas" (filtered by status), opens it and registers the cycle's
payment by hand, and the member sees it paid. A cycle charged by PIX (QR code, copia e cola) is
paid in the sandbox bank and turns paid, and its invoice (plan, period, lines) is under "Minhas
faturas" with a receipt; a card the issuer declines is said to the member by
itself (the dunning: attempts, the next one) and shows in the operator's list. After a declined
card the member uses "Atualizar cartão" in the dunning notice: a card without its token is told
next to the field; another declined card counts a second attempt (said as such); a good one charges
the cycle again at once and it turns paid, the subscription in good standing. Desktop and phone."""

from __future__ import annotations

import calendar
import uuid
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

from selenium.webdriver.common.by import By

from journeys import api, brl, eventually, member, open_signed_in, session, token

SP = ZoneInfo("America/Sao_Paulo")


def horas(minutos: int) -> str:
    h, m = divmod(minutos, 60)
    if h and m:
        return f"{h} h {m} min"
    return f"{h} h" if h or not m else f"{m} min"


def text(ui, css: str) -> str:
    return ui.driver.find_element(By.CSS_SELECTOR, css).text.replace("\xa0", " ")


def dmy(d: date | str) -> str:
    return (date.fromisoformat(d) if isinstance(d, str) else d).strftime("%d/%m/%Y")


def check(ui, label: str, within) -> None:
    """Ticks the checkbox (or radio) whose label reads `label` inside `within`."""
    el = ui.wait(lambda d: d.execute_script(
        "return [...arguments[0].querySelectorAll('label')].find((l) => l.textContent.replace(/\\s+/g, ' ').trim() === arguments[1]) || null",
        within, label), f"no option '{label}'")
    ui.press(el)


def test_operator_creates_a_plan_and_a_member_subscribes_cancels_and_undoes(browser, server):
    admin = token(server, server.admin)
    nome = f"Flex Teste {uuid.uuid4().hex[:4]}"
    hoje = datetime.now(SP).date()
    nova_versao = hoje + timedelta(days=40)

    # ---- the operator creates the plan -------------------------------------------------------------
    ui = browser()
    open_signed_in(ui, server, server.admin, "/admin/reservas")
    ui.menu("Planos")
    ui.wait_heading("Planos")
    form = ui.driver.find_element(By.CSS_SELECTOR, "form.plan-create")
    ui.fill("Nome", nome, form)
    ui.fill("Descrição", "10 h de sala por mês e desconto na estação", form)
    ui.fill("Valor do ciclo (R$)", "299,00", form)
    ui.fill("Adesão (R$)", "50", form)
    ui.fill("Horas por ciclo", "10", form)
    check(ui, "Sala de reunião", form.find_element(By.CSS_SELECTOR, "[data-field=tiposDasHoras]"))
    ui.fill("Créditos por ciclo (R$)", "20,00", form)
    ui.fill("Roll-over (%)", "50", form)
    ui.fill("Desconto nas reservas (%)", "10", form)
    check(ui, "Estação compartilhada", form.find_element(By.CSS_SELECTOR, "[data-field=tiposDeAcesso]"))
    dias = form.find_element(By.CSS_SELECTOR, "[data-field=diasDeAcesso]")
    check(ui, "Segunda-feira", dias)
    check(ui, "Terça-feira", dias)
    ui.step("novo plano preenchido")
    ui.click("Criar plano", form)
    ui.wait_text(f"Plano {nome} criado e à venda.", ".plan-admin__result")
    plano = next(p for p in api(server, "GET", "/api/admin/planos", token=admin)["itens"] if p["nome"] == nome)
    termos = plano["versoes"][0]["termos"]
    assert termos == {
        "periodicidade": "mensal", "valorCentavos": 29900, "adesaoCentavos": 5000, "horasMinutos": 600,
        "tiposDasHoras": ["sala_reuniao"], "creditoCentavos": 2000, "rolloverBP": 5000, "descontoBP": 1000,
        "acesso": {"tipos": ["estacao_compartilhada"], "dias": ["segunda", "terca"]},
    }, termos
    card_css = f"[data-plano='{plano['planoId']}']"
    ui.wait(lambda d: d.find_elements(By.CSS_SELECTOR, card_css), "the new plan is not listed")
    card = text(ui, card_css)
    assert "À venda" in card and "R$ 299,00 por mês" in card and "10 h em Sala de reunião" in card, card
    assert "Até 50 % do que não usar passa para o ciclo seguinte" in card, card
    assert "10 % nas reservas de Estação compartilhada, às segundas e terças" in card, card
    assert ui.value("Nome") == "", "the form was not cleared"
    ui.step("plano criado")

    # a new version from a later date, the form filled with the current terms
    item = ui.driver.find_element(By.CSS_SELECTOR, card_css)
    ui.click("Nova versão", item)
    versao = ui.wait(lambda d: item.find_element(By.CSS_SELECTOR, "form.plan-version"))
    assert ui.control("Valor do ciclo (R$)", versao).get_attribute("value") == "299,00"
    assert ui.control("Horas por ciclo", versao).get_attribute("value") == "10"
    ui.fill("Valor do ciclo (R$)", "329,00", versao)
    ui.driver.execute_script(
        "arguments[0].value = arguments[1]; arguments[0].dispatchEvent(new Event('input', {bubbles: true}))",
        ui.control("Vale a partir de", versao), nova_versao.isoformat())
    ui.click("Criar versão", versao)
    ui.wait_text(f"Versão 2 de {nome} criada: vale a partir de {dmy(nova_versao)}.", ".plan-admin__result")
    ui.wait(lambda d: f"A partir de {dmy(nova_versao)}:" in text(ui, card_css), "the version to come is not shown")
    assert "R$ 329,00 por mês" in text(ui, card_css)
    ui.step("nova versao")

    # a cheaper plan to change to, prepared through the API
    basico = api(server, "POST", "/api/admin/planos", {
        "nome": f"Básico Teste {uuid.uuid4().hex[:4]}", "periodicidade": "mensal", "valorCentavos": 9900, "horasMinutos": 120,
    }, admin)

    # ---- a member finds it and subscribes ----------------------------------------------------------------
    email, senha, membro = member(server, "Paula Prado")
    m = browser()
    open_signed_in(m, server, (email, senha), "/espacos")
    m.menu("Meu plano")
    m.wait_heading("Meu plano")
    m.wait_text("Planos à venda")
    card = text(m, f"li{card_css}")
    assert "R$ 299,00 por mês" in card and "R$ 50,00, uma vez, com o primeiro ciclo" in card, card
    assert "10 h em Sala de reunião" in card and "R$ 20,00" in card and "Até 50 % do que não usar" in card, card
    assert "10 % nas reservas de Estação compartilhada, às segundas e terças" in card and "Toda a rede" in card, card
    assert f"A partir de {dmy(nova_versao)}: R$ 329,00 por mês" in card, card
    m.step("planos a venda")

    m.click("Escolher este plano", f"li{card_css}")
    form = m.driver.find_element(By.CSS_SELECTOR, "form.subscribe")
    radio = form.find_element(By.CSS_SELECTOR, f"input[name=planoId][value='{plano['planoId']}']")
    m.wait(lambda d: radio.is_selected() and d.switch_to.active_element == radio, "the plan was not picked")
    # a card asks for its token, in words, next to the field
    check(m, "Cartão de crédito", form)
    m.click("Assinar", form)
    token_field = form.find_element(By.CSS_SELECTOR, "[data-field=cartaoToken]")
    m.wait(lambda d: "Informe o token do cartão" in token_field.text, "no error next to the card token")
    assert m.control("Token do cartão (sandbox: tok_visa)", form).get_attribute("aria-invalid") == "true"
    check(m, "Boleto", form)
    assert not token_field.is_displayed(), "the card token is asked for a boleto"
    m.click("Assinar", form)
    m.wait_text("Assinatura feita!", ".subscription")
    assinatura = api(server, "GET", "/api/assinatura", token=membro)
    ciclo = assinatura["cicloAtual"]
    ultimo = date(hoje.year, hoje.month, calendar.monthrange(hoje.year, hoje.month)[1])
    assert assinatura["status"] == "ativa" and assinatura["metodo"] == "boleto", assinatura
    assert ciclo["inicio"] == hoje.isoformat() and ciclo["ate"] == ultimo.isoformat(), ciclo
    prorrogado = ciclo["proporcaoBP"] < 10000
    painel = text(m, ".subscription")
    assert f"O primeiro ciclo vai de {dmy(hoje)} a {dmy(ultimo)}" in painel, painel
    assert brl(ciclo["valorCentavos"]) in painel and "R$ 50,00 de adesão" in painel, painel
    assert "Ativa" in painel and "Boleto" in painel, painel
    proximo = ultimo + timedelta(days=1)
    assert f"Próxima cobrança\n{dmy(proximo)} · R$ 299,00" in painel, painel
    atual = text(m, ".subscription__cycle")
    assert f"{dmy(hoje)} a {dmy(ultimo)} (ciclo 1{', proporcional' if prorrogado else ''})" in atual, atual
    assert f"{brl(ciclo['valorCentavos'] - 5000)} do plano" in atual and "+ R$ 50,00 de adesão" in atual, atual
    creditos = " e ".join(x for x in (horas(ciclo["minutos"]) if ciclo["minutos"] else "", brl(ciclo["centavos"]) if ciclo["centavos"] else "") if x)
    assert f"Créditos concedidos\n{creditos}" in atual and "Aguardando pagamento" in atual, atual
    # the boleto of the cycle, emitted in the background, shows by itself
    m.wait_text("Linha digitável", ".subscription__charge")
    cobranca = text(m, ".subscription__charge")
    assert "Pagamento do ciclo 1" in cobranca and brl(ciclo["valorCentavos"]) in cobranca and "Vencimento" in cobranca, cobranca
    rows = m.driver.find_elements(By.CSS_SELECTOR, ".table--ciclos tbody tr")
    assert len(rows) == 1 and nome in rows[0].text and brl(ciclo["valorCentavos"]) in rows[0].text, [r.text for r in rows]
    m.step("assinatura feita")

    # the credits of the cycle in "Meus créditos"
    m.click_link("Ver em Meus créditos", "#view")
    m.wait_heading("Meus créditos")
    m.wait_text(f"Plano {nome}", ".credit-lots")
    saldo = {li.get_attribute("data-medida"): li.find_element(By.CSS_SELECTOR, ".kpi__value").text.replace("\xa0", " ")
             for li in m.driver.find_elements(By.CSS_SELECTOR, ".credit-balance li")}
    assert saldo == {"minutos": horas(ciclo["minutos"]), "centavos": brl(ciclo["centavos"])}, saldo
    assert "Sala de reunião" in text(m, ".credit-lots"), text(m, ".credit-lots")
    m.step("creditos do plano")

    # cancel (confirmed in a dialog), then undo
    m.menu("Meu plano")
    m.wait_heading("Meu plano")
    m.click("Cancelar assinatura", ".subscription")
    dialog = m.dialog()
    assert "no fim do ciclo atual" in dialog.text and dmy(proximo) in dialog.text, dialog.text
    m.step("confirmar cancelamento")
    m.click("Cancelar assinatura", dialog)
    m.wait_text(f"Cancelamento agendado: a assinatura termina em {dmy(proximo)}.", ".subscription")
    agendado = text(m, ".subscription__scheduled")
    assert "Cancelamento agendado." in agendado and f"A assinatura termina em {dmy(proximo)}" in agendado, agendado
    assert f"Próxima cobrança\nNenhuma: a assinatura termina em {dmy(proximo)}" in text(m, ".subscription")
    assert not m.driver.find_elements(By.XPATH, "//*[contains(@class,'subscription__actions')]//button[normalize-space()='Cancelar assinatura']")
    assert api(server, "GET", "/api/assinatura", token=membro)["agendamento"]["tipo"] == "cancelamento"
    m.step("cancelamento agendado")
    m.click("Desfazer cancelamento", ".subscription__scheduled")
    m.wait_text("Cancelamento desfeito: a assinatura continua.", ".subscription")
    assert not m.driver.find_elements(By.CSS_SELECTOR, ".subscription__scheduled")
    depois = api(server, "GET", "/api/assinatura", token=membro)
    assert "agendamento" not in depois and depois["proximaCobranca"] == proximo.isoformat(), depois
    m.step("cancelamento desfeito")

    # a cheaper plan waits for the next cycle; undone too
    m.click("Trocar de plano", ".subscription")
    troca = m.driver.find_element(By.CSS_SELECTOR, ".subscription__change-form")
    check(m, f"{basico['nome']} — R$ 99,00 por mês", troca)
    m.click("Confirmar troca", troca)
    m.wait_text(f"Troca agendada: o plano {basico['nome']} começa em {dmy(proximo)}.", ".subscription")
    assert f"Próxima cobrança\n{dmy(proximo)} · R$ 99,00" in text(m, ".subscription")
    m.step("troca agendada")
    m.click("Desfazer troca", ".subscription__scheduled")
    m.wait_text("Troca desfeita: o plano continua o mesmo.", ".subscription")
    assert "agendamento" not in api(server, "GET", "/api/assinatura", token=membro)

    # on a phone
    phone = browser(size=(390, 844), mobile=True)
    open_signed_in(phone, server, (email, senha), "/plano")
    phone.wait_heading("Meu plano")
    phone.wait_text("Ciclo atual")
    phone.step("meu plano 390x844")
    phone.scroll(phone.driver.find_element(By.CSS_SELECTOR, ".table--ciclos"))
    phone.step("ciclos 390x844")

    # ---- the operator finds the subscription ---------------------------------------------------------
    nome_membro = "Paula Prado"
    ui.open("/admin/planos")
    ui.wait_heading("Planos")
    ui.click_link("Assinaturas", "#view .tabs")
    ui.wait_heading("Assinaturas")
    row = ui.row(nome_membro)
    assert nome in row.text and "Ativa" in row.text and dmy(proximo) in row.text and "R$ 299,00" in row.text, row.text
    assert "aguardando pagamento" in row.text and "Em dia" in row.text, row.text
    ui.step("assinaturas")
    ui.choose("Situação", "Pausada")
    ui.click("Filtrar")
    ui.wait_url("status=pausada")
    ui.wait_idle()
    assert nome_membro not in text(ui, "#view"), "a paused filter lists an active subscription"
    ui.choose("Situação", "Ativa")
    ui.click("Filtrar")
    ui.wait_url("status=ativa")
    ui.click_link(nome_membro, "#view table")
    ui.wait_heading(f"Assinatura de {nome_membro}")
    ui.wait_text(email)
    ui.click("Registrar pagamento", ".subscription__cycle")
    dialog = ui.dialog()
    assert brl(ciclo["valorCentavos"]) in dialog.text, dialog.text
    ui.click("Registrar pagamento", dialog)
    ui.wait_text("Pagamento do ciclo 1 registrado.", ".subscription")
    assert "Pago" in text(ui, ".subscription__cycle") and "Registrar pagamento" not in text(ui, ".subscription__cycle")
    assert api(server, "GET", "/api/assinatura", token=membro)["cicloAtual"]["pago"] is True
    ui.step("pagamento registrado")
    m.open("/plano")
    m.wait_heading("Meu plano")
    m.wait_text("Ciclo atual")
    assert "Pago" in text(m, ".subscription__cycle") and not m.driver.find_elements(By.CSS_SELECTOR, ".subscription__charge")
    m.step("ciclo pago")

    op_phone = browser(size=(390, 844), mobile=True)
    open_signed_in(op_phone, server, server.admin, "/admin/assinaturas?status=ativa")
    op_phone.wait_heading("Assinaturas")
    op_phone.row(nome_membro)
    op_phone.step("assinaturas 390x844")
    op_phone.open("/admin/planos")
    op_phone.wait_heading("Planos")
    op_phone.wait_text(nome)
    op_phone.step("planos 390x844")


def test_a_cycle_paid_by_pix_in_the_sandbox_and_a_declined_card_in_dunning(browser, server):
    admin = token(server, server.admin)
    plano = api(server, "POST", "/api/admin/planos", {
        "nome": f"Pix Teste {uuid.uuid4().hex[:4]}", "periodicidade": "mensal", "valorCentavos": 12000, "horasMinutos": 240,
    }, admin)
    card_css = f"li[data-plano='{plano['planoId']}']"

    def subscribe(ui, metodo: str, cartao: str | None = None) -> None:
        ui.click("Escolher este plano", card_css)
        form = ui.driver.find_element(By.CSS_SELECTOR, "form.subscribe")
        check(ui, metodo, form)
        if cartao:
            ui.fill("Token do cartão (sandbox: tok_visa)", cartao, form)
        ui.click("Assinar", form)
        ui.wait_text("Assinatura feita!", ".subscription")

    # PIX Automático: the QR code and the copia e cola, paid in the test bank
    email, senha, membro = member(server, "Rita Lopes")
    ui = browser()
    open_signed_in(ui, server, (email, senha), "/plano")
    ui.wait_heading("Meu plano")
    ui.wait_text(plano["nome"], card_css)
    subscribe(ui, "PIX Automático")
    ui.wait_text("PIX copia e cola", ".subscription__charge")
    cobranca = api(server, "GET", "/api/assinatura", token=membro)["cobrancas"][0]
    assert cobranca["metodo"] == "pix", cobranca
    assert ui.control("PIX copia e cola").get_attribute("value") == cobranca["pix"]["copiaECola"]
    assert ui.driver.find_elements(By.CSS_SELECTOR, ".subscription__charge svg.qr title"), "no QR code"
    assert brl(cobranca["valorCentavos"]) in text(ui, ".subscription__charge")
    ui.step("cobranca pix")
    ui.click("Pagar no sandbox", ".subscription__charge")
    ui.wait_text("Pagamento do ciclo 1 confirmado.", ".subscription")
    assert "Pago" in text(ui, ".subscription__cycle") and not ui.driver.find_elements(By.CSS_SELECTOR, ".subscription__charge")
    assert api(server, "GET", "/api/assinatura", token=membro)["cicloAtual"]["pago"] is True
    ui.step("ciclo pago por pix")

    # the paid cycle is invoiced: under "Minhas faturas", with its receipt (plan, period, lines).
    # Financeiro invoices in its reaction to the payment, a moment after it (as for a bundle).
    ciclo = api(server, "GET", "/api/assinatura", token=membro)["cicloAtual"]
    eventually(lambda: api(server, "GET", "/api/faturas", token=membro)["itens"], "the cycle's invoice")
    ui.menu("Minhas faturas")
    ui.wait_heading("Minhas faturas")
    linha = ui.row(f"Plano {plano['nome']}")
    assert f"{dmy(ciclo['inicio'])[:5]}" in linha.text and brl(ciclo["valorCentavos"]) in linha.text.replace("\xa0", " "), linha.text
    ui.step("fatura do ciclo")
    ui.press(linha.find_element(By.CSS_SELECTOR, "a[href$='/recibo']"))
    ui.wait_heading("Recibo da fatura")
    ui.wait_text(f"Mensalidade do plano {plano['nome']}", "#view")
    recibo = text(ui, "#view")
    assert f"Plano {plano['nome']}" in recibo and f"Mensalidade do plano {plano['nome']}" in recibo, recibo
    assert f"ciclo 1, de {dmy(ciclo['inicio'])} a {dmy(ciclo['ate'])}" in recibo, recibo
    ui.step("recibo do ciclo")

    # a card the issuer declines: the member is told by itself, and the operator sees the dunning
    email2, senha2, membro2 = member(server, "Otavio Nunes")
    phone = browser(size=(390, 844), mobile=True)
    open_signed_in(phone, server, (email2, senha2), "/plano")
    phone.wait_heading("Meu plano")
    phone.wait_text(plano["nome"], card_css)
    subscribe(phone, "Cartão de crédito", "tok_sandbox_recusado")
    phone.wait_text("A cobrança do ciclo 1 foi recusada.", ".subscription")
    inadimplencia = api(server, "GET", "/api/assinatura", token=membro2)["inadimplencia"]
    assert inadimplencia["ciclo"] == 1 and inadimplencia["tentativas"] == 1, inadimplencia
    alerta = text(phone, ".subscription__dunning")
    assert "Pagamento não recebido." in alerta and "Ciclo 1: 1 tentativa desde" in alerta and "próxima em" in alerta, alerta
    assert "O cartão recusou a cobrança." in text(phone, ".subscription__charge")
    phone.step("cartao recusado 390x844")

    op = browser()
    open_signed_in(op, server, server.admin, "/admin/assinaturas?status=ativa")
    op.wait_heading("Assinaturas")
    row = op.row("Otavio Nunes")
    atraso = row.find_element(By.CSS_SELECTOR, "td[data-label='Atraso']").text
    assert "Ciclo 1: 1 tentativa desde" in atraso and "próxima em" in atraso, atraso
    assert "Em dia" in op.row("Rita Lopes").text
    op.step("assinaturas com atraso")


# Every message the subscription's panel says, in order (the panel is drawn again at each step, and
# the "being charged again" one may give way to the card's answer within a poll).
WATCH_MESSAGES_JS = """
window.__mensagens = [];
const note = () => {
  for (const el of document.querySelectorAll('.subscription__message')) {
    const t = el.textContent.replace(/\\s+/g, ' ').trim();
    if (window.__mensagens.at(-1) !== t) window.__mensagens.push(t);
  }
};
new MutationObserver(note).observe(document.getElementById('view'), {childList: true, subtree: true, characterData: true});
"""


def test_a_declined_card_is_updated_and_the_cycle_charged_again_at_once(browser, server):
    admin = token(server, server.admin)
    plano = api(server, "POST", "/api/admin/planos", {
        "nome": f"Cartão Teste {uuid.uuid4().hex[:4]}", "periodicidade": "mensal", "valorCentavos": 15000, "horasMinutos": 180,
    }, admin)
    card_css = f"li[data-plano='{plano['planoId']}']"
    email, senha, membro = member(server, "Bruna Reis")
    membro_id = session(server, (email, senha))["usuario"]["id"]

    # ---- subscribed by a card the issuer declines ---------------------------------------------------
    ui = browser()
    open_signed_in(ui, server, (email, senha), "/plano")
    ui.wait_heading("Meu plano")
    ui.wait_text(plano["nome"], card_css)
    ui.click("Escolher este plano", card_css)
    form = ui.driver.find_element(By.CSS_SELECTOR, "form.subscribe")
    check(ui, "Cartão de crédito", form)
    ui.fill("Token do cartão (sandbox: tok_visa)", "tok_sandbox_recusado", form)
    ui.click("Assinar", form)
    ui.wait_text("Assinatura feita!", ".subscription")
    ui.wait_text("A cobrança do ciclo 1 foi recusada.", ".subscription__message")
    alerta = text(ui, ".subscription__dunning")
    assert "Pagamento não recebido." in alerta and "Ciclo 1: 1 tentativa desde" in alerta, alerta
    assert "Para não esperar, atualize o cartão: o ciclo 1 é cobrado de novo na hora." in alerta, alerta
    assert "Forma de pagamento\nCartão de crédito" in text(ui, ".subscription"), text(ui, ".subscription")
    # in dunning, the notice has the action (not the row of actions too)
    assert not ui.driver.find_elements(By.XPATH, "//*[contains(@class,'subscription__actions')]//button[normalize-space()='Trocar forma de pagamento']")
    ui.step("cartao recusado")

    # ---- "Atualizar cartão": a card without its token is told next to the field ------------------------------
    ui.click("Atualizar cartão", ".subscription__dunning")
    forma = ui.wait(lambda d: d.find_element(By.CSS_SELECTOR, "form.subscription__billing-form"))
    assert "Hoje: Cartão de crédito." in forma.text and "O ciclo 1, que ficou sem pagamento, é cobrado de novo na hora" in forma.text, forma.text
    campo = ui.control("Token do novo cartão (sandbox: tok_visa)", forma)
    assert ui.driver.switch_to.active_element == campo, "the new card's field does not take the focus"
    assert forma.find_element(By.CSS_SELECTOR, "input[name=metodo][value=cartao]").is_selected()
    assert ui.button("Atualizar cartão", ".subscription__dunning").get_attribute("aria-expanded") == "true"
    ui.click("Salvar e cobrar de novo", forma)
    slot = forma.find_element(By.CSS_SELECTOR, "[data-field=cartaoToken]")
    ui.wait(lambda d: "Informe o token do novo cartão" in slot.text, "no error next to the new card's token")
    assert campo.get_attribute("aria-invalid") == "true"
    assert api(server, "GET", "/api/assinatura", token=membro)["inadimplencia"]["tentativas"] == 1
    # another method hides the card's field
    check(ui, "Boleto", forma)
    assert not slot.is_displayed(), "a boleto asks for a card's token"
    check(ui, "Cartão de crédito", forma)
    ui.step("novo cartao sem token")

    # ---- another declined card: a second attempt, at once, declined too ------------------------------------
    ui.fill("Token do novo cartão (sandbox: tok_visa)", "tok_sandbox_sem_saldo", forma)
    ui.driver.execute_script(WATCH_MESSAGES_JS)
    ui.click("Salvar e cobrar de novo", forma)
    ui.wait_text("O novo cartão também foi recusado: o ciclo 1 continua sem pagamento.", ".subscription__message")
    mensagens = ui.driver.execute_script("return window.__mensagens")
    assert any("O ciclo 1 está sendo cobrado de novo, agora no novo cartão" in m for m in mensagens), mensagens
    a = api(server, "GET", "/api/assinatura", token=membro)
    assert a["status"] == "ativa" and a["inadimplencia"]["tentativas"] == 2 and a["cobrancas"][0]["tentativa"] == 2, a
    ui.wait_text("Ciclo 1: 2 tentativas desde", ".subscription__dunning")
    assert "Tentativa\n2" in text(ui, ".subscription__charge"), text(ui, ".subscription__charge")
    ui.step("novo cartao tambem recusado")

    # ---- the operator sees the same action on the member's subscription ------------------------------------
    op = browser()
    open_signed_in(op, server, server.admin, f"/admin/assinaturas/{membro_id}")
    op.wait_heading("Assinatura de Bruna Reis")
    op.wait_text("Ciclo 1: 2 tentativas desde", ".subscription__dunning")
    assert op.button("Atualizar cartão", ".subscription__dunning")
    op.step("operador ve o cartao recusado")

    # ---- on a phone, a good card: the cycle is charged again at once and paid ---------------------------------
    phone = browser(size=(390, 844), mobile=True)
    open_signed_in(phone, server, (email, senha), "/plano")
    phone.wait_heading("Meu plano")
    phone.wait_text("Pagamento não recebido.", ".subscription__dunning")
    phone.scroll(phone.driver.find_element(By.CSS_SELECTOR, ".subscription__dunning"))
    phone.step("cartao recusado 390x844")
    phone.click("Atualizar cartão", ".subscription__dunning")
    forma = phone.wait(lambda d: d.find_element(By.CSS_SELECTOR, "form.subscription__billing-form"))
    phone.fill("Token do novo cartão (sandbox: tok_visa)", "tok_visa", forma)
    phone.scroll(forma)
    phone.step("atualizar cartao 390x844")
    phone.driver.execute_script(WATCH_MESSAGES_JS)
    phone.click("Salvar e cobrar de novo", forma)
    phone.wait_text("Pagamento do ciclo 1 confirmado no novo cartão. A assinatura está em dia.", ".subscription__message")
    mensagens = phone.driver.execute_script("return window.__mensagens")
    assert any("O ciclo 1 está sendo cobrado de novo" in m for m in mensagens), mensagens
    a = api(server, "GET", "/api/assinatura", token=membro)
    assert a["status"] == "ativa" and a["cicloAtual"]["pago"] is True and "inadimplencia" not in a, a
    assert a["metodo"] == "cartao" and a["cobrancas"][0]["tentativa"] == 3, a
    assert not phone.driver.find_elements(By.CSS_SELECTOR, ".subscription__dunning, .subscription__charge")
    assert "Ativa" in text(phone, ".subscription") and "Pago" in text(phone, ".subscription__cycle")
    phone.scroll(phone.driver.find_element(By.CSS_SELECTOR, ".subscription__message"))
    phone.step("ciclo pago com o novo cartao 390x844")

    # ---- back on the desktop: paid, and the method can be changed for the cycles to come --------------------------
    ui.open("/plano")
    ui.wait_heading("Meu plano")
    ui.wait_text("Ciclo atual")
    assert "Pago" in text(ui, ".subscription__cycle") and not ui.driver.find_elements(By.CSS_SELECTOR, ".subscription__dunning")
    ui.click("Trocar forma de pagamento", ".subscription__actions")
    forma = ui.wait(lambda d: d.find_element(By.CSS_SELECTOR, "form.subscription__billing-form"))
    assert "A nova forma vale para as próximas cobranças, a partir de" in forma.text, forma.text
    check(ui, "PIX Automático", forma)
    ui.step("trocar forma de pagamento")
    ui.click("Salvar forma de pagamento", forma)
    ui.wait_text("Forma de pagamento atualizada: PIX Automático.", ".subscription__message")
    assert "Forma de pagamento\nPIX Automático" in text(ui, ".subscription")
    assert eventually(lambda: api(server, "GET", "/api/assinatura", token=membro)["metodo"] == "pix_automatico", "the new method")
    ui.step("forma de pagamento trocada")
