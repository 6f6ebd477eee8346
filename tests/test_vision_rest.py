"""The at-rest trigger on sequences made from real photos with simulated motion and a hand."""

from __future__ import annotations

import csv
from collections import Counter

import cv2
import numpy as np
import pytest
from synth_dice import with_hand

from vision.pips import read_dice
from vision.rest import AtRestTrigger, combine, hand_in, thumbnail
from vision.types import DieReading, TrayReading

FPS = 20.0
PHOTO = ("matteo-d6", "five_22.jpg")  # three dice on a wood desk, oblique webcam


@pytest.fixture
def photo(datasets) -> tuple[np.ndarray, list[int]]:
    folder = datasets / PHOTO[0]
    img = cv2.imread(str(folder / "images" / PHOTO[1]))
    if img is None:
        pytest.skip(f"{PHOTO} missing from the datasets")
    with open(folder / "labels.csv", newline="") as fh:
        faces = [int(r["face"]) for r in csv.DictReader(fh) if r["image"] == PHOTO[1]]
    return img, faces


def shaken(img: np.ndarray, step: int) -> np.ndarray:
    """The dice tumbling: the frame content jumps a few pixels every frame (and blurs a little)."""
    dx, dy = (step * 7) % 23 - 11, (step * 5) % 17 - 8
    mat = np.float32([[1, 0, dx], [0, 1, dy]])
    moved = cv2.warpAffine(img, mat, (img.shape[1], img.shape[0]), borderMode=cv2.BORDER_REFLECT)
    return cv2.GaussianBlur(moved, (5, 5), 0)


class CountingReader:
    def __init__(self, reader=read_dice) -> None:
        self.reader = reader
        self.calls = 0

    def __call__(self, frame: np.ndarray) -> TrayReading:
        self.calls += 1
        return self.reader(frame)


def run(trig: AtRestTrigger, frames: list[np.ndarray], t0: float = 0.0) -> list[tuple[float, TrayReading]]:
    fired = []
    for i, frame in enumerate(frames):
        t = t0 + i / FPS
        r = trig.feed(frame, t)
        if r is not None:
            fired.append((t, r))
    return fired


def test_fires_once_after_still_time_with_the_dice_read(photo) -> None:
    img, faces = photo
    reader = CountingReader()
    trig = AtRestTrigger(still_seconds=0.6, reader=reader)
    frames = [shaken(img, i) for i in range(10)] + [img] * 40
    fired = run(trig, frames)
    assert len(fired) == 1
    t, reading = fired[0]
    # Still from frame 10 (t=0.5); it must wait the full 0.6 s and not much more.
    assert 1.1 - 1e-6 <= t <= 1.1 + 2 / FPS
    assert Counter(reading.faces) == Counter(faces)
    assert reader.calls == trig.reads  # cheap: only a few frames of each rest are read
    assert not trig.armed


def rethrown(img: np.ndarray, dx: int = 40, dy: int = 30) -> np.ndarray:
    """The same dice landed elsewhere: the middle of the tray (where the dice are) moved, the edges kept."""
    out = img.copy()
    h, w = img.shape[:2]
    y0, y1, x0, x1 = h // 5, h - h // 5 - dy, w // 5, w - w // 5 - dx
    out[y0 + dy:y1 + dy, x0 + dx:x1 + dx] = img[y0:y1, x0:x1]
    return out


def test_rearms_when_the_dice_move_again(photo) -> None:
    img, _ = photo
    trig = AtRestTrigger(still_seconds=0.5, reader=CountingReader())
    frames = [img] * 20 + [shaken(img, i) for i in range(6)] + [rethrown(img)] * 20
    fired = run(trig, frames)
    assert len(fired) == 2
    assert trig.armed is False
    first = sorted(((d.box[0] + d.box[2]) / 2, (d.box[1] + d.box[3]) / 2) for d in fired[0][1].dice)
    second = sorted(((d.box[0] + d.box[2]) / 2 - 40, (d.box[1] + d.box[3]) / 2 - 30) for d in fired[1][1].dice)
    middle = [p for p in first if img.shape[1] / 5 < p[0] < img.shape[1] * 0.7]
    assert len(middle) >= 3
    for p in middle:
        assert min(np.hypot(p[0] - q[0], p[1] - q[1]) for q in second) < 6


def test_never_fires_while_moving(photo) -> None:
    img, _ = photo
    reader = CountingReader()
    trig = AtRestTrigger(still_seconds=0.3, reader=reader)
    assert run(trig, [shaken(img, i) for i in range(60)]) == []
    assert reader.calls == 0


def test_a_still_hand_holds_the_trigger_until_it_leaves(photo) -> None:
    img, faces = photo
    reader = CountingReader()
    trig = AtRestTrigger(still_seconds=0.5, reader=reader)
    # Quiet tray (fires once), the hand comes in and stays still, then it leaves and the tray is quiet again.
    frames = [img] * 15 + [with_hand(shaken(img, i)) for i in range(4)] + [with_hand(img)] * 30
    fired = run(trig, frames)
    assert len(fired) == 1, "fired while a hand was in the tray"
    assert trig.hand_seen
    frames_after = [img] * 20
    fired_after = run(trig, frames_after, t0=len(frames) / FPS)
    assert len(fired_after) == 1
    assert Counter(fired_after[0][1].faces) == Counter(faces)


def flickering(img: np.ndarray, step: int, amplitude: float) -> np.ndarray:
    """The frame under a mains-powered lamp seen by a rolling shutter: bright and dark bands across the rows,
    rolling a third of a band on from one frame to the next (100 Hz flicker, 30 frames a second)."""
    rows = np.arange(img.shape[0], dtype=np.float32)[:, None, None]
    gain = 1.0 + amplitude * np.sin(2 * np.pi * (2.5 * rows / img.shape[0] + step / 3))
    return np.clip(img * gain, 0, 255).astype(np.uint8)


@pytest.mark.parametrize("amplitude", [0.05, 0.1, 0.2])
def test_rolling_flicker_bands_of_a_lamp_are_not_dice_moving(photo, amplitude: float) -> None:
    """Bands of 5 % of the brightness used to count as motion over the whole tray: the dice were never read."""
    img, faces = photo
    trig = AtRestTrigger(still_seconds=0.5, reader=CountingReader())
    frames = [flickering(shaken(img, i), i, amplitude) for i in range(6)]
    frames += [flickering(img, i, amplitude) for i in range(6, 40)]
    fired = run(trig, frames)
    assert len(fired) == 1
    assert 0.8 - 1e-6 <= fired[0][0] <= 0.8 + 2 / FPS  # still from frame 6 (0.3 s), read 0.5 s later
    assert Counter(fired[0][1].faces) == Counter(faces)


def test_under_flickering_light_moving_dice_and_a_hand_are_still_seen(photo) -> None:
    img, _ = photo
    trig = AtRestTrigger(still_seconds=0.3, reader=CountingReader())
    assert run(trig, [flickering(shaken(img, i), i, 0.1) for i in range(40)]) == []
    trig = AtRestTrigger(still_seconds=0.5, reader=CountingReader())
    frames = [flickering(img, i, 0.1) for i in range(15)]
    frames += [flickering(with_hand(shaken(img, i)), i, 0.1) for i in range(15, 19)]
    frames += [flickering(with_hand(img), i, 0.1) for i in range(19, 50)]
    assert len(run(trig, frames)) == 1, "fired while a hand was in the tray"
    assert trig.hand_seen


def test_one_bad_frame_does_not_decide(photo) -> None:
    img, _ = photo
    good = TrayReading((DieReading(5, 0.9, (10, 10, 50, 50)), DieReading(2, 0.9, (100, 10, 140, 50))))
    bad = TrayReading((DieReading(6, 0.9, (11, 9, 51, 49)), DieReading(4, 0.8, (300, 300, 340, 340))))
    script = iter([good, bad, good])
    trig = AtRestTrigger(still_seconds=0.3, reader=lambda frame: next(script))
    fired = run(trig, [img] * 20)
    assert len(fired) == 1
    reading = fired[0][1]
    assert sorted(reading.faces) == [2, 5]


def test_combine_marks_a_split_vote_unknown() -> None:
    a = TrayReading((DieReading(3, 0.9, (0, 0, 40, 40)),))
    b = TrayReading((DieReading(4, 0.9, (2, 1, 41, 40)),))
    merged = combine([a, b])
    assert merged.faces == [None]
    assert combine([a, a, b]).faces == [3]
    assert combine([]).dice == ()


def test_a_face_only_a_minority_of_the_frames_named_is_asked_not_read_for_sure() -> None:
    """A number joker touching an orange die: three still frames unsure of it, one sure it is orange. Weighed by
    confidence, that one frame outweighed the three, and the die was read for sure as orange (the game refused
    four colour dice). Now it is asked about, orange offered first; a face half the frames named still stands."""
    box = (0, 0, 40, 40)
    unsure = TrayReading((DieReading(None, 0.3, box),))
    sure = TrayReading((DieReading("orange", 0.99, box),))
    merged = combine([unsure, unsure, unsure, sure])
    assert [(d.face, d.guess) for d in merged.dice] == [(None, "orange")]
    assert combine([TrayReading((DieReading(None, 0.05, box),))] * 2 + [sure]).faces == [None]
    assert combine([unsure, sure, sure]).faces == ["orange"]
    assert combine([unsure, unsure, sure, sure]).faces == ["orange"]


def test_a_die_left_unknown_over_the_still_frames_offers_what_they_leaned_to() -> None:
    """Taught dice: two still frames unsure of a die but guessing "3+X" (a face near enough to offer), one unsure
    without a guess: the combined die is unknown, and its question offers "3+X" first. A die read for sure offers
    nothing, and a split vote offers the face it leaned to."""
    box = (0, 0, 40, 40)
    unsure = [TrayReading((DieReading(None, 0.3, box, "3+X"), DieReading("5", 0.9, (100, 0, 140, 40)))),
              TrayReading((DieReading(None, 0.4, box, "3+X"), DieReading("5", 0.9, (100, 0, 140, 40)))),
              TrayReading((DieReading(None, 0.1, box), DieReading("5", 0.9, (100, 0, 140, 40))))]
    merged = combine(unsure)
    assert [(d.face, d.guess) for d in merged.dice] == [(None, "3+X"), ("5", None)]
    assert merged.dice[0].to_json()["guess"] == "3+X" and "guess" not in merged.dice[1].to_json()
    split = combine([TrayReading((DieReading("3", 0.8, box),)), TrayReading((DieReading("4", 0.9, box),)),
                     TrayReading((DieReading(None, 0.8, box),))])
    assert [(d.face, d.guess) for d in split.dice] == [(None, "4")]


def test_dice_thrown_to_the_frame_edge_are_read_at_once_and_an_arm_beside_them_is_still_a_hand() -> None:
    """Read whenever the tray settles (free play): against the last rest, a new throw changes the tray where the
    dice lay and where they lie now, shadows with them, and where dice lie at the frame's edge that change passed
    for an arm reaching in: one throw in nine on the built-in tray was read ``HAND_TIMEOUT`` (4 s) late. An arm
    crosses the edge beside the dice, so where the change reaches the edge is now looked at without the dice."""
    from hardware.synthetic import SyntheticTray

    with SyntheticTray(14, n_dice=5, fps=None, motion_frames=3) as tray:
        lying = tray.read()
        tray.roll()
        flight = [tray.read() for _ in range(3)]
        landed = tray.read()
    assert hand_in(thumbnail(lying), thumbnail(landed))  # by the change alone, an arm
    trig = AtRestTrigger(still_seconds=0.5)
    fired = run(trig, [lying] * 12 + flight + [landed] * 20)
    assert len(fired) == 2 and not trig.hand_seen
    assert fired[1][0] <= (12 + 3) / FPS + 0.5 + 2 / FPS  # still from the landing, read 0.5 s later
    assert len(fired[1][1].dice) == 5
    # the same dice, then an arm reaching in beside them: no reading while it is there
    trig = AtRestTrigger(still_seconds=0.5)
    held = with_hand(landed)
    assert len(run(trig, [landed] * 12 + [np.roll(held, 4 * i, axis=1) for i in range(3)] + [held] * 30)) == 1
    assert trig.hand_seen


def test_a_rest_is_read_once_the_light_has_settled_not_over_an_exposure_ramp() -> None:
    """The lamp switched on (or a webcam back after a reconnect): the exposure ramps over a second. Its rows evened
    out (``change``), those frames counted as still, and the dice were read over the ramp, a dim frame's missing
    dice voted with the settled ones'. The still spell starts again while the light jumps (``LIGHT_STEP``)."""
    from hardware.synthetic import render_tray

    tray, _ = render_tray(3, n_dice=3)
    read_levels: list[float] = []

    def reader(frame: np.ndarray) -> TrayReading:
        read_levels.append(float(frame.mean()))
        return read_dice(frame)

    trig = AtRestTrigger(still_seconds=0.6, reader=reader)
    ramp = [np.clip(tray.astype(np.float32) * g, 0, 255).astype(np.uint8) for g in (0.2, 0.3, 0.45, 0.65, 0.85)]
    frames = [shaken(tray, i) for i in range(6)] + [f for f in ramp for _ in range(3)] + [tray] * 30
    fired = run(trig, frames)
    assert len(fired) == 1 and Counter(fired[0][1].faces) == Counter(read_dice(tray).faces)
    assert read_levels and min(read_levels) == pytest.approx(float(tray.mean()))  # only settled frames read
