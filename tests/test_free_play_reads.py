"""Free play with a camera: it reads the tray whenever the dice come to rest, so the same dice are read again
(ROLL with no throw, an arm over the tray) and must not become a second roll; an empty tray is no error unless ROLL
asked for dice; a read on its way after ROLL is shown; the highlighted die is shown as the camera saw it; answers
about a taught face are kept."""

from __future__ import annotations

import queue

import cv2
import numpy as np
import pygame
import pytest
from dataset_photos import dataset_photo
from drawn_texts import recording_texts
from synth_dice import with_hand

from companion.app import App
from companion.config import Config
from companion.display import Display
from companion.i18n import t
from companion.watcher import TrayMotion
from hardware.events import Button, ButtonEvent, Press
from vision.pips import read_dice
from vision.rest import AtRestTrigger
from vision.types import DieReading, TrayReading

FPS = 20.0
EMPTY = TrayReading(())
BOXES = [(100, 100, 160, 160), (300, 100, 360, 160), (500, 100, 560, 160)]


def _press(app: App, button: Button, press: Press = Press.SHORT) -> None:
    app.on_button(ButtonEvent(button, press))


class _Watcher:
    """The dice watcher as the app and ``App._learn`` use it, without its thread: the frame of the last rest, and
    ROLL starting the at-rest trigger afresh as ``DiceWatcher.request`` does."""

    reader = None

    def __init__(self, trigger: AtRestTrigger | None = None) -> None:
        self.trigger = trigger
        self.last_rest_frame = np.zeros((480, 640, 3), np.uint8)
        self.last_rest: TrayReading | None = None
        self.requests = 0
        self.source = None  # the app's own (none: ``use_camera=False``)
        self.readings: queue.Queue[TrayReading] = queue.Queue()
        self.auto = True
        self.error = self.failure = None

    def why_waiting(self, now: float) -> None:
        return None

    def request(self) -> None:
        self.requests += 1
        if self.trigger is not None:
            self.trigger.reset()

    def set_reader(self, reader) -> None:
        self.reader = reader


def _free_play(tmp_path, lang: str = "de", size=(800, 480), before: TrayReading | None = EMPTY) -> App:
    """Free play with a camera; ``before``: the tray's first rest, what lay in it when free play opened (an empty
    tray unless said; None: no rest yet)."""
    cfg = Config()
    cfg.language = lang
    cfg.display.width, cfg.display.height = size
    app = App(cfg, state_dir=tmp_path, display=Display(size, fullscreen=False), use_camera=False,
              start_free_play=True)
    app.session.camera_ready = True
    app.session.want_dice = lambda: app.watcher.request()
    app.watcher = _Watcher()
    app.watcher.source = app.source
    if before is not None:
        app.mode.on_dice(before)  # what lay in the tray when free play opened is no throw
    return app


def _rest(app: App, reading: TrayReading, frame: np.ndarray | None = None) -> str | None:
    """The tray came to rest and was read: handed over as the app's frame loop hands it over. Returns what the
    screen answers (the app's notice)."""
    if frame is not None:
        app.watcher.last_rest_frame = frame
    app.watcher.last_rest = app.session.latest_reading = reading
    return app.mode.on_dice(reading)


def _reading(faces, boxes=BOXES, dx: int = 0) -> TrayReading:
    return TrayReading(tuple(DieReading(f, 0.9 if f else 0.3, (x0 + dx, y0, x1 + dx, y1))
                             for f, (x0, y0, x1, y1) in zip(faces, boxes, strict=True)))


@pytest.fixture
def photo(datasets) -> np.ndarray:
    return dataset_photo(datasets, "matteo-d6", "five_22.jpg")


def test_dice_read_again_where_they_lay_are_one_roll_on_real_photos(tmp_path, photo):
    """The README's "put the dice in, then ROLL": read once they lay still, then again after ROLL (the trigger
    starts afresh); an arm over the tray for a second, touching no die: read again once it left. Each was a new
    roll of the same dice in the history. A throw landing elsewhere is a roll."""
    app = _free_play(tmp_path)
    trigger = AtRestTrigger(still_seconds=0.5, reader=read_dice)
    app.watcher.trigger = trigger
    clock = [0.0]

    said: list[str | None] = []

    def show(frames: list[np.ndarray]) -> int:
        fired = 0
        for frame in frames:
            clock[0] += 1 / FPS
            reading = trigger.feed(frame, clock[0])
            if reading is not None:
                fired += 1
                said.append(_rest(app, reading, frame))
        return fired

    assert show([photo] * 15) == 1
    first = list(app.session.engine.last)
    assert len(first) == 3 and len(app.session.engine.rolls) == 1
    _press(app, Button.ROLL)  # no throw: the dice lie as they were read
    assert app.watcher.requests == 1
    assert show([photo] * 15) == 1
    assert len(app.session.engine.rolls) == 1 and said[-1] == t("core.free_throw_first", "de")
    assert app.session.error is None  # no error: a notice (``test_free_play_motion``)
    assert show([with_hand(photo)] * 20 + [photo] * 20) == 1  # the arm came and went: the tray read once more
    assert len(app.session.engine.rolls) == 1 and app.session.engine.last == first
    # an arm held still longer than the trigger waits for a hand: the tray is read with it, then again without
    held = int(FPS * (trigger.hand_timeout + 1.5))
    assert show([with_hand(photo)] * held + [photo] * held) == 2  # with the arm (a die under it), and without
    assert len(app.session.engine.rolls) == 1 and app.session.engine.last == first
    # the dice thrown again, landing in another layout: the second where it lay, the others a die further down (all
    # a die down, the same faces, would be the tray pushed: ``test_the_tray_pushed_after_a_read_throw_is_no_new_roll``)
    moved = photo.copy()
    for die in app.session.latest_reading.dice:
        x0, y0, x1, y1 = die.box
        moved[y0:y1, x0:x1] = np.median(photo[y1:y1 + 12, x0:x1].reshape(-1, 3), axis=0)
    for k, die in enumerate(app.session.latest_reading.dice):
        x0, y0, x1, y1 = die.box
        down = 0 if k == 1 else y1 - y0
        moved[y0 + down:y1 + down, x0:x1] = photo[y0:y1, x0:x1]
    assert show([cv2.GaussianBlur(photo, (15, 15), 0)] * 3 + [moved] * 15) == 1
    assert len(app.session.engine.rolls) == 2


def test_a_reading_again_keeps_the_picker_open_and_the_question(tmp_path):
    """The picker open on an unsure die, someone reaches in to look: the reading after closed the picker without a
    word, added the roll twice and roll 1 kept its "?"."""
    app = _free_play(tmp_path)
    _rest(app, _reading([4, None, 6]))
    _press(app, Button.SELECT)
    assert app.mode.picking == 1
    _rest(app, _reading([4, None, 6], dx=8))  # read again, a little off (the light, the arm's shadow)
    assert app.mode.picking == 1 and len(app.session.engine.rolls) == 1
    assert app.session.error is None  # not asked for: nothing to say
    for _ in range(2):
        _press(app, Button.NEXT)
    _press(app, Button.SELECT)
    assert app.session.engine.rolls == [[4, 3, 6]]
    _rest(app, TrayReading(app.session.latest_reading.dice[::2]))  # die 2 hidden under a still arm
    _rest(app, _reading([4, None, 6], dx=-4))  # the arm gone
    assert len(app.session.engine.rolls) == 1 and app.mode.picking is None
    app.mode.draw(app.display.canvas)
    assert app.mode._picture() is not None
    _rest(app, _reading([4, 5, 6], dx=30))  # half a die away: thrown again
    assert len(app.session.engine.rolls) == 2


def test_the_tray_pushed_after_a_read_throw_is_no_new_roll(tmp_path):
    """The tray pushed 3 cm after a throw was read: its dice lie as they lay, all moved by one offset, and were
    counted as "Wurf 2" with the same faces. Two dice or more in the same layout read alike are the same roll; one
    die moved alone, other faces, or a single die anywhere are a throw."""
    app = _free_play(tmp_path)
    _rest(app, _reading([4, 3, 6]))
    shifted = [(x0 + 45, y0 + 10, x1 + 45, y1 + 10) for x0, y0, x1, y1 in BOXES]  # the tray pushed: 3/4 of a die
    assert _rest(app, _reading([4, 3, 6], boxes=shifted)) is None  # (ROLL not pressed: nothing said)
    assert app.session.engine.rolls == [[4, 3, 6]]
    _rest(app, _reading([4, 3, 6], boxes=[(x0 - 90, y0 + 60, x1 - 90, y1 + 60) for x0, y0, x1, y1 in shifted]))
    assert app.session.engine.rolls == [[4, 3, 6]]  # pushed back the other way
    _rest(app, _reading([4, 3, 5], boxes=shifted))  # one face other: thrown
    _rest(app, _reading([4, 3, 5], boxes=[(130, 100, 190, 160), *BOXES[1:]]))  # one die moved alone: thrown
    assert app.session.engine.rolls == [[4, 3, 6], [4, 3, 5], [4, 3, 5]]
    _rest(app, _reading([2], boxes=BOXES[:1]))
    _rest(app, _reading([2], boxes=BOXES[2:]))  # a single die thrown again landing with its face as before
    assert app.session.engine.rolls[-2:] == [[2], [2]]


def test_the_dice_left_in_the_tray_are_no_new_roll_after_a_restart(tmp_path):
    """Switched on again (a power cut, the companion turned off for the night) over the dice of the last roll: the
    first rest was read as a new roll, for nothing was there to compare it with, and every switch-on counted the
    dice lying in the tray once more. The roll's step keeps where its dice lay, so they are the same roll after the
    restart too; dice thrown since are a roll."""
    app = _free_play(tmp_path)
    _rest(app, _reading([4, None, 6]))
    _press(app, Button.SELECT)
    for _ in range(2):
        _press(app, Button.NEXT)
    _press(app, Button.SELECT)  # the unsure die said to be a 3
    assert app.session.engine.rolls == [[4, 3, 6]]

    app = _free_play(tmp_path)  # the power cut, switched on again: free play resumed
    assert app.session.engine.rolls == [[4, 3, 6]]
    assert _rest(app, _reading([4, None, 6], dx=5)) is None  # the dice as they lay, a little off (the light)
    assert app.session.engine.rolls == [[4, 3, 6]] and app.session.error is None
    _press(app, Button.NEXT)
    app.mode.draw(app.display.canvas)
    assert app.mode._picture() is not None  # the die as this reading saw it
    _press(app, Button.ROLL)  # no throw: said as before the restart
    assert _rest(app, _reading([4, 3, 6])) == t("core.free_throw_first", "de")
    assert len(app.session.engine.rolls) == 1

    app = _free_play(tmp_path)
    # a die half a die away: thrown while the companion was off (the same layout moved as one is the tray pushed)
    _rest(app, _reading([4, 3, 6], boxes=[(130, 100, 190, 160), *BOXES[1:]]))
    assert app.session.engine.rolls == [[4, 3, 6], [4, 3, 6]]
    app = _free_play(tmp_path)
    app.session.undo()  # back to the first roll: the dice where it lay are that roll
    assert _rest(app, _reading([4, None, 6])) is None and app.session.engine.rolls == [[4, 3, 6]]


@pytest.mark.parametrize("lang", ["de", "en"])
def test_a_fresh_free_play_counts_no_dice_that_lay_in_the_tray_before(tmp_path, out_dir, lang):
    """Switched on (or free play chosen) over the last game's dice: the first rest, the dice lying there from
    before, was free play's first roll, counted in the history and the fairness check though nobody threw. They are
    the picture before: read again where they lay (ROLL with no throw, an arm over the tray) no roll, ROLL said so;
    dice thrown are the first roll. Dice seen thrown as the screen opened are a roll as before."""
    for size in ((800, 480), (1280, 720)):
        app = _free_play(tmp_path / f"{size[0]}", lang, size, before=None)
        assert _rest(app, _reading([2, 5, 6])) is None  # the dice lying in the tray
        assert app.session.engine.rolls == [] and app.session.error is None
        assert _rest(app, _reading([2, 5, 6], dx=4)) is None  # an arm over the tray, the dice as they lay
        _press(app, Button.ROLL)
        assert _rest(app, _reading([2, 5, 6], dx=2)) == t("core.free_throw_before", lang)
        app.show_notice(t("core.free_throw_before", lang), seconds=6, info=True, screen=app.mode)
        app.frame(0.03, [])
        pygame.image.save(app.display.window, str(out_dir / f"free_play_before_{lang}_{size[0]}.png"))
        assert app.session.engine.rolls == [] and app.session.error is None
        assert _rest(app, _reading([1, 1, 4], dx=200)) is None  # thrown
        assert app.session.engine.rolls == [[1, 1, 4]]
    app = _free_play(tmp_path / "thrown", lang, before=None)
    app.mode.tray_moving = True  # the tray seen moving as the screen opened: dice thrown
    _rest(app, _reading([3, 3, 5]))
    assert app.session.engine.rolls == [[3, 3, 5]]
    app = _free_play(tmp_path / "put", lang, before=None)  # free play chosen, the tray read before: no new rest
    app.mode.on_tray(TrayMotion("moving", 0.2, 100.0))  # dice put in quickly (too short for the sign)
    app.mode.on_tray(TrayMotion("settling", 0.2, 100.2))
    _rest(app, _reading([6, 1, 2]))
    assert app.session.engine.rolls == [[6, 1, 2]]


def test_free_play_kept_before_rolls_said_where_their_dice_lay_counts_the_tray_no_more(tmp_path):
    """Free play saved by a version whose rolls did not say where their dice lay: the first restart after the update
    had nothing to compare the dice in the tray with and counted them once more. What lies there at switch-on is the
    picture before, as in a fresh free play; dice thrown since are a roll."""
    app = _free_play(tmp_path)
    app.session.apply({"action": "roll", "dice": [4, 3, 6]})  # as the older version kept it: no "boxes"
    app = _free_play(tmp_path, before=None)  # the update, switched on again over those dice
    assert app.session.engine.rolls == [[4, 3, 6]]
    assert _rest(app, _reading([4, 3, 6])) is None
    assert app.session.engine.rolls == [[4, 3, 6]] and app.session.error is None
    _press(app, Button.ROLL)
    assert _rest(app, _reading([4, 3, 6], dx=3)) == t("core.free_throw_before", "de")
    assert _rest(app, _reading([5, 3, 6], dx=60)) is None
    assert app.session.engine.rolls == [[4, 3, 6], [5, 3, 6]]


def test_free_play_switched_on_over_dice_moved_while_it_was_off_counts_them_no_roll(tmp_path):
    """Free play read a roll, the companion was switched off, the dice were played with and left elsewhere: the first
    rest at switch-on was counted as a roll, though a fresh free play takes the dice lying there as the picture
    before. They are the picture before here too; the last roll's dice still where they lay are that roll's, as
    before; dice thrown afterwards are a roll."""
    app = _free_play(tmp_path / "moved")
    _rest(app, _reading([4, 3, 6]))
    assert app.session.engine.rolls == [[4, 3, 6]]
    app = _free_play(tmp_path / "moved", before=None)  # switched on again over dice lying elsewhere
    assert _rest(app, _reading([2, 5, 1], dx=150)) is None
    assert app.session.engine.rolls == [[4, 3, 6]] and app.session.error is None
    _press(app, Button.ROLL)  # no throw: the same dice read again where they lay
    assert _rest(app, _reading([2, 5, 1], dx=152)) == t("core.free_throw_before", "de")
    assert app.session.engine.rolls == [[4, 3, 6]]
    assert _rest(app, _reading([6, 6, 2], dx=40)) is None  # thrown
    assert app.session.engine.rolls == [[4, 3, 6], [6, 6, 2]]
    assert _rest(app, _reading([6, 6, 2], dx=41)) is None  # that roll read again where it lay: no roll
    assert app.session.engine.rolls == [[4, 3, 6], [6, 6, 2]]
    app = _free_play(tmp_path / "kept")
    _rest(app, _reading([4, 3, 6]))
    app = _free_play(tmp_path / "kept", before=None)  # switched on over the last roll's dice where they lay
    _press(app, Button.ROLL)
    assert _rest(app, _reading([4, 3, 6], dx=2)) == t("core.free_throw_first", "de")
    assert app.session.engine.rolls == [[4, 3, 6]]


def test_an_empty_tray_at_rest_is_no_error_unless_roll_asked_for_dice(tmp_path):
    """Switched on with an empty tray, or the tray cleared: "No dice seen" stood red at every switch-on."""
    app = _free_play(tmp_path)
    assert _rest(app, TrayReading(())) is None
    assert app.session.error is None
    _press(app, Button.ROLL)
    assert _rest(app, TrayReading(())) == t("core.free_no_dice", "de")


@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_start_screen_with_a_camera_says_to_throw_not_to_press_roll(tmp_path, monkeypatch, lang):
    """"Put the dice in the tray, then press ROLL" read the dice twice with a camera: once at rest, again after ROLL
    (the second was a roll too). With a camera the screen says the dice are read once they lie still, on two lines
    read across the table rather than one small one."""
    from companion.views import theme

    app = _free_play(tmp_path, lang)
    with recording_texts(monkeypatch) as drawn:
        app.mode.draw(app.display.canvas)
    words = " ".join(s for s, size, _ in drawn if size >= theme.FAR)
    assert t("core.free_throw_dice", lang) in words
    app.session.camera_ready = False  # virtual dice: ROLL throws them
    with recording_texts(monkeypatch) as drawn:
        app.mode.draw(app.display.canvas)
    assert t("core.free_press_roll", lang) in [s for s, _, _ in drawn]


@pytest.mark.parametrize("lang", ["de", "en"])
def test_a_read_on_its_way_after_roll_is_shown(tmp_path, monkeypatch, out_dir, lang):
    """After ROLL the old roll stood unchanged until the new reading (a taught emblem: seconds): the row is dimmed
    and the sum line says the dice are awaited, at a size read across the table."""
    from companion.views import theme

    for size in ((800, 480), (1280, 720)):
        app = _free_play(tmp_path / f"{size[0]}", lang, size)
        _rest(app, _reading([2, 5, 6]))
        _press(app, Button.ROLL)
        with recording_texts(monkeypatch) as drawn:
            app.frame(0.03, [])
        waiting = t("core.free_waiting", lang)
        assert [s for s, size_, _ in drawn if s == waiting and size_ >= theme.FAR]
        assert app.mode.dice.dimmed == {0, 1, 2}
        assert t("core.free_sum", lang, sum=13) not in [s for s, _, _ in drawn]
        pygame.image.save(app.display.window, str(out_dir / f"free_play_waiting_{lang}_{size[0]}.png"))
        _rest(app, _reading([1, 1, 1], dx=200))
        app.frame(0.03, [])
        assert not app.mode.dice.dimmed


@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_highlighted_die_is_shown_as_the_camera_saw_it(tmp_path, out_dir, lang):
    """A die read wrongly but for sure: NEXT along the row showed nothing of where that die lies in the tray; the
    camera's picture came only once the picker was open."""
    from companion.views.free_play_view import PICTURE_PLACE

    app = _free_play(tmp_path, lang)
    frame = np.zeros((480, 640, 3), np.uint8)
    for (x0, y0, x1, y1), bgr in zip(BOXES, [(0, 0, 255), (0, 255, 0), (255, 0, 0)], strict=True):
        frame[y0:y1, x0:x1] = bgr  # red, green and blue dice
    _rest(app, _reading([1, 2, 3]), frame)
    surface = app.display.canvas
    for die, rgb in ((0, (255, 0, 0)), (1, (0, 255, 0))):
        _press(app, Button.NEXT)
        assert app.mode.cursor == die
        app.mode.draw(surface)
        assert tuple(surface.get_at(PICTURE_PLACE.center))[:3] == rgb
        rects = app.mode.dice.die_rects()
        assert not any(r.colliderect(PICTURE_PLACE) for r in rects)  # the row beside it, all of it
        assert app.mode.dice.hit(rects[2].center) == 2
    app.frame(0.03, [])
    pygame.image.save(app.display.window, str(out_dir / f"free_play_cursor_picture_{lang}.png"))
    _press(app, Button.NEXT)
    _press(app, Button.NEXT)  # the "+": no die there to show
    assert app.mode.cursor == 3
    app.mode.draw(surface)
    assert app.mode.dice.rect.x == 20


def test_a_corrected_die_is_kept_as_an_example_in_free_play(tmp_path):
    """Free play never kept an answer: its picker did not call ``confirm_face``."""
    app = _free_play(tmp_path)
    learned: list[tuple[int, object]] = []
    app.session.learn = lambda index, face: learned.append((index, face))
    _rest(app, _reading([4, None, 6]))
    app.mode._open_picker(1)
    app.mode._choose(6)  # the unsure die
    app.mode._open_picker(0)
    app.mode._choose(4)  # read right after all: nothing to teach
    app.mode._open_picker(2)
    app.mode._choose(5)  # read wrongly
    assert learned == [(1, 6), (2, 5)]
    assert app.session.engine.last == [4, 6, 5]


def test_free_play_keeps_answers_about_a_taught_d6_face_only(tmp_path, monkeypatch):
    """A d6 whose 6 is an emblem is taught; its answers were never kept (``_camera_reads`` returned for d6 before it
    set ``learn``). A pip face's answer is not kept: the pip reader reads it untaught, and examples slow reads."""
    from companion import dicesets, teach
    from vision.taught import DIM, Profile

    app = _free_play(tmp_path)
    profile = Profile("d6", ["6", "6"], np.ones((2, DIM), np.float32))
    monkeypatch.setattr(teach, "load_for_reading", lambda name: (dicesets.load("d6"), profile))
    kept: list[tuple[int, object]] = []
    monkeypatch.setattr(app, "_learn", lambda dice_set, index, face: kept.append((index, face)))
    assert app._camera_reads("d6")
    assert app.session.learn is not None
    app.session.learn(0, 6)
    app.session.learn(1, 3)
    assert kept == [(0, "6")]


def test_teaching_d6_from_photos_leaves_out_pip_faces_the_pip_reader_reads(tmp_path, monkeypatch, datasets):
    """``teach d6 --examples`` taught labelled pip faces without a word: they need no teaching, and every example
    slows every reading. A face the pip reader reads as labelled is left out and said; one it does not read so (an
    emblem 6) is taught."""
    from companion import teach

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    images = datasets / "matteo-d6" / "images"
    rows = [("two_1.jpg", 2, (0.595313, 0.502083, 0.667187, 0.585417)),
            ("four_1.jpg", 4, (0.443751, 0.39375, 0.534376, 0.50625)),
            ("four_10.jpg", 6, (0.454687, 0.46875, 0.520312, 0.533334))]  # a 4 as an emblem 6
    folder = tmp_path / "examples"
    folder.mkdir()
    (folder / "labels.csv").write_text("image,face,x_min,y_min,x_max,y_max\n" + "".join(
        f"{images / name},{face},{x0},{y0},{x1},{y1}\n" for name, face, (x0, y0, x1, y1) in rows))
    report = teach.teach_from_examples("d6", folder, save=False, lang="en")
    assert report.added == 1
    assert t("teach.ex_pips_read", "en", n=2, faces="2, 4") in report.notes


@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_start_screen_without_a_camera_says_press_roll_not_throw_into_the_tray(tmp_path, monkeypatch, lang):
    """With no camera the built-in tray stands in and reads like a camera (``camera_ready``), and the screen said
    "Throw the dice into the tray: they are read when they lie still" on a laptop with no tray: nothing happened
    until someone tried ROLL. The built-in tray is thrown by ROLL, and the screen says so; a camera's tray is not."""
    from companion.views import theme

    cfg = Config()
    cfg.language = lang
    app = App(cfg, state_dir=tmp_path, display=Display((800, 480), fullscreen=False), source_spec="synthetic:3",
              start_free_play=True)
    try:
        assert app.session.camera_ready  # the tray reads like a camera
        with recording_texts(monkeypatch) as drawn:
            app.mode.draw(app.display.canvas)
        words = " ".join(s for s, size, _ in drawn if size >= theme.FAR)
        assert t("core.free_roll_tray", lang) in words
        assert t("core.free_throw_dice", lang) not in words
        app.watcher.source = app.source = object()  # a camera found later (``_camera_found``): thrown by hand
        with recording_texts(monkeypatch) as drawn:
            app.mode.draw(app.display.canvas)
        assert t("core.free_throw_dice", lang) in " ".join(s for s, size, _ in drawn if size >= theme.FAR)
    finally:
        app.watcher.source = app.source = None
        app.close()
