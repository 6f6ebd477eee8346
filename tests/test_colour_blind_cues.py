"""What tells things apart on screen must not be the hue alone: about one man in twelve sees red and green alike.

The measures here are those of the colour-blind audit: CIEDE2000 between colours as a red-blind (protan), green-blind
(deutan) or blue-blind (tritan) player sees them (Machado et al. 2009, full severity) or in grey, and the share of a
swatch its pattern's marks cover."""

from __future__ import annotations

import math

import pytest

from companion.i18n import t

_MACHADO = {
    "protan": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216), (-0.003882, -0.048116, 1.051998)),
    "deutan": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413), (-0.011820, 0.042940, 0.968881)),
    "tritan": ((1.255528, -0.076749, -0.178779), (-0.078411, 0.930809, 0.147602), (0.004733, 0.691367, 0.303900)),
}
KINDS = ("normal", "protan", "deutan", "tritan", "grey")


def _linear(c: float) -> float:
    c /= 255.0
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def _srgb(c: float) -> float:
    c = min(1.0, max(0.0, c))
    return 255.0 * (c * 12.92 if c <= 0.0031308 else 1.055 * c ** (1 / 2.4) - 0.055)


def seen(rgb, kind: str) -> tuple[float, float, float]:
    """``rgb`` as a player with that kind of colour vision sees it (``grey``: its luminance alone)."""
    lin = [_linear(c) for c in rgb[:3]]
    if kind == "normal":
        return tuple(float(c) for c in rgb[:3])
    if kind == "grey":
        y = _srgb(0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2])
        return (y, y, y)
    return tuple(_srgb(sum(m * c for m, c in zip(row, lin, strict=True))) for row in _MACHADO[kind])


def _lab(rgb) -> tuple[float, float, float]:
    r, g, b = (_linear(c) for c in rgb)
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(v: float) -> float:
        return v ** (1 / 3) if v > 0.008856 else 7.787 * v + 16 / 116
    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def ciede2000(c1, c2) -> float:
    """CIEDE2000 between two sRGB colours (about 2: just told apart side by side; 10 and more: plainly different)."""
    (l1, a1, b1), (l2, a2, b2) = _lab(c1), _lab(c2)
    cb = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(cb ** 7 / (cb ** 7 + 25 ** 7)))
    a1p, a2p = (1 + g) * a1, (1 + g) * a2
    c1p, c2p = math.hypot(a1p, b1), math.hypot(a2p, b2)
    h1 = math.degrees(math.atan2(b1, a1p)) % 360
    h2 = math.degrees(math.atan2(b2, a2p)) % 360
    dl, dc = l2 - l1, c2p - c1p
    dh = 0.0 if c1p * c2p == 0 else (h2 - h1 - 360 if h2 - h1 > 180 else h2 - h1 + 360 if h2 - h1 < -180 else h2 - h1)
    big_dh = 2 * math.sqrt(c1p * c2p) * math.sin(math.radians(dh / 2))
    lb, cbp = (l1 + l2) / 2, (c1p + c2p) / 2
    if c1p * c2p == 0:
        hb = h1 + h2
    elif abs(h1 - h2) <= 180:
        hb = (h1 + h2) / 2
    else:
        hb = (h1 + h2 + 360) / 2 if h1 + h2 < 360 else (h1 + h2 - 360) / 2
    tt = (1 - 0.17 * math.cos(math.radians(hb - 30)) + 0.24 * math.cos(math.radians(2 * hb))
          + 0.32 * math.cos(math.radians(3 * hb + 6)) - 0.20 * math.cos(math.radians(4 * hb - 63)))
    dth = 30 * math.exp(-(((hb - 275) / 25) ** 2))
    rc = 2 * math.sqrt(cbp ** 7 / (cbp ** 7 + 25 ** 7))
    sl = 1 + 0.015 * (lb - 50) ** 2 / math.sqrt(20 + (lb - 50) ** 2)
    sc, sh = 1 + 0.045 * cbp, 1 + 0.015 * cbp * tt
    rt = -math.sin(math.radians(2 * dth)) * rc
    return math.sqrt((dl / sl) ** 2 + (dc / sc) ** 2 + (big_dh / sh) ** 2 + rt * (dc / sc) * (big_dh / sh))


def worst_de(c1, c2) -> float:
    """The least CIEDE2000 between two colours over every kind of colour vision and grey."""
    return min(ciede2000(seen(c1, k), seen(c2, k)) for k in KINDS)


def contrast(c1, c2) -> float:
    """WCAG contrast ratio (1 to 21; 4.5 is the least for text)."""
    def lum(c):
        r, g, b = (_linear(v) for v in c[:3])
        return 0.2126 * r + 0.7152 * g + 0.0722 * b
    hi, lo = sorted((lum(c1), lum(c2)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


HUES = {"de": ("grün", "rot", "gelb", "orange", "blau", "magenta", "lila", "rosa"),
        "en": ("green", "red", "yellow", "orange", "blue", "magenta", "purple", "pink")}


@pytest.mark.parametrize("lang", ["de", "en"])
@pytest.mark.parametrize("key, values", [
    ("fritzo.ui.not_here", {"cube": 3}),  # the lit places' green ring: ΔE 12 from the picked place's for protans
    ("teach.outline", {}),  # its green outline on a white die: ΔE 1.8 from the die's rim in grey
    ("core.check_unsure", {"n": 1}),  # the unsure die's box is magenta, and it says "?"
])
def test_what_a_player_is_told_to_look_for_is_a_mark_not_a_hue(lang, key, values):
    words = t(key, lang, **values).lower().replace("„", " ").replace("“", " ").replace('"', " ").split()
    assert not [h for h in HUES[lang] if any(w.strip(".,:;()?!") == h or w.startswith(h) for w in words)], \
        t(key, lang, **values)


def test_the_teach_screens_outline_stands_out_from_a_white_die_in_grey():
    """The outline of the face being learnt was a 3 px green line: on a white die's rim as the camera sees it (a
    light grey) ΔE 1.8 in grey, gone. Drawn on a dark edge now, something along it stands out from the die for every
    kind of colour vision."""
    import numpy as np
    import pygame
    from synth_dice import painter_for

    from companion.views import theme
    from companion.views.teach_view import TeachView
    from hardware.synthetic import render_tray
    from vision.taught import Profile

    view = TeachView("noch-x-mal", "de", profile=Profile("noch-x-mal"), save=lambda p: None)
    frame, _ = render_tray(np.random.default_rng(4), faces=["green"], painter=painter_for("noch-x-mal"))
    view.on_frame(frame)
    view.on_frame(frame.copy())
    assert view.crop is not None and view.outline is not None
    rim = (178, 178, 176)  # a white die in the tray's light, the outline drawn all over it
    view.crop = np.full_like(view.crop, rim[::-1])
    surface = pygame.Surface((800, 480))
    view.draw(surface)
    pixels = pygame.surfarray.pixels3d(surface)
    k = 200 / view.crop.shape[1]
    corners = [(20 + (x + 0.5) * k, 96 + (y + 0.5) * k) for x, y in view.outline.tolist()]
    for (x0, y0), (x1, y1) in zip(corners, corners[1:] + corners[:1], strict=True):
        for f in (0.25, 0.5, 0.75):  # along each side
            px, py = int(x0 + f * (x1 - x0)), int(y0 + f * (y1 - y0))
            around = {tuple(int(c) for c in pixels[px + dx, py + dy]) for dx in range(-4, 5) for dy in range(-4, 5)}
            assert theme.GOOD in around, (px, py)  # the line itself
            assert max(worst_de(c, rim) for c in around) > 20, (px, py, around)  # and beside it, a dark edge


def _specks(ink) -> list[int]:
    """The sizes (px) of the marks in a boolean ``ink[x][y]`` mask, neighbours side by side one mark."""
    seen_at, sizes = set(), []
    w, h = len(ink), len(ink[0])
    for x0 in range(w):
        for y0 in range(h):
            if not ink[x0][y0] or (x0, y0) in seen_at:
                continue
            todo, n = [(x0, y0)], 0
            seen_at.add((x0, y0))
            while todo:  # at most every pixel once
                x, y = todo.pop()
                n += 1
                for nx, ny in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                    if 0 <= nx < w and 0 <= ny < h and ink[nx][ny] and (nx, ny) not in seen_at:
                        seen_at.add((nx, ny))
                        todo.append((nx, ny))
            sizes.append(n)
    return sizes


@pytest.mark.parametrize("size, inset", [(15, 6), (16, 6), (24, 2), (24, 6), (28, 6), (46, 6), (88, 11)])
def test_orange_dots_are_seen_on_a_small_swatch(size, inset):
    """Orange is ΔE 5 from green for a red-blind eye and 6 in grey: its dots tell it apart. On the 15-30 px swatches
    of Noch X-Mal!'s cards and Fritzo's building they were 2x2 px specks covering 6 % of the swatch (the other
    patterns 23-48 %). Now each dot is at least 3x3 px and the dots cover a sixth to a third of any swatch."""
    import pygame

    from companion.dicesets import DEFAULT_COLOURS
    from companion.views.colour_faces import draw_pattern, ink_on

    assert worst_de(DEFAULT_COLOURS["orange"][0], DEFAULT_COLOURS["green"][0]) < 10  # why the dots must be seen
    rgb, pattern = DEFAULT_COLOURS["orange"]
    surface = pygame.Surface((size, size))
    surface.fill(rgb)
    draw_pattern(surface, pygame.Rect(0, 0, size, size).inflate(-inset, -inset), pattern, ink_on(rgb))
    pixels = pygame.surfarray.array3d(surface)
    ink = [[sum(abs(int(c) - i) for c, i in zip(pixels[x, y], ink_on(rgb), strict=True)) < 30 for y in range(size)]
           for x in range(size)]
    share = sum(map(sum, ink)) / size ** 2
    specks = _specks(ink)
    assert 0.15 <= share <= 0.35, share
    assert specks and min(specks) >= 9, specks


def test_colours_that_share_a_pattern_are_far_apart_for_every_eye():
    """Red and brown both had stripes (ΔE 0.8 for a red-blind eye), orange and pink both dots (1.7 in grey): a set
    with both (a family's own colour cubes) showed two faces alike. Colours sharing a pattern now differ by ΔE 10 or
    more in every simulation (the colour joker is drawn as black, and no set has both)."""
    from itertools import combinations

    from companion.dicesets import DEFAULT_COLOURS

    alike = [(a, b, round(worst_de(ra, rb), 1))
             for (a, (ra, pa)), (b, (rb, pb)) in combinations(DEFAULT_COLOURS.items(), 2)
             if pa == pb and {a, b} != {"black", "color-joker"} and worst_de(ra, rb) < 10]
    assert not alike


@pytest.mark.parametrize("lang", ["de", "en"])
@pytest.mark.parametrize("names", [
    ["Maximilian", "Anna-Sophie", "Carla", "David", "Emil", "Großvater Jürgen"],
    ["Maximilian-Alexander", "Anna-Sophie", "Großvater Jürgen", "Zoé"],
    ["Maximilian-Alexander", "Anna-Sophie-Charlotte", "Großvater Jürgen", "Zoé-Louise", "Emil-Friedrich",
     "Großmutter Hildegard"],
])
def test_a_start_colour_is_named_beside_its_swatch_on_crowded_cards(tmp_path, monkeypatch, lang, names):
    """Five or six players, or four with long names: a card's start combo was its 15-24 px swatch and the number
    ("Zoé: [swatch] 2"), the colour told by the swatch's hue and pattern alone. Its name stands beside it now,
    short where the whole does not fit ("Or 4", "Ge 3", "Gr 4"), readable."""
    import random

    import pygame
    from drawn_texts import recording_texts

    from companion.games.noch_x_mal import NochXMal
    from companion.journal import Journal
    from companion.session import GameSession
    from companion.views.noch_x_mal_view import READABLE, NochXMalMode

    session = GameSession.new(NochXMal, {"action": "setup", "players": names, "seed": 11},
                              Journal(tmp_path / "journal"), lang=lang, rng=random.Random(5))
    for name in names:
        assert session.apply({"action": "start_combo", "player": name}), session.error
    view = NochXMalMode(session)
    with recording_texts(monkeypatch) as drawn:
        view.draw(pygame.Surface((800, 480)))
    for p in session.engine.state.players:
        said = {t(f"nxm.face.{p.start_colour}", lang), t(f"nxm.face_short.{p.start_colour}", lang)}
        combos = [(s, size) for s, size, _ in drawn if s in {f"{c} {p.start_number}" for c in said}]
        assert combos and all(size >= READABLE for _, size in combos), (p.name, p.start_colour, drawn[:20])
    shorts = {t(f"nxm.face_short.{c}", lang) for c in ("red", "orange", "yellow", "green", "blue")}
    assert len(shorts) == 5  # each colour its own letters


@pytest.mark.parametrize("lang", ["de", "en"])
def test_a_dimmed_colour_die_keeps_its_name_readable(tmp_path, lang):
    """From roll 4 the colour die the active player took is dimmed for the others: the veil lay over its name plate
    too, "Gelb" at 3.7:1 (16:1 on the plate). The swatch is veiled now, its plate and name drawn after."""
    import random

    import pygame

    from companion.games.noch_x_mal import NochXMal
    from companion.journal import Journal
    from companion.session import GameSession
    from companion.views import theme
    from companion.views.noch_x_mal_view import NochXMalMode

    names = ["Anna", "Ben", "Carla"]
    session = GameSession.new(NochXMal, {"action": "setup", "players": names, "seed": 1, "start": 0},
                              Journal(tmp_path / "journal"), lang=lang, rng=random.Random(5))
    for name, combo in zip(names, (["yellow", "4"], ["red", "2"], ["blue", "5"]), strict=True):
        assert session.apply({"action": "start_combo", "player": name, "dice": combo}), session.error
    roll = ["red", "yellow", "blue", "1", "3", "5"]
    for _ in range(3):
        assert session.apply({"action": "roll", "dice": roll}) and session.apply({"action": "end_roll"})
    assert session.apply({"action": "roll", "dice": roll})
    assert session.apply({"action": "pick", "dice": ["yellow", "3"]}), session.error
    view = NochXMalMode(session)
    view.refresh()
    surface = pygame.Surface((800, 480))
    view.draw(surface)
    die = view.die_rects()[1]  # the yellow die, taken
    assert view.game.others_choose_from() is not None and 1 not in view.game.others_choose_from()
    plate = pygame.Rect(die.x, die.bottom - die.h // 3, die.w, die.h // 3)
    colours = {tuple(surface.get_at((x, y)))[:3] for x in range(plate.x, plate.right)
               for y in range(plate.y, plate.bottom)}
    assert theme.TEXT in colours and theme.DIE_PIP in colours, colours  # the name and its plate, not veiled
    assert contrast(theme.TEXT, theme.DIE_PIP) >= 7
    top = {tuple(surface.get_at((x, die.y + 8)))[:3] for x in range(die.x + 8, die.right - 8)}
    assert not top & {(252, 210, 40), (20, 20, 20)}  # the swatch itself veiled: neither its yellow nor its ink


def _fritzo_placing_on_level_two(tmp_path):
    """A professional building with its first level done, cube 2's places on level 2 shown (over the cubes below)."""
    from test_fritzo_view import D, make, pro_actions

    from companion.games.fritzo.rules import buildable_order

    order = buildable_order(set(D.professional))
    n = next(i for i, c in enumerate(order) if c[2] == 1)
    view, session, _ = make(tmp_path, {"mode": "professional", "players": ["Anna"]}, pro_actions(n))
    view._choose("place")
    view._choose(D.professional[order[n]][0])
    view.level = 1
    assert view.step == "cell"
    return view


def test_fritzos_level_shown_is_marked_by_more_than_its_words_hue(tmp_path):
    """The tab of the level shown was told by its words' hue and a faint ground: in grey its label was just darker
    than the others. A bar in the accent colour under it now, many pixels wide, stands out from its tab for all."""
    import pygame

    from companion.views import theme

    view = _fritzo_placing_on_level_two(tmp_path)
    surface = pygame.Surface((800, 480))
    view.draw(surface)
    for i, tab in enumerate(view.tab_rects()):
        runs = []
        for y in range(tab.y, tab.bottom):
            run = best = 0
            for x in range(tab.x, tab.right):
                run = run + 1 if tuple(surface.get_at((x, y)))[:3] == theme.ACCENT else 0
                best = max(best, run)
            runs.append(best)
        wide = sum(1 for r in runs if r >= tab.w // 2)  # rows of accent across half the tab at least
        assert (wide >= 3) == (i == view.level), (i, runs)
    assert worst_de(theme.ACCENT, theme.PANEL_HI) > 20


def test_fritzos_plus_over_a_cube_below_has_a_dark_edge(tmp_path):
    """On levels 2 and 3 the green "+" of a free place stands on the patterned top of the cube below: green on
    orange is ΔE 5 in grey. It is drawn on a dark edge now: beside each arm, the screen's dark ground."""
    import pygame

    from companion.views import theme

    view = _fritzo_placing_on_level_two(tmp_path)
    surface = pygame.Surface((800, 480))
    view.draw(surface)
    lit = {p.cell[:2] for p in view.options if p.cell[2] == view.level}
    below = view.structure()
    checked = 0
    for cell, r in view.cell_rects().items():
        if cell not in lit or (*cell, 0) not in below:
            continue
        arm = max(6, r.w // 7)
        cx, cy = r.center
        assert tuple(surface.get_at((cx + arm // 2, cy)))[:3] == theme.GOOD
        edges = ((cx + arm // 2, cy - 3), (cx + arm // 2, cy + 3), (cx - 3, cy - arm // 2), (cx + 3, cy + arm // 2))
        for x, y in edges:
            assert tuple(surface.get_at((x, y)))[:3] == theme.BG, (cell, (x, y))
        checked += 1
    assert checked >= 3
    assert worst_de(theme.GOOD, theme.BG) > 20
