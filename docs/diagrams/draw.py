"""Draws the pictures of docs/hardware.md from the project's own pin tables, so a picture
can never disagree with the software: the Pi's pins from companion/config.py's defaults, the
hub's from hardware/firmware/config.py, the squares from engine's board geometry.

    make diagrams        (or: python docs/diagrams/draw.py docs/diagrams)

Writes wiring-pi.png, wiring-hub.png, buzzer.png and board-map.png. Needs the `diagrams`
extra (matplotlib, schemdraw); nothing else in the project imports this file.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.patches import FancyBboxPatch  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))

from companion.config import (  # noqa: E402
    DEFAULT_BUTTON_PINS,
    DEFAULT_BUZZER_PIN,
    DEFAULT_COLOURS,
    DEFAULT_I2C_PORTS,
    HubConfig,
)
from companion.selftest import CHANNEL_OF  # noqa: E402
from engine import SIDES  # noqa: E402
from engine.geometry import GRID  # noqa: E402


def _firmware_config():
    """hardware/firmware/config.py as a module (MicroPython code, but plain assignments)."""
    path = REPO / "hardware/firmware/config.py"
    spec = importlib.util.spec_from_file_location("hub_config", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


HUB = _firmware_config()
#: The Raspberry Pi's 40-pin header: BCM GPIO -> physical pin (the same on every model).
PI_PIN = {2: 3, 3: 5, 4: 7, 5: 29, 6: 31, 13: 33, 17: 11, 18: 12, 19: 35, 26: 37, 27: 13}
PI_PIN.update({12: 32, 16: 36, 20: 38, 21: 40, 22: 15, 23: 16, 24: 18, 25: 22})
#: The Pico's header: GPn -> physical pin.
PICO_PIN = {n: n + 1 + n // 4 for n in range(0, 16)}
PICO_PIN.update({16: 21, 17: 22, 18: 24, 19: 25, 20: 26, 21: 27, 22: 29, 26: 31, 27: 32, 28: 34})
#: A 74LVC125's pins for gate g (1..4): OE, A, Y.
GATE_PINS = {1: (1, 2, 3), 2: (4, 5, 6), 3: (10, 9, 8), 4: (13, 12, 11)}
INK = {"red": "#c0392b", "purple": "#7d3c98", "yellow": "#b7950b", "green": "#1e8449"}
WIRE = {"i2c": "#1f618d", "power": "#c0392b", "gnd": "#222222", "gpio": "#d35400"}
WIRE.update({"spi": "#117a65", "cs": "#6c3483", "miso": "#b03a2e"})


def box(ax, x, y, w, h, title, lines=(), colour="#f4f6f7", edge="#34495e", size=11):
    ax.add_patch(
        FancyBboxPatch(
            (x, y), w, h, boxstyle="round,pad=0.02,rounding_size=0.12", fc=colour, ec=edge, lw=1.6
        )
    )
    ax.text(x + w / 2, y + h - 0.22, title, ha="center", va="top", fontsize=size + 1, weight="bold")
    for i, line in enumerate(lines):
        ax.text(x + w / 2, y + h - 0.62 - 0.36 * i, line, ha="center", va="top", fontsize=size - 1)


def wire(ax, points, kind, label=None, at=0, size=9, dy=0.08, ha="left"):
    xs, ys = zip(*points, strict=True)
    ax.plot(xs, ys, color=WIRE[kind], lw=2.2, solid_capstyle="round")
    ax.plot([xs[0], xs[-1]], [ys[0], ys[-1]], "o", color=WIRE[kind], ms=4)
    if label:
        x, y = points[at]
        ax.text(x + 0.08, y + dy, label, fontsize=size, color=WIRE[kind], ha=ha, va="bottom")


def figure(width, height):
    fig, ax = plt.subplots(figsize=(width, height), dpi=110)
    ax.set_xlim(0, width)
    ax.set_ylim(0, height)
    ax.set_aspect("equal")
    ax.axis("off")
    return fig, ax


def legend(ax, x, y, kinds):
    for i, (kind, text) in enumerate(kinds):
        ax.plot([x, x + 0.5], [y - 0.35 * i] * 2, color=WIRE[kind], lw=3)
        ax.text(x + 0.65, y - 0.35 * i, text, va="center", fontsize=10)


def draw_pi(path: Path) -> None:
    fig, ax = figure(17, 11)
    ax.text(0.4, 10.6, "Raspberry Pi side: displays, buttons, buzzer", fontsize=17, weight="bold")
    ax.text(
        0.4,
        10.15,
        "pins from companion/config.py defaults (BCM GPIO numbers; physical header pins in"
        " brackets); drawn by docs/diagrams/draw.py",
        fontsize=10,
        color="#555",
    )
    # the Pi, its used pins down the right edge
    pins = [
        ("3.3 V", 1, "power"),
        ("GPIO2 SDA1", 3, "i2c"),
        ("GPIO3 SCL1", 5, "i2c"),
        ("GND", 6, "gnd"),
        *((f"GPIO{DEFAULT_BUTTON_PINS[s]}", PI_PIN[DEFAULT_BUTTON_PINS[s]], "gpio") for s in SIDES),
        (f"GPIO{DEFAULT_BUZZER_PIN}", PI_PIN[DEFAULT_BUZZER_PIN], "gpio"),
        ("5 V", 2, "power"),
    ]
    top = 9.2
    box(ax, 0.5, 0.9, 3.3, top - 0.4, "Raspberry Pi", ["40-pin header", "(any model)"])
    at = {}
    for i, (name, pin, _kind) in enumerate(pins):
        y = top - 1.6 - 0.72 * i
        at[name] = (3.8, y)
        ax.text(3.7, y, f"{name} [{pin}]", ha="right", va="center", fontsize=10, weight="bold")
    # the multiplexer
    box(ax, 6.2, 5.6, 2.8, 4.2, "PCA9548A", ["I2C multiplexer", "address 0x70", "A0 A1 A2 to GND"])
    gnd_y = 5.9
    for name, y in (
        ("VIN", at["3.3 V"][1]),
        ("SDA", at["GPIO2 SDA1"][1]),
        ("SCL", at["GPIO3 SCL1"][1]),
        ("GND", gnd_y),
    ):
        ax.text(6.3, y, name, va="center", fontsize=9)
    wire(ax, [at["3.3 V"], (6.2, at["3.3 V"][1])], "power", "3.3 V", 0)
    wire(ax, [at["GPIO2 SDA1"], (6.2, at["GPIO2 SDA1"][1])], "i2c", "SDA", 0)
    wire(ax, [at["GPIO3 SCL1"], (6.2, at["GPIO3 SCL1"][1])], "i2c", "SCL", 0)
    wire(ax, [at["GND"], (5.8, at["GND"][1]), (5.8, gnd_y), (6.2, gnd_y)], "gnd", "GND", 0)
    # the four displays on channels 0..3
    for side in SIDES:
        channel = CHANNEL_OF[side]
        y = 9.0 - 0.95 * channel
        colour = DEFAULT_COLOURS[side]
        box(
            ax,
            11.6,
            y - 0.75,
            4.9,
            0.85,
            f"display {side} ({colour})",
            [f"SSD1306 128x64, 0x3C · default /dev/i2c-{DEFAULT_I2C_PORTS[side]}"],
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
        "each display: VCC to 3.3 V [pin 1], GND to GND;\nSDA/SCL to its channel's SDn/SCn",
        fontsize=9.5,
        va="top",
    )
    # the buttons: pin to GND through the switch, the Pi's own pull-up
    for side in SIDES:
        name = f"GPIO{DEFAULT_BUTTON_PINS[side]}"
        x0, y0 = at[name]
        colour = DEFAULT_COLOURS[side]
        xb = 7.0
        wire(ax, [(x0, y0), (xb, y0)], "gpio", f"button {side} ({colour})", 0)
        ax.plot([xb, xb + 0.25], [y0, y0 + 0.25], color="#222", lw=2)  # the switch's lever
        ax.plot([xb + 0.45, xb + 0.8], [y0, y0], color=WIRE["gnd"], lw=2.2)
        ax.text(xb + 0.85, y0, "GND", va="center", fontsize=9)
    ax.text(
        7.0,
        at[f"GPIO{DEFAULT_BUTTON_PINS['W']}"][1] - 0.45,
        "internal pull-ups: no resistors",
        fontsize=9,
        color="#555",
    )
    # the buzzer driver (its circuit: buzzer.png)
    bx, by = at[f"GPIO{DEFAULT_BUZZER_PIN}"]
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
    wire(ax, [(bx, by), (9.6, by)], "gpio", f"GPIO{DEFAULT_BUZZER_PIN} (PWM)", 0)
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
    fig.savefig(path, bbox_inches="tight")
    plt.close(fig)


def gate(ax, x, y, size=0.32):
    """A buffer gate pointing left (output at x), its active-low OE bubble on top."""
    ax.add_patch(
        plt.Polygon(
            [(x, y), (x + 2 * size, y + size), (x + 2 * size, y - size)],
            closed=True, fc="#fef9e7", ec="#34495e", lw=1.4,
        )
    )  # fmt: skip
    ax.add_patch(plt.Circle((x + size, y + size * 0.62), 0.06, fc="white", ec="#34495e", lw=1.2))


def draw_hub(path: Path) -> None:
    readers = HubConfig().readers
    fig, ax = figure(19, 13.6)
    ax.text(0.4, 13.2, "Reader hub: Pico, MISO buffers, twelve readers", fontsize=17, weight="bold")
    ax.text(
        0.4,
        12.75,
        "pins from hardware/firmware/config.py, squares from the daemon's default [hub] readers;"
        " Pico header pins in brackets",
        fontsize=10,
        color="#555",
    )
    ax.set_ylim(-2.6, 13.6)
    box(
        ax,
        0.5,
        -0.7,
        3.0,
        12.9,
        "Raspberry Pi Pico",
        ["MicroPython firmware", "USB cable to the Pi"],
    )
    rails = {"SCK": 17.3, "MOSI": 17.7, "RST": 18.1, "3.3 V": 18.5, "GND": 18.9}
    top = 11.9
    buses = [
        ("SCK", f"GP{HUB.SPI_SCK} SCK", HUB.SPI_SCK, 10.8),
        ("MOSI", f"GP{HUB.SPI_MOSI} MOSI", HUB.SPI_MOSI, 10.45),
        ("RST", f"GP{HUB.RESET_PIN} RST", HUB.RESET_PIN, 10.1),
    ]
    for i, (rail, name, gp, y) in enumerate(buses):
        ax.text(
            3.4, y, f"{name} [{PICO_PIN[gp]}]", ha="right", va="center", fontsize=9.5, weight="bold"
        )
        high = top - 0.3 * i
        wire(
            ax,
            [
                (3.5, y),
                (4.2 + 0.3 * i, y),
                (4.2 + 0.3 * i, high),
                (rails[rail], high),
                (rails[rail], 1.2),
            ],
            "spi",
        )
        ax.text(
            rails[rail],
            high + 0.08,
            rail,
            ha="center",
            va="bottom",
            fontsize=9,
            color=WIRE["spi"],
            weight="bold",
        )
    miso_y = 9.75
    ax.text(
        3.4,
        miso_y,
        f"GP{HUB.SPI_MISO} MISO [{PICO_PIN[HUB.SPI_MISO]}]",
        ha="right",
        va="center",
        fontsize=9.5,
        weight="bold",
    )
    bus_x = 8.0
    row = 0.72
    first = 9.0
    last = first - row * 11
    wire(
        ax,
        [(3.5, miso_y), (bus_x, miso_y), (bus_x, last - 0.18)],
        "miso",
        "shared MISO: every gate's Y, and 100 kΩ to GND",
        1,
        dy=0.05,
    )
    for n, square in enumerate(readers):
        chip, g = divmod(n, 4)
        oe, a, y_pin = GATE_PINS[g + 1]
        gp = HUB.CS_PINS[n]
        y = first - row * n
        cs, miso = y + 0.14, y - 0.18
        ax.text(3.4, cs, f"GP{gp} CS{n} [{PICO_PIN[gp]}]", ha="right", va="center", fontsize=9.5)
        wire(ax, [(3.5, cs), (12.0, cs)], "cs")
        # the gate: OE from the chip-select, A from the reader's MISO, Y to the shared MISO
        gx = 9.2
        gate(ax, gx, miso)
        ax.plot([gx + 0.32, gx + 0.32], [cs, miso + 0.26], color=WIRE["cs"], lw=1.6)
        ax.plot([gx + 0.32], [cs], "o", color=WIRE["cs"], ms=4)
        ax.plot([bus_x, gx], [miso, miso], color=WIRE["miso"], lw=2.2)
        ax.plot([bus_x], [miso], "o", color=WIRE["miso"], ms=4)
        ax.plot([gx + 0.64, 12.0], [miso, miso], color=WIRE["miso"], lw=2.2)
        ax.text(
            gx + 0.9,
            miso - 0.05,
            f"U{chip + 1} gate {g + 1}: OE {oe}, A {a}, Y {y_pin}",
            fontsize=8,
            va="top",
            color="#444",
        )
        # the reader, its shared pins to the rails
        box(
            ax,
            12.0,
            y - 0.33,
            4.6,
            0.64,
            f"reader {n}: square {square}",
            (),
            colour="#eafaf1",
            size=9.5,
        )
        ax.text(12.08, cs, "SDA", fontsize=7.5, va="center", color=WIRE["cs"])
        ax.text(12.08, miso, "MISO", fontsize=7.5, va="center", color=WIRE["miso"])
        ax.plot([16.6, rails["GND"]], [y, y], color="#95a5a6", lw=1.2, ls=(0, (2, 2)))
        for rail, x in rails.items():
            kind = (
                "spi" if rail in ("SCK", "MOSI", "RST") else "power" if rail == "3.3 V" else "gnd"
            )
            ax.plot([x], [y], "o", color=WIRE[kind], ms=5)
    ax.text(
        4.0,
        last - 0.75,
        "U1 (readers 0-3), U2 (4-7), U3 (8-11): 74LVC125A quad buffers; each: pin 14 to 3.3 V,"
        " pin 7 to GND, 100 nF across them\n"
        "each chip-select also has a 10 kΩ pull-up to 3.3 V (every reader deselected while the"
        " Pico boots)",
        fontsize=9,
        va="top",
    )
    # power: VBUS -> regulator -> 3.3 V rail; GND rail
    vbus, gnd = -0.6, -1.0
    ax.text(3.4, vbus, "VBUS 5 V [40]", ha="right", va="center", fontsize=9.5, weight="bold")
    ax.text(3.4, gnd, "GND [3, 8, 13, ...]", ha="right", va="center", fontsize=9.5, weight="bold")
    box(
        ax,
        12.0,
        -1.2,
        4.6,
        1.05,
        "3.3 V regulator for the readers",
        ["800 mA or more (AMS1117-3.3); 100 µF + 10 µF"],
        size=9,
    )
    wire(ax, [(3.5, vbus), (12.0, vbus)], "power", "5 V from the Pi's USB", 0)
    wire(ax, [(16.6, vbus), (rails["3.3 V"], vbus), (rails["3.3 V"], first)], "power")
    ax.text(
        rails["3.3 V"],
        first + 0.45,
        "3.3 V",
        ha="center",
        fontsize=9,
        color=WIRE["power"],
        weight="bold",
        rotation=90,
    )
    wire(
        ax,
        [(3.5, gnd), (11.0, gnd), (11.0, -1.5), (rails["GND"], -1.5), (rails["GND"], first)],
        "gnd",
    )
    ax.text(rails["GND"], first + 0.45, "GND", ha="center", fontsize=9, weight="bold", rotation=90)
    ax.text(
        14.3,
        -2.0,
        "dotted: each reader's SCK, MOSI, RST, 3.3V and GND to the rails; IRQ unconnected",
        fontsize=9,
        ha="center",
    )
    legend(ax, 0.6, -1.5, [("spi", "SCK, MOSI, RST"), ("miso", "MISO"), ("cs", "chip-select")])
    fig.savefig(path, bbox_inches="tight")
    plt.close(fig)


def draw_buzzer(path: Path) -> None:
    import schemdraw
    import schemdraw.elements as elm

    def note(d, at, text, halign):
        d += elm.Label().at(at).label(text, halign=halign, valign="center")

    with schemdraw.Drawing(show=False) as d:
        d.config(unit=2.5, fontsize=13)
        d += elm.Vdd().label("5 V [pin 2]")
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
        note(d, (top[0] - 1.9, top[1] - 1.25), "passive piezo buzzer", "right")
        note(d, (top[0] + 1.9, top[1] - 1.25), "1 kΩ across the piezo", "left")
        d += elm.Line().at(bottom).down().length(1.0)
        q = elm.BjtNpn(circle=True).right().anchor("collector")
        d += q
        note(d, (q.collector[0] + 0.4, q.collector[1] - 1.5), "NPN: BC337 or 2N2222", "left")
        d += elm.Ground().at(q.emitter)
        d += elm.Resistor().at(q.base).left().label("1 kΩ")
        d += elm.Dot().label(f"GPIO{DEFAULT_BUZZER_PIN} [pin {PI_PIN[DEFAULT_BUZZER_PIN]}]", "left")
        note(
            d,
            (q.emitter[0] - 7.5, q.emitter[1] - 1.6),
            "a magnetic buzzer instead: a diode (1N4148) across it, cathode to 5 V",
            "left",
        )
        d.save(str(path), dpi=130)


def draw_board(path: Path) -> None:
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
            y + cell * 0.62,
            square,
            ha="center",
            va="center",
            fontsize=18,
            weight="bold",
            color=colour,
        )
        reader = readers.index(square)
        ax.text(
            x + cell / 2,
            y + cell * 0.28,
            f"reader {reader}\nCS GP{HUB.CS_PINS[reader]}",
            ha="center",
            va="center",
            fontsize=9,
        )
    ax.text(
        5,
        0.25,
        "Side squares are numbered clockwise seen from above. Turn the board so that each\n"
        "seat's bonus squares face it; colours are the config's [seats] defaults.",
        ha="center",
        fontsize=9.5,
    )
    fig.savefig(path, bbox_inches="tight")
    plt.close(fig)


def main(folder: str) -> None:
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    draw_pi(out / "wiring-pi.png")
    draw_hub(out / "wiring-hub.png")
    draw_buzzer(out / "buzzer.png")
    draw_board(out / "board-map.png")
    for name in ("wiring-pi", "wiring-hub", "buzzer", "board-map"):
        print(out / f"{name}.png")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else str(Path(__file__).parent))
