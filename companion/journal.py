"""The game's memory across crashes and power cuts: an append-only journal of actions plus an atomic snapshot.

Every action that changed the game is one JSON line, written and fsynced before the screen shows its effect.
Undo is appended too (``{"undo": true}``), never done by rewriting the file, so the journal stays append-only and an
undo survives a restart like any other step. The state is rebuilt by replaying the actions (engines are
deterministic); ``snapshot.json`` holds the state as well, written atomically (in the app after the frame
showing the step: ``defer_snapshot``), a cache of the replay: a power cut may leave it older than the journal. Its
state is taken for the game only where it is sealed (``_seal``) to the journal's very bytes, the engines' code and the
state's own text (``SavedGame.state``): then it is the state a replay of that journal makes, without the replay (a
resume at 300 steps replayed for 0.03-0.7 s here, 3-4 times that on a Pi), and so is the undos' latest checkpoint
before its step, which it keeps too (``SavedGame.checkpoint``: the first undo after the resume replays from it, not
from the setup). Its ``finished`` is read where it counts
the journal's steps and lines (a finished game is moved to the history rather than offered again; one whose end was
undone is not finished), and its count of lines: more than the journal holds means the card lost the journal's last
lines, and the table is asked to check at the resume. A snapshot whose write failed does not make the game unsaved:
the journal holds every step, and appending goes on. A step the card refused leaves an empty ``journal.behind``
until the game is written whole again, for the resume to ask the table to check as well.

The dice examples players' answers taught during the game are appended as well (``{"learned": {...}, "steps": n}``,
and ``{"unlearned": {...}}`` for one whose die was answered again): an undo after a restart takes back a slip taught
before it, as it would have without the restart.

A power cut can leave a half-written last line: that action was never shown as done, so it is dropped (the file as
cut is kept aside). A journal cut before its game's setup was written held no game anybody saw: it goes to the
history unannounced, unless its snapshot or the zeros of unwritten blocks say a game was on screen.

A line after the setup that cannot be read (a card's sector gone bad, flipped bytes, the zeros of blocks never
written) costs at most the steps from it on, not the evening. Where the lines after it tell the game whatever it
held (an undo after it took it back, or it was an undo or an example taught: its first bytes, or the snapshot's
count of steps, say which; ``_past_the_damage``), the game is the table's: written whole as a rewrite writes it, the
damaged file and the snapshot kept aside, and the resume asks the table to check (``journal.behind``). Otherwise
every line before it replays as it did, and nothing after it can be trusted (a step standing after it was played
on a state that is gone). The game is offered as it stood before the damaged line, the journal written whole with
those lines (atomically, the damaged file kept aside for a bug report), its snapshot kept aside with it (it counts
lines and may say "finished" of steps that are gone), and ``journal.behind`` holding ``damaged`` and how many moves
that lost (where the lines after the damaged one tell): the resume says so and asks the table to check, also when
the menu is built again before Resume, until the next step is written. A line that reads but that the engine refuses
on replay (another version's step, bytes flipped into other JSON) costs the same (``cut_back_before``). A damaged
header or setup leaves no game to go back to: the journal is kept aside and the player is told, as is one whose
setup the engine refuses.
"""

from __future__ import annotations

import errno
import functools
import hashlib
import json
import logging
import os
import re
import shutil
import sys
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from companion import boot
from companion.atomic import (
    aside_path,
    atomic_write_bytes,
    atomic_write_text,
    fsync_dir,
    keep_aside_where_possible,
    replace_keeping_aside,
)
from companion.errors import JournalError
from companion.games.base import Engine, strict_json

log = logging.getLogger(__name__)

JOURNAL = "journal.jsonl"
SNAPSHOT = "snapshot.json"
#: an empty file: steps the table played could not be written (the card refused), so the journal is behind the game;
#: holding ``DAMAGED``: the journal was cut back to the lines before a damaged one
BEHIND = "journal.behind"
#: an archived game's last step as the boot and the time since it (``boot.stamp``), for ``tonight`` to chain games
#: of one boot across a jump of the wall clock; absent in games archived before, or without a known boot
ENDED = "ended.json"
DAMAGED = b"damaged"
#: holding ``REBUILT``: a damaged line was passed over, the lines after it telling the game as the table left it
REBUILT = b"rebuilt"
#: the games ``Journal.archive`` keeps in the history, the newest (a weekly club puts ~500 away a year, 3 files
#: each): counted, not dated, for a Pi without a clock battery may think it is years later and put every game away
HISTORY_KEPT = 1000
#: the folders the oldest games leave by a removal at most (``_trim_history``): a history over the limit (an update
#: to this version) shrinks over a few games, not in one wait at a game's end
TRIM_AT_ONCE = 20
#: how an archived game's folder is named (``archive``): nothing else in the history is ever removed
_ARCHIVED = re.compile(r"(\d{8})-(\d{6})(?:-(\d+))?")
#: an archived game's folder being removed: renamed first, for a power cut to leave no half game in the history
_GOING = ".going-"


class JournalGone(FileNotFoundError):
    """The journal was removed under a running game (by hand, a tidy-up): a step appended would start a file
    without the game's header and setup, read as damaged after a restart. Nothing is written; the caller writes the
    whole game (``Journal.rewrite``)."""


@dataclass
class SavedGame:
    game: str
    actions: list[dict[str, Any]]
    saved_at: float
    finished: bool = False
    #: the examples answers taught that no undo took back yet, each with the number of steps when it was taught
    learned: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    #: why a last line cut short could not be cut off the file (the card full or read-only): appending to it would
    #: join the next step to that half line, so the game must be written whole first
    unrepaired: OSError | None = None
    #: every step an undo took back, in the journal's order: "time's up" undone must not run out again at the
    #: restart, where the table had seen it run out and taken that back (also when a placement made before it was
    #: taken back after it: the last undo alone missed that)
    undone: list[dict[str, Any]] = field(default_factory=list)
    #: the journal may not end where the table stopped: its last line was cut short, or the snapshot written after
    #: it counts lines the card lost since (a step gone, or an undo gone and its step back): "resumed exactly where
    #: it stopped" would be untrue, the table is asked to check
    doubt: bool = False
    #: a line after the setup could not be read: the game is the lines before it (``doubt`` too), and the resume
    #: says how many moves were lost
    damaged: bool = False
    #: the moves (steps and undos) a cut back lost, counted from the lines after the damaged one; None where the
    #: damage hides how many (zeros over what may have been several lines, more damage after it)
    lost: int | None = None
    #: the seats the companion named itself ("Player 2": more seats than the config names), as the header records
    #: them: only these are named anew in another language (``session.seats_in``), not a player a family called
    #: "Player 2". None in a journal from before the header recorded them
    unnamed: list[str] | None = None
    #: a line could not be read, but the lines after it told the game as the table left it (``_past_the_damage``):
    #: nothing is known lost, yet the table is asked to check (``doubt`` too)
    rebuilt: bool = False
    #: the engine's state after ``actions`` as the snapshot holds it, where it is sealed to the journal as it is now
    #: (``_seal``): the resume takes it instead of replaying every step. None where the snapshot may be older than
    #: the journal (the power cut came before it was written), or another version of the engines wrote it: then
    #: only a replay tells the game, ``finished`` too (``Journal.caught_up``)
    state: dict[str, Any] | None = None
    #: the engine's state after the first so many ``actions`` (an undo's checkpoint, ``session.CHECKPOINT_EVERY``),
    #: sealed with ``state``: the first undo after a resume from the snapshot replays from it, not from the setup
    #: (a held UNDO 300 steps into Haste Worte replayed the whole game at its first step). None with ``state``, or
    #: where the snapshot holds none (a game of fewer steps, an older version's snapshot)
    checkpoint: tuple[int, dict[str, Any]] | None = None


@functools.cache
def engine_code() -> str | None:
    """What the engines' replay depends on besides the journal: their code and Python's (its ``random``). A snapshot
    written by other engines (an update since, which may replay a step otherwise) is no cache of this version's
    replay. None where the code cannot be read: then no snapshot is sealed, and every resume replays."""
    root = Path(__file__).resolve().parent
    digest = hashlib.sha256(sys.version.encode())
    try:
        for path in sorted([*(root / "games").rglob("*.py"), root / "hourglass.py"]):
            digest.update(b"\0" + path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes())
    except OSError as exc:
        log.warning("the engines' code cannot be read; every resume replays its game: %s", exc)
        return None
    return digest.hexdigest()


#: one decoder for every line: ``json.loads`` with ``parse_constant`` built a new one for each line read, two thirds
#: of a journal's load
_DECODER = json.JSONDecoder(parse_constant=strict_json)


def _parsed(line: bytes) -> Any:
    """A journal line's JSON, as ``json.loads(line, parse_constant=strict_json)`` reads it (its encoding told the
    same way), with the one decoder. Raises ValueError (a UnicodeDecodeError too) where it is no JSON."""
    return _DECODER.decode(line.decode(json.detect_encoding(line), "surrogatepass"))


def _seal(code: str, journal: bytes, state: str, *checkpoint: str) -> str:
    """What ties a snapshot's ``state`` (its JSON text) to the journal it follows (its bytes, every one of them: a
    count of lines missed a journal written whole with as many lines) and the engines that made it (``engine_code``).
    A flipped byte in the state, too, breaks it. ``checkpoint``: its count of steps and its state's text, where the
    snapshot holds one (``SavedGame.checkpoint``): sealed with the rest."""
    digest = hashlib.sha256(code.encode())
    for part in (journal, *(text.encode("utf-8", "surrogatepass") for text in (state, *checkpoint))):
        # each with its length: no part runs into the next
        digest.update(len(part).to_bytes(8, "big") + part)
    return digest.hexdigest()


def replay(records: list[dict[str, Any]]
           ) -> tuple[list[dict[str, Any]], list[tuple[int, dict[str, Any]]], list[dict[str, Any]]]:
    """Resolve undo records: each undo removes the latest action still standing (never the setup), and the examples
    taught for it; an "unlearned" record removes the example it names. Also returns the actions the undos took
    back, in order, with those a rewrite wrote as ``{"taken_back": ...}`` (``SavedGame.undone``)."""
    return _replay(records)[:3]


def _replay(records: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], list[tuple[int, dict[str, Any]]],
                                                   list[dict[str, Any]], list[int]]:
    """``replay``, and the index in ``records`` of each action standing (the line a refused step is on)."""
    actions: list[dict[str, Any]] = []
    standing: list[int] = []
    learned: list[tuple[int, dict[str, Any]]] = []
    undone: list[dict[str, Any]] = []
    for index, rec in enumerate(records):
        if rec.get("undo"):
            if len(actions) > 1:
                undone.append(actions.pop())
                standing.pop()
                learned = [(steps, example) for steps, example in learned if steps < len(actions)]
        elif "action" in rec:
            actions.append(rec["action"])
            standing.append(index)
        elif isinstance(rec.get("learned"), dict) and isinstance(rec.get("steps"), int):
            learned.append((rec["steps"], rec["learned"]))
        elif "unlearned" in rec:
            learned = [(steps, example) for steps, example in learned if example != rec["unlearned"]]
        elif isinstance(rec.get("taken_back"), dict):  # written by a rewrite: no step of the game
            undone.append(rec["taken_back"])
    return actions, learned, undone, standing


def _steps_lost(after: list[Any]) -> int | None:
    """The steps standing on the table that a cut back before a damaged (or refused) line loses: that line, taken
    for a step, and after it each step one more, each undo one fewer. An undo line is no step lost: counted as one,
    two undos and a step after a damaged step (two standing) said "its last 4 steps". None where an undo reaches
    below the damaged line (it took back steps from before it, which the game cut back still shows: no number tells
    the table what to set back), or where nothing is left standing ("its last 0 steps"); a damaged line's undos
    are honoured where the lines after it can be read (``_past_the_damage``), so this is for the rest."""
    depth = 1
    for rec in after:
        if not isinstance(rec, dict):
            continue
        if rec.get("undo") is True:
            depth -= 1
            if depth < 0:
                return None
        elif "action" in rec:
            depth += 1
    return depth or None


def _moves_lost(lines: list[bytes]) -> int | None:
    """The steps a cut back to the lines before ``lines[0]`` (a line that cannot be read) loses (``_steps_lost``).
    None where that cannot be told: zeros (blocks never written) may stand for several lines, and a line after it
    that cannot be read either may be any number."""
    if b"\0" in lines[0]:
        return None
    after: list[Any] = []
    for line in lines[1:]:
        try:
            after.append(_parsed(line))
        except (ValueError, RecursionError):
            return None
    return _steps_lost(after)


#: how each kind of line begins, as ``_append`` (compact) and ``_text`` (with spaces) write it: what a damaged line
#: held, where its first bytes still read
_KIND = re.compile(rb'\{"(action|undo|learned|unlearned|taken_back)": ?')


def _past_the_damage(before: list[dict[str, Any]], lines: list[bytes], count: int | None
                     ) -> tuple[list[dict[str, Any]], list[tuple[int, dict[str, Any]]], list[dict[str, Any]]] | None:
    """The game as the table left it (``replay``'s actions, examples and steps taken back) where the lines after the
    damaged ``lines[0]`` tell it though that line cannot be read: it was an undo or no step at all (an example
    taught), or a step an undo after it took back. Cut back before it, the game showed the steps those undos had
    taken back, and lost every step after them. ``before``: the records before it, the header first.

    What the line held is told by its first bytes where they still read, else by the snapshot's count of steps
    (``count``: where it was written after the journal's last line), else taken for a step (most lines are). None
    where the game cannot be told: a step that still stands (its engine state is gone: the game is cut back before
    it), zeros (they may stand for several lines), a line after it that cannot be read either, or first bytes and
    snapshot that disagree."""
    if b"\0" in lines[0]:
        return None
    after: list[dict[str, Any]] = []
    for line in lines[1:]:
        try:
            rec = _parsed(line)
        except (ValueError, RecursionError):
            return None
        if not isinstance(rec, dict) or not isinstance(rec.get("action", {}), dict):
            return None
        after.append(rec)
    unknown: dict[str, Any] = {}  # the step the damaged line held, told by identity from every step that reads
    held = {"action": [{"action": unknown}], "undo": [{"undo": True}], "other": []}
    kind = match.group(1).decode() if (match := _KIND.match(lines[0])) else None
    kinds = [kind if kind in held else "other"] if kind else list(held)
    for kind in kinds:  # a step first: the likeliest where nothing tells
        actions, learned, undone, _ = _replay([*before[1:], *held[kind], *after])
        if count is not None and len(actions) != count:
            continue  # (two kinds that leave as many steps standing leave the same: they met at the setup)
        if any(a is unknown for a in actions):
            return None
        return actions, learned, [a for a in undone if a is not unknown]
    return None


def read_records(lines: list[bytes]) -> tuple[list[dict[str, Any]], int]:
    """The records of a journal's whole ``lines`` up to the first that cannot be read, and that line's number
    (0: none)."""
    records: list[dict[str, Any]] = []
    for number, line in enumerate(lines, start=1):
        try:
            rec = _parsed(line)
            if not isinstance(rec, dict) or not isinstance(rec.get("action", {}), dict):
                raise ValueError("not an object, or an action that is none")
            if number == 1 and not isinstance(rec.get("game"), str):
                raise ValueError("a header without a game's name")
        except (ValueError, RecursionError):  # nested past Python's limit: as unreadable as a broken line
            return records, number
        records.append(rec)
    return records, 0


class Journal:
    """The journal of the game in progress, in ``folder`` (one game at a time; finished games move to history)."""

    def __init__(self, folder: str | os.PathLike, *, defer_snapshot: bool = False) -> None:
        """``defer_snapshot``: ``save_snapshot`` keeps the snapshot for ``flush_snapshot`` (the app writes it after the
        frame showing the step is on the screen): its two fsyncs came before the step was drawn, half a press's
        wait. The journal, appended and fsynced first, is the game; the snapshot is a cache of it, and one a power
        cut left behind the journal reads as older (``_saved``, ``_snapshot_count``)."""
        self.folder = Path(folder)
        self.path = self.folder / JOURNAL
        self.snapshot_path = self.folder / SNAPSHOT
        self.behind_path = self.folder / BEHIND
        self.defer_snapshot = defer_snapshot
        #: the snapshot of the latest step (its text), not written yet (``defer_snapshot``)
        self._due: str | None = None
        #: the boot's stamp of the latest line written here (``ENDED``), None before any (a resumed game)
        self._ended: dict[str, Any] | None = None

    # -- writing ---------------------------------------------------------------------------------------------
    def start(self, game: str, setup: dict[str, Any], unnamed: Sequence[str] | None = None) -> None:
        """Begin a new game; an unfinished one still here is archived first, never overwritten. A snapshot or mark
        without a journal is what a cut in the middle of ``archive`` left of the game it moved: gone, or the new
        game's start cut short would read as a damaged game ("no line can be read"), its resume as doubtful."""
        if self.path.exists():
            self.archive()
        self._due = None  # (of a game no longer here)
        for leftover in (self.snapshot_path, self.behind_path):
            try:
                leftover.unlink(missing_ok=True)
            except OSError as exc:  # the new game is still written: its snapshot replaces the old one at its step
                log.warning("a put-away game's %s stays: %s", leftover.name, exc)
        self.folder.mkdir(parents=True, exist_ok=True)
        self._append(_header(game, unnamed), starts=True)
        self._append({"action": setup})

    def record(self, action: dict[str, Any]) -> None:
        self._append({"action": action})

    def rewrite(self, game: str, actions: list[dict[str, Any]], learned: Sequence[tuple[int, dict[str, Any]]],
                taken_back: Sequence[dict[str, Any]] = (), unnamed: Sequence[str] | None = None) -> None:
        """The whole game at once, atomically. After a write failed (a full disk, an SD card gone read-only) the file
        misses steps, and appending to it would replay a different game: once writing works again, it is replaced
        by the game as played, with the examples answers taught that still stand and the steps undos took back
        (``{"taken_back": ...}``, which no replay applies: a "time's up" taken back stays so after a restart)."""
        self._write_whole(_as_rewritten(_header(game, unnamed), actions, learned, taken_back))

    def _write_whole(self, records: Sequence[dict[str, Any]]) -> None:
        """Replace the journal by these records at once (a rewrite, or the repair of a cut last line)."""
        atomic_write_text(self.path, _text(records))
        self._ended = boot.stamp()

    def record_undo(self) -> None:
        self._append({"undo": True})

    def record_learned(self, steps: int, example: dict[str, Any]) -> None:
        self._append({"learned": example, "steps": steps})

    def record_unlearned(self, example: dict[str, Any]) -> None:
        self._append({"unlearned": example})

    def save_snapshot(self, engine: Engine, count: int, checkpoint: tuple[int, str] | None = None) -> None:
        """The state after the journal's latest line. ``lines`` counts the journal's lines it follows: one the card
        lost after the snapshot was written is told from a snapshot that fell behind (its write refused). Taken now,
        as text (the engine changes at the next step, and its ``to_json`` may share its lists), sealed to the
        journal's bytes now (``_seal``), written now or at ``flush_snapshot`` (``defer_snapshot``). ``checkpoint``:
        the engine's state (its JSON text) after the first so many of the ``count`` steps, fewer than ``count``
        (``SavedGame.checkpoint``), kept and sealed with it."""
        text, _ = self._snapshot(engine, count, checkpoint)
        if self.defer_snapshot:
            self._due = text
            return
        self._due = None
        atomic_write_text(self.snapshot_path, text)

    def _snapshot(self, engine: Engine, count: int, checkpoint: tuple[int, str] | None = None) -> tuple[str, str]:
        """The snapshot's text for ``engine`` after the journal's ``count`` steps as the file holds them now (with
        ``checkpoint``, ``save_snapshot``'s), and its state's text (what ``_seal`` seals)."""
        journal = self.path.read_bytes()
        state = json.dumps(engine.to_json(), ensure_ascii=False)
        data: dict[str, Any] = {"game": engine.name, "count": count, "finished": engine.finished,
                                "lines": journal.count(b"\n")}
        kept = () if checkpoint is None or not 1 <= checkpoint[0] < count else (str(checkpoint[0]), checkpoint[1])
        if (code := engine_code()) is not None:
            data["seal"] = _seal(code, journal, state, *kept)
        if kept:
            data["checkpoint"] = int(kept[0])
        tail = f', "checkpoint_state": {kept[1]}' if kept else ""
        return json.dumps(data, ensure_ascii=False)[:-1] + ', "state": ' + state + tail + "}", state

    def caught_up(self, saved: SavedGame, engine: Engine, checkpoint: tuple[int, Engine] | None = None) -> SavedGame:
        """``saved`` as ``engine``, the replay of its actions, tells it where the snapshot could not (``state`` None:
        older than the journal, the power cut in the frame after a step; or another version's): finished or not (a
        cut in the frame after a game's last press offered it as "Resume", and its end screen came back), and the
        state to resume from. The snapshot is written from it (sealed to the journal as it is), for the next menu
        and resume not to replay again; one the card refuses changes nothing of the game. ``checkpoint``: the
        replay's latest undo checkpoint before its last step (``SavedGame.checkpoint``), kept and sealed in the
        snapshot with it: without it the first undo after the resume replayed the whole game from its setup.

        A game in doubt (``SavedGame.doubt``: a last line cut short, lines the card lost) is marked behind first
        (``mark_behind``): its snapshot's count of lines, more than the journal holds, was the only trace of lines
        the card lost, which the resume says; the mark says it instead, as after a line cut short (and keeps the
        words of a mark already there). Where the card takes no mark, the snapshot is left as it is."""
        self._due = None  # (of a step before: the journal's bytes are read now)
        if saved.doubt:
            self.mark_behind()
            if not self.behind_path.exists():
                return replace(saved, finished=engine.finished)
        kept: tuple[int, str] | None = None
        if checkpoint is not None and 1 <= checkpoint[0] < len(saved.actions):
            kept = (checkpoint[0], json.dumps(checkpoint[1].to_json(), ensure_ascii=False))
        try:
            text, state = self._snapshot(engine, len(saved.actions), kept)
            atomic_write_text(self.snapshot_path, text)
        except OSError as exc:
            log.warning("the snapshot cannot be written (the journal holds the game): %s", exc)
            return replace(saved, finished=engine.finished)
        return replace(saved, finished=engine.finished, state=json.loads(state),
                       checkpoint=None if kept is None else (kept[0], json.loads(kept[1])))

    def flush_snapshot(self) -> None:
        """Write the snapshot ``save_snapshot`` kept, if any: after the frame, and before the journal is read, moved
        or put aside (the history keeps a game's last snapshot with it). One the card refuses is removed where it
        can be, as at a step (the journal holds the game)."""
        text, self._due = self._due, None
        if text is None or not self.path.exists():  # (a snapshot without its journal reads as a game cut short)
            return
        try:
            atomic_write_text(self.snapshot_path, text)
        except OSError as exc:
            log.warning("the snapshot cannot be written (the journal holds the game): %s", exc)
            self.drop_snapshot()

    def drop_snapshot(self) -> None:
        """A snapshot that could not be written again is removed where the card lets it (removing needs no room):
        left, it showed a state the game had left (after a journal written whole, counting more lines than it),
        which read as steps the card lost."""
        try:
            self.snapshot_path.unlink(missing_ok=True)
        except OSError as exc:
            log.warning("the old snapshot stays: %s", exc)

    def mark_behind(self) -> None:
        """Say on the card that a step could not be written, for the resume after a power cut not to say "exactly
        where it stopped" of a journal that misses steps the table played. An empty file needs no room a full card
        lacks (a file's name, not its blocks); a card gone read-only takes nothing, and then it cannot be known."""
        if not self.path.exists():  # nothing to be behind: the game is not on the card at all
            return
        try:
            os.close(os.open(self.behind_path, os.O_CREAT | os.O_WRONLY, 0o644))
            fsync_dir(self.folder)
        except OSError as exc:
            log.warning("the journal's missing steps cannot be marked: %s", exc)

    def mark_damaged(self, lost: int | None = None) -> None:
        """Say on the card that the journal was cut back to the lines before a damaged one, and how many moves that
        lost where known (``damaged 3``), for the resume to say so however often the menu loads it first. Where
        the card takes no words, the empty mark still asks the table to check."""
        try:
            atomic_write_bytes(self.behind_path, DAMAGED + (b"" if lost is None else b" %d" % lost) + b"\n")
        except OSError as exc:
            log.warning("the damage cannot be marked in words: %s", exc)
            self.mark_behind()

    def mark_rebuilt(self) -> None:
        """Say on the card that a damaged line was passed over (``_rebuilt``), for the resume to say so however often
        the menu loads it first; where the card takes no words, the empty mark still asks the table to check."""
        try:
            atomic_write_bytes(self.behind_path, REBUILT + b"\n")
        except OSError as exc:
            log.warning("the damage passed over cannot be marked in words: %s", exc)
            self.clear_behind()  # (a mark of an earlier cut back speaks of steps this game did not lose)
            self.mark_behind()

    def _marked_rebuilt(self) -> bool:
        """Whether the journal is marked rebuilt past a damaged line (``mark_rebuilt``)."""
        try:
            return self.behind_path.read_bytes().split()[:1] == [REBUILT]
        except OSError:
            return False

    def _damage_mark(self) -> tuple[bool, int | None]:
        """Whether the journal is marked cut back (``mark_damaged``), and the moves that lost where it says."""
        try:
            words = self.behind_path.read_bytes().split()
        except OSError:  # no mark (the usual case), or one the card cannot read: no words of damage
            return False, None
        if not words or words[0] != DAMAGED:
            return False, None
        return True, int(words[1]) if len(words) > 1 and words[1].isdigit() else None

    def clear_behind(self) -> None:
        """The journal holds the game as played again (written whole, or a resumed game's step written)."""
        if self.behind_path.exists():
            try:
                self.behind_path.unlink()
            except OSError as exc:
                log.warning("the mark of missing steps stays: %s", exc)

    def _append(self, record: dict[str, Any], *, starts: bool = False) -> None:
        """Add one line; ``starts``: the game's header, the one line that begins a file."""
        line = json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n"
        new = not self.path.exists()
        if new and not starts:  # (it began a new file, no header nor setup: "damaged" at the next start)
            raise JournalGone(errno.ENOENT, "the saved game's file is gone", str(self.path))
        with open(self.path, "a", encoding="utf-8") as f:
            f.write(line)
            f.flush()
            os.fsync(f.fileno())
        if new:
            fsync_dir(self.folder)
        self._ended = boot.stamp()

    def archive(self) -> Path | None:
        """Move this game's files to ``history/<time>/`` (finished games, or one replaced by a new game), named after
        every game put away before it (``archive_name``)."""
        self.flush_snapshot()
        if not self.path.exists():
            return None
        history = self.folder / "history"
        try:
            names: list[str] | None = [entry.name for entry in os.scandir(history)
                                       if entry.is_dir(follow_symlinks=False)]
        except FileNotFoundError:  # the first game put away
            names = []
        except OSError as exc:
            log.warning("the history cannot be listed; no old game is removed: %s", exc)
            names = None
        target = history / archive_name(time.strftime("%Y%m%d-%H%M%S"), names or [])
        for _ in range(HISTORY_KEPT):  # a folder that came since the listing, or a history that could not be listed
            if not target.exists():
                break
            target = history / archive_name(target.name, [target.name])
        target.mkdir(parents=True)  # (still there after all that: refused as the card's refusals are)
        for p in (self.path, self.snapshot_path, self.behind_path):  # (the mark of steps missing goes with them:
            if p.exists():  # left, it spoke of the next game)
                os.replace(p, target / p.name)
        fsync_dir(self.folder)
        self._stamp_ended(target)
        if names is not None:
            self._trim_history(history, names)
        return target

    def _stamp_ended(self, target: Path) -> None:
        """Put the boot's stamp of the game's last line beside it (``ENDED``): its wall time alone dropped the
        evening's first games from the wins when the network's time came in between. Unknown (a game resumed and
        put away without a step) or refused by the card: nothing, and ``tonight`` compares its wall time.
        With it the wall time of that line (``"wall"``, the journal's time as it is put away): a copy of the history
        without ``cp -a`` gave every journal the copy's time, and last month's wins were tonight's after a restore."""
        ended, self._ended = self._ended, None
        if ended is None:
            return
        try:
            ended = {**ended, "wall": (target / JOURNAL).stat().st_mtime}
        except OSError:  # (the journal moved there just now: the boot's stamp alone, as before)
            pass
        try:
            atomic_write_text(target / ENDED, json.dumps(ended))
        except OSError as exc:
            log.warning("the game put away has no boot time beside it: %s", exc)

    def _trim_history(self, history: Path, names: list[str]) -> None:
        """Remove the oldest games from the history beyond the newest ``HISTORY_KEPT`` (``TRIM_AT_ONCE`` at most).
        ``names``: its folders before the game put away now went there (never that one removed, nor a folder not
        named as ``archive`` names them), the oldest first by name: the order the games were put away
        (``archive_name``), whatever the clock did. Each is renamed first (``_GOING``), then removed: a power cut
        in between leaves no half game among the games (``tonight`` reads them), and the next archive removes the
        rest of it. A removal the card refuses is logged: the game just put away is saved, and the table is not told
        of a history it never sees."""
        games = archived_in_order(names)
        over = games[:max(0, len(games) + 1 - HISTORY_KEPT)][:TRIM_AT_ONCE]
        going = [name for name in names if name.startswith(_GOING)]
        for name in over:
            try:
                os.replace(history / name, history / (_GOING + name))
            except OSError as exc:
                log.warning("an old game stays in the history (%s): %s", name, exc)
                continue
            going.append(_GOING + name)
        for name in going[:2 * TRIM_AT_ONCE]:
            try:
                shutil.rmtree(history / name)
            except OSError as exc:
                log.warning("an old game's files stay in the history (%s): %s", name, exc)

    # -- reading ---------------------------------------------------------------------------------------------
    def load(self) -> SavedGame | None:
        """The saved game here, or None. Raises JournalError (file kept aside) when its header or setup cannot be
        read; a damaged line after them cuts the game back to the lines before it (``_cut_back``)."""
        self.flush_snapshot()
        if not self.path.exists():
            return None
        raw = self.path.read_bytes()
        mtime = self.path.stat().st_mtime  # the last step's time, not a repair's below
        lines = raw.split(b"\n")
        torn = lines[-1] != b""  # no newline at the end: a write cut short
        body = lines[:-1]
        records, damaged_at = read_records(body)
        played_at = last_played(records, mtime)
        if damaged_at and not (records and "game" in records[0] and replay(records[1:])[0]):
            # the header or the setup is damaged: no game to go back to
            aside = self.set_aside()
            raise JournalError(
                f"The saved game is damaged (line {damaged_at} cannot be read). It was kept as {aside}; "
                "start a new game. Please send that file with a bug report.", aside
            )
        if damaged_at:
            past = _past_the_damage(records, body[damaged_at - 1:], self._snapshot_count(len(body)))
            if past is not None:
                return self._rebuilt(records[0], past, damaged_at, played_at)
            return self._cut_back(records, damaged_at, played_at, _moves_lost(body[damaged_at - 1:]))
        header_only = not records or (len(records) == 1 and "game" in records[0])
        if header_only and (self.snapshot_path.exists() or b"\0" in raw):
            # not one whole step, yet a game was on screen (its snapshot is written after its setup), or the zeros
            # a card leaves where a file's blocks were never written: a file cut short, not a game never set up
            aside = self.set_aside()
            raise JournalError(
                f"The saved game is damaged (no line of it can be read). It was kept as {aside}; start a new game. "
                "Please send that file with a bug report.", aside
            )
        unrepaired: OSError | None = None
        if torn:
            # The last action was being written when the power went: it never took effect on screen, so only the
            # lines before it are written back (atomically: the old file stays until the new one is whole), then
            # the file as cut kept beside it. When that write fails (a full card is what cuts a line short), the
            # game is still offered, from memory; the session writes it whole at its first step that can be
            # written.
            log.warning("a saved game's last line was cut short and is dropped: %r", lines[-1][:200])
            # the doubt outlives the repair: the next menu's load found the file whole and said "exactly where it
            # stopped" (a language switched, the players screen visited, before Resume). Marked before the repair:
            # marked after it, a power cut between the two left a whole file and no doubt
            self.mark_behind()
            try:
                self._write_whole(records)
            except OSError as exc:
                unrepaired = exc
            else:
                try:  # the menu's "Resume (20:41)" says when the table last played, not when the companion restarted
                    os.utime(self.path, (mtime, mtime))
                except OSError as exc:
                    log.warning("the repaired journal keeps the time of its repair: %s", exc)
                try:
                    atomic_write_bytes(aside_path(self.path), raw)  # the file as the cut left it, for a bug report
                except OSError as exc:
                    log.warning("the cut journal could not be kept beside the repaired one: %s", exc)
        if header_only:
            # cut before the game's setup was written (or at the file's first byte): no game was ever on screen
            try:
                self.archive()
            except OSError as exc:  # a card refusing the move: still no game to offer
                log.warning("an empty saved game stays in place: %s", exc)
            return None
        if "game" not in records[0]:
            aside = self.set_aside()
            raise JournalError(f"The saved game has no header; it was kept as {aside}. Start a new game.", aside)
        if not replay(records[1:])[0]:
            aside = self.set_aside()
            raise JournalError(f"The saved game has no setup; it was kept as {aside}. Start a new game.", aside)
        return self._saved(records, played_at, torn, unrepaired, journal=None if torn else raw)

    def cut_back_before(self, step: int) -> SavedGame:
        """The game as it stood before its step ``step`` (1: the first after the setup), which this version's
        engine refuses: a line that reads but is no step of this game (another version's, a card's flipped bytes
        that still make JSON). It costs the steps from that line on, as a line that cannot be read does
        (``_cut_back``), not the evening. Raises JournalError where the journal holds no such step (the file
        changed since it was loaded), OSError where it cannot be read."""
        self.flush_snapshot()
        raw = self.path.read_bytes()
        played_at = self.path.stat().st_mtime
        body = raw.split(b"\n")[:-1]
        records, damaged_at = read_records(body)  # (a last line cut short, or a damaged one, as ``load``)
        if damaged_at and (past := _past_the_damage(records, body[damaged_at - 1:],
                                                    self._snapshot_count(len(body)))) is not None:
            # the card refused to write whole the game ``load`` told past the damaged line: its steps, as offered
            records, damaged_at = _as_rewritten(records[0], *past), 0
        standing = _replay(records[1:])[3]
        if not 1 <= step < len(standing):
            raise JournalError(f"The saved game has no step {step} to go back before.")
        refused = standing[step] + 1  # its index in ``records`` (``standing`` counts from the line after the header)
        lost = None if damaged_at else _steps_lost(records[refused + 1:])
        return self._cut_back(records[:refused], refused + 1, played_at, lost)

    def _cut_back(self, records: list[dict[str, Any]], damaged_at: int, played_at: float,
                  lost: int | None) -> SavedGame:
        """The game as it stood before line ``damaged_at``, which cannot be read (``records``: the lines before it,
        the setup among them). The journal is written whole with them, the damaged file kept aside by the same
        write (a power cut leaves the old file or the new one, and the kept one beside either); the mark goes first,
        so that no file cut back is ever found without it. The snapshot goes aside too: it shows, and counts the
        lines of, a game the journal no longer holds, and said "finished" of an end that may be gone. ``lost``: the
        moves that costs, where known."""
        log.warning("a saved game's line %d cannot be read or replayed; it goes back to the %d lines before it",
                    damaged_at, damaged_at - 1)
        self.mark_damaged(lost)
        unrepaired = self._write_repaired(records, played_at)
        return self._saved(records, played_at, True, unrepaired, damaged=True, lost=lost)

    def _rebuilt(self, header: dict[str, Any], past: tuple[list[dict[str, Any]], list[tuple[int, dict[str, Any]]],
                                                            list[dict[str, Any]]],
                 damaged_at: int, played_at: float) -> SavedGame:
        """The game as the table left it, though line ``damaged_at`` cannot be read: the lines after it tell it
        (``_past_the_damage``). The journal is written whole as a rewrite writes it (the steps standing, the examples
        taught, the steps taken back), the damaged file and the snapshot kept aside as by a cut back; the mark of
        doubt goes first, for the resume to ask the table to check however often the menu loads it first."""
        log.warning("a saved game's line %d cannot be read; the lines after it took back what it held", damaged_at)
        records = _as_rewritten(header, *past)
        self.mark_rebuilt()
        unrepaired = self._write_repaired(records, played_at)
        return self._saved(records, played_at, True, unrepaired)

    def _write_repaired(self, records: list[dict[str, Any]], played_at: float) -> OSError | None:
        """Write the journal whole with ``records``, the damaged file kept aside by the same write (a power cut
        leaves the old file or the new one, and the kept one beside either), and the snapshot kept aside too: it
        shows, and counts the lines of, a file the journal no longer is, and said "finished" of an end that may be
        gone. Returns why the card refused the write (the game is then offered from memory and written whole at
        its next step), None once written."""
        try:
            replace_keeping_aside(self.path, _text(records).encode("utf-8"))
        except OSError as exc:  # a card full or gone read-only
            return exc
        if self.snapshot_path.exists():
            keep_aside_where_possible(self.snapshot_path)
        try:  # the menu's "Resume (20:41)" says when the table last played, not when the companion restarted
            os.utime(self.path, (played_at, played_at))
        except OSError as exc:
            log.warning("the journal repaired keeps the time of its repair: %s", exc)
        return None

    def _snapshot_count(self, lines: int) -> int | None:
        """The steps standing the snapshot counts, where it was written after the journal's last line (it counts
        ``lines`` lines, the damaged one among them); None where there is none, or it is older or newer (a line
        lost, or two run together where a newline's byte was damaged)."""
        try:
            snapshot = json.loads(self.snapshot_path.read_text(encoding="utf-8"))
        except (ValueError, OSError):
            return None
        if not isinstance(snapshot, dict) or snapshot.get("lines") != lines or type(snapshot.get("count")) is not int:
            return None
        return snapshot["count"]

    def _saved(self, records: list[dict[str, Any]], played_at: float, torn: bool, unrepaired: OSError | None,
               damaged: bool = False, lost: int | None = None, journal: bytes | None = None) -> SavedGame:
        """The game ``records`` hold (header first, the setup among them), and what its snapshot and marks say.
        ``torn``: its last line was cut short; ``damaged``: it was cut back to the lines before a damaged one now
        (later loads find the mark ``mark_damaged`` left); ``journal``: the file's bytes, where ``records`` are all
        of them (nothing repaired), for the snapshot's state to be taken where it is sealed to them."""
        actions, learned, undone = replay(records[1:])
        if not damaged:
            damaged, lost = self._damage_mark()
        finished = False
        state = checkpoint = None
        # the step being written when the power went (maybe one the table saw done: a full card), or steps the
        # card refused before the power went
        doubt = torn or self.behind_path.exists()
        if self.snapshot_path.exists():
            try:
                snapshot = json.loads(self.snapshot_path.read_text(encoding="utf-8"))
                if not isinstance(snapshot, dict):
                    raise ValueError("not an object")
                lines = snapshot.get("lines")
                if isinstance(lines, int):
                    # more lines than the journal has: the card lost lines after the snapshot was written; fewer:
                    # the snapshot's write was refused after them, and what it says is older than the journal
                    doubt = doubt or lines > len(records)
                    current = lines == len(records)
                else:  # an older version's snapshot, written after every step that was written at all
                    count = snapshot.get("count")
                    doubt = doubt or (isinstance(count, int) and count != len(actions))
                    current = True
                # "no" is not a finished game; nor one whose end the journal undid after it (the undo written, the
                # power gone before the snapshot was): the snapshot counts the steps it shows; nor a game cut back
                # to the lines before a damaged one (its snapshot left where the card refused to move it aside): the
                # end it shows may be among the lines gone
                finished = snapshot.get("finished") is True and snapshot.get("count") == len(actions) and current \
                    and not damaged
                if journal is not None and snapshot.get("count") == len(actions) and not damaged:
                    state, checkpoint = _sealed_state(snapshot, journal)
            except (ValueError, OSError):
                keep_aside_where_possible(self.snapshot_path)  # a card gone read-only keeps it: the game is offered
        unnamed = records[0].get("unnamed")
        if not isinstance(unnamed, list) or not all(isinstance(name, str) for name in unnamed):
            unnamed = None
        return SavedGame(records[0]["game"], actions, played_at, finished, learned, unrepaired,
                         undone, doubt or damaged, damaged, lost, unnamed, not damaged and self._marked_rebuilt(),
                         state, checkpoint)

    def set_aside(self) -> str:
        """Keep this game's files aside (a journal that cannot be read or replayed): it is not offered again, and its
        snapshot, the state it last showed, is not overwritten by the next game. Returns the journal's new name."""
        self.flush_snapshot()
        aside = keep_aside_where_possible(self.path) if self.path.exists() else ""
        if self.snapshot_path.exists():
            keep_aside_where_possible(self.snapshot_path)
        self.clear_behind()  # of the game set aside, not of the next one
        return aside

    def snapshot_state(self) -> dict[str, Any] | None:
        self.flush_snapshot()
        try:
            return json.loads(self.snapshot_path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return None
        except (ValueError, OSError):
            keep_aside_where_possible(self.snapshot_path)
            return None


def _sealed_state(snapshot: dict[str, Any], journal: bytes
                  ) -> tuple[dict[str, Any] | None, tuple[int, dict[str, Any]] | None]:
    """The snapshot's state and its checkpoint (``SavedGame.checkpoint``, None where it holds none) where its seal
    holds for ``journal`` (the file's bytes) and these engines (``_seal``), else None and None."""
    state, seal, code = snapshot.get("state"), snapshot.get("seal"), engine_code()
    if not isinstance(state, dict) or not isinstance(seal, str) or code is None:
        return None, None
    count, kept = snapshot.get("checkpoint"), snapshot.get("checkpoint_state")
    checkpoint = (count, kept) if type(count) is int and isinstance(kept, dict) \
        and 1 <= count < snapshot.get("count", 0) else None
    parts = () if checkpoint is None else (str(count), json.dumps(kept, ensure_ascii=False))
    if _seal(code, journal, json.dumps(state, ensure_ascii=False), *parts) != seal:
        return None, None
    return state, checkpoint


def last_played(records: Sequence[dict[str, Any]], mtime: float) -> float:
    """When the table last played a game (its resume's time, its result's at the start, this evening's wins in
    ``tonight``): its journal's time (``mtime``), or its last step's own "at" where that step has one (a timer's, a
    Fritzo building's) and it is earlier: a copy without ``cp -a`` gives the file the copy's time, and a game
    finished last month was shown again at the start as the evening's last result, its wins counted as tonight's.
    Never the header's "at" (the game's start, hours before its end), nor an earlier step's (steps after it were
    played later); nor an "at" later than the file (a clock set back since: the file's time is the truer)."""
    last = records[-1].get("action") if len(records) > 1 else None
    at = last.get("at") if isinstance(last, dict) else None
    if is_time(at) and 0 < at < mtime:
        return float(at)
    return mtime


def is_time(value: Any) -> bool:
    """``value`` is a time the journal or a stamp beside it wrote (a number; JSON's true is no time)."""
    return isinstance(value, int | float) and not isinstance(value, bool)


def _order(match: re.Match[str]) -> tuple[int, int, int]:
    """An archived game's name as it sorts: its date, its time, then its number (``_ARCHIVED``)."""
    return int(match.group(1)), int(match.group(2)), int(match.group(3) or 0)


def archived_in_order(names: Iterable[str]) -> list[str]:
    """The names of a history's folders that are archived games (as ``archive`` names them: not a game being
    removed, ``_GOING``), in the order the games went there, the oldest first: "20261207-201455-1" after
    "20261207-201455", "-10" after "-9". The history's trimming and this evening's wins (``tonight``) read it so."""
    games = [(match, name) for name in names if (match := _ARCHIVED.fullmatch(name))]
    games.sort(key=lambda g: _order(g[0]))
    return [name for _, name in games]


def archive_name(stamp: str, names: Iterable[str]) -> str:
    """The name of the next game put away at the wall clock's ``stamp`` ("20261207-201455") into a history holding
    ``names``: the stamp where it sorts after every game there, else the newest game's time with the next number
    ("-1", "-2": games put away in the same second too). Named by the clock alone, a game put away after the clock
    went back (a power cut's restart on fake-hwclock's last save; a Pi without a clock battery on 1970 until the
    network's time comes) sorted before the games it followed, and a full history's trim (oldest by name) removed
    the newest game at the next archive. Neither the folders' times (the same wall clock) nor ``ENDED``'s boot and
    time since it (which order one boot's games, not the boots) tell the order then; the name keeps it."""
    newest = max((match for name in names if (match := _ARCHIVED.fullmatch(name))), key=_order, default=None)
    now = _ARCHIVED.fullmatch(stamp)
    if newest is None or (now is not None and _order(newest) < _order(now)):
        return stamp
    return f"{newest.group(1)}-{newest.group(2)}-{int(newest.group(3) or 0) + 1}"


def _header(game: str, unnamed: Sequence[str] | None) -> dict[str, Any]:
    """A game's first line: which game, when, and the seats the companion named (``SavedGame.unnamed``)."""
    header: dict[str, Any] = {"game": game, "at": time.time()}
    if unnamed is not None:
        header["unnamed"] = list(unnamed)
    return header


def _as_rewritten(header: dict[str, Any], actions: Sequence[dict[str, Any]],
                  learned: Sequence[tuple[int, dict[str, Any]]], taken_back: Sequence[dict[str, Any]]
                  ) -> list[dict[str, Any]]:
    """The records of a game written whole (``Journal.rewrite``): no undo among them, the steps undos took back as
    ``{"taken_back": ...}``, which replay as the game did."""
    return [header, *({"action": a} for a in actions),
            *({"learned": example, "steps": steps} for steps, example in learned),
            *({"taken_back": a} for a in taken_back)]


def _text(records: Sequence[dict[str, Any]]) -> str:
    """The journal's lines for ``records``, as a file written whole holds them."""
    return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records)
