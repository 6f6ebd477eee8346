"""The Haste Worte? screen: dice to pick, the letter, the 90-second hourglass, reading out, the crystal table.

Usable with the buttons alone (ROLL, TIMER, NEXT, SELECT) and by touch. The crystal table stays at the top in
every phase. The hourglass is computed from time stamps (``companion.hourglass``): the screen maps the app's
monotonic clock onto the wall clock once (at start or resume), so a slow frame rate cannot make it drift and
a network time step during the 90 seconds cannot jump it. After a restart the remaining time is restored from
the wall clock; when the wall clock reads before the start stamp the round is marked interrupted (see
``docs/haste_worte.md``).

A die the camera read wrongly but for sure (nobody was asked) is corrected while the dice are picked and until the
letter is turned: "Correct a die …" (a button below the dice, reached with NEXT or a tap), then the die (NEXT and
SELECT, or a tap; a die already taken too: its owner's symbol follows) and its true symbol, the symbol read
preselected. A die read from the camera's picture is taught from it, as an unsure die's answer is.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import pygame

from companion.announce import Announcement
from companion.games.haste_worte import MAX_OWN_WORDS, SYMBOLS, HasteWorte, Phase, symbol_label
from companion.hourglass import Phase as SandPhase
from companion.hourglass import Resume
from companion.i18n import t
from companion.session import GameSession, ReadRoll
from companion.views import theme
from companion.views.banner import MARGIN as BANNER_MARGIN
from companion.views.frame_clock import ClockCalls, FrameClock, undone_for_this_run
from companion.views.widgets import (
    HINT_BAR_H,
    DiceRow,
    NameAt,
    draw_die,
    draw_die_picture,
    draw_label,
    first_choice,
    game_hint_bar,
    moved,
    row_drop,
    spanning,
    widths_by_need,
    with_menu,
)
from hardware.events import Button, ButtonEvent, Press
from vision.types import DiePicture, TrayReading

TOP_H = 64  # the crystal table
STATUS_Y = 70
ONE_ROW = 4  # more players than this: the crystal table in two rows of three, as Noch X-Mal!'s cards
#: two rows' heights and tops: a FAR name is drawn 30 rows high; the status line goes 4 lower, its foot (112) still
#: above what every screen starts with (the symbols beside the hourglass at 113, the dice at 118)
ROW_H = 33
ROW_TOPS = (2, 37)
TWO_ROWS_STATUS_Y = 74
#: while words are read out and at the end, the status line under where a banner of one line at the top ends with
#: its shadow (y 90), the winners' second line grazed at most by one of two lines: the counts and the ranking are
#: what such a banner spares (``in_view``), so it stands at the top, and over the line at 70 it cut "Anna liest vor"
#: in half; the symbol's box under it 10 rows lower
UNDER_BANNER_STATUS_Y = 90
TWO_LINE_BANNER_FOOT = 128
READING_BOX = pygame.Rect(40, 132, 720, 64)
BAR_X = (4, 746)  # the crystal table's left and right: the app's menu corner is drawn from 754
CELL_GAP = 4
CELL_PAD = 6  # a two-row cell's name and count from its edges
NAME_GAP = 8  # between a name and its crystal
CRYSTAL_R = 8
HOURGLASS_RECT = pygame.Rect(14, 112, 220, 334)
#: beside the hourglass: the letter's tile (its caption under it) and who has which symbol, 12 right of the tile
SAND_LETTER = pygame.Rect(256, 116, 140, 140)
#: (188 high: under the rows, the foot beside the hourglass keeps 128 px for round 1's sand sentence on three
#: lines at FAR, which covers the word limits there and says them; at 196 it had 122, and the lines went to BODY)
SAND_SYMBOLS = pygame.Rect(408, 112, 382, 188)
LETTER_SYMBOLS = pygame.Rect(20, 130, 420, 300)  # who has which symbol before the letter, beside its buttons
LETTER_IN_VIEW = SAND_LETTER.inflate(0, 28).move(0, 14)  # the letter's tile and its caption under it
#: the word limits' top: under the symbols, and while the sand runs at the foot beside the hourglass (its buttons
#: are not shown then), where a banner stands (``in_view``): under one it is whole, not cut in half, and the sand's
#: own sentence says the limits; two FAR lines (30 apart, 37 rows drawn) end above the buttons (378) and, while the sand
#: runs, inside a banner of one line at the foot (its foot at 430)
LIMITS_TOP, SAND_LIMITS_TOP = 309, 362
LIMITS_RIGHT = 790
MENU_CLEAR_X = 740  # the app's menu corner sits right of this on the top row
#: the "Correct a die …" button's value among NEXT's options (after the dice 0-5, or the letter's two buttons)
FIX = 99
FIX_RECT = pygame.Rect(20, 386, 320, 50)  # in the pick phase, below the word limits
#: an unread die's answer "not one of this game's dice: take it out, roll again" (the reading is thrown away,
#: nothing taught), offered first where the reader had no guess
TAKE_OUT = "take-out"
ANSWERS_BOTTOM = 436  # the hint line's framed buttons start below this
COUNTS_TOP = ANSWERS_BOTTOM - 4 - 120  # the word counts (120 high) just above the hint line's framed buttons
OVER_TITLE_Y = 120  # "Gewonnen!": the ranking below it, at LARGE for six players too
UNREAD_PICTURE = pygame.Rect(250, 250, 300, ANSWERS_BOTTOM - 250)  # under the dice: the unread one highlighted
FIX_PICTURE = pygame.Rect(510, 292, 270, ANSWERS_BOTTOM - 292)  # beside the word limits: the die highlighted
#: the word limits' top left while a die is picked: under the dice and their owners, their second FAR line above the
#: "Correct a die" button (386); where that button is not offered (virtual dice), at the foot, as beside the running
#: sand, leaving the band under the dice to a notice (``notice_room``)
PICK_LIMITS = (30, 318)
PICK_LIMITS_LOW = (30, SAND_LIMITS_TOP)
PICK_LETTER_X = 640  # the letter turned first (variant 1) stands right of the limits while dice are picked
#: where two rows of names under the picked dice end: above the word limits (y 318)
OWNERS_BOTTOM = 316


class HasteWorteMode:
    def __init__(self, session: GameSession) -> None:
        self.session = session
        self.dice = DiceRow(pygame.Rect(20, 118, 760, 112), label=self._short_label, max_size=112)
        self.cursor = 0
        #: an open sub-choice: ("symbol", die) fixes an unread die, ("fix", die) one read wrongly, ("who", die) in
        #: variant 2, ("letter", 0)
        self.choosing: tuple[str, int] | None = None
        self.fixing = False  # "Correct a die": which die (the cursor on any die, taken ones too)
        #: the roll entered from a camera reading: a die corrected later is taught from its picture
        self.read_roll: ReadRoll | None = None
        self.choice_index = 0
        self.pending: list[str | None] | None = None  # faces read with some unknown: waiting for corrections
        self.waiting = False  # ROLL pressed, the camera is looking
        #: the hints a finger presses as buttons: the app presses them as the buttons are (``App.on_tap``)
        self.hint_taps: list[tuple[pygame.Rect, ButtonEvent]] = []
        # the app's clock for the whole run: a screen built again (resumed from the main menu) reads on from it
        self._clock: FrameClock = getattr(session, "frame_clock", None) or FrameClock(session.wall_time)
        self._resumed = False
        self._seen_running: float | None = None  # the start stamp of the run this screen watched
        self._calls = ClockCalls()  # its last minute (two or more), ten seconds and each of them, said once a run
        self._context: tuple[Any, ...] = ()

    # -- what to show
    @property
    def game(self) -> HasteWorte:
        return self.session.engine  # type: ignore[return-value]

    @property
    def lang(self) -> str:
        return self.session.lang

    @property
    def hourglass_rect(self) -> pygame.Rect | None:
        """The app keeps announcement banners off this rect while the sand runs."""
        return HOURGLASS_RECT if self.game.phase is Phase.WRITING else None

    def wall_now(self) -> float:
        """The wall-clock time of the current frame, on the monotonic clock's steady pace."""
        return self._clock.now()

    #: TIMER turns the hourglass (before the letter it says why not yet): the app's "no hourglass" is not for it
    has_hourglass = True

    def clock_left(self) -> float | None:
        """Seconds of sand left while it runs (the pause menu over it says so), else None."""
        g, wall = self.game, self.wall_now()
        return g.hourglass.remaining(wall) if g.phase is Phase.WRITING and g.hourglass.is_running(wall) else None

    def _meanings(self) -> dict[str, str]:
        configured: dict[str, str] = {}
        cfg = getattr(self.session, "config", None)
        section = getattr(cfg, "games", {}).get("haste-worte", {}) if cfg is not None else {}
        if isinstance(section.get("meanings"), dict):
            configured = {k: v for k, v in section["meanings"].items() if isinstance(v, str)}
        return {**configured, **self.game.meanings}

    def _short_label(self, symbol: Any) -> str:
        """A configured meaning first, else the catalog's short name, else the edition's symbol id."""
        return self._meanings().get(str(symbol)) or symbol_label(str(symbol), self.lang)

    def _meaning(self, symbol: str | None) -> str | None:
        """The rulebook's meaning of ``symbol`` ("Autoteile und Automarken" for "Auto"), where it says more than the
        short name on the screen: families read "Auto" or "Gewässer" and argued what counts. None for a meaning the
        table configured (it is the label already) and an edition's own symbol."""
        if symbol not in SYMBOLS or symbol in self._meanings():
            return None
        meaning = t(f"haste.meaning.{symbol}", self.lang)
        return None if _repeats(meaning, self._short_label(symbol), t("core.and", self.lang)) else meaning

    def _sync_context(self) -> None:
        """Reset the highlight whenever the game moves on (a pick, a score, undo)."""
        g = self.game
        self.dice.faces = list(self.pending if self.pending is not None else g.round.dice or [])
        ctx = (g.round.number, g.phase, len(g.round.picks), len(g.round.scores), g.round.dice is None)
        if ctx != self._context:
            self._context = ctx
            self.cursor = self._first_free_die() if g.phase is Phase.PICK else 0
            self.choosing = None
            self.fixing = False
            if g.phase is not Phase.ROLL and not (g.phase is Phase.PICK and not g.round.picks):
                self.pending = None
                self.waiting = False

    def _first_free_die(self) -> int:
        free = self._free_dice()
        return free[0] if free else 0

    def _free_dice(self) -> list[int]:
        r = self.game.round
        return [i for i in range(len(r.dice or [])) if r.owner_of(i) is None]

    # -- input
    def on_dice(self, reading: TrayReading) -> None:
        if not self._may_roll():
            return
        self.waiting = False
        faces = [d.face if isinstance(d.face, str) else None for d in reading.dice]
        if len(faces) == 6 and any(f is None for f in faces):
            self.pending = faces  # show them; the table taps each unread die and chooses its symbol
            self.cursor = next(i for i, f in enumerate(faces) if f is None)
            return
        self.pending = None
        self._roll_read(faces, reading)  # a wrong count is explained by the engine

    def _roll_read(self, faces: list[str | None], reading: TrayReading | None) -> None:
        """Enter a roll read by the camera, remembering its reading: a die corrected later is taught from it."""
        action = {"action": "roll", "dice": faces}
        if self.session.apply(action) and reading is not None:
            self.read_roll = ReadRoll(action, reading, {i: i for i in range(len(faces))})

    def _may_fix(self) -> bool:
        """Whether "Correct a die" is offered: the dice were read by a camera (virtual dice the companion threw are
        what they show), and they are on the screen (picking) or their symbols are (before the letter). The engine
        allows it until the reading ends; the hourglass and the reading show no dice."""
        g = self.game
        return (self.session.camera_ready and self.pending is None and g.round.dice is not None
                and g.phase in (Phase.PICK, Phase.LETTER))

    def _may_roll(self) -> bool:
        g = self.game
        return g.phase is Phase.ROLL or (g.phase is Phase.PICK and not g.round.picks)

    def dice_to_throw(self) -> list[tuple[str, ...]]:
        """Each die's faces the table throws (virtual dice; the built-in tray throws them too): six symbol dice, each
        with all eleven symbols. The real dice carry a fixed few per die, but neither the rulebook (it names "6 symbol
        dice" and the eleven meanings) nor the dice set (one kind of die, editions differ) says which: a split made up
        here would keep symbols apart that a family's dice throw together."""
        return [SYMBOLS] * 6

    def _roll(self) -> None:
        if self.session.camera_ready:
            self.waiting = True  # the app asks the camera and calls on_dice when the dice lie still
            if self.pending is not None:  # thrown again: the answers about the dice read are not used
                self.pending = None
                self.session.drop_answers()
            self.session.ask_for_dice()
            return
        faces = self.session.virtual_roll(self.dice_to_throw())
        self.session.apply({"action": "roll", "dice": faces})

    def on_button(self, event: ButtonEvent) -> bool:
        self._sync_context()
        b, long = event.button, event.press is Press.LONG
        if self.choosing is not None:
            return self._choice_button(b, long)
        if self.fixing:
            return self._fix_button(b, long)
        if b in (Button.ROLL, Button.REROLL):
            if self._may_roll():
                self._roll()
                return True
            return False
        if b is Button.TIMER:
            return self._timer_button(long)
        options = self._options()
        if b.step and options:
            at = options.index(self.cursor) if self.cursor in options else None
            self.cursor = options[moved(at, b.step, len(options))]
            return True
        if b is Button.SELECT and not long:
            return self._select(self.cursor)
        return False

    def on_tap(self, pos: tuple[int, int]) -> bool:
        self._sync_context()
        if self.choosing is not None:
            for i, r in enumerate(self._choice_rects()):
                if r.collidepoint(pos):
                    self.choice_index = i
                    self._confirm_choice()
                    return True
            self.choosing = None
            return True
        if self.fixing:
            hit = self.dice.hit(pos)
            if hit is None:
                return False
            self.cursor = hit
            self._open("fix", hit)
            return True
        for value, rect in self._targets().items():
            if rect.collidepoint(pos):
                self.cursor = value
                return self._select(value)
        return False

    def _options(self) -> list[int]:
        """What NEXT cycles through in this phase (dice, buttons, word counts)."""
        g = self.game
        if self.pending is not None:
            return [i for i, f in enumerate(self.pending) if f is None]
        if g.phase is Phase.PICK:
            return self._free_dice() + ([FIX] if self._may_fix() else [])
        if g.phase is Phase.LETTER:
            return [0, 1] + ([FIX] if self._may_fix() else [])  # draw / enter a token / correct a die
        if g.phase is Phase.WRITING:  # turn the hourglass / time's up; none while the sand runs (nothing is lit)
            return [] if g.hourglass.is_running(self.wall_now()) else [0, 1]
        if g.phase is Phase.READING:
            return list(range(MAX_OWN_WORDS + 1))
        return []

    def _select(self, value: int) -> bool:
        g = self.game
        if self.pending is not None:
            self._open("symbol", value)
            return True
        if g.phase is Phase.ROLL:
            self._roll()
            return True
        if value == FIX and self._may_fix():
            self.fixing = True
            self.cursor = 0
            return True
        if g.phase is Phase.PICK:
            if value not in self._free_dice():
                return False
            waiting = [i for i in range(len(g.players)) if g.round.die_of(i) is None]
            if g.simultaneous and len(waiting) > 1:
                self._open("who", value)
            elif g.simultaneous:  # the last die taken: only one player can have taken it
                self.session.apply({"action": "pick", "die": value + 1, "player": g.players[waiting[0]]})
            else:
                self.session.apply({"action": "pick", "die": value + 1})
            return True
        if g.phase is Phase.LETTER:
            if value == 0:
                self.session.apply({"action": "letter"})
            else:
                self._open("letter", 0)
            return True
        if g.phase is Phase.WRITING:
            if value == 0:
                return self._timer_button(False)
            self.session.apply({"action": "timer_expired", "at": self.wall_now()})
            return True
        if g.phase is Phase.READING:
            self.session.apply({"action": "score", "words": value})
            return True
        return False

    def _timer_button(self, long: bool) -> bool:
        g = self.game
        now = self.wall_now()
        if g.phase is Phase.LETTER:  # held too: nothing happened, unsaid
            # the rulebook turns the token and the hourglass together: one press does both (variant 1 turns the
            # token first, before the dice are rolled: the hourglass comes after the picks)
            if self.session.apply({"action": "letter"}) and self.game.phase is Phase.WRITING:
                self._start_timer()
            return True
        if g.phase is not Phase.WRITING:
            return False
        if long and g.hourglass.is_running(now):
            self.session.apply({"action": "timer_cancel", "at": now})
        elif not g.hourglass.is_running(now):  # held too: a child holding TIMER down turned nothing, unsaid
            self._start_timer()
        else:  # pressed while the sand runs: the app says how to stop it (``timer_not_now``)
            return False
        return True

    @property
    def timer_not_now(self) -> str | None:
        """Why TIMER does nothing now, for the app to say (a press that did nothing and said nothing read as a
        broken button): before the letter the hourglass is not turned yet, while it runs a held press stops it,
        after the sand the words are read."""
        phase = self.game.phase
        if phase in (Phase.ROLL, Phase.PICK):
            return t("haste.timer_after_letter", self.lang)
        if phase is Phase.WRITING and self.game.hourglass.is_running(self.wall_now()):
            # a table done early pressed TIMER to stop the sand: nothing happened, and nothing was said
            return t("haste.timer_running", self.lang, button=t("core.btn_timer", self.lang))
        if phase is Phase.READING:
            return t("haste.timer_reading", self.lang)
        return None

    def _start_timer(self) -> None:
        at = self._clock.stamp()  # the stamp and the screen's clock agree exactly from here on
        self.session.apply({"action": "timer_start", "at": at})

    def _fix_button(self, b: Button, long: bool) -> bool:
        """Which die to correct: NEXT/PREV over all dice, SELECT opens its symbols, UNDO leaves."""
        n = len(self.game.round.dice or [])
        if b.step:
            self.cursor = moved(self.cursor if 0 <= self.cursor < n else None, b.step, n)
        elif b is Button.SELECT and not long and 0 <= self.cursor < n:
            self._open("fix", self.cursor)
        elif b is Button.UNDO and not long:
            self.fixing = False
            self.cursor = FIX
        else:
            return False
        return True

    # -- sub-choices: a symbol for an unread die or a misread one, who took a die (variant 2), a letter token
    def _open(self, kind: str, value: int) -> None:
        """Open a sub-choice; a symbol for an unread die starts on the reader's guess, a misread die's on the
        symbol read (SELECT alone changes nothing)."""
        self.choosing = (kind, value)
        start = {"symbol": lambda: self.session.guess(value), "fix": lambda: self.game.round.dice[value]}.get(kind)
        self.choice_index = first_choice(self._choice_values(), start()) if start is not None else 0

    def _choice_values(self) -> list[Any]:
        assert self.choosing is not None
        kind, die = self.choosing
        g = self.game
        if kind == "symbol":
            # no guess: the highlight starts on taking it out, not on the first symbol (an ivory pip die among these,
            # answered with it by a hasty SELECT, was taught as "Gerichte" and read so at 0.99 from then on)
            return ([TAKE_OUT] if self.session.guess(die) not in SYMBOLS else []) + list(SYMBOLS)
        if kind == "fix":  # an edition's own symbol read stays offered, so SELECT alone keeps it
            read = (g.round.dice or [])[die]
            return list(SYMBOLS) + ([read] if read not in SYMBOLS else [])
        if kind == "who":
            return [i for i in range(len(g.players)) if g.round.die_of(i) is None]
        return g.enterable_letters()  # any letter: a box may hold tokens the companion's stack has not

    def _choice_button(self, b: Button, long: bool) -> bool:
        values = self._choice_values()
        if b.step:
            self.choice_index = (self.choice_index + b.step) % len(values)
        elif b is Button.SELECT and not long:
            self._confirm_choice()
        elif b is Button.UNDO and not long:
            self.choosing = None  # correcting: back to which die
        else:
            return False
        return True

    def _confirm_choice(self) -> None:
        assert self.choosing is not None
        kind, die = self.choosing
        value = self._choice_values()[self.choice_index]
        self.choosing = None
        if kind == "symbol" and value == TAKE_OUT:
            self.pending = None  # the table takes the die out and rolls again: nothing is taught
            self.session.drop_answers()
            self.cursor = 0
        elif kind == "symbol" and self.pending is not None:
            self.pending[die] = value
            self.session.confirm_face(die, value)
            missing = [i for i, f in enumerate(self.pending) if f is None]
            if missing:
                self.cursor = missing[0]
            else:
                faces, self.pending = self.pending, None
                self._roll_read(faces, self.session.latest_reading)
        elif kind == "fix":
            self._fix_to(die, value)
        elif kind == "who":
            self.session.apply({"action": "pick", "die": die + 1, "player": self.game.players[value]})
        elif kind == "letter":
            self.session.apply({"action": "letter", "letter": value})

    def _fix_to(self, die: int, symbol: str) -> None:
        """Die ``die`` shows ``symbol``: the engine corrects the roll, and a die read from the camera's picture is
        taught, as an unsure die's answer is."""
        self.fixing = False
        free = self._free_dice()
        self.cursor = (die if die in free else free[0] if free else FIX) if self.game.phase is Phase.PICK else 0
        if symbol == (self.game.round.dice or [])[die]:
            return  # read right after all
        index = self.read_roll.index(self.session, die) if self.read_roll is not None else None
        if index is not None:
            self.session.confirm_face(index, symbol)
        self.session.apply({"action": "correct", "die": die + 1, "face": symbol})

    def _choice_rects(self) -> list[pygame.Rect]:
        """The answers' buttons under the question: up to six in a row, seven to a row up to 21 (the symbols); ten
        to a row beyond (every letter a token may show, A-Z, Ä, Ö, Ü and tokens of several letters), as many rows
        as they need closing up above the hint line. "Take it out" (first, lit) goes under the symbols, as wide as
        their last row, in words a family reads: in the grid's first cell "Nein: herausnehmen, neu würfeln" was cut
        to ": herausnehmen, neu wü" at 14 px; the die's picture stays beside the last row of symbols."""
        values = self._choice_values()
        out = bool(values) and values[0] == TAKE_OUT
        n = len(values) - out
        cols = 10 if n > 21 else 7 if n > 6 else max(1, n)
        rows = math.ceil(n / cols)
        w, h, gap = (120, 80, 10) if n <= 6 else (104, 66, 8) if n <= 21 else (71, 66, 6)
        h = min(h, (ANSWERS_BOTTOM - 166 - (rows - 1) * gap) // rows)
        x0 = 400 - (cols * w + (cols - 1) * gap) // 2
        y0 = 170 + max(0, (3 - rows)) * 20 if rows <= 3 else 166
        rects = [pygame.Rect(x0 + (i % cols) * (w + gap), y0 + (i // cols) * (h + gap), w, h) for i in range(n)]
        if out:
            last = rects[-1]
            rects.insert(0, pygame.Rect(x0, last.bottom + gap, last.right - x0, h))
        return rects

    # -- the clock
    def update(self, dt: float, now: float) -> None:
        """``dt`` is ignored on purpose: the hourglass reads time stamps, never summed frame times."""
        # the App ticked this same clock with this same ``now`` (a no-op then); a screen run alone needs it
        self._clock.tick(now)
        self._sync_context()
        g = self.game
        if g.phase is not Phase.WRITING:
            self._resumed = True
            return
        wall = self.wall_now()
        sand = g.hourglass
        if not self._resumed:
            self._resumed = True
            outcome = sand.resume(wall)
            if outcome is Resume.CLOCK_UNTRUSTED:
                self.session.apply({"action": "timer_interrupted", "at": wall})
                return
            if outcome is Resume.EXPIRED_WHILE_OFF and not undone_for_this_run(self.session, "timer_expired", sand):
                self.session.apply({"action": "timer_expired", "at": wall})
                return  # (its "time's up" undone before the restart: it stays at nought, as it did then)
            if outcome is Resume.RESUMED:
                self._seen_running = sand.started_at
        phase = sand.phase(wall)
        if phase is SandPhase.RUNNING:
            self._seen_running = sand.started_at
            self._calls.update(sand, wall, getattr(self.session, "announcer", None))
        elif phase is SandPhase.EXPIRED and self._seen_running == sand.started_at:
            self._seen_running = None
            # stamped with the exact moment the sand ran out, not the (possibly late) frame that noticed it
            self.session.apply({"action": "timer_expired", "at": sand.expires_at()})

    @property
    def in_view(self) -> list[pygame.Rect]:
        """What a finger taps while dice are picked (the dice, "Correct a die"), words are scored (the counts) and
        the letter or the hourglass wait (their buttons): a banner stands elsewhere where it fits (``banner.place``'s
        ``spare``). The pick's call covered the button for its four seconds; a score's crystals, said as the next
        reader's counts came up, covered those. At the end the ranking: a banner stood over its last rows (six
        players), the crystal table at the top says the same. While the sand runs (the hourglass is kept clear
        anyway) who has which symbol, the status line and the letter: the letter's, the turned sand's and the last
        seconds' banners stood at the top over the status line, cutting it in half, where the foot beside the
        hourglass (its buttons come back only when the sand stops) was free. Between the letter and the sand, its
        buttons first, then the status line and who has which symbol: "The letter is L" stood over "Write words
        with L"."""
        if self.pending is not None:
            return []
        if self._sand_running():
            return [self._symbols_rect(SAND_SYMBOLS), self._status_rect(), LETTER_IN_VIEW]
        if self.game.phase is Phase.OVER:
            return spanning([row for _, row in self._over_layout()[2]])
        if self.game.phase in (Phase.LETTER, Phase.WRITING):  # the buttons the hint line names ("turn it again"
            buttons = spanning(list(self._targets().values()))  # after the sand was stopped: under its sentence)
            if self.game.phase is Phase.WRITING:  # then, the letter shown, what it says
                return buttons + [self._status_rect(), self._symbols_rect(SAND_SYMBOLS)]
            return buttons
        if self.game.phase not in (Phase.PICK, Phase.READING):
            return []
        targets = self._targets()
        rects = [r for value, r in targets.items() if value != FIX]
        return spanning(rects) + ([targets[FIX]] if FIX in targets else [])

    @property
    def banner_room(self) -> pygame.Rect | tuple[pygame.Rect, ...] | None:
        """Before the letter, the column beside who has which symbol (``_letter_banner_rooms``). Between the letter
        and the sand, the band beside the hourglass between who has which symbol and the
        buttons, under the letter, over the limits' two lines (``banner.place``'s ``room``, taken where the banner
        fits there): the screen keeps the buttons, the status line and the symbols in view (``in_view``), and no band
        at an edge spares them all. Six players' symbols leave 74 pixels: a line at FAR."""
        if self.pending is None and self.game.phase is Phase.PICK and not self.fixing and not self.game.round.letter:
            return self._pick_banner_room()
        if self.pending is None and self.game.phase is Phase.LETTER and not self.fixing and self.choosing is None:
            return self._letter_banner_rooms()
        if self.pending is not None or self.game.phase is not Phase.WRITING or self._sand_running():
            return None
        top = max(self._symbols_rect(SAND_SYMBOLS).bottom, LETTER_IN_VIEW.bottom)
        bottom = min(r.top for r in self._button_rects()) - 2  # (its shadow short of the buttons' frames)
        return pygame.Rect(HOURGLASS_RECT.right + 8, top, theme.DESIGN_SIZE[0] - HOURGLASS_RECT.right - 8, bottom - top)

    def _letter_banner_rooms(self) -> tuple[pygame.Rect, pygame.Rect]:
        """Before the letter, the column beside who has which symbol, under the status line: under its buttons where
        the banner fits there, else the whole column, over the buttons (``banner.place`` takes a later room over
        what of ``in_view`` lies wholly in it). With six long names "Oma Lise: Obst & Gemüse. Großmutter Helga, zieh
        den Buchstaben." stood at the top for its seconds, over the crystal table and its highlight (who draws the
        letter) and the status line that says it too; the buttons' hint stays in the hint bar, and the list of
        symbols (what the table reads now) stays whole."""
        top = self._status_rect().bottom + 4
        left = LETTER_SYMBOLS.right + 4  # (a FAR line of 310 px: "Maximilian-Alexander," is 311)
        width, bottom = theme.DESIGN_SIZE[0] - left, theme.DESIGN_SIZE[1] - HINT_BAR_H
        under = max(r.bottom for r in self._button_rects()) + 2
        return pygame.Rect(left, under, width, bottom - under), pygame.Rect(left, top, width, bottom - top)

    def _pick_banner_room(self) -> pygame.Rect:
        """While a die is picked, the band under the dice, their numbers and who took them, down to just under the
        word limits: the banner, set at its foot, covers the limits whole ("Runde 1: X würfelt." stood across
        "Andere Symbole: zusammen höchstens 6", its top half above the banner). Where no banner fits it (two rows
        of names), or the "Correct a die" button is in view below, ``banner.place`` stands it elsewhere."""
        limits = self._limits_rect(self._pick_limits())
        top = self._under_picked_dice()
        bottom = limits.bottom + BANNER_MARGIN + 8  # the banner's foot (its margin up from here) just under them
        return pygame.Rect(0, top, theme.DESIGN_SIZE[0], bottom - top)

    def _under_picked_dice(self) -> int:
        """While a die is picked, where the dice, their numbers and who took them end."""
        numbers = max(r.bottom for r in self.dice.die_rects()) + 2 + theme.font(theme.SMALL).get_linesize()
        return max([numbers, *(rect.bottom for _, _, rect in self._owner_labels())])

    def _pick_limits(self) -> tuple[int, int]:
        """The word limits' top left while a die is picked: over "Correct a die" where it is offered, else at the
        foot (``PICK_LIMITS_LOW``)."""
        return PICK_LIMITS if self._may_fix() else PICK_LIMITS_LOW

    @property
    def notice_room(self) -> pygame.Rect | list[pygame.Rect] | None:
        """While a die is picked, the band between the dice (their numbers, who took them) and the word limits: the
        App's notice stands there where it fits (``App.draw``). At the foot "Eure Würfel sind noch nicht angelernt…"
        stood over "Andere Symbole: zusammen bis zu 4", the limits cut in half, while the band under the dice was
        empty; with virtual dice (no "Correct a die") the limits stand at the foot and the band holds its two lines.
        Once a die is taken its owner's name took 60 of the band's 106 px, the notice no longer fitted and fell back
        to the foot, over the limits whole: then the room is the widest stretch beside the names, as tall as the band
        under the numbers, where that is larger than the band under the names.

        Where the notice fits neither (six long names in two rows under the dice leave 104 px beside them: "Eure
        Würfel sind noch nicht angelernt…" takes three lines 459 px across there, but with the game's name before it,
        as it was said, 516), the crystal table above the status line: it stood at the foot over the word limits
        whole. The status line under it says whose pick it is, which the table's highlight says too (the App takes
        the first room the notice fits)."""
        if self.pending is not None or self.fixing or self.game.phase is not Phase.PICK or not self.game.round.dice:
            return None
        return [self._pick_notice_room(), pygame.Rect(0, 0, theme.DESIGN_SIZE[0], self._status_rect().top)]

    def _pick_notice_room(self) -> pygame.Rect:
        """While a die is picked, the band under the dice or the widest stretch beside their owners' names
        (``notice_room``)."""
        bottom = self._limits_rect(self._pick_limits()).top - 4
        top = self._under_picked_dice() + 2
        under = pygame.Rect(0, top, theme.DESIGN_SIZE[0], bottom - top)
        names = sorted((rect.left, rect.right) for _, _, rect in self._owner_labels())
        if not names:
            return under
        numbers = max(r.bottom for r in self.dice.die_rects()) + 4 + theme.font(theme.SMALL).get_linesize()
        edges = [(0, 0), *names, (theme.DESIGN_SIZE[0], theme.DESIGN_SIZE[0])]
        reach, gaps = 0, []
        for left, right in edges:  # the stretches no name stands in, 8 px off the names
            if left - 8 > reach:
                gaps.append((reach, left - 8))
            reach = max(reach, right + 8)
        beside = [pygame.Rect(a, numbers, b - a, bottom - numbers) for a, b in gaps]
        widest = max(beside, key=lambda r: r.w, default=under)
        return widest if widest.w * widest.h > under.w * under.h else under

    def _sand_running(self) -> bool:
        return self.game.phase is Phase.WRITING and self.game.hourglass.is_running(self.wall_now())

    def _status_rect(self) -> pygame.Rect:
        """Where the status line's lines stand, as wide as the widest."""
        lines, size = self._status_lines()
        f = theme.font(size, True)
        width = max(f.size(line)[0] for line in lines)
        return pygame.Rect(400 - width // 2, self._status_y(), width, len(lines) * f.get_linesize())

    def _symbols_rect(self, area: pygame.Rect) -> pygame.Rect:
        """The rows of who has which symbol in ``area`` (``_draw_symbols``)."""
        return pygame.Rect(area.x, area.y, area.w, self._symbol_pitch(area) * len(self.game.pick_order))

    def _symbol_pitch(self, area: pygame.Rect) -> int:
        return min(56, area.h // max(1, len(self.game.pick_order)))

    # -- drawing
    def _targets(self) -> dict[int, pygame.Rect]:
        """Touch targets of the current phase, by the value SELECT would choose."""
        g = self.game
        if self.pending is not None or self.fixing:
            return dict(enumerate(self.dice.die_rects()))
        if g.phase is Phase.PICK:
            return {**dict(enumerate(self.dice.die_rects())), **({FIX: FIX_RECT} if self._may_fix() else {})}
        if g.phase is Phase.ROLL:
            return {0: pygame.Rect(200, 150, 400, 200)}
        if g.phase is Phase.WRITING and g.hourglass.phase(self.wall_now()) is SandPhase.RUNNING:
            return {}  # the sand runs: nothing to tap until it is out (a long TIMER cancels it)
        if g.phase in (Phase.LETTER, Phase.WRITING):
            rects = self._button_rects()
            return {0: rects[0], 1: rects[1], **({FIX: rects[2]} if len(rects) > 2 else {})}
        if g.phase is Phase.READING:
            return dict(enumerate(self._count_rects()))
        return {}

    def _button_rects(self) -> list[pygame.Rect]:
        if self.game.phase is Phase.WRITING:
            return [pygame.Rect(254, 378, 254, 62), pygame.Rect(526, 378, 254, 62)]
        letter = [pygame.Rect(460, 150, 320, 90), pygame.Rect(460, 260, 320, 90)]
        return letter + ([pygame.Rect(460, 366, 320, 64)] if self._may_fix() else [])

    def _count_rects(self) -> list[pygame.Rect]:
        """The word counts' buttons, above the hint line: under the symbol, its meaning and two lines of who reads
        (at 270 two lines and the meaning did not fit)."""
        size, gap = 120, 24
        x0 = 400 - (4 * size + 3 * gap) // 2
        return [pygame.Rect(x0 + i * (size + gap), COUNTS_TOP, size, size) for i in range(MAX_OWN_WORDS + 1)]

    def draw(self, surface: pygame.Surface) -> None:
        self._sync_context()
        g = self.game
        surface.fill(theme.BG)
        self._draw_crystals(surface)
        color = theme.UNKNOWN if self.pending is not None else theme.TEXT
        _draw_lines(surface, *self._status_lines(), self._status_y(), color)
        if self.choosing is not None:
            self._draw_choice(surface)
        elif self.pending is not None or (g.phase is Phase.ROLL and g.round.dice is None):
            self._draw_roll(surface)
        elif g.phase is Phase.PICK or self.fixing:
            self._draw_pick(surface)
        elif g.phase is Phase.LETTER:
            self._draw_letter_phase(surface)
        elif g.phase is Phase.WRITING:
            self._draw_writing(surface)
        elif g.phase is Phase.READING:
            self._draw_reading(surface)
        else:
            self._draw_over(surface)
        # "TIMER hold: cancel" is TIMER as a finger presses it: a tap says how to stop the sand (``timer_not_now``),
        # a finger held there is TIMER held (the app's) and stops it. Pressed long at a tap, it stopped the sand a
        # child had turned half a second before with a tap on the same hint
        self.hint_taps = game_hint_bar(surface, self._hints(), self.lang)

    def _status(self) -> tuple[str, str]:
        """The status line with the players' names in full and shortened ("Großvater J."): the short one where the
        full one would go below FAR ("Gewonnen: Großvater Johannes und Mia mit 15 Kristallen" was drawn at 30, six
        winners at 18)."""
        if self.pending is not None and self.choosing is not None and self.choosing[0] == "symbol":
            # the question is open and asks it (a foreign die's opens on taking it out): "tap it, choose its symbol"
            # above it told the table the opposite; the line says why it is asked, of the die it asks about
            line = t("haste.screen.unread_asked", self.lang, die=self.choosing[1] + 1)
        elif self.pending is not None:
            missing = [i + 1 for i, f in enumerate(self.pending) if f is None]
            line = t("haste.screen.unread", self.lang, die=missing[0])
        elif self.waiting:
            line = t("haste.screen.waiting", self.lang)
        elif self.fixing and self.choosing is None:  # its symbols ask their own question
            line = t("haste.screen.fix_which", self.lang)
        else:
            prompt = self.game.prompt()
            return prompt.text(self.lang), _shortened(prompt, self.game.players).text(self.lang)
        return line, line

    def _actor(self) -> int | None:
        g = self.game
        if g.phase is Phase.PICK:
            return g.current_picker
        if g.phase is Phase.READING:
            return g.current_reader
        if g.phase in (Phase.ROLL, Phase.LETTER):
            return g.round.first
        return None

    def _draw_crystals(self, surface: pygame.Surface) -> None:
        """Each player's name and crystals, read from the far end of the table: side by side where every name fits
        at FAR or larger beside a two-digit count at LARGE (the goal is 15: a name must not shrink when a count
        reaches 10), else the name over its count, both at FAR (the cell's 56 rows hold two FAR lines, not more).
        Names were BODY beside the count up to four players and SMALL over a BODY count for five or six. Five or
        six stand in two rows of three (``_crystal_rows``)."""
        g = self.game
        n = len(g.players)
        if n > ONE_ROW:
            self._draw_crystal_rows(surface)
            return
        actor = self._actor()
        cells, names, size, side = self._crystal_cells()
        inks = [theme.BG if i == actor or (g.finished and i in g.winners) else theme.TEXT for i in range(n)]
        # beside the count, or on the count's line above it (a FAR line is 27 rows, the count's digits have no
        # descent): a shrunk name stands on it, not up at the top edge
        placed = [NameAt(cell, name, (cell.x + 8, cell.centery) if side else (cell.centerx, cell.y + 30), size, ink,
                         i == actor, "midleft" if side else "midbottom")
                  for i, (name, cell, ink) in enumerate(zip(names, cells, inks, strict=True))]
        drop = row_drop(placed)  # every name alike as low as the marks over one need ("Özlem Ö." read "Ozlem O.")
        for i, (at, cell, ink) in enumerate(zip(placed, cells, inks, strict=True)):
            active = i == actor
            won = g.finished and i in g.winners
            fill = theme.ACCENT if active else (theme.GOOD if won else theme.PANEL)
            pygame.draw.rect(surface, fill, cell, border_radius=8)
            at.draw(surface, drop)
            count = str(g.crystals[i])
            if side:  # name and count side by side
                r = theme.text(
                    surface,
                    count,
                    (cell.right - 8, cell.centery),
                    theme.LARGE,
                    ink,
                    bold=True,
                    anchor="midright",
                )
            else:  # the name on top, the count below
                r = theme.text(
                    surface,
                    count,
                    (cell.centerx + 10, cell.bottom + 4),
                    theme.FAR,
                    ink,
                    bold=True,
                    anchor="midbottom",
                )
            _crystal(surface, (r.left - 12, r.centery), 9, ink)

    def _crystal_cells(self) -> tuple[list[pygame.Rect], list[str], int, bool]:
        """Two to four players' crystal table in one row: each player's cell, name (whole, or in short where it would
        go below FAR: ``theme.fit_name``), the one size every name is drawn at and whether names stand beside their
        counts (else over them). One size for all, as five or six players have it (``_crystal_rows``): each name fitted
        alone put "Großvater Johannes" at 32 beside "Mia" at 40, read from the far end as a mistake. The cells take
        each name's width and share what is left (``_shared_widths``), as five or six players' do: in even cells
        (740 // n) "Großvater J.", "Großmutter H.", "Mia" and "Ben" all stood at 26 where the row holds all four at
        FAR. Beside the counts where every name stands there at FAR or larger (LARGE where the row holds it), else
        over them at FAR; only where even that is too narrow do the names go below FAR, all together."""
        g = self.game
        n = len(g.players)
        grid = [list(range(n))]
        total = BAR_X[1] - BAR_X[0] - (n - 1) * CELL_GAP
        count_w = max(theme.font(theme.LARGE, True).size(str(c))[0] for c in [*g.crystals, 88]) + 26
        beside = count_w + 20  # 8 before the name, 12 between it and the crystal ("David ◆12")
        layouts = []
        for size in (theme.LARGE, theme.FAR):
            cells = self._one_row(_shared_widths(g.players, size, beside, grid, total))
            layouts.append((cells, *_names_in(g.players, cells, size, beside), True))
        # over the count, at FAR at most (the cell's 56 rows hold two FAR lines); a cell as wide as its count needs
        # with the crystal before it (drawn 10 right of the middle, the crystal 21 left of the count)
        least = theme.font(theme.FAR, True).size("88")[0] + 2 * (CRYSTAL_R + 12 + 6)
        cells = self._one_row(_shared_widths(g.players, theme.FAR, 8, grid, total, least=least))
        layouts.append((cells, *_names_in(g.players, cells, theme.FAR, 8), False))
        # the first at FAR or larger that shows every double first name whole ("Anne-Marie" over its count, not
        # "Anne-M." beside it: Noch X-Mal!'s cards show it whole), else the first at FAR or larger
        doubles = [i for i, name in enumerate(g.players) if theme.double_first_name(name)]
        far = [layout for layout in layouts if layout[2] >= theme.FAR]
        whole = [layout for layout in far if all(layout[1][i] == g.players[i] for i in doubles)]
        return (whole or far or layouts[-1:])[0]

    @staticmethod
    def _one_row(widths: list[int]) -> list[pygame.Rect]:
        """Two to four players' cells side by side from the table's left, ``widths`` wide."""
        cells, x = [], BAR_X[0]
        for w in widths:
            cells.append(pygame.Rect(x, 4, w, TOP_H - 8))
            x += w + CELL_GAP
        return cells

    def _status_y(self) -> int:
        """The status line's top: under the crystal table's one row, or its two; while words are read out and at the
        end under a banner at the top (``UNDER_BANNER_STATUS_Y``); the winners' two lines so that a banner of two
        lines (to 128 with its shadow) hides the first whole, not the second's capitals."""
        if self.game.phase is Phase.READING:
            return UNDER_BANNER_STATUS_Y
        if self.game.phase is Phase.OVER:
            lines, size = self._status_lines()
            pitch = theme.font(size, True).get_linesize()
            return UNDER_BANNER_STATUS_Y if len(lines) < 2 else max(UNDER_BANNER_STATUS_Y, TWO_LINE_BANNER_FOOT - pitch)
        return STATUS_Y if len(self.game.players) <= ONE_ROW else TWO_ROWS_STATUS_Y

    def _crystal_rows(self) -> tuple[list[pygame.Rect], list[str], int]:
        """Five or six players' crystal table in two rows of three: each player's cell, name (or its short form,
        ``theme.fit_name``) and the size every name is drawn at, one for all. Six in one row left a cell 123 wide:
        "Großvater J." at 20 beside "Oma L." at 32 and "Großmutte. H." at 16, read from the far end as a broken
        bar. In two rows a name up to eight letters stands at FAR in even cells; where a longer one needs more,
        the cells take each name's width and share what is left (``_shared_widths``); only where even that is too
        narrow do the names go below FAR, all together."""
        g = self.game
        n = len(g.players)
        cols = -(-n // 2)
        grid = [list(range(cols)), list(range(cols, n))]
        far = theme.font(theme.FAR, True)
        count_w = max(far.size(str(c))[0] for c in [*g.crystals, 88])  # a name keeps its size when a count hits 10
        extra = 2 * CELL_PAD + NAME_GAP + 2 * CRYSTAL_R + 3 + count_w  # what a cell holds beside its name
        widths = _shared_widths(g.players, theme.FAR, extra, grid, BAR_X[1] - BAR_X[0] - (cols - 1) * CELL_GAP)
        cells = []
        for r, row in enumerate(grid):
            x = BAR_X[0]
            for i in row:
                cells.append(pygame.Rect(x, ROW_TOPS[r], widths[i], ROW_H))
                x += widths[i] + CELL_GAP
        names, size = _names_in(g.players, cells, theme.FAR, extra)
        return cells, names, size

    def _draw_crystal_rows(self, surface: pygame.Surface) -> None:
        """Five or six players' crystal table (``_crystal_rows``): the name at the left, the count at FAR at the
        right, the crystal before it."""
        g = self.game
        actor = self._actor()
        cells, names, size = self._crystal_rows()
        inks = [theme.BG if i == actor or (g.finished and i in g.winners) else theme.TEXT for i in range(len(names))]
        placed = [NameAt(cell, name, (cell.x + CELL_PAD, cell.centery), size, ink, i == actor, "midleft")
                  for i, (name, cell, ink) in enumerate(zip(names, cells, inks, strict=True))]
        drop = row_drop(placed)
        for i, (at, cell, ink) in enumerate(zip(placed, cells, inks, strict=True)):
            active = i == actor
            won = g.finished and i in g.winners
            pygame.draw.rect(surface, theme.ACCENT if active else theme.GOOD if won else theme.PANEL, cell,
                             border_radius=8)
            at.draw(surface, drop)
            r = theme.text(surface, str(g.crystals[i]), (cell.right - CELL_PAD, cell.centery), theme.FAR, ink,
                           bold=True, anchor="midright")
            _crystal(surface, (r.left - 3 - CRYSTAL_R, r.centery), CRYSTAL_R, ink)

    def _draw_roll(self, surface: pygame.Surface) -> None:
        g = self.game
        if self.pending is not None:
            self._draw_dice(surface, list(self.pending), self.cursor, set())
            if (picture := self._asked_picture()) is not None:
                draw_die_picture(surface, picture, UNREAD_PICTURE)
        else:
            msg = t("haste.screen.waiting" if self.waiting else "haste.screen.press_roll", self.lang)
            rect = pygame.Rect(200, 150, 400, 200)
            pygame.draw.rect(surface, theme.PANEL, rect, border_radius=16)
            theme.text(
                surface,
                msg,
                rect.center,
                theme.fit_text(msg, theme.LARGE, 370, bold=True),
                theme.TEXT,
                bold=True,
                anchor="center",
            )
        if g.round.letter:  # its caption above the hint bar (at 330 it stood in the bar's band, y 444-464)
            self._draw_letter_tile(surface, pygame.Rect(640, 300, 110, 110), g.round.letter)

    def _draw_pick(self, surface: pygame.Surface) -> None:
        g = self.game
        r = g.round
        dice = list(r.dice or [])
        # correcting, any die may be the one; picking, only a free one
        selected = self.cursor if self.cursor in (range(len(dice)) if self.fixing else self._free_dice()) else None
        self._draw_dice(surface, dice, selected, {p.die for p in r.picks})
        for i, rect in enumerate(self.dice.die_rects()):
            theme.text(  # below the die: above it, a long prompt in large type ran over the numbers
                surface,
                str(i + 1),
                (rect.centerx, rect.bottom + 2),
                theme.SMALL,
                theme.MUTED,
                anchor="midtop",
            )
        labels = self._owner_labels()
        for name, size, rect in labels:
            theme.text(surface, name, rect.topleft, size, theme.ACCENT, bold=True)
        # two rows of names reach down to 311: the picture and the letter beside the word limits start below them
        below = 0 if len({rect.y for _, _, rect in labels}) < 2 else OWNERS_BOTTOM - FIX_PICTURE.y
        picture = self._asked_picture() if self.fixing else None
        if picture is not None:  # where the letter stands: the question is about a die
            draw_die_picture(surface, picture, FIX_PICTURE.inflate(0, -below).move(0, below // 2))
        elif r.letter:
            self._draw_letter_tile(surface, pygame.Rect(PICK_LETTER_X + below, 300 + below, 120 - below, 120 - below),
                                   r.letter)
        self._draw_limits(surface, self._pick_limits())
        if not self.fixing and self._may_fix():
            _button(surface, FIX_RECT, t("haste.screen.fix_die", self.lang), self.cursor == FIX)

    def _owner_labels(self) -> list[tuple[str, int, pygame.Rect]]:
        """Who took each die, under it: the name, its size and where it stands. At FAR in one row where each fits its
        die's width; else in two rows like bricks (every other die's name one line lower), each name as wide as two
        dice: "Großvater J." was 24 under its die, "Großmutter H." 18 (the names a player looks for their symbol by,
        from their seat). Only where even that is too narrow does a name go below FAR (``theme.fit_name``)."""
        g = self.game
        rects = self.dice.die_rects()
        owned = [(i, g.players[o]) for i in range(len(rects)) if (o := g.round.owner_of(i)) is not None]
        table = tuple(g.players)
        one_row = [(i, *theme.fit_name(name, theme.FAR, rects[i].w + 10, bold=True, players=table))
                   for i, name in owned]
        out: list[tuple[str, int, pygame.Rect]] = []
        if len(rects) < 2 or all(size >= theme.FAR for *_, size in one_row):
            for i, name, size in one_row:
                w, h = theme.font(size, True).size(name)
                out.append((name, size, pygame.Rect(rects[i].centerx - w // 2, rects[i].bottom + 30, w, h)))
            return out
        pitch = rects[1].x - rects[0].x
        line = theme.font(theme.FAR, True).size("Ág")[1]  # a rendered line's height: the rows do not overlap
        for i, full in owned:
            c = rects[i].centerx
            slot = pygame.Rect(c - pitch + 4, 0, 2 * pitch - 8, 1).clip(pygame.Rect(8, 0, 784, 1))
            name, size = theme.fit_name(full, theme.FAR, slot.w, bold=True, players=table)
            w, h = theme.font(size, True).size(name)
            x = min(max(c - w // 2, slot.left), slot.right - w)  # under its die, shifted off a screen edge
            out.append((name, size, pygame.Rect(x, OWNERS_BOTTOM - (2 - i % 2) * line, w, h)))
        return out

    def _draw_dice(
        self, surface: pygame.Surface, faces: list[Any], selected: int | None, taken: set[int]
    ) -> None:
        """Symbol dice with their names on one or two lines; an unread die is the shared loud '?'."""
        self.dice.faces = faces
        for i, (rect, face) in enumerate(zip(self.dice.die_rects(), faces, strict=True)):
            if face is None:
                draw_die(surface, rect, None, selected=i == selected)
                continue
            body = (120, 120, 115) if i in taken else theme.DIE_BODY
            pygame.draw.rect(surface, body, rect, border_radius=rect.w // 7)
            draw_label(surface, rect.inflate(-10, -10), self._short_label(face), theme.LARGE, theme.DIE_PIP,
                       hyphenate=True)
            if i == selected:
                pygame.draw.rect(
                    surface, theme.ACCENT, rect.inflate(10, 10), width=5, border_radius=rect.w // 7 + 4
                )

    def _draw_letter_phase(self, surface: pygame.Surface) -> None:
        self._draw_symbols(surface, LETTER_SYMBOLS)
        labels = [t("haste.screen.draw_letter", self.lang), t("haste.screen.enter_letter", self.lang),
                  t("haste.screen.fix_die", self.lang)]
        for value, rect in self._targets().items():
            _button(surface, rect, labels[min(value, 2)], value == self.cursor)

    def _draw_symbols(self, surface: pygame.Surface, area: pygame.Rect) -> None:
        """Each player's symbol this round, in pick order: at FAR, read by the one looking for their symbol from
        across the table (six rows take 32 of the hourglass screen's 196: a FAR line is 30)."""
        g = self.game
        rows = [(g.players[p], g.symbol_of(p)) for p in g.pick_order]
        h = self._symbol_pitch(area)
        labels = [self._short_label(symbol) if symbol else "–" for _, symbol in rows]
        far = theme.font(theme.FAR, True)
        widest = max((far.size(label)[0] for label in labels), default=0)
        longest = max((far.size(name)[0] for name, _ in rows), default=0)
        # the names get what the symbols leave, no more than they need: not a gap between "Ben" and his symbol; but
        # a long name gets its short form's width at FAR before the symbols take the rest ("Großvater J." was 22-26
        # beside "Obst & Gemüse" at FAR), up to two thirds of the row
        name_w = max(area.w // 3, min(190, area.w - widest - 8, longest + 16))
        short = max((far.size(theme.table_short_name(name, g.players))[0] for name, _ in rows), default=0)
        name_w = max(name_w, min(short + 12, area.w * 2 // 3))
        for k, ((full, _), label) in enumerate(zip(rows, labels, strict=True)):
            y = area.y + k * h
            name, size = theme.fit_name(full, theme.FAR, name_w - 12, players=tuple(g.players))
            label_x, label_at = area.x + name_w, theme.fit_text(label, theme.FAR, area.w - name_w, bold=True)
            if label_at < theme.FAR:
                name, size, label_x, label_at = self._symbol_row(full, label, area, (name, size, label_x, label_at))
            theme.text(
                surface,
                name,
                (area.x, y + h // 2),
                size,
                theme.MUTED,
                anchor="midleft",
            )
            theme.text(
                surface,
                label,
                (label_x, y + h // 2),
                label_at,
                theme.TEXT,
                bold=True,
                anchor="midleft",
            )

    def _symbol_row(self, full: str, label: str, area: pygame.Rect,
                    column: tuple[str, int, int, int]) -> tuple[str, int, int, int]:
        """A row of who has which symbol whose symbol is too long for its column at FAR: the name, its size, the
        symbol's x and size. "Obst & Gemüse" stood at 26 (about 22 tall) beside "Großmutter H." where six long
        names took the column: the row's own name in a form that leaves its symbol FAR ("G. Helga"), the symbol
        moved left up to it; where none does ("Maximilian-A." beside it), both at one size, as large as they fit
        together. ``column``: the row as the column lays it out, where not even that is larger."""
        forms = theme.name_forms(full, self.game.players)
        for size in range(theme.FAR, column[3], -2):
            f, bold = theme.font(size), theme.font(size, True)
            label_w = bold.size(label)[0]
            form = next((form for form in forms if f.size(form)[0] + 12 + label_w <= area.w), None)
            if form is not None:
                return form, size, area.right - label_w, size
        return column

    def _draw_writing(self, surface: pygame.Surface) -> None:
        g = self.game
        wall = self.wall_now()
        sand = g.hourglass
        phase = sand.phase(wall)
        self._draw_hourglass(surface, HOURGLASS_RECT, sand.fraction_left(wall), phase, sand.warning(wall))
        left = sand.remaining(wall)
        if phase is SandPhase.CANCELLED:
            label, color = t("haste.screen.cancelled", self.lang), theme.MUTED
        elif phase is SandPhase.INTERRUPTED:
            label, color = t("haste.screen.interrupted", self.lang), theme.WARN
        elif phase is SandPhase.EXPIRED:
            label, color = t("haste.screen.expired", self.lang), theme.BAD
        else:
            label = t("haste.screen.seconds", self.lang, seconds=math.ceil(left))
            color = theme.WARN if sand.warning(wall) else theme.TEXT
        theme.text(
            surface,
            label,
            (HOURGLASS_RECT.centerx, HOURGLASS_RECT.bottom),
            theme.fit_text(label, theme.HUGE, HOURGLASS_RECT.w, bold=True),
            color,
            bold=True,
            anchor="midbottom",
        )
        if g.round.letter:
            self._draw_letter_tile(surface, SAND_LETTER, g.round.letter)
        self._draw_symbols(surface, SAND_SYMBOLS)
        running = phase is SandPhase.RUNNING
        self._draw_limits(surface, (254, SAND_LIMITS_TOP if running else LIMITS_TOP))
        labels = [t("haste.screen.start_timer", self.lang), t("haste.screen.times_up_button", self.lang)]
        if running:  # the only choice left is the long press that cancels it: "Time's up" only refused a tap
            return
        for i, (rect, text) in enumerate(zip(self._button_rects(), labels, strict=True)):
            _button(surface, rect, text, i == self.cursor)

    def _draw_limits(self, surface: pygame.Surface, pos: tuple[int, int]) -> None:
        for line, size, at in self._limit_lines(pos):
            theme.text(surface, line, at, size, theme.TEXT)

    def _limit_lines(self, pos: tuple[int, int]) -> list[tuple[str, int, tuple[int, int]]]:
        """The word limits' two lines at ``pos``: (line, size, top left). At FAR where they fit, both at one size:
        how many words each may write is what every player keeps to (they were BODY, read from the buttons' seat
        only). While a die is picked they end short of the letter turned first, or of the picture of a die being
        corrected; beside the hourglass at the screen's edge."""
        x, y = pos
        beside = FIX_PICTURE.left if self.fixing and self._asked_picture() is not None else PICK_LETTER_X
        right = beside - 10 if pos in (PICK_LIMITS, PICK_LIMITS_LOW) else LIMITS_RIGHT
        own = t("haste.screen.limit_own", self.lang, n=MAX_OWN_WORDS)
        others = t("haste.screen.limit_others", self.lang, n=self.game.others_limit)
        size = min(theme.fit_text(line, theme.FAR, right - x) for line in (own, others))
        pitch = theme.font(size).get_linesize()
        return [(own, size, (x, y)), (others, size, (x, y + pitch))]

    def _limits_rect(self, pos: tuple[int, int]) -> pygame.Rect:
        """Where the word limits' lines stand at ``pos`` (``_draw_limits``)."""
        rects = [pygame.Rect(at, theme.font(size).size(line)) for line, size, at in self._limit_lines(pos)]
        return rects[0].unionall(rects[1:])

    def _draw_hourglass(
        self, surface: pygame.Surface, area: pygame.Rect, full: float, phase: SandPhase, warning: bool
    ) -> None:
        """Two glass bulbs; the sand falls in the top and piles up below, by volume (not height)."""
        glass = pygame.Rect(area.x + 30, area.y + 4, area.w - 60, area.h - 84)
        cx, top, bottom, mid = glass.centerx, glass.top, glass.bottom, glass.centery
        half = glass.w // 2
        neck = 6
        sand = theme.BAD if phase is SandPhase.EXPIRED else theme.WARN if warning else theme.ACCENT
        if phase in (SandPhase.CANCELLED, SandPhase.INTERRUPTED):
            sand = theme.MUTED
        hb = mid - top  # bulb height
        # top bulb: a triangle pointing down; sand volume ~ h^2, so the level height is sqrt(share) * hb
        level = hb * math.sqrt(max(0.0, min(1.0, full)))
        if level > 1:
            w_at = neck + (half - neck) * level / hb
            pygame.draw.polygon(
                surface,
                sand,
                [(cx - neck, mid), (cx + neck, mid), (cx + w_at, mid - level), (cx - w_at, mid - level)],
            )
        # bottom bulb: a triangle pointing up, filled from its base: empty share below the apex is sqrt(full)
        pile = hb * (1 - math.sqrt(max(0.0, min(1.0, full))))
        if pile > 1:
            w_top = half - (half - neck) * pile / hb
            pygame.draw.polygon(
                surface,
                sand,
                [
                    (cx - half, bottom),
                    (cx + half, bottom),
                    (cx + w_top, bottom - pile),
                    (cx - w_top, bottom - pile),
                ],
            )
        if phase is SandPhase.RUNNING:
            pygame.draw.line(surface, sand, (cx, mid), (cx, bottom - pile), 3)
        outline = [
            (cx - half, top),
            (cx + half, top),
            (cx + neck, mid),
            (cx + half, bottom),
            (cx - half, bottom),
            (cx - neck, mid),
        ]
        pygame.draw.polygon(surface, theme.TEXT, outline, width=4)
        pygame.draw.line(surface, theme.MUTED, (cx - half - 14, top), (cx + half + 14, top), 8)
        pygame.draw.line(surface, theme.MUTED, (cx - half - 14, bottom), (cx + half + 14, bottom), 8)

    def _draw_letter_tile(self, surface: pygame.Surface, rect: pygame.Rect, letter: str) -> None:
        pygame.draw.rect(surface, theme.DIE_BODY, rect, border_radius=rect.w // 6)
        size = theme.fit_text(letter, int(rect.h * 0.8), rect.w - 16, bold=True)
        theme.text(surface, letter, rect.center, size, theme.DIE_PIP, bold=True, anchor="center")
        cap = t("haste.screen.letter", self.lang)
        theme.text(surface, cap, (rect.centerx, rect.bottom + 4), theme.SMALL, theme.MUTED, anchor="midtop")

    def _draw_reading(self, surface: pygame.Surface) -> None:
        g = self.game
        reader = g.current_reader
        assert reader is not None
        symbol = g.symbol_of(reader)
        label = self._short_label(symbol) if symbol else ""
        box = READING_BOX
        pygame.draw.rect(surface, theme.PANEL, box, border_radius=12)
        theme.text(
            surface,
            label,
            box.center,
            theme.fit_text(label, theme.HUGE, box.w - 200, bold=True),
            theme.TEXT,
            bold=True,
            anchor="center",
        )
        if g.round.letter:
            theme.text(
                surface,
                g.round.letter,
                (box.right - 20, box.centery),
                theme.HUGE,
                theme.ACCENT,
                bold=True,
                anchor="midright",
            )
        # under the symbol what it means by the rulebook, where that says more ("Autoteile und Automarken"): the
        # words read out are where a family argues what counts
        top = box.bottom
        if (meaning := self._meaning(symbol)) is not None:
            size = theme.fit_text(meaning, theme.BODY, box.w, bold=True)
            top = theme.text(surface, meaning, (box.centerx, box.bottom + 4), size, theme.MUTED, bold=True,
                             anchor="midtop").bottom
        # whose words: at FAR, on two lines where it needs them between the box (or the meaning) and the counts. A
        # banner said while the counts are up stands at the top over the status line "Ben liest vor" (the counts are
        # what it spares), and the reader's name was here only, at BODY
        name = g.players[reader]
        lines, size = theme.far_lines(t("haste.screen.how_many", self.lang, player=name), theme.FAR, 760,
                                      short=t("haste.screen.how_many", self.lang,
                                            player=theme.table_short_name(name, g.players)),
                                      names=[name])
        pitch = theme.font(size, True).get_linesize()
        middle = (top + self._count_rects()[0].top) // 2
        _draw_lines(surface, lines, size, middle - (pitch * len(lines)) // 2, theme.TEXT)
        for i, rect in enumerate(self._count_rects()):
            _button(surface, rect, str(i), i == self.cursor, size=theme.HUGE)

    def _status_lines(self) -> tuple[tuple[str, ...], int]:
        """The status line's lines and size: two at the end only, where the winners' names may need them; in every
        other phase what the table acts on starts right under one line."""
        full, short = self._status()
        return theme.far_lines(full, theme.LARGE, 770, short=short, names=self.game.players,
                               max_lines=2 if self.game.phase is Phase.OVER else 1)

    def _over_layout(self) -> tuple[int, int, list[tuple[int, pygame.Rect]]]:
        """The end's title top, the ranking's size and its rows best first: each player and the row's rect, from
        the name's left to the score's right. The title stands under the status line, which may take two lines for
        many winners."""
        g = self.game
        lines, status_size = self._status_lines()
        status_bottom = self._status_y() + (len(lines) - 1) * theme.font(status_size, True).get_linesize()
        title_top = max(OVER_TITLE_Y, status_bottom + theme.font(status_size, True).get_linesize() + 4)
        ranking = sorted(range(len(g.players)), key=lambda i: -g.crystals[i])
        # a table laid out by its widest name, centred: names from x=300 ran into the scores at x=520
        # ("Großvater Johan3es"); LARGE for all six, read from the far end: the rows close up to fit above the
        # hint line (five or six were BODY)
        size = theme.LARGE

        def width(s: str) -> int:
            return theme.font(size, True).size(s)[0]

        gap, score_w = 40, max(width(str(c)) for c in g.crystals)
        longest = max(g.players, key=width)
        size = theme.fit_text(longest, size, 720 - gap - score_w, bold=True)
        left = 400 - (width(longest) + gap + score_w) // 2
        right = left + width(longest) + gap + score_w
        top = title_top + theme.font(theme.HUGE, True).get_linesize() + 6
        row_h = theme.font(size, True).get_linesize()  # the height theme.text draws a line in
        pitch = min(row_h + 12, (ANSWERS_BOTTOM - top - row_h) // max(1, len(ranking) - 1))
        return title_top, size, [(i, pygame.Rect(left, top + k * pitch, right - left, row_h))
                                 for k, i in enumerate(ranking)]

    def _draw_over(self, surface: pygame.Surface) -> None:
        g = self.game
        title_top, size, rows = self._over_layout()
        theme.text(
            surface,
            t("haste.screen.winner", self.lang),
            (400, title_top),
            theme.HUGE,
            theme.GOOD,
            bold=True,
            anchor="midtop",
        )
        for i, row in rows:
            color = theme.GOOD if i in g.winners else theme.TEXT
            theme.text(surface, g.players[i], row.topleft, size, color, bold=i in g.winners, anchor="topleft")
            theme.text(surface, str(g.crystals[i]), row.topright, size, color, bold=True, anchor="topright")

    def _choice_question(self) -> str:
        assert self.choosing is not None
        kind, die = self.choosing
        if kind == "symbol":
            return self._symbol_question(die)
        if kind == "fix":
            read = (self.game.round.dice or ["?"] * (die + 1))[die]
            return t("haste.screen.fix_symbol", self.lang, die=die + 1, symbol=self._short_label(read))
        if kind == "who":  # the dice are hidden under the question: it names the symbol grabbed, not its number only
            dice = self.game.round.dice or []
            symbol = self._short_label(dice[die]) if die < len(dice) else "?"
            return t("haste.screen.who_took", self.lang, die=die + 1, symbol=symbol)
        return t("haste.screen.which_letter", self.lang)

    def _draw_choice(self, surface: pygame.Surface) -> None:
        assert self.choosing is not None
        kind, die = self.choosing
        g = self.game
        title = self._choice_question()
        theme.text(
            surface,
            title,
            (400, 122),
            theme.fit_text(title, theme.LARGE, 760, bold=True),
            theme.ACCENT,
            bold=True,
            anchor="midtop",
        )
        if (picture := self._asked_picture()) is not None:
            draw_die_picture(surface, picture, self._picture_place())
        for i, (rect, value) in enumerate(zip(self._choice_rects(), self._choice_values(), strict=True)):
            label = (
                t("haste.screen.take_out", self.lang) if value == TAKE_OUT
                else self._short_label(value) if kind in ("symbol", "fix")
                else g.players[value] if kind == "who" else value
            )
            _button(
                surface,
                rect,
                str(label),
                i == self.choice_index,
                size=theme.LARGE if kind == "letter" else theme.BODY,
            )

    def _asked_picture(self) -> DiePicture | None:
        """The die a symbol is asked for (unread, or being corrected; the unread die highlighted) as the camera saw
        it: the screen's "die 3" is the third from the top of the picture, not of the table. None where the roll was
        not read from the picture that is the tray's now."""
        kind, die = self.choosing or ("", 0)
        if self.choosing is None and self.pending is not None and self.cursor in self._options():
            kind, die = "symbol", self.cursor  # the unread die highlighted, before its question
        elif self.choosing is None and self.fixing:
            kind, die = "fix", self.cursor  # the die highlighted: is it the one read wrongly?
        if kind == "symbol":
            index: int | None = die  # the unread dice are asked in the reading's own order
        elif kind == "fix" and self.read_roll is not None:
            index = self.read_roll.index(self.session, die)
        else:
            return None
        return None if index is None else self.session.picture_of(index)

    def _picture_place(self) -> pygame.Rect:
        """Beside the answers' last row, or under the answers where that row is full: the larger square wins."""
        rects = self._choice_rects()
        last = [r for r in rects if r.y == rects[-1].y]
        beside = pygame.Rect(last[-1].right + 24, last[0].y, 788 - last[-1].right - 24, ANSWERS_BOTTOM - last[0].y)
        bottom = max(r.bottom for r in rects)  # ("take it out" under the last row)
        below = pygame.Rect(12, bottom + 12, 776, ANSWERS_BOTTOM - bottom - 12)
        return max(beside, below, key=lambda r: min(r.w, r.h))

    def _symbol_question(self, die: int) -> str:
        guess = self.session.guess(die)
        if guess in SYMBOLS:
            return t("haste.screen.choose_symbol_guess", self.lang, die=die + 1, symbol=self._short_label(guess))
        if guess is None:  # the reader knows no symbol like it: it may be a die of another game
            return t("haste.screen.choose_symbol_foreign", self.lang, die=die + 1)
        return t("haste.screen.choose_symbol", self.lang, die=die + 1)

    def _hints(self) -> list[tuple[str, str]]:
        g = self.game
        lang = self.lang

        def h(btn: str, what: str) -> tuple[str, str]:
            return t(f"core.btn_{btn}", lang), t(f"haste.hint.{what}", lang)

        if self.choosing is not None or self.fixing:
            return [h("next", "next"), h("select", "choose"), h("undo", "back")]
        if self.pending is not None:
            return [h("next", "next"), h("select", "choose"), h("roll", "reroll")]
        if g.phase is Phase.ROLL:
            return [h("roll", "roll")]
        if g.phase is Phase.PICK:
            out = [h("next", "next"), h("select", "choose" if self.cursor == FIX else "take")]
            return out + ([h("reroll", "reroll")] if not g.round.picks else [])
        if g.phase is Phase.LETTER:  # SELECT does what the highlight says; variant 1's TIMER turns the token only
            # TIMER first, where it stays while the sand runs ("TIMER hold: cancel"): second, at x 205-420, it
            # left "UNDO menu" under a child's second tap on the same spot, which opened the pause menu
            rest = [h("select", "draw" if self.cursor == 0 else "choose"), h("next", "next")]
            if g.letter_first:
                return rest
            out = [h("timer", "timer"), *rest]
            # German "UHR Sanduhr drehen" beside "WÄHLEN Buchstaben ziehen" left no room for "ZURÜCK Menü" at the
            # bar's size (``with_menu``): "UHR drehen" there, the button's name saying what is turned
            return out if with_menu(out, lang) != out else [h("timer", "turn"), *rest]
        if g.phase is Phase.WRITING:
            if g.hourglass.is_running(self.wall_now()):
                return [h("timer", "cancel")]
            return [h("timer", "timer"), h("next", "next"), h("select", "confirm")]
        if g.phase is Phase.READING:
            return [h("next", "next"), h("select", "confirm")]
        return []


def _button(
    surface: pygame.Surface,
    rect: pygame.Rect,
    label: str,
    highlighted: bool,
    *,
    enabled: bool = True,
    size: int = theme.BODY,
) -> None:
    pygame.draw.rect(surface, theme.PANEL_HI if highlighted else theme.PANEL, rect, border_radius=12)
    if highlighted:
        pygame.draw.rect(surface, theme.ACCENT, rect, width=4, border_radius=12)
    draw_label(surface, rect.inflate(-14, -8), label, size, theme.TEXT if enabled else theme.MUTED)


def _repeats(meaning: str, name: str, and_word: str) -> bool:
    """Whether ``meaning`` says no more than ``name``: word for word the same, "&" read as ``and_word``, each word
    of the meaning the name's word written out ("Obst und Gemüse" under "Obst & Gemüse", "Fruits and vegetables"
    under "Fruit & veg", "Sportarten" under "Sport"). A line under the symbol that only repeats it is read as
    something to tell apart from it."""
    def words(text: str) -> list[str]:
        return [w for w in re.findall(r"\w+", text.casefold()) if w != and_word.casefold()]

    said, shown = words(meaning), words(name)
    return len(said) == len(shown) and all(a.startswith(b) for a, b in zip(said, shown, strict=True))


def _shortened(prompt: Announcement, players: Sequence[str]) -> Announcement:
    """``prompt`` with its players' names as people shorten them, each in a form no other of the table's
    ``players`` takes (``theme.table_short_name``: two grandmothers were both "Großmutter H.")."""
    params = {
        key: theme.table_short_name(v, players) if key == "player" and isinstance(v, str)
        else [theme.table_short_name(p, players) for p in v] if key == "players" and isinstance(v, list)
        else v
        for key, v in prompt.params.items()
    }
    return replace(prompt, params=params)


def _draw_lines(
    surface: pygame.Surface, lines: tuple[str, ...], size: int, top: int, color: tuple[int, int, int]
) -> None:
    """``lines`` centred on the canvas from ``top`` down, bold, a line's height apart."""
    pitch = theme.font(size, True).get_linesize()
    for k, line in enumerate(lines):
        theme.text(surface, line, (400, top + k * pitch), size, color, bold=True, anchor="midtop")


def _shared_widths(players: list[str], size: int, extra: int, grid: list[list[int]], total: int, *,
                   least: int = 0) -> list[int]:
    """The crystal table's cells' widths, ``grid`` its rows of players' indices (one row, or two of three),
    ``total`` a full row's width without its gaps, ``extra`` what a cell holds beside its name, ``least`` the
    narrowest a cell may be. Even where every name fits at ``size``; else each cell as wide as its name needs
    (whole where it fits an even cell, else in short; then every name of several words in short: the cells' share
    of what is left may give it back whole, ``_names_in``), the rest shared (``widths_by_need``, as Noch X-Mal!'s
    cards): in columns where every row fits so, else row by row; where even that is too wide, the cells narrower
    alike, the columns kept (the names go below ``size``)."""
    f = theme.font(size, True)
    n, cols = len(players), len(grid[0])
    even = total // cols
    fitted = [theme.fit_name(name, size, even - extra, bold=True, players=tuple(players)) for name in players]
    if all(at >= size for _, at in fitted) and even >= least:
        return [even] * n
    # each name's width at ``size`` as the even cells had it, else in short, a double first name ("Anne-Marie", one
    # word) whole (``theme.fit_name`` keeps it whole while it can: a cell sized for "Anne-M." drew "Anne-M." where
    # Noch X-Mal!'s cards showed it whole at FAR); then every name of several parts in short, "Anne-M." too (where
    # the row holds no more, all at FAR)
    drawn = [name if at >= size else full if theme.double_first_name(full) else theme.table_short_name(full, players)
             for full, (name, at) in zip(players, fitted, strict=True)]
    most = [max(least, f.size(name)[0] + extra) for name in drawn]
    shortest = [min(w, max(least, f.size(theme.table_short_name(full, players))[0] + extra))
                for full, w in zip(players, most, strict=True)]
    return widths_by_need([most, shortest], grid, total, aligned=True)


def _names_in(players: list[str], cells: list[pygame.Rect], size: int, extra: int) -> tuple[list[str], int]:
    """Each player's name in its cell (``extra`` of it beside the name) and the one size all are drawn at: each
    whole or in short at ``size`` or less (``theme.fit_name``), the smallest of them where that is FAR or more;
    else the short forms, all at the size the widest needs (down to SMALLEST)."""
    names = [theme.fit_name(name, size, cell.w - extra, bold=True, players=tuple(players))
             for name, cell in zip(players, cells, strict=True)]
    at = min(s for _, s in names)
    if at >= theme.FAR:
        return [name for name, _ in names], at
    short = [name if s >= theme.FAR else theme.table_short_name(full, players)
             for full, (name, s) in zip(players, names, strict=True)]
    at = max(theme.SMALLEST, min(theme.fit_text(name, theme.FAR, cell.w - extra, bold=True)
                                 for name, cell in zip(short, cells, strict=True)))
    return [theme.fit_label(name, at, cell.w - extra, bold=True) for name, cell in zip(short, cells, strict=True)], at


def _crystal(surface: pygame.Surface, center: tuple[int, int], r: int, color: tuple[int, int, int]) -> None:
    """A small cut gem: the crystals are the game's points."""
    x, y = center
    pygame.draw.polygon(surface, color, [(x, y - r), (x + r, y - r // 3), (x, y + r), (x - r, y - r // 3)])
