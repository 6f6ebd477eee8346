"""Points for Level One and Strategy: three-in-a-rows, stairs and triangles on the visible faces.

How the rulebook is read (pictures in docs/fritzo.md):

- A formation lies on ONE flat surface: faces pointing the same way, in the same plane, not covered by another
  cube ("nicht ... um die Würfelecken führende Anordnungen": nothing bends around an edge). Strategy never
  counts bottoms; Level One counts the bottom of the plane too (its rule 4 names it).
- On such a surface the faces form a grid. Three faces score as
  * a **row** ("Dreierreihe"): three in a straight line across, up/down, or diagonally;
  * a **stair** ("Treppe"): two side by side and the third one step diagonally onwards, like one step of a
    staircase: ``X X .`` over ``. . X`` read bottom-up ``(0,0) (1,0) (2,1)`` in all 8 turns and mirror images;
  * a **triangle** ("Dreieck"): three faces of a 2x2 square, an L whose corners make a right triangle
    ``(0,0) (1,0) (0,1)`` in its 4 turns.
  The three shapes never overlap: a triple is at most one of them.
- Colours: three faces all of one player's colours score, all equal: row 4, stair 4, triangle 2; all
  different: row 3, stair 3 (triangles need equal colours). Points go to the player who owns the colours, also
  when the other player built them.
- Only formations that contain the newly placed cube count (each triple once, when it first appears).
- Level One scores "the top and bottom of the plane and its four visible sides" (rule 4): a side face counts
  only on the plane's outer edge (no cube of the plane lies further that way), not where it faces a gap inside
  the plane: taking a middle row off a finished plane would otherwise make two rows of new "sides" and score.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from companion.games.fritzo.geometry import BOTTOM, NORMALS, TOP, Cell, Colouring, neighbour

Offsets = tuple[tuple[int, int], ...]


class Shape(StrEnum):
    ROW = "row"
    STAIR = "stair"
    TRIANGLE = "triangle"


def _variants(cells: Offsets) -> list[Offsets]:
    """All turns and mirror images of a shape, each normalised to start at (0, 0), without repeats."""
    out: list[Offsets] = []
    for sx in (1, -1):
        for swap in (False, True):
            for turn in range(4):
                pts = [(x * sx, y) for x, y in cells]
                if swap:
                    pts = [(y, x) for x, y in pts]
                for _ in range(turn):
                    pts = [(-y, x) for x, y in pts]
                mx, my = min(p[0] for p in pts), min(p[1] for p in pts)
                norm = tuple(sorted((x - mx, y - my) for x, y in pts))
                if norm not in out:
                    out.append(norm)
    return out


SHAPES: dict[Shape, list[Offsets]] = {
    Shape.ROW: _variants(((0, 0), (1, 0), (2, 0))) + _variants(((0, 0), (1, 1), (2, 2))),
    Shape.STAIR: _variants(((0, 0), (1, 0), (2, 1))),
    Shape.TRIANGLE: _variants(((0, 0), (1, 0), (0, 1))),
}
assert [len(v) for v in SHAPES.values()] == [4, 8, 4]

#: points for (shape, all equal?) -- missing: that shape does not score with those colours
POINTS: dict[tuple[Shape, bool], int] = {
    (Shape.ROW, True): 4,
    (Shape.STAIR, True): 4,
    (Shape.TRIANGLE, True): 2,
    (Shape.ROW, False): 3,
    (Shape.STAIR, False): 3,
}
LEVEL_ONE_POINTS: dict[tuple[Shape, bool], int] = {(Shape.ROW, True): 4, (Shape.ROW, False): 3}


@dataclass(frozen=True)
class Formation:
    """Three visible faces on one surface that score: which shape, which faces, whose points."""

    shape: Shape
    face: int  # the direction the faces point (geometry face index)
    cells: tuple[Cell, Cell, Cell]
    colours: tuple[str, str, str]
    owner: str
    points: int

    def to_json(self) -> dict[str, Any]:
        return {
            "shape": self.shape.value,
            "face": self.face,
            "cells": [list(c) for c in self.cells],
            "colours": list(self.colours),
            "owner": self.owner,
            "points": self.points,
        }


def _plane_axes(face: int) -> tuple[int, int, int]:
    """(normal axis, first grid axis, second grid axis) of the surface a face lies on."""
    axis = next(i for i in range(3) if NORMALS[face][i])
    u, v = (i for i in range(3) if i != axis)
    return axis, u, v


def surface(structure: Mapping[Cell, Colouring], face: int, level: int) -> dict[tuple[int, int], Cell]:
    """The visible faces pointing ``face``-wards on the plane where the cubes' ``normal axis`` coordinate is
    ``level``: grid position -> cell."""
    axis, u, v = _plane_axes(face)
    return {(c[u], c[v]): c for c in structure if c[axis] == level and neighbour(c, face) not in structure}


def formations_with(
    structure: Mapping[Cell, Colouring],
    cell: Cell,
    owners: Mapping[str, str],
    *,
    points: Mapping[tuple[Shape, bool], int] = POINTS,
    bottom: bool = False,
    outer_sides: bool = False,
) -> list[Formation]:
    """Every scoring formation that contains the cube at ``cell`` (which must be in ``structure``).

    ``owners`` maps colour -> player. ``points`` picks the table (Strategy or Level One); ``bottom`` says
    whether bottoms count; ``outer_sides`` (Level One) that a side face counts only on the structure's outer
    edge.
    """
    found: dict[tuple[Shape, int, frozenset[Cell]], Formation] = {}
    shapes = {s for s, _ in points}
    for face in range(6):
        if face == BOTTOM and not bottom:
            continue
        if neighbour(cell, face) in structure:
            continue
        if outer_sides and face not in (TOP, BOTTOM) and not _outermost(structure, cell, face):
            continue  # faces a gap inside the plane (a row's cells share the coordinate: one check for all)
        axis, u, v = _plane_axes(face)
        grid = surface(structure, face, cell[axis])
        here = (cell[u], cell[v])
        for shape in shapes:
            for offsets in SHAPES[shape]:
                for ox, oy in offsets:
                    base = (here[0] - ox, here[1] - oy)
                    cells = [grid.get((base[0] + dx, base[1] + dy)) for dx, dy in offsets]
                    if None in cells:
                        continue
                    key = (shape, face, frozenset(cells))  # type: ignore[arg-type]
                    if key in found:
                        continue
                    f = _score(shape, face, cells, structure, owners, points)  # type: ignore[arg-type]
                    if f is not None:
                        found[key] = f
    return sorted(found.values(), key=lambda f: (f.face, f.shape.value, f.cells))


def _outermost(structure: Mapping[Cell, Colouring], cell: Cell, face: int) -> bool:
    """Whether no cube of ``structure`` lies further in ``face``'s direction than ``cell``."""
    axis = next(i for i, d in enumerate(NORMALS[face]) if d)
    sign = NORMALS[face][axis]
    return all(c[axis] * sign <= cell[axis] * sign for c in structure)


def _score(
    shape: Shape,
    face: int,
    cells: list[Cell],
    structure: Mapping[Cell, Colouring],
    owners: Mapping[str, str],
    points: Mapping[tuple[Shape, bool], int],
) -> Formation | None:
    colours = tuple(structure[c][face] for c in cells)
    who = {owners.get(c) for c in colours}
    if len(who) != 1 or None in who:
        return None
    distinct = len(set(colours))
    if distinct == 2:
        return None
    value = points.get((shape, distinct == 1))
    if not value:
        return None
    ordered = tuple(sorted(cells))
    colours = tuple(structure[c][face] for c in ordered)
    return Formation(shape, face, ordered, colours, who.pop(), value)  # type: ignore[arg-type]


def all_formations(
    structure: Mapping[Cell, Colouring],
    owners: Mapping[str, str],
    *,
    points: Mapping[tuple[Shape, bool], int] = LEVEL_ONE_POINTS,
    bottom: bool = True,
    outer_sides: bool = True,
) -> list[Formation]:
    """Every scoring formation of a whole structure, each once (Level One scores a plane this way)."""
    seen: dict[tuple[Shape, int, tuple[Cell, ...]], Formation] = {}
    for cell in structure:
        for f in formations_with(structure, cell, owners, points=points, bottom=bottom, outer_sides=outer_sides):
            seen.setdefault((f.shape, f.face, f.cells), f)
    return list(seen.values())


def totals(formations: list[Formation]) -> dict[str, int]:
    out: dict[str, int] = {}
    for f in formations:
        out[f.owner] = out.get(f.owner, 0) + f.points
    return out
