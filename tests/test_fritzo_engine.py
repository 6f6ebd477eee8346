"""The Fritzo engine in all six modes: placement rules per mode, goals, scoring, endings, bad input."""

from __future__ import annotations

import io
import itertools
import json
from pathlib import Path

import pytest

from companion.announce import Sound
from companion.games.base import GameError, play_transcript
from companion.games.fritzo import Fritzo, Phase
from companion.games.fritzo.cubeset import Cube, CubeSet, default_construction, default_set
from companion.games.fritzo.engine import FritzoState
from companion.games.fritzo.geometry import canonical, orient
from companion.games.fritzo.rules import Goal, buildable_order, check_goal
from companion.games.fritzo.solver import Solver

ROOT = Path(__file__).resolve().parents[1]
D = default_construction()
SET = default_set()


def play(setup: dict, actions: list[dict]) -> tuple[Fritzo, list]:
    """Apply actions one by one, checking after each that the JSON round trip is exact."""
    engine = Fritzo.new({"action": "setup", **setup})
    said = []
    for action in actions:
        said += engine.apply(action)
        data = json.loads(json.dumps(engine.to_json()))
        assert Fritzo.from_json(data).to_json() == engine.to_json()
    return engine, said


def keys(announcements) -> list[str]:
    return [a.key for a in announcements]


def build(layout: dict, players: list[str] | None = None) -> list[dict]:
    out = []
    for n, cell in enumerate(buildable_order(set(layout))):
        cid, rot = layout[cell]
        action = {"action": "place", "cube": cid, "cell": list(cell), "rotation": rot}
        if players:
            action["player"] = players[n % len(players)]
        out.append(action)
    return out


def rejected(engine: Fritzo, action: dict, match: str) -> GameError:
    before = engine.to_json()
    with pytest.raises(GameError, match=match) as err:
        engine.apply(action)
    assert engine.to_json() == before  # the state is unchanged
    return err.value


# -- Beginner, Challenge, Professional ------------------------------------------------------------------------
@pytest.mark.parametrize("mode,layout", [("professional", D.professional), ("challenge", D.professional),
                                         ("beginner", D.beginner)])
def test_solo_builds_reach_their_goal(mode, layout):
    engine, said = play({"mode": mode, "players": ["Anna"]}, build(layout))
    assert engine.finished and engine.state.result == "goal"
    assert keys(said)[-1] == f"fritzo.goal.done.{mode}"
    assert said[-1].text("de").startswith("Geschafft")


def test_professional_rule_refuses_different_colours_and_beginner_refuses_equal():
    pro = Fritzo.new({"mode": "professional", "players": ["Anna"]})
    beg = Fritzo.new({"mode": "beginner", "players": ["Anna"]})
    a, b = build(D.professional)[:2]
    pro.apply(a)
    beg.apply(a)
    err = rejected(beg, b, "must differ")  # the professional neighbour matches colours: wrong for Beginner
    assert "verschieden" in err.localized("de")
    pro.apply(b)
    first, second = build(D.beginner)[:2]
    beg2 = Fritzo.new({"mode": "beginner", "players": ["Anna"]})
    beg2.apply(first)
    beg2.apply(second)
    pro2 = Fritzo.new({"mode": "challenge", "players": ["Anna"]})
    pro2.apply(first)
    rejected(pro2, second, "must be the same")


def test_27_cubes_that_miss_the_goal_are_announced_not_finished():
    sol = Solver(SET).complete({}, SET.ids, Goal.CHALLENGE)
    final = {p.cell: orient(SET.cube(p.cube).faces, p.rotation) for p in sol.placements}
    assert check_goal(final, Goal.CHALLENGE).ok and not check_goal(final, Goal.PROFESSIONAL).ok
    actions = [{"action": "place", "cube": p.cube, "cell": list(p.cell), "rotation": p.rotation}
               for p in sol.placements]
    engine, said = play({"mode": "professional", "players": ["Anna"]}, actions)
    assert not engine.finished and said[-1].key.startswith("fritzo.goal.side_")
    # take a cube off again (allowed in the solo builds)
    top = max(engine.state.building, key=lambda c: c[2])
    engine.apply({"action": "remove", "cell": list(top)})
    assert len(engine.state.building) == 26


def test_remove_only_from_the_top():
    engine, _ = play({"mode": "challenge", "players": ["Anna"]}, build(D.professional)[:12])
    low = next(c for c in engine.state.building if (c[0], c[1], c[2] + 1) in engine.state.building)
    rejected(engine, {"action": "remove", "cell": list(low)}, "take the upper one off first")
    rejected(engine, {"action": "remove", "cell": [9, 9, 0]}, "no cube on")


def test_orientation_by_top_and_back_colour():
    cube = SET.cube("14")
    engine = Fritzo.new({"mode": "challenge", "players": ["Anna"]})
    look = orient(cube.faces, 5)
    engine.apply({"action": "place", "cube": "14", "cell": [0, 0, 0], "top": look[0], "north": look[2]})
    placed = engine.state.building[(0, 0, 0)]
    assert orient(cube.faces, placed.rotation)[0] == look[0]
    opposite = cube.faces[1]
    rejected(engine, {"action": "place", "cube": "15", "cell": [1, 0, 0], "top": "pink", "north": opposite},
             "cannot show")


def test_race_against_the_clock():
    engine, said = play({"mode": "professional", "players": ["Anna", "Ben"], "minutes": 5},
                        [{"action": "start", "at": 1000.0}] + build(D.professional)[:3])
    assert keys(said)[0] == "fritzo.timer.started"
    late = dict(build(D.professional)[3], at=1301.0)
    rejected(engine, late, "Time is up")
    rejected(engine, {"action": "time_up", "at": 1200.0}, "not up yet")
    said = engine.apply({"action": "time_up", "at": 1300.5})
    assert said[0].urgent and said[0].sound is Sound.TIMES_UP and engine.finished


def test_race_finished_in_time_says_how_long():
    actions = [{"action": "start", "at": 0.0}] + [dict(a, at=10.0 * n) for n, a in
                                                   enumerate(build(D.professional), start=1)]
    engine, said = play({"mode": "professional", "players": ["Anna"], "minutes": 10}, actions)
    assert said[-1].key == "fritzo.goal.done_in.professional" and said[-1].params["minutes"] == 4
    assert "in 4 minutes 30 seconds" in said[-1].text("en")  # said, not read as a clock time


@pytest.mark.parametrize("minutes", [None, 10])
def test_the_screen_after_a_goal_built_says_it_and_how_long_it_took(minutes):
    """Said once as the last cube went on, the race's time was gone from the end screen ("Won: Anna" alone), also
    after a restart at the end screen: the screen keeps the words that said it."""
    steps = [dict(a, at=10.0 * n) for n, a in enumerate(build(D.professional), start=1)]
    setup = {"mode": "professional", "players": ["Anna"], **({"minutes": minutes} if minutes else {})}
    engine, said = play(setup, ([{"action": "start", "at": 0.0}] if minutes else []) + steps)
    assert [a.text("en") for a in engine.ending] == [said[-1].text("en")]
    again = Fritzo.from_json(json.loads(json.dumps(engine.to_json())))
    assert [a.text("de") for a in again.ending] == [said[-1].text("de")]


# -- Team ---------------------------------------------------------------------------------------------------------
def test_team_builds_the_beginner_and_wins():
    players = ["Anna", "Ben", "Carl"]
    engine, said = play({"mode": "team", "players": players, "target": "beginner", "start": 1},
                        build(D.beginner, players[1:] + players[:1]))
    assert engine.state.result == "team" and keys(said)[-1] == "fritzo.team.won.beginner"
    assert engine.state.winners == players


def test_team_turns_and_putting_a_cube_back():
    players = ["Anna", "Ben"]
    engine, said = play({"mode": "team", "players": players, "target": "professional"},
                        build(D.professional, players)[:2])
    assert engine.current_player == "Anna"
    rejected(engine, dict(build(D.professional)[2], player="Ben"), "not Ben's")
    said = engine.apply({"action": "return", "cube": "5"})
    assert keys(said)[0] == "fritzo.team.returned" and engine.current_player == "Ben"
    assert "5" in engine.cubes_left()


def lonely_red_set() -> CubeSet:
    """'R' is all red and no other cube shows red: after R, nothing can touch it with the same colour."""
    cubes = [Cube("R", ("red",) * 6)]
    seen = set()
    for combo in itertools.product(("orange", "yellow", "green", "blue", "white"), repeat=6):
        if canonical(combo) not in seen and len(set(combo)) >= 3:
            seen.add(canonical(combo))
            cubes.append(Cube(f"c{len(cubes)}", combo))
        if len(cubes) == 27:
            break
    return CubeSet.checked(cubes)


def test_team_the_cube_wins_when_nothing_fits():
    lonely = lonely_red_set().to_json()
    engine, said = play({"mode": "team", "players": ["Anna", "Ben"], "target": "challenge", "cubes": lonely},
                        [{"action": "place", "cube": "R", "cell": [0, 0, 0], "rotation": 0}])
    assert engine.finished and engine.state.result == "cube"
    assert said[-1].key == "fritzo.team.cube_wins" and said[-1].params["count"] == 26
    assert "Cube gewinnt" in said[-1].text("de")
    assert [a.text("en") for a in engine.ending] == [said[-1].text("en")]  # the screen after the game says why


def test_team_the_cube_wins_when_the_27_miss_the_goal():
    sol = Solver(SET).complete({}, SET.ids, Goal.CHALLENGE)
    actions = [{"action": "place", "cube": p.cube, "cell": list(p.cell), "rotation": p.rotation}
               for p in sol.placements]
    engine, said = play({"mode": "team", "players": ["Anna", "Ben"], "target": "professional"}, actions)
    assert engine.state.result == "cube" and keys(said)[-1] == "fritzo.team.cube_wins_goal"
    assert keys(said)[-2].startswith("fritzo.goal.")  # which side breaks the goal
    assert [a.text("en") for a in engine.ending] == [a.text("en") for a in said[-2:]]


def test_hint_completion_and_placements():
    engine, _ = play({"mode": "team", "players": ["Anna", "Ben"], "target": "professional"},
                     build(D.professional)[:5])
    hint = engine.hint_completion()
    assert hint.status.value == "found" and len(hint.placements) == 22
    cube = hint.placements[0].cube
    options = engine.legal_placements(cube)
    assert hint.placements[0].cell in {p.cell for p in options}


# -- Level One ----------------------------------------------------------------------------------------------------
def plane_actions(player: str, level: int) -> list[dict]:
    """The Professional build's layer ``level`` as a flat 3x3 plane (its cubes touch with equal colours)."""
    out = []
    for (x, y, z), (cid, rot) in sorted(D.professional.items()):
        if z == level:
            out.append({"action": "place", "player": player, "cube": cid, "cell": [x, y], "rotation": rot})
    return out


def test_level_one_with_another_start_colour_says_the_start_colour_not_blue():
    setup = {"mode": "level-one", "players": ["Anna", "Ben"], "minutes": 10, "start_colour": "red"}
    engine, said = play(setup, [{"action": "roll", "dice": ["blue"]}, {"action": "roll", "dice": ["red"]}])
    assert [a.text("en") for a in said][0] == "Anna rolled Blue, not Red. Ben rolls."
    assert "Blue" not in said[1].text("en") and engine.state.allowance == {"Ben": 14, "Anna": 13}


def test_level_one_start_roll_and_scoring_by_hand():
    setup = {"mode": "level-one", "players": ["Anna", "Ben"], "minutes": 10}
    engine, said = play(setup, [{"action": "roll", "dice": ["red"]}, {"action": "roll", "dice": ["blue"]}])
    assert keys(said) == ["fritzo.roll.again_l1", "fritzo.l1.counts", "fritzo.l1.start_timed"]
    # a timed game's clock stands until TIMER: "Baut los!" alone had the table build with the clock standing. The
    # cubes each gets are a sentence of their own that TIMER does not take back (said with the call, they were cut)
    assert said[1].text("de") == "Ben hat zuerst Blau gewürfelt und bekommt 14 Cubes, Anna bekommt 13."
    assert not said[1].until and said[2].until == ("start",)
    assert said[2].text("de") == "Ben, Anna: Startet die Uhr mit der Taste UHR, dann baut los!"
    assert said[1].text("en") == "Ben rolled Blue first and gets 14 cubes, Anna gets 13."
    assert said[2].text("en") == "Ben, Anna: start the clock with TIMER, then build!"
    # the colour rolled and the one sought, named (a table without a camera never saw the cube rolled)
    assert said[0].text("de") == "Anna hat Rot gewürfelt, kein Blau. Ben würfelt."
    assert engine.state.allowance == {"Ben": 14, "Anna": 13}
    assert not engine.rolls_dice  # the building began: no die is thrown (a resumed game said "ROLL rolls virtual dice")
    for action in plane_actions("Anna", 0) + plane_actions("Ben", 2):
        engine.apply(action)
    # Anna (red, orange, yellow) owns the bottom layer of the Professional build: top all yellow (8 rows x 4),
    # bottom all white (Ben's, 8 x 4), sides green (Ben) / yellow, red, orange (Anna): one row of 4 each.
    # Ben's plane is the top layer: top blue, bottom green (both Ben's, 2 x 32), sides as Anna's plane.
    assert engine.state.scores == {"Anna": 32 + 12 + 12, "Ben": 32 + 4 + 64 + 4}
    engine.apply({"action": "done", "player": "Ben"})
    said = engine.apply({"action": "done", "player": "Anna"})
    assert engine.finished and engine.state.winners == ["Ben"] and said[-1].key == "fritzo.over.winner"


def test_level_one_gaps_cost_points_and_cubes_belong_to_one_player():
    setup = {"mode": "level-one", "players": ["Anna", "Ben"], "starter": "Anna"}
    engine, _ = play(setup, plane_actions("Anna", 0)[:5])
    # cells (0,0) (0,1) (0,2) (1,0) (1,1): the west column shows yellow on top, white below, orange at the west
    # side (Anna 4 + 4, Ben 4); Anna has 4 gaps, Ben (nothing placed yet) 9
    assert engine.state.scores == {"Anna": 8 - 4, "Ben": 4 - 9}
    anna_cube = plane_actions("Anna", 0)[0]["cube"]
    rejected(engine, {"action": "place", "player": "Ben", "cube": anna_cube, "cell": [0, 0], "rotation": 0},
             "belongs to Anna")
    rejected(engine, {"action": "place", "player": "Anna", "cube": "27", "cell": [0, 0, 1], "rotation": 0},
             "stays flat")
    rejected(engine, {"action": "place", "cube": "27", "cell": [5, 5], "rotation": 0}, "Which player")
    gaps_before = engine.state.scores["Anna"]
    engine.apply({"action": "remove", "player": "Anna", "cell": [0, 0]})
    assert engine.state.scores["Anna"] <= gaps_before - 1  # one more gap (and maybe a row less)


def test_level_one_allowance():
    engine, _ = play({"mode": "level-one", "players": ["Anna", "Ben"], "starter": "Ben"}, [])
    assert engine.state.allowance["Anna"] == 13
    for cid in SET.ids[:13]:  # take 13 cubes one after the other, each put down and taken off again
        engine.apply({"action": "place", "player": "Anna", "cube": cid, "cell": [0, 0], "rotation": 0})
        engine.apply({"action": "remove", "player": "Anna", "cell": [0, 0]})
    rejected(engine, {"action": "place", "player": "Anna", "cube": SET.ids[13], "cell": [0, 0], "rotation": 0},
             "all 13 cubes")
    assert engine.cubes_left("Anna") == list(SET.ids[:13])  # the screen offers her own only, not cubes it would refuse
    assert engine.cubes_left("Ben") == list(SET.ids[13:])


def test_level_one_tie_goes_to_who_finished_first_and_time_up_without_anyone_done_is_a_draw():
    engine, said = play({"mode": "level-one", "players": ["Anna", "Ben"], "starter": "Anna"},
                        [{"action": "done", "player": "Ben"}, {"action": "done", "player": "Anna"}])
    assert engine.state.scores == {"Anna": -9, "Ben": -9} and engine.state.winners == ["Ben"]
    assert said[-1].key == "fritzo.l1.tie"
    # the screen's "Won: Ben" beside two equal scores says why ("Won: Ben" alone puzzled a table at -9 : -9)
    assert [a.text("en") for a in engine.ending] == ["A tie at -9 points: Ben finished first and wins."]
    engine, said = play({"mode": "level-one", "players": ["Anna", "Ben"], "starter": "Anna", "minutes": 1},
                        [{"action": "start", "at": 50.0}, {"action": "time_up", "at": 110.0}])
    assert engine.state.result == "draw" and keys(said)[-2:] == ["fritzo.times_up", "fritzo.over.draw"]
    assert [a.text("en") for a in engine.ending] == ["A draw at -9 points each."]  # under the screen's "Game over"


def test_level_one_unread_roll():
    engine = Fritzo.new({"action": "setup", "mode": "level-one", "players": ["Anna", "Ben"]})
    err = rejected(engine, {"action": "roll", "dice": [None]}, "not read")
    assert "Korrigiere" in err.localized("de")
    rejected(engine, {"action": "place", "player": "Anna", "cube": "1", "cell": [0, 0], "rotation": 0},
             "First roll")


# -- Strategy -------------------------------------------------------------------------------------------------------
RED = ("red",) * 6


def strategy_set() -> CubeSet:
    special = [
        Cube("A", RED),
        Cube("B", ("red", "orange", "red", "red", "red", "red")),
        Cube("C", ("red", "yellow", "red", "red", "red", "red")),
        Cube("X", ("green", "white", "blue", "red", "green", "blue")),
        Cube("E", ("red", "red", "red", "red", "green", "red")),
        Cube("G", ("red", "red", "green", "blue", "white", "orange")),
        Cube("H", ("red", "red", "red", "red", "red", "blue")),
    ]
    keys_ = {canonical(c.faces) for c in special}
    fill = [c for c in SET.cubes if "red" not in c.faces and canonical(c.faces) not in keys_]
    fill += [c for c in SET.cubes if "red" in c.faces and canonical(c.faces) not in keys_]
    return CubeSet.checked(special + fill[:27 - len(special)])


def strategy(actions: list[dict], **setup) -> tuple[Fritzo, list]:
    base = {"mode": "strategy", "players": ["Anna", "Ben"], "starter": "Anna", "cubes": strategy_set().to_json()}
    return play({**base, **setup}, actions)


def put(cube: str, cell, **kw) -> dict:
    return {"action": "place", "cube": cube, "cell": list(cell), "rotation": 0, **kw}


def test_a_roll_of_a_colour_not_in_the_set_names_the_sets_colours_in_the_tables_language():
    """"möglich sind: red, orange…" (the colours' ids) where a roll named a colour the set has not."""
    engine = Fritzo.new({"action": "setup", "mode": "level-one", "players": ["Anna", "Ben"]})
    with pytest.raises(GameError) as err:
        engine.apply({"action": "roll", "dice": ["pink"]})
    assert "Rot, Orange, Gelb, Grün, Blau und Weiß" in err.value.localized("de"), err.value.localized("de")
    assert "Red, Orange, Yellow, Green, Blue and White" in err.value.localized("en"), err.value.localized("en")


def test_strategy_start_roll_opponents_colour():
    engine, said = strategy([{"action": "roll", "dice": ["red"], "cube": "H"},
                             {"action": "roll", "dice": ["red"], "cube": "H"}], starter=None)
    # Anna rolls her own red: nothing; Ben rolls Anna's red: Ben starts
    assert keys(said) == ["fritzo.roll.again", "fritzo.strategy.start"] and engine.current_player == "Ben"
    assert said[0].text("en") == "Anna rolled Red, not one of Ben's colours. Ben rolls."
    assert said[1].text("de") == "Ben hat Rot gewürfelt, eine Farbe des Gegners, und beginnt."
    assert engine.state.out == ["H"]
    rejected(engine, put("H", (0, 0, 0)), "out of the game")


def test_super_fritzo_wins_at_once():
    engine, said = strategy([put("A", (0, 0, 0)), put("B", (1, 0, 0)), put("C", (2, 0, 0))])
    assert engine.finished and engine.state.result == "super-fritzo" and engine.state.winners == ["Anna"]
    assert said[-2].key == "fritzo.score.points" and said[-2].params["what"] == [
        {"key": "fritzo.shape.row", "params": {"n": 3}}]
    # what scored is named, what did not is not said ("stairs: 0, triangles: 0" made every move's sentence long)
    assert said[-2].text("de") == "Anna bekommt 12 Punkte für 3 Dreierreihen, zusammen 12."
    assert said[-2].text("en") == "Anna scores 12 points for 3 rows, 12 in all."
    assert said[-1].key == "fritzo.super" and said[-1].params["points"] == 12
    # the screen after the game says why she won, for her points may be fewer than the other's
    assert [a.text("en") for a in engine.ending] == [
        "Super Fritzo: Anna scored 7 points or more in one move and won at once."]


def test_points_in_the_opponents_colours_go_to_the_opponent_and_are_no_super_fritzo():
    engine, said = strategy([put("A", (0, 0, 0)), put("B", (1, 0, 0)), put("X", (0, 1, 0)),
                             put("C", (2, 0, 0))])
    # Ben completes Anna's red row on top and on the front (the back of A is covered by X): 8 for Anna
    assert engine.state.scores == {"Anna": 8, "Ben": 0} and not engine.finished
    # the move's score a sentence of its own, whose turn it is a call after it (taken back once answered): merged,
    # the score was taken back with the call when the next cube came, cut off at a table moving every few seconds
    gift, call = said[-2:]
    assert gift.key == "fritzo.score.gift" and gift.params["player"] == "Anna" and gift.params["mover"] == "Ben"
    assert gift.text("de") == "Ben schenkt Anna 8 Punkte, zusammen 8."
    assert gift.text("en") == "Anna gets 8 points from Ben, 8 in all."
    assert not gift.until and not gift.prompt
    assert call.key == "fritzo.turn" and call.prompt and call.until == ("place", "pass", "return")


def test_third_level_only_when_it_scores_at_once():
    engine, _ = strategy([put("A", (0, 0, 0)), put("E", (0, 0, 1))])
    rejected(engine, put("G", (0, 0, 2)), "third layer")
    said = engine.apply(put("H", (0, 0, 2)))  # red column in front and at the back: two rows
    assert engine.state.scores["Anna"] == 8 and said[-1].key == "fritzo.super"


def test_fourth_level_and_floating_cubes_are_refused():
    engine, _ = strategy([put("A", (0, 0, 0)), put("E", (0, 0, 1))])
    rejected(engine, put("H", (3, 0, 0)), "touches no other cube")
    rejected(engine, put("H", (1, 0, 1)), "hang in the air")
    challenge = Fritzo.new({"mode": "challenge", "players": ["Anna"], "cubes": strategy_set().to_json()})
    for z, cid in enumerate(["A", "E", "H"]):
        challenge.apply(put(cid, (0, 0, z)))
    rejected(challenge, put("C", (0, 0, 3)), "higher than 3 layers")


def test_joker_once_per_player():
    engine, said = strategy([put("A", (0, 0, 0)), put("X", (1, 0, 0), joker=True)])
    assert "fritzo.joker" in keys(said) and engine.state.jokers == {"Anna": True, "Ben": False}
    engine.apply(put("B", (0, 1, 0)))
    fritzo_g = put("G", (2, 0, 0), joker=True, rotation=0)
    rejected(engine, fritzo_g, "already played the joker")


def test_pass_only_when_the_cube_does_not_fit():
    no_red = next(c.id for c in strategy_set().cubes if "red" not in c.faces)
    engine, _ = strategy([put("A", (0, 0, 0))])
    rejected(engine, {"action": "pass", "cube": "B"}, "still fits")
    said = engine.apply({"action": "pass", "cube": no_red})
    assert engine.state.scores["Ben"] == -1 and said[0].key == "fritzo.strategy.pass"
    assert engine.current_player == "Anna" and no_red in engine.state.out


def greedy_game(setup: dict) -> list[dict]:
    """A whole Strategy game: each player draws the next cube and puts it where it scores least for them."""
    engine = Fritzo.new({"action": "setup", **setup})
    actions: list[dict] = []
    bag = [c for c in engine.state.cubeset.ids if c not in engine.state.out]
    while not engine.finished:
        cube = bag.pop(0)
        options = engine.legal_placements(cube)
        if options:
            p = options[len(options) // 2]
            action = {"action": "place", "cube": p.cube, "cell": list(p.cell), "rotation": p.rotation}
        else:
            action = {"action": "pass", "cube": cube}
        engine.apply(action)
        actions.append(action)
    return actions


def test_strategy_plays_to_the_end_with_13_cubes_each():
    setup = {"mode": "strategy", "players": ["Anna", "Ben"], "starter": "Ben", "excluded": "27"}
    actions = greedy_game(setup)
    engine, said = play(setup, actions)
    assert engine.finished
    if engine.state.result != "super-fritzo":
        assert engine.state.moves == {"Anna": 13, "Ben": 13} and len(actions) == 26
    announced = {"Anna": 0, "Ben": 0}
    for a in said:
        if a.key in ("fritzo.score.points", "fritzo.score.gift"):
            announced[a.params["player"]] += a.params["points"]
        if a.key == "fritzo.strategy.pass":
            announced[a.params["player"]] -= 1
    assert announced == engine.state.scores
    best = max(engine.state.scores.values())
    assert engine.state.scores[engine.state.winners[0]] == best


def test_strategy_tie_goes_to_the_last_mover():
    setup = {"mode": "strategy", "players": ["Anna", "Ben"], "starter": "Anna", "excluded": "27"}
    actions = greedy_game(setup)
    engine, _ = play(setup, actions[:-1])
    data = engine.to_json()
    data["scores"] = {"Anna": 5, "Ben": 5}
    engine = Fritzo.from_json(data)
    last = actions[-1]
    said = engine.apply(last)
    assert engine.state.scores == {"Anna": 5, "Ben": 5}, "this game's last move scores: pick one that does not"
    assert said[-1].key == "fritzo.strategy.tie" and engine.state.winners == [engine.state.last_mover]
    # the screen's "Won: ..." beside two equal scores says why, in the words said
    assert [a.text("en") for a in engine.ending] == [said[-1].text("en")]


# -- bad input ------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "setup,match",
    [
        ({"mode": "chess", "players": ["Anna"]}, "no mode chess"),
        ({"mode": "strategy", "players": ["Anna"]}, "exactly 2 players, not 1"),
        ({"mode": "team", "players": ["A", "B", "C", "D", "E"]}, "2 to 4 players"),
        ({"mode": "level-one", "players": ["Anna", "Anna"]}, "same name"),
        ({"mode": "strategy", "players": ["A", "B"], "colours": {"A": ["red", "orange", "yellow"],
                                                                  "B": ["red", "blue", "white"]}}, "six different"),
        ({"mode": "team", "players": ["A", "B"], "target": "tower"}, "no goal tower"),
        ({"mode": "beginner", "players": ["A"], "minutes": -3}, "between 1 and 600"),
        ({"mode": "beginner", "players": ["A"], "cubes": [{"id": "1", "faces": ["red"] * 6}]}, "must be 27"),
    ],
)
def test_bad_setup(setup, match):
    with pytest.raises(GameError, match=match):
        Fritzo.new({"action": "setup", **setup})


def test_a_duplicate_cube_in_a_taught_set_is_refused_at_setup():
    cubes = SET.to_json()
    cubes["cubes"][5]["faces"] = list(orient(cubes["cubes"][6]["faces"], 11))
    with pytest.raises(GameError, match="only turned"):
        Fritzo.new({"action": "setup", "mode": "challenge", "players": ["Anna"], "cubes": cubes})


@pytest.mark.parametrize(
    "action,match",
    [
        ({"action": "fly"}, "no action fly"),
        ({"action": "place", "cube": "99", "cell": [0, 0, 0], "rotation": 0}, "no cube 99"),
        ({"action": "place", "cube": "1", "cell": [0, 0, 0], "rotation": 24}, "0 to 23"),
        ({"action": "place", "cube": "1", "cell": [0, 0], "rotation": 0}, "x, y, layer"),
        ({"action": "place", "cube": "1", "cell": [0, 0, 0]}, "How does the cube lie"),
        ({"action": "place", "cube": "2", "cell": [0, 0, 0], "rotation": 0}, "already in use"),
        ({"action": "pass", "cube": "2"}, "only exists in Strategy"),
        ({"action": "roll", "dice": ["blue"]}, "No roll now"),
        ({"action": "time_up", "at": 5}, "no clock"),
    ],
)
def test_bad_actions_leave_the_state_unchanged(action, match):
    engine = Fritzo.new({"action": "setup", "mode": "challenge", "players": ["Anna"]})
    engine.apply({"action": "place", "cube": "2", "cell": [5, 5, 0], "rotation": 0})
    rejected(engine, action, match)


def test_nothing_after_the_end():
    engine, _ = strategy([put("A", (0, 0, 0)), put("B", (1, 0, 0)), put("C", (2, 0, 0))])
    rejected(engine, put("E", (0, 1, 0)), "game is over")


# -- transcripts ----------------------------------------------------------------------------------------------------
def test_replay_gives_the_identical_state():
    setup = {"mode": "strategy", "players": ["Anna", "Ben"], "starter": "Anna", "seed": 7}
    actions = greedy_game(setup)
    a, _ = play(setup, actions)
    b, _ = play(setup, actions)
    assert a.to_json() == b.to_json()


def test_example_transcript_plays_to_the_end():
    path = ROOT / "examples" / "fritzo.jsonl"
    out = io.StringIO()
    engine = play_transcript(Fritzo, path.read_text(encoding="utf-8").splitlines(), out, lang="en")
    assert engine.finished
    text = out.getvalue()
    assert "final state:" in text and "Fritzo" in text


def test_transcript_json_output_and_line_numbers_in_errors():
    lines = [json.dumps({"action": "setup", "mode": "challenge", "players": ["Anna"]}),
             json.dumps({"action": "place", "cube": "1", "cell": [0, 0, 0], "rotation": 0}),
             json.dumps({"action": "place", "cube": "2", "cell": [2, 0, 0], "rotation": 0})]
    with pytest.raises(GameError, match="line 3: .*touches no other cube"):
        play_transcript(Fritzo, lines, io.StringIO())
    out = io.StringIO()
    play_transcript(Fritzo, lines[:2], out, as_json=True)
    last = json.loads(out.getvalue().splitlines()[-1])
    assert last["finished"] is False and last["final"]["building"][0]["cube"] == "1"
    assert Phase.BUILDING.value == last["final"]["phase"]


def test_the_note_of_a_placed_cube_names_its_level_not_coordinates_the_grid_does_not_show():
    first = build(D.professional)[:1]
    engine, said = play({"mode": "team", "players": ["Anna", "Ben"], "target": "professional"}, first)
    placed = said[0]
    assert placed.text("en") == f"Cube {first[0]['cube']} placed on layer 1."
    assert placed.text("de") == f"Cube {first[0]['cube']} steht auf Ebene 1."
    x, y, _ = first[0]["cell"]
    assert placed.params["cell"] == f"{x}/{y}/1"  # a transcript's reader still has the place
    engine, said = play({"mode": "level-one", "players": ["Anna", "Ben"], "starter": "Anna"},
                        [{"action": "place", "player": "Anna", "cube": SET.ids[0], "cell": [0, 0], "rotation": 0}])
    assert said[0].text("en") == f"Anna places cube {SET.ids[0]}."


def test_a_one_minute_race_is_one_minute_not_one_minutes():
    """The minutes went to the catalog as text, so its plural forms never matched ("1 minutes")."""
    _, said = play({"mode": "beginner", "players": ["Anna"], "minutes": 1}, [{"action": "start", "at": 0.0}])
    assert said[-1].text("en") == "The clock is running: 1 minute." and said[-1].text("de").endswith("eine Minute.")
    _, said = play({"mode": "beginner", "players": ["Anna"], "minutes": 1.5}, [{"action": "start", "at": 0.0}])
    assert said[-1].text("en") == "The clock is running: 1.5 minutes."


# -- what the table hears ---------------------------------------------------------------------------------------------
def test_whose_turn_it_is_is_spoken_in_team_and_strategy():
    """"Anna's turn." came as banner and chime only: a player looking at the building, not the screen, missed it."""
    players = ["Anna", "Ben"]
    _, said = play({"mode": "team", "players": players, "target": "professional"}, build(D.professional, players)[:2])
    turns = [a for a in said if a.key == "fritzo.turn"]
    assert [a.text("de") for a in turns] == ["Ben ist dran.", "Anna ist dran."] and all(a.speak for a in turns)
    _, said = strategy([put("X", (0, 0, 0))])
    assert said[-1].key == "fritzo.turn" and said[-1].speak and said[-1].text("en") == "Ben's turn."


@pytest.mark.parametrize(
    ("setup", "words"),
    [
        ({"mode": "team", "players": ["Anna", "Ben", "Carl"], "start": "Carl"}, ["Carl legt den ersten Cube."]),
        ({"mode": "strategy", "players": ["Anna", "Ben"], "start": 1},
         ["Ein Cube wird entnommen, er kommt nicht ins Spiel. Ben würfelt damit zuerst."]),
        ({"mode": "strategy", "players": ["Anna", "Ben"], "excluded": "27"}, ["Anna würfelt zuerst."]),
        ({"mode": "level-one", "players": ["Anna", "Ben"]}, ["Anna würfelt zuerst."]),
        ({"mode": "strategy", "players": ["Anna", "Ben"], "starter": "Ben"}, ["Ben fängt an."]),
        ({"mode": "level-one", "players": ["Anna", "Ben"], "starter": "Ben"},
         ["Ben bekommt 14 Cubes, Anna bekommt 13. Baut los!"]),
        ({"mode": "professional", "players": ["Anna", "Ben"]}, []),
    ],
)
def test_the_first_player_is_announced_as_the_game_begins(setup, words):
    """Who goes first was never said: the setup is no action, so only the opening can say it (as Haste Worte's
    "Round 1: Ben rolls."). Solo modes have no turns and say nothing."""
    engine = Fritzo.new({"action": "setup", **setup})
    opening = engine.opening_announcements
    assert [a.text("de") for a in opening] == words and all(a.speak for a in opening)


def test_a_new_session_says_the_opening(tmp_path):
    from companion.journal import Journal
    from companion.session import GameSession

    heard = []
    GameSession.new(Fritzo, {"action": "setup", "mode": "team", "players": ["Anna", "Ben"], "start": 1},
                    Journal(tmp_path / "journal"), lang="en", announce=heard.append)
    assert [a.text("en") for a in heard] == ["Ben places the first cube."]


def test_level_one_shows_the_true_count_before_the_first_cube():
    """"Anna: 0 · Ben: 0" after the start roll, then Anna -8 and Ben -9 after her first cube: placing a cube looked
    like losing 8 points. Nine gaps are nine minus points ("Eine Lücke ergibt einen Minuspunkt") from the start."""
    engine = Fritzo.new({"action": "setup", "mode": "level-one", "players": ["Anna", "Ben"]})
    assert engine.state.scores == {"Anna": -9, "Ben": -9}
    engine.apply({"action": "roll", "dice": ["blue"]})
    assert engine.state.scores == {"Anna": -9, "Ben": -9}
    engine.apply(plane_actions("Anna", 0)[0])
    assert engine.state.scores == {"Anna": -8, "Ben": -9}  # one gap less: a point gained
    started = Fritzo.new({"action": "setup", "mode": "level-one", "players": ["Anna", "Ben"], "starter": "Ben"})
    assert started.state.scores == {"Anna": -9, "Ben": -9}


def test_an_interrupted_clock_is_started_again_or_declared_up():
    """The clock a restart could not trust (``timer_interrupted``): placing goes on, ``start`` is a fresh full run,
    and ``time_up`` is the table's word (it need not have run out)."""
    setup = {"mode": "level-one", "players": ["Anna", "Ben"], "starter": "Anna", "minutes": 5}
    engine, said = play(setup, [{"action": "start", "at": 1000.0}, {"action": "timer_interrupted", "at": 10.0}])
    assert said[-1].key == "fritzo.timer.interrupted" and said[-1].speak
    assert said[-1].text("en") == "A restart interrupted the clock. Start it again, or declare time's up."
    rejected(engine, {"action": "timer_interrupted", "at": 11.0}, "no clock")
    engine.apply(dict(plane_actions("Anna", 0)[0], at=20.0))
    again = Fritzo.from_json(engine.to_json())
    again.apply({"action": "start", "at": 30.0})
    assert again.state.hourglass.remaining(30.0 + 299) == pytest.approx(1.0)
    rejected(again, {"action": "time_up", "at": 100.0}, "not up")
    said = engine.apply({"action": "time_up", "at": 12.0})
    assert keys(said)[0] == "fritzo.times_up" and engine.finished
    engine = Fritzo.new({"action": "setup", **setup})
    rejected(engine, {"action": "timer_interrupted", "at": 11.0}, "no clock")  # never started


def test_level_one_says_when_a_cube_laid_beside_an_edge_row_takes_its_points_away():
    """A side row counts only while it is the plane's outer edge: a cube laid beside it takes it away, and the
    score fell from -2 to -5 with only "Anna places cube M." said."""
    special = [Cube("E1", ("blue", "blue", "green", "green", "red", "white")),
               Cube("E2", ("blue", "white", "green", "green", "red", "white")),
               Cube("E3", ("blue", "yellow", "green", "green", "red", "white")),
               Cube("M", ("white", "green", "green", "green", "orange", "red"))]
    taken = {canonical(c.faces) for c in special}
    cubes = CubeSet.checked(special + [c for c in default_set().cubes if canonical(c.faces) not in taken][:23])
    engine = Fritzo.new({"action": "setup", "mode": "level-one", "players": ["Anna", "Ben"], "starter": "Anna",
                         "cubes": cubes.to_json()})
    for cube, cell in (("E1", (0, 0)), ("E2", (0, 1)), ("E3", (0, 2))):
        engine.apply({"action": "place", "player": "Anna", "cube": cube, "cell": list(cell), "rotation": 0})
    before = engine.state.scores["Anna"]
    said = engine.apply({"action": "place", "player": "Anna", "cube": "M", "cell": [1, 0], "rotation": 0})
    after = engine.state.scores["Anna"]
    assert after < before  # the row's points gone, one gap fewer
    lost = [a for a in said if a.key == "fritzo.l1.rows_lost"]
    assert [a.params["player"] for a in lost] == ["Anna"] and lost[0].params["points"] == before + 1 - after
    assert lost[0].text("en").endswith(f"now {after}.")


def test_third_level_opens_only_for_the_movers_own_points():
    """"Die Spieler können nur dann Cubes auf der dritten senkrechten Ebene ablegen, wenn damit sofort Punkte erzielt
    werden können": a cube completing a row in the *opponent's* colours scores for the opponent (it is credited,
    "gutgeschrieben"), not for the mover, and opened the third level to the mover all the same. Now it is refused
    and not offered (so it does not block a pass either: ``pass`` asks ``legal_placements``)."""
    engine, _ = strategy([put("A", (0, 0, 0)), put("E", (0, 0, 1))], starter="Ben",
                         third_level="own")  # Ben, then Anna; a setup written since the rule changed
    assert engine.current_player == "Ben"
    err = rejected(engine, put("H", (0, 0, 2)), "third layer")  # Anna's red column, for Anna: not Ben's points
    assert err.localized("de") == ("Auf die dritte Ebene darf ein Cube nur, wenn Ben damit sofort selbst Punkte "
                                   "erzielt (Punkte für den Gegner zählen nicht).")
    assert all(p.cell[2] < 2 for p in engine.legal_placements("H"))
    assert all(p.cell[2] < 2 for p in engine.legal_placements("H", joker=True))
    engine.apply(put("G", (0, 1, 0), rotation=next(p.rotation for p in engine.legal_placements("G")
                                                   if p.cell == (0, 1, 0))))
    assert engine.current_player == "Anna"
    assert any(p.cell == (0, 0, 2) for p in engine.legal_placements("H"))  # her own points: the third level opens
    assert FritzoState.from_json(engine.state.to_json()).third_level == "own"  # a resumed game keeps its rule


def test_a_strategy_journal_from_before_the_own_points_rule_replays_under_its_rule():
    """A game saved before the third level asked for the mover's own points (its setup has no ``third_level``)
    resumed "damaged": the cube that scored for the opponent was refused on replay, and every move after it lost.
    Such a setup keeps the rule it was played with, in the engine and in a snapshot."""
    engine, _ = strategy([put("A", (0, 0, 0)), put("E", (0, 0, 1)), put("H", (0, 0, 2))], starter="Ben")
    assert engine.state.building[(0, 0, 2)].cube == "H" and engine.state.third_level == "any"
    assert FritzoState.from_json(engine.state.to_json()).third_level == "any"
    assert engine.current_player == "Anna"
