"""The archive of finished games stays bounded: after each game the oldest beyond
`paths.keep_games` are deleted with their charts; damaged journals are kept; a chart can be
drawn again from a kept journal."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from companion.config import ConfigError, load_config
from companion.game.archive import chart_path, prune
from companion.game.history import archives
from companion.game.journal import Journal
from companion.show.chart import redraw
from tests.helpers import Rig


def play_one(rig: Rig) -> Path:
    """A game of S and N (one swap), its chart drawn as the daemon draws it when a game is
    over, then closed by a new lobby (which archives it); the chart."""
    rig.start("S", "N")
    rig.press("S")  # a swap, once the readings after the press show nothing new
    rig.sweep(10)
    assert [move.kind for move in rig.table.game.moves] == ["swap"]
    chart = chart_path(rig.journal.path)
    chart.write_bytes(b"\x89PNG")
    # what the short press after a game's end does (a whole game to its end is for tests/e2e):
    # the journal is archived, the oldest games pruned
    rig.table._new_game(rig.now)
    assert rig.table.phase == "lobby"
    return chart


def numbers(journal: Path) -> list[int]:
    return [int(path.stem.rpartition("-")[2]) for path in archives(journal)]


def table(tmp_path: Path) -> Rig:
    rig = Rig(tmp_path)
    rig.setup(
        {"NW": ["star-3"], "NE": ["heart-5"], "SW": ["club-1"], "SE": ["diamond-9"]}
    )  # the board every game starts from
    rig.sweep(5)
    return rig


def test_after_each_game_only_the_newest_are_kept(tmp_path):
    rig = table(tmp_path)
    rig.table.config = replace(rig.config, paths=replace(rig.config.paths, keep_games=3))
    charts = [play_one(rig) for _ in range(6)]
    assert numbers(rig.journal.path) == [4, 5, 6]  # numbers never reused
    # these six games started alike, so they share one chart name: a kept game keeps it
    assert len(set(charts)) == 1 and charts[0].exists()


def test_the_oldest_go_with_their_charts(tmp_path):
    journal = tmp_path / "journal.jsonl"
    charts = []
    for n in range(1, 6):
        path = tmp_path / f"journal-{n}.jsonl"
        path.write_text(f'{{"type": "start", "game": {n}}}\n')
        charts.append(chart_path(path))
        charts[-1].write_bytes(b"\x89PNG")
    deleted = prune(journal, 2)
    assert numbers(journal) == [4, 5]
    assert [c.exists() for c in charts] == [False, False, False, True, True]
    assert len(deleted) == 6


def test_damaged_journals_are_never_pruned(tmp_path):
    journal = tmp_path / "journal.jsonl"
    for n in range(1, 4):
        (tmp_path / f"journal-{n}.jsonl").write_text("{}\n")
    (tmp_path / "journal-damaged-1.jsonl").write_text("x\n")
    prune(journal, 1)
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "journal-3.jsonl",
        "journal-damaged-1.jsonl",
    ]


def test_a_chart_is_drawn_again_from_its_journal(tmp_path):
    rig = table(tmp_path)
    play_one(rig).unlink()
    kept = archives(rig.journal.path)[-1]
    drawn = redraw(kept)
    assert drawn == chart_path(kept) and drawn.read_bytes().startswith(b"\x89PNG")
    assert Journal(kept).records()[-1]["type"] == "new"


@pytest.mark.parametrize("value", [0, 2.5, "ten"])
def test_keep_games_is_a_whole_number_of_at_least_one(tmp_path, value):
    path = tmp_path / "config.toml"
    path.write_text(f"[paths]\nkeep_games = {value!r}\n".replace("'", '"'))
    with pytest.raises(ConfigError, match="paths.keep_games must be"):
        load_config(path)
