"""One push button per seat (gpiozero), told apart as short and long presses.

`on_press(seat, long, time)` is called once per press: a short press on release, before
`long_press` seconds; a long press as soon as the button has been held that long (the
release after it says nothing more); `time` is that moment on the buttons' clock. A press
shorter than `bounce` seconds is contact bounce, not a press. Callbacks run on gpiozero's
threads. Without `on_press`, the presses wait in `events()`, a thread-safe queue of
`(seat, long, time)` for a caller that picks them up in its own loop (the self-test).

The buttons are gpiozero `DigitalInputDevice`s with a one-shot timer per press for the long
press, not `Button`s: a `Button`'s hold thread wakes ten times a second for ever, even with
nobody at the table (four buttons: 40 wake-ups a second of an idle daemon). The timer is
injected with the clock (`timer(delay, callback)` returns something with `cancel()`): on the
Pi a `threading.Timer`, on the simulated table `SimClock.call_later`, so a long press there
takes simulated time, not real time.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable, Mapping
from typing import Any, Protocol

from gpiozero import DigitalInputDevice

from hardware.device import Device

log = logging.getLogger("setup.buttons")

Press = tuple[str, bool, float]  # (seat, long, time of the press's end or of the long hold)


class Cancellable(Protocol):
    def cancel(self) -> None: ...


Timer = Callable[[float, Callable[[], None]], Cancellable]


def thread_timer(delay: float, callback: Callable[[], None]) -> threading.Timer:
    """`callback` in `delay` real seconds, from a thread of its own."""
    timer = threading.Timer(delay, callback)
    timer.daemon = True
    timer.start()
    return timer


class SeatButtons(Device):
    """The seat buttons, wired between a GPIO pin and ground (the pin's pull-up is used)."""

    def __init__(
        self,
        pins: Mapping[str, int | str],
        *,
        long_press: float = 1.0,
        bounce: float = 0.03,
        on_press: Callable[[str, bool, float], None] | None = None,
        pin_factory: Any = None,
        clock: Callable[[], float] = time.monotonic,
        timer: Timer = thread_timer,
    ) -> None:
        if long_press <= bounce:
            raise ValueError("long_press must be longer than the bounce time")
        self.long_press = long_press
        self.bounce = bounce
        self.on_press = on_press
        self._clock, self._timer = clock, timer
        self._events: queue.SimpleQueue[Press] = queue.SimpleQueue()
        self._lock = threading.Lock()
        self._down: dict[str, float | None] = {}  # seat -> when its press began
        self._held: dict[str, bool] = {}
        self._press: dict[str, int] = {}  # numbers each seat's presses: a late timer knows
        self._timers: dict[str, tuple[int, Cancellable]] = {}
        self.buttons: dict[str, DigitalInputDevice] = {}
        try:
            for seat, pin in pins.items():
                button = DigitalInputDevice(
                    pin, pull_up=True, bounce_time=bounce, pin_factory=pin_factory
                )
                button.when_activated = lambda seat=seat: self._pressed(seat)
                button.when_deactivated = lambda seat=seat: self._released(seat)
                self.buttons[seat] = button
                self._down[seat] = None
                self._held[seat] = False
                self._press[seat] = 0
        except Exception:
            self.close()
            raise

    def __repr__(self) -> str:
        pins = ", ".join(f"{seat}={b.pin}" for seat, b in self.buttons.items())
        return f"<SeatButtons {pins} long={self.long_press:g}s>"

    def events(self) -> queue.SimpleQueue[Press]:
        """Every press as `(seat, long, time)`, in the order they happened (only when no
        `on_press` takes them)."""
        return self._events

    def held(self) -> frozenset[str]:
        """The seats whose button is down now (debounced: as the presses are told)."""
        with self._lock:
            return frozenset(seat for seat, down in self._down.items() if down is not None)

    def _pressed(self, seat: str) -> None:
        with self._lock:
            self._down[seat] = self._clock()
            self._held[seat] = False
            self._press[seat] += 1
            press = self._press[seat]
            old = self._timers.pop(seat, None)
        if old is not None:
            old[1].cancel()
        timer = self._timer(self.long_press, lambda: self._long(seat, press))
        with self._lock:
            if self._down[seat] is not None and press == self._press[seat]:
                self._timers[seat] = (press, timer)
                return
        timer.cancel()  # released (or pressed again) while the timer was being set

    def _released(self, seat: str) -> None:
        with self._lock:
            began, held = self._down[seat], self._held[seat]
            self._down[seat] = None
            now = self._clock()
            timer = self._timers.pop(seat, None)
        if timer is not None:
            timer[1].cancel()
        if began is None or held:
            return
        if now - began < self.bounce:  # also where the pin driver does not debounce
            return
        self._emit(seat, False, now)

    def _long(self, seat: str, press: int) -> None:
        with self._lock:
            if self._down[seat] is None or self._held[seat]:
                return
            if press != self._press[seat]:
                return  # the timer of an earlier press, already released
            self._held[seat] = True
            now = self._clock()
        self._emit(seat, True, now)

    def _emit(self, seat: str, long: bool, when: float) -> None:
        if self.on_press is None:
            self._events.put((seat, long, when))
            return
        try:
            self.on_press(seat, long, when)
        except Exception:  # the daemon's bug must not silence the buttons
            log.exception("the button handler failed for %s", seat)

    def _close(self) -> None:
        with self._lock:
            timers, self._timers = list(self._timers.values()), {}
        for _, timer in timers:
            timer.cancel()
        for button in self.buttons.values():
            button.close()
        self.buttons.clear()
