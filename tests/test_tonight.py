"""This evening's wins on the main and pause menus: a club playing ten rounds saw each end screen once, and once the
next game had started no screen showed who won the earlier ones. Derived from the games archived on the card, so a
restart (a power cut) keeps it.

One picture per size and language goes into out/ (``tonight_<lang>_<width>.png``, main menu and pause menu side by
side, six long names): look at them.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pygame
import pytest
from drawn_texts import recording_texts
from test_every_end import ENDS, LONG, Table, echt_one, haste, nxm_won, played

from companion import boot, tonight
from companion import journal as journal_module
from companion.app import GAME_ENTRIES, App
from companion.config import Config
from companion.display import Display
from companion.games import engine_class
from companion.i18n import t
from companion.journal import ENDED, Journal
from companion.session import GameSession
from companion.views import theme
from hardware.events import Button, ButtonEvent

HOUR = 3600.0


@pytest.fixture(autouse=True)
def no_fsync(monkeypatch):
    """Each step is fsynced at the table; here that is only time."""
    monkeypatch.setattr(os, "fsync", lambda fd: None)


def app_at(state: Path, lang: str = "de", size: tuple[int, int] = (800, 480), now: float | None = None) -> App:
    cfg = Config()
    cfg.language = lang
    clock = (lambda: now) if now is not None else time.time
    return App(cfg, state_dir=state, display=Display(size, fullscreen=False), use_camera=False, wall_clock=clock)


def play_to_the_end(app: App, game: str, table: Table) -> None:
    """The table's game played in the app, step by step, to its end screen."""
    session = GameSession.new(engine_class(game), table.setup, app.journal, **app._session_kw())
    app._enter(GAME_ENTRIES[game], session)
    for action in table.actions:
        assert session.apply(action), session.error
    app.frame(0.03, [])
    assert app._game_over()


def to_the_menu(app: App) -> None:
    """From the end screen to the main menu, as the table goes: UNDO opens the pause menu, its "main menu" line."""
    app.on_button(ButtonEvent(Button.UNDO))
    app.mode.menu.index = [i.value for i in app.mode.menu.items].index("menu")
    app.on_button(ButtonEvent(Button.SELECT))
    assert app.mode is app._main_menu_mode


def words(app: App, monkeypatch) -> str:
    with recording_texts(monkeypatch) as drawn:
        app.frame(0.03, [])
    return " ".join(s for s, _, _ in drawn)


def wins_line(lang: str, games: int, wins: str) -> str:
    return t("core.tonight_wins", lang, games=games, wins=wins)


@pytest.mark.parametrize("lang", ["de", "en"])
def test_two_games_played_through_the_app_are_on_the_menu_after_a_restart(tmp_path, monkeypatch, lang):
    app = app_at(tmp_path, lang)
    prefix = t("core.tonight_wins", lang, games=1, wins="").split("(")[0]
    assert prefix not in words(app, monkeypatch)  # no game finished this evening: nothing said
    play_to_the_end(app, "echt-spitze", echt_one())  # Anna wins
    to_the_menu(app)
    assert wins_line(lang, 1, "Anna 1") in words(app, monkeypatch)
    play_to_the_end(app, "noch-x-mal", nxm_won(2)())  # Ben wins
    # mid-evening, in the pause menu over the next game's end screen (not in the history yet): both games
    app.on_button(ButtonEvent(Button.UNDO))
    assert app.mode is app._pause_mode
    assert wins_line(lang, 2, "Anna 1, Ben 1") in words(app, monkeypatch)
    app.close()
    # the power goes at the end screen; switched on again, the end comes first, then the menu counts both
    again = app_at(tmp_path, lang)
    assert again._game_over()
    to_the_menu(again)
    assert wins_line(lang, 2, "Anna 1, Ben 1") in words(again, monkeypatch)
    again.close()
    third = app_at(tmp_path, lang)  # and at every start after it
    assert wins_line(lang, 2, "Anna 1, Ben 1") in words(third, monkeypatch)
    third.close()


def test_the_pause_menu_of_the_next_game_shows_the_earlier_ones(tmp_path, monkeypatch):
    app = app_at(tmp_path)
    play_to_the_end(app, "echt-spitze", echt_one())
    app.on_button(ButtonEvent(Button.SELECT))  # play again from the end screen: the setup, the game begins
    for _ in range(10):
        if app._in_game():
            break
        app.on_button(ButtonEvent(Button.SELECT))
    assert app._in_game() and not app._game_over()
    app.on_button(ButtonEvent(Button.UNDO))
    assert app.mode is app._pause_mode
    assert wins_line("de", 1, "Anna 1") in words(app, monkeypatch)
    # the pause menu's six lines stay on the screen with it ("Quieter" below the fold was a complaint)
    assert len(app.mode.menu.visible_range()) == len(app.mode.menu.items)
    app.close()


def archived(history: Path, game: str, table: Table, finished_at: float, *, snapshot: bool = True) -> Path:
    """A game played to its end and put in the history as the companion does, its journal's time ``finished_at``."""
    journal = Journal(history.parent)
    session = GameSession.new(engine_class(game), table.setup, journal)
    for action in table.actions:
        assert session.apply(action), session.error
    folder = journal.archive()
    assert folder is not None and folder.parent == history
    if not snapshot:  # the power went before the snapshot of its last step was written
        (folder / "snapshot.json").unlink()
    os.utime(folder / "journal.jsonl", (finished_at, finished_at))
    if (folder / ENDED).exists():  # the wall time the journal had as it was put away (``Journal._stamp_ended``)
        ended = json.loads((folder / ENDED).read_text(encoding="utf-8"))
        (folder / ENDED).write_text(json.dumps({**ended, "wall": finished_at}), encoding="utf-8")
    return folder


def test_an_evening_ends_at_a_long_break_and_the_next_day_says_nothing(tmp_path):
    history = tmp_path / "current" / "history"
    now = 1_800_000_000.0
    archived(history, "echt-spitze", echt_one(), now - 9 * HOUR)  # last night's... afternoon: before the break
    archived(history, "noch-x-mal", nxm_won(2)(), now - 3.5 * HOUR)  # dinner after it, less than BREAK
    archived(history, "noch-x-mal", nxm_won(3)(), now - 1 * HOUR)
    found = tonight.tally(history, now)
    assert found == tonight.Tally(2, (("Ben", 1), ("Carla", 1)))
    assert tonight.tally(history, now + 4.5 * HOUR) == tonight.Tally(0, ())  # the next day: a new evening
    assert tonight.line(tonight.tally(history, now + 4.5 * HOUR), "de") is None
    assert tonight.tally(tmp_path / "none", now) == tonight.Tally(0, ())  # no history at all


def test_a_tie_counts_for_each_a_solo_game_not_at_all_and_the_most_wins_come_first(tmp_path):
    history = tmp_path / "current" / "history"
    now = 1_800_000_000.0
    archived(history, "haste-worte", haste(0, {"Anna": 3, "Ben": 3, "Carla": 2})(), now - 50)  # Anna and Ben
    archived(history, "noch-x-mal", nxm_won(3)(), now - 40)  # Carla
    archived(history, "noch-x-mal", played("nxm_solo_26"), now - 30)  # Sol alone: no win over anybody
    archived(history, "noch-x-mal", nxm_won(2)(), now - 20)  # Ben
    assert tonight.tally(history, now) == tonight.Tally(3, (("Ben", 2), ("Anna", 1), ("Carla", 1)))
    assert tonight.line(tonight.tally(history, now), "en")[0] == "Wins tonight (3 games): Ben 2, Anna 1, Carla 1"


def test_a_game_whose_last_snapshot_the_power_cut_is_counted_by_its_journal(tmp_path):
    history = tmp_path / "current" / "history"
    now = 1_800_000_000.0
    folder = archived(history, "echt-spitze", echt_one(), now - 60, snapshot=False)
    assert not (folder / "snapshot.json").exists()
    assert tonight.tally(history, now) == tonight.Tally(1, (("Anna", 1),))
    # a snapshot of a step before the end (the last one never written) is no end either: the journal decides
    other = archived(history, "noch-x-mal", nxm_won(2)(), now - 30)
    state = json.loads((other / "snapshot.json").read_text())
    (other / "snapshot.json").write_text(json.dumps({**state, "finished": False, "count": state["count"] - 1}))
    tonight._KNOWN.clear()
    assert tonight.tally(history, now) == tonight.Tally(2, (("Anna", 1), ("Ben", 1)))


def test_an_unfinished_game_put_away_and_free_play_do_not_count(tmp_path):
    history = tmp_path / "current" / "history"
    now = 1_800_000_000.0
    g = echt_one()
    g.actions = g.actions[:5]  # put away before its end
    archived(history, "echt-spitze", g, now - 60)
    archived(history, "free-play", Table("free-play", {}), now - 30)
    archived(history, "noch-x-mal", nxm_won(2)(), now - 20)
    assert tonight.tally(history, now) == tonight.Tally(1, (("Ben", 1),))


def test_a_history_folder_that_cannot_be_read_is_passed_over(tmp_path):
    history = tmp_path / "current" / "history"
    now = 1_800_000_000.0
    archived(history, "noch-x-mal", nxm_won(2)(), now - 20)
    for name, text in (("a", "not json\n"), ("b", '{"game": "chess"}\n{"action": {}}\n'),
                       ("c", '{"game": "echt-spitze"}\n{"action": {"action": "setup"}}\n')):
        (history / name).mkdir()
        (history / name / "journal.jsonl").write_text(text)
        os.utime(history / name / "journal.jsonl", (now - 10, now - 10))
    assert tonight.tally(history, now) == tonight.Tally(1, (("Ben", 1),))


@pytest.mark.parametrize("end", [e for e in ENDS if not e.id.startswith("fritzo_strategy")], ids=lambda e: e.id)
def test_the_winners_counted_are_those_the_end_screen_names(end):
    """Each game's own end state: every name counted stands in what its end screen says, and a game of two or more
    that the end screen gives a winner gives one here."""
    engine = played(end.id).engine
    said = " ".join(end.says("en", engine))
    found = tonight.of_engine(end.game, engine)
    players = tonight._players(engine)
    assert found.finished and found.counts == (len(players) >= 2)
    if len(players) < 2:
        assert found.winners == ()
        return
    for name in found.winners:
        assert name in said or theme.short_name(name) in said, (end.id, name, said)
    named = [p for p in players if p in said or theme.short_name(p) in said]
    wins = any(w in said.lower() for w in ("win", "won", "victory"))
    assert bool(found.winners) == (bool(named) and wins), (end.id, found.winners, said)


def six_long_names_evening(history: Path, now: float) -> None:
    archived(history, "haste-worte", haste(0, {name: 3 for name in LONG})(), now - 300)  # all six tie
    archived(history, "noch-x-mal", played("nxm_long_names_shared"), now - 200)  # the two longest
    archived(history, "echt-spitze", played("echt_long_names_shared"), now - 100)


@pytest.mark.parametrize("size", [(800, 480), (1280, 720)])
@pytest.mark.parametrize("lang", ["de", "en"])
def test_six_long_names_stay_whole_readable_and_clear_of_the_rows(tmp_path, monkeypatch, out_dir, lang, size):
    now = time.time()
    six_long_names_evening(tmp_path / "current" / "history", now)
    app = app_at(tmp_path, lang, size, now=now)
    shots = []
    for screen in ("main", "pause"):
        if screen == "pause":
            app.new_game(GAME_ENTRIES["free-play"], {})
            app.on_button(ButtonEvent(Button.UNDO))
            assert app.mode is app._pause_mode
        with recording_texts(monkeypatch) as drawn:
            app.frame(0.03, [])
        shots.append(app.display.window.copy())
        note = [(s, size_, r) for s, size_, r in drawn if any(name in s or theme.short_name(name) in s
                                                             for name in LONG)]
        assert note, drawn
        text = " ".join(s for s, _, _ in note)
        for name in LONG:  # every winner named, whole or shortened as people shorten names
            assert name in text or theme.short_name(name) in text, (name, text)
        assert all(s >= theme.SMALL for _, s, _ in note), note  # at least the menus' SMALL; BODY where it fits
        rows = app.mode.menu.item_rects()
        for _, _, r in note:
            assert r.right <= 740 and not any(r.colliderect(row) for row in rows.values()), (r, rows)
    sheet = pygame.Surface((2 * shots[0].get_width(), shots[0].get_height()))
    for n, shot in enumerate(shots):
        sheet.blit(shot, (n * shot.get_width(), 0))
    pygame.image.save(sheet, str(out_dir / f"tonight_{lang}_{size[0]}.png"))
    app.close()


@pytest.mark.parametrize("lang", ["de", "en"])
def test_three_names_fit_one_line_at_body(tmp_path, monkeypatch, out_dir, lang):
    now = time.time()
    history = tmp_path / "current" / "history"
    archived(history, "haste-worte", haste(0, {"Anna": 3, "Ben": 3, "Carla": 2})(), now - 50)
    archived(history, "noch-x-mal", nxm_won(3)(), now - 40)
    app = app_at(tmp_path, lang, now=now)
    with recording_texts(monkeypatch) as drawn:
        app.frame(0.03, [])
    pygame.image.save(app.display.window, str(out_dir / f"tonight_three_{lang}_800.png"))
    line = wins_line(lang, 2, "Anna 1, Ben 1, Carla 1")
    assert [size for s, size, _ in drawn if s == line] == [theme.BODY], "|".join(s for s, _, _ in drawn)
    # the five rows the main menu showed without it stay on the screen
    assert len(app.mode.menu.visible_range()) == 5
    app.close()


def test_a_long_history_is_not_read_and_a_menu_built_again_reads_no_journal_twice(tmp_path, monkeypatch):
    history = tmp_path / "current" / "history"
    now = time.time()  # (the folders are named by the clock, as the companion names them)
    for day in range(60):  # two months of evenings before this one
        folder = history / time.strftime("%Y%m%d-%H%M%S", time.localtime(now - (60 - day) * 24 * HOUR))
        folder.mkdir(parents=True)
        (folder / "journal.jsonl").write_text("{}\n")
        os.utime(folder / "journal.jsonl", (now - (60 - day) * 24 * HOUR,) * 2)
    archived(history, "noch-x-mal", nxm_won(2)(), now - 20)
    read: list[Path] = []
    real = tonight.result
    monkeypatch.setattr(tonight, "result", lambda folder: read.append(folder) or real(folder))
    tonight._KNOWN.clear()
    assert tonight.tally(history, now) == tonight.Tally(1, (("Ben", 1),))
    assert len(read) == 1  # tonight's game; the night before stopped the walk unread
    assert tonight.tally(history, now) == tonight.Tally(1, (("Ben", 1),)) and len(read) == 1


class _WallTime:
    """The ``time`` module as the journal sees it on ``pi``: the folders it names, by the Pi's wall clock."""

    def __init__(self, pi: Pi) -> None:
        self.pi = pi

    def __getattr__(self, name: str):
        return getattr(time, name)

    def strftime(self, fmt: str, when: time.struct_time | None = None) -> str:
        return time.strftime(fmt, time.localtime(self.pi.wall) if when is None else when)


class Pi:
    """A Pi's clocks: the wall clock (set by the network at any moment) and the time since its boot (never set)."""

    def __init__(self, monkeypatch, boot_id: str, wall: float) -> None:
        self.boot, self.wall, self.up = boot_id, wall, 30.0
        monkeypatch.setattr(boot, "boot_id", lambda: self.boot)
        monkeypatch.setattr(boot, "uptime", lambda: self.up)
        monkeypatch.setattr(journal_module, "time", _WallTime(self))  # its history's folders named by its clock

    def play(self, history: Path, game: str, table: Table, hours: float) -> Path:
        """``hours`` pass, and a game ends and is put away (its journal's time the wall clock's then)."""
        self.wall += hours * HOUR
        self.up += hours * HOUR
        return archived(history, game, table, self.wall)

    def reboot(self, boot_id: str, wall: float) -> None:
        self.boot, self.wall, self.up = boot_id, wall, 30.0


def test_network_time_arriving_mid_evening_keeps_the_games_before_it(tmp_path, monkeypatch):
    """A Pi without a clock battery starts on last night's saved time and jumps ~20 h when Wi-Fi brings the network's
    time: the three games before the jump were dropped as "older than the break", and the menu said "2 games"."""
    history = tmp_path / "current" / "history"
    real_now = 1_800_000_000.0
    pi = Pi(monkeypatch, "boot-a", real_now - 20 * HOUR)  # fake-hwclock: the time it was switched off last night
    pi.play(history, "noch-x-mal", nxm_won(2)(), 0.5)  # Ben
    pi.play(history, "noch-x-mal", nxm_won(3)(), 0.5)  # Carla
    pi.play(history, "noch-x-mal", nxm_won(2)(), 0.5)  # Ben
    pi.wall = real_now - 0.6 * HOUR  # the network's time: ~20 h forward
    pi.play(history, "echt-spitze", echt_one(), 0.2)  # Anna
    pi.play(history, "noch-x-mal", nxm_won(3)(), 0.3)  # Carla
    assert tonight.tally(history, pi.wall) == tonight.Tally(5, (("Ben", 2), ("Carla", 2), ("Anna", 1)))
    pi.up += 4.5 * HOUR  # the next afternoon, the Pi left on: by its own clock, a new evening
    assert tonight.tally(history, pi.wall + 4.5 * HOUR) == tonight.Tally(0, ())


def test_games_of_another_boot_compare_wall_times(tmp_path, monkeypatch):
    """Last night's games were of another boot, whose time since its start says nothing about tonight's."""
    history = tmp_path / "current" / "history"
    now = 1_800_000_000.0
    pi = Pi(monkeypatch, "last-night", now - 24 * HOUR)
    pi.play(history, "noch-x-mal", nxm_won(2)(), 3.0)  # Ben, three hours after last night's boot
    pi.reboot("tonight", now - HOUR)  # less time since this boot than since last night's: uptimes alone would chain
    pi.play(history, "noch-x-mal", nxm_won(3)(), 0.5)  # Carla
    assert tonight.tally(history, pi.wall) == tonight.Tally(1, (("Carla", 1),))
    # a game put away before the stamps were kept (no ``ended.json``) compares by the wall clock, as before
    (older := pi.play(history, "noch-x-mal", nxm_won(2)(), 0.5) / "ended.json").unlink()
    assert not older.exists()
    assert tonight.tally(history, pi.wall) == tonight.Tally(2, (("Carla", 1), ("Ben", 1)))


def test_a_power_cut_restarts_the_clock_behind_the_last_games_and_they_still_count(tmp_path, monkeypatch):
    """A power cut mid-evening: the Pi starts again on the time fake-hwclock saved last (each hour), so the last
    games before the cut stand up to an hour later than the clock. They were played this evening: counted, and the
    break is measured from them (a game four hours before them is last night's, though three before the clock)."""
    history = tmp_path / "current" / "history"
    now = 1_800_000_000.0
    pi = Pi(monkeypatch, "before-the-cut", now - 8 * HOUR)
    pi.play(history, "noch-x-mal", nxm_won(3)(), 0.5)  # Carla, 4.2 hours before Ben's game below
    pi.play(history, "noch-x-mal", nxm_won(2)(), 4.2)  # Ben
    pi.play(history, "noch-x-mal", nxm_won(3)(), 0.8)  # Carla
    cut = pi.wall
    pi.reboot("after-the-cut", cut - 0.9 * HOUR)  # the hourly save, 54 minutes before the last game
    pi.play(history, "echt-spitze", echt_one(), 0.3)  # Anna, the clock still 36 minutes behind Carla's game
    assert pi.wall < cut
    # in the order they were won: Anna's folder, put away on a clock behind Carla's, is named after it (``journal``)
    assert tonight.tally(history, pi.wall) == tonight.Tally(3, (("Ben", 1), ("Carla", 1), ("Anna", 1)))


def test_a_game_of_another_boot_far_later_than_now_is_not_tonights(tmp_path, monkeypatch):
    """A game put away on a clock set three days ahead stood "in the future" and counted every evening after; the
    games before and after it are told as before."""
    history = tmp_path / "current" / "history"
    now = 1_800_000_000.0
    pi = Pi(monkeypatch, "earlier", now - 3 * HOUR)
    pi.play(history, "noch-x-mal", nxm_won(2)(), 0.5)  # Ben, this evening on a right clock
    pi.reboot("set-wrong", now + 3 * 24 * HOUR)
    pi.play(history, "noch-x-mal", nxm_won(3)(), 0.5)  # Carla, on a clock three days ahead
    pi.reboot("tonight", now - HOUR)
    pi.play(history, "echt-spitze", echt_one(), 0.5)  # Anna
    assert tonight.tally(history, pi.wall) == tonight.Tally(2, (("Ben", 1), ("Anna", 1)))


def test_a_clock_far_behind_now_does_not_count_the_whole_history_as_tonight(tmp_path, monkeypatch):
    """No clock battery and no saved time: the Pi starts in 1970 until the network's time comes, and every game on
    the card stood ahead of it: all of them were counted as this evening's. Tonight's games, of this boot, are."""
    history = tmp_path / "current" / "history"
    now = 1_800_000_000.0
    pi = Pi(monkeypatch, "last-night", now - 24 * HOUR)
    pi.play(history, "noch-x-mal", nxm_won(2)(), 0.5)  # Ben
    pi.play(history, "noch-x-mal", nxm_won(2)(), 0.5)  # Ben
    pi.reboot("tonight", 30.0)
    pi.play(history, "noch-x-mal", nxm_won(3)(), 0.5)  # Carla
    assert tonight.tally(history, pi.wall) == tonight.Tally(1, (("Carla", 1),))


def test_a_boot_without_an_id_leaves_the_wall_clock(tmp_path):
    assert boot._read_boot_id.__wrapped__(tmp_path / "no-proc" / "boot_id") is None  # not Linux, or no /proc
    (tmp_path / "boot_id").write_text("3f1c\n")
    assert boot._read_boot_id.__wrapped__(tmp_path / "boot_id") == "3f1c"
    assert boot.stamp() is None  # (the tests' boot is unknown: conftest)


def test_a_history_copied_without_its_times_keeps_last_months_wins_out_of_tonight(tmp_path, monkeypatch):
    """A restore by ``cp -r`` (no ``-a``) gave every journal the copy's time: last month's wins, of another boot,
    were counted as tonight's. The wall time kept beside each game (``ended.json``) says when it ended."""
    history = tmp_path / "current" / "history"
    now = 1_800_000_000.0
    pi = Pi(monkeypatch, "last-month", now - 30 * 24 * HOUR)
    pi.play(history, "noch-x-mal", nxm_won(2)(), 0.5)  # Ben
    pi.play(history, "noch-x-mal", nxm_won(3)(), 0.5)  # Carla
    pi.reboot("restored", now - HOUR)
    for folder in history.iterdir():  # the copy's time
        os.utime(folder / "journal.jsonl", (now - 60, now - 60))
    assert tonight.tally(history, pi.wall) == tonight.Tally(0, ())
    pi.play(history, "echt-spitze", echt_one(), 0.2)  # Anna, tonight on the restored card
    assert tonight.tally(history, pi.wall) == tonight.Tally(1, (("Anna", 1),))


def test_the_wall_time_put_beside_a_game_is_its_last_steps(tmp_path, monkeypatch):
    pi = Pi(monkeypatch, "boot-a", 1_800_000_000.0)
    journal = Journal(tmp_path / "current")
    session = GameSession.new(engine_class("noch-x-mal"), nxm_won(2)().setup, journal)
    assert session.apply(nxm_won(2)().actions[0]), session.error
    os.utime(journal.path, (pi.wall - 100, pi.wall - 100))  # the last step, 100 s before it is put away
    folder = journal.archive()
    ended = json.loads((folder / ENDED).read_text(encoding="utf-8"))
    assert ended == {"boot": "boot-a", "uptime": 30.0, "wall": pi.wall - 100}


def _without_wall(folder: Path, header_at: float | None = None, last_at: float | None = None) -> None:
    """A game put away before the wall time was kept beside its boot's stamp; its header's and last step's "at"."""
    ended = json.loads((folder / ENDED).read_text(encoding="utf-8"))
    (folder / ENDED).write_text(json.dumps({k: v for k, v in ended.items() if k != "wall"}), encoding="utf-8")
    records = [json.loads(line) for line in (folder / "journal.jsonl").read_text(encoding="utf-8").splitlines()]
    if header_at is not None:
        records[0]["at"] = header_at
    if last_at is not None:
        records[-1]["action"]["at"] = last_at
    times = (folder / "journal.jsonl").stat()
    (folder / "journal.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    os.utime(folder / "journal.jsonl", (times.st_atime, times.st_mtime))  # (the game's end, as it was put away)


def test_a_stamp_without_a_wall_time_takes_the_journals_last_timed_step(tmp_path, monkeypatch):
    """Games put away before the wall time was kept beside them (their boot's stamp alone): the journal's last step's
    own "at" (a timer's, a Fritzo building's), not the file's time a copy changed: as their resume is timed
    (``journal.last_played``)."""
    history = tmp_path / "current" / "history"
    now = 1_800_000_000.0
    pi = Pi(monkeypatch, "last-month", now - 30 * 24 * HOUR)
    folder = pi.play(history, "noch-x-mal", nxm_won(2)(), 0.5)
    _without_wall(folder, last_at=now - 30 * 24 * HOUR)
    pi.reboot("restored", now - HOUR)
    os.utime(folder / "journal.jsonl", (now - 60, now - 60))  # the copy's time
    assert tonight.tally(history, pi.wall) == tonight.Tally(0, ())
    (folder / ENDED).unlink()  # no stamp at all: the file's time, as before
    tonight._STAMPS.clear()  # (read once per journal's time and size: the companion never removes one)
    assert tonight.tally(history, pi.wall) == tonight.Tally(1, (("Ben", 1),))


def test_a_long_game_is_timed_by_its_end_not_its_start(tmp_path, monkeypatch):
    """A game begun five hours before its end (a long evening's one), put away with its boot's stamp alone, then the
    Pi restarted: its header's "at" (the start) timed it, five hours before now, and its win fell out of tonight. Its
    journal's time is when it was last played (it has no timed last step), as its resume said."""
    history = tmp_path / "current" / "history"
    now = 1_800_000_000.0
    pi = Pi(monkeypatch, "before-the-restart", now - 6 * HOUR)
    folder = pi.play(history, "noch-x-mal", nxm_won(2)(), 5.5)  # Ben, begun at the boot, ended 30 minutes ago
    _without_wall(folder, header_at=now - 6 * HOUR + 60)
    pi.reboot("after-the-restart", now)
    assert tonight.tally(history, pi.wall) == tonight.Tally(1, (("Ben", 1),))


@pytest.mark.parametrize("size", [(800, 480), (1280, 720)], ids=["800x480", "1280x720"])
@pytest.mark.parametrize("lang", ["de", "en"])
def test_a_count_stays_on_the_line_of_its_name(tmp_path, monkeypatch, lang, size):
    """Six long names' wins on two lines: "…: Nguyễn T. M. Ả." / "2, Trần Đ. 2, …" read the first 2 as Trần's.
    Each name (whole or short) stands on the line of its count."""
    wins = (("Nguyễn Thị Mỹ Ảnh", 2), ("Trần Đức-Huy", 2), ("Großvater Jürgen", 1), ("Lê Vĩnh", 1), ("Ánh", 1),
            ("Großmutter Hilde", 1))
    if not theme.fallback_path():
        wins = tuple((name.replace("ễ", "e").replace("ị", "i").replace("ỹ", "y").replace("Ả", "A")
                      .replace("ầ", "a").replace("Đ", "D").replace("ứ", "u").replace("Ê", "E").replace("ĩ", "i"), n)
                     for name, n in wins)  # (no fallback font: the same lengths in letters it draws)
    monkeypatch.setattr(tonight, "tally", lambda *args, **kwargs: tonight.Tally(8, wins))
    app = app_at(tmp_path, lang, size)
    try:
        with recording_texts(monkeypatch) as drawn:
            app.frame(0.03, [])
        if size == (800, 480):
            pygame.image.save(app.display.window, str(tmp_path / f"tonight_counts_{lang}.png"))
    finally:
        app.close()
    prefix = t("core.tonight_wins", lang, games=8, wins="").split("(")[0]
    start = next(k for k, (s, _, _) in enumerate(drawn) if s.startswith(prefix))
    lines = [s for s, _, _ in drawn[start:start + 2]]
    assert len(lines) == 2 and any(name.split()[0] in lines[1] for name, _ in wins), lines  # on two lines
    assert not lines[1][:1].isdigit() and not lines[0].rstrip().endswith(tuple(theme.short_name(n) for n, _ in wins))
    for name, _ in wins:
        for form in (name, theme.short_name(name)):
            assert not any(line.endswith(form) for line in lines[:-1]), lines
