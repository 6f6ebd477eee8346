"""The shared table state of Noch X-Mal!: what the companion keeps while the players keep their own sheets.

Plain dataclasses with an explicit JSON form, so ``from_json(to_json())`` is exact and a journal snapshot
can be compared with a replay.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from companion.games.noch_x_mal.faces import CHIPS_PER_PLAYER, FIRST_RESTRICTED_ROLL, Gift


class Phase(StrEnum):
    START = "start"  # collecting start combos (and who begins)
    WAIT_ROLL = "wait-roll"  # the active player is to roll
    ROLLED = "rolled"  # dice are out: choosing, passing, reporting, discarding
    TIEBREAK = "tiebreak"  # several players emptied their chips: counting symbols, pass fields, columns
    SOLO_SCORE = "solo-score"  # 30 solo rolls done: the player enters the X-chip symbols reached
    OVER = "over"


class Decision(StrEnum):
    """How a tie between players who discarded their last chip in the same roll was decided."""

    ALONE = "alone"  # only one player finished
    SYMBOLS = "symbols"
    PASS_FIELDS = "pass-fields"
    COLUMNS = "columns"
    SHARED = "shared"


TIE_FIELDS: tuple[str, ...] = ("symbols", "pass_fields", "columns")


@dataclass
class HeldGift:
    kind: Gift
    giver: str
    usable_from: int  # the first roll number in which the receiver may use it

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind.value, "giver": self.giver, "usable_from": self.usable_from}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> HeldGift:
        return cls(Gift(d["kind"]), d["giver"], d["usable_from"])


@dataclass
class Player:
    name: str
    chip_colour: str | None
    start_colour: str | None = None
    start_number: str | None = None
    chips: int = CHIPS_PER_PLAYER
    gifts: list[HeldGift] = field(default_factory=list)

    @property
    def has_start(self) -> bool:
        return self.start_colour is not None and self.start_number is not None

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "chip_colour": self.chip_colour,
            "start_colour": self.start_colour,
            "start_number": self.start_number,
            "chips": self.chips,
            "gifts": [g.to_json() for g in self.gifts],
        }

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Player:
        return cls(
            d["name"], d["chip_colour"], d["start_colour"], d["start_number"], d["chips"],
            [HeldGift.from_json(g) for g in d["gifts"]],
        )


@dataclass
class Claim:
    """Who got the pink bonus of a goal: everybody who reached it in the first roll anybody did."""

    players: list[str]
    roll: int

    def to_json(self) -> dict[str, Any]:
        return {"players": list(self.players), "roll": self.roll}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Claim:
        return cls(list(d["players"]), d["roll"])


@dataclass
class Roll:
    number: int
    active: str
    dice: list[str]
    pick: list[int] | None = None  # indices of the active player's colour and number die
    active_passed: bool = False
    passes: dict[str, int] = field(default_factory=dict)  # player -> pass-track fields to cross
    reports: dict[str, list[str]] = field(default_factory=dict)  # goal -> first reachers this roll
    discards: list[list[Any]] = field(default_factory=list)  # [player, gift or None, receiver or None]
    gifts_used: list[list[str]] = field(default_factory=list)  # [player, gift]

    @property
    def open_choice(self) -> bool:
        """Rolls 1-3: everybody chooses any pair from all dice."""
        return self.number < FIRST_RESTRICTED_ROLL

    def others_choose_from(self, solo: bool = False) -> list[int] | None:
        """Indices of the dice the non-active players choose from; None while the active one decides."""
        every = list(range(len(self.dice)))
        if solo or self.open_choice or self.active_passed:
            return every
        if self.pick is None:
            return None
        return [i for i in every if i not in self.pick]

    def all_dice_players(self) -> list[str]:
        return [p for p, g in self.gifts_used if g == Gift.ALL_DICE.value]

    def to_json(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "active": self.active,
            "dice": list(self.dice),
            "pick": None if self.pick is None else list(self.pick),
            "active_passed": self.active_passed,
            "passes": dict(self.passes),
            "reports": {g: list(p) for g, p in self.reports.items()},
            "discards": [list(d) for d in self.discards],
            "gifts_used": [list(u) for u in self.gifts_used],
        }

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Roll:
        return cls(
            d["number"], d["active"], list(d["dice"]), None if d["pick"] is None else list(d["pick"]),
            d["active_passed"], dict(d["passes"]), {g: list(p) for g, p in d["reports"].items()},
            [list(x) for x in d["discards"]], [list(x) for x in d["gifts_used"]],
        )


@dataclass
class State:
    players: list[Player]
    seed: int | str
    draws: int = 0  # virtual dice rolled so far (part of the per-draw seed)
    phase: Phase = Phase.START
    active: int = 0  # seat of the active player
    first_chosen: bool = False  # whether the table has said who starts (else the first seat starts)
    rolls: int = 0  # rolls made so far
    roll: Roll | None = None  # the current roll (kept after it ends so the screen can still show it)
    claims: dict[str, Claim] = field(default_factory=dict)
    finishers: list[str] = field(default_factory=list)
    tiebreak: dict[str, dict[str, int]] = field(default_factory=dict)
    winners: list[str] = field(default_factory=list)
    decided_by: Decision | None = None
    solo_symbols: int | None = None

    @property
    def solo(self) -> bool:
        return len(self.players) == 1

    def to_json(self) -> dict[str, Any]:
        return {
            "players": [p.to_json() for p in self.players],
            "seed": self.seed,
            "draws": self.draws,
            "phase": self.phase.value,
            "active": self.active,
            "first_chosen": self.first_chosen,
            "rolls": self.rolls,
            "roll": None if self.roll is None else self.roll.to_json(),
            "claims": {g: c.to_json() for g, c in self.claims.items()},
            "finishers": list(self.finishers),
            "tiebreak": {p: dict(v) for p, v in self.tiebreak.items()},
            "winners": list(self.winners),
            "decided_by": None if self.decided_by is None else self.decided_by.value,
            "solo_symbols": self.solo_symbols,
        }

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> State:
        return cls(
            players=[Player.from_json(p) for p in d["players"]],
            seed=d["seed"],
            draws=d["draws"],
            phase=Phase(d["phase"]),
            active=d["active"],
            first_chosen=d["first_chosen"],
            rolls=d["rolls"],
            roll=None if d["roll"] is None else Roll.from_json(d["roll"]),
            claims={g: Claim.from_json(c) for g, c in d["claims"].items()},
            finishers=list(d["finishers"]),
            tiebreak={p: dict(v) for p, v in d["tiebreak"].items()},
            winners=list(d["winners"]),
            decided_by=None if d["decided_by"] is None else Decision(d["decided_by"]),
            solo_symbols=d["solo_symbols"],
        )
