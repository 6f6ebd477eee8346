"""Full-screen menus: the small line above a menu's title (a setup question's "1/3", "The game is saved")."""

from __future__ import annotations

import numpy as np
import pygame

from companion.views import theme
from companion.views.menus import MenuMode
from companion.views.widgets import MenuItem


def test_the_subtitle_stands_above_the_title_not_on_it(out_dir):
    pygame.init()
    mode = MenuMode("How many are playing?", [MenuItem("4: Anna, Ben, Carla, David", 4)], lambda v: None,
                    lang="en", subtitle="1/3")
    with_line, without = pygame.Surface((800, 480)), pygame.Surface((800, 480))
    mode.draw(with_line)
    pygame.image.save(with_line, str(out_dir / "menu_subtitle.png"))
    mode.subtitle = ""
    mode.draw(without)
    line = np.any(pygame.surfarray.array3d(with_line) != pygame.surfarray.array3d(without), axis=2)
    title = np.all(pygame.surfarray.array3d(without) == np.array(theme.ACCENT, np.uint8), axis=2)
    line_rows, title_rows = np.nonzero(line.any(axis=0))[0], np.nonzero(title.any(axis=0))[0]
    assert line_rows.size and title_rows.size
    assert line_rows.max() < title_rows.min()


def test_a_word_with_an_umlaut_stands_on_the_same_line_as_its_neighbours():
    """A row of hints ("WEITER bewegen  WÄHLEN auswählen  ZURÜCK zurück") drawn at one y: the renderer puts a word
    whose capital carries dots 2-3 pixels lower, unless the text is lifted back."""
    pygame.init()

    def baseline(word: str) -> int:
        surface = pygame.Surface((200, 60))
        theme.text(surface, word, (10, 20), theme.SMALL, (255, 255, 255), bold=True)
        return int(np.nonzero(pygame.surfarray.array3d(surface)[..., 0].max(axis=0) > 128)[0].max())

    assert baseline("ZURÜCK") == baseline("ZURUCK") == baseline("WEITER") == baseline("WÄHLEN")
