"""Whether the light over the tray lets the dice be read: one judgement for the camera check's advice and for the
dice watcher, which holds back a rest taken in the dark (a lamp switched off) instead of handing a game no dice.

Why the camera check judges light only where dice are missed or unsure, and the watcher only against the light the
tray was read in before: a black or dark green felt tray is dark of itself and reads fine.
"""

from __future__ import annotations

from typing import Literal

import cv2
import numpy as np

from vision.face_marks import CLIPPED
from vision.types import TrayReading

#: the picture is too dark when even its brightest 1 % stays under this (0-255)
DARK = 90
#: more than this share of pixels at the sensor's top (any channel clipped: ``face_marks.CLIPPED``, the level the
#: readers take for clipped too) is glare blowing out faces
GLARE_SHARE = 0.04
#: more than this share of the picture clipped is a picture blown out white: a webcam's exposure catching up after
#: the lamp came back on, not glare on the tray
BLOWN_SHARE = 0.5
#: a dark picture whose table is this much darker than at the rest read last in good light is the lamp off, whatever
#: was read in it
DIMMED = 0.5


def light_fault(frame: np.ndarray) -> Literal["dark", "glare"] | None:
    """What is wrong with the light of a BGR (or grey) frame, if anything."""
    grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY) if frame.ndim == 3 else frame
    if float(np.percentile(grey, 99)) < DARK:
        return "dark"
    top = frame.max(axis=2) if frame.ndim == 3 else frame
    return "glare" if float((top >= CLIPPED).mean()) > GLARE_SHARE else None


def unlit(frame: np.ndarray, reading: TrayReading, lit: float | None = None) -> Literal["dark", "blown"] | None:
    """Whether ``reading`` of ``frame`` is of a picture too dark (the lamp switched off) or blown out white (the
    exposure catching up once it is back) to be the dice's. Dark: too dark by ``light_fault`` and the table far
    darker (``DIMMED``) than at the rest read last in good light (``lit``: its ``light_of``); a die or two read sure
    in the dark are what was left of four. A tray dark of itself is no fault (black or dark green felt, empty or
    not), nor is glare beside dice that read."""
    if lit is not None and light_fault(frame) == "dark" and light_of(frame) < DIMMED * lit:
        return "dark"
    if reading.dice and all(d.face is not None for d in reading.dice):
        return None
    top = frame.max(axis=2) if frame.ndim == 3 else frame
    return "blown" if float((top >= CLIPPED).mean()) > BLOWN_SHARE else None


def light_of(frame: np.ndarray) -> float:
    """How bright the table is in a frame: the median grey of a sparse sample. The tray fills most of the picture,
    so dice thrown or taken out hardly move it; a lamp switched off does."""
    sample = frame[::8, ::8]
    grey = cv2.cvtColor(np.ascontiguousarray(sample), cv2.COLOR_BGR2GRAY) if sample.ndim == 3 else sample
    return float(np.median(grey)) + 1.0
