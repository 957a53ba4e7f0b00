"""The presenter on luma dummy devices: each seat's frame on its panel, only changed panels
redrawn, alerts flashed in (simulated or real) time, a broken panel skipped."""

from __future__ import annotations

import logging
import threading
import time

from PIL import ImageChops

from companion.show.presenter import Presenter
from companion.show.screens import Screens, samples
from hardware.display import Display, DisplayError

SIDES = ("N", "E", "S", "W")


def dummies() -> dict[str, dict]:
    return {side: {"driver": "dummy"} for side in SIDES}


def same(a, b) -> bool:
    return ImageChops.difference(a.convert("L"), b.convert("L")).getbbox() is None


def test_each_seat_gets_its_own_frame_and_unchanged_panels_are_not_redrawn():
    views = samples.playing(now=0.0)
    presenter = Presenter.from_settings(dummies(), lang="ru", threaded=False)
    presenter.show(views["seat"], now=0.0)
    screens = Screens("ru")
    for side, display in presenter.displays.items():
        assert same(display.device.image, screens.frame(views["seat"], side, 0.0))
    assert presenter.redraws == 4
    presenter.show(views["seat"], now=1.0)
    assert presenter.redraws == 4, "the same view: nothing sent"
    presenter.show(views["preview"], now=2.0)  # only the active player's screen changes
    assert presenter.redraws == 5
    assert same(presenter.displays["W"].device.image, screens.frame(views["preview"], "W", 2.0))
    presenter.close()


def test_an_alert_flashes_on_time_and_ends():
    views = samples.playing(now=10.0)
    table = views["alert"]
    owner = table.alerts[0].side
    presenter = Presenter.from_settings(
        dummies(), alert_seconds=2.0, flash_period=0.5, threaded=False
    )
    presenter.show(table, now=10.0)
    panel = presenter.displays[owner]
    images = []
    for t in (10.0, 10.2, 10.5, 10.9, 11.0, 11.5, 12.0, 12.5):
        due = presenter.tick(now=t)
        images.append(panel.device.image.copy())
        if t < 12.0:
            assert due is not None and due > t
    lit = [sum(img.histogram()[1:]) > 128 * 64 / 2 for img in images]
    assert lit == [True, True, False, False, True, False, False, False]
    assert same(images[-1], Screens(alert_seconds=2.0).frame(table, owner, 12.5)), (
        "back to the seat screen"
    )
    # flashing touches the owner's panel only: 4 first frames + 4 phase changes
    assert panel.redraws == 5 and presenter.redraws == 5 + 3
    presenter.close()


def test_the_threaded_presenter_never_blocks_and_flashes_by_the_clock():
    views = samples.playing(now=time.monotonic())
    slow_settings = dummies()
    # The flashing runs on the real clock here (the worker sleeps until the next phase): an
    # alert of 30 s and bounds of 30 s, so a machine that starves this process for seconds
    # cannot end the alert before its four flashes (with 2 s and 5 s, a loaded one could).
    presenter = Presenter.from_settings(slow_settings, alert_seconds=30.0, flash_period=0.25)
    # a stuck I2C bus: no panel can be drawn until the gate opens (by itself after 30 s, so a
    # show() that waited for the panels would return only then, however fast the machine)
    gate = threading.Event()
    opener = threading.Timer(30.0, gate.set)
    opener.start()
    for display in presenter.displays.values():
        display._opener = lambda settings: _gated(settings, gate)
    presenter.show(views["alert"])
    assert not gate.is_set(), "show() returns at once, without waiting for a panel"
    opener.cancel()
    gate.set()
    assert presenter.flush(timeout=30)
    owner = views["alert"].alerts[0].side
    deadline = time.monotonic() + 30
    while presenter.displays[owner].redraws < 4 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert presenter.displays[owner].redraws >= 4, "the flashes came without any call"
    presenter.close()


def _gated(settings, gate: threading.Event):
    from hardware.display import open_display

    device = open_display({"driver": "dummy"})
    draw = device.display

    def display(image):
        gate.wait()
        draw(image)

    device.display = display
    return device


def test_a_missing_panel_is_reported_once_and_the_others_go_on(caplog):
    def missing(settings):
        raise DisplayError("I2C device not found: /dev/i2c-4")

    displays = {side: Display(side, {"driver": "dummy"}) for side in ("N", "S")}
    displays["E"] = Display("E", {"driver": "ssd1306", "i2c_port": 4}, opener=missing)
    views = samples.playing(now=0.0)
    with (
        caplog.at_level(logging.ERROR, "setup.display"),
        Presenter(displays, threaded=False) as presenter,
    ):
        for t, name in enumerate(("seat", "preview", "alert", "seat")):
            presenter.show(views[name], now=float(t))
        assert displays["N"].device.image is not None and displays["S"].redraws >= 1
    assert caplog.text.count("/dev/i2c-4") == 1


def test_a_screen_that_fails_to_draw_does_not_stop_the_others(monkeypatch, caplog):
    import companion.show.screens as screens

    real = screens.draw_seat

    def draw_seat(canvas, table, seat, texts, **how):
        if seat.side == "N":
            raise KeyError("a drawing bug")
        real(canvas, table, seat, texts, **how)

    monkeypatch.setattr(screens, "draw_seat", draw_seat)
    presenter = Presenter.from_settings(dummies(), threaded=False)
    with caplog.at_level(logging.ERROR, "setup.display"):
        presenter.show(samples.playing()["seat"], now=0.0)
    assert presenter.displays["N"].redraws == 0
    assert all(presenter.displays[side].redraws == 1 for side in ("E", "S", "W"))
    assert "cannot draw the screen of N" in caplog.text
    presenter.close()


def test_warming_up_loads_every_font_a_whole_game_draws_with(tmp_path):
    """Issue 24: the first games loaded fonts (a FreeType face each, 1.4 MB in all), glyphs
    and the chart's code that READY had not needed, so memory grew through the evening
    from what it was at READY. `Presenter.warm` draws every sample screen before READY;
    a whole game played afterwards (the demo's bots, its screens and its score chart)
    loads not one font more."""
    from companion.sim.demo import Demo
    from hardware import fonts

    fonts.load.cache_clear()
    presenter = Presenter.from_settings({"N": {"driver": "dummy"}}, threaded=False)
    assert presenter.warm() == len(samples.all_views())
    loaded = fonts.load.cache_info().misses
    result = Demo(seed=2, fast=True, journal=tmp_path / "journal.jsonl", out=lambda _: None).run()
    assert result.matches and list(tmp_path.glob("scores-*.png"))  # the chart was drawn
    assert fonts.load.cache_info().misses == loaded
