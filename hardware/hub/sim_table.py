"""The physical table, simulated: which tagged item lies on which reader, stacks included.

Hardware knows no tiles: an item is its tag's UID. The companion maps UIDs to tiles.
"""

from __future__ import annotations

import re
import threading

from hardware.hub.snapshot import READER_COUNT

_UID = re.compile(r"[0-9A-F]{8}|[0-9A-F]{14}|[0-9A-F]{20}")


def tag_uid(number: int, size: int = 7) -> str:
    """A made-up but well-formed UID of `size` bytes (4, 7 or 10), distinct per number.

    7- and 10-byte UIDs start with 04, NXP's manufacturer byte, like the NTAG stickers a
    builder glues under the tiles.
    """
    if size not in (4, 7, 10):
        raise ValueError(f"a UID has 4, 7 or 10 bytes, not {size}")
    prefix = "" if size == 4 else "04"
    digits = size * 2 - len(prefix)
    if not 0 <= number < 16**digits:
        raise ValueError(f"{number} does not fit a {size}-byte UID")
    return prefix + f"{number:0{digits}X}"


class SimTable:
    """Stacks of tag UIDs per reader position, bottom first. Safe to share between threads."""

    def __init__(self, readers: int = READER_COUNT) -> None:
        if readers < 1:
            raise ValueError("a table has at least one reader")
        self.readers = readers
        self._stacks: list[list[str]] = [[] for _ in range(readers)]
        self._held: dict[str, int] = {}  # uid -> reader a hand holds it over
        self._lock = threading.Lock()

    def __repr__(self) -> str:
        return f"<SimTable {self.stacks!r}>"

    @property
    def stacks(self) -> tuple[tuple[str, ...], ...]:
        """The ground truth now: per reader, its stack's UIDs from the bottom up."""
        with self._lock:
            return tuple(tuple(stack) for stack in self._stacks)

    @property
    def hovering(self) -> tuple[tuple[str, ...], ...]:
        """Per reader, the tags a hand holds over it now (not on the table)."""
        with self._lock:
            over: list[list[str]] = [[] for _ in range(self.readers)]
            for uid, reader in self._held.items():
                over[reader].append(uid)
            return tuple(tuple(uids) for uids in over)

    def hover(self, reader: int, uid: str) -> None:
        """A hand holds the item with tag `uid` over reader `reader` (sliding it across the
        board, or before laying it); `put` or `unhover` ends it."""
        self._check_reader(reader)
        if _UID.fullmatch(uid) is None:
            raise ValueError(f"not a UID (8, 14 or 20 upper-case hex digits): {uid!r}")
        with self._lock:
            if any(uid in stack for stack in self._stacks):
                raise ValueError(f"{uid} lies on the table, not in a hand")
            self._held[uid] = reader

    def unhover(self, uid: str) -> None:
        """The hand takes the item away from the board."""
        with self._lock:
            self._held.pop(uid, None)

    def put(self, reader: int, uid: str) -> None:
        """Lay the item with tag `uid` on top of reader `reader`'s stack."""
        self._check_reader(reader)
        if _UID.fullmatch(uid) is None:
            raise ValueError(f"not a UID (8, 14 or 20 upper-case hex digits): {uid!r}")
        with self._lock:
            if any(uid in stack for stack in self._stacks):
                raise ValueError(f"{uid} already lies on the table")
            self._held.pop(uid, None)
            self._stacks[reader].append(uid)

    def lift(self, reader: int) -> str:
        """Take the top item off reader `reader`; its UID."""
        self._check_reader(reader)
        with self._lock:
            if not self._stacks[reader]:
                raise ValueError(f"nothing lies on reader {reader}")
            return self._stacks[reader].pop()

    def remove(self, uid: str) -> int:
        """Take the item with tag `uid` out from wherever it lies; the reader it was on."""
        with self._lock:
            for reader, stack in enumerate(self._stacks):
                if uid in stack:
                    stack.remove(uid)
                    return reader
        raise ValueError(f"{uid} is not on the table")

    def where(self, uid: str) -> int | None:
        """The reader the item with tag `uid` lies on, or None."""
        with self._lock:
            for reader, stack in enumerate(self._stacks):
                if uid in stack:
                    return reader
        return None

    def clear(self) -> None:
        with self._lock:
            self._held.clear()
            for stack in self._stacks:
                stack.clear()

    def _check_reader(self, reader: int) -> None:
        if not 0 <= reader < self.readers:
            raise ValueError(f"no reader {reader} (0..{self.readers - 1})")
