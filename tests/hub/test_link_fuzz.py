"""Arbitrary bytes through the pty: the link never raises and never yields a snapshot that
was not sent, and every good line sent after the noise still comes through."""

from __future__ import annotations

import itertools
import time
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hardware.hub.link import HubLink
from hardware.hub.protocol import ProtocolError, format_snapshot, parse_line
from hardware.hub.sim import SimTable, VirtualHub, tag_uid
from hardware.hub.snapshot import EMPTY, ReaderReading, Snapshot
from tests.hub.conftest import WAIT
from tests.hub.strategies import snapshots

FUZZ = settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
_sentinels = itertools.count()


@pytest.fixture(scope="module")
def wire() -> Iterator[tuple[VirtualHub, HubLink]]:
    # A big hub buffer and no silence timeout: the examples decide what is on the wire.
    with (
        VirtualHub(SimTable(), buffer=1 << 20) as hub,
        HubLink(hub.port, silence_timeout=1e9) as link,
    ):
        yield hub, link


def sentinel() -> Snapshot:
    number = next(_sentinels)
    readers = (ReaderReading("ok", (tag_uid(number),)),) + (EMPTY,) * 11
    return Snapshot(number % 65536, readers)


def through(hub: VirtualHub, link: HubLink, data: bytes) -> tuple[list[Snapshot], Snapshot]:
    """Send `data`, then a fresh good line on a line of its own; what the link yielded."""
    last = sentinel()
    assert hub.write(data + b"\n" + format_snapshot(last.seq, last.readers))
    got: list[Snapshot] = []
    deadline = time.monotonic() + WAIT
    while not got or got[-1].readers != last.readers:
        assert time.monotonic() < deadline, "the good line after the noise never came"
        snapshot = link.read(0.2)
        if snapshot is not None:
            got.append(snapshot)
    return got, last


def key(snapshot: Snapshot) -> tuple:
    return snapshot.seq, snapshot.readers


@FUZZ
@given(st.binary(max_size=3000))
def test_arbitrary_bytes_yield_nothing(wire: tuple[VirtualHub, HubLink], data: bytes) -> None:
    hub, link = wire
    got, last = through(hub, link, data)
    assert [key(s) for s in got] == [key(last)]


@FUZZ
@given(
    st.lists(
        st.one_of(
            st.binary(max_size=200),
            snapshots().map(lambda s: format_snapshot(s.seq, s.readers)),
        ),
        max_size=12,
    )
)
def test_good_lines_amid_noise_are_the_only_snapshots(
    wire: tuple[VirtualHub, HubLink], pieces: list[bytes]
) -> None:
    hub, link = wire
    sent = {key(s) for s in map(_parse_sent, pieces) if s is not None}
    got, last = through(hub, link, b"".join(pieces))
    assert {key(s) for s in got} <= sent | {key(last)}


@FUZZ
@given(snapshots(), st.data())
def test_a_damaged_byte_never_passes(
    wire: tuple[VirtualHub, HubLink], snapshot: Snapshot, data: st.DataObject
) -> None:
    hub, link = wire
    line = bytearray(format_snapshot(snapshot.seq, snapshot.readers))
    at = data.draw(st.integers(0, len(line) - 2))
    line[at] ^= data.draw(st.integers(1, 255))
    got, last = through(hub, link, bytes(line))
    assert [key(s) for s in got] == [key(last)]


def _parse_sent(piece: bytes) -> Snapshot | None:
    try:
        message = parse_line(piece)
    except ProtocolError:
        return None
    return message if isinstance(message, Snapshot) else None
