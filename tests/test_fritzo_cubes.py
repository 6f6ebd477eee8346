"""Fritzo cube geometry (24 rotations) and the cube set: duplicates up to rotation, atomic storage."""

from __future__ import annotations

import itertools
import json

import pytest

from companion.errors import ProfileError
from companion.games.fritzo import cubeset as cs
from companion.games.fritzo.errors import CubeSetError
from companion.games.fritzo.geometry import (
    FACES,
    NORMALS,
    OPPOSITE,
    ROTATION_MATRICES,
    ROTATIONS,
    canonical,
    orient,
    orientations,
    rotation_for,
)

SIX = ("red", "orange", "yellow", "green", "blue", "white")


def test_24_distinct_proper_rotations_forming_a_group():
    assert len(ROTATIONS) == 24 and len(set(ROTATIONS)) == 24
    assert ROTATIONS[0] == tuple(range(6))
    perms = set(ROTATIONS)
    for a, b in itertools.product(ROTATIONS, repeat=2):
        assert tuple(a[b[f]] for f in range(6)) in perms  # closed under composition
    for m in ROTATION_MATRICES:  # proper rotations: determinant +1, not mirror images
        det = (m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
               + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]))
        assert det == 1


def test_rotation_keeps_opposite_faces_opposite_and_each_face_up_four_times():
    for perm in ROTATIONS:
        for f in range(6):
            assert perm[OPPOSITE[f]] == OPPOSITE[perm[f]]
    tops = [perm[0] for perm in ROTATIONS]
    assert all(tops.count(f) == 4 for f in range(6))


def test_a_mirror_image_is_not_a_rotation():
    """Six different colours: 30 distinct cubes; a cube and its mirror image are different cubes."""
    keys = {canonical(p) for p in itertools.permutations(SIX)}
    assert len(keys) == 30
    mirrored = (SIX[0], SIX[1], SIX[2], SIX[3], SIX[5], SIX[4])  # swap east and west only
    assert canonical(mirrored) != canonical(SIX)


def test_orientations_and_rotation_for():
    looks = orientations(SIX)
    assert len(set(looks)) == 24 and all(canonical(look) == canonical(SIX) for look in looks)
    (r,) = rotation_for(SIX, "green", "blue")
    look = orient(SIX, r)
    assert look[0] == "green" and look[2] == "blue"
    assert rotation_for(SIX, "red", "orange") == []  # opposite faces cannot be top and north at once
    two_red = ("red", "red", "blue", "blue", "green", "green")
    assert len(rotation_for(two_red, "red", "blue")) == 1  # every rotation showing that looks the same
    assert FACES[0] == "top" and NORMALS[0] == (0, 0, 1)


def test_default_set_is_27_distinct_cubes_of_six_colours():
    d = cs.default_construction()
    s = d.cubeset
    assert len(s) == 27 and len({canonical(c.faces) for c in s.cubes}) == 27
    assert s.colours == SIX
    cs.CubeSet.checked(s.cubes)  # passes the same check a taught set gets
    assert set(d.professional.values()) | set(d.beginner.values())
    assert {cid for cid, _ in d.professional.values()} == set(s.ids) == {cid for cid, _ in d.beginner.values()}


def test_duplicate_up_to_rotation_is_refused_with_both_cubes_named():
    base = cs.default_set()
    turned = cs.Cube("28", orient(base.cubes[4].faces, 17))
    with pytest.raises(CubeSetError) as err:
        cs.CubeSet.checked((*base.cubes[:26], turned))
    assert "28" in str(err.value) and base.cubes[4].id in str(err.value)
    assert "only turned" in str(err.value) and "nur gedreht" in err.value.localized("de")
    assert isinstance(err.value, ProfileError)
    assert cs.find_duplicates([base.cubes[0], turned, base.cubes[4]]) == [("28", base.cubes[4].id)]


def test_teaching_one_cube_at_a_time():
    partial = cs.CubeSet((), "taught")
    for cube in cs.default_set().cubes[:5]:
        partial = partial.add(cube)
    assert len(partial) == 5
    with pytest.raises(CubeSetError, match="only turned"):
        partial.add(cs.Cube("99", orient(partial.cubes[2].faces, 5)))
    with pytest.raises(CubeSetError, match="must be 27"):
        cs.CubeSet.checked(partial.cubes)  # a game needs the whole set


@pytest.mark.parametrize(
    "cubes,message",
    [
        ([cs.Cube("1", ("red",) * 5)], "six faces"),
        ([cs.Cube("1", SIX), cs.Cube("1", SIX[::-1])], "twice"),
        ([cs.Cube("", SIX)], "needs a number"),
    ],
)
def test_malformed_cubes(cubes, message):
    with pytest.raises(CubeSetError, match=message):
        cs.CubeSet.checked(cubes, size=None)


def test_a_set_needs_exactly_six_colours():
    cubes = list(cs.default_set().cubes)
    cubes[0] = cs.Cube(cubes[0].id, ("pink", "red", "red", "red", "red", "red"))
    with pytest.raises(CubeSetError, match="7 colours"):
        cs.CubeSet.checked(cubes)


def test_save_and_load_round_trip(tmp_path):
    path = tmp_path / "sets" / "fritzo.json"
    cs.save(cs.default_set(), path)
    loaded = cs.load(path)
    assert loaded == cs.default_set()
    assert not [p for p in path.parent.iterdir() if p.name.endswith(".tmp")]  # the temp file was renamed


def test_a_corrupt_file_is_kept_aside_and_reported(tmp_path):
    path = tmp_path / "fritzo.json"
    path.write_text('{"cubes": [', encoding="utf-8")
    with pytest.raises(CubeSetError, match="put aside"):
        cs.load(path)
    assert not path.exists()
    aside = list(tmp_path.glob("fritzo.json.corrupt-*"))
    assert len(aside) == 1 and aside[0].read_text(encoding="utf-8") == '{"cubes": ['


def test_a_stored_set_with_a_duplicate_is_refused_on_load(tmp_path):
    data = cs.default_set().to_json()
    data["cubes"][3]["faces"] = list(orient(data["cubes"][7]["faces"], 9))
    path = tmp_path / "fritzo.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(CubeSetError) as err:
        cs.load(path)
    assert "only turned" in str(err.value)
    assert list(tmp_path.glob("fritzo.json.corrupt-*"))


def test_missing_file_says_to_teach(tmp_path):
    with pytest.raises(CubeSetError, match="show the cubes"):
        cs.load(tmp_path / "none.json")


def test_default_place_is_in_the_data_folder(tmp_path):
    cs.save(cs.default_set())  # conftest points XDG_DATA_HOME into tmp_path
    assert cs.default_path().is_relative_to(tmp_path) and cs.load() == cs.default_set()
