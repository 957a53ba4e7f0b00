"""A simulated family at the table: how they lay tiles and press (`Temperament`, drawn at
random per game), and how they answer what the displays ask (`answer`, the hook).

The soak (`benchmarks/soak.py`) plays whole games with them on tables of random reader
physics (`hardware.hub.sim_classes`). Families slide tiles across other squares, hold a tile
over its square before laying it, lay slowly, put a tile on a wrong square and move it, make
a wrong move and take the tile back once told, lay a tile again when the preview is not what
they laid, press anyway when they are tired of waiting, forget to press for a while.

**The hook.** Whatever the displays show, the family decides what to do with one pure
function, `Answer = Callable[[Situation], tuple[Action, ...]]`: the `Situation` is the
`TableView` every display shows now with what the family knows that the daemon does not
(what each player really laid, where each tile really lies); the actions are gestures at
the table (`Press`, `Hold`, `Relay`, `Straighten`, `Show`, `TakeOff`, `HandsOff`). The
soak calls it every sweep while the family attends to the displays (after a press, while
waiting for the preview, in the lobby, after a turn) and performs the gestures after the
family's reaction time. `answer_today` is what families did with the notices before issue 25:
what the display asks, and no more; `answer_questions` (the soak's default) also answers the
daemon's questions as docs/family.md says, from what a person at the table can see.

To teach the family a new question (a typed notice in the seat view, answered with the
seat-button gestures of docs/family.md), write a function that answers the new notice and
leaves the rest to `answer_today`, classify the notice in `NOTICE_KINDS` ("question" for a
question, "correction" for a turn announced wrong), say in `announces` which wrong turn it
announces, and pass it as `soak(..., answer=...)`::

    def answer(situation: Situation) -> tuple[Action, ...]:
        for notice in situation.view.notices:
            if isinstance(notice, ShowTheTile) and notice.side == situation.active:
                return (Show(notice.tile, over=notice.square),)
        return answer_today(situation)
"""

from __future__ import annotations

import random
import zlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from companion.board.problems import Problem
from companion.game.late import LateTile
from companion.game.view import (
    BagEmpty,
    BonusAlert,
    Correction,
    IllegalMove,
    NotScored,
    PinShown,
    Question,
    Reply,
    ShowFirst,
    SwapQuestion,
    TableView,
    Unconfirmed,
    Undo,
    UndoHint,
    Unsure,
)
from engine import SQUARES, Tile

Placement = tuple[tuple[str, Tile], ...]


# -- the people ------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Temperament:
    """How one family plays, drawn at random per game (`draw`). Seconds are simulated.

    - `think`: before the first tile of a turn; `lay`: from one tile to the next;
    - `slide`: the chance a tile is slid across one or two other squares on its way;
      `hover`: held over its square a moment before it is laid; `wrong_square`: laid on
      another square first and moved within the turn; `wrong_move`: an extra tile that
      makes the placement illegal, taken back once the display says so;
    - `careful`: the chance a player checks the preview's points against what they laid
      (else a legal preview is enough to press); `relay_after`: a wrong preview this long
      and they lay their tiles again; `give_up`: after this long they press anyway;
    - `glance`: reading the display before pressing; `forget`: the chance a player forgets
      to press for 3 to 8 s; `react`: the time to act on what a display asks; `repress`: a
      press not taken is pressed again this often; `undo_own`: the chance a player takes
      back the turn just played (a long press) and plays it again.
    """

    think: tuple[float, float] = (0.5, 2.0)
    lay: tuple[float, float] = (0.3, 1.2)
    slide: float = 0.25
    hover: float = 0.3
    wrong_square: float = 0.08
    wrong_move: float = 0.05
    careful: float = 0.5
    relay_after: float = 4.0
    give_up: float = 25.0
    glance: tuple[float, float] = (0.2, 1.0)
    forget: float = 0.1
    react: tuple[float, float] = (0.5, 2.0)
    repress: float = 4.0
    undo_own: float = 0.02

    @classmethod
    def draw(cls, rng: random.Random) -> Temperament:
        """A family from the whole range: hasty or careful, quick or slow, tidy or not."""
        quick = rng.uniform(0.2, 1.0)
        return cls(
            think=(0.5 * quick, 3.0 * quick),
            lay=(0.2, rng.uniform(0.6, 3.0)),
            slide=rng.uniform(0.0, 0.5),
            hover=rng.uniform(0.0, 0.6),
            wrong_square=rng.uniform(0.0, 0.15),
            wrong_move=rng.uniform(0.0, 0.1),
            careful=rng.uniform(0.0, 1.0),
            relay_after=rng.uniform(2.0, 8.0),
            give_up=rng.uniform(10.0, 30.0),
            glance=(0.1, rng.uniform(0.3, 1.5)),
            forget=rng.uniform(0.0, 0.15),
            react=(0.3, rng.uniform(0.8, 3.0)),
            repress=rng.uniform(2.0, 6.0),
            undo_own=rng.uniform(0.0, 0.04),
        )


# -- what they do at the table -----------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Press:
    """A short press of `side`'s button."""

    side: str


@dataclass(frozen=True, slots=True)
class Hold:
    """A long press of `side`'s button (undo in a game, start in the lobby)."""

    side: str


@dataclass(frozen=True, slots=True)
class DoublePress:
    """Two short presses of `side`'s button, a moment apart (within DOUBLE_SECONDS)."""

    side: str


@dataclass(frozen=True, slots=True)
class Relay:
    """Lift `tile` (and whatever lies on it) and lay it again where it lies, flat."""

    tile: Tile


@dataclass(frozen=True, slots=True)
class Straighten:
    """Straighten the stack on `square` (a touch: the reader sees it changed)."""

    square: str


@dataclass(frozen=True, slots=True)
class Show:
    """Lift `tile` from the top of its stack (or take it in hand), hold it over `over` for
    `seconds`, and lay it back where it was (or keep it in hand, to be laid next): the tile
    shown to a reader that can see it."""

    tile: Tile
    over: str
    seconds: float = 1.0


@dataclass(frozen=True, slots=True)
class TakeOff:
    """Take `tile` off the board, back into the hand."""

    tile: Tile


@dataclass(frozen=True, slots=True)
class HandsOff:
    """Take every hand off the board (nothing held over a square any more)."""


Action = Press | Hold | DoublePress | Relay | Straighten | Show | TakeOff | HandsOff


@dataclass(frozen=True, slots=True)
class Situation:
    """What the family sees and knows at one moment.

    `view`: what every display shows (each player reads their own seat and the notices for
    everyone); `active`: whose turn it really is (None in the lobby); `laid`: the tiles the
    active player really laid this turn; `mistakes`: those of them laid by mistake (an
    illegal extra, to take back once told); `last`: the last turn the table journalled,
    as (side, what that player really laid) (None before the first); `where`: the square
    each tile on the board really lies on; `leaving`: tiles an undo took back, still to
    come off.
    """

    view: TableView
    active: str | None
    laid: Placement = ()
    mistakes: tuple[Tile, ...] = ()
    last: tuple[str, Placement] | None = None
    where: Mapping[Tile, str] | None = None
    leaving: tuple[Tile, ...] = ()

    def lies_on(self, tile: Tile) -> str | None:
        return (self.where or {}).get(tile)


Answer = Callable[[Situation], tuple[Action, ...]]
#: what the family does just before laying `tile` on `square` (`Situation` as for `Answer`)
Prepare = Callable[[Situation, str, Tile], tuple[Action, ...]]


def show_first(situation: Situation, square: str, tile: Tile) -> tuple[Action, ...]:
    """What a family that reads docs/family.md does before laying a tile: if the display
    of the player to move names the square as one the readers cannot see (`ShowFirst`),
    the tile is first held a moment over an empty square, then laid."""
    for notice in situation.view.notices:
        if not isinstance(notice, ShowFirst) or notice.side != situation.active:
            continue
        if square not in notice.squares:
            return ()
        held = list((situation.where or {}).values())
        empty = [sq for sq in SQUARES if sq not in held]
        # the board full: a square of one tile the display does not name (a low stack)
        low = [sq for sq in SQUARES if held.count(sq) == 1 and sq not in notice.squares]
        if not empty and not low:
            return ()
        # which square, and how long: as families differ, drawn from the tile and the
        # square (the same gesture for the same tile: reproducible)
        whim = random.Random(zlib.crc32(f"{tile} {square}".encode()))
        return (Show(tile, over=whim.choice(empty or low), seconds=whim.uniform(0.6, 2.0)),)
    return ()


def _show_again(situation: Situation, tile: Tile) -> Show | None:
    """`tile`, laid where the readers did not see it, picked up and held a moment over an
    empty square (or, the board full, a square of one tile), then laid back
    (docs/family.md: "Nothing seen: swap?")."""
    held = [sq for sq in (situation.where or {}).values()]
    empty = [sq for sq in SQUARES if sq not in held]
    low = [sq for sq in SQUARES if held.count(sq) == 1 and sq != situation.lies_on(tile)]
    whim = random.Random(zlib.crc32(f"{tile} again".encode()))
    if not empty and not low:
        return None
    return Show(tile, over=whim.choice(empty or low), seconds=whim.uniform(0.6, 2.0))


def never_show(situation: Situation, square: str, tile: Tile) -> tuple[Action, ...]:
    """Families before issue 25: they lay a tile where it goes, whatever the displays say."""
    return ()


def answer_today(situation: Situation) -> tuple[Action, ...]:
    """What a family does with today's notices: what each asks, as well as they can.

    - a tile of the turn named ("lay ♥6 flat", "seen over NE", any problem naming it):
      hands off, lay it again; a square named that holds their tiles: lay those again;
      a square named otherwise (blind, unreadable, tile seen twice): straighten its stack;
    - "not legal": take back the tile laid by mistake, else lay the tiles again;
    - "take the tile off": take off the tiles an undo took back;
    - "last turn right? ♥4 showed up on NE": the player of that turn holds (undo) if they
      did lay it, and says nothing otherwise.
    """
    actions: list[Action] = []
    laid = dict((t, sq) for sq, t in situation.laid)
    for notice in situation.view.notices:
        if isinstance(notice, LateTile):
            last = situation.last
            if (
                last is not None
                and notice.side == last[0]
                and notice.tile in {t for _, t in last[1]}
            ):
                actions.append(Hold(notice.side))
            continue
        if isinstance(notice, IllegalMove):
            if notice.side != situation.active:
                continue
            if situation.mistakes:
                actions.extend(TakeOff(t) for t in situation.mistakes)
            else:
                actions.append(HandsOff())
                actions.extend(Relay(t) for t in laid)
            continue
        problem = notice.doubt if isinstance(notice, Unsure) else notice
        if not isinstance(problem, Problem):
            continue
        actions.append(HandsOff())
        if problem.code == "take-off":
            actions.extend(
                TakeOff(t) for t in situation.leaving if situation.lies_on(t) == problem.square
            )
        elif problem.tile is not None and problem.tile in laid:
            actions.append(Relay(problem.tile))
        elif problem.square is not None:
            mine = [t for t in laid if situation.lies_on(t) == problem.square]
            if mine:
                actions.extend(Relay(t) for t in mine)
            elif problem.code in ("blind", "unreadable", "tile-twice", "lay-flat"):
                actions.append(Straighten(problem.square))
    return tuple(dict.fromkeys(actions))  # each gesture once, in order


def answer_questions(situation: Situation) -> tuple[Action, ...]:
    """What a family does that reads docs/family.md: the daemon's questions answered from
    what a person at the table knows (what they laid) and sees (which tile lies on which
    square), and the rest as `answer_today`.

    - "★2 on NE?" to the player who pressed: one press if ★2 lies on NE, two if not, a
      long press if it lies on no square (it is in a hand), where that is an answer;
    - "the readers cannot confirm ★2" (before the press): the player presses, to be asked;
    - "♣3 on SW?" to the starter: one press if it lies there (the game starts), else two;
    - "not scored: press again": the player presses again; "no tile you laid was seen":
      each tile they laid is shown over an empty square and laid back, then a press;
    - "nothing seen: swap?": a press if they swapped, a hold if they laid tiles;
    - "turn 3: ♣4 lies on SE, not SW; press: correct; twice: it is on SW": the player of
      that turn (or, theirs to move, the next) presses once if ♣4 does lie on SE, twice if
      not.
    """
    notices = situation.view.notices
    for notice in notices:
        if isinstance(notice, Correction) and not notice.applied:
            # answered by a player not to move (the press of the player to move, with tiles
            # laid, ends the turn): the one whose turn it was, else the next one
            sides = [seat.side for seat in situation.view.seats if seat.side != situation.active]
            side = notice.side if notice.side in sides else next(iter(sides), notice.side)
            if situation.lies_on(notice.tile) == notice.squares[1]:
                return (Press(side),)
            return (DoublePress(side),)  # wrong: refused
        if isinstance(notice, NotScored) and notice.side == situation.active:
            if notice.why == "unseen":  # nothing they laid was seen: show each, press again
                shows = [_show_again(situation, tile) for _, tile in situation.laid]
                return (*(show for show in shows if show is not None), Press(notice.side))
            return (Press(notice.side),)
        if isinstance(notice, SwapQuestion) and notice.side == situation.active:
            # a press if they laid nothing (a swap); else a hold: "I laid tiles"
            return (Hold(notice.side),) if situation.laid else (Press(notice.side),)
        if isinstance(notice, Unconfirmed) and notice.side == situation.active:
            if any(isinstance(n, IllegalMove) and n.side == notice.side for n in notices):
                continue  # "not legal" is on the display, the note under it is not
            return (Press(notice.side),)  # the press asks where the tile shown lies
        if not isinstance(notice, Question) or notice.pressed:
            continue  # (pressed: answered, the display says so)
        side, square = notice.side, notice.square
        if Reply.START in notice.answers:
            tile = notice.tile
            if tile is None or situation.lies_on(tile) == square:
                return (Press(side),)  # it is there: the game starts
            return (DoublePress(side),)  # not there (then the start is held again)
        if side != situation.active:
            continue
        if notice.tile is not None:
            lies = situation.lies_on(notice.tile)
            if lies is None and Reply.HAND in notice.answers:
                return (Hold(side),)  # on no square: in a hand
            return (Press(side),) if lies == square else (DoublePress(side),)
        return (Press(side),)
    return answer_today(situation)


# -- what the displays said, for the soak's figures ------------------------------------------------
#: what each kind of notice is to the family: a "problem" (something is wrong on the board;
#: shown with a sound when it lasts), a "question" (the daemon asks the family to settle
#: something the readers cannot), a "correction" (a turn is announced wrong), or "info".
#: The soak counts problems that begin on a physically fine table as false alarms, and
#: questions per game; a notice of a type not listed here is counted as "unclassified".
NOTICE_KINDS: dict[type, str] = {
    Problem: "problem",
    Unsure: "problem",
    IllegalMove: "info",  # a false one (a legal placement) counts as a problem, see the soak
    LateTile: "question",
    Question: "question",  # the daemon asks what the readers cannot confirm
    SwapQuestion: "question",  # a press with nothing seen laid, squares dark: a swap?
    Correction: "correction",  # a scored turn proven wrong, with the difference
    NotScored: "info",  # a press that could not stand, and why: press again
    BonusAlert: "info",
    BagEmpty: "info",
    Undo: "info",
    UndoHint: "info",  # "hold: undo" for a few seconds after each turn
    PinShown: "info",
    ShowFirst: "info",  # where the readers cannot see: show a tile before laying it there
    Unconfirmed: "info",  # tiles the readers cannot confirm: the press asks about them
}


def kind(notice: object) -> str:
    """The kind of `notice` (`NOTICE_KINDS`), or "unclassified"."""
    return NOTICE_KINDS.get(type(notice), "unclassified")


def announces(notice: object, side: str, wrong: frozenset[tuple[str, Tile]]) -> bool:
    """Whether `notice` tells the family that the turn `side` just played was scored
    wrong: `wrong` holds what it got wrong ((square, tile) laid and not scored, or scored
    and not laid). Today: "last turn right?" naming a tile that turn missed."""
    if isinstance(notice, LateTile):
        return notice.side == side and (notice.square, notice.tile) in wrong
    if isinstance(notice, Correction):
        return notice.side == side and any((sq, notice.tile) in wrong for sq in notice.squares)
    return kind(notice) == "correction"
