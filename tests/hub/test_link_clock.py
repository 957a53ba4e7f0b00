"""The link has one clock (issue 15): `read()`'s timeout, like the silence and the backoff,
is on the injected clock, so a simulated-time run waits as a real one would; and it says
whether its port is open."""

from __future__ import annotations

from hardware.hub.link import HubLink
from hardware.hub.sim import VirtualHub
from tests.hub.conftest import wait_for


class FastClock:
    """Simulated time that runs ten seconds each time it is read."""

    def __init__(self) -> None:
        self.now = 0.0
        self.reads = 0

    def __call__(self) -> float:
        self.reads += 1
        self.now += 10.0
        return self.now


def test_the_read_timeout_is_on_the_injected_clock(hub: VirtualHub) -> None:
    clock = FastClock()
    with HubLink(hub.port, clock=clock, silence_timeout=1e9) as link:
        wait_for(lambda: link.health.firmware is not None, link)
        clock.reads = 0
        assert link.read(timeout=5.0) is None  # the hub sweeps no more
        # five simulated seconds pass at the first look at the clock: one short wait, not
        # five seconds of them on the wall (about 20 waits of 250 ms, each reading the clock)
        assert clock.reads < 8


def test_the_link_says_whether_its_port_is_open(hub: VirtualHub) -> None:
    link = HubLink(hub.port)
    assert not link.is_open
    with link:
        assert link.is_open
        hub.unplug()
        wait_for(lambda: not link.is_open, link)
        hub.replug()
        wait_for(lambda: link.is_open, link)
    assert not link.is_open
