"""Free play with a camera, between the readings: ROLL's answer that is no roll (the dice read already, the tray
empty) is a notice in the panel's colours, not the red of an error."""

from __future__ import annotations

import pygame
import pytest
from test_free_play_reads import _free_play, _press, _reading, _rest

from companion.i18n import t
from companion.views import theme
from hardware.events import Button
from vision.types import TrayReading


@pytest.mark.parametrize("lang", ["de", "en"])
def test_roll_on_dice_read_already_is_a_notice_not_an_error(tmp_path, out_dir, lang):
    """ROLL with no throw: "These dice are read already" stood in the error's red strip, with its warning sign, until
    the next roll; a family that pressed ROLL once too often was told something had gone wrong. So was ROLL on an
    empty tray. Both are the panel's notice now, gone with the next roll."""
    for size in ((800, 480), (1280, 720)):
        app = _free_play(tmp_path / f"{size[0]}", lang, size)
        app.watcher.readings.put(_reading([2, 5, 6]))
        app.frame(0.03, [])
        for reading, key in ((_reading([2, 5, 6], dx=3), "core.free_throw_first"),
                             (TrayReading(()), "core.free_no_dice")):
            _press(app, Button.ROLL)
            app.watcher.readings.put(reading)
            app.frame(0.03, [])
            assert app.session.error is None
            assert app.notice == t(key, lang) and app.notice_tone == "info"
            rect, words, kind = app._strip
            assert (words, kind) == (t(key, lang), "notice")
            strip = app.display.canvas.get_at((rect.left + 4, rect.centery))[:3]
            assert strip == theme.PANEL_HI[:3] and strip != theme.BAD_DARK[:3]
            pygame.image.save(app.display.window, str(out_dir / f"free_play_{key[5:]}_{lang}_{size[0]}.png"))
        assert len(app.session.engine.rolls) == 1
        app.watcher.readings.put(_reading([1, 1, 1], dx=200))  # thrown: a new roll, the notice goes
        app.frame(0.03, [])
        assert len(app.session.engine.rolls) == 2 and app._strip is None


def test_a_reading_not_asked_for_says_nothing(tmp_path):
    """The same dice read again after an arm over the tray, an empty tray at rest: no ROLL, nothing to answer."""
    app = _free_play(tmp_path)
    assert _rest(app, _reading([2, 5, 6])) is None
    for reading in (_reading([2, 5, 6], dx=3), TrayReading(())):
        app.watcher.readings.put(reading)
        app.frame(0.03, [])
        assert app.session.error is None and app._strip is None
