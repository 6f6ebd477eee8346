"""Running the small ONNX models: onnxruntime where it is installed, OpenCV's dnn module otherwise.

Why two engines: the same models run faster in onnxruntime (measured, one core, twelfth session: the top-face
finder 1.1 instead of 1.6 ms a crop, the pip detector 5.5 instead of 8.0 ms for a 448x336 input, eight face crops
1.8 instead of 3.8 ms; outputs the same to 5e-5), and the per-die and per-frame times are targets. onnxruntime is a
dependency where PyPI has wheels for it (x86-64 and ARM64: laptops and the Pi). OpenCV's dnn module, which every
install has, is the fallback: on a machine without onnxruntime, or with ``COMPANION_INFERENCE=opencv`` (to compare
the two, or if onnxruntime misbehaves somewhere), every model runs there as before.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Protocol

import cv2
import numpy as np

#: Set to "opencv" to run every model with cv2.dnn even where onnxruntime is installed.
ENGINE_ENV = "COMPANION_INFERENCE"


class ModelError(Exception):
    """A model file that the engine cannot load (damaged, truncated, not a model)."""


class Model(Protocol):
    engine: str

    def run(self, blob: np.ndarray) -> np.ndarray:
        """The model's first output for one NCHW float32 input."""


class _Ort:
    engine = "onnxruntime"

    def __init__(self, path: Path, small: bool) -> None:
        import onnxruntime as ort

        opts = ort.SessionOptions()
        # a small net gains nothing from more threads (measured: the top-face net 1.11 ms on one or two); the
        # detector gets the budget OpenCV has (the benchmarks set one core); no threads busy-waiting beside the
        # screen loop
        opts.intra_op_num_threads = 1 if small else max(1, cv2.getNumThreads())
        opts.inter_op_num_threads = 1
        opts.add_session_config_entry("session.intra_op.allow_spinning", "0")
        opts.log_severity_level = 3  # its warnings are for model authors, not for the table
        try:
            self.session = ort.InferenceSession(str(path), opts, providers=["CPUExecutionProvider"])
        except Exception as exc:  # onnxruntime raises its own pybind classes for a bad file
            raise ModelError(f"{path.name}: {exc}") from exc
        self.input = self.session.get_inputs()[0].name

    def run(self, blob: np.ndarray) -> np.ndarray:
        return self.session.run(None, {self.input: blob})[0]


class _OpenCv:
    engine = "opencv"

    def __init__(self, path: Path, small: bool) -> None:
        engine = getattr(cv2.dnn, "ENGINE_CLASSIC", None) if small else None
        try:
            self.net = (cv2.dnn.readNetFromONNX(str(path)) if engine is None
                        else cv2.dnn.readNetFromONNX(str(path), engine=engine))
        except cv2.error as exc:
            raise ModelError(f"{path.name}: {exc}") from exc

    def run(self, blob: np.ndarray) -> np.ndarray:
        self.net.setInput(blob)
        return self.net.forward()


def available_engines() -> list[str]:
    """The engines this install has, fastest first."""
    try:
        import onnxruntime  # noqa: F401
    except ImportError:
        return ["opencv"]
    return ["onnxruntime", "opencv"]


def engine_name() -> str:
    """The engine models load on: the fastest available, or OpenCV's when ``COMPANION_INFERENCE=opencv``."""
    if os.environ.get(ENGINE_ENV, "").strip().lower() == "opencv":
        return "opencv"
    return available_engines()[0]


def load_model(path: Path, *, small: bool = False, engine: str | None = None) -> Model:
    """The model at ``path`` on ``engine`` (default ``engine_name()``); ModelError when it cannot be read.

    ``small``: a net for die crops, not whole frames. onnxruntime runs it on one thread; OpenCV 5 on its classic dnn
    engine, which runs the crop nets faster than the default one (measured: 3.4 instead of 4.7 ms for 8 face
    crops, 0.9 instead of 1.3-1.7 ms for one top-face crop), while the default engine runs the detector's whole
    frame faster. OpenCV 4 has only the classic engine."""
    if (engine or engine_name()) == "onnxruntime":
        return _Ort(Path(path), small)
    return _OpenCv(Path(path), small)


def disagreement(path: Path, probe: np.ndarray, reference: np.ndarray) -> dict[str, float]:
    """Each available engine's largest absolute difference from ``reference`` (what the training framework gave
    for ``probe``): the training scripts refuse to ship a model that an engine runs differently."""
    return {name: float(np.abs(load_model(path, engine=name).run(probe) - reference).max())
            for name in available_engines()}
