"""Train the two pip-dice nets (vision/models/*.onnx) on ../shared/datasets (train split only) + rendered trays.

    .venv/bin/pip install torch==2.13.0 onnx  # dev-only: the runtime needs neither, only the .onnx
    # (2.13.0 is the CPU build on the development machines' disk; a plain "torch" downloads a CUDA build)
    # the recipe of the shipped models (detector and first face run side by side, ~25 min wall on 2 busy cores):
    python scripts/train_dice_net.py --part detector --minutes 17 --synthetic 300 --checkpoint out/det.pt
    python scripts/train_dice_net.py --part faces --minutes 15 --synthetic 300 --checkpoint out/faces.pt
    python scripts/train_dice_net.py --part faces --minutes 8 --synthetic 150 --lr 1e-3 --init out/faces.pt \
        --hard-negatives vision/models/dice_net.onnx
    # then continued at lower rates (--init from --checkpoint): the full recipe is in docs/vision.md

Detector (``--part detector``, CenterNet-style, one pass, output stride 4): channel 0 is a heatmap of die top-face
centres, 1-6 are face logits (read at a peak), 7 is log(die side / 32 px). Why centres, not boxes: the two photo sets
label boxes differently (byler: the whole die; matteo: only the top face's pips) but both boxes are centred on the
top face. The size channel is trained only on labels whose box is the die (byler, renders); matteo's boxes only set
how wide the heatmap blob is. Face net (``--part faces``): 32 px crops around dice (and around places that are not
dice, including the detector's false alarms with ``--hard-negatives``) -> not a die / face 1-6.

Why heavy augmentation: the reader must work on cameras and dice it never saw. Every sample is a random crop at a
random scale (dice 10-110 px in the net input), rotated, flipped, perspective-warped, with hue rotation, channel
swaps, inverted colours (white-on-black pips), gain/gamma/contrast, blur, noise and JPEG. Synthetic trays from
``hardware.synthetic.render_tray`` add tables, dice styles and camera tilts the photos lack.
Only the train split of vision/datasets.py is used, so the benchmark's held-out numbers stay honest.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import torch  # noqa: E402
import torch.nn as nn  # noqa: E402
import torch.nn.functional as F  # noqa: E402

from vision.datasets import default_datasets, folders, select  # noqa: E402
from vision.inference import disagreement  # noqa: E402
from vision.net import (  # noqa: E402
    CROP_SPAN,
    FACE_INPUT,
    FACE_MODEL_PATH,
    INPUT_SCALE,
    LINEAR_DOWN,
    MODEL_PATH,
    STRIDE,
    WORK_SIDE,
    face_crop,
)

CROP = 192
#: the face net's crop side for this run (``--face-input``; the runtime's FACE_INPUT must then be set to match)
FACE_SIDE = [FACE_INPUT]
#: Folders whose boxes cover only the top face's pips (see their SOURCE.md): no size target from them.
PIP_BOXES = {"matteo-d6"}


# ------------------------------------------------------------------------------------------------------------
# The net


def cbr(i: int, o: int, k: int = 3, s: int = 1, g: int = 1) -> nn.Sequential:
    return nn.Sequential(nn.Conv2d(i, o, k, s, k // 2, groups=g, bias=False), nn.BatchNorm2d(o), nn.ReLU(inplace=True))


class DW(nn.Module):
    """Depthwise-separable block (cheap on one CPU core), residual when the shape allows."""

    def __init__(self, i: int, o: int, s: int = 1) -> None:
        super().__init__()
        self.dw = cbr(i, i, 3, s, i)
        self.pw = cbr(i, o, 1)
        self.res = i == o and s == 1

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = self.pw(self.dw(x))
        return x + y if self.res else y


class DiceNet(nn.Module):
    """Tiny encoder (/4, /8, /16) with a top-down path back to /4: pips need /4 detail, the die needs /16 context."""

    def __init__(self, c: tuple[int, int, int, int] = (16, 32, 64, 128)) -> None:
        super().__init__()
        c1, c2, c3, c4 = c
        self.stem = nn.Sequential(cbr(3, c1, 3, 2), DW(c1, c2, 2))
        self.s4 = DW(c2, c2)
        self.s8 = nn.Sequential(DW(c2, c3, 2), DW(c3, c3), DW(c3, c3))
        self.s16 = nn.Sequential(DW(c3, c4, 2), DW(c4, c4), DW(c4, c4), DW(c4, c4))
        self.l16 = cbr(c4, c3, 1)
        self.m8 = DW(c3, c3)
        self.l8 = cbr(c3, c2, 1)
        self.m4 = DW(c2, c2)
        self.head = nn.Conv2d(c2, 8, 1)
        self.up = nn.Upsample(scale_factor=2, mode="nearest")
        nn.init.constant_(self.head.bias[:1], -4.0)  # few pixels are centres: start the heatmap near zero

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        a = self.s4(self.stem(x))
        b = self.s8(a)
        c = self.s16(b)
        b = self.m8(b + self.up(self.l16(c)))
        a = self.m4(a + self.up(self.l8(b)))
        return self.head(a)


class Exported(nn.Module):
    """What goes into the ONNX file: heatmap through a sigmoid, face logits and size raw."""

    def __init__(self, net: DiceNet) -> None:
        super().__init__()
        self.net = net

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        o = self.net(x)
        return torch.cat([torch.sigmoid(o[:, :1]), o[:, 1:]], 1)


# ------------------------------------------------------------------------------------------------------------
# Data


@dataclass
class Sample:
    img: np.ndarray
    centers: np.ndarray  # (n, 2) pixels
    faces: np.ndarray  # (n,) 1-6
    sizes: np.ndarray  # (n,) die side in pixels (estimate where the box is not the die)
    size_known: bool
    hard: np.ndarray | None = None  # (m, 2) places the detector mistakes for dice (negatives for the face net)


def load_photos(root: Path) -> list[Sample]:
    out = []
    for folder in folders(root):
        for name, dice in sorted(select(folder, "train").items()):
            img = cv2.imread(str(folder / "images" / name), cv2.IMREAD_COLOR)
            if img is None or not dice:
                continue
            h, w = img.shape[:2]
            c = np.array([[d.center[0] * w, d.center[1] * h] for d in dice], np.float32)
            f = np.array([d.face for d in dice], np.int64)
            bw = np.array([((d.box[2] - d.box[0]) * w + (d.box[3] - d.box[1]) * h) / 2 for d in dice], np.float32)
            known = folder.name not in PIP_BOXES
            if known:
                sizes = bw
            else:
                # A pip pattern spans about 2/3 of the face (a lone 1 about 1/3): one die size per photo.
                est = np.where(f == 1, bw / 0.35, bw / 0.66)
                sizes = np.full_like(bw, float(np.median(est)))
            out.append(Sample(img, c, f, sizes, known))
    return out


def render_synthetic(n: int, seed: int, marbled: float = 0.0) -> list[Sample]:
    """``n`` rendered trays; a share ``marbled`` of them of one set of marbled dice with coloured pips (the
    renderer's plain styles have none, and a player's own dice often are such)."""
    from hardware.synthetic import marbled_painter, render_tray

    rng = np.random.default_rng(seed)
    out = []
    for i in range(n):
        painter = marbled_painter(rng) if i < round(marbled * n) else None
        frame, truth = render_tray(rng, n_dice=int(rng.integers(1, 13)), painter=painter)
        tops = [np.array(d.top, np.float32) for d in truth]
        c = np.array([t.mean(axis=0) for t in tops], np.float32)
        sizes = np.array([math.sqrt(abs(cv2.contourArea(t))) for t in tops], np.float32)
        f = np.array([int(d.face) for d in truth], np.int64)
        out.append(Sample(frame, c, f, sizes, True))
    return out


def _colour(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    if rng.random() < 0.3:
        img = img[:, :, rng.permutation(3)]
    if rng.random() < 0.5:
        hsv = cv2.cvtColor(img, cv2.COLOR_BGR2HSV)
        hsv[..., 0] = ((hsv[..., 0].astype(np.int16) + int(rng.integers(0, 180))) % 180).astype(np.uint8)
        s = hsv[..., 1].astype(np.float32) * rng.uniform(0.4, 1.5)
        hsv[..., 1] = np.clip(s, 0, 255).astype(np.uint8)
        img = cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)
    if rng.random() < 0.15:
        img = 255 - img
    if rng.random() < 0.1:
        img = cv2.cvtColor(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
    x = img.astype(np.float32) / 255.0
    x = x * rng.uniform(0.8, 1.2, size=3).astype(np.float32)  # white balance
    x = (x - 0.5) * rng.uniform(0.6, 1.4) + 0.5 + rng.uniform(-0.2, 0.2)  # contrast, brightness
    x = np.clip(x, 0, 1) ** rng.uniform(0.6, 1.6)
    if rng.random() < 0.3:  # uneven light
        h, w = x.shape[:2]
        g = np.linspace(rng.uniform(0.6, 1.0), rng.uniform(1.0, 1.3), w, dtype=np.float32)
        x = x * (g[None, :, None] if rng.random() < 0.5 else cv2.resize(g[None, :], (h, 1)).T[:, :, None])
    return np.clip(x * 255, 0, 255).astype(np.uint8)


def augment(s: Sample, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """One CROP x CROP training image and the dice centres / faces / sizes in it (net-input pixels)."""
    h, w = s.img.shape[:2]
    base = WORK_SIDE / max(h, w)
    med = float(np.median(s.sizes)) * base
    scale = base * math.exp(rng.uniform(math.log(0.4), math.log(2.5)))
    lo, hi = 10.0 / max(med / base, 1), 110.0 / max(med / base, 1)  # keep the dice 10-110 px
    scale = float(np.clip(scale, lo, hi))
    angle = rng.uniform(0, 360)
    m = cv2.getRotationMatrix2D((0.0, 0.0), angle, scale)
    if rng.random() < 0.5:
        m[0, :2] *= -1  # mirror: pip layouts are mirror-symmetric, faces stay
    # Centre the crop on a die most of the time, anywhere otherwise.
    if rng.random() < 0.8:
        anchor = s.centers[rng.integers(len(s.centers))] + rng.normal(0, 0.3 * CROP / scale, 2)
    else:
        anchor = np.array([rng.uniform(0, w), rng.uniform(0, h)])
    a = m[:, :2] @ anchor
    m[:, 2] = CROP / 2 - a
    mat = np.vstack([m, [0, 0, 1]])
    if rng.random() < 0.5:  # perspective: a tilted camera
        src = np.float32([[0, 0], [CROP, 0], [CROP, CROP], [0, CROP]])
        dst = src + rng.uniform(-0.12, 0.12, (4, 2)).astype(np.float32) * CROP
        mat = cv2.getPerspectiveTransform(src, dst) @ mat
    border = int(rng.choice([cv2.BORDER_REPLICATE, cv2.BORDER_CONSTANT]))
    fill = tuple(int(v) for v in rng.integers(0, 256, 3))
    interp = cv2.INTER_AREA if scale < LINEAR_DOWN else cv2.INTER_LINEAR
    if scale < LINEAR_DOWN:  # shrink first so small dice are not aliased
        small = cv2.resize(s.img, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
        pre = np.diag([1 / scale, 1 / scale, 1.0])
        img = cv2.warpPerspective(small, mat @ pre, (CROP, CROP), flags=cv2.INTER_LINEAR, borderMode=border,
                                  borderValue=fill)
    else:
        img = cv2.warpPerspective(s.img, mat, (CROP, CROP), flags=interp, borderMode=border, borderValue=fill)
    pts = cv2.perspectiveTransform(s.centers.reshape(-1, 1, 2).astype(np.float64), mat).reshape(-1, 2)
    # local scale of each die after the warp (perspective changes it a little)
    eps = cv2.perspectiveTransform((s.centers + [1.0, 0.0]).reshape(-1, 1, 2).astype(np.float64), mat).reshape(-1, 2)
    local = np.hypot(*(eps - pts).T)
    sizes = s.sizes * local
    img = _colour(img, rng)
    if rng.random() < 0.3:
        img = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.3, 1.3))
    if rng.random() < 0.1:  # motion blur
        k = int(rng.integers(3, 7))
        ker = np.zeros((k, k), np.float32)
        ker[k // 2, :] = 1.0 / k
        ker = cv2.warpAffine(ker, cv2.getRotationMatrix2D((k / 2 - 0.5, k / 2 - 0.5), rng.uniform(0, 180), 1), (k, k))
        img = cv2.filter2D(img, -1, ker / max(ker.sum(), 1e-6))
    if rng.random() < 0.4:
        img = np.clip(img + rng.normal(0, rng.uniform(1, 8), img.shape), 0, 255).astype(np.uint8)
    if rng.random() < 0.4:
        ok, data = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(30, 95))])
        img = cv2.imdecode(data, cv2.IMREAD_COLOR)
    inside = (pts[:, 0] >= 0) & (pts[:, 1] >= 0) & (pts[:, 0] < CROP) & (pts[:, 1] < CROP)
    return img, pts[inside].astype(np.float32), s.faces[inside], sizes[inside].astype(np.float32)


def targets(pts: np.ndarray, faces: np.ndarray, sizes: np.ndarray, size_known: bool) -> tuple[np.ndarray, ...]:
    """Heatmap (gaussian per die, 1 at the centre cell), face class per cell (-1 = none), log size + its mask."""
    n = CROP // STRIDE
    heat = np.zeros((n, n), np.float32)
    cls = np.full((n, n), -1, np.int64)
    size = np.zeros((n, n), np.float32)
    smask = np.zeros((n, n), np.float32)
    ys, xs = np.mgrid[0:n, 0:n].astype(np.float32)
    order = np.argsort(-sizes)  # small dice last: their labels win where blobs overlap
    for i in order:
        cx, cy = (pts[i] + 0.5) / STRIDE - 0.5
        cell = sizes[i] / STRIDE
        sigma = max(0.7, 0.16 * cell)
        g = np.exp(-((xs - cx) ** 2 + (ys - cy) ** 2) / (2 * sigma**2))
        heat = np.maximum(heat, g)
        ix, iy = int(round(cx)), int(round(cy))
        ix, iy = min(max(ix, 0), n - 1), min(max(iy, 0), n - 1)
        heat[iy, ix] = 1.0
        near = (xs - cx) ** 2 + (ys - cy) ** 2 <= max(1.0, 0.22 * cell) ** 2
        near[iy, ix] = True
        cls[near] = faces[i] - 1
        if size_known:
            size[near] = math.log(max(sizes[i], 2.0) / 32.0)
            smask[near] = 1.0
    return heat, cls, size, smask


class TrainSet(torch.utils.data.IterableDataset):
    def __init__(self, samples: list[Sample], weights: np.ndarray, seed: int) -> None:
        self.samples, self.weights, self.seed = samples, weights / weights.sum(), seed

    def __iter__(self):
        info = torch.utils.data.get_worker_info()
        rng = np.random.default_rng(self.seed + (info.id if info else 0) * 7919)
        while True:
            s = self.samples[rng.choice(len(self.samples), p=self.weights)]
            img, pts, faces, sizes = augment(s, rng)
            heat, cls, size, smask = targets(pts, faces, sizes, s.size_known)
            x = img.astype(np.float32).transpose(2, 0, 1) * INPUT_SCALE
            yield x, heat, cls, size, smask


def focal(pred: torch.Tensor, gt: torch.Tensor) -> torch.Tensor:
    """CenterNet's penalty-reduced focal loss on the centre heatmap."""
    p = pred.clamp(1e-4, 1 - 1e-4)
    pos = gt.eq(1).float()
    neg = 1 - pos
    pl = torch.log(p) * (1 - p) ** 2 * pos
    nl = torch.log(1 - p) * p**2 * (1 - gt) ** 4 * neg
    return -(pl.sum() + nl.sum()) / pos.sum().clamp(min=1)


def export(net: DiceNet, out: Path) -> None:
    out.parent.mkdir(parents=True, exist_ok=True)
    model = Exported(net).eval()  # a fresh wrapper is in training mode, and the exporter restores that mode
    x = torch.zeros(1, 3, 320, 320)
    torch.onnx.export(
        model, x, str(out), input_names=["image"], output_names=["maps"], opset_version=17, dynamo=False,
        dynamic_axes={"image": {2: "h", 3: "w"}, "maps": {2: "h4", 3: "w4"}},
    )
    # The runtime must give what torch gives.
    probe = torch.rand(1, 3, 240, 320) * 255 * INPUT_SCALE
    model.eval()
    with torch.no_grad():
        errs = disagreement(out, probe.numpy(), model(probe).numpy())
    print(f"exported {out} ({out.stat().st_size / 1024:.0f} KiB), runtime vs torch max abs diff {errs}")
    if max(errs.values()) > 1e-3:
        raise SystemExit("the runtime disagrees with torch: the exported model is not usable")


# ------------------------------------------------------------------------------------------------------------
# The face net (second stage): one die crop -> not a die / face 1-6


class FaceNet(nn.Module):
    """Plain small CNN on a FACE_INPUT crop; the die is centred and scaled, so it only has to count pips.

    ``width`` multiplies every layer's channels (``--face-width``; 1.0 is the first shipped net's)."""

    def __init__(self, width: float = 1.0) -> None:
        super().__init__()
        a, b, c, d = (max(8, int(round(n * width))) for n in (16, 32, 64, 96))
        self.features = nn.Sequential(
            cbr(3, a), cbr(a, b, 3, 2), cbr(b, b), cbr(b, c, 3, 2), cbr(c, c), cbr(c, d, 3, 2), cbr(d, d),
            nn.AdaptiveAvgPool2d(1), nn.Flatten(),
        )
        self.fc = nn.Linear(d, 7)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.fc(self.features(x))


def die_crop(s: Sample, x: float, y: float, size: float, rng: np.random.Generator) -> np.ndarray:
    """A training crop around (x, y): rotated, mirrored, sheared, recoloured, maybe shrunk, then ``face_crop``."""
    side = int(math.ceil(size * CROP_SPAN * 1.6)) + 4
    m = cv2.getRotationMatrix2D((x, y), rng.uniform(0, 360), 1.0)
    if rng.random() < 0.5:
        m[0, :2] *= -1
    if rng.random() < 0.4:  # a tilted camera squeezes the face along one direction
        sq = np.array([[1.0, 0.0], [0.0, rng.uniform(0.75, 1.0)]]) @ m[:, :2]
        m[:, :2] = sq
    m[:, 2] += np.array([side / 2, side / 2]) - m[:, :2] @ np.array([x, y]) - m[:, 2]
    patch = cv2.warpAffine(s.img, m, (side, side), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    patch = _colour(patch, rng)
    if rng.random() < 0.3:
        patch = cv2.GaussianBlur(patch, (0, 0), rng.uniform(0.3, 0.04 * size + 0.4))
    if rng.random() < 0.3:
        ok, data = cv2.imencode(".jpg", patch, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(30, 95))])
        patch = cv2.imdecode(data, cv2.IMREAD_COLOR)
    crop = face_crop(patch, side / 2, side / 2, size, FACE_SIDE[0])
    if rng.random() < 0.3:  # a die only 10-24 px across in the photo
        k = int(rng.integers(8, 18))
        crop = cv2.resize(cv2.resize(crop, (k, k), interpolation=cv2.INTER_AREA), (FACE_SIDE[0], FACE_SIDE[0]))
    if rng.random() < 0.3:
        crop = np.clip(crop + rng.normal(0, rng.uniform(1, 8), crop.shape), 0, 255).astype(np.uint8)
    return crop


def face_example(s: Sample, rng: np.random.Generator) -> tuple[np.ndarray, int]:
    """A die (label = face) most of the time; otherwise a place near or between dice (label 0)."""
    i = int(rng.integers(len(s.centers)))
    size = float(s.sizes[i])
    if rng.random() < 0.72:
        jitter = rng.normal(0, 0.06 * size, 2)
        scale = math.exp(rng.uniform(math.log(0.78), math.log(1.3)))
        x, y = s.centers[i] + jitter
        return die_crop(s, float(x), float(y), size * scale, rng), int(s.faces[i])
    h, w = s.img.shape[:2]
    if s.hard is not None and len(s.hard) and rng.random() < 0.5:
        x, y = s.hard[rng.integers(len(s.hard))] + rng.normal(0, 0.05 * size, 2)
        scale = math.exp(rng.uniform(math.log(0.7), math.log(1.4)))
        return die_crop(s, float(x), float(y), size * scale, rng), 0
    for _ in range(20):
        if rng.random() < 0.6:  # beside a die: its sides, the gap to the next die
            ang, dist = rng.uniform(0, 2 * math.pi), rng.uniform(0.5, 1.0) * size
            x, y = s.centers[i] + dist * np.array([math.cos(ang), math.sin(ang)])
        else:  # anywhere on the table
            x, y = rng.uniform(0, w), rng.uniform(0, h)
        d = np.hypot(s.centers[:, 0] - x, s.centers[:, 1] - y)
        if (d >= 0.45 * s.sizes).all():
            scale = math.exp(rng.uniform(math.log(0.7), math.log(1.4)))
            return die_crop(s, float(x), float(y), size * scale, rng), 0
    return die_crop(s, float(s.centers[i][0]), float(s.centers[i][1]), size, rng), int(s.faces[i])


class FaceSet(torch.utils.data.IterableDataset):
    def __init__(self, samples: list[Sample], weights: np.ndarray, seed: int) -> None:
        self.samples, self.weights, self.seed = samples, weights / weights.sum(), seed

    def __iter__(self):
        info = torch.utils.data.get_worker_info()
        rng = np.random.default_rng(self.seed + 101 + (info.id if info else 0) * 7919)
        while True:
            s = self.samples[rng.choice(len(self.samples), p=self.weights)]
            crop, label = face_example(s, rng)
            yield crop.astype(np.float32).transpose(2, 0, 1) * INPUT_SCALE, label


def export_faces(net: FaceNet, out: Path) -> None:
    out.parent.mkdir(parents=True, exist_ok=True)
    net.eval()
    x = torch.zeros(4, 3, FACE_SIDE[0], FACE_SIDE[0])
    torch.onnx.export(net, x, str(out), input_names=["crops"], output_names=["logits"], opset_version=17,
                      dynamo=False, dynamic_axes={"crops": {0: "n"}, "logits": {0: "n"}})
    net.eval()
    probe = torch.rand(7, 3, FACE_SIDE[0], FACE_SIDE[0])
    with torch.no_grad():
        errs = disagreement(out, probe.numpy(), net(probe).numpy())
    print(f"exported {out} ({out.stat().st_size / 1024:.0f} KiB), runtime vs torch max abs diff {errs}")
    if max(errs.values()) > 1e-3:
        raise SystemExit("the runtime disagrees with torch: the exported face model is not usable")


def mine_hard_negatives(samples: list[Sample], detector: Path) -> int:
    """Where a trained detector fires away from every labelled die (screw holes, specks, tray corners): the face
    net must learn to say "not a die" there, and random table crops rarely show such places."""
    from vision.net import DiceNet as Runtime
    from vision.net import decode

    model = Runtime(detector, face_path=Path("/nonexistent"))
    total = 0
    for s in samples:
        maps, factor = model.maps(s.img)
        found = [(c.x, c.y) for c in decode(maps, factor, 0.1)]
        hard = [p for p in found if (np.hypot(s.centers[:, 0] - p[0], s.centers[:, 1] - p[1]) >= 0.5 * s.sizes).all()]
        s.hard = np.array(hard, np.float32).reshape(-1, 2)
        total += len(hard)
    return total


def fit(net: nn.Module, dataset: torch.utils.data.Dataset, batch_size: int, args: argparse.Namespace, warmup: int,
        step: Callable[[nn.Module, tuple], tuple[torch.Tensor, np.ndarray]],
        log: Callable[[int, np.ndarray], None]) -> None:
    """The loop both nets train with: ``--init`` weights, AdamW, a linear warm-up over ``warmup`` steps then a cosine
    schedule that always completes (progress by iterations or by wall time, whichever is further).

    ``step(net, batch)`` gives the loss and the figures to log; ``log(it, running_means)`` prints every 100 steps.
    """
    loader = torch.utils.data.DataLoader(dataset, batch_size=batch_size, num_workers=args.workers,
                                         persistent_workers=args.workers > 0)
    if args.init:
        net.load_state_dict(torch.load(args.init))
    opt = torch.optim.AdamW(net.parameters(), lr=args.lr, weight_decay=1e-4)
    net.train()
    start = time.time()
    run = None
    for it, batch in enumerate(loader):
        progress = max(it / args.iters, (time.time() - start) / (60 * args.minutes))
        if progress >= 1.0:
            break
        for g in opt.param_groups:
            g["lr"] = args.lr * min(1.0, it / warmup) * 0.5 * (1 + math.cos(math.pi * progress))
        loss, figures = step(net, batch)
        opt.zero_grad()
        loss.backward()
        opt.step()
        run = 0.02 * figures if run is None else 0.98 * run + 0.02 * figures
        if it % 100 == 0:
            log(it, run)


def train_faces(samples: list[Sample], weights: np.ndarray, args: argparse.Namespace) -> None:
    if args.hard_negatives:
        print(f"{mine_hard_negatives(samples, args.hard_negatives)} hard negatives from {args.hard_negatives}",
              flush=True)

    def step(net: nn.Module, batch: tuple) -> tuple[torch.Tensor, np.ndarray]:
        x, y = batch
        o = net(x)
        loss = F.cross_entropy(o, y, label_smoothing=0.05)
        return loss, np.array([loss.item(), (o.argmax(1) == y).float().mean().item()])

    start = time.time()
    net = FaceNet(args.face_width)
    fit(net, FaceSet(samples, weights, args.seed), args.face_batch, args, 100, step,
        lambda it, run: print(f"it {it:5d}  loss {run[0]:.3f}  acc {run[1]:.3f}  {time.time() - start:.0f} s",
                              flush=True))
    if args.checkpoint:
        torch.save(net.state_dict(), args.checkpoint)
    export_faces(net, args.face_out)


def train_detector(samples: list[Sample], weights: np.ndarray, args: argparse.Namespace, t0: float) -> None:
    def step(net: nn.Module, batch: tuple) -> tuple[torch.Tensor, np.ndarray]:
        x, heat, cls, size, smask = batch
        o = net(x)
        lh = focal(torch.sigmoid(o[:, 0]), heat)
        lc = F.cross_entropy(o[:, 1:7], cls, ignore_index=-1) if (cls >= 0).any() else o.sum() * 0
        ls = (F.l1_loss(o[:, 7], size, reduction="none") * smask).sum() / smask.sum().clamp(min=1)
        # The face net reads the faces; the detector's own face channels only back it up when that file is missing.
        return lh + 0.3 * lc + ls, np.array([lh.item(), lc.item(), ls.item()])

    net = DiceNet()
    fit(net, TrainSet(samples, weights, args.seed), args.batch, args, 200, step,
        lambda it, run: print(f"it {it:5d}  heat {run[0]:.3f}  face {run[1]:.3f}  size {run[2]:.3f}  "
                              f"{time.time() - t0:.0f} s", flush=True))
    if args.checkpoint:
        torch.save(net.state_dict(), args.checkpoint)
    export(net, args.out)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--datasets", type=Path, default=default_datasets())
    ap.add_argument("--iters", type=int, default=6000)
    ap.add_argument("--minutes", type=float, default=30.0, help="wall-time budget: training stops (and the learning"
                    " rate schedule ends) at --iters or after this long, whichever comes first")
    ap.add_argument("--batch", type=int, default=16)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--synthetic", type=int, default=400, help="rendered trays added to the photos")
    ap.add_argument("--threads", type=int, default=1, help="torch threads; more than 1 only on an idle machine")
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", type=Path, default=MODEL_PATH)
    ap.add_argument("--face-out", type=Path, default=FACE_MODEL_PATH)
    ap.add_argument("--face-batch", type=int, default=128)
    ap.add_argument("--face-input", type=int, default=FACE_INPUT, help="face net crop side (pixels); the net is "
                    "size-agnostic (global pooling), so --init from a net trained at another side works")
    ap.add_argument("--face-width", type=float, default=1.0, help="face net channel multiplier (1.0: 16-96 "
                    "channels); the runtime reads any width")
    ap.add_argument("--marbled", type=float, default=0.0, help="share of the rendered trays whose dice are "
                    "marbled with coloured pips")
    ap.add_argument("--die-weighted", action="store_true", help="draw photos by their number of labelled dice "
                    "(each die alike) instead of each photo alike")
    ap.add_argument("--part", choices=("detector", "faces"), default="detector",
                    help="which of the two nets to train (run the script once for each)")
    ap.add_argument("--checkpoint", type=Path, help="save the torch weights here too (to continue training later)")
    ap.add_argument("--init", type=Path, help="start from these torch weights instead of random ones")
    ap.add_argument("--hard-negatives", type=Path, help="faces: a trained detector .onnx whose false alarms on the "
                    "train photos become 'not a die' examples")
    args = ap.parse_args(argv)
    FACE_SIDE[0] = args.face_input
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    cv2.setNumThreads(1)
    t0 = time.time()
    photos = load_photos(args.datasets)
    if not photos:
        raise SystemExit(f"no labelled photos under {args.datasets}")
    synth = render_synthetic(args.synthetic, args.seed, args.marbled) if args.synthetic else []
    samples = photos + synth
    # Photos weigh twice the renders overall, whatever their counts; within the photos, each photo alike or
    # (--die-weighted) each labelled die alike: the face net learns dice, and a photo of a crowded tray (byler's
    # seven dice) then counts as much as its dice, not as one of matteo's three.
    counts = np.array([len(s.centers) if args.die_weighted else 1 for s in photos], np.float64)
    weights = np.concatenate([counts / counts.sum(), np.full(len(synth), 0.5 / len(synth)) if synth else []])
    print(f"{len(photos)} train photos, {len(synth)} renders, ready in {time.time() - t0:.0f} s", flush=True)
    if args.part == "faces":
        train_faces(samples, weights, args)
    else:
        train_detector(samples, weights, args, t0)
    print(f"done in {time.time() - t0:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
