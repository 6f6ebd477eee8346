"""One companion at a time writes the table's state (the journal, the taught dice, the config).

The boot service runs the table; an organiser typing ``companion run``, ``companion teach SET`` or ``companion restore
FILE`` over ssh or on the desktop started a second writer beside it: two journals written at once, and a restore
swapping the state folder from under a running game, which then wrote into the folder put aside or made it again.

Each command that writes state takes :func:`take`: ``fcntl.flock`` on :func:`companion.paths.lock_file`. Advisory and
held by the open file, so the system lets go of it when the process ends however it ends (a power cut, SIGKILL): no
stale lock to clear, unlike a pid file. The holder writes its process and command into the file after locking, only
for the words of the one refused (:class:`Busy`). A card that is read-only or full, where the file cannot be made or
locked, does not stop the companion: it is logged and the command goes on without the lock, as before there was one.

Refused, a command exits with :data:`BUSY_EXIT` (75, ``EX_TEMPFAIL``: "try again later"). Not 0: the boot service
(``Restart=on-failure``, ``RestartSec=3``) refused while a restore or a run by hand holds the lock then tries again,
and takes the table back by itself once the other has finished, rather than leaving the screen dark until the next
switch-on. Not a tight loop: ``companion run`` refused keeps its words on the screen (or, where no screen opens,
waits) ``runtime.STOPPED_SECONDS`` before it exits, so the service tries about every 13 s, within systemd's start
limit and without flashing the screen.
"""

from __future__ import annotations

import contextlib
import fcntl
import logging
import os
import time
from pathlib import Path

from companion import paths
from companion.errors import CompanionError
from companion.i18n import t

log = logging.getLogger(__name__)

#: a refused command's exit status (sysexits' EX_TEMPFAIL): non-zero, so that the boot service tries again
BUSY_EXIT = 75

#: the commands whose words the refused one says ("what is running" and "what to do"); any other: the general ones
_KNOWN = ("run", "teach", "restore", "backup")


class Busy(CompanionError):
    """Another companion holds the lock: ``str()`` says in the config's language what runs and what to do."""

    def __init__(self, words: str, pid: int | None, command: str) -> None:
        super().__init__(words)
        self.pid = pid
        self.command = command


class StateLock:
    """The lock while it is held (``fd`` None: going on without one, the file could not be made or locked)."""

    def __init__(self, fd: int | None) -> None:
        self.fd = fd

    def release(self) -> None:
        """Let go (closing the file does it); a second call does nothing."""
        if self.fd is not None:
            with contextlib.suppress(OSError):
                os.close(self.fd)
            self.fd = None

    def __enter__(self) -> StateLock:
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


#: how long ``take`` waits before asking again (twice): ``holder``'s shared look lasts an instant
RETRY_WAIT = 0.05


def _open(path: Path) -> int | None:
    """The lock file opened, made where missing; read-only where it is there but cannot be written (a read-only
    card: flock holds on a read-only file too); None where it cannot be had at all."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        return os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
    except OSError as exc:
        try:
            return os.open(path, os.O_RDONLY | os.O_CLOEXEC)
        except OSError:
            log.warning("the lock %s cannot be made (%s): going on without it; a second companion is not kept out",
                        path, exc)
            return None


def take(command: str, lang: str) -> StateLock:
    """The lock for ``command`` ("run", "teach", "restore"...) at once, never waiting; :class:`Busy` where another
    companion holds it. Use it as a context manager, or keep it for the process's life."""
    path = paths.lock_file()
    fd = _open(path)
    if fd is None:
        return StateLock(None)
    try:
        for tries_left in range(2, -1, -1):  # ``holder`` (doctor) holds it shared for an instant: not a companion
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if not tries_left:
                    raise
                time.sleep(RETRY_WAIT)
    except BlockingIOError:
        pid, held_by = _holder(fd)
        os.close(fd)
        raise Busy(busy_words(pid, held_by, lang), pid, held_by) from None
    except OSError as exc:  # a file system without locks (ENOLCK): as a card where the file cannot be made
        log.warning("the lock %s cannot be taken (%s): going on without it", path, exc)
        os.close(fd)
        return StateLock(None)
    with contextlib.suppress(OSError):  # read-only or full: locked all the same, only who holds it is unsaid
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()} {command}\n".encode(), 0)
    return StateLock(fd)


def holder() -> tuple[int | None, str] | None:
    """Who holds the lock now, without taking it (``companion doctor``: an organiser asked why a restore or a teach
    refused, or whether the service is up): its process and command as in :func:`_holder`; None where nobody holds
    it or the file cannot be read."""
    try:
        fd = os.open(paths.lock_file(), os.O_RDONLY | os.O_CLOEXEC)
    except OSError:
        return None
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except BlockingIOError:
            return _holder(fd)
        except OSError:
            return None
        fcntl.flock(fd, fcntl.LOCK_UN)
        return None
    finally:
        os.close(fd)


def _holder(fd: int) -> tuple[int | None, str]:
    """Who holds the lock, as it wrote itself into the file: its process (None where unsaid or gone: the file of a
    holder that could not write it is an earlier one's) and its command ("" where unsaid)."""
    try:
        words = os.pread(fd, 200, 0).decode("ascii", "replace").split()
    except OSError:
        return None, ""
    pid = int(words[0]) if words and words[0].isdigit() else None
    if pid is not None:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            pid = None
        except PermissionError:  # another user's: there
            pass
    return pid, words[1] if len(words) > 1 and pid is not None else ""


def busy_words(pid: int | None, command: str, lang: str, *, retry: bool = False) -> str:
    """What holds the table's files and what to do about it, for a family or an organiser (the command to type
    last, where it is copied from). ``retry``: the boot service's, on the table's screen, which tries again by itself:
    what runs and that it will start then (stopping the service, the terminal's advice, was not the fix there)."""
    what = command if command in _KNOWN else "other"
    process = t("core.busy_process", lang, pid=pid) if pid is not None else ""
    if retry:
        return " ".join((t(f"core.busy_{what}", lang, process=process), t("core.busy_retry", lang)))
    return " ".join((t(f"core.busy_{what}", lang, process=process), t("core.busy_unchanged", lang),
                     t(f"core.busy_{what}_fix", lang)))
