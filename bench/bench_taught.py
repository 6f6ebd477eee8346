"""Taught-dice benchmark: accuracy per set after teaching, confident answers on untaught faces, ms per die.

Rendered made-up dice (artwork: hardware/game_dice.py; photos: tests/synth_dice.py). Five levels, each a row per set:
- ``crop``: the matcher alone on photo-like crops (rotation, perspective, light, glare, noise, blur, JPEG).
- ``tray``: the whole path on hardware.synthetic trays, as ``companion.teach.read_taught`` takes it: find_any_dice,
  each die once (face_outline.distinct_dice), crop (face_outline.die_crop, which crops a cut die again), match. A
  die is read by the reading whose top face lies on its top face (``synth_dice.tray_readings``); dice no reading is
  of are counted apart (``missed``: the finder's, not the matcher's), and so are readings of no die or of a die
  read already (``extra``: dice the screen would show that are not there, or twice). ms/die here covers die_crop
  and match (finding the dice is per frame, and so is the light on the table, ``face_marks.table_light``: measured
  per die until the fifty-second session, 0.2-0.3 ms of every die's time). Until the twenty-fifth session a die was
  read by the finder's candidate nearest its box's centre, and no extra readings were counted.
- ``oblique``: the same trays seen by a webcam beside the tray (hardware.synthetic.OBLIQUE: 32-50 degrees from
  straight down), taught and read so: the dice's sides show as much as their tops, as in the matteo-d6 photos.
- ``tray+sides`` and ``oblique+sides``: the same, with the dice's sides showing their other faces, as real dice's
  do (the renderer's sides are plain otherwise): the top-face finder must leave those marks out.
Teaching uses ``--examples`` (default 2) photos per face, and up to AGAIN more of a face whose photos do not show the
same mark (``taught.Profile.settle``, as the teaching screen asks); a blurred photo (``taught.TooSoft``) is shown
again up to AGAIN times in a row, then kept (since the thirty-seventh session); untaught faces must come back unknown.
On trays, each example keeps the light of its frame and each die is read in the light of its own
(``face_marks.table_light``, ``taught.match``'s ``light``), as at the table; a crop alone has none.

``--evening``: the player answers every die the reader asks about and corrects every wrong one, and the answer
becomes one more example (as ``companion.profiles.add_confirmed`` does at the table): the rows then say how often
the players were asked over the evening, and the untaught faces, read after it, whether the grown profile still
leaves them unknown.

``--seed 0,1,2,3`` runs several seeds (each its own dice, lamps and teaching photos) and ends with their pooled rows:
one seed's row of 150 dice cannot tell 99 from 98 % (one die is 0.7 points), the pooled rows of 600 can better.
Last, for each row with faces named wrongly or untaught faces answered, which ones and as what over all seeds
(``"7" as "?" x16``): a rule that refuses look-alikes has to know which kinds there are, and four seeds name too
few to tell them apart (docs/taught-dice.md, "Untaught look-alikes": forty seeds of Echt Spitze seen from the side).

    python bench/bench_taught.py [--n 20] [--examples 2] [--seed 0[,1,...]] [--level crop,tray] [--sets fritzo]
                                 [--evening]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections import Counter
from functools import partial
from pathlib import Path

# one core means one thread for the linear algebra too (numpy's BLAS would otherwise start a thread per core and
# fight over the one core it is pinned to); set before numpy is imported
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import cv2  # noqa: E402 - after the thread settings above
import numpy as np  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from synth_dice import TAUGHT_FACES, UNTAUGHT_FACES, crops, tray_readings  # noqa: E402
from yardstick import line, yardstick  # noqa: E402

from companion import dicesets  # noqa: E402
from companion.profiles import blank_faces  # noqa: E402
from hardware.synthetic import OBLIQUE  # noqa: E402
from vision import face_outline, taught  # noqa: E402
from vision.detect import find_any_dice  # noqa: E402
from vision.face_marks import table_light  # noqa: E402


def _crop_items(set_name, faces, n, rng, profile=None):
    """(face, the die's crop) per photo, and 0 readings of no die."""
    return [(f, c) for f in faces for c in crops(set_name, f, n, rng)], 0


def _tray_items(set_name, faces, n, rng, oblique=False, marked_sides=False, profile=None):
    """(face, (frame, candidate) or None when the reader read no top face of that die) per die, and how many
    readings were of no die or of a die read already (``synth_dice.tray_readings``; with the taught ``profile``,
    a die's side read as one more die is left out as the reader does)."""
    todo = [f for f in faces for _ in range(n)]
    rng.shuffle(todo)
    out = []
    extra = 0
    while todo:
        k = int(rng.integers(1, 5))
        batch, todo = todo[:k], todo[k:]
        tilt = float(rng.uniform(*OBLIQUE)) if oblique else None
        frame, found, more = tray_readings(set_name, batch, rng, tilt=tilt, marked_sides=marked_sides,
                                           profile=profile)
        out += [(f, None if d is None else (frame, d.cand)) for f, d in found]
        extra += more
    return out, extra


#: "+sides": the dice's sides show their other faces, as real dice's do (the renderer's sides are plain otherwise)
LEVELS = {"crop": _crop_items, "tray": _tray_items, "oblique": partial(_tray_items, oblique=True),
          "tray+sides": partial(_tray_items, marked_sides=True),
          "oblique+sides": partial(_tray_items, oblique=True, marked_sides=True)}


def _crop(item) -> np.ndarray:
    """The crop the matcher reads: a crop level item is one; a tray's (frame, candidate) is cropped by die_crop."""
    return face_outline.die_crop(*item) if isinstance(item, tuple) else item


def _light(item) -> np.ndarray | None:
    """The light on the table the die lies on (``face_marks.table_light``): a tray's; None for a crop alone."""
    return table_light(item[0]) if isinstance(item, tuple) else None


def teach(set_name: str, gen, examples: int, rng: np.random.Generator) -> taught.Profile:
    """A profile taught ``examples`` photos of every face the tests teach, as a player would teach it: with the
    dice set's knowledge of which faces may be blank, as ``companion.profiles`` loads it, and a die the finder
    missed, or whose mark the teaching screen did not see (``taught.MarkNotSeen``), thrown again, a blurred photo
    (``taught.TooSoft``) and a face whose photos do not look alike (``taught.Profile.settle``) shown again."""
    profile = taught.Profile(set_name, blank_faces=blank_faces(set_name))
    # the photos asked for once more come from a generator of their own: the dice read afterwards stay the same
    # whatever the teaching asked for, so two readers' rows compare the same dice
    # (numpy 1.24, a Pi's from the OS beside picamera2, names it _seed_seq: the same stream either way)
    seeds = getattr(rng.bit_generator, "seed_seq", None) or rng.bit_generator._seed_seq
    again = np.random.default_rng(seeds.spawn(1)[0])
    for face in TAUGHT_FACES[set_name]:
        _take(profile, face, examples, gen, rng, again)
        settle_asking(profile, face, partial(_take, profile, face, 1, gen, again, again))
    return profile


#: how often the teaching asks for one more photo of a face (photos that disagree, a blurred photo), as the screen does
AGAIN = taught.ASK_AGAIN


def settle_asking(profile: taught.Profile, face: str, one_more) -> None:
    """Settle ``face``'s photos as the teaching screen does: while they disagree, up to AGAIN times, teach
    ``one_more()`` photo of it; the last one is settled too (it may agree with one of the others)."""
    for _ in range(AGAIN):
        if profile.settle(face) != "disagree":
            return
        one_more()
    profile.settle(face)


def _take(profile: taught.Profile, face: str, examples: int, gen, rng: np.random.Generator,
          again: np.random.Generator) -> None:
    """Teach ``examples`` photos of ``face``, throwing a die again (up to 5 times) when it was not seen, and showing
    one again from ``again`` (up to AGAIN times in a row, then kept) when its photo is blurred
    (``taught.TooSoft``), as the teaching screen asks."""
    taken = 0
    for _ in range(5):
        for _, c in gen(profile.set_name, [face], examples, rng)[0]:
            if c is None or taken == examples:
                continue
            crop, light = _crop(c), _light(c)
            for blurred in range(AGAIN + 1):
                try:
                    profile.add(face, crop, sharp=blurred < AGAIN, light=light)
                except taught.TooSoft:
                    shown = [d for _, d in gen(profile.set_name, [face], 1, again)[0] if d is not None]
                    crop, light = (_crop(shown[0]), _light(shown[0])) if shown else (crop, light)
                    continue
                except taught.MarkNotSeen:
                    break
                taken += 1
                break
        if taken >= examples:
            break


def run(set_name: str, level: str, n: int, examples: int, seed: int, evening: bool = False) -> dict:
    rng = np.random.default_rng(seed)
    gen = LEVELS[level]
    profile = teach(set_name, gen, examples, rng)
    right = unknown = missed = 0
    times = []
    misread = []  # each taught face named wrongly, and as what
    items, extra = gen(set_name, TAUGHT_FACES[set_name], n, rng, profile=profile)
    frames = list({id(c[0]): c[0] for _, c in items if isinstance(c, tuple)}.values())
    lights = {id(frame): table_light(frame) for frame in frames}  # per frame, as read_taught measures it
    for face, c in items:
        if c is None:
            missed += 1
            continue
        light = lights[id(c[0])] if isinstance(c, tuple) else None
        t0 = time.perf_counter()
        crop = _crop(c)
        m = taught.match(profile, crop, light)
        times.append(time.perf_counter() - t0)
        right += m.face == face
        unknown += m.face is None
        if m.face is not None and m.face != face:
            misread.append(f'"{face}" as "{m.face}"')
        if evening and m.face != face:
            try:
                profile.add(face, crop, light=light)
            except taught.MarkNotSeen:
                pass  # the answer counts for the game; the teaching screen keeps no blank example of it
    untaught = 0
    named = []  # each untaught face answered, and as what: which look-alikes the profile lets pass
    for face, c in gen(set_name, UNTAUGHT_FACES[set_name], n, rng, profile=profile)[0]:
        if c is None:
            continue
        untaught += 1
        answer = taught.match(profile, _crop(c), _light(c)).face
        if answer is not None:
            named.append(f'"{face}" as "{answer}"')
    read = right + unknown + len(misread)
    find_times = []
    plain = dicesets.load(set_name).plain_cubes
    for frame in frames:  # finding the dice, and the light on the table, is per frame, not per die
        t0 = time.perf_counter()
        find_any_dice(frame, plain=plain)
        table_light(frame)
        find_times.append(time.perf_counter() - t0)
    return {"set": set_name, "level": level, "dice": read, "missed": missed, "right": right, "unknown": unknown,
            "wrong": len(misread), "untaught": untaught, "confident": len(named), "named": named, "misread": misread,
            "extra": extra, "times": times, "find_times": find_times}


def pooled(results: list[dict]) -> dict:
    """One row of several runs of the same job: names kept, counts added, times pooled."""
    out: dict = {}
    for k, v in results[0].items():
        if isinstance(v, str):
            out[k] = v
        else:
            out[k] = sum((r[k] for r in results), [] if isinstance(v, list) else 0)
    return out


def over_seeds(seeds: list[int], jobs: list, run_job, row) -> dict:
    """Run every job on every seed and print its row; with several seeds, then each job's pooled row. Returns each
    job's runs."""
    results: dict = {}
    for seed in seeds:
        if len(seeds) > 1:
            print(f"seed {seed}", flush=True)
        for job in jobs:
            r = run_job(job, seed)
            results.setdefault(job, []).append(r)
            print(row(r), flush=True)
    if len(seeds) > 1:
        print(f"seeds {','.join(map(str, seeds))} pooled")
        for runs in results.values():
            print(row(pooled(runs)))
    return results


def ms_per_die(times: list[float]) -> tuple[float, float]:
    """Median and 95th percentile in milliseconds (0 when nothing was timed)."""
    if not times:
        return 0.0, 0.0
    return 1000 * float(np.median(times)), 1000 * float(np.percentile(times, 95))


def row(r: dict) -> str:
    read = max(1, r["dice"])
    ms, ms95 = ms_per_die(r["times"])
    find = format(1000 * float(np.median(r["find_times"])), ".1f") if r["find_times"] else "-"
    return (f"{r['level']:13} {r['set']:12} {r['dice']:5d} {r['missed']:6d} {r['extra']:5d} {r['right'] / read:7.1%} "
            f"{r['unknown'] / read:7.1%} {r['wrong']:5d} {r['untaught']:8d} {r['confident']:5d} {ms:6.2f} "
            f"{ms95:5.2f} {find:>13}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n", type=int, default=20, help="photos per taught face to read")
    ap.add_argument("--examples", type=int, default=2, help="teaching photos per face")
    ap.add_argument("--seed", default="0", help="a seed, or several separated by commas (then pooled rows too)")
    ap.add_argument("--level", default=",".join(LEVELS), help="of " + ", ".join(LEVELS))
    ap.add_argument("--sets", default=",".join(TAUGHT_FACES), help="of " + ", ".join(TAUGHT_FACES))
    ap.add_argument("--evening", action="store_true", help="every answer the players give becomes an example")
    args = ap.parse_args(argv)
    cv2.setNumThreads(1)
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    before = yardstick()
    print(f"{'level':13} {'set':12} {'dice':>5} {'missed':>6} {'extra':>5} {'right':>7} {'unknown':>7} {'wrong':>5} "
          f"{'untaught':>8} {'conf.':>5} {'ms/die':>6} {'p95':>5} {'find ms/frame':>13}")
    jobs = [(level, set_name) for level in args.level.split(",") for set_name in args.sets.split(",")]
    results = over_seeds([int(s) for s in args.seed.split(",")], jobs,
                         lambda job, seed: run(job[1], job[0], args.n, args.examples, seed, args.evening), row)
    for (level, set_name), runs in results.items():  # the kinds of mistake, for a rule that may refuse them
        for key, said in (("misread", "taught faces named wrongly"), ("named", "untaught faces named")):
            kinds = Counter(n for r in runs for n in r[key])
            if kinds:
                print(f"{said}, {level} {set_name}: " + ", ".join(f"{what} x{k}" for what, k in kinds.most_common()))
    print("right = face read and correct; conf. = untaught faces answered with a face (target 0); extra = readings "
          "of no die or of one read already; "
          "targets: right >= 99 %, <= 5 ms/die; find = find_any_dice and table_light on a 640x480 tray (trays only)")
    print(line(before, yardstick()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
