"""Free play: read whatever pip dice are in the tray, keep the history, and check the dice for fairness.

It is a game engine like the others (pure, journaled), so a roll history survives a power cut and UNDO works the
same way everywhere. Unknown faces (``None``) are kept as read: they are excluded from sums and statistics until a
player corrects them, because a guessed face would quietly bias the fairness check.

>>> g = FreePlay.new({"action": "setup"})
>>> _ = g.apply({"action": "roll", "dice": [6, 6, None]})
>>> g.last_sum, g.unknown_in_last
(12, 1)
>>> _ = g.apply({"action": "correct", "roll": 1, "die": 3, "face": 2})
>>> g.last_sum
14

The reader can also miss a die (two touching dice read as one) or see one that is not there (a glare on the tray):
``add`` puts a die the table names into a roll and ``remove`` takes one out, so the history and the fairness check
count the dice that were thrown, not the reading. A roll keeps at least one die: an empty throw is thrown again.

A roll read by a camera also says where its dice lay (``boxes``: x0, y0, x1, y1 in the frame's pixels, one a die as
read). The screen reads the tray whenever it comes to rest; the same dice read again where they lay are no new roll,
and the journal keeping where they lay lets that hold after a restart too (the dice left in the tray were counted
again at every switch-on).

>>> _ = g.apply({"action": "roll", "dice": [2, 5], "boxes": [[10, 10, 50, 50], [90, 10, 130, 50]]})
>>> g.last
[2, 5]
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, ClassVar, Self

from companion.announce import Announcement
from companion.games.base import GameError

FACES = (1, 2, 3, 4, 5, 6)
MAX_DICE = 30


class FreePlayError(GameError):
    pass


def _face(value: Any, die: int) -> int | None:
    where = f"die {die}"
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value not in FACES:
        raise FreePlayError(f"{where}: {value!r} is not a die face; a pip die shows 1 to 6", key="core.err_not_a_face",
                            die=die, value=repr(value))
    return value


def _check_boxes(boxes: Any, n: int) -> None:
    """Where a roll's dice lay, when the step says so: refused when malformed, so that a journal's roll always says
    it in one shape (the screen compares the next readings with it)."""
    if boxes is None:
        return
    if not isinstance(boxes, list) or len(boxes) != n or not all(
            isinstance(b, list) and len(b) == 4 and all(isinstance(v, int) and not isinstance(v, bool) for v in b)
            for b in boxes):
        raise FreePlayError(f"a roll's boxes are one [x0, y0, x1, y1] of whole pixels a die, not {boxes!r}")


@dataclass
class FreePlay:
    name: ClassVar[str] = "free-play"
    rolls: list[list[int | None]] = field(default_factory=list)
    #: ``counts()`` as of the last change: the screen asks for it every frame, and free play's history is kept
    #: across evenings (a club's year of rolls made it 6 ms a frame on a Pi)
    _counts: dict[int, int] | None = field(default=None, init=False, repr=False, compare=False)

    @classmethod
    def new(cls, setup: dict[str, Any]) -> Self:
        return cls()

    @property
    def finished(self) -> bool:
        return False  # free play ends when the table starts a game, never by itself

    def apply(self, action: dict[str, Any]) -> list[Announcement]:
        kind = action.get("action")
        if kind == "roll":
            dice = action.get("dice")
            if not isinstance(dice, list) or not dice:
                raise FreePlayError("no dice were seen: put the dice in the tray and press ROLL again",
                                    key="core.free_no_dice")
            if len(dice) > MAX_DICE:
                raise FreePlayError(f"{len(dice)} dice are more than the {MAX_DICE} this screen can show: take some "
                                    "out of the tray", key="core.free_too_many", n=len(dice), most=MAX_DICE)
            faces = [_face(v, i) for i, v in enumerate(dice, start=1)]
            _check_boxes(action.get("boxes"), len(faces))
            self.rolls.append(faces)
            self._counts = None
            return []  # the screen shows the roll; a banner over it would only hide the statistics
        if kind in ("correct", "add", "remove"):
            roll = self._roll(action.get("roll"))
            if kind == "add":
                if len(roll) >= MAX_DICE:
                    raise FreePlayError(f"a roll holds at most {MAX_DICE} dice", key="core.free_too_many",
                                        n=len(roll) + 1, most=MAX_DICE)
                face = _face(action.get("face"), len(roll) + 1)
                if face is None:
                    raise FreePlayError("a die added must name the face it shows (1 to 6)")
                roll.append(face)
            else:
                die = action.get("die")
                if not isinstance(die, int) or isinstance(die, bool) or not 1 <= die <= len(roll):
                    raise FreePlayError(f"that roll has no die {die!r}")
                if kind == "remove":
                    if len(roll) == 1:
                        raise FreePlayError("a roll keeps at least one die: throw again instead")
                    del roll[die - 1]
                else:
                    face = _face(action.get("face"), die)
                    if face is None:
                        raise FreePlayError("a correction must name the face the die shows (1 to 6)")
                    roll[die - 1] = face
            self._counts = None
            return []
        raise FreePlayError(f"free play knows the actions roll, correct, add and remove, not {kind!r}")

    def _roll(self, n: Any) -> list[int | None]:
        if not isinstance(n, int) or isinstance(n, bool) or not 1 <= n <= len(self.rolls):
            raise FreePlayError(f"there is no roll {n!r} to change")
        return self.rolls[n - 1]

    # -- what the screen shows -------------------------------------------------------------------------------
    @property
    def last(self) -> list[int | None]:
        return self.rolls[-1] if self.rolls else []

    @property
    def last_sum(self) -> int:
        return sum(f for f in self.last if f is not None)

    @property
    def unknown_in_last(self) -> int:
        return sum(1 for f in self.last if f is None)

    def counts(self) -> dict[int, int]:
        if self._counts is None:
            c = dict.fromkeys(FACES, 0)
            for roll in self.rolls:
                for f in roll:
                    if f is not None:
                        c[f] += 1
            self._counts = c
        return dict(self._counts)

    def fairness(self) -> Fairness:
        return Fairness.of(self.counts())

    def to_json(self) -> dict[str, Any]:
        return {"rolls": [list(r) for r in self.rolls]}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Self:
        return cls(rolls=[list(r) for r in data.get("rolls", [])])


@dataclass(frozen=True)
class Fairness:
    """Pearson's chi-square test of the face counts against a fair die (5 degrees of freedom).

    With fewer than 5 expected per face the test says nothing useful, so ``enough`` is False and the screen asks
    for more rolls instead of showing a number that looks meaningful.
    """

    n: int
    chi2: float
    p: float

    MIN_PER_FACE: ClassVar[int] = 5

    @property
    def enough(self) -> bool:
        return self.n >= self.MIN_PER_FACE * len(FACES)

    @property
    def suspicious(self) -> bool:
        return self.enough and self.p < 0.01

    @classmethod
    def of(cls, counts: dict[int, int]) -> Fairness:
        n = sum(counts.values())
        if n == 0:
            return cls(0, 0.0, 1.0)
        expected = n / len(FACES)
        chi2 = sum((counts[f] - expected) ** 2 / expected for f in FACES)
        return cls(n, chi2, chi2_sf(chi2, len(FACES) - 1))


def chi2_sf(x: float, k: int) -> float:
    """P(X >= x) for chi-square with k degrees of freedom: 1 - regularised lower gamma P(k/2, x/2) by its series.

    >>> round(chi2_sf(11.0705, 5), 3)
    0.05
    """
    if x <= 0:
        return 1.0
    a, z = k / 2.0, x / 2.0
    term = total = 1.0 / a
    n = 0
    while abs(term) > 1e-15 * abs(total) and n < 10_000:
        n += 1
        term *= z / (a + n)
        total += term
    lower = math.exp(a * math.log(z) - z - math.lgamma(a)) * total
    return min(1.0, max(0.0, 1.0 - lower))
