"""What the tests of docs/ share: the wiring description (docs/diagrams/wiring.py, loaded
from its file: docs/ is no package) and the checks of a picture's labels, pure functions
of a figure so that a test can show each one catching a wrong label."""

from __future__ import annotations

import importlib.util
import math
import re
import sys
from pathlib import Path
from types import ModuleType

REPO = Path(__file__).resolve().parents[2]
DIAGRAMS = REPO / "docs/diagrams"


def load(name: str) -> ModuleType:
    """docs/diagrams/<name>.py as the module `name`, once (draw.py imports it by that name)."""
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, DIAGRAMS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up while the class is made
    spec.loader.exec_module(module)
    return module


wiring = load("wiring")
WIRING = wiring.WIRING

# A header pin named in a label: its name, then (after a role, say "CS0") its pin numbers in
# brackets: "GP2 CS0 [pin 4]", "GND [pins 3, 8, 13]", "5 V [2]".
POWER = r"AGND|GND|VBUS|VSYS|3V3|3\.3 V|5 V|5V"
PIN_LABEL = re.compile(
    rf"(?P<name>GPIO\d+|GP\d+|{POWER})(?P<role>[^\[\]\n]*?)"
    r"\[(?:pins? )?(?P<pins>\d+(?:, \d+)*)(?:, \.\.\.)?\]"
)
GPIO_NAME = re.compile(r"\b(?:GPIO\d+|GP\d+)\b")


def header_of(name: str, default):
    """GP<n> is the Pico's, GPIO<n> the Pi's; a supply or ground is the picture's board's."""
    if name.startswith("GPIO"):
        return WIRING.pi
    if name.startswith("GP"):
        return WIRING.pico
    return default


def label_problems(text: str, default) -> list[str]:
    """What is wrong with the header pins a label names: a pin number that is not the named
    pin on its board's header, or a GPIO named without its pin number."""
    problems = []
    checked = []
    for m in PIN_LABEL.finditer(text):
        name = m.group("name")
        header = header_of(name, default)
        if GPIO_NAME.search(m.group("role")):
            continue  # "GP2 ... GP3 [pin 5]": the bracket is the second name's
        checked.append(m.span("name"))
        for number in map(int, m.group("pins").split(", ")):
            if not 1 <= number <= len(header.pins):
                problems.append(f"{text!r}: {header.title} has no pin {number}")
                continue
            found = header.pin(number)
            ground = name in ("GND", "AGND") and found.kind == "ground"
            if not (ground or header.is_named(number, name)):
                problems.append(
                    f"{text!r}: pin {number} of the {header.title} is {found.name}, not {name}"
                )
    for m in GPIO_NAME.finditer(text):
        if not any(start <= m.start() < end for start, end in checked):
            problems.append(f"{text!r}: names {m.group()} without its header pin")
    return problems


def texts(fig) -> list:
    return [t for ax in fig.axes for t in ax.texts if t.get_visible() and t.get_text().strip()]


def wires(fig) -> list:
    """The drawn lines (not the dots: a line style of none draws only markers)."""
    return [
        line
        for ax in fig.axes
        for line in ax.lines
        if line.get_visible() and line.get_linestyle() not in ("None", "", " ", "none")
        and len(line.get_xdata()) >= 2
    ]  # fmt: skip


def _crosses(box, a, b, pad: float) -> bool:
    """Whether the segment a-b, widened by pad pixels, passes through the box (Liang-Barsky)."""
    if not all(math.isfinite(v) for v in (*a, *b)):
        return False  # a break in the line (schemdraw draws symbols as one broken line)
    x0, y0, x1, y1 = box.x0 - pad, box.y0 - pad, box.x1 + pad, box.y1 + pad
    dx, dy = b[0] - a[0], b[1] - a[1]
    low, high = 0.0, 1.0
    for p, q in ((-dx, a[0] - x0), (dx, x1 - a[0]), (-dy, a[1] - y0), (dy, y1 - a[1])):
        if p == 0:
            if q < 0:
                return False
        else:
            t = q / p
            if p < 0:
                low = max(low, t)
            else:
                high = min(high, t)
            if low > high:
                return False
    return True


def overlaps(fig, shrink: float = 1.0) -> list[str]:
    """Labels that overlap a wire or another label, by their extents as the renderer lays
    them out (pixels); `shrink` forgives a label's box that only touches."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    renderer = FigureCanvasAgg(fig).get_renderer()  # a closed figure has lost its own canvas
    boxes = []
    for text in texts(fig):
        box = text.get_window_extent(renderer)
        boxes.append((text.get_text(), box.expanded(1, 1).padded(-shrink)))
    found = []
    for i, (a, box_a) in enumerate(boxes):
        for b, box_b in boxes[i + 1 :]:
            if box_a.overlaps(box_b):
                found.append(f"label {a!r} overlaps label {b!r}")
    for line in wires(fig):
        points = line.get_transform().transform(line.get_xydata())
        pad = line.get_linewidth() * fig.dpi / 72 / 2
        for text, box in boxes:
            if any(_crosses(box, p, q, pad) for p, q in zip(points, points[1:])):
                found.append(f"label {text!r} overlaps a wire")
    return found
