"""What another camera or another room does to a photo, for ``bench_dice_read.py --look``.

The issue asks for the pip reader measured on cameras that are not in ``../shared/datasets``, among them a Pi camera;
none can be reached from here. These looks are the next best thing, and are named as such wherever their numbers
are quoted: the held-out photos (labels unchanged) as a camera with another white balance, exposure, noise, focus,
lens falloff or compression would have taken them. They say which of those the reader is sensitive to; they do not
stand in for real photos.

Each look is deterministic per photo (its noise is seeded by the photo's name), so two runs read the same frames.
Sizes scale with the frame (a blur of 1.5 pixels at 640 is 7.7 at 3280), so ``--scale`` and ``--look`` combine.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable

import cv2
import numpy as np

Look = Callable[[np.ndarray, np.random.Generator], np.ndarray]


def _gain(bgr: tuple[float, float, float]) -> Look:
    """A white balance set for other light (a lamp's warm cast, a cold window), or an exposure (all three alike)."""
    return lambda img, rng: np.clip(img * np.float32(bgr), 0, 255)


def _noise(sigma: float) -> Look:
    """Sensor noise of a small camera at a high gain: per pixel and channel, at the frame's own resolution."""
    return lambda img, rng: np.clip(img + rng.normal(0.0, sigma, img.shape).astype(np.float32), 0, 255)


def _dark(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Under-exposed in a dim room: darker, and the gain that brings it up brings noise."""
    return _noise(3.0)(img * np.float32(0.4), rng)


def _soft(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Slightly out of focus (a fixed-focus lens nearer than its focus distance)."""
    sigma = 1.5 * max(img.shape[:2]) / 640.0
    return cv2.GaussianBlur(img, (0, 0), sigma)


def _vignette(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A wide cheap lens: the light falls to half in the corners."""
    h, w = img.shape[:2]
    y, x = np.ogrid[:h, :w]
    r2 = ((x - (w - 1) / 2) / (w / 2)) ** 2 + ((y - (h - 1) / 2) / (h / 2)) ** 2
    return img * (1.0 - 0.25 * r2).astype(np.float32)[..., None]


def _jpeg(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Streamed over a slow link, compressed hard."""
    ok, data = cv2.imencode(".jpg", np.clip(img, 0, 255).astype(np.uint8), [cv2.IMWRITE_JPEG_QUALITY, 35])
    return cv2.imdecode(data, cv2.IMREAD_COLOR).astype(np.float32)


LOOKS: dict[str, Look] = {
    "warm": _gain((0.7, 0.95, 1.15)),
    "cool": _gain((1.2, 1.0, 0.8)),
    "dark": _dark,
    "bright": _gain((1.6, 1.6, 1.6)),
    "noisy": _noise(10.0),
    "soft": _soft,
    "vignette": _vignette,
    "jpeg": _jpeg,
}


def parse(spec: str | None) -> list[str]:
    """``--look warm,noisy`` as names, applied in that order; ValueError naming the looks there are."""
    names = [n.strip() for n in (spec or "").split(",") if n.strip()]
    unknown = [n for n in names if n not in LOOKS]
    if unknown:
        raise ValueError(f"no look {', '.join(unknown)}; there are: {', '.join(LOOKS)}")
    return names


def apply(img: np.ndarray, names: list[str], photo: str) -> np.ndarray:
    """The photo with each look in ``names`` applied in turn, the same for the same photo at every run."""
    if not names:
        return img
    rng = np.random.default_rng(zlib.crc32(photo.encode()))
    out = img.astype(np.float32)
    for name in names:
        out = LOOKS[name](out, rng)
    return np.clip(np.rint(out), 0, 255).astype(np.uint8)
