"""A game: seats in turn order, scores, the bag, and moves with exact undo.

Like python-chess's `Board`, a `Game` is changed by moves (`place`, `swap`,
`return_covered`) and `pop()` takes the last one back, restoring the exact prior state,
scores included. An illegal placement changes nothing and the same player moves again.

The companion sees the board but not the hands, so hands are a count: after a placement the
hands are refilled from the bag, which makes the hands `min(capacity, 50 - tiles on the
board)` and the bag what is left. When the bag runs empty with covered tiles on the board,
`needs_return` asks the players to put the covered tiles back in the bag.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import ClassVar

from engine.board import Board
from engine.options import Options
from engine.results import Illegal, Scoring
from engine.scoring import Pairs, score_placement
from engine.seating import Seating
from engine.tiles import TILE_COUNT, Tile

HAND_SIZE = 4


@dataclass(frozen=True, slots=True)
class Placed:
    """A turn in which the active player placed tiles, and what they scored."""

    scoring: Scoring
    kind: ClassVar[str] = "place"  # the move's name in JSON and the journal

    @property
    def side(self) -> str:
        return self.scoring.active

    def __str__(self) -> str:
        return str(self.scoring)


@dataclass(frozen=True, slots=True)
class Swapped:
    """A turn without placing: the player swapped tiles with the bag, or passed."""

    side: str
    kind: ClassVar[str] = "swap"

    def __str__(self) -> str:
        return f"{self.side} swaps"


@dataclass(frozen=True, slots=True)
class Returned:
    """The covered tiles went back into the empty bag. Not a turn: nobody moved."""

    returned: tuple[Tile, ...]
    kind: ClassVar[str] = "return"

    def __str__(self) -> str:
        return f"{len(self.returned)} covered tiles back to the bag"


#: One thing that happened to the game, with what it did.
Move = Placed | Swapped | Returned


@dataclass(frozen=True, slots=True)
class _State:
    board: Board
    scores: tuple[tuple[str, int], ...]
    turn: int  # index into players of the active player
    turns_taken: tuple[int, ...]
    last_placed: tuple[int, ...]  # per player: move number of their latest placement, -1 never
    moves_made: int
    finish_reached: bool = False
    finished: bool = False


@dataclass(frozen=True, slots=True)
class Ranking:
    """The final (or current) order of the players and who wins."""

    order: tuple[str, ...]  # best first
    winner: str | None  # None when the tie-break cannot decide
    winner_team: int | None = None


class Game:
    def __init__(
        self,
        players: Sequence[str] | Seating,
        teams: Iterable[Iterable[str]] | None = None,
        options: Options | Mapping | None = None,
        board: Board | None = None,
    ) -> None:
        self.seating = players if isinstance(players, Seating) else Seating.of(players, teams)
        self.options = options if isinstance(options, Options) else Options.from_mapping(options)
        n = len(self.seating.players)
        self._state = _State(
            board=board or Board(),
            scores=tuple((side, 0) for side in self.seating.players),
            turn=0,
            turns_taken=(0,) * n,
            last_placed=(-1,) * n,
            moves_made=0,
        )
        # the moves, and the state before each, to undo them
        self._moves: list[Move] = []
        self._before: list[_State] = []

    def __repr__(self) -> str:
        return f"<Game {'/'.join(self.players)} {self.scores} active={self.active} moves={len(self._moves)}>"

    # -- the state ------------------------------------------------------------------------
    @property
    def players(self) -> tuple[str, ...]:
        return self.seating.players

    @property
    def teams(self) -> tuple[tuple[str, ...], tuple[str, ...]] | None:
        return self.seating.teams

    @property
    def board(self) -> Board:
        return self._state.board

    @property
    def scores(self) -> dict[str, int]:
        return dict(self._state.scores)

    @property
    def active(self) -> str:
        return self.seating.players[self._state.turn]

    @property
    def finish_line(self) -> int:
        return self.seating.finish_line

    @property
    def finished(self) -> bool:
        return self._state.finished

    @property
    def turns_taken(self) -> dict[str, int]:
        return dict(zip(self.players, self._state.turns_taken))

    @property
    def moves(self) -> tuple[Move, ...]:
        return tuple(self._moves)

    @property
    def hand_capacity(self) -> int:
        """Tiles in all hands when full: each player's and the common hand."""
        return HAND_SIZE * (len(self.players) + 1)

    @property
    def hand_tiles(self) -> int:
        return min(self.hand_capacity, TILE_COUNT - len(self.board))

    @property
    def bag(self) -> int:
        """Tiles left in the bag."""
        return TILE_COUNT - len(self.board) - self.hand_tiles

    @property
    def needs_return(self) -> bool:
        """The bag is empty and covered tiles must go back into it."""
        return self.bag == 0 and bool(self.board.covered()) and not self.finished

    # -- moves ----------------------------------------------------------------------------
    def preview(self, placement: Pairs) -> Scoring | Illegal:
        """What this placement by the active player would score now (nothing changes)."""
        if self.finished:
            return Illegal("game-over", "The game is over; start a new game to play again.")
        return score_placement(self.board, placement, self.seating, self.active, self.options)

    def place(self, placement: Pairs) -> Scoring | Illegal:
        """The active player places these tiles (in placing order)."""
        result = self.preview(placement)
        if not result.legal:
            return result
        s = self._state
        scores = dict(s.scores)
        scores[result.active] += result.points
        for side, points in result.bonus.items():
            scores[side] += points
        last_placed = list(s.last_placed)
        last_placed[s.turn] = s.moves_made
        after = replace(
            s,
            board=s.board.placed(placement),
            scores=tuple(scores.items()),
            last_placed=tuple(last_placed),
            finish_reached=s.finish_reached or max(scores.values()) >= self.finish_line,
        )
        self._push(Placed(result), self._turn_passed(after))
        return result

    def swap(self) -> Swapped:
        """The active player swaps tiles with the bag (or passes): a turn without placing."""
        if self.finished:
            raise GameOver("the game is over")
        move = Swapped(self.active)
        self._push(move, self._turn_passed(self._state))
        return move

    def return_covered(self) -> Returned:
        """Every covered tile goes back into the bag (when the bag ran empty). Not a turn."""
        s = self._state
        move = Returned(s.board.covered())
        self._push(move, replace(s, board=s.board.without_covered()))
        return move

    def pop(self) -> Move:
        """Takes back the last move, restoring the exact state before it."""
        if not self._moves:
            raise IndexError("no move to take back")
        move, before = self._moves.pop(), self._before.pop()
        self._state = before
        return move

    def _push(self, move: Move, after: _State) -> None:
        """Every move goes through here: remembered with the state before it, for `pop`."""
        self._moves.append(move)
        self._before.append(self._state)
        self._state = replace(after, moves_made=self._state.moves_made + 1)

    def _turn_passed(self, after: _State) -> _State:
        """`after` once the active player's turn is counted and passed on (maybe the end)."""
        turns = list(after.turns_taken)
        turns[after.turn] += 1
        # a team game ends at the first finish whatever `end` says (RULES.md, the Russian
        # summary): "equal turns" is for games without teams
        first = self.options.end == "first" or self.teams is not None
        finished = after.finish_reached and (first or len(set(turns)) == 1)
        return replace(
            after,
            turn=(after.turn + 1) % len(self.players),
            turns_taken=tuple(turns),
            finished=finished,
        )

    # -- the end --------------------------------------------------------------------------
    def ranking(self) -> Ranking:
        """Furthest first; a tie goes to the tied player who placed tiles most recently.
        Team games: the team without the last piece wins; see RULES.md for the tie-breaks."""
        s = self._state
        score = dict(s.scores)
        recency = dict(zip(self.players, s.last_placed))
        order = tuple(sorted(self.players, key=lambda p: (-score[p], -recency[p])))
        tied = [p for p in order if score[p] == score[order[0]]]
        decided = len(tied) == 1 or (recency[tied[0]] >= 0 and recency[tied[1]] < recency[tied[0]])
        winner = order[0] if decided else None
        if self.teams is None:
            return Ranking(order, winner)
        team_of = self.seating.team_of
        low = min(score.values())
        high = max(score.values())
        last_teams = {team_of(p) for p in self.players if score[p] == low}
        first_teams = {team_of(p) for p in self.players if score[p] == high}
        if len(last_teams) == 1:
            team = 1 - last_teams.pop()
        elif len(first_teams) == 1:
            team = first_teams.pop()
        else:
            latest = max(self.players, key=lambda p: recency[p])
            team = team_of(latest) if recency[latest] >= 0 else None
        return Ranking(order, winner, team)


class GameOver(Exception):
    """A move was asked of a game that has ended."""
