"""What every dice reader returns, whatever it reads (pips or taught faces)."""

from __future__ import annotations

from dataclasses import dataclass, field


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
