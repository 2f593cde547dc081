"""Small things the server added that the screens must say: a hold whose time to pay ran out
(the notice `expiracao`) reads "Prazo expirado" in the inbox, and the price table says how time
is charged by the hour (`fracaoMinutos`), which changes what a member is quoted."""

from __future__ import annotations

import json
import uuid
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from selenium.webdriver.common.by import By

from journeys import api, meeting_room, member, sign_in, token

# A hold lasts 15 minutes in `serve`, too long for a test: the inbox's real answer gets one more
# notice, worded as NotificacoesService words a ReservaExpirada.
EXPIRADA = {
    "id": "8f7c1d2e-0000-4000-8000-000000000001", "tipo": "expiracao", "status": "enviada",
    "titulo": "Reserva expirada: Sala Ipê, 02/12/2026, 10:00–11:00",
    "texto": "O prazo para pagar a sua reserva de Sala Ipê (02/12/2026, 10:00–11:00) acabou e o horário foi liberado; nada foi cobrado. "
             "Se ainda quiser o espaço, faça uma nova reserva.",
    "em": "2026-11-25T12:00:00Z", "reservaId": "8f7c1d2e-0000-4000-8000-000000000002",
}

WITH_NOTICE = """
const extra = %s;
const original = window.fetch;
window.fetch = async (input, init) => {
  const response = await original(input, init);
  const url = typeof input === 'string' ? input : input.url;
  if (!/\\/api\\/notificacoes(\\?|$)/.test(url) || !response.ok) return response;
  const page = await response.json();
  page.itens.push(extra);
  page.total += 1;
  return new Response(JSON.stringify(page), {status: 200, headers: {'Content-Type': 'application/json'}});
};
"""


def test_a_hold_whose_time_ran_out_reads_prazo_expirado_in_the_inbox(browser, server):
    email, senha, _ = member(server, "Helena Prado")
    ui = browser(size=(390, 844), mobile=True)
    ui.driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": WITH_NOTICE % json.dumps(EXPIRADA)})
    sign_in(ui, email, senha, expect_heading="Encontre um espaço")
    ui.menu("Notificações")
    ui.wait_heading("Notificações")
    item = ui.wait_text("Reserva expirada: Sala Ipê", "#view .inbox__item")
    badge = item.find_element(By.CSS_SELECTOR, ".badge")
    assert badge.text == "Prazo expirado", badge.text
    assert "badge--aviso" in badge.get_attribute("class"), badge.get_attribute("class")
    assert "expiracao" not in item.text, item.text
    ui.step("aviso de prazo expirado")


def test_the_price_table_says_how_time_is_charged_by_the_hour(browser, server):
    sala = f"Sala Fração {uuid.uuid4().hex[:4]}"
    _, espaco = meeting_room(server, sala)
    _, _, membro = member(server, "Caio Ferraz")
    inicio = (datetime.now(ZoneInfo("America/Sao_Paulo")) + timedelta(days=2)).replace(hour=10, minute=0, second=0, microsecond=0)
    pedido = {"espacoId": espaco, "inicio": inicio.isoformat(), "fim": (inicio + timedelta(minutes=70)).isoformat()}

    def total() -> int:
        return api(server, "POST", "/api/precos/cotacao", pedido, membro)["total"]

    assert total() == 12000, "1 h 10 min by the started hour is 2 h"

    for size, mobile in (((1280, 900), False), ((390, 844), True)):
        ui = browser(size=size, mobile=mobile)
        sign_in(ui, *server.admin, expect_heading="Reservas do dia")
        ui.open(f"/admin/espacos/{espaco}/precos")
        ui.wait_heading(f"Preços — {sala}")
        assert ui.value("Cobrança por hora") in ("Por hora iniciada (60 min)", "Por meia hora iniciada (30 min)")
        options = [o.text for o in ui.control("Cobrança por hora").find_elements(By.TAG_NAME, "option")]
        assert options[0] == "Por hora iniciada (60 min)" and options[-1] == "Por minuto (1 min)" and len(options) == 7, options
        ui.step("cobranca por hora")
        if mobile:
            break
        ui.choose("Cobrança por hora", "Por meia hora iniciada (30 min)")
        ui.click("Salvar valores")
        ui.wait_text(f"Preços de {sala} salvos", "#flash")
        assert ui.value("Cobrança por hora") == "Por meia hora iniciada (30 min)"
        ui.step("cobranca por meia hora salva")

    assert api(server, "GET", f"/api/espacos/{espaco}/precos", token=token(server, server.admin))["valores"]["fracaoMinutos"] == 30
    assert total() == 9000, "1 h 10 min by the started half hour is 1 h 30 min"
