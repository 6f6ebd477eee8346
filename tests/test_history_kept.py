"""The history keeps the newest ``HISTORY_KEPT`` games (a weekly club put ~500 away a year, 3 files each, kept
forever): the oldest go at ``Journal.archive``, never the game put away then, never a folder it did not name, and a
removal the card refuses is logged, not the table's trouble."""

from __future__ import annotations

import logging
import os
import shutil

import pytest

from companion import journal as journal_module
from companion.journal import Journal

OLD = [f"2025010{d}-2000{s:02d}{n}" for d in range(1, 4) for s in range(2) for n in ("", "-1", "-2", "-10")]


@pytest.fixture(autouse=True)
def no_fsync(monkeypatch):
    monkeypatch.setattr(os, "fsync", lambda fd: None)


def _history(tmp_path, names: list[str]):
    history = tmp_path / "history"
    for name in names:
        (history / name).mkdir(parents=True)
        (history / name / "journal.jsonl").write_text('{"game": "free-play"}\n', encoding="utf-8")
    (history / "photos").mkdir()  # not a game's: a family's own folder, and a file
    (history / "notes.txt").write_text("ours", encoding="utf-8")
    return history


def _put_away(tmp_path):
    journal = Journal(tmp_path)
    journal.start("free-play", {"action": "setup"})
    return journal.archive()


def test_the_oldest_games_go_the_newest_stay(tmp_path, monkeypatch):
    monkeypatch.setattr(journal_module, "HISTORY_KEPT", 5)
    history = _history(tmp_path, OLD)
    target = _put_away(tmp_path)
    games = sorted(p.name for p in history.iterdir() if p.name not in ("photos", "notes.txt"))
    # the newest four of before ("-10" after "-2", not before "-2") and the game put away now
    assert games == sorted(["20250103-200001", "20250103-200001-1", "20250103-200001-2", "20250103-200001-10",
                            target.name])
    assert (target / "journal.jsonl").exists()
    assert (history / "photos").is_dir() and (history / "notes.txt").read_text(encoding="utf-8") == "ours"


def test_a_history_far_over_shrinks_a_few_at_a_time(tmp_path, monkeypatch):
    monkeypatch.setattr(journal_module, "HISTORY_KEPT", 2)
    monkeypatch.setattr(journal_module, "TRIM_AT_ONCE", 5)
    history = _history(tmp_path, OLD)
    counts = []
    for _ in range(len(OLD)):  # bounded: a game put away after another
        _put_away(tmp_path)
        counts.append(sum(1 for p in history.iterdir() if p.name[:1].isdigit()))
        if counts[-1] == 2:
            break
    assert counts[0] == len(OLD) + 1 - 5 and counts[-1] == 2
    assert all(a - b in (4, 5) for a, b in zip(counts, counts[1:], strict=False) if b > 2)


def test_a_removal_cut_by_the_power_is_finished_at_the_next(tmp_path, monkeypatch):
    monkeypatch.setattr(journal_module, "HISTORY_KEPT", 100)
    history = _history(tmp_path, OLD[:2])
    (history / ".going-20240101-200000").mkdir()  # renamed, the power gone before its files were removed
    (history / ".going-20240101-200000" / "journal.jsonl").write_text("{}\n", encoding="utf-8")
    _put_away(tmp_path)
    assert not (history / ".going-20240101-200000").exists()
    assert all((history / name).is_dir() for name in OLD[:2])


def test_a_removal_the_card_refuses_is_logged(tmp_path, monkeypatch, caplog):
    monkeypatch.setattr(journal_module, "HISTORY_KEPT", 3)
    history = _history(tmp_path, OLD[:4])

    def refuse(*args, **kw):
        raise PermissionError("read-only file system")

    monkeypatch.setattr(shutil, "rmtree", refuse)
    with caplog.at_level(logging.WARNING):
        target = _put_away(tmp_path)
    assert target is not None and (target / "journal.jsonl").exists()
    assert "an old game's files stay" in caplog.text
    real_replace = os.replace
    monkeypatch.setattr(os, "replace", lambda a, b: refuse() if "history" in str(b) and ".going-" in str(b)
                        else real_replace(a, b))
    caplog.clear()
    with caplog.at_level(logging.WARNING):
        assert _put_away(tmp_path) is not None
    assert "an old game stays in the history" in caplog.text
    assert any(p.name.startswith("2025") for p in history.iterdir())
