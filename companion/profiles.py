"""Taught dice profiles on disk: ``$XDG_DATA_HOME/table-companion/profiles/<set>.npz``.

A profile is the evening's work of a family (every face shown to the camera), so it is written atomically and a
file that cannot be read is never deleted: it is renamed aside (``<set>.npz.corrupt-<time>``) and the player is
told to teach again. The file is a plain compressed ``numpy.savez`` archive (names, vectors, version, set name, the
example photos, the examples as the side net outlines them and the light each was taken in), read with
``allow_pickle=False``: a profile file can never run code.

The example photos are kept so that a new version of the reader (another FEATURE_VERSION) describes them again
and saves the profile in its own form at the next start: an update must not cost a family its evening's teaching.
A profile saved before the side net came (``Profile.side``) is completed from them the same way; one saved before the
lights were kept (``Profile.lights``) reads as before, its examples' light not known. Where each example was taken
(the camera and the frame size, ``Place``) is kept beside them for the camera check; a profile saved before reads
as taken somewhere not known (the reader does not use it: no FEATURE_VERSION of its own).
Profiles stored without them (reader version 4 and older) cannot be upgraded and are refused with "teach again".
"""

from __future__ import annotations

import hashlib
import io
import logging
import zipfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from companion import dicesets, paths
from companion.atomic import atomic_write_bytes, keep_aside, keep_aside_where_possible
from companion.errors import ProfileDamaged, ProfileError, ProfileUnreadable
from vision.face_marks import DIM, side_descriptors
from vision.face_outline import CROP, side_net
from vision.taught import FEATURE_VERSION, MarkNotSeen, Profile

log = logging.getLogger(__name__)


def profile_dir() -> Path:
    return paths.data_dir() / "profiles"


def profile_path(set_name: str) -> Path:
    return profile_dir() / f"{set_name}.npz"


@dataclass(frozen=True)
class Place:
    """Where an example was taken: the camera as the config names it ("pi", "cam:0", "folder"; "" not known) and
    the size of its frame (width, height; 0 x 0 not known). Why: dice taught on one companion and copied to another
    (another camera, another tray) read mostly unsure there, and the camera check could only blame the light."""

    camera: str = ""
    size: tuple[int, int] = (0, 0)

    def known(self) -> bool:
        return self.size != (0, 0)

    def differs(self, camera: str, size: tuple[int, int]) -> bool:
        """Whether it is known to be another than ``camera`` with frames of ``size`` (a camera not known on
        either side is judged by the size alone)."""
        if not self.known():
            return False
        return self.size != tuple(size) or bool(self.camera and camera and self.camera != camera)


UNKNOWN_PLACE = Place()


def _places(profile: Profile) -> dict[str, Place]:
    """Where the profile's examples were taken, by ``example_key``: kept in the profile's ``meta``, as vision's
    plain data knows no cameras. Keyed by the example, not its row, so that examples removed (settled away,
    taken back, the oldest past MAX_PER_FACE) take their place with them."""
    return profile.meta.setdefault("places", {})


def taking(profile: Profile, camera: str | None, frame: np.ndarray | tuple[int, int]) -> None:
    """The examples added to ``profile`` from now on are taken with ``camera`` from frames like ``frame`` (or of
    that (width, height)): each is marked so at its save (``places``); those added before, where they were taken.
    ``camera`` None: the one said before for frames of this size, else not known (a game's answer: the frame is
    at hand, the camera's name is not)."""
    places(profile)
    size = frame if isinstance(frame, tuple) else (int(frame.shape[1]), int(frame.shape[0]))
    size = (int(size[0]), int(size[1]))
    if camera is None:
        before = profile.meta.get("taking", UNKNOWN_PLACE)
        camera = before.camera if before.size == size else ""
    profile.meta["taking"] = Place(camera, size)


def places(profile: Profile) -> list[Place]:
    """Where each example (row) was taken; one added since the last save is marked as taken where ``taking``
    said (not known without it), one loaded from a profile that did not keep it as not known."""
    known = _places(profile)
    new = profile.meta.get("taking", UNKNOWN_PLACE)
    out = []
    for vector in profile.vectors:
        key = example_key(vector)
        out.append(known.setdefault(key, new))
    return out


def _read_places(cameras: np.ndarray | None, sizes: np.ndarray | None, n: int) -> list[Place]:
    """The stored places, row by row; not known where missing or not fitting (never a reason to refuse the
    profile: the examples are the family's evening, this is only a hint for the camera check)."""
    try:
        if cameras is None or sizes is None or cameras.shape != (n,) or sizes.shape != (n, 2) or (sizes < 0).any():
            return [UNKNOWN_PLACE] * n
        return [Place(str(c), (int(w), int(h))) for c, (w, h) in zip(cameras.tolist(), sizes.tolist(), strict=True)]
    except (TypeError, ValueError):  # another kind of array under those names
        return [UNKNOWN_PLACE] * n


def to_bytes(profile: Profile) -> bytes:
    """The profile as a ``numpy.load``-able .npz archive, deflated at level 1: half the time of
    ``numpy.savez_compressed``'s level 6 for a file 2 % larger (every answer of the evening saves it, in the
    foreground: 294 examples, 8 MB, 0.21 s instead of 0.43 s here)."""
    where = places(profile)
    arrays = {"names": np.array(profile.names, dtype=np.str_), "vectors": profile.vectors.astype(np.float32),
              "version": np.array(profile.version), "set_name": np.array(profile.set_name),
              "lights": profile.lights.astype(np.float32),
              "cameras": np.array([p.camera for p in where], dtype=np.str_).reshape(len(where)),
              "sizes": np.array([p.size for p in where], np.int32).reshape(len(where), 2)}
    if profile.crops is not None:
        arrays["crops"] = profile.crops
    if profile.side is not None:
        arrays["side"] = profile.side.astype(np.float32)
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=1) as archive:
        for key, array in arrays.items():
            with archive.open(f"{key}.npy", "w", force_zip64=True) as entry:
                np.lib.format.write_array(entry, np.asanyarray(array), allow_pickle=False)
    return buf.getvalue()


def from_bytes(data: bytes, set_name: str) -> tuple[Profile, bool]:
    """Parse a stored profile, and whether it was described again (made by another version of the reader);
    ValueError (with what is wrong) when it is not one."""
    try:
        with np.load(io.BytesIO(data), allow_pickle=False) as z:
            names = [str(n) for n in z["names"].tolist()] if z["names"].size else []
            vectors = np.asarray(z["vectors"], np.float32)
            version = int(z["version"])
            stored_set = str(z["set_name"])
            crops = np.asarray(z["crops"]) if "crops" in z.files else None
            side = np.asarray(z["side"], np.float32) if "side" in z.files else None
            lights = np.asarray(z["lights"], np.float32) if "lights" in z.files else None
            cameras = z["cameras"] if "cameras" in z.files else None
            sizes = np.asarray(z["sizes"]) if "sizes" in z.files else None
    except Exception:  # noqa: BLE001 - zip, zlib, numpy: whatever a damaged file raises, it is not a profile
        raise ValueError("it is not a profile file, or a damaged one") from None
    if stored_set != set_name:
        raise ValueError(f"it holds the dice set {stored_set!r}, not {set_name!r}")
    if crops is not None and (crops.dtype != np.uint8 or crops.shape != (len(names), CROP, CROP, 3)):
        raise ValueError("its example photos are damaged")
    if lights is not None and (lights.shape != (len(names), 3) or np.isinf(lights).any() or (lights <= 0).any()):
        raise ValueError("its examples' lights are damaged")
    if version != FEATURE_VERSION:
        if crops is None:
            raise ValueError(f"it was made by another version of the reader ({version}, this one is {FEATURE_VERSION})")
        return _placed(Profile.from_crops(set_name, names, crops, lights), cameras, sizes), True
    if vectors.ndim != 2 or vectors.shape[1] != DIM or len(vectors) != len(names) or not np.isfinite(vectors).all():
        raise ValueError("its examples are damaged")
    if side is not None and (side.shape != vectors.shape or not np.isfinite(side).all()):
        raise ValueError("its examples are damaged")
    completed = side is None and crops is not None and side_net() is not None  # saved before the side net came
    if completed:
        side = side_descriptors(crops)
    profile = Profile(set_name, names, vectors, version, crops, side=side, lights=lights)
    return _placed(profile, cameras, sizes), completed


def _placed(profile: Profile, cameras: np.ndarray | None, sizes: np.ndarray | None) -> Profile:
    """``profile`` knowing where its examples were taken (row by row as stored; its rows keep their order when
    described again by another reader)."""
    stored = _read_places(cameras, sizes, len(profile.names))
    known = _places(profile)
    for vector, place in zip(profile.vectors, stored, strict=True):
        known.setdefault(example_key(vector), place)
    return profile


def taught_places(set_name: str) -> list[tuple[str, Place]]:
    """Each stored example of ``set_name`` as its face and where it was taken, read from the file without the
    examples themselves (the camera check asks at each reading); none when nothing is stored or it cannot be
    read (the check then says what it said before)."""
    try:
        with np.load(profile_path(set_name), allow_pickle=False) as z:
            names = [str(n) for n in z["names"].tolist()] if z["names"].size else []
            cameras = z["cameras"] if "cameras" in z.files else None
            sizes = np.asarray(z["sizes"]) if "sizes" in z.files else None
            return list(zip(names, _read_places(cameras, sizes, len(names)), strict=True))
    except Exception:  # noqa: BLE001 - missing, damaged, unreadable: a hint left unsaid, never a failure
        return []


def blank_faces(set_name: str) -> frozenset[str] | None:
    """The faces of ``set_name`` that may show no mark (``Profile.blank_faces``); None when the set cannot be
    loaded (the reader then judges by the examples alone)."""
    try:
        return dicesets.load(set_name).blank_faces()
    except ProfileError:
        return None


def fresh_profile(set_name: str) -> Profile:
    """``set_name``'s profile before any teaching (teaching afresh after a damaged one was kept aside)."""
    return Profile(set_name, blank_faces=blank_faces(set_name))


def put_aside(set_name: str) -> str:
    """Teaching a set afresh: its profile renamed aside (``<set>.npz.replaced-<time>``), never deleted, so a family
    that chose it by mistake can have it back; the name it is kept under. OSError where the card refuses."""
    name = keep_aside(profile_path(set_name), "replaced").name
    forget_marks(set_name)  # said of the dice taught before: the new photos are asked about their marks again
    forget_answered(set_name)  # the dice answered and skipped for the old photos: asked about again
    return name


def marks_path(set_name: str) -> Path:
    return profile_dir() / f"{set_name}.marks-confirmed"


def marks_confirmed(set_name: str) -> bool:
    """Whether the family said that no other die of the set carries its mark (Echt Spitze's extra cross) for the
    stored profile. Kept beside it: said for the sitting alone, a family that came back the next evening saw the
    count unsettled and was asked again. Not said where no profile is stored (a confirmation left behind)."""
    try:
        return profile_path(set_name).is_file() and marks_path(set_name).is_file()
    except OSError:
        return False


def confirm_marks(set_name: str) -> Path:
    """Keep "no other die carries a mark" for ``set_name``'s profile, written atomically as the profile is. A marked
    face taught later leaves it standing: the family showed the die it had missed, and is not asked again."""
    path = marks_path(set_name)
    atomic_write_bytes(path, b"no other die of this set carries its mark\n")
    return path


def forget_marks(set_name: str) -> None:
    """The confirmation gone with the profile it was said of (taught afresh, or kept aside as damaged)."""
    try:
        marks_path(set_name).unlink(missing_ok=True)
    except OSError:
        pass  # a card that refuses: ``marks_confirmed`` still asks for the profile, which is gone


@dataclass(frozen=True)
class AnsweredDie:
    """A die the teaching screen asked about, as it lay (``teach_view.LyingDie``), and the example its answer added
    (its ``example_key``; "" for a die skipped)."""

    key: str
    centre: tuple[float, float]
    size: float
    look: np.ndarray  # the frame around its top face, grey, 24 x 24


def answered_path(set_name: str) -> Path:
    return profile_dir() / f"{set_name}.answered"  # not .npz: the doctor takes every .npz for a profile


def save_answered(set_name: str, dice: list[AnsweredDie], profile: Profile) -> None:
    """Keep the dice the teaching screen was answered or skipped for, with the examples ``profile`` holds now (what
    they were said of), written atomically as the profile is. Why: kept only while the program ran, a family that
    taught over two evenings, its dice still lying, was asked about each of them again, and the same die's answer
    was counted as a face's second photo. OSError where the card refuses."""
    looks = np.array([np.clip(np.rint(d.look), 0, 255) for d in dice], np.uint8).reshape(len(dice), 24, 24)
    arrays = {"keys": np.array([d.key for d in dice], dtype=np.str_),
              "centres": np.array([d.centre for d in dice], np.float32).reshape(len(dice), 2),
              "sizes": np.array([d.size for d in dice], np.float32), "looks": looks,
              "profile": np.array(sorted(example_key(v) for v in profile.vectors), dtype=np.str_)}
    buf = io.BytesIO()
    np.savez_compressed(buf, **arrays)
    atomic_write_bytes(answered_path(set_name), buf.getvalue())


def load_answered(set_name: str, profile: Profile) -> list[AnsweredDie]:
    """The dice ``save_answered`` kept that still stand for ``profile``: an answered one while its example is in it
    (not taken back, settled away or taught afresh), a skipped one while the profile is the one they were skipped
    beside (not started anew: it shares an example with it, or neither had any). A missing file is none; a damaged
    or unreadable one is none too, said in the log: this is a convenience, never worth a stopped evening."""
    path = answered_path(set_name)
    try:
        if not path.is_file():
            return []
        with np.load(io.BytesIO(path.read_bytes()), allow_pickle=False) as z:
            keys = [str(k) for k in z["keys"].tolist()]
            centres, sizes = np.asarray(z["centres"], np.float32), np.asarray(z["sizes"], np.float32)
            looks, said_of = np.asarray(z["looks"], np.float32), {str(k) for k in z["profile"].tolist()}
        n = len(keys)
        if centres.shape != (n, 2) or sizes.shape != (n,) or looks.shape != (n, 24, 24) or not (
                np.isfinite(centres).all() and np.isfinite(sizes).all()):
            raise ValueError("its arrays do not agree")
    except Exception as exc:  # noqa: BLE001 - zip, numpy, the disk: whatever a damaged file raises, it is ignored
        log.warning("the dice answered while teaching %s could not be read from %s (%s): they are asked about again",
                    set_name, path, exc)
        return []
    held = {example_key(v) for v in profile.vectors}
    same = bool(said_of & held) or not said_of
    return [AnsweredDie(key, (float(c[0]), float(c[1])), float(size), look)
            for key, c, size, look in zip(keys, centres, sizes, looks, strict=True)
            if (key in held if key else same)]


def forget_answered(set_name: str) -> None:
    """The dice answered and skipped gone with the profile they were said of (taught afresh, or kept aside)."""
    try:
        answered_path(set_name).unlink(missing_ok=True)
    except OSError:
        pass  # a card that refuses: ``load_answered`` keeps only what still stands for the profile handed


def load_profile(set_name: str) -> Profile:
    """The stored profile of ``set_name``; an empty one when nothing was taught yet. It knows which of the set's
    faces may show no mark (``blank_faces``).

    A damaged file raises :class:`ProfileDamaged` after it has been kept aside, so the next start begins fresh; one
    that cannot be read raises :class:`ProfileUnreadable` and stays (the card may read it again).
    """
    path = profile_path(set_name)
    if not path.exists():
        return fresh_profile(set_name)
    try:
        data = path.read_bytes()
    except OSError as e:  # the system's "[Errno 21] Is a directory" said in words (the screen says its own)
        from companion.i18n import disk_words

        why = disk_words(e, "en")  # the message is the terminal's English; the screen says it in its own words
        raise ProfileUnreadable(f"The taught dice of {set_name!r} cannot be read: {path} ({why}). Nothing was moved "
                                "or deleted: once it can be read again, they are back.", set_name, e) from None
    try:
        profile, upgraded = from_bytes(data, set_name)
    except ValueError as e:  # from_bytes turns whatever a damaged file raises into one
        aside = keep_aside_where_possible(path)
        forget_marks(set_name)  # said of the photos kept aside: the ones taught afresh are asked about again
        forget_answered(set_name)
        raise ProfileDamaged(
            f"The taught dice of {set_name!r} could not be used ({e}). The file was kept as {aside}; "
            f"teach the dice again with: companion teach {set_name}", set_name, aside
        ) from None
    if upgraded:  # described again by this reader: keep it in this reader's form
        try:
            save_profile(profile)
        except OSError:
            pass  # a read-only data folder: described again at every start, which works too
    profile.blank_faces = blank_faces(set_name)
    return profile


def save_profile(profile: Profile) -> Path:
    path = profile_path(profile.set_name)
    atomic_write_bytes(path, to_bytes(profile))
    return path


#: the most examples one face keeps. Past it, an answer of the evening takes the place of the oldest answer kept;
#: the first KEPT_FIRST examples (taught on purpose, sharp) stay. Why: every answer saves the whole profile, about
#: 26 KB an example, compressed, on the table's memory card and in its foreground; a year of weekly evenings would
#: grow a set to hundreds of examples (420: an 11 MB file, 0.65 s to save and 0.1 s to load here, three or four times
#: that on a Pi, at every answer), while more than six photos of a face did not read real dice better
#: (docs/taught-dice.md). The newest answers are kept: they show the dice in the table's present light.
MAX_PER_FACE = 8
KEPT_FIRST = 2


def add_confirmed(profile: Profile, face: str, crop_bgr: np.ndarray, light: np.ndarray | None = None) -> Path | None:
    """A player confirmed what an unknown die shows: keep it as one more example, taken in ``light``
    (``face_marks.table_light`` of its frame), and save at once; None when it was not kept (a face that always
    carries a mark, seen without one: its top face was not found). A face already holding MAX_PER_FACE examples
    lets its oldest answer go.

    This is how the reader gets better during the evening: the next roll of that face, in that light, matches.
    """
    try:
        profile.add(face, crop_bgr, light=light)
    except MarkNotSeen:
        return None
    rows = [i for i, n in enumerate(profile.names) if n == face]
    if len(rows) > MAX_PER_FACE:
        profile.remove(rows[KEPT_FIRST:len(rows) - MAX_PER_FACE + KEPT_FIRST])
    return save_profile(profile)


def example_key(vector: np.ndarray) -> str:
    """A short name of one example, from its descriptor as stored (float32): the journal keeps it to find the
    example again after a restart."""
    return hashlib.sha256(np.asarray(vector, np.float32).tobytes()).hexdigest()[:16]


def drop_confirmed(profile: Profile, face: str, key: str) -> Path | None:
    """Take back an example ``add_confirmed`` kept (``key``: the ``example_key`` of its descriptor), and save; None
    when the profile no longer holds it (taught anew since, or described again by another version of the reader).

    Why: a player who pressed the wrong face and then undid the step expects the slip gone, not kept as an example
    that has every later die of that face named after it."""
    return save_profile(profile) if take_example(profile, face, key) else None


def take_example(profile: Profile, face: str, key: str) -> bool:
    """Remove the example of ``face`` named ``key`` (its ``example_key``) from ``profile`` in memory; False when
    it holds none such (taken out since, or settled away as unlike the others). The caller saves."""
    rows = [i for i, n in enumerate(profile.names) if n == face and example_key(profile.vectors[i]) == key]
    if rows:
        profile.remove(rows[-1:])
    return bool(rows)
