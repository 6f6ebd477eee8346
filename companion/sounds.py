"""The companion's own sounds, synthesised with numpy: a chime before announcements, a tick for the last ten
seconds of the hourglass, and a time's-up sound.

They are generated rather than shipped as samples so the project carries no third-party audio (no licence to
track, nothing to download) and so their pitch and length can be tuned in code. Each sound is a mono int16
array at :data:`SAMPLE_RATE`; :func:`wav_bytes` wraps it in a WAV container, which is also the form the mixer
loads (pygame converts WAV to whatever format the sound device was opened with, so we never depend on its
rate).

Loudness: the announcer plays sounds and sentences at one volume, so the sounds are made as loud as they should
sound next to espeak-ng's voice, measured as RMS (:data:`VOICE_RMS`). Made to a peak of 0.8 the chime was +6 dB
over the voice and time's up +12 dB: turned up until the sentences were heard, the chime startled the table.

>>> len(chime()) / SAMPLE_RATE
0.9
"""

from __future__ import annotations

import functools
import io
import wave

import numpy as np

from companion.announce import Sound

SAMPLE_RATE = 22050  # espeak-ng's native rate: speech and sounds share one format
PEAK = 0.8  # of int16 full scale: loud, but with headroom so the device never clips
#: RMS of espeak-ng's sentences (``speech.synthesize``, amplitude 100) over the whole WAV: 0.093 the mean of 350
#: game sentences, de and en, 0.073-0.108; their peaks already reach 0.8-1.0, so the voice cannot be made louder
VOICE_RMS = 0.093
#: the chime at the voice's level or under ("listen now", not an alarm) ...
CHIME_DB = -1.0
#: ... time's up a little over it: heard over the table's talk when the sand runs out, without startling
TIMES_UP_DB = 3.0


def _time(seconds: float) -> np.ndarray:
    return np.arange(int(round(seconds * SAMPLE_RATE))) / SAMPLE_RATE


def _fade(signal: np.ndarray, seconds: float = 0.004) -> np.ndarray:
    """Ramp both ends: a waveform that starts or stops off zero is heard as a click."""
    n = min(int(seconds * SAMPLE_RATE), len(signal) // 2)
    if n > 0:
        ramp = np.linspace(0.0, 1.0, n)
        signal = signal.copy()
        signal[:n] *= ramp
        signal[-n:] *= ramp[::-1]
    return signal


def _to_int16(signal: np.ndarray, db: float | None = None) -> np.ndarray:
    """To int16 at ``db`` over the voice's RMS (never over :data:`PEAK`), or with its peak at :data:`PEAK`."""
    peak = float(np.max(np.abs(signal))) or 1.0
    gain = PEAK / peak
    if db is not None:
        rms = float(np.sqrt(np.mean(signal ** 2))) or 1.0
        gain = min(gain, VOICE_RMS * 10 ** (db / 20) / rms)
    return np.round(signal * gain * 32767).astype(np.int16)


def rms(data: np.ndarray) -> float:
    """Root mean square of int16 samples, as a share of full scale (how loud a sound is heard)."""
    x = np.asarray(data, dtype=float) / 32768
    return float(np.sqrt(np.mean(x ** 2))) if len(x) else 0.0


def _bell(freq: float, seconds: float, decay: float) -> np.ndarray:
    """A struck-bell tone: the fundamental with two quieter overtones, dying away exponentially."""
    t = _time(seconds)
    tone = np.sin(2 * np.pi * freq * t) + 0.35 * np.sin(2 * np.pi * 2 * freq * t) \
        + 0.12 * np.sin(2 * np.pi * 3 * freq * t)
    return tone * np.exp(-t / decay)


def chime() -> np.ndarray:
    """Two rising bell notes (E5 then A5): friendly, short, and clearly 'listen now' before a sentence."""
    first = _bell(659.25, 0.9, 0.18)
    second = _bell(880.0, 0.9 - 0.18, 0.22)
    out = first.copy()
    start = int(0.18 * SAMPLE_RATE)
    out[start:start + len(second)] += second
    return _to_int16(_fade(out), CHIME_DB)


def tick() -> np.ndarray:
    """A dry 60 ms click at 1.6 kHz, short enough to repeat every second without becoming a drone.

    Made to :data:`PEAK`, not to an RMS over the voice's: its RMS over its own 60 ms is +6 dB over the voice's over
    whole sentences, but the ear sums a sound over some 200 ms, and over 200 ms the tick is 4 dB under the voice's
    loudest 200 ms (2 dB A-weighted), as loud as the chime. Made to the voice's RMS it would be some 10 dB under
    the voice, lost in the table's talk in the last seconds it is there for."""
    t = _time(0.06)
    click = np.sin(2 * np.pi * 1600 * t) * np.exp(-t / 0.012)
    return _to_int16(_fade(click, 0.001))


def times_up() -> np.ndarray:
    """Three falling buzzer notes: harsher (odd harmonics) and longer than the chime, so nobody mistakes
    it."""
    notes = []
    for freq in (784.0, 622.25, 440.0):
        t = _time(0.32 if freq != 440.0 else 0.7)
        buzz = sum(np.sin(2 * np.pi * k * freq * t) / k for k in (1, 3, 5, 7))
        env = np.minimum(1.0, t / 0.01) * np.exp(-t / (0.25 if freq != 440.0 else 0.45))
        notes.append(_fade(buzz * env))
        notes.append(np.zeros(int(0.04 * SAMPLE_RATE)))
    return _to_int16(np.concatenate(notes[:-1]), TIMES_UP_DB)


_GENERATORS = {Sound.CHIME: chime, Sound.TICK: tick, Sound.TIMES_UP: times_up}


def samples(sound: Sound) -> np.ndarray | None:
    """The samples of ``sound``; None for :attr:`Sound.NONE`."""
    make = _GENERATORS.get(Sound(sound))
    return make() if make else None


def wav_bytes(data: np.ndarray, rate: int = SAMPLE_RATE) -> bytes:
    """Mono int16 samples as a complete WAV file (header with the true length)."""
    buf = io.BytesIO()
    with wave.open(buf, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(rate)
        w.writeframes(np.asarray(data, dtype="<i2").tobytes())
    return buf.getvalue()


@functools.cache
def sound_wav(sound: Sound) -> bytes | None:
    """``sound`` as WAV bytes, generated once per process; None for :attr:`Sound.NONE`."""
    data = samples(sound)
    return None if data is None else wav_bytes(data)


def wav_duration(wav: bytes) -> float:
    """Seconds of audio in a WAV file, read from its header (which :func:`wav_bytes` and speech keep
    exact)."""
    with wave.open(io.BytesIO(wav), "rb") as w:
        return w.getnframes() / w.getframerate()
