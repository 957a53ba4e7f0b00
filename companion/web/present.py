"""The daemon's published state in the words and shapes the pages show: the board as a grid
of squares with their top tiles, the players, the preview, the alerts and the problems, in
the table's language (the seat displays' own catalogue, `companion.show.i18n`).

Drawn from the values alone (`companion.game.published.TableState`, decoded once by the
link): who owns a square is `engine.geometry.owner`, a notice's words are the displays' own
(`companion.show.words`), a player's colour is the one palette (`companion.show.palette`).
"""

from __future__ import annotations

import json
from typing import Any

from companion.board.problems import Problem
from companion.board.word import Said
from companion.game.late import LateTile
from companion.game.published import TableState
from companion.game.sounds import Sound, SoundEvent
from companion.game.view import (
    BagEmpty,
    Correction,
    IllegalMove,
    Notice,
    NotScored,
    Preview,
    Question,
    Reply,
    SeatView,
    ShowFirst,
    Stacks,
    SwapQuestion,
    TableView,
    Unconfirmed,
    Undo,
    Unsure,
)
from companion.show.i18n import SUIT_SYMBOLS, Catalogue
from companion.show.palette import css, ink
from companion.show.words import notice_words
from engine import ALL_TILES, RANKS, SIDES, Tile
from engine.geometry import GRID, owner


def tile_face(tile: Tile) -> dict[str, Any]:
    """A tile as the page draws it: its suit symbol and number, and the suit for colouring."""
    return {
        "name": str(tile),
        "suit": tile.suit,
        "symbol": SUIT_SYMBOLS[tile.suit],
        "rank": tile.rank,
        "label": Catalogue.tile(tile),
    }


def language(state: TableState | None) -> str:
    return "en" if state is None else state.language


class _Words:
    """The page's texts for one view: its catalogue and the names of its colours."""

    def __init__(self, view: TableView, lang: str) -> None:
        self.view = view
        self.texts = Catalogue.load(lang)

    def name(self, side: str) -> str:
        return self.texts.colour(self.view.colour(side))

    def css(self, side: str, default: str = "#333") -> str:
        return css(self.view.colour(side), default)

    def ink(self, side: str) -> str:
        """The ink of words written on the colour of `side` (WCAG AA, `palette.ink`)."""
        return ink(self.view.colour(side))


Marked = dict[str, tuple[str, bool]]


def _problems(view: TableView, words: _Words) -> tuple[list[dict[str, Any]], Marked]:
    """The notices as the page lists them, and the squares they mark with their words
    (and whether only a note marks it: a square the readers cannot see, no problem)."""
    problems: list[dict[str, Any]] = []
    marked: Marked = {}
    for notice in view.notices:
        said = _said(notice, view, words)
        if said is None:
            continue
        text, body = said
        shown = notice_words(notice, words.texts, view)
        square = shown.square
        problems.append(
            {
                "text": text,
                "square": square,
                "squares": list(shown.squares),
                # a question's gestures at the table, a line each, as the displays say them
                "gestures": list(shown.answers),
                "question": _answers(notice, words),
                # a question of the daemon (its answers as buttons, or at the table only)
                "asks": isinstance(notice, (Question, SwapQuestion)),
                "correction": _confirm(notice, words),
                # a correction applied is no problem: the game is right again
                "corrected": isinstance(notice, Correction) and notice.applied,
                # what the readers cannot see or confirm: said, but no alarm
                "note": isinstance(notice, (ShowFirst, Unconfirmed)),
            }
        )
        for marks in shown.squares:  # a note marks a square nothing else marks
            if isinstance(notice, (ShowFirst, Unconfirmed)):
                marked.setdefault(marks, (body, True))
            else:
                marked[marks] = (body, False)
        if isinstance(notice, IllegalMove):
            for square in notice.illegal.squares:
                marked.setdefault(square, (body, False))
    return problems, marked


#: a question's replies at the table, as what a paired page says instead: the family's word
#: "laid" or "absent", or `Reply.HAND` ("it is in a hand", on no square), which the
#: daemon's `word` op takes as the hold at the table would be (`Table.take_in_hand`)
PAGE_WORDS = {
    Reply.THERE: str(Said.LAID),
    Reply.START: str(Said.LAID),
    Reply.WITHOUT: str(Said.ABSENT),
    Reply.HAND: str(Reply.HAND),  # not a `Word`: the daemon's "word" op takes it apart
}


def _answers(notice: Notice, words: _Words) -> dict[str, Any] | None:
    """A question's answers on a paired page (drawn for every watcher, shown to a paired
    browser only; the server refuses the others): its tile's word, "it lies there" or "not
    there", for the replies that say so at the table, and "Correct {square}" (the
    correction panel on its square) for a tile the readers cannot name, or another one."""
    if not isinstance(notice, Question):
        return None
    texts = words.texts
    said = [] if notice.tile is None else [
        {"said": str(PAGE_WORDS[r]), "text": texts.text(f"web.question.{PAGE_WORDS[r]}")}
        for r in dict.fromkeys(notice.answers)
        if r in PAGE_WORDS
    ]  # fmt: skip
    unique = list({a["said"]: a for a in said}.values())  # THERE and START: one "laid"
    return {
        "square": notice.square,
        "tile": "" if notice.tile is None else str(notice.tile),
        "words": unique,
        "open": texts.text("web.question.open", square=notice.square),
    }


def _confirm(notice: Notice, words: _Words) -> dict[str, Any] | None:
    """A pending correction's button on a paired page (drawn for every watcher, shown to a
    paired browser only; the server refuses the others): it sends the correction back as
    it was published (`Correction.to_json`), so the daemon applies that one or none."""
    if not isinstance(notice, Correction) or notice.applied:
        return None
    return {
        "json": json.dumps(notice.to_json(), separators=(",", ":")),
        "apply": words.texts.text("web.correction.apply"),
    }


def _said(notice: Notice, view: TableView, words: _Words) -> tuple[str, str] | None:
    """The line the page lists for `notice` and the words it marks a square with; None for
    what the page leaves to the seat displays (the undo hint, a pairing PIN)."""
    said = notice_words(notice, words.texts, view)
    if isinstance(notice, (Question, SwapQuestion)):  # to one player; gestures under it
        return f"{said.title} ({words.name(notice.side)}): {said.body}", " · ".join(
            (said.body, *said.answers)
        )
    if isinstance(notice, (Unsure, IllegalMove, NotScored, ShowFirst, Unconfirmed)):
        return f"{said.title} ({words.name(notice.side)}): {said.body}", said.body
    if isinstance(notice, Correction) and notice.applied:
        return said.body, said.body
    if isinstance(notice, (BagEmpty, LateTile, Correction)):
        return f"{said.title}: {said.body}", said.body
    if isinstance(notice, (Undo, Problem)):
        return said.body, said.body
    return None


def _preview(preview: Preview | None, words: _Words) -> dict[str, Any] | None:
    if preview is None:
        return None
    texts = words.texts
    if preview.illegal is not None:
        return {"legal": False, "text": texts.illegal(preview.illegal)}
    return {
        "legal": True,
        "points": preview.points,
        "text": texts.text("preview.scores", n=preview.points),
        "bonus": [
            texts.text("preview.bonus", colour=words.name(side), n=n) for side, n in preview.bonus
        ],
        "sets": [" ".join(Catalogue.tile(t) for t in s.tiles) for s in preview.sets],
    }


def _player(seat: SeatView, words: _Words) -> dict[str, Any]:
    texts = words.texts
    return {
        "side": seat.side,
        "score": seat.score,
        "finish": seat.finish,
        "active": seat.active,
        "name": texts.colour(seat.colour),
        "css": css(seat.colour),
        "ink": ink(seat.colour),
        "to_go_text": texts.text("seat.to_finish", n=seat.to_go),
        "team_text": texts.team(seat.team) if seat.team is not None else "",
    }


def _squares(
    stacks: Stacks,
    view: TableView,
    words: _Words,
    marked: Marked,
    believed: Stacks | None = None,
) -> list[dict[str, Any]]:
    """The twelve squares as the board draws them, with `stacks` on them (the readers'
    board, or the simulated table's truth: then `believed` is the readers' and a square
    they do not see so yet is marked `unread`)."""
    players = {seat.side for seat in view.seats}
    placed = {square for square, _ in view.placement}
    board = dict(stacks)
    read = None if believed is None else dict(believed)
    squares = []
    for square, (row, col) in GRID.items():
        stack = board.get(square, ())
        side = owner(square)
        owned = side if side in players else None
        squares.append(
            {
                "name": square,
                "row": row + 1,
                "col": col + 1,
                "height": len(stack),
                "top": tile_face(stack[-1]) if stack else None,
                "below": [tile_face(t) for t in stack[:-1]],
                "stack": [str(t) for t in stack],  # bottom first: the correction panel's
                "owner": owned,
                "owner_colour": words.css(owned, "") if owned else "",
                "placed": square in placed,
                "problem": marked.get(square, (None, False))[0],
                "noted": marked.get(square, (None, False))[1],
                "unread": read is not None and tuple(read.get(square, ())) != tuple(stack),
            }
        )
    return squares


def table_context(state: TableState | None) -> dict[str, Any]:
    """Everything the table fragment draws; a `None` state (no daemon yet) draws a notice."""
    if state is None:
        return {"ready": False}
    view = state.view
    words = _Words(view, state.language)
    texts = words.texts
    problems, marked = _problems(view, words)
    squares = _squares(view.board, view, words, marked)
    active = view.active
    alerts = [
        {
            "side": alert.side,
            "text": f"{texts.text('alert.bonus', n=alert.points)} "
            f"{texts.text('alert.for', colour=words.name(alert.side))}",
            "colour": words.css(alert.side),
            "ink": words.ink(alert.side),
        }
        for alert in view.alerts
    ]
    last = view.last_turn
    last_text = None
    if last is not None:
        if last.swapped:
            last_text = texts.text("seat.swapped", colour=words.name(last.side))
        else:
            last_text = texts.text("seat.last", colour=words.name(last.side), points=last.points)
    over = None
    result = view.result
    if result is not None:
        if result.winner:
            headline = texts.text("over.wins", colour=words.name(result.winner))
        elif result.winner_team is not None:
            headline = texts.text("over.team_wins", team=texts.team(result.winner_team))
        else:
            headline = texts.text("over.tie")
        over = {
            "title": texts.text("over.title"),
            "headline": headline,
            "ranking": [
                {"name": words.name(side), "score": score} for side, score in result.ranking
            ],
        }
    lobby = view.lobby
    return {
        "ready": True,
        "published": state.published,
        "phase": str(view.phase),
        "hub_connected": state.hub_connected,
        "squares": squares,
        "players": [_player(seat, words) for seat in view.seats],
        "turn": texts.text("seat.turn_of", colour=texts.colour(active.colour)) if active else None,
        "active_css": css(active.colour, "") if active else "",
        "preview": _preview(active.preview, words) if active else None,
        "alerts": alerts,
        "problems": problems,
        "last": last_text,
        "lobby": None
        if lobby is None
        else {
            "title": texts.text("lobby.title"),
            "hint": texts.text("lobby.press"),
            "joined": [{"name": words.name(side), "css": words.css(side)} for side in lobby.joined],
            "start": texts.text("lobby.start") if lobby.can_start else texts.text("lobby.wait"),
        },
        "over": over,
    }


def heard(sound: Sound, view: TableView, words: _Words) -> str | None:
    """What the simulated table's buzzer (which nobody hears) just said, in words, for the
    sounds that tell a person something the page does not show already (a press refused,
    and why); None for the others."""
    who = words.name(sound.side) if sound.side else "The table"
    if sound.kind == SoundEvent.NOT_YOUR_TURN:
        active = view.active
        if active is None:
            return f"{who} pressed: the buzzer says no."
        return (
            f"{who} pressed, but it is {words.name(active.side)}'s turn: the buzzer says no "
            "(a long press takes back the last turn)."
        )
    if sound.kind == SoundEvent.REFUSED:
        return f"{who}: the buzzer says not now (the displays and the problems say why)."
    if sound.kind == SoundEvent.ILLEGAL:
        return f"{who}: the buzzer says not allowed ({who}'s display says why)."
    return None


def sim_context(state: TableState | None) -> dict[str, Any] | None:
    """The simulated table's controls: every tile (those on the table marked), the seats,
    the cable and the fault profiles; None when the daemon does not simulate."""
    if state is None or state.sim is None:
        return None
    sim = state.sim
    on_table = {tile for _, stack in sim.stacks for tile in stack}
    words = _Words(state.view, state.language)
    _, marked = _problems(state.view, words)
    return {
        "tiles": [{**tile_face(t), "used": t in on_table} for t in ALL_TILES],
        # the board as the hands left it (a tile lifted is gone at once), the squares the
        # readers do not see so yet marked: the daemon's belief is the Table page's
        "squares": _squares(sim.stacks, state.view, words, marked, believed=state.view.board),
        "heard": [said for sound in sim.heard if (said := heard(sound, state.view, words))],
        "plugged": sim.plugged,
        "profile": sim.profile,
        "profiles": list(sim.profiles),
        "seats": [
            {"side": side, "name": words.name(side), "css": words.css(side)} for side in SIDES
        ],
    }


#: what the correction panel says, by its catalogue key (`web.correct.*`): the page's
#: script fills `{tile}` and `{square}` in (the placeholders of the catalogue's own texts)
CORRECT_WORDS = (
    "mode", "done", "hint", "square", "stack", "empty", "absent", "lay", "all", "confirm",
    "laid", "gone", "hand", "elsewhere", "no_tiles", "close", "unanswered",
)  # fmt: skip


def correct_context(state: TableState | None, registered: list[str]) -> dict[str, Any]:
    """A paired page's "Correct the board": its words in the table's language, the
    `registered` tiles to pick from (by name, in the engine's order) and the suits and
    numbers to narrow them by."""
    texts = Catalogue.load(language(state))
    known = set(registered)
    return {
        "words": {
            key: texts.text(f"web.correct.{key}", tile="{tile}", square="{square}")
            for key in CORRECT_WORDS
        },
        "tiles": [tile_face(t) for t in ALL_TILES if str(t) in known],
        "suits": [{"suit": suit, "symbol": symbol} for suit, symbol in SUIT_SYMBOLS.items()],
        "ranks": list(RANKS),
    }
