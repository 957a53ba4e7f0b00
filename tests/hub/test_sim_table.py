"""The simulated table: the ground truth of which tagged item lies where."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from hardware.hub.sim import SimTable, tag_uid

A, B, C = tag_uid(1), tag_uid(2, 4), tag_uid(3, 10)


def test_uids_are_well_formed_and_distinct() -> None:
    assert tag_uid(1) == "04000000000001"
    assert tag_uid(255, 4) == "000000FF"
    assert tag_uid(3, 10) == "04" + "0" * 17 + "3"
    assert len({tag_uid(n) for n in range(1000)}) == 1000
    with pytest.raises(ValueError):
        tag_uid(1, 5)
    with pytest.raises(ValueError):
        tag_uid(1 << 32, 4)


def test_put_stacks_bottom_first_and_lift_takes_the_top() -> None:
    table = SimTable()
    table.put(3, A)
    table.put(3, B)
    table.put(0, C)
    assert table.stacks[3] == (A, B)
    assert table.stacks[0] == (C,)
    assert len(table.stacks) == 12
    assert table.where(B) == 3
    assert table.lift(3) == B
    assert table.where(B) is None
    assert table.stacks[3] == (A,)


def test_remove_takes_an_item_out_from_under_a_stack() -> None:
    table = SimTable(readers=4)
    for uid in (A, B, C):
        table.put(2, uid)
    assert table.remove(B) == 2
    assert table.stacks == ((), (), (A, C), ())
    table.clear()
    assert table.stacks == ((), (), (), ())


@pytest.mark.parametrize(
    "misuse",
    [
        lambda t: t.put(12, A),
        lambda t: t.put(-1, A),
        lambda t: t.put(0, "04a1b2c3"),
        lambda t: t.put(0, "0102"),
        lambda t: t.lift(5),
        lambda t: t.remove(C),
        lambda t: t.put(1, A),  # already on reader 0
    ],
)
def test_impossible_moves_are_refused(misuse: Callable[[SimTable], object]) -> None:
    table = SimTable()
    table.put(0, A)
    with pytest.raises(ValueError):
        misuse(table)
    assert table.stacks[0] == (A,)


def test_a_table_has_readers() -> None:
    with pytest.raises(ValueError):
        SimTable(readers=0)
