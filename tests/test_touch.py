"""Playing by touch alone, as the Pi's panel sends it: a finger's FINGERDOWN / FINGERMOTION / FINGERUP (0..1 of the
window) with SDL's mouse copy of each (``touch=True``), through the App's event handling and its Display."""

from __future__ import annotations

import pygame
import pytest
from test_app import _TapScreen

from companion.announcer import Announcer
from companion.app import GAME_ENTRIES, MENU_CORNER, RESTING, App
from companion.audio import NullAudio
from companion.config import Config
from companion.display import Display
from companion.games_ui import register_all
from companion.views.menus import SetupWizard
from hardware.events import Button

register_all()


class Panel:
    """The App on an 800x480 panel, its clock the test's: each frame passes ``dt`` seconds."""

    def __init__(self, tmp_path, *, free_play: bool = False, players: tuple[str, ...] = ("Anna", "Ben"),
                 announcer: bool = False) -> None:
        self.now = 100.0
        cfg = Config()
        cfg.language, cfg.players = "en", list(players)
        self.app = App(cfg, state_dir=tmp_path, display=Display((800, 480), fullscreen=False), use_camera=False,
                       clock=lambda: self.now, wall_clock=lambda: 1.9e9 + self.now, start_free_play=free_play)
        if announcer:
            self.app.announcer = Announcer("en", audio=NullAudio())
        self.frame()

    def frame(self, events: list[pygame.event.Event] = (), dt: float = 0.03) -> None:
        self.now += dt
        self.app.frame(dt, list(events))

    def wait(self, seconds: float) -> None:
        for _ in range(round(seconds / 0.1)):
            self.frame(dt=0.1)

    @staticmethod
    def _finger(kind: int, pos: tuple[int, int], fid: int) -> list[pygame.event.Event]:
        finger = pygame.event.Event(kind, x=pos[0] / 800, y=pos[1] / 480, dx=0.0, dy=0.0, touch_id=1, finger_id=fid,
                                    pressure=1.0)
        mouse = {pygame.FINGERDOWN: pygame.MOUSEBUTTONDOWN, pygame.FINGERUP: pygame.MOUSEBUTTONUP}.get(kind)
        if mouse is None:
            return [finger]
        return [finger, pygame.event.Event(mouse, pos=pos, button=1, touch=True, which=0xFFFFFFFF)]

    def down(self, pos: tuple[int, int], fid: int = 0) -> list[pygame.event.Event]:
        return self._finger(pygame.FINGERDOWN, pos, fid)

    def up(self, pos: tuple[int, int], fid: int = 0) -> list[pygame.event.Event]:
        return self._finger(pygame.FINGERUP, pos, fid)

    def tap(self, pos: tuple[int, int], held: float = 0.06) -> None:
        """A finger's tap: down, then up ``held`` s later."""
        self.frame(self.down(pos))
        self.frame(self.up(pos), dt=held)

    def double_tap(self, pos: tuple[int, int]) -> None:
        """A child's quick double tap: the second finger down 0.12 s after the first lifted."""
        self.tap(pos)
        self.frame(dt=0.06)
        self.tap(pos)

    def item(self, label: str) -> pygame.Rect:
        menu = getattr(self.app.mode, "mode", self.app.mode).menu
        return next(r for i, r in menu.item_rects().items() if label in menu.items[i].label)

    def hint(self, button: Button) -> pygame.Rect:
        return next(r for r, press in self.app.mode.hint_taps if press.button is button)

    def in_setup_of(self, name: str) -> bool:
        """The setup of the game ``name`` is asked, at its first question, nothing answered."""
        wizard = self.app.mode
        first = GAME_ENTRIES[name].setup(self.app.cfg, "en")[0]
        return (isinstance(wizard, SetupWizard) and wizard.steps[0].key == first.key and wizard.index == 0
                and wizard.answers == {})


def test_a_double_tap_on_a_game_opens_its_setup_and_answers_nothing(tmp_path):
    """The second tap of a double tap on "Echt Spitze" answered the setup's first question, unseen."""
    panel = Panel(tmp_path)
    panel.double_tap(panel.item("Echt Spitze").center)
    wizard = panel.app.mode
    assert panel.in_setup_of("echt-spitze")
    panel.wait(0.5)
    panel.tap(panel.item("2: Anna, Ben").center)  # a tap after the double tap's time counts
    assert wizard.index > 0


def test_a_double_tap_on_roll_rolls_once(tmp_path):
    """A double tap on "ROLL roll" counted twice: the second tap was the next step (the next player's, in a game)."""
    panel = Panel(tmp_path, free_play=True)
    panel.double_tap(panel.hint(Button.ROLL).center)
    assert len(panel.app.session.engine.rolls) == 1
    panel.wait(0.4)
    panel.tap(panel.hint(Button.ROLL).center)
    assert len(panel.app.session.engine.rolls) == 2


class _TwoThrows:
    """A game screen with ROLL's and REROLL's framed hints side by side, counting the throws pressed."""

    def __init__(self) -> None:
        from hardware.events import ButtonEvent

        self.hint_taps = [(pygame.Rect(2, 442, 100, 38), ButtonEvent(Button.ROLL)),
                          (pygame.Rect(110, 442, 130, 38), ButtonEvent(Button.REROLL))]
        self.throws = 0

    def on_button(self, event) -> bool:
        self.throws += event.button in (Button.ROLL, Button.REROLL)
        return True

    def on_tap(self, pos) -> bool:
        return False

    def update(self, dt, now) -> None:
        pass

    def draw(self, surface) -> None:
        surface.fill((0, 0, 0))


def test_quick_taps_on_roll_and_then_reroll_throw_once(tmp_path):
    """The arcade buttons ROLL and REROLL share one DOUBLE_PRESS window (two children pressing both threw twice);
    their framed hints did not: a tap on "ROLL" and one on "REROLL" beside it 0.12 s later threw twice."""
    panel = Panel(tmp_path, free_play=True)
    panel.app.mode = panel.app.game_mode = screen = _TwoThrows()
    panel.frame()
    panel.tap(panel.hint(Button.ROLL).center)
    panel.frame(dt=0.06)
    panel.tap(panel.hint(Button.REROLL).center)
    assert screen.throws == 1
    panel.wait(0.4)
    panel.tap(panel.hint(Button.REROLL).center)  # after the window: a throw of its own
    assert screen.throws == 2


def test_a_double_tap_on_remove_asks_again_and_removes_nobody(tmp_path):
    """"Remove" asks "Really remove?" once more; a double tap answered it unseen and a typed name was gone."""
    from companion.views.players_view import PlayersMode

    panel = Panel(tmp_path, players=("Anna", "Ben", "Carla"))
    panel.app.mode = players = PlayersMode(panel.app.cfg, "en", on_done=lambda: None, save=lambda: None)
    panel.frame()
    panel.tap(players.player_rects()[0].center)
    panel.wait(0.5)
    panel.double_tap(players.action_rects()["remove"].center)
    assert players.players == ["Anna", "Ben", "Carla"] and players.remove_armed


def test_taps_that_change_nothing_but_the_letters_count_however_fast(tmp_path):
    """The guard drops taps aimed at a screen that changed under them, not a name's double letter typed fast."""
    from companion.views.players_view import PlayersMode

    panel = Panel(tmp_path)
    panel.app.mode = players = PlayersMode(panel.app.cfg, "en", on_done=lambda: None, save=lambda: None)
    panel.frame()
    panel.tap(players.add_rect().center)
    panel.wait(0.5)
    for ch in "anna":
        key = next(k for k in players.entry.keys if k.kind == "letter" and k.char == ch)
        panel.tap(key.rect.center)
        panel.frame(dt=0.03)
    assert players.entry.text == "Anna"


def test_two_fingers_at_once_are_one_tap(tmp_path):
    """Two fingers in one frame (a hand resting on the panel, two children) both acted: the first finger's alone."""
    panel = Panel(tmp_path)
    echt, noch = panel.item("Echt Spitze").center, panel.item("Noch X-Mal").center
    panel.frame([*panel.down(echt, 0), *panel.down(noch, 1)])
    panel.frame([*panel.up(echt, 0), *panel.up(noch, 1)])
    assert panel.in_setup_of("echt-spitze")


def test_a_hand_resting_on_the_panel_keeps_no_tap_out_for_long(tmp_path):
    """A finger down for more than RESTING seconds rests (a hand on the panel's edge): another's tap counts then, and
    the resting one lifting does nothing."""
    panel = Panel(tmp_path)
    panel.frame(panel.down((400, 470), 0))  # no item there
    panel.wait(RESTING + 0.2)
    echt = panel.item("Echt Spitze").center
    panel.frame(panel.down(echt, 1))
    panel.frame(panel.up(echt, 1))
    assert panel.in_setup_of("echt-spitze")
    panel.frame(panel.up((400, 470), 0))
    assert panel.in_setup_of("echt-spitze")


def test_a_swipe_is_no_tap(tmp_path):
    """A swipe up the main menu from "Fritzo" (as a phone's list is scrolled) opened Fritzo's setup."""
    panel = Panel(tmp_path)
    start = panel.item("Fritzo").center
    panel.frame(panel.down(start))
    for y in range(start[1] - 40, 100, -40):
        panel.frame(panel._finger(pygame.FINGERMOTION, (start[0], y), 0), dt=0.02)
    panel.frame(panel.up((start[0], 100)), dt=0.02)
    assert panel.app.mode is panel.app._main_menu_mode
    panel.wait(0.5)
    assert panel.app.mode.menu.visible_range().start > 0  # it scrolled the menu (``test_a_swipe_scrolls_a_menu``)
    _swipe(panel, (start[0], 120), (start[0], 440))  # and back to its top
    panel.wait(0.5)
    assert panel.item("Fritzo").center == start
    panel.frame(panel.down(start))  # a finger rolling a little as it lifts still taps
    panel.frame(panel.up((start[0] + 10, start[1] - 12)))
    assert panel.in_setup_of("fritzo")


def test_a_mouse_click_is_taken_at_once(tmp_path):
    """A laptop's click (down and up in the same frame) chooses at once, as before."""
    panel = Panel(tmp_path)
    pos = panel.item("Echt Spitze").center
    panel.frame([pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1),
                 pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1)])
    assert panel.in_setup_of("echt-spitze")


def test_a_finger_held_on_undo_menu_takes_back_the_last_step(tmp_path):
    """A touch-only table had no held UNDO: the framed "UNDO menu" opened the pause menu at the touch. Held for the
    button's hold time it is UNDO held (the last step taken back); lifting it then opens nothing."""
    panel = Panel(tmp_path, free_play=True)
    panel.tap(panel.hint(Button.ROLL).center)
    panel.wait(0.5)
    assert len(panel.app.session.engine.rolls) == 1
    undo = panel.hint(Button.UNDO).center
    panel.frame(panel.down(undo))
    panel.wait(0.5)
    assert len(panel.app.session.engine.rolls) == 1 and panel.app.mode is panel.app.game_mode  # not yet
    panel.wait(0.6)
    assert len(panel.app.session.engine.rolls) == 0
    panel.frame(panel.up(undo))
    assert panel.app.mode is panel.app.game_mode  # no pause menu after it
    panel.wait(0.5)
    panel.tap(panel.hint(Button.UNDO).center)  # a tap on it is still the pause menu
    assert panel.app.mode is not panel.app.game_mode


def test_a_finger_held_on_undo_menu_fills_its_frame_as_the_hold_builds(tmp_path):
    """Held on "UNDO menu", nothing showed for a second until the step was taken back: whoever pressed it could not
    tell the screen had felt the finger. The frame fills as the hold builds; slid off, it stops."""
    from companion.views import theme
    from companion.views.widgets import HOLD_FILL

    panel = Panel(tmp_path, free_play=True)
    panel.tap(panel.hint(Button.ROLL).center)
    panel.wait(0.5)
    room = panel.hint(Button.UNDO)
    fill = tuple(max(a, b) for a, b in zip(theme.BG, HOLD_FILL, strict=True))  # under the words, on the background

    def filled() -> int:
        canvas = panel.app.display.canvas
        return sum(canvas.get_at((x, room.top + 4))[:3] == fill for x in range(room.left, room.right))

    assert filled() == 0
    panel.frame(panel.down(room.center))
    panel.wait(0.3)
    early = filled()
    panel.wait(0.4)
    assert 0 < early < filled()
    panel.frame(panel._finger(pygame.FINGERMOTION, (room.centerx, room.top - 60), 0))  # slid off: no hold, no tap
    assert filled() == 0
    panel.frame(panel.up((room.centerx, room.top - 60)))
    assert panel.app.mode is panel.app.game_mode and len(panel.app.session.engine.rolls) == 1


def test_quick_taps_on_louder_count_each_and_a_double_tap_elsewhere_in_the_menu_still_counts_once(tmp_path):
    """The pause menu's "Louder": each tap changes its own line ("Louder: 60 % (now 40 %)"), and taps 0.3 s apart
    counted every other one, dropped as double taps on a changed screen. The row is meant to be pressed again and
    again; a double tap on "Sound off" (which leaves the menu) still counts once."""
    from test_announcer import RecordingAudio

    panel = Panel(tmp_path, free_play=True)
    panel.app.announcer = Announcer("en", 20, audio=RecordingAudio())
    panel.app.cfg.sound.volume = 20
    panel.app.pause_menu()
    panel.frame()
    louder = panel.item("Louder")
    for _ in range(3):
        panel.tap(louder.center, held=0.08)
        panel.frame(dt=0.2)
    assert panel.app.announcer.volume == 80 and panel.item("Louder") == louder
    panel.wait(0.5)
    panel.double_tap(panel.item("Sound off").center)
    assert panel.app.announcer.muted and panel.app.mode is panel.app.game_mode  # not the screen under it tapped


@pytest.mark.parametrize("y", [MENU_CORNER.bottom, MENU_CORNER.bottom + 6])
def test_a_finger_just_under_the_menu_corner_does_not_switch_the_sound_on(tmp_path, y):
    """While the sound was off, the speaker sign's finger room reached up to the ≡ corner: a finger aiming at ≡ a
    little low switched the sound on. The sign itself still does, and ≡ still opens the menu."""
    panel = Panel(tmp_path, free_play=True, announcer=True)
    panel.app.toggle_mute()
    panel.wait(0.5)
    sign = panel.app.announcer.mute_rect
    assert sign is not None and sign.top > MENU_CORNER.bottom and sign.colliderect(
        MENU_CORNER.move(0, sign.top - MENU_CORNER.top))  # under the corner, as it stands in a game
    panel.tap((MENU_CORNER.centerx, y))
    assert panel.app.announcer.muted
    panel.wait(0.5)
    panel.tap((sign.centerx, sign.bottom + 8))  # a finger's room around the sign, below it
    assert not panel.app.announcer.muted
    panel.app.toggle_mute()
    panel.wait(0.5)
    panel.tap((MENU_CORNER.centerx, MENU_CORNER.bottom - 2))
    assert panel.app.mode is not panel.app.game_mode and panel.app.announcer.muted


def test_a_finger_on_a_banner_takes_it_away_as_it_touches_and_nothing_under_it(tmp_path):
    """The banner goes as the finger touches it (taken at the lift, one that timed out meanwhile let the tap
    through to what it hid); lifting chooses nothing, and a quick second tap there is the first one doubled."""
    from companion.announce import Announcement

    panel = Panel(tmp_path, announcer=True)
    panel.app.mode = screen = _TapScreen()
    panel.app.announcer.announce(Announcement("core.undone", speak=False))
    panel.frame()
    banner = panel.app._banner
    assert banner is not None
    panel.frame(panel.down(banner.center))
    assert panel.app.announcer.current is None and screen.taps == []
    panel.frame(panel.up(banner.center), dt=0.06)
    panel.frame(dt=0.06)
    panel.tap(banner.center)
    assert panel.app._banner is None and screen.taps == []
    panel.wait(0.5)
    panel.tap(banner.center)
    assert screen.taps == [banner.center]


def _playing(panel: Panel, name: str, setup: dict, *actions: dict):
    """The App in ``name``'s game after ``actions``, its screen shown."""
    from companion.games import engine_class
    from companion.session import GameSession

    app = panel.app
    session = GameSession.new(engine_class(name), {"action": "setup", **setup}, app.journal, **app._session_kw())
    for action in actions:
        assert session.apply(action), session.error
    app._enter(GAME_ENTRIES[name], session)
    panel.wait(0.5)
    return app.mode


def test_quick_taps_on_a_plus_count_each(tmp_path):
    """Echt Spitze's final scoring: three taps on "+" 0.33 s apart entered 2. The first moved the highlight to the
    "+" it pressed, and the second was dropped as a double tap on a changed screen."""
    from test_echt_spitze_view import select_item

    panel = Panel(tmp_path, players=("Sara", "Ben"))
    mode = _playing(panel, "echt-spitze", {"players": ["Sara", "Ben"], "kinds": {
        "pears": [5, 3], "plums": [4, 2], "lemons": [9, 7]}},
        {"action": "roll", "dice": ["1", "2", "3", "4"]}, {"action": "take", "die": 1}, {"action": "take", "die": 2},
        {"action": "leave"}, {"action": "report", "player": "Sara", "kinds": ["pears", "plums", "lemons"]},
        {"action": "end_turn"})
    select_item(mode, "Sara")
    panel.wait(0.5)
    plus = next(r for field, step, r in mode._final_controls() if field == "leftover" and step == 1)
    before = mode.final_values["leftover"]
    for _ in range(3):
        panel.tap(plus.center, held=0.08)
        panel.frame(dt=0.25)
    assert mode.final_values["leftover"] == before + 3


def test_a_colour_die_and_then_a_number_die_tapped_quickly_are_the_pair(tmp_path):
    """Noch X-Mal!: the number die tapped 0.2 s after the colour die was lost (the first tap had changed the
    screen); a tap elsewhere is no double tap."""
    panel = Panel(tmp_path)
    roll = {"action": "roll", "dice": ["red", "blue", "green", "1", "2", "3"]}
    mode = _playing(panel, "noch-x-mal", {"players": ["Anna", "Ben"], "seed": 1, "start": 0},
                    {"action": "start_combo", "player": "Anna", "dice": ["yellow", "4"]},
                    {"action": "start_combo", "player": "Ben", "dice": ["red", "2"]}, roll)
    rects = mode.die_rects()
    panel.tap(rects[1].center)  # blue
    assert mode.tapped == [1]
    panel.frame(dt=0.2)
    panel.tap(rects[4].center)  # 2
    assert panel.app.session.engine.state.roll.pick == [1, 4]


def test_ticking_who_plays_quickly_ticks_each(tmp_path):
    """Choosing who plays: "Ben plays" and then "Dora plays" 0.2 s later, and Dora's tap was lost."""
    panel = Panel(tmp_path, players=("Anna", "Ben", "Carla", "Dora"))
    panel.tap(panel.item("Echt Spitze").center)
    panel.wait(0.5)
    panel.tap(panel.item("Choose others").center)
    panel.wait(0.5)
    panel.tap(panel.item("Ben plays").center)
    panel.frame(dt=0.2)
    panel.tap(panel.item("Dora plays").center)
    menu = panel.app.mode.mode.menu
    labels = [i.label for i in menu.items]
    assert "Ben sits out" in labels and "Dora sits out" in labels


def _to_the_letter(panel, mode) -> None:
    """Haste Worte played on with buttons to its letter (the hint to turn the sand stands then)."""
    from companion.games.haste_worte import Phase
    from hardware.events import ButtonEvent

    for _ in range(30):
        phase = mode.game.phase
        if phase is Phase.LETTER:
            return
        panel.app.on_button(ButtonEvent(Button.ROLL if phase is Phase.ROLL else Button.SELECT))
        panel.wait(0.6)


def test_the_sands_ticking_seconds_are_no_change_a_tap_made(tmp_path):
    """Haste Worte's seconds left (the clock's last tick, ``ClockCalls.last_tick``) changed every second of the
    sand's last ones: any tap then within 0.35 s of another was taken for a double tap on a changed screen, and
    dropped."""
    from companion.games.haste_worte import Phase

    panel = Panel(tmp_path)
    mode = _playing(panel, "haste-worte", {"players": ["Anna", "Ben"]})
    app = panel.app
    _to_the_letter(panel, mode)
    panel.tap(panel.hint(Button.TIMER).center)  # the letter and the sand
    assert mode.game.phase is Phase.WRITING
    sand = mode.game.hourglass
    panel.now += sand.remaining(mode.wall_now()) - 8  # on into the seconds said aloud
    panel.frame()
    ticks, states = set(), set()
    for _ in range(30):
        panel.frame(dt=0.1)
        ticks.add(mode._calls.last_tick)
        states.add(app._tap_state())
    assert len(ticks) >= 2 and len(states) == 1


def test_a_second_tap_on_the_running_sands_hint_says_how_to_stop_it_and_a_held_finger_stops_it(tmp_path):
    """Haste Worte: a child tapped TIMER to turn the sand and again half a second later, and the sand was stopped
    ("TIMER hold: cancel" was a held TIMER at a tap). A tap says how to stop it; a finger held there stops it."""
    from companion.hourglass import Phase as SandPhase

    panel = Panel(tmp_path)
    mode = _playing(panel, "haste-worte", {"players": ["Anna", "Ben"]})
    app = panel.app
    _to_the_letter(panel, mode)
    panel.tap(panel.hint(Button.TIMER).center)
    assert mode.game.hourglass.is_running(mode.wall_now())
    panel.wait(0.5)
    timer = panel.hint(Button.TIMER).center  # "TIMER hold: cancel", at the bar's start now
    panel.tap(timer)
    panel.wait(0.5)
    assert mode.game.hourglass.is_running(mode.wall_now()) and app.notice == mode.timer_not_now
    panel.wait(0.5)
    panel.frame(panel.down(timer))
    panel.wait(1.2)
    assert mode.game.hourglass.phase(mode.wall_now()) is SandPhase.CANCELLED
    panel.frame(panel.up(timer))
    assert mode.game.hourglass.phase(mode.wall_now()) is SandPhase.CANCELLED


def _swipe(panel: Panel, start: tuple[int, int], end: tuple[int, int], steps: int = 6) -> None:
    """A finger sliding from ``start`` to ``end`` in ``steps`` moves, 0.02 s apart, and lifting there."""
    panel.frame(panel.down(start))
    for k in range(1, steps + 1):
        at = (start[0] + (end[0] - start[0]) * k // steps, start[1] + (end[1] - start[1]) * k // steps)
        panel.frame(panel._finger(pygame.FINGERMOTION, at, 0), dt=0.02)
    panel.frame(panel.up(end), dt=0.02)


def test_a_swipe_scrolls_a_menu(tmp_path):
    """The main menu hides "Players and seats", "Teach dice", "Camera check", the language and "Quit" below its ▼,
    and families used to phones swiped it: nothing moved. A swipe up brings the lines below by the rows the finger
    slid, the highlight coming along; a swipe down brings them back; sideways nothing moves."""
    panel = Panel(tmp_path)
    menu = panel.app.mode.menu
    assert menu.visible_range().start == 0 and "Quit" not in [menu.items[i].label for i in menu.visible_range()]
    x, y = panel.item("Noch X-Mal").center
    _swipe(panel, (x, y), (x, y - 2 * menu.row_h))  # two rows up
    assert menu.visible_range().start == 2 and menu.index == 2
    assert panel.app.mode is panel.app._main_menu_mode
    _swipe(panel, (x, 420), (x, 80))  # on to the end
    shown = [menu.items[i].label for i in menu.visible_range()]
    assert "Quit" in shown and "Players and seats" in shown
    panel.wait(0.5)
    panel.tap(panel.item("Players and seats").center)
    assert panel.app.mode is not panel.app._main_menu_mode  # the line the swipe brought is tapped
    panel.app.main_menu()
    panel.frame()
    menu = panel.app.mode.menu
    _swipe(panel, (x, 420), (x, 80))
    _swipe(panel, (x, 200), (x, 200 + menu.row_h))  # a row back down
    assert menu.visible_range().start == len(menu.items) - len(menu.visible_range()) - 1
    start = menu.visible_range().start
    _swipe(panel, (200, 300), (500, 330))  # sideways
    assert menu.visible_range().start == start


def test_a_swipe_scrolls_noch_x_mals_menu(tmp_path):
    """Noch X-Mal!'s menu is built anew each frame from the page it keeps: a swipe scrolled the menu of one frame
    and the next drew the page from before, so five players' "passes" lines above its ▲ stayed out of reach."""
    names = ["Anna", "Ben", "Carla", "David", "Emil"]
    panel = Panel(tmp_path, players=tuple(names))
    starts = [{"action": "start_combo", "player": n, "dice": ["yellow", "4"]} for n in names]
    roll = {"action": "roll", "dice": ["red", "blue", "green", "1", "2", "3"]}
    mode = _playing(panel, "noch-x-mal", {"players": names, "seed": 1, "start": 0}, *starts, roll)
    menu = mode.menu
    start = menu.visible_range().start
    assert start >= 2  # the highlight on "Ben rolls next" at the end: the first lines are above the ▲
    x, y = menu.item_rects()[start].center
    _swipe(panel, (x, y), (x, y + 2 * menu.row_h))  # two rows down
    panel.wait(0.3)
    assert mode.menu.visible_range().start == start - 2
    assert mode.menu.index in mode.menu.visible_range()
    _swipe(panel, (x, y + 2 * menu.row_h), (x, y))  # and back up
    panel.wait(0.3)
    assert mode.menu.visible_range().start == start
