"""What the daemon's loop acts on: one queue of typed events, each handed to one handler.

Every input of the daemon is an event put into its `Inbox`, from whichever thread it comes:
a seat button's press (from gpiozero's thread, with the time the buttons gave it), a hub
snapshot and a change of the hub's health (read by the loop itself), a request of the web
companion (from the publisher's thread) and a tick (the loop, after each wait: time passes).
The loop takes them in the order they came and hands each to the one handler its type has
(`Daemon.dispatch`), as gunicorn's Arbiter hands each signal in its queue to its
`handle_<name>` and Mopidy's core listener each event to its `on_<event>`.

Adding a kind of event: a frozen dataclass here, with the time it happened (`at`), in the
`Event` union, and its handler in `Daemon.handlers` (tests/daemon/test_events.py checks that
every kind has one).
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from companion.board.word import Word
from companion.game.view import Correction
from engine import Tile
from hardware.hub.snapshot import Snapshot


@dataclass(frozen=True, slots=True)
class Press:
    """A seat's button: a short press (on release) or a long one (once held long enough);
    `at` is when the buttons told it apart, on the daemon's clock."""

    seat: str
    long: bool
    at: float
    #: a long press: the other seats whose button was down then too (two buttons held
    #: together ask to stop the game)
    together: frozenset[str] = frozenset()


@dataclass(frozen=True, slots=True)
class Sweep:
    """One snapshot of the twelve readers from the hub, read at `at`."""

    snapshot: Snapshot
    at: float


@dataclass(frozen=True, slots=True)
class HubState:
    """The hub's link changed: connected or not, the readers reporting a fault, and the
    other programs that have the hub's port open (they take its lines)."""

    connected: bool
    faulty: tuple[int, ...]
    at: float
    shared: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class WebRequest:
    """A request of a web companion on the daemon's socket (`companion.daemon.publish`):
    `client` is the connection to answer, `fields` the request as it came (`op`, `id`, ...)."""

    client: int
    fields: Mapping[str, Any] = field(hash=False)
    at: float = 0.0

    @property
    def op(self) -> object:
        return self.fields.get("op")


@dataclass(frozen=True, slots=True)
class StopGame:
    """Stop the game being played before its end: the table's question answered "stop"
    (`by` "table") or a paired page's request (`by` "web")."""

    by: str
    at: float


@dataclass(frozen=True, slots=True)
class FamilyWord:
    """The family's word about a square the readers cannot vouch for (`Word`): a paired
    page's correction (`by` "page", set by the daemon, never by the page), taken by
    `Table.take_word` on the loop like a press."""

    word: Word
    at: float


@dataclass(frozen=True, slots=True)
class TileInHand:
    """A paired page's answer to the question the player's display asks ("♠1 on E2?"):
    that tile is in a hand, on no square (`Reply.HAND`, a hold at the table), taken by
    `Table.take_in_hand` on the loop like the hold."""

    tile: Tile
    at: float


@dataclass(frozen=True, slots=True)
class ConfirmCorrection:
    """The correction on every display (a scored turn proven wrong) confirmed, as a player's
    press confirms it: by a paired page (`by` "page", set by the daemon), which names the
    `shown` correction it saw (`Correction`, from its published JSON) so that no other is
    applied; taken by `Table.confirm_correction` on the loop."""

    by: str
    shown: Correction | None
    at: float


@dataclass(frozen=True, slots=True)
class Tick:
    """Time passes: the loop's wait ended (a sweep, an event, or its timeout)."""

    at: float


Event = (
    Press
    | Sweep
    | HubState
    | WebRequest
    | StopGame
    | FamilyWord
    | TileInHand
    | ConfirmCorrection
    | Tick
)


class Inbox:
    """The daemon's one input queue: `put` from any thread (it wakes the loop's wait, the
    hub link's read), `take` on the loop's thread, oldest first."""

    def __init__(self, wake: Callable[[], None] = lambda: None) -> None:
        self._wake = wake
        self._events: deque[Event] = deque()
        self._lock = threading.Lock()

    def __repr__(self) -> str:
        return f"<Inbox {len(self._events)} waiting>"

    def __len__(self) -> int:
        return len(self._events)

    def put(self, event: Event, *, wake: bool = True) -> None:
        """`event` behind those waiting; `wake`: end the loop's wait (not needed when the
        loop itself puts it, being awake)."""
        with self._lock:
            self._events.append(event)
        if wake:
            self._wake()

    def take(self) -> list[Event]:
        """Every event waiting, in the order they came."""
        with self._lock:
            events = list(self._events)
            self._events.clear()
        return events
