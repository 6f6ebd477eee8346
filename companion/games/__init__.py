"""One pure rules engine per game, found by name (like python-chess variants)."""

from __future__ import annotations

import importlib

from companion.errors import CompanionError

#: game name -> "module:Class"; modules are imported on demand so one broken game cannot stop the others.
GAMES: dict[str, str] = {
    "free-play": "companion.games.free_play:FreePlay",
    "haste-worte": "companion.games.haste_worte:HasteWorte",
    "echt-spitze": "companion.games.echt_spitze:EchtSpitze",
    "noch-x-mal": "companion.games.noch_x_mal:NochXMal",
    "fritzo": "companion.games.fritzo:Fritzo",
}


class UnknownGame(CompanionError):
    pass


def engine_class(name: str):
    try:
        target = GAMES[name]
    except KeyError:
        raise UnknownGame(f"unknown game {name!r}; choose one of: {', '.join(GAMES)}") from None
    module, cls = target.split(":")
    return getattr(importlib.import_module(module), cls)
