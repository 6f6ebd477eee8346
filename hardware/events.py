"""The table's buttons as events: the same events come from GPIO arcade buttons, the keyboard, mouse and touch."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Button(StrEnum):
    ROLL = "roll"  # read the dice / roll virtual dice
    REROLL = "reroll"
    TIMER = "timer"  # start the hourglass; long-press cancels it
    NEXT = "next"  # move the highlight
    SELECT = "select"  # choose the highlighted item
    UNDO = "undo"  # long-press: step back one game event


class Press(StrEnum):
    SHORT = "short"  # released before hold_time
    LONG = "long"  # held for hold_time (fires once, while still held)


@dataclass(frozen=True)
class ButtonEvent:
    button: Button
    press: Press = Press.SHORT
