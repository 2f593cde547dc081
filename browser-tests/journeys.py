"""Steps both journeys share, written as a person would do them."""

from __future__ import annotations

import json
import re
import time
import urllib.error
import urllib.request
import uuid
from datetime import date, datetime

from selenium.webdriver.common.by import By

from support import UI


def sign_in(ui: UI, email: str, senha: str, expect_heading: str) -> None:
    """Logs in through the form (opening it from the menu unless it is already shown)."""
    if not ui.driver.current_url.startswith(ui.base):
        ui.open("/")
    if ui.heading() != "Entrar":
        ui.menu("Entrar")
        ui.wait_heading("Entrar")
    ui.fill("E-mail", email)
    ui.fill("Senha", senha)
    submit_login(ui, expect_heading)


def submit_login(ui: UI, expect_heading: str) -> None:
    """Clicks "Entrar" on the filled form until `expect_heading` shows, waiting out a 429: logins
    are limited to a burst of 10 per address, and another file on this server may have spent it."""
    limited = re.compile(r"Muitas solicitações em pouco tempo. Aguarde (\d+)")

    def outcome(d):
        if any(expect_heading in h.text for h in d.find_elements(By.CSS_SELECTOR, "#view h1")):
            return "ok"
        m = limited.search(d.find_element(By.ID, "view").text)
        return m.group(1) if m else False
    for _ in range(5):
        ui.click("Entrar", "#view form")
        result = ui.wait(outcome, f"heading '{expect_heading}' never appeared")
        if result == "ok":
            break
        ui.expect_http(429, "/api/auth/login")
        time.sleep(int(result) + 0.5)
    ui.wait_heading(expect_heading)


def login_allowance() -> None:
    """Waits until this address may log in once more (the limit refills one login every 5 s), for
    a flow that cannot wait out a 429 itself: a sign-up signs in at once, and a wrong password
    must be answered 401. Another file on this server may have spent the burst of 10."""
    time.sleep(5.5)


def go_to_day(ui: UI, day: date, max_clicks: int = 10) -> None:
    """Clicks "Próximo dia →" until the day view shows `day` (the URL carries ?data=)."""
    target = day.isoformat()
    for _ in range(max_clicks):
        if f"data={target}" in ui.driver.current_url:
            break
        before = ui.driver.current_url
        ui.click("Próximo dia")
        ui.wait(lambda d: d.current_url != before, "the day did not change")
        ui.wait_idle()
    assert f"data={target}" in ui.driver.current_url, f"never reached {target}: {ui.driver.current_url}"
    ui.wait_idle()


def slot(ui: UI, hhmm: str):
    """The free slot button that starts at hh:mm."""
    return ui.wait(lambda d: next((b for b in d.find_elements(By.CSS_SELECTOR, ".slots button")
                                   if (b.get_attribute("aria-label") or "").startswith(f"{hhmm} às")), False),
                   f"no free slot at {hhmm}")


def pick_slot(ui: UI, hhmm: str) -> None:
    ui.press(slot(ui, hhmm))
    ui.wait(lambda d: slot(ui, hhmm).get_attribute("aria-pressed") == "true", f"slot {hhmm} not selected")


def register(ui: UI, nome: str, email: str, senha: str) -> None:
    """Creates an account through the form, which signs it in; when the sign-in that follows is
    answered 429 (logins: a burst of 10 per address, a whole suite spends it), the form says the
    account was created and the member signs in by hand (test_registering_signs_the_member_in
    checks the sign-in itself)."""
    ui.open("/cadastro")
    ui.wait_heading("Criar conta")
    ui.fill("Nome completo", nome)
    ui.fill("E-mail", email)
    ui.fill("Senha", senha)
    ui.click("Criar conta", "#view form")
    landed = ui.wait(lambda d: next((h.text for h in d.find_elements(By.CSS_SELECTOR, "#view h1")
                                     if h.text in ("Encontre um espaço", "Entrar")), False), "no page after signing up")
    if landed == "Entrar":
        ui.wait_text("Conta criada! Agora entre com seu e-mail e senha.", "#flash")
        ui.expect_http(429, "/api/auth/login")
        sign_in(ui, email, senha, expect_heading="Encontre um espaço")
    ui.wait_heading("Encontre um espaço")


# ---- the API, for what a test needs prepared (not what it tests) ----------------------------------

def api(server, method: str, path: str, body=None, token: str | None = None):
    """One request; a 429 (logins are limited to a burst of 10 per address) waits its Retry-After and tries again."""
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    for _ in range(6):
        request = urllib.request.Request(f"{server.url}{path}", method=method, headers=headers,
                                         data=json.dumps(body).encode() if body is not None else None)
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                text = response.read().decode()
                return json.loads(text) if text else None
        except urllib.error.HTTPError as error:
            if error.code != 429:
                raise
            time.sleep(min(30, int(error.headers.get("Retry-After") or 5)))
    raise AssertionError(f"{method} {path} kept answering 429")


_sessions: dict[tuple[str, str], dict] = {}


def session(server, credentials: tuple[str, str]) -> dict:
    """The login's answer ({token, expiraEm, usuario}) for the account, logged in once per server (logins are rate limited)."""
    key = (server.url, credentials[0])
    if key not in _sessions:
        _sessions[key] = api(server, "POST", "/api/auth/login", {"email": credentials[0], "senha": credentials[1]})
    return _sessions[key]


def token(server, credentials: tuple[str, str]) -> str:
    """A bearer token for the account (session())."""
    return session(server, credentials)["token"]


def open_signed_in(ui: UI, server, credentials: tuple[str, str], path: str) -> None:
    """Opens `path` signed in without the login form (which has tests of its own): the app keeps
    its session in the tab's sessionStorage, as the login's answer."""
    ui.open("/entrar")
    ui.driver.execute_script("sessionStorage.setItem('coworkflow.sessao', arguments[0])", json.dumps(session(server, credentials)))
    ui.open(path)


ALWAYS_OPEN = {d: [{"abre": 0, "fecha": 1440}] for d in ("domingo", "segunda", "terca", "quarta", "quinta", "sexta", "sabado")}


def space_open_now(server, nome: str) -> tuple[str, str]:
    """A unit whose check-in opens 24 h before the start and a meeting room open 24 h a day,
    bookable from now on, at R$ 60,00 an hour (30 min minimum): whatever the time of the run, the
    next free slot can be booked, paid and checked into. Returns (unit name, space id)."""
    return meeting_room(server, nome)


def meeting_room(server, nome: str, horario: dict | None = None, minimo: int = 30, maximo: int = 600) -> tuple[str, str]:
    """space_open_now's unit and room, with other hours (`ALWAYS_OPEN`'s shape) or a minimum and
    a maximum duration (minutes; the price table's minimum is the same). Returns (unit name, space id)."""
    unidade = unit(server, f"CoworkFlow {nome}")
    return unidade["nome"], room(server, unidade["id"], nome, horario, minimo, maximo)


def unit(server, nome: str, antes: int = 1440, fuso: str = "America/Sao_Paulo") -> dict:
    """A unit (in São Paulo unless `fuso` says another IANA zone) whose check-in opens `antes`
    minutes before a booking's start (a day by default) and closes 30 minutes after it. Returns
    the unit as the API answers it."""
    return api(server, "POST", "/api/admin/unidades", {
        "nome": nome,
        "endereco": {"logradouro": "Rua Augusta", "numero": "500", "cidade": "São Paulo", "uf": "SP", "cep": "01304-000"},
        "fusoHorario": fuso,
        "politicaDeCancelamento": {"horasSemMulta": 24, "multaBP": 5000},
        "operacao": {"aliquotaISSBP": 200, "janelaDeCheckin": {"antesMinutos": antes, "depoisMinutos": 30}},
    }, token(server, server.admin))


def room(server, unidade_id: str, nome: str, horario: dict | None = None, minimo: int = 30, maximo: int = 600) -> str:
    """A meeting room of the unit for 6, open `horario` (around the clock by default), at R$ 60,00 an hour. Returns its id."""
    admin = token(server, server.admin)
    espaco = api(server, "POST", "/api/admin/espacos", {
        "unidadeId": unidade_id, "nome": nome, "tipo": "sala_reuniao", "capacidade": 6,
        "regras": {"duracaoMinimaMinutos": minimo, "duracaoMaximaMinutos": maximo, "antecedenciaMinimaMinutos": 0, "antecedenciaMaximaDias": 90},
        "horario": horario or ALWAYS_OPEN,
    }, admin)
    api(server, "PUT", f"/api/admin/espacos/{espaco['id']}/precos",
        {"porHora": 6000, "meioPeriodo": 20000, "diaria": 40000, "duracaoMinimaMinutos": minimo}, admin)
    return espaco["id"]


def member(server, nome: str) -> tuple[str, str, str]:
    """A new member account (through the API). Returns (e-mail, password, token)."""
    email = f"{nome.split()[0].lower()}.{uuid.uuid4().hex[:8]}@exemplo.com.br"
    senha = "senha-forte-789"
    api(server, "POST", "/api/auth/registro", {"nome": nome, "email": email, "senha": senha})
    return email, senha, token(server, (email, senha))


def book(server, member_token: str, espaco: str, inicio: datetime, fim: datetime, pagamento: dict | None = None) -> dict:
    """A booking of [inicio, fim) (aware datetimes) with `pagamento` (PIX when absent)."""
    body = {"espacoId": espaco, "inicio": inicio.isoformat(), "fim": fim.isoformat()}
    if pagamento:
        body["pagamento"] = pagamento
    return api(server, "POST", "/api/reservas", body, member_token)


def eventually(read, what: str, timeout: float = 20):
    """read() until it returns something true (a 404 counts as not yet): the reactions run in the background."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            value = read()
            if value:
                return value
        except urllib.error.HTTPError as error:
            if error.code != 404:
                raise
        if time.monotonic() > deadline:
            raise AssertionError(f"{what} did not happen within {timeout} s")
        time.sleep(0.1)


def confirmed_and_checked_in(server, member_token: str, reserva: dict, checkout: bool = False) -> None:
    """A booking paid by card (the sandbox approves it): waits for its confirmation and its
    check-in code, checks in with the code and, with `checkout`, checks out."""
    rid = reserva["id"]
    eventually(lambda: api(server, "GET", f"/api/reservas/{rid}", token=member_token)["status"] == "confirmada", "the confirmation")
    codigo = eventually(lambda: api(server, "GET", f"/api/reservas/{rid}/checkin", token=member_token).get("codigo"), "the check-in code")
    api(server, "POST", "/api/checkin", {"codigo": codigo, "reservaId": rid}, member_token)
    if checkout:
        api(server, "POST", f"/api/reservas/{rid}/checkout", token=member_token)


def pick_first_free_slot(ui: UI) -> str:
    """On a space's day view: the first free slot of today that starts an hour from now or later
    (a slot starting within minutes may have begun when the booking arrives), else tomorrow's first."""
    ui.wait_idle()
    soon = ui.driver.execute_script("return Date.now()") + 3600 * 1000
    later = [b for b in ui.driver.find_elements(By.CSS_SELECTOR, ".slots button") if int(b.get_attribute("data-inicio")) >= soon]
    if not later:
        before = ui.driver.current_url
        ui.click("Próximo dia")
        ui.wait(lambda d: d.current_url != before, "the day did not change")
        ui.wait_idle()
        later = [ui.wait(lambda d: (d.find_elements(By.CSS_SELECTOR, ".slots button") or [False])[0], "no free slot")]
    hhmm = later[0].get_attribute("aria-label")[:5]
    pick_slot(ui, hhmm)
    return hhmm


def quote_and_book(ui: UI, metodo: str = "PIX", cartao: str | None = None) -> None:
    """"Ver preço", the payment method, "Reservar"; waits for the booking."""
    ui.click("Ver preço")
    ui.wait_text("Composição do preço", ".quote")
    label = ui.driver.find_element(By.XPATH, f"//*[contains(@class,'quote')]//label[normalize-space()='{metodo}']")
    ui.press(label)
    if cartao is not None:
        ui.fill("Token do cartão", cartao)
    ui.click("Reservar", ".quote")
    ui.wait_text("Reserva solicitada!", ".result")


def brl(centavos: int) -> str:
    """As the app writes money: "R$ 1.234,56" (its no-break space made a plain one)."""
    reais, cents = divmod(abs(centavos), 100)
    return f"{'-' if centavos < 0 else ''}R$ {reais:,}".replace(",", ".") + f",{cents:02d}"
