"""Tunes on a piezo buzzer (gpiozero TonalBuzzer), played from a background thread.

A tune is data: a sequence of `(note, seconds)` where the note is a name ("C6"), a
frequency in Hz, or None for a rest. `play(tune)` returns at once; a new tune replaces the
one playing. Each note ends with a short silence (`gap`) so that repeated notes are heard
as separate beeps. The volume is the PWM duty cycle (0.5 is the loudest a piezo gets);
volume 0 is mute.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from gpiozero import TonalBuzzer
from gpiozero.tones import Tone

from hardware.device import Device

log = logging.getLogger("setup.sound")

Note = str | float | int | None
Notes = Sequence[tuple[Note, float]]  # a tune: (note or Hz or None for a rest, seconds)

MID_TONE = "A5"  # 880 Hz: piezos are loudest between 2 and 4 kHz, so the range goes up
OCTAVES = 2  # A3 (220 Hz) to A7 (3520 Hz)


def frequency(note: Note) -> float | None:
    """The frequency in Hz of a note: a name such as "C6" or a number of Hz (None: a rest)."""
    if note is None:
        return None
    if isinstance(note, str):
        return float(Tone(note).frequency)
    return float(Tone(frequency=float(note)).frequency)


def _hold(cancel: threading.Event, seconds: float) -> bool:
    """Holds a note (or a rest) for `seconds`; True if the tune was cut meanwhile."""
    return cancel.wait(seconds)


class TunePlayer(Device):
    """Plays tunes on the buzzer on `pin` without blocking the caller. `hold(cancel, seconds)`
    keeps a note sounding (True: the tune was cut meanwhile): real time, or a test's own."""

    def __init__(
        self,
        pin: int | str,
        *,
        volume: float = 1.0,
        gap: float = 0.02,
        pin_factory: Any = None,
        hold: Callable[[threading.Event, float], bool] = _hold,
    ) -> None:
        self.buzzer = TonalBuzzer(pin, mid_tone=MID_TONE, octaves=OCTAVES, pin_factory=pin_factory)
        self.volume = volume
        self.gap = gap
        self._hold = hold
        self._lock = threading.Lock()
        self._cancel = threading.Event()
        self._thread: threading.Thread | None = None

    def __repr__(self) -> str:
        return f"<TunePlayer {self.buzzer!r} volume={self.volume:g}>"

    @property
    def volume(self) -> float:
        return self._volume

    @volume.setter
    def volume(self, value: float) -> None:
        self._volume = min(1.0, max(0.0, float(value)))

    @property
    def duty(self) -> float:
        """The PWM duty cycle of a sounding note: 0.5 at full volume."""
        return 0.5 * self._volume

    def check(self, tune: Iterable[tuple[Note, float]]) -> list[tuple[float | None, float]]:
        """The tune as (Hz or None, seconds); ValueError for a note the buzzer cannot play."""
        low, high = self.buzzer.min_tone.frequency, self.buzzer.max_tone.frequency
        notes = []
        for note, seconds in tune:
            hz = frequency(note)
            if hz is not None and not low <= hz <= high:
                raise ValueError(
                    f"the note {note!r} is outside the buzzer's range {low:g}-{high:g} Hz"
                )
            if not 0 < seconds <= 5:
                raise ValueError(f"a note lasts more than 0 and at most 5 seconds, not {seconds!r}")
            notes.append((hz, float(seconds)))
        return notes

    def play(self, tune: Notes) -> None:
        """Starts playing `tune` (replacing the one playing) and returns at once."""
        notes = self.check(tune)
        with self._lock:
            if self._closed:
                return
            self._stop_thread()
            if self.duty <= 0:
                return  # muted: not a sound, not a thread
            self._cancel = threading.Event()
            self._thread = threading.Thread(
                target=self._run, args=(notes, self._cancel), name="buzzer", daemon=True
            )
            self._thread.start()

    def wait(self, timeout: float | None = None) -> bool:
        """Waits until the current tune has ended; True if it has."""
        thread = self._thread
        if thread is None:
            return True
        thread.join(timeout)
        return not thread.is_alive()

    @property
    def playing(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def stop(self) -> None:
        with self._lock:
            self._stop_thread()

    def _stop_thread(self) -> None:
        if self._thread is not None:
            self._cancel.set()
            self._thread.join(timeout=2)
            self._thread = None
        self._silence()

    def _run(self, notes: list[tuple[float | None, float]], cancel: threading.Event) -> None:
        pwm = self.buzzer.pwm_device
        try:
            for hz, seconds in notes:
                if cancel.is_set():
                    break
                if hz is None:
                    pwm.value = 0
                    if self._hold(cancel, seconds):
                        break
                    continue
                pwm.pin.frequency = hz
                pwm.value = self.duty
                gap = min(self.gap, seconds / 2)
                if self._hold(cancel, seconds - gap):
                    break
                pwm.value = 0
                if self._hold(cancel, gap):
                    break
        except Exception as exc:  # a GPIO error must not kill the daemon: the tune is lost
            log.error("the buzzer failed: %s", exc)
        finally:
            if not cancel.is_set():
                self._silence()

    def _silence(self) -> None:
        try:
            self.buzzer.pwm_device.value = 0
        except Exception as exc:
            log.debug("silencing the buzzer: %s", exc)

    def _close(self) -> None:
        with self._lock:
            self._stop_thread()
        self.buzzer.close()
