"""A thing the family sees on two screens has one name on both.

The teaching screen names a face through dice.po (``face_label``), the game through its own catalog: when the two
drifted apart, an English family taught "Water" and "Toys" was then asked about "Waters" and "Toys & games" and
could not tell they were the same die face. German had one word each all along."""

from __future__ import annotations

import re

import pytest

from companion import i18n
from companion.games.haste_worte import SYMBOLS, symbol_label
from companion.views.colour_faces import face_label

#: a game's own key for a face the dice catalog also names: "haste.symbol.car" beside "dice.face.car"
GAME_KEY = re.compile(r"(?P<domain>[a-z]+)\.(?:face|symbol|colour|chip)\.(?P<face>[\w?-]+)")


def _without_sign(name: str) -> str:
    """The teaching list may add the printed sign in brackets ("Colour joker (X)"); the name is what comes before."""
    return re.sub(r" \([^)]*\)$", "", name)


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_a_haste_symbol_is_taught_by_the_name_the_game_uses(lang):
    assert [face_label(s, lang) for s in SYMBOLS] == [symbol_label(s, lang) for s in SYMBOLS]


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_every_game_names_a_face_as_the_dice_catalog_does(lang):
    dice = i18n.catalog(lang, "dice")
    differ, compared = [], 0
    for domain in i18n.domains():
        if domain == "dice":
            continue
        for key, text in i18n.catalog(lang, domain).items():
            m = GAME_KEY.fullmatch(key)
            if not m or m["domain"] != domain:
                continue
            for dice_key in (f"dice.face.{m['face']}", f"dice.colour.{m['face']}"):
                if dice_key in dice:
                    compared += 1
                    if text != _without_sign(dice[dice_key]):
                        differ.append((key, text, dice_key, dice[dice_key]))
    assert compared >= 30  # colours of three games, Haste's symbols, the jokers: the scan finds them
    assert differ == []


#: where the English screen names Noch X-Mal! by both its names: the entries a family picks the game from (the
#: main menu's and the teaching menu's); everywhere else it is "Encore X!"
BOTH_NAMES = {"core.menu_noch_x_mal", "dice.set.noch-x-mal"}


def test_english_calls_noch_x_mal_encore_x_and_gives_both_names_only_where_it_is_chosen():
    """The menu said "Noch X-Mal! (Encore X!)", the welcome "Encore X!", the solo rating "NOCH X-MAL!": three names
    for one game in one evening."""
    texts = {key: text for domain in i18n.domains() for key, text in i18n.catalog("en", domain).items()}
    german = {key for key, text in texts.items() if "x-mal" in text.casefold()}
    assert german == BOTH_NAMES
    assert all("Encore X!" in texts[key] for key in BOTH_NAMES)
    assert sum("Encore X!" in text for text in texts.values()) > len(BOTH_NAMES)
