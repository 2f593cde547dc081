"""An operator lets a private office: on the space's "Locação" tab, to a company (chosen from the
list) from a coming day for three months, or to a member (found by e-mail) from today. The lease
is listed with its holder, period and state; a coming one is cancelled whole, a running one ends
early on a new last day. While let, a member sees on the space's page that it is let (not to
whom) and cannot book it, and the member who holds one finds it under "Meu plano"; the "Bloqueios" tab lists the lease with a link to its tab and offers
no "Locado" reason of its own. On a phone the tab fits the screen."""

from __future__ import annotations

import json
import urllib.error
import uuid
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

from selenium.webdriver.common.by import By

from journeys import ALWAYS_OPEN, api, eventually, member, open_signed_in, token, unit
from test_companies import empresa_com

SP = ZoneInfo("America/Sao_Paulo")


def escritorio(server, unidade: str, nome: str) -> str:
    """A private office for 4 of the unit, open around the clock, at R$ 40,00 an hour."""
    admin = token(server, server.admin)
    espaco = api(server, "POST", "/api/admin/espacos", {
        "unidadeId": unidade, "nome": nome, "tipo": "sala_privativa", "capacidade": 4,
        "regras": {"duracaoMinimaMinutos": 30, "duracaoMaximaMinutos": 600, "antecedenciaMinimaMinutos": 0, "antecedenciaMaximaDias": 90},
        "horario": ALWAYS_OPEN,
    }, admin)
    api(server, "PUT", f"/api/admin/espacos/{espaco['id']}/precos", {"porHora": 4000, "meioPeriodo": 15000, "diaria": 25000, "duracaoMinimaMinutos": 30}, admin)
    return espaco["id"]


def br(d: date) -> str:
    return d.strftime("%d/%m/%Y")


def test_an_operator_lets_a_private_office_to_a_company_and_to_a_member(browser, server):
    sufixo = uuid.uuid4().hex[:4]
    unidade = unit(server, f"CoworkFlow Locação {sufixo}")["id"]
    nome_da_sala = f"Sala 12 {sufixo}"
    sala = escritorio(server, unidade, nome_da_sala)
    gestora = member(server, f"Marta Locacao{sufixo}")
    helena_email, _, helena = member(server, f"Helena Locacao{sufixo}")
    empresa = f"Acme {sufixo}"
    empresa_com(server, gestora, [], empresa)
    hoje = datetime.now(SP).date()
    inicio = hoje + timedelta(days=40)

    ui = browser(size=(1280, 900))
    open_signed_in(ui, server, server.admin, f"/admin/espacos/{sala}/locacao")
    ui.wait_heading(f"Locação — {nome_da_sala}")
    ui.wait_text("Este espaço nunca foi locado.")
    # to the company, from a coming day, for three months
    assert ui.driver.find_element(By.CSS_SELECTOR, "input[name=tipoDeLocatario][value=empresa]").is_selected()
    ui.choose("Empresa", empresa)
    # a month from 31 January ends on February's last day
    ui.set_value("Primeiro dia", "2027-01-31")
    ui.choose("Prazo", "1 mês")
    ui.wait_text("Último dia: 28/02/2027.")
    ui.set_value("Primeiro dia", inicio.isoformat())
    ui.choose("Prazo", "3 meses")
    ultimo = date(inicio.year + (inicio.month + 2) // 12, (inicio.month + 2) % 12 + 1, inicio.day) - timedelta(days=1) \
        if inicio.day <= 28 else None
    if ultimo:
        ui.wait_text(f"Último dia: {br(ultimo)}.")
    ui.step("locacao-nova-empresa")
    ui.click("Agendar locação")
    ui.wait_text("Locação agendada", "#flash")
    linha = ui.row(f"{empresa} (empresa)")
    assert "Agendada" in linha.text and br(inicio) in linha.text, linha.text
    ui.step("locacao-agendada")

    # a member sees it let (not to whom) and cannot book it
    membro = browser(size=(1280, 900))
    dia = inicio + timedelta(days=2)
    open_signed_in(membro, server, (helena_email, "senha-forte-789"), f"/espacos/{sala}?data={dia.isoformat()}")
    sobre = membro.wait_text(f"Locado a um cliente a partir de {br(inicio)}", "#view")
    assert empresa not in sobre.text, sobre.text
    aviso = membro.wait_text("Locado a um cliente o dia todo", "#view")
    assert "Bloqueado das" not in aviso.text, aviso.text
    membro.wait(lambda d: d.find_elements(By.CSS_SELECTOR, ".slot__reason"), "the day's slots say nothing of the lease")
    assert {e.text for e in membro.driver.find_elements(By.CSS_SELECTOR, ".slot__reason")} == {"Locado"}
    membro.step("espaco-locado-para-o-membro")
    membro.open(f"/espacos?unidade={unidade}")
    cartao = membro.row(nome_da_sala, "#view li.card")
    assert f"Locado de {br(inicio)} até {br(ultimo or inicio)}" in cartao.text or (ultimo is None and "Locado de" in cartao.text), cartao.text
    membro.step("catalogo-com-o-escritorio-locado")
    inicio_da_reserva = datetime.combine(dia, datetime.min.time(), SP).replace(hour=10)
    try:
        api(server, "POST", "/api/reservas", {
            "espacoId": sala, "inicio": inicio_da_reserva.isoformat(), "fim": (inicio_da_reserva + timedelta(hours=1)).isoformat(),
        }, helena)
        raise AssertionError("a booking of the let office was accepted")
    except urllib.error.HTTPError as error:
        recusada = json.loads(error.read().decode())
        assert error.code == 422 and "locado" in recusada["mensagem"], recusada

    # to Helena herself, from today for a month; then she leaves early
    ui.press(ui.driver.find_element(By.CSS_SELECTOR, "input[name=tipoDeLocatario][value=membro]"))
    ui.fill("E-mail do membro", helena_email)
    ui.set_value("Primeiro dia", hoje.isoformat())
    ui.choose("Prazo", "1 mês")
    ui.click("Agendar locação")
    ui.wait_text("Locação agendada", "#flash")
    linha = ui.row(helena_email)
    assert "Em vigor" in linha.text and br(hoje) in linha.text, linha.text
    novo_ultimo = hoje + timedelta(days=5)
    campo = linha.find_element(By.CSS_SELECTOR, "input[name=ultimoDia]")
    ui.driver.execute_script(
        "arguments[0].value = arguments[1]; arguments[0].dispatchEvent(new Event('input', {bubbles: true}));", campo, novo_ultimo.isoformat())
    ui.click("Encerrar antes", linha)
    ui.dialog()
    ui.step("locacao-encerrar-antes")
    ui.click("Encerrar locação", "dialog[open]")
    ui.wait_text(f"Locação encerrada: o último dia é {br(novo_ultimo)}.", "#flash")
    admin = token(server, server.admin)
    bloqueios = api(server, "GET", f"/api/admin/espacos/{sala}/bloqueios", token=admin)["bloqueios"]
    dela = next(b for b in bloqueios if b.get("locatario", {}).get("usuarioId"))
    fim = datetime.fromisoformat(dela["intervalo"]["fim"].replace("Z", "+00:00")).astimezone(SP)
    assert (fim.date(), fim.hour, fim.minute) == (novo_ultimo + timedelta(days=1), 0, 0), dela
    ui.step("locacao-encerrada")

    # Helena finds it under "Meu plano"
    membro.open("/plano")
    sua = membro.wait_text("Sua locação", "#view")
    membro.wait_text(f"Locada para você, até {br(novo_ultimo)} (último dia).", "#view")
    assert nome_da_sala in sua.text, sua.text
    membro.step("meu-plano-com-a-locacao")

    # the operator's occupancy counts the let days' open hours (the office is open around the clock)
    periodo = f"de={hoje.isoformat()}&ate={novo_ultimo.isoformat()}"
    eventually(lambda: api(server, "GET", f"/api/analytics/ocupacao?espaco={sala}&{periodo}", token=admin)["espacos"][0]["horasLocadas"] == 144
               or None, "analytics does not count the lease")
    ui.open(f"/admin/indicadores?{periodo}")
    linha = ui.row(nome_da_sala, "#ocupacao-titulo + div tbody tr")
    assert "144 h" in linha.text and "100" in linha.text, linha.text
    assert "Locadas" in ui.wait_text("Horas reservadas e locadas sobre horas abertas", "#view").text
    ui.scroll(linha)
    ui.step("indicadores-com-a-locacao")
    # the week's heat map of the office: every hour of today is let
    ui.choose("Espaço", f"{nome_da_sala} (Sala privativa)")
    dia_da_semana = ["Segunda-feira", "Terça-feira", "Quarta-feira", "Quinta-feira", "Sexta-feira", "Sábado", "Domingo"][hoje.weekday()]
    titulos = ui.wait(lambda d: [t for t in d.execute_script(
        "return [...document.querySelectorAll('svg.chart--heatmap rect > title')].map((t) => t.textContent)")
        if t.startswith(f"{dia_da_semana}, 10h") and "locada" in t] or False, "no let hour in the heat map")
    assert "h locada" in titulos[0], titulos
    ui.scroll(ui.driver.find_element(By.CSS_SELECTOR, "svg.chart--heatmap"))
    ui.step("indicadores-semana-com-a-locacao")
    ui.open(f"/admin/espacos/{sala}/locacao")
    ui.wait_text(helena_email, "#view")

    # the company's coming lease is cancelled whole
    linha = ui.row(f"{empresa} (empresa)")
    ui.click("Cancelar", linha)
    ui.dialog()
    ui.click("Cancelar locação", "dialog[open]")
    ui.wait_text("Locação cancelada.", "#flash")
    assert not [r for r in ui.driver.find_elements(By.CSS_SELECTOR, "#view tbody tr") if empresa in r.text]
    eventually(lambda: all(not b.get("locatario", {}).get("empresaId")
                           for b in api(server, "GET", f"/api/admin/espacos/{sala}/bloqueios", token=admin)["bloqueios"]) or None,
               "the company's lease is still there")

    # "Bloqueios" lists the lease with a link to its tab, and offers no "Locado" reason
    ui.click_link("Bloqueios", "nav.tabs")
    ui.wait_heading(f"Bloqueios — {nome_da_sala}")
    assert ui.row("Locado").find_element(By.LINK_TEXT, "Ver locação").is_displayed()
    motivos = [o.text for o in ui.control("Motivo").find_elements(By.TAG_NAME, "option")]
    assert "Locado" not in motivos, motivos

    # a meeting room is not let
    # (the tab says so instead of offering the form)
    sala_de_reuniao = api(server, "POST", "/api/admin/espacos", {
        "unidadeId": unidade, "nome": f"Reunião {sufixo}", "tipo": "sala_reuniao", "capacidade": 6, "horario": ALWAYS_OPEN,
    }, admin)["id"]
    ui.open(f"/admin/espacos/{sala_de_reuniao}/locacao")
    ui.wait_text("Só mesas fixas e salas privativas são locadas.")
    assert not ui.driver.find_elements(By.CSS_SELECTOR, "form[aria-labelledby=nova-locacao]")

    # on a phone the tab fits the screen
    phone = browser(size=(390, 844), mobile=True)
    open_signed_in(phone, server, server.admin, f"/admin/espacos/{sala}/locacao")
    phone.wait_text(helena_email)
    assert phone.driver.execute_script("return document.documentElement.scrollWidth") <= 390
    phone.step("locacao-celular")
    phone.scroll(phone.driver.find_element(By.CSS_SELECTOR, "form[aria-labelledby=nova-locacao]"))
    phone.step("locacao-celular-formulario")
    phone.open(f"/admin/indicadores?{periodo}")
    cartao = phone.row(nome_da_sala, "#ocupacao-titulo + div tbody tr")
    assert "144 h" in cartao.text, cartao.text
    assert phone.driver.execute_script("return document.documentElement.scrollWidth") <= 390
    phone.scroll(cartao)
    phone.step("indicadores-celular-com-a-locacao")

    # and the member's "Meu plano" with the lease, on a phone
    celular = browser(size=(390, 844), mobile=True)
    open_signed_in(celular, server, (helena_email, "senha-forte-789"), "/plano")
    celular.wait_text("Sua locação", "#view")
    assert celular.driver.execute_script("return document.documentElement.scrollWidth") <= 390
    celular.step("meu-plano-celular")
    celular.open(f"/espacos/{sala}?data={(hoje + timedelta(days=1)).isoformat()}")
    celular.wait_text("Locado a um cliente o dia todo", "#view")
    assert celular.driver.execute_script("return document.documentElement.scrollWidth") <= 390
    celular.step("espaco-locado-celular")
