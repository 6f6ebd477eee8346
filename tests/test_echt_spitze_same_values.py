"""Two kinds (or shapes) printed with the same two values are two kinds: first to score is each one's own.

The companion cannot see the sheet, and the screen names a kind it was not told of by its values ("5/3"). Pears 5/3
and plums 5/3 were merged under that name: Ben, first with the plums, was told "5/3 for Ben: 3 points", and Anna's
own plums could not be reported at all. Now choosing values that a known kind has asks which kind it is.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from test_echt_spitze import plain_roll, play_turn, texts

from companion.games.echt_spitze import EchtSpitze, Phase
from companion.journal import Journal
from companion.session import GameSession
from companion.views.echt_spitze_view import EchtSpitzeMode
from hardware.events import Button, ButtonEvent, Press


def table(tmp_path, players: list[str], lang: str = "en", **setup: Any) -> tuple[GameSession, EchtSpitzeMode]:
    s = GameSession.new(EchtSpitze, {"action": "setup", "players": players, **setup},
                        Journal(tmp_path / "journal"), lang=lang, rng=random.Random(3))
    return s, EchtSpitzeMode(s)


def to_crossing(s: GameSession) -> None:
    """Roll, everybody takes the first free die, leave the middle: the table crosses and reports."""
    assert s.apply({"action": "roll", "dice": plain_roll(s.engine)}), s.error
    while s.engine.current_taker is not None:
        assert s.apply({"action": "take", "die": s.engine.middle[0] + 1}), s.error
    assert s.apply({"action": "leave"}), s.error


def labels(mode: EchtSpitzeMode) -> list[str]:
    mode.update(0.03, 0.0)
    assert mode.menu is not None
    return [item.label for item in mode.menu.items]


def choose(mode: EchtSpitzeMode, start: str) -> None:
    """NEXT to the line that starts so, SELECT (as the buttons do it)."""
    lines = labels(mode)
    target = next(k for k, line in enumerate(lines) if line.startswith(start))
    for _ in range(len(lines)):
        if mode.menu.index == target:
            break
        mode.on_button(ButtonEvent(Button.NEXT, Press.SHORT))
    assert mode.menu.index == target
    mode.on_button(ButtonEvent(Button.SELECT, Press.SHORT))


def report_values(mode: EchtSpitzeMode, player: str, hi: int, lo: int, what: str = "Kind complete") -> None:
    choose(mode, player)
    choose(mode, what)
    choose(mode, f"Higher value: {hi}")
    choose(mode, f"{hi} / {lo}")


def end_turn(s: GameSession, mode: EchtSpitzeMode) -> list[str]:
    before = len(s.actions)
    choose(mode, "End the turn")
    assert len(s.actions) == before + 1 and s.actions[-1] == {"action": "end_turn"}, s.error
    return [a.text(s.lang) for n, a in s._said if n == len(s.actions)]


def test_a_second_kind_of_the_same_values_is_first_to_score_on_its_own(tmp_path):
    """The audit's table: Anna first with pears 5/3; Ben next turn first with plums 5/3 (he gets 5, not 3, and the
    table hears that it is not Anna's kind); Anna's own plums later are reported as Ben's kind, at 3."""
    s, mode = table(tmp_path, ["Anna", "Ben"])
    to_crossing(s)
    report_values(mode, "Anna", 5, 3)  # nothing of 5/3 known: reported at once
    assert s.engine.state.players[0].report.kinds == ["5/3"]
    said = end_turn(s, mode)
    assert "Anna was first with the 5/3: circle the 5; everybody else crosses out the 5." in said

    to_crossing(s)
    choose(mode, "Ben")
    assert labels(mode)[0] == "5/3 complete"  # Anna's kind, the same sheet: offered as it was
    choose(mode, "Kind complete")
    choose(mode, "Higher value: 5")
    choose(mode, "5 / 3")
    assert mode._status() == "Ben: which kind with 5/3?"
    assert labels(mode) == ["The same kind as Anna", "Another kind with 5/3"]
    choose(mode, "Another kind")
    assert s.actions[-1] == {"action": "report", "player": "Ben", "kind": "5/3 (2)", "values": [5, 3]}
    assert "Ben: 5/3 no. 2" in labels(mode)
    said = end_turn(s, mode)
    assert s.engine.state.players[1].scored == {"5/3 (2)": 5}
    assert "Ben was first with the 5/3 no. 2: circle the 5; everybody else crosses out the 5." in said
    assert "Not the 5/3 kind Anna had: Ben, which symbols? Everybody else crosses out the 5 of that kind." in said

    to_crossing(s)
    choose(mode, "Anna")
    assert labels(mode)[:1] == ["5/3 no. 2 complete (like Ben)"]  # her own 5/3 is not offered again
    choose(mode, "Back")
    report_values(mode, "Anna", 5, 3)  # her second kind of 5/3: not greyed out, asked which
    assert labels(mode) == ["The same kind as Ben", "Another kind with 5/3"]
    choose(mode, "The same kind as Ben")
    said = end_turn(s, mode)
    assert s.engine.state.players[0].scored == {"5/3": 5, "5/3 (2)": 3}
    assert "5/3 no. 2 for Anna: 3 points." in said


def test_a_third_player_tells_the_two_kinds_apart_by_who_has_them(tmp_path):
    s, mode = table(tmp_path, ["Anna", "Ben", "Carl"])
    for player, kind in (("Anna", "5/3"), ("Ben", "5/3 (2)")):
        to_crossing(s)
        assert s.apply({"action": "report", "player": player, "kind": kind, "values": [5, 3]}), s.error
        assert s.apply({"action": "end_turn"}), s.error
    to_crossing(s)
    choose(mode, "Carl")
    assert labels(mode)[:2] == ["5/3 complete (like Anna)", "5/3 no. 2 complete (like Ben)"]
    choose(mode, "Back")
    report_values(mode, "Carl", 5, 3)
    assert labels(mode) == ["The same kind as Anna", "The same kind as Ben", "Another kind with 5/3"]
    mode.on_button(ButtonEvent(Button.UNDO, Press.SHORT))  # back to the values, on the pair chosen
    assert mode._status() == "Carl: higher / lower value?"
    assert labels(mode)[mode.menu.index] == "5 / 3"


def test_the_same_kind_in_the_same_turn_is_asked_about_and_both_are_first(tmp_path):
    s, mode = table(tmp_path, ["Anna", "Ben", "Carl"])
    to_crossing(s)
    report_values(mode, "Anna", 5, 3)
    report_values(mode, "Ben", 5, 3)  # Anna's 5/3 is known from her report this turn
    assert labels(mode) == ["The same kind as Anna", "Another kind with 5/3"]
    choose(mode, "The same kind as Anna")
    said = end_turn(s, mode)
    assert [p.scored for p in s.engine.state.players] == [{"5/3": 5}, {"5/3": 5}, {}]
    assert any(line.startswith("Anna and Ben were first with the 5/3 together") for line in said)
    assert not any(line.startswith("Another ") for line in said)


@pytest.mark.parametrize("lang", ["de", "en"])
def test_two_kinds_of_the_same_values_first_in_one_turn_are_said_apart(lang):
    game = EchtSpitze.new({"action": "setup", "players": ["Anna", "Ben", "Carl"]})
    said = play_turn(game, [{"player": "Anna", "kind": "5/3", "values": [5, 3]},
                            {"player": "Ben", "kind": "5/3 (2)", "values": [5, 3]}])
    assert [p.scored for p in game.state.players] == [{"5/3": 5}, {"5/3 (2)": 5}, {}]
    expected = {
        "en": ["Anna was first with the 5/3: circle the 5; everybody else crosses out the 5.",
               "Ben was first with the 5/3 no. 2: circle the 5; everybody else crosses out the 5.",
               "Not the 5/3 kind Anna had: Ben, which symbols? Everybody else crosses out the 5 of that kind."],
        "de": ["Anna zuerst mit 5/3: die 5 einkreisen, alle anderen streichen sie!",
               "Ben zuerst mit 5/3 Nr. 2: die 5 einkreisen, alle anderen streichen sie!",
               "Eine andere 5/3-Symbolart als bei Anna: Ben, welche Symbole? Alle anderen streichen die 5 dieser "
               "Symbolart!"],
    }[lang]
    lines = texts(said, lang)
    assert [line for line in lines if line in expected] == expected
    assert all(a.essential for a in said if a.key.startswith("echt.first."))


def test_kinds_with_names_of_their_own_or_everybody_at_once_need_no_word_on_which():
    """Pears and plums named in the setup are said by name; everybody at once leaves nobody to cross out."""
    game = EchtSpitze.new({"action": "setup", "players": ["Anna", "Ben"],
                           "kinds": {"pears": [5, 3], "plums": [5, 3]}})
    said = play_turn(game, [{"player": "Anna", "kind": "pears"}]) + play_turn(game, [{"player": "Ben",
                                                                                      "kind": "plums"}])
    assert not [a for a in said if a.key.endswith("_which")]
    assert game.points("Ben") == 5
    said = play_turn(game, [{"player": "Anna", "kind": "5/3", "values": [5, 3]},
                            {"player": "Ben", "kind": "5/3", "values": [5, 3]}])
    assert [a.key for a in said if a.key.startswith("echt.first.")] == ["echt.first.kind_all"]


def test_an_old_journal_naming_one_kind_twice_replays_as_it_was_entered():
    """Journals and transcripts name kinds themselves: a second report of "5/3" stays the same kind (the lower
    value), as it was when they were written."""
    game = EchtSpitze.new({"action": "setup", "players": ["Anna", "Ben"]})
    play_turn(game, [{"player": "Anna", "kind": "5/3", "values": [5, 3]}])
    said = play_turn(game, [{"player": "Ben", "kind": "5/3", "values": [5, 3]}])
    assert "5/3 for Ben: 3 points." in texts(said)
    assert game.state.overview == {"5/3": [5, 3]}


def test_names_by_values():
    from companion.games.echt_spitze.engine import another_kind, by_values, kind_words

    assert by_values("5/3") == (5, 3, 1) and by_values("5/3 (2)") == (5, 3, 2) and by_values("lemons") is None
    assert another_kind({}, [5, 3]) == "5/3"
    assert another_kind({"5/3": [5, 3], "5/3 (2)": [5, 3]}, [5, 3]) == "5/3 (3)"
    assert kind_words({"5/3": [5, 3]}, "5/3") == "5/3"
    assert kind_words({"5/3 (2)": [5, 3]}, "5/3 (2)") == {"key": "echt.kind.nth",
                                                          "params": {"values": "5/3", "nth": 2}}
    assert kind_words({"5/3 (2)": [9, 7]}, "5/3 (2)") == "5/3 (2)"  # a name of its own, however it looks


def test_a_second_shape_of_the_same_values_in_level_3(tmp_path):
    s, mode = table(tmp_path, ["Felix", "Ben"], level=3)
    to_crossing(s)
    report_values(mode, "Felix", 5, 3, what="Shape scored")
    assert s.engine.state.players[0].report.shape == "5/3"
    end_turn(s, mode)
    to_crossing(s)
    report_values(mode, "Ben", 5, 3, what="Shape scored")
    assert mode._status() == "Ben: which shape with 5/3?"
    assert labels(mode) == ["The same shape as Felix", "Another shape with 5/3"]
    choose(mode, "Another shape")
    assert "Ben: shape 5/3 no. 2" in labels(mode)
    said = end_turn(s, mode)
    assert s.engine.state.players[1].scored == {"5/3 (2)": 5}
    assert "Not the 5/3 shape Felix had: Ben, which shape? Everybody else crosses out the 5 of that shape." in said


def test_the_question_in_german(tmp_path):
    s, mode = table(tmp_path, ["Anna", "Ben"], lang="de")
    to_crossing(s)
    assert s.apply({"action": "report", "player": "Anna", "kind": "5/3", "values": [5, 3]}), s.error
    assert s.apply({"action": "end_turn"}), s.error
    to_crossing(s)
    choose(mode, "Ben")
    choose(mode, "Symbolart komplett")
    choose(mode, "Höherer Wert: 5")
    choose(mode, "5 / 3")
    assert mode._status() == "Ben: welche Symbolart mit 5/3?"
    assert labels(mode) == ["Dieselbe Symbolart wie Anna", "Eine andere Symbolart mit 5/3"]
    choose(mode, "Eine andere")
    assert "Ben: 5/3 Nr. 2" in labels(mode)
    assert s.engine.phase is Phase.SCORE
