"""The soak's reader physics: perfect readers are the truth; each mechanism shows at its
rate, per square; a seed gives the same readings; the classes draw tables within their
ranges, every square its own, and a table's repr builds it again."""

from __future__ import annotations

import math
import random
from collections import Counter

import pytest

from hardware.hub import sim_physics
from hardware.hub.protocol import COLLISION, MAX_LINE_V1
from hardware.hub.sim import tag_uid
from hardware.hub.sim_classes import CLASSES, PhysicsClass, Range
from hardware.hub.sim_physics import Crosstalk, PhysicalReaders, ReaderPhysics, TablePhysics
from hardware.hub.snapshot import EMPTY, ReaderReading

UIDS = [tag_uid(n) for n in range(1, 40)]
#: a 4x4 grid without corners, as the board's: readers next to each other across an edge or
#: a corner (hardware knows no board; the caller gives this map)
GRID = [
    (0, 1),
    (0, 2),
    (1, 3),
    (2, 3),
    (3, 2),
    (3, 1),
    (2, 0),
    (1, 0),
    (1, 1),
    (1, 2),
    (2, 1),
    (2, 2),
]
NEIGHBOURS = {
    i: tuple(
        j for j, b in enumerate(GRID) if j != i and max(abs(a[0] - b[0]), abs(a[1] - b[1])) == 1
    )
    for i, a in enumerate(GRID)
}


def table(reader: ReaderPhysics | None = None, **on: ReaderPhysics) -> TablePhysics:
    """Perfect readers, but `reader` everywhere and `r<n>=` on reader n."""
    base = reader or ReaderPhysics()
    return TablePhysics(tuple(on.get(f"r{r}", base) for r in range(12)))


def stacks(**on: tuple[str, ...]) -> tuple[tuple[str, ...], ...]:
    return tuple(on.get(f"r{r}", ()) for r in range(12))


def near(observed: int, trials: int, rate: float) -> bool:
    """Within 4.5 standard deviations of the binomial: fails only when the rate is wrong."""
    sd = math.sqrt(trials * rate * (1 - rate))
    return abs(observed - trials * rate) <= 4.5 * sd + 1


def run(readers: PhysicalReaders, truth, sweeps: int, dt: float = 0.1, start: float = 0.0):
    return [readers.sweep(truth, None, start + dt * (n + 1)) for n in range(sweeps)]


def test_perfect_readers_report_the_truth_in_the_order_anticollision_gives():
    truth = stacks(r0=(UIDS[3], UIDS[1]), r5=(UIDS[2],))
    readers = PhysicalReaders(TablePhysics.perfect(), random.Random(1))
    (reading,) = {r for r in run(readers, truth, 50)}
    assert reading[0] == ReaderReading("ok", (UIDS[1], UIDS[3]))  # by UID, not bottom first
    assert reading[5] == ReaderReading("ok", (UIDS[2],))
    assert all(r == EMPTY for n, r in enumerate(reading) if n not in (0, 5))
    assert readers.delivered() and readers.interval() == 0.1


def test_the_same_seed_gives_the_same_readings_and_another_seed_others():
    physics = CLASSES["everything"].draw(random.Random("t"), NEIGHBOURS)
    truth = stacks(r8=tuple(UIDS[:6]), r9=(UIDS[7],), r10=tuple(UIDS[10:13]))

    def sweeps(seed: int) -> list:
        readers = PhysicalReaders(physics, random.Random(seed))
        return [(readers.interval(), readers.delivered(), r) for r in run(readers, truth, 300)]

    assert sweeps(5) == sweeps(5)
    assert sweeps(5) != sweeps(6)


def test_each_tile_up_is_seen_less_as_its_square_says():
    """The bottom tile `near`, the second `keep` times that, each further one `deep` times
    the one below: from barely less to almost never for the third tile up."""
    physics = ReaderPhysics(near=0.95, keep=0.6, deep=0.1)
    readers = PhysicalReaders(table(physics), random.Random(2))
    truth = stacks(r3=tuple(UIDS[:4]))
    seen = Counter(uid for r in run(readers, truth, 4000) for uid in r[3].uids)
    for height in range(4):
        assert near(seen[UIDS[height]], 4000, physics.answers(height)), (height, seen)
    assert physics.answers(2) == pytest.approx(0.95 * 0.6 * 0.1)


def test_tags_answering_together_collide_as_often_as_the_square_says():
    physics = ReaderPhysics(collide=0.3)
    readers = PhysicalReaders(table(physics), random.Random(3))
    two, three = stacks(r1=tuple(UIDS[:2])), stacks(r1=tuple(UIDS[:3]))
    assert near(sum(r[1] == COLLISION for r in run(readers, two, 3000)), 3000, 0.3)
    collided = sum(r[1] == COLLISION for r in run(readers, three, 3000))
    assert near(collided, 3000, 1 - 0.7**2)


def test_a_tall_stack_reads_as_nothing_or_a_collision_most_of_the_time():
    physics = ReaderPhysics(tall=5, tall_nothing=0.5, tall_collision=0.4)
    readers = PhysicalReaders(table(physics), random.Random(4))
    four = Counter(r[2].status for r in run(readers, stacks(r2=tuple(UIDS[:4])), 2000))
    assert four == {"ok": 2000}  # four is not tall here
    five = Counter(r[2].status for r in run(readers, stacks(r2=tuple(UIDS[:5])), 4000))
    assert near(five["empty"], 4000, 0.5) and near(five["collision"], 4000, 0.4)


def test_a_reader_falls_silent_after_its_stack_changed_for_as_long_as_it_says():
    """A single tile too: silent, it reads nothing; the silence ends by itself, or when the
    stack changes again (and a change may start another)."""
    physics = ReaderPhysics(silent_after_change=1.0, silent_seconds=(2.0, 3.0))
    readers = PhysicalReaders(table(physics), random.Random(5))
    truth = stacks(r4=(UIDS[0],))
    readings = [r[4] for r in run(readers, truth, 60)]
    quiet = [r == EMPTY for r in readings]
    assert quiet[:19] == [True] * 19 and quiet[30:] == [False] * 30  # 2 to 3 s of 0.1 s
    assert readers.silent == frozenset()
    readers.touch(4, 6.05)  # a hand straightens it: a change, and it falls silent again
    assert readers.sweep(truth, None, 6.1)[4] == EMPTY and readers.silent == {4}


def test_a_reader_that_falls_silent_after_a_change_reads_the_change_first():
    physics = ReaderPhysics(silent_after_change=1.0, silent_delay=1.0, silent_seconds=(5, 5))
    readers = PhysicalReaders(table(physics), random.Random(11))
    readings = [r[4] for r in run(readers, stacks(r4=(UIDS[0],)), 40)]
    answered = [r != EMPTY for r in readings]
    assert answered[:2] == [True, True] and answered[10:] == [False] * 30  # 0.3 to 1 s


def test_a_reader_falls_silent_by_itself_now_and_then_whatever_lies_there():
    physics = ReaderPhysics(silent_per_minute=6.0, silent_seconds=(1.0, 1.0))
    readers = PhysicalReaders(table(physics), random.Random(6))
    truth = stacks(r0=(UIDS[0],))
    quiet = sum(r[0] == EMPTY for r in run(readers, truth, 6000))  # ten minutes
    # about 60 silences of 1 s (each sweep, 6 a minute while it answers): 8.5 % of sweeps
    assert 300 < quiet < 800, quiet


def test_crosstalk_comes_in_runs_whether_or_not_the_own_reader_saw_the_tile():
    link = Crosstalk(reader=9, share=0.25, run=6.0, strength=1.0)
    own = ReaderPhysics(near=0.5, crosstalk=(link,))
    readers = PhysicalReaders(table(r8=own), random.Random(7))
    truth = stacks(r8=(UIDS[0],))
    readings = run(readers, truth, 6000)
    there = [UIDS[0] in r[9].uids for r in readings]
    assert near(sum(there), 6000, 0.25)  # (strength 1: the neighbour sees it in every run)
    runs = [len(s) for s in "".join("x" if t else " " for t in there).split()]
    assert 4.5 < sum(runs) / len(runs) < 8.0  # runs of about six sweeps
    alone = sum(t and not r[8].uids for t, r in zip(there, readings, strict=True))
    assert near(alone, 6000, 0.25 * 0.5)  # seen next door while missed at home


def test_a_tile_held_over_a_square_is_seen_less_over_a_stack():
    physics = ReaderPhysics(hover=0.8, keep=0.5, deep=0.5)
    readers = PhysicalReaders(table(physics), random.Random(8))
    held = stacks(r1=(UIDS[9],), r2=(UIDS[10],))
    truth = stacks(r2=tuple(UIDS[:3]))
    seen = Counter()
    for n in range(3000):
        for r, reading in enumerate(readers.sweep(truth, held, n * 0.1)):
            seen[r] += UIDS[9 + r - 1] in reading.uids if r in (1, 2) else 0
    assert near(seen[1], 3000, 0.8) and near(seen[2], 3000, 0.8 * 0.5 * 0.5 * 0.5)


def test_sweeps_come_irregularly_and_lines_are_damaged_at_the_tables_rates():
    physics = TablePhysics(
        (ReaderPhysics(),) * 12,
        sweep_seconds=(0.05, 0.15),
        stall=0.1,
        stall_seconds=(1.0, 2.0),
        damaged=0.05,
    )
    readers = PhysicalReaders(physics, random.Random(9))
    gaps = [readers.interval() for _ in range(3000)]
    assert all(0.05 <= g <= 2.15 for g in gaps)
    assert near(sum(g > 0.15 for g in gaps), 3000, 0.1)
    assert near(sum(not readers.delivered() for _ in range(3000)), 3000, 0.05)


def test_a_v1_hub_reports_its_fullest_squares_as_collisions():
    physics = TablePhysics((ReaderPhysics(),) * 12, line=MAX_LINE_V1)
    readers = PhysicalReaders(physics, random.Random(10))
    truth = tuple(tuple(UIDS[3 * r : 3 * r + 3]) for r in range(12))  # 36 tags of 7 bytes
    reading = readers.sweep(truth, None, 0.1)
    assert COLLISION in reading and len(str(" ".join(map(str, reading)))) < MAX_LINE_V1


@pytest.mark.parametrize("name", sorted(CLASSES))
def test_a_class_draws_tables_within_its_ranges_each_square_its_own(name: str):
    physics_class = CLASSES[name]
    tables = [physics_class.draw(random.Random(f"{name}-{n}"), NEIGHBOURS) for n in range(20)]
    for drawn in tables:
        assert eval(repr(drawn), vars(sim_physics)) == drawn  # the repr builds it again
        assert len(drawn.readers) == 12 and drawn.name == name
        for r, reader in enumerate(drawn.readers):
            for knob in ("near", "keep", "deep", "collide", "miss", "hover"):
                rng: Range = getattr(physics_class, knob)
                assert rng.low <= getattr(reader, knob) <= rng.high, (knob, reader)
            assert len(reader.crosstalk) <= 3
            assert all(link.reader in NEIGHBOURS[r] for link in reader.crosstalk)
            assert all(link.share <= 1 / 3 for link in reader.crosstalk)
            low, high = reader.silent_seconds
            assert 1.0 <= low <= high <= 30.0
        assert len(set(drawn.readers)) == 12  # no two squares alike
    # tables differ from each other, and the same seed draws the same table
    assert len({t.readers[0].near for t in tables}) > 1 or physics_class.near.low == 1.0
    assert physics_class.draw(random.Random(f"{name}-3"), NEIGHBOURS) == tables[3]


def test_the_classes_cover_the_issues_list():
    """Read probability falling with depth from barely to near zero for the third tile up;
    tall stacks dark most of the time; silences of 1 to 30 s after a change or by
    themselves; crosstalk to up to three neighbours in runs, up to a third of the sweeps;
    irregular sweeps; damaged lines."""
    everything: PhysicsClass = CLASSES["everything"]
    lowest = everything.near.low * everything.keep.low * everything.deep.low
    highest = everything.near.high * everything.keep.high * everything.deep.high
    assert lowest < 0.01 and highest > 0.95
    assert CLASSES["weak-tall"].tall_dark.low >= 0.6 and everything.tall_dark.high >= 0.95
    assert everything.silent_shortest.low == 1.0 and everything.silent_longest.high == 30.0
    assert CLASSES["silent"].silent_per_minute.low > 0
    assert everything.links.high == 3 and everything.link_share.high == pytest.approx(1 / 3)
    assert everything.link_run.low >= 2
    assert everything.sweep_fastest.low < everything.sweep_slowest.high
    assert everything.stall.high > 0 and everything.damaged.high > 0
    assert set(CLASSES) == {"clean", "weak-tall", "silent", "crosstalk", "everything"}
