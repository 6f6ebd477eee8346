"""The one place that opens the sound device: pygame's mixer, with a silent stand-in when there is none.

One process owns the device (the companion, through pygame's mixer): speech is rendered to WAV and played here
too instead of letting espeak-ng open the device itself, so a chime and a sentence can never fight over it and
volume and mute apply to everything. A Pi without speakers, a laptop without a sound server or a CI runner
must still run the companion (banner only), so opening never raises: :func:`open_audio` returns a
:class:`NullAudio` that says why.

Two channels are reserved: ``VOICE`` carries the announcement sequence (chime, then speech) so announcements
never overlap, and ``EFFECT`` carries the hourglass tick, which may sound under a banner. """

from __future__ import annotations

import io
import os
from collections import OrderedDict
from enum import StrEnum
from typing import Protocol

from companion.i18n import DEFAULT_LANGUAGE, t


class Channel(StrEnum):
    VOICE = "voice"
    EFFECT = "effect"


_CHANNEL_INDEX = {Channel.VOICE: 0, Channel.EFFECT: 1}


class AudioOut(Protocol):
    """What the announcer needs from a sound device. ``volume`` is 0.0-1.0."""

    available: bool
    reason: str

    def play(self, wav: bytes, channel: Channel, volume: float) -> None: ...

    def stop(self, channel: Channel) -> None: ...

    def close(self) -> None: ...


class NullAudio:
    """No sound device: everything is silently dropped, and ``reason`` says why (shown by ``companion
    doctor``)."""

    available = False

    def __init__(self, reason: str = "") -> None:
        self.reason = reason

    def play(self, wav: bytes, channel: Channel, volume: float) -> None:
        pass

    def stop(self, channel: Channel) -> None:
        pass

    def close(self) -> None:
        pass


class MixerAudio:
    """pygame's mixer. WAV bytes are converted to mixer sounds once and kept (a game repeats its
    sentences)."""

    available = True
    reason = ""

    def __init__(self, cache_size: int = 64) -> None:
        import pygame

        self._pygame = pygame
        self._sounds: OrderedDict[bytes, pygame.mixer.Sound] = OrderedDict()
        self._cache_size = cache_size
        pygame.mixer.set_reserved(len(_CHANNEL_INDEX))
        self._channels = {c: pygame.mixer.Channel(i) for c, i in _CHANNEL_INDEX.items()}

    def _sound(self, wav: bytes):
        snd = self._sounds.get(wav)
        if snd is None:
            snd = self._pygame.mixer.Sound(file=io.BytesIO(wav))
            self._sounds[wav] = snd
            if len(self._sounds) > self._cache_size:
                self._sounds.popitem(last=False)
        else:
            self._sounds.move_to_end(wav)
        return snd

    def play(self, wav: bytes, channel: Channel, volume: float) -> None:
        ch = self._channels[channel]
        ch.set_volume(max(0.0, min(1.0, volume)))
        ch.play(self._sound(wav))

    def stop(self, channel: Channel) -> None:
        self._channels[channel].stop()

    def busy(self, channel: Channel) -> bool:
        return bool(self._channels[channel].get_busy())

    def close(self) -> None:
        self._sounds.clear()
        if self._pygame.mixer.get_init():
            self._pygame.mixer.quit()


def open_audio(frequency: int = 44100, buffer: int = 1024) -> AudioOut:
    """The mixer if a sound device can be opened (or is already open), else a :class:`NullAudio` with the
    reason.

    A mixer opened earlier (``pygame.init()`` opens one when it can) is reused as it is.
    """
    try:
        import pygame
    except ImportError as exc:  # pragma: no cover - pygame-ce is a dependency
        return NullAudio(str(exc))
    try:
        if not pygame.mixer.get_init():
            pygame.mixer.init(frequency=frequency, size=-16, channels=2, buffer=buffer)
        return MixerAudio()
    except pygame.error as exc:
        return NullAudio(str(exc))


def diagnose(lang: str = DEFAULT_LANGUAGE) -> list[str]:
    """Lines for ``companion doctor``: is there a sound device, and what to do if not."""
    import pygame

    was_open = bool(pygame.mixer.get_init())
    audio = open_audio()
    try:
        if not audio.available:
            return [t("core.doctor_audio_missing", lang, error=audio.reason)]
        freq, _size, channels = pygame.mixer.get_init()
        driver = os.environ.get("SDL_AUDIODRIVER") or _driver_name(pygame)
        line = t("core.doctor_audio_ok", lang, driver=driver, rate=freq, channels=channels)
        if driver == "dummy":
            return [line, t("core.doctor_audio_dummy", lang)]
        return [line]
    finally:
        if not was_open and audio.available:
            audio.close()


def _driver_name(pygame) -> str:
    try:
        return pygame.mixer.get_driver()
    except (AttributeError, pygame.error):
        return "?"
