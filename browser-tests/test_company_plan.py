"""A company's plan: the admin creates a plan through the API (R$ 200,00 a month, 30 h of meeting room;
a first cycle is prorated to the month's end, and even one day of it must cover the member's 1 h, so
the test holds on a month's last day); a company (prepared through the API) has a manager and a
member. On "Minha empresa" the manager, whose company has no plan yet, chooses it for 2 seats (the
default: its 2 people), sees the total (R$ 400,00 a month, 60 h) and subscribes by boleto; the
plan's panel shows the seats and the current cycle with the value the API answered, awaiting
payment, and the cycle's boleto; the company's pool shows the hours the cycle granted. She sets the
member's monthly cap to 1 h (an amount the form cannot read is refused next to the field; the API
keeps 60 minutes) and the month's use table shows it. The member quotes 1 h of meeting room on its
page: the quote says the company's credits pay it all ("1 h da sua empresa", nothing to pay, no
method asked) and they book it; on a phone they see the plan's name and status, the pool's hours
left and "Você usou 1 h de 1 h este mês." (the API's /uso the oracle); the manager on a phone sees
it in the use table ("Limite atingido"), and the operator sees the plan on the company's page.
Desktop and phone."""

from __future__ import annotations

import uuid
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from selenium.webdriver.common.by import By

from journeys import api, eventually, go_to_day, member, open_signed_in, pick_slot, session, space_open_now, token
from test_companies import empresa_com
from test_plans import brl, check, horas, text


def test_a_manager_subscribes_the_company_caps_a_member_who_sees_the_pool(browser, server):
    admin = token(server, server.admin)
    sufixo = uuid.uuid4().hex[:4]
    nome_do_plano = f"Equipe {sufixo}"
    plano = api(server, "POST", "/api/admin/planos", {
        "nome": nome_do_plano, "periodicidade": "mensal", "valorCentavos": 20000, "horasMinutos": 1800, "tiposDasHoras": ["sala_reuniao"],
    }, admin)

    gestora = member(server, "Helena Gestora")
    membro = member(server, "Marcos Membro")
    gestora_token, membro_token = gestora[2], membro[2]
    eid = empresa_com(server, gestora, [membro], f"Trama {sufixo}", razao_social=f"Estúdio Trama {sufixo} Ltda")
    membro_id = session(server, membro[:2])["usuario"]["id"]
    assinatura_path = f"/api/empresas/{eid}/assinatura"

    # ---- the manager: no plan yet; she subscribes the company for 2 seats by boleto ----------------------
    g = browser()
    open_signed_in(g, server, gestora[:2], "/empresa")
    g.wait_heading("Minha empresa")
    g.wait_text("A empresa ainda não assina um plano.", ".company-plan")
    form = g.driver.find_element(By.CSS_SELECTOR, "form.company-plan__form")
    assert g.value("Assentos") == "2", "the seats do not default to the company's people"
    check(g, f"{nome_do_plano} — {brl(20000)} por mês por assento", form)
    g.wait_text(f"Total: {brl(40000)} por mês (2 assentos × {brl(20000)}), com 60 h de créditos por ciclo para a empresa.", ".company-plan__total")
    # one seat less, and back: the total follows
    g.fill("Assentos", "1", form)
    g.wait_text(f"Total: {brl(20000)} por mês (1 assento × {brl(20000)})", ".company-plan__total")
    g.fill("Assentos", "2", form)
    check(g, "Boleto", form)
    assert not form.find_element(By.CSS_SELECTOR, "[data-field=cartaoToken]").is_displayed(), "a boleto asks for a card's token"
    g.scroll(form)
    g.step("assinar para a empresa")

    g.click("Assinar para a empresa", form)
    g.wait_text("Assinatura feita para 2 assentos!", ".subscription__message")
    a = api(server, "GET", assinatura_path, token=gestora_token)
    assert a["assentos"] == 2 and a["metodo"] == "boleto" and a["plano"]["planoId"] == plano["planoId"], a
    assert a["termos"]["valorCentavos"] == 40000, a["termos"]
    ciclo = a["cicloAtual"]
    painel = text(g, ".subscription")
    for parte in ("Plano da empresa", nome_do_plano, "Ativa", "2 assentos", f"{brl(20000)} por assento", "Boleto"):
        assert parte in painel, (parte, painel)
    g.wait_text(brl(ciclo["valorCentavos"]), ".subscription__cycle")
    ciclo_texto = text(g, ".subscription__cycle")
    assert "Aguardando pagamento" in ciclo_texto and horas(ciclo["minutos"]) in ciclo_texto, ciclo_texto
    assert "Entram nos créditos da empresa" in ciclo_texto, ciclo_texto
    # the cycle's boleto, emitted in the background, shows by itself
    cobranca = g.wait_text("Linha digitável", ".subscription__charge")
    assert brl(ciclo["valorCentavos"]) in cobranca.text.replace("\xa0", " "), cobranca.text
    g.step("plano da empresa assinado")

    carteira = api(server, "GET", f"/api/empresas/{eid}/creditos", token=gestora_token)
    assert carteira["minutos"] == ciclo["minutos"] > 0, carteira
    g.wait_text(horas(carteira["minutos"]), ".company-plan__pool .credit-balance")
    lote = text(g, ".company-plan__pool .credit-lots")
    assert f"Restam {horas(carteira['minutos'])}" in lote, lote
    # the lot ends at midnight after the cycle's last day: it names that last day as the last it serves
    ate = ciclo["ate"]
    assert f"Válido até {ate[8:10]}/{ate[5:7]}/{ate[:4]}" in lote, (ate, lote)
    g.scroll(g.driver.find_element(By.CSS_SELECTOR, ".company-plan__pool"))
    g.step("creditos da empresa")

    # ---- a monthly cap of 1 h for the member -----------------------------------------------------------
    linha = g.row("Marcos Membro", ".company__people tbody tr")
    assert "Sem limite" in linha.text, linha.text
    g.click("Alterar limite", linha)
    limite = g.wait(lambda d: d.find_element(By.CSS_SELECTOR, "form.company__cap-form"))
    assert "Limite mensal de Marcos Membro" in limite.text
    g.fill("Horas por mês", "uma hora", limite)
    g.click("Salvar limite", limite)
    g.wait(lambda d: "Não entendi as horas" in limite.find_element(By.CSS_SELECTOR, "[data-field=minutosPorMes]").text, "no error next to the hours")
    g.step("limite com erro")
    g.fill("Horas por mês", "1", limite)
    g.click("Salvar limite", limite)
    g.wait_text("Limite de Marcos Membro: 1 h/mês.", ".company__message")
    integrantes = api(server, "GET", f"/api/empresas/{eid}", token=gestora_token)["integrantes"]
    assert next(i for i in integrantes if i["usuarioId"] == membro_id).get("limite") == {"minutosPorMes": 60}, integrantes
    assert "1 h/mês" in g.row("Marcos Membro", ".company__people tbody tr").text
    uso = g.row("Marcos Membro", ".company-plan__use tbody tr")
    g.wait(lambda d: "1 h/mês" in g.row("Marcos Membro", ".company-plan__use tbody tr").text, "the use table has not the new cap")
    uso = g.row("Marcos Membro", ".company-plan__use tbody tr")
    assert "0 h" in uso.text and brl(0) in uso.text.replace("\xa0", " "), uso.text
    assert "Sem limite" in g.row("Helena Gestora", ".company-plan__use tbody tr").text
    assert "Uso em " in text(g, ".company-plan__use h2")
    g.scroll(uso)
    g.step("uso do mes")

    # ---- the use of the months before: one back, and forward again to this one (the last there is) ----------
    def titulo_do_uso() -> str:
        return " ".join(el.text for el in g.driver.find_elements(By.CSS_SELECTOR, ".company-plan__use h2"))

    def proximo_mes():
        return next(b for b in g.driver.find_elements(By.CSS_SELECTOR, ".company-plan__use nav button") if "Próximo mês" in b.text)
    este_mes = text(g, ".company-plan__use h2")
    assert not proximo_mes().is_enabled(), "this month is the last there is"
    g.click("← Mês anterior", ".company-plan__use")
    g.wait(lambda d: titulo_do_uso() not in ("", este_mes) and titulo_do_uso().startswith("Uso em "), "the month before")
    assert g.driver.switch_to.active_element.text == text(g, ".company-plan__use h2"), "the new month's title takes the focus"
    assert "0 h" in g.row("Marcos Membro", ".company-plan__use tbody tr").text
    assert proximo_mes().is_enabled()
    g.step("uso do mes anterior")
    g.click("Próximo mês →", ".company-plan__use")
    g.wait(lambda d: titulo_do_uso() == este_mes, "back to this month")
    assert not proximo_mes().is_enabled()

    # ---- the member quotes and books 1 h of meeting room on its page: the pool pays it (they have no
    # credits of their own), so the quote says whose credits and asks for no payment method -------------
    _, sala = space_open_now(server, f"Sala Trama {sufixo}")
    inicio = (datetime.now(ZoneInfo("America/Sao_Paulo")) + timedelta(days=1)).replace(hour=10, minute=0, second=0, microsecond=0)
    cotacao = api(
        server, "POST", "/api/precos/cotacao", token=membro_token,
        body={"espacoId": sala, "inicio": inicio.isoformat(), "fim": (inicio + timedelta(hours=1)).isoformat()})
    assert cotacao["total"] == 0 and cotacao["creditos"]["daEmpresa"]["minutos"] == 60, cotacao
    q = browser()
    open_signed_in(q, server, membro[:2], f"/espacos/{sala}")
    q.wait_heading(f"Sala Trama {sufixo}")
    go_to_day(q, inicio.date())
    pick_slot(q, "10:00")
    pick_slot(q, "10:30")
    assert q.value("Fim") == "11:00 (1 h)"
    q.click("Ver preço")
    quote = q.wait_text("Composição do preço", ".quote").text.replace("\xa0", " ")
    preco = brl(cotacao["subtotal"])
    assert f"Pago com créditos\n− {preco} (1 h da sua empresa)" in quote, quote
    assert "Total\nR$ 0,00" in quote and "Nada a pagar. Os créditos cobrem esta reserva (1 h da sua empresa)" in quote, quote
    assert not q.driver.find_elements(By.CSS_SELECTOR, ".quote input[name=metodo]"), "a payment method was asked for"
    q.scroll(q.driver.find_element(By.CSS_SELECTOR, ".quote"))
    q.step("cotacao com creditos da empresa")
    q.click("Reservar com créditos", ".quote")
    q.wait_text("Reserva confirmada!", ".result")
    resultado = text(q, ".result")
    assert "Pago com créditos\n1 h da sua empresa" in resultado and "Confirmada" in resultado, resultado
    q.step("reserva com creditos da empresa")
    reserva = next(r for r in api(server, "GET", "/api/reservas", token=membro_token)["itens"] if r["espacoId"] == sala)
    assert reserva["creditos"]["minutos"] == 60 and reserva["total"] == 0 and reserva["status"] == "confirmada", reserva
    eu = api(server, "GET", f"/api/empresas/{eid}/uso", token=membro_token)["pessoas"]
    assert [p["usuarioId"] for p in eu] == [membro_id], eu  # a member reads only their own use
    eu = eu[0]
    # the hour counts in the month of the booking (tomorrow: next month's, on a month's last day)
    do_mes = api(server, "GET", f"/api/empresas/{eid}/uso?mes={inicio:%Y-%m}", token=membro_token)["pessoas"]
    assert [p["minutos"] for p in do_mes] == [60], do_mes
    carteira = api(server, "GET", f"/api/empresas/{eid}/creditos", token=membro_token)
    assert carteira["minutos"] == ciclo["minutos"] - 60, carteira

    # ---- the member, on a phone: the plan, the pool, their use against their cap ------------------------
    m = browser(size=(390, 844), mobile=True)
    open_signed_in(m, server, membro[:2], "/empresa")
    m.wait_heading("Minha empresa")
    m.wait_text(f"Você usou {horas(eu['minutos'])} de 1 h este mês.", ".company-plan")
    plano_membro = text(m, ".company-plan")
    for parte in (nome_do_plano, "Ativa", "2 assentos", horas(carteira["minutos"])):
        assert parte in plano_membro, (parte, plano_membro)
    assert not m.driver.find_elements(By.CSS_SELECTOR, "form.company-plan__form, .company__people"), "a member sees the manager's controls"
    m.scroll(m.driver.find_element(By.CSS_SELECTOR, ".company-plan"))
    m.step("plano da empresa membro 390x844")
    # "Meus dados" names the company, the member's role and cap
    m.open("/meus-dados")
    m.wait_heading("Meus dados")
    empresa_nos_dados = m.wait_text("Estúdio Trama", "section[aria-labelledby='resumo-empresa']").text
    for parte in (f"Trama {sufixo} (Estúdio Trama {sufixo} Ltda)", "Membro", "1 h dos créditos da empresa"):
        assert parte in empresa_nos_dados, (parte, empresa_nos_dados)
    m.scroll(m.driver.find_element(By.CSS_SELECTOR, "section[aria-labelledby='resumo-empresa']"))
    m.step("empresa nos meus dados 390x844")

    # ---- the manager on a phone ----------------------------------------------------------------------
    p = browser(size=(390, 844), mobile=True)
    open_signed_in(p, server, gestora[:2], "/empresa")
    p.wait_heading("Minha empresa")
    p.wait_text(brl(ciclo["valorCentavos"]), ".subscription__cycle")
    p.scroll(p.driver.find_element(By.CSS_SELECTOR, ".subscription"))
    p.step("plano da empresa 390x844")
    p.scroll(p.driver.find_element(By.CSS_SELECTOR, ".subscription__charge"))
    p.step("boleto da empresa 390x844")
    p.scroll(p.driver.find_element(By.CSS_SELECTOR, ".company-plan__pool"))
    p.step("creditos da empresa 390x844")
    p.wait(lambda d: "1 h/mês" in p.row("Marcos Membro", ".company-plan__use tbody tr").text, "no cap in the use table")
    usado = p.row("Marcos Membro", ".company-plan__use tbody tr").text
    assert horas(eu["minutos"]) in usado, usado
    if eu["minutos"] >= 60:
        assert "Limite atingido" in usado, usado
    p.scroll(p.driver.find_element(By.CSS_SELECTOR, ".company-plan__use"))
    p.step("uso do mes 390x844")
    linha = p.row("Marcos Membro", ".company__people tbody tr")
    p.click("Alterar limite", linha)
    limite = p.wait(lambda d: d.find_element(By.CSS_SELECTOR, "form.company__cap-form"))
    assert p.value("Horas por mês") == "1"
    p.scroll(limite)
    p.step("alterar limite 390x844")
    p.click("Voltar", limite)

    # ---- the operator, on the company's page ----------------------------------------------------------
    o = browser()
    open_signed_in(o, server, server.admin, f"/admin/empresas/{eid}")
    o.wait_heading(f"Trama {sufixo}")
    o.wait_text(nome_do_plano, ".subscription")
    assert "2 assentos" in text(o, ".subscription")
    o.wait_text("1 h/mês", ".company-plan__use")
    o.step("plano da empresa pela operacao")


def test_a_manager_finds_the_companys_invoices_and_prints_a_receipt_with_the_use_by_person(browser, server):
    """A company's plan paid by card (through the API): on "Minha empresa" the manager finds
    "Faturas da empresa" with the cycle's invoice, paid, and its receipt names the company and its
    CNPJ and lists the member's use of the pool; "← Minha empresa" goes back. The operator sees the
    list on the company's page, each number opening the invoice in Financeiro. A member of the
    company does not see the company's invoices. Desktop and phone."""
    admin = token(server, server.admin)
    sufixo = uuid.uuid4().hex[:4]
    plano = api(server, "POST", "/api/admin/planos", {
        "nome": f"Equipe Faturas {sufixo}", "periodicidade": "mensal", "valorCentavos": 20000, "horasMinutos": 1800,
        "tiposDasHoras": ["sala_reuniao"]}, admin)
    gestora = member(server, "Olga Gestora")
    membro = member(server, "Paulo Membro")
    razao = f"Ateliê Faturas {sufixo} Ltda"
    eid = empresa_com(server, gestora, [membro], f"Ateliê {sufixo}", razao_social=razao)
    api(server, "POST", f"/api/empresas/{eid}/assinatura",
        {"planoId": plano["planoId"], "metodo": "cartao", "cartaoToken": "tok_visa", "assentos": 2}, gestora[2])
    fatura = eventually(lambda: (api(server, "GET", f"/api/empresas/{eid}/faturas", token=gestora[2])["itens"] or [None])[0],
                        "the cycle's invoice")
    # an hour the pool pays (the receipt lists it when it falls in the cycle's months: not in a
    # month's last hours, when the hour is next month's)
    _, sala = space_open_now(server, f"Sala Ateliê {sufixo}")
    inicio = (datetime.now(ZoneInfo("America/Sao_Paulo")) + timedelta(hours=2)).replace(minute=0, second=0, microsecond=0)
    no_ciclo = f"{inicio:%Y-%m}" == fatura["assinatura"]["inicio"][:7]
    reserva = api(server, "POST", "/api/reservas", {
        "espacoId": sala, "inicio": inicio.isoformat(), "fim": (inicio + timedelta(hours=1)).isoformat()}, membro[2])
    assert reserva["creditos"]["daEmpresa"]["minutos"] == 60, reserva

    for size, mobile, nome in (((1280, 800), False, "1280x800"), ((390, 844), True, "390x844")):
        g = browser(size=size, mobile=mobile)
        open_signed_in(g, server, gestora[:2], "/empresa")
        g.wait_heading("Minha empresa")
        secao = g.wait_text(fatura["codigo"], ".company__invoices")
        linha = g.row(fatura["codigo"], ".company__invoices tbody tr")
        assert "Paga" in linha.text and brl(fatura["valor"]) in linha.text.replace("\xa0", " "), linha.text
        assert f"Plano Equipe Faturas {sufixo}" in linha.text, linha.text
        g.scroll(secao)
        g.step(f"faturas da empresa {nome}")
        g.press(linha.find_element(By.PARTIAL_LINK_TEXT, "Recibo"))
        g.wait_heading(f"Recibo da fatura {fatura['codigo']}")
        g.wait_url(f"/empresa/faturas/{fatura['id']}/recibo")
        recibo = g.wait_text("Uso dos créditos da empresa no ciclo", ".receipt").text
        assert f"Empresa\n{razao} (CNPJ " in recibo, recibo
        atual = g.driver.find_element(By.CSS_SELECTOR, "#menu a[aria-current=page]").get_attribute("textContent")
        assert atual == "Minha empresa", atual
        if no_ciclo:
            assert "Paulo Membro: 1 h" in recibo, recibo
        g.step(f"recibo da fatura da empresa {nome}")
        g.click_link("← Minha empresa")
        g.wait_heading("Minha empresa")

    # the operator, on the company's page: the same list, the number opening the invoice in Financeiro
    o = browser()
    open_signed_in(o, server, server.admin, f"/admin/empresas/{eid}")
    o.wait_heading(f"Ateliê {sufixo}")
    linha = o.row(fatura["codigo"], ".company__invoices tbody tr")
    assert "Paga" in linha.text and "Recibo" not in linha.text, linha.text
    assert "o número abre a fatura no Financeiro" in text(o, ".company__invoices")
    o.scroll(linha)
    o.step("faturas da empresa pela operacao")
    o.press(linha.find_element(By.LINK_TEXT, fatura["codigo"]))
    o.wait_heading(f"Fatura {fatura['codigo']}")
    # billed to the company (its page linked), and its receipt to print
    empresa = o.wait_text(f"Ateliê {sufixo} ({razao})", "#view .facts")
    assert "Empresa" in empresa.text and "Membro" not in empresa.text, empresa.text
    o.step("fatura da empresa pela operacao")
    o.click_link("Recibo para imprimir")
    o.wait_heading(f"Recibo da fatura {fatura['codigo']}")
    assert f"Empresa\n{razao} (CNPJ " in o.wait_text("Uso dos créditos da empresa no ciclo", ".receipt").text
    o.click_link("← Fatura")
    o.wait_heading(f"Fatura {fatura['codigo']}")
    o.click_link(f"Ateliê {sufixo} ({razao})")
    o.wait_heading(f"Ateliê {sufixo}")

    # a member of the company: no company invoices
    m = browser()
    open_signed_in(m, server, membro[:2], "/empresa")
    m.wait_heading("Minha empresa")
    m.wait_text("Plano da empresa", ".company-plan")
    assert not m.driver.find_elements(By.CSS_SELECTOR, ".company__invoices"), "a member sees the company's invoices"
