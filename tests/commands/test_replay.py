"""`setup-companion replay`: a journal re-scored by the engine and printed turn by turn."""

from __future__ import annotations

import json
import re

import pytest

from companion.game.journal import Journal, start_record, turn_record
from companion.game.replay import replay_journal
from engine import ALL_TILES, SQUARES, Board, Game, Tile

from .conftest import run_cli

T = Tile.parse
START = {"NW": ["star-4"], "NE": ["heart-3"], "SW": ["diamond-7"], "SE": ["club-1"]}
COLOURS = {"N": "red", "E": "purple", "S": "yellow", "W": "green"}


def write(path, records):
    journal = Journal(path)
    for record in records:
        journal.append(record)
    return path


def small_game(points_of_last: int | None = None) -> list[dict]:
    """S swaps; N lays star-3 on N1; S lays star-5 and heart-5 (N gets a bonus for N1);
    the last turn is taken back and played again (its points as given, if given)."""
    game = Game(["S", "N"], board=Board.from_mapping(START))
    records = [start_record(game, COLOURS)]
    game.swap()
    records.append(turn_record("S", []))
    placement = [("N1", T("star-3"))]
    records.append(turn_record("N", placement, game.place(placement)))
    placement = [("SW", T("star-5")), ("S2", T("heart-5"))]
    records.append(turn_record("S", placement, game.place(placement)))
    records.append({"type": "undo"})
    game.pop()
    again = turn_record("S", placement, game.place(placement))
    if points_of_last is not None:
        again["points"] = points_of_last
    records.append(again)
    return records


def test_a_game_is_printed_turn_by_turn_with_sets_bonus_undo_and_scores(tmp_path, capsys):
    path = write(tmp_path / "j.jsonl", small_game())
    code, out, err = run_cli(capsys, "replay", str(path))
    assert (code, err) == (0, "")
    assert out.splitlines() == [
        "game 1 (line 1): S (yellow), N (red); rules: the rulebook's; finish at 31; "
        "start board: NW star-4, NE heart-3, SW diamond-7, SE club-1",
        "turn 1: S swaps tiles with the bag | S 0 N 0",
        "turn 2: N lays star-3 on N1: +3 (2x3, star 3-4) | S 0 N 3",
        "turn 3: S lays star-5 on SW, heart-5 on S2: +4 (2x5, star 3-5), bonus N +1 | S 4 N 4",
        "undo: turn 3 taken back (S lays star-5 on SW, heart-5 on S2: +4) | S 0 N 3",
        "turn 3: S lays star-5 on SW, heart-5 on S2: +4 (2x5, star 3-5), bonus N +1 | S 4 N 4",
        "not finished: N to move; standing 1. S 4, 2. N 4",  # S placed tiles last
    ]


def test_a_turn_whose_recorded_points_differ_is_flagged_and_the_engine_wins(tmp_path, capsys):
    path = write(tmp_path / "j.jsonl", small_game(points_of_last=7))
    code, out, _ = run_cli(capsys, "replay", str(path))
    assert code == 1
    lines = out.splitlines()
    turn_3 = "turn 3: S lays star-5 on SW, heart-5 on S2: +4 (2x5, star 3-5), bonus N +1 | S 4 N 4"
    assert [n for n, line in enumerate(lines) if line == turn_3] == [3, 5]
    at = 5  # the second time turn 3 is played differs (the first one agrees)
    # the file's line of the record (its first copy: each record is written twice)
    assert lines[at + 1] == "  DIFFERS at line 11: the journal says +7, the engine scores +4"
    assert lines[-1] == "1 event(s) differ from the engine's scoring: line 11"
    assert "DIFFERS" not in "\n".join(lines[:at])


def test_a_recorded_bonus_that_differs_is_flagged(tmp_path):
    records = small_game()
    records[3]["bonus"] = {"N": 2}
    played = replay_journal(write(tmp_path / "j.jsonl", records))
    [event] = played.differences
    assert event.line == 7  # record 4's first copy
    assert event.differences == ("the journal's bonus is N +2, the engine's N +1",)


def test_json_gives_one_object_per_event(tmp_path, capsys):
    path = write(tmp_path / "j.jsonl", small_game(points_of_last=7))
    code, out, _ = run_cli(capsys, "replay", "--json", str(path))
    assert code == 1
    objects = [json.loads(line) for line in out.splitlines()]
    assert [o["event"] for o in objects] == [
        "start", "turn", "turn", "turn", "undo", "turn", "result",
    ]  # fmt: skip
    start, swap, n_turn, s_turn, undo, again, result = objects
    assert start["players"] == ["S", "N"] and start["board"] == START
    assert swap["swap"] is True and swap["points"] == 0 and swap["turn"] == 1
    assert s_turn == {
        "game": 1, "line": 7, "event": "turn", "turn": 3, "side": "S",
        "placed": [["SW", "star-5"], ["S2", "heart-5"]], "swap": False, "points": 4,
        "bonus": {"N": 1}, "sets": ["2x5", "star 3-5"],
        "recorded": {"points": 4, "bonus": {"N": 1}}, "scores": {"S": 4, "N": 4},
        "matches": True,
    }  # fmt: skip
    assert undo["undone"]["turn"] == 3 and undo["scores"] == {"S": 0, "N": 3}
    assert again["matches"] is False and again["recorded"]["points"] == 7
    assert again["differences"] == ["the journal says +7, the engine scores +4"]
    assert result["finished"] is False and result["active"] == "N"
    assert result["scores"] == {"S": 4, "N": 4} and result["differences"] == 1


def test_the_demo_game_is_re_scored_to_the_same_points_and_winner(demo_game, capsys):
    journal, result = demo_game
    records = Journal(journal).records()
    turns = [r for r in records if r["type"] == "turn"]
    code, out, err = run_cli(capsys, "replay", str(journal))
    assert (code, err) == (0, "")
    lines = out.splitlines()
    printed = [line for line in lines if line.startswith("turn ")]
    assert len(printed) == len(turns) == result.turns
    for line, record in zip(printed, turns):
        side = record["side"]
        if record["placed"]:
            assert re.match(rf"turn \d+: {side} lays .*: \+{record['points']} \(", line), line
            for square, tile in record["placed"]:
                assert f"{tile} on {square}" in line
        else:
            assert f"{side} swaps" in line
    final = " ".join(f"{side} {result.scores[side]}" for side in ("S", "N"))
    assert printed[-1].endswith(f"| {final}")
    assert lines[-1].startswith(f"game over: {result.winner} wins; ranking 1. {result.winner}")

    code, out, _ = run_cli(capsys, "replay", "--json", str(journal))
    objects = [json.loads(line) for line in out.splitlines()]
    assert objects[-1]["scores"] == result.scores and objects[-1]["winner"] == result.winner
    assert sum(o["event"] == "turn" for o in objects) == len(turns)
    assert all(o["matches"] for o in objects if o["event"] == "turn")


def test_an_archived_journal_with_two_games_and_covered_tiles_returned(tmp_path, capsys):
    # 38 tiles on the board with two players: the bag is empty, so the covered tiles go back
    stacks: dict[str, list[Tile]] = {square: [] for square in SQUARES}
    for n, tile in enumerate(ALL_TILES[:38]):
        stacks[SQUARES[n % 12]].append(tile)
    game = Game(["S", "N"], board=Board(stacks))
    covered = sorted(map(str, game.board.covered()))
    returned = {"type": "return", "tiles": covered}
    records = [*small_game(), {"type": "new"}, start_record(game, COLOURS)]
    records += [returned, {"type": "undo"}, returned, turn_record("S", [])]
    path = write(tmp_path / "journal-3.jsonl", records)
    code, out, _ = run_cli(capsys, "replay", str(path))
    assert code == 0
    second = out.split("\n\n")[1].splitlines()
    assert second[0].startswith("game 2 (line 15): S (yellow), N (red);")  # record 8
    assert second[1].startswith("bag empty: 26 covered tiles go back into the bag (star-1, ")
    assert second[2] == "undo: a move taken back (the return of 26 covered tiles) | S 0 N 0"
    assert second[3].startswith("bag empty: 26 covered tiles")
    assert second[4] == "turn 1: S swaps tiles with the bag | S 0 N 0"
    assert out.split("\n\n")[0].splitlines()[-1].startswith("abandoned (a new game was opened)")


def test_a_damaged_line_is_named_in_one_sentence_exit_2(tmp_path, capsys):
    path = write(tmp_path / "j.jsonl", small_game())
    lines = path.read_text().splitlines(keepends=True)
    lines[4:6] = ['{"type": "turn", "side": "N", "placed": [["N1", "st\n'] * 2  # both copies
    path.write_text("".join(lines))
    code, out, err = run_cli(capsys, "replay", str(path))
    assert (code, out) == (2, "")
    assert err.count("\n") == 1
    assert err.startswith(f"setup-companion: the journal {path} is damaged at line 5: not JSON")


def test_a_record_the_rules_cannot_replay_is_named_exit_2(tmp_path, capsys):
    records = small_game()
    records[2]["side"] = "S"  # S plays twice in a row
    path = write(tmp_path / "j.jsonl", records)
    code, _, err = run_cli(capsys, "replay", str(path))
    assert code == 2
    assert err == (
        f"setup-companion: {path} cannot be replayed at line 5 (turn): the turn is N's, not S's\n"
    )


def test_a_torn_last_line_is_a_warning_and_the_game_up_to_it(tmp_path, capsys):
    path = write(tmp_path / "j.jsonl", small_game())
    text = path.read_text()
    last = len(text.splitlines(keepends=True)[-1])
    # the power went while the last turn was written: its first copy cut short
    path.write_text(text[: len(text) - last - 20])
    code, out, err = run_cli(capsys, "replay", str(path))
    assert code == 0
    assert "warning: the journal's last line was cut short" in err
    assert "line 11 ignored" in err
    assert out.splitlines()[-2].startswith("undo: turn 3 taken back")  # the last whole line
    assert out.splitlines()[-1] == "not finished: S to move; standing 1. N 3, 2. S 0"


@pytest.mark.parametrize(
    ("setup", "message"),
    [
        (lambda p: None, "there is no journal at {p}"),
        (lambda p: p.write_text(""), "the journal {p} holds no game"),
        (lambda p: p.mkdir(), "{p} is a directory, not a journal file"),
        (
            lambda p: p.write_text('{"type":"turn","side":"S","placed":[]}\n'),
            "{p} cannot be replayed at line 1 (turn): a turn record comes before any game "
            "was started",
        ),
    ],
)
def test_nothing_to_replay_is_one_clear_sentence(tmp_path, capsys, setup, message):
    path = tmp_path / "j.jsonl"
    setup(path)
    code, out, err = run_cli(capsys, "replay", str(path))
    assert (code, out) == (2, "")
    assert err == f"setup-companion: {message.format(p=path)}\n"


@pytest.mark.parametrize("command", ["replay", "enroll", "selftest"])
def test_help(command, capsys):
    with pytest.raises(SystemExit) as exit:
        run_cli(capsys, command, "--help")
    assert exit.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith(f"usage: setup-companion {command}")
    with pytest.raises(SystemExit):
        run_cli(capsys, "--help")
    listed = capsys.readouterr().out
    assert re.search(rf"^\s+{command}\s+\w", listed, re.MULTILINE), listed


def test_a_start_board_that_is_not_an_object_is_one_sentence_exit_2(tmp_path, capsys):
    records = small_game()
    records[0]["board"] = ["NW"]
    path = write(tmp_path / "j.jsonl", records)
    code, out, err = run_cli(capsys, "replay", str(path))
    assert (code, out) == (2, "")
    assert err == (
        f"setup-companion: {path} cannot be replayed at line 1 (start): "
        "the start board is not an object of square: [tiles]\n"
    )


def test_replay_and_the_daemon_read_a_journal_with_one_interpreter(tmp_path):
    """A recorded bonus that differs: `replay` flags it and goes on; the daemon's strict
    replay refuses at that very line (it did not look at bonuses before)."""
    from companion.game.journal import JournalError
    from companion.game.replay import games, replay_records

    records = small_game()
    records[3]["bonus"] = {"N": 2}
    flagged = replay_records(records)[0].differences
    assert [event.line for event in flagged] == [4]
    with pytest.raises(JournalError, match="line 4 .*bonus"):
        games(records)
    assert [g.game.scores for g in games(small_game())] == [
        g.game.scores for g in replay_records(small_game())
    ]


@pytest.mark.parametrize("how", [[], ["--json"]])
def test_a_lone_surrogate_in_a_journal_is_printed_in_valid_utf8(tmp_path, utf8_locale, how):
    """A journal whose colour is JSON's "\\udcff" (which no UTF-8 can hold): printed as that
    escape, under a strict UTF-8 locale; before, a UnicodeEncodeError traceback."""
    import subprocess
    import sys
    import zlib

    record = {**small_game()[0], "colours": {"S": "\udcff"}}
    body = json.dumps(record, separators=(",", ":")).encode("ascii")
    path = tmp_path / "journal.jsonl"
    path.write_bytes(body[:-1] + b',"crc":"%08x"}\n' % zlib.crc32(body))
    done = subprocess.run(
        [sys.executable, "-m", "companion.cli", "replay", *how, str(path)],
        env=utf8_locale,
        capture_output=True,
        timeout=60,
    )
    assert done.returncode == 0 and done.stderr == b"", done.stderr.decode(errors="replace")
    out = done.stdout.decode("utf-8")  # strict
    if how:
        assert json.loads(out.splitlines()[0])["colours"] == {"S": "\udcff"}
    else:
        assert "S (\\udcff)" in out
