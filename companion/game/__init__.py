"""The game at the table: turns, lobby, undo and the bag (the table), the fsynced journal and
its replay, the sound events the table emits, and the view values that are its output.

Imports `companion.board`, the engine and the companion's base modules; never `show` or `sim`."""
