"""The announcer on pygame's real mixer (SDL dummy audio driver): sounds and speech load and play on their
channels; and without any sound device the companion still runs and says why."""

from __future__ import annotations

import pygame
import pytest

from companion import audio, sounds
from companion.announce import Announcement, Sound
from companion.announcer import Announcer
from companion.audio import Channel, MixerAudio, NullAudio, open_audio
from companion.speech import Speech, find_espeak


@pytest.fixture
def dummy_mixer(monkeypatch):
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    pygame.mixer.quit()
    out = open_audio()
    yield out
    out.close()
    pygame.mixer.quit()


def test_mixer_opens_on_the_dummy_driver_and_plays(dummy_mixer):
    assert isinstance(dummy_mixer, MixerAudio) and dummy_mixer.available
    dummy_mixer.play(sounds.sound_wav(Sound.TICK), Channel.EFFECT, 0.5)
    assert dummy_mixer.busy(Channel.EFFECT) and not dummy_mixer.busy(Channel.VOICE)
    dummy_mixer.stop(Channel.EFFECT)
    assert not dummy_mixer.busy(Channel.EFFECT)


def test_announcer_plays_chime_then_real_speech_on_the_mixer(dummy_mixer):
    speech = Speech(threaded=False)
    if not speech.available:
        pytest.skip("espeak-ng is not installed (sudo apt install espeak-ng): chime only")
    ann = Announcer("de", 60, audio=dummy_mixer, speech=speech)
    ann.announce(Announcement("core.app_title"))
    ann.update(100.0)
    assert dummy_mixer.busy(Channel.VOICE)  # the chime
    chime = sounds.wav_duration(sounds.sound_wav(Sound.CHIME))
    ann.update(100.0 + chime)
    assert ann.current.speech_started == pytest.approx(100.0 + chime)
    assert 0.5 < ann.current.speech_seconds < 3.0
    assert dummy_mixer.busy(Channel.VOICE)
    assert pygame.mixer.Channel(0).get_volume() == pytest.approx(0.6, abs=0.01)
    ann.toggle_mute()
    assert not dummy_mixer.busy(Channel.VOICE)


def test_no_device_means_null_audio_with_a_reason(monkeypatch):
    monkeypatch.setenv("SDL_AUDIODRIVER", "no-such-driver")
    pygame.mixer.quit()
    out = open_audio()
    assert isinstance(out, NullAudio) and not out.available and out.reason
    lines = audio.diagnose("en")
    assert lines[0].startswith("Sound: no audio device") and "banners only" in lines[0]
    ann = Announcer("en", audio=out, speech=Speech(threaded=False))
    ann.announce(Announcement("core.app_title", sound=Sound.TIMES_UP, urgent=True))
    ann.update(0.0)
    assert ann.current.text == "Table companion" and ann.current.speech_due is None
    ann.update(ann.current.ends)
    assert ann.current is None


def test_diagnose_names_the_dummy_driver(monkeypatch):
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    pygame.mixer.quit()
    lines = audio.diagnose("en")
    assert "driver dummy" in lines[0] and "nothing can be heard" in lines[1]
    assert not pygame.mixer.get_init()  # diagnose leaves the device as it found it


def test_default_announcer_opens_the_mixer_and_espeak(monkeypatch):
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    pygame.mixer.quit()
    ann = Announcer()
    assert isinstance(ann.audio, MixerAudio) and pygame.mixer.get_init()
    assert ann.speech.available == (find_espeak() is not None)
    ann.close()
    assert not pygame.mixer.get_init()
