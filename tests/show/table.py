"""The whole daemon on the simulated table, seen through its displays: the real `Daemon` from
`open_devices` (a virtual hub on a real pty, gpiozero mock pins, luma dummy displays), in
simulated time, for the tests of what a family does with the buttons alone.

A press holds the mock pin low for simulated seconds (the buttons' long-press timer runs on
the simulated clock), so a loaded machine cannot turn a long press into a short one.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from PIL import Image, ImageChops

from companion.board.registry import Registry
from companion.config import Config, GameConfig, PathsConfig
from companion.daemon import Daemon
from companion.enrolment import SimPerson
from companion.show.screens import Screens
from companion.sim.clock import SimClock
from companion.sim.devices import SimDevices
from engine import Tile
from hardware.hub.sim import FaultModel

T = Tile.parse
SWEEP = 0.1
LONG_PRESS = 0.5
# real seconds, only for what crosses the pty (the daemon reading a sweep written to it): a
# hang guard, generous, as a loaded machine can starve a process for seconds
WAIT = 60.0
# simulated: a wait that sweeps is bounded in sweeps, the same on any machine (a bound in
# real seconds is thousands of sweeps on a quiet machine and a few dozen on a loaded one)
SWEEPS = 600


#: the start board `FamilyTable.lay_start` lays
START_TILES = {"NW": "star-3", "NE": "heart-5", "SW": "club-1", "SE": "diamond-9"}


class FamilyTable:
    """A table in its lobby (or resuming what its state dir holds), with its daemon."""

    def __init__(
        self,
        folder: Path,
        *,
        config: Config | None = None,
        registry: Registry | None = None,
        person: bool = False,
    ) -> None:
        self.clock = SimClock()
        self.config = config or Config(
            game=GameConfig(long_press=LONG_PRESS), paths=PathsConfig(folder)
        )
        self.sim = SimDevices(self.config, faults=FaultModel(), clock=self.clock, threaded=False)
        self.rig, self.pins, self.devices = self.sim.rig, self.sim.pins, self.sim.devices
        #: the person who puts each tile the enrolment asks for on square NW
        self.person = SimPerson(self.rig, "NW", delay=1) if person else None
        self.daemon = Daemon(
            self.config,
            self.devices,
            registry=self.rig.registry if registry is None else registry,
            clock=self.clock,
            enrol_listeners=[self.person] if self.person else [],
        )
        self.table = self.daemon.table
        self.link = self.devices.link
        self.until(lambda: self.link.health.connected, sweeps=False)
        self.sweep(3)

    def close(self) -> None:
        """The power goes: the displays and the hub go dark, an enrolment's thread ends
        (its marker and the registry saved so far stay on the card)."""
        if self.daemon.enrolment is not None:
            self.daemon.enrolment.close()
        self.devices.close()

    def enrol_step(self) -> None:
        """One sweep in lock step with the enrolment: it acts on every sweep before the
        person does what it asked for and the readers sweep again."""
        enrolment = self.daemon.enrolment
        assert enrolment is not None and self.person is not None
        if not enrolment.settled(WAIT):
            raise AssertionError("the enrolment did not act on its sweeps")
        self.person.act()
        self.sweep()

    def sweep(self, count: int = 1) -> None:
        for _ in range(count):
            self.clock.advance(SWEEP)
            self.rig.sweep()
            deadline = time.monotonic() + WAIT
            while self.daemon.step(0.5) is None:
                if time.monotonic() > deadline:
                    raise AssertionError("the daemon did not read the sweep")

    def until(self, condition: Callable[[], bool], *, sweeps: bool = True) -> None:
        """Sweeps until `condition` holds (at most SWEEPS), or only steps (at most WAIT)."""
        deadline = time.monotonic() + WAIT
        swept = 0
        while not condition():
            if sweeps:
                if swept >= SWEEPS:
                    raise AssertionError("the daemon never got there")
                self.sweep()
                swept += 1
            else:
                if time.monotonic() > deadline:
                    raise AssertionError("the daemon never got there")
                self.daemon.step(0.1)

    def press(self, side: str, long: bool = False) -> None:
        """A person presses the seat's button (held in simulated time); the daemon acts on
        it in the next sweep."""
        self.sim.press(side, LONG_PRESS + 0.1 if long else 0.05)
        self.sweep(1)

    def put(self, square: str, name: str) -> None:
        self.rig.put(square, T(name))
        self.sweep(3)

    def lay_start(self) -> None:
        """The family lays the start board the rules ask for: a tile on each common square
        (a game does not start with one of them empty)."""
        for square, name in START_TILES.items():
            self.rig.put(square, T(name))
        self.sweep(5)

    # -- what the displays show -------------------------------------------------------------
    def image(self, side: str) -> Image.Image:
        """What the dummy panel of `side` shows now."""
        return self.devices.presenter.displays[side].device.image

    def texts(self, side: str) -> list[str]:
        """The texts drawn on `side`'s display, from the frame of what the daemon shows."""
        shown = self.daemon.shown
        lang = self.devices.presenter.screens.lang
        canvas = Screens(lang).canvas(shown, side, self.clock())
        panel = self.image(side).convert("L")
        assert ImageChops.difference(canvas.image.convert("L"), panel).getbbox() is None
        return [text for text, _, _ in canvas.texts]
