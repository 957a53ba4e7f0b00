"""Stopping a game before its end: the question every display asks after the gesture.

A family that stops at 15-12 must not have to play on to the finish to change a setting or
register tiles. The gesture cannot happen by accident: two seats' buttons held down together
(a long press while another seat's button is down: one long press alone stays the undo it
always was), and then a question on every display that a long press answers "stop" and a
short press, or `QUESTION_SECONDS` without a press, answers "play on". The stopped game is
kept in the journal's archive, unfinished, with its scores (`journal.stop_record`).
"""

from __future__ import annotations

from dataclasses import dataclass

#: the question goes away by itself (the game goes on) after this long without a press
QUESTION_SECONDS = 15.0


@dataclass(frozen=True, slots=True)
class StopQuestion:
    """What every display shows while the table asks whether to stop the game: the scores
    as they stand (in turn order), the seats' colours and the seats that asked."""

    scores: tuple[tuple[str, int], ...]
    colours: tuple[tuple[str, str], ...]
    asked_by: tuple[str, ...]

    def colour(self, side: str) -> str:
        return dict(self.colours).get(side, "red")
