"""`setup-companion demo ...` that kills itself (SIGKILL) inside one journal write.

Run as `python tests/faults/torn_demo.py <demo arguments>`. With `TORN_RECORD=n` in the
environment, the n-th record this process appends is cut, as the power going out would:

- `TORN_MODE=partial`: only the first `TORN_FRACTION` (0..1) of the record's bytes are
  written, then the process dies: a torn last line;
- `TORN_MODE=unsynced`: the whole record is written but the process dies before `fsync`
  (the test may truncate the file back to `size_before`: a write the card never got).

Before dying it writes what it did as JSON to `TORN_NOTE`. Without `TORN_RECORD` it is the
plain demo. The hook lives here, in the test, not in the journal: production code carries
no test switch.
"""

from __future__ import annotations

import json
import os
import signal
import sys
from pathlib import Path
from typing import Any

from companion.cli import main
from companion.game import journal


class _TearingOs:
    """The `os` the journal module sees: `os` itself, except while the chosen record is
    written."""

    def __init__(self, mode: str, fraction: float, note: Path) -> None:
        self.armed = False
        self.mode = mode
        self.fraction = fraction
        self.note = note
        self.size_before = 0

    def __getattr__(self, name: str) -> Any:
        return getattr(os, name)

    def write(self, fd: int, data: bytes) -> int:
        if not self.armed:
            return os.write(fd, data)
        self.size_before = os.lseek(fd, 0, os.SEEK_CUR)
        if self.mode == "partial":
            cut = min(len(data) - 1, int(len(data) * self.fraction))
            written = os.write(fd, data[:cut])
            self._die(written)
        return os.write(fd, data)

    def fsync(self, fd: int) -> None:
        if self.armed:
            self._die(os.fstat(fd).st_size - self.size_before)
        os.fsync(fd)

    def _die(self, written: int) -> None:
        note = {"mode": self.mode, "size_before": self.size_before, "written": written}
        self.note.write_text(json.dumps(note))
        os.kill(os.getpid(), signal.SIGKILL)


def install(record: int, mode: str, fraction: float, note: Path) -> None:
    tearing = _TearingOs(mode, fraction, note)
    journal.os = tearing  # type: ignore[attr-defined]
    append = journal.Journal.append
    count = 0

    def counting_append(self: journal.Journal, entry: Any) -> None:
        nonlocal count
        count += 1
        tearing.armed = count == record
        append(self, entry)

    journal.Journal.append = counting_append  # type: ignore[method-assign]


if __name__ == "__main__":
    if "TORN_RECORD" in os.environ:
        install(
            int(os.environ["TORN_RECORD"]),
            os.environ["TORN_MODE"],
            float(os.environ.get("TORN_FRACTION", "0.5")),
            Path(os.environ["TORN_NOTE"]),
        )
    sys.exit(main(["demo", *sys.argv[1:]]))
