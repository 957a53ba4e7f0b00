"""The page's words for what the displays say, from the state the daemon publishes."""

import json

from companion.game.published import TableState
from companion.show.screens import samples
from companion.web.present import table_context


def test_the_last_turn_question_is_on_the_page_with_its_square_marked():
    view = samples.all_views()["late-tile"]
    published = json.loads(json.dumps(TableState(view).to_json()))  # as the socket carries it
    assert published["notices"] == [
        {
            "kind": "late-tile",
            "side": view.notices[0].side,
            "colour": view.notices[0].colour,
            "square": "NE",
            "tile": "heart-4",
        }
    ]
    context = table_context(TableState.from_json(published))
    (problem,) = context["problems"]
    assert problem["square"] == "NE"
    assert problem["text"].startswith("Last turn right?: ♥4 showed up on NE after ")
    assert "Hold: undo" in problem["text"]
    (ne,) = [square for square in context["squares"] if square["name"] == "NE"]
    assert ne["problem"] == problem["text"].removeprefix("Last turn right?: ")
