"""What the players hear: a short tune for each game event, and optional spoken words.

    sounds = Sounds(TunePlayer(18), SoundConfig(volume=0.8, speech=True), language="it")
    sounds.announce(Sound(SoundEvent.BONUS, "W", 2), {"W": "green"})   # a table's event
    sounds.play(Tune.BONUS, colour="green", points=2)                  # or a tune itself

The tunes are data (`TUNES`: note or Hz or None for a rest, seconds), the bonus fanfare
unlike any other; `TUNE_OF` says which tune each of the table's sound events plays (several
share one: a turn that passes and the start both chime "your turn"). `play` never blocks: a tune starts at once
when the buzzer is silent (the buzzer plays it from its own thread); events that come
while one plays go to a worker thread that plays them one after another, so the bonus
fanfare is not cut short by the "your turn" chime that follows it in the same moment.
Identical tunes waiting in line are played once; when too many wait, the least important
go first.

Spoken announcements ("Green: two bonus points") use espeak-ng when it is installed and
`speech` is on, in the configured language; a missing espeak-ng is logged once.

The settings are the config's `[sound]` section (`SoundConfig`: volume, mute, speech) and
the game's language; `espeak` (the command) and `speech_volume` (espeak's 0..200) are not
settings of the file: they are here for tests and a different speaker.
"""

from __future__ import annotations

import contextlib
import logging
import queue
import shutil
import subprocess
import threading
from collections.abc import Mapping
from enum import StrEnum

from companion.config import SoundConfig
from companion.game.sounds import Sound, SoundEvent
from companion.show.i18n import Catalogue, keys
from hardware.buzzer import Notes, TunePlayer
from hardware.device import Device

log = logging.getLogger("setup.sound")


class Tune(StrEnum):
    """What the players hear, one spelling each; the catalogues' `speech.<tune>` say it and
    the quick-reference card's `card.sound.<tune>` explain it."""

    YOUR_TURN = "your-turn"
    SCORED = "scored"
    BONUS = "bonus"
    ILLEGAL = "illegal"
    BAG_EMPTY = "bag-empty"
    GAME_OVER = "game-over"
    JOIN = "join"
    LEAVE = "leave"
    REFUSED = "refused"
    UNDO = "undo"
    PROBLEM = "problem"

    def __repr__(self) -> str:  # evaluates back, as the values that hold it
        return f"{type(self).__name__}.{self.name}"


TUNES: dict[Tune, Notes] = {
    # two rising notes: a doorbell "ding-dong" upwards
    Tune.YOUR_TURN: (("E6", 0.08), ("A6", 0.14)),
    # a bright major triad
    Tune.SCORED: (("C6", 0.07), ("E6", 0.07), ("G6", 0.16)),
    # the fanfare: the highest notes, twice, long enough to be heard across the table
    Tune.BONUS: (
        ("G6", 0.06),
        ("C7", 0.06),
        ("E7", 0.06),
        ("G7", 0.2),
        (None, 0.08),
        ("G6", 0.06),
        ("C7", 0.06),
        ("E7", 0.06),
        ("G7", 0.3),
    ),  # fmt: skip
    # low and falling: "no"
    Tune.ILLEGAL: (("E4", 0.16), (None, 0.04), ("C4", 0.3)),
    # three equal beeps: "do something"
    Tune.BAG_EMPTY: (("A5", 0.1), ("A5", 0.1), ("A5", 0.1)),
    # a descending line and a long home note
    Tune.GAME_OVER: (("C7", 0.12), ("G6", 0.12), ("E6", 0.12), ("C6", 0.12), ("C7", 0.5)),
    # the lobby: a quick blip up to join, down to leave
    Tune.JOIN: (("C6", 0.05), ("G6", 0.08)),
    Tune.LEAVE: (("G6", 0.05), ("C6", 0.08)),
    # a press that cannot be done now: one short low note
    Tune.REFUSED: (("A3", 0.12),),
    # taking back: a slow fall
    Tune.UNDO: (("A5", 0.1), ("E5", 0.1), ("A4", 0.2)),
    # something on the board needs a look: low, three times
    Tune.PROBLEM: (("C4", 0.1), (None, 0.05), ("C4", 0.1), (None, 0.05), ("C4", 0.1)),
}

#: which sound wins when too many wait (higher first)
PRIORITY: dict[Tune, int] = {
    Tune.BONUS: 5,
    Tune.GAME_OVER: 4,
    Tune.ILLEGAL: 3,
    Tune.BAG_EMPTY: 3,
    Tune.PROBLEM: 3,
    Tune.SCORED: 2,
    Tune.UNDO: 2,
    Tune.YOUR_TURN: 1,
    Tune.JOIN: 1,
    Tune.LEAVE: 1,
    Tune.REFUSED: 1,
}

#: the tune each of the table's sound events plays
TUNE_OF: dict[SoundEvent, Tune] = {
    SoundEvent.JOIN: Tune.JOIN,
    SoundEvent.LEAVE: Tune.LEAVE,
    SoundEvent.START: Tune.YOUR_TURN,
    SoundEvent.SCORE: Tune.SCORED,
    SoundEvent.SWAP: Tune.YOUR_TURN,  # the turn passes without points: the next one's chime
    SoundEvent.BONUS: Tune.BONUS,
    SoundEvent.ILLEGAL: Tune.ILLEGAL,
    SoundEvent.REFUSED: Tune.REFUSED,
    SoundEvent.NOT_YOUR_TURN: Tune.REFUSED,
    SoundEvent.UNDO: Tune.UNDO,
    SoundEvent.BAG_EMPTY: Tune.BAG_EMPTY,
    SoundEvent.RETURNED: Tune.YOUR_TURN,  # play goes on
    SoundEvent.PROBLEM: Tune.PROBLEM,
    SoundEvent.GAME_OVER: Tune.GAME_OVER,
    SoundEvent.NEW_GAME: Tune.JOIN,
    SoundEvent.MENU: Tune.JOIN,  # the settings menu opens, or turns to its next item
    SoundEvent.CLOSED: Tune.LEAVE,
    SoundEvent.SAVED: Tune.SCORED,
    SoundEvent.ENROL: Tune.YOUR_TURN,
}
MAX_WAITING = 4
VOICES: dict[str, str] = {"en": "en", "it": "it", "ru": "ru", "fr": "fr"}
_NO_SETTINGS = SoundConfig()  # a file without [sound]


class Sounds(Device):
    """Sound event -> tune on the buzzer (and words through espeak-ng when enabled)."""

    def __init__(
        self,
        buzzer: TunePlayer | None,
        config: SoundConfig = _NO_SETTINGS,
        *,
        language: str = "en",
        espeak: str = "espeak-ng",
        speech_volume: int = 100,
    ) -> None:
        self.buzzer = buzzer
        self.mute = config.mute
        self.speech = config.speech
        self.language = language
        self.espeak = espeak
        self.speech_volume = speech_volume
        if buzzer is not None:
            buzzer.volume = 0.0 if self.mute else config.volume
        self._waiting: list[Tune] = []
        self._lock = threading.Condition()
        self._espeak_missing_reported = False
        self._speech_queue: queue.Queue[str | None] = queue.Queue(maxsize=8)
        self._tunes = threading.Thread(target=self._play_tunes, name="sounds", daemon=True)
        self._tunes.start()
        self._speaker: threading.Thread | None = None
        if self.speech:
            self._speaker = threading.Thread(target=self._speak_lines, name="speech", daemon=True)
            self._speaker.start()

    def __repr__(self) -> str:
        return f"<Sounds mute={self.mute} speech={self.speech} language={self.language}>"

    def adjust(self, volume: float, mute: bool, language: str) -> None:
        """New sound settings (from the table's settings menu), from the next tune on."""
        self.mute, self.language = bool(mute), str(language)
        if self.buzzer is not None:
            self.buzzer.volume = 0.0 if self.mute else float(volume)

    def play(self, tune: Tune, *, colour: str | None = None, points: int = 0) -> None:
        """Plays `tune` and says it if speech is on. Never blocks.

        `colour` (a colour key) and `points` fill in the spoken sentence."""
        try:
            tune = Tune(tune)
        except ValueError:
            log.error("no sound for the event %r", tune)
            return
        if self.buzzer is not None and not self.mute:
            with self._lock:
                if not self._waiting and not self._busy and not self.buzzer.playing:
                    # Silent now: start at once from here, rather than when the worker
                    # thread next gets to run (a frame being drawn may hold it back).
                    self._start(tune)
                else:
                    if tune not in self._waiting:
                        self._waiting.append(tune)
                    while len(self._waiting) > MAX_WAITING:
                        self._waiting.remove(min(self._waiting, key=lambda e: PRIORITY[e]))
                    self._lock.notify()
        if self.speech and not self.mute:
            self.say(self.sentence(tune, colour, points))

    def announce(self, sound: Sound, colours: Mapping[str, str]) -> None:
        """Plays the tune of one of the table's sound events; `colours` maps a side to its
        colour key, for the spoken words."""
        colour = colours.get(sound.side) if sound.side else None
        self.play(TUNE_OF[sound.kind], colour=colour, points=sound.points)

    def sentence(self, tune: Tune, colour: str | None = None, points: int = 0) -> str:
        """What is said for `tune`, in the configured language ("" for a tune without words)."""
        texts = Catalogue.load(self.language)
        if f"speech.{tune}" not in keys():
            return ""
        name = texts.colour(colour) if colour else ""
        return texts.text(f"speech.{tune}", colour=name, n=points)

    def wait(self, timeout: float = 10.0) -> bool:
        """Until every waiting tune has been played (tests, and a clean exit)."""
        with self._lock:
            done = self._lock.wait_for(lambda: not self._waiting and not self._busy, timeout)
        return done and (self.buzzer is None or self.buzzer.wait(timeout))

    _busy = False

    def _play_tunes(self) -> None:
        while True:
            with self._lock:
                self._busy = False
                self._lock.notify_all()
                self._lock.wait_for(lambda: self._waiting or self._closed)
                if self._closed:
                    return
                tune = self._waiting.pop(0)
                self._busy = True
            assert self.buzzer is not None
            self.buzzer.wait(timeout=10)  # a tune started by `play` itself plays to its end
            self._start(tune)
            self.buzzer.wait(timeout=10)

    def _start(self, tune: Tune) -> None:
        try:
            assert self.buzzer is not None
            self.buzzer.play(TUNES[tune])
        except Exception as exc:  # a broken buzzer must not stop the game
            log.error("cannot play the %s tune: %s", tune, exc)

    # -- speech ---------------------------------------------------------------------------
    def command(self, text: str) -> list[str]:
        """The espeak-ng command line that says `text`."""
        voice = VOICES.get(self.language, "en")
        return [self.espeak, "-v", voice, "-a", str(self.speech_volume), "--", text]

    def say(self, text: str) -> None:
        """Says `text` after what is being said (dropped if too much is waiting)."""
        if not text or self._speaker is None:
            return
        try:
            self._speech_queue.put_nowait(text)
        except queue.Full:
            log.warning("too much to say; dropped %r", text)

    def _speak_lines(self) -> None:
        while True:
            text = self._speech_queue.get()
            if text is None:
                return
            self.speak_now(text)

    def speak_now(self, text: str) -> bool:
        """Says `text` and waits until it is said; False (logged once) if espeak-ng is missing."""
        if shutil.which(self.espeak) is None:
            if not self._espeak_missing_reported:
                log.warning(
                    "speech is on but %s is not installed (apt install espeak-ng)", self.espeak
                )
                self._espeak_missing_reported = True
            return False
        try:
            subprocess.run(self.command(text), capture_output=True, timeout=15, check=True)
        except (OSError, subprocess.SubprocessError) as exc:
            log.error("espeak-ng could not say %r: %s", text, exc)
            return False
        return True

    def _close(self) -> None:
        with self._lock:
            self._waiting.clear()
            self._lock.notify_all()
        if self.buzzer is not None:
            self.buzzer.stop()  # cuts the tune playing, so the worker ends at once
        self._tunes.join(timeout=2)
        if self._speaker is not None:
            with contextlib.suppress(queue.Full):
                self._speech_queue.put_nowait(None)
