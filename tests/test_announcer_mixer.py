"""The announcer on pygame's real mixer (SDL dummy audio driver): sounds and speech load and play on their
channels; and without any sound device the companion still runs and says why."""

from __future__ import annotations

import os

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


def test_an_output_is_chosen_by_a_part_of_its_name():
    names = ["vc4-hdmi-0, MAI PCM i2s-hifi-0", "USB Audio Device, USB Audio", "usb"]
    assert audio.pick_output("usb", names) == "usb"  # a whole name first
    assert audio.pick_output("USB Audio", names) == "USB Audio Device, USB Audio"
    assert audio.pick_output(" hdmi ", names) == "vc4-hdmi-0, MAI PCM i2s-hifi-0"
    assert audio.pick_output("Bluetooth", names) is None


def test_the_named_output_is_the_one_the_mixer_opens(monkeypatch):
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    pygame.mixer.quit()
    opened: list[str | None] = []
    real_init = pygame.mixer.init

    def init(*args, devicename=None, **kw):
        opened.append(devicename)
        real_init(*args, devicename=devicename, **kw)

    monkeypatch.setattr(pygame.mixer, "init", init)
    out = open_audio(output="system audio")
    try:
        assert opened == [None, "System audio output device"] and out.available and out.output_missing == ""
    finally:
        out.close()
    opened.clear()
    out = open_audio(output="USB")
    try:  # not there: the default output plays, and the mixer says which was wanted
        assert opened == [None] and out.available and out.output_missing == "USB"
        assert out.outputs == ["System audio output device"]
        assert audio.missing_output_words(out, "de").startswith("Tonausgabe „USB“ nicht gefunden")
    finally:
        out.close()


def test_diagnose_lists_the_outputs_and_says_which_the_config_chooses(monkeypatch):
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    pygame.mixer.quit()
    lines = audio.diagnose("en", "system")
    assert "Sound outputs: System audio output device." in lines[2]
    assert lines[3] == "Sound: plays on System audio output device (sound.output in the config)."
    pygame.mixer.quit()
    lines = audio.diagnose("en", "USB")
    assert lines[3].startswith("Sound output “USB” not found: the sound comes from the default one.")
    pygame.mixer.quit()


def test_with_no_default_output_the_output_is_tried_by_its_whole_name(monkeypatch):
    """A system whose default output cannot open (its sound server not running under the kiosk service) may still
    open the speaker named in the config."""
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    pygame.mixer.quit()
    real_init = pygame.mixer.init

    def init(*args, devicename=None, **kw):
        if devicename is None:
            raise pygame.error("no default device")
        real_init(*args, devicename=devicename, **kw)

    monkeypatch.setattr(pygame.mixer, "init", init)
    out = open_audio(output="System audio output device")
    try:
        assert isinstance(out, MixerAudio) and out.output_missing == ""
    finally:
        out.close()
    assert isinstance(open_audio(output="USB"), NullAudio)
    assert isinstance(open_audio(), NullAudio)


PI5_CARDS = """\
 0 [vc4hdmi0       ]: vc4-hdmi - vc4-hdmi-0
                      vc4-hdmi-0
 1 [vc4hdmi1       ]: vc4-hdmi - vc4-hdmi-1
                      vc4-hdmi-1
 2 [Device         ]: USB-Audio - USB Audio Device
                      GeneralPlus USB Audio Device at usb-xhci-hcd.1-1, full speed
"""


@pytest.fixture
def pi5_alsa(monkeypatch, tmp_path):
    """A Pi 5 without a sound server: ALSA's default (card 0, HDMI with no screen's speakers) and SDL's device names
    refuse to open; only the USB speaker opens, by AUDIODEV. The real mixer opens on the dummy driver behind it."""
    cards = tmp_path / "cards"
    cards.write_text(PI5_CARDS)
    monkeypatch.setattr(audio, "ASOUND_CARDS", cards)
    for name in ("SDL_AUDIODRIVER", "AUDIODEV"):  # set first: what the code sets goes again after the test
        monkeypatch.setenv(name, "")
        monkeypatch.delenv(name)
    monkeypatch.setattr(audio, "_env_before", {})
    pygame.mixer.quit()
    real_init = pygame.mixer.init
    tried: list[str | None] = []

    def init(*args, devicename=None, **kw):
        dev = os.environ.get("AUDIODEV")
        tried.append(devicename or dev)
        if devicename is not None or dev != "plughw:CARD=Device" or os.environ.get("SDL_AUDIODRIVER") != "alsa":
            raise pygame.error("ALSA: Couldn't open audio device: No such device")
        with monkeypatch.context() as m:
            m.setenv("SDL_AUDIODRIVER", "dummy")
            real_init(*args, **kw)

    monkeypatch.setattr(pygame.mixer, "init", init)
    yield tried
    pygame.mixer.quit()


def test_a_pi_5_without_a_default_output_plays_on_the_usb_speaker(pi5_alsa):
    """Card 0 of a Pi 5 is an HDMI output that refuses to open with no screen's speakers: the USB speaker the
    README recommends stayed silent and the strip said "No sound device"."""
    out = open_audio()
    try:
        assert isinstance(out, MixerAudio) and out.card is not None and out.card.id == "Device"
        assert pi5_alsa == [None, "plughw:CARD=Device"]  # the USB card first
        assert os.environ["AUDIODEV"] == "plughw:CARD=Device"
    finally:
        out.close()


def test_output_usb_opens_the_usb_card_where_sdl_wants_a_whole_name(pi5_alsa):
    out = open_audio(output="usb")
    try:
        assert isinstance(out, MixerAudio) and out.card.id == "Device" and out.output_missing == ""
        assert pi5_alsa == [None, "usb", "plughw:CARD=Device"]
    finally:
        out.close()


def test_an_output_naming_a_card_that_does_not_open_leaves_the_environment_as_it_was(pi5_alsa):
    out = open_audio(output="hdmi")  # both HDMI cards refuse; the USB one plays, and the screen says "hdmi" was not
    try:
        assert out.card.id == "Device" and out.output_missing == "hdmi"
        assert pi5_alsa[2:] == ["plughw:CARD=vc4hdmi0", "plughw:CARD=vc4hdmi1", "plughw:CARD=Device"]
    finally:
        out.close()
    pygame.mixer.quit()
    audio.ASOUND_CARDS.write_text(PI5_CARDS.split(" 2 [")[0])  # no USB card: nothing opens
    audio._env_before.clear()
    os.environ.pop("AUDIODEV")
    os.environ.pop("SDL_AUDIODRIVER")
    assert isinstance(open_audio(), NullAudio)
    assert "AUDIODEV" not in os.environ and "SDL_AUDIODRIVER" not in os.environ


def test_a_users_own_audiodev_or_driver_is_left_alone(pi5_alsa, monkeypatch):
    monkeypatch.setenv("AUDIODEV", "hw:5")
    assert isinstance(open_audio(), NullAudio) and os.environ["AUDIODEV"] == "hw:5"
    monkeypatch.delenv("AUDIODEV")
    monkeypatch.setenv("SDL_AUDIODRIVER", "pipewire")
    assert isinstance(open_audio(), NullAudio) and "AUDIODEV" not in os.environ


def test_the_doctor_lists_the_sound_cards_by_what_output_takes(pi5_alsa, monkeypatch):
    monkeypatch.setattr(pygame.mixer, "init", lambda *a, **k: (_ for _ in ()).throw(pygame.error("no device")))
    lines = audio.diagnose("en")
    assert lines[0].startswith("Sound: no audio device")
    assert lines[1].startswith("Sound cards: vc4hdmi0 (vc4-hdmi-0); vc4hdmi1 (vc4-hdmi-1); Device (USB Audio Device).")
    assert audio.diagnose("de")[1].startswith("Soundkarten: vc4hdmi0 (vc4-hdmi-0);")


def test_the_doctor_says_which_card_plays(pi5_alsa):
    lines = audio.diagnose("en", "USB")
    assert "Sound: plays on sound card Device (USB Audio Device), opened directly (AUDIODEV=plughw:CARD=Device)." \
        in lines
    assert not any("not found" in line for line in lines)


def test_sound_cards_of_a_machine_without_alsa(monkeypatch, tmp_path):
    monkeypatch.setattr(audio, "ASOUND_CARDS", tmp_path / "missing")
    assert audio.sound_cards() == []
