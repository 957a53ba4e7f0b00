"""What one reader said in one sweep, in the game's words: a typed value instead of the
hub's status string and tag list.

A `Reading` is what the square's reader reported: the tiles it read (enrolled tags only),
nothing, or a collision. A reader in fault gives no reading at all (`None` in a `Sweep`).
A `Sweep` is all twelve squares' readings of one snapshot, with where each tile was seen
and which squares saw unknown tags, built once and handed to every part of the belief.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from engine import SQUARES, Tile
from hardware.hub.snapshot import Snapshot


class Kind(StrEnum):
    """What a reader reported, one spelling each (the hub protocol's statuses)."""

    TILES = "ok"  # it read tags (perhaps only unknown ones)
    NOTHING = "empty"
    COLLISION = "collision"

    def __repr__(self) -> str:  # evaluates back, as the values that hold it
        return f"{type(self).__name__}.{self.name}"


@dataclass(frozen=True, slots=True)
class Reading:
    """One square's reading in one sweep: its kind and the enrolled tiles it read."""

    kind: Kind
    tiles: frozenset[Tile] = frozenset()

    @classmethod
    def of(cls, *tiles: Tile) -> Reading:
        return cls(Kind.TILES, frozenset(tiles))

    @property
    def answered(self) -> bool:
        """It read at least one tile: the square's reader is not silent."""
        return bool(self.tiles)

    @property
    def nothing(self) -> bool:
        return self.kind is Kind.NOTHING

    @property
    def collision(self) -> bool:
        return self.kind is Kind.COLLISION

    def shows(self, tile: Tile) -> bool:
        return tile in self.tiles

    def exactly(self, stack: Sequence[Tile]) -> bool:
        """It read every tile of `stack` and nothing else (an empty square: nothing)."""
        if not stack:
            return self.kind is Kind.NOTHING
        return self.kind is Kind.TILES and self.tiles == frozenset(stack)

    def __str__(self) -> str:
        if self.kind is Kind.TILES:
            return ",".join(sorted(map(str, self.tiles))) or "?"
        return "-" if self.kind is Kind.NOTHING else "C"


NOTHING = Reading(Kind.NOTHING)
COLLISION = Reading(Kind.COLLISION)


@dataclass(frozen=True, slots=True)
class Sweep:
    """One snapshot in the game's words: a reading per square (`None`: the reader is in
    fault, or named faulty by the link), the squares each tile was seen on (reader order),
    the squares whose reader reported a fault, and unknown tags by square."""

    readings: tuple[Reading | None, ...]
    seen: Mapping[Tile, tuple[int, ...]]
    faults: frozenset[int] = frozenset()
    unknown: Mapping[int, tuple[str, ...]] = field(default_factory=dict)

    @classmethod
    def read(
        cls,
        snapshot: Snapshot,
        tile_of: Callable[[str], Tile | None],
        square_of_reader: Sequence[int],
        ignored: Iterable[int] = (),
    ) -> Sweep:
        """The sweep of `snapshot`: `tile_of` names a tag's tile (None: unknown tag),
        `square_of_reader` maps reader numbers to squares, `ignored` squares (a reader the
        link says is faulty) give no reading."""
        ignored = frozenset(ignored)
        readings: list[Reading | None] = [None] * len(SQUARES)
        seen: dict[Tile, list[int]] = {}
        faults: set[int] = set()
        unknown: dict[int, tuple[str, ...]] = {}
        for reader, raw in enumerate(snapshot.readers[: len(square_of_reader)]):
            i = square_of_reader[reader]
            if raw.status == "fault":
                faults.add(i)
                continue
            if i in ignored:
                continue
            tiles = set()
            for uid in raw.uids:
                tile = tile_of(uid)
                if tile is None:
                    unknown[i] = (*unknown.get(i, ()), uid)
                    continue
                tiles.add(tile)
                seen.setdefault(tile, []).append(i)
            readings[i] = Reading(Kind(raw.status), frozenset(tiles))
        return cls(
            tuple(readings),
            {t: tuple(squares) for t, squares in seen.items()},
            frozenset(faults),
            unknown,
        )

    def reading(self, i: int) -> Reading | None:
        return self.readings[i]

    def __str__(self) -> str:
        return " ".join(
            f"{SQUARES[i]}={'F' if r is None else r}" for i, r in enumerate(self.readings)
        )
