"""The Noch X-Mal! screen: start combos, the roll and who chooses from which dice, passes, first reaches,
X-chips.

Everything is reachable with NEXT/SELECT (a menu of what can happen now, sub-menus for who and what) and by
touch (tap the menu, tap dice to pick the active player's pair or to correct a misread die). Colour dice
always carry their colour's name and a pattern, never hue alone.

A die the camera read wrongly but for sure (nobody was asked) is corrected while the roll is on: "Correct a die"
in the menu, then the die (its list, or a tap on it in the row) and its true face, of its kind, the face read
highlighted. Once the active player's pair is settled, a tap on a die goes straight to its faces.

Layout on the 800x480 canvas: players along the top (start combo, chips, gifts; five or six in two rows), the dice
in the middle with a line saying who chooses from what, the menu bottom left, the first-to-reach board bottom right,
button hints at the bottom. What the far end of the table reads (the names, the prompt, the menu's lines naming
players, the winner) is drawn at theme.FAR or larger; the notes (combo, chips, rule hints) and the board at SMALL.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

import pygame

from companion.games.noch_x_mal import GOALS, Gift, NochXMal, Phase
from companion.games.noch_x_mal.faces import (
    COLOUR_FACES,
    COLOUR_JOKER,
    COLOURS,
    COLUMNS,
    FIRST_RESTRICTED_ROLL,
    JOKERS,
    NUMBER_FACES,
    NUMBER_JOKER,
    PINK_ONLY_COLUMNS,
    SOLO_ROLLS,
    colour_dice,
    is_colour,
    solo_stroke,
)
from companion.i18n import t
from companion.session import ReadRoll
from companion.views import theme
from companion.views.colour_faces import colour_style, draw_pattern, ink_on
from companion.views.widgets import (
    LONG_LIST,
    Menu,
    MenuItem,
    NameAt,
    draw_die,
    draw_die_picture,
    draw_wrapped,
    first_choice,
    game_hint_bar,
    next_moves,
    outlined_cross,
    row_drop,
    spanning,
    widths_by_need,
)
from hardware.events import Button, ButtonEvent, Press
from vision.types import DiePicture, TrayReading

PINK = (236, 72, 153)
#: what an unsure die of a reading can be answered as, in the order its question lists them
ANSWERS: tuple[str, ...] = COLOUR_FACES + NUMBER_FACES
DROP = "drop-pending"  # an unsure die's answer "throw again" (the reading is thrown away, nothing taught)
PLAYER_STRIP = pygame.Rect(0, 0, 744, 94)  # the app's menu corner sits top right
#: the dice a little lower than the cards' height allowed (80, not 98): the prompt under them takes two lines at FAR
#: ("Wurf 4: Carl hat gewählt, die anderen nehmen die hellen Würfel" was one line at 22 to 28), and the rule notes
#: under it still end above the menu
DICE_AREA = pygame.Rect(10, 98, 780, 80)
MENU_AREA = pygame.Rect(10, 262, 420, 186)
#: the roll's menu's rows: four in MENU_AREA, the last ending 10 px above the hint bar's buttons (y 440). At 46 it
#: ended 2 px above them, and a finger aimed low at "Würfel an Ben" opened the pause menu through "ZURÜCK Menü";
#: rows of 48 leave three in MENU_AREA (the status lines above it take two lines at FAR and the notes)
MENU_ROW = 44
#: a sub-menu's rows (the roll's pairs, who reports, the goals): a finger's 40 px, as many rows as at 46
SUB_MENU_ROW = 48
#: a long sub-menu (a score of 0-40, the 27 goals) over the dice and the status on the left: in MENU_AREA it showed
#: two rows under its title, and a finger paged the 41 scores one by one (32 taps to reach 33). From under the
#: players' cards: its six rows of SUB_MENU_ROW end 10 px above the hint bar
TALL_MENU_AREA = pygame.Rect(10, PLAYER_STRIP.bottom, 420, MENU_AREA.bottom - PLAYER_STRIP.bottom)
LONG_SUB_MENU = 8  # more lines than this: the tall area (a die's faces and the dice themselves are six at most)
#: a shorter sub-menu (a roll's pairs, who passes, a die's faces) under the dice, where the status lines stood (its
#: title asks the question): in MENU_AREA its title left room for two rows, and six pairs took three pages
SUB_MENU_AREA = pygame.Rect(10, DICE_AREA.bottom + 8, 420, MENU_AREA.bottom - DICE_AREA.bottom - 8)
BOARD_AREA = pygame.Rect(440, 262, 350, 186)
BOARD_TITLE_Y = 6  # the board's title, under the board's top edge
BOARD_PANEL_BOTTOM = 440  # the board's panel runs 8 px under the hint line: its words stand above it
#: the die a question is about as the camera saw it: beside the question's list, under the dice, where the board
#: stands (it waits) and above it, clear of the hint line's framed buttons
PICTURE_AREA = pygame.Rect(BOARD_AREA.x, DICE_AREA.bottom + 8, BOARD_AREA.w, 436 - DICE_AREA.bottom - 8)
#: the same while the roll's own list is open: its status lines stand above the board
LIST_PICTURE_AREA = pygame.Rect(BOARD_AREA.x, BOARD_AREA.y, BOARD_AREA.w, PICTURE_AREA.bottom - BOARD_AREA.y)
#: where the roll's prompt stands, under the dice, and how wide it may run
STATUS_TOP = DICE_AREA.bottom + 6
STATUS_W = 780
NOTE_H = 20  # the rule notes' SMALL line under the prompt (joker, pass bar, who chooses from all dice)
#: whose throw it is as a finger's target (``_roll_prompt_rect``): this far beside its words, at least this tall
ROLL_PROMPT_PAD = 16
ROLL_PROMPT_H = 48
READABLE = theme.SMALLEST  # the smallest font size a card's line keeps before it says less
#: the X-chip drawn before a card's chips line: its colour as hue and pattern, as the start combo's swatch
CHIP_W = 28
NAME_PAD = 18  # a card's name from its colour tab to its right edge: the room left is the name's
ONE_ROW = 4  # more players than this: their cards in two rows of three
NOTE_CHIP = 19  # a two-row card's swatch before a note, with its gap
NOTES_GAP = 6  # a two-row card's name and its notes apart, beyond the name's room (NAME_PAD)
#: the most X-chips a player holds: a two-row card's notes column is as wide as its count ("X: 10") at BODY
MOST_CHIPS = 10
TIE_MAX = {"symbols": 40, "pass_fields": 40, "columns": 15}
#: the board's second row of goals, with the label each cell shows
BOARD_ROW: tuple[tuple[str, str], ...] = (
    *((f"colour-{c}", "") for c in COLOURS), ("diamonds-top", "◆1"), ("diamonds-middle", "◆2"),
    ("diamonds-bottom", "◆3"), ("points-I", "I"), ("points-II", "II"), ("points-III", "III"), ("pass-end", "P"))


def hue(face: str) -> tuple[int, int, int]:
    """The colour of a face or chip, shared with every other screen (``colour_faces``)."""
    style = colour_style(face)
    return style[0] if style else theme.PANEL_HI


def draw_colour_swatch(
    surface: pygame.Surface, rect: pygame.Rect, face: str, label: str, *, show_label: bool = True
) -> None:
    """A colour face as hue + pattern + name, with the same patterns as on every other screen, so colour-blind
    players learn them once; the colour joker shows all five colours."""
    radius = max(4, rect.w // 7)
    if face == COLOUR_JOKER:
        band = max(1, rect.w // len(COLOURS))
        for i, c in enumerate(COLOURS):
            pygame.draw.rect(surface, hue(c), (rect.x + i * band, rect.y, band + 1, rect.h))
    else:
        rgb, pattern = colour_style(face) or (theme.PANEL_HI, "plain")
        pygame.draw.rect(surface, rgb, rect, border_radius=radius)
        draw_pattern(surface, rect.inflate(-6, -6), pattern, ink_on(rgb))
    pygame.draw.rect(surface, theme.DIE_PIP, rect, width=2, border_radius=radius)
    if show_label:
        draw_swatch_label(surface, rect, label)


def draw_swatch_label(surface: pygame.Surface, rect: pygame.Rect, label: str) -> None:
    """A swatch's name on its plate at its foot: drawn on its own over a dimmed swatch, the name not dimmed."""
    size = theme.fit_text(label, theme.SMALL, rect.w - 6, bold=True)
    img = theme.font(size, True).render(label, True, theme.TEXT)
    box = img.get_rect(center=(rect.centerx, rect.bottom - img.get_height() // 2 - 4)).inflate(6, 2)
    pygame.draw.rect(surface, theme.DIE_PIP, box, border_radius=4)
    surface.blit(img, img.get_rect(center=box.center))


class NochXMalMode:
    """The game screen; every change goes through ``session.apply`` so journal, undo and resume stay exact."""

    def __init__(self, session: Any) -> None:
        self.session = session
        self.stack: list[Menu] = []  # open sub-menus (who? what? which gift?)
        self.main_index = 0
        self.main_first = 0  # the main menu's first row shown: kept, as its highlight is, across its rebuilds
        self._main_value: Any = None  # the value of the line highlighted: a rebuild without it moves on
        self._main_count = 0
        #: the phase and roll the highlight was placed for: a new one places it on what comes next
        self._menu_moment: tuple[Any, int] | None = None
        self.pending: list[str | None] | None = None  # a read roll with unsure dice, being corrected
        self.read_at: list[int] = []  # each pending die's place in the reading (the session's guess and learning)
        self.tapped: list[int] = []  # dice tapped for the active player's pair
        self.waiting = False  # ROLL pressed: waiting for the camera
        #: whose start combo the camera was asked for: its dice are theirs, wherever the highlight went meanwhile
        self._start_roller: str | None = None
        #: the hints a finger presses as buttons: the app presses them as the buttons are (``App.on_tap``)
        self.hint_taps: list[tuple[pygame.Rect, ButtonEvent]] = []
        self.tie_draft: dict[str, Any] = {}
        #: the roll entered from a camera reading: a die corrected later is taught from its picture
        self.read_roll: ReadRoll | None = None
        self._pending_reading: TrayReading | None = None  # the reading ``pending`` came from
        #: the open correction's menus: which die, and the true face of a die (the menu and the die)
        self._which_die: Menu | None = None
        self._true_face: tuple[Menu, int] | None = None
        self._face_asked: tuple[Menu, int] | None = None  # an unsure die's question (the menu and the die)
        self._goal_menu: Menu | None = None  # the report's list of goals, which a tap on the board answers too
        #: each line naming a player whose name shortens, and the line with it shortened (``_named``)
        self._shorter: dict[str, str] = {}
        self.menu = self._main_menu()
        self._seen = self._moment()

    # -- reading the game ----------------------------------------------------------------------------------
    @property
    def game(self) -> NochXMal:
        return self.session.engine

    @property
    def lang(self) -> str:
        return self.session.lang

    def tr(self, key: str, **params: Any) -> str:
        return t(key, self.lang, **params)

    def face_label(self, face: Any) -> str:
        return "?" if face is None else self.tr(f"nxm.face.{face}")

    def _names(self) -> list[str]:
        return [p.name for p in self.game.state.players]

    def _named(self, key: str, *, player: str, **params: Any) -> str:
        """A menu line or title naming ``player``, with the name shortened ("Großvater J.") kept beside it for
        where the whole line would shrink below FAR (``_fitted``): "Everybody done: dice to Großvater Johan…" was
        cut at 18 px, the name cut being the one the table needed."""
        line = self.tr(key, player=player, **params)
        short = theme.table_short_name(player, self._names())
        if short != player:
            self._shorter[line] = self.tr(key, player=short, **params)
        return line

    def _fitted(self, menu: Menu) -> Menu:
        """``menu`` with each line (and its title) naming a player said with the name shortened where whole it
        would shrink below FAR in its row: the name is never the part cut, nor smaller than the other lines'.

        Its lines at one size: the largest all of them fit, down to BODY (a line that fits no larger shrinks alone).
        Each was fitted by itself: "Alle fertig: Würfel an Maximilian" at 22 under "Anna passt" at 32 looked broken,
        and the pages of one list changed size as it scrolled."""
        rows = menu.item_rects()
        room = next(iter(rows.values())).w - 30 if rows else menu.rect.w - 30  # (the Menu's own margin)

        def fitted(line: str, width: int) -> str:
            short = self._shorter.get(line)
            return theme.far_lines(line, theme.FAR, width, short=short, max_lines=1)[0][0] if short else line

        for item in menu.items:
            item.label = fitted(item.label, room)
        menu.title = fitted(menu.title, menu.rect.w)
        if menu.items:
            least = min(theme.fit_text(item.label, menu.size, room) for item in menu.items)
            menu.size = max(least, min(menu.size, theme.BODY))
        return menu

    # -- acting --------------------------------------------------------------------------------------------
    def apply(self, action: dict[str, Any]) -> bool:
        ok = self.session.apply(action)
        if ok:
            self.stack.clear()
            self.tapped.clear()
        self._seen = self._moment()  # this screen's own step: the menus it opens next belong to it
        self.refresh()
        return ok

    def refresh(self) -> None:
        self.menu = self._main_menu()

    def _moment(self) -> tuple[int, int]:
        """Which game state the open menus were made for: the undos so far and the steps."""
        return self.session.undos, len(self.session.actions)

    def _follow(self) -> None:
        """An undo (the pause menu's, or a held UNDO where no menu of this screen was open) changed the game under
        the open menus: a pair menu of a roll that is gone would pick dice that are not there. Close them, and forget
        a half-corrected roll the undo went back past."""
        now = self._moment()
        if now == self._seen:
            return
        if now[0] != self._seen[0] or now[1] < self._seen[1]:  # an undo, even one a
            self.pending = None  # step entered since made up for: the list was of a roll before it
            self.waiting = False
            self._menu_moment = None  # the main menu's highlight and page as after a roll: on what comes next (it
            # stayed scrolled to the lines of the step undone, the ones the status line asked for out of view)
        self._seen = now
        self.stack.clear()
        self.tapped.clear()
        self.refresh()

    def _push(self, title: str, items: list[MenuItem], on_choose: Callable[[Any], None]) -> None:
        # the dice stay in view for lists about them (a die's six faces, which die is wrong): a tap there may choose one
        area = TALL_MENU_AREA if len(items) > LONG_SUB_MENU else SUB_MENU_AREA
        self.stack.append(self._fitted(Menu(area.copy(), items, on_choose, self._pop, title=title, row_h=SUB_MENU_ROW,
                                            size=theme.FAR)))

    def _pop(self) -> None:
        if self.stack:
            self.stack.pop()

    @property
    def current_menu(self) -> Menu:
        return self.stack[-1] if self.stack else self.menu

    def _main_menu(self) -> Menu:
        items = self._main_items()
        menu = Menu(MENU_AREA.copy(), items, self._choose_main, None, row_h=MENU_ROW, size=theme.FAR)
        st = self.game.state
        moment = (st.phase, st.roll.number if st.roll is not None else 0)
        values = [item.value[0] for item in items]
        if moment != self._menu_moment:  # a new roll (or phase): the highlight on what comes next, not on the line
            self._menu_moment = moment  # the last one chose, which may be the new roller's "passes"
            self.main_index = next((values.index(v) for v in ("pick", "end") if v in values), 0)
            self.main_first = 0
        elif len(items) < self._main_count and self._main_value not in [item.value for item in items]:
            # the line highlighted is gone and the lines moved up (the roller chose: "picks a pair" and their pass
            # went, and a second SELECT passed for the next player): what comes next, as after a roll
            self.main_index = next((values.index(v) for v in ("end",) if v in values), self.main_index)
        if items:
            menu.index = min(self.main_index, len(items) - 1)
            menu.first = self.main_first
            menu._skip_disabled(+1)
            self._main_value = items[menu.index].value
        self._main_count = len(items)
        return self._fitted(menu)

    def _remember(self, menu: Menu) -> None:
        """Keep the main menu's highlight and page for its rebuilds (each frame builds it anew). The page is asked
        for first: a menu follows its highlight only when drawn, and a SELECT in the same frame as the NEXT before
        it kept the page from before the NEXT, the line chosen scrolled out of view."""
        menu.visible_range()
        self.main_index, self.main_first = menu.index, menu.first

    def menu_scrolled(self, menu: Menu) -> None:
        """A finger swiped ``menu`` (the app's ``_swiped``): the main menu's new page is kept for its rebuilds, as
        a button's move is; a swipe over it did nothing, the next frame drawn from the page before it."""
        if menu is self.menu:
            self._remember(menu)

    def _main_items(self) -> list[MenuItem]:
        g, st = self.game, self.game.state
        if self.pending is not None:
            items = [MenuItem(self._die_line(i, f), ("fix", i)) for i, f in enumerate(self.pending)]
            items.append(MenuItem(self.tr("nxm.ui.use_dice"), ("use-pending",), self._pending_ready()))
            items.append(MenuItem(self.tr("nxm.ui.discard_reading"), ("drop-pending",)))
            return items
        if st.phase == Phase.START:
            items = [
                MenuItem(self._named("nxm.ui.roll_start_for", player=p.name), ("start", p.name))
                for p in st.players
                if not p.has_start
            ]
            if not g.solo:
                items.append(MenuItem(self.tr("nxm.ui.change_starter"), ("who-starts",)))
            return items
        if st.phase == Phase.WAIT_ROLL:
            items = [MenuItem(self._named("nxm.ui.roll_now", player=g.active_player.name), ("roll",))]
            if st.rolls == 0 and not g.solo:
                items.append(MenuItem(self.tr("nxm.ui.change_starter"), ("who-starts",)))
            if any(g.usable_gifts(n) for n in self._names()):
                items.append(MenuItem(self.tr("nxm.ui.use_gift"), ("use-gift",)))
            return items
        if st.phase == Phase.ROLLED:
            roll = st.roll
            assert roll is not None
            items = []
            restricted = not g.solo and not roll.open_choice
            undecided = roll.pick is None and not roll.active_passed
            if undecided and (restricted or g.solo):
                items.append(MenuItem(self._named("nxm.ui.pick_pair", player=roll.active), ("pick",)))
            for p in st.players:
                if p.name == roll.active and roll.pick is not None and restricted:
                    continue  # (rolls 1-3 and solo: a pass may still take the pair's place)
                if p.name in roll.passes:  # kept, greyed: the lines below stay where a finger saw them
                    items.append(MenuItem(self._named("nxm.ui.passed", player=p.name), ("passed", p.name), False))
                    continue
                items.append(MenuItem(self._named("nxm.ui.pass_for", player=p.name), ("pass", p.name)))
            if not g.solo:  # once nobody has a goal left to report: said, greyed (the lines below stay put); it
                # opened "What did Anna reach?" with nothing listed, and only UNDO left it
                reporters = self._reporters()
                items.append(MenuItem(self.tr("nxm.ui.report"), ("report",)) if reporters
                             else MenuItem(self.tr("nxm.ui.report_none"), ("report",), False))
                items.append(
                    MenuItem(self.tr("nxm.ui.discard"), ("discard",), any(p.chips for p in st.players))
                )
                if any(g.usable_gifts(n) for n in self._names()):
                    items.append(MenuItem(self.tr("nxm.ui.use_gift"), ("use-gift",)))
            can_end = g.solo or not restricted or not undecided
            if self._may_fix():
                items.append(MenuItem(self.tr("nxm.ui.correct_die"), ("correct",)))
            items.append(MenuItem(self._end_roll_label(), ("end",), can_end))
            return items
        if st.phase == Phase.TIEBREAK:
            return [
                MenuItem(self._named("nxm.ui.tie_enter", player=name), ("tie", name))
                for name in st.finishers
                if name not in st.tiebreak
            ]
        if st.phase == Phase.SOLO_SCORE:
            return [MenuItem(self.tr("nxm.ui.solo_enter"), ("solo-score",))]
        return []

    def _end_roll_label(self) -> str:
        g = self.game
        if g.solo:
            return self.tr("nxm.ui.end_roll_solo")
        if any(p.chips == 0 for p in g.state.players):
            return self.tr("nxm.ui.end_roll_last")
        nxt = g.state.players[(g.state.active + 1) % len(g.state.players)].name
        return self._named("nxm.ui.end_roll", player=nxt)

    def _choose_main(self, value: tuple[Any, ...]) -> None:
        self._remember(self.menu)
        kind = value[0]
        g = self.game
        if kind == "fix":
            self._ask_face(value[1])
        elif kind == "use-pending":
            self._use_pending()
        elif kind == "drop-pending":
            self._drop_pending()
        elif kind == "start":
            self._roll_start(value[1])
        elif kind == "who-starts":
            self._push(
                self.tr("nxm.ui.who_starts"),
                [MenuItem(n, n) for n in self._names()],
                lambda name: self.apply({"action": "first_player", "player": name}),
            )
        elif kind == "roll":
            self.roll()
        elif kind == "pick":
            pairs = self._pairs()
            self._push(
                self._named("nxm.ui.pick_pair", player=g.state.roll.active),
                [MenuItem(self._pair_label(c, n), (c, n)) for c, n in pairs],
                lambda pair: self._pick(*pair),
            )
        elif kind == "pass":
            self.apply({"action": "pass", "player": value[1]})
        elif kind == "report":
            self._push(self.tr("nxm.ui.report_who"), [MenuItem(n, n) for n in self._reporters()], self._ask_goal)
        elif kind == "discard":
            self._push(
                self.tr("nxm.ui.discard_who"),
                [MenuItem(p.name, p.name, p.chips > 0) for p in g.state.players],
                self._ask_chip,
            )
        elif kind == "use-gift":
            holders = [n for n in self._names() if g.usable_gifts(n)]
            self._push(self.tr("nxm.ui.use_gift"), [MenuItem(n, n) for n in holders], self._ask_gift_kind)
        elif kind == "correct":
            self._ask_which_die()
        elif kind == "end":
            self.apply({"action": "end_roll"})
        elif kind == "tie":
            self.tie_draft = {"action": "tiebreak", "player": value[1]}
            self._ask_tie("symbols")
        elif kind == "solo-score":
            self._push(
                self.tr("nxm.ui.solo_enter"),
                [MenuItem(str(n), n) for n in range(0, 41)],
                lambda n: self.apply({"action": "solo_score", "symbols": n}),
            )

    def _drop_pending(self) -> None:
        """The reading is thrown away unanswered (nothing taught): the table throws again."""
        self.pending = None
        self.stack.clear()
        self.main_index = 0  # on "roll", not on the line the discard stood at
        self.session.drop_answers()
        self.session.error = None  # "correct them, or discard" is done with
        self.refresh()

    def _die_line(self, die: int, face: str | None) -> str:
        """One die of the reading in the list: a die read for sure names its face, an unsure one the reader's guess
        with a question mark ("Die 2: Green?"), as its question will, so the table sees it before opening it."""
        guess = self._guess(die) if face is None else None
        if guess is not None:
            return self.tr("nxm.ui.fix_die_title_guess", n=die + 1, face=self.face_label(guess))
        return self.tr("nxm.ui.fix_die", n=die + 1, face=self.face_label(face))

    # -- sub-menus -----------------------------------------------------------------------------------------
    def _ask_face(self, die: int) -> None:
        """What unsure ``die`` shows: the highlight starts on the reader's guess (SELECT confirms it)."""
        guess = self._guess(die)
        read = self.pending[die] if self.pending is not None else None
        # no candidate at all: the reader knows no face of this set like it (an ivory pip die among these dice,
        # answered "red", was taught as red and read red at 0.99 from then on): the question says so
        foreign = read is None and self.session.guess(self.read_at[die]) is None
        title = (self.tr("nxm.ui.fix_die_title_guess", n=die + 1, face=self.face_label(guess)) if guess is not None
                 else self.tr("nxm.ui.fix_die_title_foreign", n=die + 1) if foreign
                 else self.tr("nxm.ui.fix_die_title", n=die + 1))
        answers = self._answers_for(die)
        if read is None and guess is None:
            answers = _joker_first(answers)
        items = [MenuItem(self.face_label(f), f) for f in answers]
        if read is None and guess is None:
            # unsure with no guess of its kind: the list opens on throwing again (nothing taught), not on its first
            # face ("Red"), which a hasty SELECT taught
            items.insert(0, MenuItem(self.tr("nxm.ui.take_out" if foreign else "nxm.ui.discard_reading"), DROP))
        self._push(title, items, lambda face: self._drop_pending() if face == DROP else self._fix(die, face))
        # a die read for sure (a wrong mix's list) starts on its face: SELECT SELECT changed a die read right
        self.stack[-1].index = first_choice([item.value for item in items], guess if guess is not None else read)
        self._face_asked = (self.stack[-1], die)

    def _numbers_place(self, die: int) -> bool:
        """Whether the row shows die ``die`` of the reading among the number dice (the roll's second half)."""
        return self.pending is not None and die >= len(self.pending) // 2

    def _answers_for(self, die: int) -> tuple[str, ...]:
        """What a die of the reading is answered as: the faces of the kind the row shows it with first (a die among
        the numbers had its numbers six presses down, under the colours), the other kind after them (a face read
        wrongly for sure may have placed it with the wrong kind)."""
        return NUMBER_FACES + COLOUR_FACES if self._numbers_place(die) else ANSWERS

    def _guess(self, die: int) -> str | None:
        """The reader's guess for unsure die ``die`` where it is of the kind the die stands with; None otherwise.
        The dice read for sure had taken every number place ("3" read, the other die guessed "4" in a start combo):
        that die is the colour die, and its question opened on the numbers, "4" lit, no colour in view; a colour
        die guessed "3" opened scrolled down to "3", red out of view."""
        guess = self.session.guess(self.read_at[die])
        if guess not in ANSWERS or is_colour(guess) == self._numbers_place(die):
            return None
        return guess

    def _fix(self, die: int, face: str) -> None:
        if self.pending is not None:
            self.pending[die] = face
            self.session.confirm_face(self.read_at[die], face)
            self.session.error = None  # "correct them, or discard" is being done
            # on to the next unsure die, or to "use these dice" once none is left: one press each (a mix still
            # wrong: on the die answered, for "use" waits and the highlight skipped on to "discard")
            self.main_index = self.pending.index(None) if None in self.pending else \
                len(self.pending) if self._pending_ready() else die
        self.stack.clear()
        self.refresh()

    # -- correcting a die read wrongly but for sure ------------------------------------------------------------
    def _ask_which_die(self) -> None:
        """"Correct a die": which one (the row lights the die the highlight names; a tap on a die chooses it)."""
        roll = self.game.state.roll
        if roll is None:
            return
        items = [MenuItem(self.tr("nxm.ui.fix_die", n=i + 1, face=self.face_label(f)), i)
                 for i, f in enumerate(roll.dice)]
        self._push(self.tr("nxm.ui.correct_which"), items, self._ask_true_face)
        self._which_die = self.stack[-1]

    def _ask_true_face(self, die: int) -> None:
        """What ``die`` really shows: the faces of its kind (a colour die cannot show a number), the face read
        highlighted, so SELECT alone changes nothing."""
        roll = self.game.state.roll
        if roll is None:
            return
        read = roll.dice[die]
        faces = COLOUR_FACES if is_colour(read) else NUMBER_FACES
        self._push(self.tr("nxm.ui.correct_face", n=die + 1), [MenuItem(self.face_label(f), f) for f in faces],
                   lambda face: self._correct_die(die, face))
        self.stack[-1].index = faces.index(read)
        self._true_face = (self.stack[-1], die)

    def _correct_die(self, die: int, face: str) -> None:
        """The engine corrects the roll (it says a pass count that changed); a die read from the camera's picture
        is taught from it, as an unsure die's answer is."""
        roll = self.game.state.roll
        if roll is None or face == roll.dice[die]:
            self.stack.clear()  # read right after all
            return
        index = self.read_roll.index(self.session, die) if self.read_roll is not None else None
        if index is not None:
            self.session.confirm_face(index, face)
        self.apply({"action": "correct", "die": die + 1, "face": face})
        self.stack.clear()

    def _die_in_question(self) -> int | None:
        """The die the open correction is about (the row lights it), None when no correction is on top."""
        top = self.stack[-1] if self.stack else None
        if top is None:
            return None
        if top is self._which_die:
            return top.items[top.index].value
        if self._true_face is not None and top is self._true_face[0]:
            return self._true_face[1]
        return None

    def _asked_picture(self) -> DiePicture | None:
        """The die an open question is about (unsure, or being corrected; the unsure die the list highlights) as the
        camera saw it: "die 2" of the row goes by the dice's places in the picture, colours first, not as they lie
        round the table. None where the dice were not read from the picture that is the tray's now."""
        top = self.stack[-1] if self.stack else None
        pending = self.pending is not None and self.session.latest_reading is self._pending_reading
        lit = self.menu.items[self.menu.index].value if top is None and self.menu.items else None
        if top is not None and self._face_asked is not None and top is self._face_asked[0]:
            index = self.read_at[self._face_asked[1]] if pending else None
        elif top is None and isinstance(lit, tuple) and lit[0] == "fix":
            index = self.read_at[lit[1]] if pending else None
        elif (die := self._die_in_question()) is not None and self.read_roll is not None:
            index = self.read_roll.index(self.session, die)
        else:
            return None
        return None if index is None else self.session.picture_of(index)

    def _enter_read_roll(self, faces: list[Any], at: list[int], reading: TrayReading | None) -> None:
        """Enter a roll the camera read (``faces``, die ``k`` being die ``at[k]`` of ``reading``), remembering where
        each die of the roll as the game keeps it (colour dice first) lies in the reading, for a correction."""
        action = {"action": "roll", "dice": faces}
        if self.apply(action) and reading is not None:
            order = sorted(range(len(faces)), key=lambda k: not is_colour(str(faces[k]).strip().lower()))
            self.read_roll = ReadRoll(action, reading, {die: at[k] for die, k in enumerate(order)})

    def _ask_goal(self, player: str) -> None:
        """Goals still open, or claimed in this roll by others (who reach one together share it); not the ones
        this player has reported in this roll (offered, they were refused as reported twice)."""
        open_goals = self._reportable(player)
        if not open_goals:
            return
        self._push(
            self._named("nxm.ui.report_what", player=player),
            [MenuItem(self.tr(f"nxm.goal.{gid}"), gid) for gid in open_goals],
            lambda gid: self.apply({"action": "reached", "player": player, "goals": [gid]}),
        )
        self._goal_menu = self.stack[-1]

    def _reportable(self, player: str) -> list[str]:
        """The goals ``player`` may report in this roll (see ``_ask_goal``)."""
        st = self.game.state
        mine = {gid for gid, names in st.roll.reports.items() if player in names} if st.roll else set()
        return [gid for gid in GOALS if (gid not in st.claims or st.claims[gid].roll == st.rolls) and gid not in mine]

    def _reporters(self) -> list[str]:
        """Who has a goal left to report in this roll: the others are not asked "What did Anna reach?" over an
        empty list."""
        return [name for name in self._names() if self._reportable(name)]

    def _ask_chip(self, player: str) -> None:
        items = [MenuItem(self.tr("nxm.ui.chip_blank"), None)]
        items += [MenuItem(self.tr(f"nxm.gift.{g.value}"), g.value) for g in Gift]

        def chosen(gift: str | None) -> None:
            if gift is None:
                self.apply({"action": "discard", "player": player})
                return
            others = [n for n in self._names() if n != player]
            self._push(
                self.tr("nxm.ui.gift_to", gift=self.tr(f"nxm.gift.{gift}")),
                [MenuItem(n, n) for n in others],
                lambda to: self.apply({"action": "discard", "player": player, "gift": gift, "to": to}),
            )

        self._push(self._named("nxm.ui.chip_shows", player=player), items, chosen)

    def _ask_gift_kind(self, player: str) -> None:
        kinds = sorted({g.kind.value for g in self.game.usable_gifts(player)})
        self._push(
            self._named("nxm.ui.use_gift_which", player=player),
            [MenuItem(self.tr(f"nxm.gift.{k}"), k) for k in kinds],
            lambda k: self.apply({"action": "use_gift", "player": player, "gift": k}),
        )

    def _ask_tie(self, fld: str) -> None:
        player = self.tie_draft["player"]

        def chosen(n: int) -> None:
            self.tie_draft[fld] = n
            rest = [f for f in TIE_MAX if f not in self.tie_draft]
            if rest:
                self._ask_tie(rest[0])
            else:
                self.apply(dict(self.tie_draft))
                self.tie_draft = {}

        self._push(
            self._named("nxm.ui.tie_ask", player=player, what=self.tr(f"nxm.tie.{fld}")),
            [MenuItem(str(n), n) for n in range(TIE_MAX[fld] + 1)],
            chosen,
        )

    def _pairs(self) -> list[tuple[int, int]]:
        """Distinct colour+number pairs of the current roll (identical faces are offered once)."""
        roll = self.game.state.roll
        seen: set[tuple[str, str]] = set()
        pairs = []
        for c, cf in enumerate(roll.dice):
            for n, nf in enumerate(roll.dice):
                if is_colour(cf) and not is_colour(nf) and (cf, nf) not in seen:
                    seen.add((cf, nf))
                    pairs.append((c, n))
        return pairs

    def _pair_label(self, c: int, n: int) -> str:
        roll = self.game.state.roll
        return f"{self.face_label(roll.dice[c])} + {self.face_label(roll.dice[n])}"

    def _pick(self, c: int, n: int) -> None:
        roll = self.game.state.roll
        self.apply({"action": "pick", "dice": [roll.dice[c], roll.dice[n]]})

    # -- dice ----------------------------------------------------------------------------------------------
    def roll(self) -> None:
        """ROLL: ask the camera (the app calls ``on_dice``), or roll virtual dice when there is none."""
        phase = self.game.state.phase
        if (why := self._roll_refused()) is not None:  # (ROLL itself is refused in grey by the app: ``on_button``)
            self.session.error = why
            return
        if phase == Phase.START:
            if (starter := self._next_start()) is not None:
                self._roll_start(starter)
            return
        if phase != Phase.WAIT_ROLL:
            return
        if getattr(self.session, "camera_ready", False):
            self.waiting = True
            self.session.ask_for_dice()
            return
        faces = self.session.virtual_roll(self.dice_to_throw())
        self.apply({"action": "roll", "dice": faces})

    def _roll_refused(self) -> str | None:
        """Why a throw is not taken now, in words that say what to do first: the dice read are being corrected
        ("discard" lets the table roll again), or the roll is still open (the next player threw while it was:
        silence left them pressing again and again)."""
        if self.pending is not None:
            return self.tr("nxm.ui.roll_pending", discard=self.tr("nxm.ui.discard_reading"))
        if self.game.state.phase == Phase.ROLLED and self.game.state.roll is not None:
            return self.tr("nxm.ui.roll_still_open", roll=self.game.state.roll.number, done=self._end_roll_label())
        return None

    def dice_to_throw(self) -> list[tuple[str, ...]] | None:
        """Each die's faces the table throws now (virtual dice; the built-in tray throws them too): one colour and
        one number die for a start combination, else the round's colour and number dice."""
        phase = self.game.state.phase
        if phase == Phase.START:
            return [tuple(COLOUR_FACES), tuple(NUMBER_FACES)]
        if phase != Phase.WAIT_ROLL:
            return None
        colours, numbers = self.game.dice_counts
        return [tuple(COLOUR_FACES)] * colours + [tuple(NUMBER_FACES)] * numbers

    def _roll_start(self, player: str) -> None:
        self._start_roller = player
        if getattr(self.session, "camera_ready", False):
            self.waiting = True
            self.session.ask_for_dice()
            return
        # virtual dice: roll again while a joker shows, as the rulebook asks at the table
        combo = self.session.virtual_roll(self.dice_to_throw())
        while any(f in JOKERS for f in combo):
            combo = self.session.virtual_roll(self.dice_to_throw())
        self.apply({"action": "start_combo", "player": player, "dice": combo})

    def on_dice(self, reading: TrayReading) -> None:
        self.waiting = False
        faces = [f if isinstance(f, str) else None for f in reading.faces]
        phase = self.game.state.phase
        if phase == Phase.START:
            starter = self._next_start()
            if starter is None:
                return
            if len(faces) == 2 and (None in faces or _wrong_mix(faces, 1)):
                # the start combination's unsure die is corrected on the screen as a roll's is (the engine's "not
                # read" says "correct it on the screen"); its guess is one press. So is a die read wrongly for
                # sure where the two are of one kind: throwing again would be another start combo
                self._pending_reading = reading
                self._correct(faces, 1)
            else:
                self.apply({"action": "start_combo", "player": starter, "dice": faces})
            return
        if phase != Phase.WAIT_ROLL:
            return
        colours, numbers = self.game.dice_counts
        if len(faces) == colours + numbers and (None in faces or _wrong_mix(faces, colours)):
            # unsure dice, or one read wrongly for sure (four colours): corrected on the screen, for throwing
            # again would be another roll, against the rulebook's one throw
            self._pending_reading = reading
            self._correct(faces, colours)
            return
        self._enter_read_roll(faces, list(range(len(faces))), reading)

    def _next_start(self) -> str | None:
        """Whose start combo is rolled next (dice read in the start phase, and being corrected, are theirs): the
        player it was asked for, else the one highlighted (ROLL rolled for the first player without one while the
        highlight stood on "Roll the start combo for Ben", and the heading named Ben), else the first without one;
        None once every player has one."""
        if self.game.state.phase != Phase.START:
            return None
        without = [p.name for p in self.game.state.players if not p.has_start]
        if self._start_roller in without and (self.waiting or self.pending is not None):  # (an undone one: not)
            return self._start_roller
        menu = getattr(self, "menu", None)  # (not built yet while the first one is)
        lit = menu.items[menu.index].value if menu is not None and not self.stack and menu.items else None
        if isinstance(lit, tuple) and lit[:1] == ("start",) and lit[1] in without:
            return lit[1]
        return without[0] if without else None

    def _correct(self, faces: list[str | None], colours: int) -> None:
        """Let the table correct the unsure dice on the screen, shown as the game keeps a roll: colours first."""
        self.read_at = self._colours_first(faces, colours)
        self.pending = [faces[i] for i in self.read_at]
        self.main_index = self.pending.index(None) if None in self.pending else 0
        self.stack.clear()  # a question open about the list this one replaces: its die is not in this one
        self._face_asked = None
        self.refresh()

    def _colours_first(self, faces: list[str | None], colours: int) -> list[int]:
        """The reading's dice in the order the screen shows them: colour dice, then number dice, as the game keeps
        a roll (the row's wider gap parts them). An unsure die goes by its guess while its kind is short of its count
        (the dice read for sure are trusted over a guess: a start combo read "3" for sure and "4?" has its colour die
        in the "4?"); the others fill the kind still short, colours first."""
        colour = [f is not None and is_colour(f) for f in faces]
        short = {True: colours - sum(colour),
                 False: len(faces) - colours - sum(1 for f in faces if f is not None and not is_colour(f))}
        unsure = [i for i, f in enumerate(faces) if f is None]
        placed = set()
        for i in unsure:
            guess = self.session.guess(i)
            if guess in ANSWERS and short[kind := is_colour(guess)] > 0:
                colour[i], short[kind] = kind, short[kind] - 1
                placed.add(i)
        for i in unsure:
            if i not in placed and short[True] > 0:
                colour[i], short[True] = True, short[True] - 1
        return sorted(range(len(faces)), key=lambda i: not colour[i])

    def _pending_ready(self) -> bool:
        """Every die of the reading known, and as many colour dice as a roll (or a start combo) has: "use these
        dice" was offered before a wrong mix was mended, and its refusal left ROLL doing nothing."""
        if self.pending is None or None in self.pending:
            return False
        colours = 1 if self._next_start() is not None else self.game.dice_counts[0]
        return not _wrong_mix(self.pending, colours)

    def _use_pending(self) -> None:
        faces = self.pending
        if faces is None or None in faces:
            return
        starter = self._next_start()
        if starter is None:
            self._enter_read_roll(list(faces), self.read_at, self._pending_reading)
            done = self.game.state.phase == Phase.ROLLED
        else:
            done = self.apply({"action": "start_combo", "player": starter, "dice": faces})
        if done:
            self.pending = None
            self.main_index = 0
            self.refresh()

    # -- input ---------------------------------------------------------------------------------------------
    def on_button(self, event: ButtonEvent) -> bool:
        self._follow()
        if event.button in (Button.ROLL, Button.REROLL) and event.press is Press.SHORT:
            # a list of its own is open ("Anna: which pair?"), the dice read are being corrected or the roll is still
            # open: the app says why in grey (``roll_not_now``); in the red strip of refusals it read as a fault
            if self.stack or self._roll_refused() is not None:
                return False
            self.roll()
            return True
        if event.button is Button.UNDO and event.press is Press.SHORT and self.stack:
            self._pop()
            return True
        menu = self.current_menu
        used = menu.on_button(event)
        if menu is self.menu:
            self._remember(menu)
        return used

    @property
    def roll_not_now(self) -> str | None:
        """What the app says to a ROLL this screen did not take: a list of its own is open, and is answered first
        (a press inside "Anna picks a pair" did nothing, unsaid); else why the dice are not thrown now."""
        if not self.stack:
            return self._roll_refused()
        return self.tr("nxm.ui.roll_in_list", question=self.stack[-1].title.rstrip(" ?:"))

    def _dice_hidden(self) -> bool:
        """A long list (TALL_MENU_AREA) is open over the dice: they are neither drawn nor tapped."""
        return bool(self.stack) and self.stack[-1].rect.top < DICE_AREA.bottom

    def on_tap(self, pos: tuple[int, int]) -> bool | str:
        """True where the tap acted; words for the table where it is guidance, not an error (``Mode``): "the pair is
        set" stood in the red error strip for a child tapping another pair."""
        self._follow()
        menu = self.current_menu
        die = None if self._dice_hidden() else self._die_hit(pos)  # a long list lies over the dice: its line
        if die is not None:
            return self._tap_die(die) or True
        if menu.on_tap(pos):
            if menu is self.menu:  # kept, as a button's move is: the menu is built anew each frame from it
                self._remember(menu)
            return True
        if (prompt := self._roll_prompt_rect()) is not None and prompt.collidepoint(pos):
            # "Anna: press ROLL and roll" in the middle, tapped by a table with the touch screen alone, did nothing:
            # it throws as ROLL does (its first menu line, or the small framed "ROLL" in the corner, did)
            return self.on_button(ButtonEvent(Button.ROLL, Press.SHORT))
        if self.stack and self._goal_menu is self.stack[-1]:  # the board's cells look like buttons: they answer
            goal = next((gid for gid, r in self._board_cells().items() if r.collidepoint(pos)), None)
            if goal is not None:  # one not offered (taken, reported) is refused in the game's words: the question
                menu.on_choose(goal)  # stays (a tap that did nothing said nothing)
                return True
        if self.stack and not self.stack[-1].rect.collidepoint(pos):
            self.stack.clear()  # a tap outside closes the sub-menu
            return True
        return False

    def _may_fix(self) -> bool:
        """Dice a camera read may have been read wrongly; virtual dice the companion threw are what they show."""
        return bool(getattr(self.session, "camera_ready", False))

    def _tap_die(self, die: int) -> str | None:
        if self.pending is not None:
            self.stack.clear()
            self._ask_face(die)
            return
        st = self.game.state
        roll = st.roll
        if st.phase != Phase.ROLLED or roll is None:
            return
        if self._die_in_question() is not None:  # correcting: the die tapped is the one (also another one)
            if self.stack[-1] is not self._which_die:
                self._pop()
            self._ask_true_face(die)
            return
        if roll.pick is not None or roll.active_passed:  # the pair is settled: a tap corrects the die
            if self._may_fix():
                self.stack.clear()
                self._ask_true_face(die)
            else:  # a child tapping another pair saw nothing happen: how the choice is taken back (in grey)
                return self.tr("nxm.ui.pick_settled", player=self.game.active_player.name)
            return None
        if die in self.tapped:
            self.tapped.remove(die)
            return
        same_kind = [i for i in self.tapped if is_colour(roll.dice[i]) == is_colour(roll.dice[die])]
        for i in same_kind:
            self.tapped.remove(i)
        self.tapped.append(die)
        if len(self.tapped) == 2:
            c, n = sorted(self.tapped, key=lambda i: 0 if is_colour(roll.dice[i]) else 1)
            self._pick(c, n)

    def _dice_faces(self) -> list[Any]:
        if self.pending is not None:
            return list(self.pending)
        st = self.game.state
        if st.phase == Phase.WAIT_ROLL:  # the roll is over: its dice, the last pick still ringed, were taken for the
            return []  # next player's throw; the screen says whose it is, as before the first roll
        return list(st.roll.dice) if st.roll is not None else []

    def die_rects(self) -> list[pygame.Rect]:
        n = len(self._dice_faces())
        if n == 0:
            return []
        gap, size = 18, DICE_AREA.h
        total = n * size + (n - 1) * gap + (gap if n >= 4 else 0)
        x = DICE_AREA.centerx - total // 2
        rects = []
        for i in range(n):
            if n >= 4 and i == n // 2:
                x += gap  # a wider gap between the colour dice and the number dice
            rects.append(pygame.Rect(x, DICE_AREA.y, size, size))
            x += size + gap
        return rects

    @property
    def in_view(self) -> list[pygame.Rect]:
        """The dice thrown, for a banner to stand elsewhere where it fits (``banner.place``'s ``spare``): the roll's
        sentence and the rule change at the fourth roll covered them for ten seconds, and without a camera the
        screen is the only place the table sees them, the roller choosing a pair meanwhile. While the start combos
        are rolled, the players' cards too: each combo fills in there, and six players' combos said one after the
        other covered the cards for twenty seconds. Between rolls (no dice on the screen) the menu's lines and the
        board: who was first ("Alle zugleich zuerst: Spalte A!", said as the roll ends) is crossed there, and the
        banner stood over both, the next roller's line among them. While dice are out, they, the prompt, the cards
        and the menu's lines with their arrows, not the board: the screen has no room a banner fits that hides
        nothing, and the board is what the table needs least while a roll's sentences are said (its goals change by a
        report, after the pair is chosen); with the dice alone it stood over the menu's lines or its ▲ (more lines
        above). Under the board's title where the banner fits there (``banner_room``)."""
        dice = [] if self._dice_hidden() else spanning(self.die_rects())
        if self.game.state.phase == Phase.START:
            return [*dice, PLAYER_STRIP]
        if self.game.finished:
            return dice
        board = [] if self._asked_picture() is not None else [BOARD_AREA.clip(0, 0, theme.DESIGN_SIZE[0], 436)]
        if dice:
            menu = self.current_menu
            status = [] if self.stack else [self._status_rect()]
            rows = spanning([*menu.item_rects().values(), *menu.scroll_rects().values()])
            return [*dice, *status, PLAYER_STRIP, *rows]
        prompt = [self._idle_layout()[2]] if not self.stack and self._idle_message() else []
        # (in this order: a notice that must cover one spares whose throw it is first, ``App.draw``)
        return prompt + spanning(list(self.current_menu.item_rects().values())) + board

    @property
    def notice_room(self) -> pygame.Rect | list[pygame.Rect] | None:
        """Between rolls, the band under the players' cards down to whose throw it is, empty then (no dice, no status
        lines, no list open): a notice that fits stands there (the App's strip): "Game resumed exactly where it
        stopped." stood at the top over the names on the cards for its seconds, the band under them empty.

        While the dice read are corrected, the band between the dice and the list, over the prompt (the "?" die and
        the list's "Würfel 1: ?" say it too): the camera check's advice ("Die Würfel sind unscharf …", eight
        seconds) and ROLL's "werden gerade korrigiert" stood at the foot over rows 3-8 of the list, "Diese Würfel
        nehmen" among them, and the die's picture. With a die's faces open (the dice hidden, the list from the cards
        down), the column beside the list: the picture under it for the notice's seconds, never the answers.

        While a roll's dice are out, the rooms of ``_roll_rooms`` (the App takes the first the notice fits)."""
        if (rooms := self._roll_rooms()) is not None:
            return rooms
        if self.pending is not None:
            if not self.stack:
                top = DICE_AREA.bottom + 2
                return pygame.Rect(0, top, theme.DESIGN_SIZE[0], MENU_AREA.y - 4 - top)
            right = self.current_menu.rect.right + 6
            return pygame.Rect(right, PLAYER_STRIP.bottom + 2, theme.DESIGN_SIZE[0] - right,
                               PICTURE_AREA.bottom - PLAYER_STRIP.bottom - 2)
        return self._idle_room()

    def _roll_rooms(self) -> list[pygame.Rect] | None:
        """While a roll's dice are out (none corrected), where a notice stands clear of the menu: the notice took
        the foot, where "Das gespeicherte Spiel war beschädigt …" (three lines, resumed mid-roll) stood over three of
        the four lines the roller chooses from for its seconds, and the grey answer to a die tapped once the pair
        is set ("Das Paar von Anna steht …", ``on_tap``) stood at the top over the players' names.

        First the band of the prompt between the dice and the menu, which such words say again (whose pair is
        set, what the roll waits for); not for a refusal, which the App draws at FAR for the whole table and the
        band holds only smaller. With a sub-menu open (its title where the prompt stood), the column beside it
        over the board, where the board is not what the list asks about (a report's goals are tapped there). Last
        the top over the cards, down over the dice's top 6 px: their frames, not their faces or names (three lines
        at SMALL take 104 px, the cards 94): the damaged game's words fit there and nowhere else clear of the
        menu."""
        st = self.game.state
        if self.pending is not None or st.phase != Phase.ROLLED or self.game.finished or not self._dice_faces():
            return None
        width = theme.DESIGN_SIZE[0]
        rooms = []
        if not self.stack:
            if self.session.error is None:
                rooms.append(pygame.Rect(0, STATUS_TOP, width, MENU_AREA.y - 4 - STATUS_TOP))
        elif self.stack[-1] is not self._goal_menu:
            right = self.current_menu.rect.right + 6
            top = (PLAYER_STRIP.bottom + 2) if self._dice_hidden() else STATUS_TOP
            rooms.append(pygame.Rect(right, top, width - right, PICTURE_AREA.bottom - top))
        rooms.append(pygame.Rect(0, 0, width, PLAYER_STRIP.bottom if self._dice_hidden() else DICE_AREA.y + 6))
        return rooms

    def _idle_room(self) -> pygame.Rect | None:
        """Between rolls, the band under the cards (``notice_room``)."""
        if self.stack or self._dice_faces() or self._status_lines() or not self._idle_message():
            return None
        top = PLAYER_STRIP.bottom + 2
        return pygame.Rect(0, top, theme.DESIGN_SIZE[0], self._idle_layout()[2].top - 4 - top)

    @property
    def banner_room(self) -> pygame.Rect | tuple[pygame.Rect, ...] | None:
        """While dice are out, the board under its title, where a banner stands where it fits there at FAR or larger
        (``banner.place``'s ``room``): the fourth roll's three lines at LARGE stood over the board from 278 and cut
        its title in half (268-288), the only words left of the board; a little smaller they stand under it. Between
        rolls after the start combos, the empty band under the cards kept for a notice (``notice_room``): the last
        combo's sentence and "Alle Startkombis stehen…" stood over the cards where those combos had just filled in,
        as every banner between rolls did (the cards are not kept in view then: the prompt, menu and board are).
        A sentence of three lines (the firsts with their rule, 128 px at FAR) does not fit that band (105): then down
        over whose throw it is, to the menu (``banner.place`` tries the rooms in turn): it stood at the top over the
        cards, the highlighted card of whose turn among them; the prompt under it says what the card and the menu's
        line ("Zoé würfelt") say too."""
        idle = self._idle_room()
        if idle is not None and self.game.state.phase != Phase.START and not self.game.finished:
            # its shadow (4 px) short of the prompt's umlauts, which reach 4 px over its rect ("WÜRFELN" lost them)
            band = pygame.Rect(0, PLAYER_STRIP.bottom, theme.DESIGN_SIZE[0], idle.bottom - 4 - PLAYER_STRIP.bottom)
            # its shadow short of the menu's framed line
            return band, pygame.Rect(band.x, band.y, band.w, MENU_AREA.y - 4 - band.y)
        if self.game.solo or self.game.finished or self.game.state.phase == Phase.START or self._dice_hidden() \
                or not self.die_rects() or self._asked_picture() is not None:
            return None
        top = self._board_title_rect().bottom
        under_title = pygame.Rect(BOARD_AREA.x, top, BOARD_AREA.w, BOARD_AREA.bottom - top)
        if self.stack:
            return under_title
        # then the board's whole column from under the prompt, the banner filling it: the firsts' four lines at FAR
        # ("Zuerst: Spalte H für Ben! Alle anderen schwärzen diesen pinken Bonus.", said as the next roll landed)
        # fit no room under the title and stood from 272 over the board, its title cut in half (268-288); the
        # board is what a roll's sentences may cover (``in_view``), the menu's lines and the prompt stay whole
        top = max(self._status_rect().bottom, DICE_AREA.bottom) + 4
        return under_title, pygame.Rect(BOARD_AREA.x, top, BOARD_AREA.w, BOARD_AREA.bottom - top)

    @property
    def focus_rect(self) -> pygame.Rect | None:
        """What SELECT chooses, for a banner to stand clear of (``App._focus_rect``): the open list's highlighted
        line (the app took the main menu's, hidden under a sub-menu), as wide as its list with the arrows beside it:
        a roll's banner right of the line stood over the ▲ that says more lines are above."""
        menu = self.current_menu
        focus = menu.focus_rect()
        return None if focus is None else pygame.Rect(focus.x, focus.y, menu.rect.right - focus.x, focus.h)

    def _die_hit(self, pos: tuple[int, int]) -> int | None:
        for i, r in enumerate(self.die_rects()):
            if r.inflate(8, 8).collidepoint(pos):
                return i
        return None

    def update(self, dt: float, now: float) -> None:
        self._follow()

    # -- drawing -------------------------------------------------------------------------------------------
    def draw(self, surface: pygame.Surface) -> None:
        surface.fill(theme.BG)
        self.menu = self._main_menu() if not self.stack else self.menu
        self._draw_players(surface)
        self._draw_dice(surface)
        if not self.stack:  # a sub-menu's title asks the question where the status lines stood
            self._draw_status(surface)
        if self._dice_hidden():  # a long list's own room: the dice and the status make way, down to the board
            room = pygame.Rect(0, DICE_AREA.y - 8, theme.DESIGN_SIZE[0], BOARD_AREA.y - DICE_AREA.y + 8)
            surface.fill(theme.BG, room)
        self.current_menu.draw(surface)
        if (picture := self._asked_picture()) is not None:  # the board waits: the question is about a die
            draw_die_picture(surface, picture, PICTURE_AREA if self.stack else LIST_PICTURE_AREA)
        else:
            self._draw_board(surface)
        self._draw_hints(surface)

    def card_rects(self) -> list[pygame.Rect]:
        """Each player's card: up to four in one row; five or six in two rows of three (six in a row left a name 100
        px: "Dorothea" at 26), each as wide as its name at FAR beside its notes needs (``_card_widths``)."""
        n = len(self.game.state.players)
        rows = 1 if n <= ONE_ROW else 2
        per_row = -(-n // rows)
        h = PLAYER_STRIP.h // rows
        widths = self._card_widths(per_row)
        rects = []
        for i, w in enumerate(widths):
            if i % per_row == 0:
                x = PLAYER_STRIP.x
            rects.append(pygame.Rect(x + 2, PLAYER_STRIP.y + (i // per_row) * h + 2, w - 4, h - 4))
            x += w
        return rects

    def _card_widths(self, cols: int) -> list[int]:
        """The cards' widths (with their gaps), ``cols`` to a row: even where every name stands at FAR (beside its
        notes on five or six cards); else each card as wide as its name at FAR needs (a name of several words in
        short where whole it is too long for an even card, as ``theme.fit_name`` draws it), the rest shared
        (``widths_by_need``, as Haste Worte's crystal table): in columns where both rows fit so, else row by row. Even
        cards left "Maximilian" 26 px and "Großmutter H." 22 beside "Anna" at 32 (four players' "Großmutter H." 26).
        Where a row's names are too long even so, its cards share the row as their names need, and those names go a
        little below FAR (``theme.fit_name``): each card stands alone, so the other row keeps its widths. A double first
        name is measured whole first, then in short ("Maximilian-A.") where the cards cannot hold it whole at FAR
        (``_card_name`` draws it so): whole, four long names left it 28 px, six 22."""
        names = [p.name for p in self.game.state.players]
        n, total = len(names), PLAYER_STRIP.w
        even = total // cols
        compact = n > ONE_ROW
        extra = NAME_PAD + (self._notes_w() if compact else 0) + 4  # beside the name: its tab, the notes, the gap
        # a row card's lines under the name: its X-chips at BODY after their chip ("X: 10"), the start combo's number
        least = 0 if compact else 20 + CHIP_W + theme.font(theme.BODY).size(self._chips_count(
            self.game.state.players[0], short=True))[0] + 4
        far = theme.font(theme.FAR, True)

        def need(name: str, double_whole: bool) -> int:
            """Room for the name at FAR: whole where it fits an even card, else in short ("Großvater J."); a double
            first name whole where ``double_whole`` (the cards sized for "Anne-M." drew "Anne-Marie" whole at 24)."""
            whole = far.size(name)[0]
            fits = whole + extra <= even or (double_whole and theme.double_first_name(name))
            return max(least, (whole if fits else far.size(theme.table_short_name(name, names))[0]) + extra)

        needs = [need(name, True) for name in names]
        if all(w <= even for w in needs):
            return [even] * n
        rows = [range(r, min(n, r + cols)) for r in range(0, n, cols)]
        shorter = [need(name, False) for name in names]
        # a row that holds its double first names whole keeps them so, whatever the other row needs (the last
        # list, row by row where a row holds not even their short forms)
        mixed = [(needs if sum(needs[i] for i in row) <= total else shorter)[k] for row in rows for k in row]
        return widths_by_need([needs, mixed] if mixed != needs else [needs], rows, total)

    def _notes_w(self) -> int:
        """A five or six players' card's notes column: its X-chips count at BODY after the chip's swatch ("X: 10"),
        and the start combos in words at SMALL over it where every name still stands at FAR beside them in even
        cards; else no wider than the count, the combos said by their swatch and number ("Orange 5" kept a column
        of 94 px, and the names beside it shrank)."""
        players = self.game.state.players
        most = max([MOST_CHIPS, *(p.chips for p in players)])
        count = theme.font(theme.BODY).size(self.tr("nxm.ui.chips_short", n=most))[0]
        combos = [theme.font(theme.SMALL).size(self._combo(p))[0] for p in players if p.has_start]
        narrow, wide = (NOTES_GAP + NOTE_CHIP + w + 2 for w in (count, max([count, *combos])))
        even = PLAYER_STRIP.w // -(-len(players) // 2)
        far = theme.font(theme.FAR, True)
        fits = all(far.size(p.name)[0] + NAME_PAD + wide + 4 <= even for p in players)
        return wide if fits else narrow

    def _draw_players(self, surface: pygame.Surface) -> None:
        st = self.game.state
        cells = self.card_rects()
        compact = len(cells) > ONE_ROW
        active = st.active if st.phase in (Phase.WAIT_ROLL, Phase.ROLLED) else None
        chip = 0 if self.game.solo else CHIP_W  # the X-chips' colour as a patterned chip before their count
        notes_w = self._notes_w() if compact else 0
        # the X-chips line at BODY: the count the table follows (the first without chips wins) was SMALL, "X-Chips
        # Rot: 7" at 22 beside the name at 40; where the colour's name leaves it no room at BODY it goes ("X: 7"
        # after the chip's pattern, as on five or six cards, whose gifts stand under the names)
        chips_at = theme.BODY
        if compact:
            short = any(not self._chips_fit(p, notes_w - NOTES_GAP - NOTE_CHIP - 2) for p in st.players)
        else:  # one wording for all: short where a count or the gifts after it would shrink with the colour named
            short = any(not self._count_fits(p, cell.w - 20 - chip, chips_at) for p, cell in zip(st.players, cells,
                                                                                                   strict=True))
        names_at = self._names_size([cell.w - NAME_PAD - notes_w for cell in cells])
        gifted = compact and any(self._gifts(p) for p in st.players)
        if gifted:  # the gifts' line under the names: LARGE leaves it no room
            names_at = min(names_at, theme.FAR)
        names = [self._name_at(p, cell, i == active, names_at, notes_w, gifted)
                 for i, (p, cell) in enumerate(zip(st.players, cells, strict=True))]
        drop = row_drop(names)  # every card's name alike as low as the marks over one need to stay in its card
        for i, (p, cell) in enumerate(zip(st.players, cells, strict=True)):
            hot = i == active
            pygame.draw.rect(surface, theme.ACCENT if hot else theme.PANEL, cell, border_radius=8)
            if p.chip_colour:  # a tab in the chip colour, with the pattern
                tab = pygame.Rect(cell.x, cell.y, 10, cell.h)
                pygame.draw.rect(surface, hue(p.chip_colour), tab, border_radius=4)
            ink = theme.BG if hot else theme.TEXT
            if compact:
                self._draw_compact_card(surface, p, cell, ink, names[i], short, gifted, notes_w, drop)
                continue
            names[i].draw(surface, drop)
            y = cell.y + 38
            if p.has_start:
                sw = pygame.Rect(cell.x + 16, y, 24, 24)
                draw_colour_swatch(surface, sw, p.start_colour, "", show_label=False)
                combo = f"{self.face_label(p.start_colour)} {p.start_number}"
                size = theme.fit_text(combo, theme.SMALL, cell.w - 60)
                if size < READABLE:  # "Orange 3" was 14 px beside "Rot 2": its colour said short ("Or 3"); the
                    combo = self._combo_short(p)  # swatch alone, 24 px, named it by a pattern (orange from green ΔE
                    size = theme.fit_text(combo, theme.SMALL, cell.w - 60)  # 5 for the red-blind)
                if size < READABLE:
                    combo, size = str(p.start_number), theme.SMALL
                theme.text(surface, combo, (sw.right + 5, y + 1), size, ink)
            else:  # fitted like the other lines
                missing = self.tr("nxm.ui.no_combo")
                size = theme.fit_text(missing, theme.SMALL, cell.w - 20)
                if size < READABLE:  # "Startkombi fehlt" at 16 px; said shorter, as the combo is
                    missing = self.tr("nxm.ui.no_combo_short")
                    size = theme.fit_text(missing, theme.SMALL, cell.w - 20)
                theme.text(surface, missing, (cell.x + 16, y + 1), size, ink)
            if chip and p.chip_colour:  # the stripe alone was hue: "X: 10" named no colour
                draw_colour_swatch(surface, chip_swatch(cell, compact=False), p.chip_colour, "", show_label=False)
            self._draw_chips(surface, p, (cell.x + 16 + (chip if p.chip_colour else 0), cell.bottom - 28),
                             cell.w - 20 - chip, chips_at, short, ink)

    def _draw_chips(self, surface: pygame.Surface, p: Any, pos: tuple[int, int], room: int, size: int, short: bool,
                    ink: tuple[int, int, int]) -> None:
        """A row card's X-chips at ``size`` and the gifts after them, SMALL or as small as their room asks: two
        joker gifts took the count down with them to 12 px."""
        count, gifts = self._chips_count(p, short), self._gifts(p)
        if not count:  # solo: the gifts alone
            line = " · ".join(gifts)
            if line:
                theme.text(surface, line, pos, theme.fit_text(line, theme.SMALL, room), ink)
            return
        at = theme.fit_text(count, size, room)
        drawn = theme.text(surface, count, pos, at, ink)
        if gifts:
            rest = " · " + " · ".join(gifts)
            small = theme.fit_text(rest, min(at, theme.SMALL), room - drawn.w)
            rest = theme.fit_label(rest, small, room - drawn.w)  # not into the next card: cut, "…"
            baseline = pos[1] + theme.font(at).get_ascent()
            theme.text(surface, rest, (drawn.right, baseline - theme.font(small).get_ascent()), small, ink)

    def _name_at(self, p: Any, cell: pygame.Rect, active: bool, names_at: int, notes_w: int, gifted: bool
                 ) -> NameAt:
        """A card's name as drawn (``_card_name``): at the card's top, or, on five or six cards without gifts,
        beside the notes in the middle, in the active card's dark ink. The one place ``row_drop`` measures and the
        card draws from: the active card's "Ảnh" read "Ánh", its hook dark on the dark screen over the card."""
        compact = len(self.game.state.players) > ONE_ROW  # five or six: two rows of cards with notes
        name, size = self._card_name(p.name, names_at, cell.w - NAME_PAD - notes_w)
        pos, anchor = ((cell.x + 14, cell.centery), "midleft") if compact and not gifted else (
            (cell.x + 14, cell.y + (0 if compact else 1)), "topleft")
        return NameAt(cell, name, pos, size, theme.BG if active else theme.TEXT, True, anchor)

    def _draw_compact_card(self, surface: pygame.Surface, p: Any, cell: pygame.Rect, ink: tuple[int, int, int],
                           name: NameAt, short: bool, gifted: bool, notes_w: int, drop: int = 0) -> None:
        """Five or six players' card, one of two rows: the name at FAR on the left, its start combo (SMALL) and X-chips
        left (BODY) at the right. Where a card holds gifts (``gifted``: any card), every name stands at the top and
        the gifts at SMALL under it: beside the count they had 30 px, and "Joker" was "J…" at 12."""
        room = cell.w - NAME_PAD - notes_w
        name.draw(surface, drop)  # at the top over the gifts, else in the middle (``_name_at``)
        if gifted:
            if gifts := " · ".join(self._gifts(p)):
                at = theme.fit_text(gifts, theme.SMALL, room)
                if at < READABLE:  # the first gifts whole, the rest cut: at most two kinds of three are this long
                    gifts, at = theme.fit_label(gifts, READABLE, room), READABLE
                theme.text(surface, gifts, (cell.x + 14, cell.bottom - theme.font(at).get_height()), at, ink)
        x = cell.right - notes_w + NOTES_GAP
        sw = pygame.Rect(x, cell.y + 2, NOTE_CHIP - 4, NOTE_CHIP - 4)
        if p.has_start:
            draw_colour_swatch(surface, sw, p.start_colour, "", show_label=False)
            width = notes_w - NOTES_GAP - NOTE_CHIP - 2
            # on every card alike ("Red 2" beside "3" read as two things): the colour said short ("Or 4"), its
            # 15 px swatch alone named it by a pattern (orange from green ΔE 5 for the red-blind), the number alone
            # only where that does not fit either
            starts = [q for q in self.game.state.players if q.has_start]
            for wording in (self._combo, self._combo_short, lambda q: str(q.start_number)):
                if all(theme.fit_text(wording(q), theme.SMALL, width) >= READABLE for q in starts):
                    break
            combo = wording(p)
            size = theme.fit_text(combo, theme.SMALL, width)
        else:  # the combo's place, empty: "keine Kombi" took a column the names needed
            pygame.draw.rect(surface, theme.PANEL_HI, sw, border_radius=3)
            pygame.draw.rect(surface, theme.MUTED, sw, width=2, border_radius=3)
            combo, size = "?", theme.SMALL
        theme.text(surface, combo, (x + NOTE_CHIP, cell.y + 2), size, ink)
        count = self._chips_count(p, short)
        if p.chip_colour and not self.game.solo:
            draw_colour_swatch(surface, chip_swatch(cell, compact=True, notes_w=notes_w), p.chip_colour, "",
                               show_label=False)
        if count:
            at = theme.fit_text(count, theme.BODY, notes_w - NOTES_GAP - NOTE_CHIP - 2)
            theme.text(surface, count, (x + NOTE_CHIP, cell.bottom - theme.font(at).get_height()), at, ink)

    def _card_name(self, name: str, size: int, room: int) -> tuple[str, int]:
        """A card's name and its size (``theme.fit_name`` with the table's names), a double first name in short
        ("Maximilian-A.") where whole it goes below FAR and the short form is larger: ``fit_name`` keeps it whole
        down to SMALL, and "Maximilian-Alexander" stood at 26 px beside "Anna" at 32 (the other screens' bars
        shorten it first, ``theme.name_forms``)."""
        players = tuple(self._names())
        fitted = theme.fit_name(name, size, room, bold=True, players=players)
        if fitted[1] >= theme.FAR or not theme.double_first_name(name):
            return fitted
        short = theme.table_short_name(name, players)
        at = theme.fit_text(short, size, room, bold=True)
        return (short, at) if short != name and at > fitted[1] else fitted

    def _combo(self, p: Any) -> str:
        """A player's start combo in words ("Orange 5")."""
        return f"{self.face_label(p.start_colour)} {p.start_number}"

    def _combo_short(self, p: Any) -> str:
        """A player's start combo with its colour said short ("Or 5", "Ge 3"): where the whole name has no room."""
        return f"{self.tr(f'nxm.face_short.{p.start_colour}')} {p.start_number}"

    def _names_size(self, rooms: list[int]) -> int:
        """The cards' names at one size, read across the table: LARGE where every name fits its card (``rooms``: each
        card's room for its name), else as large as the longest name allows down to FAR; a longer name than that
        shrinks alone (``fit_name``), the others stay at FAR (one long name made every card's name small)."""
        sizes = [theme.fit_text(p.name, theme.LARGE, room, bold=True)
                 for p, room in zip(self.game.state.players, rooms, strict=True)]
        return max(theme.FAR, min(sizes))

    def _gifts(self, p: Any) -> list[str]:
        """The gifts held, one held several times counted ("4× +/-1"): one name each, repeated, shrank the card's
        line below what a player reads across the table."""
        held = Counter(g.kind.value for g in p.gifts)
        return [(f"{n}× " if n > 1 else "") + self.tr(f"nxm.gift.{kind}") for kind, n in held.items()]

    def _chips_count(self, p: Any, short: bool = False) -> str:
        """The X-chips left ("X-Chips Rot: 7"); none in a solo game. ``short`` ("X: 7") where the colour's name would
        shrink a card's line, on every card alike: the card's stripe has that colour, and the count is what the
        table follows."""
        if self.game.solo:
            return ""
        if short:
            return self.tr("nxm.ui.chips_short", n=p.chips)
        return self.tr("nxm.ui.chips_left", n=p.chips, colour=self.tr(f"nxm.chip.{p.chip_colour}"))

    def _count_fits(self, p: Any, width: int, size: int) -> bool:
        """A row card's X-chips with their colour named at ``size``, and its gifts after them readable."""
        count = self._chips_count(p)
        if theme.fit_text(count, size, width) < size:
            return False
        rest = " · " + " · ".join(self._gifts(p))
        left = width - theme.font(size).size(count)[0]
        return not self._gifts(p) or theme.fit_text(rest, theme.SMALL, left) >= READABLE

    def _chips_fit(self, p: Any, width: int) -> bool:
        """A five or six players' card's X-chips with their colour named at BODY (its gifts stand elsewhere)."""
        return theme.fit_text(self._chips_count(p), theme.BODY, width) >= theme.BODY

    def _draw_dice(self, surface: pygame.Surface) -> None:
        faces = self._dice_faces()
        st = self.game.state
        if not faces:
            lines, size, area = self._idle_layout()  # whose throw it is: for the far end of the table too
            y = area.y
            for line in lines:
                theme.text(surface, line, (DICE_AREA.centerx, y), size, theme.TEXT, bold=True, anchor="midtop")
                y += theme.font(size).get_height() + 1
            return
        # a finished game's last pair is history, not a choice to make: drawn plain; so are the dice while one of
        # them is corrected, the die in question lit
        question = self._die_in_question()
        roll = st.roll if self.pending is None and not self.game.finished and question is None else None
        others = self.game.others_choose_from() if roll is not None else None
        for i, (rect, face) in enumerate(zip(self.die_rects(), faces, strict=True)):
            picked = roll is not None and roll.pick is not None and i in roll.pick
            dim = roll is not None and others is not None and i not in others and not roll.open_choice
            if face is not None and is_colour(face):
                # (the joker's five colours say which it is: its whole name was 14 px under them, "Joker" 22)
                label = self.tr("nxm.ui.die_colour_joker") if face == COLOUR_JOKER else self.face_label(face)
                draw_colour_swatch(surface, rect, face, label, show_label=False)
                if dim:  # the swatch veiled, its name not: "Gelb" under the veil was 3.7:1 (16:1 on its plate)
                    veil = pygame.Surface(rect.size, pygame.SRCALPHA)
                    veil.fill((18, 22, 30, 150))
                    surface.blit(veil, rect)
                draw_swatch_label(surface, rect, label)
            else:
                draw_die(surface, rect, face, dimmed=dim, label=self._number_label)
            if picked or i in self.tapped or i == question:
                pygame.draw.rect(surface, theme.ACCENT, rect.inflate(10, 10), width=5, border_radius=16)

    def _number_label(self, face: Any) -> str:
        return "1-5" if face == NUMBER_JOKER else str(face)

    def _idle_layout(self) -> tuple[tuple[str, ...], int, pygame.Rect]:
        """Whose throw it is where no dice lie: its lines, their size and the rect they take. Where no status lines
        stand under it, down above the menu: a banner between rolls stands at the top (the menu and the board are
        kept in view, ``in_view``) and covered the line there, "Mia: WÜRFELN drücken" hidden under "Würfel an Mia"."""
        lines, size = theme.far_lines(self._idle_message(), theme.LARGE, DICE_AREA.w, max_height=DICE_AREA.h)
        height = (theme.font(size).get_height() + 1) * len(lines)
        if self._status_lines() or self.stack:  # (solo: which field the next roll crosses, under it; a sub-menu's
            # title stands above the menu: "Wer beginnt?" was drawn under the line there)
            return lines, size, pygame.Rect(DICE_AREA.x, DICE_AREA.centery - height // 2, DICE_AREA.w, height)
        return lines, size, pygame.Rect(DICE_AREA.x, MENU_AREA.y - 20 - height, DICE_AREA.w, height)

    def _roll_prompt_rect(self) -> pygame.Rect | None:
        """Where a finger taps the sentence that asks for a throw (a start combo's, the next roll's) as ROLL: its
        lines' width, at least a finger's height. None where it asks for nothing of the kind (the dice are read, a
        list of its own is open, the dice read are corrected) or stands not at all."""
        st = self.game.state
        if self.waiting or self.stack or self.pending is not None or self._dice_faces() \
                or st.phase not in (Phase.START, Phase.WAIT_ROLL) or not self._idle_message():
            return None
        lines, size, area = self._idle_layout()
        width = max(theme.font(size).size(line)[0] for line in lines) + 2 * ROLL_PROMPT_PAD
        rect = pygame.Rect(0, 0, width, max(area.h, ROLL_PROMPT_H))
        rect.center = area.center
        return rect

    def _idle_message(self) -> str:
        st = self.game.state
        if self.waiting:
            return self.tr("nxm.ui.waiting")
        if st.phase == Phase.START:
            starter = self._next_start()
            return self.tr("nxm.ui.start_prompt", player=starter) if starter is not None else ""
        if st.phase == Phase.WAIT_ROLL:
            return self.tr("nxm.ui.press_roll", player=self.game.active_player.name)
        return ""

    def _status_lines(self) -> list[tuple[str, tuple[int, int, int]]]:
        g, st = self.game, self.game.state
        if self.pending is not None:  # a start combo's says whose: the player strip says "none yet"
            starter = self._next_start()
            want = (1, 1) if starter is not None else self.game.dice_counts
            if _wrong_mix(self.pending, want[0]):  # every die read, one of them wrongly: the mix says so
                got = colour_dice(self.pending)
                return [(self.tr("nxm.ui.correct_mix_prompt", colours=got, numbers=len(self.pending) - got,
                                 want_colours=want[0], want_numbers=want[1]), theme.UNKNOWN)]
            if self._pending_ready():  # every die known, the mix right: what enters them
                return [(self.tr("nxm.ui.pending_ready", use=self.tr("nxm.ui.use_dice")), theme.ACCENT)]
            if starter is not None:
                return [(self.tr("nxm.ui.correct_start_prompt", player=starter), theme.UNKNOWN)]
            return [(self.tr("nxm.ui.correct_prompt"), theme.UNKNOWN)]
        if st.phase == Phase.OVER:
            lines = [(self._result_text(), theme.ACCENT)]
            how = st.decided_by.value if st.decided_by is not None else ""
            if how in ("symbols", "pass-fields", "columns"):
                lines.append((self.tr(f"nxm.winner_by.{how}", player=st.winners[0]), theme.TEXT))
            return lines
        if st.phase == Phase.TIEBREAK:
            return [(self.tr("nxm.ui.tie_prompt", players=", ".join(st.finishers)), theme.ACCENT)]
        if st.phase == Phase.SOLO_SCORE:
            return [(self.tr("nxm.ui.solo_prompt"), theme.ACCENT)]
        roll = st.roll
        if st.phase != Phase.ROLLED or roll is None:
            if st.phase == Phase.WAIT_ROLL and g.solo:
                letter, stroke = solo_stroke(st.rolls + 1)
                return [
                    (
                        self.tr(
                            f"nxm.ui.solo_next_{stroke}", roll=st.rolls + 1, total=SOLO_ROLLS, letter=letter
                        ),
                        theme.MUTED,
                    )
                ]
            return []
        lines = []
        if g.solo:
            letter, stroke = solo_stroke(roll.number)
            lines.append(
                (
                    self.tr(
                        f"nxm.ui.solo_stroke_{stroke}", roll=roll.number, total=SOLO_ROLLS, letter=letter
                    ),
                    theme.TEXT,
                )
            )
        elif roll.open_choice:
            lines.append((self.tr("nxm.ui.status_open", roll=roll.number), theme.TEXT))
        elif roll.active_passed:
            lines.append(
                (self.tr("nxm.ui.status_active_passed", roll=roll.number, player=roll.active), theme.TEXT)
            )
        elif roll.pick is None:
            lines.append(
                (self.tr("nxm.ui.status_active_first", roll=roll.number, player=roll.active), theme.ACCENT)
            )
        else:
            lines.append((self.tr("nxm.ui.status_others", roll=roll.number, player=roll.active), theme.TEXT))
        extras = []
        if any(f in JOKERS for f in roll.dice):
            extras.append(self.tr("nxm.ui.joker_short"))
        if roll.passes:
            extras.append(
                self.tr("nxm.ui.passes", list=", ".join(f"{n} {c}" for n, c in roll.passes.items()))
            )
        all_dice = roll.all_dice_players()
        if all_dice:
            extras.append(self.tr("nxm.ui.all_dice_now", players=", ".join(all_dice)))
        if extras:
            lines.append(("   ".join(extras), theme.MUTED))
        return lines

    def _status_rect(self) -> pygame.Rect:
        """Where the roll's prompt and its rule notes stand (``_draw_status``), for a banner to spare."""
        lines = self._status_lines()[:2]
        notes = NOTE_H if len(lines) > 1 else 0
        prompt, size = theme.far_lines(lines[0][0], theme.LARGE, STATUS_W,
                                       max_height=MENU_AREA.y - 2 - STATUS_TOP - notes) if lines else ((), 0)
        height = len(prompt) * (theme.font(size).get_height() + 1) + notes + 1 if prompt else 0
        return pygame.Rect(DICE_AREA.x, STATUS_TOP, STATUS_W, height)

    def _draw_status(self, surface: pygame.Surface) -> None:
        """The roll's prompt (who chooses from what, the winner) read from the far end of the table: LARGE where it
        fits, else FAR, on two lines where one would shrink it; the rule notes under it SMALL, for who sits there."""
        y = STATUS_TOP
        lines = self._status_lines()[:2]
        if not lines:
            return
        text, colour = lines[0]
        notes = 0 if self.game.finished or len(lines) < 2 else NOTE_H
        prompt, size = theme.far_lines(text, theme.LARGE, STATUS_W, max_height=MENU_AREA.y - 2 - y - notes)
        for line in prompt:
            theme.text(surface, line, (400, y), size, colour, bold=True, anchor="midtop")
            y += theme.font(size).get_height() + 1
        if self.game.finished:  # how it was decided where the menus stood (the board's left)
            for text, colour in lines[1:]:
                draw_wrapped(surface, text, MENU_AREA.inflate(-20, -16), theme.FAR, colour)
            return
        for text, colour in lines[1:]:
            theme.text(surface, text, (400, y + 1), theme.fit_text(text, theme.SMALL, STATUS_W), colour,
                       anchor="midtop")

    def _result_text(self) -> str:
        st = self.game.state
        if self.game.solo and st.solo_symbols is not None:
            from companion.games.noch_x_mal.faces import solo_rating

            key = solo_rating(st.solo_symbols).replace("nxm.rating.", "nxm.rating_text.")
            return f"{st.solo_symbols} × X: {self.tr(key)}"
        if len(st.winners) == 1:
            return self.tr("nxm.ui.winner", player=st.winners[0])
        return self.tr("nxm.ui.winners", players=", ".join(st.winners))

    def _board_title_rect(self) -> pygame.Rect:
        """The board's top down to the foot of its title as drawn (``_draw_board``), for a banner to spare."""
        height = theme.font(theme.SMALL).render(self.tr("nxm.ui.board_title"), True, theme.MUTED).get_height()
        return pygame.Rect(BOARD_AREA.x, BOARD_AREA.y, BOARD_AREA.w, BOARD_TITLE_Y + height)

    @staticmethod
    def _board_cells() -> dict[str, pygame.Rect]:
        """Where the board draws each goal: the report's list takes a tap on one as its answer."""
        area, cell_h = BOARD_AREA, 34
        cell_w, y = (area.w - 20) // len(COLUMNS), area.y + 34
        cells = {f"column-{letter}": pygame.Rect(area.x + 10 + i * cell_w, y, cell_w - 2, cell_h)
                 for i, letter in enumerate(COLUMNS)}
        w, y = (area.w - 20) // len(BOARD_ROW), y + cell_h + 6
        cells.update({gid: pygame.Rect(area.x + 10 + i * w, y, w - 3, cell_h) for i, (gid, _) in enumerate(BOARD_ROW)})
        return cells

    def _draw_board(self, surface: pygame.Surface) -> None:
        """First-to-reach goals: open ones bright, taken ones dark with a cross; the latest claims by name."""
        g, st = self.game, self.game.state
        area = BOARD_AREA
        pygame.draw.rect(surface, theme.PANEL, area, border_radius=10)
        if g.solo:
            self._draw_solo_strokes(surface, area)
            return
        theme.text(
            surface, self.tr("nxm.ui.board_title"), (area.x + 10, area.y + BOARD_TITLE_Y), theme.SMALL, theme.MUTED
        )
        cells = self._board_cells()
        for letter in COLUMNS:
            gid = f"column-{letter}"
            self._goal_cell(surface, cells[gid], gid, letter, pink_only=letter in PINK_ONLY_COLUMNS)
        for gid, label in BOARD_ROW:
            r = cells[gid]
            if gid.startswith("colour-"):
                draw_colour_swatch(surface, r, gid[len("colour-") :], "", show_label=False)
                self._goal_cell(surface, r, gid, "", overlay_only=True)
            elif gid.startswith("diamonds-"):
                self._goal_cell(surface, r, gid, "")
                cx, cy, d = r.x + 11, r.centery, 7
                pygame.draw.polygon(surface, PINK, [(cx, cy - d), (cx + d, cy), (cx, cy + d), (cx - d, cy)])
                theme.text(
                    surface,
                    label[-1],
                    (r.right - 4, r.centery),
                    theme.SMALL,
                    theme.DIE_PIP,
                    bold=True,
                    anchor="midright",
                )
            else:
                self._goal_cell(surface, r, gid, label)
        y = max(r.bottom for r in cells.values()) + 8
        claims = sorted(st.claims.items(), key=lambda kv: (-kv[1].roll, GOALS.index(kv[0])))
        for gid, claim in claims[:3]:
            if y + theme.font(theme.SMALL).get_linesize() > BOARD_PANEL_BOTTOM:  # as many as stand clear of the
                break  # hint line: a third was cut at its edge
            line = f"{self.tr(f'nxm.goal.{gid}')}: {', '.join(claim.players)}"
            theme.text(
                surface, line, (area.x + 10, y), theme.fit_text(line, theme.SMALL, area.w - 20), theme.TEXT
            )
            y += 26

    def _goal_cell(
        self,
        surface: pygame.Surface,
        r: pygame.Rect,
        gid: str,
        label: str,
        *,
        pink_only: bool = False,
        overlay_only: bool = False,
    ) -> None:
        taken = gid in self.game.state.claims
        if not overlay_only:
            pygame.draw.rect(surface, (70, 74, 88) if taken else (250, 232, 242), r, border_radius=5)
            pygame.draw.rect(surface, PINK, r, width=3 if pink_only else 2, border_radius=5)
            if label:
                size = theme.fit_text(label, theme.SMALL, r.w - 2, bold=True)
                theme.text(
                    surface,
                    label,
                    r.center,
                    size,
                    theme.MUTED if taken else theme.DIE_PIP,
                    bold=True,
                    anchor="center",
                )
        if taken:  # dimmed as a taken die is, and crossed in dark with a white edge: a red cross alone vanished on
            if overlay_only:  # the red swatch, and seen without red it was the swatch's own shade
                veil = pygame.Surface(r.size, pygame.SRCALPHA)
                veil.fill((*theme.BG, 150))
                surface.blit(veil, r.topleft)
            outlined_cross(surface, r, theme.BG, 4)

    def _draw_solo_strokes(self, surface: pygame.Surface, area: pygame.Rect) -> None:
        st = self.game.state
        heading = self.tr("nxm.ui.solo_fields", n=st.rolls, total=SOLO_ROLLS)  # fitted: "30 von 30" ran past the panel
        theme.text(surface, heading, (area.x + 10, area.y + 6), theme.fit_text(heading, theme.SMALL, area.w - 20),
                   theme.MUTED)
        cell = (area.w - 20) // 8
        nxt = st.rolls + 1 if st.phase == Phase.WAIT_ROLL else st.rolls
        for i, letter in enumerate(COLUMNS):
            r = pygame.Rect(area.x + 10 + (i % 8) * cell, area.y + 36 + (i // 8) * (cell + 8), cell - 4, cell)
            pygame.draw.rect(surface, (250, 232, 242), r, border_radius=5)
            theme.text(surface, letter, (r.x + 4, r.y + 2), theme.SMALL, theme.DIE_PIP, bold=True)
            if st.rolls >= i + 1:
                pygame.draw.line(surface, theme.DIE_PIP, (r.x + 6, r.bottom - 6), (r.right - 6, r.y + 6), 3)
            if st.rolls >= i + 1 + len(COLUMNS):
                pygame.draw.line(surface, theme.DIE_PIP, (r.x + 6, r.y + 6), (r.right - 6, r.bottom - 6), 3)
            if 1 <= nxt <= SOLO_ROLLS and solo_stroke(nxt)[0] == letter and st.phase != Phase.OVER:
                pygame.draw.rect(surface, theme.ACCENT, r.inflate(6, 6), width=4, border_radius=7)

    def _draw_hints(self, surface: pygame.Surface) -> None:
        if self.game.finished:
            self.hint_taps = []
            return  # the app draws a finished game's own: play again, or the menu
        hints = []
        st = self.game.state
        if st.phase in (Phase.START, Phase.WAIT_ROLL) and not self.stack and self.pending is None:
            hints.append((t("core.btn_roll", self.lang), t("core.hint_roll", self.lang)))
        long = bool(self.stack) and len(self.stack[-1].items) > LONG_LIST
        if next_moves(self.current_menu):  # (one row to choose, "Ben rolls" too: NEXT moves nothing)
            hints.append((t("core.btn_next", self.lang),
                          t("core.hint_move_hold" if long else "core.hint_move", self.lang)))
        hints.append((t("core.btn_select", self.lang), t("core.hint_choose", self.lang)))
        if self.stack:
            hints.append((t("core.btn_undo", self.lang), t("core.hint_back", self.lang)))
        self.hint_taps = game_hint_bar(surface, hints, self.lang)


__all__ = ["NochXMalMode", "draw_colour_swatch", "FIRST_RESTRICTED_ROLL"]


def chip_swatch(cell: pygame.Rect, *, compact: bool, notes_w: int = 0) -> pygame.Rect:
    """Where a card draws its X-chips' colour swatch, before the chips line: bottom left in a one-row card, before
    the notes' second line (``notes_w`` wide, ``NochXMalMode._notes_w``) in a two-row card."""
    if compact:
        return pygame.Rect(cell.right - notes_w + NOTES_GAP, cell.bottom - 20, NOTE_CHIP - 4, NOTE_CHIP - 4)
    return pygame.Rect(cell.x + 16, cell.bottom - 27, CHIP_W - 6, CHIP_W - 6)


def _joker_first(answers: tuple[str, ...]) -> tuple[str, ...]:
    """A die's answers with the joker of its kind (the first six) first: the row throwing again above them pushed
    the joker, its sixth face, one NEXT out of view (six rows of a finger's height fit under the question; a seventh
    does not). Red to green or 1 to 4 in view say that blue or 5 follows; nothing said a joker did, and a joker is
    a face the reader often finds nothing near (the colour joker shows every colour)."""
    kind, other = answers[:len(COLOUR_FACES)], answers[len(COLOUR_FACES):]
    jokers = [f for f in kind if f in JOKERS]
    return (*jokers, *(f for f in kind if f not in JOKERS), *other)


def _wrong_mix(faces: list[str | None], colours: int) -> bool:
    """Every die read, but not ``colours`` of them colour dice: one was read wrongly, for sure."""
    return None not in faces and colour_dice(faces) != colours
