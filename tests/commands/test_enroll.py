"""`setup-companion enroll`: tags learned on the simulated table, through the real hub link."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest

from companion.board.registry import Registry
from companion.enrolment import PROMPTS, Enrolment, Prompt, SimEnrolTable, SimPerson
from companion.show.canvas import Canvas
from companion.show.i18n import LANGUAGES, Catalogue
from companion.show.screens.enrol import DisplayPrompts, draw_enrol
from companion.sim.clock import SimClock
from companion.sim.rig import SimRig, sim_registry
from engine import ALL_TILES, Tile
from hardware.display import Display
from hardware.hub.link import HubLink
from hardware.hub.sim import FaultModel, tag_uid

from .conftest import run_cli

T = Tile.parse
SIM_TAGS = {str(tile): uid for uid, tile in sim_registry().items()}


def registry_file(state_dir) -> dict[str, str]:
    """The registry as saved: tile name -> UID."""
    data = json.loads((state_dir / "registry.json").read_text())
    return {tile: uid for uid, tile in data.items()}


class Table:
    """The simulated table with a person, the virtual hub and the real link, in lock step."""

    def __init__(self, person: type[SimPerson] = SimPerson, faults: FaultModel | None = None):
        self.rig = SimRig(faults or FaultModel(), seed=3)
        self.clock = SimClock()
        self.link = HubLink(self.rig.port, clock=self.clock)
        self.link.open()
        self.person = person(self.rig, "NW")
        self.source = SimEnrolTable(self.rig, self.link, self.person, self.clock)
        self.prompts: list[Prompt] = []

    def enrolment(self, registry: Registry, **options) -> Enrolment:
        options.setdefault("give_up_after", 60.0)
        return Enrolment(
            registry,
            self.source,
            clock=self.clock,
            listeners=[self.prompts.append, self.person, *options.pop("listeners", [])],
            **options,
        )

    def kinds(self) -> list[str]:
        return [p.kind for p in self.prompts]

    def close(self) -> None:
        self.link.close()
        self.rig.close()


@pytest.fixture
def table():
    made: list[Table] = []

    def make(person: type[SimPerson] = SimPerson, faults: FaultModel | None = None) -> Table:
        made.append(Table(person, faults))
        return made[-1]

    yield make
    for t in made:
        t.close()


def almost_full(path, missing: tuple[str, ...]) -> Registry:
    """A registry on disk with every sim tag but those of `missing`."""
    registry = Registry(
        path, {uid: t for uid, t in sim_registry().items() if str(t) not in missing}
    )
    registry.save()
    return registry


def test_all_fifty_tiles_on_the_simulated_table(tmp_path, capsys):
    code, out, err = run_cli(capsys, "enroll", "--sim", "--state-dir", str(tmp_path))
    assert (code, err) == (0, "")
    assert registry_file(tmp_path) == SIM_TAGS  # every tile has the tag glued under it
    asked = [line.split()[1] for line in out.splitlines() if line.startswith("Put ")]
    assert asked == [str(tile) for tile in ALL_TILES]  # star-1 .. spade-10, each once
    assert "star-1 is tag 04000000000001: 1/50 enrolled. Lift it off NW." in out
    assert out.splitlines()[-1] == "Done: every tile asked for has its tag (50/50 enrolled)."
    code, out, _ = run_cli(capsys, "enroll", "--sim", "--state-dir", str(tmp_path))
    assert code == 0 and out.startswith("All 50 tiles are enrolled")


def test_a_restart_goes_on_with_the_missing_tiles_only(tmp_path, capsys):
    almost_full(tmp_path / "registry.json", ("heart-2", "club-9", "spade-10"))
    code, out, _ = run_cli(
        capsys, "enroll", "--sim", "--state-dir", str(tmp_path), "--square", "SE"
    )
    assert code == 0
    assert [line for line in out.splitlines() if line.startswith("Put ")] == [
        "Put heart-2 alone on square SE (47/50 enrolled so far).",
        "Put club-9 alone on square SE (48/50 enrolled so far).",
        "Put spade-10 alone on square SE (49/50 enrolled so far).",
    ]
    assert registry_file(tmp_path) == SIM_TAGS


def test_each_tile_is_saved_before_the_next_is_asked_for(tmp_path, table):
    t = table()
    registry = Registry(tmp_path / "registry.json")
    on_disk: list[dict[str, str]] = []

    def look(prompt: Prompt) -> None:
        if prompt.kind == "put":
            on_disk.append(registry_file(tmp_path) if registry.path.exists() else {})

    result = t.enrolment(registry, listeners=[look]).run(list(ALL_TILES[:3]))
    assert result.complete and [tile for tile, _ in result.enrolled] == list(ALL_TILES[:3])
    assert on_disk == [
        {},
        {"star-1": SIM_TAGS["star-1"]},
        {"star-1": SIM_TAGS["star-1"], "star-2": SIM_TAGS["star-2"]},
    ]


def test_a_tag_already_enrolled_for_another_tile_is_caught(tmp_path, table):
    class WrongTileFirst(SimPerson):
        """Asked for star-5, first puts star-2 (enrolled already) down."""

        def respond(self, prompt: Prompt) -> list[Callable[[], None]]:
            if prompt.kind == "put" and prompt.tile == T("star-5") and not hasattr(self, "done"):
                self.done = True
                return [lambda: self.put(T("star-2"))]
            return super().respond(prompt)

    t = table(WrongTileFirst, FaultModel.realistic())
    registry = almost_full(tmp_path / "registry.json", ("star-5",))
    result = t.enrolment(registry).run()
    assert result.complete
    assert t.kinds() == ["put", "duplicate", "put", "accepted", "done"]
    duplicate = t.prompts[1]
    assert (duplicate.tile, duplicate.other, duplicate.uid) == (
        T("star-5"),
        T("star-2"),
        SIM_TAGS["star-2"],
    )
    assert "already star-2: is it the right tile?" in str(duplicate)
    assert registry_file(tmp_path) == SIM_TAGS  # star-2 kept its tag, star-5 got its own


def test_two_tags_on_the_square_are_caught_and_neither_is_taken(tmp_path, table):
    class TwoTiles(SimPerson):
        """Asked for star-5, puts star-5 with star-6 on top of it."""

        def respond(self, prompt: Prompt) -> list[Callable[[], None]]:
            if prompt.kind == "put" and not hasattr(self, "done"):
                self.done = True
                return [lambda: (self.put(T("star-5")), self.put(T("star-6")))]
            return super().respond(prompt)

    t = table(TwoTiles)
    registry = almost_full(tmp_path / "registry.json", ("star-5", "star-6"))
    result = t.enrolment(registry).run([T("star-5")])
    assert result.complete
    assert t.kinds() == ["put", "collision", "accepted", "done"]
    assert str(t.prompts[1]) == "Two tags answer on NW: put star-5 there alone."
    assert registry.uid(T("star-5")) == SIM_TAGS["star-5"]
    assert registry.uid(T("star-6")) is None


def test_a_tag_seen_only_now_and_then_is_never_taken(tmp_path, table):
    """Readings that flicker (a half-seen tag) never make `sweeps` clean ones in a row."""

    class Flicker(SimPerson):
        def respond(self, prompt: Prompt) -> list[Callable[[], None]]:
            if prompt.kind == "put":
                tile = prompt.tile
                return [lambda: self.put(tile), self.clear] * 10
            return super().respond(prompt)

    t = table(Flicker)
    t.person.delay = 0  # on, off, on, off: every other sweep
    registry = Registry(tmp_path / "registry.json")
    result = t.enrolment(registry, sweeps=3, give_up_after=5.0).run([T("heart-1")])
    assert not result.complete and result.gave_up == T("heart-1")
    assert len(registry) == 0 and not (tmp_path / "registry.json").exists()


def test_nothing_read_for_a_while_asks_to_check_the_tag_once(tmp_path, table):
    class Slow(SimPerson):
        """Takes 15 s (150 sweeps) to find the tile."""

        def respond(self, prompt: Prompt) -> list[Callable[[], None]]:
            if prompt.kind == "put":
                tile = prompt.tile
                return [lambda: None] * 75 + [lambda: self.put(tile)]
            return super().respond(prompt)

    t = table(Slow)
    registry = Registry(tmp_path / "registry.json")
    result = t.enrolment(registry, hint_after=10.0).run([T("club-7")])
    assert result.complete
    assert t.kinds() == ["put", "nothing", "accepted", "done"]
    assert "Check its tag" in str(t.prompts[1])


def test_a_faulty_reader_under_the_square_is_said_and_a_silent_hub_too(tmp_path, table):
    t = table(faults=FaultModel(faulty_readers=frozenset({8})))  # reader 8 is under NW
    registry = Registry(tmp_path / "registry.json")
    result = t.enrolment(registry, give_up_after=3.0).run([T("club-7")])
    assert result.gave_up == T("club-7")
    assert t.kinds() == ["fault"]  # told once, not asked for a tile it cannot read
    assert str(t.prompts[0]).startswith("The reader under NW is in fault")

    class Unplugs(SimPerson):
        """Pulls the hub's cable when asked for a tile, puts it back when told."""

        def respond(self, prompt: Prompt) -> list[Callable[[], None]]:
            if prompt.kind == "put" and not hasattr(self, "done"):
                self.done = True
                return [self.rig.hub.unplug]
            if prompt.kind == "hub":
                return [self.rig.hub.replug]
            return super().respond(prompt)

    t = table(Unplugs)
    registry = Registry(tmp_path / "registry2.json")
    result = t.enrolment(registry, hub_timeout=0.4).run([T("club-7")])
    assert result.complete
    assert t.kinds() == ["put", "hub", "put", "accepted", "done"]  # asked again once it is back


def test_the_prompts_are_shown_on_the_seat_displays(tmp_path, table):
    t = table()
    displays = {side: Display(side, {"driver": "dummy"}) for side in "NS"}
    shown = DisplayPrompts(displays, "fr")
    seen: list[bytes] = []

    def look(prompt: Prompt) -> None:
        seen.append(displays["N"].device.image.tobytes())

    registry = almost_full(tmp_path / "registry.json", ("diamond-4",))
    t.enrolment(registry, listeners=[shown, look]).run()
    done = Canvas()
    draw_enrol(done, "done", Catalogue.load("fr"), square="NW", enrolled=50)
    for side in "NS":
        assert displays[side].device.image.tobytes() == done.image.tobytes()
    put = Canvas()
    draw_enrol(put, "put", Catalogue.load("fr"), square="NW", tile=T("diamond-4"), enrolled=49)
    assert seen[0] == put.image.tobytes() != done.image.tobytes()
    assert any(text == "◆4 → NW" for text, _, _ in put.texts)
    assert ("Étiquettes" in [text for text, _, _ in done.texts]) and any(done.image.getdata())


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_enrolment_screen_fits_in_every_language(lang):
    for kind in PROMPTS:
        canvas = Canvas()
        draw_enrol(
            canvas,
            kind,
            Catalogue.load(lang),
            square="NE",
            tile=T("spade-10"),
            other=T("heart-10"),
            enrolled=49,
        )
        assert not canvas.overflow, (kind, canvas.overflow)
        assert any(canvas.image.getdata())


def test_redo_gives_a_tile_its_new_tag_and_forgets_the_old(tmp_path, capsys):
    registry = Registry(tmp_path / "registry.json", dict(sim_registry().items()))
    old = tag_uid(4000)  # star-3's sticker before it was replaced
    registry.enrol(old, T("star-3"))
    registry.save()
    code, out, _ = run_cli(
        capsys, "enroll", "--sim", "--state-dir", str(tmp_path), "--redo", "star-3"
    )
    assert code == 0
    assert f"star-3 is tag {SIM_TAGS['star-3']} (it had {old} before)" in out
    assert registry_file(tmp_path) == SIM_TAGS
    assert old not in Registry.load(tmp_path / "registry.json")


def test_list_prints_every_tile_and_its_tag(tmp_path, capsys):
    almost_full(tmp_path / "registry.json", ("star-2", "spade-1"))
    code, out, _ = run_cli(capsys, "enroll", "--list", "--state-dir", str(tmp_path))
    lines = out.splitlines()
    assert code == 0 and len(lines) == 51
    assert lines[0] == f"star-1     {SIM_TAGS['star-1']}"
    assert lines[1] == "star-2     -"
    assert lines[-1] == "48/50 tiles enrolled"


@pytest.mark.parametrize(
    ("args", "setup", "message"),
    [
        (["--redo", "star-11"], None, "--redo: 'star-11' is not a tile"),
        ([], "{", "the tile registry {r} is not valid JSON (line 1"),
        ([], '{"04000000000001": "star-1", "04000000000002": "star-1"}', "gives star-1 two tags"),
    ],
)
def test_user_errors_are_one_sentence_exit_2(tmp_path, capsys, args, setup, message):
    if setup is not None:
        (tmp_path / "registry.json").write_text(setup)
    code, out, err = run_cli(capsys, "enroll", "--sim", "--state-dir", str(tmp_path), *args)
    assert (code, out) == (2, "")
    assert err.startswith("setup-companion: ") and err.count("\n") == 1
    assert message.format(r=tmp_path / "registry.json") in err
