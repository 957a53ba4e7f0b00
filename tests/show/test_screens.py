"""Every screen in every language, tested as a 128x64 one-bit image: the texts fit, they are
where they should be, legible, and a few screens match their reference PNGs exactly."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from companion.board.problems import Problem
from companion.game.view import BonusAlert, IllegalMove, SeatView, TableView, Undo
from companion.show.i18n import LANGUAGES, Catalogue
from companion.show.screens import Canvas, Screens, samples
from companion.show.screens.__main__ import REFERENCE_SCREENS

REFERENCE = Path(__file__).parent / "reference"
NOW = 100.0
VIEWS = samples.all_views()


def ink(image: Image.Image, box: tuple[int, int, int, int]) -> int:
    """Lit pixels in box (x0, y0, x1, y1), edges included."""
    x0, y0, x1, y1 = box
    return sum(image.crop((x0, y0, x1 + 1, y1 + 1)).histogram()[1:])


def area(box: tuple[int, int, int, int]) -> int:
    return (box[2] - box[0] + 1) * (box[3] - box[1] + 1)


def drawn(canvas) -> list[str]:
    return [text for text, _, _ in canvas.texts]


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("name", list(VIEWS))
def test_every_screen_fits_and_is_legible(name, lang):
    view = VIEWS[name]
    screens = Screens(lang)
    for side in ("N", "E", "S", "W"):
        canvas = screens.canvas(view, side, NOW)
        image = canvas.image
        assert image.mode == "1" and image.size == (128, 64)
        assert canvas.overflow == [], f"{name}/{lang}/{side}: cut texts {canvas.overflow}"
        assert canvas.texts, f"{name}/{lang}/{side} shows no text"
        for text, (x0, y0, x1, y1), size in canvas.texts:
            assert x0 >= 0 and x1 <= 128 and y0 >= 0 and y1 <= 65, f"{text!r} at {(x0, y0, x1, y1)}"
            assert size >= 10 or (len(text) == 1 and text.isdigit() and size >= 9), (
                f"{text!r} is {size} px"
            )
        assert 0.03 < ink(image, (0, 0, 127, 63)) / (128 * 64) < 0.97


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("name", REFERENCE_SCREENS)
def test_reference_images(name, lang):
    view = VIEWS[name]
    image = Screens(lang).frame(view, samples.viewer(name, view), NOW)
    reference = Image.open(REFERENCE / f"{name}-{lang}.png").convert("1")
    diff = ImageChops.difference(image.convert("L"), reference.convert("L")).getbbox()
    assert diff is None, (
        f"{name}-{lang} differs from its reference in {diff}; if the change is wanted, "
        "regenerate with `python -m companion.show.screens --references` and look at them"
    )


def test_the_references_are_not_all_the_same():
    images = {p.name: p.read_bytes() for p in REFERENCE.glob("*.png")}
    assert len(images) == len(REFERENCE_SCREENS) * len(LANGUAGES)
    assert len(set(images.values())) == len(images)


# -- the seat screen -----------------------------------------------------------------------
def seat_of(view: TableView, side: str) -> SeatView:
    seat = view.seat(side)
    assert seat is not None
    return seat


def test_seat_shows_colour_big_score_bar_turn_and_last_turn():
    view = VIEWS["seat"]  # W is to play; S just scored the heart run with E's bonus square
    canvas = Screens("en").canvas(view, "S", NOW)
    image, texts = canvas.image, drawn(canvas)
    seat = seat_of(view, "S")
    assert texts[0] == "Yellow"
    score = next(box for text, box, size in canvas.texts if text == str(seat.score))
    assert score[3] - score[1] >= 18, "the score is in big digits"
    assert score[0] < 10 and score[1] > 12, "under the title, on the left"
    assert "Turn: Green" in texts
    assert texts[-1] == f"Last: Yellow +{view.last_turn.points} ♥5-9"
    assert ink(image, (0, 0, 127, 13)) < 0.3 * area((0, 0, 127, 13)), (
        "not their turn: title not inverted"
    )
    # the bar to the finish line, filled in proportion (one row inside the outline)
    filled = ink(image, (1, 40, 126, 40))
    assert abs(filled - round(126 * seat.score / seat.finish)) <= 2


def test_the_active_players_title_is_inverted_and_says_your_turn():
    view = VIEWS["seat"]
    canvas = Screens("it").canvas(view, "W", NOW)
    assert ink(canvas.image, (0, 0, 127, 13)) > 0.6 * area((0, 0, 127, 13))
    assert "Tocca a te" in drawn(canvas)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_seat_learns_the_same_facts_of_the_last_turn(lang):
    # S scored (it said "you" there), E got the bonus (it said only that there)
    view = VIEWS["seat"]
    lines = {side: drawn(Screens(lang).canvas(view, side, NOW))[-1] for side in "NESW"}
    assert len(set(lines.values())) == 1, lines
    assert "+5" in lines["S"]


def test_just_after_a_turn_every_seat_says_how_to_take_it_back():
    from companion.game.view import UndoHint

    view = dataclasses.replace(VIEWS["seat"], notices=(UndoHint(),))  # W is to play
    for side in "NES":
        texts = drawn(Screens("en").canvas(view, side, NOW))
        assert texts[-2:] == ["Hold: undo", "Last: Yellow +5 ♥5-9"]
    assert "Your turn" in drawn(Screens("en").canvas(view, "W", NOW))
    assert "Hold: undo" not in drawn(Screens("en").canvas(VIEWS["seat"], "N", NOW))


def test_live_preview_of_a_legal_placement():
    canvas = Screens("en").canvas(VIEWS["preview"], "W", NOW)
    texts = drawn(canvas)
    assert "This scores 5 points" in texts
    assert "Purple +1 bonus ♥5-9" in texts


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_preview_shows_the_bonus_in_every_language(lang):
    canvas = Screens(lang).canvas(VIEWS["preview"], "W", NOW)
    purple = Catalogue.load(lang).colour("purple")
    assert any(text.startswith(f"{purple} +1") for text in drawn(canvas)), drawn(canvas)


def test_live_preview_of_an_illegal_placement_explains_it():
    view = VIEWS["preview-illegal"]
    preview = seat_of(view, "W").preview
    for lang in LANGUAGES:
        canvas = Screens(lang).canvas(view, "W", NOW)
        texts = drawn(canvas)
        expected = Catalogue.load(lang).illegal(preview.illegal).split()
        assert " ".join(texts[2:]).split() == expected  # wrapped, every word there, in order
        assert "3/23" in texts[:2]  # the score is still in view, next to the colour


def test_undo_banner_is_an_inverted_band_at_the_bottom():
    canvas = Screens("fr").canvas(VIEWS["undo"], "N", NOW)
    assert ink(canvas.image, (0, 54, 127, 63)) > 0.5 * area((0, 54, 127, 63))
    assert "Tour annulé\u00a0: Jaune" in drawn(canvas)


def test_a_side_nobody_plays_shows_the_scores():
    three = TableView("playing", VIEWS["seat"].seats[:3], samples.COLOURS)
    canvas = Screens("en").canvas(three, "E", NOW)
    assert drawn(canvas)[0] == "Not playing"
    assert [t for t in drawn(canvas) if t.isdigit()] == [str(s.score) for s in three.seats]


# -- the bonus alert -----------------------------------------------------------------------
def test_bonus_alert_is_large_inverted_and_flashes_on_the_owners_display_only():
    view = VIEWS["alert"]
    alert = view.alerts[0]
    assert not seat_of(view, alert.side).active, "the owner is not the one to play"
    screens = Screens("en", alert_seconds=4.0, flash_period=0.5)
    first = screens.canvas(view, alert.side, alert.since + 0.1)
    second = screens.canvas(view, alert.side, alert.since + 0.6)
    third = screens.canvas(view, alert.side, alert.since + 1.1)
    bonus = next((t, box) for t, box, _ in first.texts if t == f"+{alert.points} BONUS")
    assert bonus[1][2] - bonus[1][0] > 90 and bonus[1][3] - bonus[1][1] >= 14, "large"
    assert ink(first.image, (0, 0, 127, 63)) > 0.75 * 128 * 64, "inverted: a white screen"
    assert ink(second.image, (0, 0, 127, 63)) < 0.3 * 128 * 64, "then black, flashing"
    assert drawn(second) == drawn(first)
    assert third.image.tobytes() == first.image.tobytes()
    others = [s.side for s in view.seats if s.side != alert.side]
    for side in others:
        assert f"+{alert.points} BONUS" not in drawn(screens.canvas(view, side, alert.since + 0.1))
    after = screens.canvas(view, alert.side, alert.since + 4.0)
    assert f"+{alert.points} BONUS" not in drawn(after) and drawn(after)[0] == "Purple"


def test_alert_timing_keys_and_next_change():
    view = VIEWS["alert"]
    alert = view.alerts[0]
    screens = Screens("en", alert_seconds=2.0, flash_period=0.5)
    keys = [screens.key(view, alert.side, alert.since + t) for t in (0.0, 0.4, 0.5, 1.0, 2.5)]
    assert keys[0] == keys[1] != keys[2]
    assert keys[0] == keys[3] != keys[4]
    assert screens.key(view, "N", alert.since) == screens.key(view, "N", alert.since + 0.7)
    assert screens.next_change(view, alert.since + 0.2) == pytest.approx(alert.since + 0.5)
    assert screens.next_change(view, alert.since + 1.9) == pytest.approx(alert.since + 2.0)
    assert screens.next_change(view, alert.since + 2.1) is None


def test_the_newest_alert_wins_and_alerts_beat_notices():
    view = VIEWS["hub"]
    view = TableView(
        "playing", view.seats, samples.COLOURS, notices=view.notices,
        alerts=(BonusAlert("N", 1, since=NOW - 1), BonusAlert("N", 2, since=NOW)),
    )  # fmt: skip
    assert "+2 BONUS" in drawn(Screens("en").canvas(view, "N", NOW + 0.1))
    assert drawn(Screens("en").canvas(view, "E", NOW + 0.1))[0] == "Problem"


# -- notices -------------------------------------------------------------------------------
def test_illegal_move_only_on_the_players_display_and_problems_on_all():
    view = VIEWS["illegal"]
    notice = view.notices[0]
    assert isinstance(notice, IllegalMove)
    assert drawn(Screens("en").canvas(view, notice.side, NOW))[0] == "Not allowed"
    assert drawn(Screens("en").canvas(view, "N", NOW))[0] == "Red"
    both = TableView(
        "playing", view.seats, samples.COLOURS, notices=(notice, Problem("reader-fault", "NE"))
    )
    for side in "NESW":
        canvas = Screens("ru").canvas(both, side, NOW)
        assert drawn(canvas)[0] == "Проблема"
        assert " ".join(drawn(canvas)[1:]) == "Неисправен считыватель под клеткой NE"


@pytest.mark.parametrize(
    ("name", "title", "body"),
    [
        ("bag-empty", "Bag empty", "Put the covered tiles back in the bag"),
        ("bag-returned", "Bag empty", "Covered tiles are back in the bag. Play on!"),
        ("hub", "Problem", "The reader hub is not answering: check its cable"),
        ("unknown-tag", "Problem", "Unknown tile on square SW: register the tiles in the settings"),
        ("tile-twice", "Problem", "Check square E1: a tile seems to be on two squares"),
        ("take-off", "Problem", "Take the tile off square N2"),
    ],
)
def test_notice_screens(name, title, body):
    canvas = Screens("en").canvas(VIEWS[name], "S", NOW)
    assert drawn(canvas)[0] == title
    assert " ".join(drawn(canvas)[1:]) == body
    assert ink(canvas.image, (0, 0, 127, 13)) > 0.6 * area((0, 0, 127, 13)), "inverted title"
    title_box = canvas.texts[0][1]
    assert title_box[3] <= 14 and all(box[1] >= 15 for _, box, _ in canvas.texts[1:])


# -- lobby and game over -------------------------------------------------------------------
def test_lobby_order_diagram_is_seen_from_the_players_chair():
    view = VIEWS["lobby"]  # S, W, N joined in that order
    canvas = Screens("en").canvas(view, "S", NOW)
    numbers = {t: box for t, box, _ in canvas.texts if t.isdigit()}
    assert set(numbers) == {"1", "2", "3"}
    centre = lambda box: ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)  # noqa: E731
    (x1, y1), (x2, y2), (x3, y3) = (centre(numbers[n]) for n in "123")
    assert y1 > y3 + 15 and abs(x1 - x3) < 3, "S (1) at the bottom, N (3) at the top"
    assert x2 < x1 - 8, "W (2) on the player's left"
    assert "You play no. 1" in drawn(canvas) and "Long press: start" in drawn(canvas)
    east = Screens("en").canvas(view, "E", NOW)
    assert "Press your button to join" in " ".join(drawn(east))
    east_numbers = {t: centre(box) for t, box, _ in east.texts if t.isdigit()}
    assert east_numbers["1"][0] < east_numbers["3"][0] - 15, "from E: S on the left, N on the right"


def test_lobby_teams_first_team_inverted():
    view = VIEWS["lobby-teams"]
    canvas = Screens("en").canvas(view, "S", NOW)
    boxes = {t: box for t, box, _ in canvas.texts if t.isdigit()}
    s_box, w_box = boxes["1"], boxes["2"]  # S is in the first team, W in the second
    assert ink(canvas.image, s_box) > 0.5 * area(s_box) > ink(canvas.image, w_box)
    assert "Team 1" in drawn(canvas)


def test_game_over_names_the_winner_ranks_everyone_and_draws_the_chart():
    view = VIEWS["over"]
    result = view.result
    canvas = Screens("en").canvas(view, "N", NOW)
    texts = drawn(canvas)
    assert texts[0] == "Yellow wins!"
    names = [t for t in texts[1:] if not t.isdigit()]
    assert names == [Catalogue.load("en").colour(view.colour(side)) for side, _ in result.ranking]
    winner_row = next(box for t, box, _ in canvas.texts if t == "Yellow" and box[1] > 12)
    assert ink(canvas.image, (0, winner_row[1], 60, winner_row[3])) > 0.5 * area(
        (0, winner_row[1], 60, winner_row[3])
    )
    assert ink(canvas.image, (96, 16, 127, 62)) > 40, "the score chart in miniature"


def test_team_game_over_inverts_both_winners():
    view = VIEWS["over-teams"]
    canvas = Screens("fr").canvas(view, "N", NOW)
    assert drawn(canvas)[0] == "Équipe 2 gagne\u00a0!"
    rows = {t: box for t, box, _ in canvas.texts if not t.isdigit() and box[1] > 12}
    lit = {
        t: ink(canvas.image, (0, b[1], 40, b[3])) > 0.5 * area((0, b[1], 40, b[3]))
        for t, b in rows.items()
    }
    assert lit == {"Jaune": False, "Vert": True, "Violet": True, "Rouge": False}


def test_lobby_has_no_alerts_and_seats_draw_the_newest_view():
    view = TableView("lobby", colours=samples.COLOURS, alerts=(BonusAlert("S", 2, since=NOW),))
    assert "+2 BONUS" not in drawn(Screens("en").canvas(view, "S", NOW))
    undo = TableView("playing", VIEWS["seat"].seats, samples.COLOURS, notices=(Undo("S"),))
    assert drawn(Screens("en").canvas(undo, "N", NOW))[-1] == "Turn taken back: Yellow"


@pytest.mark.parametrize("size", [9, 10, 11, 12])
@pytest.mark.parametrize("letter", ["м", "и", "й", "л"])
def test_small_bold_cyrillic_letters_are_not_solid_blocks(letter, size):
    canvas = Canvas((20, 20))
    canvas.text((2, 15), letter, size, bold=True)
    box = canvas.image.getbbox()
    inked = sum(1 for y in range(box[1], box[3]) for x in range(box[0], box[2])
                if canvas.image.getpixel((x, y)))  # fmt: skip
    assert inked < 0.8 * (box[2] - box[0]) * (box[3] - box[1]), "the letter's counter is filled"


def test_game_over_shows_the_result_not_a_bonus_of_the_final_turn():
    over = VIEWS["over"]
    side = over.result.ranking[1][0]
    flashing = dataclasses.replace(over, alerts=(BonusAlert(side, 1, since=NOW),))
    for lang in LANGUAGES:
        screens = Screens(lang)
        assert screens.key(flashing, side, NOW)[0] == "over"
        assert drawn(screens.canvas(flashing, side, NOW)) == drawn(screens.canvas(over, side, NOW))


def test_game_over_ranks_every_player_with_a_bar_to_the_finish():
    canvas = Screens("en").canvas(VIEWS["over"], "S", NOW)
    assert drawn(canvas) == ["Yellow wins!", "7", "Yellow", "6", "Green", "5", "Purple", "2", "Red"]
    from companion.show.screens.over import BAR_LEFT, BAR_RIGHT

    row = [canvas.image.getpixel((x, 22)) for x in range(BAR_LEFT, BAR_RIGHT + 1)]
    filled = sum(1 for p in row if not p)  # the winner's row is inverted: its bar in paper
    assert abs(filled - round((BAR_RIGHT - BAR_LEFT) * 7 / 23)) <= 2


def test_the_diamond_is_not_drawn_like_the_spade():
    from companion.show.i18n import SUIT_SYMBOLS

    def glyph(symbol):
        canvas = Canvas((20, 20))
        canvas.text((2, 15), symbol, 10)
        return canvas.image

    diamond, spade = glyph(SUIT_SYMBOLS["diamond"]), glyph(SUIT_SYMBOLS["spade"])
    differ = ImageChops.difference(diamond, spade)
    assert sum(1 for p in differ.getdata() if p) >= 12  # ♦ and ♠ differed in 4 pixels


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_lobby_shows_the_board_as_the_readers_see_it(lang):
    """A start tile the readers have not read shows as an empty square in the lobby, so the
    family can see it before the game starts on three start tiles."""
    view = samples.all_views()["lobby"]
    start = dict(view.board)
    assert set(start) == {"NW", "NE", "SW", "SE"}
    screens = Screens(lang)
    seen = screens.frame(view, "S", now=0.0)
    missing = screens.frame(
        dataclasses.replace(view, board=tuple(i for i in view.board if i[0] != "SE")), "S", 0.0
    )
    # the diagram's middle is the board (north at the top): SE is row 2, column 2
    x0, y0 = 128 - 2 * 11 - 4 * 5 + 11, 14 + 11
    se = (x0 + 2 * 5 + 1, y0 + 2 * 5 + 1, x0 + 3 * 5 - 2, y0 + 3 * 5 - 2)
    nw = (x0 + 1 * 5 + 1, y0 + 1 * 5 + 1, x0 + 2 * 5 - 2, y0 + 2 * 5 - 2)
    assert ink(seen, se) == area(se), "a square with a tile is a filled box"
    assert ink(missing, se) <= 1, "a square the readers see empty is a dot"
    assert ink(missing, nw) == ink(seen, nw) == area(nw)
