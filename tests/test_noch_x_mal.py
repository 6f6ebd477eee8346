"""Noch X-Mal! engine rules one at a time: dice input, choices, pass track, claims, chips, gifts, errors."""

from __future__ import annotations

import json

import pytest

from companion.games.noch_x_mal import NochXMal, NxmError, Phase
from companion.games.noch_x_mal.errors import ChipError, DiceError, GoalError, SetupError, TurnError
from companion.i18n import catalog
from companion.i18n import t as translate

ROLL6 = ["red", "yellow", "blue", "4", "2", "5"]


def started(players=("Anna", "Ben", "Carl"), combos=None, first=None) -> NochXMal:
    combos = combos or [
        ["yellow", "4"],
        ["red", "2"],
        ["blue", "5"],
        ["green", "1"],
        ["orange", "3"],
        ["red", "5"],
    ]
    setup = {"action": "setup", "players": list(players), "seed": 7}
    if first:
        setup["first"] = first
    game = NochXMal.new(setup)
    for name, combo in zip(players, combos, strict=False):
        game.apply({"action": "start_combo", "player": name, "dice": combo})
    return game


def at_roll(game: NochXMal, number: int, dice=None) -> NochXMal:
    """Play plain rolls (active passes where needed) until roll ``number`` is out."""
    while game.state.rolls < number:
        if game.state.phase == Phase.ROLLED:
            roll = game.state.roll
            if roll.number >= 4 and roll.pick is None and not roll.active_passed:
                game.apply({"action": "pass", "player": roll.active})
            game.apply({"action": "end_roll"})
        game.apply({"action": "roll", "dice": dice or ROLL6})
    return game


def rejected(game: NochXMal, action: dict, cls: type[NxmError], key: str) -> NxmError:
    """The action is refused with the expected message and the state is exactly as before."""
    before = json.dumps(game.to_json(), sort_keys=True)
    with pytest.raises(cls) as info:
        game.apply(action)
    assert info.value.key == key
    assert json.dumps(game.to_json(), sort_keys=True) == before
    return info.value


# -- setup and start combos ----------------------------------------------------------------------------------
def test_setup_hands_out_chip_colours_and_ten_chips():
    game = NochXMal.new({"action": "setup", "players": ["Anna", {"name": "Ben", "chips": "red"}, "Carl"]})
    assert [p.chip_colour for p in game.state.players] == ["yellow", "red", "green"]
    assert [p.chips for p in game.state.players] == [10, 10, 10]
    assert game.state.phase == Phase.START


@pytest.mark.parametrize(
    "players,key",
    [
        ([], "nxm.err.players_count"),
        (["A"] * 7, "nxm.err.players_count"),
        (["Anna", "anna"], "nxm.err.duplicate_name"),
        (["Anna", " "], "nxm.err.player_name"),
        ([{"name": "A", "chips": "pink"}, "B"], "nxm.err.chip_colour"),
        ([{"name": "A", "chips": "red"}, {"name": "B", "chips": "red"}], "nxm.err.chip_colour_taken"),
    ],
)
def test_bad_setup_is_explained(players, key):
    with pytest.raises(SetupError) as info:
        NochXMal.new({"action": "setup", "players": players})
    assert info.value.key == key
    assert str(info.value) == info.value.text("en") != info.value.localized("de") == info.value.text("de")


def test_joker_in_start_combo_is_rejected_with_reroll_message():
    game = NochXMal.new({"action": "setup", "players": ["Anna", "Ben"]})
    err = rejected(
        game,
        {"action": "start_combo", "player": "Anna", "dice": ["color-joker", "3"]},
        DiceError,
        "nxm.err.start_joker",
    )
    assert "Anna rolls the joker again" in err.text("en")
    assert "Anna würfelt den Joker noch einmal" in err.localized("de")
    rejected(
        game,
        {"action": "start_combo", "player": "Anna", "dice": ["red", "number-joker"]},
        DiceError,
        "nxm.err.start_joker",
    )
    rejected(
        game,
        {"action": "start_combo", "player": "Anna", "dice": ["red", "blue"]},
        DiceError,
        "nxm.err.start_pair",
    )
    rejected(
        game,
        {"action": "start_combo", "player": "Anna", "dice": [None, "3"]},
        DiceError,
        "nxm.err.die_unread",
    )


def test_a_start_combo_die_missing_is_said_missing_not_a_wrong_pair():
    """One of the two start dice fell off the tray: the table hears that one die of two lies there, not that the
    combo must be one colour die and one number die (which it was)."""
    game = NochXMal.new({"action": "setup", "players": ["Anna", "Ben"]})
    err = rejected(game, {"action": "start_combo", "player": "Anna", "dice": ["3"]}, DiceError, "nxm.err.dice_count")
    assert err.params["given"] == 1 and err.params["expected"] == 2
    assert "gebraucht werden 2" in err.localized("de") and "2 are needed" in err.text("en")
    rejected(game, {"action": "start_combo", "player": "Anna", "dice": ["red", "3", "4"]}, DiceError,
             "nxm.err.start_pair")


def test_virtual_start_combo_never_keeps_a_joker_and_is_reproducible():
    combos = set()
    for seed in range(40):
        game = NochXMal.new({"action": "setup", "players": ["Anna", "Ben"], "seed": seed})
        game.apply({"action": "start_combo", "player": "Anna"})
        again = NochXMal.new({"action": "setup", "players": ["Anna", "Ben"], "seed": seed})
        again.apply({"action": "start_combo", "player": "Anna"})
        anna = game.state.players[0]
        assert anna.start_colour in ("red", "orange", "yellow", "green", "blue")
        assert anna.start_number in ("1", "2", "3", "4", "5")
        assert again.to_json() == game.to_json()
        combos.add((anna.start_colour, anna.start_number))
    assert len(combos) > 5  # the seed really drives the dice


def test_roll_waits_for_every_start_combo_and_first_player_is_chosen():
    game = NochXMal.new({"action": "setup", "players": ["Anna", "Ben", "Carl"]})
    game.apply({"action": "start_combo", "player": "Anna", "dice": ["4", "yellow"]})
    err = rejected(game, {"action": "roll", "dice": ROLL6}, TurnError, "nxm.err.start_missing")
    assert "Ben and Carl" in err.text("en")
    game.apply({"action": "start_combo", "player": "Ben", "dice": ["red", "2"]})
    game.apply({"action": "start_combo", "player": "Carl", "dice": ["blue", "5"]})
    said = game.apply({"action": "first_player", "player": "carl"})
    assert said[0].text("en") == "Carl starts."
    game.apply({"action": "roll", "dice": ROLL6})
    assert game.state.roll.active == "Carl"
    rejected(game, {"action": "first_player", "player": "Anna"}, TurnError, "nxm.err.first_player_late")


def test_who_begins_is_said_at_once_ahead_of_the_start_combos_still_being_said(tmp_path):
    """Four start combos rolled 1.5 s apart, then who begins chosen: "Anna-Sophie beginnt." came 6.9 s late behind
    two combos' sentences (2.5 s apart: 2.9 s, behind the last). Through a session and the announcer (a fake voice of
    0.05 s a letter): said at once, the combo cut said after it, and the call to choose, answered, not at all."""
    from test_announcer import RecordingAudio, fake_synth

    from companion.announcer import FIRST_WAITS_FOR, Announcer
    from companion.journal import Journal
    from companion.session import GameSession
    from companion.speech import Speech

    names = ["Anna-Sophie", "Ben", "Carla", "David"]
    ann = Announcer("de", audio=RecordingAudio(), speech=Speech(fake_synth, threaded=False))
    session = GameSession.new(NochXMal, {"action": "setup", "players": names}, Journal(tmp_path), announcer=ann,
                              announce=ann.announce)
    steps = {round(1.0 + 1.5 * i, 2): {"action": "start_combo", "player": n, "dice": c}
             for i, (n, c) in enumerate(zip(names, (["red", "3"], ["blue", "4"], ["green", "1"], ["yellow", "5"]),
                                            strict=True))}
    steps[8.0] = {"action": "first_player", "player": "Anna-Sophie"}
    heard: list[tuple[float, str]] = []
    for tick in range(600):  # 30 s at 20 frames a second
        now = tick / 20
        if now in steps:
            assert session.apply(steps[now]), session.error
        ann.update(now)
        if ann.current is not None and (not heard or heard[-1][1] != ann.current.text):
            heard.append((now, ann.current.text))
    start = next(now for now, text in heard if text == "Anna-Sophie beginnt.")
    assert start - 8.0 <= FIRST_WAITS_FOR  # at once, or once the last words of the combo being said are said
    said = [text for _, text in heard]
    assert "Startkombi von David: Gelb 5." in said  # (ending, cut and said after it, or still waiting)
    assert {text for text in said if text.startswith("Startkombi")} == {
        f"Startkombi von {n}: {c}." for n, c in zip(names, ("Rot 3", "Blau 4", "Grün 1", "Gelb 5"), strict=True)}


# -- dice input ----------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "dice,key",
    [
        (["red", "yellow", None, "4", "2", "5"], "nxm.err.die_unread"),
        (["red", "yellow", "blue", "4", "2"], "nxm.err.dice_count"),
        (["red", "yellow", "blue", "4", "2", "5", "3"], "nxm.err.dice_too_many"),
        (["red", "yellow", "blue", "green", "2", "5"], "nxm.err.dice_mix"),
        (["red", "yellow", "blue", "4", "2", "6"], "nxm.err.six"),
        (["red", "yellow", "purple", "4", "2", "5"], "nxm.err.unknown_face"),
    ],
)
def test_bad_rolls_are_rejected(dice, key):
    game = started()
    err = rejected(game, {"action": "roll", "dice": dice}, DiceError, key)
    if key == "nxm.err.die_unread":
        assert err.text("en") == "Die 3 was not read: correct it on the screen or roll again."
    if key == "nxm.err.dice_count":  # all six in the tray, two touching: pushed apart, not thrown again
        assert "touching each other look like one" in err.text("en") and "no new throw" in err.text("en")


def test_a_roll_read_in_any_order_is_kept_colour_dice_first():
    """The camera reads the dice in no order of theirs; the game keeps a roll's colour dice first (each kind in the
    order given), which is how the screen groups them."""
    game = started()
    game.apply({"action": "roll", "dice": ["4", "red", "2", "color-joker", "5", "blue"]})
    assert game.state.roll.dice == ["red", "color-joker", "blue", "4", "2", "5"]


def test_roll_numbers_and_who_chooses_from_what():
    game = started(first="Ben")
    said = game.apply({"action": "roll", "dice": ["red", "color-joker", "blue", "4", "2", "5"]})
    # who: said by the call before; the roll's number and "from all dice" stand on the screen (said with the call,
    # the roll's call and the pick's filled 8.9 s of a brisk table's 6 s roll)
    assert said[0].text("en") == "Everybody chooses a pair."
    assert said[0].text("de") == "Alle wählen ein Paar."
    # the faces said after the call, a joker named: a player who cannot see the tray heard only whose choice it was
    assert said[1].text("de") == "Gewürfelt: Rot, Farbjoker und Blau; 4, 2 und 5."
    assert said[1].text("en") == "Rolled: Red, Colour joker and Blue; 4, 2 and 5."
    assert said[1].speak and {"roll", "pick", "pass", "end_roll"} <= set(said[1].until)  # answered, it is old
    assert said[2].key == "nxm.joker_reminder" and not said[2].speak
    assert "never 6" in said[2].text("en")
    assert game.choosable_for("Carl") == [0, 1, 2, 3, 4, 5]
    at_roll(game, 4)
    assert game.state.roll.active == "Ben"
    assert game.choosable_for("Carl") is None  # Ben decides first
    rejected(game, {"action": "end_roll"}, TurnError, "nxm.err.active_undecided")
    said = game.apply({"action": "pick", "dice": ["4", "yellow"]})
    assert said[0].text("en") == "Ben has chosen: now the others."
    assert said[0].text("de") == "Ben hat gewählt: jetzt die anderen."
    assert said[0].until == ("end_roll",)  # the others' call: over with the roll
    assert game.state.roll.pick == [1, 3]
    assert game.choosable_for("Carl") == [0, 2, 4, 5]
    assert game.choosable_for("Ben") == [0, 1, 2, 3, 4, 5]


def test_the_rule_change_at_the_fourth_roll_is_said_in_the_call_of_whose_turn_it_is():
    """"Ab jetzt wählt, wer würfelt, zuerst ein Paar" was a screen note, overtaken by the next roll's words at once
    and never seen: from the fourth roll the table plays by another rule without a word. Then a sentence of its own,
    whose chime and gap held the call back: now one sentence, the call first. Not a call a newer one drops: at a
    real pace the roll's call dropped it, and the rule with it."""
    game = at_roll(started(first="Ben"), 3)
    said = game.apply({"action": "end_roll"})
    assert [a.key for a in said][:1] == ["nxm.turn_restricted"]
    player = game.active_player.name
    # short (the screen shows the rule; "jetzt die anderen" is said at each pick): its 9.4 s
    # and the firsts after it pushed the next calls past the next roll, where newer calls dropped them
    assert said[0].text("de") == f"Würfel an {player}: Wurf 4. Ab jetzt wählt, wer würfelt, zuerst ein Paar."
    assert said[0].text("en") == f"Pass the dice to {player}: roll 4. From now on whoever rolls chooses a pair first."
    assert said[0].speak and not said[0].prompt and not said[0].essential  # not said over the menu once left
    game.apply({"action": "roll", "dice": ROLL6})
    game.apply({"action": "pass", "player": game.state.roll.active})
    assert [a.key for a in game.apply({"action": "end_roll"})][:1] == ["nxm.turn"]  # once


def test_pair_of_two_number_dice_is_rejected():
    game = at_roll(started(), 4)
    err = rejected(game, {"action": "pick", "dice": ["4", "2"]}, DiceError, "nxm.err.pair")
    assert err.text("en") == "Choose exactly one colour die and one number die."
    rejected(game, {"action": "pick", "dice": ["red", "blue"]}, DiceError, "nxm.err.pair")
    err = rejected(game, {"action": "pick", "dice": ["green", "4"]}, DiceError, "nxm.err.pair_not_rolled")
    assert err.text("en").startswith("Green is not in this roll")
    assert err.localized("de").startswith("Grün liegt nicht im Wurf")
    rejected(
        game, {"action": "pick", "player": "Carl", "dice": ["red", "4"]}, TurnError, "nxm.err.not_active"
    )


def test_active_pass_opens_all_six_dice_and_counts_pass_fields():
    game = at_roll(started(), 4, dice=["yellow", "red", "blue", "4", "4", "1"])
    active = game.state.roll.active
    assert active == "Anna"  # seat 0 starts: rolls 1 and 4 are Anna's
    said = game.apply({"action": "pass", "player": "Anna"})
    # Anna's start combo is yellow 4: one yellow die and two fours
    assert said[0].text("en") == "Anna passes: cross 3 fields."
    assert said[0].text("de") == "Anna passt: 3 Felder ankreuzen."
    assert said[1].text("en") == "The others: all six dice."  # who passed: the sentence before
    assert said[1].text("de") == "Die anderen: alle sechs Würfel."
    assert said[1].until == ("end_roll",)
    assert game.choosable_for("Ben") == [0, 1, 2, 3, 4, 5]
    rejected(game, {"action": "pick", "dice": ["red", "4"]}, TurnError, "nxm.err.active_decided")
    rejected(game, {"action": "pass", "player": "Anna"}, TurnError, "nxm.err.already_passed")


def test_in_rolls_1_to_3_the_active_player_may_pass_after_a_pair_but_not_from_roll_4():
    """"You can always freely decide whether you want to use a roll or not": in rolls 1-3 the active player's pair
    changes nothing for the others, and a pass after it was refused (only UNDO helped). From roll 4 the others
    choose from the four dice the pair left, so it stays refused there."""
    game = at_roll(started(), 1, dice=["yellow", "red", "blue", "4", "4", "1"])
    game.apply({"action": "pick", "dice": ["red", "4"]})
    said = game.apply({"action": "pass", "player": "Anna"})
    assert said[0].text("en") == "Anna passes: cross 3 fields."
    assert game.state.roll.pick is None and game.state.roll.passes == {"Anna": 3}
    game = at_roll(started(), 4, dice=["yellow", "red", "blue", "4", "4", "1"])
    game.apply({"action": "pick", "dice": ["red", "4"]})
    rejected(game, {"action": "pass", "player": "Anna"}, TurnError, "nxm.err.active_decided")


def test_pass_count_colour_and_number_each_die_once_jokers_never_match_at_least_one():
    game = at_roll(started(), 1, dice=["red", "color-joker", "green", "2", "number-joker", "2"])
    # Ben: red 2 -> the red die and both twos; jokers do not count
    assert game.apply({"action": "pass", "player": "Ben"})[0].params == {"player": "Ben", "count": 3}
    # Anna: yellow 4 -> nothing matches, still one field
    said = game.apply({"action": "pass", "player": "Anna"})
    assert said[0].key == "nxm.pass_fields.one"
    assert game.state.roll.passes == {"Ben": 3, "Anna": 1}


def test_a_pass_is_a_detail_the_passer_pressed_it_and_the_banner_shows_it():
    """With the calls only, "Ben passt: 3 Felder ankreuzen" was said all the same and the next roller's call waited
    behind it (a brisk table missed "Würfel an ..." on 8 of 26 rolls): the passer knows, the banner shows it."""
    game = at_roll(started(), 4, dice=["yellow", "red", "blue", "4", "4", "1"])
    said = game.apply({"action": "pass", "player": "Ben"})
    assert [a.detail for a in said if a.key.startswith("nxm.pass_fields")] == [True]
    said = game.apply({"action": "pass", "player": "Anna"})
    assert said[0].key == "nxm.pass_fields.many" and said[0].detail
    assert not said[1].detail  # "the others: all six dice" is the others' call


# -- correcting a die read wrongly ----------------------------------------------------------------------------
def test_a_die_read_wrongly_is_corrected_while_the_roll_is_on_and_pass_counts_follow():
    """The camera read a yellow die as red, for sure: nobody was asked. The table corrects it: the roll keeps its
    order and Anna's pair its dice (now yellow + 4); Ben (red 2), who passed on the red die and the 2, crosses 1
    field, not 2, and is told; Carl's count (blue 5) stays, until the 5 turns out to be a joker."""
    game = at_roll(started(), 4, dice=["red", "blue", "green", "4", "2", "5"])
    game.apply({"action": "pick", "dice": ["red", "4"]})
    game.apply({"action": "pass", "player": "Ben"})
    game.apply({"action": "pass", "player": "Carl"})
    assert game.state.roll.passes == {"Ben": 2, "Carl": 2}  # Ben: red, 2; Carl: blue, 5
    said = game.apply({"action": "correct", "die": 1, "face": "yellow"})
    roll = game.state.roll
    assert roll.dice == ["yellow", "blue", "green", "4", "2", "5"] and roll.pick == [0, 3]
    assert roll.passes == {"Ben": 1, "Carl": 2}
    assert [a.text("en") for a in said] == ["Corrected: Ben crosses 1 field on the pass track, not 2."]
    assert said[0].speak  # Ben has crossed the old count on paper: said aloud
    assert said[0].text("de") == "Korrektur: Ben kreuzt auf der Passleiste ein Feld an, nicht 2."
    said = game.apply({"action": "correct", "die": 6, "face": "number-joker"})  # the 5 was a joker
    assert game.state.roll.passes == {"Ben": 1, "Carl": 1}
    assert [a.key for a in said] == ["nxm.pass_recount", "nxm.joker_reminder"] and not said[1].speak
    assert game.apply({"action": "correct", "die": 4, "face": 3}) == []  # no pass counts this die: nothing to say


@pytest.mark.parametrize(("action", "cls", "key", "english"), [
    ({"die": 7, "face": "red"}, DiceError, "nxm.err.correct_die", "There is no die 7: choose 1 to 6."),
    ({"die": True, "face": "red"}, DiceError, "nxm.err.correct_die", None),
    ({"die": 2, "face": "purple"}, DiceError, "nxm.err.unknown_face", None),
    ({"die": 5, "face": "6"}, DiceError, "nxm.err.unknown_face", None),
    ({"die": 2}, DiceError, "nxm.err.unknown_face", None),
    ({"die": 2, "face": "4"}, DiceError, "nxm.err.correct_colour",
     "Die 2 is a colour die: it shows a colour or the colour joker."),
    ({"die": 4, "face": "color-joker"}, DiceError, "nxm.err.correct_number", None),
    ({"die": 2, "face": "Blue"}, DiceError, "nxm.err.correct_same", "Die 2 already shows Blue."),
])
def test_a_correction_that_cannot_be_is_refused_with_the_reason(action, cls, key, english):
    game = at_roll(started(), 1, dice=["red", "blue", "green", "4", "2", "5"])
    err = rejected(game, {"action": "correct", **action}, cls, key)
    if english is not None:
        assert err.text("en") == english
    assert err.text("de") != err.text("en")


def test_a_correction_only_while_the_rolls_dice_are_in_play():
    game = started()
    rejected(game, {"action": "correct", "die": 1, "face": "red"}, TurnError, "nxm.err.correct_no_roll")
    game.apply({"action": "roll", "dice": ROLL6})
    game.apply({"action": "end_roll"})
    err = rejected(game, {"action": "correct", "die": 1, "face": "green"}, TurnError, "nxm.err.correct_over")
    assert err.text("en") == ("Roll 1 is over: its dice can no longer be corrected. To go back: hold UNDO "
                              "(or undo in the menu).")


def test_a_correction_is_journaled_and_replays_exactly(tmp_path):
    """A correction is a table action like any other: the journal keeps it, a restart replays it, undo takes it
    back."""
    import random

    from companion.journal import Journal
    from companion.session import GameSession, rebuild

    session = GameSession.new(NochXMal, {"action": "setup", "players": ["Anna", "Ben"], "seed": 3},
                              Journal(tmp_path / "journal"), lang="en", rng=random.Random(1))
    for action in ({"action": "start_combo", "player": "Anna", "dice": ["yellow", "4"]},
                   {"action": "start_combo", "player": "Ben", "dice": ["red", "2"]},
                   {"action": "roll", "dice": ROLL6}, {"action": "pass", "player": "Anna"},
                   {"action": "correct", "die": 5, "face": "4"}):
        assert session.apply(action), session.error
    assert session.engine.state.roll.dice == ["red", "yellow", "blue", "4", "4", "5"]
    assert session.engine.state.roll.passes == {"Anna": 3}
    saved = session.journal.load()
    assert saved.actions[-1] == {"action": "correct", "die": 5, "face": "4"}
    replayed = rebuild(NochXMal, saved.actions)
    assert replayed.to_json() == session.engine.to_json()
    assert session.undo()
    assert session.engine.state.roll.dice == ["red", "yellow", "blue", "4", "2", "5"]
    assert session.engine.state.roll.passes == {"Anna": 2}


# -- first to reach ------------------------------------------------------------------------------------------
def test_simultaneous_first_reachers_share_the_pink_bonus_and_later_ones_are_told():
    game = at_roll(started(players=("Anna", "Ben", "Carl", "Dora")), 2)
    game.apply({"action": "reached", "player": "Carl", "goals": ["column-c", "diamonds-top"]})
    game.apply({"action": "reached", "player": "Anna", "goals": "column-C"})
    rejected(
        game,
        {"action": "reached", "player": "Anna", "goals": ["column-C"]},
        GoalError,
        "nxm.err.goal_reported",
    )
    rejected(
        game, {"action": "reached", "player": "Anna", "goals": ["row-P"]}, GoalError, "nxm.err.unknown_goal"
    )
    said = game.apply({"action": "end_roll"})
    texts = [a.text("en") for a in said]
    # the call first, then one sentence for the roll's firsts (one each held the next roller's call back 12-16 s, or
    # dropped it)
    assert texts == [
        f"Pass the dice to {game.active_player.name}.",
        "First: column C for Carl and Anna, top diamond row for Carl! Everybody else blackens those pink bonuses.",
    ]
    said = said[1:]
    assert said[0].text("de") == ("Zuerst: Spalte C für Carl und Anna, obere Rautenreihe für Carl! Alle anderen "
                                  "schwärzen diese pinken Boni.")
    assert said[0].essential
    game.apply({"action": "roll", "dice": ROLL6})
    err = rejected(
        game, {"action": "reached", "player": "Ben", "goals": ["column-C"]}, GoalError,
        "nxm.err.goal_taken_last_roll"
    )
    assert err.text("en") == ("Carl and Anna already reached “Column C” in roll 2: now only the white bonus is left. "
                              "Reached it in roll 2 too? Hold UNDO (or undo in the menu) until roll 2 is back and "
                              "report it there.")
    assert game.open_goals().count("column-C") == 0 and "column-D" in game.open_goals()


def test_a_goal_taken_before_with_only_a_pink_bonus_says_nothing_is_left():
    """"Columns F-J have only pink bonuses", and the pass track's end gives its X-chips to the first only: a later
    report was told "now only the white bonus is left", a bonus those goals do not have."""
    game = at_roll(started(players=("Anna", "Ben")), 1)
    game.apply({"action": "reached", "player": "Anna", "goals": ["column-H", "pass-end", "column-K"]})
    game.apply({"action": "end_roll"})
    game.apply({"action": "roll", "dice": ROLL6})
    game.apply({"action": "end_roll"})
    game.apply({"action": "roll", "dice": ROLL6})  # two rolls later: no way back to roll 1 is offered
    for goal, key in (("column-H", "nxm.err.goal_taken_pink_only"), ("pass-end", "nxm.err.goal_taken_pink_only"),
                      ("column-K", "nxm.err.goal_taken")):
        err = rejected(game, {"action": "reached", "player": "Ben", "goals": [goal]}, GoalError, key)
        assert ("white" in err.text("en")) == (goal == "column-K")
    err = rejected(game, {"action": "reached", "player": "Ben", "goals": ["column-H"]}, GoalError,
                   "nxm.err.goal_taken_pink_only")
    assert err.text("en") == "Anna already reached “Column H” in roll 1: it had only the pink bonus, and that is taken."


def test_a_goal_taken_in_the_roll_just_before_says_how_to_report_it_there():
    """"If someone manages in the same roll to be the first to reach the same bonus, this person also receives the
    pink-outlined bonus": a player who said so only after "Pass the dice to ..." was refused with no way back named (the
    rules audit found it); the refusal now says how to go back to that roll."""
    game = at_roll(started(players=("Anna", "Ben")), 1)
    game.apply({"action": "reached", "player": "Anna", "goals": ["column-H", "column-K"]})
    game.apply({"action": "end_roll"})
    game.apply({"action": "roll", "dice": ROLL6})
    for goal, key in (("column-H", "nxm.err.goal_taken_pink_only_last_roll"),
                      ("column-K", "nxm.err.goal_taken_last_roll")):
        err = rejected(game, {"action": "reached", "player": "Ben", "goals": [goal]}, GoalError, key)
        assert "Hold UNDO (or undo in the menu) until roll 1 is back" in err.text("en")
        assert "ZURÜCK halten (oder im Menü zurücknehmen), bis Wurf 1 wieder da ist" in err.text("de")


def test_everybody_first_at_once_nobody_blackens():
    game = at_roll(started(players=("Anna", "Ben")), 1)
    game.apply({"action": "reached", "player": "Anna", "goals": ["color-blue"]})
    game.apply({"action": "reached", "player": "Ben", "goals": ["colour-blue"]})
    said = game.apply({"action": "end_roll"})[1:]  # after whose roll is next
    assert said[0].key == "nxm.everyone_first"
    assert said[0].text("de") == "Alle zugleich zuerst: Blau! Alle bekommen den pinken Bonus."
    assert said[0].text("en") == "All first together: blue! Everybody gets the pink bonus."


def test_the_firsts_of_one_roll_are_one_sentence_what_the_others_do_said_the_first_time():
    """Three firsts in one roll were three sentences (5.8 + 6.1 + 6.8 s, each with its chime): the next roller's call
    came 12-16 s late or was dropped. And "Everybody else blackens that pink bonus" ended every one of them, all
    game long: said with the game's first firsts, the table knows it."""
    game = at_roll(started(players=("Anna", "Ben", "Carl")), 1)
    game.apply({"action": "reached", "player": "Anna", "goals": ["colour-red"]})
    game.apply({"action": "reached", "player": "Ben", "goals": ["diamonds-top", "points-I"]})
    game.apply({"action": "reached", "player": "Carl", "goals": ["colour-green"]})
    game.apply({"action": "reached", "player": "Anna", "goals": ["colour-green"]})
    game.apply({"action": "reached", "player": "Ben", "goals": ["column-A"]})  # with Carl and Anna: everybody
    game.apply({"action": "reached", "player": "Carl", "goals": ["column-A"]})
    game.apply({"action": "reached", "player": "Anna", "goals": ["column-A"]})
    said = game.apply({"action": "end_roll"})
    assert [a.text("de") for a in said] == [
        f"Würfel an {game.active_player.name}.",
        "Zuerst: Rot für Anna, Grün für Carl und Anna, obere Rautenreihe und Kreuzungspunkte-Reihe I für Ben! "
        "Alle anderen schwärzen diese pinken Boni.",
        "Alle zugleich zuerst: Spalte A! Alle bekommen den pinken Bonus.",
    ]
    assert said[1].essential and said[2].essential and said[0].prompt
    game.apply({"action": "roll", "dice": ROLL6})
    game.apply({"action": "pass", "player": game.state.roll.active})
    game.apply({"action": "reached", "player": "Carl", "goals": ["column-B"]})
    said = game.apply({"action": "end_roll"})[1:]
    assert said[0].text("de") == "Zuerst: Spalte B für Carl!"  # the others know what to do by now
    assert said[0].text("en") == "First: column B for Carl!"
    assert said[0].essential


def test_the_first_firsts_of_a_game_say_what_the_others_do_even_after_everybody_was_first():
    """Everybody first at once blackens nothing: the first firsts the others must blacken still say so."""
    game = at_roll(started(players=("Anna", "Ben")), 1)
    game.apply({"action": "reached", "player": "Anna", "goals": ["colour-blue"]})
    game.apply({"action": "reached", "player": "Ben", "goals": ["colour-blue"]})
    game.apply({"action": "end_roll"})
    game.apply({"action": "roll", "dice": ROLL6})
    game.apply({"action": "pass", "player": game.state.roll.active})
    game.apply({"action": "reached", "player": "Ben", "goals": ["column-B"]})
    said = game.apply({"action": "end_roll"})
    assert said[1].text("en") == "First: column B for Ben! Everybody else blackens that pink bonus."


# -- chips and gifts -----------------------------------------------------------------------------------------
def test_discard_with_gift_needs_another_receiver_and_is_usable_from_next_roll():
    game = at_roll(started(), 4)
    rejected(
        game, {"action": "discard", "player": "Ben", "gift": "joker"}, ChipError, "nxm.err.gift_to_missing"
    )
    rejected(
        game,
        {"action": "discard", "player": "Ben", "gift": "joker", "to": "Ben"},
        ChipError,
        "nxm.err.gift_to_self",
    )
    rejected(
        game,
        {"action": "discard", "player": "Ben", "gift": "wish", "to": "Anna"},
        ChipError,
        "nxm.err.gift_kind",
    )
    said = game.apply({"action": "discard", "player": "Ben", "gift": "plus-minus", "to": "Carl"})
    assert said[0].text("en") == (
        "Ben discards an X-chip and gives Carl the gift “plus-minus-one”, usable from the next roll. 9 left."
    )
    err = rejected(
        game,
        {"action": "use_gift", "player": "Carl", "gift": "plus-minus"},
        ChipError,
        "nxm.err.gift_not_yet",
    )
    assert "from roll 5" in err.text("en")
    rejected(
        game, {"action": "use_gift", "player": "Anna", "gift": "plus-minus"}, ChipError, "nxm.err.no_gift"
    )
    game.apply({"action": "pass", "player": "Anna"})
    game.apply({"action": "end_roll"})
    rejected(
        game,
        {"action": "use_gift", "player": "Carl", "gift": "plus-minus"},
        ChipError,
        "nxm.err.gift_needs_roll",
    )
    game.apply({"action": "roll", "dice": ROLL6})
    said = game.apply({"action": "use_gift", "player": "Carl", "gift": "plus-minus"})
    assert "A 5 never becomes 6" in said[0].text("en")
    assert game.player("Carl").gifts == []


def test_all_dice_gift_lets_a_non_active_player_choose_from_all_six():
    game = at_roll(started(), 3)
    game.apply({"action": "discard", "player": "Anna", "gift": "all-dice", "to": "Carl"})
    at_roll(game, 4)  # Anna is active in roll 4
    game.apply({"action": "pick", "dice": ["blue", "5"]})
    rejected(game, {"action": "use_gift", "player": "Anna", "gift": "joker"}, ChipError, "nxm.err.no_gift")
    assert game.choosable_for("Carl") == [0, 1, 3, 4]
    game.apply({"action": "use_gift", "player": "Carl", "gift": "all-dice"})
    assert game.choosable_for("Carl") == [0, 1, 2, 3, 4, 5]
    assert game.choosable_for("Ben") == [0, 1, 3, 4]


def test_chip_discarded_by_a_player_with_none_left_is_rejected():
    game = at_roll(started(players=("Anna", "Ben")), 1)
    for _ in range(10):
        game.apply({"action": "discard", "player": "Ben"})
    err = rejected(game, {"action": "discard", "player": "Ben"}, ChipError, "nxm.err.no_chips")
    assert err.text("en").startswith("Ben has no X-chips left")
    said = game.apply({"action": "discard", "player": "Anna"})  # the roll goes on for everybody else
    assert said[0].params == {"player": "Anna", "left": 9}
    said = game.apply({"action": "end_roll"})
    assert said[-1].text("en") == "Ben has discarded all X-chips and wins!"
    assert game.finished and game.state.winners == ["Ben"]
    rejected(game, {"action": "roll", "dice": ROLL6}, TurnError, "nxm.err.game_over")


def test_a_plain_discard_is_shown_and_said_aloud_only_for_the_last_few_chips():
    """Every X-chip said aloud ("Anna wirft einen X-Chip ab. Noch 9.") was a third of an evening's spoken words,
    and crowded out what the table must hear. The screen shows each; the voice says the last two and the last."""
    game = at_roll(started(players=("Anna", "Ben")), 1)
    heard = []
    for _ in range(10):
        heard.append([(a.key, a.params.get("left")) for a in game.apply({"action": "discard", "player": "Ben"})
                      if a.speak])
    assert heard[:7] == [[]] * 7
    assert heard[7:] == [[("nxm.discard", 2)], [("nxm.discard", 1)], [("nxm.last_chip", None)]]
    said = game.apply({"action": "discard", "player": "Anna", "gift": "joker", "to": "Ben"})
    assert [a.key for a in said if a.speak] == ["nxm.gift_given.joker"]  # a gift is for someone: said


def test_tie_shared_when_everything_is_equal():
    game = at_roll(started(players=("Anna", "Ben")), 1)
    for name in ("Anna", "Ben"):
        for _ in range(10):
            game.apply({"action": "discard", "player": name})
    said = game.apply({"action": "end_roll"})
    assert said[-1].key == "nxm.tiebreak_needed"
    rejected(game, {"action": "roll", "dice": ROLL6}, TurnError, "nxm.err.in_tiebreak")
    rejected(
        game,
        {"action": "tiebreak", "player": "Anna", "symbols": -1, "pass_fields": 3, "columns": 2},
        NxmError,
        "nxm.err.tiebreak_value",
    )
    game.apply({"action": "tiebreak", "player": "Anna", "symbols": 11, "pass_fields": 3, "columns": 2})
    said = game.apply({"action": "tiebreak", "player": "Ben", "symbols": 11, "pass_fields": 3, "columns": 2})
    assert said[0].text("en") == "Tied in everything: Anna and Ben share the victory!"
    assert game.state.winners == ["Anna", "Ben"] and game.finished


# -- solo ----------------------------------------------------------------------------------------------------
def test_solo_uses_two_and_two_dice_and_no_chips():
    game = NochXMal.new({"action": "setup", "players": ["Sol"]})
    game.apply({"action": "start_combo", "player": "Sol", "dice": ["green", "3"]})
    err = rejected(game, {"action": "roll", "dice": ROLL6}, DiceError, "nxm.err.dice_too_many")
    assert "the dice not played now" in err.text("en")  # the solo game leaves one of each kind out
    said = game.apply({"action": "roll", "dice": ["green", "red", "3", "3"]})
    assert said[0].text("en") == "Roll 1 of 30: draw the stroke diagonally to the right (/) in field A."
    assert said[1].text("de") == "Gewürfelt: Grün und Rot; 3 und 3."  # the solo game's faces too
    rejected(game, {"action": "discard", "player": "Sol"}, ChipError, "nxm.err.solo_no_chips")
    rejected(
        game,
        {"action": "reached", "player": "Sol", "goals": ["column-A"]},
        GoalError,
        "nxm.err.solo_no_goals",
    )
    assert game.apply({"action": "pass", "player": "Sol"})[0].params["count"] == 3
    for _ in range(5):  # roll 6 (past the multi-player games' open rolls): a pair, then a pass, takes its place
        game.apply({"action": "end_roll"})
        game.apply({"action": "roll", "dice": ["green", "red", "3", "3"]})
    game.apply({"action": "pick", "dice": ["green", "3"]})
    assert game.apply({"action": "pass", "player": "Sol"})[0].params["count"] == 3
    assert game.state.roll.pick is None and game.state.roll.number == 6


# -- state -------------------------------------------------------------------------------------------------
def test_json_round_trip_is_exact_mid_game():
    game = at_roll(started(players=("Anna", "Ben", "Carl", "Dora")), 4)
    game.apply({"action": "pick", "dice": ["red", "2"]})
    game.apply({"action": "reached", "player": "Ben", "goals": ["points-II", "pass-end"]})
    game.apply({"action": "discard", "player": "Carl", "gift": "all-dice", "to": "Dora"})
    game.apply({"action": "pass", "player": "Anna"})
    data = json.loads(json.dumps(game.to_json()))
    copy = NochXMal.from_json(data)
    assert copy.state == game.state
    assert copy.to_json() == game.to_json()
    assert copy.apply({"action": "end_roll"})[0].key == game.apply({"action": "end_roll"})[0].key
    assert copy.state == game.state


def test_unknown_action_and_unknown_player():
    game = started()
    rejected(game, {"action": "shuffle"}, TurnError, "nxm.err.unknown_action")
    err = rejected(game, {"action": "first_player", "player": "Zoe"}, TurnError, "nxm.err.unknown_player")
    assert err.text("en") == "Zoe is not playing. At the table: Anna, Ben and Carl."


def test_catalogs_have_the_same_keys_and_placeholders():
    import string

    de, en = catalog("de", "nxm"), catalog("en", "nxm")
    assert de.keys() == en.keys()
    fields = string.Formatter()
    for key in de:
        assert de[key] and en[key], key
        names_de = {f for _, f, _, _ in fields.parse(de[key]) if f}
        names_en = {f for _, f, _, _ in fields.parse(en[key]) if f}
        assert names_de == names_en, key
    assert translate("nxm.face.color-joker", "de") == "Farbjoker"


def test_first_to_the_end_of_the_pass_track_is_told_to_discard_while_the_roll_still_takes_it():
    """"If you are the first to reach the end of the pass track, you may immediately discard two X-chips": it was
    said only at end_roll, with the next roll's dice out and discards closed (and a last chip discarded a roll late
    ended the game a roll late). The report says it now; both discards are taken in the same roll."""
    game = at_roll(started(), 2)
    said = game.apply({"action": "reached", "player": "Ben", "goals": ["pass-end"]})
    assert "discard your two X-chips now, in this roll" in said[0].text("en")
    game.apply({"action": "discard", "player": "Ben"})
    game.apply({"action": "discard", "player": "Ben"})
    assert game.player("Ben").chips == 8
    said = game.apply({"action": "end_roll"})
    assert [a.text("en") for a in said][1] == ("First: the end of the pass track for Ben! Everybody else blackens "
                                              "that pink bonus.")
