"""Company accounts: an operator registers a company under "Planos" → "Empresas" — a CNPJ whose
check digits are wrong is refused next to the field and nothing is created — with a new member,
found by e-mail, as its first manager. The manager opens "Minha empresa" (the registration, her
role; as the only manager she cannot leave yet), invites someone by e-mail and reads the link; the
invited member, signed out on a phone, opens the link, logs in, comes back to the invitation and
accepts it, and sees the company as a member. The manager sees them among the people, makes them
a manager and leaves the company (confirmed in a dialog). The new manager invites from the phone
(the link to copy) and revokes it; the used link now reads as invalid; a member of another company
is told to leave it first. The operator sees the company's people. Desktop and phone."""

from __future__ import annotations

import random
import uuid

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from journeys import api, member, open_signed_in, session, sign_in, token


def digito(valores: list[int]) -> int:
    """A CNPJ's check digit: weights 2…9 from the right, cycling; mod 11."""
    soma = sum(v * (2 + i % 8) for i, v in enumerate(reversed(valores)))
    resto = soma % 11
    return 0 if resto < 2 else 11 - resto


def cnpj_novo() -> tuple[str, str]:
    """A random numeric CNPJ, formatted: (valid, the same with its last check digit wrong)."""
    base = [random.randint(0, 9) for _ in range(12)]
    base[-1] = random.randint(1, 9)
    d1 = digito(base)
    d2 = digito(base + [d1])
    c = "".join(map(str, base + [d1, d2]))
    errado = c[:13] + str((d2 + 1) % 10)
    fmt = lambda s: f"{s[0:2]}.{s[2:5]}.{s[5:8]}/{s[8:12]}-{s[12:14]}"  # noqa: E731
    return fmt(c), fmt(errado)


def empresa_com(server, gestora: tuple[str, str, str], membros: list[tuple[str, str, str]], nome: str,
                razao_social: str | None = None) -> str:
    """A company made through the API, named `nome` (its legal name `razao_social`, "`nome` Ltda"
    by default): `gestora` (e-mail, password, token, as journeys.member returns) manages it and each
    of `membros` is invited and joins. Returns its id."""
    cnpj, _ = cnpj_novo()
    empresa = api(server, "POST", "/api/admin/empresas", {
        "razaoSocial": razao_social or f"{nome} Ltda", "nomeFantasia": nome, "cnpj": cnpj,
        "emailDeCobranca": f"contas.{uuid.uuid4().hex[:8]}@exemplo.com.br",
        "endereco": {"logradouro": "Rua Augusta", "numero": "500", "cidade": "São Paulo", "uf": "SP", "cep": "01305-000"},
        "gestorId": session(server, gestora[:2])["usuario"]["id"],
    }, token(server, server.admin))
    for email, _, member_token in membros:
        convite = api(server, "POST", f"/api/empresas/{empresa['empresaId']}/convites", {"email": email, "papel": "membro"}, gestora[2])
        api(server, "POST", f"/api/convites/{convite['link'].rsplit('/', 1)[-1]}/aceite", None, member_token)
    return empresa["empresaId"]


def text(ui, css: str) -> str:
    return ui.driver.find_element(By.CSS_SELECTOR, css).text.replace("\xa0", " ")


def sem_empresa(server, member_token: str) -> bool:
    """GET /api/empresa answers 204 (no body): the person is in no company."""
    return api(server, "GET", "/api/empresa", token=member_token) is None


def test_operator_registers_a_company_a_manager_invites_and_a_member_joins(browser, server):
    admin = token(server, server.admin)
    sufixo = uuid.uuid4().hex[:4]
    razao = f"Oficina de Ideias {sufixo} Ltda"
    fantasia = f"Oficina {sufixo}"
    cnpj, cnpj_errado = cnpj_novo()
    gestora = member(server, "Gabriela Gestora")
    gestora_email, gestora_senha, gestora_token = gestora

    # ---- the operator registers the company -------------------------------------------------------
    ui = browser()
    open_signed_in(ui, server, server.admin, "/admin/reservas")
    ui.menu("Planos")
    ui.wait_heading("Planos")
    ui.click_link("Empresas", "#view .tabs")
    ui.wait_heading("Empresas")
    assert ui.driver.find_element(By.CSS_SELECTOR, "#view .tabs [aria-current=page]").text == "Empresas"
    form = ui.driver.find_element(By.CSS_SELECTOR, "form.company-create")
    ui.fill("Razão social", razao, form)
    ui.fill("Nome fantasia", fantasia, form)
    ui.fill("CNPJ", cnpj_errado, form)
    ui.fill("E-mail de cobrança", f"financeiro.{sufixo}@oficina.com.br", form)
    ui.fill("Logradouro", "Avenida Paulista", form)
    ui.fill("Número", "1000", form)
    ui.fill("Complemento", "Conjunto 42", form)
    ui.fill("Bairro", "Bela Vista", form)
    ui.fill("Cidade", "São Paulo", form)
    ui.choose("UF", "SP", form)
    ui.fill("CEP", "01310-100", form)
    ui.fill("Buscar membro por e-mail", gestora_email, form)
    ui.click("Buscar", form)
    ui.wait_text("1 membro encontrado.", "form.company-create")
    assert Select(ui.control("Gestor(a)", form)).first_selected_option.text == f"Gabriela Gestora — {gestora_email}"
    ui.step("nova empresa preenchida")

    # a CNPJ whose check digits are wrong: said next to the field, nothing created
    ui.expect_http(422, "/api/admin/empresas")
    ui.click("Cadastrar empresa", form)
    campo = form.find_element(By.CSS_SELECTOR, "[data-field=cnpj]")
    ui.wait(lambda d: "CNPJ inválido" in campo.text, "no error next to the CNPJ")
    assert "dígitos verificadores" in campo.text, campo.text
    assert ui.control("CNPJ", form).get_attribute("aria-invalid") == "true"
    assert sem_empresa(server, gestora_token), "a company was created with an invalid CNPJ"
    assert all(e["razaoSocial"] != razao for e in api(server, "GET", "/api/admin/empresas", token=admin)["itens"])
    ui.step("cnpj invalido")

    ui.fill("CNPJ", cnpj, form)
    ui.click("Cadastrar empresa", form)
    ui.wait_text(f"Empresa {fantasia} cadastrada, com Gabriela Gestora como gestor(a).", ".company-admin__result")
    empresa = api(server, "GET", "/api/empresa", token=gestora_token)
    assert empresa["cnpj"] == cnpj and empresa["razaoSocial"] == razao and empresa["meuPapel"] == "gestor", empresa
    assert empresa["endereco"] == {"logradouro": "Avenida Paulista", "numero": "1000", "complemento": "Conjunto 42", "bairro": "Bela Vista",
                                   "cidade": "São Paulo", "uf": "SP", "cep": "01310-100"}, empresa["endereco"]
    row = ui.row(fantasia)
    assert cnpj in row.text and razao in row.text, row.text
    assert ui.value("Razão social") == "", "the form was not cleared"
    ui.step("empresa cadastrada")

    # ---- the manager: her company, and an invitation ---------------------------------------------------
    g = browser()
    g.driver.execute_cdp_cmd("Browser.grantPermissions", {
        "origin": server.url, "permissions": ["clipboardReadWrite", "clipboardSanitizedWrite"]})
    open_signed_in(g, server, (gestora_email, gestora_senha), "/espacos")
    g.menu("Minha empresa")
    g.wait_heading("Minha empresa")
    g.wait_text(fantasia, ".company")
    resumo = text(g, ".company")
    for parte in (razao, cnpj, f"financeiro.{sufixo}@oficina.com.br", "Avenida Paulista, 1000, Conjunto 42", "Bela Vista — São Paulo/SP",
                  "CEP 01310-100", "Gestor(a)"):
        assert parte in resumo, (parte, resumo)
    assert "Gabriela Gestora" in g.row("Gabriela Gestora", ".company__people tbody tr").text
    # the only manager cannot leave
    sair = text(g, ".company__leave")
    assert "Você é a única pessoa gestora" in sair, sair
    assert not g.driver.find_elements(By.XPATH, "//*[contains(@class,'company__leave')]//button")
    assert "Nenhum convite pendente." in text(g, ".company__invitations")
    g.step("minha empresa gestora")

    # the registration, edited (the CNPJ stays)
    g.click("Editar dados da empresa")
    edicao = g.wait(lambda d: d.find_element(By.CSS_SELECTOR, "form.company__edit"))
    assert g.control("CNPJ", edicao).get_attribute("readonly") is not None
    g.fill("E-mail de cobrança", f"contas.{sufixo}@oficina.com.br", edicao)
    g.fill("CEP", "0131", edicao)
    g.click("Salvar dados", edicao)
    g.wait(lambda d: "Use os 8 números do CEP" in edicao.find_element(By.CSS_SELECTOR, "[data-field=cep]").text, "no error next to the CEP")
    g.step("editar dados")
    g.fill("CEP", "01310-200", edicao)
    g.click("Salvar dados", edicao)
    g.wait_text("Dados da empresa salvos.", ".company__message")
    resumo = text(g, ".company")
    assert f"contas.{sufixo}@oficina.com.br" in resumo and "CEP 01310-200" in resumo, resumo
    assert api(server, "GET", "/api/empresa", token=gestora_token)["emailDeCobranca"] == f"contas.{sufixo}@oficina.com.br"

    convidado_email, convidado_senha, convidado_token = member(server, "Caio Convidado")
    convite = g.driver.find_element(By.CSS_SELECTOR, "form.company__invite-form")
    g.fill("E-mail", convidado_email, convite)
    g.click("Enviar convite", convite)
    g.wait_text(f"Convite enviado por e-mail para {convidado_email}", ".company__link")
    link = g.control("Link do convite").get_attribute("value")
    assert link.startswith(f"{server.url}/convite/"), link
    assert "company__link" in g.driver.switch_to.active_element.get_attribute("class"), "the invitation's link was not focused"
    g.click("Copiar link")
    g.wait_text("Link copiado.", ".company__link")
    assert g.driver.execute_async_script("navigator.clipboard.readText().then(arguments[0], () => arguments[0](null))") == link
    g.step("convite criado")
    pendente = g.row(convidado_email, ".company__invitations tbody tr")
    assert "Membro" in pendente.text and "até" in pendente.text, pendente.text
    g.scroll(pendente)
    g.step("convites pendentes")

    # ---- the invited member, signed out on a phone, opens the link ------------------------------------
    c = browser(size=(390, 844), mobile=True)
    c.driver.get(link)
    c.wait_heading("Entrar")
    sign_in(c, convidado_email, convidado_senha, expect_heading="Convite para uma empresa")
    c.wait_text(f"{fantasia} convidou você para fazer parte dela como membro.", ".invitation")
    assert convidado_email in text(c, ".invitation")
    c.step("convite aberto 390x844")
    c.click("Aceitar convite")
    c.wait_heading("Minha empresa")
    c.wait_text(f"Pronto! Agora você faz parte de {fantasia} como membro.", "#flash")
    c.wait_text(fantasia, ".company")
    assert "Membro" in text(c, ".company__role")
    assert not c.driver.find_elements(By.CSS_SELECTOR, ".company__people"), "a member sees the people"
    c.step("membro na empresa 390x844")
    c.scroll(c.button("Sair da empresa", ".company__leave"))
    c.step("sair da empresa 390x844")

    # ---- the manager sees them, makes them a manager, and leaves ----------------------------------------
    g.menu("Minha empresa")
    g.wait_heading("Minha empresa")
    caio = g.row("Caio Convidado", ".company__people tbody tr")
    assert "Membro" in caio.text, caio.text
    assert "Nenhum convite pendente." in text(g, ".company__invitations")
    g.click("Tornar gestor(a)", caio)
    dialogo = g.dialog()
    assert "Tornar Caio Convidado gestor(a)?" in dialogo.text, dialogo.text
    g.click("Tornar gestor(a)", dialogo)
    g.wait_text("Caio Convidado agora é gestor(a) da empresa.", ".company__message")
    caio = g.row("Caio Convidado", ".company__people tbody tr")
    assert "Gestor(a)" in caio.text and "Tornar membro" in caio.text, caio.text
    g.scroll(caio)
    g.step("caio gestor")
    g.click("Sair da empresa", ".company__leave")
    dialogo = g.dialog()
    assert f"Sair de {fantasia}?" in dialogo.text, dialogo.text
    g.step("confirmar saida")
    g.click("Sair da empresa", dialogo)
    g.wait_text(f"Você saiu de {fantasia}.", ".company__message")
    g.wait_text("Você não faz parte de uma empresa.")
    assert sem_empresa(server, gestora_token)
    g.step("gestora saiu")

    # ---- the new manager, on the phone: the people, an invitation's link, revoked ----------------------------
    c.open("/empresa")
    c.wait_heading("Minha empresa")
    c.wait_text("Pessoas (1)", ".company__people")
    assert "Gestor(a)" in text(c, ".company__role")
    c.fill("E-mail", f"dani.{sufixo}@exemplo.com.br")
    c.click("Enviar convite")
    c.wait_text(f"Convite enviado por e-mail para dani.{sufixo}@exemplo.com.br", ".company__link")
    c.step("convite no celular 390x844")
    dani = c.row(f"dani.{sufixo}@exemplo.com.br", ".company__invitations tbody tr")
    c.scroll(dani)
    c.step("convites no celular 390x844")
    c.click("Revogar", dani)
    c.click("Revogar", c.dialog())
    c.wait_text(f"Convite de dani.{sufixo}@exemplo.com.br revogado: o link não vale mais.", ".company__message")
    assert "Nenhum convite pendente." in text(c, ".company__invitations")
    c.step("convite revogado 390x844")
    c.scroll(c.driver.find_element(By.CSS_SELECTOR, ".company__people"))
    c.step("pessoas no celular 390x844")
    c.scroll(c.driver.find_element(By.CSS_SELECTOR, "form.company__invite-form"))
    c.step("convidar no celular 390x844")

    # the link already used reads as invalid
    c.expect_http(404, "/api/convites/")
    c.driver.get(link)
    c.wait_heading("Convite para uma empresa")
    c.wait_text("Este link de convite não vale.", ".invitation")
    c.step("link usado 390x844")

    # ---- someone in another company is told to leave it first ------------------------------------------
    olga_email, olga_senha, _ = member(server, "Olga Outra")
    outro_cnpj, _ = cnpj_novo()
    api(server, "POST", "/api/admin/empresas", {
        "razaoSocial": f"Outra Firma {sufixo} S.A.", "cnpj": outro_cnpj, "emailDeCobranca": "contas@outra.com.br",
        "endereco": {"logradouro": "Rua da Consolação", "numero": "20", "cidade": "São Paulo", "uf": "SP", "cep": "01302-000"},
        "gestorId": session(server, (olga_email, olga_senha))["usuario"]["id"],
    }, admin)
    criado = api(server, "POST", f"/api/empresas/{empresa['empresaId']}/convites", {"email": olga_email, "papel": "gestor"}, convidado_token)
    o = browser()
    open_signed_in(o, server, (olga_email, olga_senha), criado["link"].replace(".", "%2E"))
    o.wait_heading("Convite para uma empresa")
    outra = o.wait_text(f"Mas você já faz parte de Outra Firma {sufixo} S.A.", ".invitation")
    assert f"{fantasia} convidou você para fazer parte dela como gestor(a)." in outra.text, outra.text
    assert not o.driver.find_elements(By.XPATH, "//button[normalize-space()='Aceitar convite']")
    o.step("convite de quem esta em outra empresa")

    # ---- the operator sees who is in it now ---------------------------------------------------------------
    ui.open(f"/admin/empresas/{empresa['empresaId']}")
    ui.wait_heading(fantasia)
    ui.wait_text("Pessoas (1)", ".company__people")
    assert "Gestor(a)" in ui.row("Caio Convidado", ".company__people tbody tr").text
    assert "Gabriela Gestora" not in text(ui, ".company__people")
    assert olga_email in ui.row(olga_email, ".company__invitations tbody tr").text
    ui.step("empresa vista pela operacao")
    ui.scroll(ui.driver.find_element(By.CSS_SELECTOR, ".company__invitations"))
    ui.step("convites vistos pela operacao")

    p = browser(size=(390, 844), mobile=True)
    open_signed_in(p, server, server.admin, "/admin/empresas")
    p.wait_heading("Empresas")
    p.row(fantasia)
    p.step("empresas 390x844")
    p.scroll(p.driver.find_element(By.CSS_SELECTOR, "form.company-create"))
    p.step("cadastrar empresa 390x844")
