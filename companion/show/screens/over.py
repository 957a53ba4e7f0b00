"""The end of the game: who won (a player or a team), the ranking with scores, and the
score progression in miniature."""

from __future__ import annotations

from companion.game.view import GameResult, TableView
from companion.show.chart import draw_progress
from companion.show.i18n import Catalogue
from companion.show.screens.layout import INK, PAPER, Canvas

CHART_WIDTH = 32


def draw_over(canvas: Canvas, table: TableView, texts: Catalogue) -> None:
    result = table.result or GameResult(ranking=())
    if result.winner_team is not None and table.teams is not None:
        title = texts.text("over.team_wins", team=texts.team(result.winner_team))
        winners = set(table.teams[result.winner_team])
    elif result.winner is not None:
        title = texts.text("over.wins", colour=texts.colour(table.colour(result.winner)))
        winners = {result.winner}
    else:
        title = texts.text("over.tie")
        winners = set()
    canvas.title(title)
    chart = bool(result.progress)
    right = canvas.width - (CHART_WIDTH + 4 if chart else 1)
    y = 25
    for side, score in result.ranking:  # best first: the order is the ranking
        name = texts.colour(table.colour(side))
        fill = INK
        if side in winners:  # the winners' rows inverted
            canvas.bar(y - 9, y + 2, 0, right - 1)
            fill = PAPER
        width = canvas.text((right - 3, y), str(score), 10, bold=True, fill=fill, anchor="rs")
        canvas.text((2, y), name, 10, fill=fill, max_width=right - 2 - width - 6)
        y += 12
    if chart:
        box = (canvas.width - CHART_WIDTH, 16, canvas.width - 2, canvas.height - 2)
        finish = result.finish or max((s.finish for s in table.seats), default=0)
        draw_progress(canvas.draw, box, result.progress, finish, bold=result.winner)
