"""Fritzo placement rules and goal checks (the independent checker), and the scoring shapes."""

from __future__ import annotations

import itertools

import pytest

from companion.games.fritzo.cubeset import default_construction, default_set
from companion.games.fritzo.errors import PlacementError
from companion.games.fritzo.geometry import FACES, NORTH, SOUTH, TOP, orient
from companion.games.fritzo.rules import (
    CUBE_LIMITS,
    PLANE_LIMITS,
    STRATEGY_LIMITS,
    Contact,
    Goal,
    buildable_order,
    check_goal,
    check_placement,
)
from companion.games.fritzo.scoring import LEVEL_ONE_POINTS, Shape, formations_with

SIX = ("red", "orange", "yellow", "green", "blue", "white")
OWNERS = {"red": "Anna", "orange": "Anna", "yellow": "Anna", "green": "Ben", "blue": "Ben", "white": "Ben"}


def cube(base: str = "grey", **faces: str) -> tuple[str, ...]:
    """A colouring: every face ``base`` (grey belongs to nobody) except the faces named."""
    return tuple(faces.get(f, base) for f in FACES)


def layout(which: str) -> dict:
    d = default_construction()
    s = default_set()
    return {c: orient(s.cube(i).faces, r) for c, (i, r) in getattr(d, which).items()}


# -- placement -----------------------------------------------------------------------------------------------
def test_beginner_needs_different_colours_touching():
    s = {(0, 0, 0): cube(east="red")}
    with pytest.raises(PlacementError) as err:
        check_placement(s, (1, 0, 0), cube(west="red"), contact=Contact.DIFFERENT, limits=CUBE_LIMITS)
    assert "Equal colours" in str(err.value) and "verschieden" in err.value.localized("de")
    check_placement(s, (1, 0, 0), cube(west="blue"), contact=Contact.DIFFERENT, limits=CUBE_LIMITS)


def test_a_refusals_colours_are_named_as_the_screen_names_them():
    """"oben: red an blue" stood in a German refusal (the colours' ids, not their names), a taught one lower case:
    the colours as every line names them, with a capital ("Rot", "Red", a taught "Navy")."""
    s = {(0, 0, 0): cube(east="red"), (2, 0, 0): cube(west="navy")}
    with pytest.raises(PlacementError) as err:
        check_placement(s, (1, 0, 0), cube(west="red"), contact=Contact.DIFFERENT, limits=CUBE_LIMITS)
    assert "Rot an Rot" in err.value.localized("de") and "Red against Red" in err.value.localized("en")
    with pytest.raises(PlacementError) as err:
        check_placement(s, (1, 0, 0), cube("red", east="blue"), contact=Contact.SAME, limits=CUBE_LIMITS)
    assert "Blau an Navy" in err.value.localized("de") and "Blue against Navy" in err.value.localized("en")


def test_same_colour_modes_need_equal_colours_in_every_direction():
    s = {(0, 0, 0): cube("red"), (1, 0, 1): cube("blue"), (1, 0, 0): cube("red", top="blue")}
    ok = cube("red", top="blue")
    check_placement(s, (1, 1, 0), cube("red"), contact=Contact.SAME, limits=CUBE_LIMITS)
    check_placement({(0, 0, 0): cube("red")}, (0, 0, 1), ok, contact=Contact.SAME, limits=CUBE_LIMITS)
    # touches red to the west (fine) and blue above? no: (0,0,1) is empty; touches (1,0,1) blue to the east
    with pytest.raises(PlacementError, match="must be the same"):
        check_placement(s, (0, 0, 1), cube("red"), contact=Contact.SAME, limits=CUBE_LIMITS)
    check_placement(s, (0, 0, 1), cube("red", east="blue"), contact=Contact.SAME, limits=CUBE_LIMITS)


def test_joker_lifts_only_the_colour_rule():
    s = {(0, 0, 0): cube("red")}
    check_placement(s, (1, 0, 0), cube("blue"), contact=Contact.SAME, limits=STRATEGY_LIMITS, joker=True)
    with pytest.raises(PlacementError, match="touches no other cube"):
        check_placement(s, (3, 0, 0), cube("blue"), contact=Contact.SAME, limits=STRATEGY_LIMITS, joker=True)


def test_a_floating_cube_is_refused():
    s = {(0, 0, 0): cube("red"), (0, 0, 1): cube("red")}
    with pytest.raises(PlacementError, match="touches no other cube"):
        check_placement(s, (2, 0, 0), cube("red"), contact=Contact.SAME, limits=CUBE_LIMITS)
    with pytest.raises(PlacementError, match="hang in the air"):  # touches sideways, nothing below
        check_placement(s, (1, 0, 1), cube("red"), contact=Contact.SAME, limits=CUBE_LIMITS)
    with pytest.raises(PlacementError, match="below the table"):
        check_placement(s, (0, 0, -1), cube("red"), contact=Contact.SAME, limits=CUBE_LIMITS)


def test_a_fourth_level_is_refused():
    s = {(0, 0, z): cube("red") for z in range(3)}
    with pytest.raises(PlacementError) as err:
        check_placement(s, (0, 0, 3), cube("red"), contact=Contact.SAME, limits=STRATEGY_LIMITS)
    assert "3 layers" in str(err.value) and "3 Ebenen" in err.value.localized("de")


@pytest.mark.parametrize("limits,size", [(CUBE_LIMITS, 3), (STRATEGY_LIMITS, 5), (PLANE_LIMITS, 3)])
def test_footprint_limits(limits, size):
    s = {(x, 0, 0): cube("red") for x in range(size)}
    with pytest.raises(PlacementError, match="wider than"):
        check_placement(s, (size, 0, 0), cube("red"), contact=Contact.SAME, limits=limits)
    with pytest.raises(PlacementError, match="wider than"):
        check_placement(s, (-1, 0, 0), cube("red"), contact=Contact.SAME, limits=limits)
    check_placement(s, (0, 1, 0), cube("red"), contact=Contact.SAME, limits=limits)


def test_plane_limits_keep_level_one_flat():
    with pytest.raises(PlacementError, match=r"than 1 layer\."):
        check_placement({(0, 0, 0): cube("red")}, (0, 0, 1), cube("red"), contact=Contact.SAME,
                        limits=PLANE_LIMITS)


def test_cell_taken():
    with pytest.raises(PlacementError, match="already stands"):
        check_placement({(0, 0, 0): cube("red")}, (0, 0, 0), cube("red"), contact=Contact.SAME,
                        limits=CUBE_LIMITS)


# -- goals ------------------------------------------------------------------------------------------------------
def test_the_default_builds_meet_their_goals_and_not_the_others():
    pro, beg = layout("professional"), layout("beginner")
    assert check_goal(pro, Goal.PROFESSIONAL).ok
    assert check_goal(pro, Goal.CHALLENGE).ok
    assert check_goal(beg, Goal.BEGINNER).ok
    assert check_goal(beg, Goal.CHALLENGE).problem == "fritzo.goal.contact"
    assert check_goal(pro, Goal.BEGINNER).problem == "fritzo.goal.contact"
    assert set(check_goal(pro, Goal.PROFESSIONAL).sides.values()) == set(SIX)


def identical_cubes(colouring) -> dict:
    return {c: colouring for c in itertools.product(range(3), repeat=3)}


def test_one_colour_sides_six_different():
    assert check_goal(identical_cubes(SIX), Goal.BEGINNER).ok  # touching pairs are opposite faces: all differ
    repeat = ("red", "orange", "yellow", "green", "red", "blue")  # top and east both red
    assert check_goal(identical_cubes(repeat), Goal.BEGINNER).problem == "fritzo.goal.side_repeat"
    mixed = identical_cubes(SIX)
    mixed[(0, 0, 2)] = ("white",) + SIX[1:]  # a corner shows white on top: top not one colour
    result = check_goal(mixed, Goal.BEGINNER)
    assert result.problem == "fritzo.goal.side_mixed.top" and not result.ok


def test_challenge_allows_any_outer_colours():
    s = layout("professional")
    corner = s[(0, 0, 0)]
    s[(0, 0, 0)] = corner[:1] + ("red",) + corner[2:]  # its bottom face (outside, touching nothing) turns red
    assert check_goal(s, Goal.CHALLENGE).ok
    assert check_goal(s, Goal.PROFESSIONAL).problem == "fritzo.goal.side_mixed.bottom"


def test_goal_needs_27_in_a_cube():
    s = layout("professional")
    del s[(1, 1, 1)]
    assert check_goal(s, Goal.CHALLENGE).problem == "fritzo.goal.count"
    slab = {(x, y, 0): SIX for x in range(9) for y in range(3)}
    assert check_goal(slab, Goal.CHALLENGE).problem == "fritzo.goal.shape"


def test_buildable_order_keeps_every_step_legal():
    order = buildable_order(set(layout("professional")))
    placed: dict = {}
    pro = layout("professional")
    for cell in order:
        check_placement(placed, cell, pro[cell], contact=Contact.SAME, limits=CUBE_LIMITS)
        placed[cell] = pro[cell]
    assert len(placed) == 27


# -- scoring shapes -------------------------------------------------------------------------------------------
def score(structure, new, **kw):
    return formations_with(structure, new, OWNERS, **kw)


@pytest.mark.parametrize(
    "cells",
    [
        [(0, 0), (1, 0), (2, 0)],  # across
        [(0, 0), (0, 1), (0, 2)],  # up the grid
        [(0, 0), (1, 1), (2, 2)],  # diagonal
        [(0, 2), (1, 1), (2, 0)],  # the other diagonal
    ],
)
def test_row_on_top_equal_colours_is_4(cells):
    s = {(x, y, 0): cube(top="red") for x, y in cells}
    # fill in grey cubes so the diagonal ones touch (scoring itself does not need it)
    for x, y in itertools.product(range(3), repeat=2):
        s.setdefault((x, y, 0), cube())
    found = score(s, (*cells[-1], 0))
    assert [(f.shape, f.points, f.owner, f.face) for f in found] == [(Shape.ROW, 4, "Anna", TOP)]


def test_row_of_three_different_own_colours_is_3_and_two_alike_is_nothing():
    s = {(0, 0, 0): cube(top="red"), (1, 0, 0): cube(top="orange"), (2, 0, 0): cube(top="yellow")}
    assert [(f.shape, f.points) for f in score(s, (2, 0, 0))] == [(Shape.ROW, 3)]
    s[(2, 0, 0)] = cube(top="orange")
    assert score(s, (2, 0, 0)) == []


def test_mixed_owners_score_nothing_and_opponents_colours_go_to_the_opponent():
    s = {(0, 0, 0): cube(top="red"), (1, 0, 0): cube(top="red"), (2, 0, 0): cube(top="blue")}
    assert score(s, (2, 0, 0)) == []
    s = {(0, 0, 0): cube(top="blue"), (1, 0, 0): cube(top="blue"), (2, 0, 0): cube(top="blue")}
    (f,) = score(s, (2, 0, 0))
    assert f.owner == "Ben" and f.points == 4


@pytest.mark.parametrize("turn", range(8))
def test_stair_in_every_turn(turn):
    from companion.games.fritzo.scoring import SHAPES

    offsets = SHAPES[Shape.STAIR][turn]
    s = {(x, y, 0): cube() for x, y in itertools.product(range(3), repeat=2)}
    for x, y in offsets:
        s[(x, y, 0)] = cube(top="green")
    found = score(s, (*offsets[1], 0))
    assert [(f.shape, f.points, f.owner) for f in found] == [(Shape.STAIR, 4, "Ben")]
    s[(*offsets[0], 0)] = cube(top="white")
    s[(*offsets[2], 0)] = cube(top="blue")
    found = score(s, (*offsets[1], 0))
    assert [(f.shape, f.points) for f in found] == [(Shape.STAIR, 3)]


@pytest.mark.parametrize("missing", [(0, 0), (1, 0), (0, 1), (1, 1)])
def test_triangle_three_of_a_square_equal_colours_is_2(missing):
    cells = [c for c in [(0, 0), (1, 0), (0, 1), (1, 1)] if c != missing]
    s = {(x, y, 0): cube(top="yellow") for x, y in cells}
    found = score(s, (*cells[0], 0))
    assert [(f.shape, f.points, f.owner) for f in found] == [(Shape.TRIANGLE, 2, "Anna")]
    s[(*cells[0], 0)] = cube(top="red")
    s[(*cells[1], 0)] = cube(top="orange")
    assert score(s, (*cells[0], 0)) == []  # triangles score only with equal colours


def test_a_square_of_four_holds_four_triangles():
    s = {(x, y, 0): cube(top="yellow") for x, y in itertools.product(range(2), repeat=2)}
    found = score(s, (0, 0, 0))
    assert [f.shape for f in found] == [Shape.TRIANGLE] * 3  # the new corner is in three of the four


def test_vertical_row_and_stair_on_a_side():
    tower = {(0, 0, z): cube(south="red") for z in range(3)}
    found = score(tower, (0, 0, 2))
    assert [(f.shape, f.face, f.points) for f in found] == [(Shape.ROW, SOUTH, 4)]
    # a stair on the front: (x, z) = (0,0) (1,0) (2,1), the cube under (2,1) shows grey
    s = {(0, 0, 0): cube(south="orange"), (1, 0, 0): cube(south="orange"), (2, 0, 0): cube(),
         (2, 0, 1): cube(south="orange")}
    found = score(s, (2, 0, 1))
    assert [(f.shape, f.face, f.points) for f in found] == [(Shape.STAIR, SOUTH, 4)]


def test_nothing_bends_around_an_edge_or_across_levels():
    around = {(0, 0, 0): cube(top="red"), (1, 0, 0): cube(top="red"), (2, 0, 0): cube(east="red")}
    assert score(around, (2, 0, 0)) == []
    steps = {(0, 0, 0): cube(top="red"), (1, 0, 0): cube(top="red"), (2, 0, 0): cube(),
             (2, 0, 1): cube(top="red")}
    assert score(steps, (2, 0, 1)) == []


def test_covered_faces_do_not_count():
    s = {(0, 0, 0): cube(top="red"), (1, 0, 0): cube(top="red"), (1, 0, 1): cube(), (2, 0, 0): cube(top="red")}
    assert score(s, (2, 0, 0)) == []


def test_bottoms_count_in_level_one_only():
    s = {(x, 0, 0): cube(bottom="white") for x in range(3)}
    assert score(s, (2, 0, 0)) == []
    found = score(s, (2, 0, 0), points=LEVEL_ONE_POINTS, bottom=True)
    assert [(f.shape, f.points, f.owner) for f in found] == [(Shape.ROW, 4, "Ben")]


def test_level_one_scores_rows_only():
    s = {(x, y, 0): cube(top="red") for x, y in [(0, 0), (1, 0), (0, 1), (2, 1)]}
    assert score(s, (2, 1, 0), points=LEVEL_ONE_POINTS, bottom=True) == []  # a stair, not a row


def test_only_formations_with_the_new_cube():
    s = {(x, 0, 0): cube(top="red") for x in range(3)}
    s[(0, 2, 0)] = cube(top="blue")
    s[(0, 1, 0)] = cube()
    assert score(s, (0, 2, 0)) == []
    assert len(score(s, (1, 0, 0))) == 1


def test_one_cube_can_complete_several_formations():
    """Three all-red cubes in a row: the top and both long sides are rows (12 points: a Super Fritzo)."""
    s = {(x, 0, 0): cube("red") for x in range(3)}
    found = score(s, (2, 0, 0))
    assert sorted((f.face, f.shape) for f in found) == [(TOP, Shape.ROW), (NORTH, Shape.ROW), (SOUTH, Shape.ROW)]
    assert sum(f.points for f in found) == 12


def test_level_one_counts_the_planes_outer_sides_not_faces_into_a_gap():
    """Rule 4: rows on the top, the bottom and "the four visible sides" of the plane. With its middle row taken
    off, a plane's two strips face each other across the gap: those faces are no side of the plane, or tearing a
    hole in a finished plane would score (two red rows here: 8 points for 3 gaps)."""
    from companion.games.fritzo.geometry import BOTTOM, EAST, WEST
    from companion.games.fritzo.scoring import all_formations

    red = cube("blue", north="red", south="red", east="red", west="red")  # blue top and bottom: Ben's, mixed
    strips = {(x, y, 0): red for x in range(3) for y in (0, 2)}
    sides = sorted((f.face, f.cells[0][1]) for f in all_formations(strips, OWNERS) if f.face not in (TOP, BOTTOM))
    assert sides == [(NORTH, 2), (SOUTH, 0)]  # the outer edges only: not y=0's north, not y=2's south
    gap_faces = [f for f in all_formations(strips, OWNERS, outer_sides=False) if f.face in (NORTH, SOUTH)]
    assert len(gap_faces) == 4  # what was counted before
    column = {(1, y, 0): red for y in range(3)}
    assert sorted(f.face for f in all_formations(column, OWNERS) if f.face in (EAST, WEST)) == [EAST, WEST]
