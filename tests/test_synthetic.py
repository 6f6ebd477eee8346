"""The synthetic tray: deterministic, truthful, readable pip dice, painters, and the tray as a frame source."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.errors import SourceError
from hardware.synthetic import (
    DICE_STYLES,
    OBLIQUE,
    PIP_LAYOUT,
    SyntheticTray,
    make_table,
    marbled_painter,
    paint_pips,
    pip_sides,
    render_tray,
    throw,
)

OUT = Path(__file__).resolve().parents[1] / "out"


def rectify(frame: np.ndarray, top, side: int = 100) -> np.ndarray:
    """The top face seen straight on, from the truth's four corners."""
    dst = np.array([[0, 0], [side, 0], [side, side], [0, side]], np.float32)
    h = cv2.getPerspectiveTransform(np.array(top, np.float32), dst)
    return cv2.warpPerspective(frame, h, (side, side))


def count_pips(frame: np.ndarray, top) -> int:
    """A deliberately simple pip counter: round blobs that stand out from the body's colour."""
    grey = cv2.cvtColor(rectify(frame, top), cv2.COLOR_BGR2GRAY).astype(np.float32)[12:88, 12:88]
    mask = (np.abs(grey - np.median(grey)) > 45).astype(np.uint8)
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    n, _, stats, _ = cv2.connectedComponentsWithStats(mask)
    count = 0
    for i in range(1, n):
        area, w, h = stats[i, cv2.CC_STAT_AREA], stats[i, cv2.CC_STAT_WIDTH], stats[i, cv2.CC_STAT_HEIGHT]
        if 60 <= area <= 900 and area / (w * h) > 0.55 and max(w, h) < 2 * min(w, h):
            count += 1
    return count


def quad_overlap(a, b) -> float:
    area, _ = cv2.intersectConvexConvex(np.array(a, np.float32), np.array(b, np.float32))
    return float(area)


def test_the_same_seed_gives_the_same_picture_and_others_differ() -> None:
    a, truth_a = render_tray(np.random.default_rng(3), n_dice=4)
    b, truth_b = render_tray(3, n_dice=4)
    c, _ = render_tray(4, n_dice=4)
    assert np.array_equal(a, b) and truth_a == truth_b
    assert np.abs(a.astype(int) - c.astype(int)).mean() > 5


def test_frame_size_type_and_faces_follow_the_request() -> None:
    frame, truth = render_tray(1, faces=[6, 1, 3], size=(320, 240))
    assert frame.shape == (240, 320, 3) and frame.dtype == np.uint8
    assert [d.face for d in truth] == [6, 1, 3]
    _, drawn = render_tray(2, n_dice=5, face_choices=[2, 4])
    assert len(drawn) == 5 and {d.face for d in drawn} <= {2, 4}


@pytest.mark.parametrize("seed", range(12))
def test_truth_boxes_lie_in_the_frame_and_top_faces_never_overlap(seed: int) -> None:
    frame, truth = render_tray(seed, n_dice=8)
    h, w = frame.shape[:2]
    for die in truth:
        x0, y0, x1, y1 = die.box
        assert 0 <= x0 < x1 <= w and 0 <= y0 < y1 <= h
        tx0, ty0, tx1, ty1 = die.top_box
        assert x0 <= tx0 < tx1 <= x1 and y0 <= ty0 < ty1 <= y1
        assert 20 <= tx1 - tx0 <= 0.3 * w  # a die, not a speck or the whole tray
    for i, a in enumerate(truth):
        for b in truth[i + 1:]:
            assert quad_overlap(a.top, b.top) < 1.0


def test_dice_stand_out_from_the_table_where_the_truth_says() -> None:
    frame, truth = render_tray(11, n_dice=3)
    table = np.median(frame.reshape(-1, 3), axis=0)
    for die in truth:
        face = rectify(frame, die.top)[20:80, 20:80].reshape(-1, 3)
        assert np.abs(np.median(face, axis=0) - table).max() > 12 or face.std() > 40


def test_pip_dice_can_be_read_by_a_simple_pip_counter() -> None:
    """Round pips at standard positions, with enough contrast: readable by the crudest reader, so a real one
    has no excuse. Lighting, glare, blur and noise vary across seeds."""
    results = []
    for seed in range(25):
        frame, truth = render_tray(seed, n_dice=6)
        results += [count_pips(frame, d.top) == d.face for d in truth]
    assert len(results) == 150
    assert sum(results) >= 147, f"{len(results) - sum(results)} of 150 dice miscounted"


def test_dice_styles_vary_across_throws() -> None:
    styles = {d.style for seed in range(20) for d in render_tray(seed, n_dice=3)[1]}
    assert len(styles) >= 5 and styles <= set(DICE_STYLES)


def test_paint_pips_places_the_pips_of_each_face() -> None:
    rng = np.random.default_rng(0)
    for face in range(1, 7):
        img = paint_pips(face, 120, rng)
        assert img.shape == (120, 120, 3) and img.dtype == np.uint8
        dark = (cv2.cvtColor(img, cv2.COLOR_BGR2GRAY) < 100).astype(np.uint8)
        assert cv2.connectedComponents(dark)[0] - 1 == face
    with pytest.raises(ValueError, match="1-6"):
        paint_pips(7, 64, rng)


def test_marbled_dice_have_swirled_bodies_and_pips_of_one_colour() -> None:
    for seed in range(12):
        rng = np.random.default_rng(seed)
        painter = marbled_painter(rng)
        for face in range(1, 7):
            img = painter(face, 120, rng).astype(np.float32)
            assert img.shape == (120, 120, 3)
            centres = [(int(x * 120), int(y * 120)) for x, y in PIP_LAYOUT[face]]
            pips = np.array([img[y, x] for x, y in centres])
            assert np.ptp(pips, axis=0).max() < 12, "every pip of a die is the same colour"
            body = np.ones((120, 120), bool)
            for x, y in centres:
                cv2.circle(body.view(np.uint8), (x, y), 16, 0, -1)
            # each pip stands out from the body around it
            for x, y in centres:
                around = np.s_[max(0, y - 20):y + 20, max(0, x - 20):x + 20]
                assert np.abs(img[y, x] - np.median(img[around][body[around]], axis=0)).max() > 30
        # the body is swirled, not flat: its colour varies across the face far more than paint_pips' noise
        assert img[body].std(axis=0).max() > 8


def test_a_painter_paints_every_face_and_sets_the_body_colour() -> None:
    calls = []

    def star_painter(face: object, size: int, rng: np.random.Generator) -> np.ndarray:
        calls.append((face, size, type(rng)))
        img = np.full((size, size, 3), (200, 60, 40), np.uint8)  # blue body (BGR)
        cv2.putText(img, str(face)[0].upper(), (size // 4, 3 * size // 4), cv2.FONT_HERSHEY_SIMPLEX,
                    size / 40, (255, 255, 255), max(2, size // 15))
        return img

    frame, truth = render_tray(5, faces=["star", "moon"], painter=star_painter)
    assert [c[0] for c in calls] == ["star", "moon"]
    assert all(size >= 64 and t is np.random.Generator for _, size, t in calls)
    assert [d.face for d in truth] == ["star", "moon"] and {d.style for d in truth} == {"painted"}
    for die in truth:
        b, g, r = np.median(rectify(frame, die.top)[10:90, 10:90].reshape(-1, 3), axis=0)
        assert b > g + 40 and b > r + 40  # the painted blue survives light, white balance and JPEG


def test_a_painter_returning_no_square_image_is_reported() -> None:
    with pytest.raises(ValueError, match="square BGR"):
        render_tray(1, faces=[1], painter=lambda face, size, rng: np.zeros((size, size // 2, 3), np.uint8))


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [({"n_dice": 31}, "1 to 30"), ({"n_dice": 0}, "1 to 30"),
     ({"faces": []}, "at least one"), ({"faces": [1, 2], "n_dice": 3}, "match"), ({"size": (100, 80)}, "160x120")],
)
def test_impossible_trays_are_clear_errors(kwargs: dict, message: str) -> None:
    with pytest.raises(SourceError, match=message):
        render_tray(1, **kwargs)


def test_more_dice_than_the_tray_holds_is_a_clear_error() -> None:
    rng = np.random.default_rng(0)
    with pytest.raises(SourceError, match="do not fit.*fewer dice"):
        throw(rng, make_table(rng, (320, 240)), [1] * 150)


class FakeClock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_the_tray_is_still_between_rolls_and_moves_after_one() -> None:
    with SyntheticTray(9, n_dice=4, fps=None, motion_frames=5) as tray:
        still = tray.read()
        assert np.array_equal(still, tray.read())  # dice at rest: the same picture
        before = tray.truth
        tray.roll()
        assert tray.rolling
        moving = [tray.read() for _ in range(5)]
        assert not tray.rolling
        landed = tray.read()
        assert np.array_equal(landed, tray.read())
        after = tray.truth
        assert tray.throws == 2
        for a, b in zip([still] + moving, moving + [landed], strict=True):
            assert np.abs(a.astype(int) - b.astype(int)).mean() > 0.5  # every motion frame differs
        assert [d.box for d in before] != [d.box for d in after]
        assert sum(count_pips(landed, d.top) == d.face for d in after) >= len(after) - 1


def test_dice_in_flight_are_drawn_coarser_and_the_dice_at_rest_as_before(monkeypatch) -> None:
    """Frames of dice in flight are only seen moving, so they are drawn at ``FLIGHT_SUPERSAMPLE`` (ROLL shows the
    dice lying sooner); the frames of dice at rest, which are read, are the very frames they were."""
    import hardware.synthetic as synthetic

    def throw_twice() -> tuple[list[np.ndarray], list[np.ndarray]]:
        with SyntheticTray(4, n_dice=3, fps=None, motion_frames=3) as tray:
            flights, stills = [], [tray.read()]
            for _ in range(2):
                tray.roll()
                while tray.rolling:
                    flights.append(tray.read())
                stills.append(tray.read())
        return flights, stills

    assert synthetic.FLIGHT_SUPERSAMPLE < synthetic.SUPERSAMPLE
    coarse, stills = throw_twice()
    monkeypatch.setattr(synthetic, "FLIGHT_SUPERSAMPLE", synthetic.SUPERSAMPLE)
    fine, fine_stills = throw_twice()
    assert all(np.array_equal(a, b) for a, b in zip(stills, fine_stills, strict=True))
    assert all(not np.array_equal(a, b) for a, b in zip(coarse, fine, strict=True))


def test_the_tray_keeps_its_table_from_throw_to_throw() -> None:
    with SyntheticTray(2, n_dice=2, fps=None, motion_frames=0) as tray:
        first, first_truth = tray.read(), tray.truth
        tray.roll()
        second, second_truth = tray.read(), tray.truth
    away = np.ones(first.shape[:2], bool)  # the table away from both throws' dice and shadows
    for x0, y0, x1, y1 in [d.box for d in first_truth + second_truth]:
        pad = max(x1 - x0, y1 - y0)
        away[max(0, y0 - pad):y1 + pad, max(0, x0 - pad):x1 + pad] = False
    assert away.mean() > 0.3
    diff = np.abs(first.astype(int) - second.astype(int)).sum(axis=2)
    assert diff[away].mean() < 10  # the same table under the same light, only noise differs
    assert diff[~away].mean() > diff[away].mean() + 5  # while the dice moved


def test_the_tray_paces_its_frames() -> None:
    clock = FakeClock()
    with SyntheticTray(1, n_dice=2, fps=10.0, clock=clock) as tray:
        assert tray.read() is not None
        clock.now = 0.05
        assert tray.read() is None
        clock.now = 0.1
        assert tray.read() is not None
        assert "synthetic" in tray.description and "seed 1" in tray.description


def test_save_sample_frames_for_people_to_look_at() -> None:
    """Not a check of looks (people do that); a check that samples are written where the brief says."""
    OUT.mkdir(exist_ok=True)
    for seed in (21, 22, 23):
        frame, truth = render_tray(seed)
        path = OUT / f"synthetic_tray_{seed}.png"
        assert cv2.imwrite(str(path), frame)
        assert cv2.imread(str(path)).shape == frame.shape


def test_a_camera_beside_the_tray_sees_the_tops_foreshortened_and_more_of_the_sides() -> None:
    """``tilt`` (bench/bench_taught.py's oblique level, scripts/train_top_face.py --oblique): looking from
    hardware.synthetic.OBLIQUE's side, a top face's square is squashed, by about cos(tilt), and the sides take up
    more of each die's box."""

    def looks(tilt: float) -> tuple[float, float]:
        _, truth = render_tray(np.random.default_rng(3), faces=[1, 2, 3, 4], tilt=tilt)
        squash, top_share = [], []
        for die in truth:
            q = np.float32(die.top)
            edges = np.linalg.norm(q - np.roll(q, 1, axis=0), axis=1)
            squash.append(cv2.contourArea(q) / float(edges.max()) ** 2)
            x0, y0, x1, y1 = die.box
            top_share.append(cv2.contourArea(q) / ((x1 - x0) * (y1 - y0)))
        return float(np.mean(squash)), float(np.mean(top_share))

    above, side = looks(0.0), looks(float(np.mean(OBLIQUE)))
    assert above[0] > 0.9 and side[0] < 0.85, (above, side)
    assert side[1] < above[1] - 0.1, (above, side)


def test_pip_sides_are_the_four_faces_around_the_top() -> None:
    for top in range(1, 7):
        sides = pip_sides(top)
        assert len(sides) == 4 and set(sides) == set(range(1, 7)) - {top, 7 - top}


def test_marked_sides_show_marks_beside_the_top_face_and_leave_the_top_face_as_it_was() -> None:
    """``side_faces`` (scripts/train_top_face.py --marked-sides): real dice carry marks on their sides, which a
    finder of top faces must learn to leave out. The sides show them; the top face and the truth do not change."""
    faces = [1, 2, 3, 4, 5, 6]
    plain, truth = render_tray(np.random.default_rng(3), faces=faces, tilt=float(np.mean(OBLIQUE)))
    marked, truth2 = render_tray(np.random.default_rng(3), faces=faces, tilt=float(np.mean(OBLIQUE)),
                                 side_faces=pip_sides)
    assert [d.top for d in truth] == [d.top for d in truth2]
    for die in truth:
        top_change = np.abs(rectify(marked, die.top).astype(int) - rectify(plain, die.top))[20:80, 20:80].mean()
        assert top_change < 1.0, (die.face, top_change)
        inside = np.zeros(plain.shape[:2], np.uint8)
        x0, y0, x1, y1 = die.box
        inside[y0:y1, x0:x1] = 1
        cv2.fillConvexPoly(inside, cv2.convexHull(np.int32(np.round(die.top))), 0)  # the box less the top: sides
        inside = cv2.erode(inside, np.ones((3, 3), np.uint8))
        side_change = np.abs(marked.astype(int) - plain).max(axis=2)[inside > 0]
        assert (side_change > 40).mean() > 0.02, (die.face, (side_change > 40).mean())  # pips where none were


def test_a_painter_paints_the_sides_it_is_asked_for() -> None:
    calls: list[object] = []

    def painter(face: object, size: int, rng: np.random.Generator) -> np.ndarray:
        calls.append(face)
        return np.full((size, size, 3), 180, np.uint8)

    render_tray(5, faces=["sun"], painter=painter, side_faces=lambda face: [f"{face}-side{k}" for k in range(4)])
    assert calls[0] == "sun" and 1 <= len(calls) - 1 <= 3  # the sides in view, never the one turned away
    assert set(calls[1:]) <= {f"sun-side{k}" for k in range(4)}
