"""Steps both journeys share, written as a person would do them."""

from __future__ import annotations

from datetime import date

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
    ui.click("Entrar", "#view form")
    ui.wait_heading(expect_heading)


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
