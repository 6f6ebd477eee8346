"""The learned pip-dice reader: a tiny fully-convolutional net (vision/models/dice_net.onnx), run by onnxruntime or
cv2.dnn (vision/inference.py).

Why a net: the classical reader (vision/pips.py) has to decide with hand-set rules which spots are pips, which pips
share a face and which face is on top; coloured pips of low contrast, marbled dice, touching dice and oblique views
break those rules. A small net trained on real photos (train split only, see vision/datasets.py) plus rendered
trays, with heavy augmentation, learns those decisions and runs in a few milliseconds on one core.

What the net outputs (stride 4, see scripts/train_dice_net.py): channel 0 a heatmap of die top-face centres (after a
sigmoid), channels 1-6 face logits, channel 7 log(die side / 32 px). A die is a local heatmap maximum; its face is
the argmax of the logits there. OpenCV and numpy (and onnxruntime where it is installed, for speed) are needed at
runtime: torch is for training only.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

import cv2
import numpy as np

from vision.inference import Model, ModelError, load_model
from vision.types import DieReading

T = TypeVar("T")

MODEL_PATH = Path(__file__).resolve().parent / "models" / "dice_net.onnx"
#: The detector the taught reader finds dice of any artwork with (``vision.detect.find_any_dice``): the one before
#: MODEL_PATH's, trained with every photo alike. MODEL_PATH's, trained with every labelled die alike, finds touching
#: pip dice better (held-out byler-d6 288 -> 292 of 297 dice right) but rendered game dice seen from beside the tray
#: worse (twice the phantom dice), so each reader keeps the detector it reads best with (docs/vision.md).
ANY_DICE_MODEL_PATH = MODEL_PATH.with_name("any_dice_net.onnx")
#: The second stage: reads the face of one die crop (7 classes: 0 = not a die, 1-6 = face).
FACE_MODEL_PATH = Path(__file__).resolve().parent / "models" / "dice_faces.onnx"
#: Crop side (pixels) the face net reads, and how many die sides the crop spans around the top-face centre.
FACE_INPUT = 32
CROP_SPAN = 1.4
#: Longest side of the image the net sees. Every frame is resized to this, so a die's size in the net input depends
#: only on how much of the table the camera sees, not on its resolution. Chosen by measuring accuracy vs time.
WORK_SIDE = 448
#: A frame with at least BIG_FRAME pixels on its long side whose dice are under SMALL_DIE px in the net input is
#: looked at again with them at about AIM_DIE px (input side at most MAX_SIDE): see ``DiceNet.candidates``.
BIG_FRAME = 1600
SMALL_DIE = 22.0
AIM_DIE = 28.0
MAX_SIDE = 768
#: Frames shrunk by a factor at least this are resized bilinearly (smaller factors area-averaged), like training's.
LINEAR_DOWN = 0.7
STRIDE = 4
#: The net input must be a multiple of this (three stride-2 stages, then two 2x upsamplings).
PAD_TO = 16
INPUT_SCALE = 1.0 / 255.0
#: Heatmap peak below this: not a die (detector alone).
DIE_THRESHOLD = 0.3
#: With the face net: heatmap peaks down to this are shown to it, and it must find a die with at least DIE_PROB.
CANDIDATE_THRESHOLD = 0.25
DIE_PROB = 0.85
#: The face net reads a crop of CROP_SPAN * CROP_SIZE * (predicted die side): the detector's sizes run small.
CROP_SIZE = 1.2
#: Two accepted dice closer than this many die sides are one die (the weaker is dropped).
SAME_DIE = 0.75
#: Peak (die) score and face probability a face needs to be reported; below either it is unknown (None).
FACE_THRESHOLD = 0.4
FACE_PROB = 0.35


@dataclass(frozen=True)
class NetDie:
    """One die found by the net, in input-frame pixels."""

    x: float
    y: float
    size: float
    score: float  # how sure this is a die (face net's probability, or the heatmap peak without it)
    face: int  # most likely face
    face_prob: float  # probability of that face, given it is a die

    def reading(self, shape: tuple[int, ...]) -> DieReading:
        h, w = shape[:2]
        half = self.size / 2
        box = (
            max(0, int(self.x - half)), max(0, int(self.y - half)),
            min(w, int(math.ceil(self.x + half))), min(h, int(math.ceil(self.y + half))),
        )
        known = self.score >= FACE_THRESHOLD and self.face_prob >= FACE_PROB
        return DieReading(self.face if known else None, float(self.score * self.face_prob), box)


class DiceNet:
    """The two ONNX models, loaded once (``vision.inference``); ``detect(bgr)`` gives the dice of one uint8 BGR frame.

    Stage 1 (``path``) finds die centres and sizes on the whole frame shrunk to ``work_side``. Stage 2
    (``face_path``) reads each die from a crop of the full-resolution frame, scaled so every die looks alike, and
    also says "not a die", which removes stage 1's false alarms. Without the face model stage 1's own face
    channels are used (less accurate).
    """

    def __init__(self, path: Path | None = None, face_path: Path | None = None, work_side: int = WORK_SIDE,
                 faces: bool = True) -> None:
        self.path = Path(path if path is not None else MODEL_PATH)
        self.work_side = work_side
        self.net: Model = load_model(self.path)
        fp = Path(face_path) if face_path is not None else self.path.with_name(FACE_MODEL_PATH.name)
        self.faces: Model | None = load_model(fp, small=True) if faces and fp.is_file() else None
        #: the last input's key (hash of its bytes, shape) and output: a frame just read is looked at again when the
        #: player confirms a die on it (companion.teach.confirm finds the dice again), and the detector is the costly
        #: part (~8 ms). (A pip set read with taught faces runs two detectors since the twenty-ninth session: the
        #: pip reader's MODEL_PATH and find_any_dice's ANY_DICE_MODEL_PATH, each remembering its own frame.)
        self._last: tuple[tuple[int, tuple[int, ...]] | None, np.ndarray | None] = (None, None)

    def maps(self, bgr: np.ndarray, side: int | None = None) -> tuple[np.ndarray, float]:
        """The raw output maps (8, h/4, w/4) of ``bgr`` shrunk to ``side`` (default ``work_side``) and the factor
        net-input = frame * factor."""
        small, factor = _resize(bgr, side or self.work_side)
        h, w = small.shape[:2]
        ph, pw = -h % PAD_TO, -w % PAD_TO
        if ph or pw:
            small = cv2.copyMakeBorder(small, 0, ph, 0, pw, cv2.BORDER_REPLICATE)
        key = (hash(small.tobytes()), small.shape)
        if key != self._last[0]:
            self._last = (key, self.net.run(as_blob([small], INPUT_SCALE)))
        out = self._last[1]
        return out[0, :, : (h + STRIDE - 1) // STRIDE, : (w + STRIDE - 1) // STRIDE], factor

    def face_probs(self, crops: np.ndarray) -> np.ndarray:
        """Stage 2 on a stack of FACE_INPUT crops: (n, 7) probabilities, column 0 = not a die, 1-6 = faces."""
        logits = self.faces.run(as_blob(crops, INPUT_SCALE)).astype(np.float64)
        p = np.exp(logits - logits.max(axis=1, keepdims=True))
        return p / p.sum(axis=1, keepdims=True)

    def candidates(self, bgr: np.ndarray, threshold: float) -> list[NetDie]:
        """Stage 1's dice; on a big frame whose dice came out small in the net input, again from a larger input.

        The fixed input side keeps the detector's time fixed, but a camera that sees a wide table in a big still
        (a Pi camera's 3280x2464) makes its dice small there. A still that size has the detail, and its time
        budget is five times a 640 px frame's, so the detector looks again with the dice at about ``AIM_DIE`` px.
        """
        maps, factor = self.maps(bgr)
        found = decode(maps, factor, threshold)
        sure = [c.size * factor for c in found if c.score >= DIE_THRESHOLD]
        typical = float(np.median(sure)) if sure else float("inf")
        long_side = max(bgr.shape[:2])
        if long_side >= BIG_FRAME and typical < SMALL_DIE:
            side = int(min(MAX_SIDE, long_side, self.work_side * AIM_DIE / typical))
            side -= side % PAD_TO
            if side > self.work_side:
                found = decode(*self.maps(bgr, side), threshold)
        return found

    def detect(self, bgr: np.ndarray) -> list[NetDie]:
        if self.faces is None:
            return self.candidates(bgr, DIE_THRESHOLD)
        cands = self.candidates(bgr, CANDIDATE_THRESHOLD)
        if not cands:
            return []
        sizes = _steady_sizes(cands)
        probs = self.face_probs(np.stack([face_crop(bgr, c.x, c.y, CROP_SIZE * s) for c, s in zip(cands, sizes,
                                                                                                strict=True)]))
        found = []
        for c, p, size in sorted(zip(cands, probs, sizes, strict=True), key=lambda t: t[1][0]):
            die = 1.0 - float(p[0])
            if die < DIE_PROB:
                continue
            # One die can raise two peaks (top face and a side face on oblique views); dice cannot overlap.
            if any(math.hypot(c.x - d.x, c.y - d.y) < SAME_DIE * min(size, d.size) for d in found):
                continue
            k = int(np.argmax(p[1:])) + 1
            found.append(NetDie(c.x, c.y, size, die, k, float(p[k]) / die))
        return found


def as_blob(images: np.ndarray | list[np.ndarray], scale: float) -> np.ndarray:
    """Same-sized uint8 BGR images as one NCHW float32 network input times ``scale``: what
    ``cv2.dnn.blobFromImages(images, scale)`` gives, some thirty times faster (measured: 0.1 ms instead of 2.8-4 ms
    for a 448x448 frame, one core)."""
    return np.ascontiguousarray(np.asarray(images).transpose(0, 3, 1, 2), dtype=np.float32) * np.float32(scale)


def _steady_sizes(cands: list[NetDie]) -> list[float]:
    """Each die's size pulled halfway (geometrically) to the frame's median die: one die's size estimate is noisy,
    while the dice of one tray are nearly alike (perspective changes them a little, which this keeps)."""
    sure = [c.size for c in cands if c.score >= DIE_THRESHOLD] or [c.size for c in cands]
    med = float(np.median(sure))
    return [math.sqrt(c.size * med) for c in cands]


def _resize(bgr: np.ndarray, side: int) -> tuple[np.ndarray, float]:
    """Scale so the longest side is ``side``.

    Shrinking by no more than ``LINEAR_DOWN`` is bilinear, as in training (scripts/train_dice_net.py scales the same
    way), and INTER_AREA at such factors costs 2.4-3.6 ms on a 640x640 photo against 0.3-0.5 (held-out accuracy the
    same). Huge frames go through a bilinear step to twice the target first: INTER_AREA straight from 8 MP costs tens
    of milliseconds, bilinear to 2x and then INTER_AREA costs about 5 and keeps the pips smooth.
    """
    h, w = bgr.shape[:2]
    factor = side / max(h, w)
    size = (max(1, round(w * factor)), max(1, round(h * factor)))
    if factor >= LINEAR_DOWN:
        return cv2.resize(bgr, size, interpolation=cv2.INTER_LINEAR), size[0] / w
    src = bgr
    if factor < 0.5:
        src = cv2.resize(src, (2 * size[0], 2 * size[1]), interpolation=cv2.INTER_LINEAR)
    return cv2.resize(src, size, interpolation=cv2.INTER_AREA), size[0] / w


def face_crop(bgr: np.ndarray, x: float, y: float, size: float, out: int = FACE_INPUT) -> np.ndarray:
    """The square of ``CROP_SPAN`` die sides around (x, y), resized to ``out`` pixels (area-averaged when shrinking).

    Cut from the full-resolution frame, so a die that is small in the detector's input keeps its pip detail.
    Parts outside the frame repeat its edge. Training cuts its crops with this very function.
    """
    n = max(4, int(round(size * CROP_SPAN)))
    x0, y0 = int(round(x - n / 2)), int(round(y - n / 2))
    h, w = bgr.shape[:2]
    sx0, sy0, sx1, sy1 = max(0, x0), max(0, y0), min(w, x0 + n), min(h, y0 + n)
    if sx1 <= sx0 or sy1 <= sy0:
        return np.zeros((out, out, 3), np.uint8)
    roi = bgr[sy0:sy1, sx0:sx1]
    if (sx0, sy0, sx1, sy1) != (x0, y0, x0 + n, y0 + n):
        roi = cv2.copyMakeBorder(roi, sy0 - y0, y0 + n - sy1, sx0 - x0, x0 + n - sx1, cv2.BORDER_REPLICATE)
    return cv2.resize(roi, (out, out), interpolation=cv2.INTER_AREA if n > out else cv2.INTER_LINEAR)


def decode(maps: np.ndarray, factor: float, threshold: float = DIE_THRESHOLD) -> list[NetDie]:
    """Heatmap peaks (3x3 max) above ``threshold``; a weaker peak within half a die of a stronger one is dropped."""
    heat = np.ascontiguousarray(maps[0], dtype=np.float32)
    peaks = (heat >= cv2.dilate(heat, np.ones((3, 3), np.uint8))) & (heat >= threshold)
    ys, xs = np.nonzero(peaks)
    order = np.argsort(-heat[ys, xs])
    hh, hw = heat.shape
    found: list[NetDie] = []
    for i in order:
        y, x = int(ys[i]), int(xs[i])
        y0, y1, x0, x1 = max(0, y - 1), min(hh, y + 2), max(0, x - 1), min(hw, x + 2)
        patch = heat[y0:y1, x0:x1]
        wsum = float(patch.sum())
        gy, gx = np.mgrid[y0:y1, x0:x1]
        cy, cx = float((gy * patch).sum() / wsum), float((gx * patch).sum() / wsum)
        px, py = ((cx + 0.5) * STRIDE - 0.5) / factor, ((cy + 0.5) * STRIDE - 0.5) / factor
        size = 32.0 * math.exp(float(np.clip(maps[7, y, x], -4, 4))) / factor
        if any(math.hypot(px - d.x, py - d.y) < 0.45 * max(size, d.size) for d in found):
            continue
        logits = maps[1:7, y, x].astype(np.float64)
        p = np.exp(logits - logits.max())
        p /= p.sum()
        k = int(np.argmax(p))
        found.append(NetDie(px, py, size, float(heat[y, x]), k + 1, float(p[k])))
    return found


_cache: dict[Path, DiceNet | None] = {}
_detector_cache: dict[Path, DiceNet | None] = {}


def load_once(cache: dict[Path, T | None], path: Path, make: Callable[[Path], T]) -> T | None:
    """``make(path)`` once per process and path, kept in ``cache``; ``None`` when the file is missing or cannot be
    read as a model (the callers then fall back to their classical paths)."""
    if path not in cache:
        try:
            cache[path] = make(path) if path.is_file() else None
        except ModelError:
            cache[path] = None
    return cache[path]


def load(path: Path | None = None) -> DiceNet | None:
    """The models (default: ``MODEL_PATH`` and the face model beside it), loaded once per process; ``None`` when
    the detector is missing or unreadable."""
    return load_once(_cache, Path(path if path is not None else MODEL_PATH), DiceNet)


def load_detector(path: Path) -> DiceNet | None:
    """Stage 1 alone, loaded once per process: ``find_any_dice`` needs where the dice are and how big, not their
    pips, so the face model beside the detector (1.8 MB) is not loaded for it."""
    return load_once(_detector_cache, Path(path), lambda p: DiceNet(p, faces=False))
