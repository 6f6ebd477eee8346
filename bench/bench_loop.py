"""How long one frame of the app loop takes with the synthetic tray: update + draw + scale + present.

Runs headless (SDL dummy driver) for a few hundred frames per window size with the real free-play screen, the
dice watcher reading the synthetic tray in its thread and a throw every 2.5 s, and prints a table. The Pi's budget
at 30 fps is 33 ms per frame.

    python bench/bench_loop.py [--frames 300]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")


def measure(size: tuple[int, int], frames: int) -> dict[str, float]:
    import pygame

    from companion.app import GAME_ENTRIES, App
    from companion.config import Config
    from companion.display import Display
    from hardware.events import Button, ButtonEvent

    cfg = Config()
    cfg.display.width, cfg.display.height = size
    display = Display(size, fullscreen=False)
    with tempfile.TemporaryDirectory() as state:
        app = App(cfg, source_spec="synthetic", state_dir=Path(state), display=display)
        app.new_game(GAME_ENTRIES["free-play"], {})
        times: list[float] = []
        for i in range(frames):
            if i % 75 == 0:  # a throw every 2.5 s: time to settle and be read
                app.on_button(ButtonEvent(Button.ROLL))
            start = time.perf_counter()
            app.frame(1 / 30, [])
            times.append((time.perf_counter() - start) * 1000)
            time.sleep(max(0.0, 1 / 30 - times[-1] / 1000))
        reads = len(app.session.engine.rolls)
        app.close()
    pygame.display.quit()
    times.sort()
    return {"median": statistics.median(times), "p95": times[int(len(times) * 0.95) - 1], "max": times[-1],
            "reads": reads}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--frames", type=int, default=300)
    args = ap.parse_args()
    rows = []
    for size in ((800, 480), (1280, 720)):
        r = measure(size, args.frames)
        rows.append((f"{size[0]}x{size[1]}", args.frames, r["median"], r["p95"], r["max"], r["reads"]))
    print(f"{'window':>10} {'frames':>7} {'median ms':>10} {'p95 ms':>8} {'max ms':>8} {'rolls read':>11}")
    for w, n, med, p95, mx, reads in rows:
        print(f"{w:>10} {n:>7} {med:>10.2f} {p95:>8.2f} {mx:>8.2f} {reads:>11}")
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    raise SystemExit(main())
