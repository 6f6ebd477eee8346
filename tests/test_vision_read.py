"""The pip reader on real photos from other people's cameras (../shared/datasets), faces checked against labels."""

from __future__ import annotations

import csv
from collections import Counter
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.detect import crop_die, find_dice
from vision.pips import read_dice
from vision.types import TrayReading


def labels(folder: Path) -> dict[str, list[tuple[int, tuple[float, float, float, float]]]]:
    out: dict[str, list] = {}
    with open(folder / "labels.csv", newline="") as fh:
        for r in csv.DictReader(fh):
            box = tuple(float(r[k]) for k in ("x_min", "y_min", "x_max", "y_max"))
            out.setdefault(r["image"], []).append((int(r["face"]), box))
    return out


def load(datasets: Path, folder: str, name: str) -> tuple[np.ndarray, list]:
    img = cv2.imread(str(datasets / folder / "images" / name))
    if img is None:
        pytest.skip(f"{folder}/{name} is missing from the datasets")
    return img, labels(datasets / folder)[name]


def located(reading: TrayReading, truth: list, shape: tuple[int, ...]) -> list[int]:
    """Labelled dice whose centre lies in a predicted box (grown by half) carrying the labelled face."""
    h, w = shape[:2]
    found = []
    free = list(reading.dice)
    for face, (x0, y0, x1, y1) in truth:
        cx, cy = (x0 + x1) / 2 * w, (y0 + y1) / 2 * h
        for die in free:
            bx0, by0, bx1, by1 = die.box
            gx, gy = (bx1 - bx0) / 2, (by1 - by0) / 2
            if die.face == face and bx0 - gx <= cx <= bx1 + gx and by0 - gy <= cy <= by1 + gy:
                found.append(face)
                free.remove(die)
                break
    return found


# Oblique webcam frames (side faces with pips show) and several dice per frame, dice close to each other.
EXACT = [
    ("matteo-d6", "five_22.jpg"),
    ("matteo-d6", "four_31.jpg"),
    ("matteo-d6", "six_43.jpg"),
    ("matteo-d6", "three_44.jpg"),
    ("matteo-d6", "two_45.jpg"),
    ("matteo-d6", "six_56.jpg"),
]


@pytest.mark.parametrize(("folder", "name"), EXACT)
def test_reads_photo_exactly(datasets: Path, folder: str, name: str) -> None:
    img, truth = load(datasets, folder, name)
    reading = read_dice(img)
    assert Counter(reading.faces) == Counter(f for f, _ in truth)
    assert sorted(located(reading, truth, img.shape)) == sorted(f for f, _ in truth)
    assert all(0.0 <= d.confidence <= 1.0 for d in reading.dice)


@pytest.mark.parametrize(
    ("folder", "min_precision", "min_recall"), [("byler-d6", 0.6, 0.6), ("matteo-d6", 0.5, 0.8)]
)
def test_accuracy_floor_on_a_sample(datasets: Path, folder: str, min_precision: float, min_recall: float) -> None:
    """A regression guard over every 4th photo: the reader must not get worse than it is (see docs/vision.md)."""
    table = labels(datasets / folder)
    predicted = labelled = correct = 0
    for name in sorted(table)[::4]:
        img = cv2.imread(str(datasets / folder / "images" / name))
        faces = Counter(read_dice(img).faces)
        truth = Counter(f for f, _ in table[name])
        predicted += sum(faces.values())
        labelled += sum(truth.values())
        correct += sum((faces & truth).values())
    assert correct / max(1, predicted) >= min_precision
    assert correct / labelled >= min_recall


def test_find_dice_finds_dice_without_reading_pips(datasets: Path) -> None:
    img, truth = load(datasets, "byler-d6", "IMG_20191209_095954.jpg")  # five green translucent dice, white board
    cands = find_dice(img)
    h, w = img.shape[:2]
    hits = 0
    for _, (x0, y0, x1, y1) in truth:
        cx, cy = (x0 + x1) / 2 * w, (y0 + y1) / 2 * h
        if any(c.box[0] <= cx <= c.box[2] and c.box[1] <= cy <= c.box[3] for c in cands):
            hits += 1
    assert hits == len(truth)
    assert len(cands) <= len(truth) + 3  # the two screw holes of the board may look die-like; little else may


def test_crop_die_is_upright_square_of_the_die(datasets: Path) -> None:
    img, _ = load(datasets, "byler-d6", "IMG_20191209_095954.jpg")
    cands = find_dice(img)
    assert cands
    c = max(cands, key=lambda c: c.score)
    crop = crop_die(img, c, 64)
    assert crop.shape == (64, 64, 3)
    # The die fills the crop: its centre is not the white board.
    centre = crop[24:40, 24:40].reshape(-1, 3).mean(axis=0)
    board = np.median(img.reshape(-1, 3), axis=0)
    assert np.abs(centre - board).sum() > 60
    assert c.crop(img, 32).shape == (32, 32, 3)
