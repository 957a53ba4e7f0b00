"""The game journal: every event that changes a game, one JSON object per line.

The journal is the game: the daemon never keeps a game anywhere else, and rebuilds it by
replaying the journal on start. Each record is written with a single `write` and flushed to
the card (`os.fsync`) before the game in memory changes, so a power cut loses at most the
event that was being written, and the players see it did not happen.

A record is committed once its newline is on disk. A last line without its newline, or a
last line that is not JSON (a torn write), is ignored and cut away by the next append. Any
other bad line is an error: the file is kept as it is, never rewritten, so a person can look.

Records (`type` first; every field is plain JSON):
- `start`: players in turn order, teams (or null), options, colours, the start board.
- `turn`: the side that moved and its placement `[[square, tile], ...]` in placing order
  (empty: a swap); `points`/`bonus` are written for people and checked on replay.
- `undo`: the last move (turn or bag return) was taken back.
- `return`: the covered tiles went back into the bag (`tiles`, checked on replay).
- `end`: the game reached its end (the ranking, for people).
- `new`: the game was closed and a new lobby opened.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.atomic import fsync_directory
from engine import (
    Board,
    BoardError,
    Game,
    GameOver,
    OptionsError,
    Placement,
    SeatingError,
    Tile,
    TileError,
)

JOURNAL_VERSION = 1
RECORD_TYPES = ("start", "turn", "undo", "return", "end", "new")


class JournalError(Exception):
    """A journal that cannot be read or replayed; the message names the line and the reason."""


class Journal:
    """An append-only JSON Lines file, flushed to the disk after every record."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._good_size: int | None = None  # bytes of whole, valid records (None: not read)
        self._torn: str | None = None  # why the last line was ignored, for the log

    def __repr__(self) -> str:
        return f"<Journal {self.path}>"

    @property
    def torn(self) -> str | None:
        """Why the last line was ignored when the journal was read, or None if it was whole."""
        return self._torn

    def records(self) -> list[dict[str, Any]]:
        """Every committed record, in order; raises JournalError for a bad line in the middle."""
        try:
            data = self.path.read_bytes()
        except FileNotFoundError:
            self._good_size, self._torn = 0, None
            return []
        except OSError as exc:
            raise JournalError(f"cannot read the journal {self.path}: {exc}") from exc
        records: list[dict[str, Any]] = []
        lines = data.split(b"\n")
        tail = lines.pop()  # after the last newline: empty, or a line cut short
        offset = 0
        self._torn = None
        for number, line in enumerate(lines, start=1):
            record, reason, torn = _parse(line)
            if record is None:
                if number == len(lines) and not tail and torn:
                    self._torn = f"line {number} ignored: {reason}"
                    break
                raise self._damaged(number, reason)
            records.append(record)
            offset += len(line) + 1
        if tail and self._torn is None:
            _, reason, torn = _parse(tail)
            if not torn:  # whole JSON that is not a record: some other file, not a torn write
                raise self._damaged(len(lines) + 1, reason)
            self._torn = f"line {len(lines) + 1} ignored: cut short (no end of line)"
        self._good_size = offset
        return records

    def _damaged(self, number: int, reason: str) -> JournalError:
        return JournalError(
            f"the journal {self.path} is damaged at line {number}: {reason}. "
            "The file is kept unchanged; move it away to start afresh."
        )

    def append(self, record: Mapping[str, Any]) -> None:
        """Writes one record and flushes it to the disk before returning."""
        if record.get("type") not in RECORD_TYPES:
            raise JournalError(f"unknown journal record type {record.get('type')!r}")
        line = json.dumps(dict(record), ensure_ascii=False, separators=(",", ":")) + "\n"
        payload = line.encode("utf-8")
        if self._good_size is None:
            self.records()  # finds where the whole records end (and refuses a damaged file)
        assert self._good_size is not None
        created = not self.path.exists()
        if created:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_WRONLY | os.O_CREAT, 0o644)
        try:
            if os.fstat(fd).st_size != self._good_size:
                os.ftruncate(fd, self._good_size)  # a torn last line from a power cut
            os.lseek(fd, self._good_size, os.SEEK_SET)
            written = 0
            while written < len(payload):
                written += os.write(fd, payload[written:])
            os.fsync(fd)
        except BaseException:
            self._good_size = None  # unknown now: read the file again before the next append
            raise
        finally:
            os.close(fd)
        if created:
            fsync_directory(self.path.parent)
        self._good_size += len(payload)
        self._torn = None

    def archive(self, label: str = "") -> Path | None:
        """Moves the journal aside as `<name>-<label><n>.jsonl` (a finished game, or with
        label "damaged-" a file that cannot be replayed); returns where it went."""
        if not self.path.exists():
            return None
        # one more than the highest number there: the oldest games may have been pruned
        # (companion.game.archive), and a reused low number would look like an old game
        stem, suffix = f"{self.path.stem}-{label}", self.path.suffix
        taken = (
            p.name[len(stem) : -len(suffix)] for p in self.path.parent.glob(f"{stem}*{suffix}")
        )
        n = 1 + max((int(t) for t in taken if t.isdigit()), default=0)
        target = self.path.with_name(f"{stem}{n}{suffix}")
        os.replace(self.path, target)
        fsync_directory(self.path.parent)
        self._good_size, self._torn = 0, None
        return target


def _parse(line: bytes) -> tuple[dict[str, Any] | None, str, bool]:
    """The record on a line, or None and why; and whether the line could be a write cut
    short by a power cut (a prefix of a record, or what the lost write left: not JSON)."""
    try:
        record = json.loads(line.decode("utf-8"))
    except UnicodeDecodeError:
        return None, "not UTF-8 text", True
    except json.JSONDecodeError as exc:
        return None, f"not JSON ({exc.msg} at column {exc.colno})", True
    if not isinstance(record, dict) or not isinstance(record.get("type"), str):
        return None, "not a journal record (an object with a type)", False
    return record, "", True


# -- replay ---------------------------------------------------------------------------------
@dataclass
class JournalGame:
    """One game found in a journal: its start record and the game rebuilt from it."""

    start: dict[str, Any]
    game: Game
    closed: bool = False  # a `new` record followed it: a lobby was opened after it


def games(records: Iterable[Mapping[str, Any]]) -> list[JournalGame]:
    """Every game in the records, each rebuilt exactly; raises JournalError on a record that
    does not fit (a turn that is not legal, an undo with nothing to undo, ...)."""
    found: list[JournalGame] = []
    current: JournalGame | None = None
    for number, record in enumerate(records, start=1):
        kind = record.get("type")
        try:
            if kind == "start":
                current = JournalGame(dict(record), _start(record))
                found.append(current)
            elif kind == "new":
                if current is not None:
                    current.closed = True
                current = None
            elif kind in RECORD_TYPES:
                if current is None:
                    raise ValueError(f"a {kind!r} record without a game started before it")
                _apply(current.game, record)
            else:
                raise ValueError(f"unknown record type {kind!r}")
        except (ValueError, KeyError, TypeError, IndexError, AttributeError, GameOver) as exc:
            reason = f"missing field {exc}" if isinstance(exc, KeyError) else str(exc)
            raise JournalError(
                f"journal record {number} ({kind}) cannot be replayed: {reason}"
            ) from exc
    return found


def replay(records: Iterable[Mapping[str, Any]]) -> Game | None:
    """The game in progress (or just finished) that the records describe, or None (lobby)."""
    found = games(records)
    if not found or found[-1].closed:
        return None
    return found[-1].game


def start_record(game: Game, colours: Mapping[str, str] | None = None) -> dict[str, Any]:
    """The record that starts `game` (its board as it is now, before any move)."""
    return {
        "type": "start",
        "v": JOURNAL_VERSION,
        "players": list(game.players),
        "teams": None if game.teams is None else [list(t) for t in game.teams],
        "options": game.options.to_mapping(),
        "colours": dict(colours or {}),
        "board": game.board.to_mapping(),
    }


def turn_record(side: str, placement: Iterable[tuple[str, Tile]], result: Any = None) -> dict:
    """The record of a turn; `result` (the engine's Scoring) adds the points for people."""
    record: dict[str, Any] = {
        "type": "turn",
        "side": side,
        "placed": Placement(placement).to_json(),
    }
    if result is not None and getattr(result, "legal", False):
        record["points"] = result.points
        record["bonus"] = dict(sorted(result.bonus.items()))
    return record


def _start(record: Mapping[str, Any]) -> Game:
    if record.get("v", JOURNAL_VERSION) != JOURNAL_VERSION:
        raise ValueError(f"journal version {record.get('v')!r} is not {JOURNAL_VERSION}")
    try:
        board = Board.from_mapping(record.get("board") or {})
        return Game(record["players"], record.get("teams"), record.get("options"), board)
    except (BoardError, TileError, OptionsError, SeatingError) as exc:
        raise ValueError(str(exc)) from exc


def _apply(game: Game, record: Mapping[str, Any]) -> None:
    kind = record["type"]
    if kind == "turn":
        side = record["side"]
        if side != game.active:
            raise ValueError(f"the turn is {game.active}'s, not {side}'s")
        placement = Placement.from_json(record["placed"])
        if not placement:
            game.swap()
            return
        result = game.place(placement)
        if not result.legal:
            raise ValueError(f"the placement is not legal: {result}")
        if "points" in record and record["points"] != result.points:
            raise ValueError(
                f"the turn scores {result.points}, the journal says {record['points']}"
            )
    elif kind == "undo":
        if not game.moves:
            raise ValueError("an undo with no move to take back")
        game.pop()
    elif kind == "return":
        if not game.needs_return:
            raise ValueError("covered tiles returned while the bag was not empty")
        move = game.return_covered()
        if "tiles" in record and sorted(record["tiles"]) != sorted(map(str, move.returned)):
            raise ValueError("the returned tiles differ from the covered tiles")
    elif kind == "end" and not game.finished:
        raise ValueError("the game ends in the journal but not by the rules")
