"""A game-agnostic hourglass (sand timer) computed from time stamps, never from counted frames.

Why time stamps: a screen that adds up ``dt`` per frame drifts when the frame rate drops (a busy Pi, a slow
camera frame) and forgets everything at a power cut. Here the hourglass stores only *when* it was turned (a
wall-clock stamp the app writes into the journaled action) and answers every question from ``now``, which the
caller passes in. So the answer is exact however irregular the frames are, and after a restart the remaining
time is restored from the wall clock. The module reads no clock itself, so tests drive it with a fake one.

Any game can use it (Haste Worte's 90 seconds, Fritzo's agreed playing time): nothing here knows about a game.

>>> h = Hourglass(duration=90.0)
>>> h.start(1000.0)
>>> h.remaining(1030.5), h.warning(1030.5), h.warning(1081.0), h.expired(1090.0)
(59.5, False, True, True)
>>> Hourglass.from_json(h.to_json()) == h
True
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from enum import StrEnum
from typing import Any

from companion.errors import CompanionError

#: how far the wall clock may read *before* the start stamp and still be trusted (NTP slews, stamp rounding)
CLOCK_SLACK = 1.0
#: a clock this long or longer says "one minute left" too: ten minutes of building are long, and a warning at 30 s
#: alone came too late to finish anything (Fritzo's race and Level One)
MINUTE_WARNING_FROM = 120.0
MINUTE = 60.0
#: the last seconds that tick, once a second, as Haste Worte's sand does (its warning stretch is these 10 s)
TICK_SECONDS = 10.0


class HourglassError(CompanionError):
    """The hourglass was asked for something its state does not allow (start while running, cancel idle).

    Games check the state first and raise their own translated error; this one guards the contract.
    """


class Phase(StrEnum):
    IDLE = "idle"  # never turned
    RUNNING = "running"  # sand is running (includes the warning stretch)
    EXPIRED = "expired"  # the sand has run out
    CANCELLED = "cancelled"  # stopped by hand before the end
    INTERRUPTED = "interrupted"  # stopped because the remaining time could not be trusted (see ``resume``)


class Resume(StrEnum):
    """What a restart finds, so the app can act: go on, announce time's up, or mark the round interrupted."""

    NOT_RUNNING = "not_running"  # nothing to restore
    RESUMED = "resumed"  # remaining time restored from the wall clock
    EXPIRED_WHILE_OFF = "expired_while_off"  # the sand ran out while the companion was off: time's up now
    #: the wall clock reads before the start stamp (a Pi without a real-time clock before its network time
    #: arrives): the remaining time is unknown
    CLOCK_UNTRUSTED = "clock_untrusted"


@dataclass
class Hourglass:
    """Sand timer state: plain numbers only, so it round-trips through JSON exactly.

    Times are seconds on one clock chosen by the caller (the app: wall-clock seconds stamped into actions).
    """

    duration: float = 90.0
    #: the last stretch (seconds) during which the screen warns and a tick sounds
    warning_seconds: float = 10.0
    started_at: float | None = None
    #: when it was cancelled or interrupted; None while running, expired or idle
    stopped_at: float | None = None
    interrupted: bool = False

    def __post_init__(self) -> None:
        if not self.duration > 0:
            raise HourglassError(f"an hourglass needs a positive duration, not {self.duration!r} seconds")
        if self.warning_seconds < 0:
            raise HourglassError(f"the warning stretch cannot be negative ({self.warning_seconds!r} seconds)")

    # -- state changes
    def start(self, at: float) -> None:
        """Turn the hourglass at ``at``: a fresh full run, also after a cancel, an expiry or an interrupt."""
        if self.is_running(at):
            raise HourglassError(f"the hourglass is already running ({self.remaining(at):.0f} s left)")
        self.started_at = float(at)
        self.stopped_at = None
        self.interrupted = False

    def cancel(self, at: float) -> None:
        """Stop the sand at ``at``; ``remaining`` then stays frozen at what was left."""
        if not self.is_running(at):
            raise HourglassError("the hourglass is not running, so it cannot be cancelled")
        self.stopped_at = float(at)

    def interrupt(self, at: float) -> None:
        """Stop because the time left is unknown (after ``resume`` said CLOCK_UNTRUSTED)."""
        if self.started_at is None or self.stopped_at is not None:
            raise HourglassError("the hourglass is not running, so it cannot be interrupted")
        self.stopped_at = float(at)
        self.interrupted = True

    def reset(self) -> None:
        """Back to a full, never-turned hourglass (a new round)."""
        self.started_at = None
        self.stopped_at = None
        self.interrupted = False

    # -- questions (all pure functions of ``now``)
    def phase(self, now: float) -> Phase:
        if self.started_at is None:
            return Phase.IDLE
        if self.stopped_at is not None:
            return Phase.INTERRUPTED if self.interrupted else Phase.CANCELLED
        if now - self.started_at >= self.duration:
            return Phase.EXPIRED
        return Phase.RUNNING

    def is_running(self, now: float) -> bool:
        return self.phase(now) is Phase.RUNNING

    def elapsed(self, now: float) -> float:
        """Seconds the sand has run, clamped to [0, duration]; frozen once stopped."""
        if self.started_at is None:
            return 0.0
        end = self.stopped_at if self.stopped_at is not None else now
        return min(max(end - self.started_at, 0.0), self.duration)

    def remaining(self, now: float) -> float:
        """Seconds left, clamped to [0, duration]; a clock reading before the start counts as full."""
        return self.duration - self.elapsed(now)

    def fraction_left(self, now: float) -> float:
        """Share of the sand still in the top bulb (1.0 full, 0.0 empty), for drawing."""
        return self.remaining(now) / self.duration

    def warning(self, now: float) -> bool:
        """True during the last ``warning_seconds`` of a run (not once it has expired)."""
        return self.is_running(now) and self.remaining(now) <= self.warning_seconds

    def minute_warning(self, now: float) -> bool:
        """True in a long run's last minute before its ``warning`` stretch: the moment "one minute left" is said."""
        return (self.duration >= MINUTE_WARNING_FROM and self.is_running(now)
                and self.warning_seconds < self.remaining(now) <= MINUTE)

    def expired(self, now: float) -> bool:
        return self.phase(now) is Phase.EXPIRED

    def expires_at(self) -> float | None:
        """The clock time at which the sand runs out, while it runs; None otherwise."""
        if self.started_at is None or self.stopped_at is not None:
            return None
        return self.started_at + self.duration

    def resume(self, now: float) -> Resume:
        """What a restart (after a power cut) should do, judged from the wall clock ``now``.

        The remaining time is restored from the start stamp. A wall clock reading *before* the start (by more
        than ``CLOCK_SLACK``) means the clock jumped back, as on a Raspberry Pi that boots without a real-time
        clock and has no network time yet: then nothing can be restored honestly, and the caller should
        ``interrupt``.
        """
        if self.started_at is None or self.stopped_at is not None:
            return Resume.NOT_RUNNING
        if now < self.started_at - CLOCK_SLACK:
            return Resume.CLOCK_UNTRUSTED
        if self.expired(now):
            return Resume.EXPIRED_WHILE_OFF
        return Resume.RESUMED

    # -- JSON
    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Hourglass:
        def opt(v: Any) -> float | None:
            return None if v is None else float(v)

        return cls(
            duration=float(data["duration"]),
            warning_seconds=float(data.get("warning_seconds", 10.0)),
            started_at=opt(data.get("started_at")),
            stopped_at=opt(data.get("stopped_at")),
            interrupted=bool(data.get("interrupted", False)),
        )
