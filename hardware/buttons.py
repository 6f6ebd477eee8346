"""The arcade buttons on GPIO pins, and the press logic shared with the keyboard.

gpiozero is used only to get raw edges from the pins. Debounce and long-press are decided here, by
:class:`PressTracker`, with an injectable clock: gpiozero's mock pins ignore ``bounce_time`` and its hold
timer runs on a real thread, so neither could be tested. Off a Raspberry Pi the mock pin factory is used, so
the same code path runs on a laptop and in tests (drive a mock pin low to press a button).

Wiring (see ``docs/wiring.md``): each button between its GPIO pin and ground, with the Pi's internal pull-up,
so a pressed button reads low.
"""

from __future__ import annotations

import os
import queue
import time
from collections.abc import Callable, Hashable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from companion.errors import CompanionError, ConfigError
from hardware.events import Button, ButtonEvent, Press

Clock = Callable[[], float]

#: BCM numbers; physical header pins in docs/wiring.md
DEFAULT_PINS: dict[Button, int] = {
    Button.ROLL: 17,
    Button.REROLL: 27,
    Button.TIMER: 22,
    Button.NEXT: 23,
    Button.SELECT: 24,
    Button.UNDO: 25,
}

#: buttons with a second meaning when held: UNDO steps back, TIMER cancels, SELECT toggles mute
LONG_PRESS_BUTTONS: frozenset[Button] = frozenset({Button.UNDO, Button.TIMER, Button.SELECT})
#: SELECT is held this many ``hold_time`` s for its long press (the sound off): a child's or a grandparent's firm
#: press of a second muted the table and chose nothing; the other buttons' long presses take back or stop, at once
HOLD_LONGER: dict[Button, float] = {Button.SELECT: 2.0}
#: the buttons that move a highlight (``Button.step``) repeat while held, as a keyboard's arrow does: a list of 41
#: numbers is one held NEXT, not 40 presses. A held NEXT repeats after this long (a tap lasts 0.1-0.3 s) ...
REPEAT_DELAY = 0.5
#: ... every this many seconds (8 items a second: a player can still let go on the number wanted)
REPEAT_INTERVAL = 0.125
#: a second press of ROLL, REROLL, TIMER, SELECT or UNDO this soon after the first is the same press doubled (a
#: child's quick double tap): it counted in the step the first one led to (Papa's start combo rolled, a word count
#: given to the next reader, a setup question answered unseen). Never meant twice this fast; NEXT and PREV step on
DOUBLE_PRESS = 0.35


@dataclass
class _State:
    down: bool = False  # the debounced state
    changed_at: float = float("-inf")  # when the debounced state last changed
    raw: bool = False  # the last level actually seen, even inside the debounce window
    long_fired: bool = False
    repeats: int = 0  # the repeats already reported for this hold
    pressed_at: float = float("-inf")  # when it last went down as a press of its own (``DOUBLE_PRESS``)
    doubled: bool = False  # this press came too soon after the last one: it reports a hold only


class PressTracker:
    """Raw down/up edges in, SHORT/LONG :class:`ButtonEvent` out: the logic behind both GPIO and keyboard.

    Debounce: the first edge counts at once; edges closer than ``debounce`` seconds to it are contact chatter
    and ignored. When the window ends, the level last seen wins, so a chatter that ends in the other state
    is not lost. Buttons in ``long_buttons`` report SHORT on release before ``hold_time`` and LONG once, while
    still held, when ``hold_time`` is reached (SELECT: ``HOLD_LONGER``; checked in :meth:`poll`); their release
    after a LONG reports nothing. Other buttons report SHORT as soon as they go down, which feels snappier for ROLL
    and NEXT; NEXT and PREV report another SHORT every ``REPEAT_INTERVAL`` once held for ``REPEAT_DELAY``, at most
    one a poll, so a stalled frame does not make the highlight jump. A second press of a button (NEXT and PREV
    aside) within ``DOUBLE_PRESS`` of its last press that counted reports a hold only (a double tap is one press).

    :meth:`edge` may be called from any thread (gpiozero calls back from its own); :meth:`poll` belongs to the
    app loop.
    """

    def __init__(self, hold_time: float = 1.0, debounce: float = 0.03, clock: Clock = time.monotonic,
                 long_buttons: Iterable[Button] = LONG_PRESS_BUTTONS) -> None:
        if hold_time <= 0:
            raise ConfigError(f"buttons.hold_time = {hold_time} is not allowed: use a time above 0 seconds.")
        if debounce < 0:
            raise ConfigError(f"buttons.debounce = {debounce} is not allowed: use 0 or more seconds.")
        self.hold_time = hold_time
        self.debounce = debounce
        self.clock = clock
        self.long_buttons = frozenset(long_buttons)
        #: buttons each of whose presses counts however quick (none doubled, ``DOUBLE_PRESS``): the app names SELECT
        #: here while the row it chooses is one pressed again and again (the pause menu's "Louder"; the tracker knows
        #: no screens). Two quick presses there counted once, and the table heard one step of two
        self.again: frozenset[Button] = frozenset()
        self._edges: queue.SimpleQueue[tuple[Hashable, Button, bool, float]] = queue.SimpleQueue()
        self._states: dict[Hashable, tuple[Button, _State]] = {}

    def edge(self, button: Button, pressed: bool, *, channel: Hashable | None = None,
             at: float | None = None) -> None:
        """Record that ``button`` went down (``pressed``) or up. ``channel`` tells apart two keys that are the
        same button (space and R both roll), so holding one and tapping the other is not a release."""
        self._edges.put((button if channel is None else channel, button, pressed,
                         self.clock() if at is None else at))

    def poll(self) -> list[ButtonEvent]:
        """The presses completed since the last call, in order."""
        events: list[ButtonEvent] = []
        while True:
            try:
                channel, button, pressed, at = self._edges.get_nowait()
            except queue.Empty:
                break
            _, state = self._states.setdefault(channel, (button, _State()))
            state.raw = pressed
            if pressed != state.down and at - state.changed_at >= self.debounce:
                self._change(button, state, pressed, at, events)
        now = self.clock()
        for button, state in self._states.values():
            if state.raw != state.down and now - state.changed_at >= self.debounce:
                self._change(button, state, state.raw, now, events)  # the chatter settled the other way
            if (state.down and not state.long_fired and button in self.long_buttons
                    and now - state.changed_at >= self.hold_for(button)):
                state.long_fired = True
                events.append(ButtonEvent(button, Press.LONG))
            if state.down and button.step and now - state.changed_at >= REPEAT_DELAY:
                due = int((now - state.changed_at - REPEAT_DELAY) / REPEAT_INTERVAL) + 1
                if due > state.repeats:
                    state.repeats = due
                    events.append(ButtonEvent(button, Press.SHORT))
        return events

    def hold_for(self, button: Button) -> float:
        """Seconds ``button`` is held for its long press (``HOLD_LONGER``)."""
        return self.hold_time * HOLD_LONGER.get(button, 1.0)

    def stuck(self, after: float = 10.0) -> list[Button]:
        """The buttons down for longer than ``after`` seconds (as of the last poll): an arcade button stuck in its
        housing spun the highlight for ever (NEXT), or fired one long press and then lay dead without a word."""
        now = self.clock()
        return [b for b, s in self._states.values() if s.down and now - s.changed_at > after]

    def holding(self) -> tuple[Button, float] | None:
        """The button with a long press held down now (as of the last poll) whose long press has not come yet, and
        how far of the way to it (0 to 1; the furthest one where two are held), else None: the app fills its hint
        as the hold builds (a held UNDO showed nothing for a second until the step was taken back)."""
        now = self.clock()
        held = [(b, max(0.0, min(1.0, (now - s.changed_at) / self.hold_for(b)))) for b, s in self._states.values()
                if s.down and not s.long_fired and b in self.long_buttons]
        return max(held, key=lambda h: h[1], default=None)

    def held(self, button: Button) -> bool:
        """Whether ``button`` is down now (debounced, as of the last poll)."""
        return any(b is button and s.down for b, s in self._states.values())

    def _change(self, button: Button, state: _State, down: bool, at: float,
                events: list[ButtonEvent]) -> None:
        held_for = at - state.changed_at
        state.down, state.changed_at = down, at
        if down:
            state.long_fired, state.repeats = False, 0
            # the window runs from the last press that counted: presses again and again a third of a second apart
            # count every other one, not once until a pause
            state.doubled = not button.step and button not in self.again and at - state.pressed_at < DOUBLE_PRESS
            if not state.doubled:
                state.pressed_at = at
                if button not in self.long_buttons:
                    events.append(ButtonEvent(button, Press.SHORT))
        elif button in self.long_buttons and not state.long_fired:
            # a hold that began and ended between two polls (a stalled frame) still counts as long; a doubled
            # press counts only as a hold (a tap, then the same button held at once: the hold is meant)
            held_long = held_for >= self.hold_for(button)
            if held_long or not state.doubled:
                events.append(ButtonEvent(button, Press.LONG if held_long else Press.SHORT))


def board_model() -> str:
    """The board's name from its device tree ("Raspberry Pi 5 Model B Rev 1.0"), empty off such a board."""
    try:
        return Path("/proc/device-tree/model").read_text(errors="replace").strip("\x00")
    except OSError:
        return ""


def on_raspberry_pi() -> bool:
    """Whether this is a Raspberry Pi (its device tree names the model)."""
    return "Raspberry Pi" in board_model()


def use_mock_pins() -> bool:
    """Mock pins off a Pi, or when asked to with GPIOZERO_PIN_FACTORY=mock (gpiozero's own variable)."""
    return os.environ.get("GPIOZERO_PIN_FACTORY", "").lower() == "mock" or not on_raspberry_pi()


class ButtonPanel:
    """The table's arcade buttons: ``poll()`` from the app loop returns the presses since the last frame.

    >>> from gpiozero.pins.mock import MockFactory
    >>> clock = [0.0]
    >>> panel = ButtonPanel({Button.UNDO: 25}, clock=lambda: clock[0], pin_factory=MockFactory())
    >>> pin = panel.pin(Button.UNDO)
    >>> pin.drive_low(); clock[0] = 1.2
    >>> panel.poll()
    [ButtonEvent(button=<Button.UNDO: 'undo'>, press=<Press.LONG: 'long'>)]
    >>> panel.close()
    """

    def __init__(self, pins: dict[Button, int | str] | None = None, hold_time: float = 1.0,
                 debounce: float = 0.03, clock: Clock = time.monotonic, pin_factory=None) -> None:
        from gpiozero import Button as GpioButton
        from gpiozero.exc import BadPinFactory

        self.pins = dict(DEFAULT_PINS if pins is None else pins)
        self.tracker = PressTracker(hold_time, debounce, clock)
        self._own_factory = False
        if pin_factory is None and use_mock_pins():
            from gpiozero.pins.mock import MockFactory

            pin_factory, self._own_factory = MockFactory(), True
        self.pin_factory = pin_factory
        self.mock = type(pin_factory).__name__.startswith("Mock")
        self._devices: dict[Button, GpioButton] = {}
        try:
            for button, pin in self.pins.items():
                try:
                    device = GpioButton(pin, pull_up=True, bounce_time=None, pin_factory=pin_factory)
                except BadPinFactory as exc:  # no pin library at all: no pin number would help
                    raise CompanionError(
                        f"No GPIO library works here ({exc}): sudo apt install python3-lgpio, and make the venv "
                        "with --system-site-packages (scripts/setup.sh does both)."
                    ) from exc
                except Exception as exc:  # gpiozero's own errors, and lgpio's (a busy pin is lgpio.error)
                    raise ConfigError(
                        f"buttons.pins.{button.value} = {pin}: that pin cannot be used ({exc}). "
                        "Pick a free BCM GPIO number (see docs/wiring.md) or stop the program using it."
                    ) from exc
                device.when_pressed = self._callback(button, True)
                device.when_released = self._callback(button, False)
                self._devices[button] = device
        except Exception:
            self.close()
            raise

    def _callback(self, button: Button, pressed: bool) -> Callable[[], None]:
        def record() -> None:
            self.tracker.edge(button, pressed)

        return record

    @property
    def description(self) -> str:
        kind = "mock pins (no GPIO here)" if self.mock else "GPIO"
        return f"{len(self._devices)} buttons on {kind}"

    def pin(self, button: Button):
        """The gpiozero pin of ``button``: on mock pins tests press it with ``drive_low()``."""
        return self._devices[button].pin

    def poll(self) -> list[ButtonEvent]:
        return self.tracker.poll()

    def close(self) -> None:
        devices, self._devices = self._devices, {}
        for device in devices.values():
            device.close()
        if self._own_factory and self.pin_factory is not None:
            self.pin_factory.close()
            self._own_factory = False

    def __enter__(self) -> ButtonPanel:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def diagnose(pins: Mapping[str, int] | None = None) -> list[str]:
    """What ``companion doctor`` says about buttons: which pin factory is found, what is missing, and the wiring
    the config asks for (``pins``, button name to BCM number): a club that moved a button checks it here."""
    lines: list[str] = []
    try:
        import gpiozero  # noqa: F401
    except ImportError:
        return ["gpiozero is not installed: pip install gpiozero (the keyboard still works)."]
    wiring = ", ".join(f"{name} GPIO{p}" for name, p in (pins or {b.value: p for b, p in DEFAULT_PINS.items()}).items())
    if use_mock_pins():
        why = "GPIOZERO_PIN_FACTORY=mock" if on_raspberry_pi() else "not a Raspberry Pi"
        lines.append(f"Pins: mock ({why}): use the keyboard or touch; space/R roll, E reroll, T timer, "
                     "Right/Down/Tab next, Left/Up back, Enter select, Backspace/U undo (hold for long presses).")
        return lines
    try:
        import lgpio  # noqa: F401
    except ImportError:
        lines.append("Pins: lgpio not found: sudo apt install python3-lgpio, and make the venv with "
                     "--system-site-packages.")
        return lines
    lines.append(f"Pins: lgpio on {board_model() or 'an unknown board'}")
    lines.append(f"{'Wiring' if pins else 'Default wiring'} (BCM): {wiring}; each button to GND, internal pull-up "
                 "(docs/wiring.md).")
    return lines
