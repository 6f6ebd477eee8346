"""Made-up artwork of the four games' dice: numerals, invented pictograms and colour faces.

The built-in synthetic tray throws these when a game's dice are taught or read without a camera (a laptop
demo), and the taught-dice tests and benchmark render their evidence from them. No licensed pictures of the games'
dice are used: the artwork is invented, and only its being distinct and stable matters. A face the artwork does not
know (a dice set edited by its owner) is painted as its name, never an error.
"""

from __future__ import annotations

import cv2
import numpy as np

from hardware.synthetic import DICE_STYLES, Painter, paint_pips

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
        _numeral(img, name[:3], ink, 0.6)


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
    if set_name == "d6" and face.isdigit():
        return emblem_d6(int(face), size, rng if rng is not None else np.random.default_rng(0))
    if set_name in ("fritzo", "d6-colour"):
        colour = COLOURS.get(face, BODY_WHITE)
        img = _blank(size, colour)
        darker = tuple(int(c * 0.82) for c in colour)
        b = max(2, size // 16)
        cv2.rectangle(img, (b, b), (size - b, size - b), darker, max(1, size // 40))
        return img
    img = _blank(size, BODY_WHITE)  # a dice set of the owner's own: its face names as text
    _numeral(img, face[:3], INK_BLACK, 0.6)
    return img


def emblem_d6(face: int, size: int, rng: np.random.Generator) -> np.ndarray:
    """A pip die whose 6 is an emblem (a red star), as some promotional dice have: the ``d6`` set's made-up dice."""
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
