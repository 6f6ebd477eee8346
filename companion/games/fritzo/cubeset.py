"""The 27 Fritzo cubes: the model of a taught set, its duplicate check up to rotation, and its atomic storage.

Why taught: the colour arrangement of the sold set differs from what is published, so players show their own
set to the camera once (the taught-dice screen owns that) or enter it on screen; this module only models,
checks and stores it. A cube is six colour names in the face order of :data:`geometry.FACES`, as it was shown
(any orientation: the engine turns it).

The built-in default set (for tests and tables that have not taught theirs) is *constructed*, see
:func:`build_default_set`: it is guaranteed to admit a Fritzo Professional (hence also a Challenge) and a
Fritzo Beginner, and every one of its 27 cubes is different from every other in all 24 orientations.
"""

from __future__ import annotations

import itertools
import json
import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.atomic import atomic_write_text, keep_aside_where_possible
from companion.games.fritzo.errors import CubeSetError
from companion.games.fritzo.geometry import FACES, NORMALS, Cell, Colouring, canonical, orient

DEFAULT_COLOURS: tuple[str, ...] = ("red", "orange", "yellow", "green", "blue", "white")


def taught_colour(colour: str) -> str:
    """A taught set's own colour name as every line and sentence names it: the name the table gave it, with a
    capital, as the catalogs name the built-in ones ("Blau", "Blue")."""
    return colour[:1].upper() + colour[1:]


def colour_key(colour: str) -> str:
    """A colour as an error's parameter: its catalog key where the catalog has one (errors translate parameters that
    are keys), else the taught name as every line names it (``taught_colour``): "The start colour navy…" stood
    where the setup's answers said "Navy", and a German refusal said "oben: red an blue"."""
    return f"fritzo.colour.{colour}" if colour in DEFAULT_COLOURS else taught_colour(colour)
SET_SIZE = 27
FILE_VERSION = 1


@dataclass(frozen=True)
class Cube:
    """One physical cube: a short id players can read on screen, and its six colours in FACES order."""

    id: str
    faces: Colouring

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "faces": list(self.faces)}


@dataclass(frozen=True)
class CubeSet:
    """A whole set of cubes; construct with :meth:`checked` to get the validation a taught set needs."""

    cubes: tuple[Cube, ...]
    name: str = "default"

    # -- construction --------------------------------------------------------------------------------------
    @classmethod
    def checked(cls, cubes: Iterable[Cube], name: str = "taught", *, size: int | None = SET_SIZE) -> CubeSet:
        """A validated set: every cube six named faces, ids unique, no two alike up to rotation, six colours.

        ``size=None`` accepts a partial set (while teaching); the games need all 27.
        """
        cubes = tuple(cubes)
        ids: set[str] = set()
        for cube in cubes:
            if not isinstance(cube.id, str) or not cube.id.strip():
                raise CubeSetError("fritzo.err.cube_id_missing")
            if cube.id in ids:
                raise CubeSetError("fritzo.err.cube_id_twice", cube=cube.id)
            ids.add(cube.id)
            if len(cube.faces) != 6 or not all(isinstance(c, str) and c.strip() for c in cube.faces):
                raise CubeSetError("fritzo.err.cube_faces", cube=cube.id)
        dup = find_duplicates(cubes)
        if dup:
            a, b = dup[0]
            raise CubeSetError("fritzo.err.cube_duplicate", cube=b, other=a)
        if size is not None:
            if len(cubes) != size:
                raise CubeSetError("fritzo.err.set_size", count=len(cubes), size=size)
            colours = {c for cube in cubes for c in cube.faces}
            if len(colours) != 6:
                raise CubeSetError(
                    "fritzo.err.set_colours", count=len(colours), colours=", ".join(sorted(colours))
                )
        return cls(cubes, name)

    def add(self, cube: Cube) -> CubeSet:
        """The set with one more taught cube; one alike (up to rotation) to a taught one is refused."""
        return CubeSet.checked((*self.cubes, cube), self.name, size=None)

    # -- queries ---------------------------------------------------------------------------------------------
    @property
    def colours(self) -> tuple[str, ...]:
        """Colour names in a stable order: the default order first, other (taught) names alphabetically."""
        used = {c for cube in self.cubes for c in cube.faces}
        known = [c for c in DEFAULT_COLOURS if c in used]
        return (*known, *sorted(used - set(known)))

    @property
    def ids(self) -> tuple[str, ...]:
        return tuple(c.id for c in self.cubes)

    def cube(self, cube_id: str) -> Cube:
        for c in self.cubes:
            if c.id == cube_id:
                return c
        raise KeyError(cube_id)

    def __len__(self) -> int:
        return len(self.cubes)

    # -- JSON and files --------------------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        return {"version": FILE_VERSION, "name": self.name, "cubes": [c.to_json() for c in self.cubes]}

    @classmethod
    def from_json(cls, data: Any, *, size: int | None = SET_SIZE) -> CubeSet:
        try:
            cubes = [Cube(str(c["id"]), tuple(c["faces"])) for c in data["cubes"]]
            name = str(data.get("name", "taught"))
        except (KeyError, TypeError, AttributeError):
            raise CubeSetError("fritzo.err.set_malformed") from None
        return cls.checked(cubes, name, size=size)


def find_duplicates(cubes: Sequence[Cube]) -> list[tuple[str, str]]:
    """Pairs (earlier id, later id) of cubes that are the same cube turned: the rules forbid two alike."""
    first: dict[Colouring, str] = {}
    pairs: list[tuple[str, str]] = []
    for cube in cubes:
        key = canonical(cube.faces)
        if key in first:
            pairs.append((first[key], cube.id))
        else:
            first[key] = cube.id
    return pairs


def default_path() -> Path:
    """Where the table's taught set lives: beside the other taught dice, kept across reinstalls."""
    from companion.paths import data_dir

    return data_dir() / "fritzo-cubes.json"


def save(cubeset: CubeSet, path: str | os.PathLike | None = None) -> None:
    """Store a taught set atomically: a power cut leaves the old set or the new one, never half of either."""
    CubeSet.checked(cubeset.cubes, cubeset.name, size=None)
    text = json.dumps(cubeset.to_json(), ensure_ascii=False, indent=1) + "\n"
    atomic_write_text(path if path is not None else default_path(), text)


class CubeSetUnreadable(CubeSetError):
    """The stored set is there but cannot be read; ``reason`` (the OSError) is said in the table's words."""

    def render_param(self, name: str, value: Any, lang: str) -> Any:
        if isinstance(value, OSError):
            from companion.i18n import disk_words

            return disk_words(value, lang)
        return super().render_param(name, value, lang)


def load(path: str | os.PathLike | None = None, *, size: int | None = SET_SIZE) -> CubeSet:
    """Read a stored set; a corrupt file is kept aside (never deleted) and reported: teach the set again."""
    path = Path(path) if path is not None else default_path()
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return CubeSet.from_json(data, size=size)
    except FileNotFoundError:
        raise CubeSetError("fritzo.err.set_missing", path=str(path)) from None
    except OSError as exc:  # there but unreadable (a folder in its place, no permission, the card): left in place,
        # as a taught profile is, or a file a repaired card would read again was gone (and Fritzo stopped the app)
        raise CubeSetUnreadable("core.cubes_unreadable", path=str(path), reason=exc) from None
    except (json.JSONDecodeError, UnicodeDecodeError, CubeSetError) as exc:
        aside = path.with_name(keep_aside_where_possible(path))
        reason: CubeSetError | str = exc if isinstance(exc, CubeSetError) else "JSON"
        raise CubeSetError("fritzo.err.set_corrupt", path=str(aside), reason=reason) from None


# -- the built-in default set --------------------------------------------------------------------------------
#: outer sides of the Professional build of the default set (FACES order: top, bottom, north, south, east,
# west)
PRO_SIDES: tuple[str, ...] = ("blue", "white", "yellow", "green", "red", "orange")


@dataclass(frozen=True)
class DefaultConstruction:
    """The default set with the two builds it was made from (cell -> (cube id, rotation)), for tests."""

    cubeset: CubeSet
    professional: dict[Cell, tuple[str, int]]
    beginner: dict[Cell, tuple[str, int]]
    beginner_sides: tuple[str, ...]


def _colourings(pro: Sequence[str], beg: Sequence[str]) -> dict[Cell, Colouring]:
    """Colours of the cube at each cell of the Professional build, given both builds' outer side colours.

    Per axis, a cube at coordinate 0 shows (P_low, B_high), at 1 (B_high, B_low), at 2 (B_low, P_high) on its
    (low, high) faces: outer faces carry the Professional side colour, and every inner wall carries the colour
    that the mirrored Beginner build needs outside.
    """
    out: dict[Cell, Colouring] = {}
    for cell in itertools.product(range(3), repeat=3):
        faces = [""] * 6
        for f, normal in enumerate(NORMALS):
            axis = next(i for i in range(3) if normal[i])
            k = cell[axis]
            if normal[axis] > 0:  # high face (top, north, east); f ^ 1 is the opposite face
                faces[f] = (beg[f], beg[f ^ 1], pro[f])[k]
            else:
                faces[f] = (pro[f], beg[f ^ 1], beg[f])[k]
        out[cell] = tuple(faces)
    return out


def build_default_set() -> DefaultConstruction:
    """Construct the default set from a Professional build P and a Beginner build B of the same 27 cubes.

    P has outer sides :data:`PRO_SIDES` and every cube unturned. B puts the cube of P's cell (x, y, z) on the
    point-mirrored cell (2-x, 2-y, 2-z), also unturned, so each face that is inside in P faces outwards in B
    or touches a different neighbour. Giving each inner wall of P the colour B needs outside fixes every face;
    B is then legal exactly when each of B's side colours differs from P's side colour on the same side (a
    derangement). We take the first permutation (in a fixed order) that also avoids the colour opposite on P
    (so every axis mixes four colours, which keeps Strategy and Level One interesting) and makes all 27 cubes
    distinct up to rotation. Each cube is then stored turned by a fixed pseudo-random rotation, as a player
    teaching it would show it, so nothing downstream can rely on the reference orientation.
    """
    for perm in itertools.permutations(PRO_SIDES):
        if any(b in (PRO_SIDES[f], PRO_SIDES[f ^ 1]) for f, b in enumerate(perm)):
            continue
        cols = _colourings(PRO_SIDES, perm)
        cells = sorted(cols)
        cubes: list[Cube] = []
        professional: dict[Cell, tuple[str, int]] = {}
        beginner: dict[Cell, tuple[str, int]] = {}
        for i, cell in enumerate(cells):
            turn = (7 * i + 3) % 24
            cube = Cube(str(i + 1), orient(cols[cell], turn))
            back = next(r for r in range(24) if orient(cube.faces, r) == cols[cell])
            cubes.append(cube)
            professional[cell] = (cube.id, back)
            beginner[(2 - cell[0], 2 - cell[1], 2 - cell[2])] = (cube.id, back)
        if find_duplicates(cubes):
            continue
        return DefaultConstruction(CubeSet(tuple(cubes), "default"), professional, beginner, tuple(perm))
    raise AssertionError("no derangement of the side colours gives 27 distinct cubes")  # pragma: no cover


_DEFAULT: DefaultConstruction | None = None


def default_construction() -> DefaultConstruction:
    global _DEFAULT
    if _DEFAULT is None:
        _DEFAULT = build_default_set()
    return _DEFAULT


def default_set() -> CubeSet:
    return default_construction().cubeset


__all__ = [
    "Cube",
    "CubeSet",
    "DEFAULT_COLOURS",
    "FACES",
    "SET_SIZE",
    "default_set",
    "find_duplicates",
    "load",
    "save",
]
