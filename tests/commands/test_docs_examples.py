"""The examples of docs/engine-json.md, given to the commands they document, get the answers
the page shows."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
PAGE = REPO / "docs/engine-json.md"


def blocks() -> list[dict]:
    return [json.loads(b) for b in re.findall(r"```json\n(.*?)```", PAGE.read_text(), re.S)]


def answer(command: str, position: dict) -> dict:
    done = subprocess.run(
        [sys.executable, "-m", "companion.cli", command],
        input=json.dumps(position) + "\n",
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.mark.parametrize(
    ("command", "given", "shown"), [("score", 0, 1), ("game", 3, 4)], ids=["score", "game"]
)
def test_each_example_gets_the_answer_the_page_shows(command, given, shown):
    examples = blocks()
    assert answer(command, examples[given]) == examples[shown]


def test_the_four_player_variant_of_the_first_example_gives_the_partner_its_bonus():
    position = {
        **blocks()[0],
        "players": ["N", "E", "S", "W"],
        "teams": [["N", "S"], ["E", "W"]],
    }
    assert answer("score", position)["bonus"] == {"E": 1, "S": 1}
