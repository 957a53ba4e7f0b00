"""Commands run by a person beside the service: files written as the state dir's owner, and
who holds the reader hub.

`sudo setup-companion enroll` used to write `registry.json` as root with mode 0600, so the
service (its own user) could not read it and every tile was unknown. `as_owner(state_dir)`
makes each write in the state dir happen as the dir's owner and group (effective IDs, so
the atomic rename itself creates the owner's file: no moment where a power cut leaves a
root file behind), then gives the file the dir's read modes.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
from collections.abc import Callable, Iterator
from pathlib import Path

SERVICE = "setup-companion"


class NotOwner(Exception):
    """The command cannot write as the state dir's owner; the message says what to run."""


def file_mode(directory: Path) -> int:
    """The mode a file gets in `directory`: the dir's read and write bits (0750 -> 0640)."""
    return directory.stat().st_mode & 0o666


@contextlib.contextmanager
def as_owner(state_dir: Path) -> Iterator[None]:
    """Writes inside the block happen as the state dir's owner when run as root (else as
    the caller, who then must own it: nothing changes). Raises NotOwner if that fails."""
    info = state_dir.stat()
    if os.geteuid() != 0 or info.st_uid == 0:
        yield
        return
    try:
        os.setegid(info.st_gid)
        os.seteuid(info.st_uid)
    except OSError as exc:
        with contextlib.suppress(OSError):
            os.seteuid(0)
            os.setegid(0)
        raise NotOwner(
            f"cannot write as the owner of {state_dir} ({exc.strerror}): run "
            f"`sudo -u {_name(info.st_uid)} setup-companion enroll` instead"
        ) from None
    try:
        yield
    finally:
        os.seteuid(0)
        os.setegid(0)


def owned_save(save: Callable[[], None], path: Path) -> Callable[[], None]:
    """`save` (which writes `path` atomically) done as the state dir's owner, the file then
    given the dir's modes: what the service can read whoever runs the command."""

    def save_as_owner() -> None:
        with as_owner(path.parent):
            save()
            os.chmod(path, file_mode(path.parent))

    return save_as_owner


def hub_holder(port: str) -> str | None:
    """Who holds the reader hub's port (the daemon opens it exclusively), in words, or None
    when it is free or cannot be opened at all (then the enrolment says so itself)."""
    try:
        fd = os.open(port, os.O_RDWR | os.O_NOCTTY | os.O_NONBLOCK)
    except OSError:
        return None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        pids = _pids_holding(port)
        return "the companion daemon" + (f" (pid {', '.join(pids)})" if pids else "")
    except OSError:
        return None
    finally:
        os.close(fd)
    return None


def _pids_holding(port: str) -> list[str]:
    target = os.path.realpath(port)
    found = []
    for proc in Path("/proc").glob("[0-9]*"):
        if proc.name == str(os.getpid()):
            continue
        with contextlib.suppress(OSError):
            if any(os.path.realpath(fd) == target for fd in (proc / "fd").iterdir()):
                found.append(proc.name)
    return found


def _name(uid: int) -> str:
    import pwd

    try:
        return pwd.getpwuid(uid).pw_name
    except KeyError:
        return str(uid)
