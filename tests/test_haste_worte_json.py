"""Haste Worte's state as the saved games hold it: written by hand (``dataclasses.asdict`` deep-copied every round
played at every press, the largest cost of one late in a game), in the very text ``asdict`` gave it, so that the
snapshots written before read as they did and a snapshot's text stays what its seal was made of."""

from __future__ import annotations

import json
from dataclasses import asdict
from typing import Any

from companion.games.haste_worte import HasteWorte
from tests.test_every_end import haste


def _as_asdict_wrote_it(engine: HasteWorte) -> dict[str, Any]:
    """The state as ``to_json`` made it before it was written by hand (the format of every saved game so far)."""
    data = asdict(engine)
    data["phase"] = engine.phase.value
    data["hourglass"] = engine.hourglass.to_json()
    return data


def _long_game() -> list[HasteWorte]:
    """A four-player game played round by round to its end, the engine copied (through its JSON) after each step:
    every phase, picks, letters, scores, a timer run out, rounds in the history."""
    table = haste(0, {"Anna": 3, "Ben": 2, "Carla": 0, "Dora": 1}, goal=9)()
    engine = HasteWorte.new(table.setup)
    states = [HasteWorte.from_json(json.loads(json.dumps(engine.to_json())))]
    for action in table.actions:
        engine.apply(action)
        states.append(HasteWorte.from_json(json.loads(json.dumps(engine.to_json()))))
    assert engine.finished and len(engine.history) > 2
    return states


def test_the_state_is_the_text_asdict_wrote_at_every_step():
    for engine in _long_game():
        assert json.dumps(engine.to_json(), ensure_ascii=False) == \
            json.dumps(_as_asdict_wrote_it(engine), ensure_ascii=False)


def test_a_state_saved_the_old_way_loads_and_plays_on_alike():
    """A snapshot written before (``asdict``'s text) is read into the same game, which plays on as the one never
    saved."""
    table = haste(0, {"Anna": 2, "Ben": 3, "Carla": 1}, goal=6)()
    engine = HasteWorte.new(table.setup)
    half = len(table.actions) // 2
    for action in table.actions[:half]:
        engine.apply(action)
    old = HasteWorte.from_json(json.loads(json.dumps(_as_asdict_wrote_it(engine))))
    assert old == engine
    for action in table.actions[half:]:
        old.apply(action)
        engine.apply(action)
        assert old.to_json() == engine.to_json()
    assert old.finished


def test_what_it_gives_is_the_callers_own():
    """Changing the state it gave (a caller may keep and change its lists) changes nothing of the engine."""
    engine = _long_game()[-1]
    before = json.dumps(engine.to_json())
    data = engine.to_json()
    data["players"].append("X")
    data["meanings"]["x"] = "y"
    data["round"]["scores"].append(9)
    data["round"]["picks"].clear()
    for played in data["history"]:
        played["scores"].append(9)
        played["dice"].append("x")
        played["picks"][0]["die"] = 99
    data["hourglass"]["duration"] = 1.0
    assert json.dumps(engine.to_json()) == before
