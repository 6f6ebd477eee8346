"""The taught reader's soundness: light and rotation change nothing, untaught faces stay unknown, and a face the
player confirmed during the evening is stored atomically and read afterwards.

Rendered made-up dice (tests/synth_dice.py); the seeds differ from the benchmark's (0) and from the one the
decision constants were chosen on (101).
"""

from __future__ import annotations

import os

import numpy as np
import pytest
from synth_dice import (
    TAUGHT_FACES,
    UNTAUGHT_FACES,
    crops,
    found_dice,
    paint_face,
    painter_for,
    photo_crop,
    side_faces_for,
    taught_profile,
)

from companion import dicesets, profiles, teach
from hardware.synthetic import render_tray
from vision import face_marks, face_outline, taught
from vision.detect import find_dice
from vision.taught import Profile


@pytest.fixture(autouse=True)
def data_home(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    return tmp_path / "data"


def _relit(crop: np.ndarray, gain: float, cast: tuple[float, float, float]) -> np.ndarray:
    """The same photo under another lamp: brighter or dimmer, warmer or colder (a gain per colour channel)."""
    return np.clip(crop.astype(np.float32) * gain * np.float32(cast), 0, 255).astype(np.uint8)


@pytest.mark.parametrize("set_name,face", [("haste-worte", "car"), ("echt-spitze", "3+X"),
                                           ("noch-x-mal", "green")])
def test_a_different_lamp_changes_nothing(set_name, face):
    """White balance to the die's own body: a dimmer and warmer lamp gives (nearly) the same mark description."""
    crop = photo_crop(paint_face(set_name, face), np.random.default_rng(21), hard=False)
    a = face_marks.describe(crop)
    b = face_marks.describe(_relit(crop, 0.6, (0.85, 1.0, 1.12)))
    shape_a, shape_b = a[:face_marks.SHAPE_DIM], b[:face_marks.SHAPE_DIM]
    # (two blank marks, a colour face whose patch is taken for the body, are the same: no change, not 0/0)
    change = float(((shape_a - shape_b) ** 2).sum() / ((shape_a ** 2).sum() + (shape_b ** 2).sum() + 1e-6))
    assert change < taught.SHAPE_TOL / 2, change
    # the mark's colour relative to the body does not move either; the body's raw colour may (it is the lamp's)
    assert np.hypot(a[-4] - b[-4], a[-3] - b[-3]) < taught.MARK_COLOUR_TOL / 2


@pytest.mark.parametrize("set_name", ["haste-worte", "echt-spitze"])
def test_any_quarter_turn_gives_the_same_answer(set_name):
    p = taught_profile(set_name, seed=31)
    rng = np.random.default_rng(32)
    for face in TAUGHT_FACES[set_name][:4]:
        crop = photo_crop(paint_face(set_name, face), rng, hard=False)
        answers = {taught.match(p, np.ascontiguousarray(np.rot90(crop, k))).nearest for k in range(4)}
        assert answers == {face}


@pytest.mark.parametrize("set_name", ["haste-worte", "echt-spitze", "noch-x-mal", "fritzo"])
def test_untaught_faces_come_back_unknown(set_name):
    """A symbol of another edition, a 4 with the extra cross when only the plain 4 was shown, a purple die."""
    p = taught_profile(set_name, seed=41)
    rng = np.random.default_rng(42)
    for face in UNTAUGHT_FACES[set_name]:
        for c in crops(set_name, face, 3, rng, hard=False):
            m = taught.match(p, c)
            assert m.face is None, (face, m)
            assert m.confidence < taught.THRESHOLD


@pytest.mark.parametrize("set_name", ["haste-worte", "noch-x-mal", "fritzo"])
def test_taught_faces_are_read_or_left_unknown_never_wrong(set_name):
    p = taught_profile(set_name, seed=51)
    rng = np.random.default_rng(52)
    right = total = 0
    for face in TAUGHT_FACES[set_name]:
        for c in crops(set_name, face, 3, rng, hard=False):
            m = taught.match(p, c)
            assert m.face in (None, face), (face, m)
            right += m.face == face
            total += 1
    assert right / total >= 0.7, right / total  # the benchmark measures the hard conditions


def test_colour_is_the_meaning_on_a_colour_die():
    """Two fritzo cubes differ only in colour: the reader must say which, and a purple cube is nobody's."""
    p = taught_profile("fritzo", seed=61)
    rng = np.random.default_rng(62)
    for face in ("red", "orange", "yellow", "green", "blue"):
        c = crops("fritzo", face, 1, rng, hard=False)[0]
        assert taught.match(p, c).nearest == face


def test_a_confirmed_answer_is_stored_atomically_and_read_afterwards(data_home, monkeypatch):
    """During the evening the player tells the reader what an unknown die shows: the next reading knows it."""
    rng = np.random.default_rng(71)
    p = taught_profile("haste-worte", seed=72)
    p_names = list(p.names)
    profiles.save_profile(p)
    before = profiles.profile_path("haste-worte").read_bytes()
    frame, found = found_dice("haste-worte", ["moon"], rng)  # a symbol of another edition: unknown so far
    face, cand, box = found[0]
    assert cand is not None
    crop = face_outline.die_crop(frame, cand)
    assert taught.match(p, crop).face is None

    # a power cut during the save leaves the old profile whole, and no temp file behind
    def cut(*_args, **_kwargs):
        raise OSError("power cut")

    with monkeypatch.context() as m, pytest.raises(OSError, match="power cut"):
        m.setattr(os, "replace", cut)
        teach.confirm(p, "moon", frame, box)
    assert profiles.profile_path("haste-worte").read_bytes() == before
    assert [f.name for f in profiles.profile_dir().iterdir()] == ["haste-worte.npz"]

    path = teach.confirm(Profile("haste-worte", p_names, p.vectors[:len(p_names)]), "moon", frame, box)
    stored = profiles.load_profile("haste-worte")
    assert path == profiles.profile_path("haste-worte") and stored.counts()["moon"] == 1
    assert taught.match(stored, crop).face == "moon"
    # and the next camera frame of the same tray (fresh sensor noise) reads that die
    noisy = np.random.default_rng(73).normal(0.0, 3.0, frame.shape)
    again = np.clip(frame.astype(np.float32) + noisy, 0, 255).astype(np.uint8)
    reading = teach.read_taught(again, "haste-worte", stored, dicesets.load("haste-worte"))
    assert [d.face for d in reading.dice] == ["moon"]


def _emblem_taught(rng: np.random.Generator) -> Profile:
    """A d6 profile taught the emblem "6" from two tray photos."""
    p = Profile("d6")
    while len(p) < 2:
        frame, _ = render_tray(rng, faces=[6], painter=painter_for("d6"))
        cands = find_dice(frame)
        if cands:
            p.add("6", face_outline.die_crop(frame, cands[0]))
    return p


def _d6_emblem_readings() -> tuple[int, int, list[tuple[int, object]]]:
    """Teach the emblem "6" from two tray photos, read trays of an emblem die and two pip dice: (emblem dice read
    as 6, emblem dice seen, [(pip face, reading)] for the pip dice)."""
    rng = np.random.default_rng(81)
    dice_set = dicesets.load("d6")
    p = _emblem_taught(rng)
    emblem_read = emblem_seen = 0
    pips: list[tuple[int, object]] = []
    for _ in range(4):
        frame, truth = render_tray(rng, faces=[6, 2, 5], painter=painter_for("d6"))
        reading = teach.read_taught(frame, "d6", p, dice_set)
        for die in truth:
            x0, y0, x1, y1 = die.box
            mine = [d for d in reading.dice if x0 <= (d.box[0] + d.box[2]) / 2 <= x1
                    and y0 <= (d.box[1] + d.box[3]) / 2 <= y1]
            if len(mine) != 1:
                continue  # missed or merged by the finder: the finder's business
            if die.face == 6:
                emblem_seen += 1
                emblem_read += mine[0].face == 6
            else:
                pips.append((die.face, mine[0].face))
    return emblem_read, emblem_seen, pips


def test_d6_taught_emblem_never_claims_a_pip_face():
    """The emblem's examples must not turn a pip die into a 6: the pip reader's answer stands."""
    _, emblem_seen, pips = _d6_emblem_readings()
    assert emblem_seen >= 2 and len(pips) >= 4
    assert all(read != 6 for _, read in pips), pips


def test_d6_taught_emblem_is_read_as_6():
    emblem_read, emblem_seen, _ = _d6_emblem_readings()
    assert emblem_read >= emblem_seen // 2, (emblem_read, emblem_seen)


def test_d6_taught_keeps_the_pip_dice_only_the_pip_reader_found(monkeypatch):
    """The pip reader's detector finds touching pip dice better than the taught finder's: with an emblem taught,
    a pip die only the pip reader saw is still read (it was dropped, the taught finder's dice alone were read)."""
    from vision.pips import read_dice

    rng = np.random.default_rng(82)
    p = _emblem_taught(rng)
    frame, _ = render_tray(rng, faces=[2, 5, 3], painter=painter_for("d6"))
    pips = sorted(d.face for d in read_dice(frame).dice)
    assert pips == [2, 3, 5]
    monkeypatch.setattr(teach, "find_any_dice", lambda frame: [])  # the taught finder sees none of them
    assert sorted(d.face for d in teach.read_taught(frame, "d6", p, dicesets.load("d6")).dice) == pips


def test_d6_with_nothing_taught_is_the_pip_reader():
    frame, _ = render_tray(np.random.default_rng(83), faces=[4, 1], painter=painter_for("d6"))
    from vision.pips import read_dice

    reading = teach.read_taught(frame, "d6", Profile("d6"), dicesets.load("d6"))
    assert [(d.face, d.box) for d in reading.dice] == [(d.face, d.box) for d in read_dice(frame).dice]


def test_a_mark_near_the_limit_in_shape_and_in_one_place_is_another_mark():
    """An untaught 7 looks much like a taught "?" (a hook and a stem): some photos come within the shape tolerance
    and within the local one, each near its limit. Both at once is another mark (JOINT_TOL). Before near misses
    were measured again aligned (ninth session), one of these 40 sevens was read as "?" without that rule (and 7 of
    75 on one benchmark seed's trays); now none comes near both limits here, but over the eight tuning seeds the
    rule still keeps one untaught face out (one answered without it, none with it)."""
    rng = np.random.default_rng(4)
    p = taught.Profile("echt-spitze")
    for face in TAUGHT_FACES["echt-spitze"]:
        for c in crops("echt-spitze", face, 2, rng):
            p.add(face, c)
    sevens = crops("echt-spitze", "7", 40, rng)
    assert [m.face for m in (taught.match(p, c) for c in sevens) if m.face is not None] == []
    # the rule itself: each within its tolerance, both near it at once is not
    assert taught.worst_distance(np.float32([0.9, 0.3, 0.1, 0.1, 0.1])) <= 1.0
    assert taught.worst_distance(np.float32([0.9, 0.8, 0.1, 0.1, 0.1])) > 1.0


def test_the_benchmarks_marked_sides_show_other_faces_of_the_same_kind_of_die():
    """bench/bench_taught.py's "+sides" levels: a die's sides show its other faces, as real dice's do (a Noch
    X-Mal! colour die's other colours, a number die's other numbers), never the face on top."""
    sides = side_faces_for("noch-x-mal", np.random.default_rng(0))
    colours = {"red", "orange", "yellow", "green", "blue", "color-joker"}
    for _ in range(20):
        assert set(sides("red")) <= colours - {"red"}
        assert set(sides("3")) <= {"1", "2", "4", "5", "number-joker"}
    assert len(sides("purple")) == 4 and set(sides("purple")) <= colours  # an untaught colour: a colour die's
    fritzo = side_faces_for("fritzo", np.random.default_rng(1))
    assert all("white" not in fritzo("white") for _ in range(20))
