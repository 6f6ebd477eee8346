"""Colour faces as a swatch with a pattern and the colour's name, never the hue alone.

About one man in twelve cannot tell red from green or orange from yellow, so every colour a die can show gets its
own pattern (stripes, dots, checks...) drawn in a contrasting ink, and its name, big enough to read across the table.
Game screens call :func:`draw_face` for any taught face; numerals and symbols are drawn as their label on a die.
"""

from __future__ import annotations

import functools
import math

import pygame

from companion.dicesets import PATTERNS, DiceSet, colour_style
from companion.i18n import MissingTranslation, t
from companion.views import theme


def face_label(face: object, lang: str = "de", dice_set: DiceSet | None = None) -> str:
    """What the screen calls a face: "Rot", "3 mit Extrakreuz", "Tiere"; an unnamed id is shown as it is."""
    if face is None:
        return "?"
    name = str(face)
    for key in (f"dice.colour.{name}", f"dice.face.{name}"):
        try:
            return t(key, lang)
        except MissingTranslation:
            pass
    marks = dice_set.marks if dice_set is not None else ("+X",)
    for m in marks:
        if name.endswith(m) and len(name) > len(m):
            try:
                return f"{face_label(name[: -len(m)], lang, dice_set)} {t(f'dice.mark.{m}', lang)}"
            except MissingTranslation:
                return name
    return name


def ink_on(rgb: tuple[int, int, int]) -> tuple[int, int, int]:
    """Black on light colours, white on dark ones: the pattern and name must stand out on any swatch."""
    lum = 0.299 * rgb[0] + 0.587 * rgb[1] + 0.114 * rgb[2]
    return (20, 20, 20) if lum > 140 else (245, 245, 245)


def draw_pattern(surface: pygame.Surface, rect: pygame.Rect, pattern: str, ink: tuple[int, int, int]) -> None:
    """Fill ``rect`` with ``pattern`` lines or marks in ``ink``.

    The marks are drawn once for a size, pattern and ink and kept as a tile (its ground see-through): Fritzo drew
    45 to 84 patterned squares a frame, mark by mark, every frame. The tile is the rect's size, so it stays inside
    the rect without a clip of its own (which would have widened a caller's tighter one)."""
    rect = pygame.Rect(rect)
    if rect.w <= 0 or rect.h <= 0 or pattern not in MARKED:  # "plain" (or a pattern not known): no marks
        return
    surface.blit(_pattern_tile(rect.size, pattern, tuple(ink)), rect)


#: the share of its square the dots cover from 40 px, below and below 16 px: a screen insets the pattern by a few
#: pixels, a larger part of a small swatch (a 15 px swatch's pattern is 9 px square)
DOTS_COVER = (0.3, 0.35, 0.5)

#: the patterns that draw marks ("plain" draws none: its name tells it apart)
MARKED = frozenset(PATTERNS) - {"plain"}


@functools.lru_cache(maxsize=256)
def _pattern_tile(size: tuple[int, int], pattern: str, ink: tuple[int, ...]) -> pygame.Surface:
    """The marks of ``pattern`` on a tile of ``size``, its ground a colour key (the ink turned over, never the ink):
    what is drawn is the ink alone, copied exactly where the marks are."""
    ground = tuple(255 - c for c in ink[:3])
    tile = pygame.Surface(size)
    tile.fill(ground)
    tile.set_colorkey(ground)
    _draw_marks(tile, tile.get_rect(), pattern, ink)
    return tile


def _draw_marks(surface: pygame.Surface, rect: pygame.Rect, pattern: str, ink: tuple[int, ...]) -> None:
    """The marks of ``pattern`` over ``rect``, which is all of ``surface`` (its edges clip them)."""
    # a step to the square's size: a 14 px face of a cube's net showed one mark of its pattern (yellow's checks a
    # notch, orange's dots one dot), and a plain white beside it
    step = max(10, rect.w // 6) if min(rect.w, rect.h) >= 40 else max(5, min(rect.w, rect.h) // 3)
    w = max(2, rect.w // 30)
    if pattern == "stripes":
        for x in range(rect.x + step // 2, rect.right, step):
            pygame.draw.line(surface, ink, (x, rect.y), (x, rect.bottom), w)
    elif pattern == "diagonal":
        for k in range(-rect.h, rect.w, step):
            pygame.draw.line(surface, ink, (rect.x + k, rect.bottom), (rect.x + k + rect.h, rect.y), w)
    elif pattern == "dots":
        # fewer, bigger dots in a small square: 2x2 px specks covered 6 % of a 15-30 px swatch (the other patterns
        # 23-48 %), and orange, which only its dots tell from green for a red-blind eye or in grey, read as plain
        small = min(rect.w, rect.h) < 40
        pitch, cover = (11, DOTS_COVER[1 + (min(rect.w, rect.h) < 16)]) if small else (step, DOTS_COVER[0])
        # (two a side from 12 px: a 14 px face of Fritzo's chooser showed one mark, a pattern of none)
        nx, ny = (max(1 + (side >= 12), round(side / pitch)) for side in (rect.w, rect.h))
        cell_w, cell_h = rect.w / nx, rect.h / ny
        room = min(cell_w - (2 if nx > 1 else 0), cell_h - (2 if ny > 1 else 0)) // 2  # 2 px between dots
        r = int(max(2, min(room, round((cover * cell_w * cell_h / math.pi) ** 0.5))))
        for j in range(ny):
            for i in range(nx):
                centre = (rect.x + int((i + 0.5) * cell_w), rect.y + int((j + 0.5) * cell_h))
                pygame.draw.circle(surface, ink, centre, r)
    elif pattern == "checks":
        for i, y in enumerate(range(rect.y, rect.bottom, step)):
            for j, x in enumerate(range(rect.x, rect.right, step)):
                if (i + j) % 2:
                    surface.fill(ink, pygame.Rect(x, y, step, step).clip(rect))
    elif pattern == "grid":
        for x in range(rect.x + step // 2, rect.right, step):
            pygame.draw.line(surface, ink, (x, rect.y), (x, rect.bottom), w)
        for y in range(rect.y + step // 2, rect.bottom, step):
            pygame.draw.line(surface, ink, (rect.x, y), (rect.right, y), w)
    elif pattern == "waves":
        for y in range(rect.y + step // 2, rect.bottom, step):
            pts = [(x, y + (max(1, step // 4) if ((x - rect.x) // (step // 2)) % 2 else -max(1, step // 4)))
                   for x in range(rect.x, rect.right + step // 2, step // 2)]  # (its phase the square's own)
            pygame.draw.lines(surface, ink, False, pts, w)
    elif pattern == "cross":
        pygame.draw.line(surface, ink, rect.topleft, rect.bottomright, w * 3)
        pygame.draw.line(surface, ink, rect.bottomleft, rect.topright, w * 3)
    # "plain": no marks; its name tells it apart


def draw_colour_face(surface: pygame.Surface, rect: pygame.Rect, face: str, lang: str = "de",
                     dice_set: DiceSet | None = None, *, selected: bool = False) -> None:
    """A colour face: swatch, its pattern, a name plate in the lower part of the swatch."""
    style = colour_style(face, dice_set) or ((128, 128, 128), "plain")
    rgb, pattern = style
    pygame.draw.rect(surface, rgb, rect, border_radius=max(4, rect.w // 8))
    draw_pattern(surface, rect.inflate(-rect.w // 8, -rect.h // 8), pattern, ink_on(rgb))
    label = face_label(face, lang, dice_set)
    plate_h = max(theme.SMALL + 8, rect.h // 3)
    plate = pygame.Rect(rect.x, rect.bottom - plate_h, rect.w, plate_h)
    pygame.draw.rect(surface, (20, 20, 24), plate, border_bottom_left_radius=max(4, rect.w // 8),
                     border_bottom_right_radius=max(4, rect.w // 8))
    size = theme.fit_text(label, theme.BODY, rect.w - 8)
    theme.text(surface, label, plate.center, size, theme.TEXT, bold=True, anchor="center")
    pygame.draw.rect(surface, theme.ACCENT if selected else theme.MUTED, rect, width=4 if selected else 2,
                     border_radius=max(4, rect.w // 8))


def draw_face(surface: pygame.Surface, rect: pygame.Rect, face: object, lang: str = "de",
              dice_set: DiceSet | None = None, *, selected: bool = False) -> None:
    """Any taught face: colour faces as patterned swatches, others as their label on a die; None as unknown."""
    if face is not None and colour_style(str(face), dice_set) is not None and (
            dice_set is None or dice_set.kind_of(str(face)) == "colour"):
        draw_colour_face(surface, rect, str(face), lang, dice_set, selected=selected)
        return
    body = theme.UNKNOWN if face is None else theme.DIE_BODY
    pygame.draw.rect(surface, body, rect, border_radius=max(4, rect.w // 8))
    label = face_label(face, lang, dice_set)
    size = theme.fit_text(label, theme.LARGE, rect.w - 10)
    theme.text(surface, label, rect.center, size, theme.DIE_PIP, bold=True, anchor="center")
    pygame.draw.rect(surface, theme.ACCENT if selected else theme.MUTED, rect, width=4 if selected else 2,
                     border_radius=max(4, rect.w // 8))
