"""The Fritzo screen driven like the table drives it: NEXT/SELECT alone, taps, the camera's start roll, the clock.

Screens are rendered at 800x480 into out/ (fritzo_*.png) to be looked at.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import numpy as np
import pygame
import pytest
from drawn_texts import recording_texts

from companion.announcer import Announcer
from companion.games.fritzo import Fritzo, Phase
from companion.games.fritzo.cubeset import default_construction
from companion.games.fritzo.rules import buildable_order
from companion.journal import Journal
from companion.session import GameSession
from companion.views import theme
from companion.views.fritzo_view import FritzoMode
from companion.views.widgets import tapped_hint
from hardware.events import Button, ButtonEvent, Press
from vision.types import DieReading, TrayReading

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
OUT = Path(__file__).resolve().parents[1] / "out"
D = default_construction()


class Clock:
    def __init__(self) -> None:
        self.mono = 100.0
        self.wall = 1_800_000_000.0

    def step(self, seconds: float) -> None:
        self.mono += seconds
        self.wall += seconds


def make(tmp_path: Path, setup: dict[str, Any], actions: list[dict] = (), lang: str = "de"):
    clock = Clock()
    announcer = Announcer(lang)
    session = GameSession.new(Fritzo, {"action": "setup", **setup}, Journal(tmp_path / "journal"), lang=lang,
                              announce=announcer.announce, wall_clock=lambda: clock.wall, announcer=announcer)
    for a in actions:
        assert session.apply(a), session.error
    view = FritzoMode(session)
    view.update(0.0, clock.mono)
    return view, session, clock


def press(view: FritzoMode, button: Button) -> None:
    view.on_button(ButtonEvent(button, Press.SHORT))


def shot(view: FritzoMode, name: str) -> pygame.Surface:
    surface = pygame.Surface((800, 480))
    view.draw(surface)
    OUT.mkdir(exist_ok=True)
    pygame.image.save(surface, str(OUT / f"fritzo_{name}.png"))
    return surface


def pro_actions(n: int) -> list[dict]:
    out = []
    for cell in buildable_order(set(D.professional))[:n]:
        cid, rot = D.professional[cell]
        out.append({"action": "place", "cube": cid, "cell": list(cell), "rotation": rot})
    return out


def test_place_a_cube_with_select_alone(tmp_path):
    view, session, _ = make(tmp_path, {"mode": "challenge", "players": ["Anna"]})
    shot(view, "empty_menu")
    press(view, Button.SELECT)  # "place"
    assert view.step == "cube"
    press(view, Button.NEXT)
    press(view, Button.SELECT)  # the second cube left
    assert view.step == "cell" and view.cube == "2"
    press(view, Button.SELECT)  # the only place on an empty table
    assert view.step == "turn"
    press(view, Button.NEXT)
    press(view, Button.SELECT)
    assert list(session.engine.state.building) == [(0, 0, 0)]
    assert session.engine.state.building[(0, 0, 0)].cube == "2" and view.step == "menu"


def test_place_by_touch_only_offers_legal_choices(tmp_path):
    view, session, _ = make(tmp_path, {"mode": "professional", "players": ["Anna"]}, pro_actions(6))
    view.on_tap(view.panel_rects()[0].center)  # place
    shot(view, "pick_cube")
    cid = D.professional[buildable_order(set(D.professional))[6]][0]
    values = view._step_values()
    view.on_tap(view.panel_rects()[values.index(cid)].center)
    assert view.step == "cell"
    legal = {p.cell for p in session.engine.legal_placements(cid)}
    assert set(view._step_values()) == legal
    shot(view, "pick_cell")
    target = buildable_order(set(D.professional))[6]
    view.level = target[2]
    view.on_tap(view.cell_rects()[(target[0], target[1])].center)
    assert view.step == "turn" and view.cell == target
    shot(view, "pick_turn")
    turns = view._step_values()
    assert turns and all(p.cell == target for p in turns)
    view.on_tap(view.panel_rects()[0].center)
    assert len(session.engine.state.building) == 7


def test_a_cube_that_fits_nowhere_offers_passing(tmp_path):
    from test_fritzo_engine import strategy_set

    cubes = strategy_set()
    view, session, _ = make(tmp_path, {"mode": "strategy", "players": ["Anna", "Ben"], "starter": "Anna",
                                       "cubes": cubes.to_json()},
                            [{"action": "place", "cube": "A", "cell": [0, 0, 0], "rotation": 0}])
    no_red = next(c.id for c in cubes.cubes if "red" not in c.faces)
    press(view, Button.SELECT)  # place
    values = view._step_values()
    view.on_tap(view.panel_rects()[values.index(no_red)].center)
    assert view.step == "nofit" and view.note
    shot(view, "nofit")
    press(view, Button.SELECT)  # "does not fit": pass, one minus point
    assert session.engine.state.scores["Ben"] == -1 and view.step == "menu"


def test_passing_a_cube_that_fits_lights_its_places_instead_of_a_refusal(tmp_path):
    """"Does not fit" chosen for a cube that fits: the engine refused it naming a place as "0/-1/1", which the grid
    does not show. The screen goes on to placing it, its places lit, and says why."""
    from test_fritzo_engine import strategy_set

    cubes = strategy_set()
    view, session, _ = make(tmp_path, {"mode": "strategy", "players": ["Anna", "Ben"], "starter": "Anna",
                                       "cubes": cubes.to_json()},
                            [{"action": "place", "cube": "A", "cell": [0, 0, 0], "rotation": 0}], lang="en")
    fits = next(c.id for c in cubes.cubes if c.id != "A" and session.engine.legal_placements(c.id))
    items = [v for v, _ in view.menu_items()]
    view.on_tap(view.panel_rects()[items.index("pass")].center)
    values = view._step_values()
    view.on_tap(view.panel_rects()[values.index(fits)].center)
    assert session.error is None and session.engine.state.scores["Ben"] == 0
    assert view.step == "cell" and view.note == f"Cube {fits} still fits: pick a place with a plus."
    assert set(view._step_values()) == {p.cell for p in session.engine.legal_placements(fits)}
    shot(view, "pass_fits")
    press(view, Button.SELECT)
    press(view, Button.SELECT)  # placed after all
    assert len(session.engine.state.building) == 2


def test_putting_back_a_cube_that_fits_lights_its_places_and_one_that_does_not_is_put_back(tmp_path):
    """Team: "Kann ein Spieler seinen Cube nicht anlegen, muss er ihn wieder zurück in den Vorrat legen". "Put
    back" took a cube that fits, and the turn went on; it now goes on to placing it, as Strategy's pass does."""
    view, session, _ = make(tmp_path, {"mode": "team", "target": "professional", "players": ["Anna", "Ben"],
                                       "start": "Anna"}, pro_actions(7), lang="en")
    left = session.engine.cubes_left()
    blocked = next(c for c in left if not session.engine.legal_placements(c))

    def put_back(cube: str) -> None:
        items = [v for v, _ in view.menu_items()]
        view.on_tap(view.panel_rects()[items.index("return")].center)
        values = view._step_values()
        view.on_tap(view.panel_rects()[values.index(cube)].center)

    assert session.engine.current_player == "Ben"
    put_back(blocked)
    assert session.actions[-1]["action"] == "return" and session.engine.current_player == "Anna"
    fits = next(c for c in session.engine.cubes_left() if session.engine.legal_placements(c))
    put_back(fits)
    assert session.actions[-1]["action"] == "return" and session.engine.current_player == "Anna"
    assert view.step == "cell" and view.note == f"Cube {fits} still fits: pick a place with a plus."
    press(view, Button.SELECT)
    press(view, Button.SELECT)  # placed after all, by Anna
    assert session.actions[-1]["action"] == "place" and session.engine.current_player == "Ben"


def test_hint_pressed_again_while_it_shows_is_not_taken(tmp_path):
    """"Hint" pressed again while its star and words stand searched for the same and reported the press taken: the
    App's answer to a press nothing takes (two low notes, the hint bar lit) did not sound. Words gone, it shows them
    again (taken)."""
    view, session, _ = make(tmp_path, {"mode": "professional", "players": ["Anna"]}, pro_actions(5))
    view.index = [v for v, _ in view.menu_items()].index("hint")
    assert view.on_button(ButtonEvent(Button.SELECT, Press.SHORT)) is True
    hint, note = view.hint, view.note
    assert hint is not None and note
    assert view.on_button(ButtonEvent(Button.SELECT, Press.SHORT)) is False
    assert (view.hint, view.note, view.step) == (hint, note, "menu")
    view.note = None  # its words gone (a cube picked and put back): shown again
    assert view.on_button(ButtonEvent(Button.SELECT, Press.SHORT)) is True and view.note == note
    view.note = "Da passt Cube 1 nicht"  # other words in their place: the hint's are gone, shown again
    assert view.on_button(ButtonEvent(Button.SELECT, Press.SHORT)) is True and view.note == note


def test_hint_marks_the_next_cube(tmp_path):
    view, session, _ = make(tmp_path, {"mode": "professional", "players": ["Anna"]}, pro_actions(5))
    items = [v for v, _ in view.menu_items()]
    view.on_tap(view.panel_rects()[items.index("hint")].center)
    assert view.hint is not None and view.note and "Cube" in view.note
    assert view.note.endswith(f"Ebene {view.hint.cell[2] + 1}, mit Stern markiert")  # not x/y the grid lacks
    assert view.hint.cube in session.engine.cubes_left()
    shot(view, "hint")
    # placing it: the hint's place has a star and the free places a plus, shapes of their own (green frames, a
    # yellow inset and the yellow highlight were one colour to a player without red and green)
    view._choose("place")
    view._choose(view.hint.cube)
    pixels = pygame.surfarray.array3d(shot(view, "hint_cells")).astype(int)
    rects = view.cell_rects()
    hint = rects[view.hint.cell[:2]]
    corner = pixels[hint.x + 5:hint.x + 24, hint.y + 5:hint.y + 24].reshape(-1, 3)
    assert (np.abs(corner - theme.ACCENT).sum(axis=1) < 30).sum() > 40
    free = next(r for c, r in rects.items() if (*c, view.level) in view._step_values() and c != view.hint.cell[:2])
    centre = pixels[free.centerx - 1:free.centerx + 2, free.centery - 1:free.centery + 2].reshape(-1, 3)
    assert (np.abs(centre - theme.GOOD).sum(axis=1) < 30).all()


def take_out(view: FritzoMode, cube: str) -> None:
    """Strategy: name the cube taken out of the box for the start roll (tapped among the 27)."""
    assert view.step == "outcube"
    view.on_tap(view.panel_rects()[view._step_values().index(cube)].center)


def test_start_roll_from_the_camera_and_by_hand(tmp_path):
    view, session, _ = make(tmp_path, {"mode": "strategy", "players": ["Anna", "Ben"]})
    take_out(view, "5")
    shot(view, "start_roll")
    view.on_dice(TrayReading((DieReading("red", 0.9, (0, 0, 10, 10)),)))  # Anna rolls her own red
    assert session.engine.state.phase is Phase.START_ROLL and session.engine.current_player == "Ben"
    taught: list[tuple[int, str]] = []
    session.learn = lambda index, face: taught.append((index, face))
    session.latest_reading = TrayReading((DieReading(None, 0.2, (0, 0, 10, 10)),))
    view.on_dice(session.latest_reading)
    assert session.error is None and len(session.actions) == 3  # asked, not refused in a strip over the colours
    items = [v for v, _ in view.menu_items()]
    view.on_tap(view.panel_rects()[items.index("roll:orange")].center)  # Ben rolls Anna's orange by hand
    assert session.engine.state.phase is Phase.BUILDING and session.engine.current_player == "Ben"
    assert taught == [(0, "orange")]  # what the camera could not read is an example now


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_start_roll_read_as_two_cubes_or_none_is_not_taken_as_a_roll(tmp_path, lang):
    """The start roll is one cube. With a cube left in the tray from before, the first of the two read was taken
    as the roll (which one is the reader's order, not the table's); with none read, ROLL did nothing and said
    nothing. Both now say what to do, and the roll waits."""
    view, session, _ = make(tmp_path, {"mode": "strategy", "players": ["Anna", "Ben"]}, lang=lang)
    take_out(view, "5")
    two = TrayReading((DieReading("red", 0.9, (0, 0, 10, 10)), DieReading("orange", 0.9, (40, 0, 50, 10))))
    view.on_dice(two)
    assert session.engine.state.phase is Phase.START_ROLL and session.engine.current_player == "Anna"
    assert "2" in session.error and ("tray" in session.error if lang == "en" else "Schale" in session.error)
    session.error = None
    view.on_dice(TrayReading(()))
    assert "0" in session.error and session.engine.state.phase is Phase.START_ROLL
    view.on_dice(TrayReading((DieReading("red", 0.9, (0, 0, 10, 10)),)))  # the other cube taken out: Anna's red
    assert session.engine.current_player == "Ben"


@pytest.mark.parametrize("seen", [0, 2])
def test_select_after_a_refused_start_roll_puts_the_refusal_away_rather_than_entering_a_colour(tmp_path, seen):
    """A refused start roll leaves the highlight on the first colour: the SELECT a player gives the red strip as
    "got it" entered that colour as the roll. It puts the strip away; the next SELECT chooses, as always."""
    view, session, _ = make(tmp_path, {"mode": "level-one", "players": ["Anna", "Ben"]}, lang="en")
    view.on_dice(TrayReading(tuple(DieReading("red", 0.9, (40 * i, 0, 40 * i + 10, 10)) for i in range(seen))))
    assert session.error and ("SELECT", "got it") in view.hints()
    press(view, Button.SELECT)
    assert session.error is None and session.engine.current_player == "Anna"
    assert ("SELECT", "choose") in view.hints()
    press(view, Button.SELECT)  # now the colour lit (red, not blue), by hand: Anna's roll missed
    assert session.engine.current_player == "Ben"


def test_the_start_roll_names_roll_in_the_hint_bar(tmp_path):
    """"Ben: roll the cube", and ROLL reads it (or rolls it without a camera): the hint bar said NEXT, SELECT and
    TIMER only, so a table new to the companion looked for how to roll. Once the game is on, ROLL does nothing."""
    view, session, _ = make(tmp_path, {"mode": "level-one", "players": ["Anna", "Ben"]}, lang="en")
    assert view.hints()[0] == ("ROLL", "roll")
    assert all(button != "TIMER" for button, _ in view.hints())  # the clock starts once the roll decided
    shot(view, "start_roll_hints")
    view.on_dice(TrayReading((DieReading("blue", 0.9, (0, 0, 10, 10)),)))  # Anna rolls blue: she starts
    assert session.engine.state.phase is not Phase.START_ROLL
    assert all(button != "ROLL" for button, _ in view.hints())
    assert any(button == "TIMER" for button, _ in view.hints())


def test_the_colours_offered_for_an_unsure_start_roll_start_on_the_readers_guess(tmp_path):
    """The camera was not sure of the rolled cube but found a colour near enough ("blue"): the colours on offer
    start there, so a cube that shows it takes one press, and the answer is taught. Without a guess they start
    on the first colour, as before."""
    view, session, _ = make(tmp_path, {"mode": "strategy", "players": ["Anna", "Ben"]})
    take_out(view, "5")
    taught: list[tuple[int, str]] = []
    session.learn = lambda index, face: taught.append((index, face))
    session.latest_reading = TrayReading((DieReading(None, 0.1, (0, 0, 10, 10)),))
    view.on_dice(session.latest_reading)
    assert view.index == 0
    session.latest_reading = TrayReading((DieReading(None, 0.3, (0, 0, 10, 10), "blue"),))
    view.on_dice(session.latest_reading)  # read again, a little surer
    items = [v for v, _ in view.menu_items()]
    assert items.index("roll:blue") > 0 and view.index == items.index("roll:blue")
    press(view, Button.SELECT)  # the cube shows the guess: one press
    assert taught == [(0, "blue")] and session.engine.state.phase is Phase.BUILDING


def test_level_one_timer_runs_out(tmp_path, monkeypatch):
    view, session, clock = make(tmp_path, {"mode": "level-one", "players": ["Anna", "Ben"], "starter": "Anna",
                                           "minutes": 1})
    view.on_button(ButtonEvent(Button.TIMER, Press.LONG))  # held, as a child holds it: the clock starts (it did
    # nothing, unsaid)
    assert session.engine.state.hourglass.started_at == pytest.approx(clock.wall)
    clock.step(5)
    view.update(1 / 30, clock.mono)
    assert not view.on_button(ButtonEvent(Button.TIMER)) and view.timer_not_now == "Die Uhr läuft schon: noch 0:55."
    for cell in [(0, 0, 0), (1, 0, 0)]:
        cid, rot = D.professional[cell]
        session.apply({"action": "place", "player": "Anna", "cube": cid, "cell": list(cell), "rotation": rot})
    clock.step(40)
    view.update(1 / 30, clock.mono)
    shot(view, "level_one")
    assert not session.engine.finished
    clock.step(25)
    view.update(1 / 30, clock.mono)
    assert session.engine.finished and session.engine.state.result in ("won", "draw")
    from companion.views import theme

    drawn: list[str] = []
    text = theme.text
    monkeypatch.setattr(theme, "text", lambda surface, s, *a, **k: (drawn.append(s), text(surface, s, *a, **k))[1])
    shot(view, "level_one_over")
    winners = session.engine.state.winners
    assert winners and f"Gewonnen: {', '.join(winners)}" in drawn  # a name alone did not say what it was for


def test_an_undone_times_up_stays_undone_live_and_after_a_restart(tmp_path):
    """Undoing "time's up" (to take back a placement made before it, say) was stamped again by the next frame, so
    no UNDO reached past it; after a restart the same. The clock now stands at nought with the two ways on that an
    interrupted clock offers: start it again, or declare time's up."""
    view, session, clock = make(tmp_path, {"mode": "level-one", "players": ["Anna", "Ben"], "starter": "Anna",
                                           "minutes": 1})
    press(view, Button.TIMER)
    cid, rot = D.professional[(0, 0, 0)]
    assert session.apply({"action": "place", "player": "Anna", "cube": cid, "cell": [0, 0, 0], "rotation": rot})
    clock.step(61)
    view.update(1 / 30, clock.mono)
    assert session.engine.finished and session.actions[-1]["action"] == "time_up"
    assert session.undo()
    for _ in range(3):
        clock.step(1 / 30)
        view.update(1 / 30, clock.mono)
    assert not session.engine.finished and session.actions[-1]["action"] == "place"
    assert [v for v, _ in view.menu_items()][-2:] == ["timer", "time_up"]
    assert ("UHR", "Zeit") in view.hints()
    assert session.undo() and session.actions[-1]["action"] == "start"  # the placement taken back

    journal = Journal(tmp_path / "journal")  # a power cut: the journal's last undo took the placement back
    again = GameSession.resume(Fritzo, journal.load(), journal, lang="de", wall_clock=lambda: clock.wall)
    view = FritzoMode(again)
    view.update(0.0, clock.mono)
    assert not again.engine.finished and again.actions[-1]["action"] == "start"
    press(view, Button.TIMER)  # started again: a fresh full run
    sand = again.engine.state.hourglass
    assert sand.started_at == pytest.approx(clock.wall) and 59 <= sand.remaining(view.wall_now()) <= 60
    clock.step(61)
    view.update(1 / 30, clock.mono)
    assert again.engine.finished  # that run's end is stamped as any


def test_strategy_screen_with_scores(tmp_path):
    from test_fritzo_engine import greedy_game

    setup = {"mode": "strategy", "players": ["Anna", "Ben"], "starter": "Anna", "excluded": "27"}
    actions = greedy_game({"action": "setup", **setup})[:12]
    view, session, _ = make(tmp_path, setup, actions)
    view.level = 1
    surface = shot(view, "strategy")
    assert surface.get_at(view.cell_rects()[next(iter(view.cell_rects()))].center)  # drew something
    press(view, Button.SELECT)
    press(view, Button.SELECT)
    assert view.step in ("cell", "nofit")
    shot(view, "strategy_pick")


def test_prev_moves_the_highlight_to_the_last_cube(tmp_path):
    view, session, _ = make(tmp_path, {"mode": "challenge", "players": ["Anna"]})
    press(view, Button.SELECT)  # "place"
    cubes = view._step_values()
    press(view, Button.PREV)
    press(view, Button.SELECT)
    assert view.step == "cell" and view.cube == cubes[-1] != cubes[0]


def test_a_game_the_cube_won_says_why_under_game_over(tmp_path, monkeypatch):
    """Team mode, nothing fits any more: "Game over" alone left the table asking what beat it."""
    from test_fritzo_engine import lonely_red_set

    view, session, _ = make(tmp_path, {"mode": "team", "players": ["Anna", "Ben"], "target": "challenge",
                                       "cubes": lonely_red_set().to_json()},
                            [{"action": "place", "cube": "R", "cell": [0, 0, 0], "rotation": 0}])
    assert session.engine.finished and session.engine.ending
    said = pygame.surfarray.array3d(shot(view, "over_cube_won")).copy()
    monkeypatch.setattr(Fritzo, "ending", property(lambda self: []))
    bare = pygame.surfarray.array3d(shot(view, "over_bare"))
    assert (said != bare).any()


def test_a_tie_won_says_how_it_was_broken_under_the_winners_name(tmp_path, monkeypatch):
    """Level One at -9 : -9: "Won: Ben" alone beside two equal scores left the table asking why."""
    import companion.views.fritzo_view as fritzo_view
    from companion.views import theme

    view, session, _ = make(tmp_path, {"mode": "level-one", "players": ["Anna", "Ben"], "starter": "Anna"},
                            [{"action": "done", "player": "Ben"}, {"action": "done", "player": "Anna"}])
    drawn: dict[str, pygame.Rect] = {}
    text, wrapped = theme.text, fritzo_view.draw_wrapped
    monkeypatch.setattr(theme, "text", lambda surface, line, *a, **k: drawn.setdefault(
        line, text(surface, line, *a, **k)))
    monkeypatch.setattr(fritzo_view, "draw_wrapped", lambda surface, line, rect, *a, **k: (
        drawn.setdefault(line, rect), wrapped(surface, line, rect, *a, **k))[1])
    shot(view, "over_tie_won")
    won, why = drawn["Gewonnen: Ben"], drawn["Gleichstand mit -9 Punkten: Ben war zuerst fertig und gewinnt."]
    assert why.top >= won.bottom  # under the name, not over it


def test_a_long_note_goes_on_two_lines_at_a_readable_size(tmp_path):
    """The hint's note was fitted to one line of the panel: 12 px, unreadable across the table."""
    import numpy as np

    from companion.views import theme
    from companion.views.fritzo_view import PANEL

    view, _, _ = make(tmp_path, {"mode": "professional", "players": ["Anna"]}, pro_actions(5))
    view.note = "Lösung gefunden: Cube 22 auf Ebene 1, gelb markiert"
    pixels = pygame.surfarray.array3d(shot(view, "long_note"))[PANEL.x:PANEL.right, PANEL.y:PANEL.bottom]
    rows = np.nonzero(np.all(pixels == np.array(theme.WARN, np.uint8), axis=2).any(axis=0))[0]
    assert rows.size and rows.max() - rows.min() > 2 * 16  # two lines, each taller than 16 px type's ink


def test_the_timer_started_before_the_screens_first_frame_runs_its_full_time(tmp_path):
    """As in Haste Worte: TIMER in the frame that made the screen took the monotonic clock for 0."""
    view, session, clock = make(tmp_path, {"mode": "challenge", "players": ["Anna"], "minutes": 3})
    fresh = FritzoMode(session)
    press(fresh, Button.TIMER)
    clock.step(1.0)
    fresh.update(0.03, clock.mono)
    sand = session.engine.state.hourglass
    assert sand.is_running(fresh.wall_now()) and 178.5 <= sand.remaining(fresh.wall_now()) <= 179.5


def test_remove_is_offered_once_there_is_a_cube_to_take_off(tmp_path):
    """"Remove a cube" with nothing built opened an empty list."""
    view, session, _ = make(tmp_path, {"mode": "beginner", "players": ["Anna"]})
    assert "remove" not in [v for v, _ in view.menu_items()]
    first = session.engine.state.cubeset.cubes[0].id
    session.apply({"action": "place", "cube": first, "cell": [0, 0, 0], "rotation": 0})
    view.update(0.03, 0.0)
    assert "remove" in [v for v, _ in view.menu_items()]


def test_level_one_top_bar_counts_the_gaps_from_the_start(tmp_path, monkeypatch):
    """After the start roll the top bar said "Anna: 0", and her first cube then showed as a fall to -8."""
    from companion.views import theme

    view, session, _ = make(tmp_path, {"mode": "level-one", "players": ["Anna", "Ben"]},
                            [{"action": "roll", "dice": ["blue"]}])
    drawn: list[str] = []
    text = theme.text
    monkeypatch.setattr(theme, "text", lambda surface, s, *a, **k: (drawn.append(s), text(surface, s, *a, **k))[1])
    shot(view, "level_one_start")
    assert "Anna: -9" in drawn and "Ben: -9" in drawn


def test_the_agreed_playing_time_is_shown_before_the_clock_runs_and_said_when_it_starts(tmp_path, monkeypatch):
    """The setup asks how long Level One lasts: the screen shows the agreed time dimmed until TIMER, and TIMER says
    it. A game saved before the question (no "minutes") still plays its ten minutes."""
    from companion.session import rebuild
    from companion.views import theme

    view, session, _ = make(tmp_path, {"mode": "level-one", "players": ["Anna", "Ben"], "minutes": 15},
                            [{"action": "roll", "dice": ["blue"]}])
    drawn: list[tuple[str, Any]] = []
    text = theme.text
    monkeypatch.setattr(theme, "text", lambda surface, s, pos, size, colour, *a, **k: (
        drawn.append((s, colour)), text(surface, s, pos, size, colour, *a, **k))[1])
    shot(view, "level_one_agreed_time")
    assert ("15:00", theme.MUTED) in drawn
    heard: list[str] = []
    session._announce = lambda a: heard.append(a.text("de"))
    assert view.clock_left() is None  # the pause menu has no clock to count down
    press(view, Button.TIMER)
    assert heard == ["Die Zeit läuft: 15 Minuten."]
    assert view.clock_left() == pytest.approx(900, abs=1)
    old = rebuild(Fritzo, [{"action": "setup", "mode": "level-one", "players": ["Anna", "Ben"]},
                           {"action": "roll", "dice": ["blue"]}, {"action": "start", "at": 5.0}])
    assert old.state.minutes == 10 and old.state.hourglass.duration == 600


def test_a_restart_with_the_wall_clock_behind_the_start_interrupts_the_clock(tmp_path, monkeypatch):
    """A Pi without a real-time clock, back from a power cut before network time: the wall clock read before the
    clock's start stamp, and the screen showed 10:00 standing still until it caught up, saying nothing. As in
    Haste Worte the clock is now interrupted and said so, and the table starts it again or declares time's up."""
    from companion.views import theme

    view, session, clock = make(tmp_path, {"mode": "level-one", "players": ["Anna", "Ben"], "starter": "Anna"})
    press(view, Button.TIMER)
    journal = Journal(tmp_path / "journal")
    clock.wall -= 86_400  # booted without the time
    clock.mono = 3.0
    heard: list[str] = []
    back = GameSession.resume(Fritzo, journal.load(), journal, lang="de", announce=lambda a: heard.append(a.key),
                              wall_clock=lambda: clock.wall)
    view = FritzoMode(back)
    view.update(0.0, clock.mono)
    sand = back.engine.state.hourglass
    assert sand.interrupted and heard == ["fritzo.timer.interrupted"] and back.actions[-1]["action"] == (
        "timer_interrupted")
    drawn: list[str] = []
    text = theme.text
    monkeypatch.setattr(theme, "text", lambda surface, s, *a, **k: (drawn.append(s), text(surface, s, *a, **k))[1])
    shot(view, "level_one_interrupted")
    assert "unterbrochen" in drawn and "10:00" not in drawn
    items = [v for v, _ in view.menu_items()]
    assert items[-2:] == ["timer", "time_up"]
    press(view, Button.TIMER)  # started again: a fresh full run on the clock as it reads now
    sand = back.engine.state.hourglass
    assert not sand.interrupted and sand.started_at == pytest.approx(clock.wall)
    assert 599 <= sand.remaining(view.wall_now()) <= 600
    assert back.undo() and back.engine.state.hourglass.interrupted  # or the table says the time is up: it ends
    view.update(0.03, clock.mono + 0.03)
    items = [v for v, _ in view.menu_items()]
    view.on_tap(view.panel_rects()[items.index("time_up")].center)
    assert back.engine.finished and back.engine.state.result in ("won", "draw")


def test_strategy_asks_which_cube_was_taken_out_for_the_start_roll_and_keeps_it_out(tmp_path):
    """"26 Cubes bleiben in der Verpackung, lediglich ein Cube wird entnommen ... Mit dem einzelnen entnommenen Cube,
    der nicht ins Spiel kommt, wird der Startspieler bestimmt": the screen never asked which cube that was, and
    "Place" offered all 27 (13 each is 26). It asks now, first of all; a roll read before the answer waits for it."""
    view, session, _ = make(tmp_path, {"mode": "strategy", "players": ["Anna", "Ben"]})
    assert view.step == "outcube" and len(view._step_values()) == 27
    assert all(button != "ZURÜCK" for button, _ in view.hints())  # nothing to step back from: UNDO opens the menu
    assert not view.on_button(ButtonEvent(Button.UNDO, Press.SHORT))
    shot(view, "start_roll_which_cube")
    view.on_dice(TrayReading((DieReading("red", 0.9, (0, 0, 10, 10)),)))  # Anna rolls before naming it
    assert session.engine.state.phase is Phase.START_ROLL and len(session.actions) == 1  # waits
    shot(view, "start_roll_which_cube_rolled")
    take_out(view, "5")
    cube = "5"  # one with a red side: Anna's own red is rolled with it
    assert session.actions[-1] == {"action": "roll", "dice": ["red"], "cube": cube}  # Anna's own red: Ben rolls
    assert session.engine.state.out == [cube] and session.engine.current_player == "Ben"
    view.update(0.03, 0.0)
    assert view.step == "menu"  # the cube is known from the first roll on: not asked again
    assert session.undo()  # undoing the first roll: the cube stays out, as the table took it out
    view.update(0.03, 0.0)
    assert view.step == "menu" and session.engine.state.out == [cube]
    assert session.undo()  # the wrong cube named: undoing that asks again
    view.update(0.03, 0.0)
    assert view.step == "outcube" and session.engine.state.out == []
    take_out(view, cube)
    view.on_dice(TrayReading((DieReading("red", 0.9, (0, 0, 10, 10)),)))
    view.update(0.03, 0.0)
    items = [v for v, _ in view.menu_items()]
    view.on_tap(view.panel_rects()[items.index("roll:red")].center)  # Ben rolls Anna's red: he starts
    assert session.actions[-1]["cube"] == cube and session.engine.current_player == "Ben"
    press(view, Button.SELECT)  # place
    assert view.step == "cube" and len(view._step_values()) == 26 and cube not in view._step_values()


def test_the_cube_taken_out_is_a_step_of_the_game_a_power_cut_keeps(tmp_path):
    """The screen kept the cube taken out until the first roll: a power cut in between asked for it again while
    the start said "all as before"."""
    view, session, _ = make(tmp_path, {"mode": "strategy", "players": ["Anna", "Ben"]})
    take_out(view, "7")
    assert session.actions[-1] == {"action": "take_out", "cube": "7"}
    journal = Journal(tmp_path / "journal")
    back = GameSession.resume(Fritzo, journal.load(), journal, lang="de")
    view = FritzoMode(back)
    view.update(0.0, 1.0)
    assert back.engine.state.out == ["7"] and view.step == "menu" and view.dice_to_throw() == [
        tuple(back.engine.state.cubeset.cube("7").faces)]
    with pytest.raises(Exception, match="7"):  # named once: another is UNDO's
        back.engine.apply({"action": "take_out", "cube": "8"})


def test_strategy_without_a_camera_rolls_first_and_names_the_cube_after(tmp_path, monkeypatch):
    """Without a camera nothing was rolled yet: "Which cube was rolled?" asked about a cube nobody saw. The screen
    asks which stays out and says the companion rolls it; the roll names the colour."""
    from companion.views import theme

    view, session, _ = make(tmp_path, {"mode": "strategy", "players": ["Anna", "Ben"]}, lang="en")
    press(view, Button.ROLL)  # no camera: the virtual roll waits for the cube
    assert view.held is not None and len(session.actions) == 1
    drawn: list[str] = []
    text = theme.text
    monkeypatch.setattr(theme, "text", lambda surface, s, *a, **k: (drawn.append(s), text(surface, s, *a, **k))[1])
    shot(view, "start_roll_virtual_which_cube")
    assert "Which cube stays out? The companion then rolls it." in drawn and "Which cube was rolled?" not in drawn
    heard: list[str] = []
    session._announce = lambda a: heard.append(a.text("en"))
    take_out(view, "9")
    assert session.actions[-1]["cube"] == "9" and session.engine.state.out == ["9"] and view.held is None
    colour = session.actions[-1]["dice"][0]
    assert heard and heard[-1].startswith(f"Anna rolled {colour.capitalize()}")


def test_every_position_of_the_first_cube_is_on_the_screen_and_tappable(tmp_path):
    """The first cube may stand in any of its 24 positions: in rows of four the last eight were below the panel
    (17-20 under the hint bar, 21-24 off the screen), neither seen nor tapped."""
    view, session, _ = make(tmp_path, {"mode": "challenge", "players": ["Anna"]})
    press(view, Button.SELECT)  # place
    press(view, Button.SELECT)  # the first cube
    press(view, Button.SELECT)  # the only place on an empty table
    assert view.step == "turn"
    rects = view.panel_rects()
    assert len(rects) == len(view._step_values()) == 24
    panel = pygame.Rect(462, 70, 328, 366)  # above the hint bar
    assert all(panel.contains(r) for r in rects), [r for r in rects if not panel.contains(r)]
    assert min(r.w for r in rects) >= 36 and not any(a.colliderect(b) for i, a in enumerate(rects) for b in rects[:i])
    surface = shot(view, "pick_turn_first_cube")
    chosen = view.cell_rects()[view.cell[:2]].inflate(6, 6)  # the place picked stays lit while its position is
    assert tuple(surface.get_at((chosen.centerx, chosen.y + 2)))[:3] == theme.ACCENT
    view.on_tap(rects[-1].center)
    assert len(session.engine.state.building) == 1


def test_the_first_cubes_places_are_large_enough_for_a_finger(tmp_path):
    """The grid showed all the room the 5x5 limit leaves: 9x9 cells of 32 px for the one place of Strategy's first
    cube, 7x7 of 42 px for the second. One cell of room around what is built and offered: 103 and 60 px."""
    view, session, _ = make(tmp_path, {"mode": "strategy", "players": ["Anna", "Ben"]})
    take_out(view, "5")
    view.on_dice(TrayReading((DieReading("red", 0.9, (0, 0, 10, 10)),)))  # Anna's own red: Ben rolls
    view.update(0.03, 0.0)
    items = [v for v, _ in view.menu_items()]
    view.on_tap(view.panel_rects()[items.index("roll:red")].center)  # Anna's red again: Ben starts
    view.update(0.03, 0.0)
    sizes = []
    for _ in range(2):
        press(view, Button.SELECT)  # place
        press(view, Button.SELECT)  # the first cube offered
        assert view.step == "cell"
        cells = view.cell_rects()
        assert {p.cell[:2] for p in view.options} <= set(cells)
        sizes.append(min(r.w for r in cells.values()))
        press(view, Button.SELECT)  # its first place
        press(view, Button.SELECT)  # its first position
        view.update(0.03, 0.0)
    assert len(session.engine.state.building) == 2 and min(sizes) >= 56, sizes
    shot(view, "strategy_second_cube_grid")


def test_a_tap_on_an_unlit_place_says_why_and_another_lit_one_changes_the_place(tmp_path):
    """A tap on a grey cell did nothing and said nothing; choosing the position, a tap on another lit place did
    nothing either (only UNDO back led there)."""
    view, session, _ = make(tmp_path, {"mode": "challenge", "players": ["Anna"]})
    press(view, Button.SELECT)  # place
    press(view, Button.SELECT)  # the first cube
    press(view, Button.SELECT)  # its only place
    press(view, Button.SELECT)  # its first position
    view.update(0.03, 0.0)
    press(view, Button.SELECT)  # place
    press(view, Button.SELECT)  # the next cube
    assert view.step == "cell"
    lit = {p.cell[:2] for p in view.options if p.cell[2] == view.level}
    grey = next(c for c in view.cell_rects() if c not in lit and (*c, view.level) not in view.structure())
    assert view.on_tap(view.cell_rects()[grey].center) and view.step == "cell"
    # the "+" in each lit place tells them apart for everyone; its green ring is ΔE 12 from the picked place's
    # orange ring for a red-blind player (6.9 in grey), so the answer names the mark, not the hue
    assert view.note == f"Da passt Cube {view.cube} nicht: nur die Plätze mit „+“ gehen."
    first, second = sorted(lit)[:2]
    view.on_tap(view.cell_rects()[first].center)
    assert view.step == "turn" and view.cell[:2] == first
    view.on_tap(view.cell_rects()[second].center)  # changed one's mind: the other place's positions
    assert view.step == "turn" and view.cell[:2] == second


def test_the_agreed_time_is_started_by_touch_too(tmp_path):
    """Only TIMER started Level One's clock: a table with the touch screen alone played with the clock at 10:00 and
    the time never kept. The first line of the menu starts it, and goes once it runs."""
    view, session, _ = make(tmp_path, {"mode": "level-one", "players": ["Anna", "Ben"], "minutes": 15},
                            [{"action": "roll", "dice": ["blue"]}])
    assert view._step_values()[0] == "timer"
    view.on_tap(view.panel_rects()[0].center)
    assert session.engine.state.hourglass.started_at is not None
    assert "timer" not in view._step_values()


def tap_hint(view, button: Button) -> None:
    """A finger on the hint bar's ``button``: the app presses the button it stands for (``App.on_tap``)."""
    rect = next(rect for rect, event in view.hint_taps if event.button is button)
    view.on_button(tapped_hint(view.hint_taps, rect.center))


def test_a_finger_steps_back_out_of_placing_a_cube(tmp_path):
    """Place tapped, then a cube: only UNDO stepped back (to the cubes, to the menu), and a table with the touch
    screen alone had to place a cube it did not want. The hint bar's UNDO back is a button."""
    view, session, _ = make(tmp_path, {"mode": "challenge", "players": ["Anna"]})
    view.on_tap(view.panel_rects()[0].center)  # place
    view.on_tap(view.panel_rects()[0].center)  # the first cube
    assert view.step == "cell"
    shot(view, "back_by_touch")
    tap_hint(view, Button.UNDO)
    assert view.step == "cube"
    shot(view, "back_by_touch_cubes")
    tap_hint(view, Button.UNDO)
    assert view.step == "menu" and not session.engine.state.building


def test_every_legal_place_is_in_the_grid(tmp_path):
    """Two cubes in a row, the third may go at either end: the grid was cut to 3x2 and the places in line with the
    pair were neither drawn nor tappable (NEXT highlighted a cell off the grid)."""
    view, session, _ = make(tmp_path, {"mode": "beginner", "players": ["Anna"]})
    for _ in range(3):
        if len(session.engine.state.building) == 2:
            break
        press(view, Button.SELECT)  # place
        press(view, Button.SELECT)  # the first cube left
        press(view, Button.SELECT)  # its first place
        press(view, Button.SELECT)  # its first position
    assert len(session.engine.state.building) == 2
    press(view, Button.SELECT)  # place
    press(view, Button.SELECT)  # a cube
    assert view.step == "cell"
    cells = view.cell_rects()
    legal = {(p.cell[0], p.cell[1]) for p in view.options}
    assert legal <= set(cells), legal - set(cells)
    shot(view, "every_legal_place")


def test_the_start_roll_tapped_on_rolls_hint_asks_the_camera(tmp_path):
    """A taught cube set and a camera: ROLL's framed hint did nothing at the start roll (the screen left asking the
    camera to the app, which a tap on the hint never reaches). The screen asks for itself, by button or by tap."""
    view, session, _ = make(tmp_path, {"mode": "level-one", "players": ["Anna", "Ben"]})
    asked: list[bool] = []
    session.camera_ready, session.want_dice = True, lambda: asked.append(True)
    assert session.engine.state.phase is Phase.START_ROLL
    shot(view, "start_roll_hint")
    tap_hint(view, Button.ROLL)
    assert asked == [True]
    press(view, Button.ROLL)
    assert asked == [True, True]


def test_the_last_half_minute_is_said_once(tmp_path):
    """Haste Worte says "10 seconds left!"; Fritzo's last half minute was an orange clock nobody building watches."""
    view, session, clock = make(tmp_path, {"mode": "level-one", "players": ["Anna", "Ben"], "starter": "Anna",
                                           "minutes": 1})
    announcer = session.announcer
    press(view, Button.TIMER)
    announcer.clear(keep_essential=False)
    clock.step(25)
    view.update(1 / 30, clock.mono)
    assert "core.seconds_left" not in [a.key for a in announcer.queued]
    for _ in range(10):
        clock.step(1)
        view.update(1 / 30, clock.mono)
    warnings = [a for a in announcer.queued if a.key == "core.seconds_left"]
    assert len(warnings) == 1 and warnings[0].text("de") == "Noch 30 Sekunden!"


def _level_one_running(tmp_path, monkeypatch, **setup):
    """Level One for Anna and Ben, its clock started (TIMER) and nothing waiting to be said; the ticks played are
    recorded (at the clock's time). Returns the view, the session, the clock and the ticks."""
    from companion.announce import Sound

    view, session, clock = make(tmp_path, {"mode": "level-one", "players": ["Anna", "Ben"], "starter": "Anna",
                                           **setup})
    ticks: list[float] = []
    monkeypatch.setattr(session.announcer, "play_sound",
                        lambda sound: ticks.append(clock.mono) if sound is Sound.TICK else None)
    press(view, Button.TIMER)
    session.announcer.clear(keep_essential=False)
    return view, session, clock, ticks


def test_a_ten_minute_clock_says_its_last_minute_and_ticks_its_last_ten_seconds(tmp_path, monkeypatch):
    """Ten minutes of building warned only at 30 s, once, too late to finish anything, and then nothing: the last
    minute is said, and the last ten seconds tick once a second as Haste Worte's sand does."""
    from companion.announce import Announcement

    view, session, clock, ticks = _level_one_running(tmp_path, monkeypatch)
    announcer = session.announcer
    said: list[str] = []
    for _ in range(600):  # a second a step, to the end of the ten minutes
        clock.step(1)
        view.update(1 / 30, clock.mono)
        said += [a.text("de") for a in announcer.queued if a.key.startswith("core.") and a.text("de") not in said]
        if session.engine.finished:
            break
    assert said[:2] == ["Noch eine Minute!", "Noch 30 Sekunden!"]
    assert 9 <= len(ticks) <= 10 and all(b - a == 1 for a, b in zip(ticks, ticks[1:], strict=False))
    assert Announcement("core.minute_left").text("en") == "One minute left!"


def test_level_one_done_asks_first_and_leaves_a_done_player_nothing_to_change(tmp_path):
    """"Done" was one press: a slip locked the player's plane (and who finishes first wins a tie), and the menu then
    walked them through cube, place and turn only to refuse it."""
    view, session, clock = make(tmp_path, {"mode": "level-one", "players": ["Anna", "Ben"], "starter": "Anna",
                                           "minutes": 10})
    assert "done" not in [v for v, _ in view.menu_items()]  # before the clock runs: an empty plane done is a slip
    press(view, Button.TIMER)
    values = [v for v, _ in view.menu_items()]
    view.index = values.index("done")
    press(view, Button.SELECT)
    shot(view, "level_one_done_sure")
    assert view.step == "done" and "Anna" not in session.engine.state.done
    press(view, Button.SELECT)  # a second SELECT: "keep building"
    assert view.step == "menu" and "Anna" not in session.engine.state.done
    view.index = [v for v, _ in view.menu_items()].index("done")
    press(view, Button.SELECT)
    press(view, Button.NEXT)
    press(view, Button.SELECT)  # "yes, Anna is done"
    assert "Anna" in session.engine.state.done
    left = [v for v, _ in view.menu_items()]
    assert "switch" in left and not {"place", "remove", "done"} & set(left)  # the clock's lines stay


def test_the_cube_chooser_takes_the_width_its_nets_patterned_and_numbered_at_a_readable_size(tmp_path):
    """27 nets in the right panel were crosses of 8 px squares, too small for their patterns (a colour-blind player
    could not find the cube in hand), numbered at 16 px. Choosing a cube, the building waits and the nets take the
    width: squares large enough for their patterns, numbers at a readable size, all above the hint line."""
    from companion.views import fritzo_view

    view, _, _ = make(tmp_path, {"mode": "challenge", "players": ["Anna"]})
    press(view, Button.SELECT)  # "place"
    assert view.step == "cube" and len(view._step_values()) == 27
    rects = view.panel_rects()
    net = fritzo_view.chooser_cell(rects[0])[0]
    assert net.w // 3 >= 12 and all(fritzo_view.CHOOSER.contains(r) for r in rects)
    assert len({r.y for r in rects}) == 3  # three rows of nine
    sizes: list[int] = []
    real = theme.text

    def recording(surface, text, pos, size, *args, **kwargs):
        sizes.append(size)
        return real(surface, text, pos, size, *args, **kwargs)

    fritzo_view.theme.text = recording
    try:
        shot(view, "chooser_wide")
    finally:
        fritzo_view.theme.text = real
    assert min(sizes) >= theme.SMALLEST
    view.on_tap(rects[20].center)
    assert view.step == "cell" and view.cube == view.game.state.cubeset.ids[20]


def test_the_position_highlighted_is_shown_large_in_its_place(tmp_path, monkeypatch):
    """Choosing how the cube lies, the 24 positions in the panel are 46 px, their side colours 7 px strips: the one
    highlighted stands in its place on the building, large, its top colour named, and follows NEXT."""
    from companion.views import fritzo_view

    view, _, _ = make(tmp_path, {"mode": "challenge", "players": ["Anna"]})
    press(view, Button.SELECT)  # place
    press(view, Button.SELECT)  # the first cube
    press(view, Button.SELECT)  # the only place
    assert view.step == "turn"
    drawn: list[tuple[pygame.Rect, tuple[str, ...], bool]] = []
    real = fritzo_view.draw_look

    def recording(surface, rect, look, lang, *, named=False):
        drawn.append((rect, look, named))
        return real(surface, rect, look, lang, named=named)

    monkeypatch.setattr(fritzo_view, "draw_look", recording)
    for _ in range(2):
        drawn.clear()
        shot(view, "turn_preview")
        place = view.cell_rects()[view.cell[:2]]
        option = view._step_values()[view.index]
        assert (place, view._look(option), True) in drawn
        press(view, Button.NEXT)



@pytest.mark.parametrize(("lang", "asked"), [("de", "Nicht sicher erkannt: ist es Blau?"),
                                              ("en", "Not read for sure: is it Blue?")])
def test_an_unsure_start_roll_is_asked_above_the_colours_not_refused_over_them(tmp_path, monkeypatch, lang, asked):
    """"The cube was not read: correct the colour on the screen" stood as a red strip over the colours, the guess
    lit under it and named nowhere: SELECT chose a colour nobody saw, and that decided who starts."""
    view, session, _ = make(tmp_path, {"mode": "strategy", "players": ["Anna", "Ben"]}, lang=lang)
    take_out(view, "5")
    session.latest_reading = TrayReading((DieReading(None, 0.3, (0, 0, 10, 10), "blue"),))
    view.on_dice(session.latest_reading)
    assert session.error is None and len(session.actions) == 2
    headings: list[str] = []
    real = theme.text

    def recording(surface, text, pos, size, *args, **kwargs):
        headings.append(text)
        return real(surface, text, pos, size, *args, **kwargs)

    monkeypatch.setattr(theme, "text", recording)
    shot(view, f"start_roll_unsure_{lang}")
    assert asked in headings


def test_strategys_start_roll_offers_and_takes_only_the_colours_of_the_cube_taken_out(tmp_path):
    """The cube taken out for the start roll has its own colours; all six were offered and a colour it lacks was
    accepted: a misread or a mis-tap decided who starts."""
    view, session, _ = make(tmp_path, {"mode": "strategy", "players": ["Anna", "Ben"]}, lang="en")
    take_out(view, "5")
    faces = session.engine.state.cubeset.cube("5").faces
    offered = [v[5:] for v, _ in view.menu_items()]
    assert set(offered) == set(faces) and offered
    lacking = next(c for c in session.engine.state.cubeset.colours if c not in faces)
    view.on_dice(TrayReading((DieReading(lacking, 0.9, (0, 0, 10, 10)),)))  # read so, for sure: a misread
    assert "has no" in session.error and len(session.actions) == 2
    # a journal of an earlier version may hold such a roll (its virtual roll drew from all six): it still replays
    assert Fritzo.new(session.actions[0]).apply({"action": "roll", "dice": [lacking], "cube": "5"}) is not None


def test_strategy_on_the_built_in_tray_throws_once_the_cube_is_named(tmp_path):
    """The built-in tray throws what the screen wants: pressed before the cube was named it threw all six colours,
    and a colour cube 5 lacks was refused once it was named."""
    view, session, _ = make(tmp_path, {"mode": "strategy", "players": ["Anna", "Ben"]})
    session.camera_ready = True
    asked: list[list[tuple[str, ...]]] = []
    session.want_dice = lambda: asked.append(view.dice_to_throw())
    press(view, Button.ROLL)
    assert asked == [] and view.held is not None
    take_out(view, "5")
    assert asked == [[tuple(session.engine.state.cubeset.cube("5").faces)]]


def test_an_unsure_start_rolls_question_goes_with_its_reading(tmp_path):
    """Two cubes read after an unsure one: the refusal stood under "is it blue?", and the colour tapped was taught
    as a die of the two-cube reading."""
    view, session, _ = make(tmp_path, {"mode": "strategy", "players": ["Anna", "Ben"]}, lang="en")
    take_out(view, "5")
    view.on_dice(TrayReading((DieReading(None, 0.3, (0, 0, 10, 10), "blue"),)))
    assert view.unsure_roll
    view.on_dice(TrayReading((DieReading("red", 0.9, (0, 0, 10, 10)), DieReading("blue", 0.9, (40, 0, 50, 10)))))
    assert not view.unsure_roll and view.roll_guess is None


def test_strategys_virtual_start_roll_shows_a_colour_of_the_cube_named_after_it(tmp_path):
    """Without a camera ROLL may come before the cube taken out is named: the colour was drawn from all six then,
    and a colour that cube lacks is refused now. It is thrown once the cube is named, from that cube's sides."""
    import random

    for k, cube in enumerate(("2", "5", "7", "9", "13", "27")):
        view, session, _ = make(tmp_path / cube, {"mode": "strategy", "players": ["Anna", "Ben"]})
        session.rng = random.Random(k)
        for _ in range(6):  # the same cube rolled again after each miss, until somebody starts
            press(view, Button.ROLL)
            if view.held is not None:
                take_out(view, cube)
            assert session.error is None, (cube, session.error)
            rolled = session.actions[-1]["dice"][0]
            assert rolled in session.engine.state.cubeset.cube(cube).faces
            if session.engine.state.phase is not Phase.START_ROLL:
                break


def test_small_faces_and_thin_side_bands_keep_their_patterns_apart_in_grey():
    """The chooser's 14 px faces showed one mark of a pattern (yellow's checks a notch, white plain beside it), and
    a cube's 8 px side bands none: seen without hue, red, orange and green bands were one grey. Each colour keeps a
    pattern of its own at those sizes."""
    from companion.views.fritzo_view import swatch

    colours = ["red", "orange", "yellow", "green", "blue", "white"]
    for size in ((14, 14), (8, 38), (38, 8)):
        looks = []
        for c in colours:
            surface = pygame.Surface(size)
            swatch(surface, pygame.Rect((0, 0), size), c, "de")
            rgb = pygame.surfarray.array3d(surface).astype(float)
            grey = rgb @ [0.299, 0.587, 0.114]
            looks.append(grey)  # seen without hue: lightness alone
        for i in range(len(colours)):
            for j in range(i + 1, len(colours)):
                assert np.abs(looks[i] - looks[j]).mean() > 25, (size, colours[i], colours[j])
    import cv2

    from companion.views.fritzo_view import _ink, _rgb

    for c in colours[:-1]:  # a 14 px face shows its pattern as several marks, not one (white is plain)
        surface = pygame.Surface((14, 14))
        swatch(surface, pygame.Rect(0, 0, 14, 14), c, "de")
        ink = np.abs(pygame.surfarray.array3d(surface)[1:13, 1:13].astype(int) - _ink(_rgb(c))).sum(axis=2) < 40
        marks, _ = cv2.connectedComponents(ink.astype(np.uint8), connectivity=4)
        assert marks - 1 >= 2, c


def test_the_highlighted_line_is_the_focus_a_strip_keeps_clear_of(tmp_path):
    """Fritzo told the app nothing of its highlight: "Undone: Time's up" in its green strip stood over "Time's
    up", the highlighted last of six lines, and a refused roll's strip over the colour lit."""
    from companion.app import _notice_layout

    view, session, _ = make(tmp_path, {"mode": "level-one", "players": ["Anna", "Ben"]}, lang="en")
    for _ in range(5):
        press(view, Button.NEXT)
    assert view.focus_rect.contains(view.panel_rects()[5])  # the sixth colour (among them all, at the start roll)
    assert _notice_layout("A strip of two lines of words, as long as an undone step's.", tone="good")[2].colliderect(
        view.focus_rect)  # where the strip stood: the app puts it at the top now (test_app)
    view2, _, _ = make(tmp_path / "b", {"mode": "professional", "players": ["Anna"]}, pro_actions(5))
    view2._choose("place")
    view2._choose(view2._step_values()[0])
    assert view2.step == "cell"
    x, y, _ = view2._step_values()[view2.index]  # placing, the place lit with the building round it
    assert view2.focus_rect.contains(view2.cell_rects()[(x, y)])


@pytest.mark.parametrize("setup", [{"mode": "professional", "players": ["Anna"]},
                                   {"mode": "team", "target": "professional", "players": ["Anna", "Ben"]}],
                         ids=["professional", "team"])
def test_a_building_finished_shows_its_end_screen(tmp_path, setup):
    """The last cube of a goal built alone or as a team: the end screen's words asked for the highest score of a
    game that keeps none (max() of nothing), and the companion stopped at the moment the building stood."""
    view, session, _ = make(tmp_path, setup, pro_actions(27))
    assert session.engine.state.phase is Phase.OVER and session.engine.state.result in ("goal", "team")
    shot(view, f"finished_{setup['mode']}")
    goal = setup.get("target", setup["mode"])
    key = f"fritzo.team.won.{goal}" if setup["mode"] == "team" else f"fritzo.goal.done.{goal}"
    assert [a.key for a in session.engine.ending] == [key]  # what was built, under "Won: ..."
# -- read from the far end of the table -----------------------------------------------------------------------------
MENU_CORNER = pygame.Rect(748, 0, 52, 52)  # the app's, at the top right of a game


def drawn_texts(view: FritzoMode, monkeypatch, name: str) -> list[tuple[str, int, pygame.Rect]]:
    """Every line the screen draws as (text, size, rect), by spying on ``theme.text`` while it draws."""
    from companion.views import fritzo_view

    real_swatch = fritzo_view.swatch
    with recording_texts(monkeypatch) as drawn, monkeypatch.context() as patch:
        def swatch(surface, rect, *args, **kwargs):  # the players' colours beside their points
            drawn.append(("[swatch]", 0, pygame.Rect(rect)))
            return real_swatch(surface, rect, *args, **kwargs)

        patch.setattr(fritzo_view, "swatch", swatch)
        shot(view, name)
    return drawn


def size_of(drawn: list[tuple[str, int, pygame.Rect]], s: str) -> int:
    sizes = [size for text, size, _ in drawn if text == s]
    assert sizes, f"{s!r} not drawn: {[text for text, _, _ in drawn]}"
    return max(sizes)


def top_bar(view: FritzoMode, drawn: list[tuple[str, int, pygame.Rect]]) -> list[pygame.Rect]:
    """The top bar's lines: on the canvas, clear of one another, of the app's menu corner, the layer tabs and the
    panel (its heading, its items, the chooser) below."""
    from companion.views.fritzo_view import PANEL

    rects = [r for _, _, r in drawn if r.top < PANEL.y - 10]  # what starts in the top bar must end above the panel
    below = [*view.tab_rects(), *view.panel_rects(), pygame.Rect(0, PANEL.y, 800, 1)]
    for i, r in enumerate(rects):
        assert r.left >= 0 and r.top >= 0 and r.right <= MENU_CORNER.left, r
        assert not r.colliderect(MENU_CORNER) and not any(r.colliderect(b) for b in below), r
        assert not any(r.colliderect(o) for o in rects[i + 1:]), (r, rects)
    return rects


STRATEGY = {"mode": "strategy", "starter": "Anna", "excluded": "27"}


@pytest.mark.parametrize("lang, turn", [("de", "Anna ist dran"), ("en", "Anna's turn")])
def test_strategy_says_whose_turn_at_large_and_the_scores_at_far(tmp_path, monkeypatch, lang, turn):
    """The top bar said whose turn it is at BODY and the scores at SMALL (12 px capitals): from the far end of the
    table nobody read who was to place, nor who led."""
    from test_fritzo_engine import greedy_game

    setup = {**STRATEGY, "players": ["Anna", "Ben"]}
    view, session, _ = make(tmp_path, setup, greedy_game({"action": "setup", **setup})[:12], lang)
    view.level = 1
    drawn = drawn_texts(view, monkeypatch, f"far_strategy_{lang}")
    assert size_of(drawn, turn) >= theme.LARGE
    scores = session.engine.state.scores  # (the greedy game's points follow the rules' readings: not written here)
    assert all(size_of(drawn, f"{name}: {points}") >= theme.FAR for name, points in scores.items())
    top_bar(view, drawn)


def test_the_start_roll_asks_at_large_whose_roll_it_is(tmp_path, monkeypatch):
    view, _, _ = make(tmp_path, {"mode": "strategy", "players": ["Johannes", "Mathilde"]})
    drawn = drawn_texts(view, monkeypatch, "far_start_roll")
    assert size_of(drawn, "Johannes: Cube würfeln") >= theme.LARGE
    assert size_of(drawn, "Johannes: 0") >= theme.FAR and size_of(drawn, "Mathilde: 0") >= theme.FAR
    top_bar(view, drawn)


def test_level_one_says_whose_plane_at_large_beside_the_clock_and_the_scores_at_far(tmp_path, monkeypatch):
    view, _, _ = make(tmp_path, {"mode": "level-one", "players": ["Johannes", "Mathilde"]},
                      [{"action": "roll", "dice": ["blue"]}])
    drawn = drawn_texts(view, monkeypatch, "far_level_one")
    assert size_of(drawn, "Ebene von Johannes") >= theme.LARGE and size_of(drawn, "10:00") >= theme.LARGE
    assert size_of(drawn, "Johannes: -9") >= theme.FAR and size_of(drawn, "Mathilde: -9") >= theme.FAR
    top_bar(view, drawn)


@pytest.mark.parametrize("mode", ["challenge", "team"])
def test_the_supply_is_read_at_far(tmp_path, monkeypatch, mode):
    """The building modes' one count, the cubes left, at FAR under the top line: in Team under whose turn (the count
    the Cube wins on when none of them fits any more), where nobody has a turn under who builds (it stood alone at
    LARGE, and no name stood on the screen after the setup asked for them)."""
    setup = {"mode": mode, "players": ["Anna", "Ben", "Carla", "Dieter"]}
    if mode == "team":
        setup["target"] = "challenge"
    view, _, _ = make(tmp_path, setup)
    drawn = drawn_texts(view, monkeypatch, f"far_supply_{mode}")
    assert size_of(drawn, "Vorrat: 27") >= theme.FAR
    assert size_of(drawn, "Anna ist dran" if mode == "team" else "Anna, Ben, Carla, Dieter bauen") >= theme.LARGE
    top_bar(view, drawn)


@pytest.mark.parametrize("lang", ["de", "en"])
def test_long_names_keep_the_prompt_and_the_points_at_far_and_nothing_overlaps(tmp_path, monkeypatch, lang):
    """Two long names: the top bar's lines stay clear of each other, the clock, the tabs and the menu corner; what
    is asked and the points stay at FAR, only a name too long for its room is fitted."""
    names = ["Großvater Johannes", "Maximilian-Alexander"]
    view, _, _ = make(tmp_path, {"mode": "strategy", "players": names}, (), lang)
    drawn = drawn_texts(view, monkeypatch, f"far_long_names_{lang}")
    rects = top_bar(view, drawn)
    assert len(rects) >= 5  # the prompt, and per player a name and its points
    prompt = {"de": ": Cube würfeln", "en": ": roll the cube"}[lang]
    assert any(names[0] in s and size >= theme.FAR for s, size, _ in drawn) or size_of(drawn, prompt) >= theme.FAR
    points = [size for s, size, _ in drawn if s.endswith(": 0")]  # ": 0" alone, or with its name shortened to FAR
    assert len(points) == 2 and min(points) >= theme.FAR
    assert any(s.startswith("Großvater J.") and size >= theme.FAR for s, size, _ in drawn)  # shortened, at FAR
    view, _, _ = make(tmp_path / "l1", {"mode": "level-one", "players": names}, [{"action": "roll", "dice": ["blue"]}],
                      lang)
    top_bar(view, drawn_texts(view, monkeypatch, f"far_long_names_l1_{lang}"))


def test_the_winner_at_large_and_how_a_tie_was_broken_at_far(tmp_path, monkeypatch):
    from companion.views.fritzo_view import PANEL

    view, _, _ = make(tmp_path, {"mode": "level-one", "players": ["Anna", "Ben"], "starter": "Anna"},
                      [{"action": "done", "player": "Ben"}, {"action": "done", "player": "Anna"}])
    drawn = drawn_texts(view, monkeypatch, "far_over_tie")
    assert size_of(drawn, "Spielende") >= theme.LARGE and size_of(drawn, "Gewonnen: Ben") >= theme.LARGE
    assert size_of(drawn, "Anna: -9") >= theme.FAR and size_of(drawn, "Ben: -9") >= theme.FAR
    why = [(s, size, r) for s, size, r in drawn if r.top > PANEL.y + 40]
    assert why and all(size >= theme.FAR and PANEL.contains(r) for _, size, r in why)
    top_bar(view, drawn)


@pytest.mark.parametrize("lang", ["de", "en"])
def test_a_super_fritzo_by_a_long_name_is_said_at_far_on_the_panel(tmp_path, monkeypatch, lang):
    """"Gewonnen: Maximilian-Alexander" was one line fitted to the panel (and a team of four long names stood at
    12 px, cut): the winner now wraps at FAR or larger, and the words of the Super Fritzo under it."""
    from test_fritzo_engine import greedy_game

    from companion.views.fritzo_view import PANEL

    setup = {**STRATEGY, "players": ["Großvater Johannes", "Maximilian-Alexander"],
             "starter": "Großvater Johannes"}
    view, session, _ = make(tmp_path, setup, greedy_game({"action": "setup", **setup}), lang)
    state = session.engine.state
    state.result, state.winners = "super-fritzo", ["Maximilian-Alexander"]  # as the engine stamps one
    drawn = drawn_texts(view, monkeypatch, f"far_super_{lang}")
    panel = [(s, size, r) for s, size, r in drawn if r.colliderect(PANEL)]
    assert panel and all(size >= theme.FAR and PANEL.contains(r) for _, size, r in panel)
    assert any("Maximilian-Alexander" in s for s, _, _ in panel[:2])  # the winner first
    assert any(s.startswith("Super Fritzo") for s, _, _ in panel)
    rects = [r for _, _, r in panel]
    assert not any(a.colliderect(b) for i, a in enumerate(rects) for b in rects[i + 1:])
    top_bar(view, drawn)


@pytest.mark.parametrize("lang", ["de", "en"])
def test_a_banner_at_the_start_roll_stands_clear_of_the_colours_to_answer(tmp_path, lang):
    """"Mia rolled red, not blue…" covered the colour list the roll is answered from (only the highlighted colour
    was spared): the colours, then the top line, are kept in view; the banner stands over the empty building."""
    from companion.app import MENU_CORNER
    from companion.i18n import t
    from companion.views.banner import place
    from companion.views.fritzo_view import TOP_BAR

    view, session, _ = make(tmp_path, {"mode": "level-one", "players": ["Großvater Johannes", "Mia"]}, lang=lang)
    shot(view, f"start_roll_in_view_{lang}")
    colours = view.panel_rects()
    assert len(colours) >= 5 and view.in_view
    for key, params in (("fritzo.open.rolls_first", {"player": "Großvater Johannes"}),
                        ("fritzo.roll.again_l1", {"player": "Großvater Johannes", "colour": "rot", "next": "Mia"})):
        rect, _, _ = place((800, 480), t(key, lang, **params), view.focus_rect, 1.0, [MENU_CORNER], view.in_view)
        assert not any(rect.colliderect(r) for r in colours), (key, rect)
        assert not rect.colliderect(TOP_BAR), (key, rect)


@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_cubes_to_choose_from_are_kept_in_view_and_asked_for_over_them(tmp_path, monkeypatch, lang):
    """Strategy's start asks which cube stays out: the cubes are what the table looks at (``in_view``), and the
    question stood at the panel's top, under the notice of the built-in cubes at the top of the screen (eight
    seconds): it stands right over the cubes now, at FAR, below that notice."""
    from companion.app import _notice_layout
    from companion.i18n import t
    from companion.views.fritzo_view import CHOOSER

    view, session, _ = make(tmp_path, {"mode": "strategy", "players": ["Anna", "Ben"]}, lang=lang)
    assert view.step == "outcube"
    cubes = view.panel_rects()
    assert all(view.in_view[0].contains(r) for r in cubes)  # first: what matters most
    with recording_texts(monkeypatch) as drawn:
        shot(view, f"outcube_question_{lang}")
    asked = [(size, rect) for s, size, rect in drawn if s == t("fritzo.ui.pick_out_cube", lang)]
    assert asked and asked[0][0] >= theme.FAR
    notice = _notice_layout(t("fritzo.builtin_cubes", lang), tone="info", at_top=True)[2]
    assert not asked[0][1].colliderect(notice) and asked[0][1].bottom <= CHOOSER.y, (asked, notice)


def test_level_ones_end_shows_the_winners_plane(tmp_path):
    """"Won: Ben" stood over Anna's plane (the first player's, whoever won): the table read the loser's building as
    the winner's."""
    cell, (cube, rotation) = next(((x, y), v) for (x, y, z), v in sorted(D.professional.items()) if z == 0)
    view, session, clock = make(tmp_path, {"mode": "level-one", "players": ["Anna", "Ben"], "starter": "Anna"},
                                [{"action": "place", "player": "Ben", "cube": cube, "cell": list(cell),
                                  "rotation": rotation}, {"action": "done", "player": "Ben"}])
    view.player_index = 0  # Anna's plane, as she finishes
    assert session.apply({"action": "done", "player": "Anna"}), session.error
    view.update(0.0, clock.mono)
    assert session.engine.state.winners == ["Ben"] and session.engine.structure("Ben")
    assert view.structure() == session.engine.structure("Ben")


def test_the_winners_line_is_not_broken_inside_a_name():
    """"Gewonnen: / Großvater / Johannes" at LARGE read as two winners."""
    lines, size = FritzoMode.won_lines("Gewonnen: Großvater Johannes", ("Großvater Johannes",))
    assert "Großvater Johannes" in lines and size >= theme.FAR


def test_every_cube_placed_without_the_goal_says_what_is_wrong_and_offers_taking_off(tmp_path, monkeypatch):
    """All 27 placed, the Beginner not built: the menu offered "Place" with no cube to choose, and random presses
    stood 189 times at an empty list. Now "Take off" comes first and the screen says what is wrong."""
    view, session, _ = make(tmp_path, {"mode": "professional", "players": ["Anna"]}, pro_actions(5), lang="en")
    assert [v for v, _ in view.menu_items()][0] == "place" and view._all_placed_note() is None
    monkeypatch.setattr(session.engine, "cubes_left", lambda player=None: [])  # as with every cube in the building
    values = [v for v, _ in view.menu_items()]
    assert "place" not in values and values[0] == "remove"
    note = view._all_placed_note()
    assert note.startswith("5 cubes stand") and note.endswith("Take cubes off (“Take off”) and build again.")
    with recording_texts(monkeypatch) as drawn:
        view.draw(pygame.Surface((800, 480)))
    assert any(s in note and len(s) > 10 for s, _, _ in drawn)


@pytest.mark.parametrize("lang", ["de", "en"])
@pytest.mark.parametrize("step", ["outcube", "cube"])
def test_a_banner_while_choosing_a_cube_stands_over_the_top_line_clear_of_the_cubes_and_the_question(
        tmp_path, lang, step):
    """Strategy's start: "Ein Cube wird entnommen, er kommt nicht ins Spiel. Großvater Johannes würfelt damit
    zuerst." stood for five seconds over the cubes' second and third rows, just when the table looked for the cube it
    had taken out (every row covered something: the nets filled the screen under the heading). The nets stand below
    the room a banner of three lines takes at the top, over the top line that says who is to act as it does."""
    from companion.app import MENU_CORNER
    from companion.i18n import t
    from companion.views.banner import place
    from companion.views.fritzo_view import TOP_BAR

    who = "Großvater Johannes"
    view, session, _ = make(tmp_path, {"mode": "strategy", "players": [who, "Mia"]}, lang=lang)
    said = [("fritzo.open.rolls_out_cube", {"player": who})]
    if step == "cube":
        take_out(view, "5")
        assert session.apply({"action": "roll", "dice": ["green"]}), session.error  # Mia's colour: Johannes starts
        press(view, Button.SELECT)
        said = [("fritzo.turn", {"player": who}), ("fritzo.open.starts", {"player": who})]
    assert view.step == step
    cubes = view.panel_rects()
    with pytest.MonkeyPatch.context() as patch:
        with recording_texts(patch) as drawn:
            shot(view, f"chooser_banner_room_{step}_{lang}")
    asked = [rect for text, _, rect in drawn if text == t(f"fritzo.ui.pick_{'out_' if step == 'outcube' else ''}cube",
                                                           lang)]
    assert asked
    for index in (0, len(cubes) - 1):  # the highlight on the first cube, and on the last
        view.index = index
        for key, params in said:
            rect, _, _ = place((800, 480), t(key, lang, **params), view.focus_rect, 1.0, [MENU_CORNER], view.in_view)
            assert not any(rect.colliderect(r) for r in (*cubes, *asked)), (key, rect)
            assert rect.colliderect(TOP_BAR)
    assert view.in_view[-1] == TOP_BAR  # the last a banner covers


def _team_twelve_cubes_on(tmp_path, players: list[str], lang: str):
    """A Team game for Professional with the first twelve cubes of a buildable order placed (one in the building's
    bottom row): the view, its session and that order."""
    order = buildable_order(set(D.professional))
    view, session, _ = make(tmp_path, {"mode": "team", "target": "professional", "players": players}, lang=lang)
    for cell in order[:12]:
        cid, rot = D.professional[cell]
        assert session.apply({"action": "place", "cube": cid, "cell": list(cell), "rotation": rot,
                              "player": session.engine.current_player}), session.error
    return view, session, order


@pytest.mark.parametrize("lang", ["de", "en"])
@pytest.mark.parametrize("players", [["Großvater Johannes", "Mia"], ["Großvater Johannes", "Mia", "Ben", "Annabell"]])
def test_a_turns_banner_while_placing_stands_clear_of_the_building_and_the_positions(tmp_path, lang, players):
    """Team: "Großvater Johannes ist dran." stood over the building's bottom row (its places lit) while the cube was
    placed there: placing, the screen named nothing to keep in view. The building, then the positions to pick,
    are kept clear; the banner stands over the top line, which says whose turn it is, or beside the positions."""
    from companion.app import MENU_CORNER
    from companion.i18n import t
    from companion.views.banner import place

    view, session, order = _team_twelve_cubes_on(tmp_path, players, lang)
    said = t("fritzo.turn", lang, player=session.engine.current_player)
    press(view, Button.SELECT)  # place
    view.index = view._step_values().index(D.professional[order[12]][0])
    press(view, Button.SELECT)
    assert view.step == "cell"
    shot(view, f"team_placing_in_view_{lang}_{len(players)}")
    building = list(view.cell_rects().values())
    for index in range(len(view._step_values())):  # wherever the highlight stands
        view.index = index
        view._follow_level()
        rect, _, _ = place((800, 480), said, view.focus_rect, 1.0, [MENU_CORNER], view.in_view)
        assert not any(rect.colliderect(r) for r in building), (index, rect)
    press(view, Button.SELECT)
    assert view.step == "turn"
    positions = view.panel_rects()
    for index in range(len(positions)):
        view.index = index
        rect, _, _ = place((800, 480), said, view.focus_rect, 1.0, [MENU_CORNER], view.in_view)
        assert not any(rect.colliderect(r) for r in (*building, *positions)), (index, rect)


@pytest.mark.parametrize("lang", ["de", "en"])
@pytest.mark.parametrize("players", [["Großvater Johannes", "Mia"], ["Mia", "Ben", "Großvater Johannes"]])
def test_a_turns_banner_on_the_action_list_stands_under_it_clear_of_the_building(tmp_path, lang, players):
    """Right after a cube was placed the action list is back, and the next turn's banner stood at the bottom over
    the building's bottom row, a cube placed there: on the list the screen named nothing to keep in view. The
    building, the actions and the top line are kept; the banner stands under the short list of actions."""
    from companion.app import MENU_CORNER
    from companion.i18n import t
    from companion.views.banner import place
    from companion.views.fritzo_view import PANEL, TOP_BAR

    view, session, order = _team_twelve_cubes_on(tmp_path, players, lang)
    assert view.step == "menu"
    building = view._building_rects()
    assert max(r.bottom for r in building) > 400  # a cube in the bottom row, where the bands at the foot stand
    said = t("fritzo.turn", lang, player=session.engine.current_player)
    shot(view, f"team_actions_in_view_{lang}_{len(players)}")
    for index in range(len(view._step_values())):  # wherever the highlight stands
        view.index = index
        rect, font, _ = place((800, 480), said, view.focus_rect, 1.0, [MENU_CORNER], view.in_view)
        assert not any(rect.colliderect(r) for r in (*building, *view.panel_rects(), TOP_BAR)), (index, rect)
        assert rect.left >= PANEL.left and font.get_height() >= theme.font(theme.FAR, True).get_height()


@pytest.mark.parametrize("lang", ["de", "en"])
def test_a_note_while_level_one_places_leaves_the_running_clock_in_view(tmp_path, monkeypatch, lang):
    """Level One's notes of every cube placed stand while the next is chosen and placed: over the top line they hid
    the running clock the table watches. The clock comes first in what is kept in view."""
    from companion.app import MENU_CORNER
    from companion.i18n import t
    from companion.views.banner import place

    view, session, clock = make(tmp_path, {"mode": "level-one", "players": ["Großvater Johannes", "Mia"],
                                           "starter": "Großvater Johannes", "minutes": 5}, lang=lang)
    press(view, Button.TIMER)
    clock.step(5)
    view.update(1 / 30, clock.mono)
    cid, rot = D.professional[(0, 0, 0)]
    assert session.apply({"action": "place", "player": "Großvater Johannes", "cube": cid, "cell": [0, 0, 0],
                          "rotation": rot}), session.error
    said = t("fritzo.placed_plane", lang, player="Großvater Johannes", cube=cid, cell="0/0/1")
    press(view, Button.SELECT)  # place
    assert view.step == "cube"
    monkeypatch.setattr(type(view), "_banner_up", lambda self: True)  # the note's banner placed below is up
    for step in ("cube", "cell", "turn"):
        assert view.step == step
        drawn = drawn_texts(view, monkeypatch, f"level_one_placing_{step}_{lang}")
        shown = [r for s, _, r in drawn if s == view._clock_label()]
        assert shown and view.in_view[0].contains(shown[0])
        rect, _, _ = place((800, 480), said, view.focus_rect, 1.0, [MENU_CORNER], view.in_view)
        assert not rect.colliderect(shown[0]), (step, rect)
        press(view, Button.SELECT)


@pytest.mark.parametrize("mode", ["level-one", "strategy"])
def test_reroll_at_the_start_roll_rolls_as_roll(tmp_path, mode):
    """The start is rolled again and again until the colour comes: REROLL there did nothing, unsaid (ROLL rolled);
    Fritzo has no other roll it could mean."""
    view, session, _ = make(tmp_path, {"mode": mode, "players": ["Anna", "Ben"]}, lang="en")
    if mode == "strategy":
        take_out(view, "5")
    assert session.engine.state.phase is Phase.START_ROLL and not view._asks_start_cube()
    steps = len(session.actions)
    assert view.on_button(ButtonEvent(Button.REROLL, Press.SHORT))
    assert len(session.actions) == steps + 1


def test_long_lists_say_next_can_be_held(tmp_path):
    """The 27 cubes and the places never said NEXT can be held, as the menus' and other games' long lists do; the
    start roll's six colours are short and say "move"."""
    from companion.i18n import t
    from companion.views.widgets import LONG_LIST

    view, _, _ = make(tmp_path, {"mode": "level-one", "players": ["Anna", "Ben"]}, lang="en")
    assert len(view._step_values()) <= LONG_LIST and ("NEXT", t("fritzo.ui.next", "en")) in view.hints()
    view, _, _ = make(tmp_path / "b", {"mode": "level-one", "players": ["Anna", "Ben"], "starter": "Anna"}, lang="en")
    values = view._step_values()
    view.index = values.index("place")
    press(view, Button.SELECT)  # the cubes
    assert len(view._step_values()) > LONG_LIST
    assert ("NEXT", t("core.hint_move_hold", "en")) in view.hints()
    shot(view, "hints_long_list")


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_hint_bar_says_back_as_every_screen_does(tmp_path, lang):
    """"UNDO Back" / "ZURÜCK Zurück": the list's line stood in the hint bar, where every other screen says "back"."""
    from companion.i18n import t

    view, _, _ = make(tmp_path, {"mode": "level-one", "players": ["Anna", "Ben"], "starter": "Anna"}, lang=lang)
    values = view._step_values()
    view.index = values.index("place")
    press(view, Button.SELECT)
    assert (t("core.btn_undo", lang), t("core.hint_back", lang)) in view.hints()
    shot(view, f"hints_back_{lang}")


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_start_rolls_colours_are_listed_with_a_capital(tmp_path, lang):
    """The start roll's answers read "red, orange, …" in English beside German's "Rot" and Noch X-Mal!'s "Red": a
    list's line starts with a capital, as the sentences name the colours ("Mia rolled Red", beside a taught
    "Navy")."""
    view, _, _ = make(tmp_path, {"mode": "strategy", "players": ["Anna", "Ben"]}, lang=lang)
    take_out(view, "5")
    labels = [label for value, label in view.menu_items() if value.startswith("roll:")]
    assert labels and all(label[:1].isupper() for label in labels), labels


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_cube_chooser_keeps_the_menus_hint_beside_its_long_list(tmp_path, lang):
    """German "bewegen (halten: schnell)" left Strategy's cube chooser without "ZURÜCK Menü", the only word a table
    with buttons has of where the menu is: the menu's hint goes first, the list then says "move" where both do not
    fit (English has room for both)."""
    from companion.i18n import t
    from companion.views.widgets import with_menu

    view, _, _ = make(tmp_path, {"mode": "strategy", "players": ["Großvater Johannes", "Mia"]}, lang=lang)
    assert view._choosing_cube()
    shown = with_menu(view.hints(), lang)
    assert (t("core.btn_undo", lang), t("core.hint_menu", lang)) in shown
    move = dict(shown)[t("core.btn_next", lang)]
    assert move == t("core.hint_move_hold" if lang == "en" else "core.hint_move", lang)


def _announcing_app(tmp_path: Path, lang: str):
    """The app in ``lang`` with Fritzo's entry, its announcements heard (recorded), its clock moved by the test."""
    from test_games_in_app import _announcing_app as announcing

    from companion.games_ui import register_all

    register_all()
    return announcing(tmp_path, lang)


def _level_one_choosing_a_cube(tmp_path: Path, monkeypatch, lang: str):
    """Level One's clock started and the cubes to pick from shown, in an announcing app; the nets drawn each frame
    recorded (the large cube in the band among them)."""
    from companion.app import GAME_ENTRIES
    from companion.views import fritzo_view

    nets: list[pygame.Rect] = []
    real_net = fritzo_view.draw_net
    monkeypatch.setattr(fritzo_view, "draw_net", lambda surface, rect, *args: (nets.append(pygame.Rect(rect)),
                                                                              real_net(surface, rect, *args)))
    app, clock = _announcing_app(tmp_path, lang)
    app.new_game(GAME_ENTRIES["fritzo"], {"mode": "level-one", "_players": ("Großvater Johannes", "Mia"),
                                          "starter": "Mia"})
    view = app.mode
    app.frame(0.03, [])
    press(view, Button.SELECT)  # the clock starts
    press(view, Button.SELECT)  # place: the cubes to pick from
    return app, clock, nets


def _frames(app, clock: dict[str, float], seconds: float) -> None:
    for _ in range(int(seconds * 4)):
        clock["now"] += 0.25
        app.frame(0.03, [])


@pytest.mark.parametrize("lang", ["de", "en"])
@pytest.mark.parametrize("players", [("Mia", "Großvater Johannes"), ("Großvater Johannes", "Mia")])
def test_placing_under_a_turns_banner_and_a_notice_keeps_the_building_its_places_and_tabs_in_view(tmp_path, lang,
                                                                                                  players):
    """Team, the next cube placed at once under "Großvater Johannes ist dran.": the banner stood over the top line
    and cut the level tabs for its seconds (placing, the place lit was all it kept clear of, and the only room
    clear of the building it knew was the top), and ROLL's "Fritzo wird ohne Würfel gespielt…" under it covered the
    building's bottom row, its places lit. The banner stands beside the building, over the panel's empty foot; the
    notice over the top line alone (the banner says whose turn it is)."""
    from companion.app import GAME_ENTRIES
    from companion.i18n import t
    from companion.views.fritzo_view import TOP_BAR

    order = buildable_order(set(D.professional))
    app, clock = _announcing_app(tmp_path, lang)
    try:
        app.new_game(GAME_ENTRIES["fritzo"], {"mode": "team", "target": "professional", "_players": players,
                                              "start": 0})
        session = app.session
        for cell in order[:11]:
            cid, rot = D.professional[cell]
            assert session.apply({"action": "place", "cube": cid, "cell": list(cell), "rotation": rot,
                                  "player": session.engine.current_player}), session.error
        _frames(app, clock, 40)
        view = app.mode
        for n in (11, 12):  # the screen places one, and under the next turn's banner the next
            press(view, Button.SELECT)
            view.index = view._step_values().index(D.professional[order[n]][0])
            press(view, Button.SELECT)
            assert view.step == "cell"
            view.index = view._step_values().index(order[n])
            view._follow_level()
            if n == 11:
                press(view, Button.SELECT)
                view.index = next(i for i, p in enumerate(view._step_values())
                                  if p.rotation == D.professional[order[n]][1])
                press(view, Button.SELECT)
                app.frame(0.03, [])
        said = t("fritzo.turn", lang, player=session.engine.current_player)
        assert app.announcer.current is not None and app.announcer.current.text == said
        app.on_button(ButtonEvent(Button.ROLL))
        assert app.notice == t("fritzo.ui.no_dice", lang)
        for step in ("cell", "turn"):
            for index in range(len(view._step_values())):  # wherever the highlight stands
                view.index = index
                view._follow_level()
                app.frame(0.03, [])
                if index == 0:
                    pygame.image.save(app.display.window, str(OUT / f"fritzo_placing_banner_{step}_{lang}_"
                                                                    f"{len(players[0])}.png"))
                banner, strip = app._banner, app._strip[0]
                kept = [*view._building_rects(), *view.tab_rects(), *view.panel_rects()]
                for rect in (banner, strip):
                    assert not any(rect.colliderect(r) for r in kept), (step, index, rect)
                assert not banner.colliderect(TOP_BAR) and not banner.colliderect(strip), banner
            press(view, Button.SELECT)
    finally:
        app.close()


@pytest.mark.parametrize("lang", ["de", "en"])
@pytest.mark.parametrize("mode", ["level-one", "strategy"])
def test_the_start_rolls_notice_leaves_whose_roll_it_is_in_view(tmp_path, lang, mode):
    """Level One's start: the built-in cubes' notice (eight seconds) stood over the top line, "Großvater Johannes:
    Cube würfeln" and the clock, under and after the start's banner: the colours filled the panel from its top, and
    the only free full width was the top line. The colours stand two a row under the band kept over them, where the
    notice stands; the banner over the empty building beside them; the colours under neither."""
    from companion.app import GAME_ENTRIES
    from companion.i18n import t
    from companion.views.fritzo_view import TOP_BAR

    app, clock = _announcing_app(tmp_path, lang)
    try:
        app.new_game(GAME_ENTRIES["fritzo"], {"mode": mode, "_players": ("Großvater Johannes", "Mia"), "start": 0})
        view = app.mode
        app.frame(0.03, [])
        if mode == "strategy":  # the cube taken out named, its colours offered
            view.index = view._step_values().index("5")
            press(view, Button.SELECT)
        notice = app.notice
        assert notice is not None and t("fritzo.builtin_cubes_short", lang) in notice
        assert view.step == "menu" and app.session.engine.state.phase is Phase.START_ROLL
        for moment in range(12):  # the banner up, then the notice alone
            app.show_notice(notice, seconds=10, info=True)  # up all along (the start's own seconds are shorter)
            clock["now"] += 0.5
            app.frame(0.03, [])
            if moment in (0, 11):
                pygame.image.save(app.display.window, str(OUT / f"fritzo_start_roll_notice_{mode}_{lang}_{moment}.png"))
            assert app._strip is not None, moment
            strip, banner = app._strip[0], app._banner
            assert not strip.colliderect(TOP_BAR), (moment, strip)
            for r in view.panel_rects():  # the colours to answer
                assert not r.colliderect(strip) and not (banner and r.colliderect(banner)), (moment, r, banner)
            assert banner is None or not banner.colliderect(strip) and not banner.colliderect(TOP_BAR), banner
        assert app._banner is None or mode == "strategy"
    finally:
        app.close()


@pytest.mark.parametrize("lang", ["de", "en"])
@pytest.mark.parametrize("step", ["outcube", "cube"])
def test_the_room_kept_over_the_chooser_shows_the_cube_highlighted_large(tmp_path, monkeypatch, lang, step):
    """The band over the chooser, kept for banners and notices, stood empty whenever none was up, over nets whose
    faces are 14 px: the table compared the cube in hand (or the one taken out) with them from its seats. The cube
    highlighted stands there large, its faces and its number, within the band (what a banner covers there)."""
    from companion.views.fritzo_view import TOP_BAR

    view, session, _ = make(tmp_path, {"mode": "strategy", "players": ["Großvater Johannes", "Mia"]}, lang=lang)
    if step == "cube":
        take_out(view, "5")
        assert session.apply({"action": "roll", "dice": ["green"]}), session.error
        press(view, Button.SELECT)
    assert view.step == step
    for moves in (0, 4):
        for _ in range(moves):
            press(view, Button.NEXT)
        cid = view._step_values()[view.index]
        drawn = drawn_texts(view, monkeypatch, f"chooser_room_cube_{step}_{lang}_{moves}")
        room = view.notice_room
        big = [(size, rect) for text, size, rect in drawn if text == f"Cube {cid}"]
        assert big and big[0][0] >= theme.FAR and room.contains(big[0][1]), big
        faces = [rect for text, _, rect in drawn if text == "[swatch]" and room.contains(rect)]
        assert len(faces) == 6 and min(r.w for r in faces) >= 18, faces  # its net: six faces, larger than 14 px
        # all of it under a notice of two lines there (its last face stood alone under one)
        assert not any(r.colliderect(TOP_BAR) or r.bottom > TOP_BAR.bottom + 82 for r in faces)


@pytest.mark.parametrize("lang", ["de", "en"])
def test_a_notice_while_level_one_places_leaves_the_clock_the_plane_and_its_places_in_view(tmp_path, lang):
    """Level One, the clock running, a cube placed under the note of the one before: ROLL's "Bei Fritzo wird nur zu
    Beginn gewürfelt…" stood over the plane's lower rows, their places lit, the note's banner under it; kept off the
    plane, it stood over the top line and the running clock. It stands in the band between the two (the plane has
    no level tabs), the banner beside the plane."""
    from companion.app import GAME_ENTRIES
    from companion.i18n import t
    from companion.views.fritzo_view import TOP_BAR

    app, clock = _announcing_app(tmp_path, lang)
    try:
        app.new_game(GAME_ENTRIES["fritzo"], {"mode": "level-one", "_players": ("Großvater Johannes", "Mia"),
                                              "start": 0})
        app.frame(0.03, [])
        assert app.session.apply({"action": "roll", "dice": ["blue"]}), app.session.error
        _frames(app, clock, 20)
        app.on_button(ButtonEvent(Button.TIMER))
        _frames(app, clock, 8)
        view = app.mode
        for _ in range(4):  # cubes placed on the plane, each said in a note
            for _ in range(4):  # place, the first cube, its first place, its first position
                app.on_button(ButtonEvent(Button.SELECT))
            clock["now"] += 0.5
            app.frame(0.03, [])
        app.on_button(ButtonEvent(Button.SELECT))
        app.on_button(ButtonEvent(Button.SELECT))
        assert view.step == "cell" and view.clock_left() is not None
        app.on_button(ButtonEvent(Button.ROLL))
        assert app.notice == t("fritzo.ui.roll_start_only", lang)
        for step in ("cell", "turn"):
            for index in range(len(view._step_values())):
                view.index = index
                app.frame(0.03, [])
                if index == 0:
                    pygame.image.save(app.display.window, str(OUT / f"fritzo_level_one_notice_{step}_{lang}.png"))
                banner, strip = app._banner, app._strip[0]
                assert banner is not None and app.announcer.current is not None
                kept = [view._clock_rect(), *view._building_rects(), *view.panel_rects()]
                # the band itself clear of them: a notice laid out smaller to fit it stood 2 px over the positions
                rooms = view.notice_room if isinstance(view.notice_room, list) else [view.notice_room]
                assert not any(room.colliderect(r) for room in rooms for r in kept), (step, rooms)
                for rect in (banner, strip):
                    assert not any(rect.colliderect(r) for r in kept), (step, index, rect)
                assert not strip.colliderect(TOP_BAR) and not strip.colliderect(banner), strip
            app.on_button(ButtonEvent(Button.SELECT))
    finally:
        app.close()


@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_first_cubes_positions_leave_a_short_banner_room_at_the_panels_foot(tmp_path, monkeypatch, lang):
    """Team's first cube: its 24 positions filled the panel, and "Mia legt den ersten Cube." stood over the top line
    and cut the level tabs while one was picked. The positions stand above a foot kept for a banner of one line."""
    from companion.app import MENU_CORNER
    from companion.i18n import t
    from companion.views.banner import place
    from companion.views.fritzo_view import TOP_BAR

    view, _, _ = make(tmp_path, {"mode": "team", "target": "professional", "players": ["Mia", "Ben"]}, lang=lang)
    for _ in range(3):  # place, the first cube, its one place
        press(view, Button.SELECT)
    assert view.step == "turn" and len(view._step_values()) == 24
    shot(view, f"first_cube_positions_{lang}")
    positions = view.panel_rects()
    assert min(r.w for r in positions) >= 40  # still read and tapped
    monkeypatch.setattr(type(view), "_banner_up", lambda self: True)  # the banner placed below is up
    for key in ("fritzo.turn", "fritzo.open.first_cube"):
        said = t(key, lang, player="Mia")
        for index in (0, 23):
            view.index = index
            rect, _, _ = place((800, 480), said, view.focus_rect, 1.0, [MENU_CORNER], view.in_view)
            kept = [TOP_BAR, *view.tab_rects(), *positions, *view._building_rects()]
            assert not any(rect.colliderect(r) for r in kept), (key, index, rect)


@pytest.mark.parametrize("lang", ["de", "en"])
def test_choosing_a_cube_with_the_clock_running_the_banners_stand_in_the_band_kept_for_them(tmp_path, monkeypatch,
                                                                                           lang):
    """Level One, a cube picked while the clock runs (kept in view before all): "The clock is running: 10 minutes."
    and the start's banner stood at the foot over the cubes' third row (19-27) while the band between the top line
    and the question, kept for a banner, stood unused (``banner_room``). Each fills the band, one line or two: the
    clock's one line at the band's foot left the top 24 px of the cube highlighted, large there, above it."""
    from companion.views.fritzo_view import BANNER_ROOM, TOP_BAR

    app, clock, nets = _level_one_choosing_a_cube(tmp_path, monkeypatch, lang)
    view = app.mode
    try:
        assert view._choosing_cube() and view.clock_left() is not None
        seen = set()
        for moment in range(40):
            clock["now"] += 0.5
            nets.clear()
            app.frame(0.03, [])
            if app._banner is None:
                continue
            seen.add(app.announcer.current.text)
            banner = app._banner
            assert banner.top >= TOP_BAR.bottom and banner.bottom <= BANNER_ROOM, (moment, banner)
            assert not any(banner.colliderect(r) for r in view.panel_rects()), (moment, banner)
            large = [r for r in nets if r.top < BANNER_ROOM]  # the cube highlighted, large, in the band
            assert large and all(banner.contains(r) for r in large), (moment, banner, large)
            if moment == 20:
                pygame.image.save(app.display.window, str(OUT / f"fritzo_level_one_clock_banner_{lang}.png"))
        assert len(seen) >= 2, seen  # the start's banner, then the clock's
    finally:
        app.close()


@pytest.mark.parametrize("lang", ["de", "en"])
def test_a_notice_of_one_line_over_the_chooser_fills_the_band_the_large_cube_stands_in(tmp_path, monkeypatch, lang):
    """Choosing a cube, ROLL's "Bei Fritzo wird nur zu Beginn gewürfelt…" (one line) stood at the band's top and
    left the lower half of the cube highlighted, large there, and "Cube 1" cut under it. The band is kept for
    banners, which fill it: a notice there fills it too, its line in the middle."""
    from companion.i18n import t
    from companion.views.fritzo_view import BANNER_ROOM

    app, clock, nets = _level_one_choosing_a_cube(tmp_path, monkeypatch, lang)
    view = app.mode
    try:
        for _ in range(100):  # the start's and the clock's banners are over
            if app.announcer.idle:
                break
            _frames(app, clock, 1)
        assert view._choosing_cube() and app.announcer.idle
        app.on_button(ButtonEvent(Button.ROLL))
        assert app.notice == t("fritzo.ui.roll_start_only", lang)
        nets.clear()
        with recording_texts(monkeypatch) as drawn:
            app.frame(0.03, [])
        pygame.image.save(app.display.window, str(OUT / f"fritzo_chooser_notice_{lang}.png"))
        strip = app._strip[0]
        large = [r for r in nets if r.top < BANNER_ROOM]
        cube = [r for s, _, r in drawn if s.startswith("Cube ") and r.top < BANNER_ROOM]
        assert large and cube and all(strip.contains(r) for r in large + cube), (strip, large, cube)
        assert strip == view.notice_room == view.banner_room
        words = [(r, size) for s, size, r in drawn if s == t("fritzo.ui.roll_start_only", lang)]
        assert len(words) == 1 and words[0][1] >= theme.SMALL
        assert abs(words[0][0].centery - strip.centery) <= 4, (words, strip)
    finally:
        app.close()


@pytest.mark.parametrize("lang", ["de", "en"])
def test_a_notice_while_a_race_places_leaves_the_clock_and_the_building_in_view(tmp_path, lang):
    """Beginner against the clock, cubes placed on level one: ROLL's "Fritzo wird ohne Würfel gespielt…" stood over
    the top line and its running seconds (the level tabs leave no band under the top line as Level One's plane
    does), else over the building's bottom row. It stands under the status and the clock, over the mode's name."""
    from companion.app import GAME_ENTRIES
    from companion.i18n import t

    app, clock = _announcing_app(tmp_path, lang)
    try:
        app.new_game(GAME_ENTRIES["fritzo"], {"mode": "beginner", "minutes": 10, "_players": ("Mia",)})
        app.frame(0.03, [])
        view = app.mode
        for _ in range(3):  # the clock starts, place, the first cube
            app.on_button(ButtonEvent(Button.SELECT))
        for _ in range(4):  # cubes placed, the building's rows filled
            for _ in range(2):
                app.on_button(ButtonEvent(Button.SELECT))
            clock["now"] += 0.5
            app.frame(0.03, [])
            app.on_button(ButtonEvent(Button.SELECT))
            app.on_button(ButtonEvent(Button.SELECT))
        _frames(app, clock, 10)  # the notes' banners are over
        assert view.step == "cell" and view.clock_left() is not None and view.tab_rects()
        app.on_button(ButtonEvent(Button.ROLL))
        assert app.notice == t("fritzo.ui.no_dice", lang)
        for step in ("cell", "turn"):
            app.frame(0.03, [])
            OUT.mkdir(exist_ok=True)
            pygame.image.save(app.display.window, str(OUT / f"fritzo_race_notice_{step}_{lang}.png"))
            strip = app._strip[0]
            kept = [view._clock_rect(), *view._building_rects(), *view.panel_rects()]
            assert not any(strip.colliderect(r) for r in kept), (step, strip)
            app.on_button(ButtonEvent(Button.SELECT))
    finally:
        app.close()


@pytest.mark.parametrize("lang", ["de", "en"])
def test_teams_first_cube_the_built_in_cubes_notice_stands_under_the_actions_above_the_start_banner(tmp_path, lang):
    """Team's start: the built-in cubes' notice (two lines, ten seconds) stood over the top line (whose turn, the
    supply) while "Mia legt den ersten Cube." stood at the foot. It stands under the actions, over the empty
    building, clear of the banner, the top line and the level tabs, and stays there once the banner is gone."""
    from companion.app import GAME_ENTRIES
    from companion.i18n import t
    from companion.views.fritzo_view import TOP_BAR

    app, clock = _announcing_app(tmp_path, lang)
    try:
        app.new_game(GAME_ENTRIES["fritzo"], {"mode": "team", "target": "professional",
                                              "_players": ("Mia", "Großvater Johannes")})
        view = app.mode
        assert app.notice is not None and t("fritzo.builtin_cubes_short", lang) in app.notice
        for moment in range(3):
            app.frame(0.03, [])
            if moment == 0:
                OUT.mkdir(exist_ok=True)
                pygame.image.save(app.display.window, str(OUT / f"fritzo_team_start_notice_{lang}.png"))
                assert app._banner is not None
            strip, banner = app._strip[0], app._banner
            kept = [TOP_BAR, *view.tab_rects(), *view.panel_rects(), *([banner] if banner else [])]
            assert not any(strip.colliderect(r) for r in kept), (moment, strip, banner)
            clock["now"] += 3.0
    finally:
        app.close()


@pytest.mark.parametrize("lang", ["de", "en"])
def test_two_grandmothers_are_told_apart_on_the_scores_line_and_in_who_builds(tmp_path, lang):
    """"Großmutter Helga" and "Großmutter Hilde" were "Großmutter H.: 9" and "Großmutter H.: 0" on Strategy's scores
    line, and "Großmutter, Großmutter bauen" where the builders' names were shortened: each is named in a form only
    hers ("G. Helga"), the others as before."""
    from test_fritzo_engine import greedy_game

    setup = {"mode": "strategy", "players": ["Großmutter Helga", "Großmutter Hilde"], "starter": "Großmutter Helga",
             "excluded": "27"}
    view, _, _ = make(tmp_path / "strategy", setup, greedy_game({"action": "setup", **setup})[:12], lang=lang)
    shot(view, f"grandmothers_scores_{lang}")
    assert [name for name, _, _ in view.score_parts()] == ["G. Helga", "G. Hilde"]
    players = ["Großmutter Helga", "Großmutter Hilde", "Großvater Johannes", "Anna"]
    view, _, _ = make(tmp_path / "team", {"mode": "challenge", "players": players}, lang=lang)
    f = theme.font(theme.FAR)
    for room in (f.size(", ".join(players))[0] - 10, 200):  # short forms; then first words where they differ
        names = view._builders(room)[1].split(", ")
        assert len(set(names)) == len(players) and "Großmutter H." not in names and "Großmutter" not in names
    assert view._builders(200)[1].split(", ")[2:] == ["Großvater", "Anna"]


@pytest.mark.parametrize("lang", ["de", "en"])
def test_a_gift_and_the_next_turn_in_one_banner_stand_at_far_under_the_actions(tmp_path, lang):
    """Strategy's "Anna baut in den Farben von Ben: Ben bekommt 3 Punkte, zusammen 3. Ben ist dran." took 5 lines
    at BODY under the action list, over the lower half of "Joker": the sentence is short enough to stand at FAR in
    the column under the actions, clear of them and of the building."""
    from companion.announce import Announcement
    from companion.app import MENU_CORNER
    from companion.views.banner import place

    view, session, _ = _team_twelve_cubes_on(tmp_path, ["Anna", "Ben"], lang)
    assert view.step == "menu"
    gift = {"key": "fritzo.score.gift", "params": {"mover": "Anna", "player": "Ben", "points": 3, "total": 13}}
    said = Announcement(**gift).text(lang)
    for index in range(len(view._step_values())):
        view.index = index
        rect, font, _ = place((800, 480), said, view.focus_rect, 1.0, [MENU_CORNER], view.in_view)
        assert not any(rect.colliderect(r) for r in (*view._building_rects(), *view.panel_rects())), (index, rect)
        assert font.get_height() >= theme.font(theme.FAR, True).get_height(), said


@pytest.mark.parametrize("lang", ["de", "en"])
def test_beginner_and_professional_say_which_colours_touch(tmp_path, monkeypatch, lang):
    """Beginner and Professional have the same goal words (the rulebook gives both the same goal) and differ only
    in which colours may touch, which the screen said nowhere: a table could not tell the two apart. Under the
    actions the rule stands at BODY, clear of them, its words the level's own."""
    from companion.i18n import t
    from companion.views.fritzo_view import PANEL

    said = {}
    for mode, contact in (("beginner", "different"), ("challenge", "same"), ("professional", "same")):
        view, _, _ = make(tmp_path / mode, {"mode": mode, "players": ["Anna"]}, lang=lang)
        assert view.step == "menu"
        drawn = drawn_texts(view, monkeypatch, f"touching_rule_{mode}_{lang}")
        actions = view.panel_rects()
        under = [(text, size, rect) for text, size, rect in drawn
                 if PANEL.contains(rect) and rect.top > max(r.bottom for r in actions)]
        said[mode] = " ".join(text for text, _, _ in under)
        assert said[mode] == t(f"fritzo.ui.touching.{contact}", lang), under
        assert all(size == theme.BODY and not rect.collidelistall(actions) for _, size, rect in under), under
    assert said["beginner"] != said["professional"]


def test_a_warning_said_within_the_last_ten_seconds_is_that_second_s_tick(tmp_path, monkeypatch):
    """The warning first said within the last ten seconds (a frame late, a screen built again) carries the tick of
    its second: Fritzo's clock ticked once more over it, two ticks at once, where Haste Worte's sand ticks once."""
    view, session, clock, ticks = _level_one_running(tmp_path, monkeypatch, minutes=1)
    announcer = session.announcer
    clock.step(55)
    view.update(1 / 30, clock.mono)
    assert [a.key for a in announcer.queued].count("core.seconds_left") == 1 and ticks == []
    clock.step(1)
    view.update(1 / 30, clock.mono)
    assert ticks == [clock.mono]
