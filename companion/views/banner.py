"""The announcement banner and the mute indicator.

The banner is the silent half of every announcement: people who did not hear the sentence (noise, a muted
companion, a hard-of-hearing player) read it. So it is big (the theme's LARGE size, bold, shrunk only when a
long sentence would need more than three lines) and it must never cover the hourglass, the one thing players
watch while a banner is up. The caller passes the rects to keep clear; the banner takes the free band below or
above them, or the column beside them, whichever fits the sentence at the largest size.

Sizes are design pixels (800x480) scaled to the surface, so the same call works on the Pi panel and a laptop
window. """

from __future__ import annotations

import functools
import re
from collections.abc import Iterator, Sequence

import pygame

from companion.views import theme
from companion.views.widgets import HINT_BAR_H

MARGIN = 10
PAD = 16
BORDER = 4
BAR = 6
MAX_LINES = 3
MIN_WIDTH = 220  # narrower than this, a column beside the hourglass is no place for a sentence

URGENT_FILL = (150, 28, 28)


def scale_of(surface: pygame.Surface) -> float:
    w, h = surface.get_size()
    return min(w / theme.DESIGN_SIZE[0], h / theme.DESIGN_SIZE[1])


def wrap(text: str, font: pygame.font.Font, width: int) -> list[str]:
    """Greedy word wrap; a single word wider than ``width`` stays whole on its own line (the caller
    shrinks). Each paragraph as ``theme.wrap``'s, not broken at a no-break space (Echt Spitze joins a kind and its
    number so: "Kiwis / 3" stood on two lines of a German banner)."""
    return [line for paragraph in text.split("\n") for line in theme.wrap(paragraph, font, width) or [""]]


def layout(text: str, width: int, scale: float, largest: int = theme.LARGE) -> tuple[pygame.font.Font, list[str]]:
    """The largest bold font, ``largest`` (LARGE) down to BODY, at which ``text`` fits ``width`` pixels in MAX_LINES
    lines.

    BODY is the floor (the theme's size readable across a table): a sentence too long for three lines at BODY
    gets more lines rather than smaller letters. Its lines end where its sentences do, else are as even as they go
    (``_even``): greedy, "Ben bekommt 3 Kristalle und hat jetzt" stood over "14." alone, a line the far end of the
    table took for another sentence.
    """
    font, lines, _ = _layout(text, width, scale, largest)
    return font, list(lines)


@functools.lru_cache(maxsize=512)
def _layout(text: str, width: int, scale: float, largest: int) -> tuple[pygame.font.Font, tuple[str, ...], int]:
    """``layout``, and the design size it came to (below ``largest`` where the sentence needed it), kept: ``place``
    asks it for every free region, and since the smaller sizes down to FAR for each size too, every frame a banner
    stands (a sentence that could stand only over what a screen keeps in view took 3.8 ms a frame to place here,
    five times what it had, where a Pi is three or four times slower)."""
    size = largest
    while True:
        font = theme.font(max(8, round(size * scale)), True)
        lines = wrap(text, font, width)
        fits = len(lines) <= MAX_LINES and all(font.size(line)[0] <= width for line in lines)
        if fits or size <= theme.BODY:
            if len(lines) > 1 and "\n" not in text:
                lines = _even(text, font, width, len(lines)) or lines
            return font, tuple(lines), size
        size -= 2


@functools.lru_cache(maxsize=256)
def _far_layout(text: str, width: int, scale: float) -> tuple[pygame.font.Font, tuple[str, ...]] | None:
    """``text`` at FAR on as many lines as it needs (even, as ``layout``'s), for a room tall enough to take more
    than three: None where a word is wider than ``width`` even so."""
    font = theme.font(max(8, round(theme.FAR * scale)), True)
    lines = wrap(text, font, width)
    if any(font.size(line)[0] > width for line in lines):
        return None
    if len(lines) > 1 and "\n" not in text:
        lines = _even(text, font, width, len(lines)) or lines
    return font, tuple(lines)


def _fits(text: str, width: int, height: int, scale: float,
          largest: int) -> list[tuple[pygame.font.Font, tuple[str, ...], int, int]]:
    """The banners for ``text`` in a region ``width`` by ``height`` (its lines' room, the padding and the time bar
    included), best first: each its font, lines, design size and height. ``layout`` from ``largest``; where that
    comes below FAR (three lines do not fit at FAR), first FAR on more lines where the region is tall enough: the
    table reads a banner from every seat, and "Ben bekommt 3 Punkte für eine Treppe, zusammen 8. Anna ist dran."
    stood at 28 px on four lines in Fritzo's column under its actions, Echt Spitze's firsts beside its list, where
    FAR took as many. The smaller one stays second: shorter, it may stand clear of what a taller one covers."""
    font, lines, at = _layout(text, width, scale, largest)
    smaller = (font, lines, at, _height(font, lines, scale))
    if at < theme.FAR <= largest and (far := _far_layout(text, width, scale)) is not None:
        far_height = _height(far[0], far[1], scale)
        if far_height <= height:
            return [(far[0], far[1], theme.FAR, far_height), smaller]
    return [smaller]


def _height(font: pygame.font.Font, lines: Sequence[str], scale: float) -> int:
    """A banner's height for ``lines`` of ``font``: the lines, the padding above and below, the time bar."""
    return sum(_pitches(font, lines)) + 2 * round(PAD * scale) + round(BAR * scale)


@functools.lru_cache(maxsize=512)
def _ink_rows(font: pygame.font.Font, line: str) -> tuple[int, int]:
    """The first and past-the-last rows of ``line``'s ink in its rendering (kept: a banner is placed every frame)."""
    ink = font.render(line, True, theme.TEXT).get_bounding_rect()
    return (ink.top, ink.bottom) if ink.height else (font.get_linesize(), 0)


def _pitches(font: pygame.font.Font, lines: Sequence[str]) -> list[int]:
    """How far each of a banner's ``lines`` puts the next below it: the line spacing, or as many rows more as keep a
    row between its ink and the next line's. A line is drawn from the top of its marks, and in the fallback font
    reaches deeper ("ị", "ỹ"): "Löchern: Nguyễn Thị Mỹ Ảnh und"'s descenders ran into the marks of "Trần Đức-Huy
    teilen sich den Sieg!" under it. Lines whose ink keeps clear at the line spacing (every line the bundled font
    draws alone where no deep letter stands over a capital's marks) are spaced as before."""
    rows = [_ink_rows(font, line) for line in lines]
    spacing = font.get_linesize()
    return [max(spacing, bottom - below[0] + 1) for (_, bottom), below in zip(rows, rows[1:], strict=False)] + (
        [spacing] if lines else [])


#: where a sentence ends, and a banner's line may best end too
_SENTENCE_END = re.compile(r"(?<=[.!?:])[^\S\u00a0\u202f]+")


def _even(text: str, font: pygame.font.Font, width: int, count: int) -> list[str] | None:
    """``text`` on ``count`` lines no wider than ``width``: a sentence to a line where its sentences go so ("Die
    Zeit ist um!" / "Großvater Johannes liest zuerst vor."), else lines as even as they go, not broken between two
    capitalised words (a name: "Großvater / Johannes" read as two people) nor after a number ("3 / Kristalle");
    None where neither fits."""
    lines: list[str] = []
    for sentence in _joined_at_colons(_SENTENCE_END.split(text), font, width, count):
        if lines and font.size(f"{lines[-1]} {sentence}")[0] <= width:
            lines[-1] = f"{lines[-1]} {sentence}"
        else:
            lines.append(sentence)
    if len(lines) == count and all(font.size(line)[0] <= width for line in lines):
        return lines
    words = theme._words(text, ())  # at its spaces, not at a no-break one (``wrap``)
    together = [f"{a} {b}" for a, b in zip(words, words[1:], strict=False)
                if a.isdigit() or (a[:1].isupper() and b[:1].isupper() and a[-1].isalnum())]
    even = theme.even_lines(text, font, width, count, together) or theme.even_lines(text, font, width, count)
    return list(even) if even is not None else None


def _joined_at_colons(pieces: list[str], font: pygame.font.Font, width: int, count: int) -> list[str]:
    """``pieces`` with a piece ending in ":" joined to the next while there are more than ``count`` lines' worth:
    a colon opens what follows it, a full stop ends a sentence, so the lines break at the full stop. Greedy on
    three pieces, "Anna-Sophie nimmt die 1. Großvater Jürgen:" stood over "nimm einen Würfel.", which read as
    "die 1. Großvater Jürgen"."""
    pieces = list(pieces)
    for _ in range(len(pieces)):  # each pass joins two pieces or stops
        if len(pieces) <= count:
            break
        at = next((i for i, piece in enumerate(pieces[:-1])
                   if piece.endswith(":") and font.size(f"{piece} {pieces[i + 1]}")[0] <= width), None)
        if at is None:
            break
        pieces[at:at + 2] = [f"{pieces[at]} {pieces[at + 1]}"]
    return pieces


def _free_regions(area: pygame.Rect, avoid: pygame.Rect | None) -> list[tuple[pygame.Rect, str]]:
    """Where a banner may go, best first, each with the edge it sits against (with nothing to avoid: the bottom,
    else the top, for a banner to keep clear of what the table looks at, ``place``'s ``spare``; beside ``avoid``
    likewise: the bottom, else the top, where the bottom holds the buttons the table is to press). Last the
    column under ``avoid`` as wide as it: where the bands and the columns beside it all cover what the screen
    keeps in view, a banner may still stand clear of it under a short list (Fritzo's turn banner stood over the
    building's bottom row, a cube in it, under the three actions at the right)."""
    if avoid is None or not avoid.colliderect(area):
        return [(area, "bottom"), (area, "top")]
    right = pygame.Rect(avoid.right, area.top, area.right - avoid.right, area.height)
    left = pygame.Rect(area.left, area.top, avoid.left - area.left, area.height)
    regions = [
        (pygame.Rect(area.left, avoid.bottom, area.width, area.bottom - avoid.bottom), "bottom"),
        (pygame.Rect(area.left, area.top, area.width, avoid.top - area.top), "top"),
        (right, "bottom"),
        (left, "bottom"),
        (right, "top"),
        (left, "top"),
    ]
    column = avoid.clip(area)
    if column.width < area.width:  # as wide as the screen it is the band under it, already offered
        regions.append((pygame.Rect(column.left, avoid.bottom, column.width, area.bottom - avoid.bottom), "bottom"))
    return regions


def rooms(offered: pygame.Rect | Sequence[pygame.Rect] | None) -> list[pygame.Rect]:
    """A view's ``notice_room`` (or ``banner_room``) as a list: none, one room, or several in the screen's order.

    Public because the App's notices walk a view's rooms as the banner does, and the two must read them alike."""
    if offered is None:
        return []
    return [offered] if isinstance(offered, pygame.Rect) else list(offered)


def first_covered(rect: pygame.Rect, keep: Sequence[pygame.Rect]) -> int:
    """The index of the first of ``keep`` that ``rect`` covers, ``len(keep)`` where it covers none: of two places
    the better is the one whose first covered rect comes later (a screen lists first what matters most). Public
    because the App's notices choose between the top and the bottom by it as the banner chooses its place."""
    return next((i for i, r in enumerate(keep) if rect.colliderect(r)), len(keep))


def place(surface_size: tuple[int, int], text: str, avoid: pygame.Rect | None,
          scale: float, corners: Sequence[pygame.Rect] = (), spare: Sequence[pygame.Rect] = (),
          room: pygame.Rect | Sequence[pygame.Rect] | None = None) -> tuple[pygame.Rect, pygame.font.Font, list[str]]:
    """The banner's rect, font and lines: in the first free region where the sentence fits, else the
    roomiest. ``corners``: buttons at the top edge a banner there stands left of (the game's ≡ corner: a banner
    over it took the finger's first tap). ``spare``: what the table looks at now (the dice just thrown, which a
    table without a camera sees nowhere else): a region where the banner fits clear of it comes first; where none
    is clear, the one whose first covered rect comes latest in ``spare`` (a screen lists first what matters most:
    Echt Spitze's player bar and prompt stood under the banners of a whole crossing), smaller down to FAR (still
    read from every seat) where that spares more of it (Echt Spitze's extra-cross sentences, three lines at LARGE,
    stood over the reminders everybody crosses by; at FAR they stand above the dice, over the bar alone).
    ``room``: where the screen would have a banner stand (a view's ``banner_room``), taken first where the banner
    fits it at FAR or larger clear of the rest (Noch X-Mal!'s board under its title: the fourth roll's three lines at
    LARGE beside the menu cut the title in half); else the places above as without it. A banner there fills the
    room, its lines in the middle (``draw_banner``): the room is the banner's, and what a screen draws in it is
    drawn to be covered (Fritzo's cube highlighted, large, over the chooser: a one-line banner at the room's foot
    left the cube's top 24 px standing above it, which looked like a drawing fault); where the whole room would
    cover what it must not, the banner as tall as its lines at the room's foot. Several rooms: tried in their order,
    each a later one may cover what of ``spare`` lies wholly in it (Noch X-Mal!'s band under the cards between rolls,
    then down over whose throw it is, which the highlighted card and the menu's line say too: three lines at FAR did
    not fit the band and stood over the cards, the whose-turn highlight among them)."""
    margin, pad = round(MARGIN * scale), round(PAD * scale)
    # never over the hint bar: its framed hints are a finger's buttons (ROLL under a roll's result banner took two
    # taps, the first only put the banner away), and a table with buttons reads there what they do
    area = pygame.Rect(0, 0, surface_size[0], surface_size[1] - round(HINT_BAR_H * scale))
    # a room (or a region clear of ``spare``) that takes the sentence only below FAR: taken where no other place
    # does at FAR or larger (Noch X-Mal!'s firsts, Echt Spitze's, Fritzo's scores stood at 28 px on four lines in a
    # column, where the band or a room beside it took them at FAR)
    small: tuple[pygame.Rect, pygame.font.Font, list[str]] | None = None
    for k, each in enumerate(rooms(room)):
        inner = each.clip(area.inflate(-2 * margin, -2 * margin))
        clear_of = (*(r for r in spare if not (k and inner.contains(r))), *corners, *([avoid] if avoid else []))
        for size in range(theme.LARGE, theme.FAR - 1, -2):
            for font, lines, at, height in _fits(text, inner.width - 2 * pad, inner.height, scale, size):
                if inner.width < MIN_WIDTH * scale or height > inner.height:
                    continue
                for rect in (inner, pygame.Rect(inner.left, inner.bottom - height, inner.width, height)):
                    if not any(rect.colliderect(r) for r in clear_of):
                        if at >= theme.FAR:
                            return pygame.Rect(rect), font, list(lines)
                        small = small or (pygame.Rect(rect), font, list(lines))

    options = []
    # the best place over what the table looks at: the one whose first covered rect comes latest, at FAR or larger
    fits_over_spare: tuple[tuple[int, bool], pygame.Rect, pygame.font.Font, list[str]] | None = None
    for rect, font, lines, fits, region_area, at in _in_regions(area, avoid, corners, text, scale, theme.LARGE):
        if fits:
            first = first_covered(rect, spare)
            if first == len(spare) and at >= theme.FAR:
                return rect, font, lines
            if first == len(spare):
                small = small or (rect, font, lines)
            elif fits_over_spare is None or (first, at >= theme.FAR) > fits_over_spare[0]:
                fits_over_spare = ((first, at >= theme.FAR), rect, font, lines)
        options.append((region_area, rect, font, lines))
    if small is not None:  # smaller, clear of what the table looks at, before larger over it
        return small
    if fits_over_spare is not None:
        for size in range(theme.LARGE - 2, theme.FAR - 1, -2):
            for rect, font, lines, fits, _, at in _in_regions(area, avoid, corners, text, scale, size):
                if fits and at >= theme.FAR and (first_covered(rect, spare), True) > fits_over_spare[0]:
                    return rect, font, lines
        return fits_over_spare[1:]
    if options:
        _, rect, font, lines = max(options, key=lambda o: o[0])
        return rect, font, lines
    # The rect to avoid fills the screen: the sentence matters more than the corner it covers.
    font, lines = layout(text, area.width - 2 * (margin + pad), scale)
    height = sum(_pitches(font, lines)) + 2 * pad + round(BAR * scale)
    rect = pygame.Rect(margin, area.height - margin - height, area.width - 2 * margin, height)
    return rect, font, lines


def _in_regions(area: pygame.Rect, avoid: pygame.Rect | None, corners: Sequence[pygame.Rect], text: str,
                scale: float, size: int) -> Iterator[tuple[pygame.Rect, pygame.font.Font, list[str], bool, int, int]]:
    """The banner for ``text`` (from ``size`` down, ``_fits``) in each free region wide enough, best first: its
    rect (cut to the region where it is too tall), font and lines, whether it fits, the region's area and the
    design size it is drawn at."""
    margin, pad = round(MARGIN * scale), round(PAD * scale)
    for region, edge in _free_regions(area, avoid):
        inner = region.inflate(-2 * margin, -2 * margin)
        if edge == "top":
            for corner in corners:
                if corner.colliderect(inner) and corner.left > inner.left:
                    inner.width = corner.left - margin - inner.left
        if inner.width < MIN_WIDTH * scale or inner.height <= 0:
            continue
        for font, lines, at, height in _fits(text, inner.width - 2 * pad, inner.height, scale, size):
            rect = pygame.Rect(inner.left, 0, inner.width, min(height, inner.height))
            if edge == "bottom":
                rect.bottom = inner.bottom
            else:
                rect.top = inner.top
            yield rect, font, list(lines), height <= inner.height, inner.width * inner.height, at


def draw_banner(surface: pygame.Surface, text: str, *, urgent: bool = False, remaining: float = 1.0,
                waiting: int = 0, avoid: pygame.Rect | None = None,
                corners: Sequence[pygame.Rect] = (), spare: Sequence[pygame.Rect] = (),
                room: pygame.Rect | Sequence[pygame.Rect] | None = None) -> pygame.Rect:
    """Draw the banner for ``text``; ``remaining`` (1..0) fills the time bar, ``waiting`` counts queued
    banners.

    Returns the rect covered so other overlays can keep clear of it.
    """
    scale = scale_of(surface)
    rect, font, lines = place(surface.get_size(), text, avoid, scale, corners, spare, room)
    radius, border, pad = round(12 * scale), max(2, round(BORDER * scale)), round(PAD * scale)
    fill, edge = (URGENT_FILL, theme.TEXT) if urgent else (theme.PANEL_HI, theme.ACCENT)
    shadow = rect.move(round(4 * scale), round(4 * scale))
    pygame.draw.rect(surface, (0, 0, 0), shadow, border_radius=radius)
    pygame.draw.rect(surface, fill, rect, border_radius=radius)
    pygame.draw.rect(surface, edge, rect, border, border_radius=radius)

    clip = surface.get_clip()
    surface.set_clip(rect.inflate(-2 * border, -2 * border))
    pitches = _pitches(font, lines)
    # in the middle of a rect taller than its lines (a view's ``banner_room``, filled); from the top of one cut
    # shorter (the rest is clipped)
    top = rect.top + max(pad, (rect.height - round(BAR * scale) - sum(pitches)) // 2)
    for line, pitch in zip(lines, pitches, strict=True):
        img = font.render(line, True, theme.TEXT)
        surface.blit(img, img.get_rect(midtop=(rect.centerx, top)))
        top += pitch
    bar_h = max(2, round(BAR * scale))
    bar_top = rect.bottom - border - bar_h - round(4 * scale)
    bar = pygame.Rect(rect.left + pad, bar_top, rect.width - 2 * pad, bar_h)
    if waiting:  # how many banners are still to come, at the end of the time bar
        small = theme.font(max(8, round(theme.SMALL * scale)), True)
        img = small.render(f"+{waiting}", True, theme.MUTED if not urgent else theme.TEXT)
        badge = img.get_rect(midright=(bar.right, bar.centery))
        surface.blit(img, badge)
        bar.width -= badge.width + pad // 2
    pygame.draw.rect(surface, theme.PANEL, bar)
    bar.width = round(bar.width * max(0.0, min(1.0, remaining)))
    pygame.draw.rect(surface, edge, bar)
    surface.set_clip(clip)
    return rect


def _speaker_icon(surface: pygame.Surface, rect: pygame.Rect, color) -> None:
    """A speaker with a cross: drawn, not a font glyph, because the bundled font has no such symbol."""
    h = rect.height
    x, cy = rect.left, rect.centery
    body = pygame.Rect(x, cy - h // 6, h // 4, h // 3)
    pygame.draw.rect(surface, color, body)
    cone = [(body.right, body.top), (body.right + h // 3, rect.top + h // 10),
            (body.right + h // 3, rect.bottom - h // 10), (body.right, body.bottom)]
    pygame.draw.polygon(surface, color, cone)
    x0, w, half = body.right + h // 3 + h // 8, max(3, h // 7), h // 4
    pygame.draw.line(surface, theme.BAD, (x0, cy - half), (x0 + 2 * half, cy + half), w)
    pygame.draw.line(surface, theme.BAD, (x0, cy + half), (x0 + 2 * half, cy - half), w)


def draw_mute_indicator(surface: pygame.Surface, label: str,
                        avoid: Sequence[pygame.Rect] = ()) -> pygame.Rect:
    """A crossed-out speaker and ``label`` ("Ton aus") in a top corner clear of ``avoid`` (hourglass,
    banner)."""
    scale = scale_of(surface)
    margin, pad = round(MARGIN * scale), round(8 * scale)
    font = theme.font(max(8, round(theme.SMALL * scale)), True)
    icon_h = font.get_height()
    icon_w = icon_h * 3 // 2
    text_img = font.render(label, True, theme.TEXT)
    size = (pad * 3 + icon_w + text_img.get_width(), icon_h + 2 * pad)
    w, h = surface.get_size()
    top_right = pygame.Rect((w - margin - size[0], margin), size)
    # beside what it would cover up there (a game's menu corner), before another corner: it stays where it was seen
    beside = [a for a in avoid if a.colliderect(top_right) and a.top <= top_right.top]
    if beside:  # the speaker alone there: with its words it covered the end of a long heading ("...Buchstabe[n auf")
        text_img = None
        size = (pad * 2 + icon_w, icon_h + 2 * pad)
        top_right = pygame.Rect((w - margin - size[0], margin), size)
    left_of = [top_right.move(min(a.left for a in beside) - margin - top_right.right, 0)] if beside else []
    # under a banner at the top, at the right: the bottom corners lie on the hint bar's buttons
    below = [top_right.move(0, max(a.bottom for a in beside) + margin - top_right.top)] if beside else []
    # under it before left of it: left of a game's menu corner lies its last player's score (the sign stood on
    # "Ben ♦2", and a child checks the score there)
    corners = [top_right, *below, *left_of, pygame.Rect((margin, margin), size),
               pygame.Rect((w - margin - size[0], h - margin - size[1]), size),
               pygame.Rect((margin, h - margin - size[1]), size)]
    screen = surface.get_rect()  # a banner as wide as the screen put "left of it" off the screen: unseen, untapped
    corners = [c for c in corners if screen.contains(c)] or corners[:1]
    rect = next((c for c in corners if not any(c.colliderect(a) for a in avoid)), corners[0])
    pygame.draw.rect(surface, theme.PANEL, rect, border_radius=round(8 * scale))
    pygame.draw.rect(surface, theme.BAD, rect, max(2, round(2 * scale)), border_radius=round(8 * scale))
    _speaker_icon(surface, pygame.Rect(rect.left + pad, rect.top + pad, icon_w, icon_h), theme.TEXT)
    if text_img is not None:
        surface.blit(text_img, text_img.get_rect(midleft=(rect.left + 2 * pad + icon_w, rect.centery)))
    return rect
