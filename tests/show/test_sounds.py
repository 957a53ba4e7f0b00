"""Game events -> tunes on gpiozero's MockPWMPin, compared with the tune data; the queue
that keeps a bonus fanfare from being cut; speech through espeak-ng."""

from __future__ import annotations

import logging
import shutil
import subprocess
import wave

import pytest

from companion.config import SoundConfig
from companion.game.sounds import Sound, SoundEvent
from companion.show.tunes import TUNE_OF, TUNES, Sounds, Tune
from hardware.buzzer import TunePlayer, frequency


def notes(tune):
    return [frequency(note) for note, _ in tune if note is not None]


@pytest.fixture
def player(pwm_factory):
    with TunePlayer(18, pin_factory=pwm_factory, gap=0.01) as player:
        pin = pwm_factory.pin(18)
        pin.clear_states()
        pin.frequencies.clear()
        yield player, pin


@pytest.mark.parametrize("event", list(Tune))
def test_each_event_plays_its_tune(player, event):
    buzzer, pin = player
    with Sounds(buzzer, SoundConfig(volume=1.0)) as sounds:
        sounds.play(event)
        # had play() waited for the tune, it would be over by now: it returns while it plays
        assert buzzer.playing, "never blocks the daemon"
        assert sounds.wait(10)
    assert [hz for _, hz in pin.frequencies] == pytest.approx(notes(TUNES[event]))
    # each sounding note: duty on for its length less the gap (generous tolerance)
    on = [s.timestamp for s in pin.states[1:] if s.state == 0.0]
    lengths = [seconds - 0.01 for note, seconds in TUNES[event] if note is not None]
    # a busy machine can only wake the player late, never early: a generous upper margin
    assert len(on) == len(lengths)
    assert all(want - 0.02 <= got <= want + 0.25 for got, want in zip(on, lengths)), (on, lengths)
    assert pin.state == 0.0


def test_the_tunes_are_distinct_and_the_bonus_stands_out():
    melodies = {event: tuple(notes(tune)) for event, tune in TUNES.items()}
    assert len(set(melodies.values())) == len(melodies)
    others = [hz for event, m in melodies.items() if event != "bonus" for hz in m]
    assert max(melodies["bonus"]) > max(others), "the bonus reaches the highest note"
    length = {event: sum(s for _, s in tune) for event, tune in TUNES.items()}
    assert length["bonus"] >= 0.8, "long enough to be noticed across the table"
    assert all(0.1 <= t <= 1.5 for t in length.values()), "short tunes"


def test_events_of_one_moment_play_one_after_another_and_duplicates_once(player):
    buzzer, pin = player
    with Sounds(buzzer) as sounds:
        sounds.play(Tune.SCORED)
        sounds.play(Tune.BONUS, colour="green", points=2)
        sounds.play(Tune.BONUS, colour="red", points=1)
        sounds.play(Tune.YOUR_TURN)
        assert sounds.wait(10)
    played = [hz for _, hz in pin.frequencies]
    expected = notes(TUNES[Tune.SCORED]) + notes(TUNES[Tune.BONUS]) + notes(TUNES[Tune.YOUR_TURN])
    assert played == pytest.approx(expected), "the fanfare in full, once, between the others"


def test_mute_and_volume(player):
    buzzer, pin = player
    with Sounds(buzzer, SoundConfig(mute=True)) as sounds:
        sounds.play(Tune.BONUS)
        assert sounds.wait(5)
    assert pin.frequencies == [] and len(pin.states) == 1
    with Sounds(buzzer, SoundConfig(volume=0.5)) as sounds:
        sounds.play(Tune.YOUR_TURN)
        assert sounds.wait(5)
    assert {s.state for s in pin.states[1:]} == {0.25, 0.0}


def test_unknown_event_is_logged_not_raised(player, caplog):
    buzzer, pin = player
    with Sounds(buzzer) as sounds, caplog.at_level(logging.ERROR, "setup.sound"):
        sounds.play("fireworks")
        assert sounds.wait(5)
    assert "no sound for the event 'fireworks'" in caplog.text
    assert pin.frequencies == []


def test_without_a_buzzer_nothing_breaks():
    with Sounds(None, SoundConfig(volume=0.3)) as sounds:
        sounds.play(Tune.BONUS)
        assert sounds.wait(1)


@pytest.mark.parametrize(
    ("lang", "event", "colour", "points", "sentence"),
    [
        ("en", "bonus", "green", 2, "Green: 2 bonus points"),
        ("en", "bonus", "red", 1, "Red: 1 bonus point"),
        ("it", "bonus", "green", 2, "Verde: 2 punti bonus"),
        ("ru", "bonus", "green", 2, "Зелёный: 2 бонусных очка"),
        ("ru", "scored", "purple", 5, "Фиолетовый: 5 очков"),
        ("fr", "your-turn", "yellow", 0, "Jaune, à toi de jouer"),
    ],
)
def test_spoken_sentences_in_the_configured_language(lang, event, colour, points, sentence):
    sounds = Sounds(None, SoundConfig(speech=False), language=lang)
    assert sounds.sentence(event, colour, points) == sentence
    assert sounds.command(sentence)[:5] == ["espeak-ng", "-v", lang, "-a", "100"]
    sounds.close()


def test_missing_espeak_is_reported_once(caplog):
    speech = SoundConfig(speech=True)
    with (
        Sounds(None, speech, espeak="/nonexistent/espeak-ng") as sounds,
        caplog.at_level(logging.WARNING, "setup.sound"),
    ):
        assert sounds.speak_now("Green: 2 bonus points") is False
        assert sounds.speak_now("Red: 1 bonus point") is False
    assert caplog.text.count("is not installed") == 1


@pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng is not installed")
@pytest.mark.parametrize("lang", ["en", "ru"])
def test_espeak_accepts_the_command_and_speaks_the_sentence(lang, tmp_path):
    sounds = Sounds(None, language=lang)
    sentence = sounds.sentence("bonus", "green", 2)
    out = tmp_path / "said.wav"
    command = sounds.command(sentence)
    subprocess.run(
        [*command[:-2], "-w", str(out), *command[-2:]], check=True, timeout=30, capture_output=True
    )
    with wave.open(str(out)) as said:
        seconds = said.getnframes() / said.getframerate()
    assert 0.8 < seconds < 6, "a spoken sentence, not silence"
    sounds.close()


def test_every_sound_the_table_makes_has_a_tune_and_every_tune_an_event():
    assert set(TUNE_OF) == set(SoundEvent)
    assert set(TUNE_OF.values()) == set(TUNES) == set(Tune)


def test_the_tables_sound_events_play_their_tunes_and_say_who(player, monkeypatch):
    buzzer, pin = player
    said = []
    with Sounds(buzzer, language="it") as sounds:
        monkeypatch.setattr(sounds, "say", said.append)
        sounds.speech = True
        colours = {"N": "red", "W": "green"}
        sounds.announce(Sound("bonus", "W", 2), colours)
        sounds.announce(Sound("not-your-turn", "N"), colours)
        assert sounds.wait(10)
    assert [hz for _, hz in pin.frequencies] == pytest.approx(
        notes(TUNES[Tune.BONUS]) + notes(TUNES[Tune.REFUSED])
    )
    assert said[0] == "Verde: 2 punti bonus"
