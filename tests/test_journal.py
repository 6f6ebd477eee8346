import json
import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest

from companion.errors import JournalError
from companion.games.free_play import FreePlay
from companion.journal import Journal
from companion.session import GameSession, rebuild
from vision.types import DieReading, TrayReading


def _session(tmp_path):
    return GameSession.new(FreePlay, {"action": "setup"}, Journal(tmp_path / "current"))


def test_resume_restores_identical_state(tmp_path):
    s = _session(tmp_path)
    for faces in ([1, 2, 3], [6, None, 6], [4, 4, 4]):
        assert s.apply({"action": "roll", "dice": faces})
    s.apply({"action": "correct", "roll": 2, "die": 2, "face": 5})
    saved = Journal(tmp_path / "current").load()
    again = GameSession.resume(FreePlay, saved, Journal(tmp_path / "current"))
    assert again.engine.to_json() == s.engine.to_json()
    assert again.engine.rolls[1] == [6, 5, 6]


def test_rejected_action_changes_nothing_and_is_not_journaled(tmp_path):
    s = _session(tmp_path)
    s.apply({"action": "roll", "dice": [1, 2]})
    before = (tmp_path / "current" / "journal.jsonl").read_bytes()
    assert not s.apply({"action": "roll", "dice": [7]})
    assert "1 bis 6" in s.error  # shown in the table's language (German by default)
    assert (tmp_path / "current" / "journal.jsonl").read_bytes() == before
    assert s.engine.rolls == [[1, 2]]


def test_undo_steps_back_one_event_at_a_time_across_restarts(tmp_path):
    s = _session(tmp_path)
    for n in range(1, 5):
        s.apply({"action": "roll", "dice": [n]})
    assert s.undo()
    assert [r[0] for r in s.engine.rolls] == [1, 2, 3]
    # restart: the undo was journaled
    s2 = GameSession.resume(FreePlay, Journal(tmp_path / "current").load(), Journal(tmp_path / "current"))
    assert [r[0] for r in s2.engine.rolls] == [1, 2, 3]
    assert s2.undo() and s2.undo() and s2.undo()
    assert s2.engine.rolls == []
    assert not s2.undo()  # never past the setup
    s3 = GameSession.resume(FreePlay, Journal(tmp_path / "current").load(), Journal(tmp_path / "current"))
    assert s3.engine.rolls == []
    s3.apply({"action": "roll", "dice": [6]})
    s4 = GameSession.resume(FreePlay, Journal(tmp_path / "current").load(), Journal(tmp_path / "current"))
    assert s4.engine.rolls == [[6]]


def test_corrupt_journal_is_kept_aside_with_a_clear_message(tmp_path):
    s = _session(tmp_path)
    s.apply({"action": "roll", "dice": [3]})
    path = tmp_path / "current" / "journal.jsonl"
    lines = path.read_text().splitlines()
    lines.insert(1, "{this is not json")
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(JournalError, match=r"damaged \(line 2.*kept as journal.jsonl.corrupt-"):
        Journal(tmp_path / "current").load()
    assert not path.exists()
    kept = list((tmp_path / "current").glob("journal.jsonl.corrupt-*"))
    assert len(kept) == 1 and "{this is not json" in kept[0].read_text()
    # the state it last showed is kept beside it: the next game's first step would have overwritten it
    assert not (tmp_path / "current" / "snapshot.json").exists()
    assert len(list((tmp_path / "current").glob("snapshot.json.corrupt-*"))) == 1


@pytest.mark.parametrize("junk", [b"\0" * 300, bytes(range(1, 10)) * 30, b"[" * 100_000 + b"\n"],
                         ids=["zeros", "junk-without-a-newline", "nested-too-deeply"])
def test_a_journal_with_no_readable_line_is_damage_not_a_game_never_set_up(tmp_path, junk):
    """A card's zeros where the file's blocks were never written, or bytes without one newline, read as a line cut
    before the game's setup: the game went to the history without a word, its snapshot overwritten by the next.
    A line nested past Python's limit stopped the companion at every start."""
    s = _session(tmp_path)
    s.apply({"action": "roll", "dice": [3]})
    path = tmp_path / "current" / "journal.jsonl"
    path.write_bytes(junk)
    with pytest.raises(JournalError, match=r"damaged.*kept as journal.jsonl.corrupt-"):
        Journal(tmp_path / "current").load()
    assert not path.exists() and list((tmp_path / "current").glob("snapshot.json.corrupt-*"))


@pytest.mark.parametrize(("line", "number"), [('{"action": 5}', 2), ('{"action": ["pick", 1]}', 2),
                                              ('{"game": ["free-play"], "at": 1}', 1)])
def test_a_line_of_the_wrong_shape_is_damage_not_a_crash_at_every_start(tmp_path, line, number):
    """JSON that parses but is no action (a number, a list) or a header without a game's name went through to the
    engine or the menu and stopped the companion at start, every start. (In the setup's place or the header's: a
    step's line of that shape costs the steps from it on, ``test_a_damaged_line_in_the_middle_...``.)"""
    s = _session(tmp_path)
    s.apply({"action": "roll", "dice": [3]})
    path = tmp_path / "current" / "journal.jsonl"
    lines = path.read_text().splitlines()
    lines[number - 1:number] = [line]
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(JournalError, match=rf"line {number}") as e:
        Journal(tmp_path / "current").load()
    assert e.value.aside.startswith("journal.jsonl.corrupt-") and not path.exists()


@pytest.mark.parametrize(("snapshot", "finished"), [('{"finished": true, "count": 2}', True),
                                                    ('{"finished": "no", "count": 2}', False), ("[1, 2]", False),
                                                    ('{"finished": true, "count": 3}', False)])
def test_only_a_snapshot_saying_true_ends_a_game(tmp_path, snapshot, finished):
    """'"no"' counted as finished (the game went to the history, not offered to resume), a list stopped the start.
    A snapshot of more steps than the journal's shows an end the journal undid after it (the undo written, the
    power gone, or the card full, before the snapshot was): the game was put away without a word."""
    s = _session(tmp_path)
    s.apply({"action": "roll", "dice": [3]})
    (tmp_path / "current" / "snapshot.json").write_text(snapshot)
    assert Journal(tmp_path / "current").load().finished is finished


def _card_refusing_renames(monkeypatch) -> dict[str, bool]:
    """A card gone read-only: ``os.replace`` (every atomic write's last step) refused while the switch returned is
    on (``{"on": True}``; set it False for the card to write again)."""
    refusing = {"on": True}
    replace = os.replace

    def read_only(*args, **kwargs):
        if refusing["on"]:
            raise OSError(30, "Read-only file system")
        return replace(*args, **kwargs)

    monkeypatch.setattr(os, "replace", read_only)
    return refusing


def test_a_damaged_snapshot_on_a_write_protected_card_still_offers_the_game(tmp_path, monkeypatch):
    """The snapshot could not be put aside (the card gone read-only): "The saved game cannot be read", though the
    journal, all the replay needs, was whole."""
    s = _session(tmp_path)
    s.apply({"action": "roll", "dice": [3]})
    (tmp_path / "current" / "snapshot.json").write_bytes(b"\0" * 40)
    _card_refusing_renames(monkeypatch)
    saved = Journal(tmp_path / "current").load()
    assert rebuild(FreePlay, saved.actions).rolls == [[3]] and not saved.finished


def test_a_damaged_journal_on_a_write_protected_card_is_called_damaged(tmp_path, monkeypatch):
    s = _session(tmp_path)
    s.apply({"action": "roll", "dice": [3]})
    path = tmp_path / "current" / "journal.jsonl"
    path.write_text(path.read_text().replace('"setup"', '"setup', 1))
    _card_refusing_renames(monkeypatch)
    with pytest.raises(JournalError, match=r"damaged \(line 2"):
        Journal(tmp_path / "current").load()


def _rolled(tmp_path, rolls: int = 6) -> GameSession:
    s = _session(tmp_path)
    for n in range(1, rolls + 1):
        assert s.apply({"action": "roll", "dice": [n]})
    return s


def _flip(raw: bytes, start: int, end: int, fill: bytes) -> bytes:
    return raw[:start] + fill * (end - start) + raw[end:]


def _line_span(raw: bytes, number: int) -> tuple[int, int]:
    """Where line ``number`` (1: the header) lies in ``raw``, its newline left out."""
    start = 0
    for _ in range(number - 1):
        start = raw.index(b"\n", start) + 1
    return start, raw.index(b"\n", start)


def _damage(path, how: str) -> None:
    """Line 6 (roll 4: the header, the setup, then a line a roll) made unreadable as a card does it."""
    raw = path.read_bytes()
    start, end = _line_span(raw, 6)
    if how == "flipped":  # a sector gone bad: bytes changed, the line's length kept
        damaged = _flip(raw, start + 3, start + 9, b"\xff")
    elif how == "zeros":  # a block the card never wrote: zeros where the line was
        damaged = _flip(raw, start, end, b"\0")
    elif how == "zero-block":  # zeros over lines 6 and 7, newline and all, into line 8: one line of them
        damaged = _flip(raw, start, _line_span(raw, 8)[0] + 5, b"\0")
    else:  # a step's line of the wrong shape (JSON, but no action): no crash at every start either
        damaged = raw[:start] + b'{"action": 5}' + raw[end:]
    path.write_bytes(damaged)


@pytest.mark.parametrize("how", ["flipped", "zeros", "zero-block", "wrong-shape"])
def test_a_damaged_line_in_the_middle_goes_back_to_the_step_before_it(tmp_path, how):
    """One unreadable line after the setup set the whole game aside ("start a new game"): two hours of Echt Spitze
    gone over one bad sector. The game as it stood before that line comes back, its steps after it (an undo among
    them: it would take back another step now) left out; the damaged file is kept for a bug report."""
    s = _rolled(tmp_path)
    assert s.undo()  # line 9: it took back roll 6, but after the damage it cannot be trusted
    folder = tmp_path / "current"
    path = folder / "journal.jsonl"
    _damage(path, how)
    damaged = path.read_bytes()
    played = time.time() - 3600
    os.utime(path, (played, played))
    saved = Journal(folder).load()
    assert saved is not None and rebuild(FreePlay, saved.actions).rolls == [[1], [2], [3]]
    assert saved.damaged and saved.doubt and not saved.finished and saved.unrepaired is None
    # the steps lost, for the resume to say: the damaged line's roll 4 and roll 5 (roll 6 the undo took back); zeros
    # may have been several lines (the zero block was three), so none is said
    assert saved.lost == (None if how.startswith("zero") else 2)
    kept = list(folder.glob("journal.jsonl.corrupt-*"))
    assert len(kept) == 1 and kept[0].read_bytes() == damaged  # the file as the card gave it, for a bug report
    assert len(path.read_text().splitlines()) == 5 and b"\0" not in path.read_bytes()  # written whole
    # the snapshot showed roll 5 and counted 9 lines: kept aside with the damaged journal, not left to count them
    assert not (folder / "snapshot.json").exists() and list(folder.glob("snapshot.json.corrupt-*"))
    # the menu loads it again before Resume: the same game, still named damaged, nothing more kept aside
    again = Journal(folder).load()
    assert again.actions == saved.actions and again.damaged and len(list(folder.glob("journal.jsonl.corrupt-*"))) == 1
    assert again.lost == saved.lost
    assert again.saved_at == pytest.approx(played)  # "Resume (20:41)": when the table last played, not the repair
    session = GameSession.resume(FreePlay, again, Journal(folder))
    assert session.apply({"action": "roll", "dice": [6]})  # appended to the journal written whole
    after = Journal(folder).load()
    assert rebuild(FreePlay, after.actions).rolls == [[1], [2], [3], [6]]
    assert not after.damaged and not after.doubt and not after.finished
    assert GameSession.resume(FreePlay, after, Journal(folder)).undo()


_UNDO = '{"undo": true}'


def _appended(path, after: list[str]) -> None:
    """Lines written after the journal's own: ``_UNDO``, or a roll of the faces given."""
    with open(path, "a", encoding="utf-8") as f:
        for line in after:
            f.write(line if line == _UNDO else f'{{"action": {{"action": "roll", "dice": {line}}}}}')
            f.write("\n")


@pytest.mark.parametrize("after, lost", [
    (["[5]", _UNDO, "[7]"], 2),  # roll 4 (damaged) and roll 7 stand on the table
    (["[5]", "[6]"], 3),
])
def test_the_steps_a_damaged_line_loses_count_undos_as_taking_one_back(tmp_path, after, lost):
    """"Its last N steps are lost" tells the table how far to set back: an undo after the damaged line is no step
    lost but one taken back (counted as a step, two undos and a step said 4 where 2 stood)."""
    _rolled(tmp_path, 4)  # lines 3-6: rolls 1-4
    folder = tmp_path / "current"
    path = folder / "journal.jsonl"
    _appended(path, after)
    _damage(path, "flipped")  # line 6: roll 4
    saved = Journal(folder).load()
    assert saved is not None and saved.damaged and rebuild(FreePlay, saved.actions).rolls == [[1], [2], [3]]
    assert saved.lost == lost
    assert Journal(folder).load().lost == lost  # the mark says it again to the next load


@pytest.mark.parametrize("after, rolls", [
    ([_UNDO, _UNDO, "[6]"], [[1], [2], [6]]),  # the second undo took back roll 3, from before the damage
    ([_UNDO], [[1], [2], [3]]),  # the damaged step taken back: nothing lost
    ([_UNDO, "[5]", "[6]"], [[1], [2], [3], [5], [6]]),
    ([_UNDO, _UNDO, _UNDO, _UNDO, _UNDO, "[5]"], [[5]]),  # back to the setup, and never past it
])
def test_undos_after_a_damaged_step_that_took_it_back_are_honoured(tmp_path, after, rolls):
    """A cut back resumed before the damaged line even where undos after it had taken it back: the screen showed
    roll 3, which the table had undone, and lost roll 6, played after. The step the damaged line held stands
    nowhere once an undo took it back: what the lines after it leave is the game as the table left it (the line
    taken for a step, as nearly every line is, where nothing else tells). Nothing is lost; the table is asked to
    check, also when the menu loads it again first, until the next step is written."""
    _rolled(tmp_path, 4)  # lines 3-6: rolls 1-4; the snapshot counts 6 lines and tells nothing of those after
    folder = tmp_path / "current"
    path = folder / "journal.jsonl"
    _appended(path, after)
    _damage(path, "flipped")  # line 6: roll 4, its first bytes gone
    damaged = path.read_bytes()
    played = time.time() - 3600
    os.utime(path, (played, played))
    saved = Journal(folder).load()
    assert saved is not None and rebuild(FreePlay, saved.actions).rolls == rolls
    assert saved.doubt and not saved.damaged and not saved.finished and saved.unrepaired is None
    kept = list(folder.glob("journal.jsonl.corrupt-*"))
    assert len(kept) == 1 and kept[0].read_bytes() == damaged  # the file as the card gave it, for a bug report
    assert list(folder.glob("snapshot.json.corrupt-*")) and not (folder / "snapshot.json").exists()
    again = Journal(folder).load()  # the file written whole: the same game, still doubted, nothing more kept aside
    assert again.actions == saved.actions and again.doubt and not again.damaged
    assert again.undone == saved.undone and again.saved_at == pytest.approx(played)
    assert len(list(folder.glob("journal.jsonl.corrupt-*"))) == 1
    session = GameSession.resume(FreePlay, again, Journal(folder))
    assert session.apply({"action": "roll", "dice": [6]})
    after_step = Journal(folder).load()
    assert rebuild(FreePlay, after_step.actions).rolls == [*rolls, [6]] and not after_step.doubt
    if len(rolls) > 1:  # the undo after a restart takes back the step before, as at the table
        resumed = GameSession.resume(FreePlay, after_step, Journal(folder))
        assert resumed.undo() and resumed.undo() and resumed.engine.rolls == rolls[:-1]


def test_a_damaged_undo_line_whose_first_bytes_read_is_honoured_as_one(tmp_path):
    """An undo's line damaged behind its first bytes: the cut back showed roll 4, which it had taken back, and lost
    roll 5 after it ("its last 2 steps are lost"). The line's first bytes say it was an undo."""
    s = _rolled(tmp_path, 4)
    assert s.undo() and s.apply({"action": "roll", "dice": [5]})
    folder = tmp_path / "current"
    path = folder / "journal.jsonl"
    raw = path.read_bytes()
    start, end = _line_span(raw, 7)
    assert raw[start:end] == b'{"undo":true}'
    path.write_bytes(_flip(raw, start + 9, start + 11, b"\xff"))
    saved = Journal(folder).load()
    assert saved is not None and rebuild(FreePlay, saved.actions).rolls == [[1], [2], [3], [5]]
    assert saved.doubt and not saved.damaged and saved.undone == [{"action": "roll", "dice": [4]}]


@pytest.mark.parametrize("undos, rolls", [(1, [[1], [2], [3], [5]]), (2, [[1], [2], [5]])])
def test_the_snapshot_tells_a_damaged_line_that_was_an_undo(tmp_path, undos, rolls):
    """A damaged line whose first bytes are gone, then a roll: taken for a step, it would stand, and the game be
    cut back before it. The snapshot, written after the journal's last line, counts the steps standing: as many as
    the line being an undo leaves, so it was one, and the game is the table's."""
    s = _rolled(tmp_path, 4)
    for _ in range(undos):
        assert s.undo()
    assert s.apply({"action": "roll", "dice": [5]})
    folder = tmp_path / "current"
    path = folder / "journal.jsonl"
    raw = path.read_bytes()
    start, end = _line_span(raw, 6 + undos)  # the last undo
    path.write_bytes(_flip(raw, start, start + 4, b"\xff"))
    saved = Journal(folder).load()
    assert saved is not None and rebuild(FreePlay, saved.actions).rolls == rolls
    assert saved.doubt and not saved.damaged


def test_a_step_refused_after_a_damaged_line_honoured_on_a_write_protected_card_is_cut_back_before(tmp_path,
                                                                                                   monkeypatch):
    """The card refuses to write the game told past a damaged line whole, so the file still holds the damaged line;
    a step after it that the engine refuses is counted among the steps offered, not among the lines before the
    damage (there is no step 5 there: the whole game was set aside, "start a new game")."""
    from companion.session import StepRefused

    _rolled(tmp_path, 4)
    folder = tmp_path / "current"
    path = folder / "journal.jsonl"
    _appended(path, [_UNDO, "[5]", "[9]"])  # roll 4 (damaged below) taken back, roll 5, a roll the engine refuses
    _damage(path, "flipped")
    refusing = _card_refusing_renames(monkeypatch)
    saved = Journal(folder).load()
    assert saved is not None and saved.unrepaired is not None and len(saved.actions) == 6
    with pytest.raises(StepRefused) as refused:
        GameSession.resume(FreePlay, saved, Journal(folder))
    assert refused.value.step == 5
    cut = Journal(folder).cut_back_before(refused.value.step)
    assert rebuild(FreePlay, cut.actions).rolls == [[1], [2], [3], [5]] and cut.damaged and cut.lost == 1
    session = GameSession.resume(FreePlay, cut, Journal(folder))
    refusing["on"] = False
    assert session.apply({"action": "roll", "dice": [6]})
    assert rebuild(FreePlay, Journal(folder).load().actions).rolls == [[1], [2], [3], [5], [6]]


def test_first_bytes_and_snapshot_that_disagree_cut_back_before_the_damaged_line(tmp_path):
    """The first bytes say an undo, the snapshot counts the steps of a roll there (a line run together with the
    next, a snapshot of another game): nothing tells the game, so it goes back to what can be trusted."""
    s = _rolled(tmp_path, 4)
    assert s.apply({"action": "roll", "dice": [5]})
    folder = tmp_path / "current"
    path = folder / "journal.jsonl"
    raw = path.read_bytes()
    start, end = _line_span(raw, 7)  # roll 5, the last line
    path.write_bytes(raw[:start] + b'{"undo":\xff' + b" " * (end - start - 9) + raw[end:])
    saved = Journal(folder).load()
    assert saved is not None and saved.damaged and rebuild(FreePlay, saved.actions).rolls == [[1], [2], [3], [4]]


def test_a_refused_step_followed_by_an_undo_loses_the_steps_standing_after_it(tmp_path):
    """The same count where the engine refuses a line that reads: the refused roll, roll [3] taken back, roll [4]:
    two steps lost, not four lines."""
    from companion.session import StepRefused

    s = _session(tmp_path)
    assert s.apply({"action": "roll", "dice": [1]})
    folder = tmp_path / "current"
    with open(folder / "journal.jsonl", "a", encoding="utf-8") as f:
        f.write('{"action": {"action": "roll", "dice": [9]}}\n')
        f.write('{"action": {"action": "roll", "dice": [3]}}\n')
        f.write(_UNDO + "\n")
        f.write('{"action": {"action": "roll", "dice": [4]}}\n')
    saved = Journal(folder).load()
    with pytest.raises(StepRefused) as refused:
        GameSession.resume(FreePlay, saved, Journal(folder))
    cut = Journal(folder).cut_back_before(refused.value.step)
    assert rebuild(FreePlay, cut.actions).rolls == [[1]] and cut.lost == 2


def test_a_step_the_engine_refuses_goes_back_to_the_lines_before_it_also_past_an_undo(tmp_path):
    """A line that reads but that the engine refuses (another version's step, bytes flipped into other JSON) costs
    the steps from it on, as one that cannot be read. The step is counted among those standing (an undo before it
    took one back): the cut falls on its line, not on the line of the step counted so in the file."""
    from companion.session import StepRefused

    s = _session(tmp_path)
    for faces in ([1], [2]):
        assert s.apply({"action": "roll", "dice": faces})
    assert s.undo()  # roll [2] taken back: [1] is step 1, the refused line below step 2
    folder = tmp_path / "current"
    with open(folder / "journal.jsonl", "a", encoding="utf-8") as f:
        f.write('{"action": {"action": "roll", "dice": [9]}}\n')
        f.write('{"action": {"action": "roll", "dice": [3]}}\n')
    saved = Journal(folder).load()
    assert saved is not None and not saved.damaged  # every line reads: only the engine can tell
    with pytest.raises(StepRefused) as refused:
        GameSession.resume(FreePlay, saved, Journal(folder))
    assert refused.value.step == 2
    cut = Journal(folder).cut_back_before(refused.value.step)
    assert rebuild(FreePlay, cut.actions).rolls == [[1]] and cut.damaged and cut.doubt
    assert cut.lost == 2  # the refused roll and roll [3]: every line after it reads
    assert len(list(folder.glob("journal.jsonl.corrupt-*"))) == 1
    again = Journal(folder).load()  # the menu built again: the game cut back, still said to be damaged
    assert again.actions == cut.actions and again.damaged and again.lost == 2
    assert GameSession.resume(FreePlay, again, Journal(folder)).apply({"action": "roll", "dice": [4]})
    assert not Journal(folder).load().damaged


def test_a_setup_the_engine_refuses_leaves_no_step_to_go_back_before(tmp_path):
    from companion.games.haste_worte import HasteWorte

    journal = Journal(tmp_path / "current")
    journal.start("haste-worte", {"action": "setup", "players": ["Anna"]})  # Haste Worte is for two or more
    journal.record({"action": "roll", "dice": ["car"] * 6})
    saved = journal.load()
    with pytest.raises(JournalError) as refused:
        GameSession.resume(HasteWorte, saved, journal)
    assert getattr(refused.value, "step", 0) == 0
    with pytest.raises(JournalError):
        journal.cut_back_before(0)


@pytest.mark.parametrize("line", [1, 2])
def test_zeros_over_the_header_or_the_setup_leave_no_game_to_go_back_to(tmp_path, line):
    _rolled(tmp_path)
    path = tmp_path / "current" / "journal.jsonl"
    raw = path.read_bytes()
    path.write_bytes(_flip(raw, *_line_span(raw, line), b"\0"))
    with pytest.raises(JournalError, match=rf"damaged \(line {line}"):
        Journal(tmp_path / "current").load()
    assert not path.exists() and len(list((tmp_path / "current").glob("journal.jsonl.corrupt-*"))) == 1
    assert not (tmp_path / "current" / "journal.behind").exists()


def test_a_damaged_line_on_a_write_protected_card_is_offered_from_memory_and_not_called_finished(tmp_path,
                                                                                               monkeypatch):
    """The card refuses the journal cut back: the game before the damaged line is still offered, and written
    whole at its first step the card takes. Its snapshot stays where it was; one that said "finished" of the
    game cut back to its lines must not send the game to the history: its end may be among the lines gone."""
    _rolled(tmp_path)
    folder = tmp_path / "current"
    path = folder / "journal.jsonl"
    (folder / "snapshot.json").write_text(json.dumps({"finished": True, "count": 4, "lines": 5}))
    _damage(path, "flipped")
    damaged = path.read_bytes()
    refusing = _card_refusing_renames(monkeypatch)
    saved = Journal(folder).load()
    assert rebuild(FreePlay, saved.actions).rolls == [[1], [2], [3]]
    assert saved.damaged and saved.doubt and not saved.finished and saved.unrepaired is not None
    assert path.read_bytes() == damaged and not list(folder.glob("journal.jsonl.corrupt-*"))
    session = GameSession.resume(FreePlay, saved, Journal(folder))
    assert session.unsaved is saved.unrepaired
    refusing["on"] = False
    assert session.apply({"action": "roll", "dice": [6]}) and session.unsaved is None
    after = Journal(folder).load()
    assert rebuild(FreePlay, after.actions).rolls == [[1], [2], [3], [6]] and not after.damaged


@pytest.mark.parametrize("keep", [45, 70])
def test_a_journal_cut_inside_its_setup_after_steps_were_shown_is_damage(tmp_path, keep):
    """A card that lost the file's end (not a line torn by a power cut: every step after the setup is gone too):
    the game was on screen, its snapshot says so, yet it went to the history without a word."""
    s = _session(tmp_path)
    for n in range(1, 6):
        s.apply({"action": "roll", "dice": [n]})
    path = tmp_path / "current" / "journal.jsonl"
    raw = path.read_bytes()
    assert raw.index(b"\n") < keep < raw.index(b"\n", raw.index(b"\n") + 1)  # inside the setup's line
    path.write_bytes(raw[:keep])
    with pytest.raises(JournalError, match=r"damaged"):
        Journal(tmp_path / "current").load()


def test_torn_last_line_from_a_power_cut_is_dropped(tmp_path):
    s = _session(tmp_path)
    s.apply({"action": "roll", "dice": [3]})
    path = tmp_path / "current" / "journal.jsonl"
    with open(path, "a") as f:
        f.write('{"action":{"action":"roll","di')  # the write the power cut interrupted
    saved = Journal(tmp_path / "current").load()
    assert rebuild(FreePlay, saved.actions).rolls == [[3]]
    assert path.read_text().endswith("\n")
    assert list((tmp_path / "current").glob("journal.jsonl.corrupt-*"))  # the torn file is kept, not deleted


def test_new_game_archives_an_unfinished_one(tmp_path):
    s = _session(tmp_path)
    s.apply({"action": "roll", "dice": [2]})
    _session(tmp_path)
    history = list((tmp_path / "current" / "history").iterdir())
    assert len(history) == 1
    assert '"dice":[2]' in (history[0] / "journal.jsonl").read_text()


CHILD = textwrap.dedent("""
    import sys, time
    from pathlib import Path
    from companion.games.free_play import FreePlay
    from companion.journal import Journal
    from companion.session import GameSession
    s = GameSession.new(FreePlay, {"action": "setup"}, Journal(Path(sys.argv[1])))
    n = 0
    while True:
        n += 1
        s.apply({"action": "roll", "dice": [n % 6 + 1, (n * 5) % 6 + 1]})
        print(n, flush=True)
        time.sleep(0.005)
""")


def test_sigkill_mid_game_then_resume(tmp_path):
    folder = tmp_path / "current"
    child = subprocess.Popen([sys.executable, "-c", CHILD, str(folder)], stdout=subprocess.PIPE, text=True)
    seen = 0
    deadline = time.monotonic() + 20
    while seen < 25 and time.monotonic() < deadline:
        seen = int(child.stdout.readline())
    os.kill(child.pid, signal.SIGKILL)
    child.wait()
    assert seen >= 25
    saved = Journal(folder).load()
    engine = GameSession.resume(FreePlay, saved, Journal(folder)).engine
    # every roll the child reported as done is there, in order, exactly as it was made
    assert len(engine.rolls) >= seen
    for n, roll in enumerate(engine.rolls, start=1):
        assert roll == [n % 6 + 1, (n * 5) % 6 + 1]
    snap = json.loads((folder / "snapshot.json").read_text())
    assert snap["count"] in (len(engine.rolls), len(engine.rolls) + 1)


def test_a_saved_journal_replays_headless_for_a_bug_report(tmp_path):
    import io

    from companion.games.base import play_transcript

    s = _session(tmp_path)
    s.learn = lambda index, face: {"set": "fritzo", "face": face, "key": "k"}  # an answer's example journaled too
    for n in (1, 2, 3):
        s.latest_reading = TrayReading((DieReading(None, 0.3, (5, 6, 50, 51)),))
        s.confirm_face(0, "green")
        s.confirm_face(0, "red")
        s.apply({"action": "roll", "dice": [n]})
    s.undo()
    lines = (tmp_path / "current" / "journal.jsonl").read_text().splitlines()
    assert any('"learned"' in line for line in lines) and any('"unlearned"' in line for line in lines)
    engine = play_transcript(FreePlay, lines, io.StringIO(), as_json=True)
    assert engine.to_json() == s.engine.to_json() == {"rolls": [[1], [2]]}


def test_the_examples_answers_taught_are_journaled_with_their_step(tmp_path):
    """What the journal says stands after a restart: an example is taken back with its step's undo, or when its
    die was answered again; one taught for an earlier step stays."""
    s = _session(tmp_path)
    taken_back = []
    s.learn = lambda index, face: {"set": "fritzo", "face": face, "key": face[:2]}
    s.unlearn = taken_back.append
    s.latest_reading = TrayReading((DieReading(None, 0.3, (5, 6, 50, 51)),))
    s.confirm_face(0, "green")
    assert s.apply({"action": "roll", "dice": [1]})
    s.latest_reading = TrayReading((DieReading(None, 0.3, (5, 6, 50, 51)),))
    s.confirm_face(0, "red")
    s.confirm_face(0, "blue")
    assert taken_back == [{"set": "fritzo", "face": "red", "key": "re"}]
    assert s.apply({"action": "roll", "dice": [2]})
    journal = Journal(tmp_path / "current")
    assert [(n, e["face"]) for n, e in journal.load().learned] == [(1, "green"), (2, "blue")]
    again = GameSession.resume(FreePlay, journal.load(), journal)
    again.unlearn = taken_back.append
    assert again.undo() and taken_back[-1]["face"] == "blue"
    assert [(n, e["face"]) for n, e in journal.load().learned] == [(1, "green")]


def test_a_saved_game_lists_every_step_its_undos_took_back():
    """A restart must know that "time's up" was taken back also when a step before it was taken back after it:
    the journal's last undo alone named only that step."""
    from companion.journal import replay

    records = [{"action": {"action": "setup"}}, {"action": {"action": "roll", "dice": [1]}},
               {"action": {"action": "time_up", "at": 5.0}}, {"undo": True}, {"undo": True},
               {"action": {"action": "roll", "dice": [2]}}, {"undo": True}, {"undo": True}, {"undo": True}]
    assert replay(records)[2] == [{"action": "time_up", "at": 5.0}, {"action": "roll", "dice": [1]},
                                  {"action": "roll", "dice": [2]}]  # never the setup


def test_a_rewrite_after_a_failed_write_keeps_the_steps_taken_back_and_plays_as_a_transcript(tmp_path):
    """A game written whole again after the card failed kept no undo records: a "time's up" taken back meanwhile
    was stamped again at the next start. ``companion play --script`` still takes that journal: the steps taken
    back are no steps of the game."""
    from companion.games.base import parse_transcript

    journal = Journal(tmp_path / "current")
    journal.start("fritzo", {"action": "setup"})
    journal.rewrite("fritzo", [{"action": "setup"}, {"action": "start", "at": 1.0}], [],
                    [{"action": "time_up", "at": 61.0}])
    saved = journal.load()
    assert saved.actions == [{"action": "setup"}, {"action": "start", "at": 1.0}]
    assert saved.undone == [{"action": "time_up", "at": 61.0}]
    lines = journal.path.read_text(encoding="utf-8").splitlines()
    assert [a for _, a in parse_transcript(lines)] == saved.actions


def test_a_snapshot_a_cut_archive_left_behind_is_not_taken_for_the_next_games(tmp_path):
    """``archive`` moves the journal, then the snapshot: a cut between them left the old game's snapshot in
    ``current``. The next game's start cut after its header read as a damaged game ("start a new game"), and one cut
    later resumed with "check the table" (the old snapshot counted more lines)."""
    folder = tmp_path / "current"
    s = _session(tmp_path)
    for faces in ([1, 2], [3, 4], [5, 6]):
        assert s.apply({"action": "roll", "dice": faces})
    (folder / "journal.behind").touch()
    old_snapshot = (folder / "snapshot.json").read_bytes()
    target = Journal(folder).archive()
    (folder / "snapshot.json").write_bytes(old_snapshot)  # as the cut left it: moved the journal, not the rest
    (folder / "journal.behind").touch()
    (target / "snapshot.json").unlink()
    journal = Journal(folder)
    journal.start("free-play", {"action": "setup"})
    saved = Journal(folder).load()
    assert saved is not None and not saved.doubt and not saved.damaged and len(saved.actions) == 1


def test_games_put_away_in_the_same_second_are_numbered_not_suffixed_again(tmp_path, monkeypatch):
    """Six games put away in one second were named "…-1-2-3-4-5-6": each name now counts from the time."""
    monkeypatch.setattr(time, "strftime", lambda fmt, *a: "20261207-103212")
    names = []
    for _ in range(4):
        journal = Journal(tmp_path / "current")
        journal.start("free-play", {"action": "setup"})
        names.append(journal.archive().name)
    assert names == ["20261207-103212", "20261207-103212-1", "20261207-103212-2", "20261207-103212-3"]


def test_a_journal_copied_without_its_time_is_played_when_its_last_timed_step_says(tmp_path):
    """A copy without ``cp -a`` gave the journal the copy's time: a game finished last month was the evening's last
    result at the start ("ended within six hours"), its resume timed at the copy. A last step with its own "at" (a
    timer's, a Fritzo building's) says when the table played; a journal's time earlier than it stays."""
    journal = Journal(tmp_path)
    journal.start("free-play", {"action": "setup"})
    month_ago = time.time() - 30 * 24 * 3600
    journal.record({"action": "timer_start", "at": month_ago})
    assert journal.load().saved_at == month_ago
    os.utime(journal.path, (month_ago - 60, month_ago - 60))  # a clock set back since: the file's time
    assert journal.load().saved_at == month_ago - 60
    journal.record({"action": "roll"})  # a last step without its own time: the file's
    assert abs(journal.load().saved_at - time.time()) < 60
