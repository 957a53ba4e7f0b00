"""The card's files: written atomically, and read behind one boundary.

Atomic writes: a reader sees the old file or the new one, never half of either. A power cut
can come at any instant on a Pi that is simply unplugged, so a state file is written to a
temporary file in the same directory, flushed to the card, renamed over the old one (a
rename is atomic within one file system), and then the directory itself is flushed so the
rename survives too.

The boundary every file the daemon reads goes through (the config, its last good copy, the
tile registry, the journal): a file on a card can hold anything: cut short, another file
copied over it, a flipped bit, or an array nested 100,000 deep. Each reader raises its own
error for what it knows to be wrong, and whatever else escapes its parser (`RecursionError`,
a `TypeError` from a value of the wrong shape deep inside, ...) is turned by `guard` into
the same error, saying the file is damaged, so that it takes the path every damaged file
takes instead of crashing the daemon into a restart loop.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

T = TypeVar("T")


def write_atomic(path: str | Path, data: str | bytes) -> None:
    """Replaces `path` with `data` (text is written as UTF-8) in one atomic step."""
    path = Path(path)
    payload = data.encode("utf-8") if isinstance(data, str) else data
    directory = path.parent
    directory.mkdir(parents=True, exist_ok=True)
    fd, temp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=directory)
    try:
        try:
            # os.write, not a file object: the same calls as the journal's appends, so a
            # failing card (and a test that plays one) fails both the same way
            written = 0
            while written < len(payload):
                written += os.write(fd, payload[written:])
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(temp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temp)
        raise
    fsync_directory(directory)


def fsync_directory(directory: str | Path) -> None:
    """Flushes a directory's entries (a new, renamed or removed file) to the disk."""
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:  # some file systems (and Windows) cannot open a directory: nothing to do
        return
    try:
        with contextlib.suppress(OSError):
            os.fsync(fd)
    finally:
        os.close(fd)


# -- reading ----------------------------------------------------------------------------------
def guard(parse: Callable[[], T], damaged: Callable[[str], Exception], known: type[Exception]) -> T:
    """`parse()`; an exception other than `known` becomes `damaged(reason)`."""
    try:
        return parse()
    except known:
        raise
    except Exception as exc:  # the boundary: nothing in a file may crash its reader
        raise damaged(why(exc)) from None


def read_file(
    path: str | Path,
    parse: Callable[[bytes], T],
    damaged: Callable[[str], Exception],
    known: type[Exception],
    missing: Callable[[], T] | None = None,
) -> T:
    """The file's bytes given to `parse`, behind the boundary; a missing file is
    `missing()` (if given), an unreadable one `damaged(...)` too."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        if missing is not None:
            return missing()
        raise damaged("the file does not exist") from None
    except OSError as exc:
        raise damaged(f"cannot read it: {exc.strerror or exc}") from None
    return guard(lambda: parse(data), damaged, known)


def why(exc: BaseException) -> str:
    """What an unexpected parser error says about the file, in a few words."""
    if isinstance(exc, UnicodeDecodeError):
        return "cannot read it: it is not UTF-8 text"
    if isinstance(exc, RecursionError):
        return "cannot read it: it is nested too deeply"
    if isinstance(exc, MemoryError):
        return "cannot read it: it is too large"
    if isinstance(exc, OSError):
        return f"cannot read it: {exc.strerror or exc}"
    return "cannot read it: it is damaged (its contents are not of the right kinds)"
