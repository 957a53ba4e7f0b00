"""Tells systemd how the daemon is doing: readiness, status line, watchdog pings, stopping.

This is the sd_notify protocol without libsystemd: one datagram of newline-separated
`KEY=value` assignments sent to the AF_UNIX socket named in `$NOTIFY_SOCKET`. A name that
starts with `@` is in the abstract namespace (the `@` stands for a leading NUL byte).

Outside systemd (a test, a hobbyist running `setup-companion run` by hand) NOTIFY_SOCKET is
unset and every call is a quiet no-op, so the daemon calls the same API everywhere.
Sending never raises: a lost notify socket must not take the scores down with it; the
first failure is logged, repeats are not (a watchdog ping every few seconds would flood
the journal).
"""

from __future__ import annotations

import logging
import os
import socket
from collections.abc import Mapping

from hardware.device import Device

log = logging.getLogger(__name__)

# A notify datagram is tiny; a full queue on systemd's side must not stall the main loop
# for long, but READY=1 is worth a short wait rather than an instant drop.
SEND_TIMEOUT = 0.5


def socket_address(name: str) -> str | bytes:
    """The address to send to for a NOTIFY_SOCKET value (abstract names become bytes)."""
    if name.startswith("@"):
        return b"\0" + name[1:].encode()
    return name


def watchdog_interval_from_env(environ: Mapping[str, str], pid: int) -> float | None:
    """Seconds between watchdog pings: half of WATCHDOG_USEC, as sd_watchdog_enabled advises.

    None when the watchdog is off, meant for another process (WATCHDOG_PID), or garbled.
    """
    usec_text = environ.get("WATCHDOG_USEC")
    if not usec_text:
        return None
    pid_text = environ.get("WATCHDOG_PID")
    if pid_text:
        try:
            if int(pid_text) != pid:
                return None
        except ValueError:
            log.warning("ignoring the watchdog: WATCHDOG_PID=%r is not a process id", pid_text)
            return None
    try:
        usec = int(usec_text)
    except ValueError:
        log.warning("ignoring the watchdog: WATCHDOG_USEC=%r is not a number", usec_text)
        return None
    if usec <= 0:
        return None
    return usec / 2_000_000


class Notifier(Device):
    """Sends sd_notify messages to one socket, or nothing when there is no socket.

    Build it with `Notifier.from_env()`; use it as a context manager or call `close()`.
    """

    def __init__(self, address: str | bytes | None, *, watchdog_interval: float | None = None):
        self._address = address
        self._watchdog_interval = watchdog_interval
        self._socket: socket.socket | None = None
        self._failing = False
        if address is not None:
            self._socket = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC)
            self._socket.settimeout(SEND_TIMEOUT)

    @classmethod
    def from_env(cls, environ: Mapping[str, str] = os.environ) -> Notifier:
        """The notifier systemd asked for through the environment (a no-op one if none)."""
        name = environ.get("NOTIFY_SOCKET", "")
        if not name:
            # Pings that go nowhere are pointless, so no socket also means no watchdog.
            return cls(None)
        if not name.startswith(("/", "@")):
            # vsock: and relative names are not for a daemon on the Pi.
            log.warning("not notifying systemd: unsupported NOTIFY_SOCKET=%r", name)
            return cls(None)
        interval = watchdog_interval_from_env(environ, os.getpid())
        return cls(socket_address(name), watchdog_interval=interval)

    @property
    def enabled(self) -> bool:
        """True when messages go somewhere (systemd started us with Type=notify)."""
        return self._socket is not None

    @property
    def watchdog_interval(self) -> float | None:
        """Seconds between `watchdog()` calls the main loop should keep to, or None (off)."""
        return self._watchdog_interval

    def notify(self, *assignments: str) -> bool:
        """Sends `KEY=value` assignments in one datagram; True if it was sent."""
        if self._socket is None or self._address is None:
            return False
        try:
            self._socket.sendto("\n".join(assignments).encode(), self._address)
        except OSError as exc:
            if not self._failing:
                log.warning("cannot notify systemd at %r: %s", self._address, exc)
            self._failing = True
            return False
        if self._failing:
            log.info("notifying systemd works again")
            self._failing = False
        return True

    def ready(self, status: str | None = None) -> bool:
        """The daemon is up: hub link and displays opened (or known to be absent)."""
        if status is None:
            return self.notify("READY=1")
        return self.notify("READY=1", _status(status))

    def status(self, text: str) -> bool:
        """A one-line status shown by `systemctl status`."""
        return self.notify(_status(text))

    def watchdog(self) -> bool:
        """The main loop is healthy; call it at least every `watchdog_interval` seconds."""
        return self.notify("WATCHDOG=1")

    def stopping(self) -> bool:
        """The daemon is shutting down on purpose (a restart would not be a failure)."""
        return self.notify("STOPPING=1")

    def _close(self) -> None:
        if self._socket is not None:
            self._socket.close()
            self._socket = None

    def __repr__(self) -> str:
        where = "off" if self._address is None else repr(self._address)
        return f"<Notifier {where} watchdog_interval={self._watchdog_interval!r}>"


def _status(text: str) -> str:
    # A newline would end the assignment and let the rest pose as another one (say READY=1).
    return "STATUS=" + " ".join(text.splitlines())
