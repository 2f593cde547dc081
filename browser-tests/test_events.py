"""Community events ("Eventos"): the team follows "Eventos da unidade" from "Reservas do dia" (the
operator's menu keeps to one row at 1280 px and has no link to it) to the unit's events, and
publishes one with a single place: a start already past is refused next to "Início" (the API's
422) and nothing is published; then the event is listed ("0 de 1 vaga ocupada") as the API has
it (its start and end the instants of the unit's local day and times). A member follows "Ver os
eventos" from "Minhas reservas" (the member's menu has no link either) and takes the place ("Quero
ir": "Você está inscrito(a)", the event "Lotado"); another member, on a phone, joins the waiting
list ("Você está na lista de espera (posição 1)"). The first gives up her place after a
confirmation that says it goes to the waiting list; the second's phone, left open, still offers to
leave the waiting list, and pressed shows his new place instead, giving nothing up; told in the
inbox (whose notice links to the page), he has it. The team sees him under "Com vaga" and no one waiting, gives the
event more places, and cancels it with a reason after a confirmation; the member reads
"Cancelado" with the reason and no button; the first member's page, left open, offers the
waiting list still, and her click is refused with the API's 409 said in the card, which turns
"Cancelado". The team's page and the member's fit a phone."""

from __future__ import annotations

import uuid
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from selenium.webdriver.common.by import By

from journeys import api, eventually, member, open_signed_in, session, token, unit
from test_mail import menu_on_one_row, no_sideways_scroll
from test_visitors import field_error

CARTOES = "#view li.event"

TITULO = "Café com investidores"
DESCRICAO = "Uma conversa aberta com dois investidores-anjo sobre a primeira rodada.\nTraga suas perguntas."
LOCAL = "Auditório, 2º andar"
MOTIVO = "O convidado adoeceu; vamos remarcar."
TZ = "America/Sao_Paulo"


def cartao(ui, titulo: str = TITULO):
    """The event's card (found again each time: an action redraws it)."""
    return ui.row(titulo, CARTOES)


def texto(ui, titulo: str = TITULO) -> str:
    return " ".join(cartao(ui, titulo).text.split())


def nomes(card, grupo: str) -> list[str]:
    """The names under "Com vaga" (inscritos) or "Lista de espera" (espera), in order."""
    return [el.text for el in card.find_elements(By.CSS_SELECTOR, f"[data-grupo='{grupo}'] .event-people__name")]


def test_a_member_takes_the_one_place_another_waits_for_it_and_the_team_cancels_the_event(browser, server):
    sufixo = uuid.uuid4().hex[:4]
    unidade = unit(server, f"CoworkFlow Eventos {sufixo}")
    ana = f"Ana Lima {sufixo}"
    bruno = f"Bruno Costa {sufixo}"
    ana_email, ana_senha, ana_token = member(server, ana)
    bruno_email, bruno_senha, bruno_token = member(server, bruno)
    bruno_id = session(server, (bruno_email, bruno_senha))["usuario"]["id"].lower()
    admin = token(server, server.admin)
    titulo = f"{TITULO} {sufixo}"
    hoje = datetime.now(ZoneInfo(TZ)).date()
    dia = hoje + timedelta(days=2)

    def na_unidade() -> list[dict]:
        return api(server, "GET", f"/api/encontros?unidade={unidade['id']}", token=admin)["itens"]

    # ---- the team publishes an event with one place ---------------------------------------------------
    desk = browser(size=(1280, 900))
    open_signed_in(desk, server, server.admin, f"/admin/reservas?unidade={unidade['id']}")
    desk.wait_heading("Reservas do dia")
    desk.click_link("Eventos da unidade", "#view")
    desk.wait_heading("Eventos")
    menu_on_one_row(desk)
    assert not desk.driver.find_elements(By.CSS_SELECTOR, "#menu a[href='/admin/eventos']")
    assert desk.value("Unidade") == unidade["nome"]
    desk.wait_text("Nenhum evento programado nesta unidade.")
    form = desk.wait_text(f"Publicar um evento em {unidade['nome']}", "#view form")
    desk.step("equipe: eventos da unidade")

    # a start already past: the API's 422 is said next to "Início", and nothing is published
    desk.fill("Título", titulo)
    desk.fill("Descrição", DESCRICAO)
    desk.fill("Local", LOCAL)
    desk.set_value("Data", (hoje - timedelta(days=1)).isoformat())
    desk.set_value("Início", "18:30")
    desk.set_value("Fim", "20:00")
    desk.fill("Vagas", "1")
    desk.expect_http(422, "/api/admin/encontros")
    desk.click("Publicar evento", form)
    desk.wait(lambda d: desk.control("Início").get_attribute("aria-invalid") == "true", "no error by the start")
    assert "passou" in field_error(desk, "Início"), field_error(desk, "Início")
    assert na_unidade() == []
    desk.scroll(form)
    desk.step("equipe: inicio no passado")

    desk.set_value("Data", dia.isoformat())
    desk.click("Publicar evento", form)
    desk.wait_text(f"Evento publicado: “{titulo}”", "#flash")
    card = cartao(desk, titulo)
    assert all(t in card.text for t in ("0 de 1 vaga ocupada", "Inscrições abertas", LOCAL, unidade["nome"], "das 18:30 às 20:00")), card.text
    assert "Ninguém inscrito ainda." in card.text and "Ninguém na lista de espera." in card.text, card.text
    assert desk.value("Título") == "" and desk.value("Vagas") == ""
    [evento] = na_unidade()
    inicio = datetime(dia.year, dia.month, dia.day, 18, 30, tzinfo=ZoneInfo(TZ))
    assert datetime.fromisoformat(evento["inicio"].replace("Z", "+00:00")) == inicio, evento
    assert datetime.fromisoformat(evento["fim"].replace("Z", "+00:00")) == inicio + timedelta(minutes=90), evento
    assert (evento["titulo"], evento["descricao"], evento["local"], evento["vagas"], evento["confirmados"], evento["naEspera"], evento["cancelado"]) == \
        (titulo, DESCRICAO, LOCAL, 1, 0, 0, False), evento
    evento_id = evento["id"]
    desk.scroll(card)
    desk.step("equipe: evento publicado")

    # ---- a member takes the place, from "Minhas reservas" ---------------------------------------------
    ui = browser(size=(1280, 900))
    open_signed_in(ui, server, (ana_email, ana_senha), "/reservas")
    ui.wait_heading("Minhas reservas")
    ui.click_link("Ver os eventos", "#view")
    ui.wait_heading("Eventos")
    menu_on_one_row(ui)
    assert not ui.driver.find_elements(By.CSS_SELECTOR, "#menu a[href='/eventos']")
    ui.choose("Unidade", unidade["nome"])
    assert all(t in texto(ui, titulo) for t in ("0 de 1 vaga ocupada", LOCAL, "Traga suas perguntas.")), texto(ui, titulo)
    ui.step("membro: eventos da unidade")
    ui.click("Quero ir", cartao(ui, titulo))
    ui.wait_text(f"Inscrição confirmada: “{titulo}”.", "#flash")
    ui.wait(lambda d: "Você está inscrito(a)." in texto(ui, titulo), "her card does not say she has the place")
    assert "Lotado — ninguém na lista de espera" in texto(ui, titulo), texto(ui, titulo)
    ui.button("Cancelar inscrição", cartao(ui, titulo))
    dela = api(server, "GET", f"/api/encontros/{evento_id}", token=ana_token)
    assert dela["minhaInscricao"] == "confirmada" and dela["confirmados"] == 1, dela
    ui.scroll(cartao(ui, titulo))
    ui.step("membro: inscrita")
    # "Minhas reservas" says where she stands, and leads back
    ui.open("/reservas")
    ui.wait_heading("Minhas reservas")
    ui.wait_text("Você tem vaga em 1 evento.", "#view")
    ui.click_link("Ver os eventos", "#view")
    ui.wait_heading("Eventos")
    assert "Você está inscrito(a)." in texto(ui, titulo), texto(ui, titulo)

    # ---- another member, on a phone, joins the waiting list -----------------------------------------
    celular = browser(size=(390, 844), mobile=True)
    open_signed_in(celular, server, (bruno_email, bruno_senha), f"/eventos?unidade={unidade['id']}")
    celular.wait_heading("Eventos")
    assert "Lotado" in texto(celular, titulo), texto(celular, titulo)
    celular.click("Entrar na lista de espera", cartao(celular, titulo))
    celular.wait_text(f"Você entrou na lista de espera de “{titulo}” (posição 1).", "#flash")
    celular.wait(lambda d: "Você está na lista de espera (posição 1)." in texto(celular, titulo), "his card does not say he waits")
    assert "Lotado — 1 na lista de espera" in texto(celular, titulo), texto(celular, titulo)
    celular.button("Sair da lista de espera", cartao(celular, titulo))
    dele = api(server, "GET", f"/api/encontros/{evento_id}", token=bruno_token)
    assert (dele["minhaInscricao"], dele["posicaoNaEspera"], dele["naEspera"]) == ("espera", 1, 1), dele
    no_sideways_scroll(celular)
    celular.scroll(cartao(celular, titulo))
    celular.step("celular: lista de espera")

    # ---- she gives her place up: it goes to him ---------------------------------------------------------
    ui.click("Cancelar inscrição", cartao(ui, titulo))
    dialog = ui.dialog()
    assert f"“{titulo}”" in dialog.text and "primeira pessoa da lista de espera" in dialog.text, dialog.text
    ui.step("membro: cancelar inscricao")
    ui.click("Cancelar inscrição", dialog)
    ui.wait_text(f"Inscrição cancelada: “{titulo}”.", "#flash")
    # the place went to the one waiting: the event is full again, and she is offered the waiting list
    ui.wait(lambda d: "Entrar na lista de espera" in cartao(ui, titulo).get_attribute("textContent"), "her card still offers to cancel")
    assert "Você está" not in texto(ui, titulo) and "Lotado" in texto(ui, titulo), texto(ui, titulo)
    ui.step("membro: inscricao cancelada")

    # his phone, left open, still offers to leave the waiting list: pressed, the card shows his new
    # place instead (read again first), no dialog opens, and nothing is given up
    celular.click("Sair da lista de espera", cartao(celular, titulo))
    celular.wait(lambda d: "Sua situação neste evento mudou" in texto(celular, titulo), "the change is not said in the card")
    assert "Você está inscrito(a)." in texto(celular, titulo), texto(celular, titulo)
    assert not celular.driver.find_elements(By.CSS_SELECTOR, "dialog[open]")
    assert api(server, "GET", f"/api/encontros/{evento_id}", token=bruno_token)["minhaInscricao"] == "confirmada"
    celular.scroll(cartao(celular, titulo))
    celular.step("celular: a vaga chegou com a pagina aberta")

    aviso = eventually(lambda: [n for n in api(server, "GET", "/api/notificacoes", token=bruno_token)["itens"]
                                if n["tipo"] == "encontro" and n["titulo"].startswith("Você conseguiu uma vaga")],
                       "his notice of the place")
    assert titulo in aviso[0]["titulo"], aviso
    celular.menu("Notificações")
    celular.wait_heading("Notificações")
    noticia = celular.wait(lambda d: next(iter(d.find_elements(By.CSS_SELECTOR, ".inbox li[data-tipo='encontro']")), False),
                           "no event notice in the inbox")
    assert "Evento" in noticia.find_element(By.CSS_SELECTOR, ".badge").text, noticia.text
    celular.scroll(noticia)
    celular.step("celular: aviso da vaga")
    celular.press(noticia.find_element(By.CSS_SELECTOR, "a[href='/eventos']"))
    celular.wait_heading("Eventos")
    celular.choose("Unidade", unidade["nome"])
    celular.wait(lambda d: "Você está inscrito(a)." in texto(celular, titulo), "his card does not show the place")
    celular.button("Cancelar inscrição", cartao(celular, titulo))
    dele = api(server, "GET", f"/api/encontros/{evento_id}", token=bruno_token)
    assert dele["minhaInscricao"] == "confirmada" and dele.get("posicaoNaEspera") is None, dele
    no_sideways_scroll(celular)
    celular.scroll(cartao(celular, titulo))
    celular.step("celular: com vaga")

    # ---- the team sees him with the place, gives the event more places ---------------------------------------
    desk.open(f"/admin/eventos?unidade={unidade['id']}")
    desk.wait_heading("Eventos")
    card = cartao(desk, titulo)
    assert nomes(card, "inscritos") == [bruno] and nomes(card, "espera") == [], card.text
    assert "Com vaga (1 de 1)" in card.text and "Lista de espera (0)" in card.text, card.text
    equipe = na_unidade()[0]
    assert [p["usuarioId"].lower() for p in equipe["inscritos"]] == [bruno_id] and equipe["espera"] == [], equipe
    assert equipe["inscritos"][0]["nome"] == bruno, equipe
    desk.scroll(card)
    desk.step("equipe: quem vai")
    desk.click("Alterar", card)
    desk.fill("Vagas", "3", cartao(desk, titulo))
    desk.click("Salvar alterações", cartao(desk, titulo))
    desk.wait_text(f"Evento alterado: “{titulo}”.", "#flash")
    desk.wait(lambda d: "1 de 3 vagas ocupadas" in texto(desk, titulo), "the card does not show the new places")
    assert nomes(cartao(desk, titulo), "inscritos") == [bruno], texto(desk, titulo)
    assert na_unidade()[0]["vagas"] == 3
    desk.scroll(cartao(desk, titulo))
    desk.step("equipe: mais vagas")

    # ---- and cancels it, with a reason ---------------------------------------------------------------------
    desk.click("Cancelar evento", cartao(desk, titulo))
    dialog = desk.dialog()
    assert f"“{titulo}”" in dialog.text and "1 pessoa" in dialog.text, dialog.text
    desk.fill("Motivo", MOTIVO, dialog)
    desk.step("equipe: cancelar evento")
    desk.click("Cancelar evento", dialog)
    desk.wait_text(f"Evento cancelado: “{titulo}”. 1 pessoa foi avisada.", "#flash")
    desk.wait(lambda d: "Cancelado" in texto(desk, titulo) and MOTIVO in texto(desk, titulo), "the card is not cancelled")
    assert not cartao(desk, titulo).find_elements(By.CSS_SELECTOR, "[data-acao]"), texto(desk, titulo)
    [cancelado] = na_unidade()
    assert cancelado["cancelado"] is True and cancelado["motivoDoCancelamento"] == MOTIVO, cancelado
    desk.scroll(cartao(desk, titulo))
    desk.step("equipe: evento cancelado")

    # ---- he reads "Cancelado", with the reason and nothing to press --------------------------------------------
    eventually(lambda: [n for n in api(server, "GET", "/api/notificacoes", token=bruno_token)["itens"]
                        if n["tipo"] == "encontro" and n["titulo"].startswith("Evento cancelado")], "his notice of the cancellation")
    celular.open(f"/eventos?unidade={unidade['id']}")
    celular.wait_heading("Eventos")
    celular.wait(lambda d: "Cancelado" in texto(celular, titulo), "his card is not cancelled")
    assert MOTIVO in texto(celular, titulo) and "Você está" not in texto(celular, titulo), texto(celular, titulo)
    assert not cartao(celular, titulo).find_elements(By.CSS_SELECTOR, ".event__actions"), texto(celular, titulo)
    no_sideways_scroll(celular)
    celular.scroll(cartao(celular, titulo))
    celular.step("celular: evento cancelado")

    # ---- her page, left open, still offers the waiting list: the API's 409 is said in the card --------------------
    ui.expect_http(409, f"/api/encontros/{evento_id}/inscricao")
    ui.click("Entrar na lista de espera", cartao(ui, titulo))
    ui.wait(lambda d: "Este evento foi cancelado pela equipe" in texto(ui, titulo), "the refusal is not said in the card")
    assert "Cancelado" in texto(ui, titulo) and MOTIVO in texto(ui, titulo), texto(ui, titulo)
    assert not cartao(ui, titulo).find_elements(By.CSS_SELECTOR, ".event__actions"), texto(ui, titulo)
    assert api(server, "GET", f"/api/encontros/{evento_id}", token=ana_token).get("minhaInscricao") is None
    ui.scroll(cartao(ui, titulo))
    ui.step("membro: evento cancelado (409)")

    # ---- the team's page on a phone ---------------------------------------------------------------------------
    outro = api(server, "POST", "/api/admin/encontros", {
        "unidadeId": unidade["id"], "titulo": "Oficina de fotografia com celular para redes sociais e portfólio profissional",
        "local": "Sala Jabuticaba, térreo, ao lado da recepção",
        "inicio": (inicio + timedelta(days=1)).isoformat(), "fim": (inicio + timedelta(days=1, hours=2)).isoformat(), "vagas": 12,
    }, admin)
    api(server, "POST", f"/api/encontros/{outro['id']}/inscricao", token=bruno_token)
    phone = browser(size=(390, 844), mobile=True)
    open_signed_in(phone, server, server.admin, f"/admin/eventos?unidade={unidade['id']}")
    phone.wait_heading("Eventos")
    oficina = cartao(phone, "Oficina de fotografia")
    assert nomes(oficina, "inscritos") == [bruno] and "1 de 12 vagas ocupadas" in oficina.text, oficina.text
    no_sideways_scroll(phone)
    phone.step("equipe no celular: formulario")
    phone.scroll(oficina)
    phone.step("equipe no celular: evento")
    phone.click("Alterar", oficina)
    no_sideways_scroll(phone)
    phone.scroll(cartao(phone, "Oficina de fotografia").find_element(By.CSS_SELECTOR, "form.event-edit"))
    phone.step("equipe no celular: alterar")
