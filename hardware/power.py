"""Switching the Raspberry Pi off from the screen.

A kiosk has no keyboard and no desktop: without this, the menu's "Quit" left a black console (the service only
restarts a companion that failed), and a family's only way to end the evening was to pull the plug. The games are
written atomically and survive that, but the memory card's system is safer shut down. ``sudo -n``: the Pi's first
user may run it without a password (Raspberry Pi OS's default); where it may not, the words say so instead of a
password prompt that nobody would see.
"""

from __future__ import annotations

import subprocess
from collections.abc import Callable

POWER_OFF = ["sudo", "-n", "systemctl", "poweroff"]


def power_off(run: Callable[..., subprocess.CompletedProcess] = subprocess.run) -> str | None:
    """Ask the system to shut down: None when it accepted, else why not (in the system's words)."""
    try:
        done = run(POWER_OFF, capture_output=True, text=True, timeout=15)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return str(exc)
    if done.returncode == 0:
        return None
    said = (done.stderr or "").strip().splitlines()
    return said[-1] if said else f"exit status {done.returncode}"
