"""Atomic file writes: a reader sees the old file or the new one, never half of either.

A power cut can come at any instant on a Pi that is simply unplugged, so a state file is
written to a temporary file in the same directory, flushed to the card, renamed over the old
one (a rename is atomic within one file system), and then the directory itself is flushed so
the rename survives too.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path


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
