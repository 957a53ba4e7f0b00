"""Fixtures of the fault suite: the whole daemon on the simulated table."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest

from tests.faults.harness import Table
from tests.faults.process import Daemon


@pytest.fixture
def make_table(tmp_path) -> Iterator[Callable[..., Table]]:
    made: list[Table] = []

    def make(**kwargs) -> Table:
        table = Table(tmp_path / f"state{len(made)}", **kwargs)
        made.append(table)
        return table

    yield make
    for table in made:
        table.close()


@pytest.fixture
def table(make_table) -> Table:
    """A game of S and N just started (resumed from its journal), zero reader faults."""
    return make_table()


@pytest.fixture
def start_daemon() -> Iterator[Callable[..., Daemon]]:
    """Starts `setup-companion run` with the given arguments; all are ended afterwards."""
    started: list[Daemon] = []

    def start(*args: str, **options) -> Daemon:
        daemon = Daemon(*args, **options)
        started.append(daemon)
        return daemon

    yield start
    for daemon in started:
        daemon.remove()
