"""An undo replays from the engine's latest copy (``session.CHECKPOINT_EVERY``), not from the setup: the game after
it must be the one a replay from the setup makes, through undos, steps played again, and a resume."""

from __future__ import annotations

import os
import random

import pytest

from companion import session as session_module
from companion.games import engine_class
from companion.journal import Journal
from companion.session import GameSession
from tests.test_every_end import ENDS, played

KINDS = sorted({end.game for end in ENDS})


def _ends(game: str) -> list[str]:
    """Two of the game's ends (the first and the last of the list): the rest take long and add little."""
    ids = [end.id for end in ENDS if end.game == game]
    return sorted({ids[0], ids[-1]})


def _replayed(game: str, actions: list[dict]) -> tuple[dict[int, dict], dict[int, list[str]]]:
    """The game after each number of ``actions`` replayed from the setup, and what the step to that number says.
    (The session's actions are always the first so many of the table's: one state for each number.)"""
    engine = engine_class(game).new(actions[0])
    states, said = {1: engine.to_json()}, {}
    for n, action in enumerate(actions[1:], start=2):
        said[n] = [a.text("en") for a in engine.apply(action)]
        states[n] = engine.to_json()
    return states, said


@pytest.mark.parametrize("game", KINDS)
def test_undos_from_checkpoints_give_the_game_a_replay_gives(tmp_path, monkeypatch, game):
    monkeypatch.setattr(os, "fsync", lambda fd: None)  # the disk is no part of this
    monkeypatch.setattr(session_module, "CHECKPOINT_EVERY", 4)  # many copies in a short game, undos between them
    undone = 0
    for end_id in _ends(game):
        table = played(end_id)
        actions = [table.setup, *table.actions]
        states, said = _replayed(game, actions)
        rng = random.Random(end_id)
        folder = tmp_path / end_id / "current"
        heard: list = []
        session = GameSession.new(engine_class(game), actions[0], Journal(folder), announce=heard.append)
        for _ in range(10 * len(actions)):  # bounded: a step, or one to three undos, at random
            at = len(session.actions)
            if at == len(actions):
                break
            if rng.random() < 0.1 and session.can_undo:
                for _ in range(rng.randint(1, 3)):
                    if not session.undo():
                        break
                    undone += 1
                    assert session.engine.to_json() == states[len(session.actions)]
                continue
            heard.clear()
            assert session.apply(actions[at]), session.error
            assert session.engine.to_json() == states[at + 1]
            assert [a.text("en") for a in heard] == said[at + 1]  # what the step says, too
        assert len(session.actions) == len(actions)
        # resumed: the checkpoints the replay passed, then the UNDO held down to the setup; and so in the game played
        journal = Journal(folder)
        resumed = GameSession.resume(engine_class(game), journal.load(), journal)
        for held in (resumed, session):
            for _ in range(len(actions)):
                if not held.undo():
                    break
                assert held.engine.to_json() == states[len(held.actions)]
            assert len(held.actions) == 1
    assert undone  # (at random, within the games played)


def test_an_undo_late_in_a_game_replays_only_the_steps_since_the_latest_copy(tmp_path, monkeypatch):
    """A held UNDO 300 steps in replayed the whole game at each step (~95 ms a step on a Pi)."""
    from companion.games.free_play import FreePlay

    monkeypatch.setattr(os, "fsync", lambda fd: None)
    session = GameSession.new(FreePlay, {"action": "setup"}, Journal(tmp_path / "current"))
    for n in range(60):
        assert session.apply({"action": "roll", "dice": [n % 6 + 1]})
    applied: list[dict] = []
    real = FreePlay.apply
    monkeypatch.setattr(FreePlay, "apply", lambda self, action: (applied.append(action), real(self, action))[1])
    for n in range(60, 45, -1):  # (61 actions: the setup and 60 rolls)
        applied.clear()
        assert session.undo()
        assert session.engine.rolls == [[k % 6 + 1] for k in range(n - 1)]
        assert len(applied) < session_module.CHECKPOINT_EVERY
