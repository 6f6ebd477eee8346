"""Fritzo's screen says what the table builds (the goal of Beginner, Challenge, Professional and Team), who builds
it, and names the building's layers apart from the games' levels; the frame's repeated look-ups are cached."""

from __future__ import annotations

import os

import pygame
from drawn_texts import recording_texts
from test_fritzo_view import make

from companion.views.fritzo_view import FritzoMode

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")


def drawn_strings(view: FritzoMode, monkeypatch) -> list[tuple[str, int, pygame.Rect]]:
    with recording_texts(monkeypatch) as drawn:
        view.draw(pygame.Surface((800, 480)))
    return drawn


def test_the_layer_tabs_are_layers_in_english_not_levels(tmp_path, monkeypatch):
    """"Level 1/2/3" stood beside Echt Spitze's "Level 1-3" and Fritzo's own "Level One" mode: the building's three
    layers are "Layer" (German "Ebene" as before)."""
    for lang, word in (("en", "Layer"), ("de", "Ebene")):
        view, _, _ = make(tmp_path / lang, {"mode": "beginner", "players": ["Anna"]}, lang=lang)
        tabs = [s for s, _, r in drawn_strings(view, monkeypatch) if any(r.colliderect(t) for t in view.tab_rects())]
        assert [s.split()[0] for s in tabs] == [word] * 3, tabs
