"""The hub loop (hardware/firmware/hub.py): sweeps, timing, faults, commands."""

import binascii

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hardware.hub.protocol import parse_line
from tests.firmware.chip_model import Board, Tag
from tests.firmware.helpers import NTAG, hub, run


def body(line: bytes) -> str:
    text, crc = line.rstrip(b"\n").rsplit(b"*", 1)
    assert int(crc, 16) == binascii.crc_hqx(text, 0xFFFF)
    return text.decode()


def fields(line: bytes) -> list[str]:
    return body(line).split(" ")[2:]


def test_boot_sends_hello_test_and_a_first_sweep():
    board = Board(missing=[5])
    board.put(0, Tag(NTAG))
    h, out = hub(board)
    h.start()
    assert [body(line) for line in out.lines[:2]] == [
        "HELLO 2 1.0.0 12",
        "TEST " + " ".join("fault" if i == 5 else "ok:92" for i in range(12)),
    ]
    assert body(out.lines[2]).startswith("S 0 ")
    assert fields(out.lines[2]) == [NTAG] + ["-"] * 4 + ["F"] + ["-"] * 6


# Where reader i lies with the default wiring (N1 N2 E1 E2 S1 S2 W1 W2 NW NE SW SE), as
# (column, row) of the 4x4 grid without corners (docs/hardware.md, RULES.md).
PLACES = [(1, 0), (2, 0), (3, 1), (3, 2), (2, 3), (1, 3), (0, 2), (0, 1), (1, 1), (2, 1)]
PLACES += [(1, 2), (2, 2)]


def neighbours(a: int, b: int) -> bool:
    (ax, ay), (bx, by) = PLACES[a], PLACES[b]
    return max(abs(ax - bx), abs(ay - by)) == 1


def test_no_two_neighbouring_fields_are_ever_on_together():
    board = Board()
    for reader in range(12):
        board.put(reader, Tag(f"04{reader:02X}B2C3D4E5F6"), Tag(f"04{reader:02X}B2C3D4E5F7"))
    h, out = hub(board)
    h.start()
    for _ in range(3):
        h.sweep()
    assert board.ether.switch_ons == 12 * 4
    for together in board.ether.together:
        on = sorted(int(name.removeprefix("reader")) for name in together)
        assert not [(a, b) for a in on for b in on if a < b and neighbours(a, b)], on
    assert board.ether.most_at_once == 3  # four groups of three: one settle per group
    assert board.ether.on == set()
    assert not board.bus.contention
    assert all(len(f.split(",")) == 2 for f in fields(out.lines[-1]))


def test_an_empty_sweep_takes_a_settle_and_a_timeout_per_group():
    board = Board()
    h, _ = hub(board)
    h.self_test()
    started = board.clock.now_us
    h.sweep()
    sweep_ms = (board.clock.now_us - started) / 1000
    # 4 groups x (5.1 ms settle + 1 ms timer + SPI): well under the 100 ms the protocol
    # promises, and the settle time and the timer really are waited for.
    assert 4 * 6.1 < sweep_ms < 30


def test_with_the_usual_25_ms_timeout_a_sweep_would_miss_the_100_ms():
    board = Board()
    h, _ = hub(board, reader_settings={"timer_reload": 999})
    h.self_test()
    started = board.clock.now_us
    h.sweep()
    assert (board.clock.now_us - started) / 1000 > 100


def test_snapshots_come_every_50_ms_and_heartbeats_every_second():
    board = Board()
    board.put(3, Tag("01020304"))
    h, out = hub(board)
    run(h, board, 3500)
    snapshot_times = [t for t, k in zip(out.times_us, out.kinds()) if k == "S"]
    gaps = [b - a for a, b in zip(snapshot_times, snapshot_times[1:])]
    assert len(snapshot_times) >= 60
    assert max(gaps) <= 100_000
    beats = out.of_kind("HB")
    assert len(beats) == 3
    # Each heartbeat names the last snapshot sent before it, and the uptime grows by ~1 s.
    for beat in beats:
        index = out.lines.index(beat)
        last_s = max(i for i in range(index) if out.kinds()[i] == "S")
        assert body(beat).split(" ")[1] == body(out.lines[last_s]).split(" ")[1]
    uptimes = [int(body(b).split(" ")[2]) for b in beats]
    assert [b - a for a, b in zip(uptimes, uptimes[1:])] == [1000, 1000]
    seqs = [int(body(line).split(" ")[1]) for line in out.of_kind("S")]
    assert seqs == list(range(len(seqs)))


def test_tiles_that_move_are_seen_in_the_next_sweep():
    board = Board(readers=3)
    ntag = Tag(NTAG)
    board.put(0, ntag)
    h, out = hub(board)
    h.start()
    assert fields(out.lines[-1]) == [NTAG, "-", "-"]
    board.logging(True)
    h.sweep()
    # Unmoved, it is found by a direct SELECT: no anticollision frames (SEL + NVB 20h..67h).
    assert not [b for b in board.chips[0].frames if len(b) not in (7, 32, 72)]
    board.clear(0)
    board.put(1, ntag)
    board.put(0, Tag("01020304"))
    h.sweep()
    assert fields(out.lines[-1]) == ["01020304", NTAG, "-"]
    board.clear(0)
    board.clear(1)
    h.sweep()
    assert fields(out.lines[-1]) == ["-", "-", "-"]


def test_sequence_numbers_wrap_to_zero():
    board = Board(readers=2)
    h, out = hub(board)
    h.self_test()
    h.seq = 65534
    h.sweep()
    h.sweep()
    h.sweep()
    assert [body(line).split(" ")[1] for line in out.lines] == ["65534", "65535", "0"]


@pytest.mark.parametrize("reads", [0x00, 0xFF])
def test_a_reader_that_dies_is_a_fault_and_comes_back_after_a_retry(reads):
    board = Board()
    board.chips[4].dead_reads = reads
    board.put(4, Tag(NTAG))
    board.put(7, Tag("01020304"))
    h, out = hub(board, fault_retry_ms=2000)
    run(h, board, 200)
    assert fields(out.of_kind("S")[-1])[4] == NTAG
    board.chips[4].alive = False
    run(h, board, 200)
    last = fields(out.of_kind("S")[-1])
    assert last[4] == "F"
    assert last[7] == "01020304"  # the others keep working
    assert h.faulty == [4]
    board.chips[4].alive = True  # the connector is pushed back in
    run(h, board, 2500)
    assert fields(out.of_kind("S")[-1])[4] == NTAG
    assert h.faulty == []


def test_commands_are_answered():
    board = Board(readers=3, missing=[1])
    h, out = hub(board)
    h.start()
    out.lines.clear()
    crc = binascii.crc_hqx(b"VERSION", 0xFFFF)
    h.feed(b"VERSION\nselftest\r\nFOO\nVERSION*0000\n" + b"VERSION*%04X\n" % crc + b"\n")
    assert [body(line) for line in out.lines] == [
        "HELLO 2 1.0.0 3",
        "TEST ok:92 fault ok:92",
        "ERR unknown command",
        "ERR bad command",
        "HELLO 2 1.0.0 3",
    ]


def test_reconnect_is_the_boards_own_and_refused_without_one():
    board = Board(readers=3)
    asked = []
    h, out = hub(board, reconnect=lambda: asked.append(True))
    h.start()
    crc = binascii.crc_hqx(b"RECONNECT", 0xFFFF)
    h.feed(b"RECONNECT*%04X\n" % crc)
    assert asked == [True]
    h, out = hub(board)  # a board that cannot drop off USB says so
    h.start()
    out.lines.clear()
    h.feed(b"RECONNECT\n")
    assert [body(line) for line in out.lines] == ["ERR cannot reconnect"]


def test_selftest_sees_a_reader_that_died_since_boot():
    board = Board(readers=3)
    h, out = hub(board)
    h.start()
    board.chips[2].alive = False
    h.feed(b"SELFTEST\n")
    assert body(out.lines[-1]) == "TEST ok:92 ok:92 fault"


def test_tall_stacks_never_make_a_line_over_the_limit():
    # Protocol v2's 2048 bytes hold eight 10-byte UIDs on every square (v1's 512 did not).
    board = Board()
    for reader in range(12):
        board.put(reader, *(Tag(bytes([4, reader, t]) + bytes(7)) for t in range(8)))
    h, out = hub(board)
    h.start()
    line = out.of_kind("S")[-1]
    assert len(line) - 1 <= 2048
    kept = [f for f in fields(line) if f != "C"]
    assert len(kept) == 12 and all(len(f.split(",")) == 8 for f in kept)


def test_three_readable_ntags_on_every_square_all_reach_the_pi():
    board = Board()
    for reader in range(12):
        board.put(reader, *(Tag(f"04{reader:02X}{t:02X}C3D4E5F6") for t in range(3)))
    h, out = hub(board)
    h.start()
    snapshot = parse_line(out.of_kind("S")[-1])
    assert [len(r.uids) for r in snapshot.readers] == [3] * 12  # 552 bytes: over v1's 512


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.binary(max_size=300), max_size=6))
def test_garbage_from_the_pi_only_ever_gets_protocol_answers(chunks):
    board = Board(readers=2)
    h, out = hub(board)
    h.start()
    out.lines.clear()
    for chunk in chunks:
        h.feed(chunk)
    for line in out.lines:
        assert body(line).split(" ")[0] in ("HELLO", "TEST", "ERR")
