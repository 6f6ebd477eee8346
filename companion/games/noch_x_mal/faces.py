"""The dice, goals and bonuses of Noch X-Mal! as the companion names them.

Face names are fixed across the project (the taught-dice reader returns exactly these strings). Goals are the
things whose *first* reacher gets a pink-outlined bonus: their ids are what a transcript reports.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum

COLOURS: tuple[str, ...] = ("red", "orange", "yellow", "green", "blue")
COLOUR_JOKER = "color-joker"
NUMBERS: tuple[str, ...] = ("1", "2", "3", "4", "5")
NUMBER_JOKER = "number-joker"
COLOUR_FACES: tuple[str, ...] = (*COLOURS, COLOUR_JOKER)
NUMBER_FACES: tuple[str, ...] = (*NUMBERS, NUMBER_JOKER)
JOKERS: frozenset[str] = frozenset({COLOUR_JOKER, NUMBER_JOKER})

#: the 15 score-sheet columns; solo play strokes the same 15 letter fields twice (30 rolls)
COLUMNS = "ABCDEFGHIJKLMNO"
#: columns whose only bonus is the pink one (the screen says so)
PINK_ONLY_COLUMNS = "FGHIJ"
DIAMOND_ROWS: tuple[str, ...] = ("top", "middle", "bottom")
POINT_ROWS: tuple[str, ...] = ("I", "II", "III")

def has_white_bonus(goal: str) -> bool:
    """Whether a goal's later reachers still get a bonus: columns F-J "have only pink bonuses", and the pass track's
    end gives its X-chips to the first only ("All others must then blacken the pink-outlined bonus")."""
    return goal != "pass-end" and not (goal.startswith("column-") and goal[-1] in PINK_ONLY_COLUMNS)


#: every first-to-reach goal, in the order the screen lists them
GOALS: tuple[str, ...] = (
    *(f"column-{c}" for c in COLUMNS),
    *(f"colour-{c}" for c in COLOURS),
    *(f"diamonds-{r}" for r in DIAMOND_ROWS),
    *(f"points-{r}" for r in POINT_ROWS),
    "pass-end",
)

#: X-chip colours of the box (6 colours, 10 chips each), handed out in seat order unless chosen
CHIP_COLOURS: tuple[str, ...] = ("red", "yellow", "green", "blue", "purple", "orange")
CHIPS_PER_PLAYER = 10
MAX_PLAYERS = len(CHIP_COLOURS)

#: from this roll on the active player chooses first and the others pick from the four dice left
FIRST_RESTRICTED_ROLL = 4
SOLO_ROLLS = 2 * len(COLUMNS)


class Gift(StrEnum):
    """What a discarded X-chip may show; it is given to another player, who uses it from the next roll on."""

    JOKER = "joker"
    PLUS_MINUS = "plus-minus"
    ALL_DICE = "all-dice"


def is_colour(face: str) -> bool:
    return face in COLOUR_FACES


def is_number(face: str) -> bool:
    return face in NUMBER_FACES


def colour_dice(faces: Sequence[str | None]) -> int:
    """How many of a roll's ``faces`` are colour dice (a die not read is none): the mix a roll must have."""
    return sum(1 for f in faces if f is not None and is_colour(f))


def face_key(face: str) -> str:
    """The catalog key naming a face (colour names, numbers, jokers) for screens and messages."""
    return f"nxm.face.{face}"


def goal_key(goal: str) -> str:
    return f"nxm.goal.{goal}"


def normalise_goal(value: object) -> str | None:
    """A reported goal id, tolerating the American spelling of the dice ("color-red"); None when unknown."""
    if not isinstance(value, str):
        return None
    goal = value.strip()
    if goal.startswith("color-"):
        goal = "colour-" + goal[len("color-"):]
    if goal.startswith("column-"):
        goal = "column-" + goal[len("column-"):].upper()
    return goal if goal in GOALS else None


def solo_stroke(roll: int) -> tuple[str, str]:
    """(letter field, stroke) for solo roll 1-30: rolls 1-15 draw '/' in A..O, rolls 16-30 draw '\\' in A..O.

    The rulebook only asks for two strokes per field; doing them in letter order lets the screen
    say which is next.
    """
    index = (roll - 1) % len(COLUMNS)
    return COLUMNS[index], ("right" if roll <= len(COLUMNS) else "left")


#: solo rating bands of the rulebook: (lowest number of X-chip symbols, catalog key)
SOLO_RATINGS: tuple[tuple[int, str], ...] = (
    (26, "nxm.rating.26"),
    (24, "nxm.rating.24"),
    (22, "nxm.rating.22"),
    (20, "nxm.rating.20"),
    (18, "nxm.rating.18"),
    (16, "nxm.rating.16"),
    (14, "nxm.rating.14"),
    (12, "nxm.rating.12"),
    (10, "nxm.rating.10"),
    (8, "nxm.rating.8"),
    (6, "nxm.rating.6"),
    (0, "nxm.rating.low"),
)


def solo_rating(symbols: int) -> str:
    for lowest, key in SOLO_RATINGS:
        if symbols >= lowest:
            return key
    raise ValueError(symbols)
