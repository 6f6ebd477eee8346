"""The menus around the games: main menu (resume, free play, games, teaching), pause menu, and game setup.

Every menu works with NEXT/SELECT/UNDO alone and by touch (``widgets.Menu``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pygame

from companion.i18n import t
from companion.views import theme
from companion.views.widgets import LONG_LIST, Menu, MenuItem, hint_bar, hint_button, next_moves
from hardware.events import ButtonEvent
from vision.types import TrayReading


@dataclass(frozen=True)
class Note:
    """A line under a menu's title for the table to read (this evening's wins): its words, the same words with the
    names shortened (six long names), and the names, never broken across its two lines at most."""

    text: str
    short: str = ""
    names: tuple[str, ...] = ()

    def layout(self, width: int) -> tuple[tuple[str, ...], int]:
        """Its lines and their size: one line at BODY where it fits, else shortened, else two (``far_lines``)."""
        return theme.far_lines(self.text, theme.BODY, width, short=self.short or None, names=self.names)

    def height(self, width: int) -> int:
        """The room it takes under the title, a gap before the rows included."""
        lines, size = self.layout(width)
        return len(lines) * theme.font(size).get_linesize() + NOTE_GAP


#: between a note and the menu's first row
NOTE_GAP = 12
#: the least row height a note leaves a menu (rows 38 px tall: BODY's line and a finger's press); below it the menu
#: shows a row fewer
NOTE_LEAST_ROW = 46


class NotedMenu(Menu):
    """A menu with a ``Note`` under its title, its rows below the note; or beside the title (``beside``), where it
    stands there on one line at BODY."""

    note: Note | None = None
    #: the note stands beside a short title where it fits there (the pause menu: its seven rows stay in view)
    beside: bool = False

    def note_beside(self) -> pygame.Rect | None:
        """Where the note stands beside the title (one line at BODY, right of it), or None: under the title."""
        if self.note is None or not self.beside:
            return None
        return beside_title(self.note, self.title, self.rect)

    def _top(self) -> int:
        top = super()._top()
        if self.note is None or self.note_beside() is not None:
            return top
        return top + self.note.height(self.rect.w)

    def draw(self, surface: pygame.Surface) -> None:
        super().draw(surface)
        if self.note is None:
            return
        if (at := self.note_beside()) is not None:
            theme.text(surface, self.note.layout(at.w)[0][0], (at.x, at.centery), theme.BODY, theme.TEXT,
                       anchor="midleft")
            return
        lines, size = self.note.layout(self.rect.w)
        step = theme.font(size).get_linesize()
        for n, words in enumerate(lines):
            theme.text(surface, words, (self.rect.x, super()._top() + n * step), size, theme.TEXT)


#: between a title and a note beside it
BESIDE_GAP = 28


def beside_title(note: Note, title: str, rect: pygame.Rect) -> pygame.Rect | None:
    """The room right of a menu's ``title`` (drawn as ``Menu.draw`` does) where ``note`` stands on one line at BODY,
    or None where it does not fit there."""
    size = theme.fit_text(title, theme.LARGE, rect.w, bold=True)
    title_w, title_h = theme.font(size, True).size(title)
    room = pygame.Rect(rect.x + title_w + BESIDE_GAP, rect.y, rect.w - title_w - BESIDE_GAP, title_h)
    if room.w <= 0:
        return None
    lines, at = note.layout(room.w)
    return room if len(lines) == 1 and at >= theme.BODY else None


class FarMenu(Menu):
    """A menu whose rows are sentences for the whole table to read (what was said, ``App._said_screen``): each on up
    to three even lines as large as its row holds, up to LARGE, FAR at least where that fits (``theme.far_lines``).
    A banner of 28 px that stood five seconds was what the table had of them."""

    def draw_label(self, surface: pygame.Surface, i: int, r: pygame.Rect, hi: bool) -> None:
        item = self.items[i]
        color = theme.TEXT if item.enabled else theme.MUTED
        lines, size = theme.far_lines(item.label, theme.LARGE, r.w - 36, max_lines=3, max_height=r.h - 6)
        step = theme.font(size).get_height() + 1
        y = r.centery - len(lines) * step // 2
        for n, line in enumerate(lines):
            theme.text(surface, line, (r.x + 18, y + n * step), size, color)


class MenuMode:
    """A full-screen menu with a title and an optional subtitle, and an optional ``Note`` under the title."""

    def __init__(self, title: str, items: list[MenuItem], on_choose: Callable[[Any], None],
                 on_back: Callable[[], None] | None = None, lang: str = "de", subtitle: str = "",
                 row_h: int = 64, back_hint: str = "core.hint_back", title_lines: int = 1,
                 note: Note | None = None, note_beside: bool = False, far_rows: bool = False,
                 choose_hint: str = "core.hint_choose") -> None:
        self.lang = lang
        self.subtitle = subtitle
        #: what UNDO's hint says it does ("back", or the main menu's "back to the game")
        self.back_hint = back_hint
        #: what SELECT's hint says it does ("choose", or what was said: "say again")
        self.choose_hint = choose_hint
        top = 20 + (40 if subtitle else 0)
        # down to the hint bar: five rows under a subtitle (the main menu's camera line), not four and a gap
        kind = QuestionMenu if title_lines > 1 else NotedMenu if note is not None else FarMenu if far_rows else Menu
        # rows of sentences the table reads take the screen's width: at 680 the newest of "said last" went to 22 px
        # with 170 px beside it empty
        rect = pygame.Rect(20, top, 760, 440 - top) if far_rows else pygame.Rect(60, top, 680, 440 - top)
        if note is not None and not (note_beside and beside_title(note, title, rect) is not None):
            # as many rows as without it, each less tall, while a finger still presses one
            rows = max(1, (rect.h - 56) // row_h)
            row_h = max(NOTE_LEAST_ROW, min(row_h, (rect.h - 56 - note.height(rect.w)) // rows))
        self.menu = kind(rect, items, on_choose, on_back, title=title, row_h=row_h)
        if note is not None:
            self.menu.note, self.menu.beside = note, note_beside
        #: where "UNDO back" is drawn, as tall as the hint bar: a finger's way back (a table with the touch screen
        #: alone was held in the setup questions and the Teach menu, their only way out a button it has not got)
        self.back_rect: pygame.Rect | None = None

    def on_button(self, event: ButtonEvent) -> bool:
        return self.menu.on_button(event)

    def on_tap(self, pos: tuple[int, int]) -> bool:
        if self.menu.on_tap(pos):
            return True
        if self.back_rect is not None and self.menu.on_back is not None and self.back_rect.collidepoint(pos):
            self.menu.on_back()
            return True
        return False

    def on_dice(self, reading: TrayReading) -> None:
        pass

    def update(self, dt: float, now: float) -> None:
        pass

    def draw(self, surface: pygame.Surface) -> None:
        surface.fill(theme.BG)
        self.menu.draw(surface)
        if self.subtitle:
            size = theme.fit_text(self.subtitle, theme.SMALL, self.menu.rect.w)
            theme.text(surface, self.subtitle, (60, self.menu.rect.y - 34), size, theme.MUTED)  # above the title
        move = "core.hint_move_hold" if len(self.menu.items) > LONG_LIST else "core.hint_move"
        hints = [(t("core.btn_next", self.lang), t(move, self.lang))] if next_moves(self.menu) else []
        hints.append((t("core.btn_select", self.lang), t(self.choose_hint, self.lang)))
        if self.menu.on_back is not None:
            hints.append((t("core.btn_undo", self.lang), t(self.back_hint, self.lang)))
        rects = hint_bar(surface, hints)
        self.back_rect = hint_button(surface, rects[-1]) if self.menu.on_back is not None else None


class QuestionMenu(Menu):
    """A menu whose title is a question to read (the setup's): where one line holds it only below BODY, two even
    lines at BODY. Today's long German questions stood on one line at 20 px ("Welche Farbe entscheidet, wer 14
    Cubes bekommt? (Der Satz hat kein Blau.)"), smaller than the answers under them."""

    def title_layout(self) -> tuple[int, list[str]]:
        """The title's size and lines: one line at the largest size up to LARGE that holds it, else two at BODY
        (where even two do not hold it, one line as small as it needs)."""
        size = theme.fit_text(self.title, theme.LARGE, self.rect.w, bold=True)
        if size < theme.BODY:
            lines = theme.even_lines(self.title, theme.font(theme.BODY, True), self.rect.w, 2)
            if lines is not None and len(lines) > 1:
                return theme.BODY, list(lines)
        return size, [self.title]

    #: the title's layout while ``Menu.draw`` runs without the title (drawn here, on two lines)
    _held: tuple[int, list[str]] | None = None

    def _top(self) -> int:
        size, lines = self._held or self.title_layout()
        if len(lines) == 1:
            return super()._top()
        return self.rect.y + len(lines) * theme.font(size, True).get_linesize() + 8

    def draw(self, surface: pygame.Surface) -> None:
        size, lines = self.title_layout()
        if len(lines) == 1:
            super().draw(surface)
            return
        title, self.title, self._held = self.title, "", (size, lines)  # the rows under the lines drawn here
        try:
            super().draw(surface)
        finally:
            self.title, self._held = title, None
        step = theme.font(size, True).get_linesize()
        for n, line in enumerate(lines):
            theme.text(surface, line, (self.rect.x, self.rect.y + n * step), size, theme.ACCENT, bold=True)


@dataclass
class SetupStep:
    """One question of a game's setup: the key it sets in the setup action and the choices (label, value).

    With ``key=""`` each choice's value is a dict merged into the answers (one choice setting several keys); such
    a question lists in ``keys`` every key any of its answers may set, and clears them all whenever it is answered,
    does not arise, or is gone back past: a rematch's "Anna gets 14 cubes" (``starter``) taken back and followed
    by Strategy's "Ben rolls first" (``start``) opened Strategy on Anna's turn without its start roll, since only
    the keys of the answers offered then were cleared.
    """

    key: str
    #: the question, or a function of the answers so far giving it (what "who starts" decides depends on the mode)
    title: str | Callable[[dict[str, Any]], str]
    #: (label, value) pairs, or a function of the answers so far giving them (who starts: only who plays); none:
    #: the question does not arise with these answers (who starts, in a mode without turns) and is not asked
    choices: list[tuple[str, Any]] | Callable[[dict[str, Any]], list[tuple[str, Any]]]
    #: who plays, picked name by name: a function of the answers so far giving the names in seat order and the
    #: fewest and most that may play; the question then offers "Choose others …" below its choices
    pick: Callable[[dict[str, Any]], tuple[list[str], int, int]] | None = None
    #: the value highlighted first (a usual answer in the middle of its list: "10 minutes" of 5, 10, 15, 20)
    preselect: Any = None
    #: ``key=""`` only: every key its answers may set (empty: those of the answers offered at the time)
    keys: tuple[str, ...] = ()

    def sets(self) -> tuple[str, ...]:
        """The keys this question's answer owns, cleared before it is answered again."""
        return (self.key,) if self.key else self.keys


#: the value of the item that opens the name-by-name choice of who plays, and of its item that takes the choice
PICK, PICKED = "__pick__", "__picked__"
#: the value of the item that opens the players screen from the question of who plays
NAMES = "__names__"


@dataclass
class SetupWizard:
    """Asks a game's setup questions one after another; UNDO goes back one question (or out of the wizard).

    A later question with one answer only is answered without asking ("Who starts?" in a solo game): a press on
    the only item is no choice. A later question with no answers does not arise (who starts, where nobody takes
    turns) and sets nothing. The first question is always asked, so choosing a game never starts it unseen.
    """

    steps: list[SetupStep]
    on_done: Callable[[dict[str, Any]], None]
    on_cancel: Callable[[], None]
    lang: str = "de"
    #: opens the players screen (the setup starts again after it): offered with the question of who plays, since
    #: a family's first game shows the config's example names ("Anna, Ben, Carla, David") there
    on_names: Callable[[], None] | None = None
    answers: dict[str, Any] = field(default_factory=dict)
    #: the answers this game was last started with (play again): each question starts on its answer there, so a
    #: family playing again at once presses SELECT through (Mama stood first again at "who is youngest?")
    previous: dict[str, Any] = field(default_factory=dict)
    index: int = 0
    skipped: set[int] = field(default_factory=set)  # questions answered alone; UNDO steps back over them
    picked: set[str] = field(default_factory=set)  # the names ticked on the screen that picks who plays

    def __post_init__(self) -> None:
        self._build()

    def _choices(self, index: int | None = None, answers: dict[str, Any] | None = None) -> list[tuple[str, Any]]:
        step = self.steps[self.index if index is None else index]
        answers = self.answers if answers is None else answers
        choices = step.choices(answers) if callable(step.choices) else step.choices
        if step.pick is not None:
            names, fewest, most = step.pick(answers)
            last = self.previous.get(step.key)
            if (isinstance(last, (tuple, list)) and fewest <= len(last) <= most and set(last) <= set(names)
                    and all(value != tuple(last) for _, value in choices)):
                # last game's players, chosen name by name (Ben sat out), first: "4: Anna, Ben, Carla, David" stood
                # highlighted, and a table pressing SELECT through to play again took Ben back in
                last = tuple(n for n in names if n in last)  # in seat order now
                choices = [(f"{len(last)}: {', '.join(last)}", last), *choices]
            if len(names) > fewest:  # others than the first names could play
                choices = [*choices, (t("core.setup_pick", self.lang), PICK)]
            if self.on_names is not None:
                choices = [*choices, (t("core.setup_names", self.lang), NAMES)]
        return choices

    def _still_to_ask(self, highlighted: Any) -> int:
        """The questions after this one that the answers so far, and the answer highlighted, leave open: Fritzo's
        Beginner counted "2/5" and then started (who starts, the playing time and the colours do not arise there),
        and its first question counted questions only some modes ask. As ``_choose`` goes on: a question with one
        answer is answered alone, one with none does not arise; one whose choices need an answer not known yet
        counts as asked."""
        answers = dict(self.answers)
        if highlighted not in (PICK, NAMES):
            self._answer(highlighted, answers)
        n = 0
        for index in range(self.index + 1, len(self.steps)):
            key = self.steps[index].key
            try:
                choices = self._choices(index, answers)
            except (KeyError, IndexError, ValueError):  # it depends on an answer still to come
                choices = [("", None), ("", None)]
            if len(choices) > 1:
                n += 1
                if key:
                    answers.pop(key, None)  # not known yet: the questions that depend on it count as asked
            elif choices:
                self._answer(choices[0][1], answers, index)
            else:
                for k in self.steps[index].sets():
                    answers.pop(k, None)
        return n

    def _progress(self, highlighted: Any) -> str:
        """"2/4": this question among those asked, of those the answer ``highlighted`` leaves."""
        asked = self.index + 1 - sum(i < self.index for i in self.skipped)
        return f"{asked}/{asked + self._still_to_ask(highlighted)}"

    def _previous_now(self) -> dict[str, Any]:
        """The last game's answers for the seats chosen now. Who starts is answered with a seat number (``start``):
        with Anna gone home, or Ben sitting this game out, last game's seat 2 (Carla, the youngest) was David's,
        and a table pressing SELECT through let the wrong child begin. The starter is found by name among the
        players now; where that player does not play now, the question starts on its usual answer."""
        before, now, seat = self.previous.get("_players"), self.answers.get("_players"), self.previous.get("start")
        if before is None or now is None or not isinstance(seat, int) or list(before) == list(now):
            return self.previous
        previous = dict(self.previous)
        name = before[seat] if 0 <= seat < len(before) else None
        if name in now:
            previous["start"] = list(now).index(name)
        else:
            del previous["start"]
        return previous

    def _build(self) -> None:
        items = [MenuItem(label, value) for label, value in self._choices()]
        step = self.steps[self.index]
        previous = self._previous_now()
        wanted = previous.get(step.key, step.preselect) if step.key else step.preselect
        first = next((i for i, item in enumerate(items) if wanted is not None and item.value == wanted), None)
        if first is None and not step.key and previous:  # a question answered by several keys (Fritzo's mode)
            first = next((i for i, item in enumerate(items) if isinstance(item.value, dict) and item.value
                          and all(previous.get(k) == v for k, v in item.value.items())), None)
        if first is None:  # last time's answer is not offered now (another number of players): as a first setup
            first = 0 if step.preselect is None else next(
                (i for i, item in enumerate(items) if item.value == step.preselect), 0)
        self.mode = MenuMode(step.title(self.answers) if callable(step.title) else step.title, items, self._choose,
                             self._back, self.lang, subtitle=self._progress(items[first].value),
                             title_lines=2)  # a question is read: two lines at BODY rather than one at 20 px
        self.mode.menu.index = first
        self.asking = self.mode

    def _pick_screen(self, index: int = 0, first: int = 0) -> None:
        """Who plays, name by name (SELECT ticks or unticks; the first item plays with those ticked): a family of
        four where Ben sits this one out, or Carla and David at Fritzo Strategy, without reordering the seats."""
        names, fewest, most = self.steps[self.index].pick(self.answers)
        ticked = [n for n in names if n in self.picked]
        ok = fewest <= len(ticked) <= most
        go = t("core.setup_pick_go", self.lang, names=", ".join(ticked)) if ticked else t("core.setup_pick_none",
                                                                                            self.lang)
        items = [MenuItem(go, PICKED, enabled=ok)]
        items += [MenuItem(t("core.setup_pick_in" if n in self.picked else "core.setup_pick_out", self.lang, name=n), n)
                  for n in names]  # words: the bundled font has no tick mark
        rule = (t("core.setup_pick_exactly", self.lang, n=fewest) if fewest == most
                else t("core.setup_pick_range", self.lang, low=fewest, high=most))
        self.mode = MenuMode(t("core.setup_pick_title", self.lang), items, self._tick, self._build, self.lang,
                             subtitle=rule)
        self.mode.menu.index, self.mode.menu.first = index, first  # the names stay where the finger found them

    def _tick(self, value: Any) -> None:
        if value == PICKED:
            names = self.steps[self.index].pick(self.answers)[0]
            self._choose(tuple(n for n in names if n in self.picked))  # in seat order, whatever the ticking order
            return
        self.picked ^= {value}
        self._pick_screen(self.mode.menu.index, self.mode.menu.first)

    def _answer(self, value: Any, answers: dict[str, Any] | None = None, index: int | None = None) -> None:
        key = self.steps[self.index if index is None else index].key
        answers = self.answers if answers is None else answers
        if key:
            answers[key] = value
        else:  # what another choice of this question set goes: "Team: Professional", back, "Beginner" kept the
            # team's target in the game's setup
            for k in self.steps[self.index if index is None else index].keys:
                answers.pop(k, None)
            for _, other in self._choices(index, answers):
                if isinstance(other, dict):
                    for k in other:
                        answers.pop(k, None)
            answers.update(value)

    def _choose(self, value: Any) -> None:
        if value == NAMES and self.on_names is not None:
            self.on_names()
            return
        if value == PICK:
            names, _, most = self.steps[self.index].pick(self.answers)
            self.picked = set(names[:most])  # everybody who may play, as the first choice offers
            self._pick_screen()
            return
        self._answer(value)
        while self.index + 1 < len(self.steps):
            self.index += 1
            choices = self._choices()
            if len(choices) > 1:
                self._build()
                return
            self.skipped.add(self.index)
            if choices:
                self._answer(choices[0][1])
            else:  # an answer given before UNDO changed the answers is void now
                for k in self.steps[self.index].sets():
                    self.answers.pop(k, None)
        self.on_done(dict(self.answers))

    def _back(self) -> None:
        index = self.index - 1
        while index in self.skipped:
            index -= 1
        self.skipped = {i for i in self.skipped if i < index}
        for step in self.steps[index + 1:self.index + 1]:  # the questions gone back past: their answers are void
            for k in step.keys:
                self.answers.pop(k, None)
        if index < 0:
            self.on_cancel()
        else:
            self.index = index
            self._build()

    def on_button(self, event: ButtonEvent) -> bool:
        used = self.mode.on_button(event)
        self._follow_highlight()
        return used

    def on_tap(self, pos: tuple[int, int]) -> bool:
        used = self.mode.on_tap(pos)
        self._follow_highlight()
        return used

    def _follow_highlight(self) -> None:
        """The count follows the answer highlighted (on the question's own screen, not the name-by-name one)."""
        if self.mode is self.asking:
            menu = self.mode.menu
            self.mode.subtitle = self._progress(menu.items[menu.index].value)

    def on_dice(self, reading: TrayReading) -> None:
        pass

    def update(self, dt: float, now: float) -> None:
        pass

    def draw(self, surface: pygame.Surface) -> None:
        self.mode.draw(surface)
