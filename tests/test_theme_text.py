"""``theme.text`` keeps what it rendered: every screen draws the same lines every frame."""

from __future__ import annotations

import itertools

import pygame
import pytest

from companion.views import theme

_unique = itertools.count()


@pytest.fixture(autouse=True)
def fonts():
    pygame.font.init()


class _CountingFont:
    """A font that counts its renders (pygame's Font is a C type: its methods cannot be patched on it)."""

    def __init__(self, real: pygame.font.Font, renders: list[str]) -> None:
        self.real, self.renders = real, renders

    def render(self, s, *args):
        self.renders.append(s)
        return self.real.render(s, *args)

    def __getattr__(self, name):
        return getattr(self.real, name)


def _fresh(s: str, size: int, color, bold: bool = False) -> tuple[pygame.Surface, pygame.Rect]:
    """What the old ``text`` drew: a new rendering, lifted by its accents, on a surface of its own."""
    surface = pygame.Surface((400, 120))
    surface.fill(theme.PANEL)
    f = theme.font(size, bold)
    img = f.render(s, True, color)
    rect = img.get_rect(center=(200, 60))
    rect.move_ip(0, -min(theme.accent_lift(f, s), max(0, rect.top)))
    surface.blit(img, rect)
    return surface, rect


def test_a_line_drawn_every_frame_is_rendered_once_with_the_same_pixels(monkeypatch):
    """A screen drew its 25 to 56 lines anew every frame (a quarter to two fifths of a text-heavy frame): the same
    line at the same size and colour is rendered once, and every frame shows the pixels a fresh rendering gave,
    its umlauts lifted as before."""
    line = f"ZURÜCK Özlem {next(_unique)}"  # a line no other test drew: the kept renderings are shared
    expected, expected_rect = _fresh(line, theme.FAR, theme.ACCENT)
    renders: list[str] = []
    real_font = theme.font
    monkeypatch.setattr(theme, "font", lambda size, bold=False: _CountingFont(real_font(size, bold), renders))
    for _ in range(5):
        surface = pygame.Surface((400, 120))
        surface.fill(theme.PANEL)
        rect = theme.text(surface, line, (200, 60), theme.FAR, theme.ACCENT, anchor="center")
        assert rect == expected_rect
        assert pygame.image.tobytes(surface, "RGB") == pygame.image.tobytes(expected, "RGB")
    assert renders == [line]


@pytest.mark.parametrize(("size", "color", "bold"), [
    (theme.BODY, theme.TEXT, False), (theme.LARGE, theme.TEXT, False), (theme.BODY, theme.BAD, False),
    (theme.BODY, theme.TEXT, True), (theme.BODY, pygame.Color(*theme.GOOD), False), (theme.BODY, [20, 20, 20], False),
])
def test_the_same_words_at_another_size_or_colour_are_not_taken_for_the_kept_ones(size, color, bold):
    """Kept by words, size, colour and boldness: a winner's name in green is not the red one drawn before; a
    colour given as a pygame.Color or a list (unhashable) is drawn as before."""
    line = "Großvater Jürgen"
    theme.text(pygame.Surface((400, 120)), line, (200, 60), theme.BODY, theme.TEXT, anchor="center")  # kept first
    surface = pygame.Surface((400, 120))
    surface.fill(theme.PANEL)
    rect = theme.text(surface, line, (200, 60), size, color, bold=bold, anchor="center")
    expected, expected_rect = _fresh(line, size, color, bold)
    assert rect == expected_rect
    assert pygame.image.tobytes(surface, "RGB") == pygame.image.tobytes(expected, "RGB")
