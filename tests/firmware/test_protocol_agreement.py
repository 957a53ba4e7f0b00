"""The firmware and the Pi agree on the protocol: the Pi's own parser and link read what the
firmware sends, and the firmware's encoder and the simulator's encoder write the same bytes."""

from __future__ import annotations

import contextlib
import os
import pty
import select
import threading
import time
import tty

from hardware.hub.link import HubLink
from hardware.hub.protocol import (
    Heartbeat,
    Hello,
    HubError,
    LineSplitter,
    SelfTest,
    Snapshot,
    format_command,
    format_snapshot,
    parse_line,
)
from hardware.hub.snapshot import ReaderReading
from tests.firmware.chip_model import Board, Tag
from tests.firmware.helpers import NTAG, hub, run
from tests.firmware.loader import firmware

PAIR = ("04112233445566", "0499AABBCCDDEE")
TEN = "04112233445566778899"


def populated_board() -> Board:
    """NTAG on reader 0, a pair on 8, an unreadable tag on 9, a 10-byte UID on 11, 5 missing."""
    board = Board(missing=[5])
    board.put(0, Tag(NTAG))
    board.put(8, *(Tag(uid) for uid in PAIR))
    board.put(9, Tag("04C0FFEE112233", garbled=True))
    board.put(11, Tag(TEN))
    return board


def expected_readings() -> tuple[ReaderReading, ...]:
    readings = [ReaderReading("empty")] * 12
    readings[0] = ReaderReading("ok", (NTAG,))
    readings[5] = ReaderReading("fault")
    readings[8] = ReaderReading("ok", tuple(sorted(PAIR)))
    readings[9] = ReaderReading("collision")
    readings[11] = ReaderReading("ok", (TEN,))
    return tuple(readings)


def normalised(snapshot: Snapshot) -> tuple[ReaderReading, ...]:
    # The order of UIDs in a field says nothing about the stack (docs/hub-protocol.md).
    return tuple(ReaderReading(r.status, tuple(sorted(r.uids))) for r in snapshot.readers)


def test_a_whole_simulated_boot_parses_with_the_pi_parser():
    board = populated_board()
    h, out = hub(board)
    commands = {
        1200: format_command("SELFTEST"),
        1500: b"VERSION\n",
        1800: b"REBOOT\n",
        2100: b"VERSION*0000\n",
    }
    run(h, board, 2500, commands)
    splitter = LineSplitter()
    messages = [parse_line(line) for line in splitter.feed(b"".join(out.lines))]
    assert len(messages) == len(out.lines) and splitter.overlong == 0

    hello = Hello(2, "1.0.0", 12)
    boot_test = SelfTest(tuple(None if i == 5 else "92" for i in range(12)))
    assert messages[:2] == [hello, boot_test]
    snapshots = [m for m in messages if isinstance(m, Snapshot)]
    assert len(snapshots) >= 40
    assert [s.seq for s in snapshots] == list(range(len(snapshots)))
    assert all(normalised(s) == expected_readings() for s in snapshots)
    beats = [(i, m) for i, m in enumerate(messages) if isinstance(m, Heartbeat)]
    assert len(beats) == 2
    for index, beat in beats:
        last = [m for m in messages[:index] if isinstance(m, Snapshot)][-1]
        assert beat.seq == last.seq
    answers = [m for m in messages[2:] if not isinstance(m, Snapshot | Heartbeat)]
    assert answers == [boot_test, hello, HubError("unknown command"), HubError("bad command")]


def test_the_firmware_and_the_simulator_encode_snapshots_byte_for_byte_alike():
    protocol = firmware().protocol
    uids = [bytes.fromhex(NTAG), bytes.fromhex(PAIR[0]), bytes.fromhex(TEN)]
    cases = [
        [("empty", [])] * 12,
        [("ok", [uids[0]]), ("collision", []), ("fault", [])] + [("ok", uids)] * 9,
    ]
    for readings in cases:
        typed = [
            ReaderReading(status, tuple(u.hex().upper() for u in found))
            for status, found in readings
        ]
        for seq in (0, 9, 4711, 65535):
            assert protocol.snapshot_line(seq, readings) == format_snapshot(seq, typed)


class FirmwareOnPty:
    """The firmware hub, on the model board, behind the master side of a real pty."""

    def __init__(self, board: Board):
        self.board = board
        self.master, self._slave = pty.openpty()
        tty.setraw(self._slave)
        os.set_blocking(self.master, False)
        self.port = os.ttyname(self._slave)
        self.hub, _ = hub(board, self._write)  # the hub's lines go to the pty
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._serve, daemon=True)

    def _write(self, line: bytes) -> None:
        with contextlib.suppress(BlockingIOError):  # nobody reading: USB CDC drops it too
            os.write(self.master, line)

    def _read(self) -> bytes:
        ready, _, _ = select.select([self.master], [], [], 0)
        return os.read(self.master, 1024) if ready else b""

    def _idle(self) -> None:
        self.board.clock.sleep_ms(1)
        time.sleep(0.001)

    def _serve(self) -> None:
        self.hub.run(self._read, self._idle, self._stop.is_set)

    def __enter__(self) -> FirmwareOnPty:
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._thread.join(timeout=10)
        os.close(self.master)
        os.close(self._slave)


def test_the_pi_link_reads_the_firmware_over_a_real_pty():
    board = populated_board()
    with FirmwareOnPty(board) as firmware_hub, HubLink(firmware_hub.port) as link:
        first = link.read(timeout=5.0)
        assert first is not None
        assert normalised(first) == expected_readings()
        for _ in range(5):
            snapshot = link.read(timeout=5.0)
            assert snapshot is not None and normalised(snapshot) == expected_readings()
        board.chips[3].alive = False  # a reader dies while the game goes on
        answer = link.self_test(timeout=5.0)
        assert answer == SelfTest(tuple(None if i in (3, 5) else "92" for i in range(12)))
        # Snapshots sent before the test are still queued; the ones after it show the fault.
        later = [link.read(timeout=5.0) for _ in range(12)]
        assert later[-1] is not None and later[-1].readers[3] == ReaderReading("fault")
        health = link.health
    assert health.firmware == "1.0.0"
    assert health.connected
    assert health.bad_lines == 0 and health.unknown_lines == 0
    assert health.frames_ok >= 8
