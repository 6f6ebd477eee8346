"""The table companion: reads the dice, keeps the shared table state, announces what everybody must hear."""

import functools

__version__ = "0.1.0"


@functools.cache
def version() -> str:
    """The version and, run from a git checkout (the README's install), its commit and that commit's date: every
    commit said 0.1.0, and a bug report or an update could not tell which one a table runs. Without git, outside a
    checkout or where git fails (a folder another user owns), the number alone, said nothing about."""
    import subprocess
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    if not (root / ".git").exists():  # a worktree has a file there, a clone a folder
        return __version__
    try:
        found = subprocess.run(["git", "-C", str(root), "log", "-1", "--format=%h %cs"], capture_output=True,
                               text=True, timeout=5, check=True).stdout.split()
    except (OSError, subprocess.SubprocessError):
        return __version__
    return f"{__version__} (git {found[0]}, {found[1]})" if len(found) == 2 else __version__
