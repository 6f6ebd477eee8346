"""Haste Worte's screen and the App's notices and sand sentences: what the table reads stays clear of them."""

from __future__ import annotations

import time

import pygame
import pytest
from drawn_texts import recording_texts
from test_games_in_app import camera_app, start_game

from companion.games.haste_worte import MAX_OWN_WORDS
from companion.games_ui import register_all
from companion.i18n import t
from companion.views import theme
from hardware.events import Button, ButtonEvent


@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_not_taught_notice_stands_between_the_dice_and_the_word_limits(tmp_path, monkeypatch, lang):
    """While the first die is picked the start's "your dice are not taught yet" stood at the foot over "Andere
    Symbole: zusammen bis zu 4", the word limits cut in half, and the band under the dice was empty. With virtual
    dice (no "Correct a die" button) the limits stand at the foot and the notice in that band, clear of the dice,
    their numbers and the limits."""
    register_all()
    app = camera_app(tmp_path, lang, clock=lambda: 100.0)
    try:
        app.main_menu()
        _picking_virtual_dice(app)
        with recording_texts(monkeypatch) as drawn:
            app.frame(0.03, [])
        strip, limits, numbers = _notice_limits_and_numbers(app, drawn, lang)
        assert len(limits) == 2 and len(numbers) == 6, drawn
        keep = [*limits, *numbers, *app.mode.dice.die_rects()]
        assert not any(strip.colliderect(rect) for rect in keep), (strip, keep)
        assert strip.bottom < min(rect.top for rect in limits) and strip.top > max(r.bottom for r in numbers)
    finally:
        app.close()



def _notice_limits_and_numbers(app, drawn, lang: str):
    """The notice's strip (it stands: asserted), and the word limits' and the dice numbers' rects as ``drawn``."""
    assert app._strip is not None and app._strip[1] == app.notice
    limits = [rect for line, _, rect in drawn
              if line in (t("haste.screen.limit_own", lang, n=MAX_OWN_WORDS),
                          t("haste.screen.limit_others", lang, n=app.session.engine.others_limit))]
    numbers = [rect for line, size, rect in drawn if line in "123456" and size == theme.SMALL]
    return app._strip[0], limits, numbers


def _picking_virtual_dice(app) -> None:
    """Haste Worte started from the menu without taught dice (its notice up), the virtual dice thrown: picking."""
    start_game(app, "haste-worte")
    assert not app.session.camera_ready and app.notice
    app.on_button(ButtonEvent(Button.ROLL))
    for _ in range(100):  # the virtual dice are thrown
        app.frame(0.03, [])
        if app.session.engine.phase.name == "PICK":
            break
        time.sleep(0.01)
    assert app.session.engine.phase.name == "PICK"


def _sand_banner(view, text: str):
    """Where the App's banner of ``text`` stands over ``view`` and its font (``App.draw``'s arguments)."""
    from companion.app import MENU_CORNER
    from companion.views import banner

    avoid = view.hourglass_rect or getattr(view, "focus_rect", None)
    return banner.place(theme.DESIGN_SIZE, text, avoid, 1.0, [MENU_CORNER], list(view.in_view), view.banner_room)


def _writing(tmp_path, players: list[str], lang: str):
    """Round 1 with the sand just turned: the view, its announcer and the clocks."""
    from test_haste_worte_view import SETUP, Clocks, make, press

    clocks = Clocks()
    view, announcer = make(tmp_path, clocks, {**SETUP, "players": players}, lang=lang)
    press(view, Button.ROLL)
    for _ in range(len(players) + 1):
        press(view, Button.SELECT)
    press(view, Button.TIMER)
    return view, announcer, clocks


SIX = ["Großmutter Helga", "Großvater Johannes", "Carla", "David", "Eva-Maria", "Li"]


@pytest.mark.parametrize("lang", ["de", "en"])
@pytest.mark.parametrize("players", [["Anna", "Ben", "Carla", "David"], SIX], ids=["four", "six"])
def test_round_ones_sand_sentence_stands_at_far_beside_the_hourglass(tmp_path, lang, players):
    """"Die Sanduhr läuft: 90 Sekunden. Höchstens 3 Wörter…" stood on three lines at BODY at the foot beside the
    hourglass (it covers the word limits there and says them): too long for FAR in the 122 px between who has
    which symbol and the hint bar. Said shorter, in 128 px, at FAR, clear of the symbols, the status and the letter."""
    from companion.games.haste_worte import Phase

    view, announcer, _ = _writing(tmp_path, players, lang)
    assert view.game.phase is Phase.WRITING and view.game.round.number == 1
    said = [a for a in view.session.actions if a.get("action") == "timer_start"]
    assert said
    text = t("haste.timer_started", lang, seconds=90, own=3, others=view.game.others_limit)
    rect, font, lines = _sand_banner(view, text)
    assert font.get_height() >= theme.font(theme.FAR, True).get_height(), (lines, font.get_height())
    assert not any(rect.colliderect(r) for r in view.in_view) and not rect.colliderect(view.hourglass_rect)


@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_interrupted_sands_sentence_stands_beside_the_hourglass_not_over_the_status(tmp_path, lang):
    """After a restart with the clock behind, "Ein Neustart hat die Sanduhr unterbrochen. Dreht sie neu oder erklärt
    die Zeit für abgelaufen." stood at the top over the status line and the crystal table: too long for the band
    beside the hourglass. Its buttons say what to do; the sentence, shorter, stands in that band at FAR."""
    from test_haste_worte_view import make, queued_keys

    view, _, clocks = _writing(tmp_path, ["Anna", "Ben", "Carla", "David"], lang)
    actions = list(view.session.actions)
    clocks.wall -= 86_400  # no real-time clock after the restart
    view, announcer = make(tmp_path / "again", clocks, {}, actions=actions, lang=lang)
    assert view.game.round.timer_interrupted and "haste.timer_interrupted" in queued_keys(announcer)
    rect, font, lines = _sand_banner(view, t("haste.timer_interrupted", lang, letter=view.game.round.letter))
    assert font.get_height() >= theme.font(theme.FAR, True).get_height(), lines
    assert view.banner_room.contains(rect) and not any(rect.colliderect(r) for r in view.in_view), rect


def _two_dice_taken(tmp_path, lang: str, players: list[str], size: tuple[int, int] = (800, 480)):
    """Haste Worte on the built-in tray's virtual dice, not taught, two dice taken: the App (the caller closes it)."""
    from companion.app import App
    from companion.config import Config
    from companion.display import Display

    register_all()
    cfg = Config()
    cfg.players = players
    cfg.language = lang
    app = App(cfg, state_dir=tmp_path, display=Display(size, fullscreen=False), source_spec="synthetic:3",
              clock=lambda: 100.0)
    app.main_menu()
    _picking_virtual_dice(app)
    for _ in range(2):
        app.on_button(ButtonEvent(Button.SELECT))
        app.frame(0.03, [])
    return app


@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_not_taught_notice_keeps_clear_of_the_word_limits_once_dice_are_taken(tmp_path, monkeypatch, lang):
    """Once two dice were taken, "Großmutter H." and "Ben" under them in two rows took 60 of the band's 106 px: the
    eight seconds' notice no longer fitted there and fell back to the foot, over the word limits whole. It stands
    beside the names now, clear of the dice, their numbers, the names and the limits."""
    app = _two_dice_taken(tmp_path, lang, ["Großmutter Helga", "Ben", "Carla", "Maximilian"])
    try:
        owners = {p for i in range(6) if (p := app.session.engine.round.owner_of(i)) is not None}
        assert len(owners) == 2
        with recording_texts(monkeypatch) as drawn:
            app.frame(0.03, [])
        strip, limits, numbers = _notice_limits_and_numbers(app, drawn, lang)
        names = [rect for _, _, rect in app.mode._owner_labels()]
        assert len(limits) == 2 and len(numbers) == 6 and len(names) == 2, drawn
        keep = [*limits, *numbers, *names, *app.mode.dice.die_rects()]
        assert not any(strip.colliderect(rect) for rect in keep), (strip, keep)
    finally:
        app.close()


@pytest.mark.parametrize("lang", ["de", "en"])
@pytest.mark.parametrize("size", [(800, 480), (1280, 720)])
def test_with_six_long_names_the_not_taught_notice_leaves_the_word_limits_whole(tmp_path, monkeypatch, lang, size):
    """Six long names, two dice taken side by side: their owners' names in two rows under the dice leave 104 px
    beside them, and the not-taught notice needed three lines 516 px across there (or four, 134 px tall): it fell
    back to the foot over the word limits whole, then stood over the crystal table for its eight seconds. Without
    the game's name before it ("Haste Worte? Das Würfelspiel: …", the game on the screen) it stands beside the
    names, clear of the crystal table, the status line (whose pick it is), the dice, their numbers, the names and
    the limits."""
    app = _two_dice_taken(tmp_path, lang, ["Großmutter Helga", "Großvater Johannes", "Maximilian-Alexander",
                                           "Anne-Marie Schulz", "Eva-Maria", "Oma Lise"], size)
    try:
        names = [rect for _, _, rect in app.mode._owner_labels()]
        assert len(names) == 2 and names[0].bottom <= names[1].top, names  # two rows
        with recording_texts(monkeypatch) as drawn:
            app.frame(0.03, [])
        pygame.image.save(app.display.window, str(tmp_path / f"haste_six_long_notice_{lang}_{size[0]}.png"))
        strip, limits, numbers = _notice_limits_and_numbers(app, drawn, lang)
        assert len(limits) == 2 and len(numbers) == 6, drawn
        crystals, _, _ = app.mode._crystal_rows()
        keep = [*limits, *numbers, *names, *app.mode.dice.die_rects(), app.mode._status_rect(), *crystals]
        assert not any(strip.colliderect(rect) for rect in keep), (strip, keep)
        assert min(size for s, size, r in drawn if strip.contains(r) and s.strip()) >= theme.SMALL
    finally:
        app.close()


@pytest.mark.parametrize("lang", ["de", "en"])
def test_with_six_long_names_the_last_picks_sentence_stands_beside_the_symbols_not_over_the_crystals(tmp_path, lang):
    """Six long names, every die picked: "Oma Lise: Obst & Gemüse. Großmutter Helga, zieh den Buchstaben." stood at
    the top for its seconds, over the crystal table and its highlight (who draws the letter) and the status line.
    It stands beside who has which symbol at FAR, clear of the table, the status line and the symbols."""
    from test_haste_worte_view import SETUP, Clocks, make, press

    from companion.games.haste_worte import Phase

    players = ["Großmutter Helga", "Maximilian-Alexander", "Anna-Sophie", "Großvater Jürgen", "Carla-Marie",
               "Oma Lise"]
    view, announcer = make(tmp_path, Clocks(), {**SETUP, "players": players}, lang=lang)
    press(view, Button.ROLL)
    for _ in players:
        press(view, Button.SELECT)
    assert view.game.phase is Phase.LETTER
    said = [a for a in [getattr(announcer.current, "announcement", None), *announcer.queued]
            if a is not None and a.key == "haste.picks_done"]
    assert said, announcer.queued
    rect, font, lines = _sand_banner(view, said[-1].text(lang))
    assert font.get_height() >= theme.font(theme.FAR, True).get_height(), lines
    cells, _, _ = view._crystal_rows()
    keep = [*cells, view._status_rect()]
    assert not any(rect.colliderect(r) for r in keep), (rect, keep)
    from companion.views.haste_worte_view import LETTER_SYMBOLS

    assert not rect.colliderect(view._symbols_rect(LETTER_SYMBOLS)), rect
