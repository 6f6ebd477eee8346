"""A USB webcam pulled out for good mid-game: its trouble said once, and after CAMERA_GIVE_UP seconds a way on with the
built-in dice (the pause menu's first row), the game's journal untouched; plugged back in, the camera reads again.

The real CaptureDevice behind a fake ``cv2.VideoCapture``, the real ``DiceWatcher._run`` stepped one turn at a time
on a fake clock (its sleeps advance the clock), the app's frames at 30 Hz on the same clock."""

from __future__ import annotations

import types

import cv2
import pygame
import pytest

import companion.watcher as watcher_module
import hardware.sources as sources
from companion.announce import Announcement
from companion.announcer import Announcer
from companion.app import CAMERA_GIVE_UP, CAMERA_SAID_KEY, GAME_ENTRIES, App
from companion.audio import NullAudio
from companion.config import Config
from companion.display import Display
from companion.games_ui import register_all
from hardware.events import Button, ButtonEvent, Press
from hardware.synthetic import SyntheticTray


class Clock:
    def __init__(self) -> None:
        self.t = 100.0

    def __call__(self) -> float:
        return self.t


class Rig:
    """The table: a webcam (plugged or not) over a tray of synthetic dice, and the clock everything runs on."""

    def __init__(self, monkeypatch, tmp_path) -> None:
        self.clock = clock = Clock()
        self.plugged = True
        self.tray = SyntheticTray(7, clock=clock, fps=None, motion_frames=4)
        self.tray.open()
        self.still = self.tray._read()
        rig = self

        class FakeCap:
            def __init__(self, index, *a) -> None:
                self.open = rig.plugged

            def isOpened(self) -> bool:  # noqa: N802 - OpenCV's name
                return self.open

            def release(self) -> None:
                self.open = False

            def set(self, *a) -> bool:
                return True

            def read(self):
                clock.t += 1 / 15  # a webcam's pace; unplugged, its read fails as quickly
                if not self.open or not rig.plugged:
                    return False, None
                return True, rig.still.copy()

        fake_cv2 = types.SimpleNamespace(**{k: getattr(cv2, k) for k in dir(cv2) if not k.startswith("__")})
        fake_cv2.VideoCapture = FakeCap
        monkeypatch.setattr(sources, "cv2", fake_cv2)
        monkeypatch.setattr(watcher_module, "time", types.SimpleNamespace(
            sleep=lambda s: setattr(clock, "t", clock.t + s), monotonic=clock))
        monkeypatch.setattr(watcher_module.DiceWatcher, "start", lambda self: self)
        real_open = sources.open_source
        self.opened: list[str] = []

        def open_source(spec: str = "auto", **kw):
            self.opened.append(spec)
            if spec.startswith("cam"):
                cam = sources.CaptureDevice(int(spec[4:]), clock=clock)
                cam.open()
                return cam
            if spec == "synthetic":  # the built-in tray on the same clock (its own paces by the machine's)
                tray = SyntheticTray(3, clock=clock, fps=None, motion_frames=4)
                tray.open()
                return tray
            return real_open(spec, **kw)

        monkeypatch.setattr(sources, "open_source", open_source)
        # the lookout finds the camera when it is plugged (here no /dev to watch: it is tried at every check)
        monkeypatch.setattr(sources.CameraLookout, "_devices", lambda self: frozenset({"video0"} if rig.plugged
                                                                                      else set()))
        monkeypatch.setattr(sources.CameraLookout, "__init__", _lookout_init(clock, sources.CameraLookout.__init__))
        self.said: list[Announcement] = []
        self.tmp_path = tmp_path

    def app(self, lang: str = "de", size: tuple[int, int] = (800, 480)) -> App:
        cfg = Config()
        cfg.players = ["Anna", "Ben"]
        cfg.language = lang
        announcer = Announcer(lang, audio=NullAudio())
        app = App(cfg, state_dir=self.tmp_path / "state", display=Display(size, fullscreen=False),
                  source_spec="cam:0", clock=self.clock, announcer=announcer, wall_clock=lambda: 1.9e9 + self.clock.t)
        real = announcer.announce
        announcer.announce = lambda a: (self.said.append(a), real(a))
        self.next_frame = self.clock.t
        return app

    def run(self, app: App, seconds: float) -> None:
        """The watcher's turns and the app's frames for ``seconds`` of the clock (bounded: the clock moves)."""
        end = self.clock.t + seconds
        for _ in range(int(seconds * 30) + 10):
            if self.clock.t >= end:
                return
            w = app.watcher
            w._stop = types.SimpleNamespace(n=0)
            w._stop.is_set = lambda s=w._stop: (setattr(s, "n", s.n + 1), s.n > 1)[1]
            before = self.clock.t
            w._run()
            self.clock.t = max(self.clock.t, before + 1 / 30)  # a turn takes a frame's time at least
            while self.next_frame <= self.clock.t:
                app.frame(1 / 30, [])
                self.next_frame += 1 / 30
        raise AssertionError("the clock did not run on")

    def camera_said(self) -> list[str]:
        return [a.params["words"] for a in self.said if a.key == CAMERA_SAID_KEY]


def _lookout_init(clock, real_init):
    def init(self, **kw) -> None:
        kw.setdefault("clock", clock)
        real_init(self, **kw)
    return init


def _press(app: App, button: Button) -> None:
    app.on_button(ButtonEvent(button, Press.SHORT))


def _start(app: App, name: str) -> None:
    from test_games_in_app import start_game

    app.main_menu()
    if name == "fritzo":  # the mode whose start roll the camera reads (the others never ask it)
        app.new_game(GAME_ENTRIES[name], {"mode": "level-one", "players": ["Anna", "Ben"]})
    else:
        start_game(app, name)
    assert app.session is not None and app.session.camera_ready, app.notice


def _strip(app: App) -> str | None:
    return app._strip[1] if app._strip else None


@pytest.fixture
def rig(monkeypatch, tmp_path) -> Rig:
    register_all()
    return Rig(monkeypatch, tmp_path)


def test_the_cameras_trouble_is_said_once_as_its_strip_first_shows_not_at_each_retry(rig):
    app = rig.app()
    _start(app, "free-play")
    rig.run(app, 1)
    assert rig.camera_said() == []
    rig.plugged = False
    rig.run(app, 3)
    assert "Kamera-Problem" in (_strip(app) or "")
    assert rig.camera_said() == [_strip(app)]
    rig.run(app, 10)  # five retries of the camera, each failing anew
    assert len(rig.camera_said()) == 1


@pytest.mark.parametrize("name", ["free-play", "echt-spitze", "haste-worte", "noch-x-mal", "fritzo"])
def test_a_camera_gone_for_good_offers_the_built_in_dice_and_the_game_goes_on(rig, name, monkeypatch):
    """20 s without pictures: the strip and a spoken sentence say how; the pause menu's first row switches to the
    built-in tray as a start without a camera does; a ROLL waited for is thrown there; the journal is untouched."""
    from synth_dice import taught_profile

    from companion import profiles

    dice_set = GAME_ENTRIES[name].dice_set
    if dice_set != "d6":
        if dice_set not in ("echt-spitze", "haste-worte", "noch-x-mal", "fritzo"):
            pytest.skip(f"no taught profile for {dice_set}")
        profiles.save_profile(taught_profile(dice_set, 1))
    app = rig.app()
    _start(app, name)
    rig.run(app, 1)
    rig.plugged = False
    rig.run(app, 3)
    _press(app, Button.ROLL)
    rig.run(app, CAMERA_GIVE_UP - 5)
    assert "Ohne Kamera" not in (_strip(app) or "")
    rig.run(app, 5)
    assert "Ohne Kamera weiterspielen (eingebaute Würfel): ZURÜCK, dann WÄHLEN." in _strip(app)
    assert any("Ohne Kamera weiterspielen" in w for w in rig.camera_said())
    journal = [dict(a) for a in app.session.actions]
    _press(app, Button.UNDO)
    assert app.mode is app._pause_mode
    assert app.mode.menu.items[app.mode.menu.index].label == "Ohne Kamera weiter (eingebaute Würfel)"
    _press(app, Button.SELECT)
    assert app.mode is app.game_mode
    rig.run(app, 3)
    assert isinstance(app.watcher.source, SyntheticTray) and app.source is app.watcher.source
    assert app.session.actions[:len(journal)] == journal  # nothing of the game changed by the switch
    assert "Es geht ohne Kamera weiter" in app.notice
    assert app.watcher.error is None and "Kamera-Problem" not in (_strip(app) or "")
    assert app.watcher.wanted_since is None  # the throw waited for came from the built-in tray
    _press(app, Button.UNDO)
    assert "no_camera" not in [i.value for i in app.mode.menu.items]
    app._back_to_game()
    # the cable mended: said at once; the camera reads from the next ROLL on, not the real tray against the built-in
    # dice on the screen mid-turn ("4 dice missing from the tray: who has which?")
    rig.plugged = True
    rig.run(app, 6)
    assert "Die Kamera ist wieder da" in app.notice
    assert isinstance(app.watcher.source, SyntheticTray)
    journal = [dict(a) for a in app.session.actions]
    notices: list[str] = []
    show = app.show_notice
    monkeypatch.setattr(app, "show_notice", lambda text, *a, **kw: (notices.append(text), show(text, *a, **kw)))
    app.session.ask_for_dice()  # what each game's screen does on its ROLL
    rig.run(app, 2)
    assert isinstance(app.watcher.source, sources.CaptureDevice) and app.source is app.watcher.source
    assert any("Kamera gefunden" in n for n in notices)
    assert app.session.actions[:len(journal)] == journal


def test_a_camera_back_within_seconds_offers_nothing(rig):
    app = rig.app()
    _start(app, "free-play")
    rig.run(app, 1)
    rig.plugged = False
    rig.run(app, 5)
    rig.plugged = True
    rig.run(app, 4)
    assert app.watcher.error is None and isinstance(app.watcher.source, sources.CaptureDevice)
    rig.run(app, CAMERA_GIVE_UP)
    assert not app._camera_offer()
    _press(app, Button.UNDO)
    assert "no_camera" not in [i.value for i in app.mode.menu.items]


@pytest.mark.parametrize("lang", ["de", "en"])
@pytest.mark.parametrize("size", [(800, 480), (1280, 720)])
def test_the_offer_on_the_strip_and_in_the_pause_menu_render(rig, lang, size, out_dir):
    app = rig.app(lang, size)
    _start(app, "free-play")
    rig.run(app, 1)
    rig.plugged = False
    rig.run(app, 4)
    pygame.image.save(app.display.canvas, str(out_dir / f"camera_lost_{lang}_{size[0]}.png"))
    rig.run(app, CAMERA_GIVE_UP)
    strip = app._strip
    assert strip is not None and strip[0].bottom <= 440  # clear of the hint bar
    pygame.image.save(app.display.canvas, str(out_dir / f"camera_offer_{lang}_{size[0]}.png"))
    _press(app, Button.UNDO)
    app.frame(0.0, [])
    pygame.image.save(app.display.canvas, str(out_dir / f"camera_offer_pause_{lang}_{size[0]}.png"))
    _press(app, Button.SELECT)
    rig.run(app, 2)
    pygame.image.save(app.display.canvas, str(out_dir / f"camera_left_{lang}_{size[0]}.png"))


def test_a_tap_on_the_cameras_offer_opens_the_pause_menu_on_its_row(rig):
    """A table with touch alone: the strip's way on is tapped, not put away for ten seconds."""
    app = rig.app("en")
    _start(app, "free-play")
    rig.run(app, 1)
    rig.plugged = False
    rig.run(app, CAMERA_GIVE_UP + 3)
    assert "To play on without it (built-in dice): UNDO, then SELECT." in _strip(app)
    app.on_tap(app._strip[0].center)
    assert app.mode is app._pause_mode
    assert app.mode.menu.items[app.mode.menu.index].value == "no_camera"


@pytest.mark.parametrize("lang", ["de", "en"])
@pytest.mark.parametrize("size", [(800, 480), (1280, 720)])
def test_the_offer_over_echt_spitzes_throw_renders(rig, lang, size, out_dir):
    from synth_dice import taught_profile

    from companion import profiles

    profiles.save_profile(taught_profile("echt-spitze", 1))
    app = rig.app(lang, size)
    _start(app, "echt-spitze")
    rig.run(app, 1)
    rig.plugged = False
    rig.run(app, 3)
    _press(app, Button.ROLL)
    rig.run(app, CAMERA_GIVE_UP + 3)
    assert app._strip is not None and app._strip[0].bottom <= 440
    pygame.image.save(app.display.canvas, str(out_dir / f"camera_offer_echt_{lang}_{size[0]}.png"))
    _press(app, Button.UNDO)
    _press(app, Button.SELECT)
    rig.run(app, 3)
    pygame.image.save(app.display.canvas, str(out_dir / f"camera_left_echt_{lang}_{size[0]}.png"))


def test_free_play_counts_no_roll_from_the_built_in_tray_until_roll_throws_it(rig):
    """Switched with no throw waited for: the built-in tray's dice as they came are nobody's roll."""
    app = rig.app()
    _start(app, "free-play")
    rig.run(app, 1)
    rig.plugged = False
    rig.run(app, CAMERA_GIVE_UP + 3)
    rolls = len(app.session.engine.rolls)
    _press(app, Button.UNDO)
    _press(app, Button.SELECT)
    rig.run(app, 4)
    assert isinstance(app.watcher.source, SyntheticTray)
    assert len(app.session.engine.rolls) == rolls
    _press(app, Button.ROLL)
    rig.run(app, 3)
    assert len(app.session.engine.rolls) == rolls + 1


def test_the_offer_is_withdrawn_once_chosen_while_the_dead_camera_holds_the_watcher(rig):
    """The pause menu's "no camera" row stayed offered until the watcher's thread (held up by a dead camera's
    retries) took up the built-in tray: chosen twice, a second tray was opened and never closed."""
    app = rig.app()
    _start(app, "free-play")
    rig.run(app, 1)
    rig.plugged = False
    rig.run(app, CAMERA_GIVE_UP + 3)
    assert app._camera_offer()
    _press(app, Button.UNDO)
    _press(app, Button.SELECT)  # the built-in tray asked for; the watcher has not turned since
    assert app.watcher.switching and isinstance(app.watcher.source, sources.CaptureDevice)
    assert not app._camera_offer()
    app.frame(1 / 30, [])
    assert "Ohne Kamera" not in (_strip(app) or "")
    _press(app, Button.UNDO)
    assert "no_camera" not in [i.value for i in app.mode.menu.items]
    app._back_to_game()
    opened = rig.opened.count("synthetic")
    rig.run(app, 3)
    assert isinstance(app.watcher.source, SyntheticTray) and not app.watcher.switching
    assert rig.opened.count("synthetic") == opened == 1 and not app._camera_offer()


@pytest.mark.parametrize("name, skip", [("free-play", False), ("echt-spitze", True)])
def test_a_hand_held_still_is_no_rest_only_where_a_missing_die_is_taken(rig, name, skip):
    """Free play reads a throw with the cup left at the tray's edge (the hand timeout's rest); Echt Spitze's take
    phase does not take the die under a hand held still (``DiceWatcher.skip_hand_rests``, from the screen)."""
    from synth_dice import taught_profile

    from companion import profiles

    if name == "echt-spitze":
        profiles.save_profile(taught_profile("echt-spitze", 1))
    app = rig.app()
    _start(app, name)
    app.watcher.skip_hand_rests = not skip
    rig.run(app, 1)
    assert app.watcher.skip_hand_rests is skip


@pytest.mark.parametrize("lang", ["de", "en"])
def test_a_camera_not_there_at_the_start_plugged_in_mid_turn_reads_from_the_next_roll(rig, lang, out_dir):
    """No camera at the start, the built-in tray stands in: a webcam plugged in during Echt Spitze's take phase is
    said at once but read only from the next ROLL, as a camera plugged back in is (``CameraBack``): switched at once,
    its first rest of the real tray was read against the built-in dice on the screen."""
    from synth_dice import taught_profile

    from companion import profiles
    from companion.games.echt_spitze.state import Phase

    profiles.save_profile(taught_profile("echt-spitze", 1))
    rig.plugged = False
    app = rig.app(lang)
    assert isinstance(app.watcher.source, SyntheticTray)
    _start(app, "echt-spitze")
    g = app.session.engine
    _press(app, Button.ROLL)
    rig.run(app, 4)
    assert g.phase is Phase.TAKE
    dice, middle = list(g.state.dice), list(g.middle)
    rig.plugged = True
    rig.run(app, 6)
    assert isinstance(app.watcher.source, SyntheticTray) and app.source is app.watcher.source
    assert g.phase is Phase.TAKE and list(g.state.dice) == dice and list(g.middle) == middle
    assert app.notice == {"de": "Kamera gefunden: Ab dem nächsten Wurf (WÜRFELN) liest sie eure eigenen Würfel "
                                "(Kamera: USB-Kamera 0).",
                          "en": "Camera found: from the next throw (ROLL) on, it reads your own dice "
                                "(Camera: USB camera 0)."}[lang]
    pygame.image.save(app.display.canvas, str(out_dir / f"camera_found_take_{lang}.png"))
    asked: list[Phase] = []
    want = app.session.want_dice
    app.session.want_dice = lambda: (asked.append(g.phase), want())
    for _ in range(8):  # the dice taken, then the next ROLL
        if isinstance(app.watcher.source, sources.CaptureDevice):
            break
        assert not asked  # asked for a throw, the camera reads it
        _press(app, Button.SELECT if g.phase is Phase.TAKE else Button.ROLL)
        rig.run(app, 1)
    assert asked and isinstance(app.watcher.source, sources.CaptureDevice) and app.source is app.watcher.source


def test_a_camera_not_there_at_the_start_is_taken_at_once_with_no_game_on(rig):
    rig.plugged = False
    app = rig.app()
    app.main_menu()
    assert app.session is None and isinstance(app.watcher.source, SyntheticTray)
    rig.plugged = True
    rig.run(app, 3)
    assert isinstance(app.watcher.source, sources.CaptureDevice) and app.source is app.watcher.source
    assert "Kamera gefunden: Die Würfel werden jetzt von ihr gelesen" in app.notice
    assert app.mode.subtitle == "Kamera: USB-Kamera 0"
