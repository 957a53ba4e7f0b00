"""What one sweep of the reader hub saw: the typed form of a protocol `S` line."""

from __future__ import annotations

from dataclasses import dataclass

READER_STATUSES = ("ok", "empty", "collision", "fault")
READER_COUNT = 12


@dataclass(frozen=True, slots=True)
class ReaderReading:
    """One reader in one sweep. `uids` are upper-case hex (8, 14 or 20 digits), only for ok."""

    status: str
    uids: tuple[str, ...] = ()

    def __str__(self) -> str:
        if self.status == "ok":
            return ",".join(self.uids)
        return {"empty": "-", "collision": "C", "fault": "F"}[self.status]


EMPTY = ReaderReading("empty")


@dataclass(frozen=True, slots=True)
class Snapshot:
    """One sweep of all readers, by reader number. `received` is the host's monotonic time."""

    seq: int
    readers: tuple[ReaderReading, ...]
    received: float = 0.0

    def __str__(self) -> str:
        return f"S {self.seq} " + " ".join(str(r) for r in self.readers)
