"""The bag clean-up watch: once the bag is empty, the covered tiles go back to it, and each
square that had some is watched until it reads only its top tile for a while (the tracker
runs it: `Tracker.start_cleanup`, `Tracker.cleanup_done`)."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass

from companion.board.reading import Sweep
from engine import SQUARES, Tile

log = logging.getLogger("setup.tracker")


@dataclass(slots=True)
class _Covered:
    """A square whose covered tiles must go back to the bag: is only its top tile read?"""

    top: Tile
    covered: frozenset[Tile]
    clean: int = 0  # readings of exactly the top tile since the last contradicting one
    since: float = 0.0  # when that run of clean readings began
    done: bool = False


class Cleanup:
    """Watches every square whose scored stack covers tiles."""

    def __init__(self, scored: Sequence[Sequence[Tile]], now: float) -> None:
        """`scored`: each square's scored tiles, bottom first."""
        self._squares = {
            i: _Covered(stack[-1], frozenset(stack[:-1]), since=now)
            for i, stack in enumerate(scored)
            if len(stack) > 1
        }

    @property
    def done(self) -> bool:
        """Every square that had covered tiles has read only its top tile for a while."""
        return all(c.done for c in self._squares.values())

    def watch(self, sweep: Sweep, now: float, sweeps: int, seconds: float) -> None:
        """One more sweep: a square is done once it read exactly its top tile `sweeps` times
        in a row, over `seconds` at least."""
        for i, square in self._squares.items():
            reading = sweep.readings[i]
            if square.done or reading is None:
                continue
            if reading.collision or reading.tiles & square.covered:
                square.clean = 0
            elif reading.exactly([square.top]):
                if square.clean == 0:
                    square.since = now
                square.clean += 1
                if square.clean >= sweeps and now - square.since >= seconds:
                    square.done = True
                    log.info("square %s reads only its top tile %s", SQUARES[i], square.top)
