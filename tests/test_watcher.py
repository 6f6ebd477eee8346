"""The dice watcher: camera and reader in their own thread, readings handed over when the dice settle."""

from __future__ import annotations

import queue
import threading
import time
from collections import Counter
from types import SimpleNamespace

import cv2
import numpy as np
import pytest

from companion.watcher import DiceWatcher
from hardware.sources import FrameSource
from hardware.synthetic import SyntheticTray, render_tray
from vision.pips import read_dice
from vision.types import DieReading, TrayReading


def _next(watcher: DiceWatcher, timeout: float = 15.0):
    return watcher.readings.get(timeout=timeout)


@pytest.mark.parametrize("seed", [3, 11])
def test_roll_on_the_synthetic_tray_delivers_one_reading_of_the_new_dice(seed):
    tray = SyntheticTray(rng_seed=seed, n_dice=4)
    tray.open()
    watcher = DiceWatcher(tray, read_dice, still_seconds=0.3)
    watcher.auto = False
    watcher.start()
    try:
        first_throw = tray.throws
        watcher.request()
        reading = _next(watcher)
        assert tray.throws == first_throw + 1 and not tray.rolling
        # what the watcher hands over is the reading of the settled new dice (how right the reader is, is the
        # reader's own benchmark): the same faces read from the still frame on screen now
        still = watcher.latest_frame
        assert Counter(reading.faces) == Counter(read_dice(still).faces)
        assert len(reading.dice) >= 3
        with pytest.raises(queue.Empty):  # once per rest, not again while the dice lie still
            watcher.readings.get(timeout=1.0)
    finally:
        watcher.stop()
        tray.close()


class _Flaky:
    """A camera that fails for its first half second, then shows an empty tray."""

    def __init__(self) -> None:
        self.calls = 0
        self.until = time.monotonic() + 0.5

    def roll(self) -> None:
        pass

    def read(self):
        self.calls += 1
        time.sleep(0.01)
        if time.monotonic() < self.until:
            raise OSError("USB camera unplugged")
        return np.full((120, 160, 3), 90, np.uint8)


def test_a_camera_hiccup_is_reported_and_the_watcher_keeps_going():
    source = _Flaky()
    watcher = DiceWatcher(source, read_dice, still_seconds=0.1).start()
    try:
        deadline = time.monotonic() + 5
        seen_error = False
        while time.monotonic() < deadline and source.calls < 40:
            seen_error = seen_error or watcher.error == "USB camera unplugged"
            time.sleep(0.005)
        assert seen_error
        assert source.calls >= 40, "the watcher stopped after the error"
        assert watcher.error is None  # cleared once frames came again
        reading = _next(watcher, 5)  # auto mode: the empty tray's rest is delivered
        assert reading.dice == ()
    finally:
        watcher.stop()


class _Shown:
    """A camera showing whatever frame the test puts before it (None: it sends nothing)."""

    def __init__(self, frame) -> None:
        self.frame = frame

    def roll(self) -> None:
        pass

    def read(self):
        time.sleep(0.01)
        return None if self.frame is None else self.frame.copy()


def _until(condition, seconds: float = 5.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.01)
    return False


def test_a_reading_long_in_coming_says_why():
    """ROLL pressed and no dice read after a while: the screen says why (``App.draw``). A tray that does not keep
    still, a hand held in it, a camera that sends nothing (a Pi camera hangs rather than fail)."""
    from synth_dice import with_hand

    from hardware.synthetic import render_tray
    from vision.types import TrayReading

    tray, _ = render_tray(3, n_dice=3)  # (seed 5's table is the hand's colour: no hand to see there)
    source = _Shown(tray)
    watcher = DiceWatcher(source, lambda frame: TrayReading(), still_seconds=0.1)
    watcher.auto = False
    watcher.start()
    try:
        assert _until(lambda: not watcher._trigger.armed)  # the quiet tray was read once: the hand's reference
        source.frame = with_hand(tray)
        assert _until(lambda: watcher._trigger.hand_seen)
        watcher.request(roll=False)
        assert watcher.why_waiting(time.monotonic()) is None  # not late yet
        watcher.wanted_since -= 6
        assert watcher.why_waiting(time.monotonic()) == "hand"
        frames = iter(range(10**6))
        shaking = type("Shaking", (), {"roll": lambda self: None,
                                       "read": lambda self: (time.sleep(0.01), np.roll(tray, 9 * (next(frames) % 2),
                                                                                       axis=1))[1]})()
        watcher.source = shaking  # a die rolling, a shadow moving: never still
        assert _until(lambda: watcher._trigger.moving and watcher.why_waiting(time.monotonic()) == "moving")
        watcher.source = source
        source.frame = None  # the camera stops sending
        assert _until(lambda: watcher.why_waiting(time.monotonic()) == "no_frames", 5.0)
        source.frame = tray  # still again, no hand: the reading comes, nothing to explain
        assert _until(lambda: not watcher.readings.empty())
        assert watcher.why_waiting(time.monotonic()) is None
    finally:
        watcher.stop()


def test_a_reading_asked_for_and_cancelled_is_not_delivered():
    """The game that asked was left (main menu): the dice settling later must not arrive in the next game."""
    from hardware.synthetic import render_tray
    from vision.types import TrayReading

    tray, _ = render_tray(3, n_dice=3)
    frames = iter(range(10**6))
    source = _Shown(tray)
    shaking = type("Shaking", (), {"roll": lambda self: None,
                                   "read": lambda self: (time.sleep(0.01), np.roll(tray, 9 * (next(frames) % 2),
                                                                                   axis=1))[1]})()
    watcher = DiceWatcher(shaking, lambda frame: TrayReading(), still_seconds=0.1)
    watcher.auto = False
    watcher.start()
    try:
        watcher.request(roll=False)
        assert _until(lambda: watcher._trigger.moving)
        watcher.cancel()
        watcher.source = source  # the dice settle
        assert _until(lambda: not watcher._trigger.armed)  # read at rest...
        with pytest.raises(queue.Empty):
            watcher.readings.get(timeout=0.5)  # ...and not delivered
    finally:
        watcher.stop()


class _Photos:
    """A replay whose frames show which photo they are (their grey level); each read takes a while, as a camera's
    does, so a frame of the old photo is still on its way when ROLL is carried out."""

    def __init__(self) -> None:
        self.photo = 10

    def roll(self) -> None:
        self.photo += 10

    def read(self):
        shown = self.photo
        time.sleep(0.03)
        return np.full((60, 80, 3), shown, np.uint8)


def test_a_throw_is_counted_once_the_latest_frame_shows_it():
    """``thrown`` tells a screen that compares frames (teaching) when to start afresh: counted at the roll itself,
    the frame of the old photo that was on its way would be taken as the new tray's."""
    watcher = DiceWatcher(_Photos(), lambda frame: None, still_seconds=0.1).start()
    try:
        assert _until(lambda: watcher.latest_frame is not None)
        for n in (1, 2, 3):
            watcher.throw()
            assert _until(lambda n=n: watcher.thrown >= n)
            assert watcher.thrown == n and int(watcher.latest_frame[0, 0, 0]) == 10 + 10 * n
    finally:
        watcher.stop()


class _HeldPhotos(_Photos):
    """``_Photos`` whose read can be held open: ROLL pressed while the watcher is reading a frame of the old photo."""

    def __init__(self) -> None:
        super().__init__()
        self.go = threading.Event()
        self.go.set()
        self.reading_now = threading.Event()

    def read(self):
        shown = self.photo
        self.reading_now.set()
        self.go.wait(timeout=5)
        time.sleep(0.005)
        return np.full((60, 80, 3), shown, np.uint8)


def test_roll_pressed_while_a_frame_of_the_old_dice_is_read_delivers_the_new_dice():
    """ROLL wants a reading of the dice it throws. Wanted at the press, the frame of the old dice the watcher was
    reading then found the want, and as the old dice lay at rest, their reading was handed over as the throw's (seen
    once in an evening's 25 ROLLs on the built-in tray: the game played the dice before again)."""
    photos = _HeldPhotos()

    def reader(frame: np.ndarray) -> TrayReading:
        return TrayReading((DieReading(str(int(frame[0, 0, 0])), 0.9, (0, 0, 10, 10)),))

    watcher = DiceWatcher(photos, reader, still_seconds=0.1)
    watcher.auto = False
    watcher.start()
    try:
        assert _until(lambda: watcher.last_rest is not None and not watcher._trigger.armed)  # photo 10 at rest
        photos.go.clear()
        photos.reading_now.clear()
        assert photos.reading_now.wait(timeout=5)  # a frame of photo 10 on its way
        watcher.request()
        photos.go.set()
        assert _next(watcher, 5.0).faces == ["20"]
    finally:
        photos.go.set()
        watcher.stop()


def test_a_camera_the_lookout_finds_replaces_the_built_in_tray():
    """``auto`` found no camera at the start; one plugged in later is read from, the tray it replaces closed, and a
    reading wanted meanwhile comes from the camera's dice, not from the virtual dice seen before."""
    from hardware.synthetic import render_tray

    virtual, _ = render_tray(3, n_dice=3)
    real, _ = render_tray(8, n_dice=2)
    tray, camera = _Shown(virtual), _Shown(real)
    tray.closed = False
    tray.close = lambda: setattr(tray, "closed", True)

    class Lookout:
        found = None

        def poll(self):
            return self.found

    def reader(frame):
        n = 2 if (frame == real).all() else 3
        return TrayReading(tuple(DieReading(1, 0.9, (40 * i, 0, 40 * i + 30, 30)) for i in range(n)))

    watcher = DiceWatcher(tray, reader, still_seconds=0.1)
    watcher.auto = False
    watcher.lookout = lookout = Lookout()
    watcher.start()
    try:
        assert _until(lambda: watcher.last_rest is not None)
        assert len(watcher.last_rest.dice) == 3 and watcher.source is tray
        lookout.found = camera
        assert _until(lambda: watcher.source is camera)
        watcher.request(roll=False)
        assert len(_next(watcher, 5.0).dice) == 2  # the camera's two dice
        assert tray.closed and watcher.lookout is None  # looked for no more
    finally:
        watcher.stop()


def test_roll_pressed_again_while_its_reading_is_awaited_keeps_the_wait():
    """A child pressing ROLL again and again until the dice are read: each press started the wait for rest afresh
    (and threw the built-in tray's dice again), so presses quicker than the tray settles never got a reading, and
    "why no reading" was put off with each. A press while the reading is awaited now leaves the wait running: the
    reading comes as long after the first press as after a single one. Once it came, ROLL asks anew."""
    from test_free_play_motion import FPS, _Stepped

    from hardware.synthetic import render_tray

    clock = [0.0]
    source = _Stepped(clock)
    source.rolls = 0
    source.roll = lambda: setattr(source, "rolls", source.rolls + 1)  # a tray ROLL throws, as the built-in one
    watcher = DiceWatcher(source, lambda frame: TrayReading((DieReading(4, 0.9, (0, 0, 10, 10)),)),
                          still_seconds=0.5, clock=lambda: clock[0])
    watcher.auto = False
    watcher.start()
    try:
        tray = render_tray(3, n_dice=3)[0]
        for _ in range(20):
            source.show(tray)  # read once at rest: nothing wanted then
        assert watcher.readings.empty() and not watcher._trigger.armed
        got: list[float] = []
        pressed_at = clock[0]
        for k in range(int(3 * FPS)):  # ROLL every 0.4 s for three seconds
            if k % int(0.4 * FPS) == 0:
                watcher.request()
            source.show(tray)
            while not watcher.readings.empty():
                watcher.readings.get_nowait()
                got.append(clock[0])
        assert got, "never read"
        assert got[0] - pressed_at <= 0.5 + 3 / FPS  # as after one press: half a second's stillness
        assert len(got) >= 3  # once read, ROLL asks anew
        pending = watcher.wanted_since is not None
        assert source.rolls == len(got) + pending  # one throw a reading asked for, not one a press
    finally:
        watcher.stop()


# -- the watcher's loop stepped frame by frame on a fake clock, as the camera audit ran it (a hand held still, a
# lamp switched off, a webcam reconnected): every case bounded by the seconds it plays

class _Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


class _Once:
    """The watcher's stop event for one pass of its loop."""

    def __init__(self) -> None:
        self.n = 0

    def is_set(self) -> bool:
        self.n += 1
        return self.n > 1


class _Scene(FrameSource):
    """A camera (ROLL throws nothing) showing whatever frame the test puts before it; None: it sends nothing."""

    def __init__(self, frame: np.ndarray | None, clock: _Clock) -> None:
        super().__init__(clock=clock)
        self.frame = frame

    @property
    def description(self) -> str:
        return "a scene"

    def _open(self) -> None:
        pass

    def _read(self) -> np.ndarray | None:
        return None if self.frame is None else self.frame.copy()


def _stepped(monkeypatch, source, clock: _Clock, *, auto: bool) -> DiceWatcher:
    """A watcher whose loop ``_play`` runs one pass at a time; its sleeps move the fake clock."""
    import companion.watcher as watcher_module

    monkeypatch.setattr(watcher_module, "time",
                        SimpleNamespace(sleep=lambda s: setattr(clock, "now", clock.now + s), monotonic=clock))
    source.open()
    watcher = DiceWatcher(source, read_dice, still_seconds=0.6, clock=clock)
    watcher.auto = auto
    return watcher


def _play(watcher: DiceWatcher, seconds: float, fps: float = 15.0) -> list[tuple[float, TrayReading]]:
    """The watcher's loop run frame by frame for ``seconds`` of the fake clock; the readings handed over, and when."""
    clock, got = watcher.clock, []
    end = clock.now + seconds
    for _ in range(int(seconds * fps) + 1):
        if clock.now >= end - 1e-9:
            break
        watcher._stop = _Once()
        watcher._run()
        while not watcher.readings.empty():
            got.append((clock.now, watcher.readings.get_nowait()))
        clock.now += 1 / fps
    return got


def _tray_and_hand() -> tuple[np.ndarray, np.ndarray]:
    """Three dice at rest, and the same tray with a hand reaching in from the bottom edge and resting over the die
    nearest it (the audit's hand: one die hidden)."""
    tray, truth = render_tray(3, n_dice=3)
    x0, y0, x1, y1 = max((d.box for d in truth), key=lambda b: b[3])
    hand, h, cx, top = tray.copy(), tray.shape[0], (x0 + x1) // 2, y0 - 15
    arm = np.array([[cx - 70, h], [cx - 55, top + 30], [cx, top], [cx + 55, top + 30], [cx + 70, h]], np.int32)
    cv2.fillPoly(hand, [arm], (120, 150, 205))
    assert len(read_dice(hand).dice) < len(read_dice(tray).dice) == 3  # the hand hides a die
    return tray, hand


def test_a_hand_held_still_over_a_die_is_no_rest_to_a_screen_reading_every_rest(monkeypatch):
    """Echt Spitze's take phase reads every rest: a hand resting over one die past ``HAND_TIMEOUT`` was taken for
    part of the table, the tray read without that die, and the die taken for the player ("Anna nimmt 4 ... Ben ist
    dran") while all four lay in the tray. Once the hand is gone, the tray is read at once."""
    tray, hand = _tray_and_hand()
    clock = _Clock()
    source = _Scene(tray, clock)
    watcher = _stepped(monkeypatch, source, clock, auto=True)
    watcher.skip_hand_rests = True  # (as the app sets it for the take phase: ``hand_rest_unread``)
    assert len(_play(watcher, 1.5)) == 1  # the tray as it lies
    source.frame = hand
    assert _play(watcher, 6.0) == []  # held still 6 s: HAND_TIMEOUT passed, the dice under it not "taken"
    source.frame = tray
    left = clock.now
    got = _play(watcher, 2.0)
    assert len(got) == 1 and Counter(got[0][1].faces) == Counter(read_dice(tray).faces)
    assert got[0][0] - left < 1.2  # a still spell's read, not another HAND_TIMEOUT later


def test_free_play_reads_a_throw_with_a_cup_left_at_the_trays_edge(monkeypatch):
    """A screen that only reads every rest (free play, the camera check) dropped the rest reached through the hand
    timeout as Echt Spitze's take phase must: a throw with the cup left standing at the edge was never read, and the
    trigger stayed disarmed until the tray moved again."""
    tray, hand = _tray_and_hand()
    clock = _Clock()
    source = _Scene(tray, clock)
    watcher = _stepped(monkeypatch, source, clock, auto=True)
    assert not watcher.skip_hand_rests  # the default: every rest read
    assert len(_play(watcher, 1.5)) == 1
    thrown, _ = render_tray(7, n_dice=3)
    source.frame = np.zeros_like(tray)  # the throw
    assert _play(watcher, 0.4) == []
    cup = thrown.copy()
    cup[hand != tray] = hand[hand != tray]  # the cup put down where the hand came in
    source.frame = cup
    got = _play(watcher, 10.0)
    assert len(got) == 1 and Counter(got[0][1].faces) == Counter(read_dice(cup).faces)


def test_two_uses_asked_at_once_are_both_taken_up_and_the_first_tray_closed(monkeypatch):
    """``use`` was read and cleared in two steps: a second ``use`` in between was lost, and a tray asked for and
    overtaken was never closed. Each is taken up in turn (the one it replaces closed) and ``switching`` says one is
    pending until the watcher reads from it."""
    tray, _ = _tray_and_hand()
    clock = _Clock()
    camera = _Scene(tray, clock)
    watcher = _stepped(monkeypatch, camera, clock, auto=False)
    _play(watcher, 0.2)
    closed: list[str] = []
    first, second = _Scene(tray, clock), _Scene(tray, clock)
    for name, scene in (("camera", camera), ("first", first), ("second", second)):
        scene.open()
        monkeypatch.setattr(scene, "close", lambda name=name: closed.append(name))
    assert not watcher.switching
    watcher.use(first)
    watcher.use(second)
    assert watcher.switching and watcher.source is camera
    _play(watcher, 0.5)
    assert watcher.source is second and not watcher.switching
    assert closed == ["camera", "first"]


@pytest.mark.parametrize("rested", [1.0, 3.5])
def test_roll_pressed_while_a_hand_rests_in_the_tray_reads_the_dice_once_it_left(monkeypatch, rested):
    """ROLL forgot the quiet tray a hand is told by: the hand resting over a die was read as the throw ("3 Würfel
    gesehen, es müssen 4 sein"), and the throw was not read once it left. A hand resting 3.5 s before ROLL: its
    hand timeout (4 s) ran on from before the press, and the hand was read as the throw within the next second."""
    tray, hand = _tray_and_hand()
    clock = _Clock()
    source = _Scene(tray, clock)
    watcher = _stepped(monkeypatch, source, clock, auto=False)
    assert _play(watcher, 1.5) == [] and watcher.last_rest is not None  # read at rest, nobody asked
    source.frame = hand
    assert _play(watcher, rested) == []
    watcher.request()
    assert _play(watcher, 2.0) == []  # the hand is no throw
    watcher.wanted_since -= 5.0  # asked for long ago: the screen says why nothing comes
    assert watcher.why_waiting(clock.now) == "hand"
    source.frame = tray
    got = _play(watcher, 2.0)
    assert len(got) == 1 and Counter(got[0][1].faces) == Counter(read_dice(tray).faces)


def test_dice_moved_in_the_dark_between_turns_do_not_make_the_dark_the_measure_of_light(monkeypatch):
    """The lamp off, someone moved the dice between turns: that rest, read by nobody, set the measure of good light
    to the dark's, and the next ROLL's dark rest ("1 die seen, 3 are played") was handed over as the throw."""
    tray, _ = _tray_and_hand()
    clock = _Clock()
    source = _Scene(tray, clock)
    watcher = _stepped(monkeypatch, source, clock, auto=False)
    _play(watcher, 1.5)
    dark = (tray // 12).astype(np.uint8)
    source.frame = dark
    _play(watcher, 1.0)
    source.frame = np.zeros_like(dark)  # a hand in the dark, then still again
    _play(watcher, 0.3)
    source.frame = dark
    _play(watcher, 2.0)
    watcher.request()
    source.frame = np.zeros_like(dark)  # the throw, in the dark
    _play(watcher, 0.3)
    source.frame = dark
    assert _play(watcher, 3.0) == [] and watcher.dark


@pytest.mark.parametrize("auto", [False, True])
def test_a_lamp_switched_off_reads_no_dice_and_keeps_the_request(monkeypatch, auto):
    """The room's lamp switched off just after ROLL: the black tray was read ("0 Würfel gesehen"), the request used
    up, nothing read once the light was back; on a screen reading every rest "4 Würfel fehlen". A dark tray is no
    rest: the screen says it is too dark, and the dice are read once the light (and the webcam's exposure, white
    at first) has settled."""
    tray, _ = _tray_and_hand()
    clock = _Clock()
    source = _Scene(tray, clock)
    watcher = _stepped(monkeypatch, source, clock, auto=auto)
    assert len(_play(watcher, 1.5)) == (1 if auto else 0)
    if not auto:
        watcher.request()
    source.frame = (tray // 12).astype(np.uint8)  # the lamp off: what the webcam's exposure makes of the dark
    assert _play(watcher, 6.0) == []
    if not auto:
        assert watcher.why_waiting(clock.now) == "dark"  # (asked for 6 s ago)
    got = []
    for gain in (20.0, 8.0, 3.0, 1.6, 1.2):  # back on: blown out white, the exposure catching up
        source.frame = np.clip(tray.astype(np.float32) * gain, 0, 255).astype(np.uint8)
        got += _play(watcher, 0.2)
    source.frame = tray
    got += _play(watcher, 2.0)
    assert got and all(Counter(r.faces) == Counter(read_dice(tray).faces) for _, r in got)
    assert watcher.why_waiting(clock.now) is None


def test_a_webcam_back_after_a_reconnect_is_read_after_a_whole_still_spell(monkeypatch):
    """Readings from before the cable was pulled were combined with the first frame after it (taken while the
    exposure ramps) and the rest fired at once: the still spell starts again at the reconnect."""
    from hardware import sources

    tray, _ = _tray_and_hand()
    clock = _Clock()
    plugged = [True]

    class Webcam:  # cv2.VideoCapture as the audit faked it: frames while plugged in
        def __init__(self, *args) -> None:
            self.open = plugged[0]

        def isOpened(self) -> bool:  # noqa: N802 - cv2's name
            return self.open

        def set(self, *args) -> bool:
            return True

        def release(self) -> None:
            self.open = False

        def read(self):
            return (True, tray.copy()) if self.open and plugged[0] else (False, None)

    monkeypatch.setattr(sources.cv2, "VideoCapture", Webcam)
    cam = sources.CaptureDevice(0, clock=clock)
    cam._fps = None  # every read: the fake clock moves by the frame
    watcher = _stepped(monkeypatch, cam, clock, auto=False)
    _play(watcher, 0.3)  # the tray still for 0.3 s, half its still spell read, when the cable is pulled
    watcher.request(roll=False)
    plugged[0] = False
    assert _play(watcher, 6.0) == [] and cam.reconnects == 0
    plugged[0] = True
    back = clock.now
    got = _play(watcher, 3.0)
    assert cam.reconnects == 1
    assert len(got) == 1 and got[0][0] - back >= watcher._trigger.still_seconds - 1e-9
