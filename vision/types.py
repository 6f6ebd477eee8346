"""What every dice reader returns, whatever it reads (pips or taught faces)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np


@dataclass(frozen=True)
class DieReading:
    """One die as read from one frame.

    ``face`` is ``None`` when the reader is not sure: the screen then asks the player (offering ``guess`` first).
    For pip dice it is an int 1-6; for taught dice it is the face name of the dice set (a str).
    ``box`` is (x0, y0, x1, y1) in pixels of the frame that was read.
    ``guess`` is, for a die not read for sure, the face the reader found nearest when it is near enough to offer:
    the screen's question starts there, so a player whose die shows it confirms with one press. None otherwise
    (a die read for sure, or no face near enough; the pip reader names none: its net is seldom unsure).
    """

    face: int | str | None
    confidence: float
    box: tuple[int, int, int, int]
    guess: int | str | None = None

    def to_json(self) -> dict:
        out = {"face": self.face, "confidence": round(float(self.confidence), 3), "box": list(self.box)}
        if self.guess is not None:
            out["guess"] = self.guess
        return out

    @property
    def label(self) -> str:
        """The die in words for a person (``companion read``'s lines, ``vision.annotate``'s boxes): its face, or
        UNSURE. Not a bare "?": Echt Spitze has a face of that name (any number), read for sure."""
        return UNSURE if self.face is None else str(self.face)


#: how a die the reader is not sure of is written where a person reads it (the screens draw it magenta)
UNSURE = "(?)"


@dataclass(frozen=True)
class TrayReading:
    """All dice read from one frame (or combined over several still frames)."""

    dice: tuple[DieReading, ...] = field(default_factory=tuple)
    ms: float = 0.0

    @property
    def faces(self) -> list[int | str | None]:
        return [d.face for d in self.dice]


@dataclass(frozen=True)
class DiePicture:
    """A die as the camera saw it with a little of the tray round it: "die 15" on the screen is found in the tray by
    its colour and its neighbours. ``pixels``: BGR, as the frame; ``box``: the die's (x0, y0, x1, y1) in them."""

    pixels: np.ndarray
    box: tuple[int, int, int, int]

    #: the tray kept on each side, as a share of the die's size: enough of its neighbours to find it by
    MARGIN = 0.6

    @classmethod
    def cut(cls, frame: np.ndarray, box: tuple[int, int, int, int]) -> DiePicture | None:
        """The die at ``box`` of ``frame`` (clipped to the frame); None where nothing of it is in the frame."""
        h, w = frame.shape[:2]
        x0, y0, x1, y1 = (int(v) for v in box)
        m = int(round(cls.MARGIN * max(x1 - x0, y1 - y0)))
        left, top, right, bottom = max(0, x0 - m), max(0, y0 - m), min(w, x1 + m), min(h, y1 + m)
        if right - left < 2 or bottom - top < 2 or x1 <= x0 or y1 <= y0:
            return None
        return cls(frame[top:bottom, left:right], (x0 - left, y0 - top, x1 - left, y1 - top))
