import pytest

from engine import ALL_TILES, GEOMETRIES, SQUARES, Tile, TileError
from engine.geometry import GRID, QUARTER_TURN_SQUARE, SIDE_SQUARES, owner


def test_fifty_unique_tiles():
    assert len(ALL_TILES) == 50 == len(set(ALL_TILES))
    assert {t.suit for t in ALL_TILES} == {"star", "heart", "diamond", "club", "spade"}
    assert {t.rank for t in ALL_TILES} == set(range(1, 11))


@pytest.mark.parametrize("tile", ALL_TILES)
def test_text_and_repr_round_trip(tile):
    assert Tile.parse(str(tile)) == tile
    assert eval(repr(tile)) == tile


@pytest.mark.parametrize(
    "text",
    [
        "Star-3",
        "star-0",
        "star-11",
        "star3",
        " star-3",
        "star-3 ",
        "star-03",
        "moon-3",
        "",
        "3-star",
    ],
)
def test_strict_parsing_with_a_clear_error(text):
    with pytest.raises(TileError, match="is not a tile"):
        Tile.parse(text)


def test_non_text_is_rejected():
    with pytest.raises(TileError):
        Tile.parse(3)  # type: ignore[arg-type]
    with pytest.raises(TileError):
        Tile("star", True)  # a bool is not a rank


def test_default_lines_as_in_rules():
    g = GEOMETRIES["default"]
    assert len(g.lines) == 30
    degree = {sq: bin(g.neighbours[i]).count("1") for i, sq in enumerate(SQUARES)}
    for sq in ("NW", "NE", "SW", "SE"):
        assert degree[sq] == 7
    for side in SIDE_SQUARES.values():
        for sq in side:
            assert degree[sq] == 4
    assert g.joined("N1", "W2") and g.joined("W2", "N1")  # the diagonal around a missing corner
    assert not g.joined("N1", "E1")


def test_lines_are_exactly_the_grid_neighbours():
    for name, diagonal in (("default", True), ("orthogonal", False)):
        g = GEOMETRIES[name]
        for a in SQUARES:
            for b in SQUARES:
                (r1, c1), (r2, c2) = GRID[a], GRID[b]
                near = max(abs(r1 - r2), abs(c1 - c2)) == 1
                if not diagonal:
                    near = near and (r1 == r2 or c1 == c2)
                assert g.joined(a, b) == near, (name, a, b)
    assert len(GEOMETRIES["orthogonal"].lines) == 16


def test_quarter_turn_maps_lines_onto_lines():
    for g in GEOMETRIES.values():
        lines = {frozenset(line) for line in g.lines}
        turned = {frozenset(QUARTER_TURN_SQUARE[s] for s in line) for line in g.lines}
        assert lines == turned


def test_owners():
    assert owner("N1") == "N" and owner("W2") == "W" and owner("SE") is None
