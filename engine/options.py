"""The named rule options. Every interpretation of the rule texts is one of these."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields
from typing import Any

from engine.geometry import LINE_TABLES

END_RULES = ("first", "equal")
#: every option's allowed values (a table may offer them to choose from, in this order)
CHOICES: dict[str, tuple[object, ...]] = {
    "end": END_RULES,
    "own_bonus": (False, True),
    "partner_squares": (False, True),
    "adjacency": tuple(LINE_TABLES),
}


class OptionsError(ValueError):
    """Rule options that do not exist or have a wrong value."""


@dataclass(frozen=True, slots=True)
class Options:
    #: Fan variant: the active player also scores +1 per tile on their own bonus squares
    #: that is in the scored union.
    own_bonus: bool = False
    #: Team game: may a player place on the partner's bonus squares? (canon: no)
    partner_squares: bool = False
    #: Which line table joins the squares: "default" (orthogonal and diagonal) or "orthogonal".
    adjacency: str = "default"
    #: "first": the game ends as soon as someone reaches the finish (canon);
    #: "equal": the round is played out so everyone has had the same number of turns.
    #: A team game always ends at the first finish: there the option has no effect.
    end: str = "first"

    def __post_init__(self) -> None:
        for name, allowed in CHOICES.items():
            value = getattr(self, name)
            if isinstance(allowed[0], bool):
                if not isinstance(value, bool):
                    raise OptionsError(f"option {name} must be true or false")
            elif value not in allowed:
                names = ", ".join(map(str, allowed))
                raise OptionsError(f"option {name} must be one of {names}")

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any] | None) -> Options:
        """Builds options from plain settings (JSON, TOML), rejecting unknown names."""
        if data is None:
            return cls()
        if not isinstance(data, Mapping):
            raise OptionsError("options must be an object of named rule options")
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise OptionsError(
                f"unknown rule option {unknown[0]!r}; the options are {', '.join(sorted(known))}"
            )
        return cls(**data)

    def to_mapping(self) -> dict[str, Any]:
        return asdict(self)
