"""docs/diagrams/wiring.toml as values: the Pico's and the Pi's headers pin by pin, the
buffer chip, the reader module, and what connects to what. Standard library only, so the
tests (tests/docs) and draw.py read the same description of the wiring.

    >>> WIRING.pico.number("GP2"), WIRING.pi.number("GPIO18")
    (4, 12)
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
SOURCE = HERE / "wiring.toml"


@dataclass(frozen=True)
class Pin:
    """One pin of a header: its physical number, its name on the board's pinout, its kind
    (gpio, ground, power, control) and what a GPIO can carry."""

    number: int
    name: str
    kind: str
    functions: tuple[str, ...] = ()


@dataclass(frozen=True)
class Header:
    """A board's 40-pin header. `aliases` are the names the pictures and pages use for a
    pin ("3.3 V") beside the board's own ("3V3")."""

    title: str
    pins: tuple[Pin, ...]
    aliases: tuple[tuple[str, str], ...] = ()

    def __post_init__(self) -> None:
        numbers = [p.number for p in self.pins]
        if numbers != list(range(1, len(numbers) + 1)):
            raise ValueError(f"{self.title}: pins must be listed 1, 2, 3 ... in order")

    def pin(self, number: int) -> Pin:
        if not 1 <= number <= len(self.pins):
            raise KeyError(f"{self.title} has no pin {number}")
        return self.pins[number - 1]

    def canonical(self, name: str) -> str:
        """The board's own name for a name a page may use ("3.3 V" -> "3V3")."""
        return dict(self.aliases).get(name, name)

    def numbers(self, name: str) -> tuple[int, ...]:
        """Every pin called `name` (GND is on several)."""
        name = self.canonical(name)
        return tuple(p.number for p in self.pins if p.name == name)

    def number(self, name: str) -> int:
        """The one pin called `name` (the first one for GND and the supplies)."""
        found = self.numbers(name)
        if not found:
            raise KeyError(f"{self.title} has no pin called {name!r}")
        return found[0]

    def is_named(self, number: int, name: str) -> bool:
        return self.pin(number).name == self.canonical(name)

    @property
    def grounds(self) -> tuple[int, ...]:
        return tuple(p.number for p in self.pins if p.kind == "ground")


@dataclass(frozen=True)
class Gate:
    """One gate of the buffer chip: output enable (active low), input, output."""

    oe: int
    a: int
    y: int


@dataclass(frozen=True)
class Buffer:
    part: str
    vcc: int
    gnd: int
    gates: tuple[Gate, ...]


@dataclass(frozen=True)
class ReaderLink:
    """Reader i of the hub: its chip-select GPIO and the buffer gate its MISO goes through."""

    cs: str
    chip: str
    gate: int


@dataclass(frozen=True)
class Hub:
    spi: int
    sck: str
    mosi: str
    miso: str
    reset: str
    power_in: str
    readers: tuple[ReaderLink, ...]


@dataclass(frozen=True)
class Seat:
    side: str
    button: str
    channel: int


@dataclass(frozen=True)
class Table:
    """The Raspberry Pi side: I2C to the multiplexer, the seats, the buzzer."""

    sda: str
    scl: str
    logic_power: str
    buzzer_power: str
    ground: str
    multiplexer: str
    multiplexer_address: int
    display_address: int
    buzzer: str
    seats: tuple[Seat, ...]

    def seat(self, side: str) -> Seat:
        return next(s for s in self.seats if s.side == side)


@dataclass(frozen=True)
class Wiring:
    pico: Header
    pi: Header
    buffer: Buffer
    reader_pins: tuple[str, ...]
    hub: Hub
    table: Table


def _header(data: dict) -> Header:
    pins = tuple(
        Pin(p["pin"], p["name"], p["kind"], tuple(p.get("functions", ()))) for p in data["pins"]
    )
    return Header(data["title"], pins, tuple(sorted(data.get("aliases", {}).items())))


def load(path: Path = SOURCE) -> Wiring:
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    buffer = data["buffer"]
    hub = data["hub"]
    table = data["table"]
    return Wiring(
        pico=_header(data["pico"]),
        pi=_header(data["pi"]),
        buffer=Buffer(
            buffer["part"], buffer["vcc"], buffer["gnd"], tuple(Gate(**g) for g in buffer["gates"])
        ),
        reader_pins=tuple(data["reader"]["pins"]),
        hub=Hub(
            hub["spi"],
            hub["sck"],
            hub["mosi"],
            hub["miso"],
            hub["reset"],
            hub["power_in"],
            tuple(ReaderLink(**r) for r in hub["readers"]),
        ),
        table=Table(
            table["sda"],
            table["scl"],
            table["logic_power"],
            table["buzzer_power"],
            table["ground"],
            table["multiplexer"]["part"],
            table["multiplexer"]["address"],
            table["display_address"],
            table["buzzer"],
            tuple(Seat(**s) for s in table["seats"]),
        ),
    )


WIRING = load()
