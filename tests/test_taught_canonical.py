"""The taught reader's canonical face: what the body is and where the ink is.

Each test pins one choice of ``vision.taught.canonical`` that the benchmark's accuracy depends on, on rendered
faces (tests/synth_dice.py) photographed under mild conditions, so that a failure points at that choice.
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from synth_dice import paint_face, photo_crop

from vision import face_marks, face_outline, taught


def _crop(set_name: str, face: str, seed: int) -> np.ndarray:
    return photo_crop(paint_face(set_name, face), np.random.default_rng(seed), hard=False)


@pytest.mark.parametrize("colour", ["red", "green", "blue"])
def test_the_body_is_the_die_not_its_big_colour_patch(colour):
    """A noch-x-mal colour face is a white die with a patch covering most of its middle: the body is white and the
    patch is the mark (measured on the face's middle, the body would be the patch and the face blank)."""
    for seed in range(4):
        can = face_marks.canonical(_crop("noch-x-mal", colour, seed))
        red_green, blue_green = can.colour[0], can.colour[1]
        assert abs(red_green) < 0.3 and abs(blue_green) < 0.3, (seed, can.colour[:2])  # white: channels alike
        assert can.frame is not None and can.colour[3] > 0.2, (seed, can.colour[3])  # the patch is ink


def _ink_share(crop: np.ndarray, corners: np.ndarray | None = None) -> float:
    return float((face_marks.canonical(crop, corners).channels[..., 0] > 0.5).mean())


@pytest.mark.parametrize("face", ["4", "2+X", "?"])
def test_blur_does_not_make_strokes_fat(face):
    """The ink is the stroke's half-maximum outline, which a blurred photo keeps (a fixed darkness threshold let
    blurred strokes grow: 6-13 % more ink at this blur, against 1-2 % now). Both along the sharp photo's outline:
    the net outlines a blurred face a little differently, which is not the ink's business."""
    for seed in range(3):
        crop = _crop("echt-spitze", face, seed)
        corners = face_outline.face_corners(crop)
        sharp = _ink_share(crop, corners)
        blurred = _ink_share(cv2.GaussianBlur(crop, (0, 0), 1.6), corners)
        assert 0.95 < blurred / sharp < 1.05, (seed, sharp, blurred)


def test_a_side_taken_in_by_the_outline_is_not_a_mark():
    """An oblique die's side, when the face's outline is a few pixels too big, is a thin dark line along one edge of
    the warped face: it is taken out. A small cross near a corner and a big mark reaching the rim are marks."""
    f = face_outline.FACE
    ch = np.zeros((f, f, 2), np.float32)
    ch[24:40, 26:38, 0] = 1.0  # the numeral
    ch[10:18, 44:52, 0] = 1.0  # a small cross near the top right corner
    ch[f - 10:f - 7, 8:56, 0] = 1.0  # a side along the bottom edge, just inside the rim
    ch[6:30, 6:9, 0] = 1.0  # ... and a shorter one along the left edge
    big = np.zeros_like(ch)
    big[6:58, 6:58, 0] = 1.0  # a mark filling the face up to the rim (a globe)
    face_marks._drop_side_marks(ch)
    face_marks._drop_side_marks(big)
    assert ch[f - 10:f - 7, 8:56, 0].sum() == 0 and ch[6:30, 6:9, 0].sum() == 0
    assert ch[24:40, 26:38, 0].all() and ch[10:18, 44:52, 0].all()
    assert big[6:58, 6:58, 0].all()


def test_a_hairline_along_the_rim_is_not_a_mark_whatever_its_direction():
    """Where the outline is a few pixels too big and slanted, the face's own edge is a hairline near the rim that
    runs aslant or bends round a corner: not thin by its bounding box, thin by its mean width. It is taken out with
    its faint fringe (else it stretched the mark's extent, which sets the mark's scale). A small thin cross near a
    corner, a thin stroke in the middle and a mark's stroke reaching the rim stay."""
    f = face_outline.FACE
    ch = np.zeros((f, f, 2), np.float32)
    for ink, width in ((0.3, 3), (1.0, 1)):  # each line 1 pixel wide, with a faint fringe
        cv2.line(ch, (12, 56), (57, 48), (ink, 0.0), width)  # the bottom edge, aslant
        cv2.polylines(ch, [np.int32([[7, 40], [8, 56], [24, 56]])], False, (ink, 0.0), width)  # round a corner
    cross = np.zeros_like(ch)
    cv2.line(cross, (46, 6), (56, 16), (1.0, 0.0), 2)  # a thin cross near the top-right corner
    cv2.line(cross, (56, 6), (46, 16), (1.0, 0.0), 2)
    cv2.line(cross, (32, 20), (32, 44), (1.0, 0.0), 2)  # a thin "1" in the middle
    cv2.line(cross, (20, 30), (20, 58), (1.0, 0.0), 6)  # a wide stroke reaching the rim
    kept = cross.copy()
    before = ch[..., 0].sum()
    face_marks._drop_side_marks(ch)
    face_marks._drop_side_marks(cross)
    assert ch[..., 0].max() < 0.5 and ch[..., 0].sum() < 0.25 * before, (ch[..., 0].sum(), before)
    np.testing.assert_array_equal(cross, kept)


def test_a_washed_out_cross_near_a_corner_is_no_hairline():
    """A small cross washed out by a lamp is a mark of one-pixel arms round a solid middle, shorter than its box is
    wide and high: the length rule alone took it for a hairline round a corner, and "?+X" was named "?" (the cross
    below is one seen on a rendered Echt Spitze die). Its arms meet in the middle of its box, and it spreads alike
    both ways: a hairline does neither."""
    rows = ["#.........",
            "##......##",
            ".#......#.",
            "..##..##..",
            "..######..",
            "..#####...",
            "..#####...",
            "..#####...",
            ".....##..."]
    f = face_outline.FACE
    ch = np.zeros((f, f, 2), np.float32)
    ch[7:16, 8:18, 0] = np.float32([[c == "#" for c in row] for row in rows])
    ch[24:44, 24:40, 0] = 1.0  # the "?" beside it
    kept = ch.copy()
    face_marks._drop_side_marks(ch)
    np.testing.assert_array_equal(ch, kept)


def test_a_side_strip_that_turns_a_corner_or_touches_the_mark_is_not_a_mark():
    """Seen from beside the tray, the outline can take in two sides (a strip turning a corner) or a strip that
    touches the numeral: neither is thin by its bounding box, and both are taken out, the numeral kept beyond the
    strip. Pips that meet the rim stay, even a row of them along most of an edge (a 6 outlined a little small)."""
    f = face_outline.FACE
    ch = np.zeros((f, f, 2), np.float32)
    ch[6:58, 6:12, 0] = 1.0  # a side along the left edge ...
    ch[6:11, 6:58, 0] = 1.0  # ... turning the corner along the top
    ch[24:40, 10:30, 0] = 1.0  # the numeral, touching the left strip
    pips = np.zeros_like(ch)
    pips[6:14, 12:20, 0] = pips[6:14, 44:52, 0] = 1.0  # two pips of a 6 cut by a small outline, at the top rim
    pips[28:36, 28:36, 0] = 1.0
    for top in (12, 28, 44):  # a 6's row of pips along the right edge, at the rim
        pips[top:top + 8, 50:58, 0] = 1.0
    face_marks._drop_side_marks(ch)
    face_marks._drop_side_marks(pips)
    assert ch[6:24, 6:12, 0].sum() == 0 and ch[40:58, 6:12, 0].sum() == 0 and ch[6:11, 12:58, 0].sum() == 0
    assert ch[24:40, 14:30, 0].all()
    assert pips[6:14, 12:20, 0].all() and pips[6:14, 44:52, 0].all() and pips[28:36, 28:36, 0].all()
    assert all(pips[top:top + 8, 50:58, 0].all() for top in (12, 28, 44))


def test_a_washed_out_cross_is_still_a_mark():
    """A small red cross that a lamp washed out (pink on a pink-white body) is hardly darker than the body; found
    as a faint patch of another colour, an untaught "4+X" then comes back unknown instead of as the taught "4".
    At this faintness it is still a coin flip (measured 5 of 12 read as "4"; 11 of 12 without the faint marks):
    this pins the gain, the benchmark's untaught column the rest."""
    from synth_dice import BODY_IVORY, MARK_RED, taught_profile

    profile = taught_profile("echt-spitze", seed=5)  # teaches 4 and 1+X, 2+X, 3+X, 5+X, not 4+X
    face = paint_face("echt-spitze", "4+X").astype(np.float32)
    cross = np.abs(face - paint_face("echt-spitze", "4").astype(np.float32)).sum(axis=2) > 30
    face[cross] = 0.35 * np.float32(MARK_RED) + 0.65 * np.float32(BODY_IVORY)
    cast = np.float32([0.95, 0.85, 1.0])  # a magenta lamp
    read_as_4 = 0
    for seed in range(12):
        crop = np.clip(photo_crop(face.astype(np.uint8), np.random.default_rng(seed), hard=False) * cast, 0, 255)
        answer = taught.match(profile, crop.astype(np.uint8)).face
        assert answer in (None, "4"), answer
        read_as_4 += answer == "4"
    assert read_as_4 <= 6, read_as_4


def _with_glare(crop: np.ndarray, strength: float) -> np.ndarray:
    """A lamp's reflection: white light added in a soft blob (sigma a tenth of the crop) on the middle of the die."""
    n = crop.shape[0]
    yy, xx = np.mgrid[0:n, 0:n].astype(np.float32)
    blob = np.exp(-((xx - 0.45 * n) ** 2 + (yy - 0.45 * n) ** 2) / (2 * (0.1 * n) ** 2))
    return np.clip(crop.astype(np.float32) + strength * blob[..., None], 0, 255).astype(np.uint8)


@pytest.mark.parametrize(("set_name", "face"), [("haste-worte", "dishes"), ("haste-worte", "sports"),
                                                ("echt-spitze", "5")])
def test_glare_on_the_mark_does_not_eat_it(set_name, face):
    """Glare lights the mark as much as the body: measured against the body's plane, the lit part of a dark mark is
    no longer ink (a ring seen broken, a disc with a bite). Under a dim lamp with a bright reflection the plane
    kept 55-80 % of these marks' ink; measured against the body as the glare lights it, 88-100 %."""
    for seed in range(3):
        crop = (_crop(set_name, face, seed) * 0.6).astype(np.uint8)  # a dim lamp ...
        lit = _with_glare(crop, 120.0)  # ... and its reflection on the die
        kept = _ink_share(lit) / _ink_share(crop)
        assert kept > 0.85, (seed, kept)


def test_glare_on_a_blank_cube_makes_no_mark():
    """The glare correction is for marked faces only: on a blank colour cube the envelope would turn the shaded
    bevel into ink, and a colour cube must stay blank (colour alone decides)."""
    for colour in ("red", "yellow", "white"):
        for seed in range(3):
            crop = _with_glare(_crop("fritzo", colour, seed), 110.0)
            assert face_marks.canonical(crop).frame is None, (colour, seed)


def _hue(crop: np.ndarray) -> float:
    colour = face_marks.canonical(crop).colour
    return float(np.degrees(np.arctan2(colour[6], colour[7])))


@pytest.mark.parametrize(("seed", "gain"), [(1, 1.1), (2, 1.1), (3, 1.1), (4, 1.0), (5, 1.0)])
def test_a_clipped_red_channel_does_not_make_an_orange_cube_yellower(seed, gain):
    """A brighter lamp clips an orange cube's red at 255 on its lit side while its green goes on rising: the
    clipped body was 2-5 degrees of hue yellower than the same cube under a dimmer lamp (orange and yellow are about
    20 degrees apart). The body's red is fitted on the part left unclipped instead."""
    lit = photo_crop(paint_face("fritzo", "orange"), np.random.default_rng(seed), hard=False).astype(np.float32)
    lit *= np.linspace(0.8, 1.4, lit.shape[1], dtype=np.float32)[None, :, None]  # lit from the right
    dim = np.clip(lit * 0.6, 0, 255).astype(np.uint8)
    bright = np.clip(lit * gain, 0, 255).astype(np.uint8)
    assert (bright[..., 2] >= face_marks.CLIPPED).mean() > 0.25  # the lit part's red is clipped
    assert abs(_hue(bright) - _hue(dim)) < 1.2, (_hue(bright), _hue(dim))
