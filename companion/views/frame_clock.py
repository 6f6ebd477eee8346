"""The wall-clock time of the current frame, for the screens that stamp actions with it (hourglasses, timers).

A screen reads the wall clock once and then moves on with the monotonic clock of each frame: a stamp and the sand
drawn from it stay in step even when the wall clock jumps (network time arriving on a Pi without a real-time
clock). Before the screen's first frame (a press in the frame that made it) there is no monotonic time yet, and
the wall clock itself is the answer: taking the monotonic clock for 0 put a stamp hours away from the sand.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from companion.hourglass import Hourglass


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


def undone_for_this_run(session: Any, action: str, sand: Hourglass) -> bool:
    """Whether the table took back this run's end (``action``, stamped at or after the run's start) before the
    restart: it stays taken back, where the resume found the sand out and stamped it again (also when a step made
    before it was taken back after it: the journal's last undo alone missed that)."""
    started = sand.started_at
    return started is not None and any(
        a.get("action") == action and isinstance(a.get("at"), int | float) and a["at"] >= started
        for a in getattr(session, "taken_back", None) or [])
