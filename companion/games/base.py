"""The contract every game engine keeps, and headless play of table transcripts.

An engine is pure: typed state, ``apply(action) -> announcements``, JSON round-trip. It knows no screen, camera
or clock (times arrive inside actions, stamped by the app), and draws randomness only from a seed kept in its state.
Actions are plain JSON objects with an ``"action"`` key; they are what the journal stores and what a table
transcript holds, so headless play, resume after a power cut and undo all replay the same actions.
"""

from __future__ import annotations

import copy
import dataclasses
import json
import re
from collections.abc import Iterable
from typing import Any, ClassVar, Protocol, Self, TextIO

from companion.announce import Announcement
from companion.errors import CompanionError
from companion.i18n import MissingTranslation, join_names, t

#: what no step changes in place: shared by a state's copy (``state_copy``); enums are words and numbers
_ATOMS = (str, int, float, type(None))


def state_copy(state: Any, memo: dict[int, Any], shared: tuple[type, ...] = ()) -> Any:
    """A copy of a game's state (a dataclass) for a step to change, as ``copy.deepcopy`` made it, for its
    ``__deepcopy__``: each of its dicts, lists and dataclasses (not frozen) new, all the way down, and what no step
    changes in place shared: words, numbers, enums, tuples of them (cells), and the frozen types a game names in
    ``shared``; anything else deep-copied. ``copy.deepcopy`` walked each word and number of it at every step (a
    step's copy and a checkpoint's; 0.06-1 ms of a late Fritzo or Echt Spitze step here).

    For a state that is a tree, as every engine's is: it round-trips through JSON (a resume from the snapshot makes
    the game a replay makes), where no two places hold one list, so no step may rely on two places sharing one."""
    new = object.__new__(type(state))
    new.__dict__.update({name: _fresh(value, memo, shared) for name, value in vars(state).items()})
    return new


def _fresh(value: Any, memo: dict[int, Any], shared: tuple[type, ...]) -> Any:
    """``value`` within a state, for ``state_copy``."""
    if isinstance(value, _ATOMS) or isinstance(value, shared):
        return value
    if isinstance(value, dict):
        return {key: _fresh(item, memo, shared) for key, item in value.items()}  # (keys: words, numbers, cells)
    if isinstance(value, list):
        return [_fresh(item, memo, shared) for item in value]
    if type(value) is tuple and all(isinstance(item, _ATOMS) for item in value):
        return value
    if dataclasses.is_dataclass(value) and not type(value).__dataclass_params__.frozen \
            and hasattr(value, "__dict__") and not hasattr(value, "__deepcopy__"):
        return state_copy(value, memo, shared)
    return copy.deepcopy(value, memo)


class GameError(CompanionError):
    """An action the rules do not allow, or malformed table input. The state is unchanged when it is raised.

    ``str(error)`` is the English message (logs, headless play); with ``key`` (an i18n catalog key) and its
    ``params`` the screen shows it in the table's language. Parameters are rendered for that language too: a
    parameter that is itself a catalog key (``nxm.face.red``) is translated, a list of names is joined
    ("Anna und Ben"), a nested error or announcement becomes its sentence.
    """

    def __init__(self, message: str, *, key: str | None = None, **params: Any) -> None:
        super().__init__(message)
        self.key = key
        self.params = params

    def localized(self, lang: str) -> str:
        if self.key is None:
            return str(self)
        try:
            return t(self.key, lang, **{k: self.render_param(k, v, lang) for k, v in self.params.items()})
        except (MissingTranslation, KeyError, IndexError):
            return str(self)

    text = localized

    def render_param(self, name: str, value: Any, lang: str) -> Any:
        """One parameter in ``lang``; games with their own kinds of parameter (symbol ids) extend this."""
        if isinstance(value, GameError):
            return value.localized(lang)
        if isinstance(value, Announcement):
            return value.text(lang)
        if isinstance(value, list):
            return join_names([str(self.render_param(name, v, lang)) for v in value], lang)
        if isinstance(value, str) and _CATALOG_KEY.match(value):
            try:
                return t(value, lang)
            except MissingTranslation:
                return value
        return value


class KeyedGameError(GameError):
    """A game error made from its catalog key alone: ``raise TakeError("echt.error.taken", player="Anna")``."""

    def __init__(self, key: str, **params: Any) -> None:
        super().__init__(key, key=key, **params)
        self.args = (self.localized("en"),)


_CATALOG_KEY = re.compile(r"^[a-z]+\.[A-Za-z0-9_.\-]+$")


class Engine(Protocol):
    #: the name used on the command line and in the journal, e.g. "haste-worte"
    name: ClassVar[str]

    @classmethod
    def new(cls, setup: dict[str, Any]) -> Self:
        """A new game from a setup action (players, level, variant, seed, ...). Raises GameError on bad setup."""
        ...

    def apply(self, action: dict[str, Any]) -> list[Announcement]:
        """Apply one table action; raise GameError (state unchanged) when the rules forbid it."""
        ...

    def to_json(self) -> dict[str, Any]: ...

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Self: ...

    @property
    def finished(self) -> bool: ...


def parse_transcript(lines: Iterable[str]) -> list[tuple[int, dict[str, Any]]]:
    """Read JSON lines (blank lines and ``#`` comments skipped) into (line number, action) pairs.

    A saved game's journal is accepted as it is, so an evening can be replayed for a bug report: its header is
    skipped, its ``{"action": {...}}`` records are unwrapped, each ``{"undo": true}`` takes back the latest action,
    and its records of dice examples taught (``learned``, ``unlearned``) and of steps taken back (``taken_back``,
    written when the game was written whole again): no step of the game, they are skipped.
    """
    actions: list[tuple[int, dict[str, Any]]] = []
    for number, raw in enumerate(lines, start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        try:
            record = json.loads(line, parse_constant=strict_json)
        except (ValueError, RecursionError) as exc:  # nested past Python's limit: no action is either
            why = exc.msg if isinstance(exc, json.JSONDecodeError) else str(exc)
            if isinstance(exc, RecursionError):
                why = "nested too deeply"
            raise GameError(f"line {number}: not valid JSON ({why}); each line must be one JSON object") from None
        if isinstance(record, dict) and "action" not in record and record.keys() & {"game", "learned", "unlearned",
                                                                                   "taken_back"}:
            continue  # a journal's header, or the dice examples a player's answers taught
        if isinstance(record, dict) and record.get("undo") is True:
            if len(actions) > 1:
                actions.pop()
            continue
        action = record.get("action") if isinstance(record, dict) else None
        if isinstance(action, dict):
            record = action
        if not isinstance(record, dict) or not isinstance(record.get("action"), str):
            raise GameError(f'line {number}: each line must be a JSON object with an "action" name')
        actions.append((number, record))
    return actions


def journal_game(lines: list[str]) -> str | None:
    """The game a journal's header names (its first line), None for a transcript without one."""
    first = next((line.strip() for line in lines if line.strip() and not line.strip().startswith("#")), "")
    try:
        record = json.loads(first, parse_constant=strict_json)
    except (ValueError, RecursionError):
        return None  # parse_transcript says what is wrong with it
    game = record.get("game") if isinstance(record, dict) and "action" not in record else None
    return game if isinstance(game, str) else None


def strict_json(word: str) -> Any:
    """``json.loads``'s ``parse_constant``: NaN and Infinity are no JSON (Python's json reads them), and a NaN time
    stopped a replay deep in an engine."""
    raise ValueError(f"{word} is not a number JSON knows")


def play_transcript(
    engine_cls: type[Engine], lines: Iterable[str], out: TextIO, *, lang: str = "de", as_json: bool = False
) -> Engine:
    """Feed a transcript to a new engine, printing every announcement and then the final state.

    The first action must be ``{"action": "setup", ...}``. Errors name the transcript line.
    """
    lines = list(lines)
    actions = parse_transcript(lines)
    game = journal_game(lines)
    if game is not None and game != engine_cls.name:  # not "line 2: give the players as a list of names"
        raise GameError(f"this is the journal of a game of {game}, not of {engine_cls.name}: "
                        f"companion play {game} --script FILE")
    if not actions or actions[0][1]["action"] != "setup":
        raise GameError('the first line of a transcript must be the setup: {"action": "setup", ...}')
    number, setup = actions[0]
    try:
        engine = engine_cls.new(setup)
    except GameError as exc:
        raise GameError(f"line {number}: {exc}") from None
    def emit(number: int, announcements: list[Announcement]) -> None:
        for a in announcements:
            if as_json:
                out.write(json.dumps({"line": number, **a.to_json(), "text": a.text(lang)}, ensure_ascii=False) + "\n")
            else:
                out.write(f"[{number}] {a.text(lang)}\n")

    # Announcements are printed as they happen, so a transcript that fails shows everything up to its bad line.
    emit(number, list(getattr(engine, "opening_announcements", None) or []))
    for number, action in actions[1:]:
        try:
            announcements = engine.apply(action)
        except GameError as exc:
            raise GameError(f"line {number}: {exc}") from None
        emit(number, announcements)
    final = engine.to_json()
    if as_json:
        out.write(json.dumps({"final": final, "finished": engine.finished}, ensure_ascii=False) + "\n")
    else:
        out.write("final state:\n" + json.dumps(final, ensure_ascii=False, indent=2) + "\n")
    return engine
