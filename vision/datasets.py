"""The labelled dice photos (../shared/datasets) and the one train / held-out split every tool uses.

Why one split in one place: the net is trained on some photos, and the benchmark and the tests must judge it on the
others. If the trainer, the benchmark and the tests each picked their own photos, held-out numbers would silently
include training photos. The split is by *blocks of consecutive photos*: neighbouring frames of a webcam video (or
photos shot seconds apart) are near-duplicates, so holding out single photos would hold out nothing.
The rule is the same for every folder (no per-dataset settings, no file-name tuning): photos are put in natural
order, grouped into series by their name without digits, cut into blocks of ``BLOCK`` and a seeded fifth of every
folder's blocks is held out.
"""

from __future__ import annotations

import csv
import os
import random
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

BLOCK = 10
HOLDOUT_FRACTION = 0.2
SEED = 3
SPLITS = ("all", "train", "holdout")
#: a labels.csv's columns, here and in the folders ``companion teach --examples`` takes (box corners 0..1)
COLUMNS = ("image", "face", "x_min", "y_min", "x_max", "y_max")


@dataclass(frozen=True)
class LabelledDie:
    """One labelled die: its face and box corners normalised to 0..1 of the photo's width and height. The face is
    a pip count (1-6), or a face name of a dice set where the labels are read so (``load_labels``' ``face``)."""

    face: int | str
    box: tuple[float, float, float, float]

    @property
    def center(self) -> tuple[float, float]:
        return ((self.box[0] + self.box[2]) / 2, (self.box[1] + self.box[3]) / 2)


def default_datasets() -> Path:
    """Where the photos live: $COMPANION_DATASETS, else ../shared/datasets next to the repository."""
    env = os.environ.get("COMPANION_DATASETS")
    return Path(env) if env else Path(__file__).resolve().parents[2] / "shared" / "datasets"


def folders(root: Path) -> list[Path]:
    """Every dataset folder under ``root`` (a folder with a labels.csv), sorted by name."""
    if not root.is_dir():
        return []
    return sorted(p for p in root.iterdir() if (p / "labels.csv").is_file())


def load_labels(folder: Path, face: Callable[[str], int | str] = int) -> dict[str, list[LabelledDie]]:
    """labels.csv of one folder: image name -> its dice. ``face`` reads a face: a pip count (int, as the pip reader's
    folders hold), or ``str`` for the face names of a game's dice (bench/bench_taught_real.py ``--set``)."""
    out: dict[str, list[LabelledDie]] = {}
    labels = folder / "labels.csv"
    with open(labels, newline="") as fh:
        reader = csv.DictReader(fh)
        missing = [c for c in COLUMNS if c not in (reader.fieldnames or [])]
        if missing:
            raise ValueError(f"{labels}: no column {', '.join(missing)} (the columns are {','.join(COLUMNS)})")
        for line, row in enumerate(reader, 2):
            try:
                box = tuple(float(row[k]) for k in COLUMNS[2:])
            except (TypeError, ValueError):
                raise ValueError(f"{labels} line {line}: the box is not four numbers") from None
            try:
                die = LabelledDie(face(row["face"].strip()), box)  # type: ignore[arg-type]
            except ValueError:
                raise ValueError(f"{labels} line {line}: face {row['face']!r} is no pip count (1-6); a folder of a "
                                 "game's dice is measured by bench/bench_taught_real.py --set") from None
            out.setdefault(row["image"], []).append(die)
    return out


def _natural(name: str) -> tuple:
    return tuple(int(p) if p.isdigit() else p for p in re.split(r"(\d+)", name))


def holdout_names(folder_name: str, names: list[str]) -> set[str]:
    """The held-out photos among ``names`` of one folder (deterministic: depends only on the names)."""
    series: dict[str, list[str]] = {}
    for n in sorted(names, key=_natural):
        series.setdefault(re.sub(r"\d+", "#", Path(n).stem), []).append(n)
    blocks = [s[i:i + BLOCK] for _, s in sorted(series.items()) for i in range(0, len(s), BLOCK)]
    order = list(range(len(blocks)))
    random.Random(f"{SEED}:{folder_name}").shuffle(order)
    n_out = max(1, round(HOLDOUT_FRACTION * len(blocks))) if len(blocks) > 1 else 0
    return {n for b in order[:n_out] for n in blocks[b]}


def select(folder: Path, split: str = "all", face: Callable[[str], int | str] = int) -> dict[str, list[LabelledDie]]:
    """The labelled photos of ``folder`` in ``split`` ("all", "train" or "holdout"), faces read by ``face``."""
    if split not in SPLITS:
        raise ValueError(f"split must be one of {SPLITS}, not {split!r}")
    labels = load_labels(folder, face)
    if split == "all":
        return labels
    out = holdout_names(folder.name, list(labels))
    return {n: d for n, d in labels.items() if (n in out) == (split == "holdout")}
