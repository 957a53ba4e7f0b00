"""The page's words for what the displays say, from the state the daemon publishes."""

from companion.publish import state_of
from companion.show.screens import samples
from companion.web.present import table_context
from engine import Board


def test_the_last_turn_question_is_on_the_page_with_its_square_marked():
    view = samples.all_views()["late-tile"]
    state = state_of(view, Board(), (), 100.0, True)
    assert state["notices"] == [
        {"kind": "late-tile", "side": view.notices[0].side, "square": "NE", "tile": "heart-4"}
    ]
    context = table_context(state)
    (problem,) = context["problems"]
    assert problem["square"] == "NE"
    assert problem["text"].startswith("Last turn right?: ♥4 showed up on NE after ")
    assert "Hold: undo" in problem["text"]
    (ne,) = [square for square in context["squares"] if square["name"] == "NE"]
    assert ne["problem"] == problem["text"].removeprefix("Last turn right?: ")
