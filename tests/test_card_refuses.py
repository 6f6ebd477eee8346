"""A Pi's SD card that refuses writes (full, read-only, a folder owned by root), run through the whole app."""

from __future__ import annotations

import errno

from companion import config
from companion.app import App
from companion.config import Config
from companion.display import Display
from companion.games_ui import register_all
from companion.views.menus import SetupWizard
from companion.views.players_view import PlayersMode
from hardware.events import Button, ButtonEvent


def _app(tmp_path) -> App:
    register_all()
    cfg = Config()
    cfg.language = "de"
    cfg.players = ["Anna", "Ben", "Carla"]
    return App(cfg, state_dir=tmp_path, display=Display((800, 480), fullscreen=False), use_camera=False)


def _refuse(monkeypatch) -> None:
    def full(*_a, **_k):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(config, "atomic_write_text", full)
    monkeypatch.setattr(config, "replace_keeping_aside", full)


def _names_from_setup(app: App) -> SetupWizard:
    app._main_choice(("new", "noch-x-mal"))
    wizard = app.mode
    assert isinstance(wizard, SetupWizard) and wizard.on_names is not None
    wizard.on_names()
    assert isinstance(app.mode, PlayersMode)
    return wizard


def test_a_full_card_lets_a_game_start_after_the_names_screen(tmp_path, monkeypatch):
    """Opened from a game's setup, the names screen would not be left while the card refused: no game could start."""
    app = _app(tmp_path)
    _refuse(monkeypatch)
    _names_from_setup(app)
    app.on_button(ButtonEvent(Button.UNDO))  # nothing edited: back at once
    assert isinstance(app.mode, SetupWizard)
    _names_from_setup(app)
    players = app.mode
    players.players.reverse()  # an edit the card will not take
    app.on_button(ButtonEvent(Button.UNDO))
    assert app.mode is players and "Fertig nochmal" in players.message
    app.on_button(ButtonEvent(Button.UNDO))
    assert isinstance(app.mode, SetupWizard)
    assert app.cfg.players == ["Carla", "Ben", "Anna"]  # the names hold for this run
