"""The teaching screen: shows the die the camera found and asks which face it is, until every face has examples.

A Mode (``companion/views/mode.py``) with one addition: the app hands it camera frames with ``on_frame(frame)``
(teaching needs the picture, not only a reading). Everything works with NEXT/SELECT alone, by touch, or the
keyboard (which the app turns into the same button events). Faces still missing come first in the list, so a
family mostly presses SELECT; each answer is saved at once (an evening's teaching survives a pulled plug).
"""

from __future__ import annotations

from collections.abc import Callable

import cv2
import numpy as np
import pygame

from companion import dicesets, profiles
from companion.i18n import t
from companion.teach import Progress, progress
from companion.views import theme
from companion.views.colour_faces import draw_face, face_label
from companion.views.widgets import Menu, MenuItem, hint_bar
from hardware.events import ButtonEvent
from vision import taught
from vision.detect import find_any_dice
from vision.taught import Profile
from vision.types import TrayReading

SKIP = object()


class TeachView:
    """``companion teach SET`` on the screen. ``save`` stores the profile (tests pass a fake to stay off disk)."""

    def __init__(self, set_name: str, lang: str = "de", *, profile: Profile | None = None,
                 save: Callable[[Profile], object] = profiles.save_profile,
                 on_done: Callable[[], None] | None = None) -> None:
        self.lang = lang
        self.dice_set = dicesets.load(set_name)
        self.profile = profile if profile is not None else profiles.load_profile(set_name)
        self.save = save
        self.on_done = on_done
        self.crop: np.ndarray | None = None
        #: the top face the reader found on the crop (corners, crop pixels), drawn so that a player can see a wrong
        #: one (a side face taken in) and skip that die rather than teach it
        self.outline: np.ndarray | None = None
        self.n_seen = 0
        self.guess: str | None = None
        #: a face whose photos do not look alike (``taught.Profile.settle``): asked for once more, first in the menu
        self.again: str | None = None
        self.message = ""
        self.menu = Menu(pygame.Rect(330, 96, 450, 320), [], self._choose, on_done)
        self._rebuild_menu()

    # --- state -----------------------------------------------------------------------------------------------

    @property
    def progress(self) -> Progress:
        return progress(self.dice_set, self.profile)

    def _faces_in_order(self) -> list[str]:
        """Missing faces first, then the marked variants (``3+X``), then the rest; the guess on top."""
        names = self.dice_set.face_names()
        missing = list(self.progress.missing)
        marked = [f + m for m in self.dice_set.marks for f in names]
        known = [n for n in self.profile.counts() if n not in names and n not in marked]
        order = missing + [f for f in names if f not in missing] + marked + known
        for first in (self.again, self.guess):  # the face to show once more, and this die's guess above it
            if first in order:
                order.remove(first)
                order.insert(0, first)
        return order

    def _rebuild_menu(self) -> None:
        items = [MenuItem(face_label(f, self.lang, self.dice_set), f) for f in self._faces_in_order()]
        items.append(MenuItem(t("teach.skip", self.lang), SKIP))
        self.menu.items = items
        self.menu.index = 0

    def _choose(self, value: object) -> None:
        if value is SKIP or self.crop is None:
            self.crop, self.guess = None, None
            self._rebuild_menu()
            return
        face = str(value)
        label = face_label(face, self.lang, self.dice_set)
        try:
            self.profile.add(face, self.crop)
        except taught.MarkNotSeen:  # a side or a blur taken for the top face: a blank example would mislead
            self.message = t("teach.no_mark", self.lang, face=label)
        else:
            said = self.profile.settle(face)  # its photos must look alike: a blurred one would mislead
            self.save(self.profile)
            if said == "disagree":  # asked for once more, first in the menu, until it is shown again
                self.again = face
                self.message = t("teach.again", self.lang, face=label)
            else:
                if self.again == face:
                    self.again = None
                self.message = t("teach.dropped" if said == "dropped" else "teach.saved", self.lang, face=label)
        self.crop, self.guess = None, None
        self._rebuild_menu()

    # --- Mode ------------------------------------------------------------------------------------------------

    def on_frame(self, frame_bgr: np.ndarray) -> None:
        """A new camera frame while no die is waiting for an answer: take the biggest die found."""
        if self.crop is not None:
            return
        found = taught.distinct_dice(np.asarray(frame_bgr), find_any_dice(frame_bgr))  # a die seen from the side once
        self.n_seen = len(found)
        if not found:
            return
        self.crop = max(found, key=lambda f: f.cand.size).crop
        self.outline = taught.face_corners(self.crop)
        m = taught.match(self.profile, self.crop)
        self.guess = m.nearest if m.nearest is not None and m.confidence > 0.2 else None
        self.message = ""
        self._rebuild_menu()

    def on_button(self, event: ButtonEvent) -> None:
        self.menu.on_button(event)

    def on_tap(self, pos: tuple[int, int]) -> None:
        self.menu.on_tap(pos)

    def on_dice(self, reading: TrayReading) -> None:
        pass  # teaching works on frames (on_frame), not on readings

    def update(self, dt: float, now: float) -> None:
        pass

    def draw(self, surface: pygame.Surface) -> None:
        lang = self.lang
        surface.fill(theme.BG)
        prog = self.progress
        colour = theme.GOOD if prog.done else theme.TEXT
        done = theme.text(surface, prog.text(lang), (780, 14), theme.BODY, colour, bold=True, anchor="topright")
        title = t("teach.title", lang, set=t(f"dice.set.{self.dice_set.name}", lang))
        theme.text(surface, title, (20, 12), theme.fit_text(title, theme.LARGE, done.x - 40), theme.ACCENT, bold=True)
        if prog.pips:  # every pip face is read already: only a face without pips (an emblem) is worth teaching
            line = t("teach.pips_hint", lang)
        elif prog.missing:
            line = t("teach.missing", lang, faces=", ".join(face_label(f, lang, self.dice_set)
                                                             for f in prog.missing))
        else:
            line = t("teach.done", lang)
        x = 20
        if self.again is not None:  # asked for once more (its photos disagree) until it is shown again
            again = t("teach.show_again", lang, face=face_label(self.again, lang, self.dice_set))
            x = theme.text(surface, again, (x, 58), theme.SMALL, theme.WARN, bold=True).right + 16
        theme.text(surface, line, (x, 58), theme.fit_text(line, theme.SMALL, 780 - x), theme.MUTED)

        die_rect = pygame.Rect(20, 96, 200, 200)
        if self.crop is None:
            pygame.draw.rect(surface, theme.PANEL, die_rect, border_radius=12)
            msg = self.message or t("teach.no_die", lang)
            _wrap(surface, msg, pygame.Rect(20, 310, 300, 110), theme.BODY, theme.TEXT)
            hint_bar(surface, [(t("core.btn_roll", lang), t("teach.roll_hint", lang)), *self._finish_hint()])
            return
        rgb = cv2.cvtColor(cv2.resize(self.crop, die_rect.size, interpolation=cv2.INTER_LINEAR), cv2.COLOR_BGR2RGB)
        surface.blit(pygame.image.frombuffer(np.ascontiguousarray(rgb).tobytes(), die_rect.size, "RGB"), die_rect)
        pygame.draw.rect(surface, theme.ACCENT, die_rect, width=3, border_radius=4)
        if self.outline is not None:
            k = die_rect.w / self.crop.shape[1]
            points = [(die_rect.x + (x + 0.5) * k, die_rect.y + (y + 0.5) * k) for x, y in self.outline.tolist()]
            pygame.draw.lines(surface, theme.GOOD, True, points, 3)
        # the highlighted answer, drawn as the screen will show that face (pattern and name for colours)
        chosen = self.menu.items[self.menu.index].value if self.menu.items else SKIP
        if chosen is not SKIP:
            draw_face(surface, pygame.Rect(232, 176, 88, 88), chosen, lang, self.dice_set, selected=True)
        question = t("teach.pips_which" if prog.pips else "teach.which_face", lang)
        y = _wrap(surface, question, pygame.Rect(20, 306, 300, 60), theme.BODY, theme.TEXT)
        y = _wrap(surface, t("teach.outline", lang), pygame.Rect(20, y + 4, 300, 40), theme.SMALL, theme.GOOD)
        if self.n_seen > 1:
            _wrap(surface, t("teach.several", lang, n=self.n_seen), pygame.Rect(20, y + 4, 300, 40), theme.SMALL,
                  theme.WARN)
        self.menu.draw(surface)
        hint_bar(surface, [(t("core.btn_next", lang), t("core.hint_move", lang)),
                           (t("core.btn_select", lang), t("core.hint_choose", lang)), *self._finish_hint()])

    def _finish_hint(self) -> list[tuple[str, str]]:
        """UNDO leaves the teaching (every answer is saved already): said on the screen, or a family looks for a way
        out (Skip only passes over one die)."""
        if self.on_done is None:
            return []
        return [(t("core.btn_undo", self.lang), t("teach.hint_finish", self.lang))]


def _wrap(surface: pygame.Surface, s: str, rect: pygame.Rect, size: int, color: tuple[int, int, int]) -> int:
    """Word-wrap ``s`` into ``rect`` (long German words stay whole); the y below the last line."""
    words, line, y = s.split(), "", rect.y
    f = theme.font(size)
    for w in words:
        trial = f"{line} {w}".strip()
        if f.size(trial)[0] > rect.w and line:
            theme.text(surface, line, (rect.x, y), size, color)
            y += f.get_linesize()
            line = w
        else:
            line = trial
    if line:
        theme.text(surface, line, (rect.x, y), size, color)
        y += f.get_linesize()
    return y
