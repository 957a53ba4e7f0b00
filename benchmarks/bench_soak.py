"""Never a silent misscore (issue 15): 280 whole games, seeded, with a family at the simulated
table (`benchmarks.soak`: slides, hovering hands, moves within a turn, slow laying, forgotten
presses, silent and tall stacks, irregular sweeps, the 512-byte line), each turn checked
against the rules engine's score of what was really laid.

Targets: no silent misscore and no stuck game. The figures before issue 15, on the first 80
of these games (the daemon of main 01b552c): 26 of 80 games exact, 52 ended by a turn scored
unlike the truth while shown as right, 1 stuck, 120 problem sounds. Before the confirmation
by the readings after a press (main d5eae1d): 1 silent misscore in these 280 games (6 in
seeds 0 to 999), 1.6 false alarms a game.
"""

from __future__ import annotations

from benchmarks.figure import Figure, percentile
from benchmarks.soak import soak

GAMES = 280


def run() -> list[Figure]:
    result = soak(GAMES)
    games = result.games
    return [
        Figure("soak games scored exactly", result.exact, f"of {games}", games, higher=True),
        Figure("soak silent misscores", result.misscores, "turns", 0),
        Figure("soak stuck games", result.stuck, "games", 0),
        Figure("soak games stopped unfinished (swaps)", result.unfinished, "games"),
        Figure("soak false alarms per game", result.false_alarms / games, "per game", 3.0),
        Figure("soak problem sounds per game", result.problem_sounds / games, "per game"),
        Figure("soak last tile to correct preview p50", percentile(result.to_preview, 50), "s"),
        Figure(
            "soak last tile to correct preview p99", percentile(result.to_preview, 99), "s", 2.0
        ),
        Figure("soak press to turn scored p50", percentile(result.press_to_end, 50), "s"),
        Figure("soak press to turn scored p99", percentile(result.press_to_end, 99), "s"),
    ]
