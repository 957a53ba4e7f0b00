"""The tune player on gpiozero's MockPWMPin: the notes' frequencies, durations and duty
cycle (volume) as the pin saw them."""

from __future__ import annotations

import time

import pytest

from hardware.buzzer import TunePlayer, frequency

TUNE = (("C6", 0.12), (None, 0.08), (1500, 0.16))


def played(pin):
    """The pin's history as (seconds, duty) steps, skipping the initial off state."""
    return [(round(s.timestamp, 3), s.state) for s in pin.states[1:]]


def test_a_tune_plays_in_the_background_with_its_notes_and_durations(pwm_factory):
    held = []  # (seconds, duty, Hz) for each hold of the tune: what sounds, and how long

    def hold(cancel, seconds):
        pin = pwm_factory.pin(18)
        held.append((round(seconds, 6), pin.state, pin.frequency))
        return cancel.is_set()

    with TunePlayer(18, pin_factory=pwm_factory, gap=0.02, hold=hold) as player:
        pin = pwm_factory.pin(18)
        pin.clear_states()
        pin.frequencies.clear()
        player.play(TUNE)
        assert player.wait(timeout=5)
        # the note less its gap, the gap in silence, the rest, the last note, its gap
        c6 = pytest.approx(frequency("C6"))
        assert held == [
            (0.10, 0.5, c6),
            (0.02, 0.0, c6),
            (0.08, 0.0, c6),
            (0.14, 0.5, pytest.approx(1500.0)),
            (0.02, 0.0, pytest.approx(1500.0)),
        ]
        assert [state for _, state in played(pin)] == [0.5, 0.0, 0.5, 0.0]
        hz = [value for _, value in pin.frequencies]
        assert hz == [pytest.approx(frequency("C6")), pytest.approx(1500.0)]
        assert frequency("C6") == pytest.approx(1046.5, abs=0.1)


def test_a_tune_plays_while_play_has_returned(pwm_factory):
    with TunePlayer(18, pin_factory=pwm_factory) as player:
        player.play((("A5", 5.0),))
        assert player.playing, "play() returns while the tune plays, not after it"
        player.stop()
        assert not player.playing


def test_volume_is_the_duty_cycle_and_mute_is_silence(pwm_factory):
    with TunePlayer(18, pin_factory=pwm_factory, volume=0.4) as player:
        pin = pwm_factory.pin(18)
        pin.clear_states()
        player.play((("A5", 0.05),))
        player.wait(5)
        assert [s for _, s in played(pin)] == [pytest.approx(0.2), 0.0]
        player.volume = 0
        pin.clear_states()
        player.play((("A5", 0.05),))
        assert player.wait(5)
        assert played(pin) == [], "muted: the pin never moved"
        player.volume = 7
        assert player.duty == 0.5  # clamped to the loudest


def test_a_new_tune_replaces_the_one_playing(pwm_factory):
    with TunePlayer(18, pin_factory=pwm_factory) as player:
        pin = pwm_factory.pin(18)
        pin.frequencies.clear()
        player.play((("A4", 5.0),))
        long_note = player._thread
        assert long_note is not None and long_note.is_alive()
        player.play((("A6", 0.05),))
        # play() stops the tune playing before it starts the next: the five-second A4 is over
        # when it returns (had it only waited for it, it would still be sounding)
        assert not long_note.is_alive(), "the long note was cut"
        assert player.wait(5)
        assert [hz for _, hz in pin.frequencies] == [pytest.approx(440.0), pytest.approx(1760.0)]
        assert pin.state == 0


def test_notes_out_of_range_and_bad_durations_are_refused(pwm_factory):
    with TunePlayer(18, pin_factory=pwm_factory) as player:
        with pytest.raises(ValueError, match="outside the buzzer's range"):
            player.play((("C2", 0.1),))
        with pytest.raises(ValueError, match="seconds"):
            player.play((("C6", 0),))
        assert not player.playing


def test_close_silences_and_frees_the_pin(pwm_factory):
    player = TunePlayer(18, pin_factory=pwm_factory)
    player.play((("A5", 3.0),))
    time.sleep(0.05)
    player.close()
    assert pwm_factory.pin(18).state == 0
    assert player.buzzer.closed
    player.play((("A5", 0.1),))  # after close: nothing, no error
    assert not player.playing
