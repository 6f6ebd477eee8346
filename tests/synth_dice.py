"""Photo-like symbol, numeral and colour dice of MADE-UP artwork, for the taught-dice tests and benchmark.

No licensed photos of the games' dice exist, and their artwork changes between print runs anyway, so the evidence
for the taught reader is rendered: invented glyphs, numerals in OpenCV's Hershey fonts, colour patches. What must
be realistic is the *photo*, not the artwork: rotation, perspective, uneven light and colour casts, glare, sensor
noise, blur and JPEG, because that is what the reader has to survive.

Two levels:
- ``painter_for(set_name)`` returns ``painter(face, size, rng) -> BGR`` top-face images, the interface of
  ``hardware.synthetic.render_tray(..., painter=...)``, which renders whole trays.
- ``photo_crop(face_img, rng)`` turns one face into what ``vision.detect.crop_die`` hands the reader: an upright
  square crop of a photographed die, with the residual errors of a die finder (a quarter-turn in any direction, a
  few degrees of tilt, an off-centre box, a little background in the corners). Unit tests and the benchmark use it
  to measure the matcher on its own.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import cv2
import numpy as np

if TYPE_CHECKING:
    from vision.taught import Profile

Painter = Callable[[object, int, np.random.Generator], np.ndarray]

# --- made-up artwork -----------------------------------------------------------------------------------------------

#: BGR colours of the colour faces (what a player would call them)
COLOURS: dict[str, tuple[int, int, int]] = {
    "red": (40, 40, 210),
    "orange": (20, 130, 245),
    "yellow": (30, 215, 245),
    "green": (60, 160, 40),
    "blue": (200, 90, 30),
    "white": (240, 240, 240),
    # colours no set teaches: the reader must answer "unknown" for them
    "purple": (150, 40, 130),
    "pink": (180, 120, 250),
    "black": (35, 35, 35),
    "brown": (30, 70, 120),
    "cyan": (210, 200, 40),
}

SYMBOLS = ("dishes", "fruit", "car", "water", "toys", "clothing", "animals", "sweets", "cities", "countries",
           "sports")
#: symbols of an imaginary other edition: never taught in the tests, must come back unknown
EXTRA_SYMBOLS = ("moon", "key", "tree", "heart", "bell")

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

BODY_IVORY = (222, 236, 242)
BODY_WHITE = (238, 238, 236)
INK_NAVY = (90, 40, 20)
INK_BLACK = (30, 30, 30)
INK_GREEN = (50, 80, 20)
MARK_RED = (40, 30, 200)


def _blank(size: int, body: tuple[int, int, int]) -> np.ndarray:
    img = np.empty((size, size, 3), np.uint8)
    img[:] = body
    return img


def _numeral(img: np.ndarray, text: str, ink: tuple[int, int, int], scale: float = 1.0,
             centre: tuple[float, float] = (0.5, 0.5)) -> None:
    size = img.shape[0]
    font = cv2.FONT_HERSHEY_DUPLEX
    thick = max(2, int(size * 0.07 * scale))
    fs = size / 48 * scale
    (w, h), _ = cv2.getTextSize(text, font, fs, thick)
    x = int(size * centre[0] - w / 2)
    y = int(size * centre[1] + h / 2)
    cv2.putText(img, text, (x, y), font, fs, ink, thick, cv2.LINE_AA)


def _cross_mark(img: np.ndarray, colour: tuple[int, int, int]) -> None:
    """The extra-cross mark of the echt-spitze artwork: a small red X in the upper right corner."""
    s = img.shape[0]
    c = (int(s * 0.77), int(s * 0.24))
    r = int(s * 0.08)
    t = max(2, s // 28)
    cv2.line(img, (c[0] - r, c[1] - r), (c[0] + r, c[1] + r), colour, t, cv2.LINE_AA)
    cv2.line(img, (c[0] - r, c[1] + r), (c[0] + r, c[1] - r), colour, t, cv2.LINE_AA)


def _pts(s: int, pts: list[tuple[float, float]]) -> np.ndarray:
    return np.array([[int(x * s), int(y * s)] for x, y in pts], np.int32)


def _symbol(img: np.ndarray, name: str, ink: tuple[int, int, int]) -> None:
    """Invented pictograms, one per symbol id; only their being distinct and stable matters."""
    s = img.shape[0]
    t = max(2, s // 20)
    aa = cv2.LINE_AA

    def P(x: float, y: float) -> tuple[int, int]:  # noqa: N802 - short on purpose, used in drawing only
        return int(x * s), int(y * s)

    def R(r: float) -> int:  # noqa: N802
        return int(r * s)

    if name == "dishes":  # plate with a rim
        cv2.circle(img, P(.5, .5), R(.3), ink, t, aa)
        cv2.circle(img, P(.5, .5), R(.17), ink, -1, aa)
    elif name == "fruit":  # apple with a leaf
        cv2.circle(img, P(.5, .56), R(.24), ink, -1, aa)
        cv2.ellipse(img, P(.62, .24), (R(.1), R(.05)), -30, 0, 360, ink, -1, aa)
    elif name == "car":
        cv2.rectangle(img, P(.2, .45), P(.8, .62), ink, -1, aa)
        cv2.fillPoly(img, [_pts(s, [(.32, .45), (.4, .32), (.62, .32), (.7, .45)])], ink, aa)
        cv2.circle(img, P(.33, .66), R(.07), ink, -1, aa)
        cv2.circle(img, P(.67, .66), R(.07), ink, -1, aa)
    elif name == "water":  # three waves
        for k, y in enumerate((.35, .5, .65)):
            xs = np.linspace(.2, .8, 30)
            ys = y + 0.05 * np.sin((xs - .2) * 3 * np.pi + k)
            cv2.polylines(img, [_pts(s, list(zip(xs, ys, strict=True)))], False, ink, t, aa)
    elif name == "toys":  # five-pointed star
        ang = np.linspace(-np.pi / 2, 1.5 * np.pi, 11)[:-1]
        rad = np.where(np.arange(10) % 2 == 0, .32, .13)
        cv2.fillPoly(img, [_pts(s, [(.5 + r * np.cos(a), .52 + r * np.sin(a)) for a, r in zip(ang, rad,
                                                                                                  strict=True)])],
                     ink, aa)
    elif name == "clothing":  # T-shirt
        cv2.fillPoly(img, [_pts(s, [(.3, .25), (.42, .25), (.5, .32), (.58, .25), (.7, .25), (.82, .4), (.72, .47),
                                    (.68, .42), (.68, .78), (.32, .78), (.32, .42), (.28, .47), (.18, .4)])], ink, aa)
    elif name == "animals":  # paw
        cv2.ellipse(img, P(.5, .62), (R(.16), R(.13)), 0, 0, 360, ink, -1, aa)
        for x, y in ((.3, .42), (.42, .3), (.58, .3), (.7, .42)):
            cv2.circle(img, P(x, y), R(.07), ink, -1, aa)
    elif name == "sweets":  # wrapped candy
        cv2.ellipse(img, P(.5, .5), (R(.15), R(.11)), 0, 0, 360, ink, -1, aa)
        cv2.fillPoly(img, [_pts(s, [(.36, .5), (.18, .36), (.18, .64)]), _pts(s, [(.64, .5), (.82, .36), (.82, .64)])],
                     ink, aa)
    elif name == "cities":  # skyline
        for x0, x1, y0 in ((.2, .34, .45), (.36, .5, .25), (.52, .64, .38), (.66, .8, .55)):
            cv2.rectangle(img, P(x0, y0), P(x1, .78), ink, -1, aa)
    elif name == "countries":  # flag on a pole
        cv2.line(img, P(.3, .2), P(.3, .82), ink, t, aa)
        cv2.fillPoly(img, [_pts(s, [(.3, .22), (.75, .32), (.3, .5)])], ink, aa)
    elif name == "sports":  # ball with seams
        cv2.circle(img, P(.5, .5), R(.28), ink, t, aa)
        cv2.line(img, P(.22, .5), P(.78, .5), ink, t, aa)
        cv2.ellipse(img, P(.5, .5), (R(.12), R(.28)), 0, 0, 360, ink, t, aa)
    elif name == "moon":  # crescent
        cv2.circle(img, P(.5, .5), R(.28), ink, -1, aa)
        cv2.circle(img, P(.62, .42), R(.24), BODY_WHITE, -1, aa)
    elif name == "key":
        cv2.circle(img, P(.3, .5), R(.12), ink, t, aa)
        cv2.line(img, P(.42, .5), P(.8, .5), ink, t, aa)
        cv2.line(img, P(.7, .5), P(.7, .62), ink, t, aa)
        cv2.line(img, P(.78, .5), P(.78, .6), ink, t, aa)
    elif name == "tree":
        cv2.fillPoly(img, [_pts(s, [(.5, .18), (.75, .62), (.25, .62)])], ink, aa)
        cv2.rectangle(img, P(.45, .62), P(.55, .8), ink, -1, aa)
    elif name == "heart":
        cv2.circle(img, P(.38, .4), R(.13), ink, -1, aa)
        cv2.circle(img, P(.62, .4), R(.13), ink, -1, aa)
        cv2.fillPoly(img, [_pts(s, [(.26, .46), (.74, .46), (.5, .78)])], ink, aa)
    elif name == "bell":
        cv2.ellipse(img, P(.5, .55), (R(.22), R(.3)), 0, 180, 360, ink, -1, aa)
        cv2.rectangle(img, P(.26, .52), P(.74, .62), ink, -1, aa)
        cv2.circle(img, P(.5, .7), R(.06), ink, -1, aa)
    else:
        raise ValueError(f"no made-up artwork for symbol {name!r}")


def paint_face(set_name: str, face: object, size: int = 128,
               rng: np.random.Generator | None = None) -> np.ndarray:
    """The flat artwork of one top face of a die of ``set_name`` (BGR, ``size`` x ``size``, face fills it)."""
    face = str(face)
    if set_name == "echt-spitze":
        img = _blank(size, BODY_IVORY)
        base, plus, _ = face.partition("+")
        _numeral(img, base, INK_NAVY, 0.95, (0.46, 0.54))
        if plus:
            _cross_mark(img, MARK_RED)
        return img
    if set_name == "noch-x-mal":
        img = _blank(size, BODY_WHITE)
        if face in COLOURS:
            cv2.rectangle(img, (int(size * .2), int(size * .2)), (int(size * .8), int(size * .8)), COLOURS[face], -1,
                          cv2.LINE_AA)
        elif face == "color-joker":
            t = max(3, size // 9)
            cv2.line(img, (int(size * .22), int(size * .22)), (int(size * .78), int(size * .78)), INK_BLACK, t,
                     cv2.LINE_AA)
            cv2.line(img, (int(size * .22), int(size * .78)), (int(size * .78), int(size * .22)), INK_BLACK, t,
                     cv2.LINE_AA)
        elif face == "number-joker":
            _numeral(img, "?", INK_BLACK, 1.0)
        else:
            _numeral(img, face, INK_BLACK, 1.0)
        return img
    if set_name == "haste-worte":
        img = _blank(size, BODY_WHITE)
        _symbol(img, face, INK_GREEN)
        return img
    if set_name == "d6":
        return emblem_d6(int(face), size, rng if rng is not None else np.random.default_rng(0))
    if set_name in ("fritzo", "d6-colour"):
        colour = COLOURS[face]
        img = _blank(size, colour)
        darker = tuple(int(c * 0.82) for c in colour)
        b = max(2, size // 16)
        cv2.rectangle(img, (b, b), (size - b, size - b), darker, max(1, size // 40))
        return img
    raise ValueError(f"no made-up artwork for dice set {set_name!r}")


def emblem_d6(face: int, size: int, rng: np.random.Generator) -> np.ndarray:
    """A pip die whose 6 is an emblem (a red star), as some promotional dice have: the ``d6`` set's made-up dice."""
    from hardware.synthetic import DICE_STYLES, paint_pips

    if face != 6:
        return paint_pips(face, size, rng)
    img = _blank(size, DICE_STYLES["ivory"][0])
    ang = np.linspace(-np.pi / 2, 1.5 * np.pi, 11)[:-1]
    rad = np.where(np.arange(10) % 2 == 0, 0.34, 0.14) * size
    pts = np.stack([size / 2 + rad * np.cos(ang), size / 2 + rad * np.sin(ang)], axis=1).astype(np.int32)
    cv2.fillPoly(img, [pts], (40, 30, 200), cv2.LINE_AA)
    return img


def painter_for(set_name: str) -> Painter:
    """``painter(face, size, rng)`` for ``hardware.synthetic.render_tray``."""

    def painter(face: object, size: int, rng: np.random.Generator) -> np.ndarray:
        return paint_face(set_name, face, size, rng)

    return painter


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
    cands = find_any_dice(frame)
    return frame, [(die.face, found_by(die, truth, cands), die.box) for die in truth]


def tray_readings(set_name: str, faces: list[str], rng: np.random.Generator, size: tuple[int, int] = (640, 480),
                  tilt: float | None = None, marked_sides: bool = False
                  ) -> tuple[np.ndarray, list[tuple[str, object]], int]:
    """Render a tray as ``found_dice`` does and find its dice as the taught reader does (``find_any_dice``, then
    ``taught.distinct_dice``), each die judged by the top face the reader found, not by where the finder's box is.

    Returns the frame, per truth die (face, its ``FoundDie`` or None when no reading's top face lies on the die's
    top face) and how many readings are of no die or of a die already read (what the screen would show too many).
    Why not ``found_dice``'s rule (the candidate nearest the die's box): seen from the side, a die's box holds its
    sides too, and the candidate nearest its centre is often one on a side while another reads its top face.
    """
    from hardware.synthetic import die_under, render_tray
    from vision.detect import find_any_dice
    from vision.taught import distinct_dice

    frame, truth = render_tray(rng, faces=faces, painter=painter_for(set_name), size=size, tilt=tilt,
                               side_faces=side_faces_for(set_name, rng) if marked_sides else None)
    read: dict[int, object] = {}
    extra = 0
    for found in distinct_dice(frame, find_any_dice(frame)):
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


def show_still(view, frame: np.ndarray) -> None:
    """Show a teaching screen (``TeachView``) a tray lying still: two frames alike. It takes no die from a tray in
    motion, and one frame alone says nothing of motion."""
    view.on_frame(frame)
    view.on_frame(frame.copy())
