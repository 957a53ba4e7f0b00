"""Draws the pictures of docs/hardware.md from one description of the wiring,
docs/diagrams/wiring.toml (both boards' headers pin by pin, and what connects to what), so a
picture cannot give a pin another number than the board has: every header pin in a picture
is written `NAME [pin N]` with N looked up in the board's pinout there, never computed.
The squares come from the daemon's default `[hub] readers`, the seats' colours from its
`[seats]` defaults. tests/docs check the firmware's and the daemon's pins against the same
file, and every label of these pictures against it.

    make diagrams        (or: python docs/diagrams/draw.py docs/diagrams)

Writes wiring-pi.png, wiring-hub.png, buzzer.png, board-map.png and hub-board.png. Needs
the `diagrams` extra (matplotlib, schemdraw; the `test` extra has them too); nothing in the
program imports this file.
"""

from __future__ import annotations

import hashlib
import sys
from collections.abc import Callable, Iterable
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402
from matplotlib.lines import Line2D  # noqa: E402
from matplotlib.patches import FancyBboxPatch, Rectangle  # noqa: E402

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
sys.path[:0] = [str(HERE), str(REPO)]

from stripboard import (  # noqa: E402
    BOARD,
    HEIGHT,
    READER_BUSES,
    READER_ROWS,
    WIDTH,
    hole_name,
    reader_column,
    strips,
)
from wiring import WIRING, Header  # noqa: E402

from companion.config import DEFAULT_COLOURS, DEFAULT_I2C_PORTS, HubConfig  # noqa: E402
from engine import SIDES  # noqa: E402
from engine.geometry import GRID  # noqa: E402

PICO, PI, HUB, TABLE = WIRING.pico, WIRING.pi, WIRING.hub, WIRING.table
INK = {"red": "#c0392b", "purple": "#7d3c98", "yellow": "#b7950b", "green": "#1e8449"}
WIRE = {"i2c": "#1f618d", "power": "#c0392b", "gnd": "#222222", "gpio": "#d35400"}
WIRE.update({"spi": "#117a65", "cs": "#6c3483", "miso": "#b03a2e"})
DPI = 110


def pin(header: Header, name: str, role: str = "") -> str:
    """A header pin as every picture writes it: its name, its role, its physical pin."""
    return f"{name}{' ' + role if role else ''} [pin {header.number(name)}]"


def grounds(header: Header) -> str:
    return f"GND [pins {', '.join(map(str, header.grounds))}]"


def gpio(name: str) -> int:
    """The number in "GP16" or "GPIO18"."""
    return int(name.lstrip("GPIO"))


def box(ax, x, y, w, h, title, lines=(), colour="#f4f6f7", edge="#34495e", size=11):
    ax.add_patch(
        FancyBboxPatch(
            (x, y), w, h, boxstyle="round,pad=0.02,rounding_size=0.12", fc=colour, ec=edge, lw=1.6
        )
    )
    ax.text(x + w / 2, y + h - 0.22, title, ha="center", va="top", fontsize=size + 1, weight="bold")
    for i, line in enumerate(lines):
        ax.text(x + w / 2, y + h - 0.62 - 0.36 * i, line, ha="center", va="top", fontsize=size - 1)


def wire(ax, points, kind, label=None, at=0, size=9, dy=0.08, ha="left", lw=2.2):
    xs, ys = zip(*points, strict=True)
    ax.plot(xs, ys, color=WIRE[kind], lw=lw, solid_capstyle="round")
    ax.plot([xs[0], xs[-1]], [ys[0], ys[-1]], "o", color=WIRE[kind], ms=4)
    if label:
        x, y = points[at]
        ax.text(x + 0.12, y + dy, label, fontsize=size, color=WIRE[kind], ha=ha, va="bottom")


def figure(width: float, height: float, bottom: float = 0) -> tuple[Figure, plt.Axes]:
    fig, ax = plt.subplots(figsize=(width, height - bottom), dpi=DPI)
    ax.set_xlim(0, width)
    ax.set_ylim(bottom, height)
    ax.set_aspect("equal")
    ax.axis("off")
    return fig, ax


def legend(ax, x, y, kinds):
    for i, (kind, text) in enumerate(kinds):
        ax.plot([x, x + 0.5], [y - 0.35 * i] * 2, color=WIRE[kind], lw=3)
        ax.text(x + 0.65, y - 0.35 * i, text, va="center", fontsize=10)


def subtitle(ax, x, y, text):
    ax.text(x, y, text, fontsize=10, color="#555")


# -- the Raspberry Pi side --------------------------------------------------------------------
def pi_figure() -> Figure:
    fig, ax = figure(17, 11)
    ax.text(0.4, 10.6, "Raspberry Pi side: displays, buttons, buzzer", fontsize=17, weight="bold")
    subtitle(
        ax,
        0.4,
        10.15,
        "BCM GPIO numbers (what the configuration uses), physical header pins in brackets;"
        " drawn from docs/diagrams/wiring.toml",
    )
    seats = {s.side: s for s in TABLE.seats}
    pins = [
        ("3.3 V", pin(PI, "3.3 V"), "power"),
        ("SDA", pin(PI, TABLE.sda, "SDA1"), "i2c"),
        ("SCL", pin(PI, TABLE.scl, "SCL1"), "i2c"),
        ("GND", pin(PI, TABLE.ground), "gnd"),
        *((side, pin(PI, seats[side].button), "gpio") for side in SIDES),
        ("buzzer", pin(PI, TABLE.buzzer), "gpio"),
        ("5 V", pin(PI, "5 V"), "power"),
    ]
    top = 9.2
    box(ax, 0.5, 0.9, 3.3, top - 0.4, "Raspberry Pi", ["40-pin header", "(any model)"])
    at = {}
    for i, (key, label, _kind) in enumerate(pins):
        y = top - 1.6 - 0.72 * i
        at[key] = (3.8, y)
        ax.text(3.7, y, label, ha="right", va="center", fontsize=10, weight="bold")
    # the multiplexer
    box(
        ax,
        6.2,
        5.6,
        2.8,
        4.2,
        TABLE.multiplexer,
        ["I2C multiplexer", f"address 0x{TABLE.multiplexer_address:02X}", "A0 A1 A2 to GND"],
    )
    gnd_y = 5.9
    for name, y in (("VIN", at["3.3 V"][1]), ("SDA", at["SDA"][1]), ("SCL", at["SCL"][1])):
        ax.text(6.3, y, name, va="center", fontsize=9)
    ax.text(6.3, gnd_y, "GND", va="center", fontsize=9)
    wire(ax, [at["3.3 V"], (6.2, at["3.3 V"][1])], "power", "3.3 V", 0)
    wire(ax, [at["SDA"], (6.2, at["SDA"][1])], "i2c", "SDA", 0)
    wire(ax, [at["SCL"], (6.2, at["SCL"][1])], "i2c", "SCL", 0)
    wire(ax, [at["GND"], (5.8, at["GND"][1]), (5.8, gnd_y), (6.2, gnd_y)], "gnd", "GND", 0)
    # the four displays, each on its own channel
    for side in SIDES:
        channel = seats[side].channel
        y = 9.0 - 0.95 * channel
        colour = DEFAULT_COLOURS[side]
        box(
            ax,
            11.6,
            y - 0.75,
            4.9,
            0.85,
            f"display {side} ({colour})",
            [
                f"SSD1306 or SH1106, 0x{TABLE.display_address:02X} ·"
                f" default /dev/i2c-{DEFAULT_I2C_PORTS[side]}"
            ],
            colour="#fdfefe",
            edge=INK[colour],
            size=10,
        )
        wire(
            ax,
            [(9.0, y - 0.2), (11.6, y - 0.2)],
            "i2c",
            f"channel {channel}: SD{channel}/SC{channel}",
            size=9,
        )
    ax.text(
        11.6,
        5.1,
        "each display: VCC to the Pi's 3.3 V, GND to GND;\nSDA/SCL to its channel's SDn/SCn",
        fontsize=9.5,
        va="top",
    )
    # the buttons: pin to GND through the switch, the Pi's own pull-up
    for side in SIDES:
        x0, y0 = at[side]
        colour = DEFAULT_COLOURS[side]
        xb = 7.0
        wire(ax, [(x0, y0), (xb, y0)], "gpio", f"button {side} ({colour})", 0)
        ax.plot([xb, xb + 0.25], [y0, y0 + 0.25], color="#222", lw=2)  # the switch's lever
        ax.plot([xb + 0.45, xb + 0.8], [y0, y0], color=WIRE["gnd"], lw=2.2)
        ax.text(xb + 0.85, y0, "GND", va="center", fontsize=9)
    ax.text(
        7.0, at["W"][1] - 0.45, "internal pull-ups: no resistors", fontsize=9, color="#555"
    )  # fmt: skip
    # the buzzer driver (its circuit: buzzer.png)
    bx, by = at["buzzer"]
    box(
        ax,
        9.6,
        by - 0.45,
        4.2,
        1.4,
        "buzzer driver (buzzer.png)",
        ["1 kΩ to an NPN's base; a passive piezo", "from 5 V to the collector, 1 kΩ across it"],
        size=10,
    )
    wire(ax, [(bx, by), (9.6, by)], "gpio", "buzzer (PWM)", 0)
    x5, y5 = at["5 V"]
    wire(ax, [(x5, y5), (11.7, y5), (11.7, by - 0.45)], "power", "5 V", 0)
    ax.text(
        0.5,
        0.45,
        "USB port: the reader hub's cable (power and serial, see wiring-hub.png)",
        fontsize=10,
    )
    legend(
        ax, 13.9, 3.1, [("i2c", "I2C"), ("power", "3.3 V / 5 V"), ("gnd", "GND"), ("gpio", "GPIO")]
    )
    return fig


# -- the reader hub ---------------------------------------------------------------------------
def gate(ax, x, y, size=0.32):
    """A buffer gate pointing left (output at x), its active-low OE bubble on top."""
    ax.add_patch(
        plt.Polygon(
            [(x, y), (x + 2 * size, y + size), (x + 2 * size, y - size)],
            closed=True, fc="#fef9e7", ec="#34495e", lw=1.4,
        )
    )  # fmt: skip
    ax.add_patch(plt.Circle((x + size, y + size * 0.62), 0.06, fc="white", ec="#34495e", lw=1.2))


def hub_figure() -> Figure:
    readers = HubConfig().readers
    fig, ax = figure(21, 13.6, bottom=-3.4)
    ax.text(0.4, 13.2, "Reader hub: Pico, MISO buffers, twelve readers", fontsize=17, weight="bold")
    subtitle(
        ax,
        0.4,
        12.75,
        "Pico header pins in brackets, drawn from docs/diagrams/wiring.toml; squares: the"
        " daemon's default [hub] readers. Wires that cross without a dot are not connected.",
    )
    box(ax, 0.5, -2.3, 3.6, 14.5, PICO.title, ["MicroPython firmware", "USB cable to the Pi"])
    reader_x, reader_w = 14.0, 4.0
    rails = {"SCK": 19.0, "MOSI": 19.35, "RST": 19.7, "3.3 V": 20.2, "GND": 20.6}
    edge = 4.1  # the Pico box's right edge: the pins' dots
    top = 11.9
    buses = [
        ("SCK", pin(PICO, HUB.sck, "SCK"), 10.8),
        ("MOSI", pin(PICO, HUB.mosi, "MOSI"), 10.45),
        ("RST", pin(PICO, HUB.reset, "RST"), 10.1),
    ]
    for i, (rail, label, y) in enumerate(buses):
        ax.text(edge - 0.1, y, label, ha="right", va="center", fontsize=9.5, weight="bold")
        high = top - 0.3 * i
        turn = 4.8 + 0.3 * i
        wire(
            ax,
            [(edge, y), (turn, y), (turn, high), (rails[rail], high), (rails[rail], 1.2)],
            "spi",
        )
        ax.text(16.0, high + 0.04, rail, va="bottom", fontsize=9, color=WIRE["spi"], weight="bold")
    miso_y = 9.75
    ax.text(
        edge - 0.1,
        miso_y,
        pin(PICO, HUB.miso, "MISO"),
        ha="right",
        va="center",
        fontsize=9.5,
        weight="bold",
    )
    bus_x = 8.6
    row = 0.72
    first = 9.0
    last = first - row * 11
    wire(ax, [(edge, miso_y), (bus_x, miso_y), (bus_x, last - 0.18)], "miso")
    ax.text(
        bus_x + 0.12,
        miso_y + 0.06,
        "shared MISO: every gate's Y, and 100 kΩ to GND",
        fontsize=9,
        color=WIRE["miso"],
        va="bottom",
    )
    gx = 10.0  # the gates' output tips
    for n, (square, link) in enumerate(zip(readers, HUB.readers)):
        g = WIRING.buffer.gates[link.gate - 1]
        y = first - row * n
        cs, miso = y + 0.14, y - 0.18
        ax.text(edge - 0.1, cs, pin(PICO, link.cs, f"CS{n}"), ha="right", va="center", fontsize=9.5)
        wire(ax, [(edge, cs), (reader_x, cs)], "cs")
        # the gate: OE from the chip-select, A from the reader's MISO, Y to the shared MISO
        gate(ax, gx, miso)
        ax.plot([gx + 0.32, gx + 0.32], [cs, miso + 0.26], color=WIRE["cs"], lw=1.6)
        ax.plot([gx + 0.32], [cs], "o", color=WIRE["cs"], ms=4)
        ax.plot([bus_x, gx], [miso, miso], color=WIRE["miso"], lw=2.2)
        ax.plot([bus_x], [miso], "o", color=WIRE["miso"], ms=4)
        ax.plot([gx + 0.64, reader_x], [miso, miso], color=WIRE["miso"], lw=2.2)
        ax.text(
            gx + 0.8,
            miso - 0.07,
            f"{link.chip} gate {link.gate}: OE {g.oe}, A {g.a}, Y {g.y}",
            fontsize=8,
            va="top",
            color="#444",
        )
        box(
            ax,
            reader_x,
            y - 0.33,
            reader_w,
            0.64,
            f"reader {n}: square {square}",
            (),
            colour="#eafaf1",
            size=9.5,
        )
        ax.text(reader_x + 0.08, cs, "SDA", fontsize=7.5, va="center", color=WIRE["cs"])
        ax.text(reader_x + 0.08, miso, "MISO", fontsize=7.5, va="center", color=WIRE["miso"])
        right = reader_x + reader_w
        ax.plot([right, rails["GND"]], [y, y], color="#95a5a6", lw=1.2, ls=(0, (2, 2)))
        for rail, x in rails.items():
            kind = (
                "spi" if rail in ("SCK", "MOSI", "RST") else "power" if rail == "3.3 V" else "gnd"
            )
            ax.plot([x], [y], "o", color=WIRE[kind], ms=5)
    chips = ", ".join(
        f"{chip} (readers {', '.join(str(i) for i, r in enumerate(HUB.readers) if r.chip == chip)})"
        for chip in sorted({r.chip for r in HUB.readers})
    )
    ax.text(
        4.6,
        last - 0.75,
        f"{chips}:\n{WIRING.buffer.part} quad buffers; each: pin {WIRING.buffer.vcc} to the"
        f" readers' 3.3 V, pin {WIRING.buffer.gnd} to GND, 100 nF across them.\n"
        "Each chip-select also has a 10 kΩ pull-up to the readers' 3.3 V (every reader"
        " deselected while the Pico boots).",
        fontsize=9,
        va="top",
        linespacing=1.5,
    )
    # power: VBUS -> regulator -> 3.3 V rail; one GND for the regulator and the rails
    vbus, gnd = -0.9, -1.95
    ground = PICO.grounds[-1]  # the one next to VBUS
    for y, label in ((vbus, pin(PICO, HUB.power_in, "5 V")), (gnd, f"GND [pin {ground}]")):
        ax.text(edge - 0.1, y, label, ha="right", va="center", fontsize=9.5, weight="bold")
    ax.text(
        0.6, -2.65, f"any Pico ground will do: {grounds(PICO)}", va="center", fontsize=9
    )  # fmt: skip
    box(
        ax,
        reader_x,
        -1.6,
        reader_w,
        1.35,
        "3.3 V regulator for the readers",
        ["LD1117V33 or LM1117T-3.3", "10 µF at its input, 100 µF at its output"],
        size=9,
    )
    box_bottom = (reader_x + reader_w / 2, -1.6)
    wire(ax, [(edge, vbus), (reader_x, vbus)], "power", "5 V from the Pi's USB", 0, dy=0.1)
    wire(
        ax, [(reader_x + reader_w, vbus), (rails["3.3 V"], vbus), (rails["3.3 V"], first)], "power"
    )
    ax.text(
        rails["3.3 V"] - 0.08,
        first + 0.4,
        "3.3 V",
        ha="right",
        fontsize=9,
        color=WIRE["power"],
        weight="bold",
        rotation=90,
    )
    wire(ax, [(edge, gnd), (rails["GND"], gnd), (rails["GND"], first)], "gnd")
    wire(ax, [box_bottom, (box_bottom[0], gnd)], "gnd")
    ax.text(
        rails["GND"] + 0.08, first + 0.4, "GND", ha="left", fontsize=9, weight="bold", rotation=90
    )
    ax.text(
        rails["GND"],
        -2.65,
        "dotted: each reader's SCK, MOSI, RST, 3.3V and GND to the rails; IRQ unconnected",
        fontsize=9,
        ha="right",
        va="center",
    )
    legend(ax, 9.0, -2.45, [("spi", "SCK, MOSI, RST"), ("miso", "MISO"), ("cs", "chip-select")])
    return fig


# -- the buzzer circuit and the transistor's legs ---------------------------------------------
def buzzer_figure() -> Figure:
    import schemdraw
    import schemdraw.elements as elm

    fig, ax = plt.subplots(figsize=(10.5, 6.2), dpi=130)
    ax.axis("off")
    ax.set_aspect("equal")

    def note(d, at, text, halign):
        d += elm.Label().at(at).label(text, halign=halign, valign="center")

    buzzer_pin = pin(PI, TABLE.buzzer)
    with schemdraw.Drawing(show=False) as d:
        d.config(unit=2.5, fontsize=13)
        d += elm.Vdd().label(pin(PI, "5 V"))
        d += elm.Line().down().length(0.6)
        d += elm.Dot()
        top = d.here
        d += elm.Line().left().length(1.5)
        d += elm.Crystal().down()
        d += elm.Line().right().length(1.5)
        d += elm.Dot()
        bottom = d.here
        d += elm.Line().at(top).right().length(1.5)
        d += elm.Resistor().down()
        d += elm.Line().left().length(1.5)
        note(d, (top[0] - 2.0, top[1] - 1.25), "passive piezo buzzer", "right")
        note(d, (top[0] + 2.6, top[1] - 1.25), "1 kΩ across the piezo", "left")
        d += elm.Line().at(bottom).down().length(1.0)
        q = elm.BjtNpn(circle=True).right().anchor("collector")
        d += q
        note(d, (q.collector[0] + 0.9, q.collector[1] - 1.5), "NPN: BC337 or 2N2222", "left")
        d += elm.Ground().at(q.emitter)
        d += elm.Resistor().at(q.base).left().label("1 kΩ")
        d += elm.Dot().label(buzzer_pin, "left")
        note(
            d,
            (q.emitter[0] - 7.5, q.emitter[1] - 1.6),
            "a magnetic buzzer instead: a diode (1N4148) across it, cathode to 5 V",
            "left",
        )
    d.draw(show=False, canvas=ax)
    # the legs: TO-92 seen from its flat face, legs down
    x0, y0 = top[0] + 8.5, q.collector[1] + 1.0
    for k, (part, legs) in enumerate((("BC337", "CBE"), ("2N2222A (TO-92)", "EBC"))):
        x = x0 + k * 3.4
        ax.add_patch(Rectangle((x, y0), 2.0, 1.6, fc="#eeeeee", ec="#222", lw=1.5))
        ax.text(x + 1.0, y0 + 0.8, "flat\nface", ha="center", va="center", fontsize=10)
        ax.text(x + 1.0, y0 + 2.0, part, ha="center", va="bottom", fontsize=11, weight="bold")
        for i, leg in enumerate(legs):
            lx = x + 0.4 + 0.6 * i
            ax.plot([lx, lx], [y0, y0 - 1.4], color="#222", lw=2.2)
            ax.text(lx, y0 - 1.55, leg, ha="center", va="top", fontsize=12, weight="bold")
    ax.text(
        x0,
        y0 - 2.5,
        "The legs differ: check yours.\nC to the piezo, B to the 1 kΩ,\nE to GND.",
        fontsize=10.5,
        va="top",
    )
    ax.relim()
    ax.autoscale_view()
    xmin, xmax = ax.get_xlim()
    ax.set_xlim(xmin, max(xmax, x0 + 6.0))
    return fig


# -- the board map ----------------------------------------------------------------------------
def board_figure() -> Figure:
    readers = HubConfig().readers
    fig, ax = figure(10, 10)
    ax.text(
        5,
        9.75,
        "The board seen from above: squares, seats and readers",
        ha="center",
        fontsize=15,
        weight="bold",
    )
    side_at = {"N": (5, 8.95, 0), "S": (5, 1.05, 0), "E": (9.15, 5, 270), "W": (0.85, 5, 90)}
    for side, (x, y, rot) in side_at.items():
        colour = DEFAULT_COLOURS[side]
        ax.text(
            x,
            y,
            f"seat {side}: {colour}\n(display {side}, button {side})",
            ha="center",
            va="center",
            rotation=rot,
            fontsize=12,
            color=INK[colour],
            weight="bold",
        )
    cell = 1.6
    x0, y0 = 5 - 2 * cell, 5 + 2 * cell
    for square, (row, col) in GRID.items():
        x, y = x0 + col * cell, y0 - (row + 1) * cell
        owner = None if square in ("NW", "NE", "SW", "SE") else square[0]
        colour = INK[DEFAULT_COLOURS[owner]] if owner else "#7f8c8d"
        ax.add_patch(
            FancyBboxPatch(
                (x + 0.08, y + 0.08),
                cell - 0.16,
                cell - 0.16,
                boxstyle="round,pad=0,rounding_size=0.15",
                fc="#fdfefe",
                ec=colour,
                lw=3,
            )
        )
        ax.text(
            x + cell / 2,
            y + cell * 0.66,
            square,
            ha="center",
            va="center",
            fontsize=18,
            weight="bold",
            color=colour,
        )
        reader = readers.index(square)
        cs = HUB.readers[reader].cs
        ax.text(
            x + cell / 2,
            y + cell * 0.3,
            f"reader {reader}\nCS {cs} [pin {PICO.number(cs)}]",
            ha="center",
            va="center",
            fontsize=8.5,
        )
    ax.text(
        5,
        0.25,
        "Side squares are numbered clockwise seen from above. Turn the board so that each\n"
        "seat's bonus squares face it; colours are the config's [seats] defaults.",
        ha="center",
        fontsize=9.5,
    )
    return fig


# -- the hub's stripboard ------------------------------------------------------------------------
LINK = {"CS": WIRE["cs"], "SDA": WIRE["cs"], "MISO": "#7b241c", "GND": WIRE["gnd"]}
READER_MISO = "#f1948a"  # a reader's own MISO, before its buffer gate
LINK.update({"3V3": "#e74c3c", "VBUS": "#e67e22", "GP": WIRE["spi"]})


def link_colour(net: str) -> str:
    if net.startswith("GP"):  # a chip-select (GP2..GP13) or a bus pin (GP16, GP18-GP20)
        return WIRE["cs"] if net in {r.cs for r in HUB.readers} else WIRE["spi"]
    if net.startswith("MISO") and net != "MISO":
        return READER_MISO
    return next(colour for prefix, colour in LINK.items() if net.startswith(prefix))


def hub_board_figure() -> Figure:
    squares = HubConfig().readers
    fig, ax = plt.subplots(figsize=(19, 13.6), dpi=DPI)
    ax.set_xlim(-4.5, WIDTH + 9)
    ax.set_ylim(HEIGHT + 7.5, -5.2)
    ax.set_aspect("equal")
    ax.axis("off")
    ax.text(-4.3, -4.4, "Reader hub on a stripboard (parts' side)", fontsize=17, weight="bold")
    subtitle(
        ax,
        -4.3,
        -3.3,
        "100 x 160 mm stripboard, strips running left to right; holes named by row letter and"
        " column number (G21); drawn from docs/diagrams/stripboard.py, whose connections the"
        " tests check against wiring.toml",
    )
    ax.add_patch(
        Rectangle((-0.6, -0.6), WIDTH + 0.2, HEIGHT + 0.2, fc="#fbf3e4", ec="#8d6e63", lw=1.2)
    )
    for run in strips(BOARD):
        (c0, row), (c1, _) = run[0], run[-1]
        ax.add_patch(Rectangle((c0 - 0.42, row - 0.3), c1 - c0 + 0.84, 0.6, fc="#e7c49a", lw=0))
    cols, rows = zip(*((c, r) for r in range(HEIGHT) for c in range(WIDTH)), strict=True)
    ax.scatter(cols, rows, s=2.5, c="#6d4c41", zorder=2)
    cut_cols, cut_rows = zip(*BOARD.cuts, strict=True)
    ax.scatter(cut_cols, cut_rows, s=34, marker="x", c="#c0392b", linewidths=1.6, zorder=3)
    for r in range(HEIGHT):
        ax.text(-1.2, r, hole_name((0, r))[:-1], ha="right", va="center", fontsize=7, color="#555")
    for c in range(0, WIDTH, 5):
        ax.text(c, -1.7, str(c + 1), ha="center", va="bottom", fontsize=7, color="#555")
    # the parts
    pico = BOARD.part("PICO")
    c0, r0, c1, r1 = pico.body
    ax.add_patch(
        Rectangle((c0, r0), c1 - c0, r1 - r0, fc="#d5f5e3", ec="#1e8449", lw=1.6, zorder=4)
    )
    ax.text((c0 + c1) / 2, r0 + 0.9, "Pico\n(USB up,\noff the edge)", ha="center", va="top",
            fontsize=9, weight="bold", zorder=6)  # fmt: skip
    for number, (col, row) in pico.pins:
        ax.add_patch(
            Rectangle((col - 0.3, row - 0.3), 0.6, 0.6, fc="#f4d03f", ec="#7d6608", zorder=5)
        )
        name = PICO.pin(int(number)).name
        used = (
            name in {r.cs for r in HUB.readers}
            or name == "GND"
            or name in (HUB.sck, HUB.mosi, HUB.miso, HUB.reset, HUB.power_in)
        )
        if not used:
            continue
        label = f"{name} [pin {number}]"
        if col == min(c for _, (c, _) in pico.pins):
            ax.text(col - 1.0, row, label, ha="right", va="center", fontsize=6.5, zorder=6,
                    bbox={"fc": "#fbf3e4", "ec": "none", "pad": 0.4})  # fmt: skip
        else:
            ax.text(WIDTH + 0.2, row, label, ha="left", va="center", fontsize=6.5)
    for part in BOARD.parts:
        if part.ref.startswith("U"):
            c0, r0, c1, r1 = part.body
            ax.add_patch(
                Rectangle((c0, r0), c1 - c0, r1 - r0, fc="#34495e", ec="#17202a", zorder=4)
            )
            ax.text((c0 + c1) / 2, (r0 + r1) / 2, f"{part.ref}\n125", ha="center", va="center",
                    color="white", fontsize=8, weight="bold", zorder=6)  # fmt: skip
            pin1 = part.hole("1")
            ax.add_patch(plt.Circle((pin1[0] + 0.45, pin1[1]), 0.16, fc="white", zorder=6))
        elif part.ref.startswith("J"):
            n = int(part.ref[1:]) - 1
            col = reader_column(n)
            top = READER_ROWS["SDA"]
            ax.add_patch(Rectangle((col - 0.42, top - 0.45), 0.84, 7.9, fc="#212f3d", zorder=4))
            ax.text(col, HEIGHT + 0.2, f"J{n + 1}\n{squares[n]}", ha="center", va="top",
                    fontsize=8, weight="bold")  # fmt: skip
        elif part.ref == "REG":
            c0, r0, c1, r1 = part.body
            ax.add_patch(
                Rectangle((c0, r0), c1 - c0, r1 - r0, fc="#566573", ec="#17202a", zorder=4)
            )
            ax.text(
                (c0 + c1) / 2, r0 - 0.2, "REG", ha="center", va="bottom", fontsize=7, weight="bold"
            )
            legs = [hole for _, hole in part.pins]
            ax.plot(*zip(*legs, strict=True), "o", color="#d5d8dc", ms=3, zorder=5)
        elif part.ref[0] in "RC":
            (ca, ra), (cb, rb) = part.hole("1"), part.hole("2")
            colour = "#f5cba7" if part.ref.startswith("R") else "#aed6f1"
            colour = "#e59866" if part.ref == "R13" else colour
            if part.kind.endswith("µF"):
                colour = "#5dade2"
            ax.add_patch(Rectangle((min(ca, cb) - 0.28, min(ra, rb) + 0.18), 0.56,
                                   abs(rb - ra) - 0.36, fc=colour, ec="#555", lw=0.8, zorder=4))  # fmt: skip
            ax.plot([ca, cb], [ra, rb], "o", color="#555", ms=2.5, zorder=5)
            if part.ref in ("C1", "C2", "R13"):
                ax.text(max(ca, cb) + 0.15, max(ra, rb) + 0.75, part.ref, fontsize=6.5, va="center")
    # the reader header rows' names on the left, the buses' on the right
    for name, row in READER_ROWS.items():
        ax.text(-2.8, row, name, ha="right", va="center", fontsize=7, color="#555")
        if name in READER_BUSES:
            ax.text(WIDTH + 0.2, row, f"{name}: all twelve readers", va="center", fontsize=7.5)
    for row, text in ((17, "GND"), (18, "3.3 V"), (27, "GND"), (28, "MISO")):
        ax.text(-2.8, row, text, ha="right", va="center", fontsize=7, color="#555")
    # the links
    for link in BOARD.links:
        (ca, ra), (cb, rb) = link.start, link.end
        ax.plot([ca, cb], [ra, rb], color=link_colour(link.net), lw=1.5, zorder=7,
                solid_capstyle="round")  # fmt: skip
        ax.plot([ca, cb], [ra, rb], "o", color=link_colour(link.net), ms=3, zorder=8)
    notes = [
        f"U1-U3: {WIRING.buffer.part} in sockets, the notch up (white dot: pin 1). REG: LD1117V33"
        " or LM1117T-3.3 standing, printed face to the right (legs: in, out, gnd from the top)."
        " J1-J12: 8-pin male headers, pin 1 (SDA) at the top.",
        "tan: R1-R12 10 kΩ (reader n's pull-up is R(n+1)); orange: R13 100 kΩ; light blue: C3-C5"
        " 100 nF; blue: C1 10 µF (REG's input), C2 100 µF (its output; minus leads to GND).",
        "x: cut the strip at that hole (from the copper side, a 3.5 mm drill turned by hand)."
        " Lines: insulated wire links on the parts' side:",
        "purple a chip-select, pink a reader's MISO to its gate, dark red the shared MISO,"
        " black GND, orange 5 V, red 3.3 V, teal SCK, MOSI and RST.",
    ]
    for i, note in enumerate(notes):
        ax.text(-4.3, HEIGHT + 2.8 + 1.1 * i, note, fontsize=9, va="center")
    return fig


#: each picture: its file, the header its pin labels name, and how it is drawn
PICTURES: dict[str, tuple[Header, Callable[[], Figure]]] = {
    "wiring-pi": (PI, pi_figure),
    "wiring-hub": (PICO, hub_figure),
    "buzzer": (PI, buzzer_figure),
    "board-map": (PICO, board_figure),
    "hub-board": (PICO, hub_board_figure),
}


def _rounded(values: Iterable[float]) -> str:
    return ",".join(f"{v:.2f}" for v in values)


def digest(fig: Figure) -> str:
    """What a picture shows, as a hash of its texts and lines in data coordinates: the same
    on every machine (unlike the PNG's pixels), so a test can tell a picture in docs/diagrams
    that was not drawn again after the wiring changed."""
    parts = []
    for ax in fig.axes:
        for text in ax.texts:
            parts.append(f"T{text.get_text()}@{_rounded(text.get_position())}")
        for line in ax.lines:
            if isinstance(line, Line2D):
                xs, ys = line.get_data()
                parts.append(f"L{_rounded(xs)}|{_rounded(ys)}")
    return hashlib.sha256("\n".join(sorted(parts)).encode()).hexdigest()[:16]


def save(fig: Figure, path: Path) -> None:
    fig.savefig(path, bbox_inches="tight", metadata={"Description": f"drawing {digest(fig)}"})
    plt.close(fig)


def main(folder: str) -> None:
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    for name, (_header, draw) in PICTURES.items():
        save(draw(), out / f"{name}.png")
        print(out / f"{name}.png")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else str(HERE))
