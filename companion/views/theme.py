"""Colours, fonts and sizes shared by every screen, chosen to be readable from two metres on a 7" display.

Screens are laid out on a 800x480 design canvas (the Pi touch display); larger windows get the canvas scaled.
"""

from __future__ import annotations

import functools

import pygame

DESIGN_SIZE = (800, 480)

BG = (18, 22, 30)
PANEL = (34, 40, 54)
PANEL_HI = (58, 68, 92)
TEXT = (240, 240, 235)
MUTED = (160, 166, 180)
ACCENT = (255, 196, 0)
GOOD = (80, 200, 120)
WARN = (255, 140, 0)
BAD = (235, 70, 70)
UNKNOWN = (255, 0, 200)  # a die the reader is not sure of: loud on purpose
DIE_BODY = (250, 248, 240)
DIE_PIP = (20, 20, 20)

# Sizes in design pixels. 28 px on the 7" panel is about 6 mm cap height: readable across a table.
SMALL = 22
BODY = 28
LARGE = 40
HUGE = 72


@functools.cache
def font(size: int, bold: bool = False) -> pygame.font.Font:
    """pygame-ce's bundled font (no system font lookup: the Pi kiosk may have none).

    The bundled font is FreeSans Bold already; ``bold`` is accepted for the callers' intent but adds nothing,
    because SDL's synthetic bold on top of it smears German umlaut dots into a bar (Ü looked like Ū).
    """
    if not pygame.font.get_init():
        pygame.font.init()
    return pygame.font.Font(None, int(size * 1.25))  # the bundled font runs small for its nominal size


def text(surface: pygame.Surface, s: str, pos: tuple[int, int], size: int = BODY, color=TEXT, *,
         bold: bool = False, anchor: str = "topleft") -> pygame.Rect:
    """Draw ``s`` with its ``anchor`` point (a pygame.Rect attribute name) at ``pos``; return the rect drawn."""
    f = font(size, bold)
    img = f.render(s, True, color)
    rect = img.get_rect(**{anchor: pos}).move(0, -accent_lift(f, s))
    surface.blit(img, rect)
    return rect


def accent_lift(f: pygame.font.Font, s: str) -> int:
    """How far a line is rendered lower because a glyph rises above the font's ascent ("ZURÜCK", "WÄHLEN"): the
    renderer adds that many rows on top, so without lifting it back such words sit 2-3 pixels below their
    neighbours in a row of hints."""
    tops = [m[3] for m in f.metrics(s) if m]
    return max(0, max(tops, default=0) - f.get_ascent())


def fit_text(s: str, size: int, max_width: int, bold: bool = False) -> int:
    """The largest font size <= ``size`` at which ``s`` fits ``max_width`` design pixels."""
    while size > 12 and font(size, bold).size(s)[0] > max_width:
        size -= 2
    return size


def fit_lines(s: str, size: int, max_width: int) -> tuple[list[str], int]:
    """``s`` on one line fitted to ``max_width``, or on two split at a space near the middle where one line would
    shrink below SMALL (a notice, a note: read across the table); and the size the lines are drawn at."""
    one = fit_text(s, size, max_width)
    cut = s.rfind(" ", 0, len(s) // 2 + 10)
    if one >= SMALL or cut <= 0:
        return [s], one
    lines = [s[:cut], s[cut + 1:]]
    return lines, min(fit_text(line, size, max_width) for line in lines)
