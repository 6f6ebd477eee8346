"""The synthetic dice tray: photo-like pictures of thrown dice, rendered here instead of shipped as photos.

Why render: the companion must run (and its dice reader must be testable) with no camera attached, and a
renderer gives an endless supply of frames whose truth (each die's face and box) is known exactly. To be
useful for that the frames have to fail a reader in the ways real photos do, so they carry what real photos
carry: a table texture (felt, wood, light board, dark cloth), a tilted pinhole camera (dice away from the
centre show their sides, far dice are smaller), rounded dice of several body colours, directional light with
soft and contact shadows, glare on glossy dice, uneven illumination, white-balance cast, lens blur, sensor
noise and JPEG artefacts.

Faces come from a *painter*: ``painter(face, size, rng) -> np.ndarray`` returns the top face of one die as a
BGR ``uint8`` square of ``size`` x ``size`` pixels, seen straight from above and drawn edge to edge (no
background, no rounded corners). The renderer rounds the corners, shades the bevel, adds glare, warps the
square into the camera's perspective and lights it. The die's sides take the colour of the painted face's
border, so a painter chooses the body colour simply by painting it; with ``side_faces`` they show other faces,
painted by the same painter, as real dice do. ``face`` is whatever the caller put in
``faces`` / ``face_choices`` (an int for pip dice, a face name for taught symbol, numeral or colour dice);
``rng`` is a ``numpy.random.Generator`` the painter may use for small variations. The default painter,
:func:`paint_pips`, draws standard pip faces 1-6.

>>> import numpy as np
>>> frame, truth = render_tray(np.random.default_rng(1), n_dice=3, faces=[1, 5, 6])
>>> frame.shape, frame.dtype, [d.face for d in truth]
((480, 640, 3), dtype('uint8'), [1, 5, 6])
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

import cv2
import numpy as np

from companion.errors import SourceError
from hardware.sources import FrameSource

Painter = Callable[[object, int, np.random.Generator], np.ndarray]
#: what the four sides of a die show, given its top face (``render_tray``'s ``side_faces``)
SideFaces = Callable[[object], Sequence[object]]

SUPERSAMPLE = 4  # dice are drawn at 4x and area-averaged down: smooth edges and round pips at 30-60 px dice
#: The frames of dice in flight are motion-blurred and never read, only seen moving (by the at-rest trigger and the
#: eye): drawn at 2x they cost a sixth of the time, so ROLL on the built-in tray shows its dice lying in about a
#: second instead of two (the sensor noise draws stay the same, so every still frame is the one it was).
FLIGHT_SUPERSAMPLE = 2
DIE_MM = 16.0  # a standard d6; only the ratio to the camera distance matters

# body colour, pip colour (BGR), glossy: the usual dice found in family game boxes
DICE_STYLES: dict[str, tuple[tuple[int, int, int], tuple[int, int, int], bool]] = {
    "ivory": ((196, 230, 240), (28, 28, 30), False),
    "white": ((236, 238, 240), (25, 25, 25), True),
    "red": ((38, 36, 196), (236, 236, 236), True),
    "blue": ((165, 82, 28), (240, 240, 240), True),
    "black": ((36, 34, 34), (236, 236, 236), True),
    "green": ((66, 150, 36), (240, 240, 240), True),
    "yellow": ((36, 205, 238), (24, 24, 24), True),
}

# pip centres on a unit face; 2, 3 and 6 have an orientation, which the die's rotation randomises
_L, _C, _H = 0.26, 0.5, 0.74
PIP_LAYOUT: dict[int, tuple[tuple[float, float], ...]] = {
    1: ((_C, _C),),
    2: ((_L, _L), (_H, _H)),
    3: ((_L, _L), (_C, _C), (_H, _H)),
    4: ((_L, _L), (_H, _L), (_L, _H), (_H, _H)),
    5: ((_L, _L), (_H, _L), (_C, _C), (_L, _H), (_H, _H)),
    6: ((_L, _L), (_L, _C), (_L, _H), (_H, _L), (_H, _C), (_H, _H)),
}


@dataclass(frozen=True)
class SyntheticDie:
    """The truth about one rendered die.

    ``box`` bounds everything visible of the die (top face and sides) and ``top_box`` only its top face, both
    as (x0, y0, x1, y1) pixels with x1/y1 exclusive, like :class:`vision.types.DieReading`. ``top`` holds the
    four corners of the top face in the frame, in painted-face order (the painted image's top-left, top-right,
    bottom-right, bottom-left), so a test can find where the face's "up" went.
    """

    face: object
    box: tuple[int, int, int, int]
    top_box: tuple[int, int, int, int]
    top: tuple[tuple[float, float], ...]
    style: str

    def to_json(self) -> dict:
        return {
            "face": self.face,
            "box": list(self.box),
            "top_box": list(self.top_box),
            "top": [[round(x, 1), round(y, 1)] for x, y in self.top],
            "style": self.style,
        }


def pip_sides(face: object) -> tuple[int, int, int, int]:
    """The four faces around a pip die's top face, in order round it (opposite faces sum to 7)."""
    top = int(face)  # type: ignore[call-overload]
    ring = [f for f in (1, 2, 3, 6, 5, 4) if f not in (top, 7 - top)]
    return ring[0], ring[1], ring[2], ring[3]


def paint_pips(
    face: object,
    size: int,
    rng: np.random.Generator,
    *,
    body: tuple[int, int, int] = DICE_STYLES["ivory"][0],
    pips: tuple[int, int, int] = DICE_STYLES["ivory"][1],
) -> np.ndarray:
    """The default painter: a standard pip face 1-6 with round, slightly sunken pips."""
    if not isinstance(face, int | np.integer) or int(face) not in PIP_LAYOUT:
        raise ValueError(f"a pip die has faces 1-6, not {face!r}")
    img = np.empty((size, size, 3), np.float32)
    img[:] = body
    img += rng.normal(0.0, 2.0, (size, size, 1)).astype(np.float32)  # plastic is never flat in colour
    radius = size * rng.uniform(0.082, 0.095)
    if int(face) == 1:
        radius *= rng.uniform(1.0, 1.35)  # many dice have a bigger single pip
    pip = np.array(pips, np.float32)
    rim = pip * 0.55 + np.array(body, np.float32) * 0.45 if pip.mean() > 128 else pip * 0.6
    shift = 4  # cv2 fixed-point bits: sub-pixel pip centres
    for px, py in PIP_LAYOUT[int(face)]:
        jx, jy = rng.normal(0.0, 0.004, 2)
        cx, cy = (px + jx) * size, (py + jy) * size
        centre = (int(round(cx * (1 << shift))), int(round(cy * (1 << shift))))
        cv2.circle(img, centre, int(round(radius * (1 << shift))), rim.tolist(), -1, cv2.LINE_AA, shift)
        # the pip is a dimple: its far wall catches light, so the lit part sits off-centre
        inner = (int(round((cx + radius * 0.1) * (1 << shift))),
                 int(round((cy + radius * 0.1) * (1 << shift))))
        cv2.circle(img, inner, int(round(radius * 0.86 * (1 << shift))), pip.tolist(), -1, cv2.LINE_AA, shift)
    return np.clip(img, 0, 255).astype(np.uint8)


#: pip colours of coloured and marbled dice (BGR): red, yellow, gold, white, black, green
COLOURED_PIPS = ((40, 40, 205), (40, 215, 235), (60, 165, 205), (238, 238, 238), (28, 28, 28), (60, 170, 50))


def marbled_painter(rng: np.random.Generator) -> Painter:
    """A pip painter for one set of marbled or swirled dice with coloured pips (blue swirled with red pips, dark
    green with yellow, purple with white...), as many a player's own dice are and :data:`DICE_STYLES` are not.

    The set's two body colours and its pip colour are drawn once; each face gets its own swirl."""
    hsv = np.uint8([[[rng.integers(0, 180), rng.integers(60, 256), rng.integers(40, 230)]]])
    first = cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)[0, 0].astype(np.float32)
    if rng.random() < 0.5:  # a swirl of a lighter or darker shade, or of another colour
        other = np.clip(first * rng.uniform(0.3, 1.8) + rng.normal(0.0, 30.0, 3), 0, 255).astype(np.float32)
    else:
        other = rng.uniform(0, 255, 3).astype(np.float32)
    lum = float(first.mean())
    usable = [c for c in COLOURED_PIPS
              if abs(float(np.mean(c)) - lum) > 50 or np.abs(np.subtract(c, first)).max() > 120]
    pips = usable[int(rng.integers(len(usable)))] if usable else (238, 238, 238)
    body = tuple(int(c) for c in first)
    reach = max(float(np.abs(np.subtract(pips, first)).max()), 1.0)  # the body's distance to the pip colour

    def painter(face: object, size: int, rng: np.random.Generator) -> np.ndarray:
        flat = paint_pips(face, size, rng, body=body, pips=pips).astype(np.float32)
        # how much of each pixel is pip (its rim included): its distance from the body towards the pip colour
        alpha = np.clip(np.abs(flat - first).max(axis=2, keepdims=True) / reach, 0.0, 1.0)
        grid = int(rng.integers(2, 5))
        noise = cv2.resize(rng.normal(0.0, 1.0, (grid, grid)).astype(np.float32), (size, size),
                           interpolation=cv2.INTER_CUBIC)
        yy, xx = np.mgrid[0:size, 0:size].astype(np.float32) / size
        angle = rng.uniform(0, math.pi)
        veins = np.sin(rng.uniform(3.0, 9.0) * (xx * math.cos(angle) + yy * math.sin(angle)) + 2.5 * noise)
        mix = (np.clip(0.5 + 0.5 * veins, 0.0, 1.0) ** rng.uniform(0.6, 2.5))[..., None]
        swirl = first * (1.0 - mix) + other * mix + rng.normal(0.0, 2.0, (size, size, 1))
        return np.clip(swirl * (1.0 - alpha) + flat * alpha, 0, 255).astype(np.uint8)

    return painter


def style_painter(style: str) -> Painter:
    """A pip painter in one of :data:`DICE_STYLES`."""
    body, pips, _glossy = DICE_STYLES[style]

    def painter(face: object, size: int, rng: np.random.Generator) -> np.ndarray:
        jitter = rng.normal(0.0, 5.0, 3)
        tinted = tuple(int(np.clip(c + j, 0, 255)) for c, j in zip(body, jitter, strict=True))
        return paint_pips(face, size, rng, body=tinted, pips=pips)

    return painter


# ------------------------------------------------------------------------------------------------------------
# Camera and table


@dataclass(frozen=True)
class Camera:
    """A pinhole camera above the table (table plane z = 0, in mm): perspective comes out right for free."""

    f: float
    cx: float
    cy: float
    rotation: np.ndarray  # world -> camera, rows: image right, image down, viewing direction
    position: np.ndarray

    @classmethod
    def looking_down(cls, size: tuple[int, int], die_px: float, distance: float, tilt_deg: float) -> Camera:
        tilt = math.radians(tilt_deg)
        position = np.array([0.0, -distance * math.sin(tilt), distance * math.cos(tilt)])
        forward = -position / np.linalg.norm(position)
        right = np.cross(forward, np.array([0.0, 1.0, 0.0]))
        right /= np.linalg.norm(right)
        down = np.cross(forward, right)
        f = die_px * distance / DIE_MM
        return cls(f, size[0] / 2.0, size[1] / 2.0, np.stack([right, down, forward]), position)

    def project(self, points: np.ndarray) -> np.ndarray:
        cam = (np.asarray(points, np.float64) - self.position) @ self.rotation.T
        u = self.f * cam[:, 0] / cam[:, 2] + self.cx
        return np.stack([u, self.f * cam[:, 1] / cam[:, 2] + self.cy], 1)

    def to_table(self, u: float, v: float) -> np.ndarray:
        """The table point (x, y) seen at pixel (u, v)."""
        ray = self.rotation.T @ np.array([(u - self.cx) / self.f, (v - self.cy) / self.f, 1.0])
        s = -self.position[2] / ray[2]
        return (self.position + s * ray)[:2]


@dataclass
class Table:
    """What stays the same from throw to throw: the tray surface, the light and the camera."""

    size: tuple[int, int]
    surface: np.ndarray  # float32 HxWx3, the texture under even light
    illumination: np.ndarray  # float32 HxWx1, uneven light and vignetting
    light: np.ndarray  # unit 3-vector towards the light (world)
    camera: Camera
    die_px: float
    shadow_strength: float
    wb_gains: np.ndarray
    noise_sigma: float
    blur_sigma: float
    jpeg_quality: int | None
    kind: str


def _smooth_noise(rng: np.random.Generator, h: int, w: int, cells: float) -> np.ndarray:
    """Noise in -1..1 with features about ``max(h, w) / cells`` pixels wide (cubic-upsampled random grid)."""
    gh, gw = max(2, int(round(cells * h / max(h, w))) + 2), max(2, int(round(cells * w / max(h, w))) + 2)
    grid = rng.uniform(-1.0, 1.0, (gh, gw)).astype(np.float32)
    return cv2.resize(grid, (w, h), interpolation=cv2.INTER_CUBIC)


def _surface(rng: np.random.Generator, w: int, h: int) -> tuple[np.ndarray, str]:
    kind = str(rng.choice(["felt", "wood", "board", "dark"], p=[0.3, 0.3, 0.25, 0.15]))
    fine = rng.normal(0.0, 1.0, (h, w)).astype(np.float32)
    if kind == "felt":
        colours = [(45, 105, 40), (110, 60, 30), (40, 40, 120), (95, 95, 95), (70, 50, 60)]
        base = np.array(colours[rng.integers(len(colours))], np.float32)
        fibres = cv2.GaussianBlur(fine, (0, 0), 0.8)
        shade = 1 + 0.06 * _smooth_noise(rng, h, w, 6) + 0.03 * _smooth_noise(rng, h, w, 40) + 0.12 * fibres
    elif kind == "wood":
        light = rng.random() < 0.6
        base = np.array((150, 192, 222) if light else (45, 78, 120), np.float32) + rng.normal(0, 8, 3)
        # grown along x on a bigger sheet, then turned: long streaks that drift apart and together slowly
        d = int(math.ceil(math.hypot(w, h))) + 4
        yy, xx = np.mgrid[0:d, 0:d].astype(np.float32)
        drift = cv2.resize(rng.uniform(-1, 1, (6, 3)).astype(np.float32), (d, d),
                           interpolation=cv2.INTER_CUBIC)
        across = yy + 30 * drift + 4 * cv2.resize(rng.uniform(-1, 1, (40, 6)).astype(np.float32), (d, d),
                                                   interpolation=cv2.INTER_CUBIC)
        period = rng.uniform(12, 30)
        rings = (0.5 + 0.5 * np.sin(2 * math.pi * across / period)) ** 4
        fibres = cv2.GaussianBlur(rng.normal(0, 1, (d, d)).astype(np.float32), (0, 0), sigmaX=25, sigmaY=0.8)
        sheet = 1 - rng.uniform(0.08, 0.22) * rings + rng.uniform(0.2, 0.45) * fibres
        turn = cv2.getRotationMatrix2D((d / 2, d / 2), rng.uniform(0, 180), 1.0)
        turn[:, 2] -= [(d - w) / 2, (d - h) / 2]
        sheet = cv2.warpAffine(sheet, turn, (w, h), borderMode=cv2.BORDER_REFLECT)
        shade = sheet + 0.05 * _smooth_noise(rng, h, w, 4) + 0.02 * fine
    elif kind == "board":
        grey = rng.uniform(165, 228)
        base = np.array([grey, grey, grey], np.float32) + rng.normal(0, 4, 3)
        specks = (rng.random((h, w)) < 0.0015).astype(np.float32)
        specks = cv2.GaussianBlur(specks, (0, 0), 0.7) * 2.5
        shade = 1 + 0.03 * _smooth_noise(rng, h, w, 8) + 0.025 * fine - 0.4 * np.clip(specks, 0, 1)
    else:
        grey = rng.uniform(26, 48)
        base = np.array([grey, grey, grey], np.float32) + rng.normal(0, 3, 3)
        shade = 1 + 0.08 * _smooth_noise(rng, h, w, 10) + 0.12 * cv2.GaussianBlur(fine, (0, 0), 0.6)
    surface = base[None, None, :] * shade[:, :, None]
    return surface.astype(np.float32), kind


#: the camera's tilt from straight down (degrees) of a webcam on a laptop or a stand beside the tray, as in the
#: matteo-d6 photos: the die's sides show as much as its top (scripts/train_top_face.py --oblique,
#: bench/bench_taught.py --level oblique)
OBLIQUE = (32.0, 50.0)


def make_table(rng: np.random.Generator, size: tuple[int, int] = (640, 480), tilt: float | None = None) -> Table:
    """A random tray, light and camera (the same for a whole evening of throws).

    ``tilt``: the camera's angle from straight down in degrees. By default mostly near it (a camera over the tray),
    sometimes up to 32; a webcam beside the tray looks more obliquely still (OBLIQUE)."""
    w, h = size
    if w < 160 or h < 120:
        raise SourceError(
            f"The synthetic tray needs at least 160x120 pixels, not {w}x{h}: choose a bigger size."
        )
    surface, kind = _surface(rng, w, h)
    # light from one side and above: its direction sets the shading of the sides and where shadows fall
    azimuth = rng.uniform(0, 2 * math.pi)
    elevation = math.radians(rng.uniform(40, 75))
    light = np.array([math.cos(azimuth) * math.cos(elevation), math.sin(azimuth) * math.cos(elevation),
                      math.sin(elevation)])
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    nx, ny = (xx - w / 2) / (w / 2), (yy - h / 2) / (h / 2)
    gradient = rng.uniform(0.04, 0.18) * (nx * math.cos(azimuth) - ny * math.sin(azimuth))
    vignette = rng.uniform(0.03, 0.18) * (nx**2 + ny**2) / 2
    illumination = (1 + gradient - vignette + 0.03 * _smooth_noise(rng, h, w, 3)) * rng.uniform(0.88, 1.08)
    if tilt is None:
        tilt = rng.uniform(0, 12) if rng.random() < 0.7 else rng.uniform(12, 32)
    die_px = min(w, h) * rng.uniform(0.075, 0.13)
    camera = Camera.looking_down(size, die_px, rng.uniform(250, 600), tilt)
    return Table(
        size=(w, h),
        surface=surface,
        illumination=illumination[:, :, None].astype(np.float32),
        light=light,
        camera=camera,
        die_px=die_px,
        shadow_strength=rng.uniform(0.3, 0.55),
        wb_gains=np.array([rng.uniform(0.9, 1.1), 1.0, rng.uniform(0.9, 1.1)], np.float32),
        noise_sigma=rng.uniform(1.5, 5.0),
        blur_sigma=rng.uniform(0.35, 1.0),
        jpeg_quality=int(rng.integers(55, 93)) if rng.random() < 0.75 else None,
        kind=kind,
    )


# ------------------------------------------------------------------------------------------------------------
# Throwing: where the dice land


@dataclass
class PlacedDie:
    """A die on (or above) the table: position in millimetres, turn in radians, and what it shows."""

    x: float
    y: float
    yaw: float
    face: object
    style: str
    painter: Painter
    lift: float = 0.0  # height above the table while it flies
    blur: tuple[float, float] = (0.0, 0.0)  # motion in pixels during the exposure
    seed: int = field(default=0)  # keeps the painted face identical from frame to frame while at rest
    #: the faces painted on the die's four sides (by ``painter``, as the top is); empty: plain sides of the body's
    #: colour. Real dice carry marks on their sides, and a finder of top faces must learn to leave them out
    sides: tuple[object, ...] = ()


def _footprint(x: float, y: float, yaw: float, half: float) -> np.ndarray:
    c, s = math.cos(yaw), math.sin(yaw)
    corners = [(-half, -half), (half, -half), (half, half), (-half, half)]
    return np.array([(x + c * a - s * b, y + s * a + c * b) for a, b in corners], np.float32)


def _die_corners(die: PlacedDie) -> np.ndarray:
    """The 8 world corners: top face first (in painted-face order as seen from above), then the bottom."""
    half = DIE_MM / 2
    foot = _footprint(die.x, die.y, die.yaw, half).astype(np.float64)
    # painted image rows run "down" the image; the table's +y points to the top of the picture, so flip rows
    foot = foot[[3, 2, 1, 0]]
    top = np.column_stack([foot, np.full(4, die.lift + DIE_MM)])
    bottom = np.column_stack([foot, np.full(4, die.lift)])
    return np.vstack([top, bottom])


def _choose_styles(rng: np.random.Generator, n: int) -> list[str]:
    names = list(DICE_STYLES)
    if rng.random() < 0.5:  # one set of matching dice
        return [names[rng.integers(len(names))]] * n
    return [names[rng.integers(len(names))] for _ in range(n)]


def throw(
    rng: np.random.Generator,
    table: Table,
    faces: Sequence[object],
    painter: Painter | None = None,
    side_faces: SideFaces | None = None,
) -> list[PlacedDie]:
    """Land one die per face somewhere fully in view; dice may touch but never overlap. ``side_faces``: what the
    sides of a die showing a face show (``render_tray``); None: plain sides."""
    w, h = table.size
    half = DIE_MM / 2
    styles = _choose_styles(rng, len(faces)) if painter is None else ["painted"] * len(faces)
    placed: list[PlacedDie] = []
    footprints: list[np.ndarray] = []
    margin = 0.25 * table.die_px
    for face, style in zip(faces, styles, strict=True):
        for _attempt in range(400):
            yaw = rng.uniform(0, math.pi / 2)
            if placed and rng.random() < 0.3:  # lean against a neighbour: touching dice are a real case
                other = placed[rng.integers(len(placed))]
                direction = rng.uniform(0, 2 * math.pi)
                reach = DIE_MM * rng.uniform(1.0, 1.45)
                x, y = other.x + reach * math.cos(direction), other.y + reach * math.sin(direction)
            else:
                u, v = rng.uniform(margin, w - margin), rng.uniform(margin, h - margin)
                x, y = table.camera.to_table(u, v)
            foot = _footprint(x, y, yaw, half)
            if any(cv2.intersectConvexConvex(foot, other)[0] > 0.01 for other in footprints):  # touch, no overlap
                continue
            die = PlacedDie(float(x), float(y), float(yaw), face, style,
                            painter or style_painter(style), seed=int(rng.integers(1 << 31)),
                            sides=() if side_faces is None else tuple(side_faces(face)))
            pts = table.camera.project(_die_corners(die))
            if pts[:, 0].min() < margin or pts[:, 1].min() < margin or pts[:, 0].max() > w - margin \
                    or pts[:, 1].max() > h - margin:
                continue
            placed.append(die)
            footprints.append(foot)
            break
        else:
            raise SourceError(
                f"{len(faces)} dice do not fit on a {w}x{h} synthetic tray: "
                "use fewer dice or a bigger picture."
            )
    return placed


# ------------------------------------------------------------------------------------------------------------
# Rendering


def _rounded_square_alpha(size: int, radius: float) -> np.ndarray:
    alpha = np.zeros((size, size), np.float32)
    r = int(round(radius))
    cv2.rectangle(alpha, (r, 0), (size - 1 - r, size - 1), 1.0, -1)
    cv2.rectangle(alpha, (0, r), (size - 1, size - 1 - r), 1.0, -1)
    for cx, cy in ((r, r), (size - 1 - r, r), (r, size - 1 - r), (size - 1 - r, size - 1 - r)):
        cv2.circle(alpha, (cx, cy), r, 1.0, -1, cv2.LINE_AA)
    return alpha


def _finish_face(face: np.ndarray, light_xy: np.ndarray, glossy: bool,
                 rng: np.random.Generator) -> np.ndarray:
    """Bevel shading and glare: what makes a flat painted square look like the top of a plastic cube."""
    size = face.shape[0]
    img = face.astype(np.float32)
    yy, xx = (np.mgrid[0:size, 0:size].astype(np.float32) + 0.5) / size
    edge = np.minimum.reduce([xx, yy, 1 - xx, 1 - yy])
    bevel = np.clip(1 - edge / 0.09, 0, 1) ** 2
    # the bevel turns towards the light on one side (brighter) and away on the other (darker)
    facing = (xx - 0.5) * light_xy[0] - (yy - 0.5) * light_xy[1]
    img *= (1 - 0.28 * bevel + 0.35 * bevel * np.clip(facing * 2, -1, 1))[:, :, None]
    if glossy and rng.random() < 0.8:
        gx = 0.5 + rng.uniform(0.1, 0.35) * light_xy[0] + rng.normal(0, 0.08)
        gy = 0.5 - rng.uniform(0.1, 0.35) * light_xy[1] + rng.normal(0, 0.08)
        # a broad sheen, not a spot: room light is wide, and a pip-sized spot would be a pip no reader could refuse
        spread = rng.uniform(0.18, 0.35)
        glare = np.exp(-((xx - gx) ** 2 + (yy - gy) ** 2) / (2 * spread**2)) * rng.uniform(0.1, 0.35)
        img += (255 - img) * glare[:, :, None]
    return img


def _motion_kernel(dx: float, dy: float) -> np.ndarray | None:
    length = math.hypot(dx, dy)
    if length < 1.0:
        return None
    k = int(math.ceil(length)) | 1
    kernel = np.zeros((k, k), np.float32)
    c = k // 2
    cv2.line(kernel, (int(round(c - dx / 2)), int(round(c - dy / 2))),
             (int(round(c + dx / 2)), int(round(c + dy / 2))), 1.0, 1, cv2.LINE_AA)
    return kernel / kernel.sum()


def _paint_side(colour: np.ndarray, die: PlacedDie, i: int, quad: np.ndarray, shade: float, size: int) -> None:
    """Paint side ``i``'s face (``die.sides``) onto its projected quadrilateral (top edge first), shaded. Its own
    random stream: a die with marked sides shows the same top face as with plain ones."""
    painted = die.painter(die.sides[i], size, np.random.default_rng((die.seed, 1 + i))).astype(np.float32)
    src = np.float32([[0, 0], [size, 0], [size, size], [0, size]])
    h, w = colour.shape[:2]
    homography = cv2.getPerspectiveTransform(src, quad)
    warped = cv2.warpPerspective(painted * shade, homography, (w, h), flags=cv2.INTER_LINEAR)
    inside = np.zeros((h, w), np.float32)
    cv2.fillConvexPoly(inside, np.round(quad).astype(np.int32), 1.0, cv2.LINE_AA)
    colour[:] = colour * (1 - inside[..., None]) + warped * inside[..., None]


def _render_die(table: Table, die: PlacedDie, ss: int = SUPERSAMPLE
                ) -> tuple[np.ndarray, np.ndarray, tuple[int, int], SyntheticDie]:
    """One die as a premultiplied colour patch and its alpha, with its top-left position in the frame; drawn at
    ``ss`` times the frame's resolution and area-averaged down."""
    cam = table.camera
    corners3 = _die_corners(die)
    pts = cam.project(corners3)
    top, bottom = pts[:4], pts[4:]
    pad = 3 + int(math.ceil(math.hypot(*die.blur)))
    x0, y0 = np.floor(pts.min(0)).astype(int) - pad
    x1, y1 = np.ceil(pts.max(0)).astype(int) + pad
    pw, ph = x1 - x0, y1 - y0
    local = (pts - [x0, y0]) * ss
    canvas_w, canvas_h = pw * ss, ph * ss
    rng = np.random.default_rng(die.seed)

    painted = die.painter(die.face, max(64, int(round(table.die_px * ss * 1.2))), rng)
    if painted.ndim != 3 or painted.shape[2] != 3 or painted.shape[0] != painted.shape[1]:
        raise ValueError(f"a painter must return a square BGR image, got shape {painted.shape}")
    border = np.concatenate([painted[:3].reshape(-1, 3), painted[-3:].reshape(-1, 3),
                             painted[:, :3].reshape(-1, 3), painted[:, -3:].reshape(-1, 3)])
    body = np.median(border, axis=0).astype(np.float32)
    glossy = DICE_STYLES[die.style][2] if die.style in DICE_STYLES else bool(rng.random() < 0.6)

    light = table.light
    ambient = 0.42
    top_shade = ambient + (1 - ambient) * light[2]
    colour = np.zeros((canvas_h, canvas_w, 3), np.float32)
    colour[:] = body * (ambient + 0.2)
    # the four sides, back to front, each lit by how much it faces the light
    sides = []
    centre3 = corners3[:4].mean(0)
    for i in range(4):
        j = (i + 1) % 4
        a, b = corners3[i], corners3[j]
        normal = np.array([(a[0] + b[0]) / 2 - centre3[0], (a[1] + b[1]) / 2 - centre3[1], 0.0])
        normal /= np.linalg.norm(normal)
        mid = (a + b) / 2 - [0, 0, DIE_MM / 2]
        facing_camera = float(normal @ (cam.position - mid))
        shade = ambient + (1 - ambient) * max(0.0, float(normal @ light))
        sides.append((facing_camera, i, j, shade))
    for facing_camera, i, j, shade in sorted(sides):
        if facing_camera <= 0:
            continue
        quad = np.array([local[i], local[j], local[4 + j], local[4 + i]], np.int32)
        cv2.fillConvexPoly(colour, quad, (body * shade * 0.92).tolist(), cv2.LINE_AA)
        if die.sides:
            _paint_side(colour, die, i, np.float32([local[i], local[j], local[4 + j], local[4 + i]]), shade * 0.92,
                        max(64, int(round(table.die_px * ss * 1.2))))
    hull = cv2.convexHull(local.astype(np.int32))
    silhouette = np.zeros((canvas_h, canvas_w), np.uint8)
    cv2.fillConvexPoly(silhouette, hull, 255, cv2.LINE_AA)
    corner_r = max(1, int(round(0.11 * table.die_px * ss)))
    disk = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * corner_r + 1, 2 * corner_r + 1))
    silhouette = cv2.morphologyEx(silhouette, cv2.MORPH_OPEN, disk).astype(np.float32) / 255.0

    # the top face: painted square -> bevel and glare -> perspective warp onto the projected top corners
    size = painted.shape[0]
    light_xy = light[:2] / max(1e-6, float(np.linalg.norm(light[:2])))
    # express the light in the painted face's own axes (its x runs along the die's first top edge)
    edge_x = corners3[1, :2] - corners3[0, :2]
    edge_x /= np.linalg.norm(edge_x)
    edge_y = corners3[0, :2] - corners3[3, :2]
    edge_y /= np.linalg.norm(edge_y)
    face_light = np.array([light_xy @ edge_x, light_xy @ edge_y])
    face = _finish_face(painted, face_light, glossy, rng) * top_shade
    face_alpha = _rounded_square_alpha(size, 0.13 * size)
    src = np.array([[0, 0], [size, 0], [size, size], [0, size]], np.float32)
    homography = cv2.getPerspectiveTransform(src, local[:4].astype(np.float32))
    warped = cv2.warpPerspective(face, homography, (canvas_w, canvas_h), flags=cv2.INTER_LINEAR)
    warped_alpha = cv2.warpPerspective(face_alpha, homography, (canvas_w, canvas_h), flags=cv2.INTER_LINEAR)
    warped_alpha = warped_alpha[:, :, None]
    colour = colour * (1 - warped_alpha) + warped * warped_alpha
    alpha = np.maximum(silhouette, warped_alpha[:, :, 0] * silhouette)

    premult = cv2.resize(colour * alpha[:, :, None], (pw, ph), interpolation=cv2.INTER_AREA)
    alpha_small = cv2.resize(alpha, (pw, ph), interpolation=cv2.INTER_AREA)
    kernel = _motion_kernel(*die.blur)
    if kernel is not None:
        premult = cv2.filter2D(premult, -1, kernel)
        alpha_small = cv2.filter2D(alpha_small, -1, kernel)

    def bbox(p: np.ndarray) -> tuple[int, int, int, int]:
        lo, hi = np.floor(p.min(0)).astype(int), np.ceil(p.max(0)).astype(int) + 1
        w, h = table.size
        return (max(0, int(lo[0])), max(0, int(lo[1])), min(w, int(hi[0])), min(h, int(hi[1])))

    truth = SyntheticDie(
        face=die.face,
        box=bbox(np.vstack([top, bottom])),
        top_box=bbox(top),
        top=tuple((float(x), float(y)) for x, y in top),
        style=die.style,
    )
    return premult, alpha_small, (int(x0), int(y0)), truth


def _shadows(table: Table, dice: Sequence[PlacedDie]) -> np.ndarray:
    """How much light each table pixel loses: a soft cast shadow plus a tight contact shadow per die."""
    w, h = table.size
    cast = np.zeros((h, w), np.float32)
    contact = np.zeros((h, w), np.float32)
    light = table.light
    along = light[:2] / max(light[2], 0.2)  # horizontal reach of a shadow per millimetre of height
    for die in dice:
        corners = _die_corners(die)
        foot, top = corners[4:].copy(), corners[:4].copy()
        for pts in (foot, top):
            pts[:, :2] -= along * pts[:, 2:3]
            pts[:, 2] = 0.0
        outline = table.camera.project(np.vstack([foot, top]))
        cv2.fillConvexPoly(cast, cv2.convexHull(outline.astype(np.int32)), 1.0, cv2.LINE_AA)
        base = corners[4:].copy()
        base[:, 2] = 0.0
        if die.lift < 1.0:
            cv2.fillConvexPoly(contact, table.camera.project(base).astype(np.int32), 1.0, cv2.LINE_AA)
    cast = cv2.GaussianBlur(cast, (0, 0), max(1.0, 0.18 * table.die_px))
    contact = cv2.GaussianBlur(contact, (0, 0), max(0.8, 0.05 * table.die_px))
    return 1 - (1 - table.shadow_strength * cast) * (1 - 0.55 * contact)


def render_scene(
    table: Table, dice: Sequence[PlacedDie], rng: np.random.Generator, supersample: int = SUPERSAMPLE
) -> tuple[np.ndarray, list[SyntheticDie]]:
    """Render placed dice on a table through its camera; ``rng`` only draws this frame's sensor noise."""
    w, h = table.size
    frame = table.surface * (1 - _shadows(table, dice))[:, :, None]
    by_truth: dict[int, SyntheticDie] = {}
    # far dice first, so a near die's side correctly covers a far one (top faces are never covered)
    order = sorted(range(len(dice)), key=lambda i: -np.linalg.norm(
        table.camera.position - [dice[i].x, dice[i].y, DIE_MM / 2]))
    for i in order:
        premult, alpha, (x0, y0), die_truth = _render_die(table, dice[i], supersample)
        by_truth[i] = die_truth
        ph, pw = alpha.shape
        fx0, fy0, fx1, fy1 = max(0, x0), max(0, y0), min(w, x0 + pw), min(h, y0 + ph)
        if fx0 >= fx1 or fy0 >= fy1:
            continue
        a = alpha[fy0 - y0:fy1 - y0, fx0 - x0:fx1 - x0, None]
        p = premult[fy0 - y0:fy1 - y0, fx0 - x0:fx1 - x0]
        frame[fy0:fy1, fx0:fx1] = frame[fy0:fy1, fx0:fx1] * (1 - a) + p
    truth = [by_truth[i] for i in range(len(dice))]
    return _camera_finish(table, frame, rng), truth


def _camera_finish(table: Table, frame: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """What the camera adds: uneven light, colour cast, lens blur, sensor noise, JPEG."""
    img = frame * table.illumination * table.wb_gains
    img = cv2.GaussianBlur(img, (0, 0), table.blur_sigma)
    h, w = img.shape[:2]
    img += rng.normal(0.0, table.noise_sigma, (h, w, 1)).astype(np.float32)  # luminance noise
    img += rng.normal(0.0, table.noise_sigma * 0.5, (h, w, 3)).astype(np.float32)  # chroma noise
    out = np.clip(img, 0, 255).astype(np.uint8)
    if table.jpeg_quality is not None:
        ok, data = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, table.jpeg_quality])
        if ok:
            out = cv2.imdecode(data, cv2.IMREAD_COLOR)
    return out


def _as_rng(rng: np.random.Generator | int | None) -> np.random.Generator:
    return rng if isinstance(rng, np.random.Generator) else np.random.default_rng(rng)


def found_by(die: SyntheticDie, truth: Sequence[SyntheticDie], cands: Sequence) -> object | None:
    """Which of a die finder's candidates (anything with a ``center``) stands for the rendered ``die``: of those
    whose centre lies in the die's box and in no other die's (a candidate spanning touching dice holds no one face),
    the nearest to the box's centre; None when the finder missed the die. For tests, benchmarks and training."""
    x0, y0, x1, y1 = die.box
    mine = [c for c in cands if (k := die_in_box(c.center, truth)) is not None and truth[k] is die]
    return min(mine, key=lambda c: math.hypot(c.center[0] - (x0 + x1) / 2, c.center[1] - (y0 + y1) / 2),
               default=None)


def die_in_box(point: tuple[float, float], truth: Sequence[SyntheticDie]) -> int | None:
    """Which rendered die's box (top face and sides) holds ``point``; None when it lies in none, or in two (a
    candidate spanning touching dice). For tests, benchmarks and training."""
    dice = [i for i, d in enumerate(truth) if d.box[0] <= point[0] < d.box[2] and d.box[1] <= point[1] < d.box[3]]
    return dice[0] if len(dice) == 1 else None


def die_under(point: tuple[float, float], truth: Sequence[SyntheticDie]) -> int | None:
    """Which rendered die's top face holds ``point`` (a reader's top face centre, in frame pixels): the die that a
    reading describes; None when it lies on no top face, or on two. For tests and benchmarks."""
    dice = [i for i, d in enumerate(truth) if cv2.pointPolygonTest(np.float32(d.top), point, False) >= 0]
    return dice[0] if len(dice) == 1 else None


def pick_faces(
    rng: np.random.Generator,
    n_dice: int | None,
    faces: Sequence[object] | None,
    face_choices: Sequence[object] | None,
) -> list[object]:
    """The faces of one throw: given ones, or ``n_dice`` (default 1-6) drawn from ``face_choices``."""
    if faces is not None:
        faces = list(faces)
        if not faces:
            raise SourceError("The synthetic tray needs at least one die: give one face or more.")
        if n_dice is not None and n_dice != len(faces):
            raise SourceError(f"{n_dice} dice were asked for but {len(faces)} faces given: make them match.")
        return faces
    choices = list(face_choices) if face_choices is not None else [1, 2, 3, 4, 5, 6]
    if not choices:
        raise SourceError("The synthetic tray has no faces to choose from: give at least one face.")
    if n_dice is None:
        n_dice = int(rng.integers(1, 7))
    if not 1 <= n_dice <= 30:
        raise SourceError(f"The synthetic tray throws 1 to 30 dice, not {n_dice}.")
    return [choices[int(i)] for i in rng.integers(len(choices), size=n_dice)]


def render_tray(
    rng: np.random.Generator | int | None,
    n_dice: int | None = None,
    size: tuple[int, int] = (640, 480),
    faces: Sequence[object] | None = None,
    painter: Painter | None = None,
    *,
    face_choices: Sequence[object] | None = None,
    tilt: float | None = None,
    side_faces: SideFaces | None = None,
) -> tuple[np.ndarray, list[SyntheticDie]]:
    """One photo-like BGR frame of freshly thrown dice on a random table, and the truth about each die.

    ``rng`` is a ``numpy.random.Generator`` (or a seed): the same seed gives the same picture. ``size`` is
    (width, height). Without ``faces`` the faces are drawn from ``face_choices`` (default pip faces 1-6) for
    ``n_dice`` dice (default 1-6 of them). Without ``painter`` the dice are pip dice of random styles; with
    one, every face is painted by it (see the module docstring for the painter contract). ``truth[i]``
    describes the die showing ``faces[i]``. ``tilt`` sets the camera's angle from straight down (``make_table``).
    ``side_faces`` maps a die's top face to the four faces its sides show (``pip_sides`` for pip dice), painted
    by the same painter; without it the sides are plain.
    """
    rng = _as_rng(rng)
    chosen = pick_faces(rng, n_dice, faces, face_choices)
    table = make_table(rng, size, tilt)
    dice = throw(rng, table, chosen, painter, side_faces)
    return render_scene(table, dice, rng)


# ------------------------------------------------------------------------------------------------------------
# The source


class SyntheticTray(FrameSource):
    """The synthetic tray as a frame source: the embedded default when no camera is present.

    Between rolls it shows the same still frame, like a camera over dice at rest. ``roll()`` throws new dice:
    the next ``motion_frames`` frames show them flying in, bouncing, spinning and motion-blurred (so the
    at-rest detector sees real motion), then the new still frame. ``truth`` is the truth of the dice at rest.
    """

    #: the picture source as the config names it (``teach.camera_name``)
    config_name = "synthetic"

    def __init__(
        self,
        rng_seed: int | None = None,
        *,
        n_dice: int | None = None,
        size: tuple[int, int] = (640, 480),
        faces: Sequence[object] | None = None,
        face_choices: Sequence[object] | None = None,
        painter: Painter | None = None,
        motion_frames: int = 6,
        fps: float | None = 15.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        super().__init__(fps=fps, clock=clock)
        if motion_frames < 0:
            raise SourceError(f"The synthetic tray needs 0 or more motion frames, not {motion_frames}.")
        self.rng_seed = rng_seed
        self.n_dice = n_dice
        self.size = size
        self.faces = faces
        self.face_choices = face_choices
        self.painter = painter
        self.motion_frames = motion_frames
        self.table: Table | None = None
        self.throws = 0
        self._rng = np.random.default_rng(rng_seed)
        self._dice: list[PlacedDie] = []
        self._flight: list[list[PlacedDie]] = []
        self._still: np.ndarray | None = None
        self._truth: list[SyntheticDie] = []
        #: what the tray throws instead of its own dice: (key, painter, each die's faces), set by ``show``
        self.showing: tuple[object, Painter, tuple[tuple[object, ...], ...]] | None = None

    def show(self, key: object, painter: Painter | None = None, dice: Sequence[Sequence[object]] = ()) -> bool:
        """Throw other dice from the next throw on: a game's (``key`` names them, e.g. the dice set; ``painter``
        paints them; ``dice`` holds each die's faces), or with ``key`` None the tray's own. True when that changes
        what is thrown, so the caller throws at once (from the thread that reads the tray). One assignment: a throw
        never mixes two sets."""
        if key is None:
            changed, self.showing = self.showing is not None, None
            return changed
        if self.showing is not None and self.showing[0] == key:
            return False
        if painter is None or not dice:
            raise SourceError(f"The synthetic tray cannot show {key}: it needs a painter and the dice's faces.")
        self.showing = (key, painter, tuple(tuple(d) for d in dice))
        return True

    @property
    def description(self) -> str:
        w, h = self.size
        seed = "" if self.rng_seed is None else f", seed {self.rng_seed}"
        return f"synthetic dice tray ({w}x{h}{seed})"

    @property
    def rolling(self) -> bool:
        """True while the dice of the last throw are still in the air."""
        return bool(self._flight)

    @property
    def truth(self) -> list[SyntheticDie]:
        """The dice of the last throw as they lie once at rest."""
        self._render_still()
        return list(self._truth)

    def _open(self) -> None:
        if self.table is None:
            self.table = make_table(self._rng, self.size)
            self._dice = self._throw()
        self._flight = []

    def _throw(self) -> list[PlacedDie]:
        showing = self.showing
        if showing is not None:
            _, painter, dice = showing
            faces = [die[int(self._rng.integers(len(die)))] for die in dice]
        else:
            painter = self.painter
            faces = pick_faces(self._rng, self.n_dice, self.faces, self.face_choices)
        self._still = None
        self.throws += 1
        return throw(self._rng, self.table, faces, painter)

    def roll(self) -> None:
        if not self._opened:
            return
        landed = self._throw()
        self._flight = self._flight_path(landed)
        self._dice = landed

    def _flight_path(self, landed: list[PlacedDie]) -> list[list[PlacedDie]]:
        """Frames of the dice flying in from one side, bouncing and tumbling to where they land."""
        rng, table = self._rng, self.table
        k_frames = self.motion_frames
        if k_frames == 0:
            return []
        heading = rng.uniform(0, 2 * math.pi)
        extra = [] if self.showing else self.face_choices or ([] if self.painter else range(1, 7))
        tumble_faces = [d.face for d in landed] + list(extra)
        starts = []
        for _ in landed:
            reach = DIE_MM * rng.uniform(2.0, 5.0)
            angle = heading + rng.normal(0, 0.3)
            spin, height = rng.uniform(-3, 3), rng.uniform(8, 30)
            starts.append((reach * math.cos(angle), reach * math.sin(angle), spin, height))
        frames: list[list[PlacedDie]] = []
        previous: list[np.ndarray] | None = None
        for k in range(k_frames):
            t = (k + 1) / (k_frames + 1)
            left = (1 - t) ** 2
            frame: list[PlacedDie] = []
            centres = []
            for die, (dx, dy, spin, height) in zip(landed, starts, strict=True):
                lift = height * abs(math.sin(2.5 * math.pi * t)) * (1 - t)
                face = die.face if k >= k_frames - 1 else tumble_faces[int(rng.integers(len(tumble_faces)))]
                moving = PlacedDie(die.x + dx * left, die.y + dy * left, die.yaw + spin * left, face,
                                   die.style, die.painter, lift=lift, seed=int(rng.integers(1 << 31)))
                frame.append(moving)
                centres.append(table.camera.project(np.array([[moving.x, moving.y, lift + DIE_MM]]))[0])
            if previous is not None:
                frame = [replace(d, blur=tuple(0.7 * (c - p))) for d, c, p in zip(frame, centres, previous,
                                                                                      strict=True)]
            else:
                frame = [replace(d, blur=tuple(0.7 * (c - table.camera.project(np.array(
                    [[d.x + dx * 0.3, d.y + dy * 0.3, d.lift + DIE_MM]]))[0])))
                    for d, c, (dx, dy, _s, _h) in zip(frame, centres, starts, strict=True)]
            previous = centres
            frames.append(frame)
        return frames

    def _render_still(self) -> None:
        if self._still is None and self.table is not None:
            self._still, self._truth = render_scene(self.table, self._dice, self._rng)

    def _read(self) -> np.ndarray | None:
        if self._flight:
            frame, _ = render_scene(self.table, self._flight.pop(0), self._rng, FLIGHT_SUPERSAMPLE)
            return frame
        self._render_still()
        return self._still.copy()
