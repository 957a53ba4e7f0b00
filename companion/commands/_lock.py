"""One daemon per state dir: a lock file the first daemon holds until it ends.

Two daemons on one state dir would both append to one journal and both answer the same
buttons. The lock is `flock` on `daemon.lock` in the state dir: the kernel lets it go when
the holder ends in any way (a crash, SIGKILL, a power cut leaves no stale lock), and the file
says which process holds it, for the sentence the second daemon refuses with.

Taking the lock also proves the state dir can be written: a read-only card is refused at
start, not once the first game wants to write its journal.
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path

LOCK_NAME = "daemon.lock"


class StateDirError(Exception):
    """The state dir is held by another daemon, or cannot be written; one sentence."""


class StateDirLock:
    """The held lock on a state dir; `release()` (or the process ending) lets it go."""

    def __init__(self, state_dir: Path) -> None:
        self.path = Path(state_dir) / LOCK_NAME
        try:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
        except OSError as exc:
            raise StateDirError(
                f"cannot write in the state directory {state_dir}: {exc.strerror}"
            ) from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = _holder(fd)
            os.close(fd)
            raise StateDirError(
                f"the state directory {state_dir} is in use by another daemon ({holder});"
                " stop it first, or give this one its own --state-dir"
            ) from None
        try:
            os.ftruncate(fd, 0)
            os.write(fd, f"{os.getpid()}\n".encode())
        except OSError as exc:
            os.close(fd)
            raise StateDirError(
                f"cannot write in the state directory {state_dir}: {exc.strerror}"
            ) from None
        self._fd: int | None = fd

    def __repr__(self) -> str:
        return f"<StateDirLock {self.path}>"

    def release(self) -> None:
        if self._fd is not None:
            os.close(self._fd)  # closing the last descriptor lets the flock go
            self._fd = None


def _holder(fd: int) -> str:
    """`process 1234 (setup-companion run)` from the lock file, as far as it can be told."""
    try:
        pid = int(os.pread(fd, 32, 0).decode().strip())
    except (OSError, ValueError, UnicodeDecodeError):
        return "a process that did not write its id"
    try:
        name = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode().strip()
    except (OSError, UnicodeDecodeError):
        name = ""
    return f"process {pid}" + (f", {_short(name)}" if name else "")


def _short(cmdline: str) -> str:
    words = cmdline.split()
    # `/opt/.../python -m companion.cli run ...` or `/usr/local/bin/setup-companion run ...`
    for i, word in enumerate(words):
        if word.endswith(("setup-companion", "companion.cli")):
            return " ".join(["setup-companion", *words[i + 1 : i + 2]])
    return os.path.basename(words[0]) if words else ""
