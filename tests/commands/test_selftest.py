"""`setup-companion selftest`: every device's check on the simulated table, PASS and FAIL."""

from __future__ import annotations

import threading
import time

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin

from companion.config import Config
from companion.selftest import TEST_TUNE, TableSelfTest
from companion.show.canvas import INK, Canvas
from companion.show.i18n import LANGUAGES, Catalogue
from companion.show.screens.selftest import draw_selftest
from companion.sim.rig import SimRig
from engine import SQUARES
from hardware.display import open_display
from hardware.hub.sim import FaultModel

from .conftest import run_cli

DUMMIES = {side: {"driver": "dummy", "interface": "noop"} for side in "NESW"}


def verdicts(out: str) -> dict[str, str]:
    """check name -> PASS/FAIL/SKIP, from the printed lines."""
    found = {}
    for line in out.splitlines():
        verdict, _, rest = line.partition(" ")
        if verdict in ("PASS", "FAIL", "SKIP"):
            found[rest.split(":")[0]] = verdict
    return found


@pytest.fixture
def rig():
    with SimRig(FaultModel()) as rig:
        rig.hub.start(0.1)
        yield rig


class RecordingPWMPin(MockPWMPin):
    """gpiozero's MockPWMPin also keeping the frequencies it was set to (its `states` keep
    only the duty cycle)."""

    def __init__(self, factory, info):
        super().__init__(factory, info)
        self.frequencies: list[float | None] = []

    def _set_frequency(self, value):
        super()._set_frequency(value)
        self.frequencies.append(value)


@pytest.fixture
def pins():
    factory = MockFactory(pin_class=RecordingPWMPin)
    yield factory
    factory.reset()


def test_the_simulated_table_passes_every_check(capsys):
    code, out, err = run_cli(capsys, "selftest", "--sim")
    assert code == 0, out + err
    expected = ["hub link", "hub port", *(f"reader {n} ({sq})" for n, sq in enumerate(SQUARES))]
    expected += [f"display {s}" for s in "NESW"] + [f"button {s}" for s in "NESW"] + ["buzzer"]
    assert verdicts(out) == dict.fromkeys(expected, "PASS")
    assert "PASS hub link: firmware sim-1 on " in out
    # nothing to look at or listen to on the simulated table: it does not ask to
    assert "PASS display E: dummy (noop) shows SELFTEST E (in memory: nothing to look at)" in out
    assert "PASS buzzer: pin 18: played the test tune (simulated: nothing to hear)" in out
    assert "look at it" not in out and "listen for it" not in out
    assert "  press the W (green) button within 10 s ..." in out
    assert out.splitlines()[-1] == "selftest: 23 passed, 0 failed"


def test_a_faulty_reader_fails_naming_its_square(capsys):
    code, out, _ = run_cli(capsys, "selftest", "--sim", "--sim-fault-reader", "9", "--no-buttons")
    assert code == 1
    found = verdicts(out)
    assert found.pop("reader 9 (NE)") == "FAIL"
    assert "FAIL reader 9 (NE): fault: check its chip-select wire" in out
    assert found.pop("buttons") == "SKIP"
    assert set(found.values()) == {"PASS"} and len(found) == 2 + 11 + 4 + 1
    assert out.splitlines()[-1] == "selftest: 18 passed, 1 failed, 1 skipped (reader 9 (NE))"


def test_a_display_that_cannot_open_fails_and_the_others_pass(capsys):
    code, out, _ = run_cli(capsys, "selftest", "--sim", "--sim-broken-display", "S", "--no-buttons")
    assert code == 1
    found = verdicts(out)
    assert found["display S"] == "FAIL"
    assert [found[f"display {s}"] for s in "NEW"] == ["PASS"] * 3
    line = next(line for line in out.splitlines() if line.startswith("FAIL display S"))
    assert line.startswith("FAIL display S: cannot open the display ssd1306 on i2c-99 0x3C")


def test_each_display_shows_the_pattern_with_its_side(rig, pins):
    opened = {}

    def opener(settings):
        device = open_display(settings)
        opened[len(opened)] = device
        return device

    config = Config()
    lines: list[str] = []
    TableSelfTest(
        config,
        hub_port=rig.port,
        displays=DUMMIES,
        pin_factory=pins,
        opener=opener,
        buttons=False,
        out=lines.append,
    ).run()
    texts = Catalogue.load("en")
    for n, side in enumerate("NESW"):
        canvas = Canvas()
        draw_selftest(canvas, side, config.seats[side].colour, texts)
        image = opened[n].image
        assert image.tobytes() == canvas.image.tobytes()
        assert image.getpixel((0, 0)) == image.getpixel((127, 63)) == INK  # the frame's corners
        assert f"SELFTEST {side}" in [text for text, _, _ in canvas.texts]
    assert opened[0].image.tobytes() != opened[2].image.tobytes()  # N's and S's differ


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_pattern_and_its_prompts_fit_in_every_language(lang):
    for prompt in (None, "selftest.press", "selftest.pressed"):
        canvas = Canvas()
        draw_selftest(canvas, "W", "green", Catalogue.load(lang), prompt=prompt)
        assert not canvas.overflow, (prompt, canvas.overflow)


def selftest(rig, pins, **options) -> tuple[list, list[str]]:
    lines: list[str] = []
    test = TableSelfTest(
        Config(), hub_port=rig.port, displays=DUMMIES, pin_factory=pins, out=lines.append, **options
    )
    return test.run(), lines


def buttons_only(checks):
    return {c.name: (c.verdict, c.reason) for c in checks if c.name.startswith("button")}


def test_a_button_not_pressed_in_time_fails_and_a_wrong_one_is_named(rig, pins):
    def press(side, pin):
        if side == "E":
            return  # nobody presses E
        other = 13 if side == "N" else pin  # N's press lands on S's button (swapped wires)

        def finger():
            time.sleep(0.05)
            pins.pin(other).drive_low()
            time.sleep(0.08)
            pins.pin(other).drive_high()

        threading.Thread(target=finger, daemon=True).start()

    checks, lines = selftest(rig, pins, press=press, button_timeout=2.0)
    assert buttons_only(checks) == {
        "button N": ("FAIL", "pin 5: not pressed within 2 s; S was pressed instead (check its wires)"),
        "button E": ("FAIL", "pin 6: not pressed within 2 s (check its wires)"),
        "button S": ("PASS", "pin 13: pressed"),
        "button W": ("PASS", "pin 19: pressed"),
    }  # fmt: skip
    assert "  press the E (purple) button within 2 s ..." in lines


def test_a_stuck_button_fails_before_asking(rig, pins):
    def press(side, pin):
        if side == "N":
            pins.pin(19).drive_low()  # W's wire touches ground from now on
            pins.pin(pin).drive_low()
            time.sleep(0.08)
            pins.pin(pin).drive_high()

    checks, lines = selftest(rig, pins, press=press, button_timeout=0.2)
    assert buttons_only(checks)["button N"] == ("PASS", "pin 5: pressed")
    assert buttons_only(checks)["button W"] == (
        "FAIL",
        "pin 19 reads pressed before being asked: stuck or shorted",
    )
    assert "  press the W (green) button within 0.2 s ..." not in lines


def test_the_buzzer_plays_the_test_tune_on_its_pin(rig, pins):
    checks, _ = selftest(rig, pins, buttons=False)
    buzzer = next(c for c in checks if c.name == "buzzer")
    assert (buzzer.verdict, buzzer.reason) == (
        "PASS",
        "pin 18: played the test tune (listen for it)",
    )
    pin = pins.pin(18)
    duty = [state.state for state in pin.states]
    sounding = [d for a, d in zip(duty, duty[1:]) if d > 0 and a == 0]
    assert sounding == [0.5] * len(TEST_TUNE)  # each note at full volume, a gap between
    assert duty[-1] == 0  # silent afterwards
    notes = [round(hz) for hz in pin.frequencies if hz is not None]
    assert notes[-len(TEST_TUNE) :] == [1047, 1319, 1568, 2093]  # C6 E6 G6 C7


def test_no_hub_fails_the_link_and_the_readers_without_waiting_long(pins, tmp_path):
    lines: list[str] = []
    started = time.monotonic()
    checks = TableSelfTest(
        Config(),
        hub_port=str(tmp_path / "no-hub"),
        displays=DUMMIES,
        pin_factory=pins,
        buttons=False,
        hub_timeout=0.5,
        out=lines.append,
    ).run()
    assert time.monotonic() - started < 10
    assert lines[0].startswith(f"FAIL hub link: cannot open {tmp_path / 'no-hub'}: ")
    assert "No such file or directory" in lines[0]
    assert lines[1] == "FAIL readers: not tested: the hub link failed"
    assert [c.verdict for c in checks if c.name.startswith("display")] == ["PASS"] * 4


def test_a_hub_sweeping_too_slowly_fails(pins):
    with SimRig(FaultModel()) as slow:
        slow.hub.start(0.5)  # 2 snapshots a second: a game would lag behind the table
        checks, _ = selftest(slow, pins, buttons=False)
    hub = checks[0]
    assert hub.verdict == "FAIL"
    assert "snapshots/s: too slow (at least 5/s needed)" in hub.reason


def test_sim_options_need_sim(capsys):
    code, out, err = run_cli(capsys, "selftest", "--sim-fault-reader", "3")
    assert (code, out) == (2, "")
    assert err == "setup-companion: --sim-fault-reader and --sim-broken-display need --sim\n"
    code, _, err = run_cli(capsys, "selftest", "--sim", "--sim-fault-reader", "12")
    assert code == 2 and "readers are numbered 0..11" in err


def test_a_program_reading_the_hubs_port_is_named_and_fails(rig, pins):
    """A serial terminal left open on the hub's port takes the hub's lines: the self-test
    names it (before, nothing said so: at best the hub link was too slow)."""
    import os
    import subprocess
    import sys

    from tests.hub.test_port_shared import TERMINAL

    terminal = subprocess.Popen(
        [sys.executable, "-c", TERMINAL, os.path.realpath(rig.port)],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert terminal.stdout.readline() == "open\n"
        checks, _ = selftest(rig, pins, buttons=False)
        [port] = [c for c in checks if c.name == "hub port"]
        assert port.verdict == "FAIL"
        assert port.reason.startswith(f"also open in picocom (pid {terminal.pid}), which takes")
        assert terminal.poll() is None  # named, not cut off: the self-test only looks
    finally:
        terminal.kill()
        terminal.wait()
