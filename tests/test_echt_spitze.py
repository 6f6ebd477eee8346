"""Echt Spitze engine: turn flow, first to score, bees, shapes, solo, final scoring, bad input, round-trip.

The helpers at the top drive whole turns without repeating the same five actions (the view tests use them).
"""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from companion.announce import Announcement
from companion.games.base import GameError, play_transcript
from companion.games.echt_spitze import (
    DiceError,
    EchtSpitze,
    FinalScoreError,
    Phase,
    ReportError,
    SetupError,
    TakeError,
    TurnError,
)

ROOT = Path(__file__).resolve().parents[1]

LEVEL1_KINDS = {"lemons": [9, 7], "kiwis": [4, 3], "melons": [6, 4], "pears": [5, 3], "plums": [4, 2]}
LEVEL2_KINDS = {"roses": [8, 6], "tulips": [6, 4], "daisies": [5, 3], "lilies": [7, 5]}
LEVEL3_SHAPES = {"L": [8, 5], "T": [6, 4], "square": [5, 3], "line": [4, 3], "zigzag": [7, 5]}


def new(players: list[str], level: int = 1, **options: Any) -> EchtSpitze:
    setup: dict[str, Any] = {"action": "setup", "players": players, "level": level}
    if level == 1:
        setup["kinds"] = LEVEL1_KINDS
    elif level == 2:
        setup["kinds"] = LEVEL2_KINDS
        setup["star_value"] = 4
    else:
        setup["shapes"] = LEVEL3_SHAPES
    setup.update(options)
    return EchtSpitze.new(setup)


def plain_roll(game: EchtSpitze) -> list[str]:
    """A roll without extra-cross marks and without pairs of equal numbers where possible."""
    faces = ["1", "2", "3", "4", "5", "?"]
    return faces[: game.dice_count]


def play_turn(game: EchtSpitze, reports: list[dict[str, Any]] | None = None, *, dice: list[str] | None = None,
              reroll: list[str] | None = None) -> list[Announcement]:
    """Roll, everybody takes the lowest free die in order, leave (or re-roll), report, end the turn."""
    said: list[Announcement] = []
    said += game.apply({"action": "roll", "dice": dice or plain_roll(game)})
    while game.current_taker is not None:
        said += game.apply({"action": "take", "die": game.middle[0] + 1})
    if reroll is not None:
        said += game.apply({"action": "reroll"})
        said += game.apply({"action": "roll", "dice": reroll})
    elif game.solo_sign == "!":
        said += game.apply({"action": "reroll"})
        said += game.apply({"action": "roll", "dice": ["2", "3"]})
    else:
        said += game.apply({"action": "leave"})
    for r in reports or []:
        said += game.apply({"action": "report", **r})
    said += game.apply({"action": "end_turn"})
    return said


def texts(announcements: list[Announcement], lang: str = "en") -> list[str]:
    return [a.text(lang) for a in announcements]


def keys(announcements: list[Announcement]) -> list[str]:
    return [a.key for a in announcements]


def snapshot(game: EchtSpitze) -> str:
    return json.dumps(game.to_json(), sort_keys=True)


def unchanged_after(game: EchtSpitze, action: dict[str, Any], error: type[Exception], lang: str = "en") -> str:
    """Apply an action that must fail; assert the state did not move; return the message (English unless asked)."""
    before = snapshot(game)
    with pytest.raises(error) as info:
        game.apply(action)
    assert snapshot(game) == before
    return info.value.text(lang)


# -- setup ---------------------------------------------------------------------------------------------------
def test_a_fifth_player_is_rejected_with_a_clear_message():
    with pytest.raises(SetupError) as info:
        new(["Anna", "Ben", "Carl", "Dora", "Emil"])
    assert info.value.text("en") == "Echt Spitze is for 1 to 4 players, not 5: choose at most 4 players."
    assert "1 bis 4 Spieler" in info.value.localized("de")
    assert str(info.value) == info.value.text("en")  # GameError's contract: str() is English


@pytest.mark.parametrize("setup, fragment", [
    ({"players": ["Anna", "Ben"], "level": 4}, "There is no level 4"),
    ({"players": ["Anna", "anna"]}, "Each name may appear once"),
    ({"players": []}, "1 to 4 players, not 0"),
    ({"players": ["Anna", "Ben"], "level": 2, "star_value": -1}, "Points per star: -1"),
    ({"players": ["Anna", "Ben"], "start": 2}, "Start player 2 is not playing"),
    ({"players": ["Anna", "Ben"], "start": "Zoe"}, "Start player 'Zoe' is not playing: choose Anna and Ben."),
    ({"players": ["Anna", "Ben"], "kinds": {"lemons": [7, 9]}}, "the higher first"),
    ({"players": ["Anna", "Ben"], "level": 3, "kinds": {"lemons": [9, 7]}}, "Level 3 scores shapes"),
])
def test_bad_setups_say_what_to_fix(setup, fragment):
    with pytest.raises(SetupError) as info:
        EchtSpitze.new({"action": "setup", **setup})
    assert fragment in info.value.text("en")


@pytest.mark.parametrize("players, dice, key", [
    (["Anna"], 3, "echt.setup.solo"),
    (["Anna", "Ben"], 4, "echt.setup.put_back_2"),
    (["Anna", "Ben", "Carl"], 5, "echt.setup.put_back_1"),
    (["Anna", "Ben", "Carl", "Dora"], 6, "echt.setup.all_dice"),
])
def test_dice_count_and_which_dice_go_back(players, dice, key):
    game = new(players)
    assert game.dice_count == dice
    opening = game.opening_announcements
    setup = next(a for a in opening if a.key == key)
    if len(players) in (2, 3):
        assert "without an extra cross back in the box" in setup.text("en")
    if len(players) > 1:  # who begins is said first: the first roll takes the call back, so behind the setup's
        assert opening[0].key == "echt.turn.start"  # instruction a quick table never heard it
        assert opening[0].params["player"] == players[0]
    with pytest.raises(DiceError):
        game.apply({"action": "roll", "dice": ["1"] * (dice + 1)})
    game.apply({"action": "roll", "dice": ["1"] * dice})
    assert game.phase is Phase.TAKE


# -- rolling and taking --------------------------------------------------------------------------------------
def test_an_unread_die_is_rejected_and_named():
    game = new(["Anna", "Ben", "Carl"])
    msg = unchanged_after(game, {"action": "roll", "dice": ["1", "2", None, "4", "5"]}, DiceError)
    assert msg == "Die 3 was not read: correct it on the screen or roll again."


def test_a_wrong_number_of_dice_says_what_to_do_about_it():
    """Fewer dice than played: one is missing from the tray. More: a die put back in the box at the start, or
    something that is no die (the reader asks about what it takes for one), lies in the tray too; putting all the
    dice in would not help."""
    game = new(["Anna", "Ben", "Carl"])
    count = game.dice_count
    msg = unchanged_after(game, {"action": "roll", "dice": ["1"] * (count - 1)}, DiceError)
    assert msg.startswith(f"{count - 1} dice were seen") and "put all the dice in the tray" in msg
    assert "two touching look like one" in msg  # all were in the tray: two touching dice were read as one
    msg = unchanged_after(game, {"action": "roll", "dice": ["1"] * (count + 1)}, DiceError)
    assert msg.startswith(f"{count + 1} dice were seen, but {count} are played") and "not a die" in msg


@pytest.mark.parametrize("lang", ["de", "en"])
def test_a_wrong_count_in_the_middles_reroll_keeps_the_taken_dice_out(lang):
    """The audit's re-roll: 1 die seen was told "all the dice in the tray" (the players' taken dice too), 4 seen was
    told to take out dice "put back in the box". Only the middle's 2 go in; the taken ones are what to take out."""
    game = new(["Anna", "Ben"])
    game.apply({"action": "roll", "dice": ["1", "2", "3", "4"]})
    game.apply({"action": "take", "die": 1})
    game.apply({"action": "take", "die": 2})
    game.apply({"action": "reroll"})
    few = unchanged_after(game, {"action": "roll", "dice": ["5"]}, DiceError, lang=lang)
    many = unchanged_after(game, {"action": "roll", "dice": ["5", "?", "2", "4"]}, DiceError, lang=lang)
    if lang == "de":
        assert few.startswith("1 Würfel gesehen, es müssen 2 sein") and "alle Würfel" not in few
        assert "nur die 2 Würfel der Mitte" in few and "genommene bleiben draußen" in few
        assert many.startswith("4 Würfel gesehen") and "Schachtel" not in many and "genommene Würfel" in many
    else:
        assert few.startswith("1 die was seen, there must be 2") and "all the dice" not in few
        assert "only the 2 middle dice in the tray" in few and "the dice taken stay out" in few
        assert many.startswith("4 dice were seen") and "box" not in many and "the dice the players took" in many
    game.apply({"action": "roll", "dice": ["5", "?"]})
    assert game.phase is Phase.SCORE


def test_impossible_faces_are_rejected():
    game = new(["Anna", "Ben"])
    msg = unchanged_after(game, {"action": "roll", "dice": ["1", "6", "2", "3"]}, DiceError)
    assert "No such face" in msg
    msg = unchanged_after(game, {"action": "roll", "dice": ["1+X", "2+X", "3+X", "4+X"]}, DiceError)
    assert "there are only 3" in msg


def test_start_player_takes_first_then_clockwise():
    game = new(["Anna", "Ben", "Carl"], start="Ben")
    game.apply({"action": "roll", "dice": ["1", "2+X", "3", "4", "5"]})
    order = []
    while game.current_taker is not None:
        order.append(game.current_taker)
        game.apply({"action": "take", "die": game.middle[-1] + 1})
    assert order == ["Ben", "Carl", "Anna"]
    assert game.phase is Phase.MIDDLE
    assert game.holder(4) == "Ben" and game.holder(3) == "Carl" and game.holder(2) == "Anna"
    assert [game.state.dice[i] for i in game.middle] == ["1", "2+X"]


def test_a_die_taken_twice_is_rejected_with_its_holder():
    game = new(["Anna", "Ben", "Carl"])
    game.apply({"action": "roll", "dice": ["1", "2", "3", "4", "5"]})
    game.apply({"action": "take", "die": 2})
    msg = unchanged_after(game, {"action": "take", "die": 2}, TakeError)
    assert msg == "Die 2 (2) is already taken by Anna: choose another die."
    msg = unchanged_after(game, {"action": "take", "player": "Carl", "die": 3}, TurnError)
    assert msg == "It is not Carl's move: it is Ben's turn now."


def test_taking_by_face_as_the_camera_sees_a_die_leave():
    game = new(["Anna", "Ben"])
    game.apply({"action": "roll", "dice": ["3", "3+X", "?", "5"]})
    game.apply({"action": "take", "face": "3+X"})
    assert game.holder(1) == "Anna"
    assert "the free dice are 3, ?, 5" in unchanged_after(game, {"action": "take", "face": "3+X"}, TakeError)


@pytest.mark.parametrize("lang, said", [("de", "Oma nimmt die 5 mit Extrakreuz."),
                                         ("en", "Oma takes the 5 with the extra cross.")])
def test_a_die_taken_with_the_extra_cross_is_said_in_words(lang, said):
    """The banner read "Oma nimmt die 5+X.": the engine's notation on the screen. The roll's notation stays in the
    actions and the state; a plain face is said as before."""
    game = new(["Oma", "Ben"])
    game.apply({"action": "roll", "dice": ["5+X", "3", "?+X", "1"]})
    assert texts(game.apply({"action": "take", "die": 1}), lang)[0].startswith(said)  # the next call after it
    assert texts(game.apply({"action": "take", "die": 2}), lang)[0] == ("Ben nimmt die 3." if lang == "de"
                                                                           else "Ben takes the 3.")
    assert game.state.dice[0] == "5+X"


def test_only_the_start_player_decides_about_the_middle_and_a_reroll_reads_two_dice():
    game = new(["Anna", "Ben"])
    game.apply({"action": "roll", "dice": ["1", "2", "3", "4"]})
    game.apply({"action": "take", "die": 1})
    game.apply({"action": "take", "die": 2})
    assert "It is not Ben's move" in unchanged_after(game, {"action": "leave", "player": "Ben"}, TurnError)
    said = game.apply({"action": "reroll", "player": "Anna"})
    assert texts(said) == ["Anna re-rolls the middle."]
    msg = unchanged_after(game, {"action": "report", "player": "Anna", "kind": "lemons"}, TurnError)
    assert "Not yet" in msg
    unchanged_after(game, {"action": "roll", "dice": ["5", "5", "5", "5"]}, DiceError)
    said = game.apply({"action": "roll", "dice": ["5+X", "?"]})
    assert game.state.dice == ["1", "2", "5+X", "?"]
    assert said[0].text("en") == "Middle: 5 and ? – place your cross!"
    assert game.phase is Phase.SCORE


@pytest.mark.parametrize("dice, key, params", [
    (["1", "2", "3", "4+X", "5+X"], "echt.extra.middle_both_all", {"face": "4"}),
    (["1", "2", "3", "4+X", "5"], "echt.extra.middle_all", {"face": "4"}),
    (["1+X", "2", "3", "4", "5", "?+X"], "echt.extra.middle_but", {"player": "Anna", "face": "?"}),
    (["1", "2", "3+X", "4", "5+X", "?+X"], "echt.extra.middle_both_but", {"player": "Carl", "face": "5"}),
    (["1+X", "2+X", "3", "4", "5+X", "?"], "echt.extra.middle", {"players": ["Carl", "Dora"], "face": "5"}),
])
def test_the_middles_extra_cross_names_nobody_where_all_or_all_but_one_have_only_it(dice, key, params):
    """Four players' names before the sentence took four lines over the dice: where every player (or all but one)
    has only the middle's mark, the sentence says so without them."""
    game = new(["Anna", "Ben", "Carl", "Dora"][:len(dice) - 2])
    game.apply({"action": "roll", "dice": dice})
    for die in range(1, len(dice) - 1):
        game.apply({"action": "take", "die": die})
    reminders = [a for a in game.apply({"action": "leave"}) if a.key.startswith("echt.extra.middle")]
    assert [(a.key, a.params) for a in reminders] == [(key, params)]
    assert "soap bubble" in reminders[0].text("en") and "Seifenblase" in reminders[0].text("de")


def test_extra_cross_reminders_name_each_player_and_the_bubble_rule():
    game = new(["Anna", "Ben", "Carl"])
    game.apply({"action": "roll", "dice": ["1+X", "2", "3", "4+X", "5"]})
    for die in (1, 2, 3):  # Anna holds 1+X, Ben 2, Carl 3; middle 4+X and 5
        game.apply({"action": "take", "die": die})
    said = game.apply({"action": "leave"})
    reminders = [a for a in said if a.key.startswith("echt.extra.")]
    assert [a.key for a in reminders] == ["echt.extra.own_and_middle", "echt.extra.middle"]
    assert reminders[0].params == {"player": "Anna", "face": "4"}
    assert reminders[1].params["players"] == ["Ben", "Carl"]
    assert "none if any cross hits a soap bubble" in reminders[1].text("en")
    assert all(not a.speak for a in reminders)
    assert (game.extra_crosses("Anna"), game.extra_crosses("Ben")) == (2, 1)
    game.apply({"action": "report", "player": "Anna", "pierced": True})  # her regular cross hit a soap bubble
    assert (game.extra_crosses("Anna"), game.extra_crosses("Ben")) == (0, 1)


def test_no_reminder_without_marks():
    game = new(["Anna", "Ben"])
    said = play_turn(game)
    assert not [a for a in said if a.key.startswith("echt.extra.")]


# -- first to score ------------------------------------------------------------------------------------------
def test_first_scorer_is_announced_with_the_issue_sentence():
    game = new(["Bernhard", "Sara", "Felix"])
    said = play_turn(game, [{"player": "Bernhard", "kind": "lemons"}])
    issue = "Bernhard was first with the lemons: circle the 9; everybody else crosses out the 9."
    assert issue in texts(said)
    assert game.state.players[0].scored == {"lemons": 9}
    said = play_turn(game, [{"player": "Sara", "kind": "lemons"}, {"player": "Felix", "kind": "Lemons"}])
    assert "lemons for Sara and Felix: 7 points." in texts(said)
    assert [p.scored for p in game.state.players] == [{"lemons": 9}, {"lemons": 7}, {"lemons": 7}]


def test_simultaneous_first_scorers_all_get_the_higher_value():
    game = new(["Anna", "Ben", "Carl"])
    said = play_turn(game, [{"player": "Anna", "kind": "kiwis"}, {"player": "Carl", "kind": "kiwis"}])
    first = [a for a in said if a.key == "echt.first.kind_many"]
    assert first and first[0].params["players"] == ["Anna", "Carl"]
    assert "Anna and Carl were first with the kiwis together" in first[0].text("en")
    assert game.state.first == {"kiwis": ["Anna", "Carl"]}
    assert game.points("Anna") == game.points("Carl") == 4 and game.points("Ben") == 0


def test_a_kind_is_scored_once_per_player_and_values_can_be_learned():
    game = new(["Anna", "Ben"])
    play_turn(game, [{"player": "Anna", "kind": "lemons"}])
    play_turn(game, [])
    game.apply({"action": "roll", "dice": plain_roll(game)})
    game.apply({"action": "take", "die": 1})
    game.apply({"action": "take", "die": 2})
    game.apply({"action": "leave"})
    msg = unchanged_after(game, {"action": "report", "player": "Anna", "kind": "lemons"}, ReportError)
    assert msg == "Anna already scored the lemons: each kind scores once."
    msg = unchanged_after(game, {"action": "report", "player": "Anna", "kind": "cherries"}, ReportError)
    assert "does not know cherries yet" in msg
    game.apply({"action": "report", "player": "Anna", "kind": "cherries", "values": [10, 8]})
    said = game.apply({"action": "end_turn"})
    assert "Anna was first with the cherries: circle the 10; everybody else crosses out the 10." \
        in texts(said)


def test_the_next_player_clockwise_becomes_start_player():
    game = new(["Anna", "Ben", "Carl"])
    said = play_turn(game)
    assert texts(said)[-1] == "Ben starts: roll all the dice!"
    play_turn(game)
    play_turn(game)
    assert game.start_player == "Anna"


# -- bees (level 2) ------------------------------------------------------------------------------------------
def test_fred_tilda_anna_bee_example():
    game = new(["Fred", "Tilda", "Anna"], level=2)
    game.apply({"action": "roll", "dice": ["2", "3", "5", "1", "4"]})
    for die in (1, 2, 3):
        game.apply({"action": "take", "die": die})
    said = game.apply({"action": "leave"})
    assert texts(said)[:2] == ["Fred leaves the middle.",
                               "Middle: 1 and 4 – place your cross!"]
    game.apply({"action": "report", "player": "Fred", "beehive": "4-4"})
    game.apply({"action": "report", "player": "Tilda", "beehive": [4, 4]})
    said = game.apply({"action": "end_turn"})
    bees = [a for a in said if a.key == "echt.bees.blacken"]
    assert bees[0].text("en") == "Bees! Fred and Tilda: beehive 4-4. Anna: blacken field 4-4!"
    # a field to blacken, and the game's end, are never dropped as stale when the table moves on quicker than the
    # voice (at a calm pace the end-of-turn sentences outlasted the next roll and these went unheard)
    assert bees[0].essential
    fred, tilda, anna = game.state.players
    assert fred.hives_crossed == ["front:4-4"] and tilda.hives_crossed == ["front:4-4"]
    assert anna.hives_blackened == ["front:4-4"] and not fred.hives_blackened
    # Anna's blackened hive can no longer be crossed
    game.apply({"action": "roll", "dice": plain_roll(game)})
    for die in (1, 2, 3):
        game.apply({"action": "take", "die": die})
    game.apply({"action": "leave"})
    msg = unchanged_after(game, {"action": "report", "player": "Anna", "beehive": "4-4"}, ReportError)
    assert msg == "Anna: beehive 4-4 on your front is blackened and cannot be crossed."


def test_one_beehive_per_turn_and_a_crossed_hive_is_safe():
    game = new(["Fred", "Tilda", "Anna"], level=2)
    play_turn(game, [{"player": "Anna", "beehive": "2-2"}])
    assert game.state.players[0].hives_blackened == ["front:2-2"]
    game.apply({"action": "roll", "dice": plain_roll(game)})
    for die in (1, 2, 3):
        game.apply({"action": "take", "die": die})
    game.apply({"action": "leave"})
    game.apply({"action": "report", "player": "Fred", "beehive": "5-5"})
    msg = unchanged_after(game, {"action": "report", "player": "Fred", "beehive": "3-3"}, ReportError)
    assert "only one beehive per turn" in msg
    said = game.apply({"action": "end_turn"})
    assert "Bees! Fred: beehive 5-5. Tilda and Anna: blacken field 5-5!" in texts(said)
    # Tilda and Fred secure 1-1 on their fronts; Fred pierces to his back and crosses 1-1 there:
    # Tilda's front hive is safe, Anna's front 1-1 is already black
    play_turn(game, [{"player": "Tilda", "beehive": "1-1"}, {"player": "Fred", "beehive": "1-1"}])
    play_turn(game, [{"player": "Fred", "pierced": True}])
    said = play_turn(game, [{"player": "Fred", "beehive": "1-1"}])
    assert "Fred: beehive 1-1 – nobody has to blacken it." in texts(said)
    assert "Tilda: your beehive 1-1 is already crossed – it is safe, do not blacken it." in texts(said)
    assert game.state.players[0].hives_crossed == ["front:5-5", "front:1-1", "back:1-1"]
    assert game.state.players[2].hives_blackened == ["front:5-5", "front:1-1"]
    assert game.state.players[2].hives_crossed == ["front:2-2"]


def test_the_beehives_are_the_fields_whose_row_and_column_are_equal():
    """"They can be crossed with the matching coordinates 1-1 to 5-5", and the solo rule blackens "the
    corresponding beehive field" of any pair: a beehive for each pair, none at 2-5. Reporting 2-5 would have made
    everybody else blacken a field with no beehive."""
    game = new(["Fred", "Anna"], level=2)
    game.apply({"action": "roll", "dice": plain_roll(game)})
    for die in (1, 2):
        game.apply({"action": "take", "die": die})
    game.apply({"action": "leave"})
    msg = unchanged_after(game, {"action": "report", "player": "Fred", "beehive": "2-5"}, ReportError)
    assert msg == ("2-5 is not a beehive: the beehives are the fields 1-1 to 5-5, where row and column are the same "
                   "number.")
    six = {"action": "report", "player": "Fred", "beehive": "6"}
    assert "is not a beehive" in unchanged_after(game, six, ReportError)
    game.apply({"action": "report", "player": "Fred", "beehive": 2})  # its number alone
    game.apply({"action": "report", "player": "Anna", "beehive": "3"})
    said = game.apply({"action": "end_turn"})
    assert "Bees! Fred: beehive 2-2. Anna: blacken field 2-2!" in texts(said)
    assert game.state.players[1].hives_crossed == ["front:3-3"]


def test_bees_blacken_the_side_a_player_ends_the_turn_on():
    game = new(["Fred", "Anna"], level=2)
    said = play_turn(game, [{"player": "Fred", "beehive": "3-3"}, {"player": "Anna", "pierced": True}])
    assert "Anna pierces: turn the sheet, play on the back." in texts(said)
    anna = game.state.players[1]
    assert (anna.side, anna.holes) == ("back", 1)
    assert anna.hives_blackened == ["back:3-3"]
    # on her front 3-3 is still free; slipping back through the hole brings her there
    play_turn(game, [{"player": "Anna", "slip": True}])
    anna = game.state.players[1]
    assert (anna.side, anna.holes) == ("front", 1)
    play_turn(game, [{"player": "Anna", "beehive": "3-3"}])
    assert game.state.players[1].hives_crossed == ["front:3-3"]


def test_a_hive_crossed_in_a_turn_that_pierced_is_secured_on_the_back():
    """A turn that pierces crosses the bubble and "the same field on the back", no extra cross: a hive crossed in
    it is that field on the back. It was secured on the front, so bees on it later made its crosser blacken the
    very hive they had crossed; and a hive blackened on the back could be reported so."""
    game = new(["Fred", "Anna"], level=2)
    play_turn(game, [{"player": "Fred", "pierced": True, "beehive": "3-3"}, {"player": "Anna", "pierced": True}])
    fred, anna = game.state.players
    assert fred.hives_crossed == ["back:3-3"] and anna.hives_blackened == ["back:3-3"]
    said = play_turn(game, [{"player": "Anna", "beehive": "4-4"}])
    assert game.state.players[0].hives_blackened == ["back:4-4"]
    said = play_turn(game, [{"player": "Anna", "slip": True}, {"player": "Fred", "beehive": "2-2"}])
    said = play_turn(game, [{"player": "Anna", "beehive": "3-3"}])  # on her front: Fred's back 3-3 is safe
    assert "Fred: your beehive 3-3 is already crossed – it is safe, do not blacken it." in texts(said)
    assert game.state.players[0].hives_blackened == ["back:4-4"]
    # Fred's back 4-4 is black: a pierce from his front onto it, reported in either order, counts no hive (said;
    # refused, a game saved before, which checked the front, would not replay)
    play_turn(game, [{"player": "Fred", "pierced": True}])
    assert game.state.players[0].side == "front"
    game.apply({"action": "roll", "dice": plain_roll(game)})
    for die in (1, 2):
        game.apply({"action": "take", "die": die})
    game.apply({"action": "leave"})
    said = game.apply({"action": "report", "player": "Fred", "pierced": True, "beehive": "4-4"})
    assert "Fred: beehive 4-4 on the back is blackened – it does not count." in texts(said)
    assert not any("noted" in line for line in texts(said) if "beehive" in line)  # one word, not two that differ
    assert game.state.players[0].report.beehive is None and game.state.players[0].report.pierced  # none counted
    said_aloud = [a for a in said if a.key == "echt.report.hive_not_counted_black_back"]
    assert said_aloud and said_aloud[0].speak and said.index(said_aloud[0]) > [a.key for a in said].index(
        "echt.report.pierced_back")  # after "turn the sheet", and heard (a screen note is overtaken)
    game.apply({"action": "report", "player": "Fred", "beehive": "5-5"})  # another, a correction: the back's 5-5
    assert game.state.players[0].report.beehive == "5-5"


def test_a_game_saved_before_a_pierced_turns_hive_was_the_backs_still_replays():
    """Saved by the version before: a hive crossed in a turn that pierced was secured on the front, so crossing
    it again on the back was a hive of its own. Replayed now it is the back's already: the report is said to let
    no bees loose, not refused (a refusal put the family's game aside at the next start)."""
    game = new(["Fred", "Anna"], level=2)
    play_turn(game, [{"player": "Fred", "pierced": True, "beehive": "3-3"}])
    said = play_turn(game, [{"player": "Fred", "beehive": "3-3"}])
    assert "Fred: beehive 3-3 on the back is already crossed – no bees." in texts(said)
    assert not any(a.key == "echt.bees.blacken" for a in said)
    assert game.state.players[0].hives_crossed == ["back:3-3"]


def test_all_crossers_of_one_coordinate_means_nobody_blackens():
    game = new(["Fred", "Tilda"], level=2)
    said = play_turn(game, [{"player": "Fred", "beehive": "4-4"}, {"player": "Tilda", "beehive": "4-4"}])
    assert "Fred and Tilda: beehive 4-4 – nobody has to blacken it." in texts(said)


# -- holes ---------------------------------------------------------------------------------------------------
def test_slipping_through_needs_an_existing_hole_and_makes_no_new_one():
    game = new(["Anna", "Ben"])
    game.apply({"action": "roll", "dice": plain_roll(game)})
    game.apply({"action": "take", "die": 1})
    game.apply({"action": "take", "die": 2})
    game.apply({"action": "leave"})
    msg = unchanged_after(game, {"action": "report", "player": "Ben", "slip": True}, ReportError)
    assert "has no hole in the sheet yet" in msg
    game.apply({"action": "report", "player": "Ben", "pierced": True})
    assert "pierce or slip once per turn" in unchanged_after(
        game, {"action": "report", "player": "Ben", "pierced": True}, ReportError)
    game.apply({"action": "end_turn"})
    said = play_turn(game, [{"player": "Ben", "slip": True}])
    assert "Ben slips through the hole: play on the front." in texts(said)
    ben = game.state.players[1]
    assert (ben.side, ben.holes) == ("front", 1)


# -- game end and final scoring ------------------------------------------------------------------------------
def test_sara_example_34_points_and_the_third_kind_ends_the_game():
    game = new(["Sara", "Ben"])
    play_turn(game, [{"player": "Ben", "kinds": ["pears"]}])  # Ben first: Sara only gets the lower 3 later
    play_turn(game, [{"player": "Sara", "kinds": ["pears", "plums"]}])  # 3 and 4 (first with plums)
    said = play_turn(game, [{"player": "Sara", "kind": "lemons"}])  # 9: her third kind
    assert "Sara scored a third symbol kind: the game is over!" in texts(said)
    over = next(a for a in said if a.key == "echt.game_over.kinds")
    assert over.essential and over.text("de") == "Dritte Symbolart für Sara: das Spiel ist aus!"
    spoken = [a.text("de") for a in said if a.speak]
    at = spoken.index("Dritte Symbolart für Sara: das Spiel ist aus!")
    # what everybody does now, before the turn's results: what to count, the final scoring's questions ("Zählt eure
    # Punkte" had the table add up the kinds, which the companion adds itself), the turn's kinds circled first
    assert spoken[at + 1] == "Zählt Sterne und übrige Symbole – die Symbolarten dieses Zugs zuerst einkreisen."
    count = next(a for a in said if a.key == "echt.game_over.count")
    assert count.text("en") == "Count your stars and leftover symbols; circle this turn's kinds first."
    assert game.phase is Phase.FINAL and game.state.enders == ["Sara"]
    msg = unchanged_after(game, {"action": "report", "player": "Ben", "kind": "melons"}, TurnError)
    assert msg == "The game is over: enter each player's final scoring now."
    said = game.apply({"action": "final", "player": "Sara", "stars": 3, "leftover": 3})
    assert said[0].text("en") == "Sara: kinds 16 + stars 15 + leftover symbols 3 = 34"
    assert game.state.players[0].final.total == 34
    assert not game.finished
    said = game.apply({"action": "final", "player": "Ben", "stars": 4, "leftover": 6})
    assert game.finished and texts(said)[-2] == "Sara wins with 34 points!"
    # everybody else's points after it: only the winner's were said
    assert texts(said)[-1] == "Then Ben with 31." and texts(said, "de")[-1] == "Dahinter Ben mit 31."


def test_the_app_wizard_setup_gives_a_seat_index_and_level_2_asks_the_star_value_at_the_end():
    setup = {"action": "setup", "seed": 7, "players": ["Fred", "Tilda"], "start": 1, "level": 2}
    game = EchtSpitze.new(setup)
    assert game.start_player == "Tilda"
    game.apply({"action": "roll", "dice": plain_roll(game)})
    game.apply({"action": "take", "die": 1})
    game.apply({"action": "take", "die": 2})
    game.apply({"action": "leave"})
    for kind, values in (("roses", [8, 6]), ("tulips", [6, 4]), ("lilies", [7, 5])):
        game.apply({"action": "report", "player": "Fred", "kind": kind, "values": values})
    game.apply({"action": "end_turn"})
    msg = unchanged_after(game, {"action": "final", "player": "Fred", "stars": 1}, FinalScoreError)
    assert msg == "Level 2: give the points per star (printed on the sheet)."
    game.apply({"action": "final", "player": "Fred", "stars": 1, "star_value": 4})
    assert game.state.players[0].final.total == 21 + 4
    assert "worth 4 points" in unchanged_after(
        game, {"action": "final", "player": "Tilda", "stars": 1, "star_value": 5}, FinalScoreError)


def test_final_entries_out_of_range_are_rejected():
    game = new(["Sara", "Ben"])
    play_turn(game, [{"player": "Sara", "kinds": ["pears", "plums", "lemons"]}])
    assert "Stars: 21 will not do" in unchanged_after(
        game, {"action": "final", "player": "Sara", "stars": 21}, FinalScoreError)
    assert "diagonals is not part" in unchanged_after(
        game, {"action": "final", "player": "Sara", "diagonals": 1}, FinalScoreError)


def test_felix_example_41_points_in_level_3():
    game = new(["Felix", "Ben"], level=3)
    # Felix: line 3 (after Ben), T 6, L 8, square 5 -> 22; one shape per turn
    play_turn(game, [{"player": "Ben", "shape": "line"}])
    play_turn(game, [{"player": "Felix", "shape": "line"}])
    play_turn(game, [{"player": "Felix", "shape": "T"}])
    play_turn(game, [{"player": "Felix", "shape": "L"}])
    game.apply({"action": "roll", "dice": plain_roll(game)})
    game.apply({"action": "take", "die": 1})
    game.apply({"action": "take", "die": 2})
    game.apply({"action": "leave"})
    game.apply({"action": "report", "player": "Felix", "shape": "square"})
    msg = unchanged_after(game, {"action": "report", "player": "Felix", "shape": "zigzag"}, ReportError)
    assert "only one shape per turn" in msg
    said = game.apply({"action": "end_turn"})
    assert "Felix scored a fourth shape: the game is over!" in texts(said)
    # level 3 counts what its final scoring asks: diagonals, diamonds, pierced bubbles without a star
    spoken = [a for a in said if a.speak]
    assert [a.key for a in spoken[:2]] == ["echt.game_over.shapes", "echt.game_over.count_shapes"]
    assert spoken[1].essential
    assert spoken[1].text("de") == ("Zählt Diagonalen, Diamanten und durchstochene Seifenblasen ohne Stern – die "
                                    "Formen dieses Zugs zuerst einkreisen.")
    assert spoken[1].text("en") == ("Count your diagonals, diamonds and pierced soap bubbles without a star; circle "
                                    "this turn's shapes first.")
    assert "Diagonals: 3 will not do" in unchanged_after(
        game, {"action": "final", "player": "Felix", "diagonals": 3, "diamonds": 1, "leftover": 3},
        FinalScoreError)
    # level 3's sheet has no leftover symbols: its third number is the pierced bubbles without a star
    assert "Pierced soap bubbles without a star: 99 will not do" in unchanged_after(
        game, {"action": "final", "player": "Felix", "diagonals": 1, "diamonds": 1, "leftover": 99}, FinalScoreError)
    said = game.apply({"action": "final", "player": "Felix", "diagonals": 1, "diamonds": 1, "leftover": 3})
    assert said[0].text("en") == "Felix: shapes 22 + stars 16 + soap bubbles 3 = 41"


def test_one_players_firsts_of_a_turn_are_one_sentence():
    """Anna first with three kinds in one turn heard three sentences, each with its chime, and the game's end after
    them: some 27 s. One sentence names them all; a later scorer's kind is said after who was first."""
    game = new(["Anna", "Ben"])
    play_turn(game, [{"player": "Ben", "kinds": ["pears"]}])
    said = [a for a in play_turn(game, [{"player": "Anna", "kinds": ["kiwis", "pears", "plums", "lemons"]}])
            if a.key.startswith(("echt.first", "echt.later", "echt.game_over"))]
    assert keys(said)[:2] == ["echt.game_over.kinds", "echt.game_over.count"]  # the end and its count first
    said = [said[0], *said[2:]]
    assert texts(said, "de")[1:3] == [
        "Anna zuerst mit lemons, kiwis und plums: die 9, 4 und 4 einkreisen, alle anderen streichen sie!",
        "pears für Anna: 3 Punkte.",
    ]
    assert texts(said)[1] == ("Anna was first with the lemons, kiwis and plums: circle the 9, 4 and 4; everybody "
                              "else crosses them out.")
    assert said[1].essential and keys(said)[0] == "echt.game_over.kinds"
    assert game.points("Anna") == 9 + 4 + 4 + 3


def test_the_games_end_and_the_count_are_heard_first_and_the_results_after_them():
    """Behind a last turn's firsts and later scores (five sentences at three players) "das Spiel ist aus!" was heard
    21 s after the turn; put first, its "Zählt eure Punkte" was still heard 13-22 s after it, behind the results.
    What the table counts (stars, leftover symbols) the results do not change (the companion adds the kinds), so
    the count follows the end at once; the later scores are details then (their scorers reported them). Through the
    announcer (a fake voice of 0.05 s a letter): the end, the count, the results."""
    from test_announcer import RecordingAudio, fake_synth, run

    from companion.announcer import Announcer
    from companion.speech import Speech

    game = new(["Anna-Sophie", "Ben", "Carla"])
    play_turn(game, [{"player": "Ben", "kinds": ["pears"]}])
    play_turn(game, [{"player": "Carla", "kinds": ["kiwis"]}])
    said = play_turn(game, [{"player": "Anna-Sophie", "kinds": ["kiwis", "pears", "plums", "lemons"]},
                            {"player": "Ben", "kinds": ["plums"]}])
    ann = Announcer("de", audio=RecordingAudio(), speech=Speech(fake_synth, threaded=False))
    ann.announce_all([a for a in said if a.key.startswith(("echt.first", "echt.later", "echt.game_over"))])
    heard = [text for _, text in run(ann, 120)]
    assert heard[:2] == ["Dritte Symbolart für Anna-Sophie: das Spiel ist aus!",
                         "Zählt Sterne und übrige Symbole – die Symbolarten dieses Zugs zuerst einkreisen."]
    assert len(heard) == 5
    assert [h.split(":")[0] for h in heard[2:4]] == ["Anna-Sophie zuerst mit lemons", "Anna-Sophie und Ben zugleich "
                                                                                        "zuerst mit plums"]
    assert heard[4] == "Anna-Sophie: kiwis\xa03 und pears\xa03 Punkte."
    later = [a for a in said if a.key.startswith("echt.later")]
    assert later and all(a.detail for a in later)  # unsaid with talk = "calls"
    assert not any(a.detail for a in said if a.key.startswith(("echt.first", "echt.game_over")))


def test_a_players_later_scores_of_a_turn_are_one_sentence():
    """At a game's end Anna-Sophie heard "kiwis für Anna-Sophie: 3 Punkte.", then "pears für Anna-Sophie: 3
    Punkte.", some 3 s more than one sentence; each player listens for their own name. One sentence a player, one for
    players with the same later kinds; a single later kind keeps its sentence."""
    game = new(["Anna-Sophie", "Ben", "Carla", "Dora"])
    play_turn(game, [{"player": "Ben", "kinds": ["pears"]}])
    play_turn(game, [{"player": "Carla", "kinds": ["kiwis", "lemons"]}])
    said = [a for a in play_turn(game, [{"player": "Anna-Sophie", "kinds": ["kiwis", "pears", "lemons"]},
                                        {"player": "Ben", "kinds": ["lemons"]},
                                        {"player": "Dora", "kinds": ["kiwis", "pears", "lemons"]}])
            if a.key.startswith("echt.later")]
    # a kind and its number are never on two lines of a banner: "Kiwis / 3, Melonen 4" (a no-break space)
    assert texts(said, "de") == ["Anna-Sophie und Dora: lemons\xa07, kiwis\xa03 und pears\xa03 Punkte.",
                                 "lemons für Ben: 7 Punkte."]
    assert texts(said) == ["Anna-Sophie and Dora: lemons\xa07, kiwis\xa03 and pears\xa03 points.",
                           "lemons for Ben: 7 points."]
    assert game.points("Anna-Sophie") == 7 + 3 + 3 and game.points("Ben") == 5 + 7


def test_later_scores_are_said_by_kind_where_that_is_fewer_sentences():
    """Anna with kiwis and pears, Ben with kiwis, Carla with pears: two sentences by kind, three by player."""
    game = new(["Anna", "Ben", "Carla", "Dora"])
    play_turn(game, [{"player": "Dora", "kinds": ["kiwis", "pears"]}])
    said = [a for a in play_turn(game, [{"player": "Anna", "kinds": ["kiwis", "pears"]},
                                        {"player": "Ben", "kinds": ["kiwis"]},
                                        {"player": "Carla", "kinds": ["pears"]}])
            if a.key.startswith("echt.later")]
    assert texts(said) == ["kiwis for Anna and Ben: 3 points.", "pears for Anna and Carla: 3 points."]


def test_a_round_call_is_taken_back_by_the_roll():
    """"Ben beginnt: alle Würfel werfen!" came 8.5-10 s late in 5 turns of 5, behind the last round's sentences and
    after the roll: the roll answers it, as Haste Worte's round call."""
    game = new(["Anna", "Ben"])
    assert game.opening_announcements[0].key == "echt.turn.start"
    assert game.opening_announcements[0].until == ("roll",)
    said = play_turn(game, [])
    assert said[-1].key == "echt.turn.start" and said[-1].until == ("roll",)
    # before the turn's results: behind a first's sentence the roll came first and took the call back unheard
    game.apply({"action": "roll", "dice": plain_roll(game)})
    while game.current_taker is not None:
        game.apply({"action": "take", "die": game.middle[0] + 1})
    game.apply({"action": "leave"})
    game.apply({"action": "report", "player": "Ben", "kinds": ["pears"]})
    said = game.apply({"action": "end_turn"})
    assert keys(said)[:2] == ["echt.turn.start", "echt.first.kind_one"]
    assert texts(said, "de")[0] == "Anna beginnt: alle Würfel werfen!"


def test_simultaneous_first_shape_scorers_get_the_higher_value():
    game = new(["Anna", "Ben", "Carl"], level=3)
    said = play_turn(game, [{"player": "Anna", "shape": "zigzag"}, {"player": "Ben", "shape": "zigzag"}])
    assert "Anna and Ben were first with the shape zigzag together" in " ".join(texts(said))
    assert game.points("Anna") == game.points("Ben") == 7


def test_hole_count_breaks_a_tie_and_equal_holes_share_the_victory():
    def tied_game(ben_pierces: bool) -> EchtSpitze:
        game = new(["Anna", "Ben"])
        play_turn(game, [{"player": "Anna", "pierced": True}, {"player": "Ben", "pierced": True}])
        if ben_pierces:
            play_turn(game, [{"player": "Ben", "pierced": True}])
        play_turn(game, [{"player": "Anna", "kinds": ["kiwis", "pears", "plums"]}])  # 4 + 5 + 4 = 13
        game.apply({"action": "final", "player": "Anna", "stars": 1, "leftover": 2})  # 13 + 5 + 2 = 20
        return game

    game = tied_game(ben_pierces=True)
    said = game.apply({"action": "final", "player": "Ben", "stars": 4, "leftover": 0})  # 20
    assert texts(said)[-2:] == ["Tied at 20 points – Ben wins with the most holes pierced: 2.", "Then Anna with 20."]
    assert game.state.winners == ["Ben"]
    game = tied_game(ben_pierces=False)
    said = game.apply({"action": "final", "player": "Ben", "stars": 4, "leftover": 0})
    assert texts(said)[-1] == "Tied at 20 points with as many holes: Anna and Ben share the victory!"
    assert game.state.winners == ["Anna", "Ben"]
    assert "start a new game" in unchanged_after(game, {"action": "roll"}, TurnError)


def test_level_2_final_adds_honeycombs():
    game = new(["Fred", "Tilda"], level=2)
    play_turn(game, [{"player": "Fred", "beehive": "1-1"}])
    play_turn(game, [{"player": "Fred", "beehive": "2-2", "kinds": ["roses", "tulips", "lilies"]}])
    said = game.apply({"action": "final", "player": "Fred", "stars": 2, "leftover": 1})
    assert said[0].text("en") == "Fred: kinds 21 + stars 8 + leftover symbols 1 + honeycombs 2 = 32"


# -- solo ----------------------------------------------------------------------------------------------------
def test_solo_rounds_signs_halftime_and_end():
    game = new(["Sol"])
    assert texts(game.opening_announcements)[-1].startswith("Round 1 of 14: “!”")
    game.apply({"action": "roll", "dice": ["1+X", "2+X", "3+X"]})
    said = game.apply({"action": "take", "die": 1})
    assert texts(said)[-1] == "Sol: “!” round – re-roll the other two dice."
    msg = unchanged_after(game, {"action": "leave"}, TurnError)
    assert msg == "Round 1 is a “!” round: the other two dice must be re-rolled."
    game.apply({"action": "reroll"})
    game.apply({"action": "roll", "dice": ["4+X", "5+X"]})
    game.apply({"action": "report", "player": "Sol", "kind": "lemons"})
    said = game.apply({"action": "end_turn"})
    assert "lemons: 9 points (before halftime)." in texts(said)
    assert game.solo_sign == "?"
    said = play_turn(game)  # round 2: "?" -> leaving is allowed
    for _ in range(5):
        said = play_turn(game)
    assert texts(said)[-2:] == ["Halftime! From now on symbols score only the lower value.",
                                "Round 8 of 14: “?” – re-rolling is up to you."]
    said = play_turn(game, [{"player": "Sol", "kind": "kiwis"}])
    assert "kiwis: 3 points (after halftime)." in texts(said)
    for _ in range(5):
        play_turn(game, [{"player": "Sol", "kind": "pears"}] if game.state.turn == 10 else [])
    assert game.state.turn == 14 and game.phase is Phase.ROLL
    said = play_turn(game)
    assert "Round 14 is over: the game is over, Sol!" in texts(said)
    said = game.apply({"action": "final", "player": "Sol", "stars": 2, "leftover": 4})
    assert game.finished and texts(said)[-1] == "Sol, you scored 29 points!"  # 9 + 3 + 3 + 10 + 4


@pytest.mark.parametrize("level", [1, 2, 3])
def test_solo_end_says_what_to_count_as_the_final_scoring_asks(level):
    """The solo end said "Zähl deine Punkte." (the player added up the kinds too, which the companion adds itself);
    it says, as the table's end does, what the final scoring then asks for, and to circle the last turn's kinds first.
    Right after the end, essential, in the singular."""
    game = new(["Sol"], level=level)
    said: list[Announcement] = []
    for _ in range(14):  # the fourteen rounds (bounded)
        said = play_turn(game)
        if game.phase is Phase.FINAL:
            break
    assert game.phase is Phase.FINAL and game.state.turn == 14
    end = keys(said).index("echt.game_over.solo")
    count = said[end + 1]
    assert count.key == ("echt.game_over.solo_count_shapes" if level == 3 else "echt.game_over.solo_count")
    assert count.speak and count.essential
    assert "Punkte" not in said[end].text("de") and "points" not in said[end].text("en")
    de, en = count.text("de"), count.text("en")
    assert de.startswith("Zähl deine ") and en.startswith("Count your ")
    screen = next(a for a in said if a.key == f"echt.final.enter_level{level}")  # what the screen then asks
    if level == 3:
        for de_word, en_word in [("Diagonalen", "diagonals"), ("Diamanten", "diamonds"), ("Seifenblasen", "bubbles")]:
            assert de_word in de and de_word in screen.text("de") and en_word in en and en_word in screen.text("en")
        assert "Formen dieses Zugs" in de and "this turn's shapes" in en
    else:
        for de_word, en_word in [("Sterne", "stars"), ("übrig", "leftover symbols")]:
            assert de_word in de and de_word in screen.text("de") and en_word in en and en_word in screen.text("en")
        assert "Symbolarten dieses Zugs" in de and "this turn's kinds" in en


def test_solo_level_2_pairs_blacken_a_beehive_but_not_on_reroll():
    game = new(["Sol"], level=2)
    said = game.apply({"action": "roll", "dice": ["4+X", "?+X", "4+X"]})
    assert texts(said)[0] == "A pair: blacken beehive 4-4 right away!"
    assert game.state.players[0].hives_blackened == ["front:4-4"]
    game.apply({"action": "take", "die": 2})
    game.apply({"action": "reroll"})
    said = game.apply({"action": "roll", "dice": ["2+X", "2+X"]})
    assert not [a for a in said if a.key.startswith("echt.solo.bees")]
    assert game.state.players[0].hives_blackened == ["front:4-4"]


def test_solo_level_2_a_corrected_roll_applies_the_pair_rule_again():
    """A misread die made a pair: the beehive it blackened stays black for the rest of the game (and is refused
    as a report), and a pair only the correction shows blackened nothing. Until the middle dice are re-rolled, a
    correction takes the first back and blackens the second; after, the roll's other faces are gone."""
    game = new(["Sol"], level=2)
    game.apply({"action": "roll", "dice": ["2+X", "2+X", "3+X"]})
    said = game.apply({"action": "correct", "die": 2, "face": "4+X"})
    assert texts(said) == ["Corrected: beehive 2-2 need not be blackened – rub it out."]
    assert game.state.players[0].hives_blackened == []
    said = game.apply({"action": "correct", "die": 1, "face": "3+X"})
    assert texts(said) == ["A pair: blacken beehive 3-3 right away!"]
    said = game.apply({"action": "correct", "die": 2, "face": "3+X"})  # three 3s: still the pair of 3s
    assert texts(said) == [] and game.state.players[0].hives_blackened == ["front:3-3"]
    game.apply({"action": "take", "die": 1})
    said = game.apply({"action": "correct", "die": 2, "face": "5+X"})  # the pair was 3 and 3 after all
    assert game.state.players[0].hives_blackened == ["front:3-3"] and texts(said) == []
    said = game.apply({"action": "correct", "die": 3, "face": "1+X"})  # no pair: 3, 5, 1
    assert texts(said) == ["Corrected: beehive 3-3 need not be blackened – rub it out."]
    game.apply({"action": "reroll"})
    game.apply({"action": "roll", "dice": ["5+X", "2+X"]})
    game.apply({"action": "correct", "die": 1, "face": "5+X"})  # after the re-roll: the rule is not redone
    assert game.state.players[0].hives_blackened == []


def test_solo_level_2_a_correction_voids_a_beehive_crossed_where_the_pair_was():
    """Read 2, 3, 5 and corrected to 3, 3, 5 after beehive 3-3 was reported crossed: the pair lay on the table from
    the round's start, so the hive was black before the cross. It stood crossed and black, and scored a honeycomb
    (the rulebook: a blackened beehive can no longer be crossed)."""
    game = new(["Sol"], level=2)
    play_turn(game, dice=["1", "2", "4"])  # round 1, a "!" round: re-rolled
    game.apply({"action": "roll", "dice": ["2+X", "3+X", "5+X"]})  # round 2: "?", the middle may stay
    game.apply({"action": "take", "die": 2})
    game.apply({"action": "leave"})
    game.apply({"action": "report", "player": "Sol", "beehive": "3-3"})
    said = game.apply({"action": "correct", "die": 1, "face": "3+X"})
    assert "Beehive 3-3 was black from the round's start: your cross there does not count – rub it out." in texts(said)
    game.apply({"action": "end_turn"})
    sol = game.state.players[0]
    assert sol.hives_blackened == ["front:3-3"] and sol.hives_crossed == []


# -- determinism, round-trip, transcripts ------------------------------------------------------------
def test_virtual_rolls_come_from_the_seed_and_replay_identically():
    def run(seed: str) -> EchtSpitze:
        game = new(["Anna", "Ben", "Carl"], seed=seed)
        game.apply({"action": "roll"})
        for die in (1, 2, 3):
            game.apply({"action": "take", "die": die})
        game.apply({"action": "reroll"})
        game.apply({"action": "roll"})
        return game

    a, b = run("x"), run("x")
    assert a.state.dice == b.state.dice and a == b
    assert sum(f.endswith("+X") for f in a.state.dice) <= 3
    assert any(run(str(n)).state.dice != a.state.dice for n in range(5))


@pytest.mark.parametrize("level", [1, 2, 3])
def test_json_round_trip_is_exact_at_every_step(level):
    game = new(["Anna", "Ben", "Carl"], level=level)
    report = {1: {"kind": "lemons"}, 2: {"beehive": "4-4", "kind": "roses"}, 3: {"shape": "L"}}[level]
    steps = [{"action": "roll", "dice": ["1+X", "2", "3", "4+X", "?"]}, {"action": "take", "die": 1},
             {"action": "take", "die": 2}, {"action": "take", "die": 3}, {"action": "reroll"},
             {"action": "roll", "dice": ["5+X", "?"]}, {"action": "report", "player": "Ben", "pierced": True},
             {"action": "report", "player": "Anna", **report}, {"action": "end_turn"}]
    for step in steps:
        game.apply(step)
        data = json.loads(json.dumps(game.to_json()))
        again = EchtSpitze.from_json(data)
        assert again == game and again.to_json() == game.to_json()
        assert again.phase is game.phase


def test_unknown_actions_and_players_are_explained():
    game = new(["Anna", "Ben"])
    assert "does not know the action 'jump'" not in unchanged_after(game, {"action": "jump"}, GameError)
    assert "Echt Spitze does not know the action jump" in unchanged_after(game, {"action": "jump"}, GameError)
    play = {"action": "roll", "dice": plain_roll(game)}
    game.apply(play)
    game.apply({"action": "take", "die": 1})
    game.apply({"action": "take", "die": 2})
    game.apply({"action": "leave"})
    msg = unchanged_after(game, {"action": "report", "player": "Zoe", "kind": "lemons"}, TurnError)
    assert msg == "Zoe is not playing: choose Anna and Ben."


def transcript_lines(players: list[str], level: int) -> list[str]:
    """A whole game as JSON lines: virtual dice from the seed, one completion per turn until the game ends."""
    kinds = {1: list(LEVEL1_KINDS), 2: list(LEVEL2_KINDS), 3: list(LEVEL3_SHAPES)}[level]
    setup: dict[str, Any] = {"action": "setup", "players": players, "level": level,
                             "seed": f"{level}-{len(players)}"}
    setup.update({1: {"kinds": LEVEL1_KINDS}, 2: {"kinds": LEVEL2_KINDS, "star_value": 4},
                  3: {"shapes": LEVEL3_SHAPES}}[level])
    lines = [setup]
    game = EchtSpitze.new(setup)
    turn = 0
    while game.phase is not Phase.FINAL:
        turn += 1
        actions: list[dict[str, Any]] = [{"action": "roll"}]
        actions += [{"action": "take", "die": k + 1} for k in range(len(players))]
        must = game.solo_sign == "!"
        reroll = must or turn % 3 == 0
        actions += [{"action": "reroll"}, {"action": "roll"}] if reroll else [{"action": "leave"}]
        for a in actions:  # the roll first: a solo pair blackens a beehive there
            game.apply(a)
            lines.append(a)
        actions = []
        who = players[turn % len(players)]
        name = kinds[(turn // len(players)) % len(kinds)]
        field = "shape" if level == 3 else "kind"
        report: dict[str, Any] = {"action": "report", "player": who, field: name}
        if level == 2:  # a beehive this player's side has not crossed or blackened yet, where one is left (a turn
            p = game.state.players[turn % len(players)]  # that pierces crosses it on the back)
            side = {"front": "back", "back": "front"}[p.side] if turn % 4 == 0 else p.side
            gone = {*p.hives_crossed, *p.hives_blackened}
            free = [n for n in range(1, 6) if f"{side}:{n}-{n}" not in gone]
            if free:
                report["beehive"] = f"{free[turn % len(free)]}-{free[turn % len(free)]}"
        if turn % 4 == 0:
            report["pierced"] = True
        if name not in game.state.players[turn % len(players)].scored:
            actions.append(report)
        actions.append({"action": "end_turn"})
        for a in actions:
            game.apply(a)
            lines.append(a)
    for i, p in enumerate(players):
        final = {"action": "final", "player": p, "leftover": i}
        final.update({"diagonals": 1, "diamonds": i % 2} if level == 3 else {"stars": i + 1})
        lines.append(final)
    return [json.dumps(x) for x in lines]


@pytest.mark.parametrize("level", [1, 2, 3])
@pytest.mark.parametrize("players", [["Anna"], ["Anna", "Ben"], ["Anna", "Ben", "Carl"],
                                     ["Anna", "Ben", "Carl", "Dora"]])
@pytest.mark.parametrize("lang", ["de", "en"])
def test_whole_games_play_through_transcripts(level, players, lang):
    out = io.StringIO()
    lines = transcript_lines(players, level)
    game = play_transcript(EchtSpitze, lines, out, lang=lang)
    printed = out.getvalue()
    assert game.finished
    if len(players) == 1:
        assert game.state.turn == 14
        assert ("du hast" if lang == "de" else "you scored") in printed
    else:
        assert game.state.winners and ("gewinnt" in printed or "teilen" in printed if lang == "de"
                                       else "wins" in printed or "share" in printed)
    # replaying the same transcript gives the identical state
    again = play_transcript(EchtSpitze, lines, io.StringIO(), lang=lang)
    assert again == game


def test_json_transcript_output_names_lines_and_keys():
    out = io.StringIO()
    play_transcript(EchtSpitze, transcript_lines(["Anna", "Ben"], 1), out, lang="en", as_json=True)
    rows = [json.loads(line) for line in out.getvalue().splitlines()]
    assert rows[-1]["finished"] is True
    assert any(r.get("key", "").startswith("echt.first.") for r in rows[:-1])
    assert all("line" in r and "text" in r for r in rows[:-1])


def test_errors_in_a_transcript_name_the_line():
    lines = ['{"action": "setup", "players": ["Anna", "Ben"], "kinds": {"lemons": [9, 7]}}',
             '{"action": "roll", "dice": ["1", "2", "3", "4"]}',
             '{"action": "take", "die": 1}',
             '{"action": "take", "die": 1}']
    with pytest.raises(GameError) as info:
        play_transcript(EchtSpitze, lines, io.StringIO(), lang="en")
    assert str(info.value).startswith("line 4: ")


def test_the_example_transcript_plays_to_the_end():
    path = ROOT / "examples" / "echt_spitze.jsonl"
    out = io.StringIO()
    game = play_transcript(EchtSpitze, path.read_text(encoding="utf-8").splitlines(), out, lang="en")
    assert game.finished
    text = out.getvalue()
    assert "was first with the" in text and "Bees!" in text and "wins" in text


@pytest.mark.parametrize(("level", "reports", "words"), [
    (1, [{"kinds": ["pears"]}, {"kinds": ["plums"]}, {"kind": "lemons"}], "stars and leftover symbols."),
    (2, [{"kinds": ["roses"]}, {"kinds": ["tulips"]}, {"kind": "lilies"}], "honeycombs are counted already"),
    (3, [{"shape": "line"}, {"shape": "T"}, {"shape": "L"}, {"shape": "square"}],
     "diagonals, diamonds and pierced soap bubbles")])
def test_the_end_asks_for_what_this_levels_sheet_scores(level, reports, words):
    """"Enter each player's stars and leftover symbols" at every level: level 3 has no leftover symbols (it scores
    diagonals, diamonds and pierced bubbles), and level 2's honeycombs are counted by the companion."""
    game = new(["Sara", "Ben"], level)
    said: list[Announcement] = []
    for report in reports:
        said = play_turn(game, [{"player": "Sara", **report}])
    assert game.phase is Phase.FINAL
    assert words in texts(said)[-1]


# -- virtual dice: the extra cross on one face of each of the 3 dice -------------------------------------------
def _virtual_turns(players: list[str], extra_faces: str | None, turns: int, seed: str) -> list[list[str]]:
    """Each roll's dice (and each re-roll's whole row) of ``turns`` virtual turns, every other turn re-rolling."""
    options = {"seed": seed} if extra_faces is None else {"seed": seed, "extra_faces": extra_faces}
    game = new(players, **options)
    rolls = []
    for turn in range(turns):
        game.apply({"action": "roll"})
        rolls.append(list(game.state.dice))
        while game.current_taker is not None:
            game.apply({"action": "take", "die": game.middle[turn % len(game.middle)] + 1})
        if turn % 2 or game.solo_sign == "!":
            game.apply({"action": "reroll"})
            game.apply({"action": "roll"})
            rolls.append(list(game.state.dice))
        else:
            game.apply({"action": "leave"})
        game.apply({"action": "end_turn"})
        if game.phase is not Phase.ROLL:
            break
    return rolls


@pytest.mark.parametrize("players", [["Sol"], ["Anna", "Ben"], ["Anna", "Ben", "Carl", "Dora"]])
def test_virtual_dice_carry_the_extra_cross_on_one_face_of_each_of_the_three_dice(players):
    """Every virtual roll showed three crosses (the mark on every face of the 3 dice): "If one of your chosen dice
    shows an extra cross" was always so. A new game's dice carry it on one face each, a different one: a roll
    shows a cross about every other time, never two of one die's mark, never more than three."""
    from companion.games.echt_spitze.state import EXTRA_FACE_OF, number

    rolls = _virtual_turns(players, "one", 14, "one-face")
    marks = [(k, f) for dice in rolls for k, f in enumerate(dice) if f.endswith("+X")]
    assert all(k < len(EXTRA_FACE_OF) and number(f) == EXTRA_FACE_OF[k] for k, f in marks)  # die k's own face
    assert 0 < len(marks) < len(rolls)  # three a roll was 3 * len(rolls)


def test_old_setups_roll_on_with_the_mark_on_every_face():
    """A journal from before ``extra_faces`` replays as it was played: its virtual rolls came from the seed with
    the mark on every face of the 3 dice, three crosses a roll."""
    rolls = _virtual_turns(["Anna", "Ben", "Carl"], None, 6, "old")
    assert all(sum(f.endswith("+X") for f in dice) == 3 for dice in rolls)
    game = new(["Anna", "Ben"], seed="x")
    assert game.state.extra_faces == "every" and all(len(m) == 6 for m in game.virtual_faces())
    assert EchtSpitze.from_json({k: v for k, v in game.to_json().items()}) == game


def test_a_rerolled_middle_die_keeps_its_mark_and_the_three_are_never_exceeded():
    """A middle die that showed a mark is that die (its mark on the face it showed); one that showed none is one
    of the 3 only where its place is theirs and no other die shows its mark; the dice taken with marks leave
    that many fewer: a camera's roll lies in any order."""
    from companion.games.echt_spitze.state import PLAIN_FACES

    game = new(["Anna", "Ben", "Carl"], extra_faces="one")
    game.apply({"action": "roll", "dice": ["4", "2+X", "5+X", "1+X", "3"]})  # read by a camera: marks anywhere
    for die in (3, 4, 5):
        game.apply({"action": "take", "die": die})  # 5+X, 1+X and 3 taken; 4 and 2+X in the middle
    game.apply({"action": "reroll"})
    models = game.virtual_faces()
    assert models[1] == ("1", "2+X", "3", "4", "5", "?")  # the 2's die
    assert models[0] == PLAIN_FACES  # the first place's die would be the 1's, whose mark Ben's die shows
    with pytest.raises(DiceError):
        game.apply({"action": "roll", "dice": ["1+X", "2+X"]})  # four marks: refused as ever


def test_the_setup_refuses_an_unknown_extra_faces():
    with pytest.raises(SetupError) as info:
        new(["Anna"], extra_faces="some")
    assert "extra_faces" in info.value.text("en") and "'some'" in info.value.text("en")
