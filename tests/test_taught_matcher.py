"""The taught-face matcher on rendered crops of made-up dice (tests/synth_dice.py)."""

from __future__ import annotations

import numpy as np
import pytest
from synth_dice import TAUGHT_FACES, crops, paint_face, photo_crop, taught_profile

from vision import taught
from vision.taught import Profile


@pytest.mark.parametrize("set_name", ["haste-worte", "fritzo", "noch-x-mal"])
def test_nearest_face_after_two_examples(set_name):
    """Shape (symbols) and colour (colour faces) both lead to the right nearest face on new photos."""
    p = taught_profile(set_name, seed=1)
    rng = np.random.default_rng(7)
    right = total = 0
    for face in TAUGHT_FACES[set_name]:
        for c in crops(set_name, face, 6, rng, hard=False):
            right += taught.match(p, c).nearest == face
            total += 1
    assert right / total >= 0.85


@pytest.mark.parametrize("set_name", ["haste-worte", "fritzo", "echt-spitze"])
def test_quarter_turns_read_the_same(set_name):
    p = taught_profile(set_name, seed=1)
    face = TAUGHT_FACES[set_name][2]
    crop = photo_crop(paint_face(set_name, face), np.random.default_rng(11), hard=False)
    answers = {taught.match(p, np.ascontiguousarray(np.rot90(crop, k))).nearest for k in range(4)}
    assert answers == {face}


def test_colour_decides_between_same_shapes():
    """noch-x-mal colour faces share one square: only the colour tells them apart."""
    p = taught_profile("noch-x-mal", seed=1)
    rng = np.random.default_rng(5)
    for face in ("red", "green", "blue", "yellow"):
        votes = [taught.match(p, c).nearest for c in crops("noch-x-mal", face, 5, rng, hard=False)]
        assert votes.count(face) >= 4, (face, votes)


def test_confidence_and_unknown():
    p = taught_profile("fritzo", seed=1)
    rng = np.random.default_rng(2)
    m = taught.match(p, crops("fritzo", "blue", 1, rng, hard=False)[0])
    assert m.face == "blue" and m.confidence >= taught.THRESHOLD
    # a purple cube on a grey table: a colour nobody taught
    purple = np.full((80, 80, 3), 128, np.uint8)
    purple[12:68, 12:68] = (150, 40, 130)
    m = taught.match(p, purple)
    assert m.face is None and m.confidence < taught.THRESHOLD
    assert taught.match(Profile("fritzo"), purple) == taught.Match(None, 0.0, None, float("inf"), 0.0)


def test_descriptor_is_fast_and_tolerates_odd_crops():
    rng = np.random.default_rng(4)
    c = crops("haste-worte", "car", 1, rng)[0]
    v = taught.describe(c)
    assert v.shape == (taught.DIM,) and np.isfinite(v).all()
    for odd in (c[:, :, 0], np.dstack([c, np.full(c.shape[:2], 255, np.uint8)]), c[::2, ::2],
                np.zeros((80, 80, 3), np.uint8)):
        assert np.isfinite(taught.describe(odd)).all()


def test_profile_rejects_mismatched_data():
    with pytest.raises(ValueError, match="2 names for 1 examples"):
        Profile("fritzo", ["red", "blue"], np.zeros((1, taught.DIM), np.float32))
