"""Profiles on disk: round trip, atomic save, corrupt files kept aside with a clear message, evening examples."""

from __future__ import annotations

import io

import numpy as np
import pytest
from synth_dice import crops

from companion import profiles
from companion.errors import ProfileDamaged, ProfileError
from vision import face_outline, taught
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


def _flipped(data: bytes) -> bytes:
    """Forty bytes in the middle of the deflated arrays turned: the zip's directory still reads, inflating fails
    (zlib.error, which escaped and stopped every start)."""
    middle = bytearray(data)
    for i in range(len(data) // 2, len(data) // 2 + 40):
        middle[i] ^= 0x5A
    return bytes(middle)


@pytest.mark.parametrize("damage", ["garbage", "half", "flipped"])
def test_corrupt_profile_is_kept_aside(data_home, damage):
    path = profiles.save_profile(_profile())
    data = path.read_bytes()
    damaged = {"garbage": b"not a zip at all", "half": data[: len(data) // 2], "flipped": _flipped(data)}
    path.write_bytes(damaged[damage])
    with pytest.raises(ProfileDamaged, match="companion teach fritzo") as e:
        profiles.load_profile("fritzo")
    assert "Error" not in str(e.value)  # in words, not a class name
    assert not path.exists()
    aside = list(path.parent.glob("fritzo.npz.corrupt-*"))
    assert len(aside) == 1 and aside[0].name in str(e.value)
    assert len(profiles.load_profile("fritzo")) == 0  # the next start begins fresh


def test_profile_of_another_version_without_its_photos_or_of_another_set_is_refused(data_home):
    p = _profile()
    p.version = taught.FEATURE_VERSION - 1
    p.crops = None  # as reader version 4 and older stored them: descriptors only
    profiles.atomic_write_bytes(profiles.profile_path("fritzo"), profiles.to_bytes(p))
    with pytest.raises(ProfileError, match="another version"):
        profiles.load_profile("fritzo")
    profiles.atomic_write_bytes(profiles.profile_path("noch-x-mal"), profiles.to_bytes(_profile()))
    with pytest.raises(ProfileError, match="holds the dice set 'fritzo'"):
        profiles.load_profile("noch-x-mal")


def test_a_profile_of_an_older_reader_is_described_again_from_its_photos(data_home):
    """An update of the reader changes the descriptor: the family's examples are described again and saved in the
    new form, not lost."""
    p = _profile()
    assert p.crops is not None and len(p.crops) == 4
    old = profiles.to_bytes(p)
    stale = p.vectors + 1.0  # what an older reader would have stored
    p.vectors, p.version = stale, taught.FEATURE_VERSION - 1
    profiles.atomic_write_bytes(profiles.profile_path("fritzo"), profiles.to_bytes(p))
    back = profiles.load_profile("fritzo")
    assert back.version == taught.FEATURE_VERSION and back.names == ["red", "red", "blue", "blue"]
    assert np.allclose(back.vectors, stale - 1.0)  # this reader's descriptors of the same photos
    on_disk, upgraded = profiles.from_bytes(profiles.profile_path("fritzo").read_bytes(), "fritzo")
    assert not upgraded and np.array_equal(on_disk.vectors, back.vectors)  # saved in the new form
    assert profiles.from_bytes(old, "fritzo")[0].crops.shape == (4, face_outline.CROP, face_outline.CROP, 3)


def test_the_examples_as_the_side_net_outlines_them_are_stored_and_completed_from_the_photos(data_home):
    """``Profile.side`` (the examples along the side net's outline, for the matcher's last look) goes to disk with
    the profile; a profile saved before the side net came is completed from its photos and saved so; a damaged
    one is refused like damaged examples."""
    p = _profile()
    assert p.side is not None and p.side.shape == p.vectors.shape
    back, upgraded = profiles.from_bytes(profiles.to_bytes(p), "fritzo")
    assert not upgraded and np.array_equal(back.side, p.side)
    before = Profile("fritzo", p.names, p.vectors, crops=p.crops, side=None)
    profiles.atomic_write_bytes(profiles.profile_path("fritzo"), profiles.to_bytes(before))
    loaded = profiles.load_profile("fritzo")
    assert np.allclose(loaded.side, p.side, atol=1e-5)
    on_disk, upgraded = profiles.from_bytes(profiles.profile_path("fritzo").read_bytes(), "fritzo")
    assert not upgraded and on_disk.side is not None  # saved in the completed form
    damaged = Profile("fritzo", p.names, p.vectors, crops=p.crops, side=None)
    damaged.side = p.side[:, :10]
    with pytest.raises(ValueError, match="damaged"):
        profiles.from_bytes(profiles.to_bytes(damaged), "fritzo")


def test_without_the_side_net_there_is_no_last_look(monkeypatch):
    """Examples described along the side net's outline are compared only with a die outlined by it too."""
    p = _profile()
    assert p.side_profile() is not None
    monkeypatch.setitem(face_outline._top_nets, face_outline.SIDE_MODEL_PATH, None)
    assert p.side_profile() is None
    assert Profile("fritzo").side is not None and Profile("fritzo", p.names, p.vectors).side is None


def test_an_example_added_by_its_descriptor_alone_leaves_no_photos_to_describe_again():
    p = _profile()
    p.add_vector("green", p.vectors[0])
    assert p.crops is None
    back, _ = profiles.from_bytes(profiles.to_bytes(p), "fritzo")
    assert back.crops is None and len(back) == 5


def test_a_confirmed_example_taken_back_leaves_the_profile_on_disk_as_before():
    """The example is found again by its key in the profile as read back from disk (the journal keeps the key
    across a restart), and nothing else goes with it."""
    p = _profile()
    before = p.vectors.copy()
    profiles.add_confirmed(p, "green", crops("fritzo", "green", 1, np.random.default_rng(9), hard=False)[0])
    key = profiles.example_key(p.vectors[-1])
    restarted = profiles.load_profile("fritzo")
    assert profiles.drop_confirmed(restarted, "green", key) is not None
    stored = profiles.load_profile("fritzo")
    assert stored.counts() == {"red": 2, "blue": 2} and np.array_equal(stored.vectors, before)
    assert len(stored.crops) == len(stored.side) == 4  # the photos and side looks of the rest are kept
    assert profiles.drop_confirmed(stored, "green", key) is None  # gone already: nothing else is removed
    assert profiles.drop_confirmed(stored, "blue", profiles.example_key(before[0])) is None  # a red one: kept
    assert len(profiles.load_profile("fritzo")) == 4


def test_confirmed_answer_becomes_an_example_on_disk():
    p = _profile()
    rng = np.random.default_rng(9)
    green = crops("fritzo", "green", 1, rng, hard=False)[0]
    assert taught.match(p, green).face != "green"
    profiles.add_confirmed(p, "green", green)
    stored = profiles.load_profile("fritzo")
    assert stored.counts()["green"] == 1
    assert taught.match(stored, crops("fritzo", "green", 1, rng, hard=False)[0]).nearest == "green"


def test_a_face_keeps_its_first_examples_and_its_newest_answers_up_to_a_bound(data_home):
    """Every answer saves the whole profile: a year of evenings must not grow it without end. The two examples taught
    first stay; the oldest answer of the evening goes."""
    p = _profile()
    taught_red = [profiles.example_key(v) for v in p.vectors[:2]]
    reds = crops("fritzo", "red", profiles.MAX_PER_FACE + 3, np.random.default_rng(5), hard=False)
    answers = []
    for crop in reds:
        profiles.add_confirmed(p, "red", crop)
        answers.append(profiles.example_key(p.vectors[-1]))
    stored = profiles.load_profile("fritzo")
    assert stored.counts() == {"red": profiles.MAX_PER_FACE, "blue": 2}
    kept = [profiles.example_key(v) for v, n in zip(stored.vectors, stored.names, strict=True) if n == "red"]
    newest = profiles.MAX_PER_FACE - profiles.KEPT_FIRST
    assert kept == taught_red + answers[-newest:]
    assert len(stored.crops) == len(stored.side) == len(stored.lights) == profiles.MAX_PER_FACE + 2


def test_the_light_each_example_was_taken_in_is_stored_and_kept_through_an_update(data_home):
    """``Profile.lights`` goes to disk; a profile saved before the lights were kept reads as before (lights not
    known); a reader update that describes the photos again keeps them; damaged lights are refused like damaged
    examples."""
    p = _profile()
    p.lights[:2] = [120, 130, 140]  # the red photos' light; the blue ones' not known
    back, _ = profiles.from_bytes(profiles.to_bytes(p), "fritzo")
    assert np.array_equal(back.lights, p.lights, equal_nan=True)
    green = crops("fritzo", "green", 1, np.random.default_rng(9), hard=False)[0]
    profiles.add_confirmed(back, "green", green, np.float32([60, 70, 90]))
    assert profiles.load_profile("fritzo").lights[-1].tolist() == [60, 70, 90]
    older = {k: v for k, v in np.load(io.BytesIO(profiles.to_bytes(p))).items() if k != "lights"}
    buf = io.BytesIO()
    np.savez_compressed(buf, **older)
    assert np.isnan(profiles.from_bytes(buf.getvalue(), "fritzo")[0].lights).all()
    p.version = taught.FEATURE_VERSION - 1
    upgraded, described_again = profiles.from_bytes(profiles.to_bytes(p), "fritzo")
    assert described_again and np.array_equal(upgraded.lights, back.lights[:4], equal_nan=True)
    p.lights = np.full((4, 3), np.inf, np.float32)
    with pytest.raises(ValueError, match="lights are damaged"):
        profiles.from_bytes(profiles.to_bytes(p), "fritzo")


def test_a_copy_of_a_profile_keeps_where_its_examples_were_taken(data_home):
    """Where the examples were taken lived in attributes hung on vision's profile: a ``dataclasses.replace`` of it
    dropped them silently, and the copy's examples read as taken nowhere known. They are the profile's ``meta``
    now."""
    import dataclasses

    p = _profile()
    profiles.taking(p, "cam:0", (640, 480))
    profiles.add_confirmed(p, "green", crops("fritzo", "green", 1, np.random.default_rng(3), hard=False)[0])
    copy = dataclasses.replace(p)
    assert profiles.places(copy) == profiles.places(p) and profiles.places(copy)[-1] == profiles.Place("cam:0",
                                                                                                      (640, 480))
    assert p.meta is copy.meta and taught.Profile("fritzo").meta == {}  # (a fresh one's, its own)


def test_where_each_example_was_taken_is_stored_and_an_older_profile_reads_as_not_known(data_home):
    """``profiles.Place`` (the camera as the config names it, the frame's size) goes to disk with each example, so
    that the camera check can tell dice taught with another camera; a profile saved before reads as not known, with
    the reader's version unchanged (no teaching again); examples removed take their places with them; a reader
    update that describes the photos again keeps them; damaged places are not known, never a refused profile."""
    p = _profile()  # built in memory, where the examples were taken not said
    profiles.save_profile(p)
    assert [pl for _, pl in profiles.taught_places("fritzo")] == [profiles.UNKNOWN_PLACE] * 4
    back = profiles.load_profile("fritzo")
    assert back.version == taught.FEATURE_VERSION
    rng = np.random.default_rng(9)
    profiles.taking(back, "cam:0", np.zeros((480, 640, 3), np.uint8))
    profiles.add_confirmed(back, "green", crops("fritzo", "green", 1, rng, hard=False)[0])
    profiles.taking(back, "pi", (1280, 960))
    profiles.add_confirmed(back, "yellow", crops("fritzo", "yellow", 1, rng, hard=False)[0])
    where = profiles.taught_places("fritzo")
    assert where[:4] == [(n, profiles.UNKNOWN_PLACE) for n in ("red", "red", "blue", "blue")]
    assert where[4:] == [("green", profiles.Place("cam:0", (640, 480))), ("yellow", profiles.Place("pi", (1280, 960)))]
    # an example taken out: the others keep theirs, in the profile loaded again too
    again = profiles.load_profile("fritzo")
    again.remove([0, 4])
    profiles.save_profile(again)
    assert [pl for _, pl in profiles.taught_places("fritzo")] == [profiles.UNKNOWN_PLACE] * 3 + [
        profiles.Place("pi", (1280, 960))]
    assert profiles.places(profiles.load_profile("fritzo"))[-1] == profiles.Place("pi", (1280, 960))
    # another reader's version: described again from the photos, the places stay with their rows
    again.version = taught.FEATURE_VERSION - 1
    upgraded, described_again = profiles.from_bytes(profiles.to_bytes(again), "fritzo")
    assert described_again and profiles.places(upgraded)[-1] == profiles.Place("pi", (1280, 960))
    # saved before the places were kept, or with places that do not fit: read, places not known
    for drop, bad in ((("cameras", "sizes"), {}), ((), {"sizes": np.array(["x", "y"])})):
        stored = {k: v for k, v in np.load(io.BytesIO(profiles.to_bytes(again))).items() if k not in drop}
        buf = io.BytesIO()
        np.savez_compressed(buf, **{**stored, **bad})
        older, _ = profiles.from_bytes(buf.getvalue(), "fritzo")
        assert len(older) == 4 and profiles.places(older) == [profiles.UNKNOWN_PLACE] * 4


def test_a_games_answer_keeps_the_camera_said_for_frames_of_its_size():
    """``taking(profile, None, frame)`` (a game's answer: the frame at hand, not the camera's name) keeps the camera
    said before for frames of that size, and says none for another size."""
    p = Profile("fritzo")
    profiles.taking(p, "cam:1", (640, 480))
    profiles.taking(p, None, np.zeros((480, 640, 3), np.uint8))
    assert p.meta["taking"] == profiles.Place("cam:1", (640, 480))
    profiles.taking(p, None, (800, 600))
    assert p.meta["taking"] == profiles.Place("", (800, 600))


def test_a_place_differs_by_its_size_or_a_camera_named_on_both_sides():
    here = profiles.Place("cam:0", (640, 480))
    assert not here.differs("cam:0", (640, 480)) and here.differs("cam:1", (640, 480))
    assert here.differs("cam:0", (1280, 720)) and not here.differs("", (640, 480))
    assert not profiles.Place("", (640, 480)).differs("pi", (640, 480))
    assert not profiles.UNKNOWN_PLACE.differs("pi", (640, 480)) and not profiles.UNKNOWN_PLACE.known()
