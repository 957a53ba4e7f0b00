"""The settings menu on the seat buttons, the concept whole in one place.

- `state`: the menu as a state machine (`Menu`: which item shows, what a press asks for,
  `MenuAction`), the gesture that opens it (`opens`), its items in order (`ITEMS`) and what
  every display shows (`MenuView`).

The settings it changes are declared in `companion.config` (`companion.settings` lists the
family's); it is drawn with every other screen (`companion.show.screens.menu`); the daemon's
mode while it is open is `companion.daemon.modes.MenuMode`. This module only hands the names
on.
"""

from companion.menu.state import IDLE_SECONDS, ITEMS, Action, Menu, MenuAction, MenuView, opens

__all__ = ["IDLE_SECONDS", "ITEMS", "Action", "Menu", "MenuAction", "MenuView", "opens"]
