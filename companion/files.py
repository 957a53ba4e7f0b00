"""The one boundary every file the daemon reads goes through (the config, its last good
copy, the tile registry, the journal).

A file on a card can hold anything: cut short, another file copied over it, a flipped bit,
or an array nested 100,000 deep. Each reader raises its own error for what it knows to be
wrong, and whatever else escapes its parser (`RecursionError`, a `TypeError` from a value of
the wrong shape deep inside, ...) is turned here into the same error, saying the file is
damaged, so that it takes the path every damaged file takes instead of crashing the daemon
into a restart loop.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

T = TypeVar("T")


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
