"""Player-facing errors of Noch X-Mal!, carried as catalog keys so a screen can show them in its language.

As the base contract asks, ``str(error)`` is the English text (logs, headless play) and ``localized(lang)``
(the same as ``text(lang)``) gives the table's language. Parameters that are catalog keys (``nxm.face.red``)
are translated too, and list parameters are joined as names, so a message can name dice, goals and players.
"""

from __future__ import annotations

from companion.games.base import KeyedGameError


class NxmError(KeyedGameError):
    """Base: a table action that the Noch X-Mal! rules or the table input do not allow."""


class SetupError(NxmError):
    """The players or options of a new game are wrong."""


class DiceError(NxmError):
    """The dice given for a roll or start combo cannot be used (unread, unknown face, wrong mix, joker)."""


class TurnError(NxmError):
    """An action at the wrong moment or by the wrong player."""


class GoalError(NxmError):
    """A first-to-reach report that is unknown, already taken or repeated."""


class ChipError(NxmError):
    """An X-chip discard or gift that cannot happen."""


class TieBreakError(NxmError):
    """Tie-break counts that are missing, negative or not asked for."""
