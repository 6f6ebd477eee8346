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
    lines, size = theme.fit_lines("Würfelanlernbildschirmeinstellungen" * 2, theme.BODY, 300, max_lines=3)
    assert len(lines) == 1 and size < theme.SMALL


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
