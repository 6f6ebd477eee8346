"""Where the companion keeps its files, following the XDG base directories (as on any Linux desktop or Pi)."""

from __future__ import annotations

import os
from pathlib import Path

APP = "table-companion"


def _xdg(var: str, fallback: str) -> Path:
    value = os.environ.get(var)
    return Path(value) if value else Path.home() / fallback


def config_file() -> Path:
    return _xdg("XDG_CONFIG_HOME", ".config") / APP / "config.toml"


def data_dir() -> Path:
    """Taught dice profiles and editable dice sets: worth keeping across reinstalls."""
    return _xdg("XDG_DATA_HOME", ".local/share") / APP


def state_dir() -> Path:
    """The journal of the game in progress and finished games."""
    return _xdg("XDG_STATE_HOME", ".local/state") / APP
