"""Whole games on the simulated table with its reader faults on, through the real daemon:
the virtual hub speaks the real protocol on a real pty to the daemon's own HubLink, the
bots press gpiozero mock buttons, and the daemon's scores must equal the rules engine's
scores of what was really played."""

import json

import pytest

from companion.game.journal import Journal
from companion.game.replay import games
from companion.sim.demo import Demo
from hardware.hub.sim import FaultModel


def play(tmp_path, **kwargs):
    lines: list[str] = []
    demo = Demo(journal=tmp_path / "journal.jsonl", out=lines.append, **kwargs)
    link = demo.devices.link
    result = demo.run()
    return result, lines, demo, link


@pytest.mark.parametrize("seed, players, teams", [(1, 2, False), (2, 3, False), (3, 4, True)])
def test_whole_games_score_exactly_like_the_engine(tmp_path, seed, players, teams):
    result, lines, demo, link = play(tmp_path, seed=seed, players=players, teams=teams)
    assert result.matches, lines
    finish = {2: 31, 3: 27, 4: 23}[players]
    assert max(result.scores.values()) >= finish
    # the journal alone rebuilds the same game
    game = games(Journal(tmp_path / "journal.jsonl").records())[-1].game
    assert game.scores == result.scores and game.finished
    # the cable was pulled during one turn and the link came back
    assert any("cable is pulled" in line for line in lines)
    assert link.health.reconnects >= 1


def test_the_same_seed_plays_the_same_game(tmp_path):
    _, first, _, _ = play(tmp_path / "a", seed=7, players=3)
    _, second, _, _ = play(tmp_path / "b", seed=7, players=3)

    def same(lines):  # file paths differ between the two runs
        return [line.split(": /")[0] for line in lines]

    assert same(first) == same(second)
    assert any(line.startswith("score chart:") for line in first)


def test_mistakes_undos_and_the_bag_clean_up_in_a_four_player_game(tmp_path):
    result, lines, _, _ = play(tmp_path, seed=5, players=4)
    assert result.matches
    text = "\n".join(lines)
    assert "not legal (not-one-set)" in text  # an illegal move, explained, then fixed
    assert "takes the turn back" in text  # an undo
    assert "the bag is empty" in text  # the clean-up
    records = Journal(tmp_path / "journal.jsonl").records()
    kinds = [r["type"] for r in records]
    assert "undo" in kinds and "return" in kinds


def test_heavy_crosstalk_and_misses_score_nothing_wrong(tmp_path):
    faults = FaultModel(
        miss_rate=0.1,
        crosstalk_rate=0.15,
        covered_unreadable=0.9,
        top_unreadable=0.5,
        stack_collision=0.3,
        stack_bottom_only=0.2,
        stack_nothing=0.2,
        settle_sweeps=2,
        corrupt_rate=0.02,
    )
    result, lines, _, link = play(tmp_path, seed=11, players=2, faults=faults)
    assert result.matches, lines
    assert link.health.bad_lines > 0  # corrupted lines were seen, dropped and counted


def test_the_journal_records_every_turn_with_its_points(tmp_path):
    result, _, _, _ = play(tmp_path, seed=2, players=2, unplug_turn=None)
    records = Journal(tmp_path / "journal.jsonl").records()
    turns = [r for r in records if r["type"] == "turn"]
    assert records[0]["type"] == "start" and records[-1]["type"] == "end"
    placed = [r for r in turns if r["placed"]]
    assert all(isinstance(r["points"], int) and r["points"] >= 2 for r in placed)
    assert json.loads(json.dumps(records)) == records
