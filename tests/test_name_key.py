"""Names are told apart one way everywhere (``names.name_key``): "ANNA" is "Anna" and "Zoë" typed with a
combining accent is "Zoë", but "Strauß" is not "Strauss". ``str.casefold`` made ß "ss": the players screen and the
config refused the two as one name, and had they been let through, three of the four games refused them at their
start and gave a step naming Strauss to Strauß."""

from __future__ import annotations

import pytest

from companion import config, speech
from companion.games import engine_class
from companion.games_ui import register_all
from companion.names import name_key, pictograph
from companion.views.players_view import name_problem

TWINS = ["Strauß", "Strauss", "Anna"]


def test_the_key_folds_case_and_composition_but_keeps_sharp_s():
    assert name_key(" ANNA ") == name_key("anna")
    assert name_key("Zoe\u0308") == name_key("Zoë")
    assert name_key("Strauß") != name_key("Strauss")
    assert name_key("STRAUẞ") == name_key("Strauß")


def test_the_config_and_the_players_screen_take_strauss_beside_strauss_with_sharp_s():
    assert config.from_dict({"players": TWINS}).players == TWINS
    assert name_problem(TWINS, "de") is None
    with pytest.raises(config.ConfigError):
        config.from_dict({"players": ["Anna", "ANNA"]})
    assert name_problem(["Anna", "ANNA"], "de") is not None


def _seat_named(game: str, engine, name: str) -> str:
    """The seat a step naming ``name`` goes to, as each engine finds it."""
    if game == "echt-spitze":
        return engine._player(engine.state, name).name
    if game == "noch-x-mal":
        return engine.state.players[engine._seat(name)].name
    return engine.players[engine._player(name)]


@pytest.mark.parametrize("game", ["echt-spitze", "noch-x-mal", "haste-worte"])
def test_the_games_start_with_both_and_give_each_their_own_steps(game):
    """(Fritzo compares no names: its setup took them before.)"""
    register_all()
    engine = engine_class(game).new({"action": "setup", "players": TWINS, "seed": 3})
    assert [p if isinstance(p, str) else p["name"] for p in engine.to_json()["players"]][:3] == TWINS
    assert _seat_named(game, engine, "Strauss") == "Strauss"
    assert _seat_named(game, engine, "strauß ") == "Strauß"


def test_emoji_are_no_part_of_the_key_as_they_are_no_part_of_what_is_said():
    """"Anna ★" beside "Anna" were two players both said "Anna"; the key drops what the announcer drops, by one
    rule (``pictograph``, which ``speech.speakable`` uses too)."""
    assert name_key("Anna ★") == name_key("anna") == name_key("🦄 ANNA 👍🏽")
    assert name_key("Anna🦄Ben") == name_key("Anna Ben") != name_key("AnnaBen")
    assert name_key("Jo ❤️") == name_key("Jo") and name_key("1️⃣") == name_key("1")
    assert name_key("Zoë ★") != name_key("Zoe")
    for name in ("Anna ★", "Anna🦄Ben", "Jo ❤️ 1️⃣"):
        assert name_key(name) == name_key(speech.speakable(name))
    assert speech.pictograph is pictograph


@pytest.mark.parametrize("game", ["echt-spitze", "noch-x-mal", "haste-worte"])
def test_a_step_naming_a_player_finds_them_with_or_without_their_emoji(game):
    register_all()
    engine = engine_class(game).new({"action": "setup", "players": ["Anna ★", "Ben"], "seed": 3})
    assert _seat_named(game, engine, "Anna") == "Anna ★"


def test_the_name_rules_are_plain_text_the_engines_may_import():
    """``companion.names`` is what the engines, the config, the screen, the session and the announcer share: it
    must bring in no screen, no config and no game (an engine importing it stays pure)."""
    import subprocess
    import sys

    code = ("import sys, companion.names; bad = [m for m in sys.modules if m.split('.')[0] in ('pygame', 'numpy')"
            " or m.startswith(('companion.config', 'companion.games', 'companion.views', 'companion.i18n'))]; "
            "print(bad); sys.exit(bool(bad))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_config_and_the_screen_differ_where_meant_the_order_of_their_own_checks():
    """One order of rules (``first_name_problem``); the config adds what a file can bring (a line break, a hidden
    character) before the letters, the screen what it cannot draw after them and before "nothing to say"."""
    from companion.names import first_name_problem

    assert first_name_problem(["\u0410nna\tB", "Ben"]) == ("mixed", {"name": "\u0410nna", "letter": "\u0410"}, 0)
    assert first_name_problem(["\u0410nna\tB", "Ben"], one_line=True) == ("line_break", {"name": "\u0410nna\tB"}, 0)
    assert first_name_problem(["Ben\u200d", "\u0410nna"], one_line=True)[:2] == (
        "hidden", {"name": "Ben\u200d", "char": "\u200d"})
    assert first_name_problem(["♥", "Ben", "Mia"]) == ("unsaid", {"name": "♥"}, 0)
    assert first_name_problem(["♥", "Ben", "Mia"], undrawn=lambda k, n: n == "Mia") == ("undrawn", {"name": "Mia"}, 2)
    assert first_name_problem(["Ca\u0440la", "Mia"], undrawn=lambda k, n: n == "Mia")[0] == "mixed"
    assert first_name_problem([" Zoe\u0308 ", "Anna  Maria"]) is None
    assert first_name_problem(["Zoe\u0308", "Zoë"]) == ("twice", {"name": "Zoë"}, 1)
    assert first_name_problem(["Anna", "b", "c", "d", "e", "f", "g"]) == ("count", {"n": 7}, None)
