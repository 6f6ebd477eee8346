"""The top face in a canonical frame where the photo's conditions no longer matter, and its descriptor.

``vision.face_outline`` finds the top face; ``vision.taught`` compares the descriptors with the players' examples.

- **light**: a plane is fitted to the top face's body colour, channel by channel, and the face is compared with
  it channel by channel: white balance to the die's own body plus the light gradient across it, so a dimmer, a
  warmer or a sideways lamp moves nothing. Glare is brighter than the body, so the mark is what is *darker* or of
  another colour than the body; what is brighter counts only as sharp edges (a white print on a dark die), not as
  the soft blob glare makes. Under glare the mark is lighter too, so on a marked face the ink is measured against
  the body as the glare lights it (the face's local upper envelope), not against the plane.
- **shape**: the mark's ink and its edges (the ink's gradient: two solid blobs differ at their edges) on a GRID x
  GRID grid centred on the mark and scaled to its own size (the face's found outline is less steady than the
  mark's spread).
- **colour**: where colour is the meaning (a red face, a red patch), the body's own chromaticity (ratios of the
  colour channels: a brighter or dimmer lamp does not change it; a lamp's colour cast does), its brightness (black
  vs white) and the mark's colour relative to the body (cast-free).

Pure OpenCV + numpy.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from vision.face_outline import FACE, side_corners, side_net, top_face
from vision.frame import as_bgr

GRID = 32  # side of the shape grid
CHANNELS = 4  # ink, its gradient (x, y: the mark's edges), bright print
GRADIENT_WEIGHT = 1.5  # the edges weigh more than the solid inside: two solid blobs differ at their edges
SHAPE_DIM = CHANNELS * GRID * GRID
COLOUR_DIM = 8
DIM = SHAPE_DIM + COLOUR_DIM
_K3X3 = np.ones((3, 3), np.uint8)
_YY, _XX = np.mgrid[0:FACE, 0:FACE].astype(np.float32)
_DESIGN = np.stack([np.ones(FACE * FACE, np.float32), _XX.ravel() / FACE - 0.5, _YY.ravel() / FACE - 0.5], 1)
_DESIGN_T = np.ascontiguousarray(_DESIGN.T)
_GRAM = np.einsum("pi,pj->pij", _DESIGN, _DESIGN).reshape(-1, 9)  # per pixel, its row of the normal equations
_INNER = np.zeros((FACE, FACE), bool)
_b = int(round(FACE * 0.1))
_INNER[_b:FACE - _b, _b:FACE - _b] = True
_c = int(round(FACE * 0.15))
_CORE = (slice(_c, FACE - _c), slice(_c, FACE - _c))  # where the artwork's marks are (a blank face has no ink here)
_RING = _INNER.copy()  # where the body shows on every die: inside the rim, outside the artwork
_RING[2 * _b:FACE - 2 * _b, 2 * _b:FACE - 2 * _b] = False
_RING_INDEX = np.flatnonzero(_RING)
_NEAR = float(np.exp(0.25))  # a pixel this near the body's colour (ratio, per channel) is body
_RIM = 6  # pixels of the warped face's rim left out of the mark (9 %): the sides and the table leak in there


@dataclass(frozen=True)
class Canonical:
    """The top face in the canonical frame: the mark channels (FACE x FACE x CHANNELS), the colour vector and the
    mark's frame (centre and radius, None on a blank face)."""

    channels: np.ndarray
    colour: np.ndarray
    frame: tuple[float, float, float] | None


def canonical(crop_bgr: np.ndarray, corners: np.ndarray | None = None) -> Canonical:
    """White-balance the top face (``corners``, default ``face_corners``) to its own body, take out the light
    gradient and describe the mark.

    The body is the colour of a ring inside the face's rim (its median, then the pixels near it): not the face's
    most common colour, which on a white die with a big red patch is the patch. Dividing by a per-channel plane
    fitted to those pixels makes the body (1, 1, 1) everywhere.

    The ink is where the face is darker than the body (or of another colour) AND at least HALF as dark as the
    darkest mark within INK_LOCAL pixels: the half-maximum outline of a stroke stays where it is when the photo
    is blurred, where a fixed threshold makes blurred strokes fat.
    """
    raw = top_face(crop_bgr, corners)
    face = cv2.GaussianBlur(raw, (0, 0), 0.7) + 4.0  # +4: dark bodies do not divide by noise
    body0 = _column_medians(face.reshape(-1, 3)[_RING_INDEX])
    rel0 = face / body0[None, None, :]
    c0, c1, c2 = rel0[..., 0], rel0[..., 1], rel0[..., 2]  # channel by channel: numpy reduces a last axis of 3 slowly
    is_body = (np.maximum(np.maximum(c0, c1), c2) < _NEAR) & (np.minimum(np.minimum(c0, c1), c2) > 1.0 / _NEAR) & _INNER
    if is_body.sum() < 0.15 * _INNER.sum():
        is_body = _INNER
    # a plane per channel fitted to the body's pixels: white balance and the lamp's gradient
    coef = _plane(is_body, np.ascontiguousarray(face.reshape(-1, 3).T))
    planes = (_DESIGN @ coef).reshape(FACE, FACE, 3).astype(np.float32)
    planes = np.maximum(planes, 0.15 * max(float(planes.mean()), 1.0))
    body_lum = (planes.reshape(-1, 3) @ _THIRDS).reshape(FACE, FACE, 1)
    dev, dl, chroma_dev, strength = _deviations(face, planes, body_lum)
    ink = np.clip((strength - INK_FROM) / INK_RAMP, 0.0, 1.0)
    if np.count_nonzero(ink[_CORE] > 0.5) >= MIN_INK * FACE * FACE:  # a marked face: look for faint coloured marks
        lit = _glare(face, body_lum)
        if lit is not None:  # the ink again, against the body as the glare lights it
            _, _, chroma_dev, strength = _deviations(face, planes * lit[..., None], body_lum * lit[..., None])
            ink = np.clip((strength - INK_FROM) / INK_RAMP, 0.0, 1.0)
        ink = np.maximum(ink, _faint_colour_marks(chroma_dev))
    peak = cv2.dilate(strength, _K_LOCAL)
    ink = np.minimum(ink, np.clip((strength / np.maximum(peak, INK_FROM + INK_RAMP) - HALF) / 0.25 + 0.5, 0.0, 1.0))
    bright = np.clip(dl, 0, 2.0)
    bright_print = np.clip(bright - cv2.GaussianBlur(bright, (0, 0), FACE * 0.08) - 0.15, 0.0, 1.0)
    ch = np.empty((FACE, FACE, 2), np.float32)
    ch[..., 0] = ink
    ch[..., 1] = bright_print
    ch[:_RIM] = ch[-_RIM:] = 0
    ch[:, :_RIM] = ch[:, -_RIM:] = 0
    tint = dev - dl[..., None]  # each pixel's colour apart from its brightness, body = 0
    _drop_side_marks(ch)
    # colour: the body at the face's centre (raw camera colour: for a colour die this IS the meaning), how much mark
    # and its colour relative to the body
    body = _unclipped_body(raw, face, is_body, planes[FACE // 2, FACE // 2]) - 4.0
    body = np.maximum(body, 2.0)
    # how much of the face is mark; 0 on a blank face (its faint traces have no colour worth comparing)
    frame = _mark_frame(ch)
    amount = float(ink.mean()) if frame is not None else 0.0
    core = (ink > 0.9) & _INNER  # the mark's colour on its solid part: edges blend with the body, glare washes out
    if core.sum() >= 6:
        mark_b, mark_r = (float(v) for v in _column_medians(tint[core][:, ::2]))  # the mark's colour
    else:
        mark_r = mark_b = 0.0
    colour = np.zeros(COLOUR_DIM, np.float32)
    colour[_BODY_DIMS] = _body_colour(body)
    colour[3:6] = amount, mark_r, mark_b
    return Canonical(ch, colour, frame)


CLIPPED = 250.0  # a channel this bright in the photo may have been brighter: the camera clipped it
UNCLIPPED_SHARE = 0.1  # of the face's inner part: the least body left unclipped to fit a channel's plane on
_CENTRE_ROW = _DESIGN[(FACE // 2) * FACE + FACE // 2]


def _unclipped_body(raw: np.ndarray, face: np.ndarray, is_body: np.ndarray, centre: np.ndarray) -> np.ndarray:
    """The body's colour at the face's centre (BGR, +4 as ``canonical``'s face), each channel's plane fitted again
    without the pixels where the camera clipped that channel.

    A bright orange cube clips its red channel at 255 while its green goes on rising with the light, so its
    clipped body is yellower than the cube, the more so the brighter the lamp (2-5 degrees of hue, of the 20 between
    orange and yellow: tests/test_taught_canonical.py). The lit body's unclipped part (the side the light gradient
    leaves darker) still holds the ratio; its plane, carried to the centre, gives the brightness the clipped pixels
    would have had. A channel clipped almost everywhere keeps its clipped plane: it says only that the channel is
    at least that bright, and such cubes are still asked about (docs/taught-dice.md, twenty-seventh session).
    ``face`` is the blurred face (+4), ``centre`` its body's plane there."""
    body = centre.copy()
    clipped = (raw >= CLIPPED) & is_body[..., None]
    least = UNCLIPPED_SHARE * _INNER.sum()
    for ch in np.flatnonzero(clipped.reshape(-1, 3).any(axis=0)):
        unclipped = is_body & ~clipped[..., ch]
        if unclipped.sum() < least:
            continue
        plane = _plane(unclipped, face[..., ch].reshape(1, -1))[:, 0]
        body[ch] = max(float(_CENTRE_ROW @ plane), float(body[ch]))
    return body


def _plane(mask: np.ndarray, values_t: np.ndarray) -> np.ndarray:
    """The least-squares plane (3 x C coefficients of ``_DESIGN``) of each row of ``values_t`` (C x FACE*FACE) over
    the pixels of ``mask``: its normal equations (3 x 3) summed by matrix-vector products (a 3 x 4096 x 3 matrix
    product, or selecting the pixels, was 3 times slower)."""
    weight = mask.reshape(-1).astype(np.float32)
    gram = (weight @ _GRAM).reshape(3, 3)
    return np.linalg.solve(gram, np.stack([values_t @ d for d in _DESIGN_T * weight]))


def _column_medians(a: np.ndarray) -> np.ndarray:
    """``np.median(a, axis=0)`` of an (N, C) array, the same values in a third of the time (one partition of the
    transposed columns: numpy's median of a short last axis is slow)."""
    cols = np.ascontiguousarray(a.T)
    n = cols.shape[1]
    k = n // 2
    if n % 2:
        return np.partition(cols, k, axis=1)[:, k]
    part = np.partition(cols, (k - 1, k), axis=1)
    return (part[:, k - 1] + part[:, k]) / 2


#: the colour vector's values that are the body's own colour (the rest are the mark's amount and colour, relative to
#: the body): its chromaticity (log red/green, log blue/green), its brightness and its opponent colour
_BODY_DIMS = [0, 1, 2, 6, 7]


def _body_colour(body: np.ndarray) -> np.ndarray:
    """The colour vector's body values (``_BODY_DIMS``) of one body colour (BGR) or of several (..., 3).

    The chromaticity with CHROMA_FLOOR added to each channel (a dark channel's noise must not swing its ratio: the
    blue of an orange die); the opponent colour (red against green, yellow against blue) over the brightness: its
    angle is the hue, its length the saturation. Light added to every channel alike (a glossy cube's sheen, a veil
    of lamp light) leaves the angle where it was; the channel ratios move with it (the blue of an orange cube)."""
    body = np.asarray(body, np.float64)
    b, g, r = body[..., 0], body[..., 1], body[..., 2]
    mean = (b + g + r) / 3.0
    m = np.maximum(mean, 8.0)
    return np.stack([np.log((r + CHROMA_FLOOR) / (g + CHROMA_FLOOR)), np.log((b + CHROMA_FLOOR) / (g + CHROMA_FLOOR)),
                     np.log(mean / 128.0), (r - g) / m, (r + g - 2.0 * b) / (np.sqrt(3.0) * m)], axis=-1)


def _body_of(colours: np.ndarray) -> np.ndarray:
    """The body colours (N x 3, BGR) that colour vectors (N x COLOUR_DIM) were made of: ``_body_colour`` undone
    from the chromaticity and brightness (exact, the floor of 2 per channel included)."""
    c = np.asarray(colours, np.float64)
    red, blue = np.exp(c[:, 0]), np.exp(c[:, 1])
    green = (384.0 * np.exp(c[:, 2]) + 3.0 * CHROMA_FLOOR) / (red + blue + 1.0)  # the green channel + CHROMA_FLOOR
    return np.stack([green * blue, green, green * red], axis=1) - CHROMA_FLOOR


def relit(colours: np.ndarray, gains: np.ndarray) -> np.ndarray:
    """Colour vectors (N x COLOUR_DIM) as their bodies would look with each channel of the light scaled by
    ``gains`` (N x 3, BGR): another lamp's colour and brightness. The mark's values are relative to the body and
    stay; a body brighter than the camera can show is clipped as the camera would clip it."""
    out = np.array(colours, np.float32, copy=True)
    body = np.clip(_body_of(colours) * gains, 2.0, 255.0)
    out[:, _BODY_DIMS] = _body_colour(body)
    return out


def table_light(frame_bgr: object) -> np.ndarray | None:
    """The colour of the light on the table (BGR): the median of a sparse sample of the frame; None for what is no
    frame (``vision.frame.as_bgr``). The tray or the table fills most of a frame, so this is the light it is lit by,
    as the camera sees it, and moves little when dice or a hand come in. What ``taught.Profile.under`` compares:
    the light an example was taught in with the light a die is read in."""
    frame = as_bgr(frame_bgr)
    if frame is None:
        return None
    step = max(1, min(frame.shape[:2]) // 60)
    return np.median(frame[::step, ::step].reshape(-1, 3), axis=0).astype(np.float32) + 1.0


def _deviations(face: np.ndarray, planes: np.ndarray, body_lum: np.ndarray
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """How the face differs from its body, pixel by pixel: per channel (``dev``), in brightness (``dl``), in colour
    apart from brightness (``chroma_dev``) and how strongly it is a mark (``strength``: darker, or another colour).

    Relative to the body, channel by channel (a lamp's colour scales each channel: the ratio does not change), but
    never relative to less than a third of the body's brightness (the blue of a yellow die is dark, and its noise
    must not look like a mark)."""
    dev = (face - planes) / np.maximum(planes, 0.33 * body_lum)
    flat = dev.reshape(-1, 3)
    dl = (flat @ _THIRDS).reshape(dev.shape[:2])  # the channels' mean (a matrix product: 3x faster than .mean)
    spread = np.maximum((flat * flat) @ _ONES3 - 3.0 * dl.ravel() ** 2, 0.0).reshape(dl.shape)  # sum (dev - dl)^2
    chroma_dev = np.sqrt(spread * 1.5) * (dl < 0.1)  # brighter + other colour: glare on a colour die
    dark = np.minimum(dl, 0.0)
    strength = np.sqrt(dark * dark + 0.5 * chroma_dev * chroma_dev).astype(np.float32)
    return dev, dl, chroma_dev, strength


_THIRDS = np.full(3, 1.0 / 3.0, np.float32)
_ONES3 = np.ones(3, np.float32)


GLARE_REACH = 11  # pixels (of FACE): the body within this reach of a mark's pixel sets how brightly it is lit there
GLARE_SOFT = 3.0  # the lit body's smoothing (pixels): glare is a soft blob


def _glare(face: np.ndarray, body_lum: np.ndarray) -> np.ndarray | None:
    """How much brighter than the body's plane the face is lit, pixel by pixel (>= 1), or None without glare.

    A lamp's reflection on a glossy die adds light to the body and the mark alike: a dark mark under it is lighter
    than the body's plane predicts, and measured against that plane it stops being ink (a ring seen broken, a
    disc with a bite out of it: the commonest reason a taught symbol was not recognised). The face's upper
    envelope (its brightest pixel within GLARE_REACH, smoothed) is the body as the glare lights it; marks wider
    than the reach keep the plane in their middle. Only on marked faces: on a blank colour cube the envelope
    would turn its shaded bevel into marks.
    """
    lum = (face.reshape(-1, 3) @ _THIRDS).reshape(face.shape[:2])
    envelope = cv2.GaussianBlur(cv2.dilate(lum, _K_GLARE), (0, 0), GLARE_SOFT)
    lit = np.clip(envelope / body_lum[..., 0], 1.0, None)
    lit[~_INNER] = 1.0
    return lit if float(lit.max()) > 1.0 else None


_K_GLARE = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (GLARE_REACH, GLARE_REACH))

CHROMA_FLOOR = 16.0  # added to each body channel before the channel ratios are taken
MARK_RADIUS = 0.22  # the mark's radius (MARK_SPREAD x its extent) on the grid, as a fraction of its side
MARK_SPREAD = 0.42  # radius per pixel of the mark's extent (about the RMS radius of a compact mark)
EXTENT_Q = 0.05  # the share of ink left out at each end of the extent (a speck of noise must not stretch it)
MIN_INK = 0.012  # a face with less mark than this (fraction of the face) is blank: a colour face
INK_FROM = 0.18  # darkening (or colour change) below this is shading (rim, printed frame, lamp), not a mark
INK_RAMP = 0.12  # from faint to full ink
CHROMA_FROM = 0.1  # a colour change from the body this strong is a faint coloured mark ...
CHROMA_AREA = 15  # ... when it is a solid patch of this many pixels away from the rim
INK_LOCAL = 13  # pixels (of FACE): the neighbourhood whose darkest mark sets a stroke's half-maximum
HALF = 0.5  # a stroke is where the face is at least this fraction as dark as the darkest mark nearby
_K_LOCAL = np.ones((INK_LOCAL, INK_LOCAL), np.uint8)


_BAND = _RIM + 2  # ink reaching this close to the face's edge comes from beyond the rim


def _faint_colour_marks(chroma_dev: np.ndarray) -> np.ndarray:
    """Ink for solid patches of another colour too faint for the ink threshold (darkness and colour together).

    A small red cross washed out by a lamp (pink on a pink-white body) is hardly darker than the body: without
    this an untaught "4+X" was read as the taught "4". Only on faces that already have a mark: on a blank colour
    cube the same test turned shading into marks (fritzo 99 -> 86-96 % right, measured)."""
    faint = np.clip((chroma_dev - CHROMA_FROM) / INK_RAMP, 0.0, 1.0).astype(np.float32)
    solid = (faint > 0.5).astype(np.uint8)
    solid[:_BAND + 2] = solid[-_BAND - 2:] = 0
    solid[:, :_BAND + 2] = solid[:, -_BAND - 2:] = 0
    n, labels = cv2.connectedComponents(solid, connectivity=8)  # the areas by bincount: OpenCV's stats cost more
    keep = np.bincount(labels.ravel(), minlength=n) >= CHROMA_AREA
    keep[0] = False
    return faint * keep[labels]


def _drop_side_marks(ch: np.ndarray) -> None:
    """Take out what the face's outline took in of the die's sides: thin strokes along its edge, then strips that
    turn a corner or touch the mark (``_drop_side_strips``).

    A mark is rarely a line hugging the edge; a side seen obliquely is exactly that when the outline is a few
    pixels too big. A stroke counts as a side when it reaches the rim and is long along the edge and thin across it.
    (Bits of a side face's pips cut by the rim were taken out too from the twelfth to the seventeenth session; the
    top-face net trained on marked sides no longer takes them in, and outlines some faces a little small, so the
    rule cut a real 2's pip off and named it "1": docs/taught-dice.md, "Marked sides".)
    """
    mask = ((ch[..., 0] + ch[..., 1]) > 0.5).astype(np.uint8)
    if mask[_RIM:_BAND + 1].any() or mask[FACE - _BAND - 1:].any() or mask[:, _RIM:_BAND + 1].any() or \
            mask[:, FACE - _BAND - 1:].any():  # else no stroke reaches the band along the edges (most faces)
        _drop_side_strokes(ch, mask)
    _drop_side_strips(ch)  # after: cut first, a thin stroke's remains would be too short to be taken out


def _drop_side_strokes(ch: np.ndarray, mask: np.ndarray) -> None:
    """``_drop_side_marks``' thin strokes along an edge; and hairlines near the rim, whatever their direction.

    A hairline is the edge between the top face and a side or the table, where the outline was found a few pixels
    too big: a line one or two pixels wide, slanted when the outline was, or bent round a corner, so its bounding
    box is not thin. Its mean width (``_hairline``) is; a mark's strokes are several pixels wide (the ink is their
    half-maximum outline). Such lines stretched the mark's extent, which sets its scale (``_mark_frame``), and a
    clean "4" seen from beside the tray was then far from every example (docs/taught-dice.md, thirty-fifth
    session)."""
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    for k in range(1, n):
        x, y, w, h, area = (int(v) for v in stats[k, :5])
        along_x = y <= _BAND or y + h >= FACE - _BAND  # touches the top or bottom edge
        along_y = x <= _BAND or x + w >= FACE - _BAND
        if (along_x and h <= SIDE_THIN * FACE and w >= SIDE_LONG * FACE) or \
                (along_y and w <= SIDE_THIN * FACE and h >= SIDE_LONG * FACE) or _hairline(labels, k, w, h, area):
            ch[cv2.dilate((labels == k).astype(np.uint8), _K3X3) > 0] = 0  # with its faint fringe


HAIRLINE = 2.5  # pixels (of FACE): a stroke at most this wide on average is an edge, not a mark ...
HAIR_LONG = 10.0  # ... when at least this long ...
HAIR_DEEP = 16  # ... nowhere further than this from the face's edge (pixels of FACE) ...
HAIR_BENDS = 1.1  # ... and no longer than this times its box's width and height: one line, or one round a corner


def _hairline(labels: np.ndarray, k: int, w: int, h: int, area: int) -> bool:
    """Whether component ``k`` (its box ``w`` x ``h``, ``area`` pixels) is a hairline along the rim: at most
    HAIRLINE pixels wide on average (its area over its length, the length being half its outline's), at least
    HAIR_LONG long, all of it within HAIR_DEEP of the face's edge, and one line, straight or bent round a corner (a
    small cross near a corner is as thin and as near the edge, but its four arms are longer than its box is wide and
    high)."""
    if area > HAIRLINE * (w + h):  # a line is at most w + h long: too wide whatever its shape (most marks)
        return False
    component = labels == k
    ys, xs = np.nonzero(component)
    if int(np.minimum(np.minimum(xs, FACE - 1 - xs), np.minimum(ys, FACE - 1 - ys)).max()) > HAIR_DEEP:
        return False
    contours, _ = cv2.findContours(component.astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    length = 0.5 * sum(cv2.arcLength(c, True) for c in contours)
    return HAIR_LONG <= length <= HAIR_BENDS * (w + h) and area <= HAIRLINE * length and _one_line(xs, ys, w, h)


HAIR_FLAT = 0.5  # a line's pixels spread at most this much across its main direction as along it


def _one_line(xs: np.ndarray, ys: np.ndarray, w: int, h: int) -> bool:
    """Whether pixels (``xs``, ``ys``, their box ``w`` x ``h``) lie along one line: straight or bent (their
    spread across their main direction at most HAIR_FLAT of their spread along it), or round a corner (nothing in
    the middle of their box). A small cross is neither: it spreads alike both ways and its arms meet in the middle.
    The length rule of ``_hairline`` does not tell them apart when the cross's arms are one pixel wide and short
    (a washed-out Echt Spitze cross of 10 x 9 pixels was taken out, and "?+X" named "?")."""
    x0, y0 = int(xs.min()), int(ys.min())
    middle = (np.abs(xs - x0 + 0.5 - 0.5 * w) < w / 6) & (np.abs(ys - y0 + 0.5 - 0.5 * h) < h / 6)
    if not middle.any():
        return True
    across, along = np.sqrt(np.maximum(np.linalg.eigvalsh(np.cov(np.stack([xs, ys]).astype(np.float64))), 0.0))
    return bool(across <= HAIR_FLAT * along)


STRIP_ALONG = 0.5  # a side strip runs along at least this share of an edge's middle ...
STRIP_DEEP = 0.2  # ... and reaches at most this far in from the rim (fraction of the face)
_EDGE_MIDDLE = slice(int(0.15 * FACE), int(0.85 * FACE))  # an edge without its corners, which two edges share
_EDGE_MIDDLE_TURNED = slice(FACE - _EDGE_MIDDLE.stop, FACE - _EDGE_MIDDLE.start)  # the same, counted backwards
_NO_INK_ROW = np.zeros((1, FACE), bool)


def _drop_side_strips(ch: np.ndarray) -> None:
    """Take out a strip of a side face that the outline took in: ink along most of an edge, from the rim inwards,
    and shallow.

    Seen from beside the tray, the net's outline of the top face often takes in a strip of the shaded side below
    it, and the strip is ink. ``_drop_side_marks`` judges a stroke by its bounding box, which is not thin when the
    strip turns a corner (two sides in view) or touches the mark. Here each edge is measured column by column: the
    run of ink from the rim inwards. Where such runs go on unbroken along half the edge's middle or more
    (STRIP_ALONG) and their median is shallow (STRIP_DEEP), the runs are cut at that median plus 2 pixels, so
    that a mark the strip touches keeps what lies beyond it. A mark meets the rim along a short part of an edge,
    or in pieces (a 6's row of pips outlined a little small: hence one unbroken run along the edge, not a share
    of it; with a share, real matteo-d6 dice lost two). Run after the thin-stroke rule, whose strokes it would
    otherwise cut to remains too short to be taken out. Measured on tuning seeds: rendered dice seen from the
    side 11 more of 2242 read right, none named wrongly; from above one fewer of 3493 (docs/taught-dice.md,
    "Seen from the side")."""
    ink = (ch[..., 0] + ch[..., 1]) > 0.5
    reach = int(STRIP_DEEP * FACE)
    rows = np.arange(reach + 1)[:, None]
    need = STRIP_ALONG * (_EDGE_MIDDLE.stop - _EDGE_MIDDLE.start)
    mid, turned_mid, inner = _EDGE_MIDDLE, _EDGE_MIDDLE_TURNED, FACE - 1 - _RIM
    # each edge's first row inside the rim, in the order of the quarter turns below: most faces have too little
    # ink there for a strip, and are done without turning anything (np.rot90 costs more than the rest)
    at_rim = (ink[_RIM, mid], ink[mid, inner], ink[inner, turned_mid], ink[turned_mid, _RIM])
    for k in range(4):  # each quarter turn brings another edge to the top
        if np.count_nonzero(at_rim[k]) < need:
            continue
        band = np.rot90(ink, k)[_RIM:_RIM + reach + 1]
        runs = np.argmin(np.vstack([band, _NO_INK_ROW]), axis=0)  # per column: ink rows from the rim inwards
        middle = runs[_EDGE_MIDDLE]
        along = middle > 0
        if _longest_run(along) < need:  # pips in a row along the edge have gaps
            continue
        depth = int(np.median(middle[along]))
        if depth > reach:  # solid ink deeper than a side: a mark that fills the face
            continue
        cut = np.minimum(runs, min(depth + 2, reach))
        np.rot90(ch, k)[_RIM:_RIM + reach + 1][rows < cut[None, :]] = 0


def _longest_run(flags: np.ndarray) -> int:
    """The length of the longest run of True in a 1-d array."""
    padded = np.concatenate([[0], flags.astype(np.int8), [0]])
    edges = np.flatnonzero(np.diff(padded))
    return int((edges[1::2] - edges[::2]).max()) if len(edges) else 0


SIDE_THIN = 0.15  # a side seen past the outline is at most this thick (fraction of the face) ...
SIDE_LONG = 0.3  # ... and at least this long along the edge (a small cross near a corner is not)


def _mark_frame(channels: np.ndarray) -> tuple[float, float, float] | None:
    """The mark's centre and radius on the face (pixels), or None for a blank face.

    The mark, not the face outline, sets the grid's position and scale: a die cut by the crop's edge or seen in
    perspective changes the outline found, not the mark. A small extra mark in a corner moves both, which only
    makes that face more different from the plain one, as it should be. The scale is the mark's extent (where its
    ink starts and ends along each axis, the same under quarter turns), not the face's outline (measured: the
    found outline varies more) nor the ink's RMS radius (measured: echt-spitze on tuning seed 202 went from
    91 to 98 % right with the extent, the other sets within a point).
    """
    w = channels[..., 0] + channels[..., 1]
    if np.count_nonzero(w[_CORE] > 0.5) < MIN_INK * FACE * FACE:  # faint traces (shading, noise), or only some
        return None  # rim where a side or the table leaked in, do not make a mark
    m = cv2.moments(w)
    cx, cy = m["m10"] / m["m00"], m["m01"] / m["m00"]
    x0, x1 = _extent(w.sum(axis=0))
    y0, y1 = _extent(w.sum(axis=1))
    r = MARK_SPREAD * (0.5 * ((x1 - x0) + (y1 - y0)) + 1.0)
    return cx, cy, max(r, 2.0)


def _extent(profile: np.ndarray) -> tuple[float, float]:
    """Where the ink's profile along one axis starts and ends (its EXTENT_Q and 1 - EXTENT_Q quantiles)."""
    c = np.cumsum(profile) / float(profile.sum())
    return float(np.searchsorted(c, EXTENT_Q)), float(np.searchsorted(c, 1.0 - EXTENT_Q))


def mark_grids(channels: np.ndarray, frame: tuple[float, float, float] | None, tilts: tuple[float, ...]) -> np.ndarray:
    """The ink and bright-print channels resampled on the GRID x GRID grid centred on the mark, scaled to its
    radius, once per tilt (degrees): (len(tilts), GRID, GRID, 2); zeros for a blank face."""
    if frame is None:
        return np.zeros((len(tilts), GRID, GRID, 2), np.float32)
    cx, cy, r = frame
    scale = MARK_RADIUS * GRID / r
    src = cv2.GaussianBlur(channels, (0, 0), max(0.5 / scale, 0.6))
    out = np.empty((len(tilts), GRID, GRID, 2), np.float32)
    for i, tilt in enumerate(tilts):
        mat = cv2.getRotationMatrix2D((cx, cy), tilt, scale)
        mat[0, 2] += GRID / 2 - 0.5 - cx
        mat[1, 2] += GRID / 2 - 0.5 - cy
        out[i] = cv2.warpAffine(src, mat, (GRID, GRID), flags=cv2.INTER_LINEAR).reshape(GRID, GRID, 2)
    return out


def with_edges(grids: np.ndarray) -> np.ndarray:
    """(M, H, W, 2) ink and bright grids -> (M, H, W, CHANNELS) with the ink's gradient added (after any
    rotation, so the gradient turns with the mark)."""
    ink = grids[..., 0]
    gx, gy = gradient(ink)
    return np.stack([ink, gx, gy, grids[..., 1]], axis=3)


def gradient(ink: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The ink's gradient across and down (M, H, W) grids, times GRADIENT_WEIGHT; 0 on the outermost cells."""
    gx = np.zeros_like(ink)
    gy = np.zeros_like(ink)
    gx[:, :, 1:-1] = (ink[:, :, 2:] - ink[:, :, :-2]) * GRADIENT_WEIGHT
    gy[:, 1:-1, :] = (ink[:, 2:, :] - ink[:, :-2, :]) * GRADIENT_WEIGHT
    return gx, gy


def describe(crop_bgr: np.ndarray) -> np.ndarray:
    """The descriptor of one die crop: the mark grid (SHAPE_DIM, upright as found) then colour (COLOUR_DIM)."""
    return descriptor(canonical(crop_bgr))


def descriptor(can: Canonical) -> np.ndarray:
    """``describe`` of a face already in the canonical frame (the matcher and the profile have it at hand)."""
    grid = with_edges(mark_grids(can.channels, can.frame, (0.0,))).ravel()
    return np.concatenate([grid, can.colour]).astype(np.float32)


def softness(crop_bgr: np.ndarray) -> float:
    """How blurred the die's top face is: the Gaussian's sigma (pixels of the canonical face) that makes the face's
    contrast fall as gently as its steepest edges do.

    Why at teaching: a soft example's tolerance is loose enough for the blur, so a sharp untaught look-alike passes
    as it (an Echt Spitze "7" as a "?" taught from a soft photo whose dot had run into its stroke: five of the seven
    untaught faces named on tuning seeds 909-1616, Echt Spitze seen from the side). A person would show such a die
    again. A step of contrast C blurred by a Gaussian of sigma s is at its steepest C / (s sqrt(2 pi)),
    so s = C / (slope sqrt(2 pi)); C is the face's range of brightness (3rd to 90th percentile: a speck or a glint
    does not set it) and the slope its steepest edges' (99.5th percentile), both inside the rim, where the table
    and the sides do not reach. Colour faces are not measured: they have no edges, and blur does not move a colour.
    """
    lum = top_face(crop_bgr).mean(axis=2)
    gx = cv2.Sobel(lum, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(lum, cv2.CV_32F, 0, 1, ksize=3)
    inner = (slice(_RIM, FACE - _RIM), slice(_RIM, FACE - _RIM))
    slope = float(np.percentile(np.hypot(gx, gy)[inner], 99.5)) / 8.0  # the 3x3 Sobel weighs a step 8 times
    low, high = np.percentile(lum[inner], [3, 90])
    return float(high - low) / max(slope, 1e-3) / math.sqrt(2.0 * math.pi)


def side_descriptors(crops: np.ndarray) -> np.ndarray | None:
    """Each CROP x CROP crop described along the side net's outline (``taught.Profile.side``); None without the net."""
    if side_net() is None:
        return None
    return np.array([descriptor(canonical(c, side_corners(c))) for c in crops], np.float32).reshape(-1, DIM)
