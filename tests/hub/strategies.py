"""Hypothesis strategies for hub values: UIDs, reader readings, snapshots."""

from __future__ import annotations

from hypothesis import strategies as st

from hardware.hub.protocol import COLLISION, FAULT
from hardware.hub.snapshot import EMPTY, READER_COUNT, ReaderReading, Snapshot

HEX = "0123456789ABCDEF"


def uids() -> st.SearchStrategy[str]:
    return st.sampled_from((8, 14, 20)).flatmap(lambda n: st.text(HEX, min_size=n, max_size=n))


def readings() -> st.SearchStrategy[ReaderReading]:
    ok = st.lists(uids(), min_size=1, max_size=3, unique=True).map(
        lambda u: ReaderReading("ok", tuple(u))
    )
    return st.one_of(st.sampled_from((EMPTY, COLLISION, FAULT)), ok)


def snapshots(readers: int = READER_COUNT) -> st.SearchStrategy[Snapshot]:
    return st.builds(
        Snapshot,
        st.integers(0, 65535),
        st.tuples(*[readings()] * readers),
    )
