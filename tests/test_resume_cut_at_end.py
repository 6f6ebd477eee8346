"""A power cut in the one frame after a game's last press (the journal holds the step, the snapshot written after the
frame does not yet): the restart shows the game as finished, its result and "new game", as after a cut at its end
screen; the main menu never offers it as "Resume"."""

from __future__ import annotations

import os
import shutil
import time
from collections.abc import Callable

import pytest

from companion.app import LAST_RESULT_SECONDS, App
from companion.config import Config
from companion.display import Display
from companion.games import engine_class
from companion.i18n import t
from companion.session import GameSession
from tests.test_every_end import ENDS, End, app_for, played, shown

#: one end of each kind of game
FIRSTS = {end.game: end for end in reversed(ENDS)}


@pytest.fixture(autouse=True)
def no_fsync(monkeypatch):
    monkeypatch.setattr(os, "fsync", lambda fd: None)


def _played_to_the_end(tmp_path, end: End, then: Callable[[GameSession, App], None] | None = None,
                       last_snapshot: bool = True) -> dict:
    """The game played to its end in the app, each step's snapshot written after its frame (the last one's only
    where ``last_snapshot``), ``then`` done, and the card copied as the power cut left it, to ``tmp_path / "cut"``.
    Returns the finished game's state."""
    table = played(end.id)
    app = app_for(tmp_path / "table", (800, 480), "en")
    try:
        session = GameSession.new(engine_class(end.game), table.setup, app.journal, **app._session_kw())
        for action in table.actions:
            assert session.apply(action), session.error
            if last_snapshot or action is not table.actions[-1]:
                app.journal.flush_snapshot()  # the frame after the step
        assert session.engine.finished
        state = session.engine.to_json()
        if then is not None:
            then(session, app)
        shutil.copytree(tmp_path / "table", tmp_path / "cut")
        return state
    finally:
        app.close()


def _cut_after_the_last_press(tmp_path, end: End) -> dict:
    """Each step's snapshot written after its frame but the last one's: the cut in the frame after the last press."""
    return _played_to_the_end(tmp_path, end, last_snapshot=False)


def _shows_its_result(again: App, monkeypatch, end: End, state: dict) -> None:
    """The restart shows the finished game: its state, what its end screen says, and "new game"."""
    assert again.session is not None and again._game_over(), again.mode
    assert again.session.engine.to_json() == state
    words = shown(again, monkeypatch)
    for said in [*end.says("en", again.session.engine), t("core.hint_play_again", "en")]:
        assert said in words, words


@pytest.mark.parametrize("end", FIRSTS.values(), ids=lambda e: e.game)
def test_a_cut_before_the_last_steps_snapshot_shows_the_result(tmp_path, monkeypatch, end):
    state = _cut_after_the_last_press(tmp_path, end)
    again = app_for(tmp_path / "cut", (800, 480), "en")
    try:
        _shows_its_result(again, monkeypatch, end, state)
        assert again.notice == t("core.resumed_over", "en")
    finally:
        again.close()


def test_found_the_next_day_it_goes_to_the_history_unoffered(tmp_path):
    """Switched on long after (``LAST_RESULT_SECONDS``), as a finished game whose snapshot was written: not offered
    as "Resume", and put with the finished games."""
    _cut_after_the_last_press(tmp_path, FIRSTS["echt-spitze"])
    cfg = Config()
    cfg.language = "en"
    later = App(cfg, state_dir=tmp_path / "cut", display=Display((800, 480), fullscreen=False), use_camera=False,
                wall_clock=lambda: time.time() + LAST_RESULT_SECONDS + 60)
    try:
        assert later.session is None
        assert [item.value[0] for item in later.mode.menu.items].count("resume") == 0
        assert not (tmp_path / "cut" / "current" / "journal.jsonl").exists()
        assert list((tmp_path / "cut" / "current" / "history").glob("*/journal.jsonl"))
    finally:
        later.close()


def _torn_after_the_end(tmp_path, end: End) -> dict:
    """The cut after the last press, and a line after the end cut short as well (an example taught with the last
    throw, being written): a game in doubt."""
    state = _cut_after_the_last_press(tmp_path, end)
    with open(tmp_path / "cut" / "current" / "journal.jsonl", "ab") as f:
        f.write(b'{"undo":tr')
    return state


def _end_undone_then_lost(tmp_path, end: End) -> dict:
    """The end's snapshot written, an UNDO of the end pressed and its snapshot written, and the card losing the
    undo's line: the snapshot counts a line more than the journal holds (a game in doubt), and the replay ends."""
    def undo_the_end(session: GameSession, app: App) -> None:
        assert session.undo()
        app.journal.flush_snapshot()

    state = _played_to_the_end(tmp_path, end, undo_the_end)
    path = tmp_path / "cut" / "current" / "journal.jsonl"
    lines = path.read_bytes().splitlines(keepends=True)
    assert lines[-1] == b'{"undo":true}\n'
    path.write_bytes(b"".join(lines[:-1]))
    return state


@pytest.mark.parametrize("doubt", [_torn_after_the_end, _end_undone_then_lost], ids=["torn", "lines_lost"])
@pytest.mark.parametrize("end", FIRSTS.values(), ids=lambda e: e.game)
def test_a_finished_game_in_doubt_shows_its_result_and_asks_to_check(tmp_path, monkeypatch, end, doubt):
    """Not "Resume" at every start (its end screen saying "please check" only once chosen): its result at once, and
    the check asked for; the doubt is still there for the next load (the snapshot the menu wrote from its replay
    no longer counts the lines lost: the mark does), and UNDO on the end screen goes back from the end."""
    state = doubt(tmp_path, end)
    again = app_for(tmp_path / "cut", (800, 480), "en")
    try:
        _shows_its_result(again, monkeypatch, end, state)
        assert again.notice == t("core.resumed_over_check", "en")
        assert again.journal.load().doubt
        assert again.session.undo() and not again.session.engine.finished
    finally:
        again.close()


def test_a_finished_game_in_doubt_found_the_next_day_goes_to_the_history(tmp_path):
    """As a finished game in no doubt: the history keeps it, the menu offers no "Resume" of a game that ended."""
    _torn_after_the_end(tmp_path, FIRSTS["haste-worte"])
    cfg = Config()
    cfg.language = "en"
    later = App(cfg, state_dir=tmp_path / "cut", display=Display((800, 480), fullscreen=False), use_camera=False,
                wall_clock=lambda: time.time() + LAST_RESULT_SECONDS + 60)
    try:
        assert later.session is None
        assert [item.value[0] for item in later.mode.menu.items].count("resume") == 0
        assert list((tmp_path / "cut" / "current" / "history").glob("*/journal.jsonl"))
    finally:
        later.close()
