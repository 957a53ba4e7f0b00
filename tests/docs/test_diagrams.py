"""The pictures of docs/diagrams: every header pin a label names is that pin on the board's
pinout (docs/diagrams/wiring.toml), no label overlaps a wire or another label, and the PNGs
in docs/ are the drawing of today's wiring. The pictures are drawn once, in this process,
by docs/diagrams/draw.py's own main (every figure it saves is kept)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from PIL import Image

from tests.docs.diagrams import DIAGRAMS, WIRING, label_problems, load, overlaps, texts

if TYPE_CHECKING:
    from matplotlib.figure import Figure

#: the board whose supplies and grounds each picture's labels name
HEADER = {
    "wiring-pi": WIRING.pi,
    "buzzer": WIRING.pi,
    "wiring-hub": WIRING.pico,
    "board-map": WIRING.pico,
    "hub-board": WIRING.pico,
}


@pytest.fixture(scope="module")
def drawn(tmp_path_factory) -> dict[str, Figure]:
    """Every picture draw.py saves, by name, drawn into a temporary folder. (matplotlib
    is imported here, not at the module's top: every worker collects this module, and only
    one draws.)"""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.figure import Figure

    draw = load("draw")
    saved: dict[str, Figure] = {}
    original = Figure.savefig

    def keep(fig, path, *args, **kwargs):
        saved[Path(path).stem] = fig
        return original(fig, path, *args, **kwargs)

    Figure.savefig = keep
    try:
        draw.main(str(tmp_path_factory.mktemp("diagrams")))
    finally:
        Figure.savefig = original
    return saved


def test_every_picture_is_drawn(drawn):
    assert set(HEADER) <= set(drawn)


@pytest.mark.parametrize("name", sorted(HEADER))
def test_every_pin_a_label_names_is_that_pin_on_the_board(drawn, name):
    problems = [p for t in texts(drawn[name]) for p in label_problems(t.get_text(), HEADER[name])]
    assert problems == []


def test_the_hub_picture_names_each_readers_pin_and_gate(drawn):
    """Not only right where a pin is named: every reader's chip-select is there."""
    shown = "\n".join(t.get_text() for t in texts(drawn["wiring-hub"]))
    for n, link in enumerate(WIRING.hub.readers):
        assert f"{link.cs} CS{n} [pin {WIRING.pico.number(link.cs)}]" in shown
        g = WIRING.buffer.gates[link.gate - 1]
        assert f"{link.chip} gate {link.gate}: OE {g.oe}, A {g.a}, Y {g.y}" in shown
    for name in (WIRING.hub.sck, WIRING.hub.mosi, WIRING.hub.miso, WIRING.hub.reset):
        assert f"{name} " in shown and f"[pin {WIRING.pico.number(name)}]" in shown


@pytest.mark.parametrize("name", sorted(HEADER))
def test_no_label_overlaps_a_wire_or_another_label(drawn, name):
    assert overlaps(drawn[name]) == []


@pytest.mark.parametrize("name", sorted(HEADER))
def test_the_picture_in_docs_is_the_drawing_of_todays_wiring(drawn, name):
    """draw.py writes what it drew (a hash of its texts and lines) into each PNG."""
    draw = load("draw")
    with Image.open(DIAGRAMS / f"{name}.png") as png:
        recorded = png.text.get("Description")
    assert recorded == f"drawing {draw.digest(drawn[name])}", "run make diagrams"


# -- the checks themselves catch what they are for --------------------------------------------
@pytest.mark.parametrize(
    ("label", "header", "wrong"),
    [
        ("GP2 CS0 [3]", WIRING.pico, "pin 3 of the Raspberry Pi Pico is GND, not GP2"),
        ("GP6 CS4 [pin 8]", WIRING.pico, "is GND, not GP6"),
        ("GND [3, 8, 13, 14]", WIRING.pico, "pin 14 of the Raspberry Pi Pico is GP10, not GND"),
        ("GPIO18 [pin 13]", WIRING.pi, "pin 13 of the Raspberry Pi is GPIO27, not GPIO18"),
        ("5 V [pin 1]", WIRING.pi, "pin 1 of the Raspberry Pi is 3V3, not 5 V"),
        ("GPIO18 (PWM)", WIRING.pi, "names GPIO18 without its header pin"),
        ("CS GP2", WIRING.pico, "names GP2 without its header pin"),
    ],
)
def test_a_wrong_pin_in_a_label_is_caught(label, header, wrong):
    assert any(wrong in p for p in label_problems(label, header)), label_problems(label, header)


@pytest.mark.parametrize(
    "label", ["GP2 CS0 [pin 4]", "GND [pins 3, 8, 13, ...]", "3.3 V [pin 1]", "VBUS 5 V [pin 40]"]
)
def test_a_right_pin_passes(label):
    header = WIRING.pi if label.startswith("3.3") else WIRING.pico
    assert label_problems(label, header) == []


def test_a_label_on_a_wire_and_two_labels_on_each_other_are_caught():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(4, 2), dpi=100)
    ax.set_xlim(0, 4)
    ax.set_ylim(0, 2)
    ax.plot([0, 4], [1, 1], lw=2)
    ax.text(0.2, 0.95, "on the wire")
    ax.text(2.5, 0.2, "first label")
    ax.text(2.6, 0.25, "second label")
    ax.text(0.2, 1.5, "clear of all")
    found = overlaps(fig)
    plt.close(fig)
    assert found == [
        "label 'first label' overlaps label 'second label'",
        "label 'on the wire' overlaps a wire",
    ]
