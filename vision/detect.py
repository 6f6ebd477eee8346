"""Find die-shaped objects in a frame, whatever the dice and the table look like.

Why this way: the only things every tray photo shares are that the table is locally smooth and a die is a compact,
roughly square object that stands out from it, either by colour or by its edges (an ivory die on light wood differs
little in colour but has sharp outlines and pips). So we model the table as a heavily smoothed copy of the frame,
mark pixels that differ from it (colour distance OR edge strength, each against the frame's own noise level), and
keep compact blobs. No pips are needed, so symbol and colour dice are found too. The die size is estimated from the
frame (median of the compact blobs), and blobs holding several touching dice are split into that many parts.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from vision.frame import as_bgr, work_image

RotatedRect = tuple[tuple[float, float], tuple[float, float], float]


@dataclass(frozen=True)
class DieCandidate:
    """One die-like region. Coordinates are pixels of the frame given to :func:`find_dice`.

    ``rect`` is an OpenCV rotated rect ((cx, cy), (w, h), angle) around the die as seen (the top face on a
    top-down view; top face plus visible sides on an oblique view). ``size`` is the die's side length estimate.
    ``dice`` is how many dice the blob this came from was judged to hold (>1 means it was split from touching dice).
    """

    box: tuple[int, int, int, int]
    rect: RotatedRect
    size: float
    score: float
    dice: int = 1

    @property
    def center(self) -> tuple[float, float]:
        return self.rect[0]

    @property
    def square(self) -> tuple[int, int, int, int]:
        """An upright square of the die's side around its centre: where the die lies, without what ``box`` adds
        around a die turned 45 degrees (up to 41 % more each way), or its shadow and sides on an oblique view."""
        (cx, cy), half = self.center, self.size / 2
        return int(cx - half), int(cy - half), int(np.ceil(cx + half)), int(np.ceil(cy + half))

    def crop(self, frame_bgr: np.ndarray, size: int = 64) -> np.ndarray:
        """Upright square crop of this die; see :func:`crop_die`."""
        return crop_die(frame_bgr, self, size)


@dataclass(frozen=True)
class _Blob:
    """A die candidate in work-image coordinates, with the mask that produced it (for the pip reader)."""

    rect: RotatedRect
    box: tuple[int, int, int, int]
    score: float
    dice: int


@dataclass
class Detection:
    """Everything the pip reader needs from one detection pass (work image, factor, mask, blobs, die size)."""

    work: np.ndarray
    factor: float
    mask: np.ndarray
    blobs: list[_Blob]
    die_size: float


def _table(lab: np.ndarray) -> np.ndarray:
    """The table without the dice: a median of the frame shrunk 16x, enlarged again (Lab, uint8)."""
    h, w = lab.shape[:2]
    # The table model must be much wider than a die, or a big die leaks into it and vanishes from the mask.
    sw, sh = max(3, w // 16), max(3, h // 16)
    small = cv2.resize(lab, (sw, sh), interpolation=cv2.INTER_AREA)
    ksize = 7 if min(sw, sh) > 14 else 3
    return cv2.resize(cv2.medianBlur(small, ksize), (w, h), interpolation=cv2.INTER_LINEAR)


def _saliency_mask(lab: np.ndarray, background: np.ndarray) -> np.ndarray:
    """Pixels that differ from the smoothed table by colour or by edge strength (uint8 0/255)."""
    diff = cv2.absdiff(lab, background)
    dist = cv2.addWeighted(diff[..., 0], 0.5, cv2.add(diff[..., 1], diff[..., 2]), 1.0, 0)
    # Edges on a slightly blurred image: wood grain and paper texture fade, die outlines and pips do not.
    grey = cv2.GaussianBlur(lab[..., 0], (5, 5), 1.2)
    gx = cv2.convertScaleAbs(cv2.Sobel(grey, cv2.CV_16S, 1, 0))
    gy = cv2.convertScaleAbs(cv2.Sobel(grey, cv2.CV_16S, 0, 1))
    mag = cv2.add(gx, gy)
    mask = cv2.bitwise_or(_above_noise(dist, 8.0, 14), _above_noise(mag, 8.0, 24))
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))
    return mask


#: A shadow is the table darkened (to between SHADE_MIN and SHADE_MAX of its brightness) with its colour kept (its
#: channels' shares within SHADE_CHROMA of the table's, summed): a black die is darker, a coloured one has its own
#: colour. Channel shares, not Lab's a and b: those shrink as a saturated table (green felt) darkens.
SHADE_MIN, SHADE_MAX, SHADE_CHROMA = 0.35, 0.92, 0.06


def _shadow(work: np.ndarray, background: np.ndarray) -> np.ndarray:
    """Where the table lies in a die's shadow (uint8 0/255); ``background`` is the table model (Lab)."""
    px = work.astype(np.float32) + 1.0
    table = cv2.cvtColor(background, cv2.COLOR_LAB2BGR).astype(np.float32) + 1.0
    sp, st = px.sum(axis=2), table.sum(axis=2)
    gain = sp / st
    shift = np.abs(px / sp[..., None] - table / st[..., None]).sum(axis=2)
    shade = (gain > SHADE_MIN) & (gain < SHADE_MAX) & (shift < SHADE_CHROMA)
    return shade.astype(np.uint8) * 255


def _above_noise(img: np.ndarray, k: float, floor: int) -> np.ndarray:
    """Threshold at median + k * MAD of the whole image: the table dominates the frame, so this is its noise."""
    sub = img[::4, ::4]
    med = float(np.median(sub))
    mad = float(np.median(np.abs(sub.astype(np.float32) - med))) + 1.0
    thr = max(med + k * mad, float(floor))
    return cv2.threshold(img, min(thr, 254.0), 255, cv2.THRESH_BINARY)[1]


def _fill_small_holes(mask: np.ndarray) -> np.ndarray:
    """Fill pips and other holes inside blobs, but not the inside of a tray frame (a hole as big as its parent)."""
    contours, hierarchy = cv2.findContours(mask, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    if hierarchy is None:
        return mask
    out = mask.copy()
    limit = mask.shape[0] * mask.shape[1] / 40.0
    for i, h in enumerate(hierarchy[0]):
        parent = h[3]
        if parent < 0:
            continue
        area = cv2.contourArea(contours[i])
        if area < limit and area < 0.5 * cv2.contourArea(contours[parent]):
            cv2.drawContours(out, contours, i, 255, -1)
    return out


def _shape_stats(contour: np.ndarray) -> tuple[float, float, float, RotatedRect]:
    area = cv2.contourArea(contour)
    hull_area = cv2.contourArea(cv2.convexHull(contour)) or 1.0
    rect = cv2.minAreaRect(contour)
    (rw, rh) = rect[1]
    aspect = max(rw, rh) / max(1e-3, min(rw, rh))
    return area, area / hull_area, aspect, rect


def _box_of(rect: RotatedRect, w: int, h: int) -> tuple[int, int, int, int]:
    pts = cv2.boxPoints(rect)
    x0, y0 = np.floor(pts.min(axis=0)).astype(int)
    x1, y1 = np.ceil(pts.max(axis=0)).astype(int)
    return max(0, int(x0)), max(0, int(y0)), min(w, int(x1)), min(h, int(y1))


def _inscribed_die_area(contours: list[np.ndarray], min_side: float) -> float:
    """The die size when no blob is a lone die (every die touches another or its own shadow, as under a low lamp):
    twice the radius of the largest circle inside each blob is about a die's side whatever the dice and shadows
    around it, so the median over the blobs (specks too small to be a die left out). The smallest blob, used
    before, was a speck of table: every real die then counted as dozens of dice and was dropped."""
    sides = []
    for c in contours:
        x, y, bw, bh = cv2.boundingRect(c)
        local = np.zeros((bh + 2, bw + 2), np.uint8)
        cv2.drawContours(local, [c - np.array([x - 1, y - 1])], -1, 255, -1)
        side = 2.0 * float(cv2.distanceTransform(local, cv2.DIST_L2, 3).max())
        if side >= min_side:
            sides.append(side)
    return float(np.median(sides)) ** 2 if sides else float(min(cv2.contourArea(c) for c in contours))


def _blob_stats(mask: np.ndarray, min_side: float, max_side: float) -> list[tuple]:
    """(contour, area, solidity, aspect, rect) of every outer blob of a plausible size."""
    # CCOMP, not EXTERNAL: dice lying inside a tray frame are outer contours inside the frame's hole.
    contours, hierarchy = cv2.findContours(mask, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    if hierarchy is None:
        return []
    stats = []
    for c, hh in zip(contours, hierarchy[0], strict=True):
        if hh[3] >= 0:
            continue
        area, solidity, aspect, rect = _shape_stats(c)
        if min_side * min_side * 0.6 <= area <= (max_side * 3) ** 2:
            stats.append((c, area, solidity, aspect, rect))
    return stats


#: a die seen alone is at most this much longer than wide; in the shadow-free pass a longer blob is a row of dice
SQUARE_ASPECT = 1.45


def _singles(stats: list[tuple], min_side: float, max_side: float) -> list[tuple]:
    """The blobs that look like one die alone: compact, square-ish, of a die's size."""
    return [s for s in stats if s[2] > 0.82 and s[3] < SQUARE_ASPECT and min_side**2 <= s[1] <= max_side**2]


def detect(frame_bgr: np.ndarray, die_side: float | None = None) -> Detection | None:
    """Run one detection pass; ``None`` when the frame is unusable. Internal API shared with the pip reader.

    ``die_side`` (frame pixels): the dice's size when another finder knows it, used when no die stands alone."""
    bgr = as_bgr(frame_bgr)
    if bgr is None:
        return None
    work, factor = work_image(bgr)
    h, w = work.shape[:2]
    lab = cv2.cvtColor(work, cv2.COLOR_BGR2LAB)
    background = _table(lab)
    mask = _fill_small_holes(_saliency_mask(lab, background))
    min_side = max(8.0, min(h, w) / 60.0)  # a die below ~1/60 of the frame cannot show readable pips
    max_side = min(h, w) / 3.0
    stats = _blob_stats(mask, min_side, max_side)
    singles = _singles(stats, min_side, max_side)
    known = None
    if not singles and stats:
        # No die stands alone: under a low lamp each one's shadow joins it (and rolled cubes touch). Without the
        # shadows the dice stand alone again, or at least no shadow is taken for a die; the size another finder
        # knows beats the few lone blobs left (often parts of dice).
        lit = cv2.bitwise_and(mask, cv2.bitwise_not(_shadow(work, background)))
        mask = _fill_small_holes(cv2.morphologyEx(lit, cv2.MORPH_OPEN, np.ones((5, 5), np.uint8)))
        stats = _blob_stats(mask, min_side, max_side)
        singles = _singles(stats, min_side, max_side)
        known = None if die_side is None else (die_side * factor) ** 2
    if not stats:
        return Detection(work, factor, mask, [], 0.0)
    if known is not None:
        die_area = known
    elif singles:
        die_area = float(np.median([s[1] for s in singles]))
    else:
        die_area = _inscribed_die_area([s[0] for s in stats], min_side)
    die_size = float(np.sqrt(die_area))
    blobs: list[_Blob] = []
    for c, area, solidity, aspect, rect in stats:
        n = int(round(area / die_area))
        if known is not None and aspect > SQUARE_ASPECT:
            # Without the shadows, a blob this long is dice in a row, however little of them the mask kept (their
            # shaded sides go with the shadows): taken as one die, the crop showed its neighbour's face. At least
            # two when it holds a die's area: the detector's size runs up to 1.4 dice, so two cubes' length can
            # round to one (a strip of shadow, of less area, stays what its length says).
            n = max(n, int(round(max(rect[1]) / die_size)), 2 if n else 0)
        if n <= 1:
            if area < 0.35 * die_area or aspect > 1.9 or solidity < 0.6:
                continue
            score = float(min(1.0, solidity) * min(1.0, 1.6 / aspect))
            blobs.append(_Blob(rect, _box_of(rect, w, h), score, 1))
            continue
        if n > 12 or solidity < 0.45:
            continue  # a tray wall, a hand, a keyboard: far bigger than a handful of touching dice
        blobs.extend(_split(c, n, w, h, die_size))
    return Detection(work, factor, mask, blobs, die_size)


KMEANS_SEED = 20240601


def _split(contour: np.ndarray, n: int, w: int, h: int, die_size: float) -> list[_Blob]:
    """Split a blob of ``n`` touching dice by k-means on its pixels: cheap and good for rows and clumps."""
    x, y, bw, bh = cv2.boundingRect(contour)
    local = np.zeros((bh, bw), np.uint8)
    cv2.drawContours(local, [contour - np.array([x, y])], -1, 255, -1)
    ys, xs = np.nonzero(local)
    pts = np.column_stack([xs + x, ys + y]).astype(np.float32)
    if len(pts) < n * 4:
        return []
    step = max(1, len(pts) // 2000)
    sample = pts[::step]
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 0.5)
    cv2.setRNGSeed(KMEANS_SEED)  # k-means++ draws its first centres from OpenCV's RNG: the same photo must give the
    # same dice every time (unseeded, a frame read twice could split its touching dice a pixel apart)
    _, labels, _ = cv2.kmeans(sample, n, None, criteria, 2, cv2.KMEANS_PP_CENTERS)
    out = []
    for k in range(n):
        part = sample[labels.ravel() == k]
        if len(part) < 5:
            continue
        rect = cv2.minAreaRect(part)
        (cx, cy), (rw, rh), ang = rect
        # Each part is a die: square up the rect to the die size so a bite of the neighbour does not skew it.
        side = max(min(rw, rh), 0.85 * die_size)
        side = min(side, 1.15 * die_size)
        rect = ((float(cx), float(cy)), (float(side), float(side)), float(ang))
        out.append(_Blob(rect, _box_of(rect, w, h), 0.6, n))
    return out


def _to_frame(blob: _Blob, factor: float, fw: int, fh: int) -> DieCandidate:
    (cx, cy), (rw, rh), ang = blob.rect
    rect = ((cx / factor, cy / factor), (rw / factor, rh / factor), ang)
    return DieCandidate(
        box=_box_of(rect, fw, fh), rect=rect, size=float(np.sqrt(rw * rh) / factor), score=blob.score,
        dice=blob.dice,
    )


def find_dice(frame_bgr: np.ndarray, die_side: float | None = None) -> list[DieCandidate]:
    """Every die-like region in the frame, pips or not (``die_side``: see :func:`detect`). Never raises on odd
    frames (returns [])."""
    try:
        det = detect(frame_bgr, die_side)
    except cv2.error:
        return []
    if det is None:
        return []
    shape = np.asarray(frame_bgr).shape
    fh, fw = int(shape[0]), int(shape[1])
    return [_to_frame(b, det.factor, fw, fh) for b in det.blobs]


def crop_die(frame_bgr: np.ndarray, cand: DieCandidate, size: int = 64, margin: float = 1.0) -> np.ndarray:
    """Upright ``size`` x ``size`` BGR crop of the die, rotated so its edges are axis-aligned.

    ``margin`` > 1 takes some of the surroundings too (1.2 = 20 % wider). Works on the full-resolution frame, so
    a die found in the shrunk work image is cropped with all the camera's detail.
    """
    bgr = as_bgr(frame_bgr)
    if bgr is None:
        return np.zeros((size, size, 3), np.uint8)
    mat = crop_affine(cand, size, margin)
    scale = float(np.hypot(mat[0, 0], mat[0, 1]))  # the rotation matrix's scale
    interp = cv2.INTER_AREA if scale < 0.5 else cv2.INTER_LINEAR
    return cv2.warpAffine(bgr, mat, (size, size), flags=interp, borderMode=cv2.BORDER_REPLICATE)


def crop_affine(cand: DieCandidate, size: int = 64, margin: float = 1.0) -> np.ndarray:
    """:func:`crop_die`'s frame -> crop transform (2x3), e.g. to find where a known point of the frame lands."""
    (cx, cy), (rw, rh), ang = cand.rect
    mat = cv2.getRotationMatrix2D((cx, cy), ang, size / (max(rw, rh, 1.0) * margin))
    mat[0, 2] += size / 2.0 - cx
    mat[1, 2] += size / 2.0 - cy
    return mat


#: a peak of the detector this strong counts on plain colour cubes (``find_any_dice``'s ``plain``) where the classical
#: finder's candidate holds a surer one too: the detector, trained on pip dice, is unsure of plain cubes (0.1-0.3)
WEAK_DIE = 0.15


def find_any_dice(frame_bgr: np.ndarray, plain: bool = False) -> list[DieCandidate]:
    """Every die, whatever its faces: :func:`find_dice`'s candidates, completed by the learned detector's.

    Why both: the learned detector (``net.ANY_DICE_MODEL_PATH``, vision/net.py) finds a die's top face; trained on
    pip dice and rendered trays, it also finds the symbol and numeral dice that :func:`find_dice` misses on busy or
    dark tables, and separates touching dice that it merges. It misses plain colour cubes more often, which
    :func:`find_dice` finds. So a candidate holding two or more of the detector's dice is replaced by them, one less
    than half the size of the detector's dice is dropped (specks of a grainy table beside big dice), and a detector
    die that no candidate holds is added (a square of the detector's size, as the pip reader crops it). Without the
    model this is :func:`find_dice`. Never raises on odd frames.

    ``plain``: the dice are plain colour cubes (Fritzo's). The detector is unsure of them, so a candidate holding
    one of its dice and a weaker peak (WEAK_DIE) is two touching cubes, and is replaced by them too: the classical
    finder takes touching cubes for one, and the detector's peak on the second was under ``net.DIE_THRESHOLD``.
    Not for marked dice: there the weak peaks lie on the dice's marked sides, and each was one more reading of no
    die (rendered trays seen from the side: docs/taught-dice.md, forty-first session).
    """
    from vision import net  # lazily: the classical finder alone must not need the model

    model = net.load_detector(net.ANY_DICE_MODEL_PATH)
    bgr = as_bgr(frame_bgr)
    if model is None or bgr is None or min(bgr.shape[:2]) < 16:
        return find_dice(frame_bgr)
    try:
        found = model.candidates(bgr, WEAK_DIE if plain else net.DIE_THRESHOLD)
    except cv2.error:
        return find_dice(frame_bgr)
    peaks = [p for p in found if p.score >= net.DIE_THRESHOLD]
    weak = [p for p in found if p.score < net.DIE_THRESHOLD]
    # the detector's dice tell the classical finder their size (its own guess fails when no die stands alone)
    typical = float(np.median([p.size for p in peaks])) * net.CROP_SIZE if peaks else None
    cands = find_dice(bgr, typical)

    def holds(c: DieCandidate, p: net.NetDie) -> bool:
        x0, y0, x1, y1 = c.box
        return x0 <= p.x < x1 and y0 <= p.y < y1

    split = [c for c in cands if any(holds(c, p) for p in peaks) and sum(holds(c, p) for p in weak)]
    kept = [c for c in cands if sum(holds(c, p) for p in peaks) < 2 and c not in split]
    if typical is not None:  # specks of a grainy table, far smaller than the dice the detector sees, are not dice
        kept = [c for c in kept if c.size >= 0.5 * typical]
    h, w = bgr.shape[:2]
    for p in peaks + [p for p in weak if any(holds(c, p) for c in split)]:
        side = p.size * net.CROP_SIZE  # the detector's sizes run small (see vision/net.py)
        if any(holds(c, p) or math.hypot(c.center[0] - p.x, c.center[1] - p.y) < 0.6 * side for c in kept):
            continue
        rect = ((p.x, p.y), (side, side), 0.0)
        kept.append(DieCandidate(box=_box_of(rect, w, h), rect=rect, size=side, score=p.score))
    return kept


def candidate_at(cands: list[DieCandidate], box: tuple[float, float, float, float]) -> DieCandidate | None:
    """The finder's die that a labelled box (pixels x0, y0, x1, y1) points at: of those whose centre lies in the
    box, the nearest to its centre; None when the finder saw no die there. Labels mark a die loosely (matteo-d6's
    boxes cover only the top face's pips), so the centre decides, not the overlap."""
    x0, y0, x1, y1 = box
    inside = [c for c in cands if x0 <= c.center[0] <= x1 and y0 <= c.center[1] <= y1]
    if not inside:
        return None
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    return min(inside, key=lambda c: (c.center[0] - cx) ** 2 + (c.center[1] - cy) ** 2)


def held_twice(cands: list[DieCandidate], boxes: list[tuple[float, float, float, float]]) -> set[int]:
    """The ids of the candidates that two of one photo's labelled boxes (pixels) point at (``candidate_at``):
    touching dice the finder did not tell apart. The crop shows both, so taught as either face it would be an
    example of two (byler-d6's IMG_20191208_111628.jpg, a 1 and a 6: read back, each was named the other)."""
    held = [id(c) for c in (candidate_at(cands, b) for b in boxes) if c is not None]
    return {k for k in held if held.count(k) > 1}
