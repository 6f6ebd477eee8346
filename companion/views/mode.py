"""What the app loop drives: the free-play screen, each game's screen, menus and the teaching screen."""

from __future__ import annotations

from typing import Protocol

import pygame

from hardware.events import ButtonEvent
from vision.types import TrayReading


class Mode(Protocol):
    """A screen with its logic. Coordinates are in design pixels (800x480): the app scales for the window.

    ``update`` gets the seconds since the last frame and ``now`` (the app's monotonic clock), so modes never read
    a clock themselves and tests can drive them with a fake one. ``on_button``/``on_tap`` return True when they
    used the event. An optional ``auto_read`` attribute (True) asks for a reading at every rest of the tray, not
    only after ROLL. ``on_dice`` may return words for the table where a reading is no step (free play's "read
    already"), and ``on_tap`` where a tap is no step (Noch X-Mal!'s "the pair is set"): the app shows them as a
    notice, not an error. An optional ``on_tray(TrayMotion)`` hears every frame
    what the tray does (dice moving, a hand), so a screen can show a read on its way.
    """

    def on_button(self, event: ButtonEvent) -> None: ...

    def on_tap(self, pos: tuple[int, int]) -> bool | str | None: ...

    def on_dice(self, reading: TrayReading) -> str | None: ...

    def update(self, dt: float, now: float) -> None: ...

    def draw(self, surface: pygame.Surface) -> None: ...
