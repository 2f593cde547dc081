"""Visitors: the demo member registers who is coming to a unit ("Visitantes" in the menu, which
keeps to one row at 1280 px): a blank name is refused next to the name field (the API's 422
names it) and nothing is registered; with a name and an e-mail the form says the visitor was
registered and invited, and the visitor is in "Próximos" (the unit, the day and time, "Esperado",
"Cancelar"). Another visitor is cancelled after a confirmation and reads "Cancelado" under
"Anteriores" (the name is erased an hour later, by the server's timer). At the front desk,
"Reservas do dia" for that unit and day lists "Visitantes do dia" (time, name, host, status):
the cancelled visitor's data is erased at their request ("Apagar dados", after a confirmation:
the row reads "Dados apagados" and offers nothing), the arrival is registered on a desktop and
the departure on a phone (after a confirmation). The member then
sees "Saiu" and the notification "Seu visitante chegou"; desktop and phone.

The visit is expected an hour or more from now (the next quarter hour after that, in the unit's
zone), so the desk may record the arrival at once (from 12 h before) at any hour of the run.

A visitor who came unannounced: on today's "Reservas do dia" the desk finds the member by part of
the e-mail ("Chegou alguém sem aviso?"), types the visitor's name and registers the arrival (the
visit, for that member and expected now, then its arrival). With no member chosen the error is
next to the member's field, a blank name is refused next to "Nome do visitante" (the API's 422),
and nothing is registered; the visit then reads "Chegou" and "Sem aviso" in the list, the API
says the desk registered it for the member, and the member reads "registrado pela recepção".
Another day's page has no such form. On a phone, a search that finds two members asks to choose
one (next to "Anfitrião") before registering."""

from __future__ import annotations

import uuid
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from selenium.webdriver.common.by import By

from journeys import api, eventually, open_signed_in, session, token, unit

SP = ZoneInfo("America/Sao_Paulo")
PROXIMOS = "section[aria-labelledby='visitantes-proximos'] tbody tr"
ANTERIORES = "section[aria-labelledby='visitantes-anteriores'] tbody tr"
DO_DIA = ".visitors-day tbody tr"


def expected_arrival() -> datetime:
    """A quarter hour between 1 h and 1 h 15 from now in São Paulo (tomorrow's, late at night)."""
    t = (datetime.now(SP) + timedelta(hours=1, minutes=15)).replace(second=0, microsecond=0)
    return t - timedelta(minutes=t.minute % 15)


def offered(row) -> list[str]:
    """A row's actions, as a screen reader says them."""
    cell = row.find_element(By.CSS_SELECTOR, "td:last-child")
    return [" ".join(b.get_attribute("textContent").split()) for b in cell.find_elements(By.CSS_SELECTOR, "button")]


def field_error(ui, label: str) -> str:
    """The error shown next to the field labelled `label` (its own slot, tied to it by aria-describedby)."""
    control = ui.control(label)
    assert control.get_attribute("aria-invalid") == "true", f"'{label}' is not marked invalid"
    ids = (control.get_attribute("aria-describedby") or "").split()
    return " ".join(ui.driver.find_element(By.ID, i).text for i in ids if "erro" in i).strip()


def hidden(ui, css: str) -> bool:
    """Whether nothing matching `css` is shown on the page."""
    return not any(el.is_displayed() for el in ui.driver.find_elements(By.CSS_SELECTOR, css))


def my_visits(server) -> list[dict]:
    mine = api(server, "GET", "/api/visitas", token=token(server, server.member))
    return mine["proximas"] + mine["anteriores"]


def test_a_member_registers_a_visitor_and_the_front_desk_receives_them(browser, server):
    sufixo = uuid.uuid4().hex[:4]
    unidade = unit(server, f"CoworkFlow Visitas {sufixo}")
    chegada = expected_arrival()
    dia, hora = chegada.date().isoformat(), chegada.strftime("%H:%M")
    quando = f"{chegada.strftime('%d/%m/%Y')} às {hora}"
    helena, email = f"Helena Duarte {sufixo}", f"helena.{sufixo}@exemplo.com.br"
    otavio = f"Otávio Prado {sufixo}"
    anfitriao = session(server, server.member)["usuario"]["nome"]
    # a second visitor, registered through the API, that the member cancels on the screen
    api(server, "POST", "/api/visitas", {"unidadeId": unidade["id"], "chegadaPrevista": chegada.isoformat(), "nome": otavio},
        token(server, server.member))

    # ---- the member registers a visitor ---------------------------------------------------------------
    ui = browser(size=(1280, 900))
    open_signed_in(ui, server, server.member, "/reservas")
    ui.menu("Visitantes")
    ui.wait_heading("Meus visitantes")
    tops = ui.driver.execute_script(
        "return [...document.querySelectorAll('.site-header a, .site-header button')].filter((el) => el.offsetParent !== null)"
        ".map((el) => Math.round(el.getBoundingClientRect().top + el.getBoundingClientRect().height / 2));")
    assert max(tops) - min(tops) <= 4, f"the member's menu takes more than one row: {tops}"
    form = ui.wait_text("Registrar visitante", "#view form")
    assert "recebe por e-mail o convite com o endereço da unidade" in form.text, form.text
    ui.choose("Unidade", unidade["nome"])
    assert "No horário de São Paulo" in form.text, form.text
    ui.set_value("Data", dia)
    ui.set_value("Hora", hora)
    antes = len(my_visits(server))

    # a blank name: the API's 422 names the field, shown beside it; nothing is registered
    ui.expect_http(422, "/api/visitas")
    ui.click("Registrar visitante", "#view form")
    ui.wait_text("nome do visitante", "#view form [role=alert]")
    erro = field_error(ui, "Nome do visitante")
    assert "nome do visitante" in erro and "2 a 120 caracteres" in erro, erro
    assert len(my_visits(server)) == antes
    ui.step("nome em branco recusado")

    ui.fill("Nome do visitante", helena)
    ui.fill("E-mail do visitante", email)
    ui.click("Registrar visitante", "#view form")
    result = ui.wait_text(f"Visitante registrado: {helena}, {quando} ({unidade['nome']}).", ".visit-form__result")
    assert f"Enviamos o convite com o endereço da unidade para {email}." in result.text, result.text
    assert ui.value("Nome do visitante") == "" and ui.value("E-mail do visitante") == ""
    assert not ui.driver.find_elements(By.CSS_SELECTOR, "#view [aria-invalid=true]")
    row = ui.row(helena, PROXIMOS)
    assert all(t in row.text for t in (email, unidade["nome"], quando, "Esperado")), row.text
    assert offered(row) == [f"Cancelar a visita de {helena}"], offered(row)
    helena_id = row.get_attribute("data-visita")
    ui.step("visitante registrado")

    # the other one is cancelled, after a confirmation: its name is erased an hour later
    ui.click("Cancelar", ui.row(otavio, PROXIMOS))
    dialog = ui.dialog()
    assert otavio in dialog.text and "apagados uma hora depois" in dialog.text, dialog.text
    ui.step("cancelar visita")
    ui.click("Cancelar visita", dialog)
    ui.wait_text("Visita cancelada.", "#flash")
    cancelada = ui.row(otavio, ANTERIORES)
    assert "Cancelado" in cancelada.text and quando in cancelada.text, cancelada.text
    assert [tr.get_attribute("data-visita") for tr in ui.driver.find_elements(By.CSS_SELECTOR, PROXIMOS)] == [helena_id]
    ui.step("visita cancelada")

    # ---- the front desk: the unit's day lists the visitors; the arrival on a desktop -----------------------
    desk = browser(size=(1280, 900))
    open_signed_in(desk, server, server.admin, f"/admin/reservas?unidade={unidade['id']}&data={dia}")
    desk.wait_heading("Reservas do dia")
    desk.wait_text("Visitantes do dia")
    visita = desk.row(helena, DO_DIA)
    assert all(t in visita.text for t in (hora, anfitriao, "Esperado")), visita.text
    assert offered(visita) == [f"Registrar chegada de {helena}", f"Apagar dados de {helena}"], offered(visita)
    cancelada = desk.row(otavio, DO_DIA)
    assert "Cancelado" in cancelada.text and offered(cancelada) == [f"Apagar dados de {otavio}"], cancelada.text
    desk.scroll(visita)
    desk.step("visitantes do dia")
    # the cancelled visitor asks to be forgotten now: the desk erases the name and e-mail
    desk.click("Apagar dados", desk.row(otavio, DO_DIA))
    dialog = desk.dialog()
    assert otavio in dialog.text and "LGPD" in dialog.text, dialog.text
    desk.click("Apagar dados", dialog)
    desk.wait_text("Dados do visitante apagados.", "#flash")
    desk.wait(lambda d: otavio not in d.find_element(By.ID, "view").text, "the erased name is still shown")
    apagada = desk.row("Dados apagados", DO_DIA)
    assert "Cancelado" in apagada.text and offered(apagada) == [], apagada.text
    desk.step("dados do visitante apagados")
    desk.click("Registrar chegada", desk.row(helena, DO_DIA))
    desk.wait_text(f"Chegada registrada: {helena}", "#flash")
    desk.wait(lambda d: offered(desk.row(helena, DO_DIA)) == [f"Registrar saída de {helena}", f"Apagar dados de {helena}"],
              "no departure offered after the arrival")
    assert "Chegou" in desk.row(helena, DO_DIA).text and "Chegada às" in desk.row(helena, DO_DIA).text
    desk.step("chegada do visitante")

    # the pass to print, from the visitor's row: the name, whom they came to see, where and when;
    # printed, the pass alone on the page
    cracha = desk.row(helena, DO_DIA).find_element(By.CSS_SELECTOR, "a[href*='/cracha']")
    assert " ".join(cracha.get_attribute("textContent").split()) == f"Crachá de {helena}"
    desk.press(cracha)
    desk.wait_heading("Crachá de visitante")
    passe = desk.wait_text(helena, "#view .pass")
    assert all(t in passe.text for t in ("VISITANTE", anfitriao, unidade["nome"], "Chegada")), passe.text
    assert desk.driver.find_element(By.CSS_SELECTOR, "#view button").text == "Imprimir crachá"
    desk.step("cracha do visitante")
    desk.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "print"})
    try:
        assert desk.driver.find_element(By.CSS_SELECTOR, "#view .pass").is_displayed()
        hidden = [css for css in ("#view h1", "#view button", ".site-header") if desk.driver.find_element(By.CSS_SELECTOR, css).is_displayed()]
        assert hidden == [], f"printed with the pass: {hidden}"
        # a screenshot only: the print style hides the page's heading, which the step's audit wants
        desk.driver.save_screenshot(str(desk.shots / "cracha-impresso.png"))
    finally:
        desk.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": ""})
    desk.click_link("← Reservas do dia")
    desk.wait_heading("Reservas do dia")
    desk.wait_text("Visitantes do dia")

    # the departure on a phone
    phone = browser(size=(390, 844), mobile=True)
    open_signed_in(phone, server, server.admin, f"/admin/reservas?unidade={unidade['id']}&data={dia}")
    phone.wait_heading("Reservas do dia")
    visita = phone.row(helena, DO_DIA)
    phone.scroll(visita)
    phone.step("visitantes do dia no celular")
    phone.press(visita.find_element(By.CSS_SELECTOR, "a[href*='/cracha']"))
    phone.wait_text(helena, "#view .pass")
    phone.step("cracha no celular")
    phone.click_link("← Reservas do dia")
    phone.wait_heading("Reservas do dia")
    phone.click("Registrar saída", phone.row(helena, DO_DIA))
    dialog = phone.dialog()
    assert helena in dialog.text and anfitriao in dialog.text, dialog.text
    phone.click("Registrar saída", dialog)
    phone.wait_text(f"Saída registrada: {helena}", "#flash")
    phone.wait(lambda d: offered(phone.row(helena, DO_DIA)) == [f"Apagar dados de {helena}"], "actions left after the departure")
    assert "Saiu" in phone.row(helena, DO_DIA).text
    phone.scroll(phone.row(helena, DO_DIA))
    phone.step("saida do visitante no celular")

    # ---- the member: "Saiu", and the notice of the arrival ---------------------------------------------
    eventually(lambda: any(n["titulo"] == "Seu visitante chegou" and n["tipo"] == "visita"
                           for n in api(server, "GET", "/api/notificacoes", token=token(server, server.member))["itens"]),
               "the host's notice of the arrival")
    ui.open("/visitantes")
    ui.wait_heading("Meus visitantes")
    saiu = ui.row(helena, ANTERIORES)
    assert "Saiu" in saiu.text and "Chegou às" in saiu.text and quando in saiu.text, saiu.text
    assert not ui.driver.find_elements(By.CSS_SELECTOR, PROXIMOS)
    ui.wait_text("Nenhum visitante esperado.")
    ui.scroll(saiu)
    ui.step("visitante saiu")

    member = browser(size=(390, 844), mobile=True)
    open_signed_in(member, server, server.member, "/visitantes")
    member.wait_heading("Meus visitantes")
    saiu = member.row(helena, ANTERIORES)
    assert "Saiu" in saiu.text, saiu.text
    member.scroll(saiu)
    member.step("meus visitantes no celular")
    member.driver.find_element(By.ID, "menu-toggle").click()
    member.wait(lambda d: d.find_element(By.CSS_SELECTOR, "#menu a[href='/visitantes']").is_displayed(), "no Visitantes in the phone's menu")
    member.step("menu no celular")
    member.menu("Notificações")
    member.wait_heading("Notificações")
    aviso = member.wait_text("Seu visitante chegou", ".inbox")
    item = aviso.find_element(By.XPATH, ".//li[.//h2[contains(., 'Seu visitante chegou')]]")
    assert "Visitante" in item.text and unidade["nome"] in item.text and hora in item.text, item.text
    member.scroll(item)
    member.step("aviso de chegada do visitante")


def test_the_front_desk_registers_a_visitor_who_came_unannounced(browser, server):
    tag = uuid.uuid4().hex[:10]
    unidade = unit(server, f"CoworkFlow Recepção {tag[:4]}")
    admin_id = session(server, server.admin)["usuario"]["id"]
    hosts = {}
    for nome in ("Lia Moreira", "Lia Campos"):
        email = f"{nome.lower().replace(' ', '.')}.{tag}@exemplo.com.br"
        api(server, "POST", "/api/auth/registro", {"nome": nome, "email": email, "senha": "senha-forte-789"})
        hosts[nome] = (email, "senha-forte-789")
    moreira, campos = hosts["Lia Moreira"][0], hosts["Lia Campos"][0]
    caio, caio_email, rita = f"Caio Nunes {tag[:4]}", f"caio.{tag}@exemplo.com.br", f"Rita Sales {tag[:4]}"
    admin = token(server, server.admin)

    def visits_today() -> list[dict]:
        hoje = datetime.now(SP).date().isoformat()
        return api(server, "GET", f"/api/admin/visitas?unidade={unidade['id']}&data={hoje}", token=admin)["itens"]

    # ---- the desk, on today's page (no date in the address: today in the unit's zone) -------------------
    desk = browser(size=(1280, 900))
    open_signed_in(desk, server, server.admin, f"/admin/reservas?unidade={unidade['id']}")
    desk.wait_heading("Reservas do dia")
    form = desk.wait_text("Chegou alguém sem aviso?", ".visitors-day form")
    assert "Nenhum visitante esperado neste dia." in desk.driver.find_element(By.CSS_SELECTOR, ".visitors-day").text

    # no member chosen: said next to the member's field, nothing registered
    desk.fill("Nome do visitante", caio)
    desk.click("Registrar chegada", form)
    desk.wait(lambda d: desk.control("E-mail do anfitrião").get_attribute("aria-invalid") == "true", "no error by the member's field")
    erro = field_error(desk, "E-mail do anfitrião")
    assert "Busque pelo e-mail o membro que o visitante veio ver" in erro, erro
    assert visits_today() == []
    desk.scroll(form)
    desk.step("sem aviso: anfitriao nao escolhido")

    # the member found by part of the e-mail: one, chosen at once
    desk.fill("E-mail do anfitrião", f"lia.moreira.{tag}")
    desk.click("Buscar", form)
    desk.wait_text("1 membro encontrado.", ".walk-in__status")
    assert desk.value("Anfitrião") == f"Lia Moreira — {moreira}", desk.value("Anfitrião")
    assert desk.control("E-mail do anfitrião").get_attribute("aria-invalid") is None

    # a blank name: the API's 422 names the field, shown beside it; nothing is registered
    desk.fill("Nome do visitante", "")
    desk.expect_http(422, "/api/visitas")
    desk.click("Registrar chegada", form)
    desk.wait_text("nome do visitante", ".walk-in [role=alert]")
    erro = field_error(desk, "Nome do visitante")
    assert "nome do visitante" in erro and "2 a 120 caracteres" in erro, erro
    assert desk.value("Anfitrião") == f"Lia Moreira — {moreira}"
    assert visits_today() == []
    desk.scroll(form)
    desk.step("sem aviso: nome em branco recusado")

    desk.fill("Nome do visitante", caio)
    desk.fill("E-mail do visitante", caio_email)
    desk.click("Registrar chegada", form)
    desk.wait_text(f"Chegada registrada: {caio} (visita de Lia Moreira), às ", "#flash")
    row = desk.row(caio, DO_DIA)
    desk.wait(lambda d: "Chegou" in desk.row(caio, DO_DIA).text, "the walk-in is not listed as arrived")
    row = desk.row(caio, DO_DIA)
    assert all(t in row.text for t in ("Lia Moreira", "Chegada às", "Sem aviso: registrado pela recepção")), row.text
    assert offered(row) == [f"Registrar saída de {caio}", f"Apagar dados de {caio}"], offered(row)
    assert desk.value("E-mail do anfitrião") == "" and desk.value("Nome do visitante") == "" and desk.value("E-mail do visitante") == ""
    assert hidden(desk, ".walk-in select") and not desk.driver.find_elements(By.CSS_SELECTOR, ".walk-in [aria-invalid=true]")
    # the API: the visit is the member's, registered by the desk, expected now and arrived
    [visita] = visits_today()
    host = session(server, hosts["Lia Moreira"])["usuario"]
    assert visita["usuarioId"].lower() == host["id"].lower() and visita["registradaPor"].lower() == admin_id.lower(), visita
    assert visita["situacao"] == "presente" and visita["chegouEm"] and visita["nome"] == caio and visita["email"] == caio_email, visita
    prevista = datetime.fromisoformat(visita["chegadaPrevista"].replace("Z", "+00:00"))
    assert abs((datetime.now(SP) - prevista).total_seconds()) < 600, visita["chegadaPrevista"]
    desk.scroll(row)
    desk.step("sem aviso: chegada registrada")

    # another day's page has no such form; today's has it again
    desk.click("Próximo dia")
    desk.wait_text("Nenhum visitante esperado neste dia.", ".visitors-day")
    assert hidden(desk, ".walk-in")
    desk.click("Hoje")
    desk.row(caio, DO_DIA)
    desk.wait_text("Chegou alguém sem aviso?", ".visitors-day form")

    # the member: the visit reads as registered by the desk
    open_signed_in(desk, server, hosts["Lia Moreira"], "/visitantes")
    desk.wait_heading("Meus visitantes")
    mine = desk.row(caio)
    assert "Chegou sem aviso: registrado pela recepção" in mine.text and "Chegou" in mine.text, mine.text
    desk.scroll(mine)
    desk.step("sem aviso: o anfitriao ve a visita")

    # ---- on a phone: two members found, one to choose ------------------------------------------------------
    phone = browser(size=(390, 844), mobile=True)
    open_signed_in(phone, server, server.admin, f"/admin/reservas?unidade={unidade['id']}")
    phone.wait_heading("Reservas do dia")
    form = phone.wait_text("Chegou alguém sem aviso?", ".visitors-day form")
    phone.fill("E-mail do anfitrião", tag)
    phone.click("Buscar", form)
    phone.wait_text("2 membros encontrados.", ".walk-in__status")
    phone.fill("Nome do visitante", rita)
    phone.click("Registrar chegada", form)
    phone.wait(lambda d: phone.control("Anfitrião").get_attribute("aria-invalid") == "true", "no error by the member's list")
    erro = field_error(phone, "Anfitrião")
    assert "Escolha na lista o membro que o visitante veio ver" in erro, erro
    assert len(visits_today()) == 1
    phone.scroll(form)
    phone.step("sem aviso no celular: escolher o anfitriao")
    phone.choose("Anfitrião", f"Lia Campos — {campos}")
    phone.scroll(form)
    phone.step("sem aviso no celular: anfitriao escolhido")
    phone.click("Registrar chegada", form)
    phone.wait_text(f"Chegada registrada: {rita} (visita de Lia Campos)", "#flash")
    phone.wait(lambda d: "Chegou" in phone.row(rita, DO_DIA).text, "the walk-in is not listed as arrived")
    row = phone.row(rita, DO_DIA)
    assert "Lia Campos" in row.text and "Sem aviso: registrado pela recepção" in row.text, row.text
    phone.scroll(row)
    phone.step("sem aviso no celular: chegada registrada")
