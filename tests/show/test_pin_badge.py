"""The pairing PIN a phone asked for: the whole screen in the lobby, a corner in a game (the
scores, a question or an illegal move stay on the seat's display)."""

from __future__ import annotations

from PIL import ImageChops

from companion.show.screens import Screens
from companion.show.screens.samples import lobby, playing


def test_in_a_game_the_pin_takes_a_corner_and_the_seat_keeps_its_screen():
    screens = Screens("en")
    for side in ("N", "E", "S", "W"):
        plain = screens.canvas(playing()["seat"], side, 100.0)
        with_pin = screens.canvas(playing()["pin-game"], side, 100.0)
        assert ("PIN 4821" in [t for t, _, _ in with_pin.texts]) and not with_pin.overflow
        changed = ImageChops.difference(plain.image, with_pin.image).getbbox()
        assert changed is not None
        left, top, right, bottom = changed
        assert top <= 1 and bottom <= 14 and right >= 126 and left >= 70  # the top right corner
        assert [t for t in plain.texts if t[1][1] > 14] == [
            t for t in with_pin.texts if t[1][1] > 14
        ]


def test_in_the_lobby_the_pin_has_the_whole_screen():
    canvas = Screens("en").canvas(lobby()["pin"], "S", 0.0)
    assert ("4821", 22) in [(t, size) for t, _, size in canvas.texts]
    assert "PIN 4821" not in [t for t, _, _ in canvas.texts]
