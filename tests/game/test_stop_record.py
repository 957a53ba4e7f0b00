"""The `stop` record: a game stopped before its end, replayed and described, its scores
checked; a stop where none can be, and a turn after one, are refused."""

from __future__ import annotations

import pytest

from companion.game.journal import new_record, start_record, stop_record, turn_record
from companion.game.replay import ReplayError, games, replay, replay_records, text_lines
from engine import Board, Game
from tests.helpers import tile

START = {"NW": ["star-3"], "NE": ["heart-5"], "SW": ["club-7"], "SE": ["spade-9"]}


def a_game_stopped(by: str = "table") -> list[dict]:
    game = Game(["S", "N"], board=Board.from_mapping(START))
    out = [start_record(game)]
    placement = [("W2", tile("star-4"))]
    out.append(turn_record("S", placement, game.place(placement)))
    out += [stop_record(game, by), new_record()]
    return out


def test_a_stopped_game_replays_unfinished_with_its_scores_and_is_closed():
    (played,) = games(a_game_stopped())
    assert played.stopped and played.closed and not played.game.finished
    assert played.differences == []
    assert replay(a_game_stopped()) is None  # the daemon resumes a lobby
    lines = list(text_lines(played))
    assert "the game is stopped before its end, at the table | S 2 N 0" in lines
    assert lines[-1].startswith("stopped before its end (unfinished)")


def test_scores_that_differ_are_a_difference_and_strictly_an_error():
    records = a_game_stopped("web")
    records[2]["scores"] = {"S": 9, "N": 0}
    (played,) = replay_records(records)
    assert played.differences and "scores when it stopped are S 9 N 0" in str(
        played.differences[0].differences
    )
    with pytest.raises(ReplayError, match="line 3"):
        games(records)


@pytest.mark.parametrize(
    ("change", "why"),
    [
        (lambda r: r.insert(3, dict(r[1])), "a turn after the game was stopped"),
        (lambda r: r.insert(3, dict(r[2])), "a stop record for a game that was over"),
        (lambda r: r[2].update(by="cat"), "'cat' did not stop the game"),
    ],
)
def test_a_stop_where_none_can_be_is_refused(change, why):
    records = a_game_stopped()
    change(records)
    with pytest.raises(ReplayError, match=why):
        replay_records(records)
