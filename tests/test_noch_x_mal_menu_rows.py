"""Noch X-Mal!'s lists on a touch screen: no row ends where a finger aimed low at it presses the hint bar's framed
buttons ("ZURÜCK Menü" under "Würfel an Ben" opened the pause menu), and the lists show as many rows as before."""

from __future__ import annotations

import os
import random

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pygame
import pytest

from companion.games.noch_x_mal import NochXMal, Phase
from companion.journal import Journal
from companion.session import GameSession
from companion.views import theme
from companion.views.noch_x_mal_view import NochXMalMode
from companion.views.widgets import HINT_BAR_H
from hardware.events import Button, ButtonEvent

NAMES = ["Anna", "Ben", "Carl", "Dora", "Emil", "Maximilian"]
HINTS_TOP = theme.DESIGN_SIZE[1] - HINT_BAR_H  # where a finger presses the hint bar's buttons
CLEAR = 8  # a finger aimed at a row's lower edge stays on it (or in the gap under it)


@pytest.fixture(autouse=True)
def _pygame():
    pygame.init()
    yield


def _rolled(tmp_path, lang: str) -> tuple[NochXMalMode, GameSession]:
    """Six players' first roll on the screen: the roll's menu with the most lines (everybody passes, reports)."""
    session = GameSession.new(NochXMal, {"action": "setup", "players": NAMES, "seed": 1},
                              Journal(tmp_path / "journal"), lang=lang, rng=random.Random(5))
    for name in NAMES:
        assert session.apply({"action": "start_combo", "player": name, "dice": ["green", "3"]}), session.error
    view = NochXMalMode(session)
    view.on_button(ButtonEvent(Button.ROLL))
    assert session.engine.state.phase is Phase.ROLLED
    return view, session


def _rows(view: NochXMalMode) -> list[pygame.Rect]:
    view.draw(pygame.Surface(theme.DESIGN_SIZE))
    menu = view.current_menu
    return [*menu.item_rects().values(), *menu.scroll_rects().values()]


def _open(view: NochXMalMode, value) -> None:
    menu = view.current_menu
    values = [item.value for item in menu.items]
    menu.first = menu.index = values.index(value)
    view.draw(pygame.Surface(theme.DESIGN_SIZE))
    view.on_tap(menu.item_rects()[values.index(value)].center)


@pytest.mark.parametrize("lang", ["de", "en"])
def test_every_list_ends_clear_of_the_hint_bars_buttons(tmp_path, lang):
    view, _session = _rolled(tmp_path, lang)
    shown = {}
    rows = _rows(view)  # the roll's own list: "Anna passt" ... "Würfel an Ben"
    shown["roll"] = len(view.current_menu.item_rects())
    assert max(r.bottom for r in rows) <= HINTS_TOP - CLEAR
    _open(view, ("report",))  # who reached something: a sub-menu under the dice
    rows = _rows(view)
    shown["who"] = len(view.current_menu.item_rects())
    assert max(r.bottom for r in rows) <= HINTS_TOP - CLEAR and min(r.h for r in rows) >= 40
    view.on_tap(view.current_menu.item_rects()[0].center)  # Anna: the 27 goals, the tall list over the dice
    assert len(view.current_menu.items) > 20
    rows = _rows(view)
    shown["goals"] = len(view.current_menu.item_rects())
    assert max(r.bottom for r in rows) <= HINTS_TOP - CLEAR and min(r.h for r in rows) >= 40
    assert shown == {"roll": 4, "who": 4, "goals": 6}  # as many rows as before: no list pages more often
