"""Correcting the board from a paired page, in the real Chromium against the real daemon and
web companion: the "Correct" mode only a paired browser sees, a square's believed stack,
the registered tiles narrowed by suit and number, and every other way in refused."""

from __future__ import annotations

import json
import urllib.error
import urllib.request

from engine import COMMON_SQUARES
from tests.web.play import Played
from tests.web.test_crash import Client
from tests.web.test_stop_page import pair


def started(table) -> tuple[Client, Played]:
    hands = Client(table.socket)
    played = Played(hands)
    played.start()
    return hands, played


def post_word(page, token: str | None, body: object, origin: str | None = None):
    headers = {"Content-Type": "application/json"}
    if token is not None:
        headers["X-CSRF-Token"] = token
    if origin is not None:
        headers["Origin"] = origin
    data = body if isinstance(body, str) else json.dumps(body)
    return page.request.post(page.url.split("/", 3)[0] + "//" + page.url.split("/")[2] + "/word",
                             data=data, headers=headers)  # fmt: skip


def test_only_a_paired_browser_sees_correct_and_it_shows_a_squares_stack(table, page):
    hands, played = started(table)
    try:
        page.goto(table.url + "/")
        page.locator("#board").wait_for()
        assert page.locator("#correct-mode").count() == 0  # watching only: nothing to correct
        assert page.locator("#correct-panel").count() == 0
        pair(table, page)
        page.goto(table.url + "/")
        page.click("#correct-mode")
        assert page.get_attribute("#correct-mode", "aria-pressed") == "true"
        assert "Tap a square" in page.inner_text("#correct-title")
        square = COMMON_SQUARES[0]
        start = played.world.start_board.top(square)
        page.click(f'#live-table [data-sq="{square}"]')
        assert page.inner_text("#correct-title") == f"Square {square}"
        stack = page.locator("#correct-stack li")
        assert stack.count() == 1
        assert stack.first.get_attribute("data-stack-tile") == str(start)
        assert "Not here" in stack.first.inner_text()
        # the registered tiles (the simulated table registers all 50), narrowed by suit and
        # number; the start tile says where it is believed
        tiles = page.locator("#correct-tiles [data-word-tile]:visible")
        assert tiles.count() == 50
        page.click(f'#correct-suits [data-suit="{start.suit}"]')
        assert tiles.count() == 10
        page.click(f'#correct-ranks [data-rank="{start.rank}"]')
        assert tiles.count() == 1
        assert tiles.first.get_attribute("data-word-tile") == str(start)
        assert tiles.first.inner_text().endswith(f"on {square}")
        # picked: the one button says what will be said
        assert page.locator("#correct-lay").is_hidden()
        tiles.first.click()
        assert page.inner_text("#correct-lay") == f"{page_label(start)} lies on top of {square}"
        page.click("#correct-close")
        assert page.locator("#correct-panel").is_hidden()
        assert page.locator("#live-table .square.chosen").count() == 0
    finally:
        hands.close()


def page_label(tile) -> str:
    from companion.show.i18n import Catalogue

    return Catalogue.tile(tile)


def test_a_word_from_anyone_but_a_paired_page_is_refused(table, page):
    hands, _ = started(table)
    try:
        # no session, no token: the real server refuses it before the daemon hears of it
        request = urllib.request.Request(
            table.url + "/word",
            data=json.dumps({"said": "absent", "square": "NW", "tile": "star-1"}).encode(),
            headers={"Content-Type": "application/json"},
            method="POST",
        )
        try:
            urllib.request.urlopen(request, timeout=10)
            raise AssertionError("a forged word was accepted")
        except urllib.error.HTTPError as exc:
            assert exc.code == 403
        word = {"said": "absent", "square": COMMON_SQUARES[0], "tile": "star-1"}
        page.goto(table.url + "/")
        token = page.get_attribute('meta[name="csrf"]', "content")
        reply = post_word(page, token, word)  # its own session and token, but not paired
        assert reply.status == 403 and "Pair this browser" in reply.json()["error"]
        pair(table, page)
        page.goto(table.url + "/")
        token = page.get_attribute('meta[name="csrf"]', "content")
        assert post_word(page, None, word).status == 403  # paired, without its token
        assert post_word(page, "0" * 32, word).status == 403  # a wrong token
        assert post_word(page, token, word, origin="http://evil.example").status == 403
        for bad in ("not json", [], {"said": "absent"}, {**word, "tile": "x" * 200}):
            reply = post_word(page, token, bad)
            assert reply.status == 400, bad
            assert reply.json()["error"] == "That is not a word about a square: reload the page."
    finally:
        hands.close()
    records = [json.loads(line) for line in (table.state_dir / "journal.jsonl").open()]
    assert records and not [r for r in records if r.get("type") == "word"]  # none reached it
