"""A virtual reader hub on a real pseudo-terminal, speaking the real protocol.

The link under test opens `VirtualHub.port` exactly as it opens `/dev/setup-hub` on the Pi:
the same pyserial code, the same bytes. The port is a symlink the hub keeps in its own
temporary directory, so it stays the same path when the cable is pulled and plugged back.
"""

from __future__ import annotations

import logging
import os
import random
import shutil
import tempfile
import threading
import time
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass

from hardware.device import Device
from hardware.hub.protocol import (
    COLLISION,
    MAX_LINE,
    PROTOCOL_VERSION,
    SEQ_MODULO,
    Heartbeat,
    Hello,
    HubError,
    ProtocolError,
    SelfTest,
    format_snapshot,
    frame,
    parse_command,
)
from hardware.hub.sim_faults import FaultModel, FaultyReaders, Stacks
from hardware.hub.sim_pty import PtyCable
from hardware.hub.sim_table import SimTable
from hardware.hub.snapshot import ReaderReading

READER_VERSION = "92"  # what an MFRC522 v2 answers in its version register
_OUT_BUFFER = 1024  # bytes the hub holds for a host that does not read, like a CDC FIFO
_HEARTBEAT = 1.0

log = logging.getLogger("setup.hub.sim")
#: how long stopping waits for the sweeping thread
STOP_SECONDS = 2.0


@dataclass(frozen=True, slots=True)
class SweepRecord:
    """One sweep as it happened: the ground truth, what the hub reported, the bytes sent.

    `corrupted` says the line was damaged on purpose (the link must drop it); `delivered`
    is False when the host was not reading and the hub's buffer was full (the line is lost,
    as on a real hub).
    """

    seq: int
    truth: Stacks
    reported: tuple[ReaderReading, ...]
    line: bytes
    corrupted: bool
    delivered: bool


class VirtualHub(Device):
    """The reader hub over a pty, with seeded faults. Plugged in from construction.

    Lock-step by default: `sweep()` writes one snapshot line now, so a test or the demo
    decides when sweeps happen and a seed gives the same lines every run. `start(period)`
    sweeps from a thread instead (with a heartbeat once a second), as the real hub does.
    Commands (`VERSION`, `SELFTEST`) are answered from a thread whenever the host sends them.
    `records` keeps the last `history` sweeps; `buffer` is how many bytes the hub holds for a
    host that is not reading before it drops lines (a real hub's USB FIFO is about 1 KB).
    """

    def __init__(
        self,
        table: SimTable,
        faults: FaultModel | None = None,
        seed: int = 0,
        neighbours: Mapping[int, tuple[int, ...]] | None = None,
        firmware: str = "sim-1",
        *,
        history: int = 10_000,
        buffer: int = _OUT_BUFFER,
    ) -> None:
        self.table = table
        self.firmware = firmware
        self.rng = random.Random(seed)
        self._readers = FaultyReaders(table.readers, faults or FaultModel(), self.rng, neighbours)
        self.records: deque[SweepRecord] = deque(maxlen=history)
        # what the host sent, for tests; a bad command as "?<reason>"
        self.commands: deque[str] = deque(maxlen=100)
        self._lock = threading.RLock()
        self._seq = 0
        self._booted = time.monotonic()
        self._dir = tempfile.mkdtemp(prefix="setup-hub-")
        self._cable = PtyCable(os.path.join(self._dir, "setup-hub"), self._answer, buffer)
        self.port = self._cable.path
        self._sweeper: threading.Thread | None = None
        self._sweeping = threading.Event()
        self.replug()

    def __repr__(self) -> str:
        state = "plugged" if self.plugged else "unplugged"
        return f"<VirtualHub {self.port!r} {state} seq={self._seq}>"

    @property
    def faults(self) -> FaultModel:
        return self._readers.faults

    @faults.setter
    def faults(self, faults: FaultModel) -> None:
        with self._lock:
            self._readers.faults = faults

    @property
    def plugged(self) -> bool:
        return self._cable.plugged

    @property
    def dropped(self) -> int:
        """Lines lost because the host did not read and the hub's buffer was full."""
        return self._cable.dropped

    def truth(self) -> Stacks:
        """The ground truth: per reader, the stack of UIDs from the bottom up."""
        return self.table.stacks

    # the protocol's lines

    def sweep(self) -> bytes:
        """Read every reader once and send the `S` line now; the line (b"" if unplugged)."""
        with self._lock:
            if not self._cable.plugged:
                return b""  # no cable, no power: the hub does not sweep
            truth = self.table.stacks
            reported = self._fit(self._seq, self._readers.sweep(truth))
            line = format_snapshot(self._seq, reported)
            rate = self.faults.corrupt_rate
            corrupted = bool(rate) and self.rng.random() < rate
            if corrupted:
                line = self._corrupt(line)
            delivered = self._cable.send(line)
            self.records.append(SweepRecord(self._seq, truth, reported, line, corrupted, delivered))
            self._seq = (self._seq + 1) % SEQ_MODULO
            return line

    def hello(self) -> bytes:
        """Send `HELLO`, as the hub does at boot and in answer to `VERSION`."""
        return self._say(str(Hello(PROTOCOL_VERSION, self.firmware, self.table.readers)))

    def heartbeat(self) -> bytes:
        with self._lock:
            uptime = int((time.monotonic() - self._booted) * 1000)
            return self._say(str(Heartbeat((self._seq - 1) % SEQ_MODULO, uptime)))

    def self_test_line(self) -> bytes:
        faulty = self.faults.faulty_readers
        versions = tuple(None if r in faulty else READER_VERSION for r in range(self.table.readers))
        return self._say(str(SelfTest(versions)))

    def write(self, data: bytes) -> bool:
        """Put raw bytes on the wire (noise, hand-made lines); False if unplugged or full."""
        return self._cable.send(data)

    # the cable

    def unplug(self) -> None:
        """Pull the cable: the port disappears and the host's open file hangs up."""
        self._cable.unplug()

    def reset(self) -> None:
        """The hub resets: the cable is as if pulled and plugged back (the pty is a new one,
        every program that had the old one open is hung up); HELLO, sequence from 0."""
        self.unplug()
        self.replug()

    def replug(self) -> None:
        """Plug the cable (back) in: the hub boots, numbers sweeps from 0 and says HELLO."""
        with self._lock:
            if self._cable.plugged:
                return
            self._seq = 0
            self._booted = time.monotonic()
            self._readers.reset()
            self._cable.plug()
            self.hello()

    # sweeping on its own

    def start(self, period: float = 0.1) -> None:
        """Sweep every `period` seconds from a thread, with a heartbeat once a second."""
        with self._lock:
            if self._sweeper is not None:
                return
            self._sweeping.clear()
            self._sweeper = threading.Thread(
                target=self._sweep_forever, args=(period,), name="virtual-hub-sweep", daemon=True
            )
            self._sweeper.start()

    def stop(self) -> None:
        sweeper, self._sweeper = self._sweeper, None
        if sweeper is not None:
            self._sweeping.set()
            # bounded: a sweep stuck on a lock its caller holds must not keep a stopping
            # daemon alive (the thread is a daemon thread: it dies with the process)
            sweeper.join(timeout=STOP_SECONDS)
            if sweeper.is_alive():
                log.warning("the virtual hub's sweeps did not stop within %g s", STOP_SECONDS)

    def _close(self) -> None:
        self.stop()
        self.unplug()
        shutil.rmtree(self._dir, ignore_errors=True)

    # inside

    def _sweep_forever(self, period: float) -> None:
        next_sweep = time.monotonic()
        next_beat = next_sweep + _HEARTBEAT
        while not self._sweeping.wait(max(0.0, next_sweep - time.monotonic())):
            self.sweep()
            now = time.monotonic()
            next_sweep = max(next_sweep + period, now)  # late: sweep again, never in a burst
            if now >= next_beat:
                self.heartbeat()
                next_beat = now + _HEARTBEAT

    def _say(self, body: str) -> bytes:
        line = frame(body)
        self.write(line)
        return line

    def _answer(self, line: bytes) -> None:
        try:
            command = parse_command(line)
        except ProtocolError as exc:
            self.commands.append(f"?{exc.reason}")
            self._say(str(HubError("bad command")))
            return
        self.commands.append(command)
        if command == "VERSION":
            self.hello()
        elif command == "SELFTEST":
            self.self_test_line()
        elif command == "RECONNECT":  # as the Pico resets: off USB and back, from another
            # thread (this one is the cable's, which unplugging stops)
            threading.Thread(target=self.reset, name="virtual-hub-reset", daemon=True).start()
        else:
            self._say(str(HubError("unknown command")))

    def _fit(self, seq: int, readings: tuple[ReaderReading, ...]) -> tuple[ReaderReading, ...]:
        """Keep the line within 512 bytes: the readers with most UIDs report a collision."""
        fitted = list(readings)
        size = len(f"S {seq} ") + sum(len(str(r)) + 1 for r in fitted) - 1 + 5
        while size > MAX_LINE:
            longest = max(range(len(fitted)), key=lambda r: len(str(fitted[r])))
            if len(str(fitted[longest])) <= 1:
                break  # nothing left to shorten: format_snapshot will say the line is too long
            size -= len(str(fitted[longest])) - 1
            fitted[longest] = COLLISION
        return tuple(fitted)

    def _corrupt(self, line: bytes) -> bytes:
        """Damage a line the way a noisy cable does, always so that its CRC catches it."""
        body = line[:-1]
        if self.rng.random() < 0.5:
            return body[: self.rng.randrange(1, len(body))] + b"\n"  # cut short
        at = self.rng.randrange(len(body))
        damaged = body[at] ^ self.rng.randrange(1, 256)
        if damaged == ord("\n"):
            damaged ^= 0x80  # one damaged byte, still one line: CRC-16 catches it
        return body[:at] + bytes([damaged]) + body[at + 1 :] + b"\n"
