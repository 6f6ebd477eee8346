"""Whole Noch X-Mal! games played through table transcripts, as `companion play noch-x-mal --script` runs."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from companion.games.base import GameError, play_transcript
from companion.games.noch_x_mal import NochXMal

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "noch_x_mal.jsonl"


class Transcript:
    """Builds the JSON lines of a table transcript and plays them headless."""

    def __init__(self, players, **options) -> None:
        self.lines = [json.dumps({"action": "setup", "players": players, **options})]

    def add(self, action: str, **fields) -> Transcript:
        self.lines.append(json.dumps({"action": action, **fields}))
        return self

    def discards(self, player: str, count: int) -> Transcript:
        for _ in range(count):
            self.add("discard", player=player)
        return self

    def play(self, lang: str = "en") -> tuple[NochXMal, list[dict], str]:
        out = io.StringIO()
        engine = play_transcript(NochXMal, self.lines, out, lang=lang, as_json=True)
        records = [json.loads(line) for line in out.getvalue().splitlines()]
        assert records[-1]["final"] == engine.to_json() and records[-1]["finished"] == engine.finished
        text = io.StringIO()
        play_transcript(NochXMal, self.lines, text, lang=lang)  # the plain-text form prints too
        return engine, records[:-1], text.getvalue()


def said(records: list[dict], key_prefix: str) -> list[str]:
    return [r["text"] for r in records if r["key"].startswith(key_prefix)]


# -- four players: pick and pass, simultaneous first reachers, a lone winner -------------------------------
def four_player_game() -> Transcript:
    g = Transcript(["Anna", "Ben", "Carl", "Dora"], seed=3)
    g.add("start_combo", player="Anna", dice=["yellow", "4"])
    g.add("start_combo", player="Ben", dice=["2", "red"])
    g.add("start_combo", player="Carl", dice=["blue", "5"])
    g.add("start_combo", player="Dora", dice=["green", "1"])
    g.add("first_player", player="Carl")
    # roll 1 (Carl): everybody chooses from all dice; Ben passes with red + 2 showing
    g.add("roll", dice=["red", "yellow", "blue", "4", "2", "5"]).add("pass", player="Ben").add("end_roll")
    g.add("roll", dice=["orange", "green", "color-joker", "1", "1", "3"]).add("end_roll")  # roll 2 (Dora)
    g.add("roll", dice=["yellow", "yellow", "red", "number-joker", "4", "5"]).add("end_roll")  # roll 3 (Anna)
    # roll 4 (Ben) picks first; Ben and Carl fill column A in the same roll
    g.add("roll", dice=["red", "blue", "green", "2", "3", "5"]).add("pick", player="Ben", dice=["red", "2"])
    g.add("reached", player="Ben", goals=["column-A"]).add("reached", player="Carl", goals=["column-A"])
    g.add("discard", player="Ben").add("discard", player="Carl").add("end_roll")
    # roll 5 (Carl) passes: the others choose from all six
    g.add("roll", dice=["blue", "blue", "orange", "5", "5", "1"]).add("pass", player="Carl")
    g.add("reached", player="Anna", goals=["colour-yellow"]).discards("Anna", 4).add("end_roll")
    for roll, active in ((6, "Dora"), (7, "Anna"), (8, "Ben")):
        g.add("roll", dice=["green", "orange", "yellow", "1", "2", "3"]).add(
            "pick", player=active, dice=["green", "1"]
        )
        g.discards("Anna", 2 if roll < 8 else 2).discards("Dora", 1)
        g.add("end_roll")
    return g


def test_four_player_game_to_the_end():
    engine, records, text = four_player_game().play()
    assert engine.finished and engine.state.winners == ["Anna"]
    assert said(records, "nxm.start_combo")[1] == "Ben's start combo: red 2."
    assert said(records, "nxm.first_player") == ["Carl starts."]
    # who threw: said by the call before it ("Carl starts.", "Pass the dice to Dora."); the roll, for an undo's
    # words: what to do, short (the roll's number and the rule stand on the screen)
    assert said(records, "nxm.turn")[0] == "Pass the dice to Dora."
    assert said(records, "nxm.roll_open")[0] == "Everybody chooses a pair."
    assert said(records, "nxm.roll_active")[0] == "Ben chooses first."
    assert said(records, "nxm.pass_fields") == [
        "Ben passes: cross 2 fields.",
        "Carl passes: cross 4 fields.",  # blue 5: two blue dice and two fives
    ]
    assert said(records, "nxm.picked")[0] == "Ben has chosen: now the others."
    assert said(records, "nxm.active_passed") == ["The others: all six dice."]
    assert said(records, "nxm.firsts") == [
        "First: column A for Ben and Carl! Everybody else blackens that pink bonus.",
        "First: yellow for Anna!",
    ]
    assert said(records, "nxm.last_chip") == [
        "Anna has discarded the last X-chip! The game ends after this roll."
    ]
    assert said(records, "nxm.winner") == ["Anna has discarded all X-chips and wins!"]
    assert [p.chips for p in engine.state.players] == [0, 9, 9, 7]
    assert engine.state.claims["column-A"].players == ["Ben", "Carl"]
    assert "[" in text and "final state:" in text


def test_four_player_game_in_german():
    _, records, _ = four_player_game().play(lang="de")
    assert said(records, "nxm.winner") == ["Anna hat alle X-Chips abgeworfen und gewinnt!"]
    assert said(records, "nxm.firsts")[0] == ("Zuerst: Spalte A für Ben und Carl! Alle anderen schwärzen diesen "
                                              "pinken Bonus.")


def test_replaying_a_transcript_gives_the_identical_state():
    first, _, _ = four_player_game().play()
    second, _, _ = four_player_game().play()
    assert first.to_json() == second.to_json()
    assert NochXMal.from_json(json.loads(json.dumps(first.to_json()))).state == first.state


# -- two players: colour + number pass match, a gifted chip used -------------------------------------------
def test_two_player_game_with_gift_and_pass_count():
    g = Transcript(["Anna", "Ben"])
    g.add("start_combo", player="Anna", dice=["yellow", "4"]).add(
        "start_combo", player="Ben", dice=["red", "2"]
    )
    g.add("roll", dice=["yellow", "blue", "green", "4", "1", "2"])  # roll 1 (Anna)
    g.add("pass", player="Anna")  # one yellow and one 4: two fields
    g.add("end_roll")
    g.add("roll").add("end_roll").add("roll").add("end_roll")  # rolls 2, 3 with virtual dice
    g.add("roll", dice=["red", "orange", "blue", "3", "3", "5"])  # roll 4 (Ben)
    g.add("pick", dice=["orange", "3"])
    g.add("discard", player="Anna", gift="all-dice", to="Ben")
    g.add("discard", player="Anna", gift="joker", to="Ben").add("end_roll")
    g.add("roll", dice=["red", "orange", "blue", "3", "3", "5"])  # roll 5 (Anna)
    g.add("pick", dice=["red", "5"]).add("use_gift", player="Ben", gift="all-dice")
    g.add("use_gift", player="Ben", gift="joker")
    g.discards("Ben", 10).add("end_roll")
    engine, records, _ = g.play()
    assert said(records, "nxm.pass_fields") == ["Anna passes: cross 2 fields."]
    assert said(records, "nxm.gift_given")[0] == (
        "Anna discards an X-chip and gives Ben the gift “all dice”, usable from the next roll. 9 left."
    )
    assert said(records, "nxm.gift_used") == [
        "Ben uses the gift “all dice”: Ben chooses from all six dice.",
        "Ben uses the joker gift: circle a grey joker.",
    ]
    assert engine.state.roll.gifts_used == [["Ben", "all-dice"], ["Ben", "joker"]]
    assert engine.state.players[1].gifts == []
    assert engine.state.winners == ["Ben"] and engine.finished


def test_gift_used_too_early_stops_the_transcript_with_its_line():
    g = Transcript(["Anna", "Ben"])
    g.add("start_combo", player="Anna", dice=["yellow", "4"]).add(
        "start_combo", player="Ben", dice=["red", "2"]
    )
    g.add("roll").add("discard", player="Anna", gift="joker", to="Ben").add(
        "use_gift", player="Ben", gift="joker"
    )
    with pytest.raises(GameError, match=r"^line 6: Ben may use Joker only from roll 2 on\.$"):
        g.play()


# -- six players: three finish in one roll, decided at the third tie-break level ---------------------------
def test_six_player_game_three_level_tie_break():
    names = ["Anna", "Ben", "Carl", "Dora", "Emil", "Fay"]
    g = Transcript(names, seed="club night", first="Emil")
    for name in names:
        g.add("start_combo", player=name)  # virtual start combos
    for _ in range(3):  # rolls 1-3 (Emil, Fay, Anna): open choice
        g.add("roll").discards("Anna", 3).discards("Ben", 3).discards("Carl", 3).add("end_roll")
    g.add("roll").add("pass", player="Ben").add("end_roll")  # roll 4 is Ben's
    g.add("roll", dice=["red", "green", "blue", "1", "2", "3"]).add(
        "pick", player="Carl", dice=["green", "2"]
    )
    g.add("reached", player="Fay", goals=["pass-end"]).add("reached", player="Dora", goals=["pass-end"])
    g.discards("Anna", 1).discards("Ben", 1).discards("Carl", 1).discards("Fay", 2).add("end_roll")
    g.add("tiebreak", player="Carl", symbols=12, pass_fields=8, columns=6)
    g.add("tiebreak", player="Anna", symbols=12, pass_fields=9, columns=5)
    g.add("tiebreak", player="Ben", symbols=12, pass_fields=9, columns=4)
    engine, records, _ = g.play()
    assert said(records, "nxm.tiebreak_needed") == [
        "Anna, Ben and Carl discarded all X-chips in the same roll. Count your X-chip symbols, "
        "pass-track fields and completed columns."
    ]
    assert said(records, "nxm.firsts") == [
        "First: the end of the pass track for Fay and Dora! Everybody else blackens that pink bonus."
    ]
    # three players' last chips in one roll: the game's end said once ("... The game ends after this roll." three
    # times held the tie-break back)
    assert said(records, "nxm.last_chip") == [
        "Anna has discarded the last X-chip! The game ends after this roll.", "Ben too.", "Carl too."]
    assert said(records, "nxm.winner_by") == ["Anna wins with the most completed columns!"]
    assert engine.state.winners == ["Anna"] and engine.state.decided_by.value == "columns"
    assert engine.state.players[5].chips == 8


def test_six_players_roll_order_is_clockwise_from_the_first():
    names = ["Anna", "Ben", "Carl", "Dora", "Emil", "Fay"]
    g = Transcript(names, first="Emil")
    for name in names:
        g.add("start_combo", player=name)
    for active in ["Emil", "Fay", "Anna", "Ben", "Carl", "Dora", "Emil"]:
        g.add("roll").add("pass", player=active).add("end_roll")
    _, records, _ = g.play()
    turns = [r["params"]["player"] for r in records if r["key"] in ("nxm.turn", "nxm.turn_restricted")]
    assert turns == ["Fay", "Anna", "Ben", "Carl", "Dora", "Emil", "Fay"]


# -- solo: 30 rolls, strokes, the rating -------------------------------------------------------------------
def test_solo_game_thirty_rolls_and_rating():
    g = Transcript(["Sol"], seed=11)
    g.add("start_combo", player="Sol", dice=["orange", "2"])
    for roll in range(1, 31):
        if roll == 5:
            g.add("roll", dice=["orange", "blue", "2", "5"]).add("pass", player="Sol")
        else:
            g.add("roll")
        g.add("end_roll")
    g.add("solo_score", symbols=19)
    engine, records, _ = g.play()
    strokes = said(records, "nxm.roll_solo")
    assert len(strokes) == 30
    assert strokes[0] == "Roll 1 of 30: draw the stroke diagonally to the right (/) in field A."
    assert strokes[14] == "Roll 15 of 30: draw the stroke diagonally to the right (/) in field O."
    assert strokes[15] == "Roll 16 of 30: draw the stroke diagonally to the left (\\) in field A."
    assert strokes[29] == "Roll 30 of 30: draw the stroke diagonally to the left (\\) in field O."
    assert said(records, "nxm.pass_fields") == ["Sol passes: cross 2 fields."]
    assert said(records, "nxm.solo_over") == [
        "30 rolls played! Count the X-chip symbols you reached and enter them."
    ]
    assert said(records, "nxm.rating") == ["Sol: 19 X-chip symbols. Hopefully achieved without cheating!"]
    assert engine.finished and engine.state.solo_symbols == 19
    assert said(records, "nxm.turn") == []  # "Pass the dice to Sol: roll 2" before each of 30 rolls meant nothing alone


@pytest.mark.parametrize(
    "symbols,ending",
    [(26, "superheroes after all!"), (25, "The Brain\u201d?"), (7, "still needed."), (3, "play again!")],
)
def test_solo_rating_bands(symbols, ending):
    g = Transcript(["Sol"]).add("start_combo", player="Sol")
    for _ in range(30):
        g.add("roll").add("end_roll")
    g.add("solo_score", symbols=symbols)
    _, records, _ = g.play()
    assert said(records, "nxm.rating")[0].endswith(ending)


# -- the shipped example -----------------------------------------------------------------------------------
def test_example_transcript_plays_to_the_end():
    engine, records, _ = play_example()
    assert engine.finished
    assert said(records, "nxm.winner")


def play_example():
    lines = EXAMPLE.read_text(encoding="utf-8").splitlines()
    out = io.StringIO()
    engine = play_transcript(NochXMal, lines, out, lang="en", as_json=True)
    records = [json.loads(line) for line in out.getvalue().splitlines()][:-1]
    return engine, records, out.getvalue()


def test_a_rolls_calls_to_act_give_way_to_the_next_rolls_at_club_pace():
    """Five players at a few seconds a roll: the voice said "Roll 4: Jo chooses a pair first or passes" at roll
    10. A roll's calls (who rolls, who chooses, who has chosen) are prompts: a newer one takes the place of one
    not yet heard; what a player must cross (passes, first reaches) stays."""
    from companion.announce import Announcement
    from companion.announcer import Announcer
    from companion.speech import Speech

    g = four_player_game()
    announcer = Announcer("en", 80, speech=Speech(lambda text, lang: None, threaded=False))
    announcer.announce(Announcement("nxm.first_player", {"player": "Carl"}))  # something showing all along
    announcer.update(0.0)
    engine = NochXMal.new(json.loads(g.lines[0]))
    for line in g.lines[1:]:
        for a in engine.apply(json.loads(line)):
            announcer.announce(a)
    waiting = [a.key for a in announcer.queued]
    calls = ("nxm.roll_open", "nxm.roll_active", "nxm.picked", "nxm.turn")
    assert sum(k in calls for k in waiting) <= 1  # only the newest call to act
    assert waiting.count("nxm.pass_fields.one") + waiting.count("nxm.pass_fields.many") == 2  # Ben's and Carl's
    solo = Transcript(["Sol"], seed=11).add("start_combo", player="Sol", dice=["orange", "2"])
    solo.add("roll", dice=["orange", "blue", "2", "5"]).add("pick", player="Sol", dice=["orange", "2"])
    _, records, _ = solo.play()
    assert said(records, "nxm.picked") == []  # alone, "Sol has chosen" told her what she did
