"""Turn whatever a camera, a file or a test hands us into one predictable image.

Readers must never crash on odd frames (None, 1x1, grey, BGRA, 16-bit, huge), so every public entry point first
passes the frame through :func:`as_bgr` and :func:`work_image` and gives up politely when they return ``None``.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator

import cv2
import numpy as np

#: Longest side of the image the dice are *found* in. Big frames are shrunk to this for speed; the faces are then
#: read from the full-resolution frame, so a Pi camera still loses no pip detail.
WORK_MAX_SIDE = 640

#: Smaller than this (either side) cannot hold a readable die.
MIN_SIDE = 16


def as_bgr(frame: object) -> np.ndarray | None:
    """Return a contiguous uint8 BGR image, or ``None`` if ``frame`` cannot be one (empty, 1-D, too small...)."""
    if frame is None:
        return None
    try:
        img = np.asarray(frame)
    except Exception:  # noqa: BLE001 - anything that is not array-like is simply not a frame
        return None
    if img.ndim == 3 and img.shape[2] == 1:
        img = img[:, :, 0]
    if img.ndim not in (2, 3) or img.size == 0:
        return None
    if min(img.shape[0], img.shape[1]) < MIN_SIDE:
        return None
    if img.dtype != np.uint8:
        if img.dtype == np.bool_:
            img = img.astype(np.uint8) * 255
        elif np.issubdtype(img.dtype, np.floating):
            finite = np.nan_to_num(img.astype(np.float32), nan=0.0, posinf=0.0, neginf=0.0)
            top = float(finite.max()) if finite.size else 0.0
            scale = 255.0 if top <= 1.0 else 1.0
            img = np.clip(finite * scale, 0, 255).astype(np.uint8)
        elif np.issubdtype(img.dtype, np.integer):
            top = int(img.max())
            shift = 8 if top > 255 else 0
            img = np.clip(img.astype(np.int64) >> shift, 0, 255).astype(np.uint8)
        else:
            return None
    if img.ndim == 2:
        return cv2.cvtColor(np.ascontiguousarray(img), cv2.COLOR_GRAY2BGR)
    channels = img.shape[2]
    if channels == 4:
        return cv2.cvtColor(np.ascontiguousarray(img), cv2.COLOR_BGRA2BGR)
    if channels == 3:
        return np.ascontiguousarray(img)
    if channels == 2:
        return cv2.cvtColor(np.ascontiguousarray(img[:, :, 0]), cv2.COLOR_GRAY2BGR)
    return np.ascontiguousarray(img[:, :, :3])


def work_image(bgr: np.ndarray, max_side: int = WORK_MAX_SIDE) -> tuple[np.ndarray, float]:
    """Shrink ``bgr`` so its longest side is at most ``max_side``; return it and the factor work = frame * factor."""
    h, w = bgr.shape[:2]
    longest = max(h, w)
    if longest <= max_side:
        return bgr, 1.0
    factor = max_side / longest
    size = (max(1, round(w * factor)), max(1, round(h * factor)))
    # Halve with pyrDown-like area sampling first: INTER_AREA on an 8 MP frame is the single most expensive step.
    src = bgr
    while src.shape[1] >= 4 * size[0]:
        src = cv2.resize(src, (src.shape[1] // 2, src.shape[0] // 2), interpolation=cv2.INTER_NEAREST)
    small = cv2.resize(src, size, interpolation=cv2.INTER_AREA)
    return small, size[0] / w


def brightest(image: np.ndarray) -> float:
    """How bright the lit part of a picture is: the 95th percentile of each pixel's brightest channel (of its grey
    value in a grey picture), so a glint does not set it. ``hardware.sources.light_level`` measures a camera's frame
    so, ``vision.face_outline.exposed`` a die's crop. The value of ``np.percentile(image.max(axis=2), 95)`` in a
    seventh of its time (0.02 instead of 0.15 ms for a 40 x 40 crop: numpy reduces a last axis of 3 slowly, and
    sorts where two order statistics do)."""
    top = np.ascontiguousarray(image)
    if top.ndim == 3:
        channels = cv2.split(top)
        top = channels[0]
        for channel in channels[1:]:
            top = cv2.max(top, channel)
    top = top.ravel()
    pos = 0.95 * (top.size - 1)
    k = int(pos)
    if k + 1 >= top.size:  # a single pixel
        return float(top[0])
    part = np.partition(top, (k, k + 1))
    low, high = float(part[k]), float(part[k + 1])
    return low + (high - low) * (pos - k)


def read_photo(path: str | os.PathLike, flags: int = cv2.IMREAD_COLOR) -> np.ndarray | None:
    """The photo at ``path``, or None where it is no image OpenCV can open (empty, cut off, not a photo); OSError
    where the file cannot be read at all.

    Quietly: for a broken file OpenCV's decoder logs a line of its own on stderr ("IHDR chunk shall be first"),
    beside the companion's message naming the file in words (``companion read``, ``teach --examples``, the replayed
    photo folder of ``hardware.sources``). Read as bytes and decoded, so a name in any script opens on every
    system."""
    data = np.fromfile(os.fspath(path), dtype=np.uint8)
    if not data.size:
        return None
    with opencv_quiet():
        try:
            image = cv2.imdecode(data, flags)
        except cv2.error:  # a header claiming more pixels than OpenCV opens (a flipped byte): no photo either
            return None
    return image if image is not None and image.size else None


#: OpenCV's log levels (cv2.utils.logging.LOG_LEVEL_SILENT, LOG_LEVEL_ERROR), by number
LOG_SILENT, LOG_ERRORS = 0, 2


@contextlib.contextmanager
def opencv_quiet(*, errors_too: bool = True) -> Iterator[None]:
    """OpenCV's own log silenced for a while, where the installed OpenCV lets it be; its warnings only with
    ``errors_too=False``. Its lines on stderr would stand beside our message that already says, in a player's words,
    what is wrong (a broken photo, a camera that is not there)."""
    cv_log = getattr(getattr(cv2, "utils", None), "logging", None)
    if cv_log is None or not hasattr(cv_log, "setLogLevel"):
        # the opencv-python 4.x wheels (a Pi's, pinned beside the OS's numpy) have no cv2.utils.logging, only
        # cv2.setLogLevel with the same levels by number: 0 silent, 2 errors
        cv_log = cv2 if hasattr(cv2, "setLogLevel") and hasattr(cv2, "getLogLevel") else None
    if cv_log is None:
        yield
        return
    before = cv_log.getLogLevel()
    cv_log.setLogLevel(LOG_SILENT if errors_too else LOG_ERRORS)
    try:
        yield
    finally:
        cv_log.setLogLevel(before)
