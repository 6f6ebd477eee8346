"""A game entered in the App on a screen of a size, as a table reaching it from the setup would: for tests that look
at a game's screen through the App at the panel's and a laptop's size."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from companion.app import GAME_ENTRIES, App
from companion.config import Config
from companion.display import Display
from companion.games import engine_class
from companion.games_ui import register_all
from companion.session import GameSession


def in_game(state_dir: Path, lang: str, size: tuple[int, int], game: str, setup: dict[str, Any]) -> App:
    """The App in ``lang`` on a ``size`` window, ``game`` set up with ``setup`` (its "action" added) and on the
    screen; the caller closes it."""
    register_all()
    cfg = Config()
    cfg.language = lang
    app = App(cfg, state_dir=state_dir, display=Display(size, fullscreen=False), use_camera=False)
    session = GameSession.new(engine_class(game), {"action": "setup", **setup}, app.journal, **app._session_kw())
    app._enter(GAME_ENTRIES[game], session)
    return app
