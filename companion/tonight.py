"""This evening's wins, for the main and pause menus: "Siege heute Abend (5 Spiele): Anna 3, Ben 2, Carla 1".

Each game's end screen names its winners, and UNDO from the next game's setup goes back to them; once the next
game started, nothing showed them again, and a club playing ten rounds could not tell who won the earlier ones.

Derived from what is on the card, not kept in memory: every game ends up in ``current/history/<time>/`` (its
journal, and the snapshot of its last step), so a power cut or a restart loses nothing. Nothing is written: a tally
file beside the history would be one more thing for a power cut to leave behind the games it counts.

"This evening": the games finished (their journal's last step, its file's time) one after another with less than
``BREAK`` between them, the latest less than ``BREAK`` before now. A club playing past midnight stays one evening;
the next afternoon starts afresh. Games of one boot are timed by the time since it (``journal.ENDED``, ``boot``),
not the wall clock: a Pi without a clock battery starts the evening on the time it saved last night and jumps ~20 h
when the network's time comes, and the games before the jump were dropped as last night's. Games of different boots,
or archived before the stamp was kept, compare wall times: the one written beside the stamp where there is one (a
copy without ``cp -a`` gives every journal the copy's time; ``_wall``), else the journal file's.

A game of another boot stamped later than now: the clock was wrong then or is wrong now. A power cut mid-evening
starts the Pi again on the time fake-hwclock saved last (each hour), so the games of the last hour before the cut
stand up to an hour ahead of the clock: they are this evening's, and the chain goes on from them (``AHEAD``; the
break then measured from them, by their boot's clock). Further ahead it is no power cut: a clock set wrong then, or
one far behind now (no clock battery and no saved time: 1970 until the network's time comes, when the whole history
stood ahead and every game on the card was counted as tonight's). Such a game is not tonight's, nor the evening's
end: games put away before it may be. A game of this boot is timed by its boot's clock and never stands ahead.

Counted over all games of the evening together (one line a table reads at a glance; a club plays the same game round
after round, a family's mixed evening asks who won most, not who won which). A game counts where two or more played
(a solo game has nobody to win against); each player its end names as winner counts one win, so a shared win or a
tie counts for each, and a team's win for each of the team (the end screen says they won). A game with no winner
(Fritzo's draw, the time up, the cube winning) counts among the games.

Reading stays off the frame: the menus ask once when they are built, and each archived game's result is kept by its
folder and its journal's time and size, so building a menu again reads no journal twice.
"""

from __future__ import annotations

import json
import logging
import os
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion import boot
from companion.games import GAMES, engine_class
from companion.i18n import t
from companion.journal import ENDED, JOURNAL, SNAPSHOT, archived_in_order, is_time, last_played, read_records, replay

log = logging.getLogger(__name__)

#: a pause this long without a game finished ends the evening (dinner in between does not)
BREAK = 4 * 3600.0
#: how much later than now a game of another boot may be stamped and be this evening's: a power cut's restart on the
#: time fake-hwclock saved last (each hour), with a margin for the hourly save coming late
AHEAD = 1.5 * 3600.0


@dataclass(frozen=True)
class Result:
    """One archived game as the tally needs it: finished or not, and who won (empty: nobody, or not finished)."""

    finished: bool
    winners: tuple[str, ...] = ()
    #: counted among the evening's games: finished, and played by two or more
    counts: bool = False


@dataclass(frozen=True)
class Tally:
    """The evening's games counted, and each winner's wins, the most first (alike: who won first, first)."""

    games: int
    wins: tuple[tuple[str, int], ...]


#: (folder, journal's mtime_ns, size) -> its result: a history folder is not written again once archived
_KNOWN: dict[tuple[str, int, int], Result] = {}
#: the same key -> the boot's stamp of the game's last step (``_ended``)
_STAMPS: dict[tuple[str, int, int], Any] = {}
#: the same key -> when the journal says the game was last played (``_wall``, where its stamp has no wall time)
_PLAYED: dict[tuple[str, int, int], float] = {}


def _players(engine: Any) -> list[str]:
    """The engine's players by name (some keep them as names, some as a state per player)."""
    state = getattr(engine, "state", engine)
    return [getattr(p, "name", p) for p in getattr(state, "players", [])]


def winners(game: str, engine: Any) -> tuple[str, ...]:
    """Who won a finished game, as its end screen names them; empty for a solo game or one nobody won."""
    state = getattr(engine, "state", engine)
    players = _players(engine)
    if len(players) < 2:
        return ()
    if game == "fritzo" and getattr(state, "result", None) == "draw":
        return ()  # its end screen names nobody (the best scores are alike and nobody finished first)
    named = [players[w] if isinstance(w, int) and 0 <= w < len(players) else w
             for w in getattr(state, "winners", [])]  # (Haste Worte keeps its winners' seats)
    return tuple(dict.fromkeys(w for w in named if isinstance(w, str)))


def result(folder: Path) -> Result:
    """The game archived in ``folder``: from its snapshot where it was written after the journal's last line (its
    engine's state at the end), else by replaying the journal; a game that cannot be read counts as unfinished."""
    raw = (folder / JOURNAL).read_bytes()
    # a last line cut short never took effect; the lines before a damaged one are the game the table was offered
    records = read_records(raw.split(b"\n")[:-1])[0]
    game = records[0].get("game") if records else None
    if not isinstance(game, str) or game not in GAMES or game == "free-play":
        return Result(False)
    actions = replay(records[1:])[0]
    if not actions:
        return Result(False)
    engine = None
    try:
        snapshot = json.loads((folder / SNAPSHOT).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        snapshot = None
    cls = engine_class(game)
    if isinstance(snapshot, dict) and snapshot.get("count") == len(actions) and snapshot.get("lines") == len(records):
        if snapshot.get("finished") is not True:
            return Result(False)
        engine = cls.from_json(snapshot["state"])
    else:  # no snapshot of its last step (the power went before it was written): the engine plays it again
        from companion.session import rebuild
        engine = rebuild(cls, actions)
    return of_engine(game, engine)


def of_engine(game: str, engine: Any) -> Result:
    """A game's result from its engine (the one on the screen, or one rebuilt from the card)."""
    if not engine.finished:
        return Result(False)
    return Result(True, winners(game, engine), len(_players(engine)) >= 2)


@dataclass(frozen=True)
class _When:
    """A moment: the wall clock, and where known the boot and the seconds since it (``boot.stamp``)."""

    wall: float
    boot: str | None = None
    uptime: float | None = None

    def since(self, earlier: _When) -> float:
        """Seconds from ``earlier`` to this: by the boot's clock where both are of the same boot (a wall clock set
        by the network in between moves neither), else by the wall clock."""
        if self.boot is not None and self.boot == earlier.boot and self.uptime is not None \
                and earlier.uptime is not None:
            return self.uptime - earlier.uptime
        return self.wall - earlier.wall


def _when(wall: float, stamp: Any) -> _When:
    """``wall`` with the boot's ``stamp`` where it is one (``journal.ENDED``'s, ``boot.stamp``'s)."""
    if isinstance(stamp, dict) and isinstance(stamp.get("boot"), str) \
            and is_time(stamp.get("uptime")):
        return _When(wall, stamp["boot"], float(stamp["uptime"]))
    return _When(wall)


def _ended(folder: Path, stat: os.stat_result) -> Any:
    """The boot's stamp of an archived game's last step, None where there is none (older games) or it is unreadable.
    Kept as its result is (``_cached``): written once, as the game is archived."""
    key = (str(folder), stat.st_mtime_ns, stat.st_size)
    if key not in _STAMPS:
        try:
            _STAMPS[key] = json.loads((folder / ENDED).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            _STAMPS[key] = None
    return _STAMPS[key]


def _wall(folder: Path, stat: os.stat_result, ended: Any) -> float:
    """The wall time an archived game ended: where it has a boot's stamp (``journal.ENDED``), the wall time written
    beside it, else when its journal says it was last played (``journal.last_played``: its last step's own "at", the
    file's time where that is later or there is none; as its resume was timed). A copy of the history without ``cp
    -a`` gives every file the copy's time: last month's wins were counted as tonight's after a restore. A game
    archived before the stamps were kept is timed by its file, as ever."""
    if not isinstance(ended, dict):
        return stat.st_mtime
    if is_time(wall := ended.get("wall")):
        return float(wall)
    key = (str(folder), stat.st_mtime_ns, stat.st_size)
    if key not in _PLAYED:
        try:
            records = read_records((folder / JOURNAL).read_bytes().split(b"\n")[:-1])[0]
        except OSError:
            records = []
        _PLAYED[key] = last_played(records, stat.st_mtime)
    return _PLAYED[key]


def _cached(folder: Path, stat: os.stat_result) -> Result:
    key = (str(folder), stat.st_mtime_ns, stat.st_size)
    if key not in _KNOWN:
        try:
            _KNOWN[key] = result(folder)
        except Exception as exc:  # another version's game, a damaged state: not counted, never the menu gone
            log.warning("a game in the history is not counted tonight (%s): %s", folder.name, exc)
            _KNOWN[key] = Result(False)
    return _KNOWN[key]


def tally(history: Path, now: float, current: Result | None = None) -> Tally:
    """The evening's games and wins from the games archived in ``history`` (``BREAK``). ``current``: the game on
    the screen (``of_engine``), counted where it is finished (the pause menu over its end screen: not archived yet)."""
    try:  # named by the time each went there, the latest last: games are put away in the order they are played
        folders = archived_in_order(entry.name for entry in os.scandir(history) if entry.is_dir())[::-1]
    except OSError:  # no history yet, or the card refusing: nothing to say
        folders = []
    won: list[tuple[str, ...]] = [current.winners] if current is not None and current.counts else []
    latest = _when(now, boot.stamp())
    for name in folders:  # only this evening's are read, and the one before it (a month of history stays unread)
        folder = history / name
        try:
            stat = (folder / JOURNAL).stat()  # the game's end: its last step (archived folders keep the file's time)
        except OSError:
            continue
        ended = _ended(folder, stat)
        when = _when(_wall(folder, stat, ended), ended)
        since = latest.since(when)
        if since < -AHEAD:
            continue  # the clock was or is wrong: not tonight's, and it says nothing of the games before it
        if since >= BREAK:
            break  # every game before it is older still
        found = _cached(folder, stat)
        if found.finished:  # (one a power cut's restart left ahead of the clock too: the break is from it)
            latest = when
        if found.counts:
            won.append(found.winners)
    in_order = [name for names in reversed(won) for name in names]  # (``won`` runs from the latest game back)
    counted = Counter(in_order)
    first = {name: n for n, name in reversed(list(enumerate(in_order)))}
    order = sorted(counted, key=lambda name: (-counted[name], first[name]))
    return Tally(len(won), tuple((name, counted[name]) for name in order))


def line(found: Tally, lang: str) -> tuple[str, str, tuple[str, ...]] | None:
    """The menu's line for ``found``, the same with the names shortened (``theme.short_name``: six long names), and
    what is not broken across lines: each name (whole or short) with its count ("…: Nguyễn T. M. Ả." / "2, Trần Đ.
    2, …" read the 2 as Trần's); None where nobody won this evening (nothing to say)."""
    if not found.wins:
        return None
    from companion.views.theme import short_name

    def won(name_of: Any, name: str, n: int) -> str:
        return f"{name_of(name)} {n}"

    def said(name_of: Any) -> str:
        return t("core.tonight_wins", lang, games=found.games,
                 wins=", ".join(won(name_of, name, n) for name, n in found.wins))

    units = tuple(dict.fromkeys(won(name_of, name, n) for name_of in (str, short_name) for name, n in found.wins))
    return said(str), said(short_name), units
