"""The learned pip-dice reader: a tiny fully-convolutional net (vision/models/dice_net.onnx) run through cv2.dnn.

Why a net: the classical reader (vision/pips.py) has to decide with hand-set rules which spots are pips, which pips
share a face and which face is on top; coloured pips of low contrast, marbled dice, touching dice and oblique views
break those rules. A small net trained on real photos (train split only, see vision/datasets.py) plus rendered
trays, with heavy augmentation, learns those decisions and runs in a few milliseconds on one core.

What the net outputs (stride 4, see scripts/train_dice_net.py): channel 0 a heatmap of die top-face centres (after a
sigmoid), channels 1-6 face logits, channel 7 log(die side / 32 px). A die is a local heatmap maximum; its face is
the argmax of the logits there. Only OpenCV and numpy are needed at runtime: torch is for training only.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision.types import DieReading

MODEL_PATH = Path(__file__).resolve().parent / "models" / "dice_net.onnx"
#: Longest side of the image the net sees. Every frame is resized to this, so a die's size in the net input depends
#: only on how much of the table the camera sees, not on its resolution. Chosen by measuring accuracy vs time.
WORK_SIDE = 448
STRIDE = 4
#: The net input must be a multiple of this (three stride-2 stages, then two 2x upsamplings).
PAD_TO = 16
INPUT_SCALE = 1.0 / 255.0
#: Heatmap peak below this: not a die.
DIE_THRESHOLD = 0.3
#: Peak (die) score and face probability a face needs to be reported; below either it is unknown (None).
FACE_THRESHOLD = 0.4
FACE_PROB = 0.6


@dataclass(frozen=True)
class NetDie:
    """One die found by the net, in input-frame pixels."""

    x: float
    y: float
    size: float
    score: float  # heatmap peak: how sure this is a die
    face: int  # most likely face
    face_prob: float  # softmax probability of that face

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
    """The ONNX model loaded into cv2.dnn; ``detect(bgr)`` gives the dice of one uint8 BGR frame."""

    def __init__(self, path: Path = MODEL_PATH, work_side: int = WORK_SIDE) -> None:
        self.path = Path(path)
        self.work_side = work_side
        self.net = cv2.dnn.readNetFromONNX(str(self.path))

    def maps(self, bgr: np.ndarray) -> tuple[np.ndarray, float]:
        """The raw output maps (8, h/4, w/4) of ``bgr`` and the factor net-input = frame * factor."""
        small, factor = _resize(bgr, self.work_side)
        h, w = small.shape[:2]
        ph, pw = -h % PAD_TO, -w % PAD_TO
        if ph or pw:
            small = cv2.copyMakeBorder(small, 0, ph, 0, pw, cv2.BORDER_REPLICATE)
        blob = cv2.dnn.blobFromImage(small, INPUT_SCALE)
        self.net.setInput(blob)
        out = self.net.forward()
        return out[0, :, : (h + STRIDE - 1) // STRIDE, : (w + STRIDE - 1) // STRIDE], factor

    def detect(self, bgr: np.ndarray) -> list[NetDie]:
        maps, factor = self.maps(bgr)
        return decode(maps, factor)


def _resize(bgr: np.ndarray, side: int) -> tuple[np.ndarray, float]:
    """Scale so the longest side is ``side``; huge frames are first halved cheaply (INTER_AREA on 8 MP is slow)."""
    h, w = bgr.shape[:2]
    factor = side / max(h, w)
    size = (max(1, round(w * factor)), max(1, round(h * factor)))
    if factor >= 1.0:
        return cv2.resize(bgr, size, interpolation=cv2.INTER_LINEAR), size[0] / w
    src = bgr
    while src.shape[1] >= 4 * size[0]:
        src = cv2.resize(src, (src.shape[1] // 2, src.shape[0] // 2), interpolation=cv2.INTER_NEAREST)
    return cv2.resize(src, size, interpolation=cv2.INTER_AREA), size[0] / w


def decode(maps: np.ndarray, factor: float) -> list[NetDie]:
    """Heatmap peaks (3x3 max) above DIE_THRESHOLD; a weaker peak within half a die of a stronger one is dropped."""
    heat = np.ascontiguousarray(maps[0], dtype=np.float32)
    peaks = (heat >= cv2.dilate(heat, np.ones((3, 3), np.uint8))) & (heat >= DIE_THRESHOLD)
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


def load(path: Path = MODEL_PATH) -> DiceNet | None:
    """The model, loaded once per process; ``None`` when the file is missing or cv2.dnn cannot read it."""
    path = Path(path)
    if path not in _cache:
        try:
            _cache[path] = DiceNet(path) if path.is_file() else None
        except cv2.error:
            _cache[path] = None
    return _cache[path]
