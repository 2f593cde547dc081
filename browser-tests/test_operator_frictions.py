"""What operators meet every day: the menu on one row at 1280 px, the week's heatmap readable on
a phone, putting a member on a plan (which changes their quotes), and an audit trail that names
people and says what happened in words."""

from __future__ import annotations

import re
import urllib.error
import uuid
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from selenium.webdriver.common.by import By

from journeys import api, meeting_room, member, sign_in, token

UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", re.I)


def test_the_operators_menu_fits_one_row_at_1280_px(browser, server):
    ui = browser(size=(1280, 900))
    sign_in(ui, *server.admin, expect_heading="Reservas do dia")
    tops = ui.driver.execute_script("""
      return [...document.querySelectorAll('.site-header a, .site-header button')]
        .filter((el) => el.offsetParent !== null)
        .map((el) => [el.textContent.trim(), Math.round(el.getBoundingClientRect().top + el.getBoundingClientRect().height / 2)]);
    """)
    assert len(tops) >= 14, tops
    middles = {middle for _, middle in tops}
    assert max(middles) - min(middles) <= 4, f"the menu takes more than one row: {tops}"
    assert ui.driver.execute_script("return document.querySelector('.site-header').getBoundingClientRect().height") < 80
    ui.step("menu da operação numa linha")


def test_the_weeks_heatmap_is_readable_on_a_phone(browser, server):
    ui = browser(size=(390, 844), mobile=True)
    sign_in(ui, *server.admin, expect_heading="Reservas do dia")
    ui.menu("Indicadores")
    ui.wait_heading("Indicadores")
    heatmap = ui.wait(lambda d: (d.find_elements(By.CSS_SELECTOR, "svg.chart--heatmap") or [False])[0], "no heatmap")
    ui.scroll(heatmap)
    sizes = ui.driver.execute_script("""
      const svg = arguments[0];
      const cells = [...svg.querySelectorAll('.chart__cell')].map((c) => c.getBoundingClientRect());
      const labels = [...svg.querySelectorAll('text')].map((t) => t.getBoundingClientRect().height);
      return {cells: cells.length, width: Math.min(...cells.map((c) => c.width)), height: Math.min(...cells.map((c) => c.height)),
              label: Math.min(...labels), right: svg.getBoundingClientRect().right, view: window.innerWidth};
    """, heatmap)
    assert sizes["cells"] == 7 * 24, sizes
    assert sizes["width"] >= 24 and sizes["height"] >= 14, f"cells too small to read or tap: {sizes}"
    assert sizes["label"] >= 10, f"labels too small to read: {sizes}"
    assert sizes["right"] <= sizes["view"], f"the heatmap leaves the screen: {sizes}"
    ui.step("mapa de calor no celular")


def test_putting_a_member_on_a_plan_changes_their_quote(browser, server):
    admin = token(server, server.admin)
    sala = f"Sala Plano {uuid.uuid4().hex[:4]}"
    _, espaco = meeting_room(server, sala)
    plano = f"ouro-{uuid.uuid4().hex[:4]}"
    api(server, "POST", f"/api/admin/espacos/{espaco}/precos/regras", {"tipo": "plano", "plano": plano, "descontoBP": 2000}, admin)
    email, _, membro = member(server, "Carla Dias")
    inicio = (datetime.now(ZoneInfo("America/Sao_Paulo")) + timedelta(days=2)).replace(hour=10, minute=0, second=0, microsecond=0)
    pedido = {"espacoId": espaco, "inicio": inicio.isoformat(), "fim": (inicio + timedelta(hours=2)).isoformat()}

    def total() -> int:
        return api(server, "POST", "/api/precos/cotacao", pedido, membro)["total"]

    assert total() == 12000

    ui = browser(size=(1280, 900))
    sign_in(ui, *server.admin, expect_heading="Reservas do dia")
    ui.menu("Usuários")
    ui.fill("E-mail contém", email)
    ui.click("Filtrar")
    row = ui.row(email)
    assert "Nenhum" in row.text, row.text
    ui.click("Alterar plano", row)
    dialog = ui.dialog()
    ui.step("escolha do plano")
    ui.choose("Plano", plano, dialog)
    ui.click("Salvar plano", dialog)
    ui.wait_text(f'Carla Dias agora está no plano "{plano}".', "#flash")
    ui.wait(lambda d: plano in ui.row(email).text, "the row does not show the plan")
    ui.step("membro no plano")
    assert total() == 9600, "the plan's 20 % discount is not in the member's quote"

    # off the plan again: the full price
    ui.click("Alterar plano", ui.row(email))
    dialog = ui.dialog()
    ui.choose("Plano", "Nenhum (sem plano)", dialog)
    ui.click("Salvar plano", dialog)
    ui.wait_text("Carla Dias não está mais em nenhum plano.", "#flash")
    ui.wait(lambda d: "Nenhum" in ui.row(email).text)
    assert total() == 12000

    # a plan typed in, bounded as the API bounds it
    ui.click("Alterar plano", ui.row(email))
    dialog = ui.dialog()
    ui.choose("Plano", "Outro plano…", dialog)
    assert ui.control("Nome do plano", dialog).get_attribute("maxlength") == "100"
    ui.fill("Nome do plano", "prata", dialog)
    ui.click("Salvar plano", dialog)
    ui.wait_text('Carla Dias agora está no plano "prata".', "#flash")
    ui.step("plano digitado")


def test_the_audit_trail_names_people_and_says_what_happened(browser, server):
    admin = token(server, server.admin)
    email, _, _ = member(server, "Elisa Prado")
    perfil = api(server, "GET", f"/api/admin/usuarios?email={email}", token=admin)["itens"][0]
    api(server, "PUT", f"/api/admin/usuarios/{perfil['id']}/plano", {"plano": "bronze"}, admin)

    # accounts other tests erased answer 404 when the screen asks for their names ("Conta apagada")
    admin_id = api(server, "GET", "/api/auth/me", token=admin)["id"]
    eventos = api(server, "GET", f"/api/admin/auditoria?tipo=PlanoDefinido&usuario={admin_id}", token=admin)["itens"]
    apagadas = 0
    for conta in {e["stream"].removeprefix("usuario-") for e in eventos}:
        try:
            api(server, "GET", f"/api/admin/usuarios/{conta}", token=admin)
        except urllib.error.HTTPError as error:
            apagadas += error.code == 404

    ui = browser(size=(1280, 900))
    sign_in(ui, *server.admin, expect_heading="Reservas do dia")
    for _ in range(apagadas):
        ui.expect_http(404, "/api/admin/usuarios/")
    # straight to the admin's plan changes (the whole trail would name every account, erased ones too)
    ui.open(f"/admin/auditoria?usuario={admin_id}&tipo=PlanoDefinido")
    ui.wait_heading("Trilha de auditoria")
    assert ui.value("Tipo de evento") == "Plano definido"
    row = ui.row("Conta de Elisa Prado")
    assert "Plano definido" in row.text and "Admin Demo" in row.text, row.text
    assert "PlanoDefinido" not in row.text, row.text
    cells = {td.get_attribute("data-label"): td.text for td in row.find_elements(By.CSS_SELECTOR, "td")}
    assert not UUID.search(cells["Quem"]) and not UUID.search(cells["Registro"]), cells
    # no word broken across lines: each cell of these columns is as wide as its longest word
    broken = ui.driver.execute_script("""
      const out = [];
      for (const td of arguments[0].querySelectorAll('td')) {
        if (td.dataset.label === 'Pedido') continue;
        const range = document.createRange();
        const walker = document.createTreeWalker(td, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          const re = /\\S+/g; let m;
          while ((m = re.exec(node.data))) {
            range.setStart(node, m.index); range.setEnd(node, m.index + m[0].length);
            const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
            if (lines.size > 1) out.push(m[0]);
          }
        }
      }
      return out;
    """, row)
    assert not broken, f"words broken mid-word: {broken}"
    ui.step("auditoria com nomes e palavras")
