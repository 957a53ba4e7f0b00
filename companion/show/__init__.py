"""What players see and hear: the screens, the presenter that puts them on the panels, the
score chart, the translations, the tunes for the table's sound events and the enrolment prompts.

Reads the view values of `companion.game`; never changes the game."""
