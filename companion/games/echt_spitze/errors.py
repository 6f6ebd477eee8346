"""Player errors of Echt Spitze, each kind its own class, each message a catalog key with its parameters.

``str(error)`` is the English message (logs, headless play), as for every GameError; ``localized(lang)`` is
what the screen shows. List parameters (player names) are joined like announcements: "Anna, Ben and Carl".
"""

from __future__ import annotations

from typing import Any

from companion.games.base import GameError
from companion.i18n import join_names, t


class EchtError(GameError):
    """An Echt Spitze action the rules or the table state do not allow; the engine state is unchanged."""

    def __init__(self, key: str, **params: Any) -> None:
        super().__init__(key, key=key, **params)
        self.args = (self.text("en"),)

    def text(self, lang: str) -> str:
        params = {k: join_names([str(x) for x in v], lang) if isinstance(v, list) else v
                  for k, v in self.params.items()}
        return t(self.key or "", lang, **params)

    def localized(self, lang: str) -> str:
        return self.text(lang)

    def __str__(self) -> str:
        return self.text("en")


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
