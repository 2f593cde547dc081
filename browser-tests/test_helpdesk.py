"""The help desk ("Chamados"): a member follows "Abrir um chamado" from "Minhas reservas" (the menu
keeps to one row at 1280 px and has no link to it) to "Meus chamados", and reports that the
internet is down in a unit of the test's own: with a blank subject the API's 422 is said next to
"Assunto" and nothing is opened; then the request is listed under "Abertos" ("Aguardando a
equipe", the category, the unit) as the API has it (hers, at the unit, waiting for the team). The
front desk's "Chamados" section of "Reservas do dia" for that unit lists it (the member's name,
the category, how long ago, whose turn), opens its conversation and replies ("Aguardando o
membro"). While the desk writes a second reply, the member (told on "Minhas reservas" and in the
inbox, whose notice links to the page) reads the team's answer in the conversation opened for
her ("Você", "Equipe") and replies; the desk's 15 s refresh shows her reply in place, with the
desk's text and focus kept in its reply box. The desk sends it, the member marks the request
resolved (after a confirmation) and reads it under "Resolvidos"; the desk's list then empties by
itself. Another member sees nothing of hers and the desk's list refuses a member. On a phone the
member replies to the resolved request, which reopens it, and the desk's section and the member's
page fit the screen."""

from __future__ import annotations

import urllib.error
import uuid

from selenium.webdriver.common.by import By

from journeys import api, eventually, member, open_signed_in, session, token, unit
from test_mail import menu_on_one_row, no_sideways_scroll
from test_visitors import field_error

ABERTOS = "section[aria-labelledby='chamados-abertos'] li.ticket"
RESOLVIDOS = "section[aria-labelledby='chamados-resolvidos'] li.ticket"
NA_RECEPCAO = ".help-desk li.ticket"

ASSUNTO = "A internet caiu na sala 3"
DESCRICAO = "Desde as 9h o Wi-Fi da sala 3 não conecta, e o cabo da mesa também não."
RESPOSTA = "Reiniciamos o roteador da sala 3. Pode testar de novo?"
REPLICA = "Continua sem conectar no meu notebook."
RASCUNHO = "Vamos trocar o cabo da mesa ainda hoje."


def abrir(ui, item):
    """Opens a request's conversation (its subject is the button) unless it is open."""
    toggle = item.find_element(By.CSS_SELECTOR, ".ticket__toggle")
    if toggle.get_attribute("aria-expanded") != "true":
        ui.press(toggle)
        ui.wait(lambda d: toggle.get_attribute("aria-expanded") == "true", "the conversation did not open")
    return toggle


def falas(item) -> list[tuple[str, str]]:
    """The conversation as (who wrote it, text), the description first."""
    return [(" ".join(m.find_element(By.CSS_SELECTOR, ".thread__who strong").get_attribute("textContent").split()),
             m.find_element(By.CSS_SELECTOR, ".thread__text").get_attribute("textContent"))
            for m in item.find_elements(By.CSS_SELECTOR, ".thread__msg")]


def refused(server, method: str, path: str, body, bearer: str) -> int:
    try:
        api(server, method, path, body, bearer)
    except urllib.error.HTTPError as error:
        return error.code
    raise AssertionError(f"{method} {path} answered another member")


def test_a_member_reports_a_problem_and_the_front_desk_answers_until_it_is_resolved(browser, server):
    sufixo = uuid.uuid4().hex[:4]
    unidade = unit(server, f"CoworkFlow Chamados {sufixo}")
    helena = f"Helena Prado {sufixo}"
    helena_email, helena_senha, helena_token = member(server, helena)
    helena_id = session(server, (helena_email, helena_senha))["usuario"]["id"].lower()
    admin = token(server, server.admin)
    admin_id = session(server, server.admin)["usuario"]["id"].lower()

    def dela() -> dict:
        return api(server, "GET", "/api/chamados", token=helena_token)

    def na_unidade(situacao: str = "abertos") -> list[dict]:
        return api(server, "GET", f"/api/admin/chamados?unidade={unidade['id']}&situacao={situacao}", token=admin)["itens"]

    # ---- the member opens a request, from "Minhas reservas" ---------------------------------------------
    ui = browser(size=(1280, 900))
    open_signed_in(ui, server, (helena_email, helena_senha), "/reservas")
    ui.wait_heading("Minhas reservas")
    ui.wait_text("Algo não está funcionando na unidade?", "#view")
    ui.click_link("Abrir um chamado", "#view")
    ui.wait_heading("Meus chamados")
    menu_on_one_row(ui)
    assert not ui.driver.find_elements(By.CSS_SELECTOR, "#menu a[href='/chamados']")
    form = ui.wait_text("Abrir um chamado", "#view form")
    ui.wait_text("Nenhum chamado aberto.")
    ui.wait_text("Nenhum chamado resolvido ainda.")
    ui.step("meus chamados: nenhum")

    # a blank subject: the API's 422 is said next to it, and nothing is opened
    ui.choose("Unidade", unidade["nome"])
    ui.choose("Categoria", "Internet e rede")
    ui.fill("Descrição", DESCRICAO)
    ui.expect_http(422, "/api/chamados")
    ui.click("Abrir chamado", form)
    ui.wait(lambda d: ui.control("Assunto").get_attribute("aria-invalid") == "true", "no error by the subject")
    assert field_error(ui, "Assunto"), "the subject's error slot is empty"
    assert dela()["abertos"] == []
    ui.scroll(form)
    ui.step("chamado: assunto em branco")

    ui.fill("Assunto", ASSUNTO)
    ui.click("Abrir chamado", form)
    ui.wait_text(f"Chamado aberto: “{ASSUNTO}”.", "#flash")
    item = ui.row(ASSUNTO, ABERTOS)
    assert all(t in item.text for t in ("Aguardando a equipe", "Internet e rede", unidade["nome"], "Aberto em")), item.text
    assert ui.active_element_text() == ASSUNTO, ui.active_element_text()
    assert ui.value("Assunto") == "" and ui.value("Descrição") == ""
    assert not ui.driver.find_elements(By.CSS_SELECTOR, "#view form [aria-invalid=true]")
    [chamado] = dela()["abertos"]
    assert chamado["usuarioId"].lower() == helena_id and chamado["unidadeId"].lower() == unidade["id"].lower(), chamado
    assert (chamado["categoria"], chamado["assunto"], chamado["descricao"], chamado["situacao"], chamado["aguardando"]) == \
        ("internet", ASSUNTO, DESCRICAO, "aberto", "equipe"), chamado
    assert chamado["autor"] == helena and chamado["mensagens"] == [], chamado
    chamado_id = chamado["id"]
    assert falas(item) == [("Você", DESCRICAO)], falas(item)
    ui.step("chamado aberto")

    # ---- the desk sees it in its section and replies -----------------------------------------------------
    desk = browser(size=(1280, 900))
    open_signed_in(desk, server, server.admin, f"/admin/reservas?unidade={unidade['id']}")
    desk.wait_heading("Reservas do dia")
    secao = desk.wait_text(f"relataram em {unidade['nome']}", ".help-desk")
    card = desk.row(ASSUNTO, NA_RECEPCAO)
    assert card.get_attribute("data-chamado").lower() == chamado_id.lower()
    assert all(t in card.text for t in (helena, "Internet e rede", "Aguardando a equipe", "Aberto há")), card.text
    abrir(desk, card)
    assert falas(card) == [(helena, DESCRICAO)], falas(card)
    desk.scroll(secao)
    desk.step("recepcao: chamado aberto")
    desk.fill("Resposta ao membro", RESPOSTA, card)
    desk.click("Responder", card)
    desk.wait_text(f"Resposta enviada a {helena}; o membro foi avisado.", "#flash")
    desk.wait(lambda d: "Aguardando o membro" in card.text, "the card still waits for the team")
    assert falas(card)[-1][1] == RESPOSTA and falas(card)[-1][0].startswith("Equipe"), falas(card)
    assert desk.control("Resposta ao membro", card).get_attribute("value") == ""
    [respondido] = na_unidade()
    assert respondido["aguardando"] == "membro", respondido
    assert [(m["daEquipe"], m["texto"], m["por"].lower()) for m in respondido["mensagens"]] == [(True, RESPOSTA, admin_id)], respondido
    desk.scroll(card)
    desk.step("recepcao: resposta enviada")

    # the desk starts a second reply and keeps the focus in it
    caixa = desk.control("Resposta ao membro", card)
    caixa.send_keys(RASCUNHO)
    antes = desk.driver.find_element(By.CSS_SELECTOR, ".help-desk").get_attribute("data-atualizado-em")

    # ---- the member reads the answer: on "Minhas reservas", in the inbox, on the page --------------------
    eventually(lambda: [n for n in api(server, "GET", "/api/notificacoes", token=helena_token)["itens"] if n["tipo"] == "chamado"],
               "the member's notice of the reply")
    ui.open("/reservas")
    ui.wait_heading("Minhas reservas")
    ui.wait_text("A equipe respondeu a um chamado seu.", "#view")
    ui.step("minhas reservas: a equipe respondeu")
    ui.menu("Notificações")
    ui.wait_heading("Notificações")
    aviso = ui.wait(lambda d: next(iter(d.find_elements(By.CSS_SELECTOR, ".inbox li[data-tipo='chamado']")), False),
                    "no help-desk notice in the inbox")
    assert "Chamado" in aviso.find_element(By.CSS_SELECTOR, ".badge").text, aviso.text
    ui.scroll(aviso)
    ui.step("aviso de chamado")
    ui.press(aviso.find_element(By.CSS_SELECTOR, "a[href='/chamados']"))
    ui.wait_heading("Meus chamados")
    item = ui.row(ASSUNTO, ABERTOS)
    assert "Respondido pela equipe" in item.text, item.text
    # the team's answer is what she came for: that conversation is open
    assert item.find_element(By.CSS_SELECTOR, ".ticket__toggle").get_attribute("aria-expanded") == "true"
    assert falas(item) == [("Você", DESCRICAO), ("Equipe", RESPOSTA)], falas(item)
    ui.scroll(item)
    ui.step("meus chamados: resposta da equipe")
    ui.fill("Sua resposta", REPLICA, item)
    ui.click("Enviar resposta", item)
    ui.wait_text("Resposta enviada à equipe.", "#flash")
    ui.wait(lambda d: "Aguardando a equipe" in ui.row(ASSUNTO, ABERTOS).text, "her reply did not hand it back to the team")
    item = ui.row(ASSUNTO, ABERTOS)
    assert falas(item)[-1] == ("Você", REPLICA), falas(item)
    ui.step("meus chamados: resposta enviada")

    # ---- the desk's refresh shows her reply, with the desk's own text and focus kept ----------------------
    desk.wait(lambda d: d.find_element(By.CSS_SELECTOR, ".help-desk").get_attribute("data-atualizado-em") != antes
              and REPLICA in card.get_attribute("textContent"), "the refresh did not bring the member's reply", timeout=40)
    assert "Aguardando a equipe" in card.text, card.text
    assert caixa.get_attribute("value") == RASCUNHO, caixa.get_attribute("value")
    assert desk.driver.execute_script("return document.activeElement === arguments[0]", caixa), "the refresh took the focus"
    desk.step("recepcao: resposta do membro, rascunho mantido")
    desk.click("Responder", card)
    desk.wait(lambda d: "Aguardando o membro" in card.text and RASCUNHO in card.get_attribute("textContent"), "the second reply")
    eventually(lambda: len(na_unidade()[0]["mensagens"]) == 3, "the second reply in the API")

    # ---- the member marks it resolved -------------------------------------------------------------------------
    ui.open("/chamados")
    ui.wait_heading("Meus chamados")
    item = ui.row(ASSUNTO, ABERTOS)
    assert falas(item)[-1] == ("Equipe", RASCUNHO), falas(item)
    ui.click("Marcar como resolvido", item)
    dialog = ui.dialog()
    assert f"“{ASSUNTO}”" in dialog.text and "reaberto" in dialog.text, dialog.text
    ui.step("marcar como resolvido")
    ui.click("Marcar como resolvido", dialog)
    ui.wait_text("Chamado marcado como resolvido.", "#flash")
    resolvido = ui.row(ASSUNTO, RESOLVIDOS)
    assert all(t in resolvido.text for t in ("Resolvido", "Resolvido por você em", "Responder reabre o chamado")), resolvido.text
    ui.wait_text("Nenhum chamado aberto.")
    assert ui.active_element_text() == ASSUNTO, ui.active_element_text()
    depois = dela()
    assert depois["abertos"] == [] and [c["id"] for c in depois["resolvidos"]] == [chamado_id], depois
    assert depois["resolvidos"][0]["situacao"] == "resolvido" and depois["resolvidos"][0].get("aguardando") is None, depois
    assert depois["resolvidos"][0]["resolvidoPor"].lower() == helena_id, depois
    ui.scroll(resolvido)
    ui.step("meus chamados: resolvido")

    # the desk's list empties by itself (its refresh)
    desk.wait(lambda d: not d.find_elements(By.CSS_SELECTOR, NA_RECEPCAO), "the resolved request is still at the desk", timeout=40)
    desk.wait_text("Nenhum chamado aberto nesta unidade.", ".help-desk")
    assert na_unidade() == [] and [c["situacao"] for c in na_unidade("todos")] == ["resolvido"]
    desk.scroll(desk.driver.find_element(By.CSS_SELECTOR, ".help-desk"))
    desk.step("recepcao: nenhum chamado aberto")

    # ---- someone else sees nothing of hers, and cannot use the desk's list -----------------------------------
    otavio_email, otavio_senha, otavio_token = member(server, f"Otavio Reis {sufixo}")
    dele = api(server, "GET", "/api/chamados", token=otavio_token)
    assert dele["abertos"] == [] and dele["resolvidos"] == [], dele
    assert refused(server, "GET", f"/api/chamados/{chamado_id}", None, otavio_token) == 404
    assert refused(server, "POST", f"/api/chamados/{chamado_id}/mensagens", {"texto": "oi"}, otavio_token) in (403, 404)
    assert refused(server, "GET", f"/api/admin/chamados?unidade={unidade['id']}", None, otavio_token) == 403
    assert len(api(server, "GET", f"/api/chamados/{chamado_id}", token=helena_token)["mensagens"]) == 3
    outro = browser(size=(390, 844), mobile=True)
    open_signed_in(outro, server, (otavio_email, otavio_senha), "/chamados")
    outro.wait_heading("Meus chamados")
    outro.wait_text("Nenhum chamado aberto.")
    outro.wait_text("Nenhum chamado resolvido ainda.")
    # (the form's hint gives the same example, so the lists are what must hold nothing)
    assert not outro.driver.find_elements(By.CSS_SELECTOR, "#view li.ticket")
    no_sideways_scroll(outro)
    outro.step("outro membro: nada")

    # ---- on a phone: the member reopens it by replying; the desk's section and her page fit -------------------
    api(server, "POST", "/api/chamados", {
        "unidadeId": unidade["id"], "categoria": "climatizacao",
        "assunto": "O ar-condicionado da sala de reuniões do segundo andar está pingando sobre a mesa",
        "descricao": "Pinga sem parar desde a manhã, bem em cima da mesa grande; pusemos um balde embaixo.",
    }, helena_token)
    celular = browser(size=(390, 844), mobile=True)
    open_signed_in(celular, server, (helena_email, helena_senha), "/chamados")
    celular.wait_heading("Meus chamados")
    no_sideways_scroll(celular)
    celular.step("meus chamados no celular: formulario")
    resolvido = celular.row(ASSUNTO, RESOLVIDOS)
    abrir(celular, resolvido)
    celular.fill("Sua resposta", "Caiu de novo agora à tarde.", resolvido)
    celular.click("Responder e reabrir", resolvido)
    celular.wait_text("Resposta enviada: o chamado foi reaberto e voltou para a equipe.", "#flash")
    reaberto = celular.row(ASSUNTO, ABERTOS)
    assert "Aguardando a equipe" in reaberto.text, reaberto.text
    assert not celular.driver.find_elements(By.CSS_SELECTOR, RESOLVIDOS)
    assert eventually(lambda: [c for c in dela()["abertos"] if c["id"] == chamado_id], "the reopened request")[0]["situacao"] == "aberto"
    no_sideways_scroll(celular)
    celular.scroll(reaberto)
    celular.step("meus chamados no celular: reaberto")
    ar = celular.row("ar-condicionado", ABERTOS)
    abrir(celular, ar)
    no_sideways_scroll(celular)
    celular.scroll(ar)
    celular.step("meus chamados no celular: ar-condicionado")

    phone = browser(size=(390, 844), mobile=True)
    open_signed_in(phone, server, server.admin, f"/admin/reservas?unidade={unidade['id']}")
    phone.wait_heading("Reservas do dia")
    cartoes = phone.wait(lambda d: len(d.find_elements(By.CSS_SELECTOR, NA_RECEPCAO)) == 2 and d.find_elements(By.CSS_SELECTOR, NA_RECEPCAO),
                         "the desk does not list the two open requests")
    # the oldest first: the reopened request was opened before the other
    assert ASSUNTO in cartoes[0].text and "ar-condicionado" in cartoes[1].text, [c.text for c in cartoes]
    abrir(phone, cartoes[1])
    no_sideways_scroll(phone)
    phone.scroll(phone.driver.find_element(By.CSS_SELECTOR, ".help-desk"))
    phone.step("recepcao no celular: chamados")
    phone.scroll(cartoes[1].find_element(By.CSS_SELECTOR, "textarea"))
    phone.step("recepcao no celular: conversa")
