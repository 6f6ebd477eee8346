"""A Pi's SD card that refuses writes (full, read-only, a folder owned by root), run through the whole app."""

from __future__ import annotations

import errno
import json
from pathlib import Path

import pytest

from companion import config
from companion.app import App
from companion.config import Config
from companion.display import Display
from companion.games_ui import register_all
from companion.i18n import t
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


@pytest.mark.parametrize("gone", ["file", "folder"])
def test_a_journal_removed_under_a_running_game_is_written_whole_again(tmp_path, monkeypatch, gone):
    """The journal deleted while a game runs: the next step began a new file of that step alone, with no word, and
    after a restart the game read as damaged. It is written whole, header and setup first."""
    import os
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).parent))
    from test_every_end import nxm_won

    from companion.games import engine_class
    from companion.journal import Journal
    from companion.session import GameSession

    monkeypatch.setattr(os, "fsync", lambda fd: None)
    table = nxm_won(2)()
    journal = Journal(tmp_path / "current")
    session = GameSession.new(engine_class("noch-x-mal"), table.setup, journal)
    half = len(table.actions) // 2
    for action in table.actions[:half]:
        assert session.apply(action)
    if gone == "file":
        journal.path.unlink()  # a tidy-up by hand, a script: the file is gone under the game
    else:
        import shutil

        shutil.rmtree(journal.folder)  # the saved games' folder, all of it
    for action in table.actions[half:]:
        assert session.apply(action)
    assert session.unsaved is None
    saved = Journal(tmp_path / "current").load()
    assert saved is not None and not saved.damaged and not saved.doubt
    assert saved.actions == session.actions  # the whole game, from its setup
    assert json.loads(journal.path.read_text().splitlines()[0])["game"] == "noch-x-mal"


@pytest.mark.parametrize(("lang", "words"), [("de", "fehlt"), ("en", "missing")])
def test_a_file_gone_is_said_in_the_tables_words(lang, words):
    """ENOENT stood in the system's English, "(No such file or directory)", in a German strip."""
    from companion.i18n import disk_words

    said = disk_words(FileNotFoundError(errno.ENOENT, "No such file or directory", "/x"), lang)
    assert words in said and "No such file" not in said


@pytest.mark.parametrize(("lang", "words"), [("de", "schreibgeschützt"), ("en", "write-protected")])
def test_fritzos_cube_teaching_says_a_refusing_card_in_the_tables_words(tmp_path, monkeypatch, lang, words):
    """A cube's faces entered on a read-only card: "Speichern ging nicht (Read-only file system)" in a German screen,
    and the same when UNDO stepped back into the cube before."""
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).parent))
    from test_fritzo_cubes_view import TRUTH, enter_cube, press

    from companion.games.fritzo import cubeset
    from companion.views.fritzo_cubes_view import CubeSetTeachMode

    mode = CubeSetTeachMode(lang, path=tmp_path / "fritzo-cubes.json", on_done=lambda: None)
    mode.update(0.0, 100.0)
    enter_cube(mode, TRUTH.cubes[0].faces)  # stored while the card takes it
    real_save = cubeset.save

    def read_only(*_a, **_k):
        raise OSError(errno.EROFS, "Read-only file system")

    monkeypatch.setattr(cubeset, "save", read_only)
    enter_cube(mode, TRUTH.cubes[1].faces)
    assert mode.message_bad and words in mode.message and "Read-only" not in mode.message
    monkeypatch.setattr(cubeset, "save", real_save)
    mode.message = ""
    press(mode, Button.SELECT)  # the sixth face again: stored now
    assert len(mode.cubes) == 2
    monkeypatch.setattr(cubeset, "save", read_only)
    mode.message = ""
    for _ in range(8):  # back through the faces, into the cube before (taken off the store: refused)
        if mode.message:
            break
        mode.undo()
    assert mode.message_bad and words in mode.message and "Read-only" not in mode.message


def test_a_root_owned_config_folder_is_named_with_its_remedy_on_the_players_screen(tmp_path, monkeypatch):
    """"keine Berechtigung für diese Datei" named neither the folder (a ``sudo companion run`` left it root's) nor
    what to do; the screen names it, and the command for whoever set the companion up."""
    import getpass

    from companion.views.players_view import PlayersMode

    folder = tmp_path / "table-companion"
    folder.mkdir()

    def refused(cfg):
        raise PermissionError(errno.EACCES, "Permission denied", str(folder / ".config.toml.x.tmp"))

    done: list[bool] = []
    cfg = Config()
    cfg.players = ["Anna", "Ben", "Carla"]
    mode = PlayersMode(cfg, "de", on_done=lambda: done.append(True), save=refused)
    mode.players.reverse()
    mode.on_button(ButtonEvent(Button.UNDO))
    assert f"Ordner {folder}" in mode.message
    assert f"sudo chown -R {getpass.getuser()}: {folder}" in mode.message
    assert "Fertig nochmal" in mode.message and done == []


def _vfs(flag: int = 0, free_blocks: int = 10 ** 7):
    import types

    return types.SimpleNamespace(f_flag=flag, f_bavail=free_blocks, f_frsize=4096)


def test_the_doctor_checks_where_the_companion_saves(tmp_path, monkeypatch):
    import os

    from companion import doctor

    for var, sub in (("XDG_CONFIG_HOME", "c"), ("XDG_DATA_HOME", "d"), ("XDG_STATE_HOME", "s")):
        monkeypatch.setenv(var, str(tmp_path / sub))
        (tmp_path / sub / "table-companion").mkdir(parents=True)
    monkeypatch.setattr(os, "statvfs", lambda path: _vfs())
    lines = doctor._storage()
    assert len(lines) == 3 and all("writable" in line and "GB free" in line for line in lines), lines
    assert "Storage" in doctor.report()  # (one section among the others)

    mine = os.getuid()
    monkeypatch.setattr(os, "getuid", lambda: mine + 4242)  # every file is another user's: root's, say
    lines = doctor._storage()
    assert all(line.startswith("PROBLEM") and "sudo chown -R" in line for line in lines), lines
    assert f": {tmp_path / 's' / 'table-companion'}" in lines[2]
    monkeypatch.setattr(os, "getuid", lambda: mine)

    monkeypatch.setattr(os, "statvfs", lambda path: _vfs(flag=os.ST_RDONLY))
    assert all("read-only" in line for line in doctor._storage())
    monkeypatch.setattr(os, "statvfs", lambda path: _vfs(free_blocks=1000))  # 4 MB
    assert all("nearly full" in line for line in doctor._storage())


def _at_home(monkeypatch) -> Path:
    """A Pi's user and home (the test's own folders' long names held the remedy's command at 12 px): the folders
    are named, not looked into (``paths.refused_folder`` takes a file's parent)."""
    import getpass

    monkeypatch.setenv("HOME", "/home/anna")
    monkeypatch.setattr(getpass, "getuser", lambda: "anna")
    return Path("/home/anna")


def _root_owned(monkeypatch, folder):
    """The config's folder refuses its files, as one a ``sudo companion run`` left root's does."""

    def refused(path, *_a, **_k):
        raise PermissionError(errno.EACCES, "Permission denied", str(folder / ".config.toml.x.tmp"))

    monkeypatch.setattr(config, "atomic_write_text", refused)
    monkeypatch.setattr(config, "replace_keeping_aside", refused)


def _strip_texts(app: App, monkeypatch) -> list[tuple[str, int]]:
    """The strip's lines as the app draws them at 800x480, with their sizes."""
    import pygame

    from companion.views import theme
    from tests.drawn_texts import recording_texts

    surface = pygame.Surface(theme.DESIGN_SIZE)
    with recording_texts(monkeypatch) as drawn:
        app.draw(surface)
    assert app._strip is not None, "no strip drawn"
    return [(s, size) for s, size, rect in drawn if app._strip[0].contains(rect)]


@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_mute_and_the_volume_name_a_root_owned_folder_with_its_remedy(tmp_path, monkeypatch, lang):
    """"Ton-Einstellung nicht gespeichert: keine Berechtigung für diese Datei" named neither the folder nor what to
    do, where the players screen and the doctor name both; the strip holds them at SMALL or larger at 800x480."""
    from companion.announcer import Announcer
    from companion.audio import NullAudio
    from companion.views import theme

    folder = _at_home(monkeypatch) / ".config" / "table-companion"
    _root_owned(monkeypatch, folder)
    cfg = Config()
    cfg.language = lang
    app = App(cfg, state_dir=tmp_path / "state", display=Display((800, 480), fullscreen=False), use_camera=False,
              announcer=Announcer(lang, audio=NullAudio()))
    fix = f"sudo chown -R anna: {folder}"
    app.toggle_mute()
    assert "~/.config/table-companion (" in app.notice and fix in app.notice and app.announcer.muted
    assert app.notice.startswith(t("core.muted", lang))  # that the sound is off, first
    lines = _strip_texts(app, monkeypatch)
    assert len(lines) >= 2 and all(size >= theme.SMALL for _, size in lines), lines
    app.step_volume(-1)
    assert "~/.config/table-companion (" in app.notice and fix in app.notice and app.announcer.volume == 60
    assert app.notice.startswith(t("core.volume_now", lang, volume=60))  # the new volume, first


def test_the_mute_in_a_game_that_cannot_be_saved_either_says_it_short_rather_than_at_14_px(tmp_path, monkeypatch):
    """A ``sudo`` run leaves the game's folder root's too: the strip says the game's trouble after the mute's, and
    both with the folders and their remedies were four lines at 14 px. The mute's words then stay short (the pause
    menu names the game's folder)."""
    from companion.announcer import Announcer
    from companion.audio import NullAudio
    from companion.views import theme

    folder = _at_home(monkeypatch) / ".config" / "table-companion"
    _root_owned(monkeypatch, folder)
    register_all()
    cfg = Config()
    cfg.language = "de"
    app = App(cfg, state_dir=tmp_path / "state", display=Display((800, 480), fullscreen=False), use_camera=False,
              announcer=Announcer("de", audio=NullAudio()))
    app.on_button(ButtonEvent(Button.SELECT))  # free play
    journal = "/home/anna/.local/state/table-companion/current/journal.jsonl"
    app.session.unsaved = PermissionError(errno.EACCES, "Permission denied", journal)
    app.toggle_mute()
    assert "Ton-Einstellung nicht gespeichert" in app.notice and str(folder) not in app.notice
    assert app.notice.startswith(t("core.muted", "de"))  # the sound is off, said first (in short: the room)
    lines = _strip_texts(app, monkeypatch)
    assert "Spiel kann nicht" in " ".join(s for s, _ in lines) and all(size >= theme.SMALL for _, size in lines), lines


@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_pause_menu_names_the_folder_that_refuses_the_game(tmp_path, monkeypatch, lang):
    """The pause menu's line said "Nicht gespeichert: keine Berechtigung für diese Datei." of a game whose folder a
    ``sudo`` run left root's; it opens with the folder named and its remedy, at SMALL or larger, clear of the row
    SELECT chooses, and a volume step (the menu built again) keeps the words rather than saying them anew."""
    from companion.announcer import Announcer
    from companion.audio import NullAudio
    from companion.views import theme

    folder = _at_home(monkeypatch) / ".local" / "state" / "table-companion" / "current"
    register_all()
    cfg = Config()
    cfg.language = lang
    app = App(cfg, state_dir=tmp_path / "state", display=Display((800, 480), fullscreen=False), use_camera=False,
              announcer=Announcer(lang, audio=NullAudio()))
    app.on_button(ButtonEvent(Button.SELECT))  # free play
    app.session.unsaved = PermissionError(errno.EACCES, "Permission denied", str(folder / "journal.jsonl"))
    app.pause_menu()
    fix = f"sudo chown -R anna: {folder}"
    assert "~/.local/state/table-companion/current (" in app.notice and fix in app.notice
    assert app.notice_screen is app.mode
    lines = _strip_texts(app, monkeypatch)
    assert len(lines) >= 2 and all(size >= theme.SMALL for _, size in lines), lines
    assert not app._strip[0].colliderect(app._focus_rect())
    shown = app.notice_until
    app.clock = lambda real=app.clock: real() + 1.0
    app._pause_choice("quieter")  # the menu built again: the words stay, not said anew
    assert app.notice_screen is app.mode and app.notice_until == shown and fix in app.notice
    app._back_to_game()
    assert str(folder) not in (_strip_texts(app, monkeypatch)[0][0])  # the game's strip, not the menu's words
