"""What the players see: the view model the daemon builds and the presenter shows.

The daemon builds a fresh, immutable `TableView` whenever something changes and hands it to
`companion.show.presenter.Presenter`. Nothing here renders, plays or translates: these are plain
values (game words, engine values, catalogue codes), so a view can be compared, logged and
rendered the same way on an OLED, in a test or in a PNG.

Who sees what (the screens decide, see `companion.show.screens`):
- a `BonusAlert` flashes on its owner's display for a few seconds from `since`, whoever's
  turn it is, above everything else;
- a `Problem` or `BagEmpty` notice is shown on every display;
- an `IllegalMove` is shown on the display of the player who made it;
- an `Unsure` notice is shown on the display of the player whose press is waiting for the
  readers, with what to do and a picture of the board (`TableView.board`);
- an `Undo` notice is a one-line banner on every display;
- a `LateTile` notice (`companion.game.late`) is shown on the display of the player of the
  last turn: a tile showed up on a tall stack just after it; was it theirs?
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from companion.board.problems import Problem
from companion.game.late import LateTile
from engine import COLOURS, DEFAULT_COLOURS, SIDES, Illegal, ScoredSet, Scoring, Tile

PHASES: tuple[str, ...] = ("lobby", "playing", "over")
#: how long a bonus alert is in the view and flashes on its owner's display, from its `since`.
ALERT_SECONDS = 4.0


def _pairs(mapping: Mapping[str, int] | Iterable[tuple[str, int]]) -> tuple[tuple[str, int], ...]:
    items = mapping.items() if isinstance(mapping, Mapping) else mapping
    return tuple(sorted((str(k), int(v)) for k, v in items))


@dataclass(frozen=True, slots=True)
class TurnResult:
    """One finished turn: who played, what it scored and everyone's bonus.

    `swapped` is a turn without placing (tiles swapped with the bag)."""

    side: str
    points: int = 0
    bonus: tuple[tuple[str, int], ...] = ()  # (side, points), only seats who got some
    sets: tuple[ScoredSet, ...] = ()
    swapped: bool = False

    @classmethod
    def from_scoring(cls, scoring: Scoring) -> TurnResult:
        return cls(scoring.active, scoring.points, _pairs(scoring.bonus), scoring.sets)

    @classmethod
    def swap(cls, side: str) -> TurnResult:
        return cls(side, swapped=True)

    def bonus_for(self, side: str) -> int:
        return dict(self.bonus).get(side, 0)


@dataclass(frozen=True, slots=True)
class Preview:
    """The live preview of the tiles the active player has placed so far this turn:
    what they would score, or why they are not (yet) a legal set."""

    points: int = 0
    bonus: tuple[tuple[str, int], ...] = ()
    sets: tuple[ScoredSet, ...] = ()
    illegal: Illegal | None = None

    @classmethod
    def of(cls, result: Scoring | Illegal) -> Preview:
        if isinstance(result, Illegal):
            return cls(illegal=result)
        return cls(result.points, _pairs(result.bonus), result.sets)

    @property
    def legal(self) -> bool:
        return self.illegal is None


@dataclass(frozen=True, slots=True)
class SeatView:
    """One player at the table."""

    side: str  # N, E, S or W
    colour: str  # one of COLOURS
    score: int
    finish: int  # the finish line on the score track
    active: bool = False  # is it this player's turn?
    preview: Preview | None = None  # only the active player's, while tiles are being placed
    team: int | None = None  # 0 or 1 in a team game
    #: this player pressed and the readers are confirming the board before the turn ends
    #: (a few tenths of a second; what to do is an `Unsure` notice if it takes longer)
    checking: bool = False

    def __post_init__(self) -> None:
        if self.side not in SIDES:
            raise ValueError(f"{self.side!r} is not a side; sides are {', '.join(SIDES)}")
        if self.colour not in COLOURS:
            raise ValueError(f"{self.colour!r} is not a colour; colours are {', '.join(COLOURS)}")


@dataclass(frozen=True, slots=True)
class BonusAlert:
    """A bonus for `side`, flashed on its display for a few seconds from `since`
    (a time of the daemon's injected clock)."""

    side: str
    points: int
    since: float


@dataclass(frozen=True, slots=True)
class IllegalMove:
    """The tiles `side` placed are not a legal move; `illegal` says why."""

    side: str
    illegal: Illegal


@dataclass(frozen=True, slots=True)
class Unsure:
    """`side` pressed to end the turn, but the readers do not support the placement yet:
    `doubt` says what to do (`companion.board.problems`). The turn ends by itself as soon
    as the evidence is clean."""

    side: str
    doubt: Problem


@dataclass(frozen=True, slots=True)
class BagEmpty:
    """The bag ran empty: put the covered tiles back (`returned` False), or that was done."""

    returned: bool = False


@dataclass(frozen=True, slots=True)
class Undo:
    """The last turn (by `side`) was taken back: its tiles come off the board."""

    side: str


@dataclass(frozen=True, slots=True)
class PinShown:
    """The web companion asked to pair: every display shows this PIN for a while."""

    pin: str


Notice = IllegalMove | Unsure | BagEmpty | Problem | Undo | PinShown | LateTile


@dataclass(frozen=True, slots=True)
class Lobby:
    """Before a game: who has pressed to join so far, in turn order."""

    joined: tuple[str, ...] = ()
    teams: tuple[tuple[str, ...], tuple[str, ...]] | None = None
    #: the table settings a game started now plays by ((key, value), see companion.settings)
    rules: tuple[tuple[str, object], ...] = ()
    #: the last finished game (from the journal archive), for the lobby to show
    last: GameResult | None = None
    #: when a button was last pressed: the lobby's pages start again from "press to join"
    since: float = 0.0

    @property
    def can_start(self) -> bool:
        """Enough players to start with a long press."""
        return len(self.joined) >= 2


@dataclass(frozen=True, slots=True)
class GameResult:
    """The end of a game: the ranking with scores, who won, the score progression."""

    ranking: tuple[tuple[str, int], ...]  # (side, score), best first
    finish: int = 0  # the finish line of the game
    winner: str | None = None  # None when the tie-break cannot decide (or in a team game)
    winner_team: int | None = None  # 0 or 1: index into TableView.teams
    #: per side, its score after each turn of the game (first value 0, before any turn)
    progress: tuple[tuple[str, tuple[int, ...]], ...] = ()
    chart: str | None = None  # path of the saved score chart PNG, if any


@dataclass(frozen=True, slots=True)
class TableView:
    """Everything every display shows at one moment."""

    phase: str = "lobby"  # one of PHASES
    seats: tuple[SeatView, ...] = ()  # the players, in turn order (empty in the lobby)
    colours: tuple[tuple[str, str], ...] = DEFAULT_COLOURS  # side -> colour for all sides
    teams: tuple[tuple[str, ...], tuple[str, ...]] | None = None
    lobby: Lobby | None = None
    last_turn: TurnResult | None = None
    alerts: tuple[BonusAlert, ...] = ()
    notices: tuple[Notice, ...] = ()
    result: GameResult | None = None
    #: the board as the readers see it: (square, its tiles bottom up) for squares with tiles
    board: tuple[tuple[str, tuple[Tile, ...]], ...] = ()
    _by_side: dict[str, SeatView] = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        if self.phase not in PHASES:
            raise ValueError(f"unknown phase {self.phase!r}; phases are {', '.join(PHASES)}")
        object.__setattr__(self, "_by_side", {seat.side: seat for seat in self.seats})

    def seat(self, side: str) -> SeatView | None:
        """The player on `side`, or None if nobody plays there."""
        return self._by_side.get(side)

    def colour(self, side: str) -> str:
        return dict(self.colours).get(side, dict(DEFAULT_COLOURS)[side])

    @property
    def active(self) -> SeatView | None:
        return next((seat for seat in self.seats if seat.active), None)

    def alerts_for(self, side: str) -> tuple[BonusAlert, ...]:
        return tuple(alert for alert in self.alerts if alert.side == side)
