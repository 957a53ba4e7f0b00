"""The games of the journal archive, newest first, as `replay` gives them: those played to
their end and those stopped before it (kept unfinished, with their scores).

The daemon moves a finished game's journal aside as `journal-<n>.jsonl` when a new lobby
opens (`Journal.archive`); the live journal may hold a game that has just ended. Each file
is replayed by the engine (`companion.game.replay`) and read again only when it changed.
A damaged file is listed with the reason, never a traceback.
"""

from __future__ import annotations

import hashlib
import logging
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.game.history import archives
from companion.game.replay import ReplayedGame, ReplayError, describe, replay_journal
from companion.game.table_view import progress
from companion.show.palette import css

log = logging.getLogger("setup.web")


@dataclass(frozen=True)
class FinishedGame:
    """One game for the Games page, played to its end or stopped before it (`stopped`);
    `key` names it in addresses."""

    key: str
    path: Path
    number: int
    played: ReplayedGame
    mtime: float

    @property
    def ranking(self) -> list[tuple[str, int]]:
        scores = self.played.game.scores
        return [(side, scores[side]) for side in self.played.ranking.order]

    @property
    def winner(self) -> str | None:
        return None if self.stopped else self.played.ranking.winner

    @property
    def stopped(self) -> bool:
        return self.played.stopped

    @property
    def turns(self) -> list[str]:
        return [describe(e) for e in self.played.events if e.kind != "start"]

    @property
    def turn_count(self) -> int:
        return sum(1 for e in self.played.events if e.kind == "turn")

    @property
    def when(self) -> str:
        """When the game's journal was last written (its end), for people."""
        return time.strftime("%d %b %Y, %H:%M", time.localtime(self.mtime))

    @property
    def colours(self) -> dict[str, str]:
        return self.played.colours

    @property
    def progress(self) -> tuple[tuple[str, tuple[int, ...]], ...]:
        return progress(self.played.game)

    @property
    def finish(self) -> int:
        return self.played.game.finish_line


class Archive:
    """The journals in `state_dir`, replayed on demand and cached by size and time."""

    def __init__(self, state_dir: str | Path) -> None:
        self.state_dir = Path(state_dir)
        self._cache: dict[Path, tuple[tuple[int, float], list[FinishedGame], str | None]] = {}

    def files(self) -> list[Path]:
        """The archived journals (the daemon's own list of them) and the live one, whose
        game may have just ended."""
        live = self.state_dir / "journal.jsonl"
        return [*archives(live), live] if live.exists() else archives(live)

    def games(self) -> tuple[list[FinishedGame], list[str]]:
        """Every game played to its end or stopped, newest first, and one sentence per file
        that cannot be read."""
        found: list[FinishedGame] = []
        problems: list[str] = []
        for path in self.files():
            games, problem = self._read(path)
            found.extend(games)
            if problem:
                problems.append(problem)
        found.sort(key=lambda g: (g.mtime, g.number), reverse=True)
        return found, problems

    def _read(self, path: Path) -> tuple[list[FinishedGame], str | None]:
        try:
            stat = path.stat()
        except OSError:
            return [], None
        stamp = (stat.st_size, stat.st_mtime)
        cached = self._cache.get(path)
        if cached is not None and cached[0] == stamp:
            return cached[1], cached[2]
        games: list[FinishedGame] = []
        problem = None
        try:
            replay = replay_journal(path)
            data_key = hashlib.sha1(path.name.encode()).hexdigest()[:6]
            for played in replay.games:
                if played.game.finished or played.stopped:
                    key = f"{data_key}-{played.number}"
                    games.append(FinishedGame(key, path, played.number, played, stat.st_mtime))
        except ReplayError as exc:
            problem = str(exc)
            log.warning("the Games page skips %s: %s", path, exc)
        self._cache[path] = (stamp, games, problem)
        return games, problem


def chart_lines(game: FinishedGame, width: int = 340, height: int = 190) -> dict[str, Any]:
    """The score chart as the page draws it (an SVG of the same progression the daemon's
    PNG shows): a polyline per player, the finish line, the turns and points on the axes.
    Drawn by the browser, so the web companion never loads Pillow."""
    # room above the top line for the finish line's label, inside the chart's rounded
    # corners (at 14 the label's top touched the edge, and a corner cut "finish 31")
    left, right, top, bottom = 26, width - 8, 28, height - 22
    progress = game.progress
    turns = max((len(scores) for _, scores in progress), default=1) - 1
    peak = max([game.finish, *(max(s, default=0) for _, s in progress)])

    def x(turn: int) -> float:
        return round(left + (right - left) * (turn / turns if turns else 0), 1)

    def y(score: int) -> float:
        return round(bottom - (bottom - top) * (min(score, peak) / peak if peak else 0), 1)

    return {
        "width": width,
        "height": height,
        "box": (left, top, right, bottom),
        "finish": {"y": y(game.finish), "n": game.finish},
        "grid": [{"y": y(n), "n": n} for n in range(0, peak + 1, 5)],
        "turns": [{"x": x(t), "n": t} for t in range(0, turns + 1, max(1, turns // 10))],
        "lines": [
            {
                "side": side,
                "colour": game.colours.get(side, "red"),
                "css": css(game.colours.get(side, "")),
                "points": " ".join(f"{x(i)},{y(s)}" for i, s in enumerate(scores)),
            }
            for side, scores in progress
        ],
    }
