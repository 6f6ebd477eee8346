"""Colours, fonts and sizes shared by every screen, chosen to be readable from two metres on a 7" display.

Screens are laid out on a 800x480 design canvas (the Pi touch display); larger windows get the canvas scaled.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable, Sequence

import pygame

DESIGN_SIZE = (800, 480)

BG = (18, 22, 30)
PANEL = (34, 40, 54)
PANEL_HI = (58, 68, 92)
TEXT = (240, 240, 235)
MUTED = (160, 166, 180)
ACCENT = (255, 196, 0)
GOOD = (80, 200, 120)
WARN = (255, 140, 0)
BAD = (235, 70, 70)
#: a red dark enough to stand out by its lightness too (white on it 6.7:1): where red must be told apart by a
#: player who sees no red, or in grey (the trouble strip, Echt Spitze's extra cross on a taken die)
BAD_DARK = (175, 28, 28)
UNKNOWN = (255, 0, 200)  # a die the reader is not sure of: loud on purpose
DIE_BODY = (250, 248, 240)
DIE_PIP = (20, 20, 20)

# Sizes in design pixels. The 7" panel shows 0.19 mm a pixel: BODY's capitals stand about 17 px, 3.3 mm, some 6
# minutes of arc at two metres, the edge of what is read comfortably there (SMALL's 2.5 mm is below it). What the
# far end of the table must read (whose turn, the hourglass, the banners) is LARGE or bigger; BODY and SMALL are
# for who sits at the screen (a club night's tester measured it; the old "6 mm" here was wrong).
SMALL = 22
SMALLEST = 18  # what a line or a name shrinks to at most before it says less (shortened, cut): still read at the screen
BODY = 28
#: the smallest size the far end of the table reads (capitals 20 px, 3.8 mm, at two metres): what every player must
#: read from their seat (whose turn, their score, what the table is asked to do) is drawn at FAR or larger
FAR = 32
LARGE = 40
HUGE = 72


@functools.cache
def font(size: int, bold: bool = False) -> pygame.font.Font:
    """pygame-ce's bundled font (no system font lookup: the Pi kiosk may have none).

    The bundled font is FreeSans Bold already; ``bold`` is accepted for the callers' intent but adds nothing,
    because SDL's synthetic bold on top of it smears German umlaut dots into a bar (Ü looked like Ū).
    """
    if not pygame.font.get_init():
        pygame.font.init()
    return pygame.font.Font(None, int(size * 1.25))  # the bundled font runs small for its nominal size


@functools.lru_cache(maxsize=512)
def _rendered(s: str, size: int, color: tuple, bold: bool) -> tuple[pygame.Surface, int]:
    """A line rendered and its accent lift, kept: a screen drew its 25 to 56 lines anew every frame, the same
    words at the same sizes, a quarter to two fifths of a text-heavy frame. The surface is only ever blitted (by
    ``text``, which hands out its rect alone), so one kept copy serves every frame."""
    f = font(size, bold)
    return f.render(s, True, color), accent_lift(f, s)


def text(surface: pygame.Surface, s: str, pos: tuple[int, int], size: int = BODY, color=TEXT, *,
         bold: bool = False, anchor: str = "topleft") -> pygame.Rect:
    """Draw ``s`` with its ``anchor`` point (a pygame.Rect attribute name) at ``pos``; return the rect drawn."""
    img, lift = _rendered(s, size, color if isinstance(color, tuple) else tuple(color), bold)  # a Color is unhashable
    rect = img.get_rect(**{anchor: pos})
    rect.move_ip(0, -min(lift, max(0, rect.top)))  # not above the top edge: "Özlem" lost its dots
    surface.blit(img, rect)
    return rect


def accent_lift(f: pygame.font.Font, s: str) -> int:
    """How far a line is rendered lower because a glyph rises above the font's ascent ("ZURÜCK", "WÄHLEN"): the
    renderer adds that many rows on top, so without lifting it back such words sit 2-3 pixels below their
    neighbours in a row of hints."""
    tops = [m[3] for m in f.metrics(s) if m]
    return max(0, max(tops, default=0) - f.get_ascent())


@functools.lru_cache(maxsize=2048)
def fit_text(s: str, size: int, max_width: int, bold: bool = False) -> int:
    """The largest font size <= ``size`` at which ``s`` fits ``max_width`` design pixels (kept: every screen asks
    for its lines' sizes every frame, a few hundred of them on a game screen)."""
    while size > 12 and font(size, bold).size(s)[0] > max_width:
        size -= 2
    return size


def _name_parts(name: str) -> tuple[str, list[str], str]:
    """A name's first word, the initials of what follows it, and what stands before each initial: "Großvater
    Jürgen" is ("Großvater", ["J"], " "), the one word "Jean-Luc-Picard" ("Jean", ["L", "P"], "-"), "Li" ("Li", [],
    ""). An initial is a word's first letter or digit ("(Oma" is O, not "(")."""
    words = name.split()
    first = words[0] if words else name
    if len(words) > 1:
        initials = ("".join(c for c in w if c.isalnum())[:1] for w in words[1:])
        return first, [i for i in initials if i], " "
    if "-" in first.strip("-"):
        head, *parts = first.split("-")
        return head, [part[:1] for part in parts if part], "-"
    return first, [], ""


def double_first_name(name: str) -> bool:
    """One word of hyphenated parts ("Anne-Marie", "Jean-Luc-Picard"): ``fit_name`` keeps it whole while it can,
    where a name of several words is shortened before it goes below FAR; a cell or card sized for its short form
    drew it whole, small."""
    return _name_parts(name)[2] == "-"


def short_name(name: str) -> str:
    """A player's name shortened as people shorten it: the first word whole, the rest by initials ("Großvater J.",
    "Maximilian-A.", "Jean-L.-P."); the name itself where there is nothing to shorten."""
    first, initials, sep = _name_parts(name)
    return sep.join([first, *(i + "." for i in initials)]) if sep else name


def first_initials(name: str) -> str:
    """A name of several words with the words before its last by their initials ("G. Helga"): where two players'
    names differ only after the first word's initial ("Großmutter Helga", "Großmutter Hilde"), their ``short_name``
    ("Großmutter H.") is the same, this is not. The name itself where it is one word."""
    words = name.split()
    initials = ["".join(c for c in w if c.isalnum())[:1] for w in words[:-1]]
    return " ".join([*(i + "." for i in initials if i), words[-1]]) if len(words) > 1 else name


def _table_shorts(name: str) -> tuple[str, ...]:
    """A name's short forms at the table, the most of it first (``short_name``, then ``first_initials``)."""
    return tuple(form for form in dict.fromkeys((short_name(name), first_initials(name))) if form != name)


def name_forms(name: str, players: Sequence[str], shorts: Callable[[str], Sequence[str]] = _table_shorts
               ) -> tuple[str, ...]:
    """``name`` and its short forms (``shorts``, by default as people shorten it, ``short_name``, then its first
    words by their initials, ``first_initials``), the most of it first: only forms no other of the table's
    ``players`` (``name`` among them or not) is called or shortened to also. Two grandmothers "Großmutter Helga" and
    "Großmutter Hilde" were both "Großmutter H." in a status line, a reminder, a card: "G. Helga", "G. Hilde"."""
    return _name_forms(name, tuple(players), shorts)


@functools.lru_cache(maxsize=512)
def _name_forms(name: str, players: tuple[str, ...], shorts: Callable[[str], Sequence[str]]) -> tuple[str, ...]:
    """``name_forms``, kept: every screen shortens its players' names every frame."""
    others = list(players)
    if name in others:
        others.remove(name)  # once: a second player of the same name still takes its forms
    taken = {*others, *(form for other in others for form in shorts(other))}
    return (name, *(form for form in shorts(name) if form not in taken))


def table_short_name(name: str, players: Sequence[str]) -> str:
    """``name`` shortened as ``short_name`` shortens it where no other of the table's ``players`` is called or
    shortened so; else by the initials of its first words ("G. Helga") where that is the name's alone; else
    whole (``name_forms``). Where every short form is the name's alone, ``short_name`` itself: "Großvater J."
    beside "Anna" as before; a name ``short_name`` leaves as it is stays so ("Großmutter H.", not "G. H.")."""
    if short_name(name) == name:
        return name
    forms = name_forms(name, players)
    return forms[1] if len(forms) > 1 else name


@functools.lru_cache(maxsize=512)
def fit_name(name: str, size: int, max_width: int, bold: bool = False,
             players: tuple[str, ...] = ()) -> tuple[str, int]:
    """A player's name and its size: as large as fits ``max_width``, not below SMALL; else shortened as people
    shorten names (``short_name``, then the first word and one initial) down to SMALLEST; else the first word cut
    before its initial ("Großm. J."): the initial tells "Großmutter Hilde" from "Großmutter Jutta", which a cut or
    the first word alone did not (two names alike up to their initials stay alike). Six long names in the game's
    top bar were drawn at 12 px beside "Li".

    Asked at FAR or larger (a name the far end of the table reads: whose turn, whose score), a name of several words
    is shortened before it goes below FAR: "Großvater J." at FAR, not "Großvater Johannes" at 26 beside "Mia" at 40.
    A double first name is kept whole while it can ("Eva-Maria" at 30, not "Eva-M.").

    ``players``: the table's names; a short form is then one no other player's is (``table_short_name``: "G. Helga"
    beside "Großmutter Hilde", where both were "Großmutter H.")."""
    at = fit_text(name, size, max_width, bold)
    if at >= (FAR if size >= FAR else SMALL):
        return name, at
    first, initials, sep = _name_parts(name)
    if initials and sep == " " and size >= FAR:  # "Eva-Maria" whole at 30 reads better than "Eva-M." at 32
        short = table_short_name(name, players)
        short_at = fit_text(short, size, max_width, bold)
        if short != name and short_at >= FAR:
            return short, short_at
    if at >= SMALL:
        return name, at
    if not initials:  # one word: whole down to SMALLEST, then cut
        return (name, at) if at >= SMALLEST else (fit_label(name, SMALL, max_width, bold), SMALL)
    tail = f"{sep}{initials[0]}."
    taken = {form for other in players if other != name for form in (other, *_table_shorts(other))}
    for short in dict.fromkeys((table_short_name(name, players), first + tail)):
        if short in taken:
            continue
        at = fit_text(short, size, max_width, bold)
        if at >= SMALLEST:  # "Großvater J." a little smaller is still known across the table; "Großvate…" is not
            return short, at
    f = font(SMALLEST, bold)
    head = first
    while len(head) > 1 and f.size(f"{head}.{tail}")[0] > max_width:
        head = head[:-1]
    return f"{head}.{tail}" if head != first else first + tail, SMALLEST


def fit_label(s: str, size: int, max_width: int, bold: bool = False) -> str:
    """``s`` cut to fit ``max_width`` at ``size``, ending in "…" where it was cut."""
    f = font(size, bold)
    if f.size(s)[0] <= max_width:
        return s
    cut = s
    while len(cut) > 1 and f.size(cut.rstrip(" ,") + "…")[0] > max_width:
        cut = cut[:-1]
    return cut.rstrip(" ,") + "…"


@functools.lru_cache(maxsize=64)
def fit_lines(s: str, size: int, max_width: int, max_lines: int = 2,
              names: tuple[str, ...] = ()) -> tuple[tuple[str, ...], int]:
    """``s`` on as few lines (up to ``max_lines``) as keep it at SMALL or larger (a notice, a note: read across the
    table), as large as fits ``max_width`` and of even lengths, not broken inside one of ``names``; and the size the
    lines are drawn at. Where even ``max_lines`` lines need less than SMALL, the size that fits them, down to 12.
    A file's path wider than a line is broken after its "/"s where that draws the lines larger (the path alone
    drew a whole notice at 12), and any word too wide for a line at 12 is broken too (``wrap_breaking``): it ran
    off the screen or was cut. Where the lines need less than 12 even so, 12 with the last line cut ("…"): never
    wider than ``max_width`` (four long names' reports ran under Echt Spitze's menu and off the screen). Kept: a
    notice is drawn every frame."""
    one = fit_text(s, size, max_width)
    if one >= SMALL:
        return (s,), one
    found: tuple[tuple[str, ...], int] | None = None
    if " " not in s and max_lines < 2 and font(one).size(s)[0] > max_width:
        return (fit_label(s, 12, max_width),), 12  # one word too wide even at 12, on one line: cut, not wider
    if " " not in s and (font(one).size(s)[0] <= max_width or max_lines < 2):
        found = ((s,), one)
    elif _fits(s, font(12), max_width, max_lines, names):
        found = _even_fit(s, size, max_width, max_lines, names, one)
    if found is None or any("/" in w and font(SMALL).size(w)[0] > max_width for w in s.split()):
        least = found[1] + 2 if found is not None else 12
        for at in range(size, least - 1, -2):
            broken = wrap_breaking(s, font(at), max_width, names, letters=found is None)
            if len(broken) <= max_lines and all(font(at).size(line)[0] <= max_width for line in broken):
                return tuple(broken), at
    if found is not None:
        return found
    wrapped = wrap(s, font(12), max_width, names)
    kept = [*wrapped[:max_lines - 1], " ".join(wrapped[max_lines - 1:])]
    return tuple(fit_label(line, 12, max_width) for line in kept), 12


def _even_fit(s: str, size: int, max_width: int, max_lines: int, names: tuple[str, ...],
              one: int) -> tuple[tuple[str, ...], int]:
    """``fit_lines`` where ``s`` fits ``max_lines`` lines at 12 with its words whole: the largest even lines."""
    fits_one = font(one).size(s)[0] <= max_width
    best: tuple[tuple[str, ...], int] = ((s,), one if fits_one else 0)  # one line too wide even at 12: no choice
    for n in range(2, max_lines + 1):
        fitted = next(((lines, at) for at in range(size, 11, -2)
                       if (lines := even_lines(s, font(at), max_width, n, names)) is not None), None)
        if fitted is None:
            continue
        if fitted[1] > best[1]:
            best = fitted
        if fitted[1] >= SMALL:
            break
    return best


def _fits(s: str, f: pygame.font.Font, width: int, n: int, names: Sequence[str] = ()) -> bool:
    lines = wrap(s, f, width, names)
    return len(lines) <= n and all(f.size(line)[0] <= width for line in lines)


def far_lines(s: str, size: int, max_width: int, *, short: str | None = None, names: Sequence[str] = (),
              max_lines: int = 2, max_height: int | None = None) -> tuple[tuple[str, ...], int]:
    """A line every player must read from their seat, as its lines and the size they are drawn at: on as few lines
    as keep it at FAR or larger, and on those as large as ``size`` allows. In order: ``s`` on one line at ``size``
    down to FAR; else ``short`` (the same line with the players' names shortened, ``short_name``) so; else ``s``
    then ``short`` on two even lines so, and so on up to ``max_lines``, never broken inside one of the players'
    ``names`` (nor their short names: "Großvater / J." read as two people). Only where none of these fits,
    smaller (``fit_lines``), ``s`` or ``short``, whichever that draws larger (``s`` where alike).

    The four game screens each had their own way of this, and a long name shrank a line in one where another
    shortened it. Asked below FAR (a menu's BODY; a reminder made smaller to leave room), the same at ``size``
    only. ``max_height``: the lines, a font's height and a pixel apart, stand no taller (the room above a menu)."""
    return _far_lines(s, size, max_width, short or s, tuple(names), max_lines, max_height)


@functools.lru_cache(maxsize=128)
def _far_lines(s: str, size: int, max_width: int, short: str, names: tuple[str, ...], max_lines: int,
               max_height: int | None) -> tuple[tuple[str, ...], int]:
    """``far_lines``, kept: a screen asks it every frame, and the even lines are a search."""
    least = min(size, FAR)
    whole = kept_whole(names)
    texts = tuple(dict.fromkeys((s, short)))
    for n in range(1, max_lines + 1):
        for line in texts:
            for at in range(size, least - 1, -2):
                f = font(at)
                if max_height is not None and n * (f.get_height() + 1) > max_height:
                    continue
                if n == 1 and f.size(line)[0] <= max_width:
                    return (line,), at
                if n > 1 and (lines := even_lines(line, f, max_width, n, whole)) is not None:
                    return lines, at
    found = [fit_lines(line, least, max_width, max_lines, whole) for line in texts]
    return max(found, key=lambda lines_at: lines_at[1])


def kept_whole(names: Sequence[str]) -> tuple[str, ...]:
    """The players' ``names`` and the short forms a line may name them by ("Großvater J.", "G. Jürgen"): what a
    line is never broken inside ("Großvater / Jürgen" read as two people). ``far_lines`` keeps these whole; a caller
    fitting lines another way (``fit_lines``, ``even_lines``) passes them as its ``names``."""
    return (*names, *(form for name in names for form in (short_name(name), *name_forms(name, names)[1:])))


def wrap(s: str, f: pygame.font.Font, max_width: int, names: Sequence[str] = ()) -> list[str]:
    """``s``'s words in lines no wider than ``max_width`` where a word allows (a longer word has a line of its own);
    each of ``names`` in ``s`` is kept whole as if it were one word."""
    return _lines(([word] for word in _words(s, names)), f, max_width)


def _lines(words: Iterable[list[str]], f: pygame.font.Font, max_width: int) -> list[str]:
    """Words, each given as its parts (one part: a whole word), set in lines no wider than ``max_width`` where they
    allow: a word's later parts follow without a space, and a line breaks before any part."""
    lines: list[str] = []
    line = ""
    for parts in words:
        for k, part in enumerate(parts):
            trial = f"{line}{part}" if k else f"{line} {part}".strip()
            if line and f.size(trial)[0] > max_width:
                lines.append(line)
                line = part
            else:
                line = trial
    return [*lines, line] if line else lines


def wrap_breaking(s: str, f: pygame.font.Font, max_width: int, names: Sequence[str] = (), *,
                  letters: bool = True) -> list[str]:
    """``wrap``, but a word wider than ``max_width`` is broken over lines: after a "/" where it has them (a file's
    path reads on, folder by folder), by letters where a part is wider still (``letters``; else it stays whole,
    and its line too wide). Only words that fit no line are broken: every other word stays whole."""
    return _lines(([word] if f.size(word)[0] <= max_width else _word_parts(word, f, max_width, letters)
                   for word in _words(s, names)), f, max_width)


def _word_parts(word: str, f: pygame.font.Font, max_width: int, letters: bool) -> list[str]:
    """``word`` cut after each "/", and a part still wider than ``max_width`` into its letters (``letters``)."""
    parts = re.findall(r"/?[^/]*/|[^/]+", word)  # "/tmp/" is one part: "In /" ended a line
    return [p for part in parts for p in (list(part) if letters and f.size(part)[0] > max_width else [part])]


def _words(s: str, names: Sequence[str]) -> list[str]:
    """``s`` split at its spaces, but not at one inside one of ``names`` nor at a no-break space (a catalog's "bis zu"
    with one: ``str.split`` broke it, "Anne-Marie: bis / zu +2 Extrakreuze")."""
    inside = [(m.start(), m.end()) for name in names if " " in name for m in re.finditer(re.escape(name), s)]
    if not inside:
        return [w for w in re.split(r"[^\S\u00a0\u202f]+", s) if w]
    cuts = [i for i, c in enumerate(s) if c == " " and not any(a < i < b for a, b in inside)]
    return [w for a, b in zip([-1, *cuts], [*cuts, len(s)], strict=True) if (w := s[a + 1:b].strip())]


def even_lines(s: str, f: pygame.font.Font, max_width: int, max_lines: int,
               names: Sequence[str] = ()) -> tuple[str, ...] | None:
    """``s`` on up to ``max_lines`` lines of ``f`` no wider than ``max_width``, as even as they go (not one full line
    and a word on the next), none broken inside one of ``names``; None where it needs more lines."""
    return _even_lines(s, f, max_width, max_lines, tuple(names))


@functools.lru_cache(maxsize=1024)
def _even_lines(s: str, f: pygame.font.Font, max_width: int, max_lines: int,
                names: tuple[str, ...]) -> tuple[str, ...] | None:
    """``even_lines``, kept: its search wraps the line a dozen times, and screens ask for it every frame (Echt
    Spitze's reports took 8 ms a frame with four long names)."""
    if not _fits(s, f, max_width, max_lines, names):
        return None
    narrow, wide = 1, max_width  # the narrowest width that still takes the lines
    while narrow < wide:
        mid = (narrow + wide) // 2
        narrow, wide = (narrow, mid) if _fits(s, f, mid, max_lines, names) else (mid + 1, wide)
    return tuple(wrap(s, f, wide, names))
