"""Who else has the reader hub's port open.

A serial port's bytes go to whichever open file reads them first: a serial terminal left
running on the hub's port (one that takes no lock: `screen`, `cat`, `picocom --nolock`)
reads lines the daemon then never sees, and every turn waits for sweeps that do not come.
`holders(port)` finds such programs through `/proc` (under systemd's `ProtectProc=invisible`
only the service user's own processes are visible: another user's program is then known
by what it does to the link, not by its name).
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True, slots=True, order=True)
class Holder:
    """A process with the port open: its id and its program's name (`/proc/<pid>/comm`)."""

    pid: int
    name: str

    def __str__(self) -> str:
        return f"{self.name} (pid {self.pid})"


def holders(
    port: str, *, exclude: Iterable[int] = (), proc: Path = Path("/proc")
) -> tuple[Holder, ...]:
    """The processes but this one (and `exclude`) that have `port` open, by pid; () when the
    port does not exist. Never raises: a process that ends meanwhile is left out."""
    try:
        target = os.path.realpath(port, strict=True)
    except OSError:
        return ()
    skip = {os.getpid(), *exclude}
    found = []
    for entry in proc.glob("[0-9]*"):
        if not entry.name.isdigit() or int(entry.name) in skip:
            continue
        with contextlib.suppress(OSError):
            if any(os.readlink(fd) == target for fd in (entry / "fd").iterdir()):
                found.append(Holder(int(entry.name), _name(entry)))
    return tuple(sorted(found))


def _name(entry: Path) -> str:
    try:
        return (entry / "comm").read_text().strip() or "a program"
    except OSError:
        return "a program"
