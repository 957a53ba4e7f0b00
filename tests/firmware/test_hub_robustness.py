"""The hub itself keeps going and says why: commands at boot, errors inside a scan, host
pauses, terminals that end lines with CR, readers that come back."""

import pytest

from hardware.hub.protocol import Hello, HubError, LineSplitter, SelfTest, Snapshot, parse_line
from tests.firmware.chip_model import Board, Tag
from tests.firmware.helpers import NTAG, hub, run
from tests.firmware.loader import firmware


def messages(out) -> list:
    splitter = LineSplitter()
    parsed = [parse_line(line, readers=None) for line in splitter.feed(b"".join(out.lines))]
    assert len(parsed) == len(out.lines)
    return parsed


def test_commands_sent_before_the_first_loop_turn_are_answered():
    board = Board(readers=3)
    h, out = hub(board)
    run(h, board, 60, {0: b"VERSION\nSELFTEST\n"})
    kinds = [type(m).__name__ for m in messages(out)]
    # Boot: HELLO, TEST, the first S; then the two answers.
    assert kinds[:3] == ["Hello", "SelfTest", "Snapshot"]
    assert kinds[3:5] == ["Hello", "SelfTest"]


@pytest.mark.parametrize("ending", [b"\r", b"\n", b"\r\n"])
def test_a_command_ended_by_cr_alone_is_answered_like_lf_and_crlf(ending):
    board = Board(readers=2)
    h, out = hub(board)
    h.start()
    out.lines.clear()
    h.feed(b"VERSION" + ending + b"selftest" + ending)
    assert [type(m) for m in messages(out)] == [Hello, SelfTest]


def test_an_exception_inside_a_scan_is_a_fault_and_an_err_line_says_what_failed():
    board = Board()
    board.put(3, Tag(NTAG))
    board.put(4, Tag("04112233445566"))
    h, out = hub(board)
    run(h, board, 100)
    board.chips[3].fail_with = MemoryError("memory allocation failed")
    run(h, board, 200)
    parsed = messages(out)
    errors = [m for m in parsed if isinstance(m, HubError)]
    assert errors == [HubError("reader 3 MemoryError memory allocation failed")]
    last = [m for m in parsed if isinstance(m, Snapshot)][-1]
    assert [r.status for r in last.readers] == ["empty"] * 3 + ["fault", "ok"] + ["empty"] * 7


@pytest.mark.parametrize("pause_ms", [10, 50])
def test_a_host_pause_in_the_middle_of_an_exchange_is_not_a_reader_fault(pause_ms):
    board = Board()
    for reader in range(12):
        board.put(reader, Tag(f"04{reader:02X}B2C3D4E5F6"))
    h, out = hub(board)
    h.start()
    clock = board.clock
    for moment in range(0, 60_000, 1_700):  # paused at moments spread over a sweep

        def pause():
            clock.pause_us = pause_ms * 1000

        clock.at(clock.now_us + moment, pause)
        h.sweep()
    assert h.faulty == []
    assert not [m for m in messages(out) if isinstance(m, HubError)]
    assert all(r.status == "ok" for r in parse_line(out.lines[-1]).readers)


def test_a_reader_in_fault_is_tried_again_within_a_second_and_a_half():
    assert firmware().config.FAULT_RETRY_MS <= 1000
    board = Board()
    board.put(6, Tag(NTAG))
    h, out = hub(board)
    run(h, board, 100)
    board.chips[6].alive = False
    run(h, board, 100)
    assert h.faulty == [6]
    board.chips[6].alive = True
    run(h, board, 1500)
    assert h.faulty == []
    assert parse_line(out.of_kind("S")[-1]).readers[6].uids == (NTAG,)
