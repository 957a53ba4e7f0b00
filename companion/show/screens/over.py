"""The end of the game: who won (a player or a team), then the ranking, each player with
their score and a bar of how far they came towards the finish line (full: they reached it).
A bar reads at a glance on 128x64, where the score progression in miniature did not."""

from __future__ import annotations

from companion.game.view import GameResult, TableView
from companion.show.canvas import INK, PAPER, Canvas
from companion.show.i18n import Catalogue

BAR_LEFT, BAR_RIGHT = 76, 104  # the finish bar's box in a ranking row
SCORE_RIGHT = 125


def draw_over(canvas: Canvas, view: TableView, texts: Catalogue) -> None:
    result = view.result or GameResult(ranking=())
    if result.winner_team is not None and view.teams is not None:
        title = texts.text("over.team_wins", team=texts.team(result.winner_team))
        winners = set(view.teams[result.winner_team])
    elif result.winner is not None:
        title = texts.text("over.wins", colour=texts.colour(view.colour(result.winner)))
        winners = {result.winner}
    else:
        title = texts.text("over.tie")
        winners = set()
    canvas.title(title)
    finish = result.finish or max((s.finish for s in view.seats), default=0)
    y = 25
    for side, score in result.ranking:  # best first: the order is the ranking
        name = texts.colour(view.colour(side))
        fill = INK
        if side in winners:  # the winners' rows inverted
            canvas.bar(y - 9, y + 2, 0, canvas.width - 1)
            fill = PAPER
        canvas.text((SCORE_RIGHT, y), str(score), 10, bold=True, fill=fill, anchor="rs")
        canvas.text((2, y), name, 10, fill=fill, max_width=BAR_LEFT - 6)
        _finish_bar(canvas, y - 6, score, finish, fill)
        y += 12


def _finish_bar(canvas: Canvas, top: int, score: int, finish: int, ink: int) -> None:
    canvas.draw.rectangle((BAR_LEFT, top, BAR_RIGHT, top + 4), outline=ink)
    if finish and score > 0:
        right = BAR_LEFT + round((BAR_RIGHT - BAR_LEFT) * min(score, finish) / finish)
        canvas.draw.rectangle((BAR_LEFT, top, right, top + 4), fill=ink)
