"""Enrolment on the simulated table: the person who puts each tile asked for, and the table
read in lock step, so enrolment can be shown and tested end to end."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from typing import Any, Protocol

from companion.enrolment.guide import Prompt
from engine import Tile
from hardware.hub.snapshot import Snapshot


class SimPerson:
    """The person at the simulated table: does what each prompt asks, `delay` sweeps later.

    Tests subclass it and override `respond` to make mistakes (a wrong tile, two tiles)."""

    def __init__(self, rig: Any, square: str, *, delay: int = 2) -> None:
        self.rig = rig  # companion.sim.rig.SimRig
        self.square = square
        self.delay = delay
        self.asked: Tile | None = None
        self._todo: deque[tuple[int, Callable[[], None]]] = deque()

    def __call__(self, prompt: Prompt) -> None:
        if prompt.kind == "put":
            self.asked = prompt.tile
        for action in self.respond(prompt):
            self._todo.append((self.delay, action))

    def respond(self, prompt: Prompt) -> list[Callable[[], None]]:
        """What to do about `prompt` (each action runs in its own later sweep)."""
        if prompt.kind == "put" and prompt.tile is not None:
            tile = prompt.tile
            return [lambda: self.put(tile)]
        if prompt.kind in ("accepted", "duplicate", "clear"):
            return [self.clear]
        if prompt.kind == "collision" and self.asked is not None:
            asked = self.asked
            return [self.clear, lambda: self.put(asked)]
        return []

    def put(self, tile: Tile) -> None:
        self.rig.put(self.square, tile)

    def clear(self) -> None:
        while self.square in self.rig.stacks():
            self.rig.lift(self.square)

    def act(self) -> None:
        """One sweep's worth of the person's time."""
        if not self._todo:
            return
        wait, action = self._todo[0]
        if wait > 0:
            self._todo[0] = (wait - 1, action)
            return
        self._todo.popleft()
        action()


class SimTime(Protocol):
    """The simulated clock (`companion.sim.clock.SimClock`): read it, move it on."""

    def __call__(self) -> float: ...

    def advance(self, seconds: float) -> None: ...


class SimEnrolTable:
    """The simulated table read in lock step: each `read` is one sweep of `seconds`.

    The person acts, the virtual hub sweeps over its pty, and the real `HubLink` reads the
    line, so the enrolment under test reads exactly what it reads from a real hub."""

    def __init__(
        self, rig: Any, link: Any, person: SimPerson, clock: SimTime, *, seconds: float = 0.1
    ) -> None:
        self.rig, self.link, self.person, self.clock = rig, link, person, clock
        self.seconds = seconds

    def read(self, timeout: float) -> Snapshot | None:
        self.person.act()
        self.clock.advance(self.seconds)
        sent = self.rig.sweep()
        # a line sent is on the pty at once (wait generously for it); none sent (the cable
        # pulled): the link only needs a moment to notice and try the port again
        return self.link.read(max(timeout, 0.5) if sent else 0.05)
