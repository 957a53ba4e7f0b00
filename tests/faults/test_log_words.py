"""The daemon's log on a PC (no GPIO, no displays, no hub) is sentences: no Python reprs, no
warnings from gpiozero's pin libraries, one line per missing part."""

from __future__ import annotations

import logging
import os
import re
import signal
import subprocess
import time

import pytest

from hardware.hub.link import HubLink
from hardware.hub.sim import SimTable, VirtualHub
from tests.faults.process import REPO, TIMEOUT, command
from tests.hub.conftest import wait_for


def test_the_log_of_a_pc_run_has_no_reprs_and_no_pin_factory_warnings(tmp_path):
    config = tmp_path / "config.toml"
    config.write_text(f'[paths]\nstate_dir = "{tmp_path / "state"}"\n')
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GPIOZERO_", "NOTIFY_"))}
    log = tmp_path / "log"
    with log.open("wb") as out:
        process = subprocess.Popen(
            command("run", "--config", str(config), "--hub-port", str(tmp_path / "no-hub")),
            env=env,
            cwd=REPO,
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + TIMEOUT
        while "board problems" not in log.read_text() and time.monotonic() < deadline:
            assert process.poll() is None, log.read_text()
            time.sleep(0.1)
        process.send_signal(signal.SIGTERM)
        assert process.wait(TIMEOUT) == 0
    text = log.read_text()
    assert "ready: reader hub not connected; lobby: press to join" in text, text
    assert "board problems: hub-disconnected\n" in text, text
    assert "PinFactoryFallback" not in text and "warnings.warn" not in text, text
    assert "cannot open the seat buttons (N on GPIO5, E on GPIO6, S on GPIO13, W on GPIO19)" in text
    assert f"cannot open {tmp_path / 'no-hub'} (no such file or directory)" in text, text
    for repr_like in (r"<\w+ ", r"\w+\(\w+=", r"\{'", r"\[Errno"):
        assert not re.search(repr_like, text), (repr_like, text)


def test_a_port_held_by_another_program_is_said_so(caplog: pytest.LogCaptureFixture):
    caplog.set_level(logging.WARNING, logger="setup.hub")
    with VirtualHub(SimTable(), seed=1) as hub, HubLink(hub.port) as first:
        wait_for(lambda: first.health.firmware is not None, first)
        with HubLink(hub.port) as second:
            second.read(0.1)
            assert not second.health.connected
    assert any(
        "another program is using the port" in m and hub.port in m for m in caplog.messages
    ), caplog.messages
