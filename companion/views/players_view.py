"""The players screen: families put their names in at the table, in seat order, without touching a TOML file.

Everything works with NEXT/SELECT/UNDO alone (the Pi kiosk has no keyboard), by touch, and with a laptop keyboard
(typed characters arrive through :meth:`PlayersMode.on_text`). Names are typed on an on-screen letter grid; its
second page ("123 É…") has the digits, a hyphen, an apostrophe and a dot, and accented letters beyond German's
("Anne-Marie", "Oma 2", "D'Angelo", "Zoé", "Ayşe"), its third ("ŠČŽ…") the letters of the neighbours further east
and south ("Lukáš", "Jiří", "Željko", "Zoë", "Yıldız"): a table without a keyboard could not type them.
The rules a list must meet are config.from_dict's own (``names.first_name_problem``, one order for both) but told
in the player's language at the moment the mistake happens, so nothing invalid ever reaches ``save``.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field

import pygame

from companion import config
from companion.config import Config
from companion.errors import CompanionError
from companion.i18n import error_words, refused_words, t
from companion.names import FEWEST_PLAYERS, LONGEST_NAME, MOST_PLAYERS, first_name_problem, player_name
from companion.views import theme
from companion.views.widgets import hint_bar, keys_named
from hardware.events import Button, ButtonEvent, Press
from vision.types import TrayReading

#: the limits of config.from_dict (tests/test_players_view.py checks they still agree)
MIN_PLAYERS = FEWEST_PLAYERS
MAX_PLAYERS = MOST_PLAYERS
MAX_NAME_LEN = LONGEST_NAME
#: behind a name being renamed: it is selected, the first letter typed replaces it
SELECTED = (52, 84, 140)

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÜß"
#: the grid's second page, as many keys as the first: digits, - ' . and the accents of the neighbours' names
SYMBOLS = "1234567890-'.ÉÈÀÇÑØÅÁÍÓÚÊÔŞĞĆŁ"
#: the third page, as many keys again, in the order of the letters they are made from: Czech, Slovak, Polish,
#: Croatian/Serbian, Romanian, Hungarian, Portuguese, Dutch/French diaereses, Danish Æ and Turkish dotted İ and
#: dotless ı ("Yıldız" could only be typed "Yildiz"). Every one is drawn by the screen's font (tests check it).
ACCENTS = "ÂĂĄÃÆČĐĚËĘÎÏİıŃŇÒÕŐŘŚŠȘȚŮŰÝŹŻŽ"
PAGES = (LETTERS, SYMBOLS, ACCENTS)
#: what each page is called on the page key, which names the page it turns to (the one after it, round)
PAGE_LABELS = ("core.players_key_letters", "core.players_key_symbols", "core.players_key_accents")
GRID_COLS = 10
#: the last grid row: (kind, columns wide). "done" comes first so it is one NEXT after the last letter.
SPECIAL_KEYS = (("done", 2), ("space", 2), ("page", 2), ("delete", 2), ("cancel", 2))
#: a grid letter after these starts a word and is a capital ("Anne-Marie", "D'Angelo"): the grid has no shift key
WORD_STARTS = (" ", "-", "'")

ACTIONS = ("rename", "earlier", "later", "remove")

# layout (design pixels)
LIST_X, LIST_W = 30, 400
SIDE_X, SIDE_W = 460, 310
TOP = 72
ROW_H = 52  # pitch; the drawn row is 6 px shorter
GRID_TOP = 150
CELL_PITCH_Y = 68
MESSAGE_H = 66  # a problem is shown where the title is; the list and the name field start below


def undrawable(name: str) -> tuple[int, str] | None:
    """The first character of ``name`` the screen cannot draw (``theme.undrawn``: neither the bundled font nor its
    fallback, nor right to left), with its place (1-based), or None. "🎲Anna", "王芳" or "محمد" were taken and shown
    as boxes on every screen of the evening; "Nguyễn" is drawn in the fallback font where it is installed."""
    name = unicodedata.normalize("NFC", name)  # "e" + a combining accent is drawn as "é"
    found = theme.undrawn(name)
    return None if found is None else (found + 1, name[found])


def undrawable_words(name: str, lang: str, key: str = "core.players_err_undrawable") -> str | None:
    """``undrawable`` said: the name, the place and the code of the character (drawn, it is a box)."""
    found = undrawable(name)
    if found is None:
        return None
    place, ch = found
    return t(key, lang, name=name, place=place, code=f"U+{ord(ch):04X}")


def players_problem(names: list[str], lang: str = "de", checked: set[int] | None = None) -> str | None:
    """What is wrong with ``names`` (already stripped) in the player's words, or None when config would take it."""
    found = name_problem(names, lang, checked)
    return found[0] if found else None


def name_problem(names: list[str], lang: str = "de", checked: set[int] | None = None,
                 undrawable_key: str = "core.players_err_undrawable") -> tuple[str, int | None] | None:
    """``players_problem`` with the place of the name at fault (None for the list's length), so the screen can put
    its outline there.

    The rules and their order are the config's (``names.first_name_problem``), so the message names the same
    problem the config would. The screen's own: the list's length is told as too many or too few; no line break
    or hidden character is looked for (the entry types none, and the config let none in); and after the letters,
    a character the screen cannot draw (config, without pygame, has no font to ask), for the names at ``checked``
    (all where None): a name typed beside one the config brought with a box in it was refused for that one. So a
    name the announcer cannot say (no letter or digit: "♥") is refused last, after what cannot be drawn, as the
    config refuses it after its characters it cannot show."""
    def boxed(k: int, name: str) -> bool:
        return (checked is None or k in checked) and undrawable(name) is not None

    found = first_name_problem(names, undrawn=boxed)
    if found is None:
        return None
    how, values, k = found
    if how == "count":
        if values["n"] > MAX_PLAYERS:
            return t("core.players_err_too_many", lang, max=MAX_PLAYERS), None
        return t("core.players_err_too_few", lang), None
    if how == "long":
        return t("core.players_err_too_long", lang, max=MAX_NAME_LEN), k
    if how == "undrawn":
        return undrawable_words(values["name"], lang, undrawable_key), k
    return t(_PROBLEM_WORDS[how], lang, **values), k


#: the screen's words for the rules ``name_problem`` tells in one sentence (``names.first_name_problem``'s ``how``)
_PROBLEM_WORDS = {"blank": "core.players_err_blank", "twice": "core.players_err_duplicate",
                  "said_alike": "core.players_err_said_alike", "mixed": "core.players_err_mixed",
                  "unsaid": "core.players_err_unsaid"}


def _upper(ch: str) -> str:
    """Upper case that keeps one letter one letter ('ß'.upper() is 'SS', which would eat into 20 letters)."""
    up = ch.upper()
    return up if len(up) == 1 else ch


def _lower(ch: str) -> str:
    """Lower case that keeps one letter one letter: 'İ'.lower() is 'i' and a combining dot, two characters (the
    key then stays 'İ', a capital wherever it is typed; 'i' is on the first page)."""
    low = ch.lower()
    return low if len(low) == 1 else ch


@dataclass
class Key:
    kind: str  # "letter", "done", "space", "delete", "cancel"
    rect: pygame.Rect
    char: str = ""


def build_keys(page: int = 0) -> list[Key]:
    """The letter grid (``page`` 1: digits and signs, 2: more accents) in NEXT order: three rows, then
    done/space/page/delete/cancel. Every page has the same keys in the same places: turning the page keeps the
    outline where it is."""
    cell_w = (theme.DESIGN_SIZE[0] - 2 * LIST_X) // GRID_COLS
    keys: list[Key] = []
    for i, ch in enumerate(PAGES[page]):
        r, c = divmod(i, GRID_COLS)
        rect = pygame.Rect(LIST_X + c * cell_w, GRID_TOP + r * CELL_PITCH_Y, cell_w - 6, CELL_PITCH_Y - 6)
        keys.append(Key("letter", rect, _lower(ch)))
    row = (len(PAGES[page]) + GRID_COLS - 1) // GRID_COLS
    col = 0
    for kind, span in SPECIAL_KEYS:
        rect = pygame.Rect(LIST_X + col * cell_w, GRID_TOP + row * CELL_PITCH_Y, span * cell_w - 6, CELL_PITCH_Y - 6)
        keys.append(Key(kind, rect))
        col += span
    return keys


@dataclass
class NameEntry:
    """A name being typed: for a new player (``index`` None) or to rename the player at ``index``."""

    index: int | None
    text: str = ""
    cursor: int = 0  # the highlighted key
    keyboard: bool = False  # text came from a laptop keyboard
    keys: list[Key] = field(default_factory=build_keys)
    page: int = 0  # index into PAGES (1: the digits and signs, 2: more accents)
    #: a name being renamed, shown selected: the first letter typed replaces it, as in any text field ("Ben" and
    #: then "Mama" typed gave "BenMama"); a delete or a space first keeps it, to fix or lengthen it
    fresh: bool = False
    refused: str = ""  # the last letter refused as one the screen cannot draw

    def __post_init__(self) -> None:
        self.fresh = bool(self.text)

    def next_is_capital(self) -> bool:
        return not self.text or self.fresh or self.text.endswith(WORD_STARTS)

    def turn_page(self) -> None:
        """On to the next page, round to the letters: one key walks every page with NEXT/SELECT alone."""
        self.page = (self.page + 1) % len(PAGES)
        self.keys = build_keys(self.page)

    def type(self, s: str, *, from_grid: bool) -> str | None:
        """Add ``s``; returns a problem ("too_long", "undrawable": ``refused`` is the letter) when a letter had to be
        refused.

        The first letter is always capitalised. The grid has no shift key, so its letters are capitalised at
        every word start too; a keyboard has one, so mid-name keyboard text keeps the case it was typed in.
        """
        for ch in s:
            if not ch.isprintable() or ch in "\r\n\t":
                continue
            if not ch.isspace() and undrawable(ch) is not None:  # a box on every screen: refused as typed, the
                self.refused = ch  # letters before it kept (a name being renamed too)
                return "undrawable"
            if self.fresh:  # a letter starts a new name; a space goes on with this one ("Anna" -> "Anna M")
                self.text, self.fresh = (self.text if ch.isspace() else ""), False
            if ch.isspace():
                if not self.text or self.text.endswith(" "):
                    continue  # leading or double spaces would only be stripped again
                ch = " "
            if len(self.text) >= MAX_NAME_LEN:
                return "too_long"
            if not self.text or (from_grid and self.text.endswith(WORD_STARTS)):
                ch = _upper(ch)
            self.text += ch
        return None

    def delete(self) -> None:
        self.text, self.fresh = self.text[:-1], False

    def highlight_done(self) -> None:
        """The outline on Done: SELECT then saves the name (after typed text, a rename's start, a full name)."""
        self.cursor = next(i for i, k in enumerate(self.keys) if k.kind == "done")

    def full(self) -> bool:
        """The name takes no more letters (a name being renamed still takes one: it starts a new name)."""
        return len(self.text) >= MAX_NAME_LEN and not self.fresh

    def row_starts(self) -> list[int]:
        starts, last_y = [], None
        for i, k in enumerate(self.keys):
            if k.rect.y != last_y:
                starts.append(i)
                last_y = k.rect.y
        return starts

    def next_row(self) -> None:
        """ROLL jumps to the next row's first key: a shortcut for the table's buttons (NEXT alone still works)."""
        starts = self.row_starts()
        later = [s for s in starts if s > self.cursor]
        self.cursor = later[0] if later else 0


class PlayersMode:
    """The list of players in seat order (clockwise), with add, rename, remove, move and done.

    Buttons: NEXT moves the outline through the players, "add" and "done"; SELECT on a player opens its actions
    (NEXT through them, SELECT does one, UNDO back to the list); UNDO on the list is "done". Touch: tap a player,
    then an action. Done checks the list, saves it with the injected ``save`` and calls ``on_done``; a failed save
    is shown and the edits stay, so the family can try again.
    """

    def __init__(self, cfg: Config, lang: str = "de", *, on_done: Callable[[], None],
                 save: Callable[[Config], object] = config.save) -> None:
        self.cfg = cfg
        self.lang = lang
        self.on_done = on_done
        self._save = save
        self.players: list[str] = list(cfg.players)
        #: the names as the card last took them (or as they were read): leaving with these needs no save, so a
        #: full or read-only card does not keep a family that changed nothing on this screen
        self._saved: list[str] = list(cfg.players)
        self.chosen = 0  # the player the actions apply to
        self.focus = "list"  # "list" or "actions": where NEXT moves the outline
        self.cursor = 0  # list focus: 0..n-1 players, n = add, n+1 = done
        self.action = 0  # actions focus: index into ACTIONS
        self.remove_armed = False  # remove asks once more: a wrong SELECT must not cost a typed name
        self.message = ""
        self.entry: NameEntry | None = None
        #: the last press asked to leave a list with a problem (said): the same press again leaves
        self.leave_armed = False
        self._leaving = False  # this press is that second one

    # -- state helpers ---------------------------------------------------------------------------------------
    @property
    def wants_text(self) -> bool:
        """True while a name is typed: the app should send typed characters here, not treat R/E/T/U as buttons."""
        return self.entry is not None

    def presses_again(self, button: Button) -> tuple | None:
        """What ``button`` types while a name is typed, where each quick press is meant (the app's double-press
        guard lets it through, ``App._repeats``): a letter or Delete under SELECT (any of them: NEXT moved the
        outline between two, on purpose), UNDO deleting a letter. "Anna", "Otto" and "Hannah" typed at a steady pace
        lost every other doubled letter. None elsewhere: Done, a full name's outline moved to it, is pressed once."""
        entry = self.entry
        if entry is None or entry.keyboard:
            return None
        if button is Button.SELECT and entry.keys[entry.cursor].kind in ("letter", "delete"):
            return ("type",)
        return ("undo",) if button is Button.UNDO and entry.text else None

    def _n_items(self) -> int:
        return len(self.players) + 2

    def _item(self) -> tuple[str, int]:
        if self.cursor < len(self.players):
            return "player", self.cursor
        return ("add", -1) if self.cursor == len(self.players) else ("done", -1)

    def action_enabled(self, action: str) -> bool:
        """Actions apply to the chosen player; with the outline on add/done no player is chosen visibly."""
        if not self.players or (self.focus == "list" and self.cursor >= len(self.players)):
            return False
        if action == "earlier":
            return self.chosen > 0
        if action == "later":
            return self.chosen < len(self.players) - 1
        return True

    # -- rects (also used by the tests to tap) ---------------------------------------------------------------
    def player_rects(self) -> list[pygame.Rect]:
        return [pygame.Rect(LIST_X, TOP + i * ROW_H, LIST_W, ROW_H - 6) for i in range(len(self.players))]

    def action_rects(self) -> dict[str, pygame.Rect]:
        return {a: pygame.Rect(SIDE_X, TOP + k * ROW_H, SIDE_W, ROW_H - 6) for k, a in enumerate(ACTIONS)}

    def add_rect(self) -> pygame.Rect:
        return pygame.Rect(SIDE_X, TOP + 4 * ROW_H + 22, SIDE_W, ROW_H - 6)

    def done_rect(self) -> pygame.Rect:
        return pygame.Rect(SIDE_X, TOP + 5 * ROW_H + 22, SIDE_W, ROW_H - 6)

    # -- input -----------------------------------------------------------------------------------------------
    def _pressed(self, handle: Callable[[], bool]) -> bool:
        """A press (button or tap), ``handle``d: only the press right after the warning leaves a list with a
        problem. One the screen does not take (ROLL, a tap beside everything) keeps the arm: its words stay on the
        screen, and the UNDO they promise showed the warning again instead."""
        armed = self._leaving = self.leave_armed
        self.leave_armed = False
        handled = handle()
        if not handled:
            self.leave_armed = armed
        return handled

    def on_button(self, event: ButtonEvent) -> bool:
        if event.press is Press.LONG and (event.button is not Button.UNDO or self.entry is not None):
            return False  # long SELECT belongs to the app (the sound), and a held UNDO does not delete letters
        return self._pressed(lambda: self._handle_button(event.button))

    def _handle_button(self, button: Button) -> bool:
        if self.entry is not None:  # (out of the name, a held UNDO goes back as everywhere else: it did nothing)
            return self._entry_button(button)
        if self.focus == "actions":
            return self._actions_button(button)
        return self._list_button(button)

    def _list_button(self, button: Button) -> bool:
        if button.step:
            self.message = ""
            self.cursor = (self.cursor + button.step) % self._n_items()
            if self.cursor < len(self.players):
                self.chosen = self.cursor
            return True
        if button is Button.SELECT:
            self.message = ""
            kind, i = self._item()
            if kind == "player":
                self._open_actions(i)
            elif kind == "add":
                self._start_add()
            else:
                self._finish()
            return True
        if button is Button.UNDO:  # back, as on every other screen: keeps the edits, as "Done" does
            self.message = ""
            self._finish()
            return True
        return False

    def _actions_button(self, button: Button) -> bool:
        if button.step:
            self.message = ""
            self.remove_armed = False
            for step in range(1, len(ACTIONS) + 1):
                k = (self.action + step * button.step) % len(ACTIONS)
                if self.action_enabled(ACTIONS[k]):
                    self.action = k
                    break
            return True
        if button is Button.SELECT:
            self.message = ""
            self._do(ACTIONS[self.action])
            return True
        if button is Button.UNDO:
            self.message = ""
            self.remove_armed = False
            self.focus = "list"
            self.cursor = self.chosen
            return True
        return False

    def _entry_button(self, button: Button) -> bool:
        entry = self.entry
        assert entry is not None
        if button.step:
            entry.cursor = (entry.cursor + button.step) % len(entry.keys)
        elif button is Button.ROLL:
            if entry.keyboard:
                return False  # Space and R are ROLL keys too: typing them must not move the outline off "done"
            entry.next_row()
        elif button is Button.SELECT:
            self.message = ""
            self._press_key(entry.keys[entry.cursor])
        elif button is Button.UNDO:
            self.message = ""
            if entry.text:
                entry.delete()
            else:
                self._close_entry()  # nothing left to delete: UNDO leaves, as it does everywhere else
        else:
            return False
        return True

    def on_backspace(self, *, held: bool) -> None:
        """The laptop's Backspace while a name is typed (the app sends it here, not as UNDO, whose double-press
        guard lost every other quick press): one letter; pressed on an empty name it leaves the name as UNDO does,
        ``held`` (the key's repeat) it stops at the empty name."""
        if self.entry is None:
            return
        self.message = ""
        if self.entry.text:
            self.entry.delete()
        elif not held:
            self._close_entry()

    def on_escape(self) -> None:
        """The laptop's Escape is back: it drops a name being typed, and on the list saves and leaves like UNDO.

        Leaving the screen without saving would lose names a family just typed.
        """
        if self.entry is not None:
            self.message = ""
            self._close_entry()
        else:
            self.on_button(ButtonEvent(Button.UNDO))

    def on_tap(self, pos: tuple[int, int]) -> bool:
        return self._pressed(lambda: self._tap(pos))

    def _tap(self, pos: tuple[int, int]) -> bool:
        if self.entry is not None:
            for i, key in enumerate(self.entry.keys):
                if key.rect.collidepoint(pos):
                    self.message = ""
                    self.entry.cursor = i
                    self._press_key(key)
                    return True
            return False
        for i, r in enumerate(self.player_rects()):
            if r.collidepoint(pos):
                self.message = ""
                self._open_actions(i)
                return True
        for a, r in self.action_rects().items():
            if r.collidepoint(pos):
                self.message = ""
                if self.action_enabled(a):
                    if self.focus != "actions" or self.action != ACTIONS.index(a):
                        self.remove_armed = False
                    self.focus, self.action = "actions", ACTIONS.index(a)
                    self._do(a)
                return True
        if self.add_rect().collidepoint(pos):
            self.message = ""
            self.cursor = len(self.players)
            self._start_add()
            return True
        if self.done_rect().collidepoint(pos):
            self.message = ""
            self.cursor = len(self.players) + 1
            self._finish()
            return True
        return False

    def on_text(self, text: str) -> bool:
        """Characters typed on a laptop keyboard (pygame TEXTINPUT); ignored outside name entry."""
        if self.entry is None:
            return False
        self.message = ""
        self.entry.keyboard = True
        # an accent sent as its own mark after the letter (e, U+0301) was refused as a sign the screen cannot draw
        if problem := self.entry.type(unicodedata.normalize("NFC", text), from_grid=False):
            self.message = self._typing_words(problem)
        # Return (SELECT) after typing should mean "done", not "type the highlighted letter"
        self.entry.highlight_done()
        return True

    def _typing_words(self, problem: str) -> str:
        """A letter refused while typing (``NameEntry.type``), said."""
        if problem == "undrawable" and self.entry is not None:
            return t("core.players_err_undrawable_typed", self.lang, code=f"U+{ord(self.entry.refused):04X}")
        return t("core.players_err_too_long", self.lang, max=MAX_NAME_LEN)

    def on_dice(self, reading: TrayReading) -> None:
        pass

    def update(self, dt: float, now: float) -> None:
        pass

    # -- actions ---------------------------------------------------------------------------------------------
    def _open_actions(self, i: int) -> None:
        self.chosen = self.cursor = i
        self.focus = "actions"
        self.remove_armed = False
        self.action = next(k for k, a in enumerate(ACTIONS) if self.action_enabled(a))

    def _do(self, action: str) -> None:
        if not self.action_enabled(action):
            return
        if action != "remove":
            self.remove_armed = False
        i = self.chosen
        if action == "rename":
            self.entry = NameEntry(i, self.players[i])
            self.entry.highlight_done()
        elif action in ("earlier", "later"):
            j = i - 1 if action == "earlier" else i + 1
            self.players[i], self.players[j] = self.players[j], self.players[i]
            self.chosen = self.cursor = j
            self._store()
        elif action == "remove":
            if len(self.players) <= MIN_PLAYERS:
                self.message = t("core.players_err_too_few", self.lang)
            elif not self.remove_armed:
                self.remove_armed = True
            else:
                del self.players[i]
                self.remove_armed = False
                self.chosen = self.cursor = min(i, len(self.players) - 1)
                self.focus = "list"
                self._store()

    def _start_add(self) -> None:
        if len(self.players) >= MAX_PLAYERS:
            self.message = t("core.players_err_too_many", self.lang, max=MAX_PLAYERS)
            return
        self.entry = NameEntry(None)

    def _press_key(self, key: Key) -> None:
        entry = self.entry
        assert entry is not None
        if key.kind == "letter" or key.kind == "space":
            if problem := entry.type(key.char or " ", from_grid=True):
                self.message = self._typing_words(problem)
            if entry.full():  # the name can take no more: SELECT saves it (each press refused the next letter)
                entry.highlight_done()
        elif key.kind == "page":
            entry.turn_page()
        elif key.kind == "delete":
            entry.delete()
        elif key.kind == "cancel":
            self._close_entry()
        elif key.kind == "done":
            self._accept_name()

    def _accept_name(self) -> None:
        entry = self.entry
        assert entry is not None
        name = player_name(entry.text)  # stored one way, as the config stores it
        candidate = list(self.players)
        if entry.index is None:
            candidate.append(name)
        else:
            candidate[entry.index] = name
        typed = len(candidate) - 1 if entry.index is None else entry.index
        problem = players_problem(candidate, self.lang, checked={typed})
        if problem:
            self.message = problem
            return
        self.players = candidate
        self.chosen = len(candidate) - 1 if entry.index is None else entry.index
        self._close_entry()
        self._store()

    def _store(self, refused_key: str = "core.players_err_not_saved") -> bool:
        """Save the players as they are now: each name accepted, each seat moved or player removed at once (six
        names typed and the Pi unplugged before "Done" were all lost). A card that refuses says so here with
        ``refused_key``; the names still hold in the config for this run, as the mute and the language do."""
        self.cfg.players = list(self.players)
        try:
            self._save(self.cfg)
        except (CompanionError, OSError) as exc:  # a full card or read-only folder must not end the evening
            words = refused_words(exc, self.lang) or error_words(exc, self.lang)  # a root-owned folder: which one
            self.message = t(refused_key, self.lang, error=words)
            return False
        self._saved = list(self.players)
        if self.cfg.unreadable is not None:  # ``config.save`` leaves a file it could not read as it is: the names
            # hold for this run alone, said as the mute and the language say it (they were lost without a word)
            self.message = t("core.players_not_kept", self.lang, error=error_words(self.cfg.unreadable, self.lang))
        return True

    def _close_entry(self) -> None:
        self.entry = None
        self.focus = "list"
        self.cursor = self.chosen if self.players else 0

    def _finish(self) -> None:
        """Leave with the list checked. A list the screen would not take (a name from the config with a character
        the font cannot draw) is said with its name in the outline, ready to rename; the same press again leaves
        with the names as they are: a family that could not mend it was kept on this screen all evening."""
        found = name_problem(self.players, self.lang, undrawable_key="core.players_err_undrawable_short")
        if found is not None and not self._leaving:
            words, at = found
            if at is not None:
                self.chosen = self.cursor = at
            self.focus = "list"
            self.message = f"{words} {t('core.players_leave_anyway', self.lang)}"
            self.leave_armed = True
            return
        if found is not None:  # asked twice: every change was saved as it was made, what the config took stands
            self.on_done()
            return
        if self.players == self._saved:  # nothing to save: a card that refuses every write must not keep them here
            self.cfg.players = list(self.players)
            self.on_done()
            return
        if self._leaving:  # the card refused and the same press came again: on with the names for this run
            self._store()  # (one more try: a card with room made since keeps them after all)
            self.on_done()
            return
        if self._store("core.players_leave_unsaved"):
            self.on_done()
        else:  # the card refused every time (full, read-only): no game could start from the setup's screen
            self.leave_armed = True

    # -- drawing ---------------------------------------------------------------------------------------------
    def draw(self, surface: pygame.Surface) -> None:
        surface.fill(theme.BG)
        if self.entry is not None:
            self._draw_entry(surface, self.entry)
        else:
            self._draw_list(surface)
        if self.message:
            self._draw_message(surface)

    def _button(self, surface: pygame.Surface, rect: pygame.Rect, label: str, *, outlined: bool,
                enabled: bool = True, color=theme.TEXT, fill=theme.PANEL) -> None:
        pygame.draw.rect(surface, theme.PANEL_HI if outlined else fill, rect, border_radius=10)
        if outlined:
            pygame.draw.rect(surface, theme.ACCENT, rect, width=4, border_radius=10)
        c = color if enabled else theme.MUTED
        size = theme.fit_text(label, theme.BODY, rect.w - 24)
        theme.text(surface, label, rect.center, size, c, anchor="center")

    def _draw_list(self, surface: pygame.Surface) -> None:
        if not self.message:
            title = theme.text(surface, t("core.players_title", self.lang), (LIST_X, 12), theme.LARGE, theme.ACCENT)
            theme.text(surface, t("core.players_seat_order", self.lang), (title.right + 24, title.centery + 2),
                       theme.SMALL, theme.MUTED, anchor="midleft")
        in_list = self.focus == "list"
        for i, (r, name) in enumerate(zip(self.player_rects(), self.players, strict=True)):
            chosen = i == self.chosen
            outlined = in_list and i == self.cursor
            fill = theme.ACCENT if chosen and not in_list else (theme.PANEL_HI if outlined else theme.PANEL)
            pygame.draw.rect(surface, fill, r, border_radius=10)
            if outlined:
                pygame.draw.rect(surface, theme.ACCENT, r, width=4, border_radius=10)
            color = theme.BG if fill == theme.ACCENT else theme.TEXT
            seat = theme.text(surface, f"{i + 1}.", (r.x + 16, r.centery), theme.BODY,
                              theme.BG if fill == theme.ACCENT else theme.MUTED, anchor="midleft")
            size = theme.fit_text(name, theme.BODY, r.right - seat.right - 28)
            theme.text(surface, name, (seat.right + 14, r.centery), size, color, anchor="midleft")
        for k, (a, r) in enumerate(self.action_rects().items()):
            label = t("core.players_remove_sure" if a == "remove" and self.remove_armed else f"core.players_{a}",
                      self.lang)
            color = theme.BAD if a == "remove" and self.remove_armed else theme.TEXT
            self._button(surface, r, label, outlined=self.focus == "actions" and k == self.action,
                         enabled=self.action_enabled(a), color=color)
        n = len(self.players)
        self._button(surface, self.add_rect(), t("core.players_add", self.lang),
                     outlined=in_list and self.cursor == n, enabled=n < MAX_PLAYERS)
        self._button(surface, self.done_rect(), t("core.players_done", self.lang),
                     outlined=in_list and self.cursor == n + 1, color=theme.GOOD)
        hints = [(t("core.btn_next", self.lang), t("core.hint_move", self.lang)),
                 (t("core.btn_select", self.lang), t("core.hint_choose", self.lang))]
        hints.append((t("core.btn_undo", self.lang),
                      t("core.hint_back" if self.focus == "actions" else "core.players_hint_done", self.lang)))
        hint_bar(surface, hints)

    def _draw_entry(self, surface: pygame.Surface, entry: NameEntry) -> None:
        if entry.index is None:
            title = t("core.players_new_title", self.lang)
        else:
            title = t("core.players_rename_title", self.lang, name=self.players[entry.index])
        if not self.message:
            size = theme.fit_text(title, theme.LARGE, theme.DESIGN_SIZE[0] - 2 * LIST_X)
            theme.text(surface, title, (LIST_X, 12), size, theme.ACCENT)
        field_rect = pygame.Rect(LIST_X, 72, theme.DESIGN_SIZE[0] - 2 * LIST_X, 66)
        pygame.draw.rect(surface, theme.PANEL, field_rect, border_radius=10)
        pygame.draw.rect(surface, theme.ACCENT, field_rect, width=3, border_radius=10)
        count = theme.text(surface, f"{len(entry.text)}/{MAX_NAME_LEN}", (field_rect.right - 14, field_rect.centery),
                           theme.SMALL, theme.MUTED, anchor="midright")
        room = count.x - field_rect.x - 40
        size = theme.fit_text(entry.text or "M", theme.LARGE, room)
        if entry.fresh:  # selected: the first letter replaces it
            img = theme.font(size).render(entry.text, True, theme.TEXT)
            pygame.draw.rect(surface, SELECTED, img.get_rect(midleft=(field_rect.x + 18, field_rect.centery))
                             .inflate(10, 4), border_radius=6)
        shown = theme.text(surface, entry.text, (field_rect.x + 18, field_rect.centery), size, theme.TEXT,
                           anchor="midleft")
        caret_x = (shown.right if entry.text else field_rect.x + 18) + 4
        pygame.draw.rect(surface, theme.ACCENT, (caret_x, field_rect.y + 12, 4, field_rect.h - 24))
        capital = entry.next_is_capital()
        labels = {"done": t("core.players_key_done", self.lang), "space": t("core.players_key_space", self.lang),
                  "delete": t("core.players_key_delete", self.lang), "cancel": t("core.players_key_cancel", self.lang),
                  "page": t(PAGE_LABELS[(entry.page + 1) % len(PAGES)], self.lang)}
        for i, key in enumerate(entry.keys):
            hi = i == entry.cursor
            pygame.draw.rect(surface, theme.ACCENT if hi else theme.PANEL, key.rect, border_radius=8)
            if key.kind == "letter":
                label = _upper(key.char) if capital else key.char
                color = theme.BG if hi else theme.MUTED if entry.full() else theme.TEXT
                theme.text(surface, label, key.rect.center, theme.LARGE, color, anchor="center")
            else:
                label = labels[key.kind]
                color = theme.BG if hi else (theme.GOOD if key.kind == "done" else theme.TEXT)
                size = theme.fit_text(label, theme.BODY, key.rect.w - 16)
                theme.text(surface, label, key.rect.center, size, color, anchor="center")
        # on a laptop Space types a space (ROLL's key): "Space next row" was not so
        row = [] if keys_named() else [(t("core.btn_roll", self.lang), t("core.players_hint_row", self.lang))]
        hint_bar(surface, [(t("core.btn_next", self.lang), t("core.players_hint_key", self.lang)),
                           (t("core.btn_select", self.lang), t(SELECT_HINTS[entry.keys[entry.cursor].kind], self.lang)),
                           # on an empty name UNDO leaves the keyboard (``_entry_button``): "delete" was not so
                           (t("core.btn_undo", self.lang),
                            t("core.players_hint_delete" if entry.text else "core.players_hint_cancel", self.lang)),
                           *row])

    def _draw_message(self, surface: pygame.Surface) -> None:
        """The problem in words, in place of the title: wrapped rather than cut off, and never over a key."""
        width = theme.DESIGN_SIZE[0] - 2 * LIST_X
        size = theme.BODY
        while True:
            lines = _wrap(self.message, size, width - 32)
            line_h = theme.font(size).get_linesize()
            h = line_h * len(lines) + 12
            if h <= MESSAGE_H or size <= theme.SMALL:
                break  # not below SMALL: a long message may cover the top rows until the next press
            size -= 2
        rect = pygame.Rect(LIST_X, 2, width, h)
        pygame.draw.rect(surface, theme.PANEL, rect, border_radius=10)
        pygame.draw.rect(surface, theme.BAD, rect, width=4, border_radius=10)
        for k, line in enumerate(lines):
            theme.text(surface, line, (rect.x + 16, rect.y + 6 + k * line_h), size, theme.TEXT)


#: what SELECT does on the key highlighted, for the hint bar: "type" on "Done" (where the highlight starts on a
#: rename) told the table SELECT types, and it saved the name and closed the keyboard
SELECT_HINTS = {"letter": "core.players_hint_type", "space": "core.players_hint_type",
                "done": "core.players_hint_done", "delete": "core.players_hint_delete",
                "cancel": "core.players_hint_cancel", "page": "core.players_hint_page"}


def _wrap(s: str, size: int, width: int) -> list[str]:
    f = theme.font(size)
    lines: list[str] = []
    for word in s.split():
        if lines and f.size(lines[-1] + " " + word)[0] <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines or [""]
