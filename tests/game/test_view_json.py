"""Every value that crosses the daemon's socket comes back the same from its JSON: the table's
view and each of its parts, every kind of notice, and the published state around them."""

from __future__ import annotations

import json
import typing

import hypothesis
import pytest
from hypothesis import find, given
from hypothesis import strategies as st

from companion.board.problems import Problem, ProblemCode
from companion.config import Config
from companion.game.late import LateTile
from companion.game.published import SimTruth, TableState
from companion.game.view import (
    NOTICES,
    BagEmpty,
    BonusAlert,
    Correction,
    GameResult,
    IllegalMove,
    Lobby,
    Notice,
    NotScored,
    Phase,
    PinShown,
    Preview,
    Question,
    Reply,
    SeatView,
    ShowFirst,
    SwapQuestion,
    TableView,
    TurnResult,
    Unconfirmed,
    Undo,
    UndoHint,
    Unsure,
    notice_from_json,
)
from companion.settings import RULES, SETTINGS, Settings
from engine import ALL_TILES, COLOURS, ILLEGAL_CODES, SIDES, SQUARES, Illegal, ScoredSet

sides = st.sampled_from(SIDES)
colours = st.sampled_from(COLOURS)
squares = st.sampled_from(SQUARES)
tiles = st.sampled_from(ALL_TILES)
times = st.floats(allow_nan=False, allow_infinity=False)
points = st.integers(0, 60)
words = st.text(max_size=20)


def few(strategy: st.SearchStrategy, most: int = 4) -> st.SearchStrategy[tuple]:
    return st.lists(strategy, max_size=most).map(tuple)


def optional(strategy: st.SearchStrategy) -> st.SearchStrategy:
    return st.none() | strategy


illegals = st.builds(
    Illegal, st.sampled_from(sorted(ILLEGAL_CODES)), words, few(tiles), few(squares)
)
scored_sets = st.builds(ScoredSet, st.sampled_from(["run", "rank"]), few(tiles).filter(bool))
#: (side, points) pairs as the view keeps them: one per side, sorted
bonus = st.dictionaries(sides, points, max_size=3).map(lambda d: tuple(sorted(d.items())))
problems = st.builds(
    Problem, st.sampled_from(ProblemCode), optional(squares), optional(tiles), st.integers(0, 99)
)
previews = st.builds(Preview, points, bonus, few(scored_sets), optional(illegals))
turns = st.builds(TurnResult, sides, points, bonus, few(scored_sets), st.booleans())
seats = st.builds(
    SeatView,
    sides,
    colours,
    points,
    points,
    st.booleans(),
    optional(previews),
    optional(st.sampled_from([0, 1])),
    st.booleans(),
)
alerts = st.builds(BonusAlert, sides, points, times)
notices: st.SearchStrategy[Notice] = st.one_of(
    st.builds(IllegalMove, sides, illegals),
    st.builds(Unsure, sides, problems),
    st.builds(BagEmpty, st.booleans()),
    problems,
    st.builds(Undo, sides),
    st.builds(UndoHint),
    st.builds(PinShown, st.text(alphabet="0123456789", min_size=4, max_size=4)),
    st.builds(LateTile, sides, colours, squares, tiles),
    st.builds(
        Question, sides, squares, optional(tiles), few(st.sampled_from(Reply)), st.booleans()
    ),
    st.builds(NotScored, sides, st.just("lifted"), optional(squares), optional(tiles)),
    st.builds(
        Correction, points, sides, tiles, st.tuples(squares, squares), points, points, st.booleans()
    ),
    st.builds(ShowFirst, sides, few(squares, 8)),
    st.builds(SwapQuestion, sides, few(squares, 8).filter(bool)),
    st.builds(Unconfirmed, sides, few(tiles)),
)
teams = optional(st.tuples(few(sides, 2), few(sides, 2)))
results = st.builds(
    GameResult,
    few(st.tuples(sides, points)),
    points,
    optional(sides),
    optional(st.sampled_from([0, 1])),
    few(st.tuples(sides, few(points, 6))),
    optional(words),
)
settings = st.tuples(*(st.sampled_from(s.choices) for s in SETTINGS)).map(
    lambda values: Settings(tuple((s.key, v) for s, v in zip(SETTINGS, values)))
)
rules = settings.map(lambda s: tuple((key, s[key]) for key in RULES))
lobbies = st.builds(Lobby, few(sides), teams, rules, optional(results), times)
stacks = st.dictionaries(squares, few(tiles, 3).filter(bool), max_size=4).map(
    lambda d: tuple(d.items())
)
views = st.builds(
    TableView,
    st.sampled_from(Phase),
    few(seats),
    st.tuples(*(st.tuples(st.just(side), colours) for side in SIDES)),
    teams,
    optional(lobbies),
    optional(turns),
    few(alerts),
    few(notices),
    optional(results),
    stacks,
    few(st.tuples(squares, tiles)),
)
truths = st.builds(SimTruth, stacks, st.booleans(), words, few(words))
states = st.builds(TableState, views, st.booleans(), optional(settings), optional(truths), times)

VALUES = {
    "Illegal": illegals,
    "ScoredSet": scored_sets,
    "Problem": problems,
    "Preview": previews,
    "TurnResult": turns,
    "SeatView": seats,
    "BonusAlert": alerts,
    "GameResult": results,
    "Lobby": lobbies,
    "TableView": views,
    "SimTruth": truths,
    "Settings": settings,
    "TableState": states,
}


#: finding that a kind is drawn needs one example of it, not the simplest one
FOUND = hypothesis.settings(max_examples=2000, phases=[hypothesis.Phase.generate], database=None)


def through_the_socket(data: dict) -> dict:
    """As the daemon's socket carries it: JSON text, UTF-8."""
    return json.loads(json.dumps(data, ensure_ascii=False).encode("utf-8"))


@pytest.mark.parametrize("name", VALUES)
def test_every_value_comes_back_the_same_from_its_json(name):
    @given(VALUES[name])
    def round_trip(value):
        assert type(value).from_json(through_the_socket(value.to_json())) == value

    round_trip()


@given(notices)
def test_every_notice_comes_back_the_same_and_of_its_kind(notice):
    back = notice_from_json(through_the_socket(notice.to_json()))
    assert back == notice and type(back) is type(notice)


@pytest.mark.parametrize("kind", sorted(NOTICES))
def test_the_notices_drawn_cover_every_kind(kind):
    """The property above is about every kind of notice: each is drawn (a new kind must
    be added to `notices`)."""
    assert type(find(notices, lambda n: n.kind == kind, settings=FOUND)) is NOTICES[kind]


@pytest.mark.parametrize("pressed", [False, True])
@pytest.mark.parametrize("reply", list(Reply))
def test_a_question_comes_back_with_every_reply_and_whether_a_first_press_was_heard(reply, pressed):
    asked = Question("S", "NE", ALL_TILES[0], (reply, Reply.WITHOUT), pressed)
    back = notice_from_json(through_the_socket(asked.to_json()))
    assert back == asked and back.answers[0] is reply and back.pressed is pressed
    assert find(
        notices,
        lambda n: isinstance(n, Question) and reply in n.answers and n.pressed,
        settings=FOUND,
    )


def test_every_kind_of_notice_is_known_by_its_json_kind():
    assert set(NOTICES.values()) == set(typing.get_args(Notice))
    assert all(kind == cls.kind for kind, cls in NOTICES.items())


def test_the_view_of_a_real_table_comes_back_the_same():
    from companion.show.screens import samples

    for name, view in samples.all_views().items():
        if isinstance(view, TableView):
            state = TableState(view, True, Settings.of(Config()), None, 1.5)
            assert TableState.from_json(through_the_socket(state.to_json())) == state, name
