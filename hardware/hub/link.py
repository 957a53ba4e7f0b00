"""The Pi side of the reader hub link: a serial port in, typed snapshots and health out.

`HubLink.read()` never raises for what the hub (or its cable) does: bad lines are counted and
dropped, a vanished port is closed, logged once as "hub disconnected" and reopened with a
backoff capped at one second, forever, so a hub that comes back is reading again within 2 s.
Another program reading the port is no lost hub: it is named, and cut off by having the hub
reconnect (`hardware.hub.port_guard`). Everything happens inside the caller's
`read()`/`self_test()` calls: no thread of its own.
"""

from __future__ import annotations

import contextlib
import errno
import logging
import os
import termios
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from types import TracebackType
from typing import Any

import serial

from hardware.hub.port_guard import PortGuard
from hardware.hub.protocol import (
    COMMANDS,
    PROTOCOL_VERSIONS,
    SEQ_MODULO,
    Heartbeat,
    Hello,
    HubError,
    LineSplitter,
    ProtocolError,
    SelfTest,
    Unknown,
    format_command,
    parse_line,
)
from hardware.hub.snapshot import READER_COUNT, Snapshot
from hardware.log_limit import LogLimiter

log = logging.getLogger("setup.hub")

DEFAULT_PORT = "/dev/setup-hub"
FIRST_BACKOFF = 0.1
MAX_BACKOFF = 1.0  # reopen at least once a second: a hub back is read again well within 2 s
_READ_SLICE = 0.25  # longest single wait on the port, so silence is noticed while waiting
_PENDING = 256  # snapshots kept while a self-test waits; sweeps are whole pictures anyway
_WRITE_TIMEOUT = 1.0

SerialFactory = Callable[..., Any]


@dataclass(frozen=True, slots=True)
class LinkHealth:
    """What the link has seen, for the display and the log.

    `frames_ok` counts every good line of a known type; `bad_lines` every dropped one (bad
    CRC, malformed, too long, cut short by a lost port); `gaps` the jumps in snapshot numbers
    and `missed_sweeps` the sweeps they skipped; `reconnects` how often the hub came back
    after being lost. `reader_status` is each reader's status in the last snapshot.
    """

    connected: bool = False
    firmware: str | None = None
    frames_ok: int = 0
    bad_lines: int = 0
    unknown_lines: int = 0
    gaps: int = 0
    missed_sweeps: int = 0
    reconnects: int = 0
    last_seq: int | None = None
    reader_status: tuple[str, ...] = ()
    #: other programs with the port open ("minicom (pid 812)"): they take the hub's lines
    shared_with: tuple[str, ...] = ()
    taken_reads: int = 0  # reads whose bytes another program took first

    @property
    def faulty_readers(self) -> tuple[int, ...]:
        """Reader numbers in fault in the last snapshot (the companion names their squares)."""
        return tuple(i for i, status in enumerate(self.reader_status) if status == "fault")


class HubLink:
    """The reader hub on a serial port (default `/dev/setup-hub`, opened exclusively).

    `clock` is the link's time: it stamps snapshots (`Snapshot.received`) and times
    `read()`'s timeout, the silence and the backoff, so a run on a simulated clock goes as a
    real one would. The waits themselves are on the port (or a wake-up), never longer in wall
    time than the timeout: a simulated clock stands still while the link waits. `serial_factory(port, **settings)` opens the port: pyserial's
    `serial_for_url` by default, so `loop://` and friends work too. Not for concurrent use
    from several threads at once: calls are serialised by a lock.
    """

    def __init__(
        self,
        port: str = DEFAULT_PORT,
        *,
        baudrate: int = 115200,
        clock: Callable[[], float] = time.monotonic,
        silence_timeout: float = 2.0,
        serial_factory: SerialFactory = serial.serial_for_url,
        readers: int = READER_COUNT,
        max_backoff: float = MAX_BACKOFF,
        evict: bool = True,
    ) -> None:
        self.port = port
        #: whether another program reading the port is cut off (the self-test only names it)
        self.evict = evict
        self._guard = PortGuard(port, clock)
        self._baudrate = baudrate
        self._clock = clock
        self._silence_timeout = silence_timeout
        self._serial_factory = serial_factory
        self._readers = readers
        self._max_backoff = max_backoff
        self._lock = threading.RLock()
        self._serial: Any = None
        self._closing: threading.Thread | None = None  # the last port's close, if slow
        self._opened = False
        self._splitter = LineSplitter()
        self._pending: deque[Snapshot] = deque(maxlen=_PENDING)
        self._test_answer: SelfTest | None = None
        self._woken = threading.Event()  # set by `wake()` from another thread
        # connection state
        self._connected = False
        self._ever_connected = False
        self._waiting_logged = False
        self._last_heard = 0.0
        self._delay = FIRST_BACKOFF
        self._next_attempt = 0.0
        self._expected_seq: int | None = None
        # health counters
        self._firmware: str | None = None
        self._frames_ok = 0
        self._bad_lines = 0
        self._unknown_lines = 0
        self._gaps = 0
        self._missed_sweeps = 0
        self._reconnects = 0
        self._last_seq: int | None = None
        self._reader_status: tuple[str, ...] = ()
        # what the hub says, however often it says it, is logged a few times a minute
        self._limit = LogLimiter(log, clock=clock)

    def __repr__(self) -> str:
        state = "connected" if self._connected else "open" if self._opened else "closed"
        return f"<HubLink {self.port!r} {state}>"

    # lifecycle

    def open(self) -> None:
        """Start using the port. A missing port is not an error: it is retried in `read()`."""
        with self._lock:
            if self._opened:
                return
            self._opened = True
            self._delay = FIRST_BACKOFF
            self._try_open()

    def close(self) -> None:
        with self._lock:
            self._opened = False
            self._close_port(wait=True)
            self._connected = False

    def __enter__(self) -> HubLink:
        self.open()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    # what others call

    @property
    def is_open(self) -> bool:
        """The serial port is open now (the hub's cable is in and the device node exists)."""
        return self._serial is not None

    @property
    def health(self) -> LinkHealth:
        return LinkHealth(
            connected=self._connected,
            firmware=self._firmware,
            frames_ok=self._frames_ok,
            bad_lines=self._bad_lines + self._splitter.overlong,
            unknown_lines=self._unknown_lines,
            gaps=self._gaps,
            missed_sweeps=self._missed_sweeps,
            reconnects=self._reconnects,
            last_seq=self._last_seq,
            reader_status=self._reader_status,
            shared_with=self._guard.shared_with,
            taken_reads=self._guard.taken,
        )

    def read(self, timeout: float) -> Snapshot | None:
        """The next snapshot, or None if none came within `timeout` seconds. Never raises."""
        with self._lock:
            if not self._pending:
                self._pump(timeout, lambda: bool(self._pending), wakeable=True)
            self._limit.expire()
            return self._pending.popleft() if self._pending else None

    def wake(self) -> None:
        """Makes a `read()` waiting in another thread return now (None if no snapshot came),
        so the caller's loop acts on a button press at once instead of at the next sweep.
        Safe to call from any thread; a wake before the next `read()` makes it return at once."""
        if self._woken.is_set():
            return
        self._woken.set()
        port = self._serial
        cancel = getattr(port, "cancel_read", None)
        if cancel is not None:
            try:
                cancel()  # pyserial interrupts the select() of a read in progress
            except (OSError, ValueError, TypeError) as exc:  # the port is being closed
                log.debug("waking the link: %s", exc)

    def send(self, command: str) -> bool:
        """Send a host command (`VERSION`, `SELFTEST`); False if no port is open to take it."""
        if command not in COMMANDS:
            raise ValueError(f"unknown hub command {command!r}; known: {', '.join(COMMANDS)}")
        with self._lock:
            if self._serial is None:
                return False
            try:
                self._serial.write(format_command(command))
            except serial.SerialTimeoutException:
                log.warning("hub does not take the %s command (write timed out)", command)
                return False
            except OSError as exc:
                self._lose(f"write failed: {exc}")
                return False
            return True

    def self_test(self, timeout: float = 3.0) -> SelfTest | None:
        """Ask the hub to test its readers; its answer, or None if none came in `timeout`.

        Snapshots arriving meanwhile are kept for the next `read()`.
        """
        with self._lock:
            self._test_answer = None
            if not self.send("SELFTEST"):
                return None
            self._pump(timeout, lambda: self._test_answer is not None)
            return self._test_answer

    # the port

    def _pump(self, timeout: float, done: Callable[[], bool], *, wakeable: bool = False) -> None:
        """Move bytes from the port into messages until `done()`, the timeout, or (if
        `wakeable`) a `wake()`. The timeout is on `clock`, like the silence and the backoff;
        as much wall time bounds it too, for a simulated clock that stands still while the
        link waits (its owner moves it between calls): in real time the two are one."""
        deadline = self._clock() + max(0.0, timeout)
        wall_deadline = time.monotonic() + max(0.0, timeout)
        woken = self._woken if wakeable else threading.Event()  # a self-test waits it out

        def left() -> float:
            return max(0.0, min(deadline - self._clock(), wall_deadline - time.monotonic()))

        while True:
            if self._serial is None:
                if not self._opened:  # closed: nothing will come, but keep the caller's pace
                    woken.wait(left())
                    woken.clear()
                    return
                closing = self._closing is not None and self._closing.is_alive()
                if self._clock() >= self._next_attempt and not closing:  # the same tty
                    self._try_open()  # would wait for that close to open again
                if self._serial is None:
                    if left() <= 0:
                        return
                    until_attempt = max(0.0, self._next_attempt - self._clock())
                    if woken.wait(min(left(), until_attempt, 0.1)):
                        woken.clear()
                        return
                    continue
            data = self._receive(min(left(), _READ_SLICE))
            if data:
                for line in self._splitter.feed(data):
                    self._handle(line)
            self._guard.tick()
            if self.evict and self._serial is not None and self._guard.evict_due():
                self._evict()
            self._check_silence()
            if woken.is_set():
                woken.clear()
                return
            if done() or left() <= 0:
                return

    def _receive(self, wait: float) -> bytes:
        port = self._serial
        try:
            waiting = port.in_waiting
            if waiting:
                return bytes(port.read(waiting))
            if wait <= 0:
                return b""
            port.timeout = wait
            data = bytes(port.read(1))
            if data and (more := port.in_waiting):
                data += port.read(more)
            return data
        except OSError as exc:  # SerialException is an OSError: the port went away...
            if not self._guard.alive(port):  # ...unless another program read it first
                self._lose(f"read failed: {exc}")
            return b""

    def _try_open(self) -> None:
        try:
            self._serial = self._serial_factory(
                self.port,
                baudrate=self._baudrate,
                timeout=_READ_SLICE,
                write_timeout=_WRITE_TIMEOUT,
                exclusive=True,
            )
        except (OSError, ValueError) as exc:
            if not self._waiting_logged:
                log.warning("hub disconnected: cannot open %s (%s); retrying", self.port, _why(exc))
                self._waiting_logged = True
            self._next_attempt = self._clock() + self._delay
            self._delay = min(self._delay * 2, self._max_backoff)
            return
        log.debug("opened %s", self.port)
        self._guard.opened(self._serial)
        if self._guard.holders:
            self._limit.log(
                logging.WARNING,
                "holders",
                "%s also has the hub's port %s open: it takes lines the daemon needs",
                ", ".join(map(str, self._guard.holders)),
                self.port,
            )
        self._delay = FIRST_BACKOFF
        self._last_heard = self._clock()
        self._expected_seq = None  # the hub may have restarted while we were away
        self._splitter.reset()
        # The hub says HELLO at boot, likely before we were listening: ask for it.
        self.send("VERSION")

    def _close_port(self, *, wait: bool = False) -> None:
        """Lets the port go; `wait`: until it is closed (the link is done with it), else
        the close is waited out on a thread of its own (see below)."""
        port, self._serial = self._serial, None
        if port is None:
            return
        if self._splitter.reset():
            self._bad_lines += 1  # a line cut short by the lost port
        # Closing a tty waits for the bytes not yet sent (up to 30 s on a USB serial port,
        # the kernel's closing_wait) when the hub has stopped taking them: long enough for
        # the watchdog to restart the daemon (10 s, then the restart: a reconnect of 17 s).
        # The bytes are dropped, and the close is waited out on a thread of its own.
        with contextlib.suppress(OSError, ValueError, AttributeError, termios.error):
            port.reset_output_buffer()  # a port hung up (unplugged) has none to drop
        if wait:
            _close(port, self.port)
            return
        self._closing = threading.Thread(
            target=_close, args=(port, self.port), name="hub-close", daemon=True
        )
        self._closing.start()

    def _lose(self, reason: str) -> None:
        self._close_port()
        if self._connected or not self._waiting_logged:
            log.warning("hub disconnected: %s", reason)  # once per outage, not per retry
        self._connected = False
        self._waiting_logged = True
        self._next_attempt = self._clock() + self._delay
        self._delay = min(self._delay * 2, self._max_backoff)

    def _evict(self) -> None:
        """Another program reads the port: the hub is asked to reconnect, which hangs up
        every program that has its port open; the link then opens the new one alone."""
        log.warning(
            "another program reads the hub's port %s (%s): the hub is asked to reconnect, "
            "which cuts it off",
            self.port,
            ", ".join(self._guard.shared_with),
        )
        self.send("RECONNECT")

    def _check_silence(self) -> None:
        if self._serial is None:
            return
        silent = self._clock() - self._last_heard
        if silent > self._silence_timeout:
            # Reopening costs nothing and recovers a hub that restarted behind a live port.
            self._lose(f"no line for {silent:.1f} s")

    # the lines

    def _handle(self, line: bytes) -> None:
        now = self._clock()
        try:
            message = parse_line(line, now, readers=self._readers)
        except ProtocolError as exc:
            self._bad_lines += 1
            log.debug("bad line dropped (%s): %r", exc.reason, line[:80])
            return
        self._heard(now)
        if isinstance(message, Unknown):
            self._unknown_lines += 1
            log.debug("unknown line type %r ignored", message.kind)
            return
        self._frames_ok += 1
        if isinstance(message, Snapshot):
            self._snapshot(message)
        elif isinstance(message, Hello):
            self._hello(message)
        elif isinstance(message, SelfTest):
            self._test_answer = message
            faulty = ", ".join(map(str, message.faulty_readers)) or "none"
            self._limit.log(
                logging.INFO, "self-test", "hub self-test: readers in fault: %s", faulty
            )
        elif isinstance(message, HubError):
            if self._guard.evictions and message.text in ("unknown command", "cannot reconnect"):
                self._guard.refused = True  # an older hub: it cannot cut the others off
            self._limit.log(logging.WARNING, "error", "hub error: %s", message.text)
        elif isinstance(message, Heartbeat):
            pass  # being heard is all a heartbeat is for

    def _heard(self, now: float) -> None:
        self._last_heard = now
        if self._connected:
            return
        self._connected = True
        self._waiting_logged = False
        if self._ever_connected:
            self._reconnects += 1
            log.warning("hub reconnected on %s", self.port)
        else:
            log.info("hub connected on %s", self.port)
        self._ever_connected = True

    def _snapshot(self, snapshot: Snapshot) -> None:
        expected = self._expected_seq
        if expected is not None and snapshot.seq != expected:
            self._gaps += 1
            self._missed_sweeps += (snapshot.seq - expected) % SEQ_MODULO
            self._guard.gap()
        self._expected_seq = (snapshot.seq + 1) % SEQ_MODULO
        self._last_seq = snapshot.seq
        status = tuple(reading.status for reading in snapshot.readers)
        if status != self._reader_status:
            self._log_faults(self._reader_status, status)
            self._reader_status = status
        self._pending.append(snapshot)

    def _hello(self, hello: Hello) -> None:
        self._expected_seq = None  # a (re)started hub numbers from anew: not a gap
        self._firmware = hello.firmware
        self._limit.log(
            logging.INFO,
            "hello",
            "hub firmware %s, protocol %d, %d readers",
            hello.firmware,
            hello.protocol,
            hello.readers,
        )
        if hello.protocol not in PROTOCOL_VERSIONS or hello.readers != self._readers:
            self._limit.log(
                logging.ERROR,
                "mismatch",
                "hub speaks protocol %d with %d readers; this link reads protocol %s with %d",
                hello.protocol,
                hello.readers,
                " or ".join(map(str, PROTOCOL_VERSIONS)),
                self._readers,
            )

    def _log_faults(self, before: tuple[str, ...], after: tuple[str, ...]) -> None:
        for reader, status in enumerate(after):
            was = before[reader] if reader < len(before) else None
            if status == "fault" and was != "fault":
                self._limit.log(logging.WARNING, f"fault {reader}", "reader %d: fault", reader)
            elif was == "fault" and status != "fault":
                self._limit.log(logging.INFO, f"clear {reader}", "reader %d: fault cleared", reader)


def _close(port: Any, name: str) -> None:
    """Closes a port, however long the kernel takes (the link does not wait for it)."""
    started = time.monotonic()
    try:
        port.close()
    except OSError as exc:
        log.debug("closing %s: %s", name, exc)
    took = time.monotonic() - started
    if took > 1.0:
        log.warning("closing %s took %.1f s (a hub that had stopped reading)", name, took)


def _why(exc: BaseException) -> str:
    """Why a port did not open, in words: pyserial's texts nest errno reprs."""
    number = getattr(exc, "errno", None)
    if number in (errno.EAGAIN, errno.EWOULDBLOCK):  # the exclusive lock is held
        return "another program is using the port, e.g. a second daemon or a serial console"
    if isinstance(number, int) and number > 0:
        return os.strerror(number).lower()
    return str(exc)
