"""Colours, fonts and sizes shared by every screen, chosen to be readable from two metres on a 7" display.

Screens are laid out on a 800x480 design canvas (the Pi touch display); larger windows get the canvas scaled.
"""

from __future__ import annotations

import functools
import os
import re
import shutil
import subprocess
import unicodedata
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
    """pygame-ce's bundled font (no system font lookup: the Pi kiosk may have none), handing a line with a letter it
    lacks to DejaVu Sans Bold where that is installed (``GlyphFallbackFont``).

    The bundled font is FreeSans Bold already; ``bold`` is accepted for the callers' intent but adds nothing,
    because SDL's synthetic bold on top of it smears German umlaut dots into a bar (Ü looked like Ū).
    """
    if not pygame.font.get_init():
        pygame.font.init()
    return GlyphFallbackFont(int(size * 1.25))  # the bundled font runs small for its nominal size


#: where the fallback font is looked for, the first found is taken (Debian's fonts-dejavu-core first: scripts/setup.sh
#: installs it). None found: every line is drawn in the bundled font alone, its missing letters as boxes.
FALLBACK_FONTS = (
    "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
    "/usr/share/fonts/TTF/DejaVuSans-Bold.ttf",
    "/usr/share/fonts/dejavu-sans-fonts/DejaVuSans-Bold.ttf",
    "/usr/share/fonts/dejavu/DejaVuSans-Bold.ttf",
)


@functools.cache
def fallback_path() -> str | None:
    """The fallback font's file: from ``FALLBACK_FONTS``, else where fontconfig has DejaVu Sans Bold (only that:
    ``fc-match`` names some font for any question), else None."""
    for path in FALLBACK_FONTS:
        if os.path.isfile(path):
            return path
    fc_match = shutil.which("fc-match")
    if fc_match is None:
        return None
    try:
        found = subprocess.run([fc_match, "-f", "%{file}", "DejaVu Sans:bold"], capture_output=True, text=True,
                               timeout=3, check=False).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None
    return found if os.path.basename(found) == "DejaVuSans-Bold.ttf" and os.path.isfile(found) else None


@functools.cache
def _glyph_faces() -> tuple[pygame.freetype.Font, pygame.freetype.Font | None]:
    """The bundled font and the fallback (None: none installed) as pygame.freetype reads them: its metrics are None
    for a character a font has no glyph for, where pygame.font's give the box drawn in its place."""
    import pygame.freetype

    if not pygame.freetype.get_init():
        pygame.freetype.init()
    path = fallback_path()
    return pygame.freetype.Font(None, 24), pygame.freetype.Font(path, 24) if path else None


@functools.cache
def _has_glyph(ch: str, fallback: bool = False) -> bool:
    """Whether the bundled font (the fallback, ``fallback``) draws ``ch``, kept per character."""
    face = _glyph_faces()[1 if fallback else 0]
    return face is not None and face.get_metrics(ch)[0] is not None


def _right_to_left(ch: str) -> bool:
    """A Hebrew or Arabic letter: pygame-ce 2.5.8 draws a line of them left to right, the name backwards."""
    return unicodedata.bidirectional(ch) in ("R", "AL")


@functools.lru_cache(maxsize=4096)
def falls_back(s: str) -> bool:
    """Whether ``s`` is drawn in the fallback font: the bundled font lacks one of its letters ("Nguyễn": ễ, "Ngọc",
    "Đức"'s ứ, were boxes on every screen), and the fallback has them all. Never a right-to-left line (drawn
    backwards); a space the bundled font lacks (a no-break space in a catalog's line) leaves the line as it was."""
    if s.isascii():
        return False
    letters = [ch for ch in s if not ch.isspace()]
    return (any(not _has_glyph(ch) for ch in letters)
            and all(_has_glyph(ch, True) and not _right_to_left(ch) for ch in letters))


def undrawn(s: str) -> int | None:
    """The index of the first character of ``s`` drawn as a box, or None: where the bundled font lacks some, the
    first the fallback cannot take either (or right to left), so that mending it makes the line drawable."""
    if falls_back(s):
        return None
    lacking = [k for k, ch in enumerate(s) if not ch.isspace() and not _has_glyph(ch)]
    return next((k for k in lacking if not _has_glyph(s[k], True) or _right_to_left(s[k])), lacking[0] if lacking
                else None)


def _cap_height(f: pygame.font.Font) -> int:
    """How tall a font's capitals stand, in pixels."""
    return f.metrics("H")[0][3]


@functools.cache
def _fallback_at(q: int) -> pygame.font.Font:
    """The fallback font at pygame size ``q``, kept."""
    return pygame.font.Font(fallback_path(), q)


@functools.cache
def _fallback_size(px: int) -> int:
    """The fallback font's size whose capitals stand as tall as the bundled font's at ``px``: at the same size
    DejaVu Sans Bold stood 47 px against 28 and ran 1.6 times as wide."""
    cap = _cap_height(pygame.font.Font(None, px))
    guess = max(1, round(100 * cap / _cap_height(_fallback_at(100))))
    sizes = range(max(1, guess - 2), guess + 3)
    return min(sizes, key=lambda q: (abs(_cap_height(_fallback_at(q)) - cap), q))


def _fallback_font(px: int) -> pygame.font.Font:
    """The fallback font at the size whose capitals stand as tall as the bundled font's at ``px``."""
    return _fallback_at(_fallback_size(px))


def _top(f: pygame.font.Font, s: str) -> int:
    """How high above the baseline the tallest glyph of ``s`` stands in ``f`` (0: none above it): the one measure of
    a line's marks that ``accent_lift``, ``_fallback_for`` and a fallback line's rows share."""
    return max((m[3] for m in f.metrics(s) if m), default=0)


@functools.lru_cache(maxsize=1024)
def _fallback_for(px: int, s: str) -> pygame.font.Font:
    """The fallback font for the line ``s`` at ``px``: capitals as tall as the bundled font's, unless a capital's
    stacked marks ("Ẫ", "Ả") would then rise above the bundled font's "Ü": then as much smaller as keeps them no
    higher. At FAR "Ảnh"'s hook stood 6 rows over the ascent against Ü's 4 (Ẫ 8): over a name cell's top, the
    active player's dark ink on the dark screen, "Ảnh" read "Ánh" (another name). Lines whose marks rise no higher
    than Ü's ("Nguyễn", "Trần Đức") keep the capitals' height. The size is searched near the tops' ratio, not
    taken from it: hinting rounds each size's tops, and the ratio alone came a size or two smaller than needed for
    half the lines with such marks at sizes 12 to 80 ("Đồng Ẫ" at px 98: 57 where 58 keeps under Ü)."""
    q = _fallback_size(px)
    limit = _top(pygame.font.Font(None, px), "Ü")
    top = _top(_fallback_at(q), s)
    if top <= limit:
        return _fallback_at(q)
    for smaller in range(max(1, q * limit // top + 2), max(0, q * limit // top - 3), -1):  # tops scale with size
        if _top(_fallback_at(smaller), s) <= limit:
            return _fallback_at(smaller)
    return _fallback_at(max(1, q * limit // top - 3))


class GlyphFallbackFont(pygame.font.Font):
    """The bundled font at ``px``, which measures (``size``), draws (``render``) and reads the glyphs' extents of
    (``metrics``, ``accent_lift``) a line with a letter it lacks in the fallback font, capitals as tall, the line
    cut to the bundled font's ascent and descent (as far as no glyph stands beyond them): every screen's fitting
    measures with the font that draws, and a line in the fallback stands where the bundled one would. Every other
    line, and every other question (heights, ascent), is the bundled font's as before."""

    def __init__(self, px: int) -> None:
        super().__init__(None, px)
        self.px = px

    def _other(self, s: object) -> pygame.font.Font | None:
        """The fallback font where it draws ``s``, else None."""
        return _fallback_for(self.px, s) if isinstance(s, str) and not s.isascii() and falls_back(s) else None

    def _rows(self, other: pygame.font.Font, s: str) -> tuple[int, int, int, int]:
        """``other``'s line's width, its baseline's row in ``other``'s rendering, and the rows kept above and below
        the baseline: the bundled font's ascent and descent, or as far as a glyph stands beyond them."""
        above = max(self.get_ascent(), _top(other, s))
        below = max(-self.get_descent(), -min((m[2] for m in other.metrics(s) if m), default=0))
        return other.size(s)[0], other.get_ascent() + accent_lift(other, s), above, below

    @functools.cached_property
    def _plain_below(self) -> int:
        """The rows the bundled font's rendering of a plain line has below its baseline (SDL_ttf leaves room for an
        underline there, beyond the descent): a fallback line's image as tall, so it centres alike."""
        return super().render("x", True, (0, 0, 0)).get_height() - self.get_ascent()

    def size(self, text: str | bytes) -> tuple[int, int]:  # type: ignore[override]
        """The line's size as the bundled font gives it: its width, and its height without the underline's room."""
        other = self._other(text)
        if other is None:
            return super().size(text)
        width, _, above, below = self._rows(other, text)
        return width, above + below

    def render(self, text: str | bytes | None, antialias: bool, color, bgcolor=None,  # type: ignore[override]
               wraplength: int = 0) -> pygame.Surface:
        """The line drawn, in the fallback font where the bundled one lacks a letter of it, its baseline as far
        from the image's top as the bundled font's would be."""
        other = self._other(text) if not wraplength else None
        if other is None:
            return super().render(text, antialias, color, bgcolor, wraplength)
        img = other.render(text, antialias, color, bgcolor)
        width, baseline, above, below = self._rows(other, text)
        if bgcolor is None:
            out = pygame.Surface((width, above + max(below, self._plain_below)), pygame.SRCALPHA, 32)
            out.fill((0, 0, 0, 0))
            out.blit(img, (0, above - baseline), special_flags=pygame.BLEND_RGBA_ADD)  # added to nothing: a copy
        else:
            out = pygame.Surface((width, above + max(below, self._plain_below)))
            out.fill(bgcolor)
            out.blit(img, (0, above - baseline))
        return out

    def metrics(self, text: str | bytes) -> list:  # type: ignore[override]
        """The glyphs' extents in the font that draws the line (``accent_lift`` lifts a fallback line by them)."""
        other = self._other(text)
        return super().metrics(text) if other is None else other.metrics(text)


@functools.lru_cache(maxsize=512)
def _rendered(s: str, size: int, color: tuple, bold: bool) -> tuple[pygame.Surface, int]:
    """A line rendered and its accent lift, kept: a screen drew its 25 to 56 lines anew every frame, the same
    words at the same sizes, a quarter to two fifths of a text-heavy frame. The surface is only ever blitted (by
    ``text``, which hands out its rect alone), so one kept copy serves every frame."""
    f = font(size, bold)
    return f.render(s, True, color), accent_lift(f, s)


def _placed(s: str, pos: tuple[int, int], size: int, color, bold: bool, anchor: str
            ) -> tuple[pygame.Surface, pygame.Rect, int]:
    """``s``'s kept rendering, its rect with the ``anchor`` point at ``pos``, and its accent lift."""
    img, lift = _rendered(s, size, color if isinstance(color, tuple) else tuple(color), bold)  # a Color is unhashable
    return img, img.get_rect(**{anchor: pos}), lift


def placed(s: str, pos: tuple[int, int], size: int = BODY, color=TEXT, *, bold: bool = False,
           anchor: str = "topleft") -> tuple[pygame.Rect, int]:
    """Where ``text`` puts ``s`` before it lifts it, and how far it lifts it (``accent_lift``): what a row of names
    needs to keep the marks over its capitals inside their cells (``widgets.row_drop``), asked of the rendering
    ``text`` draws (kept: no extra render), not measured again another way."""
    _, rect, lift = _placed(s, pos, size, color, bold, anchor)
    return rect, lift


def text(surface: pygame.Surface, s: str, pos: tuple[int, int], size: int = BODY, color=TEXT, *,
         bold: bool = False, anchor: str = "topleft") -> pygame.Rect:
    """Draw ``s`` with its ``anchor`` point (a pygame.Rect attribute name) at ``pos``; return the rect drawn."""
    img, rect, lift = _placed(s, pos, size, color, bold, anchor)
    rect.move_ip(0, -min(lift, max(0, rect.top)))  # not above the top edge: "Özlem" lost its dots
    surface.blit(img, rect)
    return rect


def accent_lift(f: pygame.font.Font, s: str) -> int:
    """How far a line is rendered lower because a glyph rises above the font's ascent ("ZURÜCK", "WÄHLEN"): the
    renderer adds that many rows on top, so without lifting it back such words sit 2-3 pixels below their
    neighbours in a row of hints."""
    return max(0, _top(f, s) - f.get_ascent())


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
    table), as large as fits ``max_width`` and of even lengths, not broken inside one of ``names`` (the players'; their
    short forms too, ``kept_whole``); and the size the
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
    line is never broken inside ("Großvater / Jürgen" read as two people). Every line-fitting helper (``far_lines``,
    ``fit_lines``, ``even_lines``, ``wrap``, ``wrap_breaking``) expands its ``names`` so: callers pass the players'
    names alone (one that passed them alone where another passed them expanded lost the short forms). Expanding
    an expanded list keeps the same words (a short form is not shortened again: "G. J."), so a helper asking
    another passes on what it has."""
    return _kept_whole(tuple(names))


@functools.lru_cache(maxsize=256)
def _kept_whole(names: tuple[str, ...]) -> tuple[str, ...]:
    """``kept_whole``, kept: the helpers expand their names on every call, and screens fit lines every frame."""
    if not names:
        return names
    forms = {name: (short_name(name), *_table_shorts(name)) for name in names}
    plain = tuple(name for name in names if not any(other != name and name in forms[other] for other in names))
    return tuple(dict.fromkeys((*names, *(form for name in plain
                                          for form in (short_name(name), *name_forms(name, plain)[1:])))))


def wrap(s: str, f: pygame.font.Font, max_width: int, names: Sequence[str] = ()) -> list[str]:
    """``s``'s words in lines no wider than ``max_width`` where a word allows (a longer word has a line of its own);
    each of ``names`` in ``s`` (the players' names and their short forms, ``kept_whole``) is kept whole as if it
    were one word."""
    return _lines(([word] for word in _words(s, kept_whole(names))), f, max_width)


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
                   for word in _words(s, kept_whole(names))), f, max_width)


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
    and a word on the next), none broken inside one of ``names`` (nor their short forms, ``kept_whole``); None
    where it needs more lines."""
    return _even_lines(s, f, max_width, max_lines, kept_whole(names))


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
