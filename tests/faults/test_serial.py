"""Bad bytes on the hub's serial line, through a real pty to the whole daemon: random and
adversarial bytes, lines cut short or too long, a flood. The daemon stays up, its board,
placement and scores do not move, and the link counts every line it dropped."""

from __future__ import annotations

import random
import time

import pytest

from engine import Game
from hardware.hub.protocol import format_snapshot, frame
from hardware.hub.sim import FaultModel, SimTable, VirtualHub
from hardware.hub.snapshot import ReaderReading
from tests.faults.harness import Feeder, T, start_board
from tests.faults.process import dummy_config

PLACED = {"SW": "star-2"}


@pytest.fixture
def laid(table):
    """S has laid the star-2 on SW (2 points) and not pressed yet."""
    table.put("SW", "star-2")
    assert table.settled(PLACED.items())
    return table


def state(t) -> tuple:
    """Everything a bad line must not change."""
    return (t.scores, t.moves, t.table.tracker.board, t.placement(), t.problems())


def counters(t) -> tuple[int, int, int]:
    health = t.link.health
    return health.frames_ok, health.bad_lines, health.unknown_lines


def feed(t, chunks: list[bytes], *, good: int = 0, bad: int = 0, unknown: int = 0) -> None:
    """Writes `chunks` from a thread while the daemon reads, until the link has counted the
    lines they hold; fails if it counts a different number."""
    ok0, bad0, unknown0 = counters(t)
    want = (ok0 + good, bad0 + bad, unknown0 + unknown)
    feeder = Feeder(t.hub.write, chunks)
    feeder.start()
    t.drain(lambda: all(got >= w for got, w in zip(counters(t), want)) and not feeder.is_alive())
    feeder.join()
    assert feeder.error is None
    time.sleep(0.05)  # anything more would be a miscount
    t.daemon.step(0.0)
    assert counters(t) == want


def press_scores_the_placement(t) -> None:
    game = Game(("S", "N"), board=start_board())
    points = game.preview([(sq, T(name)) for sq, name in PLACED.items()]).points
    t.press("S")
    assert t.scores == {"S": points, "N": 0}


def noise(rng: random.Random, size: int) -> bytes:
    """Bytes a noisy cable or a wrong baud rate gives: anything but a line end."""
    alphabet = [b for b in range(256) if b != 0x0A]
    return bytes(rng.choice(alphabet) for _ in range(size))


def test_random_bytes_between_sweeps_change_nothing_and_every_line_is_counted(laid):
    t = laid
    before = state(t)
    rng = random.Random(11)
    lines = 0
    for _ in range(20):
        burst = [noise(rng, rng.randint(0, 200)) + b"\n" for _ in range(rng.randint(1, 10))]
        feed(t, burst, bad=len(burst))
        lines += len(burst)
        t.sweep(2)
        assert state(t) == before
    assert lines > 100
    press_scores_the_placement(t)


def _truth(t) -> tuple[ReaderReading, ...]:
    return tuple(
        ReaderReading("ok", stack) if stack else ReaderReading("empty")
        for stack in t.rig.table.stacks
    )


def test_adversarial_lines_are_dropped_and_counted_one_by_one(laid):
    t = laid
    before = state(t)
    lines = {n: format_snapshot(n, _truth(t)) for n in range(60000, 60100)}
    seq = next(n for n, line in lines.items() if line[-5:-1] != line[-5:-1].lower())
    good = lines[seq]  # its CRC has letters, to write them in lower case
    body = good[:-6].decode()  # "S <seq> ..." without "*CCCC\n"
    uid = next(u for stack in t.rig.table.stacks for u in stack if not u.isdigit())
    bad_lines = [
        good[: len(good) // 2] + b"\n",  # cut short
        good[:10] + bytes([good[10] ^ 0x01]) + good[11:],  # one bit flipped
        good[:-5] + b"0000\n",  # wrong CRC
        good[:-6] + b"\n",  # no CRC
        good[:-5] + good[-5:-1].lower() + b"\n",  # lower-case CRC
        frame(body + " -"),  # 13 readers
        frame(body.replace(uid, uid.lower())),  # lower-case UID
        frame(body.replace(uid, f"{uid},{uid}")),  # a UID twice in one field
        frame(body.replace(f"S {seq}", "S 70000")),  # sequence over 65535
        frame(body.replace(f"S {seq}", f"S 0{seq}")),  # a leading zero
        frame(body.replace(uid, uid[:-1])),  # a UID of 13 digits
        b"S 1 \x01\x02\x03*0000\n",  # control bytes
        "S 1 \u00e9*0000\n".encode(),  # not ASCII
        b"\n",
        b"\r\n",
        b"*\n",
        b"S" * 600 + b"\n",  # over 512 bytes: one bad line
    ]
    feed(t, bad_lines, bad=len(bad_lines))
    babble = [b"S 1 " + b"A" * 1000 for _ in range(8)] + [b"\n"]  # 8 KB, no line end
    feed(t, babble, bad=1)
    unknown = [frame("XYZ 1 2"), frame("S2 7")]  # a later protocol's lines: ignored
    feed(t, unknown, unknown=2)
    feed(t, [good[:-1] + b"\r\n"], good=1)  # CRLF is a line end too: a good snapshot
    t.sweep(2)
    assert state(t) == before
    press_scores_the_placement(t)


def test_a_line_cut_short_by_the_next_loses_one_sweep_not_the_board(laid):
    t = laid
    before = state(t)
    gaps = t.link.health.missed_sweeps
    ok, bad, _ = counters(t)
    t.hub.write(b"S 4711 - - - -")  # a sweep cut off mid-line: the next line joins it
    t.rig.sweep()  # ... and is lost with it
    t.sweep(3)
    health = t.link.health
    assert (health.frames_ok, health.bad_lines) == (ok + 3, bad + 1)
    assert health.missed_sweeps == gaps + 1
    assert state(t) == before
    press_scores_the_placement(t)


def test_a_flood_of_lines_is_read_whole_and_counted(laid):
    t = laid
    before = state(t)
    rng = random.Random(12)
    seq = t.link.health.last_seq + 1
    truth = _truth(t)
    lines = []
    for n in range(11_000):
        if n % 11 == 0:  # 1000 good sweeps of the true board among 10 000 noise lines
            lines.append(format_snapshot(seq % 65536, truth))
            seq += 1
        else:
            lines.append(noise(rng, rng.randint(1, 80)) + b"\n")
    chunks, chunk = [], b""
    for line in lines:  # as the pty delivers them: runs of lines, split anywhere
        chunk += line
        while len(chunk) >= 700:
            chunks.append(chunk[:700])
            chunk = chunk[700:]
    chunks.append(chunk)
    # read whole, however long a busy machine takes (how fast: benchmarks/bench_hub.py); a
    # daemon that stopped reading fails `feed` (its feeder makes no progress for a minute)
    feed(t, chunks, good=1000, bad=10_000)
    t.sweep(3)
    assert state(t) == before
    press_scores_the_placement(t)


def test_the_daemon_process_stays_up_through_a_babbling_hub(start_daemon, tmp_path):
    """`setup-companion run` on a hub that sends noise between its sweeps, as a process."""
    state_dir = tmp_path / "state"
    config = dummy_config(tmp_path, state_dir)
    faults = FaultModel.realistic()
    with VirtualHub(SimTable(), faults, seed=5, buffer=1 << 16) as hub:
        hub.start(0.1)
        daemon = start_daemon("--config", str(config), "--hub-port", hub.port)
        daemon.ready()
        rng = random.Random(13)
        for _ in range(200):  # the same babble on any machine (it was 2 s of it: less when busy)
            hub.write(noise(rng, rng.randint(0, 3000)) + b"\n")
            time.sleep(0.01)
        assert daemon.process.poll() is None, daemon.output()
        assert daemon.stop() == 0, daemon.output()
    assert "Traceback" not in daemon.output()
