"""A resume takes the snapshot's state where it is sealed to the journal (``journal._seal``), not a replay of every
step (0.1-0.7 s here at 300 steps, 3-4 times that on a Pi): the game after it must be the one a replay from the
setup makes, through power cuts before and after the snapshot, undos, and the steps played on. Where the seal does
not hold (a snapshot older than the journal, a journal written whole, a state changed on the card, other engines),
the game is replayed, as before."""

from __future__ import annotations

import json
import os
import random
import shutil

import pytest
from test_undo_checkpoints import KINDS, _ends, _replayed

from companion import journal as journal_module
from companion import session as session_module
from companion.games import engine_class
from companion.journal import Journal
from companion.session import GameSession
from tests.test_every_end import app_for, echt, played


@pytest.fixture(autouse=True)
def no_fsync(monkeypatch):
    monkeypatch.setattr(os, "fsync", lambda fd: None)  # the disk's speed is no part of this


@pytest.fixture
def applied(monkeypatch) -> list[str]:
    """The games whose engine applied a step (a replay does, from the snapshot's state nothing does)."""
    calls: list[str] = []
    for game in [*KINDS, "free-play"]:
        cls = engine_class(game)
        real = cls.apply
        monkeypatch.setattr(cls, "apply",
                            lambda self, action, _real=real: (calls.append(self.name), _real(self, action))[1])
    return calls


def _step_or_undo(session: GameSession, actions: list[dict], rng: random.Random) -> bool:
    """The table's next move at random: an undo now and then, else the game's next step; False once it has ended."""
    at = len(session.actions)
    if at == len(actions):
        return False
    if rng.random() < 0.15 and session.can_undo:
        assert session.undo()
    else:
        assert session.apply(actions[at]), session.error
    return True


def _resumed(folder, game: str) -> GameSession:
    journal = Journal(folder, defer_snapshot=True)
    return GameSession.resume(engine_class(game), journal.load(), journal)


def _tables(game: str) -> list[tuple[str, list[dict]]]:
    """Games of ``game`` to the end, each with its name: two of the ends every end test plays; free play's rolls and
    dice not read, at random."""
    if game != "free-play":
        return [(end_id, [played(end_id).setup, *played(end_id).actions]) for end_id in _ends(game)]
    rng = random.Random(game)
    rolls = [{"action": "roll", "dice": [rng.choice([1, 2, 3, 4, 5, 6, None]) for _ in range(rng.randint(1, 6))]}
             for _ in range(40)]
    return [(game, [{"action": "setup"}, *rolls])]


@pytest.mark.parametrize("game", [*KINDS, "free-play"])
def test_a_resume_from_the_snapshot_is_the_game_a_replay_makes(tmp_path, monkeypatch, applied, game):
    monkeypatch.setattr(session_module, "CHECKPOINT_EVERY", 4)  # undos after a resume keep copies again
    cuts: set[bool] = set()  # the snapshot written before a power cut, and not
    for end_id, actions in _tables(game):
        states, said = _replayed(game, actions)
        rng = random.Random(end_id)
        folder = tmp_path / end_id / "table"
        journal = Journal(folder, defer_snapshot=True)
        session = GameSession.new(engine_class(game), actions[0], journal)
        kept: list[tuple[object, int, bool]] = []  # each power cut: its files, the steps standing, snapshot written
        for move in range(10 * len(actions)):  # bounded: a step or an undo, a frame or not, a power cut at random
            if not _step_or_undo(session, actions, rng):
                break
            flushed = rng.random() < 0.7  # the frame showing it came before the cut, or not
            if flushed:
                journal.flush_snapshot()
            if rng.random() < 0.3:
                cut = tmp_path / end_id / f"cut{move}"
                shutil.copytree(folder, cut)
                kept.append((cut, len(session.actions), flushed))
        for cut, standing, flushed in kept:
            applied.clear()
            resumed = _resumed(cut, game)
            assert len(resumed.actions) == standing
            assert resumed.engine.to_json() == states[standing]
            assert not applied if flushed else len(applied) == standing - 1  # the snapshot's state, or a replay
            cuts.add(flushed)
            # played on from there, and undone back to the setup: as the replay's game does, and says
            for at in range(standing, len(actions)):
                words = [a.text("en") for a in resumed.engine.apply(actions[at])]
                resumed.actions.append(actions[at])
                assert words == said[at + 1] and resumed.engine.to_json() == states[at + 1]
            for _ in range(len(actions)):
                if not resumed.undo():
                    break
                assert resumed.engine.to_json() == states[len(resumed.actions)]
            assert len(resumed.actions) == 1
    assert cuts == {True, False}


def _played_on(folder) -> GameSession:
    """An Echt Spitze game three steps before its end, each step's snapshot written."""
    table = played("echt_level1_one")
    session = GameSession.new(engine_class("echt-spitze"), table.setup, Journal(folder))
    for action in table.actions[:-3]:
        assert session.apply(action), session.error
    return session


def test_a_snapshot_older_than_the_journal_replays(tmp_path, applied):
    """A power cut before the frame's snapshot (its state of the step before): the journal's last step counts."""
    session = _played_on(tmp_path)
    journal = Journal(tmp_path, defer_snapshot=True)
    session.journal = journal
    assert session.apply(played("echt_level1_one").actions[-3])  # its snapshot left unwritten
    applied.clear()
    saved = Journal(tmp_path).load()
    assert saved.state is None
    resumed = GameSession.resume(engine_class("echt-spitze"), saved, Journal(tmp_path))
    assert applied and resumed.engine.to_json() == session.engine.to_json()


@pytest.mark.parametrize("change", ["state", "journal", "code"])
def test_a_snapshot_whose_seal_breaks_replays(tmp_path, monkeypatch, applied, change):
    """A digit of the state changed on the card; a journal written whole with as many lines (the count of lines the
    same, its bytes not); an update of the engines since the snapshot: each replays the journal."""
    session = _played_on(tmp_path)
    snapshot = tmp_path / "snapshot.json"
    data = json.loads(snapshot.read_text(encoding="utf-8"))
    assert Journal(tmp_path).load().state == data["state"]  # sealed as written
    if change == "state":
        text = snapshot.read_text(encoding="utf-8")
        turn = json.dumps(data["state"]["turn"])
        snapshot.write_text(text.replace(f'"turn": {turn}', f'"turn": {int(turn) + 1}'), encoding="utf-8")
        assert json.loads(snapshot.read_text(encoding="utf-8"))["state"]["turn"] == int(turn) + 1
    elif change == "journal":
        path = tmp_path / "journal.jsonl"
        path.write_bytes(path.read_bytes().replace(b'{"action":{"action":"end_turn"}}',
                                                   b'{"action": {"action": "end_turn"}}', 1))
    else:
        monkeypatch.setattr(journal_module, "engine_code", lambda: "another version's engines")
    applied.clear()
    saved = Journal(tmp_path).load()
    assert saved.state is None
    resumed = GameSession.resume(engine_class("echt-spitze"), saved, Journal(tmp_path))
    assert applied and resumed.engine.to_json() == session.engine.to_json()


def test_seats_named_anew_replay(tmp_path, applied):
    """A game resumed in another language names its unnamed seats anew ("Player 2" for "Spieler 2"): the snapshot's
    state names them in the old words, the replay in the new."""
    setup = echt(["Anna", "Spieler 2"], 1).setup
    session = GameSession.new(engine_class("echt-spitze"), setup, Journal(tmp_path), unnamed=["Spieler 2"])
    assert session.apply({"action": "roll", "dice": ["1", "2", "3", "4"][:session.engine.dice_count]}), session.error
    saved = Journal(tmp_path).load()
    assert saved.state is not None
    applied.clear()
    resumed = GameSession.resume(engine_class("echt-spitze"), saved, Journal(tmp_path), lang="en")
    assert applied and "Player 2" in json.dumps(resumed.engine.to_json())


@pytest.mark.parametrize("game", [*KINDS, "free-play"])
def test_the_first_undo_after_a_resume_replays_from_the_snapshots_checkpoint(tmp_path, monkeypatch, applied, game):
    """The snapshot keeps the latest undo copy before its step (``SavedGame.checkpoint``): the first undo after a
    resume from it replays the steps since that copy, not the whole game (a held UNDO 300 steps into Haste Worte
    stalled ~2 s on a Pi at its first step), and makes the game a replay makes, as every undo after it does."""
    monkeypatch.setattr(session_module, "CHECKPOINT_EVERY", 4)
    resumed_at: set[int] = set()
    for end_id, actions in _tables(game):
        states, _ = _replayed(game, actions)
        rng = random.Random(f"{end_id}:checkpoint")
        folder = tmp_path / end_id / "table"
        session = GameSession.new(engine_class(game), actions[0], Journal(folder))
        for _ in range(10 * len(actions)):  # bounded: steps and undos at random, a resume now and then
            if not _step_or_undo(session, actions, rng):
                break
            if rng.random() < 0.25 and len(session.actions) > 4:
                applied.clear()
                resumed = _resumed(folder, game)
                standing = len(resumed.actions)
                assert not applied and resumed.engine.to_json() == states[standing]  # from the snapshot's state
                assert resumed.undo()
                assert len(applied) < 4, (standing, len(applied))  # from the copy before it, not the setup
                assert resumed.engine.to_json() == states[standing - 1]
                resumed_at.add(standing)
                for _ in range(standing):  # held down to the setup: the game a replay makes at every step
                    if not resumed.undo():
                        break
                    assert resumed.engine.to_json() == states[len(resumed.actions)]
                journal = Journal(folder)  # the table plays again from the setup to where the resume stood
                session = GameSession.resume(engine_class(game), journal.load(), journal)
                for action in actions[1:standing]:
                    assert session.apply(action), session.error
    assert resumed_at


def test_a_checkpoint_changed_on_the_card_replays(tmp_path, monkeypatch, applied):
    """The checkpoint is sealed with the state: a digit of it changed, the game is replayed, its undos as well."""
    monkeypatch.setattr(session_module, "CHECKPOINT_EVERY", 4)
    session = _played_on(tmp_path)
    snapshot = tmp_path / "snapshot.json"
    data = json.loads(snapshot.read_text(encoding="utf-8"))
    latest = (len(session.actions) - 1) // 4 * 4  # the latest copy before the step standing
    assert data["checkpoint"] == latest > 0 and Journal(tmp_path).load().checkpoint[0] == latest
    text = snapshot.read_text(encoding="utf-8")
    head, tail = text.split('"checkpoint_state": ')
    turn = json.dumps(data["checkpoint_state"]["turn"])
    snapshot.write_text(head + '"checkpoint_state": ' + tail.replace(f'"turn": {turn}', f'"turn": {int(turn) + 1}', 1),
                        encoding="utf-8")
    applied.clear()
    saved = Journal(tmp_path).load()
    assert saved.state is None and saved.checkpoint is None
    resumed = GameSession.resume(engine_class("echt-spitze"), saved, Journal(tmp_path))
    assert applied and resumed.engine.to_json() == session.engine.to_json()


def test_the_menus_catch_up_keeps_an_undo_checkpoint(tmp_path, monkeypatch, applied):
    """A power cut before the frame's snapshot: the main menu replays the game and writes the snapshot from that
    replay (``App._caught_up``), with its latest undo copy: the first undo after the resume replays the steps since
    it, not the whole game from the setup, and makes the game a replay makes."""
    monkeypatch.setattr(session_module, "CHECKPOINT_EVERY", 4)
    table = played("echt_level1_one")
    folder = tmp_path / "current"
    session = GameSession.new(engine_class("echt-spitze"), table.setup, Journal(folder, defer_snapshot=True))
    for action in table.actions[:-3]:
        assert session.apply(action), session.error
        if action is not table.actions[-4]:
            session.journal.flush_snapshot()  # the frame after each step but the last
    states, _ = _replayed("echt-spitze", [table.setup, *table.actions])
    standing = len(session.actions)
    assert Journal(folder).load().state is None  # the snapshot of the step before
    app = app_for(tmp_path, (800, 480), "en")
    try:
        data = json.loads((folder / "snapshot.json").read_text(encoding="utf-8"))
        assert data["count"] == standing and data["checkpoint"] == (standing - 1) // 4 * 4 > 0
        saved = app._resumable()
        assert saved is not None and saved.checkpoint is not None
        applied.clear()
        assert app.resume(saved)
        assert not applied and app.session.engine.to_json() == states[standing]
        assert app.session.undo()
        assert len(applied) < 4, len(applied)  # from the copy before it, not the setup
        assert app.session.engine.to_json() == states[standing - 1]
    finally:
        app.close()
