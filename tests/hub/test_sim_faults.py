"""The readers' fault model: all zero is the truth, each fault shows at its rate, seeded."""

from __future__ import annotations

import math
import random
from collections import Counter
from itertools import groupby

import pytest

from hardware.hub.protocol import COLLISION, FAULT
from hardware.hub.sim import FaultModel, FaultyReaders, SimTable, line_neighbours, tag_uid
from hardware.hub.snapshot import EMPTY, ReaderReading

A, B, C, D = (tag_uid(n) for n in range(1, 5))


def readers(faults: FaultModel, seed: int = 0, **kw: object) -> FaultyReaders:
    return FaultyReaders(12, faults, random.Random(seed), **kw)


def stacks(**on: tuple[str, ...]) -> tuple[tuple[str, ...], ...]:
    """Stacks by reader: stacks(r0=(A,), r8=(B, C))."""
    return tuple(on.get(f"r{r}", ()) for r in range(12))


def near(observed: int, trials: int, rate: float) -> bool:
    """Within 4.5 standard deviations of the binomial: fails only when the rate is wrong."""
    sd = math.sqrt(trials * rate * (1 - rate))
    return abs(observed - trials * rate) <= 4.5 * sd + 1


def random_play(rng: random.Random, table: SimTable, steps: int) -> None:
    """Put, lift and remove items at random, stacks included."""
    on_table = [u for s in table.stacks for u in s]
    for _ in range(steps):
        roll = rng.random()
        if roll < 0.5 or not on_table:
            uid = tag_uid(rng.randrange(10**6), rng.choice((4, 7, 10)))
            if table.where(uid) is None:
                table.put(rng.randrange(12), uid)
                on_table.append(uid)
        elif roll < 0.8:
            reader = table.where(rng.choice(on_table))
            on_table.remove(table.lift(reader))
        else:
            uid = rng.choice(on_table)
            table.remove(uid)
            on_table.remove(uid)


@pytest.mark.parametrize("seed", range(5))
def test_all_rates_zero_is_the_ground_truth_exactly(seed: int) -> None:
    rng = random.Random(seed)
    table = SimTable()
    model = readers(FaultModel(), seed)
    for _ in range(300):
        random_play(rng, table, rng.randrange(3))
        truth = table.stacks
        assert model.sweep(truth) == tuple(ReaderReading("ok", s) if s else EMPTY for s in truth)


def play_realistic(seed: int) -> list[tuple[ReaderReading, ...]]:
    rng = random.Random(99)  # the same table moves every time; only the fault seed varies
    table = SimTable()
    model = readers(FaultModel.realistic(), seed)
    swept = []
    for _ in range(400):
        random_play(rng, table, rng.randrange(3))
        swept.append(model.sweep(table.stacks))
    return swept


def test_a_seed_reproduces_the_faults_and_another_seed_differs() -> None:
    assert play_realistic(7) == play_realistic(7)
    assert play_realistic(7) != play_realistic(8)


def test_misses_start_at_their_rate_and_last_one_to_three_sweeps() -> None:
    model = readers(FaultModel(miss_rate=0.02), seed=3)
    seen = [model.sweep(stacks(r4=(A,)))[4] for _ in range(40_000)]
    assert set(seen) == {ReaderReading("ok", (A,)), EMPTY}
    runs = Counter(len(list(g)) for missed, g in groupby(r == EMPTY for r in seen) if missed)
    episodes = sum(runs.values())
    # a new miss may start right after one ends and merge with it: rare at this rate
    assert sum(n for length, n in runs.items() if length > 3) < 0.05 * episodes
    could_start = seen.count(ReaderReading("ok", (A,))) + episodes
    assert near(episodes, could_start, 0.02)
    for length in (1, 2, 3):
        assert near(runs[length], episodes, 1 / 3)


def test_a_missed_tag_in_a_stack_leaves_the_others_readable() -> None:
    model = readers(FaultModel(miss_rate=0.2), seed=4)
    reported = Counter(model.sweep(stacks(r0=(A, B)))[0] for _ in range(5000))
    assert set(reported) == {
        ReaderReading("ok", (A, B)),
        ReaderReading("ok", (A,)),
        ReaderReading("ok", (B,)),
        EMPTY,
    }


def test_stack_outcomes_appear_at_their_rates() -> None:
    faults = FaultModel(stack_collision=0.2, stack_bottom_only=0.3, stack_nothing=0.1)
    model = readers(faults, seed=5)
    n = 20_000
    outcomes = Counter(model.sweep(stacks(r2=(A, B, C), r3=(D,)))[2] for _ in range(n))
    assert near(outcomes[COLLISION], n, 0.2)
    assert near(outcomes[ReaderReading("ok", (A,))], n, 0.3)
    assert near(outcomes[EMPTY], n, 0.1)
    assert near(outcomes[ReaderReading("ok", (A, B, C))], n, 0.4)
    assert len(outcomes) == 4


def test_covered_and_top_tags_are_unreadable_at_their_rates() -> None:
    model = readers(FaultModel(covered_unreadable=0.7, top_unreadable=0.25), seed=6)
    n = 20_000
    reads = Counter()
    for _ in range(n):
        reads.update(model.sweep(stacks(r7=(A, B, C)))[7].uids)
    assert near(reads[A], n, 0.3)
    assert near(reads[B], n, 0.3)
    assert near(reads[C], n, 0.75)


def test_a_single_tile_is_never_subject_to_the_stack_rules() -> None:
    faults = FaultModel(stack_nothing=1.0, covered_unreadable=1.0, top_unreadable=1.0)
    model = readers(faults, seed=6)
    assert all(model.sweep(stacks(r1=(A,)))[1] == ReaderReading("ok", (A,)) for _ in range(200))


def test_a_tile_put_on_a_stack_is_seen_while_it_settles() -> None:
    model = readers(FaultModel(top_unreadable=1.0, settle_sweeps=2), seed=7)
    assert model.sweep(stacks(r5=(A,)))[5] == ReaderReading("ok", (A,))
    seen = [model.sweep(stacks(r5=(A, B)))[5] for _ in range(5)]
    assert seen == [ReaderReading("ok", (A, B))] * 2 + [ReaderReading("ok", (A,))] * 3
    # lifted and put back: it settles again; moved from another reader: it settles too
    model.sweep(stacks(r5=(A,), r6=(B,)))
    seen = [model.sweep(stacks(r5=(A, B)))[5] for _ in range(3)]
    assert seen == [ReaderReading("ok", (A, B))] * 2 + [ReaderReading("ok", (A,))]


def test_while_settling_the_stack_below_keeps_its_own_rules() -> None:
    model = readers(FaultModel(stack_collision=1.0, settle_sweeps=3), seed=8)
    model.sweep(stacks(r0=(A, B)))
    model.sweep(stacks(r0=(A, B)))
    seen = [model.sweep(stacks(r0=(A, B, C)))[0] for _ in range(4)]
    assert seen == [ReaderReading("ok", (C,))] * 3 + [COLLISION]


HOME = ((0, A), (1, B))


def test_crosstalk_reaches_only_neighbours_at_its_rate() -> None:
    neighbours = {0: (1, 3), 1: (0,), 3: (0,)}
    model = readers(FaultModel(crosstalk_rate=0.1), seed=9, neighbours=neighbours)
    n = 20_000
    ghosts: Counter[tuple[int, str]] = Counter()
    for _ in range(n):
        swept = model.sweep(stacks(r0=(A,), r1=(B,)))
        assert swept[0].uids[0] == A and swept[1].uids[0] == B
        for reader, reading in enumerate(swept):
            ghosts.update((reader, uid) for uid in reading.uids if (reader, uid) not in HOME)
    assert set(ghosts) == {(1, A), (3, A), (0, B)}
    assert near(ghosts[(1, A)] + ghosts[(3, A)], n, 0.1)
    assert near(ghosts[(1, A)], ghosts[(1, A)] + ghosts[(3, A)], 0.5)
    assert near(ghosts[(0, B)], n, 0.1)


def test_crosstalk_never_turns_a_fault_or_collision_into_a_reading() -> None:
    faults = FaultModel(crosstalk_rate=1.0, stack_collision=1.0, faulty_readers={2})
    model = readers(faults, seed=10)
    swept = model.sweep(stacks(r1=(A,), r3=(B, C)))
    assert swept[2] == FAULT
    assert swept[3] == COLLISION
    assert swept[0] == ReaderReading("ok", (A,))


def test_faulty_readers_report_fault_whatever_lies_on_them() -> None:
    model = readers(FaultModel(faulty_readers={0, 11}))
    swept = model.sweep(stacks(r0=(A,), r1=(B,)))
    assert swept[0] == FAULT and swept[11] == FAULT
    assert swept[1] == ReaderReading("ok", (B,))


def test_line_neighbours_are_the_readers_next_in_number() -> None:
    assert line_neighbours(4) == {0: (1,), 1: (0, 2), 2: (1, 3), 3: (2,)}


@pytest.mark.parametrize(
    "bad",
    [
        {"miss_rate": 1.5},
        {"crosstalk_rate": -0.1},
        {"stack_collision": 0.6, "stack_nothing": 0.6},
        {"miss_sweeps": (0, 3)},
        {"miss_sweeps": (3, 1)},
        {"settle_sweeps": -1},
    ],
)
def test_impossible_fault_models_are_refused(bad: dict) -> None:
    with pytest.raises(ValueError):
        FaultModel(**bad)


def test_realistic_faults_are_all_switched_on() -> None:
    real = FaultModel.realistic()
    assert all(
        getattr(real, name) > 0
        for name in (
            "miss_rate",
            "covered_unreadable",
            "top_unreadable",
            "stack_collision",
            "stack_bottom_only",
            "stack_nothing",
            "settle_sweeps",
            "crosstalk_rate",
            "corrupt_rate",
        )
    )


def test_neighbours_outside_the_table_are_refused() -> None:
    with pytest.raises(ValueError):
        readers(FaultModel(), neighbours={0: (12,)})
