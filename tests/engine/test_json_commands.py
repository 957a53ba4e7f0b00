"""`setup-companion score` and `game`: one JSON answer per input line, in order, never a crash."""

import json
import subprocess
import sys

import pytest

from engine.notation import game_json, score_json

OFFICIAL = {
    "players": ["N", "E"],
    "active": "N",
    "board": {"NE": ["star-4"], "S1": ["spade-5"], "E2": ["club-5"], "N2": ["heart-3"]},
    "place": [["N1", "star-3"], ["SE", "star-5"]],
}


def run_cli(command: str, lines: list[str]) -> list[dict]:
    proc = subprocess.run(
        [sys.executable, "-m", "companion.cli", command],
        input="\n".join(lines) + "\n",
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    return [json.loads(line) for line in proc.stdout.splitlines()]


def test_score_cli_answers_every_line_in_order():
    lines = [
        json.dumps(OFFICIAL),
        "{not json",
        "",
        json.dumps({**OFFICIAL, "place": [["N1", "star-33"]]}),
        json.dumps({**OFFICIAL, "place": [["Q9", "star-3"]]}),
        json.dumps([1, 2]),
        json.dumps({**OFFICIAL, "active": "S"}),
        json.dumps(OFFICIAL),
    ]
    out = run_cli("score", lines)
    assert len(out) == len(lines)
    assert out[0] == {
        "legal": True,
        "points": 6,
        "bonus": {"E": 1},
        "scored": ["club-5", "heart-3", "spade-5", "star-3", "star-4", "star-5"],
    }
    assert [o.get("error") for o in out[1:7]] == [
        "bad-input",
        "bad-input",
        "bad-tile",
        "unknown-square",
        "bad-input",
        "bad-input",
    ]
    assert all(o["legal"] is False and o["message"] for o in out[1:7])
    assert out[7] == out[0]


@pytest.mark.parametrize(
    "change, code",
    [
        ({"place": [["E1", "star-5"]]}, "forbidden-square"),
        ({"place": [["NW", "star-4"]]}, "tile-on-board"),
        ({"place": [["NW", "star-5"], ["SW", "star-5"]]}, "duplicate-tile"),
        ({"place": [["NW", f"heart-{r}"] for r in range(1, 10)]}, "too-many-tiles"),
        ({"place": [["NW", "heart-9"]]}, "not-one-set"),
        ({"board": {"NE": ["star-4"], "NW": ["star-4"]}}, "duplicate-tile"),
        ({"board": {"XX": ["star-4"]}}, "unknown-square"),
        ({"options": {"own_bonuses": True}}, "bad-input"),
        ({"options": {"adjacency": "hex"}}, "bad-input"),
        ({"teams": [["N"], ["E"]]}, "bad-input"),
        ({"players": "NE"}, "bad-input"),
    ],
)
def test_score_errors(change, code):
    out = score_json({**OFFICIAL, **change})
    assert out["legal"] is False and out["error"] == code, out


def test_score_with_options_and_teams():
    position = {
        "players": ["N", "E", "S", "W"],
        "teams": [["N", "S"], ["E", "W"]],
        "active": "N",
        "board": {"SE": ["star-4"]},
        "place": [["S1", "star-5"]],
        "options": {"partner_squares": True},
    }
    assert score_json(position) == {
        "legal": True,
        "points": 2,
        "bonus": {"S": 1},
        "scored": ["star-4", "star-5"],
    }
    assert score_json({**position, "options": {}})["error"] == "forbidden-square"


def test_game_cli_plays_whole_games():
    game = {
        "players": ["S", "N"],
        "board": {"NW": ["star-1"], "NE": ["heart-1"], "SW": ["club-1"], "SE": ["spade-1"]},
        "turns": [
            {"place": [["S1", "diamond-1"]]},  # joins the four 1s (S1-SE-NE-NW-SW): 5 points
            {"place": [["S2", "star-2"]]},  # N may not use S's square: illegal, N again
            {"swap": True},
            {"place": [["NE", "heart-2"]]},  # covers heart-1 and touches no 2 or heart: no set
            {"return_covered": True},
        ],
    }
    out = run_cli("game", [json.dumps(game), "nonsense", json.dumps({"players": ["N"]})])
    assert len(out) == 3
    first = out[0]
    turns = first["turns"]
    assert turns[0] == {
        "player": "S",
        "legal": True,
        "points": 5,
        "bonus": {},
        "scored": ["club-1", "diamond-1", "heart-1", "spade-1", "star-1"],
    }
    assert (
        turns[1]["legal"] is False
        and turns[1]["error"] == "forbidden-square"
        and turns[1]["player"] == "N"
    )
    assert turns[2] == {"player": "N", "legal": True, "swap": True}
    assert (
        turns[3]["player"] == "S"
        and turns[3]["legal"] is False
        and turns[3]["error"] == "not-one-set"
    )
    assert turns[4]["return_covered"] is True and turns[4]["returned"] == 0
    assert (
        first["scores"] == {"S": 5, "N": 0}
        and first["finished"] is False
        and first["winner"] is None
    )
    assert out[1]["error"] == "bad-input" and out[2]["error"] == "bad-input"


def test_team_game_to_the_end_then_turns_are_ignored():
    from engine import Game
    from tests.engine.test_game import lay_run

    # Record a real team game where everyone lays a run of 4 on the common squares.
    game = Game(["E", "W", "N", "S"], teams=[["E", "N"], ["W", "S"]])
    turns = []
    while not game.finished:
        before = len(game.moves)
        lay_run(game)
        for move in game.moves[before:]:
            if move.kind == "place":
                turns.append({"place": move.scoring.placed.to_json()})
            else:
                turns.append({"return_covered": True})
    turns += [{"swap": True}, {"place": [["NW", "star-9"]]}]
    out = game_json(
        {"players": ["E", "W", "N", "S"], "teams": [["E", "N"], ["W", "S"]], "turns": turns}
    )
    # E reaches 24 first; W, N and S share last place at 20, so the first piece decides: E's team.
    assert out["scores"] == {"E": 24, "W": 20, "N": 20, "S": 20}
    assert out["finished"] is True and out["winner_team"] == 0 and "winner" not in out
    assert out["turns"][-2:] == [{"ignored": True, "reason": "game-over"}] * 2
