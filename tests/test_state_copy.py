"""The copy of a game's state a step works on (and an undo's checkpoint) shares nothing a step changes: only words,
numbers, cells and, in Fritzo, the cubes standing (``Placed`` is frozen) and the cube set, not copied at every step any
more (``base.state_copy``). The engines stay pure: a step on the game changes no copy of it, and a step on a copy
changes nothing of the game."""

from __future__ import annotations

import copy
import dataclasses
from typing import Any

import pytest

from companion.games.fritzo.engine import Placed
from tests.test_every_end import ENDS, played

#: every end of the games whose state copies itself so (``__deepcopy__``)
COPIED = [end.id for end in ENDS if end.game in ("fritzo", "echt-spitze")]


def _changeable(root: Any) -> dict[int, Any]:
    """Every object reachable from ``root`` that can be changed in place, by identity (what a copy must not share)."""
    found: dict[int, Any] = {}
    todo = [root]
    for _ in range(100_000):  # bounded: a state holds a few hundred objects
        if not todo:
            return found
        value = todo.pop()
        if isinstance(value, (str, int, float, type(None))):
            continue
        if isinstance(value, tuple):
            todo.extend(value)
            continue
        frozen = dataclasses.is_dataclass(value) and type(value).__dataclass_params__.frozen
        if not frozen:
            if id(value) in found:
                continue
            found[id(value)] = value
        if isinstance(value, dict):
            todo.extend(value.keys())
            todo.extend(value.values())
        elif isinstance(value, (list, set)):
            todo.extend(value)
        elif hasattr(value, "__dict__"):
            todo.extend(vars(value).values())
    raise AssertionError("more objects than any state holds")


@pytest.mark.parametrize("end_id", COPIED)
def test_a_steps_copy_shares_nothing_a_step_changes(end_id):
    table = played(end_id)
    engine = type(table.engine).new(table.setup)
    for action in [None, *table.actions]:
        if action is not None:
            engine.apply(action)
        twin = copy.deepcopy(engine)
        assert twin.to_json() == engine.to_json()
        shared = set(_changeable(engine.state)) & set(_changeable(twin.state))
        # (Fritzo's cube set: frozen, shared on purpose, no step changes it)
        cubeset = set(_changeable(engine.state.cubeset)) if hasattr(engine.state, "cubeset") else set()
        assert not shared - cubeset, [type(_changeable(engine.state)[i]).__name__ for i in shared - cubeset]


@pytest.mark.parametrize("end_id", COPIED)
def test_the_game_and_its_copies_play_apart(end_id):
    """Every step played on the game leaves each earlier copy (an undo's checkpoint) as it was, and a copy played on
    leaves the game: the undo's replay from a copy makes the game a replay from the setup makes."""
    table = played(end_id)
    engine = type(table.engine).new(table.setup)
    copies = []
    for action in table.actions:
        copies.append((copy.deepcopy(engine), engine.to_json()))
        engine.apply(action)
        for kept, state in copies:
            assert kept.to_json() == state
    final = engine.to_json()
    for step, (kept, _) in list(enumerate(copies))[::4]:  # (each one played to the end: every fourth will do)
        for action in table.actions[step:]:
            kept.apply(action)
        assert kept.to_json() == final
    assert engine.to_json() == final


def test_a_cube_standing_cannot_be_changed_in_place():
    """Shared by every copy: changed in place, it would change them all."""
    with pytest.raises(dataclasses.FrozenInstanceError):
        Placed("c1", 0).rotation = 1  # type: ignore[misc]
