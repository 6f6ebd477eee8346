"""A Pi's SD card that refuses writes (full, read-only, a folder owned by root), run through the whole app."""

from __future__ import annotations

import errno
import json

import pytest

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
