"""The English texts quote with curly quotes, as the German ones do with „ “: a screen said “Teach dice” in one
notice and "Teach dice" in the next. Straight quotes stay only where they are part of what is typed into a file (a
config line, a setup's JSON, a CSV), so copying the example copies what works."""

from __future__ import annotations

import re

from companion import i18n

#: texts whose straight quotes are typed as shown: players = ["Anna", "Ben"], car = "Cars", "" for the default
TYPED = {"core.config_players_why_form", "core.config_how_fullscreen", "core.config_how_output", "dice.err_name",
         "echt.err.players_format", "echt.err.extra_faces", "echt.err.kinds_in_level3", "echt.err.shapes_in_level12",
         "echt.err.kinds_format", "echt.err.values_one", "fritzo.err.at_missing", "haste.error.setup_players",
         "haste.error.setup_letters", "haste.error.setup_meanings", "haste.error.pick_what", "haste.error.timer_stamp",
         "nxm.err.dice_list", "teach.ex_err_quote", "core.config_how_rotate",
         "core.config_how_talk"}
#: a word in single quotes ('{face}'), not an apostrophe (Anna's, players')
SINGLE = re.compile(r"(?<![\w'])'[^'\n]+'(?!\w)")
#: a straight double quote that quotes: not the inch mark of a 7" screen
DOUBLE = re.compile(r'(?<!\d)"')


def english() -> dict[str, str]:
    return {key: text for domain in i18n.domains() for key, text in i18n.catalog("en", domain).items()}


def test_english_quotes_are_curly_except_what_is_typed_into_a_file():
    texts = english()
    straight = sorted(key for key, text in texts.items()
                      if key not in TYPED and (DOUBLE.search(text) or SINGLE.search(text)))
    assert straight == []
    assert sum("“" in text for text in texts.values()) > 40  # the prose quotes are there, curly


def test_every_text_kept_straight_still_has_something_typed_in_quotes():
    """A text on the list that lost its quotes should leave the list, or the list hides a new straight quote."""
    texts = english()
    assert [key for key in sorted(TYPED) if '"' not in texts[key]] == []


def test_curly_quotes_open_and_close_in_pairs():
    """(An apostrophe stays straight, Anna's: a ’ is a closing quote alone.)"""
    unpaired = [key for key, text in english().items()
                if text.count("“") != text.count("”") or text.count("‘") != text.count("’")]
    assert unpaired == []
