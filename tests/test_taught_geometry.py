"""The taught reader finds the die's top face in the finder's crop: on whole trays (oblique views, sides in view,
shadows, touching dice) the corners it warps from must be the renderer's true corners.

Rendered trays of the tests' made-up artwork (tests/synth_dice.py), which the top-face net never saw in training
(scripts/train_top_face.py draws its own artwork).
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Iterator

import cv2
import numpy as np
import pytest
from synth_dice import TAUGHT_FACES, found_dice, painter_for, side_faces_for, taught_profile

from companion.profiles import blank_faces
from hardware.synthetic import OBLIQUE, SyntheticDie, found_by, render_tray
from vision import face_marks, face_outline, taught
from vision.detect import DieCandidate, crop_affine, crop_die, find_any_dice, find_dice
from vision.taught import Profile


def _crop_and_truth(frame: np.ndarray, cand, die) -> tuple[np.ndarray, np.ndarray]:
    """The reader's crop of ``cand`` and the die's true top-face corners in that crop (crop_die's transform)."""
    aff = crop_affine(cand, face_outline.CROP, face_outline.MARGIN)
    return crop_die(frame, cand, face_outline.CROP, face_outline.MARGIN), cv2.transform(np.float32([die.top]), aff)[0]


def corner_errors(set_name: str, trays: int, seed: int, oblique: bool = False, marked_sides: bool = False
                  ) -> list[float]:
    """Per die found: the mean distance of the true corners to the nearest found corner, in face sides.
    ``oblique``: seen by a webcam beside the tray; ``marked_sides``: the dice's sides show their other faces."""
    rng = np.random.default_rng(seed)
    errors = []
    for _ in range(trays):
        faces = list(rng.choice(TAUGHT_FACES[set_name], int(rng.integers(1, 5))))
        frame, truth = render_tray(rng, faces=faces, painter=painter_for(set_name),
                                   tilt=float(rng.uniform(*OBLIQUE)) if oblique else None,
                                   side_faces=side_faces_for(set_name, rng) if marked_sides else None)
        cands = find_any_dice(frame)
        for die in truth:
            cand = found_by(die, truth, cands)
            if cand is None:
                continue  # missed, or merged with a touching die, by the finder: the finder's business
            crop, true = _crop_and_truth(frame, cand, die)
            found = face_outline.face_corners(crop)
            side = math.sqrt(cv2.contourArea(true))
            d = np.linalg.norm(true[:, None] - found[None], axis=2).min(axis=1)
            errors.append(float(d.mean()) / side)
    return errors


@pytest.mark.parametrize("set_name", list(TAUGHT_FACES))
def test_top_face_corners_on_whole_trays(set_name):
    errors = corner_errors(set_name, trays=15, seed=404)
    assert len(errors) >= 25
    # within a tenth of the face's side: the mark grid is then off by less than its shift tolerance. Measured over 40
    # trays of another seed: 96-98 % of dice; these 15 trays are harder (85-100 %); the hand-made finder: ~40 %
    close = np.mean(np.array(errors) < 0.1)
    assert close >= 0.8, (close, np.round(errors, 2))


def test_top_face_corners_seen_from_the_side_on_dice_with_marked_sides():
    """Real dice carry their other faces on their sides. Seen from beside the tray, the front side shows as much
    as the top, and a net trained on plain sides took it for the top (then named the die by its side's mark). The
    shipped net learnt marked sides from above and from beside (scripts/train_top_face.py). Measured on these
    trays: 80 % of dice within a tenth of the side (the net trained on plain sides: 62 %; another seed 71 / 62 %)."""
    errors = [e for set_name in TAUGHT_FACES for e in corner_errors(set_name, 10, 404, oblique=True,
                                                                      marked_sides=True)]
    assert len(errors) >= 80
    close = np.mean(np.array(errors) < 0.1)
    assert close >= 0.72, close


def test_only_an_under_exposed_crop_is_brightened_for_the_outline_nets():
    """``face_outline.exposed``: a crop whose brightest pixels reach EXPOSED is shown as it is; a dim one is
    brightened until they do; a near-black one by at most BRIGHTEN_UPTO (its noise is not made a picture)."""
    rng = np.random.default_rng(3)
    lit = rng.integers(0, 230, (40, 40, 3), dtype=np.uint8)
    assert face_outline.exposed(lit) is lit
    dim = (lit * 0.4).astype(np.uint8)
    brighter = face_outline.exposed(dim)
    assert abs(float(np.percentile(brighter.max(axis=2), 95)) - face_outline.EXPOSED) <= 3.0
    assert float(np.corrcoef(brighter.ravel(), lit.ravel())[0, 1]) > 0.99  # brighter, not another picture
    black = (lit * 0.05).astype(np.uint8)
    assert int(face_outline.exposed(black).max()) <= face_outline.BRIGHTEN_UPTO * int(black.max())


def test_a_missing_or_damaged_model_leaves_the_hand_made_finder(tmp_path, monkeypatch):
    """The learned finder is optional: a damaged file is not a crash, and the hand-made finder still finds a face."""
    bad = tmp_path / "top_face.onnx"
    bad.write_bytes(b"not a model")
    assert face_outline.top_net(bad) is None
    assert face_outline.top_net(tmp_path / "absent.onnx") is None
    monkeypatch.setitem(face_outline._top_nets, face_outline.TOP_MODEL_PATH, None)
    rng = np.random.default_rng(1)  # a top-down die: the kind the hand-made finder gets right
    frame, truth = render_tray(rng, faces=["car"], painter=painter_for("haste-worte"))
    cand = find_dice(frame)[0]
    crop, true = _crop_and_truth(frame, cand, truth[0])
    found = face_outline.face_corners(crop)
    error = np.linalg.norm(true[:, None] - found[None], axis=2).min(axis=1).mean() / math.sqrt(cv2.contourArea(true))
    assert error < 0.15, error
    assert taught.match(taught.Profile("haste-worte"), crop).face is None



def _dice_boxed_in_part(share: float, off: float) -> Iterator[tuple[np.ndarray, DieCandidate, str]]:
    """Each found die of 16 rendered Echt Spitze trays, with a box on ``share`` of its side moved ``off`` of that
    box's side from its centre: the frame, that box and the die's face."""
    rng = np.random.default_rng(77)
    for _ in range(16):
        faces = list(rng.choice(TAUGHT_FACES["echt-spitze"], int(rng.integers(1, 4))))
        frame, truth = render_tray(rng, faces=faces, painter=painter_for("echt-spitze"))
        cands = find_dice(frame)
        for die in truth:
            cand = found_by(die, truth, cands)
            if cand is None:
                continue
            (cx, cy), (rw, rh), angle = cand.rect
            side = share * max(rw, rh)
            yield frame, DieCandidate(box=cand.box, rect=((cx - off * side, cy + off * side), (side, side), angle),
                                      size=side, score=cand.score), die.face


def test_a_die_cut_by_its_box_is_cropped_again_and_read():
    """A finder's box on part of a die (the pip detector's square on a numeral; a die at the tray's edge) cuts the
    face, and with it the small extra cross in its corner: ``die_crop`` sees the face reach the crop's edge and
    crops again around it, so the die is read as it is."""
    profile = taught_profile("echt-spitze", seed=5)
    read_cut = read_again = wrong_again = n = 0
    for frame, part, face in _dice_boxed_in_part(0.6, 0.2):
        n += 1
        read_cut += taught.match(profile, crop_die(frame, part, face_outline.CROP, face_outline.MARGIN)).face == face
        again = taught.match(profile, face_outline.die_crop(frame, part)).face
        read_again += again == face
        wrong_again += again is not None and again != face
    assert n >= 20
    assert wrong_again == 0
    assert read_again >= 0.8 * n and read_again >= read_cut + 0.3 * n, (read_cut, read_again, n)


def test_a_die_cut_off_by_a_box_on_a_small_part_of_it_is_cropped_again_until_whole(monkeypatch):
    """A box on a small part of a die, off its centre (the finder's box on a big die's side, seen from beside the
    tray): the face found in the first crop is cut, and a crop around what was found can cut it again. Cropped
    again until the face lies inside (``REGROW`` times at most), the dice are read; cropped again once, 3 of 32
    were named wrongly (the cross cut off) and most left unknown."""
    profile = taught_profile("echt-spitze", seed=5)

    def read(regrow: int) -> tuple[int, int, int]:
        monkeypatch.setattr(face_outline, "REGROW", regrow)
        face_outline._corners_seen.clear()
        right = wrong = n = 0
        for frame, part, face in _dice_boxed_in_part(0.4, 0.5):
            n += 1
            answer = taught.match(profile, face_outline.die_crop(frame, part)).face
            right += answer == face
            wrong += answer is not None and answer != face
        return right, wrong, n

    right, wrong, n = read(face_outline.REGROW)
    once, _, _ = read(1)
    assert n >= 20 and wrong == 0
    assert right >= 0.9 * n and right >= once + 0.5 * n, (once, right, n)


def _oblique_tray(seed: int, set_name: str) -> tuple[np.ndarray, list[SyntheticDie]]:
    """A rendered tray of three dice of ``set_name`` seen from beside it, and its truth."""
    rng = np.random.default_rng(seed)
    faces = list(rng.choice(TAUGHT_FACES[set_name], 3))
    return render_tray(rng, faces=faces, painter=painter_for(set_name), tilt=float(rng.uniform(*OBLIQUE)))


def _found_oblique_dice(set_name: str, trays: int) -> Iterator[tuple[np.ndarray, SyntheticDie, DieCandidate]]:
    """Each die the finder found on ``_oblique_tray`` seeds 0 to trays - 1: the frame, the die's truth and its
    candidate."""
    for seed in range(trays):
        frame, truth = _oblique_tray(seed, set_name)
        cands = find_any_dice(frame)
        for die in truth:
            cand = found_by(die, truth, cands)
            if cand is not None:
                yield frame, die, cand


def _oblique_die(seed: int, which: int, set_name: str = "haste-worte") -> tuple[np.ndarray, str]:
    """The reader's crop of one die of ``_oblique_tray``, and its face."""
    frame, truth = _oblique_tray(seed, set_name)
    die = truth[which]
    cand = found_by(die, truth, find_any_dice(frame))
    assert cand is not None
    return face_outline.die_crop(frame, cand), die.face


def test_an_upright_crop_keeps_the_cameras_up():
    """A die seen from beside the tray shows its top above its sides, and a top-face net trained with
    ``--keep-up`` (scripts/train_top_face.py) finds it there, so its crops must keep the camera's up: a classical
    candidate's box angle is anywhere in 0-90 degrees, and a crop turned by more than 45 shows the top beside its
    sides (``face_outline.upright``). On 30 rendered oblique trays, every die's true top lies above the centre of its
    whole box in the crop (without ``upright``, 81 of 88 dice's)."""
    above = n = 0
    for _, die, cand in _found_oblique_dice("haste-worte", 30):
        n += 1
        to_crop = crop_affine(face_outline.upright(cand), face_outline.CROP, face_outline.MARGIN)
        top = cv2.transform(np.float32([die.top]), to_crop)[0].mean(axis=0)
        x0, y0, x1, y1 = die.box
        centre = cv2.transform(np.float32([[[(x0 + x1) / 2, (y0 + y1) / 2]]]), to_crop)[0, 0]
        above += top[1] < centre[1]
    assert n >= 60
    assert above == n


def test_upright_turns_a_box_by_less_than_45_degrees_and_crops_the_same_die():
    cand = DieCandidate(box=(90, 90, 150, 150), rect=((120.0, 120.0), (50.0, 40.0), 80.0), size=50.0, score=1.0)
    turned = face_outline.upright(cand)
    assert turned.rect == ((120.0, 120.0), (40.0, 50.0), -10.0)
    assert face_outline.upright(turned) is turned
    frame = cv2.GaussianBlur(np.random.default_rng(0).integers(0, 256, (240, 240, 3), dtype=np.uint8), (0, 0), 3)
    a = crop_die(frame, cand, face_outline.CROP, face_outline.MARGIN).astype(int)
    b = crop_die(frame, turned, face_outline.CROP, face_outline.MARGIN).astype(int)
    inner = (slice(2, -2), slice(2, -2))  # the same pixels, a quarter turn apart (interpolation aside)
    assert min(np.abs(np.rot90(a, k)[inner] - b[inner]).mean() for k in range(4)) < 2.0
    # and the reader crops every die so: the up-keeping top-face net looks for the top above the die's sides
    assert np.array_equal(face_outline.die_crop(frame, cand), face_outline.die_crop(frame, turned))


def _without_side_views(profile: Profile) -> Profile:
    """The same examples without their descriptions along the side net's outline: no last look."""
    return Profile(profile.set_name, profile.names, profile.vectors, blank_faces=profile.blank_faces)


def test_dice_seen_from_the_side_are_looked_at_again_along_their_edges():
    """Seen from beside the tray, the net's outline of a top face can take in a strip of the side below it, and
    the squashed mark is then too far from its examples. The matcher looks at such an unknown die again with the
    outline moved onto the edges (``refine_corners``), and names it when that look is sure. Rendered oblique trays
    of three dice (taught from upright photos), without the side net's last look: of the dice whose first look is
    unsure, the second look names none wrongly, and it names one die right that the first look left unknown.

    Since the up-keeping top-face net (twenty-fourth session) that look is rarely needed: over 200 trays it named
    1 of the 30 unsure dice (the one below; 9 unsure in the 80 trays counted here), the net before it 2 or more of
    24-28 unsure in 80 trays."""
    profile = _without_side_views(taught_profile("echt-spitze", seed=0))
    unsure = named_wrong = 0
    for frame, die, cand in _found_oblique_dice("echt-spitze", 80):
        crop = face_outline.die_crop(frame, cand)
        if taught._judge(profile, crop, None).face is not None:
            continue  # the net's outline alone was sure: no second look
        unsure += 1
        answer = taught.match(profile, crop)
        named_wrong += answer.face is not None and answer.face != die.face
    assert unsure >= 5
    assert named_wrong == 0
    crop, face = _oblique_die(256, 2, "echt-spitze")  # seed 186's die 1 until hairlines were no mark: read at once
    assert taught._judge(profile, crop, None).face is None
    answer = taught.match(profile, crop)
    assert answer.face == face and answer.confidence >= taught.SECOND_LOOK


def _oblique_profile(set_name: str, seed: int) -> Profile:
    """Two examples of every taught face, each from a rendered tray of one die seen from beside it, as a family
    with a webcam beside the tray teaches (a die whose mark the finder missed is shown again)."""
    rng = np.random.default_rng(seed)
    profile = Profile(set_name, blank_faces=blank_faces(set_name))
    for face in TAUGHT_FACES[set_name]:
        while profile.counts().get(face, 0) < 2:
            frame, [(_, cand, _)] = found_dice(set_name, [face], rng, tilt=float(rng.uniform(*OBLIQUE)))
            if cand is not None:
                with contextlib.suppress(taught.MarkNotSeen):
                    profile.add(face, face_outline.die_crop(frame, cand))
    return profile


@pytest.mark.parametrize("set_name, taught_seed, seed, which", [("echt-spitze", 3, 68, 0), ("haste-worte", 4, 125, 2)])
def test_a_die_seen_from_the_side_is_read_at_the_last_look_along_the_side_nets_outline(set_name, taught_seed, seed,
                                                                                        which):
    """The side net (trained on trays seen from beside them too) outlines some top faces better, and the examples
    are described along its outline as well (``Profile.side``). Two rendered dice, taught and read from the side,
    that the first two looks leave unknown (near misses), named at the last look. (Since the up-keeping top-face
    net, twenty-fourth session, such dice are rare: with the tenth session's side net, none in 200 trays of the
    haste-worte profile taught on seed 3 that this test used before; on the tuning seeds' `oblique` trays the
    retrained side net names 20 more of 4491 dice than no side net.)"""
    profile = _oblique_profile(set_name, taught_seed)
    crop, face = _oblique_die(seed, which, set_name)
    without_side = _without_side_views(profile)
    assert without_side.side is None and taught.match(without_side, crop).face is None
    answer = taught.match(profile, crop)
    assert answer.face == face and answer.confidence >= taught.SECOND_LOOK


@pytest.mark.parametrize("first_distance, last, named", [
    (2.0, ("water", 0.99), "water"),  # another face than the first look's nearest, sure: named
    (2.0, ("cities", 0.9), None),  # not sure enough
    (2.0, ("cities", 0.99), "cities"),
    (4.0, ("water", 0.99), "water"),  # no near miss: the same rules ...
    (4.0, ("cities", 0.9), None),
    (4.0, ("water", 0.9), None),
    (4.0, ("cities", 0.99), "cities"),  # ... and no second look (it would need a near miss to confirm)
])
def test_the_last_look_names_the_face_it_is_sure_of(monkeypatch, first_distance, last, named):
    """The last look, along the side net's outline, names a face when sure beyond SECOND_LOOK: the first look's
    nearest face or another (the first outline cut a mark or slid onto a side; forty-fifth session; until then
    it only confirmed the first look's nearest face). Unlike the second look, also after a first look that was no
    near miss: a webcam's oblique outline that cut a row of pips off is far from every example, and the side net's
    outline finds the whole face (forty-third session)."""
    profile = taught_profile("haste-worte", seed=0)
    profile.blank_faces = blank_faces("haste-worte")  # every face carries a mark: no plain look could confirm
    assert profile.side_profile() is not None
    answers = {id(profile): [taught.Match(None, 0.1, "cities", first_distance, 1.2),  # the first look
                             taught.Match(None, 0.2, "cities", 1.5, 1.1)],  # along the edges: unsure
               id(profile.side_profile()): [taught.Match(last[0], last[1], last[0], 0.3, 9.0)]}  # the side net's
    looks = []

    def judge(p, crop, corners):
        looks.append(p)
        return answers[id(p)][sum(q is p for q in looks) - 1]

    monkeypatch.setattr(taught, "_judge", judge)
    assert taught.match(profile, np.zeros((80, 80, 3), np.uint8)).face == named
    second = [profile] if first_distance <= taught.ALIGN_UPTO else []
    assert [id(p) for p in looks] == [id(p) for p in [profile, *second, profile.side_profile()]]


def test_a_plain_face_named_where_the_two_nets_outline_it_otherwise_is_asked_if_a_mark_may_be_cut_off():
    """Seen from beside the tray, the top-face net's outline can cut Echt Spitze's small cross off: a "3+X" then
    is a sure "3" at the first look. Where the side net outlines the face otherwise and its look does not hold the
    answer (``taught._mark_cut_off``), the die is asked about. A rendered die of the tests' oblique trays, taught
    from the side, that the reader named "3" before. Nor is "3" the screen's guess (the teaching screen offers the
    nearest face first, and a family mostly presses SELECT): the die may well carry the cross."""
    profile = _oblique_profile("echt-spitze", 3)
    crop, face = _oblique_die(263, 0, "echt-spitze")
    assert face == "3+X"
    crop = face_outline.as_crop(crop)
    assert taught._judge(profile, crop, None).face == "3"  # the cross cut off: as sure as a "3" can be
    shift = taught._outline_shift(face_outline.face_corners(crop), face_outline.side_corners(crop))
    assert shift > taught.OUTLINES_APART
    answer = taught.match(profile, crop)
    assert answer.face is None and answer.nearest is None and answer.confidence < taught.THRESHOLD


def test_only_a_plain_face_of_a_set_with_marks_is_checked_for_a_cut_mark(monkeypatch):
    """A cut takes a mark away, never adds one: a "3+X" named is not checked, nor any face of a set whose faces
    carry no extra mark (the side net, ~1 ms a die, runs for none of them)."""
    def no_net(crop):
        raise AssertionError("the side net ran")

    monkeypatch.setattr(taught, "side_corners", no_net)
    crop = np.zeros((80, 80, 3), np.uint8)
    echt = taught_profile("echt-spitze", seed=0)
    assert any("+" in name for name in echt.names)
    assert not taught._mark_cut_off(echt, crop, taught.Match("3+X", 0.9, "3+X", 0.5, 4.0))
    haste = taught_profile("haste-worte", seed=0)
    assert not taught._mark_cut_off(haste, crop, taught.Match(haste.names[0], 0.9, haste.names[0], 0.5, 4.0))
    with pytest.raises(AssertionError, match="side net ran"):
        taught._mark_cut_off(echt, crop, taught.Match("3", 0.9, "3", 0.5, 4.0))


def test_two_outlines_of_a_face_are_compared_corner_to_corner_whichever_corner_each_starts_at():
    square = np.float32([[10, 10], [50, 10], [50, 50], [10, 50]])
    assert taught._outline_shift(square, np.roll(square, 1, axis=0)) == 0.0
    assert taught._outline_shift(square, square + [8, 0]) == pytest.approx(0.2)


def test_the_last_look_does_not_name_a_plain_face_whose_mark_the_first_look_saw(monkeypatch):
    """A "1" sure along the side net's outline, where the first look's nearest face, a near miss, is "1+X": the
    side net's outline cut the cross off (rendered Echt Spitze seen from the side, tuning seed 1313), so the die is
    asked about; nor any face where the first look saw no mark at all (a tray's screw hole:
    tests/test_taught_real.py)."""
    profile = taught_profile("echt-spitze", seed=0)
    answers = {id(profile): taught.Match(None, 0.3, "1+X", 0.9, 1.2),
               id(profile.side_profile()): taught.Match("1", 0.99, "1", 0.3, 9.0)}
    monkeypatch.setattr(taught, "_judge", lambda p, crop, corners: answers[id(p)])
    monkeypatch.setattr(taught, "refine_corners", lambda crop, corners: corners)
    assert taught.match(profile, np.zeros((80, 80, 3), np.uint8)).face is None
    answers[id(profile.side_profile())] = taught.Match("2+X", 0.99, "2+X", 0.3, 9.0)  # any other face: named
    assert taught.match(profile, np.zeros((80, 80, 3), np.uint8)).face == "2+X"
    answers[id(profile)] = taught.Match(None, 0.0, "2", 13.5, 1.4, blank=True)  # the first look saw no mark at all
    assert taught.match(profile, np.zeros((80, 80, 3), np.uint8)).face is None
    # a far miss saw no cross for sure, though "5+X" ranked nearest: a "5" the side net is sure of is named
    answers[id(profile)] = taught.Match(None, 0.0, "5+X", 5.6, 1.0)
    answers[id(profile.side_profile())] = taught.Match("5", 0.98, "5", 0.3, 2.4)
    assert taught.match(profile, np.zeros((80, 80, 3), np.uint8)).face == "5"


@pytest.mark.parametrize("seed, which", [(10, 2), (22, 2)])
def test_a_plain_cube_seen_from_the_side_is_named_by_its_colour_at_the_second_look(seed, which):
    """A Fritzo cube's outline that takes in a strip of its side shows the edge between them as a mark, and a
    marked face is far from every plain example. Seen along its edges the top face is plain, and its colour names
    it: a plain second look may answer though the first was no near miss (it cannot have cut a mark off)."""
    profile = taught_profile("fritzo", seed=0)
    crop, face = _oblique_die(seed, which, "fritzo")
    first = taught._judge(profile, crop, None)
    assert first.face is None and not first.blank and first.distance > taught.ALIGN_UPTO
    assert taught.match(profile, crop).face == face


@pytest.mark.parametrize("seed, which", [(393, 1)])
def test_a_side_strip_taken_in_by_the_outline_does_not_hide_the_face(seed, which, monkeypatch):
    """Seen from beside the tray, the net's outline can take in a strip of the die's shaded side that turns a
    corner or touches the mark; left in, it is far from every example. A rendered oblique Noch X-Mal! die, taught
    from above, that the reader names with the strip taken out (``face_marks._drop_side_strips``) and not without.
    (Since the up-keeping top-face net, twenty-fourth session, two or three in 450 trays were such dice; since a
    cut die is cropped again until whole, thirty-fifth session, this one in 600: the net outlines seed 413's red
    patch on a red table to the crop's edge, so that die is now cropped again twice more, read smaller and left
    unknown.) Without the side net's look, which since the forty-third session confirms any miss and names this die
    along its own outline either way."""
    profile = _without_side_views(taught_profile("noch-x-mal", seed=0))
    crop, face = _oblique_die(seed, which, "noch-x-mal")
    assert taught.match(profile, crop).face == face
    monkeypatch.setattr(face_marks, "_drop_side_strips", lambda ch: None)
    assert taught.match(profile, crop).face != face
