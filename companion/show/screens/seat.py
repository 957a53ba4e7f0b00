"""A player's own screen during the game: colour, big score, the way to the finish,
whose turn it is, the last turn, and the live preview of the tiles being placed.

    +----------------------------+
    | Green              (title) |  inverted while it is this player's turn
    | 17    6 to go              |  the score in big digits
    |       Finish 23            |
    | [=========       ]  |      |  the bar to the finish line
    | Turn: Red                  |  or "Your turn" / "This scores 6"
    | Last: Red +6 ★3-5 3×5      |  the same on every seat, or the undo banner, or
                                    (inverted) "Checking the board" after a press
    +----------------------------+
"""

from __future__ import annotations

from companion.game.view import (
    Correction,
    Notice,
    Preview,
    SeatView,
    ShowFirst,
    TableView,
    TurnResult,
    Unconfirmed,
    Undo,
)
from companion.show.canvas import INK, PAPER, Canvas, line_pitch, measure, wrap
from companion.show.i18n import Catalogue
from companion.show.words import notice_words
from hardware import fonts

BIG = 28  # the score's digits, bold
LINE1, LINE2 = 52, 62  # baselines of the two text lines at the bottom


def banner(notice: object) -> bool:
    """A notice shown as the seat screen's one-line banner: a turn taken back or corrected."""
    return isinstance(notice, Undo) or (isinstance(notice, Correction) and notice.applied)


def draw_seat(
    canvas: Canvas,
    view: TableView,
    seat: SeatView,
    texts: Catalogue,
    hint: bool = False,
    note: ShowFirst | Unconfirmed | None = None,
) -> None:
    """`note`: what the player to move must know of the readers this turn (squares they
    cannot see: show a tile first; a tile they cannot confirm: the press will ask)."""
    if seat.active and seat.preview is not None and not seat.preview.legal:
        if not _being_shown(seat.preview, note):
            _draw_explained(canvas, seat, seat.preview, texts)
            return
        _draw_noted(canvas, view, seat, note, texts)
        return
    if seat.active and note is not None:
        _draw_noted(canvas, view, seat, note, texts)
        return
    canvas.title(texts.colour(seat.colour), inverted=seat.active)
    _draw_score(canvas, seat, texts)
    _draw_bar(canvas, 38, seat.score, seat.finish)
    # the one-line banner: a turn taken back, or a turn corrected (`Correction`, applied)
    undo = next((n for n in view.notices if banner(n)), None)
    if seat.active:
        if seat.preview is not None:
            _draw_preview(canvas, seat.preview, view, texts)
        else:
            canvas.text((2, LINE1), texts.text("seat.your_turn"), 10, bold=True)
        if seat.checking:  # the press is taken: the readers confirm the board first
            _banner(canvas, texts.text("seat.checking"))
        elif undo:
            _banner(canvas, notice_words(undo, texts, view).body)
        elif seat.preview is None and view.last_turn is not None:
            parts = last_turn_parts(view, seat.side, view.last_turn, texts)
            canvas.text((2, LINE2), fit_parts(parts, canvas, 10))
        return
    elif hint:  # just after a turn: how to take it back, where "Turn: ..." stands
        canvas.text((2, LINE1), texts.text("seat.hold_undo"), 10, bold=True)
    else:
        active = view.active
        if active is not None:
            canvas.text((2, LINE1), texts.text("seat.turn_of", colour=texts.colour(active.colour)))
    if undo:
        _banner(canvas, notice_words(undo, texts, view).body)
    elif view.last_turn is not None:
        parts = last_turn_parts(view, seat.side, view.last_turn, texts)
        canvas.text((2, LINE2), fit_parts(parts, canvas, 10))


def _draw_score(canvas: Canvas, seat: SeatView, texts: Catalogue) -> None:
    width = canvas.text((1, 35), str(seat.score), BIG, bold=True)
    x = max(width + 8, 44)
    left = max(0, seat.finish - seat.score)
    canvas.text((x, 23), texts.text("seat.to_finish", n=left))
    second = (
        texts.team(seat.team) if seat.team is not None else texts.text("seat.finish", n=seat.finish)
    )
    canvas.text((x, 34), second)


def _draw_bar(canvas: Canvas, y: int, score: int, finish: int) -> None:
    """The way to the finish line: an outline, filled as far as the score has come."""
    x0, x1 = 0, canvas.width - 1
    canvas.draw.rectangle((x0, y, x1, y + 3), outline=INK, fill=PAPER)
    filled = x0 + round((x1 - x0) * min(score, finish) / finish) if finish else x0
    if filled > x0:
        canvas.draw.rectangle((x0, y, filled, y + 3), fill=INK)


def _draw_preview(canvas: Canvas, preview: Preview, view: TableView, texts: Catalogue) -> None:
    canvas.text((2, LINE1), texts.text("preview.scores", n=preview.points), 10, bold=True)
    # the bonus first: it must not be the part that has no room left (longer words in Russian)
    parts = [
        texts.text("preview.bonus", colour=texts.colour(view.colour(side)), n=n)
        for side, n in preview.bonus
    ]
    parts += [texts.scored_set(s) for s in preview.sets]
    canvas.text((2, LINE2), fit_parts(parts, canvas, 10))


def _draw_explained(canvas: Canvas, seat: SeatView, preview: Preview, texts: Catalogue) -> None:
    """An illegal preview needs room for its sentence: a title row, then the reason."""
    canvas.title(texts.colour(seat.colour), right=f"{seat.score}/{seat.finish}")
    assert preview.illegal is not None
    canvas.block((2, 15, canvas.width - 1, canvas.height), texts.illegal(preview.illegal))


def _being_shown(preview: Preview, note: ShowFirst | Unconfirmed | None) -> bool:
    """The preview is not legal only for the tile the player is showing the readers (held
    over an empty square, "not one set" there): the display says it was seen, the gesture
    goes on."""
    illegal = preview.illegal
    return (
        isinstance(note, ShowFirst)
        and note.seen is not None
        and illegal is not None
        and note.seen in illegal.tiles
    )


def _draw_noted(
    canvas: Canvas, view: TableView, seat: SeatView, note: Notice, texts: Catalogue
) -> None:
    """The player to move, with a note of the readers: the score beside the colour, the
    preview's points (or "your turn") and the note's sentence below, word-wrapped.

        +----------------------------+
        | Green                 3/23 |
        | This scores 5 points       |
        | A tile for NE and SE: hold |
        | it over an empty square    |
        | first, then lay it         |
        +----------------------------+
    """
    preview = seat.preview
    if seat.checking:
        line = texts.text("seat.checking")
    elif preview is not None:
        line = texts.text("preview.scores", n=preview.points)
    else:
        line = texts.text("seat.your_turn")
    body = notice_words(note, texts, view).body
    score = f"{seat.score}/{seat.finish}"
    width = canvas.width - 3
    if len(wrap(body, fonts.load(10), width)) * line_pitch(10) <= canvas.height - 28 + 2:
        canvas.title(texts.colour(seat.colour), right=score)
        canvas.text((2, 25), line, 10, bold=True)
        canvas.block((2, 28, canvas.width - 1, canvas.height), body)
    else:  # a long note (many squares): the points in the title row, the note below
        canvas.title(line, right=score)
        canvas.block((2, 16, canvas.width - 1, canvas.height), body, sizes=(11, 10))


def _banner(canvas: Canvas, text: str) -> None:
    canvas.bar(LINE2 - 9, canvas.height - 1)
    canvas.text((2, LINE2), text, 10, fill=PAPER)


def last_turn_parts(view: TableView, side: str, last: TurnResult, texts: Catalogue) -> list[str]:
    """Who scored what, then the sets, then the bonus (as many as the line has room for; the
    bonus's owner also sees it flash). The same words on every seat, so every player learns
    the same facts: `side` is not used to say "you", which made the line longer or shorter
    on one seat than on the others."""
    who = texts.colour(view.colour(last.side))
    if last.swapped:
        return [texts.text("seat.swapped", colour=who)]
    bonus = [
        texts.text("preview.bonus", colour=texts.colour(view.colour(owner)), n=n)
        for owner, n in last.bonus
    ]
    main = texts.text("seat.last", colour=who, points=last.points)
    return [main, *map(texts.scored_set, last.sets), *bonus]


def fit_parts(parts: list[str], canvas: Canvas, size: int) -> str:
    """As many of `parts` as fit one line, space separated (the rest is left out, not cut);
    the first part always shows (shortened if it must be)."""
    font = fonts.load(size)
    line = ""
    for part in parts:
        candidate = f"{line} {part}" if line else part
        if line and measure(font, candidate) > canvas.width - 4:
            break
        line = candidate
    return line
