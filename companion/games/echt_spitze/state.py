"""The shared table state of Echt Spitze: typed, JSON-friendly, nothing a player's own sheet already holds.

The companion does not mirror the 5x5 grids; players cross on paper. It keeps what is shared (whose turn,
the dice, who holds which, who scored a kind first) and what players forget (which side of the sheet they
are on, how many holes they pierced, which beehives they secured or must blacken).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from companion.games.base import state_copy

#: the six faces of a die without extra cross; a die with the extra-cross mark reads as "<face>+X"
PLAIN_FACES: tuple[str, ...] = ("1", "2", "3", "4", "5", "?")
EXTRA_MARK = "+X"
EXTRA_FACES: tuple[str, ...] = tuple(f + EXTRA_MARK for f in PLAIN_FACES)
ALL_FACES: frozenset[str] = frozenset(PLAIN_FACES + EXTRA_FACES)
#: the box holds 6 dice, 3 of them carry the extra cross (solo plays with exactly those 3)
EXTRA_DICE = 3
#: the face of each of those 3 dice that carries the mark, for virtual dice (setup ``extra_faces: "one"``). The
#: rulebook says which dice carry it, not which faces; its example has "the die with the 2 (extra cross)" and "the
#: 3 die (extra cross)" as two dice, so one face a die, a different one on each (the built-in tray's dice too).
#: Older setups (no ``extra_faces``): the mark on every face of the 3 dice, each roll showing three
EXTRA_FACE_OF: tuple[str, ...] = PLAIN_FACES[:EXTRA_DICE]
TOTAL_DICE = 6
MIDDLE_DICE = 2
SOLO_ROUNDS = 14
SOLO_HALFTIME = 7  # rounds 1-7 score the higher value, 8-14 the lower
GRID = 5
SIDES = ("front", "back")
#: points per circled star where the rulebook prints them (level 1: Sara's example 3 x 5; level 3: 8 per star)
DEFAULT_STAR_VALUE = {1: 5, 3: 8}
#: how many scored kinds (levels 1, 2) or shapes (level 3) end a multiplayer game
GAME_END_COUNT = {1: 3, 2: 3, 3: 4}


def has_extra(face: str) -> bool:
    return face.endswith(EXTRA_MARK)


def too_many_crosses(dice: Iterable[str | None]) -> bool:
    """More dice showing the extra cross than the dice that carry it: one was read wrongly (dice not read: None)."""
    return sum(1 for f in dice if f is not None and has_extra(f)) > EXTRA_DICE


def marked_on(face: str) -> tuple[str, ...]:
    """The six faces of an extra-cross die that carries its mark on ``face`` alone ("2": 1, 2+X, 3, 4, 5, ?)."""
    return tuple(f + EXTRA_MARK if f == face else f for f in PLAIN_FACES)


def number(face: str) -> str:
    """The face without its extra-cross mark: "3+X" -> "3", "?" -> "?"."""
    return face[: -len(EXTRA_MARK)] if has_extra(face) else face


class Phase(StrEnum):
    ROLL = "roll"  # the start player rolls all dice
    TAKE = "take"  # players take one die each, start player first, then clockwise
    MIDDLE = "middle"  # the start player leaves the two middle dice or re-rolls them
    REROLL = "reroll"  # waiting for the reading of the two re-rolled middle dice
    SCORE = "score"  # everybody crosses; players report what they completed; then end of turn
    FINAL = "final"  # the game is over: each player's final points are entered
    OVER = "over"  # the winner is announced


@dataclass
class Report:
    """What one player completed this turn, resolved together with everybody else's at the end of the turn."""

    kinds: list[str] = field(default_factory=list)
    beehive: str | None = None
    shape: str | None = None
    pierced: bool = False
    slipped: bool = False

    @property
    def empty(self) -> bool:
        return not (self.kinds or self.beehive or self.shape or self.pierced or self.slipped)


@dataclass
class FinalEntry:
    """The numbers only the player's sheet knows, entered at the end; the companion adds what it kept."""

    stars: int = 0  # levels 1, 2: circled row/column stars; level 3: diagonals + diamonds
    diagonals: int = 0  # level 3 only
    diamonds: int = 0  # level 3 only
    #: crossed symbols outside a scored kind (levels 1, 2) / pierced bubbles without a star (level 3)
    leftover: int = 0
    total: int = 0


@dataclass
class PlayerState:
    name: str
    side: str = "front"
    holes: int = 0
    #: kind or shape -> points it scored (the higher or the lower value), in scoring order
    scored: dict[str, int] = field(default_factory=dict)
    #: beehives this player crossed, as "front:4-4"; each is one honeycomb and safe from bees on that side
    hives_crossed: list[str] = field(default_factory=list)
    #: beehives this player had to blacken, as "back:2-2"; they can no longer be crossed
    hives_blackened: list[str] = field(default_factory=list)
    report: Report = field(default_factory=Report)
    #: index into the roll of the die this player took this turn
    holds: int | None = None
    final: FinalEntry | None = None


def hive_key(side: str, coord: str) -> str:
    return f"{side}:{coord}"


def hive_side(p: PlayerState, pierced: bool) -> str:
    """The side a hive reported this turn lies on: a turn that pierced crossed only the bubble and the same field
    on the back, so its hive is on the side after the turn; else the side the turn began on."""
    return SIDES[1 - SIDES.index(p.side)] if pierced else p.side


@dataclass
class TableState:
    players: list[PlayerState]
    level: int
    #: scoring overview: kind (levels 1, 2) or shape (level 3) -> [higher value, lower value]
    overview: dict[str, list[int]]
    star_value: int | None
    seed: str
    rolls: int = 0  # virtual rolls so far: with the seed it makes the next virtual roll reproducible
    #: how virtual dice carry the extra cross: "one" face of each of the 3 dice (EXTRA_FACE_OF), or on "every" face
    #: (games set up before the setup said so: they roll on as they were played)
    extra_faces: str = "every"
    turn: int = 1  # solo: the round on the ray counter
    start: int = 0  # seat of the start player
    phase: Phase = Phase.ROLL
    #: every die of the current roll; the middle ones are replaced when re-rolled
    dice: list[str] = field(default_factory=list)
    middle_choice: str | None = None  # "leave" or "reroll"
    #: level 2 solo: the beehive (as "front:2-2") the pair in this round's roll blackened, for a correction of
    #: that roll to take back
    pair_bees: str | None = None
    #: kind or shape -> the players who scored it first (empty: nobody yet)
    first: dict[str, list[str]] = field(default_factory=dict)
    #: players who ended the game by their third kind / fourth shape
    enders: list[str] = field(default_factory=list)
    winners: list[str] = field(default_factory=list)

    @property
    def solo(self) -> bool:
        return len(self.players) == 1

    def __deepcopy__(self, memo: dict[int, Any]) -> TableState:
        """The copy every step works on (``EchtSpitze.apply``), and an undo's checkpoint: every dict, list and
        player's record new, its words and numbers shared (``state_copy``)."""
        return state_copy(self, memo)

    def to_json(self) -> dict[str, Any]:
        from dataclasses import asdict

        data = asdict(self)
        data["phase"] = self.phase.value
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TableState:
        d = dict(data)
        players = []
        for p in d.pop("players"):
            p = dict(p)
            report = Report(**p.pop("report"))
            final = p.pop("final")
            players.append(PlayerState(**p, report=report, final=FinalEntry(**final) if final else None))
        phase = Phase(d.pop("phase"))
        return cls(players=players, phase=phase, **d)
