"""The black-box probe, replayed: the classes of hostile or broken input that a probe sent to
`coworkflow serve --seed-demo` (forged tokens, another member's data, admin routes, path
traversal and control characters, oversized and malformed bodies, text that is huge in bytes or
looks sealed, instants with trailing text or odd offsets, Idempotency-Key reuse, webhook
tampering, brute force) each get a 4xx `{erro, mensagem}` from the running server, and none of
them changes anything (the event log's length, read through the admin's audit trail, stays).

HTTP only (no browser), against a server of its own: its logins and lock do not spend the
rate limits the browser tests log in under.
"""

from __future__ import annotations

import base64
import json
import urllib.error
import urllib.request
import uuid
from datetime import datetime, timedelta, timezone

import os
from pathlib import Path

import pytest

from conftest import artifacts_dir, next_weekday
from support import REPO, Server


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    binary = Path(os.environ.get("COWORKFLOW_BIN", REPO / ".build/debug/coworkflow"))
    if not binary.is_absolute():
        binary = REPO / binary
    logs = artifacts_dir() / "http-probe"
    logs.mkdir(parents=True, exist_ok=True)
    srv = Server.start(binary, tmp_path_factory.mktemp("coworkflow-probe-data"), logs)
    yield srv
    srv.stop()


def call(server, method: str, path: str, body=None, token: str | None = None, headers: dict | None = None, raw: bytes | None = None):
    """(status, headers, parsed JSON or None, raw bytes)."""
    data = raw if raw is not None else (json.dumps(body, ensure_ascii=False).encode() if body is not None else None)
    request = urllib.request.Request(server.url + path, data=data, method=method)
    request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    for name, value in (headers or {}).items():
        request.add_header(name, value)
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            status, answer_headers, payload = response.status, response.headers, response.read()
    except urllib.error.HTTPError as error:
        status, answer_headers, payload = error.code, error.headers, error.read()
    try:
        parsed = json.loads(payload) if payload else None
    except ValueError:
        parsed = None
    return status, answer_headers, parsed, payload


def login(server, email: str, senha: str) -> str:
    status, _, answer, _ = call(server, "POST", "/api/auth/login", {"email": email, "senha": senha})
    assert status == 200, answer
    return answer["token"]


def events(server, admin: str) -> int:
    status, _, answer, _ = call(server, "GET", "/api/admin/auditoria", token=admin)
    assert status == 200, answer
    return answer["total"]


def settled(server, admin: str) -> int:
    """The log's length once the reactions to what came before have run (it stays the same for a second)."""
    import time
    last, since = events(server, admin), time.monotonic()
    deadline = since + 30
    while time.monotonic() < deadline:
        time.sleep(0.2)
        now = events(server, admin)
        if now != last:
            last, since = now, time.monotonic()
        elif time.monotonic() - since >= 1.0:
            return now
    raise AssertionError("the event log did not settle within 30 s")


def refused(status: int, answer, what: str, expected: set[int] | None = None) -> None:
    assert 400 <= status < 500, f"{what}: {status} {answer}"
    if expected:
        assert status in expected, f"{what}: {status} {answer}"
    assert isinstance(answer, dict) and answer.get("erro") and answer.get("mensagem"), f"{what}: not {{erro, mensagem}}: {answer}"


@pytest.fixture(scope="module")
def accounts(server):
    admin = login(server, *server.admin)
    member = login(server, *server.member)
    other_email = f"probe-{uuid.uuid4().hex[:8]}@example.com"
    status, _, answer, _ = call(server, "POST", "/api/auth/registro", {"nome": "Outra Pessoa", "email": other_email, "senha": "segredo-123"})
    assert status == 201, answer
    other = login(server, other_email, "segredo-123")
    sala = next(iter(server.espacos.values()))
    return {"admin": admin, "member": member, "other": other, "other_email": other_email, "sala": sala}


def forged_tokens(member: str) -> list[str]:
    header, payload, _ = member.split(".")
    claims = json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))
    claims["papel"] = "admin"
    forged_payload = base64.urlsafe_b64encode(json.dumps(claims).encode()).decode().rstrip("=")
    none_header = base64.urlsafe_b64encode(b'{"alg":"none","typ":"JWT"}').decode().rstrip("=")
    return ["abc.def.ghi", f"{header}.{forged_payload}.{member.split('.')[2]}", f"{none_header}.{forged_payload}.", member[:-4] + "AAAA", ""]


def test_hostile_and_broken_input_is_refused_and_changes_nothing(server, accounts):
    admin, member, other, sala = accounts["admin"], accounts["member"], accounts["other"], accounts["sala"]
    day = next_weekday(after_days=3)
    inicio, fim = f"{day}T10:00:00-03:00", f"{day}T11:00:00-03:00"
    # One booking of the member's, to aim at from another account.
    status, _, booking, _ = call(server, "POST", "/api/reservas", {"espacoId": sala, "inicio": inicio, "fim": fim}, token=member,
                                 headers={"Idempotency-Key": "probe-1"})
    assert status == 201, booking
    before = settled(server, admin)

    # Forged, tampered and unsigned tokens.
    for token in forged_tokens(member):
        status, _, answer, _ = call(server, "GET", "/api/auth/me", token=token or "x")
        refused(status, answer, f"token {token[:20]}…", {401})
        status, _, answer, _ = call(server, "GET", "/api/admin/usuarios", token=token or "x")
        refused(status, answer, "admin route with a forged token", {401})
    # Another member's booking, payment and check-in; admin routes as a member.
    for path in (f"/api/reservas/{booking['id']}", f"/api/reservas/{booking['id']}/pagamento", f"/api/reservas/{booking['id']}/checkin"):
        status, _, answer, _ = call(server, "GET", path, token=other)
        refused(status, answer, f"another member's {path}", {403, 404})
    status, _, answer, _ = call(server, "POST", f"/api/reservas/{booking['id']}/cancelamento", {"motivo": "não é minha"}, token=other)
    refused(status, answer, "cancelling another member's booking", {403, 404})
    for method, path in (("GET", "/api/admin/usuarios"), ("GET", "/api/admin/auditoria"), ("POST", "/api/admin/unidades")):
        status, _, answer, _ = call(server, method, path, {} if method == "POST" else None, token=member)
        refused(status, answer, f"{method} {path} as a member", {403})

    # Paths: traversal never leaves web/, control characters never reach a file or a route.
    for path in ("/../../etc/passwd", "/%2e%2e/%2e%2e/etc/passwd", "/js/..%2f..%2fPackage.swift", "/index.html%00.js", "/index.html%0d%0a.js",
                 "/api/espacos%00", "/%zz"):
        status, headers, answer, raw = call(server, "GET", path)
        assert b"root:" not in raw and b"swift-tools-version" not in raw, path
        if status != 200:
            refused(status, answer, path)
        else:
            assert headers.get("Content-Type", "").startswith("text/html"), f"{path} served as {headers.get('Content-Type')}"
        assert headers.get("X-Content-Type-Options") == "nosniff", path
    status, _, answer, _ = call(server, "GET", "/index.html%00.js")
    refused(status, answer, "a NUL in a static path", {400})

    # Bodies: oversized, not JSON, wrong shapes and types.
    for raw in (b"x" * (300 * 1024), b"{", b"[]", b"null", b'{"nome": 1}', "\ufeff{}".encode("utf-16")):
        status, _, answer, _ = call(server, "POST", "/api/auth/registro", raw=raw)
        refused(status, answer, f"body {raw[:12]!r}", {400, 413, 422})
    # Free text: huge in bytes though one character long, in the sealed form, a control character.
    marcas = "a" + "\u0301" * 60_000
    for nome, campo in ((marcas, "nome"), ("pii:v1:" + str(uuid.uuid4()) + ":AAAA", "nome"), ("Ana\u0000", "nome")):
        status, _, answer, _ = call(server, "POST", "/api/auth/registro", {"nome": nome, "email": f"x{uuid.uuid4().hex[:6]}@example.com", "senha": "segredo-123"})
        refused(status, answer, f"nome {nome[:12]!r}", {422})
        assert answer.get("detalhes", {}).get("campo") == campo, answer
    for motivo in (marcas, f"pii:v1:{uuid.uuid4()}:AAAA"):
        status, _, answer, _ = call(server, "POST", f"/api/reservas/{booking['id']}/cancelamento", {"motivo": motivo}, token=member)
        refused(status, answer, "a cancellation reason", {422})
    status, _, answer, _ = call(server, "POST", "/api/reservas", {"espacoId": sala, "inicio": inicio, "fim": fim,
                                                                 "pagamento": {"metodo": "cartao", "cartaoToken": marcas}}, token=member)
    refused(status, answer, "a card token huge in bytes", {422})
    # Instants: only RFC 3339 with Z or ±HH:MM.
    for bad in (f"{day}T10:00:00-03:00garbage", f"{day}T13:00:00Z-03:00", f"{day}T10:00:00-0300", f"{day}T10:00:00-03",
                f"{day}T10:00:00-03:00:00", f"{day} 10:00:00-03:00", f"{day}T10:00:00"):
        status, _, answer, _ = call(server, "POST", "/api/reservas", {"espacoId": sala, "inicio": bad, "fim": fim}, token=member)
        refused(status, answer, f"instant {bad}", {422})
        assert answer.get("detalhes", {}).get("campo") == "inicio", answer
        status, _, answer, _ = call(server, "POST", "/api/precos/cotacao", {"espacoId": sala, "inicio": bad, "fim": fim})
        refused(status, answer, f"quote instant {bad}", {422})

    # Idempotency-Key: reused with another body, malformed.
    status, _, answer, _ = call(server, "POST", "/api/reservas", {"espacoId": sala, "inicio": f"{day}T12:00:00-03:00", "fim": f"{day}T13:00:00-03:00"},
                                token=member, headers={"Idempotency-Key": "probe-1"})
    refused(status, answer, "an Idempotency-Key reused with another body", {422})
    for key in ("", "a" * 256, "chave com espaço", "chave-ç"):
        try:
            status, _, answer, _ = call(server, "POST", "/api/reservas", {"espacoId": sala, "inicio": inicio, "fim": fim}, token=member,
                                        headers={"Idempotency-Key": key})
        except (UnicodeEncodeError, ValueError):
            continue  # the client itself will not send it
        refused(status, answer, f"Idempotency-Key {key[:10]!r}", {400})

    # The payment webhook: unsigned, badly signed, signed long ago.
    aviso = {"id": "evt_probe", "tipo": "cobranca.paga", "cobrancaId": "cob_x"}
    for signature in (None, "t=1,v1=00", f"t={int(datetime.now(timezone.utc).timestamp())},v1={'0' * 64}"):
        headers = {"X-Sandbox-Signature": signature} if signature else {}
        status, _, answer, _ = call(server, "POST", "/api/pagamentos/webhooks/sandbox", aviso, headers=headers)
        refused(status, answer, f"webhook signed {signature}", {400, 401})

    assert events(server, admin) == before, "a refused request wrote an event"


def test_brute_force_locks_the_account_and_writes_only_the_failures(server, accounts):
    admin = accounts["admin"]

    def failures() -> int:
        status, _, answer, _ = call(server, "GET", "/api/admin/auditoria?tipo=LoginFalhou", token=admin)
        assert status == 200, answer
        return answer["total"]

    before, failed_before = settled(server, admin), failures()
    for attempt in range(5):
        status, _, answer, _ = call(server, "POST", "/api/auth/login", {"email": accounts["other_email"], "senha": f"errada-{attempt}"})
        refused(status, answer, f"wrong password {attempt + 1}", {401} if attempt < 4 else {423})
    status, headers, answer, _ = call(server, "POST", "/api/auth/login", {"email": accounts["other_email"], "senha": "segredo-123"})
    refused(status, answer, "the right password during the lock", {423})
    assert headers.get("Retry-After"), "a lock says when to try again"
    # What the attempts wrote is the failures, and nothing else.
    assert events(server, admin) - before == failures() - failed_before >= 5
