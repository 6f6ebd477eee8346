"""Draw a reading onto a copy of the frame, so a person can check at a glance what the reader saw."""

from __future__ import annotations

import cv2
import numpy as np

from vision.frame import as_bgr
from vision.types import TrayReading

_SURE = (40, 200, 40)
_UNSURE = (200, 0, 255)  # BGR of the screens' magenta for a die the reader is not sure of (theme.UNKNOWN)


def annotate(frame_bgr: np.ndarray, reading: TrayReading) -> np.ndarray:
    """A BGR copy of ``frame_bgr`` with one box per die and its number and face drawn above it ("3: 5"; the face is
    ``DieReading.label``: "(?)" when unknown, magenta as on the screens). The number is the die's place in the
    reading counted from 1: in ``--json``'s order, and the die number free play's screen asks about.

    Line width and text size follow the frame size, so a 3280x2464 still is as readable as a 640x480 frame.
    An unusable frame gives a small black image rather than an exception.
    """
    bgr = as_bgr(frame_bgr)
    if bgr is None:
        return np.zeros((64, 64, 3), np.uint8)
    out = bgr.copy()
    unit = max(1, round(max(out.shape[:2]) / 640))
    for number, die in enumerate(reading.dice, start=1):
        x0, y0, x1, y1 = die.box
        colour = _SURE if die.face is not None else _UNSURE
        cv2.rectangle(out, (x0, y0), (x1, y1), colour, unit + 1)
        label = f"{number}: {die.label}"
        scale = 0.7 * unit
        (tw, th), base = cv2.getTextSize(label, cv2.FONT_HERSHEY_SIMPLEX, scale, 2 * unit)
        ty = y0 - 4 * unit if y0 - th - 4 * unit > 0 else y1 + th + 4 * unit
        cv2.rectangle(out, (x0, ty - th - base), (x0 + tw + 4 * unit, ty + base), (0, 0, 0), -1)
        cv2.putText(out, label, (x0 + 2 * unit, ty), cv2.FONT_HERSHEY_SIMPLEX, scale, colour, 2 * unit, cv2.LINE_AA)
    return out
