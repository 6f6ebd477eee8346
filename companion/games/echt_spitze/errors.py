"""Player errors of Echt Spitze, each kind its own class, each message a catalog key with its parameters.

``str(error)`` is the English message (logs, headless play), as for every GameError; ``localized(lang)`` is
what the screen shows. List parameters (player names) are joined like announcements: "Anna, Ben and Carl".
"""

from __future__ import annotations

from companion.games.base import KeyedGameError


class EchtError(KeyedGameError):
    """An Echt Spitze action the rules or the table state do not allow; the engine state is unchanged."""


class SetupError(EchtError):
    """The setup names a wrong number of players, a level that does not exist, or a bad scoring overview."""


class DiceError(EchtError):
    """A roll or correction the companion cannot use: a die not read, a face that does not exist."""


class TurnError(EchtError):
    """An action out of turn: the wrong player, or a step that belongs to another moment of the turn."""


class TakeError(EchtError):
    """A die that cannot be taken: already taken, not in the roll."""


class ReportError(EchtError):
    """A completed kind, beehive, shape or hole the rules do not allow this player this turn."""


class FinalScoreError(EchtError):
    """A final-scoring entry out of range (more stars than rows, more than two diagonals, ...)."""


class UnknownActionError(EchtError):
    """An action name Echt Spitze does not know."""
