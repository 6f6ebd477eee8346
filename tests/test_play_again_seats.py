"""Play again after the players changed: each setup question starts on last game's answer, and who starts is that
answer's person, not its seat number (Anna went home, and David stood highlighted where Carla had started)."""

from __future__ import annotations

import pytest

from companion.app import App
from companion.config import Config
from companion.display import Display
from companion.games_ui import register_all
from companion.views.menus import NAMES, PICK, PICKED, SetupWizard
from companion.views.players_view import ACTIONS, PlayersMode
from hardware.events import Button, ButtonEvent

register_all()

FAMILY = ("Anna", "Ben", "Carla", "David")


def _app(tmp_path, players: tuple[str, ...] = FAMILY) -> App:
    cfg = Config()
    cfg.players = list(players)
    return App(cfg, state_dir=tmp_path, display=Display((800, 480), fullscreen=False), use_camera=False)


def _press(app: App, button: Button) -> None:
    app.on_button(ButtonEvent(button))


def _menu(app: App):
    assert isinstance(app.mode, SetupWizard), app.mode
    return app.mode.mode.menu


def _highlighted(app: App) -> str:
    menu = _menu(app)
    return menu.items[menu.index].label


def _to(app: App, label: str) -> None:
    """NEXT until ``label`` is highlighted, as a finger does (bounded: once round the menu)."""
    for _ in range(len(_menu(app).items)):
        if _highlighted(app) == label:
            return
        _press(app, Button.NEXT)
    assert _highlighted(app) == label, [i.label for i in _menu(app).items]


def _to_value(app: App, value) -> None:
    labels = {i.value: i.label for i in _menu(app).items if isinstance(i.value, str)}
    _to(app, labels[value])


def _through(app: App) -> None:
    """SELECT on whatever each remaining question highlights, until the game starts."""
    for _ in range(10):
        if not isinstance(app.mode, SetupWizard):
            break
        _press(app, Button.SELECT)
    assert app.session is not None and not isinstance(app.mode, SetupWizard)


def _starter(app: App) -> str:
    setup = app.session.actions[0]
    return setup["players"][setup["start"]]


def _play_again(app: App, game: str) -> None:
    """The same game's setup again, opened as the end screen's SELECT opens it (with last game's answers)."""
    app._main_choice(("new", game))
    assert isinstance(app.mode, SetupWizard) and app.mode.previous


def _first_game(app: App, game: str, starter: str) -> None:
    """Everybody in the config plays; ``starter`` is chosen at who starts; the rest as highlighted."""
    app._main_choice(("new", game))
    _press(app, Button.SELECT)  # everybody plays
    _to(app, starter)
    _through(app)
    assert _starter(app) == starter


def _goes_home(app: App, name: str) -> None:
    """From the question of who plays: the players screen, ``name`` removed with the buttons, back to the setup."""
    _to_value(app, NAMES)
    _press(app, Button.SELECT)
    players = app.mode
    assert isinstance(players, PlayersMode)
    for _ in range(len(players.players)):
        if players.cursor == players.players.index(name):
            break
        _press(app, Button.NEXT)
    _press(app, Button.SELECT)  # the player's actions
    for _ in range(len(ACTIONS)):
        if ACTIONS[players.action] == "remove":
            break
        _press(app, Button.NEXT)
    _press(app, Button.SELECT)
    _press(app, Button.SELECT)  # remove asks once more
    assert name not in players.players
    if players.focus == "actions":
        _press(app, Button.UNDO)  # back to the list
    _press(app, Button.UNDO)  # done: the setup starts again
    assert isinstance(app.mode, SetupWizard) and name not in app.cfg.players


def _choose_others(app: App, *playing: str) -> None:
    """From the question of who plays: "Choose others …", exactly ``playing`` ticked, then they play."""
    _to_value(app, PICK)
    _press(app, Button.SELECT)
    names = [i.value for i in _menu(app).items if i.value != PICKED]
    for name in names:
        if (name in app.mode.picked) != (name in playing):
            _to(app, next(i.label for i in _menu(app).items if i.value == name))
            _press(app, Button.SELECT)  # ticked or unticked
    _to(app, next(i.label for i in _menu(app).items if i.value == PICKED))
    _press(app, Button.SELECT)
    assert app.mode.answers["_players"] == playing


@pytest.mark.parametrize("game", ["haste-worte", "echt-spitze", "noch-x-mal"])
def test_play_again_after_one_went_home_starts_on_the_same_starter(tmp_path, game):
    """Carla (the youngest) started; Anna went home: seat 2 of Ben, Carla, David is David, who stood highlighted."""
    app = _app(tmp_path)
    _first_game(app, game, "Carla")
    _play_again(app, game)
    _goes_home(app, "Anna")
    assert _highlighted(app).startswith("3: Ben, Carla, David")
    _press(app, Button.SELECT)
    assert _highlighted(app) == "Carla"
    _through(app)
    assert app.session.actions[0]["players"] == ["Ben", "Carla", "David"] and _starter(app) == "Carla"


def test_play_again_with_one_sitting_out_starts_on_the_same_starter(tmp_path):
    """Ben sits this one out ("Choose others …"): Anna, Carla, David play, and Carla starts again, not David."""
    app = _app(tmp_path)
    _first_game(app, "haste-worte", "Carla")
    _play_again(app, "haste-worte")
    _choose_others(app, "Anna", "Carla", "David")
    assert _highlighted(app) == "Carla"
    _through(app)
    assert app.session.actions[0]["players"] == ["Anna", "Carla", "David"] and _starter(app) == "Carla"


def test_play_again_with_everybody_after_one_sat_out_starts_on_the_same_starter(tmp_path):
    """The other way round: Ben sat out and Carla (seat 1) started; with Ben back seat 1 is Ben's."""
    app = _app(tmp_path)
    app._main_choice(("new", "echt-spitze"))
    _choose_others(app, "Anna", "Carla", "David")
    _to(app, "Carla")
    _through(app)
    assert app.session.actions[0]["players"] == ["Anna", "Carla", "David"] and _starter(app) == "Carla"
    _play_again(app, "echt-spitze")
    _to(app, "4: Anna, Ben, Carla, David")
    _press(app, Button.SELECT)
    assert _highlighted(app) == "Carla"
    _through(app)
    assert _starter(app) == "Carla"


def test_play_again_without_last_games_starter_starts_on_the_first_seat(tmp_path):
    """Carla started and went home: nobody of last game's choice is highlighted by seat number (David), the
    question starts where a first setup does."""
    app = _app(tmp_path)
    _first_game(app, "noch-x-mal", "Carla")
    _play_again(app, "noch-x-mal")
    _goes_home(app, "Carla")
    _press(app, Button.SELECT)  # Anna, Ben, David
    assert _highlighted(app) == "Anna"


def test_play_again_with_the_same_players_keeps_the_starter(tmp_path):
    """Nothing changed: the seat is the person, as before."""
    app = _app(tmp_path)
    _first_game(app, "haste-worte", "Ben")
    _play_again(app, "haste-worte")
    _press(app, Button.SELECT)
    assert _highlighted(app) == "Ben"


def test_fritzo_strategy_played_again_by_others_highlights_who_rolled_first(tmp_path):
    """Fritzo answers who rolls first with ``{"start": seat}``: Ben rolled first against Anna; Anna leaves the
    board to Carla, and Carla (Ben's old seat 1) stood highlighted instead of Ben."""
    app = _app(tmp_path, ("Anna", "Ben", "Carla"))
    app._main_choice(("new", "fritzo"))
    _to(app, next(i.label for i in _menu(app).items if i.value == {"mode": "strategy"}))
    _press(app, Button.SELECT)
    _press(app, Button.SELECT)  # 2: Anna, Ben
    _to(app, "Ben")
    _through(app)
    setup = app.session.actions[0]
    assert setup["mode"] == "strategy" and _starter(app) == "Ben"
    _play_again(app, "fritzo")
    assert _menu(app).items[_menu(app).index].value == {"mode": "strategy"}
    _press(app, Button.SELECT)
    _choose_others(app, "Ben", "Carla")
    assert _highlighted(app) == "Ben"
    _through(app)
    assert app.session.actions[0]["players"] == ["Ben", "Carla"] and _starter(app) == "Ben"


def test_a_resumed_game_played_again_by_others_starts_on_its_starter(tmp_path):
    """After a restart the answers come from the saved game (``start`` a seat there too)."""
    app = _app(tmp_path)
    _first_game(app, "echt-spitze", "Carla")
    app.journal.flush_snapshot()
    app.close()
    again = _app(tmp_path)
    try:
        again.resume(again.journal.load())
        assert again.session is not None and "Carla" in again.session.actions[0]["players"]
        _play_again(again, "echt-spitze")
        _goes_home(again, "Anna")
        _press(again, Button.SELECT)
        assert _highlighted(again) == "Carla"
    finally:
        again.close()


@pytest.mark.parametrize("game", ["haste-worte", "echt-spitze", "noch-x-mal"])
def test_play_again_after_one_sat_out_offers_the_same_players_first(tmp_path, game):
    """Ben sat out, chosen name by name: playing again "4: Anna, Ben, Carla, David" stood highlighted, and SELECT
    pressed through took Ben back in. Last game's players come first now; the counts follow as before."""
    app = _app(tmp_path)
    app._main_choice(("new", game))
    _choose_others(app, "Anna", "Carla", "David")
    _to(app, "Carla")
    _through(app)
    _play_again(app, game)
    labels = [i.label for i in _menu(app).items]
    assert labels[:3] == ["3: Anna, Carla, David", "4: Anna, Ben, Carla, David", "3: Anna, Ben, Carla"]
    assert _highlighted(app) == "3: Anna, Carla, David"
    _through(app)
    assert app.session.actions[0]["players"] == ["Anna", "Carla", "David"] and _starter(app) == "Carla"


def test_fritzo_played_again_offers_last_games_two_first(tmp_path):
    """Strategy offers only "2: Anna, Ben" by count: Ben and Carla, chosen by name, are offered first again."""
    app = _app(tmp_path, ("Anna", "Ben", "Carla"))
    app._main_choice(("new", "fritzo"))
    _to(app, next(i.label for i in _menu(app).items if i.value == {"mode": "strategy"}))
    _press(app, Button.SELECT)
    _choose_others(app, "Ben", "Carla")
    _to(app, "Carla")
    _through(app)
    _play_again(app, "fritzo")
    _press(app, Button.SELECT)  # Strategy again
    assert [i.label for i in _menu(app).items][:2] == ["2: Ben, Carla", "2: Anna, Ben"]
    _through(app)
    assert app.session.actions[0]["players"] == ["Ben", "Carla"] and _starter(app) == "Carla"
