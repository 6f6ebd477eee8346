"""The snapshot, a cache of the journal, is written after the frame that shows a step (``Journal.defer_snapshot``):
its two fsyncs no longer stand between a press and the screen. The journal's fsync still does: a power cut before
the snapshot leaves the step in the journal, and the restart resumes it, saying nothing of doubt."""

from __future__ import annotations

import json
import os
import shutil

import pytest

from companion.app import App
from companion.config import Config
from companion.display import Display
from companion.games.free_play import FreePlay
from companion.session import GameSession
from hardware.events import Button, ButtonEvent


def _app(state_dir) -> App:
    cfg = Config()
    cfg.language = "en"
    return App(cfg, state_dir=state_dir, display=Display((800, 480), fullscreen=False), use_camera=False)


def _count(app: App) -> int:
    return json.loads(app.journal.snapshot_path.read_text(encoding="utf-8"))["count"]


def _free_play(app: App) -> GameSession:
    session = GameSession.new(FreePlay, {"action": "setup"}, app.journal, **app._session_kw())
    app.frame(1 / 30, [])
    return session


def test_a_step_waits_only_for_the_journal_and_its_snapshot_follows_the_frame(tmp_path, monkeypatch):
    app = _app(tmp_path)
    try:
        session = _free_play(app)
        assert session.apply({"action": "roll", "dice": [1]})
        app.frame(1 / 30, [])
        assert _count(app) == 2
        synced: list[int] = []
        real = os.fsync
        monkeypatch.setattr(os, "fsync", lambda fd: (synced.append(fd), real(fd))[1])
        shown: list[int] = []
        present = app.display.present
        monkeypatch.setattr(app.display, "present", lambda: (shown.append(_count(app)), present())[1])
        assert session.apply({"action": "roll", "dice": [2]})
        assert len(synced) == 1  # the journal's line alone before the screen shows the step
        app.frame(1 / 30, [])
        assert shown == [2]  # drawn with the snapshot still of the step before
        assert _count(app) == 3 and len(synced) > 1
    finally:
        app.close()


@pytest.mark.parametrize("move", ["step", "undo"])
def test_a_power_cut_before_the_snapshot_resumes_the_step_as_exact(tmp_path, move):
    """The files as a power cut after the journal's fsync and before the frame's end left them: the restart finds
    the step (or the undo) in the journal, the older snapshot no doubt."""
    app = _app(tmp_path / "table")
    try:
        session = _free_play(app)
        for n in (1, 2):
            assert session.apply({"action": "roll", "dice": [n]})
            app.frame(1 / 30, [])
        assert session.apply({"action": "roll", "dice": [3]}) if move == "step" else session.undo()
        shutil.copytree(tmp_path / "table", tmp_path / "cut")  # what the card holds at the cut
        rolls = session.engine.rolls
    finally:
        app.close()
    cut = json.loads((tmp_path / "cut" / "current" / "snapshot.json").read_text(encoding="utf-8"))
    assert cut["count"] == 3  # the snapshot of the step before (the menu brings it up to the journal's)
    again = _app(tmp_path / "cut")
    try:
        again.on_button(ButtonEvent(Button.SELECT))
        assert again.session.engine.rolls == rolls
        assert again.notice_tone == "good"  # "resumed": no word of steps maybe lost
        assert again.session.apply({"action": "roll", "dice": [6]})
        again.frame(1 / 30, [])
        assert _count(again) == len(again.session.actions)
    finally:
        again.close()
