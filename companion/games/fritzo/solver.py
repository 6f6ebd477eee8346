"""Hints at the table: legal placements for a cube in hand, and full 27-cube completions (or proof there is
none).

How it is fast enough for a Pi: every (cube, orientation) still available is one bit of a Python int. For each
face direction and colour there is a mask of the candidates that show that colour there, so the candidates
that fit a cell are a handful of ANDs, whatever the number of cubes. The completion search is a depth-first
search that always fills the cell with the fewest fitting candidates (and gives up early on a cell with none);
for the Beginner and Professional builds the outer side colours are fixed as soon as a cube shows one, and
must stay six different colours. Orientations of a cube that look the same (a cube with repeated colours) are
one candidate.

The solver's answers are re-checked by :mod:`rules` in the tests; the two share only the cube geometry.

>>> from companion.games.fritzo.cubeset import default_set
>>> from companion.games.fritzo.rules import Goal
>>> result = Solver(default_set()).complete({}, default_set().ids, Goal.CHALLENGE)
>>> result.status.value, len(result.placements)
('found', 27)
"""

from __future__ import annotations

import itertools
from collections import OrderedDict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from functools import reduce
from operator import or_
from typing import Any

from companion.games.fritzo.cubeset import CubeSet
from companion.games.fritzo.geometry import BOTTOM, OPPOSITE, Cell, Colouring, neighbour, orient
from companion.games.fritzo.rules import Contact, Goal, Limits, buildable_order

DEFAULT_NODE_LIMIT = 400_000
_bit_count = int.bit_count
#: how many answered questions are remembered (a few games' worth of hints; each is one list of placements)
ANSWERS_KEPT = 64


@dataclass(frozen=True)
class Placement:
    """Put cube ``cube`` at ``cell`` turned by ``rotation`` (index into geometry.ROTATIONS)."""

    cube: str
    cell: Cell
    rotation: int

    def to_json(self) -> dict[str, Any]:
        return {"cube": self.cube, "cell": list(self.cell), "rotation": self.rotation}


class Status(StrEnum):
    FOUND = "found"
    NONE = "none"  # proven: the search space was exhausted
    UNKNOWN = "unknown"  # gave up at the node limit: neither found nor proven impossible


@dataclass
class Completion:
    status: Status
    placements: list[Placement] = field(default_factory=list)
    nodes: int = 0


class _GiveUp(Exception):
    pass


@dataclass
class _Candidates:
    """The (cube, orientation) candidates of one question, as bit positions, with per-face colour masks."""

    items: list[tuple[int, int, tuple[int, ...]]]  # bit -> (cube index, rotation, colour indices)
    eq: list[list[int]]  # eq[face][colour] -> mask of candidates showing colour there
    cube_mask: list[int]  # cube index -> mask of its candidates
    full: int


class Solver:
    """Answers questions about one cube set. Build once per game; each question is independent."""

    def __init__(self, cubeset: CubeSet, *, cube_check: bool = True) -> None:
        self.cubeset = cubeset
        self.cube_check = cube_check
        self.colours: tuple[str, ...] = cubeset.colours
        self._colour_index = {c: i for i, c in enumerate(self.colours)}
        self._ids = list(cubeset.ids)
        #: the cube set as a key of remembered answers: its cubes as shown, so a game and a copy of it, or the next
        #: game with the same taught set, share them
        self._set_key = tuple((cube.id, tuple(cube.faces)) for cube in cubeset.cubes)
        self._index = {cid: i for i, cid in enumerate(self._ids)}
        #: per cube: list of (rotation, oriented colour indices), one per distinct look
        self._looks: list[list[tuple[int, tuple[int, ...]]]] = []
        for cube in cubeset.cubes:
            seen: dict[tuple[int, ...], int] = {}
            for r in range(24):
                look = tuple(self._colour_index[c] for c in orient(cube.faces, r))
                seen.setdefault(look, r)
            self._looks.append([(r, look) for look, r in seen.items()])

    # -- shared ----------------------------------------------------------------------------------------------
    def _candidates(self, cube_ids: Iterable[str]) -> _Candidates:
        items: list[tuple[int, int, tuple[int, ...]]] = []
        n_col = len(self.colours)
        eq = [[0] * n_col for _ in range(6)]
        cube_mask = [0] * len(self._ids)
        for cid in cube_ids:
            i = self._index[cid]
            for r, look in self._looks[i]:
                bit = 1 << len(items)
                items.append((i, r, look))
                cube_mask[i] |= bit
                for f in range(6):
                    eq[f][look[f]] |= bit
        return _Candidates(items, eq, cube_mask, (1 << len(items)) - 1)

    def _colour_grid(self, structure: Mapping[Cell, Colouring]) -> dict[Cell, tuple[int, ...]]:
        return {cell: tuple(self._colour_index[c] for c in cols) for cell, cols in structure.items()}

    # -- single placements -----------------------------------------------------------------------------------
    def placements(
        self,
        structure: Mapping[Cell, Colouring],
        cube_ids: Iterable[str],
        contact: Contact,
        limits: Limits,
        *,
        joker: bool = False,
        first: bool = False,
    ) -> list[Placement]:
        """Every legal (cube, cell, orientation) for the cubes given; one orientation per distinct look.

        The first cube of an empty table goes to (0, 0, 0). ``first`` stops at the first one found (the Team
        game's "can anybody still place a cube?").
        """
        cands = self._candidates(cube_ids)
        grid = self._colour_grid(structure)
        found: list[Placement] = []
        for cell in self._frontier(structure, limits):
            mask = cands.full
            if not joker:
                for f in range(6):
                    other = grid.get(neighbour(cell, f))
                    if other is None:
                        continue
                    m = cands.eq[f][other[OPPOSITE[f]]]
                    mask &= m if contact is Contact.SAME else ~m
            while mask:
                low = mask & -mask
                mask ^= low
                i, r, _ = cands.items[low.bit_length() - 1]
                found.append(Placement(self._ids[i], cell, r))
                if first:
                    return found
        return found

    @staticmethod
    def _frontier(structure: Mapping[Cell, Colouring], limits: Limits) -> list[Cell]:
        """Empty cells a cube may go to: touching the structure, standing, inside the size limits."""
        if not structure:
            return [(0, 0, 0)]
        cells = list(structure)
        lo = [min(c[i] for c in cells) for i in range(3)]
        hi = [max(c[i] for c in cells) for i in range(3)]
        size = (limits.width, limits.depth, limits.height)
        out: set[Cell] = set()
        for c in cells:
            for f in range(6):
                n = neighbour(c, f)
                if n in structure or n[2] < 0 or n[2] >= limits.height:
                    continue
                if n[2] > 0 and neighbour(n, BOTTOM) not in structure:
                    continue
                if any(max(hi[i], n[i]) - min(lo[i], n[i]) + 1 > size[i] for i in range(2)):
                    continue
                out.add(n)
        return sorted(out, key=lambda c: (c[2], c[1], c[0]))

    # -- completions -----------------------------------------------------------------------------------------
    def complete(
        self,
        structure: Mapping[Cell, Colouring],
        cube_ids: Iterable[str],
        goal: Goal,
        *,
        node_limit: int = DEFAULT_NODE_LIMIT,
    ) -> Completion:
        """Fill the structure up to a finished 3x3x3 build of ``goal`` using the cubes ``cube_ids``.

        Tries every 3x3x3 box (standing on the table) that contains the structure. The placements come in an
        order players can follow (bottom-up, each cube touching and standing).

        Answers found or proven are remembered (for any solver of the same cubes): the empty Professional is
        the slowest hint a table asks (its mirror colouring is ruled out only by a 1,500-node search, ~50 ms on a
        Pi) and the one asked again at every game's start.
        """
        cube_ids = list(cube_ids)
        key = (self._set_key, self.cube_check, goal, tuple(cube_ids), frozenset(structure.items()))
        known = _ANSWERS.get(key)
        if known is not None and known.nodes <= node_limit:
            # the search is deterministic and stops only past its node limit: with at least the nodes it took
            # it gives this answer again, node for node
            _ANSWERS.move_to_end(key)
            return Completion(known.status, list(known.placements), known.nodes)
        found = self._search(structure, cube_ids, goal, node_limit)
        if found.status is not Status.UNKNOWN:
            _ANSWERS[key] = Completion(found.status, list(found.placements), found.nodes)
            _ANSWERS.move_to_end(key)
            while len(_ANSWERS) > ANSWERS_KEPT:
                _ANSWERS.popitem(last=False)
        return found

    def _search(
        self, structure: Mapping[Cell, Colouring], cube_ids: list[str], goal: Goal, node_limit: int
    ) -> Completion:
        """The completion search itself (see :meth:`complete`)."""
        cands = self._candidates(cube_ids)
        grid = self._colour_grid(structure)
        cells = list(grid)
        if cells:
            lo = [min(c[i] for c in cells) for i in range(3)]
            hi = [max(c[i] for c in cells) for i in range(3)]
            if min(lo[2], 0) < 0 or any(hi[i] - lo[i] > 2 for i in range(3)):
                return Completion(Status.NONE)
            ranges = [range(hi[i] - 2, lo[i] + 1) for i in range(2)] + [range(0, 1)]
            origins = list(itertools.product(*ranges))
        else:
            origins = [(0, 0, 0)]
        total = 0
        presets: list[tuple[int, ...] | None] = [None]
        if goal.one_colour_sides and not grid and len(self.colours) == 6:
            presets = list(_side_assignments(len(self.colours)))
        tasks = [(o, p) for o in origins for p in presets]
        tables = _Tables(cands, goal.contact is Contact.SAME, goal.one_colour_sides)
        for origin, preset in tasks:
            search = _Search(self, cands, grid, origin, goal, node_limit - total, preset, self.cube_check, tables)
            try:
                found = search.run()
            except _GiveUp:
                return Completion(Status.UNKNOWN, nodes=node_limit)
            total += search.nodes
            if found is not None:
                order = buildable_order(set(found), set(grid))
                by_cell = {cell: found[cell] for cell in found}
                return Completion(Status.FOUND, [by_cell[c] for c in order], total)
        return Completion(Status.NONE, nodes=total)


#: answered questions, the least recently asked first: (cube set, cube check, goal, cubes, building) -> answer
_ANSWERS: OrderedDict[tuple[Any, ...], Completion] = OrderedDict()


def forget_answers() -> None:
    """Forget every remembered answer (tests that want the search itself)."""
    _ANSWERS.clear()


def _side_assignments(n: int) -> list[tuple[int, ...]]:
    """Side colours (FACES order) for an empty start, one per way up to turning the whole cube: 30 of 720.

    Colour 0 is on top (turn the cube until it is); the bottom is any of the other five; of the four around,
    the smallest goes north (turn about the vertical axis); the other three take any order.
    """
    out: list[tuple[int, ...]] = []
    for bottom in range(1, n):
        around = [c for c in range(1, n) if c != bottom]
        north, rest = around[0], around[1:]
        for south, east, west in itertools.permutations(rest):
            out.append((0, bottom, north, south, east, west))
    return out


#: the 27 cells of a 3x3x3 box relative to its origin, in the order the search looks at them (x slowest, z fastest)
_BOX: tuple[Cell, ...] = tuple(itertools.product(range(3), repeat=3))  # type: ignore[assignment]
_BOX_INDEX = {d: i for i, d in enumerate(_BOX)}
#: per box cell, per face: the index of the neighbour inside the box, or -1 where the face is an outer side
_LINKS: tuple[tuple[int, ...], ...] = tuple(
    tuple(_BOX_INDEX.get(neighbour(d, f), -1) for f in range(6)) for d in _BOX
)
#: per box cell: (neighbour inside the box, the face of the neighbour touching this cell, this cell's face)
_INNER: tuple[tuple[tuple[int, int, int], ...], ...] = tuple(
    tuple((n, OPPOSITE[f], f) for f, n in enumerate(_LINKS[i]) if n >= 0) for i in range(27)
)
#: per box cell: the faces that are outer sides of the finished build
_OUTER: tuple[tuple[int, ...], ...] = tuple(tuple(f for f in range(6) if _LINKS[i][f] < 0) for i in range(27))


class _Tables:
    """What every box of one question shares, worked out once: each cell's neighbours as indices, and per face
    and colour the mask a touching colour or a newly fixed side colour leaves a cell (so a placement updates its
    neighbours with one AND each instead of every cell asking its six faces again at every node)."""

    def __init__(self, cands: _Candidates, same: bool, mono: bool) -> None:
        full, eq = cands.full, cands.eq
        n_col = len(eq[0])
        #: touch[f][c]: what a cell may show when its face f touches a cube showing colour c there
        self.touch = [[eq[f][c] if same else full & ~eq[f][c] for c in range(n_col)] for f in range(6)]
        self._full, self._eq = full, eq
        self._side_cut: dict[tuple[int, int], list[int]] = {}
        #: the cubes of the question, in the set's order: (cube index, mask of its candidates)
        self.cubes = [(i, m) for i, m in enumerate(cands.cube_mask) if m]

    def side_cut(self, f: int, c: int) -> list[int]:
        """Per box cell: what it may show once the outer side ``f`` is fixed to colour ``c`` (``c`` on that side
        where the cell has it, on none of its other sides). Worked out when first needed: with every side fixed
        before the search (the empty Beginner and Professional) it never is."""
        cut = self._side_cut.get((f, c))
        if cut is None:
            eq = self._eq
            cut = []
            for outer in _OUTER:
                m = self._full
                for g in outer:
                    m &= eq[g][c] if g == f else ~eq[g][c]
                cut.append(m)
            self._side_cut[(f, c)] = cut
        return cut


class _Search:
    """One depth-first search in one 3x3x3 box.

    Why it keeps a mask per cell: the candidates fitting an empty cell only shrink as cubes go in, so each cell
    keeps what its standing neighbours and the fixed sides allow, updated by the placement that changes it and
    restored on the way back; a node then costs one AND per empty cell. The cells, cubes and candidates are tried
    in exactly the order of the plain search this replaced, so the first completion found (the hint) is the same.
    """

    def __init__(
        self,
        solver: Solver,
        cands: _Candidates,
        grid: dict[Cell, tuple[int, ...]],
        origin: Cell,
        goal: Goal,
        node_limit: int,
        sides: tuple[int, ...] | None = None,
        cube_check: bool = True,
        tables: _Tables | None = None,
    ) -> None:
        self.solver = solver
        self.cube_check = cube_check
        self.c = cands
        self.grid = dict(grid)
        self.origin = origin
        self.same = goal.contact is Contact.SAME
        self.mono = goal.one_colour_sides
        self.t = tables if tables is not None else _Tables(cands, self.same, self.mono)
        self.node_limit = max(node_limit, 1)
        self.nodes = 0
        self.box = [tuple(origin[i] + d[i] for i in range(3)) for d in _BOX]
        self.inside = set(self.box)
        self.sides = list(sides) if sides else [-1] * 6
        self.avail = cands.full
        self.placed: list[tuple[int, int] | None] = [None] * 27  # box cell -> (cube index, rotation) found
        self.cm: list[int] = []
        self.left: list[int] = []
        self.left_ids: list[int] = []

    def run(self) -> dict[Cell, Placement] | None:
        if not self._fixed_sides_ok() or not self._fixed_contacts_ok():
            return None
        empty = [k for k, cell in enumerate(self.box) if cell not in self.grid]
        cubes = len(self.t.cubes)
        if len(empty) > cubes:
            return None  # not enough cubes left to fill the box
        self.exact = self.cube_check and len(empty) == cubes
        self.cm = [self._start_mask(k) for k in range(27)]
        self.left = [m for _, m in self.t.cubes]  # the cubes not placed yet, as masks of their candidates
        self.left_ids = [i for i, _ in self.t.cubes]  # and as indices into the set
        if not self._dfs(empty):
            return None
        ids = self.solver._ids
        out: dict[Cell, Placement] = {}
        for k in empty:
            i, r = self.placed[k]  # type: ignore[misc]
            out[self.box[k]] = Placement(ids[i], self.box[k], r)
        return out

    def _fixed_contacts_ok(self) -> bool:
        """The cubes already standing must keep the contact rule among themselves."""
        for cell, look in self.grid.items():
            for f in (0, 2, 4):
                other = self.grid.get(neighbour(cell, f))
                if other is not None and (other[OPPOSITE[f]] == look[f]) != self.same:
                    return False
        return True

    def _fixed_sides_ok(self) -> bool:
        """The cubes already standing must not break the side colours (Beginner, Professional)."""
        if not self.mono:
            return True
        for cell, look in self.grid.items():
            for f in range(6):
                if neighbour(cell, f) not in self.inside:
                    if self.sides[f] < 0:
                        if look[f] in self.sides:
                            return False
                        self.sides[f] = look[f]
                    elif self.sides[f] != look[f]:
                        return False
        return True

    def _start_mask(self, k: int) -> int:
        """What box cell ``k`` may show given the cubes standing and the sides fixed at the start (all cubes)."""
        c = self.c
        m = c.full
        cell = self.box[k]
        for f, n in enumerate(_LINKS[k]):
            if n < 0:
                if self.mono:
                    s = self.sides[f]
                    if s >= 0:
                        m &= c.eq[f][s]
                    else:
                        for used in self.sides:
                            if used >= 0:
                                m &= ~c.eq[f][used]
                continue
            other = self.grid.get(neighbour(cell, f))
            if other is not None:
                m &= self.t.touch[f][other[OPPOSITE[f]]]
        return m

    def _dfs(self, empty: list[int]) -> bool:
        if not empty:
            return True
        self.nodes += 1
        if self.nodes > self.node_limit:
            raise _GiveUp
        avail = self.avail
        cm = self.cm
        # (the loops run inside map/min/index: a node of the empty Professional asks ~20 cells and ~25 cubes)
        masks = list(map(avail.__and__, map(cm.__getitem__, empty)))
        counts = list(map(_bit_count, masks))
        best_n = min(counts)
        if not best_n:
            return False
        best_i = counts.index(best_n)
        choices: list[tuple[int, int]] = [(best_i, masks[best_i])]
        if self.exact:
            # as many cubes as empty cells: every cube left must fit somewhere, and a cube with fewer ways to
            # go than the tightest cell (the first such in the set's order) is the better branch
            union = reduce(or_, masks)
            fits = list(map(_bit_count, map(union.__and__, self.left)))
            fewest = min(fits)
            if not fewest:
                return False
            if fewest < best_n:
                cube = self.left[fits.index(fewest)]
                choices = [(i, m & cube) for i, m in enumerate(masks) if m & cube]
        for i, mask in choices:
            if self._try(empty[i], mask, empty[:i] + empty[i + 1 :]):
                return True
        return False

    def _try(self, k: int, mask: int, rest: list[int]) -> bool:
        """Try every candidate of ``mask`` at box cell ``k``."""
        items, cube_masks, touch = self.c.items, self.c.cube_mask, self.t.touch
        inner = _INNER[k]
        placed = self.placed
        sides = self.sides
        newly = [f for f in _OUTER[k] if sides[f] < 0] if self.mono else []
        saved_cm = self.cm
        saved_avail = self.avail
        saved_left = self.left
        saved_ids = self.left_ids
        while mask:
            low = mask & -mask
            mask ^= low
            i, r, look = items[low.bit_length() - 1]
            if newly and len({look[f] for f in newly}) != len(newly):
                continue  # one cube would give two sides the same colour
            cm = saved_cm.copy()
            for n, g, f in inner:  # (cells standing already keep a mask no one reads)
                cm[n] &= touch[g][look[f]]
            for f in newly:
                sides[f] = look[f]
                cut = self.t.side_cut(f, look[f])
                for n in rest:
                    cm[n] &= cut[n]
            self.cm = cm
            self.avail = saved_avail & ~cube_masks[i]
            at = saved_ids.index(i)
            self.left = saved_left[:at] + saved_left[at + 1 :]
            self.left_ids = saved_ids[:at] + saved_ids[at + 1 :]
            placed[k] = (i, r)
            if self._dfs(rest):
                return True
            placed[k] = None
            for f in newly:
                sides[f] = -1
        self.cm = saved_cm
        self.avail = saved_avail
        self.left = saved_left
        self.left_ids = saved_ids
        return False
