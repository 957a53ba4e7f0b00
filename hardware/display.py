"""The seat displays: luma devices opened from plain settings, like luma.core's cmdline.

    open_display({"driver": "ssd1306", "interface": "i2c", "i2c_port": 1, "i2c_address": 0x3C})

Settings (all optional but `driver`):
- `driver` (or `display`, luma.core cmdline's name for it): "ssd1306", "sh1106", "ssd1309",
  "ssd1305", "ssd1315" or "sh1107" (luma.oled), or "dummy" (keeps the last image in memory:
  tests, benchmarks, a table without screens);
- `interface`: "i2c" (default), "spi" or "noop" (talks to nothing);
- `i2c_port` (1), `i2c_address` (0x3C, a number or a text such as "0x3D");
- `spi_port` (0), `spi_device` (0), `spi_bus_speed_hz` (8000000), `gpio_DC` (24), `gpio_RESET` (25);
- `width` (128), `height` (64), `rotate` (0..3, quarter turns), `contrast` (0..255);
- `keep_image` (true): see below; `state_dir` ("/run/setup-companion").

Several displays with the same I2C address sit behind an I2C multiplexer: the kernel's
`dtoverlay=i2c-mux,pca9548,addr=0x70` (in /boot/firmware/config.txt) gives each channel its
own bus /dev/i2c-N, and each display's `i2c_port` names its bus.

The image stays when the daemon stops (luma's `persist`), and also when it starts again:
luma blanks a panel when it opens it, which would flash every display at each restart, so
with `keep_image` a panel that was already opened since the Pi booted (a marker in the
tmpfs `state_dir`, wiped at boot) keeps its picture until the first new frame. After a
power-up the panel memory is noise, so the first opening still blanks it.

`Display` wraps one device for the presenter: it draws only a changed image, and a display
that is missing or fails is reported once (logger "setup.display") and skipped, retried
now and then, while the game goes on.
"""

from __future__ import annotations

import hashlib
import importlib
import logging
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from PIL import Image

log = logging.getLogger("setup.display")

OLED_DRIVERS: tuple[str, ...] = ("ssd1306", "sh1106", "ssd1309", "ssd1305", "ssd1315", "sh1107")
DRIVERS: tuple[str, ...] = (*OLED_DRIVERS, "dummy")
INTERFACES: tuple[str, ...] = ("i2c", "spi", "noop")
KNOWN: frozenset[str] = frozenset(
    {
        "driver", "display", "interface", "i2c_port", "i2c_address", "spi_port", "spi_device",
        "spi_bus_speed_hz", "gpio_DC", "gpio_RESET", "width", "height", "rotate",
        "contrast", "keep_image", "state_dir",
    }
)  # fmt: skip
STATE_DIR = "/run/setup-companion"


class DisplayError(Exception):
    """A display that cannot be opened or drawn on; the text says which and why."""


def describe(settings: Mapping[str, Any]) -> str:
    """A short name for log lines: "ssd1306 on i2c-1 0x3C"."""
    driver = settings.get("driver", settings.get("display", "?"))
    interface = settings.get("interface", "i2c")
    if driver == "dummy" or interface == "noop":
        return f"{driver} ({interface})"
    if interface == "spi":
        return f"{driver} on spi{settings.get('spi_port', 0)}.{settings.get('spi_device', 0)}"
    address = _address(settings.get("i2c_address", 0x3C))
    return f"{driver} on i2c-{settings.get('i2c_port', 1)} 0x{address:02X}"


def open_display(settings: Mapping[str, Any]) -> Any:
    """A luma device (mode "1") from plain settings; raises DisplayError with a clear reason."""
    if not isinstance(settings, Mapping):
        raise DisplayError("display settings must be a table of names and values")
    unknown = sorted(set(settings) - KNOWN)
    if unknown:
        raise DisplayError(
            f"unknown display setting {unknown[0]!r}; known: {', '.join(sorted(KNOWN))}"
        )
    driver = settings.get("driver", settings.get("display"))
    if driver not in DRIVERS:
        raise DisplayError(f"display driver must be one of {', '.join(DRIVERS)}, not {driver!r}")
    interface = settings.get("interface", "noop" if driver == "dummy" else "i2c")
    if interface not in INTERFACES:
        raise DisplayError(
            f"display interface must be one of {', '.join(INTERFACES)}, not {interface!r}"
        )
    width, height = int(settings.get("width", 128)), int(settings.get("height", 64))
    rotate = int(settings.get("rotate", 0))
    if rotate not in (0, 1, 2, 3):
        raise DisplayError(f"display rotate must be 0, 1, 2 or 3 quarter turns, not {rotate}")
    name = describe(settings)
    try:
        serial = _serial(interface, settings)
        if driver == "dummy":
            from luma.core.device import dummy

            device = dummy(
                width=width, height=height, rotate=rotate, mode="1", serial_interface=serial
            )
        else:
            marker = _marker(settings) if settings.get("keep_image", True) else None
            keep = marker is not None and marker.exists()
            cls = _keeping(getattr(importlib.import_module("luma.oled.device"), driver), keep)
            device = cls(serial, width=width, height=height, rotate=rotate)
            device.opening = False
            if marker is not None:
                _touch(marker)
        if "contrast" in settings:
            device.contrast(int(settings["contrast"]))
    except DisplayError:
        raise
    except Exception as exc:  # luma and smbus2 raise many kinds; all mean "not there"
        raise DisplayError(f"cannot open the display {name}: {exc}") from exc
    device.persist = True  # leave the picture on when the daemon exits
    return device


def _address(value: Any) -> int:
    try:
        return int(str(value), 0)
    except ValueError:
        raise DisplayError(f"i2c_address must be a number such as 0x3C, not {value!r}") from None


def _serial(interface: str, settings: Mapping[str, Any]) -> Any:
    from luma.core.interface import serial

    if interface == "noop":
        return serial.noop()
    if interface == "i2c":
        return serial.i2c(
            port=int(settings.get("i2c_port", 1)),
            address=_address(settings.get("i2c_address", 0x3C)),
        )
    return serial.spi(
        port=int(settings.get("spi_port", 0)),
        device=int(settings.get("spi_device", 0)),
        bus_speed_hz=int(settings.get("spi_bus_speed_hz", 8_000_000)),
        gpio_DC=int(settings.get("gpio_DC", 24)),
        gpio_RST=int(settings.get("gpio_RESET", 25)),
    )


def _keeping(cls: type, keep: bool) -> type:
    """The luma device class, skipping its blanking at open when `keep` (the panel still
    holds the picture of the previous run)."""
    if not keep:
        return cls

    def clear(self: Any) -> None:
        if not getattr(self, "opening", True):
            cls.clear(self)

    return type(f"kept_{cls.__name__}", (cls,), {"clear": clear, "kept": True})


def _marker(settings: Mapping[str, Any]) -> Path | None:
    """The file that says this panel was opened since boot (None: nowhere to keep it)."""
    folder = Path(str(settings.get("state_dir", STATE_DIR)))
    where = (
        settings.get("interface", "i2c"),
        settings.get("i2c_port", 1),
        _address(settings.get("i2c_address", 0x3C)),
        settings.get("spi_port", 0),
        settings.get("spi_device", 0),
    )
    key = hashlib.sha1(repr(where).encode()).hexdigest()[:12]
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    return folder / f"display-{key}.opened"


def _touch(marker: Path) -> None:
    try:
        marker.touch()
    except OSError as exc:
        log.debug("cannot write %s: %s", marker, exc)


class Display:
    """One seat's display for the presenter: draws changed images only, never raises.

    A display that cannot be opened or drawn on is logged once and tried again every
    `retry` seconds (a loose cable put back), with one more line when it works again."""

    def __init__(
        self,
        name: str,
        settings: Mapping[str, Any],
        *,
        opener: Callable[[Mapping[str, Any]], Any] = open_display,
        clock: Callable[[], float] = time.monotonic,
        retry: float = 30.0,
    ) -> None:
        self.name = name
        self.settings = settings
        self.device: Any = None
        self.redraws = 0  # images actually sent to the panel
        self._opener, self._clock, self._retry = opener, clock, retry
        self._last: bytes | None = None
        self._failed_at: float | None = None
        self._reported = False

    def __repr__(self) -> str:
        state = "ok" if self.device is not None else "failed" if self._reported else "closed"
        return f"<Display {self.name} {describe(self.settings)} {state}>"

    @property
    def ok(self) -> bool:
        return self.device is not None and self._failed_at is None

    @property
    def size(self) -> tuple[int, int]:
        if self.device is not None:
            return tuple(self.device.size)
        width, height = int(self.settings.get("width", 128)), int(self.settings.get("height", 64))
        return (height, width) if int(self.settings.get("rotate", 0)) % 2 else (width, height)

    def show(self, image: Image.Image) -> bool:
        """Draws `image` unless the panel shows it already; True if it was sent."""
        data = image.tobytes()
        if data == self._last and self.device is not None:
            return False
        if self.device is None and not self._open():
            return False
        try:
            self.device.display(image)
        except Exception as exc:  # a bus error mid-game: report, drop the device, retry later
            self._fail(f"the display {self.name} ({describe(self.settings)}) failed to draw: {exc}")
            self._close_device()
            return False
        if self._reported:
            log.warning("the display %s works again", self.name)
            self._reported = False
        self._failed_at = None
        self._last = data
        self.redraws += 1
        return True

    def _open(self) -> bool:
        now = self._clock()
        if self._failed_at is not None and now - self._failed_at < self._retry:
            return False
        try:
            self.device = self._opener(self.settings)
        except DisplayError as exc:
            self._fail(f"the display {self.name}: {exc}")
            return False
        self._last = None  # a freshly opened panel: draw the next image whatever it is
        return True

    def _fail(self, message: str) -> None:
        self._failed_at = self._clock()
        if not self._reported:
            log.error("%s; the game goes on without it", message)
            self._reported = True

    def _close_device(self) -> None:
        device, self.device = self.device, None
        if device is not None:
            try:
                device.cleanup()
            except Exception as exc:
                log.debug("closing the display %s: %s", self.name, exc)

    def close(self) -> None:
        """Lets go of the panel, leaving its picture on (persist)."""
        self._close_device()

    def __enter__(self) -> Display:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
