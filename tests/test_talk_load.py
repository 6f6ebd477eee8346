"""How much the games say, and that what the table has moved past is not said: the sentences a step makes are taken
back once the table acts on them (``Announcement.until``), so calls are heard when they are made, not queued behind
a list of faces nobody needs any more."""

from __future__ import annotations

import pytest
from test_announcer import RecordingAudio, phrase_synth

from companion import sounds, speech
from companion.announce import Sound
from companion.announcer import Announcer
from companion.games.haste_worte import HasteWorte
from companion.games.noch_x_mal import NochXMal
from companion.journal import Journal
from companion.session import GameSession
from companion.speech import Speech


def _session(tmp_path, engine, setup: dict) -> tuple[GameSession, Announcer]:
    """A game whose announcer is never advanced: what it still means to say stays in ``queued``."""
    ann = Announcer("de", 80, audio=RecordingAudio(), speech=Speech(phrase_synth, threaded=False))
    session = GameSession.new(engine, {"action": "setup", **setup}, Journal(tmp_path), announcer=ann,
                              announce=ann.announce)
    return session, ann


def _waiting(ann: Announcer) -> list[str]:
    return [a.key for a in ann.queued]


def test_noch_x_mal_roll_call_and_faces_are_taken_back_once_the_roll_is_answered(tmp_path):
    """From roll 4 on "Gewürfelt: Grün, Farbjoker und Orange; …" started 9 s after the roll and "Wurf 5: Ben wählt
    zuerst …" came after Ben had passed: a pair, a pass or the roll's end answers the call and the faces."""
    session, ann = _session(tmp_path, NochXMal, {"players": ["Anna", "Ben", "Carla"], "seed": 7})
    for name, combo in zip(["Anna", "Ben", "Carla"], [["yellow", "4"], ["red", "2"], ["blue", "5"]], strict=True):
        assert session.apply({"action": "start_combo", "player": name, "dice": combo})
    roll = ["green", "color-joker", "orange", "number-joker", "1", "3"]
    for answer in ("end_roll", "pick", "pass", "pick", "pass"):  # rolls 1-3 open to all, 4-5 the active's first
        assert session.apply({"action": "roll", "dice": roll})
        assert "nxm.rolled" in _waiting(ann)
        state = session.engine.state
        active = state.roll.active
        if answer == "pick":
            assert session.apply({"action": "pick", "player": active, "dice": ["green", "1"]})
        elif answer == "pass":
            assert session.apply({"action": "pass", "player": active})
        else:
            assert session.apply({"action": "end_roll"})
        waiting = _waiting(ann)
        assert "nxm.rolled" not in waiting and not any(k.startswith("nxm.roll_") for k in waiting), (answer, waiting)
        if answer != "end_roll":
            assert session.apply({"action": "end_roll"})


def _restricted_roll(tmp_path, ann: Announcer | None = None) -> GameSession:
    """A four-player game at roll 5 (the roller chooses first), its dice out."""
    names = ["Anna", "Ben", "Carla", "Dora"]
    announce = ann.announce if ann is not None else (lambda a: None)
    session = GameSession.new(NochXMal, {"action": "setup", "players": names, "seed": 7}, Journal(tmp_path),
                              announcer=ann, announce=announce)
    for name, combo in zip(names, [["yellow", "4"], ["red", "2"], ["blue", "5"], ["green", "1"]], strict=True):
        assert session.apply({"action": "start_combo", "player": name, "dice": combo})
    roll = ["green", "color-joker", "orange", "number-joker", "1", "3"]
    for _ in range(4):
        assert session.apply({"action": "roll", "dice": roll})
        if not session.engine.state.roll.open_choice:
            assert session.apply({"action": "pass", "player": session.engine.state.roll.active})
        assert session.apply({"action": "end_roll"})
    assert session.apply({"action": "roll", "dice": roll})
    return session


@pytest.mark.skipif(speech.find_espeak() is None, reason="espeak-ng not installed")
@pytest.mark.parametrize("lang", ["de", "en"])
def test_noch_x_mal_calls_of_a_roll_fit_a_brisk_table(tmp_path, lang):
    """Noch X-Mal! talked most of a brisk game: from roll 4 on a roll's calls ("Würfel an Ben: Wurf 5.", "Wurf 5:
    Ben wählt zuerst ein Paar oder passt.", "Ben hat gewählt. Die anderen wählen aus den vier übrigen Würfeln.")
    took 11.3 s of espeak-ng's voice for a roll a brisk table plays in 6 to 8 s, and the next roll's calls were
    dropped behind them. The calls say whose turn it is and what to do (6.1 s); the rest stands on the screen."""
    made: list = []
    session = _restricted_roll(tmp_path)
    session._announce = made.append
    active = session.engine.state.roll.active
    assert session.apply({"action": "pick", "player": active, "dice": ["green", "1"]})
    assert session.apply({"action": "end_roll"})
    assert session.apply({"action": "roll", "dice": ["red", "blue", "yellow", "2", "4", "5"]})
    calls = [a for a in made if a.speak and not a.detail]
    assert [a.key for a in calls] == ["nxm.picked", "nxm.turn", "nxm.roll_active"]
    seconds = sum(sounds.wav_duration(speech.synthesize(a.text(lang), lang)) for a in calls)
    assert seconds < 6.5, [a.text(lang) for a in calls]


def test_noch_x_mal_what_the_others_do_is_taken_back_when_the_roll_ends(tmp_path):
    """"Ben hat gewählt: jetzt die anderen" and "Die anderen: alle sechs Würfel" are for the roll they are said in:
    once it ends, one still being said ends with its words and one waiting goes, and the next roller's call is heard
    at once (the pass's call waited behind them, the next roll's dropped it)."""
    ann = Announcer("de", 80, audio=RecordingAudio(), speech=Speech(phrase_synth, threaded=False))
    session = _restricted_roll(tmp_path, ann)
    ann.update(0.0)
    active = session.engine.state.roll.active
    assert session.apply({"action": "pass", "player": active})  # "passt" and "die anderen: alle sechs" wait
    assert "nxm.active_passed" in _waiting(ann)
    assert session.apply({"action": "end_roll"})
    assert "nxm.active_passed" not in _waiting(ann)
    for step in range(1, 400):  # the queue said through, bounded
        ann.update(step * 0.1)
    assert ann.current is None and not ann.queued
    assert session.apply({"action": "roll", "dice": ["red", "blue", "yellow", "2", "4", "5"]})
    active = session.engine.state.roll.active
    assert session.apply({"action": "pick", "player": active, "dice": ["red", "2"]})
    now = 40.0
    for _ in range(200):  # until the pick's call is being said (bounded)
        now += 0.1
        ann.update(now)
        cur = ann.current
        if cur is not None and cur.announcement.key == "nxm.picked" and cur.speech_started is not None:
            break
    now += 0.3  # into its first words
    ann.update(now)
    assert ann.current.announcement.key == "nxm.picked" and ann.current.speech_started is not None
    assert session.apply({"action": "end_roll"})
    assert ann.current.taken_back  # ends with the words being said; the turn's call follows


def test_haste_worte_symbols_rolled_are_taken_back_by_the_first_pick(tmp_path):
    """"Gewürfelt: …" takes six seconds; at a pick every two or three the calls to pick waited behind it and the
    first picker's was never heard. The dice lie in front of everyone: a pick answers the list."""
    session, ann = _session(tmp_path, HasteWorte, {"players": ["Anna", "Ben", "Carla"], "seed": 7, "variant": 0,
                                                  "goal": 15, "timer_seconds": 60})
    if session.engine.letter_first:
        assert session.apply({"action": "letter"})
    assert session.apply({"action": "roll", "dice": ["car", "animals", "fruit", "water", "toys", "cities"]})
    assert "haste.rolled" in _waiting(ann)
    assert session.apply({"action": "pick", "die": 1})
    assert "haste.rolled" not in _waiting(ann)


@pytest.mark.parametrize("talk", ["all", "calls"])
def test_haste_worte_call_to_pick_is_heard_before_the_first_pick(tmp_path, talk):
    """"Anna, wähle einen Würfel." came after the six symbols (some 6 s) and the first pick took it back unsaid, every
    round. The call is said first; with the calls only the symbols stand as a note, and the first pick takes that
    note back too (kept, the pick's sentence waited behind it till the next pick took it back unsaid)."""
    ann = Announcer("de", 80, audio=RecordingAudio(), speech=Speech(phrase_synth, threaded=False), talk=talk)
    session = GameSession.new(HasteWorte, {"action": "setup", "players": ["Anna", "Ben", "Carla"], "seed": 7,
                                           "variant": 0, "goal": 15, "timer_seconds": 60}, Journal(tmp_path),
                              announcer=ann, announce=ann.announce)
    if session.engine.letter_first:
        assert session.apply({"action": "letter"})
    for step in range(1, 400):  # the opening said through, bounded
        ann.update(step * 0.1)
    now = 40.0
    heard: list[str] = []
    picks = iter([43.0, 44.5])
    at = next(picks)
    assert session.apply({"action": "roll", "dice": ["car", "animals", "fruit", "water", "toys", "cities"]})
    for _ in range(200):  # a pick 3 s after the roll, the next 1.5 s later (bounded)
        now = round(now + 0.05, 6)
        if at is not None and now >= at:
            assert session.apply({"action": "pick", "die": len(session.engine.round.picks) + 1})
            at = next(picks, None)
        ann.update(now)
        cur = ann.current
        if cur is not None and cur.speech_started is not None and cur.announcement.key not in heard:
            heard.append(cur.announcement.key)
    assert heard[:2] == ["haste.pick_turn", "haste.picked_next"], heard

    from companion import config
    from companion.runtime import _announcer

    p = tmp_path / "c.toml"
    p.write_text('[sound]\ntalk = "calls"\n', encoding="utf-8")
    cfg = config.load(p)
    assert cfg.sound.talk == "calls" and config.Config().sound.talk == "all"
    config.save(cfg, p)
    assert config.load(p).sound.talk == "calls"  # written back as it was
    announcer = _announcer(cfg)
    try:
        assert announcer.talk == "calls"
    finally:
        announcer.close()


def test_talk_calls_leaves_the_details_unsaid_and_keeps_the_calls_and_the_refusal_sound(tmp_path):
    """A family that wants less talk: "calls" leaves unsaid what is said for whoever cannot see the screen well (the
    faces rolled, a take, the runners-up, the one-minute warning: still shown, as banners unsaid; an undo's and a
    refusal's words, which their strips show); the calls stay, and a refused move still makes its low sound."""
    from companion.announce import Announcement
    from companion.audio import Channel

    audio = RecordingAudio()
    ann = Announcer("de", 80, audio=audio, speech=Speech(phrase_synth, threaded=False), talk="calls")
    session = GameSession.new(NochXMal, {"action": "setup", "players": ["Anna", "Ben"], "seed": 7},
                              Journal(tmp_path), announcer=ann, announce=ann.announce)
    for name, combo in zip(["Anna", "Ben"], [["yellow", "4"], ["red", "2"]], strict=True):
        assert session.apply({"action": "start_combo", "player": name, "dice": combo})
    assert session.apply({"action": "roll", "dice": ["green", "color-joker", "orange", "number-joker", "1", "3"]})
    waiting = _waiting(ann)
    assert "nxm.rolled" in waiting and "nxm.roll_open" in waiting
    # a detail the screen shows in a banner stays a banner, unsaid (Echt Spitze's "Anna takes the 3" stood on the
    # screen before it was said): less talk, not less on the screen
    assert [a.speak for a in ann.queued if a.key == "nxm.rolled"] == [False]
    assert [a.speak for a in ann.queued if a.key == "nxm.roll_open"] == [True]
    minute = _minute_warning()
    ann.announce(minute)
    assert [(a.speak, a.sound) for a in ann.queued if a.key == "core.minute_left"] == [(False, Sound.NONE)]
    ann.announce(Announcement("core.refused_said", {"words": "Nein."}, sound=Sound.REFUSED, shown=False, detail=True))
    assert "core.refused_said" not in _waiting(ann)
    assert [e for e in audio.log if e[0] == "play" and e[1] == Channel.EFFECT]  # the low sound, at once
    everything = Announcer("de", 80, audio=RecordingAudio(), speech=Speech(phrase_synth, threaded=False))
    everything.announce(minute)
    assert _waiting(everything) == ["core.minute_left"]  # "all" (the default) says them


@pytest.mark.parametrize("talk", ["all", "calls"])
def test_haste_worte_simultaneous_grab_is_called_before_the_first_grab(tmp_path, talk):
    """Variant 2 (grab at the same time) said "Greift zu!" after the six symbols (some 6 s): a grab 3 s after the
    roll took the symbols back and the start of the grab was said to a table already grabbing."""
    ann = Announcer("de", 80, audio=RecordingAudio(), speech=Speech(phrase_synth, threaded=False), talk=talk)
    session = GameSession.new(HasteWorte, {"action": "setup", "players": ["Anna", "Ben", "Carla"], "seed": 7,
                                           "variant": 2, "goal": 15, "timer_seconds": 60}, Journal(tmp_path),
                              announcer=ann, announce=ann.announce)
    for step in range(1, 400):  # the opening said through, bounded
        ann.update(step * 0.1)
    now, grab = 40.0, 43.0
    started: dict[str, float] = {}
    assert session.apply({"action": "roll", "dice": ["car", "animals", "fruit", "water", "toys", "cities"]})
    for _ in range(200):  # the first grab 3 s after the roll (bounded)
        now = round(now + 0.05, 6)
        if not session.engine.round.picks and now >= grab:
            assert session.apply({"action": "pick", "player": "Ben", "die": 2})
        ann.update(now)
        cur = ann.current
        if cur is not None and cur.speech_started is not None:
            started.setdefault(cur.announcement.key, now)
    assert started.get("haste.pick_any", grab) < grab, started


def test_a_detail_left_to_the_screen_is_taken_back_as_its_sentence_would_be(tmp_path):
    """With the calls only a detail is a note, a copy of what the game said: taking the game's back (its call
    answered, its step undone) missed the note. Haste Worte's symbols stood on after the first pick, and the pick's
    sentence waited behind them until the next pick took it back unsaid."""
    for showing in (False, True):  # waiting, or on the screen when the pick comes
        ann = Announcer("de", 80, audio=RecordingAudio(), speech=Speech(phrase_synth, threaded=False), talk="calls")
        session = GameSession.new(HasteWorte, {"action": "setup", "players": ["Anna", "Ben", "Carla"], "seed": 7,
                                               "variant": 0, "goal": 15, "timer_seconds": 60},
                                  Journal(tmp_path / str(showing)), announcer=ann, announce=ann.announce)
        ann.update(0.0)
        assert session.apply({"action": "roll", "dice": ["car", "animals", "fruit", "water", "toys", "cities"]})
        assert "haste.rolled" in _waiting(ann)
        for step in range(1, 400 if showing else 1):  # until the symbols show (bounded)
            ann.update(step * 0.1)
            if ann.current is not None and ann.current.announcement.key == "haste.rolled":
                break
        assert showing == (ann.current is not None and ann.current.announcement.key == "haste.rolled")
        assert session.apply({"action": "pick", "die": 1})
        assert "haste.rolled" not in _waiting(ann)
        assert ann.current is None or ann.current.announcement.key != "haste.rolled"


def _minute_warning():
    """What a long clock's run announces at its last minute (``ClockCalls``, Fritzo's clock and Haste Worte's sand)."""
    from companion.hourglass import Hourglass
    from companion.views.frame_clock import ClockCalls

    said = []

    class Ear:
        def announce(self, announcement) -> None:
            said.append(announcement)

    sand = Hourglass(duration=600.0, warning_seconds=30.0)
    sand.start(0.0)
    ClockCalls().update(sand, 540.5, Ear())
    assert [a.key for a in said] == ["core.minute_left"]
    return said[0]


def test_the_clocks_minute_warning_is_a_detail_by_the_mark_every_detail_carries():
    """The one-minute warning was left unsaid by a list of keys in the announcer (``DETAIL_KEYS``) beside the mark
    the games' details carry (``Announcement.detail``): one mechanism, set where the warning is made."""
    minute = _minute_warning()
    assert minute.detail and minute.sound is Sound.TICK and minute.shown
