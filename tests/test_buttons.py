"""Buttons through gpiozero's mock pins (chatter, long presses) and the keyboard with the same press logic."""

from __future__ import annotations

import sys
import threading
import types

import pygame
import pytest
from gpiozero.pins.mock import MockFactory, MockPin

from companion.errors import ConfigError
from hardware import buttons as buttons_mod
from hardware.buttons import DEFAULT_PINS, HOLD_LONGER, LONG_PRESS_BUTTONS, ButtonPanel, PressTracker
from hardware.events import Button, ButtonEvent, Press
from hardware.keyboard import KEY_BUTTONS, KeyboardButtons, button_for_key


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def panel(clock: FakeClock):
    p = ButtonPanel(dict(DEFAULT_PINS), hold_time=1.0, debounce=0.03, clock=clock, pin_factory=MockFactory())
    yield p
    p.close()


def press(panel: ButtonPanel, button: Button) -> None:
    panel.pin(button).drive_low()  # pull-up wiring: a pressed button connects the pin to ground


def release(panel: ButtonPanel, button: Button) -> None:
    panel.pin(button).drive_high()


def settle(clock: FakeClock) -> None:
    """Time for a release to count: the pin stayed up for the debounce (30 ms) since its last edge."""
    clock.now += 0.03


def chatter(panel: ButtonPanel, clock: FakeClock, button: Button, levels: list[bool],
            step: float = 0.004) -> None:
    """Contact bounce: the pin flips between levels a few milliseconds apart."""
    for down in levels:
        (press if down else release)(panel, button)
        clock.now += step


def short(button: Button) -> ButtonEvent:
    return ButtonEvent(button, Press.SHORT)


def long(button: Button) -> ButtonEvent:
    return ButtonEvent(button, Press.LONG)


class ShortedPin(MockPin):
    """A pin tied to ground whatever its pull-up (a shorted lead, a switch wired normally-closed): low from the
    moment it is opened, so gpiozero sees no edge."""

    def _set_pull(self, value: str) -> None:
        super()._set_pull(value)
        self._change_state(False)


def shorted(*buttons: Button) -> MockFactory:
    """Mock pins where ``buttons``' pins read pressed from the start."""
    factory = MockFactory()
    for button in buttons:
        factory.pin(DEFAULT_PINS[button], pin_class=ShortedPin)
    return factory


def test_a_clean_press_of_roll_reports_one_short_press(panel: ButtonPanel, clock: FakeClock) -> None:
    press(panel, Button.ROLL)
    assert panel.poll() == [short(Button.ROLL)]
    clock.now += 0.2
    release(panel, Button.ROLL)
    assert panel.poll() == []


def test_chatter_on_press_and_release_counts_as_one_press(panel: ButtonPanel, clock: FakeClock) -> None:
    chatter(panel, clock, Button.NEXT, [True, False, True, False, True, False, True])
    assert panel.poll() == [short(Button.NEXT)]
    clock.now += 0.3
    chatter(panel, clock, Button.NEXT, [False, True, False, True, False])
    clock.now += 0.05
    assert panel.poll() == []
    clock.now += 0.3
    press(panel, Button.NEXT)  # a real second press after the chatter has settled
    assert panel.poll() == [short(Button.NEXT)]


@pytest.mark.parametrize("edges", [
    [(0, True), (8, False), (20, True), (35, False), (38, True), (150, False)],  # press chatter to 38 ms
    [(0, True), (150, False), (160, True), (185, False), (190, True), (195, False)],  # release chatter for 45 ms
])
def test_chatter_longer_than_the_debounce_is_still_one_press(panel: ButtonPanel, clock: FakeClock,
                                                             edges: list[tuple[int, bool]]) -> None:
    """Worn contacts chatter for 40 ms and more: a level up 30 ms after the press and down again was taken for a
    release and a second press, and NEXT moved twice. The app loop polls at 60 fps, here at every edge too."""
    start, events = clock.now, []
    for button in (Button.NEXT, Button.UNDO):
        polled = 0
        for ms, down in edges:
            while polled + 16 < ms:
                polled += 16
                clock.now = start + polled / 1000
                events += panel.poll()
            clock.now = start + ms / 1000
            (press if down else release)(panel, button)
            events += panel.poll()
        for _ in range(40):
            clock.now += 1 / 60
            events += panel.poll()
        assert not panel.tracker.held(button)
        start = clock.now + 1.0
    assert events == [short(Button.NEXT), short(Button.UNDO)]


def test_a_release_that_chatters_is_dated_at_its_last_edge(panel: ButtonPanel, clock: FakeClock) -> None:
    """The hold's length runs to the last lift: UNDO let go at 0.95 s with chatter to 0.99 s is still short, let go
    at 1.02 s long (a second's hold); NEXT's repeats stop as the finger lifts, not 30 ms later."""
    for held, expected in ((0.95, [short(Button.UNDO)]), (1.02, [long(Button.UNDO)])):
        start = clock.now
        press(panel, Button.UNDO)
        clock.now = start + held
        chatter(panel, clock, Button.UNDO, [False, True, False, True, False], step=0.008)
        clock.now += 0.05
        assert panel.poll() == expected
        clock.now += 1.0
    press(panel, Button.NEXT)
    assert panel.poll() == [short(Button.NEXT)]
    clock.now += 0.6
    assert panel.poll() == [short(Button.NEXT)]  # repeating
    clock.now += 0.1
    release(panel, Button.NEXT)
    clock.now += 0.02  # inside the release's window, when the next repeat (0.75 s) is due
    assert panel.poll() == []
    clock.now += 0.02
    assert panel.poll() == [] and not panel.tracker.held(Button.NEXT)


def test_without_debounce_the_same_chatter_would_be_many_presses(clock: FakeClock) -> None:
    with ButtonPanel({Button.NEXT: 23}, debounce=0.0, clock=clock, pin_factory=MockFactory()) as raw:
        chatter(raw, clock, Button.NEXT, [True, False, True, False, True])
        assert raw.poll() == [short(Button.NEXT)] * 3


def test_chatter_that_settles_released_is_not_left_stuck_down(panel: ButtonPanel, clock: FakeClock) -> None:
    chatter(panel, clock, Button.UNDO, [True, False, True, False])  # ends released, in the window
    clock.now += 0.05
    events = panel.poll()
    assert not panel.tracker.held(Button.UNDO)
    assert events == [short(Button.UNDO)]
    clock.now += 2.0
    assert panel.poll() == []  # no phantom long press from a button believed held


def test_undo_held_fires_long_once_while_held_and_nothing_on_release(panel: ButtonPanel,
                                                                    clock: FakeClock) -> None:
    press(panel, Button.UNDO)
    assert panel.poll() == []
    clock.now += 0.6
    assert panel.poll() == []
    clock.now += 0.4
    assert panel.poll() == [long(Button.UNDO)]
    clock.now += 1.0
    assert panel.poll() == []
    release(panel, Button.UNDO)
    assert panel.poll() == []


def test_undo_released_before_hold_time_is_a_short_press(panel: ButtonPanel, clock: FakeClock) -> None:
    press(panel, Button.UNDO)
    clock.now += 0.4
    assert panel.poll() == []
    release(panel, Button.UNDO)
    settle(clock)
    assert panel.poll() == [short(Button.UNDO)]


@pytest.mark.parametrize("button", sorted(LONG_PRESS_BUTTONS))
def test_every_long_press_button_has_both_presses(panel: ButtonPanel, clock: FakeClock,
                                                  button: Button) -> None:
    press(panel, button)
    clock.now += 1.0 * HOLD_LONGER.get(button, 1.0)
    assert panel.poll() == [long(button)]
    release(panel, button)
    clock.now += 0.5
    press(panel, button)
    clock.now += 0.1
    release(panel, button)
    settle(clock)
    assert panel.poll() == [short(button)]


def test_roll_held_long_is_still_one_short_press(panel: ButtonPanel, clock: FakeClock) -> None:
    press(panel, Button.ROLL)
    clock.now += 3.0
    assert panel.poll() == [short(Button.ROLL)]
    release(panel, Button.ROLL)
    assert panel.poll() == []


def test_next_held_repeats_until_released_and_a_tap_does_not(panel: ButtonPanel, clock: FakeClock) -> None:
    press(panel, Button.NEXT)
    assert panel.poll() == [short(Button.NEXT)]
    presses = 0
    for _ in range(39):  # held for 1.95 s, polled every 50 ms as the app loop does
        clock.now += 0.05
        presses += len(panel.poll())
    assert presses == 12  # at 0.5 s, then every 0.125 s up to 1.875 s
    release(panel, Button.NEXT)
    clock.now += 1.0
    assert panel.poll() == []
    press(panel, Button.NEXT)  # a tap, however slow, is one step
    clock.now += 0.45
    release(panel, Button.NEXT)
    assert panel.poll() == [short(Button.NEXT)]
    clock.now += 1.0
    assert panel.poll() == []


@pytest.mark.parametrize("button", [Button.NEXT, Button.UNDO])
def test_a_button_jammed_down_stops_repeating_once_it_is_taken_for_stuck(panel: ButtonPanel, clock: FakeClock,
                                                                         button: Button) -> None:
    """A NEXT jammed mid-evening was named after 15 s, and moved the highlight 8 times a second on under the words
    asking whether it was stuck. Once taken for stuck it is quiet; let go, it works again."""
    press(panel, button)
    events, late = [], []
    for _ in range(300):  # 30 s, polled ten times a second
        clock.now += 0.1
        (events if panel.tracker.stuck() == [] else late).extend(panel.poll())
    assert panel.tracker.stuck() == [button]
    assert late == [] and events  # a hold of NEXT repeated, UNDO pressed long, before it was taken for stuck
    release(panel, button)
    clock.now += 0.1
    assert panel.poll() == [] and panel.tracker.stuck() == []
    press(panel, button)
    again = panel.poll()
    for _ in range(12):
        clock.now += 0.1
        again += panel.poll()
    if button.step:  # at once, then repeating from 0.5 s on
        assert set(again) == {short(button)} and len(again) >= 5
    else:
        assert again == [long(button)]


def test_a_stalled_frame_during_a_held_next_moves_one_step_not_many(panel: ButtonPanel, clock: FakeClock) -> None:
    press(panel, Button.NEXT)
    assert panel.poll() == [short(Button.NEXT)]
    clock.now += 2.0
    assert panel.poll() == [short(Button.NEXT)]
    clock.now += 0.05
    assert panel.poll() == []


def test_a_hold_between_two_polls_of_a_stalled_loop_is_still_long(panel: ButtonPanel,
                                                                  clock: FakeClock) -> None:
    press(panel, Button.TIMER)
    clock.now += 1.5
    release(panel, Button.TIMER)
    settle(clock)
    assert panel.poll() == [long(Button.TIMER)]


def test_a_button_down_at_switch_on_is_known_and_does_nothing_until_freed(clock: FakeClock) -> None:
    """A shorted pin or a switch wired the wrong way: gpiozero calls back on a change only, so it was never seen,
    never named, and lay dead all evening. Known as down, it fires no long press (a stuck SELECT muted nobody's
    table, a stuck UNDO took back no step) and no repeats; freed, it works as any other."""
    pins = shorted(Button.SELECT, Button.UNDO, Button.NEXT)
    with ButtonPanel(dict(DEFAULT_PINS), clock=clock, pin_factory=pins) as p:
        assert p.down_at_start == [Button.NEXT, Button.SELECT, Button.UNDO]
        events = []
        for _ in range(200):  # 20 s, polled ten times a second
            clock.now += 0.1
            events += p.poll()
        assert events == []
        assert p.tracker.held(Button.SELECT) and p.tracker.stuck(15.0) == []  # named at the start, not again
        assert p.tracker.holding() is None  # no hint filled for a hold that will do nothing
        press(p, Button.ROLL)
        assert p.poll() == [short(Button.ROLL)]  # the others work meanwhile
        for button in (Button.SELECT, Button.UNDO, Button.NEXT):
            release(p, button)
        clock.now += 0.1
        assert p.poll() == [] and p.down_at_start == []
        for button in (Button.SELECT, Button.UNDO):
            press(p, button)
            clock.now += 0.1
            release(p, button)
            clock.now += 0.1
            assert p.poll() == [short(button)]
            press(p, button)
            clock.now += 2.0
            assert p.poll() == [long(button)]
            release(p, button)
            clock.now += 0.5


def test_presses_before_the_screen_is_seen_act_on_nothing_but_are_kept(panel: ButtonPanel,
                                                                      clock: FakeClock) -> None:
    """The buttons open before the app is built (seconds on a Pi): two NEXTs and a SELECT on the black screen moved
    the highlight and chose on a menu nobody had seen. Dropped; a button still down says nothing until let go, and
    one that stays down is still found stuck."""
    for button in (Button.NEXT, Button.NEXT, Button.SELECT):
        press(panel, button)
        clock.now += 0.1
        release(panel, button)
        clock.now += 0.3
    press(panel, Button.UNDO)  # held through the start
    press(panel, Button.TIMER)  # stuck from before the start
    clock.now += 0.5
    panel.tracker.ignore_before()
    events = []
    for _ in range(20):
        clock.now += 0.1
        events += panel.poll()
    assert events == [] and panel.tracker.held(Button.UNDO)
    release(panel, Button.UNDO)
    settle(clock)
    assert panel.poll() == []
    press(panel, Button.NEXT)
    assert panel.poll() == [short(Button.NEXT)]
    clock.now += 15.0
    panel.poll()
    assert panel.tracker.stuck() == [Button.TIMER]


def test_two_buttons_at_once_are_both_reported(panel: ButtonPanel, clock: FakeClock) -> None:
    press(panel, Button.ROLL)
    press(panel, Button.SELECT)
    clock.now += 0.1
    release(panel, Button.SELECT)
    settle(clock)
    assert panel.poll() == [short(Button.ROLL), short(Button.SELECT)]


def test_presses_from_another_thread_arrive_in_poll(panel: ButtonPanel, clock: FakeClock) -> None:
    worker = threading.Thread(target=press, args=(panel, Button.REROLL))
    worker.start()
    worker.join()
    assert panel.poll() == [short(Button.REROLL)]


def test_the_default_pins_are_the_documented_wiring() -> None:
    assert {b: p for b, p in DEFAULT_PINS.items()} == {
        Button.ROLL: 17, Button.REROLL: 27, Button.TIMER: 22,
        Button.NEXT: 23, Button.SELECT: 24, Button.UNDO: 25,
    }
    with ButtonPanel(pin_factory=MockFactory()) as p:
        assert {b: p.pin(b).info.name for b in DEFAULT_PINS} == {b: f"GPIO{n}" for b, n in DEFAULT_PINS.items()}


def test_a_seventh_button_wired_for_prev_moves_back(tmp_path, clock: FakeClock) -> None:
    """The table's six buttons have no PREV (the keyboard's arrows have); a club that wires a seventh names it in
    the config, and the same pin code reports it."""
    from companion import config

    path = tmp_path / "config.toml"
    path.write_text("[buttons.pins]\nprev = 5\n", encoding="utf-8")
    pins = config.load(path).buttons.pins
    assert pins["prev"] == 5 and pins["next"] == 23
    with ButtonPanel({Button(k): v for k, v in pins.items()}, clock=clock, pin_factory=MockFactory()) as p:
        press(p, Button.PREV)
        clock.now += 0.1
        release(p, Button.PREV)
        assert p.poll() == [short(Button.PREV)]


def test_two_buttons_on_one_pin_is_a_clear_config_error() -> None:
    with pytest.raises(ConfigError, match=r"buttons\.pins\.reroll = 17"):
        ButtonPanel({Button.ROLL: 17, Button.REROLL: 17}, pin_factory=MockFactory())


class _BusyPins(MockFactory):
    """GPIO 27 held by another program (lgpio says "GPIO busy")."""

    def pin(self, spec, **kwargs):
        if spec == 27:
            raise _LgpioError("GPIO busy")
        return super().pin(spec, **kwargs)


def test_one_busy_pin_leaves_the_other_buttons_working(clock: FakeClock) -> None:
    """Another program holding GPIO 27 (REROLL's) took all six buttons with it; the other five work."""
    with ButtonPanel(dict(DEFAULT_PINS), clock=clock, pin_factory=_BusyPins()) as p:
        assert p.unusable == {Button.REROLL: 27}
        assert "5 buttons" in p.description
        press(p, Button.ROLL)
        assert p.poll() == [short(Button.ROLL)]
    with pytest.raises(ConfigError, match=r"buttons\.pins\.reroll = 27: .*GPIO busy"):  # nothing else: no panel
        ButtonPanel({Button.REROLL: 27}, pin_factory=_BusyPins())


def test_bad_hold_time_is_a_clear_config_error() -> None:
    with pytest.raises(ConfigError, match="hold_time"):
        PressTracker(hold_time=0)


def test_off_a_pi_the_panel_uses_mock_pins(monkeypatch: pytest.MonkeyPatch, clock: FakeClock) -> None:
    monkeypatch.setattr(buttons_mod, "on_raspberry_pi", lambda: False)
    with ButtonPanel({Button.SELECT: 24}, clock=clock) as p:
        assert p.mock
        assert "mock" in p.description
        press(p, Button.SELECT)
        clock.now += 0.2
        release(p, Button.SELECT)
        settle(clock)
        assert p.poll() == [short(Button.SELECT)]


def test_mock_pins_are_chosen_by_environment_or_by_missing_pi(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(buttons_mod, "on_raspberry_pi", lambda: True)
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    assert not buttons_mod.use_mock_pins()
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    assert buttons_mod.use_mock_pins()
    monkeypatch.setattr(buttons_mod, "on_raspberry_pi", lambda: False)
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY")
    assert buttons_mod.use_mock_pins()


def test_diagnose_says_which_pins_and_how_to_use_the_keyboard(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(buttons_mod, "on_raspberry_pi", lambda: False)
    lines = buttons_mod.diagnose()
    assert any("mock" in line and "not a Raspberry Pi" in line for line in lines)
    assert any("Backspace" in line for line in lines)


def test_diagnose_on_a_pi_names_the_wiring_the_config_asks_for(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(buttons_mod, "board_model", lambda: "Raspberry Pi 5 Model B Rev 1.0")
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    monkeypatch.setitem(sys.modules, "lgpio", types.ModuleType("lgpio"))
    lines = buttons_mod.diagnose({"roll": 5, "next": 6})
    assert "Pins: lgpio on Raspberry Pi 5 Model B Rev 1.0" in lines
    assert any(line.startswith("Wiring (BCM): roll GPIO5, next GPIO6;") for line in lines)
    assert any(line.startswith("Default wiring (BCM): roll GPIO17,") for line in buttons_mod.diagnose())


# -- keyboard ------------------------------------------------------------------------------------------------


def key_event(kind: int, key: int) -> pygame.event.Event:
    return pygame.event.Event(kind, key=key)


def test_every_button_has_a_key_and_the_brief_keys_map() -> None:
    assert set(KEY_BUTTONS.values()) == set(Button)
    expected = {
        pygame.K_SPACE: Button.ROLL, pygame.K_r: Button.ROLL,
        pygame.K_e: Button.REROLL, pygame.K_t: Button.TIMER,
        pygame.K_RIGHT: Button.NEXT, pygame.K_DOWN: Button.NEXT, pygame.K_TAB: Button.NEXT,
        pygame.K_LEFT: Button.PREV, pygame.K_UP: Button.PREV,
        pygame.K_RETURN: Button.SELECT, pygame.K_BACKSPACE: Button.UNDO, pygame.K_u: Button.UNDO,
    }
    assert {k: button_for_key(k) for k in expected} == expected
    assert button_for_key(pygame.K_q) is None


def test_keyboard_short_and_long_presses_use_the_same_logic(clock: FakeClock) -> None:
    keys = KeyboardButtons(hold_time=1.0, clock=clock)
    assert isinstance(keys.tracker, PressTracker)
    assert keys.handle(key_event(pygame.KEYDOWN, pygame.K_SPACE))
    assert keys.poll() == [short(Button.ROLL)]
    keys.handle(key_event(pygame.KEYUP, pygame.K_SPACE))
    keys.handle(key_event(pygame.KEYDOWN, pygame.K_BACKSPACE))
    clock.now += 0.5
    assert keys.poll() == []
    clock.now += 0.5
    assert keys.poll() == [long(Button.UNDO)]
    keys.handle(key_event(pygame.KEYUP, pygame.K_BACKSPACE))
    assert keys.poll() == []
    keys.handle(key_event(pygame.KEYDOWN, pygame.K_u))
    clock.now += 0.2
    keys.handle(key_event(pygame.KEYUP, pygame.K_u))
    assert keys.poll() == [short(Button.UNDO)]


def test_a_held_nexts_repeats_are_told_from_its_presses(panel: ButtonPanel, clock: FakeClock) -> None:
    """The app answers a press nothing takes once per press, not per repeat: a held NEXT sounded the refusal's
    notes 9 times in 5 s. The first event is the press, the rest repeats; a tap after it is a press again."""
    press(panel, Button.NEXT)
    events = panel.poll()
    for _ in range(20):
        clock.now += 0.05
        events += panel.poll()
    assert len(events) > 2 and [e.repeat for e in events] == [False] + [True] * (len(events) - 1)
    assert events[1] == short(Button.NEXT)  # a repeat moves a highlight as a press does
    release(panel, Button.NEXT)
    settle(clock)
    assert panel.poll() == []
    clock.now += 0.5
    press(panel, Button.NEXT)
    assert [e.repeat for e in panel.poll()] == [False]


def test_keyboard_arrow_held_repeats_like_the_arcade_button(clock: FakeClock) -> None:
    keys = KeyboardButtons(hold_time=1.0, clock=clock)
    keys.handle(key_event(pygame.KEYDOWN, pygame.K_DOWN))
    assert keys.poll() == [short(Button.NEXT)]
    clock.now += 0.75
    assert keys.poll() == [short(Button.NEXT)]
    keys.handle(key_event(pygame.KEYUP, pygame.K_DOWN))
    clock.now += 0.75
    assert keys.poll() == []


def test_keyboard_ignores_other_keys_and_events(clock: FakeClock) -> None:
    keys = KeyboardButtons(clock=clock)
    assert not keys.handle(key_event(pygame.KEYDOWN, pygame.K_q))
    assert not keys.handle(pygame.event.Event(pygame.MOUSEMOTION, pos=(1, 1)))
    assert keys.poll() == []


def test_two_keys_for_one_button_are_tracked_apart(clock: FakeClock) -> None:
    keys = KeyboardButtons(clock=clock)
    keys.key_down(pygame.K_RETURN)
    clock.now += 0.3
    keys.key_down(pygame.K_KP_ENTER)
    keys.key_up(pygame.K_KP_ENTER)  # the other Enter is still held: not a release of it
    assert keys.poll() == [short(Button.SELECT)]
    clock.now += 1.8  # SELECT's long press: 2 s (the sound off)
    assert keys.poll() == [long(Button.SELECT)]


@pytest.mark.parametrize("button", [Button.ROLL, Button.SELECT, Button.UNDO])
def test_a_quick_double_press_is_one_press_and_next_steps_twice(panel: ButtonPanel, clock: FakeClock,
                                                                 button: Button) -> None:
    """A child's double tap (0.2 s apart) counted in the step the first press led to: Papa's start combo rolled, a
    word count given to the next reader. Two presses half a second apart are two; NEXT steps twice however fast."""
    events = []
    for gap in (0.1, 0.1, 0.5, 0.1):  # down, up, down (0.2 s after the first: the same press), up, ... 0.5 s later
        press(panel, button)
        clock.now += gap / 2
        events += panel.poll()
        release(panel, button)
        clock.now += gap / 2
        events += panel.poll()
    assert events == [short(button)] * 2  # the first and the one half a second later
    if button in LONG_PRESS_BUTTONS:  # a tap, then the same button held at once: the hold is meant
        clock.now += 0.5
        press(panel, button)
        clock.now += 0.1
        release(panel, button)
        clock.now += 0.1
        press(panel, button)
        clock.now += 2.5
        assert panel.poll() == [short(button), long(button)]
        release(panel, button)
        assert panel.poll() == []
    for _ in range(2):
        press(panel, Button.NEXT)
        clock.now += 0.05
        release(panel, Button.NEXT)
        clock.now += 0.05
    assert panel.poll() == [short(Button.NEXT)] * 2


def test_roll_and_reroll_together_throw_once(panel: ButtonPanel, clock: FakeClock) -> None:
    """Two children pressing ROLL and REROLL at once (or REROLL a moment after ROLL) threw twice: Noch X-Mal! took
    the next player's start combo unseen, Haste Worte replaced the first symbols before anyone saw them. They share
    one double-press window; half a second later REROLL is meant."""
    press(panel, Button.ROLL)
    press(panel, Button.REROLL)
    clock.now += 0.15
    release(panel, Button.ROLL)
    release(panel, Button.REROLL)
    clock.now += 0.1
    assert panel.poll() == [short(Button.ROLL)]
    clock.now += 0.2  # 0.45 s after the first: meant
    press(panel, Button.REROLL)
    clock.now += 0.1
    release(panel, Button.REROLL)
    clock.now += 0.1
    press(panel, Button.ROLL)  # 0.1 s after that: the same throw
    clock.now += 0.1
    release(panel, Button.ROLL)
    assert panel.poll() == [short(Button.REROLL)]
    press(panel, Button.TIMER)  # the other buttons keep windows of their own
    clock.now += 0.1
    release(panel, Button.TIMER)
    clock.now += 0.1
    assert panel.poll() == [short(Button.TIMER)]


def test_the_keyboard_shares_the_throw_window_too(clock: FakeClock) -> None:
    """Space (or R) and E a moment apart on a laptop: one throw, as on the arcade buttons."""
    keys = KeyboardButtons(clock=clock)
    keys.key_down(pygame.K_SPACE)
    clock.now += 0.1
    keys.key_up(pygame.K_SPACE)
    keys.key_down(pygame.K_e)
    keys.key_up(pygame.K_e)
    clock.now += 0.1
    keys.key_down(pygame.K_r)
    keys.key_up(pygame.K_r)
    assert keys.poll() == [short(Button.ROLL)]


def test_presses_again_and_again_count_every_other_one_not_once(panel: ButtonPanel, clock: FakeClock) -> None:
    """The window runs from the last press that counted: ROLL every 0.3 s counted once until a pause."""
    events = []
    for _ in range(5):
        press(panel, Button.ROLL)
        clock.now += 0.15
        release(panel, Button.ROLL)
        clock.now += 0.15
        events += panel.poll()
    assert events == [short(Button.ROLL)] * 3  # at 0, 0.6 and 1.2 s


def test_select_is_held_two_seconds_to_turn_the_sound_off(panel: ButtonPanel, clock: FakeClock) -> None:
    """A child's or a grandparent's firm press of a second muted the table and chose nothing."""
    press(panel, Button.SELECT)
    clock.now += 1.2
    assert panel.poll() == []  # not yet
    release(panel, Button.SELECT)
    settle(clock)
    assert panel.poll() == [short(Button.SELECT)]  # a slow press still chooses
    clock.now += 0.5
    press(panel, Button.SELECT)
    clock.now += 2.0
    assert panel.poll() == [long(Button.SELECT)]


def test_doctor_checks_the_wiring_of_the_config_not_the_default(monkeypatch: pytest.MonkeyPatch, tmp_path) -> None:
    from companion import doctor

    monkeypatch.setattr(buttons_mod, "board_model", lambda: "Raspberry Pi 5 Model B Rev 1.0")
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    monkeypatch.setitem(sys.modules, "lgpio", types.ModuleType("lgpio"))
    cfg = tmp_path / "config.toml"
    cfg.write_text("[buttons.pins]\nroll = 5\n", encoding="utf-8")
    assert "roll GPIO5, reroll GPIO27" in doctor.report(str(cfg))


class _LgpioError(Exception):
    """lgpio's own error (``class error(Exception)``): a pin another program holds raises it, not gpiozero's."""


@pytest.mark.parametrize(("raised", "says"), [(_LgpioError("GPIO busy"), r"buttons\.pins\.\w+ = \d+: .*GPIO busy"),
                                              (None, "python3-lgpio")])
def test_a_pin_library_refusing_is_said_with_the_fix_that_helps(raised, says) -> None:
    """A busy pin under lgpio went past the pin's message; no pin library at all was told to pick another pin."""
    from gpiozero.exc import BadPinFactory

    from companion.errors import CompanionError

    class Refusing(MockFactory):
        def pin(self, spec):
            raise raised if raised is not None else BadPinFactory("Unable to load any default pin factory!")

    with pytest.raises(CompanionError, match=says):
        ButtonPanel({Button.ROLL: 17}, pin_factory=Refusing())
