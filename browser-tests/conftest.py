"""Fixtures: one `coworkflow serve --seed-demo` per test session (fresh data, free port; one per
pytest-xdist worker) and one headless Chromium per test, with its screenshots under the artifacts
directory.

Environment:
  COWORKFLOW_BIN      the binary (default .build/debug/coworkflow)
  BROWSER_ARTIFACTS   where screenshots, browser console and server logs go
                      (default: a new directory under the system temp dir)
  CHROMIUM_BIN, CHROMEDRIVER   default /usr/bin/chromium, /usr/bin/chromedriver
"""

from __future__ import annotations

import os
import tempfile
import time
from datetime import date, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from support import REPO, UI, Server


def pytest_report_header(config):
    return f"artifacts: {artifacts_dir()}"


_artifacts: Path | None = None


def artifacts_dir() -> Path:
    global _artifacts
    if _artifacts is None:
        configured = os.environ.get("BROWSER_ARTIFACTS")
        if configured:
            _artifacts = Path(configured).resolve()
            _artifacts.mkdir(parents=True, exist_ok=True)
        else:
            _artifacts = Path(tempfile.mkdtemp(prefix="coworkflow-browser-"))
    return _artifacts


@pytest.fixture(scope="session")
def server(tmp_path_factory):
    binary = Path(os.environ.get("COWORKFLOW_BIN", REPO / ".build/debug/coworkflow"))
    if not binary.is_absolute():
        binary = REPO / binary
    data = tmp_path_factory.mktemp("coworkflow-data")
    # Under pytest-xdist (scripts/test-browser runs two workers) each worker has its own server,
    # and its logs go to a directory of its own.
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    logs = artifacts_dir() / f"server-{worker}" if worker else artifacts_dir()
    logs.mkdir(parents=True, exist_ok=True)
    srv = Server.start(binary, data, logs)
    yield srv
    srv.stop()


@pytest.fixture
def browser(request, server):
    """browser(size=(w, h), mobile=False) → UI; closed (and its console saved) after the test."""
    opened: list[UI] = []

    def make(size=(1280, 900), mobile=False) -> UI:
        shots = artifacts_dir() / request.node.name / (f"browser-{len(opened) + 1}" if opened else "")
        ui = UI.launch(server.url, shots, size=size, mobile=mobile)
        opened.append(ui)
        return ui

    yield make
    failed = getattr(request.node, "rep_call", None) is not None and request.node.rep_call.failed
    for ui in opened:
        if failed:
            ui.save_failure()
        ui.close()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    setattr(item, f"rep_{report.when}", report)


def first_weekday_from(day: date) -> date:
    """`day`, or the Monday after it when it falls on a weekend."""
    while day.weekday() >= 5:
        day += timedelta(days=1)
    return day


def next_weekday(tz: str = "America/Sao_Paulo", after_days: int = 1) -> date:
    """The first Monday–Friday at least `after_days` after today in `tz` (the demo hours are 08–20 then)."""
    return first_weekday_from(datetime.now(ZoneInfo(tz)).date() + timedelta(days=after_days))


@pytest.fixture(autouse=True)
def clear_of_midnight():
    """No test starts in São Paulo's last two minutes of a day: several read "today" more than once
    (a visit registered for today, then the day's list), which a midnight between the two reads
    would make two days. A test lasts well under two minutes; this waits at most once a run."""
    agora = datetime.now(ZoneInfo("America/Sao_Paulo"))
    falta = (agora.replace(hour=0, minute=0, second=0, microsecond=0) + timedelta(days=1)) - agora
    if falta < timedelta(minutes=2):
        time.sleep(falta.total_seconds() + 1)


_SESSION_BOOKING_DAY: list[date] = []


def session_booking_day() -> date:
    """The weekday the journeys book the demo rooms on, taken once for the whole run: a run that
    crosses midnight would otherwise give a later test the day an earlier one booked after."""
    if not _SESSION_BOOKING_DAY:
        _SESSION_BOOKING_DAY.append(next_weekday())
    return _SESSION_BOOKING_DAY[0]


@pytest.fixture
def booking_day() -> date:
    return session_booking_day()
