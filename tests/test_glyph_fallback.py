"""Names in letters the bundled font (FreeSans Bold) lacks: Vietnamese "Nguyễn", "Ngọc", "Đức" were refused at entry
("write it with other letters"), and from a hand-edited config drawn "Nguy□n" on every screen. Where DejaVu Sans Bold
is installed (Debian's fonts-dejavu-core, which scripts/setup.sh installs) a line with such a letter is drawn in it;
right-to-left names stay refused (pygame-ce draws them backwards)."""

from __future__ import annotations

import re
from pathlib import Path

import pygame
import pytest
from drawn_texts import recording_texts
from game_apps import in_game
from test_echt_spitze import LEVEL2_KINDS
from test_players_view import make

from companion.i18n import t
from companion.views import theme
from companion.views.players_view import players_problem, undrawable

ROOT = Path(__file__).resolve().parents[1]
DEJAVU = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf")
needs_dejavu = pytest.mark.skipif(
    not DEJAVU.is_file(), reason="DejaVu Sans Bold is not installed (Debian: fonts-dejavu-core, scripts/setup.sh "
    "installs it): without it names in letters the bundled font lacks are refused, as before")
NAMES = ("Nguyễn Văn An", "Ngọc", "Đức")
#: letters of Vietnamese, Yoruba/Igbo, Azerbaijani and German the bundled font has no glyph for
LACKING = "ễọứơưẹṣəƏẞ"


def bundled(size: int) -> pygame.font.Font:
    """The bundled font alone, at the pixel size ``theme.font(size)`` is."""
    theme.font(size)  # pygame.font initialised
    return pygame.font.Font(None, int(size * 1.25))


def pixels(surface: pygame.Surface) -> bytes:
    return pygame.image.tobytes(surface, "RGBA")


@needs_dejavu
@pytest.mark.parametrize("lang", ["de", "en"])
def test_vietnamese_names_are_taken_at_entry(lang):
    assert players_problem(["Ben", *NAMES], lang) is None
    mode, cfg, rec, done = make(("Ben",), lang)
    mode._start_add()
    mode.on_text("Nguyễn")  # as a laptop keyboard types it
    assert mode.entry.text == "Nguyễn" and mode.message == ""


@pytest.mark.parametrize("lang", ["de", "en"])
@pytest.mark.parametrize("name", ["יעל", "محمد", "王芳"])
def test_right_to_left_and_other_undrawable_names_stay_refused_in_todays_words(name, lang):
    """DejaVu has Hebrew and Arabic letters, but pygame-ce 2.5.8 draws them left to right: the name backwards."""
    assert players_problem(["Ben", name], lang) == t("core.players_err_undrawable", lang, name=name, place=1,
                                                     code=f"U+{ord(name[0]):04X}")


@needs_dejavu
def test_a_name_with_a_letter_neither_font_has_names_that_letter():
    """"Ngọc 王": mending 王 makes it drawable, so 王 is named, not the ọ the fallback draws."""
    assert undrawable("Ngọc 王") == (6, "王")
    assert undrawable("Ngọc יעל") == (6, "י")


@needs_dejavu
@pytest.mark.parametrize("size", [theme.SMALLEST, theme.SMALL, theme.BODY, theme.FAR, theme.LARGE, theme.HUGE])
def test_a_letter_the_bundled_font_lacks_is_drawn_not_its_box(size):
    box = pixels(bundled(size).render("\ue000", True, theme.TEXT))  # the .notdef glyph
    for ch in LACKING:
        assert pixels(bundled(size).render(ch, True, theme.TEXT)) == box  # what the audit saw
        drawn = theme.font(size).render(ch, True, theme.TEXT)
        assert pixels(drawn) != box and drawn.get_bounding_rect().h > 0, ch


def _catalog_lines() -> list[str]:
    """A sample of the screens' lines: the catalogs' strings, both languages."""
    lines = []
    for po in sorted((ROOT / "companion" / "locale").glob("*/*.po")):
        lines += re.findall(r'^msgstr "(.+)"$', po.read_text(encoding="utf-8"), re.M)[::7]
    return lines


def test_lines_of_letters_the_bundled_font_has_draw_and_measure_as_before():
    """Byte for byte: only a line with a letter the bundled font lacks is drawn otherwise."""
    sample = [*_catalog_lines(), "Zoë", "Şule", "Jörg-Ñuñez", "Ærø Ådne", "Łukasz", "bis\u00a0zu +2", "„Alle Würfel“"]
    assert len(sample) > 100
    for size in (theme.SMALLEST, theme.SMALL, theme.FAR, theme.HUGE):
        ours, theirs = theme.font(size), bundled(size)
        for s in sample:
            assert ours.size(s) == theirs.size(s) and ours.metrics(s) == theirs.metrics(s), s
            assert pixels(ours.render(s, True, theme.TEXT)) == pixels(theirs.render(s, True, theme.TEXT)), s


@needs_dejavu
@pytest.mark.parametrize("size", [theme.SMALL, theme.FAR, theme.LARGE])
def test_a_fallback_line_stands_where_and_as_tall_as_the_bundled_one(size):
    """Same capitals and baseline as its neighbours; measured as drawn (the same pygame size stood 47 px against 28
    and ran 1.6 times as wide)."""
    f = theme.font(size)
    ours, plain = f.render("Ngọc", True, theme.TEXT), bundled(size).render("Ngoc", True, theme.TEXT)
    n_ours = ours.subsurface((0, 0, ours.get_width() // 4, ours.get_height())).get_bounding_rect()
    n_plain = plain.subsurface((0, 0, plain.get_width() // 4, plain.get_height())).get_bounding_rect()
    assert abs(n_ours.top - n_plain.top) <= 1 and abs(n_ours.bottom - n_plain.bottom) <= 1  # the N's cap and baseline
    assert ours.get_height() == plain.get_height() and f.size("Ngọc")[1] == bundled(size).size("Ngoc")[1]
    for name in NAMES:
        assert f.size(name)[0] == f.render(name, True, theme.TEXT).get_width()
        assert f.size(name)[0] < 1.35 * bundled(size).size(name)[0]
        at = theme.fit_text(name, size, f.size(name)[0] - 1)
        assert at < size and theme.font(at).render(name, True, theme.TEXT).get_width() <= f.size(name)[0] - 1


def _boxed_lines(drawn: list[tuple[str, int, pygame.Rect]]) -> list[str]:
    """The drawn lines with a name in them that are drawn as the bundled font draws them, boxes and all."""
    return [s for s, size, _ in drawn if any(ch in s for ch in "ễọứĐ")
            and pixels(theme.font(size).render(s, True, theme.TEXT))
            == pixels(bundled(size).render(s, True, theme.TEXT))]


@needs_dejavu
@pytest.mark.parametrize("lang", ["de", "en"])
def test_vietnamese_names_on_the_players_screen_and_a_game_screen(lang, out_dir, monkeypatch, tmp_path):
    mode, cfg, rec, done = make((*NAMES, "Ben"), lang)
    screen = pygame.Surface((800, 480))
    with recording_texts(monkeypatch) as drawn:
        mode.draw(screen)
    pygame.image.save(screen, str(out_dir / f"glyphs_players_{lang}.png"))
    assert {name for name in NAMES if any(name in s for s, _, _ in drawn)} == set(NAMES)
    assert _boxed_lines(drawn) == []
    app = in_game(tmp_path, lang, (800, 480), "echt-spitze", {"players": [*NAMES, "Ben"], "level": 2,
                                                              "kinds": LEVEL2_KINDS, "star_value": 4})
    try:
        with recording_texts(monkeypatch) as drawn:
            app.frame(0.03, [])
        pygame.image.save(app.display.window, str(out_dir / f"glyphs_echt_spitze_{lang}.png"))
    finally:
        app.close()
    assert any(name in s or theme.short_name(name) in s for s, _, _ in drawn for name in NAMES)
    assert _boxed_lines(drawn) == []


def test_without_the_fallback_font_a_name_it_would_draw_is_refused_as_before(monkeypatch):
    """No DejaVu (a system without fonts-dejavu-core): today's behaviour, ễ is a box and "Nguyễn" refused."""
    caches = [theme.fallback_path, theme._glyph_faces, theme._has_glyph, theme.falls_back, theme._rendered]
    monkeypatch.setattr(theme, "FALLBACK_FONTS", ())
    monkeypatch.setattr(theme.shutil, "which", lambda name: None)
    for cache in caches:
        cache.cache_clear()
    try:
        assert theme.fallback_path() is None
        assert undrawable("Nguyễn") == (5, "ễ")
        assert pixels(theme.font(theme.FAR).render("Nguyễn", True, theme.TEXT)) == pixels(
            bundled(theme.FAR).render("Nguyễn", True, theme.TEXT))
    finally:
        monkeypatch.undo()
        for cache in caches:
            cache.cache_clear()
