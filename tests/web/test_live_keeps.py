"""A page's live fragments are replaced only when the table changes: the stream does not
send again what the page was drawn with. Replaced between a press and its release, the
button under a finger is a new element, and the browser drops the click (a tap on "Apply
the correction" right after the page loaded was lost so, in a loaded run)."""

from __future__ import annotations

from tests.web.test_crash import Client

#: marks the drawn fragment before any of the page's own scripts can replace it
MARK_AS_DRAWN = """document.addEventListener("DOMContentLoaded", () => {
  const drawn = document.querySelector("#live-table > *");
  if (drawn) drawn.dataset.drawn = "yes";
});"""
DRAWN_KEPT = "() => !!document.querySelector('#live-table > [data-drawn]')"


def test_the_page_keeps_what_it_was_drawn_with_until_the_table_changes(table, page):
    page.add_init_script(MARK_AS_DRAWN)
    page.goto(table.url + "/")
    # the stream's first round has come: it marks the body with the state it is at
    page.wait_for_function("() => document.body.dataset.version !== undefined")
    assert page.evaluate(DRAWN_KEPT)  # the same lobby: not drawn again
    lobby = page.inner_html("#live-table")
    hands = Client(table.socket)
    try:
        hands.ask("put", square="NW", tile="star-1")  # the table changes
        page.wait_for_function(f"() => !({DRAWN_KEPT})()")  # and the page follows it
        assert page.inner_html("#live-table") != lobby
    finally:
        hands.close()


def test_a_button_held_while_the_table_changes_still_clicks_on_release(table, page):
    """The sim table's fragment changes while a finger is down on a tile button (the
    daemon's own sweep, another hand): the release still picks that tile. A fragment
    swapped in whole made a new button under the finger, and the click was lost."""
    page.goto(table.url + "/sim")
    page.wait_for_function("() => document.body.dataset.version !== undefined")
    button = page.locator('[data-pick="star-2"]')
    box = button.bounding_box()
    assert box is not None
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    hands = Client(table.socket)
    try:
        hands.ask("put", square="NW", tile="star-1")  # the table changes under the finger
        page.locator('#board [data-sq="NW"] .tile[data-tile="star-1"]').wait_for()
    finally:
        hands.close()
    page.mouse.up()
    page.locator('[data-pick="star-2"].picked').wait_for(timeout=5000)
