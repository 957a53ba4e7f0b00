"""The life of a device, written once (gpiozero's `Device` has the same shape).

A device is open from the moment it is made; `close()` lets go of what it holds, the first
time only, whoever calls it and however often (the daemon closes everything on the way out,
and a part may already have closed itself); `closed` says whether that happened; and a
device is its own context manager. A subclass says how to let go in `_close()`.
"""

from __future__ import annotations

import threading
from typing import Self

_CLOSING = threading.Lock()  # held only while a flag flips: one lock serves every device


class Device:
    """Something that holds a resource (a pin, a bus, a thread, a socket) until closed."""

    __slots__ = ()
    _closed = False

    @property
    def closed(self) -> bool:
        return self._closed

    def close(self) -> None:
        """Lets go of the device. Safe to call again, from any thread: later calls do nothing."""
        with _CLOSING:
            if self._closed:
                return
            self._closed = True
        self._close()

    def _close(self) -> None:
        """What closing does (once); `closed` is already true while it runs."""

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
