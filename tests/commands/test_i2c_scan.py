"""Finding the seat panels: the multiplexer's channels read from a sysfs tree laid out as the
kernel lays it out, a probe answering for the buses where a panel sits, and the config lines
the self-test prints to paste."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from companion.config import Config
from companion.selftest import TableSelfTest, config_lines, seat_panels
from hardware.i2c_scan import Panel, find_panels, mux_channels


def sysfs(root: Path, channels: dict[int, int]) -> Path:
    """/sys/bus/i2c/devices of a Pi: i2c-1 with a PCA9548 at 0x70 whose channels are buses."""
    devices = root / "devices"
    (devices / "i2c-1").mkdir(parents=True)
    mux = devices / "1-0070"
    mux.mkdir()
    for channel, bus in channels.items():
        (devices / f"i2c-{bus}").mkdir()
        os.symlink(f"../i2c-{bus}", mux / f"channel-{channel}")
    return devices


def test_the_channels_are_read_from_the_mux_links(tmp_path):
    devices = sysfs(tmp_path, {0: 11, 1: 12, 2: 13, 3: 14, 4: 15})
    assert mux_channels(devices) == {0: 11, 1: 12, 2: 13, 3: 14, 4: 15}


def test_panels_on_other_buses_give_the_lines_to_paste(tmp_path):
    devices = sysfs(tmp_path, {0: 11, 1: 12, 2: 13, 3: 14})
    answering = {(11, 0x3C), (12, 0x3C), (13, 0x3D), (14, 0x3C), (1, 0x3C)}
    panels = find_panels(devices, probe=lambda bus, address: (bus, address) in answering)
    # the mux's parent bus is not probed: through it one panel would answer for all
    assert [str(p) for p in panels] == [
        "/dev/i2c-11 0x3C (mux channel 0)",
        "/dev/i2c-12 0x3C (mux channel 1)",
        "/dev/i2c-13 0x3D (mux channel 2)",
        "/dev/i2c-14 0x3C (mux channel 3)",
    ]
    seats = seat_panels(panels)
    assert seats["S"] == Panel(13, 0x3D, 2)
    assert config_lines({"N": seats["N"], "S": seats["S"]}) == [
        "[seats.N]",
        'display = { display = "ssd1306", interface = "i2c", i2c_port = 11, i2c_address = "0x3C" }',
        "[seats.S]",
        'display = { display = "ssd1306", interface = "i2c", i2c_port = 13, i2c_address = "0x3D" }',
    ]


@pytest.mark.parametrize(
    ("panels", "verdict"),
    [
        ([Panel(11 + n, 0x3C, n) for n in range(4)], "the config names other buses"),
        ([], "no panel answers on any I2C bus"),
        ([Panel(1, 0x3C)], "none on a multiplexer channel: check the multiplexer"),
        (
            [Panel(22, 0x3C, 0), Panel(24, 0x3C, 2), Panel(25, 0x3C, 3)],
            "none for display E: check its wires",
        ),
    ],
    ids=["moved", "none", "no-mux", "one-missing"],
)
def test_the_self_test_scans_when_a_display_fails_and_prints_the_config(tmp_path, panels, verdict):
    lines: list[str] = []
    checks = TableSelfTest(
        Config(),  # the default config: displays on /dev/i2c-22..25, absent on this machine
        hub_port=str(tmp_path / "no-hub"),
        buttons=False,
        hub_timeout=0.2,
        out=lines.append,
        scan=lambda: panels,
    ).run()
    scan = next(c for c in checks if c.name == "display buses")
    assert scan.passed is False and verdict in scan.reason
    if verdict == "the config names other buses":
        start = lines.index("  paste into /etc/setup-companion/config.toml:")
        assert lines[start + 1 : start + 3] == [
            "    [seats.N]",
            '    display = { display = "ssd1306", interface = "i2c", i2c_port = 11,'
            ' i2c_address = "0x3C" }',
        ]
        assert len(lines[start + 1 :]) >= 8
    else:
        assert not any("paste into" in line for line in lines)
