"""The hint bar: which button does what now, read across the table; and where a game screen says UNDO is the menu."""

from __future__ import annotations

import pygame
import pytest

from companion.views import theme
from companion.views.widgets import HINT_ROOM, _hints_width, hint_bar, with_menu


@pytest.mark.parametrize("lang, undo, menu", [("de", "ZURÜCK", "Menü"), ("en", "UNDO", "menu")])
def test_a_game_screen_that_leaves_undo_to_the_app_says_it_opens_the_menu(lang, undo, menu):
    roll = [("ROLL", "roll")]
    assert with_menu(roll, lang) == [*roll, (undo, menu)]


def test_a_screen_that_uses_undo_itself_or_shows_nothing_is_left_as_it_is():
    back = [("WEITER", "bewegen"), ("ZURÜCK", "zurück")]
    assert with_menu(back, "de") == back  # "back" in a sub-menu: UNDO is the screen's own there
    assert with_menu([], "de") == []  # a finished game: the app draws its own line


def test_the_menu_hint_is_added_only_where_the_line_stays_at_full_size():
    long = [("WÜRFELN", "alle werfen"), ("WEITER", "nächster Würfel"), ("WÄHLEN", "diesen nehmen")]
    assert _hints_width(long, theme.SMALL) <= HINT_ROOM  # fits as it is ...
    assert _hints_width([*long, ("ZURÜCK", "Menü")], theme.SMALL) > HINT_ROOM  # ... but not with the menu
    assert with_menu(long, "de") == long
    surface = pygame.Surface(theme.DESIGN_SIZE)
    rects = hint_bar(surface, with_menu(long, "de"))
    assert len(rects) == 3 and rects[-1].right <= theme.DESIGN_SIZE[0]


@pytest.mark.parametrize("size", [theme.SMALL, 14])
def test_a_framed_hints_finger_room_starts_at_its_frame_and_every_frame_is_as_tall(size):
    """The finger room started at the bar's top, 2 to 5 px above the frame (more above "UHR" than above "ZURÜCK",
    whose Ü made its frame taller): a finger aimed low at the row over the bar pressed the hint unseen."""
    from companion.views.widgets import hint_button

    surface = pygame.Surface(theme.DESIGN_SIZE)
    surface.fill(theme.BG)
    rects = hint_bar(surface, [("UHR", "drehen"), ("ZURÜCK", "Menü")])
    if size != theme.SMALL:  # as the bar draws hints it shrinks to fit
        rects = [pygame.Rect(r.x, r.y + 1, r.w, r.h * size // theme.SMALL) for r in rects]
    rooms = [hint_button(surface, r) for r in rects]
    assert len({(room.top, room.bottom) for room in rooms}) == 1
    for room in rooms:
        assert surface.get_at((room.centerx, room.top))[:3] == theme.MUTED  # the frame's top line
        assert surface.get_at((room.centerx, room.top - 1))[:3] == theme.BG
        assert room.bottom == theme.DESIGN_SIZE[1]  # a finger low at the panel's edge still presses it
