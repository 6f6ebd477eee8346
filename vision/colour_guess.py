"""A first guess at a colour cube's face where the taught examples give none (its colour not taught yet): the named
colour nearest the middle of its top face.

The teaching screen asks which face each die shows; for Fritzo's cubes the answer is the colour anybody sees, yet
the list started on "red" whatever lay there, and the first evening's six colours took a round of NEXT presses each.
The guess only sets where the highlight starts (the player still confirms it), and it is given only where it is
decisive: on 178 dice of rendered Fritzo trays, seen from above and from the side, the nearest colour was right every
time it was at most half the distance to the second nearest (79 % of the dice); under the benchmark's other camera
looks (bench/camera_looks.py: warm, cool, bright, noisy) 1 of about 350 guesses was wrong (a yellow cube under a
cold white balance taken for green), after leaving out a face whose median has a channel clipped by the sensor (an
orange cube overexposed looks yellow). Colour dice whose colour is a patch on a white body (Noch X-Mal!'s) are
seldom decisive, and their joker is no colour: they are left to the taught reader.
"""

from __future__ import annotations

from collections.abc import Mapping

import cv2
import numpy as np

#: the nearest colour is offered only at most this share of the distance to the second nearest
DECISIVE = 0.5
#: a channel of the face's median at or above this is clipped by the sensor (too much light or exposure)
CLIPPED = 250.0
#: brightness counts half as much as hue and saturation: a lamp or a shadow moves it most
LIGHTNESS_WEIGHT = 0.5


def _lab(bgr: np.ndarray) -> np.ndarray:
    return cv2.cvtColor(np.clip(bgr, 0, 255).astype(np.uint8).reshape(1, 1, 3), cv2.COLOR_BGR2LAB)[0, 0].astype(
        np.float32)


def nearest_colour(crop_bgr: np.ndarray, colours_bgr: Mapping[str, tuple[int, int, int]]) -> str | None:
    """The name in ``colours_bgr`` (name -> BGR as the screen draws it) nearest the median colour of the middle of
    ``crop_bgr`` (a die's crop, its top face in the middle), or None when two names are about as near, a channel
    of that colour is clipped (but for white: all three), there are fewer than two names, or the crop is empty."""
    if len(colours_bgr) < 2 or crop_bgr is None or crop_bgr.size == 0 or crop_bgr.ndim != 3:
        return None
    h, w = crop_bgr.shape[:2]
    y0, x0 = int(h * 0.3), int(w * 0.3)
    middle = crop_bgr[y0:max(int(h * 0.7), y0 + 1), x0:max(int(w * 0.7), x0 + 1)]
    median = np.median(middle.reshape(-1, 3).astype(np.float32), axis=0)
    if (median >= CLIPPED).any() and not (median >= CLIPPED).all():
        return None  # a channel at the sensor's top: its hue is not the die's (an orange cube turns yellow)
    seen = _lab(median)
    far = {}
    for name, bgr in colours_bgr.items():
        d = seen - _lab(np.asarray(bgr, np.float32))
        far[name] = float(np.hypot(d[1], d[2]) + LIGHTNESS_WEIGHT * abs(d[0]))
    first, second = sorted(far, key=far.get)[:2]
    return first if far[first] <= DECISIVE * far[second] else None
