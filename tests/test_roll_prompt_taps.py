"""A table with the touch screen alone taps the sentence that asks for a throw (free play's "press ROLL", Noch
X-Mal!'s "Anna: press ROLL and roll"): it throws as ROLL does, and nowhere else does it."""

from __future__ import annotations

import os
import random

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pygame
import pytest
from drawn_texts import recording_texts

from companion.games.free_play import FreePlay
from companion.games.noch_x_mal import NochXMal, Phase
from companion.i18n import t
from companion.journal import Journal
from companion.session import GameSession
from companion.views.free_play_view import FreePlayMode
from companion.views.noch_x_mal_view import MENU_AREA, NochXMalMode


@pytest.fixture(autouse=True)
def _pygame():
    pygame.init()
    yield


def _drawn_at(monkeypatch, view, text: str) -> pygame.Rect:
    """Where ``view`` draws the sentence ``text`` (on one line or two) at 800x480."""
    surface = pygame.Surface((800, 480))
    with recording_texts(monkeypatch) as drawn:
        view.draw(surface)
    lines = [rect for s, _size, rect in drawn if s and s in text and " " in s]
    assert lines, (text, [s for s, _size, _rect in drawn])
    return lines[0].unionall(lines[1:])


def _free_play(tmp_path, lang: str) -> tuple[FreePlayMode, GameSession]:
    session = GameSession.new(FreePlay, {"action": "setup"}, Journal(tmp_path / "journal"), lang=lang,
                              rng=random.Random(3))
    return FreePlayMode(session), session


def _nxm(tmp_path, lang: str, players=("Anna", "Ben")) -> tuple[NochXMalMode, GameSession]:
    session = GameSession.new(NochXMal, {"action": "setup", "players": list(players), "seed": 1},
                              Journal(tmp_path / "journal"), lang=lang, rng=random.Random(5))
    return NochXMalMode(session), session


@pytest.mark.parametrize("lang", ["de", "en"])
def test_free_plays_press_roll_sentence_rolls_when_tapped(monkeypatch, tmp_path, lang):
    view, session = _free_play(tmp_path, lang)
    words = _drawn_at(monkeypatch, view, t("core.free_press_roll", lang))
    assert view.on_tap(words.center) is True
    assert len(session.engine.rolls) == 1  # virtual dice, as ROLL throws them
    # the dice stand there now: a tap where the sentence stood is no roll (a die, or nothing)
    view.draw(pygame.Surface((800, 480)))
    view.on_tap((words.centerx, words.bottom + 30))
    assert len(session.engine.rolls) == 1


def test_free_plays_sentence_is_no_roll_where_it_asks_for_none(monkeypatch, tmp_path):
    """With a camera the sentence says to throw the dice (read at rest, ROLL not needed), and while a reading is
    awaited it says so: a tap there throws nothing."""
    view, session = _free_play(tmp_path, "en")
    asked: list[int] = []
    session.camera_ready = True
    session.want_dice = lambda: asked.append(1)
    words = _drawn_at(monkeypatch, view, t("core.free_throw_dice", "en"))
    assert not view.on_tap(words.center)
    view.waiting = True
    assert not view.on_tap(_drawn_at(monkeypatch, view, t("core.free_waiting", "en")).center)
    assert asked == [] and not session.engine.rolls


def test_free_plays_built_in_tray_sentence_throws_when_tapped(monkeypatch, tmp_path):
    """Without a camera the built-in tray reads like one, and the sentence asks for ROLL: a finger on it throws the
    tray as ROLL does (the app throws it when the screen asks for the dice)."""
    view, session = _free_play(tmp_path, "en")
    asked: list[int] = []
    session.camera_ready = True
    session.on_built_in_tray = lambda: True
    session.want_dice = lambda: asked.append(1)
    words = _drawn_at(monkeypatch, view, t("core.free_roll_tray", "en"))
    assert view.on_tap(words.center) is True
    assert asked == [1] and view.waiting


@pytest.mark.parametrize("lang", ["de", "en"])
def test_noch_x_mals_throw_sentences_roll_when_tapped(monkeypatch, tmp_path, lang):
    view, session = _nxm(tmp_path, lang)
    g = session.engine
    start = _drawn_at(monkeypatch, view, t("nxm.ui.start_prompt", lang, player="Anna"))
    assert start.bottom < MENU_AREA.top  # (above the menu: its lines are tapped as themselves)
    assert view.on_tap(start.center) is True
    assert g.state.players[0].has_start  # Anna's start combo thrown, as ROLL throws it
    assert view.on_tap(_drawn_at(monkeypatch, view, t("nxm.ui.start_prompt", lang, player="Ben")).center) is True
    assert g.state.phase is Phase.WAIT_ROLL
    roll = _drawn_at(monkeypatch, view, t("nxm.ui.press_roll", lang, player=g.active_player.name))
    assert view.on_tap(roll.center) is True
    assert g.state.phase is Phase.ROLLED and g.state.rolls == 1


def test_noch_x_mals_sentence_is_no_roll_while_a_list_is_open_or_dice_are_read(monkeypatch, tmp_path):
    view, session = _nxm(tmp_path, "en")
    g = session.engine
    words = _drawn_at(monkeypatch, view, t("nxm.ui.start_prompt", "en", player="Anna"))
    # "Someone else starts": its question open, a tap outside it closes it and throws nothing
    values = [item.value for item in view.current_menu.items]
    view.current_menu.on_tap(view.current_menu.item_rects()[values.index(("who-starts",))].center)
    assert view.stack
    view.draw(pygame.Surface((800, 480)))
    view.on_tap(words.center)
    assert not any(p.has_start for p in g.state.players)
    # the camera asked for the dice: the sentence says they are read, a tap there asks nothing again
    asked: list[int] = []
    session.camera_ready = True
    session.want_dice = lambda: asked.append(1)
    view.stack.clear()
    assert view.on_tap(words.center) is True and asked == [1]
    reading = _drawn_at(monkeypatch, view, t("nxm.ui.waiting", "en"))
    view.on_tap(reading.center)
    assert asked == [1] and not any(p.has_start for p in g.state.players)
