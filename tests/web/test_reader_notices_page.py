"""What the readers cannot see or confirm, on the Table page in the real Chromium: the real
web companion fed published states by a stand-in socket (as `test_recorded`), so the page
draws `ShowFirst`, `Unconfirmed` and a `Question` (with each gesture, after a first press,
and with the answer "in a hand") from the typed values it decoded, in the displays' words."""

from __future__ import annotations

import dataclasses
import json

from companion.game.published import TableState
from companion.game.view import Question, Reply, ShowFirst, Unconfirmed
from companion.show.i18n import Catalogue
from companion.show.screens import samples
from companion.show.words import notice_words
from tests.helpers import tile
from tests.web.test_recorded import RecordedDaemon, site  # noqa: F401 (the fixture)

BASE = samples.all_views()["live"]  # a game, the player to move laying tiles
SIDE = BASE.active.side
NAME = Catalogue.load("en").colour(BASE.colour(SIDE))
SHOW = ShowFirst(SIDE, ("NE", "SE"))
UNSEEN = Unconfirmed(SIDE, (tile("star-2"),))
ASKED = Question(SIDE, "E2", tile("star-2"), (Reply.THERE, Reply.WITHOUT, Reply.HAND))


def line(notices: tuple, published: float) -> bytes:
    view = dataclasses.replace(BASE, notices=notices)
    state = TableState(view, True, None, None, published)
    return json.dumps({"type": "state", **state.to_json()}, ensure_ascii=False).encode() + b"\n"


def show(page, daemon: RecordedDaemon, notices: tuple, published: float) -> None:
    daemon.send(line(notices, published))
    page.wait_for_selector(f'#board[data-published="{published}"]')


def test_the_notes_are_listed_as_the_displays_say_them_and_mark_their_squares(site):  # noqa: F811
    daemon, page = site
    show(page, daemon, (SHOW, UNSEEN), 101.0)
    en = Catalogue.load("en")
    notes = page.locator("#problems li.note")
    assert notes.count() == 2
    for item, notice in zip(notes.all(), (SHOW, UNSEEN)):
        words = notice_words(notice, en, BASE)
        assert item.inner_text() == f"{words.title} ({NAME}): {words.body}"
    assert notes.nth(0).inner_text() == (
        f"Show tiles first ({NAME}): For NE, SE: show the tile over an empty square first"
    )
    # the squares to show a tile for: marked as such (not as a problem)
    for square in ("NE", "SE"):
        cell = page.locator(f'[data-sq="{square}"]')
        assert "noted" in cell.get_attribute("class").split()
        assert "problem" not in cell.get_attribute("class").split()
        assert cell.get_attribute("title") == notice_words(SHOW, en, BASE).body
    assert notes.nth(0).get_attribute("data-squares") == "NE SE"
    assert page.locator("#problems li[data-square]").count() == 0  # no problem on a square
    assert page.locator(".square.problem").count() == 0
    assert page.locator("#problems li:not(.note)").count() == 0  # no alarm among them


def test_a_question_lists_its_gestures_and_a_paired_page_its_answers(site):  # noqa: F811
    daemon, page = site
    show(page, daemon, (ASKED,), 102.0)
    item = page.locator("#problems li.question")
    assert item.count() == 1
    assert item.inner_text().startswith(f"Question ({NAME}): ★2 on E2?")
    gestures = [g.inner_text() for g in item.locator(".gesture").all()]
    assert gestures == [
        "Press once: it is there",
        "Press twice: not there",
        "Hold: it is in a hand",
    ]
    assert all(g.is_visible() for g in item.locator(".gesture").all())  # for every watcher
    # the page's answers: "laid", "absent" and "in a hand" (which the daemon takes as the
    # table's hold), and the panel on the square
    answers = item.locator("[data-answer]")
    assert [a.get_attribute("data-answer") for a in answers.all()] == ["laid", "absent", "hand"]
    assert answers.nth(2).inner_text() == "It is in a hand"
    assert all(a.get_attribute("data-tile") == "star-2" for a in answers.all())
    assert all(a.get_attribute("data-square") == "E2" for a in answers.all())
    assert item.locator("[data-correct-square]").get_attribute("data-correct-square") == "E2"
    assert not answers.first.is_visible(), "watching only: no answers"
    page.evaluate("document.body.dataset.paired = ''")  # as a paired page is drawn
    assert answers.first.is_visible() and answers.nth(1).is_visible()
    page.evaluate("delete document.body.dataset.paired")
    # the first press heard: the page says so, as the display does
    show(page, daemon, (dataclasses.replace(ASKED, pressed=True),), 103.0)
    gestures = [g.inner_text() for g in page.locator("#problems li.question .gesture").all()]
    assert gestures == ["Pressed once: it is there", "Press again: not there"]
