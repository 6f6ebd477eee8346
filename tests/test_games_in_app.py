"""Every game reachable from the main menu with buttons alone: setup wizard, first screen, at both sizes."""

from __future__ import annotations

import queue

import numpy as np
import pygame
import pytest

from companion.app import GAME_ENTRIES, MENU_CORNER, NOTICE_COLOURS, App
from companion.config import Config
from companion.display import Display
from companion.games_ui import ENTRIES, register_all
from companion.views import theme
from companion.views.menus import NAMES, PICK, SetupWizard
from companion.views.widgets import MenuItem
from hardware.events import Button, ButtonEvent, Press

register_all()


def _echt_spitze_in_app(tmp_path, then: list[dict]):
    """An English Echt Spitze of Sara and Ben in the app: both took a die and left the middle, then ``then``."""
    import random

    from companion.games.echt_spitze import EchtSpitze
    from companion.session import GameSession

    cfg = Config()
    cfg.language = "en"
    app = App(cfg, state_dir=tmp_path, display=Display((800, 480), fullscreen=False), use_camera=False)
    session = GameSession.new(EchtSpitze, {"action": "setup", "players": ["Sara", "Ben"],
                                           "kinds": {"pears": [5, 3], "plums": [4, 2], "lemons": [9, 7]}},
                              app.journal, lang="en", rng=random.Random(3))
    for action in ({"action": "roll", "dice": ["1", "2", "3", "4"]}, {"action": "take", "die": 1},
                   {"action": "take", "die": 2}, {"action": "leave"}, *then):
        assert session.apply(action), session.error
    app._enter(GAME_ENTRIES["echt-spitze"], session)
    app.journal.flush_snapshot()  # as the frame showing the last step does
    return app, session


def start_game(app: App, name: str) -> None:
    """From the main menu, start ``name`` with buttons alone, each setup question answered with its first choice."""
    items = [item.value for item in app.mode.menu.items]
    for _ in range(items.index(("new", name))):
        app.on_button(ButtonEvent(Button.NEXT))
    for _ in range(10):
        if app.session is not None:
            break
        menu = getattr(app.mode, "menu", None)
        if menu is not None and ("start", name) in [item.value for item in menu.items]:  # a game left unfinished
            menu.index = [item.value for item in menu.items].index(("start", name))
        app.on_button(ButtonEvent(Button.SELECT))


def camera_app(tmp_path, lang: str, **kw) -> App:
    """The app for Anna and Ben in ``lang``, the built-in tray as its camera (so games read dice or say why not)."""
    cfg = Config()
    cfg.players = ["Anna", "Ben"]
    cfg.language = lang
    return App(cfg, state_dir=tmp_path, display=Display((800, 480), fullscreen=False), source_spec="synthetic:3",
               **kw)


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
    own = pygame.Surface((800, 480))
    app.mode.draw(own)  # the game's screen alone: the app's menu corner goes on top, so nothing of the game's is there
    corner = pygame.surfarray.array3d(own)[MENU_CORNER.x:MENU_CORNER.right, MENU_CORNER.y:MENU_CORNER.bottom]
    assert (corner == np.array(theme.BG, np.uint8)).all()


def game_with_hints_seen(tmp_path, monkeypatch, name: str, players: list[str]
                         ) -> tuple[App, list[list[tuple[str, str]]]]:
    """``name`` started in English for ``players``, and the list every hint bar its screen draws goes into (game
    screens draw theirs through ``widgets.game_hint_bar``)."""
    from companion.views import widgets

    cfg = Config(language="en")
    cfg.players = players
    app = App(cfg, state_dir=tmp_path, display=Display((800, 480), fullscreen=False), use_camera=False)
    start_game(app, name)
    shown: list[list[tuple[str, str]]] = []
    real = widgets.hint_bar
    monkeypatch.setattr(widgets, "hint_bar", lambda surface, hints: shown.append(list(hints)) or real(surface, hints))
    return app, shown


@pytest.mark.parametrize("name", [e.name for e in ENTRIES])
def test_where_a_game_screen_says_undo_opens_the_menu_it_does(tmp_path, monkeypatch, name):
    """A table with buttons only reads the hint bar: "UNDO menu" must be what UNDO does there, before and after a
    roll."""
    app, shown = game_with_hints_seen(tmp_path, monkeypatch, name, ["Anna", "Ben", "Carla"])
    checked = 0
    for press in (None, Button.ROLL):
        if press is not None:
            app.on_button(ButtonEvent(press))
        app.frame(0.03, [])
        if ("UNDO", "menu") in shown[-1]:
            game = app.mode
            app.on_button(ButtonEvent(Button.UNDO))
            assert app.mode is not game and app.mode.menu.items[0].value == "continue"  # the pause menu
            app.on_button(ButtonEvent(Button.UNDO))  # back to the game
            assert app.mode is game
            checked += 1
    assert checked  # every game shows it somewhere here


def setup_of(tmp_path, game: str, players: tuple[str, ...] = ("Anna", "Ben", "Carla", "David"), **kw) -> App:
    """An app whose main menu has just opened ``game``'s setup, for ``players`` in the config."""
    cfg = Config()
    cfg.players = list(players)
    app = App(cfg, state_dir=tmp_path, display=Display((800, 480), fullscreen=False), use_camera=False, **kw)
    items = [item.value for item in app.mode.menu.items]
    for _ in range(items.index(("new", game))):
        app.on_button(ButtonEvent(Button.NEXT))
    app.on_button(ButtonEvent(Button.SELECT))
    return app


def test_who_starts_offers_only_the_players_who_play(tmp_path):
    app = setup_of(tmp_path, "echt-spitze")
    values = [i.value for i in app.mode.mode.menu.items]
    assert values[-2:] == [PICK, NAMES]  # others than the first N, name by name; the players screen
    assert [len(v) for v in values[:-2]] == [4, 3, 2, 1]  # how many: everybody first
    app.on_button(ButtonEvent(Button.NEXT))
    app.on_button(ButtonEvent(Button.NEXT))
    app.on_button(ButtonEvent(Button.SELECT))  # two play
    assert [i.label for i in app.mode.mode.menu.items] == ["Anna", "Ben"]
    assert app.mode.mode.menu.title == "Wer hat zuletzt einen Bleistift gespitzt? (beginnt)"  # the rulebook's words
    app.on_button(ButtonEvent(Button.NEXT))
    app.on_button(ButtonEvent(Button.SELECT))  # Ben starts
    app.on_button(ButtonEvent(Button.SELECT))  # level 1
    assert app.session.actions[0]["players"] == ["Anna", "Ben"] and app.session.actions[0]["start"] == 1


def test_haste_worte_offers_its_two_variants_together(tmp_path):
    """The rulebook's variants combine (the engine plays both at once); the setup offered one or the other."""
    app = setup_of(tmp_path, "haste-worte")
    app.on_button(ButtonEvent(Button.SELECT))  # everybody plays
    app.on_button(ButtonEvent(Button.SELECT))  # Anna is the youngest
    assert app.mode.mode.menu.items[-1].label == "Varianten 1 und 2"
    app.mode.mode.menu.index = len(app.mode.mode.menu.items) - 1
    app.on_button(ButtonEvent(Button.SELECT))
    assert app.session is not None and app.session.engine.letter_first and app.session.engine.simultaneous


def test_who_plays_can_be_chosen_name_by_name_in_seat_order(tmp_path, out_dir):
    """Ben sits this one out: the first N names were the only choice, so the seats had to be reordered first."""
    app = setup_of(tmp_path, "echt-spitze")
    for _ in range(2):
        app.on_button(ButtonEvent(Button.PREV))
    app.on_button(ButtonEvent(Button.SELECT))  # "Andere wählen …"
    menu = app.mode.mode.menu
    assert [i.label for i in menu.items] == ["Los: Anna, Ben, Carla, David", "Anna spielt mit", "Ben spielt mit",
                                             "Carla spielt mit", "David spielt mit"]
    app.on_button(ButtonEvent(Button.UNDO))  # back to how many play
    assert app.mode.mode.menu.items[-2].value == PICK
    for _ in range(2):
        app.on_button(ButtonEvent(Button.PREV))
    app.on_button(ButtonEvent(Button.SELECT))
    for _ in range(2):
        app.on_button(ButtonEvent(Button.NEXT))
    app.on_button(ButtonEvent(Button.SELECT))  # Ben sits out
    assert app.mode.mode.menu.items[2].label == "Ben setzt aus"
    app.draw(app.display.canvas)
    app.display.present()
    pygame.image.save(app.display.window, str(out_dir / "setup_who_plays.png"))
    for _ in range(2):
        app.on_button(ButtonEvent(Button.PREV))
    app.on_button(ButtonEvent(Button.SELECT))  # "Los: Anna, Carla, David"
    assert [i.label for i in app.mode.mode.menu.items] == ["Anna", "Carla", "David"]  # who starts
    app.on_button(ButtonEvent(Button.SELECT))
    app.on_button(ButtonEvent(Button.SELECT))  # level 1
    assert app.session.actions[0]["players"] == ["Anna", "Carla", "David"]


def test_the_names_can_be_changed_from_the_question_of_who_plays(tmp_path):
    """A family's first game showed the config's example names: "Namen ändern …" opens the players screen, and
    when it is done the same game's setup starts again with the names as they are now."""
    from companion.views.players_view import PlayersMode

    cfg = Config()
    app = App(cfg, state_dir=tmp_path, display=Display((800, 480), fullscreen=False), use_camera=False)
    items = [item.value for item in app.mode.menu.items]
    for _ in range(items.index(("new", "noch-x-mal"))):
        app.on_button(ButtonEvent(Button.NEXT))
    app.on_button(ButtonEvent(Button.SELECT))
    app.on_button(ButtonEvent(Button.PREV))
    assert app.mode.mode.menu.items[app.mode.mode.menu.index].value == NAMES
    app.on_button(ButtonEvent(Button.SELECT))
    assert isinstance(app.mode, PlayersMode)
    app.mode.players = ["Mia", "Tom"]  # as typed on the screen
    app.on_button(ButtonEvent(Button.PREV))  # the outline onto "done"
    app.on_button(ButtonEvent(Button.SELECT))
    assert cfg.players == ["Mia", "Tom"]
    assert [i.label for i in app.mode.mode.menu.items][:2] == ["2: Mia, Tom", "1: Mia"]  # Noch X-Mal!'s setup again


def test_choosing_who_plays_takes_only_a_count_the_game_takes(tmp_path):
    """Fritzo Strategy is for two: "Los" waits until exactly two play; the names go in seat order."""
    app = setup_of(tmp_path, "fritzo")
    app.on_button(ButtonEvent(Button.PREV))
    app.on_button(ButtonEvent(Button.SELECT))  # Strategy
    assert [i.label for i in app.mode.mode.menu.items] == ["2: Anna, Ben", "Andere wählen …", "Namen ändern …"]
    app.on_button(ButtonEvent(Button.NEXT))
    app.on_button(ButtonEvent(Button.SELECT))
    menu = app.mode.mode.menu
    for name, ok in (("David", False), ("Ben", True), ("Anna", False)):  # Anna and Ben to start: three, two, one
        menu.index = [i.value for i in menu.items].index(name)
        app.on_button(ButtonEvent(Button.SELECT))
        menu = app.mode.mode.menu
        assert menu.items[0].enabled is ok
    menu.index = [i.value for i in menu.items].index("Carla")
    app.on_button(ButtonEvent(Button.SELECT))
    assert app.mode.mode.menu.items[0].enabled and app.mode.mode.menu.items[0].label == "Los: Carla, David"
    app.mode.mode.menu.index = 0
    app.on_button(ButtonEvent(Button.SELECT))
    app.on_button(ButtonEvent(Button.SELECT))  # Carla starts
    app.on_button(ButtonEvent(Button.SELECT))  # her colours: the first three, as offered first
    assert app.session is not None and app.session.engine.state.players == ["Carla", "David"], app.notice


@pytest.mark.parametrize(("mode", "asked"), [(0, None), (1, None), (2, None), (3, "Wer ist am jüngsten? (beginnt)"),
                                             (6, "Wer würfelt zuerst? (Wer zuerst Blau würfelt, bekommt 14 Cubes.)"),
                                             (7, "Wer würfelt zuerst?")])
def test_fritzo_asks_who_starts_only_where_there_are_turns(tmp_path, mode, asked):
    """Beginner, Challenge and Professional with two players asked "Wer beginnt?" and ignored the answer: they have
    no turns. Where it is asked, the question says what it decides (Team: the youngest places the first cube; Level
    One and Strategy: who rolls first), and the answer is the game's."""
    app = setup_of(tmp_path, "fritzo", ("Anna", "Ben"))
    for _ in range(mode):
        app.on_button(ButtonEvent(Button.NEXT))
    app.on_button(ButtonEvent(Button.SELECT))  # the mode
    app.on_button(ButtonEvent(Button.SELECT))  # 2: Anna, Ben
    if asked is None:  # the solo modes ask only for an optional time limit (no clock first)
        assert app.session is None and app.mode.mode.menu.title.startswith("Mit Zeitlimit?")
        app.on_button(ButtonEvent(Button.SELECT))
        assert app.session is not None, app.mode.mode.menu.title
        assert "start" not in app.session.actions[0]
        return
    assert app.session is None and app.mode.mode.menu.title == asked
    assert [i.label for i in app.mode.mode.menu.items] == ["Anna", "Ben"]
    app.on_button(ButtonEvent(Button.NEXT))
    for _ in range(3):
        if app.session is not None:
            break
        app.on_button(ButtonEvent(Button.SELECT))  # Ben; the first answer to any question after it
    assert app.session is not None and app.session.actions[0]["start"] == 1
    assert app.session.engine.state.players[app.session.engine.state.turn] == "Ben"


def test_fritzo_level_one_asks_for_the_playing_time(tmp_path, out_dir):
    """"Danach einigen sich die Spieler auf die Spieldauer": the setup never asked, the clock was always 10:00.
    The question offers 5 to 20 minutes with 10 (the rulebook's "10 Minuten+") highlighted; the answer goes into the
    journaled setup. Strategy has no playing time and is not asked."""
    app = setup_of(tmp_path, "fritzo", ("Anna", "Ben"))
    for _ in range(6):
        app.on_button(ButtonEvent(Button.NEXT))
    app.on_button(ButtonEvent(Button.SELECT))  # Level One
    app.on_button(ButtonEvent(Button.SELECT))  # 2: Anna, Ben
    app.on_button(ButtonEvent(Button.SELECT))  # Anna rolls first
    menu = app.mode.mode.menu
    assert menu.title == "Wie lange wird gespielt?"
    assert [i.label for i in menu.items] == ["5 Minuten", "10 Minuten", "15 Minuten", "20 Minuten"]
    assert menu.items[menu.index].value == 10
    app.draw(app.display.canvas)
    app.display.present()
    pygame.image.save(app.display.window, str(out_dir / "setup_fritzo_minutes.png"))
    app.on_button(ButtonEvent(Button.NEXT))
    app.on_button(ButtonEvent(Button.SELECT))  # 15 minutes
    app.on_button(ButtonEvent(Button.SELECT))  # Anna's colours: the first three, as offered first
    assert app.session is not None and app.session.actions[0]["minutes"] == 15
    assert app.session.engine.state.hourglass.duration == 15 * 60
    strategy = setup_of(tmp_path / "strategy", "fritzo", ("Anna", "Ben"))
    strategy.on_button(ButtonEvent(Button.PREV))
    for _ in range(4):
        strategy.on_button(ButtonEvent(Button.SELECT))  # Strategy, two players, Anna rolls first, her colours
    assert strategy.session is not None and "minutes" not in strategy.session.actions[0]


@pytest.mark.parametrize("mode", range(8))
@pytest.mark.parametrize("configured", [["Anna", "Ben", "Carla", "David"], ["Anna"]])
def test_every_fritzo_mode_offers_only_player_counts_it_takes(tmp_path, mode, configured):
    """Four players in the config, Fritzo Strategy chosen, the first count offered (everybody) taken: the game then
    refused "Strategy is for 2 to 2 players, not 4" at the end of the setup. Each mode offers only its counts now,
    and every count offered starts the game."""
    from companion.games.fritzo import cubeset

    cubeset.save(cubeset.default_set())  # the family's cubes taught: nothing to say at the start
    cfg = Config()
    cfg.players = configured
    for pick in range(4):
        app = App(cfg, state_dir=tmp_path / f"{pick}", display=Display((800, 480), fullscreen=False),
                  use_camera=False)
        items = [item.value for item in app.mode.menu.items]
        for _ in range(items.index(("new", "fritzo"))):
            app.on_button(ButtonEvent(Button.NEXT))
        app.on_button(ButtonEvent(Button.SELECT))
        for _ in range(mode):
            app.on_button(ButtonEvent(Button.NEXT))
        app.on_button(ButtonEvent(Button.SELECT))  # the mode
        asking = app.session is None and app.mode.steps[app.mode.index].key == "_players"
        counts = [i for i in app.mode.mode.menu.items if i.value not in (PICK, NAMES)] if asking else [None]
        offered = len(counts)
        if pick >= offered:
            break
        for _ in range(pick):
            app.on_button(ButtonEvent(Button.NEXT))
        for _ in range(6):
            if app.session is not None:
                break
            app.on_button(ButtonEvent(Button.SELECT))
        assert app.session is not None and app.session.engine.state.players, app.notice
        assert app.notice is None


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
    assert labels[:-1] == [f"2: Anna, {seat}"]  # and the players screen, to name the seat
    for _ in range(10):
        if app.session is not None:
            break
        app.on_button(ButtonEvent(Button.SELECT))
    assert app.session is not None, app.notice
    assert app.session.actions[0]["players"] == ["Anna", seat]


def test_a_finished_game_says_what_now_and_select_plays_it_again(tmp_path, out_dir):
    """At the end the game's own hints (NEXT move, SELECT choose) offered moves there are none of: the screen now
    says SELECT plays again (the same game's setup, so the players may change) and UNDO opens the menu; with touch
    alone, each hint is pressed by tapping it."""

    from companion.i18n import t
    from companion.views.widgets import hint_bar, hint_button

    app, session = _echt_spitze_in_app(tmp_path, [
        {"action": "report", "player": "Sara", "kinds": ["pears", "plums", "lemons"]},
        {"action": "end_turn"}, {"action": "final", "player": "Sara", "stars": 1, "leftover": 0}])
    app.on_button(ButtonEvent(Button.SELECT))  # not over yet: SELECT is the game's own (Ben's final score)
    assert app.mode is app.game_mode and app.mode.sub == ("final", "Ben")
    for _ in range(4):
        app.on_button(ButtonEvent(Button.NEXT))
    app.on_button(ButtonEvent(Button.SELECT))  # Done
    assert session.engine.finished, session.error
    app.frame(0.03, [])
    pygame.image.save(app.display.window, str(out_dir / "app_game_over.png"))
    from companion.announce import Announcement
    from companion.announcer import Announcer
    from companion.audio import NullAudio

    app.announcer = Announcer("en", audio=NullAudio())  # the last scores' banners: clear of the two buttons
    app.announcer.announce(Announcement("echt.game_over.kinds", {"players": ["Sara"]}))
    app.frame(0.03, [])
    assert app._banner is not None and not any(app._banner.colliderect(r) for r in app._over_hints)
    app.announcer = None
    expected = pygame.Surface((800, 480))
    expected.fill(theme.BG)
    for rect in hint_bar(expected, [("SELECT", "play again"), ("UNDO", "menu")]):
        hint_button(expected, rect)  # framed: a finger's buttons
    assert (pygame.surfarray.array3d(app.display.canvas)[:, 446:] == pygame.surfarray.array3d(expected)[:, 446:]).all()
    reached: list = []
    own_tap, app.game_mode.on_tap = app.game_mode.on_tap, reached.append
    app.on_tap((780, 470))  # the bar, beside the two hints: the game's own hints under it are not pressed unseen
    assert reached == [] and app.mode is app.game_mode and session.engine.finished
    app.game_mode.on_tap = own_tap
    app.on_tap(app._over_hints[1].center)  # touch alone: the hints are buttons
    assert app.mode is not app.game_mode and [i.value for i in app.mode.menu.items][0] == "continue"
    assert t("core.pause_main_menu_over", "en") in [i.label for i in app.mode.menu.items]  # not "stays saved"
    app.on_button(ButtonEvent(Button.UNDO))  # back to the end of the game
    app.frame(0.03, [])
    app.on_tap(app._over_hints[0].center)
    assert app.mode.mode.menu.title == t("core.setup_how_many", "en")  # the same game's setup, from its start
    escape = pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE, mod=0, unicode="", scancode=0)
    app.frame(0.03, [escape])  # Escape: back to the end of the game
    assert app.mode is app.game_mode
    app.on_button(ButtonEvent(Button.REROLL))  # a German table's NOCHMAL ("again") did nothing there
    assert app.mode.mode.menu.title == t("core.setup_how_many", "en")
    app.frame(0.03, [escape])
    assert app.mode is app.game_mode
    app.on_button(ButtonEvent(Button.SELECT))
    assert app.mode.mode.menu.title == t("core.setup_how_many", "en")
    app.on_button(ButtonEvent(Button.UNDO))  # UNDO (or its framed hint) too: the scores, not the main menu
    assert app.mode is app.game_mode and session.engine.finished


@pytest.mark.parametrize(("name", "action"), [("echt-spitze", "roll"), ("noch-x-mal", "start_combo"),
                                              ("haste-worte", "roll")])
def test_without_a_camera_the_built_in_tray_throws_the_games_taught_dice_and_they_are_read(tmp_path, name, action):
    """A laptop without a camera: the built-in tray throws the game's own (made-up) dice, as many as the game wants
    now (Echt Spitze for two: four; a Noch X-Mal! start: one colour and one number die), and once the set is
    taught they are read like a camera's. Before, it threw pip dice, which a taught reader cannot read."""
    import time
    from collections import Counter

    from synth_dice import taught_profile

    from companion import profiles

    dice_set = GAME_ENTRIES[name].dice_set
    profiles.save_profile(taught_profile(dice_set, 1))
    cfg = Config()
    cfg.players = ["Anna", "Ben"]
    app = App(cfg, state_dir=tmp_path, display=Display((800, 480), fullscreen=False), source_spec="synthetic:3")
    try:
        app.main_menu()
        start_game(app, name)
        assert app.session.camera_ready
        wanted = app.mode.dice_to_throw()
        throws = []
        watcher_throw = app.watcher.throw
        app.watcher.throw = lambda: (throws.append(True), watcher_throw())
        app.on_button(ButtonEvent(Button.ROLL))
        assert not throws  # ROLL's request throws the dice: a second throw asked for could come apart (two throws)
        deadline = time.monotonic() + 20
        while (len(app.session.actions) == 1 and getattr(app.mode, "pending", None) is None
               and time.monotonic() < deadline):
            app.frame(0.03, [])
            time.sleep(0.02)
        # read, or (a die unsure, about one in a hundred) asked about: the game has the dice either way
        pending = getattr(app.mode, "pending", None)
        if pending is None:
            assert app.session.actions[-1]["action"] == action, app.session.error
        read = pending if pending is not None else app.session.actions[-1]["dice"]
        assert len(read) == len(wanted)
        truth = Counter(d.face for d in app.watcher.source.truth)
        assert not Counter(f for f in read if f is not None) - truth  # no die named wrongly
        assert sum(f is not None for f in read) >= len(read) - 1
    finally:
        app.close()


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_game_whose_dice_are_not_taught_or_taught_in_part_says_so_when_started(tmp_path, out_dir, lang):
    """With a camera looking at the tray, a game whose dice were never taught rolls virtual dice on ROLL: a family
    throwing its real dice would see other faces on the screen. Starting or resuming such a game says so and where
    to teach them; taught in part, it says how far (a die showing another face is asked about); once taught,
    nothing is said."""
    from synth_dice import crops, taught_profile

    from companion import profiles
    from companion.i18n import t
    from vision.taught import Profile

    app = camera_app(tmp_path, lang)
    try:
        app.main_menu()
        start_game(app, "echt-spitze")
        assert not app.session.camera_ready
        words = t("core.dice_not_taught", lang, game=t("core.menu_echt_spitze", lang))
        assert app.notice == words
        assert ("Teach dice" if lang == "en" else "Würfel anlernen") in words
        app.frame(0.03, [])
        pygame.image.save(app.display.window, str(out_dir / f"app_not_taught_{lang}.png"))
        # no trouble, so not red: a family playing with virtual dice every evening saw a red strip at every start
        assert app.notice_tone == "info"
        strip = pygame.surfarray.array3d(app.display.canvas)[400, 300:440]
        assert not (np.abs(strip.astype(int) - NOTICE_COLOURS["bad"][0]).sum(axis=1) < 20).any()
        assert (np.abs(strip.astype(int) - theme.PANEL_HI).sum(axis=1) < 20).any()
        app.main_menu()
        app.notice = None
        saved = app.mode.menu.items[0].value
        assert saved[0] == "resume"
        app.resume(saved[1])  # the game just left for the menu: back in it, nothing interrupted
        assert app.notice == f"{t('core.back_in_game', lang)} {words}" and app.notice_tone == "info"
        # taught in part: the dice are read, and a die showing a face not taught yet is asked about
        app.main_menu()
        app.notice = None
        part = Profile("echt-spitze")
        for face in ("1", "2", "3"):
            for crop in crops("echt-spitze", face, 2, np.random.default_rng(2), hard=False):
                part.add(face, crop)
        profiles.save_profile(part)
        start_game(app, "echt-spitze")
        assert app.session.camera_ready
        assert app.notice == t("core.dice_part_taught", lang, game=t("core.menu_echt_spitze", lang), taught=18,
                               total=36)
        app.frame(0.03, [])
        pygame.image.save(app.display.window, str(out_dir / f"app_part_taught_{lang}.png"))
        app.main_menu()
        app.notice = None
        profiles.save_profile(taught_profile("echt-spitze", 1))
        start_game(app, "echt-spitze")
        assert app.session.camera_ready and app.notice is None
        # Haste Worte's editions print other symbols than the rulebook's eleven (an open set): the dice taught
        # are the edition's, and no count of the rulebook's says how far that is
        app.main_menu()
        edition = Profile("haste-worte")
        for face in ("fruit", "car"):
            for crop in crops("haste-worte", face, 2, np.random.default_rng(3), hard=False):
                edition.add(face, crop)
        profiles.save_profile(edition)
        start_game(app, "haste-worte")
        assert app.session.camera_ready and app.notice is None
    finally:
        app.close()


@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_not_taught_notice_at_a_games_start_stands_above_the_first_banner_readable(tmp_path, out_dir, lang,
                                                                                       monkeypatch):
    """A game's start shows its first banner at the foot of the screen ("Runde 1: Anna würfelt.") and, with dice
    not taught, a notice of three sentences: the banner covered the notice, and the notice, squeezed into two
    lines, was drawn at 14 px, too small to read across the table. It stands above the banner, in up to four lines
    at SMALL or larger."""
    from companion import app as app_module
    from companion.announcer import Announcer

    notices: list[pygame.Rect] = []
    draw_notice = app_module._draw_notice
    monkeypatch.setattr(app_module, "_draw_notice", lambda s, m, **k: notices.append(draw_notice(s, m, **k)))
    announcer = Announcer(lang)
    app = camera_app(tmp_path, lang, announcer=announcer, clock=lambda: 100.0)
    try:
        app.main_menu()
        start_game(app, "haste-worte")
        assert not app.session.camera_ready and app.notice
        announcer.update(100.0)
        banner = announcer.draw(app.display.canvas)
        assert banner is not None and banner.bottom > 400  # the first banner, at the foot of the screen
        app.draw(app.display.canvas)
        assert notices and not notices[-1].colliderect(banner) and notices[-1].top > 100
        lines, size = theme.fit_lines(app.notice, theme.BODY, 770, max_lines=4)
        assert size >= theme.SMALL and notices[-1].height == 14 + len(lines) * (size + 8)
        app.display.present()
        pygame.image.save(app.display.window, str(out_dir / f"app_not_taught_banner_{lang}.png"))
    finally:
        app.close()


def test_a_game_start_loads_its_dice_profile_once(tmp_path, monkeypatch):
    """The reader and the start's "18 of 36 faces taught" both need the profile: loading it a second time for the
    count cost a Pi a quarter of a second at every start and resume of a game with a year's examples."""
    from synth_dice import crops

    from companion import profiles
    from vision.taught import Profile

    part = Profile("echt-spitze")
    for face in ("1", "2", "3"):
        for crop in crops("echt-spitze", face, 2, np.random.default_rng(2), hard=False):
            part.add(face, crop)
    profiles.save_profile(part)
    loads: list[str] = []
    load = profiles.load_profile
    monkeypatch.setattr(profiles, "load_profile", lambda name, *a, **k: (loads.append(name), load(name, *a, **k))[1])
    app = camera_app(tmp_path, "de")
    try:
        app.main_menu()
        loads.clear()
        start_game(app, "echt-spitze")
        assert app.session.camera_ready and "18" in app.notice
        assert loads == ["echt-spitze"]
    finally:
        app.close()


@pytest.mark.parametrize("lang", ["de", "en"])
def test_a_damaged_dice_profile_is_said_at_the_games_start_not_taken_for_dice_never_taught(tmp_path, lang):
    """A profile that no longer loads is kept aside; from then on the dice look never taught, and "your dice are
    not taught yet" would hide that an evening's teaching was lost. The start says so once, in the table's
    language, and the game goes on with virtual dice."""
    from synth_dice import taught_profile

    from companion import profiles
    from companion.i18n import t

    path = profiles.save_profile(taught_profile("echt-spitze", 1))
    data = bytearray(path.read_bytes())
    data[len(data) // 2:len(data) // 2 + 40] = bytes(b ^ 0x5A for b in data[len(data) // 2:len(data) // 2 + 40])
    path.write_bytes(bytes(data))
    app = camera_app(tmp_path, lang)
    try:
        app.main_menu()
        start_game(app, "echt-spitze")
        aside = next(path.parent.glob("echt-spitze.npz.corrupt-*")).name
        assert not app.session.camera_ready and not path.exists()
        assert app.notice == t("core.profile_damaged", lang, set=t("dice.set.echt-spitze", lang), file=aside)
        app.frame(0.03, [])
    finally:
        app.close()


def test_a_game_refusing_the_config_files_values_names_the_section(tmp_path):
    """letters = "" passes the config check (the engine judges letters) and then every start of Haste Worte said
    "The letters "" cannot be used" with no word of where they come from."""
    cfg = Config()
    cfg.players = ["Anna", "Ben"]
    cfg.language = "en"
    cfg.games = {"haste-worte": {"letters": ""}}
    app = App(cfg, state_dir=tmp_path, display=Display((800, 480), fullscreen=False), use_camera=False)
    try:
        start_game(app, "haste-worte")
        assert app.session is None
        assert app.notice.startswith('The config file\'s [games."haste-worte"] cannot be played: The letters')
    finally:
        app.close()


def test_a_new_game_asks_before_it_puts_an_unfinished_one_away(tmp_path, out_dir):
    """The pause menu promised "Main menu (the game stays saved)"; choosing another game, or free play, put the
    paused one into the history without a word, and only the new one was offered to resume."""
    cfg = Config()
    cfg.players = ["Anna", "Ben"]
    app = App(cfg, state_dir=tmp_path, display=Display((800, 480), fullscreen=False), use_camera=False)
    try:
        start_game(app, "haste-worte")
        assert app.session.apply({"action": "roll", "dice": ["car", "fruit", "water", "toys", "sports", "dishes"]})
        app.main_menu()
        app._main_choice(("new", "free-play"))
        assert app.session is None and app.mode.menu.title == "Haste Worte? Das Würfelspiel ist noch nicht fertig."
        assert [item.value[0] for item in app.mode.menu.items] == ["resume", "start"]  # resuming first
        app.frame(0.03, [])
        pygame.image.save(app.display.window, str(out_dir / "confirm_new_game.png"))
        app.on_button(ButtonEvent(Button.SELECT))  # resume: the roll is still there
        assert app.entry.name == "haste-worte" and len(app.session.actions) == 2
        app.main_menu()
        app._main_choice(("new", "echt-spitze"))
        app.on_button(ButtonEvent(Button.UNDO))  # changed one's mind: the main menu, the game still offered
        assert app.mode is app._main_menu_mode and app.mode.menu.items[0].value[0] == "resume"
    finally:
        app.close()


def test_fritzo_with_the_built_in_cubes_says_so_and_where_to_teach_yours(tmp_path):
    """Every place and position Fritzo offers is checked against its cube set: with none taught, the built-in nets
    stood in for the family's cubes without a word."""
    from companion.games.fritzo import cubeset

    cfg = Config()
    cfg.players = ["Anna", "Ben"]
    cfg.language = "en"
    app = App(cfg, state_dir=tmp_path, display=Display((800, 480), fullscreen=False), use_camera=False)
    try:
        start_game(app, "fritzo")
        assert app.session is not None and "built-in cubes" in app.notice and "Teach dice" in app.notice
        app.main_menu()
        cubeset.save(cubeset.default_set())  # a set taught
        app.notice = ""
        start_game(app, "fritzo")
        assert app.session is not None and "built-in cubes" not in app.notice
    finally:
        app.close()


def test_fritzo_with_neither_cubes_nor_colours_taught_says_where_to_teach_once(tmp_path):
    """Two notices saying nearly the same (built-in cubes: teach them; dice not taught: teach them) filled half the
    screen at the start."""
    app = camera_app(tmp_path, "en")
    try:
        app.new_game(GAME_ENTRIES["fritzo"], {"mode": "strategy", "_players": ("Anna", "Ben"), "start": 0})
        assert "built-in cubes" in app.notice and "not taught" in app.notice
        assert app.notice.count("Teach dice") == 1, app.notice
    finally:
        app.close()


def test_a_broken_dice_set_file_is_said_at_the_games_start(tmp_path):
    """The owner's copy of a set's file with a typo made the game's dice look never taught ("your dice are not
    taught yet"), the reason only in the log."""
    from companion import dicesets, paths
    from companion.i18n import said, t

    copy = paths.data_dir() / "dicesets" / "echt-spitze.toml"
    copy.parent.mkdir(parents=True, exist_ok=True)
    copy.write_text('name = "echt-spitze"\nreeder = "taught"\n', encoding="utf-8")
    app = camera_app(tmp_path, "en")
    try:
        app.main_menu()
        start_game(app, "echt-spitze")
        with pytest.raises(dicesets.DiceSetError) as broken:
            dicesets.load("echt-spitze")
        assert app.notice == t("core.diceset_broken", "en", error=said(broken.value, "en")) and "reeder" in app.notice
        assert "Line 2 of" in app.notice  # the table's words, with the line (the English details are the terminal's)
        copy.with_name("d6.toml").write_text('name = "d6"\nreeder = "pips"\n', encoding="utf-8")
        app.main_menu()
        start_game(app, "free-play")  # pip dice: the pips are read on, not virtual dice
        assert app.session.camera_ready and "reads the pips alone" in app.notice and "reeder" in app.notice
    finally:
        app.close()


def test_fritzo_with_a_broken_set_file_still_says_where_to_teach_its_cubes(tmp_path):
    """The broken file's words say nothing of teaching: the built-in cubes' note keeps its pointer."""
    from companion import paths

    copy = paths.data_dir() / "dicesets" / "fritzo.toml"
    copy.parent.mkdir(parents=True, exist_ok=True)
    copy.write_text('name = "fritzo"\nreeder = "taught"\n', encoding="utf-8")
    app = camera_app(tmp_path, "en")
    try:
        app.new_game(GAME_ENTRIES["fritzo"], {"mode": "strategy", "_players": ("Anna", "Ben"), "start": 0})
        assert "reeder" in app.notice and "built-in cubes" in app.notice and "Teach dice" in app.notice
    finally:
        app.close()


def writing(tmp_path, announcer=None, clock: dict | None = None) -> App:
    """Haste Worte for Anna and Ben, the letter drawn and the hourglass turned; the app's clocks stand still, or
    follow ``clock["now"]``."""
    clock = clock if clock is not None else {"now": 100.0}
    cfg = Config()
    cfg.players = ["Anna", "Ben"]
    app = App(cfg, state_dir=tmp_path, display=Display((800, 480), fullscreen=False), use_camera=False,
              announcer=announcer, clock=lambda: clock["now"], wall_clock=lambda: 1.9e9 + clock["now"] - 100.0)
    start_game(app, "haste-worte")
    app.session.apply({"action": "roll", "dice": ["car", "animals", "fruit", "water", "toys", "cities"]})
    for die in (1, 2):
        app.session.apply({"action": "pick", "die": die})
    app.session.apply({"action": "letter"})
    app.on_button(ButtonEvent(Button.TIMER))
    return app


def test_the_pause_menu_over_the_running_sand_counts_it_down(tmp_path, out_dir):
    """The menu's line said "Every step is saved": a table choosing the volume thought the game stood still while
    its 90 seconds ran out under the menu."""
    clock = {"now": 100.0}
    app = writing(tmp_path, clock=clock)
    app.frame(0.03, [])
    app.pause_menu()
    clock["now"] += 20.0
    app.frame(0.03, [])
    assert app.mode.subtitle == "Die Zeit läuft weiter: noch 70 s."
    pygame.image.save(app.display.canvas, str(out_dir / "haste_pause_over_the_sand.png"))
    app.session.unsaved = OSError(28, "No space left on device")  # and a card that refused the last step: both
    app.frame(0.03, [])
    assert app.mode.subtitle == "Die Zeit läuft weiter: noch 70 s. Nicht gespeichert: die Speicherkarte ist voll."
    app.session.unsaved = None
    clock["now"] += 71.0
    app.frame(0.03, [])
    assert app.mode.subtitle == "Jeder Schritt ist gespeichert, auch bei Stromausfall."  # time's up: it stands


def test_a_notice_during_the_writing_stands_clear_of_the_hourglass_and_its_buttons(tmp_path, out_dir):
    """"Game resumed exactly where it stopped" (or a rule's refusal) covered the seconds of a running hourglass."""
    from companion.views.haste_worte_view import HOURGLASS_RECT

    app = writing(tmp_path)
    session = app.session
    assert app.mode.hourglass_rect == HOURGLASS_RECT

    def hourglass() -> bytes:
        app.draw(app.display.canvas)
        return pygame.image.tobytes(app.display.canvas.subsurface(HOURGLASS_RECT), "RGB")

    def buttons() -> list[bytes]:  # "Time's up" and its neighbour, tapped while the sand runs
        return [pygame.image.tobytes(app.display.canvas.subsurface(r), "RGB") for r in app.mode._button_rects()]

    alone, shown = hourglass(), buttons()
    app.show_notice("Game resumed exactly where it stopped.", good=True)
    assert hourglass() == alone and buttons() == shown
    pygame.image.save(app.display.canvas, str(out_dir / "haste_notice_during_writing.png"))
    app.notice_until = 0.0
    session.error = "Die 7 does not exist: the round has 6 dice."
    assert hourglass() == alone and buttons() == shown


def test_a_notice_while_a_banner_stands_at_the_top_goes_under_it_clear_of_the_hourglass(tmp_path, out_dir, monkeypatch):
    """A banner at the top ("Runde 1: Anna würfelt.") covered the notice standing there; over the banner, the
    notice hid the sentence. It goes under the banner, beside the hourglass where the two would meet."""
    from companion import app as app_module
    from companion.announce import Announcement
    from companion.announcer import Announcer
    from companion.views.haste_worte_view import HOURGLASS_RECT

    announcer = Announcer("de")
    app = writing(tmp_path, announcer)
    session = app.session
    # Haste Worte's screen spares its status line and symbols while the sand runs, and a short banner stands at the
    # foot beside the hourglass: a screen sparing nothing, for the banner to stand at the top
    monkeypatch.setattr(type(app.mode), "in_view", property(lambda self: []))
    announcer.announce(Announcement("core.seconds_left", {"seconds": 10}))
    announcer.update(100.0)  # the first sentence in the queue shows
    drawn: list[pygame.Rect] = []
    banner = announcer.draw_banner
    monkeypatch.setattr(announcer, "draw_banner", lambda *a, **k: (drawn.append(banner(*a, **k)), drawn[-1])[1])
    notices: list[dict] = []
    draw_notice = app_module._draw_notice
    monkeypatch.setattr(app_module, "_draw_notice", lambda s, m, **k: (notices.append(k), draw_notice(s, m, **k)))

    def hourglass() -> bytes:
        app.draw(app.display.canvas)
        return pygame.image.tobytes(app.display.canvas.subsurface(HOURGLASS_RECT), "RGB")

    alone = hourglass()
    assert drawn[-1] is not None and drawn[-1].top < 100  # the banner stands at the top
    session.error = "Die 7 does not exist: the round has 6 dice."
    assert hourglass() == alone
    assert notices[-1]["top"] == drawn[-1].bottom  # under the banner, drawn after it
    pygame.image.save(app.display.canvas, str(out_dir / "haste_notice_under_a_banner.png"))


def test_the_hourglass_runs_out_while_the_pause_menu_is_open(tmp_path):
    """A short UNDO (the writing screen's "menu") stopped the sand's time's up until the menu closed: the table
    wrote on, twenty seconds past its time."""
    from companion.games.haste_worte import Phase

    clock = {"now": 100.0}
    app = writing(tmp_path, clock=clock)
    app.frame(0.03, [])
    assert app.session.engine.phase is Phase.WRITING
    app.on_button(ButtonEvent(Button.UNDO))  # the pause menu
    assert app.mode is not app.game_mode
    for _ in range(20):
        clock["now"] += 5.0
        app.frame(5.0, [])
    assert app.session.engine.phase is not Phase.WRITING  # time's up came on time, under the menu


def test_haste_worte_corrects_a_die_in_the_app_with_buttons_and_by_touch(tmp_path, monkeypatch):
    """Through the real app: "Correct a die" after the free dice, a die, its symbol; UNDO goes back a step (not to
    the pause menu), and the "UNDO back" hint is pressed by a finger as the button."""
    app, shown = game_with_hints_seen(tmp_path, monkeypatch, "haste-worte", ["Anna", "Ben"])
    app.session.camera_ready = True  # as a camera read them: a die may be corrected
    assert app.session.apply({"action": "roll", "dice": ["car", "fruit", "water", "toys", "sports", "dishes"]})
    app.frame(0.03, [])

    def press(button: Button) -> None:
        app.on_button(ButtonEvent(button))
        app.frame(0.03, [])

    for _ in range(6):
        press(Button.NEXT)  # past the six free dice: "Correct a die"
    press(Button.SELECT)
    assert ("UNDO", "back") in shown[-1]
    press(Button.UNDO)
    assert app.mode is app.game_mode and not app.mode.fixing  # out of correcting, in the game
    press(Button.SELECT)
    press(Button.NEXT)
    press(Button.SELECT)  # die 2: its symbols
    back = next(rect for rect, event in app.mode.hint_taps if event.button is Button.UNDO)
    app.on_tap(back.center)  # a finger on "UNDO back": back to the dice, still correcting
    app.frame(0.03, [])
    assert app.mode is app.game_mode and app.mode.fixing and app.mode.choosing is None
    press(Button.NEXT)
    press(Button.SELECT)  # die 3
    app.mode.choice_index = app.mode._choice_values().index("animals")
    press(Button.SELECT)
    assert app.session.actions[-1] == {"action": "correct", "die": 3, "face": "animals"}


@pytest.mark.parametrize("name", ["echt-spitze", "noch-x-mal"])
def test_a_die_read_wrongly_for_sure_is_corrected_in_the_app_with_buttons_alone(tmp_path, monkeypatch, name):
    """The play-tester's find, through the real app: a die read wrongly but for sure could not be corrected on the
    screen. With the buttons alone: to "Correct a die", a die, its true face. While correcting, the hint bar says
    UNDO goes back, and it does (not the pause menu), a step at a time."""
    app, shown = game_with_hints_seen(tmp_path, monkeypatch, name, ["Anna", "Ben"])
    game = app.mode

    def press(button: Button) -> None:
        app.on_button(ButtonEvent(button))
        app.frame(0.03, [])

    while app.session.engine.to_json().get("phase") not in ("take", "rolled"):
        press(Button.ROLL)  # Noch X-Mal!: both start combos, then roll 1
    app.session.camera_ready = True  # as a camera read them: a die may be corrected
    getattr(game, "refresh", lambda: None)()  # Noch X-Mal!'s menu, made for virtual dice
    if name == "echt-spitze":
        press(Button.PREV)  # from the first free die back round: "Correct a die"
    else:
        values = [item.value for item in game.current_menu.items]
        steps = values.index(("correct",)) - game.current_menu.index  # the highlight starts on "Everybody done"
        for _ in range(abs(steps)):
            press(Button.NEXT if steps > 0 else Button.PREV)
    press(Button.SELECT)
    assert ("UNDO", "back") in shown[-1]
    press(Button.UNDO)
    assert app.mode is game and ("UNDO", "back") not in shown[-1]  # out of correcting, in the game
    press(Button.SELECT)
    press(Button.NEXT)
    press(Button.SELECT)  # die 2
    assert ("UNDO", "back") in shown[-1]
    press(Button.UNDO)  # back to the dice: still correcting
    assert app.mode is game and ("UNDO", "back") in shown[-1]
    press(Button.SELECT)
    before = app.session.engine.to_json()
    press(Button.NEXT)  # the face after the one read (Echt Spitze's last face: "back" follows, one more)
    if name == "echt-spitze" and game.choice == len(game._face_options()):
        press(Button.NEXT)
    press(Button.SELECT)
    action = app.session.actions[-1]
    assert action["action"] == "correct" and action["die"] == 2, app.session.error
    assert app.session.engine.to_json() != before and app.session.error is None


def test_how_many_play_says_the_most_where_the_config_names_more(tmp_path):
    """Five names and Echt Spitze: "4: Oma, Mama, Papa, Lena" came first and nothing said why Tim was left out."""
    from companion.i18n import t

    cfg = Config()
    cfg.players = ["Oma", "Mama", "Papa", "Lena", "Tim"]
    cfg.language = "de"
    app = App(cfg, state_dir=tmp_path, display=Display((800, 480), fullscreen=False), use_camera=False)
    app._main_choice(("new", "echt-spitze"))
    assert app.mode.mode.menu.title == t("core.setup_how_many_most", "de", most=4) == \
        "Wie viele spielen mit? (höchstens 4)"
    app._main_choice(("new", "haste-worte"))  # room for all five: the plain question
    assert app.mode.mode.menu.title == t("core.setup_how_many", "de")


def test_fritzo_strategy_asks_how_the_colours_are_split(tmp_path):
    """"Die sechs Würfelfarben werden unter den Spielern aufgeteilt" (Strategy and Level One alike): the first seat
    got red, orange and yellow without a word, and a table that split them otherwise was scored wrongly."""
    app = setup_of(tmp_path, "fritzo", ("Anna", "Ben"))

    def choose(label_start: str) -> None:
        menu = app.mode.mode.menu
        index = next(k for k, item in enumerate(menu.items) if item.label.startswith(label_start))
        for _ in range((index - menu.index) % len(menu.items)):  # (the highlight starts on the last game's answer)
            app.on_button(ButtonEvent(Button.NEXT))
        app.on_button(ButtonEvent(Button.SELECT))

    choose("Strategy")
    choose("2:")
    choose("Anna")  # who rolls first
    menu = app.mode.mode.menu
    assert menu.title == "Welche Farben spielt Anna? (Ben die anderen drei)" and len(menu.items) == 20
    assert menu.items[0].label == "Rot, Orange, Gelb"  # the split used before, first
    choose("Rot, Grün, Weiß")
    state = app.session.engine.state
    assert state.colours == {"Anna": ["red", "green", "white"], "Ben": ["orange", "yellow", "blue"]}
    app.main_menu()
    app._main_choice(("new", "fritzo"))
    assert [item.value[0] for item in app.mode.menu.items] == ["resume", "start"]  # Strategy is not finished
    app.mode.menu.index = 1
    app.on_button(ButtonEvent(Button.SELECT))
    menu = app.mode.mode.menu  # the mode the last game was played in first (a question of several keys)
    assert menu.items[menu.index].label.startswith("Strategy")
    choose("Level One")
    choose("2:")
    choose("Anna")
    choose("10")  # Level One: the playing time, then the colours, split as in Strategy
    assert app.mode.mode.menu.title == "Welche Farben spielt Anna? (Ben die anderen drei)"
    choose("Orange, Gelb, Blau")
    state = app.session.engine.state
    assert state.mode.value == "level-one"
    assert state.colours == {"Anna": ["orange", "yellow", "blue"], "Ben": ["red", "green", "white"]}


def test_a_fritzo_mode_that_throws_no_cubes_says_nothing_of_virtual_dice(tmp_path):
    """Team play with a camera and no cubes taught said "ROLL rolls virtual dice", in a mode without a roll."""
    from companion.games.fritzo import cubeset
    from companion.i18n import t

    cubeset.save(cubeset.default_set())  # the cube set taught, their colours on the dice not
    app = camera_app(tmp_path, "en")
    try:
        app.new_game(GAME_ENTRIES["fritzo"], {"mode": "team", "target": "beginner", "_players": ("Anna", "Ben"),
                                              "start": 0})
        assert app.session is not None and app.notice is None
        app.main_menu()
        app.new_game(GAME_ENTRIES["fritzo"], {"mode": "strategy", "_players": ("Anna", "Ben"), "start": 0})
        assert app.notice == t("core.dice_not_taught", "en", game=t("core.menu_fritzo", "en"))
    finally:
        app.close()


@pytest.mark.parametrize("name", ["haste-worte", "echt-spitze", "noch-x-mal"])
def test_a_roll_tapped_on_the_touch_screen_asks_the_camera_as_roll_does(tmp_path, name):
    """A table with the touch screen alone: tapping the roll box or the "Roll" item said "waiting for the dice to
    settle" for ever, since only the ROLL button asked the camera for a reading. Asked once per roll, by either."""
    cfg = Config(language="en")
    cfg.players = ["Anna", "Ben"]
    app = App(cfg, state_dir=tmp_path, display=Display((800, 480), fullscreen=False), use_camera=False)
    start_game(app, name)

    class Camera:
        asked, source, auto, error, latest_frame = 0, None, False, None, None
        readings: queue.Queue = queue.Queue()

        def why_waiting(self, now: float) -> None:
            return None

        def request(self, *, roll: bool = True) -> None:
            self.asked += 1

        def cancel(self) -> None:
            pass

    app.watcher = camera = Camera()
    app.session.camera_ready = True
    app.frame(0.03, [])
    if name == "haste-worte":
        target = app.mode._targets()[0]  # the ROLL box
    else:
        rects = app.mode.menu.item_rects()
        target = next(rects[i] for i, item in enumerate(app.mode.menu.items) if item.value[0] in ("roll", "start"))
    app.on_tap(target.center)
    assert app.mode.waiting and camera.asked == 1
    app.mode.waiting = False
    app.on_button(ButtonEvent(Button.ROLL))
    assert camera.asked == 2  # the button's roll: asked once, not by the screen and again by the app
    if name == "noch-x-mal":  # a list open: the screen does not roll, and nobody asks the camera behind its back
        app.mode.waiting = False
        app.mode._push("Who?", [MenuItem("Anna", "Anna"), MenuItem("Ben", "Ben")], lambda value: None)
        app.on_button(ButtonEvent(Button.ROLL))
        assert camera.asked == 2


def test_noch_x_mal_asks_who_starts_once_in_the_rulebooks_words(tmp_path):
    """The setup asked "Who starts?" and the game's screen then asked again "Who starts? (last touched pink)": the
    setup asks the rulebook's question, and the screen offers only to change the answer."""
    app = setup_of(tmp_path, "noch-x-mal", ("Anna", "Ben"))
    app.on_button(ButtonEvent(Button.SELECT))  # 2: Anna, Ben
    assert app.mode.mode.menu.title == "Wer hat zuletzt etwas Pinkes berührt? (beginnt)"
    app.on_button(ButtonEvent(Button.NEXT))
    app.on_button(ButtonEvent(Button.SELECT))  # Ben
    assert app.session is not None and app.session.engine.active_player.name == "Ben"
    app.frame(0.03, [])
    labels = [item.label for item in app.mode.menu.items]
    assert "Anderer Startspieler …" in labels and not any("Wer beginnt" in label for label in labels)


def test_noch_x_mal_banners_stand_clear_of_the_dice_just_thrown(tmp_path, out_dir):
    """The roll's sentence and the rule change at the fourth roll covered the dice for ten seconds: without a camera
    the screen is the only place the table sees them, and the roller chooses a pair meanwhile."""
    from test_announcer import RecordingAudio

    from companion.announcer import Announcer

    clock = {"now": 100.0}
    app = setup_of(tmp_path, "noch-x-mal", ("Anna", "Ben"), announcer=Announcer("de", 80, audio=RecordingAudio()),
                   clock=lambda: clock["now"])
    app.on_button(ButtonEvent(Button.SELECT))  # 2: Anna, Ben
    app.on_button(ButtonEvent(Button.SELECT))  # Anna starts
    for name, combo in (("Anna", ["red", "2"]), ("Ben", ["blue", "5"])):
        app.session.apply({"action": "start_combo", "player": name, "dice": combo})
    seen = 0
    for _ in range(4):
        app.on_button(ButtonEvent(Button.ROLL))  # virtual dice
        for _ in range(4):  # each sentence in turn
            app.frame(0.03, [])
            if app._banner is not None and app.mode.in_view:
                seen += 1
                assert not any(app._banner.colliderect(r) for r in app.mode.in_view), app.announcer._current.text
                pygame.image.save(app.display.window, str(out_dir / f"nxm_banner_clear_of_dice_{seen}.png"))
            clock["now"] += 12.0
        app.session.apply({"action": "end_roll"} if app.session.engine.state.roll.number < 4 else
                          {"action": "pass", "player": app.session.engine.active_player.name})
        if app.session.engine.state.phase.name == "ROLLED":
            app.session.apply({"action": "end_roll"})
    assert seen >= 4


def test_an_undo_names_what_the_step_it_took_back_said(tmp_path):
    """"One step undone" left the table guessing which step went."""
    from test_announcer import RecordingAudio

    from companion.announcer import Announcer

    cfg = Config()
    cfg.players = ["Anna", "Ben"]
    app = App(cfg, state_dir=tmp_path, display=Display((800, 480), fullscreen=False), use_camera=False,
              announcer=Announcer("de", 80, audio=RecordingAudio()))
    start_game(app, "noch-x-mal")
    for name, combo in (("Anna", ["red", "2"]), ("Ben", ["blue", "5"])):
        app.session.apply({"action": "start_combo", "player": name, "dice": combo})
    app.session.apply({"action": "roll", "dice": ["red", "blue", "green", "1", "2", "3"]})
    app.on_button(ButtonEvent(Button.UNDO, Press.LONG))
    # what the roll told the table (its faces), not its call ("Wurf 1: alle wählen …", an order no longer standing)
    assert app.notice.startswith("Zurückgenommen: „Gewürfelt: Rot, Blau und Grün") and app.notice_tone == "good", \
        app.notice


@pytest.mark.parametrize("lang", ["de", "en"])
def test_a_dice_profile_the_card_cannot_read_is_said_and_teaching_it_does_not_stop_the_companion(tmp_path, lang):
    """A profile there but unreadable (a folder in its place here; a failing card, no permission alike) was taken
    for dice never taught: the start sent the table to "Teach dice", and choosing the set there stopped the
    companion with "something went wrong". Both now say the dice cannot be read, and nothing is put aside."""
    from companion import profiles
    from companion.i18n import disk_words, t

    path = profiles.profile_path("haste-worte")
    path.mkdir(parents=True)
    def words(key: str, dice_set: str = "haste-worte") -> str:
        from companion.app import _teach_title

        return t(key, lang, set=_teach_title(dice_set, lang),
                 error=disk_words(IsADirectoryError(21, "Is a directory"), lang))

    app = camera_app(tmp_path, lang)
    try:
        app.main_menu()
        start_game(app, "haste-worte")
        assert not app.session.camera_ready and app.notice == words("core.profile_unreadable")
        app.main_menu()
        app.teach_menu()
        app.mode.menu.index = [item.value for item in app.mode.menu.items].index("haste-worte")
        app.on_button(ButtonEvent(Button.SELECT))
        assert app.notice == words("core.profile_unreadable_elsewhere") and path.is_dir()
        app.frame(0.03, [])
        profiles.profile_path("d6").mkdir()  # pip dice: the pips are read on, and the words say so
        app.main_menu()
        start_game(app, "free-play")
        assert app.session.camera_ready and app.notice == words("core.profile_unreadable_pips", "d6")
    finally:
        app.close()


def test_a_held_undo_inside_a_steps_question_goes_back_and_takes_no_step_back(tmp_path):
    """The report's own question said "UNDO back"; held a second, UNDO took back "Sara leaves the middle" and the
    report with it. Inside a question a held UNDO goes back as a pressed one; at the game's own level it still
    takes the last step back."""
    app, session = _echt_spitze_in_app(tmp_path, [])
    mode = app.mode
    app.frame(0.03, [])
    labels = [item.label for item in mode.menu.items]
    for _ in range(next(i for i, label in enumerate(labels) if label.startswith("Sara"))):
        app.on_button(ButtonEvent(Button.NEXT))
    app.on_button(ButtonEvent(Button.SELECT))  # Sara's report: its own question
    assert mode.sub
    steps = len(session.actions)
    app.on_button(ButtonEvent(Button.UNDO, Press.LONG))
    assert not mode.sub and len(session.actions) == steps  # back out of the question, "leave" kept
    app.on_button(ButtonEvent(Button.UNDO, Press.LONG))
    assert len(session.actions) == steps - 1  # at the game's own level: the last step taken back


def test_presses_that_do_nothing_say_why(tmp_path):
    """A held UNDO at a game's start, TIMER before Haste Worte's letter and REROLL in free play did nothing and
    said nothing: a player took the button for broken."""
    register_all()
    cfg = Config()
    cfg.language = "en"
    app = App(cfg, state_dir=tmp_path, display=Display((800, 480), fullscreen=False), use_camera=False)
    start_game(app, "haste-worte")
    assert app.session is not None and len(app.session.actions) == 1
    app.on_button(ButtonEvent(Button.UNDO, Press.LONG))
    assert app.notice == "Nothing to undo yet: the game has only just begun."
    app.on_button(ButtonEvent(Button.ROLL))
    assert app.session.engine.phase.value == "pick"
    app.on_button(ButtonEvent(Button.TIMER))
    assert app.notice == "The hourglass comes after the letter: first everybody takes a die."
    app.main_menu()
    start_game(app, "free-play")
    rolls = len(app.session.engine.rolls)
    app.on_button(ButtonEvent(Button.REROLL))
    assert len(app.session.engine.rolls) == rolls + 1


def test_play_again_starts_each_setup_question_on_the_last_answer(tmp_path):
    """Playing again at once, "who is youngest?" stood on Mama again, not on Ben who was chosen: the children had
    to choose everything anew. Each question now starts on the last game's answer."""
    register_all()
    app = setup_of(tmp_path, "haste-worte")
    wizard = app.mode
    answered = []
    for _ in range(5):
        if app.session is not None:
            break
        menu = wizard.mode.menu
        if len(answered) == 1:  # the second question (who starts): not the first choice
            app.on_button(ButtonEvent(Button.NEXT))
        answered.append(menu.items[menu.index].value)
        app.on_button(ButtonEvent(Button.SELECT))
    assert app.session is not None and len(answered) >= 2
    app._main_choice(("new", "haste-worte"))  # play again (the same game's setup)
    wizard = app.mode
    for value in answered:
        menu = wizard.mode.menu
        assert menu.items[menu.index].value == value
        app.on_button(ButtonEvent(Button.SELECT))


@pytest.mark.parametrize("lang", ["de", "en"])
@pytest.mark.parametrize("mode", ["strategy", "level-one"])
def test_fritzos_start_keeps_its_question_and_answers_clear_of_the_built_in_cubes_notice(tmp_path, out_dir, lang,
                                                                                          mode):
    """Strategy's start: the built-in cubes' notice (eight seconds) stood at the top over "Welcher Cube bleibt
    draußen?", the start's banner over the cubes' rows under the one highlighted. Level One's: the notice stood
    over the colours the roll is answered from, above the banner. Now the question stands under the banner, and the
    colours (and the highlighted cube) under neither; the banner stands over the empty building where it fits."""
    from companion.i18n import t

    app, clock = _announcing_app(tmp_path, lang)
    try:
        app.new_game(GAME_ENTRIES["fritzo"], {"mode": mode, "_players": ("Großvater Johannes", "Mia"), "start": 0})
        assert app.notice is not None and t("fritzo.builtin_cubes_short", lang) in app.notice
        with pytest.MonkeyPatch.context() as patch:
            from drawn_texts import recording_texts

            with recording_texts(patch) as drawn:
                app.frame(0.03, [])
        pygame.image.save(app.display.window, str(out_dir / f"fritzo_start_notice_{mode}_{lang}.png"))
        # Strategy's notice waits for the banner to leave the band over the cubes (the test after this one)
        strip = app._strip[0] if app._strip is not None else pygame.Rect(0, 0, 0, 0)
        banner, view = app._banner, app.mode
        assert banner is not None and (mode == "strategy") == (app._strip is None)
        focus = view.focus_rect
        assert not strip.colliderect(focus) and not banner.colliderect(focus)
        if mode == "strategy":
            asked = [rect for s, _, rect in drawn if s == t("fritzo.ui.pick_out_cube", lang)]
            assert asked and not asked[0].colliderect(banner), asked
            # the banner over the top line, not over the cubes' rows where the table looks for the one taken out
            assert not any(banner.colliderect(r) for r in view.panel_rects()), banner
        else:
            for r in view.panel_rects():  # the colours to answer
                assert not r.colliderect(strip) and not r.colliderect(banner), (r, strip, banner)
    finally:
        app.close()


@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_built_in_cubes_notice_stands_in_the_band_over_the_cubes_once_the_banner_is_gone(tmp_path, out_dir,
                                                                                               lang):
    """Strategy's start: the built-in cubes' notice stood over the cubes' third row under the start's banner, then
    over the top line (whose turn, the scores), with an empty band between the top line and the question, kept for
    banners. It waits for the banner to leave that band, and stands there for its seconds."""
    from companion.i18n import t
    from companion.views.fritzo_view import TOP_BAR

    app, clock = _announcing_app(tmp_path, lang)
    try:
        app.new_game(GAME_ENTRIES["fritzo"], {"mode": "strategy", "_players": ("Großvater Johannes", "Mia"),
                                              "start": 0})
        words = app.notice
        assert words is not None and t("fritzo.builtin_cubes_short", lang) in words
        app.frame(0.03, [])
        assert app._banner is not None and app._banner.colliderect(app.mode.notice_room) and app._strip is None
        for _ in range(100):  # the start's banners are over
            if app.announcer.idle:
                break
            clock["now"] += 0.25
            app.frame(0.03, [])
        assert app.announcer.idle
        app.frame(0.03, [])
        pygame.image.save(app.display.window, str(out_dir / f"fritzo_start_notice_band_{lang}.png"))
        assert app._strip is not None and app._strip[1] == words
        strip, view = app._strip[0], app.mode
        assert view.notice_room.contains(strip) and not strip.colliderect(TOP_BAR), strip
        assert not any(strip.colliderect(r) for r in view.panel_rects())
        clock["now"] += 5.0  # its seconds count from when it is seen
        app.frame(0.03, [])
        assert app._strip is not None and app._strip[1] == words
    finally:
        app.close()


def test_roll_on_a_finished_game_says_what_the_buttons_do_now(tmp_path):
    """The next throw after a game's end: ROLL did nothing and said nothing, and the table took it for broken."""
    from companion.i18n import t

    app, session = _echt_spitze_in_app(tmp_path, [
        {"action": "report", "player": "Sara", "kinds": ["pears", "plums", "lemons"]}, {"action": "end_turn"},
        {"action": "final", "player": "Sara", "stars": 1, "leftover": 0},
        {"action": "final", "player": "Ben", "stars": 0, "leftover": 0}])
    assert session.engine.finished, session.error
    app.on_button(ButtonEvent(Button.ROLL))
    assert app.notice == t("core.over_roll", "en", again="SELECT", menu="UNDO")
    assert app.mode is app.game_mode and app.session is session  # nothing else: the game stays on its end


def test_one_timer_at_the_letter_says_the_letter_before_the_sand(tmp_path):
    """One TIMER at Haste Worte's letter draws the letter and turns the sand: the sand's sentence, said next, went
    before the letter, which the table heard six seconds into its writing time."""
    from companion.announce import Announcement
    from companion.announcer import Announcer
    from companion.audio import NullAudio
    from companion.speech import Speech

    announcer = Announcer("en", audio=NullAudio(), speech=Speech(lambda text, lang: b""))
    cfg = Config()
    cfg.players, cfg.language = ["Anna", "Ben"], "en"
    app = App(cfg, state_dir=tmp_path, display=Display((800, 480), fullscreen=False), use_camera=False,
              announcer=announcer)
    start_game(app, "haste-worte")
    app.session.apply({"action": "roll", "dice": ["car", "animals", "fruit", "water", "toys", "cities"]})
    for die in (1, 2):
        assert app.session.apply({"action": "pick", "die": die}), app.session.error
    # waiting from an earlier step, behind one showing (the round's call, which stood there before, is taken back by
    # the roll since the session withdraws an opening's calls too)
    announcer.announce(Announcement("core.seconds_left", {"seconds": 20}))
    announcer.announce(Announcement("core.seconds_left", {"seconds": 10}))
    announcer.update(1.0)
    app.on_button(ButtonEvent(Button.TIMER))
    keys = [a.key for a in announcer.queued]
    assert keys.index("haste.letter") < keys.index("haste.timer_started") < keys.index("core.seconds_left")


@pytest.mark.parametrize(("lang", "said"), [("en", "hold TIMER"), ("de", "UHR gedrückt halten")])
def test_timer_pressed_while_the_sand_runs_says_a_held_press_stops_it(tmp_path, lang, said):
    """A table done early pressed TIMER to stop Haste Worte's sand: nothing happened and nothing was said (only the
    hint bar's "hold: cancel" told). The press says how; the sand runs on; held, it stops."""
    cfg = Config()
    cfg.players, cfg.language = ["Anna", "Ben"], lang
    app = App(cfg, state_dir=tmp_path, display=Display((800, 480), fullscreen=False), use_camera=False)
    start_game(app, "haste-worte")
    app.session.apply({"action": "roll", "dice": ["car", "animals", "fruit", "water", "toys", "cities"]})
    for die in (1, 2):
        assert app.session.apply({"action": "pick", "die": die}), app.session.error
    app.on_button(ButtonEvent(Button.TIMER))  # the letter, and the sand turned
    hourglass, now = app.session.engine.hourglass, app.game_mode.wall_now()
    assert hourglass.is_running(now) and app.notice is None
    app.on_button(ButtonEvent(Button.TIMER))
    assert app.notice is not None and said in app.notice and hourglass.is_running(app.game_mode.wall_now())
    app.on_button(ButtonEvent(Button.TIMER, Press.LONG))
    assert not app.session.engine.hourglass.is_running(app.game_mode.wall_now())


def _announcing_app(tmp_path, lang: str) -> tuple[App, dict[str, float]]:
    """An app in ``lang`` whose announcements are heard (recorded) and whose clock the test moves (``clock["now"]``)."""
    from test_announcer import RecordingAudio

    from companion.announcer import Announcer

    clock = {"now": 100.0}
    cfg = Config()
    cfg.language = lang
    app = App(cfg, state_dir=tmp_path, display=Display((800, 480), fullscreen=False), use_camera=False,
              announcer=Announcer(lang, 80, audio=RecordingAudio()), clock=lambda: clock["now"])
    return app, clock


def _fails(*args, **kwargs) -> None:
    raise ZeroDivisionError("a bug in a game's screen")


def test_a_game_screen_failing_again_after_resume_is_caught_too(tmp_path, monkeypatch):
    """"Resume", which the failure's own words point to, entered the same failing screen in a frame that had begun
    in the menu: that failure stopped the companion."""
    from companion.i18n import t
    from companion.views.echt_spitze_view import EchtSpitzeMode

    _echt_spitze_in_app(tmp_path, [])
    app = App(Config(), state_dir=tmp_path, display=Display((800, 480), fullscreen=False), use_camera=False,
              catch_failures=True)
    monkeypatch.setattr(EchtSpitzeMode, "draw", _fails)
    for _ in range(2):  # from the menu: Resume (first), SELECT in the frame's own buttons
        resume = [i for i, item in enumerate(app.mode.menu.items) if item.value[0] == "resume"]
        assert resume == [0] and app.session is None
        monkeypatch.setattr(app.keys, "poll", lambda: [ButtonEvent(Button.SELECT)])
        app.frame(0.02)
        assert app.session is None and app.notice == t("core.screen_failed", "de")


def test_a_finished_games_end_screen_failing_at_the_start_goes_to_the_history(tmp_path, monkeypatch):
    """At the start a game finished within six hours comes back on its end screen; its screen failing there stopped
    the companion before its first frame, at every start for six hours."""
    from companion.i18n import t
    from companion.views.echt_spitze_view import EchtSpitzeMode

    _, session = _echt_spitze_in_app(tmp_path, [
        {"action": "report", "player": "Sara", "kinds": ["pears", "plums", "lemons"]}, {"action": "end_turn"},
        {"action": "final", "player": "Sara", "stars": 1, "leftover": 0},
        {"action": "final", "player": "Ben", "stars": 0, "leftover": 0}])
    assert session.engine.finished
    monkeypatch.setattr(EchtSpitzeMode, "__init__", _fails)
    app = App(Config(), state_dir=tmp_path, display=Display((800, 480), fullscreen=False), use_camera=False,
              catch_failures=True, start_free_play=True)
    assert app.notice == t("core.screen_failed_over", "de") and app.journal.load() is None
    with pytest.raises(ZeroDivisionError):  # tests see the failure itself
        _echt_spitze_in_app(tmp_path / "again", [
            {"action": "report", "player": "Sara", "kinds": ["pears", "plums", "lemons"]}])


@pytest.mark.parametrize("lang", ["de", "en"])
@pytest.mark.parametrize("players", [("Großvater Johannes", "Mia"), ("Großvater Johannes", "Mia", "Ben", "Annabell")])
def test_a_notice_while_fritzos_first_cube_is_placed_leaves_the_top_line_in_view(tmp_path, out_dir, lang, players):
    """Team's first cube: its one place lit in the middle of an empty grid, a notice stood over the top line (whose
    turn, the supply) to spare the empty cells under it: the empty cells are not what the table looks at."""
    from companion.i18n import t
    from companion.views.fritzo_view import TOP_BAR

    app, clock = _announcing_app(tmp_path, lang)
    try:
        app.new_game(GAME_ENTRIES["fritzo"], {"mode": "team", "target": "professional", "_players": players,
                                              "start": 0})
        for _ in range(40):  # the start's banners and notices are over
            clock["now"] += 1.0
            app.frame(0.03, [])
        app.on_button(ButtonEvent(Button.SELECT))  # place
        app.on_button(ButtonEvent(Button.SELECT))  # the first cube
        view = app.mode
        assert view.step == "cell" and app.announcer.current is None
        app.show_notice(t("core.nothing_to_undo", lang), seconds=5, info=True)
        app.frame(0.03, [])
        pygame.image.save(app.display.window, str(out_dir / f"fritzo_first_cube_notice_{lang}_{len(players)}.png"))
        strip = app._strip[0]
        assert not strip.colliderect(TOP_BAR) and not strip.colliderect(view.focus_rect), strip
    finally:
        app.close()


def _table_app(tmp_path, name: str, presses: list[Button]) -> App:
    """``name`` started in English for Anna, Ben and Carla, and ``presses`` pressed."""
    cfg = Config(language="en")
    cfg.players = ["Anna", "Ben", "Carla"]
    app = App(cfg, state_dir=tmp_path, display=Display((800, 480), fullscreen=False), use_camera=False)
    start_game(app, name)
    for press in presses:
        app.on_button(ButtonEvent(press))
    app.frame(0.03, [])
    return app


@pytest.mark.parametrize(("name", "presses", "button"), [
    ("echt-spitze", [Button.ROLL], Button.ROLL),  # "Anna: take one die"
    ("haste-worte", [Button.ROLL, Button.SELECT], Button.REROLL),  # "Ben picks a die": re-rolling is over
    ("haste-worte", [Button.ROLL, Button.SELECT], Button.ROLL),
    ("fritzo", [], Button.ROLL),  # no dice at all
    ("free-play", [Button.ROLL, Button.NEXT, Button.SELECT], Button.ROLL),  # "Which face does die 1 show?"
    ("noch-x-mal", [Button.ROLL, Button.SELECT, Button.SELECT, Button.NEXT, Button.SELECT], Button.ROLL),  # "Who
    # starts?", a list of its own
])
def test_a_roll_the_game_screen_does_not_take_is_said(tmp_path, name, presses, button):
    """ROLL where the screen rolls nothing did nothing and said nothing (TIMER there says why not): the table
    pressed it again and again. The app says it is not the time, and what the screen asks instead."""
    from companion.i18n import t
    from companion.views.widgets import not_time_to_roll

    app = _table_app(tmp_path, name, presses)
    try:
        steps = len(app.session.actions)
        if name == "noch-x-mal":
            expected = t("nxm.ui.roll_in_list", "en", question=app.mode.stack[-1].title.rstrip(" ?:"))
        else:
            expected = {"echt-spitze": not_time_to_roll(t("echt.view.take_prompt", "en", player="Anna"), "en"),
                        "haste-worte": not_time_to_roll(t("haste.prompt.pick", "en", player="Ben"), "en"),
                        "fritzo": t("fritzo.ui.no_dice", "en"),
                        "free-play": not_time_to_roll(t("core.free_pick_face", "en", n=1), "en")}[name]
        app.notice = None
        app.on_button(ButtonEvent(button))
        app.frame(0.03, [])
        assert app.notice == expected
        assert len(app.session.actions) == steps  # nothing rolled
        app.notice = None
        app.on_button(ButtonEvent(button, Press.LONG))  # held, as a child holds it: the same words
        assert app.notice == expected
    finally:
        app.close()


def test_roll_on_a_finished_game_is_not_said_over_the_setup_of_the_next(tmp_path):
    """"The game is over: SELECT plays again" stood on over "Who is youngest?" after SELECT had opened the setup."""
    from companion.i18n import t

    app, session = _echt_spitze_in_app(tmp_path, [
        {"action": "report", "player": "Sara", "kinds": ["pears", "plums", "lemons"]}, {"action": "end_turn"},
        {"action": "final", "player": "Sara", "stars": 1, "leftover": 0},
        {"action": "final", "player": "Ben", "stars": 0, "leftover": 0}])
    try:
        app.on_button(ButtonEvent(Button.ROLL))
        app.frame(0.03, [])
        over = t("core.over_roll", "en", again="SELECT", menu="UNDO")
        assert app._strip is not None and app._strip[1] == over
        app.on_button(ButtonEvent(Button.SELECT))  # play again: the setup's first question
        app.frame(0.03, [])
        assert isinstance(app.mode, SetupWizard)
        assert app._strip is None or over not in app._strip[1]
    finally:
        app.close()


def test_why_a_roll_did_nothing_goes_when_the_game_moves_on(tmp_path):
    """"Not time to roll: Anna: take one die." stood on after Anna had taken her die (the same screen, the next
    step): the words speak of the step they were said at."""
    app = _table_app(tmp_path, "echt-spitze", [Button.ROLL])
    try:
        app.on_button(ButtonEvent(Button.ROLL))  # "Anna: take one die": nothing to roll
        app.frame(0.03, [])
        said = app.notice
        assert app._strip is not None and app._strip[1] == said
        steps = len(app.session.actions)
        app.on_button(ButtonEvent(Button.SELECT))  # Anna takes the highlighted die
        assert len(app.session.actions) == steps + 1
        app.frame(0.03, [])
        assert app.mode is app.game_mode and (app._strip is None or app._strip[1] != said)
    finally:
        app.close()


def _pause_menu(app: App) -> None:
    app.on_button(ButtonEvent(Button.UNDO))


def _teach_menu(app: App) -> None:
    app.main_menu()
    app._main_choice(("teach", None))


def _setup_question(app: App) -> None:
    app.main_menu()
    app._main_choice(("new", "echt-spitze"))


def _players(app: App) -> None:
    app.main_menu()
    app._main_choice(("players", None))


@pytest.mark.parametrize(("open_screen", "key"), [(_pause_menu, "core.menu_no_dice"),
                                                  (_teach_menu, "core.menu_no_dice"),
                                                  (_setup_question, "core.setup_no_dice"),
                                                  (_players, "core.players_no_dice")])
@pytest.mark.parametrize("button", [Button.ROLL, Button.TIMER])
def test_roll_or_timer_in_a_menu_a_question_or_the_players_list_says_what_the_buttons_do(tmp_path, open_screen, key,
                                                                                         button):
    """Only the main menu answered ROLL and TIMER; the setup's questions, Teach dice, the pause menu and the players'
    list said nothing, and a family at its first question pressed again and again."""
    from companion.i18n import t

    app = _table_app(tmp_path, "free-play", [])
    try:
        open_screen(app)
        screen = app.mode
        app.notice = None
        app.on_button(ButtonEvent(button))
        app.frame(0.03, [])
        assert app.mode is screen and app.notice == t(key, "en")
        assert app._strip is not None and app._strip[1] == app.notice
        if isinstance(screen, SetupWizard):  # answered: the next question is not under "answer this one first"
            app.on_button(ButtonEvent(Button.SELECT))
            app.frame(0.03, [])
            assert app.mode is screen and app._strip is None
    finally:
        app.close()


@pytest.mark.parametrize("lang", ["de", "en"])
def test_back_to_the_game_left_for_the_menu_is_not_called_an_interruption(tmp_path, lang):
    """UNDO in the main menu back to the game just left said "Game resumed: all as before the interruption",
    of nothing interrupted; after teaching dice too. A game left before a restart is resumed, as it was said."""
    from companion.i18n import t

    cfg = Config(language=lang)
    app = App(cfg, state_dir=tmp_path, display=Display((800, 480), fullscreen=False), use_camera=False)
    try:
        start_game(app, "free-play")
        app.pause_menu()
        app._pause_choice("menu")
        app.on_button(ButtonEvent(Button.UNDO))  # the main menu's UNDO: back to the game
        assert app.mode is app.game_mode and app.notice == t("core.back_in_game", lang)
        app.pause_menu()
        app._pause_choice("menu")
        app._main_choice(("teach", None))
        app.main_menu()  # the teaching done (its on_done)
        app.on_button(ButtonEvent(Button.UNDO))
        assert app.mode is app.game_mode and app.notice == t("core.back_in_game", lang)
        app.pause_menu()
        app._pause_choice("menu")
    finally:
        app.close()
    again = App(cfg, state_dir=tmp_path, display=Display((800, 480), fullscreen=False), use_camera=False)
    try:
        again.main_menu()
        again.on_button(ButtonEvent(Button.UNDO))  # a new run: the game was interrupted by the restart
        assert again.mode is again.game_mode and again.notice == t("core.resumed", lang)
    finally:
        again.close()


def test_a_held_roll_rolls_as_a_pressed_one(tmp_path):
    """Noch X-Mal!'s start combination took a short ROLL alone: held down, nothing happened, unsaid."""
    app = _table_app(tmp_path, "noch-x-mal", [])
    try:
        steps = len(app.session.actions)
        app.on_button(ButtonEvent(Button.ROLL, Press.LONG))
        assert len(app.session.actions) == steps + 1
        app.on_button(ButtonEvent(Button.REROLL, Press.LONG))
        assert len(app.session.actions) == steps + 2
    finally:
        app.close()


@pytest.mark.parametrize("button", [Button.ROLL, Button.REROLL, Button.TIMER])
def test_the_main_menu_says_a_game_comes_first(tmp_path, button):
    """ROLL, REROLL and TIMER on the main menu did nothing and said nothing."""
    from companion.i18n import t

    app = App(Config(language="en"), state_dir=tmp_path, display=Display((800, 480), fullscreen=False),
              use_camera=False)
    try:
        app.notice = None
        app.on_button(ButtonEvent(button))
        assert app.notice == t("core.menu_no_game", "en") and app.session is None
    finally:
        app.close()


def test_why_a_roll_did_nothing_goes_with_its_screen(tmp_path):
    """"Not time to roll: Anna: take one die." stood over the pause menu UNDO opened after it, and over the main
    menu after that: the words speak of the game's screen, and go with it."""
    app = _table_app(tmp_path, "echt-spitze", [Button.ROLL])
    try:
        app.on_button(ButtonEvent(Button.ROLL))  # "Anna: take one die": nothing to roll
        app.frame(0.03, [])
        assert app._strip is not None and app._strip[1] == app.notice
        app.on_button(ButtonEvent(Button.UNDO))  # the pause menu
        app.frame(0.03, [])
        assert app.mode is not app.game_mode and app._strip is None
        app.on_button(ButtonEvent(Button.UNDO))  # back to the game, the words' seconds not over
        app.frame(0.03, [])
        assert app.mode is app.game_mode and app._strip is not None
    finally:
        app.close()


@pytest.mark.parametrize("lang", ["de", "en"])
def test_a_resume_whose_sand_the_restart_stopped_does_not_say_all_is_as_before(tmp_path, lang):
    """A restart with the wall clock behind the sand's start (a Pi without network time) stops the sand: its banner
    said "Ein Neustart hielt die Sanduhr an." under the notice "Spiel fortgesetzt: alles wie vor der Unterbrechung."
    A resume with the sand still good says so as before."""
    from companion.i18n import t

    clock = {"now": 100.0}
    app = writing(tmp_path, clock=clock)
    app.frame(0.03, [])
    app.close()
    for behind, key in ((86_400.0, "core.resumed_clock_stopped"), (0.0, "core.resumed")):
        cfg = Config(language=lang)
        again = App(cfg, state_dir=tmp_path, display=Display((800, 480), fullscreen=False), use_camera=False,
                    clock=lambda: clock["now"], wall_clock=lambda b=behind: 1.9e9 + clock["now"] - 100.0 - b)
        try:
            again.main_menu()
            again.on_button(ButtonEvent(Button.UNDO))
            assert again.mode is again.game_mode and again.notice == t(key, lang)
            assert t("core.resumed", lang) not in again.notice or key == "core.resumed"
        finally:
            again.close()


@pytest.mark.parametrize("lang", ["de", "en"])
def test_a_tap_on_another_pair_once_it_is_set_is_said_in_grey_not_as_an_error(tmp_path, lang):
    """A child tapping another pair after Anna's was set got "Anna's pair is set… hold UNDO" in the red error strip:
    it is guidance, not trouble. The App shows the words a screen's tap returns as a grey notice, about that screen."""
    from companion.i18n import t

    cfg = Config()
    cfg.players = ["Anna", "Ben"]
    cfg.language = lang
    app = App(cfg, state_dir=tmp_path, display=Display((800, 480), fullscreen=False), use_camera=False,
              clock=lambda: 100.0)
    try:
        start_game(app, "noch-x-mal")
        for name, combo in (("Anna", ["red", "2"]), ("Ben", ["blue", "5"])):
            app.session.apply({"action": "start_combo", "player": name, "dice": combo})
        app.session.apply({"action": "roll", "dice": ["red", "blue", "green", "1", "2", "3"]})
        app.frame(0.03, [])
        active = app.session.engine.active_player.name
        rects = app.mode.die_rects()
        app.on_tap(rects[4].center)
        app.on_tap(rects[1].center)
        assert app.session.engine.state.roll.pick == [1, 4]
        app.notice = None
        app.on_tap(rects[0].center)
        assert app.session.engine.state.roll.pick == [1, 4] and app.session.error is None
        assert app.notice == t("nxm.ui.pick_settled", lang, player=active) and app.notice_tone == "info"
        app.frame(0.03, [])
        assert app._strip is not None and app._strip[1] == app.notice
    finally:
        app.close()
