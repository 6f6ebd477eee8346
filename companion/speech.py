"""Spoken sentences: espeak-ng renders each sentence to WAV bytes, which the mixer plays (see ``audio.py``).

Why render instead of letting espeak-ng talk: one process must own the sound device (chime and voice must not
fight over it, and volume/mute must apply to both), and a known audio length lets the announcer keep a banner
up exactly as long as its sentence. Rendering takes 50 ms on a laptop and up to a second on a Pi, so it runs
on a worker thread (:class:`Speech`) and drawing never waits for it; a game repeats its sentences, so results
are cached.

Player names are inserted into sentences as typed. The text goes to espeak-ng on stdin (never on the command
line, so a name like ``-v en`` is not a flag) as SSML (``-m``), so that a name in another script can be said in
its own language's voice (:func:`marked_up`): the German voice spelled "Мария" letter by letter ("kyrillisch Em,
kyrillisch A, …", 5.5 s for "Мария ist dran." against 1.6 s in the Russian voice), the English one "Αλέξανδρος"
and "김민준" (8.6 s against 1.9 s). Everything typed is XML-escaped, so a ``<speak>`` in a name is read out, never
obeyed, and :func:`speakable` removes the ``[[...]]`` phoneme escape and control characters, the two ways text can
still steer espeak-ng, and emoji, which are no part of a name's sound ("Anna 🦄" was "Anna Einhorngesicht"). SSML
mode says the German and English sentences as plain text did (same phonemes, durations within 1 %). """

from __future__ import annotations

import functools
import html
import logging
import queue
import re
import shutil
import struct
import subprocess
import threading
import unicodedata
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from companion.errors import CompanionError
from companion.i18n import DEFAULT_LANGUAGE, LANGUAGES, t
from companion.names import pictograph
from companion.sounds import wav_bytes, wav_duration

log = logging.getLogger(__name__)

#: English is "en-gb", espeak-ng's default English by its own name: with "en" the voice after a ``</voice>`` stayed
#: the name's for the rest of the sentence ("Kiwis for Мария: 3 points." ended "tri", "Nguyễn: 12 points" counted in
#: Vietnamese), with "en-gb" (and "de") it comes back. Plain sentences are the same voice file (gmw/en), the same
#: phonemes and the same samples. A voice missing from a small espeak-ng-data falls back to ``_FALLBACK_VOICES``.
VOICES = {"de": "de", "en": "en-gb"}
_FALLBACK_VOICES = {"en-gb": "en"}
WORDS_PER_MINUTE = 150  # slower than espeak-ng's 175: the table is noisy, and not everyone is a native
TIMEOUT = 15.0
CLOSE_WAIT = 1.0  # seconds close() waits for the sentence being rendered


class SpeechError(CompanionError):
    """espeak-ng is missing or could not render a sentence; the companion goes on with the banner alone."""


def find_espeak() -> str | None:
    """The espeak-ng executable (or the older espeak, which takes the same options), or None."""
    return shutil.which("espeak-ng") or shutil.which("espeak")


_UNSAFE = re.compile(r"\[\[|\]\]")


def speakable(text: str) -> str:
    """``text`` with nothing espeak-ng would obey rather than read: no ``[[phoneme]]`` input, no control
    characters (espeak's embedded commands start with one), no line breaks (stdin input ends a clause
    there); and without emoji, which espeak-ng names ("Anna 🦄" was "Anna Einhorngesicht", "👨‍👩‍👧" "Mann Frau
    Mädchen") though they are a name's decoration, not its sound. The result is plain text: :func:`marked_up`
    escapes it for SSML."""
    out: list[str] = []
    gone = False  # an emoji was just left out: the space between it and a word goes too ("Anna 🦄's turn" is
    for ch in text:  # "Anna's turn", not "Anna ess turn"); between two words ("Anna🦄Ben") it leaves one
        if pictograph(ch):
            spaces = len(out) - len("".join(out).rstrip())
            if spaces and len(out) > spaces and out[-spaces - 1].isalnum():
                del out[-spaces:]
            gone = True
            continue
        if gone and ch.isalnum() and out and out[-1].isalnum():
            out.append(" ")
        gone = gone and unicodedata.category(ch).startswith("C")  # the joiner inside a family emoji
        out.append(" " if unicodedata.category(ch).startswith("C") else ch)
    cleaned = "".join(out)
    while _UNSAFE.search(cleaned):
        cleaned = _UNSAFE.sub(" ", cleaned)
    return " ".join(cleaned.split())


#: voices for letters the German and English voices would spell one by one, by the start of the letter's Unicode
#: name. Cyrillic is Russian unless the name has a letter only Ukrainian has (``_UKRAINIAN``): the commonest choice,
#: and Bulgarian or Serbian names said by the Russian voice are still names, not "kyrillisch Em" letter by letter.
#: Hanzi and kanji are Mandarin: espeak-ng's Japanese voice reads kana only and spells a kanji "Chinese letter", so
#: "田中さくら" is the Mandarin reading of 田中 and the Japanese of さくら (2.7 s, against 3.8 s all Japanese).
_SCRIPT_VOICES = (("CYRILLIC", "ru"), ("GREEK", "el"), ("ARABIC", "ar"), ("HEBREW", "he"), ("HANGUL", "ko"),
                  ("HIRAGANA", "ja"), ("KATAKANA", "ja"), ("CJK UNIFIED IDEOGRAPH", "cmn"))
_UKRAINIAN = set("ЄєІіЇїҐґ")
#: a Cyrillic name in a neighbour's voice when espeak-ng lacks its own: still a name, not spelled
_SIMILAR = {"ru": ("uk", "bg"), "uk": ("ru", "bg")}
#: Vietnamese is Latin: a word is Vietnamese by a letter no other language the voices know uses, ơ/ư or the
#: stacked marks of Latin Extended Additional ("Nguyễn": "ễ" was spelled "Buchstabe 1E C5"); the words of the
#: same name next to it with â ă đ ê ô ("Văn") go with it
_VIETNAMESE = re.compile(r"[ƠơƯư\u1EA0-\u1EF9]")
_VIETNAMESE_TOO = re.compile(r"[ÂâĂăĐđÊêÔô]")
#: a letter of each voice's script, which :func:`_has_voice` asks espeak-ng to say
_SAMPLES = {"ru": "а", "uk": "ї", "el": "α", "ar": "ب", "he": "ב", "ko": "가", "ja": "か", "cmn": "王", "vi": "ễ"}


def _script_voice(ch: str) -> str | None:
    """The voice for letter ``ch`` when it is one the German and English voices would spell, else None."""
    if not ch.isalpha():
        return None
    name = unicodedata.name(ch, "")
    return next((voice for script, voice in _SCRIPT_VOICES if name.startswith(script)), None)


def _runs(text: str) -> list[tuple[str | None, str]]:
    """``text`` cut into runs said by one voice (None: the sentence's own): the letters of a script with their
    combining marks (Arabic vowel signs, Vietnamese tones), and the spaces between two words of one run, so that a
    name "Мария Иванова" is one phrase."""
    runs: list[tuple[str | None, str]] = []
    for ch in text:
        voice = _script_voice(ch)
        if voice is None and runs and runs[-1][0] is not None and unicodedata.category(ch).startswith("M"):
            voice = runs[-1][0]
        if runs and runs[-1][0] == voice:
            runs[-1] = (voice, runs[-1][1] + ch)
        else:
            runs.append((voice, ch))
    merged: list[tuple[str | None, str]] = []
    for voice, part in runs:
        if (len(merged) >= 2 and voice is not None and merged[-2][0] == voice and merged[-1][0] is None
                and merged[-1][1].isspace()):
            gap = merged.pop()[1]
            merged[-1] = (voice, merged[-1][1] + gap + part)
        else:
            merged.append((voice, part))
    return [_cyrillic(voice, part) for voice, part in merged]


def _cyrillic(voice: str | None, part: str) -> tuple[str | None, str]:
    return ("uk" if voice == "ru" and _UKRAINIAN & set(part) else voice), part


def _vietnamese(runs: list[tuple[str | None, str]]) -> list[tuple[str | None, str]]:
    """Vietnamese words in the sentence's own runs (see ``_VIETNAMESE``) made runs of their own."""
    out: list[tuple[str | None, str]] = []
    for voice, part in runs:
        if voice is not None or not _VIETNAMESE.search(part):
            out.append((voice, part))
            continue
        # words at even indices, the spaces between them and a possessive "'s" at odd ones: "Nguyễn's" in the
        # Vietnamese voice was spelled ("ngoặc đơn", "ét", 3.1 s for "Nguyễn's turn.")
        words = re.split(r"(\s+|['’]s(?!\w))", part)
        marked = [bool(_VIETNAMESE.search(w)) for w in words]
        for i in range(0, len(words), 2):  # spread to neighbouring words with â ă đ ê ô, both ways
            if marked[i]:
                j = i + 2
                while j < len(words) and _VIETNAMESE_TOO.search(words[j]) and not marked[j]:
                    marked[j] = True
                    j += 2
                j = i - 2
                while j >= 0 and _VIETNAMESE_TOO.search(words[j]) and not marked[j]:
                    marked[j] = True
                    j -= 2
        for i in range(1, len(words) - 1, 2):
            marked[i] = marked[i - 1] and marked[i + 1]
        for word, viet in zip(words, marked, strict=True):
            tag = "vi" if viet else None
            if word and out and out[-1][0] == tag:
                out[-1] = (tag, out[-1][1] + word)
            elif word:
                out.append((tag, word))
    return out


#: What a voice tag did to the punctuation around it (measured with the German and English voices): a pause at a
#: "." or "!" before the tag was lost ("Tiere. Мария" ran on, 0.42 s pause gone) and a number before it became an
#: ordinal ("jetzt 1. Мария" was "jetzt erste"), unless a line break stands between; a ",", ":" after the closing tag
#: was not paused at in German ("Würfel an Мария: Wurf 2" ran on) unless it is inside the voice.
_PAUSE_BEFORE_TAG = re.compile(r"(?<=[.,:;!?…])\s+$")
_PAUSE_AFTER_TAG = re.compile(r"^[.,:;!?…]+")


#: an English possessive "'s" after a name in another voice: as a separate word it was said "ess" ("Мария ess
#: turn"); as phonemes right after the closing tag it is joined to the name as in "Anna's turn", "z" after a vowel
#: or a voiced sound, "s" after a voiceless one and "Iz" after a hiss (English's own rule: "Alexandros's" is
#: "-rosIz"). Only English sentences have it: the German voice's phonemes differ ("[[I2z]]" was "I ts").
_POSSESSIVE = re.compile(r"^['’]s(?!\w)")
#: the last letter of the name by the last word of its Unicode name (Hangul: the syllable's final consonant, whose
#: ㅅ ㅈ ㅊ are said "t"); Cyrillic б в г д are said voiceless at a word's end
_HISSED = {"S", "X", "Z", "ES", "ZE", "SHA", "ZHE", "CHE", "SHCHA", "TSE", "SIGMA", "XI", "PSI", "ZETA", "SAMEKH",
           "SHIN", "TSADI", "ZAYIN", "SEEN", "SHEEN", "SAD", "ZAIN", "JEEM"}
_VOICELESS = {"P", "T", "K", "C", "H", "F", "PE", "TE", "KA", "EF", "HA", "BE", "VE", "GHE", "DE", "PI", "TAU",
              "KAPPA", "PHI", "THETA", "CHI", "TAV", "TET", "QOF", "KAF", "TEH", "TAH", "QAF", "FEH", "THEH", "HAH",
              "KHAH"}
_VOICED_FINALS = ("NIEUN", "RIEUL", "MIEUM", "IEUNG")


def _possessive(name: str) -> str:
    """The phonemes of an English "'s" after ``name`` (see ``_POSSESSIVE``)."""
    letters = [ch for ch in unicodedata.normalize("NFD", name) if ch.isalpha()]
    if not letters:
        return "z"
    last = unicodedata.name(letters[-1], "")
    if "JONGSEONG" in last:
        return "z" if last.split()[-1] in _VOICED_FINALS else "s"
    sound = last.split()[-1] if " LETTER " in last else ""
    return "I2z" if sound in _HISSED else "s" if sound in _VOICELESS else "z"


def marked_up(text: str, has_voice: Callable[[str], bool] = lambda voice: True, lang: str | None = None) -> str:
    """``text`` (plain, from :func:`speakable`) as SSML for ``espeak-ng -m``: escaped, so that nothing typed is a
    tag, and each run of letters the sentence's voice would spell one by one ("kyrillisch Em, kyrillisch A, …")
    in ``<voice xml:lang=…>`` of its language, when ``has_voice`` says espeak-ng has that voice (or a Cyrillic
    neighbour, ``_SIMILAR``); without it the name is left to the sentence's voice: spelled, but heard (a missing
    voice in SSML dropped the name). Plain text comes out the same as before SSML, bar the escaped ``&<>``; the
    punctuation next to a tag is placed so that its pause is kept (``_PAUSE_BEFORE_TAG``), and in English
    (``lang``) a possessive "'s" after the tag is said joined to the name (``_POSSESSIVE``)."""
    runs = [(next((v for v in (voice, *_SIMILAR.get(voice, ())) if has_voice(v)), None) if voice else None, part)
            for voice, part in _vietnamese(_runs(text))]
    out: list[str] = []
    for i, (voice, part) in enumerate(runs):
        if voice is None:
            out.append(html.escape(part, quote=False))
            continue
        said = ""
        if lang == "en" and i + 1 < len(runs) and runs[i + 1][0] is None and (
                own := _POSSESSIVE.match(runs[i + 1][1])):
            said = f"[[{_possessive(part)}]]"  # speakable removed every [[ typed, so this is the only one
            runs[i + 1] = (None, runs[i + 1][1][own.end():])
        if not said and i + 1 < len(runs) and runs[i + 1][0] is None and (
                mark := _PAUSE_AFTER_TAG.match(runs[i + 1][1])):
            part += mark.group()
            runs[i + 1] = (None, runs[i + 1][1][mark.end():])
        if out:
            out[-1] = _PAUSE_BEFORE_TAG.sub("\n", out[-1])
        out.append(f'<voice xml:lang="{voice}">{html.escape(part, quote=False)}</voice>{said}')
    return "".join(out)  # no <speak> around it: espeak-ng then added 0.05-0.1 s of silence at the end


@functools.lru_cache(maxsize=64)
def _has_voice(exe: str, voice: str) -> bool:
    """Whether ``exe`` can say ``voice``'s sample letter: a Pi's espeak-ng-data may lack a voice ("voice does not
    exist", exit 1) or its dictionary ("Can't read dictionary file", nothing said). Asked once per voice, and only
    when a name needs it."""
    try:
        proc = subprocess.run([exe, "-v", voice, "-q", "-x", "--stdin"], input=_SAMPLES.get(voice, "a").encode(),
                              capture_output=True, timeout=TIMEOUT, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return proc.returncode == 0 and not proc.stderr.strip() and bool(proc.stdout.strip())


_PAIR = re.compile(r"\b(\d)-(\d)\b")
_SLASHED = re.compile(r"\b(\d+)/(\d+)\b")
_SYMBOL = re.compile(r"\s*\(\s*[/\\]\s*\)")
_SIGN = re.compile(r"[„“\"]([?!])[“\"]|(?<![^\s(])([?!])(?=[\s.,;:)]|$)")
#: Echt Spitze's faces with the extra cross ("2+X", "?+X"): espeak said "zwei plus Iks", and "?+X" "plus Iks"
_MARKED = re.compile(r"(?<![\w+])([1-9?])\+X\b")
_MARKED_WORDS = {"de": r"\1 mit Extrakreuz", "en": r"\1 with extra cross"}
_SIGN_WORDS = {"de": {"?": "Fragezeichen", "!": "Ausrufezeichen"},
               "en": {"?": "question mark", "!": "exclamation mark"}}
#: words the German voice says as written, not as the table knows them (checked with ``espeak-ng -v de -x``):
#: "Orange" was 'o:RaN@ ("O-rang-e"), now 'o:R'aNS@; "Beginner" b@g'In3 ("Be-ginner" as in beginnen), now bIg'InA:
#: as the English word (bIg'In3)
_SAID_AS = {"de": ((re.compile(r"\bCubes?\b"), "Würfel"), (re.compile(r"\bChallenge\b"), "Tschällendsch"),
                   (re.compile(r"\bJoker\b"), "Dschoker"), (re.compile(r"\bOrange\b"), "O-rangsche"),
                   (re.compile(r"\bBeginner\b"), "Bigginna"))}
_ROMAN = re.compile(r"\b(Reihe|row|Kreuzungspunkte|points) (III|II|I)\b")  # Noch X-Mal!'s crossing-point rows
_DECIMAL = re.compile(r"(\d)\.(\d)")
_BUTTONS = ("core.btn_roll", "core.btn_reroll", "core.btn_timer", "core.btn_next", "core.btn_select", "core.btn_undo")


def spoken(text: str, lang: str = DEFAULT_LANGUAGE) -> str:
    """``text`` as it is said rather than read, for a voice that reads symbols and capitals literally: a beehive
    "4-4" is "vier vier" (not "vier Strich vier"), a kind "9/7" "neun sieben", a die's or a round's "?" and "!"
    are named (espeak says nothing for them: "Mitte: ? und 4" was heard "Mitte und vier"), a stroke's symbol in
    brackets ("(/)", for the screen) is left out, a button's capitals are a word ("UHR", not "U H R"), a face
    with Echt Spitze's extra cross "2+X" is "2 mit Extrakreuz", and the German voice says Cube, Challenge,
    Joker, Orange and Beginner as players do."""
    words = _SIGN_WORDS.get(lang, _SIGN_WORDS["en"])
    text = _MARKED.sub(_MARKED_WORDS.get(lang, _MARKED_WORDS["en"]), text)
    text = _SIGN.sub(lambda m: words[m.group(1) or m.group(2)], _SYMBOL.sub("", text))
    text = _SLASHED.sub(r"\1 \2", _PAIR.sub(r"\1 \2", text))
    text = _ROMAN.sub(lambda m: f"{m.group(1)} {len(m.group(2))}", text)  # "I" was "eye", "II" "roman two"
    if lang == "de":
        text = _DECIMAL.sub(r"\1,\2", text)  # "1,5 Minuten", not "eins Punkt fünf"
    for key in _BUTTONS:
        button = t(key, lang if lang in LANGUAGES else DEFAULT_LANGUAGE)
        text = re.sub(rf"(?<!\w){re.escape(button)}(?!\w)", button.capitalize(), text)
    for pattern, said in _SAID_AS.get(lang, ()):
        text = pattern.sub(said, text)
    return text


def fix_wav_header(raw: bytes) -> bytes:
    """A WAV file whose header states its true length.

    espeak-ng streaming to stdout cannot seek back, so it writes a placeholder size (0x7ffff000); duration
    readers and the mixer then see a sound of 13 hours. We take the format and the samples actually present
    and rewrite it. """
    if len(raw) < 12 or raw[:4] != b"RIFF" or raw[8:12] != b"WAVE":
        raise SpeechError(t("core.speech_bad_audio", DEFAULT_LANGUAGE))
    pos, fmt, data = 12, None, None
    while pos + 8 <= len(raw):
        cid, size = raw[pos:pos + 4], struct.unpack("<I", raw[pos + 4:pos + 8])[0]
        body = raw[pos + 8:pos + 8 + size]
        if cid == b"fmt ":
            fmt = struct.unpack("<HHIIHH", body[:16])
        elif cid == b"data":
            data = body  # the rest of the stream when the size is a placeholder
            break
        pos += 8 + size + (size & 1)
    if fmt is None or data is None or fmt[0] != 1 or fmt[5] != 16 or fmt[1] != 1:
        raise SpeechError(t("core.speech_bad_audio", DEFAULT_LANGUAGE))
    data = data[: len(data) - len(data) % 2]
    return wav_bytes(np.frombuffer(data, dtype="<i2"), fmt[2])


def synthesize(text: str, lang: str, *, espeak: str | None = None, wpm: int = WORDS_PER_MINUTE) -> bytes:
    """Render ``text`` in the voice of ``lang`` to WAV bytes (blocking: call it from a worker thread).

    Raises :class:`SpeechError` when espeak-ng is missing or fails.
    """
    exe = espeak or find_espeak()
    if exe is None:
        raise SpeechError(t("core.speech_missing", lang if lang in LANGUAGES else DEFAULT_LANGUAGE))
    voice = VOICES.get(lang)
    if voice is None:
        raise SpeechError(t("core.speech_no_voice", DEFAULT_LANGUAGE, language=lang))
    if voice in _FALLBACK_VOICES and not _has_voice(exe, voice):
        voice = _FALLBACK_VOICES[voice]
    cmd = [exe, "-v", voice, "-m", "-s", str(wpm), "--stdout", "--stdin"]
    ssml = marked_up(speakable(spoken(text, lang)), functools.partial(_has_voice, exe), lang)
    try:
        proc = subprocess.run(cmd, input=ssml.encode("utf-8"), capture_output=True, timeout=TIMEOUT, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise SpeechError(t("core.speech_failed", lang, error=str(exc))) from exc
    if proc.returncode != 0 or not proc.stdout:
        detail = proc.stderr.decode("utf-8", "replace").strip() or f"exit {proc.returncode}"
        raise SpeechError(t("core.speech_failed", lang, error=detail))
    return fix_wav_header(proc.stdout)


@dataclass(frozen=True)
class Rendered:
    """A sentence rendered (``wav`` and its ``seconds``) or failed (``wav`` None, ``error`` says why)."""

    wav: bytes | None
    seconds: float = 0.0
    error: str = ""


class Speech:
    """Renders sentences on a worker thread and keeps the results.

    ``request`` never blocks; ``result`` returns None until the sentence is ready. ``synth`` is the renderer
    (by default espeak-ng through :func:`synthesize`); ``threaded=False`` renders inside ``request``, which
    tests use to make timing deterministic. ``available`` is False without espeak-ng: callers then skip speech
    entirely. """

    def __init__(self, synth: Callable[[str, str], bytes] | None = None, *, threaded: bool = True,
                 cache_size: int = 128) -> None:
        if synth is None:
            exe = find_espeak()
            self.found = exe is not None
            synth = functools.partial(_synth_with, exe)
        else:
            self.found = True
        #: False when the config turns speech off (``sound.speech = false``): chimes and banners go on
        self.enabled = True
        self._synth = synth
        self._threaded = threaded
        self._cache: OrderedDict[tuple[str, str], Rendered] = OrderedDict()
        self._cache_size = cache_size
        self._pending: set[tuple[str, str]] = set()
        self._lock = threading.Lock()
        self._rendered = threading.Condition(self._lock)
        self._jobs: queue.Queue[tuple[str, str] | None] = queue.Queue()  # None stops the worker
        self._thread: threading.Thread | None = None

    @property
    def available(self) -> bool:
        """Whether sentences can be rendered: a renderer was found and speech is not switched off."""
        return self.found and self.enabled

    def request(self, text: str, lang: str) -> None:
        """Start rendering ``text`` unless it is cached or already on its way."""
        key = (lang, text)
        with self._lock:
            if key in self._cache or key in self._pending or not self.available:
                return
            self._pending.add(key)
        if not self._threaded:
            self._render(key)
            return
        if self._thread is None:
            self._thread = threading.Thread(target=self._work, name="speech", daemon=True)
            self._thread.start()
        self._jobs.put(key)

    def result(self, text: str, lang: str) -> Rendered | None:
        """The rendered sentence, or None while it is still being rendered (or was never requested)."""
        with self._lock:
            found = self._cache.get((lang, text))
            if found is not None:
                self._cache.move_to_end((lang, text))
            return found

    def pending(self, text: str, lang: str) -> bool:
        with self._lock:
            return (lang, text) in self._pending

    def wait(self, timeout: float = TIMEOUT) -> bool:
        """Block until every requested sentence is rendered (for tools and tests, never the UI loop)."""
        with self._rendered:
            return self._rendered.wait_for(lambda: not self._pending, timeout)

    def _work(self) -> None:
        while (key := self._jobs.get()) is not None:
            self._render(key)

    def _render(self, key: tuple[str, str]) -> None:
        lang, text = key
        try:
            wav = self._synth(text, lang)
            out = Rendered(wav, wav_duration(wav))
        except SpeechError as exc:
            log.warning("speech: %s", exc)
            out = Rendered(None, 0.0, str(exc))
        except Exception as exc:  # a bad WAV or a bug in a synth must not kill the worker, silencing the game
            log.exception("speech: rendering %r failed", text)
            out = Rendered(None, 0.0, str(exc))
        with self._rendered:
            self._pending.discard(key)
            self._cache[key] = out
            if len(self._cache) > self._cache_size:
                self._cache.popitem(last=False)
            self._rendered.notify_all()

    def close(self) -> None:
        """Stop the worker without rendering what is still queued: nobody will hear it, and stopping the
        companion (Ctrl-C, systemd) waited for every queued sentence, up to TIMEOUT, before the camera and the
        screen were closed. A sentence being rendered is given CLOSE_WAIT; the worker is a daemon thread."""
        if self._thread is not None:
            with self._rendered:
                while True:
                    try:
                        self._pending.discard(self._jobs.get_nowait())
                    except queue.Empty:
                        break
                self._rendered.notify_all()
            self._jobs.put(None)
            self._thread.join(timeout=CLOSE_WAIT)
            self._thread = None


def _synth_with(exe: str | None, text: str, lang: str) -> bytes:
    if exe is None:
        raise SpeechError(t("core.speech_missing", lang if lang in LANGUAGES else DEFAULT_LANGUAGE))
    return synthesize(text, lang, espeak=exe)


def diagnose(lang: str = DEFAULT_LANGUAGE) -> list[str]:
    """Lines for ``companion doctor``: is espeak-ng there, does it have both voices, does it produce audio."""
    exe = find_espeak()
    if exe is None:
        return [t("core.doctor_speech_missing", lang)]
    lines = []
    try:
        version = subprocess.run([exe, "--version"], capture_output=True, text=True,
                                 timeout=TIMEOUT).stdout.split("Data at")[0].strip()
    except (OSError, subprocess.TimeoutExpired) as exc:
        return [t("core.doctor_speech_broken", lang, path=exe, error=str(exc))]
    lines.append(t("core.doctor_speech_found", lang, path=exe, version=version or "?"))
    for code in LANGUAGES:
        try:
            wav = synthesize(t("core.app_title", code), code, espeak=exe)
            seconds = f"{wav_duration(wav):.1f}"
            lines.append(t("core.doctor_speech_voice_ok", lang, language=code, seconds=seconds))
        except SpeechError as exc:
            lines.append(t("core.doctor_speech_voice_missing", lang, language=code, error=str(exc)))
    return lines
