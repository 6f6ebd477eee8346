"""The marks over a name's capitals stand inside its cell: the top row's cells start a few rows under the screen's
top, and ``theme.text`` lifts a line by what its marks rise, so the active player's "Özlem Ö." (dark ink on the
dark screen over the yellow cell) read "Ozlem O." and Noch X-Mal!'s "Ảnh" read "Ánh", another name. Where DejaVu
Sans Bold draws a Vietnamese name, its stacked marks rise no higher than the bundled font's Ü."""

from __future__ import annotations

import random
from pathlib import Path

import pygame
import pytest
from drawn_texts import recording_texts
from test_glyph_fallback import needs_dejavu
from test_haste_worte_view import Clocks, make
from test_player_bar import bar_names

from companion.games.noch_x_mal import NochXMal
from companion.journal import Journal
from companion.session import GameSession
from companion.views import theme, widgets
from companion.views.echt_spitze_view import BAR
from companion.views.noch_x_mal_view import NochXMalMode

GERMAN = ["Özlem Öztürk", "Großmutter Hildegard", "Ümit Ünal", "Anna"]
VIET = ["Nguyễn Thị Mỹ Ảnh", "Trần Đức-Huy", "Ảnh", "Anna"]
SIX = ["Ảnh", "Ümit", "Nguyễn Thị Mỹ Ảnh", "Özlem Ö", "Bảo", "Anna"]
TABLES = [pytest.param(GERMAN, id="german"), pytest.param(VIET, id="vietnamese", marks=needs_dejavu),
          pytest.param(SIX, id="six", marks=needs_dejavu), pytest.param(["Ảnh", "Ümit"], id="two", marks=needs_dejavu)]


@pytest.fixture(autouse=True)
def _pygame():
    pygame.init()
    yield


def ink(s: str, size: int, rect: pygame.Rect) -> pygame.Rect:
    """Where a line drawn by ``theme.text`` into ``rect`` has ink (its glyphs, marks and all)."""
    return theme.font(size).render(s, True, theme.TEXT).get_bounding_rect().move(rect.topleft)


def names_outside(drawn: list[tuple[str, int, pygame.Rect]], cells: list[pygame.Rect], names: list[str]
                  ) -> list[tuple[str, pygame.Rect, pygame.Rect]]:
    """Each name drawn in a cell whose ink does not stand inside it: (name, ink, cell)."""
    found, out = 0, []
    for s, size, rect in drawn:
        cell = next((c for c in cells if c.contains(rect.clip(c)) and c.colliderect(rect)
                     and rect.centery in range(c.top, c.bottom)), None)
        if cell is None or not any(s == n or s == theme.short_name(n) or s.split()[0] == n.split()[0] for n in names):
            continue
        found += 1
        if not cell.contains(ink(s, size, rect)):
            out.append((s, ink(s, size, rect), cell))
    assert found >= len(names), drawn  # every name was looked at
    return out


@pytest.mark.parametrize("players", TABLES)
def test_haste_worte_names_keep_their_marks_in_their_cells(tmp_path: Path, monkeypatch, players):
    view, _ = make(tmp_path, Clocks(), {"action": "setup", "players": players, "start": 0, "seed": 9})
    assert view._actor() == 0
    surface = pygame.Surface(theme.DESIGN_SIZE)
    with recording_texts(monkeypatch) as drawn:
        view.draw(surface)
    cells = view._crystal_rows()[0] if len(players) > 4 else view._crystal_cells()[0]
    assert names_outside(drawn, cells, players) == []
    # on the screen: the active cell's topmost ink rows are dark ink on its yellow (was the dark screen above it)
    name, size, rect = next(d for d in drawn if cells[0].colliderect(d[2]))
    top = ink(name, size, rect)
    rows = [surface.get_at((x, y))[:3] for x in range(top.left, top.right) for y in range(top.top, top.top + 3)]
    assert tuple(theme.ACCENT) in rows and any(sum(px) < 250 for px in rows)


@pytest.mark.parametrize("players", TABLES)
def test_noch_x_mal_cards_keep_their_names_marks_in_the_card(tmp_path: Path, monkeypatch, players):
    session = GameSession.new(NochXMal, {"action": "setup", "players": players, "seed": 1}, Journal(tmp_path / "j"),
                              lang="de", rng=random.Random(5))
    view = NochXMalMode(session)
    with recording_texts(monkeypatch) as drawn:
        view.draw(pygame.Surface(theme.DESIGN_SIZE))
    assert names_outside(drawn, view.card_rects(), players) == []


@needs_dejavu
def test_echt_spitzes_bar_keeps_its_names_marks_in_their_cells(tmp_path: Path, monkeypatch):
    names = bar_names(tmp_path, monkeypatch, "de", VIET)
    assert len(names) == len(VIET)
    for s, size, rect in names:
        assert BAR.contains(ink(s, size, rect)), s


@needs_dejavu
@pytest.mark.parametrize("size", [theme.SMALL, theme.FAR, theme.LARGE])
def test_stacked_vietnamese_marks_rise_no_higher_than_the_bundled_umlaut(size):
    """DejaVu's "Ẫ" at the bundled capitals' height rose 8 rows over the ascent at FAR, Ü 4: no cell had room."""
    f = theme.font(size)
    umlaut = theme.accent_lift(f, "Ümit")
    for name in ("Ảnh", "Nguyễn T. M. Ả.", "Lê Thị Ẫn", "Đỗ Ấn"):
        assert 0 < theme.accent_lift(f, name) <= umlaut, name
        assert f.render(name, True, theme.TEXT).get_bounding_rect().top == 0  # its marks are drawn, not cut
    # a line whose marks rise no higher keeps the capitals' height and baseline (the N of "Nguyễn" as of "Nguyen")
    n_ours, n_plain = (first_letter(f.render(s, True, theme.TEXT)).move(0, -theme.accent_lift(f, s))
                       for s in ("Nguyễn", "Nguyen"))  # as ``theme.text`` draws them: lifted by their marks
    assert abs(n_ours.top - n_plain.top) <= 1 and abs(n_ours.bottom - n_plain.bottom) <= 1


def first_letter(img: pygame.Surface) -> pygame.Rect:
    """The ink of a line's first sixth (its capital N)."""
    return img.subsurface((0, 0, img.get_width() // 6, img.get_height())).get_bounding_rect()


@pytest.mark.parametrize("anchor", ["topleft", "midleft", "midtop", "midbottom"])
def test_a_row_of_names_drops_alike_as_far_as_its_highest_marks_need(anchor):
    """``widgets.row_drop``, which the player bar, Haste Worte's crystal table and Noch X-Mal!'s cards all ask (each
    added it up its own way, Haste Worte's with a ``max()`` that had no answer for a row without names): every name
    of the row drawn that much lower has its marks inside its cell, and the plain names go down with them."""
    tall = 40 if anchor in ("topleft", "midtop") else 16  # a centred name's marks over its cell's top: a low cell
    cells = [pygame.Rect(10 + 195 * k, 4, 190, tall) for k in range(4)]
    names = ["Anna", "Özlem Ö.", "Ümit"] + (["Ảnh"] if theme.falls_back("Ảnh") else [])
    for size in (theme.FAR, theme.LARGE):
        at = [widgets.NameAt(cell, name, getattr(cell, anchor), size, theme.BG, True, anchor)
              for cell, name in zip(cells, names, strict=False)]
        drop = widgets.row_drop(at)
        assert drop > 0 and drop == max(widgets.marks_drop(a.cell, a.name, a.pos, size, a.ink, bold=True, anchor=anchor)
                           for a in at)
        surface = pygame.Surface(theme.DESIGN_SIZE)
        rects = [a.draw(surface, drop) for a in at]
        for a, rect in zip(at, rects, strict=True):
            assert a.cell.top + 1 <= ink(a.name, size, rect).top, (a.name, anchor)
        if anchor in ("topleft", "midtop"):  # one baseline (a centred line's is its image's middle)
            assert len({r.top + theme.accent_lift(theme.font(size), a.name) for a, r in zip(at, rects, strict=True)
                        }) == 1
        assert widgets.row_drop(at, most=drop - 1) == max(0, drop - 1)  # a cell's room under its lines holds it
    assert widgets.row_drop([]) == 0 and widgets.row_drop(at, most=-3) == 0
