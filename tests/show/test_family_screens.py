"""The new screens (menu, lobby pages, enrolment) fit their 128x64 in every language."""

from __future__ import annotations

import pytest

from companion.show.i18n import LANGUAGES
from companion.show.screens import Screens, samples

NEW = [n for n in samples.all_views() if n.startswith(("menu", "lobby", "enrol", "over"))]


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("name", NEW)
def test_every_new_screen_fits_in_every_language(name, lang):
    view = samples.all_views()[name]
    canvas = Screens(lang).canvas(view, samples.viewer(name, view), samples.when(name))
    assert canvas.overflow == [], canvas.overflow
    for _, (x0, y0, x1, y1), _ in canvas.texts:
        assert x0 >= 0 and y0 >= 0 and x1 <= 128 and y1 <= 64
