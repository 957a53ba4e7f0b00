"""Shows each `TableView` on the seat displays: renders each seat's frame, and sends it
to that seat's panel only when it changed; flashes bonus alerts in time.

    presenter = Presenter.from_settings({"N": {"driver": "ssd1306", "i2c_address": 0x3C}, ...},
                                        lang="fr")
    presenter.show(view)       # returns at once; a worker thread draws
    ...
    presenter.close()

A panel write takes tens of milliseconds on I2C, so the drawing happens on the
presenter's own thread and `show` never blocks the daemon's loop. The worker wakes for a
new view and for each flash of an alert (`Screens.next_change`). With `threaded=False`
nothing runs in the background: `show(view, now)` and `tick(now)` draw at once, in
simulated time (tests, replays, benchmarks).
"""

from __future__ import annotations

import dataclasses
import logging
import threading
import time
from collections.abc import Callable, Hashable, Mapping
from typing import Any

from companion.game.view import ALERT_SECONDS, TableView
from companion.show import chart
from companion.show.screens import Screens, Shown, samples
from hardware.device import Device
from hardware.display import Display, DisplaySettings

log = logging.getLogger("setup.display")

MAX_SLEEP = 1.0  # the worker looks at the clock at least this often


class Presenter(Device):
    """The seat displays (side -> `Display`) showing the latest view."""

    def __init__(
        self,
        displays: Mapping[str, Display],
        screens: Screens | None = None,
        *,
        clock: Callable[[], float] = time.monotonic,
        threaded: bool = True,
    ) -> None:
        self.displays = dict(displays)
        self.screens = screens or Screens()
        self.renders = 0  # frames drawn in memory
        self._clock = clock
        self._shown: Shown | None = None
        self._keys: dict[str, Hashable] = {}
        self._screens_by_size: dict[tuple[int, int], Screens] = {}
        self._wake = threading.Condition()
        self._dirty = False
        self._idle = True
        self._thread: threading.Thread | None = None
        if threaded:
            self._thread = threading.Thread(target=self._run, name="presenter", daemon=True)
            self._thread.start()

    @classmethod
    def from_settings(
        cls,
        settings: Mapping[str, DisplaySettings | Mapping[str, Any]],
        *,
        lang: str = "en",
        alert_seconds: float = ALERT_SECONDS,
        flash_period: float = 0.5,
        clock: Callable[[], float] = time.monotonic,
        threaded: bool = True,
    ) -> Presenter:
        """Displays from plain settings: side -> luma settings (see `hardware.display`).
        Nothing is opened here: a missing panel is reported when it is first drawn on."""
        displays = {side: Display(side, s, clock=clock) for side, s in settings.items()}
        screens = Screens(lang, alert_seconds=alert_seconds, flash_period=flash_period)
        return cls(displays, screens, clock=clock, threaded=threaded)

    def __repr__(self) -> str:
        return f"<Presenter {', '.join(map(repr, self.displays.values()))}>"

    @property
    def redraws(self) -> int:
        """Images sent to panels so far (all displays)."""
        return sum(d.redraws for d in self.displays.values())

    def show(self, shown: Shown, now: float | None = None) -> None:
        """Shows `shown` (the table, the menu or the enrolment) from now on. Threaded: returns at once; else draws now."""
        with self._wake:
            self._shown = shown
            self._dirty = True
            self._idle = False
            self._wake.notify_all()
        if self._thread is None:
            self.tick(now)

    def tick(self, now: float | None = None) -> float | None:
        """Draws what changed at `now` (a flash phase, an alert that ended); returns when
        the next change by time alone is due. Only without a thread (the thread ticks itself)."""
        if self._thread is not None:
            return None
        return self._update(self._clock() if now is None else now)

    def warm(self) -> int:
        """Draws every sample screen once in memory, for each size of display, and loads
        the score chart's fonts: what a game needs (fonts, glyphs, code) is in memory before
        the daemon says READY, not loaded during the first game (on a Pi Zero, the first
        score on a display waited for a 28-pixel font; and memory measured at READY is what
        an evening of games runs in). The frames drawn; the panels are not touched."""
        chart.warm()
        drawn = 0
        for size in {display.size for display in self.displays.values()}:
            screens = self._screens_for_size(size)
            for name, shown in samples.all_views().items():
                screens.frame(shown, samples.viewer(name, shown), samples.when(name))
                drawn += 1
        return drawn

    def flush(self, timeout: float = 5.0) -> bool:
        """Waits until the latest view is on every panel (tests, benchmarks)."""
        with self._wake:
            return self._wake.wait_for(lambda: self._idle or self._closed, timeout)

    def set_language(self, lang: str) -> None:
        """Draws in `lang` from now on (every panel is drawn again)."""
        with self._wake:
            if lang == self.screens.lang:
                return
            self.screens = dataclasses.replace(self.screens, lang=lang)
            self._screens_by_size.clear()
            self._keys.clear()
            self._dirty = self._shown is not None
            self._idle = not self._dirty
            self._wake.notify_all()

    def _screens_for(self, display: Display) -> Screens:
        return self._screens_for_size(display.size)

    def _screens_for_size(self, size: tuple[int, int]) -> Screens:
        if size == self.screens.size:
            return self.screens
        if size not in self._screens_by_size:
            base = self.screens
            self._screens_by_size[size] = Screens(
                base.lang, base.alert_seconds, base.flash_period, size
            )
        return self._screens_by_size[size]

    def _update(self, now: float) -> float | None:
        shown = self._shown
        if shown is None:
            return None
        playing = shown.active if isinstance(shown, TableView) else None
        active = playing.side if playing is not None else None
        # the active seat first: its live preview is what a player is waiting to see
        order = sorted(self.displays.items(), key=lambda item: item[0] != active)
        for side, display in order:
            screens = self._screens_for(display)
            key = screens.key(shown, side, now)
            if key == self._keys.get(side):
                continue
            try:
                image = screens.frame(shown, side, now)
            except Exception:  # a drawing bug must not stop the other displays or the game
                log.exception("cannot draw the screen of %s", side)
                continue
            self.renders += 1
            display.show(image)
            if display.ok:
                self._keys[side] = key
            else:
                self._keys.pop(side, None)  # draw it again when the panel comes back
        return self.screens.next_change(shown, now)

    def _run(self) -> None:
        due: float | None = None
        while True:
            with self._wake:
                while not self._dirty and not self._closed:
                    if due is not None and self._clock() >= due:
                        break
                    wait = MAX_SLEEP if due is None else min(MAX_SLEEP, due - self._clock())
                    self._wake.wait(max(0.0, wait))
                if self._closed:
                    return
                self._dirty = False
            try:
                due = self._update(self._clock())
            except Exception:
                log.exception("the presenter failed to update the displays")
                due = None
            with self._wake:
                if not self._dirty:
                    self._idle = True
                    self._wake.notify_all()

    def _close(self) -> None:
        """Stops drawing and lets go of the panels, leaving their pictures on."""
        with self._wake:
            self._wake.notify_all()
        if self._thread is not None:
            self._thread.join(timeout=5)
        for display in self.displays.values():
            display.close()
