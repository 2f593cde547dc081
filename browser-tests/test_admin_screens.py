"""The operator screens the main journey does not pass through: coupons (create, view,
deactivate), weekly hours, a space's data, deactivate and reactivate, a unit's edit, promoting and
deactivating an account, and the audit trail filtered by who acted."""

from __future__ import annotations

import uuid

from journeys import ALWAYS_OPEN, api, meeting_room, sign_in


def test_admin_manages_coupons_hours_spaces_units_and_accounts(browser, server):
    ui = browser(size=(1280, 900))
    sign_in(ui, *server.admin, expect_heading="Reservas do dia")

    # coupons
    codigo = f"BEMVINDO{uuid.uuid4().hex[:4].upper()}"
    ui.menu("Cupons")
    ui.wait_heading("Cupons")
    ui.fill("Código", codigo)
    ui.fill("Desconto (%)", "15")
    ui.fill("Usos no máximo", "3")
    ui.click("Criar cupom")
    ui.wait_text(f"Cupom {codigo} criado.", "#flash")
    card = ui.wait_text(f"Cupom {codigo}", "#view section[aria-label=Cupom]")
    assert "Ativo" in card.text and "15 % de desconto" in card.text and "0 de 3" in card.text, card.text
    ui.step("cupom criado")
    ui.click("Desativar cupom")
    ui.click("Desativar", ui.dialog())
    ui.wait_text(f"Cupom {codigo} desativado.", "#flash")
    ui.wait(lambda d: "Desativado" in d.find_element("css selector", "#view section[aria-label=Cupom]").text)
    ui.step("cupom desativado")
    # taken back into use (CupomReativado)
    ui.click("Reativar cupom")
    ui.wait_text(f"Cupom {codigo} reativado", "#flash")
    ui.wait(lambda d: "Ativo" in d.find_element("css selector", "#view section[aria-label=Cupom]").text)
    ui.step("cupom reativado")

    # weekly hours of a room of its own (not a seeded one another test on this server may have
    # booked, which would refuse the deactivation): open on Sundays too
    nome = f"Sala Aroeira {uuid.uuid4().hex[:4]}"
    unidade, espaco = meeting_room(server, nome, horario={d: h for d, h in ALWAYS_OPEN.items() if d != "domingo"})
    ui.open(f"/admin/espacos/{espaco}/horario")
    ui.wait_heading(f"Horário — {nome}")
    domingo = ui.driver.find_element("css selector", "fieldset[data-dia=domingo]")
    assert "Fechado" in domingo.text
    ui.click("Adicionar faixa", domingo)
    ui.click("Salvar horário")
    ui.wait_text("Horário salvo.", "#flash")
    domingo = ui.driver.find_element("css selector", "fieldset[data-dia=domingo]")
    assert "Fechado" not in domingo.text and len(domingo.find_elements("css selector", ".range")) == 1
    ui.step("horario com domingo")

    # its data, then deactivate and reactivate
    ui.click_link("Dados", ".tabs")
    ui.wait_heading(nome)
    ui.fill("Capacidade (pessoas)", "5")
    ui.click("Salvar alterações")
    ui.wait_text(f"Espaço {nome} atualizado.", "#flash")
    assert ui.value("Capacidade (pessoas)") == "5"
    ui.click("Desativar espaço")
    dialog = ui.dialog()
    ui.fill("Motivo", "reforma", dialog)
    ui.click("Desativar", dialog)
    ui.wait_text(f"{nome} foi desativado.", "#flash")
    ui.wait_text("Desativado", "#view .facts")
    ui.step("espaco desativado")
    ui.menu("Espaços e preços")
    ui.wait_heading("Espaços")
    ui.choose("Unidade", unidade)
    inativos = ui.wait_text(nome, "#view section[aria-labelledby=inativos]")
    ui.step("espacos desativados")
    ui.click_link(nome, "#view section[aria-labelledby=inativos]")
    ui.wait_heading(nome)
    ui.click("Reativar espaço")
    ui.wait_text(f"{nome} foi reativado.", "#flash")
    ui.wait_text("Ativo", "#view .facts")
    del inativos

    # a unit's edit
    # found by part of its name, whatever the case, however many units the server holds
    ui.menu("Unidades")
    ui.wait_heading("Unidades")
    ui.fill("Nome ou endereço contém", "coworkflow PAULISTA")
    ui.click("Buscar")
    ui.wait_text("Unidades com “coworkflow PAULISTA” no nome ou no endereço", "#view table caption")
    assert "busca=coworkflow" in ui.driver.current_url, ui.driver.current_url
    ui.step("unidades buscadas")
    ui.click_link("CoworkFlow Paulista", "#view table")
    ui.wait_heading("Editar CoworkFlow Paulista")
    assert ui.value("Logradouro") == "Avenida Paulista"
    ui.fill("Complemento", "Conjunto 101")
    ui.click("Salvar alterações")
    ui.wait_text("Unidade CoworkFlow Paulista atualizada.", "#flash")
    ui.wait_text("Avenida Paulista, 1000")
    ui.step("unidade editada")

    # accounts: promote, then deactivate someone who just registered
    email = f"bia.{uuid.uuid4().hex[:6]}@exemplo.com.br"
    api(server, "POST", "/api/auth/registro", {"nome": "Bia Lima", "email": email, "senha": "senha-da-bia-1"})
    ui.menu("Usuários")
    ui.wait_heading("Usuários")
    ui.fill("E-mail contém", email)
    ui.click("Filtrar")
    row = ui.row(email)
    assert "Membro" in row.text and "Ativa" in row.text, row.text
    ui.click("Promover a admin", row)
    ui.click("Promover a admin", ui.dialog())
    ui.wait_text("Bia Lima agora é administrador(a).", "#flash")
    ui.wait(lambda d: "Administrador(a)" in ui.row(email).text)
    ui.click("Desativar", ui.row(email))
    ui.click("Desativar", ui.dialog())
    ui.wait_text("A conta de Bia Lima foi desativada.", "#flash")
    ui.wait(lambda d: "Desativada" in ui.row(email).text)
    ui.step("conta promovida e desativada")

    # audit trail by who acted (given by e-mail)
    ui.menu("Auditoria")
    ui.wait_heading("Trilha de auditoria")
    ui.fill("Quem agiu", server.admin[0])
    ui.choose("Tipo de evento", "Conta promovida a administrador(a)")
    ui.click("Filtrar")
    ui.wait_url("tipo=UsuarioPromovido")
    ui.row("Conta promovida a administrador(a)")
    ui.step("auditoria por pessoa")


def legivel(ui) -> None:
    """Every word of the charts on the page is drawn at least 11 px high (a chart's canvas shrinks
    to the screen's width, and its text with it)."""
    alturas = ui.driver.execute_script("""
        return [...document.querySelectorAll('svg.chart text')].filter((t) => t.textContent.trim())
          .map((t) => [t.textContent.trim(), t.getBoundingClientRect().height]);""")
    assert alturas, "no chart text on the page"
    pequenos = [(texto, round(altura, 1)) for texto, altura in alturas if 0 < altura < 11]
    assert not pequenos, f"chart text too small on a phone: {pequenos[:5]}"


def test_finance_and_indicators_fit_a_phone(browser, server):
    """The charts scale to the screen and the tables become cards: nothing scrolls sideways."""
    from selenium.webdriver.common.by import By

    ui = browser(size=(390, 844), mobile=True)
    sign_in(ui, *server.admin, expect_heading="Reservas do dia")
    ui.menu("Financeiro")
    ui.wait_heading("Financeiro")
    ui.wait_text("Receita líquida", "#view .facts")
    ui.wait(lambda d: d.find_elements(By.CSS_SELECTOR, "svg.chart--receita"), "no revenue chart")
    ui.wait_text("Saldos por conta")
    legivel(ui)
    ui.step("financeiro no celular")
    ui.click_link("Faturas", ".tabs")
    ui.wait_url("/admin/financeiro/faturas")
    ui.step("faturas no celular")
    ui.menu("Indicadores")
    ui.wait_heading("Indicadores")
    ui.wait(lambda d: d.find_elements(By.CSS_SELECTOR, "svg.chart--heatmap"), "no heatmap")
    ui.wait_text("Taxa de cancelamento", "#view .kpis")
    legivel(ui)
    ui.step("indicadores no celular")
