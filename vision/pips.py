"""Read pip dice: the learned reader when its model loads (vision/net.py), else find pips, group and count them.

Why pips first: a pip is the one thing every pip die shares, whatever its body colour, the table, or the camera:
a small round spot of one colour that contrasts strongly with the flat face around it. Die bodies are much harder
(an ivory die on light wood barely differs from the wood; a die touching the tray wall merges with it). So we
1. find round spots darker or lighter than their neighbourhood (both polarities: black pips on ivory, white pips on
   red; the neighbourhood is wide enough for the pips of a big die);
2. link two spots when they are alike in size and polarity, close in pip radii, and the straight path between them
   runs over one flat colour (a die face). Paths between dice cross a gap, a shadow or the die edges, and the path
   between the top face and a side face crosses the shaded edge, so those links are refused;
3. each linked group is one face; side faces (on oblique views) show flattened pips and are dropped when they sit
   next to a face with rounder pips;
4. a lone spot is only a "1" if the flat face around it ends in an edge a few radii out (a screw hole on a white
   board or a whole small die seen as one bright spot has no such edge);
5. merged pips (two columns of a 6 blurred into bars on a small die) are counted by their length.
Each face gets a confidence from how well the group fits the canonical 1-6 layouts; below ``MIN_CONFIDENCE`` the face
is reported as unknown (None) instead of guessed.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

import cv2
import numpy as np

from vision import net
from vision.frame import as_bgr, work_image
from vision.types import DieReading, TrayReading

MIN_CONFIDENCE = 0.5

#: Local-contrast threshold (grey levels) for a spot to be a pip candidate.
SPOT_CONTRAST = 22
PATH_TOL_MIN = 24.0
PATH_TOL_K = 0.5
SIDE_FACE_DIST = 0.85
BODY_MIN = 15
SIDE_FACE_RATIO = 0.8


@dataclass
class Spot:
    """A pip candidate in work-image pixels."""

    x: float
    y: float
    r: float  # radius of the disc with the same area
    dark: bool
    roundness: float  # minor/major axis of the fitted ellipse, 1 = circle
    major_angle: float
    contrast: float
    length: float  # major axis in pixels (for merged pips)
    count: int = 1  # how many pips this spot stands for (a bar of merged pips counts 2 or 3)


#: Neighbourhood width (pixels at each pyramid level) a spot is compared with. Must stay close to a pip's size:
#: a wide window would mix in the table around small dice and hide their pips.
BLOCK = 15
#: Radii (pixels at the level) a spot must have to be taken from that level; levels overlap by design.
R_MIN, R_MAX = 1.3, 4.6


def _spots(grey: np.ndarray, levels: int = 3) -> list[Spot]:
    """Pip candidates at every scale: the same small detector on a pyramid, so no pip size is assumed."""
    out: list[Spot] = []
    img = grey
    for level in range(levels):
        f = float(2**level)
        r_min = R_MIN if level == 0 else R_MAX / 2
        for s in _spots_at(img, BLOCK, r_min, R_MAX):
            s.x, s.y, s.r, s.length = (s.x + 0.5) * f - 0.5, (s.y + 0.5) * f - 0.5, s.r * f, s.length * f
            out.append(s)
        if min(img.shape[:2]) < 4 * BLOCK:
            break
        img = cv2.pyrDown(img)
    return out


def _spots_at(grey: np.ndarray, block: int, r_min: float, r_max: float) -> list[Spot]:
    """Round spots darker or lighter than their ``block``-wide neighbourhood, radius in [r_min, r_max)."""
    mean = cv2.blur(grey, (block, block))
    out: list[Spot] = []
    a_min, a_max = math.pi * r_min**2, math.pi * r_max**2
    for dark in (True, False):
        diff = cv2.subtract(mean, grey) if dark else cv2.subtract(grey, mean)
        binary = cv2.threshold(diff, SPOT_CONTRAST, 255, cv2.THRESH_BINARY)[1]
        n, labels, stats, cents = cv2.connectedComponentsWithStats(binary, connectivity=8)
        if n <= 1:
            continue
        for i in range(1, n):
            x, y, w, h, area = stats[i]
            if area < a_min or area >= a_max * 3:
                continue
            if area < 0.35 * w * h:
                continue
            if max(w, h) > 4.5 * min(w, h):
                continue
            roi = (labels[y:y + h, x:x + w] == i).astype(np.uint8)
            m = cv2.moments(roi, binaryImage=True)
            mu20, mu02, mu11 = m["mu20"] / area, m["mu02"] / area, m["mu11"] / area
            common = math.sqrt(max(0.0, ((mu20 - mu02) / 2) ** 2 + mu11**2))
            l1 = (mu20 + mu02) / 2 + common
            l2 = max(1e-6, (mu20 + mu02) / 2 - common)
            major, minor = 4 * math.sqrt(l1), 4 * math.sqrt(l2)  # full axes of the equivalent ellipse
            roundness = minor / max(major, 1e-6)
            # A bar of merged pips is long; its width, not its area, tells the pip size.
            if minor / 2 >= r_max or (roundness > 0.6 and area >= a_max):
                continue
            angle = 0.5 * math.atan2(2 * mu11, mu20 - mu02)
            # Solid ellipse: its area should match pi/4 * major * minor; ragged texture does not.
            fill = area / max(1e-6, math.pi / 4 * major * minor)
            if fill < 0.7:
                continue
            contrast = float(diff[y:y + h, x:x + w][roi > 0].mean())
            out.append(
                Spot(
                    x=float(cents[i][0]), y=float(cents[i][1]), r=math.sqrt(area / math.pi), dark=dark,
                    roundness=roundness, major_angle=angle, contrast=contrast, length=major,
                )
            )
    return out


def _path_is_flat(img: np.ndarray, a: Spot, b: Spot, tol: float, table: np.ndarray | None = None) -> bool:
    """True when the segment between two spots (outside both) crosses one flat colour that is not the table."""
    dx, dy = b.x - a.x, b.y - a.y
    dist = math.hypot(dx, dy)
    if dist < 1e-6:
        return True
    t0 = (a.r * 1.5) / dist
    t1 = 1.0 - (b.r * 1.5) / dist
    if t1 <= t0:
        return True
    n = max(3, int((t1 - t0) * dist))
    ts = np.linspace(t0, t1, n)
    xs = np.clip(np.rint(a.x + dx * ts).astype(int), 0, img.shape[1] - 1)
    ys = np.clip(np.rint(a.y + dy * ts).astype(int), 0, img.shape[0] - 1)
    samples = img[ys, xs].astype(np.int16)
    med = np.median(samples, axis=0)
    dev = np.abs(samples - med).sum(axis=-1) if samples.ndim == 2 else np.abs(samples - med)
    if dev.max() > tol:
        return False
    if table is None:
        return True
    mid = table[int(ys[len(ys) // 2]), int(xs[len(xs) // 2])].astype(np.int16)
    return bool(np.abs(med - mid).sum() >= BODY_MIN)


@dataclass
class Face:
    """A group of spots judged to be one face."""

    spots: list[Spot]

    @property
    def count(self) -> int:
        return sum(s.count for s in self.spots)

    @property
    def center(self) -> tuple[float, float]:
        return (
            float(np.mean([s.x for s in self.spots])),
            float(np.mean([s.y for s in self.spots])),
        )

    @property
    def mean_r(self) -> float:
        return float(np.mean([s.r for s in self.spots]))

    @property
    def roundness(self) -> float:
        return float(np.median([s.roundness for s in self.spots]))


def _same_shape(a: Spot, b: Spot) -> bool:
    """Pips of one face are foreshortened alike: similar roundness and, when flattened, similar direction."""
    if abs(a.roundness - b.roundness) > 0.22:
        return False
    if min(a.roundness, b.roundness) < 0.75:
        diff = abs(a.major_angle - b.major_angle) % math.pi
        if min(diff, math.pi - diff) > 0.5:
            return False
    return True


def _group(spots: list[Spot], img: np.ndarray, table: np.ndarray | None = None) -> list[Face]:
    """Union-find over spot pairs that plausibly share a face."""
    n = len(spots)
    parent = list(range(n))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    if n:
        pts = np.array([[s.x, s.y] for s in spots], np.float32)
        rs = np.array([s.r for s in spots], np.float32)
        for i in range(n):
            d = np.hypot(pts[:, 0] - pts[i, 0], pts[:, 1] - pts[i, 1])
            for j in np.nonzero(d < 7.5 * np.maximum(rs, rs[i]))[0]:
                j = int(j)
                if j <= i or spots[j].dark != spots[i].dark:
                    continue
                ratio = max(rs[i], rs[j]) / max(1e-6, min(rs[i], rs[j]))
                if ratio > 1.4 or d[j] < 1.1 * (rs[i] + rs[j]):
                    continue
                if not _same_shape(spots[i], spots[j]):
                    continue
                tol = max(PATH_TOL_MIN, PATH_TOL_K * min(spots[i].contrast, spots[j].contrast))
                if not _path_is_flat(img, spots[i], spots[j], tol, table):
                    continue
                ri, rj = find(i), find(j)
                if ri != rj:
                    parent[ri] = rj
    groups: dict[int, list[Spot]] = {}
    for i in range(n):
        groups.setdefault(find(i), []).append(spots[i])
    return [Face(g) for g in groups.values()]


def _lone_pip_is_face(img: np.ndarray, s: Spot) -> bool:
    """A single spot is a '1' only if a flat face surrounds it and that face ends a few radii out."""
    h, w = img.shape[:2]
    inner = _ring(img, s.x, s.y, 1.5 * s.r, 2.3 * s.r)
    outer = _ring(img, s.x, s.y, 3.6 * s.r, 5.0 * s.r)
    if inner is None or outer is None:
        return False
    inner_med = np.median(inner, axis=0)
    inner_dev = np.abs(inner - inner_med).sum(axis=-1)
    if np.percentile(inner_dev, 80) > max(25.0, 0.6 * s.contrast):
        return False
    outer_dev = np.abs(outer - inner_med).sum(axis=-1)
    # Somewhere past the face the colour must change (table, gap, shade) on a good part of the ring.
    return bool(np.mean(outer_dev > 40) > 0.2)


def _ring(img: np.ndarray, x: float, y: float, r0: float, r1: float) -> np.ndarray | None:
    angles = np.linspace(0, 2 * math.pi, 32, endpoint=False)
    pts = []
    for rad in (r0, (r0 + r1) / 2, r1):
        pts.append(np.stack([x + rad * np.cos(angles), y + rad * np.sin(angles)], axis=1))
    p = np.concatenate(pts)
    xs, ys = np.rint(p[:, 0]).astype(int), np.rint(p[:, 1]).astype(int)
    ok = (xs >= 0) & (ys >= 0) & (xs < img.shape[1]) & (ys < img.shape[0])
    if ok.mean() < 0.6:
        return None
    return img[ys[ok], xs[ok]].astype(np.float32)


def _layout_confidence(face: Face) -> float:
    """How well the spots fit the canonical layout for their count (1.0 = textbook)."""
    pts = np.array([[s.x, s.y] for s in face.spots], np.float64)
    n = face.count
    r = face.mean_r
    if len(face.spots) == 1:
        return 0.9 if n == 1 else 0.6
    c = pts.mean(axis=0)
    d = np.hypot(*(pts - c).T)
    if n == 2:
        return 0.95
    if n == 3:
        # Three in a line, the middle one at the centre.
        mid = d.min()
        return 0.95 if mid < 0.8 * r else 0.6
    if n == 4:
        return 0.95 if d.std() < 0.35 * d.mean() else 0.6
    if n == 5:
        return 0.95 if d.min() < 0.8 * r else 0.55
    if n == 6:
        return 0.9
    return 0.3


def _table(work: np.ndarray) -> np.ndarray:
    """The table's colour at every pixel: a median far wider than any die, so dice do not show in it."""
    h, w = work.shape[:2]
    small = cv2.resize(work, (max(3, w // 16), max(3, h // 16)), interpolation=cv2.INTER_AREA)
    k = 7 if min(small.shape[:2]) > 14 else 3
    return cv2.resize(cv2.medianBlur(small, k), (w, h), interpolation=cv2.INTER_LINEAR)


def _dedupe(spots: list[Spot]) -> list[Spot]:
    """The pyramid levels overlap: keep one spot per place (the one from the finer level, listed first)."""
    kept: list[Spot] = []
    for s in spots:
        if any(k.dark == s.dark and math.hypot(k.x - s.x, k.y - s.y) < max(k.r, s.r) for k in kept):
            continue
        kept.append(s)
    return kept


def _read_faces(work: np.ndarray) -> list[tuple[Face, float]]:
    grey = cv2.cvtColor(work, cv2.COLOR_BGR2GRAY)
    spots = _dedupe(_spots(grey))
    smooth = cv2.GaussianBlur(work, (3, 3), 0)
    faces = _group(spots, smooth, _table(work))
    kept: list[tuple[Face, float]] = []
    for f in faces:
        if len(f.spots) == 1 and not _lone_pip_is_face(smooth, f.spots[0]):
            continue
        if f.count > 6:
            kept.append((f, 0.2))
            continue
        kept.append((f, _layout_confidence(f)))
    return _drop_side_faces(kept)


def _face_side(face: Face) -> float:
    pts = np.array([[s.x, s.y] for s in face.spots], np.float64)
    if len(pts) == 1:
        return 5.0 * face.mean_r
    span = max(float(np.hypot(*(pts[i] - pts[j]))) for i in range(len(pts)) for j in range(i + 1, len(pts)))
    return max(span * 1.414 + 2 * face.mean_r, 5.0 * face.mean_r)


def _face_score(face: Face) -> float:
    """Top faces face the camera most squarely: their pips are the roundest and biggest of the die."""
    return face.mean_r * face.roundness


def _drop_side_faces(faces: list[tuple[Face, float]]) -> list[tuple[Face, float]]:
    """On oblique views a die shows side faces right next to its top face: keep only the top face.

    Two faces closer than a face width cannot be two dice; the one with the clearly rounder pips is the top.
    Touching dice seen from above have alike pips and sit a full face width apart, so both stay.
    """
    order = sorted(range(len(faces)), key=lambda i: -_face_score(faces[i][0]))
    kept: list[int] = []
    for i in order:
        fi = faces[i][0]
        cx, cy = fi.center
        clash = False
        for k in kept:
            fk = faces[k][0]
            kx, ky = fk.center
            side = max(_face_side(fk), _face_side(fi))
            near = math.hypot(cx - kx, cy - ky) < SIDE_FACE_DIST * side
            if near and fi.roundness < SIDE_FACE_RATIO * fk.roundness:
                clash = True
                break
        if not clash:
            kept.append(i)
    return [faces[i] for i in sorted(kept)]


METHODS = ("auto", "net", "classical")


def read_dice(frame_bgr: np.ndarray, method: str = "auto") -> TrayReading:
    """Read every pip die in the frame. Never raises: an unusable frame gives an empty reading.

    ``method="auto"`` uses the learned reader (vision/net.py) when its model file loads (vision/inference.py) and the
    classical pip grouping below otherwise; ``"net"`` and ``"classical"`` force one (``"net"`` without a usable
    model gives an empty reading, so a broken install shows instead of silently reading worse).
    """
    if method not in METHODS:
        raise ValueError(f"method must be one of {METHODS}, not {method!r}")
    start = time.perf_counter()
    try:
        bgr = as_bgr(frame_bgr)
        if bgr is None:
            return TrayReading((), (time.perf_counter() - start) * 1000)
        model = net.load() if method != "classical" else None
        if model is not None:
            dice = [d.reading(bgr.shape) for d in model.detect(bgr)]
        elif method == "net":
            dice = []
        else:
            dice = _read_classical(bgr)
        dice.sort(key=lambda d: (d.box[1], d.box[0]))
        return TrayReading(tuple(dice), (time.perf_counter() - start) * 1000)
    except (cv2.error, ValueError, MemoryError):
        return TrayReading((), (time.perf_counter() - start) * 1000)


def _read_classical(bgr: np.ndarray) -> list[DieReading]:
    """The hand-made reader: find pips, group them into faces, count them (see the module docstring)."""
    work, factor = work_image(bgr)
    faces = _read_faces(work)
    fh, fw = bgr.shape[:2]
    dice = []
    for face, conf in faces:
        cx, cy = face.center
        half = _face_side(face) / 2
        box = (
            max(0, int((cx - half) / factor)), max(0, int((cy - half) / factor)),
            min(fw, int(math.ceil((cx + half) / factor))), min(fh, int(math.ceil((cy + half) / factor))),
        )
        value: int | None = face.count if 1 <= face.count <= 6 and conf >= MIN_CONFIDENCE else None
        dice.append(DieReading(value, float(conf), box))
    return dice
