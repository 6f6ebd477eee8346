"""A game in progress at the table: the engine, its journal, and the announcer, kept in step.

Views never touch the journal or the engine's state directly: they call ``apply`` with a table action and read
``engine``. That single path is what makes resume after a power cut and undo exact.
"""

from __future__ import annotations

import copy
import json
import logging
import random
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any

from companion.announce import Announcement
from companion.errors import CompanionError, JournalError
from companion.games.base import Engine, GameError
from companion.i18n import LANGUAGES, t
from companion.journal import Journal, JournalGone, SavedGame
from companion.names import name_key
from vision.types import DiePicture, DieReading, TrayReading

log = logging.getLogger(__name__)

#: announcements remembered for an undo, or the step answering their call, to withdraw (more than any step makes,
#: and a queue holds)
SAID_KEPT = 40
#: an engine's copy kept every this many actions (``rebuild``): an undo replays from the latest one, not from the
#: setup (a held UNDO 300 steps into Echt Spitze replayed the whole game at every step, ~95 ms on a Pi)
CHECKPOINT_EVERY = 25

AnnounceFn = Callable[[Announcement], None]
#: an example a player's answer taught, as the journal keeps it (JSON): enough for the app to find it again in the
#: dice set's profile and take it back, also after a restart
Example = dict[str, Any]


class GameSession:
    def __init__(
        self,
        engine_cls: type[Engine],
        engine: Engine,
        actions: list[dict[str, Any]],
        journal: Journal,
        *,
        lang: str = "de",
        announce: AnnounceFn | None = None,
        wall_clock: Callable[[], float] = time.time,
        rng: random.Random | None = None,
        announcer: Any = None,
        config: Any = None,
    ) -> None:
        self.engine_cls = engine_cls
        self.engine = engine
        self.actions = actions
        self.journal = journal
        self.lang = lang
        self._announce = announce or (lambda a: None)
        self.wall_time = wall_clock
        self.rng = rng or random.Random()
        #: the app's Announcer (views may draw its banner or ask what is showing); None in headless use
        self.announcer = announcer
        #: the effective Config (views read their game's section, e.g. symbol meanings); None in tests
        self.config = config
        #: the latest dice reading from the camera for this game's dice set (None: no camera, use virtual dice)
        self.latest_reading: TrayReading | None = None
        #: the refusals so far (``error`` set): the app says each new one, the same words again too
        self.refusals = 0
        self._error: str | None = None
        #: True when the camera reads this game's dice (the app then delivers readings to ``on_dice`` after
        #: ROLL); False when the table has no camera or the dice set is not taught: views roll virtual dice.
        self.camera_ready = False
        #: set by the app when the camera reads a taught set: stores a player's answer for an unsure die as a new
        #: example (the reader gets better during the evening). Called with (die index in latest_reading, face);
        #: returns the Example it kept (None when none was kept).
        self.learn: Callable[[int, Any], Example | None] | None = None
        #: set by the app: takes an Example back out of its profile
        self.unlearn: Callable[[Example], None] | None = None
        #: set by the app: die ``index`` of ``latest_reading`` as the camera saw it (``DiePicture``), for a question
        #: about it to show which die is meant; None when that picture is gone (the dice lay still again since)
        self.die_picture: Callable[[int], DiePicture | None] | None = None
        #: set by the app: asks the camera for a reading of the dice the table throws now. A view going to wait for
        #: the dice calls it (``ask_for_dice``), so that a roll tapped on the touch screen is read as ROLL's is
        self.want_dice: Callable[[], None] | None = None
        #: set by the app: whether the dice are read from the built-in tray of a table without a camera, which
        #: ROLL throws, so that a screen asks for ROLL, not for a throw into a tray nobody has. Asked each time,
        #: since a camera plugged in later takes the tray's place (None: no app, no tray)
        self.on_built_in_tray: Callable[[], bool] | None = None
        #: set by the app: its ``views.frame_clock.FrameClock`` for the run, which a game's screen built again reads on
        #: from (None: the screen keeps its own)
        self.frame_clock: Any = None
        #: the examples learned from answers, each with the number of steps then, and the reading and die it was
        #: in (None and -1 for one from before a restart): what an undo of the step that used it takes back. The
        #: journal keeps them too, so that an undo after a power cut takes back a slip taught before it.
        self._learned: list[tuple[int, TrayReading | None, int, Example]] = []
        #: what the step the last undo took back had said (the screen names it: "One step undone" left the table
        #: guessing which); empty where it said nothing
        self.undone_said: list[Announcement] = []
        #: undos so far: a screen's menus belong to the game as it stood (the engine's id() could be reused)
        self.undos = 0
        #: why the last step could not be written (the disk's error), None while every step is saved
        self.unsaved: OSError | None = None
        #: the steps undos took back, this evening's and the saved game's (``SavedGame.undone``): a restart must not
        #: stamp again a "time's up" the table took back (``views.frame_clock.undone_for_this_run``)
        self.taken_back: list[dict[str, Any]] = []
        self._started = True  # whether the journal has this game's header (False only while a new game's is not)
        #: the journal must be written whole at the next step (its seats were renamed at the resume)
        self._whole = False
        #: the latest steps' announcements, each with the number of steps it was made at: an undo withdraws those
        #: of the step it takes back from the announcer's queue, a step those whose call it answers (``until``)
        self._said: list[tuple[int, Announcement]] = []
        #: the seats the companion named itself ("Player 2"), which the journal's header records for a resume in
        #: another language to name anew (``seats_in``); None for a game resumed from a journal without the record
        self.unnamed: list[str] | None = []
        #: the engine as it stood after so many actions, every ``CHECKPOINT_EVERY`` (``rebuild``), for an undo
        self._checkpoints: dict[int, Engine] = {}
        #: the latest checkpoint the snapshot keeps, with its state's text: written with every step's snapshot, made
        #: once (a checkpoint is never changed)
        self._checkpoint_text: tuple[int, Engine, str] | None = None

    def picture_of(self, index: int) -> DiePicture | None:
        """``die_picture`` where the app set it (None without a camera)."""
        return self.die_picture(index) if self.die_picture is not None else None

    def built_in_tray(self) -> bool:
        """``on_built_in_tray`` where the app set it: the dice read are the built-in tray's, thrown by ROLL."""
        return self.on_built_in_tray is not None and self.on_built_in_tray()

    def ask_for_dice(self) -> None:
        """The view now waits for the camera's reading of a throw (``camera_ready``)."""
        if self.want_dice is not None:
            self.want_dice()

    # -- starting --------------------------------------------------------------------------------------------
    @classmethod
    def new(cls, engine_cls: type[Engine], setup: dict[str, Any], journal: Journal, *,
            unnamed: Sequence[str] = (), **kw: Any) -> GameSession:
        """``unnamed``: the setup's seats the companion named itself (``app.unnamed_seats``), recorded where the setup
        names players (a game without them keeps the header it had)."""
        engine = engine_cls.new(setup)  # GameError here: nothing written yet
        session = cls(engine_cls, engine, [setup], journal, **kw)
        session.unnamed = list(unnamed) if isinstance(setup.get("players"), list) else None
        session._started = False
        session._persist(session._start)
        opening = opening_announcements(engine)
        for a in opening:
            session._announce(a)
        # a call among them ("Anna starts: roll all the dice!") is answered by the first step, as any step's
        session._said = [(len(session.actions), a) for a in opening][-SAID_KEPT:]
        return session

    @classmethod
    def resume(cls, engine_cls: type[Engine], saved: SavedGame, journal: Journal, **kw: Any) -> GameSession:
        """The saved game, its unnamed seats ("Player 2") named in the table's language now (``seats_in``).

        The engine is the snapshot's state where it is sealed to the journal (``SavedGame.state``): a replay of every
        step took 0.03-0.7 s here at 300 steps (Haste Worte the longest; Fritzo 0.2-0.4 s at 28), 3-4 times that on
        a Pi, at every resume, also back from the menu. Seats named anew replay (the state names them otherwise). The
        snapshot's checkpoint (``SavedGame.checkpoint``) is the undos' copy: the first undo replays the steps since it,
        not the whole game (an undo below it replays from the setup and keeps the copies it passes, ``rebuild``)."""
        renamed = seats_in(saved.actions, kw.get("lang", "de"), saved.unnamed)
        checkpoints: dict[int, Engine] = {}
        engine = _from_state(engine_cls, saved.state) if saved.state is not None and not renamed else None
        if engine is not None and saved.checkpoint is not None:
            steps, state = saved.checkpoint
            if (kept := _from_state(engine_cls, state)) is not None:
                checkpoints[steps] = kept
        if engine is None:
            engine = rebuild(engine_cls, [rename(a, renamed) for a in saved.actions], checkpoints)
        session = cls(engine_cls, engine, [rename(a, renamed) for a in saved.actions], journal, **kw)
        session._checkpoints = checkpoints
        session._learned = [(steps, None, -1, example) for steps, example in saved.learned]
        # the file ends in half a line, or holds a damaged one, the card refusing the repair: the first step writes
        # the game whole
        session.unsaved = saved.unrepaired
        # seats renamed: the first step writes the game whole in these words, for the journal never to name one seat
        # in two languages (a step appended as "Spieler 2" after a setup of "Player 2" would not replay)
        session._whole = bool(renamed)
        session.taken_back = [rename(a, renamed) for a in saved.undone]
        session.unnamed = None if saved.unnamed is None else [renamed.get(p, p) for p in saved.unnamed]
        return session

    @property
    def error(self) -> str | None:
        """The last rejected action's message, shown by the app until replaced."""
        return self._error

    @error.setter
    def error(self, words: str | None) -> None:
        self._error = words
        if words is not None:  # a move refused again is refused again: a player by ear must hear it each time
            self.refusals += 1

    # -- playing ---------------------------------------------------------------------------------------------
    def apply(self, action: dict[str, Any]) -> bool:
        """Apply, journal, then announce. A rule violation is shown to the table and changes nothing."""
        try:
            announcements = self.engine.apply(action)
        except GameError as exc:
            self.error = exc.localized(self.lang)
            return False
        self.error = None
        self.actions.append(action)
        if len(self.actions) % CHECKPOINT_EVERY == 0:
            self._checkpoints[len(self.actions)] = copy.deepcopy(self.engine)
        self._persist(lambda: self.journal.record(action))
        if self.engine.finished:  # the game's last words (who won): heard however far behind the voice is
            announcements = [replace(a, essential=True) for a in announcements]
        # the calls this step answered (an essential sentence is never one: it is heard however late)
        answered = [a for _, a in self._said if action.get("action") in a.until and not a.essential]
        if answered and self.announcer is not None:
            self.announcer.withdraw(answered)
        for a in announcements:
            self._announce(a)
        self._said = [*self._said, *((len(self.actions), a) for a in announcements)][-SAID_KEPT:]
        return True

    def undo(self) -> bool:
        """Step back one action (never past the setup), journaled so that it survives a restart."""
        if len(self.actions) <= 1:
            return False
        self.engine = rebuild(self.engine_cls, self.actions[:-1], self._checkpoints)
        self.taken_back.append(self.actions.pop())
        self._checkpoints = {n: e for n, e in self._checkpoints.items() if n <= len(self.actions)}
        self.undos += 1
        self.error = None
        # the answers given for that step (the journal's undo stands for their taking back): before the journal
        # is written, for a game written whole there (after a failed write) takes the answers that still stand
        self._forget(lambda steps, reading, die: steps >= len(self.actions))
        self._persist(self.journal.record_undo)
        # what the undone step announced and the table has not yet heard through is taken back with it
        undone = [a for steps, a in self._said if steps > len(self.actions)]
        self._said = [(steps, a) for steps, a in self._said if steps <= len(self.actions)]
        self.undone_said = undone
        if undone and self.announcer is not None:
            self.announcer.withdraw(undone)
        return True

    # -- saving ----------------------------------------------------------------------------------------------
    def _start(self) -> None:
        self.journal.start(self.engine_cls.name, self.actions[0], self.unnamed)
        self._started = True

    def _persist(self, write: Callable[[], None]) -> None:
        """Write one step. A disk that refuses (full, or an SD card gone read-only) must not end the evening: the
        game goes on in memory, ``unsaved`` says why for the screen, and the next step that can be written writes
        the whole game, since the file on disk misses a step.

        Only the journal's refusal makes the game unsaved. The snapshot needs a new file, more room than an append:
        on a nearly full card it fails where the append did not, and taking that for a game unsaved wrote every
        later step (undos too) as a whole new file, which failed as well: a power cut then lost every step since,
        and brought back a step the table had undone."""
        whole = self.unsaved is not None or self._whole
        try:
            if not whole:
                try:
                    write()
                except JournalGone as exc:  # removed under the game: a new file of this step alone read "damaged"
                    log.warning("%s: the game is written whole again", exc)
                    whole = True
            if whole:
                if not self._started:
                    self._start()  # an unfinished game still there goes to the history first, as at any start
                self.journal.rewrite(self.engine_cls.name, self.actions, [(s, e) for s, _, _, e in self._learned],
                                     self.taken_back, self.unnamed)
        except OSError as exc:
            if self.unsaved is None:
                self.journal.mark_behind()
            self.unsaved = exc
            log.warning("the game cannot be saved: %s", exc)
            return
        self.unsaved = None
        self._whole = False
        self.journal.clear_behind()
        try:
            self.journal.save_snapshot(self.engine, len(self.actions), self._snapshot_checkpoint())
        except OSError as exc:  # the journal holds the step: the game is saved, and the next step is appended
            log.warning("the snapshot cannot be written (the journal holds the game): %s", exc)
            self.journal.drop_snapshot()

    def _snapshot_checkpoint(self) -> tuple[int, str] | None:
        """The latest checkpoint before the step standing (the next undo's state is after it), with its state's text,
        for the snapshot to keep (``SavedGame.checkpoint``); None where there is none."""
        steps = max((n for n in self._checkpoints if n < len(self.actions)), default=None)
        if steps is None:
            return None
        engine = self._checkpoints[steps]
        cached = self._checkpoint_text
        if cached is None or cached[0] != steps or cached[1] is not engine:
            self._checkpoint_text = (steps, engine, json.dumps(engine.to_json(), ensure_ascii=False))
        return steps, self._checkpoint_text[2]

    @property
    def can_undo(self) -> bool:
        return len(self.actions) > 1

    def guess(self, index: int) -> Any:
        """The reader's guess for die ``index`` of the latest reading (``DieReading.guess``): the face a question
        about that unsure die offers first; None without one."""
        die = self._latest_die(index)
        return None if die is None else die.guess

    def _latest_die(self, index: int) -> DieReading | None:
        """Die ``index`` of the latest reading, which the views' pending faces are indexed by; None if none."""
        reading = self.latest_reading
        return reading.dice[index] if reading is not None and 0 <= index < len(reading.dice) else None

    def confirm_face(self, index: int, face: Any) -> None:
        """A player said what a die shows (an unsure one, or one read wrongly and corrected on the screen): keep it
        as an example of that face for the rest of the evening.

        Harmless without a camera reading or a taught set; a failure to store it never interrupts the game.
        The same die of the same reading answered again was a slip: before its step (an unsure die answered twice)
        or after it (the roll's die corrected, or corrected once more): the first answer's example is taken back,
        as the undo of a step takes back the examples of the answers it used.
        """
        reading = self.latest_reading
        if self.learn is None or self._latest_die(index) is None:
            return
        steps = len(self.actions)
        for slip in self._forget(lambda s, r, d: r is reading and d == index):
            self._persist(partial(self.journal.record_unlearned, slip))
        try:
            example = self.learn(index, face)
        except CompanionError as exc:
            self.error = str(exc)
            return
        if example is not None:
            self._learned.append((steps, reading, index, example))
            self._persist(partial(self.journal.record_learned, steps, example))

    def drop_answers(self) -> None:
        """The reading whose unsure dice were answered is put aside unused (thrown again, discarded): the answers
        are taken back. A slip among them taught a die that never counted, and the camera read that die so from
        then on, sure; an undo, or the same die answered again, already took such a slip back."""
        for slip in self._forget(lambda steps, reading, die: steps >= len(self.actions)):
            self._persist(partial(self.journal.record_unlearned, slip))

    def _forget(self, which: Callable[[int, TrayReading | None, int], bool]) -> list[Example]:
        """Take back the learned examples ``which`` picks (by steps then, reading, die); returns them."""
        keep, gone = [], []
        for entry in self._learned:
            steps, reading, die, example = entry
            if not which(steps, reading, die):
                keep.append(entry)
                continue
            gone.append(example)
            try:
                if self.unlearn is not None:
                    self.unlearn(example)
            except CompanionError as exc:
                self.error = str(exc)
        self._learned = keep
        return gone

    def virtual_roll(self, faces_per_die: Sequence[Sequence[Any]]) -> list[Any]:
        """Roll virtual dice when the table has no camera; the faces then go into an action like read dice."""
        return [self.rng.choice(list(faces)) for faces in faces_per_die]

    def finish(self) -> None:
        """Move a finished game to the history so the next start does not offer to resume it."""
        try:
            self.journal.archive()
        except OSError as exc:  # the next game's start moves it along, or says why it cannot
            log.warning("the finished game stays in place: %s", exc)


@dataclass(frozen=True)
class ReadRoll:
    """Where the dice of a roll entered from a camera reading lie in that reading, for a die the table corrects
    later (read wrongly but for sure) to be taught from the picture it was read in, as an unsure die's answer is.

    ``confirm_face`` takes a die's index in the latest reading; a game keeps a roll in its own order (Noch X-Mal!:
    colour dice first; Echt Spitze's re-roll: only the middle dice), so the view records the mapping when it enters
    the roll. It holds only while that reading is still the latest (a die taken out of the tray and the rest read
    again: another picture) and the roll's step is still in the game (an undo took it back: another roll)."""

    #: the roll's action as the session applied it: compared by identity, an equal roll read again is another
    action: dict[str, Any]
    reading: TrayReading
    #: die index in the game's roll -> die index in ``reading``
    at: dict[int, int] = field(default_factory=dict)

    def index(self, session: GameSession, die: int) -> int | None:
        """Die ``die`` of the game's roll in ``session.latest_reading``; None where it cannot be taught from it."""
        if session.latest_reading is not self.reading or not any(a is self.action for a in session.actions):
            return None
        return self.at.get(die)


def opening_announcements(engine: Engine) -> list[Announcement]:
    """What a game says as it begins (which dice go back in the box, who starts): optional for an engine."""
    return list(getattr(engine, "opening_announcements", None) or [])


class StepRefused(JournalError):
    """The engine refuses step ``step`` of a saved game (its setup is step 0): the game as it stood before that step
    can still be played (``Journal.cut_back_before``)."""

    def __init__(self, message: str, step: int) -> None:
        super().__init__(message)
        self.step = step


def _from_state(engine_cls: type[Engine], state: dict[str, Any]) -> Engine | None:
    """The engine a sealed snapshot's state makes; None where the engine cannot take it (then the game replays). A
    copy: an engine may keep the state's lists as its own and change them, and ``saved`` may be resumed again."""
    try:
        return engine_cls.from_json(copy.deepcopy(state))
    except Exception:  # noqa: BLE001 - a state this engine cannot read: the replay tells the game, as without it
        log.warning("the snapshot's state cannot be read; the game is replayed", exc_info=True)
        return None


def rebuild(engine_cls: type[Engine], actions: list[dict[str, Any]],
            checkpoints: dict[int, Engine] | None = None) -> Engine:
    """Replay actions into a new engine; a journal that the engine rejects is reported, not half-applied: a setup it
    refuses as JournalError, a step after it as StepRefused.

    ``checkpoints``: the engine as it stood after so many of these actions (a copy every ``CHECKPOINT_EVERY``): the
    replay starts from a copy of the latest one within ``actions`` and keeps those it passes. An engine is
    deterministic, so a copy of it is the game the replay from the setup would have made."""
    kept = checkpoints if checkpoints is not None else {}
    done = max((n for n in kept if n <= len(actions)), default=0)
    step = done - 1 if done else 0  # the action being applied: the setup, then each step
    try:
        engine = copy.deepcopy(kept[done]) if done else engine_cls.new(actions[0])
        for action in actions[max(done, 1):]:
            step += 1
            engine.apply(action)
            if checkpoints is not None and (step + 1) % CHECKPOINT_EVERY == 0:
                checkpoints[step + 1] = copy.deepcopy(engine)
    except Exception as exc:  # noqa: BLE001 - an action this version's engine cannot take: not a crash at start
        why = exc if isinstance(exc, GameError) else type(exc).__name__
        message = f"The saved game cannot be replayed ({why}); start a new game."
        raise (StepRefused(message, step) if step else JournalError(message)) from None
    return engine


def seat_number(name: str) -> int | None:
    """The seat an unnamed seat's name numbers ("Player 2", "Spieler 2": 2) in any of the catalogs' languages;
    None for a player's name. The setup gives a game for more players than the config names such seats
    (``app.players_steps``), and the journal keeps them as words."""
    for lang in LANGUAGES:
        if match := _seat_pattern(lang).fullmatch(name):
            return int(match.group(1))
    return None


def _seat_pattern(lang: str) -> re.Pattern[str]:
    words = t("core.seat_name", lang, n="\0")
    return re.compile(re.escape(words).replace("\0", "([1-9][0-9]?)"))


def seats_in(actions: Sequence[dict[str, Any]], lang: str, unnamed: Sequence[str] | None = None) -> dict[str, str]:
    """The unnamed seats of a saved game's setup (``actions[0]``) that ``lang`` names otherwise, each with its name
    in ``lang``: a German game resumed after the switch to English said "Spieler 2" on every screen and in every
    sentence. Empty where a new name would be some other player's (a family that named a player "Spieler 2"
    in an English game with a "Player 2"): the names stay as they were.

    ``unnamed``: the seats the companion named (the journal's header records them); a player the family called
    "Player 2" is no such seat and keeps the name. None (a journal from before the record): every name that reads
    as a seat's."""
    players = actions[0].get("players") if actions else None
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        return {}
    renamed = {p: t("core.seat_name", lang, n=n) for p in players
               if (unnamed is None or p in unnamed) and (n := seat_number(p)) is not None}
    renamed = {old: new for old, new in renamed.items() if old != new}
    names = [name_key(renamed.get(p, p)) for p in players]
    return renamed if len(set(names)) == len(names) else {}


def rename(value: Any, renamed: dict[str, str]) -> Any:
    """``value`` (an action, or any JSON value in it) with each name ``renamed`` holds replaced: the steps name
    players ("player": "Player 2") as the setup does, and must name them as it does to replay."""
    if not renamed:
        return value
    if isinstance(value, str):
        return renamed.get(value, value)
    if isinstance(value, list):
        return [rename(v, renamed) for v in value]
    if isinstance(value, dict):
        return {rename(k, renamed): rename(v, renamed) for k, v in value.items()}
    return value
