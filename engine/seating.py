"""Who plays: the seats (sides) in turn order, the optional two teams, whose squares are whose."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from engine.geometry import SIDES, SQUARES, owner

#: The rulebook colours, as catalogue keys (the companion translates the names).
COLOURS: tuple[str, ...] = ("red", "purple", "yellow", "green")

#: Which colour sits on which side unless a table is set up otherwise.
DEFAULT_COLOURS: tuple[tuple[str, str], ...] = (
    ("N", "red"),
    ("E", "purple"),
    ("S", "yellow"),
    ("W", "green"),
)

#: number of players -> the finish line on the score track.
FINISH_LINES: dict[int, int] = {2: 31, 3: 27, 4: 23}


class SeatingError(ValueError):
    """Players or teams that cannot sit at the table."""


@dataclass(frozen=True, slots=True)
class Seating:
    players: tuple[str, ...]  # sides, in turn order; the first one starts
    teams: tuple[tuple[str, ...], tuple[str, ...]] | None = None

    def __post_init__(self) -> None:
        players = self.players
        if not 2 <= len(players) <= 4:
            raise SeatingError("a game needs 2, 3 or 4 players")
        for side in players:
            if side not in SIDES:
                raise SeatingError(f"{side!r} is not a side of the table; sides are N, E, S, W")
        if len(set(players)) != len(players):
            raise SeatingError("two players cannot sit on the same side")
        if self.teams is not None:
            if len(players) != 4:
                raise SeatingError("team games need exactly 4 players")
            flat = [side for team in self.teams for side in team]
            if len(self.teams) != 2 or any(len(t) != 2 for t in self.teams):
                raise SeatingError("team games have two teams of two players")
            if sorted(flat) != sorted(players):
                raise SeatingError("every player must be in exactly one team")

    @classmethod
    def of(cls, players: Iterable[str], teams: Iterable[Iterable[str]] | None = None) -> Seating:
        if isinstance(players, str) or not _is_list_of_str(players):
            raise SeatingError('players must be a list of sides such as ["S", "N"]')
        if teams is not None:
            if isinstance(teams, str) or not all(_is_list_of_str(t) for t in teams):
                raise SeatingError('teams must be two lists of sides such as [["S","N"],["E","W"]]')
            teams = tuple(tuple(t) for t in teams)
        return cls(tuple(players), teams)  # type: ignore[arg-type]

    @property
    def finish_line(self) -> int:
        return FINISH_LINES[len(self.players)]

    def team_of(self, side: str) -> int | None:
        if self.teams is None:
            return None
        return 0 if side in self.teams[0] else 1

    def partner(self, side: str) -> str | None:
        if self.teams is None:
            return None
        team = self.teams[self.team_of(side)]  # type: ignore[index]
        return team[0] if team[1] == side else team[1]

    @property
    def owners(self) -> tuple[str | None, ...]:
        """By square index: the player who gets bonus points for that square, or None."""
        return _owners(self.players)

    def allowed(self, active: str, partner_squares: bool = False) -> frozenset[str]:
        """The squares the active player may place on."""
        return _allowed(self, active, partner_squares)


@lru_cache(maxsize=64)
def _owners(players: tuple[str, ...]) -> tuple[str | None, ...]:
    return tuple(side if side in players else None for side in map(owner, SQUARES))


@lru_cache(maxsize=256)
def _allowed(seating: Seating, active: str, partner_squares: bool) -> frozenset[str]:
    def may(side: str | None) -> bool:
        mine_or_free = side in (None, active) or side not in seating.players
        return mine_or_free or partner_squares and side == seating.partner(active)

    return frozenset(square for square in SQUARES if may(owner(square)))


def _is_list_of_str(value: object) -> bool:
    return isinstance(value, Sequence) and all(isinstance(v, str) for v in value)
