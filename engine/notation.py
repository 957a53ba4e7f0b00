"""Positions and games as plain data (the JSON of `setup-companion score` and `game`).

Pure functions from dicts to engine values and back. Anything malformed becomes an
`Illegal` with a stable code (`bad-tile`, `unknown-square`, `duplicate-tile`, `bad-input`)
instead of an exception, so a caller can answer it and carry on.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.board import Board, BoardError
from engine.game import Game
from engine.options import Options, OptionsError
from engine.placement import Placement, PlacementError, parse_square
from engine.placement import parse_tile as _parse_tile
from engine.results import Illegal, Scoring
from engine.scoring import score_placement
from engine.seating import Seating, SeatingError
from engine.tiles import Tile


class NotationError(PlacementError):
    """Plain data that is not a position, a board or a game; `illegal` says why."""


def _bad(message: str) -> NotationError:
    return NotationError(Illegal("bad-input", message))


def parse_tile(text: Any) -> Tile:
    try:
        return _parse_tile(text)
    except PlacementError as exc:
        raise NotationError(exc.illegal) from None


def parse_board(data: Any) -> Board:
    if data is None:
        return Board()
    if not isinstance(data, Mapping):
        raise _bad('"board" must be an object of square: [tiles bottom to top]')
    stacks = {}
    for square, tiles in data.items():
        try:
            parse_square(square)
        except PlacementError as exc:
            raise NotationError(exc.illegal) from None
        if not isinstance(tiles, list):
            raise _bad(f"the stack on {square} must be a list of tiles, bottom to top")
        stacks[square] = [parse_tile(t) for t in tiles]
    try:
        return Board(stacks)
    except BoardError as exc:
        raise NotationError(Illegal(exc.code, f"{exc}.")) from None


def parse_placement(data: Any) -> Placement:
    if not isinstance(data, list):
        raise _bad('"place" must be a list of [square, tile] pairs in placing order')
    try:
        return Placement.from_json(data)
    except PlacementError as exc:
        raise NotationError(exc.illegal) from None


def parse_options(data: Any) -> Options:
    try:
        return Options.from_mapping(data)
    except (OptionsError, TypeError) as exc:
        raise _bad(f"{exc}.") from None


def parse_seating(data: Mapping[str, Any]) -> Seating:
    if "players" not in data:
        raise _bad('"players" is missing: a list of sides in turn order, such as ["S", "N"]')
    teams = data.get("teams")
    if teams is not None and not isinstance(teams, list):
        raise _bad('"teams" must be null or two lists of sides such as [["S","N"],["E","W"]]')
    try:
        return Seating.of(data["players"], teams)
    except SeatingError as exc:
        raise _bad(f"{exc}.") from None


@dataclass(frozen=True)
class Position:
    seating: Seating
    active: str
    board: Board
    placement: Placement
    options: Options

    def score(self) -> Scoring | Illegal:
        return score_placement(self.board, self.placement, self.seating, self.active, self.options)


def parse_position(data: Any) -> Position:
    if not isinstance(data, Mapping):
        raise _bad("a position must be a JSON object")
    seating = parse_seating(data)
    active = data.get("active")
    if active not in seating.players:
        raise _bad(
            f'"active" must be one of the players {", ".join(seating.players)}, not {active!r}'
        )
    if "place" not in data:
        raise _bad('"place" is missing: the tiles placed this turn as [square, tile] pairs')
    return Position(
        seating=seating,
        active=active,
        board=parse_board(data.get("board")),
        placement=parse_placement(data["place"]),
        options=parse_options(data.get("options")),
    )


def illegal_to_json(illegal: Illegal) -> dict[str, Any]:
    return {"legal": False, "error": illegal.code, "message": illegal.message}


def scoring_to_json(scoring: Scoring) -> dict[str, Any]:
    return {
        "legal": True,
        "points": scoring.points,
        "bonus": dict(sorted(scoring.bonus.items())),
        "scored": sorted(str(t) for t in scoring.scored),
    }


def result_to_json(result: Scoring | Illegal) -> dict[str, Any]:
    return scoring_to_json(result) if result.legal else illegal_to_json(result)  # type: ignore[arg-type]


def score_json(data: Any) -> dict[str, Any]:
    """One line of `setup-companion score`: a position in, its scoring out."""
    try:
        position = parse_position(data)
    except NotationError as exc:
        return illegal_to_json(exc.illegal)
    return result_to_json(position.score())


def new_game(data: Mapping[str, Any]) -> Game:
    return Game(
        parse_seating(data),
        options=parse_options(data.get("options")),
        board=parse_board(data.get("board")),
    )


def play_turn(game: Game, turn: Any) -> dict[str, Any]:
    """Applies one entry of a game's `turns` list and describes what happened."""
    if not isinstance(turn, Mapping):
        return {"legal": False, "error": "bad-input", "message": "a turn must be a JSON object"}
    if turn.get("return_covered"):
        move = game.return_covered()
        return {"return_covered": True, "returned": len(move.returned), "bag": game.bag}
    if turn.get("undo"):
        if not game.moves:
            return {
                "undo": True,
                "legal": False,
                "error": "bad-input",
                "message": "there is no move to undo",
            }
        move = game.pop()
        return {"undo": True, "undone": move.kind, "player": game.active}
    if game.finished:
        return {"ignored": True, "reason": "game-over"}
    player = game.active
    if turn.get("swap"):
        game.swap()
        return {"player": player, "legal": True, "swap": True}
    if "place" not in turn:
        return {
            "player": player,
            **illegal_to_json(
                Illegal(
                    "bad-input",
                    'a turn is {"place": [...]}, {"swap": true} or {"return_covered": true}',
                )
            ),
        }
    try:
        placement = parse_placement(turn["place"])
    except NotationError as exc:
        return {"player": player, **illegal_to_json(exc.illegal)}
    result = game.place(placement)
    out = {"player": player, **result_to_json(result)}
    if result.legal and game.needs_return:
        out["bag_empty"] = True
    return out


def game_json(data: Any) -> dict[str, Any]:
    """One line of `setup-companion game`: a whole game in, the final scores out."""
    if not isinstance(data, Mapping):
        return illegal_to_json(Illegal("bad-input", "a game must be a JSON object"))
    try:
        game = new_game(data)
    except NotationError as exc:
        return illegal_to_json(exc.illegal)
    turns = data.get("turns", [])
    if not isinstance(turns, list):
        return illegal_to_json(Illegal("bad-input", '"turns" must be a list'))
    results = [play_turn(game, turn) for turn in turns]
    ranking = game.ranking()
    out: dict[str, Any] = {"scores": game.scores, "finished": game.finished}
    if game.teams is None:
        out["winner"] = ranking.winner if game.finished else None
    else:
        out["winner_team"] = ranking.winner_team if game.finished else None
    out["bag"] = game.bag
    out["turns"] = results
    return out
