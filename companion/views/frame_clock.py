"""The wall-clock time of the current frame, for the screens that stamp actions with it (hourglasses, timers).

A screen reads the wall clock once and then moves on with the monotonic clock of each frame: a stamp and the sand
drawn from it stay in step even when the wall clock jumps (network time arriving on a Pi without a real-time
clock). Before the screen's first frame (a press in the frame that made it) there is no monotonic time yet, and
the wall clock itself is the answer: taking the monotonic clock for 0 put a stamp hours away from the sand.
"""

from __future__ import annotations

from collections.abc import Callable


class FrameClock:
    def __init__(self, wall: Callable[[], float]) -> None:
        self._wall = wall
        self._mono: float | None = None  # the monotonic clock of the last frame
        self._offset: float | None = None  # wall clock minus monotonic clock

    def tick(self, mono: float) -> None:
        """A new frame at monotonic time ``mono``."""
        self._mono = mono

    def now(self) -> float:
        if self._mono is None:
            return self._wall()
        if self._offset is None:
            self._offset = self._wall() - self._mono
        return self._mono + self._offset

    def stamp(self) -> float:
        """The wall clock now, as an action's stamp; this clock reads on from it exactly (the hourglass turned)."""
        at = self._wall()
        self._offset = at - self._mono if self._mono is not None else None
        return at
