"""Colour faces' patterns are drawn once for a size and kept: Fritzo drew 45 to 84 patterned squares a frame."""

from __future__ import annotations

import pygame
import pytest

from companion.dicesets import PATTERNS
from companion.views import colour_faces
from companion.views.colour_faces import draw_colour_face, draw_pattern

MARKED = sorted(set(PATTERNS) - {"plain"})


def _marked_one_by_one(surface: pygame.Surface, rect: pygame.Rect, pattern: str, ink) -> None:
    """How the marks were drawn before they were kept: on the surface itself, mark by mark, clipped to ``rect``
    within the caller's clip (a swatch half outside a scrolled list's clip must not draw over its neighbours)."""
    old_clip = surface.get_clip()
    surface.set_clip(rect.clip(old_clip))
    colour_faces._draw_marks(surface, rect, pattern, ink)
    surface.set_clip(old_clip)


def _ground() -> pygame.Surface:
    surface = pygame.Surface((160, 120))
    surface.fill((214, 40, 40))
    surface.set_clip(pygame.Rect(2, 2, 120, 100))  # a caller's clip: given back as it was
    return surface


@pytest.mark.parametrize("pattern", [*MARKED, "plain"])
@pytest.mark.parametrize("ink", [(20, 20, 20), (245, 245, 245)])
def test_a_kept_pattern_has_the_pixels_of_one_drawn_mark_by_mark(pattern, ink):
    """Every size a screen draws (a cube net's 8 px side band to a 96 px named face), anywhere on the surface, also
    over its edge: the same pixels as the marks drawn one by one, and the caller's clip given back."""
    for size in ((6, 6), (8, 30), (13, 13), (20, 20), (38, 38), (40, 41), (57, 57), (88, 60)):
        for at in ((0, 0), (7, 3), (140, 100), (-5, -4)):
            rect = pygame.Rect(at, size)
            kept, drawn = _ground(), _ground()
            draw_pattern(kept, rect, pattern, ink)
            draw_pattern(kept, rect, pattern, ink)  # drawn from the kept tile the second time
            _marked_one_by_one(drawn, rect, pattern, ink)
            assert kept.get_clip() == drawn.get_clip() == pygame.Rect(2, 2, 120, 100)
            assert pygame.image.tobytes(kept, "RGB") == pygame.image.tobytes(drawn, "RGB"), (size, at)


def test_the_marks_are_drawn_once_for_a_size_a_pattern_and_an_ink(monkeypatch):
    """Fritzo's placing screen drew 45 squares' patterns line by line every frame: a square drawn again at the same
    size, pattern and ink is the kept tile; another size or ink is drawn anew."""
    if hasattr(colour_faces, "_pattern_tile"):
        colour_faces._pattern_tile.cache_clear()  # drawn by no earlier test
    lines = []
    real_line = pygame.draw.line
    monkeypatch.setattr(pygame.draw, "line", lambda *a, **k: (lines.append(a[3:4]), real_line(*a, **k))[1])
    surface = pygame.Surface((200, 200))
    for frame in range(5):
        for x in (0, 50, 100):  # three squares of one size a frame
            draw_pattern(surface, pygame.Rect(x, 10, 30, 30), "stripes", (20, 20, 20))
        if frame == 0:
            once = len(lines)
    assert once > 0 and len(lines) == once
    draw_pattern(surface, pygame.Rect(0, 60, 31, 30), "stripes", (20, 20, 20))
    draw_pattern(surface, pygame.Rect(0, 100, 30, 30), "stripes", (245, 245, 245))
    assert len(lines) > once


def test_a_named_face_keeps_its_rounded_corners_and_what_stands_behind_them():
    """A named face (its swatch's corners rounded, its name on a plate): the corners show what was under them, the
    pattern inside the swatch only, the same however often it is drawn."""
    surface = pygame.Surface((200, 200))
    surface.fill((18, 22, 30))
    rect = pygame.Rect(40, 40, 96, 96)
    draw_colour_face(surface, rect, "red", "de")
    first = pygame.image.tobytes(surface, "RGB")
    draw_colour_face(surface, rect, "red", "de")
    assert pygame.image.tobytes(surface, "RGB") == first
    assert surface.get_at(rect.topleft)[:3] == (18, 22, 30)  # the rounded corner: the ground, not a pattern's ink
    assert surface.get_at((rect.right - 1, rect.y))[:3] == (18, 22, 30)
    assert surface.get_at((rect.x - 1, rect.centery))[:3] == (18, 22, 30)  # nothing drawn outside the face
