"""Speech through the real espeak-ng: real WAV audio of a plausible length, both voices, names that cannot
steer it (the text goes as escaped SSML; names in other scripts: test_speech_voices.py), rendering off the calling
thread with a cache. Skipped with a reason where espeak-ng is not
installed."""

from __future__ import annotations

import io
import shutil
import subprocess
import threading
import time
import wave

import numpy as np
import pytest

from companion import speech
from companion.errors import CompanionError
from companion.i18n import t
from companion.sounds import wav_bytes, wav_duration
from companion.speech import Speech, SpeechError, fix_wav_header, speakable, spoken, synthesize

ESPEAK = speech.find_espeak()
needs_espeak = pytest.mark.skipif(ESPEAK is None,
                                  reason="espeak-ng is not installed (sudo apt install espeak-ng)")

SHORT_DE = "Anna ist dran."
LONG_DE = ("Bernhard war als Erster mit den Zitronen fertig: kreise die 9 ein. "
           "Alle anderen streichen die 9 durch.")


def header_and_samples(wav: bytes) -> tuple[wave._wave_params, np.ndarray]:
    with wave.open(io.BytesIO(wav), "rb") as w:
        params = w.getparams()
        data = np.frombuffer(w.readframes(w.getnframes()), dtype="<i2")
    return params, data


@needs_espeak
@pytest.mark.parametrize("lang,text", [("de", SHORT_DE), ("en", "It is Anna's turn.")])
def test_real_speech_is_a_wav_of_plausible_length(lang, text):
    wav = synthesize(text, lang)
    params, data = header_and_samples(wav)
    assert (params.nchannels, params.sampwidth) == (1, 2)
    assert params.nframes == len(data) == (len(wav) - 44) // 2  # the header states the true length
    seconds = wav_duration(wav)
    assert 0.6 < seconds < 4.0, seconds  # four words at 150 words a minute: about 1.5 s
    rms = float(np.sqrt(np.mean(data.astype(float) ** 2)))
    assert rms > 500, "the audio is (nearly) silent"


@needs_espeak
def test_longer_sentence_takes_longer_and_sox_agrees(tmp_path):
    short, long = synthesize(SHORT_DE, "de"), synthesize(LONG_DE, "de")
    assert wav_duration(long) > 3 * wav_duration(short)
    assert 4.0 < wav_duration(long) < 12.0
    if shutil.which("soxi") is None:
        pytest.skip("sox is not installed: header length checked by the wave module only")
    path = tmp_path / "long.wav"
    path.write_bytes(long)
    soxi = float(subprocess.run(["soxi", "-D", str(path)], capture_output=True, text=True, check=True).stdout)
    assert soxi == pytest.approx(wav_duration(long), abs=0.01)


@needs_espeak
def test_german_and_english_voices_differ():
    de, en = synthesize("Anna", "de"), synthesize("Anna", "en")
    assert de != en


@needs_espeak
def test_a_name_cannot_inject_phonemes_or_flags():
    def phonemes(text: str) -> str:
        out = subprocess.run([ESPEAK, "-q", "-x", "-v", "en", "--stdin"], input=text.encode(),
                             capture_output=True, check=True)
        return out.stdout.decode().strip()

    injected = "[[b'i:p]]"
    assert phonemes(injected) == "b'i:p"  # raw, espeak-ng would obey the phoneme escape
    assert phonemes(speakable(injected)) != "b'i:p"  # made speakable, the letters are read out
    for name in ["-v en", "--stdout", "<speak><audio src='x'/></speak>", "Jörg\x01 5S", "Zoë\n-w /tmp/x"]:
        wav = synthesize(f"{name} ist dran.", "de")
        assert wav_duration(wav) > 0.5
    # in SSML mode (-m) a typed tag is escaped, so it is read out: "speak", not obeyed as markup
    ssml = subprocess.run([ESPEAK, "-q", "-x", "-m", "-v", "en", "--stdin"],
                          input=speech.marked_up(speakable("<speak>Anna</speak> &")).encode(),
                          capture_output=True, check=True).stdout.decode()
    assert ssml.count("sp'i:k") == 2 and "'an@" in ssml


def test_speakable_removes_only_what_espeak_would_obey():
    assert speakable("[[a]] Anna]]") == "a Anna"
    assert speakable("Zoë\x01\x02 und\nJörg\t!") == "Zoë und Jörg !"
    assert speakable("[[[[a]]]]") == "a"
    assert speakable("Anna (die Große) & Ben <3") == "Anna (die Große) & Ben <3"


def test_coordinates_and_stroke_symbols_are_said_as_a_player_would():
    assert spoken("Bienen! Anna: Bienennest 4-4. Ben: Feld 4-4 schwärzen!") == \
        "Bienen! Anna: Bienennest 4 4. Ben: Feld 4 4 schwärzen!"
    assert spoken("mach den Strich schräg nach links (\\) im Feld C.") == "mach den Strich schräg nach links im Feld C."
    assert spoken("Wurf 12 von 30, 1 bis 5") == "Wurf 12 von 30, 1 bis 5"


@pytest.mark.parametrize(("lang", "text", "said"), [
    ("de", "Mitte: ? und 4. Kreuz setzen!", "Mitte: Fragezeichen und 4. Kreuz setzen!"),  # was "Mitte und vier"
    ("de", "Sol: „!“-Runde – neu würfeln.", "Sol: Ausrufezeichen-Runde – neu würfeln."),
    ("en", 'Round 3 of 14: "?" – up to you.', "Round 3 of 14: question mark – up to you."),
    ("de", "Wer beginnt? Anna!", "Wer beginnt? Anna!"),  # a sentence's own marks stay
    ("de", "Alle zuerst mit 10/8.", "Alle zuerst mit 10 8."),
    ("de", "Noch 5 Sekunden. UHR dreht sie neu.", "Noch 5 Sekunden. Uhr dreht sie neu."),  # not "U H R"
    ("en", "TIMER turns it again.", "Timer turns it again."),
    ("de", "Buchstabe A!", "Buchstabe A!"),  # a letter token is spelled, as it should be
    ("de", "Der Cube gewinnt! Ein Joker.", "Der Würfel gewinnt! Ein Dschoker."),
    ("en", "The Cube wins!", "The Cube wins!"),
    ("de", "Anna zuerst: Kreuzungspunkte-Reihe II voll!", "Anna zuerst: Kreuzungspunkte-Reihe 2 voll!"),
    ("en", "All first together: Crossing points I!", "All first together: Crossing points 1!"),
    ("de", "Die Zeit läuft: 1.5 Minuten.", "Die Zeit läuft: 1,5 Minuten."),
    ("de", "Oma nimmt die 2+X.", "Oma nimmt die 2 mit Extrakreuz."),  # was "zwei plus Iks"
    ("de", "Tim nimmt die ?+X.", "Tim nimmt die Fragezeichen mit Extrakreuz."),  # was "die plus Iks"
    ("en", "Middle: 3+X and ?", "Middle: 3 with extra cross and question mark"),
    ("de", "Rot an Orange.", "Rot an O-rangsche."),  # was "O-rang-e"
    ("de", "Das Team hat den Fritzo Beginner gebaut!", "Das Team hat den Fritzo Bigginna gebaut!"),
    ("en", "Fritzo Beginner: orange on red.", "Fritzo Beginner: orange on red."),  # English says both right
])
def test_what_the_voice_would_misread_is_said_as_players_say_it(lang, text, said):
    assert spoken(text, lang) == said


def phonemes(text: str, lang: str) -> str:
    """What espeak-ng says for ``text`` as :func:`synthesize` hands it over: SSML (``-m``)."""
    return subprocess.run([ESPEAK, "-q", "-x", "-m", "-v", lang, "--stdin"],
                          input=speech.marked_up(speakable(spoken(text, lang))).encode(), capture_output=True,
                          check=True).stdout.decode()


@needs_espeak
def test_borrowed_words_are_heard_as_the_table_says_them():
    """espeak-ng's German read "Orange" 'o:RaN@ (no "sch") and "Beginner" b@g'In3, the German "be-" of beginnen."""
    assert "R'aNS@" in phonemes("Rot an Orange.", "de")
    assert "bIg'In" in phonemes("Fritzo Beginner", "de")  # as the English voice says it: bIg'In3


@needs_espeak
@pytest.mark.parametrize("letter", ["Ä", "Ö", "Ü"])
def test_an_umlaut_spelled_in_english_is_not_heard_with_an_article(letter):
    """espeak-ng reads "Ä" itself as "A umlaut"; the "A" of "A umlaut" after it was read as the article ("uh
    umlaut")."""
    said = phonemes(f"The letter is {t(f'haste.spell.{letter}', 'en')}!", "en")
    assert "a# " not in said and said.count("UmlaUt") + said.count("VmlaUt") == 2


@needs_espeak
def test_a_beehive_is_not_read_with_a_dash():
    out = subprocess.run([ESPEAK, "-q", "-x", "-v", "de", "--stdin"], input=spoken("Bienennest 4-4").encode(),
                         capture_output=True, check=True).stdout.decode()
    assert "Str'IC" not in out and out.count("f'i:r") == 2  # "vier vier", not "vier Strich vier"


def test_fix_wav_header_repairs_a_streamed_length():
    good = wav_bytes(np.arange(1000, dtype=np.int16))
    streamed = bytearray(good)
    streamed[4:8] = (0x7FFFF024).to_bytes(4, "little")
    streamed[40:44] = (0x7FFFF000).to_bytes(4, "little")
    fixed = fix_wav_header(bytes(streamed))
    assert fixed == good
    assert wav_duration(fixed) == pytest.approx(1000 / 22050)


@pytest.mark.parametrize("junk", [b"", b"not a wav at all", b"RIFF\x00\x00\x00\x00WAVEdata"])
def test_fix_wav_header_rejects_junk_clearly(junk):
    with pytest.raises(SpeechError, match="espeak-ng"):
        fix_wav_header(junk)


def test_missing_espeak_is_a_clear_error(tmp_path):
    with pytest.raises(SpeechError, match="espeak-ng") as err:
        synthesize("Hallo", "de", espeak=str(tmp_path / "espeak-ng"))
    assert isinstance(err.value, CompanionError)
    with pytest.raises(SpeechError, match="sudo apt install espeak-ng"):
        speech._synth_with(None, "Hallo", "de")


def test_unknown_language_is_refused():
    with pytest.raises(SpeechError, match="fr"):
        synthesize("Bonjour", "fr", espeak=ESPEAK or "espeak-ng")


def test_without_espeak_speech_is_unavailable_and_requests_do_nothing(monkeypatch):
    monkeypatch.setenv("PATH", "/nonexistent")
    s = Speech()
    assert not s.available
    s.request("Hallo", "de")
    assert s.result("Hallo", "de") is None and not s.pending("Hallo", "de")


def test_worker_thread_renders_off_the_caller_and_caches():
    started, release = threading.Event(), threading.Event()
    threads: list[str] = []

    def synth(text: str, lang: str) -> bytes:
        threads.append(threading.current_thread().name)
        started.set()
        release.wait(5)
        return wav_bytes(np.zeros(2205, dtype=np.int16))

    s = Speech(synth)
    s.request("Hallo", "de")  # returns at once although rendering blocks
    assert started.wait(5)
    assert s.result("Hallo", "de") is None and s.pending("Hallo", "de")
    release.set()
    assert s.wait(5)
    got = s.result("Hallo", "de")
    assert got is not None and got.seconds == pytest.approx(0.1)
    s.request("Hallo", "de")
    assert s.wait(5)
    assert threads == ["speech"]  # rendered once, on the worker
    s.close()


def test_closing_does_not_wait_for_queued_sentences():
    """Stopping the companion must not first render every sentence still queued (each takes espeak-ng a while on a
    busy Pi): only the one being rendered is waited for, briefly."""
    rendered: list[str] = []

    def synth(text: str, lang: str) -> bytes:
        time.sleep(0.3)
        rendered.append(text)
        return wav_bytes(np.zeros(100, dtype=np.int16))

    s = Speech(synth)
    for i in range(20):
        s.request(f"Satz {i}", "de")
    time.sleep(0.1)  # the first is being rendered
    t0 = time.monotonic()
    s.close()
    assert time.monotonic() - t0 < 1.5  # 20 x 0.3 s = 6 s if the queue were worked off first
    time.sleep(0.5)
    assert len(rendered) <= 2
    assert not s.pending("Satz 19", "de")


def test_a_failing_synth_is_reported_and_the_worker_lives_on():
    def synth(text: str, lang: str) -> bytes:
        if text == "kaputt":
            raise RuntimeError("boom")
        return wav_bytes(np.zeros(100, dtype=np.int16))

    s = Speech(synth)
    s.request("kaputt", "de")
    s.request("heil", "de")
    assert s.wait(5)
    assert s.result("kaputt", "de").wav is None and "boom" in s.result("kaputt", "de").error
    assert s.result("heil", "de").wav is not None
    s.close()


def test_cache_is_bounded():
    s = Speech(lambda text, lang: wav_bytes(np.zeros(10, dtype=np.int16)), threaded=False, cache_size=3)
    for i in range(5):
        s.request(f"Satz {i}", "de")
    assert s.result("Satz 0", "de") is None and s.result("Satz 4", "de") is not None


@needs_espeak
def test_real_speech_through_the_worker():
    s = Speech()
    s.request(SHORT_DE, "de")
    assert s.wait(15)
    got = s.result(SHORT_DE, "de")
    assert got.wav is not None and 0.6 < got.seconds < 4.0
    s.close()


@needs_espeak
def test_diagnose_reports_both_voices():
    lines = speech.diagnose("en")
    assert "espeak" in lines[0].lower()
    for code in ("de", "en"):
        assert any(f"{code} voice speaks" in line for line in lines)


def test_diagnose_says_how_to_install(monkeypatch):
    monkeypatch.setenv("PATH", "/nonexistent")
    assert speech.diagnose("de") == ["Sprache: espeak-ng nicht gefunden, Ansagen erscheinen nur als Banner. "
                                     "Installieren mit: sudo apt install espeak-ng"]
