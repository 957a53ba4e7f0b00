"""The code's pins agree with docs/diagrams/wiring.toml, the wiring the pictures and
docs/hardware.md show: the hub firmware's (hardware/firmware/config.py, and no pin number
written anywhere else in the firmware), the daemon's defaults (companion/config.py), the
self-test's multiplexer channels, the boot config's multiplexer and the example config."""

from __future__ import annotations

import ast
import re
import tomllib

import pytest

from companion.config import (
    DEFAULT_BUTTON_PINS,
    DEFAULT_BUZZER_PIN,
    DEFAULT_I2C_PORTS,
    Config,
    HubConfig,
    parse_config,
)
from companion.selftest import CHANNEL_OF
from engine import SIDES, SQUARES
from hardware.display import DisplaySettings
from tests.docs.diagrams import REPO, WIRING, load

PICO, PI, HUB, TABLE = WIRING.pico, WIRING.pi, WIRING.hub, WIRING.table
FIRMWARE = REPO / "hardware/firmware"


@pytest.fixture(scope="module")
def firmware():
    import importlib.util

    spec = importlib.util.spec_from_file_location("hub_config", FIRMWARE / "config.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def gp(name: str) -> int:
    return int(re.fullmatch(r"GP(?:IO)?(\d+)", name).group(1))


def test_the_headers_are_the_boards_pinouts():
    """Spot checks against the boards' own pinouts, and the regular shape of each."""
    assert PICO.grounds == (3, 8, 13, 18, 23, 28, 33, 38)
    assert PI.grounds == (6, 9, 14, 20, 25, 30, 34, 39)
    assert [PICO.number(f"GP{n}") for n in range(23)] == [
        1, 2, 4, 5, 6, 7, 9, 10, 11, 12, 14, 15, 16, 17, 19, 20, 21, 22, 24, 25, 26, 27, 29
    ]  # fmt: skip
    assert (PICO.number("VBUS"), PICO.number("VSYS"), PICO.number("3V3")) == (40, 39, 36)
    assert PI.numbers("3.3 V") == (1, 17) and PI.numbers("5 V") == (2, 4)
    assert {PI.number(f"GPIO{n}") for n in range(28)} == set(range(1, 41)) - set(
        PI.grounds + PI.numbers("3V3") + PI.numbers("5V")
    )


def test_the_pico_functions_follow_the_rp2040_table():
    """RP2040 datasheet 1.4.3: SPI (n//8)%2 with RX CSn SCK TX in turn, I2C (n//2)%2."""
    for p in PICO.pins:
        if p.kind == "gpio":
            n = gp(p.name)
            assert f"SPI{(n // 8) % 2} {['RX', 'CSn', 'SCK', 'TX'][n % 4]}" in p.functions
            assert f"I2C{(n // 2) % 2} {['SDA', 'SCL'][n % 2]}" in p.functions


def test_the_firmware_drives_the_pins_of_the_wiring(firmware):
    assert HUB.spi == firmware.SPI_ID
    assert gp(HUB.sck) == firmware.SPI_SCK
    assert gp(HUB.mosi) == firmware.SPI_MOSI
    assert gp(HUB.miso) == firmware.SPI_MISO
    assert gp(HUB.reset) == firmware.RESET_PIN
    assert tuple(gp(r.cs) for r in HUB.readers) == firmware.CS_PINS


def test_the_spi_pins_can_carry_their_spi_functions():
    for name, role in ((HUB.sck, "SCK"), (HUB.mosi, "TX"), (HUB.miso, "RX")):
        assert f"SPI{HUB.spi} {role}" in PICO.pin(PICO.number(name)).functions, name


def test_every_hub_pin_is_a_gpio_used_once():
    used = [HUB.sck, HUB.mosi, HUB.miso, HUB.reset, *(r.cs for r in HUB.readers)]
    assert len(set(used)) == len(used)
    assert all(PICO.pin(PICO.number(name)).kind == "gpio" for name in used)
    assert PICO.pin(PICO.number(HUB.power_in)).kind == "power"


def test_each_buffer_gate_serves_one_reader():
    assert len({(r.chip, r.gate) for r in HUB.readers}) == len(HUB.readers) == len(SQUARES)
    pins = {p for g in WIRING.buffer.gates for p in (g.oe, g.a, g.y)}
    assert pins | {WIRING.buffer.vcc, WIRING.buffer.gnd} == set(range(1, 15))


def test_no_firmware_file_writes_a_pin_number_of_its_own():
    """main.py takes every pin from config.py: a Pin(…) of a number would escape the check."""
    for path in FIRMWARE.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and getattr(node.func, "attr", None) == "Pin":
                first = node.args[0] if node.args else None
                assert not isinstance(first, ast.Constant), f"{path.name}:{node.lineno}"


def test_the_daemons_defaults_are_the_wiring():
    for side in SIDES:
        assert DEFAULT_BUTTON_PINS[side] == gp(TABLE.seat(side).button)
        assert CHANNEL_OF[side] == TABLE.seat(side).channel
    assert gp(TABLE.buzzer) == DEFAULT_BUZZER_PIN
    # the multiplexer's channels become consecutive buses, channel 0 first (docs/install.md)
    first = DEFAULT_I2C_PORTS[SIDES[0]]
    assert {s: DEFAULT_I2C_PORTS[s] - first for s in SIDES} == CHANNEL_OF
    assert DisplaySettings("ssd1306").i2c_address == TABLE.display_address
    config = Config.default()
    for side, seat in config.seats.items():
        assert seat.button_pin == gp(TABLE.seat(side).button)
        assert seat.display.i2c_address == TABLE.display_address
    assert config.sound.buzzer_pin == gp(TABLE.buzzer)
    assert HubConfig().readers == SQUARES


def test_the_i2c_pins_are_the_bus_the_kernel_gives_the_multiplexer():
    """dtparam=i2c_arm is bus 1, on GPIO2/GPIO3; the overlay names the multiplexer's address."""
    assert "SDA1" in PI.pin(PI.number(TABLE.sda)).functions
    assert "SCL1" in PI.pin(PI.number(TABLE.scl)).functions
    boot = (REPO / "systemd/config.txt").read_text()
    assert f"dtoverlay=i2c-mux,pca9548,addr=0x{TABLE.multiplexer_address:02x}" in boot


def test_the_example_config_names_the_pins_of_the_wiring():
    text = (REPO / "docs/config.example.toml").read_text()
    example = tomllib.loads(text)
    parsed = parse_config(text)
    for side in SIDES:
        seat = example["seats"][side]
        assert seat["button_pin"] == parsed.seats[side].button_pin == gp(TABLE.seat(side).button)
        assert int(seat["display"]["i2c_address"], 16) == TABLE.display_address
    assert example["sound"]["buzzer_pin"] == gp(TABLE.buzzer)
    assert tuple(example["hub"]["readers"]) == SQUARES


def test_the_wiring_module_reads_back_what_it_holds():
    wiring = load("wiring")
    assert wiring.load() == WIRING
    assert eval(repr(WIRING.hub.readers[0]), vars(wiring)) == WIRING.hub.readers[0]
