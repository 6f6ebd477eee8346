"""The hint bar leaves out "NEXT move" where NEXT moves nothing: a menu with a single row to choose."""

from __future__ import annotations

import pygame
from drawn_texts import recording_texts
from test_echt_spitze_view import sara_scores_three, select_item, session
from test_noch_x_mal_view import choose, new_view, press

from companion.i18n import t
from companion.views.echt_spitze_view import EchtSpitzeMode
from companion.views.menus import MenuMode
from companion.views.widgets import MenuItem
from hardware.events import Button, ButtonEvent


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
    for action in sara_scores_three(2):
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


def test_next_on_a_menu_of_one_row_is_not_taken():
    """NEXT/PREV on one row to choose moved nothing but was reported taken: no notes, no lit bar, unanswered."""
    from companion.views.widgets import Menu

    one = Menu(pygame.Rect(0, 0, 400, 300), [MenuItem("Roll", 1), MenuItem("Not now", 2, enabled=False)],
               lambda v: None, None)
    for button in (Button.NEXT, Button.PREV):
        assert one.on_button(ButtonEvent(button)) is False and one.index == 0
    two = Menu(pygame.Rect(0, 0, 400, 300), [MenuItem("One", 1), MenuItem("Two", 2)], lambda v: None, None)
    assert two.on_button(ButtonEvent(Button.NEXT)) is True and two.index == 1


def test_next_on_echt_spitzes_roll_is_answered_in_the_app(tmp_path):
    """Echt Spitze's turn starts on the one row "Roll": NEXT there sounded nothing and lit nothing."""
    from test_games_in_app import start_game
    from test_quick_presses import _Heard

    from companion.announce import Sound
    from companion.app import App
    from companion.config import Config
    from companion.display import Display
    from companion.games_ui import register_all

    register_all()
    cfg = Config()
    cfg.language, cfg.players = "en", ["Anna", "Ben"]
    app = App(cfg, state_dir=tmp_path, display=Display((800, 480), fullscreen=False), use_camera=False)
    start_game(app, "echt-spitze")
    heard = _Heard(app)
    app.frame(0.03, [])
    assert [item.label for item in app.mode.menu.items if item.enabled] == ["Roll"]
    app.on_button(ButtonEvent(Button.NEXT))
    assert heard.sounds == [Sound.REFUSED] and app.mode is app.game_mode
    app.close()


def _nxm_second_turn(tmp_path):
    view, s = new_view(tmp_path, ["Anna", "Ben"], lang="en")
    for name in ("Anna", "Ben"):
        choose(view, ("start", name))
    choose(view, ("who-starts",))
    choose(view, "Anna")
    press(view, Button.ROLL)
    choose(view, ("end",))
    return view


def test_noch_x_mals_one_row_roll_menu_says_no_next(tmp_path, monkeypatch):
    """"Ben rolls" alone after the first turn: its bar still said "NEXT move", and NEXT did nothing."""
    view = _nxm_second_turn(tmp_path)
    assert len([i for i in view.current_menu.items if i.enabled]) == 1
    bar = _bar(view, monkeypatch)
    assert t("core.btn_next", "en") not in bar and t("core.btn_roll", "en") in bar
    assert view.on_button(ButtonEvent(Button.NEXT)) is False


def test_fritzos_first_cube_with_one_place_says_no_next(tmp_path, monkeypatch):
    """The first cube has one place on an empty table: "NEXT move" on its bar, and NEXT did nothing."""
    from test_fritzo_view import make
    from test_fritzo_view import press as fritzo_press

    view, _, _ = make(tmp_path, {"mode": "challenge", "players": ["Anna"]}, lang="en")
    fritzo_press(view, Button.SELECT)  # place
    fritzo_press(view, Button.SELECT)  # the first cube
    assert view.step == "cell" and len(view._step_values()) == 1
    bar = _bar(view, monkeypatch)
    assert t("core.btn_next", "en") not in bar and t("core.btn_select", "en") in bar
    assert view.on_button(ButtonEvent(Button.NEXT)) is False
    fritzo_press(view, Button.SELECT)  # the place: its 24 positions to move through
    assert view.step == "turn" and t("core.btn_next", "en") in _bar(view, monkeypatch)
    assert view.on_button(ButtonEvent(Button.NEXT)) is True
