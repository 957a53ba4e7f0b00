"""Screenshots of every page of the web companion, at phone width and on a desktop:

    python -m tests.web.screenshots docs/web

A seeded demo game fills the archive (the Games page); the simulated table is then set up
by hand through the daemon's socket: a game in progress and a placement being laid (the
live preview)."""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from companion.sim.demo import Demo
from hardware.hub.sim import FaultModel
from tests.web.harness import CHROMIUM, CHROMIUM_ARGS, Table
from tests.web.test_crash import Client

SIZES = {"phone": (390, 844), "desktop": (1280, 900)}
PAGES = {"table": "/", "sim": "/sim", "games": "/games", "settings": "/settings"}
#: the TV view on a 1080p television (docs/web/tv.png)
TV = (1920, 1080)


def set_up(table: Table) -> None:
    hands = Client(table.socket)
    for square, tile in (("NW", "star-1"), ("NE", "heart-5"), ("SW", "club-9"), ("SE", "spade-7")):
        hands.ask("put", square=square, tile=tile)
    hands.state(lambda s: len(s["board"]) == 4)
    for seat in ("N", "S"):
        hands.ask("press", seat=seat)
    hands.state(lambda s: s["lobby"] and len(s["lobby"]["joined"]) == 2)
    hands.ask("press", seat="N", long=True)
    hands.state(lambda s: s["phase"] == "playing")
    hands.ask("put", square="SW", tile="star-2")
    hands.state(lambda s: s["placement"] == [["SW", "star-2"]])
    hands.ask("press", seat="N")
    hands.state(lambda s: s["seats"][1]["active"])
    hands.ask("put", square="S1", tile="star-3")  # S lays star 1-2-3: the live preview
    hands.state(lambda s: s["placement"] == [["S1", "star-3"]])
    hands.close()


def correcting(page, table: Table, path: Path) -> None:
    """A paired page correcting the board: SW's stack shown, a tile picked to lay on it."""
    page.goto(table.url + "/settings")
    page.click("#ask-pin")
    page.fill("#pin", table.pin())
    page.click("#pair")
    page.goto(table.url + "/")
    page.click("#correct-mode")
    page.click('#live-table [data-sq="SW"]')
    page.click('#correct-suits [data-suit="star"]')
    page.click('[data-word-tile="star-4"]')
    page.wait_for_timeout(300)
    page.screenshot(path=str(path))


def correction(browser, target: Path) -> None:
    """A scored turn proven wrong (tests/web/test_apply_correction.py's: diamond-5 moved from
    N1 to SE) on a paired phone: the correction with its button, then applied."""
    from tests.web.play import Played
    from tests.web.test_apply_correction import proven_wrong

    with tempfile.TemporaryDirectory() as tmp:
        table = Table(Path(tmp))
        table.start_daemon()
        table.start_web()
        hands = Client(table.socket)
        try:
            played = Played(hands)
            played.start()
            proven_wrong(played)
            width, height = SIZES["phone"]
            context = browser.new_context(
                viewport={"width": width, "height": height}, device_scale_factor=1
            )
            page = context.new_page()
            page.goto(table.url + "/settings")
            page.click("#ask-pin")
            page.fill("#pin", table.pin())
            page.click("#pair")
            page.goto(table.url + "/")
            line = page.locator("#problems li.correction")
            line.scroll_into_view_if_needed()
            page.evaluate("window.scrollBy(0, -120)")  # the board's foot above it
            page.wait_for_timeout(300)
            page.screenshot(path=str(target / "correction-phone.png"))
            line.locator("[data-apply-correction]").click()
            page.locator("#correction-answer:not([hidden])").wait_for()
            page.wait_for_timeout(300)
            page.screenshot(path=str(target / "corrected-phone.png"))
            context.close()
        finally:
            hands.close()
            table.stop()


def main(out: str) -> int:
    from playwright.sync_api import sync_playwright

    target = Path(out)
    target.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        state = Path(tmp)
        Demo(
            journal=state / "journal-1.jsonl", faults=FaultModel(), seed=1, out=lambda _: None
        ).run()
        table = Table(state)
        table.start_daemon()
        table.start_web()
        try:
            set_up(table)
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                for size, (width, height) in SIZES.items():
                    context = browser.new_context(
                        viewport={"width": width, "height": height}, device_scale_factor=1
                    )
                    page = context.new_page()
                    for name, path in PAGES.items():
                        page.goto(table.url + path)
                        page.wait_for_timeout(600)  # the frames and the chart images load
                        page.screenshot(path=str(target / f"{name}-{size}.png"), full_page=True)
                    context.close()
                for size, (width, height) in {**SIZES, "tv": TV}.items():
                    context = browser.new_context(
                        viewport={"width": width, "height": height}, device_scale_factor=1
                    )
                    correcting(context.new_page(), table, target / f"correct-{size}.png")
                    context.close()
                context = browser.new_context(
                    viewport={"width": TV[0], "height": TV[1]}, device_scale_factor=1
                )
                page = context.new_page()
                page.goto(table.url + "/tv")
                page.wait_for_timeout(600)
                page.screenshot(path=str(target / "tv.png"))
                context.close()
                correction(browser, target)
                browser.close()
        finally:
            table.stop()
    print(f"screenshots in {target}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "docs/web"))
