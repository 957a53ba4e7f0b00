"""The journal: fsynced JSON Lines, torn last lines, damaged files, replay, and resuming a
game killed at any instant."""

import errno
import json
import os
import random
import shutil

import pytest

from companion.board.problems import Problem
from companion.game.journal import (
    Journal,
    JournalError,
    encode,
    start_record,
    turn_record,
)
from companion.game.replay import games, replay
from engine import Board, Game
from tests.helpers import FullCard, Rig, tile, two_playing

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
    # each record twice, numbered, the two copies in one write
    assert lines == [encode(r, n) for n, r in enumerate(records(), 1) for _ in range(2)]
    assert [
        {k: v for k, v in json.loads(line).items() if k not in ("crc", "n")} for line in lines
    ] == [record for record in records() for _ in range(2)]
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
    assert "line 7" in journal.torn
    journal.append(records()[3])
    assert journal.path.read_bytes() == whole + encode(records()[3], 4) * 2
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
    lines[2], lines[3] = lines[2][:20], lines[3][:30]  # both copies of the second record
    damaged = b"\n".join(lines)
    journal.path.write_bytes(damaged)
    journal = Journal(journal.path)
    with pytest.raises(JournalError, match="line 3"):
        journal.records()
    with pytest.raises(JournalError, match="line 3"):
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
        ({"type": "turn", "side": "S", "placed": 5}, "a placement is a list"),
        ({"type": "turn", "side": "S", "placed": [5]}, "is a \\[square, tile\\] pair"),
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
    # a record is written once its first copy's newline is on the card
    ends = [i + 1 for i, byte in enumerate(data) if byte == ord("\n")][::2]
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


def damaged_at(tmp_path, old: bytes, new: bytes) -> tuple[Rig, bytes]:
    """A rig restarted on four records whose first `old` bytes became `new`; the bytes."""
    rig = Rig(tmp_path)
    for record in records()[:4]:
        rig.journal.append(record)
    damaged = rig.journal.path.read_bytes().replace(old, new, 2)  # both copies
    rig.journal.path.write_bytes(damaged)
    rig.restart()
    assert (tmp_path / "journal-damaged-1.jsonl").read_bytes() == damaged
    return rig, damaged


def test_a_damaged_journal_resumes_its_good_prefix_and_keeps_the_file_aside(tmp_path):
    rig, _ = damaged_at(tmp_path, b'"side":"S"', b'"side":S')
    table = rig.table
    assert "line 3" in table.startup_error  # both copies of the second record
    # the game as it was before the damaged record, and the journal goes on from there
    assert table.phase == "playing" and table.game.moves == ()
    assert rig.journal.records() == records()[:1]
    assert Problem("journal-lost", count=3) in rig.view().notices
    rig.sweep(605)  # a minute
    assert Problem("journal-lost", count=3) not in rig.view().notices


def test_a_damaged_start_record_sets_the_journal_aside_and_a_new_lobby_opens(tmp_path):
    rig, _ = damaged_at(tmp_path, b'"players"', b'"pla yers"')
    assert rig.table.phase == "lobby" and "line 1" in rig.table.startup_error
    assert not rig.journal.path.exists()
    # the displays say so until a new game is saved
    assert Problem("journal-damaged") in rig.view().notices
    rig.setup({"NW": ["star-3"], "NE": ["heart-5"], "SW": ["club-1"], "SE": ["diamond-9"]})
    rig.sweep(5)
    rig.start("S", "N")
    assert Problem("journal-damaged") not in rig.view().notices


def test_a_journal_that_cannot_be_written_is_shown_and_scores_nothing(tmp_path):
    rig = two_playing(tmp_path)
    card = FullCard(rig)  # now the journal cannot be appended to
    rig.put("SW", "star-4")
    rig.sweep(5)
    rig.press("S")
    assert rig.table.game.scores == {"S": 0, "N": 0} and rig.table.game.active == "S"
    assert Problem("journal-unwritable") in rig.view().notices
    card.back()
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


# -- the card failing under the journal ------------------------------------------------------
class Card:
    """The SD card under the journal: `os.write` and `os.fsync` (the only calls that put a
    journal's bytes on the card, appends and whole rewrites alike) fail with a real OS error
    while `write_error` / `fsync_error` is set, for files under `root` only. A failing write
    may first put half its bytes down, as a card that fills up mid-record does."""

    def __init__(self, monkeypatch, root) -> None:
        self.root = str(root)
        self.write_error: int | None = None
        self.fsync_error: int | None = None
        self.half = False
        self.failed = 0
        real_write, real_fsync = os.write, os.fsync

        def ours(fd: int) -> bool:
            try:
                return os.readlink(f"/proc/self/fd/{fd}").startswith(self.root)
            except OSError:
                return False

        def write(fd, data):
            if self.write_error is not None and ours(fd):
                self.failed += 1
                if self.half and len(data) > 1:
                    real_write(fd, bytes(data[: len(data) // 2]))
                raise OSError(self.write_error, os.strerror(self.write_error))
            return real_write(fd, data)

        def fsync(fd):
            if self.fsync_error is not None and ours(fd):
                self.failed += 1
                raise OSError(self.fsync_error, os.strerror(self.fsync_error))
            return real_fsync(fd)

        monkeypatch.setattr(os, "write", write)
        monkeypatch.setattr(os, "fsync", fsync)


def started(tmp_path, **game) -> Rig:
    """S and N playing on START, with the config's game settings `game`."""
    from tests.helpers import config

    state = tmp_path / "state"
    state.mkdir()
    rig = Rig(state, cfg=config(state, **game))
    rig.setup(START)
    rig.sweep(5)
    rig.start("S", "N")
    return rig


def journal_turns(rig: Rig) -> list[str]:
    return [r.get("side") for r in Journal(rig.journal.path).records() if r["type"] == "turn"]


def test_a_failing_fsync_is_never_counted_and_the_retry_writes_the_turn_once(tmp_path, monkeypatch):
    rig = started(tmp_path, auto_end_seconds=1.0)
    card = Card(monkeypatch, tmp_path)
    rig.put("W2", "star-4")
    card.fsync_error = errno.EIO
    rig.seconds(1.5)
    rig.press("S")  # a person tries too
    rig.seconds(1.0)
    assert card.failed >= 2
    assert rig.table.game.scores == {"S": 0, "N": 0}  # nothing scored that is not on the card
    card.fsync_error = None
    rig.seconds(5.0)  # the journal is written whole again, then the turn ends by itself
    assert rig.table.game.scores == {"S": 2, "N": 0} and rig.table.game.active == "N"
    rig.put("N1", "star-5")
    rig.seconds(1.5)
    assert journal_turns(rig) == ["S", "N"]  # S's turn once, however often it was tried
    scores = rig.table.game.scores
    assert scores["N"] > 0
    game = rig.restart().game
    assert game is not None and game.scores == scores
    assert rig.table.startup_error is None


def test_a_write_cut_short_by_a_full_card_is_cut_back_and_the_retry_writes_it_once(
    tmp_path, monkeypatch
):
    rig = started(tmp_path)
    card = Card(monkeypatch, tmp_path)
    before = rig.journal.path.read_bytes()
    rig.put("W2", "star-4")
    rig.sweep(5)
    card.write_error, card.half = errno.ENOSPC, True
    rig.press("S")
    assert rig.table.game.scores == {"S": 0, "N": 0}
    assert len(rig.journal.path.read_bytes()) > len(before)  # half a record on the card
    assert Problem("journal-unwritable") in rig.view().notices
    card.write_error = None
    rig.press("S")
    assert rig.table.game.scores == {"S": 2, "N": 0}
    placement = [("W2", tile("star-4"))]
    result = Game(["S", "N"], board=Board.from_mapping(START)).place(placement)
    line = encode(turn_record("S", placement, result), len(records()[:1]) + 1)
    assert rig.journal.path.read_bytes() == before + line * 2
    assert Problem("journal-unwritable") not in rig.view().notices


@pytest.mark.parametrize("how", ["replaced", "deleted", "cut short", "state dir deleted"])
def test_a_journal_replaced_or_deleted_while_running_is_written_again_whole(tmp_path, how):
    rig = started(tmp_path)
    rig.put("W2", "star-4")
    rig.sweep(5)
    rig.press("S")
    path = rig.journal.path
    written = path.read_bytes()
    if how == "replaced":  # a copy put back over it (a new file, a new inode)
        other = path.with_name("other")
        other.write_bytes(written[: written.index(b"\n") + 1])
        os.replace(other, path)
    elif how == "deleted":
        path.unlink()
    elif how == "cut short":
        os.truncate(path, 10)
    else:
        shutil.rmtree(path.parent)
    rig.put("N1", "star-5")
    rig.sweep(5)
    rig.press("N")
    data = path.read_bytes()
    assert b"\x00" not in data  # never zero-filled up to the old size
    assert data.startswith(written) and journal_turns(rig) == ["S", "N"]
    scores = rig.table.game.scores
    assert rig.restart().game.scores == scores and scores["N"] > 0


def test_a_journal_deleted_while_nobody_plays_is_written_again_within_seconds(tmp_path):
    rig = started(tmp_path)
    rig.put("W2", "star-4")
    rig.sweep(5)
    rig.press("S")
    written = rig.journal.path.read_bytes()
    rig.journal.path.unlink()
    rig.seconds(3.0)
    assert rig.journal.path.read_bytes() == written


def test_a_full_card_with_auto_end_backs_off_warns_once_and_writes_the_game_when_it_can(
    tmp_path, monkeypatch, caplog
):
    rig = started(tmp_path, auto_end_seconds=1.0)
    card = Card(monkeypatch, tmp_path)
    rig.put("W2", "star-4")
    rig.sweep(2)
    rig.sounds()
    card.write_error = errno.ENOSPC
    caplog.clear()
    rig.seconds(10.0)
    refused = [s for s in rig.sounds() if s.startswith("refused")]
    errors = [r for r in caplog.records if r.levelname == "ERROR"]
    print(
        f"10 s on a full card: {card.failed} write attempts, {len(errors)} errors, "
        f"{len(caplog.records)} log lines, {len(refused)} refused sounds"
    )
    assert len(refused) == 1  # the attempt that found the card full, then silence
    assert len(errors) == 1 and "kept in memory" in errors[0].getMessage()
    assert card.failed <= 6  # 1, 2, 4 s apart: not every sweep
    assert Problem("journal-unwritable") in rig.view().notices
    assert rig.table.game.scores == {"S": 0, "N": 0}
    card.write_error = None
    rig.seconds(20.0)
    assert Problem("journal-unwritable") not in rig.view().notices
    assert rig.table.game.scores == {"S": 2, "N": 0}
    assert journal_turns(rig) == ["S"]


# -- rotten bytes ----------------------------------------------------------------------------
def played(tmp_path) -> tuple[bytes, list[dict]]:
    journal = Journal(tmp_path / "played.jsonl")
    for record in records():
        journal.append(record)
    return journal.path.read_bytes(), records()


def state_of(game):
    return None if game is None else (game.scores, game.active, game.board, len(game.moves))


def whole_game(path) -> list[dict]:
    """A whole game's journal, start to end record: S and N each lay a run of 4 on the four
    common squares until S reaches the finish (16 turns, 2 bag returns): 18 records."""
    from tests.engine.test_game import lay_run

    game = Game(["S", "N"])
    journal = Journal(path)
    journal.append(start_record(game, {"N": "red", "S": "yellow"}))
    while not game.finished:
        before = len(game.moves)
        lay_run(game)
        for move in game.moves[before:]:
            if move.kind == "place":
                journal.append(turn_record(move.side, move.scoring.placed, move.scoring))
            else:
                journal.append({"type": "return", "tiles": sorted(map(str, move.returned))})
    journal.append({"type": "end", "ranking": list(game.ranking().order), "scores": game.scores})
    return journal.records()


def test_one_rotten_byte_costs_at_most_its_record_and_never_the_game(tmp_path, caplog):
    """Every byte of a whole game's journal with one bit flipped (a seeded choice of bit),
    read as the daemon and `setup-companion replay` both read it: at most one record lost
    for each flip, never the game. Each record is on the card twice, so the measured loss is
    none at all. Before (one copy of each record), the same sweep lost a mean of 9.6 of the
    18 records per flip (most 18), and the whole game for each of the 184 flips in the start
    record. The reading alone is swept (it is all that a flip can change); the games
    resumed and replayed from the damaged files are compared for every 64th byte, and every
    16th of the start record."""
    from statistics import mean

    from companion.game.replay import replay_journal, resume

    caplog.set_level("ERROR")  # a damaged copy is a WARNING for every flip
    recs = whole_game(tmp_path / "whole.jsonl")
    data = (tmp_path / "whole.jsonl").read_bytes()
    path = tmp_path / "journal.jsonl"
    rng = random.Random(17)
    starts = range(0, data.index(b"\n"), 16)  # in the start record's first copy
    lost = []
    for pos in range(len(data)):
        flipped = bytearray(data)
        flipped[pos] ^= 1 << rng.randrange(8)
        path.write_bytes(bytes(flipped))
        journal = Journal(path)
        found = journal.records()
        assert found == recs[: len(found)], pos  # never a record altered
        lost.append(len(recs) - len(found))
        if pos % 64 == 0 or pos in starts:  # the daemon's resume, `replay`: they agree
            resumed, replayed = resume(Journal(path)), replay_journal(path)
            assert resumed.damage is None and resumed.records == recs, pos
            assert state_of(resumed.games[-1].game) == state_of(replayed.games[-1].game), pos
            assert replayed.games[-1].game.finished, pos
    print(
        f"{len(data)} bytes, {len(recs)} records: lost per flip max {max(lost)}, mean {mean(lost)}"
    )
    assert max(lost) <= 1 and mean(lost) == 0


def test_a_byte_of_any_value_costs_nothing_either(tmp_path, caplog):
    """The same with each byte replaced by another value (a seeded one), every 3rd byte; and
    the damaged copy is written again whole, so a second rotten byte later costs nothing."""
    caplog.set_level("ERROR")
    recs = whole_game(tmp_path / "whole.jsonl")
    data = (tmp_path / "whole.jsonl").read_bytes()
    path = tmp_path / "journal.jsonl"
    rng = random.Random(5)
    for pos in range(0, len(data), 3):
        damaged = bytearray(data)
        damaged[pos] = rng.choice([b for b in range(256) if b != data[pos]])
        path.write_bytes(bytes(damaged))
        assert Journal(path).records() == recs, pos
    journal = Journal(path)
    journal.records()
    assert journal.tend(0.0) is True  # healed at the first check
    assert path.read_bytes() == data


def test_both_copies_of_the_last_record_damaged_is_told_never_cut_silently(tmp_path):
    journal = Journal(tmp_path / "journal.jsonl")
    for record in records():
        journal.append(record)
    lines = journal.path.read_bytes().split(b"\n")
    lines[-2] = lines[-2].replace(b'"N"', b'"X"')
    lines[-3] = lines[-3].replace(b'"N"', b'"Y"')
    journal.path.write_bytes(b"\n".join(lines))
    with pytest.raises(JournalError, match=f"line {len(lines) - 2}") as caught:
        Journal(journal.path).records()
    assert caught.value.lost == 1 and caught.value.good == records()[:-1]


def legacy(folder, recs) -> bytes:
    """A journal as it was written before the copies: one line per record, no number."""
    data = b"".join(encode(record) for record in recs)
    (folder / "journal.jsonl").write_bytes(data)
    return data


def test_a_journal_written_before_the_copies_is_read_and_continued(tmp_path, caplog):
    data = legacy(tmp_path, records()[:5])
    journal = Journal(tmp_path / "journal.jsonl")
    assert journal.records() == records()[:5] and journal.record_lines == [1, 2, 3, 4, 5]
    journal.append(records()[5])  # continued with copies, numbered after the old records
    assert journal.path.read_bytes() == data + encode(records()[5], 6) * 2
    assert Journal(journal.path).records() == records()[:6]
    assert "damaged" not in caplog.text
    # a bad old line costs the records from it on, as it did
    lines = data.split(b"\n")
    lines[2] = lines[2][:30]
    (tmp_path / "journal.jsonl").write_bytes(b"\n".join(lines))
    with pytest.raises(JournalError, match="line 3") as caught:
        Journal(tmp_path / "journal.jsonl").records()
    assert caught.value.good == records()[:2] and caught.value.lost == 3


def test_a_power_cut_between_the_copies_keeps_the_record_and_both_are_written_again(tmp_path):
    journal = Journal(tmp_path / "journal.jsonl")
    for record in records()[:3]:
        journal.append(record)
    whole = journal.path.read_bytes()
    second = encode(records()[3], 4)
    journal.path.write_bytes(whole + second + second[:17])  # the second copy cut short
    journal = Journal(journal.path)
    assert journal.records() == records()[:4] and journal.torn is None
    journal.append(records()[4])
    assert journal.path.read_bytes() == whole + second * 2 + encode(records()[4], 5) * 2
