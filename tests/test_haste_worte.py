"""Haste Worte? engine: whole games through table transcripts, variants, letters, the hourglass, bad input."""

from __future__ import annotations

import io
import json
import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from companion.announce import Announcement, Sound
from companion.games import engine_class
from companion.games.base import GameError, play_transcript
from companion.games.haste_worte import (
    DEFAULT_LETTERS,
    SPELLED,
    SYMBOLS,
    BadDice,
    BadLetter,
    BadWordCount,
    DieTaken,
    HasteError,
    HasteWorte,
    NotYourTurn,
    Phase,
    SetupError,
    TimerError,
    UnknownAction,
    UnknownPlayer,
    WrongPhase,
)
from companion.hourglass import Resume
from companion.i18n import LANGUAGES, catalog

ROOT = Path(__file__).resolve().parents[1]
NAMES = ["Anna", "Ben", "Carla", "David", "Emil", "Frieda"]
DICE = ["dishes", "fruit", "car", "water", "toys", "animals"]
T0 = 1_700_000_000.0


@contextmanager
def rejected(error: type[HasteError], match_de: str) -> Iterator[Any]:
    """Like ``pytest.raises`` but matches the German text, the table's default language."""
    with pytest.raises(error) as err:
        yield err
    assert re.search(match_de, err.value.localized("de")), err.value.localized("de")


def setup(n: int = 3, **options: Any) -> dict[str, Any]:
    return {"action": "setup", "players": NAMES[:n], "seed": 42, **options}


def round_actions(
    game: HasteWorte, words: list[int], *, at: float, dice: list[str] | None = None, letter: str | None = None
) -> list[dict[str, Any]]:
    """One round as a table would play it, in the order the game's variant asks for.

    ``words`` are the crystals per reader in reading order (from the round's first player).
    """
    n = len(game.players)
    order = [(game.round.first + i) % n for i in range(n)]
    roll = {"action": "roll", "dice": dice or DICE}
    draw = {"action": "letter"} if letter is None else {"action": "letter", "letter": letter}
    if game.simultaneous:  # grabbed in reverse seat order, to prove the order does not matter
        picks = [
            {"action": "pick", "player": game.players[p], "die": i + 1} for i, p in enumerate(reversed(order))
        ]
    else:
        picks = [{"action": "pick", "die": i + 1} for i in range(n)]
    head = [draw, roll, *picks] if game.letter_first else [roll, *picks, draw]
    timer = [{"action": "timer_start", "at": at}, {"action": "timer_expired", "at": at + 90.0}]
    scores = [{"action": "score", "words": w} for w in words]
    return head + timer + scores


def play(game: HasteWorte, actions: list[dict[str, Any]]) -> list[Announcement]:
    out: list[Announcement] = []
    for action in actions:
        out += game.apply(action)
    return out


def keys(announcements: list[Announcement]) -> list[str]:
    return [a.key for a in announcements]


# -- whole games


def test_full_game_to_15_crystals_ends_in_a_tie_and_names_all_winners() -> None:
    game = HasteWorte.new(setup(3))
    transcript: list[dict[str, Any]] = []
    rnd = 0
    while not game.finished:
        # reading order rotates; give Anna and Ben 3 each and Carla 1 whatever the order
        order = game.pick_order
        words = [{0: 3, 1: 3, 2: 1}[p] for p in order]
        actions = round_actions(game, words, at=T0 + 200 * rnd)
        play(game, actions)
        transcript += actions
        rnd += 1
    assert rnd == 5
    assert game.crystals == [15, 15, 5]
    assert game.winners == [0, 1]
    # the same game as a transcript through headless play prints the tie with both names
    out = io.StringIO()
    lines = [json.dumps(setup(3))] + [json.dumps(a) for a in transcript]
    final = play_transcript(HasteWorte, lines, out, lang="de")
    assert final.finished
    assert "Gleichstand! Anna und Ben gewinnen mit je 15 Kristallen!" in out.getvalue()
    out_en = io.StringIO()
    play_transcript(HasteWorte, lines, out_en, lang="en", as_json=True)
    records = [json.loads(x) for x in out_en.getvalue().splitlines()]
    assert records[-1]["finished"] is True
    assert records[-1]["final"]["winners"] == [0, 1]
    assert records[-2]["text"] == "A tie! Anna and Ben win with 15 crystals each!"


def test_the_rounds_last_reader_reaching_15_hears_who_won_not_that_the_round_goes_on() -> None:
    """"Ben has reached 15 crystals! This round is played to the end." was said with the round over, at once
    followed by the winners."""
    game = HasteWorte.new(setup(2, goal=6))
    play(game, round_actions(game, [3, 2], at=T0))  # Anna 3, Ben 2; next round Ben reads first
    said = play(game, round_actions(game, [2, 3], at=T0 + 200))  # Ben 4, then Anna, the last reader, 6
    assert game.finished and "haste.goal_reached" not in keys(said) and keys(said)[-1] == "haste.winner"


def test_a_win_with_one_crystal_says_one_crystal() -> None:
    """A table that sets the goal to 1 heard "Anna wins with 1 crystals!"."""
    game = HasteWorte.new(setup(2, goal=1))
    said = play(game, round_actions(game, [1, 0], at=T0))
    assert game.finished and said[-1].text("en") == "Anna wins with 1 crystal!"
    assert said[-1].text("de") == "Anna gewinnt mit einem Kristall!"
    game = HasteWorte.new(setup(2, goal=1))
    said = play(game, round_actions(game, [1, 1], at=T0))
    assert said[-1].text("de") == "Gleichstand! Anna und Ben gewinnen mit je einem Kristall!"


def test_the_round_is_finished_after_someone_reaches_15_and_the_most_crystals_win() -> None:
    game = HasteWorte.new(setup(3, goal=6))
    play(game, round_actions(game, [3, 3, 3], at=T0))  # 3 / 3 / 3, Anna first
    assert game.round.first == 1  # next round Ben starts: reading order Ben, Carla, Anna
    actions = round_actions(game, [3, 2, 3], at=T0 + 200)
    said = play(game, actions[:-2])  # Ben reaches 6 first ...
    assert "haste.goal_reached" in keys(said)
    assert not game.finished and game.phase is Phase.READING  # ... but the round goes on
    said = play(game, actions[-2:])
    assert game.finished
    assert game.crystals == [6, 6, 5]
    assert keys(said)[-1] == "haste.winners"
    # reaching the goal first does not win: the round is read out, and a later reader may pass
    game5 = HasteWorte.new(setup(2, goal=5))
    play(game5, round_actions(game5, [3, 3], at=T0))  # Anna 3, Ben 3
    said = play(game5, round_actions(game5, [2, 3], at=T0 + 200))  # Ben reaches 5, then Anna gets 6
    assert game5.winners == [0]
    assert said[-1].key == "haste.winner"
    assert said[-1].text("en") == "Anna wins with 6 crystals!"


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_each_player_count_plays_to_the_end_with_rotating_first_player(n: int) -> None:
    game = HasteWorte.new(setup(n))
    firsts = []
    rnd = 0
    while not game.finished:
        firsts.append(game.round.first)
        # everybody scores 2, the round's first player 3: somebody reaches 15 within a few rounds
        words = [3] + [2] * (n - 1)
        said = play(game, round_actions(game, words, at=T0 + 500 * rnd))
        rnd += 1
        assert rnd < 20
    assert firsts == [i % n for i in range(len(firsts))]
    assert max(game.crystals) >= 15
    assert game.winners == [i for i, c in enumerate(game.crystals) if c == max(game.crystals)]
    assert said[-1].key in ("haste.winner", "haste.winners")
    assert all(len(r.picks) == n for r in game.history)
    # fewer than six players: the rest of the dice stay unpicked (set aside)
    assert {p.die for p in game.history[0].picks} == set(range(n))


def test_limits_on_screen_follow_the_player_count() -> None:
    for n in range(2, 7):
        game = HasteWorte.new(setup(n))
        assert game.others_limit == n
    game = HasteWorte.new(setup(4))
    actions = round_actions(game, [0, 0, 0, 0], at=T0)
    said = play(game, actions[:7])  # up to and including the timer start
    started = said[-1]
    assert started.key == "haste.timer_started"
    assert started.text("de") == (
        "Die Sanduhr läuft: 90 Sekunden. Eigenes Symbol höchstens 3 Wörter, andere zusammen bis zu 4."
    )


@pytest.mark.parametrize(("variant", "words"), [(0, "Round 1: Ben rolls."), (1, "Round 1: Ben draws the letter.")])
def test_the_first_round_is_called_out_as_every_later_one(variant: int, words: str) -> None:
    """Starting the game says who begins: the youngest, chosen in the setup, may not be looking at the screen."""
    game = HasteWorte.new({**setup(3, variant=variant), "first_player": "Ben"})
    assert [a.text("en") for a in game.opening_announcements] == [words]


def test_the_rounds_last_count_and_the_call_to_roll_are_one_sentence() -> None:
    """"Runde 2: Ben würfelt." waited behind "Carla bekommt einen Kristall und hat jetzt 1." and its chime, and the
    roll took it back: heard in 2 rounds of 10. One sentence now, taken back by the roll as the call was; the counts
    before it, and a count that reaches the goal, stay sentences of their own."""
    game = HasteWorte.new(setup(3))
    said = play(game, round_actions(game, [2, 0, 1], at=T0))
    assert keys(said)[-3:] == ["haste.call_then", "haste.call_then", "haste.count_then"]
    last = said[-1]
    assert last.text("de") == "Carla: ein Kristall, jetzt 1. Runde 2: Ben würfelt."
    assert last.text("en") == "Carla: one crystal, now 1. Round 2: Ben rolls."
    assert last.until == ("roll",) and not last.essential
    said = play(game, round_actions(game, [0, 2, 2], at=T0 + 200))
    assert said[-1].text("de") == "Anna: 2 Kristalle, jetzt 4. Runde 3: Carla würfelt."
    game = HasteWorte.new(setup(2, goal=2))
    said = play(game, round_actions(game, [0, 1], at=T0))
    assert said[-1].text("en") == "Ben: one crystal, now 1. Round 2: Ben rolls."
    said = play(game, round_actions(game, [0, 0], at=T0 + 200))
    assert said[-1].text("en") == "Anna: no crystal, stays at 0. Round 3: Anna rolls."


def test_the_next_reader_is_called_first_with_the_count_after_it_in_one_sentence() -> None:
    """"Мария, lies deine Wörter vor." waited 3-5 s behind "Anna bekommt 3 Kristalle und hat jetzt 3." and its chime,
    or was cut by the next count: the reader was called late, the reading had begun. One sentence now, the call first;
    taken back once the reader's count is in, as the call was. A count that reaches the goal first stays apart (the
    round is the last: said before the call)."""
    game = HasteWorte.new(setup(3))
    said = play(game, round_actions(game, [3, 0, 1], at=T0))
    reading = [a for a in said if a.key == "haste.call_then"]
    assert [a.text("de") for a in reading] == ["Ben liest vor. Anna: 3 Kristalle, jetzt 3.",
                                               "Carla liest vor. Ben: kein Kristall, bleibt bei 0."]
    assert [a.text("en") for a in reading] == ["Ben reads next. Anna: 3 crystals, now 3.",
                                               "Carla reads next. Ben: no crystal, stays at 0."]
    assert all(a.prompt and a.until == ("score",) and not a.essential for a in reading)
    assert "haste.read_turn" not in keys(said) and "haste.scored" not in keys(said)
    game = HasteWorte.new(setup(3, goal=2))
    said = play(game, round_actions(game, [2, 0, 1], at=T0))
    goal = keys(said).index("haste.goal_reached")
    assert keys(said)[goal - 1:goal + 2] == ["haste.scored", "haste.goal_reached", "haste.read_turn"]


def test_variant_1_turns_the_letter_before_the_roll() -> None:
    game = HasteWorte.new(setup(3, variant=1))
    assert game.phase is Phase.LETTER
    with rejected(WrongPhase, "Buchstabe"):
        game.apply({"action": "roll", "dice": DICE})
    said = game.apply({"action": "letter"})
    assert said[-1].key == "haste.letter_first"
    assert game.phase is Phase.ROLL
    play(game, [{"action": "roll", "dice": DICE}] + [{"action": "pick", "die": i} for i in (1, 2, 3)])
    assert game.phase is Phase.WRITING  # no second letter: straight to the hourglass
    with pytest.raises(WrongPhase):
        game.apply({"action": "letter"})
    play(game, [{"action": "timer_start", "at": T0}, {"action": "timer_expired", "at": T0 + 90}])
    said = play(game, [{"action": "score", "words": 1}] * 3)
    assert said[-1].params["call"]["key"] == "haste.new_round_letter" and said[-1].until == ("letter",)
    assert said[-1].text("de").endswith(f": ein Kristall, jetzt 1. Runde 2: {game.players[1]} zieht den Buchstaben.")
    assert game.phase is Phase.LETTER
    # a whole game in variant 1
    rnd = 1
    while not game.finished:
        play(game, round_actions(game, [3, 3, 3], at=T0 + 200 * rnd))
        rnd += 1
    assert game.winners == [0, 1, 2]


def test_variant_2_records_who_grabbed_which_die_in_any_order() -> None:
    game = HasteWorte.new(setup(4, variant=2))
    said = game.apply({"action": "roll", "dice": DICE})
    # the grab's start first, as the standard game's call to pick: after the six symbols it came after the first grab
    assert keys(said) == ["haste.pick_any", "haste.rolled"]
    assert game.current_picker is None
    game.apply({"action": "pick", "player": "David", "symbol": "water"})
    game.apply({"action": "pick", "player": "anna", "die": 6})  # names match regardless of case
    with rejected(NotYourTurn, "David hat schon einen Würfel"):
        game.apply({"action": "pick", "player": "David", "die": 1})
    with rejected(NotYourTurn, "sagen, wer"):
        game.apply({"action": "pick", "die": 1})
    with rejected(UnknownPlayer, "Zoe spielt nicht mit"):
        game.apply({"action": "pick", "player": "Zoe", "die": 1})
    with rejected(DieTaken, "Anna"):
        game.apply({"action": "pick", "player": "Ben", "die": 6})
    game.apply({"action": "pick", "player": "Carla", "die": 1})
    game.apply({"action": "pick", "player": "Ben", "die": 2})
    assert game.phase is Phase.LETTER
    assert [game.symbol_of(i) for i in range(4)] == ["animals", "fruit", "dishes", "water"]
    rnd = 1
    play(
        game,
        [
            {"action": "letter"},
            {"action": "timer_start", "at": T0},
            {"action": "timer_expired", "at": T0 + 90.0},
        ]
        + [{"action": "score", "words": 3}] * 4,
    )
    while not game.finished:
        play(game, round_actions(game, [3, 3, 3, 0], at=T0 + 200 * rnd))
        rnd += 1
    assert max(game.crystals) >= 15


def test_both_variants_combined() -> None:
    game = HasteWorte.new(setup(2, variant=[1, 2]))
    assert game.letter_first and game.simultaneous
    play(game, round_actions(game, [2, 2], at=T0))
    assert game.crystals == [2, 2]


def test_reroll_is_allowed_only_before_the_first_pick() -> None:
    game = HasteWorte.new(setup(3))
    game.apply({"action": "roll", "dice": DICE})
    game.apply({"action": "roll", "dice": ["sports"] * 6})
    assert game.round.dice == ["sports"] * 6
    game.apply({"action": "pick", "symbol": "sports"})
    game.apply({"action": "pick", "symbol": "sports"})  # the next free die with that symbol
    assert [p.die for p in game.round.picks] == [0, 1]
    with rejected(WrongPhase, "Jetzt wird nicht gewürfelt"):
        game.apply({"action": "roll", "dice": DICE})


def test_a_die_read_wrongly_is_corrected_also_after_it_was_taken_and_until_the_reading_ends() -> None:
    """The camera was sure and wrong: the table puts the die's symbol right; its owner's symbol follows."""
    game = HasteWorte.new(setup(2))
    expect_unchanged(game, {"action": "correct", "die": 1, "face": "car"}, WrongPhase, "erst nach dem Würfeln")
    game.apply({"action": "roll", "dice": DICE})
    assert game.apply({"action": "correct", "die": 2, "face": "sports"}) == []  # nothing to hear: the screen shows it
    assert game.round.dice == ["dishes", "sports", *DICE[2:]]
    game.apply({"action": "pick", "die": 2})
    game.apply({"action": "pick", "die": 4})
    game.apply({"action": "correct", "die": 4, "face": "cities"})  # taken already: Ben's symbol is another
    assert (game.symbol_of(0), game.symbol_of(1)) == ("sports", "cities")
    expect_unchanged(game, {"action": "correct", "die": 7, "face": "car"}, BadDice, "1 bis 6")
    expect_unchanged(game, {"action": "correct", "die": True, "face": "car"}, BadDice, "1 bis 6")
    expect_unchanged(game, {"action": "correct", "die": 1, "face": "Car"}, BadDice, "Würfel 1 zeigt „Car“")
    expect_unchanged(game, {"action": "correct", "die": 1}, BadDice, "Würfel 1")
    play(game, [{"action": "letter"}, {"action": "timer_start", "at": T0}, {"action": "timer_expired", "at": T0 + 90}])
    game.apply({"action": "correct", "die": 2, "face": "fruit"})
    assert game.symbol_of(0) == "fruit"
    play(game, [{"action": "score", "words": 1}, {"action": "score", "words": 2}])  # the next round: no dice yet
    assert game.crystals == [1, 2] and game.history[0].dice[1] == "fruit"
    expect_unchanged(game, {"action": "correct", "die": 1, "face": "car"}, WrongPhase, "erst nach dem Würfeln")


def test_edition_symbols_are_accepted_by_id_and_meanings_configured() -> None:
    game = HasteWorte.new(setup(2, meanings={"car": "Fahrzeuge"}))
    game.apply({"action": "roll", "dice": ["music", "car", "fruit", "water", "toys", "film-stars"]})
    assert game.label("music") == "music"
    assert game.label("car") == "Fahrzeuge"
    assert game.label("fruit", "en") == "Fruit & veg"
    assert game.label("fruit") == "Obst & Gemüse"


# -- letters


def draw_letters(game: HasteWorte, count: int) -> tuple[list[str], list[Announcement]]:
    """Play ``count`` rounds quickly and return the letters drawn (goal high enough never to end)."""
    letters, said = [], []
    for rnd in range(count):
        actions = round_actions(game, [0] * len(game.players), at=T0 + 200 * rnd)
        said += play(game, actions)
        letters.append(game.history[-1].letter)
    return letters, said


def test_letters_come_without_repeats_and_reshuffle_only_when_the_stack_is_empty() -> None:
    game = HasteWorte.new(setup(2))
    assert len(DEFAULT_LETTERS) == 21 and len(set(DEFAULT_LETTERS)) == 21
    letters, said = draw_letters(game, 21)
    assert sorted(letters) == sorted(DEFAULT_LETTERS)  # each token exactly once
    assert "haste.reshuffled" not in keys(said)
    assert game.stack == []
    more, said = draw_letters(game, 21)
    assert keys(said).count("haste.reshuffled") == 1
    assert sorted(more) == sorted(DEFAULT_LETTERS)
    assert more != letters  # the second shuffle is a new order


def test_letter_order_is_seeded_and_replayable() -> None:
    a, _ = draw_letters(HasteWorte.new(setup(2, seed=1)), 5)
    b, _ = draw_letters(HasteWorte.new(setup(2, seed=1)), 5)
    c, _ = draw_letters(HasteWorte.new(setup(2, seed=2)), 5)
    assert a == b
    assert a != c


def test_a_letter_entered_from_the_physical_tokens_leaves_the_stack() -> None:
    game = HasteWorte.new(setup(2, letters="ABC"))
    play(game, [{"action": "roll", "dice": DICE}, {"action": "pick", "die": 1}, {"action": "pick", "die": 2}])
    with rejected(BadLetter, "„7“ ist kein Buchstabe von A bis Z, Ä, Ö, Ü und keines der Buchstabenplättchen"):
        game.apply({"action": "letter", "letter": "7"})
    game.apply({"action": "letter", "letter": "b"})
    assert game.round.letter == "B"
    assert sorted(game.stack) == ["A", "C"]


@pytest.mark.parametrize("entered", ["V", "c", "q", "Ä", "ü"])
def test_any_letter_the_table_turned_over_is_entered_though_not_one_of_the_companions_tokens(entered: str) -> None:
    """The rulebook gives the tokens' count only (21), so the default 21 are this project's guess: a box with a V
    or a C was refused its token ("„V“ ist keines der Buchstabenplättchen"). Any letter A-Z, Ä, Ö, Ü is taken now;
    the companion's stack, which never held it, stays as it was, and the letter is said with its word."""
    game = HasteWorte.new(setup(2))
    play(game, [{"action": "roll", "dice": DICE}, {"action": "pick", "die": 1}, {"action": "pick", "die": 2}])
    stack = list(game.stack)
    said = game.apply({"action": "letter", "letter": entered})
    assert game.round.letter == entered.upper() and game.phase is Phase.WRITING
    assert game.stack == stack
    assert said[-1].params["letter"] == {"key": f"haste.spell.{entered.upper()}"}


def test_the_letters_a_table_may_enter_run_through_the_alphabet_with_its_own_tokens() -> None:
    """A picker offers them in the alphabet's order, the umlauts after Z, a token of several letters after its
    first letter; what is neither a letter nor a token is refused."""
    game = HasteWorte.new(setup(2, letters=["sch", "A", "B", "QU"]))
    letters = game.enterable_letters()
    assert letters[:3] == ["A", "B", "C"] and letters[-3:] == ["Ä", "Ö", "Ü"] and len(letters) == 31
    assert letters.index("QU") == letters.index("Q") + 1 and letters.index("SCH") == letters.index("S") + 1
    play(game, [{"action": "roll", "dice": DICE}, {"action": "pick", "die": 1}, {"action": "pick", "die": 2}])
    for bad in ("XY", "ß", "", "7"):
        with pytest.raises(BadLetter):
            game.apply({"action": "letter", "letter": bad})
    game.apply({"action": "letter", "letter": "sch"})
    assert game.round.letter == "SCH" and "SCH" not in game.stack


def test_custom_letter_tokens_may_hold_several_letters() -> None:
    game = HasteWorte.new(setup(2, letters=["sch", "St", "A"]))
    assert game.letters == ["SCH", "ST", "A"]
    with rejected(SetupError, "Buchstaben"):
        HasteWorte.new(setup(2, letters=["A", "7"]))


# -- hourglass in the game


def to_writing(game: HasteWorte) -> None:
    n = len(game.players)
    play(
        game,
        [{"action": "roll", "dice": DICE}]
        + [{"action": "pick", "die": i + 1} for i in range(n)]
        + [{"action": "letter"}],
    )
    assert game.phase is Phase.WRITING


def test_times_up_is_urgent_with_its_sound_and_only_when_the_sand_has_run_out() -> None:
    game = HasteWorte.new(setup(3))
    to_writing(game)
    game.apply({"action": "timer_start", "at": T0})
    with rejected(TimerError, "läuft schon"):
        game.apply({"action": "timer_start", "at": T0 + 5})
    with rejected(TimerError, "noch 30 Sekunden"):
        game.apply({"action": "timer_expired", "at": T0 + 60})
    said = game.apply({"action": "timer_expired", "at": T0 + 90.0})
    assert said[0].key == "haste.times_up" and said[0].urgent and said[0].sound is Sound.TIMES_UP
    assert said[0].text("en") == "Time's up! Anna reads out first."
    assert game.phase is Phase.READING


def test_cancel_then_turn_again_or_declare_times_up() -> None:
    game = HasteWorte.new(setup(2))
    to_writing(game)
    with rejected(TimerError, "läuft gerade nicht"):
        game.apply({"action": "timer_cancel", "at": T0})
    game.apply({"action": "timer_start", "at": T0})
    said = game.apply({"action": "timer_cancel", "at": T0 + 20})
    assert said[0].params["seconds"] == 70
    assert game.hourglass.remaining(T0 + 500) == pytest.approx(70.0)
    game.apply({"action": "timer_start", "at": T0 + 100})  # a fresh full run
    assert game.hourglass.remaining(T0 + 130) == pytest.approx(60.0)
    game.apply({"action": "timer_cancel", "at": T0 + 131})
    game.apply({"action": "timer_expired"})  # the table declares time's up: no stamp needed
    assert game.phase is Phase.READING


def test_a_table_with_its_own_sand_timer_just_says_times_up() -> None:
    game = HasteWorte.new(setup(2))
    to_writing(game)
    said = game.apply({"action": "timer_expired"})
    assert said[0].key == "haste.times_up"


def test_restart_mid_hourglass_restores_the_remaining_time() -> None:
    lines = [setup(3)]
    game = HasteWorte.new(lines[0])
    to_writing(game)
    lines += [
        {"action": "roll", "dice": DICE},
        *[{"action": "pick", "die": i} for i in (1, 2, 3)],
        {"action": "letter"},
        {"action": "timer_start", "at": T0},
    ]
    game.apply(lines[-1])
    # power cut at T0+40; the companion comes back at T0+52.5 and replays its journal
    replayed = HasteWorte.new(lines[0])
    play(replayed, lines[1:])
    assert replayed.to_json() == game.to_json()
    snap = HasteWorte.from_json(json.loads(json.dumps(game.to_json())))
    for restored in (replayed, snap):
        now = T0 + 52.5
        assert restored.hourglass.resume(now) is Resume.RESUMED
        assert abs(restored.hourglass.remaining(now) - 37.5) < 0.010
    # the sand ran out while the companion was off: the app announces time's up at once
    assert snap.hourglass.resume(T0 + 400) is Resume.EXPIRED_WHILE_OFF
    said = snap.apply({"action": "timer_expired", "at": T0 + 400})
    assert said[0].key == "haste.times_up"


def test_restart_with_an_untrusted_clock_marks_the_round_interrupted() -> None:
    game = HasteWorte.new(setup(2))
    to_writing(game)
    game.apply({"action": "timer_start", "at": T0})
    booted = T0 - 86_400  # Pi without a real-time clock, network time not there yet
    assert game.hourglass.resume(booted) is Resume.CLOCK_UNTRUSTED
    said = game.apply({"action": "timer_interrupted", "at": booted})
    assert said[0].key == "haste.timer_interrupted"
    assert game.round.timer_interrupted
    assert game.to_json()["round"]["timer_interrupted"] is True
    with pytest.raises(TimerError):
        game.apply({"action": "timer_interrupted", "at": booted})
    game.apply({"action": "timer_start", "at": booted + 5})  # turned again: a fresh full run
    assert not game.round.timer_interrupted
    assert game.hourglass.remaining(booted + 15) == pytest.approx(80.0)


def test_timer_actions_need_their_stamp() -> None:
    game = HasteWorte.new(setup(2))
    to_writing(game)
    with rejected(TimerError, '"at"'):
        game.apply({"action": "timer_start"})
    with rejected(WrongPhase, "Sanduhr wird erst gedreht"):
        HasteWorte.new(setup(2)).apply({"action": "timer_start", "at": T0})


# -- bad input: clear messages, state unchanged


def test_seven_players_are_refused() -> None:
    with pytest.raises(SetupError) as err:
        HasteWorte.new({"action": "setup", "players": NAMES + ["Gustav"]})
    assert "2 bis 6 Personen" in err.value.localized("de") and "nicht für 7" in err.value.localized("de")
    assert str(err.value) == err.value.localized("en")  # the GameError contract: str() is English
    assert err.value.text("en") == (
        "Haste Worte is for 2 to 6 players (one die each), not 7: change the list of players."
    )
    with rejected(SetupError, "nicht für 1"):
        HasteWorte.new({"action": "setup", "players": ["Anna"]})


@pytest.mark.parametrize(
    ("options", "match"),
    [
        ({"players": ["Anna", "anna"]}, "zweimal"),
        ({"players": "Anna, Ben"}, "Liste"),
        ({"players": ["Anna", "Ben"], "first_player": "Zoe"}, "jüngste"),
        ({"players": ["Anna", "Ben"], "variant": 3}, "Variante 3"),
        ({"players": ["Anna", "Ben"], "timer_seconds": 5}, "5 Sekunden"),
        ({"players": ["Anna", "Ben"], "goal": 0}, "Ziel"),
        ({"players": ["Anna", "Ben"], "variante": 1}, "Unbekannte Einstellung variante"),
        ({"players": ["Anna", "Ben"], "meanings": {"Car": "x"}}, "Symbol-Bedeutungen"),
    ],
)
def test_bad_setups_are_explained(options: dict[str, Any], match: str) -> None:
    with rejected(SetupError, match):
        HasteWorte.new({"action": "setup", **options})


def test_first_player_is_chosen_by_name() -> None:
    game = HasteWorte.new(setup(4, first_player="Carla"))
    assert game.round.first == 2
    assert game.prompt().text("de") == "Carla würfelt"


def expect_unchanged(
    game: HasteWorte, action: dict[str, Any], error: type[HasteError], match: str
) -> HasteError:
    before = json.dumps(game.to_json(), sort_keys=True)
    with rejected(error, match) as err:
        game.apply(action)
    assert json.dumps(game.to_json(), sort_keys=True) == before
    assert isinstance(err.value, GameError)
    for lang in LANGUAGES:
        assert err.value.text(lang)
    return err.value


def test_bad_input_is_rejected_with_a_message_and_changes_nothing() -> None:
    game = HasteWorte.new(setup(3))
    err = expect_unchanged(game, {"action": "roll", "dice": DICE[:5]}, BadDice, "lege alle 6 Würfel in die Schale")
    assert "two touching look like one" in err.text("en")  # all six were in the tray, two of them touching
    err = expect_unchanged(game, {"action": "roll", "dice": [*DICE, DICE[0]]}, BadDice, "was keiner der 6 Würfel ist")
    assert "anything that is not one of the 6 dice" in err.text("en")  # a cup or a cable read as a die
    err = expect_unchanged(
        game,
        {"action": "roll", "dice": ["car", "fruit", None, "water", "toys", "dishes"]},
        BadDice,
        "Würfel 3 wurde nicht erkannt",
    )
    assert err.text("en") == "Die 3 was not read: correct it on the screen or roll again."
    expect_unchanged(game, {"action": "roll", "dice": ["Car", *DICE[1:]]}, BadDice, "Würfel 1 zeigt „Car“")
    expect_unchanged(game, {"action": "roll", "dice": [3, *DICE[1:]]}, BadDice, "Würfel 1")
    expect_unchanged(game, {"action": "pick", "die": 1}, WrongPhase, "kein Würfel gewählt")
    expect_unchanged(game, {"action": "score", "words": 1}, WrongPhase, "Vorgelesen")
    expect_unchanged(game, {"action": "dance"}, UnknownAction, "dance")
    game.apply({"action": "roll", "dice": DICE})
    game.apply({"action": "pick", "die": 3})
    err = expect_unchanged(game, {"action": "pick", "die": 3}, DieTaken, "Würfel 3 \\(Auto\\) hat schon Anna")
    assert err.text("en") == "Die 3 (Cars) was already taken by Anna: choose another die."
    expect_unchanged(game, {"action": "pick", "symbol": "car"}, DieTaken, "Würfel 3")
    expect_unchanged(game, {"action": "pick", "symbol": "sports"}, BadDice, "sports")
    expect_unchanged(game, {"action": "pick", "die": 7}, BadDice, "1 bis 6")
    expect_unchanged(game, {"action": "pick", "die": 1, "symbol": "car"}, BadDice, "genau eins")
    expect_unchanged(game, {"action": "pick", "die": 1, "player": "Carla"}, NotYourTurn, "jetzt wählt Ben")
    play(
        game,
        [{"action": "pick", "die": 1, "player": "Ben"}, {"action": "pick", "die": 2}, {"action": "letter"}],
    )
    expect_unchanged(game, {"action": "score", "words": 1}, WrongPhase, "Vorgelesen")
    play(game, [{"action": "timer_start", "at": T0}, {"action": "timer_expired", "at": T0 + 90}])
    err = expect_unchanged(game, {"action": "score", "words": -1}, BadWordCount, "-1 geht nicht")
    assert err.text("en") == "-1 is not possible: enter how many of Anna's words nobody else wrote, 0 to 3."
    expect_unchanged(game, {"action": "score", "words": 4}, BadWordCount, "0 bis 3")
    expect_unchanged(game, {"action": "score", "words": "2"}, BadWordCount, "0 bis 3")
    expect_unchanged(game, {"action": "score", "words": True}, BadWordCount, "0 bis 3")
    expect_unchanged(game, {"action": "score", "words": 2, "player": "Ben"}, NotYourTurn, "jetzt liest Anna")


def test_nothing_is_accepted_after_the_game_is_over() -> None:
    game = HasteWorte.new(setup(2, goal=3))
    play(game, round_actions(game, [3, 0], at=T0))
    assert game.finished
    expect_unchanged(game, {"action": "roll", "dice": DICE}, WrongPhase, "vorbei")
    assert game.prompt().text("en") == "Winner: Anna with 3 crystals"


def test_transcript_errors_name_the_line() -> None:
    lines = [
        json.dumps(setup(2)),
        json.dumps({"action": "roll", "dice": DICE}),
        json.dumps({"action": "pick", "die": 1}),
        json.dumps({"action": "pick", "die": 1}),
    ]
    with pytest.raises(GameError, match="line 4: Die 1"):
        play_transcript(HasteWorte, lines, io.StringIO())


def test_a_nan_time_in_a_transcript_is_bad_json_not_a_crash() -> None:
    """Python's json reads NaN; a NaN hourglass stamp then stopped the replay in the engine with a traceback."""
    lines = [json.dumps(setup(2)), '{"action": "roll", "dice": ' + json.dumps(DICE) + "}",
             '{"action": "timer_start", "at": NaN}']
    with pytest.raises(GameError, match="line 3: not valid JSON .NaN"):
        play_transcript(HasteWorte, lines, io.StringIO())


def test_a_line_nested_past_pythons_limit_is_bad_json_not_a_crash() -> None:
    lines = [json.dumps(setup(2)), "[" * 100_000]
    with pytest.raises(GameError, match="line 2: not valid JSON .nested too deeply"):
        play_transcript(HasteWorte, lines, io.StringIO())


# -- state: JSON round trip and replay


def test_json_round_trip_is_exact_at_every_step_and_play_continues_identically() -> None:
    game = HasteWorte.new(setup(4, variant=2, meanings={"car": "Autos"}))
    rnd = 0
    while not game.finished:
        for action in round_actions(game, [3, 1, 2, 0], at=T0 + 100.25 * rnd):
            copy = HasteWorte.from_json(json.loads(json.dumps(game.to_json())))
            assert copy == game
            said_a = game.apply(action)
            said_b = copy.apply(action)
            assert said_a == said_b
            assert copy.to_json() == game.to_json()
        rnd += 1
    final = HasteWorte.from_json(json.loads(json.dumps(game.to_json())))
    assert final.finished and final.winners == game.winners


def test_registered_under_its_name() -> None:
    assert engine_class("haste-worte") is HasteWorte
    assert HasteWorte.name == "haste-worte"


# -- the example transcript and the catalogs


def test_example_transcript_plays_to_the_end() -> None:
    path = ROOT / "examples" / "haste_worte.jsonl"
    out = io.StringIO()
    game = play_transcript(HasteWorte, path.read_text(encoding="utf-8").splitlines(), out, lang="de")
    assert game.finished
    text = out.getvalue()
    assert "Die Zeit ist um!" in text
    assert "gewinnt mit" in text or "gewinnen mit" in text


def test_every_haste_key_in_the_code_exists_in_both_languages_with_the_same_placeholders() -> None:
    sources = [
        ROOT / "companion" / "games" / "haste_worte.py",
        ROOT / "companion" / "views" / "haste_worte_view.py",
    ]
    used = set()
    for src in sources:
        if src.exists():
            used |= set(re.findall(r'"(haste\.[a-z_]+(?:\.[a-z_]+)*)"', src.read_text(encoding="utf-8")))
    used |= {f"haste.symbol.{s}" for s in SYMBOLS} | {f"haste.meaning.{s}" for s in SYMBOLS}
    assert len(used) > 60
    de, en = catalog("de", "haste"), catalog("en", "haste")
    assert not used - set(de), f"missing in de: {sorted(used - set(de))}"
    assert not used - set(en), f"missing in en: {sorted(used - set(en))}"
    assert set(de) == set(en)
    for key in de:
        assert de[key] and en[key]
        assert set(re.findall(r"\{(\w+)\}", de[key])) == set(re.findall(r"\{(\w+)\}", en[key])), key


def test_the_app_setup_screen_answers_are_accepted() -> None:
    # what companion.app.setup_action builds from the setup wizard: seat index "start" and variant names
    for variant, flags in (
        ("standard", (False, False)),
        ("letter-first", (True, False)),
        ("simultaneous", (False, True)),
    ):
        game = HasteWorte.new(
            {"action": "setup", "seed": 77, "players": NAMES[:4], "start": 2, "variant": variant}
        )
        assert game.round.first == 2
        assert (game.letter_first, game.simultaneous) == flags
    with rejected(SetupError, "nur einmal"):
        HasteWorte.new({"action": "setup", "players": NAMES[:2], "start": 1, "first_player": "Anna"})


def test_the_word_limits_are_said_in_the_first_round_only() -> None:
    """Eight seconds of limits were spoken every round while everybody was already writing; they stand on the
    screen, and round 1 says them."""
    game = HasteWorte.new(setup(2))
    said: dict[int, list[str]] = {}
    for rnd in (1, 2):
        for action in round_actions(game, [1, 1], at=T0 + 200.0 * rnd):
            out = game.apply(action)
            if action["action"] == "timer_start":
                said[rnd] = [a.key for a in out]
    assert said == {1: ["haste.timer_started"], 2: ["haste.timer_started_again"]}


def test_a_later_reacher_of_the_round_hears_it_in_their_scores_sentence_not_an_essential_one_of_its_own() -> None:
    """"… has reached 15 crystals! This round is played to the end." is said once, for the first, and kept however
    late. A later reacher had a sentence of their own, essential too: four of them queued at a quick table's end
    held the winners back 16 s. Their score's sentence says it now, and may go stale as any score's."""
    game = HasteWorte.new(setup(4, goal=6))
    play(game, round_actions(game, [3, 3, 3, 3], at=T0))  # 3 each; next round Ben reads first
    said = play(game, round_actions(game, [3, 3, 3, 0], at=T0 + 200)[:-1])  # Ben 6, Carla 6, David 6
    assert keys(said).count("haste.goal_reached") == 1
    assert [a.params["player"] for a in said if a.essential] == ["Ben"]
    too = [a for a in said if a.key == "haste.scored_goal_too"]
    assert [a.params["player"] for a in too] == ["Carla", "David"] and not any(a.essential for a in too)
    assert too[0].text("de") == "Carla bekommt 3 Kristalle und erreicht mit 6 auch das Ziel!"
    assert too[0].text("en") == "Carla gets 3 crystals and reaches the goal too, with 6!"
    assert "haste.scored" not in keys(said)[keys(said).index("haste.goal_reached"):]  # one sentence each, not two


@pytest.mark.parametrize(("letters", "drawn", "de", "en"), [
    (["B", "D"], "B", "Der Buchstabe ist B wie Berta!", "The letter is B as in Bravo!"),
    (["SCH", "Ä"], "SCH", "Der Buchstabe ist SCH!", "The letter is SCH!"),
    (["SCH", "Ä"], "Ä", "Der Buchstabe ist Ä wie Ärger!", "The letter is Ä, A-umlaut!"),
])
def test_the_letter_is_said_with_its_word_a_token_of_several_letters_as_it_is(letters, drawn, de, en):
    """Heard through espeak-ng, B, D, E, G, P and T sound alike ("be", "de", "e", ...), and the table writes words
    to the letter it heard: the letter comes with its word of the spelling alphabet."""
    game = HasteWorte.new(setup(2, letters=letters))
    actions = round_actions(game, [0, 0], at=T0, letter=drawn)
    said = play(game, actions[:actions.index({"action": "letter", "letter": drawn}) + 1])
    letter = next(a for a in said if a.key == "haste.letter")
    assert (letter.text("de"), letter.text("en")) == (de, en)
    # variant 1, the letter first: said again with the hourglass once the dice are picked
    game = HasteWorte.new(setup(2, letters=letters, variant=1))
    actions = round_actions(game, [0, 0], at=T0, letter=drawn)
    said = play(game, actions[:actions.index({"action": "timer_start", "at": T0})])
    turn = next(a for a in said if a.key == "haste.turn_hourglass")
    assert drawn not in SPELLED or f"{drawn} wie" in turn.text("de")


def test_the_rolled_symbols_and_each_pick_are_said() -> None:
    """Heard, not only shown: the roll said only "Anna, wähle einen Würfel.", the picks nothing, and "Alle haben
    gewählt. Anna, zieh den Buchstaben." was screen-only: a player who cannot see the dice chose blind. A pick's
    sentence is a call the next pick takes back (a quick table never waits for it); so are the symbols (six seconds:
    the calls to pick waited behind them), and a re-roll, the letter or the sand takes them back."""
    game = HasteWorte.new(setup(3))
    first, second, third = (game.players[i] for i in game.pick_order)
    said = game.apply({"action": "roll", "dice": DICE})
    # the call to pick first, the symbols after it (as Noch X-Mal!'s faces): after the six symbols (six seconds) the
    # first pick took the call back, and "Anna, wähle einen Würfel." was never heard
    assert [a.text("de") for a in said] == [f"{first}, wähle einen Würfel.",
                                            "Gewürfelt: Gerichte, Obst & Gemüse, Auto, Gewässer, Spielzeug und Tiere."]
    assert said[1].text("en") == "Rolled: Dishes, Fruit & veg, Cars, Seas & rivers, Toys & games and Animals."
    assert said[1].speak and said[1].until == ("roll", "pick", "letter", "timer_start") and not said[1].prompt
    assert said[0].prompt and said[0].until == ("pick",)
    said = game.apply({"action": "pick", "die": 3})
    assert [a.text("de") for a in said] == [f"{first}: Auto. {second}, wähle."]
    assert said[0].text("en") == f"{first}: Cars. {second}, pick."
    assert said[0].prompt and said[0].until == ("pick",)
    game.apply({"action": "pick", "die": 6})
    said = game.apply({"action": "pick", "die": 1})
    done = said[-1]
    assert done.speak and done.prompt and done.until == ("letter",)
    assert done.text("de") == f"{third}: Gerichte. {game.players[game.round.first]}, zieh den Buchstaben."
    assert done.text("en") == f"{third}: Dishes. {game.players[game.round.first]}, draw the letter."


def test_grabbed_dice_are_said_with_the_tables_own_meanings() -> None:
    game = HasteWorte.new(setup(2, variant=2, meanings={"car": "Fahrzeuge"}))
    said = game.apply({"action": "roll", "dice": DICE})
    assert keys(said) == ["haste.pick_any", "haste.rolled"]  # the grab's call first, the symbols after it
    assert said[1].text("de") == "Gewürfelt: Gerichte, Obst & Gemüse, Fahrzeuge, Gewässer, Spielzeug und Tiere."
    said = game.apply({"action": "pick", "player": game.players[1], "symbol": "car"})
    assert [a.text("de") for a in said] == [f"{game.players[1]}: Fahrzeuge."] and said[0].until == ("pick",)
