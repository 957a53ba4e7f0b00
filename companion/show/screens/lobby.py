"""Before a game: press to join, the turn order so far, the teams, long press to start.

The turn order is drawn as a little table seen from the player's own chair (their side at
the bottom), each joined side with its number in the order: no words to translate and it
fits next to the text. In a team game the first team's numbers are inverted.

While nobody has joined, the lobby turns its pages every `PAGE_SECONDS` (`pages`): how to
join (with how to reach the settings), the rules a game started now plays by, how to play
with the button, and the last game's ranking; a press starts again from the first.
"""

from __future__ import annotations

from companion.game.view import Lobby, TableView
from companion.show.canvas import INK, PAPER, Canvas, measure
from companion.show.i18n import Catalogue
from companion.show.screens.notice import draw_board
from engine import SIDES
from hardware import fonts

TEXT_RIGHT = 85  # the text column ends here; the table diagram is to its right
CELL = 11  # a side's box in the diagram
BOARD_CELL = 5  # a square of the board the readers see, in the middle of the diagram
#: seen from the chair at the bottom: bottom, left, top, right (clockwise from above)
VIEW_ORDER = ("bottom", "left", "top", "right")


PAGE_SECONDS = 5.0
PER_PAGE = 2  # rules or hints on a page of the empty lobby (each may take two lines)
HELP = ("help.press", "help.hold", "help.swap", "help.bag")


def pages(lobby: Lobby) -> tuple[str, ...]:
    """The pages the lobby turns through: only "join" once someone has joined."""
    if lobby.joined:
        return ("join",)
    rules = -(-len(rule_keys(lobby)) // PER_PAGE)
    helps = -(-len(HELP) // PER_PAGE)
    shown = ("join", *(f"rules{n}" for n in range(rules)), *(f"help{n}" for n in range(helps)))
    return shown + (("last",) if lobby.last is not None else ())


def page_at(lobby: Lobby, now: float) -> str:
    shown = pages(lobby)
    return shown[int(max(0.0, now - lobby.since) // PAGE_SECONDS) % len(shown)]


def rule_keys(lobby: Lobby) -> list[tuple[str, dict]]:
    """The rules in force as catalogue keys: the end rule and the finish line always, then
    each one that differs from the rulebook."""
    rules = dict(lobby.rules)
    keys: list[tuple[str, dict]] = [
        ("rules.end.equal" if rules.get("end") == "equal" else "rules.end.first", {}),
        ("rules.finish", {}),
    ]
    keys += [
        (f"rules.{key}", {}) for key in ("teams", "own_bonus", "partner_squares") if rules.get(key)
    ]
    if rules.get("adjacency") == "orthogonal":
        keys.append(("rules.adjacency", {}))
    if rules.get("auto_end_seconds"):
        keys.append(("rules.auto_end", {"n": int(rules["auto_end_seconds"])}))  # type: ignore[call-overload]
    return keys


def rule_lines(lobby: Lobby, texts: Catalogue) -> list[str]:
    return [texts.text(key, **args) for key, args in rule_keys(lobby)]


def draw_lobby(
    canvas: Canvas, view: TableView, side: str, texts: Catalogue, page: str = "join"
) -> None:
    lobby = view.lobby or Lobby()
    if page != "join":
        return _draw_page(canvas, view, lobby, page, texts)
    title, colour = texts.text("lobby.title"), texts.colour(view.colour(side))
    both = measure(fonts.load(11, True), f"{title}  {colour}") <= canvas.width - 6
    canvas.title(title if both else colour, right=colour if both else "")
    y = 26
    if side in lobby.joined:
        number = lobby.joined.index(side) + 1
        y = canvas.paragraph(y, texts.text("lobby.joined", n=number), x1=TEXT_RIGHT, bold=True)
        if lobby.teams is not None:
            team = 0 if side in lobby.teams[0] else 1
            y = canvas.paragraph(y, texts.team(team), x1=TEXT_RIGHT)
    else:
        y = canvas.paragraph(y, texts.text("lobby.press"), x1=TEXT_RIGHT, bold=True, max_lines=3)
    hint = ""
    if lobby.can_start:
        hint = texts.text("lobby.start")
    elif not lobby.joined:
        hint = texts.text("lobby.settings")
    elif side in lobby.joined:
        hint = texts.text("lobby.wait")
    if hint:  # the last line, under the diagram too
        canvas.text((2, max(62, y)), hint, 10)
    occupied = {square for square, _ in view.board}
    draw_order(canvas, lobby, side, occupied, (canvas.width - 2 * CELL - 4 * BOARD_CELL, 14))


def draw_order(
    canvas: Canvas, lobby: Lobby, viewer: str, occupied: set[str], at: tuple[int, int]
) -> None:
    """The table with a numbered box on each joined side and, in the middle, the board as the
    readers see it (so a start tile they have not read shows as an empty square)."""
    x, y = at
    cell, size = CELL, 2 * CELL + 4 * BOARD_CELL  # a side box, the whole diagram
    draw_board(canvas, (x + cell, y + cell), occupied, None, cell=BOARD_CELL)
    middle = (size - cell) // 2
    boxes = {
        "bottom": (x + middle, y + size - cell),
        "left": (x, y + middle),
        "top": (x + middle, y),
        "right": (x + size - cell, y + middle),
    }
    turn = SIDES.index(viewer)
    for i, side in enumerate(SIDES):
        where = VIEW_ORDER[(i - turn) % 4]
        bx, by = boxes[where]
        if side not in lobby.joined:
            canvas.draw.point((bx + cell // 2, by + cell // 2), fill=INK)
            continue
        first_team = lobby.teams is not None and side in lobby.teams[0]
        canvas.draw.rectangle(
            (bx, by, bx + cell - 1, by + cell - 1), outline=INK, fill=INK if first_team else PAPER
        )
        number = str(lobby.joined.index(side) + 1)
        ink = PAPER if first_team else INK
        canvas.text((bx + cell // 2, by + cell // 2), number, 9, bold=True, fill=ink, anchor="mm")


def _draw_page(canvas: Canvas, view: TableView, lobby: Lobby, page: str, texts: Catalogue) -> None:
    """A page of the empty lobby: the rules, how to play with the button, or the last game."""
    if page.startswith("rules"):
        canvas.title(texts.text("lobby.page.rules"))
        first = int(page.removeprefix("rules")) * PER_PAGE
        _items(canvas, rule_lines(lobby, texts)[first : first + PER_PAGE])
    elif page.startswith("help"):
        canvas.title(texts.text("lobby.page.help"))
        first = int(page.removeprefix("help")) * PER_PAGE
        _items(canvas, [texts.text(key) for key in HELP[first : first + PER_PAGE]])
    elif page == "last" and lobby.last is not None:
        canvas.title(texts.text("lobby.page.stopped" if lobby.last.stopped else "lobby.page.last"))
        names = [f"{n}. {texts.colour(view.colour(side))}" for n, (side, _) in
                 enumerate(lobby.last.ranking, start=1)]  # fmt: skip
        scores = [str(score) for _, score in lobby.last.ranking]
        _lines(canvas, names, scores)


def _items(canvas: Canvas, items: list[str]) -> None:
    """A page's rules or hints under the title, each on its own line(s)."""
    canvas.block((2, 16, canvas.width - 2, canvas.height - 1), "\n".join(items), (10, 9))


def _lines(canvas: Canvas, lines: list[str], right: list[str]) -> None:
    """The ranking: one line each, the score at the right end, the winner bold."""
    for n, line in enumerate(lines[:4]):
        y = 25 + 12 * n
        limit = canvas.width - 3
        limit -= canvas.text((canvas.width - 2, y), right[n], 10, bold=n == 0, anchor="rs") + 6
        canvas.fitted((2, y), line, (10, 9), bold=n == 0, max_width=limit)
