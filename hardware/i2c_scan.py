"""Where the display panels are: the I2C multiplexer's channels found in sysfs, and a panel
probed on every bus.

The kernel turns each channel of the PCA9548 into an I2C bus whose number depends on the Pi
and the kernel (often 22..25, sometimes 11..14). sysfs says which bus each channel became:
`/sys/bus/i2c/devices/1-0070/channel-0 -> ../i2c-22`. Which seat a channel belongs to is
the self-test's business (companion/selftest.py), not this module's.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

SYSFS = Path("/sys/bus/i2c/devices")
#: an SSD1306/SH1106 panel answers on 0x3C (0x3D with its address jumper moved)
PANEL_ADDRESSES = (0x3C, 0x3D)


@dataclass(frozen=True)
class Panel:
    """A device that answered on a panel's address: `bus` is /dev/i2c-<bus>."""

    bus: int
    address: int
    channel: int | None = None  # the multiplexer channel the bus is, if it is one

    def __str__(self) -> str:
        where = f"/dev/i2c-{self.bus} 0x{self.address:02X}"
        return where if self.channel is None else f"{where} (mux channel {self.channel})"


def mux_channels(sysfs: Path = SYSFS) -> dict[int, int]:
    """Multiplexer channel -> bus number, from the `channel-<k>` links of the mux device."""
    channels: dict[int, int] = {}
    for link in sorted(sysfs.glob("*/channel-*")):
        target = re.fullmatch(r"i2c-(\d+)", Path(_readlink(link)).name)
        channel = re.fullmatch(r"channel-(\d+)", link.name)
        if target and channel:
            channels[int(channel.group(1))] = int(target.group(1))
    return channels


def buses(sysfs: Path = SYSFS) -> list[int]:
    """Every I2C bus the kernel has (`i2c-<n>` in sysfs)."""
    found = (re.fullmatch(r"i2c-(\d+)", p.name) for p in sysfs.glob("i2c-*"))
    return sorted(int(m.group(1)) for m in found if m)


def smbus_probe(bus: int, address: int) -> bool:
    """True if a device acknowledges a one-byte read at `address` on /dev/i2c-<bus>."""
    from smbus2 import SMBus

    try:
        with SMBus(bus) as smbus:
            smbus.read_byte(address)
    except OSError:
        return False
    return True


def find_panels(
    sysfs: Path = SYSFS, probe: Callable[[int, int], bool] = smbus_probe
) -> list[Panel]:
    """Every device on a panel address, on every bus but the mux's parent bus itself."""
    channels = mux_channels(sysfs)
    channel_of_bus = {bus: channel for channel, bus in channels.items()}
    parents = {
        int(m.group(1)) for m in (re.match(r"(\d+)-", p.parent.name) for p in _muxes(sysfs)) if m
    }
    panels = []
    for bus in buses(sysfs):
        if bus in parents and channels:
            continue  # through the parent, a panel would answer for every channel
        for address in PANEL_ADDRESSES:
            if probe(bus, address):
                panels.append(Panel(bus, address, channel_of_bus.get(bus)))
    return panels


def _muxes(sysfs: Path) -> list[Path]:
    return sorted(sysfs.glob("*/channel-*"))


def _readlink(path: Path) -> str:
    try:
        return str(path.readlink())
    except OSError:
        return ""
