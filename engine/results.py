"""What the engine answers: a scored placement, or an illegal move with a reason.

Illegal moves are results, not exceptions: a stable code for programs (and translations)
plus a sentence a child can read.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.tiles import Tile

#: code -> what it means, for documentation and translators.
ILLEGAL_CODES: dict[str, str] = {
    "not-one-set": "the placed tiles do not all lie in one set",
    "forbidden-square": "a tile was placed on another player's bonus square",
    "too-many-tiles": "more than 8 tiles were placed in one turn",
    "no-tiles": "a placement without any tile",
    "tile-on-board": "a placed tile is already on the board",
    "duplicate-tile": "the same tile was placed twice",
    "unknown-square": "a square name that is not on the board",
    "bad-tile": "a text that is not a tile",
    "game-over": "the game has already ended",
    "bad-input": "the request itself is malformed",
}


@dataclass(frozen=True, slots=True)
class Illegal:
    """Why a move is not allowed. `tiles` and `squares` name what the sentence is about."""

    code: str
    message: str
    tiles: tuple[Tile, ...] = ()
    squares: tuple[str, ...] = ()

    legal = False

    def __post_init__(self) -> None:
        if self.code not in ILLEGAL_CODES:
            raise ValueError(f"unknown illegal-move code {self.code!r}")

    def __str__(self) -> str:
        return f"{self.code}: {self.message}"

    def to_json(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "message": self.message,
            "tiles": [str(t) for t in self.tiles],
            "squares": list(self.squares),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Illegal:
        return cls(
            data["code"],
            data["message"],
            tuple(Tile.parse(t) for t in data["tiles"]),
            tuple(data["squares"]),
        )


@dataclass(frozen=True, slots=True)
class ScoredSet:
    """One set through a newly placed tile: same `rank`, or a `run` of one suit (by rank)."""

    kind: str
    tiles: tuple[Tile, ...]

    def __str__(self) -> str:
        if self.kind == "run":
            return f"{self.tiles[0].suit} {self.tiles[0].rank}-{self.tiles[-1].rank}"
        return f"{len(self.tiles)}x{self.tiles[0].rank}"

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "tiles": [str(t) for t in self.tiles]}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ScoredSet:
        return cls(data["kind"], tuple(Tile.parse(t) for t in data["tiles"]))


@dataclass(frozen=True, slots=True)
class Scoring:
    """A legal placement: the active player's points and everyone else's bonus points."""

    active: str
    points: int
    bonus: dict[str, int] = field(default_factory=dict)  # only players who got some
    scored: tuple[Tile, ...] = ()  # the union of all sets through a new tile, sorted
    sets: tuple[ScoredSet, ...] = ()
    placed: tuple[tuple[str, Tile], ...] = ()

    legal = True

    def __str__(self) -> str:
        bonus = "".join(f", {side} +{n} bonus" for side, n in sorted(self.bonus.items()))
        return f"{self.active} +{self.points}{bonus}"
