"""Dice-reading benchmark: run the pip reader over every dataset folder and print one row per folder.

    python bench/bench_dice_read.py [--split all|train|holdout] [--method auto|net|classical] [--scale 3280x2464]
                                    [--look warm,noisy] [--datasets DIR] [--failures OUTDIR] [--model FILE]

``--split holdout`` reads only the photos the net was not trained on (vision/datasets.py decides, the same way for
the trainer, this benchmark and the tests); quote those numbers for accuracy on new photos.

Per photo, predicted and labelled faces are compared as multisets: correct = size of their intersection,
precision = correct / predicted, recall = correct / labelled, "exact" = photos whose multisets are equal.
Unknown faces (None) count as predicted but never as correct. Timing is wall time of ``read_dice`` on one core
(OpenCV threads = 1, process pinned to CPU 0 where the OS allows); the upscale for ``--scale`` and the ``--look``
(another camera's white balance, exposure, noise, focus, lens or compression, simulated: bench/camera_looks.py) are
not timed.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import camera_looks  # noqa: E402
from yardstick import line, yardstick  # noqa: E402

from vision import net  # noqa: E402
from vision.annotate import annotate  # noqa: E402
from vision.datasets import SPLITS, default_datasets, folders, select  # noqa: E402
from vision.pips import METHODS, read_dice  # noqa: E402


def load_labels(folder: Path, split: str = "all") -> dict[str, list[int]]:
    return {name: [d.face for d in dice] for name, dice in select(folder, split).items()}


def pin_one_core() -> None:
    cv2.setNumThreads(1)
    if hasattr(os, "sched_setaffinity"):
        try:
            os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})
        except OSError:
            pass


def to_camera_size(img: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """The photo as a camera of ``size`` (w, h) would frame it: upscaled uniformly (bicubic) to fit, the rest
    filled with the photo's median colour (more table). Stretching a square photo to 4:3 would make its dice
    oblong, which no camera does, and cost the reader dice it reads at the published size."""
    w, h = size
    f = min(w / img.shape[1], h / img.shape[0])
    big = cv2.resize(img, (min(w, round(img.shape[1] * f)), min(h, round(img.shape[0] * f))),
                     interpolation=cv2.INTER_CUBIC)
    fill = [float(v) for v in np.median(img.reshape(-1, 3), axis=0)]
    top, left = (h - big.shape[0]) // 2, (w - big.shape[1]) // 2
    return cv2.copyMakeBorder(big, top, h - big.shape[0] - top, left, w - big.shape[1] - left,
                              cv2.BORDER_CONSTANT, value=fill)


def run_folder(
    folder: Path, scale: tuple[int, int] | None, failures: Path | None, split: str = "all", method: str = "auto",
    looks: list[str] | None = None,
) -> dict:
    labels = load_labels(folder, split)
    totals = Counter()
    times: list[float] = []
    for name in sorted(labels):
        img = cv2.imread(str(folder / "images" / name), cv2.IMREAD_COLOR)
        if img is None:
            continue
        if scale is not None:
            img = to_camera_size(img, scale)
        img = camera_looks.apply(img, looks or [], name)
        reading = read_dice(img, method)
        times.append(reading.ms)
        predicted = Counter(reading.faces)
        truth = Counter(labels[name])
        correct = sum((predicted & truth).values())
        totals["images"] += 1
        totals["labelled"] += sum(truth.values())
        totals["predicted"] += sum(predicted.values())
        totals["correct"] += correct
        exact = predicted == truth
        totals["exact"] += int(exact)
        if failures is not None and not exact:
            failures.mkdir(parents=True, exist_ok=True)
            out = annotate(img, reading)
            text = "truth " + " ".join(str(f) for f in sorted(labels[name]))
            cv2.putText(out, text, (8, out.shape[0] - 10), cv2.FONT_HERSHEY_SIMPLEX, 0.6, (0, 0, 255), 2)
            cv2.imwrite(str(failures / f"{folder.name}_{Path(name).stem}.png"), out)
    return {"folder": folder.name, **totals, "times": times}


def fmt_row(r: dict) -> str:
    p = r["correct"] / r["predicted"] if r["predicted"] else 0.0
    rec = r["correct"] / r["labelled"] if r["labelled"] else 0.0
    ex = r["exact"] / r["images"] if r["images"] else 0.0
    t = np.array(r["times"]) if r["times"] else np.zeros(1)
    return (
        f"{r['folder']:<14}{r['images']:>7}{r['labelled']:>9}{r['predicted']:>10}{r['correct']:>9}"
        f"{p * 100:>9.1f}%{rec * 100:>8.1f}%{ex * 100:>8.1f}%{np.median(t):>9.1f}{np.percentile(t, 95):>9.1f}"
    )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--datasets", type=Path, default=default_datasets())
    ap.add_argument("--scale", help="upscale every photo to WxH first (e.g. 3280x2464, a Pi camera still; "
                    "uniformly, the rest filled with table colour)")
    ap.add_argument("--look", help="photos as another camera or room would take them, e.g. warm or dark,noisy "
                    f"(bench/camera_looks.py: {', '.join(camera_looks.LOOKS)}); simulated, not real photos")
    ap.add_argument("--failures", type=Path, help="write annotated photos that were not read exactly here")
    ap.add_argument("--split", choices=SPLITS, default="all", help="which photos (see vision/datasets.py)")
    ap.add_argument("--method", choices=METHODS, default="auto", help="reader (auto = net when its model loads)")
    ap.add_argument("--model", type=Path, help="another ONNX model instead of vision/models/dice_net.onnx")
    args = ap.parse_args(argv)
    try:
        looks = camera_looks.parse(args.look)
    except ValueError as exc:
        print(exc, file=sys.stderr)
        return 2
    if args.model is not None:
        if net.load(args.model) is None:
            print(f"cannot load the model {args.model}", file=sys.stderr)
            return 1
        net.MODEL_PATH = args.model
    scale = None
    if args.scale:
        w, _, h = args.scale.lower().partition("x")
        scale = (int(w), int(h))
    found = folders(args.datasets)
    if not found:
        print(f"no dataset folders with labels.csv under {args.datasets}", file=sys.stderr)
        return 1
    try:
        for folder in found:  # every folder's labels read before anything is measured (a folder of a game's dice?)
            load_labels(folder)
    except ValueError as exc:
        print(exc, file=sys.stderr)
        return 2
    pin_one_core()
    used = "classical" if args.method == "classical" or net.load(net.MODEL_PATH) is None else "net"
    look = f", look {'+'.join(looks)} (simulated)" if looks else ""
    print(f"dice-reading benchmark, {args.split} photos, frames {'as published' if scale is None else args.scale}"
          f"{look}, reader {used}, one core")
    head = (
        f"{'folder':<14}{'images':>7}{'labelled':>9}{'predicted':>10}{'correct':>9}"
        f"{'prec':>10}{'recall':>9}{'exact':>9}{'med ms':>9}{'p95 ms':>9}"
    )
    print(head)
    print("-" * len(head))
    before = yardstick()
    for folder in found:
        print(fmt_row(run_folder(folder, scale, args.failures, args.split, args.method, looks)), flush=True)
    print(line(before, yardstick()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
