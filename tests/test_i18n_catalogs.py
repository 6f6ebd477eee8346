"""Every catalog of every domain is complete in every language: same keys, no empty text, same placeholders.

Domains are discovered from the locale folder at collection time, so a game's new catalog is checked the
moment it exists; nobody has to remember to add it here. A second check scans the source for literal keys
(``t("core.x")``, ``Announcement("haste.y")``) so a sentence used in code but missing from the catalogs fails
here, not at the table. """

from __future__ import annotations

import re
import string
from pathlib import Path

import pytest

from companion import i18n

ROOT = Path(__file__).resolve().parents[1]
DOMAINS = i18n.domains()
PAIRS = [(a, b) for a in i18n.LANGUAGES for b in i18n.LANGUAGES if a != b]


def placeholders(text: str) -> set[str]:
    """The {names} of a brace-format string (a broken brace raises ValueError: also a catalog bug)."""
    return {field.split(".")[0].split("[")[0] for _, field, _, _ in string.Formatter().parse(text)
            if field is not None}


def fresh_catalog(lang: str, domain: str) -> dict[str, str]:
    path = i18n.LOCALE_DIR / lang / f"{domain}.po"
    return i18n.parse_po(path.read_text(encoding="utf-8")) if path.exists() else {}


def test_languages_and_default():
    assert i18n.DEFAULT_LANGUAGE == "de" and set(i18n.LANGUAGES) == {"de", "en"}
    assert "core" in DOMAINS


@pytest.mark.parametrize("domain", DOMAINS)
def test_domain_has_a_file_per_language(domain):
    missing = [lang for lang in i18n.LANGUAGES if not (i18n.LOCALE_DIR / lang / f"{domain}.po").exists()]
    assert not missing, f"{domain}.po is missing for {missing}"


@pytest.mark.parametrize("domain", DOMAINS)
@pytest.mark.parametrize("lang,other", PAIRS)
def test_every_key_exists_in_every_language(domain, lang, other):
    mine, theirs = fresh_catalog(lang, domain), fresh_catalog(other, domain)
    missing = sorted(set(mine) - set(theirs))
    assert not missing, f"in {other}/{domain}.po these keys of {lang}/{domain}.po are missing: {missing}"


@pytest.mark.parametrize("domain", DOMAINS)
@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_no_key_is_written_twice(domain, lang):
    """A key written twice in one file: the later text silently wins, and the screen that used the first changes
    (a second "core.sound_off" nearly renamed the muted badge)."""
    ids = re.findall(r'^msgid "(.+)"', (i18n.LOCALE_DIR / lang / f"{domain}.po").read_text(encoding="utf-8"), re.M)
    assert sorted({i for i in ids if ids.count(i) > 1}) == []


@pytest.mark.parametrize("domain", DOMAINS)
@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_no_empty_text_and_keys_belong_to_their_domain(domain, lang):
    cat = fresh_catalog(lang, domain)
    empty = sorted(k for k, v in cat.items() if not v.strip())
    assert not empty, f"{lang}/{domain}.po has empty msgstr for {empty}"
    foreign = sorted(k for k in cat if k.split(".", 1)[0] != domain)
    assert not foreign, f"{lang}/{domain}.po holds keys of another domain: {foreign}"


@pytest.mark.parametrize("domain", DOMAINS)
def test_placeholders_match_between_languages(domain):
    cats = {lang: fresh_catalog(lang, domain) for lang in i18n.LANGUAGES}
    problems = []
    for key in set().union(*cats.values()):
        found = {}
        for lang, cat in cats.items():
            if key in cat:
                try:
                    found[lang] = placeholders(cat[key])
                except ValueError as exc:
                    problems.append(f"{lang} {key}: broken braces ({exc})")
        if len(set(map(frozenset, found.values()))) > 1:
            problems.append(f"{key}: {found}")
    assert not problems, "placeholders differ:\n" + "\n".join(sorted(problems))


@pytest.mark.parametrize("domain", DOMAINS)
@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_every_text_formats_with_its_placeholders(domain, lang):
    for key, text in fresh_catalog(lang, domain).items():
        names = placeholders(text)
        out = i18n.t(key, lang, **{n: f"<{n}>" for n in names}) if names else i18n.t(key, lang)
        assert all(f"<{n}>" in out for n in names)


KEY_IN_CODE = re.compile(r"""\b(?:t|Announcement)\(\s*["']([a-z][a-z0-9_-]*\.[a-z0-9_.]+)["']""")


def keys_used_in_code() -> dict[str, list[str]]:
    used: dict[str, list[str]] = {}
    for package in ("companion", "vision", "hardware"):
        for path in sorted((ROOT / package).rglob("*.py")):
            for key in KEY_IN_CODE.findall(path.read_text(encoding="utf-8")):
                used.setdefault(key, []).append(str(path.relative_to(ROOT)))
    return used


def test_the_scan_finds_keys():
    """Guard for the test below: if the pattern stopped matching, it would pass on nothing."""
    used = keys_used_in_code()
    assert "core.sound_off" in used and "core.speech_missing" in used


def test_every_key_used_in_code_is_in_the_catalogs():
    missing = []
    for key, files in sorted(keys_used_in_code().items()):
        domain = key.split(".", 1)[0]
        for lang in i18n.LANGUAGES:
            if key not in fresh_catalog(lang, domain):
                missing.append(f"{lang}/{domain}.po lacks {key} (used in {', '.join(sorted(set(files)))})")
    assert not missing, "\n".join(missing)


def test_the_catalog_check_can_fail(tmp_path, monkeypatch):
    """The completeness checks above really detect a gap: run them on a broken copy of the catalogs."""
    for lang in i18n.LANGUAGES:
        (tmp_path / lang).mkdir()
    de_po = 'msgid "demo.a"\nmsgstr "Hallo {name}"\n\nmsgid "demo.b"\nmsgstr ""\n'
    (tmp_path / "de" / "demo.po").write_text(de_po, encoding="utf-8")
    (tmp_path / "en" / "demo.po").write_text('msgid "demo.a"\nmsgstr "Hello {player}"\n', encoding="utf-8")
    monkeypatch.setattr(i18n, "LOCALE_DIR", tmp_path)
    assert i18n.domains() == ["demo"]
    with pytest.raises(AssertionError, match="demo.b"):
        test_every_key_exists_in_every_language("demo", "de", "en")
    with pytest.raises(AssertionError, match="empty msgstr"):
        test_no_empty_text_and_keys_belong_to_their_domain("demo", "de")
    with pytest.raises(AssertionError, match="placeholders differ"):
        test_placeholders_match_between_languages("demo")


def test_a_count_of_one_takes_the_word_for_one_in_both_languages():
    """"vorne · 1 Löcher" stood under a player's name, and "Anna, du hast 1 Punkte" was said aloud."""
    assert i18n.t("echt.view.note", "de", side="vorne", holes=1) == "vorne · 1 Loch"
    assert i18n.t("echt.view.note", "de", side="vorne", holes=2) == "vorne · 2 Löcher"
    assert i18n.t("echt.view.note", "en", side="front", holes=0) == "front · 0 holes"
    assert i18n.t("fritzo.over.draw", "de", points=-1) == "Spielende: unentschieden mit je minus einem Punkt."
    assert i18n.t("fritzo.over.draw", "de", points=1) == "Spielende: unentschieden mit je einem Punkt."
    assert i18n.t("fritzo.over.draw", "de", points=-3) == "Spielende: unentschieden mit je -3 Punkten."
    assert i18n.t("fritzo.over.draw", "en", points=-1) == "Game over: a draw at -1 point each."
    assert i18n.t("echt.setup.put_back_1", "de", dice=5).startswith("Legt einen Würfel ohne Extrakreuz zurück")
    assert i18n.t("fritzo.goal.done_in.beginner", "de", minutes=1, seconds=1).endswith(
        "in einer Minute und einer Sekunde.")
    assert i18n.t("haste.scored_goal_too", "de", player="Ben", n=1, total=1) == (
        "Ben bekommt einen Kristall und erreicht mit 1 auch das Ziel!")
    assert i18n.t("haste.error.dice_count", "en", n=1, dice=6).startswith("1 die was seen, but there are 6")
    # said aloud: a German one is an article in its case (espeak-ng reads a digit "eins")
    assert i18n.t("echt.solo.total", "de", player="Anna", points=1) == "Anna, du hast einen Punkt!"
    assert i18n.t("echt.solo.total", "de", player="Anna", points=12) == "Anna, du hast 12 Punkte!"
    assert i18n.t("haste.scored", "de", player="Ben", n=1, total=7) == "Ben bekommt einen Kristall und hat jetzt 7."


#: German texts where a whole sentence follows a colon: it starts with a capital (German orthography); several
#: wrote it in lower case beside the damaged-file notices that had been made consistent
SENTENCE_AFTER_COLON = ["core.source.stopped_pi", "core.config_salvaged", "core.config_unreadable", "core.config_aside",
                        "core.players_undrawable_start", "core.config_players_lost", "core.waiting_hand",
                        "core.players_err_undrawable", "core.resumed_over", "core.nothing_to_undo"]


@pytest.mark.parametrize("key", SENTENCE_AFTER_COLON)
def test_a_whole_sentence_after_a_colon_starts_with_a_capital_in_german(key):
    text = fresh_catalog("de", "core")[key]
    after = re.search(r"(?<!folder)(?<!video): (\S)", text)  # not "folder:" / "video:", the sources' own words
    assert after is not None and after.group(1).isupper(), text
