"""Profiles on disk: round trip, atomic save, corrupt files kept aside with a clear message, evening examples."""

from __future__ import annotations

import numpy as np
import pytest
from synth_dice import crops

from companion import profiles
from companion.errors import ProfileError
from vision import taught
from vision.taught import Profile


@pytest.fixture(autouse=True)
def data_home(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    return tmp_path


def _profile() -> Profile:
    rng = np.random.default_rng(3)
    p = Profile("fritzo")
    for face in ("red", "blue"):
        for c in crops("fritzo", face, 2, rng, hard=False):
            p.add(face, c)
    return p


def test_round_trip(data_home):
    p = _profile()
    path = profiles.save_profile(p)
    assert path == data_home / "table-companion" / "profiles" / "fritzo.npz"
    back = profiles.load_profile("fritzo")
    assert back.names == ["red", "red", "blue", "blue"]
    assert np.array_equal(back.vectors, p.vectors) and back.counts() == {"red": 2, "blue": 2}


def test_missing_profile_is_empty():
    assert len(profiles.load_profile("haste-worte")) == 0


@pytest.mark.parametrize("damage", [b"not a zip at all", None])
def test_corrupt_profile_is_kept_aside(data_home, damage):
    path = profiles.save_profile(_profile())
    data = path.read_bytes()
    path.write_bytes(damage if damage is not None else data[: len(data) // 2])
    with pytest.raises(ProfileError, match="companion teach fritzo") as e:
        profiles.load_profile("fritzo")
    assert not path.exists()
    aside = list(path.parent.glob("fritzo.npz.corrupt-*"))
    assert len(aside) == 1 and aside[0].name in str(e.value)
    assert len(profiles.load_profile("fritzo")) == 0  # the next start begins fresh


def test_profile_of_another_version_or_set_is_refused(data_home):
    p = _profile()
    p.version = taught.FEATURE_VERSION + 1
    profiles.atomic_write_bytes(profiles.profile_path("fritzo"), profiles.to_bytes(p))
    with pytest.raises(ProfileError, match="another version"):
        profiles.load_profile("fritzo")
    profiles.atomic_write_bytes(profiles.profile_path("noch-x-mal"), profiles.to_bytes(_profile()))
    with pytest.raises(ProfileError, match="holds the dice set 'fritzo'"):
        profiles.load_profile("noch-x-mal")


def test_confirmed_answer_becomes_an_example_on_disk():
    p = _profile()
    rng = np.random.default_rng(9)
    green = crops("fritzo", "green", 1, rng, hard=False)[0]
    assert taught.match(p, green).face != "green"
    profiles.add_confirmed(p, "green", green)
    stored = profiles.load_profile("fritzo")
    assert stored.counts()["green"] == 1
    assert taught.match(stored, crops("fritzo", "green", 1, rng, hard=False)[0]).nearest == "green"
