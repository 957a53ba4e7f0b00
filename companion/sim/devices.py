"""The daemon's devices on the simulated table, built in one place.

`run --sim`, the demo, the fault suite and the end-to-end benchmark all drive the real
`Daemon` through the real `open_devices`: its `HubLink` reads a virtual hub over a real
pty, the seat buttons and the buzzer are gpiozero mock pins, the displays luma dummies.
With a `SimClock` the daemon and the buttons' long-press timer run in simulated time
(`press` holds a button for simulated seconds); without one, in real time.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from typing import Any

from companion.config import Config
from companion.daemon import Daemon, Devices, open_devices
from companion.sim.clock import SimClock
from companion.sim.rig import SimRig, mock_pin_factory
from hardware.device import Device
from hardware.display import DisplaySettings
from hardware.hub.sim import FaultModel

#: the seat displays of the simulated table: luma's dummy device keeps the last image
DUMMY_DISPLAY = DisplaySettings("dummy")


class SimDevices(Device):
    """A simulated table (`rig`), its mock pins (`pins`) and the daemon's `devices` on it."""

    def __init__(
        self,
        config: Config,
        *,
        faults: FaultModel | None = None,
        seed: int = 0,
        clock: SimClock | None = None,
        threaded: bool = True,
        sides: Iterable[str] | None = None,
        hub_port: str | None = None,
    ) -> None:
        self.config = config
        self.sim_clock = clock
        self.clock = clock or time.monotonic
        self.rig = SimRig(faults, seed=seed, readers=config.hub.readers)
        self.pins: Any = mock_pin_factory()
        sides = config.playing_sides if sides is None else tuple(sides)
        try:
            self.devices: Devices = open_devices(
                config,
                hub_port=hub_port or self.rig.port,
                pin_factory=self.pins,
                clock=self.clock,
                threaded=threaded,
                displays={side: DUMMY_DISPLAY for side in sides},
                timer=None if clock is None else clock.call_later,
            )
        except BaseException:
            self.rig.close()
            raise
        self.devices.closers.append(self.rig.close)

    def daemon(self, config: Config | None = None, **options: Any) -> Daemon:
        """The daemon on these devices, with the simulated table's tile registry."""
        return Daemon(
            config or self.config,
            self.devices,
            registry=self.rig.registry,
            clock=self.clock,
            **options,
        )

    def press(self, side: str, seconds: float) -> None:
        """A finger on the seat's button for `seconds` (simulated ones, with a SimClock):
        gpiozero calls the button's handlers before each drive returns."""
        pin = self.pins.pin(self.config.seats[side].button_pin)
        pin.drive_low()
        if self.sim_clock is not None:
            self.sim_clock.advance(seconds)
        else:
            time.sleep(seconds)
        pin.drive_high()

    def _close(self) -> None:
        self.devices.close()
