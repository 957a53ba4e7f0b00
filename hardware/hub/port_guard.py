"""The hub's port is the link's: other programs that have it open are found, named, and cut off.

The bytes of a serial port go to whichever open file reads them first, so a program reading
the hub's port (a serial terminal left running, one that takes no lock) takes sweeps the
link then never sees, and every turn waits for sweeps that do not come. The signs the guard
goes by: a read that found the port ready and its bytes gone (another reader took them
first), and a gap in the sweeps while another program has the port open. Then:

- it names the programs (`holders`: as far as /proc shows them; under systemd's
  `ProtectProc=invisible` another user's program is "another program");
- when the link may cut them off (`evict`), it asks for the hub to RECONNECT: the hub drops
  off USB and comes back, which hangs up every program that had the port open, and the link
  opens the new port with TIOCEXCL, so that no one else may open it (root excepted).
  At most once every `EVICT_SECONDS`; not at all once the hub has said it cannot.
"""

from __future__ import annotations

import contextlib
import fcntl
import termios
from collections.abc import Callable
from typing import Any

from hardware.hub.holders import Holder, holders

#: signs of another reader count for this long
SIGNS_SECONDS = 10.0
#: /proc is looked through at most this often (it costs tens of milliseconds on a Pi Zero)
SCAN_SECONDS = 5.0
#: the hub is asked to reconnect at most this often
EVICT_SECONDS = 30.0
#: what another reader is called when /proc does not show it
UNSEEN = "another program"


class PortGuard:
    """What the link knows of other programs on its port; `clock` is the link's time."""

    def __init__(self, port: str, clock: Callable[[], float]) -> None:
        self.port = port
        self._clock = clock
        self.holders: tuple[Holder, ...] = ()
        self.taken = 0  # reads whose bytes another reader took first
        self.evictions = 0  # times the hub was asked to reconnect
        self.refused = False  # the hub answered that it cannot reconnect
        self._named: tuple[str, ...] = ()  # who was at work, while the signs last
        self._signs_at: float | None = None
        self._scanned_at: float | None = None
        self._evicted_at: float | None = None

    def opened(self, serial: Any) -> None:
        """The port was (re)opened: others may open it no more, and who has it now."""
        fd = _fileno(serial)
        if fd is not None:
            with contextlib.suppress(OSError):
                fcntl.ioctl(fd, termios.TIOCEXCL)
        self._scan()  # the signs stay: who was cut off is still named for a while

    def alive(self, serial: Any) -> bool:
        """Whether a port that was ready with nothing to read is still there (another
        reader took the bytes) rather than hung up (the hub gone): its settings answer."""
        fd = _fileno(serial)
        if fd is None:
            return False
        try:
            termios.tcgetattr(fd)
        except (OSError, termios.error):
            return False
        self.taken += 1
        self._sign()
        return True

    def gap(self) -> None:
        """Sweeps were missed: a sign when another program has the port (looked for now
        and then: a gap has other causes too, a line the cable damaged)."""
        if not self.holders and (
            self._scanned_at is None or self._clock() - self._scanned_at >= SCAN_SECONDS
        ):
            self._scan()
        if self.holders:
            self._sign()

    def _sign(self) -> None:
        first = not self.signs  # the first sign for a while: who is it? (look now)
        self._signs_at = self._clock()
        if first or self._scanned_at is None or self._signs_at - self._scanned_at >= SCAN_SECONDS:
            self._scan()
        self._named = tuple(map(str, self.holders)) or self._named or (UNSEEN,)

    def _scan(self) -> None:
        self._scanned_at = self._clock()
        self.holders = holders(self.port)

    @property
    def signs(self) -> bool:
        """Whether another reader was seen at work lately."""
        return self._signs_at is not None and self._clock() - self._signs_at < SIGNS_SECONDS

    def tick(self) -> None:
        """Time passes: programs known to have the port are looked for again now and then,
        so one that has left is no longer named."""
        due = self._scanned_at is None or self._clock() - self._scanned_at >= SCAN_SECONDS
        if self.holders and due:
            self._scan()

    @property
    def shared_with(self) -> tuple[str, ...]:
        """The other programs with the port open, or that read it lately (one that was just
        cut off is still named for SIGNS_SECONDS), in words; () when it is the link's."""
        if self.holders:
            return tuple(map(str, self.holders))
        return self._named if self.signs else ()

    def evict_due(self) -> bool:
        """Whether to ask the hub to reconnect now (and it is noted as asked)."""
        if self.refused or not self.signs:
            return False
        now = self._clock()
        if self._evicted_at is not None and now - self._evicted_at < EVICT_SECONDS:
            return False
        self._evicted_at = now
        self.evictions += 1
        return True


def _fileno(serial: Any) -> int | None:
    try:
        fd = serial.fileno()
    except (AttributeError, OSError, ValueError, NotImplementedError):  # loop://: none
        return None
    return fd if isinstance(fd, int) else None
