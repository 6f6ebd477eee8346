"""The camera check: what the camera sees, the dice it reads there, and what to change.

Whether the companion reads the dice right the first time depends mostly on where the camera and the lamp are, and
a family setting it up has no other way to see that than this screen (``companion read`` is for a terminal). It
shows the live picture with the dice read at the tray's last rest boxed and named, and one piece of advice in words
(no picture, too dark, glare, a die at the edge, dice too small or unsure, or all good), so the camera or the lamp
can be moved until it says so. Pip dice are read first (every family has some); NEXT goes on to each dice set
taught, so a family sees its games' dice read too.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import cv2
import numpy as np
import pygame

from companion import profiles
from companion.i18n import t
from companion.profiles import Place
from companion.views import theme
from companion.views.colour_faces import face_label
from companion.views.widgets import bgr_surface, draw_wrapped, hint_bar, hint_button
from hardware.events import Button, ButtonEvent
from vision import rest
from vision.face_marks import softness
from vision.light import light_fault
from vision.taught import SOFT
from vision.types import TrayReading

#: where the picture is drawn (design pixels); the frame is fitted inside, keeping its shape
PICTURE = pygame.Rect(12, 64, 512, 372)
# Advice thresholds. Light is judged only when dice are missed or unsure (a black felt tray is dark and reads fine):
# ``vision.light`` (DARK, GLARE_SHARE), by which the dice watcher judges a rest's light too.
#: a die smaller than this share of the frame's long side (25 px of 640) is read less surely
SMALL_DIE = 0.04
#: the picture has not been still for this many seconds: what keeps moving is marked (a screen, a curtain, a fan
#: in view, which would keep the dice from ever being read). Dice thrown and a hand arranging them take less.
RESTLESS_SECONDS = 6.0
#: a thumbnail pixel keeps moving when it moved in about this share of the last second's frames
RESTLESS_SHARE = 0.4


def _light(frame: np.ndarray) -> str | None:
    """What is wrong with the light, if anything: the key of the advice."""
    fault = light_fault(frame)
    return f"core.check_{fault}" if fault else None


def dice_softness(frame: np.ndarray | None, reading: TrayReading | None) -> float | None:
    """How blurred the dice read are: the median of ``face_marks.softness`` over their boxes (the blur's sigma in
    pixels of a die's face); None without dice. Once per reading: it is not the frame-by-frame work of drawing."""
    if frame is None or frame.ndim != 3 or reading is None or not reading.dice:
        return None
    h, w = frame.shape[:2]
    values = []
    for x0, y0, x1, y1 in (d.box for d in reading.dice):
        crop = frame[max(0, int(y0)):min(h, int(y1)), max(0, int(x0)):min(w, int(x1))]
        if crop.shape[0] >= 4 and crop.shape[1] >= 4:
            values.append(softness(crop))
    return float(np.median(values)) if values else None


#: the advice a game's screen says too when a reading has unsure dice (``App._say_why_unsure``): what the table can
#: mend itself; "unsure: better light or a sharper picture" says nothing a question about the die does not
MENDABLE = frozenset({"core.check_dark", "core.check_glare", "core.check_edge", "core.check_small", "core.check_soft"})


def advice(frame: np.ndarray | None, reading: TrayReading | None, moved: bool,
           restless: Sequence[tuple[int, int, int, int]] = (), blur: float | None = None) -> tuple[str, dict]:
    """The one thing to say now: a catalog key (``core.check_*``) and its values; the most basic problem first.
    ``restless``: boxes of what keeps moving in the picture (``CameraCheckView.restless``); ``blur``: the dice's
    ``dice_softness``: it names an unsure reading's cause when the light does not, and keeps a blurred picture whose
    dice all read from being called good (of the datasets' photos blurred by 1.5 to 3.5 px, 69 of the 75 read
    wrongly without an unsure die were beyond ``SOFT``; no sharp photo was, the softest at 1.56)."""
    if frame is None:
        return "core.check_no_picture", {}
    if restless:
        return "core.check_restless", {}
    if moved or reading is None:
        return "core.check_wait", {}
    if not reading.dice:
        return _light(frame) or "core.check_no_dice", {}
    h, w = frame.shape[:2]
    for x0, y0, x1, y1 in (d.box for d in reading.dice):
        if x0 <= 1 or y0 <= 1 or x1 >= w - 2 or y1 >= h - 2:
            return "core.check_edge", {}
    side = float(np.median([max(d.box[2] - d.box[0], d.box[3] - d.box[1]) for d in reading.dice]))
    if side < SMALL_DIE * max(h, w):
        return "core.check_small", {"px": int(round(side))}
    unsure = sum(d.face is None for d in reading.dice)
    if unsure:
        light = _light(frame)
        if light:
            return light, {}
        if blur is not None and blur > SOFT:  # a camera out of focus, or too close for its fixed focus
            return "core.check_soft", {}
        return "core.check_unsure", {"n": unsure}
    if blur is not None and blur > SOFT:  # blurred dice are read wrongly as often as unsure (a 1 as a 2)
        return "core.check_soft_read", {}
    return "core.check_good", {"n": len(reading.dice)}


#: a taught set's reading with more than this share of its dice unsure, in good light and sharp, may be read with
#: examples of another camera (dice copied from another companion: 7 of 9 unsure): said when they are known to be,
#: or, where the examples do not say where they were taken (saved before they did), from UNKNOWN_UNSURE on
MOST_UNSURE = 0.5
UNKNOWN_UNSURE = 0.75


def taught_elsewhere(places: Sequence[tuple[str, Place]], camera: str, size: tuple[int, int], unsure: int,
                     n: int) -> str | None:
    """The advice for a taught set's reading with ``unsure`` of its ``n`` dice unsure while light and sharpness are
    fine (``core.check_unsure``), when its examples (``places``: each one's face and where it was taken) were not
    taken with this ``camera`` from frames of this ``size``: ``core.check_taught_elsewhere`` when known so,
    ``core.check_taught_maybe`` when they do not say; None when every face taught has an example from here (the
    light or the picture, as before). Why: a family that copied its taught dice to a second companion saw "more
    even light or a sharper picture helps", moved the lamp, and never learned that teaching a few throws there
    was the cure."""
    if not places or n <= 0 or unsure <= MOST_UNSURE * n:
        return None
    here = {face for face, place in places if place.known() and not place.differs(camera, size)}
    if all(face in here for face, _ in places):
        return None
    if any(place.differs(camera, size) for _, place in places):
        return "core.check_taught_elsewhere"
    return "core.check_taught_maybe" if unsure >= UNKNOWN_UNSURE * n else None


class CameraCheckView:
    """A Mode (``companion/views/mode.py``) that also takes camera frames (``on_frame``), as the teaching screen
    does, and a reading at every rest of the tray (``auto_read``)."""

    auto_read = True

    def __init__(self, lang: str, on_done: Callable[[], None], *, throws: bool = False,
                 sets: Sequence[str] = ("d6",), read_set: Callable[[str], None] | None = None,
                 throw: Callable[[], None] | None = None, camera: Callable[[], str] = lambda: "",
                 places: Callable[[str], list[tuple[str, Place]]] = profiles.taught_places) -> None:
        self.lang = lang
        #: the picture source as the config names it now ("pi", "cam:0"), and where a taught set's examples were
        #: taken (``profiles.taught_places``): dice taught with another camera are said to be
        self.camera = camera
        self._places = places
        self._placed: dict[str, list[tuple[str, Place]]] = {}  # each set's, read once for the screen's life
        self.on_done = on_done
        self.throw = throw  # ROLL's throw, for a finger on its hint (the app throws on the button itself)
        #: the hints a finger presses: where each is and what it does ("next", "roll", "back")
        self._taps: list[tuple[pygame.Rect, str]] = []
        self.throws = throws  # ROLL throws the built-in tray's dice or shows the next photo (a camera's: by hand)
        #: the dice sets the camera can read (pip dice, then each one taught); ``read_set`` has the app read one
        self.sets = list(sets)
        self.set_index = 0
        self.read_set = read_set
        self.frame: np.ndarray | None = None
        self.reading: TrayReading | None = None
        self.moved = False  # the tray changed since the reading: its boxes would point at nothing
        self.blur: float | None = None  # the reading's dice_softness
        self._rest: np.ndarray | None = None  # the frame's thumbnail when the reading came
        self._picture: pygame.Surface | None = None
        #: boxes (frame pixels) of what has kept moving while the picture was never still for RESTLESS_SECONDS
        self.restless: list[tuple[int, int, int, int]] = []
        self._now = 0.0
        self._last: np.ndarray | None = None  # the previous frame's thumbnail
        self._heat: np.ndarray | None = None  # per thumbnail pixel, how often it moved lately (decaying)
        self._unquiet_since: float | None = None

    def on_frame(self, frame_bgr: np.ndarray) -> None:
        self.frame = np.asarray(frame_bgr)
        self._picture = None
        thumb = rest.thumbnail(self.frame)
        if self._rest is not None:
            self.moved = not rest.still(self._rest, thumb)
        self._track_motion(thumb)

    def _track_motion(self, thumb: np.ndarray | None) -> None:
        """Mark what keeps moving: a family that sees "wait until the dice lie still" for ever cannot tell that a
        television, a curtain or a fan at the edge of the picture is what the dice watcher waits for."""
        last, self._last = self._last, thumb
        if thumb is None or last is None or last.shape != thumb.shape:
            self._heat, self._unquiet_since, self.restless = None, None, []
            return
        moved = rest.moving(last, thumb)
        heat = moved.astype(np.float32)
        self._heat = heat if self._heat is None else 0.9 * self._heat + 0.1 * heat
        if rest.quiet(moved):  # rest.still, without computing the change again
            self._unquiet_since, self.restless = None, []
            return
        if self._unquiet_since is None:
            self._unquiet_since = self._now
        if self._now - self._unquiet_since < RESTLESS_SECONDS:
            return
        hot = cv2.dilate((self._heat > RESTLESS_SHARE).astype(np.uint8), np.ones((3, 3), np.uint8))
        n, _, stats, _ = cv2.connectedComponentsWithStats(hot, connectivity=8)
        k = self.frame.shape[1] / thumb.shape[1]
        self.restless = [(int(x * k), int(y * k), int((x + w) * k), int((y + h) * k))
                         for x, y, w, h, area in stats[1:n] if area >= 4]

    def on_dice(self, reading: TrayReading) -> None:
        self.reading, self.moved = reading, False
        self._rest = rest.thumbnail(self.frame) if self.frame is not None else None
        self.blur = dice_softness(self.frame, reading)

    @property
    def dice_set(self) -> str:
        return self.sets[self.set_index]

    def next_set(self, step: int = 1) -> None:
        """Read the next dice set (``step`` -1: the one before): what was read with the last one no longer stands."""
        self.set_index = (self.set_index + step) % len(self.sets)
        self.reading, self.moved, self._rest, self.blur = None, False, None, None
        if self.read_set is not None:
            self.read_set(self.dice_set)

    def on_button(self, event: ButtonEvent) -> bool:
        if event.button is Button.UNDO:  # held too: everywhere else a held UNDO goes back (it did nothing, unsaid)
            self.on_done()
            return True
        if event.button.step and len(self.sets) > 1:
            self.next_set(event.button.step)
            return True
        return False

    def on_tap(self, pos: tuple[int, int]) -> bool:
        """The hints are the screen's buttons, framed and as tall as the bar (the words alone, 20 px high, were
        missed by a finger a few pixels off)."""
        action = next((action for rect, action in self._taps if rect.collidepoint(pos)), None)
        if action == "back":
            self.on_done()
        elif action == "next":
            self.next_set()
        elif action == "roll" and self.throw is not None:
            self.throw()
        return action is not None

    def update(self, dt: float, now: float) -> None:
        self._now = now

    def _fit(self) -> tuple[pygame.Rect, float]:
        h, w = self.frame.shape[:2]
        k = min(PICTURE.w / w, PICTURE.h / h)
        size = (max(1, int(w * k)), max(1, int(h * k)))
        return pygame.Rect((PICTURE.centerx - size[0] // 2, PICTURE.centery - size[1] // 2), size), k

    def draw(self, surface: pygame.Surface) -> None:
        lang = self.lang
        surface.fill(theme.BG)
        title = theme.text(surface, t("core.check_title", lang), (20, 12), theme.LARGE, theme.ACCENT, bold=True)
        which = t("core.check_set", lang, set=t(f"dice.set.{self.dice_set}", lang))
        theme.text(surface, which, (title.right + 24, title.bottom - 4), theme.fit_text(which, theme.BODY,
                   780 - title.right - 24), theme.TEXT, anchor="bottomleft")
        pygame.draw.rect(surface, theme.PANEL, PICTURE, border_radius=8)
        if self.frame is not None and self.frame.ndim == 3:
            place, k = self._fit()
            if self._picture is None:
                self._picture = bgr_surface(self.frame, place.size)
            surface.blit(self._picture, place)
            if self.reading is not None and not self.moved:
                boxes, labels, colours = [], [], []
                for die in self.reading.dice:
                    x0, y0, x1, y1 = die.box
                    boxes.append(pygame.Rect(place.x + x0 * k, place.y + y0 * k, max(4, (x1 - x0) * k),
                                             max(4, (y1 - y0) * k)))
                    labels.append(self._label(die.face))
                    colours.append(theme.UNKNOWN if die.face is None else theme.GOOD)
                    pygame.draw.rect(surface, colours[-1], boxes[-1], width=3, border_radius=4)
                sizes = [pygame.Rect((0, 0), theme.font(theme.SMALL, True).size(s)).inflate(10, 0).size for s in labels]
                for tag, label, colour in zip(place_tags(boxes, sizes, place), labels, colours, strict=True):
                    pygame.draw.rect(surface, colour, tag, border_radius=6)
                    theme.text(surface, label, tag.center, theme.SMALL, theme.BG, bold=True, anchor="center")
            for x0, y0, x1, y1 in self.restless:  # what keeps the tray from ever being still
                box = pygame.Rect(place.x + x0 * k, place.y + y0 * k, max(6, (x1 - x0) * k), max(6, (y1 - y0) * k))
                pygame.draw.rect(surface, theme.WARN, box.clip(place), width=4, border_radius=6)
        column = pygame.Rect(540, 64, 248, 372)
        y = column.y
        if self.reading is not None and not self.moved and self.reading.dice:
            sep = " " if self.dice_set == "d6" else " · "  # taught faces' names have spaces: "? (freie Zahl)"
            faces = sep.join(self._label(d.face) for d in self.reading.dice)
            line = t("core.check_read", lang, n=len(self.reading.dice))
            y = theme.text(surface, line, (column.x, y), theme.BODY, theme.TEXT, bold=True).bottom + 4
            y = draw_wrapped(surface, faces, pygame.Rect(column.x, y, column.w, 80), theme.LARGE, theme.TEXT,
                             bold=True) + 16
        key, values = self._advice()
        colour = theme.GOOD if key == "core.check_good" else theme.ACCENT
        draw_wrapped(surface, t(key, lang, **values), pygame.Rect(column.x, y, column.w, column.bottom - y),
                     theme.BODY, colour, bold=True)
        other = [(t("core.btn_next", lang), t("core.check_hint_next", lang))] if len(self.sets) > 1 else []
        roll = [(t("core.btn_roll", lang), t("core.check_hint_roll", lang))] if self.throws else []
        rects = hint_bar(surface, [*other, *roll, (t("core.btn_undo", lang), t("core.hint_back", lang))])
        actions = ["next"] * len(other) + ["roll"] * len(roll) + ["back"]
        self._taps = [(hint_button(surface, rect), action) for rect, action in zip(rects, actions, strict=True)]

    def _advice(self) -> tuple[str, dict]:
        """``advice``, and for a taught set mostly unsure, whether its dice were taught with another camera."""
        key, values = advice(self.frame, self.reading, self.moved, self.restless, self.blur)
        if key != "core.check_unsure" or self.dice_set == "d6" or self.frame is None or self.reading is None:
            return key, values
        if self.dice_set not in self._placed:
            self._placed[self.dice_set] = self._places(self.dice_set)
        h, w = self.frame.shape[:2]
        said = taught_elsewhere(self._placed[self.dice_set], self.camera(), (w, h), values["n"],
                                len(self.reading.dice))
        if said is None:
            return key, values
        return said, {**values, "set": t(f"dice.set.{self.dice_set}", self.lang)}

    def _label(self, face: object) -> str:
        """A face as the screen names it elsewhere: pips as numbers, taught faces by their names ("Rot", "3+X")."""
        if face is None:
            return "?"
        return str(face) if isinstance(face, int) else face_label(face, self.lang)


def place_tags(boxes: list[pygame.Rect], sizes: list[tuple[int, int]], area: pygame.Rect) -> list[pygame.Rect]:
    """Where each die's name goes: above its box (centred, else flush with its left or right edge), else below it,
    else inside its top; the first place that stays in ``area`` (the picture) and overlaps no name placed before
    nor another die's box, else the first that overlaps no name, else above. Dice lying close together had their
    names drawn over each other ("Süßigkeiten" over "Spielzeug"), and a name over a neighbour reads as its."""
    placed: list[pygame.Rect] = []
    for i, (box, size) in enumerate(zip(boxes, sizes, strict=True)):
        others = boxes[:i] + boxes[i + 1:]
        tags = []
        for anchor, point in (("midbottom", (box.centerx, box.y - 2)), ("bottomleft", (box.x, box.y - 2)),
                              ("bottomright", (box.right, box.y - 2)), ("midtop", (box.centerx, box.bottom + 2)),
                              ("midtop", (box.centerx, box.y + 3))):
            tag = pygame.Rect((0, 0), size)
            setattr(tag, anchor, point)
            tags.append(tag.clamp(area) if area.w >= tag.w and area.h >= tag.h else tag)
        free = [tag for tag in tags if tag.collidelist(placed) < 0 and area.contains(tag)]
        clear = [tag for tag in free if tag.collidelist(others) < 0]
        placed.append((clear or free or tags)[0])
    return placed
