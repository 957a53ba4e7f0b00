"""A person at the web companion, in a real Chromium: a whole game played by hand on the
simulated table, the Games page, and the settings changed with the table's PIN."""

from __future__ import annotations

import base64
import io
import re

from PIL import Image

from companion.game.published import TableState
from companion.show.screens import Screens
from companion.sim.demo import World
from engine import COMMON_SQUARES, Game, Options, Scoring
from tests.web.harness import DEADLINE, wait_until
from tests.web.test_crash import Client

SEED = 1  # a game of 12 turns, a bonus on the third, no bag clean-up


def put(page, square: str, tile: str) -> None:
    page.click(f'[data-pick="{tile}"]')
    page.click(f'#board [data-sq="{square}"]')
    try:
        page.locator(f'#board [data-sq="{square}"] .tile[data-tile="{tile}"]').wait_for()
    except Exception:
        raise AssertionError(
            f"{tile} on {square} not shown; the page says: {page.inner_text('main')}"
        ) from None


def lift(page, square: str, then_top: str | None) -> None:
    page.click("#lift-mode")
    page.click(f'#board [data-sq="{square}"]')
    page.click("#lift-mode")
    if then_top is None:
        page.locator(f'#board [data-sq="{square}"][data-height="0"]').wait_for()
    else:
        page.locator(f'#board [data-sq="{square}"] .tile[data-tile="{then_top}"]').wait_for()


def press(page, side: str, long: bool = False) -> None:
    page.click(f'[data-press="{side}"]' + ('[data-long="1"]' if long else ":not([data-long])"))


def shows_scores(page, scores: dict[str, int]) -> None:
    for side, score in scores.items():
        page.locator(f'#players tr[data-side="{side}"] .score[data-score="{score}"]').wait_for()


def lay(page, game: Game, placement) -> Scoring:
    """Lays the placement tile by tile, checking the live preview after each tile."""
    for n in range(1, len(placement) + 1):
        square, tile = placement[n - 1]
        put(page, square, str(tile))
        result = game.preview(placement[:n])
        if isinstance(result, Scoring):
            page.locator(f'#preview .points[data-points="{result.points}"]').wait_for()
        else:
            page.locator("#preview.illegal").wait_for()
    result = game.preview(placement)
    assert isinstance(result, Scoring)
    return result


def test_a_whole_game_by_hand_then_on_the_games_page(table, page):
    world = World(SEED, ("N", "S"), False, Options())
    shadow = Game(("N", "S"), None, Options(), world.start_board)
    page.goto(table.url + "/sim")
    for square in COMMON_SQUARES:  # the start board, laid in the lobby
        put(page, square, str(world.start_board.top(square)))
    press(page, "N")
    page.locator("#lobby .joined li").first.wait_for()
    press(page, "S")
    page.locator("#lobby .joined li >> nth=1").wait_for()
    press(page, "N", long=True)
    page.locator("#players").wait_for()
    assert "Red" in page.inner_text("#turn")  # N is red, and starts
    shows_scores(page, {"N": 0, "S": 0})

    undone = False
    while (step := world.next_step()) is not None:
        assert step.kind == "turn", step  # this seed has no undo or clean-up of its own
        side = step.side
        if not step.placement:
            press(page, side)
            shadow.swap()
        else:
            before = dict(shadow.scores)
            result = lay(page, shadow, step.placement)
            press(page, side)
            shadow.place(step.placement)
            shows_scores(page, shadow.scores)
            for other in result.bonus:
                alert = page.locator(f'.alert[data-alert="{other}"]').last
                alert.wait_for()
                assert "BONUS" in alert.inner_text()
            if result.bonus and not undone:
                undone = True  # take it back, lift the tiles, lay them again
                press(page, side, long=True)
                shadow.pop()
                shows_scores(page, before)
                assert "Turn taken back" in page.inner_text("#problems")
                for square, _ in reversed(step.placement):
                    top = shadow.board.top(square)
                    lift(page, square, None if top is None else str(top))
                page.wait_for_selector("#problems li[data-square]", state="detached")
                lay(page, shadow, step.placement)
                press(page, side)
                shadow.place(step.placement)
                shows_scores(page, shadow.scores)
        if not shadow.finished:
            page.locator(f'#players tr.active[data-side="{shadow.active}"]').wait_for()
    assert undone
    page.locator("#over").wait_for()
    winner = max(shadow.scores, key=shadow.scores.get)
    assert f"{shadow.scores[winner]}" in page.inner_text("#over .ranking li >> nth=0")

    page.goto(table.url + "/games")
    game = page.locator("#games .game")
    assert game.count() == 1
    first = game.locator(".ranking li").first.inner_text()
    assert re.search(rf"\b{shadow.scores[winner]}\b", first)
    turns = game.locator(".turns li")
    assert turns.count() >= 12  # the 12 turns, the undo and the turn laid again, the end
    lines = game.locator("svg.chart polyline")
    assert lines.count() == 2  # a score line per player, ending at their final score
    assert {lines.nth(i).get_attribute("data-side") for i in range(2)} == {"N", "S"}


def frame(page, side: str) -> str:
    page.wait_for_function(f"() => document.getElementById('frame-{side}').src.startsWith('data:')")
    return page.get_attribute(f"#frame-{side}", "src")


def drawn(page, side: str) -> bytes:
    """The pixels of the seat display of `side` as the page shows it now."""
    src = frame(page, side)
    png = base64.b64decode(src.removeprefix("data:image/png;base64,"))
    return Image.open(io.BytesIO(png)).convert("1").tobytes()


def test_the_language_changes_with_the_pin_and_the_seat_displays_follow(table, page):
    # N joins: the lobby stays on its join page (an empty one turns its pages every few
    # seconds), so N's display has one picture in each language, drawn here from the view
    hands = Client(table.socket)
    hands.ask("press", seat="N")
    state = hands.state(lambda s: s["lobby"] and s["lobby"]["joined"] == ["N"])
    hands.close()
    view = TableState.from_json(state).view
    english, french = (Screens(lang).frame(view, "N").tobytes() for lang in ("en", "fr"))
    page.goto(table.url + "/")
    assert page.inner_text("#lobby h2") == "New game"
    wait_until(lambda: drawn(page, "N") == english, what="N's display on the page")

    page.goto(table.url + "/settings")
    assert page.is_disabled("#set-language")  # watching is free, changing is not
    page.click("#ask-pin")
    assert "PIN is showing" in page.inner_text("#message")
    pin = table.pin()
    wrong = "0000" if pin != "0000" else "1111"
    page.fill("#pin", wrong)
    page.click("#pair")
    assert "Wrong PIN: 4 tries left" in page.inner_text("#error")
    assert page.is_disabled("#set-language")

    # the PIN is for the people at the table: never in the page's words; the simulated
    # table's displays show it, as the real ones do (a real table's frames never carry it:
    # tests/web/test_publish.py)
    page.goto(table.url + "/")
    wait_until(lambda: drawn(page, "N") != english, what="the PIN on the simulated display")
    assert pin not in page.inner_text("main")
    page.goto(table.url + "/settings")
    page.fill("#pin", pin)
    page.click("#pair")
    assert page.inner_text("#message") == "Paired"
    page.select_option("#set-language", value='"fr"')
    page.click('[data-set="language"]')
    assert page.inner_text("#message") == "Enregistré"  # said in the table's new language
    assert page.inner_text("#settings label >> nth=0") == "Langue"

    page.goto(table.url + "/")
    page.wait_for_function(
        "() => document.querySelector('#lobby h2').textContent === 'Nouvelle partie'"
    )
    wait_until(lambda: drawn(page, "N") == french, what="the seat displays drawn in French")


def test_a_pin_is_tried_a_few_times_only_and_a_change_needs_the_pages_token(table, page):
    import urllib.error
    import urllib.parse
    import urllib.request

    page.goto(table.url + "/settings")
    page.click("#ask-pin")
    pin = table.pin()
    wrong = "0000" if pin != "0000" else "1111"
    for _ in range(5):
        page.fill("#pin", wrong)
        page.click("#pair")
    assert "this device may try again in 30 s" in page.inner_text("#error")
    page.fill("#pin", pin)  # the right one, too soon: this browser waits (others need not)
    page.click("#pair")
    assert "Too many wrong PINs from this device" in page.inner_text("#error")

    # a forged form (no session, no token) is refused, and changes nothing
    data = urllib.parse.urlencode({"action": "set", "key": "language", "value": '"it"'})
    request = urllib.request.Request(table.url + "/settings", data=data.encode(), method="POST")
    try:
        urllib.request.urlopen(request, timeout=DEADLINE)
        raise AssertionError("a forged change was accepted")
    except urllib.error.HTTPError as exc:
        assert exc.code == 403
    # the page's own token from another site is refused as well
    token = page.get_attribute('meta[name="csrf"]', "content")
    reply = page.request.post(
        table.url + "/sim/press",
        data='{"seat": "N"}',
        headers={
            "X-CSRF-Token": token,
            "Origin": "http://evil.example",
            "Content-Type": "application/json",
        },
    )
    assert reply.status == 403
    page.goto(table.url + "/settings")
    assert page.locator("#set-language option[selected]").get_attribute("value") == '"en"'


def test_the_hub_cable_pulled_and_a_fault_profile_chosen_by_hand(table, page):
    page.goto(table.url + "/sim")
    put(page, "NW", "star-1")
    page.click("#cable")  # pull it
    page.wait_for_selector("text=The reader hub is not connected.")
    assert "reader hub is not answering" in page.inner_text("#problems")  # the displays' words
    page.click("#cable")  # plug it back in
    page.wait_for_selector("text=The reader hub is not connected.", state="detached")
    page.select_option("#profile", "realistic")
    page.wait_for_function("() => document.querySelector('#profile').value === 'realistic'")
    put(page, "NE", "heart-5")  # the daemon still believes what its readers see, slower
