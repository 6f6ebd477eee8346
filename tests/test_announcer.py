"""The announcer's queue: order, timing and sound sequence, driven by a fake clock (plain floats given to
update).

Audio is recorded by a test device (the real mixer is exercised in test_announcer_mixer.py); speech is
rendered by a deterministic synthesiser whose WAV length grows with the sentence, run inline so the timing is
exact. """

from __future__ import annotations

import threading

import numpy as np
import pytest

from companion import sounds
from companion.announce import Announcement, Sound
from companion.announcer import Announcer, reading_seconds
from companion.audio import Channel, NullAudio
from companion.errors import ConfigError
from companion.speech import Speech

SECONDS_PER_CHAR = 0.05
CHIME = sounds.wav_duration(sounds.sound_wav(Sound.CHIME))
TIMES_UP = sounds.wav_duration(sounds.sound_wav(Sound.TIMES_UP))


class RecordingAudio:
    """A sound device that writes down what it was asked to do."""

    available = True
    reason = ""

    def __init__(self) -> None:
        self.log: list[tuple] = []

    def play(self, wav: bytes, channel: Channel, volume: float) -> None:
        self.log.append(("play", channel, wav, volume))

    def stop(self, channel: Channel) -> None:
        self.log.append(("stop", channel))

    def close(self) -> None:
        pass

    def plays(self, channel: Channel = Channel.VOICE) -> list[bytes]:
        return [e[2] for e in self.log if e[0] == "play" and e[1] == channel]


def fake_synth(text: str, lang: str) -> bytes:
    return sounds.wav_bytes(np.zeros(int(len(text) * SECONDS_PER_CHAR * sounds.SAMPLE_RATE), dtype=np.int16))


def speech_seconds(text: str) -> float:
    return sounds.wav_duration(fake_synth(text, "de"))


def names(value: str, allowed: list[str] | None = None, **kw) -> Announcement:
    """A real catalog sentence with parameters (core.po has no game sentences; any key with params will
    do)."""
    return Announcement("core.error_language", {"value": value, "allowed": allowed or ["Anna", "Ben"]}, **kw)


def make(**kw) -> tuple[Announcer, RecordingAudio]:
    audio = RecordingAudio()
    kw.setdefault("speech", Speech(fake_synth, threaded=False))
    return Announcer("de", 80, audio=audio, min_seconds=3.0, gap=0.5, **kw), audio


def run(ann: Announcer, until: float, step: float = 0.05) -> list[tuple[float, str]]:
    """Drive update() like a 20 fps loop; returns (time, text) each time a new banner appears."""
    shown: list[tuple[float, str]] = []
    now, last = 0.0, None
    while now <= until + 1e-9:
        ann.update(round(now, 6))
        if ann.current is not None and ann.current is not last:
            shown.append((round(now, 6), ann.current.text))
        last = ann.current
        now += step
    return shown


def test_chime_then_speech_then_next_never_overlapping():
    ann, audio = make()
    a, b = names("Anna"), names("Ben")
    ann.announce(a)
    ann.announce(b)
    text_a, text_b = ann.text_of(a), ann.text_of(b)
    assert text_a == ("Die Sprache Anna gibt es nicht: Erlaubt sind Anna und Ben. "
                      "Bitte in der Konfiguration korrigieren.")

    ann.update(0.0)
    assert ann.current.text == text_a
    assert audio.plays() == [sounds.sound_wav(Sound.CHIME)]  # the chime first, the sentence waits for it
    ann.update(CHIME - 0.01)
    assert len(audio.plays()) == 1
    ann.update(CHIME)
    assert audio.plays()[1] == fake_synth(text_a, "de")
    speech_end = CHIME + speech_seconds(text_a)
    assert ann.current.ends == pytest.approx(speech_end + 0.5)
    assert speech_end + 0.5 > 3.0  # this sentence is longer than the minimum: its length decides

    ann.update(speech_end + 0.49)
    assert ann.current.text == text_a and len(audio.plays()) == 2
    ann.update(speech_end + 0.5)
    assert ann.current.text == text_b
    assert ann.current.started == pytest.approx(speech_end + 0.5)
    assert audio.plays()[2] == fake_synth(text_b, "de")  # following without a pause: no second chime


def test_only_a_sentence_after_silence_is_chimed_in():
    """A chime before each sentence cost 0.9 s each: a step said in three sentences took 2.7 s of chimes and the
    turn's sentence came last. Sentences following each other are said without one; after a pause the chime rings
    again; time's up keeps its own sound."""
    ann, audio = make()
    chime = sounds.sound_wav(Sound.CHIME)
    for who in ("Anna", "Ben", "Carla"):
        ann.announce(names(who))
    run(ann, 60)
    assert ann.idle
    assert audio.plays().count(chime) == 1 and audio.plays()[0] == chime
    ann.announce(names("Dora"))  # alone, long after the last one ended
    run_from(ann, 60.05, 90)
    assert audio.plays().count(chime) == 2 and audio.plays()[-2] == chime
    ann.announce(names("Emil"))
    ann.update(90.1)
    ann.update(90.1 + CHIME)  # Emil's sentence plays
    ann.announce(Announcement("core.sound_off", urgent=True, sound=Sound.TIMES_UP))
    ann.update(90.2 + CHIME)
    assert audio.plays()[-1] == sounds.sound_wav(Sound.TIMES_UP)


def test_short_announcement_stays_at_least_min_seconds():
    ann, audio = make()
    ann.announce(Announcement("core.sound_off"))  # "Ton aus": far shorter than 3 s spoken
    shown = run(ann, 10)
    assert ann.history[-1][0] == pytest.approx(3.0)  # alone: its banner stands the least time
    ann.announce(Announcement("core.sound_off"))
    ann.announce(Announcement("core.app_title", sound=Sound.NONE))
    shown = run_from(ann, 10.05, 20)
    assert [text for _, text in shown] == ["Ton aus", "Tischbegleiter"]
    # heard, with one waiting: it gives way after its sentence and the gap (the least time kept every short
    # "Anna's turn" three seconds); the second follows without a pause, so the first needs no chime either
    assert shown[1][0] == pytest.approx(10.05 + CHIME + speech_seconds("Ton aus") + 0.5, abs=0.051)
    # without a sound the sentence starts at once
    first_play_of_title = fake_synth("Tischbegleiter", "de")
    assert audio.plays()[-1] == first_play_of_title


def test_fifo_with_urgent_first():
    ann, _ = make()
    for v in ("eins", "zwei", "drei"):
        ann.announce(names(v))
    ann.announce(names("dringend", urgent=True, sound=Sound.TIMES_UP))
    assert [a.params["value"] for a in ann.queued] == ["dringend", "eins", "zwei", "drei"]
    shown = run(ann, 40)
    assert [text.split()[2] for _, text in shown] == ["dringend", "eins", "zwei", "drei"]
    starts = [t for t, _ in shown]
    assert starts == sorted(starts) and all(b - a >= 3.0 for a, b in zip(starts, starts[1:], strict=False))
    assert ann.idle


def test_urgent_interrupts_and_the_interrupted_one_comes_back():
    ann, audio = make()
    a, b = names("Anna"), names("Ben")
    ann.announce(a)
    ann.announce(b)
    ann.update(0.0)
    ann.update(CHIME)  # Anna's sentence is playing
    ann.announce(Announcement("core.sound_off", urgent=True, sound=Sound.TIMES_UP))
    ann.update(CHIME + 0.5)
    assert ann.current.text == "Ton aus" and ann.current.urgent
    stop_at = audio.log.index(("stop", Channel.VOICE))
    assert audio.log[stop_at + 1][2] == sounds.sound_wav(Sound.TIMES_UP)  # cut first, then time's up
    assert [x.params["value"] for x in ann.queued] == ["Anna", "Ben"]  # not heard to the end: it comes back
    shown = run_from(ann, CHIME + 0.55, 30)
    assert [text.split()[2] for _, text in shown] == ["Anna", "Ben"]
    assert shown[0][0] >= CHIME + 0.5 + TIMES_UP


def run_from(ann: Announcer, start: float, until: float, step: float = 0.05) -> list[tuple[float, str]]:
    shown, now, last = [], start, ann.current
    while now <= until:
        ann.update(now)
        if ann.current is not None and ann.current is not last:
            shown.append((now, ann.current.text))
        last = ann.current
        now += step
    return shown


def test_fully_heard_announcement_is_not_repeated_after_an_interruption():
    ann, _ = make()
    a = names("Anna")
    ann.announce(a)
    ann.update(0.0)
    ann.update(CHIME)
    heard_at = CHIME + speech_seconds(ann.current.text) + 0.1  # all spoken, banner still up for the gap
    ann.update(heard_at)
    assert ann.current is not None
    ann.announce(Announcement("core.sound_off", urgent=True))
    ann.update(heard_at + 0.05)
    assert ann.current.urgent and ann.queued == []


def test_without_interrupt_urgent_waits_for_the_current_one():
    ann, _ = make(interrupt=False)
    ann.announce(names("Anna"))
    ann.announce(names("Ben"))
    ann.update(0.0)
    ann.announce(Announcement("core.sound_off", urgent=True))
    shown = run_from(ann, 0.05, 30)
    assert [text.split()[0] for _, text in shown] == ["Ton", "Die"]
    assert shown[0][0] >= 3.0 and "Ben" in shown[1][1]


def test_banner_waits_for_slow_speech_then_gives_up():
    release = threading.Event()

    def slow(text: str, lang: str) -> bytes:
        release.wait(5)
        return fake_synth(text, lang)

    speech = Speech(slow, threaded=True)
    ann, audio = make(speech=speech, speech_wait=2.0)
    ann.announce(names("Anna"))
    ann.update(0.0)
    ann.update(CHIME + 1.0)
    assert ann.current.ends is None  # still rendering: the banner stays, its end not yet known
    ann.update(CHIME + 2.0)
    text = ann.current.text
    assert ann.current.speech_started is None
    assert ann.current.ends == pytest.approx(max(3.0, reading_seconds(text) + 0.5))
    release.set()
    assert speech.wait(5)
    ann.update(CHIME + 2.1)
    assert len(audio.plays()) == 1  # only the chime: a late sentence is not spoken over the next one
    speech.close()


def test_speech_failure_leaves_the_banner():
    def broken(text: str, lang: str) -> bytes:
        return b"not a wav"

    ann, audio = make(speech=Speech(broken, threaded=False))
    ann.announce(names("Anna"))
    ann.update(0.0)
    ann.update(CHIME)
    assert ann.current.speech_started is None and ann.current.ends is not None
    assert audio.plays() == [sounds.sound_wav(Sound.CHIME)]


def test_muted_shows_banners_only_and_long_enough_to_read():
    ann, audio = make()
    ann.muted = True
    a = names("Anna")
    ann.announce(a)
    ann.update(0.0)
    assert audio.plays() == []
    text = ann.current.text
    assert ann.current.ends == pytest.approx(reading_seconds(text) + 0.5)
    assert ann.speech.result(text, "de") is None  # nothing rendered for a muted table


def test_toggle_mute_stops_sound_at_once_and_blocks_ticks():
    ann, audio = make()
    ann.play_sound(Sound.TICK)
    assert audio.log[-1] == ("play", Channel.EFFECT, sounds.sound_wav(Sound.TICK), 0.8)
    ann.announce(names("Anna"))
    ann.update(0.0)
    assert ann.toggle_mute() is True
    assert ("stop", Channel.VOICE) in audio.log and ("stop", Channel.EFFECT) in audio.log
    count = len(audio.log)
    ann.update(CHIME)  # the sentence was due: muted now, so it is skipped
    ann.play_sound(Sound.TICK)
    assert len(audio.log) == count
    assert ann.current.speech_started is None
    assert ann.toggle_mute() is False
    ann.play_sound(Sound.TICK)
    assert audio.log[-1][1] == Channel.EFFECT


def test_volume_applies_to_every_sound():
    ann, audio = make()
    ann.volume = 35
    ann.announce(names("Anna"))
    ann.update(0.0)
    ann.update(CHIME)
    assert [e[3] for e in audio.log if e[0] == "play"] == [0.35, 0.35]
    ann.volume = 0
    assert not ann.audible


@pytest.mark.parametrize("bad", [101, -1, "50", 50.0, True, None])
def test_bad_volume_is_a_config_error(bad):
    with pytest.raises(ConfigError, match="0 .*100"):
        Announcer("de", bad, audio=NullAudio(), speech=Speech(fake_synth))


def test_bad_language_is_a_config_error_naming_the_choices():
    with pytest.raises(ConfigError, match="'fr'.*de, en"):
        Announcer("fr", audio=NullAudio(), speech=Speech(fake_synth))
    ann = Announcer(audio=NullAudio(), speech=Speech(fake_synth))
    with pytest.raises(ConfigError):
        ann.lang = "xx"


def test_language_switch_changes_banner_and_speech():
    ann, audio = make()
    ann.lang = "en"
    a = names("Anna")
    ann.announce(a)
    ann.update(0.0)
    assert ann.current.text == ("There is no language Anna: choose one of Anna and Ben. "
                                "Please correct it in the config.")
    ann.update(CHIME)
    assert audio.plays()[-1] == fake_synth(ann.current.text, "en")


def test_no_sound_device_and_no_espeak(monkeypatch):
    monkeypatch.setenv("PATH", "/nonexistent")
    speech = Speech()
    assert not speech.available
    ann = Announcer("de", audio=NullAudio("no device"), speech=speech)
    ann.announce(names("Anna"))
    ann.announce(Announcement("core.sound_off", speak=False))
    shown = run(ann, 20)
    assert len(shown) == 2
    assert shown[1][0] == pytest.approx(reading_seconds(shown[0][1]) + ann.gap, abs=0.051)


def test_untranslatable_key_shows_the_key_instead_of_crashing():
    ann, _ = make()
    ann.announce(Announcement("core.no_such_key"))
    ann.update(0.0)
    assert ann.current.text == "core.no_such_key"


def test_announce_rejects_non_announcements():
    ann, _ = make()
    with pytest.raises(TypeError):
        ann.announce("core.app_title")  # type: ignore[arg-type]


def test_speech_is_rendered_when_queued_not_when_shown():
    calls: list[str] = []

    def counting(text: str, lang: str) -> bytes:
        calls.append(text)
        return fake_synth(text, lang)

    ann, _ = make(speech=Speech(counting, threaded=False))
    ann.announce(names("Anna"))
    ann.announce(names("Anna"))
    assert len(calls) == 1  # rendered at once, and once: the repeat comes from the cache
    run(ann, 15)
    assert len(calls) == 1


def test_clear_drops_queue_and_banner():
    ann, audio = make()
    ann.announce(names("Anna"))
    ann.announce(names("Ben"))
    ann.update(0.0)
    ann.clear()
    assert ann.idle and ann.current is None
    assert audio.log[-1] == ("stop", Channel.VOICE)


def test_speech_switched_off_in_the_config_keeps_chime_and_banner():
    ann, audio = make()
    ann.speech.enabled = False  # config: sound.speech = false
    ann.announce(names("Anna"))
    ann.update(0.0)
    ann.update(CHIME + 0.1)
    assert audio.plays() == [sounds.sound_wav(Sound.CHIME)]
    assert ann.current.speech_due is None
    assert ann.current.ends == pytest.approx(reading_seconds(ann.current.text) + 0.5)


class _Talker:
    """A game whose every step says its number: what an undo must take back from the queue."""

    name = "talker"
    finished = False

    def __init__(self) -> None:
        self.n = 0

    @classmethod
    def new(cls, setup):
        return cls()

    def apply(self, action):
        self.n += 1
        return [names(f"Step{self.n}")]

    def to_json(self):
        return {"n": self.n}


def test_an_undo_withdraws_what_its_step_announced_and_nothing_before(tmp_path):
    """Holding UNDO took the step back on the screen while its banner and voice still said "Ben gets 3
    crystals", and after a game's end "Anna wins" over a game going on."""
    from companion.journal import Journal
    from companion.session import GameSession

    ann, audio = make()
    session = GameSession.new(_Talker, {"action": "setup"}, Journal(tmp_path), announcer=ann, announce=ann.announce)
    for _ in range(3):
        session.apply({"action": "go"})
    ann.update(0.0)
    assert ann.current.announcement.params["value"] == "Step1" and len(ann.queued) == 2
    assert session.undo()
    assert [a.params["value"] for a in ann.queued] == ["Step2"]
    assert session.undo() and ann.queued == [] and ann.current.announcement.params["value"] == "Step1"
    assert session.undo() and ann.current is None and audio.log[-1] == ("stop", Channel.VOICE)
    session.apply({"action": "go"})  # the same words as an earlier step's: only the undone step's object goes
    ann.announce(names("Step1"))
    assert session.undo() and [a.params["value"] for a in ann.queued] == ["Step1"]


def test_screen_notes_give_way_to_what_comes_after_them():
    """Every screen note ("Anna takes the 5", extra-cross reminders) took a whole banner's time in the queue the
    spoken moments wait in: Echt Spitze's "Anna was first with the lemons" came a minute after its turn."""
    from companion.announcer import NOTE_OVERTAKEN_AFTER

    ann, _ = make()
    ann.announce(names("Note1", speak=False))
    ann.announce(names("Note2", speak=False))
    ann.announce(names("Said"))
    ann.update(0.0)
    assert ann.current.announcement.params["value"] == "Said"  # the notes overtaken before they showed
    ann.clear()
    ann.announce(names("Note3", speak=False))
    ann.update(10.0)
    assert ann.current.announcement.params["value"] == "Note3"
    ann.update(10.5)
    ann.announce(names("Said2"))
    ann.update(10.6)
    assert ann.current.announcement.params["value"] == "Note3"  # shown long enough to be seen
    ann.update(10.0 + NOTE_OVERTAKEN_AFTER)
    assert ann.current.announcement.params["value"] == "Said2"
    ann.announce(names("Note4", speak=False))  # a note last in the queue waits its turn
    ann.update(10.0 + NOTE_OVERTAKEN_AFTER + 0.1)
    assert [a.params["value"] for a in ann.queued] == ["Note4"]


def test_a_call_to_act_still_waiting_gives_way_to_a_newer_one():
    """Scores entered fast: the table heard "Lena, read your words" with Mama on turn, forty seconds late."""
    ann, _ = make()
    ann.announce(names("Shown"))
    ann.update(0.0)
    ann.announce(names("LenaReads", prompt=True))
    ann.announce(names("LenaScored"))
    ann.announce(names("MamaReads", prompt=True))
    # the newer call takes the waiting call's place (changed on purpose: at the back, behind a sentence queued after
    # the old call, it was dropped in turn by the next call before it was said)
    assert [a.params["value"] for a in ann.queued] == ["MamaReads", "LenaScored"]


def test_a_newer_call_is_said_before_an_essential_sentence_queued_after_the_call_it_replaces():
    """Noch X-Mal! at a brisk table: "Würfel an Anna" waited, the roll's essential "Zuerst: ..." was queued behind
    it, and "Ben wählt zuerst" dropped Anna's call but went to the back, behind the essential sentence; the next roll's
    call dropped it in turn before it was said. Roll 5 went by without a word of its own."""
    ann, _ = make()
    ann.announce(names("Shown"))
    ann.update(0.0)
    ann.announce(names("AnnaRolls", prompt=True))
    ann.announce(names("FirstsOfTheLastRoll" * 3, essential=True))
    ann.announce(names("BenPicksFirst", prompt=True))
    said: list[str] = []
    now, calls = 0.0, 0
    while now <= 30.0 and calls < 1:
        ann.update(round(now, 6))
        cur = ann.current
        if cur is not None and cur.speech_started is not None and cur.announcement.params["value"] not in said:
            said.append(cur.announcement.params["value"])
        if said and said[-1].startswith("Firsts"):  # the next roll comes while the firsts are said
            ann.announce(names("CarlPicksFirst", prompt=True))
            calls += 1
        now += 0.05
    run_on = run(ann, 60.0)
    assert "BenPicksFirst" in said, said
    assert said.index("BenPicksFirst") < said.index("FirstsOfTheLastRoll" * 3)
    assert any("CarlPicksFirst" in text for _, text in run_on)


def test_a_table_faster_than_the_voice_hears_its_newest_words_and_who_won():
    """Scores entered every second, each sentence about five seconds with its chime: round 3's "Time's up" was heard
    in round 5. What waited longer than STALE_AFTER while a later step's words waited behind it is dropped (the
    screen shows it); the essential (who was first, who won) is said, and so is the last step's."""
    from companion.announcer import STALE_AFTER

    ann, _ = make()
    shown: list[tuple[float, str]] = []
    now, last = 0.0, None
    while now <= 120:
        second = round(now, 6)
        if second == int(second) and second < 12:  # a step every second: one score each, the winner in step 9
            ann.announce(names(f"S{int(second)}"))
            if second == 9:
                ann.announce(names("Won", essential=True))
        ann.update(second)
        if ann.current is not None and ann.current is not last:
            shown.append((second, ann.current.announcement.params["value"]))
        last = ann.current
        now += 0.05
    said = [v for _, v in shown]
    assert {"Won", "S11"} <= set(said) and said.index("Won") < said.index("S11"), said
    assert len(said) < 10, said  # not every one of 13
    waited = [t - int(v[1:]) for t, v in shown if v.startswith("S") and v != "S11"]
    assert max(waited) <= STALE_AFTER, shown  # none was said after it went stale
    assert said[-1] == "S11"  # the last step's words, after who won
    assert ann.idle


def test_a_game_left_keeps_its_essential_words():
    ann, audio = make()
    ann.announce(names("Won", essential=True))
    ann.announce(names("Next", prompt=True))
    ann.update(0.0)
    ann.clear()
    assert ann.current.announcement.params["value"] == "Won" and ann.queued == []
    assert ("stop", Channel.VOICE) not in audio.log  # its sentence plays on


def test_who_reached_the_goal_and_who_won_are_essential(tmp_path):
    from companion.games.haste_worte import HasteWorte
    from companion.journal import Journal
    from companion.session import GameSession

    said: list[Announcement] = []
    session = GameSession.new(HasteWorte, {"action": "setup", "players": ["Anna", "Ben"], "goal": 1, "seed": 1},
                              Journal(tmp_path / "j"), announce=said.append)
    for action in ({"action": "roll", "dice": ["car", "fruit", "water", "toys", "sports", "dishes"]},
                   {"action": "pick", "die": 1}, {"action": "pick", "die": 2}, {"action": "letter"},
                   {"action": "timer_expired"}, {"action": "score", "words": 1}, {"action": "score", "words": 0}):
        assert session.apply(action), session.error
    essential = {a.key for a in said if a.essential}
    assert essential == {"haste.goal_reached", "haste.scored_none", "haste.winner"}  # the last step's all


def test_leaving_a_game_silences_its_words(tmp_path):
    """Haste Worte's "Papa, read your words" played over Echt Spitze's setup and hid a choice."""
    from companion.app import App
    from companion.config import Config
    from companion.display import Display
    from companion.games_ui import register_all

    register_all()
    ann, _ = make()
    cfg = Config()
    cfg.players = ["Anna", "Ben"]
    app = App(cfg, state_dir=tmp_path, display=Display((800, 480), fullscreen=False), use_camera=False,
              announcer=ann)
    from companion.app import GAME_ENTRIES

    app.new_game(GAME_ENTRIES["haste-worte"], {"players": ["Anna", "Ben"], "first_player": "Anna"})
    assert app.session is not None, app.notice
    ann.announce(names("Stale", prompt=True))
    ann.update(0.0)
    assert not ann.idle
    app.main_menu()
    assert ann.idle
    app.new_game(GAME_ENTRIES["haste-worte"], {"players": ["Anna", "Ben"], "first_player": "Anna"})
    ann.announce(names("First", essential=True))  # "Anna was first": the game left unfinished, not said over the menu
    ann.update(1.0)
    app.main_menu()
    assert ann.idle


def test_a_tapped_banner_leaves_the_screen_and_its_sentence_plays_on():
    """A banner over a touch target: the finger wanted what was under it. The banner goes; the sentence is still
    heard (the table must hear it); a silent note has nothing left and the next one shows."""
    import pygame

    ann, audio = make()
    ann.announce(names("Said"))
    ann.announce(names("Next"))
    ann.update(0.0)
    surface = pygame.Surface((800, 480))
    assert ann.draw(surface) is not None
    plays = len(audio.plays())
    ann.hide_banner()
    assert ann.draw(surface) is None and ann.current.announcement.params["value"] == "Said"
    assert ("stop", Channel.VOICE) not in audio.log
    run(ann, 3.0)
    assert len(audio.plays()) >= plays  # the chime and sentence go on
    ann.clear()
    ann.announce(names("Note", speak=False))
    ann.update(30.0)
    assert ann.current.announcement.params["value"] == "Note"
    ann.announce(names("After"))
    ann.hide_banner()
    ann.update(30.1)
    assert ann.current.announcement.params["value"] == "After"  # the note went at once, not after 1.5 s


def test_a_tapped_sentence_nobody_hears_keeps_its_time():
    """Without sound (muted, no speaker) a spoken sentence has no speech to play: a tap on its banner ended it at
    once, and the next one showed over what the finger wanted. It is hidden and keeps its time, as a heard one."""
    import pygame

    ann = Announcer("en", audio=NullAudio(), speech=Speech(fake_synth, threaded=False))
    ann.announce(names("Said"))
    ann.announce(names("Next"))
    ann.update(0.0)
    ann.hide_banner()
    assert ann.current.announcement.params["value"] == "Said"
    assert ann.draw(pygame.Surface((800, 480))) is None


def test_a_new_game_lets_the_last_sentence_end_and_drops_the_last_games_others():
    """A new game started under the last one's winner with two more of its sentences waiting ("+2"): its own start
    came late. The sentence playing ends as it is; the others, essential too, go (its end screen said them)."""
    ann, audio = make()
    ann.announce(names("Won", essential=True))
    ann.announce(names("Also", essential=True))
    ann.update(0.0)
    ann.clear(keep_essential=False, keep_current=True)
    assert ann.current.announcement.params["value"] == "Won" and ann.queued == []
    assert ("stop", Channel.VOICE) not in audio.log


def test_a_start_the_table_acts_on_is_said_at_once_cutting_an_earlier_steps_sentence():
    """Fritzo's "the time runs" waited behind a quick table's sentences and came 12 s after the clock started; then
    8 s behind the seven-second sentence playing when TIMER was pressed. It goes before what waits and cuts the
    sentence playing, which is said again after it."""
    ann, audio = make()
    for who in ("Anna", "Ben", "Carla"):
        ann.announce(names(who))
    ann.update(0.0)
    ann.update(CHIME + 1.0)  # Anna's sentence is playing, a second in
    ann.announce(Announcement("core.sound_off", first=True))
    assert ("stop", Channel.VOICE) in audio.log  # Anna cut
    assert [a.params.get("value") for a in ann.queued] == [None, "Anna", "Ben", "Carla"]
    shown = run_from(ann, CHIME + 1.05, 60)
    assert shown[0] == (CHIME + 1.05, "Ton aus")  # at once
    assert [text for _, text in shown][1:3] == [ann.text_of(names("Anna")), ann.text_of(names("Ben"))]


def test_a_start_lets_a_sentence_about_to_end_end():
    """Cutting a sentence in its last second to repeat it whole would cost more than it saves."""
    ann, audio = make()
    ann.announce(names("Anna"))
    ann.announce(names("Ben"))
    ann.update(0.0)
    ann.update(CHIME)
    end = CHIME + speech_seconds(ann.current.text)
    ann.update(end - 0.2)
    ann.announce(Announcement("core.sound_off", first=True))
    assert ("stop", Channel.VOICE) not in audio.log
    shown = run_from(ann, end - 0.15, 30)
    assert [text for _, text in shown][:2] == ["Ton aus", ann.text_of(names("Ben"))]
    assert shown[0][0] == pytest.approx(end + 0.5, abs=0.051)


def test_a_start_said_next_keeps_the_sentences_of_its_own_step_before_it():
    """One TIMER at Haste Worte's letter draws the letter and turns the sand: the letter was heard after the sand's
    sentence, and after the picks still waiting."""
    ann, _ = make()
    ann.announce(names("Anna"))
    ann.update(0.0)
    ann.update(CHIME)  # Anna's sentence is playing
    ann.announce(names("Ben"))  # waiting from an earlier step
    ann.update(CHIME + 0.1)
    ann.announce(names("Letter"))  # this step's sentences: the letter, then the sand
    ann.announce(Announcement("core.sound_off", first=True))
    assert [a.params.get("value") for a in ann.queued] == ["Letter", None, "Anna", "Ben"]  # Anna cut, said again


#: a phrase synthesiser's pauses, espeak-ng's: at a comma or colon, at a full stop
PAUSES = {",": 0.25, ":": 0.3, ".": 0.41, "!": 0.41}


def phrase_synth(text: str, lang: str) -> bytes:
    """A voice with espeak-ng's shape: 0.05 s of sound a letter, ``PAUSES`` of silence at punctuation marks."""
    loud = (np.arange(int(SECONDS_PER_CHAR * sounds.SAMPLE_RATE)) % 40 < 20) * 6000
    return sounds.wav_bytes(np.concatenate([np.zeros(int(PAUSES[c] * sounds.SAMPLE_RATE)) if c in PAUSES else loud
                                            for c in text]).astype(np.int16))


def phrase_time(text: str) -> float:
    """Seconds of ``text`` as ``phrase_synth`` says it."""
    return sum(PAUSES.get(c, SECONDS_PER_CHAR) for c in text)


def test_a_sentence_cut_by_a_start_goes_on_from_the_phrase_it_was_cut_in():
    """Fritzo's start sentence cut by the clock's start was said again whole after "the time runs": a table whose
    clock ran heard seconds it had heard a moment before. Only the phrase it was cut in and what follows is said;
    the banner shows the whole sentence."""
    ann, audio = make(speech=Speech(phrase_synth, threaded=False))
    a = names("Anna")
    ann.announce(a)
    ann.update(0.0)
    ann.update(CHIME)  # the sentence plays
    text = ann.current.text  # "Die Sprache Anna gibt es nicht: Erlaubt sind Anna und Ben. Bitte ..."
    first = text[:text.index(". ") + 1]  # its first sentence, and the full stop's pause
    cut = CHIME + phrase_time(first) + 0.5  # in its second sentence, "Bitte ..."
    ann.update(cut)
    ann.announce(Announcement("core.sound_off", first=True))
    shown = run_from(ann, cut + 0.05, 60)
    assert [t for _, t in shown] == ["Ton aus", text]
    rest = audio.plays()[-1]
    assert sounds.wav_duration(rest) == pytest.approx(phrase_time(text) - phrase_time(first), abs=0.06)
    assert sounds.wav_duration(rest) < speech_seconds(text) - 1.0


def test_a_sentence_cut_after_a_comma_is_said_again_whole():
    """Not from a comma or colon: "Startkombi von Anna-Sophie: Grün …" cut by "Ben beginnt." went on with "Grün 3."
    alone, and the table heard Ben's combo."""
    ann, audio = make(speech=Speech(phrase_synth, threaded=False))
    ann.announce(names("Anna"))
    ann.update(0.0)
    ann.update(CHIME)
    text = ann.current.text
    cut = CHIME + phrase_time(text[:text.index(":") + 1]) + 0.5  # after the colon, in its first sentence
    ann.update(cut)
    ann.announce(Announcement("core.sound_off", first=True))
    run_from(ann, cut + 0.05, 60)
    assert audio.plays()[-1] == phrase_synth(text, "de")


def test_a_sentence_cut_in_its_first_phrase_is_said_again_whole():
    ann, audio = make(speech=Speech(phrase_synth, threaded=False))
    ann.announce(names("Anna"))
    ann.update(0.0)
    ann.update(CHIME)
    text = ann.current.text
    ann.update(CHIME + 1.0)  # "Die Sprache An..."
    ann.announce(Announcement("core.sound_off", first=True))
    run_from(ann, CHIME + 1.05, 60)
    assert audio.plays()[-1] == phrase_synth(text, "de")


def test_a_clock_started_with_timer_takes_back_the_call_to_start_it(tmp_path):
    """Fritzo's timed Level One says "... bekommt 14 Cubes, Ben bekommt 13. Startet die Uhr mit der Taste UHR, dann
    baut los!" (9.6 s): TIMER pressed during it cut it, and it was said again whole after "Die Zeit läuft", telling
    the table to start a clock that ran. TIMER answers it: it stops and is not said again; who gets how many cubes, a
    sentence before it, is not taken back with it."""
    from companion.games.fritzo.engine import Fritzo
    from companion.journal import Journal
    from companion.session import GameSession

    ann, audio = make()
    setup = {"action": "setup", "mode": "level-one", "players": ["Anna", "Ben"], "minutes": 10}
    session = GameSession.new(Fritzo, setup, Journal(tmp_path), announcer=ann, announce=ann.announce)
    run_from(ann, 0.0, 20)  # "Anna würfelt zuerst." said
    session.apply({"action": "roll", "player": "Anna", "dice": ["blue"]})
    run_from(ann, 20.05, 22)  # who gets how many cubes is being said, the call to start the clock waits
    assert ann.current.announcement.key == "fritzo.l1.counts"
    session.apply({"action": "start", "at": 22.0})
    shown = run_from(ann, 22.05, 80)
    # the cubes each gets are not lost with the call: said after the clock's start (they were cut off at 1.6 s)
    assert [t for _, t in shown] == ["Die Zeit läuft: 10 Minuten.",
                                     "Anna hat zuerst Blau gewürfelt und bekommt 14 Cubes, Ben bekommt 13."]
    assert "fritzo.l1.start_timed" not in [s.announcement.key for _, s in ann.history]


def countdown(seconds: int = 10) -> Announcement:
    return Announcement("core.seconds_left", {"seconds": seconds}, sound=Sound.TICK)


def test_a_ten_second_warning_still_waiting_is_not_said_after_times_up():
    """Behind a busy queue "noch 10 Sekunden" came after "Die Zeit ist um!"."""
    ann, _ = make()
    for who in ("Anna", "Ben"):
        ann.announce(names(who))
    ann.update(0.0)
    ann.announce(countdown())
    ann.update(1.0)
    ann.announce(Announcement("core.sound_off", urgent=True, sound=Sound.TIMES_UP))
    shown = run_from(ann, 1.05, 60)
    assert "core.seconds_left" not in [a.key for _, s in ann.history for a in [s.announcement]]
    assert [text for _, text in shown][0] == "Ton aus"


def test_a_ten_second_warning_cut_by_times_up_is_not_said_again():
    ann, _ = make()
    ann.announce(countdown())
    ann.update(0.0)
    ann.update(0.5)  # the warning is playing
    ann.announce(Announcement("core.sound_off", urgent=True, sound=Sound.TIMES_UP))
    run_from(ann, 0.55, 30)
    assert [s.announcement.key for _, s in ann.history] == ["core.seconds_left", "core.sound_off"]



def test_what_is_announced_before_the_first_frame_is_as_old_as_that_frame():
    """A game's first sentences are announced before the loop's first update: stamped with the announcer's start
    (0) they were a whole monotonic clock old, dropped as stale behind the next step's words after seconds (and
    after being cut by a clock's start)."""
    ann, _ = make()
    ann.announce(names("Anna"))
    ann.announce(names("Ben"))
    ann.update(500.0)
    ann.announce(names("Carla"))  # the next step, at once
    shown = run_from(ann, 500.05, 560)
    assert [text for _, text in shown] == [ann.text_of(names(who)) for who in ("Ben", "Carla")]
    ann2, audio2 = make()
    ann2.announce(names("Anna"))
    ann2.update(500.0)  # Anna's chime rings
    ann2.update(501.0)
    ann2.announce(Announcement("core.sound_off", first=True))  # a second later: cut, and said again after it
    assert ("stop", Channel.VOICE) in audio2.log
    assert [a.key for a in ann2.queued] == ["core.sound_off", "core.error_language"]
    shown = run_from(ann2, 501.05, 560)
    assert [text for _, text in shown] == ["Ton aus", ann2.text_of(names("Anna"))]  # not dropped as stale


def test_a_sentence_cut_by_times_up_goes_on_from_the_phrase_it_was_cut_in():
    """Time's up cut a sentence and it was said again whole after it, though a cut by the clock's start already went
    on from the sentence it was cut in: the table heard what it had just heard twice. After time's up only the
    phrase it was cut in and what follows is said; the banner shows the whole sentence."""
    ann, audio = make(speech=Speech(phrase_synth, threaded=False))
    ann.announce(names("Anna"))
    ann.update(0.0)
    ann.update(CHIME)  # the sentence plays
    text = ann.current.text
    first = text[:text.index(". ") + 1]
    cut = CHIME + phrase_time(first) + 0.5  # in its second sentence
    ann.update(cut)
    ann.announce(Announcement("core.sound_off", urgent=True, sound=Sound.TIMES_UP))
    shown = run_from(ann, cut + 0.05, 60)
    assert [t for _, t in shown] == ["Ton aus", text]
    rest = audio.plays()[-1]
    assert sounds.wav_duration(rest) == pytest.approx(phrase_time(text) - phrase_time(first), abs=0.06)
    assert sounds.wav_duration(rest) < phrase_time(text) - 1.0


def test_a_sentence_cut_by_times_up_in_its_first_phrase_is_said_again_whole():
    ann, audio = make(speech=Speech(phrase_synth, threaded=False))
    ann.announce(names("Anna"))
    ann.update(0.0)
    ann.update(CHIME)
    text = ann.current.text
    ann.update(CHIME + 1.0)
    ann.announce(Announcement("core.sound_off", urgent=True, sound=Sound.TIMES_UP))
    run_from(ann, CHIME + 1.05, 60)
    assert audio.plays()[-1] == phrase_synth(text, "de")


def test_a_clocks_warning_gives_way_at_its_sentences_end():
    """"Noch 10 Sekunden!" stood its least 3 s, while the clock read 7, over Haste Worte's word limits: a clock's
    warning goes when it is said (the clock shows the seconds itself); another banner keeps its least time."""
    for key, params, least in (("core.seconds_left", {"seconds": 10}, 0.0), ("core.minute_left", {}, 0.0),
                               ("core.error_language", {"value": "x", "allowed": ["de"]}, 3.0)):
        ann, _ = make()
        warning = Announcement(key, params, sound=Sound.TICK)
        ann.announce(warning)
        now, gone = 0.0, None
        while now < 20 and gone is None:
            ann.update(round(now, 6))
            if ann.current is None:
                gone = now
            now += 0.05
        heard = sounds.wav_duration(sounds.sound_wav(Sound.TICK)) + speech_seconds(warning.text("de")) + 0.5
        assert gone is not None and gone == pytest.approx(max(least, heard), abs=0.11), (key, gone, heard)


def _voice_stops(audio: RecordingAudio) -> list[int]:
    """Where in the log the voice was stopped (indexes)."""
    return [i for i, e in enumerate(audio.log) if e == ("stop", Channel.VOICE)]


def test_a_sentence_taken_back_while_said_ends_its_words_not_mid_word():
    """"Carla: Obst & Ge–": the next pick took Carla's sentence back and stopped it mid-word, her pick never heard.
    The words being said are said to their end (the next pause of a comma or more), the rest is dropped, the banner
    goes at once and the next sentence follows the words."""
    ann, audio = make(speech=Speech(phrase_synth, threaded=False))
    a, b = names("Anna"), names("Ben")
    ann.announce(a)
    ann.update(0.0)
    ann.update(CHIME)  # "Die Sprache Anna gibt es nicht: Erlaubt sind ..."
    text = ann.current.text
    inside = CHIME + phrase_time("Die Sprache An")  # mid-word, in the words before the colon
    ann.update(inside)
    ann.announce(b)
    ann.withdraw([a])
    assert ann.current is None or ann.current.hidden  # the banner over the next step is gone
    assert _voice_stops(audio) == []  # "Anna" is not broken off
    words = CHIME + phrase_time(text[:text.index(":")])  # the end of "... gibt es nicht"
    stopped = None
    now = inside
    while now < words + 3 and stopped is None:
        now += 0.05
        ann.update(now)
        if _voice_stops(audio):
            stopped = now
    assert stopped == pytest.approx(words, abs=0.15)  # at the colon's pause, not before, not the whole sentence
    run_from(ann, now + 0.05, now + 1.0)
    assert ann.current is not None and ann.current.announcement is b


def test_a_sentence_taken_back_before_it_is_said_goes_at_once():
    ann, audio = make(speech=Speech(phrase_synth, threaded=False))
    a, b = names("Anna"), names("Ben")
    ann.announce(a)
    ann.announce(b)
    ann.update(0.0)  # the chime rings, the sentence not yet begun
    ann.withdraw([a])
    assert _voice_stops(audio) and (ann.current is None or ann.current.announcement is b)
    ann.update(0.05)
    assert ann.current.announcement is b


def test_a_sentence_whose_last_word_was_said_is_not_cut_by_a_start_nor_said_again():
    """A letter drawn two seconds before TIMER: the sand's start came in the quiet after "... wie Berta!" (espeak-ng
    ends a sentence with 0.4 s of it), cut it and said it once more ten seconds into the sand: the time left was the
    banner's least three seconds, not the words'. Its last word said, a sentence is heard; one about to say its last
    word is let end."""
    def quiet_after(text: str, lang: str) -> bytes:
        return phrase_synth(text, lang)[:-2] + bytes(int(0.6 * sounds.SAMPLE_RATE) * 2)  # 0.6 s of quiet after it

    for into_quiet in (0.1, -0.5):  # in the quiet after the last word; half a second before it
        audio = RecordingAudio()  # the app's gap between sentences
        ann = Announcer("de", 80, audio=audio, speech=Speech(quiet_after, threaded=False), min_seconds=3.0, gap=0.2)
        letter = Announcement("core.sound_off")  # short: its banner stands longer than it is said
        ann.announce(letter)
        ann.update(0.0)
        ann.update(CHIME)
        t = CHIME + phrase_time(ann.current.text) + into_quiet
        ann.update(t)
        ann.announce(Announcement("core.undone", first=True))
        assert all(a is not letter for a in ann.queued)  # not put back to be said again
        run_from(ann, t + 0.05, t + 12)
        assert sum(1 for _, s in ann.history if s.announcement is letter) == 1


def test_a_sentence_taken_back_at_the_end_of_a_pause_says_the_word_begun_not_a_blip_of_it():
    """Taken back in the last moment of a pause, the sentence stopped a frame into the next word ("Ben, zieh den
    Buchstaben" at 3.0 s): a word begun is said to the next pause."""
    ann, audio = make(speech=Speech(phrase_synth, threaded=False))
    a = names("Anna")
    ann.announce(a)
    ann.update(0.0)
    ann.update(CHIME)
    text = ann.current.text
    colon = phrase_time(text[:text.index(":") + 1])  # the colon's pause ends here
    at = CHIME + colon - 0.03
    ann.update(at)
    ann.withdraw([a])
    now, stopped = at, None
    while now < at + 5 and stopped is None:
        now += 0.05
        ann.update(now)
        if _voice_stops(audio):
            stopped = now
    assert stopped is not None and stopped - at > 0.5  # the words after the colon, not 0.05 s of them
