"""The sentences that tell the table to take steps back: "hold UNDO" alone asked a table with the touch screen
alone for what a finger could not do; each names the menu's "Undo the last step" too (the ≡ corner, "UNDO menu").
The ≡ itself is no word for it: the bundled font has no glyph for it (nor for →), and drew a box."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pygame
import pytest

from companion.i18n import t
from companion.views import theme

#: the sentences that send the table back a step (the catalogs' keys) and their parameters
BACK_SENTENCES = {
    "nxm.ui.pick_settled": {"player": "Anna"},
    "nxm.err.correct_over": {"roll": 3},
    "nxm.err.goal_taken_last_roll": {"players": "Anna, Ben", "goal": "A", "roll": 3},
    "nxm.err.goal_taken_pink_only_last_roll": {"players": "Anna, Ben", "goal": "A", "roll": 3},
    "fritzo.err.out_already": {"cube": 2},
}


@pytest.mark.parametrize("lang", ["de", "en"])
@pytest.mark.parametrize("key", sorted(BACK_SENTENCES))
def test_a_step_back_is_said_for_buttons_and_for_a_finger(key, lang):
    said = t(key, lang, **BACK_SENTENCES[key])
    assert t("core.btn_undo", lang) in said  # the button, held
    assert t("core.hint_menu", lang).lower() in said.lower()  # the menu (the ≡ corner, "UNDO menu")
    # ... and what it is called there ("Undo the last step", "Letzten Schritt zurücknehmen")
    assert any(word.lower() in said.lower() for word in t("core.pause_undo", lang).split() if len(word) > 3)


def test_the_bundled_font_has_no_menu_sign():
    """Why the sentences say "menu", not "≡": the font draws the sign as the box it draws for any missing glyph (the
    fallback font, DejaVu Sans Bold, has it, but a kiosk without fonts-dejavu-core draws the bundled font alone)."""
    pygame.font.init()
    font = pygame.font.Font(None, theme.font(theme.BODY).px)  # the bundled font alone
    missing = pygame.image.tobytes(font.render("\uffff", True, (255, 255, 255)), "RGBA")
    assert pygame.image.tobytes(font.render("≡", True, (255, 255, 255)), "RGBA") == missing
    assert pygame.image.tobytes(font.render("U", True, (255, 255, 255)), "RGBA") != missing
