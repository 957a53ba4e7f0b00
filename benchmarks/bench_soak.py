"""Never a silent misscore (issue 15): 280 whole games, seeded, with a family at the simulated
table (`benchmarks.soak`: slides, hovering hands, moves within a turn, slow laying, forgotten
presses, silent and tall stacks), each turn checked against the rules engine's score of what
was really laid; once on an independent v1 hub (a sweep every 60 to 200 ms, the 512-byte
line), once on this project's own firmware (every 50 to 90 ms, protocol 2's 2048 bytes).

Targets: no silent misscore and no stuck game. The figures before issue 15, on the first 80
of these games on the v1 hub (the daemon of main 01b552c): 26 of 80 games exact, 52 ended by
a turn scored unlike the truth while shown as right, 1 stuck, 120 problem sounds. Before the
confirmation by the readings after a press (main d5eae1d): 1 silent misscore in these 280
games (6 in seeds 0 to 999), 1.6 false alarms a game. docs/daemon.md has the rest.
"""

from __future__ import annotations

from benchmarks.figure import Figure, percentile
from benchmarks.soak import OUR_HUB, V1_HUB, Hub, soak

GAMES = 280


def figures(name: str, hub: Hub) -> list[Figure]:
    result = soak(GAMES, hub=hub)
    games, turns = result.games, max(result.turns, 1)
    return [
        Figure(
            f"soak {name}: games scored exactly", result.exact, f"of {games}", games, higher=True
        ),
        Figure(f"soak {name}: silent misscores", result.misscores, "turns", 0),
        Figure(
            f"soak {name}: misscores announced (a tile showed up after the turn)",
            result.announced,
            "turns",
        ),
        Figure(f"soak {name}: 'last turn right?' notices", result.late_notices / games, "per game"),
        Figure(f"soak {name}: stuck games", result.stuck, "games", 0),
        Figure(f"soak {name}: games stopped unfinished (swaps)", result.unfinished, "games"),
        Figure(f"soak {name}: turns", result.turns, "turns"),
        Figure(f"soak {name}: false alarms", result.false_alarms / games, "per game", 3.0),
        Figure(f"soak {name}: slow presses", 100 * result.slow_presses / turns, "per 100 turns"),
        Figure(f"soak {name}: problem sounds", result.problem_sounds / games, "per game"),
        Figure(
            f"soak {name}: last tile to correct preview p50", percentile(result.to_preview, 50), "s"
        ),
        Figure(
            f"soak {name}: last tile to correct preview p99",
            percentile(result.to_preview, 99),
            "s",
            2.0,
        ),
        Figure(f"soak {name}: press to turn scored p50", percentile(result.press_to_end, 50), "s"),
        Figure(f"soak {name}: press to turn scored p90", percentile(result.press_to_end, 90), "s"),
        Figure(f"soak {name}: press to turn scored p99", percentile(result.press_to_end, 99), "s"),
        Figure(
            f"soak {name}: press to turn scored p50, in sweeps",
            percentile(result.press_sweeps, 50),
            "sweeps",
        ),
    ]


def run() -> list[Figure]:
    return figures("v1 hub", V1_HUB) + figures("our hub", OUR_HUB)
