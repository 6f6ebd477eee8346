"""Which boot of the machine this is, and how long it has run: a clock a Pi's network time does not move.

A Pi without a clock battery starts on the time it saved when it was last switched off (fake-hwclock), and jumps to
the network's time when Wi-Fi comes up, often in the middle of an evening. Wall times of games played before and
after that jump are far apart although the family played on. ``CLOCK_BOOTTIME`` counts on from the boot whatever
the wall clock does, and the boot id says whether two of its readings are from the same boot, comparable.

Both are reads of the operating system; tests fake ``boot_id`` (None: not known, the wall clock as before).
"""

from __future__ import annotations

import functools
import logging
import time
from pathlib import Path

log = logging.getLogger(__name__)

BOOT_ID = Path("/proc/sys/kernel/random/boot_id")


@functools.cache
def _read_boot_id(path: Path = BOOT_ID) -> str | None:
    """Read once: a boot id does not change while the program runs (each append of a step asks)."""
    try:
        text = path.read_text(encoding="ascii").strip()
    except (OSError, ValueError) as exc:  # not Linux, or /proc not there (a container)
        log.info("no boot id (%s): games compare by the wall clock", exc)
        return None
    return text or None


def boot_id() -> str | None:
    """This boot's id (Linux), or None where it cannot be known."""
    return _read_boot_id()


def uptime() -> float | None:
    """Seconds since the boot, sleep included (``CLOCK_BOOTTIME``), or None where there is no such clock."""
    try:
        return time.clock_gettime(time.CLOCK_BOOTTIME)
    except (AttributeError, OSError):
        return None


def stamp() -> dict[str, str | float] | None:
    """This moment as boot and time since it (``{"boot": ..., "uptime": ...}``), or None where either is unknown."""
    which, since = boot_id(), uptime()
    if which is None or since is None:
        return None
    return {"boot": which, "uptime": since}
