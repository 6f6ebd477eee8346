"""bench/tune_taught.py's replay of the reader's decision on recorded distances (the tolerances are tuned on it)."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))

import tune_taught  # noqa: E402

from vision import taught  # noqa: E402


def _row(worst: float, blurred: float | None, *, untaught: bool = False) -> np.ndarray:
    """A reading whose nearest face is right, at ``worst`` of the shape tolerance, sure by its ratio; blurred, its
    nearest example at ``blurred`` of it (None: not recorded, as outside the band)."""
    row = np.full(11 + 5 * len(taught.BLURS), np.nan)
    row[:11] = [0, 0 if untaught else 1, 1, 0, *(np.array([worst, 0, 0, 0, 0]) * taught.tolerances(False)), 10.0, 0]
    if blurred is not None:
        for k in range(len(taught.BLURS)):
            row[11 + 5 * k:16 + 5 * k] = np.array([blurred + 0.1 * k, 0, 0, 0, 0]) * taught.tolerances(False)
    return row


def _answered(*rows: np.ndarray) -> tuple[float, int]:
    """Share of the taught readings answered, and untaught readings answered, at the module's tolerances."""
    right, _, untaught = tune_taught.evaluate(np.stack(rows), taught.SHAPE_TOL, taught.LOCAL_TOL, taught.BODY_TOL,
                                              taught.RATIO)
    return right[0], untaught


def test_the_replay_checks_an_answer_near_the_edge_blurred_as_the_reader_does():
    """``taught._holds_blurred``: an answer beyond LATER_DISTANCE that blurring brings nearer must come within it;
    one that blurring takes further, or one well within the tolerance, stands. Without this the replay named 7
    untaught faces on the eight tuning seeds at the shipped tolerances, with it 3."""
    assert taught.LATER_DISTANCE < 0.9
    assert _answered(_row(0.9, 0.7)) == (1.0, 0)  # blurred within LATER_DISTANCE: the examples were softer
    assert _answered(_row(0.9, 1.3)) == (1.0, 0)  # the blur takes it further: examples as sharp as the query
    assert _answered(_row(0.9, None)) == (1.0, 0)  # not recorded: outside the band, not checked
    assert _answered(_row(0.5, 0.45)) == (1.0, 0)  # well within: not checked
    assert _answered(_row(0.9, 0.85)) == (0.0, 0)  # nearer blurred, yet not within: withdrawn, asked about
    assert _answered(_row(0.9, 0.85, untaught=True))[1] == 0
    assert _answered(_row(0.9, 0.7, untaught=True))[1] == 1
    assert _answered(_row(1.1, 0.5)) == (0.0, 0)  # beyond the tolerance: the blur check never answers
