"""The finished games kept in the state dir, bounded: the newest `keep` of them.

A finished game is its journal moved aside as `journal-<n>.jsonl` (n counts up) and its score
chart `scores-<hash>.png`, named after the journal's first record. Years of play on an SD
card must not fill it, so once a game is archived the oldest games beyond `keep` are deleted,
each journal with its chart. Damaged journals set aside (`journal-damaged-<n>.jsonl`) are
never pruned: they wait for a person. A chart is only a picture of its journal:
`companion.show.chart.redraw` draws it again from a kept journal.
"""

from __future__ import annotations

import hashlib
import logging
from pathlib import Path

from companion.atomic import fsync_directory
from companion.game.history import archives

log = logging.getLogger("setup.archive")


def chart_path(journal: Path) -> Path:
    """Where the score chart of the game in `journal` is (or goes)."""
    try:
        with journal.open("rb") as file:
            first = file.readline()
    except OSError:
        first = b""
    return journal.with_name(f"scores-{hashlib.sha1(first).hexdigest()[:8]}.png")


def prune(journal: Path, keep: int) -> list[Path]:
    """Deletes the oldest finished games beyond the newest `keep`; the files deleted."""
    games = archives(journal)
    old = games[: max(0, len(games) - keep)]
    # games that started alike share a chart name: it stays while a kept game has it
    kept = {chart_path(path) for path in games[len(old) :]} | {chart_path(journal)}
    deleted: list[Path] = []
    for path in old:
        chart = chart_path(path)  # before the journal goes: its name is read from it
        for file in ([] if chart in kept else [chart]) + [path]:
            try:
                file.unlink()
            except FileNotFoundError:
                continue
            except OSError as exc:  # a read-only card: the next game tries again
                log.error("cannot delete the old game %s: %s", file, exc.strerror)
                return deleted
            deleted.append(file)
    if deleted:
        fsync_directory(journal.parent)
        log.info("deleted the %d oldest finished game(s), keeping %d", len(old), keep)
    return deleted
