"""Fills in the view model (`companion.game.view.TableView`) from the table's state."""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.board.problems import Problem
from companion.game.view import BagEmpty, GameResult, Lobby, Notice, Preview, SeatView, TableView
from engine import SIDES, Game

if TYPE_CHECKING:
    from companion.game.table import Table


def build_view(table: Table, now: float) -> TableView:
    colours = tuple((side, table.colours[side]) for side in SIDES)
    notices = _notices(table, now)
    alerts = tuple(a for a in table.alerts if a.since <= now)
    game = table.game
    if table.phase == "lobby" or game is None:
        lobby = Lobby(joined=tuple(table.joined), teams=table.lobby_teams())
        return TableView(
            phase="lobby",
            colours=colours,
            teams=lobby.teams,
            lobby=lobby,
            alerts=alerts,
            notices=notices,
        )
    playing = table.phase == "playing"
    preview = table.preview() if playing else None
    team_of = game.seating.team_of
    scores = game.scores
    seats = tuple(
        SeatView(
            side=side,
            colour=table.colours[side],
            score=scores[side],
            finish=game.finish_line,
            active=playing and side == game.active,
            preview=Preview.of(preview) if preview is not None and side == game.active else None,
            team=team_of(side),
        )
        for side in game.players
    )
    result = _result(game) if table.phase == "over" else None
    return TableView(
        phase=table.phase,
        seats=seats,
        colours=colours,
        teams=game.teams,
        last_turn=table.last_turn(),
        alerts=alerts,
        notices=notices,
        result=result,
    )


def _notices(table: Table, now: float) -> tuple[Notice, ...]:
    notices: list[Notice] = list(table.tracker.problems(now))
    if table.journal_problem is not None:
        notices.insert(0, Problem(table.journal_problem))
    notices[:0] = table.announced(now)
    if table.illegal is not None:
        notices.append(table.illegal)
    game = table.game
    if table.phase == "playing" and game is not None and game.needs_return:
        notices.append(BagEmpty(returned=False))
    elif table.returned_banner(now):
        notices.append(BagEmpty(returned=True))
    if table.undone is not None:
        notices.append(table.undone)
    return tuple(notices)


def _result(game: Game) -> GameResult:
    ranking = game.ranking()
    scores = game.scores
    return GameResult(
        ranking=tuple((side, scores[side]) for side in ranking.order),
        finish=game.finish_line,
        winner=ranking.winner if game.teams is None else None,
        winner_team=ranking.winner_team,
        progress=progress(game),
    )


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
