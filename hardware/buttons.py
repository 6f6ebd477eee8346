"""The arcade buttons on GPIO pins, and the press logic shared with the keyboard.

gpiozero is used only to get raw edges from the pins. Debounce and long-press are decided here, by
:class:`PressTracker`, with an injectable clock: gpiozero's mock pins ignore ``bounce_time`` and its hold
timer runs on a real thread, so neither could be tested. Off a Raspberry Pi the mock pin factory is used, so
the same code path runs on a laptop and in tests (drive a mock pin low to press a button).

Wiring (see ``docs/wiring.md``): each button between its GPIO pin and ground, with the Pi's internal pull-up,
so a pressed button reads low.
"""

from __future__ import annotations

import logging
import os
import queue
import time
from collections.abc import Callable, Hashable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from companion.errors import CompanionError, ConfigError
from hardware.events import Button, ButtonEvent, Press

Clock = Callable[[], float]
log = logging.getLogger(__name__)

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
#: a button held down this long is taken for stuck (the app names it then: ``App._say_stuck``): it repeats and
#: presses long no more until it is let go. A jammed NEXT spun the highlight on, 8 steps a second, under the words
#: asking whether it was stuck. No long press takes as long (``hold_time`` is at most 5 s, SELECT's twice that)
STUCK_AFTER = 15.0
#: buttons that share one ``DOUBLE_PRESS`` window: ROLL and REROLL both throw, so two children pressing them together
#: (or REROLL a moment after ROLL) threw twice: Noch X-Mal! took the next player's start combo unseen, Haste Worte
#: replaced the first symbols before anyone saw them. The second within the window is the first one doubled
DOUBLE_GUARD: dict[Button, str] = {Button.ROLL: "roll", Button.REROLL: "roll"}


@dataclass
class _State:
    down: bool = False  # the debounced state
    changed_at: float = float("-inf")  # when the debounced state last changed
    raw: bool = False  # the last level actually seen, even inside the debounce window
    raw_at: float = float("-inf")  # when that level was first seen (the last raw edge)
    long_fired: bool = False
    repeats: int = 0  # the repeats already reported for this hold
    guard: Hashable = None  # whose presses share its ``DOUBLE_PRESS`` window (``DOUBLE_GUARD``, else its channel)
    doubled: bool = False  # this press came too soon after the last one: it reports a hold only
    #: this hold reports nothing (no long press, no repeat, nothing on release): it was down already when the pin
    #: was opened (a shorted pin, a switch wired the wrong way), went down before the app could show a screen
    #: (``ignore_before``), or is taken for stuck (``STUCK_AFTER``). It ends with the release: the next press counts
    numb: bool = False
    at_start: bool = False  # down when the pin was opened: named then (``ButtonPanel.down_at_start``), not as stuck


class PressTracker:
    """Raw down/up edges in, SHORT/LONG :class:`ButtonEvent` out: the logic behind both GPIO and keyboard.

    Debounce: a press counts at once; edges closer than ``debounce`` seconds to it are contact chatter and
    ignored, and when that window ends the level last seen wins. A release counts only once the level has stayed up
    for ``debounce`` since the last edge, and is dated at that edge: worn contacts chatter for 40 ms and more, and a
    level that was up 30 ms after the press (or after the first lift) and down again was taken for a second press
    (NEXT moved twice). Buttons in ``long_buttons`` report SHORT on release before ``hold_time`` and LONG once, while
    still held, when ``hold_time`` is reached (SELECT: ``HOLD_LONGER``; checked in :meth:`poll`); their release
    after a LONG reports nothing. Other buttons report SHORT as soon as they go down, which feels snappier for ROLL
    and NEXT; NEXT and PREV report another SHORT every ``REPEAT_INTERVAL`` once held for ``REPEAT_DELAY``, at most
    one a poll, so a stalled frame does not make the highlight jump. A second press of a button (NEXT and PREV
    aside) within ``DOUBLE_PRESS`` of its last press that counted reports a hold only (a double tap is one press);
    ROLL and REROLL share that window (``DOUBLE_GUARD``).

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
        #: when each double-press window (``_State.guard``) last began: the last press there that counted
        self._counted: dict[Hashable, float] = {}
        self._live_from = float("-inf")  # edges stamped before it are kept as state, never as presses

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
            _, state = self._state(channel, button)
            if at < self._live_from:  # before the table could see a screen: the level only
                state.raw, state.raw_at = pressed, at
                if pressed != state.down:
                    state.down, state.changed_at, state.numb = pressed, at, pressed
                    state.long_fired, state.repeats, state.at_start = False, 0, state.at_start and pressed
                continue
            if state.down and not state.raw and at - state.raw_at >= self.debounce:
                self._change(button, state, False, state.raw_at, events)  # up long enough before this edge
            state.raw, state.raw_at = pressed, at
            if pressed and not state.down and at - state.changed_at >= self.debounce:
                self._change(button, state, True, at, events)
        now = self.clock()
        for button, state in self._states.values():
            if state.down and not state.raw and now - state.raw_at >= self.debounce:
                self._change(button, state, False, state.raw_at, events)  # up for the whole window: let go then
            elif state.raw and not state.down and now - state.changed_at >= self.debounce:
                self._change(button, state, True, now, events)  # the chatter settled down
            if state.down and now - state.changed_at > STUCK_AFTER:
                state.numb = True  # stuck: nothing more from this hold (``STUCK_AFTER``)
            if (state.down and state.raw and not state.numb and not state.long_fired and button in self.long_buttons
                    and now - state.changed_at >= self.hold_for(button)):
                state.long_fired = True
                events.append(ButtonEvent(button, Press.LONG))
            if state.down and state.raw and not state.numb and button.step and now - state.changed_at >= REPEAT_DELAY:
                due = int((now - state.changed_at - REPEAT_DELAY) / REPEAT_INTERVAL) + 1
                if due > state.repeats:
                    state.repeats = due
                    events.append(ButtonEvent(button, Press.SHORT, repeat=True))
        return events

    def ignore_before(self, at: float | None = None) -> None:
        """Edges stamped before ``at`` (now) act on nothing: the buttons open before the app is built (its camera,
        journal and menus take seconds on a Pi), and presses made on the black screen meanwhile moved a highlight
        and chose on a menu nobody had seen. What they left is kept: a button still down reports nothing until it is
        let go, and one that stays down is still found stuck (``stuck``)."""
        self._live_from = self.clock() if at is None else at

    def mark_down_at_start(self, button: Button) -> None:
        """``button`` was down already when its pin was opened: gpiozero calls back on a change only, so a pin
        shorted or a switch wired the wrong way was never seen, and the button lay dead all evening unsaid. Known
        as down from now, it reports nothing until it is released (a SELECT down at switch-on muted the table after
        two seconds, an UNDO took back a step); once released it works as any other."""
        now = self.clock()
        _, state = self._state(button, button)
        state.down = state.raw = state.numb = state.at_start = True
        state.changed_at = state.raw_at = now

    def _state(self, channel: Hashable, button: Button) -> tuple[Button, _State]:
        return self._states.setdefault(channel, (button, _State(guard=DOUBLE_GUARD.get(button, channel))))

    def from_start(self) -> list[Button]:
        """The buttons down since :meth:`mark_down_at_start` and not released since."""
        return [b for b, s in self._states.values() if s.at_start and s.down]

    def hold_for(self, button: Button) -> float:
        """Seconds ``button`` is held for its long press (``HOLD_LONGER``)."""
        return self.hold_time * HOLD_LONGER.get(button, 1.0)

    def stuck(self, after: float = STUCK_AFTER) -> list[Button]:
        """The buttons down for longer than ``after`` seconds (as of the last poll): an arcade button stuck in its
        housing spun the highlight for ever (NEXT), or fired one long press and then lay dead without a word. One
        down since its pin was opened is not among them: it was named then (``ButtonPanel.down_at_start``)."""
        now = self.clock()
        return [b for b, s in self._states.values() if s.down and not s.at_start and now - s.changed_at > after]

    def holding(self) -> tuple[Button, float] | None:
        """The button with a long press held down now (as of the last poll) whose long press has not come yet, and
        how far of the way to it (0 to 1; the furthest one where two are held), else None: the app fills its hint
        as the hold builds (a held UNDO showed nothing for a second until the step was taken back). Not a button
        that will do nothing (down at switch-on, stuck): its fill stood full all evening."""
        now = self.clock()
        held = [(b, max(0.0, min(1.0, (now - s.changed_at) / self.hold_for(b)))) for b, s in self._states.values()
                if s.down and not s.numb and not s.long_fired and b in self.long_buttons]
        return max(held, key=lambda h: h[1], default=None)

    def held(self, button: Button) -> bool:
        """Whether ``button`` is down now (debounced, as of the last poll)."""
        return any(b is button and s.down for b, s in self._states.values())

    def _change(self, button: Button, state: _State, down: bool, at: float,
                events: list[ButtonEvent]) -> None:
        held_for = at - state.changed_at
        numb, state.down, state.changed_at = state.numb, down, at
        state.numb = state.at_start = False
        if down:
            state.long_fired, state.repeats = False, 0
            # the window runs from the last press that counted: presses again and again a third of a second apart
            # count every other one, not once until a pause
            last = self._counted.get(state.guard, float("-inf"))
            state.doubled = not button.step and button not in self.again and at - last < DOUBLE_PRESS
            if not state.doubled:
                self._counted[state.guard] = at
                if button not in self.long_buttons:
                    events.append(ButtonEvent(button, Press.SHORT))
        elif button in self.long_buttons and not state.long_fired and not numb:
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


K = TypeVar("K")
P = TypeVar("P", bound=Hashable)


def shared_pins(pins: Mapping[K, P]) -> list[tuple[K, P, K]]:
    """Each key whose pin an earlier key has already, with that pin and the earlier key, in ``pins``' order: the
    config (which orders the player's keys last, to blame them) and the panel ask this one rule."""
    first: dict[P, K] = {}
    shared: list[tuple[K, P, K]] = []
    for key, pin in pins.items():
        if pin in first:
            shared.append((key, pin, first[pin]))
        else:
            first[pin] = key
    return shared


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
        for button, pin, other in shared_pins(self.pins)[:1]:  # a mistake in the config, not a busy pin: said as one
            from companion.config import pin_used  # (config imports this module: its words, not a copy of them)

            raise pin_used(f"buttons.pins.{button.value}", pin, other.value)
        self.tracker = PressTracker(hold_time, debounce, clock)
        self._own_factory = False
        if pin_factory is None and use_mock_pins():
            from gpiozero.pins.mock import MockFactory

            pin_factory, self._own_factory = MockFactory(), True
        self.pin_factory = pin_factory
        self.mock = type(pin_factory).__name__.startswith("Mock")
        self._devices: dict[Button, GpioButton] = {}
        #: the buttons whose pins could not be opened (busy, or no such pin here), with those pins: the others work.
        #: One busy pin (another program, an overlay on GPIO 27) disabled all six, and the screen named none
        self.unusable: dict[Button, int | str] = {}
        refused: ConfigError | None = None
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
                    error = ConfigError(
                        f"buttons.pins.{button.value} = {pin}: that pin cannot be used ({exc}). "
                        "Pick a free BCM GPIO number (see docs/wiring.md) or stop the program using it."
                    )
                    error.__cause__ = exc
                    log.warning("%s", error)
                    self.unusable[button] = pin
                    refused = refused or error
                    continue
                device.when_pressed = self._callback(button, True)
                device.when_released = self._callback(button, False)
                self._devices[button] = device
                if device.is_pressed:  # no edge will say so: gpiozero calls back on a change only
                    self.tracker.mark_down_at_start(button)
                    log.warning("button %s (GPIO %s) is pressed at switch-on: stuck or wired wrong?", button.value, pin)
            if refused is not None and not self._devices:  # none at all: the panel is no use (the first pin's why)
                raise refused
        except Exception:
            self.close()
            raise

    @property
    def down_at_start(self) -> list[Button]:
        """The buttons down already when their pins were opened (a pin shorted, a switch wired the wrong way), still
        down now: the screen names them at the start (``runtime``), as nothing else would."""
        return self.tracker.from_start()

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
