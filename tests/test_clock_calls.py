"""``ClockCalls``: what a running clock says aloud, shared by Fritzo's clock and Haste Worte's sand."""

from __future__ import annotations

from companion.announce import Sound
from companion.hourglass import Hourglass
from companion.views.frame_clock import ClockCalls


class _Ear:
    """An announcer that keeps what it was told, each with the clock's seconds left then."""

    def __init__(self, sand: Hourglass) -> None:
        self.sand = sand
        self.now = 0.0
        self.said: list[tuple[str, float]] = []
        self.ticks: list[int] = []

    def announce(self, announcement) -> None:
        self.said.append((announcement.key, self.sand.remaining(self.now)))

    def play_sound(self, sound: Sound) -> None:
        assert sound is Sound.TICK
        self.ticks.append(round(self.sand.remaining(self.now)))


def _run(sand: Hourglass, ear: _Ear, calls: ClockCalls, start: float, until: float, step: float = 0.25) -> None:
    """Frames every ``step`` seconds from ``start`` while the sand runs, up to ``until`` (bounded)."""
    for k in range(int((until - start) / step) + 1):
        ear.now = start + k * step
        if sand.is_running(ear.now):
            calls.update(sand, ear.now, ear)


def test_a_long_run_says_its_minute_and_warning_once_and_ticks_its_last_ten_seconds():
    sand = Hourglass(duration=600.0, warning_seconds=30.0)  # Fritzo's ten minutes
    sand.start(0.0)
    ear, calls = _Ear(sand), ClockCalls()
    _run(sand, ear, calls, 0.0, 600.0)
    assert ear.said == [("core.minute_left", 60.0), ("core.seconds_left", 30.0)]
    assert ear.ticks == [10, 9, 8, 7, 6, 5, 4, 3, 2, 1]


def test_a_warning_within_the_last_seconds_is_its_second_s_tick():
    """Haste Worte's sand warns at its ten seconds: that second's tick is the announcement's, not a second one."""
    sand = Hourglass(duration=90.0, warning_seconds=10.0)
    sand.start(0.0)
    ear, calls = _Ear(sand), ClockCalls()
    _run(sand, ear, calls, 0.0, 90.0)
    assert ear.said == [("core.seconds_left", 10.0)]  # a short sand has no minute said
    assert ear.ticks == [9, 8, 7, 6, 5, 4, 3, 2, 1]


def test_the_next_run_is_said_and_ticked_afresh():
    """A run stopped at a second it ticked: the next run ticks that second again, and says its warnings again."""
    sand = Hourglass(duration=600.0, warning_seconds=30.0)
    sand.start(0.0)
    ear, calls = _Ear(sand), ClockCalls()
    _run(sand, ear, calls, 0.0, 590.0)
    sand.cancel(590.0)
    assert ear.ticks == [10]
    sand.start(1000.0)
    _run(sand, ear, calls, 1000.0, 1600.0)
    assert [key for key, _ in ear.said] == ["core.minute_left", "core.seconds_left"] * 2
    assert ear.ticks == [10, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1]


def test_without_an_announcer_what_was_due_is_not_said_late():
    sand = Hourglass(duration=600.0, warning_seconds=30.0)
    sand.start(0.0)
    calls = ClockCalls()
    calls.update(sand, 545.0, None)  # the minute comes due unheard
    calls.update(sand, 575.0, None)  # and the warning
    ear = _Ear(sand)
    _run(sand, ear, calls, 576.0, 589.0)
    assert ear.said == [] and ear.ticks == []
