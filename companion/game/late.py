"""A tile that shows up just after a turn, on a stack the readers hardly see through.

On a stack of five or more the readers see the top about one sweep in ten, so a tile laid
there and missed while it was put down can pass the readings that confirm a press (about one
turn in 500 to 1,000 games on the soak's readers, docs/daemon.md). It shows up a few seconds
later, when the turn is already scored. The table cannot tell whose tile it is, but it can
say that the last score may be wrong: if the tile, had it been laid in the turn just scored,
would have made that turn a legal placement, every display asks the player of that turn to
check it (and to hold their button to take the turn back if it was theirs). A score that may
be wrong is never shown as if it were sure.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.board.tracker import TALL_STACK
from engine import SQUARES, Board, Game, Tile, score_placement

#: how long after a turn a tile showing up on a tall stack is taken for one that turn may
#: have missed: the top of such a stack shows one sweep in ten, so within 5 s (40 to 100
#: sweeps) such a tile shows 98 to 99.99 times in 100; a tile showing later is most likely a
#: later player's, and a longer watch would take more of theirs for a missed one
LATE_SECONDS = 5.0


@dataclass(frozen=True, slots=True)
class LateTile:
    """`tile` showed up on `square` just after the turn of `side` (whose colour is `colour`)
    was scored, and would have been a legal part of it: was it laid in that turn?"""

    side: str
    colour: str
    square: str
    tile: Tile


@dataclass(frozen=True, slots=True)
class LateWatch:
    """What the table watches after a turn: the squares whose readings could not rule out a
    tile laid unseen, until `until` or until another move is made."""

    side: str
    colour: str
    moves: int  # the game's moves once the turn was made: any other move ends the watch
    before: Board  # the board the turn was played on
    placement: tuple[tuple[str, Tile], ...]
    squares: frozenset[str]
    until: float

    @classmethod
    def after(
        cls,
        game: Game,
        before: Board,
        placement: tuple[tuple[str, Tile], ...],
        side: str,
        colour: str,
        now: float,
    ) -> LateWatch | None:
        """The watch after `side`'s turn just made in `game` (None: no stack it could hide
        a tile on: one more tile on each would still leave it under TALL_STACK)."""
        board = game.board
        squares = frozenset(s for s in SQUARES if len(board.stack(s)) >= TALL_STACK - 1)
        if not squares:
            return None
        return cls(side, colour, len(game.moves), before, placement, squares, now + LATE_SECONDS)

    def current(self, game: Game, now: float) -> bool:
        return now < self.until and len(game.moves) == self.moves

    def suspect(self, believed: Board, game: Game) -> LateTile | None:
        """A tile believed on a watched square that the game does not have, and that would
        have been a legal part of the watched turn."""
        for square in sorted(self.squares):
            for tile in believed.stack(square):
                if tile in game.board:
                    continue
                placement = (*self.placement, (square, tile))
                result = score_placement(
                    self.before, placement, game.seating, self.side, game.options
                )
                if result.legal:
                    return LateTile(self.side, self.colour, square, tile)
        return None
