"""What the daemon publishes for the web companion at every change, as one value: the table's
view, the reader hub's state, the table settings and, on the simulated table, the truth of
that table. It crosses the daemon's socket as JSON (`to_json`, `from_json`; the web
companion decodes it into these values and draws its pages from them alone)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.game.sounds import Sound
from companion.game.view import Stacks, TableView
from companion.settings import Settings
from engine import Tile


@dataclass(frozen=True, slots=True)
class SimTruth:
    """The simulated table as it really is (the daemon believes only its readers): the
    stacks on the squares, whether the hub's cable is in, how badly the readers read, and
    what its (unheard) buzzer played in the last seconds, for the page to say in words."""

    stacks: Stacks = ()
    plugged: bool = True
    profile: str = "none"
    profiles: tuple[str, ...] = ()
    heard: tuple[Sound, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "stacks": [[square, [str(t) for t in stack]] for square, stack in self.stacks],
            "plugged": self.plugged,
            "profile": self.profile,
            "profiles": list(self.profiles),
            "heard": [[str(s.kind), s.side, s.points] for s in self.heard],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> SimTruth:
        return cls(
            tuple(
                (square, tuple(Tile.parse(t) for t in stack)) for square, stack in data["stacks"]
            ),
            data["plugged"],
            data["profile"],
            tuple(data["profiles"]),
            tuple(Sound(kind, side, points) for kind, side, points in data.get("heard", ())),
        )


@dataclass(frozen=True, slots=True)
class TableState:
    """The table for its watchers: `view` (as every display shows it), the hub's link,
    the table settings in force, the simulated table's truth (None on a real table) and
    `published`, when the daemon handed it over (epoch seconds, for `make bench`)."""

    view: TableView
    hub_connected: bool = True
    settings: Settings | None = None
    sim: SimTruth | None = None
    published: float = 0.0

    def to_json(self) -> dict[str, Any]:
        """The view's fields at the top, beside the others (the socket's "state" message)."""
        return {
            **self.view.to_json(),
            "hub_connected": self.hub_connected,
            "settings": None if self.settings is None else self.settings.to_json(),
            "sim": None if self.sim is None else self.sim.to_json(),
            "published": self.published,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TableState:
        settings, sim = data["settings"], data["sim"]
        return cls(
            TableView.from_json(data),
            data["hub_connected"],
            None if settings is None else Settings.from_json(settings),
            None if sim is None else SimTruth.from_json(sim),
            data["published"],
        )

    @property
    def language(self) -> str:
        """The language of the table's displays (the web's pages speak it too)."""
        return "en" if self.settings is None else str(self.settings["language"])
