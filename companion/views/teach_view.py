"""The teaching screen: shows the die the camera found and asks which face it is, until every face has examples.

A Mode (``companion/views/mode.py``) with one addition: the app hands it camera frames with ``on_frame(frame)``
(teaching needs the picture, not only a reading). Everything works with NEXT/SELECT alone, by touch, or the
keyboard (which the app turns into the same button events). Faces still missing come first in the list, so a
family mostly presses SELECT; each answer is saved at once (an evening's teaching survives a pulled plug).
"""

from __future__ import annotations

import logging
import re
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import cv2
import numpy as np
import pygame

from companion import dicesets, profiles
from companion.i18n import disk_words, t
from companion.teach import (
    INK,
    NO_HUE,
    WANTED_EXAMPLES,
    Progress,
    colour_guess,
    hue_faces,
    look_refuses,
    mark_look,
    patch_colour,
    pip_face,
    pip_guess,
    pip_readings,
    progress,
)
from companion.views import theme
from companion.views.colour_faces import draw_face, face_label
from companion.views.widgets import (
    Menu,
    MenuItem,
    bgr_surface,
    draw_wrapped,
    hint_bar,
    hint_bar_size,
    hint_button,
    tapped_hint,
)
from hardware.events import Button, ButtonEvent, Press
from vision import face_outline, rest, taught
from vision.detect import find_any_dice
from vision.face_marks import table_light
from vision.taught import ASK_AGAIN, Profile
from vision.types import DieReading, TrayReading

log = logging.getLogger(__name__)

SKIP = object()

#: the faces the "turn them" sentence names at most (the line above the die names them all)
NAMED = 4
#: the side of the small picture of the die answered just now, beside its answer ("Just now: Red")
JUST = 44

#: ``warm_up``'s thread, once per process
_warming: threading.Thread | None = None


def warm_up() -> None:
    """Start readying, off the screen's thread, what the first still tray of the teaching screen would otherwise
    pay in it: OpenCV builds its Lab colour tables at their first use (about 100 ms of CPU in ``find_dice``), and
    the learned detector is loaded and run once (about 60 ms). The picture stood still that long as the first die
    was found. The app calls it once the camera is open; the screen waits for it (``wait_warm``) before it looks for
    dice, so that the detector is never run from two threads at once by it."""
    global _warming
    if _warming is None:
        _warming = threading.Thread(target=_warm, name="warm-detector", daemon=True)
        _warming.start()


def _warm() -> None:
    try:
        tiny = np.zeros((2, 2, 3), np.uint8)
        cv2.cvtColor(cv2.cvtColor(tiny, cv2.COLOR_BGR2LAB), cv2.COLOR_LAB2BGR)
        from vision import net

        model = net.load_detector(net.ANY_DICE_MODEL_PATH)
        if model is not None:
            model.candidates(np.zeros((48, 64, 3), np.uint8), net.DIE_THRESHOLD)
    except Exception:  # noqa: BLE001 - readying only: the screen loads and runs them itself as before
        log.exception("readying the dice detector")


def wait_warm() -> None:
    """Wait until ``warm_up``'s work is done (at once, but for a screen opened in its first moments); bounded, as
    every wait. Public: the app waits for it too when its start fails."""
    if _warming is not None:
        _warming.join(timeout=5.0)


class TeachView:
    """``companion teach SET`` on the screen. ``save`` stores the profile (tests pass a fake to stay off disk), and
    ``confirm_marks`` that no other die carries the set's mark."""

    def __init__(self, set_name: str, lang: str = "de", *, profile: Profile | None = None,
                 save: Callable[[Profile], object] = profiles.save_profile,
                 on_done: Callable[[], None] | None = None, throw: Callable[[], None] | None = None,
                 virtual: bool = False, confirm_marks: Callable[[str], object] = profiles.confirm_marks,
                 camera: str = "") -> None:
        self.lang = lang
        #: the picture source as the config names it ("pi", "cam:0"; "" not known), kept with each example taught
        #: (``profiles.Place``): the camera check can then say that dice were taught with another camera
        self.camera = camera
        #: the dice shown are the built-in tray's (no camera): the title says so, or a family taught the made-up
        #: dice into its profile believing they were its own
        self.virtual = virtual
        #: what ROLL does here (the built-in tray throws, a replay shows its next photo), for a finger on its hint:
        #: a table with the touch screen alone, its dice all answered, could not go on to their other faces
        self.throw = throw
        self.dice_set = dicesets.load(set_name)
        self.profile = profile if profile is not None else profiles.load_profile(set_name)
        self.save = save
        self.on_done = on_done
        self._hint_buttons: list[tuple[pygame.Rect, ButtonEvent]] = []  # the UNDO hints a finger presses, as what
        self.crop: np.ndarray | None = None
        self.light: np.ndarray | None = None  # the light on the table where the die asked about lies
        #: the die asked about, and the last dice answered or skipped, with how they lay: with several dice in the
        #: tray each is asked about in turn, and a die still lying as it was is not asked about again
        self.die: LyingDie | None = None
        #: the dice answered (with the example key their answer added) and skipped ("") in this and earlier
        #: sittings, latest last, kept beside the profile (``profiles.save_answered``): a family that taught over two
        #: evenings, its dice still lying, was asked about them again, and a die's answer was counted twice
        self._remembered: list[tuple[str, LyingDie]] = _answered_before(self.dice_set.name, self.profile)
        self.answered: list[LyingDie] = [die for _, die in self._remembered]
        self.tray_done = False  # every die in the tray answered: the screen says to turn them
        #: the frame before, small: a die is taken only from a still tray (the games' motion check): one in flight or
        #: pushed by a hand would be taught blurred
        self._before: np.ndarray | None = None
        #: a hand held still in the tray (the games' hand check): a die held up in the fingers, or one under them,
        #: would be taught with fingers for marks, so no die is taken until the hand is gone. ``_quiet`` is the last
        #: still tray without a hand; something still for ``rest.HAND_TIMEOUT`` s is not a hand (a cup put down)
        self.hand = False
        self._quiet: np.ndarray | None = None
        self._quiet_frame: np.ndarray | None = None  # the frame ``_quiet`` was made from: its dice
        self._dice_only: bool | None = None  # this still spell's change is dice alone (None: not looked at yet)
        self._hand_since: float | None = None
        self._now = 0.0
        #: the top face the reader found on the crop (corners, crop pixels), drawn so that a player can see a wrong
        #: one (a side face taken in) and skip that die rather than teach it
        self.outline: np.ndarray | None = None
        self.n_seen = 0
        self.guess: str | None = None
        #: what the mark of the die asked about shows (``teach.mark_look``: a colour face, ``INK``, None: unsure)
        self.look: str | None = None
        self._hues = hue_faces(self.dice_set)  # the colour faces whose mark has a hue (Noch X-Mal!'s patches)
        #: the last frame looked at, and each answer's die as it was asked (crop, light, guess) by example key: UNDO
        #: asks about the die of the answer taken back again while it lies there
        self._frame: np.ndarray | None = None
        self._asked_as: dict[str, tuple[np.ndarray, np.ndarray | None, str | None, str | None]] = {}
        #: a face whose photos do not look alike (``taught.Profile.settle``): asked for once more, first in the menu
        self.again: str | None = None
        self._asked: dict[str, int] = {}  # how often in a row each face was asked for once more
        self._blurred: dict[str, int] = {}  # how often in a row a photo of each face was too blurred to keep
        self.in_view: list[pygame.Rect] = []  # what the app's banners and signs keep clear of, where they can
        self.message = ""
        #: the message is one to act on ("show it once more", "blurred", "not saved"): it stays beside the next die
        #: asked about until the next answer (with several dice in the tray the next came at once, and took it away)
        self.message_lasts = False
        #: the die to be asked about next is burned out by too much light (``taught.burned_out``): said for as long
        #: as the still tray shows it, and no longer once the lamp is dimmed or the die taken out
        self.glare = False
        self.unsaved = False  # the last answer could not be written: leaving now loses the answers since
        #: this sitting's answers kept, latest last (face, example key, the die): UNDO takes them back one by one
        self._given: list[tuple[str, str, LyingDie | None]] = []
        #: the family said no other die carries the set's mark (Echt Spitze's extra cross). Which faces carry it
        #: differs by die, so the count cannot know when they are all shown: it turned green after one crossed face,
        #: the family stopped, and the crossed faces not shown came back unknown in play
        #: Kept with the stored profile (``profiles.confirm_marks``): a family that came back was asked again
        self.marks_confirmed = len(self.profile) > 0 and profiles.marks_confirmed(self.dice_set.name)
        self.confirm_marks = confirm_marks
        self._confirm: pygame.Rect | None = None  # where a finger confirms it
        #: the picture of each answer's die (by its example key), small, for "Just now: Red" (``_note_answer``)
        self._thumbs: dict[str, pygame.Surface] = {}
        self._drawn_crop: np.ndarray | None = None  # the die on the screen at the last draw: the one answered next
        self._drawn_given = 0  # how many answers were kept at the last draw
        self.menu = Menu(pygame.Rect(330, 96, 450, 320), [], self._choose, on_done)
        self._rebuild_menu()

    # --- state -----------------------------------------------------------------------------------------------

    @property
    def progress(self) -> Progress:
        return progress(self.dice_set, self.profile)

    def _faces_in_order(self) -> list[str]:
        """Missing faces first, then the marked variants (``3+X``), then the rest; the guess on top, and right
        under it the guess with its mark or without (a "3" guessed for a die whose small cross the reader took for
        nothing, or no example of "3+X" yet: the cross is one NEXT away, not eight)."""
        names = self.dice_set.face_names()
        prog = self.progress
        missing = list(prog.missing)
        thin = prog.thin(self.dice_set)  # one photo only: a second one next
        marked = [f + m for m in self.dice_set.marks for f in names]
        known = [n for n in self.profile.counts() if n not in names and n not in marked]
        order = missing + thin + [f for f in names if f not in missing and f not in thin] + marked + known
        for first in (self.again, self.guess):  # the face to show once more, and this die's guess above it
            if first in order:
                order.remove(first)
                order.insert(0, first)
        if self.guess in order:
            base = self.dice_set.base(self.guess)
            twins = [f for f in (base, *(base + m for m in self.dice_set.marks)) if f != self.guess and f in order]
            for k, twin in enumerate(twins, 1):
                order.remove(twin)
                order.insert(k, twin)
        elif self.crop is not None and self.look == INK:  # a numeral or a joker: no colour first for it
            # and the colour dice's joker after the numbers: an ink mark is a number die's five times in six, the
            # colour die's only for its joker, which stood first and took the one NEXT from Skip meant for a "3"
            hue_kinds = {self.dice_set.kind_of(f) for f in self._hues}
            order = ([f for f in order if f not in self._hues and self.dice_set.kind_of(f) not in hue_kinds]
                     + [f for f in order if f not in self._hues and self.dice_set.kind_of(f) in hue_kinds]
                     + [f for f in order if f in self._hues])
        return order

    def _rebuild_menu(self) -> None:
        items = [MenuItem(face_label(f, self.lang, self.dice_set), f) for f in self._faces_in_order()]
        items.append(MenuItem(t("teach.skip", self.lang), SKIP))
        self.menu.items = items
        # a die of a set with colour patches and no guess: Skip, not a reflex answer (the first missing colour
        # stood there, and a "3" was taught "red"); one NEXT from it is the top of the list (for ink, its numbers)
        unsure = self.crop is not None and self.guess is None and bool(self._hues)
        self.menu.index = len(items) - 1 if unsure else 0

    def _choose(self, value: object) -> None:
        die = self.die
        if self.die is not None:
            self.answered = [*self.answered[-(ANSWERED - 1):], self.die]
        self.message_lasts = False
        if value is SKIP or self.crop is None:
            if value is SKIP and die is not None:
                self._remember("", die)
            self.crop, self.guess, self.die = None, None, None
            self._rebuild_menu()
            return
        face = str(value)
        label = face_label(face, self.lang, self.dice_set)
        if why := look_refuses(face, self.look, self._hues):  # a colour for a numeral, a number for a colour patch
            self.message, self.message_lasts = t("teach.no_hue" if why == NO_HUE else "teach.hue", self.lang,
                                                 face=label), True
            self.answered = [d for d in self.answered if d is not die]  # still asked about, as it lies
            self._rebuild_menu()
            return
        blurred = self._blurred.get(face, 0)
        try:  # a blurred photo is asked for again, ASK_AGAIN times in a row: a camera may never be sharper
            self.profile.add(face, self.crop, sharp=blurred < ASK_AGAIN, light=self.light)
            self._given.append((face, key := profiles.example_key(self.profile.vectors[-1]), die))
            self._asked_as[key] = (self.crop, self.light, self.guess, self.look)
        except taught.MarkNotSeen:  # a side or a blur taken for the top face: a blank example would mislead
            self.message, self.message_lasts = t("teach.no_mark", self.lang, face=label), True
        except taught.TooSoft:  # a soft example lets an untaught look-alike pass as this face
            self._blurred[face] = blurred + 1
            self.again = face
            self.message, self.message_lasts = t("teach.blurred", self.lang, face=label), True
            # asked about again as it lies, as the message says ("let the dice lie still"): marked answered, the
            # screen said "every die answered, turn them" beside it, and the die was not asked about again
            self.answered = [d for d in self.answered if d is not die]
        else:
            self._blurred.pop(face, None)
            said = self.profile.settle(face)  # its photos must look alike: a blurred one would mislead
            try:
                self.save(self.profile)
            except OSError as exc:  # kept in memory: the next answer that can be written writes them all
                self.unsaved = True
                self.message = t("teach.not_saved", self.lang, error=disk_words(exc, self.lang))
                self.message_lasts = True
                self.crop, self.guess, self.die = None, None, None
                self._rebuild_menu()
                return
            self.unsaved = False
            if die is not None:  # kept with the profile's examples: an answer the profile could not keep is not
                self._remember(key, die)
            asked = self._asked.pop(face, 0)
            if said == "disagree" and asked < ASK_AGAIN:  # asked for once more, first in the menu, until shown again
                self.again, self._asked[face], self.message_lasts = face, asked + 1, True
                other = self.profile.looks_like(face)
                self.message = t("teach.again", self.lang, face=label) if other is None else t(
                    "teach.like_other", self.lang, face=label, other=face_label(other, self.lang, self.dice_set))
            else:
                if self.again == face:
                    self.again = None
                key = {"dropped": "teach.dropped", "disagree": "teach.still_differ"}.get(said, "teach.saved")
                self.message = t(key, self.lang, face=label)
                self.message_lasts = said in ("dropped", "disagree")
        self.crop, self.guess, self.die = None, None, None
        self._rebuild_menu()

    def _remember(self, key: str, die: LyingDie | None) -> None:
        """Keep ``die`` as answered (``key``: its example's) or skipped (""), or with ``die`` None forget the answer
        ``key``, beside the profile; a card that refuses keeps them for the sitting alone, said in the log."""
        kept = [(k, d) for k, d in self._remembered if not (die is None and key and k == key) and d is not die]
        self._remembered = kept if die is None else [*kept[-(ANSWERED - 1):], (key, die)]
        try:
            profiles.save_answered(self.dice_set.name, [profiles.AnsweredDie(k, d.centre, d.size, d.look)
                                                        for k, d in self._remembered], self.profile)
        except OSError:
            log.warning("the dice answered while teaching %s could not be kept", self.dice_set.name, exc_info=True)

    # --- Mode ------------------------------------------------------------------------------------------------

    def on_frame(self, frame_bgr: np.ndarray) -> None:
        """A new camera frame: while no die is waiting for an answer and the tray is still (like the frame before)
        with no hand in it, take the biggest die not answered yet."""
        frame = self._frame = np.asarray(frame_bgr)
        before, self._before = self._before, rest.thumbnail(frame)
        if not rest.still(before, self._before):
            self._dice_only = None
            return
        if self._hand_held(frame, self._before) or self.crop is not None:
            return
        wait_warm()
        cands = find_any_dice(frame, plain=self.dice_set.plain_cubes)
        found = face_outline.distinct_dice(frame, cands)  # a die seen from the side once
        self.n_seen = len(found)
        # a die answered that moved or was turned is asked about again; one a hand hid for a moment is not
        lying = [a for a in self.answered if a.still_in(frame)]
        waiting = sorted((f for f in found if not any(a.is_at(f) for a in lying)), key=lambda f: -f.cand.size)
        light = table_light(frame)  # the light it is taught in: ``taught.Profile.under``
        pips: list[DieReading] | None = None  # the pip reader's dice of this frame (pip sets), read once
        die = m = None
        self.glare = False
        for f in waiting:  # the biggest first
            # too much light: its outline would be a guess, and so would its example
            if taught.burned_out(f.crop):
                self.glare = True
                return
            m = taught.match(self.profile, f.crop, light)
            if pips is None and self.dice_set.reader == "pips":
                pips = pip_readings(frame)
            if not self._known(m, f, pips):
                die = f
                break
            self.answered = [*self.answered[-(ANSWERED - 1):], LyingDie.seen(frame, f)]
        self.tray_done = bool(found) and die is None
        if die is None or m is None:
            return
        self.die = LyingDie.seen(frame, die)
        self.crop = die.crop
        profiles.taking(self.profile, self.camera, frame)
        self.light = light
        self.outline = face_outline.face_corners(self.crop)
        self.look = mark_look(self.crop, self.dice_set, self.outline)
        guess = m.guess
        # the patch shows no such colour, or a number guessed for a colour patch (SELECT would be refused)
        if self.look is not None and guess not in (None, self.look) and {guess, self.look} & self._hues.keys():
            guess = None
        # Fritzo: the colour the cube looks like; Noch X-Mal!: the patch's; pip dice: the face their pips show
        patch = colour_guess(self.crop, self.dice_set) if self.dice_set.plain_cubes else patch_colour(self.look)
        self.guess = guess or patch or pip_guess(frame, die.cand, self.dice_set, pips)
        if not self.message_lasts:
            self.message = ""
        self._rebuild_menu()

    def _known(self, m: taught.Match, die: face_outline.FoundDie, pips: list[DieReading] | None) -> bool:
        """Whether a die need not be asked about: read for sure as a face with WANTED_EXAMPLES photos already, or,
        in a pip set with a face taught, read for sure by its pips where the matcher offers no other face (as
        ``read_taught`` reads it; ``pips``: the pip reader's dice of the frame). Why: after 36/36 every die was
        asked about on every throw (Noch X-Mal!: 45 answers and 6 throws more for the one face with a single photo),
        and a d6's every pip die cost its 7 presses to skip. While nothing is taught every d6 die is asked about: the
        pip reader reads an emblem as five pips or one, surely (the made-up star: 70 of 73), and it could not be
        taught."""
        if m.face is not None:  # but the face asked for once more (its photos disagree) is shown again
            if m.face in self._hues and mark_look(die.crop, self.dice_set) not in (None, m.face):
                return False  # read as a colour its mark does not show (no hue, another colour): asked about
            return m.face != self.again and self.profile.counts().get(m.face, 0) >= WANTED_EXAMPLES
        if pips is None or not len(self.profile):
            return False
        face = pip_face(die.cand, pips, self.dice_set)
        return face is not None and m.guess in (None, face)

    def _hand_held(self, frame: np.ndarray, thumb: np.ndarray) -> bool:
        if rest.hand_in(self._quiet, thumb) and not self._dice_only_changed(frame, thumb):
            if self._hand_since is None:
                self._hand_since = self._now
            if self._now - self._hand_since < rest.HAND_TIMEOUT:
                self.hand = True
                return True
        self._hand_since, self.hand, self._quiet, self._quiet_frame = None, False, thumb, frame
        return False

    def _dice_only_changed(self, frame: np.ndarray, thumb: np.ndarray) -> bool:
        """Whether the change from the quiet tray that looks like an arm is dice alone: dice turned or thrown anew
        by hand at the frame's edge change it there as an arm does, and the screen waited ``rest.HAND_TIMEOUT`` s
        before asking about them. Where the change reaches the edge is looked at without the dice of either tray
        (``rest.dice_alone``), as the games' trigger does; an arm crosses the edge beside them. Once a still spell:
        it finds the dice of two frames."""
        if self._dice_only is None:
            wait_warm()
            plain = self.dice_set.plain_cubes
            boxes = [c.square for f in (frame, self._quiet_frame) if f is not None
                     for c in find_any_dice(f, plain=plain)]
            self._dice_only = rest.dice_alone(self._quiet, thumb, frame.shape[:2], boxes)
        return self._dice_only

    def on_new_tray(self) -> None:
        """ROLL was carried out (the built-in tray threw, a replay showed its next photo): the frames from here on
        show another tray, not a hand over this one. Told by the app once the first such frame has come: reset at
        the press itself, a frame of the old tray still on its way became the quiet tray, and a throw whose dice
        landed at the edge was then a hand for ``rest.HAND_TIMEOUT`` s (one throw in four of Haste Worte's). A die
        asked about goes with its tray: its picture stayed, asked about, over the new throw's dice."""
        self._quiet = self._quiet_frame = None
        if self.crop is not None:
            self.crop, self.guess, self.die = None, None, None
            self._rebuild_menu()

    def on_button(self, event: ButtonEvent) -> None:
        if event.button is Button.SELECT and self.crop is None and self._asks_marks(self.progress):
            self._confirm_marks()  # no die asked about: SELECT is the button under "another die with a mark?"
            return
        if event.button is Button.UNDO and self.on_done is not None:
            if event.press is Press.LONG:
                self.on_done()
                return
            if self._take_back():
                return
        self.menu.on_button(event)

    def _confirm_marks(self) -> None:
        """No other die carries the set's mark: said for the sitting at once, and kept with the profile where the
        card takes it (a card that refuses loses only the question asked again at the next sitting)."""
        self.marks_confirmed = True
        try:
            self.confirm_marks(self.dice_set.name)
        except OSError:
            log.warning("the confirmation of %s's marks could not be kept", self.dice_set.name, exc_info=True)

    def _take_back(self) -> bool:
        """UNDO: the latest answer of this sitting taken back, its example out of the profile, and its die asked
        about again while it lies there; False when there is none left (UNDO then leaves, as the hint says).

        Why: a child pressing SELECT four times taught "1" and "2" for a 4 and a 5, and nothing on the screen took
        it back; the first examples of a face stay for good, and the reader named 4s "2" all evening."""
        while self._given:
            face, key, die = self._given.pop()
            if not profiles.take_example(self.profile, face, key):  # settled away since: nothing left to take back
                continue
            self.answered = [d for d in self.answered if d is not die]  # asked about again where it lies
            self._remember(key, None)
            label = face_label(face, self.lang, self.dice_set)
            asked_as = self._asked_as.pop(key, None)
            # its die still lying there is asked about again now: the screen went on asking about the other die
            # under "Taken back: Red" with Red on top, and one SELECT taught that die as Red
            back = (die is not None and asked_as is not None and self._frame is not None
                    and die.still_in(self._frame))
            later = self.crop is not None and not back  # another die asked about: this one after it
            if back:
                self.crop, self.light, self.guess, self.look = asked_as
                self.die, self.tray_done = die, False
                self.outline = face_outline.face_corners(self.crop)
            try:
                self.save(self.profile)
            except OSError as exc:
                self.unsaved = True
                self.message = t("teach.not_saved", self.lang, error=disk_words(exc, self.lang))
            else:
                self.unsaved = False
                # beside its die, asked about again at once where it lies (the next frame took the words away)
                key_words = "teach.taken_back_later" if later else "teach.taken_back"
                self.message, self.message_lasts = t(key_words, self.lang, face=label), True
            if not later:  # the face is missing again: first in the list; the other die's list stays as it was
                self._rebuild_menu()
            return True
        return False

    def on_tap(self, pos: tuple[int, int]) -> None:
        if self._confirm is not None and self.crop is None and self._confirm.collidepoint(pos):
            self._confirm_marks()
            return
        if (press := tapped_hint(self._hint_buttons, pos)) is not None:
            if press.button is Button.ROLL and self.throw is not None:
                self.throw()
            else:
                self.on_button(press)
            return
        self.menu.on_tap(pos)

    def on_dice(self, reading: TrayReading) -> None:
        pass  # teaching works on frames (on_frame), not on readings

    def update(self, dt: float, now: float) -> None:
        self._now = now

    def draw(self, surface: pygame.Surface) -> None:
        lang = self.lang
        surface.fill(theme.BG)
        self._note_answer()
        prog = self.progress
        thin = self._thin(prog)  # faces with one photo only
        asks_marks = self._asks_marks(prog)
        # green: two photos each, no mark left to ask about, and for pip dice something taught ("Nothing taught yet"
        # was green, since every pip face counts as read)
        colour = theme.GOOD if self._settled(prog, thin) else theme.TEXT
        done = theme.text(surface, prog.text(lang), (780, 14), theme.BODY, colour, bold=True, anchor="topright")
        self.in_view = [done]  # the count of faces taught: the 'sound off' sign covered it
        title = t("teach.title_virtual" if self.virtual else "teach.title", lang,
                  set=t(f"dice.set.{self.dice_set.name}", lang))
        theme.text(surface, title, (20, 12), theme.fit_text(title, theme.LARGE, done.x - 40), theme.ACCENT, bold=True)
        if prog.pips:  # every pip face is read already: only a face without pips (an emblem) is worth teaching
            line = t("teach.pips_hint", lang)
        elif prog.missing:
            line = t("teach.missing", lang, faces=", ".join(face_label(f, lang, self.dice_set)
                                                             for f in prog.missing))
        elif prog.marks_untaught and not self.marks_confirmed:  # no face with the set's mark taught: the dice that
            # carry it would be asked about
            line = t("teach.done_marks", lang, example=face_label(prog.marks_untaught[0], lang, self.dice_set))
        elif not self.marks_confirmed and (marked := [f for f in prog.counts
                                                      if any(f.endswith(m) for m in self.dice_set.marks)]):
            # "every face" with two of the crossed ones shown: the others were asked about at the first roll
            bases = sorted({self.dice_set.base(f) for f in marked}, key=self.dice_set.face_names().index)
            line = t("teach.done_marked", lang, faces=", ".join(bases))
        elif thin:  # every face once: a second photo reads it more surely (the list
            # puts these first too, also where the marks' line stands here)
            line = t("teach.done_thin", lang, faces=", ".join(face_label(f, lang, self.dice_set) for f in thin))
        else:
            line = t("teach.done", lang)
        lasting = self.message if self.message_lasts else ""
        if self.crop is not None and lasting:
            # what the last answer asks for ("blurred", "taken back", "no mark seen"), above the list and across the
            # screen: beside the next die, under "which face" and "3 dice: each in turn", it had 40 px and was 14 px
            lines, size = theme.fit_lines(lasting, theme.SMALL, 760)
            for k, part in enumerate(lines):
                theme.text(surface, part, (20, 58 if len(lines) == 1 else 44 + k * (size + 2)), size, theme.WARN)
        else:
            self._draw_top_line(surface, line, None if lasting else self._just_answered())

        die_rect = pygame.Rect(20, 96, 200, 200)
        self._confirm = None
        if self.crop is None:
            pygame.draw.rect(surface, theme.PANEL, die_rect, border_radius=12)
            # what to do next, where the list of faces stood: a hand in the tray first, it holds everything up
            todo = t("teach.hand", lang) if self.hand else t("teach.burned_out", lang) if self.glare else \
                t("teach.more_marks", lang) if asks_marks else self._turn_them(prog, thin) if self.tray_done else None
            msg = lasting or ("" if todo is not None else t("teach.no_die", lang))
            draw_wrapped(surface, msg, pygame.Rect(20, 310, 300, 126), theme.BODY, theme.TEXT)
            if todo is not None:
                y = draw_wrapped(surface, todo, pygame.Rect(340, 110, 430, 210), theme.LARGE, theme.ACCENT)
                if asks_marks and not self.hand and not self.glare:  # a highlighted line, as in every list: SELECT
                    # (no hint of its own: the bar shrank to 14 px in German)
                    self._confirm = self._draw_confirm(surface, max(y + 16, 300))
            # the set taught: turning the dice is no longer the next step, only a way to more photos (it read as an
            # order beside "the dice are taught")
            roll = "teach.roll_hint_done" if colour is theme.GOOD else "teach.roll_hint"
            self._draw_hints(surface, [(t("core.btn_roll", lang), t(roll, lang))], roll=True)
            return
        self._drawn_crop = self.crop
        surface.blit(bgr_surface(self.crop, die_rect.size), die_rect)
        pygame.draw.rect(surface, theme.ACCENT, die_rect, width=3, border_radius=4)
        if self.outline is not None:
            k = die_rect.w / self.crop.shape[1]
            points = [(die_rect.x + (x + 0.5) * k, die_rect.y + (y + 0.5) * k) for x, y in self.outline.tolist()]
            # a dark edge under the green line: green alone was ΔE 1.8 from a white die's rim in grey, and the
            # words name the outline, not its hue
            pygame.draw.lines(surface, theme.BG, True, points, 9)
            for p in points:  # round the halo's corners (thick lines leave notches where they meet)
                pygame.draw.circle(surface, theme.BG, p, 4)
            pygame.draw.lines(surface, theme.GOOD, True, points, 3)
        # the highlighted answer, drawn as the screen will show that face (pattern and name for colours)
        chosen = self.menu.items[self.menu.index].value if self.menu.items else SKIP
        if chosen is not SKIP:
            draw_face(surface, pygame.Rect(232, 176, 88, 88), chosen, lang, self.dice_set, selected=True)
        question = t("teach.pips_which" if prog.pips else "teach.which_face", lang)
        y = draw_wrapped(surface, question, pygame.Rect(20, 306, 300, 60), theme.BODY, theme.TEXT)
        notes = [(t("teach.outline", lang), theme.GOOD)]
        if self.n_seen > 1:
            notes.append((t("teach.several", lang, n=self.n_seen), theme.WARN))
        laid, size = notes_laid(tuple(s for s, _ in notes), 300, 436 - y)
        for lines, (_, colour) in zip(laid, notes, strict=True):
            y += NOTE_GAP
            for line in lines:
                theme.text(surface, line, (20, y), size, colour)
                y += theme.font(size).get_linesize()
        self.menu.draw(surface)
        self._draw_hints(surface, [(t("core.btn_next", lang), t("core.hint_move", lang)),
                                   (t("core.btn_select", lang), t("core.hint_choose", lang))])

    def _draw_top_line(self, surface: pygame.Surface, line: str,
                       just: tuple[str, pygame.Surface | None] | None) -> None:
        """The line under the title: the answer given just now (with its die's picture), a face to show once more,
        and what is still to teach, beside them where it stays readable."""
        x = 20
        if just is not None:  # with several dice the next was asked at once, and "Saved: Red" never showed
            label, thumb = just
            if thumb is not None:
                box = pygame.Rect(x, 46, JUST, JUST)
                surface.blit(thumb, box)
                pygame.draw.rect(surface, theme.MUTED, box, width=2, border_radius=4)
                x = box.right + 10
            said = t("teach.just_answered", self.lang, face=label)
            x = theme.text(surface, said, (x, 68), theme.fit_text(said, theme.BODY, 420, bold=True), theme.TEXT,
                           bold=True, anchor="midleft").right + 20
        if self.again is not None:  # asked for once more (its photos disagree) until it is shown again
            again = t("teach.show_again", self.lang, face=face_label(self.again, self.lang, self.dice_set))
            x = theme.text(surface, again, (x, 58), theme.SMALL, theme.WARN, bold=True).right + 16
        # two lines where one would be small (Haste Worte's eleven symbols were 12 px); beside the words before it
        # only where it stays readable (it shrank to 8 px): the missing faces stand first in the list anyway
        lines, size = theme.fit_lines(line, theme.SMALL, 780 - x)
        if size >= theme.SMALLEST:
            for k, part in enumerate(lines):
                theme.text(surface, part, (x, 58 if len(lines) == 1 else 44 + k * (size + 2)), size, theme.MUTED)

    def _note_answer(self) -> None:
        """Keep a small picture of the die each answer was given for: the die on the screen at the draw before the
        answer was kept (``_choose`` keeps no picture), so that "Just now: Red" stands beside the 3 it was given for
        and a slip shows."""
        if len(self._given) == self._drawn_given + 1 and self._drawn_crop is not None:
            key = self._given[-1][1]
            self._thumbs.setdefault(key, bgr_surface(self._drawn_crop, (JUST, JUST)))
        self._drawn_given = len(self._given)
        kept = {key for _, key, _ in self._given}
        for key in [k for k in self._thumbs if k not in kept]:
            del self._thumbs[key]
        if self.crop is None:
            self._drawn_crop = None

    def _just_answered(self) -> tuple[str, pygame.Surface | None] | None:
        """The answer UNDO takes back, named, with the picture of its die where one was kept."""
        if not self._given:
            return None
        face, key, _ = self._given[-1]
        return face_label(face, self.lang, self.dice_set), self._thumbs.get(key)

    def _thin(self, prog: Progress) -> list[str]:
        """The faces with fewer photos than ``WANTED_EXAMPLES``: for an open set (Haste Worte's symbols) the ones
        taught, which the count does not name (it turned green after one photo of each, the README asks for two)."""
        if prog.open and not prog.pips:
            return [f for f, n in prog.per_face(self.dice_set).items() if n < WANTED_EXAMPLES]
        return prog.thin(self.dice_set)

    def _asks_marks(self, prog: Progress) -> bool:
        """Every face taught in a set whose faces may carry a mark, and nobody said yet that no other die does (the
        question names Echt Spitze's extra cross, the one mark a set has; naming it by an example, "1 + extra cross",
        broke the name across lines)."""
        return bool(self.dice_set.marks) and not prog.pips and prog.done and not self.marks_confirmed

    def _settled(self, prog: Progress, thin: list[str]) -> bool:
        """Two photos of each face, no mark left to ask about, and for pip dice something taught: the count green."""
        return prog.done and not thin and not self._asks_marks(prog) and (not prog.pips or bool(prog.counts))

    def _turn_them(self, prog: Progress, thin: list[str]) -> str:
        """"Every die answered: turn them", and to which faces: they stood only in the small line above. With the set
        done it says so, and how to finish: "turn them" at 36/36 sent a family throwing on for nothing."""
        if not prog.pips and self._settled(prog, thin):
            said = t("teach.all_taught", self.lang)
            if self.on_done is None or self.unsaved:  # no way out here, or not all saved: the hint bar says so
                return said
            how = "teach.all_taught_hold" if self._given else "teach.all_taught_press"
            return f"{said} {t(how, self.lang, undo=t('core.btn_undo', self.lang))}"
        faces = list(prog.missing) if not prog.pips else []
        key = "teach.all_answered_missing" if faces else "teach.all_answered_thin" if thin else "teach.all_answered"
        faces = faces or thin
        named = [face_label(f, self.lang, self.dice_set) for f in faces[:NAMED]]
        # "…" on the last name: alone, it was wrapped onto a line of its own
        return t(key, self.lang, faces=", ".join(named) + ("…" if len(faces) > NAMED else ""))

    def _draw_confirm(self, surface: pygame.Surface, y: int) -> pygame.Rect:
        """The button that says no other die carries a mark: drawn as a highlighted line of a list (SELECT or a
        finger), under the question."""
        r = pygame.Rect(340, min(y, 416 - 64), 430, 64)
        pygame.draw.rect(surface, theme.PANEL_HI, r, border_radius=10)
        pygame.draw.rect(surface, theme.ACCENT, r, width=4, border_radius=10)
        label = t("teach.no_more_marks", self.lang)
        theme.text(surface, label, (r.x + 18, r.centery), theme.fit_text(label, theme.BODY, r.w - 30, bold=True),
                   theme.TEXT, bold=True, anchor="midleft")
        return r

    def _undo_hints(self, others: Sequence[tuple[str, str]] = ()) -> list[tuple[tuple[str, str], ButtonEvent]]:
        """The UNDO hints, each with the press a tap on it stands for. UNDO leaves the teaching (every answer is saved
        already): said on the screen, or a family looks for a way out (Skip only passes over one die). With answers
        to take back, a short UNDO takes one back and a held one finishes: two hints, each a button for a finger.
        ``others``: the screen's hints before them, which share the bar."""
        if self.on_done is None:
            return []
        undo = t("core.btn_undo", self.lang)
        if self._given:  # a short UNDO takes an answer back (also when not saved): finishing is the held one
            finish = (undo, t("teach.hint_hold_finish_unsaved" if self.unsaved else "teach.hint_hold_finish",
                              self.lang))
            return [((undo, self._take_back_words([*others, finish])), ButtonEvent(Button.UNDO)),
                    (finish, ButtonEvent(Button.UNDO, Press.LONG))]
        said = "teach.hint_finish_unsaved" if self.unsaved else "teach.hint_finish"
        return [((undo, t(said, self.lang)), ButtonEvent(Button.UNDO))]

    def _take_back_words(self, others: Sequence[tuple[str, str]]) -> str:
        """The short UNDO's hint, naming the answer it takes back (with several dice the answer was never seen, and
        UNDO could not be aimed) where the bar stays readable: the face's name, its short name ("?" for "? (any
        number)"), or "take back the last answer". A long name shrank the whole bar to 15 px ("„? (freie Zahl)“
        zurücknehmen"), below what the one at the buttons reads."""
        undo = t("core.btn_undo", self.lang)
        label = face_label(self._given[-1][0], self.lang, self.dice_set)
        short = " ".join(_PARENTHESES.sub("", label).split()) or label
        tries = [t("teach.hint_take_back", self.lang, face=name) for name in dict.fromkeys((label, short))]
        tries.append(t("teach.hint_take_back_last", self.lang))
        sizes = [hint_bar_size([*others, (undo, words)]) for words in tries]
        return next((words for words, size in zip(tries, sizes, strict=True) if size >= theme.SMALLEST),
                    tries[sizes.index(max(sizes))])

    def _draw_hints(self, surface: pygame.Surface, hints: list[tuple[str, str]], *, roll: bool = False) -> None:
        """The hint bar, its UNDO hints drawn as buttons: a table with the touch screen alone had no way out of the
        teaching nor back from a wrong answer. ``roll``: the first hint is ROLL's, a button too where it throws."""
        undo = self._undo_hints(hints)
        rects = hint_bar(surface, [*hints, *(hint for hint, _ in undo)])
        self._hint_buttons = [(hint_button(surface, r), press)
                              for r, (_, press) in zip(rects[len(hints):], undo, strict=True)]
        if roll and self.throw is not None:
            self._hint_buttons.append((hint_button(surface, rects[0]), ButtonEvent(Button.ROLL)))


#: the room between the question and each note under it
NOTE_GAP = 4


def notes_laid(notes: tuple[str, ...], width: int, height: int) -> tuple[list[tuple[str, ...]], int]:
    """The notes under the question ("the outlined face is learned", "3 dice: each in turn"), each on as few even
    lines as ``width`` takes, at the largest size (the question's BODY at most) at which they stand in ``height``
    together, a ``NOTE_GAP`` before each (12 and cut where nothing fits). Why: with several dice in view each had a
    fixed 40 px and stood at SMALL, below the room there was under the die; the one answering reads them to know
    what the outline means."""
    for size in range(theme.BODY, 11, -2):
        f = theme.font(size)
        laid = [next((lines for n in (1, 2, 3) if (lines := theme.even_lines(s, f, width, n)) is not None), None)
                for s in notes]
        if all(lines is not None for lines in laid) and (
                sum(len(lines) for lines in laid) * f.get_linesize() + NOTE_GAP * len(notes) <= height):
            return [lines for lines in laid if lines is not None], size
    return [theme.fit_lines(s, 12, width, 3)[0] for s in notes], 12


#: a face name's explanation in parentheses, left out of its short name ("? (any number)": "?")
_PARENTHESES = re.compile(r"\s*\([^()]*\)")


#: how far (in the die's sides) the top face of a die lying still may seem to move between frames: the finder's jitter
SAME_PLACE = 0.3
#: how alike (normalised cross-correlation) the frame must stay where a die lies for it to lie there as it was.
#: Rendered trays: the same die under sensor noise or an 8 % change of exposure 0.999-1.0; another face at exactly the
#: same place and angle 0.82-0.97 (a die turned by hand also moves, which takes it far lower)
SAME_LOOK = 0.98
#: the dice answered that are remembered: more than a tray holds, so a die a hand hid for a moment is not asked
#: about again once the hand is gone
ANSWERED = 24


@dataclass(frozen=True)
class LyingDie:
    """A die the screen asked about, as it lay: where its top face was, its size, and the frame there (grey)."""

    centre: tuple[float, float]
    size: float
    look: np.ndarray

    @classmethod
    def seen(cls, frame: np.ndarray, die: face_outline.FoundDie) -> LyingDie:
        return cls(die.top_centre, float(die.cand.size), _patch(frame, die.top_centre, die.cand.size))

    def still_in(self, frame: np.ndarray) -> bool:
        """Whether it still lies so in ``frame``: not turned, moved or taken out (then it is asked about again)."""
        a, b = self.look - self.look.mean(), _patch(frame, self.centre, self.size)
        b = b - b.mean()
        return float((a * b).sum()) >= SAME_LOOK * float(np.sqrt((a * a).sum() * (b * b).sum()) + 1e-6)

    def is_at(self, die: face_outline.FoundDie) -> bool:
        (ax, ay), (bx, by) = self.centre, die.top_centre
        return float(np.hypot(ax - bx, ay - by)) <= SAME_PLACE * max(self.size, float(die.cand.size))


def _answered_before(set_name: str, profile: Profile) -> list[tuple[str, LyingDie]]:
    """The dice answered in earlier sittings of ``set_name`` whose examples ``profile`` still holds (not taken back
    by UNDO, left out by ``settle``, or taught afresh), and those skipped beside the same profile, with their example
    keys ("": skipped): a new sitting, also on another evening, does not ask about them while they lie so."""
    return [(d.key, LyingDie(d.centre, d.size, d.look)) for d in profiles.load_answered(set_name, profile)]


def _patch(frame: np.ndarray, centre: tuple[float, float], size: float) -> np.ndarray:
    """The frame around a die's top face, grey, at a fixed small size."""
    half = max(4, int(round(0.5 * size)))
    x, y = int(round(centre[0])), int(round(centre[1]))
    # cut first: the patch alone made grey, not the whole frame once per die remembered on every still frame
    cut = frame[max(0, y - half):y + half, max(0, x - half):x + half]
    if cut.size == 0:
        return np.zeros((24, 24), np.float32)
    grey = cv2.cvtColor(cut, cv2.COLOR_BGR2GRAY) if cut.ndim == 3 else cut
    return cv2.resize(grey, (24, 24), interpolation=cv2.INTER_AREA).astype(np.float32)
