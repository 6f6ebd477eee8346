"""Widgets every game screen shares: the dice row, the player bar, and a menu for buttons and touch.

All of them draw in design pixels (800x480) and take taps in the same coordinates; the app scales.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np
import pygame

from companion.i18n import t
from companion.views import theme
from hardware.events import Button, ButtonEvent, Press

# Pip positions on a unit square, the standard layouts.
PIP_LAYOUT: dict[int, list[tuple[float, float]]] = {
    1: [(0.5, 0.5)],
    2: [(0.27, 0.27), (0.73, 0.73)],
    3: [(0.27, 0.27), (0.5, 0.5), (0.73, 0.73)],
    4: [(0.27, 0.27), (0.73, 0.27), (0.27, 0.73), (0.73, 0.73)],
    5: [(0.27, 0.27), (0.73, 0.27), (0.5, 0.5), (0.27, 0.73), (0.73, 0.73)],
    6: [(0.27, 0.25), (0.73, 0.25), (0.27, 0.5), (0.73, 0.5), (0.27, 0.75), (0.73, 0.75)],
}


def draw_die(surface: pygame.Surface, rect: pygame.Rect, face: Any, *, selected: bool = False,
             dimmed: bool = False, label: Callable[[Any], str] | None = None) -> None:
    """One die: pips for 1-6, the face's label for taught faces, a loud '?' when the reader was not sure."""
    body = theme.DIE_BODY if not dimmed else (120, 120, 115)
    radius = max(4, rect.w // 7)
    if face is None:
        pygame.draw.rect(surface, theme.UNKNOWN, rect, border_radius=radius)
        theme.text(surface, "?", rect.center, theme.fit_text("?", theme.HUGE, rect.w), theme.TEXT, bold=True,
                   anchor="center")
    elif isinstance(face, int) and face in PIP_LAYOUT:
        pygame.draw.rect(surface, body, rect, border_radius=radius)
        r = max(2, rect.w // 11)
        for fx, fy in PIP_LAYOUT[face]:
            pygame.draw.circle(surface, theme.DIE_PIP, (rect.x + fx * rect.w, rect.y + fy * rect.h), r)
    else:
        pygame.draw.rect(surface, body, rect, border_radius=radius)
        s = label(face) if label else str(face)
        draw_label(surface, rect.inflate(-8, -8), s, theme.LARGE, theme.DIE_PIP, hyphenate=True)
    if selected:
        selection_ring(surface, rect)


def draw_label(surface: pygame.Surface, rect: pygame.Rect, text: str, size: int, colour: tuple[int, int, int], *,
               hyphenate: bool = False) -> None:
    """Bold text centred in ``rect``, on the one or two lines ``die_label_lines`` chooses: a die's face, a button's
    words."""
    lines, at = die_label_lines(text, rect.w, rect.h, size, hyphenate=hyphenate)
    step = theme.font(at, True).get_linesize()
    for k, line in enumerate(lines):
        theme.text(surface, line, (rect.centerx, rect.centery + round((k - (len(lines) - 1) / 2) * step)), at,
                   colour, bold=True, anchor="center")


def die_label_lines(s: str, width: int, height: int, size: int = theme.LARGE, *,
                    hyphenate: bool = True) -> tuple[list[str], int]:
    """A label in bold on one line, or on two where it then stands clearly larger: words apart (a Noch X-Mal!
    joker's "Farbjoker (X)"), a long word hyphenated ("Spielzeug" was 22 px on a die beside "Tiere" at 40; never
    a name: ``hyphenate=False``). Of equally large splits one after a comma or colon ("No: take it out, / roll
    again" read better than the more even "No: take it / out, roll again") where its lines are still alike in
    length, else the more even one."""
    lines, at = _label_lines(s, width, height, size, hyphenate)
    return list(lines), at


@functools.lru_cache(maxsize=256)
def _label_lines(s: str, width: int, height: int, size: int, hyphenate: bool) -> tuple[tuple[str, ...], int]:
    """``die_label_lines``, kept: every die and button label is laid out again every frame."""
    one = theme.fit_text(s, size, width, bold=True)
    words = s.split()
    if one >= size:
        return (s,), one
    if len(words) > 1:
        splits = [[" ".join(words[:k]), " ".join(words[k:])] for k in range(1, len(words))]
    else:
        splits = [[s[:k] + "-", s[k:]] for k in _word_breaks(s)] if hyphenate else []
    best: tuple[tuple[str, ...], int] = ((s,), one)
    best_mark = False
    for lines in splits:
        if lines[0].count("(") > lines[0].count(")") or lines[1][0] in "&+":
            continue  # "? (freie" over "Zahl)": a bracket stays whole; "& veg" no line begins with a sign
        two = min(theme.fit_text(line, size, width, bold=True) for line in lines)
        while two > 12 and 2 * theme.font(two, True).get_linesize() > height:
            two -= 2
        # a break where the sentence pauses, unless it leaves a word or two alone ("Oceans, / rivers and lakes")
        mark = lines[0][-1] in ",;:" and min(map(len, lines)) >= 0.55 * max(map(len, lines))
        even = abs(len(lines[0]) - len(lines[1])) < abs(len(best[0][0]) - len(best[0][-1]))
        if two > best[1] or two == best[1] and len(best[0]) == 2 and (mark, even) > (best_mark, False):
            best, best_mark = (tuple(lines), two), mark
    if len(words) == 1 and best[1] < one * 6 // 5 + 2:  # a word broken for a step or two: one line reads better
        return (s,), one  # ("Ge-/richte" at 28 for "Gerichte" at 26)
    return best


_VOWELS = set("aeiouäöüyAEIOUÄÖÜY")
_UNITS = ("sch", "ch", "ck", "ph", "th")  # consonants a break never parts


def _word_breaks(word: str) -> list[int]:
    """Where a long single word may be hyphenated, as German words are (and English ones mostly): in a run of
    consonants between vowels before its last one, "Spiel-zeug", "Lebens-mittel", but before a consonant with r or
    l, "Coun-tries", and before st or sp after another consonant, "Haupt-städte"; never inside ch, ck, ph, th or sch;
    two letters at least either side."""
    if len(word) < 8 or not word.isalpha():
        return []
    units: list[tuple[int, str]] = []  # (start, letters)
    k = 0
    while k < len(word):
        unit = next((u for u in _UNITS if word[k:k + len(u)].lower() == u), word[k])
        if len(unit) == 1 and word[k:k + 2].lower() in ("st", "sp") and k and word[k - 1] not in _VOWELS:
            unit = word[k:k + 2]
        units.append((k, unit))
        k += len(unit)
    breaks = []
    run: list[tuple[int, str]] = []
    seen_vowel = False
    for start, unit in units:
        if unit[0] in _VOWELS:
            if run and seen_vowel:
                last = run[-1]
                if len(run) >= 2 and last[1].lower() in "rl" and run[-2][1].lower() in "bcdfgkpt":
                    last = run[-2]
                breaks.append(last[0])
            run, seen_vowel = [], True
        else:
            run.append((start, unit))
    return [b for b in breaks if 2 <= b <= len(word) - 2]


def outlined_cross(surface: pygame.Surface, rect: pygame.Rect, ink: tuple[int, int, int], width: int,
                   ) -> None:
    """A cross corner to corner of ``rect`` in ``ink`` with a white edge: told apart by its lightness on any colour
    or grey, not by its hue (a red cross vanished on a red swatch, and on a taken die's grey)."""
    for colour, w in ((theme.TEXT, width + 4), (ink, width)):
        pygame.draw.line(surface, colour, rect.topleft, rect.bottomright, w)
        pygame.draw.line(surface, colour, rect.topright, rect.bottomleft, w)


def marks_drop(cell: pygame.Rect, s: str, pos: tuple[int, int], size: int, color: tuple[int, int, int], *,
               bold: bool = False, anchor: str = "topleft", margin: int = 1) -> int:
    """How far below ``pos`` a name drawn there by ``theme.text`` goes so that the marks over its capitals (Ö's dots,
    Ả's hook and tilde) stand inside ``cell``, ``margin`` rows under its top: ``theme.text`` lifts a line by what
    its marks rise, and in a cell at the screen's top they stood over the cell, the active player's dark ink on the
    dark screen: "Özlem Ö." read "Ozlem O.", "Ảnh" read "Ánh" (another name). 0 where they stand inside. A row of
    names takes the largest of their drops (``row_drop``), so that they share a baseline."""
    rect, lift = theme.placed(s, pos, size, color, bold=bold, anchor=anchor)
    if not lift:
        return 0  # nothing over the capitals: the line's ink starts under its top
    return max(0, cell.top + margin + lift - rect.top)


@dataclass(frozen=True)
class NameAt:
    """A name as a row of cells draws it with ``theme.text``: its cell, where (``pos``, ``anchor``), how large, in
    which ink and weight. The one description ``row_drop`` measures and the view draws from (``NameAt.draw``), so
    the two cannot come apart."""

    cell: pygame.Rect
    name: str
    pos: tuple[int, int]
    size: int
    ink: tuple[int, int, int]
    bold: bool = False
    anchor: str = "topleft"

    def draw(self, surface: pygame.Surface, drop: int = 0) -> pygame.Rect:
        """The name drawn ``drop`` rows below its place (the row's ``row_drop``)."""
        return theme.text(surface, self.name, (self.pos[0], self.pos[1] + drop), self.size, self.ink, bold=self.bold,
                          anchor=self.anchor)


def row_drop(names: Iterable[NameAt], most: int | None = None) -> int:
    """How far a row's names all go below their places so that the marks over every one's capitals stay in its
    cell (``marks_drop``), alike for all (they share a baseline), at most ``most`` rows (a cell's room under its
    lines; none below 0): 0 for a row without a name."""
    drop = max((marks_drop(n.cell, n.name, n.pos, n.size, n.ink, bold=n.bold, anchor=n.anchor) for n in names),
               default=0)
    return max(0, drop if most is None else min(drop, most))


def selection_ring(surface: pygame.Surface, rect: pygame.Rect) -> None:
    """The highlight round a die: a ring standing off it by a dark gap (touching it, it read as the die's own edge
    from afar)."""
    pygame.draw.rect(surface, theme.ACCENT, rect.inflate(20, 20), width=7, border_radius=max(4, rect.w // 7) + 8)


def bgr_surface(pixels: np.ndarray, size: tuple[int, int]) -> pygame.Surface:
    """A camera's BGR picture scaled to ``size`` (design pixels), as pygame draws it."""
    shrink = size[0] < pixels.shape[1]
    scaled = cv2.resize(pixels, size, interpolation=cv2.INTER_AREA if shrink else cv2.INTER_LINEAR)
    rgb = cv2.cvtColor(scaled, cv2.COLOR_BGR2RGB) if scaled.ndim == 3 else cv2.cvtColor(scaled, cv2.COLOR_GRAY2RGB)
    return pygame.image.frombuffer(np.ascontiguousarray(rgb).tobytes(), size, "RGB")


def draw_die_picture(surface: pygame.Surface, picture: Any, place: pygame.Rect) -> pygame.Rect:
    """A ``DiePicture`` fitted into ``place`` (centred), the die framed in it; returns where it was drawn."""
    h, w = picture.pixels.shape[:2]
    k = min(place.w / w, place.h / h)
    drawn = pygame.Rect(0, 0, max(1, int(w * k)), max(1, int(h * k)))
    drawn.center = place.center
    surface.blit(bgr_surface(picture.pixels, drawn.size), drawn)
    x0, y0, x1, y1 = picture.box
    die = pygame.Rect(drawn.x + int(x0 * k), drawn.y + int(y0 * k), int((x1 - x0) * k), int((y1 - y0) * k))
    pygame.draw.rect(surface, theme.ACCENT, die.inflate(6, 6), width=3, border_radius=4)
    return drawn


def spanning(rects: Sequence[pygame.Rect]) -> list[pygame.Rect]:
    """One rect round ``rects`` (none for none): what a view's ``in_view`` hands a banner to stand clear of."""
    return [rects[0].unionall(list(rects[1:]))] if rects else []


def first_choice(options: Sequence[Any], guess: Any) -> int:
    """Where a question about an unsure die puts its highlight: on the reader's guess (``GameSession.guess``)
    where it is one of the answers, so a die showing it takes one press; else on the first answer."""
    return options.index(guess) if guess is not None and guess in options else 0


def moved(index: int | None, step: int, n: int) -> int:
    """A highlight at ``index`` of ``n`` items moved by ``step`` (``Button.step``), round the ends; from no item
    (None), NEXT goes to the first and PREV to the last."""
    return (index + step) % n if index is not None else (0 if step > 0 else n - 1)


@dataclass
class DiceRow:
    """The dice as read, in a row (up to ``max_rows`` where more rows draw them larger: free play's 22 dice were
    21 px in one row, unreadable from two metres and a 4 mm target for a finger). Tapping a die (or NEXT/SELECT in
    correction mode) lets a player fix it.

    ``faces`` may hold None (unknown): those are drawn magenta with a '?' so nobody mistakes them for a read die.
    ``extra`` labels a slot after the dice that is not a die (free play's "+" for a die the reader missed): drawn as
    an outline, laid out and hit (index ``len(faces)``) as one more die.
    """

    rect: pygame.Rect
    faces: list[Any] = field(default_factory=list)
    selected: int | None = None
    dimmed: set[int] = field(default_factory=set)
    label: Callable[[Any], str] | None = None
    max_size: int = 110
    max_rows: int = 1
    extra: str | None = None

    def die_rects(self) -> list[pygame.Rect]:
        n = len(self.faces) + (self.extra is not None)
        if n == 0:
            return []
        gap = row_gap = 14  # room for a highlighted die's ring (10 px out) that touches no neighbour

        def size_in(rows: int) -> int:
            across = -(-n // rows)
            return min(self.max_size, (self.rect.h - row_gap * (rows - 1)) // rows,
                       (self.rect.w - gap * (across - 1)) // across)

        rows = max(range(1, self.max_rows + 1), key=lambda r: (size_in(r), -r))  # fewer rows where as large
        size, across = size_in(rows), -(-n // rows)
        y0 = self.rect.centery - (rows * size + (rows - 1) * row_gap) // 2
        out = []
        for row in range(rows):
            count = min(across, n - row * across)  # the last row may be shorter: centred as the others
            x0 = self.rect.centerx - (count * size + (count - 1) * gap) // 2
            out += [pygame.Rect(x0 + i * (size + gap), y0 + row * (size + row_gap), size, size) for i in range(count)]
        return out

    def hit(self, pos: tuple[int, int]) -> int | None:
        for i, r in enumerate(self.die_rects()):
            if r.inflate(10, 10).collidepoint(pos):
                return i
        return None

    def draw(self, surface: pygame.Surface) -> None:
        rects = self.die_rects()
        for i, (r, f) in enumerate(zip(rects, self.faces, strict=False)):
            draw_die(surface, r, f, selected=i == self.selected, dimmed=i in self.dimmed, label=self.label)
        if self.extra is not None and rects:
            r = rects[-1]
            pygame.draw.rect(surface, theme.MUTED, r, width=4, border_radius=max(4, r.w // 7))
            size = theme.fit_text(self.extra, theme.HUGE, r.w - 12, bold=True)
            theme.text(surface, self.extra, r.center, size, theme.MUTED, bold=True, anchor="center")
            if self.selected == len(self.faces):
                selection_ring(surface, r)


@dataclass
class PlayerBar:
    """Names in seat order along the top; the player whose turn it is stands out, with optional per-player notes.

    Whose turn it is and each player's standing are read from the far end of the table: the name is drawn at
    ``theme.LARGE`` and the note at ``theme.FAR`` where the cell has the width (BODY and SMALL were 17 and 13 px
    capitals there). A note too wide for its cell at FAR ("vorne · 0 Löcher" beside three more players) takes a
    line for each of its " · " parts where the bar is tall enough, and shrinks only where even that does not fit.

    Even cells where every name stands whole at LARGE; else each cell as wide as its name needs (``cells``), and a
    name too long even so in a short form no other player's name could also take (``labels``): in even cells four
    players' "Großmutter Helga" was drawn whole at 22 px, and "Großmutter H." told her from no other grandmother.
    """

    rect: pygame.Rect
    players: Sequence[str]
    current: int | None = None
    notes: Sequence[str] | None = None  # e.g. crystals, chips left

    #: between two cells, and beside a cell's text within it
    GAP = 4
    PAD = 10

    def draw(self, surface: pygame.Surface) -> None:
        layout = _bar_layout(tuple(self.rect), tuple(self.players), tuple(self.notes) if self.notes else None,
                             self.current)
        cells = []
        for i, (box, (name, size), note_lines) in enumerate(layout):
            cell = pygame.Rect(box)
            active = i == self.current
            color = theme.BG if active else theme.TEXT
            lines = [(name, size, active)] + [(line, at, False) for line, at in note_lines]
            heights = [theme.font(at).get_linesize() for _, at, _ in lines]  # as tall as drawn
            cells.append((cell, active, color, lines, heights, cell.centery - sum(heights) // 2))
        # every cell's lines alike as low as the marks over a name need (to stay in its cell), as far as the cells
        # have room under their last line's glyphs (its line spacing under them left "Ảnh"'s hook over the cell)
        drop = row_drop((NameAt(cell, lines[0][0], (cell.centerx, y), lines[0][1], color, lines[0][2], "midtop")
                         for cell, _, color, lines, _, y in cells),
                        min((cell.bottom - y - sum(heights[:-1]) - theme.font(lines[-1][1]).get_height()
                             for cell, _, _, lines, heights, y in cells), default=0))
        for cell, active, color, lines, heights, y in cells:
            pygame.draw.rect(surface, theme.ACCENT if active else theme.PANEL, cell, border_radius=8)
            y += drop
            for (line, at, bold), h in zip(lines, heights, strict=True):
                theme.text(surface, line, (cell.centerx, y), at, color, bold=bold, anchor="midtop")
                y += h

    def cells(self) -> list[pygame.Rect]:
        """Each player's cell, left to right: even where every name stands whole at LARGE and every note's part at
        FAR; else as wide as each needs (``widths_by_need``, as Noch X-Mal!'s cards), the first of these that fits:
        every name whole at LARGE, whole at FAR, in short where whole it is too long for an even cell (a double
        first name kept whole, as ``theme.fit_name`` keeps it), every name of several parts in its shortest form."""
        n = max(1, len(self.players))
        even = self.rect.w // n
        extra = self.GAP + self.PAD
        notes = [max((theme.font(theme.FAR).size(part)[0] for part in note.split(" · ")), default=0) + extra
                 for note in (self.notes or [""] * len(self.players))]

        def need(label: str, size: int) -> int:
            return theme.font(size, True).size(label)[0] + extra

        forms = [self.forms(i) for i in range(len(self.players))]
        large = [max(need(f[0], theme.LARGE), w) for f, w in zip(forms, notes, strict=True)]
        widths = [even] * len(self.players)
        if any(w > even for w in large):
            whole = [max(need(f[0], theme.FAR), w) for f, w in zip(forms, notes, strict=True)]
            short = [w if w <= even or theme.double_first_name(f[0]) else max(need(f[min(1, len(f) - 1)], theme.FAR),
                                                                                   note)
                     for f, w, note in zip(forms, whole, notes, strict=True)]
            shortest = [min(w, max(min(need(form, theme.FAR) for form in f), note))
                        for f, w, note in zip(forms, short, notes, strict=True)]
            widths = widths_by_need([large, whole, short, shortest], [range(len(self.players))], self.rect.w)
        cells, x = [], self.rect.x
        for w in widths:
            cells.append(pygame.Rect(x, self.rect.y, w - self.GAP, self.rect.h))
            x += w
        return cells

    def labels(self) -> list[tuple[str, int]]:
        """Each player's name as drawn in its cell and its size: the first of its forms (``forms``) that stands at FAR
        or larger, as large as fits up to LARGE; where none does, the one drawn largest (``theme.fit_name``)."""
        labels = []
        for i, cell in enumerate(self.cells()):
            bold, width = i == self.current, cell.w - self.PAD
            forms = self.forms(i)
            fitted = next(((form, at) for form in forms
                           if (at := theme.fit_text(form, theme.LARGE, width, bold)) >= theme.FAR), None)
            if fitted is None:  # the form drawn largest, the most of the name where alike; asked below FAR, as
                # ``theme.fit_name`` shortens no further than it must ("G. Hildegard" at 30, not "G. H." at 40)
                best, at = max(((form, theme.fit_text(form, theme.LARGE, width, bold)) for form in forms),
                               key=lambda fitted: fitted[1])
                fitted = theme.fit_name(best, at, width, bold)
            labels.append(fitted)
        return labels

    def forms(self, i: int) -> list[str]:
        """Player ``i``'s name and its short forms, the most of it first, only those no other player's name or short
        form is also ("Großmutter H." beside "Großmutter Hilde"): ``theme.name_forms``, as every screen shortens
        its players' names."""
        return list(theme.name_forms(self.players[i], self.players))

    def note_lines(self, note: str, cell: pygame.Rect, split: bool = False) -> list[tuple[str, int]]:
        """``note``'s lines and their sizes in ``cell`` under a name at LARGE: one line where it fits at FAR (and
        not ``split``: another cell's note is on lines of its parts), else its " · " parts on lines of their own
        where the cell is tall enough, else one line as large as fits."""
        if not note:
            return []
        width = cell.w - self.PAD
        one = theme.fit_text(note, theme.FAR, width)
        parts = note.split(" · ")
        room = cell.h - 2 - theme.font(theme.LARGE).get_linesize()
        tall = room >= len(parts) * theme.font(theme.FAR).get_linesize()
        if (one >= theme.FAR and not split) or len(parts) < 2 or not tall:
            return [(note, one)]
        return [(part, theme.fit_text(part, theme.FAR, width)) for part in parts]


@functools.lru_cache(maxsize=32)
def _bar_layout(rect: tuple[int, int, int, int], players: tuple[str, ...], notes: tuple[str, ...] | None,
                current: int | None) -> tuple[tuple[tuple[int, int, int, int], tuple[str, int],
                                                tuple[tuple[str, int], ...]], ...]:
    """``PlayerBar.draw``'s cells, names and notes' lines, kept: the bar is drawn every frame, and its cells by need
    and names' short forms measure every name several ways (0.7 ms a frame here, a Pi three or four times slower).
    Every note alike: on its parts' lines where one note needs that (one on a line beside three on two sat askew)."""
    bar = PlayerBar(pygame.Rect(rect), players, current, notes)
    cells = bar.cells()
    texts = notes or ("",) * len(players)
    lines = [bar.note_lines(note, cell) for note, cell in zip(texts, cells, strict=True)]
    if any(len(cell_lines) > 1 for cell_lines in lines):
        lines = [bar.note_lines(note, cell, split=True) for note, cell in zip(texts, cells, strict=True)]
    return tuple((tuple(cell), label, tuple(cell_lines))
                 for cell, label, cell_lines in zip(cells, bar.labels(), lines, strict=True))


def widths_by_need(needs: Sequence[Sequence[int]], rows: Sequence[Sequence[int]], total: int, *,
                   aligned: bool = False) -> list[int]:
    """Players' cells each as wide as its name needs, the rest of a row shared: even cells left a long name small
    beside short ones with room to spare ("Maximilian" at 26 beside "Anna" at 32 in Noch X-Mal!'s cards,
    "Großvater J." at 26 in Haste Worte's crystal table though the row held every name at FAR). One function for
    both screens, so that a table's cells and a game's cards share a row alike. A caller keeps even cells where
    every name fits one (what fits is its own to say) and asks this only where one does not.

    ``rows``: the players' indices row by row, consecutive (one row, or two of three: five players' second row is
    short); ``total``: a full row's width without its gaps; ``needs``: each player's width, one list for each way
    of writing the names, the most generous first (names whole where they fit an even cell, then shortened). The
    first list that fits gives the widths: in columns (both rows' cells one above the other) where they fit ``total``,
    each column its widest need and a share of what is left; else row by row where each row fits, each cell its need
    and a share (a short row as wide as its needs or its even cells). So a double first name stays whole in a row
    that holds it, though the columns would not ("Anne-M." stood in Haste Worte's six-player table where each row
    held "Anne-Marie"). Where no list fits so, the last row by row; where a row needs more than ``total`` even so,
    ``aligned`` cells (a table, read down its columns) all go narrower alike, in proportion to their columns; else
    that row's own cells share it in proportion to their needs, and the other row keeps its widths."""
    n, cols = sum(len(row) for row in rows), len(rows[0])
    even = total // cols

    def by_rows(need: Sequence[int]) -> list[int]:
        widths: list[int] = []
        for row in rows:
            w = sum(need[i] for i in row)
            if w > total:  # (not ``aligned``) this row's names go a little below the size they were measured at
                widths += [need[i] * total // w for i in row]
                continue
            room = total if len(row) == cols else max(w, len(row) * even)
            widths += [need[i] + (room - w) // len(row) for i in row]
        return widths

    for need in needs:
        columns = [max(need[row[j]] for row in rows if j < len(row)) for j in range(cols)]
        if sum(columns) <= total:
            return [columns[k % cols] + (total - sum(columns)) // cols for k in range(n)]
        if all(sum(need[i] for i in row) <= total for row in rows):
            return by_rows(need)
    if aligned:
        return [columns[k % cols] * total // sum(columns) for k in range(n)]
    return by_rows(needs[-1])


@dataclass
class MenuItem:
    label: str
    value: Any
    enabled: bool = True
    #: pressed again and again, each press meant (the pause menu's "Louder"): a quick second tap on it is no double
    #: tap, though its first changed the screen (``App._doubled``)
    repeats: bool = False


#: width of the scroll arrows drawn right of a menu whose items do not all fit
SCROLL_W = 48


#: a list longer than this says in its hint that a held NEXT runs through it (Noch X-Mal! solo's 41 scores)
LONG_LIST = 10


@dataclass
class Menu:
    """A vertical list usable with NEXT (move), SELECT (choose), UNDO (back) alone, or by touch.

    ``on_choose`` receives the chosen item's value; ``on_back`` is called for UNDO (None: UNDO does nothing here).
    """

    rect: pygame.Rect
    items: list[MenuItem]
    on_choose: Callable[[Any], None]
    on_back: Callable[[], None] | None = None
    title: str = ""
    index: int = 0
    row_h: int = 64
    #: the first row shown. It stays while the highlight is in view: the list scrolled on every tap so that the row
    #: tapped stood last, and the next finger landed on another row ("Ben passt" for David). A screen that builds
    #: its menu anew keeps it, as it keeps the highlight.
    first: int = 0
    #: the lines' size: BODY for who sits at the screen; FAR where the lines name players the far end of the table
    #: follows (Noch X-Mal!'s "Anna passt")
    size: int = theme.BODY

    def __post_init__(self) -> None:
        self._skip_disabled(+1)

    def _skip_disabled(self, step: int) -> None:
        if not any(i.enabled for i in self.items):
            return
        while not self.items[self.index % len(self.items)].enabled:
            self.index = (self.index + step) % len(self.items)
        self.index %= len(self.items)

    def _top(self) -> int:
        """Where the first row stands: under the title."""
        return self.rect.y + (56 if self.title else 0)

    def _rows(self) -> int:
        return max(1, (self.rect.bottom - self._top()) // self.row_h)

    def visible_range(self) -> range:
        """The rows shown: from ``first``, scrolled only as far as the highlight needs to be in view."""
        rows = self._rows()
        first = min(self.first, max(0, len(self.items) - rows))
        if self.index < first:
            first = self.index
        elif self.index >= first + rows:
            first = self.index - rows + 1
        self.first = max(0, first)
        return range(self.first, min(len(self.items), self.first + rows))

    def item_rects(self) -> dict[int, pygame.Rect]:
        top = self._top()
        shown = self.visible_range()
        # narrower when some do not fit: the scroll arrows stand inside the menu's rect, beside the items
        w = self.rect.w if len(shown) == len(self.items) else self.rect.w - SCROLL_W - 6
        return {i: pygame.Rect(self.rect.x, top + k * self.row_h, w, self.row_h - 8) for k, i in enumerate(shown)}

    def focus_rect(self) -> pygame.Rect | None:
        """The highlighted item's rect: banners keep clear of it (``App``), so the table sees what SELECT
        chooses."""
        return self.item_rects().get(self.index)

    def on_button(self, event: ButtonEvent) -> bool:
        """Handle the event if it is the menu's; return True when used. SELECT on a greyed-out row chooses nothing
        and is not used: the App answers it as a press nothing takes (``App._answer_press``, two low notes and the
        hint bar lit), where it was reported taken and the press made no sound and changed no pixel. NEXT/PREV on a
        list with one row to choose (``next_moves``: Echt Spitze's "Roll", "Said last" with one sentence) likewise."""
        if not self.items:
            return False
        if step := event.button.step:
            if not next_moves(self):
                return False
            self.index = (self.index + step) % len(self.items)
            self._skip_disabled(step)
            return True
        if event.button is Button.SELECT and event.press is Press.SHORT:
            item = self.items[self.index]
            if not item.enabled:
                return False
            self.on_choose(item.value)
            return True
        if event.button is Button.UNDO and self.on_back is not None:
            self.on_back()
            return True
        return False

    def scroll_rects(self) -> dict[int, pygame.Rect]:
        """The arrows beside the list where items are hidden above (-1) or below (+1): on a touch screen the only
        way to them, and for the buttons a sign that there is more than the screen shows."""
        rects, shown = self.item_rects(), self.visible_range()
        if not rects:
            return {}
        arrows = {}
        if shown.start > 0:
            first = rects[shown.start]
            arrows[-1] = pygame.Rect(self.rect.right - SCROLL_W, first.y, SCROLL_W, first.h)
        if shown.stop < len(self.items):
            last = rects[shown.stop - 1]
            arrows[+1] = pygame.Rect(self.rect.right - SCROLL_W, last.y, SCROLL_W, last.h)
        return arrows

    def on_tap(self, pos: tuple[int, int]) -> bool:
        rects = self.item_rects()
        for i, r in rects.items():
            # the 8 px between two rows is half each's: a finger landing between them chose nothing (rows 36 px
            # tall, as Noch X-Mal!'s four under its dice, are a fingertip; the gap took a fifth of the reach). Not
            # beyond the first and last rows: what stands there is another control's
            above = 0 if i - 1 not in rects else 4
            below = 0 if i + 1 not in rects else 4
            reach = pygame.Rect(r.x, r.y - above, r.w, r.h + above + below)
            if reach.collidepoint(pos) and self.items[i].enabled:
                self.index = i
                self.on_choose(self.items[i].value)
                return True
        shown = self.visible_range()
        rows = self._rows()
        for step, r in self.scroll_rects().items():
            if r.collidepoint(pos):  # a page that way, the row at its edge kept in view, highlighted
                if step < 0:
                    self.first = max(0, shown.start - (rows - 1))
                    self.index = shown.start
                else:
                    self.first = min(max(0, len(self.items) - rows), shown.start + rows - 1)
                    self.index = min(len(self.items) - 1, self.first + rows - 1)
                self._usable_highlight()
                return True
        return False

    def _usable_highlight(self) -> None:
        """The highlight on the nearest line that can be chosen on the page shown, never round the end (a greyed
        last line sent the highlight, and the page, back to the top: the lines above it were out of reach)."""
        page = range(self.first, min(len(self.items), self.first + self._rows()))
        usable = [i for i in page if self.items[i].enabled]
        if usable:
            self.index = min(usable, key=lambda i: abs(i - self.index))

    def scroll(self, rows: int) -> bool:
        """Show the list ``rows`` rows on (negative: back), as a finger swiping it does on a phone; the highlight
        stays where it is if still shown, else on the row at the edge it left by. False where nothing moved (all
        the list shown, or its end reached)."""
        shown = self.visible_range()
        first = max(0, min(len(self.items) - self._rows(), shown.start + rows))
        if first == shown.start:
            return False
        self.first = first
        self.index = max(first, min(self.index, first + self._rows() - 1))
        self._usable_highlight()
        return True

    def draw(self, surface: pygame.Surface) -> None:
        if self.title:
            size = theme.fit_text(self.title, theme.LARGE, self.rect.w, bold=True)
            theme.text(surface, self.title, (self.rect.x, self.rect.y), size, theme.ACCENT, bold=True)
        for i, r in self.item_rects().items():
            hi = i == self.index
            pygame.draw.rect(surface, theme.PANEL_HI if hi else theme.PANEL, r, border_radius=10)
            if hi:
                pygame.draw.rect(surface, theme.ACCENT, r, width=4, border_radius=10)
            self.draw_label(surface, i, r, hi)
        for step, r in self.scroll_rects().items():  # drawn, not a font glyph: the bundled font may lack arrows
            cx, cy, d = r.centerx, r.centery, 14
            tip, base = cy + step * d, cy - step * d
            pygame.draw.polygon(surface, theme.ACCENT, [(cx, tip), (cx - d, base), (cx + d, base)])

    def draw_label(self, surface: pygame.Surface, i: int, r: pygame.Rect, hi: bool) -> None:
        """Item ``i``'s words in its row ``r`` (``hi``: highlighted), one line as large as fits up to ``size``: a
        screen whose lines need more (two lines, a colour of their own) draws them its way here."""
        item = self.items[i]
        color = theme.TEXT if item.enabled else theme.MUTED
        size, label = theme.fit_text(item.label, self.size, r.w - 30), item.label
        if size < theme.SMALLEST:  # "6: Anne-Marie, Großvater Jürgen, …" was 14 px: its start, readable
            size, label = theme.SMALLEST, theme.fit_label(label, theme.SMALLEST, r.w - 30)
        theme.text(surface, label, (r.x + 18, r.centery), size, color, bold=hi, anchor="midleft")


#: the width the hint bar's line may take (design pixels)
HINT_ROOM = theme.DESIGN_SIZE[0] - 24
HINT_BAR_H = 40  # the bottom band the hints stand in (``hint_button``)
#: design pixels between the hint bar's top and its frames' (and below them, to the screen's edge)
HINT_FRAME_GAP = 2
#: a held hint's fill (``hold_fill``): a dark amber, the words' yellow and grey brighter than it
HOLD_FILL = (112, 84, 0)
#: the ≡ corner the app draws over a game's screen for the pause menu (a screen keeps its own words clear of it)
MENU_CORNER = pygame.Rect(theme.DESIGN_SIZE[0] - 52, 0, 52, 52)


#: a button's label on the screen -> the key that stands for it, while the keyboard is the table's buttons
#: (``name_keys``): a laptop shows "Space roll", not "ROLL roll", and nothing else names the keys
_KEY_NAMES: dict[str, str] = {}


def name_keys(on: bool) -> None:
    """The hint bar, and every sentence, name the keyboard's keys instead of the arcade buttons (``on``; a laptop, a
    Pi without them).

    Set by ``runtime`` for the whole run (every screen's hints go through ``hint_bar``); both languages at once, as
    the settings may switch the language while it runs. The bundled font draws no key symbols (⏎ ⌫ → are boxes)."""
    from companion.i18n import LANGUAGES, say_keys

    say_keys(on)  # and the sentences in the screen's middle and the voice
    _KEY_NAMES.clear()
    if on:
        _KEY_NAMES.update({t(f"core.btn_{b.value}", lang): t(f"core.key_{b.value}", lang)
                           for lang in LANGUAGES for b in Button})


def keys_named() -> bool:
    """The keyboard is the table's buttons (``name_keys``): a screen leaves out a hint no key does there."""
    return bool(_KEY_NAMES)


def _key_label(label: str) -> str:
    return _KEY_NAMES.get(label, label)


def _hints_width(hints: Sequence[tuple[str, str]], size: int) -> int:
    return sum(theme.font(size, True).size(_key_label(k))[0] + theme.font(size).size(w)[0] + 28 for k, w in hints)


def next_moves(menu: Menu | None) -> bool:
    """Whether NEXT moves the highlight of ``menu``: one with a single row to choose (Noch X-Mal!'s "Use a gift…"
    with "Anna" alone, Echt Spitze's "Carla: final scoring") took NEXT to nothing, and its bar said "NEXT move"."""
    return menu is not None and sum(item.enabled for item in menu.items) > 1


def with_menu(hints: list[tuple[str, str]], lang: str) -> list[tuple[str, str]]:
    """A game screen's hints, and "UNDO menu" where the screen leaves UNDO to the app (which opens the pause menu
    with it) and there is room for it at full size: a table with buttons only sees where the menu is.

    Game screens show UNDO exactly where they use it themselves ("back"); nothing is added to an empty bar (the game
    over screen draws its own). Where the menu's hint does not fit beside a long list's "move (hold: fast)", the
    list says "move": German "bewegen (halten: schnell)" left Fritzo's cube chooser without "ZURÜCK Menü"."""
    undo = t("core.btn_undo", lang)
    if not hints or any(key == undo for key, _ in hints):
        return hints
    more = [*hints, (undo, t("core.hint_menu", lang))]
    if _hints_width(more, theme.SMALL) <= HINT_ROOM:
        return more
    hold, move = t("core.hint_move_hold", lang), t("core.hint_move", lang)
    plainer = [(key, move if words == hold else words) for key, words in more]
    return plainer if plainer != more and _hints_width(plainer, theme.SMALL) <= HINT_ROOM else hints


def hint_bar_size(hints: Sequence[tuple[str, str]]) -> int:
    """The size ``hint_bar`` draws these hints at: SMALL, or smaller down to 14 until they fit its line (a screen
    choosing its hints' words by it keeps them readable)."""
    size = theme.SMALL
    while size > 14 and _hints_width(hints, size) > HINT_ROOM:
        size -= 1
    return size


def hint_bar(surface: pygame.Surface, hints: Sequence[tuple[str, str]]) -> list[pygame.Rect]:
    """The bottom line telling which button does what right now ("NEXT: move  SELECT: choose"); returns each
    hint's rect, for a screen that lets a finger press it.

    Shrinks to fit rather than cutting off the last hint (German labels run long): ``hint_bar_size``.
    """
    size = hint_bar_size(hints)
    x = 12
    y = theme.DESIGN_SIZE[1] - 30
    rects = []
    for key, what in hints:
        r = theme.text(surface, _key_label(key), (x, y), size, theme.ACCENT, bold=True)
        r2 = theme.text(surface, what, (r.right + 6, y), size, theme.MUTED)
        rects.append(r.union(r2))
        x = r2.right + 22
    return rects


def hint_button(surface: pygame.Surface, hint: pygame.Rect) -> pygame.Rect:
    """Draw a hint of the bottom bar (a rect ``hint_bar`` returned) as a button, and return where a finger presses
    it: from its frame's top down to the screen's edge, a little wider than the frame. For what a table with the
    touch screen alone has no other way to (going back, rolling, the hourglass, finishing a teaching).

    Every frame of the bar is as tall as the others, whatever its letters (the words' own height made "ZURÜCK" a
    frame 3 px taller than "UHR"), and a finger's room starts where its frame does: it started at the bar's top,
    above the frame, where a finger aimed low at the row over the bar pressed the hint unseen."""
    top = theme.DESIGN_SIZE[1] - HINT_BAR_H + HINT_FRAME_GAP
    room = pygame.Rect(hint.x - 10, top, hint.w + 20, theme.DESIGN_SIZE[1] - top)  # neighbours 22 apart: no overlap
    pygame.draw.rect(surface, theme.MUTED, hint_frame(room), width=2, border_radius=8)
    return room


def hint_frame(room: pygame.Rect) -> pygame.Rect:
    """The frame ``hint_button`` draws for the finger room it returned."""
    return pygame.Rect(room.x + 3, room.y, room.w - 6, room.h - 2 * HINT_FRAME_GAP)


def hold_fill(surface: pygame.Surface, room: pygame.Rect, held: float) -> None:
    """A framed hint held down by a finger (``hint_button``'s ``room``), ``held`` of the way (0 to 1) to its long
    press: the frame lights up and fills from the left as the hold builds. A finger held on "UNDO menu" saw nothing
    happen for a second until the step was taken back."""
    frame = hint_frame(room)
    done = pygame.Rect(frame.x, frame.y, round(frame.w * max(0.0, min(1.0, held))), frame.h)
    if done.w > 0:
        fill = pygame.Surface(frame.size)
        fill.fill((0, 0, 0))
        pygame.draw.rect(fill, HOLD_FILL, pygame.Rect(0, 0, done.w, done.h), border_radius=8)
        # under the words, not over them: each pixel the brighter of the two (the words stay as they were drawn)
        surface.blit(fill, frame.topleft, special_flags=pygame.BLEND_RGB_MAX)
    pygame.draw.rect(surface, theme.ACCENT, frame, width=3, border_radius=8)


def not_time_to_roll(what: str, lang: str) -> str:
    """What a screen that rolls nothing now says to ROLL: "Not time to roll: " and what it asks ("Anna: take one
    die"), one sentence whether the question ends in "?" or in nothing."""
    what = what.strip()
    return t("core.roll_not_now", lang, what=what if what.endswith(("?", "!", ".", "…")) else f"{what}.")


#: the buttons a game screen's hint may stand for, by its label's catalog key: a finger presses the hint as the
#: button (NEXT and SELECT need none: a finger taps the item itself)
TAPPED_AS = {"core.btn_undo": Button.UNDO, "core.btn_roll": Button.ROLL, "core.btn_reroll": Button.REROLL,
             "core.btn_timer": Button.TIMER}


def game_hint_bar(surface: pygame.Surface, hints: list[tuple[str, str]],
                  lang: str) -> list[tuple[pygame.Rect, ButtonEvent]]:
    """A game screen's hint bar (``with_menu``) with its UNDO (the screen's own step back), ROLL, REROLL and TIMER
    hints drawn as buttons; returns where a finger presses each and the press it stands for (a finger held there is
    the button held: the app's ``_hold_hint``, "TIMER hold: cancel" stops the sand so). A table with the touch
    screen alone had no way back out of Fritzo's placing or Echt Spitze's lists, to stop Haste Worte's hourglass, to
    throw unread dice again, or to the menu where the bar says "UNDO menu"."""
    shown = with_menu(hints, lang)  # its "UNDO menu" too: a finger that reads it presses it
    rects = hint_bar(surface, shown)
    buttons = {t(key, lang): button for key, button in TAPPED_AS.items()}
    return [(hint_button(surface, rect), ButtonEvent(buttons[key], Press.SHORT))
            for (key, _), rect in zip(shown, rects, strict=True) if key in buttons]


def tapped_hint(taps: list[tuple[pygame.Rect, ButtonEvent]], pos: tuple[int, int]) -> ButtonEvent | None:
    """The press of the hint button at ``pos`` (``game_hint_bar``), or None."""
    return next((event for rect, event in taps if rect.collidepoint(pos)), None)


def draw_wrapped(surface: pygame.Surface, s: str, rect: pygame.Rect, size: int, color: tuple[int, int, int], *,
                 bold: bool = False) -> int:
    """Word-wrap ``s`` into ``rect``, smaller (down to 14) when it does not fit its height; long German words stay
    whole. Returns the y below the last line."""
    while True:
        f = theme.font(size, bold)
        lines: list[str] = []
        line = ""
        for w in s.split():
            trial = f"{line} {w}".strip()
            if f.size(trial)[0] > rect.w and line:
                lines.append(line)
                line = w
            else:
                line = trial
        if line:
            lines.append(line)
        if len(lines) * f.get_linesize() <= rect.h or size <= 14:
            break
        size -= 2
    y = rect.y
    for line in lines:
        theme.text(surface, line, (rect.x, y), size, color, bold=bold)
        y += f.get_linesize()
    return y
