"""One daemon per state dir: a lock file the first daemon holds until it ends.

Two daemons on one state dir would both append to one journal and both answer the same
buttons. The lock is `flock` on `daemon.lock` in the state dir: the kernel lets it go when
the holder ends in any way (a crash, SIGKILL, a power cut leaves no stale lock), and the file
says which process holds it, for the sentence the second daemon refuses with.

Taking the lock also finds out whether the state dir can be written. A card that cannot be
written (read-only, or full) still gets its lock, read-only (flock needs no write), and
`unwritable` says why: the daemon then plays without saving instead of stopping.
"""

from __future__ import annotations

import errno
import fcntl
import os
from pathlib import Path

LOCK_NAME = "daemon.lock"
#: what a card that cannot take a write says, and the problem the displays show for it
UNWRITABLE = {errno.EROFS: "card-read-only", errno.ENOSPC: "card-full", errno.EDQUOT: "card-full"}


class StateDirError(Exception):
    """The state dir is held by another daemon (`in_use`), or cannot be used; one sentence."""

    def __init__(self, message: str, *, in_use: bool = False) -> None:
        super().__init__(message)
        self.in_use = in_use


class StateDirLock:
    """The held lock on a state dir; `release()` (or the process ending) lets it go."""

    def __init__(self, state_dir: Path) -> None:
        self.path = Path(state_dir) / LOCK_NAME
        #: the problem code of a card that cannot be written (`UNWRITABLE`), else None
        self.unwritable: str | None = None
        try:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
        except OSError as exc:
            fd = self._read_only(state_dir, exc)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = _holder(fd)
            os.close(fd)
            raise StateDirError(
                f"the state directory {state_dir} is in use by another daemon ({holder});"
                " stop it first, or give this one its own --state-dir",
                in_use=True,
            ) from None
        if self.unwritable is None:
            try:
                os.ftruncate(fd, 0)
                os.write(fd, f"{os.getpid()}\n".encode())
            except OSError as exc:
                if exc.errno not in UNWRITABLE:
                    os.close(fd)
                    raise StateDirError(
                        f"cannot write in the state directory {state_dir}: {exc.strerror}"
                    ) from None
                self.unwritable = UNWRITABLE[exc.errno]  # the lock holds all the same
        self._fd: int | None = fd

    def _read_only(self, state_dir: Path, exc: OSError) -> int:
        """The lock on a card that cannot be written: the lock file if it is there, else the
        state dir itself (flock needs no write). StateDirError for any other failure."""
        if exc.errno not in UNWRITABLE:
            raise StateDirError(
                f"cannot write in the state directory {state_dir}: {exc.strerror}"
            ) from None
        self.unwritable = UNWRITABLE[exc.errno]
        for path, flags in ((self.path, 0), (Path(state_dir), os.O_DIRECTORY)):
            try:
                return os.open(path, os.O_RDONLY | os.O_CLOEXEC | flags)
            except OSError:
                continue
        raise StateDirError(f"cannot use the state directory {state_dir}: {exc.strerror}") from None

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
