"""Every Echt Spitze string exists in German and English, with the same placeholders in both."""

from __future__ import annotations

import re
import string
from pathlib import Path

from companion.i18n import catalog

ROOT = Path(__file__).resolve().parents[1]
SOURCES = [*sorted((ROOT / "companion" / "games" / "echt_spitze").glob("*.py")),
           ROOT / "companion" / "views" / "echt_spitze_view.py"]
#: keys built with f-strings in the engine, expanded by hand
BUILT = [f"echt.err.final_{k}" for k in ("stars", "leftover", "diagonals", "diamonds")] + \
    [f"echt.err.hive_black_{side}" for side in ("front", "back")] + \
    [f"echt.report.hive_not_counted_{k}_{side}" for k in ("black", "crossed") for side in ("front", "back")] + \
    [f"echt.err.wait_{p}" for p in ("roll", "take", "middle", "reroll", "score", "final", "over")] + \
    [f"echt.final.sum_level{n}" for n in (1, 2, 3)] + \
    [f"echt.first.{w}_{n}" for w in ("kind", "shape") for n in ("one", "many", "all", "which")] + \
    ["echt.later.kind", "echt.later.shape", "echt.setup.put_back_1", "echt.setup.put_back_2"] + \
    [f"echt.solo.{w}_{h}" for w in ("kind", "shape") for h in ("high", "low")] + \
    [f"echt.report.{w}_{side}" for w in ("pierced", "slipped") for side in ("front", "back")]


def placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def test_german_and_english_have_the_same_keys_and_placeholders():
    de, en = catalog("de", "echt"), catalog("en", "echt")
    assert de and set(de) == set(en)
    for key in de:
        assert placeholders(de[key]) == placeholders(en[key]), key
        assert de[key].strip() and en[key].strip(), key


def test_every_key_in_the_code_is_in_the_catalogs():
    used = set(BUILT)
    for path in SOURCES:
        if path.exists():
            source = path.read_text(encoding="utf-8")
            used |= set(re.findall(r'(?<![{\w])"(echt\.[a-z0-9_.]+[a-z0-9])"', source))
    assert len(used) > 100
    de, en = catalog("de", "echt"), catalog("en", "echt")
    missing = sorted(k for k in used if k not in de or k not in en)
    assert not missing
