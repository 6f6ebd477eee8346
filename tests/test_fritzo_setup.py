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
from companion.views import theme
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
    # read as the answers are: on two lines at BODY, not one at 20 px
    assert menu.title_layout() == (theme.BODY, ["Welche Farbe entscheidet, wer 14 Cubes",
                                                "bekommt? (Der Satz hat kein Blau.)"])
    app.draw(app.display.canvas)
    app.display.present()
    pygame.image.save(app.display.window, str(out_dir / "fritzo_setup_start_colour.png"))
    assert menu.item_rects()[0].top >= menu.rect.y + 2 * theme.font(theme.BODY, True).get_linesize()
    choose(app, "Navy")
    # German capitalises the taught name as the answer did (a noun, as "Blau")
    assert app.mode.mode.menu.title == "Wer würfelt zuerst? (Wer zuerst Navy würfelt, bekommt 14 Cubes.)"
    choose(app, "Anna")
    choose(app, "10")
    choose(app, "Rot, Orange, Gelb")
    assert app.session is not None, app.notice
    assert app.session.actions[0]["start_colour"] == "navy"
    engine = app.session.engine
    said = engine.apply({"action": "roll", "dice": ["red"]}) + engine.apply({"action": "roll", "dice": ["navy"]})
    assert [a.text("de") for a in said] == [
        "Anna hat Rot gewürfelt, kein Navy. Ben würfelt.",
        "Ben hat zuerst Navy gewürfelt und bekommt 14 Cubes, Anna bekommt 13.",
        "Ben, Anna: Startet die Uhr mit der Taste UHR, dann baut los!"]  # a 10-minute game: its clock started by hand
    # English names its built-in colours with a capital too: "Anna rolled red, not Navy" read as two kinds of name
    assert said[0].text("en") == "Anna rolled Red, not Navy. Ben rolls."


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
        "Ben hat zuerst Rot gewürfelt und bekommt 14 Cubes, Anna bekommt 13.",
        "Ben, Anna: Startet die Uhr mit der Taste UHR, dann baut los!"]  # Level One keeps its 5-minute clock by default
    with pytest.raises(SetupError) as err:
        Fritzo.new({"action": "setup", "mode": "level-one", "players": ["Anna", "Ben"],
                    "cubes": navy_set().to_json()})
    assert err.value.localized("de") == ("Die Startfarbe Blau gibt es im Cube-Satz nicht; er hat Rot, Orange, Gelb, "
                                         "Grün, Weiß und Navy.")  # the taught name as its answer names it
    assert err.value.localized("en") == ("The start colour Blue is not in the cube set; it has Red, Orange, Yellow, "
                                         "Green, White and Navy.")


def level_one_over(tmp_path, lang: str, then: list[dict]) -> App:
    """The app on the end screen of a Level One of Anna and Ben (Ben got the 14 cubes), ended by ``then``."""
    app = app_in_setup(tmp_path, lang)
    app.main_menu()
    from companion.app import GAME_ENTRIES

    app.new_game(GAME_ENTRIES["fritzo"], {"mode": "level-one", "_players": ("Anna", "Ben"), "starter": "Ben"})
    for action in then:
        assert app.session.apply(action), app.session.error
    assert app.session.engine.finished
    return app


@pytest.mark.parametrize("lang", ["de", "en"])
def test_level_one_played_again_offers_the_winner_the_14_cubes(tmp_path, out_dir, lang):
    """"Der Sieger einer Partie erhält bei einem neuen Spiel 14 Cubes": play again always asked who rolls blue
    first. Now the last game's winner stands first and highlighted; the roll stays offered below."""
    app = level_one_over(tmp_path, lang, [{"action": "done", "player": "Anna"}, {"action": "done", "player": "Ben"}])
    assert app.session.engine.state.winners == ["Anna"]  # a tie (nine gaps each): Anna was done first
    app.on_button(ButtonEvent(Button.SELECT))  # play again
    app.on_button(ButtonEvent(Button.SELECT))  # Level One, as last time
    app.on_button(ButtonEvent(Button.SELECT))  # 2: Anna, Ben
    menu = app.mode.mode.menu
    words = {"de": ("Wer bekommt 14 Cubes? (Der Sieger der letzten Partie, oder auswürfeln.)",
                    ["Anna hat zuletzt gewonnen: 14 Cubes für Anna", "Auswürfeln, Anna würfelt zuerst",
                     "Auswürfeln, Ben würfelt zuerst"]),
             "en": ("Who gets 14 cubes? (Last game's winner, or roll for it.)",
                    ["Anna won last game: Anna gets 14 cubes", "Roll for it, Anna rolls first",
                     "Roll for it, Ben rolls first"])}[lang]
    assert (menu.title, [i.label for i in menu.items[:3]]) == words
    assert menu.index == 0
    app.draw(app.display.canvas)
    app.display.present()
    pygame.image.save(app.display.window, str(out_dir / f"fritzo_setup_rematch_{lang}.png"))
    for _ in range(3):
        app.on_button(ButtonEvent(Button.SELECT))  # Anna gets 14; the time and the colours as last time
    assert app.session is not None and not app.session.engine.finished
    assert app.session.actions[0]["starter"] == "Anna" and "start" not in app.session.actions[0]
    assert app.session.engine.state.allowance == {"Anna": 14, "Ben": 13}
    assert not app.session.engine.rolls_dice


def test_level_one_played_again_may_still_roll_and_a_draw_names_no_winner(tmp_path):
    app = level_one_over(tmp_path, "en", [{"action": "done", "player": "Ben"}, {"action": "done", "player": "Anna"}])
    app.on_button(ButtonEvent(Button.SELECT))  # play again
    app.on_button(ButtonEvent(Button.SELECT))
    app.on_button(ButtonEvent(Button.SELECT))
    choose(app, "Roll for it, Anna")
    for _ in range(3):
        if app.session is not None and not app.session.engine.finished:
            break
        app.on_button(ButtonEvent(Button.SELECT))
    assert "starter" not in app.session.actions[0] and app.session.engine.rolls_dice
    drawn = level_one_over(tmp_path / "draw", "en", [{"action": "start", "at": 0.0},
                                                     {"action": "time_up", "at": 10_000.0}])
    assert drawn.session.engine.state.result == "draw"
    for _ in range(3):
        drawn.on_button(ButtonEvent(Button.SELECT))
    assert drawn.mode.mode.menu.title == "Who rolls first? (The first to roll Blue gets 14 cubes.)"
    assert [i.label for i in drawn.mode.mode.menu.items][:2] == ["Anna", "Ben"]


@pytest.mark.parametrize("mode", ["Beginner", "Challenge", "Professional"])
def test_the_solo_modes_offer_a_time_limit_no_clock_first(tmp_path, out_dir, mode):
    """"Durch Setzen eines Zeitlimits können Wettbewerbe durchgeführt werden": the engine had the race against the
    clock (``minutes``), the setup offered a time for Level One only. No clock stays the first answer."""
    app = app_in_setup(tmp_path)
    choose(app, mode)
    choose(app, "1:")
    menu = app.mode.mode.menu
    assert menu.title == "Mit Zeitlimit? (Ein Wettbewerb: Wer baut es am schnellsten?)"
    assert [i.label for i in menu.items] == ["Ohne Uhr", "5 Minuten", "10 Minuten", "15 Minuten", "20 Minuten",
                                             "30 Minuten"]
    assert menu.index == 0
    if mode == "Beginner":
        app.draw(app.display.canvas)
        app.display.present()
        pygame.image.save(app.display.window, str(out_dir / "fritzo_setup_race.png"))
    choose(app, "15")
    assert app.session is not None and app.session.actions[0]["minutes"] == 15
    assert app.session.engine.state.hourglass.duration == 15 * 60
    app.main_menu()
    app._main_choice(("new", "fritzo"))
    app.mode.menu.index = 1  # start it, and put the unfinished one away
    app.on_button(ButtonEvent(Button.SELECT))
    choose(app, mode)
    choose(app, "1:")
    assert app.mode.mode.menu.items[app.mode.mode.menu.index].label == "15 Minuten"  # last time's answer
    choose(app, "Ohne Uhr")
    assert app.session.engine.state.hourglass is None and app.session.actions[0].get("minutes") is None


def test_a_level_one_time_is_not_highlighted_as_a_solo_race_and_team_asks_none(tmp_path):
    app = app_in_setup(tmp_path)
    choose(app, "Level One")
    choose(app, "2:")
    choose(app, "Anna")
    choose(app, "10")
    choose(app, "Rot, Orange, Gelb")
    assert app.session.actions[0]["minutes"] == 10
    app.main_menu()
    app._main_choice(("new", "fritzo"))
    app.mode.menu.index = 1
    app.on_button(ButtonEvent(Button.SELECT))
    choose(app, "Beginner")
    choose(app, "2:")
    assert app.mode.mode.menu.items[app.mode.mode.menu.index].label == "Ohne Uhr"
    app.mode._back()
    app.mode._back()
    choose(app, "Team: Beginner")
    choose(app, "2:")
    choose(app, "Anna")
    assert app.session is not None and "minutes" not in app.session.actions[0]


def test_a_rematch_answer_taken_back_does_not_stay_in_a_strategy_setup(tmp_path):
    """Play again after a Level One win, "Anna gets 14 cubes", back to the mode, Strategy, "Ben rolls first": the
    game opened on Anna's turn without its start roll, the setup journaled ``starter`` beside ``start``."""
    app = level_one_over(tmp_path, "en", [{"action": "done", "player": "Anna"}, {"action": "done", "player": "Ben"}])
    old = app.session
    app.on_button(ButtonEvent(Button.SELECT))  # play again
    app.on_button(ButtonEvent(Button.SELECT))  # Level One
    app.on_button(ButtonEvent(Button.SELECT))  # 2: Anna, Ben
    app.on_button(ButtonEvent(Button.SELECT))  # Anna gets 14: on to the time
    for _ in range(3):
        app.on_button(ButtonEvent(Button.UNDO))  # back to the mode
    assert app.mode.index == 0
    choose(app, "Strategy")
    choose(app, "2:")
    choose(app, "Ben")
    for _ in range(3):  # the colours, as last time
        if app.session is not old:
            break
        app.on_button(ButtonEvent(Button.SELECT))
    setup = app.session.actions[0]
    assert setup["mode"] == "strategy" and setup["start"] == 1 and "starter" not in setup
    assert app.session.engine.rolls_dice



def test_a_strategy_set_up_in_the_app_journals_the_own_points_rule(tmp_path):
    """The third level opens for the mover's own points in games set up now; the setup says so, since a journal
    without the word replays under the rule before (any points)."""
    app = app_in_setup(tmp_path, "en")
    choose(app, "Strategy")
    choose(app, "2:")
    choose(app, "Anna")
    app.on_button(ButtonEvent(Button.SELECT))  # the colours
    assert app.session.actions[0]["third_level"] == "own" and app.session.engine.state.third_level == "own"
