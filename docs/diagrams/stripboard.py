"""The reader hub on a stripboard: where every part, cut and wire link goes, as data, and
the connections that follow from it (the copper strips between cuts, the links, the parts'
pins), so that tests/docs can check them against the wiring (docs/diagrams/wiring.toml)
and draw.py can draw hub-board.png from the same holes.

The board is seen from the parts' side, copper strips running left to right. A hole is
(column, row), both from 0 at the top left; in the picture and the pages a hole is written
as its row letter and column number, "T12" (rows A..Z then AA..AM, columns 1..63).

    python3 docs/diagrams/stripboard.py      (prints the parts, cuts and links as a checklist)

The layout, top to bottom:
- rows A-T (0-19): the Pico, USB socket off the top edge. Its left pins' strips run across
  the board: the twelve chip-selects and four GNDs; its right pins' strips are short.
- rows S-T also carry the readers' 3.3 V (S, from the regulator) and the 5 V (T, from the
  Pico's VBUS), cut off from the Pico's unused GP14/GP15.
- rows U-AA (20-26): the three 74LVC125A, each in its own strip section.
- rows AB-AC (27-28): GND and the shared MISO.
- rows AF-AM (31-38): the twelve readers' 8-pin headers, pin 1 (SDA) at the top, so that
  the strips SCK, MOSI, GND, RST and 3.3 V join all twelve by themselves; the SDA, MISO and
  IRQ strips are cut between the readers.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from wiring import WIRING

WIDTH, HEIGHT = 63, 39  # a 100 x 160 mm stripboard: 39 strips of 63 holes
Hole = tuple[int, int]  # (column, row)

# -- the rows -----------------------------------------------------------------------------------
PICO_TOP = 0  # the Pico's pin 1 row
PICO_LEFT = 53  # the column of the Pico's pins 1-20; pins 21-40 are 7 columns right
VOUT_ROW = 18  # the 3.3 V row above the chips, left of the Pico
CHIP_TOP = 20
GND_ROW, MISO_ROW = 27, 28
READER_TOP = 31  # the readers' header rows: SDA SCK MOSI MISO IRQ GND RST 3.3V
READER_ROWS = {name: READER_TOP + i for i, name in enumerate(WIRING.reader_pins)}
#: the reader strips shared by all twelve
READER_BUSES = ("SCK", "MOSI", "GND", "RST", "3.3V")


def reader_column(n: int) -> int:
    """Reader n's header column (pin 1 at READER_TOP)."""
    return 1 + 4 * n


def chip_left(j: int) -> int:
    """The column of chip j's pins 1-7 (pins 14-8 three columns right)."""
    return 16 * j + 6


def hole_name(hole: Hole) -> str:
    """ "T12": the row's letter(s), the column from 1."""
    col, row = hole
    letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    name = letters[row] if row < 26 else "A" + letters[row - 26]
    return f"{name}{col + 1}"


@dataclass(frozen=True)
class Part:
    """A part on the board: its reference, what it is, and its pins' holes by pin name.
    `body` is the rectangle (col0, row0, col1, row1) it covers, where nothing else may go."""

    ref: str
    kind: str
    pins: tuple[tuple[str, Hole], ...]
    body: tuple[float, float, float, float]

    def hole(self, pin: str) -> Hole:
        return dict(self.pins)[pin]


@dataclass(frozen=True)
class Link:
    """A wire link on the parts' side, from hole to hole; `net` is what it carries."""

    start: Hole
    end: Hole
    net: str


@dataclass(frozen=True)
class Layout:
    parts: tuple[Part, ...]
    cuts: tuple[Hole, ...]
    links: tuple[Link, ...]

    def part(self, ref: str) -> Part:
        return next(p for p in self.parts if p.ref == ref)


# -- the parts ------------------------------------------------------------------------------------
def _pico() -> Part:
    """Upright (USB at the top): pins 1-20 down the left column, 40-21 down the right."""
    pins = []
    for p in WIRING.pico.pins:
        n = p.number
        hole = (PICO_LEFT, PICO_TOP + n - 1) if n <= 20 else (PICO_LEFT + 7, PICO_TOP + 40 - n)
        pins.append((str(n), hole))
    body = (PICO_LEFT - 0.6, PICO_TOP - 1.4, PICO_LEFT + 7.6, PICO_TOP + 19.6)
    return Part("PICO", WIRING.pico.title, tuple(pins), body)


def _chip(j: int) -> Part:
    left = chip_left(j)
    pins = [(str(p), (left, CHIP_TOP + p - 1)) for p in range(1, 8)]
    pins += [(str(p), (left + 3, CHIP_TOP + 14 - p)) for p in range(8, 15)]
    body = (left - 0.3, CHIP_TOP - 0.6, left + 3.3, CHIP_TOP + 6.6)
    return Part(f"U{j + 1}", WIRING.buffer.part, tuple(pins), body)


def _reader_header(n: int) -> Part:
    col = reader_column(n)
    pins = tuple((name, (col, row)) for name, row in READER_ROWS.items())
    body = (col - 0.5, READER_TOP - 0.5, col + 0.5, READER_TOP + 7.5)
    return Part(f"J{n + 1}", f"reader {n}'s 8-pin header", pins, body)


def _two(ref: str, kind: str, a: Hole, b: Hole, width: float = 0.45) -> Part:
    """A part with two leads (resistor, capacitor, jumper-like), lying between its holes."""
    (c0, r0), (c1, r1) = a, b
    body = (min(c0, c1) - width, min(r0, r1) + 0.3, max(c0, c1) + width, max(r0, r1) - 0.3)
    return Part(ref, kind, (("1", a), ("2", b)), body)


def _regulator() -> Part:
    """LD1117V33 / LM1117T-3.3 (TO-220) standing, legs down a column: 3 VIN, 2 VOUT, 1 GND."""
    col, top = REG_COLUMN, REG_TOP
    pins = (("3", (col, top)), ("2", (col, top + 1)), ("1", (col, top + 2)))
    return Part("REG", "LD1117V33", pins, (col - 0.9, top - 1.3, col + 0.9, top + 3.3))


REG_COLUMN, REG_TOP = 50, CHIP_TOP  # its rows: 5 V in, 3.3 V out, GND
# In chip j's section, with b = 16 j: the left pins' strips (gates 1 and 2) have the free
# columns b..b+5, the right pins' strips (gates 3 and 4) b+10..b+14. Each gate's holes there:
# the pull-up's column (its other lead on the 3.3 V row), the chip-select link's end on the
# gate's OE strip and the column it reaches the Pico's strip at, the reader's SDA link's end,
# the reader's MISO link's end (on the A strip) and the Y strip's link down to the MISO row.
GATE_HOLES = {
    # gate: (pull-up column, (CS end column, CS column at the Pico's strip), SDA, A, Y)
    1: (5, (0, 0), 1, 0, 3),
    2: (4, (1, 2), 2, 2, 1),
    3: (14, (11, 12), 12, 13, 11),
    4: (13, (11, 11), 12, 13, 10),
}


def layout() -> Layout:
    pico = _pico()
    chips = [_chip(j) for j in range(3)]
    headers = [_reader_header(n) for n in range(12)]
    parts: list[Part] = [pico, *chips, *headers, _regulator()]
    cuts: set[Hole] = set()
    links: list[Link] = []
    hub = WIRING.hub

    def pico_row(name: str) -> int:
        return pico.hole(str(WIRING.pico.number(name)))[1]

    # under the Pico, its left and right pins apart; GP0, GP1, GP14, GP15 off the board
    cuts |= {(PICO_LEFT + 3, r) for r in range(PICO_TOP, PICO_TOP + 20)}
    cuts |= {(PICO_LEFT - 1, pico_row(n)) for n in ("GP0", "GP1", "GP14", "GP15")}
    # the readers' own strips apart: SDA, MISO, IRQ
    for n in range(11):
        for name in ("SDA", "MISO", "IRQ"):
            cuts.add((reader_column(n) + 2, READER_ROWS[name]))
    # each chip's section: under the chip, and after its right strips
    for j in range(3):
        for row in range(CHIP_TOP, CHIP_TOP + 7):
            cuts |= {(chip_left(j) + 1, row), (16 * j + 15, row)}

    # the regulator, right of the chips: 5 V from VBUS in, the readers' 3.3 V out
    vin, vout, ground = REG_TOP, REG_TOP + 1, REG_TOP + 2
    parts.append(_two("C1", "10 µF", (55, ground), (55, vin), 0.8))
    parts.append(_two("C2", "100 µF", (57, ground), (57, vout), 1.0))
    vbus = pico.hole(str(WIRING.pico.number(hub.power_in)))
    links.append(Link((vbus[0] + 1, vbus[1]), (vbus[0] + 1, vin), "VBUS"))
    links.append(Link((49, vout), (49, VOUT_ROW), "3V3"))
    links.append(Link((31, VOUT_ROW), (31, READER_ROWS["3.3V"]), "3V3"))
    links.append(Link((51, ground), (51, GND_ROW), "GND"))
    links.append(Link((15, pico_row("GND") if False else 17), (15, GND_ROW), "GND"))
    links.append(Link((47, GND_ROW), (47, READER_ROWS["GND"]), "GND"))
    # the shared bus pins, from the Pico's right strips down to their rows
    for name, end in (
        (hub.miso, (61, MISO_ROW)),
        (hub.sck, (60, READER_ROWS["SCK"])),
        (hub.mosi, (59, READER_ROWS["MOSI"])),
        (hub.reset, (58, READER_ROWS["RST"])),
    ):
        row = pico_row(name)
        links.append(Link((PICO_LEFT + 9, row), end, name))
    parts.append(_two("R13", "100 kΩ", (22, GND_ROW), (22, MISO_ROW)))

    for j, chip in enumerate(chips):
        base = 16 * j
        # supply: pin 14 to 3.3 V (row S), pin 7 to GND (row AB), 100 nF across 3.3 V and GND
        vcc = chip.hole(str(WIRING.buffer.vcc))
        links.append(Link((vcc[0] + 1, vcc[1]), (vcc[0] + 1, VOUT_ROW), "3V3"))
        gnd = chip.hole(str(WIRING.buffer.gnd))
        links.append(Link((gnd[0] - 1, gnd[1]), (gnd[0] - 1, GND_ROW), "GND"))
        parts.append(_two(f"C{3 + j}", "100 nF", (base + 7, VOUT_ROW - 1), (base + 7, VOUT_ROW)))
    for n, link in enumerate(hub.readers):
        j = int(link.chip[1:]) - 1
        chip = chips[j]
        base = 16 * j
        gate = WIRING.buffer.gates[link.gate - 1]
        up, (cs_end, cs_col), sda, a, y = GATE_HOLES[link.gate]
        oe_row = chip.hole(str(gate.oe))[1]
        a_row = chip.hole(str(gate.a))[1]
        y_row = chip.hole(str(gate.y))[1]
        header = headers[n]
        col = reader_column(n)
        # the 10 kΩ pull-up from the chip-select strip to 3.3 V
        parts.append(_two(f"R{n + 1}", "10 kΩ", (base + up, VOUT_ROW), (base + up, oe_row)))
        links.append(Link((base + cs_end, oe_row), (base + cs_col, pico_row(link.cs)), link.cs))
        links.append(Link((col + 1, header.hole("SDA")[1]), (base + sda, oe_row), f"SDA{n}"))
        side = -1 if base + a <= col else 1  # leave the header on the side the link goes
        links.append(Link((col + side, header.hole("MISO")[1]), (base + a, a_row), f"MISO{n}"))
        links.append(Link((base + y, y_row), (base + y, MISO_ROW), "MISO"))
    return Layout(tuple(parts), tuple(sorted(cuts)), tuple(links))


# -- what is connected to what ------------------------------------------------------------------
def strips(board: Layout) -> list[list[Hole]]:
    """Each stretch of copper between cuts (a cut hole belongs to none)."""
    cut = set(board.cuts)
    found = []
    for row in range(HEIGHT):
        run: list[Hole] = []
        for col in range(WIDTH):
            if (col, row) in cut:
                if run:
                    found.append(run)
                run = []
            else:
                run.append((col, row))
        if run:
            found.append(run)
    return found


def nets(board: Layout) -> dict[Hole, int]:
    """Every hole's connection (an id; the same id, the same copper): strips joined by links."""
    parent: dict[Hole, Hole] = {}

    def find(h: Hole) -> Hole:
        while parent.setdefault(h, h) != h:
            parent[h] = parent[parent[h]]
            h = parent[h]
        return h

    def join(a: Hole, b: Hole) -> None:
        parent[find(a)] = find(b)

    for run in strips(board):
        for hole in run[1:]:
            join(run[0], hole)
    for link in board.links:
        join(link.start, link.end)
    pico = board.part("PICO")  # its GND pins are one on its own board
    grounds = [pico.hole(str(n)) for n in WIRING.pico.grounds]
    for hole in grounds[1:]:
        join(grounds[0], hole)
    roots: dict[Hole, int] = {}
    return {
        (c, r): roots.setdefault(find((c, r)), len(roots))
        for r in range(HEIGHT)
        for c in range(WIDTH)
    }


def connections(board: Layout) -> list[frozenset[str]]:
    """The groups of part pins the board connects ("U1.3", "J1.SDA", "PICO.21"), each group
    with two pins or more."""
    of = nets(board)
    groups: dict[int, set[str]] = defaultdict(set)
    for part in board.parts:
        for pin, hole in part.pins:
            groups[of[hole]].add(f"{part.ref}.{pin}")
    return sorted((frozenset(g) for g in groups.values() if len(g) > 1), key=sorted)


def intended() -> list[frozenset[str]]:
    """The same groups as the wiring describes them: what `connections` must equal."""
    hub, buffer = WIRING.hub, WIRING.buffer
    pico = WIRING.pico
    grounds = {f"PICO.{n}" for n in pico.grounds}
    nets: dict[str, set[str]] = {
        "GND": grounds | {f"J{n + 1}.GND" for n in range(12)} | {"REG.1", "R13.1"},
        "3V3": {f"J{n + 1}.3.3V" for n in range(12)} | {"REG.2"},
        "VBUS": {f"PICO.{pico.number(hub.power_in)}", "REG.3", "C1.2"},
        "SCK": {f"PICO.{pico.number(hub.sck)}"} | {f"J{n + 1}.SCK" for n in range(12)},
        "MOSI": {f"PICO.{pico.number(hub.mosi)}"} | {f"J{n + 1}.MOSI" for n in range(12)},
        "RST": {f"PICO.{pico.number(hub.reset)}"} | {f"J{n + 1}.RST" for n in range(12)},
        "MISO": {f"PICO.{pico.number(hub.miso)}", "R13.2"},
    }
    nets["GND"] |= {"C1.1", "C2.1"} | {f"C{3 + j}.1" for j in range(3)}
    nets["3V3"] |= {"C2.2"} | {f"C{3 + j}.2" for j in range(3)}
    for j in range(3):
        nets["GND"].add(f"U{j + 1}.{buffer.gnd}")
        nets["3V3"].add(f"U{j + 1}.{buffer.vcc}")
    for n, link in enumerate(hub.readers):
        gate = buffer.gates[link.gate - 1]
        nets["MISO"].add(f"{link.chip}.{gate.y}")
        nets["3V3"].add(f"R{n + 1}.1")
        nets[f"CS{n}"] = {
            f"PICO.{pico.number(link.cs)}",
            f"J{n + 1}.SDA",
            f"{link.chip}.{gate.oe}",
            f"R{n + 1}.2",
        }
        nets[f"MISO{n}"] = {f"J{n + 1}.MISO", f"{link.chip}.{gate.a}"}
    return sorted((frozenset(g) for g in nets.values()), key=sorted)


def clashes(board: Layout) -> list[str]:
    """Holes used twice (two pins, a pin and a link's end, a cut under either), and pins or
    link ends under another part's body or off the board."""
    found = []
    used: dict[Hole, str] = {}
    for part in board.parts:
        for pin, hole in part.pins:
            used.setdefault(hole, "")
            if used[hole]:
                found.append(f"{part.ref}.{pin} and {used[hole]} share {hole_name(hole)}")
            used[hole] = f"{part.ref}.{pin}"
    for i, link in enumerate(board.links):
        for hole in (link.start, link.end):
            if hole in used:
                found.append(f"link {i} ({link.net}) and {used[hole]} share {hole_name(hole)}")
            used[hole] = f"link {i} ({link.net})"
    for hole in board.cuts:
        if hole in used:
            found.append(f"a cut at {hole_name(hole)} under {used[hole]}")
    for i, link in enumerate(board.links):
        for hole in passes(link):
            if hole in used:
                found.append(f"link {i} ({link.net}) runs over {used[hole]} at {hole_name(hole)}")
        for part in board.parts:
            if part.ref.startswith(("PICO", "U", "REG", "J")) and crosses(link, part.body):
                found.append(f"link {i} ({link.net}) crosses {part.ref}")
        for k, other in enumerate(board.links[:i]):
            if overlap(link, other):
                found.append(f"links {k} ({other.net}) and {i} ({link.net}) lie on each other")
    for hole, what in used.items():
        col, row = hole
        if not (0 <= col < WIDTH and 0 <= row < HEIGHT):
            found.append(f"{what} is off the board at {hole}")
        for part in board.parts:
            if what.startswith(part.ref + "."):
                continue
            c0, r0, c1, r1 = part.body
            if c0 < col < c1 and r0 < row < r1:
                found.append(f"{what} at {hole_name(hole)} is under {part.ref}")
    return found


def passes(link: Link) -> list[Hole]:
    """The holes a straight link runs exactly over, between its ends."""
    (c0, r0), (c1, r1) = link.start, link.end
    steps = max(abs(c1 - c0), abs(r1 - r0))
    found = []
    for i in range(1, steps):
        c, r = c0 + (c1 - c0) * i / steps, r0 + (r1 - r0) * i / steps
        if c == int(c) and r == int(r):
            found.append((int(c), int(r)))
    return found


def crosses(link: Link, body: tuple[float, float, float, float]) -> bool:
    """Whether a straight link passes over a part's body (Liang-Barsky clipping)."""
    (c0, r0), (c1, r1) = link.start, link.end
    x0, y0, x1, y1 = body
    dx, dy = c1 - c0, r1 - r0
    low, high = 0.0, 1.0
    for p, q in ((-dx, c0 - x0), (dx, x1 - c0), (-dy, r0 - y0), (dy, y1 - r0)):
        if p == 0:
            if q <= 0:
                return False
        else:
            t = q / p
            low, high = (max(low, t), high) if p < 0 else (low, min(high, t))
            if low >= high:
                return False
    return True


def overlap(a: Link, b: Link) -> bool:
    """Whether two straight links lie along each other for some length."""
    (ax0, ay0), (ax1, ay1) = a.start, a.end
    (bx0, by0), (bx1, by1) = b.start, b.end
    dx, dy = ax1 - ax0, ay1 - ay0

    def cross(x: float, y: float) -> float:
        return dx * (y - ay0) - dy * (x - ax0)

    if cross(bx0, by0) or cross(bx1, by1):
        return False  # not on one line
    length = dx * dx + dy * dy

    def along(x: float, y: float) -> float:
        return (dx * (x - ax0) + dy * (y - ay0)) / length

    lo, hi = sorted((along(bx0, by0), along(bx1, by1)))
    return min(hi, 1) - max(lo, 0) > 1e-9


BOARD = layout()


def what(net: str) -> str:
    """A link's net in a builder's words."""
    names = {"GND": "GND", "3V3": "3.3 V", "VBUS": "5 V (VBUS)", "MISO": "the shared MISO"}
    if net in names:
        return names[net]
    if net.startswith("SDA"):
        return f"reader {net[3:]}'s chip-select (SDA) to its gate's OE"
    if net.startswith("MISO"):
        return f"reader {net[4:]}'s MISO to its gate's A"
    readers = {r.cs: n for n, r in enumerate(WIRING.hub.readers)}
    if net in readers:
        return f"{net}, reader {readers[net]}'s chip-select, to its gate's OE"
    hub = WIRING.hub
    role = {hub.sck: "SCK", hub.mosi: "MOSI", hub.reset: "RST", hub.miso: "shared MISO"}
    return f"{net} to the {role[net]} strip"


def checklist(board: Layout = BOARD) -> list[str]:
    lines = [f"parts ({len(board.parts)}):"]
    for part in board.parts:
        where = ", ".join(f"{pin} {hole_name(hole)}" for pin, hole in part.pins[:3])
        more = ", ..." if len(part.pins) > 3 else ""
        lines.append(f"  {part.ref:5} {part.kind}: {where}{more}")
    lines.append(f"cuts ({len(board.cuts)}):")
    by_row: dict[int, list[str]] = defaultdict(list)
    for hole in board.cuts:
        by_row[hole[1]].append(hole_name(hole))
    for row in sorted(by_row):
        lines.append(f"  row {hole_name((0, row))[:-1]}: {' '.join(by_row[row])}")
    lines.append(f"links ({len(board.links)}):")
    for i, link in enumerate(board.links, 1):
        ends = f"{hole_name(link.start)}-{hole_name(link.end)}"
        lines.append(f"  {i:2}. {ends:9} {what(link.net)}")
    return lines


if __name__ == "__main__":
    print("\n".join(checklist()))
