"""The table's buttons as events: the same events come from GPIO arcade buttons, the keyboard, mouse and touch."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum


class Button(StrEnum):
    ROLL = "roll"  # read the dice / roll virtual dice
    REROLL = "reroll"
    TIMER = "timer"  # start the hourglass; long-press cancels it
    NEXT = "next"  # move the highlight
    PREV = "prev"  # move the highlight back: the keyboard's arrows left and up (the table's six buttons have none)
    SELECT = "select"  # choose the highlighted item
    UNDO = "undo"  # long-press: step back one game event

    @property
    def step(self) -> int:
        """Where a highlight moves: +1 on NEXT, -1 on PREV, 0 on every other button. A laptop's player presses the
        arrow up in a long list and expects the item above, not a round of NEXT presses."""
        return 1 if self is Button.NEXT else -1 if self is Button.PREV else 0


class Press(StrEnum):
    SHORT = "short"  # released before hold_time
    LONG = "long"  # held for hold_time (fires once, while still held)


@dataclass(frozen=True)
class ButtonEvent:
    button: Button
    press: Press = Press.SHORT
    #: one of a held NEXT/PREV's repeats, not a press of its own: the app answers a press nothing takes once, and a
    #: held NEXT sounded the refusal's notes 9 times in 5 s. Not compared: a repeat moves a highlight as a press does
    repeat: bool = field(default=False, compare=False, repr=False)
