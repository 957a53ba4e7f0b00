"""Power cuts: a whole simulated game (`setup-companion demo`, bots playing through the real
daemon) killed with SIGKILL again and again, at random moments and inside journal writes,
and started again on the same journal each time, ends with exactly the scores of the same
game played without a cut."""

from __future__ import annotations

import json
import random
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

from companion.game.journal import Journal
from companion.game.replay import games
from tests.faults.process import REPO, TIMEOUT, environment

SEED, PLAYERS = 3, 3  # 23 records: a game with two undos and the bag clean-up, in about 4 s
# The cuts inside journal writes come first: each lets the game on by at most 3 records
# (14 with this seed), so they all happen before it ends.
# Then cuts at random moments until the game ends. Each comes once the journal has grown by
# one or two records since the start (an event, not a wall time: a busy machine that takes
# seconds to start Python gets the same cuts), then a random pause of up to a tenth of a
# second, which only decides where between two records the power goes. Every such cut lets
# the game on by at least one record, so at most 23 of them end it.
CUTS = ["partial", "unsynced", "lost", "partial", "unsynced", "lost", "partial"] + ["timed"] * 23
LAUNCHER = Path(__file__).with_name("torn_demo.py")


def demo(journal: Path, **env: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, str(LAUNCHER), "--fast", "--seed", str(SEED)]
        + ["--players", str(PLAYERS), "--journal", str(journal)],
        env=environment(**env),
        cwd=REPO,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )


def records_written(journal: Path) -> int:
    """Records written to the journal now: each is two lines, written once the first has
    its newline (a torn last line has none)."""
    try:
        return (journal.read_bytes().count(b"\n") + 1) // 2
    except FileNotFoundError:
        return 0


def cut_after_records(
    process: subprocess.Popen[str], journal: Path, records: int, pause: float
) -> None:
    """Waits until `process` has added `records` whole records to `journal` (or has ended),
    then `pause` seconds more, but never past the next record: a fast run must not slip
    several records through the pause and end the game before the cuts are all made."""
    target = records_written(journal) + records
    deadline = time.monotonic() + TIMEOUT * 2
    while process.poll() is None and time.monotonic() < deadline:
        if records_written(journal) >= target:
            break
        time.sleep(0.005)
    until = time.monotonic() + pause
    while process.poll() is None and time.monotonic() < until:
        if records_written(journal) > target:
            return
        time.sleep(0.002)


def end_scores(journal: Path) -> dict[str, int]:
    records = Journal(journal).records()
    assert records[-1]["type"] == "end", records[-1]
    game = games(records)[-1].game
    assert game.finished and game.scores == records[-1]["scores"]
    return game.scores


def test_cut_at_random_moments_and_mid_write_the_game_ends_with_the_same_scores(tmp_path):
    reference = demo(tmp_path / "whole" / "journal.jsonl")  # meanwhile, on the other core
    journal = tmp_path / "cut" / "journal.jsonl"
    note = tmp_path / "note.json"
    rng = random.Random(2024)
    cuts: Counter[str] = Counter()
    torn_tails = lost_records = resumed = 0
    for attempt in range(len(CUTS) + 1):
        cut = CUTS[attempt] if attempt < len(CUTS) else "none"
        env = {}
        if cut in ("partial", "unsynced", "lost"):
            env = {
                "TORN_RECORD": str(rng.randint(1, 3)),
                "TORN_MODE": "partial" if cut == "partial" else "unsynced",
                "TORN_FRACTION": f"{rng.random():.3f}",
                "TORN_NOTE": str(note),
            }
        process = demo(journal, **env)
        try:
            if cut == "timed":
                cut_after_records(process, journal, rng.randint(1, 2), rng.uniform(0.0, 0.1))
            else:
                process.wait(TIMEOUT * 2)
        except subprocess.TimeoutExpired:
            pass
        if process.poll() is None:
            process.kill()  # the power goes out
        output = process.communicate(timeout=TIMEOUT)[0]
        resumed += "resumed after" in output
        if process.returncode == 0:
            break
        assert process.returncode == -signal.SIGKILL, output
        if note.exists():  # it died inside a journal write
            what = json.loads(note.read_text())
            note.unlink()
            data = journal.read_bytes()
            if what["mode"] == "partial":
                assert len(data) == what["size_before"] + what["written"]
                torn_tails += not data.endswith(b"\n")
            elif cut == "lost":  # the card never got the unsynced write
                journal.write_bytes(data[: what["size_before"]])
                lost_records += 1
            cuts[cut] += 1
        elif cut == "timed":
            cuts["timed"] += 1
    else:
        raise AssertionError(f"the game did not end after {len(CUTS)} power cuts:\n{output}")
    assert "check: the daemon's scores match" in output, output
    reference_output = reference.communicate(timeout=TIMEOUT * 2)[0]
    assert reference.returncode == 0, reference_output
    assert end_scores(journal) == end_scores(tmp_path / "whole" / "journal.jsonl")
    # the cuts really happened, and the game was really resumed after them
    assert cuts["timed"] >= 3 and cuts["partial"] >= 2 and torn_tails >= 2, cuts
    assert cuts["unsynced"] + cuts["lost"] >= 3 and lost_records >= 1, cuts
    assert resumed >= 8
