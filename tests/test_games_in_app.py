"""Every game reachable from the main menu with buttons alone: setup wizard, first screen, at both sizes."""

from __future__ import annotations

import pygame
import pytest

from companion.app import GAME_ENTRIES, App
from companion.config import Config
from companion.display import Display
from companion.games_ui import ENTRIES, register_all
from hardware.events import Button, ButtonEvent

register_all()


@pytest.mark.parametrize("size", [(800, 480), (1280, 720)])
@pytest.mark.parametrize("name", [e.name for e in ENTRIES])
def test_game_starts_from_the_menu_with_next_and_select_only(tmp_path, out_dir, name, size):
    cfg = Config()
    cfg.players = ["Anna", "Ben", "Carla"]
    app = App(cfg, state_dir=tmp_path, display=Display(size, fullscreen=False), use_camera=False)
    items = [item.value for item in app.mode.menu.items]
    for _ in range(items.index(("new", name))):
        app.on_button(ButtonEvent(Button.NEXT))
    app.on_button(ButtonEvent(Button.SELECT))
    for _ in range(10):  # answer each setup question with its highlighted (first) choice
        if app.session is not None:
            break
        app.on_button(ButtonEvent(Button.SELECT))
    assert app.session is not None and app.entry is GAME_ENTRIES[name], app.notice
    assert app.session.actions[0]["action"] == "setup"
    app.frame(0.03, [])
    pygame.image.save(app.display.window, str(out_dir / f"app_{name}_{size[0]}x{size[1]}.png"))
    app.on_button(ButtonEvent(Button.ROLL))
    app.frame(0.03, [])
    pygame.image.save(app.display.window, str(out_dir / f"app_{name}_{size[0]}x{size[1]}_roll.png"))
    assert app.session.error is None, app.session.error


def test_who_starts_offers_only_the_players_who_play(tmp_path):
    cfg = Config()
    cfg.players = ["Anna", "Ben", "Carla", "David"]
    app = App(cfg, state_dir=tmp_path, display=Display((800, 480), fullscreen=False), use_camera=False)
    items = [item.value for item in app.mode.menu.items]
    for _ in range(items.index(("new", "echt-spitze"))):
        app.on_button(ButtonEvent(Button.NEXT))
    app.on_button(ButtonEvent(Button.SELECT))
    assert [len(i.value) for i in app.mode.mode.menu.items] == [4, 3, 2, 1]  # how many: everybody first
    app.on_button(ButtonEvent(Button.NEXT))
    app.on_button(ButtonEvent(Button.NEXT))
    app.on_button(ButtonEvent(Button.SELECT))  # two play
    assert [i.label for i in app.mode.mode.menu.items] == ["Anna", "Ben"]
    app.on_button(ButtonEvent(Button.NEXT))
    app.on_button(ButtonEvent(Button.SELECT))  # Ben starts
    app.on_button(ButtonEvent(Button.SELECT))  # level 1
    assert app.session.actions[0]["players"] == ["Anna", "Ben"] and app.session.actions[0]["start"] == 1


@pytest.mark.parametrize(("lang", "seat"), [("en", "Player 2"), ("de", "Spieler 2")])
def test_a_game_for_more_players_than_the_config_names_offers_numbered_seats(tmp_path, lang, seat):
    """One name kept in the config (a solo evening before), then Haste Worte, which needs two: the question of how
    many play was an empty list, a dead end. Now the missing seats are offered under numbered names."""
    cfg = Config()
    cfg.players = ["Anna"]
    cfg.language = lang
    app = App(cfg, state_dir=tmp_path, display=Display((800, 480), fullscreen=False), use_camera=False)
    items = [item.value for item in app.mode.menu.items]
    for _ in range(items.index(("new", "haste-worte"))):
        app.on_button(ButtonEvent(Button.NEXT))
    app.on_button(ButtonEvent(Button.SELECT))
    labels = [i.label for i in app.mode.mode.menu.items]
    assert labels == [f"2: Anna, {seat}"]
    for _ in range(10):
        if app.session is not None:
            break
        app.on_button(ButtonEvent(Button.SELECT))
    assert app.session is not None, app.notice
    assert app.session.actions[0]["players"] == ["Anna", seat]
