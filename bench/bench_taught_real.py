"""The taught reader on real photos: taught the pip faces of real dice from a few photos, then reading others.

No photos of the games' symbol dice exist (docs/taught-dice.md), but a pip face is a symbol like any other, and the
folders of ../shared/datasets are real photos of real dice from other people's cameras. They show what the rendered
benchmark (bench_taught.py) cannot: real plastic and print, real lamps and shadows, a webcam's oblique view, the
finder's real crops. Per folder and seed:

- teach: ``--examples`` dice per face (default 2, as the issue's target says), drawn at random from the folder's
  *train* photos and found and cropped as ``companion teach --examples`` does (the finder's die whose centre lies in
  the labelled box); a die the finder does not see, or seen without a mark (``taught.MarkNotSeen``: the teaching
  screen asks for it again), is drawn again, as a player would throw it again, and so is a blurred one
  (``taught.TooSoft``), up to AGAIN times in a row;
- read: every labelled die of the *held-out* photos, found the same way and matched against the profile: right,
  unknown (the screen would ask) or wrong. A labelled die with no die of the finder's in its box is ``missed``, as
  is one whose die of the finder's holds another labelled die too (touching dice; the teaching skips them);
- extra: every held-out photo read whole, as a game's set is read (``find_any_dice``, ``distinct_dice``, ``match``,
  ``dice_of_the_set``: ``companion.teach.read_taught`` but for the pip reader that ``d6`` itself goes to): readings
  of no labelled die (a laptop's key, a tray's screw, a die cut in pieces), and each reading of a labelled die after
  its first. At the table each is a die the screen shows that is not there. A reading is of the labelled die whose
  centre its finder's box holds, or whose box holds the centre of the top face it read (seen from beside the tray,
  the finder's box can sit on a die's side, while the label marks its top: matteo-d6, 4 readings a seed);
- untaught: each face in turn is left out of the teaching and its held-out dice are read again: every face named
  then is a confident answer on a face never taught (``conf.``, target 0). The held-out dice of a face the teaching
  could not teach (no train photo shows it, or the finder found none of its dice there) are such dice as they are.

``--evening``: as in bench_taught.py, every die the reader asks about (or reads wrong) is answered by the players and
kept as an example, in the held-out photos' order; the untaught faces are read afterwards, against the grown profile.

byler-d6's dice have many body colours (ivory, red, blue, green, translucent): the body's colour is part of a taught
face, so a face taught on a red die is, rightly, not the same face on a blue one, and its "unknown" is high by
design. Its "wrong" must still be 0. matteo-d6 (one set of ivory dice, oblique webcam) is the fair accuracy row.

    python bench/bench_taught_real.py [--examples 2] [--seed 0[,1,...]] [--evening] [--look warm] [--datasets DIR]
                                      [--set echt-spitze]

``--set``: the photos show another dice set's dice (default ``d6``, pip faces 1-6), the issue's real photos of
symbol dice when they come: every folder of ``--datasets`` laid out as ../shared/datasets' are (``images/`` and a
``labels.csv``, ``image,face,x_min,y_min,x_max,y_max``, box corners 0..1), each ``face`` a face name of the set as
``companion teach --examples`` takes it ("?", "3+X", "red"). A folder whose labels name a face the set does not
have is said before anything is measured. The split into train and held-out photos is the pip folders' one
(``vision.datasets``: blocks of consecutive photos); the set is taught from the train photos as above.

``--look`` reads the held-out photos as in another light (bench/camera_looks.py, simulated), the teaching photos as
they are: a set taught by daylight and read under the evening's lamps. Each example keeps the light of its photo and
each die is read in the light of its own (``face_marks.table_light``), as at the table: a die left unknown is read
again against the examples as that light shows them (``taught.Profile.under``).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Iterator
from functools import partial
from pathlib import Path

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import cv2  # noqa: E402 - after the thread settings above
import numpy as np  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "bench")]

import camera_looks  # noqa: E402
from bench_dice_read import pin_one_core  # noqa: E402
from bench_taught import AGAIN, ms_per_die, over_seeds, settle_asking  # noqa: E402
from yardstick import line, yardstick  # noqa: E402

from companion import dicesets  # noqa: E402
from vision import face_outline, taught  # noqa: E402
from vision.datasets import default_datasets, folders, holdout_names, select  # noqa: E402
from vision.detect import DieCandidate, candidate_at, find_any_dice, held_twice  # noqa: E402
from vision.face_marks import table_light  # noqa: E402


class LabelError(ValueError):
    """A labels.csv naming a face the dice set does not have: said, not taught as a face of its own."""


class Photos:
    """The folder's photos, each read and searched for dice once (the finder's work is per photo, not per die), and
    its labels, read as faces of the dice set ``set_name``."""

    def __init__(self, folder: Path, looks: list[str] | None = None, set_name: str = "d6") -> None:
        self.folder = folder
        self.dice_set = dicesets.load(set_name)
        self._found: dict[str, tuple[np.ndarray, list[DieCandidate]]] = {}
        self._labels = select(folder, "all", str)
        faces = {str(d.face) for dice in self._labels.values() for d in dice}
        wrong = sorted(f for f in faces if not self.dice_set.accepts(f))
        if wrong:
            raise LabelError(f"{folder / 'labels.csv'} names faces that the dice set {set_name!r} does not have: "
                             f"{', '.join(wrong)} (its faces: {', '.join(self.dice_set.face_names())}); mend the "
                             "labels, or give the set the photos show with --set")
        self._twice: dict[str, set[int]] = {}
        self._looks = looks or []
        self._held = holdout_names(folder.name, list(self._labels))

    def labels(self, split: str) -> dict[str, list]:
        """The labelled photos of ``split`` (as ``vision.datasets.select`` splits them, from the labels read once),
        each die's face a face name of the set."""
        if split == "all":
            return dict(self._labels)
        return {n: d for n, d in self._labels.items() if (n in self._held) == (split == "holdout")}

    def found(self, name: str) -> tuple[np.ndarray | None, list[DieCandidate]]:
        """The photo and the finder's dice in it; a held-out photo as ``looks`` make it (the light of the evening
        changed since the teaching)."""
        if name not in self._found:
            frame = cv2.imread(str(self.folder / "images" / name), cv2.IMREAD_COLOR)
            if frame is not None and name in self._held:
                frame = camera_looks.apply(frame, self._looks, name)
            cands = find_any_dice(frame, plain=self.dice_set.plain_cubes) if frame is not None else []
            self._found[name] = (frame, cands)
        return self._found[name]

    def die(self, name: str, box: tuple[float, float, float, float]) -> np.ndarray | None:
        """The crop of the finder's die in this labelled box (as ``companion teach --examples``), or None: also
        where that die holds another labelled die of the photo too (``held_twice``: the teaching skips both)."""
        frame, cands = self.found(name)
        if frame is None:
            return None
        h, w = frame.shape[:2]
        if name not in self._twice:
            self._twice[name] = held_twice(cands, [_pixels(d.box, w, h) for d in self._labels.get(name, [])])
        cand = candidate_at(cands, _pixels(box, w, h))
        return None if cand is None or id(cand) in self._twice[name] else face_outline.die_crop(frame, cand)

    def light(self, name: str) -> np.ndarray | None:
        """The light on the table in this photo (``face_marks.table_light``), as the companion measures it."""
        frame, _ = self.found(name)
        return None if frame is None else table_light(frame)


def _pixels(box: tuple[float, float, float, float], w: int, h: int) -> tuple[float, float, float, float]:
    return box[0] * w, box[1] * h, box[2] * w, box[3] * h


def teach(photos: Photos, examples: int, rng: np.random.Generator) -> taught.Profile:
    """``examples`` dice per face from the train photos, drawn at random; a die the finder missed, or whose pips
    were not seen, is drawn again, and so is one more when a face's photos do not look alike
    (``taught.Profile.settle``, as bench_taught.teach). Every face the train photos show is taught (a face only the
    held-out photos show is a face nobody taught: ``run``)."""
    by_face: dict[str, list[tuple[str, tuple]]] = {}
    for name, dice in sorted(photos.labels("train").items()):
        for d in dice:
            by_face.setdefault(str(d.face), []).append((name, d.box))
    profile = taught.Profile(photos.dice_set.name, blank_faces=photos.dice_set.blank_faces())
    for face in sorted(by_face):
        dice = (by_face[face][k] for k in rng.permutation(len(by_face[face])))  # drawn as needed
        _take(photos, profile, face, dice, examples)
        settle_asking(profile, face, partial(_take, photos, profile, face, dice, 1))
    return profile


def _take(photos: Photos, profile: taught.Profile, face: str, dice: Iterator[tuple[str, tuple]], examples: int
          ) -> None:
    """Teach the next ``examples`` of ``dice`` (photo name, box) that the finder finds and whose pips are seen."""
    taken = blurred = 0
    for name, box in dice:
        crop = photos.die(name, box)
        if crop is None:
            continue
        try:
            profile.add(face, crop, sharp=blurred < AGAIN, light=photos.light(name))
        except taught.MarkNotSeen:  # the teaching screen asks for that die again
            continue
        except taught.TooSoft:  # ... and for another photo, AGAIN times in a row, when it is blurred
            blurred += 1
            continue
        taken, blurred = taken + 1, 0
        if taken == examples:
            return


def without(profile: taught.Profile, face: str) -> taught.Profile:
    """The profile as if nobody had taught ``face``: its dice must then come back unknown."""
    fewer = taught.Profile(profile.set_name, list(profile.names), profile.vectors, crops=None,
                           blank_faces=profile.blank_faces, side=profile.side, lights=profile.lights)
    fewer.remove([i for i, n in enumerate(profile.names) if n == face])
    return fewer


def run(folder: Path, examples: int, seed: int, evening: bool = False, looks: list[str] | None = None,
        set_name: str = "d6") -> dict:
    """One folder's row: taught from its train photos, its held-out photos read (see the docstring). The held-out
    dice of a face that was not taught count as untaught at once."""
    photos = Photos(folder, looks, set_name)
    profile = teach(photos, examples, np.random.default_rng(seed))
    out = {"set": folder.name, "dice": 0, "missed": 0, "extra": 0, "right": 0, "unknown": 0, "wrong": 0, "untaught": 0,
           "confident": 0, "times": []}
    taught_faces = sorted(set(profile.names))
    held: list[tuple[str, np.ndarray, np.ndarray | None]] = []  # dice of a taught face
    never: list[tuple[str, np.ndarray, np.ndarray | None]] = []  # dice of a face not taught
    photos_held = sorted(photos.labels("holdout").items())
    for name, dice in photos_held:
        for d in dice:
            crop = photos.die(name, d.box)
            if crop is None:
                out["missed"] += 1
                continue
            (held if str(d.face) in taught_faces else never).append((str(d.face), crop, photos.light(name)))
    out["extra"] = sum(extra_readings(photos, profile, name, dice) for name, dice in photos_held)
    for face, crop, light in held:
        t0 = time.perf_counter()
        m = taught.match(profile, crop, light)
        out["times"].append(time.perf_counter() - t0)
        out["dice"] += 1
        out["right"] += m.face == face
        out["unknown"] += m.face is None
        out["wrong"] += m.face is not None and m.face != face
        if evening and m.face != face:  # the players answer, and the answer is kept (profiles.add_confirmed)
            try:
                profile.add(face, crop, light=light)
            except taught.MarkNotSeen:
                pass
    for left_out in taught_faces:
        fewer = without(profile, left_out)
        for face, crop, light in held:
            if face == left_out:
                out["untaught"] += 1
                out["confident"] += taught.match(fewer, crop, light).face is not None
    out["untaught"] += len(never)
    out["confident"] += sum(taught.match(profile, crop, light).face is not None for _, crop, light in never)
    return out


def extra_readings(photos: Photos, profile: taught.Profile, name: str, dice: list) -> int:
    """How many readings of the whole photo are of no labelled die, or of one read already (see the docstring); of
    several labelled dice, the one nearest to the top face read."""
    frame, cands = photos.found(name)
    if frame is None:
        return 0
    found = face_outline.distinct_dice(frame, cands)
    light = table_light(frame)
    matches = [taught.match(profile, f.crop, light) for f in found]
    h, w = frame.shape[:2]
    centres = [(d.center[0] * w, d.center[1] * h) for d in dice]
    read: set[int] = set()
    extra = 0
    boxes = [_pixels(d.box, w, h) for d in dice]
    for i in taught.dice_of_the_set(profile, found, matches, light):
        x0, y0, x1, y1 = found[i].cand.box
        tx, ty = found[i].top_centre
        inside = [k for k, (x, y) in enumerate(centres) if x0 <= x <= x1 and y0 <= y <= y1
                  or boxes[k][0] <= tx <= boxes[k][2] and boxes[k][1] <= ty <= boxes[k][3]]
        if not inside:
            extra += 1
            continue
        k = min(inside, key=lambda k: (centres[k][0] - tx) ** 2 + (centres[k][1] - ty) ** 2)
        extra += k in read
        read.add(k)
    return extra


def row(r: dict) -> str:
    read = max(1, r["dice"])
    ms, ms95 = ms_per_die(r["times"])
    return (f"{r['set']:12} {r['dice']:5d} {r['missed']:6d} {r['extra']:5d} {r['right'] / read:7.1%} "
            f"{r['unknown'] / read:7.1%} {r['wrong']:5d} {r['untaught']:8d} {r['confident']:5d} {ms:6.2f} {ms95:5.2f}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--examples", type=int, default=2, help="teaching photos per face")
    ap.add_argument("--seed", default="0", help="a seed, or several separated by commas (then pooled rows too)")
    ap.add_argument("--datasets", type=Path, default=default_datasets())
    ap.add_argument("--evening", action="store_true", help="every answer the players give becomes an example")
    ap.add_argument("--look", help="the held-out photos as in another light, e.g. warm or dark (bench/camera_looks.py; "
                    "simulated): taught in one light, read in another")
    ap.add_argument("--set", default="d6", help="the dice set the photos show, whose face names the labels give "
                    "(default d6: pip faces 1-6); e.g. echt-spitze for folders of real Echt Spitze dice")
    args = ap.parse_args(argv)
    found = folders(args.datasets)
    try:
        looks = camera_looks.parse(args.look)
        for folder in found:  # every folder's labels checked before anything is measured
            if not Photos(folder, set_name=args.set).labels("holdout"):
                print(f"{folder}: no held-out photos, so its row reads nothing (the split holds out a fifth of the "
                      "folder's blocks of ten photos in a row, at least one block of two or more: more than ten "
                      "photos)", file=sys.stderr)
    except (ValueError, dicesets.DiceSetError) as exc:
        print(exc, file=sys.stderr)
        return 2
    if not found:
        print(f"No dataset folders (with a labels.csv) in {args.datasets}.", file=sys.stderr)
        return 2
    pin_one_core()
    before = yardstick()
    if looks:
        print(f"held-out photos seen as {'+'.join(looks)} (simulated), the teaching photos as they are")
    print(f"{'folder':12} {'dice':>5} {'missed':>6} {'extra':>5} {'right':>7} {'unknown':>7} {'wrong':>5} "
          f"{'untaught':>8} {'conf.':>5} {'ms/die':>6} {'p95':>5}")
    over_seeds([int(s) for s in args.seed.split(",")], found,
               lambda folder, seed: run(folder, args.examples, seed, args.evening, looks, args.set), row)
    print("held-out photos; right = face read and correct; extra = readings of no die or of one read already; "
          "conf. = dice of a face left out of the teaching (or that it could not teach) that were named "
          "anyway (target 0); ms/die = match on one core (finding the dice is per photo)")
    print(line(before, yardstick()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
