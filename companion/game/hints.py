"""Short reminders on the displays, values the daemon adds to a view's notices."""

from __future__ import annotations

from dataclasses import dataclass

#: how long "hold to undo" shows after each turn
UNDO_HINT_SECONDS = 5.0


@dataclass(frozen=True, slots=True)
class UndoHint:
    """A turn just ended: every seat's last-turn line also says a long press takes it back."""
