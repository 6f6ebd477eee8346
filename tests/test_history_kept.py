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


def test_games_put_away_after_the_clock_went_back_stay_the_newest(tmp_path, monkeypatch):
    """A Pi without a clock battery on 1970 until the network's time comes (or a power cut's restart on the time
    fake-hwclock saved an hour before): folders named by the clock alone sorted the games put away then before the
    ones they followed, and a full history's trim removed the newest game at the next archive. Named after the
    newest game there, they stay in the order they were put away, and the oldest go."""
    import time

    from companion.journal import archived_in_order

    monkeypatch.setattr(journal_module, "HISTORY_KEPT", 5)
    history = _history(tmp_path, OLD)
    clock = ["20250104-200000"]
    monkeypatch.setattr(time, "strftime", lambda fmt, *a: clock[0])
    put_away = []
    for stamp in ("20250104-200000", "19700101-000130", "19700101-000500", "20250104-200000"):
        clock[0] = stamp  # the clock back to 1970 after the first, and the network's time again for the last
        journal = Journal(tmp_path)
        journal.start("free-play", {"action": "setup", "game": len(put_away)})
        put_away.append(journal.archive().name)
    assert all((history / name).is_dir() for name in put_away), put_away  # the game after the jump was removed
    games = archived_in_order(p.name for p in history.iterdir())
    assert games[-4:] == put_away and len(games) == 5  # the four games, and one of before; the oldest went
    for n, name in enumerate(put_away):  # each folder holds its own game
        assert f'"game":{n}' in (history / name / "journal.jsonl").read_text(encoding="utf-8")
    assert put_away[1:] == ["20250104-200000-1", "20250104-200000-2", "20250104-200000-3"]
