"""API errors in words a member understands, screens a member may not open, and the keyboard
way in. Each provoked 4xx is declared (the browser logs it); any other console error fails."""

from __future__ import annotations

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from journeys import login_allowance, sign_in


def test_errors_are_explained_in_plain_portuguese(browser, server):
    ui = browser()
    ui.open("/entrar")
    ui.fill("E-mail", server.member[0])
    ui.fill("Senha", "senha-errada")
    ui.expect_http(401, "/api/auth/login")
    login_allowance()
    ui.click("Entrar", "#view form")
    alert = ui.wait_text("E-mail ou senha incorretos. Confira e tente de novo.", "#view [role=alert]")
    assert ui.driver.switch_to.active_element == alert, "the error summary gets focus"
    ui.step("senha errada")

    ui.open("/cadastro")
    ui.fill("Nome completo", "Outra Pessoa")
    ui.fill("E-mail", server.member[0])
    ui.fill("Senha", "outra-senha-123")
    ui.expect_http(409, "/api/auth/registro")
    ui.click("Criar conta", "#view form")
    ui.wait_text("Já existe uma conta com este e-mail. Entre com ela ou use outro endereço.", "#view [role=alert]")
    ui.step("e-mail em uso")

    ui.fill("E-mail", "sem-arroba")
    ui.click("Criar conta", "#view form")
    ui.wait_text("Informe um e-mail válido", "#view .field__error")
    invalid = ui.control("E-mail")
    assert invalid.get_attribute("aria-invalid") == "true"
    ui.step("e-mail inválido")


def test_members_cannot_open_operator_screens_and_unknown_paths_say_so(browser, server):
    ui = browser()
    ui.open("/admin/usuarios")
    ui.wait_heading("Entrar")
    assert "volta=%2Fadmin%2Fusuarios" in ui.driver.current_url
    sign_in(ui, *server.member, expect_heading="Área da equipe")
    ui.wait_text("Esta página é só para administradores da operação.")
    assert "Auditoria" not in ui.driver.find_element(By.ID, "menu").text
    ui.step("membro na área da equipe")

    ui.open("/nao-existe")
    ui.wait_heading("Página não encontrada")
    ui.step("página inexistente")


def test_the_first_tab_reaches_the_skip_link(browser, server):
    ui = browser()
    ui.open("/espacos")
    ui.wait_catalog()
    ui.driver.find_element(By.TAG_NAME, "body").send_keys(Keys.TAB)
    assert ui.active_element_text() == "Pular para o conteúdo"
    ui.driver.switch_to.active_element.send_keys(Keys.ENTER)
    assert ui.driver.execute_script("return document.activeElement.id") == "conteudo"
    ui.step("pular para o conteúdo")


def test_a_booking_that_is_not_mine_says_so(browser, server):
    ui = browser()
    sign_in(ui, *server.member, expect_heading="Encontre um espaço")
    ui.expect_http(404, "/api/reservas/00000000-0000-4000-8000-000000000000")
    ui.open("/reservas/00000000-0000-4000-8000-000000000000/pagamento")
    ui.wait_heading("Pagamento da reserva")
    ui.wait_text("A reserva 00000000-0000-4000-8000-000000000000 não existe", "#view [role=alert]")
    ui.step("reserva de outra pessoa")
