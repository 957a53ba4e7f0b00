"""What the players see: the view values the table builds and every display shows.

`Table.view(now)` builds one immutable `TableView` per refresh of the daemon's loop. The
presenter draws it on the seat displays (`companion.show.screens`); the daemon publishes it
to the web companion, which draws the same values on its pages (`companion.web.present`).
Nothing here renders, plays or translates: these are plain values (game words, engine values,
catalogue codes), so a view can be compared, logged and drawn the same way on an OLED, in a
test, in a PNG or in a browser. Every value crosses the daemon's socket as JSON:
`X.from_json(x.to_json()) == x` for each of them (tests/game/test_view_json.py).

Who sees what (the screens decide, see `companion.show.screens`):
- a `BonusAlert` flashes on its owner's display for a few seconds from `since`, whoever's
  turn it is, above everything else;
- a `Problem` or `BagEmpty` notice is shown on every display;
- an `IllegalMove` is shown on the display of the player who made it;
- an `Unsure` notice is shown on the display of the player whose press is waiting for the
  readers, with what to do and a picture of the board (`TableView.board`);
- an `Undo` notice is a one-line banner on every display;
- an `UndoHint` (for a few seconds after each turn) puts "hold: undo" on the seats' screens;
- a `LateTile` notice (`companion.game.late`) is shown on the display of the player of the
  last turn: a tile showed up on a tall stack just after it; was it theirs?
- a `Question` is shown on the display of the player it asks (whose press waits for what the
  readers cannot confirm, or whose start was refused for it): which square, which tile,
  and the gestures (`Reply`) that answer it; each answer is the family's word
  (`companion.board.word`);
- a `SwapQuestion` is shown on the display of the player whose press saw no tile laid while
  squares they may lay on are ones the readers cannot see: a swap (a press), or tiles
  laid there unseen (a hold)?
- a `NotScored` notice is shown on the display of the player whose press could not stand
  (a tile of the placement left the board after it), saying why, until their next press;
- a `Correction` is shown on every display: a scored turn is proven wrong by later evidence
  (the score difference), applied by one confirmation;
- a `ShowFirst` notice is shown on the seat screen of the player whose turn it is, under
  the preview, while some of the squares they may lay on are ones the readers cannot see
  (the top of a tall stack, a silent reader): a tile for such a square is shown first,
  held a moment over an empty square, then laid there (docs/family.md);
- an `Unconfirmed` notice is shown on the same screen while a tile of the turn is one the
  readers cannot confirm (shown and gone, lost by a silent reader, seen only while laid):
  the press asks about it (with a `ShowFirst`, the two take turns);
- a `PinShown` notice is never in the table's view: the daemon adds it to what the displays
  show while the web companion's pairing PIN is up (the watchers of the web never see it).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, ClassVar

from companion.board.problems import Problem
from companion.game.late import LateTile
from engine import COLOURS, DEFAULT_COLOURS, SIDES, Illegal, ScoredSet, Scoring, Tile

#: how long a bonus alert is in the view and flashes on its owner's display, from its `since`.
ALERT_SECONDS = 4.0


class Phase(StrEnum):
    """Where the table is: no game (the lobby), a game being played, a game finished."""

    LOBBY = "lobby"
    PLAYING = "playing"
    OVER = "over"

    def __repr__(self) -> str:  # evaluates back, as the values that hold it
        return f"{type(self).__name__}.{self.name}"


Pairs = tuple[tuple[str, int], ...]


def _pairs(mapping: Mapping[str, int] | Iterable[tuple[str, int]]) -> Pairs:
    items = mapping.items() if isinstance(mapping, Mapping) else mapping
    return tuple(sorted((str(k), int(v)) for k, v in items))


def _pairs_json(pairs: Pairs) -> list[list[Any]]:
    return [[side, n] for side, n in pairs]


def _tiles(names: Iterable[str]) -> tuple[Tile, ...]:
    return tuple(Tile.parse(name) for name in names)


@dataclass(frozen=True, slots=True)
class TurnResult:
    """One finished turn: who played, what it scored and everyone's bonus.

    `swapped` is a turn without placing (tiles swapped with the bag)."""

    side: str
    points: int = 0
    bonus: Pairs = ()  # (side, points), only seats who got some
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

    def to_json(self) -> dict[str, Any]:
        return {
            "side": self.side,
            "points": self.points,
            "bonus": _pairs_json(self.bonus),
            "sets": [s.to_json() for s in self.sets],
            "swapped": self.swapped,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TurnResult:
        return cls(
            data["side"],
            data["points"],
            _pairs(data["bonus"]),
            tuple(ScoredSet.from_json(s) for s in data["sets"]),
            data["swapped"],
        )


@dataclass(frozen=True, slots=True)
class Preview:
    """The live preview of the tiles the active player has placed so far this turn:
    what they would score, or why they are not (yet) a legal set."""

    points: int = 0
    bonus: Pairs = ()
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

    def to_json(self) -> dict[str, Any]:
        return {
            "points": self.points,
            "bonus": _pairs_json(self.bonus),
            "sets": [s.to_json() for s in self.sets],
            "illegal": None if self.illegal is None else self.illegal.to_json(),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Preview:
        illegal = data["illegal"]
        return cls(
            data["points"],
            _pairs(data["bonus"]),
            tuple(ScoredSet.from_json(s) for s in data["sets"]),
            None if illegal is None else Illegal.from_json(illegal),
        )


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

    @property
    def to_go(self) -> int:
        """Points still missing to the finish line."""
        return max(0, self.finish - self.score)

    def to_json(self) -> dict[str, Any]:
        return {
            "side": self.side,
            "colour": self.colour,
            "score": self.score,
            "finish": self.finish,
            "active": self.active,
            "preview": None if self.preview is None else self.preview.to_json(),
            "team": self.team,
            "checking": self.checking,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> SeatView:
        preview = data["preview"]
        return cls(
            data["side"],
            data["colour"],
            data["score"],
            data["finish"],
            data["active"],
            None if preview is None else Preview.from_json(preview),
            data["team"],
            data["checking"],
        )


@dataclass(frozen=True, slots=True)
class BonusAlert:
    """A bonus for `side`, flashed on its display for a few seconds from `since`
    (a time of the daemon's injected clock)."""

    side: str
    points: int
    since: float

    def to_json(self) -> dict[str, Any]:
        return {"side": self.side, "points": self.points, "since": self.since}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> BonusAlert:
        return cls(data["side"], data["points"], data["since"])


@dataclass(frozen=True, slots=True)
class IllegalMove:
    """The tiles `side` placed are not a legal move; `illegal` says why."""

    kind: ClassVar[str] = "illegal"

    side: str
    illegal: Illegal

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "side": self.side, "illegal": self.illegal.to_json()}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> IllegalMove:
        return cls(data["side"], Illegal.from_json(data["illegal"]))


@dataclass(frozen=True, slots=True)
class Unsure:
    """`side` pressed to end the turn, but the readers do not support the placement yet:
    `doubt` says what to do (`companion.board.problems`). The turn ends by itself as soon
    as the evidence is clean."""

    kind: ClassVar[str] = "unsure"

    side: str
    doubt: Problem

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "side": self.side, "doubt": self.doubt.to_json()}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Unsure:
        return cls(data["side"], Problem.from_json(data["doubt"]))


@dataclass(frozen=True, slots=True)
class BagEmpty:
    """The bag ran empty: put the covered tiles back (`returned` False), or that was done."""

    kind: ClassVar[str] = "bag"

    returned: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "returned": self.returned}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> BagEmpty:
        return cls(data["returned"])


@dataclass(frozen=True, slots=True)
class Undo:
    """The last turn (by `side`) was taken back: its tiles come off the board."""

    kind: ClassVar[str] = "undo"

    side: str

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "side": self.side}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Undo:
        return cls(data["side"])


@dataclass(frozen=True, slots=True)
class UndoHint:
    """A turn just ended: every seat's screen also says that a long press takes it back."""

    kind: ClassVar[str] = "undo-hint"

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> UndoHint:
        return cls()


@dataclass(frozen=True, slots=True)
class PinShown:
    """The web companion asked to pair: every display shows this PIN for a while."""

    kind: ClassVar[str] = "pin"

    pin: str

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "pin": self.pin}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> PinShown:
        return cls(data["pin"])


class Reply(StrEnum):
    """An answer to a `Question`, each with its one gesture at the table (docs/family.md)."""

    #: a short press: the tile asked about lies on the square (the family's word "laid")
    THERE = "there"
    #: two short presses within DOUBLE_SECONDS: it does not; score without it ("absent")
    WITHOUT = "without"
    #: a short press, in the lobby: the tile lies there, start the game (a hold is the start
    #: the question stopped, never its answer)
    START = "start"
    #: a long press, about a tile of the turn that left the board: it is in a hand, on no
    #: square (asked no more)
    HAND = "hand"

    def __repr__(self) -> str:  # evaluates back, as the values that hold it
        return f"{type(self).__name__}.{self.name}"


#: two short presses this close together are one answer ("without it"), not two
DOUBLE_SECONDS = 0.8


@dataclass(frozen=True, slots=True)
class Question:
    """The readers cannot confirm `square` for `side`'s press (or start): is `tile` there
    (None: the tile on top, which the readers cannot name)? `answers`: the replies that
    settle it, each a gesture of `side`'s button (`Reply`; the display names each one).
    `pressed`: a first short press was heard: it is taken as "it is there" once
    DOUBLE_SECONDS pass without a second, which would make it "not there" (`WITHOUT`);
    the display says the first press was heard and that a second now says "not there"."""

    kind: ClassVar[str] = "question"

    side: str
    square: str
    tile: Tile | None
    answers: tuple[Reply, ...]
    pressed: bool = False

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "side": self.side,
            "square": self.square,
            "tile": None if self.tile is None else str(self.tile),
            "answers": [str(reply) for reply in self.answers],
            "pressed": self.pressed,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Question:
        tile = data["tile"]
        return cls(
            data["side"],
            data["square"],
            None if tile is None else Tile.parse(tile),
            tuple(Reply(reply) for reply in data["answers"]),
            bool(data.get("pressed", False)),
        )


@dataclass(frozen=True, slots=True)
class SwapQuestion:
    """`side` pressed and the readers saw no tile laid, while `squares`, where `side` may
    lay, are ones they cannot see a tile laid on (a tall stack, a silent reader): a swap,
    or tiles laid there unseen? A press: a swap (the turn ends so); a hold: tiles were
    laid, the press does not stand, and the display says to show each one to a reader
    (`NotScored` "unseen")."""

    kind: ClassVar[str] = "swap-question"

    side: str
    squares: tuple[str, ...]

    @property
    def square(self) -> str:
        """The first square it is about (the displays frame it)."""
        return self.squares[0]

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "side": self.side, "squares": list(self.squares)}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> SwapQuestion:
        return cls(data["side"], tuple(data["squares"]))


@dataclass(frozen=True, slots=True)
class NotScored:
    """`side`'s press could not stand: `why` says it (a catalogue key `notscored.<why>`:
    "lifted", a tile of the placement, `tile` from `square`, left the board after it);
    shown on that display until that player's next press."""

    kind: ClassVar[str] = "not-scored"

    side: str
    why: str
    square: str | None = None
    tile: Tile | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "side": self.side,
            "why": self.why,
            "square": self.square,
            "tile": None if self.tile is None else str(self.tile),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> NotScored:
        tile = data["tile"]
        return cls(
            data["side"], data["why"], data["square"], None if tile is None else Tile.parse(tile)
        )


@dataclass(frozen=True, slots=True)
class Correction:
    """Turn `turn` of `side` scored `tile` on `squares[0]`, and the readers prove it lies on
    `squares[1]`: scored so, that turn makes `after` instead of `before` points. Shown on
    every display until a player confirms it with a press (`applied` False), then for a few
    seconds as done (`applied` True). `companion.game.amend`."""

    kind: ClassVar[str] = "correction"

    turn: int
    side: str
    tile: Tile
    squares: tuple[str, str]
    before: int
    after: int
    applied: bool = False

    @property
    def square(self) -> str:
        """Where the tile lies (the square the displays mark)."""
        return self.squares[1]

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "turn": self.turn,
            "side": self.side,
            "tile": str(self.tile),
            "squares": list(self.squares),
            "before": self.before,
            "after": self.after,
            "applied": self.applied,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Correction:
        was, lies = data["squares"]
        return cls(
            data["turn"],
            data["side"],
            Tile.parse(data["tile"]),
            (was, lies),
            data["before"],
            data["after"],
            data["applied"],
        )


@dataclass(frozen=True, slots=True)
class ShowFirst:
    """`side` may lay tiles on `squares`, where the readers cannot see a tile laid on top
    (a tall stack, a silent reader): a tile for one of them is first held over an empty
    square until the display says the readers saw it (`seen`, the tile of this turn they
    last saw arrive), then laid there; the table takes it to lie on that square (the only
    one of them it fits on; else it asks, a `Question`)."""

    kind: ClassVar[str] = "show-first"

    side: str
    squares: tuple[str, ...]
    seen: Tile | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "side": self.side,
            "squares": list(self.squares),
            "seen": None if self.seen is None else str(self.seen),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ShowFirst:
        seen = data.get("seen")
        return cls(data["side"], tuple(data["squares"]), None if seen is None else Tile.parse(seen))


@dataclass(frozen=True, slots=True)
class Unconfirmed:
    """`tiles` of `side`'s turn the readers cannot confirm: one that left a square it lay
    on alone and shows nowhere (shown to a reader, then laid where the readers cannot see,
    or taken back: the preview leaves it out), one whose reader fell silent, or one seen
    only while it was laid (the preview counts those, unsure). `side`'s press asks about
    each, unless the readers confirm it meanwhile (a `Question` per square)."""

    kind: ClassVar[str] = "unconfirmed"

    side: str
    tiles: tuple[Tile, ...]

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "side": self.side, "tiles": [str(t) for t in self.tiles]}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Unconfirmed:
        return cls(data["side"], tuple(Tile.parse(t) for t in data["tiles"]))


Notice = (
    IllegalMove
    | Unsure
    | BagEmpty
    | Problem
    | Undo
    | UndoHint
    | PinShown
    | LateTile
    | Question
    | SwapQuestion
    | NotScored
    | Correction
    | ShowFirst
    | Unconfirmed
)
#: every kind of notice, by the `kind` its JSON names it with
NOTICES: dict[str, type[Notice]] = {
    cls.kind: cls
    for cls in (
        IllegalMove,
        Unsure,
        BagEmpty,
        Problem,
        Undo,
        UndoHint,
        PinShown,
        LateTile,
        Question,
        SwapQuestion,
        NotScored,
        Correction,
        ShowFirst,
        Unconfirmed,
    )
}


def notice_from_json(data: dict[str, Any]) -> Notice:
    """The notice whose `to_json()` gave `data`."""
    return NOTICES[data["kind"]].from_json(data)  # type: ignore[return-value]


@dataclass(frozen=True, slots=True)
class GameResult:
    """The end of a game: the ranking with scores, who won, the score progression."""

    ranking: Pairs  # (side, score), best first
    finish: int = 0  # the finish line of the game
    winner: str | None = None  # None when the tie-break cannot decide (or in a team game)
    winner_team: int | None = None  # 0 or 1: index into TableView.teams
    #: per side, its score after each turn of the game (first value 0, before any turn)
    progress: tuple[tuple[str, tuple[int, ...]], ...] = ()
    chart: str | None = None  # path of the saved score chart PNG, if any
    stopped: bool = False  # stopped before its end: the scores as they stood, no winner

    def to_json(self) -> dict[str, Any]:
        return {
            "ranking": _pairs_json(self.ranking),
            "finish": self.finish,
            "winner": self.winner,
            "winner_team": self.winner_team,
            "progress": [[side, list(scores)] for side, scores in self.progress],
            "chart": self.chart,
            "stopped": self.stopped,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GameResult:
        return cls(
            tuple((side, score) for side, score in data["ranking"]),
            data["finish"],
            data["winner"],
            data["winner_team"],
            tuple((side, tuple(scores)) for side, scores in data["progress"]),
            data["chart"],
            data.get("stopped", False),
        )


Teams = tuple[tuple[str, ...], tuple[str, ...]]


def _teams_json(teams: Teams | None) -> list[list[str]] | None:
    return None if teams is None else [list(team) for team in teams]


def _teams(data: list[list[str]] | None) -> Teams | None:
    return None if data is None else (tuple(data[0]), tuple(data[1]))


@dataclass(frozen=True, slots=True)
class Lobby:
    """Before a game: who has pressed to join so far, in turn order."""

    joined: tuple[str, ...] = ()
    teams: Teams | None = None
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

    def to_json(self) -> dict[str, Any]:
        return {
            "joined": list(self.joined),
            "can_start": self.can_start,
            "teams": _teams_json(self.teams),
            "rules": [[key, value] for key, value in self.rules],
            "last": None if self.last is None else self.last.to_json(),
            "since": self.since,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Lobby:
        last = data["last"]
        return cls(
            tuple(data["joined"]),
            _teams(data["teams"]),
            tuple((key, value) for key, value in data["rules"]),
            None if last is None else GameResult.from_json(last),
            data["since"],
        )


Stacks = tuple[tuple[str, tuple[Tile, ...]], ...]


@dataclass(frozen=True, slots=True)
class TableView:
    """Everything every display shows at one moment."""

    phase: Phase = Phase.LOBBY
    seats: tuple[SeatView, ...] = ()  # the players, in turn order (empty in the lobby)
    colours: tuple[tuple[str, str], ...] = DEFAULT_COLOURS  # side -> colour for all sides
    teams: Teams | None = None
    lobby: Lobby | None = None
    last_turn: TurnResult | None = None
    alerts: tuple[BonusAlert, ...] = ()
    notices: tuple[Notice, ...] = ()
    result: GameResult | None = None
    #: the board as the readers see it: (square, its tiles bottom up) for squares with tiles
    board: Stacks = ()
    #: the tiles placed this turn so far, as the readers see them (square, tile)
    placement: tuple[tuple[str, Tile], ...] = ()
    _by_side: dict[str, SeatView] = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        try:
            phase = Phase(self.phase)
        except ValueError:
            phases = ", ".join(Phase)
            raise ValueError(f"unknown phase {self.phase!r}; phases are {phases}") from None
        object.__setattr__(self, "phase", phase)
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

    def to_json(self) -> dict[str, Any]:
        return {
            "phase": str(self.phase),
            "seats": [seat.to_json() for seat in self.seats],
            "colours": [[side, colour] for side, colour in self.colours],
            "teams": _teams_json(self.teams),
            "lobby": None if self.lobby is None else self.lobby.to_json(),
            "last_turn": None if self.last_turn is None else self.last_turn.to_json(),
            "alerts": [alert.to_json() for alert in self.alerts],
            "notices": [notice.to_json() for notice in self.notices],
            "result": None if self.result is None else self.result.to_json(),
            "board": [[square, [str(t) for t in stack]] for square, stack in self.board],
            "placement": [[square, str(tile)] for square, tile in self.placement],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TableView:
        lobby, last, result = data["lobby"], data["last_turn"], data["result"]
        return cls(
            phase=Phase(data["phase"]),
            seats=tuple(SeatView.from_json(s) for s in data["seats"]),
            colours=tuple((side, colour) for side, colour in data["colours"]),
            teams=_teams(data["teams"]),
            lobby=None if lobby is None else Lobby.from_json(lobby),
            last_turn=None if last is None else TurnResult.from_json(last),
            alerts=tuple(BonusAlert.from_json(a) for a in data["alerts"]),
            notices=tuple(notice_from_json(n) for n in data["notices"]),
            result=None if result is None else GameResult.from_json(result),
            board=tuple((square, _tiles(stack)) for square, stack in data["board"]),
            placement=tuple((square, Tile.parse(tile)) for square, tile in data["placement"]),
        )
