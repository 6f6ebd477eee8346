"""A game's question about one die (unsure, or read wrongly and corrected) shows that die as the camera saw it.

The screen's row goes by the dice's places in the picture (top to bottom), not as they lie to the players round
the table, so "die 2" had to be searched for in the tray; free play showed the picture already, the games did not.
Each die's picture here is its own colour: what the screen draws tells which die it showed."""

from __future__ import annotations

import numpy as np
import pygame
import test_haste_worte_view as haste
import test_noch_x_mal_view as nxm
from test_echt_spitze_view import camera_roll, press

from companion.views import echt_spitze_view, haste_worte_view, noch_x_mal_view
from hardware.events import Button
from vision.types import DiePicture, DieReading, TrayReading

#: one colour per die of a reading (BGR), none of them a colour the screens draw with
COLOURS = [(255, 0, 255), (0, 255, 255), (255, 255, 0), (0, 128, 255), (255, 0, 128), (128, 255, 0)]


def picture(index: int) -> DiePicture | None:
    pixels = np.full((60, 60, 3), 40, np.uint8)
    pixels[15:45, 15:45] = COLOURS[index]
    return DiePicture(pixels, (15, 15, 45, 45))


def shown(surface: pygame.Surface, place: pygame.Rect) -> list[int]:
    """The dice whose picture is drawn in ``place`` (by their colours)."""
    pixels = pygame.surfarray.pixels3d(surface)[place.x:place.right, place.y:place.bottom]
    return [k for k, (b, g, r) in enumerate(COLOURS) if ((pixels == (r, g, b)).all(axis=2)).sum() > 100]


def drawn(mode) -> pygame.Surface:
    surface = pygame.Surface((800, 480))
    mode.draw(surface)
    return surface


def test_echt_spitze_shows_the_unsure_die_asked_about(tmp_path):
    s, mode, _, _ = camera_roll(tmp_path, ["1", None, "3+X", None])
    s.die_picture = picture
    place = echt_spitze_view.PICTURE_PLACE
    assert mode.asking == 1 and shown(drawn(mode), place) == [1]
    assert not any(place.colliderect(r) for r in mode._answer_rects())  # "roll again" made way for it
    assert mode.on_tap(mode.dice.die_rects()[3].center)  # the other unsure die
    assert shown(drawn(mode), place) == [3]


def test_echt_spitze_shows_the_die_being_corrected(tmp_path):
    s, mode, _, _ = camera_roll(tmp_path, ["1", "3+X", "2", "5"])
    s.die_picture = picture
    place = echt_spitze_view.PICTURE_PLACE
    assert shown(drawn(mode), place) == []  # dice being taken: nobody asked about one
    mode._open_fix()
    assert mode.fixing == "which" and shown(drawn(mode), place) == [0]  # the highlighted die: is it this one?
    press(mode, Button.NEXT)
    press(mode, Button.NEXT)
    press(mode, Button.SELECT)
    assert mode.fixing == "face" and shown(drawn(mode), place) == [2]
    assert not any(place.colliderect(r) for r in mode._answer_rects())


def test_echt_spitze_without_the_picture_keeps_its_answers_where_they_were(tmp_path):
    """Virtual dice, or the dice moved since they were read: no picture, and "roll again" beside the answers."""
    s, mode, _, _ = camera_roll(tmp_path, ["1", None, "3+X", None])
    s.die_picture = lambda index: None
    place = echt_spitze_view.PICTURE_PLACE
    assert shown(drawn(mode), place) == []
    assert mode._answer_rects()[-1].colliderect(place)


def test_haste_worte_shows_the_unread_die_a_symbol_is_asked_for(tmp_path):
    view, _ = haste.make(tmp_path, haste.Clocks(), haste.SETUP)
    view.session.camera_ready = True
    view.session.die_picture = picture
    press(view, Button.ROLL)
    view.session.latest_reading = haste.reading(["car", None, "fruit", None, "toys", "sports"])
    view.on_dice(view.session.latest_reading)
    assert shown(drawn(view), haste_worte_view.UNREAD_PICTURE) == [1]  # the unread die highlighted: this one
    press(view, Button.NEXT)
    assert shown(drawn(view), haste_worte_view.UNREAD_PICTURE) == [3]
    press(view, Button.NEXT)
    press(view, Button.SELECT)  # die 2's symbol
    assert view.choosing == ("symbol", 1)
    place = view._picture_place()
    assert shown(drawn(view), place) == [1]
    assert not any(place.colliderect(r) for r in view._choice_rects())
    press(view, Button.NEXT)  # (no guess: from "take it out" to the first symbol)
    press(view, Button.SELECT)
    press(view, Button.SELECT)  # die 4's
    assert view.choosing == ("symbol", 3) and shown(drawn(view), view._picture_place()) == [3]


def test_haste_worte_shows_the_die_being_corrected(tmp_path):
    view, _ = haste.camera_roll(tmp_path, ["car", "water", "fruit", "toys", "sports", "dishes"])
    view.session.die_picture = picture
    for _ in range(6):
        press(view, Button.NEXT)
    press(view, Button.SELECT)  # "Correct a die": which?
    assert view.fixing and shown(drawn(view), haste_worte_view.FIX_PICTURE) == [0]
    press(view, Button.NEXT)
    press(view, Button.NEXT)
    assert shown(drawn(view), haste_worte_view.FIX_PICTURE) == [2]
    press(view, Button.SELECT)  # die 3
    assert view.choosing == ("fix", 2) and shown(drawn(view), view._picture_place()) == [2]
    view.session.latest_reading = haste.reading(["car"] * 6)  # the dice were read again since: not that picture
    assert shown(drawn(view), view._picture_place()) == []


def test_noch_x_mal_shows_the_unsure_die_asked_about_where_the_board_stood(tmp_path):
    """The reading's dice are shown colours first: the question about the row's first die shows the reading's
    second, the die it is."""
    view, session, _ = nxm.waiting_for_the_camera(tmp_path, "en")
    session.die_picture = picture
    tray = TrayReading(tuple(DieReading(f, 0.9 if f else 0.3, (0, 0, 10, 10)) for f in
                             ["4", None, "blue", "2", "red", "5"]))
    session.latest_reading = tray
    view.on_dice(tray)
    place, under_status = noch_x_mal_view.PICTURE_AREA, noch_x_mal_view.LIST_PICTURE_AREA
    assert shown(drawn(view), under_status) == [1]  # the list of the dice highlights the unsure one: this die
    view.main_index = len(view.pending) + 1
    assert shown(drawn(view), place) == []  # "throw again": the board
    nxm.choose(view, ("fix", 0))
    assert shown(drawn(view), place) == [1]
    press(view, Button.UNDO)
    assert shown(drawn(view), under_status) == [1]  # back on the list, on the die asked about


def test_noch_x_mal_shows_the_die_being_corrected(tmp_path):
    view, session, _, _ = nxm.rolled_from_camera(tmp_path, ["4", "red", "2", "blue", "5", "green"])
    session.die_picture = picture
    place = noch_x_mal_view.PICTURE_AREA
    nxm.choose(view, ("pass", "Anna"))
    nxm.choose(view, ("correct",))
    assert shown(drawn(view), place) == [1]  # "Die 1: Red" highlighted: the camera's second die
    press(view, Button.NEXT)
    assert shown(drawn(view), place) == [3]
    press(view, Button.SELECT)
    assert shown(drawn(view), place) == [3]  # its faces asked


def test_fritzo_shows_the_cube_an_unsure_start_roll_asks_about(tmp_path):
    """The other games show the die they ask about; Fritzo's "not read for sure: which colour is on top?" showed
    none, and an ivory pip die in the tray was answered with a colour unseen. The picture stands beside the
    colours where the building (empty at the start roll) stands, under the notice's band, clear of the colours;
    once answered it goes."""
    import test_fritzo_view as fritzo

    from companion.views import fritzo_view

    view, session, _ = fritzo.make(tmp_path, {"mode": "strategy", "players": ["Anna", "Ben"]})
    session.die_picture = picture
    fritzo.take_out(view, "5")
    place = fritzo_view.ROLL_PICTURE
    session.latest_reading = TrayReading((DieReading(None, 0.3, (0, 0, 10, 10), None),))
    view.on_dice(session.latest_reading)
    assert view.unsure_roll and shown(drawn(view), place) == [0]
    assert not any(place.colliderect(r) for r in view.panel_rects())
    assert place.top >= view.notice_room.bottom and place in view.in_view
    press(view, Button.SELECT)  # a colour: the roll is entered, the picture goes with the question
    assert not view.unsure_roll and shown(drawn(view), place) == []
