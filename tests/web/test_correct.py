"""Correcting the board from a paired page, in the real Chromium against the real daemon and
web companion: the "Correct" mode only a paired browser sees, a square's believed stack,
the registered tiles narrowed by suit and number, and every other way in refused."""

from __future__ import annotations

import json
import urllib.error
import urllib.request

from companion.game.journal import Journal
from companion.show.i18n import Catalogue
from engine import COMMON_SQUARES
from tests.web.harness import DEADLINE, wait_until
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


def journal(table) -> list[dict]:
    """The journal's records, as the daemon and `replay` read them (each is written twice)."""
    return Journal(table.state_dir / "journal.jsonl").records()


def test_a_paired_page_says_a_tile_lies_on_a_square_and_the_daemon_journals_it(table, page):
    hands, played = started(table)
    try:
        step = played.world.next_step()  # N's first turn, not laid: the readers never see it
        assert step is not None and step.side == "N" and step.placement
        square, tile = step.placement[0]
        pair(table, page)
        page.goto(table.url + "/")
        page.click("#correct-mode")
        page.click(f'#live-table [data-sq="{square}"]')
        assert page.locator("#correct-stack li").count() == 0
        assert page.locator("#correct-empty").is_visible()
        page.click(f'#correct-suits [data-suit="{tile.suit}"]')
        page.click(f'#correct-tiles [data-word-tile="{tile}"]')
        page.click("#correct-lay")
        label = page_label(tile)
        answer = page.locator("#correct-answer")
        answer.wait_for()
        assert answer.inner_text() == f"Taken: {label} lies on {square}, by your word."
        # the daemon journalled the family's word, said by the page, and believes it
        words = [r for r in journal(table) if r["type"] == "word"]
        assert [{k: w[k] for k in ("said", "square", "tile", "by")} for w in words] == [
            {"said": "laid", "square": square, "tile": str(tile), "by": "page"}
        ]
        top = page.locator(f'#live-table [data-sq="{square}"] [data-tile]')
        top.wait_for()
        assert top.get_attribute("data-tile") == str(tile)
        assert [str(tile)] == [t for sq, t in hands.state(lambda s: s["placement"])["placement"]]
        # the panel follows the board: the tile is believed there now, and not there by a tap
        item = page.locator("#correct-stack li")
        item.first.wait_for()
        assert item.first.get_attribute("data-stack-tile") == str(tile)
        item.first.locator("[data-absent]").click()
        page.wait_for_function(
            "t => document.querySelector('#correct-answer').textContent.includes('is not on')",
            arg=str(tile),
        )
        assert answer.inner_text() == f"Taken: {label} is not on {square}, by your word."
        top.wait_for(state="detached")
        hands.state(lambda s: s["placement"] == [])
        assert [r["said"] for r in journal(table) if r["type"] == "word"] == ["laid", "absent"]
    finally:
        hands.close()


def test_a_word_the_table_refuses_says_why_in_its_own_sentence(table, page):
    hands, played = started(table)
    try:
        square = COMMON_SQUARES[0]
        start = played.world.start_board.top(square)
        pair(table, page)
        page.goto(table.url + "/")
        page.click("#correct-mode")
        page.click(f'#live-table [data-sq="{square}"]')
        page.click("#correct-stack [data-absent]")  # a tile of the game's board: scored
        answer = page.locator("#correct-answer.refused")
        answer.wait_for()
        en = Catalogue.load("en")
        assert answer.inner_text() == en.text("word.scored")  # a correction settles it
        assert page.get_attribute(f'#live-table [data-sq="{square}"] [data-tile]', "data-tile") == (
            str(start)
        )
        # a page cannot speak for a seat: whatever it sends, the word is the page's
        token = page.get_attribute('meta[name="csrf"]', "content")
        step = played.world.next_step()
        other, tile = step.placement[0]
        said = {"said": "laid", "square": other, "tile": str(tile), "by": "N"}
        reply = post_word(page, token, said)
        assert reply.status == 200 and reply.json() == {"ok": True, "error": None}
        assert [r["by"] for r in journal(table) if r["type"] == "word"] == ["page"]
    finally:
        hands.close()


def page_label(tile) -> str:
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
            urllib.request.urlopen(request, timeout=DEADLINE)
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
        # the refusals are in the table's language, as the rest of the Table page
        hands.ask("set", key="language", value="it")
        italian = Catalogue.load("it").text("web.correct.out_of_date")
        wait_until(
            lambda: post_word(page, None, word).json()["error"] == italian,
            what="the page's refusal in Italian",
        )
    finally:
        hands.close()
    records = journal(table)
    assert records and not [r for r in records if r["type"] == "word"]  # none reached it
