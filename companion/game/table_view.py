"""Values of the view that are worked out from a game alone: the ranking and the scores
after each turn (the table's view, the score chart and the replay use them)."""

from __future__ import annotations

from companion.game.view import GameResult, TurnResult
from engine import Game


def game_result(game: Game) -> GameResult:
    ranking = game.ranking()
    scores = game.scores
    return GameResult(
        ranking=tuple((side, scores[side]) for side in ranking.order),
        finish=game.finish_line,
        winner=ranking.winner if game.teams is None else None,
        winner_team=ranking.winner_team,
        progress=progress(game),
    )


def last_turn(game: Game) -> TurnResult | None:
    """The latest turn of the game (a bag return is not a turn)."""
    for move in reversed(game.moves):
        if move.kind == "place" and move.scoring is not None:
            return TurnResult.from_scoring(move.scoring)
        if move.kind == "swap" and move.side is not None:
            return TurnResult.swap(move.side)
    return None


def progress(game: Game) -> tuple[tuple[str, tuple[int, ...]], ...]:
    """Per side, its score after each turn (starting with 0), bonus points included."""
    running = dict.fromkeys(game.players, 0)
    series: dict[str, list[int]] = {side: [0] for side in game.players}
    for move in game.moves:
        if move.kind == "return":
            continue
        if move.kind == "place" and move.scoring is not None:
            running[move.scoring.active] += move.scoring.points
            for side, points in move.scoring.bonus.items():
                running[side] += points
        for side in game.players:
            series[side].append(running[side])
    return tuple((side, tuple(series[side])) for side in game.players)
