"""Properties over random positions and games (hypothesis), and the engine against the slow
reference reading of the rules."""

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engine
from engine import (
    ALL_TILES,
    SQUARES,
    Board,
    Game,
    Options,
    Placement,
    Seating,
    Tile,
    score_placement,
)
from engine.geometry import QUARTER_TURN_SIDE, QUARTER_TURN_SQUARE
from tests.engine.reference import reference_score

SIDE_ORDERS = [
    ("N", "S"),
    ("S", "N"),
    ("E", "W"),
    ("N", "E", "S"),
    ("N", "E", "S", "W"),
    ("W", "S"),
]


@st.composite
def positions(draw):
    """A board dense in sets: tiles from a few suits and a narrow band of ranks."""
    suits = draw(
        st.lists(
            st.sampled_from(["star", "heart", "diamond", "club", "spade"]),
            min_size=1,
            max_size=3,
            unique=True,
        )
    )
    low = draw(st.integers(1, 7))
    pool = [Tile(s, r) for s in suits for r in range(low, low + 4)]
    pool = draw(st.permutations(pool))
    stacks: dict[str, list[Tile]] = {}
    i = 0
    for sq in SQUARES:
        depth = draw(st.integers(0, 2))
        if i + depth > len(pool) - 1:
            break
        if depth:
            stacks[sq] = list(pool[i : i + depth])
            i += depth
    rest = pool[i:]
    players = draw(st.sampled_from(SIDE_ORDERS))
    teams = None
    if len(players) == 4 and draw(st.booleans()):
        teams = ((players[0], players[2]), (players[1], players[3]))
    active = draw(st.sampled_from(players))
    count = draw(st.integers(1, min(4, len(rest))))
    tiles = rest[:count]
    squares = draw(st.lists(st.sampled_from(SQUARES), min_size=count, max_size=count))
    options = Options(
        adjacency=draw(st.sampled_from(["default", "orthogonal"])),
        partner_squares=draw(st.booleans()),
    )
    return Board(stacks), Seating(players, teams), active, list(zip(squares, tiles)), options


@st.composite
def set_positions(draw):
    """A position built around one set laid along a walk, some of it placed this turn."""
    from engine import GEOMETRIES

    g = GEOMETRIES["default"]
    walk = [draw(st.sampled_from(SQUARES))]
    for _ in range(draw(st.integers(1, 5))):
        nxt = [sq for sq in SQUARES if g.joined(walk[-1], sq) and sq not in walk]
        if not nxt:
            break
        walk.append(draw(st.sampled_from(nxt)))
    if draw(st.booleans()):
        suits = draw(st.permutations(["star", "heart", "diamond", "club", "spade"]))
        rank = draw(st.integers(1, 10))
        walk = walk[:5]
        tiles = [Tile(s, rank) for s in suits[: len(walk)]]
    else:
        suit = draw(st.sampled_from(["star", "heart", "diamond", "club", "spade"]))
        low = draw(st.integers(1, 11 - len(walk)))
        tiles = [Tile(suit, low + i) for i in range(len(walk))]
    placed_flags = draw(st.lists(st.booleans(), min_size=len(walk), max_size=len(walk)))
    if not any(placed_flags):
        placed_flags[0] = True
    stacks = {sq: [t] for sq, t, p in zip(walk, tiles, placed_flags) if not p}
    others = [t for t in ALL_TILES if t not in tiles]
    for sq in SQUARES:
        if sq not in walk and draw(st.integers(0, 3)) == 0:
            stacks[sq] = [others.pop(draw(st.integers(0, len(others) - 1)))]
    placement = [(sq, t) for sq, t, p in zip(walk, tiles, placed_flags) if p]
    placement = draw(st.permutations(placement))
    players = draw(st.sampled_from(SIDE_ORDERS))
    return (
        Board(stacks),
        Seating(players),
        draw(st.sampled_from(players)),
        list(placement),
        Options(),
    )


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(positions(), set_positions()))
def test_engine_agrees_with_the_reference_reading(position):
    board, seating, active, placement, options = position
    r = score_placement(board, placement, seating, active, options)
    if not r.legal and r.code != "not-one-set":
        return  # forbidden squares etc. are checked by their own tests
    after = board.placed(placement)
    covered = any(after.top(sq) != tile for sq, tile in placement)
    one, union = reference_score(after, [sq for sq, _ in placement], options.adjacency)
    assert r.legal == (one and not covered)
    if r.legal:
        assert sorted(r.scored) == sorted(after.top(sq) for sq in union)


@settings(max_examples=300, deadline=None)
@given(st.one_of(positions(), set_positions()))
def test_points_bonus_and_owners(position):
    board, seating, active, placement, options = position
    r = score_placement(board, placement, seating, active, options)
    if not r.legal:
        return
    assert r.points == len(r.scored) >= 2
    assert len(set(r.scored)) == len(r.scored)
    for side, points in r.bonus.items():
        assert side != active and side in seating.players
        assert 1 <= points <= 2


@settings(max_examples=300, deadline=None)
@given(st.one_of(positions(), set_positions()))
def test_a_quarter_turn_with_renamed_sides_changes_nothing(position):
    board, seating, active, placement, options = position
    r = score_placement(board, placement, seating, active, options)
    turn = QUARTER_TURN_SIDE
    teams = (
        None if seating.teams is None else tuple(tuple(turn[s] for s in t) for t in seating.teams)
    )
    rotated = score_placement(
        board.renamed(QUARTER_TURN_SQUARE),
        [(QUARTER_TURN_SQUARE[sq], t) for sq, t in placement],
        Seating(tuple(turn[s] for s in seating.players), teams),
        turn[active],
        options,
    )
    assert r.legal == rotated.legal
    if r.legal:
        assert (r.points, r.scored) == (rotated.points, rotated.scored)
        assert {turn[s]: n for s, n in r.bonus.items()} == rotated.bonus
    else:
        assert r.code == rotated.code


def _state(game: Game):
    return (
        game.board,
        game.scores,
        game.active,
        game.bag,
        game.finished,
        game.turns_taken,
        game.moves,
    )


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_random_games_conserve_tiles_and_undo_exactly(data):
    players = data.draw(st.sampled_from(SIDE_ORDERS))
    game = Game(
        players,
        board=Board(
            {
                "NW": [ALL_TILES[0]],
                "NE": [ALL_TILES[11]],
                "SW": [ALL_TILES[22]],
                "SE": [ALL_TILES[33]],
            }
        ),
    )
    for _ in range(data.draw(st.integers(5, 60))):
        if game.finished:
            break
        action = data.draw(st.sampled_from(["place", "place", "place", "swap", "undo", "return"]))
        before = _state(game)
        if action == "place":
            off = [t for t in ALL_TILES if t not in game.board]
            tile = data.draw(st.sampled_from(off))
            square = data.draw(st.sampled_from(SQUARES))
            result = game.place([(square, tile)])
            if not result.legal:
                assert _state(game) == before  # an illegal move changes nothing
                continue
        elif action == "swap":
            game.swap()
        elif action == "return":
            if not game.needs_return:
                continue
            game.return_covered()
        elif game.moves:
            game.pop()
            continue
        else:
            continue
        assert len(game.board) + game.hand_tiles + game.bag == 50
        assert game.bag >= 0 and game.hand_tiles >= 0
        game.pop()
        assert _state(game) == before  # undo restores the exact prior state
        # and play the move again for real
        if action == "place":
            game.place([(square, tile)])
        elif action == "swap":
            game.swap()
        else:
            game.return_covered()


# -- the values read and write themselves back ------------------------------------------------
NAMES = {name: getattr(engine, name) for name in engine.__all__}


@settings(max_examples=200, deadline=None)
@given(st.one_of(positions(), set_positions()))
def test_board_and_placement_repr_evaluate_back_and_str_parses_back(position):
    board, _, _, pairs, _ = position
    placement = Placement(pairs)
    assert eval(repr(board), NAMES) == board
    assert eval(repr(placement), NAMES) == placement
    assert Placement.parse(str(placement)) == placement
    assert Placement.from_json(json.loads(json.dumps(placement.to_json()))) == placement
    assert Board.from_mapping(board.to_mapping()) == board


@settings(max_examples=40, deadline=None)
@given(st.one_of(positions(), set_positions()))
def test_moves_repr_evaluate_back(position):
    board, seating, active, pairs, options = position
    game = Game(seating, options=options, board=board)
    while game.active != active:
        game.swap()
    game.place(Placement(pairs))
    for move in game.moves:
        assert eval(repr(move), NAMES) == move
