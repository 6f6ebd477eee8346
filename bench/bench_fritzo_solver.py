"""How long the Fritzo solver takes for the questions players ask at the table, on one core.

The target is <= 1 s for a full 27-cube completion from an empty start (the players wait for the hint). Each
case runs several times; the table shows the best and the median wall time, the search nodes and the answer.
Every found completion is re-checked by the independent rule checker before it is counted.

Cases: the built-in set as it is, and the same 27 cubes shuffled and each taught in another orientation (so
nothing depends on the stored order or orientation); completions from a partial building; a proof that none
exists; and the single-cube question ("where can this cube go?") on a half-built cube.

    python bench/bench_fritzo_solver.py [--repeat 5] [--variants 5]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.games.fritzo.cubeset import Cube, CubeSet, default_construction, default_set  # noqa: E402
from companion.games.fritzo.geometry import orient  # noqa: E402
from companion.games.fritzo.rules import CUBE_LIMITS, Contact, Goal, check_goal  # noqa: E402
from companion.games.fritzo.solver import Completion, Solver, Status, forget_answers  # noqa: E402

TARGET_S = 1.0


def shuffled(seed: int) -> CubeSet:
    rng = random.Random(seed)
    cubes = [Cube(f"k{i}", orient(c.faces, rng.randrange(24))) for i, c in enumerate(default_set().cubes)]
    rng.shuffle(cubes)
    return CubeSet.checked(cubes)


def verified(cubeset: CubeSet, start: dict, result: Completion, goal: Goal) -> str:
    if result.status is not Status.FOUND:
        return result.status.value
    final = dict(start)
    final.update({p.cell: orient(cubeset.cube(p.cube).faces, p.rotation) for p in result.placements})
    return "found+checked" if check_goal(final, goal).ok else "WRONG"


def timed(fn: Callable[[], object], repeat: int, *, remembered: bool = False) -> tuple[float, float, object]:
    """Best and median time of ``fn``; each run searches anew unless ``remembered`` (the solver's memory kept)."""
    times, out = [], None
    for _ in range(repeat):
        if not remembered:
            forget_answers()
        t0 = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t0)
    return min(times), statistics.median(times), out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--variants", type=int, default=5, help="shuffled and re-turned copies of the set")
    args = ap.parse_args()

    rows: list[tuple[str, float, float, int, str]] = []
    sets = [("built-in", default_set())] + [(f"shuffled #{i}", shuffled(i)) for i in range(args.variants)]
    for name, cubeset in sets:
        for goal in Goal:
            def run(cs: CubeSet = cubeset, g: Goal = goal) -> Completion:
                return Solver(cs).complete({}, cs.ids, g)  # includes building the solver's tables
            best, med, result = timed(run, args.repeat)
            rows.append((f"{goal.value} from empty, {name}", best, med, result.nodes,  # type: ignore[union-attr]
                         verified(cubeset, {}, result, goal)))  # type: ignore[arg-type]

    d = default_construction()
    base = default_set()
    forget_answers()
    Solver(base).complete({}, base.ids, Goal.PROFESSIONAL)
    again = Solver(base)
    best, med, result = timed(lambda: again.complete({}, base.ids, Goal.PROFESSIONAL), args.repeat, remembered=True)
    rows.append(("professional from empty asked again (remembered)", best, med, result.nodes,  # type: ignore[union-attr]
                 verified(base, {}, result, Goal.PROFESSIONAL)))  # type: ignore[arg-type]
    for n in (1, 2, 4, 9, 18):
        cells = sorted(d.professional, key=lambda c: (c[2], c[1], c[0]))[:n]
        start = {c: orient(base.cube(d.professional[c][0]).faces, d.professional[c][1]) for c in cells}
        left = [i for i in base.ids if i not in {d.professional[c][0] for c in cells}]
        best, med, result = timed(lambda s=start, lf=left: Solver(base).complete(s, lf, Goal.PROFESSIONAL),
                                  args.repeat)
        rows.append((f"professional after {n} cubes", best, med, result.nodes,  # type: ignore[union-attr]
                     verified(base, start, result, Goal.PROFESSIONAL)))  # type: ignore[arg-type]

    bottom = {c: orient(base.cube(i).faces, r) for c, (i, r) in d.professional.items() if c[2] == 0}
    used = {d.professional[c][0] for c in bottom}
    left = [i for i in base.ids if i not in used]
    best, med, result = timed(lambda: Solver(base).complete(bottom, left, Goal.BEGINNER), args.repeat)
    rows.append(("beginner on a professional floor (none)", best, med, result.nodes,  # type: ignore[union-attr]
                 result.status.value))  # type: ignore[union-attr]

    half = {c: orient(base.cube(i).faces, r) for c, (i, r) in d.professional.items() if c[2] < 2}
    left = [i for i in base.ids if i not in {d.professional[c][0] for c in half}]
    solver = Solver(base)
    best, med, found = timed(lambda: solver.placements(half, left, Contact.SAME, CUBE_LIMITS), args.repeat)
    rows.append(("where can the 9 cubes left go (18 standing)", best, med, 0,
                 f"{len(found)} placements"))  # type: ignore[arg-type]

    width = max(len(r[0]) for r in rows)
    print(f"{'case':<{width}}  {'best ms':>9}  {'median ms':>9}  {'nodes':>7}  answer")
    print("-" * (width + 48))
    worst_empty = 0.0
    for name, best, med, nodes, answer in rows:
        print(f"{name:<{width}}  {best * 1000:9.1f}  {med * 1000:9.1f}  {nodes:7d}  {answer}")
        if "from empty" in name and "remembered" not in name:
            worst_empty = max(worst_empty, med)
    verdict = "OK" if worst_empty <= TARGET_S else "TOO SLOW"
    print(f"\nslowest full completion from empty (median): {worst_empty * 1000:.1f} ms;"
          f" target {TARGET_S * 1000:.0f} ms: {verdict}")
    wrong = [r for r in rows if r[4] == "WRONG"]
    return 1 if wrong or worst_empty > TARGET_S else 0


if __name__ == "__main__":
    sys.exit(main())
