"""The smaller things a family met on the pages (issue 23, item 8), in the real Chromium: a
lifted tile gone from the simulated board at once, a square clicked with no tile picked, a
press by the wrong player, and the Games chart's finish label."""

from __future__ import annotations

from companion.game.journal import (
    Journal,
    end_record,
    new_record,
    return_record,
    start_record,
    turn_record,
    undo_record,
)
from companion.sim.demo import World
from engine import Options
from tests.web.harness import Table, new_context
from tests.web.play import Played
from tests.web.test_crash import Client


def test_a_lifted_tile_leaves_the_simulated_board_at_once(table, page):
    page.goto(table.url + "/sim")
    hands = Client(table.socket)
    try:
        hands.ask("put", square="NW", tile="star-1")
        page.locator('#board [data-sq="NW"] .tile[data-tile="star-1"]').wait_for()
        hands.state(lambda s: ["NW", ["star-1"]] in s["board"])
        hands.ask("cable", plugged=False)  # the readers see nothing more: the daemon waits
        hands.ask("lift", square="NW")
        # the hands' table shows it gone at once; the readers' board (the daemon's) does not
        page.locator('#board [data-sq="NW"][data-height="0"].unread').wait_for()
        assert ["NW", ["star-1"]] in hands.state()["board"]
    finally:
        hands.close()


def test_a_square_clicked_with_no_tile_picked_says_what_to_do(table, page):
    page.goto(table.url + "/sim")
    page.click('#board [data-sq="SE"]')
    assert "Pick a tile first" in page.inner_text("#sim-error")


def test_a_press_by_the_wrong_player_says_why_nothing_happened(table, page):
    hands = Client(table.socket)
    try:
        Played(hands).start()  # N (Red) is to play
    finally:
        hands.close()
    page.goto(table.url + "/sim")
    page.click('[data-press="S"]:not([data-long])')
    page.get_by_text("Yellow pressed, but it is Red's turn").wait_for()


def finished_game(path, seed: int = 2) -> None:
    """A whole game of the bots, journaled as the daemon does, archived at `path` (seed 2:
    the winner ends on the finish line exactly, which the chart draws at its top)."""
    world = World(seed, ("N", "S"), False, Options())
    game = world.truth
    journal = Journal(path)
    journal.append(start_record(game, {"N": "red", "E": "purple", "S": "yellow", "W": "green"}))
    while (step := world.next_step()) is not None:
        if step.kind == "turn":
            move = game.moves[-1]
            journal.append(turn_record(step.side, step.placement, getattr(move, "scoring", None)))
        elif step.kind == "undo":
            journal.append(undo_record(step.side))
        elif step.kind == "return":
            journal.append(return_record(game.moves[-1].returned))
    journal.append(end_record(game))
    journal.append(new_record())
    assert game.finished and max(game.scores.values()) == game.finish_line


def test_the_charts_finish_label_is_whole_inside_the_chart(tmp_path, browser):
    finished_game(tmp_path / "journal-1.jsonl")
    table = Table(tmp_path)
    table.start_daemon()
    table.start_web()
    try:
        for width in (390, 1280):
            context = new_context(browser, viewport={"width": width, "height": 900})
            page = context.new_page()
            page.goto(table.url + "/games")
            room = page.evaluate(
                """() => { const label = document.querySelector('.chart .finish-label, .chart text:last-of-type');
                  const chart = label.closest('svg').getBoundingClientRect(), box = label.getBoundingClientRect();
                  return {top: box.top - chart.top, right: chart.right - box.right,
                          text: label.textContent}; }"""
            )
            context.close()
            assert room["text"].startswith("finish ")
            # clear of the chart's rounded corner (6 px) and its edge
            assert room["top"] >= 6 and room["right"] >= 6, (width, room)
    finally:
        table.stop()
