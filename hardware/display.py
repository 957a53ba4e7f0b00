"""The seat displays: luma devices opened from plain settings, like luma.core's cmdline.

    open_display({"driver": "ssd1306", "interface": "i2c", "i2c_port": 1, "i2c_address": 0x3C})

Settings (all optional but `driver`):
- `driver` (or `display`, luma.core cmdline's name for it): "ssd1306", "sh1106", "ssd1309",
  "ssd1305", "ssd1315" or "sh1107" (luma.oled), or "dummy" (keeps the last image in memory:
  tests, benchmarks, a table without screens);
- `interface`: "i2c" (default) or "noop" (talks to nothing); "spi" is refused: luma drives
  an SPI panel's DC and reset pins through RPi.GPIO, which Raspberry Pi OS Bookworm no
  longer has;
- `i2c_port` (1), `i2c_address` (0x3C, a number or a text such as "0x3D");
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

import functools
import hashlib
import importlib
import logging
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PIL import Image

from hardware.device import Device

log = logging.getLogger("setup.display")

OLED_DRIVERS: tuple[str, ...] = ("ssd1306", "sh1106", "ssd1309", "ssd1305", "ssd1315", "sh1107")
DRIVERS: tuple[str, ...] = (*OLED_DRIVERS, "dummy")
INTERFACES: tuple[str, ...] = ("i2c", "spi", "noop")
STATE_DIR = "/run/setup-companion"


class DisplayError(Exception):
    """A display that cannot be opened or drawn on; the text says which and why.

    `key` names the setting it is about, when it is about one (the config names its line)."""

    def __init__(self, message: str, key: str | None = None) -> None:
        super().__init__(message)
        self.key = key


@dataclass(frozen=True, slots=True)
class DisplaySettings:
    """One panel's settings, luma's defaults stated here once (`from_mapping` checks them)."""

    driver: str
    interface: str = ""  # "": i2c, or noop for the dummy driver
    i2c_port: int = 1
    i2c_address: int = 0x3C
    width: int = 128
    height: int = 64
    rotate: int = 0  # quarter turns
    contrast: int | None = None  # None: the driver's own
    keep_image: bool = True
    state_dir: str = STATE_DIR

    def __post_init__(self) -> None:
        if not self.interface:
            interface = "noop" if self.driver == "dummy" else "i2c"
            object.__setattr__(self, "interface", interface)

    @classmethod
    def of(cls, settings: DisplaySettings | Mapping[str, Any]) -> DisplaySettings:
        return settings if isinstance(settings, DisplaySettings) else cls.from_mapping(settings)

    @classmethod
    def from_mapping(cls, settings: Mapping[str, Any]) -> DisplaySettings:
        """From plain settings (TOML, JSON); a bad one is a DisplayError naming its key."""
        if not isinstance(settings, Mapping):
            raise DisplayError("display settings must be a table of names and values")
        values = dict(settings)
        if "display" in values:  # luma.core cmdline's name for the driver
            values.setdefault("driver", values.pop("display"))
        unknown = sorted(set(values) - set(_KINDS))
        if unknown:
            names = ", ".join(sorted({*_KINDS, "display"}))
            raise DisplayError(
                f"unknown display setting {unknown[0]!r}; known: {names}", unknown[0]
            )
        if values.get("driver") not in DRIVERS:
            raise DisplayError(
                f"display driver must be one of {', '.join(DRIVERS)}, not {values.get('driver')!r}",
                "driver" if "driver" in settings else "display",
            )
        if values.get("interface") == "spi":
            raise DisplayError(
                "SPI displays are not supported (luma needs RPi.GPIO for them, which Raspberry"
                " Pi OS Bookworm does not have): wire the panel for I2C",
                "interface",
            )
        if values.get("interface", "i2c") not in INTERFACES:
            raise DisplayError(
                f"display interface must be one of {', '.join(INTERFACES)}, "
                f"not {values['interface']!r}",
                "interface",
            )
        if "i2c_address" in values:
            values["i2c_address"] = _address(values["i2c_address"])
        for key, value in values.items():
            kind = _KINDS[key]
            if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
                raise DisplayError(f"display {key} must be {_KIND_NAMES[kind]}, not {value!r}", key)
        if values.get("rotate", 0) not in (0, 1, 2, 3):
            raise DisplayError(
                f"display rotate must be 0, 1, 2 or 3 quarter turns, not {values['rotate']}",
                "rotate",
            )
        if not 0 <= values.get("contrast", 0) <= 255:
            raise DisplayError(
                f"display contrast must be 0..255, not {values['contrast']}", "contrast"
            )
        display = cls(**values)
        _check_size(display, "width" if "width" in values else "height")
        return display

    def to_mapping(self) -> dict[str, Any]:
        """The plain settings (`from_mapping` reads them back)."""
        values = {name: getattr(self, name) for name in _KINDS}
        return {k: v for k, v in values.items() if v is not None}

    def __str__(self) -> str:
        """A short name for log lines: "ssd1306 on i2c-1 0x3C"."""
        if self.driver == "dummy" or self.interface == "noop":
            return f"{self.driver} ({self.interface})"
        return f"{self.driver} on i2c-{self.i2c_port} 0x{self.i2c_address:02X}"

    @property
    def size(self) -> tuple[int, int]:
        """The picture's width and height once rotated."""
        turned = self.rotate % 2
        return (self.height, self.width) if turned else (self.width, self.height)


_KINDS: dict[str, type] = {
    "driver": str, "interface": str, "i2c_port": int, "i2c_address": int, "width": int, "height": int, "rotate": int, "contrast": int, "keep_image": bool,
    "state_dir": str,
}  # fmt: skip
_KIND_NAMES = {int: "a whole number", str: "text", bool: "true or false"}
#: the dummy device takes any size; this keeps a typing slip from allocating a huge image
MAX_DUMMY_SIDE = 1024


def _check_size(display: DisplaySettings, key: str) -> None:
    """Asks luma itself whether the driver drives a panel of this size (over its noop
    interface, so nothing is sent anywhere)."""
    width, height = display.width, display.height
    if display.driver == "dummy":
        if not (1 <= width <= MAX_DUMMY_SIDE and 1 <= height <= MAX_DUMMY_SIDE):
            raise DisplayError(
                f"display width and height must be 1..{MAX_DUMMY_SIDE}, not {width} x {height}",
                key,
            )
        return
    if not _luma_supports(display.driver, width, height):
        raise DisplayError(
            f"the {display.driver} driver has no {width} x {height} mode "
            f"(display width and height must be a size the panel has, such as 128 x 64)",
            key,
        )


@functools.lru_cache(maxsize=64)
def _luma_supports(driver: str, width: int, height: int) -> bool:
    from luma.core.error import DeviceDisplayModeError
    from luma.core.interface.serial import noop

    cls = getattr(importlib.import_module("luma.oled.device"), driver)
    try:
        cls(noop(), width=width, height=height)
    except DeviceDisplayModeError:
        return False
    return True


def describe(settings: DisplaySettings | Mapping[str, Any]) -> str:
    """A short name for log lines: "ssd1306 on i2c-1 0x3C" (never raises)."""
    try:
        return str(DisplaySettings.of(settings))
    except DisplayError:
        driver = (
            settings.get("driver", settings.get("display", "?"))
            if isinstance(settings, Mapping)
            else "?"
        )
        return f"{driver} (bad settings)"


def open_display(settings: DisplaySettings | Mapping[str, Any]) -> Any:
    """A luma device (mode "1") from settings; raises DisplayError with a clear reason."""
    display = DisplaySettings.of(settings)
    width, height, rotate = display.width, display.height, display.rotate
    try:
        serial = _serial(display)
        if display.driver == "dummy":
            from luma.core.device import dummy

            device = dummy(
                width=width, height=height, rotate=rotate, mode="1", serial_interface=serial
            )
        else:
            marker = _marker(display) if display.keep_image else None
            keep = marker is not None and marker.exists()
            luma = importlib.import_module("luma.oled.device")
            cls = _keeping(getattr(luma, display.driver), keep)
            device = cls(serial, width=width, height=height, rotate=rotate)
            device.opening = False
            if marker is not None:
                _touch(marker)
        if display.contrast is not None:
            device.contrast(display.contrast)
    except Exception as exc:  # luma and smbus2 raise many kinds; all mean "not there"
        raise DisplayError(f"cannot open the display {display}: {exc}") from exc
    device.persist = True  # leave the picture on when the daemon exits
    return device


def _address(value: Any) -> int:
    try:
        return value if isinstance(value, int) else int(str(value), 0)
    except ValueError:
        raise DisplayError(
            f"i2c_address must be a number such as 0x3C, not {value!r}", "i2c_address"
        ) from None


def _serial(display: DisplaySettings) -> Any:
    from luma.core.interface import serial

    if display.interface == "noop":
        return serial.noop()
    return serial.i2c(port=display.i2c_port, address=display.i2c_address)


def _keeping(cls: type, keep: bool) -> type:
    """The luma device class, skipping its blanking at open when `keep` (the panel still
    holds the picture of the previous run)."""
    if not keep:
        return cls

    def clear(self: Any) -> None:
        if not getattr(self, "opening", True):
            cls.clear(self)

    return type(f"kept_{cls.__name__}", (cls,), {"clear": clear, "kept": True})


def _marker(display: DisplaySettings) -> Path | None:
    """The file that says this panel was opened since boot (None: nowhere to keep it)."""
    folder = Path(display.state_dir)
    where = (display.interface, display.i2c_port, display.i2c_address)
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


class Display(Device):
    """One seat's display for the presenter: draws changed images only, never raises.

    A display that cannot be opened or drawn on is logged once and tried again every
    `retry` seconds (a loose cable put back), with one more line when it works again."""

    def __init__(
        self,
        name: str,
        settings: DisplaySettings | Mapping[str, Any],
        *,
        opener: Callable[[DisplaySettings], Any] = open_display,
        clock: Callable[[], float] = time.monotonic,
        retry: float = 30.0,
    ) -> None:
        self.name = name
        self._bad: DisplayError | None = None  # settings that cannot be: told at the first draw
        try:
            self.settings: DisplaySettings | Mapping[str, Any] = DisplaySettings.of(settings)
        except DisplayError as exc:
            self.settings, self._bad = settings, exc
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
        if isinstance(self.settings, DisplaySettings):
            return self.settings.size
        return DisplaySettings("dummy").size

    def show(self, image: Image.Image) -> bool:
        """Draws `image` unless the panel shows it already; True if it was sent."""
        if self.closed:
            return False
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
        if self._bad is not None:
            self._fail(f"the display {self.name}: {self._bad}")
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

    def _close(self) -> None:
        """Lets go of the panel, leaving its picture on (persist)."""
        self._close_device()
