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
import logging
import os
import re
from collections import OrderedDict
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Protocol

from companion.i18n import DEFAULT_LANGUAGE, t

log = logging.getLogger(__name__)


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

        #: the config's ``sound.output`` where it was not found (or would not open): the default output plays
        self.output_missing = ""
        #: the outputs SDL found when the mixer was opened for a ``sound.output`` (only then are they asked for)
        self.outputs: list[str] = []
        #: the sound card opened directly through ALSA (:func:`_open_on_card`) where the default or the named output
        #: would not open; None where SDL's own choice plays
        self.card: SoundCard | None = None

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


def output_devices() -> list[str]:
    """The sound outputs SDL finds (an open mixer is needed to ask; [] when none can be opened)."""
    import pygame

    try:
        from pygame._sdl2 import audio as sdl_audio

        return list(sdl_audio.get_audio_device_names(False)) if pygame.mixer.get_init() else []
    except (ImportError, pygame.error):
        return []


def pick_output(wanted: str, names: list[str]) -> str | None:
    """The first of ``names`` that ``wanted`` names or is a part of (case ignored): a club writes "USB", not the
    driver's whole "USB Audio Device, USB Audio"."""
    w = wanted.strip().casefold()
    exact = [n for n in names if n.casefold() == w]
    return (exact or [n for n in names if w in n.casefold()] or [None])[0]


#: the kernel's list of sound cards. On a Pi without a sound server SDL opens ALSA's "default", card 0, and on a Pi 5
#: that is an HDMI output which refuses to open with no screen's speakers behind it: the USB speaker is found here.
ASOUND_CARDS = Path("/proc/asound/cards")

_CARD_LINE = re.compile(r"^\s*\d+\s+\[(?P<id>[^\]\s]+)\s*\]:\s*(?P<driver>\S+)\s+-\s+(?P<name>.*?)\s*$")


@dataclass(frozen=True)
class SoundCard:
    """One of ``/proc/asound/cards``: ``id`` is what ALSA opens it by (``plughw:CARD=<id>``)."""

    id: str  # "Device", "vc4hdmi0"
    name: str  # "USB Audio Device", "vc4-hdmi-0"
    driver: str  # "USB-Audio", "vc4-hdmi"
    longname: str = ""

    @property
    def usb(self) -> bool:
        return self.driver.casefold().startswith("usb")

    def named_by(self, wanted: str) -> bool:
        """Whether the config's ``sound.output`` names this card (a part of its id or name, case ignored)."""
        w = wanted.strip().casefold()
        return bool(w) and any(w in f.casefold() for f in (self.id, self.name, self.longname))


def sound_cards() -> list[SoundCard]:
    """The sound cards the kernel lists; [] where there is no such file (not Linux, or no ALSA)."""
    try:
        lines = ASOUND_CARDS.read_text(errors="replace").splitlines()
    except OSError:
        return []
    cards = []
    for i, line in enumerate(lines):
        if m := _CARD_LINE.match(line):
            longname = lines[i + 1].strip() if i + 1 < len(lines) and not _CARD_LINE.match(lines[i + 1]) else ""
            cards.append(SoundCard(m["id"], m["name"], m["driver"], longname))
    return cards


#: what _open_on_card sets, and what those were before it did (empty while it has set nothing): a second opening
#: (the doctor's) takes them for the user's own only if they were
_CARD_ENV = ("AUDIODEV", "SDL_AUDIODRIVER")
_env_before: dict[str, str | None] = {}


def _user_env() -> dict[str, str | None]:
    return dict(_env_before) or {name: os.environ.get(name) for name in _CARD_ENV}  # the user's, not ours


def _card_candidates(output: str) -> list[SoundCard]:
    """The cards :func:`_open_on_card` tries, in its order; [] where the user chose the device or the driver."""
    before = _user_env()
    driver = before["SDL_AUDIODRIVER"]
    if before["AUDIODEV"] or (driver is not None and driver.casefold() != "alsa"):
        return []
    cards = [c for c in sound_cards() if not output.strip() or c.named_by(output)]
    return sorted(cards, key=lambda c: not c.usb)


def _open_on_card(settings: dict, output: str) -> SoundCard | None:
    """Open the mixer on a sound card directly through ALSA, when SDL's default (ALSA's card 0) or the output named
    would not open; the card opened, or None with the environment as it was.

    ``output`` picks the cards whose id or name it is a part of ("USB" finds "USB Audio Device"); with none, every
    card is tried, USB ones first (the README's advice for a Pi 5, whose card 0 is a silent HDMI output). SDL2's ALSA
    backend opens ``AUDIODEV`` instead of "default" (``get_audio_device`` in ``SDL_alsa_audio.c``), so that is set,
    with the ALSA driver. Left alone where the user set ``AUDIODEV`` or another driver (a sound server, dummy).
    """
    import pygame

    before = _user_env()
    for card in _card_candidates(output):
        os.environ["AUDIODEV"] = f"plughw:CARD={card.id}"
        os.environ["SDL_AUDIODRIVER"] = "alsa"
        try:
            pygame.mixer.init(**settings)
        except pygame.error as exc:
            log.info("sound card %s (%s) does not open: %s", card.id, card.name, exc)
            continue
        log.info("sound plays on card %s (%s): AUDIODEV=%s", card.id, card.name, os.environ["AUDIODEV"])
        _env_before.update(before)
        return card
    for name, value in before.items():  # none opened: as it was, so the default is tried as before
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value
    _env_before.clear()
    return None


def open_audio(frequency: int = 44100, buffer: int = 1024, output: str = "") -> AudioOut:
    """The mixer if a sound device can be opened (or is already open), else a :class:`NullAudio` with the
    reason.

    A mixer opened earlier (``pygame.init()`` opens one when it can) is reused as it is, unless ``output`` (the
    config's ``sound.output``) names another of the outputs: a Pi 5's USB speaker is not its first sound card. An
    output not found, or found but refusing to open, plays on the default one, and the mixer's ``output_missing``
    says which was wanted (the screen says so: a family would otherwise wait for words that never come). Where the
    default does not open (a Pi 5 without a sound server: ALSA's card 0 is a silent HDMI output), or ``output`` is
    not among SDL's outputs, a sound card of ``/proc/asound/cards`` is opened directly (:func:`_open_on_card`).
    """
    try:
        import pygame
    except ImportError as exc:  # pragma: no cover - pygame-ce is a dependency
        return NullAudio(str(exc))
    settings = {"frequency": frequency, "size": -16, "channels": 2, "buffer": buffer}
    try:
        if not pygame.mixer.get_init():
            try:
                pygame.mixer.init(**settings)
            except pygame.error as no_default:
                if output.strip():
                    try:  # no default, but the output by its whole name
                        pygame.mixer.init(**settings, devicename=output)
                        return MixerAudio()
                    except pygame.error:
                        pass
                card, missing = _open_on_card(settings, output), ""  # "USB" is no whole name for SDL
                if card is None and output.strip():  # named nothing that opens: any card, said so
                    card, missing = _open_on_card(settings, ""), output
                if card is None:
                    raise no_default
                mixer = MixerAudio()
                mixer.card, mixer.output_missing = card, missing
                return mixer
        outputs: list[str] = []
        missing = ""
        card = None
        if output.strip():  # the outputs are asked for only then: SDL's search is not the start's work otherwise
            outputs = output_devices()
            chosen = pick_output(output, outputs)
            missing = output if chosen is None else ""
            if chosen is not None:
                pygame.mixer.quit()
                try:
                    pygame.mixer.init(**settings, devicename=chosen)
                except pygame.error:
                    missing = output
            if missing and _card_candidates(output):  # not among SDL's names, or refusing to open: the card of
                if pygame.mixer.get_init():  # that name, through ALSA
                    pygame.mixer.quit()
                card = _open_on_card(settings, output)
                missing = "" if card is not None else missing
            if not pygame.mixer.get_init():
                pygame.mixer.init(**settings)
        mixer = MixerAudio()
        mixer.output_missing, mixer.outputs, mixer.card = missing, outputs, card
        return mixer
    except pygame.error as exc:
        return NullAudio(str(exc))


#: where Debian's pipewire-alsa sends ALSA's default sound to PipeWire (Raspberry Pi OS with the desktop)
PIPEWIRE_ALSA_DEFAULT = "/etc/alsa/conf.d/99-pipewire-default.conf"


def pipewire_unreached() -> bool:
    """Whether sound goes through PipeWire here and no PipeWire answers for this process: it runs in a login
    session, and a kiosk booted to the console has none (``scripts/install-service.sh`` sets up lingering). Then
    "plug in a speaker" is the wrong advice for a silent companion."""
    if not os.path.exists(PIPEWIRE_ALSA_DEFAULT):
        return False
    runtime = os.environ.get("XDG_RUNTIME_DIR", "")
    return not (runtime and os.path.exists(os.path.join(runtime, "pipewire-0")))


def no_sound_words(lang: str) -> str:
    """What the screen says when no sound device opened, with the fix that fits this system."""
    return t("core.no_sound_pipewire" if pipewire_unreached() else "core.no_sound", lang)


def diagnose(lang: str = DEFAULT_LANGUAGE, output: str = "") -> list[str]:
    """Lines for ``companion doctor``: is there a sound device, which outputs there are and which one the config's
    ``output`` chooses, and what to do if there is none."""
    import pygame

    was_open = bool(pygame.mixer.get_init())
    if output.strip() and was_open:
        pygame.mixer.quit()  # opened again on the output the config names, as the companion opens it
    audio = open_audio(output=output)
    try:
        cards = _cards_line(lang)
        if not isinstance(audio, MixerAudio):
            lines = [t("core.doctor_audio_missing", lang, error=audio.reason), *cards]
            return lines + ([t("core.no_sound_pipewire", lang)] if pipewire_unreached() else [])
        freq, _size, channels = pygame.mixer.get_init()
        driver = os.environ.get("SDL_AUDIODRIVER") or _driver_name(pygame)
        lines = [t("core.doctor_audio_ok", lang, driver=driver, rate=freq, channels=channels)]
        if driver == "dummy":
            lines.append(t("core.doctor_audio_dummy", lang))
        outputs = audio.outputs or output_devices()  # asked already where the config names an output
        if outputs:
            lines.append(t("core.doctor_audio_outputs", lang, outputs="; ".join(outputs)))
        if audio.card is not None:
            lines.append(t("core.doctor_audio_card", lang, card=audio.card.id, name=audio.card.name))
        if audio.output_missing:
            lines.append(missing_output_words(audio, lang))
        elif output.strip() and audio.card is None:
            lines.append(t("core.doctor_audio_chosen", lang, output=pick_output(output, outputs)))
        return lines + cards
    finally:
        if not was_open and audio.available:
            audio.close()


def _cards_line(lang: str) -> list[str]:
    """The sound cards by the id and name ``sound.output`` may use: where SDL lists no outputs (no device opened)
    they are what a volunteer can write in the config."""
    cards = sound_cards()
    if not cards:
        return []
    listed = "; ".join(f"{c.id} ({c.name})" for c in cards)
    return [t("core.doctor_audio_cards", lang, cards=listed)]


def missing_output_words(audio: MixerAudio, lang: str) -> str:
    """The table's words for a ``sound.output`` not found: what was wanted, and where the outputs are listed (a Pi's
    list of them is too long for a strip read across the table)."""
    return t("core.sound_output_missing", lang, output=audio.output_missing)


def _driver_name(pygame) -> str:
    try:
        return pygame.mixer.get_driver()
    except (AttributeError, pygame.error):
        return "?"
