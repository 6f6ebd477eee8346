"""The Echt Spitze screen: who rolls, who takes which die, the middle, extra crosses, reports, scoring.

Usable with the buttons alone (ROLL, REROLL, NEXT, SELECT, UNDO for "back" in sub-menus) and by touch. Every
change goes through ``session.apply`` as a table action, so the journal, undo and headless play see the same
game. The screen never keeps game state of its own: only which menu is open and where the highlight is.

A die the camera read wrongly but for sure (nobody was asked) is corrected from the screen while the roll's dice
are in play (taking, deciding on the middle, crossing): "Correct a die" (a button beside the dice while taking, where
NEXT/SELECT take dice; a menu entry after), then the die (NEXT/PREV, SELECT, or a tap) and its true face from the
faces an unsure die is answered with, the face read preselected. After the taking a tap on a die goes straight to its
faces. The engine's ``correct`` action does the rest.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Callable
from typing import Any

import pygame

from companion.games.echt_spitze import EchtSpitze, Phase
from companion.games.echt_spitze.engine import FINAL_MAX, LEFTOVER_NAME, another_kind, by_values, kind_words
from companion.games.echt_spitze.state import (
    EXTRA_DICE,
    EXTRA_FACES,
    PLAIN_FACES,
    SOLO_HALFTIME,
    SOLO_ROUNDS,
    PlayerState,
    has_extra,
    hive_key,
    hive_side,
    number,
    too_many_crosses,
)
from companion.i18n import join_names, t
from companion.session import GameSession, ReadRoll
from companion.views import banner, theme
from companion.views.colour_faces import face_label
from companion.views.widgets import (
    LONG_LIST,
    MENU_CORNER,
    SCROLL_W,
    DiceRow,
    Menu,
    MenuItem,
    PlayerBar,
    draw_die,
    draw_die_picture,
    draw_label,
    first_choice,
    game_hint_bar,
    moved,
    next_moves,
    not_time_to_roll,
    outlined_cross,
    selection_ring,
    spanning,
)
from hardware.events import Button, ButtonEvent, Press
from vision.types import DiePicture, TrayReading

#: what the far end of the table reads (whose turn, the standing, the prompt, the extra crosses, the winner) is
#: drawn at theme.FAR or larger: the bar is tall enough for a name at LARGE over a note at FAR on two lines
#: (four players' cells are too narrow for "vorne · 0 Löcher" at FAR on one), the status line takes LARGE, and the
#: dice and menus below make room for both. The app's menu corner sits to the right of the bar.
BAR = pygame.Rect(8, 4, 734, 100)
STATUS_Y = 108  # a line at LARGE (umlauts lift it up to 4 px) between the bar and the dice
STATUS_W = 770
#: while extra crosses are crossed a banner stands over the bar and the status line (``in_view``), left of the App's
#: ≡ corner (52 px wide) and ``banner.MARGIN`` in: the status line keeps to that span, or its end ("…g?") stood out
#: right of the three-line extra-cross banner
MARK_ROOM = 12  # a die's cross mark stands this far above it
#: the firsts' line under the dice (``_firsts_lines``) takes at most this many lines at FAR, LEFT's upper two thirds:
#: a turn's two or three firsts with long names ("Zuerst: Birnen 5, Zitronen 9 (Annika) · Pflaumen 4 (Johannes)")
#: took three, and on two the oldest was left out; a short banner stands under them, a longer one over them
FIRSTS_LINES = 3
UNDER_BANNER = pygame.Rect(banner.MARGIN, 0, MENU_CORNER.left - 2 * banner.MARGIN, 0)
DICE = pygame.Rect(20, 150, 760, 80)
#: under the dice and their holders' names, down to the hint bar (y 440): six lines at FAR, the extra crosses of
#: four players with two counts and the bubble rule, each wrapped once. Theirs alone: the reports stand in the menu
#: beside it, in their players' lines (under the reminders they shrank them below FAR, and themselves to 12)
LEFT = pygame.Rect(20, 260, 372, 180)
RIGHT = pygame.Rect(408, 260, 372, 180)
MENU_ROW = 60  # three rows in RIGHT, as before the bar grew
#: the height a menu row's two lines take: its panel (MENU_ROW less the gap) less a margin for the highlight's ring
REPORT_ROW_H = MENU_ROW - 14
#: a long list (the values 1-15 of a kind, the beehives) takes the dice's room on the right: in RIGHT it showed
#: three lines, and a finger paged a kind's two values with four to six taps of the arrows
TALL_RIGHT = pygame.Rect(RIGHT.x, DICE.y, RIGHT.w, RIGHT.bottom - DICE.y)
LONG_SUB = 6  # more lines than this: TALL_RIGHT
MAX_VALUE_PICK = 15
#: the taking's cursor on the "Correct a die" button (after the free dice in NEXT's round) instead of a die
FIX_BUTTON = -1
#: the die asked about as the camera saw it, above the answers' button (which moves down a row for it): "die 2"
#: of the row is found in the tray by it, its neighbours round it (the row goes by the dice's places in the picture)
PICTURE_PLACE = pygame.Rect(RIGHT.right - 220, LEFT.y - 18, 220, 104)  # under a lit die's ring (10 px out)
#: the final editor's first row: no dice after the last turn, and three numbers' rows and "Done" end above the hint
#: bar (under RIGHT's top, moved down for the taller bar, level 2's "Done" stood in it)
FINAL_TOP = 236
#: the widest the final scoring's list grows to the left for its lines at BODY: the points entered beside it keep a
#: name and its points at FAR ("Johannes: 35 Punkte")
FINAL_LIST_W = 448
#: the answers to an unsure die stand this far under LEFT's top: their title fits between the dice's rings and theirs
ANSWERS_DOWN = 8
#: the phases whose roll the engine's ``correct`` changes: its dice are in play
FIXABLE = (Phase.TAKE, Phase.MIDDLE, Phase.SCORE)
#: the App's "not time to roll" notice stands its seconds (``App.on_button``) in the band of the status line it
#: repeats, down to the dice: at the top it hid the bar (whose turn) for them, above the hint bar the menu
NOT_NOW_SECONDS = 4.0
NOT_NOW_ROOM = pygame.Rect(0, DICE.y - 50, 800, 50)  # one line of the App's strip at BODY (14 + 28 + 8)
#: the least a holder's name under a die is drawn at before a short form of it (beside names at SMALL: not tiny)
DIE_NAME_MIN = theme.SMALL - 2
VOWELS = frozenset("aeiouyäöüAEIOUYÄÖÜ")


class EchtSpitzeMode:
    def __init__(self, session: GameSession) -> None:
        self.session = session
        self.dice = DiceRow(DICE, label=lambda f: number(str(f)), max_size=DICE.h)
        self.cursor = 0
        self.waiting = False  # ROLL pressed, the camera is looking
        #: the hints a finger presses as buttons: the app presses them as the buttons are (``App.on_tap``)
        self.hint_taps: list[tuple[pygame.Rect, ButtonEvent]] = []
        #: the open sub-menu: ("player", name), ("kind_hi", name), ("kind_lo", name, hi), ("same", name, hi, lo)
        #: (which kind of those values), ("hive", name), ("final", name); None: the phase's main menu
        self.sub: tuple[Any, ...] | None = None
        #: whose report the scoring menu highlights next: the player after the last one who reported (it went back
        #: to the first after every report, and NEXT NEXT SELECT from there ended the turn)
        self._next_reporter: int | None = None  # -1: after the last player, "End the turn"
        self._steps_seen = 0
        #: the line of the list UNDO went back to that was chosen there: highlighted again (it went to the top, and
        #: the higher value 9 was 8 presses away once more)
        self._back_to: Any = None
        self.final_values: dict[str, int] = {}
        self.focus = 0  # the final editor's highlighted control
        self.menu: Menu | None = None
        self._context: tuple[Any, ...] = ()
        #: a roll the camera read with unsure dice (None), being completed on the screen; which of them is asked
        self.pending: list[str | None] | None = None
        self.asking = 0
        self.choice = 0  # the highlighted answer (the faces, then "roll again" or, correcting, "back")
        #: correcting a die read wrongly but for sure: "which" (the die highlighted is ``fix_die``), then "face"
        #: (``choice`` on its faces, as for an unsure die); None: not correcting
        self.fixing: str | None = None
        self.fix_die = 0
        #: the game's steps and last step when the correction opened: an undo under it closes it
        self._fix_since: tuple[int, Any] = (0, None)
        #: the roll (or re-roll) entered from a camera reading: a corrected die is taught from its picture
        self.read_roll: ReadRoll | None = None
        self._pending_reading: TrayReading | None = None  # the reading ``pending`` came from
        #: read with more extra crosses than the dice carry: the crossed dice asked, each by the face read
        self._read_as: dict[int, str] = {}
        #: the App asked why ROLL does nothing now (``roll_not_now``); until when its words stand (``notice_room``)
        self._not_now_asked = False
        self._not_now_until = 0.0
        self._now = 0.0
        #: the totals' lines and where the end's banner stands, each with what they were laid out from: a frame asked
        #: for them four times (the spare, the status line twice, the drawing), the banner placed twice
        self._totals_kept: tuple[tuple[Any, ...], list[tuple[str, int, tuple[int, int, int], bool, int]]] | None = None
        self._over_banner_kept: tuple[tuple[Any, ...], bool] | None = None

    # -- what to show ----------------------------------------------------------------------------------------
    @property
    def game(self) -> EchtSpitze:
        return self.session.engine  # type: ignore[return-value]

    @property
    def lang(self) -> str:
        return self.session.lang

    def tr(self, key: str, **params: Any) -> str:
        return t(key, self.lang, **params)

    def _sync(self) -> None:
        """Rebuild the menu whenever the game moved on (an action, undo) or a sub-menu opened."""
        g = self.game
        s = g.state
        if self.sub and s.phase is not (Phase.FINAL if self.sub[0] == "final" else Phase.SCORE):
            self.sub = None  # an undo left the phase the sub-menu belongs to: UNDO went to closing it, unseen
        if self.fixing and not self._fix_holds():
            self.fixing = None  # an undo went back under the correction: its die may be another, or gone
        reports = tuple((p.report.kinds and tuple(p.report.kinds), p.report.beehive, p.report.shape,
                         p.report.pierced, p.report.slipped, p.final is not None) for p in s.players)
        ctx = (s.turn, s.phase, tuple(p.holds for p in s.players), reports, self.sub, len(s.overview),
               None if self.pending is None else (tuple(self.pending), self.asking), self.fixing, tuple(s.dice))
        if ctx == self._context:
            return
        if ctx[:2] != self._context[:2] or len(self.session.actions) < self._steps_seen:
            self._next_reporter = None  # another turn or phase, or a report undone: from the first player again
        self._steps_seen = len(self.session.actions)
        if ctx[:4] != self._context[:4]:
            free = g.middle
            self.cursor = free[0] if free else 0
            if s.phase not in (Phase.ROLL, Phase.REROLL):
                self.waiting = False
                self.pending = None
        self._context = ctx
        if self.sub and self.sub[0] == "final":
            # an undo under the open editor can take back the star value the first final score gave: the fields
            # change, what was counted so far stays, and so does the highlighted button
            before = [(f, step) for f in self.final_values for step in (-1, 1)] + [("ok", 0)]
            focused = before[min(self.focus, len(before) - 1)]
            self.final_values = {f: self.final_values.get(f, 0) for f in self._final_fields()}
            now = [(f, step) for f, step, _ in self._final_controls()]
            self.focus = now.index(focused) if focused in now else 0
        self.menu = self._build_menu()

    def _actor(self) -> int | None:
        """Whose name the bar lights: the taker, the start player; in the final scoring the player whose numbers
        are entered or about to be, after it the winner (the start player has no part in either)."""
        g = self.game
        names = [p.name for p in g.state.players]
        if g.current_taker is not None:
            return names.index(g.current_taker)
        if g.state.phase is Phase.FINAL:
            if self.sub and self.sub[0] == "final":
                return names.index(self.sub[1])
            if self.menu is not None:
                return names.index(self.menu.items[self.menu.index].value[1])
            return None
        if g.state.phase is Phase.OVER:
            winners = g.state.winners
            return names.index(winners[0]) if len(winners) == 1 else None
        return g.state.start

    # -- menus -----------------------------------------------------------------------------------------------
    def _build_menu(self) -> Menu | None:
        g, s = self.game, self.game.state
        items: list[MenuItem] = []
        back = self._back if self.sub else None
        if self.pending is not None or self.fixing:
            return None  # the answers are dice on the screen (_answer_rects), as is the die to correct
        if s.phase is Phase.ROLL or s.phase is Phase.REROLL:
            items = [MenuItem(self.tr("echt.view.roll"), ("roll",))]
        elif s.phase is Phase.TAKE:
            return None
        elif s.phase is Phase.MIDDLE:
            must = g.solo_sign == "!"
            items = [MenuItem(self.tr("echt.view.leave"), ("leave",), enabled=not must),
                     MenuItem(self.tr("echt.view.reroll"), ("reroll",)),
                     *self._fix_items()]
        elif s.phase is Phase.SCORE:
            items = self._score_items()
        elif s.phase is Phase.FINAL:
            if self.sub and self.sub[0] == "final":
                return None  # the number editor
            items = self._final_items([p.name for p in s.players if p.final is None])
        if not items:
            return None
        tall = bool(self.sub) and len(items) > LONG_SUB  # the dice are not tapped while a list is open (on_tap)
        if s.phase is Phase.FINAL:
            width = max(theme.font(theme.BODY).size(item.label)[0] for item in items) + 30
            menu = Menu(self._final_list(len(items), width), items, self._choose, back, row_h=MENU_ROW)
        elif s.phase is Phase.SCORE and self.sub is None:  # a reporter's line says what was reported, on two lines
            done = {p.name for p in s.players if self._report_text(p)}
            reported = frozenset(k for k, item in enumerate(items)
                                 if item.value[:1] == ("open",) and item.value[1] in done)
            names = tuple(p.name for p in s.players)  # no line broken inside a name (nor a short form)
            row_h, size = report_rows([item.label for item in items], names=names)
            if row_h == REPORT_ONE_LINE_ROW:  # the lines fitted to four rows' width (the arrows beside them or not)
                fours = self._score_items(RIGHT.h // REPORT_ONE_LINE_ROW)
                if (rows := report_rows([item.label for item in fours], names=names))[0] == REPORT_ONE_LINE_ROW:
                    items, (row_h, size) = fours, rows
                else:
                    row_h, size = MENU_ROW, report_rows([item.label for item in items], one_line=False,
                                                        names=names)[1]
            menu: Menu = ReportsMenu(RIGHT, items, self._choose, back, row_h=row_h, size=size, reported=reported,
                                     names=names)
        else:
            menu = Menu(TALL_RIGHT if tall else RIGHT, items, self._choose, back, row_h=54 if tall else MENU_ROW)
        back_to, self._back_to = self._back_to, None
        if s.phase is Phase.SCORE and self.sub is None:
            menu.index = 0 if self._next_reporter == -1 else 1 + (self._next_reporter or 0)
        elif back_to in [item.value for item in items]:
            menu.index = [item.value for item in items].index(back_to)
        elif s.phase is Phase.SCORE and self.sub and self.sub[0] == "hive":
            paired = self._paired(self.sub[1])
            menu.index = next((k for k, item in enumerate(items) if item.value[-1][0] in paired), 0)
        return menu

    def _short(self, name: str) -> str:
        """A player's name shortened as people shorten it, in a form no other player's name takes
        (``theme.table_short_name``): two grandmothers' "Großmutter H., Großmutter H.: bis zu +2 Extrakreuze" and
        "Großmutter H. meldet …" twice told nobody whose it was; "G. Helga, G. Hilde"."""
        return theme.table_short_name(name, [p.name for p in self.game.state.players])

    def _named(self, key: str, name: str, width: int) -> str:
        """A menu line naming a player, the name shortened ("Großvater J.: Schlusswertung") where the whole name
        shrinks the line in ``width`` (``_line_width``): "Großvater Johannes: Schlusswertu…" was cut at 18 beside
        "Mia: Schlusswertung" at 28."""
        short = self.tr(key, player=self._short(name))
        return theme.far_lines(self.tr(key, player=name), theme.BODY, width, short=short, max_lines=1)[0][0]

    def _final_items(self, waiting: list[str]) -> list[MenuItem]:
        """The final scoring's list, each name whole where the list's widest line (FINAL_LIST_W) holds it, unless
        the list grown so leaves a score's banner in the column beside it below FAR where the narrow list would
        not ("Anne-M.: Schlusswertung" and "Großmutter H.: final scoring" were shortened to RIGHT's 342 px in a
        list that grows to 418)."""
        options = []
        for rect in (self._final_list(len(waiting), FINAL_LIST_W), self._final_list(len(waiting))):
            widest = menu_line_width(rect, scrolled=False)
            items = [MenuItem(self._named("echt.view.final_player", name, widest), ("final", name))
                     for name in waiting]
            width = max(theme.font(theme.BODY).size(item.label)[0] for item in items) + 30
            options.append((items, self._final_banner_size(self._final_list(len(items), width).x)))
        (wide, wide_size), (narrow, narrow_size) = options
        return wide if wide_size >= min(theme.FAR, narrow_size) else narrow

    def _final_banner_size(self, left_of: int) -> int:
        """The size a player's final score said as it is entered (two-digit numbers) stands at in the column left
        of a list starting at ``left_of``, the smallest over the players: the banner stands beside the list of
        the others (and, after an undo, of the player too)."""
        s = self.game.state
        width = left_of - 2 * banner.MARGIN - 2 * banner.PAD
        fonts = [banner.layout(self.tr(f"echt.final.sum_level{s.level}", player=p.name, kinds=18, stars=10,
                                       leftover=3, honey=5, total=36), width, 1.0)[0] for p in s.players]
        return min(next(size for size in range(theme.LARGE, 0, -1) if theme.font(size, True) is f) for f in fonts)

    def _final_list(self, count: int, width: int = 0) -> pygame.Rect:
        """Where the list of who is still to enter their final score stands: every line in view (no dice after the
        last turn: four lines reach up where they stood), as wide as its widest line ``width`` at BODY needs, up to
        FINAL_LIST_W. In RIGHT it scrolled four players' lines beside its arrows at 24-26, and a long name's line
        ("Großmutter H.: Schlusswertung") shrank to 24 in its 372 px."""
        w = min(FINAL_LIST_W, max(RIGHT.w, width))
        h = max(1, min(count, (RIGHT.bottom - DICE.y) // MENU_ROW)) * MENU_ROW
        return pygame.Rect(RIGHT.right - w, RIGHT.bottom - h, w, h)

    def _line_width(self, count: int, rows: int = RIGHT.h // MENU_ROW) -> int:
        """How wide a line of a ``count`` lines' menu of ``rows`` rows in RIGHT stands: the scroll arrows' width is
        taken from it only where there are more lines than rows ("Oma Hilde: Schlusswertung" was shortened to "Oma
        H." with three lines and no arrows, and "Opa Heinz: final scoring" shrank to 26 beside them)."""
        return menu_line_width(RIGHT, count > rows)

    def _reported(self, p: PlayerState, done: str, width: int) -> str:
        """A reporter's line in the crossing's menu with what was reported, the name shortened ("Großvater J.:
        Zitronen, Melonen, Bienennest 2-2, durchstochen") where the whole name leaves it below SMALL on two lines."""
        whole = self.tr("echt.view.reported_player", player=p.name, report=done)
        short = self.tr("echt.view.reported_player", player=self._short(p.name), report=done)
        names = tuple(q.name for q in self.game.state.players)
        if short == whole or row_lines(whole, width, REPORT_ROW_H, names)[1] >= theme.SMALL:
            return whole
        return max((short, whole), key=lambda line: row_lines(line, width, REPORT_ROW_H, names)[1])

    def _paired(self, name: str) -> set[str]:
        """The numbers whose beehive ``name``'s die and a middle die cross this turn (a "?" is any number): the
        beehive menu starts there. Extra crosses reach other beehives, so all free ones stay offered."""
        g, s = self.game, self.game.state
        p = next(q for q in s.players if q.name == name)
        if p.holds is None:
            return set()
        own = number(s.dice[p.holds])
        middle = {number(s.dice[i]) for i in g.middle}
        if own == "?":
            return middle - {"?"} or {str(n) for n in range(1, 6)}
        return {own} if own in middle or "?" in middle else set()

    def _score_items(self, rows: int = RIGHT.h // MENU_ROW) -> list[MenuItem]:
        """The crossing's menu items; the reporters' lines fitted to a menu of ``rows`` rows (``report_rows``)."""
        s = self.game.state
        sub = self.sub
        if sub is None:
            # "end the turn" first: always on screen for touch; the highlight starts on the first player. A player
            # who reported has what was reported in the line ("Anna: pears, plums"), where the one at the buttons
            # looks: under the reminders it left them no room at FAR
            width = self._line_width(1 + len(s.players) + len(self._fix_items()), rows)
            items = [MenuItem(self._reported(p, done, width) if (done := self._report_text(p))
                              else self._named("echt.view.report_player", p.name, width), ("open", p.name))
                     for p in s.players]
            return [MenuItem(self.tr("echt.view.end_turn"), ("end_turn",)), *items, *self._fix_items()]
        name = sub[1]
        p = next(q for q in s.players if q.name == name)
        if sub[0] == "player":
            items = []
            for kind in s.overview:
                if kind in p.scored or kind in p.report.kinds or kind == p.report.shape:
                    continue
                if s.level == 3 and p.report.shape:
                    continue
                items.append(MenuItem(self._done_label(kind), ("report", name, "shape" if s.level == 3
                                                               else "kind", kind)))
            if s.level != 3 or not p.report.shape:
                # what the sheet shows done, said so ("Other (choose points)" left the table guessing where a
                # completed kind is reported)
                new = "echt.view.new_shape" if s.level == 3 else "echt.view.new_kind"
                items.append(MenuItem(self.tr(new), ("sub", ("kind_hi", name))))
            if s.level == 2 and p.report.beehive is None and _open_hives(p):
                items.append(MenuItem(self.tr("echt.view.beehive"), ("sub", ("hive", name))))
            if not (p.report.pierced or p.report.slipped):
                items.append(MenuItem(self.tr("echt.view.pierced"), ("report", name, "pierced", True)))
                if p.holes:
                    items.append(MenuItem(self.tr("echt.view.slipped"), ("report", name, "slip", True)))
            return [*items, MenuItem(self.tr("echt.view.back"), ("back",))]
        # every pair stays offered, one the player scored or reported too: two kinds may be printed with the same
        # values (pears 5/3, plums 5/3), and a second one of them was greyed out ("5/3" scored already)
        what = "shape" if s.level == 3 else "kind"
        if sub[0] == "kind_hi":
            return [MenuItem(self.tr("echt.view.higher", n=n), ("sub", ("kind_lo", name, n)))
                    for n in range(1, MAX_VALUE_PICK + 1)]
        if sub[0] == "kind_lo":
            hi = sub[2]
            return [MenuItem(self.tr("echt.view.lower", hi=hi, n=n), self._pair_choice(name, hi, n))
                    for n in range(hi, -1, -1)]
        if sub[0] == "same":
            # a kind of these values somebody scored or reported: the same one, or another printed so (its own
            # first to score); a kind of the player's own is not offered again (each kind scores once)
            hi, lo = sub[2], sub[3]
            same = self._same_values(p, [hi, lo])
            width = self._line_width(len(same) + 1, rows)
            items = [MenuItem(self._same_label(kind, width), ("report", name, what, kind)) for kind in same]
            other = another_kind(s.overview, [hi, lo])
            return [*items, MenuItem(self.tr(f"echt.view.other_{what}", values=f"{hi}/{lo}"),
                                     ("report", name, what, other, [hi, lo]))]
        if sub[0] == "hive":
            return [MenuItem(coord, ("report", name, "beehive", coord)) for coord in _open_hives(p)]
        return []

    def _kind_name(self, kind: str) -> str:
        """A kind or shape as the screen names it: a second kind of the same values "5/3 no. 2" (as it is said)."""
        words = kind_words(self.game.state.overview, kind)
        return words if isinstance(words, str) else self.tr(words["key"], **words["params"])

    def _whose(self, kind: str) -> list[str]:
        """Who the table knows a kind by: who was first with it, else who reported it this turn."""
        s = self.game.state
        return s.first.get(kind) or [p.name for p in s.players if kind in p.report.kinds or kind == p.report.shape]

    def _same_values(self, p: PlayerState, values: list[int]) -> list[str]:
        """The kinds of ``values`` the player may report as the same one: not one they scored or reported."""
        s = self.game.state
        taken = {*p.scored, *p.report.kinds, *([p.report.shape] if p.report.shape else [])}
        return [kind for kind, known in s.overview.items() if known == values and kind not in taken]

    def _done_label(self, kind: str) -> str:
        """"5/3 complete", and who has it where another kind has the same values ("5/3 complete (like Anna)"):
        named by their values alone, two such kinds were told apart by nobody."""
        s = self.game.state
        shapes = s.level == 3
        twins = by_values(kind) is not None and any(
            known == s.overview[kind] for other, known in s.overview.items() if other != kind)
        if twins and (whose := self._whose(kind)):
            key = "echt.view.shape_done_whose" if shapes else "echt.view.kind_done_whose"
            # a kind of the player's menu: with two of them and the choices after it, beside the scroll arrows
            return self._naming(key, whose, menu_line_width(RIGHT, True), name=self._kind_name(kind))
        return self.tr("echt.view.shape_done" if shapes else "echt.view.kind_done", name=self._kind_name(kind))

    def _same_label(self, kind: str, width: int) -> str:
        """An answer to "which kind with 5/3?": "The same kind as Anna" (who the table heard announce it)."""
        whose = self._whose(kind)
        if not whose:  # named in the setup by its values, nobody has it yet
            return self._done_label(kind)
        what = "shape" if self.game.state.level == 3 else "kind"
        return self._naming(f"echt.view.same_{what}", whose, width)

    def _naming(self, key: str, names: list[str], width: int, **params: Any) -> str:
        """A menu line naming players, their names shortened ("… wie Großmutter H.") where the whole ones would
        shrink it in ``width`` ("Dieselbe Symbolart wie Großmutter Hilde…" was cut and small), as ``_named``."""
        whole = self.tr(key, players=join_names(names, self.lang), **params)
        short = self.tr(key, players=join_names([self._short(n) for n in names], self.lang), **params)
        return theme.far_lines(whole, theme.BODY, width, short=short, max_lines=1)[0][0]

    def _pair_choice(self, name: str, hi: int, lo: int) -> tuple[Any, ...]:
        """What choosing the values ``hi``/``lo`` does: where a kind of those values is known already (somebody
        scored or reported it, the player too), one more question, the same kind or another printed so; else the
        report of a kind of those values."""
        s = self.game.state
        what = "shape" if s.level == 3 else "kind"
        if any(known == [hi, lo] for known in s.overview.values()):
            return ("sub", ("same", name, hi, lo))
        return ("report", name, what, another_kind(s.overview, [hi, lo]), [hi, lo])

    def _face_options(self) -> list[str]:
        """What the asked die may show: any plain face, and a face with the extra cross while the roll's dice
        that carry one are not all accounted for (a die with the cross shows it on some faces only: a re-rolled
        middle die that showed none may show it now, as long as the dice taken do not show all three). A die
        being corrected likewise: the cross while fewer than the dice that carry one show it on the other dice
        (more the engine refuses)."""
        g = self.game
        if self.fixing:
            others = sum(1 for i, f in enumerate(g.state.dice) if i != self.fix_die and has_extra(f))
            return list(PLAIN_FACES) + (list(EXTRA_FACES) if others < EXTRA_DICE else [])
        taken = [f for i, f in enumerate(g.state.dice) if i not in g.middle] if g.phase is Phase.REROLL else []
        crossed = min(len(g.virtual_faces()), EXTRA_DICE - sum(has_extra(f) for f in taken))
        seen = sum(1 for f in self.pending or [] if f is not None and has_extra(f))
        return list(PLAIN_FACES) + (list(EXTRA_FACES) if seen < crossed else [])

    def _set_face(self, face: str) -> None:
        """The table said what the asked die shows: keep it as a taught example, then roll once all are known."""
        if self.pending is None:
            return
        self.pending[self.asking] = face
        self.session.confirm_face(self.asking, face)
        if None in self.pending:
            self._ask(self.pending.index(None))
            return
        faces, self.pending = self.pending, None
        self._roll_read(faces, self._pending_reading)

    def _ask(self, die: int) -> None:
        """Ask about unsure ``die``: the highlight starts on the reader's guess (SELECT confirms it); a die with no
        guess at all (perhaps no die of this game) on taking it out: on face "1", a hasty SELECT taught the foreign
        die as this set's 1 and the game counted it (Noch X-Mal! and Haste Worte open on taking it out too)."""
        self.asking = die
        faces = self._face_options()
        self.choice = len(faces) if self._unguessed() else first_choice(faces, self._guessed())

    def _guessed(self) -> str | None:
        """The reader's guess for the die asked about (a crossed die asked as one too many: the face read, else
        without its cross), where it is an answer on offer (the prompt names it)."""
        read = self._read_as.get(self.asking)
        options = self._face_options()
        guess = self.session.guess(self.asking) if read is None else read if read in options else number(read)
        return guess if guess in options else None

    def _unguessed(self) -> bool:
        """Whether the reader found no face at all near the unsure die asked about: the audit's ivory pip die among
        the set's was asked "which face?" with the set's faces alone, answered "4", and taught as this set's 4 (read
        wrongly, sure, from then on). Such a die is asked whether it is one of this game's at all, and rolling
        again says to take it out (that answer teaches nothing)."""
        return self.pending is not None and not self.fixing and self.asking not in self._read_as \
            and self.session.guess(self.asking) is None

    def _too_many_crosses(self, faces: list[str | None]) -> bool:
        """More dice read with the extra cross than the dice carry, counting the dice a re-roll leaves lying."""
        g = self.game
        lying = [f for i, f in enumerate(g.state.dice) if i not in g.middle] if g.phase is Phase.REROLL else []
        return too_many_crosses([*faces, *lying])

    def _answer(self, index: int) -> None:
        faces = self._face_options()
        if self.fixing:
            if index < len(faces):
                self._fix_to(faces[index])
            else:
                self.fixing = "which"  # "back": another die, or UNDO once more to leave
        elif index < len(faces):
            self._set_face(faces[index])
        else:
            self.pending = None  # the table rolls again instead: ROLL reads the tray anew
            self.session.drop_answers()
        self._sync()

    # -- correcting a die read wrongly but for sure ------------------------------------------------------------
    def _may_fix(self) -> bool:
        """Dice a camera read may have been read wrongly; virtual dice the companion threw are what they show."""
        return self.session.camera_ready

    def _fix_items(self) -> list[MenuItem]:
        return [MenuItem(self.tr("echt.view.fix_die"), ("fix",))] if self._may_fix() else []

    def _open_fix(self) -> None:
        """"Correct a die": first which one (the dice in the row, NEXT/PREV and SELECT, or a tap)."""
        if self.game.phase not in FIXABLE or not self.game.state.dice or not self._may_fix():
            return
        self.fixing = "which"
        self.fix_die = 0
        self._fix_since = (len(self.session.actions), self.session.actions[-1])

    def _fix_holds(self) -> bool:
        """Whether the game still has the roll the correction opened on: a die taken meanwhile (the camera sees it
        leave) keeps it; an undo, or a step after one, may have changed it."""
        steps, last = self._fix_since
        actions = self.session.actions
        return self.game.phase in FIXABLE and len(actions) >= steps and actions[steps - 1] is last

    def _fix_which(self, die: int) -> None:
        """The die to correct is chosen: its faces, the face read highlighted (SELECT alone changes nothing)."""
        self.fix_die = die
        self.fixing = "face"
        self.choice = first_choice(self._face_options(), self.game.state.dice[die])

    def _fix_to(self, face: str) -> None:
        """The die shows ``face``: the engine corrects the roll (its announcements say what follows, as a beehive
        to rub out), and a die read from the camera's picture is taught, as an unsure die's answer is."""
        die = self.fix_die
        self.fixing = None
        if self.game.phase is Phase.TAKE:  # back to taking, on the die looked at where it is free: the highlight
            free = self.game.middle  # stayed on "Correct a die", and the next SELECT opened the correction again
            self.cursor = die if die in free else free[0] if free else 0
        if face == self.game.state.dice[die]:
            return  # read right after all
        index = self.read_roll.index(self.session, die) if self.read_roll is not None else None
        if index is not None:
            self.session.confirm_face(index, face)
        self.session.apply({"action": "correct", "die": die + 1, "face": face})

    def _fix_button(self) -> pygame.Rect:
        """While dice are taken there is no menu: the "Correct a die" button stands where the menus stand."""
        return pygame.Rect(RIGHT.x, RIGHT.y, RIGHT.w, 54)

    def _roll_read(self, faces: list[str], reading: TrayReading | None) -> None:
        """Enter a roll (or the re-rolled middle dice) read by the camera, remembering where each die lies in the
        reading: a die corrected later is taught from that picture."""
        middle = self.game.middle if self.game.phase is Phase.REROLL else list(range(len(faces)))
        action = {"action": "roll", "dice": faces}
        if self.session.apply(action) and reading is not None and len(middle) == len(faces):
            self.read_roll = ReadRoll(action, reading, {die: k for k, die in enumerate(middle)})

    def _answer_rects(self) -> list[pygame.Rect]:
        """Where the answers are: the plain faces in a row, the crossed ones below, "roll again" (correcting:
        "back") beside them."""
        side, gap, row = 74, 14, 88
        cols = len(PLAIN_FACES)
        top = LEFT.y + ANSWERS_DOWN
        rects = [pygame.Rect(LEFT.x + (k % cols) * (side + gap), top + (k // cols) * row, side, side)
                 for k in range(len(self._face_options()))]
        below = row if self._asked_picture() is not None else row // 2
        # as wide as the room beside the faces: "Nein: herausnehmen, neu würfeln" stood at 22 px in 220
        left = LEFT.x + cols * (side + gap)
        return [*rects, pygame.Rect(left, top + below, RIGHT.right - left, side)]

    def _asked_picture(self) -> DiePicture | None:
        """The die asked about (unsure, or being corrected: the one highlighted) as the camera saw it; None where
        the roll was not read from the picture that is the tray's now."""
        if self.pending is not None:
            index = self.asking if self.session.latest_reading is self._pending_reading else None
        elif self.fixing and self.read_roll is not None:
            index = self.read_roll.index(self.session, self.fix_die)
        else:
            index = None
        return None if index is None else self.session.picture_of(index)

    def _choose(self, value: tuple[Any, ...]) -> None:
        kind = value[0]
        if kind == "roll":
            self._roll()
        elif kind in ("leave", "reroll", "end_turn"):
            self.session.apply({"action": kind})
            if kind == "reroll":
                self._roll()  # the two middle dice: virtual ones rolled, or the camera asked to read them
        elif kind == "open":
            self.sub = ("player", value[1])
        elif kind == "sub":
            self.sub = value[1]
        elif kind == "back":
            self._back()
        elif kind == "fix":
            self._open_fix()
        elif kind == "report":
            action: dict[str, Any] = {"action": "report", "player": value[1], value[2]: value[3]}
            if len(value) > 4:
                action["values"] = value[4]
            if self.session.apply(action):
                self.sub = None
                names = [q.name for q in self.game.state.players]
                following = names.index(value[1]) + 1
                self._next_reporter = following if following < len(names) else -1  # after the last: end the turn
        elif kind == "final":
            self.sub = ("final", value[1])
            self.final_values = {f: 0 for f in self._final_fields()}
            self.focus = 0
        self._sync()

    def _back(self) -> None:
        """One list back: a value's list to the kind's, the kind's (or a beehive's) to the player's, the player's to
        the scoring menu (UNDO from "the lower value?" went to the top, the player and kind chosen again)."""
        sub = self.sub
        if sub is not None and sub[0] == "same":
            self.sub, self._back_to = ("kind_lo", sub[1], sub[2]), ("sub", sub)
        elif sub is not None and sub[0] == "kind_lo":
            self.sub, self._back_to = ("kind_hi", sub[1]), ("sub", ("kind_lo", sub[1], sub[2]))
        elif sub is not None and sub[0] in ("kind_hi", "hive"):
            self.sub, self._back_to = ("player", sub[1]), ("sub", (sub[0], sub[1]))
        else:
            self.sub = None
        self._sync()

    @property
    def in_view(self) -> list[pygame.Rect]:
        """What the table looks at, for a banner to stand elsewhere where it fits (``banner.place``'s ``spare``): the
        bar and the status line (the banners stood over them for whole phases: the start, the crossing, the final
        scoring), the dice with their marks and holders (everybody crosses from them: the extra-cross
        sentences covered the marks and the middle dice for their seconds), the menu whole (the start player's
        question covered "Re-roll", a score's banner "Mia: final scoring": the banner clear of the highlighted item
        only), the reminders under the dice (the reports are in the menu's lines), and the points entered and the
        ranking. While extra crosses are crossed the bar and the status line come last: see below."""
        if self.pending is not None or self.fixing == "face":  # the answers, the die asked about and "roll again"
            return spanning(self._answer_rects())
        top = [BAR, self._status_line()[2]]
        s = self.game.state
        dice: list[pygame.Rect] = []  # the dice with their cross marks (and a lit one's ring)
        names: list[pygame.Rect] = []  # the holders' names under them
        if s.dice and not self.fixing:
            self.dice.faces = list(s.dice)
            row = spanning(self.dice.die_rects())
            dice = [pygame.Rect(r.x, r.y - MARK_ROOM, r.w, r.h + MARK_ROOM) for r in row]
            names = [pygame.Rect(r.x, r.bottom, r.w, 34) for r in row]
        elif not s.dice and (idle := self._idle_lines()):
            height = sum(theme.font(size).get_linesize() for _, size in idle)
            width = max(theme.font(size).size(line)[0] for line, size in idle)
            dice = [pygame.Rect(400 - width // 2, DICE.y, width, height)]
        menu = spanning(list(self.menu.item_rects().values())) if self.menu is not None else []
        if s.phase is Phase.SCORE and not self.fixing and (left := self._left_lines()):
            # with extra crosses LEFT is full, and a banner has no free place: it stands over the bar and the
            # status line where it fits there clear of the dice (their "whose turn" and "Place your crosses!"
            # nobody acts on while everybody crosses), not over the reminders everybody crosses by ("X: pears
            # complete – noted" hid "+1 extra cross" and the bubble rule for its seconds, four reports one by one);
            # a sentence too tall for that (an extra cross's, three lines at LARGE) over the reminders it repeats
            reminders = _spanning_lines([(line, size, False, y) for line, size, _, y in left])
            return [*dice, *menu, *reminders, *names, *top]
        firsts = _spanning_lines([(line, size, False, y) for line, size, y in self._firsts_lines()])
        spare = [*top, *spanning([*dice, *names]), *menu, *firsts]  # the firsts last: a banner says more
        if s.phase in (Phase.FINAL, Phase.OVER):
            totals = _spanning_lines([(line, size, bold, y) for line, size, _, bold, y in self._total_layout()])
            # at the end the ranking before the bar and "Won: …" (a tie's sentence, three lines at FAR, stood over
            # the fourth player's points: over the bar and the status line it says what they say)
            spare = [*totals, *spare[len(top):], *top] if s.phase is Phase.OVER else [*spare, *totals]
        return spare

    @property
    def focus_rect(self) -> pygame.Rect | None:
        """What a banner must not cover: the final editor whole (its "Done" sat under the banner of the score just
        entered), the list of reports or of final scores whole, else the highlighted menu item."""
        if self.sub and self.sub[0] == "final":
            controls = [rect for _, _, rect in self._final_controls()]
            return pygame.Rect(RIGHT.x, controls[0].top, RIGHT.w, controls[-1].bottom - controls[0].top)
        if self.fixing == "which":
            self.dice.faces = list(self.game.state.dice)
            return self.dice.die_rects()[self.fix_die].inflate(10, 10)
        if self.fixing == "face" or self.pending is not None:  # the answer lit (a banner covered the crossed row)
            return self._answer_rects()[self.choice]
        if self.game.phase is Phase.TAKE and self.cursor == FIX_BUTTON:
            return self._fix_button()
        if self.menu is not None and self.game.phase in (Phase.SCORE, Phase.FINAL):
            # the reports' and the final scoring's list whole: a banner under the highlighted item stood over the
            # choices it talked about ("3/2 für Mia" over "Mia: Schlusswertung", a report's over the next reporter)
            return spanning(list(self.menu.item_rects().values()))[0]
        return self.menu.focus_rect() if self.menu is not None else None

    # -- the final editor ------------------------------------------------------------------------------------
    def _final_fields(self) -> list[str]:
        s = self.game.state
        fields = ["diagonals", "diamonds", "leftover"] if s.level == 3 else ["stars", "leftover"]
        return (["star_value"] if s.star_value is None else []) + fields

    def _final_controls(self) -> list[tuple[str, int, pygame.Rect]]:
        """(field, step, rect) for every -/+ button, then ("ok", 0, rect)."""
        out = []
        for k, f in enumerate(self._final_fields()):
            y = FINAL_TOP + k * 50
            out.append((f, -1, pygame.Rect(RIGHT.x + 200, y, 54, 44)))
            out.append((f, +1, pygame.Rect(RIGHT.x + 318, y, 54, 44)))
        y = FINAL_TOP + len(self._final_fields()) * 50
        out.append(("ok", 0, pygame.Rect(RIGHT.x + 200, y, 172, 44)))
        return out

    def _final_press(self, index: int) -> None:
        field, step, _ = self._final_controls()[index]
        if field == "ok":
            name = self.sub[1] if self.sub else ""
            if self.session.apply({"action": "final", "player": name, **self.final_values}):
                self.sub = None
                self._sync()
            return
        self.final_values[field] = min(FINAL_MAX[field], max(0, self.final_values[field] + step))

    def presses_again(self, button: Button) -> tuple | None:
        """The final scoring's -/+ under SELECT, pressed again and again (the app's double-press guard lets each
        quick press through, ``App._repeats``): six quick "+" counted three stars. None elsewhere (OK, the menus)."""
        final = bool(self.sub) and self.sub[0] == "final"
        if button is not Button.SELECT or not final or self.fixing or self.pending is not None:
            return None
        controls = self._final_controls()
        field, step, _ = controls[self.focus % len(controls)]
        return None if field == "ok" else ("final", field, step)

    # -- input -----------------------------------------------------------------------------------------------
    def dice_to_throw(self) -> list[tuple[str, ...]] | None:
        """Each die's faces the table throws now (virtual dice; the built-in tray throws them too)."""
        return self.game.virtual_faces() if self.game.phase in (Phase.ROLL, Phase.REROLL) else None

    def _roll(self) -> None:
        if self.game.phase not in (Phase.ROLL, Phase.REROLL):
            return
        if self.pending is not None:  # thrown again: the answers about the dice read are not used
            self.pending = None
            self.session.drop_answers()
        if self.session.camera_ready:
            self.waiting = True  # the app asks the camera and calls on_dice when the dice lie still
            self.session.ask_for_dice()
            return
        self.session.apply({"action": "roll", "dice": self.session.virtual_roll(self.dice_to_throw())})
        self._sync()

    @property
    def roll_not_now(self) -> str:
        """What the app says to a ROLL this screen did not take: what the table is asked now ("Anna: take one die",
        "What does Anna report?"), as the status line asks it. Asked, the band of the status line is offered for
        those words (``notice_room``)."""
        self._not_now_asked = True
        return not_time_to_roll(self._status(), self.lang)

    @property
    def notice_room(self) -> pygame.Rect | list[pygame.Rect] | None:
        """While "Not time to roll: <the status line>" stands, the band of the status line it repeats (over the
        bar's last pixels, clear of the dice): the App's strip stood over the bar at the top for its four seconds,
        whose turn hidden (above the hint bar it would cover the menu). While the firsts' line stands under the
        dice, the rooms that keep clear of it (``_firsts_rooms``). Other notices go where the App puts them: over
        the status line they would hide what the table is asked."""
        if self._now < self._not_now_until:
            return NOT_NOW_ROOM
        return self._firsts_rooms() or None

    def _firsts_rooms(self) -> list[pygame.Rect]:
        """Where a notice stands clear of the firsts' line (``_firsts_lines``), best first: the band under it as
        wide as the screen, the column right of it under the dice's names, the column under it. A refused take
        stands until the next move that counts, and the App's red strip above the hint bar stood over the line's
        last row ("plums 4 (Anna-Sophie)"): the number everybody crosses out hidden while the table sorted out the
        take. Only those that cover nothing the screen keeps in view (the menu, the "Correct a die" button); the App
        passes over a room a banner stands in (the firsts' own banner stands over the line's place at the bottom).
        Last, with a menu beside the line, the band under the line and under the menu's words: over the foot of its
        last row's frame, not its words nor a highlighted row (``_under_menu_words``). With "Leave them" and
        "Re-roll" beside the line none of the others was free, and a long refusal stood over the line's last row
        and half of "Re-roll"; in the band it stands at 24 px on two lines, both readable."""
        firsts = self._firsts_lines()
        if not firsts:
            return []
        _, size, y = firsts[-1]
        under = y + theme.font(size).get_linesize() + 4
        bottom = LEFT.bottom  # the hint bar's top
        kept = [*self.in_view, *([self.focus_rect] if self.focus_rect is not None else [])]
        if self.game.phase is Phase.TAKE and self.menu is None and self._may_fix():
            kept.append(self._fix_button())
        names = DICE.bottom + 34  # under the holders' names (``in_view``)
        middle = (LEFT.right + RIGHT.left) // 2
        rooms = [pygame.Rect(0, under, theme.DESIGN_SIZE[0], bottom - under),
                 pygame.Rect(middle, names, theme.DESIGN_SIZE[0] - middle, bottom - names),
                 pygame.Rect(0, under, middle, bottom - under)]
        free = [room for room in rooms if room.height > 0 and not any(room.colliderect(k) for k in kept)]
        return [*free, *(room for room in self._under_menu_words(under, bottom, kept) if room not in free)]

    def _under_menu_words(self, under: int, bottom: int, kept: list[pygame.Rect]) -> list[pygame.Rect]:
        """The band as wide as the screen under the firsts' line (from ``under``) and under the words of the menu
        beside it, down to ``bottom``: it may cover the feet of the rows' frames, never their words (each drawn on
        one line in the middle of its row, ``Menu.draw_label``) nor the highlighted row; none for a menu whose rows
        draw their words otherwise (the crossing's reports, two lines to a row)."""
        if self.menu is None or type(self.menu) is not Menu:
            return []
        rows = list(self.menu.item_rects().values())
        line = theme.font(self.menu.size).get_linesize()
        words = [pygame.Rect(r.x, r.centery - line // 2, r.w, line) for r in rows]
        room = pygame.Rect(0, max(under, *(w.bottom for w in words)), theme.DESIGN_SIZE[0], 0)
        room.height = bottom - room.top
        menu = spanning(rows)
        focus = [self.focus_rect] if self.focus_rect is not None else []
        others = [*(k for k in kept if k not in menu), *focus]  # the menu by its words, the highlighted row whole
        return [room] if room.height > 0 and not any(room.colliderect(k) for k in [*others, *words]) else []

    #: while dice are taken (``auto_read``), a hand held still over a die is no rest: the die under it is not taken
    #: (``DiceWatcher.skip_hand_rests``)
    hand_rest_unread = True

    @property
    def auto_read(self) -> bool:
        """While dice are taken, every rest of the tray is read: the die that left is the one taken."""
        return self.game.phase is Phase.TAKE

    def on_dice(self, reading: TrayReading) -> str | None:
        """A reading of the tray: the roll (its unsure dice asked first), or while dice are taken the one die gone
        from it; words for the table (a grey notice) where the reading is no step."""
        g = self.game
        said = None
        faces = [d.face if isinstance(d.face, str) else None for d in reading.dice]
        if g.phase in (Phase.ROLL, Phase.REROLL):
            self.waiting = False
            crossed = self._too_many_crosses(faces)
            if (None in faces or crossed) and len(faces) == len(g.virtual_faces()):
                # every die is there but some were unsure: the table says what they show (rolling again would
                # change the roll), and each answer teaches the reader. More crossed than the dice carry (a mark
                # read where there is none: "check the dice on the screen" showed none): each crossed die is
                # asked, the face read offered first
                self._read_as = {i: f for i, f in enumerate(faces) if crossed and f is not None and has_extra(f)}
                self.pending = [None if i in self._read_as else f for i, f in enumerate(faces)]
                self._pending_reading = reading
                self._ask(self.pending.index(None))
            else:
                self._roll_read(faces, reading)  # a wrong count is explained by the engine
        elif g.phase is Phase.TAKE and None not in faces:
            # the camera sees one die leave the tray: the one face missing from the free dice is taken
            missing = Counter(g.state.dice[i] for i in g.middle) - Counter(faces)
            if sum(missing.values()) == 1 and len(faces) == len(g.middle) - 1:
                self.session.apply({"action": "take", "face": next(iter(missing))})
            elif len(faces) < len(g.middle) - 1:  # two taken at once: which is whose the camera cannot tell, and the
                said = self.tr("echt.view.dice_gone", count=len(g.middle) - len(faces))  # screen stood unchanged
        self._sync()
        return said

    def on_button(self, event: ButtonEvent) -> bool:
        self._sync()
        g = self.game
        b = event.button
        if b in (Button.ROLL, Button.REROLL) and g.phase in (Phase.ROLL, Phase.REROLL):
            # REROLL too: it means the middle's re-roll alone, never a start's roll; at "Anna: roll all dice" it
            # did nothing, unsaid, where the other games' first roll takes it
            self._roll()
            return True
        if self.fixing == "which":
            if b.step:
                self.fix_die = moved(self.fix_die, b.step, len(g.state.dice))
            elif b is Button.SELECT and event.press is Press.SHORT:
                self._fix_which(self.fix_die)
            elif b is Button.UNDO and event.press is Press.SHORT:
                self.fixing = None
            else:
                return False
            self._sync()
            return True
        if self.pending is not None or self.fixing == "face":
            if b.step:
                self.choice = (self.choice + b.step) % len(self._answer_rects())
                return True
            if b is Button.SELECT and event.press is Press.SHORT:
                self._answer(self.choice)
                return True
            if b is Button.UNDO and event.press is Press.SHORT and self.fixing:
                self.fixing = "which"  # back to the dice: another one, or UNDO again to leave
                self._sync()
                return True
            return False
        if b in (Button.REROLL, Button.ROLL) and g.phase is Phase.MIDDLE:  # ROLL too: the table rolls the middle
            self._choose(("reroll",))  # dice again, and ROLL beside "Neu würfeln" did nothing, unsaid
            return True
        if g.phase is Phase.TAKE:
            # NEXT goes round the free dice and the "Correct a die" button after them
            stops = [*g.middle, *([FIX_BUTTON] if self._may_fix() else [])]
            if b.step:
                at = stops.index(self.cursor) if self.cursor in stops else None
                self.cursor = stops[moved(at, b.step, len(stops))]
                return True
            if b is Button.SELECT and event.press is Press.SHORT and self.cursor == FIX_BUTTON:
                self._open_fix()
                self._sync()
                return True
            if b is Button.SELECT and event.press is Press.SHORT and self.cursor in g.middle:
                self.session.apply({"action": "take", "die": self.cursor + 1})
                self._sync()
                return True
            return False
        if self.sub and self.sub[0] == "final":
            controls = self._final_controls()
            if b.step:
                self.focus = (self.focus + b.step) % len(controls)
                return True
            if b is Button.SELECT:  # "-" at 0, "+" at the most: not taken (the app answers a press that did nothing)
                before = dict(self.final_values)
                self._final_press(self.focus)
                return controls[self.focus % len(controls)][0] == "ok" or self.final_values != before
            if b is Button.UNDO and event.press is Press.SHORT:
                self._back()
                return True
            return False
        if self.menu is not None and self.menu.on_button(event):
            self._sync()
            return True
        return False

    def on_tap(self, pos: tuple[int, int]) -> bool:
        self._sync()
        g = self.game
        if self.fixing:
            return self._tap_fixing(pos)
        if self.pending is not None:
            self.dice.faces = list(self.pending)
            hit = self.dice.hit(pos)
            if hit is not None and self.pending[hit] is None:
                self._ask(hit)  # another unsure die first
                self._sync()
                return True
            for k, rect in enumerate(self._answer_rects()):
                if rect.collidepoint(pos):
                    self.choice = k
                    self._answer(k)
                    return True
            return False
        if g.phase is Phase.TAKE:
            self.dice.faces = list(g.state.dice)
            hit = self.dice.hit(pos)
            if hit is not None:
                self.cursor = hit
                self.session.apply({"action": "take", "die": hit + 1})
                self._sync()
                return True
            if self._may_fix() and self._fix_button().collidepoint(pos):
                self.cursor = FIX_BUTTON
                self._open_fix()
                self._sync()
                return True
            return False
        if g.phase in FIXABLE and not self.sub and self._may_fix():
            # deciding and crossing: a tap on a die corrects it (taking, a tap takes it), as in free play
            self.dice.faces = list(g.state.dice)
            hit = self.dice.hit(pos)
            if hit is not None:
                self._open_fix()
                self._fix_which(hit)
                self._sync()
                return True
        if self.sub and self.sub[0] == "final":
            for k, (_, _, rect) in enumerate(self._final_controls()):
                if rect.collidepoint(pos):
                    self.focus = k
                    self._final_press(k)
                    return True
            return False
        if self.menu is not None and self.menu.on_tap(pos):
            self._sync()
            return True
        return False

    def _tap_fixing(self, pos: tuple[int, int]) -> bool:
        """A tap while correcting: a die is the one to correct (also another one while its faces are shown), a
        face is its answer, "back" goes back a step."""
        self.dice.faces = list(self.game.state.dice)
        hit = self.dice.hit(pos)
        if hit is not None:
            self._fix_which(hit)
        elif self.fixing == "face" and (k := next((k for k, rect in enumerate(self._answer_rects())
                                                   if rect.collidepoint(pos)), None)) is not None:
            self.choice = k
            self._answer(k)
        elif self.fixing == "which" and self._answer_rects()[-1].collidepoint(pos):
            self.fixing = None
        else:
            return False
        self._sync()
        return True

    def update(self, dt: float, now: float) -> None:
        self._now = now
        if self._not_now_asked:  # the App shows the words from this frame on, for NOT_NOW_SECONDS
            self._not_now_asked, self._not_now_until = False, now + NOT_NOW_SECONDS
        self._sync()

    # -- drawing ---------------------------------------------------------------------------------------------
    def draw(self, surface: pygame.Surface) -> None:
        self._sync()
        s = self.game.state
        surface.fill(theme.BG)
        notes = [self._note(p) for p in s.players]
        PlayerBar(BAR, [p.name for p in s.players], current=self._actor(), notes=notes).draw(surface)
        status, size, at = self._status_line()
        theme.text(surface, status, (at.centerx, STATUS_Y), size, theme.ACCENT, bold=True, anchor="midtop")
        if self.pending is not None:
            self._draw_pending(surface)
        elif s.dice:
            self._draw_dice(surface)
        else:
            self._draw_idle(surface)
        if s.phase is Phase.SCORE and not self.fixing:
            self._draw_reminders(surface)
        elif s.phase in (Phase.FINAL, Phase.OVER):
            self._draw_totals(surface)
        for line, size, y in self._firsts_lines():
            theme.text(surface, line, (LEFT.x, y), size, theme.TEXT)
        if (self.pending is not None or self.fixing) and (picture := self._asked_picture()) is not None:
            draw_die_picture(surface, picture, PICTURE_PLACE)
        if self.pending is not None or self.fixing == "face":
            self._draw_answers(surface)
        elif self.fixing == "which":
            self._draw_button(surface, self._answer_rects()[-1], self.tr("echt.view.back"), False)
        elif self.sub and self.sub[0] == "final":
            self._draw_final_editor(surface)
        elif self.menu is not None:
            if self.menu.rect.h > RIGHT.h:  # a long list's own room: the dice make way
                surface.fill(theme.BG, pygame.Rect(0, DICE.y - 6, theme.DESIGN_SIZE[0], RIGHT.y - DICE.y + 6))
            self.menu.draw(surface)
        elif s.phase is Phase.TAKE and self._may_fix():
            self._draw_button(surface, self._fix_button(), self.tr("echt.view.fix_die"),
                              self.cursor == FIX_BUTTON)
        self.hint_taps = game_hint_bar(surface, self._hints(), self.lang)

    def _note(self, p: Any) -> str:
        side = self.tr(f"echt.view.side_{p.side}")
        return self.tr("echt.view.note", side=side, holes=p.holes)

    def _status_line(self) -> tuple[str, int, pygame.Rect]:
        """The status line, its size and rect: at LARGE where it fits, else with the players' names shortened as
        people shorten them ("Großvater J.: Mitte liegen lassen oder neu würfeln?" at FAR) before it shrinks
        ("Großvater Johannes: ..." went down to 30 with nothing of the line left out). One line: the dice stand
        right under it."""
        under_banner = self._crossing_reminded()
        largest = theme.LARGE
        if under_banner:  # the banner ends at the dice's marks (``in_view``): the line's foot stood out below it
            largest = next((size for size in range(theme.LARGE, theme.FAR, -2)
                            if STATUS_Y + theme.font(size, True).get_linesize() <= DICE.y - MARK_ROOM), theme.FAR)
        (status,), size = theme.far_lines(self._status(), largest, UNDER_BANNER.w if under_banner else STATUS_W,
                                          short=self._status(self._short), max_lines=1)
        f = theme.font(size, True)
        width, height = f.size(status)
        lift = theme.accent_lift(f, status)  # as ``theme.text`` draws it: an umlaut lifts the line, rows on top
        rect = pygame.Rect(0, STATUS_Y - lift, width, max(height, f.get_linesize()) + lift)
        rect.centerx = UNDER_BANNER.centerx if under_banner else 400
        return status, size, rect

    def _crossing_reminded(self) -> bool:
        """A banner stands over the bar and the status line (``in_view``): while extra crosses are crossed, their
        reminders under the dice, and at the end over "Won: …" while one is up (the ranking comes first)."""
        phase = self.game.state.phase
        if phase is Phase.OVER:  # where a banner under the ranking has no room (the App places it as here)
            if (text := self._banner_text()) is None:
                return False
            lines, focus = self._total_layout(), self.focus_rect
            key = (text, tuple(focus) if focus is not None else None, self._totals_kept and self._totals_kept[0])
            if self._over_banner_kept is None or self._over_banner_kept[0] != key:
                ranking = _spanning_lines([(line, size, bold, y) for line, size, _, bold, y in lines])
                at, _, _ = banner.place(theme.DESIGN_SIZE, text, focus, 1.0, [MENU_CORNER], [*ranking, BAR])
                self._over_banner_kept = (key, at.top < DICE.y)
            return self._over_banner_kept[1]
        return self.pending is None and not self.fixing and phase is Phase.SCORE and bool(self._left_lines())

    def _status(self, name: Callable[[str], str] = str) -> str:
        """What the table is asked to do now; ``name`` writes a player's name (``_short`` where the whole names make
        the line too wide)."""
        g, s = self.game, self.game.state
        start = g.start_player
        if self.fixing == "which":
            return self.tr("echt.view.fix_which")
        if self.fixing == "face":
            return self.tr("echt.view.fix_face", die=self.fix_die + 1)
        if self.pending is not None:
            guess = self._guessed()
            if self.asking in self._read_as and guess is not None:
                return self.tr("echt.view.crosses_prompt", die=self.asking + 1, face=face_label(guess, self.lang))
            if guess is not None:
                return self.tr("echt.view.unsure_prompt_guess", die=self.asking + 1,
                               face=face_label(guess, self.lang))
            key = "echt.view.unsure_prompt_foreign" if self._unguessed() else "echt.view.unsure_prompt"
            return self.tr(key, die=self.asking + 1)
        if s.phase is Phase.ROLL:
            if s.solo:
                half = self.tr("echt.view.before_half" if s.turn <= SOLO_HALFTIME else "echt.view.after_half")
                return self.tr("echt.view.solo_round", round=s.turn, rounds=SOLO_ROUNDS, sign=g.solo_sign,
                               half=half)
            return self.tr("echt.view.waiting" if self.waiting else "echt.view.roll_prompt", player=name(start))
        if s.phase is Phase.TAKE:
            return self.tr("echt.view.take_prompt", player=name(g.current_taker))
        if s.phase is Phase.MIDDLE:
            key = "echt.view.middle_prompt_must" if g.solo_sign == "!" else "echt.view.middle_prompt"
            return self.tr(key, player=name(start))
        if s.phase is Phase.REROLL:
            return self.tr("echt.view.waiting" if self.waiting else "echt.view.reroll_prompt", player=name(start))
        if s.phase is Phase.SCORE:
            # a report's question stands where the table looks, not over the menu: the dice's labels are there
            return self._menu_title(name) or self.tr("echt.view.score_prompt")
        if s.phase is Phase.FINAL:
            return self.tr("echt.view.final_prompt")
        if s.solo:  # the solo game counts points and has no winner ("Winner: Sol" beside nobody else)
            return self.tr("echt.view.over_solo", player=name(s.players[0].name))
        return self.tr("echt.view.over", players=", ".join(map(name, s.winners)))

    def _menu_title(self, write: Callable[[str], str] = str) -> str:
        if not self.sub or self.sub[0] == "final":
            return ""
        name = write(self.sub[1])
        shapes = self.game.state.level == 3  # level 3 scores shapes: "the kind's higher value?" named the other
        keys = {"player": "echt.view.title_player", "kind_hi": "echt.view.title_hi_shape" if shapes else
                "echt.view.title_hi", "kind_lo": "echt.view.title_lo", "hive": "echt.view.title_hive",
                "same": "echt.view.title_same_shape" if shapes else "echt.view.title_same"}
        if self.sub[0] == "same":
            return self.tr(keys["same"], player=name, values=f"{self.sub[2]}/{self.sub[3]}")
        return self.tr(keys[self.sub[0]], player=name)

    def _draw_pending(self, surface: pygame.Surface) -> None:
        assert self.pending is not None
        self.dice.faces = list(self.pending)
        self.dice.selected = self.asking
        self.dice.dimmed = set()
        for i, (face, rect) in enumerate(zip(self.pending, self.dice.die_rects(), strict=True)):
            if face is None:  # not the shared row's "?": that is one of this game's faces
                _unread(surface, rect)
                if i == self.asking:
                    selection_ring(surface, rect)
            else:
                draw_die(surface, rect, face, selected=i == self.asking, label=self.dice.label)
                _cross(surface, rect, face)

    def _draw_answers(self, surface: pygame.Surface) -> None:
        if not self.fixing:  # correcting, the dice carry their holders' names there (the status line asks)
            # a die with no guess is asked whether it is one of this game's (an ivory pip die answered "which
            # face?" with its pips was taught as this set's); one of this game's is as often (a "?+X" the reader
            # found nothing near): the faces say they are the "yes", as the button the "no"
            key = "echt.view.title_unsure_foreign" if self._unguessed() else "echt.view.title_unsure"
            title = self.tr(key, die=self.asking + 1)
            # between a lit die's ring above (10 px out) and a lit answer's below: the status line asks it at FAR.
            # The "yes" in the light of the "no" button's words: in grey at 18 it was the one line nobody read
            foreign = self._unguessed()
            theme.text(surface, title, (LEFT.x, DICE.bottom + (9 if foreign else 11)),
                       theme.SMALL if foreign else theme.SMALLEST, theme.TEXT if foreign else theme.MUTED,
                       bold=foreign)
        faces = self._face_options()
        rects = self._answer_rects()
        for k, (face, rect) in enumerate(zip(faces, rects, strict=False)):
            draw_die(surface, rect, face, selected=k == self.choice, label=lambda f: number(str(f)))
            _cross(surface, rect, face)
        key = "echt.view.back" if self.fixing else \
            "echt.view.roll_again_foreign" if self._unguessed() else "echt.view.roll_again"
        label = self.tr(key)
        self._draw_button(surface, rects[-1], label, self.choice == len(rects) - 1)

    def _draw_button(self, surface: pygame.Surface, rect: pygame.Rect, label: str, hi: bool) -> None:
        """A button drawn as a menu's item is ("roll again", "back", "Correct a die" while dice are taken)."""
        pygame.draw.rect(surface, theme.PANEL_HI if hi else theme.PANEL, rect, border_radius=10)
        if hi:
            pygame.draw.rect(surface, theme.ACCENT, rect, width=4, border_radius=10)
        if theme.fit_text(label, theme.BODY, rect.w - 16, bold=True) < theme.BODY:  # "Take it out, roll again"
            draw_label(surface, rect.inflate(-16, -8), label, theme.BODY, theme.TEXT)  # on two lines, not small
            return
        theme.text(surface, label, rect.center, theme.fit_text(label, theme.BODY, rect.w - 16), theme.TEXT,
                   bold=hi, anchor="center")

    def _draw_dice(self, surface: pygame.Surface) -> None:
        g, s = self.game, self.game.state
        middle = set(g.middle)
        self.dice.faces = list(s.dice)
        if self.fixing:  # every die may be the one read wrongly: none dimmed, the one in question lit
            self.dice.selected, self.dice.dimmed = self.fix_die, set()
        else:
            self.dice.selected = self.cursor if s.phase is Phase.TAKE and self.cursor in middle else None
            self.dice.dimmed = {i for i in range(len(s.dice)) if i not in middle}
        self.dice.draw(surface)
        for i, rect in enumerate(self.dice.die_rects()):
            face = s.dice[i]
            _cross(surface, rect, face)
            holder = g.holder(i)
            label = holder if holder else (self.tr("echt.view.middle") if s.phase in (
                Phase.SCORE, Phase.MIDDLE, Phase.REROLL) else "")
            if label:
                wide = rect.w + 6  # the gap between dice (14) less 8: "GroßvaterEva-Maria" ran together at 12
                label, size = self._die_name(label, wide) if holder else (
                    label, theme.fit_text(label, theme.SMALL, wide))
                theme.text(surface, label, (rect.centerx, rect.bottom + 6), size,
                           theme.TEXT if holder else theme.ACCENT, anchor="midtop")

    def _die_name(self, name: str, width: int) -> tuple[str, int]:
        """A die's holder under it: whole where it keeps close to SMALL (``DIE_NAME_MIN``); else the first of its short
        forms that does (``_die_name_shorts``); else as ``theme.fit_name`` gives it where that keeps the first word
        whole, or the initials ("G. J."): the first word cut ("Großvate. J.", 18 px under a die) read as a
        misspelling, and "Maximilian" whole at 18 stood tiny beside "G. H." at 22. Under a die the name only tells
        the players apart; the bar above says it whole. So no label is one another player's name could also get:
        "Großmutter Hildegard" and "Großmutter Helga" were both "G. H." under their dice."""
        if (at := theme.fit_text(name, theme.SMALL, width)) >= DIE_NAME_MIN:
            return name, at
        others = [p.name for p in self.game.state.players if p.name != name]
        shorts = self._die_name_shorts(name, others)
        for short in shorts:
            if (at := theme.fit_text(short, theme.SMALL, width)) >= DIE_NAME_MIN:
                return short, at
        taken = self._die_name_taken(others)
        label, size = theme.fit_name(name, theme.SMALL, width)
        words = name.split()
        if label not in taken and (len(words) < 2 or (label.startswith(words[0]) and not label.endswith("…"))):
            return label, size
        for short in dict.fromkeys([*shorts, *self._die_name_shorts(name, others, every_cut=True)]):
            if (at := theme.fit_text(short, theme.SMALL, width)) >= theme.SMALLEST:  # "Marie-Lou." beside "Marie-L."
                return short, at
        if label not in taken:
            return label, size
        return name, theme.fit_text(name, theme.SMALL, width)  # small, but no other player's

    @staticmethod
    def _die_name_forms(name: str) -> list[str]:
        """Every short form a name can take under a die, longest first, whatever the other names: as people shorten
        it ("Großvater J."), its first word alone, its initials ("G. J."), the first words by initials ("G. Karl")
        and then with more of the last word ("G. Hi."); a name of one word cut ("Maximil.")."""
        words = name.split()
        shorts = [theme.short_name(name)] if theme.short_name(name) != name else []
        if len(words) > 1:
            head = ". ".join(w[0] for w in words[:-1]) + "."
            last = words[-1]
            return list(dict.fromkeys([*shorts, words[0], f"{head} {last[0]}.", f"{head} {last}",
                                       *(f"{head} {last[:n]}." for n in range(2, len(last)))]))
        return list(dict.fromkeys([*shorts, *(name[:n] + "." for n in range(len(name) - 1, 2, -1)
                                              if name[n - 1].isalpha())]))

    @classmethod
    def _die_name_taken(cls, others: list[str]) -> set[str]:
        """The labels ``others`` could get under their dice: their names and all their short forms."""
        return {*others, *(form for other in others for form in cls._die_name_forms(other))}

    @classmethod
    def _die_name_shorts(cls, name: str, others: list[str], every_cut: bool = False) -> list[str]:
        """A name's short forms under a die, longest first, each telling it from ``others`` and none that another
        name could shorten to as well (``_die_name_forms``, in its order); a name of one word cut before a vowel
        ("Maximil.", no other name starting so), or anywhere (``every_cut``) where no such cut fits."""
        words = name.split()
        if len(words) > 1:
            return list(theme.name_forms(name, [name, *others], shorts=cls._die_name_forms)[1:])
        taken = cls._die_name_taken(others)
        shorts = [theme.short_name(name)] if theme.short_name(name) != name else []
        cuts = [name[:n] for n in range(len(name) - 1, 2, -1) if name[n - 1].isalpha()
                and not any(other.startswith(name[:n]) for other in others)]
        syllables = [cut for cut, n in zip(cuts, map(len, cuts), strict=True) if name[n] in VOWELS
                     and cut[-1] not in VOWELS]
        return [f for f in dict.fromkeys([*shorts, *(cut + "." for cut in (cuts if every_cut else syllables or cuts))])
                if f not in taken]

    def _draw_idle(self, surface: pygame.Surface) -> None:
        y = DICE.y
        for part, size in self._idle_lines():  # what the table does before the first roll: read from every seat
            theme.text(surface, part, (400, y), size, theme.TEXT, anchor="midtop")
            y += theme.font(size).get_linesize()

    def _idle_lines(self) -> list[tuple[str, int]]:
        g, s = self.game, self.game.state
        if s.turn != 1 or s.phase is not Phase.ROLL or not g.opening_announcements:
            return []
        parts, size = theme.far_lines(g.opening_announcements[0].text(self.lang), theme.FAR, 760)
        return [(part, size) for part in parts]

    def _draw_reminders(self, surface: pygame.Surface) -> None:
        for line, size, color, y in self._left_lines():
            theme.text(surface, line, (LEFT.x, y), size, color)

    def _left_lines(self) -> list[tuple[str, int, tuple[int, int, int], int]]:
        """(line, size, colour, y) under the dice while crossing: the extra crosses and their bubble rule, which every
        player must read from their seat, at FAR (on two lines where one would shrink): players with the same count
        share a line ("Anna, Ben: +1 extra cross"), so four players' reminders fit LEFT. The reports are in the
        menu's lines (``ReportsMenu``): under the reminders, four of them shrank the reminders to 26-30 and
        themselves to 12-14, cut."""
        g, s = self.game, self.game.state
        groups: dict[int, list[str]] = {}
        for p in s.players:
            if n := g.extra_crosses(p.name):
                groups.setdefault(n, []).append(p.name)
        if not groups:
            return []
        if len(s.players) > 2 and list(groups.values()) == [[p.name for p in s.players]]:
            # three or four players, each the same count (the middle's mark alone): "Alle", not four
            # names over two lines at 20 ("Großmutter H., Großvater J., Anne-M., Christopher: +1 Extrakreuz")
            groups = {next(iter(groups)): [self.tr("echt.view.extra_everyone")]}
        texts = [(self.tr(key := "echt.view.extra_one" if n == 1 else "echt.view.extra_two", player=", ".join(names)),
                  self.tr(key, player=", ".join(map(self._short, names))), theme.TEXT)
                 for n, names in sorted(groups.items())]
        bubble = self.tr("echt.view.no_bubble")
        texts.append((bubble, bubble, theme.WARN))
        for size in range(theme.FAR, theme.SMALL - 1, -2):  # smaller only where long names leave no other way
            out: list[tuple[str, int, tuple[int, int, int], int]] = []
            y = LEFT.y
            for line, short, color in texts:
                parts, at = theme.far_lines(line, size, LEFT.w, short=short, names=[p.name for p in s.players])
                for part in parts:
                    out.append((part, at, color, y))
                    y += theme.font(at).get_linesize()
            if y <= LEFT.bottom:
                break
        return out

    def _firsts_lines(self) -> list[tuple[str, int, int]]:
        """(line, size, y) at the top of LEFT: who was first with which kind and the number everybody else crosses
        out ("Zuerst: Kiwis 4 (Anna) · Zitronen 9, Melonen 6 (Ben)"), the latest ones that fit FIRSTS_LINES lines at FAR
        (read from every seat), the latest alone else as large as it fits. The banner that says it stands 5-7 s,
        and a player who looked away or came back to the table read it nowhere. Where LEFT is free: not while the
        extra crosses' reminders, the totals or the answers to a die stand there."""
        s = self.game.state
        if (not s.first or self.pending is not None or self.fixing
                or s.phase not in (Phase.ROLL, Phase.TAKE, Phase.MIDDLE, Phase.REROLL, Phase.SCORE)
                or (s.phase is Phase.SCORE and self._left_lines())):
            return []
        key = "echt.view.first_shape" if s.level == 3 else "echt.view.first_kind"
        players = [p.name for p in s.players]

        def line(kinds: list[str], name: Callable[[str], str]) -> str:
            groups: dict[tuple[str, ...], list[str]] = {}  # the kinds of the same players together, as said
            for kind in kinds:
                groups.setdefault(tuple(s.first[kind]), []).append(
                    self.tr(key, name=self._kind_name(kind), high=s.overview[kind][0]))
            items = [self.tr("echt.view.first_group", items=", ".join(group),
                             players=join_names([name(n) for n in names], self.lang))
                     for names, group in groups.items()]
            # the "·" ends a line (at a no-break space before it): a line beginning "· Melonen 6" read as a list
            return self.tr("echt.view.firsts", items="\u00a0· ".join(items))

        kinds = list(s.first)  # in the order they were first: the latest last
        for n in range(len(kinds), 0, -1):
            lines, size = theme.far_lines(line(kinds[-n:], str), theme.FAR, LEFT.w, short=line(kinds[-n:], self._short),
                                          names=players, max_lines=FIRSTS_LINES)
            if size >= theme.FAR:
                break
        top = LEFT.y + 4  # clear of the holders' names over it
        return [(part, size, top + k * theme.font(size).get_linesize()) for k, part in enumerate(lines)]

    def _report_text(self, p: Any) -> str:
        r = p.report
        parts = [self._kind_name(k) for k in r.kinds]
        if r.shape:
            parts.append(self.tr("echt.view.shape_short", name=self._kind_name(r.shape)))
        if r.beehive:
            parts.append(self.tr("echt.view.hive_short", coord=r.beehive))
        if r.pierced:
            parts.append(self.tr("echt.view.pierced_short"))
        if r.slipped:
            parts.append(self.tr("echt.view.slipped_short"))
        return ", ".join(parts)

    def _draw_totals(self, surface: pygame.Surface) -> None:
        for line, size, color, bold, y in self._total_layout():
            theme.text(surface, line, (LEFT.x, y), size, color, bold=bold)

    def _total_layout(self) -> list[tuple[str, int, tuple[int, int, int], bool, int]]:
        """(line, size, colour, bold, y) of the points entered so far, and after the game of the ranking; kept while
        what they are laid out from stays (``_totals_key``): a frame asks for them four times."""
        key = self._totals_key()
        if self._totals_kept is None or self._totals_kept[0] != key:
            self._totals_kept = (key, self._laid_out_totals())
        return self._totals_kept[1]

    def _totals_key(self) -> tuple[Any, ...]:
        """All ``_laid_out_totals`` reads: the phase, the players' points and holes, the winners, whether the final
        editor or which list stands beside them, the language, the ending's sentences and the banner's."""
        s = self.game.state
        over = s.phase is Phase.OVER
        right = None if self.sub and self.sub[0] == "final" else tuple(self.menu.rect) if self.menu else None
        return (s.phase, self.lang, tuple(s.winners), bool(self.sub and self.sub[0] == "final"), right,
                tuple((p.name, p.final.total if p.final is not None else None, p.holes) for p in s.players),
                tuple(said.text(self.lang) for said in self.game.ending) if over else (), self._banner_text())

    def _laid_out_totals(self) -> list[tuple[str, int, tuple[int, int, int], bool, int]]:
        """``_total_layout``, laid out."""
        s = self.game.state
        out = []
        y = DICE.y  # no dice after the game: the totals take their place
        scored = [p for p in s.players if p.final is not None]
        if s.phase is Phase.OVER:  # by rank, as a table reads results out: Lena's 10 stood above Tim's 11
            scored.sort(key=lambda p: (p.name not in s.winners, -p.final.total))
        # the points are read out to the table: LARGE after the game, on the whole width; while numbers are
        # entered, FAR, left of the editor (a third line at full width ran into its title), the holes on a line of
        # their own where one is too wide ("Johannes: 35 Punkte · 0 Löcher" shrank to 24 beside "Ben: ..." at 32)
        over = s.phase is Phase.OVER
        # above the list of who is still to score (or the editor's title) a line has the whole width: "Großvater
        # Johannes: 13 Punkte · 1 Loch" on one line at FAR, where beside the list it took two with the name shortened
        if self.sub and self.sub[0] == "final":
            right = pygame.Rect(RIGHT.x, FINAL_TOP - 30, RIGHT.w, 0)
        else:
            right = self.menu.rect if self.menu is not None else RIGHT
        whole, beside, right_top = LEFT.w + 380, right.x - 12 - LEFT.x, right.y - 4
        for p in scored:
            color = theme.ACCENT if p.name in s.winners else theme.TEXT
            width = whole if over or y + theme.font(theme.FAR).get_linesize() <= right_top else beside
            lines, size = self._total_lines(p, theme.LARGE if over else theme.FAR, width, split=not over)
            for part in lines:
                out.append((part, size, color, p.name in s.winners, y))
                y += theme.font(size).get_linesize()
            y += 6
        shown = self._banner_text()
        for said in self.game.ending if over else ():  # how a tie at the top was decided, under the ranking
            if (text := said.text(self.lang)) == shown:
                continue  # the banner says it (it stood twice), and it may take the line's room under the ranking
            lines, size = theme.far_lines(text, theme.FAR, whole)
            for part in lines:
                out.append((part, size, theme.TEXT, False, y))
                y += theme.font(size).get_linesize()
        return out

    def _banner_text(self) -> str | None:
        """What the App's banner shows now (the session's announcer), or None."""
        current = getattr(getattr(self.session, "announcer", None), "current", None)
        return getattr(current, "text", None)

    def _total_lines(self, p: PlayerState, size: int, width: int, split: bool) -> tuple[tuple[str, ...], int]:
        """A player's points and holes at ``size`` where they fit ``width``; else (``split``) the holes on a line of
        their own; else the name shortened ("Großvater J.: 13 Punkte") before anything shrinks: "Großvater
        Johannes: 13 Punkte" went down to 26 beside the editor."""
        best: tuple[tuple[str, ...], int] = ((), 0)
        for name in dict.fromkeys((p.name, self._short(p.name))):
            line = self.tr("echt.view.total", player=name, total=p.final.total, holes=p.holes)
            if (at := theme.fit_text(line, size, width)) >= size:
                return (line,), at
            lines = tuple(line.split(" · ")) if split and " · " in line else (line,)  # the points, the holes
            at = min(theme.fit_text(part, size, width) for part in lines)
            if at >= min(size, theme.FAR):
                return lines, at
            if at > best[1]:
                best = (lines, at)
        return best

    def _draw_final_editor(self, surface: pygame.Surface) -> None:
        name = self.sub[1] if self.sub else ""
        title = self.tr("echt.view.title_final", player=name)
        theme.text(surface, title, (RIGHT.x, FINAL_TOP - 30), theme.SMALL, theme.MUTED)
        for k, (field, step, rect) in enumerate(self._final_controls()):
            hi = k == self.focus
            pygame.draw.rect(surface, theme.PANEL_HI if hi else theme.PANEL, rect, border_radius=8)
            if hi:
                pygame.draw.rect(surface, theme.ACCENT, rect, width=4, border_radius=8)
            if field == "ok":
                theme.text(surface, self.tr("echt.view.ok"), rect.center, theme.BODY, theme.TEXT, bold=True,
                           anchor="center")
                continue
            theme.text(surface, "+" if step > 0 else "-", rect.center, theme.LARGE, theme.TEXT, bold=True,
                       anchor="center")
            if step < 0:
                name = LEFTOVER_NAME.get(self.game.state.level, field) if field == "leftover" else field
                label = self.tr(f"echt.view.field_{name}")
                theme.text(surface, label, (RIGHT.x, rect.centery), theme.fit_text(label, theme.SMALL, 190),
                           theme.TEXT, anchor="midleft")
                theme.text(surface, str(self.final_values.get(field, 0)), (RIGHT.x + 286, rect.centery),
                           theme.LARGE, theme.ACCENT, bold=True, anchor="center")

    def _hints(self) -> list[tuple[str, str]]:
        g = self.game
        if self.fixing:  # which die, then its face: UNDO goes back a step, and from the dice out of correcting
            return [(self.tr("core.btn_next"), self.tr("echt.view.hint_next")),
                    (self.tr("core.btn_select"), self.tr("echt.view.hint_select")),
                    (self.tr("core.btn_undo"), self.tr("echt.view.hint_back"))]
        if g.phase in (Phase.ROLL, Phase.REROLL) and self.pending is not None:
            return [(self.tr("core.btn_next"), self.tr("echt.view.hint_next")),
                    (self.tr("core.btn_select"), self.tr("echt.view.hint_select")),
                    (self.tr("core.btn_roll"), self.tr("echt.view.hint_roll_again"))]
        if g.phase in (Phase.ROLL, Phase.REROLL):
            return [(self.tr("core.btn_roll"), self.tr("echt.view.hint_roll"))]
        if g.phase is Phase.MIDDLE:
            return [(self.tr("core.btn_reroll"), self.tr("echt.view.hint_reroll")),
                    (self.tr("core.btn_next"), self.tr("echt.view.hint_next")),
                    (self.tr("core.btn_select"), self.tr("echt.view.hint_select"))]
        if g.phase is Phase.OVER:
            return []
        long = self.menu is not None and len(self.menu.items) > LONG_LIST  # the values 1-15
        hints = [(self.tr("core.btn_next"), self.tr("core.hint_move_hold" if long else "echt.view.hint_next")),
                 (self.tr("core.btn_select"), self.tr("echt.view.hint_select"))]
        if self.menu is not None and not (self.sub and self.sub[0] == "final") and not next_moves(self.menu):
            hints = hints[1:]  # one row to choose: NEXT moves nothing
        if self.sub:
            hints.append((self.tr("core.btn_undo"), self.tr("echt.view.hint_back")))
        return hints


@dataclasses.dataclass
class ReportsMenu(Menu):
    """The crossing's menu: every line at one ``size`` (``report_rows``); a line too wide for one line takes two (a
    reporter's line with what was reported: "Anna: Zitronen, Melonen, Bienennest 2-2, durchstochen"); the lines of
    ``reported`` in the reports' green; no line broken inside one of the players' ``names`` nor their short forms
    (the theme's helpers keep those too, ``theme.kept_whole``: "Nguyễn T. M. / Ả. meldet …" read as two people)."""

    reported: frozenset[int] = dataclasses.field(default_factory=frozenset)
    names: tuple[str, ...] = ()

    def draw_label(self, surface: pygame.Surface, i: int, r: pygame.Rect, hi: bool) -> None:
        label, width, f = self.items[i].label, r.w - 30, theme.font(self.size)
        one = theme.even_lines(label, f, width, 1, self.names)
        two = None if one or 2 * f.get_linesize() > r.h - 6 else theme.even_lines(label, f, width, 2, self.names)
        lines, size = (one or two, self.size) if one or two else row_lines(label, width, r.h - 6, self.names)
        color = theme.GOOD if i in self.reported else theme.TEXT if self.items[i].enabled else theme.MUTED
        step = theme.font(size).get_linesize()
        y = r.centery - (len(lines) * step) // 2
        for line in lines:
            theme.text(surface, line, (r.x + 18, y), size, color, bold=hi)
            y += step


def menu_line_width(rect: pygame.Rect, scrolled: bool) -> int:
    """How wide a line of a ``Menu`` in ``rect`` stands: its row less the label's margins, less the scroll arrows
    beside it where the items do not all fit (as ``Menu.item_rects`` and ``Menu.draw`` make it)."""
    return rect.w - (SCROLL_W + 6 if scrolled else 0) - 30


#: the crossing's menu with every line on one line: rows this tall, four in RIGHT (a finger's 8 mm)
REPORT_ONE_LINE_ROW = 45


def report_rows(labels: list[str], one_line: bool = True, names: tuple[str, ...] = ()) -> tuple[int, int]:
    """The crossing menu's row height and its lines' one size: rows of one line, four in RIGHT, where ``labels``
    stand so as large as on the two lines of MENU_ROW's three rows; else those three rows, each line as large as the
    longest line's two lines allow. A long report shrank its own row alone (20-26 px beside "End the turn" at 28),
    and three rows of five or six showed the lower players' reports only by scrolling. ``one_line`` False: the
    three rows' size alone (the lines fitted to four rows' width did not all fit one line). ``names``: what no line
    is broken inside (``row_lines``)."""
    width = menu_line_width(RIGHT, len(labels) > RIGHT.h // MENU_ROW)
    two = min(row_lines(label, width, REPORT_ROW_H, names)[1] for label in labels)
    rows = RIGHT.h // REPORT_ONE_LINE_ROW
    width = menu_line_width(RIGHT, len(labels) > rows)
    one = min(theme.fit_text(label, theme.BODY, width) for label in labels)
    return (REPORT_ONE_LINE_ROW, one) if one_line and one >= two else (MENU_ROW, two)


def row_lines(label: str, width: int, height: int, names: tuple[str, ...] = ()) -> tuple[tuple[str, ...], int]:
    """``label`` in a menu row ``width`` wide and ``height`` tall: on one line as large as fits, from BODY, else on
    two even lines where they stand larger than one, down to SMALLEST; else on two at SMALLEST, the last cut. No
    line is broken inside one of the players' ``names`` nor their short forms ("Großvater / J. meldet …"): the
    theme's helpers expand them (``theme.kept_whole``), so callers pass the names alone."""
    for size in range(theme.BODY, theme.SMALLEST - 1, -2):
        f = theme.font(size)
        for n in (1, 2):
            if n * f.get_linesize() <= height and (lines := theme.even_lines(label, f, width, n, names)) is not None:
                return lines, size
    f = theme.font(theme.SMALLEST)
    first, *rest = theme.wrap(label, f, width, names)
    return (theme.fit_label(first, theme.SMALLEST, width),
            *([theme.fit_label(" ".join(rest), theme.SMALLEST, width)] if rest else [])), theme.SMALLEST


#: the extra cross's red, dark enough to stand out by its lightness too: the theme's red on a taken die's grey was
#: 1.15:1, gone for a player without red (and in greyscale); a white edge keeps it off the grey
CROSS_INK = theme.BAD_DARK


def _cross(surface: pygame.Surface, rect: pygame.Rect, face: str | None) -> None:
    """The extra-cross mark of a face that carries one, loud in the die's corner."""
    if face is None or not has_extra(face):
        return
    k = max(14, rect.w * 26 // 96)
    mark = pygame.Rect(rect.right - k - 4, rect.y + 4, k, k)
    width = max(3, k // 4)
    outlined_cross(surface, mark, CROSS_INK, width)


def _unread(surface: pygame.Surface, rect: pygame.Rect) -> None:
    """A die the reader was not sure of, loud, with a magnifying glass where the shared dice row draws a "?": "?"
    is one of Echt Spitze's faces (any number), drawn white beside it, and a child took the unread die for it."""
    pygame.draw.rect(surface, theme.UNKNOWN, rect, border_radius=max(4, rect.w // 7))
    r = rect.w * 22 // 100
    lens = (rect.x + rect.w * 42 // 100, rect.y + rect.h * 42 // 100)
    width = max(3, rect.w // 14)
    grip = (rect.x + rect.w * 76 // 100, rect.y + rect.h * 76 // 100)
    step = round(r * 0.7071)
    pygame.draw.line(surface, theme.TEXT, (lens[0] + step, lens[1] + step), grip, width + 3)
    pygame.draw.circle(surface, theme.TEXT, lens, r, width)


def _spanning_lines(lines: list[tuple[str, int, bool, int]]) -> list[pygame.Rect]:
    """One rect round lines (line, size, bold, top) drawn from LEFT's left edge."""
    rects = []
    for line, size, bold, y in lines:
        f = theme.font(size, bold)
        rects.append(pygame.Rect(LEFT.x, y, f.size(line)[0], f.get_linesize()))
    return spanning(rects)


def _open_hives(p: PlayerState) -> list[str]:
    """The beehives (1-1 to 5-5: see the engine's readings) ``p``'s sheet has neither blackened nor crossed on the
    side its hive lies on this turn (after a pierce reported, the back): the others the engine does not count."""
    done = (*p.hives_blackened, *p.hives_crossed)
    side = hive_side(p, p.report.pierced)
    return [f"{n}-{n}" for n in range(1, 6) if hive_key(side, f"{n}-{n}") not in done]
