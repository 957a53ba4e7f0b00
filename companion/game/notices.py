"""The notice board: what the table has to say for a while, posted until a time or until the
board changes, and read back as what is current.

Every "show this until ..." of the table is one posting here (a bonus alert, the illegal move
explained, the undo banner, "the covered tiles are back", a notice from the daemon such as a
broken config file, a start that could not be made), so their lifetimes live in one place.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Posting:
    """One notice and how long it stays: until `until` (a time of the table's clock) and/or
    while the believed board is at `version` (None: no such limit)."""

    notice: Hashable
    until: float | None = None
    version: int | None = None

    def current(self, now: float, version: int) -> bool:
        return (self.until is None or now < self.until) and (
            self.version is None or self.version == version
        )


class NoticeBoard:
    """Notices in the order they were posted; `current()` drops the outdated ones."""

    def __init__(self) -> None:
        self._postings: list[Posting] = []

    def __repr__(self) -> str:
        return f"<NoticeBoard {[p.notice for p in self._postings]}>"

    def post(
        self,
        notice: Hashable,
        *,
        until: float | None = None,
        version: int | None = None,
        alone: bool = False,
    ) -> None:
        """Shows `notice` until `until` and/or while the board is at `version`; `alone`:
        it replaces every posted notice of its type (one illegal move, one banner)."""
        if alone:
            self.withdraw(type(notice))
        self._postings.append(Posting(notice, until, version))

    def withdraw(self, *kinds: type) -> None:
        """Takes down every notice of these types (all notices when none is named)."""
        self._postings = [p for p in self._postings if kinds and not isinstance(p.notice, kinds)]

    def current(self, now: float, version: int) -> tuple[Hashable, ...]:
        """The notices still current at `now` with the board at `version`, oldest first."""
        self._postings = [p for p in self._postings if p.current(now, version)]
        return tuple(p.notice for p in self._postings)

    def latest(self, kind: type, now: float, version: int) -> Hashable | None:
        """The newest current notice of type `kind`, if any."""
        return next((n for n in reversed(self.current(now, version)) if isinstance(n, kind)), None)
