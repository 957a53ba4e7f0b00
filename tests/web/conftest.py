"""Fixtures of the web companion's tests: the table (two processes) and a real Chromium
driven by Playwright; skipped, saying why, where Chromium is missing."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.web.harness import CHROMIUM, CHROMIUM_ARGS, DEADLINE, Table


@pytest.fixture
def table(tmp_path) -> Iterator[Table]:
    t = Table(tmp_path)
    t.start_daemon()
    t.start_web()
    yield t
    t.stop()


@pytest.fixture(scope="session")
def browser():
    if not Path(CHROMIUM).exists() or shutil.which(CHROMIUM) is None:
        pytest.skip(
            f"browser tests skipped: no Chromium at {CHROMIUM} "
            "(apt-get install chromium chromium-driver; .ci/run does)"
        )
    playwright = pytest.importorskip(
        "playwright.sync_api", reason="browser tests skipped: Playwright is not installed"
    )
    with playwright.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def page(browser):
    """A page of a fresh browser context; the test fails if the page broke its own Content
    Security Policy (the headers must never cost a working page) or threw."""
    context = browser.new_context(viewport={"width": 1100, "height": 900})
    page = context.new_page()
    page.set_default_timeout(DEADLINE * 1000)
    broken: list[str] = []
    page.on(
        "console",
        lambda m: broken.append(m.text) if "Content Security Policy" in m.text else None,
    )
    page.on("pageerror", lambda error: broken.append(str(error)))
    yield page
    context.close()
    assert not broken, broken
