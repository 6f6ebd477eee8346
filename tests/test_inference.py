"""The vision models run on onnxruntime where it is installed and on OpenCV's dnn module otherwise: both must give
the same answers, refuse a damaged file the same way, and OpenCV's must stay selectable."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest
from dataset_photos import dataset_photo

from vision import face_outline, inference, net
from vision.datasets import load_labels

#: each shipped model, an input of the size the readers give it, and whether it is a small crop net
MODELS = [
    (net.MODEL_PATH, (1, 3, 336, 448), False),
    (net.ANY_DICE_MODEL_PATH, (1, 3, 336, 448), False),
    (net.FACE_MODEL_PATH, (5, 3, net.FACE_INPUT, net.FACE_INPUT), True),
    (face_outline.TOP_MODEL_PATH, (1, 3, face_outline.FIND, face_outline.FIND), True),
]


def both_engines() -> None:
    if "onnxruntime" not in inference.available_engines():
        pytest.skip("onnxruntime is not installed here (it is a dependency only where PyPI has wheels for the "
                    "machine): there is no second engine to compare with")


@pytest.mark.parametrize(("path", "shape", "small"), MODELS, ids=lambda v: getattr(v, "stem", None))
def test_both_engines_give_the_same_outputs(path: Path, shape: tuple[int, ...], small: bool) -> None:
    both_engines()
    x = np.random.default_rng(3).random(shape).astype(np.float32)
    fast = inference.load_model(path, small=small, engine="onnxruntime")
    slow = inference.load_model(path, small=small, engine="opencv")
    assert (fast.engine, slow.engine) == ("onnxruntime", "opencv")
    a, b = fast.run(x), slow.run(x)
    assert a.shape == b.shape and a.dtype == np.float32
    assert float(np.abs(a - b).max()) < 1e-3
    assert float(np.abs(a).max()) > 0.01  # a real output, not an empty map


def test_a_damaged_model_is_refused_by_every_engine(tmp_path: Path) -> None:
    bad = tmp_path / "model.onnx"
    bad.write_bytes(b"not a model")
    for engine in inference.available_engines():
        with pytest.raises(inference.ModelError, match="model.onnx"):
            inference.load_model(bad, engine=engine)
    truncated = tmp_path / "top_face.onnx"
    truncated.write_bytes(face_outline.TOP_MODEL_PATH.read_bytes()[:5000])
    for engine in inference.available_engines():
        with pytest.raises(inference.ModelError):
            inference.load_model(truncated, engine=engine)


def test_opencv_can_be_chosen_and_is_the_fallback(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(inference.ENGINE_ENV, raising=False)
    assert inference.engine_name() == inference.available_engines()[0]
    monkeypatch.setenv(inference.ENGINE_ENV, "OpenCV")
    assert inference.engine_name() == "opencv"
    assert inference.load_model(face_outline.TOP_MODEL_PATH).engine == "opencv"
    monkeypatch.delenv(inference.ENGINE_ENV)
    monkeypatch.setattr(inference, "available_engines", lambda: ["opencv"])  # a machine without onnxruntime
    assert inference.engine_name() == "opencv"
    assert inference.load_model(face_outline.TOP_MODEL_PATH).engine == "opencv"


@pytest.mark.parametrize("name", ["five_22.jpg", "four_45.jpg", "dice_15.jpg"])
def test_the_pip_reader_reads_real_photos_alike_on_both_engines(datasets: Path, monkeypatch: pytest.MonkeyPatch,
                                                                name: str) -> None:
    both_engines()
    img = dataset_photo(datasets, "matteo-d6", name)
    readings = {}
    for engine in ("onnxruntime", "opencv"):
        monkeypatch.setenv(inference.ENGINE_ENV, engine)
        model = net.DiceNet()
        assert model.net.engine == engine
        readings[engine] = model.detect(img)
    fast, slow = readings["onnxruntime"], readings["opencv"]
    assert len(fast) == len(slow) == len(load_labels(datasets / "matteo-d6")[name])
    for a, b in zip(sorted(fast, key=lambda d: d.x), sorted(slow, key=lambda d: d.x), strict=True):
        assert a.face == b.face and math.hypot(a.x - b.x, a.y - b.y) < 0.5
