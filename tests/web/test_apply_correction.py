"""A scored turn proven wrong, corrected from a paired page, in the real Chromium against the
real daemon and web companion: N's fifth turn scored diamond-5 on N1; the family moves it to
SE (where it scores +5, not +4) and the table shows a Correction. Every watcher sees it; only
a paired browser gets "Apply the correction", through the guarded `/correct` (session, token,
same origin, paired) to the daemon's `correct` op; the journal's "amend" record says "page"."""

from __future__ import annotations

import json
import urllib.error
import urllib.request

from companion.game.journal import Journal
from companion.game.view import Correction
from companion.show.i18n import Catalogue
from tests.helpers import tile
from tests.web.harness import DEADLINE
from tests.web.play import Played
from tests.web.test_correct import started
from tests.web.test_stop_page import pair

#: what the table shows once diamond-5 lies on SE (the seeded game's fifth turn, N's)
SHOWN = Correction(5, "N", tile("diamond-5"), ("N1", "SE"), 4, 5)


def proven_wrong(played: Played) -> dict[str, int]:
    """Five turns played; N's last one (diamond-5 on N1, +4) moved by hand to SE: the
    table's Correction is published. The scores before it is applied."""
    turns = iter(range(1, 100))
    played.turns_until(lambda scoring: next(turns) == 5)
    scores = dict(played.shadow.scores)
    assert scores == {"N": 11, "S": 10}
    played.hands.ask("lift", square="N1")
    played.hands.ask("put", square="SE", tile="diamond-5")
    state = played.hands.state(lambda s: any(n["kind"] == "correction" for n in s["notices"]))
    (shown,) = [n for n in state["notices"] if n["kind"] == "correction"]
    assert Correction.from_json(shown) == SHOWN
    return scores


def amends(table) -> list[dict]:
    return [r for r in Journal(table.state_dir / "journal.jsonl").records() if r["type"] == "amend"]


def shown_scores(page) -> dict[str, int]:
    rows = page.locator("#players tr[data-side]")
    return {
        rows.nth(i).get_attribute("data-side"): int(
            rows.nth(i).locator(".score").get_attribute("data-score")
        )
        for i in range(rows.count())
    }


def correction_text(state: dict, applied: bool = False) -> str:
    en = Catalogue.load("en")
    colour = en.colour(dict(state["colours"])["N"])
    if applied:
        return en.text("correction.done", colour=colour, after=5)
    body = en.text(
        "correction.body",
        turn=5,
        tile=en.tile(SHOWN.tile),
        to="SE",
        was="N1",
        colour=colour,
        after=5,
        before=4,
    )
    return f"{en.text('correction.title')}: {body}"


def test_every_watcher_sees_it_and_a_paired_page_applies_it(table, page):
    hands, played = started(table)
    try:
        before = proven_wrong(played)
        state = hands.state()
        page.goto(table.url + "/")
        line = page.locator("#problems li.correction")
        line.wait_for()
        assert line.inner_text() == correction_text(state)  # "Turn 5: ♦5 lies on SE, ..."
        button = line.locator("[data-apply-correction]")
        assert button.count() == 1 and button.is_hidden()  # watching only: nothing to apply
        assert page.locator("#correction-answer").count() == 0
        pair(table, page)
        page.goto(table.url + "/")
        assert button.is_visible() and button.inner_text() == "Apply the correction"
        assert Correction.from_json(json.loads(button.get_attribute("data-apply-correction"))) == (
            SHOWN
        )
        assert shown_scores(page) == before
        button.click()
        answer = page.locator("#correction-answer:not([hidden])")
        answer.wait_for()
        assert answer.inner_text() == correction_text(state, applied=True)  # "Corrected: ..."
        assert "refused" not in (answer.get_attribute("class") or "")
        (amend,) = amends(table)
        assert (amend["turn"], amend["side"], amend["tile"]) == (5, "N", "diamond-5")
        assert (amend["from"], amend["to"], amend["points"], amend["was"]) == ("N1", "SE", 5, 4)
        assert amend["by"] == "page"
        assert amend["bonus"] == {"S": 1}  # diamond-5 on SE gives S a bonus point too
        # the scores shown follow the corrected game: N +5 for that turn, not +4; S +1
        after = {"N": 12, "S": 11}
        hands.state(lambda s: {x["side"]: x["score"] for x in s["seats"]} == after)
        page.wait_for_function(
            "() => document.querySelector('#players tr[data-side=\"N\"] .score')"
            ".dataset.score === '12'"
        )
        assert shown_scores(page) == after
        assert page.locator("[data-apply-correction]").count() == 0  # nothing left to apply
        assert page.inner_text("#problems li.corrected") == correction_text(state, applied=True)
        answer.click()  # the answer goes when tapped
        assert page.locator("#correction-answer").is_hidden()
    finally:
        hands.close()


def post_correct(page, token: str | None, body: object, origin: str | None = None):
    headers = {"Content-Type": "application/json"}
    if token is not None:
        headers["X-CSRF-Token"] = token
    if origin is not None:
        headers["Origin"] = origin
    data = body if isinstance(body, str) else json.dumps(body)
    base = "/".join(page.url.split("/")[:3])
    return page.request.post(base + "/correct", data=data, headers=headers)


def test_no_one_but_a_paired_page_applies_it_nor_another_correction(table, page):
    hands, played = started(table)
    try:
        before = proven_wrong(played)
        body = {"correction": SHOWN.to_json()}
        # no session, no token: the real server refuses it before the daemon hears of it
        request = urllib.request.Request(
            table.url + "/correct",
            data=json.dumps(body).encode(),
            headers={"Content-Type": "application/json"},
            method="POST",
        )
        try:
            urllib.request.urlopen(request, timeout=DEADLINE)
            raise AssertionError("a forged correction was accepted")
        except urllib.error.HTTPError as exc:
            assert exc.code == 403
        page.goto(table.url + "/")
        token = page.get_attribute('meta[name="csrf"]', "content")
        reply = post_correct(page, token, body)  # its own session and token, but not paired
        assert reply.status == 403 and "Pair this browser" in reply.json()["error"]
        pair(table, page)
        page.goto(table.url + "/")
        token = page.get_attribute('meta[name="csrf"]', "content")
        assert post_correct(page, None, body).status == 403  # paired, without its token
        assert post_correct(page, "0" * 32, body).status == 403  # a wrong token
        assert post_correct(page, token, body, origin="http://evil.example").status == 403
        not_shown = "That is not a correction the table showed: reload the page."
        for bad in (
            "not json",
            [],
            {},
            {"correction": "apply"},
            {"correction": {**SHOWN.to_json(), "kind": "question"}},
            {"correction": {**SHOWN.to_json(), "tile": "diamond-11"}},
            {"correction": {k: v for k, v in SHOWN.to_json().items() if k != "squares"}},
        ):
            reply = post_correct(page, token, bad)
            assert reply.status == 400, bad
            assert reply.json()["error"] == not_shown
        # a page a moment late (another correction than the one pending): the table says
        # so in its own sentence and applies none
        stale = {**SHOWN.to_json(), "after": 6}
        reply = post_correct(page, token, {"correction": stale})
        assert reply.status == 200
        assert reply.json() == {
            "ok": False,
            "error": Catalogue.load("en").text("correction.changed"),
        }
        state = hands.state()
        assert {x["side"]: x["score"] for x in state["seats"]} == before
        assert [Correction.from_json(n) for n in state["notices"] if n["kind"] == "correction"] == [
            SHOWN
        ]  # still pending, for a press or the page
    finally:
        hands.close()
    assert amends(table) == []  # none reached the game
