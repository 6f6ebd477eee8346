"""The companion killed before each file-system call of each thing the journal does (a SIGKILL, or a power cut after
everything before that call reached the card): every restart finds the game as it stood before or after, and says
so where it may not be where the table stopped. A power cut between the repair of a line cut short and its mark
said "exactly where it stopped" of a game whose last step the cut had taken."""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from companion.errors import JournalError
from companion.games.free_play import FreePlay
from companion.journal import Journal
from companion.session import GameSession, StepRefused, rebuild

#: the calls the journal and its atomic writes change the card with (fsync: the point between a write and a rename)
CALLS = ("replace", "link", "unlink", "utime", "fsync", "rename", "mkdir", "open")
#: more calls than any operation below makes (the longest, a new game over an unfinished one, makes 28)
MOST_CALLS = 80


class Killed(BaseException):
    """The process gone at that call: nothing after it ran."""


def _kill_at(monkeypatch: pytest.MonkeyPatch, at: int) -> None:
    """Kill the process before the ``at``-th of ``CALLS``."""
    count = [0]
    for name in CALLS:
        real = getattr(os, name)

        def call(*args, _real=real, **kwargs):
            count[0] += 1
            if count[0] == at:
                raise Killed
            return _real(*args, **kwargs)

        monkeypatch.setattr(os, name, call)


R = [[1], [2], [3]]


def _played(folder: Path, rolls: int = 3) -> None:
    session = GameSession.new(FreePlay, {"action": "setup"}, Journal(folder))
    for n in range(1, rolls + 1):
        assert session.apply({"action": "roll", "dice": [n]})


def _resumed(folder: Path) -> tuple[object, GameSession] | None:
    """What the menu offers after the restart, resumed as the app resumes it (a refused step cut back before)."""
    journal = Journal(folder)
    saved = journal.load()
    if saved is None:
        return None
    try:
        return saved, GameSession.resume(FreePlay, saved, journal)
    except StepRefused as exc:
        saved = journal.cut_back_before(exc.step)
        return saved, GameSession.resume(FreePlay, saved, journal)


def _appended(folder: Path, text: str) -> None:
    with open(folder / "journal.jsonl", "a", encoding="utf-8") as f:
        f.write(text)


def _torn(folder: Path) -> None:
    _played(folder)
    _appended(folder, '{"action":{"action":"ro')  # the write the power cut stopped


def _damaged(folder: Path, after: str) -> None:
    _played(folder, 4)
    path = folder / "journal.jsonl"
    lines = path.read_bytes().split(b"\n")
    lines[5] = b"\xff" * 4 + lines[5][4:]  # roll 4, a bad sector's bytes
    path.write_bytes(b"\n".join(lines))
    _appended(folder, after)


def _refused(folder: Path) -> None:
    _played(folder, 2)
    _appended(folder, '{"action":{"action":"roll","dice":[9]}}\n{"action":{"action":"roll","dice":[5]}}\n')


def _step(folder: Path) -> None:
    assert GameSession.resume(FreePlay, Journal(folder).load(), Journal(folder)).apply({"action": "roll", "dice": [4]})


def _undo(folder: Path) -> None:
    assert GameSession.resume(FreePlay, Journal(folder).load(), Journal(folder)).undo()


def _after_the_frame(folder: Path, move: Callable[[GameSession], bool]) -> None:
    """``move`` as the app makes it: the snapshot written after the frame showing it (``Journal.defer_snapshot``)."""
    journal = Journal(folder, defer_snapshot=True)
    assert move(GameSession.resume(FreePlay, journal.load(), journal))
    journal.flush_snapshot()


def _step_written_whole(folder: Path) -> None:
    session = GameSession.resume(FreePlay, Journal(folder).load(), Journal(folder))
    session.unsaved = OSError(28, "No space left on device")  # the step before was refused: this one writes it whole
    assert session.apply({"action": "roll", "dice": [4]})


def _new_game(folder: Path) -> None:
    GameSession.new(FreePlay, {"action": "setup"}, Journal(folder)).apply({"action": "roll", "dice": [6]})


def _caught_up(folder: Path) -> None:
    """The main menu's replay of a game whose snapshot is older than its journal, and the snapshot written from it
    (``App._caught_up``)."""
    journal = Journal(folder)
    saved = journal.load()
    assert saved.state is None and not saved.doubt
    journal.caught_up(saved, rebuild(FreePlay, saved.actions))


def _lines_lost(folder: Path) -> None:
    """An undo written and its snapshot, then the undo's line lost by the card: the snapshot counts a line more than
    the journal holds, the only trace of it."""
    _played(folder)
    _undo(folder)
    path = folder / "journal.jsonl"
    path.write_bytes(b"".join(path.read_bytes().splitlines(keepends=True)[:-1]))


def _caught_up_in_doubt(folder: Path) -> None:
    """The main menu's replay of a game in doubt, and the snapshot written from it: the doubt goes into the mark
    first (the snapshot counted the lines lost)."""
    journal = Journal(folder)
    saved = journal.load()
    assert saved.state is None and saved.doubt
    journal.caught_up(saved, rebuild(FreePlay, saved.actions))


UNDONE = '{"undo":true}\n{"action":{"action":"roll","dice":[5]}}\n'
STANDING = '{"action":{"action":"roll","dice":[5]}}\n'

# (what is on the card, what is done to it and killed, the games a restart may find: None for none, and whether the
# table must be told at the restart)
CASES: dict[str, tuple[Callable[[Path], None], Callable[[Path], object], list[list[list[int]] | None], bool]] = {
    "a step": (_played, _step, [R, [*R, [4]]], False),
    "an undo": (_played, _undo, [R, R[:2]], False),
    "a step, its snapshot after the frame": (
        _played, lambda folder: _after_the_frame(folder, lambda s: s.apply({"action": "roll", "dice": [4]})),
        [R, [*R, [4]]], False),
    "an undo, its snapshot after the frame": (
        _played, lambda folder: _after_the_frame(folder, GameSession.undo), [R, R[:2]], False),
    "a step written whole after a refused one": (_played, _step_written_whole, [R, [*R, [4]]], False),
    "a new game over an unfinished one": (_played, _new_game, [R, None, [], [[6]]], False),
    "a finished game put away": (_played, lambda folder: Journal(folder).archive(), [R, None], False),
    "the repair of a line cut short": (_torn, _resumed, [R], True),
    "a damaged line an undo took back": (lambda folder: _damaged(folder, UNDONE), _resumed, [[*R, [5]]], True),
    "a damaged line still standing": (lambda folder: _damaged(folder, STANDING), _resumed, [R], True),
    "a refused step cut back before": (_refused, _resumed, [[[1], [2]]], True),
    "the menu's snapshot after a cut before the frame": (
        lambda folder: (_played(folder), _appended(folder, '{"action":{"action":"roll","dice":[4]}}\n')),
        _caught_up, [[*R, [4]]], False),
    "the menu's snapshot of a game whose lines the card lost": (_lines_lost, _caught_up_in_doubt, [R], True),
}


@pytest.mark.parametrize("case", list(CASES))
def test_a_kill_at_any_call_leaves_a_game_the_restart_offers_and_says(tmp_path, monkeypatch, case):
    prepare, operate, games, told = CASES[case]
    monkeypatch.setattr(os, "fsync", lambda fd: None)  # a kill loses no page cache: no need to wait for the disk
    finished = False
    for at in range(1, MOST_CALLS):
        folder = tmp_path / str(at) / "current"
        prepare(folder)
        with monkeypatch.context() as m:
            _kill_at(m, at)
            try:
                operate(folder)
                finished = True  # no call left to be killed at
            except Killed:
                pass
        try:
            resumed = _resumed(folder)
        except JournalError as exc:
            pytest.fail(f"killed at call {at}: the restart set the game aside ({exc})")
        if resumed is None:
            assert None in games, f"killed at call {at}: no game offered"
        else:
            saved, session = resumed
            assert session.engine.rolls in games, f"killed at call {at}"
            assert not saved.finished
            assert not told or saved.doubt, f"killed at call {at}: the restart says nothing of the lines lost"
            assert Journal(folder).load().actions == session.actions  # the menu loads it again: the same game
            assert session.apply({"action": "roll", "dice": [6]})  # and the table plays on from it
            assert Journal(folder).load().actions == session.actions
        shutil.rmtree(folder.parent)
        if finished:
            break
    assert finished, f"{case}: more than {MOST_CALLS} calls"
