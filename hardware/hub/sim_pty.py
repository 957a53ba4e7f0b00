"""The hub's end of a USB cable, simulated on a real pseudo-terminal.

The host opens `path` (a symlink to the pty's slave, kept in a directory of our own) just as
it opens `/dev/setup-hub`; unplugging closes the pty, so the host's open file hangs up as a
vanished USB device does, and plugging in again makes a new pty behind the same path.
"""

from __future__ import annotations

import contextlib
import logging
import os
import select
import threading
import time
import tty
from collections.abc import Callable
from dataclasses import dataclass, field

from hardware.hub.protocol import LineSplitter

#: how long unplugging waits for the port's thread
STOP_SECONDS = 2.0
log = logging.getLogger("setup.hub.sim")


@dataclass
class _Session:
    """One plugged-in session: the pty pair, its output buffer and its I/O thread."""

    master: int
    slave: int
    wake_r: int
    wake_w: int
    out: bytearray = field(default_factory=bytearray)
    stop: threading.Event = field(default_factory=threading.Event)
    thread: threading.Thread | None = None


class PtyCable:
    """A pty behind a stable `path`: non-blocking sends, a thread for the host's lines.

    `on_line(line)` is called from that thread for every line the host writes. `send()`
    never blocks: what the pty does not take at once waits in a buffer of `buffer` bytes
    (a real hub's USB FIFO), and a line that does not fit is dropped and counted.
    """

    def __init__(self, path: str, on_line: Callable[[bytes], None], buffer: int) -> None:
        self.path = path
        self.dropped = 0
        self._on_line = on_line
        self._buffer = buffer
        self._lock = threading.Lock()
        self._session: _Session | None = None

    @property
    def plugged(self) -> bool:
        return self._session is not None

    def plug(self) -> None:
        with self._lock:
            if self._session is not None:
                return
            master, slave = os.openpty()
            # Raw from the start: no echo of our own lines, no CR/LF translation. Our copy of
            # the slave stays open, so the master never sees a hang-up between host opens.
            tty.setraw(slave)
            os.set_blocking(master, False)
            wake_r, wake_w = os.pipe()
            os.set_blocking(wake_w, False)
            session = _Session(master, slave, wake_r, wake_w)
            staged = f"{self.path}.new"
            os.symlink(os.ttyname(slave), staged)
            os.replace(staged, self.path)  # atomic: the path is never half-made
            session.thread = threading.Thread(
                target=self._serve, args=(session,), name="virtual-hub-io", daemon=True
            )
            self._session = session
            session.thread.start()

    def unplug(self) -> None:
        with self._lock:
            session, self._session = self._session, None
            if session is None:
                return
            with contextlib.suppress(FileNotFoundError):
                os.unlink(self.path)
        # Outside the lock: the I/O thread may be waiting for it to answer a command.
        session.stop.set()
        self._wake(session)
        if session.thread is not None:
            session.thread.join(timeout=STOP_SECONDS)  # bounded: as the hub's sweeps
            if session.thread.is_alive():
                log.warning("the virtual hub's port did not close within %g s", STOP_SECONDS)
        for fd in (session.master, session.slave, session.wake_r, session.wake_w):
            os.close(fd)

    def send(self, data: bytes) -> bool:
        """Queue bytes for the host and push what the pty takes now; False if dropped."""
        with self._lock:
            session = self._session
            if session is None:
                return False
            if len(session.out) + len(data) > self._buffer:
                self.dropped += 1
                return False
            session.out += data
            self._flush(session)
            if session.out:
                self._wake(session)  # let the I/O thread wait for room
            return True

    def _serve(self, session: _Session) -> None:
        """Read the host's lines and drain the output buffer, until unplugged."""
        lines = LineSplitter()
        while not session.stop.is_set():
            with self._lock:
                want_room = [session.master] if session.out else []
            readable, writable, _ = select.select(
                [session.master, session.wake_r], want_room, [], 0.5
            )
            if session.stop.is_set():
                return
            if session.wake_r in readable:
                os.read(session.wake_r, 256)
            if session.master in readable:
                for line in lines.feed(self._read(session)):
                    self._on_line(line)
            if writable:
                with self._lock:
                    self._flush(session)

    @staticmethod
    def _read(session: _Session) -> bytes:
        try:
            return os.read(session.master, 4096)
        except BlockingIOError:
            return b""
        except OSError as exc:  # no host end at all: nothing to serve for now
            log.debug("pty read failed: %s", exc)
            time.sleep(0.05)
            return b""

    @staticmethod
    def _wake(session: _Session) -> None:
        with contextlib.suppress(BlockingIOError):  # a full pipe wakes it just as well
            os.write(session.wake_w, b"x")

    @staticmethod
    def _flush(session: _Session) -> None:
        try:
            written = os.write(session.master, session.out)
        except BlockingIOError:
            return
        except OSError as exc:
            log.debug("pty write failed: %s", exc)
            return
        del session.out[:written]
