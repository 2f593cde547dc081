"""Tours (a prospect's guided visit of a unit, without an account).

A prospect on a phone follows "Agende um tour" from the login page (the catalog offers it too; the
member's menu has no link), chooses a unit of the test's own (tours around the clock, 30 minutes,
one at a time): the page opens on the first day with a free time. A name longer than the API takes
is refused next to "Nome" (the API's 422) and nothing is booked; a time taken by the team meanwhile
(409) is said next to the times, which are read again (that one now "Lotado"); another time is
booked: the confirmation says when and where, that it went to the e-mail, and the link to keep
(/tour/<id>), and the API has what was typed, from the site. Booking another shows the time taken.
The link shows the tour and cancels it after a confirmation; an unknown link says it was not found.

The team follows "Tours da unidade" from "Reservas do dia" (the operator's menu keeps to one row and
has no link) to the unit's day: two tours booked through the API for the next half hour (the team
books with no minimum notice) show who comes, how to reach them and what they want; one is marked
"Realizado" with a note; "Não compareceu" on the other is refused before its start (the API's 409
said in the card, which still offers it: the service refuses a no-show before the start, and no tour
can be booked in the past, so the no-show itself is left to the service's tests); that one is
cancelled with a reason, the first one's data erased. A phone lead is booked with "Agendar tour"
(the chosen day's free times) and the page moves to its day. "Horário de tours": a duration not a
multiple of 15 is refused next to the field; Sundays closed, 45 minutes and tours turned off are
saved (the API has them), and the public page then says the unit takes no tours.

The screens at 1280×800 and 390×844: the public page, the confirmation, the link's page and the
team's page with tours in every state; nothing scrolls sideways on the phone."""

from __future__ import annotations

import json
import urllib.request
import uuid
from datetime import datetime, timedelta, timezone
from zoneinfo import ZoneInfo

from selenium.webdriver.common.by import By

from journeys import ALWAYS_OPEN, api, open_signed_in, session, token, unit
from test_mail import menu_on_one_row, no_sideways_scroll
from test_visitors import field_error

TZ = "America/Sao_Paulo"
LIVRES = "#view .tour-slots button.slot"
CARTOES = "#view li.tour"
MENSAGEM = "Somos uma equipe de 3 pessoas.\nQueremos começar no mês que vem."
NOTA = "Gostou da sala 3; vai mandar a proposta para os sócios."
MOTIVO = "A unidade vai fechar mais cedo neste dia."


def instant(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def tours_unit(server, nome: str, simultaneos: int = 1) -> dict:
    """A unit of the test's own taking tours around the clock, 30 minutes each."""
    unidade = unit(server, nome)
    api(server, "PUT", f"/api/admin/unidades/{unidade['id']}/tours",
        {"ativo": True, "duracaoMinutos": 30, "simultaneos": simultaneos, "horario": ALWAYS_OPEN}, token(server, server.admin))
    return unidade


def with_key(server, path: str, body: dict, bearer: str | None = None) -> dict:
    """A POST with an Idempotency-Key (the tours' contract asks for one)."""
    headers = {"Content-Type": "application/json", "Idempotency-Key": str(uuid.uuid4())}
    if bearer:
        headers["Authorization"] = f"Bearer {bearer}"
    request = urllib.request.Request(f"{server.url}{path}", method="POST", headers=headers, data=json.dumps(body).encode())
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read().decode())


def phone_lead(server, unidade: dict, inicio: datetime, nome: str, **extra) -> dict:
    """A tour the team books (POST /api/admin/tours: no minimum notice)."""
    body = {"unidadeId": unidade["id"], "inicio": inicio.isoformat(), "nome": nome,
            "email": f"{nome.split()[0].lower()}.{uuid.uuid4().hex[:6]}@exemplo.com.br", **extra}
    return with_key(server, "/api/admin/tours", body, token(server, server.admin))


def next_half_hour(after: timedelta) -> datetime:
    """The first :00 or :30 at least `after` from now (São Paulo's offset is whole hours)."""
    t = datetime.now(timezone.utc) + after
    t = t.replace(second=0, microsecond=0)
    if t.minute % 30:
        t += timedelta(minutes=30 - t.minute % 30)
    return t.astimezone(ZoneInfo(TZ))


def day_tours(server, unidade: dict, dia: str) -> list[dict]:
    """The unit's day (GET /api/admin/tours: the contract says a list, the server answers a page; either is read)."""
    answer = api(server, "GET", f"/api/admin/tours?unidade={unidade['id']}&data={dia}", token=token(server, server.admin))
    return answer if isinstance(answer, list) else answer["itens"]


def free_slots(ui, at_least: int):
    """The free times of the chosen day (the next day's when it has fewer than `at_least`)."""
    ui.wait(lambda d: d.find_elements(By.CSS_SELECTOR, LIVRES), "no free time on the page")
    slots = ui.driver.find_elements(By.CSS_SELECTOR, LIVRES)
    if len(slots) < at_least:
        dia = chosen_day(ui)
        proximo = ui.driver.find_element(By.CSS_SELECTOR, f"#view .tour-day[data-dia='{dia}'] + .tour-day")
        ui.press(proximo)
        ui.wait(lambda d: chosen_day(ui) != dia and len(d.find_elements(By.CSS_SELECTOR, LIVRES)) >= at_least, "no day with free times")
        ui.wait_idle()
        slots = ui.driver.find_elements(By.CSS_SELECTOR, LIVRES)
    return slots


def chosen_day(ui) -> str:
    return ui.driver.find_element(By.CSS_SELECTOR, "#view .tour-day[aria-pressed='true']").get_attribute("data-dia")


def slot_button(ui, inicio: str):
    return ui.wait(lambda d: next((b for b in d.find_elements(By.CSS_SELECTOR, LIVRES) if b.get_attribute("data-inicio") == inicio), False),
                   f"no free time {inicio}")


def full_slot(ui, inicio: str):
    return ui.wait(lambda d: next((s for s in d.find_elements(By.CSS_SELECTOR, "#view .tour-slots .slot--ocupado")
                                   if s.get_attribute("data-inicio") == inicio), False), f"{inicio} is not shown full")


def times_error(ui) -> str:
    return ui.driver.find_element(By.CSS_SELECTOR, "#view [data-field=inicio] .field__error").text


def fill_prospect(ui, nome: str, email: str) -> None:
    ui.fill("Nome", nome)
    ui.fill("E-mail", email)
    ui.fill("Telefone", "(11) 91234-5678")
    ui.fill("Empresa", "Estúdio Aurora")
    ui.choose("Interesse", "Sala privativa")
    ui.fill("Quantas pessoas vêm", "3")
    ui.fill("Mensagem", MENSAGEM)


def card(ui, text: str):
    return ui.row(text, CARTOES)


def card_by_id(ui, tour_id: str):
    return ui.wait(lambda d: next(iter(d.find_elements(By.CSS_SELECTOR, f"{CARTOES}[data-tour='{tour_id.lower()}']")), False), f"no card of {tour_id}")


def card_text(ui, text: str) -> str:
    return " ".join(card(ui, text).text.split())


def test_a_prospect_books_a_tour_on_a_phone_keeps_the_link_and_cancels_it(browser, server):
    sufixo = uuid.uuid4().hex[:4]
    unidade = tours_unit(server, f"CoworkFlow Tour {sufixo}")
    nome = f"Ana Souza {sufixo}"
    email = f"ana.{sufixo}@exemplo.com.br"

    ui = browser(size=(390, 844), mobile=True)
    # the catalog offers it to someone signed out
    ui.open("/")
    ui.wait_heading("Encontre um espaço")
    assert ui.driver.find_elements(By.CSS_SELECTOR, "#view a[href='/tour']"), "the catalog has no link to /tour"
    no_sideways_scroll(ui)
    ui.step("celular: catalogo")
    # and so does the login page, which is followed
    ui.open("/entrar")
    ui.wait_heading("Entrar")
    ui.step("celular: entrar")
    ui.click_link("Agende um tour", "#view")
    ui.wait_heading("Agende um tour")
    assert not ui.driver.find_elements(By.CSS_SELECTOR, "#menu a[href='/tour']")
    ui.choose("Unidade", unidade["nome"])
    ui.wait_text("Rua Augusta, 500", "#view .tour-form__address")
    slots = free_slots(ui, 4)
    # not the first ones: a time less than an hour away is refused, and the test takes a while
    primeiro, segundo = slots[2].get_attribute("data-inicio"), slots[3].get_attribute("data-inicio")
    dia = chosen_day(ui)
    assert instant(primeiro).astimezone(ZoneInfo(TZ)).date().isoformat() == dia
    assert "No horário de São Paulo, o da unidade. Cada tour dura 30 min." in ui.driver.find_element(By.CSS_SELECTOR, "#view [data-field=inicio]").text
    no_sideways_scroll(ui)
    ui.step("celular: dias e horarios")

    # no time chosen: said next to the times
    ui.fill("Nome", nome)
    ui.click("Agendar tour", "#view form")
    ui.wait(lambda d: "Escolha um horário" in times_error(ui), "no error by the times")

    # a name longer than the API takes: its 422, next to "Nome"; nothing booked
    ui.press(slot_button(ui, primeiro))
    ui.wait_text("Horário escolhido:", "#view .tour-form__choice")
    fill_prospect(ui, nome, email)
    campo = ui.control("Nome")
    ui.driver.execute_script("arguments[0].removeAttribute('maxlength')", campo)
    ui.fill("Nome", "A" * 130)
    ui.expect_http(422, "/api/tours")
    ui.click("Agendar tour", "#view form")
    ui.wait(lambda d: ui.control("Nome").get_attribute("aria-invalid") == "true", "no error by the name")
    assert field_error(ui, "Nome"), "the 422 is not said next to the name"
    assert day_tours(server, unidade, dia) == []
    ui.scroll(ui.control("Nome"))
    ui.step("celular: nome longo demais (422)")

    # the team takes the chosen time meanwhile: the 409 is said by the times, read again
    ui.fill("Nome", nome)
    phone_lead(server, unidade, instant(primeiro), f"Outra Pessoa {sufixo}")
    ui.expect_http(409, "/api/tours")
    ui.click("Agendar tour", "#view form")
    ui.wait(lambda d: "acabou de ser preenchido" in times_error(ui), "the 409 is not said next to the times")
    full_slot(ui, primeiro)
    assert ui.value("E-mail") == email, "what was typed was lost"
    ui.scroll(full_slot(ui, primeiro))
    ui.step("celular: horario lotado (409)")

    # another time: booked
    ui.press(slot_button(ui, segundo))
    ui.click("Agendar tour", "#view form")
    ui.wait_text("Tour agendado!", "#view .tour-done")
    done = ui.driver.find_element(By.CSS_SELECTOR, "#view .tour-done")
    texto = " ".join(done.text.split())
    assert f"Enviamos a confirmação para {email}" in texto, texto
    assert unidade["nome"] in texto and "Rua Augusta" in texto and "Guarde este link para ver ou cancelar o tour" in texto, texto
    hora = instant(segundo).astimezone(ZoneInfo(TZ)).strftime("%H:%M")
    assert f"das {hora} às" in texto, texto
    url = done.find_element(By.CSS_SELECTOR, "a.tour-done__url")
    tour_id = url.get_attribute("href").rsplit("/tour/", 1)[1]
    assert url.text == f"{server.url}/tour/{tour_id}", url.text
    [outro, meu] = sorted(day_tours(server, unidade, dia), key=lambda t: t["inicio"])
    assert meu["id"].lower() == tour_id.lower(), (meu, tour_id)
    assert instant(meu["inicio"]) == instant(segundo), meu
    assert (meu["origem"], meu.get("nome"), meu.get("email"), meu.get("telefone"), meu.get("empresa"), meu.get("interesse"), meu["pessoas"], meu.get("mensagem"), meu["situacao"]) == \
        ("site", nome, email, "(11) 91234-5678", "Estúdio Aurora", "sala_privativa", 3, MENSAGEM, "agendado"), meu
    assert outro["origem"] == "equipe" and instant(outro["inicio"]) == instant(primeiro), outro
    no_sideways_scroll(ui)
    ui.step("celular: tour agendado")

    # booking another: the time just booked is full (one at a time)
    ui.click("Agendar outro tour")
    ui.wait_heading("Agende um tour")
    ui.wait(lambda d: chosen_day(ui) == dia, "the page did not keep the day")
    full_slot(ui, segundo)
    ui.scroll(full_slot(ui, segundo))
    ui.step("celular: o horario agendado ficou lotado")

    # the link: the tour, and cancelling it
    ui.open(f"/tour/{tour_id}")
    ui.wait_heading("Seu tour")
    detalhe = ui.wait_text("Agendado", "#view .tour-detail")
    assert unidade["nome"] in detalhe.text and nome in detalhe.text and hora in detalhe.text, detalhe.text
    no_sideways_scroll(ui)
    ui.step("celular: o link do tour")
    ui.click("Cancelar tour", "#view")
    dialog = ui.dialog()
    assert unidade["nome"] in dialog.text, dialog.text
    ui.step("celular: cancelar o tour")
    ui.click("Cancelar tour", dialog)
    ui.wait_text("Tour cancelado.", "#flash")
    ui.wait_text("Este tour foi cancelado.", "#view .tour-detail")
    assert "Cancelado" in ui.driver.find_element(By.CSS_SELECTOR, "#view .tour-detail .badge").text
    assert not [b for b in ui.driver.find_elements(By.CSS_SELECTOR, "#view button") if b.is_displayed()], "something is still offered"
    assert api(server, "GET", f"/api/tours/{tour_id}")["situacao"] == "cancelado"
    ui.step("celular: tour cancelado")

    # a link that names no tour
    ui.expect_http(404, "/api/tours/")
    ui.open(f"/tour/{uuid.uuid4()}")
    ui.wait_heading("Seu tour")
    ui.wait_text("Tour não encontrado.", "#view")
    ui.step("celular: tour nao encontrado")


def test_the_team_runs_the_day_of_tours_books_a_phone_lead_and_sets_the_tour_hours(browser, server):
    sufixo = uuid.uuid4().hex[:4]
    unidade = tours_unit(server, f"CoworkFlow Visitas {sufixo}", simultaneos=3)
    admin_id = session(server, server.admin)["usuario"]["id"].lower()
    carla = f"Carla Mendes {sufixo}"
    diego = f"Diego Rocha {sufixo}"
    elisa = f"Elisa Prado {sufixo}"
    # within the hour (so "Realizado" is taken) but not begun (so "Não compareceu" is not)
    inicio = next_half_hour(timedelta(minutes=5))
    t1 = phone_lead(server, unidade, inicio, carla, telefone="+55 11 98888-7777", empresa="Lima & Filhos",
                    interesse="sala_de_reuniao", pessoas=2, mensagem="Precisa de sala para 8 pessoas.")
    t2 = phone_lead(server, unidade, inicio, diego)
    dia = t1["dia"]
    hora = inicio.strftime("%H:%M")

    desk = browser(size=(1280, 900))
    open_signed_in(desk, server, server.admin, f"/admin/reservas?unidade={unidade['id']}&data={dia}")
    desk.wait_heading("Reservas do dia")
    # the desk's day says how many tours it holds, beside the way to them
    desk.wait(lambda d: d.find_element(By.CSS_SELECTOR, "#view .day-board__tours").text == "2 tours agendados neste dia",
              "no count of the day's tours")
    desk.step("equipe: reservas do dia")
    desk.click_link("Tours da unidade", "#view")
    desk.wait_heading("Tours")
    menu_on_one_row(desk)
    assert not desk.driver.find_elements(By.CSS_SELECTOR, "#menu a[href^='/admin/tours']")
    assert desk.value("Unidade") == unidade["nome"]
    assert f"data={dia}" in desk.driver.current_url
    texto = card_text(desk, carla)
    for parte in (f"{hora}–", "Agendado", "Pela equipe", "pela equipe (", "2 pessoas", "+55 11 98888-7777", "Lima & Filhos",
                  "Sala de reunião", "Precisa de sala para 8 pessoas.", f"“Não compareceu” a partir das {hora}"):
        assert parte in texto, (parte, texto)
    links = {a.get_attribute("href") for a in card(desk, carla).find_elements(By.CSS_SELECTOR, "a")}
    assert f"mailto:{t1['email']}" in links and "tel:+5511988887777" in links, links
    desk.scroll(card(desk, carla))
    desk.step("equipe: tours do dia")
    # the desk's form offers the day's times not begun (a prospect at the desk), not only those an
    # hour on as the site does
    agora = datetime.now(ZoneInfo(TZ))
    if dia == agora.date().isoformat() and agora.hour < 23:
        horario = desk.control("Horário", desk.wait_text(f"Agendar tour em {unidade['nome']}", "#view form"))
        desk.wait(lambda d: [o for o in horario.find_elements(By.TAG_NAME, "option") if o.get_attribute("value")], "no times in the desk's form")
        primeiro = min(instant(o.get_attribute("value")) for o in horario.find_elements(By.TAG_NAME, "option") if o.get_attribute("value"))
        assert primeiro < agora + timedelta(hours=1), (primeiro, agora)
        assert "ainda não começaram" in desk.driver.find_element(By.CSS_SELECTOR, "#view [data-field=inicio]").text

    # Carla came: "Realizado", with a note
    desk.click("Realizado", card(desk, carla))
    dialog = desk.dialog()
    assert carla in dialog.text, dialog.text
    desk.fill("Nota", NOTA, dialog)
    desk.step("equipe: marcar como realizado")
    desk.click("Marcar como realizado", dialog)
    desk.wait_text(f"Tour marcado como realizado: {carla}.", "#flash")
    desk.wait(lambda d: "Realizado — registrado em" in card_text(desk, carla), "the card is not done")
    assert NOTA in card_text(desk, carla)
    assert not card(desk, carla).find_elements(By.CSS_SELECTOR, "[data-acao=realizado], [data-acao=ausente], [data-acao=cancelar]")
    feito = next(t for t in day_tours(server, unidade, dia) if t["id"] == t1["id"])
    assert (feito["situacao"], feito.get("nota"), (feito.get("concluidoPor") or "").lower()) == ("realizado", NOTA, admin_id), feito
    desk.step("equipe: realizado")

    # Diego's has not begun: "Não compareceu" is refused, said in the card, which still offers it
    desk.click("Não compareceu", card(desk, diego))
    dialog = desk.dialog()
    desk.expect_http(409, f"/api/admin/tours/{t2['id']}/ausencia")
    desk.click("Registrar ausência", dialog)
    desk.wait(lambda d: "Ainda é cedo" in card_text(desk, diego), "the 409 is not said in the card")
    assert f"a partir do início do tour, às {hora}" in card_text(desk, diego), card_text(desk, diego)
    assert "Agendado" in card_text(desk, diego)
    desk.button("Não compareceu", card(desk, diego))
    assert next(t for t in day_tours(server, unidade, dia) if t["id"] == t2["id"])["situacao"] == "agendado"
    desk.step("equipe: ausencia cedo demais (409)")

    # ...so it is cancelled, with a reason
    desk.click("Cancelar", card(desk, diego))
    dialog = desk.dialog()
    desk.fill("Motivo", MOTIVO, dialog)
    desk.click("Cancelar tour", dialog)
    desk.wait_text(f"Tour cancelado: {diego}. Avisamos a pessoa por e-mail.", "#flash")
    desk.wait(lambda d: "Cancelado em" in card_text(desk, diego), "the card is not cancelled")
    assert MOTIVO in card_text(desk, diego) and "pela equipe" in card_text(desk, diego)
    cancelado = next(t for t in day_tours(server, unidade, dia) if t["id"] == t2["id"])
    assert (cancelado["situacao"], cancelado.get("motivo"), (cancelado.get("canceladoPor") or "").lower()) == ("cancelado", MOTIVO, admin_id), cancelado
    desk.step("equipe: tour cancelado")

    # Carla's data erased
    desk.click("Apagar dados", card(desk, carla))
    dialog = desk.dialog()
    assert "não dá para desfazer" in dialog.text.lower(), dialog.text
    desk.click("Apagar dados", dialog)
    desk.wait_text("Dados apagados", "#flash")
    desk.wait(lambda d: "Os dados da pessoa foram apagados." in " ".join(card_by_id(desk, t1["id"]).text.split()), "the card still names her")
    assert "Dados apagados" in card_by_id(desk, t1["id"]).find_element(By.CSS_SELECTOR, ".tour__title").text
    assert not card_by_id(desk, t1["id"]).find_elements(By.CSS_SELECTOR, "[data-acao]"), "the erased tour still offers something"
    apagado = next(t for t in day_tours(server, unidade, dia) if t["id"] == t1["id"])
    assert apagado["dadosApagados"] is True and all(apagado.get(k) is None for k in ("nome", "email", "telefone", "empresa", "mensagem", "nota")), apagado
    assert carla not in desk.driver.find_element(By.CSS_SELECTOR, "#view .tours").text
    desk.step("equipe: dados apagados")

    # a phone lead, the day after: its day is shown, with the new tour
    amanha = (datetime.fromisoformat(dia) + timedelta(days=1)).date().isoformat()
    form = desk.wait_text(f"Agendar tour em {unidade['nome']}", "#view form")
    desk.set_value("Dia do tour", amanha)
    horario = desk.control("Horário", form)
    desk.wait(lambda d: len([o for o in horario.find_elements(By.TAG_NAME, "option") if o.get_attribute("value") and o.is_enabled()]) > 2,
              "no free times for the phone lead")
    opcao = [o for o in horario.find_elements(By.TAG_NAME, "option") if o.get_attribute("value") and o.is_enabled()][2]
    desk.choose("Horário", opcao.text, form)
    escolhido = opcao.get_attribute("value")
    desk.fill("E-mail", f"elisa.{sufixo}@exemplo.com.br", form)
    desk.click("Agendar tour", form)
    # no name: said next to it
    desk.wait(lambda d: desk.control("Nome", form).get_attribute("aria-invalid") == "true", "no error by the name")
    assert "Informe o nome" in field_error(desk, "Nome")
    desk.fill("Nome", elisa, form)
    desk.fill("Telefone", "11 3333-4444", form)
    desk.choose("Interesse", "Escritório virtual", form)
    desk.click("Agendar tour", form)
    desk.wait_text(f"Tour agendado: {elisa}", "#flash")
    desk.wait(lambda d: f"data={amanha}" in d.current_url, "the page did not move to the tour's day")
    texto = card_text(desk, elisa)
    assert "pela equipe (" in texto and "Escritório virtual" in texto and "11 3333-4444" in texto, texto
    [lead] = day_tours(server, unidade, amanha)
    assert (lead["origem"], lead["nome"], (lead.get("agendadoPor") or "").lower(), lead.get("interesse")) == ("equipe", elisa, admin_id, "escritorio_virtual"), lead
    assert instant(lead["inicio"]) == instant(escolhido), (lead, escolhido)
    assert desk.value("Nome") == "", "the form kept the name"
    desk.scroll(card(desk, elisa))
    desk.step("equipe: tour agendado por telefone")

    # the unit's tour hours
    config = desk.wait_text(f"Horário de tours de {unidade['nome']}", "#view form")
    assert desk.control("Recebe tours", config).is_selected()
    assert desk.value("Duração de cada tour (minutos)") == "30" and desk.value("Tours ao mesmo tempo") == "3"
    desk.fill("Duração de cada tour (minutos)", "50", config)
    desk.click("Salvar horário de tours", config)
    desk.wait(lambda d: desk.control("Duração de cada tour (minutos)").get_attribute("aria-invalid") == "true", "no error by the duration")
    assert "de 15 em 15" in field_error(desk, "Duração de cada tour (minutos)")
    desk.fill("Duração de cada tour (minutos)", "45", config)
    desk.fill("E-mail da equipe", f"recepcao.{sufixo}@exemplo.com.br", config)
    desk.scroll(desk.control("E-mail da equipe", config))
    desk.step("equipe: e-mail da equipe")
    domingo = config.find_element(By.CSS_SELECTOR, "fieldset[data-dia=domingo]")
    desk.click("Remover faixa", domingo)
    desk.wait(lambda d: "Fechado" in domingo.text, "Sunday is not closed")
    desk.press(desk.control("Recebe tours", config))
    desk.scroll(domingo)
    desk.step("equipe: horario de tours")
    desk.click("Salvar horário de tours", config)
    desk.wait_text(f"Horário de tours salvo. {unidade['nome']} não está recebendo tours.", "#flash")
    salvo = api(server, "GET", f"/api/admin/unidades/{unidade['id']}/tours", token=token(server, server.admin))
    assert (salvo["ativo"], salvo["duracaoMinutos"], salvo["simultaneos"]) == (False, 45, 3), salvo
    assert salvo.get("emailDaEquipe") == f"recepcao.{sufixo}@exemplo.com.br", salvo
    assert not salvo["horario"].get("domingo"), salvo
    assert salvo["horario"]["segunda"] == [{"abre": 0, "fecha": 1440}], salvo
    assert not desk.control("Recebe tours").is_selected()

    # the public page says the unit takes no tours, and offers nothing to fill in
    desk.open(f"/tour?unidade={unidade['id']}")
    desk.wait_heading("Agende um tour")
    desk.wait_text(f"{unidade['nome']} não está recebendo tours no momento.", "#view")
    assert not [b for b in desk.driver.find_elements(By.CSS_SELECTOR, "#view button") if b.is_displayed()], "the page still offers times"
    desk.step("publico: unidade sem tours")


def test_the_tour_screens_on_a_desktop_and_a_phone(browser, server):
    sufixo = uuid.uuid4().hex[:4]
    unidade = tours_unit(server, f"CoworkFlow Jardins e Arredores {sufixo}", simultaneos=2)
    inicio = next_half_hour(timedelta(minutes=5))
    feito = phone_lead(server, unidade, inicio, f"Fernanda Albuquerque Cavalcanti {sufixo}", pessoas=4, empresa="Cavalcanti Arquitetura e Urbanismo Ltda",
                       interesse="posicao_fixa", telefone="+55 (21) 99999-0000",
                       mensagem="Somos quatro arquitetos e precisamos de mesas grandes para pranchas; queremos ver a luz da tarde.")
    with_key(server, f"/api/admin/tours/{feito['id']}/realizacao", {"nota": "Quer voltar com os sócios na sexta."}, token(server, server.admin))
    # the other two later the same day (the page shows one day): at 23:30 at the latest, beside the
    # first when the day has no later half hour (two groups at a time; the cancelled one frees its place)
    ultimo = inicio.replace(hour=23, minute=30)
    cancelado = phone_lead(server, unidade, min(inicio + timedelta(hours=2), ultimo), f"Gustavo Lima {sufixo}")
    with_key(server, f"/api/admin/tours/{cancelado['id']}/cancelamento", {"motivo": "Pediu para remarcar."}, token(server, server.admin))
    phone_lead(server, unidade, min(inicio + timedelta(hours=3), ultimo), f"Helena Martins {sufixo}", interesse="escritorio_virtual")
    dia = feito["dia"]

    for size, mobile, nome in (((1280, 800), False, "desktop"), ((390, 844), True, "celular")):
        ui = browser(size=size, mobile=mobile)
        ui.open(f"/tour?unidade={unidade['id']}")
        ui.wait_heading("Agende um tour")
        slots = free_slots(ui, 3)
        if mobile:
            no_sideways_scroll(ui)
        ui.step(f"{nome}: agende um tour")
        if not mobile:
            ui.press(slots[2])
            fill_prospect(ui, f"Irene Duarte {sufixo}", f"irene.{sufixo}@exemplo.com.br")
            ui.scroll(ui.control("Mensagem"))
            ui.step(f"{nome}: formulario preenchido")
            ui.click("Agendar tour", "#view form")
            ui.wait_text("Tour agendado!", "#view .tour-done")
            link = ui.driver.find_element(By.CSS_SELECTOR, "#view a.tour-done__url").get_attribute("href")
            ui.step(f"{nome}: tour agendado")
        ui.open(link.replace(server.url, ""))
        ui.wait_heading("Seu tour")
        ui.wait_text("Agendado", "#view .tour-detail")
        if mobile:
            no_sideways_scroll(ui)
        ui.step(f"{nome}: o link do tour")
        open_signed_in(ui, server, server.admin, f"/admin/tours?unidade={unidade['id']}&data={dia}")
        ui.wait_heading("Tours")
        card(ui, "Fernanda Albuquerque")
        if mobile:
            no_sideways_scroll(ui)
        ui.step(f"{nome}: tours do dia")
        ui.scroll(card(ui, "Gustavo Lima"))
        ui.step(f"{nome}: tours do dia (cancelado)")
        ui.scroll(ui.wait_text(f"Agendar tour em {unidade['nome']}", "#view form"))
        ui.step(f"{nome}: agendar tour")
        ui.scroll(ui.wait_text(f"Horário de tours de {unidade['nome']}", "#view form"))
        ui.step(f"{nome}: horario de tours")
        ui.scroll(ui.driver.find_element(By.CSS_SELECTOR, "#view fieldset[data-dia=domingo]"))
        ui.step(f"{nome}: horario de tours (domingo)")
