"""Where the companion keeps its files, following the XDG base directories (as on any Linux desktop or Pi)."""

from __future__ import annotations

import errno
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


def short_path(path: str | Path) -> str:
    """``path`` with the home folder as "~": a folder or file named on a screen fits its line (a notice has four
    lines, and the path took two). The home folder itself, a home of "/" and a path outside it stay as they are."""
    source = str(path)
    try:
        home = str(Path.home())
    except RuntimeError:  # no home to be found: the path as it is
        return source
    return "~" + source[len(home):] if home != "/" and source.startswith(home + "/") else source


def refused_folder(exc: BaseException) -> Path | None:
    """The folder a refusal of permission was about (one owned by root after a ``sudo`` run, say), None for other
    errors or where the error names no file. A config's ``ConfigError`` carries its disk's error as ``error``."""
    inner = getattr(exc, "error", None)
    if not isinstance(exc, OSError) and isinstance(inner, OSError):
        exc = inner
    if not isinstance(exc, OSError) or exc.errno not in (errno.EACCES, errno.EPERM) or not exc.filename:
        return None
    path = Path(os.fsdecode(exc.filename))
    try:
        return path if path.is_dir() else path.parent
    except OSError:
        return path.parent


def folder_fix(folder: Path) -> str:
    """The command that gives the folder back to the user the companion runs as (``refused_folder``)."""
    import getpass

    try:
        user = getpass.getuser()
    except (KeyError, OSError):  # a user id without a name here: the shell fills it in
        user = "$USER"
    return f"sudo chown -R {user}: {folder}"


def lock_file() -> Path:
    """The file ``companion.lock`` locks while a companion writes the table's state: beside the state folder, not in
    it, as ``companion restore`` swaps that folder whole (a lock inside went aside with it, and a second companion
    started after the swap found the restored folder unlocked)."""
    return state_dir().parent / f"{APP}.lock"
