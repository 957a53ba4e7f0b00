"""A tile that shows up just after a turn, on a stack the readers hardly see through.

Where the readers could not confirm a tile laid on top (a tall stack, a height no tile was
read at yet: `Tracker.dark`), a press does not wait for them: the player to move was told to
show such a tile to a reader first (docs/family.md). A tile laid there unshown may still
show up a few seconds later, when the turn is already scored. The table cannot tell whose tile it is, but the
player of that turn can: if the tile, had it been laid in the turn just scored, would have
made that turn a legal placement, that player's display asks them until the next move (and
to hold their button to take the turn back if it was theirs). The next player plays on
meanwhile; no one else is disturbed, since most such tiles are simply the next player's.
A score that may be wrong is never shown as if it were sure.

A laying the readers missed on a low stack (its top read now and then, the press confirmed
on sweeps it was not) is watched for too, on every square the player could lay on, but only
for LATE_QUICK_SECONDS: any later, a new tile is the next player's.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from engine import Board, Game, Tile, score_placement

#: for how many sweeps after a turn a tile showing up on a tall stack is taken for one that
#: turn may have missed: the top of such a stack shows one sweep in ten, so within 40 sweeps
#: (3 to 5 s) such a tile shows 98.5 times in 100; a tile showing later is most likely a
#: later player's, and a longer watch would take more of theirs for a missed one
LATE_SWEEPS = 40

#: for how long after a turn a tile showing up on any square its player could lay on is
#: taken for one that turn may have missed: a laying the readers missed (a stack's top read
#: one sweep in three, the press confirmed on the sweeps it was not) shows within a sweep
#: or two of the turn's end, while the next player has only just been told it is their turn
LATE_QUICK_SECONDS = 1.5


@dataclass(frozen=True, slots=True)
class LateTile:
    """`tile` showed up on `square` just after the turn of `side` (whose colour is `colour`)
    was scored, and would have been a legal part of it: was it laid in that turn? A notice
    of the table's view (`companion.game.view.Notice`)."""

    kind: ClassVar[str] = "late-tile"

    side: str
    colour: str
    square: str
    tile: Tile

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "side": self.side,
            "colour": self.colour,
            "square": self.square,
            "tile": str(self.tile),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> LateTile:
        return cls(data["side"], data["colour"], data["square"], Tile.parse(data["tile"]))


@dataclass(frozen=True, slots=True)
class LateWatch:
    """What the table watches after a turn: the squares whose readings could not rule out a
    tile laid unseen, until `until` or until another move is made; and for the first
    LATE_QUICK_SECONDS (until `quick_until`), every square the player could lay on
    (`quick`)."""

    side: str
    colour: str
    moves: int  # the game's moves once the turn was made: any other move ends the watch
    before: Board  # the board the turn was played on
    placement: tuple[tuple[str, Tile], ...]
    squares: frozenset[str]
    until: int  # the tracker's sweep count at which the watch ends
    quick: frozenset[str] = frozenset()
    quick_until: float = float("-inf")  # the clock time at which the quick watch ends

    @classmethod
    def after(
        cls,
        game: Game,
        before: Board,
        placement: tuple[tuple[str, Tile], ...],
        side: str,
        colour: str,
        sweeps: int,
        dark: frozenset[str] = frozenset(),
        now: float = float("-inf"),
    ) -> LateWatch | None:
        """The watch after `side`'s turn just made in `game` at `now`, over the squares
        where the readers could not confirm a tile laid on top when it was pressed (`dark`,
        `Tracker.dark`: a tall stack, a height no tile was read at yet), and for a moment
        over every square `side` may lay on; None: nothing to watch."""
        quick = frozenset(game.seating.allowed(side, game.options.partner_squares))
        if not dark and not quick:
            return None
        return cls(
            side,
            colour,
            len(game.moves),
            before,
            placement,
            frozenset(dark),
            sweeps + LATE_SWEEPS,
            quick,
            now + LATE_QUICK_SECONDS,
        )

    def current(self, game: Game, sweeps: int, now: float) -> bool:
        """`sweeps`: the tracker's sweep count now; `now`: the clock."""
        watching = sweeps < self.until and bool(self.squares) or now < self.quick_until
        return watching and len(game.moves) == self.moves

    def suspect(
        self, believed: Board, game: Game, now: float, told: frozenset[Tile] = frozenset()
    ) -> LateTile | None:
        """A tile believed on a watched square that the game does not have, and that would
        have been a legal part of the watched turn (not one of `told`, already asked)."""
        watched = self.squares | (self.quick if now < self.quick_until else frozenset())
        for square in sorted(watched):
            for tile in believed.stack(square):
                if tile in game.board or tile in told:
                    continue
                placement = (*self.placement, (square, tile))
                result = score_placement(
                    self.before, placement, game.seating, self.side, game.options
                )
                if result.legal:
                    return LateTile(self.side, self.colour, square, tile)
        return None
