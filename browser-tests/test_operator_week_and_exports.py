"""The operator's week and spreadsheets: "Reservas do dia" turns into the unit's week (per space
and day, how many bookings and how they stand, blackouts), and a day of it opens that day's
board; the finance screen downloads both exports in the Excel dialect too (BOM, ';', decimal
comma, local time, names) beside the plain CSV.

Everything is prepared through the API in units of the test's own, a day or more ahead."""

from __future__ import annotations

import csv
import io
import uuid
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

from selenium.webdriver.common.by import By

from journeys import api, book, eventually, member, open_signed_in, room, token, unit

SP = ZoneInfo("America/Sao_Paulo")
CARTAO = {"metodo": "cartao", "cartaoToken": "tok_visa"}
SIZES = (((1280, 900), False), ((390, 844), True))


def at(day: date, hour: int) -> datetime:
    return datetime(day.year, day.month, day.day, hour, tzinfo=SP)


def confirmed(server, membro: str, reserva: dict) -> dict:
    eventually(lambda: api(server, "GET", f"/api/reservas/{reserva['id']}", token=membro)["status"] == "confirmada", "the confirmation")
    return reserva


def week_cell(ui, espaco: str, dia: date):
    return ui.wait(lambda d: (d.find_elements(By.CSS_SELECTOR, f".week-board tr[data-espaco='{espaco}'] td[data-data='{dia.isoformat()}']") or [False])[0],
                   f"no cell of {dia} for {espaco}")


def lines(cell) -> list[str]:
    """What a cell of the week shows (its words read aloud only left out)."""
    return [s.text for s in cell.find_elements(By.CSS_SELECTOR, ".week-board__total, .week-board__line")]


def test_the_reception_sees_the_week_and_opens_a_day_from_it(browser, server):
    sufixo = uuid.uuid4().hex[:4]
    unidade = unit(server, f"CoworkFlow Semana Recepção {sufixo}")
    norte = room(server, unidade["id"], f"Sala Norte {sufixo}")
    sul = room(server, unidade["id"], f"Sala Sul {sufixo}")
    d0 = datetime.now(SP).date() + timedelta(days=1)
    dias = [d0 + timedelta(days=i) for i in range(7)]
    pessoas = {nome: member(server, nome)[2] for nome in ("Caio Lemos", "Dora Reis", "Enzo Prado", "Fabi Souto", "Gil Ramos")}
    confirmed(server, pessoas["Caio Lemos"], book(server, pessoas["Caio Lemos"], norte, at(d0, 9), at(d0, 10), CARTAO))
    confirmed(server, pessoas["Dora Reis"], book(server, pessoas["Dora Reis"], norte, at(d0, 11), at(d0, 12), CARTAO))
    book(server, pessoas["Enzo Prado"], sul, at(d0, 9), at(d0, 10))  # PIX, never paid
    confirmed(server, pessoas["Fabi Souto"], book(server, pessoas["Fabi Souto"], sul, at(dias[2], 14), at(dias[2], 15), CARTAO))
    gil = confirmed(server, pessoas["Gil Ramos"], book(server, pessoas["Gil Ramos"], sul, at(dias[2], 16), at(dias[2], 17), CARTAO))
    api(server, "POST", f"/api/reservas/{gil['id']}/cancelamento", {}, pessoas["Gil Ramos"])
    eventually(lambda: api(server, "GET", f"/api/reservas/{gil['id']}", token=pessoas["Gil Ramos"])["status"] == "cancelada", "the cancellation")
    api(server, "POST", f"/api/admin/espacos/{norte}/bloqueios",
        {"inicio": at(dias[1], 10).isoformat(), "fim": at(dias[1], 12).isoformat(), "motivo": "manutencao"}, token(server, server.admin))

    for size, mobile in SIZES:
        ui = browser(size=size, mobile=mobile)
        open_signed_in(ui, server, server.admin, f"/admin/reservas?unidade={unidade['id']}&data={d0.isoformat()}")
        ui.wait_heading("Reservas do dia")
        ui.wait_text("Quadro do dia")
        ui.click("Semana")
        ui.wait_url("vista=semana")
        ui.wait_text("Quadro da semana")
        assert ui.button("Semana").get_attribute("aria-pressed") == "true" and ui.button("Dia").get_attribute("aria-pressed") == "false"
        heads = [th.get_attribute("data-data") for th in ui.driver.find_elements(By.CSS_SELECTOR, ".week-board thead th[data-data]")]
        assert heads == [d.isoformat() for d in dias], heads
        assert lines(week_cell(ui, norte, d0)) == ["2 reservas", "2 aguardando"], lines(week_cell(ui, norte, d0))
        assert lines(week_cell(ui, sul, d0)) == ["1 reserva", "1 aguardando pagamento"], lines(week_cell(ui, sul, d0))
        assert lines(week_cell(ui, norte, dias[1])) == ["Sem reservas", "Bloqueado 10:00–12:00 (Manutenção)"], lines(week_cell(ui, norte, dias[1]))
        assert lines(week_cell(ui, sul, dias[2])) == ["1 reserva", "1 aguardando", "1 cancelada"], lines(week_cell(ui, sul, dias[2]))
        assert lines(week_cell(ui, norte, dias[6])) == ["Sem reservas"]
        ui.scroll(ui.driver.find_element(By.CSS_SELECTOR, ".week-board"))
        ui.step("quadro da semana")
        if mobile:
            break
        # a day of the week opens that day's board, with its list
        ui.press(week_cell(ui, sul, dias[2]).find_element(By.TAG_NAME, "button"))
        ui.wait_text("Quadro do dia")
        ui.wait(lambda d: f"data={dias[2].isoformat()}" in d.current_url and "vista=" not in d.current_url, "the day did not open")
        assert ui.button("Dia").get_attribute("aria-pressed") == "true"
        assert ui.row("Fabi Souto", "#view tbody tr")
        assert "Aguardando" in ui.row("Fabi Souto", "#view tbody tr").text
        ui.step("dia aberto pela semana")
        # and the week moves by seven days
        ui.click("Semana")
        ui.wait_text("Quadro da semana")
        ui.click("Próxima semana")
        ui.wait_url(f"data={(dias[2] + timedelta(days=7)).isoformat()}")
        ui.wait_text("Quadro da semana")


def test_finance_downloads_the_exports_in_the_excel_dialect(browser, server):
    sufixo = uuid.uuid4().hex[:4]
    unidade = unit(server, f"CoworkFlow Planilha {sufixo}")
    sala = room(server, unidade["id"], f"Sala Planilha {sufixo}")
    membro = member(server, "Hugo Viana")[2]
    inicio = at(datetime.now(SP).date() + timedelta(days=2), 10)
    confirmed(server, membro, book(server, membro, sala, inicio, inicio + timedelta(hours=1), CARTAO))
    hoje = datetime.now(SP).date()
    eventually(lambda: api(server, "GET", f"/api/admin/financeiro/faturas?unidade={unidade['id']}&de={(hoje - timedelta(days=1)).isoformat()}&ate={hoje.isoformat()}",
                           token=token(server, server.admin))["total"] >= 1, "the invoice")

    for size, mobile in SIZES:
        ui = browser(size=size, mobile=mobile)
        open_signed_in(ui, server, server.admin, f"/admin/financeiro?unidade={unidade['id']}")
        ui.wait_heading("Financeiro")
        ui.wait_text("Equilibrado", "#view section")
        ui.scroll(ui.button("Baixar faturas (Excel)"))
        ui.step("exportacoes csv e excel")
        if mobile:
            break
        ui.click("Baixar faturas (Excel)")
        ui.wait_text("faturas-excel-", "#view [aria-live]")
        arquivo = ui.wait(lambda d: [p for p in ui.downloads.glob("faturas-excel-*.csv") if p.stat().st_size] or False, "no Excel invoices downloaded")[0]
        raw = arquivo.read_bytes()
        assert raw.startswith(b"\xef\xbb\xbf"), raw[:20]
        linhas = list(csv.DictReader(io.StringIO(raw.decode("utf-8-sig")), delimiter=";"))
        assert [(l["Código"], l["Valor (R$)"], l["Unidade"], l["Espaço"], l["Membro"]) for l in linhas] == [
            ("F-1", "60,00", unidade["nome"], f"Sala Planilha {sufixo}", "Hugo Viana")], linhas
        ui.click("Baixar lançamentos do razão (Excel)")
        razao = ui.wait(lambda d: [p for p in ui.downloads.glob("razao-excel-*.csv") if p.stat().st_size] or False, "no Excel ledger downloaded")[0]
        lancamentos = list(csv.DictReader(io.StringIO(razao.read_bytes().decode("utf-8-sig")), delimiter=";"))
        assert ("Caixa", "60,00") in [(l["Conta"], l["Débito (R$)"]) for l in lancamentos], lancamentos
        # the plain CSV stays as it was: ',' and a decimal point
        ui.click("Baixar faturas (CSV)")
        simples = ui.wait(lambda d: [p for p in ui.downloads.glob("faturas-2*.csv") if p.stat().st_size] or False, "no plain invoices CSV")[0]
        assert [(l["codigo"], l["valor"]) for l in csv.DictReader(io.StringIO(simples.read_text(encoding="utf-8")))] == [("F-1", "60.00")]
        ui.step("planilhas baixadas")
