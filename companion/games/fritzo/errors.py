"""Player-facing errors of Fritzo, carried as catalog keys so a screen can show them in its own language.

``str(error)`` is the English text (logs, headless play, as GameError promises); the session shows
``error.localized(lang)`` (= ``error.text(lang)``) in the table's language. Parameters that are catalog keys
(``fritzo.face.top``) are translated too, and list parameters are joined as names.
"""

from __future__ import annotations

from companion.errors import ProfileError
from companion.games.base import KeyedGameError


class FritzoError(KeyedGameError):
    """Base: a table action that the Fritzo rules or the table input do not allow. The state is unchanged."""


class SetupError(FritzoError):
    """The mode, players, colours or options of a new game are wrong."""


class PlacementError(FritzoError):
    """A cube cannot go where it was put: floating, wrong colours touching, too big, cell taken."""


class CubeError(FritzoError):
    """A cube that is unknown, already used, or not this player's to place."""


class TurnError(FritzoError):
    """An action at the wrong moment (game over, not started, time up) or by the wrong player."""


class RollError(FritzoError):
    """A start roll that cannot be used (unread colour, wrong number of cubes)."""


class CubeSetError(FritzoError, ProfileError):
    """A taught cube set that is incomplete, malformed or has two cubes alike up to rotation."""
