"""The server under test and a small driver for the web app's Portuguese UI.

`Server` starts `coworkflow serve --seed-demo` on a free port with a fresh data directory and
reads the demo credentials it prints. `UI` wraps one headless Chromium: it finds controls by
their visible labels (as a person does), waits explicitly (never sleeps), saves a screenshot
per step and fails the step on any console error in the page and on basic accessibility slips.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import socket
import subprocess
import time
import unicodedata
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException, TimeoutException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webelement import WebElement
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import Select, WebDriverWait

REPO = Path(__file__).resolve().parents[1]
WAIT_SECONDS = float(os.environ.get("BROWSER_WAIT_SECONDS", "20"))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class Server:
    url: str
    member: tuple[str, str]
    admin: tuple[str, str]
    credits: tuple[str, str]
    espacos: dict[str, str]
    process: subprocess.Popen
    stdout_path: Path
    stderr_path: Path

    @classmethod
    def start(cls, binary: Path, data_dir: Path, logs_dir: Path, timeout: float = 120) -> "Server":
        if not binary.exists():
            raise RuntimeError(f"{binary} does not exist: build it first (swift build)")
        port = free_port()
        stdout_path = logs_dir / "server.stdout.log"
        stderr_path = logs_dir / "server.stderr.log"
        command = [str(binary), "serve", "--seed-demo", "--port", str(port), "--data", str(data_dir), "--web", str(REPO / "web")]
        # Line-buffered standard output even when it is a file, so the demo passwords arrive now.
        if shutil.which("stdbuf"):
            command = ["stdbuf", "-oL", *command]
        env = {k: v for k, v in os.environ.items() if k not in ("PORT",)}
        env.setdefault("LOG_LEVEL", "warning")
        out = open(stdout_path, "w")
        err = open(stderr_path, "w")
        process = subprocess.Popen(command, stdout=out, stderr=err, cwd=REPO, env=env, start_new_session=True)
        out.close()
        err.close()
        url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + timeout
        while True:
            if process.poll() is not None:
                raise RuntimeError(f"coworkflow serve exited with {process.returncode}: {stderr_path.read_text()[-2000:]}")
            try:
                with urllib.request.urlopen(f"{url}/saude", timeout=2) as response:
                    if response.status == 200:
                        break
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                pass
            if time.monotonic() > deadline:
                process.kill()
                raise RuntimeError(f"coworkflow serve did not answer /saude within {timeout} s")
            time.sleep(0.2)
        server = cls(url, ("", ""), ("", ""), ("", ""), {}, process, stdout_path, stderr_path)
        server._read_demo(deadline)
        with urllib.request.urlopen(f"{url}/", timeout=5) as response:
            page = response.read().decode()
        if "<title>CoworkFlow</title>" not in page:
            server.stop()
            raise RuntimeError("GET / is not the web app: is this binary built with --web support?")
        return server

    def _read_demo(self, deadline: float) -> None:
        """Parses `demo: EMAIL / PASSWORD [(admin)]` and `demo: espaço NAME (tipo) ID` lines: the
        admin, the member (membro@…, with no credits) and the member holding credits (creditos@…).
        The spaces come after the accounts, so once one is read every account is."""
        while True:
            text = self.stdout_path.read_text()
            for line in text.splitlines():
                m = re.match(r"^demo: (\S+@\S+) / (\S+)( \(admin\))?$", line.strip())
                if m:
                    account = (m.group(1), m.group(2))
                    if m.group(3):
                        self.admin = account
                    elif account[0].startswith("creditos@"):
                        self.credits = account
                    elif account[0].startswith("membro@") or not self.member[0]:
                        self.member = account
                m = re.match(r"^demo: espaço (.+) \((\w+)\) ([0-9a-fA-F-]{36})$", line.strip())
                if m:
                    self.espacos[m.group(1)] = m.group(3)
            if self.admin[0] and self.member[0] and self.espacos:
                return
            if time.monotonic() > deadline:
                raise RuntimeError(f"no demo credentials on standard output of --seed-demo:\n{text[-2000:]}")
            time.sleep(0.1)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)


# Errors the page may legitimately log: the browser reports every 4xx answer of fetch() as
# "Failed to load resource"; a test that provokes one declares it with `ui.expect_http(...)`.
NETWORK_ERROR = re.compile(r"^(\S+) - Failed to load resource: the server responded with a status of (\d{3})")

# One pass over the page for slips a person with a screen reader or a keyboard would hit.
AUDIT_JS = r"""
const problems = [];
const visible = (el) => !!(el.offsetWidth || el.offsetHeight || el.getClientRects().length) && getComputedStyle(el).visibility !== 'hidden';
if (document.documentElement.lang !== 'pt-BR') problems.push('html lang is not pt-BR');
const h1s = [...document.querySelectorAll('#view h1')].filter(visible);
if (h1s.length !== 1) problems.push(`${h1s.length} visible h1 in the view`);
for (const el of document.querySelectorAll('input, select, textarea')) {
  if (el.type === 'hidden' || el.hidden || !visible(el)) continue;
  const named = (el.labels && el.labels.length) || el.getAttribute('aria-label') || el.getAttribute('aria-labelledby');
  if (!named) problems.push(`control without label: ${el.outerHTML.slice(0, 120)}`);
}
for (const el of document.querySelectorAll('button, a[href]')) {
  if (!visible(el)) continue;
  const name = (el.getAttribute('aria-label') || el.textContent || '').trim();
  if (!name) problems.push(`unnamed ${el.tagName.toLowerCase()}: ${el.outerHTML.slice(0, 120)}`);
}
for (const img of document.querySelectorAll('img')) {
  if (!img.hasAttribute('alt')) problems.push(`img without alt: ${img.src}`);
}
// Against the layout's width, not innerWidth: a phone widens its viewport to content wider than the screen.
if (document.documentElement.scrollWidth > document.documentElement.clientWidth + 1) {
  const wide = [...document.querySelectorAll('#conteudo *')].filter((el) => el.getBoundingClientRect().right > document.documentElement.clientWidth + 1).slice(-3);
  problems.push(`the page scrolls sideways (${document.documentElement.scrollWidth} px in ${document.documentElement.clientWidth} px): ${wide.map((el) => el.outerHTML.slice(0, 80)).join(' | ')}`);
}
const ids = {};
for (const el of document.querySelectorAll('[id]')) { ids[el.id] = (ids[el.id] || 0) + 1; }
for (const [id, n] of Object.entries(ids)) { if (n > 1) problems.push(`duplicate id ${id}`); }
for (const entry of performance.getEntriesByType('resource')) {
  if (!entry.name.startsWith(location.origin) && !entry.name.startsWith('data:') && !entry.name.startsWith('blob:')) problems.push(`request to another origin: ${entry.name}`);
}
return problems;
"""


@dataclass
class UI:
    driver: webdriver.Chrome
    base: str
    shots: Path
    downloads: Path
    step_number: int = 0
    expected_http: list[tuple[int, str]] = field(default_factory=list)
    console: list[dict] = field(default_factory=list)

    @classmethod
    def launch(cls, base: str, shots: Path, size: tuple[int, int] = (1280, 900), mobile: bool = False) -> "UI":
        os.environ.setdefault("SE_AVOID_STATS", "true")
        shots.mkdir(parents=True, exist_ok=True)
        downloads = shots / "downloads"
        downloads.mkdir(exist_ok=True)
        options = webdriver.ChromeOptions()
        options.binary_location = os.environ.get("CHROMIUM_BIN", "/usr/bin/chromium")
        for arg in (
            "--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", "--lang=pt-BR",
            f"--window-size={size[0]},{size[1]}", "--no-first-run", "--disable-extensions",
            "--disable-background-networking", "--disable-component-update", "--disable-sync",
            # Offline: nothing but this machine resolves, so an external fetch would fail loudly.
            "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
        ):
            options.add_argument(arg)
        if mobile:
            options.add_experimental_option("mobileEmulation", {"deviceMetrics": {"width": size[0], "height": size[1], "pixelRatio": 2.0}})
        options.add_experimental_option("prefs", {
            "intl.accept_languages": "pt-BR,pt",
            "download.default_directory": str(downloads),
            "download.prompt_for_download": False,
        })
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        service = Service(os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver"))
        driver = webdriver.Chrome(service=service, options=options)
        driver.execute_cdp_cmd("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": str(downloads)})
        return cls(driver, base, shots, downloads)

    # ---- console and steps -------------------------------------------------------------------

    def expect_http(self, status: int, path: str) -> None:
        """Declares that the next request to `path` answers `status` (the page logs it)."""
        self.expected_http.append((status, path))

    def console_errors(self) -> list[str]:
        entries = self.driver.get_log("browser")
        self.console.extend(entries)
        errors = []
        for entry in entries:
            if entry["level"] != "SEVERE":
                continue
            m = NETWORK_ERROR.match(entry["message"])
            if m:
                status, url = int(m.group(2)), m.group(1)
                allowed = next((e for e in self.expected_http if e[0] == status and e[1] in url), None)
                if allowed:
                    self.expected_http.remove(allowed)
                    continue
            errors.append(f"{entry['source']}: {entry['message']}")
        return errors

    def step(self, name: str) -> None:
        """Screenshot, then fail on console errors and accessibility slips so far."""
        self.wait_idle()
        self.step_number += 1
        ascii_name = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
        slug = re.sub(r"[^a-z0-9]+", "-", ascii_name.lower()).strip("-")
        self.driver.save_screenshot(str(self.shots / f"{self.step_number:02d}-{slug}.png"))
        errors = self.console_errors()
        assert not errors, f"console errors at step '{name}':\n" + "\n".join(errors)
        problems = self.driver.execute_script(AUDIT_JS)
        assert not problems, f"accessibility problems at step '{name}':\n" + "\n".join(problems)

    def save_failure(self) -> None:
        """The page as it was when the test failed: a screenshot, its text and the console."""
        try:
            self.driver.save_screenshot(str(self.shots / "failure.png"))
            (self.shots / "failure.txt").write_text(
                self.driver.current_url + "\n\n" + self.driver.find_element(By.TAG_NAME, "body").text)
            self.console_errors()
        except Exception:  # the browser may be gone; the report has the assertion anyway
            pass

    def close(self) -> None:
        try:
            (self.shots / "console.json").write_text(json.dumps(self.console, indent=1, ensure_ascii=False))
        finally:
            self.driver.quit()

    # ---- waiting -------------------------------------------------------------------------------

    def wait(self, condition, message: str = "", timeout: float = WAIT_SECONDS, poll: float = 0.05):
        return WebDriverWait(self.driver, timeout, poll_frequency=poll,
                             ignored_exceptions=(StaleElementReferenceException,)).until(condition, message)

    def wait_idle(self) -> None:
        """No loading state on the page and no open request of the view."""
        self.wait(lambda d: d.execute_script(
            "return document.readyState === 'complete' && !document.querySelector('[aria-busy=\"true\"]')"),
            "the page kept loading")

    def wait_text(self, text: str, css: str = "#conteudo") -> WebElement:
        def found(d):
            for el in d.find_elements(By.CSS_SELECTOR, css):
                if text in el.text:
                    return el
            return False
        try:
            return self.wait(found)
        except TimeoutException:
            body = self.driver.find_element(By.CSS_SELECTOR, "body").text
            raise AssertionError(f"'{text}' did not appear in {css}; the page shows:\n{body[:3000]}") from None

    def wait_catalog(self) -> None:
        """The catalog has drawn its first page of spaces (which ones, on a server other tests also
        fill, is not known: a test that needs one space filters for it or opens it)."""
        self.wait(lambda d: d.find_elements(By.CSS_SELECTOR, "#view .cards .card h2"), "the catalog listed no space")

    def wait_url(self, fragment: str) -> None:
        self.wait(lambda d: fragment in d.current_url, f"URL never contained {fragment}")

    def heading(self) -> str:
        self.wait_idle()
        return self.wait(EC.visibility_of_element_located((By.CSS_SELECTOR, "#view h1")), "no heading on the page").text

    def wait_heading(self, text: str) -> None:
        try:
            self.wait(lambda d: any(text in h.text for h in d.find_elements(By.CSS_SELECTOR, "#view h1")))
        except TimeoutException:
            raise AssertionError(f"heading '{text}' never appeared; the page shows:\n{self.driver.find_element(By.TAG_NAME, 'body').text[:2000]}") from None
        self.wait_idle()

    # ---- finding and using controls -------------------------------------------------------------

    def open(self, path: str) -> None:
        self.driver.get(self.base + path)
        self.wait_idle()

    def control(self, label: str, within: WebElement | None = None) -> WebElement:
        """The input/select/textarea whose <label> reads `label` (ignoring "(opcional)")."""
        script = """
        const [label, root] = arguments;
        const norm = (s) => s.replace(/\\s+/g, ' ').replace(/ \\(opcional\\)$/, '').trim();
        for (const el of (root || document).querySelectorAll('label')) {
          if (norm(el.textContent) === label && el.control && el.offsetParent !== null) return el.control;
        }
        return null;
        """
        return self.wait(lambda d: d.execute_script(script, label, within), f"no visible field labelled '{label}'")

    def fill(self, label: str, value: str, within: WebElement | None = None) -> None:
        el = self.control(label, within)
        self.scroll(el)
        el.clear()
        el.send_keys(value)

    def choose(self, label: str, option_text: str, within: WebElement | None = None) -> None:
        el = self.control(label, within)
        self.scroll(el)
        self.wait(lambda d: any(o.text.strip() == option_text for o in Select(el).options), f"no option '{option_text}' in '{label}'")
        Select(el).select_by_visible_text(option_text)

    def set_value(self, label: str, value: str) -> None:
        """Date and time inputs: their typing format depends on the locale, so set the value as a picker does."""
        el = self.control(label)
        self.driver.execute_script(
            "arguments[0].value = arguments[1];"
            "arguments[0].dispatchEvent(new Event('input', {bubbles: true}));"
            "arguments[0].dispatchEvent(new Event('change', {bubbles: true}));", el, value)

    def value(self, label: str) -> str:
        el = self.control(label)
        if el.tag_name == "select":
            return Select(el).first_selected_option.text
        return el.get_attribute("value")

    def button(self, text: str, within: WebElement | str | None = None) -> WebElement:
        """An enabled, visible button whose text starts with `text`."""
        def find(d):
            roots = [within] if isinstance(within, WebElement) else d.find_elements(By.CSS_SELECTOR, within or "body")
            for root in roots:
                for b in root.find_elements(By.XPATH, ".//button | .//a[contains(@class, 'button')]"):
                    label = " ".join((b.get_attribute("textContent") or "").split())
                    if label.startswith(text) and b.is_displayed() and b.is_enabled():
                        return b
            return False
        return self.wait(find, f"no enabled button '{text}'")

    def click(self, text: str, within: WebElement | str | None = None) -> None:
        b = self.button(text, within)
        self.press(b)

    def press(self, el: WebElement) -> None:
        """Clicks `el` once it is centred, not moving, and the topmost element at its centre."""
        self.scroll(el)
        last = [None]

        def settled(d):
            rect, on_top = d.execute_script(
                "const r = arguments[0].getBoundingClientRect();"
                "const top = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);"
                "return [[r.x, r.y, r.width, r.height], !!top && (top === arguments[0] || arguments[0].contains(top))];", el)
            stable = rect == last[0]
            last[0] = rect
            return stable and on_top

        self.wait(settled, f"{el.tag_name} '{el.text}' never settled on top of the page")
        el.click()

    def click_link(self, text: str, within: str = "body") -> None:
        def find(d):
            for a in d.find_elements(By.CSS_SELECTOR, f"{within} a"):
                if " ".join(a.text.split()) == text and a.is_displayed():
                    return a
            return False
        a = self.wait(find, f"no link '{text}'")
        self.press(a)
        self.wait_idle()

    def menu(self, text: str) -> None:
        """Follows a link of the main menu, opening it first on a phone."""
        toggle = self.driver.find_element(By.ID, "menu-toggle")
        if toggle.is_displayed() and toggle.get_attribute("aria-expanded") != "true":
            toggle.click()
            self.wait(lambda d: d.find_element(By.ID, "menu").is_displayed())
        self.click_link(text, "#menu")

    def sign_out(self) -> None:
        toggle = self.driver.find_element(By.ID, "menu-toggle")
        if toggle.is_displayed() and toggle.get_attribute("aria-expanded") != "true":
            toggle.click()
        self.click("Sair", "#menu")
        self.wait_text("Você saiu da sua conta.", "#flash")

    def dialog(self) -> WebElement:
        return self.wait(EC.visibility_of_element_located((By.CSS_SELECTOR, "dialog[open]")))

    def row(self, text: str, css: str = "#view tbody tr") -> WebElement:
        """The table row (or card, on a phone) that mentions `text`."""
        def find(d):
            for tr in d.find_elements(By.CSS_SELECTOR, css):
                if text in tr.text:
                    return tr
            return False
        try:
            return self.wait(find)
        except TimeoutException:
            raise AssertionError(f"no row with '{text}'; the page shows:\n{self.driver.find_element(By.TAG_NAME, 'body').text[:3000]}") from None

    def scroll(self, el: WebElement) -> None:
        self.driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", el)

    def active_element_text(self) -> str:
        return self.driver.execute_script("return document.activeElement && (document.activeElement.textContent || '').trim()")
