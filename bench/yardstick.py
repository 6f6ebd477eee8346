"""A fixed piece of work, timed: how fast this machine is right now, for reading the benchmarks' timings.

The development machines are virtual and shared: the same code measured 4.4-7.1 ms per taught die on one machine
within a day, and a new machine can be 1.6 times slower than the last. A timing target is only meaningful next to
the machine's speed at that moment, so the benchmarks print this before and after their rows. The work never
changes with the reader (a blur, a resize and an edge filter of a fixed 640x480 photo, by OpenCV, whose threads
the benchmarks limit to one): compare two runs' ms only when their yardsticks agree.
"""

from __future__ import annotations

import time

import cv2
import numpy as np

from vision.inference import engine_name

_IMAGE = np.random.default_rng(0).integers(0, 256, (480, 640, 3), dtype=np.uint8)


def yardstick(repeats: int = 30) -> float:
    """Median milliseconds of the fixed work (call after ``cv2.setNumThreads(1)``)."""
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        blurred = cv2.GaussianBlur(_IMAGE, (0, 0), 2.0)
        cv2.Sobel(cv2.resize(blurred, (448, 336), interpolation=cv2.INTER_AREA), cv2.CV_32F, 1, 0)
        times.append(time.perf_counter() - t0)
    return 1000 * float(np.median(times))


def line(before: float, after: float) -> str:
    """The yardstick's two readings, and the engine the models ran on (onnxruntime is 1.5-2x faster than OpenCV's)."""
    return (f"machine yardstick {before:.2f} ms before, {after:.2f} ms after (bench/yardstick.py: fixed work; "
            f"compare timings only between runs whose yardsticks agree); models on {engine_name()}")
