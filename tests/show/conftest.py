"""The family's table (tests/show/table.py) for the menu and enrolment tests."""

from __future__ import annotations

import pytest

from tests.show.table import FamilyTable


@pytest.fixture
def make(tmp_path):
    """Makes the table on `tmp_path/state` (again after a power cut: the same state dir)."""
    made: list[FamilyTable] = []

    def make_table(**kwargs) -> FamilyTable:
        table = FamilyTable(tmp_path / "state", **kwargs)
        made.append(table)
        return table

    yield make_table
    for table in made:
        table.close()
