"""Players' names as text: written one way, told apart one way, and the rules a list of them must meet.

One place for them because five places read names: the config when it loads the file, the players screen while a
family types, the session, the announcer (``speech``) and every game engine's setup and the steps naming a player.
When each kept its own copy, a rule added to one was missed in another ("Anna ★" taken by one and refused by the
next). Standard library only (no pygame, no config, no game): a pure text rule, with no screen, clock, device or
randomness, so the engines may import it and stay within DESIGN.md's boundary for them.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Sequence
from typing import Any

#: the list the config and the players screen take: 1 to 6 players, each name to 20 letters so it fits the screen
FEWEST_PLAYERS = 1
MOST_PLAYERS = 6
LONGEST_NAME = 20
#: what breaks a name's line (tabs too): a name is written on one line (``first_name_problem``'s ``one_line``)
LINE_BREAKS = "\r\n\t\v\f\x85\u2028\u2029"

#: a run of spaces inside a name (no-break and thin ones too), but not a line break or a tab: those are refused
_SPACES = re.compile(r"[^\S\r\n\t\v\f\x1c-\x1f\x85\u2028\u2029]+")
#: alphabets whose letters look alike ("A" Latin, "А" Cyrillic, "Α" Greek): one word is written in one of them
_LOOKALIKE_SCRIPTS = ("LATIN", "CYRILLIC", "GREEK")


def pictograph(ch: str) -> bool:
    """Whether ``ch`` is part of an emoji or another pictograph rather than of a word: symbols (So: 🦄, ★, ✓),
    a keycap's enclosing mark, variation selectors and skin-tone modifiers (the ZWJ joining a family emoji is a
    format character). The announcer leaves them unsaid (``speech.speakable``), so names are told apart without
    them (:func:`name_key`)."""
    code = ord(ch)
    return (unicodedata.category(ch) in ("So", "Me") or 0xFE00 <= code <= 0xFE0F or 0xE0100 <= code <= 0xE01EF
            or 0x1F3FB <= code <= 0x1F3FF)


def name_key(name: str) -> str:
    """What tells one player's name from another's, wherever names are compared (the config, the players screen,
    the session, every engine's setup and the steps naming a player): "ANNA" is "Anna", and "Zoë" typed as "e" and
    a combining accent is "Zoë"; but "Strauß" is not "Strauss" (``str.casefold`` makes ß "ss": two families'
    names refused as one, or one's moves given to the other). Emoji and other pictographs are no part of it, as
    they are no part of what the announcer says: "Anna ★" beside "Anna" were two players both called "Anna", and
    "Anna★Ben" is said as "Anna Ben" is.

    >>> name_key(" ANNA "), name_key("Strauß") == name_key("Strauss"), name_key("Zoe\u0308") == name_key("Zoë")
    ('anna', False, True)
    >>> name_key("Anna ★") == name_key("anna"), name_key("Anna🦄Ben") == name_key("Anna Ben")
    (True, True)
    """
    plain = "".join(" " if pictograph(ch) else ch for ch in unicodedata.normalize("NFC", name))
    return " ".join(plain.split()).lower()


def player_name(name: str) -> str:
    """A player's name stripped, its inner spaces one each, and written one way (NFC): "Zoé" saved on a Mac (e and a
    combining accent) looked the same as the "Zoé" typed on the Pi, and "Anna  Maria" (two spaces) as "Anna Maria";
    each pair was taken as two players. The screen's entry types no double space either."""
    return unicodedata.normalize("NFC", _SPACES.sub(" ", name.strip()))


def sayable(name: str) -> bool:
    """Whether ``name`` has a letter or a digit: the announcer leaves emoji and symbols unsaid, so "♥" was a player
    nobody heard ("♥ beginnt." was "beginnt.") and "☺☺" a second one, told apart from "♥" by nothing said."""
    return any(ch.isalnum() for ch in name)


def same_but_pictographs(name: str, other: str) -> bool:
    """Whether two names of one ``name_key`` differ as typed, by emoji or symbols only ("Anna ★" and "Anna"): each
    is said "Anna", and the table is told so, not "Anna ★ is there twice"."""
    return unicodedata.normalize("NFC", name).lower() != unicodedata.normalize("NFC", other).lower()


def _script(ch: str) -> str | None:
    """Which of the look-alike alphabets a letter is from (None: another one, or no letter)."""
    if not ch.isalpha():
        return None
    first = unicodedata.name(ch, "").split(" ", 1)[0]
    return first if first in _LOOKALIKE_SCRIPTS else None


def mixed_letter(name: str) -> tuple[str, str] | None:
    """The first word of ``name`` that mixes Latin, Cyrillic and Greek letters, with its letter from the alphabet
    the rest of the word is not in (None: none does). "Аnna" with a Cyrillic А looks like "Anna" on every screen
    and was taken as a second Anna; no name writes one word in two of these alphabets."""
    for word in name.split():
        scripts = [s for s in map(_script, word) if s is not None]
        if len(set(scripts)) < 2:
            continue
        main = max(dict.fromkeys(scripts), key=scripts.count)  # most of the word; on a tie, the first letter's
        return word, next(ch for ch in word if _script(ch) not in (None, main))
    return None


#: a rule a list of names breaks (``first_name_problem``): which (``how``), the values a reader's words for it take
#: (names as ``player_name`` writes them), and the place of the name at fault (None: the list's length)
NameProblem = tuple[str, dict[str, Any], int | None]


def first_name_problem(names: Sequence[str], *, one_line: bool = False,
                       undrawn: Callable[[int, str], bool] | None = None) -> NameProblem | None:
    """The first rule ``names`` (strings, as typed or read) break, or None: one order for the config and the players
    screen, so the screen refuses a list with the problem the config would name, each in its own words (the config's
    English and repair notice, the screen's message in the player's language).

    The ``how``, in order, with its values: "blank" (none); a name said as an earlier one (``name_key``, names with
    nothing said left out: they are refused as that, not as twins) "said_alike" (name, other) where they differ as
    typed by emoji only, else "twice" (name); "count" (n) outside ``FEWEST_PLAYERS``..``MOST_PLAYERS``; "long"
    (name) beyond ``LONGEST_NAME``; with ``one_line`` (the config: a file can hold what no key of the screen types)
    "line_break" (name) then "hidden" (name, char: the first that is not printable, "👩‍👩‍👧"'s joiner U+200D);
    "mixed" (name: the word, letter); with ``undrawn`` (the screen: whether it cannot draw name k, asked of no name
    it returns False for; the config has no font to ask) "undrawn" (name); last "unsaid" (name), which the config
    names after the characters it cannot show and the screen after the ones it cannot draw."""
    names = [player_name(n) for n in names]
    if (blank := next((k for k, n in enumerate(names) if not n), None)) is not None:
        return "blank", {}, blank
    seen: dict[str, str] = {}
    for k, n in enumerate(names):
        if not sayable(n):
            continue
        if (other := seen.get(name_key(n))) is not None:
            if same_but_pictographs(n, other):  # "Anna ★" beside "Anna": both said "Anna"
                return "said_alike", {"name": n, "other": other}, k
            return "twice", {"name": n}, k
        seen[name_key(n)] = n
    if not FEWEST_PLAYERS <= len(names) <= MOST_PLAYERS:
        return "count", {"n": len(names)}, None
    if (long := next((k for k, n in enumerate(names) if len(n) > LONGEST_NAME), None)) is not None:
        return "long", {"name": names[long]}, long
    if one_line:
        if (broken := next((k for k, n in enumerate(names) if any(c in LINE_BREAKS for c in n)), None)) is not None:
            return "line_break", {"name": names[broken]}, broken
        if hidden := next(((k, c) for k, n in enumerate(names) for c in n if not c.isprintable()), None):
            return "hidden", {"name": names[hidden[0]], "char": hidden[1]}, hidden[0]
    if mixed := next(((k, found) for k, n in enumerate(names) if (found := mixed_letter(n))), None):
        k, (word, letter) = mixed  # "Аnna" typed on a Russian keyboard layout: it looks like "Anna", and is not
        return "mixed", {"name": word, "letter": letter}, k
    if undrawn is not None and (box := next((k for k, n in enumerate(names) if undrawn(k, n)), None)) is not None:
        return "undrawn", {"name": names[box]}, box
    if (unsaid := next((k for k, n in enumerate(names) if not sayable(n)), None)) is not None:
        return "unsaid", {"name": names[unsaid]}, unsaid
    return None
