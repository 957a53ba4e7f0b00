"""The hub's stripboard layout (docs/diagrams/stripboard.py, drawn as hub-board.png) makes
exactly the connections of the wiring (docs/diagrams/wiring.toml), computed from its strips,
cuts, links and parts' pins; no two things share a hole, nothing sits under a part, no link
runs over another's hole or along another link. Altered layouts show each check failing."""

from __future__ import annotations

from dataclasses import replace

import pytest

from tests.docs.diagrams import REPO, WIRING, load

stripboard = load("stripboard")
BOARD = stripboard.BOARD


def test_the_board_connects_exactly_what_the_wiring_says():
    assert stripboard.connections(BOARD) == stripboard.intended()


def test_nothing_on_the_board_clashes():
    assert stripboard.clashes(BOARD) == []


def test_every_reader_lands_on_its_own_header_under_its_chip_select():
    """Reader n's SDA pin reaches the Pico pin of its chip-select and nothing else's."""
    of = stripboard.nets(BOARD)
    pico = BOARD.part("PICO")
    for n, link in enumerate(WIRING.hub.readers):
        sda = BOARD.part(f"J{n + 1}").hole("SDA")
        cs = pico.hole(str(WIRING.pico.number(link.cs)))
        assert of[sda] == of[cs], f"reader {n}"
        others = [r.cs for r in WIRING.hub.readers if r.cs != link.cs]
        assert all(of[pico.hole(str(WIRING.pico.number(o)))] != of[sda] for o in others)


def test_the_hole_names_are_row_letters_and_columns_from_one():
    assert stripboard.hole_name((0, 0)) == "A1"
    assert stripboard.hole_name((20, 27)) == "AB21"
    assert stripboard.hole_name((62, 38)) == "AM63"


def test_the_parts_list_matches_the_board():
    kinds = [p.kind for p in BOARD.parts]
    assert kinds.count("10 kΩ") == 12 and kinds.count("100 kΩ") == 1
    assert kinds.count("100 nF") == 3
    assert sum(p.ref.startswith("J") for p in BOARD.parts) == 12


# -- the checks catch what they are for -------------------------------------------------------
def test_a_missing_cut_joins_two_readers_chip_selects():
    cut = (stripboard.reader_column(0) + 2, stripboard.READER_ROWS["SDA"])
    broken = replace(BOARD, cuts=tuple(c for c in BOARD.cuts if c != cut))
    assert stripboard.connections(broken) != stripboard.intended()


@pytest.mark.parametrize("index", [0, 10, -1])
def test_a_missing_link_is_a_missing_connection(index):
    links = list(BOARD.links)
    del links[index]
    broken = replace(BOARD, links=tuple(links))
    assert stripboard.connections(broken) != stripboard.intended()


def test_a_link_onto_a_pin_or_along_another_is_a_clash():
    pin = BOARD.part("U1").hole("3")
    first = BOARD.links[0]
    onto = stripboard.Link(first.start, pin, first.net)
    along = stripboard.Link(first.start, first.end, "again")
    assert any("share" in c for c in stripboard.clashes(replace(BOARD, links=(onto,))))
    assert any(
        "lie on each other" in c for c in stripboard.clashes(replace(BOARD, links=(first, along)))
    )


# -- what hardware.md says of the board ---------------------------------------------------------
HARDWARE = (REPO / "docs/hardware.md").read_text()


def row(first: str, text: str = HARDWARE) -> list[str]:
    """The cells of the table row of hardware.md that starts with `first`."""
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("|") and cells[0] == first:
            return cells
    raise AssertionError(f"hardware.md has no row {first!r}")


def hole(ref: str, pin: str) -> str:
    return stripboard.hole_name(BOARD.part(ref).hole(pin))


def test_the_parts_table_is_where_the_layout_puts_them():
    pico = WIRING.pico
    assert (
        f"pin 1 at {hole('PICO', '1')}, pin 40 at {hole('PICO', str(len(pico.pins)))}"
        in (row("PICO")[2])
    )
    assert (
        row("U1, U2, U3")[2]
        == f"pin 1 at {hole('U1', '1')}, {hole('U2', '1')} and {hole('U3', '1')}"
    )
    assert (
        row("REG")[2]
        == f"legs IN {hole('REG', '3')}, OUT {hole('REG', '2')}, GND {hole('REG', '1')}"
    )
    assert row("C1")[2] == f"{hole('C1', '2')} (+) and {hole('C1', '1')} (-)"
    assert row("C2")[2] == f"{hole('C2', '2')} (+) and {hole('C2', '1')} (-)"
    assert row("C3, C4, C5")[2] == ", ".join(
        f"{hole(c, '2')}-{hole(c, '1')}" for c in ("C3", "C4", "C5")
    )
    columns = [str(BOARD.part(f"R{n}").hole("1")[0] + 1) for n in range(1, 13)]
    assert row("R1-R12")[2] == f"column {', '.join(columns)}"
    assert row("R13")[2] == f"{hole('R13', '1')}-{hole('R13', '2')}"
    first, last = (stripboard.reader_column(n) + 1 for n in (0, 11))
    second, third = (stripboard.reader_column(n) + 1 for n in (1, 2))
    assert row("J1-J12")[2] == f"columns {first}, {second}, {third}, ... {last}"


def test_the_text_names_the_rows_and_counts_of_the_layout():
    rows = {name: stripboard.hole_name((0, r))[:-1] for name, r in stripboard.READER_ROWS.items()}
    assert f"pin 1 (`SDA`) in row {rows['SDA']}" in HARDWARE.replace("\n", " ")
    for name in stripboard.READER_BUSES:
        assert f"{rows[name]} ({name.replace('3.3V', '3.3 V')})" in HARDWARE
    assert f"the {len(BOARD.cuts)} cuts and the {len(BOARD.links)} links" in HARDWARE


def test_the_bill_of_materials_counts_what_the_board_holds():
    kinds = [p.kind for p in BOARD.parts]
    assert row("12")[1].startswith("RC522")
    quantities = {cells[1]: cells[0] for cells in (
        [c.strip() for c in line.strip().strip("|").split("|")]
        for line in HARDWARE.split("## Bill of materials")[1].split("\n## ")[0].splitlines()
        if line.startswith("| ")
    )}  # fmt: skip
    assert quantities["10 kOhm resistors, 1/4 W"] == str(kinds.count("10 kΩ"))
    assert quantities["100 kOhm resistor, 1/4 W"] == str(kinds.count("100 kΩ"))
    assert quantities["100 nF ceramic capacitors"] == str(kinds.count("100 nF"))
    assert quantities["1x8 male pin headers, 2.54 mm"] == str(
        kinds.count("reader 0's 8-pin header") * 12
    )
    assert (
        quantities["74LVC125A quad tri-state buffer, DIP-14"]
        == "3"
        == quantities["DIP-14 IC sockets"]
    )


def test_the_checklist_lists_every_cut_and_link():
    lines = stripboard.checklist()
    assert f"cuts ({len(BOARD.cuts)}):" in lines and f"links ({len(BOARD.links)}):" in lines
    listed = {name for line in lines if line.startswith("  row ") for name in line.split()[2:]}
    assert listed == {stripboard.hole_name(c) for c in BOARD.cuts}
