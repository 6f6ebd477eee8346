"""The transcripts the documents show play, and what they say the companion prints is what it prints.

A reader copies these first; one page's example had drifted from the program's words ("Ben first: column H is
full!" where it says "Ben first to fill column H!")."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from companion.games import engine_class
from companion.games.base import play_transcript

ROOT = Path(__file__).resolve().parents[1]
PAGES = {"echt_spitze.md": "echt-spitze", "noch_x_mal.md": "noch-x-mal", "haste_worte.md": "haste-worte",
         "fritzo.md": "fritzo"}
BLOCK = re.compile(r"^```[a-z]*\n(.*?)^```\n", re.S | re.M)


def examples() -> list[tuple[str, str, list[str], str, list[str]]]:
    """(page, game, transcript lines, language, the lines the page says are printed) of every transcript shown:
    in a game's page that game's; in the README the game of the ``companion play`` command above it."""
    found = []
    for page in [*(ROOT / "docs" / name for name in PAGES), ROOT / "README.md"]:
        text = page.read_text(encoding="utf-8")
        blocks = list(BLOCK.finditer(text))
        for i, block in enumerate(blocks):
            lines = block.group(1).splitlines()
            if not lines or not lines[0].startswith('{"action": "setup"'):
                continue
            game = PAGES.get(page.name) or re.findall(r"companion play (\S+)", text[:block.start()])[-1]
            between = text[block.end():blocks[i + 1].start()].split() if i + 1 < len(blocks) else []
            says = between[:1] == ["prints"]  # "prints (English):" and the next block, what is printed
            printed = blocks[i + 1].group(1).splitlines() if says else []
            lang = "en" if says and between[1] == "(English):" else "de"
            found.append((page.name, game, lines, lang, printed))
    return found


EXAMPLES = examples()


def test_every_games_page_shows_a_transcript():
    assert {game for _, game, *_ in EXAMPLES} == set(PAGES.values())
    assert any(printed for *_, printed in EXAMPLES)


@pytest.mark.parametrize(("page", "game", "lines", "lang", "printed"), EXAMPLES,
                         ids=[f"{e[0]}-{n}" for n, e in enumerate(EXAMPLES)])
def test_a_documented_transcript_plays_and_prints_what_the_page_says(page, game, lines, lang, printed):
    out = io.StringIO()
    play_transcript(engine_class(game), lines, out, lang=lang)
    said = [line for line in out.getvalue().splitlines() if line.startswith("[")]
    if printed:
        assert said == printed


def test_a_sentence_a_page_quotes_from_its_example_is_said():
    """Echt Spitze's page quotes one announcement of its example."""
    text = (ROOT / "docs" / "echt_spitze.md").read_text(encoding="utf-8")
    quoted = re.search(r'announces among others "(.+?)"', text.replace("\n", " "))
    assert quoted is not None
    (_, game, lines, _, _), = [e for e in EXAMPLES if e[0] == "echt_spitze.md"]
    out = io.StringIO()
    play_transcript(engine_class(game), lines, out, lang="en")
    assert quoted.group(1) in out.getvalue()
