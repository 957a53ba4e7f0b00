"""The journal: fsynced JSON Lines, torn last lines, damaged files, replay, and resuming a
game killed at any instant."""

import json
import os

import pytest

from companion.board.problems import Problem
from companion.game.journal import (
    Journal,
    JournalError,
    encode,
    games,
    replay,
    start_record,
    turn_record,
)
from engine import Board, Game
from tests.helpers import Rig, tile

START = {"NW": ["star-3"], "NE": ["heart-5"], "SW": ["club-7"], "SE": ["spade-9"]}
TURNS = [
    ("S", [("W2", "star-4")]),
    ("N", [("N1", "star-5")]),
    ("S", [("NE", "diamond-5")]),
    ("N", []),
]


def records() -> list[dict]:
    """A game's journal: start, four turns, an undo and the turn again."""
    game = Game(["S", "N"], board=Board.from_mapping(START))
    out = [start_record(game, {"N": "red", "E": "purple", "S": "yellow", "W": "green"})]
    for side, tiles in TURNS:
        placement = [(sq, tile(t)) for sq, t in tiles]
        result = game.place(placement) if placement else game.swap()
        out.append(turn_record(side, placement, result if placement else None))
    out.append({"type": "undo", "side": "N"})
    out.append(turn_record("N", []))
    return out


def test_records_round_trip_one_fsync_each(tmp_path, monkeypatch):
    synced = []
    real_fsync = os.fsync
    monkeypatch.setattr(os, "fsync", lambda fd: (synced.append(fd), real_fsync(fd)))
    journal = Journal(tmp_path / "state" / "journal.jsonl")
    for record in records():
        journal.append(record)
    lines = journal.path.read_bytes().splitlines(keepends=True)
    assert lines == [encode(record) for record in records()]
    assert [
        {k: v for k, v in json.loads(line).items() if k != "crc"} for line in lines
    ] == records()
    assert len(synced) == len(records()) + 1  # one per record, and the new file's directory
    assert Journal(journal.path).records() == records()


def test_replay_rebuilds_the_game_exactly():
    game = replay(records())
    assert game.scores == {"S": 4, "N": 5} and game.active == "S"
    assert [m.kind for m in game.moves] == ["place", "place", "place", "swap"]
    assert game.board.stack("NE") == (tile("heart-5"), tile("diamond-5"))


def test_a_torn_last_line_is_ignored_and_cut_away_by_the_next_append(tmp_path):
    journal = Journal(tmp_path / "journal.jsonl")
    for record in records()[:3]:
        journal.append(record)
    whole = journal.path.read_bytes()
    journal.path.write_bytes(whole + b'{"type":"turn","side":"S","pla')
    journal = Journal(journal.path)
    assert journal.records() == records()[:3]
    assert "line 4" in journal.torn
    journal.append(records()[3])
    assert journal.path.read_bytes() == whole + encode(records()[3])
    assert journal.records() == records()[:4] and journal.torn is None


def test_a_last_line_of_garbage_after_a_power_cut_is_ignored(tmp_path):
    journal = Journal(tmp_path / "journal.jsonl")
    for record in records()[:2]:
        journal.append(record)
    with open(journal.path, "ab") as handle:
        handle.write(b"\x00\x00\x00\x00\n")  # zeros where the last write was lost
    assert Journal(journal.path).records() == records()[:2]


def test_a_damaged_line_in_the_middle_is_an_error_and_the_file_is_kept(tmp_path):
    journal = Journal(tmp_path / "journal.jsonl")
    for record in records()[:4]:
        journal.append(record)
    lines = journal.path.read_bytes().split(b"\n")
    lines[1] = lines[1][:20]  # a line cut short, and whole lines after it
    damaged = b"\n".join(lines)
    journal.path.write_bytes(damaged)
    journal = Journal(journal.path)
    with pytest.raises(JournalError, match="line 2"):
        journal.records()
    with pytest.raises(JournalError, match="line 2"):
        journal.append({"type": "undo"})
    assert journal.path.read_bytes() == damaged


@pytest.mark.parametrize(
    "bad, reason",
    [
        ({"type": "turn", "side": "N", "placed": []}, "the turn is S's, not N's"),
        ({"type": "turn", "side": "S", "placed": [["S1", "heart-2"]]}, "not legal"),
        ({"type": "turn", "side": "S", "placed": [["W2", "star-4"]], "points": 5}, "scores \\+2"),
        ({"type": "turn", "side": "S", "placed": [["W2", "star-44"]]}, "not a tile"),
        ({"type": "undo"}, "no move to take back"),
        ({"type": "return"}, "bag was not empty"),
        ({"type": "teleport"}, "not a kind of journal record"),
        ({"type": "turn", "side": "S", "placed": 5}, "not those of a turn record"),
        ({"type": "turn", "side": "S", "placed": [[["W2"], "star-4"]]}, "not a square"),
    ],
)
def test_a_record_that_does_not_fit_the_game_is_an_error(bad, reason):
    with pytest.raises(JournalError, match=f"line 2 .*{reason}"):
        replay([records()[0], bad])


def test_a_closed_game_is_not_resumed():
    assert replay(records() + [{"type": "new"}]) is None
    assert replay([]) is None
    found = games(records() + [{"type": "new"}] + records()[:2])
    assert [len(g.game.moves) for g in found] == [4, 1] and found[0].closed


def test_killed_at_any_instant_the_restarted_table_shows_the_last_committed_state(tmp_path):
    """Every prefix of the journal file (a power cut after any byte) resumes to the state
    of the last whole record in it; never an error, never a different game."""
    whole = Journal(tmp_path / "whole.jsonl")
    for record in records():
        whole.append(record)
    data = whole.path.read_bytes()
    ends = [i + 1 for i, byte in enumerate(data) if byte == ord("\n")]
    expected = {}
    for n in range(len(ends) + 1):
        game = replay(records()[:n])
        expected[n] = None if game is None else (game.scores, game.active, game.board)
    (tmp_path / "rig").mkdir()
    rig = Rig(tmp_path / "rig")
    for cut in range(len(data) + 1):
        rig.config.paths.journal.write_bytes(data[:cut])
        table = rig.restart()
        whole_records = sum(end <= cut for end in ends)
        game = table.game
        state = None if game is None else (game.scores, game.active, game.board)
        assert state == expected[whole_records], cut
        assert table.startup_error is None


def test_a_damaged_journal_resumes_its_good_prefix_and_keeps_the_file_aside(tmp_path):
    rig = Rig(tmp_path)
    for record in records()[:4]:
        rig.journal.append(record)
    damaged = rig.journal.path.read_bytes().replace(b'"side":"S"', b'"side":S', 1)
    rig.journal.path.write_bytes(damaged)
    table = rig.restart()
    assert "line 2" in table.startup_error
    assert (tmp_path / "journal-damaged-1.jsonl").read_bytes() == damaged
    # the game as it was before the damaged record, and the journal goes on from there
    assert table.phase == "playing" and table.game.moves == ()
    assert rig.journal.records() == records()[:1]
    assert Problem("journal-lost", count=3) in rig.view().notices
    rig.sweep(605)  # a minute
    assert Problem("journal-lost", count=3) not in rig.view().notices


def test_a_damaged_start_record_sets_the_journal_aside_and_a_new_lobby_opens(tmp_path):
    rig = Rig(tmp_path)
    for record in records()[:4]:
        rig.journal.append(record)
    damaged = rig.journal.path.read_bytes().replace(b'"players"', b'"pla yers"', 1)
    rig.journal.path.write_bytes(damaged)
    table = rig.restart()
    assert table.phase == "lobby" and "line 1" in table.startup_error
    assert (tmp_path / "journal-damaged-1.jsonl").read_bytes() == damaged
    assert not rig.journal.path.exists()
    # the displays say so until a new game is saved
    assert Problem("journal-damaged") in rig.view().notices
    rig.setup({"NW": ["star-3"], "NE": ["heart-5"]})
    rig.sweep(5)
    rig.start("S", "N")
    assert Problem("journal-damaged") not in rig.view().notices


def test_a_journal_that_cannot_be_written_is_shown_and_scores_nothing(tmp_path):
    rig = Rig(tmp_path)
    rig.setup({"NW": ["star-3"], "NE": ["heart-5"]})
    rig.sweep(5)
    rig.start("S", "N")
    journal = rig.journal.path
    saved = journal.read_bytes()
    journal.unlink()
    journal.mkdir()  # the card: now the journal cannot be appended to
    rig.put("SW", "star-4")
    rig.sweep(5)
    rig.press("S")
    assert rig.table.game.scores == {"S": 0, "N": 0} and rig.table.game.active == "S"
    assert Problem("journal-unwritable") in rig.view().notices
    journal.rmdir()
    journal.write_bytes(saved)  # the card is back
    rig.press("S")
    assert rig.table.game.scores == {"S": 2, "N": 0}
    assert Problem("journal-unwritable") not in rig.view().notices


@pytest.mark.parametrize(
    "start",
    [
        {"type": "start", "players": ["S"], "board": {}},
        {"type": "start", "players": ["S", "N"], "board": ["NW"]},
        {"type": "start", "players": ["S", "N"], "board": {"NW": ["star-3", "star-3"]}},
        {"type": "start", "players": ["S", "N"], "options": {"end": "never"}},
        {"type": "start", "players": ["S", "N"], "v": 2},
        {"type": "start"},
    ],
)
def test_a_start_record_that_cannot_be_a_game_is_an_error(start):
    with pytest.raises(JournalError, match="line 1"):
        replay([start])


def test_a_finished_game_whose_end_record_was_lost_gets_it_on_restart(tmp_path):
    from companion.game.journal import start_record, turn_record
    from engine import Game
    from tests.engine.test_game import lay_run

    game = Game(["S", "N"])
    rig = Rig(tmp_path)
    rig.journal.append(start_record(game, {}))
    while not game.finished:
        before = len(game.moves)
        lay_run(game)
        for move in game.moves[before:]:
            if move.kind == "place":
                rig.journal.append(turn_record(move.side, move.scoring.placed, move.scoring))
            else:
                rig.journal.append({"type": "return", "tiles": sorted(map(str, move.returned))})
    # the power went out before the end record reached the card
    table = rig.restart()
    assert table.phase == "over"
    records = rig.journal.records()
    assert records[-1] == {"type": "end", "ranking": ["S", "N"], "scores": {"S": 32, "N": 28}}
    rig.restart()
    assert rig.journal.records() == records  # written once, not at every start


def test_an_announced_problem_shows_for_its_time(tmp_path):
    rig = Rig(tmp_path)
    rig.table.announce(Problem("config-invalid"), rig.now, 30.0)
    assert Problem("config-invalid") in rig.view().notices
    rig.sweep(290)  # 29 s
    assert Problem("config-invalid") in rig.view().notices
    rig.sweep(15)
    assert Problem("config-invalid") not in rig.view().notices
