"""The sound events of the table: what happened, for whom, so the buzzer (or a voice) can
say it. The table and the daemon only name events; which tune plays is the presenter's
choice (`companion.show.tunes.TUNE_OF`)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class SoundEvent(StrEnum):
    """Something the players should hear about, one spelling each. `Sound.side` is the seat
    it is about (None: everyone)."""

    JOIN = "join"  # a player joined the lobby (side: who)
    LEAVE = "leave"  # a player left the lobby again (side: who)
    START = "start"  # the game started
    SCORE = "score"  # a turn scored (side: who, points: how many)
    SWAP = "swap"  # a turn without placing (side: who)
    BONUS = "bonus"  # a bonus for a player, one event per owner and turn (side: owner, points)
    ILLEGAL = "illegal"  # the placement is not legal; the turn did not end (side: who pressed)
    #: a press that cannot be done now: a problem on the board, nothing to undo, not enough
    #: players, a setting that could not be saved (side: who pressed)
    REFUSED = "refused"
    NOT_YOUR_TURN = "not-your-turn"  # a player pressed during another's turn (side: who)
    UNDO = "undo"  # the last turn was taken back (side: whose turn it was)
    BAG_EMPTY = "bag-empty"  # the bag ran empty: the covered tiles go back into it
    RETURNED = "returned"  # the covered tiles are back in the bag
    PROBLEM = "problem"  # a new problem appeared on the board (a fault, an unknown tag, ...)
    GAME_OVER = "game-over"  # the game ended (side: the winner, if there is one)
    NEW_GAME = "new-game"  # a new lobby opened after a game
    MENU = "menu"  # the settings menu opened, or showed its next item
    CLOSED = "closed"  # the settings menu or the tiles' registration closed
    SAVED = "saved"  # a table setting was changed and saved
    ENROL = "enrol"  # the registration of the tiles started

    def __repr__(self) -> str:  # evaluates back, as the values that hold it
        return f"{type(self).__name__}.{self.name}"


@dataclass(frozen=True, slots=True)
class Sound:
    """One sound event; `kind` may be given as its text and is kept as the enum."""

    kind: SoundEvent
    side: str | None = None
    points: int = 0

    def __post_init__(self) -> None:
        try:
            kind = SoundEvent(self.kind)
        except ValueError:
            raise ValueError(f"unknown sound {self.kind!r}") from None
        object.__setattr__(self, "kind", kind)

    def __str__(self) -> str:
        who = f" {self.side}" if self.side else ""
        return f"{self.kind}{who}" + (f" +{self.points}" if self.points else "")
