import random

import pytest

from companion.games.base import GameError
from companion.games.free_play import Fairness, FreePlay, chi2_sf


def test_unknown_faces_are_kept_out_of_sums_until_corrected():
    g = FreePlay.new({"action": "setup"})
    g.apply({"action": "roll", "dice": [3, None, 5]})
    assert g.last_sum == 8 and g.unknown_in_last == 1
    assert g.counts() == {1: 0, 2: 0, 3: 1, 4: 0, 5: 1, 6: 0}
    g.apply({"action": "correct", "roll": 1, "die": 2, "face": 6})
    assert g.last_sum == 14 and g.counts()[6] == 1


@pytest.mark.parametrize("action, words", [
    ({"action": "roll", "dice": []}, "no dice were seen"),
    ({"action": "roll", "dice": [0]}, "1 to 6"),
    ({"action": "roll", "dice": ["six"]}, "1 to 6"),
    ({"action": "correct", "roll": 2, "die": 1, "face": 3}, "no roll 2"),
    ({"action": "correct", "roll": 1, "die": 9, "face": 3}, "no die 9"),
    ({"action": "add", "roll": 1, "face": None}, "must name the face"),
    ({"action": "add", "roll": 1, "face": 7}, "1 to 6"),
    ({"action": "add", "roll": 0, "face": 3}, "no roll 0"),
    ({"action": "remove", "roll": 1, "die": 3}, "no die 3"),
    ({"action": "remove", "roll": 1, "die": True}, "no die True"),
    ({"action": "correct", "roll": 1, "die": 1, "face": None}, "must name the face"),
    ({"action": "fly"}, "not 'fly'"),
    # where a read roll's dice lay (the screen compares the next readings with it): one box a die, whole pixels
    ({"action": "roll", "dice": [3, 4], "boxes": [[0, 0, 9, 9]]}, "one \\[x0, y0, x1, y1\\]"),
    ({"action": "roll", "dice": [3], "boxes": [[0, 0, 9]]}, "whole pixels"),
    ({"action": "roll", "dice": [3], "boxes": [[0, 0, 9.5, 9]]}, "whole pixels"),
    ({"action": "roll", "dice": [3], "boxes": "here"}, "whole pixels"),
])
def test_bad_actions_are_rejected_and_change_nothing(action, words):
    g = FreePlay.new({"action": "setup"})
    g.apply({"action": "roll", "dice": [2, 2]})
    before = g.to_json()
    with pytest.raises(GameError, match=words):
        g.apply(action)
    assert g.to_json() == before


def test_a_missed_die_is_added_and_a_seen_one_that_is_not_there_removed():
    g = FreePlay.new({"action": "setup"})
    g.apply({"action": "roll", "dice": [6, 2]})
    g.apply({"action": "add", "roll": 1, "face": 4})
    g.apply({"action": "remove", "roll": 1, "die": 1})
    assert g.last == [2, 4] and g.last_sum == 6
    assert g.counts() == {1: 0, 2: 1, 3: 0, 4: 1, 5: 0, 6: 0}
    g.apply({"action": "remove", "roll": 1, "die": 2})
    with pytest.raises(GameError, match="at least one die"):
        g.apply({"action": "remove", "roll": 1, "die": 1})
    assert g.last == [2]


def test_a_full_roll_takes_no_more_dice():
    g = FreePlay.new({"action": "setup"})
    g.apply({"action": "roll", "dice": [1] * 30})
    with pytest.raises(GameError, match="at most 30"):
        g.apply({"action": "add", "roll": 1, "face": 2})
    assert len(g.last) == 30


def test_json_round_trip():
    g = FreePlay.new({"action": "setup"})
    g.apply({"action": "roll", "dice": [1, None, 6]})
    assert FreePlay.from_json(g.to_json()).to_json() == g.to_json()


def test_chi_square_survival_matches_tables():
    # critical values of chi-square with 5 degrees of freedom from standard tables
    assert chi2_sf(11.070, 5) == pytest.approx(0.05, abs=5e-4)
    assert chi2_sf(15.086, 5) == pytest.approx(0.01, abs=2e-4)
    assert chi2_sf(1.610, 5) == pytest.approx(0.90, abs=1e-3)


def test_fairness_check_tells_a_loaded_die_from_a_fair_one():
    rng = random.Random(4)
    fair = FreePlay.new({"action": "setup"})
    loaded = FreePlay.new({"action": "setup"})
    for _ in range(120):
        fair.apply({"action": "roll", "dice": [rng.randint(1, 6) for _ in range(5)]})
        loaded.apply({"action": "roll", "dice": [rng.choice([1, 2, 3, 4, 5, 6, 6, 6]) for _ in range(5)]})
    assert not fair.fairness().suspicious
    assert loaded.fairness().suspicious and loaded.fairness().p < 0.001


def test_too_few_rolls_say_nothing():
    f = Fairness.of({1: 3, 2: 0, 3: 0, 4: 0, 5: 0, 6: 0})
    assert not f.enough and not f.suspicious


def test_the_counts_follow_every_roll_and_correction_though_kept_between_frames():
    """The screen asks for the counts every frame: kept, they must still change with every roll and correction."""
    g = FreePlay.new({})
    g.apply({"action": "roll", "dice": [1, 1, 6]})
    first = g.counts()
    first[1] = 99  # a caller's copy: the game's counts are not changed through it
    assert g.counts()[1] == 2
    g.apply({"action": "roll", "dice": [6]})
    assert g.counts()[6] == 2
    g.apply({"action": "correct", "roll": 1, "die": 2, "face": 3})
    assert g.counts() == {1: 1, 2: 0, 3: 1, 4: 0, 5: 0, 6: 2}
    again = FreePlay.from_json(g.to_json())
    assert again.counts() == g.counts() and again == g


def test_more_dice_than_the_screen_shows_are_refused_in_the_tables_language():
    """The refusal was English on a German screen, and did not say what to do."""
    from companion.games.base import GameError

    game = FreePlay.new({"action": "setup"})
    with pytest.raises(GameError) as refused:
        game.apply({"action": "roll", "dice": [3] * 31})
    assert refused.value.localized("de").startswith("31 Würfel sind mehr als die 30") and not game.rolls

