"""The sound events of the table: what happened, for whom, so the buzzer (or a voice) can
say it. The table only names events; which tune plays is the presenter's choice."""

from __future__ import annotations

from dataclasses import dataclass

#: kind -> when it is made. `side` is the seat it is about (None: everyone).
SOUNDS: dict[str, str] = {
    "join": "a player joined the lobby (side: who)",
    "leave": "a player left the lobby again (side: who)",
    "start": "the game started",
    "score": "a turn scored (side: who, points: how many)",
    "swap": "a turn without placing (side: who)",
    "bonus": "a bonus for a player, one event per owner and turn (side: owner, points)",
    "illegal": "the placement is not legal; the turn did not end (side: who pressed)",
    "refused": "a press that cannot be done now: a problem on the board, nothing to undo, "
    "not enough players (side: who pressed)",
    "not-your-turn": "a player pressed while it is another's turn (side: who pressed)",
    "undo": "the last turn was taken back (side: whose turn it was)",
    "bag-empty": "the bag ran empty: the covered tiles go back into it",
    "returned": "the covered tiles are back in the bag",
    "problem": "a new problem appeared on the board (a fault, an unknown tag, ...)",
    "game-over": "the game ended (side: the winner, if there is one)",
    "new-game": "a new lobby opened after a game",
}


@dataclass(frozen=True, slots=True)
class Sound:
    """One sound event."""

    kind: str
    side: str | None = None
    points: int = 0

    def __post_init__(self) -> None:
        if self.kind not in SOUNDS:
            raise ValueError(f"unknown sound {self.kind!r}")

    def __str__(self) -> str:
        who = f" {self.side}" if self.side else ""
        return f"{self.kind}{who}" + (f" +{self.points}" if self.points else "")
