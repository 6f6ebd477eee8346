"""The player bar (``widgets.PlayerBar``, Echt Spitze's top row): whose turn it is is read by the whole table, so
every name stands at FAR or larger where the bar can hold it so, and no two players' names read alike."""

from __future__ import annotations

import pygame
import pytest
from drawn_texts import recording_texts
from test_echt_spitze_view import crossing

from companion.i18n import t
from companion.views import theme
from companion.views.echt_spitze_view import BAR
from companion.views.widgets import PlayerBar

LONG = ["Maximilian", "Großmutter Helga", "Anne-Marie", "Christopher"]
GRANDMOTHERS = ["Großmutter Helga", "Großmutter Hilde", "Maximilian", "Anna"]


def bar_names(tmp_path, monkeypatch, lang: str, players: list[str]) -> list[tuple[str, int, pygame.Rect]]:
    """The names Echt Spitze's bar draws while crossing, left to right, as (label, size, rect)."""
    s, mode = crossing(tmp_path, lang, players)
    mode.update(0.03, 0.0)
    with recording_texts(monkeypatch) as drawn:
        mode.draw(pygame.Surface(theme.DESIGN_SIZE))
    notes = {line for side in ("front", "back") for holes in range(3)
             for note in [t("echt.view.note", lang, side=t(f"echt.view.side_{side}", lang), holes=holes)]
             for line in (note, *note.split(" · "))}
    return [(line, size, rect) for line, size, rect in drawn if BAR.contains(rect) and line not in notes]


@pytest.mark.parametrize("lang", ["de", "en"])
@pytest.mark.parametrize("players", [LONG, GRANDMOTHERS], ids=["one-long", "two-grandmothers"])
def test_four_players_names_stand_at_far_each_in_its_cell(tmp_path, monkeypatch, lang, players):
    """Four players in even cells drew "Großmutter Helga" whole at 22 px (her short "Großmutter H." needed more
    than the even cell's 169 px at FAR): the cells now go by need, and a name too long even so is shortened."""
    names = bar_names(tmp_path, monkeypatch, lang, players)
    assert len(names) == len(players), names
    assert all(size >= theme.FAR for _, size, _ in names), names
    rects = [rect for _, _, rect in names]
    assert all(a.right <= b.left for a, b in zip(rects, rects[1:], strict=False)), rects
    for (label, _, _), name in zip(names, players, strict=True):  # the name, or a short form of it
        assert label in (name, theme.short_name(name), theme.first_initials(name)), (label, name)


@pytest.mark.parametrize("lang", ["de", "en"])
def test_two_grandmothers_are_told_apart_in_the_bar(tmp_path, monkeypatch, lang):
    """"Großmutter Helga" and "Großmutter Hilde" both shortened to "Großmutter H." would leave the table guessing
    whose turn it is: a short form another player's name also takes is not used ("G. Helga", "G. Hilde")."""
    labels = [label for label, _, _ in bar_names(tmp_path, monkeypatch, lang, GRANDMOTHERS)]
    assert len(set(labels)) == len(labels) and "Großmutter H." not in labels, labels


def test_a_short_form_is_never_one_another_players_name_could_take():
    """Each player's forms: the name first, then only short forms that are no other player's name or short form."""
    bar = PlayerBar(pygame.Rect(BAR), ["Oma Helga", "Opa Helga", "Großmutter Hilde", "Großmutter Helga"])
    assert bar.forms(0) == ["Oma Helga", "Oma H."]  # "O. Helga" is Opa's too
    assert bar.forms(2) == ["Großmutter Hilde", "G. Hilde"]  # "Großmutter H." is Helga's too
    assert bar.forms(3) == ["Großmutter Helga", "G. Helga"]


def test_typical_names_keep_even_cells_at_large():
    """Names that stand at LARGE in even cells keep them (the cells do not shift as the turn moves)."""
    players = ["Johannes", "Annika", "Carla", "David"]
    bar = PlayerBar(pygame.Rect(BAR), players, current=1, notes=["hinten · 12 Löcher"] * 4)
    assert len({cell.w for cell in bar.cells()}) == 1
    assert bar.labels() == [(name, theme.LARGE) for name in players]


def test_first_initials():
    assert theme.first_initials("Großmutter Helga") == "G. Helga"
    assert theme.first_initials("Tante Anne Marie") == "T. A. Marie"
    assert theme.first_initials("(Oma) Helga") == "O. Helga"
    assert theme.first_initials("Anne-Marie") == "Anne-Marie"
