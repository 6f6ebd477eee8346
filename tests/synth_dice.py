"""Photo-like symbol, numeral and colour dice of MADE-UP artwork, for the taught-dice tests and benchmark.

No licensed photos of the games' dice exist, and their artwork changes between print runs anyway, so the evidence
for the taught reader is rendered: invented glyphs, numerals in OpenCV's Hershey fonts, colour patches. What must
be realistic is the *photo*, not the artwork: rotation, perspective, uneven light and colour casts, glare, sensor
noise, blur and JPEG, because that is what the reader has to survive.

Two levels:
- ``painter_for(set_name)`` (the artwork is in the package, ``hardware.game_dice``) returns
  ``painter(face, size, rng) -> BGR`` top-face images, the interface of ``hardware.synthetic.render_tray(...,
  painter=...)``, which renders whole trays.
- ``photo_crop(face_img, rng)`` turns one face into what ``vision.detect.crop_die`` hands the reader: an upright
  square crop of a photographed die, with the residual errors of a die finder (a quarter-turn in any direction, a
  few degrees of tilt, an off-centre box, a little background in the corners). Unit tests and the benchmark use it
  to measure the matcher on its own.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

import cv2
import numpy as np

# the made-up artwork lives in the package (the built-in tray throws these dice too); re-exported for the tests
from hardware.game_dice import (  # noqa: F401
    BODY_IVORY,
    COLOURS,
    EXTRA_SYMBOLS,
    MARK_RED,
    SYMBOLS,
    Painter,
    paint_face,
    painter_for,
)

if TYPE_CHECKING:
    from vision.taught import Profile

#: faces per set that the tests teach, and faces that look similar but are never taught
TAUGHT_FACES: dict[str, tuple[str, ...]] = {
    "echt-spitze": ("1", "2", "3", "4", "5", "?", "1+X", "2+X", "3+X", "5+X"),
    "noch-x-mal": ("red", "orange", "yellow", "green", "blue", "color-joker", "1", "2", "3", "4", "5",
                   "number-joker"),
    "haste-worte": SYMBOLS,
    "fritzo": ("red", "orange", "yellow", "green", "blue", "white"),
}
UNTAUGHT_FACES: dict[str, tuple[str, ...]] = {
    "echt-spitze": ("4+X", "?+X", "6", "7", "8"),
    "noch-x-mal": ("purple", "6", "0", "cyan"),
    "haste-worte": EXTRA_SYMBOLS,
    "fritzo": ("purple", "black", "cyan"),
}


# --- one photographed, found and cropped die ------------------------------------------------------------------------


def _rounded_mask(size: int, radius: int) -> np.ndarray:
    m = np.zeros((size, size), np.uint8)
    r = radius
    cv2.rectangle(m, (r, 0), (size - 1 - r, size - 1), 255, -1)
    cv2.rectangle(m, (0, r), (size - 1, size - 1 - r), 255, -1)
    for cx, cy in ((r, r), (size - 1 - r, r), (r, size - 1 - r), (size - 1 - r, size - 1 - r)):
        cv2.circle(m, (cx, cy), r, 255, -1, cv2.LINE_AA)
    return m


def photo_crop(face_img: np.ndarray, rng: np.random.Generator, size: int = 80, hard: bool = True,
               margin: float = 1.3) -> np.ndarray:
    """What a die finder's upright crop of this face looks like after a real photo: see the module docstring.

    ``hard`` turns on the rough half of the conditions (strong light gradients and colour casts, glare, blur,
    low JPEG quality), which the benchmark uses; the face artwork is never changed.
    """
    big = 4 * size
    face = cv2.resize(face_img, (big, big), interpolation=cv2.INTER_AREA)
    # the die's rounded corners and a darker rim where the top face meets the sides
    pad = big // 2
    canvas = np.empty((big + 2 * pad, big + 2 * pad, 3), np.uint8)
    tray = rng.uniform(30, 200, 3)
    canvas[:] = tray.astype(np.uint8)
    noise_tex = rng.normal(0, 6, canvas.shape[:2]).astype(np.float32)
    canvas = np.clip(canvas.astype(np.float32) + cv2.GaussianBlur(noise_tex, (0, 0), 3)[..., None], 0, 255)
    mask = _rounded_mask(big, big // 9).astype(np.float32) / 255
    rim = cv2.GaussianBlur(mask, (0, 0), big / 40)
    die = face.astype(np.float32) * (0.75 + 0.25 * rim[..., None])
    region = canvas[pad:pad + big, pad:pad + big]
    canvas[pad:pad + big, pad:pad + big] = region * (1 - mask[..., None]) + die * mask[..., None]

    # rotation (quarter turns are the finder's ambiguity, the rest its tilt error), perspective, offset
    quarter = int(rng.integers(4))
    tilt = rng.uniform(-9, 9) if hard else rng.uniform(-5, 5)
    centre = np.array([canvas.shape[1] / 2, canvas.shape[0] / 2])
    rot = cv2.getRotationMatrix2D(tuple(centre), 90 * quarter + tilt, 1.0)
    rot3 = np.vstack([rot, [0, 0, 1]])
    persp = np.eye(3)
    persp[2, 0], persp[2, 1] = rng.normal(0, 3.5e-4 if hard else 1.7e-4, 2)
    # about the die's centre: a keystone of a few percent, as a camera looking slightly askew sees it (about the
    # canvas corner, as it was before, it also scaled and moved the die by ~10 %, cutting it off the crop)
    to_c, from_c = np.eye(3), np.eye(3)
    to_c[:2, 2], from_c[:2, 2] = -centre, centre
    persp = from_c @ persp @ to_c
    shift = rng.uniform(-0.06, 0.06, 2) * big
    scale = rng.uniform(0.94, 1.06)
    # map the (approximately found) face square to the output crop
    half = big / 2 * scale
    src = np.float32([centre + shift + [-half, -half], centre + shift + [half, -half],
                      centre + shift + [half, half], centre + shift + [-half, half]])
    m = size * (1 - 1 / margin) / 2  # the finder's crop shows the table around the die (vision.taught.MARGIN)
    dst = np.float32([[m, m], [size - m, m], [size - m, size - m], [m, size - m]])
    to_crop = cv2.getPerspectiveTransform(src, dst) @ np.linalg.inv(rot3 @ persp)
    img = cv2.warpPerspective(canvas, to_crop, (size, size), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REFLECT)

    # light: brightness, a gradient across the die, a colour cast of the lamp, glare
    yy, xx = np.mgrid[0:size, 0:size].astype(np.float32) / size
    ang = rng.uniform(0, 2 * np.pi)
    grad_strength = rng.uniform(0.1, 0.45) if hard else rng.uniform(0.0, 0.2)
    gain = rng.uniform(0.55, 1.25) if hard else rng.uniform(0.8, 1.1)
    light = gain * (1 + grad_strength * ((xx - .5) * np.cos(ang) + (yy - .5) * np.sin(ang)))
    cast = 1 + rng.uniform(-0.12, 0.12, 3) if hard else 1 + rng.uniform(-0.05, 0.05, 3)
    img = img * light[..., None] * cast[None, None, :]
    if hard and rng.random() < 0.5:
        gx, gy = rng.uniform(0.15, 0.85, 2)
        r = rng.uniform(0.06, 0.16)
        glare = np.exp(-(((xx - gx) ** 2 + (yy - gy) ** 2) / (2 * r * r)))
        img = img + rng.uniform(50, 130) * glare[..., None]
    # optics and sensor
    sigma = rng.uniform(0.3, 1.3) if hard else rng.uniform(0.2, 0.7)
    img = cv2.GaussianBlur(img.astype(np.float32), (0, 0), sigma)
    img = img + rng.normal(0, rng.uniform(2, 7) if hard else 2.5, img.shape)
    img = np.clip(img, 0, 255).astype(np.uint8)
    quality = int(rng.integers(35, 85)) if hard else int(rng.integers(70, 95))
    ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, quality])
    assert ok
    return cv2.imdecode(buf, cv2.IMREAD_COLOR)


def crops(set_name: str, face: str, n: int, rng: np.random.Generator, size: int = 80, hard: bool = True
          ) -> list[np.ndarray]:
    art = paint_face(set_name, face, 128, rng)
    return [photo_crop(art, rng, size, hard) for _ in range(n)]


def taught_profile(set_name: str, seed: int, per_face: int = 2) -> Profile:
    """A profile of ``set_name`` taught ``per_face`` easy photos of every face the tests teach (TAUGHT_FACES)."""
    from vision.taught import Profile  # noqa: F811 - at run time; the module stays importable without vision

    rng = np.random.default_rng(seed)
    p = Profile(set_name)
    for face in TAUGHT_FACES[set_name]:
        for c in crops(set_name, face, per_face, rng, hard=False):
            p.add(face, c)
    return p


def laptop_key() -> np.ndarray:
    """A laptop's key as the finder crops it: a dark grey cap with a light letter, on a light desk (what the finder
    took for dice on matteo-d6's webcam photos)."""
    crop = np.full((80, 80, 3), (170, 200, 215), np.uint8)
    cv2.rectangle(crop, (12, 12), (68, 68), (28, 26, 24), -1)
    cv2.putText(crop, "G", (28, 52), cv2.FONT_HERSHEY_SIMPLEX, 0.9, (230, 230, 230), 2)
    return crop


# --- whole trays, through the project's renderer and die finder ----------------------------------------------------


_NUMBER_DIE = ("1", "2", "3", "4", "5", "number-joker", "6", "0")  # Noch X-Mal!'s number dice (and untaught ones)


def side_faces_for(set_name: str, rng: np.random.Generator):
    """What the sides of a die of this set show: other faces of the same kind of die (a colour die's other colours,
    a number die's other numbers), drawn with ``rng``."""
    def sides(face: object) -> list[str]:
        kind = TAUGHT_FACES[set_name]
        if set_name == "noch-x-mal":
            kind = tuple(f for f in kind if (f in _NUMBER_DIE) == (face in _NUMBER_DIE))
        others = [f for f in kind if f != face]
        return [others[int(i)] for i in rng.choice(len(others), 4, replace=len(others) < 4)]

    return sides


@cache
def _plain(set_name: str) -> bool:
    """Whether the set's dice are plain colour cubes, which the taught reader finds as such (``find_any_dice``)."""
    from companion.dicesets import load

    return load(set_name).plain_cubes


def found_dice(set_name: str, faces: list[str], rng: np.random.Generator, size: tuple[int, int] = (640, 480),
               tilt: float | None = None, marked_sides: bool = False
               ) -> tuple[np.ndarray, list[tuple[str, object, tuple[int, int, int, int]]]]:
    """Render a tray of ``faces`` with ``hardware.synthetic.render_tray`` and find its dice with the taught reader's
    finder (``find_any_dice``). ``marked_sides``: the dice's sides show other faces of theirs (``side_faces_for``),
    as real dice do; else they are plain.

    Returns the frame and, per truth die, (face, candidate or None when the finder missed it, truth box). A
    candidate belongs to the die whose box holds its centre; the finder's misses are the finder's business and are
    counted apart by the benchmark.
    """
    from hardware.synthetic import found_by, render_tray
    from vision.detect import find_any_dice

    frame, truth = render_tray(rng, faces=faces, painter=painter_for(set_name), size=size, tilt=tilt,
                               side_faces=side_faces_for(set_name, rng) if marked_sides else None)
    cands = find_any_dice(frame, plain=_plain(set_name))
    return frame, [(die.face, found_by(die, truth, cands), die.box) for die in truth]


def tray_readings(set_name: str, faces: list[str], rng: np.random.Generator, size: tuple[int, int] = (640, 480),
                  tilt: float | None = None, marked_sides: bool = False, profile=None
                  ) -> tuple[np.ndarray, list[tuple[str, object]], int]:
    """Render a tray as ``found_dice`` does and find its dice as the taught reader does (``find_any_dice``, then
    ``face_outline.distinct_dice``), each die judged by the top face the reader found, not by where the finder's box is.

    Returns the frame, per truth die (face, its ``FoundDie`` or None when no reading's top face lies on the die's
    top face) and how many readings are of no die or of a die already read (what the screen would show too many).
    Why not ``found_dice``'s rule (the candidate nearest the die's box): seen from the side, a die's box holds its
    sides too, and the candidate nearest its centre is often one on a side while another reads its top face.
    With a taught ``profile`` the readings that are a die's side or no die of the set are left out as
    ``companion.teach.read_taught`` leaves them (``taught.dice_of_the_set``).
    """
    from hardware.synthetic import die_under, render_tray
    from vision.detect import find_any_dice
    from vision.face_marks import table_light
    from vision.face_outline import distinct_dice
    from vision.taught import dice_of_the_set, match

    frame, truth = render_tray(rng, faces=faces, painter=painter_for(set_name), size=size, tilt=tilt,
                               side_faces=side_faces_for(set_name, rng) if marked_sides else None)
    read: dict[int, object] = {}
    extra = 0
    dice = distinct_dice(frame, find_any_dice(frame, plain=_plain(set_name)))
    if profile is not None:
        light = table_light(frame)
        dice = [dice[i] for i in dice_of_the_set(profile, dice, [match(profile, f.crop, light) for f in dice], light)]
    for found in dice:
        die = die_under(found.top_centre, truth)
        if die is None or die in read:
            extra += 1
        else:
            read[die] = found
    return frame, [(d.face, read.get(i)) for i, d in enumerate(truth)], extra


def write_examples(folder: Path, set_name: str, faces: list[str], seed: int, labels: list[str] | None = None,
                   name: str = "ex{:02d}.jpg") -> None:
    """A folder for ``companion teach --examples``: one photo of one die per face in ``faces``, and its labels.csv
    from the renderer's truth (boxes normalised 0..1), each die labelled as ``labels`` says (default its face)."""
    from hardware.synthetic import render_tray

    folder.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(seed)
    rows = ["image,face,x_min,y_min,x_max,y_max"]
    for i, (face, label) in enumerate(zip(faces, labels or faces, strict=True)):
        frame, truth = render_tray(rng, faces=[face], painter=painter_for(set_name))
        cv2.imwrite(str(folder / name.format(i)), frame)
        h, w = frame.shape[:2]
        x0, y0, x1, y1 = truth[0].box
        rows.append(f"{name.format(i)},{label},{x0 / w:.4f},{y0 / h:.4f},{x1 / w:.4f},{y1 / h:.4f}")
    (folder / "labels.csv").write_text("\n".join(rows) + "\n")


def write_dataset(folder: Path, set_name: str, faces: list[str], seed: int) -> None:
    """A folder laid out as ../shared/datasets' are (``images/`` and a labels.csv beside it): one photo of one die per
    face in ``faces``, named ex00.jpg, ex01.jpg, ... (``write_examples``)."""
    write_examples(folder / "images", set_name, faces, seed)
    (folder / "images" / "labels.csv").replace(folder / "labels.csv")


def show_still(view, frame: np.ndarray) -> None:
    """Show a teaching screen (``TeachView``) a tray lying still: two frames alike. It takes no die from a tray in
    motion, and one frame alone says nothing of motion."""
    view.on_frame(frame)
    view.on_frame(frame.copy())


def with_hand(img: np.ndarray) -> np.ndarray:
    """A still hand and forearm reaching in from the bottom edge over part of the tray."""
    out = img.copy()
    h, w = out.shape[:2]
    arm = np.array([[w // 3, h], [w // 2, h // 2], [w // 2 + 90, h // 2 - 20], [w // 2 + 60, h]], np.int32)
    cv2.fillPoly(out, [arm], (120, 150, 205))
    cv2.ellipse(out, (w // 2 + 40, h // 2 - 30), (70, 50), 20, 0, 360, (110, 140, 200), -1)
    return out
