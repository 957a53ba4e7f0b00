"""The game journal: every event that changes a game, one JSON object per line.

The journal is the game: the daemon rebuilds it by replaying the journal on start. Each
record is written with a single `write` and flushed to the card (`os.fsync`) before the game
in memory changes, so a power cut loses at most the event that was being written, and the
players see it did not happen.

A record is committed once its newline is on disk, and acknowledged once its `fsync`
returned. The journal keeps the acknowledged lines in memory as well, so that whatever
happens to the file it can write the whole game again:
- a failed write or fsync (EIO, a full card) leaves the file at its last acknowledged size
  as far as the journal is concerned: the next append cuts the unacknowledged bytes away (a
  file only ever shrinks back, it is never extended with zeros) and writes the record once;
- a file replaced, deleted or cut short by someone else (its inode or size changed, found at
  the next append or check) is written again whole from memory, atomically.

On a card that cannot be written at all (read-only, or full when the daemon starts), the
daemon plays without saving: `Journal(path, unsaved=<why>)` reads what is on the card, keeps
every record in memory only and never touches the file; `unsaved` is the problem code the
displays show for it ("card-read-only", "card-full").

Each record ends with its number in the journal and a checksum of its own bytes
(`"n":<1, 2, ...>,"crc":"<crc32 hex>"`, the last keys), and is written twice, the two lines
in one write: one damaged byte (a flipped bit, a byte of another value, a newline made or
lost) spoils one line, and the record is read from the other, so it costs nothing at all, in
the start record as anywhere else; the damaged copy is written again whole at the next
append. A power cut leaves at most a first copy cut short (the record was not written: it
is ignored), or a first copy whole and the second cut short (the record was: it is kept);
zeros where a write was lost are a power cut too. Only a record both of whose copies are
damaged is damage (`JournalDamaged`), which keeps the records before it. Two copies of the
start record, rather than enough of it repeated in every turn record: every record is
covered alike (the last turn too, which no later record could repeat), reading stays one
rule, and a journal costs twice its size on the card, about 6 KB a game.

Journals written before the copies (one line per record, no number) are read as they were:
a bad line there costs the records from it on. Before the checksum (the first line has
none), a last line that is not JSON is taken for a torn write.

Records (`type` first; every field is plain JSON), each made by its builder below:
- `start`: players in turn order, teams (or null), options, colours, the start board.
- `turn`: the side that moved and its placement `[[square, tile], ...]` in placing order
  (empty: a swap); `points`/`bonus` are written for people and checked on replay.
- `undo`: the last move (turn or bag return) was taken back.
- `return`: the covered tiles went back into the bag (`tiles`, checked on replay).
- `end`: the game reached its end (the ranking and scores, for people).
- `stop`: the game was stopped before its end (`by` "table" or "web"; its scores as they
  stood, checked on replay); a `new` record follows it.
- `new`: the game was closed and a new lobby opened.
- `word`: the family's word about a tile the readers cannot vouch for (`said` "laid" or
  "absent", `square`, `tile`, `by`: a side or "page", `at`: the daemon's clock), written
  before it takes effect; it holds for the turn being played (or the lobby's start board),
  so resume applies the words since the last move again.
- `amend`: turn `turn` (counted as `replay` counts) is played again as `placed` (the tile
  `tile` moved from `from` to `to`, where the readers proved it lies), confirmed by `by`;
  every later move is played again after it; `points`/`bonus` are the amended turn's, for
  people, checked on replay (`companion.game.amend`).
"""

from __future__ import annotations

import errno
import json
import logging
import os
import re
import stat
import zlib
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from companion.atomic import fsync_directory, guard, write_atomic
from companion.board.word import Word
from engine import Game, Placement, Tile

log = logging.getLogger("setup.journal")

JOURNAL_VERSION = 1
RECORD_TYPES = ("start", "turn", "undo", "return", "end", "stop", "new", "word", "amend")
#: the checksum closing every record written since it was introduced
_CRC = re.compile(rb',"crc":"([0-9a-f]{8})"\}$')
#: a checksum with bytes after it: a whole record, not a write cut short
_WHOLE = re.compile(rb',"crc":"[0-9a-f]{8}"\}.')
#: the end of a record anywhere in a line (two records on one line: their newline damaged)
_END = re.compile(rb',"crc":"[0-9a-f]{8}"\}')
#: how a record begins, where the second of two records on one line starts
_BEGIN = b'{"type":'
#: how often a healthy journal checks that its file is still the one it writes (seconds)
CHECK_SECONDS = 2.0
#: after a failed write, the waits before writing the whole journal again (seconds)
RETRY_SECONDS = (1.0, 2.0, 4.0, 8.0, 16.0, 30.0)


class JournalError(Exception):
    """A journal that cannot be read or replayed; the message names the line and the reason."""


class JournalDamaged(JournalError):
    """A record that is neither whole nor a torn write: `line` is the first bad line, the
    `lost` records from it on cannot be read; the records before it are good."""

    def __init__(self, message: str, line: int, lost: int, good: list[dict[str, Any]]) -> None:
        super().__init__(message)
        self.line = line
        self.lost = lost
        self.good = good


def encode(record: Mapping[str, Any], n: int | None = None) -> bytes:
    """The line of a record: compact JSON, its number `n` in the journal (when given) and
    its checksum as the last keys, a newline. The journal writes each line twice."""
    if record.get("type") not in RECORD_TYPES:
        raise JournalError(f"unknown journal record type {record.get('type')!r}")
    if "crc" in record or "n" in record:
        raise JournalError("a journal record cannot have a field named crc or n")
    fields = dict(record) if n is None else {**record, "n": n}
    body = json.dumps(fields, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    return body[:-1] + b',"crc":"%08x"}\n' % zlib.crc32(body)


class Journal:
    """An append-only JSON Lines file, flushed to the disk after every record."""

    def __init__(self, path: str | Path, *, unsaved: str | None = None) -> None:
        self.path = Path(path)
        #: why records are kept in memory only and the card is never written (None: saved)
        self.unsaved = unsaved
        self._lines: list[bytes] | None = None  # the acknowledged lines (None: not read yet)
        self._size = 0  # their bytes: what the file must begin with
        self._identity: tuple[int, int] | None = None  # (device, inode) of the file written
        self._torn: str | None = None  # why the last line was ignored, for the log
        self._damaged: JournalDamaged | None = None  # refuse to append until `cut`
        self._suspect = False  # a write failed: check the file before trusting it again
        self._heal = False  # a copy on the card is damaged or cut short: write it whole
        #: the line of the file each record read was found on (its first good copy)
        self.record_lines: list[int] = []
        #: what was wrong with a copy of a record when it was read (nothing was lost)
        self.repaired: str | None = None
        self._failures = 0  # failed writes in a row
        self._retry_at: float | None = None
        self._check_at: float | None = None

    def __repr__(self) -> str:
        return f"<Journal {self.path}>"

    @property
    def saving(self) -> bool:
        return self.unsaved is None

    @property
    def torn(self) -> str | None:
        """Why the last line was ignored when the journal was read, or None if it was whole."""
        return self._torn

    @property
    def writable(self) -> bool:
        """False from a failed write until the journal is written again."""
        return self._failures == 0

    # -- reading ----------------------------------------------------------------------------
    def records(self) -> list[dict[str, Any]]:
        """Every committed record, in order. Raises JournalDamaged for a bad record (the
        records before it are in the error) and JournalError for a file that cannot be read."""
        data, identity = self._read()
        return guard(
            lambda: self._parse(data, identity),
            lambda reason: JournalDamaged(
                f"the journal {self.path} is damaged: {reason}", 1, max(data.count(b"\n"), 1), []
            ),
            JournalError,
        )

    def _parse(self, data: bytes, identity: tuple[int, int] | None) -> list[dict[str, Any]]:
        self._torn, self._damaged, self._heal, self.repaired = None, None, False, None
        lines = data.split(b"\n")
        tail = lines.pop()  # after the last newline: empty, or a line cut short
        if not _END.search(data):  # written before the checksum, or empty
            return self._parse_plain(lines, tail, identity)
        records: list[dict[str, Any]] = []
        good: list[bytes] = []  # each record's lines as they are written
        seen: list[bytes] = []  # each record's first good line as read
        self.record_lines = where = []
        copies = 0  # good copies read of the last record
        after = 0  # where the bytes after the last good line begin
        bad: tuple[int, str] | None = None  # the first bad line after the last good one
        damage: tuple[int, str] | None = None
        highest = 0
        offset = 0
        for number, line in enumerate(lines, start=1):
            offset += len(line) + 1
            if copies == 1 and line == seen[-1]:  # the second copy, as the first: no decoding
                copies, bad, after = copies + 1, None, offset
                continue
            for record, reason, raw in _records_in(line):
                if record is None:
                    bad = bad or (number, reason)
                    continue
                n = record.pop("n", None)
                highest = max(highest, n if type(n) is int else 0)
                if n is None:  # a record of a journal written before the copies
                    if bad is not None:
                        damage = bad
                        break
                    records.append(record)
                    good.append(raw + b"\n")
                    seen.append(raw)
                    where.append(number)
                    copies = 2  # the only copy there is
                elif n == len(records) + 1:
                    records.append(record)
                    good.append((raw + b"\n") * 2)  # its checksum holds: as it was written
                    seen.append(raw)
                    where.append(number)
                    copies = 1
                elif n == len(records) and raw == seen[-1]:
                    copies += 1
                else:  # a record missing (both copies damaged), or one out of its place
                    damage = bad or (number, f"record {len(records) + 1} is missing")
                    break
                bad = None
                after = offset
            if damage is not None:
                break
        rest = data[after:]
        second: str | None = None  # what a power cut or a bad byte did to the last second copy
        expected = seen[-1] + b"\n" if copies == 1 else None
        if damage is None and expected is not None and expected.startswith(rest):
            second = "cut short"  # the record's first copy is whole: it was written
        elif damage is None and expected is not None and _one_byte_apart(rest, expected):
            second = "damaged"
        elif damage is None and rest:
            if bad is None and tail and b"\n" not in rest:
                if _WHOLE.search(tail) and not _lost_write(tail, True):
                    damage = (len(lines) + 1, "a whole record whose end of line is damaged")
                else:
                    self._torn = f"line {len(lines) + 1} ignored: cut short (no end of line)"
            elif b"\n" not in rest.rstrip(b"\n") and _lost_write(rest.rstrip(b"\n"), True):
                self._torn = f"line {len(lines)} ignored: the zeros of a lost write"
            else:
                damage = bad or (len(lines) + (1 if tail else 0), "a record cut short")
        self._lines, self._identity = good, identity
        self._size = sum(map(len, good))
        # a copy damaged, merged or cut short on the card: written again whole at the next
        # append (or check), so that every record has its two copies again
        written = b"".join(good)
        self._heal = damage is None and data[: self._size] != written
        if damage is not None:
            number, reason = damage
            for line in lines[number:]:  # how many records the file held: their numbers
                for record, _, _ in _records_in(line):
                    n = (record or {}).get("n")
                    highest = max(highest, n if type(n) is int else 0)
            lost = highest - len(records)
            if not highest:  # written before the copies: a line is a record
                lost = sum(1 for line in lines[number - 1 :] if line.strip()) + bool(tail)
            self._damaged = JournalDamaged(
                f"the journal {self.path} is damaged at line {number}: {reason}",
                number,
                max(lost, 1),
                records,
            )
            raise self._damaged
        if second == "cut short":
            self.repaired = (
                "the second copy of its last record cut short (a power cut while writing; "
                "the record was read from its first)"
            )
        elif self._heal and (second == "damaged" or data[:after] != written[:after]):
            self.repaired = "a damaged copy of a record (the record was read from its other copy)"
        return records

    def _parse_plain(
        self, lines: list[bytes], tail: bytes, identity: tuple[int, int] | None
    ) -> list[dict[str, Any]]:
        """A journal written before the checksum: one line per record, no number."""
        self.record_lines = []
        records: list[dict[str, Any]] = []
        good: list[bytes] = []
        damage: tuple[int, str] | None = None
        for number, line in enumerate(lines, start=1):
            record, reason, _ = _decode(line, False)
            if record is None:
                if number == len(lines) and not tail and _lost_write(line, False):
                    self._torn = f"line {number} ignored: {reason}"
                else:
                    damage = (number, reason)
                break
            records.append(record)
            good.append(line + b"\n")
            self.record_lines.append(number)
        if tail and damage is None and self._torn is None:
            record, reason, _ = _decode(tail, False)
            if record is None and not _lost_write(tail, False):
                damage = (len(lines) + 1, reason)  # whole JSON: some other file, not a cut
            else:
                self._torn = f"line {len(lines) + 1} ignored: cut short (no end of line)"
        self._lines, self._identity = good, identity
        self._size = sum(map(len, good))
        if damage is not None:
            number, reason = damage
            lost = sum(1 for line in lines[number - 1 :] if line.strip()) + (1 if tail else 0)
            self._damaged = JournalDamaged(
                f"the journal {self.path} is damaged at line {number}: {reason}",
                number,
                max(lost, 1),
                records,
            )
            raise self._damaged
        return records

    def _read(self) -> tuple[bytes, tuple[int, int] | None]:
        try:
            fd = os.open(self.path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
        except FileNotFoundError:
            return b"", None
        except OSError as exc:
            raise JournalError(f"cannot read the journal {self.path}: {_why(exc)}") from None
        try:
            info = os.fstat(fd)
            if not stat.S_ISREG(info.st_mode):
                raise JournalError(f"the journal {self.path} is not a file")
            chunks = []
            while chunk := os.read(fd, 1 << 16):
                chunks.append(chunk)
        except OSError as exc:
            raise JournalError(f"cannot read the journal {self.path}: {_why(exc)}") from None
        finally:
            os.close(fd)
        return b"".join(chunks), (info.st_dev, info.st_ino)

    # -- writing ----------------------------------------------------------------------------
    def append(self, record: Mapping[str, Any]) -> None:
        """Writes one record and flushes it to the disk before returning. On an error
        nothing is acknowledged: the next append writes from the last acknowledged record."""
        if self._lines is None:
            self.records()  # finds where the whole records end (and refuses a damaged file)
        if self._damaged is not None:
            raise self._damaged
        assert self._lines is not None
        line = encode(record, len(self._lines) + 1) * 2  # two copies, one write
        try:
            if self.saving:
                self._append(line)
        except OSError:
            self._failed()
            raise
        self._lines.append(line)
        self._size += len(line)
        self._torn = None
        self._recovered()

    def _append(self, line: bytes) -> None:
        assert self._lines is not None
        fd, created = self._open()
        try:
            info = os.fstat(fd)
            identity = (info.st_dev, info.st_ino)
            same = self._identity is None or identity == self._identity
            whole = not stat.S_ISREG(info.st_mode) or not same or info.st_size < self._size
            if self._heal:
                whole = True
            elif not whole and self._suspect:
                whole = os.pread(fd, self._size, 0) != b"".join(self._lines)
            if whole:
                if self._lines and not self._heal:
                    log.warning(
                        "the journal %s was replaced or cut short while in use: "
                        "it is written again whole (%d records)",
                        self.path,
                        len(self._lines),
                    )
                os.close(fd)
                fd = -1
                self._rewrite([*self._lines, line])
                return
            if info.st_size != self._size:
                os.ftruncate(fd, self._size)  # only ever shrinks: unacknowledged bytes go
            os.lseek(fd, self._size, os.SEEK_SET)
            written = 0
            while written < len(line):
                written += os.write(fd, line[written:])
            os.fsync(fd)
            self._identity, self._suspect = identity, False
        finally:
            if fd >= 0:
                os.close(fd)
        if created:
            fsync_directory(self.path.parent)

    def _open(self) -> tuple[int, bool]:
        flags = os.O_RDWR | os.O_NOFOLLOW | os.O_CLOEXEC
        try:
            return os.open(self.path, flags), False
        except FileNotFoundError:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            return os.open(self.path, flags | os.O_CREAT, 0o644), True

    def _rewrite(self, lines: list[bytes]) -> None:
        """The journal replaced atomically by `lines` (a reader sees the old or the new)."""
        write_atomic(self.path, b"".join(lines))
        info = os.stat(self.path, follow_symlinks=False)
        self._identity, self._suspect, self._heal = (info.st_dev, info.st_ino), False, False

    def _failed(self) -> None:
        self._suspect = True
        self._failures += 1
        self._retry_at = None

    def _recovered(self) -> None:
        self._failures, self._retry_at = 0, None

    def tend(self, now: float) -> bool | None:
        """Called as time passes: checks now and then that the file is still the one being
        written (a replaced or deleted file is written again whole), and after a failed
        write retries writing the whole journal, waiting longer after each failure. Returns
        True when it found the journal well (again), False when it still cannot be
        written, None when nothing was due."""
        if self._lines is None or self._damaged is not None or not self.saving:
            return None
        if self._failures:
            if self._retry_at is None:
                wait = RETRY_SECONDS[min(self._failures, len(RETRY_SECONDS)) - 1]
                self._retry_at = now + wait
            if now < self._retry_at:
                return None
            try:
                self._rewrite(self._lines)
            except OSError:
                self._failed()
                return False
            self._recovered()
            return True
        if self._heal:
            return self.heal()
        if self._check_at is not None and now < self._check_at:
            return None
        self._check_at = now + CHECK_SECONDS
        try:
            info = os.stat(self.path, follow_symlinks=False)
            changed = (info.st_dev, info.st_ino) != self._identity or info.st_size < self._size
        except FileNotFoundError:
            changed = True
        except OSError:
            changed = False  # cannot tell: the next append finds out
        if not changed or (not self._lines and self._identity is None):
            return True
        log.warning(
            "the journal %s was replaced, deleted or cut short while in use: "
            "it is written again whole (%d records)",
            self.path,
            len(self._lines),
        )
        try:
            self._rewrite(self._lines)
        except OSError:
            self._failed()
            return False
        return True

    def heal(self) -> bool:
        """Writes the journal again whole if a copy of a record was found damaged or cut short
        when it was read (every record has its two copies again); False if the card refused."""
        if not self._heal or not self.saving or self._lines is None:
            return True
        try:
            self._rewrite(self._lines)
        except OSError as exc:
            log.error("cannot write the journal %s again whole: %s", self.path, exc)
            self._failed()
            return False
        return True

    # -- moving aside -----------------------------------------------------------------------
    def archive(self, label: str = "") -> Path | None:
        """Moves the journal aside as `<name>-<label><n>.jsonl` (a finished game, or with
        label "damaged-" a file that cannot be replayed); returns where it went."""
        if not self.saving:
            self._forget()  # the file stays as it was on the card; memory starts anew
            return None
        if not os.path.lexists(self.path):
            return None
        target = self._free_name(label)
        os.replace(self.path, target)
        fsync_directory(self.path.parent)
        self._forget()
        return target

    def cut(self, keep: int, label: str = "damaged-") -> Path | None:
        """Keeps the damaged file aside as it is (`<name>-damaged-<n>.jsonl`) and goes on
        with its first `keep` good records, written atomically; returns where it went."""
        if self._lines is None:
            raise JournalError("the journal must be read before it is cut")
        kept = self._lines[:keep]
        if not self.saving:
            self._lines, self._size = kept, sum(map(len, kept))
            self._damaged, self._torn = None, None
            return None
        if not kept:
            return self.archive(label)
        target = self._free_name(label)
        try:
            os.link(self.path, target, follow_symlinks=False)  # the very bytes, no copy
        except OSError:
            data, _ = self._read()
            write_atomic(target, data)
        self._rewrite(kept)
        self._lines, self._size = kept, sum(map(len, kept))
        self._damaged, self._torn = None, None
        return target

    def _free_name(self, label: str) -> Path:
        # one more than the highest number there: the oldest games may have been pruned
        # (companion.game.archive), and a reused low number would look like an old game
        stem, suffix = f"{self.path.stem}-{label}", self.path.suffix
        taken = (
            p.name[len(stem) : -len(suffix)] for p in self.path.parent.glob(f"{stem}*{suffix}")
        )
        n = 1 + max((int(t) for t in taken if t.isdigit()), default=0)
        return self.path.with_name(f"{stem}{n}{suffix}")

    def _forget(self) -> None:
        self._lines, self._size, self._identity = [], 0, None
        self._torn, self._damaged, self._suspect, self._heal = None, None, False, False
        self._recovered()


def _why(exc: OSError) -> str:
    if exc.errno == errno.ELOOP:
        return "it is a symbolic link, which the journal never follows"
    return exc.strerror or str(exc)


def _decode(line: bytes, checked: bool | None) -> tuple[dict[str, Any] | None, str, bool]:
    """The record on a line, or None and why; and whether the line carries a checksum.
    `checked`: whether the file's records carry checksums (None: not known yet)."""
    found = _CRC.search(line)
    body = line
    if found is not None:
        body = line[: found.start()] + b"}"
        if zlib.crc32(body) != int(found.group(1), 16):
            return None, "its checksum does not match (a damaged record)", True
    try:
        record = json.loads(body.decode("utf-8"))
    except UnicodeDecodeError:
        return None, "not UTF-8 text", found is not None
    except json.JSONDecodeError as exc:
        return None, f"not JSON ({exc.msg} at column {exc.colno})", found is not None
    except RecursionError:
        return None, "not a journal record (nested too deeply)", found is not None
    if not isinstance(record, dict) or not isinstance(record.get("type"), str):
        return None, "not a journal record (an object with a type)", found is not None
    if found is None and (checked or "crc" in record):
        return None, "its checksum is missing (a damaged record)", False
    return record, "", found is not None


def _records_in(line: bytes) -> list[tuple[dict[str, Any] | None, str, bytes]]:
    """The record on a line, or why there is none, with the line; a line holding two
    records (the newline between them damaged) gives both, the damaged byte left out."""
    record, reason, _ = _decode(line, True)
    ends = list(_END.finditer(line))
    if record is not None or len(ends) < 2:
        return [(record, reason, line)]
    found: list[tuple[dict[str, Any] | None, str, bytes]] = []
    start = 0
    for end in ends:
        if end.start() < start:
            continue
        part = line[start : end.end()]
        found.append((*_decode(part, True)[:2], part))
        start = line.find(_BEGIN, end.end())
        if start < 0:
            break
    if 0 <= start < len(line) and start >= ends[-1].end():
        found.append((None, "a record cut short", line[start:]))
    return found


def _one_byte_apart(found: bytes, expected: bytes) -> bool:
    """Whether `found` is `expected` with at most one byte changed (a flipped bit, a newline
    made or lost)."""
    return len(found) == len(expected) and sum(a != b for a, b in zip(found, expected)) <= 1


def _lost_write(line: bytes, checked: bool | None) -> bool:
    """Whether a bad last line is what a power cut during its write leaves: zeros where the
    data never reached the card or, in a journal without checksums, anything not JSON."""
    if line.startswith(b"\x00") or line.endswith(b"\x00"):
        return True  # whole pages of zeros: from a page boundary to the line's end or start
    if checked:
        return False
    try:
        json.loads(line.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        return True
    return False


# -- the records ------------------------------------------------------------------------------
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


def undo_record(side: str | None) -> dict[str, Any]:
    """The last move (of `side`) was taken back."""
    return {"type": "undo", "side": side}


def return_record(tiles: Iterable[Tile]) -> dict[str, Any]:
    """The covered `tiles` went back into the bag."""
    return {"type": "return", "tiles": sorted(map(str, tiles))}


def end_record(game: Game) -> dict[str, Any]:
    """The game reached its end: its ranking and scores."""
    return {"type": "end", "ranking": list(game.ranking().order), "scores": game.scores}


def stop_record(game: Game, by: str) -> dict[str, Any]:
    """The game was stopped before its end, from the table or a paired page (`by`): kept
    as unfinished, with its scores as they stood."""
    return {"type": "stop", "by": by, "scores": game.scores}


def new_record() -> dict[str, Any]:
    """The game was closed and a new lobby opened."""
    return {"type": "new"}


def word_record(word: Word, at: float) -> dict[str, Any]:
    """The family's `word`, said at `at` (the daemon's clock, for people reading it)."""
    return {"type": "word", **word.to_json(), "at": round(at, 3)}


def amend_record(amendment: Any, by: str) -> dict[str, Any]:
    """Turn `amendment.turn` played again as `amendment.placed` (a
    `companion.game.amend.Amendment`), as `by` confirmed."""
    return {
        "type": "amend",
        "turn": amendment.turn,
        "side": amendment.side,
        "tile": str(amendment.tile),
        "from": amendment.squares[0],
        "to": amendment.squares[1],
        "placed": Placement(amendment.placed).to_json(),
        "points": amendment.after.points,
        "bonus": dict(sorted(amendment.after.bonus.items())),
        "was": amendment.before.points,
        "by": by,
    }
