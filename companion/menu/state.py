"""The settings menu on the seat buttons: every display shows it, any seat's button works it.

The gesture that opens it (`opens`): a long press in the lobby while nobody has joined. In a
game, or with players waiting in the lobby, a long press keeps its meaning (undo, start), so
nobody opens the menu by accident; in an empty lobby a long press had nothing to do.

In the menu (the same on every button, so a child at any seat can leave):
- a short press shows the next item (the last wraps round to the first);
- a long press changes the item's value to the next one allowed (and saves it), or, on
  "Back to the game", leaves; on "Register the tiles", starts the guided enrolment;
- the first item is "Back to the game", and the menu also closes by itself after
  `IDLE_SECONDS` without a press.

The menu is a plain state machine: it never saves or shows anything itself. `on_press`
returns what the daemon must do (`Action`) and `view()` is what every display shows.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from companion.game.view import Phase
from companion.settings import KEYS, Settings, Value, setting

#: "back" first: whoever opened the menu by mistake leaves it with the same long press.
ITEMS: tuple[str, ...] = ("back", *KEYS, "enrol")
IDLE_SECONDS = 60.0


@dataclass(frozen=True, slots=True)
class MenuView:
    """What every display shows while the menu is open: the item, its place in the list and
    the setting's current value (None for "back" and "enrol"); `changed` when that value
    was just changed (the screen marks it so every player sees the change)."""

    item: str
    index: int
    count: int
    value: Value | None = None
    changed: bool = False


class MenuAction(StrEnum):
    """What a long press in the menu asks the daemon for."""

    SET = "set"  # the setting `key` to `value`
    ENROL = "enrol"  # the tiles' registration
    LEAVE = "leave"  # back to the table

    def __repr__(self) -> str:  # evaluates back, as the values that hold it
        return f"{type(self).__name__}.{self.name}"


@dataclass(frozen=True, slots=True)
class Action:
    """What the daemon does for a press in the menu."""

    kind: MenuAction
    key: str | None = None
    value: Value | None = None


def opens(phase: Phase, joined: Sequence[str], long: bool) -> bool:
    """Whether a press opens the menu: a long press in an empty lobby."""
    return long and phase == Phase.LOBBY and not joined


class Menu:
    """The open menu: which item shows, and the settings it shows the values of."""

    def __init__(self, settings: Settings, now: float) -> None:
        self.settings = settings
        self.index = 0
        self.changed = False
        self.last_press = now

    def __repr__(self) -> str:
        return f"<Menu at {self.item}>"

    @property
    def item(self) -> str:
        return ITEMS[self.index]

    def on_press(self, long: bool, now: float) -> Action | None:
        """A press on any seat's button: the next item (short), or an action (long)."""
        self.last_press = now
        if not long:
            self.index = (self.index + 1) % len(ITEMS)
            self.changed = False
            return None
        if self.item == "back":
            return Action(MenuAction.LEAVE)
        if self.item == "enrol":
            return Action(MenuAction.ENROL)
        key = self.item
        return Action(MenuAction.SET, key, setting(key).after(self.settings[key]))

    def shown(self, settings: Settings) -> None:
        """The settings after an action (the new value is marked as changed)."""
        self.changed = settings != self.settings
        self.settings = settings

    def idle(self, now: float) -> bool:
        """Nobody pressed for `IDLE_SECONDS`: the menu closes by itself."""
        return now - self.last_press >= IDLE_SECONDS

    def view(self) -> MenuView:
        value = self.settings[self.item] if self.item in KEYS else None
        return MenuView(self.item, self.index, len(ITEMS), value, self.changed)
