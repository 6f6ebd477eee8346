"""Player errors of Echt Spitze, each kind its own class, each message a catalog key.

The message is translated when it is shown, not when it is raised: the engine does not know the screen's
language (the setup may name one for plain ``str()``); a view can call :meth:`EchtError.text` with its own.
"""

from __future__ import annotations

from typing import Any

from companion.games.base import GameError
from companion.i18n import DEFAULT_LANGUAGE, join_names, t


class EchtError(GameError):
    """An Echt Spitze action the rules or the table state do not allow; the engine state is unchanged."""

    #: the language ``str()`` uses; the engine sets it from the setup before raising
    lang: str = DEFAULT_LANGUAGE

    def __init__(self, key: str, **params: Any) -> None:
        self.key = key
        self.params = params
        super().__init__(key)

    def text(self, lang: str) -> str:
        params = {k: join_names([str(x) for x in v], lang) if isinstance(v, list) else v
                  for k, v in self.params.items()}
        return t(self.key, lang, **params)

    def __str__(self) -> str:
        return self.text(self.lang)


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
