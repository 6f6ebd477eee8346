"""What was said, for a table that did not hear it: the pause menu's "Say it again" (a hard-of-hearing grandparent
missed Echt Spitze's "Ben first with lemons and melons: circle the 9 and 6 ...", a banner of five seconds at 28 px,
with no way back to it), refusals and undos heard, not only shown, and Louder pressed twice quickly counted twice.

The app runs on a fake clock with a recording sound device and an inline fake voice (``test_announcer``)."""

from __future__ import annotations

import numpy as np
import pygame
import pytest
from drawn_texts import recording_texts
from test_announcer import RecordingAudio, fake_synth
from test_games_in_app import start_game

from companion.announce import Announcement, Sound
from companion.announcer import Announcer
from companion.app import App
from companion.audio import Channel
from companion.config import Config
from companion.display import Display
from companion.games_ui import register_all
from companion.i18n import t
from companion.sounds import sound_wav as sounds_wav
from companion.speech import Speech
from companion.views import theme
from hardware.events import Button, ButtonEvent, Press


class Table:
    """The companion in free play on a fake clock, its voice recorded."""

    def __init__(self, tmp_path, lang: str = "de", size: tuple[int, int] = (800, 480), game: str | None = None) -> None:
        self.now = 100.0
        cfg = Config()
        cfg.language = lang
        cfg.players = ["Anna", "Ben"]
        self.audio = RecordingAudio()
        announcer = Announcer(lang, 80, audio=self.audio, speech=Speech(fake_synth, threaded=False), min_seconds=3.0,
                              gap=0.2)
        self.app = App(cfg, state_dir=tmp_path, display=Display(size, fullscreen=False), use_camera=False,
                       announcer=announcer, clock=lambda: self.now, start_free_play=game is None)
        if game is not None:
            register_all()
            start_game(self.app, game)

    def run(self, seconds: float, dt: float = 0.05) -> None:
        for _ in range(round(seconds / dt)):
            self.now += dt
            self.app.frame(dt, [])

    def press(self, button: Button, press: Press = Press.SHORT) -> None:
        self.app.on_button(ButtonEvent(button, press))
        self.run(0.1)

    def values(self) -> list:
        return [item.value for item in self.app.mode.menu.items]

    def choose(self, value) -> None:
        self.app.mode.menu.index = self.values().index(value)
        self.press(Button.SELECT)


def sentence(value: str) -> Announcement:
    """A catalog sentence with a parameter (core.po has no game sentences; any key with params will do)."""
    return Announcement("core.error_language", {"value": value, "allowed": ["Anna", "Ben"]})


@pytest.mark.parametrize("lang", ["de", "en"])
def test_say_it_again_lists_what_was_said_newest_first_at_far_and_says_it_again(tmp_path, monkeypatch, lang):
    table = Table(tmp_path, lang)
    app = table.app
    app.pause_menu()
    assert table.values()[:2] == ["continue", "again"]  # one NEXT away from where the menu opens
    assert not app.mode.menu.items[1].enabled  # nothing said yet
    app._back_to_game()
    for said in ("erste", "zweite"):
        app.announce(sentence(said))
    app.announce(Announcement("core.undone", speak=False))  # a screen note: never said, not said again
    table.run(20)
    assert app.announcer.idle
    table.press(Button.UNDO)  # the pause menu
    assert app.mode is app._pause_mode and app.mode.menu.items[1].label == t("core.pause_again", lang)
    heard = len(table.audio.plays())
    table.choose("again")
    newest, older = sentence("zweite").text(lang), sentence("erste").text(lang)
    assert [item.label for item in app.mode.menu.items] == [newest, older]
    with recording_texts(monkeypatch) as drawn:
        app.draw(app.display.canvas)
    lines = [(s, size) for s, size, _ in drawn if s and s in newest + " " + older]
    assert lines and all(size >= theme.FAR for _, size in lines)  # read from across the table, not 28 px
    assert " ".join(s for s, _ in lines).split() == (newest + " " + older).split()  # whole, on their lines
    table.run(0.5)
    current = app.announcer.current
    assert current is not None and current.text == newest and current.hidden  # said, no banner over the list
    table.run(1.5)
    assert len(table.audio.plays()) > heard  # heard again (its chime, then the sentence)
    table.press(Button.NEXT)
    table.press(Button.SELECT)  # the older one, chosen: it replaces the one still playing
    table.run(0.2)
    assert app.announcer.current.text == older and not app.announcer.queued
    table.press(Button.UNDO)
    assert app.mode is app.game_mode  # back to the game, as its hint says
    assert app.announcer.said() == [sentence("zweite"), sentence("erste")]  # the calls said again are not listed


def test_the_pause_menu_keeps_all_seven_rows_in_view_at_the_panels_size(tmp_path):
    table = Table(tmp_path)
    table.app.pause_menu()
    menu = table.app.mode.menu
    assert len(menu.items) == 7 and len(menu.visible_range()) == 7
    assert all(r.bottom <= theme.DESIGN_SIZE[1] - 40 and r.h >= 38 for r in menu.item_rects().values())


def test_said_keeps_each_sentence_once_and_leaves_out_notes_the_countdown_and_the_apps_calls():
    ann = Announcer("de", 80, audio=RecordingAudio(), speech=Speech(fake_synth, threaded=False), min_seconds=1.0,
                    gap=0.1)
    for a in (sentence("a"), Announcement("core.seconds_left", {"n": 10}), sentence("b"),
              Announcement("core.undone", speak=False), sentence("a"), Announcement("core.undone", shown=False)):
        ann.announce(a)
    now = 0.0
    for _ in range(800):
        ann.update(now)
        now += 0.05
    assert ann.said() == [sentence("a"), sentence("b")]
    assert ann.said(most=1) == [sentence("a")]
    assert ann.said(since=now) == []


def test_the_refusal_sound_is_short_and_low():
    from companion import sounds

    wav = sounds.samples(Sound.REFUSED)
    assert len(wav) / sounds.SAMPLE_RATE < 0.5  # a blip, not a sentence's time
    spectrum = np.abs(np.fft.rfft(wav.astype(float)))
    assert np.fft.rfftfreq(len(wav), 1 / sounds.SAMPLE_RATE)[spectrum.argmax()] < 300  # under the chime's 659 Hz
    assert sounds.rms(wav) <= sounds.VOICE_RMS * 1.05  # as loud as the voice, no alarm


def test_a_refused_move_is_heard_each_time_and_its_call_goes_when_the_refusal_does(tmp_path):
    table = Table(tmp_path)
    app, refused = table.app, sounds_wav(Sound.REFUSED)
    assert not app.session.apply({"action": "nonsense"})  # before the game's first frame too
    table.run(0.2)
    assert app.announcer.current.text == app.session.error and app.announcer.current.hidden  # the strip shows it
    assert table.audio.plays().count(refused) == 1  # its low sound first, on the voice that was free
    table.run(3)
    assert not app.session.apply({"action": "nonsense"})  # the same move again: refused again, heard again
    table.run(0.1)
    assert refused in table.audio.plays() + table.audio.plays(Channel.EFFECT)
    assert len([p for p in table.audio.plays() + table.audio.plays(Channel.EFFECT) if p == refused]) == 2
    app.session.error = None  # the move made right: its words are not said after it
    table.run(0.1)
    assert app.announcer.current is None and not app.announcer.queued
    assert app.announcer.said() == []  # the app's calls are not among what the game said


def test_a_refusal_while_a_sentence_plays_sounds_at_once_and_its_words_wait(tmp_path):
    table = Table(tmp_path)
    app = table.app
    app.announce(sentence("lang"))
    table.run(1.5)
    assert app.announcer.current is not None and app.announcer.current.speech_started is not None
    app.session.error = "Würfel 1 hat schon Anna."
    table.run(0.1)
    assert table.audio.plays(Channel.EFFECT) == [sounds_wav(Sound.REFUSED)]  # heard at the press
    assert [a.key for a in app.announcer.queued] == ["core.refused_said"]  # low priority: after the sentence


@pytest.mark.parametrize("lang", ["de", "en"])
def test_a_refusal_stands_at_far_where_it_fits(tmp_path, monkeypatch, lang):
    table = Table(tmp_path, lang)
    app = table.app
    app.session.error = t("core.nothing_to_undo", lang)  # any short sentence of the catalogs
    with recording_texts(monkeypatch) as drawn:
        app.draw(app.display.canvas)
    lines = [size for s, size, r in drawn if s and s in app.session.error and r.bottom <= theme.DESIGN_SIZE[1] - 40]
    assert lines and all(size == theme.FAR for size in lines)
    app.session.error = " ".join([app.session.error] * 3)  # too long for two lines at FAR: as before, from BODY
    with recording_texts(monkeypatch) as drawn:
        app.draw(app.display.canvas)
    sizes = {size for s, size, r in drawn if s and s in app.session.error}
    assert sizes and max(sizes) <= theme.BODY and min(sizes) >= theme.SMALL


@pytest.mark.parametrize("lang", ["de", "en"])
def test_an_undo_is_said_naming_the_step_and_a_held_undo_says_the_last_one(tmp_path, lang):
    table = Table(tmp_path, lang, game="noch-x-mal")
    app = table.app
    for name, combo in (("Anna", ["red", "2"]), ("Ben", ["blue", "5"])):
        assert app.session.apply({"action": "start_combo", "player": name, "dice": combo})
    assert app.session.apply({"action": "roll", "dice": ["red", "blue", "green", "1", "2", "3"]})
    table.run(40)
    assert app.announcer.idle
    app.undo()
    table.run(0.1)
    last = next(a for a in app.session.undone_said if not a.prompt).text(lang)  # the faces, not the roll's call
    current = app.announcer.current
    assert current is not None and current.hidden  # the green strip shows the words: no banner over it
    assert current.text == t("core.undone_what", lang, said=last)
    app.undo()  # held UNDO: the next step back replaces the call still playing
    table.run(0.1)
    said = [a.text(lang) for a in app.session.undone_said if not a.prompt]
    assert app.announcer.current.text == t("core.undone_what", lang, said=said[0]) and not app.announcer.queued


def test_two_quick_selects_on_louder_count_twice_and_elsewhere_once(tmp_path):
    """SELECT twice within a third of a second on the pause menu's "Louder": each meant (the table heard one step of
    two); a double press on a row that leaves the menu ("Sound off") is still one press."""
    table = Table(tmp_path)
    app = table.app
    app.cfg.sound.volume = app.announcer.volume = 20
    app.pause_menu()
    app.mode.menu.index = table.values().index("louder")

    def select_twice(times: int = 2) -> None:
        for _ in range(times):
            app.keys.key_down(pygame.K_RETURN)
            table.run(0.1)
            app.keys.key_up(pygame.K_RETURN)
            table.run(0.1)  # the next press 0.2 s after this one: inside DOUBLE_PRESS

    select_twice()
    assert app.announcer.volume == 60 and app.mode is app._pause_mode
    table.run(1)
    select_twice(1)
    assert app.announcer.volume == 80
    table.run(1)
    select_twice()  # the loudest: the highlight moves to "Quieter", the second press is not taken there
    assert app.announcer.volume == 100 and table.values()[app.mode.menu.index] == "quieter"
    table.run(1)
    app.mode.menu.index = table.values().index("mute")
    select_twice()
    assert app.announcer.muted and app.mode is app.game_mode  # once: the game under the menu got no SELECT


def test_a_tracker_told_a_button_repeats_counts_each_quick_press():
    from hardware.buttons import DOUBLE_PRESS, PressTracker

    now = [0.0]
    tracker = PressTracker(clock=lambda: now[0], debounce=0.0)

    def tap() -> list[ButtonEvent]:
        tracker.edge(Button.SELECT, True)
        now[0] += DOUBLE_PRESS / 4
        tracker.edge(Button.SELECT, False)
        now[0] += DOUBLE_PRESS / 4
        return tracker.poll()

    assert [tap(), tap()] == [[ButtonEvent(Button.SELECT)], []]  # a double press is one
    now[0] += 1
    tracker.again = frozenset({Button.SELECT})
    assert [tap(), tap()] == [[ButtonEvent(Button.SELECT)]] * 2


@pytest.mark.parametrize("lang", ["de", "en"])
def test_an_undone_roll_is_not_quoted_by_the_call_it_made(tmp_path, lang):
    """Echt Spitze: the roll's only sentence is its call ("Anna: take one die"); undoing the roll quoted it, "Undone:
    “Anna: take one die”", heard as an order though Anna must roll again. A step that told the table something is
    quoted by that; one that only called is "undone" plainly."""
    table = Table(tmp_path, lang, game="echt-spitze")
    app = table.app
    game = app.session.engine
    assert app.session.apply({"action": "roll", "dice": ["1", "2", "3", "4", "5", "?"][:game.dice_count]})
    table.run(20)
    app.undo()
    table.run(0.1)
    assert app.session.undone_said and all(a.prompt for a in app.session.undone_said)
    assert app.notice == t("core.undone", lang)
    assert app.announcer.current is not None and app.announcer.current.text == t("core.undone", lang)


@pytest.mark.parametrize("lang", ["de", "en"])
def test_said_last_keeps_long_sentences_at_far_across_the_screens_width(tmp_path, monkeypatch, lang):
    """"Großvater Jürgen zuerst mit lemons: die 9 einkreisen, alle anderen streichen sie!", the newest, stood at 22 px
    on two lines in rows 626 px wide, 170 px beside them empty: the rows take the screen's width."""
    table = Table(tmp_path, lang)
    app = table.app
    long_ones = [Announcement("echt.first.kind_one", {"players": name, "name": kind, "high": high})
                 for name, kind, high in (("Anna-Sophie", "pears", 5), ("Maximilian-Alexander", "melons", 6),
                                          ("Großvater Jürgen", "lemons", 9))]
    for a in long_ones:
        app.announce(a)
    table.run(40)
    table.press(Button.UNDO)
    table.choose("again")
    with recording_texts(monkeypatch) as drawn:
        app.draw(app.display.canvas)
    texts = [app.announcer.text_of(a) for a in long_ones]
    lines = [(s, size) for s, size, _ in drawn if s and any(s in text for text in texts)]
    assert lines and all(size >= theme.FAR for _, size in lines), lines
    assert all(r.w >= 700 for r in app.mode.menu.item_rects().values())  # the screen's width, the arrows beside
