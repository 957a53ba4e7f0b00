"""Fixtures of the web companion's tests: the table (two processes) and a real Chromium
driven by Playwright, one browser for the run and one page per module; skipped, saying
why, where Chromium is missing."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.web.harness import CHROMIUM, CHROMIUM_ARGS, Table, new_context


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


@pytest.fixture(scope="module")
def module_page(browser):
    """One page for the tests of a module (a new browser context costs more than a test's
    page load), and what it breaks of its own Content Security Policy or throws. Each
    test's table is a fresh web companion, whose new secret gives the page a new session,
    so no test inherits another's pairing."""
    context = new_context(browser, viewport={"width": 1100, "height": 900})
    page = context.new_page()
    broken: list[str] = []
    page.on(
        "console",
        lambda m: broken.append(m.text) if "Content Security Policy" in m.text else None,
    )
    page.on("pageerror", lambda error: broken.append(str(error)))
    yield page, broken
    context.close()


@pytest.fixture
def page(module_page):
    """The module's page; the test fails if the page broke its own Content Security Policy
    (the headers must never cost a working page) or threw."""
    page, broken = module_page
    broken.clear()
    yield page
    page.goto("about:blank")  # nothing of this test's page reaches for the next table
    assert not broken, broken
