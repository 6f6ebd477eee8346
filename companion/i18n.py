"""Every string on the screen and every spoken sentence, in German (the default) and English.

Catalogs are gettext ``.po`` files, one per language and domain: ``companion/locale/<lang>/<domain>.po``.
Message ids are symbolic keys (``haste.times_up``) whose prefix before the first dot is the domain, so each game
owns its own catalog file. Placeholders use Python's brace format (``{player}``); a count's word is chosen in the
text, ``{holes} {holes:|Loch|Löcher}`` (the word for one, then for any other count), which both languages need and
gettext's plural forms would spread over several entries. We read ``.po`` directly
instead of compiling ``.mo`` files: the catalogs are small, and it spares the install a build step and a tool.

>>> t("core.app_title", "en")
'Table companion'
"""

from __future__ import annotations

import ast
import errno
import functools
import re
import string
from pathlib import Path

from companion import paths

LANGUAGES = ("de", "en")
DEFAULT_LANGUAGE = "de"
LOCALE_DIR = Path(__file__).parent / "locale"


class MissingTranslation(KeyError):
    """A key has no entry in a language's catalog: a bug caught by the catalog tests, not a player's error."""


def parse_po(text: str) -> dict[str, str]:
    """Parse the msgid/msgstr pairs of a ``.po`` file (no gettext plurals or contexts: a count's word is chosen
    inside the text, ``{n:|die|dice}``)."""
    entries: dict[str, str] = {}
    msgid: list[str] | None = None
    msgstr: list[str] | None = None
    current: list[str] | None = None

    def flush() -> None:
        if msgid is not None and msgstr is not None:
            key = "".join(msgid)
            if key:
                entries[key] = "".join(msgstr)

    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("msgid "):
            flush()
            msgid, msgstr = [ast.literal_eval(line[6:])], None
            current = msgid
        elif line.startswith("msgstr "):
            msgstr = [ast.literal_eval(line[7:])]
            current = msgstr
        elif line.startswith('"') and current is not None:
            current.append(ast.literal_eval(line))
    flush()
    return entries


@functools.cache
def catalog(lang: str, domain: str) -> dict[str, str]:
    path = LOCALE_DIR / lang / f"{domain}.po"
    if not path.exists():
        return {}
    return parse_po(path.read_text(encoding="utf-8"))


def domains() -> list[str]:
    names: set[str] = set()
    for lang in LANGUAGES:
        names.update(p.stem for p in (LOCALE_DIR / lang).glob("*.po"))
    return sorted(names)


def t(key: str, lang: str = DEFAULT_LANGUAGE, **params: object) -> str:
    """Translate ``key`` into ``lang`` and fill in ``params``.

    A missing key raises :class:`MissingTranslation` so that tests find it; the catalog test checks that both
    languages have every key.
    """
    domain = key.split(".", 1)[0]
    entry = catalog(lang, domain).get(key)
    if entry is None:
        raise MissingTranslation(f"no {lang} text for {key!r} in {domain}.po")
    if _KEY_WORDS and not key.startswith(("core.btn_", "core.key")):
        pattern, words = _KEY_WORDS[lang]
        entry = pattern.sub(lambda m: words[m.group(0)], entry)
    if not params:
        return entry
    return _COUNTED.format(entry, **params) if ":|" in entry else entry.format(**params)


#: per language, the buttons' names in sentences -> the keys' words, while the keyboard is the table's buttons
#: (``say_keys``); empty with arcade buttons
_KEY_WORDS: dict[str, tuple[re.Pattern[str], dict[str, str]]] = {}


def say_keys(on: bool) -> None:
    """Sentences name the keyboard's keys where they name a button ("then press Space", not "press ROLL"): on a
    laptop there is no ROLL to press, and the hint bar alone named the keys while the screen's middle and the
    voice said the buttons. Only the texts' own words change, never a filled-in name (a player called "UHR").
    Set with the hint bar's key names (``views.widgets.name_keys``), for both languages at once."""
    _KEY_WORDS.clear()
    if not on:
        return
    for lang in LANGUAGES:
        core = catalog(lang, "core")
        buttons = [k.removeprefix("core.btn_") for k in core if k.startswith("core.btn_")]
        words = {core[f"core.btn_{b}"]: core[f"core.keyword_{b}"] for b in buttons}
        names = "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))
        _KEY_WORDS[lang] = (re.compile(rf"(?<!\w)(?:{names})(?!\w)"), words)


class _Counted(string.Formatter):
    """``{holes:|Loch|Löcher}``: the word for one (1 or -1) or for any other count of ``holes``. At the table "1
    Löcher" stood under a player's name all evening, and "du hast 1 Punkte" was said aloud. The words may hold the
    count (``{points:|einen Punkt|{points} Punkte}``): a German one is an article in its case, which espeak-ng would
    read "eins" from a digit; a third word is for -1 (``{points:|einem Punkt|{points} Punkten|minus einem Punkt}``),
    else such texts are for counts that are never negative."""

    def format_field(self, value: object, format_spec: str) -> str:
        if format_spec.startswith("|"):
            one, _, other = format_spec[1:].partition("|")
            other, _, minus_one = other.partition("|")  # a third word for -1, where the word for one holds no sign
            if minus_one and value == -1:
                return minus_one
            return one if isinstance(value, int | float) and abs(value) == 1 else other
        return super().format_field(value, format_spec)


_COUNTED = _Counted()


def join_names(names: list[str], lang: str = DEFAULT_LANGUAGE) -> str:
    """'Anna', 'Anna and Ben', 'Anna, Ben and Carl' (German: 'und')."""
    if not names:
        return ""
    if len(names) == 1:
        return names[0]
    return f"{', '.join(names[:-1])} {t('core.and', lang)} {names[-1]}"


def disk_words(exc: OSError, lang: str = DEFAULT_LANGUAGE) -> str:
    """What a disk's refusal means at the table: the usual ones in the player's words, others as the system says."""
    key = {errno.ENOSPC: "core.disk_full", errno.EROFS: "core.disk_read_only", errno.EACCES: "core.disk_refused",
           errno.EPERM: "core.disk_refused", errno.EIO: "core.disk_broken", errno.EISDIR: "core.disk_in_the_way",
           errno.ENOTDIR: "core.disk_in_the_way", errno.EEXIST: "core.disk_in_the_way",
           errno.ENOENT: "core.disk_gone"}.get(exc.errno)
    return t(key, lang) if key else (exc.strerror or str(exc))


def refused_words(exc: BaseException, lang: str = DEFAULT_LANGUAGE) -> str | None:
    """A folder that refused its files, named, with the remedy for whoever set the companion up; None for any other
    error (``keine Berechtigung für diese Datei`` named neither the folder nor what to do)."""
    folder = paths.refused_folder(exc)
    if folder is None:
        return None
    return t("core.disk_refused_folder", lang, folder=paths.short_path(folder), fix=paths.folder_fix(folder))


def said(exc: Exception, lang: str = DEFAULT_LANGUAGE) -> str:
    """An error of ours in the table's language where it carries its words (a picture source's), else as it is."""
    words = getattr(exc, "words", "")
    return t(words, lang, **getattr(exc, "params", {})) if isinstance(words, str) and words else str(exc)


def error_words(exc: Exception, lang: str = DEFAULT_LANGUAGE) -> str:
    """An error for a message that goes on after it: a disk's refusal in the player's words, ours as they are."""
    return disk_words(exc, lang) if isinstance(exc, OSError) else said(exc, lang).rstrip(". ")
