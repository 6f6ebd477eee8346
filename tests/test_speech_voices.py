"""Names in another script said in their language's voice (espeak-ng SSML, ``-m``): the German voice spelled
"Мария" "kyrillisch Em, kyrillisch A, …" on every turn (5.5 s for "Мария ist dran."), the English one "Αλέξανδρος"
and "김민준" (8.6 s). What espeak-ng is given is checked with a fake executable that records its input; how it sounds
with the real espeak-ng (skipped with a reason where it or a voice is missing)."""

from __future__ import annotations

import io
import json
import subprocess
import sys
import wave
from pathlib import Path

import numpy as np
import pytest

from companion import speech
from companion.announcer import QUIET_LEVEL, WORDS_PAUSE
from companion.sounds import wav_duration
from companion.speech import speakable, spoken, synthesize

ESPEAK = speech.find_espeak()
needs_espeak = pytest.mark.skipif(ESPEAK is None, reason="espeak-ng is not installed (sudo apt install espeak-ng)")

FAKE = '''#!{python}
"""A stand-in for espeak-ng: records each call's arguments and stdin, renders 0.1 s of silence, and has no voice
named in MISSING (``-v ru -x`` then fails as espeak-ng does)."""
import io, json, sys, wave
MISSING = {missing!r}
args, text = sys.argv[1:], sys.stdin.read()
with open({log!r}, "a", encoding="utf-8") as log:
    log.write(json.dumps({{"args": args, "stdin": text}}) + "\\n")
voice = args[args.index("-v") + 1]
if voice in MISSING:
    sys.stderr.write("Error: The specified espeak-ng voice does not exist.\\n")
    sys.exit(1)
if "-x" in args:
    print("x")
else:
    out = io.BytesIO()
    with wave.open(out, "wb") as w:
        w.setnchannels(1), w.setsampwidth(2), w.setframerate(22050), w.writeframes(bytes(4410))
    sys.stdout.buffer.write(out.getvalue())
'''


def fake_espeak(tmp_path: Path, missing: tuple[str, ...] = ()) -> tuple[str, Path]:
    log = tmp_path / "calls.jsonl"
    exe = tmp_path / "espeak-ng"
    exe.write_text(FAKE.format(python=sys.executable, missing=set(missing), log=str(log)), encoding="utf-8")
    exe.chmod(0o755)
    return str(exe), log


def rendering_call(log: Path) -> dict:
    """The call that rendered the sentence (the others ask whether a voice is there)."""
    calls = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    rendering = [c for c in calls if "--stdout" in c["args"]]
    assert len(rendering) == 1, calls
    return rendering[0]


def test_a_cyrillic_name_goes_to_espeak_as_ssml_in_the_russian_voice(tmp_path):
    exe, log = fake_espeak(tmp_path)
    wav = synthesize("Мария ist dran.", "de", espeak=exe)
    assert wave.open(io.BytesIO(wav)).getnframes() == 2205
    call = rendering_call(log)
    assert "-m" in call["args"] and call["args"][call["args"].index("-v") + 1] == "de"
    assert call["stdin"] == '<voice xml:lang="ru">Мария</voice> ist dran.'  # was "Мария ist dran.", spelled


def test_what_is_typed_is_read_never_obeyed_in_ssml(tmp_path):
    exe, log = fake_espeak(tmp_path)
    synthesize("<speak><audio src='x'/></speak> & Ben sind dran.", "de", espeak=exe)
    call = rendering_call(log)
    assert "-m" in call["args"]
    assert call["stdin"] == "&lt;speak&gt;&lt;audio src='x'/&gt;&lt;/speak&gt; &amp; Ben sind dran."
    assert "<" not in call["stdin"]


def test_a_missing_voice_leaves_the_name_to_the_sentence_voice(tmp_path):
    """A Pi's espeak-ng-data may lack a voice; in SSML the name was then left out. Without Russian a Cyrillic name
    goes to the Ukrainian voice, without any Cyrillic voice it is spelled as before, and the sentence is said."""
    exe, log = fake_espeak(tmp_path, missing=("ru",))
    synthesize("Мария ist dran.", "de", espeak=exe)
    assert rendering_call(log)["stdin"] == '<voice xml:lang="uk">Мария</voice> ist dran.'
    (tmp_path / "none").mkdir()
    exe, log = fake_espeak(tmp_path / "none", missing=("ru", "uk", "bg", "el"))
    wav = synthesize("Мария und Αλέξανδρος sind dran.", "en", espeak=exe)
    assert wav_duration(wav) == pytest.approx(0.1)
    assert rendering_call(log)["stdin"] == "Мария und Αλέξανδρος sind dran."


@pytest.mark.parametrize(("text", "ssml"), [
    ("Мария Иванова ist dran.", '<voice xml:lang="ru">Мария Иванова</voice> ist dran.'),  # one name, one phrase
    ("Олена Їжак ist dran.", '<voice xml:lang="uk">Олена Їжак</voice> ist dran.'),  # only Ukrainian has Ї
    ("Αλέξανδρος's turn.", '<voice xml:lang="el">Αλέξανδρος</voice>\'s turn.'),
    ("مُحَمَّد ist dran.", '<voice xml:lang="ar">مُحَمَّد</voice> ist dran.'),  # with its vowel marks
    ("יעל und Anna", '<voice xml:lang="he">יעל</voice> und Anna'),
    ("김민준's turn.", '<voice xml:lang="ko">김민준</voice>\'s turn.'),
    ("王芳 und さくら", '<voice xml:lang="cmn">王芳</voice> und <voice xml:lang="ja">さくら</voice>'),
    ("田中さくら", '<voice xml:lang="cmn">田中</voice><voice xml:lang="ja">さくら</voice>'),  # ja spells kanji
    ("Nguyễn Văn An ist dran.", '<voice xml:lang="vi">Nguyễn Văn</voice> An ist dran.'),
    ("Zoë, Łukasz, Søren, Şule und Ðorđe", "Zoë, Łukasz, Søren, Şule und Ðorđe"),  # the voices say these
    ("Anna: ein Kristall, jetzt 1. Мария, wähle.",  # "1." before a tag was "erste", the "," after it no pause
     'Anna: ein Kristall, jetzt 1.\n<voice xml:lang="ru">Мария,</voice> wähle.'),
    ("Würfel an 김민준: Wurf 2.", 'Würfel an <voice xml:lang="ko">김민준:</voice> Wurf 2.'),
    ("Ben nimmt die 1.", "Ben nimmt die 1."),
])
def test_runs_of_a_script_the_voice_would_spell_are_marked_with_their_language(text, ssml):
    assert speech.marked_up(text) == ssml


def test_emoji_are_left_out_of_what_is_said():
    """espeak-ng named them: "Anna 🦄" was "Anna Einhorngesicht", a family "Mann Frau Mädchen"."""
    assert speakable("Anna 🦄 ist dran.") == "Anna ist dran."
    assert speakable("👨\u200d👩\u200d👧 ist dran.") == "ist dran."
    assert speakable("Ben 👍🏽 und Jo ❤️ 1️⃣") == "Ben und Jo 1"
    assert speakable("Anna 🦄's turn, 👨\u200d👩\u200d👧's next, Anna🦄Ben") == "Anna's turn, 's next, Anna Ben"
    assert speakable("Zoë (die Große) & Ben <3") == "Zoë (die Große) & Ben <3"
    assert speakable("Zoe\u0308 und Nguyễn") == "Zoe\u0308 und Nguyễn"  # combining marks are letters' own


def real_ssml(text: str, lang: str) -> str:
    return speech.marked_up(speakable(spoken(text, lang)), lambda voice: voice_there(voice), lang)


def voice_there(voice: str) -> bool:
    """Whether this espeak-ng says a letter in ``voice`` (asked here, not through the module under test)."""
    sample = {"ru": "а", "el": "α", "ar": "ب", "ko": "가", "vi": "ễ"}.get(voice, "a")
    proc = subprocess.run([ESPEAK, "-v", voice, "-q", "-x", "--stdin"], input=sample.encode(), capture_output=True,
                          check=False, timeout=speech.TIMEOUT)
    return proc.returncode == 0 and not proc.stderr.strip() and bool(proc.stdout.strip())


@needs_espeak
@pytest.mark.parametrize(("lang", "text", "voice", "before", "at_most"), [
    ("de", "Мария ist dran.", "ru", 5.49, 2.5),
    ("en", "Αλέξανδρος's turn.", "el", 4.88, 3.0),
    ("de", "محمد ist dran.", "ar", 4.84, 2.5),
    ("en", "김민준's turn.", "ko", 8.60, 3.0),
    ("de", "Anna 🦄 ist dran.", "de", 2.28, 1.6),
])
def test_real_names_in_other_scripts_are_said_not_spelled(lang, text, voice, before, at_most):
    if not voice_there(voice):
        pytest.skip(f"this espeak-ng has no voice {voice!r} (a smaller espeak-ng-data): a neighbour voice or spelling")
    seconds = wav_duration(synthesize(text, lang))
    assert seconds < at_most < before, seconds  # spelled it took `before` seconds


#: sentences the games say, with each kind of thing the voices read specially: pauses at , : ; . ! ? – …, numbers
#: (German "1." at the end is no ordinal), the words ``spoken`` substitutes, quotes, & and <
SAID = {"de": ["Ben nimmt die 1.", "Mitte: 4 und 5 – Kreuz setzen!",
               "Gewürfelt: Farbjoker, Orange und Rot; 4, 3 und 3.",
               "Die Zeit läuft … noch 5 Sekunden!", "Mitte: ? und 4. Kreuz setzen!", "Carla: Obst & Gemüse. Ben, zieh.",
               "„Hallo“, sagt O'Brien – dann 1.5 Minuten.", "Oma nimmt die 2+X.", "Anna (die Große) & Ben <3"],
        "en": ["Ben: take one die.", "Anna, pick a die.", "It's O'Brien's turn … 3 left!", "Fruit & veg <3",
               'Round 3 of 14: "?" – up to you.', "Carla: one crystal, now 1. Round 2: Anna rolls."]}


@needs_espeak
@pytest.mark.parametrize(("lang", "text"), [(lang, text) for lang, texts in SAID.items() for text in texts])
def test_ssml_says_the_existing_sentences_as_plain_text_did(lang, text):
    """Same phonemes and the same length (a ``<speak>`` around it added up to 0.1 s of silence at the end, and
    "1.</speak>" was "erste")."""
    plain = speakable(spoken(text, lang))

    def run(args: list[str], given: str) -> bytes:
        return subprocess.run([ESPEAK, "-v", lang, *args, "--stdin"], input=given.encode(), capture_output=True,
                              check=True, timeout=speech.TIMEOUT).stdout

    assert run(["-m", "-q", "-x"], real_ssml(text, lang)).split() == run(["-q", "-x"], plain).split()
    old = wave.open(io.BytesIO(speech.fix_wav_header(run(["-s", str(speech.WORDS_PER_MINUTE), "--stdout"], plain))))
    new = wave.open(io.BytesIO(synthesize(text, lang)))
    assert new.getnframes() == pytest.approx(old.getnframes(), rel=0.02)
    loud = [np.flatnonzero(np.abs(np.frombuffer(w.readframes(w.getnframes()), "<i2")) > 300) for w in (old, new)]
    assert loud[1][-1] == pytest.approx(loud[0][-1], rel=0.02)  # the voice ends where it did


def pauses(wav: bytes) -> int:
    """The pauses the announcer ends a group of words at (``announcer.words_end``)."""
    w = wave.open(io.BytesIO(wav))
    loud = np.flatnonzero(np.abs(np.frombuffer(w.readframes(w.getnframes()), "<i2").astype(np.int32)) >= QUIET_LEVEL)
    return int(np.count_nonzero(np.diff(loud) >= WORDS_PAUSE * w.getframerate()))


@needs_espeak
@pytest.mark.parametrize(("lang", "sentence"), [
    ("de", "Carla: Tiere. {}, wähle."), ("de", "Würfel an {}: Wurf 2."),
    ("en", "Carla: Animals. {}, pick."), ("en", "Pass the dice to {}: roll 2.")])
@pytest.mark.parametrize(("voice", "name"), [("ru", "Мария"), ("ko", "김민준")])
def test_a_name_in_another_voice_keeps_the_pauses_around_it(lang, sentence, voice, name):
    """A voice tag swallowed the pause at the "." before it and at the "," or ":" after it (German): "Tiere. Мария,
    wähle" ran on, and the announcer, which cuts a sentence taken back at a pause, had none to cut at."""
    if not voice_there(voice):
        pytest.skip(f"this espeak-ng has no voice {voice!r} (a smaller espeak-ng-data)")
    assert pauses(synthesize(sentence.format(name), lang)) == pauses(synthesize(sentence.format("Anna"), lang)) > 0


def test_english_sentences_go_to_the_en_gb_voice_or_to_en_without_it(tmp_path):
    """With ``-v en`` espeak-ng 1.51 kept a name's voice after ``</voice>`` for the rest of the sentence ("Kiwis for
    Мария: 3 points." ended "tri"); ``-v en-gb``, the same voice file, comes back to English. A smaller
    espeak-ng-data without "en-gb" is asked for "en" rather than saying nothing."""
    exe, log = fake_espeak(tmp_path)
    synthesize("Kiwis for Мария: 3 points.", "en", espeak=exe)
    args = rendering_call(log)["args"]
    assert args[args.index("-v") + 1] == "en-gb"
    (tmp_path / "small").mkdir()
    exe, log = fake_espeak(tmp_path / "small", missing=("en-gb",))
    wav = synthesize("Kiwis for Мария: 3 points.", "en", espeak=exe)
    assert wav_duration(wav) == pytest.approx(0.1)
    args = rendering_call(log)["args"]
    assert args[args.index("-v") + 1] == "en"


def english_phonemes(ssml: str) -> list[str]:
    return subprocess.run([ESPEAK, "-v", speech.VOICES["en"], "-m", "-q", "-x", "--stdin"], input=ssml.encode(),
                          capture_output=True, check=True, timeout=speech.TIMEOUT).stdout.decode().split()


@needs_espeak
@pytest.mark.parametrize(("text", "voice", "name", "rest"), [
    ("Kiwis for Мария: 3 points.", "ru", "Мария", "3 points."),
    ("Nguyễn: 12 points, Ben: 9 points.", "vi", "Nguyễn", "12 points, Ben: 9 points."),
    ("Αλέξανδρος rolled 5 and 6. Ben picks.", "el", "Αλέξανδρος", "rolled 5 and 6. Ben picks."),
    ("김민준 wins with 42 points.", "ko", "김민준", "wins with 42 points."),
])
def test_the_english_voice_comes_back_after_a_name_in_another(text, voice, name, rest):
    """"Kiwis for Мария: 3 points." was "… tri points" and "Nguyễn: 12 points" counted in Vietnamese."""
    if not voice_there(voice):
        pytest.skip(f"this espeak-ng has no voice {voice!r} (a smaller espeak-ng-data)")
    said = english_phonemes(real_ssml(text, "en"))
    alone = english_phonemes(speakable(spoken(rest, "en")))
    assert said[-len(alone):] == alone, said


@needs_espeak
@pytest.mark.parametrize("text", SAID["en"] + ["Anna's turn.", "Round 2 of 14: Ben rolls 4 and 6. Carla picks."])
def test_en_gb_says_plain_english_as_en_did(text):
    """"en" and "en-gb" are one voice file (gmw/en): same phonemes, same samples."""
    if not voice_there("en-gb"):
        pytest.skip("this espeak-ng has no voice 'en-gb': the companion uses 'en'")
    ssml = real_ssml(text, "en")

    def run(voice: str, *args: str) -> bytes:
        return subprocess.run([ESPEAK, "-v", voice, "-m", *args, "--stdin"], input=ssml.encode(), capture_output=True,
                              check=True, timeout=speech.TIMEOUT).stdout

    assert run("en", "-q", "-x") == run("en-gb", "-q", "-x")
    assert run("en", "--stdout") == run("en-gb", "--stdout")


@pytest.mark.parametrize(("text", "ssml"), [
    ("Nguyễn's turn.", '<voice xml:lang="vi">Nguyễn</voice>[[z]] turn.'),  # was inside the tag: spelled, 3.1 s
    ("Trần Đức’s turn.", '<voice xml:lang="vi">Trần Đức</voice>[[s]] turn.'),
    ("Мария's turn.", '<voice xml:lang="ru">Мария</voice>[[z]] turn.'),  # was "Мария ess turn"
    ("Олег's turn.", '<voice xml:lang="ru">Олег</voice>[[s]] turn.'),  # said "Olek"
    ("Αλέξανδρος's turn.", '<voice xml:lang="el">Αλέξανδρος</voice>[[I2z]] turn.'),  # as English says "-os's"
    ("김민준's turn.", '<voice xml:lang="ko">김민준</voice>[[z]] turn.'),
    ("박's turn.", '<voice xml:lang="ko">박</voice>[[s]] turn.'),  # ends in ㄱ, said "k"
    ("It is Ben's turn, not Мария's.", 'It is Ben\'s turn, not <voice xml:lang="ru">Мария</voice>[[z]].'),
    ("Мария'sa und Nguyễn's", '<voice xml:lang="ru">Мария</voice>\'sa und <voice xml:lang="vi">Nguyễn</voice>[[z]]'),
])
def test_an_english_possessive_after_a_name_in_another_voice_is_joined_to_it(text, ssml):
    assert speech.marked_up(text, lang="en") == ssml


def test_the_possessive_stays_out_of_the_name_in_german_and_typed_phonemes_stay_out(tmp_path):
    """German sentences have no "'s" of their own; a typed one is left as text, outside the Vietnamese voice. The
    only ``[[`` espeak-ng is given is the one :func:`marked_up` writes."""
    assert speech.marked_up("Nguyễn's Zug.", lang="de") == '<voice xml:lang="vi">Nguyễn</voice>\'s Zug.'
    exe, log = fake_espeak(tmp_path)
    synthesize("Мария's [[h@l'oU]] turn.", "en", espeak=exe)
    assert rendering_call(log)["stdin"] == '<voice xml:lang="ru">Мария</voice>[[z]] h@l\'oU turn.'


@needs_espeak
@pytest.mark.parametrize(("name", "voice", "at_most"), [("Nguyễn", "vi", 1.6), ("Мария", "ru", 1.42),
                                                        ("Αλέξανδρος", "el", 2.0)])  # before: 3.10, 1.46, 1.95 s
def test_a_possessive_after_a_name_in_another_voice_is_said_joined_not_spelled(name, voice, at_most):
    """"Nguyễn's turn." spelled the name and said "ngoặc đơn", "ét" (3.1 s); "Мария's turn." was "Мария ess turn"
    (a word of its own). Now the English "z" (or "Iz") right after the name, as in "Anna's turn"."""
    if not voice_there(voice):
        pytest.skip(f"this espeak-ng has no voice {voice!r} (a smaller espeak-ng-data)")
    said = english_phonemes(real_ssml(f"{name}'s turn.", "en"))
    alone = english_phonemes(real_ssml(f"{name}.", "en"))
    assert said[:len(alone)] == alone and said[len(alone)] in ("z", "I2z") and said[len(alone) + 1:] == \
        english_phonemes("turn."), said
    seconds = wav_duration(synthesize(f"{name}'s turn.", "en"))
    assert seconds < at_most, seconds
    assert pauses(synthesize(f"{name}'s turn.", "en")) == pauses(synthesize("Anna's turn.", "en"))
