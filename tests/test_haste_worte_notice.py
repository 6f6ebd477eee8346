"""Haste Worte's screen and the App's notices and sand sentences: what the table reads stays clear of them."""

from __future__ import annotations

import time

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
        start_game(app, "haste-worte")
        assert not app.session.camera_ready and app.notice
        app.on_button(ButtonEvent(Button.ROLL))
        for _ in range(100):  # the virtual dice are thrown
            app.frame(0.03, [])
            if app.session.engine.phase.name == "PICK":
                break
            time.sleep(0.01)
        assert app.session.engine.phase.name == "PICK"
        with recording_texts(monkeypatch) as drawn:
            app.frame(0.03, [])
        assert app._strip is not None and app._strip[1] == app.notice
        strip = app._strip[0]
        limits = [rect for line, _, rect in drawn
                  if line in (t("haste.screen.limit_own", lang, n=MAX_OWN_WORDS),
                              t("haste.screen.limit_others", lang, n=app.session.engine.others_limit))]
        numbers = [rect for line, size, rect in drawn if line in "123456" and size == theme.SMALL]
        assert len(limits) == 2 and len(numbers) == 6, drawn
        keep = [*limits, *numbers, *app.mode.dice.die_rects()]
        assert not any(strip.colliderect(rect) for rect in keep), (strip, keep)
        assert strip.bottom < min(rect.top for rect in limits) and strip.top > max(r.bottom for r in numbers)
    finally:
        app.close()


