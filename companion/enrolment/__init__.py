"""Enrolment: which NFC tag is glued under which tile, the concept whole in one place.

- `guide`: the guided loop over sweeps (`Enrolment`), what it says (`Prompt`) and the
  registry's listing;
- `session`: one run of it on the table inside the daemon (`TableEnrolment`, fed the
  daemon's sweeps; `EnrolView`, what every display shows; the marker that survives a power
  cut);
- `person`: the person at the simulated table who puts each tile asked for (`SimPerson`,
  `SimEnrolTable`).

What the displays show of it is drawn with every other screen (`companion.show.screens.enrol`:
each prompt, the summary); the command is `setup-companion enroll` (companion.commands.enroll);
the daemon's mode while it runs is `companion.daemon.modes.EnrolMode`. This module only hands
the names on.
"""

from companion.enrolment.guide import (
    PROMPTS,
    Enrolment,
    EnrolResult,
    Listener,
    Prompt,
    SkipTile,
    SnapshotSource,
    registry_listing,
)
from companion.enrolment.person import SimEnrolTable, SimPerson
from companion.enrolment.session import MARKER, EnrolView, TableEnrolment

__all__ = [
    "MARKER", "PROMPTS", "EnrolResult", "EnrolView", "Enrolment", "Listener", "Prompt",
    "SimEnrolTable", "SimPerson", "SkipTile", "SnapshotSource", "TableEnrolment",
    "registry_listing",
]  # fmt: skip
