"""Fritzo's screen says what the table builds (the goal of Beginner, Challenge, Professional and Team), who builds
it, and names the building's layers apart from the games' levels; the frame's repeated look-ups are cached."""

from __future__ import annotations

import os

import pygame
import pytest
from drawn_texts import recording_texts
from test_fritzo_view import make, pro_actions

from companion.views import theme
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


def test_a_frame_orients_the_building_once_and_builds_the_menu_once(tmp_path, monkeypatch):
    """Each frame oriented every cube of the building eleven times (``structure``) and built the menu seven times;
    now once per step, and again only when what they show changed."""
    from companion.games.fritzo import engine

    view, _, _ = make(tmp_path, {"mode": "challenge", "players": ["Anna"]}, pro_actions(14))
    view.draw(pygame.Surface((800, 480)))
    calls = {"colours_at": 0, "menu": 0}
    real_colours, real_menu = engine.Fritzo.colours_at, getattr(FritzoMode, "_menu_items", None)

    def colours_at(self, building):
        calls["colours_at"] += 1
        return real_colours(self, building)

    def menu(self):
        calls["menu"] += 1
        return real_menu(self)

    monkeypatch.setattr(engine.Fritzo, "colours_at", colours_at)
    monkeypatch.setattr(FritzoMode, "_menu_items", menu, raising=False)
    for _ in range(3):
        view.draw(pygame.Surface((800, 480)))
    assert calls == {"colours_at": 0, "menu": 0}


def test_the_cached_building_and_menu_follow_every_change(tmp_path):
    """What is cached follows a step, an UNDO and another step of the same count (the engine is rebuilt), the
    language, the joker chosen and Level One's plane switched (no step)."""
    actions = pro_actions(3)
    view, session, clock = make(tmp_path, {"mode": "professional", "players": ["Anna"]}, actions[:2])
    assert len(view.structure()) == 2
    assert session.apply(actions[2]) and len(view.structure()) == 3
    assert session.undo() and len(view.structure()) == 2
    other = next(p for p in session.engine.legal_placements(session.engine.cubes_left()[-1]))
    assert session.apply({"action": "place", "cube": other.cube, "cell": list(other.cell),
                          "rotation": other.rotation})
    assert view.structure() == session.engine.structure() and other.cell in view.structure()
    before = view.menu_items()
    session.lang = "en"
    assert view.menu_items() != before and ("place", "Place") in view.menu_items()

    l1, l1_session, _ = make(tmp_path / "l1", {"mode": "level-one", "players": ["Anna", "Ben"], "starter": "Anna"})
    first = l1_session.engine.legal_placements(l1_session.engine.cubes_left("Anna")[0], "Anna")[0]
    cube, cell, rotation = first.cube, first.cell, first.rotation
    assert l1_session.apply({"action": "place", "player": "Anna", "cube": cube, "cell": list(cell),
                             "rotation": rotation})
    l1.update(0.0, 100.0)
    assert l1.player == "Anna" and len(l1.structure()) == 1
    menu = dict(l1.menu_items())
    l1._menu("switch")
    assert l1.player == "Ben" and l1.structure() == {} and dict(l1.menu_items()) != menu

    strat, _, _ = make(tmp_path / "st", {"mode": "strategy", "players": ["Anna", "Ben"], "starter": "Anna"})
    labels = dict(strat.menu_items())
    strat.joker = True
    assert dict(strat.menu_items())["joker"] != labels["joker"]


@pytest.mark.parametrize("lang", ["de", "en"])
@pytest.mark.parametrize("setup", [
    {"mode": "beginner", "players": ["Anna", "Ben", "Carla", "David"]},
    {"mode": "challenge", "players": ["Anna"]},
    {"mode": "professional", "players": ["Anna"], "minutes": 5},
    {"mode": "team", "players": ["Großvater Johannes", "Mia"], "target": "professional"},
    {"mode": "team", "players": ["Großvater Johannes", "Mia"], "target": "challenge"},
])
def test_the_goal_stands_under_the_top_line_at_far_clear_of_the_building(tmp_path, monkeypatch, lang, setup):
    """"Vorrat: 27 · Fritzo Beginner" said nothing of what to build. The goal stands on the second line, named and
    said ("Beginner: Seiten einfarbig, 6 Farben"), at FAR after the supply (Team builds it together), within the
    top bar, clear of the layer tabs and the building."""
    from companion.views.fritzo_view import TABS_AREA, TOP_BAR

    view, _, _ = make(tmp_path, setup, lang=lang)
    goal = view.goal_line()
    target = setup.get("target", setup["mode"])
    assert goal.startswith(target.capitalize() + ":")
    drawn = drawn_strings(view, monkeypatch)
    line = [(size, rect) for s, size, rect in drawn if s == goal]
    assert line, [s for s, _, _ in drawn]
    size, rect = line[0]
    assert size >= theme.FAR and rect.right <= TOP_BAR.right and rect.bottom <= TABS_AREA.top, (size, rect)
    supplied = [rect for s, _, rect in drawn if s.startswith(("Vorrat", "Supply"))]
    assert supplied and supplied[0].right < rect.left and supplied[0].centery == rect.centery


@pytest.mark.parametrize("lang", ["de", "en"])
def test_who_builds_stands_on_the_top_line_where_no_turns_are(tmp_path, monkeypatch, lang):
    """The setup asked "Wie viele spielen mit?" with four names for Beginner, and no name stood on the screen
    after it: the top line says who builds (the end names them as the winners), at LARGE where it fits."""
    players = ["Anna", "Ben", "Carla", "David"]
    view, _, _ = make(tmp_path, {"mode": "beginner", "players": players}, lang=lang)
    drawn = drawn_strings(view, monkeypatch)
    top = [(s, size) for s, size, rect in drawn if rect.top == 0]
    assert any("Anna, Ben, Carla, David" in s and size >= theme.FAR for s, size in top), top
    long = ["Maximilian-Alexander", "Anna-Sophie", "Großvater Jürgen", "Zoé"]
    crowd, _, _ = make(tmp_path / "long", {"mode": "professional", "players": long, "minutes": 10}, lang=lang)
    line = [(s, size) for s, size, rect in drawn_strings(crowd, monkeypatch) if rect.top == 0 and "Zoé" in s]
    assert line and line[0][1] >= theme.FAR and all(p.split()[0].split("-")[0] in line[0][0] for p in long), line
    solo, _, _ = make(tmp_path / "solo", {"mode": "challenge", "players": ["Anna"]}, lang=lang)
    said = {"de": "Anna baut", "en": "Anna builds"}[lang]
    assert any(s == said for s, _, rect in drawn_strings(solo, monkeypatch) if rect.top == 0)


def test_the_setup_asks_who_builds_where_there_are_no_turns(tmp_path):
    """Beginner, Challenge, Professional ("Anzahl der Spieler: 1+"): "Wer baut?", not "Wie viele spielen mit?" (a
    question for a game against each other); Team and the two-player modes keep it."""
    from test_fritzo_setup import app_in_setup, choose

    for mode, title in (("Beginner", "Wer baut? (Allein oder zusammen)"), ("Team: Beginner", "Wie viele spielen mit?"),
                        ("Strategy", "Wie viele spielen mit?")):
        app = app_in_setup(tmp_path / mode.replace(" ", "").replace(":", ""))
        choose(app, mode)
        assert app.mode.mode.menu.title == title
        assert [item.label for item in app.mode.mode.menu.items][0] == "2: Anna, Ben"
