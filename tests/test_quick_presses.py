"""The arcade buttons through the mock pins into the app: quick presses each meant, where the screen says so."""

from __future__ import annotations

import numpy as np
import pygame
import pytest
from gpiozero.pins.mock import MockFactory
from test_games_in_app import _echt_spitze_in_app

from companion.app import App
from companion.config import Config
from companion.display import Display
from companion.i18n import t
from hardware.buttons import DEFAULT_PINS, DOUBLE_PRESS, ButtonPanel
from hardware.events import Button, ButtonEvent, Press

FRAME = 1 / 30


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


class Table:
    """The app with the buttons on mock pins, its clock run a frame at a time as the loop runs it."""

    def __init__(self, app_of) -> None:
        self.clock = Clock()
        self.panel = ButtonPanel(dict(DEFAULT_PINS), clock=self.clock, pin_factory=MockFactory())
        self.app: App = app_of(self.clock, self.panel)

    def run(self, seconds: float) -> None:
        for _ in range(round(seconds / FRAME)):
            self.clock.now += FRAME
            self.app.frame(FRAME, [])

    def tap(self, button: Button, down: float = 0.1, gap: float = 0.15) -> None:
        """A steady press: ``down`` held, the next one ``gap`` later (0.25 s apart: inside ``DOUBLE_PRESS``)."""
        self.panel.pin(button).drive_low()
        self.run(down)
        self.panel.pin(button).drive_high()
        self.run(gap)

    def close(self) -> None:
        self.app.close()


@pytest.fixture
def players_table(tmp_path):
    def app_of(clock, panel) -> App:
        cfg = Config()
        cfg.language = "en"
        cfg.players = ["Anna", "Ben"]
        return App(cfg, state_dir=tmp_path, display=Display((800, 480), fullscreen=False), use_camera=False,
                   clock=clock, buttons=panel)

    table = Table(app_of)
    yield table
    table.close()


def _grid(table: Table):
    """The name grid of Anna's rename, reached with the buttons."""
    app = table.app
    items = [item.value for item in app.mode.menu.items]
    for _ in range(items.index(("players", None))):
        app.on_button(ButtonEvent(Button.NEXT))
    for _ in range(3):  # the players screen, Anna's actions, Rename
        app.on_button(ButtonEvent(Button.SELECT))
    table.run(0.5)
    entry = app.mode.entry
    assert entry is not None and entry.fresh
    return entry


def test_quick_selects_on_a_letter_type_it_each_time(players_table):
    """"Anna", "Otto", "Hannah": two SELECTs on "n" a quarter second apart typed one n (the double-press guard)."""
    table = players_table
    entry = _grid(table)
    assert 0.25 < DOUBLE_PRESS
    for letter in "anna":
        entry.cursor = next(k for k, key in enumerate(entry.keys) if key.char == letter)
        table.tap(Button.SELECT)
    table.run(0.5)
    assert entry.text == "Anna"
    for _ in range(3):  # UNDO deletes a letter at each quick press too
        table.tap(Button.UNDO)
    table.run(0.5)
    assert entry.text == "A" and table.app.mode.entry is entry


def test_a_quick_double_select_on_done_still_counts_once(players_table):
    """Only the keys that type are pressed again and again: Done pressed twice quickly saves once, and the second
    press does not choose on the screen it led to."""
    table = players_table
    entry = _grid(table)
    entry.cursor = next(k for k, key in enumerate(entry.keys) if key.kind == "done")
    mode = table.app.mode
    table.tap(Button.SELECT)
    table.tap(Button.SELECT)
    table.run(0.5)
    assert mode.entry is None and mode.focus == "list"  # the name kept; Anna's actions not opened by the second


@pytest.fixture
def final_table(tmp_path):
    def app_of(clock, panel) -> App:
        app, _ = _echt_spitze_in_app(tmp_path, [{"action": "report", "player": "Sara",
                                              "kinds": ["pears", "plums", "lemons"]}, {"action": "end_turn"}])
        app.clock, app.buttons = clock, panel  # (the loop's clock: the game's own took no time yet)
        return app

    table = Table(app_of)
    yield table
    table.close()


def test_quick_selects_on_the_final_plus_count_each(final_table):
    """Echt Spitze's final scoring: six quick "+" on the stars gave 3 stars."""
    table = final_table
    app = table.app
    table.run(0.5)
    mode = app.mode
    for _ in range(len(mode.menu.items)):
        if mode.menu.items[mode.menu.index].value == ("final", "Sara"):
            break
        app.on_button(ButtonEvent(Button.NEXT))
    app.on_button(ButtonEvent(Button.SELECT))
    assert mode.sub == ("final", "Sara")
    app.on_button(ButtonEvent(Button.NEXT))  # the stars' "+"
    table.run(0.5)
    for _ in range(6):
        table.tap(Button.SELECT)
    table.run(0.5)
    assert mode.final_values["stars"] == 6
    app.on_button(ButtonEvent(Button.NEXT))  # the leftover's "-": two quick presses, one double, still each
    table.run(0.5)
    for _ in range(2):
        table.tap(Button.SELECT)
    assert mode.final_values["leftover"] == 0


def test_the_tracker_says_how_far_a_long_press_is_held():
    from hardware.buttons import PressTracker

    now = [0.0]
    tracker = PressTracker(clock=lambda: now[0], debounce=0.0)
    assert tracker.holding() is None
    tracker.edge(Button.NEXT, True)  # no long press: nothing builds
    tracker.edge(Button.UNDO, True)
    now[0] = 0.5
    tracker.poll()
    assert tracker.holding() == (Button.UNDO, pytest.approx(0.5))
    now[0] = 1.1
    tracker.poll()  # its long press came: nothing left to build
    assert tracker.holding() is None


def _pixels(app: App, rect) -> bytes:
    app.draw(app.display.canvas)
    return bytes(app.display.canvas.subsurface(rect).get_view("2"))


def test_a_held_undo_fills_its_hint_as_the_hold_builds(final_table, out_dir):
    """A finger held on "UNDO menu" fills it; the arcade button held showed nothing for a second."""
    table = final_table
    app = table.app
    table.run(0.5)
    room = next(r for r, e in app.mode.hint_taps if e.button is Button.UNDO)
    before, steps = _pixels(app, room), len(app.session.actions)
    table.panel.pin(Button.UNDO).drive_low()
    table.run(0.2)  # a tap's moment: no flash
    assert _pixels(app, room) == before
    table.run(0.5)
    pygame.image.save(app.display.canvas, str(out_dir / "held_undo_fills.png"))
    assert _pixels(app, room) != before and len(app.session.actions) == steps  # nothing taken back yet
    table.panel.pin(Button.UNDO).drive_high()


def test_a_held_select_fills_the_sound_row_of_the_pause_menu(final_table, out_dir):
    """SELECT held is the sound off: in the pause menu its row fills, not the row a release would choose."""
    table = final_table
    app = table.app
    app.pause_menu()
    table.run(0.5)
    rows = app.mode.menu.item_rects()
    sound = next(r for i, r in rows.items() if app.mode.menu.items[i].value == "mute")
    chosen = app.mode.menu.focus_rect()
    before = _pixels(app, sound), _pixels(app, chosen)
    table.panel.pin(Button.SELECT).drive_low()
    table.run(1.0)
    pygame.image.save(app.display.canvas, str(out_dir / "held_select_fills_sound.png"))
    assert _pixels(app, sound) != before[0] and _pixels(app, chosen) == before[1]
    table.panel.pin(Button.SELECT).drive_high()


class _Heard:
    """The announcer's sounds outside the queue, recorded."""

    def __init__(self, app: App) -> None:
        from companion.announcer import Announcer
        from companion.audio import NullAudio
        from companion.speech import Speech

        speech = Speech(lambda text, lang: b"")
        speech.enabled = False
        app.announcer = Announcer("en", audio=NullAudio(), speech=speech)
        self.sounds: list = []
        play = app.announcer.play_sound
        app.announcer.play_sound = lambda sound: (self.sounds.append(sound), play(sound))[1]


def test_a_press_no_screen_takes_is_answered(players_table):
    """The main menu's UNDO without a game, free play's NEXT and SELECT: silent, unchanged, pressed again and
    again. Now the refusal's low notes and the hint bar lit a moment; a press that did something stays quiet."""
    from companion.announce import Sound
    from companion.views.widgets import HINT_BAR_H

    table = players_table
    app = table.app
    heard = _Heard(app)
    table.run(0.5)
    bar = pygame.Rect(0, 480 - HINT_BAR_H, 800, HINT_BAR_H)
    before = _pixels(app, bar)
    app.on_button(ButtonEvent(Button.NEXT))  # the highlight moves: no refusal
    assert heard.sounds == [] and _pixels(app, bar) == before
    app.on_button(ButtonEvent(Button.UNDO))  # no game to go back to
    assert heard.sounds == [Sound.REFUSED] and _pixels(app, bar) != before
    table.run(1)
    assert _pixels(app, bar) == before  # lit a moment only
    app._main_choice(("new", "free-play"))
    table.run(0.5)
    table.run(2)  # a quiet moment since the UNDO: the notes again
    heard.sounds.clear()
    app.on_button(ButtonEvent(Button.NEXT))
    assert heard.sounds == [Sound.REFUSED]
    table.run(2.5)
    app.on_button(ButtonEvent(Button.SELECT))
    assert heard.sounds == [Sound.REFUSED] * 2


def _free_play(table: Table) -> tuple[pygame.Rect, _Heard]:
    from companion.views.widgets import HINT_BAR_H

    app = table.app
    app._main_choice(("new", "free-play"))
    table.run(0.5)
    return pygame.Rect(0, 480 - HINT_BAR_H, 800, HINT_BAR_H), _Heard(app)


def test_a_held_next_nothing_takes_is_answered_once(players_table):
    """A NEXT held 5 s where nothing takes it sounded the refusal's notes 9 times: its repeats are no presses."""
    from companion.announce import Sound

    table = players_table
    bar, heard = _free_play(table)
    before = _pixels(table.app, bar)
    table.panel.pin(Button.NEXT).drive_low()
    table.run(0.1)
    assert heard.sounds == [Sound.REFUSED] and _pixels(table.app, bar) != before
    table.run(5)
    assert heard.sounds == [Sound.REFUSED] and _pixels(table.app, bar) == before  # lit a moment, not all along
    table.panel.pin(Button.NEXT).drive_high()


@pytest.mark.parametrize("button", [Button.NEXT, Button.SELECT])
@pytest.mark.parametrize("per_second", [2, 4, 6])
def test_presses_hammered_where_nothing_takes_them_light_the_bar_and_sound_once(players_table, button, per_second):
    """A child hammering NEXT or SELECT 2-6 times a second had ~10 answers in 5 s, the box beeping 60 % of the
    time (Haste Worte's sand too, while the family writes). Each press lights the bar; the notes wait for a quiet
    moment."""
    from companion.announce import Sound

    table = players_table
    bar, heard = _free_play(table)
    before = _pixels(table.app, bar)
    gap = 1 / per_second
    for _ in range(5 * per_second):
        table.tap(button, down=gap / 2, gap=FRAME)  # (SELECT counts as it is let go)
        assert _pixels(table.app, bar) != before  # each press answered: the bar lit
        table.run(gap / 2 - FRAME)
    assert heard.sounds == [Sound.REFUSED]
    table.run(2.5)
    table.tap(button)
    assert heard.sounds == [Sound.REFUSED] * 2  # after a quiet moment: heard again


def test_select_on_a_greyed_out_row_is_answered(players_table):
    """SELECT on a greyed-out menu row (the pause menu's "Undo" with nothing to undo) chose nothing and was reported
    taken: no sound, no pixel changed. Now answered as any press nothing takes; the menu stays."""
    from companion.announce import Sound

    table = players_table
    app = table.app
    heard = _Heard(app)
    app._main_choice(("new", "free-play"))
    table.run(0.5)
    app.pause_menu()
    menu, pause = app.mode.menu, app.mode
    menu.index = [item.value for item in menu.items].index("undo")
    assert not menu.items[menu.index].enabled
    app.on_button(ButtonEvent(Button.SELECT))
    assert heard.sounds == [Sound.REFUSED] and app.mode is pause
    table.run(1)
    menu.index = [item.value for item in menu.items].index("continue")
    app.on_button(ButtonEvent(Button.SELECT))  # an enabled row: chosen, quiet
    assert heard.sounds == [Sound.REFUSED] and app.mode is app.game_mode


def test_the_final_minus_at_nought_is_answered(final_table):
    """Echt Spitze's "-" at 0 took the press and changed nothing, unsaid; "+" then "-" stay quiet."""
    from companion.announce import Sound

    table = final_table
    app = table.app
    heard = _Heard(app)
    table.run(0.5)
    mode = app.mode
    while mode.menu.items[mode.menu.index].value != ("final", "Sara"):
        app.on_button(ButtonEvent(Button.NEXT))
    app.on_button(ButtonEvent(Button.SELECT))
    assert mode._final_controls()[mode.focus][:2] == ("stars", -1)
    app.on_button(ButtonEvent(Button.SELECT))
    assert heard.sounds == [Sound.REFUSED] and mode.final_values["stars"] == 0
    table.run(1)
    app.on_button(ButtonEvent(Button.NEXT))
    app.on_button(ButtonEvent(Button.SELECT))
    app.on_button(ButtonEvent(Button.PREV))
    assert heard.sounds == [Sound.REFUSED] and mode.final_values["stars"] == 1
    app.on_button(ButtonEvent(Button.SELECT))
    assert heard.sounds == [Sound.REFUSED] and mode.final_values["stars"] == 0


def _held_select(table: Table, seconds: float) -> None:
    table.panel.pin(Button.SELECT).drive_low()
    table.run(seconds)


@pytest.mark.parametrize("where", ["main menu", "game"])
def test_a_held_select_fills_the_sound_sign_not_the_row_or_the_menu_corner(request, out_dir, where):
    """SELECT held filled the highlighted row like a progress bar ("Free play": "hold to start it", and at 2 s the
    sound went off) or, in a game without one, the ≡ corner ("the menu is coming"). It fills the "Sound off" sign
    where the sign comes when the hold is done."""
    from companion.app import MENU_CORNER

    table = request.getfixturevalue("players_table" if where == "main menu" else "final_table")
    app = table.app
    _Heard(app)
    table.run(5)  # (the start's notices gone)
    focus = app._focus_rect()
    assert focus is not None and app.announcer.mute_rect is None
    before = _pixels(app, focus), _pixels(app, MENU_CORNER), pygame.surfarray.array3d(app.display.canvas)
    _held_select(table, 1.2)
    pygame.image.save(app.display.canvas, str(out_dir / f"held_select_sound_sign_{where.replace(' ', '_')}.png"))
    assert _pixels(app, focus) == before[0]
    assert _pixels(app, MENU_CORNER) == before[1] or not app._in_game()  # (≡ only in a game)
    changed = np.argwhere((pygame.surfarray.array3d(app.display.canvas) != before[2]).any(axis=2))  # (x, y)
    assert len(changed)  # the hold shows
    table.run(1.0)  # the long press: sound off, its sign where the chip stood
    sign = app.announcer.mute_rect
    assert app.announcer.muted and sign is not None
    room = sign.inflate(8, 8).union(sign.move(0, 2 * 6))  # (the frame's room: ``hint_frame``)
    assert all(room.collidepoint(x, y) for x, y in changed), (sign, changed.min(axis=0), changed.max(axis=0))
    table.panel.pin(Button.SELECT).drive_high()


def test_a_held_select_fills_the_sign_when_the_sound_is_off(final_table):
    """Muted: the sign the hold takes away fills, drawn over the announcer's sign (not painted over by it)."""
    table = final_table
    app = table.app
    _Heard(app)
    app.toggle_mute()
    table.run(5)  # (the notice gone)
    sign = app.announcer.mute_rect
    assert sign is not None
    before = _pixels(app, sign)
    _held_select(table, 1.2)
    assert _pixels(app, sign) != before and app.announcer.mute_rect is not None
    table.panel.pin(Button.SELECT).drive_high()


def _one_row(app: App) -> ButtonEvent:
    """Echt Spitze's turn starts on the one row "Roll": NEXT moves nothing."""
    assert [item.label for item in app.mode.menu.items if item.enabled] == ["Roll"]
    return ButtonEvent(Button.NEXT)


def _rolled(app: App) -> ButtonEvent:
    """ROLL once the dice lie: "Not time to roll: Anna: take one die"."""
    app.on_button(ButtonEvent(Button.ROLL))
    assert app.session.actions and app.session.actions[-1]["action"] == "roll"
    return ButtonEvent(Button.ROLL)


def _nothing_done(app: App) -> ButtonEvent:
    """UNDO held before the first step: nothing to undo (the game's screen leaves UNDO to the app)."""
    assert [a["action"] for a in app.session.actions] == ["setup"]
    return ButtonEvent(Button.UNDO, Press.LONG)


@pytest.mark.parametrize(("state", "words"), [
    (_rolled, lambda lang: t("core.roll_not_now", lang, what="")[:8]),
    (lambda app: ButtonEvent(Button.TIMER), lambda lang: t("core.no_hourglass", lang)),
    (_one_row, lambda lang: None),
    (_nothing_done, lambda lang: t("core.nothing_to_undo", lang)),
], ids=["roll-not-now", "timer-not-now", "next-one-row", "nothing-to-undo"])
def test_every_press_that_did_nothing_is_answered_one_way(players_table, state, words):
    """"Not now" was answered four ways: NEXT on one row lit the bar with the low notes, ROLL and TIMER "not now"
    and UNDO with nothing to undo showed words alone, unheard by whoever did not look. Each now lights the bar,
    sounds the notes under the one quiet moment (``UNUSED_QUIET``) and shows its words where it has some."""
    from test_games_in_app import start_game

    from companion.announce import Sound
    from companion.app import UNUSED_QUIET
    from companion.games_ui import register_all
    from companion.views.widgets import HINT_BAR_H

    register_all()
    table = players_table
    app = table.app
    start_game(app, "echt-spitze")
    table.run(0.5)
    press = state(app)
    table.run(UNUSED_QUIET + 0.5)
    heard, bar = _Heard(app), pygame.Rect(0, 480 - HINT_BAR_H, 800, HINT_BAR_H)
    app.notice, mode, step = None, app.mode, len(app.session.actions)
    before = _pixels(app, bar)
    said = words(app.lang)
    for _ in range(2):  # pressed again at once: the bar lit again, the notes not
        app.on_button(press)
        table.run(FRAME)
        assert heard.sounds == [Sound.REFUSED] and _pixels(app, bar) != before
        assert app.mode is mode and len(app.session.actions) == step  # nothing done
        if said is None:
            assert app.notice is None and app._strip is None
        else:
            assert app.notice.startswith(said) and app.notice_answers and app.notice_tone == "info"
            assert app._strip is not None and not app._strip[0].colliderect(bar)  # the bar's light is its own
        table.run(0.3)
    table.run(UNUSED_QUIET + 0.5)
    assert _pixels(app, bar) == before  # lit a moment only
    app.on_button(press)
    assert heard.sounds == [Sound.REFUSED] * 2  # after a quiet moment: heard again
