"""Where a die's top face is: the die's crop, the top face's outline in it, the face warped upright, each die once.

``vision.face_marks`` describes the face found here, and ``vision.taught`` compares it with the players' examples.

The top face is found in the crop by a small net trained on rendered trays (scripts/train_top_face.py: the die's
sides, its shadow and a touching neighbour are what it learned to leave out), or without that model by hand-made
rules (candidates: what differs from the table seen on the crop's border, and each of the crop's main colours; the
die's sides, in shade next to the top face, are taken off; the most face-like candidate wins; its sides are moved
onto the strongest edges at full resolution), and it is warped to an upright square. A second net, trained on
trays seen from beside them too, outlines it for the matcher's last look (``side_corners``).

Pure OpenCV + numpy (the nets run on ``vision.inference``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from pathlib import Path

import cv2
import numpy as np

from vision.detect import DieCandidate, crop_affine, crop_die
from vision.frame import brightest
from vision.inference import Model, load_model
from vision.net import as_blob, load_once

CROP = 80  # the side of the crop the features are computed on (crops of other sizes are resized)
MARGIN = 1.3  # the crop holds this much more than the finder's rect: the table around the die
FACE = 64  # side of the canonical top-face image

_FACE_DST = np.float32([[0, 0], [FACE, 0], [FACE, FACE], [0, FACE]])
#: the learned top-face finder (scripts/train_top_face.py): FIND x FIND crop -> logits of "top face here"
TOP_MODEL_PATH = Path(__file__).resolve().parent / "models" / "top_face.onnx"
TOP_SCALE = 1.0 / 255.0
#: the side net: the same finder trained with 30 % of its trays seen from beside the tray (scripts/train_top_face.py
#: --oblique 0.3). Alone it reads rendered dice seen so far better and real ones worse (docs/taught-dice.md), so it
#: is only ``taught.match``'s last look, with examples described along its own outline (``taught.Profile.side``)
SIDE_MODEL_PATH = TOP_MODEL_PATH.with_name("top_face_oblique.onnx")
FIND = 40  # the top face is searched on the crop shrunk to this side (speed; its outline needs no detail)
_BORDER = np.zeros((FIND, FIND), bool)
_BORDER[:1, :] = _BORDER[-1:, :] = _BORDER[:, :1] = _BORDER[:, -1:] = True
_CY, _CX = np.mgrid[0:FIND, 0:FIND].astype(np.float32) / FIND - 0.5
_FIND_DESIGN = np.stack([np.ones(FIND * FIND, np.float32), _CX.ravel(), _CY.ravel()], 1)
_BORDER_DESIGN = _FIND_DESIGN[_BORDER.ravel()]
_K2X2 = np.ones((2, 2), np.uint8)
_EXPECTED_SIDE = FIND / MARGIN
SIDE_SHADE = 0.72  # a die side in view is darker than this fraction of the top face next to it
CLEAN = 0.6  # a candidate this face-like has no sides to take off (speed)
OUTER = 0.8  # a bigger face candidate wins over the best one when it scores this close (a patch inside a face)


def as_crop(crop_bgr: np.ndarray) -> np.ndarray:
    crop_bgr = np.asarray(crop_bgr)
    if crop_bgr.ndim == 2:
        crop_bgr = cv2.cvtColor(crop_bgr, cv2.COLOR_GRAY2BGR)
    elif crop_bgr.shape[2] == 4:
        crop_bgr = cv2.cvtColor(crop_bgr, cv2.COLOR_BGRA2BGR)
    if crop_bgr.dtype != np.uint8:
        crop_bgr = np.clip(crop_bgr, 0, 255).astype(np.uint8)
    if crop_bgr.shape[:2] != (CROP, CROP):
        crop_bgr = cv2.resize(crop_bgr, (CROP, CROP), interpolation=cv2.INTER_AREA)
    return crop_bgr


def _nominal_corners() -> np.ndarray:
    m = CROP * (1 - 1 / MARGIN) / 2
    return np.float32([[m, m], [CROP - m, m], [CROP - m, CROP - m], [m, CROP - m]])


def _central_component(mask: np.ndarray) -> np.ndarray | None:
    """The connected blob of ``mask`` at (or nearest) the centre, holes filled; None when there is none."""
    n, labels, stats, cents = cv2.connectedComponentsWithStats(mask.astype(np.uint8), connectivity=4)
    if n <= 1:
        return None
    c = (FIND - 1) / 2.0
    best, k = -1.0, 0
    areas, centres = stats[:, cv2.CC_STAT_AREA].tolist(), cents.tolist()  # a few parts: Python is faster than numpy
    for j in range(1, n):
        score = areas[j] * math.exp(-((math.hypot(centres[j][0] - c, centres[j][1] - c) / FIND / 0.25) ** 2))
        if score > best:
            best, k = score, j
    if stats[k, cv2.CC_STAT_AREA] < 0.04 * FIND * FIND:
        return None
    return (labels == k).astype(np.uint8)


def _table_difference(lab: np.ndarray) -> np.ndarray:
    """Pixels that differ from the table, modelled as a plane per Lab channel fitted to the crop's border (the
    light's gradient crosses the table too), robustly: die corners reaching into the border are left out."""
    tbl = lab[_BORDER]
    keep = np.ones(len(tbl), bool)
    for _ in range(2):
        coef, *_ = np.linalg.lstsq(_BORDER_DESIGN[keep], tbl[keep], rcond=None)
        r = tbl - _BORDER_DESIGN @ coef
        resid = np.sqrt((0.6 * r[:, 0]) ** 2 + r[:, 1] ** 2 + r[:, 2] ** 2)
        keep = resid < 2.5 * np.median(resid) + 2.0
    table = (_FIND_DESIGN @ coef).reshape(FIND, FIND, 3)
    d = lab - table
    diff = np.sqrt((0.6 * d[..., 0]) ** 2 + d[..., 1] ** 2 + d[..., 2] ** 2)
    thr = float(np.clip(3.0 * np.median(resid[keep]) + 4.0, 7.0, 22.0))
    return (diff > thr).astype(np.uint8)


def _colour_regions(lab: np.ndarray, k: int = 4) -> list[np.ndarray]:
    """Regions of the crop's main colours (a small deterministic k-means; brightness counts less than chroma,
    so one body under a light gradient mostly stays one region), and the unions of regions of like chroma (the
    two halves of a body a strong gradient split)."""
    w = np.float32([0.35, 1.0, 1.0])
    img = lab * w
    pts = img[::2, ::2].reshape(-1, 3)  # the centres are found on every other pixel (speed)
    c = FIND // 2
    centres = [img[c - 1:c + 1, c - 1:c + 1].reshape(-1, 3).mean(axis=0)]
    for _ in range(k - 1):  # farthest point first: deterministic, and finds the small colour patches too
        d = np.min([((pts - q) ** 2).sum(axis=1) for q in centres], axis=0)
        centres.append(pts[int(np.argmax(d))])
    cen = np.array(centres, np.float32)
    for _ in range(4):
        lbl = ((pts[:, None, :] - cen[None]) ** 2).sum(axis=2).argmin(axis=1)
        counts = np.bincount(lbl, minlength=k).astype(np.float32)
        sums = np.stack([np.bincount(lbl, weights=pts[:, d], minlength=k) for d in range(3)], axis=1)
        cen = np.where(counts[:, None] > 0, sums / np.maximum(counts[:, None], 1.0), cen).astype(np.float32)
    lbl = ((img[:, :, None, :] - cen[None, None]) ** 2).sum(axis=3).argmin(axis=2)
    out = [(lbl == j).astype(np.uint8) for j in range(k)]
    for i in range(k):
        for j in range(i + 1, k):
            if np.hypot(*(cen[i, 1:] - cen[j, 1:])) < 8.0:
                out.append(((lbl == i) | (lbl == j)).astype(np.uint8))
    return out


def _without_sides(blob: np.ndarray, light: np.ndarray, local_max: np.ndarray) -> np.ndarray:
    """The blob minus the die's sides: pixels much darker than the brightest pixels nearby (a light gradient is
    slow, the edge between the top face and a side in shade is a step)."""
    top = ((blob > 0) & (light > SIDE_SHADE * local_max)).astype(np.uint8)
    top = cv2.morphologyEx(top, cv2.MORPH_OPEN, _K2X2)
    top_blob = _central_component(top)
    return top_blob if top_blob is not None and top_blob.sum() > 0.45 * blob.sum() else blob


def _face_rect(blob: np.ndarray) -> tuple[float, tuple]:
    """How much ``blob`` looks like the top face of the die the finder meant, and its minimum-area rectangle.

    The blob's convex hull is measured, not the blob: a white body around a big colour patch, or cut by the
    crop's edge, is a ring, but its hull is the face."""
    pts = cv2.findNonZero(blob)
    hull = cv2.convexHull(pts)
    rect = cv2.minAreaRect(hull)
    (cx, cy), (rw, rh), _ = rect
    rw, rh = rw + 1.0, rh + 1.0  # pixel centres: the blob reaches half a pixel further each way
    side = max(rw, rh)
    fill = (float(cv2.contourArea(hull)) + 0.5 * len(hull)) / (rw * rh)
    aspect = min(rw, rh) / side
    rel = side / _EXPECTED_SIDE
    size = min(rel / 0.9, 1.0) * float(np.exp(-max(0.0, rel - 1.15) / 0.08))
    off = float(np.hypot(cx - (FIND - 1) / 2, cy - (FIND - 1) / 2)) / FIND
    touching = float(np.mean(blob[_BORDER] > 0))
    score = min(fill, 1.0) ** 2 * aspect ** 2 * size * float(np.exp(-((off / 0.2) ** 2))) * (1.0 - touching)
    return score, ((cx, cy), (rw, rh), rect[2])


def face_corners(crop_bgr: np.ndarray) -> np.ndarray:
    """The 4 corners (float32, clockwise from the top-left one) of the die's top face in the CROP x CROP crop.

    The learned finder (TOP_MODEL_PATH, scripts/train_top_face.py) answers first: on whole trays it finds the face
    where the hand-made one below does not (its sides, shadow and neighbours are what it learned to leave out).
    Without the model, or when it sees no face, the hand-made finder: candidates for the top face are what differs
    from the table (the crop's border shows it), and each of the crop's main colours (the body; a white body
    around a red patch is a ring whose hull is the whole face). The die's sides, when the camera sees them, are
    taken off (they are in shade), then the candidate that looks most like a die face of the finder's size
    (square, full, central, not the table) wins. When none does, the finder's own square (the crop minus MARGIN)
    is used. Its sides are then moved onto the strongest edges (refine_corners).

    The last CORNER_MEMORY answers are remembered (by the crop's bytes and the model): ``die_crop`` finds the face to
    check its crop, and the matcher then asks again for the same crop (``distinct_dice`` crops a frame's dice
    before the matcher reads them).
    """
    return _remembered_corners(as_crop(crop_bgr), top_net())


def _remembered_corners(crop: np.ndarray, net: Model | None) -> np.ndarray:
    """``_find_corners``, its last CORNER_MEMORY answers remembered by the crop's bytes and the net."""
    key = (hash(crop.tobytes()), id(net))
    if key in _corners_seen:
        return _corners_seen[key].copy()
    corners = _find_corners(crop, net)
    _corners_seen[key] = corners
    if len(_corners_seen) > CORNER_MEMORY:
        del _corners_seen[next(iter(_corners_seen))]  # the oldest answer (dicts keep their insertion order)
    return corners.copy()


CORNER_MEMORY = 32  # each die of a tray of any of the four games, along both nets' outlines
_corners_seen: dict = {}  # (hash of the crop's bytes, which net) -> its corners: the nets' last answers


def _find_corners(crop: np.ndarray, net: Model | None) -> np.ndarray:
    small = cv2.resize(crop, (FIND, FIND), interpolation=cv2.INTER_AREA)
    if net is not None:
        corners = _learned_corners(net, exposed(small))
        if corners is not None:
            return corners  # already at full resolution: moving its sides to edges made it worse (measured)
    lab = cv2.cvtColor(small.astype(np.float32) / 255.0, cv2.COLOR_BGR2Lab)
    light = lab[..., 0]
    local_max = cv2.GaussianBlur(cv2.dilate(light, np.ones((7, 7), np.uint8)), (0, 0), 1.5)
    found: list[tuple[float, float, tuple]] = []
    for cand in [_table_difference(lab), *_colour_regions(lab)]:
        blob = _central_component(cv2.morphologyEx(cand, cv2.MORPH_OPEN, _K2X2))
        if blob is None:
            continue
        score, rect = _face_rect(blob)
        top = blob if score >= CLEAN else _without_sides(blob, light, local_max)
        if top is not blob:  # the die's sides were seen: the top face alone, when it is a plausible face
            top_score, top_rect = _face_rect(top)
            if top_score >= 0.6 * score:
                score, rect = top_score, top_rect
        found.append((score, rect[1][0] * rect[1][1], rect))
    best = max((f[0] for f in found), default=0.0)
    if best < 0.05:
        return refine_corners(crop, _nominal_corners())
    # of the plausible faces, the outermost: a colour patch on a face is a plausible square too
    best_rect = max((f for f in found if f[0] >= OUTER * best), key=lambda f: f[1])[2]
    corners = cv2.boxPoints(best_rect).astype(np.float32)
    return refine_corners(crop, _order((corners + 0.5) * (CROP / FIND) - 0.5))


#: the least brightness (the 95th percentile of a crop's brightest channel) the outline nets are shown ...
EXPOSED = 180.0
#: ... and the most a crop is brightened to reach it
BRIGHTEN_UPTO = 3.0


def exposed(crop: np.ndarray) -> np.ndarray:
    """The crop as the outline nets see it: an under-exposed crop brightened until its brightest pixels (the 95th
    percentile of each pixel's brightest channel) reach EXPOSED, by at most BRIGHTEN_UPTO times.

    Why: in a dim room a webcam's picture is darker and noisier, and the nets drew the top face's outline
    elsewhere: matteo-d6's held-out dice at 0.4 of the exposure had their outline moved by 0.26 of a face's side
    at the 90th percentile (0.13 brightened), a row of pips cut off, and the die left unknown. Of the real photos
    as they are, matteo-d6's crops reach 171-230 and are shown as before; a quarter of byler-d6's held-out crops
    (coloured dice on a darker tray, down to 127) and a few dark rendered ones are brightened, and read as before
    within a die or two. Only the outline changes: the mark is described from the crop as it is
    (``face_marks.canonical`` measures it against the face's own body). docs/taught-dice.md, "In a dim room"."""
    p = brightest(crop)
    if p >= EXPOSED:
        return crop
    return cv2.convertScaleAbs(crop, alpha=min(EXPOSED / max(p, 1.0), BRIGHTEN_UPTO))


_top_nets: dict[Path, Model | None] = {}
_K3X3 = np.ones((3, 3), np.uint8)


def top_net(path: Path = TOP_MODEL_PATH) -> Model | None:
    """The learned top-face finder, loaded once; None (the hand-made finder alone) when missing or unreadable."""
    return load_once(_top_nets, path, lambda p: load_model(p, small=True))


def side_net() -> Model | None:
    """The side net, loaded once as ``top_net`` loads its own; None (no last look) when missing or unreadable."""
    return top_net(SIDE_MODEL_PATH)


def side_corners(crop_bgr: np.ndarray) -> np.ndarray | None:
    """The top face's corners as the side net outlines them (the hand-made finder where it sees no face); None
    without the side net. Remembered as ``face_corners`` remembers its own: ``taught.match`` may read a die once
    more in another light."""
    net = side_net()
    return None if net is None else _remembered_corners(as_crop(crop_bgr), net)


def _order(corners: np.ndarray) -> np.ndarray:
    """Corners clockwise (image coordinates) from the one nearest the top-left. In Python, not numpy: for four
    points numpy's call overhead was most of the time (60 instead of 10 microseconds)."""
    pts = corners.tolist()
    mx = sum(p[0] for p in pts) / len(pts)
    my = sum(p[1] for p in pts) / len(pts)
    pts.sort(key=lambda p: math.atan2(p[1] - my, p[0] - mx))
    first = min(range(len(pts)), key=lambda i: pts[i][0] + pts[i][1])
    return np.array(pts[first:] + pts[:first], np.float32)


def _learned_corners(net: Model, small: np.ndarray) -> np.ndarray | None:
    """The top face's quadrilateral from the net's mask, in CROP pixels; None when the net sees no face.

    The mask is upsampled to the crop before its outline is taken (sub-pixel sides), and its convex hull is
    simplified to 4 corners: a face seen in perspective is a quadrilateral, not a rectangle."""
    logits = net.run(as_blob([small], TOP_SCALE))[0, 0]
    big = cv2.resize(logits, (CROP, CROP), interpolation=cv2.INTER_LINEAR)
    blob = _central_component((logits > 0).astype(np.uint8))
    if blob is None:
        return None
    # the faces of touching dice may join by a thin neck: cut it, keep the central face, grow it back
    core = _central_component(cv2.erode(blob, _K3X3))
    if core is not None:
        blob = cv2.dilate(core, _K3X3) & blob
    keep = cv2.resize(cv2.dilate(blob, _K3X3), (CROP, CROP), interpolation=cv2.INTER_NEAREST)
    contours, _ = cv2.findContours(((big > 0) & (keep > 0)).astype(np.uint8), cv2.RETR_EXTERNAL,
                                   cv2.CHAIN_APPROX_NONE)
    if not contours:
        return None
    hull = cv2.convexHull(max(contours, key=cv2.contourArea)).astype(np.float32)
    perimeter = cv2.arcLength(hull, True)
    quad = None
    for eps in (0.02, 0.04, 0.06, 0.09, 0.12):
        approx = cv2.approxPolyDP(hull, eps * perimeter, True)
        if len(approx) <= 4:
            quad = approx.reshape(-1, 2) if len(approx) == 4 else None
            break
    if quad is None:
        quad = cv2.boxPoints(cv2.minAreaRect(hull))
    pts = quad.tolist()  # half a pixel outwards (pixel centres to the face's edge); in Python, as in ``_order``
    mx = sum(p[0] for p in pts) / 4.0
    my = sum(p[1] for p in pts) / 4.0
    out = []
    for x, y in pts:
        step = 0.5 / max(math.hypot(x - mx, y - my), 1e-6)
        out.append((x + step * (x - mx), y + step * (y - my)))
    return _order(np.array(out, np.float32))


_ALONG = np.linspace(0.2, 0.8, 12, dtype=np.float32)
_OFFSETS = np.arange(-4.0, 4.01, 0.5, dtype=np.float32)


def refine_corners(crop: np.ndarray, corners: np.ndarray) -> np.ndarray:
    """Move each side of the face's quadrilateral to the strongest edge within a few pixels (full resolution).

    The face is found on a shrunk crop; its outline is then where the crop changes most across each side (the
    top face ends there, against the table or the die's shaded side). Rounded corners are left out of the
    sampling. The corners become the intersections of the moved sides.
    """
    grey = cv2.GaussianBlur(crop.astype(np.float32).sum(axis=2), (0, 0), 1.0)
    gx = cv2.Sobel(grey, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(grey, cv2.CV_32F, 0, 1, ksize=3)
    mid = corners.mean(axis=0)
    lines = []
    for i in range(4):
        p0, p1 = corners[i], corners[(i + 1) % 4]
        d = p1 - p0
        n = np.float32([d[1], -d[0]]) / max(float(np.hypot(*d)), 1e-6)
        if np.dot(n, (p0 + p1) / 2 - mid) < 0:
            n = -n  # outward
        pts = p0[None, None] + _ALONG[None, :, None] * d[None, None] + _OFFSETS[:, None, None] * n[None, None]
        mx, my = pts[..., 0].astype(np.float32), pts[..., 1].astype(np.float32)
        sx = cv2.remap(gx, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        sy = cv2.remap(gy, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        strength = np.abs(sx * n[0] + sy * n[1]).mean(axis=1)
        o = float(_OFFSETS[int(np.argmax(strength))])
        lines.append((p0 + o * n, d))
    out = []
    for i in range(4):  # corner i is where side i-1 meets side i
        (a0, ad), (b0, bd) = lines[i - 1], lines[i]
        m = np.array([[ad[0], -bd[0]], [ad[1], -bd[1]]], np.float64)
        if abs(np.linalg.det(m)) < 1e-6:
            return corners
        t = np.linalg.solve(m, (b0 - a0).astype(np.float64))
        out.append(a0 + t[0] * ad)
    return np.array(out, np.float32)


def top_face(crop_bgr: np.ndarray, corners: np.ndarray | None = None) -> np.ndarray:
    """The die's top face (``corners``, default ``face_corners``) warped to an upright FACE x FACE square (BGR,
    float32 0..255)."""
    crop = as_crop(crop_bgr)
    mat = cv2.getPerspectiveTransform(face_corners(crop) if corners is None else corners, _FACE_DST)
    return cv2.warpPerspective(crop.astype(np.float32), mat, (FACE, FACE), flags=cv2.INTER_LINEAR,
                               borderMode=cv2.BORDER_REPLICATE)


def upright(cand: DieCandidate) -> DieCandidate:
    """The candidate with its box turned by less than 45 degrees: a square's box at an angle is its box at that
    angle minus 90, so the crop shows the same die, but the camera's up stays the crop's up within 45 degrees.

    Why: a top-face net trained with ``--keep-up`` (scripts/train_top_face.py) finds the top of a die seen from
    beside the tray as the face above its sides, where an upright camera sees it, and a classical candidate's box
    angle is anywhere in 0-90 degrees: a crop turned by 80 shows the top beside its sides. The training script cuts
    its crops so with ``--keep-up``, and ``die_crop`` crops every die so (twenty-fourth session)."""
    (cx, cy), (rw, rh), angle = cand.rect
    turn = (float(angle) + 45.0) % 90.0 - 45.0
    if turn == angle:
        return cand
    return replace(cand, rect=((cx, cy), (rh, rw), turn))


def die_crop(frame_bgr: np.ndarray, cand: DieCandidate) -> np.ndarray:
    """The crop the reader describes: the finder's die with the table around it (MARGIN), CROP x CROP, the camera's
    up kept within 45 degrees (``upright``: the top-face net looks for the top above the die's sides).

    When the top face found in it reaches the crop's edge, the finder's box was too small or off the die (the pip
    detector's square can sit on a numeral, not on the whole die; a die at the tray's edge is cut): the die is
    cropped again around the face found, GROW times larger. Measured on rendered trays: echt-spitze 89 -> 96 % of
    the taught faces right, noch-x-mal 97.5 -> 99 %, no untaught face answered.
    """
    return _die_crop(frame_bgr, cand)[0]


def _die_crop(frame_bgr: np.ndarray, cand: DieCandidate) -> tuple[np.ndarray, np.ndarray]:
    """``die_crop``'s crop and the frame -> crop transform it was cut with (2x3).

    A face that reaches the crop's edge goes on beyond it: what is found of it is the part in the crop, whose centre
    lies inwards of the face's and whose extent is short of it, so one crop around that can cut the face again (a
    big die seen from beside the tray, the finder's box on its side). It is cropped again until the face lies
    inside, up to REGROW times: a die cut so lost the corner with its extra cross, and an untaught "4+X" was read
    "4" (rendered trays seen from the side)."""
    cand = upright(cand)
    crop = crop_die(frame_bgr, cand, CROP, MARGIN)
    mat = crop_affine(cand, CROP, MARGIN)
    q = face_corners(crop)
    for _ in range(REGROW):
        if q.min() >= EDGE and q.max() <= CROP - 1 - EDGE:
            break
        centre = _in_frame(q, mat).mean(axis=0)
        scale = float(np.hypot(mat[0, 0], mat[0, 1]))
        (_, _), (rw, rh), angle = cand.rect
        side = GROW * max(rw, rh, float((q.max(axis=0) - q.min(axis=0)).max()) / scale)
        cand = DieCandidate(box=cand.box, rect=((float(centre[0]), float(centre[1])), (side, side), angle),
                            size=side, score=cand.score, dice=cand.dice)
        crop = crop_die(frame_bgr, cand, CROP, MARGIN)
        mat = crop_affine(cand, CROP, MARGIN)
        q = face_corners(crop)  # remembered for the matcher
    return crop, mat


def _in_frame(points: np.ndarray, mat: np.ndarray) -> np.ndarray:
    """Points of a crop cut with ``mat`` (frame -> crop, 2x3) in the frame's pixels."""
    inv = cv2.invertAffineTransform(mat)
    return points @ inv[:, :2].T + inv[:, 2]


@dataclass(frozen=True)
class FoundDie:
    """One die as the taught reader reads it: the finder's candidate, its crop (``die_crop``) and the top face
    found in it, as 4 corners in the frame's pixels (where on the table the reading is from)."""

    cand: DieCandidate
    crop: np.ndarray
    top: np.ndarray

    @property
    def top_centre(self) -> tuple[float, float]:
        x, y = self.top.mean(axis=0)
        return float(x), float(y)


def distinct_dice(frame_bgr: np.ndarray, cands: list[DieCandidate]) -> list[FoundDie]:
    """The finder's candidates cropped for reading, each die once: of candidates whose top faces found coincide
    (centres within SAME_TOP of the smaller face's side), only the one whose crop holds that face most centrally.

    Why: seen from beside the tray, one die often gives two or three candidates: the finder splits a die with its
    sides (and shadow) into pieces, and the pip detector also takes a side face with a numeral for a die. Each
    crop's top-face finder then finds the same top face (it looks for the top above the sides), so the screen
    showed that die twice, or asked about a die that is not there. Rendered trays seen from the side, tuning seeds
    (docs/taught-dice.md, twenty-fifth session): three in four of those extra readings gone, more dice read right.
    The order of ``cands`` is kept."""
    frame = np.asarray(frame_bgr)
    found: list[tuple[float, FoundDie, float]] = []
    for cand in cands:
        crop, mat = _die_crop(frame, cand)
        q = face_corners(crop)
        top = _in_frame(q, mat).astype(np.float32)
        side = math.sqrt(max(float(cv2.contourArea(top)), 1.0))
        off = float(np.hypot(*(q.mean(axis=0) - (CROP - 1) / 2.0)))
        found.append((off, FoundDie(cand, crop, top), side))
    kept: list[tuple[float, FoundDie, float]] = []
    for off, die, side in sorted(found, key=lambda f: f[0]):
        cx, cy = die.top_centre
        if any(math.hypot(cx - k.top_centre[0], cy - k.top_centre[1]) < SAME_TOP * min(side, s) for _, k, s in kept):
            continue
        kept.append((off, die, side))
    chosen = {id(k.cand) for _, k, _ in kept}
    return [die for _, die, _ in found if id(die.cand) in chosen]


#: top faces found this close (share of the smaller one's side) are one die's. 0.75 read 8 more of 18195 tuning dice
#: right and left 87 fewer extra readings, but 14 fewer of the benchmark's Echt Spitze dice seen from the side: the
#: most central crop is not always the best read, and merging less loses no die (docs/taught-dice.md)
SAME_TOP = 0.5


EDGE = 1.5  # pixels of the crop: a face corner this close to the crop's edge means the die goes on beyond it
GROW = 1.2  # the die cropped again this much larger than the face found (it was cut: it is larger still) ...
REGROW = 3  # ... at most this many times
