"""Bundles of credits sold without a plan ("pacotes", two of them from `--seed-demo`: "10 horas de
sala de reunião" and "Passe diário"). A new member without credits follows "Comprar créditos
avulsos" from "Meus créditos" to "Pacotes de créditos" (each bundle in words: what it gives, for
which space type, where, for how long, the price), buys the 10 hours with PIX (the default), sees
the QR code and the copia e cola the API answered, pays it in the sandbox's test bank and is told
by itself which credits were added and until when; the 10 h are in "Meus créditos" (a lot
"Pacote …"), the invoice "Pacote …" in "Minhas faturas" and its receipt says what it was for; on
a phone a day pass bought by boleto shows its digitable line and waits in "Minhas compras". A card
is refused without its token next to the field; the sandbox's declining token is said with the
provider's reason, and "Tentar de novo" buys it with a good card; a PIX past its time
(`expiraEm` moved back in the list's real answer) reads "Expirada" and offers no way to pay. An
operator reaches "Pacotes" from the tabs of Planos, is told next to the field that a validity of
800 days is too long and that a name on sale is taken (the API's 409), creates a bundle in R$ for
two space types and a day pass with the preset in one unit (hours and R$ converted to what the
API counts), and archives the first (confirmed in a dialog): it leaves the member's page. On a
member's page an operator refunds a paid bundle: the form says what is left and what goes back by
default, refuses a missing reason and more than was paid next to the fields, then refunds; the
row reads "Reembolsada" with what went back, the wallet is empty, and the member's purchases say
so on a phone. Desktop and phone."""

from __future__ import annotations

import json
import uuid
from datetime import datetime, timedelta, timezone

from selenium.webdriver.common.by import By

from journeys import api, eventually, member, open_signed_in, token
from test_plans import SP, brl, check, text

DEZ_HORAS = "10 horas de sala de reunião"
PASSE = "Passe diário"


def pacote(server, nome: str) -> dict:
    return next(p for p in api(server, "GET", "/api/pacotes")["itens"] if p["nome"] == nome)


def quando(iso: str) -> str:
    """An instant as the app writes it in São Paulo: "25/01/2027, 21:43"."""
    return datetime.fromisoformat(iso.replace("Z", "+00:00")).astimezone(SP).strftime("%d/%m/%Y, %H:%M")


def ultima_compra(server, member_token: str) -> dict:
    return api(server, "GET", "/api/pacotes/compras", token=member_token)["itens"][0]


def test_a_member_buys_ten_hours_by_pix_pays_in_the_sandbox_and_sees_credits_and_invoice(browser, server):
    email, senha, membro = member(server, "Bruna Pacheco")
    horas = pacote(server, DEZ_HORAS)
    passe = pacote(server, PASSE)

    # ---- from "Meus créditos" (nothing yet) to the bundles on sale ----------------------------------------
    ui = browser()
    open_signed_in(ui, server, (email, senha), "/creditos")
    ui.wait_heading("Meus créditos")
    vazio = ui.wait_text("Você ainda não tem créditos para usar.", ".credit-empty")
    assert vazio.find_element(By.LINK_TEXT, "pacote de horas").get_attribute("href").endswith("/pacotes")
    assert [a.text for a in ui.driver.find_elements(By.CSS_SELECTOR, "#menu a[href='/pacotes']")] == ["Pacotes"], "no Pacotes in the member's menu"
    ui.click_link("Comprar créditos avulsos", "#view")
    ui.wait_heading("Pacotes de créditos")
    card = f"li[data-pacote='{horas['pacoteId']}']"
    ui.wait_text(DEZ_HORAS, card)
    cartao = text(ui, card)
    for parte in ("10 h de sala de reunião", brl(45000), "Sala de reunião", "Em qualquer unidade", "Válido por 60 dias após o pagamento"):
        assert parte in cartao, (parte, cartao)
    dia = text(ui, f"li[data-pacote='{passe['pacoteId']}']")
    for parte in ("12 h de estação compartilhada", brl(6000), "Válido por 1 dia (24 horas) após o pagamento"):
        assert parte in dia, (parte, dia)
    ui.wait_text("Nenhuma compra ainda", ".bundle-history")
    ui.step("pacotes a venda")

    # ---- "Comprar": PIX is the default, no card token asked ---------------------------------------------------
    ui.click("Comprar", card)
    painel = ui.wait_text(f"Comprar: {DEZ_HORAS}", ".bundle-buy")
    assert "Você paga R$ 450,00 uma vez e recebe 10 h de sala de reunião, em qualquer unidade." in painel.text.replace("\xa0", " "), painel.text
    pix = painel.find_element(By.CSS_SELECTOR, "input[name=metodo][value=pix]")
    assert pix.is_selected(), "PIX is not the default"
    assert not painel.find_element(By.CSS_SELECTOR, "[data-field=cartaoToken]").is_displayed(), "a PIX asks for a card's token"
    ui.step("comprar pacote")
    ui.click(f"Comprar por {brl(45000)}", ".bundle-buy")

    # the charge arrives by itself: the QR code and the code the API answered
    ui.wait_text("PIX copia e cola", ".bundle-buy")
    compra = ultima_compra(server, membro)
    assert compra["pacote"]["nome"] == DEZ_HORAS and compra["metodo"] == "pix" and compra["status"] == "pendente", compra
    assert ui.control("PIX copia e cola").get_attribute("value") == compra["cobranca"]["pix"]["copiaECola"]
    assert ui.driver.find_elements(By.CSS_SELECTOR, ".bundle-buy svg.qr title"), "no QR code"
    assert f"Pague até {quando(compra['expiraEm'])}" in text(ui, ".bundle-buy")
    linha = ui.row(DEZ_HORAS, ".bundle-history tbody tr")
    assert "Aguardando pagamento" in linha.text and "Ver como pagar" in linha.text, linha.text
    ui.scroll(ui.driver.find_element(By.CSS_SELECTOR, ".bundle-buy .pix"))
    ui.step("pix do pacote")

    # ---- paid in the test bank: the credits and until when, by itself --------------------------------------------
    ui.click("Pagar no sandbox", ".bundle-buy")
    ui.wait_text("Pagamento confirmado!", ".bundle-buy")
    compra = eventually(lambda: (c := ultima_compra(server, membro))["status"] == "paga" and c, "the purchase paid")
    ui.wait_text(f"Créditos adicionados: 10 h de sala de reunião, válidos até {quando(compra['validoAte'])}.", ".bundle-buy")
    assert not ui.driver.find_elements(By.CSS_SELECTOR, ".bundle-buy .pix, .bundle-buy .panel--sandbox"), "the charge is still offered"
    ui.wait(lambda d: "Paga" in ui.row(DEZ_HORAS, ".bundle-history tbody tr").text, "the list did not follow")
    linha = ui.row(DEZ_HORAS, ".bundle-history tbody tr")
    assert quando(compra["validoAte"]) in linha.text and "Ver como pagar" not in linha.text, linha.text
    ui.step("pacote pago")

    # ---- the credits in "Meus créditos" --------------------------------------------------------------------
    ui.click_link("Ver em Meus créditos", ".bundle-buy")
    ui.wait_heading("Meus créditos")
    ui.wait_text("10 h", ".credit-balance [data-medida=minutos]")
    lote = ui.wait_text(f"Pacote {DEZ_HORAS}", ".credit-lot")
    for parte in ("Restam 10 h", "Sala de reunião", "Pacote de créditos"):
        assert parte in lote.text, (parte, lote.text)
    ui.step("creditos do pacote")

    # ---- the invoice and its receipt ----------------------------------------------------------------------------
    eventually(lambda: any((f.get("pacote") or {}).get("compraId") == compra["compraId"]
                           for f in api(server, "GET", "/api/faturas", token=membro)["itens"]), "the invoice")
    ui.menu("Minhas faturas")
    ui.wait_heading("Minhas faturas")
    fatura = ui.row(f"Pacote {DEZ_HORAS}")
    assert brl(45000) in fatura.text.replace("\xa0", " ") and "Paga" in fatura.text, fatura.text
    ui.step("fatura do pacote")
    ui.press(fatura.find_element(By.CSS_SELECTOR, "a[href$='/recibo']"))
    ui.wait_heading("Recibo da fatura")
    ui.wait_text(f"Pacote {DEZ_HORAS}", ".receipt__lines")
    recibo = text(ui, ".receipt")
    assert "Referente a" in recibo and "10 h em créditos, válidos por 60 dias a partir do pagamento" in recibo, recibo
    assert "Espaço" not in recibo and "Quando" not in recibo, recibo
    # the member's menu (with "Pacotes") keeps to one row at 1280 px, a scrollbar and a bold link included
    tops = ui.driver.execute_script(
        "return [...document.querySelectorAll('.site-header a, .site-header button')].filter((el) => el.offsetParent !== null)"
        ".map((el) => Math.round(el.getBoundingClientRect().top + el.getBoundingClientRect().height / 2));")
    assert max(tops) - min(tops) <= 4, f"the member's menu takes more than one row: {tops}"
    ui.step("recibo do pacote")

    # ---- the operator's invoices: the type and what the bundle gave ----------------------------------------------
    f = next(f for f in api(server, "GET", "/api/faturas", token=membro)["itens"] if (f.get("pacote") or {}).get("compraId") == compra["compraId"])
    op = browser()
    open_signed_in(op, server, server.admin, f"/admin/financeiro/faturas?unidade={f['unidadeId']}&de={f['data']}&ate={f['data']}")
    op.wait_heading("Financeiro")
    assert "Pacotes de créditos" in op.row(f["codigo"], f"tr[data-fatura='{f['id']}']").text
    op.open(f"/admin/financeiro/faturas/{f['id']}")
    op.wait_heading(f"Fatura {f['codigo']}")
    dados = text(op, "#view .panel")
    assert "Pacote" in dados and DEZ_HORAS in dados and "10 h em créditos, válido por 60 dias após o pagamento" in dados, dados
    op.step("fatura do pacote pela operacao")

    # ---- on a phone: the page, and a day pass by boleto waiting to be paid ------------------------------------------
    phone = browser(size=(390, 844), mobile=True)
    open_signed_in(phone, server, (email, senha), "/pacotes")
    phone.wait_heading("Pacotes de créditos")
    phone.wait_text(DEZ_HORAS, ".bundle-history tbody")
    phone.step("pacotes 390x844")
    phone.click("Comprar", f"li[data-pacote='{passe['pacoteId']}']")
    check(phone, "Boleto", phone.driver.find_element(By.CSS_SELECTOR, ".bundle-buy form"))
    phone.scroll(phone.driver.find_element(By.CSS_SELECTOR, ".bundle-buy"))
    phone.step("comprar passe 390x844")
    phone.click(f"Comprar por {brl(6000)}", ".bundle-buy")
    phone.wait_text("Linha digitável", ".bundle-buy")
    boleto = ultima_compra(server, membro)
    assert boleto["metodo"] == "boleto" and boleto["pacote"]["nome"] == PASSE, boleto
    digitos = "".join(ch for ch in text(phone, ".bundle-buy .linha-digitavel") if ch.isdigit())
    assert digitos == boleto["cobranca"]["boleto"]["linhaDigitavel"], digitos
    phone.scroll(phone.driver.find_element(By.CSS_SELECTOR, ".bundle-buy .boleto"))
    phone.step("boleto do passe 390x844")
    phone.wait(lambda d: "Aguardando pagamento" in phone.row(PASSE, ".bundle-history tbody tr").text, "the list did not show the boleto")
    phone.scroll(phone.row(PASSE, ".bundle-history tbody tr"))
    phone.step("minhas compras 390x844")


# The list's real answer, with one purchase's PIX expired (a PIX lasts a day in `serve`).
EXPIRED = """
const compraId = %s;
const original = window.fetch;
window.fetch = async (input, init) => {
  const response = await original(input, init);
  const url = typeof input === 'string' ? input : input.url;
  if (!/\\/api\\/pacotes\\/compras(\\?|$)/.test(url) || !response.ok) return response;
  const page = await response.json();
  for (const c of page.itens) if (c.compraId === compraId) c.expiraEm = new Date(Date.now() - 3600 * 1000).toISOString();
  return new Response(JSON.stringify(page), {status: 200, headers: {'Content-Type': 'application/json'}});
};
"""


def test_a_declined_card_is_said_with_its_reason_and_tried_again_and_an_expired_pix_reads_expirada(browser, server):
    email, senha, membro = member(server, "Diego Salles")
    passe = pacote(server, PASSE)
    # a PIX bought earlier, whose time to pay ran out
    antiga = api(server, "POST", f"/api/pacotes/{pacote(server, DEZ_HORAS)['pacoteId']}/compras", {"metodo": "pix"}, membro)

    ui = browser()
    ui.driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": EXPIRED % json.dumps(antiga["compraId"])})
    open_signed_in(ui, server, (email, senha), "/espacos")
    ui.menu("Pacotes")
    ui.wait_heading("Pacotes de créditos")
    expirada = ui.row(DEZ_HORAS, ".bundle-history tbody tr")
    assert "Expirada" in expirada.text and "Prazo para pagar encerrado em" in expirada.text, expirada.text
    assert "Ver como pagar" not in expirada.text and "Aguardando pagamento" not in expirada.text, expirada.text
    ui.scroll(expirada)
    ui.step("pix expirado")

    # a card needs its token
    card = f"li[data-pacote='{passe['pacoteId']}']"
    ui.click("Comprar", card)
    form = ui.driver.find_element(By.CSS_SELECTOR, ".bundle-buy form")
    check(ui, "Cartão de crédito", form)
    ui.click(f"Comprar por {brl(6000)}", ".bundle-buy")
    ui.wait(lambda d: "Informe o token do cartão" in form.find_element(By.CSS_SELECTOR, "[data-field=cartaoToken]").text, "no error next to the token")
    assert ui.control("Token do cartão (sandbox: tok_visa)", form).get_attribute("aria-invalid") == "true"
    assert len(api(server, "GET", "/api/pacotes/compras", token=membro)["itens"]) == 1, "a purchase without a token was made"
    ui.step("cartao sem token")

    # the sandbox's declining card: the provider's reason, nothing charged
    ui.fill("Token do cartão (sandbox: tok_visa)", "tok_sandbox_recusado", form)
    ui.click(f"Comprar por {brl(6000)}", ".bundle-buy")
    ui.wait_text("Pagamento recusado.", ".bundle-buy")
    recusada = eventually(lambda: (c := ultima_compra(server, membro))["status"] == "recusada" and c, "the purchase declined")
    assert recusada["motivo"], recusada
    ui.wait_text(f"Motivo informado pelo banco: {recusada['motivo']}. Nada foi cobrado.", ".bundle-buy")
    ui.wait(lambda d: "Recusada" in ui.row(PASSE, ".bundle-history tbody tr").text, "the list did not follow")
    assert f"Motivo: {recusada['motivo']}" in ui.row(PASSE, ".bundle-history tbody tr").text
    assert api(server, "GET", "/api/creditos", token=membro)["minutos"] == 0
    ui.step("cartao recusado")

    # "Tentar de novo" with a card the issuer accepts
    ui.click("Tentar de novo", ".bundle-buy")
    form = ui.wait(lambda d: d.find_element(By.CSS_SELECTOR, ".bundle-buy form"))
    check(ui, "Cartão de crédito", form)
    ui.fill("Token do cartão (sandbox: tok_visa)", "tok_visa", form)
    ui.click(f"Comprar por {brl(6000)}", ".bundle-buy")
    ui.wait_text("Pagamento confirmado!", ".bundle-buy")
    paga = eventually(lambda: (c := ultima_compra(server, membro))["status"] == "paga" and c, "the purchase paid")
    ui.wait_text(f"Créditos adicionados: 12 h de estação compartilhada, válidos até {quando(paga['validoAte'])}.", ".bundle-buy")
    assert api(server, "GET", "/api/creditos", token=membro)["minutos"] == 720
    ui.step("cartao aceito")


def test_an_operator_creates_bundles_and_archives_one_which_leaves_the_members_page(browser, server):
    sufixo = uuid.uuid4().hex[:4]
    nome = f"Créditos avulsos {sufixo}"
    passe_nome = f"Passe {sufixo}"
    unidade = api(server, "GET", "/api/unidades")["itens"][0]
    email, senha, _ = member(server, "Lia Teixeira")

    ui = browser()
    open_signed_in(ui, server, server.admin, "/admin/planos")
    ui.wait_heading("Planos")
    ui.click_link("Pacotes", "#view .tabs")
    ui.wait_heading("Pacotes de créditos")
    assert ui.driver.find_element(By.CSS_SELECTOR, "#view .tabs [aria-current=page]").text == "Pacotes"
    ui.wait_text(DEZ_HORAS, ".table--pacotes")
    form = ui.driver.find_element(By.CSS_SELECTOR, "form.bundle-create")

    # R$ 80,00 of credits for meeting rooms and auditoriums, 800 days: too long, said next to the field
    ui.fill("Nome", DEZ_HORAS, form)
    check(ui, "Valor (R$)", form)
    ui.fill("Valor em créditos (R$)", "80", form)
    check(ui, "Sala de reunião", form)
    check(ui, "Auditório", form)
    ui.fill("Validade (dias)", "800", form)
    ui.fill("Preço (R$)", "120,00", form)
    ui.click("Criar pacote", form)
    ui.wait(lambda d: "A validade vai de 1 a 730 dias" in form.find_element(By.CSS_SELECTOR, "[data-field=validadeDias]").text, "no error next to the validity")
    assert ui.control("Validade (dias)", form).get_attribute("aria-invalid") == "true"
    ui.step("validade longa demais")

    # a name already on sale in the network: the API's 409, next to the name
    ui.fill("Validade (dias)", "45", form)
    ui.expect_http(409, "/api/admin/pacotes")
    ui.click("Criar pacote", form)
    ui.wait(lambda d: f'Já há um pacote à venda chamado "{DEZ_HORAS}" na rede' in form.find_element(By.CSS_SELECTOR, "[data-field=nome]").text,
            "no error next to the name")
    assert ui.control("Nome", form).get_attribute("aria-invalid") == "true"
    assert ui.control("Validade (dias)", form).get_attribute("aria-invalid") is None
    ui.step("nome em uso")

    ui.fill("Nome", nome, form)
    ui.wait_text(f"Como os membros veem: {brl(8000)} em créditos para sala de reunião e auditório", ".bundle-admin__preview")
    ui.click("Criar pacote", form)
    ui.wait_text(f"Pacote {nome} criado e à venda: {brl(8000)} em créditos para sala de reunião e auditório por {brl(12000)}.", ".plan-admin__result")
    criado = next(p for p in api(server, "GET", "/api/admin/pacotes", token=token(server, server.admin))["itens"] if p["nome"] == nome)
    assert (criado["medida"], criado["quantidade"], sorted(criado["tipos"]), criado["validadeDias"], criado["precoCentavos"]) == \
        ("centavos", 8000, ["auditorio", "sala_reuniao"], 45, 12000), criado
    assert not criado.get("unidadeId") and not criado["arquivado"], criado
    linha = ui.row(nome, ".table--pacotes tbody tr")
    assert "45 dias" in linha.text and "À venda" in linha.text and "Em qualquer unidade" in linha.text, linha.text

    # the day pass preset, in one unit: hours converted to minutes
    ui.click("Preencher como passe diário", form)
    assert ui.value("Validade (dias)") == "1" and ui.value("Quantidade de horas") == "12"
    marcados = [el.get_attribute("value") for el in form.find_elements(By.CSS_SELECTOR, "input[name=tipos]:checked")]
    assert marcados == ["estacao_compartilhada"], marcados
    ui.fill("Nome", passe_nome, form)
    ui.choose("Unidade", unidade["nome"], form)
    ui.fill("Quantidade de horas", "8,5", form)
    ui.fill("Preço (R$)", "55", form)
    ui.scroll(form)
    ui.step("passe diario preenchido")
    ui.click("Criar pacote", form)
    ui.wait_text(f"Pacote {passe_nome} criado e à venda: 8 h 30 min de estação compartilhada por {brl(5500)}.", ".plan-admin__result")
    passe = next(p for p in api(server, "GET", "/api/admin/pacotes", token=token(server, server.admin))["itens"] if p["nome"] == passe_nome)
    assert (passe["medida"], passe["quantidade"], passe["tipos"], passe["validadeDias"], passe["precoCentavos"], passe["unidadeId"]) == \
        ("minutos", 510, ["estacao_compartilhada"], 1, 5500, unidade["id"]), passe
    assert f"Só na unidade {unidade['nome']}" in ui.row(passe_nome, ".table--pacotes tbody tr").text
    ui.step("pacotes criados")

    # the member sees both on sale
    m = browser()
    open_signed_in(m, server, (email, senha), "/pacotes")
    m.wait_heading("Pacotes de créditos")
    novo = m.wait_text(nome, f"li[data-pacote='{criado['pacoteId']}']")
    assert f"{brl(8000)} em créditos para sala de reunião e auditório" in novo.text.replace("\xa0", " ") and "Válido por 45 dias" in novo.text, novo.text
    assert f"Só na unidade {unidade['nome']}" in text(m, f"li[data-pacote='{passe['pacoteId']}']")
    m.step("novos pacotes para o membro")

    # archived (confirmed in a dialog): off the member's page
    linha = ui.row(nome, ".table--pacotes tbody tr")
    ui.click("Arquivar", linha)
    dialog = ui.dialog()
    assert f"Arquivar o pacote {nome}?" in dialog.text and "Quem já comprou continua com os créditos" in dialog.text, dialog.text
    ui.step("confirmar arquivamento")
    ui.click("Arquivar", dialog)
    ui.wait_text(f"Pacote {nome} arquivado: saiu de venda.", ".plan-admin__result")
    ui.wait(lambda d: "Arquivado" in ui.row(nome, ".table--pacotes tbody tr").text, "the row is not archived")
    assert "Arquivar" not in ui.row(nome, ".table--pacotes tbody tr").text
    assert next(p for p in api(server, "GET", "/api/admin/pacotes", token=token(server, server.admin))["itens"] if p["nome"] == nome)["arquivado"]
    ui.step("pacote arquivado")

    m.open("/pacotes")
    m.wait_heading("Pacotes de créditos")
    m.wait_text(passe_nome, ".bundles")
    assert not m.driver.find_elements(By.CSS_SELECTOR, f"li[data-pacote='{criado['pacoteId']}']"), "the archived bundle is still on sale"
    assert nome not in text(m, ".bundles")
    m.step("arquivado saiu de venda")

    # the operator's page on a phone
    p = browser(size=(390, 844), mobile=True)
    open_signed_in(p, server, server.admin, "/admin/pacotes")
    p.wait_heading("Pacotes de créditos")
    p.wait_text(nome, ".table--pacotes")
    p.step("pacotes da operacao 390x844")
    p.scroll(p.driver.find_element(By.CSS_SELECTOR, "form.bundle-create"))
    p.step("novo pacote 390x844")


def test_an_operator_refunds_a_paid_bundle_from_the_members_page_and_the_member_sees_it(browser, server):
    email, senha, membro = member(server, "Renata Okada")
    conta = api(server, "GET", "/api/auth/me", token=membro)
    admin = token(server, server.admin)
    horas = pacote(server, DEZ_HORAS)
    comprada = api(server, "POST", f"/api/pacotes/{horas['pacoteId']}/compras", {"metodo": "cartao", "cartaoToken": "tok_visa"}, membro)
    eventually(lambda: api(server, "GET", "/api/creditos", token=membro)["minutos"] == 600, "the bundle's credits")

    ui = browser()
    open_signed_in(ui, server, server.admin, f"/admin/usuarios/{conta['id']}")
    ui.wait_heading(conta["nome"])
    linha = ui.row(DEZ_HORAS, ".table--compras tbody tr")
    assert "Paga" in linha.text and brl(45000) in linha.text.replace("\xa0", " ") and "Cartão de crédito" in linha.text, linha.text
    ui.scroll(linha)
    ui.step("compras do membro")

    # "Reembolsar": what is left and what goes back by default, before anything is done
    ui.click("Reembolsar", linha)
    painel = ui.wait_text(f"Reembolsar {DEZ_HORAS}", ".bundle-refund__panel")
    texto = painel.text.replace("\xa0", " ")
    assert "Restam 10 h de 10 h dos créditos desta compra" in texto and f"Em branco: {brl(45000)}" in texto, texto
    form = painel.find_element(By.CSS_SELECTOR, "form")
    # no reason, then more than was paid: said next to the field, nothing refunded
    ui.click("Reembolsar", form)
    ui.wait(lambda d: "Informe o motivo do reembolso" in form.find_element(By.CSS_SELECTOR, "[data-field=motivo]").text, "no error next to Motivo")
    ui.fill("Motivo", "Mudou de cidade", form)
    ui.fill("Valor a devolver", "500", form)
    ui.click("Reembolsar", form)
    ui.wait(lambda d: f"O máximo é o que foi pago: {brl(45000)}" in form.find_element(By.CSS_SELECTOR, "[data-field=valorCentavos]").text.replace("\xa0", " "),
            "no error next to the amount")
    assert api(server, "GET", f"/api/pacotes/compras/{comprada['compraId']}", token=membro)["status"] == "paga"
    ui.scroll(painel)
    ui.step("reembolso com valor demais")

    # in full, the default
    ui.fill("Valor a devolver", "", form)
    ui.click("Reembolsar", form)
    ui.wait_text(f"Compra reembolsada: {brl(45000)} devolvidos pelo mesmo meio de pagamento e 10 h de créditos retirados da carteira", ".bundle-refund")
    compra = api(server, "GET", f"/api/pacotes/compras/{comprada['compraId']}", token=membro)
    assert compra["status"] == "reembolsada" and compra["reembolso"]["valorCentavos"] == 45000 and compra["reembolso"]["motivo"] == "Mudou de cidade", compra
    ui.wait(lambda d: "Reembolsada" in ui.row(DEZ_HORAS, ".table--compras tbody tr").text, "the row did not follow")
    assert "Reembolsar" not in ui.row(DEZ_HORAS, ".table--compras tbody tr").text
    assert api(server, "GET", "/api/creditos", token=membro)["minutos"] == 0
    ui.wait_text("Nenhum crédito para usar.", ".credit-wallet")
    ui.scroll(ui.row(DEZ_HORAS, ".table--compras tbody tr"))
    ui.step("pacote reembolsado")
    assert api(server, "GET", f"/api/admin/usuarios/{conta['id']}/creditos", token=admin)["minutos"] == 0

    # the member, on a phone: the purchase says what went back, and that the provider paid it out
    eventually(lambda: api(server, "GET", f"/api/pacotes/compras/{comprada['compraId']}", token=membro)["reembolso"].get("concluidoEm"),
               "the provider's payout of the refund")
    phone = browser(size=(390, 844), mobile=True)
    open_signed_in(phone, server, (email, senha), "/pacotes")
    phone.wait_heading("Pacotes de créditos")
    cartao = phone.row(DEZ_HORAS, ".bundle-history tbody tr")
    assert "Reembolsada" in cartao.text and f"{brl(45000)} devolvidos pelo mesmo meio de pagamento" in cartao.text.replace("\xa0", " "), cartao.text
    assert "O provedor pagou a devolução em" in cartao.text, cartao.text
    phone.scroll(cartao)
    phone.step("compra reembolsada 390x844")

    # the operator's page on a phone: the purchase and what went back
    op = browser(size=(390, 844), mobile=True)
    open_signed_in(op, server, server.admin, f"/admin/usuarios/{conta['id']}")
    op.wait_heading(conta["nome"])
    linha = op.row(DEZ_HORAS, ".table--compras tbody tr")
    assert "Reembolsada" in linha.text and "Reembolsar" not in linha.text, linha.text
    op.scroll(linha)
    op.step("compras do membro 390x844")
