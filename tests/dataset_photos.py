"""One real photo of the datasets, for the tests that read it: skipped with its name where it is missing (a
dataset folder copied in part), as the whole folder is where ``../shared/datasets`` is absent (``datasets``)."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest


def dataset_photo(datasets: Path, folder: str, name: str) -> np.ndarray:
    """The photo ``name`` of the dataset ``folder`` as OpenCV reads it (BGR)."""
    img = cv2.imread(str(datasets / folder / "images" / name))
    if img is None:
        pytest.skip(f"{folder}/{name} is missing from the datasets")
    return img
