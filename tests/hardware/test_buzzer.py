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
    with TunePlayer(18, pin_factory=pwm_factory, gap=0.02) as player:
        pin = pwm_factory.pin(18)
        pin.clear_states()
        pin.frequencies.clear()
        player.play(TUNE)
        assert player.playing, "play() returns while the tune plays, not after it"
        assert player.wait(timeout=5)
        # duty on for the note less its gap, off for gap + rest, on, off
        duties = [state for _, state in played(pin)]
        assert duties == [0.5, 0.0, 0.5, 0.0]
        pin.assert_states_and_times(
            [(0.0, False), (0.0, 0.5), (0.10, 0.0), (0.02 + 0.08, 0.5), (0.14, 0.0)]
        )
        hz = [value for _, value in pin.frequencies]
        assert hz == [pytest.approx(frequency("C6")), pytest.approx(1500.0)]
        assert frequency("C6") == pytest.approx(1046.5, abs=0.1)


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
        player.play((("A4", 2.0),))
        time.sleep(0.05)
        started = time.monotonic()
        player.play((("A6", 0.05),))
        assert player.wait(5)
        # the A4 would have lasted until 1.95 s from here: well before that, it was cut (a
        # busy machine only makes the short A6 end later, so the bound has room for it)
        assert time.monotonic() - started < 1.5, "the long note was cut"
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
