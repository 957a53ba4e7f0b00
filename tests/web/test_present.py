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


def question_on_the_page(name: str) -> dict:
    view = samples.all_views()[name]
    published = json.loads(json.dumps(TableState(view).to_json()))  # as the socket carries it
    (problem,) = table_context(TableState.from_json(published))["problems"]
    return problem


def test_a_question_has_the_pages_answers_as_the_familys_word():
    problem = question_on_the_page("question-tile")  # W: ♥10 on NE? there / without
    assert problem["text"].startswith("Question (")
    assert problem["question"] == {
        "square": "NE",
        "tile": "heart-10",
        "words": [
            {"said": "laid", "text": "It lies there"},
            {"said": "absent", "text": "Not there: score without it"},
        ],
        "open": "Correct NE",
    }
    # a square whose tile the readers cannot name: the correction panel on it
    assert question_on_the_page("question-square")["question"]["words"] == []
    # the lobby's "press once: there, start" (or twice: not there): the page says it lies
    # there (the hold starts) or not
    lobby = question_on_the_page("lobby-question")["question"]
    assert [a["said"] for a in lobby["words"]] == ["laid", "absent"]
    assert question_on_the_page("not-scored")["question"] is None  # no question, no answers


def test_the_answers_are_drawn_for_every_watcher_and_shown_to_a_paired_page_only():
    import jinja2

    from companion.web.app import HERE

    env = jinja2.Environment(loader=jinja2.FileSystemLoader(HERE / "templates"), autoescape=True)
    view = samples.all_views()["question-tile"]
    html = env.get_template("_table.html").render(t=table_context(TableState(view)))
    assert '<span class="answers paired-only">' in html
    assert 'data-answer="laid" data-square="NE" data-tile="heart-10"' in html
    assert 'data-answer="absent" data-square="NE" data-tile="heart-10"' in html
    assert 'data-correct-square="NE">Correct NE</button>' in html
    style = (HERE / "static" / "style.css").read_text()
    assert ".paired-only { display: none; }" in style  # the others see the question only


def test_a_pending_correction_carries_its_published_json_for_a_paired_page():
    from companion.game.view import Correction

    pending = question_on_the_page("correction")
    (shown,) = [n for n in samples.all_views()["correction"].notices if isinstance(n, Correction)]
    assert pending["text"].startswith("Correction: Turn ")
    assert pending["square"] == shown.square and pending["question"] is None
    assert pending["correction"]["apply"] == "Apply the correction"
    # the page sends back the typed value as published: it reads back as the same one
    assert Correction.from_json(json.loads(pending["correction"]["json"])) == shown
    done = question_on_the_page("corrected")  # applied: said, nothing left to apply
    assert done["text"].startswith("Corrected: ") and done["correction"] is None
    assert done["corrected"] and not pending["corrected"]  # drawn as good news, not a problem


def test_a_question_lists_the_gestures_that_answer_it_at_the_table():
    problem = question_on_the_page("question-hand")  # ★2 on E2? there / without / hand
    assert problem["text"].endswith("): ★2 on E2?")
    assert problem["gestures"] == [
        "Press once: it is there",
        "Press twice: not there",
        "Hold: it is in a hand",
    ]
    # a page has a button for each: "there", "not there", and "in a hand" (on no square,
    # which the daemon's "word" op takes as the hold at the table)
    answers = problem["question"]["words"]
    assert [a["said"] for a in answers] == ["laid", "absent", "hand"]
    assert answers[-1]["text"] == "It is in a hand"
    pressed = question_on_the_page("question-pressed")
    assert pressed["gestures"] == ["Pressed once: it is there", "Press again: not there"]
    assert not problem["note"] and not pressed["note"]


def test_what_the_readers_cannot_see_or_confirm_is_listed_as_a_note_and_marked():
    view = samples.all_views()["show-first-preview"]
    published = json.loads(json.dumps(TableState(view).to_json()))
    context = table_context(TableState.from_json(published))
    (note,) = context["problems"]
    assert note["text"] == (
        "Show tiles first (Green): For NE, SE, W1, W2: show the tile over an empty square first"
    )
    assert note["note"] and note["question"] is None and note["gestures"] == []
    marked = {sq["name"] for sq in context["squares"] if sq["problem"]}
    assert marked == {"NE", "SE", "W1", "W2"}
    unconfirmed = question_on_the_page("unconfirmed")
    assert unconfirmed["text"] == "Not seen (Green): Not confirmed: ★2. Your press will ask where"
    assert unconfirmed["note"] and unconfirmed["square"] is None
    both = table_context(TableState(samples.all_views()["unconfirmed-show-first"]))["problems"]
    assert [p["text"].split(" (")[0] for p in both] == ["Show tiles first", "Not seen"]


def test_the_swap_question_is_listed_with_its_gestures_and_its_squares_marked():
    """ "Nothing seen: swap?" is on the page as on the presser's display, from the typed
    value that crossed the socket, its dark squares marked; it has no button (a swap is
    the player's word about their own hand, answered at the table)."""
    view = samples.all_views()["swap-question"]
    published = json.loads(json.dumps(TableState(view).to_json()))
    context = table_context(TableState.from_json(published))
    (problem,) = context["problems"]
    assert problem["text"] == "Question (Green): Nothing seen: swap?"
    assert problem["gestures"] == ["Press: a swap", "Hold: I laid tiles"]
    assert problem["question"] is None and not problem["note"]
    assert problem["asks"]  # drawn as a question, its gestures a line each
    assert {sq["name"] for sq in context["squares"] if sq["problem"]} == {"NE", "SE"}
