"""Every way each game can end, drawn in the app at both sizes and in both languages, its buttons pressed, and shown
again after a restart: a finished Fritzo building stopped the companion at its end screen, a screen no test had
drawn. Each end is reached through the engine's own actions (as the table plays them), not by editing a state.

One picture per end goes into out/ (``ends_<end>.png``: German and English side by side; 800x480, then 800x480 after a
restart, then 1280x720 at half its size): look at them.
"""

from __future__ import annotations

import itertools
import os
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any

import pygame
import pytest
from drawn_texts import recording_texts
from test_fritzo_engine import build, lonely_red_set

from companion.announcer import Announcer
from companion.app import GAME_ENTRIES, App
from companion.audio import NullAudio
from companion.config import Config
from companion.display import Display
from companion.games import engine_class
from companion.games.fritzo.cubeset import default_construction, default_set
from companion.games.fritzo.rules import Goal
from companion.games.fritzo.solver import Solver
from companion.games.noch_x_mal.faces import solo_rating
from companion.games_ui import register_all
from companion.i18n import join_names, t
from companion.session import GameSession
from companion.speech import Speech
from companion.views import theme
from hardware.events import Button, ButtonEvent, Press

register_all()

SIZES = ((800, 480), (1280, 720))
LANGS = ("de", "en")
#: the wall clock as the tests begin: a clock's steps are stamped shortly before it, as at the table (a clock
#: stamped long before it runs out in the app the moment its game is not over, as after an undo)
NOW = time.time()
#: names as families give them, the longest first: a winner's name must stay whole on the end screen
LONG = ["Maximilian-Alexander", "Anna-Sophie", "Großvater Jürgen", "Zoé", "Carla", "Ben"]


class Table:
    """An engine played by a table: each action applied (so the drivers can ask it what comes next) and kept, to
    be played again into a session in the app."""

    def __init__(self, game: str, setup: dict[str, Any]) -> None:
        self.setup = {"action": "setup", **setup}
        self.engine = engine_class(game).new(self.setup)
        self.actions: list[dict[str, Any]] = []

    def __call__(self, action: str, **fields: Any) -> Table:
        step = {"action": action, **fields}
        self.engine.apply(step)
        self.actions.append(step)
        return self


@dataclass(frozen=True)
class End:
    """One way a game ends: how the table gets there, and what its end screen must say (in ``lang``)."""

    id: str
    game: str
    play: Callable[[], Table]
    says: Callable[[str, Any], list[str]]
    #: that the table's actions ended the game as this end means (for Fritzo: the words under "Game over")
    ended_so: Callable[[Any], bool] = lambda engine: True


# -- Echt Spitze ---------------------------------------------------------------------------------------------------
ECHT_KINDS = {1: {"kinds": {"lemons": [9, 7], "kiwis": [4, 3], "melons": [6, 4], "pears": [5, 3], "plums": [4, 2]}},
              2: {"kinds": {"roses": [8, 6], "tulips": [6, 4], "daisies": [5, 3], "lilies": [7, 5]}, "star_value": 4},
              3: {"shapes": {"L": [8, 5], "T": [6, 4], "square": [5, 3], "line": [4, 3], "zigzag": [7, 5]}}}


def echt(players: list[str], level: int) -> Table:
    return Table("echt-spitze", {"players": players, "level": level, **ECHT_KINDS[level]})


def echt_turn(g: Table, *reports: dict[str, Any]) -> None:
    """Roll, each takes the lowest free die in turn, the middle left (re-rolled where the solo round says "!"),
    the reports, the end of the turn."""
    faces = ["1", "2", "3", "4", "5", "?"]
    g("roll", dice=faces[:g.engine.dice_count])
    for _ in range(len(faces)):
        if g.engine.current_taker is None:
            break
        g("take", die=g.engine.middle[0] + 1)
    if g.engine.solo_sign == "!":
        g("reroll")("roll", dice=["2", "3"])
    else:
        g("leave")
    for report in reports:
        g("report", **report)
    g("end_turn")


def echt_final(g: Table, **entries: dict[str, int]) -> Table:
    for player, entry in entries.items():
        g("final", player=player, **entry)
    return g


def echt_one() -> Table:
    g = echt(["Anna", "Ben", "Carla"], 1)
    echt_turn(g, {"player": "Ben", "kind": "lemons"})
    echt_turn(g, {"player": "Anna", "kinds": ["kiwis", "pears", "plums"]})
    return echt_final(g, Anna={"stars": 1, "leftover": 2}, Ben={"stars": 0, "leftover": 1},
                      Carla={"stars": 2, "leftover": 0})


def echt_tied(ben_pierces: bool) -> Callable[[], Table]:
    def play() -> Table:
        g = echt(["Anna", "Ben"], 1)
        echt_turn(g, {"player": "Anna", "pierced": True}, {"player": "Ben", "pierced": True})
        if ben_pierces:
            echt_turn(g, {"player": "Ben", "pierced": True})
        echt_turn(g, {"player": "Anna", "kinds": ["kiwis", "pears", "plums"]})  # 13
        return echt_final(g, Anna={"stars": 1, "leftover": 2}, Ben={"stars": 4, "leftover": 0})  # 20 each
    return play


def echt_two_end_it() -> Table:
    """Anna and Ben both score their third kind in the same turn; Ben has more."""
    g = echt(["Anna", "Ben", "Carla"], 1)
    echt_turn(g, {"player": "Ben", "kinds": ["lemons", "melons"]}, {"player": "Anna", "kind": "kiwis"})
    echt_turn(g, {"player": "Anna", "kinds": ["pears", "plums"]}, {"player": "Ben", "kind": "pears"})
    return echt_final(g, Anna={"stars": 0, "leftover": 0}, Ben={"stars": 0, "leftover": 0},
                      Carla={"stars": 1, "leftover": 0})


def echt_long_names_shared() -> Table:
    """Four players, the two longest names first with the same kinds in the same turns: a shared victory."""
    g = echt(LONG[:4], 1)
    echt_turn(g, *({"player": name, "kinds": ["kiwis", "pears", "plums"]} for name in LONG[:2]))
    return echt_final(g, **{name: {"stars": 1, "leftover": 2} for name in LONG[:4]})


def echt_level2(star_value_in_setup: bool) -> Callable[[], Table]:
    """Level 2's star value is printed on the sheet, not in the rulebook: given in the setup, or with the first final
    entry."""
    def play() -> Table:
        g = echt(["Fred", "Tilda"], 2)
        if not star_value_in_setup:
            g = Table("echt-spitze", {k: v for k, v in g.setup.items() if k not in ("action", "star_value")})
        echt_turn(g, {"player": "Fred", "beehive": "1-1"})
        echt_turn(g, {"player": "Tilda", "beehive": "2-2", "kinds": ["roses", "tulips", "lilies"]})
        value = {} if star_value_in_setup else {"star_value": 4}
        return echt_final(g, Fred={"stars": 2, "leftover": 1, **value}, Tilda={"stars": 1, "leftover": 0})
    return play


def echt_level3(both: bool) -> Callable[[], Table]:
    """Felix's fourth shape ends it; with ``both`` Ben scores his fourth in the same turn, and they tie."""
    def play() -> Table:
        g = echt(["Felix", "Ben"], 3)
        for shape in ("line", "T", "L"):
            echt_turn(g, {"player": "Felix", "shape": shape}, *([{"player": "Ben", "shape": shape}] if both else []))
        echt_turn(g, {"player": "Felix", "shape": "square"}, *([{"player": "Ben", "shape": "square"}] if both else []))
        same = {"diagonals": 1, "diamonds": 1, "leftover": 3}
        return echt_final(g, Felix=same, Ben=same if both else {"diagonals": 0, "diamonds": 0, "leftover": 1})
    return play


def echt_solo(level: int) -> Callable[[], Table]:
    def play() -> Table:
        g = echt(["Sol"], level)
        first = {1: {"kind": "lemons"}, 2: {"kind": "roses"}, 3: {"shape": "L"}}[level]
        echt_turn(g, {"player": "Sol", **first})
        for _ in range(13):
            echt_turn(g)
        final = {"diagonals": 1, "diamonds": 0, "leftover": 2} if level == 3 else {"stars": 2, "leftover": 4}
        return echt_final(g, Sol=final)
    return play


# -- Noch X-Mal! ---------------------------------------------------------------------------------------------------
NAMES = ["Anna", "Ben", "Carla", "David", "Emil", "Fay"]


def nxm(players: list[str]) -> Table:
    g = Table("noch-x-mal", {"players": players, "seed": 5})
    for name in players:
        g("start_combo", player=name)  # virtual start combinations
    return g


def nxm_won(count: int) -> Callable[[], Table]:
    """The last of ``count`` players discards the last X-chip in roll 2."""
    def play() -> Table:
        g = nxm(NAMES[:count])
        g("roll")("discard", player=NAMES[count - 1])("end_roll")("roll")
        for _ in range(9):
            g("discard", player=NAMES[count - 1])
        return g("end_roll")
    return play


def nxm_tie(counts: dict[str, dict[str, int]], players: list[str] = NAMES[:3]) -> Callable[[], Table]:
    def play() -> Table:
        g = nxm(players)("roll")
        for name in counts:
            for _ in range(10):
                g("discard", player=name)
        g("end_roll")
        for name, entry in counts.items():
            g("tiebreak", player=name, **entry)
        return g
    return play


def nxm_solo(symbols: int) -> Callable[[], Table]:
    def play() -> Table:
        g = nxm(["Sol"])
        for _ in range(30):
            g("roll")("end_roll")
        return g("solo_score", symbols=symbols)
    return play


# -- Haste Worte ---------------------------------------------------------------------------------------------------
HASTE_DICE = ["car", "animals", "fruit", "water", "toys", "cities"]


def haste(variant: Any, words: dict[str, int | list[int]], goal: int = 15) -> Callable[[], Table]:
    """Rounds until somebody reaches ``goal`` crystals, each player writing ``words[player]`` words of their own each
    round (or a list: round by round)."""
    def play() -> Table:
        players = list(words)
        g = Table("haste-worte", {"players": players, "seed": 7, "variant": variant, "goal": goal})
        e = g.engine
        for number in range(20):
            if e.finished:
                break
            if e.letter_first:
                g("letter")
            g("roll", dice=HASTE_DICE)
            for die, name in enumerate(players, start=1):
                g("pick", die=die, **({"player": name} if e.simultaneous else {}))
            if not e.letter_first:
                g("letter")
            g("timer_expired", at=0.0)
            for _ in players:
                written = words[players[e.current_reader]]
                g("score", words=written[number] if isinstance(written, list) else written)
        return g
    return play


# -- Fritzo --------------------------------------------------------------------------------------------------------
CONSTRUCTION = default_construction()


def fritzo(setup: dict[str, Any], actions: list[dict[str, Any]]) -> Table:
    g = Table("fritzo", setup)
    for action in actions:
        g(**action)
    return g


def built(mode: str, players: list[str], **setup: Any) -> Callable[[], Table]:
    """The goal built by ``players`` (alone, or sharing the building), against the clock where ``minutes``."""
    def play() -> Table:
        layout = CONSTRUCTION.beginner if mode == "beginner" else CONSTRUCTION.professional
        steps = build(layout)
        if "minutes" in setup:
            steps = [{"action": "start", "at": NOW - 280}] + [dict(s, at=NOW - 280 + 10.0 * n)
                                                              for n, s in enumerate(steps, start=1)]
        return fritzo({"mode": mode, "players": players, **setup}, steps)
    return play


def time_up(mode: str, *, interrupted: bool = False) -> Callable[[], Table]:
    """Five cubes stand when the time is up; ``interrupted``: a restart found the clock behind the clock's start (a
    Pi without a real-time clock), and the table declared the time up."""
    def play() -> Table:
        clock = [{"action": "timer_interrupted", "at": NOW - 20}, {"action": "time_up", "at": NOW - 19}] \
            if interrupted else [{"action": "time_up", "at": NOW - 1}]
        layout = CONSTRUCTION.beginner if mode == "beginner" else CONSTRUCTION.professional
        steps = [{"action": "start", "at": NOW - 302}, *build(layout)[:5], *clock]
        return fritzo({"mode": mode, "players": ["Anna"], "minutes": 5}, steps)
    return play


def team_won(players: list[str]) -> Callable[[], Table]:
    return lambda: fritzo({"mode": "team", "players": players, "target": "beginner"},
                          build(CONSTRUCTION.beginner, players))


def team_blocked() -> Table:
    setup = {"mode": "team", "players": ["Anna", "Ben"], "target": "challenge", "cubes": lonely_red_set().to_json()}
    return fritzo(setup, [{"action": "place", "cube": "R", "cell": [0, 0, 0], "rotation": 0}])


def team_missed() -> Table:
    cubes = default_set()
    solution = Solver(cubes).complete({}, cubes.ids, Goal.CHALLENGE)  # 27 that touch alike: no Professional sides
    return fritzo({"mode": "team", "players": ["Anna", "Ben"], "target": "professional"},
                  [{"action": "place", "cube": p.cube, "cell": list(p.cell), "rotation": p.rotation}
                   for p in solution.placements])


def plane(player: str, level: int) -> list[dict[str, Any]]:
    """The Professional build's layer ``level`` laid as ``player``'s plane."""
    return [{"action": "place", "player": player, "cube": cid, "cell": [x, y], "rotation": rot}
            for (x, y, z), (cid, rot) in sorted(CONSTRUCTION.professional.items()) if z == level]


def level_one(steps: list[dict[str, Any]], **setup: Any) -> Callable[[], Table]:
    return lambda: fritzo({"mode": "level-one", "players": ["Anna", "Ben"], **setup},
                          [{"action": "roll", "dice": ["red"]}, {"action": "roll", "dice": ["blue"]}, *steps])


def strategy(kind: str) -> Table:
    """A whole Strategy game: each draws the next cube and puts it at the place a fixed step picks among the legal
    ones; the step is the first (of a bounded few) whose game ends as ``kind`` ("won", "tie", "super-fritzo")."""
    setup = {"mode": "strategy", "players": ["Anna", "Ben"], "starter": "Anna", "excluded": "27"}
    for k in range(40):
        g = Table("fritzo", setup)
        bag = [c for c in g.engine.state.cubeset.ids if c not in g.engine.state.out]
        for n in range(1, 27):
            if g.engine.finished:
                break
            cube = bag.pop(0)
            options = g.engine.legal_placements(cube)
            if not options:
                g("pass", cube=cube)
                continue
            p = options[(n * k + k) % len(options)]
            g("place", cube=p.cube, cell=list(p.cell), rotation=p.rotation)
        s = g.engine.state
        ended = "tie" if s.result == "won" and len(set(s.scores.values())) == 1 else s.result
        if ended == kind:
            return g
    raise AssertionError(f"no Strategy game of the steps tried ends as {kind}")


def fritzo_won(lang: str, players: str) -> list[str]:
    return [t("fritzo.ui.over", lang), t("fritzo.ui.won", lang, players=players)]


def echt_over(*players: str) -> Callable[[str, Any], list[str]]:
    return lambda lang, engine: [t("echt.view.over", lang, players=", ".join(players))]


def echt_solo_over(lang: str, engine: Any) -> list[str]:
    return [t("echt.view.over_solo", lang, player="Sol")]


def nxm_by(how: str, player: str) -> Callable[[str, Any], list[str]]:
    return lambda lang, engine: [t("nxm.ui.winner", lang, player=player),
                                 t(f"nxm.winner_by.{how}", lang, player=player)]


def nxm_rating(symbols: int) -> Callable[[str, Any], list[str]]:
    key = solo_rating(symbols).replace("nxm.rating.", "nxm.rating_text.")
    return lambda lang, engine: [f"{symbols} × X: {t(key, lang)}"]


def haste_won(*players: str) -> Callable[[str, Any], list[str]]:
    return lambda lang, engine: [t("haste.prompt.over", lang, players=join_names(list(players), lang), crystals=15)]


def fritzo_over(*players: str) -> Callable[[str, Any], list[str]]:
    """"Game over", who won (where somebody did), and why, in the words the end was said in."""
    def says(lang: str, engine: Any) -> list[str]:
        won = [t("fritzo.ui.won", lang, players=", ".join(players))] if players else []
        return [t("fritzo.ui.over", lang), *won, *(a.text(lang) for a in engine.ending)]
    return says


def fritzo_ending(*keys: str) -> Callable[[Any], bool]:
    return lambda engine: [a.key for a in engine.ending] == list(keys)


ENDS = [
    End("echt_level1_one", "echt-spitze", echt_one, echt_over("Anna")),
    End("echt_level1_holes", "echt-spitze", echt_tied(True), echt_over("Ben")),
    End("echt_level1_shared", "echt-spitze", echt_tied(False), echt_over("Anna", "Ben")),
    End("echt_level1_two_end_it", "echt-spitze", echt_two_end_it, echt_over("Ben")),
    End("echt_long_names_shared", "echt-spitze", echt_long_names_shared, echt_over(*LONG[:2])),
    End("echt_level2", "echt-spitze", echt_level2(star_value_in_setup=True), echt_over("Tilda")),
    End("echt_level2_star_value_at_the_end", "echt-spitze", echt_level2(star_value_in_setup=False), echt_over("Tilda")),
    End("echt_level3", "echt-spitze", echt_level3(False), echt_over("Felix")),
    End("echt_level3_shared", "echt-spitze", echt_level3(True), echt_over("Felix", "Ben")),
    *[End(f"echt_solo_level{n}", "echt-spitze", echt_solo(n), echt_solo_over) for n in (1, 2, 3)],
    *[End(f"nxm_{n}_players", "noch-x-mal", nxm_won(n),
          lambda lang, engine, n=n: [t("nxm.ui.winner", lang, player=NAMES[n - 1])]) for n in range(2, 7)],
    End("nxm_tie_symbols", "noch-x-mal", nxm_tie({"Anna": {"symbols": 9, "pass_fields": 3, "columns": 2},
                                                  "Ben": {"symbols": 11, "pass_fields": 3, "columns": 2}}),
        nxm_by("symbols", "Ben")),
    End("nxm_tie_pass_fields", "noch-x-mal", nxm_tie({"Anna": {"symbols": 11, "pass_fields": 4, "columns": 2},
                                                      "Ben": {"symbols": 11, "pass_fields": 3, "columns": 2}}),
        nxm_by("pass-fields", "Anna")),
    End("nxm_tie_columns", "noch-x-mal", nxm_tie({"Anna": {"symbols": 11, "pass_fields": 3, "columns": 2},
                                                  "Ben": {"symbols": 11, "pass_fields": 3, "columns": 1},
                                                  "Carla": {"symbols": 11, "pass_fields": 3, "columns": 3}}),
        nxm_by("columns", "Carla")),
    End("nxm_tie_shared", "noch-x-mal", nxm_tie({"Anna": {"symbols": 11, "pass_fields": 3, "columns": 2},
                                                 "Ben": {"symbols": 11, "pass_fields": 3, "columns": 2}}),
        lambda lang, engine: [t("nxm.ui.winners", lang, players="Anna, Ben")]),
    End("nxm_tie_shared_by_two_of_three", "noch-x-mal",
        nxm_tie({"Anna": {"symbols": 11, "pass_fields": 3, "columns": 2},
                 "Ben": {"symbols": 11, "pass_fields": 3, "columns": 2},
                 "Carla": {"symbols": 10, "pass_fields": 9, "columns": 9}}),
        lambda lang, engine: [t("nxm.ui.winners", lang, players="Anna, Ben")]),
    End("nxm_long_names_shared", "noch-x-mal", nxm_tie({name: {"symbols": 11, "pass_fields": 3, "columns": 2}
                                                        for name in LONG[:2]}, LONG),
        lambda lang, engine: [t("nxm.ui.winners", lang, players=", ".join(LONG[:2]))]),
    *[End(f"nxm_solo_{n}", "noch-x-mal", nxm_solo(n), nxm_rating(n)) for n in (26, 13, 2)],
    *[End(f"haste_{name}", "haste-worte", haste(variant, {"Anna": 3, "Ben": 2, "Carla": 1}), haste_won("Anna"))
      for name, variant in (("standard", 0), ("letter_first", 1), ("simultaneous", 2), ("both", [1, 2]))],
    End("haste_overtaken", "haste-worte", haste(0, {"Anna": [3, 2], "Ben": [3, 3]}, goal=5),
        lambda lang, engine: [t("haste.prompt.over", lang, players="Ben", crystals=6)]),
    End("haste_long_names_tie", "haste-worte", haste(0, {name: 3 if name in LONG[:2] else 1 for name in LONG}),
        haste_won(*(theme.short_name(name) for name in LONG[:2]))),  # one line at FAR; the ranking has them whole
    End("haste_tie", "haste-worte", haste(0, {"Anna": 3, "Ben": 3, "Carla": 2}), haste_won("Anna", "Ben")),
    *[End(f"fritzo_{mode}", "fritzo", built(mode, ["Anna"]), fritzo_over("Anna"))
      for mode in ("beginner", "challenge", "professional")],
    End("fritzo_beginner_two", "fritzo", built("beginner", ["Anna", "Ben"]), fritzo_over("Anna, Ben")),
    End("fritzo_professional_in_time", "fritzo", built("professional", ["Anna"], minutes=10), fritzo_over("Anna")),
    End("fritzo_professional_time_up", "fritzo", time_up("professional"), fritzo_over(),
        fritzo_ending("fritzo.times_up")),
    End("fritzo_beginner_clock_stopped_time_declared_up", "fritzo", time_up("beginner", interrupted=True),
        fritzo_over(), fritzo_ending("fritzo.times_up")),
    End("fritzo_level_one_done", "fritzo", level_one([*plane("Anna", 0), *plane("Ben", 2),
                                                     {"action": "done", "player": "Ben"},
                                                     {"action": "done", "player": "Anna"}], minutes=10),
        fritzo_over("Ben"), fritzo_ending()),
    End("fritzo_level_one_time_up", "fritzo", level_one([{"action": "start", "at": NOW - 602}, *plane("Anna", 0),
                                                        {"action": "time_up", "at": NOW - 1}], minutes=10),
        fritzo_over("Anna"), fritzo_ending()),
    End("fritzo_level_one_tie", "fritzo", level_one([{"action": "done", "player": "Ben"},
                                                    {"action": "done", "player": "Anna"}]),
        fritzo_over("Ben"), fritzo_ending("fritzo.l1.tie")),
    End("fritzo_level_one_tie_at_time_up", "fritzo", level_one([{"action": "start", "at": NOW - 62},
                                                               {"action": "done", "player": "Anna", "at": NOW - 55},
                                                               {"action": "time_up", "at": NOW - 1}], minutes=1),
        fritzo_over("Anna"), fritzo_ending("fritzo.l1.tie")),
    End("fritzo_level_one_draw", "fritzo", level_one([{"action": "start", "at": NOW - 62},
                                                     {"action": "time_up", "at": NOW - 1}], minutes=1),
        fritzo_over(), fritzo_ending("fritzo.ending.draw")),
    End("fritzo_strategy_won", "fritzo", lambda: strategy("won"), lambda lang, engine: fritzo_over(
        *engine.state.winners)(lang, engine), fritzo_ending()),
    End("fritzo_strategy_tie", "fritzo", lambda: strategy("tie"), lambda lang, engine: fritzo_over(
        *engine.state.winners)(lang, engine), fritzo_ending("fritzo.strategy.tie")),
    End("fritzo_strategy_super", "fritzo", lambda: strategy("super-fritzo"), lambda lang, engine: fritzo_over(
        *engine.state.winners)(lang, engine), fritzo_ending("fritzo.ending.super")),
    End("fritzo_team_won", "fritzo", team_won(["Anna", "Ben", "Carla"]), fritzo_over("Anna, Ben, Carla")),
    End("fritzo_team_long_names", "fritzo", team_won(LONG[:4]), fritzo_over(", ".join(LONG[:4]))),
    End("fritzo_team_blocked", "fritzo", team_blocked, fritzo_over(), fritzo_ending("fritzo.team.cube_wins")),
    End("fritzo_team_goal_missed", "fritzo", team_missed, fritzo_over(),
        lambda engine: [a.key for a in engine.ending][-1] == "fritzo.team.cube_wins_goal"),
]


@cache
def played(end_id: str) -> Table:
    """Each end's table played once for the whole module (Strategy's games and the Team solver take a moment)."""
    end = next(e for e in ENDS if e.id == end_id)
    g = end.play()
    assert g.engine.finished, f"{end_id} did not end"
    assert end.ended_so(g.engine), f"{end_id} ended otherwise: {g.engine.to_json()}"
    return g


def words_of(drawn: list[tuple[str, int, pygame.Rect]]) -> str:
    return re.sub(r"\s+", " ", " ".join(s for s, _, _ in drawn))


def shown(app: App, monkeypatch) -> str:
    """One frame of the app; what it wrote."""
    with recording_texts(monkeypatch) as drawn:
        app.frame(0.03, [])
    return words_of(drawn)


def press(app: App, button: Button) -> None:
    app.on_button(ButtonEvent(button))


def app_for(tmp_path, size: tuple[int, int], lang: str) -> App:
    cfg = Config()
    cfg.language = lang
    built = time.time()
    # its wall clock runs from NOW: a clock's steps stamped from NOW ran out in a long run (CI's suite reaches this
    # file minutes after collecting it, and Professional's 10 minutes, started 280 s before NOW, were up)
    return App(cfg, state_dir=tmp_path, display=Display(size, fullscreen=False), use_camera=False,
               wall_clock=lambda: NOW + time.time() - built)


@pytest.fixture(autouse=True)
def no_fsync(monkeypatch):
    """Each step is journaled and fsynced, as at the table; here that is most of the time taken, and nothing the
    end screens show."""
    monkeypatch.setattr(os, "fsync", lambda fd: None)


def the_end_shown(app: App, end: End, lang: str, monkeypatch) -> None:
    """The end screen says how the game ended and what now; every button and a finger anywhere leave it there, or
    open what they open (play again, the menu) and come back to it."""
    session = app.session
    words = shown(app, monkeypatch)
    for said in [*end.says(lang, session.engine), t("core.hint_play_again", lang), t("core.hint_menu", lang)]:
        assert said in words, f"{end.id} {lang}: {said!r} not on the end screen: {words}"
    for button in (Button.NEXT, Button.PREV, Button.ROLL, Button.TIMER):  # nothing to do: the end stays
        press(app, button)
        shown(app, monkeypatch)
        assert app._game_over() and session.error is None, (button, session.error)
        if button is Button.ROLL:  # the next throw is answered, not swallowed (Noch X-Mal!'s screen took it)
            assert app.notice == t("core.over_roll", lang, again=t("core.btn_select", lang),
                                   menu=t("core.btn_undo", lang)), (end.id, app.notice)
    steps = len(session.actions)
    for x, y in itertools.product(range(40, 740, 100), range(30, 440, 60)):  # a finger anywhere on the game
        app.on_tap((x, y))
        if not app._game_over():  # whatever a tap opened: back to the end
            press(app, Button.UNDO)
        assert app._game_over() and len(session.actions) == steps and session.error is None, (x, y)
    shown(app, monkeypatch)
    for again in (Button.SELECT, Button.REROLL):  # play again: the same game's setup, and back from it
        press(app, again)
        assert app.session is session and not app._game_over()
        shown(app, monkeypatch)
        press(app, Button.UNDO)
        assert app._game_over(), again
        shown(app, monkeypatch)
    press(app, Button.UNDO)  # the menu, and back
    assert app.mode.menu.items[0].value == "continue"
    shown(app, monkeypatch)
    press(app, Button.UNDO)
    assert app._game_over()


@pytest.mark.parametrize("end", ENDS, ids=lambda e: e.id)
def test_every_end_is_drawn_in_the_app_its_buttons_work_and_a_restart_shows_it_again(tmp_path, monkeypatch, out_dir,
                                                                                      end):
    table = played(end.id)
    shots: dict[tuple[str, tuple[int, int], str], pygame.Surface] = {}
    for lang in LANGS:
        app = app_for(tmp_path / lang, SIZES[0], lang)
        speech = Speech(lambda text, lang: b"")
        speech.enabled = False
        app.announcer = Announcer(lang, audio=NullAudio(), speech=speech)  # the last step's words, as banners
        session = GameSession.new(engine_class(end.game), table.setup, app.journal, **app._session_kw())
        for action in table.actions[:-1]:
            assert session.apply(action), session.error
        app.announcer.clear(keep_essential=False)
        assert session.apply(table.actions[-1]), session.error
        assert session.engine.finished
        app._enter(GAME_ENTRIES[end.game], session)
        app.frame(0.03, [])
        shots["end", SIZES[0], lang] = app.display.window.copy()
        the_end_shown(app, end, lang, monkeypatch)
        app.on_button(ButtonEvent(Button.UNDO, Press.LONG))  # a mistyped last step, taken back from the end screen
        assert not session.engine.finished and len(session.actions) == len(table.actions) and app._in_game()
        shown(app, monkeypatch)  # (a clock run out ends it again here by itself: its time is up)
        if not session.engine.finished:
            assert session.apply(table.actions[-1]), session.error  # made again: the end once more
        assert app._game_over()
        shown(app, monkeypatch)
        app.announcer.close()
        app.close()
        # switched off at the end screen and on again, on the panel or a laptop: the end is shown once more
        for when, size in (("restart", SIZES[0]), ("end", SIZES[1])):
            again = app_for(tmp_path / lang, size, lang)
            assert again._game_over() and again.session.engine.to_json() == session.engine.to_json()
            again.frame(0.03, [])
            shots[when, size, lang] = again.display.window.copy()
            the_end_shown(again, end, lang, monkeypatch)
            if size != SIZES[-1]:
                again.close()
        press(again, Button.UNDO)  # left for the main menu: the game goes to the history, and is not offered again
        again.mode.menu.index = [i.value for i in again.mode.menu.items].index("menu")
        press(again, Button.SELECT)
        assert again.session is None and not [i for i in again.mode.menu.items if i.value[0] == "resume"]
        shown(again, monkeypatch)
        again.close()
        assert app_for(tmp_path / lang, SIZES[0], lang).session is None  # nor shown at the next start
    # the panel's end screen in both languages, then as it comes back after a restart; below, the laptop's at half
    # its size (a picture of full size took a third of the test's time to write)
    sheet = pygame.Surface((2 * 800, 2 * 480 + 360))
    sheet.fill((60, 60, 60))
    for (when, size, lang), shot in shots.items():
        if size == (800, 480):
            sheet.blit(shot, (LANGS.index(lang) * 800, {"end": 0, "restart": 480}[when]))
        else:
            sheet.blit(pygame.transform.smoothscale(shot, (640, 360)), (LANGS.index(lang) * 800, 2 * 480))
    pygame.image.save(sheet, str(out_dir / f"ends_{end.id}.png"))
