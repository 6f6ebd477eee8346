"""The Fritzo solver: completions re-checked by the independent rule checker, proofs of none, placements."""

from __future__ import annotations

import itertools
import random

import pytest

from companion.games.fritzo.cubeset import Cube, CubeSet, default_construction, default_set
from companion.games.fritzo.errors import PlacementError
from companion.games.fritzo.geometry import orient
from companion.games.fritzo.rules import (
    CUBE_LIMITS,
    STRATEGY_LIMITS,
    Contact,
    Goal,
    check_goal,
    check_placement,
)
from companion.games.fritzo.solver import Solver, Status

SET = default_set()


def colours_of(placements, cubeset=SET) -> dict:
    return {p.cell: orient(cubeset.cube(p.cube).faces, p.rotation) for p in placements}


def replay_legally(placements, contact, start=None, cubeset=SET) -> dict:
    """Place the answer one cube at a time through the checker: every step must be legal."""
    placed = dict(start or {})
    for p in placements:
        look = orient(cubeset.cube(p.cube).faces, p.rotation)
        check_placement(placed, p.cell, look, contact=contact, limits=CUBE_LIMITS)
        placed[p.cell] = look
    return placed


@pytest.mark.parametrize("goal", list(Goal))
def test_full_completion_from_empty_is_rechecked_by_the_rules(goal):
    result = Solver(SET).complete({}, SET.ids, goal)
    assert result.status is Status.FOUND
    assert sorted(p.cube for p in result.placements) == sorted(SET.ids)  # each cube used once
    final = replay_legally(result.placements, goal.contact)
    check = check_goal(final, goal)
    assert check.ok, check.problem


@pytest.mark.parametrize("seed", range(4))
def test_completion_with_the_cubes_in_another_order_and_turned(seed):
    """Same cubes, shuffled and each taught in another orientation: the solver must not rely on either."""
    rng = random.Random(seed)
    cubes = [Cube(f"k{i}", orient(c.faces, rng.randrange(24))) for i, c in enumerate(SET.cubes)]
    rng.shuffle(cubes)
    shuffled = CubeSet.checked(cubes)
    for goal in (Goal.PROFESSIONAL, Goal.BEGINNER):
        result = Solver(shuffled).complete({}, shuffled.ids, goal)
        assert result.status is Status.FOUND
        final = replay_legally(result.placements, goal.contact, cubeset=shuffled)
        assert check_goal(final, goal).ok


def test_completion_from_a_partial_building():
    d = default_construction()
    start_cells = [(0, 0, 0), (1, 0, 0), (1, 1, 0), (1, 1, 1)]
    start = {c: orient(SET.cube(d.professional[c][0]).faces, d.professional[c][1]) for c in start_cells}
    left = [i for i in SET.ids if i not in {d.professional[c][0] for c in start_cells}]
    result = Solver(SET).complete(start, left, Goal.PROFESSIONAL)
    assert result.status is Status.FOUND and len(result.placements) == 23
    final = replay_legally(result.placements, Contact.SAME, start)
    assert check_goal(final, Goal.PROFESSIONAL).ok
    assert all(final[c] == start[c] for c in start)


def test_a_partial_building_away_from_the_origin():
    """The structure can stand anywhere on the table: the solver tries every 3x3x3 box around it."""
    d = default_construction()
    shift = (5, -2, 0)
    cell = (2, 2, 0)
    cid, rot = d.professional[cell]
    start = {(cell[0] + shift[0], cell[1] + shift[1], 0): orient(SET.cube(cid).faces, rot)}
    result = Solver(SET).complete(start, [i for i in SET.ids if i != cid], Goal.PROFESSIONAL)
    assert result.status is Status.FOUND
    final = replay_legally(result.placements, Contact.SAME, start)
    assert check_goal(final, Goal.PROFESSIONAL).ok


def test_none_when_the_cubes_standing_already_break_the_rule():
    d = default_construction()
    bottom = {c: orient(SET.cube(i).faces, r) for c, (i, r) in d.beginner.items() if c[2] == 0}
    used = {d.beginner[c][0] for c in bottom}
    result = Solver(SET).complete(bottom, [i for i in SET.ids if i not in used], Goal.PROFESSIONAL)
    assert result.status is Status.NONE


def lonely_red_set() -> CubeSet:
    """Cube 'R' is all red; no other cube shows red at all (26 different cubes of the five other colours)."""
    others = ("orange", "yellow", "green", "blue", "white")
    cubes = [Cube("R", ("red",) * 6)]
    seen = set()
    from companion.games.fritzo.geometry import canonical

    for combo in itertools.product(others, repeat=6):
        key = canonical(combo)
        if key in seen or len(set(combo)) < 3:
            continue
        seen.add(key)
        cubes.append(Cube(f"c{len(cubes)}", combo))
        if len(cubes) == 27:
            break
    return CubeSet.checked(cubes)


def test_proof_that_none_exists_by_search():
    lonely = lonely_red_set()
    solver = Solver(lonely)
    start = {(0, 0, 0): ("red",) * 6}
    result = solver.complete(start, [i for i in lonely.ids if i != "R"], Goal.CHALLENGE)
    assert result.status is Status.NONE and result.nodes > 0
    assert solver.placements(start, [i for i in lonely.ids if i != "R"], Contact.SAME, CUBE_LIMITS) == []


def test_gives_up_honestly_at_the_node_limit():
    result = Solver(SET).complete({}, SET.ids, Goal.BEGINNER, node_limit=1)
    assert result.status is Status.UNKNOWN and result.placements == []


@pytest.mark.parametrize("contact,limits", [(Contact.SAME, CUBE_LIMITS), (Contact.DIFFERENT, STRATEGY_LIMITS)])
def test_single_placements_agree_with_brute_force(contact, limits):
    d = default_construction()
    layout = d.professional if contact is Contact.SAME else d.beginner
    cells = [(0, 0, 0), (1, 0, 0), (2, 0, 0), (1, 1, 0), (1, 1, 1)]
    structure = {c: orient(SET.cube(layout[c][0]).faces, layout[c][1]) for c in cells}
    left = [i for i in SET.ids if i not in {layout[c][0] for c in cells}]
    fast = {(p.cube, p.cell, orient(SET.cube(p.cube).faces, p.rotation))
            for p in Solver(SET).placements(structure, left, contact, limits)}
    slow = set()
    for cell in itertools.product(range(-3, 6), range(-3, 6), range(0, 4)):
        if all(max(abs(cell[i] - c[i]) for i in range(3)) > 1 for c in structure):
            continue  # far from every cube: refused anyway (only saves time)
        for cid in left:
            for r in range(24):
                look = orient(SET.cube(cid).faces, r)
                try:
                    check_placement(structure, cell, look, contact=contact, limits=limits)
                except PlacementError:
                    continue
                slow.add((cid, cell, look))
    assert fast == slow and len(fast) > 0


def test_first_cube_goes_to_the_origin():
    found = Solver(SET).placements({}, ["1"], Contact.SAME, CUBE_LIMITS)
    assert {p.cell for p in found} == {(0, 0, 0)} and len(found) == len({orient(SET.cube("1").faces, r)
                                                                          for r in range(24)})
