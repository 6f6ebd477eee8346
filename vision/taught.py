"""Reading taught dice faces (symbols, numerals, colours) by comparing a die crop with the players' own examples.

Why examples and not a trained model: the games' artwork changes between print runs, and one or two photos per face
are all a family will take. So a face is described by two small, hand-made descriptions that survive the photo's
conditions, and a query is matched to its nearest examples:

- **shape**: where the die's top face differs from its body (the mark: numeral, symbol, colour patch, extra cross).
  The body colour is measured on the rim of the crop and a plane is fitted to its brightness, so a light gradient
  or a dimmer lamp does not change the mark. The soft mark mask, blurred and sampled on a 16x16 grid, is compared
  in the 4 quarter turns (the die finder gives an upright crop, but which side is "up" is the die's business) and
  a few degrees either side of each (the finder's tilt error).
- **colour**: where colour is the meaning (a red face, a red extra cross), the Lab chroma of the body and of the
  mark, the body's brightness (black vs white) and how much of the face is mark.

A query is answered with a face name only when its nearest example is close in absolute terms AND clearly closer
than the nearest example of any other face; otherwise it is ``None`` (unknown). That second rule is what keeps faces
nobody taught (a symbol of another edition, a 4 with an extra cross when only the plain 4 was shown) from being
read confidently as their nearest look-alike.

Pure OpenCV + numpy; the profile is plain data (arrays and names) that ``companion.profiles`` stores.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

#: bump when the descriptor changes: stored profiles of another version must be taught again
FEATURE_VERSION = 1
CROP = 80  # the side of the crop the features are computed on (crops of other sizes are resized)
MARGIN = 1.3  # the crop holds this much more than the finder's rect: the table around the die
GRID = 20  # shape grid side
BLANK_INK = 0.02  # a face with less mark than this is blank (a colour face): its shape is not compared
BLUR = 1.4  # sigma of the blur on the FACE-side mask before sampling: tolerance to small misalignment
SHAPE_DIM = GRID * GRID
COLOUR_DIM = 8
DIM = SHAPE_DIM + COLOUR_DIM
#: small rotations tried around each quarter turn (degrees): the finder's tilt error
TILTS = (-8.0, 0.0, 8.0)

# decision constants, measured on the rendered dice of tests/synth_dice.py (see docs/taught-dice.md)
ACCEPT_DISTANCE = 0.40  # nearest example further than this: unknown
MIN_MARGIN = 0.10  # nearest other face closer than this beyond the best: unknown
THRESHOLD = 0.5  # confidence at and above which a face is reported


@dataclass(frozen=True)
class Match:
    """The matcher's answer for one crop: ``face`` is None when it is not sure (``confidence`` < THRESHOLD)."""

    face: str | None
    confidence: float
    nearest: str | None  # the closest taught face even when not sure: the screen offers it first
    distance: float
    margin: float


@dataclass
class Profile:
    """What a dice set's faces look like: one row of ``vectors`` per example, named by ``names``.

    Plain data on purpose: ``companion.profiles`` stores it as arrays, and tests build it directly.
    """

    set_name: str
    names: list[str] = field(default_factory=list)
    vectors: np.ndarray = field(default_factory=lambda: np.zeros((0, DIM), np.float32))
    version: int = FEATURE_VERSION

    def __post_init__(self) -> None:
        self.vectors = np.asarray(self.vectors, np.float32).reshape(-1, DIM)
        if len(self.names) != len(self.vectors):
            raise ValueError(f"profile has {len(self.names)} names for {len(self.vectors)} examples")
        self._shape_bank: np.ndarray | None = None

    def add(self, name: str, crop_bgr: np.ndarray) -> None:
        """Add one example (a confirmed answer during the evening makes the reader better)."""
        self.add_vector(name, describe(crop_bgr))

    def add_vector(self, name: str, vector: np.ndarray) -> None:
        self.names.append(str(name))
        self.vectors = np.vstack([self.vectors, np.asarray(vector, np.float32).reshape(1, DIM)])
        self._shape_bank = None

    def counts(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for n in self.names:
            out[n] = out.get(n, 0) + 1
        return out

    def __len__(self) -> int:
        return len(self.names)


# --- description of one crop ---------------------------------------------------------------------------------------

_rr2 = ((np.mgrid[0:CROP, 0:CROP] - (CROP - 1) / 2.0) ** 2).sum(axis=0) / (CROP * CROP)
_CENTRE_WEIGHT = np.exp(-_rr2 / (2 * 0.25**2)).astype(np.float32)
_m = int(round(CROP * (1 - 1 / MARGIN) / 2))
_RECT = np.zeros((CROP, CROP), np.uint8)
_RECT[_m:CROP - _m, _m:CROP - _m] = 1
_k = int(round(0.16 * (CROP - 2 * _m)))
_BAND = (_RECT > 0) & (cv2.erode(_RECT, np.ones((2 * _k + 1, 2 * _k + 1), np.uint8)) == 0)
FACE = 48  # side of the canonical top-face image the mark is described on
_YY, _XX = np.mgrid[0:FACE, 0:FACE].astype(np.float32)
_DESIGN = np.stack([np.ones(FACE * FACE, np.float32), _XX.ravel() / FACE - 0.5, _YY.ravel() / FACE - 0.5], 1)


def _as_crop(crop_bgr: np.ndarray) -> np.ndarray:
    if crop_bgr.ndim == 2:
        crop_bgr = cv2.cvtColor(crop_bgr, cv2.COLOR_GRAY2BGR)
    elif crop_bgr.shape[2] == 4:
        crop_bgr = cv2.cvtColor(crop_bgr, cv2.COLOR_BGRA2BGR)
    if crop_bgr.shape[:2] != (CROP, CROP):
        crop_bgr = cv2.resize(crop_bgr, (CROP, CROP), interpolation=cv2.INTER_AREA)
    return crop_bgr


def _lab(bgr: np.ndarray) -> np.ndarray:
    return cv2.cvtColor(bgr.astype(np.float32) / 255.0, cv2.COLOR_BGR2Lab)


def _body_pixels(lab: np.ndarray, body: np.ndarray) -> np.ndarray:
    """Pixels of the die's body colour: same chroma, not much darker (the die's sides and shadows are darker)."""
    chroma = np.hypot(lab[..., 1] - body[1], lab[..., 2] - body[2])
    tol = 9.0 + 0.25 * float(np.hypot(body[1], body[2]))  # a saturated face loses chroma under glare
    return (chroma < tol) & (lab[..., 0] > 0.8 * body[0])


def _central_blob(mask: np.ndarray) -> np.ndarray | None:
    """The connected blob of ``mask`` nearest the crop's centre (the die the finder meant), holes filled."""
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    best, best_score = None, 0.0
    c = (CROP - 1) / 2.0
    for cnt in contours:
        area = cv2.contourArea(cnt)
        if area < 0.03 * CROP * CROP:
            continue
        inside = cv2.pointPolygonTest(cnt, (c, c), True)  # > 0 inside, distance in pixels
        score = area * (1.0 if inside >= 0 else np.exp(inside / (0.1 * CROP)))
        if score > best_score:
            best, best_score = cnt, score
    if best is None:
        return None
    out = np.zeros((CROP, CROP), np.uint8)
    cv2.drawContours(out, [best], -1, 1, -1)
    return out


def _chroma_modes(pts: np.ndarray, weights: np.ndarray, n: int = 3) -> list[tuple[float, float]]:
    """The ``n`` strongest peaks of the (a, b) histogram of ``pts`` (8-unit bins, neighbours suppressed)."""
    qa = np.clip(((pts[:, 1] + 128) / 8).astype(int), 0, 31)
    qb = np.clip(((pts[:, 2] + 128) / 8).astype(int), 0, 31)
    hist = np.bincount(qa * 32 + qb, weights=weights, minlength=1024).reshape(32, 32).astype(np.float32)
    hist = cv2.blur(hist, (3, 3), borderType=cv2.BORDER_CONSTANT)
    peaks = []
    for _ in range(n):
        ia, ib = np.unravel_index(int(np.argmax(hist)), hist.shape)
        if hist[ia, ib] <= 0:
            break
        sel = (np.abs(qa - ia) <= 1) & (np.abs(qb - ib) <= 1)
        if sel.sum() >= 10:
            peaks.append((float(np.median(pts[sel, 1])), float(np.median(pts[sel, 2]))))
        hist[max(0, ia - 2):ia + 3, max(0, ib - 2):ib + 3] = 0
    return peaks


def top_face(crop_bgr: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The die's top face warped to an upright FACE x FACE square, and the body colour (L, a, b).

    The finder's crop (taken with MARGIN around the die) holds the die as seen: on an oblique view its sides too,
    the table, now and then a shadow or a neighbour. So the top face is searched: for each of the main colours
    that are not the table's (what the crop's border shows), the region of that colour about as bright as its
    brightest part (the sides are in shade) is taken near the centre with the mark's holes filled; the most
    square, most central, biggest one is the top face, its colour the body's. Its rotated rectangle is warped to
    the square.
    """
    crop = _as_crop(crop_bgr)
    lab = _lab(crop)
    border = np.concatenate([lab[0], lab[-1], lab[:, 0], lab[:, -1]])
    table = np.median(border, axis=0)
    table_like = (np.hypot(lab[..., 1] - table[1], lab[..., 2] - table[2]) < 7) & (lab[..., 0] < table[0] + 8)
    sel = ~table_like
    pts, weights = (lab[sel], _CENTRE_WEIGHT[sel]) if sel.sum() > 40 else (lab.reshape(-1, 3),
                                                                           _CENTRE_WEIGHT.ravel())
    best = None
    for a, b in _chroma_modes(pts, weights):
        chroma_ok = np.hypot(lab[..., 1] - a, lab[..., 2] - b) < 9.0 + 0.25 * np.hypot(a, b)
        if chroma_ok.sum() < 20:
            continue
        top_l = float(np.percentile(lab[..., 0][chroma_ok], 90))
        body = np.array([top_l, a, b], np.float32)
        region = (_body_pixels(lab, body) & ~table_like).astype(np.uint8)
        region = cv2.morphologyEx(region, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
        blob = _central_blob(region)
        if blob is None:
            continue
        contours, _ = cv2.findContours(blob, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        hull = cv2.convexHull(max(contours, key=cv2.contourArea))
        rect = cv2.minAreaRect(hull)
        (cx, cy), (rw, rh), _ = rect
        area = float(blob.sum())
        square = min(rw, rh) / max(rw, rh, 1.0) * area / max(rw * rh, 1.0)
        off = np.hypot(cx - CROP / 2, cy - CROP / 2) / CROP
        score = area * square ** 2 * np.exp(-((off / 0.2) ** 2))
        if best is None or score > best[0]:
            best = (score, rect, body)
    if best is None:
        m = CROP * (1 - 1 / MARGIN) / 2
        corners = np.float32([[m, m], [CROP - m, m], [CROP - m, CROP - m], [m, CROP - m]])
        body = np.median(lab[_BAND], axis=0).astype(np.float32)
    else:
        _, rect, body = best
        corners = cv2.boxPoints(rect).astype(np.float32)
        c = corners.mean(axis=0)
        corners = corners[np.argsort(np.arctan2(corners[:, 1] - c[1], corners[:, 0] - c[0]))]
    dst = np.float32([[0, 0], [FACE, 0], [FACE, FACE], [0, FACE]])
    mat = cv2.getPerspectiveTransform(corners, dst)
    face = cv2.warpPerspective(lab, mat, (FACE, FACE), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return face, body


def mark_mask(crop_bgr: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The soft mask (0..1) of what differs from the die's body on the top face, the face (Lab) and the body.

    Brightness is compared with a plane fitted to the body pixels' brightness (light gradients), relative to it
    (a dimmer lamp), and a mark brighter than the body counts half: that is mostly glare on our dice.
    """
    face, body = top_face(crop_bgr)
    is_body = _body_pixels(face, body).ravel()
    if is_body.sum() >= 30:
        coef, *_ = np.linalg.lstsq(_DESIGN[is_body], face[..., 0].ravel()[is_body], rcond=None)
        plane = (_DESIGN @ coef).reshape(FACE, FACE)
    else:
        plane = np.full((FACE, FACE), body[0], np.float32)
    plane = np.maximum(plane, 8.0)
    dl = (face[..., 0] - plane) / plane * 60.0
    dl = np.where(dl > 0, 0.5 * dl, dl)
    da = face[..., 1] - body[1]
    db = face[..., 2] - body[2]
    dist = np.sqrt(dl * dl + da * da + db * db)
    mask = np.clip((dist - 12.0) / 20.0, 0.0, 1.0).astype(np.float32)
    # the rim of the warped face is where the sides and the table leak in
    b = 3
    mask[:b, :] = mask[-b:, :] = 0
    mask[:, :b] = mask[:, -b:] = 0
    return mask, face, body


def _shape_vector(mask: np.ndarray) -> np.ndarray:
    small = cv2.resize(cv2.GaussianBlur(mask, (0, 0), BLUR), (GRID, GRID), interpolation=cv2.INTER_AREA)
    v = small.ravel().astype(np.float32)
    if mask.mean() < BLANK_INK:
        return np.zeros_like(v)  # a blank face (a colour face): nothing to correlate
    v = v - v.mean()
    n = float(np.linalg.norm(v))
    return v / n if n > 1e-3 else np.zeros_like(v)


def describe(crop_bgr: np.ndarray) -> np.ndarray:
    """The descriptor of one upright die crop: shape grid (SHAPE_DIM) followed by colour (COLOUR_DIM)."""
    mask, lab, body = mark_mask(crop_bgr)
    ink = float(mask.mean())
    w = mask.sum()
    if w > 1.0:
        mark_a = float((lab[..., 1] * mask).sum() / w)
        mark_b = float((lab[..., 2] * mask).sum() / w)
        mark_l = float((lab[..., 0] * mask).sum() / w) / max(float(body[0]), 8.0)
    else:
        mark_a, mark_b, mark_l = float(body[1]), float(body[2]), 1.0
    colour = np.array([
        body[1] / 25.0, body[2] / 25.0,  # body chroma: the colour of a colour face
        np.log(max(float(body[0]), 4.0) / 50.0) * 0.4,  # body brightness: black vs white, loosely (lamps differ)
        mark_a / 25.0 * min(1.0, ink * 8), mark_b / 25.0 * min(1.0, ink * 8),  # mark colour, if there is a mark
        (mark_l - 1.0) * min(1.0, ink * 8),
        ink * 4.0,
        0.0,
    ], np.float32)
    return np.concatenate([_shape_vector(mask), colour])


def _shape_variants(crop_bgr: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The query's shape in every quarter turn and tilt (rows), and its colour vector."""
    mask, _, _ = mark_mask(crop_bgr)
    rows = []
    centre = (FACE / 2 - 0.5, FACE / 2 - 0.5)
    for tilt in TILTS:
        m = mask if tilt == 0 else cv2.warpAffine(mask, cv2.getRotationMatrix2D(centre, tilt, 1.0), (FACE, FACE))
        v = _shape_vector(m).reshape(GRID, GRID)
        for k in range(4):
            rows.append(np.rot90(v, k).ravel())
    return np.array(rows, np.float32), describe(crop_bgr)[SHAPE_DIM:]


# --- matching ------------------------------------------------------------------------------------------------------


def distances(profile: Profile, crop_bgr: np.ndarray) -> np.ndarray:
    """Distance of the crop to every example of the profile (lower is more alike)."""
    if len(profile) == 0:
        return np.zeros(0, np.float32)
    variants, colour = _shape_variants(crop_bgr)
    shapes = profile.vectors[:, :SHAPE_DIM]
    # cosine distance of non-negative unit vectors, best over the query's rotations; an empty face vs an empty
    # example counts as equal, an empty vs a marked one as far
    sim = shapes @ variants.T  # (N, R)
    shape_d = (1.0 - sim.max(axis=1)) / 2.0
    q_empty = not variants[0].any()
    e_empty = ~shapes.any(axis=1)
    shape_d = np.where(e_empty & q_empty, 0.0, np.where(e_empty | q_empty, 1.0, shape_d))
    colour_d = np.linalg.norm(profile.vectors[:, SHAPE_DIM:] - colour[None, :], axis=1)
    return (shape_d * 2.0 + colour_d * 0.35).astype(np.float32)


def match(profile: Profile, crop_bgr: np.ndarray) -> Match:
    """Name the face in ``crop_bgr`` from the profile's examples, or None when not sure (see module docstring)."""
    d = distances(profile, crop_bgr)
    if d.size == 0:
        return Match(None, 0.0, None, float("inf"), 0.0)
    best_by_name: dict[str, float] = {}
    for name, dist in zip(profile.names, d.tolist(), strict=True):
        if dist < best_by_name.get(name, float("inf")):
            best_by_name[name] = dist
    ranked = sorted(best_by_name.items(), key=lambda kv: kv[1])
    nearest, d1 = ranked[0]
    d2 = ranked[1][1] if len(ranked) > 1 else ACCEPT_DISTANCE * 2 + MIN_MARGIN
    margin = d2 - d1
    # each condition maps to 0.5 exactly at its limit; the confidence is the weaker of the two
    c_abs = 1.0 / (1.0 + np.exp((d1 - ACCEPT_DISTANCE) / (0.15 * ACCEPT_DISTANCE)))
    c_margin = 1.0 / (1.0 + np.exp(-(margin - MIN_MARGIN) / (0.3 * MIN_MARGIN)))
    confidence = float(min(c_abs, c_margin))
    face = nearest if confidence >= THRESHOLD else None
    return Match(face, confidence, nearest, float(d1), float(margin))
