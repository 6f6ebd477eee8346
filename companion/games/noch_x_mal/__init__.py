"""Noch X-Mal! (Encore X!): the engine the companion runs, its state and its dice/goal names."""

from companion.games.noch_x_mal.engine import NochXMal
from companion.games.noch_x_mal.errors import NxmError
from companion.games.noch_x_mal.faces import GOALS, Gift
from companion.games.noch_x_mal.state import Phase

__all__ = ["NochXMal", "NxmError", "GOALS", "Gift", "Phase"]
