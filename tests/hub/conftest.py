"""A simulated table, a virtual hub on a real pty, and the link under test reading it."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator

import pytest

from hardware.hub.link import HubLink
from hardware.hub.sim import SimTable, VirtualHub
from hardware.hub.snapshot import Snapshot

# a hang guard only (every wait ends on its condition): generous, as a loaded machine can
# starve the virtual hub's thread for seconds
WAIT = 30.0


@pytest.fixture
def table() -> SimTable:
    return SimTable()


@pytest.fixture
def hub(table: SimTable) -> Iterator[VirtualHub]:
    with VirtualHub(table, seed=1) as hub:
        yield hub


@pytest.fixture
def link(hub: VirtualHub) -> Iterator[HubLink]:
    with HubLink(hub.port) as link:
        wait_for(lambda: link.health.firmware is not None, link)
        yield link


def wait_for(condition: Callable[[], bool], link: HubLink, timeout: float = WAIT) -> None:
    """Let the link read until `condition()` holds; fail the test if it never does."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "condition not met in time"
        link.read(0.05)


def read_seq(link: HubLink, seq: int, timeout: float = WAIT) -> list[Snapshot]:
    """Every snapshot the link yields up to and including the one numbered `seq`."""
    got: list[Snapshot] = []
    deadline = time.monotonic() + timeout
    while not got or got[-1].seq != seq:
        assert time.monotonic() < deadline, f"snapshot {seq} never came; got {got}"
        snapshot = link.read(0.1)
        if snapshot is not None:
            got.append(snapshot)
    return got
