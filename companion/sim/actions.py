"""A person's actions at the simulated table, through the web companion: put a tile down, lift
the top tile of a square, press a seat's button, pull the hub's cable, choose how badly the
readers read. `run --sim` gives these to the daemon's `Publisher` as request handlers.

Every action goes where the real one would: a tile onto the simulated table in front of the
readers (the daemon only learns of it from the hub's sweeps), a press onto gpiozero's mock pin
of that seat's button (the real `SeatButtons` tell short from long), the cable out of the
virtual hub. Nothing reaches the game by a side door.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable, Mapping
from typing import Any

from companion.daemon.publish import Handler, RequestError
from companion.game.published import SimTruth
from companion.game.sounds import Sound
from companion.sim.rig import SimRig
from engine import SIDES, Tile, TileError
from hardware.hub.sim import FaultModel

#: the readers' fault profiles a person can choose
PROFILES: dict[str, Callable[[], FaultModel]] = {
    "none": FaultModel,
    "realistic": FaultModel.realistic,
    "noisy": lambda: FaultModel(
        miss_rate=0.08,
        covered_unreadable=0.9,
        top_unreadable=0.5,
        stack_collision=0.35,
        stack_bottom_only=0.2,
        stack_nothing=0.15,
        settle_sweeps=3,
        crosstalk_rate=0.04,
        corrupt_rate=0.01,
    ),
}
#: the buzzer's last sounds the page says in words, for this long
HEARD = 3
HEARD_SECONDS = 4.0
#: a long press is held this much longer than the config's long press
LONG_MARGIN = 0.3
#: between the release of a press and the next press of the same button
RELEASE_GAP = 0.1


class SimActions:
    """A person's actions on `rig`, for the daemon whose buttons read `pins` (seat -> mock
    pin), as the web companion's request handlers."""

    def __init__(
        self, rig: SimRig, pins: Mapping[str, Any], long_press: float, profile: str
    ) -> None:
        self.rig = rig
        self.pins = dict(pins)
        self.long_press = long_press
        self.profile = profile
        self._lock = threading.Lock()
        self._free_at: dict[str, float] = {}  # seat -> when its button is released
        #: what the buzzer played lately (when, what): nobody hears it, the page says it
        self._heard: deque[tuple[float, Sound]] = deque(maxlen=HEARD)

    def handlers(self) -> dict[str, Handler]:
        return {
            "put": self.put,
            "lift": self.lift,
            "press": self.press,
            "cable": self.cable,
            "faults": self.faults,
        }

    def truth(self) -> SimTruth:
        """The truth of the simulated table, for the page (the daemon's belief is beside it)."""
        recent = time.monotonic() - HEARD_SECONDS
        return SimTruth(
            tuple(self.rig.stacks().items()),
            self.rig.hub.plugged,
            self.profile,
            tuple(PROFILES),
            tuple(sound for at, sound in self._heard if at >= recent),
        )

    def heard(self, sound: Sound) -> None:
        """The daemon played `sound` on the simulated buzzer (on the daemon's loop)."""
        self._heard.append((time.monotonic(), sound))

    def _square(self, request: Mapping[str, Any]) -> str:
        square = request.get("square")
        if square not in self.rig.reader:
            raise RequestError(f"{square!r} is not a square of this table")
        return square

    def put(self, request: Mapping[str, Any], now: float) -> None:
        square = self._square(request)
        try:
            tile = Tile.parse(request.get("tile"))
        except TileError as exc:
            raise RequestError(str(exc)) from None
        if self.rig.table.where(self.rig.uid[tile]) is not None:
            raise RequestError(f"{tile} is already on the table: lift it first")
        self.rig.put(square, tile)

    def lift(self, request: Mapping[str, Any], now: float) -> dict[str, Any]:
        square = self._square(request)
        if square not in self.rig.stacks():
            raise RequestError(f"there is no tile on {square}")
        return {"tile": str(self.rig.lift(square))}

    def press(self, request: Mapping[str, Any], now: float) -> None:
        seat = request.get("seat")
        if seat not in SIDES:
            raise RequestError(f"{seat!r} is not a seat; seats are {', '.join(SIDES)}")
        pin = self.pins.get(seat)
        if pin is None:
            raise RequestError(f"the seat {seat} has no button")
        hold = self.long_press + LONG_MARGIN if request.get("long") else 0.1
        # a press while the last one is still held (a long press) comes after its release,
        # as a finger would: pressing a held button again does nothing
        with self._lock:
            start = max(time.monotonic(), self._free_at.get(seat, 0.0) + RELEASE_GAP)
            self._free_at[seat] = start + hold
        threading.Thread(
            target=self._hold, args=(pin, start, hold), name=f"sim-press-{seat}", daemon=True
        ).start()

    @staticmethod
    def _hold(pin: Any, start: float, hold: float) -> None:
        time.sleep(max(0.0, start - time.monotonic()))
        pin.drive_low()  # the button goes to ground: pressed
        time.sleep(hold)
        pin.drive_high()

    def cable(self, request: Mapping[str, Any], now: float) -> None:
        if request.get("plugged"):
            self.rig.hub.replug()
        else:
            self.rig.hub.unplug()

    def faults(self, request: Mapping[str, Any], now: float) -> None:
        profile = request.get("profile")
        if profile not in PROFILES:
            raise RequestError(f"{profile!r} is not a profile; choose {', '.join(PROFILES)}")
        self.rig.hub.faults = PROFILES[profile]()
        self.profile = profile
