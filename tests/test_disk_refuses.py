"""A disk that refuses to write (an SD card full or gone read-only): the evening goes on in memory, the table is
told in words that a power cut now would lose the game, and once the disk writes again the whole game is saved,
the steps it missed included. Taught dice likewise: an answer is kept in memory and written with the next."""

from __future__ import annotations

import errno
import random

import numpy as np
import pygame
import pytest
from synth_dice import painter_for, show_still

from companion.app import App
from companion.config import Config
from companion.display import Display
from companion.games.free_play import FreePlay
from companion.i18n import disk_words, t
from companion.journal import Journal
from companion.session import GameSession
from companion.views.colour_faces import face_label
from companion.views.teach_view import TeachView
from hardware.events import Button, ButtonEvent, Press
from hardware.synthetic import render_tray
from vision.taught import Profile


@pytest.fixture
def full_disk(monkeypatch):
    """Switch the disk's refusal on and off: every journal and snapshot write fails while it is on."""
    state = {"full": False}

    def refusing(original):
        def write(*args, **kwargs):
            if state["full"]:
                raise OSError(errno.ENOSPC, "No space left on device")
            return original(*args, **kwargs)
        return write

    for name in ("_append", "save_snapshot", "rewrite", "archive"):
        monkeypatch.setattr(Journal, name, refusing(getattr(Journal, name)))
    return state


def test_a_full_disk_mid_game_is_said_and_the_game_is_saved_whole_once_it_writes(tmp_path, full_disk):
    cfg = Config()
    cfg.language = "en"
    app = App(cfg, state_dir=tmp_path, display=Display((800, 480), fullscreen=False), use_camera=False)
    app.on_button(ButtonEvent(Button.SELECT))  # free play
    app.on_button(ButtonEvent(Button.ROLL))
    full_disk["full"] = True
    app.on_button(ButtonEvent(Button.ROLL))  # not written: the game goes on
    app.on_button(ButtonEvent(Button.ROLL))
    assert len(app.session.engine.rolls) == 3 and app.session.unsaved is not None
    app.frame(0.03, [])
    canvas = pygame.surfarray.array3d(app.display.canvas)
    assert canvas[300:500, 480 - 70:480 - 45, 0].mean() > 150  # the red strip is up
    assert "the memory card is full" in app._unsaved() and "power cut" in app._unsaved()
    app.on_button(ButtonEvent(Button.UNDO))  # the pause menu does not promise what is not true
    assert "memory card is full" in app.mode.subtitle
    assert "lost" in next(i.label for i in app.mode.menu.items if i.value == "menu")
    app.on_button(ButtonEvent(Button.UNDO))
    full_disk["full"] = False
    app.on_button(ButtonEvent(Button.ROLL))
    assert app.session.unsaved is None
    saved = Journal(app.journal.folder).load()
    assert saved.actions == app.session.actions and len(saved.actions) == 5  # setup and four rolls


def test_a_new_game_on_a_disk_that_refuses_starts_and_is_saved_later(tmp_path, full_disk):
    journal = Journal(tmp_path / "current")
    full_disk["full"] = True
    session = GameSession.new(FreePlay, {"action": "setup"}, journal, rng=random.Random(1))
    assert session.unsaved is not None and not journal.path.exists()
    assert session.apply({"action": "roll", "dice": [3, 4]})
    full_disk["full"] = False
    assert session.apply({"action": "roll", "dice": [6]})
    assert session.unsaved is None
    assert journal.load().actions == session.actions


def test_an_example_taught_while_the_disk_refused_is_journaled_once_it_writes(tmp_path, full_disk):
    """The whole game written after a refusal keeps the examples answers taught: an undo after a later power cut
    still takes them back."""
    from vision.types import DieReading, TrayReading

    journal = Journal(tmp_path / "current")
    session = GameSession.new(FreePlay, {"action": "setup"}, journal, rng=random.Random(1))
    session.learn = lambda index, face: {"set": "fritzo", "face": face, "key": "k"}
    full_disk["full"] = True
    session.latest_reading = TrayReading((DieReading(None, 0.3, (5, 6, 50, 51)),))
    session.confirm_face(0, "green")
    assert session.apply({"action": "roll", "dice": [3]}) and session.unsaved is not None
    full_disk["full"] = False
    assert session.apply({"action": "roll", "dice": [6]})
    assert journal.load().learned == [(1, {"set": "fritzo", "face": "green", "key": "k"})]


def test_teaching_on_a_disk_that_refuses_says_so_and_saves_every_answer_once_it_writes(tmp_path):
    written: list[int] = []
    refuse = {"on": True}

    def save(profile: Profile) -> None:
        if refuse["on"]:
            raise OSError(errno.EROFS, "Read-only file system")
        written.append(sum(profile.counts().values()))

    view = TeachView("noch-x-mal", "en", profile=Profile("noch-x-mal"), save=save, on_done=lambda: None)
    rng = np.random.default_rng(2)
    for faces in (["red"], ["blue"]):
        show_still(view, render_tray(rng, faces=faces, painter=painter_for("noch-x-mal"))[0])
        assert view.crop is not None
        view.on_button(ButtonEvent(Button.SELECT))
        if refuse["on"]:
            assert "write-protected" in view.message and written == []
            # the hints no longer promise "all saved"; a short UNDO still takes the answer back, held it finishes
            said = [what for (_, what), _ in view._undo_hints()]
            assert said == [taking_back(view), "hold: finish (answers not saved)"]
            [_, (_, finish)] = view._undo_hints()
            assert finish.press is Press.LONG  # a finger on "finish" finishes (it took an answer back)
            refuse["on"] = False
    assert written == [2]  # the second save holds the first answer too
    assert [what for (_, what), _ in view._undo_hints()] == [taking_back(view), "hold: finish"]  # saved: no warning


def taking_back(view: TeachView) -> str:
    """The hint of a short UNDO: it names the answer it takes back."""
    return t("teach.hint_take_back", "en", face=face_label(view._given[-1][0], "en", view.dice_set))


@pytest.mark.parametrize(("error", "lang", "said"), [
    (FileExistsError(17, "File exists"), "en", "a file or folder of that name is in the way"),
    (IsADirectoryError(21, "Is a directory"), "de", "eine Datei oder ein Ordner dieses Namens ist im Weg"),
    (NotADirectoryError(20, "Not a directory"), "en", "a file or folder of that name is in the way"),
    (PermissionError(13, "Permission denied"), "en", "no permission for that file"),
])
def test_what_stands_in_a_files_way_is_said_in_the_tables_words(error, lang, said):
    """A file where the saved games' folder belongs said "The game cannot be saved (File exists)", in English on a
    German screen; and a journal that could not be read for want of permission was "no permission to write"."""
    assert disk_words(error, lang) == said


def test_an_undo_written_whole_after_a_failed_write_keeps_the_answers_that_stand(tmp_path, full_disk):
    """The undo wrote the game whole before it took back the answers given for the step undone: the file kept an
    example the evening had dropped (written step by step it was dropped on loading too)."""
    session = GameSession.new(FreePlay, {"action": "setup"}, Journal(tmp_path / "j"), rng=random.Random(3))
    session.learn = lambda index, face: {"die": index, "face": face}
    session.apply({"action": "roll", "dice": [1, 2]})
    from vision.types import DieReading, TrayReading

    session.latest_reading = TrayReading(tuple(DieReading(f, 0.4, (0, 0, 10, 10)) for f in (1, 2)))
    session.confirm_face(0, 1)
    full_disk["full"] = True
    assert session.apply({"action": "roll", "dice": [3]}) and session.unsaved is not None
    full_disk["full"] = False
    assert session.undo() and session.unsaved is None
    saved = Journal(tmp_path / "j").load()
    assert saved.actions == session.actions
    assert saved.learned == [(steps, example) for steps, _, _, example in session._learned]
