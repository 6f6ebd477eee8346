"""The free-play screen: the dice as read, their sum and counts, the roll history and a fairness check.

A misread die is fixed on the spot: tap it (or NEXT to it and SELECT), then tap the right face (or NEXT/SELECT).
The same picker takes out a die that is not there (its last tile), and the "+" after the dice puts in one the reader
missed: two touching dice read as one could otherwise only be thrown again, and the history would count the reading.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from companion.games.free_play import MAX_DICE
from companion.i18n import t
from companion.session import GameSession, ReadRoll
from companion.views import theme
from companion.views.widgets import (
    DiceRow,
    draw_die,
    draw_die_picture,
    draw_wrapped,
    game_hint_bar,
    moved,
    not_time_to_roll,
    selection_ring,
)
from hardware.events import Button, ButtonEvent, Press
from vision.types import DiePicture, DieReading, TrayReading

if TYPE_CHECKING:
    from companion.watcher import TrayMotion

FACES = [1, 2, 3, 4, 5, 6]
REMOVE = "remove"  # the picker's tile after the faces: there is no die there
ADD = "+"  # the slot after the dice: a die the reader missed
PICTURE_PLACE = pygame.Rect(20, 66, 140, 140)  # the die corrected as the camera saw it, where the dice were
ROW = pygame.Rect(20, 70, 760, 130)  # the dice as read
ROW_BESIDE = pygame.Rect(PICTURE_PLACE.right + 16, 70, 780 - PICTURE_PLACE.right - 16, 130)  # beside that picture
PICKER_GAP = 16  # between the face tiles: a tap in it goes to the nearer tile
VIRTUAL_DICE = 5  # without a camera: five virtual dice, as in most pip-dice games
#: the "press ROLL" sentence as a finger's target: this far beside its words, and at least this tall (a finger's 9 mm)
ROLL_PROMPT_PAD = 16
ROLL_PROMPT_H = 56
#: seconds of motion (or a hand) in the tray before the screen shows a read on its way: dice thrown roll for a second
#: or more; a hand passing over the tray (a fifth of one) shows nothing, or the roll would blink grey at every reach
MOTION_SHOWN = 0.5
#: seconds the tray may lie still with no reading handed over before the sign goes: the reading is handed over in the
#: frame after the tray turned still (``DiceWatcher.tray``), or none comes (a trigger started afresh)
STILL_GRACE = 0.5


class FreePlayMode:
    #: read whenever the dice come to rest, not only after ROLL: throwing is enough
    auto_read = True

    def __init__(self, session: GameSession) -> None:
        self.session = session
        self.dice = DiceRow(ROW.copy(), max_rows=3)
        self.cursor: int | None = None  # die highlighted for correction
        self.picking: int | None = None  # die being corrected: the face picker is open
        self._picked_at: tuple[int, int] = (0, 0)  # the game (engine, steps) the picker opened on: an undo closes it
        self.pick_index = 0
        self.waiting = False  # ROLL pressed, waiting for the tray to settle
        #: the tray moved (dice thrown without ROLL): a reading is on its way, shown as after ROLL (``on_tray``)
        self.tray_moving = False
        self._tray: TrayMotion | None = None
        self.read_roll: ReadRoll | None = None  # the last roll read by the camera: its dice's pictures
        #: that roll as entered, from the reading it was entered from: a reading again is compared with it (one
        #: with a die hidden under an arm, then one with all of them, is that roll both times)
        self._entered: ReadRoll | None = None
        #: the tray as it lay when the screen opened, where no roll read by a camera says where the dice lay (a
        #: fresh free play; one kept before rolls kept their boxes): the dice lying there from before are no throw,
        #: and were counted as the first roll (after the update, free play's last roll was counted once more)
        self._before: TrayReading | None = None
        self._read_once = False  # a reading came since the screen opened
        #: the tray moved since the screen opened (a hand, dice put in or thrown): what lies there is no "before"
        #: (dice put in quickly move the tray a fifth of a second, less than the sign waits for)
        self._touched = False
        #: the hints a finger presses as buttons: the app presses them as the buttons are (``App.on_tap``)
        self.hint_taps: list[tuple[pygame.Rect, ButtonEvent]] = []

    @property
    def game(self):
        return self.session.engine

    # -- input -----------------------------------------------------------------------------------------------
    def on_dice(self, reading: TrayReading) -> str | None:
        """A reading of the tray at rest; returns what ROLL's answer tells the table when it is no roll (the tray
        empty, the dice read already): the app shows that as a notice in the panel's colours. In the red of an
        error it told a family that pressed ROLL once too often that something had gone wrong."""
        asked, thrown, self.waiting, self.tray_moving = self.waiting, self.tray_moving, False, False
        first, self._read_once = not self._read_once, True
        faces = [d.face if isinstance(d.face, int) else None for d in reading.dice]
        if first and not (thrown or self._touched) and self._read_again(reading) is None:
            # the "before" picture: what lay in the tray when the screen opened, not the last roll's dice where they
            # lay (switched on again over them: that roll's, no new one). Dice moved while the companion was off
            # were counted as a roll at switch-on, though a fresh free play took them as lying there
            self._before = reading
            if faces:
                return t("core.free_throw_before", self.session.lang) if asked else None
        if not faces:
            # an empty tray's rest is no question (switched on, the tray cleared): only ROLL's is
            return t("core.free_no_dice", self.session.lang) if asked else None
        if self._lies_as(self._before, reading) is not None:
            return t("core.free_throw_before", self.session.lang) if asked else None  # still as they lay before
        same = self._read_again(reading)
        if same is not None:
            # the dice of the last roll read again where they lay (ROLL with no throw, an arm over the tray, the
            # companion switched on again over them): no new roll; its dice's pictures are this reading's now, and
            # an open picker stays open
            read = self._last_read()  # (what ``_read_again`` compared with)
            self.read_roll = ReadRoll(read.action, reading, {die: same[k] for die, k in read.at.items() if k in same})
            return t("core.free_throw_first", self.session.lang) if asked else None
        # where the dice lay: the next readings are compared with it, after a restart too (``_last_read``)
        boxes = [[int(v) for v in d.box] for d in reading.dice]
        action = {"action": "roll", "dice": faces, "boxes": boxes}
        if self.session.apply(action):
            self._before = None  # the tray's picture is this roll's now
            self.read_roll = self._entered = ReadRoll(action, reading, {i: i for i in range(len(faces))})
            self.cursor = next((i for i, f in enumerate(faces) if f is None), None)
            self.picking = None
        return None

    def on_tray(self, tray: TrayMotion) -> None:
        """What the tray does, every frame (the app's): dice thrown without ROLL showed nothing until they were
        read, a second or more later, and the table did not know the screen had seen the throw."""
        self._tray = tray
        self._touched = self._touched or (tray.unread and tray.moved > 0)

    def _awaited(self) -> bool:
        """A reading is on its way: ROLL asked for it, or dice were thrown (not while the face picker asks)."""
        return self.waiting or (self.tray_moving and self.picking is None)

    def _read_again(self, reading: TrayReading) -> dict[int, int] | None:
        """Where each die of the last roll's reading lies in ``reading`` (old index -> new) when ``reading`` shows
        those dice where they lay, or some of them: each within a quarter of a die of where one was and read alike
        (sure faces equal). Some are missing where an arm held still over the tray was taken for part of the table
        (``vision.rest.HAND_TIMEOUT``) and hid a die, or dice were picked up to throw: no throw either. None for
        anything else: dice thrown again never land so."""
        read = self._last_read()
        return self._lies_as(None if read is None else read.reading, reading)

    @staticmethod
    def _lies_as(lay: TrayReading | None, reading: TrayReading) -> dict[int, int] | None:
        """Where each die of ``lay`` lies in ``reading`` (old index -> new), as ``_read_again`` tells it; None where
        ``reading`` is not those dice where they lay, or there is no ``lay``. Two dice or more may also lie all
        moved by one offset, every face read sure and alike: the tray pushed a few centimetres (or the camera
        nudged) after a throw was read counted that throw again ("Wurf 2", the same faces). One die alone is not:
        thrown again, it can land anywhere with the same face; nor a die left unsure (an answered "?" is no face the
        dice moved could be told by)."""
        if lay is None or len(reading.dice) > len(lay.dice):
            return None
        match = _lying(lay, reading, 0.0, 0.0)
        if match is not None or len(reading.dice) < 2:
            return match
        anchor = reading.dice[0]
        ax, ay = _centre(anchor.box)
        for old in lay.dice:
            if old.face != anchor.face:
                continue
            ox, oy = _centre(old.box)
            match = _lying(lay, reading, ax - ox, ay - oy, sure=True)
            if match is not None:
                return match
        return None

    def _last_read(self) -> ReadRoll | None:
        """The game's last roll as read, for a reading again to be compared with: the one entered here, else (a
        restart, an undo back to an earlier roll) the one its step says its dice lay in. After a power cut or at
        switch-on the dice left in the tray were read as a new roll: nothing was there to compare them with. None
        where the last roll was not read by a camera (virtual dice, a journal older than the step's ``boxes``)."""
        actions = self.session.actions
        action = next((a for a in reversed(actions) if a.get("action") == "roll"), None)
        if action is None:
            return None
        if self._entered is not None and self._entered.action is action:
            return self._entered
        boxes, faces = action.get("boxes"), action.get("dice")
        if not isinstance(boxes, list) or not isinstance(faces, list) or len(boxes) != len(faces):
            return None
        dice = tuple(DieReading(f, 0.0 if f is None else 1.0, (x0, y0, x1, y1))
                     for f, (x0, y0, x1, y1) in zip(faces, boxes, strict=True))
        self._entered = ReadRoll(action, TrayReading(dice), {i: i for i in range(len(dice))})
        return self._entered

    def _moment(self) -> tuple[int, int]:
        """The game as it stands: an undo counts (a step applied after it leaves the count of steps alone)."""
        return self.session.undos, len(self.session.actions)

    def _close_stale_picker(self) -> None:
        """A step was taken back while the picker was open (the pause menu's undo; a held UNDO here goes back, as
        pressed): its die may be gone or another ("add" open on a die that is back, SELECT redid the undo). It
        closes."""
        if self.picking is not None and self._moment() != self._picked_at:
            self.picking = None

    def on_button(self, event: ButtonEvent) -> bool:
        self._close_stale_picker()
        last = self.game.last
        if self.cursor is not None and self.cursor >= self._slots():
            self.cursor = None  # the roll it pointed into was undone, or read again with fewer dice
        if self.picking is not None:
            choices = self._choices()
            if event.button.step:
                self.pick_index = (self.pick_index + event.button.step) % len(choices)
            elif event.button is Button.SELECT and event.press is Press.SHORT:
                self._choose(choices[self.pick_index % len(choices)])
            elif event.button is Button.UNDO and event.press is Press.SHORT:
                self.picking = None
            else:
                return False
            return True
        if event.button in (Button.ROLL, Button.REROLL):  # free play's re-roll is a roll (REROLL did nothing)
            if self.session.camera_ready:
                self.waiting = True  # the app asks the camera and calls on_dice when the dice lie still
                self.session.ask_for_dice()
            else:
                self.session.apply({"action": "roll", "dice": self.session.virtual_roll([FACES] * VIRTUAL_DICE)})
            return True
        if event.button.step and self._slots():
            # from no highlight PREV goes to the last die, not to the "+" after it
            self.cursor = moved(self.cursor, event.button.step, self._slots() if self.cursor is not None else len(last))
            return True
        if event.button is Button.SELECT and event.press is Press.SHORT and (die := self._to_correct()) is not None:
            self._open_picker(die)
            return True
        return False

    def _to_correct(self) -> int | None:
        """The die SELECT corrects: the highlighted one, else the first the reader was not sure of (None: SELECT
        does nothing until NEXT highlights a die, and the hint bar does not offer it)."""
        if self.cursor is not None:
            return self.cursor
        return next((i for i, face in enumerate(self.game.last) if face is None), None)

    def _can_add(self) -> bool:
        """A die the reader missed: only where a camera read the roll (virtual dice are all there is)."""
        return self.session.camera_ready and 0 < len(self.game.last) < MAX_DICE

    def _slots(self) -> int:
        """What NEXT steps through: the dice, and the "+" after them."""
        return len(self.game.last) + self._can_add()

    def _adding(self) -> bool:
        return self.picking == len(self.game.last)

    def _choices(self) -> list[int | str]:
        """The picker's tiles: the faces, and for a die of several a camera read "not a die" (a roll keeps one)."""
        if self._adding() or len(self.game.last) < 2 or not self.session.camera_ready:
            return list(FACES)
        return [*FACES, REMOVE]

    def on_tap(self, pos: tuple[int, int]) -> bool:
        self._close_stale_picker()
        if self.picking is not None:
            for choice, r in zip(self._choices(), self._picker_rects(), strict=False):
                # the gap between two tiles is half each's: a finger a little beside a tile closed the picker
                if r.inflate(PICKER_GAP, PICKER_GAP).collidepoint(pos):
                    self._choose(choice)
                    return True
            self.picking = None
            return True
        self._lay_out()  # the roll as it is now, not as last drawn (a reading came since)
        hit = self.dice.hit(pos)
        if hit is not None:
            self.cursor = hit
            self._open_picker(hit)
            return True
        prompt = self._roll_prompt()
        if prompt is not None and prompt[2].collidepoint(pos):
            # the sentence in the middle asks for ROLL: a table with the touch screen alone tapped it and nothing
            # happened, the small framed "ROLL" in the corner its only way to a roll
            return self.on_button(ButtonEvent(Button.ROLL, Press.SHORT))
        return False

    def _roll_prompt(self) -> tuple[tuple[str, ...], int, pygame.Rect] | None:
        """The sentence that asks for a roll before the first (no camera, or its built-in tray: "press ROLL"), its
        lines and size, and where a finger taps it as ROLL: the lines' width, at least a finger's height. None where
        the middle says something else (a camera's "throw the dice", the wait for them, a roll's dice)."""
        if self.game.last or self.picking is not None or self._awaited() or self._start_key() == "core.free_throw_dice":
            return None
        lines, size = theme.far_lines(t(self._start_key(), self.session.lang), theme.LARGE, 760)
        height = theme.font(size).get_linesize()
        width = max(theme.font(size).size(line)[0] for line in lines)
        rect = pygame.Rect(0, 0, width + 2 * ROLL_PROMPT_PAD, max(len(lines) * height, ROLL_PROMPT_H))
        rect.center = (400, self.dice.rect.centery)
        return lines, size, rect

    def _start_key(self) -> str:
        """The sentence before the first roll. A camera reads the dice whenever they come to rest: "put them in,
        then press ROLL" read them twice. The built-in tray of a table without a camera reads like one but is
        thrown by ROLL: "throw the dice into the tray" left a laptop with no tray waiting for nothing."""
        if not self.session.camera_ready:
            return "core.free_press_roll"
        return "core.free_roll_tray" if self.session.built_in_tray() else "core.free_throw_dice"

    def _reading_index(self, die: int) -> int | None:
        """Die ``die`` of the last roll in the reading it was read from: dice taken out or added since move it (the
        steps since the roll say how, also after an undo); None where the roll was not read, or read over since."""
        read = self.read_roll
        actions = self.session.actions
        at = None if read is None else next((k for k in range(len(actions) - 1, -1, -1)
                                             if actions[k] is read.action), None)
        if read is None or at is None:
            return None
        order: list[int | None] = list(range(len(read.action["dice"])))  # the roll's dice, as entered
        for step in actions[at + 1:]:
            if step.get("action") == "add":
                order.append(None)
            elif step.get("action") == "remove":
                del order[step["die"] - 1]
            elif step.get("action") != "correct":
                return None
        k = order[die] if 0 <= die < len(order) else None
        return None if k is None else read.index(self.session, k)  # and the reading still the latest

    def _open_picker(self, die: int) -> None:
        self.picking, self._picked_at = die, self._moment()
        current = None if self._adding() else self.game.last[die]
        self.pick_index = FACES.index(current) if current in FACES else 0

    def _choose(self, choice: int | str) -> None:
        die = self.picking
        self.picking = None
        if die is None:
            return
        n = len(self.game.rolls)
        if die == len(self.game.last):
            self.session.apply({"action": "add", "roll": n, "face": choice})
        elif choice == REMOVE:
            self.session.apply({"action": "remove", "roll": n, "die": die + 1})
        else:
            # a face read wrongly, or unsure, is kept as an example of the face said (a taught set's; the pip
            # reader's faces are not taught: ``App._camera_reads``), as the games keep it
            index = self._reading_index(die)
            if index is not None and choice != self.game.last[die]:
                self.session.confirm_face(index, choice)
            self.session.apply({"action": "correct", "roll": n, "die": die + 1, "face": choice})
        last = self.game.last
        self.cursor = next((i for i, f in enumerate(last) if f is None), min(die, self._slots() - 1))

    # -- drawing ---------------------------------------------------------------------------------------------
    def update(self, dt: float, now: float) -> None:
        tray = self._tray
        if tray is None:
            return
        if tray.unread and tray.moved >= MOTION_SHOWN:
            self.tray_moving = True
        elif not tray.unread and now - tray.since >= STILL_GRACE:
            self.tray_moving = False  # (the reading normally ends it: ``on_dice``)

    def _picker_rects(self) -> list[pygame.Rect]:
        n, size, gap = len(self._choices()), 90, PICKER_GAP
        x0 = 400 - (n * size + (n - 1) * gap) // 2
        return [pygame.Rect(x0 + i * (size + gap), 250, size, size) for i in range(n)]

    def _lay_out(self) -> None:
        self.dice.faces = list(self.game.last)
        self.dice.extra = ADD if self._can_add() else None
        # the highlighted die as the camera saw it stands left of the row: NEXT shows where in the tray it lies
        beside = self.picking is None and self._picture() is not None
        self.dice.rect = ROW_BESIDE if beside else ROW

    def draw(self, surface: pygame.Surface) -> None:
        self._close_stale_picker()
        lang = self.session.lang
        g = self.game
        surface.fill(theme.BG)
        theme.text(surface, t("core.free_title", lang), (20, 14), theme.LARGE, theme.ACCENT, bold=True)
        if g.rolls:
            theme.text(surface, t("core.free_roll_no", lang, n=len(g.rolls)), (735, 22), theme.BODY, theme.MUTED,
                       anchor="topright")
        self._lay_out()
        self.dice.selected = self.picking if self.picking is not None else self.cursor
        self.dice.dimmed = set(range(len(g.last))) if self._awaited() else set()  # read over: not the dice now
        picture = self._picture()
        if picture is not None and self.picking is None:  # the die highlighted, where the tray has it
            draw_die_picture(surface, picture, PICTURE_PLACE)
            self.dice.draw(surface)
        elif picture is not None:  # the die asked about, to be found in the tray: the row numbers them, the tray not
            drawn = draw_die_picture(surface, picture, PICTURE_PLACE)
            title = t("core.free_pick_this", self.session.lang)
            top = PICTURE_PLACE.centery - 26  # one line beside the die's middle; a second below it
            room = pygame.Rect(drawn.right + 24, top, 756 - drawn.right, PICTURE_PLACE.bottom - top)
            draw_wrapped(surface, title, room, theme.LARGE, theme.TEXT, bold=True)
        elif g.last:
            self.dice.draw(surface)
        else:
            msg = t("core.free_waiting" if self._awaited() else self._start_key(), lang)
            lines, size = theme.far_lines(msg, theme.LARGE, 760)  # (``_roll_prompt``: where a tap on it rolls)
            height = theme.font(size).get_linesize()
            for k, line in enumerate(lines):  # read across the table: on two lines rather than smaller
                theme.text(surface, line, (400, self.dice.rect.centery + (2 * k + 1 - len(lines)) * height // 2),
                           size, theme.TEXT, anchor="center")
        if self.picking is not None:
            self._draw_picker(surface, titled=picture is not None)
        else:
            self._draw_summary(surface)
        # the screen the companion starts on: a table with buttons only learns here where the games are (holding
        # UNDO takes a roll back, as in every game; the hint for it made the German line too long to read)
        # a table with the touch screen alone rolls here, and steps back out of the face picker, by the framed hints
        self.hint_taps = game_hint_bar(surface, self._hints(), self.session.lang)

    def _hints(self) -> list[tuple[str, str]]:
        """What the buttons do now: the face picker takes NEXT, SELECT and UNDO (short: back) for itself; otherwise
        a short UNDO opens the menu (the app's: ``with_menu`` says so), a long one takes the last roll back."""
        lang, g = self.session.lang, self.game
        if self.picking is not None:
            return [(t("core.btn_next", lang), t("core.hint_move", lang)),
                    (t("core.btn_select", lang), t("core.hint_choose", lang)),
                    (t("core.btn_undo", lang), t("core.hint_back", lang))]
        hints = [(t("core.btn_roll", lang), t("core.hint_roll", lang))]
        if g.last:
            hints.append((t("core.btn_next", lang), t("core.hint_next_die", lang)))
        if g.last and (die := self._to_correct()) is not None:
            what = "core.hint_add_die" if die == len(g.last) else "core.hint_correct"
            hints.append((t("core.btn_select", lang), t(what, lang)))
        return hints

    @property
    def roll_not_now(self) -> str | None:
        """What the app says to a ROLL the face picker did not take: its question is answered first (or UNDO)."""
        if self.picking is None:
            return None
        lang = self.session.lang
        return not_time_to_roll(t("core.free_pick_added", lang) if self._adding() else
                                t("core.free_pick_face", lang, n=self.picking + 1), lang)

    def _picture(self) -> DiePicture | None:
        """The die being corrected, else the highlighted one, as the camera saw it; None for the "+" (adding one),
        or where the roll was not read."""
        die = self.picking if self.picking is not None else self.cursor
        if die is None or die >= len(self.game.last):
            return None
        index = self._reading_index(die)
        return None if index is None else self.session.picture_of(index)

    def _draw_picker(self, surface: pygame.Surface, *, titled: bool) -> None:
        """The faces to choose from; ``titled``: the question stands beside the die's picture already."""
        lang = self.session.lang
        if not titled:
            title = t("core.free_pick_added", lang) if self._adding() else t("core.free_pick_face", lang,
                                                                                 n=self.picking + 1)
            theme.text(surface, title, (400, 212), theme.fit_text(title, theme.BODY, 760), theme.TEXT,
                       anchor="midtop")
        for i, (choice, r) in enumerate(zip(self._choices(), self._picker_rects(), strict=True)):
            if choice == REMOVE:
                self._draw_remove(surface, r, lang)
                if i == self.pick_index:
                    selection_ring(surface, r)
            else:
                draw_die(surface, r, choice, selected=i == self.pick_index)

    @staticmethod
    def _draw_remove(surface: pygame.Surface, r: pygame.Rect, lang: str) -> None:
        """"Not a die": an outline crossed out, named below (a cross alone read as "wrong")."""
        pygame.draw.rect(surface, theme.MUTED, r, width=4, border_radius=r.w // 7)
        inner = r.inflate(-36, -36)
        for a, b in ((inner.topleft, inner.bottomright), (inner.bottomleft, inner.topright)):
            pygame.draw.line(surface, theme.BAD, a, b, 9)
        label = t("core.free_no_die", lang)
        theme.text(surface, label, (r.centerx, r.bottom + 8), theme.fit_text(label, theme.SMALL, r.w + 30),
                   theme.TEXT, anchor="midtop")

    def _draw_summary(self, surface: pygame.Surface) -> None:
        lang = self.session.lang
        g = self.game
        y = 214
        if g.last and self._awaited():  # ROLL pressed, or dice thrown: the dice above are the last roll's
            theme.text(surface, t("core.free_waiting", lang), (20, y), theme.fit_text(t("core.free_waiting", lang),
                       theme.LARGE, 760), theme.TEXT, bold=True)
        elif g.last:
            # "+ ?" while a die is unsure: "Sum 76" beside a magenta "?" read as the whole throw's sum
            key = "core.free_sum_unsure" if g.unknown_in_last else "core.free_sum"
            theme.text(surface, t(key, lang, sum=g.last_sum), (20, y), theme.LARGE, theme.TEXT, bold=True)
            if g.unknown_in_last:
                note, color = t("core.free_unknown", lang, n=g.unknown_in_last), theme.UNKNOWN
            else:
                counts = {f: g.last.count(f) for f in FACES if g.last.count(f)}
                note, color = "   ".join(f"{c}× {f}" for f, c in counts.items()), theme.MUTED
            theme.text(surface, note, (780, y + 8), theme.fit_text(note, theme.BODY, 520), color, anchor="topright")
        # statistics over all rolls: a bar per face
        counts = g.counts()
        total = sum(counts.values())
        top, h = 270, 130
        theme.text(surface, t("core.free_stats", lang, n=total), (20, top), theme.BODY, theme.TEXT)
        peak = max(counts.values()) or 1
        for i, f in enumerate(FACES):
            x = 20 + i * 62
            bar_h = int((h - 58) * counts[f] / peak)
            pygame.draw.rect(surface, theme.PANEL_HI, (x, top + 34 + (h - 34) - bar_h, 46, bar_h), border_radius=4)
            theme.text(surface, str(f), (x + 23, top + h + 2), theme.BODY, theme.TEXT, anchor="midtop")
            theme.text(surface, str(counts[f]), (x + 23, top + 34 + (h - 34) - bar_h - 2), theme.SMALL,
                       theme.MUTED, anchor="midbottom")
        fair = g.fairness()
        x = 420
        theme.text(surface, t("core.free_fairness", lang), (x, top), theme.BODY, theme.TEXT)
        if not fair.enough:  # at the body's size, as the history below: small grey lines were not read from afar
            need = t("core.free_need_more", lang, n=fair.MIN_PER_FACE * 6 - fair.n)
            theme.text(surface, need, (x, top + 38), theme.fit_text(need, theme.BODY, 360), theme.MUTED)
        else:
            verdict = "core.free_suspicious" if fair.suspicious else "core.free_fair"
            color = theme.BAD if fair.suspicious else theme.GOOD
            theme.text(surface, t(verdict, lang), (x, top + 38), theme.BODY, color, bold=True)
            theme.text(surface, f"χ² = {fair.chi2:.1f}   p = {fair.p:.2f}", (x, top + 76), theme.SMALL, theme.MUTED)
        # history: the previous rolls, newest first, at one size (a long roll's line shrank alone beside the other)
        lines = [f"#{len(g.rolls) - 1 - k}:  " + " ".join("?" if f is None else str(f) for f in roll)
                 for k, roll in enumerate(g.rolls[-2:-4:-1])]
        size = min((theme.fit_text(line, theme.BODY, 360) for line in lines), default=theme.BODY)
        for k, line in enumerate(lines):
            theme.text(surface, line, (x, top + 104 + k * 30), size, theme.MUTED)


def _centre(box: tuple[int, int, int, int]) -> tuple[float, float]:
    return (box[0] + box[2]) / 2, (box[1] + box[3]) / 2


def _lying(lay: TrayReading, reading: TrayReading, dx: float, dy: float, *,
           sure: bool = False) -> dict[int, int] | None:
    """``FreePlayView._lies_as`` for the dice of ``lay`` moved by (``dx``, ``dy``): each die of ``reading`` within a
    quarter of a die of where one of them lies so, and read alike (sure faces equal; ``sure``: every face sure and
    equal); None where one is not."""
    match: dict[int, int] = {}
    for j, new in enumerate(reading.dice):
        cx, cy = _centre(new.box)
        found = [k for k, old in enumerate(lay.dice) if k not in match
                 and abs(_centre(old.box)[0] + dx - cx) <= max(old.box[2] - old.box[0], 1) / 4
                 and abs(_centre(old.box)[1] + dy - cy) <= max(old.box[3] - old.box[1], 1) / 4
                 and (new.face == old.face if sure else new.face == old.face or None in (new.face, old.face))
                 and not (sure and new.face is None)]
        if not found:
            return None
        match[found[0]] = j
    return match
