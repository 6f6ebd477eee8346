"""How much the games say, and that what the table has moved past is not said: the sentences a step makes are taken
back once the table acts on them (``Announcement.until``), so calls are heard when they are made, not queued behind
a list of faces nobody needs any more."""

from __future__ import annotations

from test_announcer import RecordingAudio, phrase_synth

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


def test_talk_calls_is_read_from_the_config_and_reaches_the_announcer(tmp_path):
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
    from companion.announce import Announcement, Sound
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
    ann.announce(Announcement("core.minute_left", sound=Sound.TICK))
    assert [(a.speak, a.sound) for a in ann.queued if a.key == "core.minute_left"] == [(False, Sound.NONE)]
    ann.announce(Announcement("core.refused_said", {"words": "Nein."}, sound=Sound.REFUSED, shown=False, detail=True))
    assert "core.refused_said" not in _waiting(ann)
    assert [e for e in audio.log if e[0] == "play" and e[1] == Channel.EFFECT]  # the low sound, at once
    everything = Announcer("de", 80, audio=RecordingAudio(), speech=Speech(phrase_synth, threaded=False))
    everything.announce(Announcement("core.minute_left", sound=Sound.TICK))
    assert _waiting(everything) == ["core.minute_left"]  # "all" (the default) says them
