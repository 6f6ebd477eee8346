"""The Fritzo screen: the building layer by layer, the cubes left, and placing a cube in three picks.

Placing is always the same three steps, and each step offers only what the engine says is legal: pick the cube
(the cubes left, drawn as small unfolded nets), pick the place (legal cells light up on the layer grid; the layer
tabs follow), pick how it lies (the legal orientations, drawn as the top face with the four side colours around
it). NEXT moves the highlight, SELECT takes it, UNDO steps back; every item can also be tapped. Colours are never
shown by hue alone: swatches carry the shared patterns (``colour_faces``) and big ones their name.

Layout (800x480): two lines along the top for the whole table (the app's menu corner stays free at the top right):
what the table is asked now (whose turn, "Vorrat: 21") at LARGE with the clock beside it, then the scores (or
Team's supply) at FAR with the mode's name after them where room is left; the layer grid on the left; the step on
the right; button hints at the bottom. The menus, the grid and the notes are for who sits at the screen.

The start roll (Level One, Strategy) is read from the camera (one cube, its top colour) or entered on screen.
Strategy's roll is made with the one cube taken out of the box, which never comes into play: the screen asks which
cube that is before the roll is sent, so that it stays out and "Place" offers the 26 in play.
TIMER starts the agreed playing time; when the sand runs out the screen stamps ``time_up`` with the exact moment.
A restart that finds the wall clock before the clock's start stamp interrupts the clock (as Haste Worte does): the
time left is unknown, and the table starts it again or declares time's up.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

import pygame

from companion.games.fritzo import Fritzo, Mode, Phase
from companion.games.fritzo.cubeset import taught_colour
from companion.games.fritzo.geometry import EAST, NORTH, SOUTH, TOP, WEST, Cell, orient
from companion.games.fritzo.rules import check_goal
from companion.games.fritzo.solver import Placement, Status
from companion.hourglass import Phase as SandPhase
from companion.hourglass import Resume
from companion.i18n import MissingTranslation, t
from companion.views import theme
from companion.views.frame_clock import ClockCalls, FrameClock, undone_for_this_run
from companion.views.widgets import (
    LONG_LIST,
    draw_die_picture,
    draw_wrapped,
    first_choice,
    game_hint_bar,
    spanning,
)
from hardware.events import Button, ButtonEvent, Press
from vision.types import DiePicture, TrayReading

try:  # shared accessible swatches (colour + pattern), when installed
    from companion.views import colour_faces as _faces
except ImportError:  # pragma: no cover - depends on another module being present
    _faces = None

TOP_BAR = pygame.Rect(0, 0, 740, 66)  # the app's menu corner sits to the right of it
#: the top bar's two lines, read from the far end of the table: the status (LARGE, drawn 38 px high) and under it
#: the scores (FAR, 30 px), clear of the layer tabs and the panel's heading at y 70. Both were BODY and SMALL: the
#: scores' capitals 12 px, not read past the first seat
STATUS_Y = 0
SCORES_Y = 39
SCORE_SWATCH = 24
GRID_AREA = pygame.Rect(10, 118, 440, 318)
TABS_AREA = pygame.Rect(10, 70, 440, 42)
PANEL = pygame.Rect(462, 70, 328, 366)
#: the most a banner takes at the top of the screen (three lines at LARGE, ``banner.place``), its shadow included
BANNER_ROOM = 166
#: choosing a cube, the whole width under the heading (the building waits): 27 nets in the panel were crosses of 8 px
#: squares without their patterns, numbered at 16 px; here 9 a row, their squares patterned, the room under them kept
#: for the panel's note. The heading and the nets stand below the room a banner takes at the top (over the top line,
#: whose words the start's and a turn's banner say): at Strategy's start the banner stood for five seconds over the
#: cubes' second and third rows, where the table looked for the cube it had taken out. With no banner up, the room
#: shows the cube highlighted, large (``_draw_highlighted_cube``)
CHOOSER = pygame.Rect(TABS_AREA.x, BANNER_ROOM + 30, PANEL.right - TABS_AREA.x, PANEL.bottom - 30 - BANNER_ROOM - 30)
CHOOSER_COLUMNS = 9
#: placing, the net of the cube in hand at the panel's top (a notice stands under it: ``notice_room``)
CELL_NET = pygame.Rect(PANEL.x, PANEL.y + 44, 120, 160)
#: choosing a position, the room kept under them at the panel's foot: a banner of one line, its margins
TURN_FOOT = 100
#: the positions' top row, the ring round the one lit 4 px out: clear of a notice of three lines over the top line
#: (116 px, too long for ``notice_room``): 44 px under the panel's top left a damaged game's words over their top 6 px
TURN_TOP = PANEL.y + 50
#: the start roll's colours, two a row in the panel under the same room: listed from the panel's top, a notice had
#: no room but over the top line (Level One's built-in cubes, eight seconds over whose roll it is), and a banner
#: none but over the building, empty at the start, beside them
ROLL_AREA = pygame.Rect(PANEL.x, CHOOSER.y, PANEL.w, PANEL.bottom - CHOOSER.y)
#: the unsure start roll's cube as the camera saw it, beside the colours where the (still empty) building stands,
#: under the band a notice takes (``notice_room``): the other games show the die they ask about, Fritzo showed none
ROLL_PICTURE = pygame.Rect(GRID_AREA.x, BANNER_ROOM, GRID_AREA.w, GRID_AREA.bottom - BANNER_ROOM)
ROLL_COLUMNS = 2
FALLBACK_RGB = {"red": (214, 40, 40), "orange": (247, 127, 0), "yellow": (252, 210, 40), "green": (56, 160, 70),
                "blue": (40, 100, 210), "white": (240, 240, 235)}


def _rgb(colour: str) -> tuple[int, int, int]:
    if _faces is not None:
        style = _faces.colour_style(colour)
        if style is not None:
            return style[0]
    return FALLBACK_RGB.get(colour, (128, 128, 128))


def _ink(rgb: tuple[int, int, int]) -> tuple[int, int, int]:
    return (20, 20, 20) if 0.299 * rgb[0] + 0.587 * rgb[1] + 0.114 * rgb[2] > 140 else (245, 245, 245)


def swatch(surface: pygame.Surface, rect: pygame.Rect, colour: str, lang: str, *, named: bool = False) -> None:
    """A colour as a patterned square; with its name when there is room (the swatch is big)."""
    if named and _faces is not None:
        _faces.draw_colour_face(surface, rect, colour, lang)
        return
    rgb = _rgb(colour)
    pygame.draw.rect(surface, rgb, rect)
    if _faces is not None:
        style = _faces.colour_style(colour)
        if style is not None and min(rect.w, rect.h) >= 6:  # a cube's side bands too: 8 px bands were hue alone
            _faces.draw_pattern(surface, rect.inflate(-2, -2), style[1], _ink(rgb))
    pygame.draw.rect(surface, (10, 10, 12), rect, width=1)


def colour_name(colour: str, lang: str) -> str:
    """The colour as a sentence names it; a taught set's own name as its answer's line names it, with a capital (a
    name the table gave its colour, in every language): "Wer zuerst navy würfelt" stood over its answer "Navy"."""
    try:
        return t(f"fritzo.colour.{colour}", lang)
    except MissingTranslation:
        return taught_colour(colour)


def colour_label(colour: str, lang: str) -> str:
    """The colour's name as a list's line, with a capital (the catalogs' names have one: "Blue" in English too, as
    German's "Blau" and a taught "Navy", which stood beside "blue" in one sentence)."""
    name = colour_name(colour, lang)
    return name[:1].upper() + name[1:]


def draw_look(surface: pygame.Surface, rect: pygame.Rect, look: tuple[str, ...], lang: str, *,
              named: bool = False) -> None:
    """A cube seen from above: the top face in the middle, the four side colours as bands around it."""
    band = max(5, rect.w // 6)
    swatch(surface, rect.inflate(-2 * band, -2 * band), look[TOP], lang, named=named)
    for face, r in (
        (NORTH, pygame.Rect(rect.x + band, rect.y, rect.w - 2 * band, band)),
        (SOUTH, pygame.Rect(rect.x + band, rect.bottom - band, rect.w - 2 * band, band)),
        (WEST, pygame.Rect(rect.x, rect.y + band, band, rect.h - 2 * band)),
        (EAST, pygame.Rect(rect.right - band, rect.y + band, band, rect.h - 2 * band)),
    ):
        swatch(surface, r, look[face], lang)


#: the room beside a chooser's net for its number ("27" at SMALL)
NUMBER_W = 26


def chooser_cell(rect: pygame.Rect) -> tuple[pygame.Rect, tuple[int, int]]:
    """A cube's cell in the chooser: the rect its net fills and where its number stands (midleft), beside the net
    rather than under it: the rows are low enough for the room a banner takes above them."""
    net = pygame.Rect(rect.x + 2, rect.y + 2, rect.w - 4 - NUMBER_W, rect.h - 4)
    s = min(net.w // 3, net.h // 4)
    net.w = 3 * s
    net.x = rect.x + (rect.w - net.w - NUMBER_W) // 2
    return net, (net.right + 4, rect.centery)


def draw_net(surface: pygame.Surface, rect: pygame.Rect, faces: tuple[str, ...], lang: str) -> None:
    """A cube unfolded as a cross (north, west-top-east, south, bottom): every face visible in a small space."""
    s = min(rect.w // 3, rect.h // 4)
    x0 = rect.centerx - 3 * s // 2
    y0 = rect.centery - 2 * s
    for face, (cx, cy) in ((NORTH, (1, 0)), (WEST, (0, 1)), (TOP, (1, 1)), (EAST, (2, 1)), (SOUTH, (1, 2)),
                           (1, (1, 3))):
        swatch(surface, pygame.Rect(x0 + cx * s, y0 + cy * s, s, s), faces[face], lang)


def named_line(surface: pygame.Surface, parts: tuple[str, str, str], pos: tuple[int, int], room: int,
               largest: int, ink: tuple[int, int, int], *, bold: bool = False,
               players: Sequence[str] = ()) -> pygame.Rect:
    """A line naming a player (``parts``: before the name, the name, after it) from ``pos`` (its top left) within
    ``room``: as the other screens' far lines (``theme.far_lines``: whole at the largest size that fits down to
    FAR, else with the name shortened so); else the words kept at FAR and only the name fitted to what is left
    (``theme.fit_name``), so that "Großvater Johannes: Cube würfeln" still asks at FAR what to do. ``players``: the
    table's names, the name shortened to a form none of theirs takes (``theme.table_short_name``). Returns the rect
    drawn."""
    before, name, after = parts
    short = before + theme.table_short_name(name, players) + after
    (line,), at = theme.far_lines(before + name + after, largest, room, short=short, max_lines=1)
    if at >= theme.FAR or not name:
        return theme.text(surface, line, pos, at, ink, bold=bold)
    f = theme.font(theme.FAR, bold)
    short, size = theme.fit_name(name, theme.FAR, room - f.size(before + after)[0], bold, tuple(players))
    return draw_run(surface, ((before, theme.FAR), (short, size), (after, theme.FAR)), pos, ink, bold=bold)


def draw_run(surface: pygame.Surface, words: tuple[tuple[str, int], ...], pos: tuple[int, int],
             ink: tuple[int, int, int], *, bold: bool = False) -> pygame.Rect:
    """Pieces of one line at their own sizes on one baseline, the first's top left at ``pos`` (a name fitted
    smaller stands on the line of the words around it, not above it); returns the rect they take."""
    baseline = pos[1] + theme.font(words[0][1], bold).get_ascent()
    x, rect = pos[0], pygame.Rect(pos, (0, theme.font(words[0][1], bold).get_height()))
    for s, at in words:
        if not s:
            continue
        r = theme.text(surface, s, (x, baseline - theme.font(at, bold).get_ascent()), at, ink, bold=bold)
        rect, x = rect.union(r), r.right
    return rect


def split_on(key: str, lang: str, name: str, **params: Any) -> tuple[str, str, str]:
    """A message naming ``name`` cut around it (before, name, after), for ``named_line`` to fit the name alone."""
    mark = "\x00"
    text = t(key, lang, **params, player=mark)
    before, _, after = text.partition(mark)
    return before, name, after


def _star(surface: pygame.Surface, centre: tuple[int, int], radius: int) -> None:
    """A five-pointed star in the highlight's colour with a dark edge: the hint's place."""
    points = [(centre[0] + (radius if k % 2 == 0 else radius * 0.45) * math.sin(math.pi * k / 5),
               centre[1] - (radius if k % 2 == 0 else radius * 0.45) * math.cos(math.pi * k / 5)) for k in range(10)]
    pygame.draw.polygon(surface, theme.ACCENT, points)
    pygame.draw.polygon(surface, theme.BG, points, width=2)


class FritzoMode:
    """The Fritzo game screen (Mode protocol)."""

    def __init__(self, session: Any) -> None:
        self.session = session
        self.step = "menu"  # menu | outcube | cube | cell | turn | roll | remove | nofit | done
        #: the hints a finger presses as buttons: the app presses them as the buttons are (``App.on_tap``)
        self.hint_taps: list[tuple[pygame.Rect, ButtonEvent]] = []
        self.index = 0
        self.level = 0
        self.cube: str | None = None
        self.cell: Cell | None = None
        self.options: list[Placement] = []
        self.joker = False
        self.unsure_roll = False  # the camera could not read the start roll's cube: the colour chosen is taught
        self.roll_guess: Any = None  # the colour the reader found nearest for it (the question names it)
        #: Strategy: a roll made before the cube taken out was named (``take_out``, a step of the game's: a power
        #: cut keeps it) waits here until it is
        self.held: Callable[[], None] | None = None
        self.note = None
        self.hint: Placement | None = None
        self.player_index = 0  # Level One: whose plane is shown and edited
        self.purpose = "place"  # what the picked cube is for: place | return | pass
        # the app's clock for the whole run: a screen built again (resumed from the main menu) reads on from it
        self._clock: FrameClock = getattr(session, "frame_clock", None) or FrameClock(session.wall_time)
        self._resumed = False  # the first frame checks a running clock against the wall clock (a restart)
        #: the run of the clock (its start) whose end this screen stamped "time's up": once undone, it stays undone
        #: (the next frame stamped it again, and no UNDO reached past it)
        self._stamped: float | None = None
        self._calls = ClockCalls()  # its last minute, half minute and seconds, said once a run
        self._context: tuple[Any, ...] = ()
        #: what a frame asks for again and again (the building's colours 11 times, the menu 7), kept with the key it
        #: was computed for: the engine, the steps played, and what else it depends on (``_cached``)
        self._memo: dict[str, tuple[Fritzo, int, tuple[Any, ...], Any]] = {}

    # -- what to show ----------------------------------------------------------------------------------------------
    @property
    def game(self) -> Fritzo:
        return self.session.engine  # type: ignore[no-any-return]

    @property
    def lang(self) -> str:
        return self.session.lang

    @property
    def player(self) -> str | None:
        g = self.game
        if g.state.mode is Mode.LEVEL_ONE and g.state.phase is Phase.BUILDING:
            return g.state.players[self.player_index % len(g.state.players)]
        return g.current_player

    def wall_now(self) -> float:
        return self._clock.now()

    @property
    def has_hourglass(self) -> bool:
        """Whether TIMER means anything in this game: the modes played against the clock (the app says so else)."""
        return self.game.state.hourglass is not None

    @property
    def timer_not_now(self) -> str | None:
        """Why TIMER does nothing now, for the app to say (a press that did nothing and said nothing read as a
        broken button): the clock runs already, or starts after the start roll."""
        s, h, wall = self.game.state, self.game.state.hourglass, self.wall_now()
        if h is None or self.game.finished:
            return None
        if h.started_at is not None and h.is_running(wall):
            left = int(h.remaining(wall) + 0.999)
            return t("fritzo.timer.running", self.lang, time=f"{left // 60}:{left % 60:02d}")
        if s.phase is not Phase.BUILDING:
            return t("fritzo.timer.after_roll", self.lang)
        return None

    @property
    def roll_not_now(self) -> str | None:
        """What the app says to a ROLL this screen did not take: Fritzo builds with cubes, rolled (as a die) only for
        the start of Level One and Strategy; a press there did nothing, unsaid, and read as a broken button."""
        s = self.game.state
        if s.phase is Phase.START_ROLL:
            return None
        start = s.mode in (Mode.LEVEL_ONE, Mode.STRATEGY)
        return t("fritzo.ui.roll_start_only" if start else "fritzo.ui.no_dice", self.lang)

    def clock_left(self) -> float | None:
        """Seconds of the playing time left while it runs (the pause menu over it says so), else None."""
        h, wall = self.game.state.hourglass, self.wall_now()
        return h.remaining(wall) if h is not None and not self.game.finished and h.is_running(wall) else None

    def _sync(self) -> None:
        """Back to the menu whenever the game moved on (a placement, undo, a roll)."""
        s = self.game.state
        ctx = (len(s.building), sum(len(p) for p in s.planes.values()), s.phase, s.turn, len(s.out), len(s.done))
        if ctx != self._context:
            self._context = ctx
            self._reset()

    def _reset(self) -> None:
        self.step, self.index, self.cube, self.cell, self.options = "menu", 0, None, None, []
        self.unsure_roll, self.roll_guess = False, None  # a question of a roll that is gone (an undo, a step)
        self.joker = False
        if self._asks_start_cube():
            self.step = "outcube"
        s = self.game.state
        if s.mode is Mode.LEVEL_ONE and s.phase is Phase.OVER and len(s.winners) == 1:
            # the winner's plane, under "Won: Ben" (it showed the last plane looked at, maybe the loser's)
            self.player_index = s.players.index(s.winners[0])

    def _start_cube(self) -> str | None:
        """Strategy: the cube of the start roll, "der nicht ins Spiel kommt" (None: not named yet)."""
        s = self.game.state
        if s.mode is not Mode.STRATEGY:
            return None
        return s.out[0] if s.out else None

    def _asks_start_cube(self) -> bool:
        """Strategy's start roll is made with the one cube taken out of the box, which stays out of the game: the
        companion must know which, or "Place" offers 27 cubes of which one is not in play (13 each is 26)."""
        s = self.game.state
        return s.mode is Mode.STRATEGY and s.phase is Phase.START_ROLL and self._start_cube() is None

    def _start_faces(self) -> tuple[str, ...]:
        """The sides the start roll can show: Strategy's cube taken out, once named; else any colour of the set."""
        cube = self._start_cube()
        s = self.game.state
        return tuple(s.cubeset.cube(cube).faces) if cube is not None else tuple(s.cubeset.colours)

    def _roll_action(self, dice: list[Any]) -> dict[str, Any]:
        action: dict[str, Any] = {"action": "roll", "dice": dice}
        cube = self._start_cube()
        if cube is not None:
            action["cube"] = cube
        return action

    def _cached(self, name: str, key: tuple[Any, ...], compute: Callable[[], Any]) -> Any:
        """``compute()`` once for the engine, the number of steps and ``key``: a step (or UNDO, which rebuilds the
        engine) changes what the game is, ``key`` what else the answer depends on. Not kept for a session that
        counts no steps. The answer is shared: callers only read it."""
        actions = getattr(self.session, "actions", None)
        if actions is None:
            return compute()
        game, steps = self.game, len(actions)
        hit = self._memo.get(name)
        if hit is not None and hit[0] is game and hit[1] == steps and hit[2] == key:
            return hit[3]
        value = compute()
        self._memo[name] = (game, steps, key, value)
        return value

    def menu_items(self) -> list[tuple[str, str]]:
        """(value, label) of what can be done now (asked seven times a frame: cached, ``_cached``). Besides the
        steps, it depends on the language, whose plane is shown, the joker chosen, the clock standing (the wall
        clock, no step) and the cubes left (every one placed: "Take off" first)."""
        key = (self.lang, self.player, self.player_index, self.joker, self._clock_stands(),
               len(self.game.cubes_left(self.player)))
        return list(self._cached("menu_items", key, self._menu_items))

    def _menu_items(self) -> list[tuple[str, str]]:
        g = self.game
        s = g.state
        if s.phase is Phase.OVER:
            return []
        if s.phase is Phase.START_ROLL:  # Strategy: the colours of the cube taken out (a mis-tap chose the start)
            on_it = self._start_faces()
            return [(f"roll:{c}", colour_label(c, self.lang)) for c in s.cubeset.colours if c in on_it]
        done = s.mode is Mode.LEVEL_ONE and self.player in s.done  # nothing left to change on this plane
        stuck = self._all_placed_note() is not None
        items = [] if done or stuck else [("place", t("fritzo.ui.place", self.lang))]
        if s.hourglass is not None and s.hourglass.started_at is None:
            # the agreed time starts when the table says so: TIMER, or this line for a table with the touch screen
            # alone (the clock stayed at 10:00 and the limit was never kept)
            items.insert(0, ("timer", t("fritzo.ui.start_timer", self.lang)))
        if s.goal is not None:
            items.append(("hint", t("fritzo.ui.hint", self.lang)))
        if s.mode is Mode.TEAM:
            items.append(("return", t("fritzo.ui.return", self.lang)))
        if s.mode is Mode.STRATEGY:
            items.append(("pass", t("fritzo.ui.pass", self.lang)))
            if s.jokers.get(self.player or "", False):
                # words, not a tick: the bundled font has no ✓ (it showed an empty box)
                items.append(("joker", t("fritzo.ui.joker_on" if self.joker else "fritzo.ui.joker", self.lang)))
        if (s.mode is Mode.LEVEL_ONE or s.goal is not None and s.mode is not Mode.TEAM) and self.structure() \
                and not done:
            remove = ("remove", t("fritzo.ui.remove", self.lang))  # offered once there is a cube to take off
            items.insert(0 if stuck else len(items), remove)  # all placed: the way on comes first
        if s.mode is Mode.LEVEL_ONE:
            if not done and s.hourglass is not None and s.hourglass.started_at is not None:  # an empty plane done
                items.append(("done", t("fritzo.ui.done", self.lang)))  # before the clock ran was a slip, too
            other = s.players[(self.player_index + 1) % len(s.players)]
            items.append(("switch", t("fritzo.ui.switch", self.lang, player=other)))
        if self._clock_stands():  # the two ways on that the announcement names
            items += [("timer", t("fritzo.ui.restart_timer", self.lang)),
                      ("time_up", t("fritzo.ui.declare_time_up", self.lang))]
        return items

    def _all_placed_note(self) -> str | None:
        """Every cube placed alone and the goal not built: what is wrong, and the way on. The menu offered "Place"
        with no cube left to choose, and the table pressed at an empty list (found by random presses)."""
        g, s = self.game, self.game.state
        if s.goal is None or s.mode is Mode.TEAM or s.phase is not Phase.BUILDING or g.cubes_left(self.player):
            return None
        check = check_goal(self.structure(), s.goal)
        problem = t(check.problem, self.lang, **check.params) if check.problem else ""
        return " ".join(w for w in (problem, t("fritzo.ui.take_off", self.lang)) if w)

    def structure(self) -> dict[Cell, tuple[str, ...]]:
        """The building's (Level One: the plane shown) colours, cell by cell: read only, it is shared (asked eleven
        times a frame, each orienting every cube: cached on the steps and whose plane, ``_cached``)."""
        s = self.game.state
        if s.mode is Mode.LEVEL_ONE and s.phase is Phase.OVER:  # the winner's plane (``_reset``), not the first's
            who = s.players[self.player_index % len(s.players)]
        else:
            who = self.player
        return self._cached("structure", (who,), lambda: self.game.structure(who))  # type: ignore[no-any-return]

    def window(self) -> tuple[int, int, int, int]:
        """x0, y0, columns, rows of the cells shown: the building and the places offered, with one cell of room
        around them where the limits leave it (the whole of an empty table's goal)."""
        g = self.game
        cells = list(self.structure()) + [p.cell for p in self.options]
        lim = g.limits
        if not cells:
            return 0, 0, lim.width, lim.depth
        lo = [min(c[i] for c in cells) for i in range(2)]
        hi = [max(c[i] for c in cells) for i in range(2)]
        size = (lim.width, lim.depth)
        extent = [hi[i] - lo[i] + 1 for i in range(2)]
        # one cell of room each way where the limit leaves it: the places offered are lit, and all the room the limit
        # leaves made the first cubes' cells 32-42 px, small for a finger (a 9x9 grid for the one place of the first
        # cube). None where the places offered already span the limit (two cubes in a row of a 3x3 goal may grow at
        # either end: the window was once cut there, and legal places at both ends were neither drawn nor tappable)
        pad = [min(1, max(0, size[i] - extent[i])) for i in range(2)]
        return lo[0] - pad[0], lo[1] - pad[1], extent[0] + 2 * pad[0], extent[1] + 2 * pad[1]

    def cell_rects(self) -> dict[tuple[int, int], pygame.Rect]:
        x0, y0, cols, rows = self.window()
        size = min(GRID_AREA.w // cols, GRID_AREA.h // rows, 110)
        left = GRID_AREA.centerx - cols * size // 2
        top = GRID_AREA.centery - rows * size // 2
        # north is up on the screen: the highest y is the top row
        return {(x0 + i, y0 + j): pygame.Rect(left + i * size, top + (rows - 1 - j) * size, size - 3, size - 3)
                for i in range(cols) for j in range(rows)}

    def tab_rects(self) -> list[pygame.Rect]:
        n = self.game.limits.height
        if n <= 1:
            return []
        w = TABS_AREA.w // n
        return [pygame.Rect(TABS_AREA.x + i * w, TABS_AREA.y, w - 6, TABS_AREA.h) for i in range(n)]

    def panel_rects(self) -> list[pygame.Rect]:
        """Rects of the items of the current step in the right panel."""
        n = len(self._step_values())
        if self._rolling():
            w, h = ROLL_AREA.w // ROLL_COLUMNS, ROLL_AREA.h // max(3, -(-n // ROLL_COLUMNS))
            return [pygame.Rect(ROLL_AREA.x + (i % ROLL_COLUMNS) * w, ROLL_AREA.y + (i // ROLL_COLUMNS) * h, w - 8,
                                h - 8) for i in range(n)]
        if self.step in ("menu", "roll", "nofit", "done"):
            return [pygame.Rect(PANEL.x, PANEL.y + 44 + i * 54, PANEL.w, 48) for i in range(n)]
        if self._choosing_cube():
            w, h = CHOOSER.w // CHOOSER_COLUMNS, CHOOSER.h // max(3, -(-n // CHOOSER_COLUMNS))
            return [pygame.Rect(CHOOSER.x + (i % CHOOSER_COLUMNS) * w, CHOOSER.y + (i // CHOOSER_COLUMNS) * h, w - 8,
                                h - 8) for i in range(n)]
        if self.step == "turn":  # as large as all fit: 24 positions in rows of four ran 180 px off the screen; above
            # the room a turn's banner takes at the panel's foot (the first cube's 24 filled the panel, and "Mia ist
            # dran." stood over the top line and the level tabs)
            room = PANEL.bottom - TURN_TOP - TURN_FOOT
            size, cols = max((min(80, PANEL.w // c, room // -(-n // c)), c) for c in range(4, 7))
            return [pygame.Rect(PANEL.x + (i % cols) * size, TURN_TOP + (i // cols) * size, size - 8, size - 8)
                    for i in range(n)]
        return []

    @property
    def focus_rect(self) -> pygame.Rect | None:
        """What SELECT would choose, for the app's strips and banners to keep clear of: a green "undone" strip
        stood over "Time's up" highlighted, the last of six lines, and a refusal over the colour lit."""
        values = self._step_values()
        if not values:
            return None
        i = self.index % len(values)
        if self.step in ("cell", "remove", "turn"):
            # a place is chosen, and a position judged, against the building round it (the position highlighted
            # stands in its place there): the place lit alone left a banner the room beside it, over the building's
            # other columns and its level tabs, and a notice the building's bottom row, its places lit
            return next(iter(spanning(self._building_rects())), None)
        rects = self.panel_rects()
        if self._rolling():  # the colour is chosen among them all: beside the highlight in the other column, a
            return spanning(rects)[0]  # banner found no room but over the top line, and the notice waited for it
        return rects[i] if i < len(rects) else None

    @property
    def in_view(self) -> list[pygame.Rect]:
        """What the table is to answer now, for a banner to stand elsewhere where it fits (``banner.place``'s
        ``spare``): the start roll's colours ("Mia rolled red…" covered the list the roll is answered from, only the
        highlighted colour spared) and the cubes to choose from (which one stays out, which one to place) with the
        question over them; placing, the building (its places lit) and the positions to pick ("Ben ist dran" stood
        over the building's bottom row while the cube was placed there); the top line last: a banner over it says who
        is to act, as the line does. The running clock before all: the table watches its seconds (Level One's notes
        of every cube placed would stand over it)."""
        clock = [self._clock_rect()] if self.clock_left() is not None else []
        if self._choosing_cube():
            question = pygame.Rect(CHOOSER.x, BANNER_ROOM, CHOOSER.w, CHOOSER.y - BANNER_ROOM)
            return [*clock, *spanning(self.panel_rects()), question, TOP_BAR]
        if self.step in ("cell", "turn", "remove"):
            kept = [*clock, *spanning(self._building_rects()), *spanning(self.panel_rects()), TOP_BAR]
            if self._banner_up():  # it stands beside the building, over its empty places, or over the top line
                return kept
            # no banner up: what a notice too long for ``notice_room`` spares first, the whole grid, its empty places
            # too, before the running clock: at the foot where it covered no cube it stood over the bottom row (30 px
            # of it showing), over the top line (and the clock, for its seconds, a tap puts it away) it leaves it all
            return [*spanning(list(self.cell_rects().values())), *kept]
        if self.game.state.phase is Phase.START_ROLL and self.step in ("menu", "roll"):  # then the top line: the
            picture = [ROLL_PICTURE] if self._roll_picture() is not None else []  # banner over the empty building,
            return [*spanning(self.panel_rects()), *picture, TOP_BAR]  # beside the colours (the cube asked about)
        if self.step in ("menu", "roll", "nofit"):  # the building between turns too, and the actions: a turn's
            # banner, right after a cube was placed, stood over the building's bottom row and the cube placed there;
            # now under the short list of actions (``banner.place``'s column under the highlighted action)
            return [*clock, *spanning(self._building_rects()), *spanning(self.panel_rects()), TOP_BAR]
        return []

    @property
    def banner_room(self) -> pygame.Rect | None:
        """Choosing a cube, the band between the top line and the question, kept for a banner (``banner.place``'s
        ``room``): with Level One's clock running, kept in view before all, "The clock is running: 10 minutes." and
        every turn's banner stood at the foot over the cubes' third row (19-27) while the band stood unused."""
        if not self._choosing_cube():
            return None
        return pygame.Rect(0, TOP_BAR.bottom, theme.DESIGN_SIZE[0], BANNER_ROOM - TOP_BAR.bottom)

    @property
    def notice_room(self) -> pygame.Rect | list[pygame.Rect] | None:
        """Choosing a cube, the band between the top line and the question, kept for a banner: a notice without one
        stands there (the App's), not over the top line or the cubes' third row. At the start roll the same band
        over the colours (the building beside them is empty then): Level One's built-in cubes' notice stood over
        whose roll it is for its eight seconds. Placing on Level One's plane (no level tabs), the band between the
        top line and the plane: over the top line ROLL's notice hid the running clock, under it the plane's places
        lit. A race's levels (Beginner, Challenge, Professional against the clock): under the top line's status and
        clock, over the mode's name and the level tabs: over the top line the notice hid the seconds the table races
        against, at the foot the building's bottom row (the tabs' level is the one the building shows). Placing
        with no banner up, these give way to the right column beside the building (``_placing_room``). Placing
        against the clock, last the top left beside the clock down to that band's foot, over whose turn it is
        (the App takes the first room a notice fits): a damaged game's three lines fit neither the column nor the
        band, and stood over the top line and the seconds."""
        if self.step in ("cell", "turn", "remove"):
            rooms = [room] if (room := self._placing_room()) is not None else []
            clock = self._clock_rect() if self.clock_left() is not None else None
            if not self.tab_rects():
                # above the positions to pick too: a notice laid out smaller to fit the room stood 2 px over them
                plane = min((r.top for r in [*self.cell_rects().values(), *self.panel_rects()]),
                            default=GRID_AREA.top)
                rooms.append(pygame.Rect(0, TOP_BAR.bottom + 2, theme.DESIGN_SIZE[0], plane - 2 - TOP_BAR.bottom - 2))
            elif clock is not None:
                top = clock.bottom + 2
                rooms.append(pygame.Rect(0, top, theme.DESIGN_SIZE[0], TABS_AREA.bottom - top))
            if clock is not None and rooms:
                # as wide as the clock's digits all "0" leave (they are drawn narrower or wider by a pixel; the room
                # and the notice's lines in it stay put as the seconds run)
                zeros = theme.font(theme.LARGE, True).size(re.sub(r"\d", "0", self._clock_label()))[0]
                rooms.append(pygame.Rect(0, 0, TOP_BAR.right - 8 - zeros - 8, rooms[-1].bottom))
            if len(rooms) > 1:
                return rooms
            if rooms:
                return rooms[0]
        if self.step == "menu" and self.game.state.phase is not Phase.START_ROLL and not self._building_rects():
            # the first cube: under the actions, over the empty building above a banner at its foot (Team's
            # built-in cubes' notice, two lines for ten seconds, stood over whose turn it is and the supply)
            top = max((r.bottom for r in self.panel_rects()), default=PANEL.y) + 2
            return pygame.Rect(0, top, theme.DESIGN_SIZE[0], GRID_AREA.bottom - top)
        if not (self._choosing_cube() or self._rolling()):
            return None
        return pygame.Rect(0, TOP_BAR.bottom, theme.DESIGN_SIZE[0], BANNER_ROOM - TOP_BAR.bottom)

    def _placing_room(self) -> pygame.Rect | None:
        """Placing, the right column beside the building under what the panel shows (the cube in hand, the positions
        to pick), down to the hint bar: the start's notices ("Gespielt wird mit den eingebauten Cubes…", ROLL's
        "Fritzo wird ohne Würfel gespielt…") stood at the foot over the building's bottom row, 30 px of it showing.
        None while a banner is up: it stands in that column (``in_view``), and the notice over the top line."""
        if self._banner_up():
            return None
        left = max((r.right for r in self.cell_rects().values()), default=GRID_AREA.right) + 8
        top = CELL_NET.bottom + 6 if self.step == "cell" else PANEL.y + 44  # under the cube in hand, or the heading
        top = max([top, *(r.bottom + 6 for r in self.panel_rects())])  # the position lit: its ring is 4 px out
        bottom = theme.DESIGN_SIZE[1] - 40
        if (note_top := self._foot_note()[2]) < bottom:
            # above the note at the panel's foot ("Cube 1 does not fit there…", what a tap on an unlit place was
            # answered: its first line stood under the notice), the room as tall as it was, over the net of the cube
            # in hand where it must (the cube is in the placer's hand; the clock and the building stay in view)
            floor = PANEL.y + 44 if self.step == "cell" else top
            top, bottom = max(floor, min(top, note_top - 6 - (bottom - top))), note_top - 6
        return pygame.Rect(left, top, theme.DESIGN_SIZE[0] - left, bottom - top) if bottom - top >= 60 else None

    def _foot_note(self) -> tuple[list[str], int, int]:
        """The note at the panel's foot (what a press was answered, or why nothing is left to place): its lines,
        their size and the top of the first; no lines and the panel's bottom without one."""
        note = self.note or (self._all_placed_note() if self.step == "menu" else None)
        if not note:
            return [], theme.SMALL, PANEL.bottom
        width = CHOOSER.w if self._choosing_cube() else PANEL.w
        # on two lines where one would shrink it past reading (three: what is wrong, and the way on)
        lines, size = theme.fit_lines(note, theme.SMALL, width, 2 if note is self.note else 3)
        top = PANEL.bottom - 4 - (len(lines) - 1) * (size + 6) - theme.font(size).get_height()
        return list(lines), size, top

    def _banner_up(self) -> bool:
        """A banner is shown (the App's announcer, the session's): it takes the room a notice would have."""
        return getattr(getattr(self.session, "announcer", None), "current", None) is not None

    def _building_rects(self) -> list[pygame.Rect]:
        """The cells of the grid that show something on the level shown: a cube, one a level down, a place lit. The
        empty ones are not kept in view: with the first cube's one place lit, a notice stood over the top line
        rather than over the empty cells under the place."""
        structure, lit = self.structure(), set(self._step_values()) if self.step in ("cell", "remove") else set()
        if self.cell is not None and self.step == "turn":
            lit.add(self.cell)
        return [r for (x, y), r in self.cell_rects().items()
                if {(x, y, self.level), (x, y, self.level - 1)} & (structure.keys() | lit)]

    def _choosing_cube(self) -> bool:
        return self.step in ("cube", "outcube")

    def _rolling(self) -> bool:
        """The start roll's colours are up (under the room kept over them, ``ROLL_AREA``)."""
        return self.step in ("menu", "roll") and self.game.state.phase is Phase.START_ROLL

    def _step_values(self) -> list[Any]:
        if self.step in ("menu", "roll"):
            return [v for v, _ in self.menu_items()]
        if self.step == "nofit":
            return [v for v, _ in self._nofit_items()]
        if self.step == "done":
            return [v for v, _ in self._done_items()]
        if self.step == "cube":
            return self.game.cubes_left(self.player)
        if self.step == "outcube":
            return list(self.game.state.cubeset.ids)
        if self.step == "cell":
            return sorted({p.cell for p in self.options}, key=lambda c: (c[2], -c[1], c[0]))
        if self.step == "turn":
            return [p for p in self.options if p.cell == self.cell]
        if self.step == "remove":
            s = self.structure()
            return sorted((c for c in s if (c[0], c[1], c[2] + 1) not in s), key=lambda c: (c[2], -c[1], c[0]))
        return []

    def _done_items(self) -> list[tuple[str, str]]:
        """Level One's "Done" asks first: it cannot be taken back but by UNDO, and who finishes first wins a tie, so
        a slip of the finger decided the game. "Keep building" comes first: a second SELECT changes nothing."""
        return [("back", t("fritzo.ui.keep_building", self.lang)),
                ("done", t("fritzo.ui.done_sure", self.lang, player=self.player))]

    def _nofit_items(self) -> list[tuple[str, str]]:
        s = self.game.state
        items = []
        if s.mode is Mode.TEAM:
            items.append(("return", t("fritzo.ui.return", self.lang)))
        if s.mode is Mode.STRATEGY:
            items.append(("pass", t("fritzo.ui.pass", self.lang)))
        return items + [("back", t("fritzo.ui.back", self.lang))]

    # -- input --------------------------------------------------------------------------------------------------
    def on_dice(self, reading: TrayReading) -> None:
        """The start roll: the camera reads the rolled cube's top colour. Not one cube read (a cube left in the tray
        from before, or none seen): the engine says so, rather than the first of two taken as the roll."""
        if self.game.state.phase is not Phase.START_ROLL:
            return
        if len(reading.dice) != 1:
            self.unsure_roll, self.roll_guess = False, None  # that question was about another reading
            self.session.apply({"action": "roll", "dice": [d.face for d in reading.dice]})
            return
        if self._asks_start_cube():  # read now, sent once the table has said which cube it was
            self.held = partial(self.on_dice, reading)
            return
        face = reading.dice[0].face
        self.unsure_roll = not isinstance(face, str)
        if self.unsure_roll:  # asked above the colours, which start on the reader's guess (SELECT confirms it): the
            self.roll_guess = reading.dice[0].guess  # engine's refusal stood as a red strip over the colour lit
            self.index = first_choice(self._step_values(), f"roll:{self.roll_guess}")
            return
        self._send_roll(face)

    def _roll_picture(self) -> DiePicture | None:
        """The cube the unsure start roll asks about, as the camera saw it (None without a camera's picture)."""
        if not self.unsure_roll or self.game.state.phase is not Phase.START_ROLL:
            return None
        return self.session.picture_of(0)

    def dice_to_throw(self) -> list[tuple[str, ...]]:
        """The die the table throws for the start (virtual; the built-in tray throws it too): one colour die, in
        Strategy the cube taken out, once named (a colour it lacks is refused)."""
        return [self._start_faces()]

    def _virtual_roll(self) -> None:
        self._send_roll(self.session.virtual_roll(self.dice_to_throw())[0])

    def on_button(self, event: ButtonEvent) -> bool:
        self._sync()
        b = event.button
        if b is Button.TIMER:  # held too, as a child holds it: the clock starts as pressed (it did nothing, unsaid)
            return self._timer()
        if event.press is Press.LONG:
            return False
        if b in (Button.ROLL, Button.REROLL) and self.game.state.phase is Phase.START_ROLL:
            # REROLL too: the start is rolled again and again until the colour comes (it did nothing, unsaid)
            if getattr(self.session, "camera_ready", False):
                # the camera reads the cube rolled (a tap on ROLL's hint as the button); the built-in tray throws
                # the cube taken out, so that is named first
                if self._asks_start_cube():
                    self.held = self.session.ask_for_dice
                else:
                    self.session.ask_for_dice()
            else:
                if self._asks_start_cube():  # thrown once the cube is named: its colours are what it can show
                    self.held = self._virtual_roll
                else:
                    self._virtual_roll()
            return True
        if b is Button.SELECT and self._refusal_shown():
            # a refused start roll's strip ("one cube: I saw 2"): SELECT puts it away, as a tap on it does. The
            # highlight sits on a colour there, and the SELECT meant as "understood" entered it as the roll: who
            # starts was decided by a slip
            self.session.error = None
            return True
        values = self._step_values()
        if b.step and values:
            # one place (the first cube's): nothing to move to, a press nothing takes the App answers, unless the
            # level shown was another and goes back to the place's
            level = self.level
            self.index = (self.index + b.step) % len(values)
            self._follow_level()
            return len(values) > 1 or self.level != level
        if b is Button.SELECT and values:
            if self.step == "menu" and values[self.index % len(values)] == "hint" and self._hint_shown():
                return False  # the same star and words again: a press nothing takes, the App answers it
            self._choose(values[self.index % len(values)])
            return True
        if b is Button.UNDO and self.step not in ("menu", "outcube"):  # else UNDO opens the app's menu
            self._back()
            return True
        return False

    def _refusal_shown(self) -> bool:
        return self.game.state.phase is Phase.START_ROLL and bool(getattr(self.session, "error", None))

    def on_tap(self, pos: tuple[int, int]) -> bool:
        self._sync()
        for i, r in enumerate(() if self._choosing_cube() else self.tab_rects()):
            if r.collidepoint(pos):
                self.level = i
                return True
        grid = self.cell_rects().items() if self.step in ("cell", "remove", "turn") else ()
        hit = next(((*cell, self.level) for cell, r in grid if r.collidepoint(pos)), None)
        if hit is not None and self.step == "turn" and hit != self.cell and hit in {p.cell for p in self.options}:
            self.step = "cell"  # another lit place, choosing the position: the table changed its mind
        if hit is not None and self.step in ("cell", "remove"):
            values = self._step_values()
            if hit in values:
                self.index = values.index(hit)
                self._choose(hit)
                return True
            if self.step == "cell":  # a place that is not lit: said, not silently nothing
                self.note = t("fritzo.ui.not_here", self.lang, cube=self.cube)
                return True
        values = self._step_values()
        for i, r in enumerate(self.panel_rects()):
            if r.collidepoint(pos) and i < len(values):
                self.index = i
                self._choose(values[i])
                return True
        return False

    def _follow_level(self) -> None:
        values = self._step_values()
        if self.step in ("cell", "remove") and values:
            self.level = values[self.index % len(values)][2]

    def _back(self) -> None:
        if self.step == "turn":
            self.step, self.index = "cell", 0
        elif self.step == "cell":
            self.step, self.index = "cube", 0
        else:
            self._reset()

    def _choose(self, value: Any) -> None:
        g = self.game
        self.note = None
        if self.step in ("menu", "roll"):
            self._menu(value)
        elif self.step == "outcube":
            held, self.held = self.held, None
            self._send({"action": "take_out", "cube": value})
            if held is not None and self.game.state.out:  # the roll made before the cube was named
                held()
        elif self.step == "nofit":
            if value == "back":
                self._reset()
            else:
                self._send({"action": value, "cube": self.cube})
        elif self.step == "done":
            self._reset()
            if value == "done":
                self._send({"action": "done", "player": self.player, "at": self.wall_now()})
        elif self.step == "cube":
            self.cube = value
            if self.purpose in ("pass", "return"):
                # a cube that fits may not be passed (Strategy) nor put back (Team: "Kann ein Spieler seinen Cube
                # nicht ... anlegen, muss er ihn wieder zurück in den Vorrat legen"): its places light up to be
                # chosen, rather than a refusal naming a place by coordinates the grid does not show (Team's
                # engine takes it still: journals holding one replay)
                self.options = g.legal_placements(value, self.player)
                if self.options:
                    self.purpose, self.joker, self.note = "place", False, t("fritzo.ui.still_fits", self.lang,
                                                                            cube=value)
                    self.step, self.index = "cell", 0
                    self._follow_level()
                    return
            if self.purpose in ("return", "pass"):
                self._send({"action": self.purpose, "cube": value})
                return
            self.options = g.legal_placements(value, self.player, joker=self.joker)
            if not self.options:
                self.note = t("fritzo.ui.no_fit", self.lang)
                self.step, self.index = "nofit", 0
                return
            self.step, self.index = "cell", 0
            self._prefer_hint()
            self._follow_level()
        elif self.step == "cell":
            self.cell = value
            self.step, self.index = "turn", 0
            if self.hint is not None and self.hint.cell == value:
                turns = self._step_values()
                same = [i for i, p in enumerate(turns) if self._look(p) == self._look(self.hint)]
                self.index = same[0] if same else 0
        elif self.step == "turn":
            p: Placement = value
            action = {"action": "place", "cube": p.cube, "cell": list(p.cell), "rotation": p.rotation,
                      "at": self.wall_now()}
            if g.state.mode is Mode.LEVEL_ONE:
                action["cell"] = list(p.cell)
            if self.player is not None:
                action["player"] = self.player
            if self.joker:
                action["joker"] = True
            self._send(action)
        elif self.step == "remove":
            action = {"action": "remove", "cell": list(value), "at": self.wall_now()}
            if g.state.mode is Mode.LEVEL_ONE:
                action["player"] = self.player
            self._send(action)

    def _menu(self, value: str) -> None:
        if value.startswith("roll:"):
            if self.unsure_roll:  # the table says what the camera could not read: an example for the evening
                self.session.confirm_face(0, value[5:])
                self.unsure_roll = False
            self._send_roll(value[5:])
        elif value == "place":
            self.purpose, self.step, self.index = "place", "cube", 0
        elif value in ("return", "pass"):
            self.purpose, self.step, self.index = value, "cube", 0
        elif value == "joker":
            self.joker = not self.joker
        elif value == "remove":
            self.step, self.index = "remove", 0
            self._follow_level()
        elif value == "done":
            self.step, self.index = "done", 0
        elif value == "switch":
            self.player_index = (self.player_index + 1) % len(self.game.state.players)
        elif value == "hint":
            self._hint()
        elif value == "timer":
            self._timer()
        elif value == "time_up":
            self._send({"action": "time_up", "at": self.wall_now()})

    def _hint(self) -> None:
        result = self.game.hint_completion(node_limit=150_000)
        if result.status is Status.FOUND and result.placements:
            self.hint = result.placements[0]
            self.note = t("fritzo.ui.hint_found", self.lang, cube=self.hint.cube, level=self.hint.cell[2] + 1)
            self._hint_noted = True
        else:
            self.hint = None
            key = "fritzo.ui.hint_none" if result.status is Status.NONE else "fritzo.ui.hint_unknown"
            self.note = t(key, self.lang)

    def _hint_shown(self) -> bool:
        """The hint found stands on the screen, its star and its words: "Hint" pressed again searched again for the
        same and was reported taken, so the App's answer to a press nothing takes (two low notes, the hint bar lit)
        did not sound, and the table pressed it again and again. Words gone (a cube picked and put back), it shows
        them again."""
        return self.hint is not None and self._hint_noted

    @property
    def note(self) -> str | None:
        """The words under the panel. Any words set (or none) are no longer the hint's: ``_hint`` marks its own
        after setting them, so ``_hint_shown`` asks a flag rather than comparing translated text."""
        return self._note

    @note.setter
    def note(self, text: str | None) -> None:
        self._note = text
        self._hint_noted = False

    def _prefer_hint(self) -> None:
        if self.hint is not None and self.hint.cube == self.cube:
            cells = self._step_values()
            if self.hint.cell in cells:
                self.index = cells.index(self.hint.cell)

    def _look(self, p: Placement) -> tuple[str, ...]:
        return orient(self.game.state.cubeset.cube(p.cube).faces, p.rotation)

    def _send_roll(self, colour: str) -> None:
        """The start roll, refused here where Strategy's cube taken out has no side of that colour (a misread or a
        slip chose who starts): the engine takes any colour of the set, as journals before this check hold."""
        cube = self._start_cube()  # (any other colour the engine refuses in its own words)
        if cube is not None and colour not in self._start_faces():
            self.session.error = t("fritzo.err.roll_not_on_cube", self.lang, cube=cube, colour=colour_name(colour,
                                                                                                          self.lang))
            return
        self._send(self._roll_action([colour]))

    def _send(self, action: dict[str, Any]) -> None:
        if self.session.apply(action):
            self.hint = None
        self._reset()
        self._sync()

    def _clock_stands(self) -> bool:
        """The clock started and not running: a restart interrupted it, or its "time's up" was undone (it stood at
        0:00 with nothing to press). The table starts it again or declares time's up."""
        s = self.game.state
        h = s.hourglass
        return h is not None and h.started_at is not None and s.phase is Phase.BUILDING and (
            h.interrupted or h.phase(self.wall_now()) is SandPhase.EXPIRED)

    def _timer(self) -> bool:
        s = self.game.state
        h = s.hourglass
        if h is None or (h.started_at is not None and not self._clock_stands()) or s.phase is not Phase.BUILDING:
            return False
        return bool(self.session.apply({"action": "start", "at": self.wall_now()}))

    # -- the clock -----------------------------------------------------------------------------------------------
    def update(self, dt: float, now: float) -> None:
        """``dt`` is ignored: the playing time is computed from the start stamp, never from summed frames."""
        # the App ticked this same clock with this same ``now`` (a no-op then); a screen run alone needs it
        self._clock.tick(now)
        self._sync()
        h = self.game.state.hourglass
        if h is None or h.started_at is None or self.game.finished:
            self._resumed = True  # a clock started from here on was started on this screen's clock
            return
        wall = self.wall_now()
        if not self._resumed:
            self._resumed = True
            outcome = h.resume(wall)
            if outcome is Resume.CLOCK_UNTRUSTED:  # as in Haste Worte: the time left is unknown
                self.session.apply({"action": "timer_interrupted", "at": wall})
                return
            if outcome is Resume.EXPIRED_WHILE_OFF and undone_for_this_run(self.session, "time_up", h):
                self._stamped = h.started_at  # its "time's up" undone before the restart stays undone
        phase = h.phase(wall)
        if phase is SandPhase.RUNNING:
            self._calls.update(h, wall, getattr(self.session, "announcer", None))
        elif phase is SandPhase.EXPIRED and h.started_at is not None and self._stamped != h.started_at:
            self._stamped = h.started_at
            self.session.apply({"action": "time_up", "at": h.expires_at()})

    # -- drawing ------------------------------------------------------------------------------------------------
    def draw(self, surface: pygame.Surface) -> None:
        self._sync()
        surface.fill(theme.BG)
        self._draw_top(surface)
        if (picture := self._roll_picture()) is not None:
            draw_die_picture(surface, picture, ROLL_PICTURE)
        elif not self._choosing_cube():
            self._draw_grid(surface)
        self._draw_panel(surface)
        self.hint_taps = game_hint_bar(surface, self.hints(), self.lang)

    def hints(self) -> list[tuple[str, str]]:
        """The buttons that do something now, for the hint bar. The start roll names ROLL first: the screen says
        "roll the cube", and ROLL is what reads it (or rolls it, without a camera); the colours below are for a
        cube rolled by hand."""
        hints: list[tuple[str, str]] = []
        if self.game.state.phase is Phase.START_ROLL:
            hints.append((t("core.btn_roll", self.lang), t("core.hint_roll", self.lang)))
        if values := self._step_values():
            select = "fritzo.ui.select_understood" if self._refusal_shown() else "fritzo.ui.select"
            # the 27 cubes, up to 73 places: a held NEXT runs through them, as the menus' long lists say
            move = "core.hint_move_hold" if len(values) > LONG_LIST else "fritzo.ui.next"
            if len(values) > 1:  # the first cube's one place: NEXT moves nothing (the App answers it)
                hints.append((t("core.btn_next", self.lang), t(move, self.lang)))
            hints.append((t("core.btn_select", self.lang), t(select, self.lang)))
        s = self.game.state
        h = s.hourglass
        if h is not None and (h.started_at is None or self._clock_stands()) and s.phase is Phase.BUILDING:  # _timer
            hints.append((t("core.btn_timer", self.lang), t("fritzo.ui.timer", self.lang)))
        if self.step not in ("menu", "outcube"):
            # the bar's "back", as on every screen: "fritzo.ui.back" is the list's line ("Back"), capitalised
            hints.append((t("core.btn_undo", self.lang), t("core.hint_back", self.lang)))
        return hints

    def _draw_top(self, surface: pygame.Surface) -> None:
        """Two lines for the whole table: what it is asked now beside the clock, then the scores (Team: the
        supply) and the mode's name where room is left."""
        s = self.game.state
        h = s.hourglass
        clock = pygame.Rect(TOP_BAR.right, STATUS_Y, 0, 0)
        if h is not None and h.interrupted and s.phase is not Phase.OVER:  # not the full time standing still
            label = t("fritzo.ui.interrupted", self.lang)
            clock = theme.text(surface, label, (TOP_BAR.right - 8, STATUS_Y),
                               theme.fit_text(label, theme.LARGE, 220, True), theme.WARN, bold=True, anchor="topright")
        elif h is not None and s.phase is not Phase.OVER:
            # before TIMER the agreed time stands there dimmed: the table sees what the setup agreed on
            colour = theme.MUTED if h.started_at is None else theme.WARN if h.warning(self.wall_now()) else theme.TEXT
            clock = theme.text(surface, self._clock_label(), (TOP_BAR.right - 8, STATUS_Y), theme.LARGE, colour,
                               bold=True, anchor="topright")
        ink, table = theme.TEXT, s.players
        if s.phase is Phase.OVER:
            parts, ink = ("", "", t("fritzo.ui.over", self.lang)), theme.GOOD
        elif s.phase is Phase.START_ROLL:
            parts = split_on("fritzo.ui.roll_prompt", self.lang, s.players[s.turn])
        elif s.mode is Mode.LEVEL_ONE and self.player is not None:
            parts = split_on("fritzo.ui.plane", self.lang, self.player)
        elif self.player is not None:
            parts = split_on("fritzo.ui.turn", self.lang, self.player)
        elif s.goal is not None:  # Beginner, Challenge, Professional: no turns; who builds (the end names them)
            parts, table = self._builders(clock.left - 16 - 12), ()  # its names are shortened already
        else:
            parts = ("", "", self._supply())
        # clear of the clock: "Maximilian-Alexander: Cube würfeln" ran into "5:00"
        named_line(surface, parts, (12, STATUS_Y), clock.left - 16 - 12, theme.LARGE, ink, bold=ink is theme.GOOD,
                   players=table)
        x = 12
        if s.scores:  # each player's points with their three colours beside them
            x = self._draw_scores(surface)
        elif s.goal is not None and s.phase is not Phase.OVER:  # the supply (Team: the Cube wins on it when none
            x = theme.text(surface, self._supply(), (x, SCORES_Y), theme.FAR).right + 24  # fits)
        if s.goal is not None:
            self._draw_goal(surface, x)
            return
        title = t(f"fritzo.mode.{s.mode.value}", self.lang)
        room = TOP_BAR.right - 8 - x
        size = theme.fit_text(title, theme.BODY, room, True)
        if size >= theme.SMALL and theme.font(size, True).size(title)[0] <= room:  # the table knows what it plays
            # muted: in yellow it ran into the step's heading under it ("Cube wählen") as one block of yellow
            baseline = SCORES_Y + theme.font(theme.FAR).get_ascent()
            theme.text(surface, title, (x, baseline - theme.font(size, True).get_ascent()), size, theme.MUTED,
                       bold=True)

    def _builders(self, room: int) -> tuple[str, str, str]:
        """"Anna, Ben bauen" cut around the names (``split_on``), each name whole where all fit at FAR, else each
        shortened as people shorten names ("Maximilian-A., Anna-S."), else first words: the names joined were
        shortened as one ("Maximilian-Alexander, A. G. J. Z.")."""
        players = self.game.state.players
        key = "fritzo.ui.builds_one" if len(players) == 1 else "fritzo.ui.builds_many"
        before, _, after = split_on(key, self.lang, "")
        f = theme.font(theme.FAR)
        firsts = [p.split()[0].split("-")[0] for p in players]  # where two share it, their short forms
        ways = (players, [theme.table_short_name(p, players) for p in players],
                [first if firsts.count(first) == 1 else theme.table_short_name(p, players)
                 for p, first in zip(players, firsts, strict=True)])
        names = next((", ".join(w) for w in ways if f.size(before + ", ".join(w) + after)[0] <= room),
                     ", ".join(ways[-1]))
        return before, names, after

    def goal_line(self) -> str:
        """What the table builds, named and said in a few words ("Beginner: Seiten einfarbig, 6 Farben"): the
        screen said "Fritzo Beginner" and nowhere what that is. The touching rule is not in it: only places and
        positions that keep it are offered."""
        goal = self.game.state.goal
        return t(f"fritzo.ui.goal.{goal.value}", self.lang) if goal is not None else ""

    def touching_rule(self) -> str | None:
        """Building a goal, which colours may touch ("Aneinander nur verschiedene Farben"): Beginner and Professional
        have the same goal words (the rulebook gives both the same goal: six sides, each one colour, six colours) and
        differ only in this rule, which the screen said nowhere; a table that chose Professional after a Beginner
        could not tell the two apart. Not on the goal line: with it that line is 560 to 720 px at FAR, and the room
        after the supply is 565."""
        s = self.game.state
        if s.goal is None or s.phase is not Phase.BUILDING:
            return None
        return t(f"fritzo.ui.touching.{self.game.contact.value}", self.lang)

    def _draw_touching_rule(self, surface: pygame.Surface, rects: list[pygame.Rect]) -> None:
        """The touching rule under the actions (``touching_rule``), where it fits above the note at the panel's foot
        (what a press was answered comes first)."""
        rule = self.touching_rule() if self.step == "menu" else None
        if rule is None or not rects:
            return
        lines, size = theme.far_lines(rule, theme.BODY, PANEL.w)  # at BODY, on two lines where one is too wide
        top = max(r.bottom for r in rects) + 16
        if top + len(lines) * (size + 6) > self._foot_note()[2] - 8:
            return
        for k, line in enumerate(lines):
            theme.text(surface, line, (PANEL.x, top + k * (size + 6)), size, theme.MUTED, bold=True)

    def _draw_goal(self, surface: pygame.Surface, x: int) -> None:
        """The goal on the second line from ``x`` (after the supply), at FAR: Team builds it together, and the
        Beginner's builders may be the whole table (it stood muted at BODY as the mode's name alone)."""
        goal = self.goal_line()
        room = TOP_BAR.right - 8 - x
        size = theme.fit_text(goal, theme.FAR, room)
        theme.text(surface, goal, (x, SCORES_Y), size, theme.TEXT)

    def _clock_label(self) -> str:
        h = self.game.state.hourglass
        secs = math.ceil(max(0.0, h.remaining(self.wall_now()))) if h is not None else 0
        return f"{secs // 60}:{secs % 60:02d}"

    def _clock_rect(self) -> pygame.Rect:
        """Where the top line's clock stands (``_draw_top``)."""
        font = theme.font(theme.LARGE, True)
        w = font.size(self._clock_label())[0]
        return pygame.Rect(TOP_BAR.right - 8 - w, STATUS_Y, w, font.get_linesize())

    def _supply(self) -> str:
        return t("fritzo.ui.cubes_left", self.lang, count=len(self.game.cubes_left()))

    def score_parts(self) -> list[tuple[str, str, int]]:
        """Each player's (name as shown, ": points", size of the name) on the scores line: every name whole at FAR
        where all fit; else each player an equal share and a name too long for it fitted (``theme.fit_name``)."""
        s = self.game.state
        f = theme.font(theme.FAR, True)
        swatches = [len(s.colours.get(p, [])) * (SCORE_SWATCH + 3) + 6 for p in s.players]
        gap, room = 24, TOP_BAR.right - 8 - 12
        whole = [f.size(f"{p}: {s.scores[p]}")[0] + w for p, w in zip(s.players, swatches, strict=True)]
        if sum(whole) + gap * (len(whole) - 1) <= room:
            return [(p, f": {s.scores[p]}", theme.FAR) for p in s.players]
        share = (room - gap * (len(s.players) - 1)) // len(s.players)
        out = []
        for p, w in zip(s.players, swatches, strict=True):
            points = f": {s.scores[p]}"
            name, size = theme.fit_name(p, theme.FAR, share - w - f.size(points)[0], True, tuple(s.players))
            out.append((name, points, size))
        return out

    def _draw_scores(self, surface: pygame.Surface) -> int:
        """The scores line; returns the x after it."""
        s = self.game.state
        x = 12
        for p, (name, points, size) in zip(s.players, self.score_parts(), strict=True):
            if size >= theme.FAR:
                r = theme.text(surface, name + points, (x, SCORES_Y), theme.FAR, theme.TEXT, bold=True)
            else:  # the points stay at FAR beside a name fitted smaller
                r = draw_run(surface, (("", theme.FAR), (name, size), (points, theme.FAR)), (x, SCORES_Y), theme.TEXT,
                        bold=True)
            x = r.right + 6
            for c in s.colours.get(p, []):
                swatch(surface, pygame.Rect(x, SCORES_Y + 2, SCORE_SWATCH, SCORE_SWATCH), c, self.lang)
                x += SCORE_SWATCH + 3
            x += 24
        return x

    def _draw_grid(self, surface: pygame.Surface) -> None:
        structure = self.structure()
        for i, r in enumerate(self.tab_rects()):
            on = i == self.level
            pygame.draw.rect(surface, theme.PANEL_HI if on else theme.PANEL, r, border_radius=8)
            count = sum(1 for c in structure if c[2] == i)
            label = t("fritzo.ui.level", self.lang, n=i + 1) + (f" ({count})" if count else "")
            theme.text(surface, label, r.center, theme.SMALL, theme.ACCENT if on else theme.TEXT, bold=on,
                       anchor="center")
            if on:  # a bar under the level shown: its words' hue and a faint ground alone were one grey to many
                pygame.draw.rect(surface, theme.ACCENT, (r.x + 6, r.bottom - 6, r.w - 12, 4), border_radius=2)
        values = self._step_values() if self.step in ("cell", "remove") else []
        current = values[self.index % len(values)] if values else None
        if self.step == "turn":  # the place chosen stays lit while its position is picked
            current = self.cell
        turns = self._step_values() if self.step == "turn" else []
        turning = turns[self.index % len(turns)] if turns else None  # the position highlighted, shown in its place
        for (x, y), r in self.cell_rects().items():
            cell = (x, y, self.level)
            look = structure.get(cell)
            below = structure.get((x, y, self.level - 1)) if self.level else None
            if turning is not None and cell == self.cell:  # large, its colours named: the panel's are 46 px
                draw_look(surface, r, self._look(turning), self.lang, named=r.w >= 90)
            elif look is not None:
                draw_look(surface, r, look, self.lang, named=r.w >= 90)
            else:
                pygame.draw.rect(surface, theme.PANEL if below is None and self.level else (44, 52, 70), r,
                                 border_radius=6)
                if below is not None:  # the cube one level down, small: where this level can stand
                    draw_look(surface, r.inflate(-r.w // 2, -r.h // 2), below, self.lang)
            if cell in values:  # a free place is also marked by a plus: its green frame and the highlight's yellow
                pygame.draw.rect(surface, theme.GOOD, r, width=3, border_radius=6)  # are one colour to many
                if look is None and not (turning is not None and cell == self.cell):
                    arm = max(6, r.w // 7)
                    # on a dark edge: on a level above, the plus stands on the patterned top of the cube below
                    # (green on orange ΔE 5 in grey)
                    for colour, width, out in ((theme.BG, 8, 2), (theme.GOOD, 4, 0)):
                        pygame.draw.line(surface, colour, (r.centerx - arm - out, r.centery),
                                         (r.centerx + arm + out, r.centery), width)
                        pygame.draw.line(surface, colour, (r.centerx, r.centery - arm - out),
                                         (r.centerx, r.centery + arm + out), width)
            if self.hint is not None and self.hint.cell == cell:  # a star, a shape of its own ("marked yellow" was
                k = min(15, r.w // 5)  # one hue, and a second yellow frame beside the highlight); clear of the plus
                _star(surface, (r.x + k + 3, r.y + k + 3), k)
            if cell == current:
                pygame.draw.rect(surface, theme.ACCENT, r.inflate(6, 6), width=5, border_radius=8)

    @staticmethod
    def won_lines(won: str, names: Sequence[str] = ()) -> tuple[tuple[str, ...], int]:
        """"Gewonnen: Ben" on one line at LARGE; a longer one ("Gewonnen: Großvater Johannes", a team's four
        names) on up to three lines at LARGE, then six at FAR, rather than one line shrunk past reading (a team of
        four long names stood at 12 px, cut at the panel's edge); never broken inside one of the ``names``
        ("Gewonnen: / Großvater / Johannes" read as two winners)."""
        for size, most in ((theme.LARGE, 3), (theme.FAR, 6), (theme.BODY, 7), (theme.SMALL, 9)):
            lines = theme.wrap(won, theme.font(size, True), PANEL.w, names)
            if len(lines) <= most and all(theme.font(size, True).size(line)[0] <= PANEL.w for line in lines):
                return tuple(lines), size
        return tuple(theme.wrap(won, theme.font(theme.SMALLEST, True), PANEL.w, names)), theme.SMALLEST

    def _draw_highlighted_cube(self, surface: pygame.Surface, cid: str) -> None:
        """The cube highlighted, large, in the room kept over the chooser for banners (``notice_room``), which stood
        empty whenever none was up: the chooser's nets have 14 px faces, and the table compares the cube in hand
        (or the one taken out) with them from its seats. A banner or notice there covers it; the net lit stays. Its
        foot no lower than a notice of two lines (82 px from the top line) reaches: under the built-in cubes' notice
        the cube's bottom face stood alone, a stray white square over the question."""
        room = pygame.Rect(CHOOSER.x, TOP_BAR.bottom + 4, CHOOSER.w, 82 - 4)
        side = room.h // 4
        net = pygame.Rect(room.x, room.y, 3 * side, 4 * side)
        draw_net(surface, net, self.game.state.cubeset.cube(cid).faces, self.lang)
        theme.text(surface, f"Cube {cid}", (net.right + 16, net.centery), theme.LARGE, theme.TEXT, bold=True,
                   anchor="midleft")

    def _draw_won(self, surface: pygame.Surface, won: str, y: int) -> int:
        """Who won, under the top line's "Game over"; returns the y below it."""
        lines, size = self.won_lines(won, tuple(self.game.state.winners))
        for line in lines:
            y = theme.text(surface, line, (PANEL.x, y), size, theme.GOOD, bold=True).bottom + 2
        return y

    def _draw_panel(self, surface: pygame.Surface) -> None:
        g = self.game
        s = g.state
        rects = self.panel_rects()
        values = self._step_values()
        out_cube = "fritzo.ui.pick_out_cube" if self.held is None else "fritzo.ui.pick_out_cube_virtual" \
            if self.held == self._virtual_roll else "fritzo.ui.pick_rolled_cube"  # (no cube was rolled then)
        heading = {"menu": "", "roll": "", "outcube": t(out_cube, self.lang),
                   "cube": t("fritzo.ui.pick_cube", self.lang), "cell": t("fritzo.ui.pick_cell", self.lang),
                   "turn": t("fritzo.ui.pick_turn", self.lang), "remove": t("fritzo.ui.remove", self.lang),
                   "nofit": "", "done": t("fritzo.ui.done_ask", self.lang)}[self.step]
        if self.unsure_roll and s.phase is Phase.START_ROLL:  # where the colours are, not in a strip over them
            guess = self.roll_guess if f"roll:{self.roll_guess}" in values else None
            heading = t("fritzo.ui.roll_unsure_guess", self.lang, colour=colour_name(guess, self.lang)) if guess \
                else t("fritzo.ui.roll_unsure", self.lang)
        if s.phase is Phase.OVER:  # "Game over" stands at LARGE in the top line: the panel is the winner's
            heading = ""
            y = PANEL.y + 8  # clear of the scores line above
            if s.winners and s.result != "draw":  # a name alone under "Game over" did not say what it was for
                y = self._draw_won(surface, t("fritzo.ui.won", self.lang, players=", ".join(s.winners)), y) + 12
            for words in g.ending:  # what beat the table, or the draw: read from every seat
                y = draw_wrapped(surface, words.text(self.lang), pygame.Rect(PANEL.x, y, PANEL.w, PANEL.bottom - y),
                                 theme.FAR, theme.TEXT) + 12
        left, width = (CHOOSER.x, CHOOSER.w) if self._choosing_cube() else (PANEL.x, PANEL.w)
        if self._choosing_cube() and heading:  # the question the table answers, at FAR, right over the cubes: at
            # the panel's top a notice of two lines at the top of the screen (the built-in cubes, at Strategy's
            # start) stood over "Welcher Cube bleibt draußen?" for its eight seconds
            theme.text(surface, heading, (left, BANNER_ROOM), theme.fit_text(heading, theme.FAR, width, bold=True),
                       theme.ACCENT, bold=True)
        elif heading and self._rolling():  # "Not read for sure: is it blue?" right over the colours, under the room
            lines, size = theme.fit_lines(heading, theme.FAR, PANEL.w, 2)
            for k, line in enumerate(reversed(lines)):
                theme.text(surface, line, (PANEL.x, ROLL_AREA.y - 6 - k * (size + 4)), size, theme.ACCENT, bold=True,
                           anchor="bottomleft")
        elif heading:  # fitted: "Welcher Cube bleibt draußen?" is wider than the panel at full size
            theme.text(surface, heading, (left, PANEL.y), theme.fit_text(heading, theme.BODY, width, bold=True),
                       theme.ACCENT, bold=True)
        if self.step in ("menu", "roll", "nofit", "done"):
            items = {"nofit": self._nofit_items, "done": self._done_items}.get(self.step, self.menu_items)()
            for i, ((value, label), r) in enumerate(zip(items, rects, strict=False)):
                hi = i == self.index % max(1, len(items))
                pygame.draw.rect(surface, theme.PANEL_HI if hi else theme.PANEL, r, border_radius=10)
                if hi:
                    pygame.draw.rect(surface, theme.ACCENT, r, width=4, border_radius=10)
                x = r.x + 16
                if value.startswith("roll:"):
                    side = min(40, r.h - 16)
                    swatch(surface, pygame.Rect(r.x + 10, r.centery - side // 2, side, side), value[5:], self.lang)
                    x = r.x + side + 22
                theme.text(surface, label, (x, r.centery), theme.fit_text(label, theme.BODY, r.right - x - 8),
                           theme.TEXT, bold=hi, anchor="midleft")
            self._draw_touching_rule(surface, rects)
        elif self.step in ("cube", "outcube"):
            for i, (cid, r) in enumerate(zip(values, rects, strict=False)):
                hi = i == self.index % max(1, len(values))
                pygame.draw.rect(surface, theme.PANEL_HI if hi else theme.PANEL, r, border_radius=6)
                net, number = chooser_cell(r)
                draw_net(surface, net, s.cubeset.cube(cid).faces, self.lang)
                theme.text(surface, cid, number, theme.SMALL, theme.TEXT, bold=hi, anchor="midleft")
                if hi:
                    pygame.draw.rect(surface, theme.ACCENT, r.inflate(4, 4), width=3, border_radius=6)
            if values:
                self._draw_highlighted_cube(surface, values[self.index % len(values)])
        elif self.step == "turn":
            for i, (p, r) in enumerate(zip(values, rects, strict=False)):
                draw_look(surface, r, self._look(p), self.lang)
                if i == self.index % max(1, len(values)):
                    pygame.draw.rect(surface, theme.ACCENT, r.inflate(8, 8), width=4, border_radius=6)
        elif self.step == "cell" and self.cube is not None:
            draw_net(surface, CELL_NET, s.cubeset.cube(self.cube).faces, self.lang)
            theme.text(surface, f"Cube {self.cube}", (PANEL.x + 140, PANEL.y + 60), theme.LARGE, theme.TEXT,
                       bold=True)
            theme.text(surface, t("fritzo.ui.fits", self.lang, count=len(self.options)), (PANEL.x + 140,
                       PANEL.y + 110), theme.SMALL, theme.MUTED)
        lines, size, _ = self._foot_note()
        for k, line in enumerate(reversed(lines)):
            theme.text(surface, line, (left, PANEL.bottom - 4 - k * (size + 6)), size, theme.WARN,
                       anchor="bottomleft")
