"""The SETUP rules: tiles, the board, sets, scoring and the game with undo.

Pure Python and the standard library only: no I/O, no clock, no threads.
"""

from engine.board import Board, BoardError
from engine.game import Game, GameOver, Move, Placed, Ranking, Returned, Swapped
from engine.geometry import (
    COMMON_SQUARES,
    GEOMETRIES,
    SIDE_SQUARES,
    SIDES,
    SQUARES,
    Geometry,
)
from engine.options import Options, OptionsError
from engine.placement import Placement, PlacementError
from engine.results import ILLEGAL_CODES, Illegal, ScoredSet, Scoring
from engine.scoring import MAX_TILES_PER_TURN, score_placement
from engine.seating import COLOURS, DEFAULT_COLOURS, FINISH_LINES, Seating, SeatingError
from engine.tiles import ALL_TILES, RANKS, SUITS, Tile, TileError

__all__ = [
    "ALL_TILES", "Board", "BoardError", "COLOURS", "COMMON_SQUARES", "DEFAULT_COLOURS", "FINISH_LINES", "GEOMETRIES",
    "Game", "GameOver", "Geometry", "ILLEGAL_CODES", "Illegal", "MAX_TILES_PER_TURN", "Move",
    "Options", "OptionsError", "Placed", "Placement", "PlacementError", "RANKS", "Ranking", "Returned", "SIDES", "SIDE_SQUARES", "SQUARES", "SUITS",
    "ScoredSet", "Scoring", "Seating", "SeatingError", "Swapped", "Tile", "TileError", "score_placement",
]  # fmt: skip
