"""Free play with a camera, between the readings: ROLL's answer that is no roll (the dice read already, the tray
empty) is a notice in the panel's colours, not the red of an error; dice thrown without ROLL show a read on its way
from the tray's motion (the dice watcher's, handed over by the app), a hand passing over the tray shows nothing.

The watcher runs its own thread on a fake clock; the test hands it its frames one by one and waits until it has fed
each to the at-rest trigger, so the app's frames see the tray as a camera's twenty frames a second show it."""

from __future__ import annotations

import queue
import threading
import time
from pathlib import Path

import numpy as np
import pygame
import pytest
from drawn_texts import recording_texts
from synth_dice import with_hand
from test_free_play_reads import _free_play, _press, _reading, _rest

from companion.app import App
from companion.config import Config
from companion.display import Display
from companion.i18n import t
from companion.views import theme
from companion.watcher import NO_FRAMES, DiceWatcher, TrayMotion
from hardware.events import Button
from hardware.synthetic import render_tray
from vision.types import TrayReading

FPS = 20.0


@pytest.mark.parametrize("lang", ["de", "en"])
def test_roll_on_dice_read_already_is_a_notice_not_an_error(tmp_path, out_dir, lang):
    """ROLL with no throw: "These dice are read already" stood in the error's red strip, with its warning sign, until
    the next roll; a family that pressed ROLL once too often was told something had gone wrong. So was ROLL on an
    empty tray. Both are the panel's notice now, gone with the next roll."""
    for size in ((800, 480), (1280, 720)):
        app = _free_play(tmp_path / f"{size[0]}", lang, size)
        app.watcher.readings.put(_reading([2, 5, 6]))
        app.frame(0.03, [])
        for reading, key in ((_reading([2, 5, 6], dx=3), "core.free_throw_first"),
                             (TrayReading(()), "core.free_no_dice")):
            _press(app, Button.ROLL)
            app.watcher.readings.put(reading)
            app.frame(0.03, [])
            assert app.session.error is None
            assert app.notice == t(key, lang) and app.notice_tone == "info"
            rect, words, kind = app._strip
            assert (words, kind) == (t(key, lang), "notice")
            strip = app.display.canvas.get_at((rect.left + 4, rect.centery))[:3]
            assert strip == theme.PANEL_HI[:3] and strip != theme.BAD_DARK[:3]
            pygame.image.save(app.display.window, str(out_dir / f"free_play_{key[5:]}_{lang}_{size[0]}.png"))
        assert len(app.session.engine.rolls) == 1
        app.watcher.readings.put(_reading([1, 1, 1], dx=200))  # thrown: a new roll, the notice goes
        app.frame(0.03, [])
        assert len(app.session.engine.rolls) == 2 and app._strip is None


def test_a_reading_not_asked_for_says_nothing(tmp_path):
    """The same dice read again after an arm over the tray, an empty tray at rest: no ROLL, nothing to answer."""
    app = _free_play(tmp_path)
    assert _rest(app, _reading([2, 5, 6])) is None
    for reading in (_reading([2, 5, 6], dx=3), TrayReading(())):
        app.watcher.readings.put(reading)
        app.frame(0.03, [])
        assert app.session.error is None and app._strip is None


class _Stepped:
    """A camera whose frames the test hands over one at a time on a fake clock, a twentieth of a second apart."""

    def __init__(self, clock: list[float]) -> None:
        self.clock = clock
        self.frames: queue.Queue[np.ndarray] = queue.Queue()
        self.lock = threading.Lock()
        self.given = self.done = 0

    def roll(self) -> None:
        pass

    def read(self) -> np.ndarray | None:
        with self.lock:
            self.done = self.given  # the watcher is back for a frame: it is through with the one before
        try:
            frame = self.frames.get(timeout=0.02)
        except queue.Empty:
            return None
        self.clock[0] += 1 / FPS
        with self.lock:
            self.given += 1
        return frame

    def show(self, frame: np.ndarray) -> None:
        """One frame, fed to the trigger (and read, where due) before this returns."""
        with self.lock:
            target = self.given + 1
        self.frames.put(frame)
        deadline = time.monotonic() + 10.0
        while time.monotonic() < deadline:
            with self.lock:
                if self.done >= target:
                    return
            time.sleep(0.002)
        raise AssertionError("the watcher did not take the frame")


class _Table:
    """Free play over a watcher with its real at-rest trigger, the tray shown frame by frame; what lies in it is
    ``dice`` (the reader's answer, as the pip reader's for the photos shown)."""

    def __init__(self, tmp_path: Path, lang: str = "de", size: tuple[int, int] = (800, 480)) -> None:
        self.clock = [100.0]
        cfg = Config()
        cfg.language = lang
        cfg.display.width, cfg.display.height = size
        self.app = App(cfg, state_dir=tmp_path, display=Display(size, fullscreen=False), use_camera=False,
                       start_free_play=True, clock=lambda: self.clock[0])
        self.app.session.camera_ready = True
        self.source = _Stepped(self.clock)
        self.dice = TrayReading(())
        self.watcher = DiceWatcher(self.source, lambda frame: self.dice, still_seconds=0.5, clock=lambda: self.clock[0])
        self.app.watcher, self.app.source = self.watcher, self.source
        self.app.session.want_dice = self.watcher.request
        self.watcher.start()

    def show(self, frames: list[np.ndarray]) -> list[bool]:
        """Each frame shown, then the app's frame: whether the screen showed a read on its way then."""
        shown = []
        for frame in frames:
            self.source.show(frame)
            self.app.frame(1 / FPS, [])
            shown.append(self.waits())
        return shown

    def first_roll(self, tray: np.ndarray, dice: TrayReading) -> None:
        """The tray empty at switch-on (what lay in it then is no throw), then ``dice`` thrown in: the first roll."""
        empty = np.full((480, 640, 3), (40, 110, 50), np.uint8)
        self.show([empty] * 20)
        self.dice = dice
        self.show(_thrown(empty, tray))
        assert self.app.session.engine.rolls == [[d.face for d in dice.dice]]

    def waits(self) -> bool:
        app = self.app
        with recording_texts(pytest.MonkeyPatch()) as drawn:
            app.mode.draw(app.display.canvas)
        sign = [s for s, size, _ in drawn if s == t("core.free_waiting", app.lang) and size >= theme.FAR]
        if app.session.engine.rolls:
            assert bool(sign) == bool(app.mode.dice.dimmed)  # the row greyed with it
        return bool(sign)

    def close(self) -> None:
        self.watcher.stop()


def _thrown(tray: np.ndarray, landed: np.ndarray, seconds: float = 1.0) -> list[np.ndarray]:
    """Dice rolling for ``seconds`` (each frame unlike the one before), then lying still as ``landed``."""
    return [np.roll(tray, 9 * (k % 2 + 1), axis=1) for k in range(int(seconds * FPS))] + [landed] * 20


def _hand_passing(tray: np.ndarray, seconds: float) -> list[np.ndarray]:
    """A hand moving over the tray for ``seconds``, then the tray as it was."""
    return [np.roll(with_hand(tray), 25 * k, axis=1) for k in range(int(seconds * FPS))] + [tray] * 20


@pytest.mark.parametrize("lang", ["de", "en"])
def test_dice_thrown_without_roll_show_a_read_on_its_way(tmp_path, out_dir, lang):
    """Thrown without ROLL, the dice showed nothing until they were read: the old roll stood as if the screen had
    not seen the throw. Now the row is greyed and "waiting for the dice" stands under it from half a second into the
    throw until the reading; on the start screen the big line says so."""
    table = _Table(tmp_path, lang)
    try:
        tray, landed = render_tray(3, n_dice=3)[0], render_tray(8, n_dice=3)[0]
        table.dice = _reading([2, 5, 6])
        assert not any(table.show([tray] * 20))  # switched on over a still tray: read once, no sign
        assert table.app.session.engine.rolls == []  # what lay there before is no throw (``test_free_play_reads``)
        # thrown: other places (all moved by one offset, the same faces would be the tray pushed: no throw)
        table.first_roll(tray, _reading([2, 5, 6], boxes=[(150, 120, 210, 180), (400, 200, 460, 260),
                                                          (520, 320, 580, 380)]))
        table.dice = _reading([1, 4, 4], dx=200)  # what the camera reads once the dice lie still again
        shown = table.show(_thrown(tray, landed))
        assert shown[:int(0.4 * FPS)] == [False] * int(0.4 * FPS)  # not at the first frames of motion
        assert shown[int(0.6 * FPS)]
        first = shown.index(True)
        last = len(shown) - 1 - shown[::-1].index(True)
        assert all(shown[first:last + 1])  # no blinking while the dice roll and settle
        assert table.app.session.engine.rolls == [[2, 5, 6], [1, 4, 4]] and not shown[-1]
        read_at = next(k for k in range(len(shown)) if k > last)
        assert read_at <= int(FPS * (1.0 + 0.5)) + 2  # gone with the reading (half a second's stillness)
        frames = _thrown(landed, tray)
        table.show(frames[:15])
        table.app.frame(0.03, [])
        pygame.image.save(table.app.display.window, str(out_dir / f"free_play_thrown_{lang}.png"))
    finally:
        table.close()


def test_the_start_screen_shows_a_throw_and_an_empty_tray_drops_it(tmp_path):
    """No roll yet: the big line says the dice are awaited while they roll. A hand over the empty tray a while
    shows the same, and the empty tray's reading ends it without a word (no ROLL asked)."""
    table = _Table(tmp_path)
    try:
        empty = np.full((480, 640, 3), (40, 110, 50), np.uint8)
        assert not any(table.show([empty] * 20))
        shown = table.show(_hand_passing(empty, 1.0))
        assert any(shown) and not shown[-1]
        assert table.app.session.error is None and table.app._strip is None
        tray = render_tray(3, n_dice=3)[0]
        table.dice = _reading([3, 3, 5])
        shown = table.show(_thrown(tray, tray))  # (the empty tray rolled is the same picture)
        assert any(shown) and not shown[-1] and table.app.session.engine.rolls == [[3, 3, 5]]
    finally:
        table.close()


def test_a_hand_passing_over_the_tray_shows_nothing(tmp_path):
    """A hand reaching over the tray for a fifth of a second greyed the roll and said "waiting" for a blink: the
    sign waits for half a second of motion. The dice read again where they lay are no new roll."""
    table = _Table(tmp_path)
    try:
        tray = render_tray(3, n_dice=3)[0]
        table.first_roll(tray, _reading([2, 5, 6]))
        for _ in range(3):
            assert not any(table.show(_hand_passing(tray, 0.2)))
        assert table.app.session.engine.rolls == [[2, 5, 6]]
    finally:
        table.close()


def test_roll_then_a_throw_shows_one_sign_and_a_stopped_camera_ends_it(tmp_path):
    """ROLL, then the throw: the sign stands from the press to the reading, as before. A camera that stops sending
    mid-throw leaves no sign standing for ever (the app says the camera sends nothing)."""
    table = _Table(tmp_path)
    try:
        tray, landed = render_tray(3, n_dice=3)[0], render_tray(8, n_dice=3)[0]
        table.first_roll(tray, _reading([2, 5, 6]))
        _press(table.app, Button.ROLL)
        table.dice = _reading([6, 6, 1], dx=200)
        shown = table.show(_thrown(tray, landed))
        first_false = shown.index(False)
        assert all(shown[:first_false]) and not any(shown[first_false:])
        assert len(table.app.session.engine.rolls) == 2
        table.show(_thrown(landed, tray)[:15])  # rolling: the sign stands
        assert table.waits()
        table.clock[0] += NO_FRAMES + 0.1  # and no frame since
        table.app.frame(1 / FPS, [])
        table.clock[0] += 1.0
        table.app.frame(1 / FPS, [])
        assert not table.waits()
    finally:
        table.close()


def test_the_watcher_says_what_the_tray_does():
    """The state the app hands to free play: moving, a hand, settling, still (read); seconds of motion counted since
    the last reading; still when no frame came for a while."""
    clock = [0.0]
    source = _Stepped(clock)
    watcher = DiceWatcher(source, lambda frame: TrayReading(), still_seconds=0.5, clock=lambda: clock[0]).start()
    try:
        tray = render_tray(3, n_dice=3)[0]
        assert watcher.tray(clock[0]).state == "still"  # no frame yet
        seen = []
        for frame in [tray] * 15 + [np.roll(tray, 9 * (k % 2 + 1), axis=1) for k in range(10)] + [tray] * 3:
            source.show(frame)
            seen.append(watcher.tray(clock[0]))
        assert seen[0].state == "settling" and seen[14].state == "still"
        assert {m.state for m in seen[15:25]} == {"moving"}
        assert seen[24].moved == pytest.approx(0.5) and seen[24].since == pytest.approx(seen[15].since)
        assert seen[-1].state == "settling" and seen[-1].moved == seen[-2].moved
        for _ in range(3):
            source.show(with_hand(tray))
        assert watcher.tray(clock[0]).state == "hand"
        assert watcher.tray(clock[0] + NO_FRAMES + 0.1) == TrayMotion("still", since=clock[0] + NO_FRAMES)
    finally:
        watcher.stop()


def test_roll_pressed_again_and_again_while_the_dice_settle_reads_them_once(tmp_path):
    """ROLL, the throw, and ROLL pressed again every 0.4 s while the dice roll and after: each press started the
    wait for rest afresh, so the dice were never read while the pressing went on. The wait runs on now: the dice are
    read half a second after they lie still, once, and the sign stands from the first press to the reading."""
    table = _Table(tmp_path)
    try:
        tray, landed = render_tray(3, n_dice=3)[0], render_tray(8, n_dice=3)[0]
        table.first_roll(tray, _reading([2, 5, 6]))
        table.dice = _reading([6, 6, 1], dx=200)
        frames = _thrown(tray, landed, seconds=1.0) + [landed] * 20
        shown, read_at = [], None
        for k, frame in enumerate(frames):
            if k % int(0.4 * FPS) == 0 and read_at is None:
                _press(table.app, Button.ROLL)
                if k == 0:
                    asked_at = table.watcher.wanted_since
                assert table.watcher.wanted_since == asked_at  # "why no reading" not put off by the presses
            shown += table.show([frame])
            if read_at is None and len(table.app.session.engine.rolls) == 2:
                read_at = k
        assert read_at is not None, "never read"
        assert read_at <= int(1.0 * FPS) + int(0.5 * FPS) + 2  # half a second after the dice lay still
        assert all(shown[:read_at]) and not any(shown[read_at:])
        assert table.app.session.engine.rolls == [[2, 5, 6], [6, 6, 1]] and table.app._strip is None
    finally:
        table.close()
