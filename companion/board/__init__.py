"""The believed board: noisy reader snapshots to the tiles on each square (the tracker), the
tile registry (which tag is which tile), enrolment of the tags, and the board's problems.

Imports the engine, `hardware.hub` values and the companion's base modules only."""
