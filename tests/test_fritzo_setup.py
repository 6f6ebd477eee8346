"""Fritzo's setup questions in the app, against the rulebook's words (start colour, rematch, clock)."""

from __future__ import annotations

import pygame
import pytest

from companion.app import App
from companion.config import Config
from companion.display import Display
from companion.games.fritzo import Fritzo, cubeset
from companion.games.fritzo.cubeset import CubeSet, default_set
from companion.games.fritzo.errors import SetupError
from companion.games_ui import register_all
from hardware.events import Button, ButtonEvent

register_all()


def navy_set() -> CubeSet:
    """The built-in set with its blue taught as "navy" (a dice-set copy may rename a colour)."""
    data = default_set().to_json()
    for cube in data["cubes"]:
        cube["faces"] = ["navy" if f == "blue" else f for f in cube["faces"]]
    return CubeSet.from_json(data)


def app_in_setup(tmp_path, lang: str = "de") -> App:
    """The app with Fritzo's setup open, Anna and Ben in the config."""
    cfg = Config()
    cfg.players = ["Anna", "Ben"]
    cfg.language = lang
    app = App(cfg, state_dir=tmp_path, display=Display((800, 480), fullscreen=False), use_camera=False)
    items = [item.value for item in app.mode.menu.items]
    app.mode.menu.index = items.index(("new", "fritzo"))
    app.on_button(ButtonEvent(Button.SELECT))
    return app


def choose(app: App, label_start: str) -> None:
    """Highlight the answer whose label starts so, with NEXT presses, and take it."""
    menu = app.mode.mode.menu
    index = next(k for k, item in enumerate(menu.items) if item.label.startswith(label_start))
    for _ in range((index - menu.index) % len(menu.items)):
        app.on_button(ButtonEvent(Button.NEXT))
    app.on_button(ButtonEvent(Button.SELECT))


def test_level_one_with_a_set_without_blue_asks_which_colour_decides(tmp_path, out_dir):
    """"Derjenige Spieler, der zuerst die Farbe Blau würfelt, erhält 14 Cubes": a taught set whose blue is named
    otherwise could not start Level One at all (back to the main menu with "Die Startfarbe blue gibt es im Cube-Satz
    nicht."). The setup asks which colour decides, names it in the question after it, and journals it."""
    cubeset.save(navy_set())
    app = app_in_setup(tmp_path)
    choose(app, "Level One")
    choose(app, "2:")
    menu = app.mode.mode.menu
    assert menu.title == "Welche Farbe entscheidet, wer 14 Cubes bekommt? (Der Satz hat kein Blau.)"
    labels = [item.label for item in menu.items]
    assert labels == ["Navy", "Rot", "Orange", "Gelb", "Grün", "Weiß"]  # its own name first (its blue, likely)
    app.draw(app.display.canvas)
    app.display.present()
    pygame.image.save(app.display.window, str(out_dir / "fritzo_setup_start_colour.png"))
    choose(app, "Navy")
    assert app.mode.mode.menu.title == "Wer würfelt zuerst? (Wer zuerst navy würfelt, bekommt 14 Cubes.)"
    choose(app, "Anna")
    choose(app, "10")
    choose(app, "Rot, Orange, Gelb")
    assert app.session is not None, app.notice
    assert app.session.actions[0]["start_colour"] == "navy"
    engine = app.session.engine
    said = engine.apply({"action": "roll", "dice": ["red"]}) + engine.apply({"action": "roll", "dice": ["navy"]})
    assert [a.text("de") for a in said] == [
        "Anna hat Rot gewürfelt, kein navy. Ben würfelt.",
        "Ben hat zuerst navy gewürfelt und bekommt 14 Cubes, Anna bekommt 13. Baut los!"]


def test_level_one_with_blue_in_the_set_does_not_ask_for_the_start_colour(tmp_path):
    app = app_in_setup(tmp_path)
    choose(app, "Level One")
    choose(app, "2:")
    assert app.mode.mode.menu.title == "Wer würfelt zuerst? (Wer zuerst Blau würfelt, bekommt 14 Cubes.)"


def test_another_start_colour_is_named_in_the_players_language():
    """The start roll said "not the start colour", and a start colour missing from the set was named in English in
    a German sentence ("Die Startfarbe blue ...")."""
    engine = Fritzo.new({"action": "setup", "mode": "level-one", "players": ["Anna", "Ben"], "start_colour": "red"})
    said = engine.apply({"action": "roll", "dice": ["blue"]}) + engine.apply({"action": "roll", "dice": ["red"]})
    assert [a.text("de") for a in said] == [
        "Anna hat Blau gewürfelt, kein Rot. Ben würfelt.",
        "Ben hat zuerst Rot gewürfelt und bekommt 14 Cubes, Anna bekommt 13. Baut los!"]
    with pytest.raises(SetupError) as err:
        Fritzo.new({"action": "setup", "mode": "level-one", "players": ["Anna", "Ben"],
                    "cubes": navy_set().to_json()})
    assert err.value.localized("de") == ("Die Startfarbe Blau gibt es im Cube-Satz nicht; er hat Rot, Orange, Gelb, "
                                         "Grün, Weiß und navy.")
