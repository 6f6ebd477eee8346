"""One convention for the players' names a line is not broken inside: every fitting helper takes the names alone and
expands them (``theme.kept_whole``). A screen drawn with the names alone draws what it drew when its caller expanded
them (the old convention of ``fit_lines``, ``even_lines``, ``wrap`` and Echt Spitze's ``row_lines``)."""

from __future__ import annotations

import pygame
import pytest

from companion import app
from companion.i18n import t
from companion.views import theme
from companion.views.echt_spitze_view import MENU_ROW, ReportsMenu
from companion.views.widgets import MenuItem
from tests.drawn_texts import recording_texts

SIX = ["Großvater Johannes", "Großmutter Hildegard", "Maximilian-Alexander", "Anna-Sophie Müller",
       "Großmutter Helga", "Großmutter Hilde"]


@pytest.fixture(autouse=True)
def fonts():
    pygame.font.init()


def _forms(players: list[str]) -> list[str]:
    return list(dict.fromkeys(f for n in players for f in (n, theme.short_name(n), theme.table_short_name(n, players))))


def _drawn(monkeypatch, draw) -> list[tuple[str, int, pygame.Rect]]:
    with recording_texts(monkeypatch) as drawn:
        draw(pygame.Surface(theme.DESIGN_SIZE))
    return drawn


@pytest.mark.parametrize("largest", [theme.BODY, theme.FAR])
def test_a_notice_naming_six_long_names_draws_the_same_given_the_names_alone_or_expanded(monkeypatch, largest):
    forms = _forms(SIX)
    messages = [f"{a} hat schon {b}: nimm einen anderen." for a in forms[:6] for b in forms[6:]]
    assert len(messages) >= 30
    for message in messages:
        alone, expanded = (_drawn(monkeypatch, lambda s, names=names, message=message: app._draw_notice(
            s, message, names=names, largest=largest)) for names in (SIX, theme.kept_whole(SIX)))
        assert alone == expanded and alone, message


@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_report_menu_draws_the_same_given_the_names_alone_or_expanded(monkeypatch, lang):
    labels = [t("echt.view.reported_player", lang, player=form, report="Zitronen, Melonen, Bienennest 2-2")
              for form in _forms(SIX)]
    for label in labels:
        for width in range(120, 480, 60):
            def draw(surface, names, label=label, width=width):
                ReportsMenu(pygame.Rect(0, 0, width + 30, 3 * MENU_ROW), [MenuItem(label, "x")], lambda value: None,
                            None, row_h=MENU_ROW, size=theme.BODY, names=names).draw(surface)
            alone = _drawn(monkeypatch, lambda s, draw=draw: draw(s, tuple(SIX)))
            assert alone == _drawn(monkeypatch, lambda s, draw=draw: draw(s, theme.kept_whole(SIX))), (label, width)
