"""The keyboard as the table's buttons, for laptops and for a Pi without arcade buttons.

Keys map to the same :class:`Button` s as the GPIO panel and go through the same :class:`PressTracker`, so
holding Backspace for ``hold_time`` is a long UNDO exactly as holding the arcade button is. pygame is used
only for its key constants and event types.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import pygame

from hardware.buttons import PressTracker
from hardware.events import Button, ButtonEvent

KEY_BUTTONS: dict[int, Button] = {
    pygame.K_SPACE: Button.ROLL,
    pygame.K_r: Button.ROLL,
    pygame.K_e: Button.REROLL,
    pygame.K_t: Button.TIMER,
    pygame.K_RIGHT: Button.NEXT,
    pygame.K_DOWN: Button.NEXT,
    pygame.K_TAB: Button.NEXT,
    pygame.K_LEFT: Button.PREV,
    pygame.K_UP: Button.PREV,
    pygame.K_RETURN: Button.SELECT,
    pygame.K_KP_ENTER: Button.SELECT,
    pygame.K_BACKSPACE: Button.UNDO,
    pygame.K_u: Button.UNDO,
}


def button_for_key(key: int) -> Button | None:
    """The table button a key stands for, or None for keys the companion leaves alone."""
    return KEY_BUTTONS.get(key)


class KeyboardButtons:
    """pygame key events in, :class:`ButtonEvent` s out through :meth:`poll`, like :class:`ButtonPanel`.

    No debounce by default: keyboards debounce in their own firmware.
    """

    def __init__(self, hold_time: float = 1.0, clock: Callable[[], float] = time.monotonic,
                 debounce: float = 0.0) -> None:
        self.tracker = PressTracker(hold_time, debounce, clock)

    def key_down(self, key: int) -> bool:
        button = button_for_key(key)
        if button is not None:
            self.tracker.edge(button, True, channel=key)
        return button is not None

    def key_up(self, key: int) -> bool:
        button = button_for_key(key)
        if button is not None:
            self.tracker.edge(button, False, channel=key)
        return button is not None

    def handle(self, event: pygame.event.Event) -> bool:
        """Feed one pygame event; True when it was a key of the table's buttons."""
        if event.type == pygame.KEYDOWN:
            return self.key_down(event.key)
        if event.type == pygame.KEYUP:
            return self.key_up(event.key)
        return False

    def poll(self) -> list[ButtonEvent]:
        return self.tracker.poll()

    def close(self) -> None:
        """Nothing to release; here so the keyboard and the GPIO panel are used alike."""
