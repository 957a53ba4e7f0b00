"""One push button per seat (gpiozero), told apart as short and long presses.

`on_press(seat, long)` is called once per press: a short press on release, before
`long_press` seconds; a long press as soon as the button has been held that long (the
release after it says nothing more). A press shorter than `bounce` seconds is contact
bounce, not a press. Callbacks run on gpiozero's threads; `events()` is a thread-safe queue
of `(seat, long, time)` for a daemon that prefers to pick them up in its own loop.

The buttons are gpiozero `DigitalInputDevice`s with a one-shot timer per press for the long
press, not `Button`s: a `Button`'s hold thread wakes ten times a second for ever, even with
nobody at the table (four buttons: 40 wake-ups a second of an idle daemon).
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable, Mapping
from typing import Any

from gpiozero import DigitalInputDevice

log = logging.getLogger("setup.buttons")

Press = tuple[str, bool, float]  # (seat, long, time of the press's end or of the long hold)


class SeatButtons:
    """The seat buttons, wired between a GPIO pin and ground (the pin's pull-up is used)."""

    def __init__(
        self,
        pins: Mapping[str, int | str],
        *,
        long_press: float = 1.0,
        bounce: float = 0.03,
        on_press: Callable[[str, bool], None] | None = None,
        pin_factory: Any = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if long_press <= bounce:
            raise ValueError("long_press must be longer than the bounce time")
        self.long_press = long_press
        self.bounce = bounce
        self.on_press = on_press
        self._clock = clock
        self._events: queue.SimpleQueue[Press] = queue.SimpleQueue()
        self._lock = threading.Lock()
        self._down: dict[str, float | None] = {}  # seat -> when its press began
        self._held: dict[str, bool] = {}
        self._timers: dict[str, threading.Timer] = {}
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
        except Exception:
            self.close()
            raise

    def __repr__(self) -> str:
        pins = ", ".join(f"{seat}={b.pin}" for seat, b in self.buttons.items())
        return f"<SeatButtons {pins} long={self.long_press:g}s>"

    def events(self) -> queue.SimpleQueue[Press]:
        """Every press as `(seat, long, time)`, in the order they happened."""
        return self._events

    def _pressed(self, seat: str) -> None:
        with self._lock:
            self._down[seat] = self._clock()
            self._held[seat] = False
            timer = threading.Timer(self.long_press, self._long, (seat,))
            timer.daemon = True
            old, self._timers[seat] = self._timers.get(seat), timer
        if old is not None:
            old.cancel()
        timer.start()

    def _released(self, seat: str) -> None:
        with self._lock:
            began, held = self._down[seat], self._held[seat]
            self._down[seat] = None
            now = self._clock()
            timer = self._timers.pop(seat, None)
        if timer is not None:
            timer.cancel()
        if began is None or held:
            return
        if now - began < self.bounce:  # also where the pin driver does not debounce
            return
        self._emit(seat, False, now)

    def _long(self, seat: str) -> None:
        with self._lock:
            if self._down[seat] is None or self._held[seat]:
                return
            if self._timers.get(seat) is not threading.current_thread():
                return  # the timer of an earlier press, already released
            self._held[seat] = True
            now = self._clock()
        self._emit(seat, True, now)

    def _emit(self, seat: str, long: bool, when: float) -> None:
        self._events.put((seat, long, when))
        if self.on_press is not None:
            try:
                self.on_press(seat, long)
            except Exception:  # the daemon's bug must not silence the buttons
                log.exception("the button handler failed for %s", seat)

    def close(self) -> None:
        with self._lock:
            timers, self._timers = list(self._timers.values()), {}
        for timer in timers:
            timer.cancel()
        for button in self.buttons.values():
            button.close()
        self.buttons.clear()

    def __enter__(self) -> SeatButtons:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
