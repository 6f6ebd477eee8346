"""Fritzo: 27 unique colour cubes, six ways to play.

Modules: ``geometry`` (faces, the 24 rotations), ``cubeset`` (the taught set, duplicate check, storage),
``rules`` (the independent placement and goal checker), ``scoring`` (rows, stairs, triangles), ``solver``
(hints and completions), ``engine`` (the game as the companion runs it).
"""

from companion.games.fritzo.engine import Fritzo, FritzoState, Mode, Phase, player_limits

__all__ = ["Fritzo", "FritzoState", "Mode", "Phase", "player_limits"]
