"""The Haste Worte? screen driven like the table drives it: buttons, taps, camera readings, fake clocks.

Screens are rendered at 800x480 into out/ (haste_*.png) to be looked at.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pygame
import pytest
from drawn_texts import recording_texts

from companion.announce import Announcement
from companion.announcer import Announcer
from companion.games.haste_worte import HasteWorte, Phase
from companion.hourglass import Phase as SandPhase
from companion.i18n import t
from companion.journal import Journal
from companion.session import GameSession
from companion.views import theme
from companion.views.haste_worte_view import (
    FIX,
    FIX_RECT,
    HOURGLASS_RECT,
    SAND_LETTER,
    SAND_SYMBOLS,
    TAKE_OUT,
    TOP_H,
    HasteWorteMode,
)
from companion.views.widgets import tapped_hint
from hardware.events import Button, ButtonEvent, Press
from vision.types import DieReading, TrayReading

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
OUT = Path(__file__).resolve().parents[1] / "out"
WALL0 = 1_715_970_000.0


class Clocks:
    """The app's two clocks, moved by the test: monotonic (frames) and wall (stamps), which may disagree."""

    def __init__(self) -> None:
        self.mono = 500.0
        self.wall = WALL0

    def step(self, seconds: float) -> None:
        self.mono += seconds
        self.wall += seconds


def make(
    tmp_path: Path,
    clocks: Clocks,
    setup: dict[str, Any],
    *,
    lang: str = "de",
    actions: list[dict[str, Any]] | None = None,
    config: Any = None,
) -> tuple[HasteWorteMode, Announcer]:
    announcer = Announcer(lang)
    journal = Journal(tmp_path / f"journal-{clocks.mono}")
    if actions is None:
        session = GameSession.new(
            HasteWorte,
            setup,
            journal,
            lang=lang,
            announce=announcer.announce,
            wall_clock=lambda: clocks.wall,
            announcer=announcer,
            config=config,
        )
    else:  # a restart: the journal's actions are replayed into a fresh engine
        journal.start(HasteWorte.name, actions[0])
        engine = HasteWorte.new(actions[0])
        for a in actions[1:]:
            engine.apply(a)
            journal.record(a)
        session = GameSession(
            HasteWorte,
            engine,
            list(actions),
            journal,
            lang=lang,
            announce=announcer.announce,
            wall_clock=lambda: clocks.wall,
            announcer=announcer,
            config=config,
        )
    view = HasteWorteMode(session)
    view.update(0.0, clocks.mono)
    return view, announcer


def press(view: HasteWorteMode, button: Button, long: bool = False) -> None:
    view.on_button(ButtonEvent(button, Press.LONG if long else Press.SHORT))


def frames(view: HasteWorteMode, clocks: Clocks, seconds: float, step: float = 0.25) -> None:
    """Advance time in frames whose ``dt`` lies (capped at 1/30 s, as loops do): the view must not care."""
    end = clocks.mono + seconds
    while clocks.mono < end - 1e-9:
        clocks.step(min(step, end - clocks.mono))
        view.update(1 / 30, clocks.mono)


def shot(view: HasteWorteMode, name: str) -> pygame.Surface:
    surface = pygame.Surface((800, 480))
    view.draw(surface)
    OUT.mkdir(exist_ok=True)
    pygame.image.save(surface, str(OUT / f"haste_{name}.png"))
    return surface


def queued_keys(announcer: Announcer) -> list[str]:
    current = announcer.current
    shown = [current.announcement.key] if current is not None and hasattr(current, "announcement") else []
    return shown + [a.key for a in announcer.queued]


@pytest.fixture(autouse=True)
def _pygame():
    pygame.init()
    yield


SETUP = {"action": "setup", "players": ["Anna", "Ben", "Carla", "David"], "start": 1, "seed": 9}


def test_a_whole_round_with_buttons_alone_and_the_hourglass_on_time(tmp_path: Path) -> None:
    clocks = Clocks()
    view, announcer = make(tmp_path, clocks, SETUP)
    g = view.game
    assert g.round.first == 1  # "start" from the setup screen: Ben is the youngest
    shot(view, "1_roll")
    press(view, Button.ROLL)  # no camera: virtual dice
    assert view.game.phase is Phase.PICK and len(view.game.round.dice) == 6
    shot(view, "2_pick_empty")
    press(view, Button.SELECT)  # Ben takes die 1
    press(view, Button.NEXT)
    press(view, Button.SELECT)  # Carla: NEXT skips to die 3
    assert [(p.player, p.die) for p in view.game.round.picks] == [(1, 0), (2, 2)]
    shot(view, "3_pick_half")
    press(view, Button.SELECT)
    press(view, Button.SELECT)
    assert view.game.phase is Phase.LETTER
    shot(view, "4_letter")
    press(view, Button.TIMER)  # draws the letter and turns the hourglass in one press
    g = view.game
    assert g.phase is Phase.WRITING and g.round.letter
    start = g.hourglass.started_at
    assert start == pytest.approx(WALL0, abs=1e-9)
    frames(view, clocks, 30.0, step=0.37)
    shot(view, "5_writing")
    assert abs(g.hourglass.remaining(view.wall_now()) - 60.0) < 0.010
    press(view, Button.NEXT)  # while the sand runs nothing is lit: NEXT and SELECT move and refuse nothing
    press(view, Button.SELECT)
    assert view.session.error is None and g.phase is Phase.WRITING
    frames(view, clocks, 52.0, step=1.7)  # a slow frame rate: nothing drifts
    assert "core.seconds_left" in queued_keys(announcer)
    shot(view, "6_warning")
    assert view.hourglass_rect == HOURGLASS_RECT
    frames(view, clocks, 9.0, step=0.9)
    g = view.game
    assert g.phase is Phase.READING
    # time's up is stamped with the exact end of the sand, not the late frame that noticed it
    expired = [a for a in view.session.actions if a["action"] == "timer_expired"]
    assert expired == [{"action": "timer_expired", "at": start + 90.0}]
    assert "haste.times_up" in queued_keys(announcer)
    shot(view, "7_reading")
    press(view, Button.NEXT)
    press(view, Button.NEXT)
    press(view, Button.SELECT)  # Ben: 2
    for _ in range(3):
        press(view, Button.SELECT)  # 0 for the others
    assert view.game.crystals == [0, 2, 0, 0]
    assert view.game.round.number == 2 and view.game.round.first == 2


def test_touch_picks_and_word_counts(tmp_path: Path) -> None:
    clocks = Clocks()
    view, _ = make(tmp_path, clocks, {"action": "setup", "players": ["Anna", "Ben"], "seed": 1}, lang="en")
    view.on_tap((400, 250))
    shot(view, "en_pick")  # the table sees the dice before tapping one
    rects = view.dice.die_rects()
    view.on_tap(rects[4].center)
    view.on_tap(rects[1].center)
    assert [p.die for p in view.game.round.picks] == [4, 1]
    view.on_tap(view._button_rects()[0].center)  # draw the letter
    assert view.game.phase is Phase.WRITING
    view.on_tap(view._button_rects()[1].center)  # the table declares time's up
    assert view.game.phase is Phase.READING
    view.on_tap(view._count_rects()[3].center)
    assert view.game.crystals == [3, 0]
    shot(view, "en_reading")


def sand_running(tmp_path: Path, clocks: Clocks, lang: str = "de") -> HasteWorteMode:
    """A round with buttons alone up to the hourglass, turned 20 seconds ago."""
    view, _ = make(tmp_path, clocks, SETUP, lang=lang)
    press(view, Button.ROLL)
    for _ in range(4):
        press(view, Button.SELECT)
    press(view, Button.SELECT)  # draw the letter
    press(view, Button.TIMER)
    frames(view, clocks, 20.0)
    return view


@pytest.mark.parametrize("seconds, minute", [(90.0, False), (180.0, True)])
def test_a_sand_of_two_minutes_or_more_says_its_last_minute(tmp_path: Path, seconds: float, minute: bool) -> None:
    """A table's own sand of three minutes warned only at 10 s; the rulebook's 90 s (the default) says no more than
    its last ten seconds: a sentence at 30 s would only break the writing."""
    clocks = Clocks()
    view, announcer = make(tmp_path, clocks, {**SETUP, "timer_seconds": seconds})
    press(view, Button.ROLL)
    for _ in range(5):  # the picks, the letter
        press(view, Button.SELECT)
    press(view, Button.TIMER)
    said: list[str] = []
    for _ in range(int(seconds) - 5):
        frames(view, clocks, 1.0)
        said += [k for k in queued_keys(announcer) if k.startswith("core.") and k not in said]
    assert said == (["core.minute_left", "core.seconds_left"] if minute else ["core.seconds_left"])


def test_long_press_cancels_and_timer_turns_it_again(tmp_path: Path) -> None:
    clocks = Clocks()
    view = sand_running(tmp_path, clocks)
    press(view, Button.TIMER, long=True)
    g = view.game
    assert g.hourglass.phase(view.wall_now()) is SandPhase.CANCELLED
    frames(view, clocks, 200.0, step=5)
    assert view.game.phase is Phase.WRITING  # a cancelled hourglass never runs out
    shot(view, "8_cancelled")
    press(view, Button.TIMER, long=True)  # held, as a child holds it down: it turns the sand too (it did nothing)
    frames(view, clocks, 45.0)
    assert abs(view.game.hourglass.remaining(view.wall_now()) - 45.0) < 0.010


def test_a_wall_clock_step_during_the_run_does_not_jump_the_hourglass(tmp_path: Path) -> None:
    clocks = Clocks()
    view, _ = make(tmp_path, clocks, SETUP)
    press(view, Button.ROLL)
    for _ in range(5):
        press(view, Button.SELECT)
    press(view, Button.TIMER)
    frames(view, clocks, 10.0)
    clocks.wall += 3600.0  # network time arrives and steps the clock
    frames(view, clocks, 10.0)
    assert view.game.phase is Phase.WRITING
    assert abs(view.game.hourglass.remaining(view.wall_now()) - 70.0) < 0.010
    frames(view, clocks, 70.0)
    assert view.game.phase is Phase.READING


def started_game(tmp_path: Path, clocks: Clocks) -> list[dict[str, Any]]:
    view, _ = make(tmp_path, clocks, SETUP)
    press(view, Button.ROLL)
    for _ in range(5):
        press(view, Button.SELECT)
    press(view, Button.TIMER)
    return list(view.session.actions)


def test_restart_mid_hourglass_restores_the_remaining_time(tmp_path: Path) -> None:
    clocks = Clocks()
    actions = started_game(tmp_path, clocks)
    clocks.wall += 52.5  # power cut at some point; the Pi is back 52.5 s after the hourglass was turned
    clocks.mono = 3.0  # monotonic clocks restart at boot
    view, _ = make(tmp_path, clocks, {}, actions=actions)
    assert view.game.phase is Phase.WRITING
    assert abs(view.game.hourglass.remaining(view.wall_now()) - 37.5) < 0.010
    shot(view, "9_resumed")
    frames(view, clocks, 37.5)
    assert view.game.phase is Phase.READING


def test_restart_after_the_sand_ran_out_says_times_up(tmp_path: Path) -> None:
    clocks = Clocks()
    actions = started_game(tmp_path, clocks)
    clocks.wall += 600
    view, announcer = make(tmp_path, clocks, {}, actions=actions)
    assert view.game.phase is Phase.READING
    assert "haste.times_up" in queued_keys(announcer)


def test_restart_with_the_clock_behind_marks_the_round_interrupted(tmp_path: Path) -> None:
    clocks = Clocks()
    actions = started_game(tmp_path, clocks)
    clocks.wall -= 86_400  # no real-time clock, no network time yet
    view, announcer = make(tmp_path, clocks, {}, actions=actions)
    assert view.game.round.timer_interrupted
    assert "haste.timer_interrupted" in queued_keys(announcer)
    shot(view, "10_interrupted")
    press(view, Button.TIMER)  # turned again: a fresh full run
    frames(view, clocks, 90.0, step=0.5)
    assert view.game.phase is Phase.READING


def reading(faces: list[str | None]) -> TrayReading:
    return TrayReading(tuple(DieReading(f, 0.9 if f else 0.2, (0, 0, 10, 10)) for f in faces))


def test_an_unread_die_is_fixed_on_screen_before_the_roll_counts(tmp_path: Path) -> None:
    clocks = Clocks()
    view, _ = make(tmp_path, clocks, SETUP)
    view.session.camera_ready = True
    press(view, Button.ROLL)
    assert view.waiting
    view.on_dice(reading(["car", None, "fruit", "water", "toys", "sports"]))
    assert view.game.phase is Phase.ROLL and view.pending is not None
    shot(view, "11_unread")
    press(view, Button.SELECT)  # opens the symbol choice for die 2 (no guess: on "take it out")
    press(view, Button.NEXT)
    press(view, Button.NEXT)
    shot(view, "12_choose_symbol")
    press(view, Button.SELECT)  # the second symbol: fruit
    assert view.game.phase is Phase.PICK
    assert view.game.round.dice == ["car", "fruit", "fruit", "water", "toys", "sports"]


def test_the_symbol_question_starts_on_the_readers_guess(tmp_path: Path) -> None:
    """The reader was not sure of two dice but found a symbol near enough for one ("cities", eight presses of NEXT
    from the first symbol): its choice opens there and the question names it, so a die that shows it takes one
    press, and the answer is taught. The die without a guess asks whether it is one of this game's dice and opens
    on "no: take it out, roll again"; its symbols follow."""
    clocks = Clocks()
    view, _ = make(tmp_path, clocks, SETUP)
    session = view.session
    session.camera_ready = True
    taught: list[tuple[int, str]] = []
    session.learn = lambda index, face: taught.append((index, face))
    press(view, Button.ROLL)
    read = TrayReading(tuple(DieReading(f, 0.3, (0, 0, 10, 10), g) for f, g in [
        ("car", None), (None, "cities"), ("fruit", None), ("water", None), (None, None), ("sports", None)]))
    session.latest_reading = read
    view.on_dice(read)
    press(view, Button.SELECT)  # opens the symbol choice for die 2
    assert view.choosing == ("symbol", 1) and view._choice_values()[view.choice_index] == "cities"
    assert view._symbol_question(1) == "Würfel 2: Städte?"
    shot(view, "12_choose_symbol_guess")
    press(view, Button.SELECT)  # the die shows the guess: one press
    press(view, Button.SELECT)  # opens the symbol choice for die 5
    assert view.choosing == ("symbol", 4) and view._choice_values()[view.choice_index] == TAKE_OUT
    assert view._symbol_question(4) == "Würfel 5: ein Würfel dieses Spiels?"
    press(view, Button.NEXT)
    press(view, Button.SELECT)
    assert taught == [(1, "cities"), (4, "dishes")]
    assert view.game.round.dice == ["car", "cities", "fruit", "water", "dishes", "sports"]


@pytest.mark.parametrize("lang", ["de", "en"])
def test_a_die_with_no_guess_at_all_is_taken_out_and_nothing_is_taught(tmp_path: Path, monkeypatch, lang: str) -> None:
    """An ivory pip die among the symbol dice has no guess at all: its choice opened on the first symbol, a hasty
    SELECT taught the pip die as "Gerichte", and the camera read it so at 0.99 from then on. The question asks
    whether it is one of this game's dice and opens on "no: take it out, roll again", in a button of its own under
    the symbols, in words at the size of theirs and clear of the die's picture: SELECT throws the reading away,
    teaches nothing, and ROLL reads again."""
    clocks = Clocks()
    view, _ = make(tmp_path, clocks, SETUP, lang=lang)
    session = view.session
    session.camera_ready = True
    taught: list[tuple[int, str]] = []
    session.learn = lambda index, face: taught.append((index, face))
    press(view, Button.ROLL)
    read = TrayReading(tuple(DieReading(f, 0.9 if f else 0.0, (0, 0, 10, 10)) for f in
                             ["car", "fruit", "dishes", None, "toys", "water"]))
    session.latest_reading = read
    view.on_dice(read)
    press(view, Button.SELECT)  # the unread die's question
    assert view._choice_question() == t("haste.screen.choose_symbol_foreign", lang, die=4)
    rects = view._choice_rects()
    out = rects[view._choice_values().index(TAKE_OUT)]
    assert view.choice_index == 0 and out.w > 300 and out.top > max(r.bottom for r in rects[1:])
    assert not out.colliderect(view._picture_place())
    with recording_texts(monkeypatch) as drawn:
        shot(view, f"12_take_out_{lang}")
    label = [(size, rect) for text, size, rect in drawn if text == t("haste.screen.take_out", lang)]
    assert label and label[0][0] >= theme.SMALL and out.contains(label[0][1])
    press(view, Button.SELECT)  # a hasty SELECT
    assert taught == [] and view.pending is None and view.choosing is None
    assert view.game.phase is Phase.ROLL and view.game.round.dice is None
    press(view, Button.ROLL)
    assert view.waiting


@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_open_question_is_not_told_to_choose_a_symbol(tmp_path: Path, monkeypatch, lang: str) -> None:
    """The magenta line "Würfel 4 nicht erkannt: antippen, Symbol wählen" stood over the open question "Würfel 4:
    ein Würfel dieses Spiels?", which opens on "no: take it out": it told the table to pick a symbol. While the
    question is open the line says only that the die was not read, of the die asked (a tap on die 5 while die 2 was
    unread too named die 2); before it, it still says to tap it."""
    clocks = Clocks()
    view, _ = make(tmp_path, clocks, SETUP, lang=lang)
    session = view.session
    session.camera_ready = True
    session.learn = lambda index, face: None
    press(view, Button.ROLL)
    read = TrayReading(tuple(DieReading(f, 0.9 if f else 0.0, (0, 0, 10, 10)) for f in
                             ["car", None, "dishes", "fruit", None, "water"]))
    session.latest_reading = read
    view.on_dice(read)
    assert view._status()[0] == t("haste.screen.unread", lang, die=2)  # nothing asked yet: tap it
    assert view.on_tap(die_at(view, 4))  # die 5 first
    assert view.choosing == ("symbol", 4)
    with recording_texts(monkeypatch) as drawn:
        shot(view, f"13_foreign_asked_{lang}")
    status = [text for text, _, rect in drawn if rect.bottom <= 122]  # above the question
    question = t("haste.screen.choose_symbol_foreign", lang, die=5)
    assert question in [text for text, _, _ in drawn]
    assert t("haste.screen.unread_asked", lang, die=5) in status
    assert not any(t("haste.screen.unread", lang, die=n) in status for n in (2, 5))


def die_at(view: HasteWorteMode, die: int) -> tuple[int, int]:
    """Where a finger taps die ``die`` (0-based) on the screen as it stands."""
    view._sync_context()
    return view.dice.die_rects()[die].center


def camera_roll(tmp_path: Path, faces: list[str]) -> tuple[HasteWorteMode, list[tuple[int, str]]]:
    """A roll the camera read for sure (nobody asked), with the reader's examples collected."""
    view, _ = make(tmp_path, Clocks(), SETUP)
    session = view.session
    session.camera_ready = True
    taught: list[tuple[int, str]] = []
    session.learn = lambda index, face: taught.append((index, face))
    press(view, Button.ROLL)
    session.latest_reading = reading(faces)
    view.on_dice(session.latest_reading)
    assert view.game.phase is Phase.PICK
    return view, taught


def test_a_die_read_wrongly_for_sure_is_corrected_with_the_buttons_and_taught(tmp_path: Path) -> None:
    """The camera was sure die 3 shows fruit; it shows animals. "Correct a die" is the last of NEXT's stops; the
    symbol read is preselected (SELECT alone changes nothing); the die's picture is taught the answer."""
    view, taught = camera_roll(tmp_path, ["car", "water", "fruit", "toys", "sports", "dishes"])
    for _ in range(6):
        press(view, Button.NEXT)
    assert view.cursor == FIX
    shot(view, "20_fix_button")
    press(view, Button.SELECT)
    assert view.fixing
    press(view, Button.NEXT)
    press(view, Button.NEXT)
    press(view, Button.SELECT)  # die 3
    assert view.choosing == ("fix", 2) and view._choice_values()[view.choice_index] == "fruit"
    assert view._choice_question() == "Würfel 3 wurde als Obst & Gemüse gelesen: was zeigt er wirklich?"
    shot(view, "21_fix_symbol")
    press(view, Button.SELECT)  # read right after all: nothing changes, nothing is taught
    assert view.game.round.dice[2] == "fruit" and taught == [] and not view.fixing
    assert view.cursor == 2  # on the die looked at
    for _ in range(4):
        press(view, Button.NEXT)
    press(view, Button.SELECT)
    press(view, Button.NEXT)
    press(view, Button.NEXT)
    press(view, Button.SELECT)
    view.choice_index = view._choice_values().index("animals")
    press(view, Button.SELECT)
    assert view.game.round.dice == ["car", "water", "animals", "toys", "sports", "dishes"]
    assert taught == [(2, "animals")]
    assert view.cursor == 2 and not view.fixing  # on the corrected die: SELECT takes it
    press(view, Button.SELECT)
    assert view.game.symbol_of(1) == "animals"  # Ben starts
    view.session.camera_ready = False  # virtual dice thrown by the companion: what they show, nothing to correct
    assert FIX not in view._options() and FIX not in view._targets()


def test_a_taken_die_is_corrected_by_touch_and_its_owner_keeps_it(tmp_path: Path) -> None:
    """A touch-only table: the button, then the die (taken already), then its symbol; UNDO's hint goes back."""
    view, taught = camera_roll(tmp_path, ["car", "water", "fruit", "toys", "sports", "dishes"])
    assert view.on_tap(die_at(view, 4))  # Ben takes die 5
    assert view.on_tap(FIX_RECT.center)
    assert view.fixing
    shot(view, "22_fix_which")
    assert view.on_tap(die_at(view, 4))  # Ben's die: taken dice may be corrected too
    assert view.choosing == ("fix", 4)
    back = next(e for r, e in view.hint_taps if e.button is Button.UNDO)
    press(view, back.button)
    assert view.choosing is None and view.fixing  # back to which die
    assert view.on_tap(die_at(view, 4))
    values = view._choice_values()
    assert view.on_tap(view._choice_rects()[values.index("countries")].center)
    assert view.game.symbol_of(1) == "countries" and taught == [(4, "countries")]
    assert view.game.round.picks[0].die == 4  # still Ben's
    assert view.on_tap(die_at(view, 0))  # Carla takes die 1: picking goes on
    assert [p.die for p in view.game.round.picks] == [4, 0]


def test_correcting_is_offered_before_the_letter_and_not_for_a_reading_taken_back(tmp_path: Path) -> None:
    """After the picks the letter's screen offers it too (a third button); a correction whose camera reading is
    no longer the latest changes the die but teaches nothing; an undo closes an open correction."""
    view, taught = camera_roll(tmp_path, ["car", "water", "fruit", "toys", "sports", "dishes"])
    for die in (1, 2, 3, 4):
        assert view.on_tap(die_at(view, die - 1))
    assert view.game.phase is Phase.LETTER
    assert view._options() == [0, 1, FIX]
    shot(view, "23_letter_fix")
    assert view.on_tap(view._button_rects()[2].center)
    assert view.fixing
    view.session.latest_reading = reading(["car"] * 6)  # the dice were moved and read again
    assert view.on_tap(die_at(view, 0))
    view.choice_index = view._choice_values().index("sports")
    press(view, Button.SELECT)
    assert view.game.round.dice[0] == "sports" and taught == []
    assert view.game.symbol_of(2) == "water"
    press(view, Button.SELECT)  # the letter's first button: draw
    assert view.game.phase is Phase.WRITING and view._options() == [0, 1]  # the hourglass screen has no dice
    view.session.undo()
    assert view.on_tap(view._button_rects()[2].center) and view.fixing
    view.session.undo()  # the correction taken back: the die as read
    assert view.game.round.dice[0] == "car"
    view.session.undo()  # a pick taken back under the open correction: it closes
    view.on_tap((5, 5))
    assert not view.fixing and view.game.phase is Phase.PICK


def test_camera_roll_with_a_missing_die_is_explained(tmp_path: Path) -> None:
    clocks = Clocks()
    view, _ = make(tmp_path, clocks, SETUP)
    view.session.camera_ready = True
    press(view, Button.ROLL)
    view.on_dice(reading(["car", "fruit", "water", "toys", "sports"]))
    assert view.game.phase is Phase.ROLL
    assert "5 Würfel erkannt" in view.session.error


def test_variant_2_asks_who_took_the_die(tmp_path: Path) -> None:
    clocks = Clocks()
    view, _ = make(tmp_path, clocks, {**SETUP, "variant": "simultaneous"})
    press(view, Button.ROLL)
    press(view, Button.NEXT)
    press(view, Button.SELECT)  # die 2 ...
    assert view.choosing == ("who", 1)
    symbol = view._short_label(view.game.round.dice[1])
    assert view._choice_question() == f"Wer hat Würfel 2 ({symbol}) genommen?"  # the dice are hidden under it
    press(view, Button.NEXT)
    press(view, Button.NEXT)
    shot(view, "13_who_took")
    press(view, Button.SELECT)  # ... was taken by Carla
    assert [(p.player, p.die) for p in view.game.round.picks] == [(2, 1)]
    for die, who in ((3, 0), (4, 0)):  # Anna, then Ben (the first still without a die)
        view.on_tap(die_at(view, die))
        view.on_tap(view._choice_rects()[who].center)
    view.on_tap(die_at(view, 5))  # the last die: only David can have taken it, nobody is asked
    assert view.choosing is None and view.game.phase is Phase.LETTER
    assert [(p.player, p.die) for p in view.game.round.picks][-1] == (3, 5)


def test_a_letter_typed_from_the_physical_tokens(tmp_path: Path) -> None:
    clocks = Clocks()
    view, _ = make(tmp_path, clocks, {**SETUP, "variant": "letter-first"})
    assert view.game.phase is Phase.LETTER
    press(view, Button.NEXT)
    press(view, Button.SELECT)
    assert view.choosing == ("letter", 0)
    for _ in range(3):
        press(view, Button.NEXT)
    shot(view, "14_letter_choice")
    press(view, Button.SELECT)
    assert view.game.round.letter == "D"  # A B C D: every letter is offered, not the companion's 21 tokens only
    assert view.game.phase is Phase.ROLL


@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_letter_picker_offers_every_letter_a_box_may_hold(tmp_path: Path, monkeypatch, lang: str) -> None:
    """The picker offered the companion's 21 tokens only: a family whose box has a V or a C could not enter it.
    It offers A-Z, Ä, Ö, Ü now, each a button of its own above the hint line, none overlapping; a V is taken by
    touch and the companion's stack, which never held it, keeps its 21."""
    view, _ = make(tmp_path, Clocks(), {**SETUP, "variant": "letter-first"}, lang=lang)
    press(view, Button.NEXT)
    press(view, Button.SELECT)
    assert view.choosing == ("letter", 0)
    drawn = texts_drawn(view, monkeypatch, f"letters_all_{lang}")
    letters = list("ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÜ")
    assert view._choice_values() == letters
    labels = {s: (size, r) for s, size, r in drawn if s in letters}
    assert set(labels) == set(letters) and all(size >= theme.LARGE for size, _ in labels.values())
    rects = view._choice_rects()
    assert not any(a.colliderect(b) for i, a in enumerate(rects) for b in rects[i + 1:])
    assert all(0 <= r.left and r.right <= 800 and 160 <= r.top and r.bottom <= 436 for r in rects)
    stack = list(view.game.stack)
    view.on_tap(rects[letters.index("V")].center)
    assert view.game.round.letter == "V" and view.game.stack == stack and len(stack) == 21


def test_timer_in_variant_1_turns_the_letter_alone(tmp_path: Path) -> None:
    """TIMER turns the token and the hourglass together, but variant 1 turns the token before the dice: the press
    turned the letter and then showed the hourglass's refusal ("turned once the dice and the letter are
    settled")."""
    clocks = Clocks()
    view, _ = make(tmp_path, clocks, {**SETUP, "variant": "letter-first"})
    press(view, Button.TIMER)
    assert view.game.round.letter and view.game.phase is Phase.ROLL
    assert view.session.error is None


def test_game_over_screen(tmp_path: Path) -> None:
    clocks = Clocks()
    view, _ = make(
        tmp_path, clocks, {"action": "setup", "players": ["Anna", "Ben", "Carla"], "seed": 3, "goal": 3}
    )
    press(view, Button.ROLL)
    for _ in range(3):
        press(view, Button.SELECT)
    press(view, Button.SELECT)  # the letter
    press(view, Button.NEXT)  # from "turn the hourglass" to "time's up"
    press(view, Button.SELECT)
    assert view.game.phase is Phase.READING
    for words in (3, 1, 3):
        for _ in range(words):
            press(view, Button.NEXT)
        press(view, Button.SELECT)
    assert view.game.finished and view.game.winners == [0, 2]
    surface = shot(view, "15_over")
    title = [surface.get_at((x, y)) for x in range(250, 550, 3) for y in range(130, 200, 3)]
    assert sum(1 for c in title if c[:3] == theme.GOOD) > 100  # the winner title is drawn large, in green


def test_the_game_over_ranking_keeps_long_names_clear_of_their_scores(tmp_path: Path, monkeypatch) -> None:
    """Names stood at x=300 and scores at x=520: "Großvater Johannes" read "Großvater Johan3es"."""
    players = ["Großvater Johannes", "Oma Lise", "Großmutter Hildegard", "Maximilian", "Tante Friederike", "Onkel B."]
    clocks = Clocks()
    view, _ = make(tmp_path, clocks, {"action": "setup", "players": players, "seed": 3, "goal": 3})
    press(view, Button.ROLL)
    for _ in range(len(players)):
        press(view, Button.SELECT)
    press(view, Button.SELECT)  # the letter
    press(view, Button.NEXT)  # from "turn the hourglass" to "time's up"
    press(view, Button.SELECT)
    for words in (3, 1, 1, 1, 1, 1):
        for _ in range(words):
            press(view, Button.NEXT)
        press(view, Button.SELECT)
    assert view.game.finished
    drawn: list[tuple[str, pygame.Rect]] = []
    text = theme.text
    monkeypatch.setattr(theme, "text", lambda surface, s, *a, **k: (
        drawn.append((s, text(surface, s, *a, **k))), drawn[-1][1])[1])
    shot(view, "15_over_six")
    title = next(r for s, r in drawn if s == "Gewonnen!")
    rows = [(s, r) for s, r in drawn if r.top >= title.bottom]  # (the rows stood from y=222 at BODY)
    names = [r for s, r in rows if s in players]
    scores = [r for s, r in rows if s.isdigit()]
    assert len(names) == len(scores) == 6
    assert not any(n.colliderect(s) for n in names for s in scores)
    assert all(0 <= r.left and r.right <= 800 for r in names + scores)


def test_a_long_prompt_does_not_run_over_the_dice_numbers(tmp_path: Path, monkeypatch) -> None:
    """"Annabelle-Sophie wählt einen Würfel" in large type reached down over the numbers above the dice; they
    stand below the dice now, with the name of whoever took a die under its number."""
    clocks = Clocks()
    names = ["Annabelle-Sophie", "Bartholomäus", "Carla-Johanna", "Dorothea", "Eva-Maria", "Friedrich-W."]
    view, _ = make(tmp_path, clocks, {"action": "setup", "players": names, "start": 0, "seed": 9})
    press(view, Button.ROLL)
    press(view, Button.SELECT)  # Annabelle-Sophie takes die 1: her name goes under it
    drawn: list[tuple[str, pygame.Rect]] = []
    text = theme.text
    monkeypatch.setattr(theme, "text", lambda surface, s, *a, **k: drawn.append((s, text(surface, s, *a, **k)))
                        or drawn[-1][1])
    shot(view, "long_prompt")
    prompt = next(r for s, r in drawn if "wählt einen Würfel" in s)
    numbers = [r for s, r in drawn if s in {str(i) for i in range(1, 7)}]
    taker = next(r for s, r in drawn if s.startswith("Annabelle") and r.y > 100)
    assert len(numbers) == 6 and not any(prompt.colliderect(r) for r in numbers)
    assert not any(taker.colliderect(r) for r in numbers)
    assert all(r.top >= d.bottom for r, d in zip(numbers, view.dice.die_rects(), strict=True))


def test_prev_moves_the_pick_to_the_last_die(tmp_path: Path) -> None:
    """A laptop's arrow left (PREV): from the first die to the last, and on past taken dice, as NEXT the other way.
    (Virtual dice: nothing read to correct, so no "Correct a die" in the round.)"""
    view, _ = make(tmp_path, Clocks(), SETUP)
    press(view, Button.ROLL)
    press(view, Button.PREV)
    press(view, Button.SELECT)  # Ben takes die 6
    press(view, Button.PREV)
    press(view, Button.PREV)
    press(view, Button.SELECT)  # Carla, the highlight on the taken die 6: PREV to die 5, then die 4
    assert [(p.player, p.die) for p in view.game.round.picks] == [(1, 5), (2, 3)]


def test_the_hourglass_turned_before_the_screens_first_frame_runs_its_full_time(tmp_path: Path) -> None:
    """TIMER pressed on a screen that had not drawn a frame yet took the monotonic clock for 0: at the first
    frame the sand had run for as long as the machine had been on, and time was up at once."""
    clocks = Clocks()
    view, _ = make(tmp_path, clocks, SETUP)
    press(view, Button.ROLL)
    while view.game.phase is not Phase.WRITING:  # each picks the highlighted die, then the letter is drawn
        press(view, Button.SELECT)
    fresh = HasteWorteMode(view.session)  # a resumed game's screen, TIMER pressed in the frame that made it
    press(fresh, Button.TIMER)
    clocks.step(1.0)
    fresh.update(0.03, clocks.mono)
    assert fresh.game.phase is Phase.WRITING and fresh.game.hourglass.is_running(fresh.wall_now())
    assert 88.0 <= fresh.game.hourglass.remaining(fresh.wall_now()) <= 89.5


@pytest.mark.parametrize(("lang", "timer"), [("de", "drehen"), ("en", "turn hourglass")])
def test_the_letter_bar_has_room_for_the_menus_hint_at_full_size(tmp_path: Path, lang: str, timer: str) -> None:
    """German "UHR Sanduhr drehen" beside "WÄHLEN Buchstaben ziehen" left no room for "ZURÜCK Menü" at the bar's
    size: a table with the touch screen alone saw no way to the menu there but the ≡ corner. "UHR drehen" makes
    room; English keeps its words."""
    from companion.views.widgets import hint_bar_size, with_menu

    view, _ = make(tmp_path, Clocks(), dict(SETUP), lang=lang)
    press(view, Button.ROLL)
    for _ in range(4):  # each of the four players takes a die
        press(view, Button.SELECT)
    assert view.game.phase is Phase.LETTER
    view.update(0.03, 0.0)
    view.draw(pygame.Surface(theme.DESIGN_SIZE))
    assert [e.button for _, e in view.hint_taps] == [Button.TIMER, Button.UNDO]  # both framed: a finger's buttons
    hints = with_menu(view._hints(), lang)
    assert hints[0][1] == timer and hint_bar_size(hints) == theme.SMALL


def test_the_letter_phase_hints_say_what_select_and_timer_do_there(tmp_path: Path) -> None:
    """"SELECT draw letter" stood under "Enter a token" too (SELECT opens the token list there), and variant 1's
    "TIMER turn hourglass" only turns the token: the hourglass comes after the picks."""
    from companion.views import haste_worte_view

    clocks = Clocks()
    view, _ = make(tmp_path, clocks, dict(SETUP), lang="en")
    press(view, Button.ROLL)
    for _ in range(4):  # each of the four players takes a die
        press(view, Button.SELECT)
    assert view.game.phase is Phase.LETTER

    def texts(mode: haste_worte_view.HasteWorteMode) -> list[str]:
        mode.update(0.03, 0.0)  # as every frame: the highlight follows the game
        return [what for _, what in mode._hints()]

    assert texts(view)[:2] == ["turn hourglass", "draw letter"]
    press(view, Button.NEXT)
    assert texts(view)[1] == "choose"
    first, _ = make(tmp_path / "v1", clocks, {**SETUP, "variant": "letter-first"}, lang="en")
    assert first.game.phase is Phase.LETTER and "turn hourglass" not in texts(first)
    press(view, Button.TIMER, long=True)  # held, as a child holds it: as pressed (it did nothing, unsaid)
    assert view.game.phase is Phase.WRITING


def test_while_the_sand_runs_no_button_is_shown_that_would_only_refuse(tmp_path: Path) -> None:
    """"Time's up" stood beside the running hourglass, and a tap on it was refused in red ("the hourglass has 60
    seconds left ..."); once the sand is out both buttons are back."""
    clocks = Clocks()
    view = sand_running(tmp_path, clocks, lang="en")
    assert view._targets() == {}
    times_up = view._button_rects()[1]
    view.on_tap(times_up.center)
    assert view.session.error is None and view.game.phase is Phase.WRITING
    surface = shot(view, "9_running_no_buttons")
    assert surface.get_at(times_up.center)[:3] == surface.get_at((times_up.right + 6, times_up.centery))[:3]
    press(view, Button.TIMER, long=True)  # cancelled: the table may declare time's up itself
    assert 1 in view._targets()


def test_a_finger_stops_the_hourglass_and_turns_it_again(tmp_path: Path) -> None:
    """While the sand ran nothing could be tapped: stopping it took a held TIMER (the screen said so), which a table
    with the touch screen alone has not got. The hint is TIMER: a finger held on it (the app's TIMER held) stops the
    sand, the next tap turns it. A tap alone stopped it at first: a child's second tap on the TIMER it had just
    tapped to turn the sand; now a tap is TIMER pressed, and the app says how to stop it (``timer_not_now``)."""
    clocks = Clocks()
    view = sand_running(tmp_path, clocks)
    shot(view, "8_cancel_by_touch")
    [(stop, press_), (_, menu)] = view.hint_taps  # and "UNDO menu"
    assert press_ == ButtonEvent(Button.TIMER) and stop.h >= 36
    assert menu == ButtonEvent(Button.UNDO)
    assert not view.on_button(tapped_hint(view.hint_taps, stop.center))  # a tap, as the app presses it
    assert view.game.hourglass.is_running(view.wall_now()) and "gedrückt halten" in view.timer_not_now
    assert view.on_button(ButtonEvent(Button.TIMER, Press.LONG))  # the finger held there
    assert view.game.hourglass.phase(view.wall_now()) is SandPhase.CANCELLED
    frames(view, clocks, 1.0)
    shot(view, "8_cancelled_by_touch")  # a frame drawn: its hints are the stopped hourglass's
    turn = next(rect for rect, event in view.hint_taps if event == ButtonEvent(Button.TIMER))
    view.on_button(tapped_hint(view.hint_taps, turn.center))
    assert view.game.hourglass.is_running(view.wall_now())


def test_the_call_to_pick_goes_once_a_die_is_taken_and_a_reroll_leaves_one(tmp_path: Path) -> None:
    """Each re-roll queued "Anna, pick a die" again, and the one showing stood over the screen saying that Ben picks
    now: the call is past once a die is taken."""
    clocks = Clocks()
    view, announcer = make(tmp_path, clocks, SETUP)
    press(view, Button.ROLL)
    for _ in range(20):  # the round's opening said, the call shows
        clocks.step(5.0)
        announcer.update(clocks.mono)
        if queued_keys(announcer)[:1] == ["haste.pick_turn"]:
            break
    press(view, Button.REROLL)
    press(view, Button.REROLL)
    # the one showing, one waiting, with the last roll's symbols before it (the first re-roll's taken back)
    # (the newer call takes the waiting call's place: before the symbols)
    assert queued_keys(announcer) == ["haste.pick_turn", "haste.pick_turn", "haste.rolled"]
    press(view, Button.SELECT)  # the first die taken
    assert len(view.game.round.picks) == 1 and "haste.pick_turn" not in queued_keys(announcer)


def test_a_cancelled_hourglass_takes_back_the_sentence_that_it_runs(tmp_path: Path) -> None:
    """Cancelled, the banner still said "the hourglass runs: 90 seconds" over "stopped"; the cancel waited."""
    clocks = Clocks()
    view = sand_running(tmp_path, clocks)
    announcer = view.session.announcer
    press(view, Button.TIMER, long=True)  # cancelled...
    announcer.clear(keep_essential=False)
    press(view, Button.TIMER)  # ...turned again...
    announcer.update(clocks.mono)
    assert queued_keys(announcer) == ["haste.timer_started"]  # showing
    press(view, Button.TIMER, long=True)  # ...and cancelled while its sentence shows
    assert queued_keys(announcer) == ["haste.timer_cancelled"]


def test_the_dice_and_the_correct_button_are_what_a_banner_spares_while_picking(tmp_path: Path) -> None:
    """The call to pick stood at the bottom over "Correct a die" for its four seconds: a tap put the banner away."""
    from companion.views.haste_worte_view import FIX_RECT

    view, _ = make(tmp_path, Clocks(), SETUP)
    assert view.in_view == []
    press(view, Button.ROLL)
    view.session.camera_ready = True  # read by a camera: a die may be corrected
    shot(view, "pick_spared")  # the app asks after the screen is drawn
    assert FIX_RECT in view.in_view and view.in_view[0].contains(view.dice.die_rects()[0])



def test_the_word_counts_are_what_a_banner_spares_while_scoring(tmp_path: Path) -> None:
    """Scores entered a second apart: a player's crystals, said while the next reader's counts came up, covered
    them; only their top could be tapped."""
    clocks = Clocks()
    view = sand_running(tmp_path, clocks)
    frames(view, clocks, 75.0, step=1.0)  # the sand runs out
    shot(view, "scoring_spared")
    assert view.game.phase is Phase.READING
    counts = view._count_rects()
    assert view.in_view and all(view.in_view[0].contains(r) for r in counts)


def test_the_buttons_after_the_hourglass_was_stopped_are_what_a_banner_spares(tmp_path: Path) -> None:
    """Stopped, "the hourglass stopped, 70 seconds were left; TIMER turns it again" stood over "Turn the hourglass"
    and "Time's up", the hint line naming them: the banner goes above them (the hourglass kept clear as before)."""
    from companion.views import banner

    clocks = Clocks()
    view = sand_running(tmp_path, clocks)
    # the sand runs: nothing to tap, the foot where the buttons come back is a banner's (``test_while_the_sand...``)
    assert not any(r.colliderect(b) for r in view.in_view for b in view._button_rects())
    press(view, Button.TIMER, long=True)
    shot(view, "stopped_spared")
    buttons = view.in_view[0]  # first: then the status line and who has which symbol
    assert all(buttons.contains(r) for r in view._targets().values()) and view._targets()
    rect, _, _ = banner.place((800, 480), "Sanduhr angehalten, 70 Sekunden waren noch übrig. UHR dreht sie neu.",
                              view.hourglass_rect, 1.0, (), view.in_view, view.banner_room)
    assert not rect.colliderect(buttons) and not rect.colliderect(HOURGLASS_RECT)


def test_times_up_undone_stays_undone_after_a_restart(tmp_path: Path) -> None:
    """The sand ran out and the table took "time's up" back: the round stood at nought, writing. After a power cut
    the resume found the sand out "while off", stamped time's up again and said so: another game than before."""
    clocks = Clocks()
    view = sand_running(tmp_path, clocks)
    frames(view, clocks, 75.0)
    assert view.game.phase is Phase.READING
    assert view.session.undo()
    frames(view, clocks, 2.0)
    assert view.game.phase is Phase.WRITING  # live: it stays so
    saved = Journal(view.session.journal.folder).load()
    assert saved.undone and saved.undone[-1]["action"] == "timer_expired"
    clocks.wall += 30.0
    clocks.mono = 3.0
    announcer = Announcer("de")
    session = GameSession.resume(HasteWorte, saved, Journal(view.session.journal.folder), lang="de",
                                 announce=announcer.announce, wall_clock=lambda: clocks.wall, announcer=announcer)
    again = HasteWorteMode(session)
    again.update(0.0, clocks.mono)
    frames(again, clocks, 2.0)
    assert again.game.phase is Phase.WRITING and "haste.times_up" not in queued_keys(announcer)
    assert session.actions == view.session.actions


# -- read from the far end of the table: the essentials at theme.FAR or larger, nothing overlapping

TYPICAL_SIX = ["Anna", "Ben", "Carla", "David", "Emil", "Frieda"]
EIGHT_LETTERS = ["Johannes", "Marianne", "Benedikt", "Dorothea", "Clemens", "Friedric"]


def texts_drawn(view: HasteWorteMode, monkeypatch, name: str) -> list[tuple[str, int, pygame.Rect]]:
    """Every line ``view.draw`` writes: its string, size and rect (the screen saved as haste_<name>.png)."""
    drawn: list[tuple[str, int, pygame.Rect]] = []
    text = theme.text

    def spy(surface: pygame.Surface, s: str, pos: tuple[int, int], size: int = theme.BODY, *a, **k) -> pygame.Rect:
        rect = text(surface, s, pos, size, *a, **k)
        drawn.append((s, size, rect))
        return rect

    monkeypatch.setattr(theme, "text", spy)
    shot(view, name)
    monkeypatch.undo()
    return drawn


def bar_texts(view: HasteWorteMode, drawn: list[tuple[str, int, pygame.Rect]]) -> list[tuple[str, int, pygame.Rect]]:
    """The crystal table's lines: each player's name (or its short form) and count, top row first."""
    return [(s, size, r) for s, size, r in drawn if r.top < 66]


def picked_and_lettered(tmp_path: Path, clocks: Clocks, players: list[str], lang: str = "de") -> HasteWorteMode:
    view, _ = make(tmp_path, clocks, {"action": "setup", "players": players, "start": 0, "seed": 3}, lang=lang)
    press(view, Button.ROLL)
    for _ in players:
        press(view, Button.SELECT)
    assert view.game.phase is Phase.LETTER
    return view


@pytest.mark.parametrize(
    ("players", "lang"),
    [(["Anna", "Ben"], "de"), (SETUP["players"], "de"), (SETUP["players"], "en"), (TYPICAL_SIX[:5], "de"),
     (TYPICAL_SIX, "de"), (TYPICAL_SIX, "en"), (EIGHT_LETTERS[:4], "de"), (EIGHT_LETTERS[:5], "en")],
)
def test_the_crystal_table_is_read_from_the_far_end(tmp_path: Path, monkeypatch, players: list[str],
                                                   lang: str) -> None:
    """Names were BODY beside the count (four players) or SMALL over a BODY count (five, six): too small across the
    table. Now every name up to eight letters and every count is FAR or larger, inside its cell, clear of the count
    and of the status line under the table."""
    clocks = Clocks()
    view = picked_and_lettered(tmp_path, clocks, players, lang)
    press(view, Button.TIMER)
    frames(view, clocks, 100.0)  # the sand runs out: reading, a count of crystals in play
    press(view, Button.NEXT)
    press(view, Button.NEXT)
    press(view, Button.SELECT)  # the first reader: 2 crystals
    drawn = texts_drawn(view, monkeypatch, f"bar_{len(players)}_{players[0]}_{lang}")
    bar = bar_texts(view, drawn)
    names = [(s, size, r) for s, size, r in bar if s in players]
    counts = [(s, size, r) for s, size, r in bar if s.isdigit()]
    assert [s for s, _, _ in names] == players and [s for s, _, _ in counts] == [str(c) for c in view.game.crystals]
    assert all(size >= theme.FAR for _, size, _ in names + counts)
    status = next(r for s, _, r in drawn if s == view.game.prompt().text(lang))
    for k, ((_, _, name), (_, _, count)) in enumerate(zip(names, counts, strict=True)):
        if len(players) <= 4:  # one row; five or six stand in two (``test_five_or_six_players_crystal_table...``)
            assert_in_own_cell(view, k, name, count)
        assert not name.colliderect(count) and not name.colliderect(status) and not count.colliderect(status)


def assert_in_own_cell(view: HasteWorteMode, k: int, *rects: pygame.Rect) -> None:
    """Two to four players' crystal table: player ``k``'s name and count inside their cell, the cells side by side
    in one row without overlapping, clear of the app's menu corner (x 748). The cells were even (740 // n); they
    are as wide as their names need now (``_shared_widths``), so each is looked up, and checked to be a row."""
    cells = view._crystal_cells()[0]
    assert all(a.right < b.left and a.top == b.top for a, b in zip(cells, cells[1:], strict=False)), cells
    assert cells[0].left >= 0 and cells[-1].right <= 748 and cells[0].bottom <= 62
    cell = cells[k].inflate(0, 8)  # a FAR line's box reaches a little above and below the 56 rows
    assert all(cell.contains(r) for r in rects), (cell, rects)


def test_long_names_in_the_crystal_table_shrink_but_stay_whole_or_shortened(tmp_path: Path, monkeypatch) -> None:
    """Six long names take what the cells leave: shortened as people shorten them, each in its own cell."""
    players = ["Großvater Johannes", "Oma Lise", "Großmutter Hildegard", "Maximilian", "Tante Friederike", "Onkel B."]
    clocks = Clocks()
    view = picked_and_lettered(tmp_path, clocks, players)
    bar = bar_texts(view, texts_drawn(view, monkeypatch, "bar_six_long"))
    rects = [r for _, _, r in bar]
    assert len(rects) == 12 and all(size >= theme.SMALLEST for _, size, _ in bar)
    assert not any(a.colliderect(b) for i, a in enumerate(rects) for b in rects[i + 1:])
    assert all(0 <= r.left and r.right <= 740 for r in rects)



@pytest.mark.parametrize(("players", "lang"), [
    (["Großvater Johannes", "Großmutter H.", "Mia", "Ben"], "de"), (["Großvater Johannes", "Mia"], "en"),
    (["Großvater Johannes", "Großmutter Hildegard", "Mia"], "de"), (["Anna", "Maximilian", "Ben"], "en"),
    (["Anna", "Friederike", "Ben", "Maximilian"], "de"), (SETUP["players"], "de")])
def test_two_to_four_players_names_in_the_crystal_table_stand_at_one_size(tmp_path: Path, monkeypatch,
                                                                         players: list[str], lang: str) -> None:
    """Each name was fitted alone: "Großvater J." at 32 over its count beside "Großmutter H." at 28, "Maximilian"
    at 32 beside "Anna" at 40: mixed sizes in one bar read from the far end as a mistake. Now all at one size (as
    five or six have it), each whole or in short, in its own cell, the counts as they were."""
    clocks = Clocks()
    view = picked_and_lettered(tmp_path, clocks, players, lang)
    drawn = texts_drawn(view, monkeypatch, f"bar_one_size_{len(players)}_{players[1][:5]}_{lang}")
    bar = bar_texts(view, drawn)
    names = [(s, size, r) for s, size, r in bar if not s.isdigit()]
    assert [s for s, _, _ in names] == [n if n == s else theme.short_name(n) for n, (s, _, _) in zip(
        players, names, strict=True)], names
    assert len({size for _, size, _ in names}) == 1, names
    for k, (_, _, rect) in enumerate(names):
        assert_in_own_cell(view, k, rect)
    assert names[0][1] >= theme.FAR  # every one of these rows holds its names at FAR: each cell as its name needs

@pytest.mark.parametrize(("players", "lang", "least", "beside"), [
    (["Großvater J.", "Großmutter H.", "Mia", "Ben"], "de", theme.FAR, False),
    (["Großvater Johannes", "Großmutter Hildegard", "Mia", "Ben"], "en", theme.FAR, False),
    (["Friederike", "Maximilian", "Konstantin", "Bartholomäus"], "de", theme.FAR, False),
    (SETUP["players"], "en", theme.LARGE, True), (["Großvater Johannes", "Mia"], "de", theme.LARGE, True),
    (["Anna", "Maximilian", "Ben"], "de", theme.LARGE, True),
    (["Großvater Johannes", "Großmutter Hildegard", "Tante Friederike"], "en", theme.FAR, True)])
def test_two_to_four_names_take_the_width_they_need_and_stand_at_far(tmp_path: Path, monkeypatch, players: list[str],
                                                                     lang: str, least: int, beside: bool) -> None:
    """Each cell was 740 // n wide: "Großvater J.", "Großmutter H.", "Mia" and "Ben" all stood at 26 (the size
    "Großmutter H." needed in a quarter), though the four need far less than the row at FAR; "Anna", "Ben",
    "Carla", "David" at 38, "Maximilian" and "Großvater Johannes" at 32 beside their counts. Now each cell is as
    wide as its name needs and the rest is shared (as five or six players' cells and Noch X-Mal!'s cards): every
    name at one size, FAR or larger, beside its count where the row holds them so; a count reaching 10 changes
    nothing."""
    clocks = Clocks()
    view = picked_and_lettered(tmp_path, clocks, players, lang)
    before = view._crystal_cells()
    for crystals in ("0", "12"):
        view.game.crystals[-1] = int(crystals)
        bar = bar_texts(view, texts_drawn(view, monkeypatch, f"bar_shared_{len(players)}_{players[1][:5]}_{lang}"))
        names = [(s, size, r) for s, size, r in bar if not s.isdigit()]
        counts = [(s, size, r) for s, size, r in bar if s.isdigit()]
        assert [s for s, _, _ in names] == [n if n == s else theme.short_name(n) for n, (s, _, _) in zip(
            players, names, strict=True)], names
        assert len({size for _, size, _ in names}) == 1 and names[0][1] >= least, names
        for k, ((_, _, name), (_, _, count)) in enumerate(zip(names, counts, strict=True)):
            assert_in_own_cell(view, k, name, count)
            assert not name.colliderect(count)
            assert (abs(name.centery - count.centery) <= 4) is beside, (name, count)
        assert view._crystal_cells() == before


LONG_NAMES = ["Großvater Johannes", "Großmutter Hildegard", "Tante Friederike", "Maximilian", "Oma Lise", "Onkel Bernd"]


def assert_crystal_rows(view: HasteWorteMode, drawn: list[tuple[str, int, pygame.Rect]], lang: str) -> None:
    """Five or six players' crystal table as the far end reads it: each name whole or in short (``short_name``, not
    cut), all at one size, FAR or larger; each count at FAR or larger on its name's line, right of it; two rows, none
    of it overlapping, clear of the menu corner (x 748) and of the status line."""
    players, crystals = view.game.players, view.game.crystals
    status = next(r for s, _, r in drawn if s in view._status_lines()[0])
    bar = [(s, size, r) for s, size, r in drawn if r.bottom <= status.top]
    names = [(s, size, r) for s, size, r in bar if not s.isdigit()]
    counts = [(s, size, r) for s, size, r in bar if s.isdigit()]
    assert [s for s, _, _ in names] == [n if n == s else theme.short_name(n) for n, (s, _, _) in zip(
        players, names, strict=True)], names
    assert [s for s, _, _ in counts] == [str(c) for c in crystals]
    assert len({size for _, size, _ in names}) == 1 and names[0][1] >= theme.FAR, names
    assert all(size >= theme.FAR for _, size, _ in counts)
    assert len({r.centery for _, _, r in names}) == 2  # two rows
    for (_, _, name), (_, _, count) in zip(names, counts, strict=True):
        assert name.right < count.left and abs(name.centery - count.centery) <= 2
    rects = [r for _, _, r in bar]
    assert not any(a.colliderect(b) for i, a in enumerate(rects) for b in rects[i + 1:])
    assert all(0 <= r.left and r.right <= 748 and r.top >= 0 for r in rects)


@pytest.mark.parametrize(("players", "lang"), [(LONG_NAMES, "de"), (LONG_NAMES, "en"), (LONG_NAMES[:5], "de"),
                                               (EIGHT_LETTERS, "de"), (TYPICAL_SIX[:5], "en")])
def test_five_or_six_players_crystal_table_is_read_from_the_far_end(tmp_path: Path, monkeypatch,
                                                                    players: list[str], lang: str) -> None:
    """Six in one row left each cell 123 px: "Großvater J." at 20, "Oma L." at 32, "Großmutte. H." at 16 side by
    side, "Johannes" at 26. In two rows of three every name stands at one size, FAR, shortened where it is long,
    its count at FAR beside it; a count reaching 10 changes no name."""
    clocks = Clocks()
    view = picked_and_lettered(tmp_path, clocks, players, lang)
    assert_crystal_rows(view, texts_drawn(view, monkeypatch, f"rows_{len(players)}_{players[0][:4]}_{lang}"), lang)
    before = view._crystal_rows()
    view.game.crystals[-1] = 12
    assert_crystal_rows(view, texts_drawn(view, monkeypatch, f"rows_{len(players)}_{players[0][:4]}_{lang}_12"), lang)
    assert view._crystal_rows() == before


def every_screen(tmp_path: Path, players: list[str], lang: str) -> Iterator[tuple[str, HasteWorteMode]]:
    """Every Haste screen a table of ``players`` sees, by the buttons: the roll, an unread die and its symbols, the
    pick with its "Correct a die" and the names under the dice, the die to correct, the letter and its tokens, the
    sand running and stopped, the reading, who took a die (variant 2), the end (one winner, and all)."""
    clocks = Clocks()
    view, _ = make(tmp_path, clocks, {"action": "setup", "players": players, "start": 0, "seed": 3}, lang=lang)
    yield "roll", view
    view.session.camera_ready = True
    press(view, Button.ROLL)
    view.on_dice(reading(["car", None, "fruit", "water", "toys", "sports"]))
    yield "unread", view
    press(view, Button.SELECT)
    yield "symbol", view
    press(view, Button.NEXT)  # (no guess: from "take it out" to the first symbol)
    press(view, Button.SELECT)
    yield "pick", view
    for _ in players[:-1]:
        press(view, Button.SELECT)
    press(view, Button.PREV)  # from the first free die back to "Correct a die …", the last stop
    assert view.cursor == FIX
    yield "owners", view
    press(view, Button.SELECT)
    yield "fix_which", view
    press(view, Button.SELECT)
    yield "fix_symbol", view
    press(view, Button.SELECT)
    press(view, Button.SELECT)
    assert view.game.phase is Phase.LETTER
    yield "letter", view
    press(view, Button.NEXT)
    press(view, Button.SELECT)
    yield "which_letter", view
    press(view, Button.UNDO)
    press(view, Button.TIMER)
    frames(view, clocks, 1.0)
    yield "sand", view
    press(view, Button.TIMER, long=True)
    yield "stopped", view
    press(view, Button.NEXT)
    press(view, Button.SELECT)
    assert view.game.phase is Phase.READING
    yield "reading", view
    view, _ = make(tmp_path / "who", Clocks(), {"action": "setup", "players": players, "start": 0, "seed": 3,
                                                "variant": "simultaneous"}, lang=lang)
    press(view, Button.ROLL)
    press(view, Button.SELECT)
    yield "who_took", view
    yield "over", one_round_to_three(tmp_path / "over", Clocks(), players, [3] + [1] * (len(players) - 1), lang)
    yield "over_all", one_round_to_three(tmp_path / "all", Clocks(), players, [3] * len(players), lang)


@pytest.mark.parametrize(("players", "lang"), [(LONG_NAMES, "de"), (LONG_NAMES, "en"), (LONG_NAMES[:5], "en"),
                                               (TYPICAL_SIX, "de")])
def test_every_screen_with_five_or_six_players_keeps_its_crystal_table_in_two_rows_clear(
        tmp_path: Path, monkeypatch, players: list[str], lang: str) -> None:
    """The two rows take 6 rows more than the one did: the status line stands 4 lower, and on every screen
    nothing under it reaches up into it or the table, nor the table into the app's menu corner."""
    (tmp_path / "who").mkdir()
    for name, view in every_screen(tmp_path, players, lang):
        drawn = texts_drawn(view, monkeypatch, f"every_{len(players)}_{lang}_{name}")
        assert_crystal_rows(view, drawn, lang)
        status = [r for s, _, r in drawn if s in view._status_lines()[0]]
        top = [r for s, _, r in drawn if r.bottom <= status[0].top] + status
        below = [(s, r) for s, _, r in drawn if r.bottom > status[0].top and r not in status]
        assert below and not any(r.colliderect(o) for _, r in below for o in top), name
        # what a banner spares reaches not into the table (the status line itself is spared while the sand runs)
        spared = [r for r in view.in_view if r != view._status_rect()]
        assert not any(r.colliderect(o) for o in top for r in spared), name
        if (sand := view.hourglass_rect) is not None:
            assert not any(sand.colliderect(o) for o in top), name


def symbol_screens(tmp_path: Path, monkeypatch, players: list[str], lang: str,
                   name: str) -> Iterator[tuple[str, HasteWorteMode, list[tuple[str, int, pygame.Rect]], set[str]]]:
    """The screen of who has which symbol at the letter, then while the sand runs (TIMER turned it): each phase, the
    view, what it drew (its PNG ``name`` with the phase filled in) and the players' symbols' labels."""
    clocks = Clocks()
    view = picked_and_lettered(tmp_path, clocks, players, lang)
    labels = {view._short_label(view.game.symbol_of(p)) for p in range(len(players))}
    for phase in ("letter", "writing"):
        if phase == "writing":
            press(view, Button.TIMER)
            frames(view, clocks, 1.0)
        yield phase, view, texts_drawn(view, monkeypatch, name.format(phase=phase)), labels


@pytest.mark.parametrize("players", [SETUP["players"], TYPICAL_SIX, EIGHT_LETTERS])
def test_who_has_which_symbol_is_read_from_the_far_end(tmp_path: Path, monkeypatch, players: list[str]) -> None:
    """The names and symbols beside the letter's buttons and beside the hourglass were BODY; a player looks there
    for their symbol from their seat. FAR now, each name clear of its symbol, above the word limits."""
    screens = symbol_screens(tmp_path, monkeypatch, players, "de", f"symbols_{{phase}}_{len(players)}_{players[0]}")
    for phase, view, drawn, labels in screens:
        names = [(size, r) for s, size, r in drawn if s in players and r.top > 100]
        symbols = [(size, r) for s, size, r in drawn if s in labels and r.top > 100]
        assert len(names) == len(symbols) == len(players)
        assert all(size >= theme.FAR for size, _ in names + symbols)
        rects = [r for _, r in names + symbols]
        assert not any(a.colliderect(b) for i, a in enumerate(rects) for b in rects[i + 1:])
        buttons = list(view._targets().values())
        limits = [r for s, _, r in drawn if s.startswith("Eigenes Symbol")]
        sand = [HOURGLASS_RECT] if phase == "writing" else []
        assert not any(r.colliderect(o) for r in rects for o in buttons + limits + sand)
        assert all(r.right <= 795 and r.bottom <= 436 for r in rects)


def test_who_took_a_die_is_read_from_the_far_end(tmp_path: Path, monkeypatch) -> None:
    """The name under a taken die was BODY."""
    clocks = Clocks()
    view, _ = make(tmp_path, clocks, {"action": "setup", "players": TYPICAL_SIX, "start": 0, "seed": 3})
    press(view, Button.ROLL)
    press(view, Button.SELECT)  # Anna takes die 1
    press(view, Button.SELECT)  # Ben the next free one
    drawn = texts_drawn(view, monkeypatch, "pick_owners")
    owners = [(size, r) for s, size, r in drawn if s in ("Anna", "Ben") and r.top > 100]
    assert len(owners) == 2 and all(size >= theme.FAR for size, _ in owners)
    dice = view.dice.die_rects()
    numbers = [r for s, _, r in drawn if s in {str(i) for i in range(1, 7)} and r.top > 100]
    assert not any(r.colliderect(o) for _, r in owners for o in dice + numbers)


@pytest.mark.parametrize(("players", "variant"), [
    (["Anna", "Großvater Johannes", "Benedikt", "Lotte", "Marlene", "Großmutter Hildegard"], "letter-first"),
    (["Großvater Johannes", "Oma Lise", "Großmutter Hildegard", "Maximilian", "Tante Friederike", "Onkel B."], 0),
    (["Großvater Johannes", "Mia"], 0),
])
def test_a_long_name_under_the_die_it_took_is_read_from_the_far_end(tmp_path: Path, monkeypatch,
                                                                    players: list[str], variant: Any) -> None:
    """"Großvater J." stood at 24 under the die he took, "Großmutter H." at 18: each name had its die's width. Where
    one needs more, every other die's name stands a line lower, each as wide as two dice: at FAR, clear of the dice,
    their numbers, each other, the word limits and the letter (variant 1 turns it before the dice are picked)."""
    clocks = Clocks()
    view, _ = make(tmp_path, clocks, {"action": "setup", "players": players, "start": 0, "seed": 3,
                                      "variant": variant})
    if variant:
        press(view, Button.SELECT)  # the letter first
    press(view, Button.ROLL)
    for _ in players[:-1]:
        press(view, Button.SELECT)
    assert view.game.phase is Phase.PICK
    drawn = texts_drawn(view, monkeypatch, f"owners_{len(players)}_{variant or 'standard'}")
    said = {theme.short_name(name) for name in players} | set(players)
    owners = [(s, size, r) for s, size, r in drawn if s in said and r.top > 200]
    assert len(owners) == len(players) - 1 and all(size >= theme.FAR for _, size, _ in owners), owners
    rects = [r for *_, r in owners]
    numbers = [r for s, _, r in drawn if s in {str(i) for i in range(1, 7)} and r.top > 200]
    limits = [r for s, _, r in drawn if s.startswith("Eigenes Symbol") or s.startswith("Andere Symbole")]
    letter = [r for s, _, r in drawn if s == view.game.round.letter and r.top > 200]
    assert len(numbers) == 6 and len(limits) == 2 and len(letter) == (1 if variant else 0)
    assert not any(a.colliderect(b) for i, a in enumerate(rects) for b in rects[i + 1:])
    assert not any(r.colliderect(o) for r in rects for o in view.dice.die_rects() + numbers + limits + letter)
    assert all(0 <= r.left and r.right <= 800 for r in rects)


def one_round_to_three(tmp_path: Path, clocks: Clocks, players: list[str], words: list[int],
                       lang: str) -> HasteWorteMode:
    """A game of goal 3 played in one round with buttons alone, each player scoring ``words``: it is over."""
    view, _ = make(tmp_path, clocks, {"action": "setup", "players": players, "seed": 3, "goal": 3}, lang=lang)
    press(view, Button.ROLL)
    for _ in players:
        press(view, Button.SELECT)
    press(view, Button.SELECT)  # the letter
    press(view, Button.NEXT)  # from "turn the hourglass" to "time's up"
    press(view, Button.SELECT)
    for n in words:
        for _ in range(n):
            press(view, Button.NEXT)
        press(view, Button.SELECT)
    assert view.game.finished
    return view


@pytest.mark.parametrize(("players", "lang"), [(TYPICAL_SIX, "de"), (EIGHT_LETTERS, "en"), (["Anna", "Ben"], "de")])
def test_the_ranking_at_the_end_is_read_from_the_far_end(tmp_path: Path, monkeypatch, players: list[str],
                                                        lang: str) -> None:
    """Five or six players' ranking was BODY. LARGE now for six too: the rows close up under the title and stay
    above the hint line."""
    view = one_round_to_three(tmp_path, Clocks(), players, [3] + [1] * (len(players) - 1), lang)
    drawn = texts_drawn(view, monkeypatch, f"over_{len(players)}_{lang}")
    title = next(r for s, _, r in drawn if s == ("Gewonnen!" if lang == "de" else "Winner!"))
    rows = [(s, size, r) for s, size, r in drawn if r.top >= title.bottom]
    names = [(size, r) for s, size, r in rows if s in players]
    scores = [(size, r) for s, size, r in rows if s.isdigit()]
    assert len(names) == len(scores) == len(players)
    assert all(size >= theme.LARGE for size, _ in names + scores)
    rects = [r for _, r in names + scores]
    assert not any(a.colliderect(b) for i, a in enumerate(rects) for b in rects[i + 1:])
    assert all(r.bottom <= 440 and 0 <= r.left and r.right <= 800 for r in rects)


@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_status_line_and_the_time_left_stay_read_from_the_far_end(tmp_path: Path, monkeypatch, lang: str) -> None:
    """Unchanged by the relayout, kept so: whose turn (the status line) at LARGE for six eight-letter names in every
    phase, the seconds under the hourglass HUGE, "time's up" at FAR or larger; the status line clear of the table."""
    clocks = Clocks()
    view = picked_and_lettered(tmp_path, clocks, EIGHT_LETTERS, lang)
    seen: list[tuple[Phase, int, pygame.Rect, list[pygame.Rect]]] = []

    def look(name: str) -> list[tuple[str, int, pygame.Rect]]:
        drawn = texts_drawn(view, monkeypatch, name)
        size, rect = next((size, r) for s, size, r in drawn if s == view.game.prompt().text(lang))
        seen.append((view.game.phase, size, rect, [r for _, _, r in bar_texts(view, drawn)]))
        return drawn

    look("status_letter")
    press(view, Button.TIMER)
    frames(view, clocks, 1.0)
    seconds = [size for s, size, _ in look("status_writing") if s.endswith(" s") and s[:-2].isdigit()]
    assert seconds == [theme.HUGE]
    press(view, Button.TIMER, long=True)  # stopped: its word under the hourglass
    cancelled = [size for s, size, _ in look("status_stopped") if s == t("haste.screen.cancelled", lang)]
    assert cancelled and cancelled[0] >= theme.FAR
    press(view, Button.NEXT)
    press(view, Button.SELECT)  # time's up
    look("status_reading")
    assert [phase for phase, *_ in seen] == [Phase.LETTER, Phase.WRITING, Phase.WRITING, Phase.READING]
    for _, size, rect, bar in seen:
        assert size >= theme.LARGE and not any(rect.colliderect(r) for r in bar)



# -- long names at two metres, and the banners at the reading and at the end (the re-audit through the App)

LONG_SIX = ["Anna", "Großvater Johannes", "Benedikt", "Lotte", "Marlene", "Jonas"]


def finished(tmp_path: Path, clocks: Clocks, players: list[str], lang: str = "de") -> HasteWorteMode:
    """A game of goal 3 in which every player scored 3: everybody wins."""
    view = one_round_to_three(tmp_path, clocks, players, [3] * len(players), lang)
    assert view.game.winners == list(range(len(players)))
    return view


def whole(name: str, lines: list[str]) -> bool:
    """``name`` or its short form stands whole on one of ``lines`` (not "Großvater" on one, "J." on the next)."""
    return any(name in line or theme.short_name(name) in line for line in lines)


@pytest.mark.parametrize(("players", "lang"), [(["Großvater Johannes", "Mia"], "de"), (LONG_SIX, "de"),
                                               (LONG_SIX, "en")])
def test_the_winners_line_at_the_end_is_read_from_the_far_end(tmp_path: Path, monkeypatch, players: list[str],
                                                              lang: str) -> None:
    """"Gewonnen: Großvater Johannes und Mia mit 15 Kristallen" shrank to 30, six winners to 18. At FAR now, above
    the title: the names shortened ("Großvater J.") where that keeps one line, else on two lines, no name broken."""
    view = finished(tmp_path, Clocks(), players, lang)
    drawn = texts_drawn(view, monkeypatch, f"over_winners_{len(players)}_{lang}")
    title = next(r for s, _, r in drawn if s == t("haste.screen.winner", lang))
    status = [(s, size, r) for s, size, r in drawn if 66 <= r.top < title.top]
    assert 1 <= len(status) <= 2 and all(size >= theme.FAR for _, size, _ in status)
    lines = [s for s, _, _ in status]
    assert all(whole(name, lines) for name in players)
    rects = [r for _, _, r in status]
    others = [r for s, _, r in drawn if (s, _, r) not in status]
    assert not any(r.colliderect(o) for r in rects for o in others)
    assert not any(a.colliderect(b) for i, a in enumerate(rects) for b in rects[i + 1:])
    assert all(15 <= r.left and r.right <= 785 for r in rects)


@pytest.mark.parametrize("lang", ["de", "en"])
def test_a_long_name_beside_its_symbol_is_read_from_the_far_end(tmp_path: Path, monkeypatch, lang: str) -> None:
    """"Großvater J." stood at 22-26 beside "Obst & Gemüse" at FAR: the names get their short form's width at FAR
    before the symbols take the rest, which stay clear of the name and of the letter."""
    players = ["Großvater Johannes", "Mia"]
    screens = symbol_screens(tmp_path, monkeypatch, players, lang, f"long_symbols_{{phase}}_{lang}")
    for _, view, drawn, labels in screens:
        names = [(s, size, r) for s, size, r in drawn if r.top > 100 and s in [*players, "Großvater J."]]
        symbols = [(size, r) for s, size, r in drawn if s in labels and r.top > 100]
        assert sorted(s for s, _, _ in names) == sorted(["Großvater J.", "Mia"]) and len(symbols) == 2
        assert all(size >= theme.FAR for _, size, _ in names)
        rects = [r for *_, r in names] + [r for _, r in symbols]
        letter = [r for s, _, r in drawn if s == view.game.round.letter]
        assert not any(a.colliderect(b) for i, a in enumerate(rects) for b in rects[i + 1:] + letter)
        assert all(r.right <= 795 for r in rects)


@pytest.mark.parametrize(("players", "lang"), [(["Großvater Johannes", "Mia"], "de"), (["Großvater Johannes", "Mia"],
                                                                                      "en"), (LONG_SIX, "de")])
def test_the_reader_is_named_from_the_far_end_under_the_banner(tmp_path: Path, monkeypatch, players: list[str],
                                                               lang: str) -> None:
    """A banner said while the counts are up stands at the top over "Großvater Johannes liest vor" (the counts
    are what it spares): the question under the symbol named the reader at BODY only. It is FAR now, on two lines
    where it needs them, the name whole, between the symbol (and its meaning) and the counts."""
    clocks = Clocks()
    view = picked_and_lettered(tmp_path, clocks, players, lang)
    press(view, Button.SELECT)  # the letter
    press(view, Button.NEXT)  # from "turn the hourglass" to "time's up"
    press(view, Button.SELECT)
    assert view.game.phase is Phase.READING
    counts = view._count_rects()
    for _ in players:
        reader = view.game.players[view.game.current_reader]
        drawn = texts_drawn(view, monkeypatch, f"reader_{len(players)}_{lang}_{reader[:3]}")
        meaning = view._meaning(view.game.symbol_of(view.game.current_reader))  # under the symbol, at BODY
        question = [(s, size, r) for s, size, r in drawn
                    if 196 <= r.top and r.bottom <= counts[0].top and s != meaning]
        assert 1 <= len(question) <= 2 and all(size >= theme.FAR for _, size, _ in question)
        assert whole(reader, [s for s, _, _ in question])
        assert all(20 <= r.left and r.right <= 780 for *_, r in question)
        press(view, Button.SELECT)


def test_the_ranking_is_what_a_banner_spares_at_the_end(tmp_path: Path, monkeypatch) -> None:
    """Six players' ranking: a banner at the bottom stood over its last rows (in_view was empty at the end); it
    stands at the top now, over the crystal table that says the same."""
    from companion.views import banner

    view = finished(tmp_path, Clocks(), LONG_SIX)
    drawn = texts_drawn(view, monkeypatch, "over_spared")
    title = next(r for s, _, r in drawn if s == "Gewonnen!")
    rows = [r for s, _, r in drawn if r.top >= title.bottom]
    assert len(rows) == 12
    (ranking,) = view.in_view
    assert all(ranking.contains(r) for r in rows)
    said = "Jonas bekommt 3 Kristalle und erreicht mit 15 auch das Ziel!"
    rect, _, _ = banner.place((800, 480), said, None, 1.0, (), view.in_view)
    assert not rect.colliderect(ranking)


# -- a quick table's last round through the App: what the family sees and hears, on a fake clock

QUICK_SIX = ["Anna", "Ben", "Carla", "Dana", "Emil", "Frieda"]


def quick_round(tmp_path: Path, lang: str, gap: float, *, rounds_before: int = 4, words: int | list[int] = 3,
                roll_after: float | None = None) -> tuple[list[tuple[float, str]], list[float], GameSession]:
    """Six players, ``rounds_before`` rounds of 3 crystals each played; then, in the app, time's up and the six
    readers enter ``words`` (Anna reads first) with the buttons, ``gap`` seconds apart (after four rounds all six
    reach 15 with 3: a tie); ROLL pressed ``roll_after`` seconds after the last count. The banners as they start
    (seconds after time's up, text), when each count was entered, and the session. Speech is a silent WAV as long
    as espeak-ng would take (13 characters a second)."""
    import numpy as np
    from test_announcer import RecordingAudio

    from companion import sounds
    from companion.app import GAME_ENTRIES, App
    from companion.config import Config
    from companion.display import Display
    from companion.games_ui import register_all
    from companion.speech import Speech

    register_all()
    players = QUICK_SIX
    counts = words if isinstance(words, list) else [words] * len(players)
    clock = {"now": 100.0}
    cfg = Config()
    cfg.language, cfg.players = lang, players

    def synth(text: str, _: str) -> bytes:
        return sounds.wav_bytes(np.zeros(int(len(text) * 0.075 * sounds.SAMPLE_RATE), dtype=np.int16))

    announcer = Announcer(lang, audio=RecordingAudio(), speech=Speech(synth, threaded=False))
    app = App(cfg, state_dir=tmp_path, display=Display((800, 480), fullscreen=False), use_camera=False,
              announcer=announcer, clock=lambda: clock["now"], wall_clock=lambda: WALL0 + clock["now"])
    session = GameSession.new(HasteWorte, {"action": "setup", "players": players, "seed": 7}, app.journal,
                              **app._session_kw())
    dice = ["car", "animals", "fruit", "water", "toys", "cities"]
    round_start = [{"action": "roll", "dice": dice}, *({"action": "pick", "die": d} for d in range(1, 7)),
                   {"action": "letter"}]
    for _ in range(rounds_before):
        for action in [*round_start, {"action": "timer_expired", "at": 0.0}, *[{"action": "score", "words": 3}] * 6]:
            assert session.apply(action), session.error
    for action in round_start:
        assert session.apply(action), session.error
    app._enter(GAME_ENTRIES["haste-worte"], session)
    announcer.clear(keep_essential=False)
    assert session.apply({"action": "timer_expired", "at": WALL0 + clock["now"]}), session.error
    start, shown, scores = clock["now"], [], []

    def frames(seconds: float) -> None:
        end = clock["now"] + seconds
        while clock["now"] < end - 1e-9:
            clock["now"] = round(clock["now"] + 0.05, 6)
            app.frame(0.05, [])
            if announcer.current is not None and (not shown or shown[-1][2] is not announcer.current):
                shown.append((clock["now"] - start, announcer.current.text, announcer.current))

    try:
        frames(6.0)  # "time's up" is heard
        for _ in players:
            for _ in range(counts[session.engine.current_reader]):  # type: ignore[index]
                app.on_button(ButtonEvent(Button.NEXT))
            app.on_button(ButtonEvent(Button.SELECT))
            scores.append(clock["now"] - start)
            frames(gap)
        if roll_after is not None:
            frames(roll_after - gap)
            app.on_button(ButtonEvent(Button.ROLL))  # the built-in tray throws
            assert session.engine.phase is Phase.PICK
        frames(60.0)
        assert announcer.idle
    finally:
        app.close()
    return [(at, text) for at, text, _ in shown], scores, session


@pytest.mark.parametrize("lang", ["de", "en"])
def test_a_quick_tables_last_round_hears_the_winners_soon_and_each_reacher_once(tmp_path: Path, lang: str) -> None:
    """Six readers entered 2 s apart, all reaching 15: "X hat auch 15 Kristalle erreicht!" came for each of the
    four after the first, each essential, one after the other behind the table: the winners were heard 25 s after
    the last score. The first reacher's sentence (the round is the last) is kept; a later one's is their score's,
    and goes stale as any score's: the winners come some 16-18 s after the last score, not 28."""
    shown, scores, session = quick_round(tmp_path, lang, gap=2.0)
    assert session.engine.finished and session.engine.winners == list(range(6))
    winners = Announcement("haste.winners", {"players": QUICK_SIX, "crystals": 15}).text(lang)
    said = [text for _, text in shown]
    assert said[-1] == winners, said
    first = t("haste.goal_reached", lang, player="Emil", goal=15)  # Emil reads first: the round is the last
    assert said.count(first) == 1
    between = said[said.index(first) + 1:-1]  # the five others' scores: those heard before they went stale
    assert len(between) <= 4, said  # not all five: one chime a burst fits a fourth in before the others go stale
    assert all(sum(text.startswith(name) for text in between) <= 1 for name in ["Anna", "Ben", "Carla", "Dana"]), said
    assert shown[-1][0] - scores[-1] < 17.0, shown  # 28 s before: the winners said behind four "too"s (18 s with a
    # chime before every sentence, 15 s with one a burst)


@pytest.mark.parametrize("lang", ["de", "en"])
def test_a_quick_table_is_not_called_to_do_what_it_has_done(tmp_path: Path, lang: str) -> None:
    """A round's counts entered 4 s apart: the round's last reader was called to read ("Frieda, lies deine Wörter
    vor.") 3 s after her count was in, and her score's sentence came after the call. A call to read is taken back
    once that reader's count is in, the round's call to roll once the dice are thrown; the scores are heard in
    order, each within a few seconds of its entry."""
    shown, scores, session = quick_round(tmp_path, lang, gap=4.0, rounds_before=0, words=[2, 1, 3, 0, 2, 1],
                                         roll_after=6.0)
    called = {name: t("haste.read_turn", lang, player=name) for name in QUICK_SIX}
    for name, entered in zip(QUICK_SIX, scores, strict=True):
        assert all(at < entered for at, text in shown if text == called[name]), (name, shown)  # never after it
    counts = [2, 1, 3, 0, 2, 1]
    # the round's last count and its call to roll are one sentence: said apart, the call waited behind the count and
    # the roll took it back (heard in 2 rounds of 10)
    # each count after the call to the next reader, in one sentence: said apart, the call waited 3-5 s behind it
    said = [Announcement("haste.call_then", {"call": {"key": "haste.read_short", "params": {"player": after}},
                                             "count": {"key": "haste.count_none" if n == 0 else "haste.count",
                                                       "params": {"player": name, "n": n, "total": n}}}).text(lang)
            for name, after, n in zip(QUICK_SIX[:-1], QUICK_SIX[1:], counts, strict=False)]
    last = Announcement("haste.count_then", {"count": {"key": "haste.count", "params": {
        "player": "Frieda", "n": 1, "total": 1}}, "call": {"key": "haste.new_round", "params": {
            "number": 2, "player": "Ben"}}}).text(lang)
    assert last == {"de": "Frieda: ein Kristall, jetzt 1. Runde 2: Ben würfelt.",
                    "en": "Frieda: one crystal, now 1. Round 2: Ben rolls."}[lang]
    said.append(last)
    heard = [(at, text) for at, text in shown if text in said]
    assert [text for _, text in heard] == said, shown  # each, in reading order
    assert all(at - entered < 4.0 for (at, _), entered in zip(heard, scores, strict=True)), shown
    roll = scores[-1] + 6.0
    assert all(at < roll for at, text in shown if text == last), shown


def score_sentence(player: str, n: int, lang: str) -> str:
    """What the table hears when ``player`` scores ``n`` crystals in the first round."""
    key = {0: "haste.scored_none", 1: "haste.scored_one"}.get(n, "haste.scored")
    return Announcement(key, {"player": player, "n": n, "total": n}).text(lang)


@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_letter_turned_first_stands_with_its_caption_above_the_hint_bar(tmp_path: Path, lang: str) -> None:
    """Variant 1's letter, turned before the roll: its caption ("Buchstabe") stood in the hint bar's band
    (y 444-464), where a longer hint would have run into it."""
    from drawn_texts import recording_texts

    from companion.i18n import t

    clocks = Clocks()
    view, _ = make(tmp_path, clocks, {**SETUP, "variant": "letter-first"}, lang=lang)
    press(view, Button.TIMER)  # the letter alone
    assert view.game.phase is Phase.ROLL and view.game.round.letter
    with pytest.MonkeyPatch.context() as patch, recording_texts(patch) as drawn:
        view.draw(pygame.Surface((800, 480)))
    caption = [rect for s, _, rect in drawn if s == t("haste.screen.letter", lang)]
    assert caption and all(rect.bottom <= 440 for rect in caption), caption


def sand_in_app(tmp_path: Path, players: list[str], lang: str, size: tuple[int, int] = (800, 480)):
    """The app with its announcer for ``players`` in ``lang``: the dice picked, TIMER turning the letter and the
    sand together (their banners queued); the app's clock in ``clock["now"]``."""
    from test_games_in_app import start_game

    from companion.app import App
    from companion.config import Config
    from companion.display import Display

    clock = {"now": 100.0}
    cfg = Config()
    cfg.players, cfg.language = list(players), lang
    app = App(cfg, state_dir=tmp_path, display=Display(size, fullscreen=False), use_camera=False,
              announcer=Announcer(lang), clock=lambda: clock["now"],
              wall_clock=lambda: 1.9e9 + clock["now"] - 100.0)
    start_game(app, "haste-worte")
    app.session.apply({"action": "roll", "dice": ["car", "animals", "fruit", "water", "toys", "cities"]})
    for die in range(1, len(players) + 1):
        assert app.session.apply({"action": "pick", "die": die}), app.session.error
    app.announcer.clear()  # the round's and the picks' sentences: said before the letter
    app.on_button(ButtonEvent(Button.TIMER))
    assert app.game_mode.hourglass_rect is not None
    return app, clock


def sand_essentials(app, monkeypatch) -> list[pygame.Rect]:
    """What the table reads while the sand runs, as drawn: the status line, the letter, who has which symbol, the
    word limits (every line right of the hourglass, under the crystal table)."""
    drawn: list[pygame.Rect] = []
    text = theme.text

    def spy(surface: pygame.Surface, s: str, pos: tuple[int, int], size: int = theme.BODY, *a, **k) -> pygame.Rect:
        rect = text(surface, s, pos, size, *a, **k)
        drawn.append(rect)
        return rect

    monkeypatch.setattr(theme, "text", spy)
    app.game_mode.draw(pygame.Surface((800, 480)))
    monkeypatch.undo()
    status = app.game_mode._status_rect()
    return [r for r in drawn if r.top >= status.top and r.left >= HOURGLASS_RECT.right and r.bottom < 440]


@pytest.mark.parametrize(("players", "lang"), [(["Anna", "Ben", "Carla", "David"], "de"),
                                               (["Anna", "Ben", "Carla", "David"], "en"),
                                               (["Großvater Johannes", "Mia"], "de"), (LONG_NAMES, "en"),
                                               (TYPICAL_SIX, "de")])
def test_while_the_sand_runs_a_banner_stands_at_the_foot_clear_of_the_status_line(tmp_path: Path, monkeypatch,
                                                                                    players: list[str],
                                                                                    lang: str) -> None:
    """The letter's, the sand's and the last seconds' banners stood at the top over the status line and cut it in
    half ("Schreibt Wörter mit D" under "Der Buchstabe ist D!"): the foot beside the hourglass was free (its buttons
    come back only when the sand stops). Each banner now stands clear of every line the table reads there, the
    hourglass kept clear as before."""
    app, clock = sand_in_app(tmp_path, players, lang)
    keep = sand_essentials(app, monkeypatch)
    seen = []
    for k in range(40):  # each queued sentence in turn, then the last seconds' call
        app.frame(0.03, [])
        if not app.game_mode.clock_left():
            break  # the sand ran out: the reading's banners are not beside the hourglass
        if app._banner is not None and (not seen or seen[-1][0] != app.announcer.current.text):
            seen.append((app.announcer.current.text, app._banner))
            pygame.image.save(app.display.canvas, str(OUT / f"haste_sand_banner_{len(players)}_{lang}_{len(seen)}.png"))
        clock["now"] += 2.0 if k != 20 else 42.0
    assert len(seen) >= 3, seen  # the letter, the sand turned, the last seconds
    status, symbols = app.game_mode._status_rect(), app.game_mode._symbols_rect(SAND_SYMBOLS)
    for said, rect in seen:
        assert not rect.colliderect(HOURGLASS_RECT) and not rect.colliderect(status), said
        assert not rect.colliderect(symbols) and not rect.colliderect(SAND_LETTER), said
        # no line cut in half: the word limits at the foot are under a banner there whole (it says them)
        assert all(rect.contains(r) or not rect.colliderect(r) for r in keep), (said, rect, keep)


@pytest.mark.parametrize("lang", ["de", "en"])
def test_timer_pressed_while_the_sand_runs_says_so_clear_of_the_symbols(tmp_path: Path, monkeypatch,
                                                                        lang: str) -> None:
    """TIMER pressed while the sand runs says a held press stops it: under the letter's banner at the top the words
    stood over the first rows of who has which symbol (and the letter) for four seconds. Now clear of them."""
    app, clock = sand_in_app(tmp_path, ["Anna", "Ben", "Carla", "David"], lang)
    app.frame(0.03, [])
    assert app._banner is not None  # the letter's banner
    keep = sand_essentials(app, monkeypatch)
    app.on_button(ButtonEvent(Button.TIMER))
    app.frame(0.03, [])
    assert app._strip is not None and app._strip[1] == app.notice
    pygame.image.save(app.display.canvas, str(OUT / f"haste_sand_timer_notice_{lang}.png"))
    strip = app._strip[0]
    assert not any(strip.colliderect(r) for r in keep), (strip, keep)
    assert not strip.colliderect(HOURGLASS_RECT) and not strip.colliderect(app._banner)


@pytest.mark.parametrize(("players", "lang"), [(SETUP["players"], "de"), (SETUP["players"], "en"),
                                               (LONG_SIX, "de"), (LONG_SIX, "en")])
def test_while_words_are_read_a_banner_at_the_top_cuts_not_the_status_line(tmp_path: Path, monkeypatch,
                                                                           players: list[str], lang: str) -> None:
    """The counts are what a banner spares while words are read out, so "Die Zeit ist um! Anna liest zuerst vor."
    and each score stand at the top: over the status line at 70 the banner cut "Anna liest vor" in half. The line
    stands under a one-line banner and its shadow now; a longer banner hides it whole (it names the reader too)."""
    from companion.app import MENU_CORNER
    from companion.views import banner

    clocks = Clocks()
    view = picked_and_lettered(tmp_path, clocks, players, lang)
    press(view, Button.SELECT)  # the letter
    press(view, Button.NEXT)  # from "turn the hourglass" to "time's up"
    press(view, Button.SELECT)
    one_line = 0
    for k in range(len(players)):
        name = view.game.players[view.game.current_reader]
        drawn = texts_drawn(view, monkeypatch, f"reading_status_{len(players)}_{lang}_{k}")
        (status,) = [r for s, _, r in drawn if s in view._status_lines()[0]]
        assert not any(status.colliderect(r) for _, _, r in bar_texts(view, drawn) if r is not status)
        said = [t("haste.times_up", lang, player=name)] if k == 0 else []
        said.append(t("haste.scored", lang, player=name, n=2, total=2))
        for sentence in said:
            rect, _, lines = banner.place((800, 480), sentence, view.hourglass_rect, 1.0, [MENU_CORNER],
                                          view.in_view)
            covered = rect.union(rect.move(4, 4))  # its shadow, 4 rows lower
            assert rect.top < status.top and not rect.colliderect(view.in_view[0]), sentence
            assert covered.bottom <= status.top or covered.bottom >= status.bottom, (sentence, rect, status)
            one_line += len(lines) == 1
        press(view, Button.SELECT)
    assert one_line  # a short sentence: the status line whole under it


@pytest.mark.parametrize(("players", "lang"), [(LONG_SIX, "en"), (LONG_SIX, "de"), (SETUP["players"], "de")])
def test_at_the_end_a_banner_at_the_top_cuts_not_the_winners_line(tmp_path: Path, monkeypatch, players: list[str],
                                                                   lang: str) -> None:
    """The ranking is what a banner spares at the end: the last score's banner stood at the top over the first of
    the winners' two lines, cutting it in half. The line stands under a one-line banner and its shadow now."""
    from companion.app import MENU_CORNER
    from companion.views import banner

    view = finished(tmp_path, Clocks(), players, lang)
    drawn = texts_drawn(view, monkeypatch, f"over_status_{len(players)}_{lang}")
    status = [r for s, _, r in drawn if s in view._status_lines()[0]]
    assert status and not any(r.colliderect(o) for r in status for _, _, o in bar_texts(view, drawn))
    rect, _, lines = banner.place((800, 480), t("haste.scored", lang, player=players[-1], n=2, total=3), None, 1.0,
                                  [MENU_CORNER], view.in_view)
    covered = rect.union(rect.move(4, 4))  # its shadow, 4 rows lower
    assert not any(rect.colliderect(r) for r in view.in_view)
    first, *second = status
    assert covered.bottom <= first.top or covered.bottom >= first.bottom, (rect, status)
    # a banner of two lines hides the first whole; its shadow's 4 rows at most graze the second's top
    assert all(covered.bottom <= r.top + 4 for r in second), (rect, status)


def reading_of(tmp_path: Path, lang: str, **setup: Any) -> HasteWorteMode:
    """Three players at the reading: Anna took the car, Ben the water, Carla the animals; Anna reads first."""
    view, _ = make(tmp_path, Clocks(), {"action": "setup", "players": ["Anna", "Ben", "Carla"], "start": 0, "seed": 3,
                                        **setup}, lang=lang)
    to_reading(view, ["car", "water", "animals", "toys", "sports", "fruit"])
    assert view.game.phase is Phase.READING and view.game.current_reader == 0
    return view


def to_reading(view: HasteWorteMode, dice: list[str]) -> None:
    """``dice`` rolled, each player picking the highlighted one, the letter drawn and the time declared up."""
    view.session.apply({"action": "roll", "dice": dice})
    for _ in range(len(view.game.players)):
        press(view, Button.SELECT)
    press(view, Button.SELECT)  # the letter
    press(view, Button.NEXT)  # from "turn the hourglass" to "time's up"
    press(view, Button.SELECT)


@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_symbols_meaning_stands_under_it_while_its_words_are_read(tmp_path: Path, monkeypatch, lang: str) -> None:
    """The rulebook's meanings ("Autoteile und Automarken") were in the catalogs only: a family read "Auto" and
    argued whether "Reifen" counts. Under the reader's symbol now, at BODY, above whose words are asked for and the
    counts, none of them overlapping; not where it says no more than the symbol ("Tiere") nor where the table
    configured its own meaning (that is the label already)."""
    view = reading_of(tmp_path, lang)
    meaning = t("haste.meaning.car", lang)
    for reader, shown in ((0, meaning), (1, t("haste.meaning.water", lang)), (2, None)):
        assert view.game.current_reader == reader
        drawn = texts_drawn(view, monkeypatch, f"meaning_{reader}_{lang}")
        label = next(r for s, _, r in drawn if s == view._short_label(view.game.symbol_of(reader)))
        under = [(s, size, r) for s, size, r in drawn if s in {t(f"haste.meaning.{k}", lang) for k in
                                                               ("car", "water", "animals")} and r.top > label.top]
        if shown is None:
            assert not under
            press(view, Button.SELECT)
            continue
        assert [s for s, _, _ in under] == [shown]
        _, size, rect = under[0]
        assert size >= theme.BODY and label.bottom <= rect.top and 0 <= rect.left and rect.right <= 800
        others = [r for s, _, r in drawn if s != shown]
        assert not any(rect.colliderect(o) for o in others), shown
        assert all(rect.bottom <= c.top for c in view._count_rects())
        press(view, Button.SELECT)
    configured = reading_of(tmp_path / "own", lang, meanings={"car": "Fahrzeuge"})
    drawn = texts_drawn(configured, monkeypatch, f"meaning_own_{lang}")
    assert "Fahrzeuge" in [s for s, _, _ in drawn] and meaning not in [s for s, _, _ in drawn]


@pytest.mark.parametrize(("players", "lang"), [(["Großmutter H.", "Mia"], "de"), (["Anna", "Ben"], "en"),
                                               (TYPICAL_SIX, "de"), (LONG_NAMES, "en")])
def test_between_the_letter_and_the_sand_its_banner_spares_the_status_line_and_the_buttons(
        tmp_path: Path, monkeypatch, players: list[str], lang: str) -> None:
    """The letter shown, the hourglass not yet turned: "Der Buchstabe ist L wie Ludwig!" stood at the top over the
    status line and cut "Schreibt Wörter mit L" in half (only the two buttons were kept clear). It stands between
    who has which symbol and the buttons now, clear of them, the status line, the letter and the hourglass."""
    from test_games_in_app import start_game

    from companion.app import App
    from companion.config import Config
    from companion.display import Display

    cfg = Config()
    cfg.players, cfg.language = list(players), lang
    app = App(cfg, state_dir=tmp_path, display=Display((800, 480), fullscreen=False), use_camera=False,
              announcer=Announcer(lang), clock=lambda: 100.0, wall_clock=lambda: 1.9e9)
    start_game(app, "haste-worte")
    app.session.apply({"action": "roll", "dice": ["car", "animals", "fruit", "water", "toys", "cities"]})
    for die in range(1, len(players) + 1):
        assert app.session.apply({"action": "pick", "die": die}), app.session.error
    app.announcer.clear()  # the round's and the picks' sentences: said before the letter
    assert app.session.apply({"action": "letter"})
    app.frame(0.03, [])
    view = app.game_mode
    assert view.game.phase is Phase.WRITING and not view._sand_running()
    assert app._banner is not None and view.game.round.letter in app.announcer.current.text
    OUT.mkdir(exist_ok=True)
    pygame.image.save(app.display.canvas, str(OUT / f"haste_letter_banner_{len(players)}_{lang}.png"))
    keep = [view._status_rect(), view._symbols_rect(SAND_SYMBOLS), SAND_LETTER, HOURGLASS_RECT,
            *view._button_rects()]
    assert not any(app._banner.colliderect(r) for r in keep), (app._banner, keep)


@pytest.mark.parametrize("lang", ["de", "en"])
@pytest.mark.parametrize("players", [["Großmutter H.", "Ben"], ["Großmutter H.", "Maximilian", "Özlem", "Anna", "Ben",
                                                                 "Carla"]])
def test_the_rounds_banner_covers_the_word_limits_whole_or_not_at_all(tmp_path: Path, monkeypatch, lang,
                                                                       players) -> None:
    """Picking a die, "Runde 1: X würfelt." stood across "Andere Symbole: zusammen höchstens 6", its top half above
    the banner. It stands over both limit lines whole now, clear of the dice, their numbers and the buttons."""
    from companion.app import MENU_CORNER
    from companion.views import banner

    setup = {"action": "setup", "players": players, "start": 0, "seed": 9}
    view, _ = make(tmp_path, Clocks(), setup, lang=lang)
    press(view, Button.ROLL)
    assert view.game.phase is Phase.PICK
    drawn = texts_drawn(view, monkeypatch, f"pick_banner_{lang}{len(players)}")
    limits = [r for s, _, r in drawn if s in (t("haste.screen.limit_own", lang, n=3),
                                               t("haste.screen.limit_others", lang, n=view.game.others_limit))]
    numbers = [r for s, _, r in drawn if s in map(str, range(1, 7)) and r.top > 200]
    assert len(limits) == 2 and len(numbers) == 6
    said = t("haste.new_round", lang, number=1, player=players[0])
    rect, _, _ = banner.place((800, 480), said, None, 1.0, [MENU_CORNER], view.in_view, view.banner_room)
    for line in limits:
        assert rect.contains(line) or not rect.colliderect(line), (rect, line)
    assert not any(rect.colliderect(r) for r in [*view.in_view, *numbers, *view.dice.die_rects()])


@pytest.mark.parametrize("players", [["Anne-Marie", "Jean-Baptiste", "Großmutter Hildegard"],
                                     ["Anne-Marie", "Jean-Baptiste", "Ben", "Carla"], ["Anne-Marie", "Ben"],
                                     ["Anne-Marie", "Ben", "Carla", "Dirk", "Eva"],
                                     ["Mia", "Anna", "Jean-Baptiste", "Marie-Luise", "Großmutter Hildegard", "Lotte"],
                                     ["Lotte", "Eva", "Jean-Baptiste", "Großmutter Hildegard", "Anne-Marie",
                                      "Oma Lise"]])
def test_a_double_first_name_stands_whole_in_the_crystal_table(tmp_path: Path, monkeypatch, players) -> None:
    """"Anne-M." and "Jean-B." stood in the crystal table where Noch X-Mal!'s cards showed "Anne-Marie" whole at FAR
    (a cell sized for the short form): a double first name whole where the row holds it, every name at one size,
    FAR or larger. Six players' too, where each row holds its names but the columns, one above the other, would
    not ("Marie-L." under "Mia", "Jean-B." above "Lotte")."""
    view = picked_and_lettered(tmp_path, Clocks(), players)
    bar = bar_texts(view, texts_drawn(view, monkeypatch, f"bar_double_{len(players)}"))
    names = [(s, size) for s, size, _ in bar if not s.isdigit()]
    assert len(names) == len(players)
    assert [s for s, _ in names if "-" in s] == [p for p in players if "-" in p]
    assert len({size for _, size in names}) == 1 and names[0][1] >= theme.FAR, names
    rects = [r for _, _, r in bar]
    assert not any(a.colliderect(b) for i, a in enumerate(rects) for b in rects[i + 1:])


@pytest.mark.parametrize("lang", ["de", "en"])
def test_no_meaning_line_that_only_repeats_the_symbols_name(tmp_path: Path, monkeypatch, lang: str) -> None:
    """"Obst & Gemüse" had "Obst und Gemüse" under it while its words were read ("Fruit & veg": "Fruits and
    vegetables"; "Sport": "Sportarten"): a second line saying the same, read as something to tell apart. The
    meanings that say more stay ("Autoteile und Automarken" under "Auto")."""
    from companion.games.haste_worte import SYMBOLS

    view, _ = make(tmp_path, Clocks(), {"action": "setup", "players": ["Anna", "Ben"], "start": 0, "seed": 3},
                   lang=lang)
    says_more = {"dishes", "car", "water", "toys", "clothing", "sweets"}
    shown = {symbol for symbol in SYMBOLS if view._meaning(symbol) is not None}
    assert shown == says_more, shown
    to_reading(view, ["fruit", "sports", "car", "water", "toys", "cities"])
    assert view.game.symbol_of(view.game.current_reader) == "fruit"
    drawn = [s for s, _, _ in texts_drawn(view, monkeypatch, f"meaning_fruit_{lang}")]
    assert t("haste.symbol.fruit", lang) in drawn and t("haste.meaning.fruit", lang) not in drawn


@pytest.mark.parametrize(("players", "lang"), [(["Anna", "Ben", "Carla", "David"], "de"),
                                               (["Anna", "Ben", "Carla", "David"], "en"),
                                               (["Großvater Johannes", "Mia"], "de"), (LONG_NAMES, "en"),
                                               (TYPICAL_SIX, "de")])
def test_the_stopped_sands_banner_stands_clear_of_what_the_table_reads(tmp_path: Path, players: list[str],
                                                                        lang: str) -> None:
    """Stopped with a long press, "Sanduhr angehalten, 82 Sekunden waren noch übrig. Neu starten: Taste UHR." stood
    at the top in three lines over the crystal table, the status line, the letter and who has which symbol (no room
    beside the hourglass held it; the buttons and the hint line say how to turn it again). Said shorter, it stands
    in the band over the word limits, clear of them all, at FAR or larger."""
    app, clock = sand_in_app(tmp_path, players, lang)
    for _ in range(40):  # the letter's and the sand's sentences said
        app.frame(0.03, [])
        if app.announcer.current is None and not app.announcer.queued:
            break
        clock["now"] += 0.5
    app.on_button(ButtonEvent(Button.TIMER, Press.LONG))
    app.frame(0.03, [])
    view = app.game_mode
    assert not view._sand_running() and app.announcer.current.announcement.key == "haste.timer_cancelled"
    pygame.image.save(app.display.canvas, str(OUT / f"haste_stopped_banner_{len(players)}_{lang}.png"))
    rect = app._banner
    keep = [view._status_rect(), view._symbols_rect(SAND_SYMBOLS), SAND_LETTER, HOURGLASS_RECT,
            *view._button_rects(), pygame.Rect(0, 0, 800, TOP_H)]
    assert rect is not None and not any(rect.colliderect(r) for r in keep), (rect, keep)
    assert view.banner_room.contains(rect)


@pytest.mark.parametrize("lang", ["de", "en"])
@pytest.mark.parametrize("players", [["Anna", "Ben"], TYPICAL_SIX])
def test_the_word_limits_are_read_from_the_far_end(tmp_path: Path, monkeypatch, lang: str,
                                                   players: list[str]) -> None:
    """How many words each may write ("Andere Symbole: zusammen höchstens 6") stood at BODY while dice were picked
    and beside the hourglass: a reminder every player keeps to, read from the buttons' seat only. At FAR now, both
    lines at one size, clear of the dice, the buttons, who has which symbol, the letter and the hint line."""
    clocks = Clocks()
    view, _ = make(tmp_path, clocks, {"action": "setup", "players": players, "start": 0, "seed": 3}, lang=lang)
    limits = (t("haste.screen.limit_own", lang, n=3), t("haste.screen.limit_others", lang, n=view.game.others_limit))
    press(view, Button.ROLL)
    press(view, Button.SELECT)  # a die taken: its owner's name under it
    screens = {"pick": lambda: None, "picked": lambda: [press(view, Button.SELECT) for _ in players[1:]],
               "stopped": lambda: press(view, Button.SELECT),  # the letter: the hourglass not yet turned
               "running": lambda: (press(view, Button.TIMER), frames(view, clocks, 5.0))}
    for name, step in screens.items():
        step()
        drawn = texts_drawn(view, monkeypatch, f"limits_{name}_{len(players)}_{lang}")
        lines = [(size, r) for s, size, r in drawn if s in limits]
        if name == "picked":
            assert view.game.phase is Phase.LETTER and not lines  # the letter's screen shows who has which symbol
            continue
        assert len(lines) == 2 and {size for size, _ in lines} == {theme.FAR}, (name, lines)
        others = [r for s, _, r in drawn if s not in limits]
        keep = [*others, *view._targets().values(), *view.dice.die_rects()] if name == "pick" else \
            [*others, *view._targets().values(), SAND_LETTER, view._symbols_rect(SAND_SYMBOLS), HOURGLASS_RECT]
        for _, r in lines:
            assert r.right <= 800 and r.bottom <= 440 and not any(r.colliderect(k) for k in keep), (name, r)


@pytest.mark.parametrize("lang", ["de", "en"])
@pytest.mark.parametrize("players", [["Großmutter Helga", "Großmutter Hilde", "Maximilian", "Anna"],
                                     ["Großmutter Helga", "Großmutter Hilde", "Großvater Johannes", "Anna", "Ben",
                                      "Maximiliane"]])
def test_two_grandmothers_are_told_apart_in_the_crystal_table_and_the_symbols(tmp_path: Path, monkeypatch,
                                                                              players: list[str], lang: str) -> None:
    """"Großmutter Helga" and "Großmutter Hilde" were both "Großmutter H." in the crystal table and beside their
    symbols: each is shortened to a form only hers ("G. Helga"), the others as before ("Großvater J.")."""
    clocks = Clocks()
    view = picked_and_lettered(tmp_path, clocks, players, lang)
    drawn = texts_drawn(view, monkeypatch, f"grandmothers_{len(players)}_{lang}")
    names = [s for s, _, _ in bar_texts(view, drawn) if not s.isdigit()]
    assert len(set(names)) == len(players) and "G. Helga" in names and "G. Hilde" in names, names
    assert "Großmutter H." not in [s for s, _, _ in drawn]
    if "Großvater Johannes" in players:  # six in two rows: a name no other collides with, shortened as before
        assert "Großvater J." in names, names
    symbols = [s for s, _, r in drawn if r.top > 100 and s in ("G. Helga", "G. Hilde", "Großmutter Helga",
                                                                "Großmutter Hilde")]
    assert len(symbols) == 2 and len(set(symbols)) == 2, symbols


@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_timer_hint_stays_where_the_finger_turned_the_sand(tmp_path: Path, lang: str) -> None:
    """In the letter phase TIMER stood second (x 205-420); once the sand ran it moved first and "UNDO menu" stood
    where it had been: a child tapping the same spot again opened the pause menu. TIMER keeps its place."""
    clocks = Clocks()
    view, _ = make(tmp_path, clocks, SETUP, lang=lang)
    press(view, Button.ROLL)
    for _ in range(4):
        press(view, Button.SELECT)
    frames(view, clocks, 1.0)  # the letter phase: TIMER turns the token and the sand together
    assert view.game.phase is Phase.LETTER
    shot(view, f"timer_hint_before_{lang}")

    def timer_rect() -> pygame.Rect:
        return next(rect for rect, event in view.hint_taps if event == ButtonEvent(Button.TIMER))

    before = timer_rect()
    view.on_button(tapped_hint(view.hint_taps, before.center))  # the finger turns the sand
    assert view.game.hourglass.is_running(view.wall_now())
    frames(view, clocks, 0.5)
    shot(view, f"timer_hint_after_{lang}")
    after = timer_rect()
    same = before.clip(after)
    assert same.w * same.h >= 0.8 * min(before.w * before.h, after.w * after.h)
    assert tapped_hint(view.hint_taps, before.center) == ButtonEvent(Button.TIMER)


@pytest.mark.parametrize("lang", ["de", "en"])
@pytest.mark.parametrize("players", [
    ["Großmutter Helga", "Großvater Johannes", "Maximilian-Alexander", "Anne-Marie Schulz", "Eva-Maria", "Oma Lise"],
    ["Maximilian-Alexander", "Anna-Sophie", "Großvater Jürgen", "Zoé", "Carla", "Ben"]])
def test_a_long_symbol_beside_the_sand_is_not_squeezed_by_six_long_names(tmp_path: Path, monkeypatch, players,
                                                                         lang: str) -> None:
    """Six long names took the column of who has which symbol beside the sand at FAR: "Obst & Gemüse" stood at
    26 (about 22 tall) beside "Großmutter H.". The row's name in a form of its own that leaves the symbol FAR ("G.
    Helga"); where none does ("Maximilian-A."), name and symbol at one size as large as both fit: neither below
    30, and apart."""
    view, _ = make(tmp_path, Clocks(), {"action": "setup", "players": players, "start": 0, "seed": 3}, lang=lang)
    view.session.apply({"action": "roll", "dice": ["fruit", "toys", "clothing", "cities", "sweets", "water"]})
    for _ in players:
        press(view, Button.SELECT)
    press(view, Button.SELECT)  # the letter
    press(view, Button.TIMER)
    assert view._sand_running()
    drawn = texts_drawn(view, monkeypatch, f"sand_long_symbol_{players[0][:3]}_{lang}")
    rows = [(s, size, r) for s, size, r in drawn if SAND_SYMBOLS.collidepoint(r.midleft)]
    assert len(rows) == 2 * len(players), rows
    for (name, name_at, name_r), (label, label_at, label_r) in zip(rows[::2], rows[1::2], strict=True):
        assert min(name_at, label_at) >= theme.FAR - 2, (name, name_at, label, label_at)
        assert name_r.right < label_r.left and label_r.right <= SAND_SYMBOLS.right + 2, (name_r, label_r)
    first = rows[1]
    assert first[0] == t("haste.symbol.fruit", lang)
    if players[0] == "Großmutter Helga":  # a form of her own leaves the symbol FAR
        assert first[1] == theme.FAR and rows[0][1] == theme.FAR, rows[:2]
