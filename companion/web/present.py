"""The daemon's published state in the words and shapes the pages show: the board as a grid
of squares with their top tiles, the players, the preview, the alerts and the problems, in
the table's language (the seat displays' own catalogue, `companion.show.i18n`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.show.i18n import SUIT_SYMBOLS, Catalogue
from engine import ALL_TILES, COMMON_SQUARES, SIDES, Illegal, Tile
from engine.geometry import GRID

#: the colours of the page for the rulebook's colours
CSS_COLOURS = {"red": "#d62728", "purple": "#7b41ad", "yellow": "#d6aa00", "green": "#2ca02c"}


def tile_face(name: str) -> dict[str, Any]:
    """A tile as the page draws it: its suit symbol and number, and the suit for colouring."""
    tile = Tile.parse(name)
    return {
        "name": name,
        "suit": tile.suit,
        "symbol": SUIT_SYMBOLS[tile.suit],
        "rank": tile.rank,
        "label": Catalogue.tile(tile),
    }


def language(state: Mapping[str, Any] | None) -> str:
    settings = (state or {}).get("settings") or {}
    return str((settings.get("values") or {}).get("language", "en"))


def _illegal(texts: Catalogue, data: Mapping[str, Any]) -> str:
    try:
        illegal = Illegal(
            data["code"],
            data.get("message", ""),
            tuple(Tile.parse(t) for t in data.get("tiles", ())),
            tuple(data.get("squares", ())),
        )
        return texts.illegal(illegal)
    except (KeyError, ValueError):
        return str(data.get("message") or data.get("code"))


def _problem(texts: Catalogue, problem: Mapping[str, Any]) -> str:
    """A problem in the displays' words (as `companion.show.screens.notice.problem_text`)."""
    tile = problem.get("tile")
    shown = Catalogue.tile(Tile.parse(tile)) if tile else "?"
    return texts.text(f"problem.{problem['code']}", square=problem.get("square") or "?", tile=shown)


def table_context(state: Mapping[str, Any] | None) -> dict[str, Any]:
    """Everything the table fragment draws; a `None` state (no daemon yet) draws a notice."""
    if state is None:
        return {"ready": False}
    texts = Catalogue.load(language(state))
    colours = state.get("colours") or {}
    seats = state.get("seats") or []
    players = [s["side"] for s in seats]

    def name(side: str) -> str:
        return texts.colour(colours.get(side, "red"))

    placed = {square for square, _ in state.get("placement") or []}
    notices = state.get("notices") or []
    marked: dict[str, str] = {}
    problems = []
    for notice in notices:
        kind = notice.get("kind")
        if kind in ("problem", "unsure"):
            problem = notice if kind == "problem" else notice["doubt"]
            square = problem.get("square")
            text = _problem(texts, problem)
            if kind == "unsure":
                text = f"{texts.text('unsure.title')} ({name(notice['side'])}): {text}"
            problems.append({"text": text, "square": square})
            if square:
                marked[square] = text
        elif kind == "bag":
            key = "bag.returned" if notice.get("returned") else "bag.empty"
            problems.append({"text": f"{texts.text('bag.title')}: {texts.text(key)}"})
        elif kind == "illegal":
            text = _illegal(texts, notice["illegal"])
            side = notice.get("side", "")
            problems.append({"text": f"{texts.text('illegal.title')} ({name(side)}): {text}"})
            for square in notice["illegal"].get("squares", ()):
                marked.setdefault(square, text)
        elif kind == "undo":
            problems.append({"text": texts.text("undo", colour=name(notice.get("side", "N")))})
        elif kind == "late-tile":
            square = notice.get("square")
            text = texts.text(
                "late.body",
                tile=Catalogue.tile(Tile.parse(notice["tile"])) if notice.get("tile") else "?",
                square=square or "?",
                colour=name(notice.get("side", "N")),
            )
            problems.append({"text": f"{texts.text('late.title')}: {text}", "square": square})
            if square:
                marked[square] = text
    board = state.get("board") or {}
    squares = []
    for square, (row, col) in GRID.items():
        stack = board.get(square, [])
        owner = square[0] if square not in COMMON_SQUARES else None
        squares.append(
            {
                "name": square,
                "row": row + 1,
                "col": col + 1,
                "height": len(stack),
                "top": tile_face(stack[-1]) if stack else None,
                "below": [tile_face(t) for t in stack[:-1]],
                "owner": owner if owner in players else None,
                "owner_colour": CSS_COLOURS.get(colours.get(owner, ""), "")
                if owner in players
                else "",
                "placed": square in placed,
                "problem": marked.get(square),
            }
        )
    active = next((s for s in seats if s["active"]), None)
    preview = None
    if active is not None and active.get("preview"):
        p = active["preview"]
        if p.get("illegal"):
            preview = {"legal": False, "text": _illegal(texts, p["illegal"])}
        else:
            bonus = [
                texts.text("preview.bonus", colour=name(side), n=n)
                for side, n in sorted(p.get("bonus", {}).items())
            ]
            preview = {
                "legal": True,
                "points": p["points"],
                "text": texts.text("preview.scores", n=p["points"]),
                "bonus": bonus,
                "sets": [" ".join(Catalogue.tile(Tile.parse(t)) for t in s) for s in p["sets"]],
            }
    alerts = [
        {
            "side": a["side"],
            "text": f"{texts.text('alert.bonus', n=a['points'])} {texts.text('alert.for', colour=name(a['side']))}",
            "colour": CSS_COLOURS.get(colours.get(a["side"], ""), "#333"),
        }
        for a in state.get("alerts") or []
    ]
    players_view = [
        {
            **s,
            "name": name(s["side"]),
            "css": CSS_COLOURS.get(s["colour"], "#333"),
            "to_go_text": texts.text("seat.to_finish", n=s["to_go"]),
            "team_text": texts.team(s["team"]) if s.get("team") is not None else "",
        }
        for s in seats
    ]
    last = state.get("last_turn")
    last_text = None
    if last is not None:
        if last.get("swapped"):
            last_text = texts.text("seat.swapped", colour=name(last["side"]))
        else:
            last_text = texts.text("seat.last", colour=name(last["side"]), points=last["points"])
    lobby = state.get("lobby")
    result = state.get("result")
    over = None
    if result is not None:
        if result.get("winner"):
            headline = texts.text("over.wins", colour=name(result["winner"]))
        elif result.get("winner_team") is not None:
            headline = texts.text("over.team_wins", team=texts.team(result["winner_team"]))
        else:
            headline = texts.text("over.tie")
        over = {
            "title": texts.text("over.title"),
            "headline": headline,
            "ranking": [{"name": name(side), "score": score} for side, score in result["ranking"]],
        }
    return {
        "ready": True,
        "published": state.get("published", 0.0),
        "phase": state.get("phase"),
        "hub_connected": state.get("hub_connected", True),
        "squares": squares,
        "players": players_view,
        "turn": texts.text("seat.turn_of", colour=name(active["side"])) if active else None,
        "active_css": CSS_COLOURS.get(active["colour"], "") if active else "",
        "preview": preview,
        "alerts": alerts,
        "problems": problems,
        "last": last_text,
        "lobby": None
        if lobby is None
        else {
            "title": texts.text("lobby.title"),
            "hint": texts.text("lobby.press"),
            "joined": [
                {"name": name(side), "css": CSS_COLOURS.get(colours.get(side, ""), "#333")}
                for side in lobby["joined"]
            ],
            "start": texts.text("lobby.start") if lobby["can_start"] else texts.text("lobby.wait"),
        },
        "over": over,
    }


def sim_context(state: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """The simulated table's controls: every tile (those on the table marked), the seats,
    the cable and the fault profiles; None when the daemon does not simulate."""
    sim = (state or {}).get("sim")
    if not sim:
        return None
    on_table = {name for stack in sim["stacks"].values() for name in stack}
    colours = (state or {}).get("colours") or {}
    texts = Catalogue.load(language(state))
    return {
        "tiles": [{**tile_face(str(t)), "used": str(t) in on_table} for t in ALL_TILES],
        "truth": {square: [tile_face(t) for t in stack] for square, stack in sim["stacks"].items()},
        "plugged": sim["plugged"],
        "profile": sim["profile"],
        "profiles": sim["profiles"],
        "seats": [
            {
                "side": side,
                "name": texts.colour(colours.get(side, "red")),
                "css": CSS_COLOURS.get(colours.get(side, ""), "#333"),
            }
            for side in SIDES
        ],
    }
