"""Memberships in "Indicadores": a plan made through the API (R$ 120,00 a month), a new member
subscribed to it by boleto and its first cycle paid by the operator; the screen's "Assinaturas"
section says what `GET /api/analytics/assinaturas?meses=12` answers, read after the screen has
loaded (the seed's subscriber and other tests add subscriptions, so no total is written here):
the MRR and the active, suspended and paused counts in tiles, the plan with its R$ 120,00 in the
MRR-by-plan chart (its `desc` and bars) and its table, the MRR at the end of each month as bars,
and the last 12 months as a table (the current month first, "nov. 2026" in words, the cycle's
payment in its revenue). Desktop and phone (nothing scrolls sideways)."""

from __future__ import annotations

import uuid
from decimal import ROUND_HALF_UP, Decimal

from selenium.webdriver.common.by import By

from journeys import api, brl, eventually, member, open_signed_in, session, token

MESES = ("jan.", "fev.", "mar.", "abr.", "mai.", "jun.", "jul.", "ago.", "set.", "out.", "nov.", "dez.")
SECTION = "#view section[aria-labelledby=assinaturas-titulo]"


def pct(fraction: float | None) -> str:
    """As the app writes a rate: "41,7 %" (one decimal at most), "—" without one."""
    if fraction is None:
        return "—"
    value = Decimal(str(fraction * 100)).quantize(Decimal("0.1"), rounding=ROUND_HALF_UP).normalize()
    return f"{value:f}".replace(".", ",") + " %"


def mes_em_palavras(mes: str) -> str:
    """"2026-11" → "nov. 2026"."""
    return f"{MESES[int(mes[5:7]) - 1]} {mes[:4]}"


def horas(minutos: int) -> str:
    """As the app writes a duration: "2 h 48 min", "4 h", "45 min"."""
    h, m = divmod(minutos, 60)
    if h and m:
        return f"{h} h {m} min"
    return f"{h} h" if h or not m else f"{m} min"


def text(el) -> str:
    return el.text.replace("\xa0", " ")


def analytics(server, admin: str) -> dict:
    return api(server, "GET", "/api/analytics/assinaturas?meses=12", token=admin)


def tiles(ui) -> dict[str, str]:
    """The section's tiles: label → value."""
    return ui.driver.execute_script(
        "return Object.fromEntries([...document.querySelectorAll(arguments[0] + ' .kpi')]"
        ".map((k) => [k.querySelector('.kpi__label').textContent, k.querySelector('.kpi__value').textContent.replace(/\\u00a0/g, ' ')]))",
        SECTION)


def test_indicators_show_the_memberships_mrr_by_plan_and_month(browser, server):
    admin = token(server, server.admin)
    nome = f"Mesa Fixa {uuid.uuid4().hex[:4]}"
    plano = api(server, "POST", "/api/admin/planos",
                {"nome": nome, "periodicidade": "mensal", "valorCentavos": 12000, "horasMinutos": 240}, admin)
    plano_id = plano["planoId"]
    email, senha, membro = member(server, "Renata Queiroz")
    usuario = session(server, (email, senha))["usuario"]["id"]
    assinatura = api(server, "POST", "/api/assinatura", {"planoId": plano_id, "metodo": "boleto"}, membro)
    ciclo = assinatura["ciclos"][0]
    assert assinatura["status"] == "ativa" and not ciclo["pago"], assinatura
    api(server, "POST", f"/api/admin/usuarios/{usuario}/assinatura/ciclos/1/pagamento", token=admin)

    # the read model follows the events in the background: wait for the plan and its payment
    def settled():
        a = analytics(server, admin)
        nosso = next((p for p in a["porPlano"] if p["planoId"] == plano_id), None)
        pago = next((p for p in a["meses"][-1].get("receitaPorPlano", []) if p["planoId"] == plano_id), None)
        return a if nosso and nosso["mrr"] == 12000 and pago and pago["receita"] > 0 else None
    a = eventually(settled, "the new subscription and its paid cycle in /api/analytics/assinaturas")
    pago = next(p for p in a["meses"][-1]["receitaPorPlano"] if p["planoId"] == plano_id)
    assert pago["receita"] == ciclo["valorCentavos"] + ciclo["adesaoCentavos"], (pago, ciclo)

    # ---- desktop -------------------------------------------------------------------------------------
    ui = browser()
    open_signed_in(ui, server, server.admin, "/admin/indicadores")
    ui.wait_heading("Indicadores")
    section = ui.wait_text("MRR por plano", SECTION)
    a = analytics(server, admin)  # the oracle, read once the screen has loaded
    assert len(a["meses"]) == 12, a["meses"]
    assert a["mrr"] == sum(p["mrr"] for p in a["porPlano"]) and a["mrr"] >= 12000, a
    assert tiles(ui) == {
        "Receita recorrente mensal (MRR)": brl(a["mrr"]),
        "Ativas": str(a["ativas"]), "Suspensas": str(a["suspensas"]), "Pausadas": str(a["pausadas"]),
    }, tiles(ui)
    detalhe = text(section.find_element(By.CSS_SELECTOR, ".kpi"))
    assert f"de {a['ativas']} assinaturas ativas em {len(a['porPlano'])} planos" in detalhe, detalhe
    ui.scroll(section.find_element(By.CSS_SELECTOR, ".kpis"))
    ui.step("assinaturas: MRR e situacao")

    # MRR by plan: the chart (largest first, as the API) and its table
    chart = section.find_element(By.CSS_SELECTOR, "svg.chart--mrr-plano")
    assert chart.get_dom_attribute("role") == "img"
    desc = chart.find_element(By.CSS_SELECTOR, "desc").get_attribute("textContent").replace("\xa0", " ")
    assert f"{nome}: R$ 120,00 (1 ativa)" in desc and f"Total: {brl(a['mrr'])}." in desc, desc
    bars = [int(b.get_attribute("data-valor")) for b in chart.find_elements(By.CSS_SELECTOR, ".chart__bar")]
    assert bars == [p["mrr"] for p in a["porPlano"]], (bars, a["porPlano"])
    assert nome in chart.get_attribute("textContent")
    figure = chart.find_element(By.XPATH, "./ancestor::figure")
    ui.press(figure.find_element(By.XPATH, ".//summary[normalize-space()='Ver os números em tabela']"))
    linha = ui.wait(lambda d: figure.find_element(By.CSS_SELECTOR, f"tr[data-plano='{plano_id}']").is_displayed()
                    and figure.find_element(By.CSS_SELECTOR, f"tr[data-plano='{plano_id}']"))
    assert [text(td) for td in linha.find_elements(By.CSS_SELECTOR, "td")] == [nome, "1", "R$ 120,00", pct(12000 / a["mrr"])], text(linha)
    assert f"MRR total: {brl(a['mrr'])}" in text(figure.find_element(By.CSS_SELECTOR, "caption"))
    ui.scroll(figure)
    ui.step("MRR por plano com a tabela")

    # month by month: the MRR at each month's end as bars, the table with the current month first
    atual = a["meses"][-1]
    titulo = section.find_element(By.ID, "assinaturas-meses-titulo").text
    assert titulo == f"Mês a mês, {mes_em_palavras(a['meses'][0]['mes'])} a {mes_em_palavras(atual['mes'])}", titulo
    barras = section.find_element(By.CSS_SELECTOR, "svg.chart--mrr-mes")
    assert [int(b.get_attribute("data-valor")) for b in barras.find_elements(By.CSS_SELECTOR, ".chart__bar")] == [m["mrrNoFim"] for m in a["meses"]]
    assert brl(atual["mrrNoFim"]) in barras.find_element(By.CSS_SELECTOR, "desc").get_attribute("textContent").replace("\xa0", " ")
    rows = section.find_elements(By.CSS_SELECTOR, ".table--assinaturas-meses tbody tr")
    assert [r.get_dom_attribute("data-mes") for r in rows] == [m["mes"] for m in reversed(a["meses"])]
    cells = [text(td) for td in rows[0].find_elements(By.CSS_SELECTOR, "td")]
    uso = pct(atual.get("utilizacaoDeCreditos"))
    # The revenue counts the bundles sold too (other journeys buy some), their share under it.
    receita = brl(atual["receita"]) + (f"\n{brl(atual['receitaDePacotes'])} em pacotes" if atual["receitaDePacotes"] > 0 else "")
    assert cells[:6] == [
        f"{mes_em_palavras(atual['mes'])} (até agora)", str(atual["novas"]), str(atual["encerradas"]),
        pct(atual.get("churn")), brl(atual["mrrNoFim"]), receita,
    ], cells
    if atual["minutosConcedidos"]:
        usados = max(0, atual["minutosConsumidos"])
        assert cells[6] == f"{uso}\n{horas(usados) if usados else '0 h'} de {horas(atual['minutosConcedidos'])}", cells
    else:
        assert cells[6] == uso, cells
    assert atual["novas"] >= 1 and atual["receita"] >= pago["receita"], atual
    anterior = [text(td) for td in rows[1].find_elements(By.CSS_SELECTOR, "td")]
    assert anterior[0] == mes_em_palavras(a["meses"][-2]["mes"]), anterior
    ui.scroll(rows[0])
    ui.step("assinaturas mes a mes")

    # ---- phone ---------------------------------------------------------------------------------------
    phone = browser(size=(390, 844), mobile=True)
    open_signed_in(phone, server, server.admin, "/admin/indicadores")
    phone.wait_heading("Indicadores")
    section = phone.wait_text("MRR por plano", SECTION)
    assert tiles(phone)["Receita recorrente mensal (MRR)"] == brl(analytics(server, admin)["mrr"])
    phone.scroll(section.find_element(By.CSS_SELECTOR, ".kpis"))
    phone.step("assinaturas 390x844")
    chart = section.find_element(By.CSS_SELECTOR, "svg.chart--mrr-plano")
    figure = chart.find_element(By.XPATH, "./ancestor::figure")
    phone.press(figure.find_element(By.XPATH, ".//summary[normalize-space()='Ver os números em tabela']"))
    card = phone.wait(lambda d: figure.find_element(By.CSS_SELECTOR, f"tr[data-plano='{plano_id}']").is_displayed()
                      and figure.find_element(By.CSS_SELECTOR, f"tr[data-plano='{plano_id}']"))
    assert nome in card.text and "R$ 120,00" in text(card), card.text
    phone.scroll(chart)
    phone.step("MRR por plano 390x844")
    row = section.find_element(By.CSS_SELECTOR, f".table--assinaturas-meses tr[data-mes='{atual['mes']}']")
    assert mes_em_palavras(atual["mes"]) in row.text and brl(atual["receita"]) in text(row), row.text
    phone.scroll(row)
    phone.step("mes atual 390x844")
