"""Teaching the table's own Fritzo cube set, cube by cube and face by face.

Why a screen for this: the players' set differs from what is published, and a game is only as right as the set it
checks against. Each of the 27 cubes is shown face by face in the fixed face order of ``geometry.FACES`` (top,
bottom, back, front, right, left), the order every stored cube uses, so the colours land on the right faces and
rotations stay exact. The player first stands the cube in front of them and keeps that pose in mind; for each face
the screen draws an unfolded cube with that face marked and says which face (and, with a camera, which way to tip
the cube so that face looks up into the camera). A face is entered by SELECT on the colour list (NEXT moves, or a
tap); a confident camera reading of a single cube pre-selects its colour, the player still confirms it, so a
misread never slips in unseen. Colours are drawn as swatches with pattern and name (``colour_faces``) for
colour-blind players.

After the sixth face the cube is checked (six faces, colours of the set, not the same as an earlier cube turned);
a duplicate is named ("Cube 12 gleicht Cube 4") and the cube is entered again. Every accepted cube is stored at
once, atomically, as a partial set beside the real one (``fritzo-cubes.partial.json``), so a pulled plug loses at
most the cube in hand and a new screen on the same path continues where the old one stopped. The real set file is
only replaced after cube 27, when the full set passes ``CubeSet.checked``; an interrupted re-teach never damages
a set the table already has.

A Mode (``companion/views/mode.py``) plus ``on_frame(frame_bgr)``: the app hands it camera frames.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np
import pygame

from companion import dicesets
from companion.games.fritzo import cubeset
from companion.games.fritzo.cubeset import SET_SIZE, Cube, CubeSet, find_duplicates
from companion.games.fritzo.errors import CubeSetError
from companion.games.fritzo.geometry import BOTTOM, EAST, FACES, NORTH, SOUTH, TOP, WEST
from companion.i18n import disk_words, t
from companion.views import theme
from companion.views.colour_faces import colour_style, draw_colour_face, draw_pattern
from companion.views.fritzo_view import colour_label
from companion.views.widgets import Menu, MenuItem, draw_wrapped, hint_bar, hint_button
from hardware.events import Button, ButtonEvent, Press
from vision.types import TrayReading

Reader = Callable[[np.ndarray], TrayReading]

#: a single-cube reading at or above this confidence pre-selects its colour (the taught matcher reports >= 0.5)
CONFIDENT = 0.5
#: seconds between two camera reads: finding and matching a cube every frame would starve a Pi
READ_EVERY = 0.3
#: seconds "Satz gespeichert" stays on screen before ``on_done`` (SELECT or a tap leaves at once)
DONE_SECONDS = 4.0

BACK = "__back__"  # the menu item that steps back one face (UNDO for touch players)

# layout, design pixels (800x480); the app's menu corner at the top right stays free
FACE_TITLE = pygame.Rect(16, 62, 392, 40)
NET_AREA = pygame.Rect(16, 104, 168, 224)
SIDE_AREA = pygame.Rect(208, 104, 200, 224)
TEXT_AREA = pygame.Rect(16, 334, 396, 112)
MENU_AREA = pygame.Rect(428, 62, 356, 384)
ROW_H = 54  # 6 colours + "back" = 7 rows in MENU_AREA

#: where each face sits in the unfolded cube (column, row): a cross seen from above, back at the top
NET_POS: dict[int, tuple[int, int]] = {NORTH: (1, 0), WEST: (0, 1), TOP: (1, 1), EAST: (2, 1), SOUTH: (1, 2),
                                       BOTTOM: (1, 3)}


def partial_path(path: str | os.PathLike) -> Path:
    """Where the cubes taught so far are kept: beside the set file, never the set file itself.

    A game loading the set must never meet half a set (``cubeset.load`` would put it aside as corrupt).
    """
    p = Path(path)
    return p.with_name(f"{p.stem}.partial{p.suffix or '.json'}")


def _set_colours() -> tuple[list[str], dicesets.DiceSet | None]:
    """The colour names the camera reports and the list offers: the ``fritzo`` dice set's faces (a table may
    rename them in its copy), else the built-in six."""
    try:
        ds = dicesets.load("fritzo")
    except dicesets.DiceSetError:
        return list(cubeset.DEFAULT_COLOURS), None
    return list(dict.fromkeys(ds.face_names())), ds


class CubeSetTeachMode:
    """The cube-set teaching screen (Mode protocol plus ``on_frame``).

    ``reader`` turns a camera frame into a reading (e.g. ``companion.teach.reader_for_set("fritzo")``); without
    it the colours are entered on screen only. ``path`` is the set file (default ``cubeset.default_path()``).
    ``on_done`` is called once after the full set has been saved and shown ("Satz gespeichert"): on SELECT or a
    tap, or after :data:`DONE_SECONDS`.
    """

    def __init__(self, lang: str = "de", *, reader: Reader | None = None, path: str | os.PathLike | None = None,
                 on_done: Callable[[], None] | None = None) -> None:
        self.lang = lang
        self.reader = reader
        self.path = Path(path) if path is not None else cubeset.default_path()
        self.partial = partial_path(self.path)
        self.on_done = on_done
        self.colours, self.dice_set = _set_colours()
        self.cubes: list[Cube] = []  # accepted and stored
        self.faces: list[str] = []  # the cube in hand, FACES order
        self.message = ""
        self.message_bad = False
        self.done = False
        self.camera_colour: str | None = None  # what the camera pre-selected for the face in hand
        self.camera_state = "none"  # none | seen | guess (looks like a colour not taught yet) | unsure | many
        self._stale: str | None = None  # colour just confirmed: ignored until the camera sees something else
        self._now = 0.0
        self._last_read = float("-inf")
        self._done_at: float | None = None
        self._done_called = False
        self.menu = Menu(MENU_AREA, [], self._choose, None, row_h=ROW_H)
        self.stop_rect: pygame.Rect | None = None  # where the hint to stop is drawn, a button for a finger
        self._resume()
        self._rebuild_menu()

    # -- where we are ------------------------------------------------------------------------------------------
    @property
    def cube_number(self) -> int:
        """The cube in hand, 1-27 (27 also once done)."""
        return min(len(self.cubes) + 1, SET_SIZE)

    @property
    def face(self) -> int:
        """Index into FACES of the face in hand."""
        return min(len(self.faces), len(FACES) - 1)

    def _resume(self) -> None:
        """Continue a teaching that a restart or power cut interrupted; finish one that was only not tidied up."""
        if not self.partial.exists():
            return
        try:
            stored = cubeset.load(self.partial, size=None)
        except CubeSetError as exc:  # kept aside by cubeset.load; the player starts again with cube 1
            self._say(exc.localized(self.lang), bad=True)
            return
        self.cubes = list(stored.cubes[:SET_SIZE])
        if len(self.cubes) == SET_SIZE:  # stored, but the set file may not have been written: finish now
            last = self.cubes.pop()
            self.faces = list(last.faces)
            self._finish_cube()
            return
        if self.cubes:
            self._say(t("fritzo.cubes.resumed", self.lang, cube=self.cube_number, count=len(self.cubes)))

    def _say(self, text: str, *, bad: bool = False) -> None:
        self.message, self.message_bad = text, bad

    # -- the list ------------------------------------------------------------------------------------------------
    def _rebuild_menu(self, select: str | None = None) -> None:
        items = [MenuItem(colour_label(c, self.lang), c) for c in self.colours]
        items.append(MenuItem(t("fritzo.cubes.back", self.lang), BACK, enabled=self.can_undo))
        self.menu.items = items
        self.menu.index = self.colours.index(select) if select in self.colours else 0

    @property
    def can_undo(self) -> bool:
        return not self.done and bool(self.faces or self.cubes)

    def _choose(self, value: object) -> None:
        if self.done:
            self._leave()
            return
        if value == BACK:
            self.undo()
            return
        colour = str(value)
        self.faces.append(colour)
        self._stale = colour
        self.camera_colour, self.camera_state = None, "none"
        self._say("")
        if len(self.faces) == len(FACES):
            self._finish_cube()
        else:
            self._rebuild_menu()

    def check_cube(self, faces: Sequence[str]) -> str | None:
        """Why a cube cannot join the set taught so far (in the table's language), or None when it can."""
        number = len(self.cubes) + 1
        unknown = [c for c in faces if c not in self.colours]
        if unknown:
            return t("fritzo.cubes.bad_colour", self.lang, cube=number, colour=unknown[0])
        if len(faces) != len(FACES):
            return t("fritzo.err.cube_faces", self.lang, cube=number)
        cube = Cube(str(number), tuple(faces))
        dup = find_duplicates([*self.cubes, cube])
        if dup:
            return t("fritzo.cubes.duplicate", self.lang, cube=number, other=dup[0][0])
        try:
            CubeSet.checked([*self.cubes, cube], size=SET_SIZE if number == SET_SIZE else None)
        except CubeSetError as exc:
            return exc.localized(self.lang)
        return None

    def _finish_cube(self) -> None:
        """Six faces are in: check the cube, store the set so far, and after cube 27 save the whole set."""
        problem = self.check_cube(self.faces)
        if problem is not None:
            self.faces = []
            self._say(problem, bad=True)
            self._rebuild_menu()
            return
        cube = Cube(str(len(self.cubes) + 1), tuple(self.faces))
        taught = [*self.cubes, cube]
        try:
            cubeset.save(CubeSet(tuple(taught), "taught"), self.partial)
            if len(taught) == SET_SIZE:
                cubeset.save(CubeSet.checked(taught, "taught"), self.path)
        except OSError as exc:  # a full or read-only card: keep the cube in hand, SELECT tries again
            last = self.faces.pop()
            self._say(t("fritzo.cubes.save_failed", self.lang, reason=disk_words(exc, self.lang)), bad=True)
            self._rebuild_menu(select=last)
            return
        self.cubes, self.faces = taught, []
        if len(taught) == SET_SIZE:
            try:
                self.partial.unlink()
            except OSError:
                pass  # harmless: a later screen finds 27 cubes, saves the same set again and tidies up
            self.done = True
            self._done_at = None  # the next update starts the clock for DONE_SECONDS
            self._say(t("fritzo.cubes.saved", self.lang))
        else:
            self._say(t("fritzo.cubes.stored", self.lang, cube=cube.id))
        self._rebuild_menu()

    def undo(self) -> bool:
        """Step back one face; at the first face of a cube, back into the cube before (taken off the store)."""
        if not self.can_undo:
            return False
        self._stale = None
        self.camera_colour, self.camera_state = None, "none"
        if self.faces:
            last = self.faces.pop()
        else:
            prev = self.cubes[-1]
            try:
                cubeset.save(CubeSet(tuple(self.cubes[:-1]), "taught"), self.partial)
            except OSError as exc:
                self._say(t("fritzo.cubes.save_failed", self.lang, reason=disk_words(exc, self.lang)), bad=True)
                return True
            self.cubes.pop()
            self.faces = list(prev.faces[:-1])
            last = prev.faces[-1]
        self._say("")
        self._rebuild_menu(select=last)
        return True

    def _leave(self) -> None:
        if not self._done_called:
            self._done_called = True
            if self.on_done is not None:
                self.on_done()

    # -- the camera ----------------------------------------------------------------------------------------------
    def on_frame(self, frame_bgr: np.ndarray) -> None:
        """A camera frame: read it (not more often than READ_EVERY) and pre-select the colour seen."""
        if self.reader is None or self.done or self._now - self._last_read < READ_EVERY:
            return
        self._last_read = self._now
        try:
            reading = self.reader(frame_bgr)
        except Exception:  # noqa: BLE001 - a bad frame must not end the teaching; the list still works
            return
        self.on_dice(reading)

    def on_dice(self, reading: TrayReading) -> None:
        """A reading of the tray: one cube read with confidence pre-selects its colour, and one of a colour not
        taught yet the colour it looks like (``teach.colour_guess``); SELECT confirms."""
        if self.done:
            return
        dice = reading.dice
        seen: str | None = None
        if not dice:
            state = "none"
        elif len(dice) > 1:
            state = "many"
        else:
            d = dice[0]
            ok = isinstance(d.face, str) and d.face in self.colours and d.confidence >= CONFIDENT
            guess = None if ok or d.guess not in self.colours else str(d.guess)  # a colour not taught yet, by look
            state = "seen" if ok else "guess" if guess else "unsure"
            seen = str(d.face) if ok else guess
        if self._stale is not None:
            if seen == self._stale:  # still the face just confirmed: the cube has not been turned yet
                return
            self._stale = None
        self.camera_state = state
        if seen is not None and seen != self.camera_colour:
            self.menu.index = self.colours.index(seen)
        self.camera_colour = seen

    # -- Mode --------------------------------------------------------------------------------------------------
    def on_button(self, event: ButtonEvent) -> bool:
        if event.button is Button.UNDO and not self.done and (event.press is Press.LONG or not self.can_undo):
            self._leave()  # the table's way out before cube 27 (it had none: Escape is a keyboard's); the cubes
            return True  # taught so far are stored as the partial set, and teaching them again goes on from there
        if event.press is not Press.SHORT:
            return False
        if self.done:
            if event.button in (Button.SELECT, Button.NEXT):
                self._leave()
                return True
            return False
        if event.button is Button.UNDO:
            return self.undo()
        return self.menu.on_button(event)

    def on_tap(self, pos: tuple[int, int]) -> bool:
        if self.done or self.stop_rect is not None and self.stop_rect.collidepoint(pos):
            self._leave()
            return True
        return self.menu.on_tap(pos)

    def update(self, dt: float, now: float) -> None:
        self._now = now
        if self.done and self._done_at is None:
            self._done_at = now
        if self.done and self._done_at is not None and now - self._done_at >= DONE_SECONDS:
            self._leave()

    # -- drawing -----------------------------------------------------------------------------------------------
    def draw(self, surface: pygame.Surface) -> None:
        lang = self.lang
        surface.fill(theme.BG)
        title = t("fritzo.cubes.title", lang)
        theme.text(surface, title, (16, 10), theme.fit_text(title, theme.LARGE, 400, True), theme.ACCENT, bold=True)
        if self.done:
            self._draw_done(surface)
            return
        progress = t("fritzo.cubes.progress", lang, cube=self.cube_number, total=SET_SIZE, face=self.face + 1,
                     faces=len(FACES))
        theme.text(surface, progress, (730, 16), theme.fit_text(progress, theme.BODY, 300, True), theme.TEXT,
                   bold=True, anchor="topright")
        name = t(f"fritzo.cubes.face.{FACES[self.face]}", lang)
        theme.text(surface, name, FACE_TITLE.topleft, theme.fit_text(name, theme.LARGE, FACE_TITLE.w, True),
                   theme.TEXT, bold=True)
        self._draw_net(surface, NET_AREA)
        self._draw_side(surface)
        self._draw_text(surface)
        self._draw_menu(surface)
        hints = [(t("core.btn_next", lang), t("fritzo.ui.next", lang)),
                 (t("core.btn_select", lang), t("fritzo.ui.select", lang))]
        undo = t("core.btn_undo", lang)
        if self.can_undo:  # a short UNDO steps back a face (as the list's last line does), a held one stops
            hints.append((undo, t("fritzo.cubes.hint_back", lang)))
        hints.append((undo, t("fritzo.cubes.hint_stop" if self.can_undo else "core.hint_back", lang)))
        # the way out drawn as a button: a table with the touch screen alone could stop only after cube 27
        self.stop_rect = hint_button(surface, hint_bar(surface, hints)[-1])

    def _swatch(self, surface: pygame.Surface, rect: pygame.Rect, colour: str) -> None:
        rgb, pattern = colour_style(colour, self.dice_set) or ((128, 128, 128), "plain")
        radius = min(6, rect.w // 6)
        pygame.draw.rect(surface, rgb, rect, border_radius=radius)
        ink = (20, 20, 20) if 0.299 * rgb[0] + 0.587 * rgb[1] + 0.114 * rgb[2] > 140 else (245, 245, 245)
        draw_pattern(surface, rect.inflate(-4, -4), pattern, ink)
        pygame.draw.rect(surface, theme.MUTED, rect, width=1 if rect.w < 30 else 2, border_radius=radius)

    def _draw_net(self, surface: pygame.Surface, area: pygame.Rect) -> None:
        """The cube unfolded: faces entered in their colours, the face in hand marked, the rest named."""
        s = min(area.w // 3, area.h // 4)
        for f, (cx, cy) in NET_POS.items():
            r = pygame.Rect(area.x + cx * s, area.y + cy * s, s, s).inflate(-4, -4)
            if f < len(self.faces):
                self._swatch(surface, r, self.faces[f])
                continue
            current = f == self.face
            pygame.draw.rect(surface, theme.PANEL_HI if current else theme.PANEL, r, border_radius=6)
            word = t(f"fritzo.face.{FACES[f]}", self.lang)
            colour = theme.TEXT if current else theme.MUTED
            theme.text(surface, word, r.center, theme.fit_text(word, theme.SMALL, r.w - 6, current), colour,
                       bold=current, anchor="center")
            if current:
                pygame.draw.rect(surface, theme.ACCENT, r.inflate(6, 6), width=5, border_radius=8)

    def _draw_side(self, surface: pygame.Surface) -> None:
        """Beside the net: what the camera sees (with a camera), else the cube's number, big."""
        area, lang = SIDE_AREA, self.lang
        if self.reader is None:
            theme.text(surface, t("fritzo.cubes.cube", lang), (area.centerx, area.y + 20), theme.BODY, theme.MUTED,
                       anchor="midtop")
            theme.text(surface, str(self.cube_number), (area.centerx, area.y + 56), theme.HUGE, theme.TEXT,
                       bold=True, anchor="midtop")
            return
        theme.text(surface, t("fritzo.cubes.camera", lang), (area.x, area.y), theme.SMALL, theme.MUTED)
        box = pygame.Rect(area.x, area.y + 26, area.w, 110)
        if self.camera_colour is not None:
            draw_colour_face(surface, box, self.camera_colour, lang, self.dice_set, selected=True)
            note = t(f"fritzo.cubes.camera_{self.camera_state}", lang)
        else:
            pygame.draw.rect(surface, theme.PANEL, box, border_radius=10)
            theme.text(surface, "?", box.center, theme.LARGE, theme.MUTED, bold=True, anchor="center")
            note = t(f"fritzo.cubes.camera_{self.camera_state}", lang)
        draw_wrapped(surface, note, pygame.Rect(area.x, box.bottom + 6, area.w, area.bottom - box.bottom - 6),
                     theme.SMALL, theme.TEXT if self.camera_colour else theme.MUTED)

    def _instruction(self) -> str:
        f = FACES[self.face]
        if self.reader is not None:
            return t(f"fritzo.cubes.show.{f}", self.lang, cube=self.cube_number)
        if f == "top":
            return t("fritzo.cubes.ask_first", self.lang, cube=self.cube_number)
        return t("fritzo.cubes.ask", self.lang, where=t(f"fritzo.face.{f}", self.lang))

    def _draw_text(self, surface: pygame.Surface) -> None:
        area = TEXT_AREA
        if self.message and self.message_bad:
            pygame.draw.rect(surface, (70, 24, 28), area, border_radius=10)
            pygame.draw.rect(surface, theme.BAD, area, width=4, border_radius=10)
            draw_wrapped(surface, self.message, area.inflate(-20, -14), theme.BODY, theme.TEXT, bold=True)
            return
        top = area.y
        if self.message:
            size = theme.fit_text(self.message, theme.BODY, area.w, True)
            r = theme.text(surface, self.message, (area.x, top), size, theme.GOOD, bold=True)
            top = r.bottom + 6
        draw_wrapped(surface, self._instruction(), pygame.Rect(area.x, top, area.w, area.bottom - top), theme.BODY,
                     theme.TEXT)

    def _draw_menu(self, surface: pygame.Surface) -> None:
        """The colour list: a patterned swatch and the name per row (never the hue alone), the camera's pick
        tagged, the highlight as in every other list."""
        for i, r in self.menu.item_rects().items():
            item = self.menu.items[i]
            hi = i == self.menu.index
            pygame.draw.rect(surface, theme.PANEL_HI if hi else theme.PANEL, r, border_radius=10)
            if hi:
                pygame.draw.rect(surface, theme.ACCENT, r, width=4, border_radius=10)
            x = r.x + 16
            if item.value != BACK:
                self._swatch(surface, pygame.Rect(r.x + 10, r.y + 5, 84, r.h - 10), str(item.value))
                x = r.x + 108
            colour = theme.TEXT if item.enabled else theme.MUTED
            tag = t("fritzo.cubes.camera", self.lang) if item.value == self.camera_colour else ""
            right = r.right - 12
            if tag:
                tr = theme.text(surface, tag, (right, r.centery), theme.SMALL, theme.ACCENT, bold=True,
                                anchor="midright")
                right = tr.x - 10
            theme.text(surface, item.label, (x, r.centery), theme.fit_text(item.label, theme.BODY, right - x, hi),
                       colour, bold=hi, anchor="midleft")

    def _draw_done(self, surface: pygame.Surface) -> None:
        """The saved set: every cube as a small unfolded net with its number, to glance over once."""
        lang = self.lang
        theme.text(surface, self.message or t("fritzo.cubes.saved", lang), (16, 62), theme.LARGE, theme.GOOD,
                   bold=True)
        detail = t("fritzo.cubes.saved_detail", lang, count=len(self.cubes))
        theme.text(surface, detail, (16, 108), theme.fit_text(detail, theme.BODY, 768), theme.TEXT)
        s = 17  # net cell
        cols = 9
        cw, ch = 86, 98
        x0 = (theme.DESIGN_SIZE[0] - cols * cw) // 2 + 4
        for i, cube in enumerate(self.cubes):
            cx, cy = x0 + (i % cols) * cw, 150 + (i // cols) * ch
            for f, (nx, ny) in NET_POS.items():
                self._swatch(surface, pygame.Rect(cx + nx * s, cy + ny * s, s, s), cube.faces[f])
            theme.text(surface, cube.id, (cx + 3 * s + 4, cy + 2 * s), theme.BODY, theme.TEXT, bold=True,
                       anchor="midleft")
        hint_bar(surface, [(t("core.btn_select", lang), t("fritzo.cubes.hint_done", lang))])
