"""Moments of play through the real daemon on the simulated table: an illegal move fixed,
an undo, a forgotten tile, the hub unplugged mid-turn."""

import pytest

from companion.game.view import IllegalMove, Question, SwapQuestion, Undo
from companion.sim.demo import Demo
from engine import Board, Tile
from hardware.hub.sim import FaultModel

T = Tile.parse
START = {"NW": "star-1", "NE": "heart-5", "SW": "club-9", "SE": "spade-7"}


@pytest.fixture
def demo(tmp_path):
    demo = Demo(
        journal=tmp_path / "journal.jsonl",
        faults=FaultModel.realistic(),
        seed=3,
        out=lambda _: None,
    )
    demo.world.start_board = Board({sq: [T(t)] for sq, t in START.items()})
    demo._start()  # S and N join, S starts
    yield demo
    demo.devices.close()


def shows(demo, *placement):
    table = demo.daemon.table
    return demo.wait_for(
        lambda: (
            set(table.tracker.placement) == set(placement)
            and not table.tracker.blocking(demo.clock())
        )
    )


def test_an_illegal_move_is_explained_scores_nothing_and_can_be_fixed(demo):
    table = demo.daemon.table
    demo.put("S1", T("star-2"))  # S1 does not touch the star-1 on NW: no set
    assert shows(demo, ("S1", T("star-2")))
    assert table.preview().code == "not-one-set"  # said before the press
    demo.press("S")
    notices = demo.daemon.view.notices
    assert any(isinstance(n, IllegalMove) and n.illegal.code == "not-one-set" for n in notices)
    assert table.game.scores == {"S": 0, "N": 0} and table.game.active == "S"
    demo.sweep(5)  # S reads the display ...
    demo.lift("S1")  # ... and takes star-2 back
    assert shows(demo)
    demo.put("SW", T("star-2"))  # on the club-9, next to star-1
    assert shows(demo, ("SW", T("star-2")))
    assert table.preview().points == 2
    demo.press("S")  # a press is confirmed by the next sweep: watch the display
    assert demo.wait_for(lambda: table.game.scores == {"S": 2, "N": 0}, 2.0)
    assert table.game.active == "N"


def test_a_long_press_undoes_the_turn_and_the_tiles_come_off(demo):
    table = demo.daemon.table
    demo.put("SW", T("star-2"))
    assert shows(demo, ("SW", T("star-2")))
    demo.press("S")
    assert demo.wait_for(lambda: table.game.scores["S"] == 2, 2.0)
    demo.press("S", long=True)
    assert table.game.scores == {"S": 0, "N": 0} and table.game.active == "S"
    assert any(isinstance(n, Undo) for n in demo.daemon.view.notices)
    assert table.tracker.leaving  # "take the tile off square SW"
    demo.lift("SW")
    assert demo.wait_for(lambda: not table.tracker.leaving)
    assert table.tracker.board.top("SW") == T("club-9")
    demo.put("NE", T("star-2"))  # heart-5 covered; star-2 next to star-1
    assert shows(demo, ("NE", T("star-2")))
    demo.press("S")
    assert demo.wait_for(lambda: table.game.scores == {"S": 2, "N": 0}, 2.0)


def test_a_forgotten_tile_becomes_the_next_players_arrival(demo):
    table = demo.daemon.table
    demo.put("SW", T("star-2"))
    assert shows(demo, ("SW", T("star-2")))
    demo.press("S")
    assert demo.wait_for(lambda: table.game.active == "N", 2.0)  # scored once confirmed
    demo.put("S2", T("star-3"))  # S remembers it too late: it is N's turn now
    assert shows(demo, ("S2", T("star-3")))
    assert table.game.active == "N" and table.preview() is not None  # shown on N's display
    demo.lift("S2")  # back to S's hand
    demo.press("N")  # N swaps, once the readings after the press show nothing new ...
    # ... and the table knows where star-3 went: the readers lost it on S2, whose reader
    # may have fallen silent, so N is asked; a hold: it is in a hand (docs/family.md)
    asked = lambda: [n for n in demo.daemon.view.notices if isinstance(n, Question)]  # noqa: E731
    assert demo.wait_for(lambda: asked(), 4.0)
    assert [(q.side, q.square, q.tile) for q in asked()] == [("N", "S2", T("star-3"))]
    demo.press("N", long=True)
    # S2's reader may be silent: nothing seen laid there may yet be a tile, "a swap?"
    swap = lambda: [n for n in demo.daemon.view.notices if isinstance(n, SwapQuestion)]  # noqa: E731
    assert demo.wait_for(lambda: swap() or table.game.moves[-1].kind == "swap", 4.0)
    if swap():
        assert [q.side for q in swap()] == ["N"]
        demo.press("N")  # a press: it was a swap
    assert demo.wait_for(lambda: table.game.moves[-1].kind == "swap", 2.0)
    assert table.game.scores == {"S": 2, "N": 0}


def test_hub_unplugged_mid_turn_keeps_the_board_and_scores_nothing_from_guesses(demo):
    table = demo.daemon.table
    demo.put("SW", T("star-2"))
    assert shows(demo, ("SW", T("star-2")))
    demo.rig.hub.unplug()
    demo.sweep(25)  # 2.5 s without a line
    assert not demo.devices.link.health.connected
    assert any(p.code == "hub-disconnected" for p in table.tracker.problems(demo.clock()))
    demo.press("S")  # refused: nothing is scored while the hub is away
    assert table.game.scores == {"S": 0, "N": 0}
    assert table.tracker.board.top("SW") == T("star-2")  # the last known board is kept
    demo.rig.hub.replug()
    assert shows(demo, ("SW", T("star-2")))
    demo.press("S")
    assert demo.wait_for(lambda: table.game.scores == {"S": 2, "N": 0}, 2.0)
