"""The wall clock jumping while the companion runs (network time arriving on a Pi without a clock battery)."""

from __future__ import annotations

from companion.app import App
from companion.config import Config
from companion.display import Display
from companion.games.haste_worte import Phase
from companion.games_ui import register_all
from companion.views.haste_worte_view import HasteWorteMode
from hardware.events import Button, ButtonEvent

HOUR = 3600.0


class Clocks:
    """The frames' steady clock, and a wall clock the network may set forward at any moment."""

    def __init__(self) -> None:
        self.mono, self.jump = 1000.0, 0.0

    def wall(self) -> float:
        return 1_900_000_000.0 + self.mono + self.jump


def _frames(app: App, clocks: Clocks, n: int = 3, dt: float = 0.1) -> None:
    for _ in range(n):
        clocks.mono += dt
        app.frame(dt, [])


def _press(app: App, clocks: Clocks, button: Button) -> None:
    app.on_button(ButtonEvent(button))
    _frames(app, clocks)


def _app(tmp_path, clocks: Clocks) -> App:
    register_all()
    cfg = Config()
    cfg.language, cfg.players = "de", ["Anna", "Ben", "Carla"]
    app = App(cfg, state_dir=tmp_path, display=Display((800, 480), fullscreen=False), use_camera=False,
              clock=lambda: clocks.mono, wall_clock=clocks.wall)
    _frames(app, clocks)
    return app


def _to_the_main_menu_and_back(app: App, clocks: Clocks) -> None:
    """UNDO, "Main menu (game stays saved)", "Resume": the game's screen is built again."""
    _press(app, clocks, Button.UNDO)  # the pause menu
    menu = app.mode.menu
    for _ in range(len(menu.items)):  # NEXT passes rows greyed out ("Say it again" before anything was said)
        if "Hauptmenü" in menu.items[menu.index].label:
            break
        _press(app, clocks, Button.NEXT)
    assert "Hauptmenü" in menu.items[menu.index].label
    _press(app, clocks, Button.SELECT)  # the main menu, the game kept
    assert app.mode.menu.items[0].label.startswith("Weiterspielen")
    _press(app, clocks, Button.SELECT)  # resume
    _frames(app, clocks, 10)


def test_haste_worte_sand_runs_on_after_the_main_menu_when_the_wall_clock_jumped(tmp_path):
    """UNDO, "Main menu (game stays saved)", "Resume": the new screen compared the raw wall clock, 20 h on since the
    network's time came, with the sand's start, and the sand ran out at once."""
    clocks = Clocks()
    app = _app(tmp_path, clocks)
    _press(app, clocks, Button.NEXT)  # Haste Worte, below free play
    for _ in range(12):
        if isinstance(app.mode, HasteWorteMode):
            break
        _press(app, clocks, Button.SELECT)
    game = app.session.engine
    _press(app, clocks, Button.ROLL)
    for _ in range(40):
        if game.phase is Phase.WRITING:
            break
        _press(app, clocks, Button.TIMER if game.phase is Phase.LETTER else Button.SELECT)
    if not game.hourglass.is_running(app.mode.wall_now()):
        _press(app, clocks, Button.TIMER)
    view = app.mode
    assert game.phase is Phase.WRITING and game.hourglass.is_running(view.wall_now())
    _frames(app, clocks, 100)  # ten seconds of sand
    left = game.hourglass.remaining(view.wall_now())
    clocks.jump = 20 * HOUR  # the network's time
    _to_the_main_menu_and_back(app, clocks)
    assert isinstance(app.mode, HasteWorteMode) and app.mode is not view
    assert game is not app.session.engine
    game = app.session.engine
    assert game.phase is Phase.WRITING
    assert not any(a.get("action") == "timer_expired" for a in app.session.actions)
    assert game.hourglass.remaining(app.mode.wall_now()) > left - 3  # about a second of menus since


def test_fritzos_race_clock_runs_on_after_the_main_menu_when_the_wall_clock_jumped(tmp_path):
    """The same for Fritzo's clock against the time (its screen's code is Haste Worte's)."""
    from companion.app import GAME_ENTRIES
    from companion.views.fritzo_view import FritzoMode

    clocks = Clocks()
    app = _app(tmp_path, clocks)
    app.new_game(GAME_ENTRIES["fritzo"], {"mode": "beginner", "minutes": 10, "_players": ("Mia",)})
    _frames(app, clocks)
    view = app.mode
    _press(app, clocks, Button.SELECT)  # the clock starts
    _frames(app, clocks, 100)
    left = view.clock_left()
    assert left is not None and 580 < left < 595
    clocks.jump = 20 * HOUR
    _to_the_main_menu_and_back(app, clocks)
    assert isinstance(app.mode, FritzoMode) and app.mode is not view
    assert not app.session.engine.finished
    assert not any(a.get("action") in ("time_up", "timer_interrupted") for a in app.session.actions)
    assert app.mode.clock_left() > left - 3
