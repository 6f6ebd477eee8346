"""The hint bar leaves out "NEXT move" where NEXT moves nothing: a menu with a single row to choose."""

from __future__ import annotations

import pygame
from drawn_texts import recording_texts
from test_echt_spitze_view import select_item, session
from test_noch_x_mal_view import choose, new_view, press

from companion.i18n import t
from companion.views.echt_spitze_view import EchtSpitzeMode
from companion.views.menus import MenuMode
from companion.views.widgets import MenuItem
from hardware.events import Button


def _bar(view, monkeypatch) -> list[str]:
    """The words the view draws in its hint bar."""
    with recording_texts(monkeypatch) as drawn:
        view.draw(pygame.Surface((800, 480)))
    return [text for text, _, rect in drawn if rect.y >= 440]


def test_a_gift_menu_of_one_row_says_no_next(tmp_path, monkeypatch):
    """Noch X-Mal!'s "Use a gift…" with Ben alone holding one: NEXT moved nothing, the bar said "NEXT move"."""
    view, s = new_view(tmp_path, ["Anna", "Ben", "Carl"], lang="en")
    for name in ("Anna", "Ben", "Carl"):
        choose(view, ("start", name))
    choose(view, ("who-starts",))
    choose(view, "Carl")
    for _ in range(3):
        press(view, Button.ROLL)
        choose(view, ("end",))
    press(view, Button.ROLL)
    choose(view, ("pick",))
    choose(view, lambda v: isinstance(v, tuple) and len(v) == 2 and isinstance(v[0], int))
    choose(view, ("discard",))
    choose(view, "Anna")
    choose(view, "all-dice")
    choose(view, "Ben")
    choose(view, ("end",))
    press(view, Button.ROLL)
    assert t("core.btn_next", "en") in _bar(view, monkeypatch)  # the roll's menu: several rows
    choose(view, ("use-gift",))
    assert [i.value for i in view.current_menu.items if i.enabled] == ["Ben"]
    bar = _bar(view, monkeypatch)
    assert t("core.btn_next", "en") not in bar and t("core.btn_select", "en") in bar


def test_the_last_final_scoring_row_says_no_next(tmp_path, monkeypatch):
    """Echt Spitze: "Ben: final scoring" the only row left; the editor itself still moves with NEXT."""
    s = session(tmp_path, {"players": ["Sara", "Ben"], "kinds": {"pears": [5, 3], "plums": [4, 2],
                                                                 "lemons": [9, 7]}})
    for action in ({"action": "roll", "dice": ["1", "2", "3", "4"]}, {"action": "take", "die": 1},
                   {"action": "take", "die": 2}, {"action": "leave"},
                   {"action": "report", "player": "Sara", "kinds": ["pears", "plums", "lemons"]},
                   {"action": "end_turn"}):
        assert s.apply(action), s.error
    mode = EchtSpitzeMode(s)
    mode.update(0.03, 0.0)
    assert t("core.btn_next", "en") in _bar(mode, monkeypatch)  # Sara and Ben
    assert s.apply({"action": "final", "player": "Sara", "stars": 1, "leftover": 0}), s.error
    mode.update(0.03, 0.0)
    assert [i.value for i in mode.menu.items if i.enabled] == [("final", "Ben")]
    assert t("core.btn_next", "en") not in _bar(mode, monkeypatch)
    select_item(mode, "Ben")
    assert mode.sub == ("final", "Ben") and t("core.btn_next", "en") in _bar(mode, monkeypatch)


def test_a_menu_screen_of_one_row_says_no_next(monkeypatch):
    one = MenuMode("Title", [MenuItem("Only", 1), MenuItem("Not now", 2, enabled=False)], lambda v: None, lang="en")
    assert t("core.btn_next", "en") not in _bar(one, monkeypatch)
    two = MenuMode("Title", [MenuItem("One", 1), MenuItem("Two", 2)], lambda v: None, lang="en")
    assert t("core.btn_next", "en") in _bar(two, monkeypatch)
