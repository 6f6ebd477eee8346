"""A step's cost in a replay does not grow with the game (a resume's replay and an undo's replay 300 steps in): Haste
Worte copied every round played at every step, Fritzo built its solver anew at every Team step. The game each step
makes is the one an engine read afresh from the state before it makes (nothing shared between steps leaks)."""

from __future__ import annotations

import copy
import random

import pytest

from companion.games import engine_class
from companion.games.base import GameError
from companion.games.fritzo import engine as fritzo_engine
from tests.test_every_end import ENDS, played

KINDS = sorted({end.game for end in ENDS})


def _noise(rng: random.Random, actions: list[dict]) -> dict:
    """An action the table may press at any time: often refused (another step's, a wrong one, one out of turn)."""
    pick = rng.choice(actions[1:])
    return rng.choice([pick, {**pick, "die": 9}, {"action": "roll", "dice": []}, {"action": "nonsense"},
                       {**pick, "player": "Nobody"}])


@pytest.mark.parametrize("game", KINDS)
def test_each_step_makes_the_game_a_fresh_engine_makes(game):
    """Steps and refused presses at random over every end of the game: after each, the state is the one an engine
    read from the state before it (``from_json``: no list shared with an earlier step) makes, a refused press changes
    nothing, and a copy taken earlier (an undo's checkpoint) stays as it was."""
    for end in (e for e in ENDS if e.game == game):
        table = played(end.id)
        actions = [table.setup, *table.actions]
        rng = random.Random(end.id)
        engine = engine_class(game).new(actions[0])
        kept = [(copy.deepcopy(engine), engine.to_json())]
        for action in actions[1:]:
            for tried in [_noise(rng, actions) for _ in range(rng.randint(0, 2))] + [action]:
                before = engine.to_json()
                fresh = engine_class(game).from_json(copy.deepcopy(before))
                try:
                    fresh_said = [a.text("en") for a in fresh.apply(tried)]
                except GameError:
                    fresh_said = None
                try:
                    said = [a.text("en") for a in engine.apply(tried)]
                except GameError:
                    said = None
                assert said == fresh_said and engine.to_json() == fresh.to_json()
                if said is None:
                    assert engine.to_json() == before
            if rng.random() < 0.2:
                kept.append((copy.deepcopy(engine), engine.to_json()))
        for copied, state in kept:
            assert copied.to_json() == state


def test_haste_worte_copies_no_round_played_at_a_step():
    """The rounds played stay the same objects through a step: the old copy of every one of them at every step was
    97% of a replay's time (0.6 ms a step at 300 steps here, 3-4 times that on a Pi, and growing)."""
    table = played("haste_standard")
    engine = engine_class("haste-worte").new(table.setup)
    shared = 0
    for action in table.actions:
        rounds = list(engine.history)
        engine.apply(action)
        assert all(a is b for a, b in zip(rounds, engine.history, strict=False))
        shared += len(rounds)
    assert shared  # (rounds were played)


def test_fritzo_builds_its_solver_once_a_game(monkeypatch):
    """Team asks the solver at every step whether a cube still fits; it was built anew each time (~7 ms a step)."""
    built: list[object] = []

    class Counted(fritzo_engine.Solver):
        def __init__(self, *args, **kw):
            built.append(self)
            super().__init__(*args, **kw)

    monkeypatch.setattr(fritzo_engine, "Solver", Counted)
    table = played("fritzo_team_won")
    engine = engine_class("fritzo").new(table.setup)
    for action in table.actions:
        engine.apply(action)
    assert len(table.actions) > 20 and len(built) == 1
