"""A full card for a minute, the active player pressing all the while, and a hub sending
well-formed error lines as fast as it can: a bounded number of log lines, each with a count,
and one when the trouble ends."""

from __future__ import annotations

import logging

import pytest

from hardware.hub.link import HubLink
from hardware.hub.protocol import frame
from hardware.hub.sim import SimTable, VirtualHub
from tests.helpers import FullCard, two_playing
from tests.hub.conftest import wait_for


def test_a_full_card_for_a_minute_logs_a_few_lines_and_one_when_it_is_back(
    tmp_path, caplog: pytest.LogCaptureFixture
):
    rig = two_playing(tmp_path)
    card = FullCard(rig)  # the card refuses every write from now on
    journal = card.path
    rig.put("SW", "star-4")
    caplog.clear()
    caplog.set_level(logging.INFO, logger="setup.table")
    for _ in range(300):  # a press every 0.2 s for 60 s
        rig.press("S")
        rig.sweep(2)
    errors = [r.getMessage() for r in caplog.records if "journal" in r.getMessage()]
    assert 1 <= len(errors) <= 3, errors
    assert errors[0].startswith(f"cannot write the journal {journal}: ")
    assert all("times in the last" in line for line in errors[1:]), errors
    assert rig.table.game.scores == {"S": 0, "N": 0}  # nothing was scored meanwhile
    card.back()
    rig.press("S")
    assert rig.table.game.scores == {"S": 2, "N": 0}
    last = caplog.records[-2:]
    back = [r.getMessage() for r in last if "written again" in r.getMessage()]
    assert back == [f"the journal {journal} is written again (after 300 times in 60 s)"], back


def test_a_hub_flooding_error_lines_is_logged_a_few_times(caplog: pytest.LogCaptureFixture):
    caplog.set_level(logging.INFO, logger="setup.hub")
    now = [0.0]
    hub = VirtualHub(SimTable(), seed=1, buffer=1 << 16)  # room for a second of lines
    with hub, HubLink(hub.port, clock=lambda: now[0]) as link:
        wait_for(lambda: link.health.firmware is not None, link)
        sent = 0
        for burst in range(30):  # 100 hostile lines a second for 30 (simulated) seconds,
            now[0] = burst * 29.9 / 29  # a second's worth at a time: one pty round trip each
            assert hub.write(b"".join(frame(f"ERR overflow {sent + n}") for n in range(100)))
            sent += 100
            wait_for(lambda sent=sent: link.health.frames_ok >= 1 + sent, link)
        errors = [m for m in caplog.messages if m.startswith("hub error")]
        assert errors == ["hub error: overflow 0"], errors  # the next would be at 60 s
        now[0] = 90.0  # it ended: said once, with the count
        link.read(0)
    assert caplog.messages[-1] == "no more for 60 s: hub error: overflow 2999 (3000 times in 30 s)"
