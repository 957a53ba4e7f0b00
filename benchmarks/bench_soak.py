"""The soak of issue 25 (`benchmarks/soak.py`): for each class of reader physics, 500 whole
games at 100 random tables of the REPORT set (never the TUNE set the daemon is tuned on),
random families at them, every turn checked against what was really laid.

The promises, per class: no silent misscore, no stuck game, at most 2 false alarms a game
(problem episodes beginning on a physically fine table); on the "clean" class (readers that
see every tile, tall stacks excepted) a press is scored within 0.3 s at p50 and 1.0 s at
p99. The figures before issue 25 (main 5850cfd) are in docs/daemon.md and
notes/issue-25-sim.md. `make bench BENCH=soak` runs this alone (about half an hour on two
free cores: it says how long it took).
"""

from __future__ import annotations

from benchmarks.figure import Figure, percentile
from benchmarks.soak import REPORT, ClassResult, report
from companion.board.tracker import TALL_STACK
from companion.sim.family import answer_questions

TABLES = 100
GAMES = 5  # per table
#: how the families answer what the displays ask (companion.sim.family: the hook)
ANSWER = answer_questions
#: press to turn scored, where the readers can see (the "clean" class)
FAST_P50, FAST_P99 = 0.3, 1.0


def figures(name: str, result: ClassResult) -> list[Figure]:
    games = max(result.games, 1)
    ends = result.press_to_end or [0.0]
    places = result.press_to_place or [0.0]
    lows = result.press_to_low or [0.0]
    fast = name == "clean"
    return [
        Figure(f"soak {name}: games exact", result.exact, f"of {games}", games, higher=True),
        Figure(f"soak {name}: silent misscores", result.misscores, "games", 0),
        Figure(
            f"soak {name}: ... of a tile no reader ever reported (only a question catches it)",
            result.unseen,
            "games",
        ),
        Figure(f"soak {name}: stuck games", result.stuck, "games", 0),
        Figure(f"soak {name}: corrections announced", result.announced, "turns"),
        Figure(f"soak {name}: questions asked", result.questions / games, "per game"),
        Figure(f"soak {name}: false alarms", result.false_alarms / games, "per game", 2.0),
        Figure(f"soak {name}: problem episodes", result.episodes / games, "per game"),
        Figure(f"soak {name}: problem sounds", result.problem_sounds / games, "per game"),
        Figure(f"soak {name}: games stopped after 250 turns", result.unfinished, "games"),
        Figure(f"soak {name}: turns scored", result.turns, "turns"),
        Figure(
            f"soak {name}: press to turn scored p50",
            percentile(ends, 50),
            "s",
            FAST_P50 if fast else None,
        ),
        Figure(
            f"soak {name}: press to turn scored p99",
            percentile(ends, 99),
            "s",
            FAST_P99 if fast else None,
        ),
        Figure(f"soak {name}: press to placement scored p50", percentile(places, 50), "s"),
        Figure(f"soak {name}: press to placement scored p99", percentile(places, 99), "s"),
        Figure(
            f"soak {name}: ... on stacks below {TALL_STACK} (tall stacks excepted) p50",
            percentile(lows, 50),
            "s",
            FAST_P50 if fast else None,
        ),
        Figure(
            f"soak {name}: ... on stacks below {TALL_STACK} (tall stacks excepted) p99",
            percentile(lows, 99),
            "s",
            FAST_P99 if fast else None,
        ),
        Figure(
            f"soak {name}: last tile to correct preview p50",
            percentile(result.to_preview or [0.0], 50),
            "s",
        ),
        Figure(f"soak {name}: wall time", result.wall_seconds, "s"),
    ]


def run() -> list[Figure]:
    results = report(seed_set=REPORT, tables=TABLES, games=GAMES, answer=ANSWER)
    out: list[Figure] = []
    for name, result in results.items():
        out += figures(name, result)
    return out
