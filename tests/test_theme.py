"""Text fitting shared by the screens: what is read across the table stays at a readable size."""

from __future__ import annotations

import pygame
import pytest

from companion.views import theme

NOTICE = ("Haste Worte? Das Würfelspiel: Eure Würfel sind noch nicht angelernt, darum würfelt der Begleiter selbst "
          "(nur auf dem Bildschirm). Damit er eure Würfel liest: im Hauptmenü „Würfel anlernen“ wählen.")


@pytest.fixture(autouse=True)
def fonts():
    pygame.font.init()


def test_a_short_line_stays_one_line_at_its_size():
    assert theme.fit_lines("Game resumed.", theme.BODY, 770) == (("Game resumed.",), theme.BODY)


def test_a_long_notice_takes_a_third_line_rather_than_shrinking_below_small():
    two, small = theme.fit_lines(NOTICE, theme.BODY, 770)
    three, size = theme.fit_lines(NOTICE, theme.BODY, 770, max_lines=3)
    assert len(two) == 2 and small < theme.SMALL  # squeezed into two lines it is too small to read at 2 m
    assert len(three) == 3 and size >= theme.SMALL
    f = theme.font(size)
    assert " ".join(three) == NOTICE and all(f.size(line)[0] <= 770 for line in three)
    widths = [f.size(line)[0] for line in three]
    assert max(widths) - min(widths) < 0.25 * max(widths), three  # even lines, not two full and a word


def test_a_single_long_word_shrinks_on_one_line():
    lines, size = theme.fit_lines("Würfelanlernbildschirmeinstellungen" * 2, theme.BODY, 400, max_lines=3)
    assert len(lines) == 1 and size < theme.SMALL


def test_a_word_too_wide_for_a_line_even_at_12_is_broken_not_run_off_the_screen():
    """It was one line wider than ``max_width`` (384 px in 300): drawn over whatever stood beside it."""
    word = "Würfelanlernbildschirmeinstellungen" * 2
    lines, size = theme.fit_lines(word, theme.BODY, 300, max_lines=3)
    assert "".join(lines) == word and 1 < len(lines) <= 3
    assert all(theme.font(size).size(line)[0] <= 300 for line in lines)


@pytest.mark.parametrize("word", ["Würfelanlernbildschirmeinstellungen" * 3, "https://example.com/" + "a" * 120])
def test_one_word_too_wide_for_one_line_even_at_12_is_cut_not_wider(word):
    """With ``max_lines=1`` the word was returned whole, wider than ``max_width`` (the docstring promises never):
    now cut with "…" at 12, as a text with spaces already was."""
    lines, size = theme.fit_lines(word, theme.BODY, 300, max_lines=1)
    assert size == 12 and len(lines) == 1 and lines[0].endswith("…") and word.startswith(lines[0][:-1])
    assert theme.font(12).size(lines[0])[0] <= 300
    assert theme.fit_lines(word[:20], theme.BODY, 300, max_lines=1) == ((word[:20],), theme.fit_text(word[:20],
                                                                                                     theme.BODY, 300))


PATH = "/home/pi/.local/share/table-companion/dicesets/haste-worte-2026-12-07T14-30-12.toml"


@pytest.mark.parametrize("lang", ["de", "en"])
def test_a_notice_with_a_long_path_reads_whole_broken_after_its_slashes(lang):
    """A path wider than a line kept the whole notice at 12 px, as one line three times the screen's width (the
    app's notice: four lines allowed), or cut the path short with "…"."""
    words = {"de": f"Die Würfelsatz-Datei lässt sich nicht verwenden, darum würfelt der Begleiter selbst. In {PATH} "
                   "ist Zeile 2 falsch geschrieben. Berichtigt die Zeile oder löscht die Datei.",
             "en": f"The dice set file cannot be used, so the companion rolls by itself. In {PATH}, line 2 is "
                   "written wrongly. Correct the line or delete the file."}[lang]
    for width, most in ((682, 4), (372, 4), (500, 3)):
        lines, size = theme.fit_lines(words, theme.BODY, width, most)
        assert size > 12 and len(lines) <= most
        assert all(theme.font(size).size(line)[0] <= width for line in lines)
        joined = "".join(line if line.endswith("/") else line + " " for line in lines).strip()
        assert joined == words  # every word whole but the path's, which goes on after its "/" on the next line
    short = "Die Datei /tmp/a.toml ist kaputt."
    assert theme.fit_lines(short, theme.BODY, 682, 4) == ((short,), theme.BODY)  # a path that fits: as before


@pytest.mark.parametrize("name, shown", [
    ("Maximilian-Alexander", "Maximilian-A."),
    ("Großvater Jürgen", "Großvater J."),
    ("Li", "Li"),
    ("Wolfeschlegelsteinhausenberger", "…"),
    ("Großvater Jürgen von Hohenstein", "Großvater J."),
    ("Anna (Oma Gertrud)", "Anna O. G."),
])
def test_a_long_name_is_shortened_as_people_do_not_shrunk_unreadable(name, shown):
    """Six names in a game's top bar: "Maximilian-Alexander" and "Großvater Jürgen" were drawn at 12 px."""
    text, size = theme.fit_name(name, theme.BODY, 108, bold=True)
    assert (text == shown) if not shown.endswith("…") else text.startswith(shown[:-1]) and text.endswith("…")
    assert size >= theme.SMALLEST and theme.font(size, True).size(text)[0] <= 108


def test_two_names_alike_but_for_the_second_stay_apart_however_narrow():
    """"Großmutter Hilde" and "Großmutter Jutta" were both "Großmutter" on six players' cards."""
    for width in (160, 108, 90, 70):
        hilde, _ = theme.fit_name("Großmutter Hilde", theme.BODY, width, bold=True)
        jutta, size = theme.fit_name("Großmutter Jutta", theme.BODY, width, bold=True)
        assert hilde != jutta and hilde.endswith(("H.", "Hilde")) and theme.font(size, True).size(jutta)[0] <= width


def test_a_hyphenated_name_keeps_its_hyphens_shortened():
    assert theme.short_name("Jean-Luc-Picard") == "Jean-L.-P." and theme.short_name("Anne Marie Lo") == "Anne M. L."


def test_a_one_word_name_stays_whole_down_to_the_smallest_size_before_it_is_cut():
    text, size = theme.fit_name("Konstantin", theme.BODY, 90, bold=True)
    assert text == "Konstantin" and theme.SMALLEST <= size < theme.SMALL


def test_a_name_the_far_end_reads_is_shortened_before_it_goes_below_far():
    """Whose turn in a cell where "Mia" stood at 40: "Großvater Johannes" was drawn whole at 26, where "Großvater J."
    fits at FAR. Asked below FAR (a note for who sits at the screen) the whole name still comes first."""
    width = 250  # the whole name at 26 or so, "Großvater J." at FAR or larger
    assert theme.SMALL <= theme.fit_text("Großvater Johannes", theme.LARGE, width, True) < theme.FAR
    name, size = theme.fit_name("Großvater Johannes", theme.LARGE, width, True)
    assert name == "Großvater J." and size >= theme.FAR
    name, size = theme.fit_name("Großvater Johannes", theme.BODY, width, True)
    assert name == "Großvater Johannes" and theme.SMALL <= size < theme.FAR
    assert theme.fit_name("Maximilian", theme.LARGE, 150, True)[0] == "Maximilian"  # one word: nothing to shorten


FULL = "Großvater Johannes: roll the dice"
SHORT = "Großvater J.: roll the dice"


def test_a_far_line_stays_one_line_as_large_as_fits_down_to_far():
    width = theme.font(36).size(FULL)[0]
    assert theme.far_lines(FULL, theme.LARGE, width, short=SHORT) == ((FULL,), 36)


def test_a_far_line_keeps_the_whole_name_where_it_fits_at_far_though_shortened_it_would_be_larger():
    width = theme.font(theme.FAR).size(FULL)[0]
    assert theme.fit_text(SHORT, theme.LARGE, width) > theme.FAR
    assert theme.far_lines(FULL, theme.LARGE, width, short=SHORT) == ((FULL,), theme.FAR)


def test_a_far_line_shortens_the_names_before_it_goes_below_far_or_onto_two_lines():
    """"Großvater Johannes: ..." shrank to 30 on one screen where another said "Großvater J.: ..." at FAR."""
    width = theme.font(theme.FAR).size(SHORT)[0]
    assert theme.fit_text(FULL, theme.LARGE, width) < theme.FAR
    assert theme.far_lines(FULL, theme.LARGE, width, short=SHORT) == ((SHORT,), theme.FAR)


def test_a_far_line_too_wide_even_shortened_takes_two_even_lines_not_broken_inside_a_name():
    """Broken where the lines were most even, "Großvater" ended one line and "Johannes" began the next: two people
    read from across the table."""
    full = "Gewonnen: Anna und Großvater Johannes mit 15 Kristallen"
    short = "Gewonnen: Anna und Großvater J. mit 15 Kristallen"
    width = 540
    assert theme.fit_text(short, theme.LARGE, width) < theme.FAR
    assert theme.even_lines(full, theme.font(theme.FAR), width, 2)[0].endswith("Großvater")  # the even break
    lines, size = theme.far_lines(full, theme.LARGE, width, short=short, names=["Anna", "Großvater Johannes"])
    assert len(lines) == 2 and " ".join(lines) == full and size >= theme.FAR
    assert any("Großvater Johannes" in line for line in lines)
    assert all(theme.font(size).size(line)[0] <= width for line in lines)
    assert theme.far_lines(full, theme.LARGE, width, short=short, max_lines=1)[1] < theme.FAR  # one line: shrinks


def test_a_far_lines_short_names_are_kept_whole_too():
    short = "Gewonnen: Anna und Großvater J. mit 15 Kristallen"
    f = theme.font(theme.FAR)
    width = max(f.size(line)[0] for line in theme.even_lines(short, f, 800, 2, ["Großvater J."]))
    assert theme.fit_text("Gewonnen: Anna und Großvater Johannes mit 15 Kristallen", theme.FAR, width) < theme.FAR
    lines, size = theme.far_lines("Gewonnen: Anna und Großvater Johannes mit 15 Kristallen", theme.FAR, width,
                                  short=short, names=["Großvater Johannes"])
    assert size == theme.FAR and " ".join(lines) == short and any("Großvater J." in line for line in lines)


def test_a_far_line_that_fits_nowhere_at_far_shrinks_keeping_the_whole_name_where_shortening_gains_nothing():
    lines, size = theme.far_lines(FULL, theme.LARGE, 60, short=SHORT, max_lines=1)  # fits nowhere: cut, never wider
    assert size == 12 and len(lines) == 1 and lines[0].endswith("…") and theme.font(12).size(lines[0])[0] <= 60
    width = theme.font(24).size(SHORT)[0]  # shortened it stays larger than whole
    lines, size = theme.far_lines(FULL, theme.LARGE, width, short=SHORT, max_lines=1)
    assert lines == (SHORT,) and size == 24 > theme.fit_text(FULL, theme.LARGE, width)


def test_a_far_line_asked_below_far_keeps_that_size_only():
    """A menu's BODY line, a reminder made smaller for room: shortened at that size, not drawn larger."""
    width = theme.font(theme.BODY).size(SHORT)[0]
    assert theme.far_lines(FULL, theme.BODY, width, short=SHORT, max_lines=1) == ((SHORT,), theme.BODY)
    assert theme.far_lines("Mia: ok", theme.BODY, 700) == (("Mia: ok",), theme.BODY)


def test_far_lines_stand_no_taller_than_the_room_given():
    full = "Gewonnen: Anna und Großvater Johannes mit 15 Kristallen"
    width = theme.font(theme.LARGE).size(full)[0] * 2 // 3
    height = 2 * (theme.font(36).get_height() + 1)
    lines, size = theme.far_lines(full, theme.LARGE, width, max_height=height)
    assert len(lines) == 2 and size == 36  # LARGE and 38 would be too tall on two lines
    assert theme.far_lines(full, theme.LARGE, width)[1] > 36


def test_a_notice_naming_players_is_not_broken_inside_a_name():
    won = "Gewonnen: Anna und Großvater Johannes mit 15 Kristallen"
    assert theme.fit_lines(won, theme.BODY, 400)[0][0].endswith("Großvater")  # the most even break
    lines, size = theme.fit_lines(won, theme.BODY, 400, names=("Großvater Johannes",))
    assert any("Großvater Johannes" in line for line in lines) and " ".join(lines) == won and size >= theme.SMALL
    assert all(theme.font(size).size(line)[0] <= 400 for line in lines)


def test_lines_that_fit_nowhere_are_cut_never_wider_than_asked():
    """Four long names' reports at Echt Spitze's crossing: one line of 947 px at 12 ran under the menu and off the
    screen. The lines wrap at the smallest size, the last one cut."""
    s = "; ".join(f"{name}: pears, plums, lemons" for name in ("Großvater Johannes", "Großmutter Hildegard",
                                                             "Maximilian-Alexander", "Annika"))
    lines, size = theme.fit_lines(s, theme.SMALL, 372, 2)
    assert size == 12 and len(lines) == 2 and lines[1].endswith("…")
    assert all(theme.font(12).size(line)[0] <= 372 for line in lines)


def test_a_double_first_name_is_kept_whole_before_it_is_shortened_for_two_pixels():
    """"Eva-Maria" fits whole at 30 on a six players' card; "Eva-M." at 32 beside the others' whole names read as a
    slip."""
    width = theme.font(30, True).size("Eva-Maria")[0] + 1
    assert theme.fit_name("Eva-Maria", theme.FAR, width, True) == ("Eva-Maria", 30)



def test_an_umlaut_capital_at_the_top_edge_keeps_its_dots():
    """Fritzo's status line stands at y 0: "Özlem ist dran" was lifted 4 px above the screen, its dots cut off."""
    surface = pygame.Surface((800, 480))
    assert theme.text(surface, "Özlem ist dran", (12, 0), theme.LARGE, bold=True).top == 0
    assert theme.text(surface, "Özlem ist dran", (12, 100), theme.LARGE, bold=True).top < 100  # lifted elsewhere


TABLES = [
    ["Großmutter Helga", "Großmutter Hilde", "Maximilian", "Anna"],
    ["Anne-Marie", "Anne-Mette", "Großvater Johannes", "Li"],
    ["Maximilian", "Maximiliane", "Großmutter Hilde"],
    ["Großvater Karl", "Großvater Karla", "Großvater Kurt", "Großmutter Karl"],
    ["Marie-Luise", "Marie-Louise", "Anna B.", "Anna Berg"],
]


@pytest.mark.parametrize("players", TABLES)
def test_every_player_gets_a_short_form_no_other_player_has(players):
    """Two grandmothers were both "Großmutter H." in Echt Spitze's reminders, menu and status line: each short form
    is its player's alone, and never another player's whole name ("Anna B." beside "Anna Berg")."""
    shorts = [theme.table_short_name(name, players) for name in players]
    assert len(set(shorts)) == len(players), shorts
    for name, short in zip(players, shorts, strict=True):
        assert short not in [other for other in players if other != name]
        assert short in theme.name_forms(name, players)


def test_a_name_no_other_collides_with_is_shortened_as_before():
    """Names that do not collide keep ``short_name``'s form; the first words' initials only where it collides."""
    players = ["Großmutter Helga", "Großmutter Hilde", "Großvater Johannes", "Maximilian-Alexander", "Li"]
    assert [theme.table_short_name(name, players) for name in players] == [
        "G. Helga", "G. Hilde", "Großvater J.", "Maximilian-A.", "Li"]
    for name in ("Großvater Johannes", "Anne-Marie", "Jean-Luc-Picard", "Li", "Anna (2)", "Großmutter H."):
        assert theme.table_short_name(name, [name]) == theme.short_name(name)
        assert theme.table_short_name(name, ()) == theme.short_name(name)
    assert theme.table_short_name("Anne-Marie", ["Anne-Marie", "Anne-Mette"]) == "Anne-Marie"  # both "Anne-M."


def test_a_name_fitted_for_the_table_is_not_shortened_to_another_players_form():
    """A card or cell too narrow for "Großmutter Helga" at FAR drew "Großmutter H." beside "Großmutter Hilde"'s
    "Großmutter H."; without the table's names, as before."""
    players = ("Großmutter Helga", "Großmutter Hilde")
    width = theme.font(theme.FAR, True).size("Großmutter H.")[0] + 2
    assert theme.fit_name("Großmutter Helga", theme.FAR, width, True) == ("Großmutter H.", theme.FAR)
    assert theme.fit_name("Großmutter Helga", theme.FAR, width, True, players) == ("G. Helga", theme.FAR)
    narrow = theme.font(theme.SMALLEST, True).size("G. Helga")[0] + 2
    assert theme.fit_name("Großmutter Helga", theme.SMALL, narrow, True, players)[0] == "G. Helga"


@pytest.mark.parametrize("lang", ["de", "en"])
def test_a_no_break_space_keeps_its_words_on_one_line(lang):
    """Echt Spitze's reminder wrapped "Anne-Marie: bis / zu +2 Extrakreuze": ``str.split`` breaks at U+00A0 too. The
    catalog's no-break space holds "bis zu" / "up to" together on every width, with or without names kept whole."""
    from companion.i18n import t

    line = t("echt.view.extra_two", lang, player="Anne-Marie")
    phrase = {"de": "bis\u00a0zu", "en": "up\u00a0to"}[lang]
    assert phrase in line
    f = theme.font(theme.FAR)
    for width in range(f.size(phrase)[0], f.size(line)[0] + 1, 8):
        for names in ((), ("Anne-Marie",), ("Großmutter Helga",)):
            lines = theme.wrap(line, f, width, names)
            assert any(phrase in part for part in lines), (width, lines)
            assert " ".join(lines).replace("\u00a0", " ") == line.replace("\u00a0", " ")
    parts, _ = theme.far_lines(line, theme.FAR, 230, names=["Anne-Marie"])
    assert any(phrase in part for part in parts), parts


TABLES = [["Großvater Johannes", "Anna"], ["Großmutter Helga", "Großmutter Hilde", "Maximilian-Alexander"],
          ["Großvater Jürgen", "Großmutter Hildegard", "Maximilian", "Anna", "Eva-Maria Schulz", "Jean-Luc Picard"],
          ["Mia"], []]


@pytest.mark.parametrize("players", TABLES)
def test_kept_whole_expands_an_expanded_list_to_the_same_words(players):
    """Every fitting helper expands its names itself, and one asks another with what it has: expanding twice
    keeps the same words (no "G. J." from "Großvater J."), and the players' names alone expand as they did."""
    once = theme.kept_whole(players)
    assert set(theme.kept_whole(once)) == set(once)
    assert set(once) == {*players, *(form for name in players
                                     for form in (theme.short_name(name), *theme.name_forms(name, players)[1:]))}


def _helpers(s: str, width: int, names) -> dict[str, tuple[str, ...] | None]:
    f = theme.font(theme.BODY)
    return {"wrap": tuple(theme.wrap(s, f, width, names)),
            "wrap_breaking": tuple(theme.wrap_breaking(s, f, width, names)),
            "even_lines": theme.even_lines(s, f, width, 2, names),
            "fit_lines": theme.fit_lines(s, theme.BODY, width, 3, tuple(names))[0],
            "far_lines": theme.far_lines(s, theme.BODY, width, names=names)[0]}


def test_every_fitting_helper_keeps_the_short_forms_of_plain_names_whole():
    """One convention: ``fit_lines``, ``even_lines`` and ``wrap`` took the names expanded by their caller
    (``kept_whole``) where ``far_lines`` expanded them itself; a caller passing the names alone to the former broke
    "Großvater / J." across two lines. Each now keeps the short forms of the plain names, as with them expanded."""
    players = ["Großvater Johannes", "Anna"]
    short = "Gewonnen: Anna und Großvater J. mit 15 Kristallen"
    f = theme.font(theme.BODY)
    widths = range(f.size("Großvater J. mit")[0], f.size(short)[0], 6)
    broken = {name for width in widths for name, lines in _helpers(short, width, ()).items()
              if lines and any(line.endswith("Großvater") for line in lines)}
    assert {"wrap", "wrap_breaking"} <= broken  # without names they break inside the short form
    for width in widths:
        plain = _helpers(short, width, players)
        assert plain == _helpers(short, width, theme.kept_whole(players)), width
        for lines in filter(None, plain.values()):
            assert " ".join(lines) == short and not any(line.endswith("Großvater") for line in lines), width
