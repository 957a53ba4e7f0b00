"""The simulated table as the companion sees it: tiles with tags on the squares, a virtual
hub on a real pty, and gpiozero's mock pins for the buttons and the buzzer.

`run --sim`, the demo and the end-to-end tests all use it, so the daemon under test is the
same code that runs on the Pi: only the far end of the serial cable and the pins are made up.
"""

from __future__ import annotations

from collections.abc import Sequence

from gpiozero.pins.mock import MockFactory, MockPWMPin

from companion.board.registry import Registry
from engine import ALL_TILES, SQUARES, Tile
from engine.geometry import GRID
from hardware.device import Device
from hardware.hub.sim import FaultModel, SimTable, VirtualHub, tag_uid


def reader_neighbours(readers: Sequence[str] = SQUARES) -> dict[int, tuple[int, ...]]:
    """Readers next to each other under the board, across an edge or a corner of the grid:
    the ones a tag's crosstalk reaches, and the ones whose fields disturb each other (the
    hub's FIELD_GROUPS keep those apart). The only map of it: the demo, the tests and the
    check of the firmware's groups all use this one."""
    out: dict[int, tuple[int, ...]] = {}
    for i, a in enumerate(readers):
        (r1, c1) = GRID[a]
        out[i] = tuple(
            j
            for j, b in enumerate(readers)
            if j != i and max(abs(r1 - GRID[b][0]), abs(c1 - GRID[b][1])) == 1
        )
    return out


def sim_registry(path=None) -> Registry:
    """Every tile with the tag the simulated table gives it."""
    return Registry(path, {tag_uid(i + 1): tile for i, tile in enumerate(ALL_TILES)})


def mock_pin_factory():
    """gpiozero's own test double, with PWM so the buzzer's tones are recorded."""
    return MockFactory(pin_class=MockPWMPin)


class SimRig(Device):
    """The physical table, simulated, in the game's words: put a tile on a square, lift it."""

    def __init__(
        self,
        faults: FaultModel | None = None,
        *,
        seed: int = 0,
        readers: Sequence[str] = SQUARES,
    ) -> None:
        self.readers = tuple(readers)
        self.reader = {square: i for i, square in enumerate(self.readers)}
        self.table = SimTable(len(self.readers))
        self.hub = VirtualHub(
            self.table,
            faults or FaultModel(),
            seed=seed,
            neighbours=reader_neighbours(self.readers),
        )
        self.registry = sim_registry()
        self.uid = {tile: uid for uid, tile in self.registry.items()}
        self.tile_of = dict(self.registry.items())

    @property
    def port(self) -> str:
        return self.hub.port

    def put(self, square: str, tile: Tile) -> None:
        self.table.put(self.reader[square], self.uid[tile])

    def lift(self, square: str) -> Tile:
        """Takes the top tile off a square."""
        return self.tile_of[self.table.lift(self.reader[square])]

    def remove(self, tile: Tile) -> None:
        """Takes a tile out from wherever it is (a covered one, for the bag clean-up)."""
        self.table.remove(self.uid[tile])

    def stacks(self) -> dict[str, tuple[Tile, ...]]:
        """The truth: square -> tiles bottom to top."""
        return {
            self.readers[i]: tuple(self.tile_of[uid] for uid in stack)
            for i, stack in enumerate(self.table.stacks)
            if stack
        }

    def sweep(self) -> bytes:
        return self.hub.sweep()

    def _close(self) -> None:
        self.hub.close()
