"""The wall-clock time of the current frame, for the screens that stamp actions with it (hourglasses, timers).

A screen reads the wall clock once and then moves on with the monotonic clock of each frame: a stamp and the sand
drawn from it stay in step even when the wall clock jumps (network time arriving on a Pi without a real-time
clock). Before the screen's first frame (a press in the frame that made it) there is no monotonic time yet, and
the wall clock itself is the answer: taking the monotonic clock for 0 put a stamp hours away from the sand.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from companion.announce import Announcement, Sound
from companion.hourglass import TICK_SECONDS, Hourglass


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


class ClockCalls:
    """What a running clock says aloud, each once per run: "one minute left" in a long run, "N seconds left" at its
    warning stretch, then a tick each second of its last ``TICK_SECONDS``. One per screen: Fritzo's clock and Haste
    Worte's sand said them each by their own copy, which had drifted apart (Fritzo's ticked again over the warning
    said within its last seconds, and kept the last run's second)."""

    def __init__(self) -> None:
        self.minute_said: float | None = None  # the run (its start) whose last minute was said
        self.warning_said: float | None = None  # the run (its start) whose warning stretch was said
        self.last_tick: int | None = None  # the last second ticked (or said with the warning, its tick in it)

    def update(self, sand: Hourglass, wall: float, announcer: Any) -> None:
        """Say what is due at ``wall`` of ``sand``'s run; call it only while the sand runs. ``announcer`` may be
        None (a screen without sound): what was due counts as said all the same, so it is not said late."""
        if sand.minute_warning(wall) and self.minute_said != sand.started_at:  # a long run: its warning came too late
            self.minute_said = sand.started_at
            if announcer is not None:
                # a detail (the clock shows it): left unsaid with ``sound.talk = "calls"``, by the one mark every
                # game's details carry (the announcer kept a list of such keys of its own beside it)
                announcer.announce(Announcement("core.minute_left", sound=Sound.TICK, detail=True))
        left = math.ceil(sand.remaining(wall))
        if sand.warning(wall) and self.warning_said != sand.started_at:  # said, not only a clock nobody watches
            self.warning_said = sand.started_at
            self.last_tick = left  # the announcement ticks this second itself
            if announcer is not None:
                announcer.announce(Announcement("core.seconds_left", {"seconds": left}, sound=Sound.TICK))
        elif left <= TICK_SECONDS and left != self.last_tick:
            self.last_tick = left
            if announcer is not None and hasattr(announcer, "play_sound"):
                announcer.play_sound(Sound.TICK)
