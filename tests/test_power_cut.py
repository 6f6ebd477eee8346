"""What a power cut, or a card full or gone read-only after one, leaves behind must never cost the table what was
already saved, nor stop the companion's start: the game a half-written line ends is offered again even when the
file cannot be repaired, a damaged profile that cannot be moved aside is still said in words, and the temp files
of interrupted writes are swept."""

from __future__ import annotations

import errno
import json
import os
import time

import pytest

from companion import atomic, config, profiles
from companion.app import App
from companion.config import Config
from companion.display import Display
from companion.errors import ConfigError, ProfileDamaged
from companion.games.free_play import FreePlay
from companion.journal import Journal
from companion.session import GameSession, rebuild
from hardware.events import Button, ButtonEvent

ENOSPC = OSError(errno.ENOSPC, "No space left on device")
EROFS = OSError(errno.EROFS, "Read-only file system")


def _played(tmp_path, rolls=3) -> GameSession:
    s = GameSession.new(FreePlay, {"action": "setup"}, Journal(tmp_path / "current"))
    for n in range(rolls):
        assert s.apply({"action": "roll", "dice": [n + 1]})
    return s


def _cut(tmp_path) -> None:
    with open(tmp_path / "current" / "journal.jsonl", "a") as f:
        f.write('{"action":{"action":"roll","dice":[6,6')  # the write the card's last byte stopped


def _refusing(monkeypatch, error: OSError) -> dict:
    """The card refuses every atomic write while ``state["on"]``."""
    state = {"on": True}
    original = atomic.atomic_write_bytes

    def write(path, data):
        if state["on"]:
            raise error
        return original(path, data)

    monkeypatch.setattr(atomic, "atomic_write_bytes", write)
    return state


@pytest.mark.parametrize("error", [ENOSPC, EROFS])
def test_a_cut_line_on_a_card_that_refuses_the_repair_still_offers_the_game(tmp_path, monkeypatch, error):
    """The repair moved the journal aside first and then failed to write: the 90 rolls saved before were never
    offered again (the menu said the game "cannot be read")."""
    _played(tmp_path)
    _cut(tmp_path)
    refusal = _refusing(monkeypatch, error)
    saved = Journal(tmp_path / "current").load()
    assert saved is not None and rebuild(FreePlay, saved.actions).rolls == [[1], [2], [3]]
    assert saved.unrepaired is error and (tmp_path / "current" / "journal.jsonl").exists()
    # resumed, the game says it is not saved; the first step written once the card takes it writes it whole
    again = GameSession.resume(FreePlay, saved, Journal(tmp_path / "current"))
    assert again.unsaved is error
    refusal["on"] = False
    assert again.apply({"action": "roll", "dice": [4]}) and again.unsaved is None
    replayed = Journal(tmp_path / "current").load()
    assert rebuild(FreePlay, replayed.actions).rolls == [[1], [2], [3], [4]] and replayed.unrepaired is None


def test_a_cut_line_repaired_keeps_the_file_as_cut_beside_it(tmp_path):
    _played(tmp_path)
    _cut(tmp_path)
    saved = Journal(tmp_path / "current").load()
    assert rebuild(FreePlay, saved.actions).rolls == [[1], [2], [3]] and saved.unrepaired is None
    assert saved.doubt  # the roll being written when the power went: the table pressed it, and is asked to check
    kept = list((tmp_path / "current").glob("journal.jsonl.corrupt-*"))
    assert len(kept) == 1 and kept[0].read_text().endswith("[6,6")
    assert (tmp_path / "current" / "journal.jsonl").read_text().endswith("}\n")


def test_the_menu_offers_the_game_a_full_card_cut_short(tmp_path, monkeypatch):
    _played(tmp_path)
    _cut(tmp_path)
    _refusing(monkeypatch, ENOSPC)
    cfg = Config()
    cfg.language = "en"
    app = App(cfg, state_dir=tmp_path, display=Display((800, 480), fullscreen=False), use_camera=False)
    first = app.mode.menu.items[0].value
    assert first[0] == "resume" and app.notice is None
    app.on_button(ButtonEvent(Button.SELECT))
    assert app.session is not None and app.session.engine.rolls == [[1], [2], [3]]
    assert "memory card is full" in app._unsaved()


@pytest.mark.parametrize("content", ["", '{"game":"free-play","at":1}\n', '{"game":"free-play","at":1}\n{"act'])
def test_a_journal_cut_before_its_setup_held_no_game_and_is_not_called_damaged(tmp_path, content):
    """A cut between the header's line and the setup's (or at the file's first byte): no game was ever on screen,
    and the table was told of a damaged saved game at the next start."""
    folder = tmp_path / "current"
    folder.mkdir()
    (folder / "journal.jsonl").write_text(content)
    assert Journal(folder).load() is None
    assert not (folder / "journal.jsonl").exists() and len(list((folder / "history").glob("*/journal.jsonl"))) == 1
    assert Journal(folder).load() is None  # and the next start does not find it either


def test_a_damaged_profile_on_a_read_only_card_is_said_not_a_crash(monkeypatch):
    """Moving it aside raised the card's error, which stopped every start (and the Pi service restarted into it)."""
    path = profiles.profile_dir() / "fritzo.npz"
    path.parent.mkdir(parents=True)
    path.write_bytes(b"")
    monkeypatch.setattr(atomic.os, "replace", lambda *a: (_ for _ in ()).throw(EROFS))
    with pytest.raises(ProfileDamaged) as e:
        profiles.load_profile("fritzo")
    assert e.value.aside == "fritzo.npz" and path.exists()


def test_a_damaged_fritzo_cube_set_on_a_read_only_card_is_said(tmp_path, monkeypatch):
    from companion.games.fritzo import cubeset

    path = tmp_path / "fritzo-cubes.json"
    path.write_text("")
    monkeypatch.setattr(atomic.os, "replace", lambda *a: (_ for _ in ()).throw(EROFS))
    with pytest.raises(cubeset.CubeSetError):
        cubeset.load(path)
    assert path.exists()


def _app_with_camera(tmp_path) -> App:
    cfg = Config()
    cfg.language = "en"
    app = App(cfg, state_dir=tmp_path, display=Display((800, 480), fullscreen=False), use_camera=False)

    class Watcher:
        rolls = False  # a camera: the players throw

        def set_reader(self, reader):
            self.reader = reader

        def rearm(self):
            pass

        def cancel(self):
            pass

        def throw(self):
            pass

    app.watcher = Watcher()
    return app


def _damaged(name: str):
    path = profiles.profile_dir() / f"{name}.npz"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"not a zip at all")
    return path


def test_teaching_a_set_whose_profile_is_damaged_says_so_and_teaches_afresh(tmp_path):
    """From the menu's "Teach dice" the damage escaped and stopped the companion."""
    from companion.views.teach_view import TeachView

    app = _app_with_camera(tmp_path)
    _damaged("haste-worte")
    app.teach_menu()
    values = [i.value for i in app.mode.menu.items]
    for _ in range(values.index("haste-worte")):
        app.on_button(ButtonEvent(Button.NEXT))
    app.on_button(ButtonEvent(Button.SELECT))
    assert isinstance(app.mode, TeachView) and len(app.mode.profile) == 0
    assert app.notice and "haste-worte.npz.corrupt-" in app.notice


def test_the_camera_check_says_a_damaged_profile_it_passes_over(tmp_path):
    """It was kept aside without a word: the set just looked never taught from then on."""
    app = _app_with_camera(tmp_path)
    _damaged("echt-spitze")
    app.camera_check()
    assert app.notice and "echt-spitze.npz.corrupt-" in app.notice


def test_the_temp_files_power_cuts_left_are_swept_at_start(tmp_path):
    """An interrupted write of a profile leaves a temp file as big as the profile, and nothing looked for it."""
    folder = profiles.profile_dir()
    folder.mkdir(parents=True)
    old = folder / ".fritzo.npz.abc123.tmp"
    young = folder / ".echt-spitze.npz.def456.tmp"
    mine = folder / "fritzo.npz"
    for p in (old, young, mine):
        p.write_bytes(b"x")
    hour_ago = time.time() - 3600
    os.utime(old, (hour_ago, hour_ago))
    os.utime(mine, (hour_ago, hour_ago))
    App(Config(), state_dir=tmp_path, display=Display((800, 480), fullscreen=False), use_camera=False)
    assert not old.exists() and young.exists() and mine.exists()


@pytest.mark.parametrize("text", ["", "\n  \n"])
def test_an_empty_config_file_is_said_not_taken_for_the_standard_settings(text):
    """The players' names, the language and the sound went without a word: `tomllib` reads nothing as {}."""
    path = config.paths.config_file()
    path.parent.mkdir(parents=True)
    path.write_text(text)
    with pytest.raises(ConfigError, match="empty"):
        config.load()
    cfg, words = config.load_for_the_table(lang="en")
    assert cfg.players == Config().players and words and "config.toml.corrupt-" in words


def test_a_start_that_fails_building_the_app_says_so_in_words(monkeypatch, capsys):
    from companion import app as app_module
    from companion import runtime

    def broken(*a, **k):
        raise OSError(errno.EIO, "Input/output error")

    monkeypatch.setattr(app_module, "App", broken)
    assert runtime.run_app(Config(), source_spec="synthetic:1", max_frames=1) == 1
    assert "the companion stopped" in capsys.readouterr().err


def test_a_file_written_again_keeps_its_permissions(tmp_path):
    """Muting made a config others could read private (the temp file's 0600 took its place)."""
    path = tmp_path / "config.toml"
    path.write_text("a = 1\n")
    path.chmod(0o644)
    atomic.atomic_write_text(path, "a = 2\n")
    assert path.stat().st_mode & 0o777 == 0o644 and path.read_text() == "a = 2\n"


def _no_new_files(monkeypatch) -> dict:
    """A nearly full card: appends to the journal's last block still go in, a new file (the snapshot's) does not."""
    return _refusing(monkeypatch, ENOSPC)


def test_a_snapshot_the_full_card_refuses_leaves_the_game_saved_and_its_undos_appended(tmp_path, monkeypatch):
    """The snapshot's refusal was taken for the game unsaved: every later step, undos too, was written as a whole
    new file, which failed as well, and after a power cut a roll the table had undone was back."""
    s = _played(tmp_path, rolls=1)
    _no_new_files(monkeypatch)
    assert s.apply({"action": "roll", "dice": [2]}) and s.unsaved is None
    assert s.apply({"action": "roll", "dice": [3]})
    assert s.undo() and s.undo() and s.unsaved is None and s.engine.rolls == [[1]]
    saved = Journal(tmp_path / "current").load()  # the power cut, then the restart
    assert rebuild(FreePlay, saved.actions).rolls == [[1]] and not saved.doubt


def test_a_stale_snapshot_does_not_end_a_game_whose_end_was_undone_and_played_on(tmp_path, monkeypatch):
    """The snapshot said "finished" after the last step; the undo and a step after it were appended, their
    snapshots refused (and the old one not removed): the same count of steps must not send the game to the
    history."""
    s = _played(tmp_path, rolls=2)
    path = tmp_path / "current" / "snapshot.json"
    path.write_text(json.dumps({**json.loads(path.read_text()), "finished": True}))  # the game's end
    _no_new_files(monkeypatch)
    monkeypatch.setattr(Journal, "drop_snapshot", lambda self: None, raising=False)  # a card that keeps the stale one
    assert s.undo() and s.apply({"action": "roll", "dice": [5]})
    saved = Journal(tmp_path / "current").load()
    assert len(saved.actions) == 3 and json.loads(path.read_text())["count"] == 3
    assert not saved.finished and not saved.doubt


def _lose_last_line(tmp_path, zeros: bool) -> None:
    """The card lost the journal's last line after the snapshot was written: its blocks read as zeros, or gone."""
    path = tmp_path / "current" / "journal.jsonl"
    raw = path.read_bytes()
    last = raw.rstrip(b"\n").rsplit(b"\n", 1)[1]
    kept = raw[:len(raw) - len(last) - 1]
    path.write_bytes(kept + b"\0" * (len(last) + 1) if zeros else kept)


@pytest.mark.parametrize("zeros", [True, False], ids=["zeros", "gone"])
@pytest.mark.parametrize(("lang", "said"), [("en", "may not have been saved"), ("de", "vielleicht nicht gespeichert")])
def test_a_step_the_card_lost_after_its_snapshot_is_said_at_the_resume(tmp_path, zeros, lang, said):
    """The snapshot counted roll 3, the journal had lost it, and the table heard "Game resumed exactly where it
    stopped" a roll earlier."""
    _played(tmp_path)
    _lose_last_line(tmp_path, zeros)
    cfg = Config()
    cfg.language = lang
    app = App(cfg, state_dir=tmp_path, display=Display((800, 480), fullscreen=False), use_camera=False)
    assert app.mode.menu.items[0].value[0] == "resume"
    app.on_button(ButtonEvent(Button.SELECT))
    assert app.session.engine.rolls == [[1], [2]]
    assert said in app.notice and app.notice_tone == "bad"


def test_an_undo_the_card_lost_after_its_snapshot_is_doubted(tmp_path):
    """The undone roll came back without a word."""
    s = _played(tmp_path)
    assert s.undo()
    _lose_last_line(tmp_path, zeros=False)
    saved = Journal(tmp_path / "current").load()
    assert rebuild(FreePlay, saved.actions).rolls == [[1], [2], [3]] and saved.doubt


def test_a_game_whose_journal_and_snapshot_agree_resumes_without_doubt(tmp_path):
    s = _played(tmp_path)
    assert s.undo()
    saved = Journal(tmp_path / "current").load()
    assert not saved.doubt and not saved.finished


def test_an_older_versions_snapshot_without_a_count_of_lines_still_loads(tmp_path):
    """Saved games from before the snapshot counted lines: the count of steps alone tells a lost step."""
    _played(tmp_path)
    path = tmp_path / "current" / "snapshot.json"
    old = {k: v for k, v in json.loads(path.read_text()).items() if k != "lines"}
    path.write_text(json.dumps(old))
    assert not Journal(tmp_path / "current").load().doubt
    _lose_last_line(tmp_path, zeros=False)
    saved = Journal(tmp_path / "current").load()
    assert len(saved.actions) == 3 and saved.doubt


def test_a_repaired_cut_line_keeps_the_time_the_table_last_played(tmp_path):
    """The menu's "Resume (…)" showed the time of the restart that repaired the file."""
    _played(tmp_path)
    _cut(tmp_path)
    path = tmp_path / "current" / "journal.jsonl"
    played = time.time() - 3600
    os.utime(path, (played, played))
    assert Journal(tmp_path / "current").load().saved_at == pytest.approx(played)
    assert Journal(tmp_path / "current").load().saved_at == pytest.approx(played)  # and at the next start


def test_the_game_that_cannot_be_saved_is_said_beside_a_refusal_or_a_notice(tmp_path, monkeypatch):
    """On a write-protected card a refusal (or any notice) took the red strip's place: the table played on without
    knowing that a power cut would lose the game. A tap puts the refusal away, the warning stays."""
    from companion import app as app_module

    cfg = Config()
    cfg.language = "en"
    app = App(cfg, state_dir=tmp_path, display=Display((800, 480), fullscreen=False), use_camera=False)
    app.on_button(ButtonEvent(Button.SELECT))  # free play
    _refusing(monkeypatch, EROFS)
    monkeypatch.setattr(Journal, "_append", lambda self, record: (_ for _ in ()).throw(EROFS))
    app.on_button(ButtonEvent(Button.ROLL))
    assert app.session.unsaved is EROFS
    drawn: list[tuple[str, str]] = []
    draw_notice = app_module._draw_notice
    monkeypatch.setattr(app_module, "_draw_notice",
                        lambda surface, message, **kw: drawn.append((message, kw["tone"])) or draw_notice(
                            surface, message, **kw))
    warning = app._unsaved()
    app.session.error = "That die cannot be corrected."
    app.draw(app.display.canvas)
    assert drawn[-1] == (f"That die cannot be corrected. {warning}", "bad")
    app._tap_strip(app._strip[0].center)
    assert app.session.error is None
    app.show_notice("Undone", good=True)
    app.draw(app.display.canvas)
    assert drawn[-1] == (f"Undone {warning}", "bad")
    app._tap_strip(app._strip[0].center)
    app.draw(app.display.canvas)
    assert drawn[-1] == (warning, "bad")


def test_steps_the_full_card_refused_before_the_power_cut_are_said_at_the_resume(tmp_path, monkeypatch):
    """The game went on unsaved, the power went, and the resume said "exactly where it stopped" of a journal that
    missed the last rolls."""
    s = _played(tmp_path, rolls=1)
    refusal = _refusing(monkeypatch, ENOSPC)
    with monkeypatch.context() as full:
        full.setattr(Journal, "_append", lambda self, record: (_ for _ in ()).throw(ENOSPC))
        assert s.apply({"action": "roll", "dice": [2]}) and s.apply({"action": "roll", "dice": [3]})
        assert s.unsaved is ENOSPC
    # the power cut; at the restart the card takes writes again
    refusal["on"] = False
    cfg = Config()
    cfg.language = "de"
    app = App(cfg, state_dir=tmp_path, display=Display((800, 480), fullscreen=False), use_camera=False)
    app.on_button(ButtonEvent(Button.SELECT))
    assert app.session.engine.rolls == [[1]] and "vielleicht nicht gespeichert" in app.notice
    assert app.session.apply({"action": "roll", "dice": [4]})  # the table goes on from what it was told
    assert not Journal(tmp_path / "current").load().doubt


def _finished_haste_worte(tmp_path) -> GameSession:
    import sys

    sys.path.insert(0, os.path.dirname(__file__))
    from test_haste_worte import T0, round_actions

    from companion.games.haste_worte import HasteWorte

    s = GameSession.new(HasteWorte, {"action": "setup", "players": ["Anna", "Ben"], "seed": 42, "goal": 1},
                        Journal(tmp_path / "current"))
    for action in round_actions(s.engine, [1, 0], at=T0):
        assert s.apply(action), s.error
    assert s.engine.finished
    return s


@pytest.mark.parametrize("hours_ago", [0, 7])
def test_a_game_finished_just_before_the_power_went_shows_its_result_once_more(tmp_path, hours_ago):
    """A power cut at "Anna wins": the next start put the game in the history unseen and came up in free play, the
    result the table was looking at gone, and with it the UNDO of a mistyped last score. The evening's last game
    is shown once more; last week's goes to the history as before."""
    from companion.games_ui import register_all

    register_all()  # the games' screens, as ``companion run`` has them
    _finished_haste_worte(tmp_path)
    journal = tmp_path / "current" / "journal.jsonl"
    then = time.time() - hours_ago * 3600
    os.utime(journal, (then, then))
    cfg = Config()
    cfg.language = "en"
    app = App(cfg, state_dir=tmp_path, display=Display((800, 480), fullscreen=False), use_camera=False,
              start_free_play=True)
    history = tmp_path / "current" / "history"
    if hours_ago:
        assert app.session is not None and app.session.engine.name == "free-play"
        assert len(list(history.glob("*/journal.jsonl"))) == 1
        return
    assert app.session is not None and app.session.engine.finished and app.notice == "That game had ended: here " \
        "is its result."
    assert app.session.can_undo  # the last score can still be taken back
    app.on_button(ButtonEvent(Button.SELECT))  # play again: its setup starts on this game's two players
    menu = app.mode.mode.menu
    assert menu.items[menu.index].value == ("Anna", "Ben")
    app.main_menu()  # left for the menu: now it goes to the history, its words with it
    assert app.clock() >= app.notice_until
    assert not journal.exists() and len(list(history.glob("*/journal.jsonl"))) == 1


def test_a_line_cut_short_is_doubted_until_the_next_step_is_written(tmp_path):
    """The repair made the file whole at the first load: the menu built again (a language switched, the players
    screen visited) said "exactly where it stopped" of the game whose last step the cut had taken."""
    _played(tmp_path)
    _cut(tmp_path)
    folder = tmp_path / "current"
    assert Journal(folder).load().doubt
    saved = Journal(folder).load()
    assert saved.doubt  # and again at the next load of the menu
    session = GameSession.resume(FreePlay, saved, Journal(folder))
    assert session.apply({"action": "roll", "dice": [4]})
    assert not Journal(folder).load().doubt  # a step written: the journal holds the game as played again


def test_the_mark_of_missing_steps_goes_with_its_game_into_the_history(tmp_path):
    folder = tmp_path / "current"
    _played(tmp_path)
    _cut(tmp_path)
    assert Journal(folder).load().doubt and (folder / "journal.behind").exists()
    Journal(folder).archive()
    assert not (folder / "journal.behind").exists()
    assert len(list((folder / "history").glob("*/journal.behind"))) == 1


def _damage_line(tmp_path, number: int) -> None:
    """Line ``number`` of the journal (1: the header, 2: the setup) read back with bytes a bad sector flipped."""
    path = tmp_path / "current" / "journal.jsonl"
    lines = path.read_bytes().split(b"\n")
    lines[number - 1] = b"\xff" * 4 + lines[number - 1][4:]
    path.write_bytes(b"\n".join(lines))


@pytest.mark.parametrize(("lang", "said"), [
    ("en", "The saved game was damaged: its last 2 steps are lost, and it resumes as it stood before them."),
    ("de", "Das gespeicherte Spiel war beschädigt: Die letzten 2 Schritte sind verloren, es geht so weiter, wie es "
           "davor stand.")])
def test_a_game_damaged_in_the_middle_resumes_at_the_step_before_and_says_how_many_it_lost(tmp_path, lang, said):
    """The menu said "The saved game was damaged and has been put aside: start a new game" of a game one bad line
    in its middle had cost two rolls. It is offered at the step before that line; the resume says how many steps
    were lost ("after step 2" named a number shown nowhere else), and asks the table to check, also when the menu
    was built again before Resume (the file whole by then)."""
    _played(tmp_path, rolls=4)
    _damage_line(tmp_path, 5)  # roll 3
    cfg = Config()
    cfg.language = lang
    app = App(cfg, state_dir=tmp_path, display=Display((800, 480), fullscreen=False), use_camera=False)
    assert app.mode.menu.items[0].value[0] == "resume" and app.notice is None
    app.main_menu()  # a language switched, the players screen visited: loaded again before Resume
    app.on_button(ButtonEvent(Button.SELECT))
    assert app.session.engine.rolls == [[1], [2]]
    assert said in app.notice and app.notice_tone == "bad"
    assert list((tmp_path / "current").glob("journal.jsonl.corrupt-*"))
    app.on_button(ButtonEvent(Button.ROLL))  # the table goes on from what it was told
    assert len(app.session.engine.rolls) == 3
    assert not Journal(tmp_path / "current").load().doubt


@pytest.mark.parametrize(("lang", "damage", "said"), [
    ("en", b"\xff", "its last step is lost, and it resumes as it stood before it."),
    ("de", b"\xff", "Der letzte Schritt ist verloren, es geht so weiter, wie es davor stand."),
    ("en", b"\0", "its last steps are lost, and it resumes as it stood before them."),
    ("de", b"\0", "Die letzten Schritte sind verloren, es geht so weiter, wie es davor stand.")])
def test_a_damaged_last_step_is_said_as_one_and_zeros_as_steps_not_counted(tmp_path, lang, damage, said):
    """One roll lost is said as one; zeros (blocks never written) may have held several lines, so no count is said
    of them rather than a wrong one."""
    _played(tmp_path, rolls=4)
    path = tmp_path / "current" / "journal.jsonl"
    lines = path.read_bytes().split(b"\n")
    lines[5] = damage * len(lines[5])  # roll 4, the last line
    path.write_bytes(b"\n".join(lines))
    cfg = Config()
    cfg.language = lang
    app = App(cfg, state_dir=tmp_path, display=Display((800, 480), fullscreen=False), use_camera=False)
    app.on_button(ButtonEvent(Button.SELECT))
    assert app.session.engine.rolls == [[1], [2], [3]]
    assert said in app.notice and app.notice_tone == "bad"


@pytest.mark.parametrize("loads", [1, 2])
@pytest.mark.parametrize(("lang", "said"), [
    ("en", "Part of the saved game was damaged, but the steps saved after it show where you stood"),
    ("de", "Ein Teil des gespeicherten Spiels war beschädigt, die Schritte danach zeigen aber, wo ihr standet")])
def test_undos_after_a_damaged_step_are_honoured_at_the_resume(tmp_path, lang, said, loads):
    """A damaged roll, two undos (the second took back a roll before it) and one roll more: the table has rolls 1, 2
    and 5 standing. The game was cut back to rolls 1-3 (roll 3 taken back at the table, roll 5 lost) with "its last
    steps are lost". The undos took the damaged roll back: the game resumes as the table left it, and the table is
    asked to check (the snapshot, written after the last line, confirms the count), told why: "the last steps
    before the interruption may not have been saved" was said of a game the companion had found whole. So also
    where the journal, written whole at the first load, is loaded again before Resume (switched off at the menu)."""
    s = _played(tmp_path, rolls=4)
    assert s.undo() and s.undo() and s.apply({"action": "roll", "dice": [5]})
    _damage_line(tmp_path, 6)  # roll 4
    cfg = Config()
    cfg.language = lang
    for _ in range(loads - 1):
        App(cfg, state_dir=tmp_path, display=Display((800, 480), fullscreen=False), use_camera=False).close()
    app = App(cfg, state_dir=tmp_path, display=Display((800, 480), fullscreen=False), use_camera=False)
    app.on_button(ButtonEvent(Button.SELECT))
    assert app.session.engine.rolls == [[1], [2], [5]]
    assert said in app.notice and app.notice_tone == "bad"
    assert app.session.undo() and app.session.engine.rolls == [[1], [2]]


def test_a_game_damaged_right_after_its_setup_says_it_resumes_at_the_start(tmp_path):
    _played(tmp_path, rolls=2)
    _damage_line(tmp_path, 3)  # roll 1
    cfg = Config()
    cfg.language = "en"
    app = App(cfg, state_dir=tmp_path, display=Display((800, 480), fullscreen=False), use_camera=False)
    app.on_button(ButtonEvent(Button.SELECT))
    assert app.session.engine.rolls == []
    assert "damaged right after its setup; it resumes at the start" in app.notice and app.notice_tone == "bad"
