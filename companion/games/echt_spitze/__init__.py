"""Echt Spitze (Schmidt Spiele): the companion's rules engine. See :mod:`.engine` for the rule readings."""

from companion.games.echt_spitze.engine import EchtSpitze
from companion.games.echt_spitze.errors import (
    DiceError,
    EchtError,
    FinalScoreError,
    ReportError,
    SetupError,
    TakeError,
    TurnError,
)
from companion.games.echt_spitze.state import Phase

__all__ = ["EchtSpitze", "EchtError", "SetupError", "DiceError", "TurnError", "TakeError", "ReportError",
           "FinalScoreError", "Phase"]
