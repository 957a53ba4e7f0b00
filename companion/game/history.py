"""The games played before: the last finished (or stopped) one, read back from the archive.

A finished game's journal is moved aside as `journal-<n>.jsonl` when a new lobby opens (see
`Journal.archive`); the one with the highest number is the last game. It is replayed (the
journal is the game), so its ranking is the engine's own, never a copy that could differ.
A damaged or unreadable archive is no last game: the lobby then shows none.
"""

from __future__ import annotations

import logging
import re
from pathlib import Path

from companion.game.journal import Journal, JournalError
from companion.game.replay import games
from companion.game.view import GameResult

log = logging.getLogger("setup.history")


def archives(journal: Path) -> list[Path]:
    """The archived journals of finished games, oldest first."""
    pattern = re.compile(re.escape(journal.stem) + r"-(\d+)" + re.escape(journal.suffix))
    found = []
    try:
        for path in journal.parent.iterdir():
            match = pattern.fullmatch(path.name)
            if match:
                found.append((int(match.group(1)), path))
    except OSError:
        return []
    return [path for _, path in sorted(found)]


def last_game(journal: Path) -> GameResult | None:
    """The ranking of the last game in the archive next to `journal` that was finished or
    stopped before its end (then with its scores as they stood, and no winner), or None."""
    for path in reversed(archives(journal)):
        try:
            found = games(Journal(path).records())
        except JournalError as exc:
            log.warning("the archived game %s cannot be read back: %s", path.name, exc)
            continue
        played = [g for g in found if g.game.finished or g.stopped]
        if not played:
            continue
        game, stopped = played[-1].game, played[-1].stopped
        ranking = game.ranking()
        scores = game.scores
        return GameResult(
            tuple((side, scores[side]) for side in ranking.order),
            finish=game.finish_line,
            winner=ranking.winner if game.teams is None and not stopped else None,
            winner_team=None if stopped else ranking.winner_team,
            stopped=stopped,
        )
    return None
