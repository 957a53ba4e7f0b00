"""The settings menu, the same on every display: the item, its value in words, what the
buttons do. A value just changed is drawn inverted, so every player sees what changed."""

from __future__ import annotations

from companion.menu import MenuView
from companion.settings import label, words
from companion.show.canvas import PAPER, Canvas, measure
from companion.show.i18n import Catalogue
from hardware import fonts

VALUE_SIZES = (14, 13, 12, 11, 10)


def item_texts(view: MenuView, texts: Catalogue) -> tuple[str, str]:
    """The item's name and its value (or what a long press does) in words."""
    if view.item == "back":
        return texts.text("menu.press"), texts.text("menu.back.value")
    if view.item == "enrol":
        return texts.text("menu.enrol"), texts.text("menu.enrol.value")
    assert view.value is not None
    key, args = words(view.item, view.value)
    return texts.text(label(view.item)), texts.text(key, **args)


def draw_menu(canvas: Canvas, view: MenuView, texts: Catalogue) -> None:
    canvas.title(texts.text("settings.title"), right=f"{view.index + 1}/{view.count}")
    name, value = item_texts(view, texts)
    canvas.paragraph(25, name, size=10, max_lines=1)
    box = (2, 29, canvas.width - 2, 51)
    if view.changed:
        canvas.bar(box[1] - 1, box[3], 0)
    canvas.block(box, value, sizes=VALUE_SIZES, bold=True, fill=PAPER if view.changed else 255)
    hold = {"back": "menu.hold.back", "enrol": "menu.hold.enrol"}.get(view.item, "menu.hold")
    draw_hint(canvas, texts.text(hold), texts.text("menu.press"))


def draw_hint(canvas: Canvas, hold: str, press: str) -> None:
    """What a long press does, and what a short one does where both fit on the last line
    (the back item says the short press in full, so it is never lost)."""
    font = fonts.load(10)
    both = f"{hold}  {press}"
    text = both if measure(font, both) <= canvas.width - 3 else hold
    canvas.text((2, 62), text, 10, max_width=canvas.width - 3)
