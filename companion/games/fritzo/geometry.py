"""Cube faces, the 24 rotations of a cube, and the table's 3-D grid.

Why exact rotations: a taught cube is stored once, face by face, in a reference orientation; on the table the
same cube can show any of 24 orientations (6 faces up x 4 turns). Two cubes are "alike" exactly when one of
these 24 rotations maps one colouring onto the other, so duplicates and orientations are both computed from
this one table.

Axes: x grows to the east, y to the north, z upwards; z = 0 is the table level.
A colouring is a tuple of six colour names in the fixed face order :data:`FACES`.

>>> len(ROTATIONS)
24
>>> orient(("red", "orange", "yellow", "green", "blue", "white"), 0)
('red', 'orange', 'yellow', 'green', 'blue', 'white')
"""

from __future__ import annotations

from collections.abc import Sequence

Vec = tuple[int, int, int]
Cell = tuple[int, int, int]
Colouring = tuple[str, ...]

#: face order of every colouring (index = face number)
FACES: tuple[str, ...] = ("top", "bottom", "north", "south", "east", "west")
TOP, BOTTOM, NORTH, SOUTH, EAST, WEST = range(6)
NORMALS: tuple[Vec, ...] = ((0, 0, 1), (0, 0, -1), (0, 1, 0), (0, -1, 0), (1, 0, 0), (-1, 0, 0))
OPPOSITE: tuple[int, ...] = (BOTTOM, TOP, SOUTH, NORTH, WEST, EAST)
SIDE_FACES: tuple[int, ...] = (NORTH, SOUTH, EAST, WEST)

_FACE_OF_NORMAL = {n: i for i, n in enumerate(NORMALS)}

Matrix = tuple[Vec, Vec, Vec]


def _mul(a: Matrix, b: Matrix) -> Matrix:
    return tuple(tuple(sum(a[i][k] * b[k][j] for k in range(3)) for j in range(3)) for i in range(3))  # type: ignore


def _apply(m: Matrix, v: Vec) -> Vec:
    return tuple(sum(m[i][k] * v[k] for k in range(3)) for i in range(3))  # type: ignore


def _transpose(m: Matrix) -> Matrix:
    return tuple(tuple(m[j][i] for j in range(3)) for i in range(3))  # type: ignore


_IDENTITY: Matrix = ((1, 0, 0), (0, 1, 0), (0, 0, 1))
_TURN_Z: Matrix = ((0, -1, 0), (1, 0, 0), (0, 0, 1))  # quarter turn about the vertical axis
_TURN_X: Matrix = ((1, 0, 0), (0, 0, -1), (0, 1, 0))  # quarter turn about the east-west axis


def _generate() -> tuple[Matrix, ...]:
    """All proper rotations of the cube, in a fixed breadth-first order from the identity (index 0)."""
    seen: list[Matrix] = [_IDENTITY]
    frontier = [_IDENTITY]
    while frontier:
        nxt: list[Matrix] = []
        for m in frontier:
            for g in (_TURN_Z, _TURN_X):
                r = _mul(g, m)
                if r not in seen:
                    seen.append(r)
                    nxt.append(r)
        frontier = nxt
    return tuple(seen)


ROTATION_MATRICES: tuple[Matrix, ...] = _generate()


def _permutation(m: Matrix) -> tuple[int, ...]:
    """perm[f] = the reference face that ends up pointing in direction f after rotating by ``m``."""
    inv = _transpose(m)  # rotations are orthogonal
    return tuple(_FACE_OF_NORMAL[_apply(inv, NORMALS[f])] for f in range(6))


#: ROTATIONS[r][f] = reference face shown in direction f when the cube is turned by rotation r
ROTATIONS: tuple[tuple[int, ...], ...] = tuple(_permutation(m) for m in ROTATION_MATRICES)
assert len(ROTATIONS) == 24 and len(set(ROTATIONS)) == 24


def orient(colouring: Sequence[str], rotation: int) -> Colouring:
    """The colours shown in each direction (FACES order) when the cube is turned by ``rotation``."""
    perm = ROTATIONS[rotation]
    return tuple(colouring[perm[f]] for f in range(6))


def orientations(colouring: Sequence[str]) -> list[Colouring]:
    """All 24 oriented colourings, index = rotation (repeated colourings are listed once per rotation)."""
    return [orient(colouring, r) for r in range(24)]


def canonical(colouring: Sequence[str]) -> Colouring:
    """The same key for every rotation of a cube: the smallest of its 24 oriented colourings."""
    return min(orientations(colouring))


def rotation_for(colouring: Sequence[str], top: str, north: str) -> list[int]:
    """Rotations that show ``top`` upwards and ``north`` to the north, one per distinct colouring."""
    found: dict[Colouring, int] = {}
    for r in range(24):
        o = orient(colouring, r)
        if o[TOP] == top and o[NORTH] == north and o not in found:
            found[o] = r
    return list(found.values())


def neighbour(cell: Cell, face: int) -> Cell:
    n = NORMALS[face]
    return (cell[0] + n[0], cell[1] + n[1], cell[2] + n[2])


def extent(cells: Sequence[Cell]) -> tuple[int, int, int]:
    """Size of the bounding box of ``cells`` along x, y and z (0 for no cells)."""
    if not cells:
        return (0, 0, 0)
    return tuple(max(c[i] for c in cells) - min(c[i] for c in cells) + 1 for i in range(3))  # type: ignore
