"""Simulated time, one clock for everything simulated (the demo, enrolment, the tests).

`SimClock()` is called like `time.monotonic` and only moves when told to (`advance`), so a
simulated table runs as fast as the machine allows and the same on a busy one. Timers set
with `call_later` (the seat buttons' long-press timer) run inside `advance`, at their time.
"""

from __future__ import annotations

import heapq
import itertools
import threading
from collections.abc import Callable


class SimTimer:
    """A callback due at a simulated time; `cancel()` before then and it never runs."""

    __slots__ = ("due", "callback", "cancelled")

    def __init__(self, due: float, callback: Callable[[], None]) -> None:
        self.due, self.callback, self.cancelled = due, callback, False

    def cancel(self) -> None:
        self.cancelled = True


class SimClock:
    """Simulated seconds: `clock()` reads them, `advance(seconds)` moves them on."""

    def __init__(self, start: float = 1000.0) -> None:
        self.now = start
        self._timers: list[tuple[float, int, SimTimer]] = []
        self._order = itertools.count()  # timers due at the same time run in the order set
        self._lock = threading.Lock()  # timers are set from gpiozero's threads too

    def __call__(self) -> float:
        return self.now

    def __repr__(self) -> str:
        return f"<SimClock {self.now:.3f} timers={len(self._timers)}>"

    def call_later(self, delay: float, callback: Callable[[], None]) -> SimTimer:
        timer = SimTimer(self.now + delay, callback)
        with self._lock:
            heapq.heappush(self._timers, (timer.due, next(self._order), timer))
        return timer

    def advance(self, seconds: float) -> None:
        """Moves time on by `seconds`, running each timer that falls due at its own time."""
        end = self.now + seconds
        while True:
            with self._lock:
                if not self._timers or self._timers[0][0] > end:
                    break
                due, _, timer = heapq.heappop(self._timers)
            if timer.cancelled:
                continue
            self.now = max(self.now, due)
            timer.callback()
        self.now = end
