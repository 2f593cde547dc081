"""The API reference at /docs, served by the binary itself: nothing from another origin (the
suite fails on any such request, and the browser resolves no other host), the operations
grouped by service with their parameters, body schemas and an example body, and the try-it
form sending with the web app's token or a pasted one; desktop and phone."""

from __future__ import annotations

import json

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.remote.webelement import WebElement

from journeys import open_signed_in, token
from support import UI


def operation(ui: UI, label: str) -> WebElement:
    """The operation's <details>, by its method and path ("GET /api/espacos")."""
    return ui.wait(lambda d: next(iter(d.find_elements(By.CSS_SELECTOR, f'details.op[data-operacao="{label}"]')), False),
                   f"no operation {label}")


def open_operation(ui: UI, label: str) -> WebElement:
    details = operation(ui, label)
    if details.get_attribute("open") is None:
        ui.press(details.find_element(By.TAG_NAME, "summary"))
    ui.wait(lambda d: details.get_attribute("open") is not None, f"{label} did not open")
    return details


def send(ui: UI, details: WebElement, status: int) -> str:
    """Presses the operation's "Enviar" and returns the answer's text once its status shows."""
    ui.click("Enviar", details)
    line = ui.wait(lambda d: next(iter(details.find_elements(By.CSS_SELECTOR, ".resposta .status-linha")), False),
                   "no answer shown")
    ui.wait_idle()
    assert line.text.startswith(str(status)), line.text
    answer = details.find_element(By.CSS_SELECTOR, ".resposta")
    ui.scroll(answer)
    return answer.text


def answer_json(details: WebElement):
    return json.loads(details.find_element(By.CSS_SELECTOR, ".resposta pre.json").text)


def visible_operations(ui: UI) -> list[str]:
    return [d.get_attribute("data-operacao") for d in ui.driver.find_elements(By.CSS_SELECTOR, "details.op") if d.is_displayed()]


def test_the_api_reference_groups_documents_and_tries_the_operations(browser, server):
    ui = browser()
    open_signed_in(ui, server, server.member, "/docs")
    ui.wait_heading("CoworkFlow API")
    assert "OpenAPI 3.1" in ui.driver.find_element(By.ID, "versao").text
    # Everything from this origin: the page, its script and stylesheet, the document.
    loaded = ui.driver.execute_script("return performance.getEntriesByType('resource').map((e) => new URL(e.name).pathname)")
    assert {"/docs/referencia.js", "/docs/referencia.css", "/openapi.json"} <= set(loaded), loaded
    csp = ui.driver.execute_script(
        "return fetch('/docs', {cache: 'no-store'}).then((r) => r.headers.get('Content-Security-Policy'))")
    assert "script-src 'self'" in csp and "unsafe-inline" not in csp
    # The web app's session gives the token.
    assert ui.value("Token (Bearer)") == token(server, server.member)
    assert "sessão no app" in ui.driver.find_element(By.ID, "token-dica").text

    # One section per service, with a heading, in the services' order.
    groups = [h.text for h in ui.driver.find_elements(By.CSS_SELECTOR, "section.grupo > h2")]
    assert groups[:5] == ["Contas e acesso", "Espaços", "Preços", "Reservas", "Pagamentos"], groups
    reservas = ui.driver.find_element(By.ID, "grupo-reservas")
    listed = [d.get_attribute("data-operacao") for d in reservas.find_elements(By.CSS_SELECTOR, "details.op")]
    assert {"GET /api/reservas", "POST /api/reservas", "POST /api/reservas/{id}/cancelamento"} <= set(listed), listed
    assert "token" in operation(ui, "POST /api/reservas").find_element(By.TAG_NAME, "summary").text
    assert "admin" in operation(ui, "GET /api/admin/reservas").find_element(By.TAG_NAME, "summary").text
    ui.scroll(reservas)
    ui.step("referência: serviços e operações")

    # A public GET: its query parameters (an enum listed), sent with one of them.
    espacos = open_operation(ui, "GET /api/espacos")
    assert "Pública" in espacos.text
    assert "sala_reuniao" in espacos.find_element(By.CSS_SELECTOR, ".esquema").text
    # Narrowed to the demo room's amenity too: the other files' meeting rooms on this server would
    # otherwise make the page longer than the reference shows whole.
    ui.choose("tipo", "sala_reuniao", within=espacos)
    ui.fill("comodidade", "videoconferência", within=espacos)
    text = send(ui, espacos, 200)
    assert "X-Request-Id" in text
    nomes = [e["espaco"]["nome"] for e in answer_json(espacos)["itens"]]
    assert "Sala Ipê" in nomes and "Auditório Paulista" not in nomes, nomes
    ui.step("GET /api/espacos enviado")

    # A GET that needs the token: the session's goes with it.
    me = open_operation(ui, "GET /api/auth/me")
    assert "Exige token" in me.text
    send(ui, me, 200)
    assert answer_json(me)["email"] == server.member[0]
    ui.step("GET /api/auth/me com o token da sessão")

    # A POST with a body: its schema (required fields marked), the example made from it, and an
    # invalid body answered with the error's code.
    cotacao = open_operation(ui, "POST /api/precos/cotacao")
    schema = cotacao.find_element(By.CSS_SELECTOR, ".op-corpo > .interior .esquema").text
    assert "espacoId string (uuid) obrigatório" in schema and "inicio string (date-time) obrigatório" in schema, schema
    example = json.loads(cotacao.find_element(By.CSS_SELECTOR, "pre.json").text)
    assert set(example) == {"espacoId", "inicio", "fim"} and example["fim"] > example["inicio"], example
    body = ui.control("Corpo (JSON)", cotacao)
    assert json.loads(body.get_attribute("value")) == example
    ui.scroll(body)
    ui.step("POST /api/precos/cotacao: esquema e exemplo")
    ui.fill("Corpo (JSON)", json.dumps({"espacoId": server.espacos["Sala Ipê"]}), within=cotacao)
    ui.expect_http(400, "/api/precos/cotacao")
    text = send(ui, cotacao, 400)
    assert "erro requisicao_invalida — o campo obrigatório 'inicio' está ausente" in text, text
    assert answer_json(cotacao)["detalhes"] == {"campo": "inicio"}
    ui.step("POST /api/precos/cotacao: corpo inválido")
    ui.click("Restaurar o exemplo", cotacao)
    assert json.loads(ui.control("Corpo (JSON)", cotacao).get_attribute("value")) == example

    # The filter hides what does not match (accents and case aside), and its groups.
    ui.fill("Filtrar operações", "COTAÇÃO")
    assert visible_operations(ui) == ["POST /api/precos/cotacao"]
    assert not reservas.is_displayed()
    assert "1 de" in ui.driver.find_element(By.ID, "filtro-estado").text
    ui.step("filtro: cotação")
    ui.fill("Filtrar operações", "post reservas")
    shown = visible_operations(ui)
    assert "POST /api/reservas" in shown and all(op.startswith("POST ") for op in shown), shown
    ui.fill("Filtrar operações", "nada-assim")
    assert visible_operations(ui) == []
    ui.wait_text("Nenhuma operação corresponde ao filtro.")
    ui.control("Filtrar operações").send_keys(Keys.ESCAPE)
    assert len(visible_operations(ui)) > 50
    ui.step("filtro limpo")


def test_the_api_reference_on_a_phone_with_a_pasted_token(browser, server):
    ui = browser(size=(390, 844), mobile=True)
    ui.open("/docs")
    ui.wait_heading("CoworkFlow API")
    assert ui.value("Token (Bearer)") == ""
    assert "cole um token" in ui.driver.find_element(By.ID, "token-dica").text
    ui.step("celular: referência sem sessão")

    # With the keyboard: the filter, then the operation's summary opened with Enter.
    ui.fill("Filtrar operações", "minhas reservas")
    assert visible_operations(ui) == ["GET /api/reservas"]
    details = operation(ui, "GET /api/reservas")
    summary = details.find_element(By.TAG_NAME, "summary")
    ui.scroll(summary)
    summary.send_keys(Keys.ENTER)
    ui.wait(lambda d: details.get_attribute("open") is not None, "Enter did not open the operation")
    ui.expect_http(401, "/api/reservas")
    text = send(ui, details, 401)
    assert "Nenhum token foi enviado" in text and "erro nao_autenticado" in text, text
    ui.step("celular: sem token, 401")

    ui.fill("Token (Bearer)", token(server, server.member))
    text = send(ui, details, 200)
    # The member's own page of bookings grows with the other files, and the reference cuts a long
    # answer: the items are counted in the text, not parsed.
    assert details.find_element(By.CSS_SELECTOR, ".resposta pre.json").text.count('"itens": [') == 1, text
    ui.step("celular: token colado, 200")

    # A path parameter left empty is asked for before anything is sent.
    ui.control("Filtrar operações").send_keys(Keys.ESCAPE)
    espaco = open_operation(ui, "GET /api/espacos/{id}")
    ui.click("Enviar", espaco)
    ui.wait_text("Informe id.", "details.op[open] .erro-do-campo")
    assert ui.control("id", espaco).get_attribute("aria-invalid") == "true"
    assert not espaco.find_elements(By.CSS_SELECTOR, ".resposta .status-linha")
    ui.fill("id", server.espacos["Sala Ipê"], within=espaco)
    send(ui, espaco, 200)
    assert answer_json(espaco)["espaco"]["nome"] == "Sala Ipê"
    ui.step("celular: parâmetro de caminho")

    # POST /api/reservas: the example body, sent as is (a space that does not exist): 422 with its code.
    reservar = open_operation(ui, "POST /api/reservas")
    example = json.loads(ui.control("Corpo (JSON)", reservar).get_attribute("value"))
    assert {"espacoId", "inicio", "fim"} <= set(example), example
    ui.scroll(ui.control("Corpo (JSON)", reservar))
    ui.step("celular: exemplo de POST /api/reservas")
    ui.expect_http(422, "/api/reservas")
    text = send(ui, reservar, 422)
    assert "erro dados_invalidos" in text and "não existe" in text, text
    ui.step("celular: POST /api/reservas recusado")
