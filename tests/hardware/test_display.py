"""Displays from plain luma settings: luma's dummy device keeps what was drawn; real
drivers over luma's noop interface; missing panels reported once and the game goes on."""

from __future__ import annotations

import logging

import pytest
from luma.oled.device import sh1106, ssd1306
from PIL import Image, ImageChops

from companion.show.screens import Screens, samples
from hardware.display import Display, DisplayError, describe, open_display


def frame(name="seat", side="S", lang="en"):
    return Screens(lang).frame(samples.all_views()[name], side, 100.0)


def same(a: Image.Image, b: Image.Image) -> bool:
    return ImageChops.difference(a.convert("L"), b.convert("L")).getbbox() is None


def test_a_dummy_display_keeps_the_frame_it_was_given():
    device = open_display({"driver": "dummy"})
    assert (device.mode, device.size, device.persist) == ("1", (128, 64), True)
    image = frame()
    device.display(image)
    assert same(device.image, image)


def test_rotation_is_applied_by_luma():
    device = open_display({"driver": "dummy", "rotate": 2})
    image = frame()
    device.display(image)
    assert same(device.image, image.rotate(180))


@pytest.mark.parametrize(("driver", "cls"), [("ssd1306", ssd1306), ("sh1106", sh1106)])
def test_oled_drivers_open_over_luma_interfaces(driver, cls, tmp_path):
    device = open_display({"driver": driver, "interface": "noop", "state_dir": str(tmp_path)})
    assert isinstance(device, cls) and device.persist
    device.display(frame())  # the real driver code packs the image for the panel


def test_a_panel_opened_again_since_boot_keeps_its_picture(tmp_path):
    settings = {"driver": "ssd1306", "interface": "noop", "state_dir": str(tmp_path)}
    first = open_display(settings)
    assert not getattr(first, "kept", False), "after power-up the panel memory is noise: blank it"
    assert len(list(tmp_path.iterdir())) == 1
    again = open_display(settings)
    assert again.kept, "a daemon restart leaves the picture until the next frame"
    assert open_display({**settings, "keep_image": False}).__class__ is ssd1306
    other = open_display({**settings, "i2c_address": 0x3D})
    assert not getattr(other, "kept", False), "each panel has its own marker"


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"driver": "st7735"}, "display driver must be one of"),
        ({"driver": "ssd1306", "interface": "usb"}, "display interface must be one of"),
        ({"driver": "ssd1306", "interface": "spi"}, "SPI displays are not supported .* for I2C"),
        ({"driver": "ssd1306", "i2c_port": 99}, "cannot open the display ssd1306 on i2c-99 0x3C"),
        ({"driver": "ssd1306", "i2c_address": "sixty"}, "i2c_address must be a number"),
        ({"driver": "dummy", "rotate": 5}, "rotate must be 0, 1, 2 or 3"),
        ({"driver": "dummy", "colour": "blue"}, "unknown display setting 'colour'"),
        ("ssd1306", "settings must be a table"),
    ],
)
def test_bad_settings_give_one_clear_sentence(settings, message):
    with pytest.raises(DisplayError, match=message):
        open_display(settings)


def test_describe_names_the_bus_and_address():
    assert (
        describe({"driver": "sh1106", "i2c_port": 3, "i2c_address": "0x3D"})
        == "sh1106 on i2c-3 0x3D"
    )


def test_display_draws_only_changed_images():
    display = Display("S", {"driver": "dummy"})
    a, b = frame("seat", "S"), frame("seat", "N")
    assert display.show(a) is True
    assert display.show(a.copy()) is False, "the same picture is not sent again"
    assert display.show(b) is True
    assert display.redraws == 2 and same(display.device.image, b)


class FlakyOpener:
    """luma's dummy device behind a switch: off = the panel is not on the bus."""

    def __init__(self):
        self.present = False
        self.opened = 0

    def __call__(self, settings):
        if not self.present:
            raise DisplayError("I2C device not found: /dev/i2c-1")
        self.opened += 1
        return open_display({"driver": "dummy"})


def test_a_missing_display_is_reported_once_retried_later_and_the_game_goes_on(caplog):
    now = [0.0]
    opener = FlakyOpener()
    display = Display("W", {"driver": "ssd1306"}, opener=opener, clock=lambda: now[0], retry=30)
    with caplog.at_level(logging.WARNING, "setup.display"):
        for t in range(0, 20, 2):
            now[0] = t
            assert display.show(frame("seat", "W")) is False
        opener.present = True
        now[0] = 25.0
        assert display.show(frame("seat", "W")) is False, "not retried before 30 s"
        now[0] = 31.0
        assert display.show(frame("seat", "W")) is True
    errors = [r for r in caplog.records if r.levelno == logging.ERROR]
    assert len(errors) == 1 and "the game goes on without it" in errors[0].getMessage()
    assert "works again" in caplog.text
    assert display.ok and opener.opened == 1


def test_a_display_failing_mid_game_is_dropped_and_reopened(caplog):
    now = [0.0]
    device = open_display({"driver": "dummy"})
    opened = []

    def opener(settings):
        opened.append(1)
        return device

    display = Display("N", {"driver": "ssd1306"}, opener=opener, clock=lambda: now[0], retry=5)
    assert display.show(frame("seat", "N"))
    device.display = lambda image: (_ for _ in ()).throw(OSError(121, "Remote I/O error"))
    with caplog.at_level(logging.ERROR, "setup.display"):
        assert display.show(frame("seat", "S")) is False
        assert display.show(frame("alert", "E")) is False
    assert not display.ok
    assert caplog.text.count("failed to draw") == 1
    del device.display  # the bus works again
    now[0] = 6.0
    assert display.show(frame("alert", "E")) is True and len(opened) == 2


def test_luma_cmdline_name_display_is_accepted_for_the_driver(tmp_path):
    settings = {
        "display": "sh1106",
        "interface": "noop",
        "i2c_address": "0x3C",
        "state_dir": str(tmp_path),
    }
    assert isinstance(open_display(settings), sh1106)
    assert describe({"display": "ssd1306", "i2c_port": 3}) == "ssd1306 on i2c-3 0x3C"
