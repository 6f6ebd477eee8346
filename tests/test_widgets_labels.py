"""A die's label read across the table: on two lines where its words then stand larger."""

from __future__ import annotations

import os

import pygame

from companion.views import theme
from companion.views.widgets import die_label_lines, draw_die, widths_by_need

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")


def test_a_label_of_several_words_takes_two_lines_where_it_then_stands_larger():
    """Haste Worte's "Obst & Gemüse" on one line of its die was 14 px, read by nobody across the table."""
    pygame.init()
    lines, size = die_label_lines("Obst & Gemüse", 102, 104)
    assert len(lines) == 2 and size >= theme.BODY
    assert die_label_lines("Tiere", 102, 104) == (["Tiere"], theme.LARGE)  # one word that fits: as it was
    assert die_label_lines("? (freie Zahl)", 102, 104)[0] == ["?", "(freie Zahl)"]  # a bracket stays whole
    surface = pygame.Surface((120, 120))
    draw_die(surface, pygame.Rect(8, 8, 104, 104), "fruit", label=lambda f: "Obst & Gemüse")
    ink = pygame.surfarray.array3d(surface)[10:110, 10:110].sum(axis=2) < 200  # dark letters on the die
    rows = ink.any(axis=0)
    assert rows[:50].any() and rows[55:].any()  # letters in both halves: two lines


def test_a_long_single_word_is_hyphenated_where_it_then_stands_larger():
    """"Spielzeug" was 22 px on a die beside "Tiere" at 40: a long word is broken as German words are, between
    consonants before the last ("Spiel-zeug"), before a consonant with r ("Coun-tries"), never inside "ch"."""
    pygame.init()
    lines, size = die_label_lines("Spielzeug", 96, 104)
    assert lines == ["Spiel-", "zeug"] and size >= theme.BODY
    assert die_label_lines("Countries", 96, 104)[0] == ["Coun-", "tries"]
    assert die_label_lines("Lebensmittel", 96, 104)[0][0] in ("Lebens-", "Lebensmit-")
    from companion.views.widgets import _word_breaks

    assert all(not ("Gerichte"[:k].endswith("c") and "Gerichte"[k] == "h") for k in _word_breaks("Gerichte"))
    assert _word_breaks("Tiere") == [] and _word_breaks("Obst&Gem") == []  # short, or not a plain word


def test_no_line_begins_with_a_sign_a_name_is_never_broken_nor_a_word_for_a_step():
    """Reviewed: Haste Worte's buttons broke "Maximilian" into "Ma-/ximilian", and "Gerichte" for 28 px over 26."""
    pygame.init()
    assert die_label_lines("Fruit & veg", 96, 104)[0] == ["Fruit &", "veg"]  # not "& veg" on a line of its own
    assert die_label_lines("Maximilian", 96, 104, hyphenate=False)[0] == ["Maximilian"]
    assert die_label_lines("Hauptstädte", 96, 104)[0] == ["Haupt-", "städte"]  # st stays with its word
    lines, size = die_label_lines("Gerichte", 110, 104)
    one = theme.fit_text("Gerichte", theme.LARGE, 110, bold=True)
    assert lines == ["Gerichte"] or size >= one * 6 // 5 + 2


def test_cells_by_need_share_a_row_in_columns_else_row_by_row_and_shrink_only_a_row_too_long():
    """``widths_by_need``, Noch X-Mal!'s cards and Haste Worte's crystal table: each cell at least its need where the
    row holds it, the rest shared; columns kept while both rows fit them; a row too long shrinks alone (cards) or
    with every column (a table, ``aligned``)."""
    rows, total = [[0, 1, 2], [3, 4]], 600
    columns = widths_by_need([[250, 100, 100, 100, 100]], rows, total)
    assert columns[0] == columns[3] and columns[1] == columns[4] and total - 3 < sum(columns[:3]) <= total
    assert all(w >= need for w, need in zip(columns, [250, 100, 100, 100, 100], strict=True))
    whole, short = [250, 100, 100, 100, 300], [250, 100, 100, 100, 150]  # "Anne-Marie", "Anne-M."
    by_row = widths_by_need([whole], rows, total)  # the columns (250 + 300 + 100) are too wide: each row alone
    assert all(w >= need for w, need in zip(by_row, whole, strict=True)) and sum(by_row[:3]) > total - 3
    # each row holds its names whole: whole row by row, not shortened to keep the columns ("Anne-M." stood in Haste
    # Worte's six-player table where each row held "Anne-Marie")
    assert widths_by_need([whole, short], rows, total) == by_row
    too_long = [250, 100, 100, 100, 520]  # the second row cannot hold it whole: short, in columns
    assert widths_by_need([too_long, short], rows, total) == widths_by_need([short], rows, total)
    assert widths_by_need([short], rows, total)[1] == widths_by_need([short], rows, total)[4]
    long_first = [400, 200, 100, 100, 100]  # the first row needs 700 of 600
    for aligned in (False, True):
        widths = widths_by_need([long_first], rows, total, aligned=aligned)
        assert sum(widths[:3]) <= total and widths[0] > widths[1] > widths[2]
        assert (widths[3:] == widths[:2]) is aligned  # a table's columns stay one above the other
        if not aligned:  # the second row keeps what it needs and its even share
            assert widths[3:] == widths_by_need([[100, 100, 100, 100, 100]], rows, total)[3:]


def test_a_two_line_label_breaks_after_a_comma_or_colon_where_it_fits_as_large():
    """Echt Spitze's unsure-die answer read "No: take it / out, roll again" (the more even split); after the comma
    it reads as said, at the same size. German breaks there already; a comma leaving a word alone is no reason
    ("Oceans, rivers / and lakes" stays)."""
    from companion.i18n import t

    pygame.init()
    w, h = 232 - 16, 74 - 8  # the answer button (``EchtSpitzeMode._draw_button``), inside its margins
    assert die_label_lines(t("echt.view.roll_again_foreign", "en"), w, h, theme.BODY) == (
        ["No: take it out,", "roll again"], theme.BODY)
    assert die_label_lines(t("echt.view.roll_again_foreign", "de"), w, h, theme.BODY)[0] == [
        "Nein: herausnehmen,", "neu würfeln"]
    assert die_label_lines("Time is up: no more building.", w, h, theme.BODY)[0] == [
        "Time is up:", "no more building."]
    assert die_label_lines("Oceans, rivers and lakes", w, h, theme.BODY)[0] == ["Oceans, rivers", "and lakes"]
