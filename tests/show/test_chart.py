"""The score progression chart: from a real game, saved as PNG, drawn in miniature."""

from __future__ import annotations

from PIL import Image, ImageDraw

from companion.show.chart import draw_progress, progress_of, save_chart
from companion.show.palette import RGB
from companion.show.screens import samples
from engine import Game, Tile


def test_progress_follows_every_turn_with_bonus_points():
    game = Game(["S", "N"])
    game.place([("NW", Tile.parse("heart-5")), ("NE", Tile.parse("heart-6"))])  # S +2
    game.place([("N2", Tile.parse("heart-7"))])  # N: run 5-7 on its own square: +3
    game.swap()  # S
    game.swap()  # N
    game.place([("E1", Tile.parse("heart-8"))])  # S: run 5-8 through N2: +4, N +1
    game.return_covered()  # not a turn
    assert progress_of(game) == (("S", (0, 2, 2, 2, 2, 6)), ("N", (0, 0, 3, 3, 3, 4)))


def test_the_chart_png_has_a_line_per_player_in_its_colour_and_the_finish(tmp_path):
    result = samples.over()["over"].result
    colours = dict(samples.COLOURS)
    path = save_chart(
        tmp_path / "game" / "chart.png", result.progress, result.finish, colours, "fr"
    )
    image = Image.open(path).convert("RGB")
    assert image.size == (640, 400)
    pixels = set(
        image.get_flattened_data() if hasattr(image, "get_flattened_data") else image.getdata()
    )
    for side, _ in result.progress:
        assert RGB[colours[side]] in pixels, f"the line of {side}"


def test_saving_where_it_cannot_is_logged_not_raised(tmp_path, caplog):
    blocker = tmp_path / "file"
    blocker.write_text("")
    assert save_chart(blocker / "chart.png", (("S", (0, 3)),), 31, {"S": "yellow"}) is None
    assert "cannot save the score chart" in caplog.text


def test_miniature_lines_rise_with_the_score_and_the_finish_is_dotted():
    image = Image.new("1", (40, 40))
    draw_progress(ImageDraw.Draw(image), (0, 0, 39, 39), (("S", (0, 10, 20)),), finish=20)
    assert image.getpixel((0, 39)) == 255, "starts at 0, bottom left"
    assert image.getpixel((39, 0)) == 255, "reaches the finish, top right"
    top_row = [image.getpixel((x, 0)) for x in range(0, 39)]
    assert top_row[0] == 255 and top_row[1] == 0 and top_row[3] == 255, "dotted finish line"
