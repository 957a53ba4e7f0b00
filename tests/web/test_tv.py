"""The TV view at 1920x1080, in the real browser, and the phone's layout that keeps still
under a finger.

Legible at 3 m: a 1080p television of 40" or more shows a 32 px letter at least 12 mm
high, which reads at 3 m (a letter subtending about 14 arc minutes, well above the 5 of the
eye chart's limit). So no word on the TV is under 32 px, the scores fill a fifth of the
screen's height, the scoreboard spans the width, and nothing needs scrolling."""

from __future__ import annotations

from tests.web.harness import new_context
from tests.web.play import Played
from tests.web.test_crash import Client

#: every visible text's font size, the scoreboard's width and what would need scrolling
MEASURE = """() => {
  const sizes = [];
  for (const el of document.querySelectorAll('body *')) {
    const own = [...el.childNodes].some(n => n.nodeType === 3 && n.textContent.trim());
    const box = el.getBoundingClientRect();
    if (own && box.width && box.height && getComputedStyle(el).visibility !== 'hidden')
      sizes.push([parseFloat(getComputedStyle(el).fontSize), el.textContent.trim().slice(0, 30)]);
  }
  const board = document.querySelector('.tv-players, .tv-lobby, .tv-over');
  const scores = [...document.querySelectorAll('.tv-score')].map(s => parseFloat(getComputedStyle(s).fontSize));
  return {sizes, board: board ? board.getBoundingClientRect().width : 0,
          width: innerWidth, scrolls: document.documentElement.scrollHeight > innerHeight ||
          document.documentElement.scrollWidth > innerWidth, scores};
}"""


def legible_from_3_m(page, what: str) -> dict:
    measured = page.evaluate(MEASURE)
    small = [(size, text) for size, text in measured["sizes"] if size < 32]
    assert not small, f"{what}: words under 32 px: {small}"
    assert not measured["scrolls"], f"{what}: it does not fit the screen"
    return measured


def test_the_tv_view_is_legible_from_across_the_room(table, browser):
    context = new_context(browser, viewport={"width": 1920, "height": 1080})
    page = context.new_page()
    try:
        page.goto(table.url + "/tv")
        page.locator("#lobby").wait_for()
        legible_from_3_m(page, "the lobby")
        hands = Client(table.socket)
        try:
            played = Played(hands)
            played.start()
            played.turns_until(lambda scoring: True)  # one turn played
            page.locator("#last").wait_for()
            measured = legible_from_3_m(page, "a game")
            assert measured["board"] >= 0.9 * measured["width"]
            assert min(measured["scores"]) >= 1080 / 5
            assert "Last: " in page.inner_text("#last")
            assert page.locator('.tv-player.active[data-side="S"]').count() == 1
            hands.ask("cable", plugged=False)  # a problem: said on the TV too, and it fits
            page.locator("#problems li").first.wait_for()
            legible_from_3_m(page, "a game with a problem")
        finally:
            hands.close()
    finally:
        context.close()


TAPPED = ('[data-press="S"]:not([data-long])', '[data-press="W"][data-long]', '[data-pick="heart-6"]',
          '#board [data-sq="S1"]', "#lift-mode", "#cable")  # fmt: skip


#: where each tapped element is, all read in one go: the page swaps its live fragment for a
#: new one (same places, new elements) at every change the daemon publishes, and a read of
#: one element at a time (a locator's bounding_box: find it, then measure it) that straddles
#: a swap finds the element gone. One script runs between two swaps, never across one.
WHERE = """(tapped) => Object.fromEntries(tapped.flatMap(what => {
  const el = document.querySelector(what);
  if (!el || !el.getClientRects().length) return [];
  const box = el.getBoundingClientRect();
  return [[what, [box.x, box.y]]];
}))"""


def boxes(page) -> dict[str, tuple[float, float]]:
    """Where each of `TAPPED` lies on the screen now (those shown)."""
    return {what: (x, y) for what, (x, y) in page.evaluate(WHERE, list(TAPPED)).items()}


def test_on_a_phone_nothing_moves_under_a_finger_when_a_banner_or_alert_comes(table, browser):
    context = new_context(browser, viewport={"width": 390, "height": 844}, has_touch=True)
    page = context.new_page()
    hands = Client(table.socket)
    try:
        page.goto(table.url + "/sim")
        played = Played(hands)
        played.start()
        page.locator("#players").wait_for()
        before = boxes(page)
        assert len(before) == len(TAPPED)
        hands.ask("cable", plugged=False)  # a banner and a problem
        banner = page.get_by_text("The reader hub is not connected.")
        banner.wait_for()
        page.locator("#problems li").first.wait_for()
        assert boxes(page) == before, "the hub's banner moved what is tapped"
        hands.ask("cable", plugged=True)
        banner.wait_for(state="detached")
        page.evaluate(
            "window.alertSeen = false; new MutationObserver(() => { if (document.querySelector"
            "('#alerts .alert')) window.alertSeen = true; })"
            ".observe(document.body, {subtree: true, childList: true})"
        )
        positions: list[dict] = []
        played.turns_until(lambda s: s is not None and bool(s.bonus), before_press=lambda: None)
        page.wait_for_function("() => window.alertSeen")
        positions.append(boxes(page))
        assert positions[0] == before, "the bonus alert moved what is tapped"
    finally:
        hands.close()
        context.close()
