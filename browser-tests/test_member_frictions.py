"""Small frictions a member meets every day: signing up signs in, logging in from a quote keeps
the chosen slot, the amenity filter is a choice of the catalog's amenities (accents and case do
not matter), and "Tentar de novo" appears only where retrying can help."""

from __future__ import annotations

import uuid

from selenium.webdriver.common.by import By

from journeys import api, go_to_day, login_allowance, meeting_room, pick_slot, submit_login, token


def test_registering_signs_the_member_in(browser, server):
    ui = browser()
    ui.open("/cadastro")
    ui.fill("Nome completo", "Davi Rocha")
    ui.fill("E-mail", f"davi.{uuid.uuid4().hex[:8]}@exemplo.com.br")
    ui.fill("Senha", "senha-do-davi-1")
    login_allowance()
    ui.click("Criar conta", "#view form")
    ui.wait_heading("Encontre um espaço")
    ui.wait_text("Conta criada! Bem-vindo(a), Davi!", "#flash")
    menu = ui.driver.find_element(By.ID, "menu").text
    assert "Sair" in menu and "Entrar" not in menu, menu
    ui.step("cadastro já dentro da conta")
    ui.menu("Minhas reservas")
    ui.wait_heading("Minhas reservas")
    ui.step("minhas reservas sem novo login")


def test_logging_in_from_a_quote_keeps_the_chosen_slot(browser, server, booking_day):
    ui = browser()
    ui.open(f"/espacos/{server.espacos['Sala Ipê']}")
    ui.wait_heading("Sala Ipê")
    go_to_day(ui, booking_day)
    pick_slot(ui, "14:00")
    pick_slot(ui, "15:30")
    assert ui.value("Fim") == "16:00 (2 h)"
    ui.click("Ver preço")
    ui.wait_text("Composição do preço", ".quote")
    ui.step("cotação sem conta")
    ui.click_link("Entre para reservar", ".quote")
    ui.wait_heading("Entrar")
    ui.fill("E-mail", server.member[0])
    ui.fill("Senha", server.member[1])
    submit_login(ui, "Sala Ipê")

    # back on the same space, day and range, quoted again and ready to book
    ui.wait_heading("Sala Ipê")
    assert f"data={booking_day.isoformat()}" in ui.driver.current_url, ui.driver.current_url
    ui.wait_text("Composição do preço", ".quote")
    assert ui.value("Início") == "14:00"
    assert ui.value("Fim") == "16:00 (2 h)"
    assert "Das 14:00 às 16:00" in ui.driver.find_element(By.CSS_SELECTOR, ".selection").text
    assert "R$ 160,00" in ui.driver.find_element(By.CSS_SELECTOR, ".quote").text
    ui.button("Reservar", ".quote")
    ui.step("de volta ao horário escolhido")


def test_the_amenity_filter_is_a_choice_of_the_catalogs_amenities_without_accents(browser, server):
    # two rooms whose amenities are spelt otherwise: "Café" and "cafe" are the demo's "café"
    admin = token(server, server.admin)
    sufixo = uuid.uuid4().hex[:4]
    _, com_acento = meeting_room(server, f"Sala Café {sufixo}")
    _, sem_acento = meeting_room(server, f"Sala Cafe {sufixo}")
    api(server, "PATCH", f"/api/admin/espacos/{com_acento}", {"comodidades": ["Café", "lousa"]}, admin)
    api(server, "PATCH", f"/api/admin/espacos/{sem_acento}", {"comodidades": ["cafe"]}, admin)

    ui = browser(size=(390, 844), mobile=True)
    ui.open("/espacos")
    ui.wait_catalog()
    select = ui.control("Comodidade")
    assert select.tag_name == "select"
    ui.wait(lambda d: len(select.find_elements(By.TAG_NAME, "option")) > 1, "no amenities to choose from")
    options = [o.text for o in select.find_elements(By.TAG_NAME, "option")]
    assert options[0] == "Todas as comodidades", options
    cafes = [o for o in options if o.lower().startswith("caf")]
    assert len(cafes) == 1, options
    for demo in ("Projetor", "Videoconferência", "Quadro branco", "Wi-fi", "Lousa"):
        assert demo in options, options
    ui.choose("Comodidade", cafes[0])
    ui.click("Buscar")
    ui.wait_url("comodidade=")
    ui.wait(lambda d: "Sala Ipê" not in d.find_element(By.CSS_SELECTOR, ".results").text
            and f"Sala Cafe {sufixo}" in d.find_element(By.CSS_SELECTOR, ".results").text, "the list was not filtered")
    cards = ui.driver.find_elements(By.CSS_SELECTOR, ".cards .card")
    nomes = {c.find_element(By.TAG_NAME, "h2").text for c in cards}
    assert {"Estações do Salão", f"Sala Café {sufixo}", f"Sala Cafe {sufixo}"} <= nomes, nomes
    for card in cards:  # other tests' spaces may have it too, and only spaces that have it are listed
        tags = {t.text for t in card.find_elements(By.CSS_SELECTOR, ".tag")}
        assert tags & {"café", "cafe", "Café"}, (card.text, tags)
    ui.step("comodidade escolhida")

    # a link that spells it otherwise picks the same amenity
    ui.open("/espacos?comodidade=VIDEOCONFERENCIA")
    ui.wait(lambda d: ui.value("Comodidade") == "Videoconferência", "the link's amenity is not chosen")
    ui.wait_text("1 espaço")
    assert [c.text for c in ui.driver.find_elements(By.CSS_SELECTOR, ".cards .card h2")] == ["Sala Ipê"]
    ui.step("comodidade sem acento no endereço")


def test_retry_is_offered_only_where_retrying_can_help(browser, server, booking_day):
    ui = browser()
    ui.open("/entrar")
    ui.fill("E-mail", server.member[0])
    ui.fill("Senha", server.member[1])
    submit_login(ui, "Encontre um espaço")

    # a 404 answers the same every time: no "Tentar de novo"
    ui.expect_http(404, "/api/reservas/00000000-0000-4000-8000-0000000000aa")
    ui.open("/reservas/00000000-0000-4000-8000-0000000000aa/pagamento")
    ui.wait_text("não existe", "#view [role=alert]")
    assert "Tentar de novo" not in ui.driver.find_element(By.ID, "view").text
    ui.step("404 sem tentar de novo")

    # no answer at all (the network): "Tentar de novo", which works once the network is back
    _, sala = meeting_room(server, f"Sala Rede {uuid.uuid4().hex[:4]}")
    ui.open(f"/espacos/{sala}?data={booking_day.isoformat()}")
    ui.wait_text("Livre", ".slots")
    ui.driver.execute_cdp_cmd("Network.enable", {})
    ui.driver.execute_cdp_cmd("Network.setBlockedURLs", {"urls": ["*/disponibilidade*"]})
    ui.click("Próximo dia")
    ui.wait_text("Não foi possível falar com o servidor", ".day")
    retry = ui.button("Tentar de novo", ".day")
    ui.driver.get_log("browser")  # the blocked request's console line is this test's doing
    ui.step("rede fora com tentar de novo")
    ui.driver.execute_cdp_cmd("Network.setBlockedURLs", {"urls": []})
    ui.press(retry)
    ui.wait_text("Livre", ".slots")
    ui.step("de novo com a rede")
