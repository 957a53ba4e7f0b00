"""The whole daemon on the simulated table, for the fault suite.

The real `Daemon` from `open_devices`: its own `HubLink` reads a virtual hub over a real pty,
the seat buttons are gpiozero mock pins, the displays luma dummies. Sweeps are lock-step
(`sweep()` writes one line and steps the daemon once) in simulated time, so a test decides
what the readers see and when, and nothing depends on this machine's speed.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path

from companion.config import Config, GameConfig, PathsConfig
from companion.game.journal import Journal, start_record
from companion.sim.clock import SimClock
from companion.sim.devices import SimDevices
from engine import Board, Game, Tile
from hardware.hub.sim import FaultModel

T = Tile.parse
SWEEP = 0.1
LONG_PRESS = 0.3
# real seconds, only for what crosses the pty (the daemon reading a line written to it): a
# hang guard, generous, as a loaded machine can starve a process for seconds
WAIT = 60.0
# simulated: every wait that sweeps is bounded in sweeps, the same on any machine (10 s of
# real time was 2,000 sweeps on a quiet machine and under 100 on a loaded one, where a test
# that needed 30 failed); the longest wait of the fault suite takes 30
SWEEPS = 600
START = {"NW": "star-1", "NE": "heart-5", "SW": "club-9", "SE": "spade-7"}


def start_board(tiles: Mapping[str, str] = START) -> Board:
    return Board({square: [T(name)] for square, name in tiles.items()})


class Table:
    """A table with its daemon. `playing=True` resumes a game of S and N just started on
    `START` (as after a restart); otherwise the daemon opens a lobby on that board."""

    def __init__(
        self,
        folder: Path,
        *,
        faults: FaultModel | None = None,
        seed: int = 0,
        playing: bool = True,
        players: tuple[str, ...] = ("S", "N"),
    ) -> None:
        self.clock = SimClock()
        self.config = Config(game=GameConfig(long_press=LONG_PRESS), paths=PathsConfig(folder))
        self.journal = Journal(self.config.paths.journal)
        if playing:
            self.journal.append(start_record(Game(players, board=start_board())))
        self.sim = SimDevices(
            self.config, faults=faults or FaultModel(), seed=seed, clock=self.clock, threaded=False
        )
        self.rig, self.pins, self.devices = self.sim.rig, self.sim.pins, self.sim.devices
        for square, name in START.items():
            self.rig.put(square, T(name))
        self.daemon = self.sim.daemon()
        self.table = self.daemon.table
        self.link = self.devices.link
        self.hub = self.rig.hub
        self.until(lambda: self.link.health.connected, sweeps=False)
        self.sweep(5)

    def close(self) -> None:
        self.devices.close()

    # -- time and the readers ---------------------------------------------------------------
    def sweep(self, count: int = 1) -> None:
        """`count` sweeps of the readers, each read by the daemon before the next."""
        for _ in range(count):
            self.clock.advance(SWEEP)
            line = self.rig.sweep()
            if not line:  # unplugged: no sweep, only time passes
                self.daemon.step(0.0)
            elif not self.link.health.connected:  # (re)opening: the port drops what waited
                self.daemon.step(0.2)
            elif not self.step_until_read():
                raise AssertionError(f"the daemon did not read the sweep {line!r}")

    def step_until_read(self) -> bool:
        """Steps until the daemon took the snapshot waiting on the wire, or the hub was lost
        or came back meanwhile (a port opened again drops what waited on the old one, as a
        real replug does: only time passed). How soon a replug happens depends on the
        machine's speed, so a sweep written just before one is not a failure."""
        before = self.link.health.reconnects
        deadline = time.monotonic() + WAIT
        while time.monotonic() < deadline:
            if self.daemon.step(0.5) is not None:
                return True
            health = self.link.health
            if not health.connected or health.reconnects != before:
                return True
        return False

    def until(self, condition: Callable[[], bool], *, sweeps: bool = True) -> None:
        """Sweeps until `condition` holds, AssertionError after SWEEPS sweeps; or (`sweeps`
        false) only steps the daemon, AssertionError after WAIT real seconds."""
        deadline = time.monotonic() + WAIT
        swept = 0
        while not condition():
            if sweeps:
                if swept >= SWEEPS:
                    raise AssertionError(f"the daemon never got there: {self.link.health}")
                self.sweep()
                swept += 1
            else:
                if time.monotonic() > deadline:
                    raise AssertionError(f"the daemon never got there: {self.link.health}")
                self.daemon.step(0.1)

    def drain(self, lines: Callable[[], bool]) -> None:
        """Steps (no sweeps) until `lines()` says the daemon has read what was written."""
        self.until(lines, sweeps=False)

    def put(self, square: str, name: str) -> None:
        self.rig.put(square, T(name))
        self.sweep(3)

    def lift(self, square: str) -> None:
        self.rig.lift(square)
        self.sweep(1)

    def press(self, side: str, long: bool = False, *, sweep: bool = True) -> None:
        """A person presses the seat's button (held in simulated time); the daemon acts on
        it with the next sweep, or at once without one."""
        self.sim.press(side, LONG_PRESS + 0.1 if long else 0.05)
        if sweep:
            self.sweep(1)
        else:
            self.daemon.step(0.0)

    # -- what the daemon believes -----------------------------------------------------------
    @property
    def scores(self) -> dict[str, int]:
        assert self.table.game is not None
        return self.table.game.scores

    @property
    def moves(self) -> int:
        assert self.table.game is not None
        return len(self.table.game.moves)

    def placement(self) -> set[tuple[str, Tile]]:
        return set(self.table.tracker.placement)

    def problems(self) -> set[tuple[str, str | None]]:
        return {(p.code, p.square) for p in self.table.tracker.problems(self.clock())}

    def shown(self) -> set[tuple[str, str | None]]:
        """The problems on the displays (the view every seat is drawn from)."""
        view = self.daemon.view
        assert view is not None
        return {(n.code, n.square) for n in view.notices if hasattr(n, "code")}

    def settled(self, placement: Iterable[tuple[str, str]]) -> bool:
        want = {(square, T(name)) for square, name in placement}
        return self.placement() == want and not self.table.tracker.blocking(self.clock())

    def journal_bytes(self) -> bytes:
        path = self.config.paths.journal
        return path.read_bytes() if path.exists() else b""


class Feeder(threading.Thread):
    """Writes bytes to the hub's end of the cable from a thread, waiting whenever the hub's
    buffer is full, so a flood reaches the daemon whole while the test steps it."""

    def __init__(self, write: Callable[[bytes], bool], chunks: Iterable[bytes]) -> None:
        super().__init__(name="feeder", daemon=True)
        self._write = write
        self._chunks = list(chunks)
        self.error: str | None = None

    def run(self) -> None:
        deadline = time.monotonic() + 60
        for chunk in self._chunks:
            while not self._write(chunk):
                if time.monotonic() > deadline:
                    self.error = "the daemon stopped reading"
                    return
                time.sleep(0.0005)
