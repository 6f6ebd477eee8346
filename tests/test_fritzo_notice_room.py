"""Fritzo placing: a notice stands clear of the building (its empty places too), readable."""
from __future__ import annotations

import pygame
import pytest
from drawn_texts import recording_texts
from test_games_in_app import _announcing_app

from companion.app import GAME_ENTRIES
from companion.games_ui import register_all
from companion.i18n import t
from companion.views import theme
from companion.views.fritzo_view import PANEL
from hardware.events import Button, ButtonEvent

NOTICES = {"builtin": ("fritzo.builtin_cubes", {}, {"info": True}),
           "damaged": ("core.resumed_damaged", {"lost": 3}, {}),
           "no_dice": ("fritzo.ui.no_dice", {}, {})}
#: every way Fritzo is placed: the levels, a race against the clock (running), two players' modes, Level One's plane
SETUPS = {"beginner": {"mode": "beginner"}, "challenge": {"mode": "challenge"},
          "professional": {"mode": "professional"}, "race": {"mode": "beginner", "minutes": 10},
          "team": {"mode": "team", "target": "professional"},
          "strategy": {"mode": "strategy"}, "level-one": {"mode": "level-one"}}


def _placing(tmp_path, lang: str, mode: str):
    """An app placing the first cube of ``mode`` (through its start: the roll, the cube taken out), banners over."""
    register_all()
    app, clock = _announcing_app(tmp_path, lang)
    players = ("Anna", "Ben") if mode in ("team", "strategy", "level-one") else ("Anna",)
    app.new_game(GAME_ENTRIES["fritzo"], {**SETUPS[mode], "_players": players, "start": 0})
    view = app.mode
    for _ in range(200):
        clock["now"] += 0.5
        app.frame(0.03, [])
        if view.step == "cell" and app.announcer.idle:
            break
        if view._rolling():
            assert app.session.apply({"action": "roll", "dice": ["blue"]}), app.session.error
        elif view.step != "cell":
            app.on_button(ButtonEvent(Button.SELECT))
    assert view.step == "cell" and app.announcer.idle
    return app, clock


@pytest.mark.parametrize("lang", ["de", "en"])
@pytest.mark.parametrize("mode", sorted(SETUPS))
@pytest.mark.parametrize("notice", sorted(NOTICES))
def test_a_notice_while_placing_leaves_the_whole_building_in_view(tmp_path, monkeypatch, lang, mode, notice):
    """Placing the first cube: the built-in cubes' notice (and ROLL's, a damaged game's) stood at the foot over the
    3x3 layer's bottom row, only its top 30 px showing (it covered no cube, only empty places). It stands beside the
    building under the cube in hand, or over the top line, its words at SMALL or larger; the positions stay too."""
    app, clock = _placing(tmp_path, lang, mode)
    try:
        view = app.mode
        assert (view.clock_left() is not None) == (mode in ("race", "level-one")), view.clock_left()
        key, params, tone = NOTICES[notice]
        words = t(key, lang, **params)
        for step in ("cell", "turn"):
            assert view.step == step
            app.show_notice(words, seconds=10, **tone)
            with recording_texts(monkeypatch) as drawn:
                app.frame(0.03, [])
            pygame.image.save(app.display.canvas, str(tmp_path / f"{mode}_{step}_{notice}_{lang}.png"))
            strip = app._strip[0]
            building = list(view.cell_rects().values())
            assert not any(strip.colliderect(r) for r in building), (step, strip)
            assert not any(strip.colliderect(r) for r in view.panel_rects()), (step, strip)
            sizes = [size for text, size, rect in drawn if strip.contains(rect)]
            assert sizes and min(sizes) >= theme.SMALL, sizes
            app.notice = None
            app.on_button(ButtonEvent(Button.SELECT))
    finally:
        app.close()


@pytest.mark.parametrize("lang", ["de", "en"])
@pytest.mark.parametrize("mode", ["race", "professional", "team", "strategy", "level-one"])
@pytest.mark.parametrize("notice", ["builtin", "no_dice"])
def test_a_notice_while_placing_leaves_the_note_at_the_panels_foot(tmp_path, monkeypatch, lang, mode, notice):
    """A tap on a place that is not lit is answered at the panel's foot ("Da passt Cube 1 nicht: nur die Plätze
    mit „+“ gehen."); a notice shown then stood in the column beside the building down to the hint bar,
    over the answer's first line. It stands above it now, the building, the race's clock and the answer in view."""
    app, clock = _placing(tmp_path, lang, mode)
    try:
        view = app.mode
        lit = {c[:2] for c in view._step_values()}
        view.on_tap(next(r for c, r in view.cell_rects().items() if c not in lit).center)
        assert view.note
        key, params, tone = NOTICES[notice]
        app.show_notice(t(key, lang, **params), seconds=10, **tone)
        with recording_texts(monkeypatch) as drawn:
            app.frame(0.03, [])
        pygame.image.save(app.display.canvas, str(tmp_path / f"note_{mode}_{notice}_{lang}.png"))
        strip = app._strip[0]
        lines = sorted((rect.y, text, rect) for text, size, rect in drawn if text in view.note and rect.x == PANEL.x)
        note = [rect for _, _, rect in lines]  # its lines, drawn from the panel's foot up
        assert " ".join(text for _, text, _ in lines) == view.note
        assert not any(strip.colliderect(r) for r in note), (strip, note)
        assert not any(strip.colliderect(r) for r in view.cell_rects().values()), strip
        if view.clock_left() is not None:
            assert not strip.colliderect(view._clock_rect())
        sizes = [size for text, size, rect in drawn if strip.contains(rect)]
        assert sizes and min(sizes) >= theme.SMALL, sizes
    finally:
        app.close()


@pytest.mark.parametrize("lang", ["de", "en"])
def test_a_damaged_games_notice_in_a_race_leaves_the_clock_in_view(tmp_path, monkeypatch, lang):
    """A race resumed from a damaged save: its notice of three lines fits neither the column beside the building
    nor the band under the clock, and stood over the top line and the running clock for its ten seconds. The view
    offers a room beside the clock too (``notice_room``, several rooms); the notice stands there, the clock, the
    building and the panel in view, placing the first cube and the next (a banner beside the building)."""
    app, clock = _placing(tmp_path, lang, "race")
    try:
        view = app.mode
        words = t(*NOTICES["damaged"][:1], lang, **NOTICES["damaged"][1])
        for k in range(4):  # the first cube's place and position, then the second's with its banner up
            assert view.step == ("cell", "turn")[k % 2] and view.clock_left() is not None
            app.show_notice(words, seconds=10)
            with recording_texts(monkeypatch) as drawn:
                app.frame(0.03, [])
            pygame.image.save(app.display.canvas, str(tmp_path / f"race_damaged_{k}_{lang}.png"))
            strip = app._strip[0]
            assert not strip.colliderect(view._clock_rect()), (k, strip, view._clock_rect())
            assert not any(strip.colliderect(r) for r in [*view.cell_rects().values(), *view.panel_rects()]), strip
            assert (app._banner is not None) == (k >= 2), k  # "Cube 1 placed on layer 1." beside the building
            if app._banner is not None:
                assert not strip.colliderect(app._banner)
            lines = [(text, size) for text, size, rect in drawn if strip.contains(rect) and text in words]
            assert " ".join(text for text, _ in lines) == words and min(size for _, size in lines) >= theme.SMALL
            app.notice = None
            for _ in range(4):  # the step on (after the first cube: place, the next cube, to its place)
                app.on_button(ButtonEvent(Button.SELECT))
                clock["now"] += 0.2
                app.frame(0.03, [])
                if view.step in ("cell", "turn"):
                    break
    finally:
        app.close()
