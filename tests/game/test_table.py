"""The game controller: lobby, turns, illegal moves, undo, bonus alerts, the bag, the end."""

import pytest

from companion.board.problems import Problem
from companion.board.tracker import CONFIRM_TALL
from companion.game.journal import start_record, turn_record
from companion.game.table import OVER_PAUSE_SECONDS
from companion.game.view import (
    ALERT_SECONDS,
    BagEmpty,
    BonusAlert,
    IllegalMove,
    SwapQuestion,
    Undo,
)
from engine import ALL_TILES, Board, Game, Options
from hardware.hub.sim import FaultModel
from tests.helpers import Rig, config, tile

COLOURS = {"N": "red", "E": "purple", "S": "yellow", "W": "green"}
START = {"NW": ["star-3"], "NE": ["heart-5"], "SW": ["club-7"], "SE": ["spade-9"]}
# (side, tiles put down in this order); [] is a swap. Checked against the engine below.
SCRIPT = [
    ("S", [("W2", "star-4")]),
    ("N", [("N1", "star-5")]),
    ("S", [("NE", "diamond-5")]),  # on heart-5 (a stack), with star-5 on N1: N's bonus
    ("N", []),
    ("S", [("S2", "club-8"), ("S1", "club-9")]),
    ("N", [("N2", "diamond-6")]),
]


def placed(tiles):
    return [(square, tile(name)) for square, name in tiles]


def started(tmp_path, *sides, faults=None, seed=0, **game) -> Rig:
    rig = Rig(tmp_path, faults, seed, config(tmp_path, **game))
    rig.setup(START)
    rig.sweep(5)
    rig.start(*(sides or ("S", "N")))
    rig.sounds()
    return rig


@pytest.mark.parametrize(
    "faults", [FaultModel(), FaultModel.realistic()], ids=["clean", "realistic"]
)
def test_a_short_game_scores_exactly_as_the_engine(tmp_path, faults):
    rig = started(tmp_path, faults=faults, seed=3)
    reference = Game(["S", "N"], board=Board.from_mapping(START))
    for side, tiles in SCRIPT:
        assert rig.table.game.active == side
        for square, name in tiles:
            rig.put(square, name)
            rig.sweep(3)  # a tile is seen while it is being put down
        rig.sweep(10)
        assert list(rig.table.tracker.placement) == placed(tiles)
        if tiles:
            assert reference.place(placed(tiles)).legal
        else:
            reference.swap()
        rig.press(side)
        rig.sweep(CONFIRM_TALL)  # a press on stacks is confirmed by the next sweeps
        if not tiles and any(isinstance(n, SwapQuestion) for n in rig.view().notices):
            rig.press(side)  # "a swap?" where the readers could miss a tile laid: yes
        assert rig.table.game.scores == reference.scores
    assert rig.table.game.board == reference.board
    assert rig.table.game.scores == {"S": 8, "N": 7}
    assert rig.restart().game.scores == reference.scores  # and the journal says the same


def test_preview_while_placing_and_illegal_explained_before_the_press(tmp_path):
    rig = started(tmp_path)
    rig.put("W2", "star-4")
    rig.sweep(2)
    seat = rig.view().seat("S")
    assert seat.active and seat.preview.points == 2 and seat.preview.legal
    assert rig.view().seat("N").preview is None
    rig.put("S1", "heart-9")  # not in one set with star-4
    rig.sweep(2)
    preview = rig.view().seat("S").preview
    assert not preview.legal and preview.illegal.code == "not-one-set"


def test_illegal_move_scores_nothing_until_fixed_and_pressed_again(tmp_path):
    rig = started(tmp_path)
    rig.put("W2", "star-4")
    rig.put("S1", "heart-9")
    rig.sweep(3)
    rig.press("S")
    assert rig.table.game.scores == {"S": 0, "N": 0} and rig.table.game.active == "S"
    notices = rig.view().notices
    assert [type(n) for n in notices] == [IllegalMove]
    assert notices[0].side == "S" and notices[0].illegal.code == "not-one-set"
    assert rig.sounds() == ["illegal S"]
    assert [r["type"] for r in rig.journal.records()] == ["start"]
    rig.seconds(1)  # the players read the display ...
    rig.lift("S1")  # ... and take heart-9 back
    rig.seconds(3)
    assert rig.view().notices == ()  # the board changed: the old explanation is gone
    assert rig.table.tracker.placement == (("W2", tile("star-4")),)
    rig.press("S")
    assert rig.table.game.scores == {"S": 2, "N": 0} and rig.table.game.active == "N"
    assert rig.sounds() == ["score S +2"]


def test_press_by_another_seat_is_not_a_turn(tmp_path):
    rig = started(tmp_path)
    rig.put("W2", "star-4")
    rig.sweep(3)
    rig.press("N")
    rig.press("E")  # not playing
    assert rig.table.game.moves == () and rig.sounds() == ["not-your-turn N", "not-your-turn E"]


def test_no_tiles_is_a_swap(tmp_path):
    rig = started(tmp_path)
    rig.press("S")
    assert [m.kind for m in rig.table.game.moves] == ["swap"]
    assert rig.view().last_turn.swapped and rig.sounds() == ["swap S"]


def play(rig: Rig, script) -> None:
    """Each turn of `script` laid, seen for three sweeps, and pressed by its player."""
    for side, tiles in script:
        for square, name in tiles:
            rig.put(square, name)
        rig.sweep(3)
        rig.press(side)


def test_bonus_goes_to_its_owner_at_once_with_an_alert(tmp_path):
    rig = started(tmp_path)
    play(rig, SCRIPT[:3])
    assert rig.table.game.scores == {"S": 4, "N": 5}
    assert rig.sounds()[-2:] == ["score S +2", "bonus N +1"]
    pressed = rig.now
    assert rig.view().alerts == (BonusAlert("N", 1, pressed),)
    assert rig.view().last_turn.bonus_for("N") == 1
    rig.seconds(ALERT_SECONDS + 1)
    assert rig.view().alerts == ()


def test_hub_disconnect_and_reader_fault_keep_the_board_and_score_nothing(tmp_path):
    rig = started(tmp_path)
    rig.put("W2", "star-4")
    rig.sweep(3)
    rig.table.on_health(False, (), rig.now)
    rig.lift("W2")  # unseen while the hub is away
    rig.press("S")
    assert rig.table.game.moves == () and rig.sounds() == ["refused S"]
    assert rig.view().notices == (Problem("hub-disconnected"),)
    rig.now += 1.0  # the "problem" sound is for a problem that lasts (issue 15)
    rig.table.tick(rig.now)
    assert rig.sounds() == ["problem"]
    assert rig.table.tracker.placement == (("W2", tile("star-4")),)  # the last known board
    rig.table.on_health(True, (), rig.now)
    rig.put("W2", "star-4")
    rig.sweep(5)
    rig.table.on_health(True, (7,), rig.now)  # reader 7 sits under W2
    rig.press("S")
    assert rig.table.game.moves == ()
    assert rig.view().notices == (Problem("reader-fault", "W2"),)
    rig.table.on_health(True, (), rig.now)
    rig.sweep(3)
    rig.press("S")
    assert rig.table.game.scores["S"] == 2


def test_unknown_tag_blocks_the_turn_and_is_never_scored(tmp_path):
    rig = started(tmp_path)
    rig.sim.put(0, "04DEADBEEF0001")  # a tag nobody enrolled, on N1 (reader 0)
    rig.sweep(3)
    assert rig.view().notices == (Problem("unknown-tag", "N1"),)
    rig.press("S")
    assert rig.table.game.moves == ()
    rig.sim.remove("04DEADBEEF0001")
    rig.seconds(4)
    rig.press("S")
    assert [m.kind for m in rig.table.game.moves] == ["swap"]


def test_forgotten_tile_is_the_next_players_arrival_and_undo_replays_the_turn(tmp_path):
    """S presses, then puts down a tile it forgot. That tile is an arrival of N's turn (N's
    preview shows it). To give it to S: a long press undoes S's turn, every tile of it comes
    off, S lays the whole turn again and presses."""
    rig = started(tmp_path)
    rig.put("W2", "star-4")
    rig.sweep(3)
    rig.press("S")
    assert rig.table.game.scores == {"S": 2, "N": 0}
    rig.put("N1", "star-5")  # forgotten by S, after the press
    rig.sweep(3)
    assert rig.table.tracker.placement == (("N1", tile("star-5")),)
    assert rig.view().seat("N").preview.points == 4  # N's placement now (N1 is N's square)
    rig.press("S", long=True)
    assert rig.table.game.scores == {"S": 0, "N": 0} and rig.table.game.active == "S"
    notices = rig.view().notices
    assert set(notices) == {Problem("take-off", "W2"), Problem("take-off", "N1"), Undo("S")}
    rig.press("S")  # tiles still to come off: no turn
    assert rig.table.game.moves == ()
    rig.lift("W2")
    rig.lift("N1")
    rig.seconds(7)
    assert [type(n) for n in rig.view().notices] == []
    rig.put("W2", "star-4")
    rig.put("W1", "star-5")
    rig.sweep(3)
    rig.press("S")
    assert rig.table.game.scores == {"S": 3, "N": 0}
    assert [r["type"] for r in rig.journal.records()] == ["start", "turn", "undo", "turn"]


def test_undo_restores_scores_and_resumes_exactly(tmp_path):
    rig = started(tmp_path)
    play(rig, SCRIPT[:3])
    assert rig.table.game.scores == {"S": 4, "N": 5}
    rig.press("N", long=True)  # any player may take the last turn back
    assert rig.table.game.scores == {"S": 2, "N": 4} and rig.table.game.active == "S"
    assert rig.sounds()[-1] == "undo S"
    assert rig.table.tracker.leaving == (("NE", tile("diamond-5")),)
    table = rig.restart()
    assert table.game.scores == {"S": 2, "N": 4} and table.game.active == "S"
    rig.sweep(3)  # after a restart the tile still on the board is seen as placed again
    assert table.tracker.placement == (("NE", tile("diamond-5")),)


def test_undo_with_nothing_to_undo_is_refused(tmp_path):
    rig = started(tmp_path)
    rig.press("S", long=True)
    assert rig.sounds() == ["refused S"] and rig.table.game.moves == ()


def test_auto_end_after_a_stable_legal_placement(tmp_path):
    rig = started(tmp_path, auto_end_seconds=5.0)
    rig.put("W2", "star-4")
    rig.put("S1", "heart-9")
    rig.seconds(8)  # illegal: never ends by itself
    assert rig.table.game.moves == ()
    rig.lift("S1")
    rig.seconds(4)
    assert rig.table.game.moves == ()  # legal since ~2 s only
    rig.seconds(4)
    assert rig.table.game.scores == {"S": 2, "N": 0}
    rig.seconds(10)  # no tiles: never a swap by itself
    assert len(rig.table.game.moves) == 1


def test_lobby_join_order_leave_and_start(tmp_path):
    rig = Rig(tmp_path)
    rig.setup(START)
    rig.sweep(3)
    rig.press("W")
    rig.press("S", long=True)  # joins and starts? two players: yes...
    assert rig.table.phase == "playing" and rig.table.game.players == ("W", "S")
    assert rig.table.game.board == Board.from_mapping(START)


def test_lobby_presses(tmp_path):
    rig = Rig(tmp_path)
    rig.setup(START)
    rig.sweep(3)
    rig.press("N", long=True)
    assert rig.table.phase == "lobby" and rig.sounds() == ["join N", "refused N"]
    for side in ("E", "S", "E", "W", "E"):
        rig.press(side)
    assert rig.view().lobby.joined == ("N", "S", "W", "E")
    rig.press("S", long=True)
    assert rig.table.game.players == ("N", "S", "W", "E") and rig.table.game.teams is None
    assert rig.view().seats[0].active and rig.view().seats[0].side == "N"


def test_team_game_alternates_the_teams_in_join_order(tmp_path):
    rig = Rig(tmp_path, cfg=config(tmp_path, teams=True))
    rig.setup(START)
    rig.sweep(3)
    for side in ("S", "E", "N", "W"):
        rig.press(side)
    assert rig.view().lobby.teams == (("S", "N"), ("E", "W"))
    rig.press("W", long=True)
    game = rig.table.game
    assert game.players == ("S", "E", "N", "W") and game.teams == (("S", "N"), ("E", "W"))
    assert [s.team for s in rig.view().seats] == [0, 1, 0, 1]
    rig.put("N2", "star-4")  # S may not use its partner's square N2 (canon)
    rig.sweep(3)
    assert rig.view().seat("S").preview.illegal.code == "forbidden-square"


def test_three_players_with_teams_configured_play_without_teams(tmp_path):
    rig = Rig(tmp_path, cfg=config(tmp_path, teams=True))
    rig.setup(START)
    rig.sweep(3)
    rig.start("S", "E", "N")
    assert rig.table.game.teams is None


def test_start_refused_while_the_board_has_a_problem(tmp_path):
    rig = Rig(tmp_path)
    rig.setup(START)
    rig.sim.put(1, "04DEADBEEF0001")
    rig.sweep(3)
    rig.press("S")
    rig.press("N")
    rig.press("S", long=True)
    assert rig.table.phase == "lobby"


def test_game_over_ranking_and_a_new_game(tmp_path):
    rig = Rig(tmp_path)
    game = Game(["S", "N"], board=Board.from_mapping(START))
    while game.scores["S"] < 26 or game.active != "S":  # S plays its best tile, N swaps
        if game.active == "S":
            game.place(_best_single(game))
        else:
            game.swap()
    _resume(rig, Board.from_mapping(START), game)
    assert rig.table.phase == "playing" and rig.table.game.scores == game.scores
    finish = _best_single(rig.table.game)
    assert rig.table.game.scores["S"] + game.preview(finish).points >= 31
    for square, t in finish:
        rig.put(square, str(t))
    rig.sweep(3)
    rig.press("S")
    assert rig.table.phase == "over"
    view = rig.view()
    final = rig.table.game.scores
    assert view.result.ranking == (("S", final["S"]), ("N", final["N"]))
    assert view.result.winner == "S" and not any(seat.active for seat in view.seats)
    assert view.result.progress[0][1][-1] == final["S"]
    assert rig.sounds()[-1] == "game-over S"
    assert rig.journal.records()[-1]["type"] == "end"
    assert rig.restart().phase == "over"  # the ranking screen comes back after a power cut
    rig.press("N")  # right away (pressing again to be sure): the ranking stays (issue 15)
    assert rig.table.phase == "over" and rig.sounds()[-1] == "refused N"
    rig.seconds(OVER_PAUSE_SECONDS + 0.5)
    rig.press("N")
    assert rig.table.phase == "lobby" and rig.view().lobby.joined == ()
    assert not rig.journal.path.exists() and (tmp_path / "journal-1.jsonl").exists()
    assert rig.restart().phase == "lobby"


def _best_single(game):
    best, top = None, 0
    allowed = sorted(game.seating.allowed(game.active, game.options.partner_squares))
    for t in ALL_TILES:
        if t in game.board:
            continue
        for square in allowed:
            result = game.preview([(square, t)])
            if result.legal and result.points > top:
                best, top = [(square, t)], result.points
    assert best is not None
    return best


def _resume(rig, start, game):
    """Journals `game` (started on the board `start`) as played so far, lays its board out on
    the table, and starts the daemon again: as after a power cut."""
    first = Game(game.players, game.teams, game.options, start)
    rig.journal.append(start_record(first, COLOURS))
    for move in game.moves:
        rig.journal.append(
            turn_record(move.side, move.scoring.placed if move.kind == "place" else ())
        )
    for square in game.board.to_mapping():
        for t in game.board.stack(square):
            rig.put(square, str(t))
    rig.restart()
    rig.sweep(5)


def test_bag_empty_cleanup_confirmed_by_the_readers(tmp_path):
    rig, covered = _nearly_empty_bag(tmp_path)
    rig.put("W2", "star-4")
    rig.sweep(3)
    rig.press("S")
    game = rig.table.game
    assert game.needs_return and rig.sounds()[-1] == "bag-empty"
    assert BagEmpty(returned=False) in rig.view().notices
    for names in covered.values():  # the players take the covered tiles off
        for name in names:
            rig.remove(name)
    rig.seconds(3)
    assert not game.needs_return and rig.sounds()[-1] == "returned"
    assert BagEmpty(returned=True) in rig.view().notices
    assert rig.journal.records()[-1]["type"] == "return"
    assert rig.restart().game.board == game.board


def test_bag_empty_cleanup_confirmed_by_a_press(tmp_path):
    rig, _ = _nearly_empty_bag(tmp_path)
    rig.put("W2", "star-4")
    rig.sweep(3)
    rig.press("S")
    assert rig.table.game.needs_return
    rig.press("E")  # a seat that does not play cannot confirm
    covered = set(rig.table.game.board.covered())
    rig.press("N")  # the players say it is done (but they forgot to do it)
    assert not rig.table.game.needs_return and rig.table.game.active == "N"
    assert rig.journal.records()[-1]["type"] == "return"
    rig.sweep(5)  # the covered tiles still there are new arrivals of N's turn: never scored
    assert {t for _, t in rig.table.tracker.placement} == covered
    assert not rig.view().seat("N").preview.legal
    rig.press("N", long=True)  # a bag return cannot be undone
    assert rig.sounds()[-1] == "refused N"


_COVERED = {
    "NW": ["diamond-1", "diamond-2", "diamond-3"],
    "NE": ["club-1", "club-2"],
    "SW": ["heart-1", "heart-2"],
    "SE": ["spade-1", "spade-2"],
}


def _nearly_empty_bag(tmp_path):
    """A game whose board holds 37 tiles (2 players: 12 in hands, 1 left in the bag)."""
    stacks = {sq: list(names) for sq, names in _COVERED.items()}
    for square, names in START.items():
        stacks[square] = stacks.get(square, []) + names
    used = {tile(n) for names in stacks.values() for n in names}
    spare = [t for t in ALL_TILES if t not in used and t.suit != "star"]
    for square in ("N1", "N2", "E1", "E2", "S1", "S2", "W1"):
        stacks[square] = [str(spare.pop()) for _ in range(3)]
    while sum(map(len, stacks.values())) < 37:
        stacks["E1"].append(str(spare.pop()))
    rig = Rig(tmp_path)
    board = Board.from_mapping(stacks)
    game = Game(["S", "N"], board=board)
    assert game.bag == 1
    _resume(rig, board, game)
    covered = {sq: [str(t) for t in board.stack(sq)[:-1]] for sq in stacks}
    return rig, covered


def test_resume_mid_turn_rebuilds_the_placement_from_the_readers(tmp_path):
    rig = started(tmp_path)
    rig.put("W2", "star-4")
    rig.sweep(3)
    rig.press("S")
    rig.put("N1", "star-5")  # N is placing when the power goes
    rig.sweep(3)
    with open(rig.journal.path, "ab") as handle:
        handle.write(b'{"type":"turn","side":"N","pla')  # and a record was being written
    table = rig.restart()
    assert table.game.scores == {"S": 2, "N": 0} and table.game.active == "N"
    assert table.tracker.placement == ()
    rig.sweep(3)  # what the readers see that the game's board has not: this turn's tiles
    assert table.tracker.placement == (("N1", tile("star-5")),)
    rig.press("N")
    assert table.game.scores == {"S": 2, "N": 4}
    assert [r["type"] for r in rig.journal.records()] == ["start", "turn", "turn"]


def test_the_final_turn_can_be_taken_back_from_the_ranking(tmp_path):
    rig = Rig(tmp_path)
    game = Game(["S", "N"], board=Board.from_mapping(START))
    while game.scores["S"] < 26 or game.active != "S":
        if game.active == "S":
            game.place(_best_single(game))
        else:
            game.swap()
    _resume(rig, Board.from_mapping(START), game)
    before = dict(rig.table.game.scores)
    for square, t in _best_single(rig.table.game):
        rig.put(square, str(t))
    rig.sweep(3)
    rig.press("S")
    assert rig.table.phase == "over"
    rig.press("N", long=True)
    assert rig.table.phase == "playing" and rig.table.game.scores == before
    assert rig.table.game.active == "S" and rig.table.tracker.leaving
    assert [r["type"] for r in rig.journal.records()][-3:] == ["turn", "end", "undo"]
    assert rig.restart().phase == "playing"


def test_a_team_game_ends_at_the_first_finish_whatever_the_end_option_says():
    """Issue 15, 10: with `end = "equal"` a team game played on after the first finish; the
    option is for games without teams (the same moves there play the round out)."""
    options = Options(end="equal")
    sides = ["S", "E", "N", "W"]
    teams = Game(sides, (("S", "N"), ("E", "W")), options, Board.from_mapping(START))
    alone = Game(sides, None, options, Board.from_mapping(START))
    while max(teams.scores.values()) < teams.finish_line:
        if teams.active == "S":
            move = _best_single(teams)
            teams.place(move)
            alone.place(move)
        else:
            teams.swap()
            alone.swap()
    assert teams.finished and teams.active == "E"  # over as S reached the finish
    assert not alone.finished  # E, N and W still get their turn


def test_a_tile_moved_after_a_press_told_not_legal_is_the_familys_move_not_a_doubt(tmp_path):
    """A press held for the readers, then told "not legal", is taken: a tile the family
    then moves is theirs to move (only while a press waits does a move the readings make
    need the family's word, `Turn.moved_since_press`)."""
    rig = started(tmp_path)
    rig.put("W2", "star-4")
    rig.put("S1", "heart-9")
    rig.put("NW", "spade-1")
    rig.sweep(5)
    rig.lift("NW")  # taken back into the hand
    for _ in range(60):  # until the readers have spade-1 lifted
        rig.sweep()
        if "NW" not in dict(rig.table.tracker.placement):
            break
    rig.press("S")  # a tile lifted just now: the press waits for the readers
    rig.sweep(10)
    assert IllegalMove in [type(n) for n in rig.view().notices]
    rig.lift("S1")
    rig.put("S2", "heart-9")  # moved: slid across
    rig.sweep(10)
    assert dict(rig.table.tracker.placement) == {"W2": tile("star-4"), "S2": tile("heart-9")}
    assert rig.table.tracker.doubts(rig.now) == ()
