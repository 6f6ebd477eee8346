"""Decide when the dice are at rest, read them once, and wait for the next throw.

Why this shape: reading is the expensive part (tens of ms) and a frame taken while a die still wobbles or a hand
hovers is worse than no frame. So every frame only gets a cheap check on a tiny grey copy (motion against the
previous frame; a hand as a big change reaching in from the frame edge against the last quiet tray). Only while
the tray is quiet are a few frames read, spread over ``still_seconds``, and their readings combined die by die,
so a single bad frame (glare, a blink of auto-exposure) does not decide. The trigger fires exactly once per rest
and re-arms when motion is seen again. The reader is a constructor argument, so taught dice reuse this.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable

import cv2
import numpy as np

from vision.frame import as_bgr, brightest
from vision.pips import read_dice
from vision.types import DieReading, TrayReading

Reader = Callable[[np.ndarray], TrayReading]

#: Width of the grey thumbnail every frame is reduced to for the motion and hand checks.
THUMB_WIDTH = 96
#: A thumbnail pixel changed by more than this (any channel) moved; more than this share of them is motion.
MOTION_LEVEL = 10.0
MOTION_SHARE = 0.004
#: a hand is a still change against the quiet tray over at least this share of the thumbnail, touching its edge
HAND_SHARE = 0.03
#: seconds a still "hand" may stay before it is taken for something put down at the edge (part of the table now)
HAND_TIMEOUT = 4.0
#: Dice thrown anew change the tray where they lay and where they lie now, shadows with them; thrown near the frame's
#: edge that change reached HAND_SHARE (one throw in nine on the built-in tray), and a tray read whenever it
#: settles (free play) was read HAND_TIMEOUT late. So where the change reaches the edge is looked at without the dice
#: there: each box of the last rest's dice and of this frame's grown by this share of its size on every side.
DIE_SHADOW = 0.5
#: the light (``vision.frame.brightest`` of the thumbnail) changed by more than this share from one frame to the
#: next: a lamp switched off or on, a webcam's exposure ramping after it (or after a reconnect). ``change`` evens
#: such frames out, so they counted as still, and a rest read over the ramp combined readings of a black or white
#: picture (no dice) with the settled one's: the still spell starts again instead. Flicker bands move it by ~5 %.
LIGHT_STEP = 0.12


class AtRestTrigger:
    """Feed it every camera frame with its timestamp; it returns a combined reading once per rest.

    >>> trig = AtRestTrigger(still_seconds=0.6)
    >>> reading = trig.feed(frame, t)   # None until the tray has been still for 0.6 s, then once a TrayReading
    """

    def __init__(
        self,
        still_seconds: float = 0.6,
        reader: Reader = read_dice,
        *,
        reads: int = 3,
        motion_level: float = MOTION_LEVEL,
        motion_share: float = MOTION_SHARE,
        hand_share: float = HAND_SHARE,
        hand_timeout: float = HAND_TIMEOUT,
    ) -> None:
        if still_seconds < 0 or reads < 1:
            raise ValueError("still_seconds must be >= 0 and reads >= 1")
        self.still_seconds = float(still_seconds)
        self.reader = reader
        self.reads = int(reads)
        self.motion_level = float(motion_level)
        self.motion_share = float(motion_share)
        self.hand_share = float(hand_share)
        self.hand_timeout = float(hand_timeout)
        self._hand_since: float | None = None
        self._prev: np.ndarray | None = None
        self._reference: np.ndarray | None = None  # the last quiet tray without a hand
        self._still_since: float | None = None
        self._readings: list[TrayReading] = []
        self._rest_boxes: list[tuple[int, int, int, int]] = []  # the dice of the last rest
        self._dice_only: bool | None = None  # this still spell's change is the dice alone (None: not looked at)
        self._armed = True
        self.hand_seen = False
        self.moving = False
        #: the rest ``feed`` returned last was reached through ``hand_timeout``: a hand held still for it may lie
        #: over a die (a screen reading every rest took a die "taken" that lay under it)
        self.hand_rest = False
        self._timed_out = False  # this still spell went through the hand timeout
        self._clean: np.ndarray | None = None  # the quiet tray the hand timeout replaced (None: it did not)
        self._level: float | None = None  # the last frame's light (``LIGHT_STEP``)

    @property
    def armed(self) -> bool:
        """False after firing, until the dice move again."""
        return self._armed

    def reset(self) -> None:
        """Forget everything (new game, camera switched)."""
        self.__init__(self.still_seconds, self.reader, reads=self.reads, motion_level=self.motion_level,
                      motion_share=self.motion_share, hand_share=self.hand_share, hand_timeout=self.hand_timeout)

    def restart(self) -> None:
        """Wait for a whole still spell again and read it, even if the tray does not move (ROLL pressed, a camera
        back after a reconnect), keeping the quiet tray and the hand: ``reset`` forgot the quiet tray a hand is told
        by, so a hand resting over a die when ROLL was pressed was read as the dice ("3 dice seen"), and the throw
        was not read once it left."""
        self._still_since = None
        self._readings = []
        self._armed = True
        self._dice_only = None
        self._hand_since = None  # the hand's timeout counts from the press: a hand resting 3.5 s before ROLL was
        # taken for part of the table half a second after it, and read as the throw

    def feed(self, frame_bgr: np.ndarray, t: float) -> TrayReading | None:
        """Process one frame taken at time ``t`` (seconds, any monotonic clock)."""
        thumb = thumbnail(frame_bgr)
        if thumb is None:
            # An unreadable frame tells us nothing about the dice: it neither moves them nor counts as still.
            return None
        level, before = brightest(thumb), self._level
        self._level = level
        stepped = before is not None and abs(level - before) > LIGHT_STEP * max(before, 16.0)
        if self._prev is None or self._prev.shape != thumb.shape:
            self._prev = thumb
            self._reference = None  # no quiet tray seen yet: nothing to compare a hand against
            self._start_still(t)
            return None
        self.moving = not still(self._prev, thumb, self.motion_level, self.motion_share)
        self._prev = thumb
        if self.moving:
            self._still_since = None
            self._readings.clear()
            self._armed = True
            self._dice_only = None
            self._timed_out = False
            return None
        if self._still_since is None or stepped:  # (the light jumped: read once it has settled)
            self._start_still(t)
        self.hand_seen = self._hand_in(thumb)
        if self.hand_seen and self._clean is not None and not hand_in(self._clean, thumb, self.motion_level,
                                                                      self.hand_share):
            # what the hand timeout took for part of the table is gone again (the hand left): not a hand, and read
            # at once, not another HAND_TIMEOUT later
            self._reference, self._clean, self.hand_seen = thumb, None, False
        if self.hand_seen and self._dice_only is None:  # once a still spell: it costs a reading
            boxes = [d.box for d in self.reader(frame_bgr).dice] + self._rest_boxes
            self._dice_only = dice_alone(self._reference, thumb, np.asarray(frame_bgr).shape[:2], boxes,
                                         self.motion_level, self.hand_share)
        if self.hand_seen and self._dice_only:
            self._reference = thumb  # the dice thrown anew: this is the quiet tray now
            self.hand_seen = False
        if self.hand_seen:
            if self._hand_since is None:
                self._hand_since = t
            if t - self._hand_since < self.hand_timeout:
                self._readings.clear()
                self._still_since = t
                return None
            # Nothing that still is a hand: something was put down at the edge. It is part of the table now; the
            # rest so reached is marked (``hand_rest``): it may yet be a hand held still over a die.
            if self._clean is None:
                self._clean = self._reference
            self._reference = thumb
            self.hand_seen = False
            self._timed_out = True
        self._hand_since = None
        if not self._armed:
            self._reference = thumb
            return None
        quiet = t - self._still_since
        due = self.still_seconds * (len(self._readings) + 1) / self.reads
        if quiet + 1e-9 >= due and len(self._readings) < self.reads:
            self._readings.append(self.reader(frame_bgr))
        if quiet + 1e-9 >= self.still_seconds and self._readings:
            self._armed = False
            self._reference = thumb
            self.hand_rest = self._timed_out
            if not self.hand_rest:  # a rest come to without a hand: what lies at the edge is the table's now
                self._clean = None
            combined = combine(self._readings)
            self._rest_boxes = [d.box for d in combined.dice]
            self._readings = []
            return combined
        return None

    def _start_still(self, t: float) -> None:
        self._still_since = t
        self._readings = []

    def _hand_in(self, thumb: np.ndarray) -> bool:
        return hand_in(self._reference, thumb, self.motion_level, self.hand_share)


def hand_in(reference: np.ndarray | None, thumb: np.ndarray, level: float = MOTION_LEVEL,
            share: float = HAND_SHARE, dice: np.ndarray | None = None) -> bool:
    """Whether ``thumb`` shows a hand against ``reference``, the last quiet tray without one (both ``thumbnail``):
    a big change that touches the frame edge, an arm reaching in. A die put down is too small, a camera bumped
    changes too much of the view to be an arm, and a light switched on is evened out (``change``). ``dice``: where
    dice lie (``dice_mask``): a change that reaches the edge only where dice lie there is dice thrown to the edge,
    not an arm (an arm crosses the edge beside any die)."""
    if reference is None or reference.shape != thumb.shape:
        return False
    changed = (change(reference, thumb) > 2.5 * level).astype(np.uint8)
    changed_share = float(changed.mean())
    if changed_share < share or changed_share > 0.5:
        return False
    _, labels, stats, _ = cv2.connectedComponentsWithStats(changed, connectivity=8)
    rim = np.zeros(changed.shape, bool)
    rim[0, :] = rim[-1, :] = rim[:, 0] = rim[:, -1] = True
    if dice is not None:
        rim &= ~dice
    reaching_in = np.unique(labels[rim & (changed > 0)])  # the changed parts with a pixel on the rim (no 0)
    return bool((stats[reaching_in, cv2.CC_STAT_AREA] >= share * changed.size).any())


def dice_alone(reference: np.ndarray | None, thumb: np.ndarray, frame_shape: tuple[int, int],
               boxes: list[tuple[int, int, int, int]], level: float = MOTION_LEVEL, share: float = HAND_SHARE) -> bool:
    """Whether a change ``hand_in`` takes for an arm is dice alone: it reaches the edge only where dice lie
    (``boxes`` in pixels of a frame of ``frame_shape``: the dice of this frame and of the quiet tray's, grown by
    DIE_SHADOW). Dice thrown or turned at the frame's edge; an arm crosses the edge beside them."""
    return not hand_in(reference, thumb, level, share, dice_mask(thumb.shape[:2], frame_shape, boxes))


def dice_mask(thumb_shape: tuple[int, int], frame_shape: tuple[int, int],
              boxes: list[tuple[int, int, int, int]], grow: float = DIE_SHADOW) -> np.ndarray:
    """Where dice lie on a thumbnail of ``thumb_shape`` (rows, columns) made from a frame of ``frame_shape``, given
    their boxes in frame pixels, each grown by ``grow`` of its size on every side."""
    mask = np.zeros(thumb_shape, bool)
    sy, sx = thumb_shape[0] / frame_shape[0], thumb_shape[1] / frame_shape[1]
    for x0, y0, x1, y1 in boxes:
        gx, gy = grow * (x1 - x0), grow * (y1 - y0)
        mask[max(0, math.floor((y0 - gy) * sy)):max(0, math.ceil((y1 + gy) * sy)),
             max(0, math.floor((x0 - gx) * sx)):max(0, math.ceil((x1 + gx) * sx))] = True
    return mask


def change(before: np.ndarray, now: np.ndarray) -> np.ndarray:
    """Per pixel, how much ``now`` differs from ``before`` (two thumbnails of one size; the largest channel's
    difference), after each row of ``now`` is brought to the brightness of the same row of ``before``.

    Why rows: under mains-powered LED or fluorescent light, a camera whose exposure is not a whole number of the
    lamp's flicker periods (a Pi camera with short exposures) shows dark and light bands across the picture that
    roll from frame to frame. Bands of 5 % of the brightness changed the whole tray by more than MOTION_LEVEL, so it
    never counted as still and the dice were never read. A band brightens a whole row alike; a die or a hand changes
    part of a row, which the row's median leaves out. A lamp dimmed or switched on is evened out the same way."""
    b = before.astype(np.float32)
    n = now.astype(np.float32)
    grey_b = b.mean(axis=2) if b.ndim == 3 else b
    grey_n = n.mean(axis=2) if n.ndim == 3 else n
    gain = np.median((grey_n + 4.0) / (grey_b + 4.0), axis=1)  # + 4: black rows have no brightness to compare
    gain = gain[:, None, None] if n.ndim == 3 else gain[:, None]
    diff = np.abs(n / gain - b)
    return np.max(diff, axis=2) if diff.ndim == 3 else diff


def still(before: np.ndarray | None, now: np.ndarray | None, level: float = MOTION_LEVEL,
          share: float = MOTION_SHARE) -> bool:
    """Whether nothing moved between two thumbnails of the tray (``thumbnail``): no more than ``share`` of their
    pixels changed by more than ``level`` in some channel (``change``: rows evened out first). A missing one, or
    another frame size, is not still."""
    if before is None or now is None or before.shape != now.shape:
        return False
    return quiet(moving(before, now, level), share)


def moving(before: np.ndarray, now: np.ndarray, level: float = MOTION_LEVEL) -> np.ndarray:
    """Per pixel of two thumbnails of one size, whether it changed by more than ``level`` (``change``)."""
    return change(before, now) > level


def quiet(moved: np.ndarray, share: float = MOTION_SHARE) -> bool:
    """Whether no more than ``share`` of the pixels moved (``moving``): ``still`` for a mask at hand."""
    return float(np.count_nonzero(moved)) / moved.size <= share


def thumbnail(frame_bgr: np.ndarray) -> np.ndarray | None:
    """The small colour copy of a frame the motion and hand checks compare (None: not a frame that can be read)."""
    bgr = as_bgr(frame_bgr)
    if bgr is None:
        return None
    h, w = bgr.shape[:2]
    # Stride first: an 8 MP frame must not cost an INTER_AREA pass over every pixel just for a motion check.
    step = max(1, w // (THUMB_WIDTH * 4))
    small = bgr[::step, ::step]
    size = (THUMB_WIDTH, max(1, round(THUMB_WIDTH * h / w)))
    # Colour, not grey: a hand over light wood has nearly the wood's brightness but not its hue.
    return cv2.GaussianBlur(cv2.resize(small, size, interpolation=cv2.INTER_AREA), (3, 3), 0)


def combine(readings: list[TrayReading]) -> TrayReading:
    """Merge readings of the same still tray: match dice by position, vote on each die's face.

    A die seen in fewer than half the readings is dropped (a speck of glare); a die whose frames disagree keeps the
    majority face with a lowered confidence, or becomes unknown when no face has a majority by confidence, or the
    face was named in fewer than half of its frames (its guess the face its frames leaned to).
    """
    if not readings:
        return TrayReading()
    if len(readings) == 1:
        return readings[0]
    clusters: list[list[DieReading]] = []
    centres: list[tuple[float, float, float]] = []
    for reading in readings:
        for die in reading.dice:
            x0, y0, x1, y1 = die.box
            cx, cy, size = (x0 + x1) / 2, (y0 + y1) / 2, max(x1 - x0, y1 - y0, 1)
            best, best_d = None, math.inf
            for k, (kx, ky, ks) in enumerate(centres):
                d = math.hypot(cx - kx, cy - ky)
                if d < 0.5 * max(size, ks) and d < best_d:
                    best, best_d = k, d
            if best is None:
                clusters.append([die])
                centres.append((cx, cy, size))
            else:
                clusters[best].append(die)
    n = len(readings)
    dice: list[DieReading] = []
    for members in clusters:
        if len(members) * 2 < n:
            continue
        votes: Counter = Counter()
        for m in members:
            votes[m.face] += max(0.05, m.confidence)
        face, weight = votes.most_common(1)[0]
        share = weight / sum(votes.values())
        conf = share * float(np.mean([m.confidence for m in members if m.face == face]))
        named = sum(1 for m in members if m.face == face)
        if share <= 0.5 or (face is not None and named * 2 < len(members)):
            # no majority by confidence, or a face only a minority of the frames named (one sure frame outweighed
            # three unsure ones: a die most frames could not read was read for sure): asked, the face its guess
            face = None
        box = tuple(int(round(float(np.median([m.box[i] for m in members])))) for i in range(4))
        dice.append(DieReading(face, conf, box, None if face is not None else _lean(members)))  # type: ignore[arg-type]
    dice.sort(key=lambda d: (d.box[1], d.box[0]))
    return TrayReading(tuple(dice), float(sum(r.ms for r in readings)))


def _lean(members: list[DieReading]) -> int | str | None:
    """What the frames of a die left unknown leaned to (each frame's face, or its guess), weighed as ``combine``
    weighs the votes: the face the screen offers first when it asks about the die."""
    leans: Counter = Counter()
    for m in members:
        lean = m.face if m.face is not None else m.guess
        if lean is not None:
            leans[lean] += max(0.05, m.confidence)
    return leans.most_common(1)[0][0] if leans else None
