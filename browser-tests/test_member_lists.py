"""What a member reads about themselves: "Minhas reservas" with the upcoming bookings first
(soonest first) and the past ones under their own heading (newest first); the inbox's times in
the zone of the booking's unit, as the bookings show them; and "Meus dados" with the export's
readable summary (who we know them as, bookings, payments, notices, their subscription and its
cycles, the bundles they bought, their credits, the legal basis).

Bookings are made through the API in units of the test's own; a booking cannot be made in the
past, so the past ones are added to the list's real answer (as the server would keep them)."""

from __future__ import annotations

import json
import uuid
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from selenium.webdriver.common.by import By

from journeys import api, book, eventually, member, open_signed_in, room, token, unit
from test_plans import brl

SP = ZoneInfo("America/Sao_Paulo")
CARTAO = {"metodo": "cartao", "cartaoToken": "tok_visa"}
SIZES = (((1280, 900), False), ((390, 844), True))

# The member's bookings as GET /api/reservas answers them, plus `extra` (bookings already over).
WITH_PAST = """
const extra = %s;
const original = window.fetch;
window.fetch = async (input, init) => {
  const response = await original(input, init);
  const url = typeof input === 'string' ? input : input.url;
  if (!/\\/api\\/reservas(\\?|$)/.test(url) || !response.ok) return response;
  const page = await response.json();
  if (page.pagina === 1) page.itens.push(...extra);
  page.total += extra.length;
  return new Response(JSON.stringify(page), {status: 200, headers: {'Content-Type': 'application/json'}});
};
"""


def whole_hour(days: int, hour: int, tz: ZoneInfo = SP) -> datetime:
    return (datetime.now(tz) + timedelta(days=days)).replace(hour=hour, minute=0, second=0, microsecond=0)


def confirmed(server, membro: str, reserva: dict) -> dict:
    eventually(lambda: api(server, "GET", f"/api/reservas/{reserva['id']}", token=membro)["status"] == "confirmada", "the confirmation")
    return reserva


def rows(ui, section: str) -> list[str]:
    """The bookings of a section of "Minhas reservas" as (space, when) lines, in order."""
    return [" · ".join(td.text for td in tr.find_elements(By.CSS_SELECTOR, "td")[:2])
            for tr in ui.driver.find_elements(By.CSS_SELECTOR, f"{section} tbody tr")]


def test_my_bookings_show_the_upcoming_ones_first_and_the_past_under_their_own_heading(browser, server):
    sufixo = uuid.uuid4().hex[:4]
    unidade = unit(server, f"CoworkFlow Agenda {sufixo}")
    sala = room(server, unidade["id"], f"Sala Agenda {sufixo}")
    email, senha, membro = member(server, "Olga Prates")
    # booked out of order: the later one first
    depois = confirmed(server, membro, book(server, membro, sala, whole_hour(3, 10), whole_hour(3, 11), CARTAO))
    book(server, membro, sala, whole_hour(1, 15), whole_hour(1, 16))  # PIX, waiting for payment
    cancelada = confirmed(server, membro, book(server, membro, sala, whole_hour(2, 9), whole_hour(2, 10), CARTAO))
    api(server, "POST", f"/api/reservas/{cancelada['id']}/cancelamento", {}, membro)
    eventually(lambda: api(server, "GET", f"/api/reservas/{cancelada['id']}", token=membro)["status"] == "cancelada", "the cancellation")
    passadas = [{
        "id": f"8f7c1d2e-0000-4000-8000-00000000000{n}", "espacoId": sala, "unidadeId": unidade["id"], "status": "concluida", "total": 6000,
        "inicio": whole_hour(-dias, 14).isoformat(), "fim": whole_hour(-dias, 15).isoformat(), "dias": [whole_hour(-dias, 14).date().isoformat()],
    } for n, dias in ((1, 9), (2, 4))]
    quando = lambda inicio: f"{inicio.strftime('%d/%m/%Y, %H:%M')}–{(inicio + timedelta(hours=1)).strftime('%H:%M')}"  # noqa: E731
    nome = f"Sala Agenda {sufixo}"

    for size, mobile in SIZES:
        ui = browser(size=size, mobile=mobile)
        ui.driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": WITH_PAST % json.dumps(passadas)})
        open_signed_in(ui, server, (email, senha), "/reservas")
        ui.wait_heading("Minhas reservas")
        ui.wait_text("Reservas anteriores")
        headings = [h.text for h in ui.driver.find_elements(By.CSS_SELECTOR, "#view h2")]
        assert headings == ["Próximas reservas", "Reservas anteriores"], headings
        proximas = rows(ui, ".reservas--proximas")
        assert proximas == [f"{nome} · {quando(whole_hour(1, 15))}", f"{nome} · {quando(whole_hour(3, 10))}"], proximas
        anteriores = rows(ui, ".reservas--anteriores")
        assert anteriores == [f"{nome} · {quando(whole_hour(2, 9))}", f"{nome} · {quando(whole_hour(-4, 14))}", f"{nome} · {quando(whole_hour(-9, 14))}"], anteriores
        assert "Aguardando pagamento" in ui.row(quando(whole_hour(1, 15)), ".reservas--proximas tbody tr").text
        assert "Cancelada" in ui.row(quando(whole_hour(2, 9)), ".reservas--anteriores tbody tr").text
        assert "Concluída" in ui.row(quando(whole_hour(-4, 14)), ".reservas--anteriores tbody tr").text
        # what can still be done is offered on the upcoming ones only
        assert ui.driver.find_elements(By.CSS_SELECTOR, f".reservas--proximas tr[data-reserva='{depois['id']}'] a[href$='/checkin']")
        assert not ui.driver.find_elements(By.CSS_SELECTOR, ".reservas--anteriores button, .reservas--anteriores a[href$='/checkin']")
        ui.scroll(ui.driver.find_element(By.ID, "anteriores"))
        ui.step("proximas e anteriores")


def test_the_inbox_shows_times_in_the_zone_of_the_bookings_unit(browser, server):
    """A unit in Rio Branco (UTC−5): the notices of its booking, and the welcome, read its time —
    not the browser's (UTC here) nor São Paulo's."""
    sufixo = uuid.uuid4().hex[:4]
    acre = ZoneInfo("America/Rio_Branco")
    unidade = unit(server, f"CoworkFlow Acre {sufixo}", fuso=acre.key)
    sala = room(server, unidade["id"], f"Sala Acre {sufixo}")
    email, senha, membro = member(server, "Rita Farias")
    confirmed(server, membro, book(server, membro, sala, whole_hour(2, 10, acre), whole_hour(2, 11, acre), CARTAO))
    def welcome_and_the_bookings_two():
        itens = api(server, "GET", "/api/notificacoes", token=membro)["itens"]
        return itens if len(itens) >= 3 else None
    everything = eventually(welcome_and_the_bookings_two, "the booking's notices")
    assert sorted(n["tipo"] for n in everything) == ["boas_vindas", "pagamento_recebido", "reserva_confirmada"], everything
    expected = {n["id"]: datetime.fromisoformat(n["em"].replace("Z", "+00:00")).astimezone(acre).strftime("%d/%m/%Y, %H:%M") for n in everything}

    for size, mobile in SIZES:
        ui = browser(size=size, mobile=mobile)
        open_signed_in(ui, server, (email, senha), "/notificacoes")
        ui.wait_heading("Notificações")
        ui.wait_text("Bem-vindo(a) à CoworkFlow", ".inbox")
        shown = {el.find_element(By.XPATH, "ancestor::article").find_element(By.CSS_SELECTOR, "h2").get_attribute("id").removeprefix("notificacao-"): el.text
                 for el in ui.driver.find_elements(By.CSS_SELECTOR, ".inbox time")}
        assert shown == expected, (shown, expected)
        assert ui.driver.find_element(By.CSS_SELECTOR, ".inbox__zone").text == "Horários no horário de Rio Branco."
        ui.step("notificacoes no fuso da unidade")


def test_my_data_shows_the_readable_summary_of_what_is_known(browser, server):
    sufixo = uuid.uuid4().hex[:4]
    unidade = unit(server, f"CoworkFlow Dados {sufixo}")
    sala = room(server, unidade["id"], f"Sala Dados {sufixo}")
    email, senha, membro = member(server, "Vera Lúcia Campos")
    inicio = whole_hour(2, 10)
    confirmed(server, membro, book(server, membro, sala, inicio, inicio + timedelta(hours=1), CARTAO))
    quando = f"{inicio.strftime('%d/%m/%Y, %H:%M')}–{(inicio + timedelta(hours=1)).strftime('%H:%M')}"
    eventually(lambda: len(api(server, "GET", "/api/auth/me/dados", token=membro)["resumo"]["pagamentos"]) == 1, "the payment in the summary")
    # a plan subscribed by boleto (its first cycle to pay) and a bundle bought by card (paid)
    admin = token(server, server.admin)
    plano = api(server, "POST", "/api/admin/planos", {
        "nome": f"Dados {sufixo}", "periodicidade": "mensal", "valorCentavos": 12000, "horasMinutos": 240}, admin)
    ciclo = api(server, "POST", "/api/assinatura", {"planoId": plano["planoId"], "metodo": "boleto"}, membro)["cicloAtual"]
    pacote = api(server, "POST", "/api/admin/pacotes", {
        "nome": f"Pacote Dados {sufixo}", "medida": "minutos", "quantidade": 300, "validadeDias": 30, "precoCentavos": 15000}, admin)
    compra = api(server, "POST", f"/api/pacotes/{pacote['pacoteId']}/compras", CARTAO, membro)
    # the summary reads the same read models as these (the export itself is rate-limited)
    eventually(lambda: api(server, "GET", f"/api/pacotes/compras/{compra['compraId']}", token=membro)["status"] == "paga", "the bundle paid")
    eventually(lambda: len(api(server, "GET", "/api/creditos", token=membro)["lotes"]) == 2, "both lots")
    data = lambda iso: f"{iso[8:10]}/{iso[5:7]}/{iso[:4]}"

    for size, mobile in SIZES:
        ui = browser(size=size, mobile=mobile)
        open_signed_in(ui, server, (email, senha), "/meus-dados")
        ui.wait_heading("Meus dados")
        resumo = ui.wait_text("Como conhecemos você", "#view section.resumo")
        ui.wait_idle()
        quem = resumo.find_element(By.CSS_SELECTOR, "[aria-labelledby='resumo-quem'] dl").text.split("\n")
        assert quem[:8] == ["Nome", "Vera Lúcia Campos", "E-mail", email, "Perfil", "Membro", "Plano de preços", "Nenhum"], quem
        reserva = ui.row(f"Sala Dados {sufixo}", "section[aria-labelledby='resumo-reservas'] tbody tr")
        for texto in (unidade["nome"], quando, "Confirmada", "R$ 60,00"):
            assert texto in reserva.text, (texto, reserva.text)
        pagamento = ui.row("Pagamento recebido (Cartão de crédito)", "section[aria-labelledby='resumo-pagamentos'] tbody tr")
        assert f"Sala Dados {sufixo}, {quando}" in pagamento.text and "R$ 60,00" in pagamento.text, pagamento.text
        avisos = resumo.find_element(By.CSS_SELECTOR, "[aria-labelledby='resumo-avisos']").text
        for titulo in ("Bem-vindo(a) à CoworkFlow", f"Reserva confirmada: Sala Dados {sufixo}, {quando}", "Pagamento recebido: R$ 60,00"):
            assert titulo in avisos, (titulo, avisos)
        assert "Por e-mail e na sua caixa" in avisos, avisos
        assert "não registra outros consentimentos" in resumo.find_element(By.CSS_SELECTOR, "[aria-labelledby='resumo-base']").text
        ui.scroll(resumo)
        ui.step("resumo dos meus dados")
        assinatura = resumo.find_element(By.CSS_SELECTOR, "[aria-labelledby='resumo-assinatura']")
        fatos = assinatura.find_element(By.CSS_SELECTOR, "dl").text.split("\n")
        assert fatos == ["Plano", f"Dados {sufixo}", "Situação", "Ativa", "Desde", data(ciclo["inicio"]), "Valor por ciclo", "R$ 120,00",
                         "Pagamento", "Boleto"], fatos
        linha = ui.row(f"{data(ciclo['inicio'])} a {data(ciclo['ate'])}", "section[aria-labelledby='resumo-assinatura'] tbody tr")
        assert "A pagar" in linha.text and brl(ciclo["valorCentavos"]) in linha.text.replace("\xa0", " "), linha.text
        comprado = ui.row(f"Pacote Dados {sufixo}", "section[aria-labelledby='resumo-pacotes'] tbody tr")
        assert "Paga" in comprado.text and "R$ 150,00" in comprado.text, comprado.text
        creditos = resumo.find_element(By.CSS_SELECTOR, "[aria-labelledby='resumo-creditos']")
        lote = ui.row("Pacote Pacote Dados", "section[aria-labelledby='resumo-creditos'] tbody tr")
        assert "5 h" in lote.text, lote.text
        # the plan's lot ends at the midnight after the cycle: its last day is the cycle's
        do_plano = ui.row(f"Plano Dados {sufixo}", "section[aria-labelledby='resumo-creditos'] tbody tr")
        ultimo = do_plano.find_element(By.CSS_SELECTOR, "td[data-label='Último dia']").text
        assert ultimo == data(ciclo["ate"]), (ultimo, do_plano.text)
        ui.scroll(assinatura)
        ui.step("assinatura pacotes e creditos nos meus dados")
        assert resumo.find_element(By.CSS_SELECTOR, "[aria-labelledby='resumo-empresa']").text.endswith("Você não faz parte de uma empresa.")
        ui.scroll(creditos)
        ui.step("creditos nos meus dados")
