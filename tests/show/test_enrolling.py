"""Registering the tiles from the settings menu on the simulated table: all 50, on every
display, the registry the service's own, and going on after a power cut."""

from __future__ import annotations

import json
from pathlib import Path

from companion.board.registry import Registry
from companion.enrolment import MARKER
from companion.sim.rig import sim_registry
from engine import ALL_TILES
from tests.show.table import FamilyTable
from tests.show.test_menu import go_to

SIDES = ("N", "E", "S", "W")


def enrolling(make, tmp_path, registered: int = 0) -> tuple[FamilyTable, Path]:
    """A table with no tile registered, its person at NW, the enrolment opened from the menu
    and gone on until `registered` tiles are; and the registry's file."""
    path = tmp_path / "state" / "registry.json"
    table = make(registry=Registry(path), person=True)
    open_enrolment(table)
    while len(table.daemon.table.registry) < registered:
        table.enrol_step()
    return table, path


def open_enrolment(table: FamilyTable) -> None:
    table.press("W", long=True)
    go_to(table, "enrol", "W")
    assert table.texts("N")[2:4] == ["Tiles", "Register the tiles"]
    table.press("W", long=True)
    assert table.daemon.enrolment is not None


def test_all_50_tiles_registered_from_the_menu_with_a_summary(make, tmp_path):
    table, path = enrolling(make, tmp_path)
    asked = set()
    for _ in range(2000):
        if not table.daemon.enrolment.running:
            break
        table.enrol_step()
        texts = table.texts("E")
        if texts and texts[1:2] and "→" in " ".join(texts):
            asked.add(" ".join(texts))
            assert table.texts("N") == texts  # every display shows the same prompt
    assert not table.daemon.enrolment.running
    table.sweep()
    for side in SIDES:
        assert table.texts(side)[:2] == ["Tiles registered", "50 of 50"]
        assert "Tags found twice: 0" in table.texts(side)
    assert dict(Registry.load(path).items()) == dict(sim_registry().items())
    assert len(asked) >= 50 and not (path.parent / MARKER).exists()
    table.press("S")  # the summary read: back to the lobby, every tile known
    assert table.daemon.enrolment is None and table.daemon.menu is None
    assert "Hold: settings" in table.texts("S")
    table.put("NW", "star-3")
    assert not table.table.tracker.problems(table.clock())


def test_a_power_cut_during_the_enrolment_goes_on_with_the_tiles_missing(make, tmp_path):
    table, path = enrolling(make, tmp_path, registered=20)
    table.close()  # the power goes in the middle of the enrolment
    saved = json.loads(path.read_text())
    assert 20 <= len(saved) < 50 and (path.parent / MARKER).exists()
    again = make(registry=Registry.load(path), person=True)
    assert again.daemon.enrolment is not None  # it starts in the enrolment again
    first = None
    for _ in range(2000):
        if not again.daemon.enrolment.running:
            break
        again.enrol_step()
        prompt = again.daemon.enrolment.view().prompt
        if first is None and prompt is not None and prompt.kind == "put":
            first = prompt.enrolled
    assert first is not None and first >= 20  # it did not start from the first tile again
    assert dict(Registry.load(path).items()) == dict(sim_registry().items())
    assert again.texts("S")[:2] == ["Tiles registered", "50 of 50"]


def test_a_long_press_stops_the_enrolment_and_keeps_what_was_registered(make, tmp_path):
    table, path = enrolling(make, tmp_path, registered=3)
    table.press("N", long=True)
    table.until(lambda: not table.daemon.enrolment.running, sweeps=True)
    table.sweep()
    texts = table.texts("S")
    assert texts[0] == "Registration stopped" and texts[1].endswith(" of 50")
    assert len(Registry.load(path)) >= 3 and not (path.parent / MARKER).exists()
    table.press("N")
    assert table.daemon.enrolment is None and "Hold: settings" in table.texts("N")


def test_an_unknown_tile_points_to_the_menu(make, tmp_path):
    table = make(registry=Registry(tmp_path / "state" / "registry.json"))
    table.put("SW", "heart-4")
    table.until(lambda: "Problem" in table.texts("N"))
    said = " ".join(table.texts("N"))
    assert "Unknown tile on square SW" in said and "register the tiles in the settings" in said


def test_with_every_tile_registered_it_asks_for_each_again_a_press_skipping(make, tmp_path):
    """Before, "Register the tiles" on a table whose tiles all had a tag went straight to
    "50 of 50": no tile could be registered again from the table (a new tag under one)."""
    path = tmp_path / "state" / "registry.json"
    registry = Registry(path)
    for uid, tile in sim_registry().items():
        registry.enrol(uid, tile)
    registry.save()
    table = make(registry=registry, person=True)
    star_2, new_tag = ALL_TILES[1], "04AAAAAAAAAAAA"
    old_tag = registry.uid(star_2)
    table.rig.uid[star_2] = new_tag  # a new sticker under star-2: its old tag is gone
    table.rig.tile_of[new_tag] = star_2
    open_enrolment(table)
    for _ in range(50):  # the square read empty: the first tile is asked for
        if "Register again" in table.texts("N"):
            break
        table.enrol_step()
    texts = table.texts("N")
    assert texts[:2] == ["1/50", "Register again"] and "Press: next tile" in texts
    table.press("E")  # not this one: the next
    for _ in range(200):  # the person puts star-2 down, its new tag is read and kept
        if Registry.load(path).uid(star_2) == new_tag:
            break
        table.enrol_step()
    assert Registry.load(path).uid(star_2) == new_tag
    assert Registry.load(path).tile(old_tag) is None and len(Registry.load(path)) == 50
    table.press("E", long=True)  # stop here: every other tile keeps its tag
    table.until(lambda: not table.daemon.enrolment.running, sweeps=True)
    table.sweep()
    assert table.texts("N")[:2] == ["Tiles registered", "50 of 50"]
