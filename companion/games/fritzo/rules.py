"""The independent rule checker: placement rules and goal checks, written plainly (no search, no bit tricks).

Why separate from the solver: the solver is fast and clever; this module is slow and obvious, so a completion
the solver finds is re-checked by code that shares nothing with it but the cube geometry.

A structure is a mapping cell -> oriented colouring (the six colours the cube there shows, FACES order).

Readings of the rulebook (see docs/fritzo.md):
- "Die Cubes müssen sich mit mindestens einer Würfelseite berühren": every cube after the first shares a whole
  face with a cube already placed. Cubes are not glued, so a cube above the table must also stand on a cube
  directly below it; a cube that touches nothing, or would hang in the air, is a *floating* cube and refused.
- "in ALLEN RICHTUNGEN ... gegenüberliegen": every pair of faces that touch, in all six directions, is
  compared.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from companion.games.fritzo.cubeset import colour_key
from companion.games.fritzo.errors import PlacementError
from companion.games.fritzo.geometry import (
    BOTTOM,
    FACES,
    OPPOSITE,
    Cell,
    Colouring,
    extent,
    neighbour,
)

Structure = Mapping[Cell, Colouring]


class Contact(StrEnum):
    """What touching faces must show."""

    SAME = "same"
    DIFFERENT = "different"


class Goal(StrEnum):
    """The three 27-cube builds."""

    BEGINNER = "beginner"
    CHALLENGE = "challenge"
    PROFESSIONAL = "professional"

    @property
    def contact(self) -> Contact:
        return Contact.DIFFERENT if self is Goal.BEGINNER else Contact.SAME

    @property
    def one_colour_sides(self) -> bool:
        """Beginner and Professional: every outer side one colour, six different colours."""
        return self is not Goal.CHALLENGE


@dataclass(frozen=True)
class Limits:
    """How far a building may spread: footprint (x, y) and height (z), in cubes."""

    width: int = 3
    depth: int = 3
    height: int = 3


CUBE_LIMITS = Limits(3, 3, 3)
STRATEGY_LIMITS = Limits(5, 5, 3)
PLANE_LIMITS = Limits(3, 3, 1)


def colour_conflicts(structure: Structure, cell: Cell, colours: Colouring, contact: Contact) -> list[int]:
    """Faces of a cube at ``cell`` whose colour breaks the contact rule with the neighbour it touches."""
    bad: list[int] = []
    for f in range(6):
        other = structure.get(neighbour(cell, f))
        if other is None:
            continue
        same = other[OPPOSITE[f]] == colours[f]
        if same != (contact is Contact.SAME):
            bad.append(f)
    return bad


def touches(structure: Structure, cell: Cell) -> bool:
    return any(neighbour(cell, f) in structure for f in range(6))


def supported(structure: Structure, cell: Cell) -> bool:
    return cell[2] == 0 or neighbour(cell, BOTTOM) in structure


def check_placement(
    structure: Structure,
    cell: Cell,
    colours: Colouring,
    *,
    contact: Contact,
    limits: Limits,
    joker: bool = False,
) -> None:
    """Raise PlacementError naming what is wrong with putting a cube showing ``colours`` at ``cell``.

    ``joker``: the Strategy joker, which lifts the colour rule for this one cube (nothing else).
    """
    if cell in structure:
        raise PlacementError("fritzo.err.cell_taken", cell=cell_label(cell))
    if cell[2] < 0:
        raise PlacementError("fritzo.err.below_table")
    if cell[2] >= limits.height:
        raise PlacementError("fritzo.err.too_high", levels=limits.height)
    cells = [*structure, cell]
    w, d, _ = extent(cells)
    if w > limits.width or d > limits.depth:
        raise PlacementError("fritzo.err.too_wide", width=limits.width, depth=limits.depth)
    if structure and not touches(structure, cell):
        raise PlacementError("fritzo.err.floating_touch", cell=cell_label(cell))
    if not supported(structure, cell):
        raise PlacementError("fritzo.err.floating_support", cell=cell_label(cell))
    if joker:
        return
    bad = colour_conflicts(structure, cell, colours, contact)
    if bad:
        key = "fritzo.err.colours_same" if contact is Contact.SAME else "fritzo.err.colours_different"
        f = bad[0]
        raise PlacementError(
            key,
            face=f"fritzo.face.{FACES[f]}",
            colour=colour_key(colours[f]),  # (a German refusal said "oben: red an blue")
            other=colour_key(structure[neighbour(cell, f)][OPPOSITE[f]]),
        )


def contact_violations(structure: Structure, contact: Contact) -> list[tuple[Cell, int]]:
    """Every (cell, face) in the structure whose touching face breaks the contact rule (each pair once)."""
    bad: list[tuple[Cell, int]] = []
    for cell, colours in structure.items():
        for f in (0, 2, 4):  # the high face of each axis: visits every touching pair once
            other = structure.get(neighbour(cell, f))
            if other is not None and (other[OPPOSITE[f]] == colours[f]) != (contact is Contact.SAME):
                bad.append((cell, f))
    return bad


def connected(cells: list[Cell] | set[Cell]) -> bool:
    cells = set(cells)
    if not cells:
        return True
    start = next(iter(cells))
    seen = {start}
    todo = [start]
    while todo:
        c = todo.pop()
        for f in range(6):
            n = neighbour(c, f)
            if n in cells and n not in seen:
                seen.add(n)
                todo.append(n)
    return len(seen) == len(cells)


@dataclass
class GoalCheck:
    """Whether a structure is the finished build; ``problem`` is a catalog key saying why not."""

    ok: bool
    problem: str | None = None
    params: dict[str, Any] = field(default_factory=dict)
    sides: dict[str, str] = field(default_factory=dict)


def check_goal(structure: Structure, goal: Goal) -> GoalCheck:
    """Is ``structure`` a finished Fritzo Beginner / Challenge / Professional (3x3x3, rule kept, sides)?"""
    cells = list(structure)
    if len(cells) != 27:
        return GoalCheck(False, "fritzo.goal.count", {"count": len(cells)})
    lo = tuple(min(c[i] for c in cells) for i in range(3))
    if extent(cells) != (3, 3, 3) or lo[2] != 0:
        return GoalCheck(False, "fritzo.goal.shape")
    bad = contact_violations(structure, goal.contact)
    if bad:
        return GoalCheck(False, "fritzo.goal.contact", {"count": len(bad)})
    sides: dict[str, str] = {}
    if goal.one_colour_sides:
        for f in range(6):
            shown = {colours[f] for cell, colours in structure.items() if neighbour(cell, f) not in structure}
            if len(shown) != 1:
                return GoalCheck(False, f"fritzo.goal.side_mixed.{FACES[f]}")
            sides[FACES[f]] = shown.pop()
        if len(set(sides.values())) != 6:
            return GoalCheck(False, "fritzo.goal.side_repeat")
    return GoalCheck(True, sides=sides)


def buildable_order(cells: list[Cell] | set[Cell], start: set[Cell] | None = None) -> list[Cell]:
    """An order to place ``cells`` so each touches what stands and rests on the table or a cube (bottom-up
    BFS).

    Why: the solver answers with a finished arrangement; players place one cube at a time, so the hint shows
    the cubes in an order that obeys the touching and standing rules at every step.
    """
    standing = set(start or ())
    todo = set(cells) - standing
    order: list[Cell] = []
    while todo:
        ready = sorted(
            (
                c
                for c in todo
                if (not standing or touches(dict.fromkeys(standing), c))
                and (c[2] == 0 or (c[0], c[1], c[2] - 1) in standing)
            ),
            key=lambda c: (c[2], c[1], c[0]),
        )
        if not ready:
            raise ValueError("cells cannot be built up one by one")
        c = ready[0]
        order.append(c)
        standing.add(c)
        todo.remove(c)
    return order


def cell_label(cell: Cell) -> str:
    """How a cell is named to players: east, north, and the level counted from 1 (the table level)."""
    return f"{cell[0]}/{cell[1]}/{cell[2] + 1}"
