"""Everything the daemon drives, opened from the config: the hub link, the seat displays
(through the presenter), the seat buttons and the buzzer (through the sounds).

A device that is missing is reported in the log and the daemon goes on without it. The
buttons put each press, with its time, into the daemon's one input queue (`Devices.inbox`,
`companion.daemon.events`), whose every event wakes the loop's wait on the hub link.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from companion.config import Config
from companion.daemon.events import Inbox, Press
from companion.show.presenter import Presenter
from companion.show.tunes import Sounds
from hardware.buttons import SeatButtons, Timer, thread_timer
from hardware.buzzer import TunePlayer
from hardware.display import DisplaySettings
from hardware.hub.link import HubLink

log = logging.getLogger("setup.daemon")


@dataclass
class Devices:
    """Everything the daemon drives; each part closes cleanly and may be absent."""

    link: HubLink
    presenter: Presenter
    sounds: Sounds
    buttons: SeatButtons | None = None  # None: they could not be opened (logged)
    closers: list[Callable[[], Any]] = field(default_factory=list)  # buzzer, sim hub
    clock: Callable[[], float] = time.monotonic
    #: the daemon's one input queue: every event put in it wakes the loop's wait on the hub
    inbox: Inbox = field(init=False)

    def __post_init__(self) -> None:
        self.inbox = Inbox(wake=self.link.wake)

    def press(self, seat: str, long: bool, at: float) -> None:
        """A button press (from gpiozero's thread) at `at`, for the daemon's loop; a long
        one with the other buttons held down at that moment."""
        together = frozenset()
        if long and self.buttons is not None:
            together = self.buttons.held() - {seat}
        self.inbox.put(Press(seat, long, at, together))

    def close(self) -> None:
        buttons = () if self.buttons is None else (self.buttons.close,)
        for close in (
            self.presenter.close,
            self.sounds.close,
            *buttons,
            *reversed(self.closers),
            self.link.close,
        ):
            try:
                close()
            except Exception as exc:  # closing must go on for the others
                log.warning("while closing: %s", exc)


def open_devices(
    config: Config,
    *,
    hub_port: str | None = None,
    pin_factory: Any = None,
    clock: Callable[[], float] = time.monotonic,
    threaded: bool = True,
    displays: dict[str, DisplaySettings] | None = None,
    timer: Timer | None = None,
) -> Devices:
    """Opens the hub link, displays, buttons and buzzer from the config. A device that is
    missing is reported in the log and the daemon goes on without it. `clock` and `timer`
    are the buttons' time (simulated on the simulated table)."""
    link = HubLink(hub_port or config.hub.port, clock=clock)
    link.open()
    seats = {side: seat for side, seat in config.seats.items() if seat.enabled}
    settings = displays or {side: seat.display for side, seat in seats.items()}
    presenter = Presenter.from_settings(
        settings, lang=config.game.language, clock=clock, threaded=threaded
    )
    closers: list[Callable[[], Any]] = []
    buzzer = None
    if config.sound.buzzer_pin is not None:
        try:
            buzzer = TunePlayer(config.sound.buzzer_pin, pin_factory=pin_factory)
            closers.append(buzzer.close)
        except Exception as exc:  # no GPIO (a PC), pin busy: play on without sound
            log.error(
                "no buzzer on pin %s: %s; the game goes on silently", config.sound.buzzer_pin, exc
            )
    sounds = Sounds(buzzer, config.sound, language=config.game.language)
    devices = Devices(link, presenter, sounds, closers=closers, clock=clock)
    pins = {side: seat.button_pin for side, seat in seats.items() if seat.button_pin is not None}
    try:
        devices.buttons = SeatButtons(
            pins,
            long_press=config.game.long_press,
            pin_factory=pin_factory,
            clock=clock,
            timer=timer or thread_timer,
            on_press=devices.press,
        )
    except Exception as exc:
        named = ", ".join(f"{side} on GPIO{pin}" for side, pin in pins.items())
        log.error("cannot open the seat buttons (%s): %s", named, exc)
    return devices
