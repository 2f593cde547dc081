"""A space's calendar as a member reads it, in the unit's time zone: the day view opens on the
next day that can still be booked (a named date is kept), blackouts are blocked time with their
reason, the space's week has a column per day with free time that picks that start on that day,
and the unit's grid of a day has a row per space with free time that books that space then.

Everything is prepared through the API in units and rooms of the test's own."""

from __future__ import annotations

import uuid
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

from selenium.webdriver.common.by import By

from journeys import api, book, member, open_signed_in, room, slot, token, unit

SP = ZoneInfo("America/Sao_Paulo")
DIAS = ("segunda", "terca", "quarta", "quinta", "sexta", "sabado", "domingo")  # date.weekday() order
CARTAO = {"metodo": "cartao", "cartaoToken": "tok_visa"}
SIZES = (((1280, 900), False), ((390, 844), True))
# Zones without daylight saving, one an hour or two apart all around the clock.
ZONES = (
    "Pacific/Pago_Pago", "Pacific/Honolulu", "Pacific/Gambier", "Pacific/Pitcairn", "America/Phoenix", "America/Costa_Rica",
    "America/Bogota", "America/Manaus", "America/Sao_Paulo", "America/Noronha", "Atlantic/Cape_Verde", "Africa/Abidjan",
    "Africa/Lagos", "Africa/Maputo", "Europe/Istanbul", "Asia/Dubai", "Asia/Karachi", "Asia/Dhaka", "Asia/Bangkok",
    "Asia/Singapore", "Asia/Tokyo", "Australia/Brisbane", "Pacific/Guadalcanal", "Pacific/Tarawa", "Pacific/Kiritimati",
)
HOURS_8_TO_20 = {d: [{"abre": 8 * 60, "fecha": 20 * 60}] for d in DIAS}


def zone_near_noon() -> ZoneInfo:
    """A zone where it is around midday now, so "today" there has an early morning already over."""
    now = datetime.now(ZoneInfo("UTC"))
    return min((ZoneInfo(z) for z in ZONES), key=lambda z: abs(now.astimezone(z).hour + now.astimezone(z).minute / 60 - 12.5))


def blackout(server, espaco: str, inicio: datetime, fim: datetime, motivo: str = "manutencao", descricao: str | None = "Pintura") -> None:
    body = {"inicio": inicio.isoformat(), "fim": fim.isoformat(), "motivo": motivo}
    if descricao:
        body["descricao"] = descricao
    api(server, "POST", f"/api/admin/espacos/{espaco}/bloqueios", body, token(server, server.admin))


def at(day: date, hour: int, minute: int = 0, tz: ZoneInfo = SP) -> datetime:
    return datetime(day.year, day.month, day.day, hour, minute, tzinfo=tz)


def slot_state(ui, hhmm: str) -> tuple[str, str]:
    """(class, text) of the slot that starts at hh:mm, free or not."""
    for el in ui.driver.find_elements(By.CSS_SELECTOR, ".slots .slot"):
        if el.find_element(By.CSS_SELECTOR, ".slot__time").text == hhmm:
            shown = [s.text for s in el.find_elements(By.CSS_SELECTOR, ".slot__time, .slot__state, .slot__reason")]
            return el.get_attribute("class"), " ".join(shown)
    raise AssertionError(f"no slot at {hhmm}: {ui.driver.find_element(By.CSS_SELECTOR, '.day').text[:500]}")


def cell(ui, row_css: str, column: int):
    """The cell of a grid's row in `column` (0 = the first after the row's heading)."""
    row = ui.wait(lambda d: (d.find_elements(By.CSS_SELECTOR, row_css) or [False])[0], f"no row {row_css}")
    return row.find_elements(By.CSS_SELECTOR, "td")[column]


def test_a_space_opens_on_the_next_day_it_can_be_booked(browser, server):
    """Open today only 00:00–01:00 (over: it is midday in the unit's zone), closed tomorrow, open
    the day after: the page opens on the day after tomorrow, in the unit's zone; a named date stays."""
    zona = zone_near_noon()
    hoje = datetime.now(zona).date()
    depois = hoje + timedelta(days=2)
    horario = {DIAS[hoje.weekday()]: [{"abre": 0, "fecha": 60}], DIAS[depois.weekday()]: [{"abre": 9 * 60, "fecha": 18 * 60}]}
    sufixo = uuid.uuid4().hex[:4]
    unidade = unit(server, f"CoworkFlow Fuso {sufixo}", fuso=zona.key)
    sala = room(server, unidade["id"], f"Sala Amanhecer {sufixo}", horario)

    ui = browser()
    ui.open(f"/espacos/{sala}")
    ui.wait_heading(f"Sala Amanhecer {sufixo}")
    ui.wait_url(f"data={depois.isoformat()}")
    assert ui.control("Data").get_attribute("value") == depois.isoformat()
    assert slot(ui, "09:00").get_attribute("aria-label") == "09:00 às 09:30, livre"
    ui.step("abre no proximo dia reservavel")

    # a date in the address is kept, even a day already over
    ui.open(f"/espacos/{sala}?data={hoje.isoformat()}")
    ui.wait_text("Encerrado", ".slots")
    assert f"data={hoje.isoformat()}" in ui.driver.current_url, ui.driver.current_url
    assert slot_state(ui, "00:30") == ("slot slot--passado", "00:30 Encerrado"), slot_state(ui, "00:30")
    assert not ui.driver.find_elements(By.CSS_SELECTOR, ".slots button")
    ui.step("data do endereco mantida")

    phone = browser(size=(390, 844), mobile=True)
    phone.open(f"/espacos/{sala}")
    phone.wait_url(f"data={depois.isoformat()}")
    slot(phone, "09:00")
    phone.step("abre no proximo dia reservavel no celular")


def test_blackouts_are_blocked_time_with_their_reason_in_the_day_view(browser, server, booking_day):
    sufixo = uuid.uuid4().hex[:4]
    unidade = unit(server, f"CoworkFlow Bloqueio {sufixo}")
    sala = room(server, unidade["id"], f"Sala Reforma {sufixo}", HOURS_8_TO_20)
    blackout(server, sala, at(booking_day, 14), at(booking_day, 16))
    blackout(server, sala, at(booking_day, 18), at(booking_day, 20), motivo="evento", descricao=None)

    for size, mobile in SIZES:
        ui = browser(size=size, mobile=mobile)
        ui.open(f"/espacos/{sala}?data={booking_day.isoformat()}")
        ui.wait_text("Livre", ".slots")
        for hhmm in ("14:00", "14:30", "15:00", "15:30"):
            classe, texto = slot_state(ui, hhmm)
            assert "slot--bloqueado" in classe and texto == f"{hhmm} Bloqueado Manutenção", (hhmm, classe, texto)
        assert slot_state(ui, "18:30")[1] == "18:30 Bloqueado Evento"
        assert slot_state(ui, "16:00")[1] == "16:00 Livre" and slot_state(ui, "13:30")[1] == "13:30 Livre"
        avisos = [" ".join(li.text.split()) for li in ui.driver.find_elements(By.CSS_SELECTOR, ".day__blocks li")]
        assert avisos == ["Bloqueado das 14:00 às 16:00 — Manutenção: Pintura", "Bloqueado das 18:00 às 20:00 — Evento"], avisos
        ui.scroll(ui.driver.find_element(By.CSS_SELECTOR, ".slot--bloqueado"))
        ui.step("bloqueios no dia")

    # a range cannot run through the blackout: a click past it starts again, saying why
    ui.press(slot(ui, "13:00"))
    ui.press(slot(ui, "16:30"))
    note = ui.driver.find_element(By.CSS_SELECTOR, ".selection__note").text
    assert note.startswith("Nova seleção: começa às 16:30, porque o horário das 14:00 está bloqueado."), note
    ui.step("selecao nao atravessa o bloqueio")


def test_the_week_of_a_space_picks_a_start_on_the_chosen_day(browser, server, booking_day):
    sufixo = uuid.uuid4().hex[:4]
    unidade = unit(server, f"CoworkFlow Semana {sufixo}")
    nome = f"Sala Semana {sufixo}"
    sala = room(server, unidade["id"], nome, HOURS_8_TO_20)
    blackout(server, sala, at(booking_day, 14), at(booking_day, 16))
    outro = member(server, "Tais Moreira")[2]
    book(server, outro, sala, at(booking_day + timedelta(days=1), 10), at(booking_day + timedelta(days=1), 11), CARTAO)
    dias = [booking_day + timedelta(days=i) for i in range(7)]

    for size, mobile in SIZES:
        ui = browser(size=size, mobile=mobile)
        ui.open(f"/espacos/{sala}?data={booking_day.isoformat()}")
        ui.wait_text("Livre", ".slots")
        ui.click("Ver a semana")
        ui.wait_heading(f"Semana — {nome}")
        ui.wait_url(f"/espacos/{sala}/semana?data={booking_day.isoformat()}")
        ui.wait_text("Livre", ".grade")
        heads = [th.get_attribute("data-data") for th in ui.driver.find_elements(By.CSS_SELECTOR, ".grade thead th[data-data]")]
        assert heads == [d.isoformat() for d in dias], heads
        hours = [th.text for th in ui.driver.find_elements(By.CSS_SELECTOR, ".grade tbody th")]
        assert hours == [f"{h:02d}:00" for h in range(8, 20)], hours
        row = lambda hh: f".grade tbody tr:nth-child({hh - 7})"  # noqa: E731
        bloqueado = cell(ui, row(14), 0)
        assert bloqueado.get_attribute("data-estado") == "bloqueado" and "Bloqueado" in bloqueado.text and "Manutenção: Pintura" in bloqueado.text, bloqueado.text
        ocupado = cell(ui, row(10), 1)
        assert ocupado.get_attribute("data-estado") == "ocupado" and "Ocupado" in ocupado.text, ocupado.text
        assert cell(ui, row(10), 0).get_attribute("data-estado") == "livre"
        ui.step("semana do espaco")
        if not mobile:
            continue
        # a free hour two days on: that day, with 09:00 picked
        livre = cell(ui, row(9), 2).find_element(By.TAG_NAME, "a")
        assert livre.text.split("\n")[0] == "Livre", livre.text  # and, read aloud, the day and the start
        ui.press(livre)
        ui.wait_heading(nome)
        ui.wait_url(f"data={dias[2].isoformat()}")
        ui.wait(lambda d: slot(ui, "09:00").get_attribute("aria-pressed") == "true", "09:00 was not picked")
        assert ui.value("Início") == "09:00", ui.value("Início")
        assert "Das 09:00 às 09:30" in ui.driver.find_element(By.CSS_SELECTOR, ".selection").text
        assert "de=" not in ui.driver.current_url, ui.driver.current_url
        ui.step("semana leva ao dia com o inicio escolhido")


def test_the_units_grid_of_a_day_books_a_space_at_an_hour(browser, server, booking_day):
    sufixo = uuid.uuid4().hex[:4]
    unidade = unit(server, f"CoworkFlow Grade {sufixo}")
    norte = room(server, unidade["id"], f"Sala Norte {sufixo}", HOURS_8_TO_20)
    sul = room(server, unidade["id"], f"Sala Sul {sufixo}", HOURS_8_TO_20)
    blackout(server, sul, at(booking_day, 14), at(booking_day, 16))
    email, senha, membro = member(server, "Iara Campos")
    book(server, membro, norte, at(booking_day, 10), at(booking_day, 11), CARTAO)

    for size, mobile in SIZES:
        ui = browser(size=size, mobile=mobile)
        # where a member looks: the catalog filtered by the unit
        open_signed_in(ui, server, (email, senha), f"/espacos?unidade={unidade['id']}")
        ui.wait_text(f"Sala Norte {sufixo}", ".results")
        ui.click_link(f"Ver todos os espaços de {unidade['nome']} num dia")
        ui.wait_heading(unidade["nome"])
        ui.set_value("Data", booking_day.isoformat())
        ui.wait_url(f"/unidades/{unidade['id']}/dia?data={booking_day.isoformat()}")
        ui.wait(lambda d: d.find_elements(By.CSS_SELECTOR, f".grade tr[data-espaco='{sul}']"), "no grid")
        rows = [tr.find_element(By.CSS_SELECTOR, "th a").text for tr in ui.driver.find_elements(By.CSS_SELECTOR, ".grade tbody tr")]
        assert rows == [f"Sala Norte {sufixo}", f"Sala Sul {sufixo}"], rows
        hours = [th.text for th in ui.driver.find_elements(By.CSS_SELECTOR, ".grade thead th")][1:]
        assert hours == [f"{h:02d}:00" for h in range(8, 20)], hours
        assert cell(ui, f".grade tr[data-espaco='{norte}']", 2).get_attribute("data-estado") == "ocupado"
        assert cell(ui, f".grade tr[data-espaco='{sul}']", 2).get_attribute("data-estado") == "livre"
        bloqueado = cell(ui, f".grade tr[data-espaco='{sul}']", 6)
        assert bloqueado.get_attribute("data-estado") == "bloqueado" and "Manutenção: Pintura" in bloqueado.text, bloqueado.text
        ui.step("grade da unidade no dia")
        if mobile:
            break
        # free time at 09:00 of the south room: its day, 09:00 picked
        ui.press(cell(ui, f".grade tr[data-espaco='{sul}']", 1).find_element(By.TAG_NAME, "a"))
        ui.wait_heading(f"Sala Sul {sufixo}")
        ui.wait_url(f"data={booking_day.isoformat()}")
        ui.wait(lambda d: slot(ui, "09:00").get_attribute("aria-pressed") == "true", "09:00 was not picked")
        assert ui.value("Início") == "09:00"
        ui.step("grade leva ao espaco com o inicio escolhido")
        # and back from the space's page to the unit's grid of that day
        ui.click_link(f"Todos os espaços de {unidade['nome']} neste dia")
        ui.wait_heading(unidade["nome"])
        ui.wait_url(f"/unidades/{unidade['id']}/dia?data={booking_day.isoformat()}")
