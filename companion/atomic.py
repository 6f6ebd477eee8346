"""Atomic file writes: a power cut leaves either the old file or the new one, never half of either."""

from __future__ import annotations

import errno
import os
import stat
import tempfile
import time
from pathlib import Path


def atomic_write_bytes(path: str | os.PathLike, data: bytes, keep_old_as: Path | None = None) -> None:
    """Write ``data`` to ``path`` through a temp file in the same folder, fsync, rename, fsync the folder.
    ``keep_old_as``: the file there is kept under that name once the new one is written whole (``keep_aside``
    before the write left no file at all when a full card then refused the write)."""
    path = Path(path)
    if path.is_symlink():  # a config linked from a dotfiles folder stays a link: the file it points to is written
        try:
            path = path.resolve()
        except RuntimeError:  # links in a loop: a disk's refusal, said as one (a crash stopped the companion)
            raise OSError(errno.ELOOP, "Too many levels of symbolic links", str(path)) from None
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        try:  # the file's own permissions, not the temp file's private ones (a config others may read stays so)
            os.fchmod(fd, stat.S_IMODE(os.stat(path).st_mode))
        except OSError:
            pass
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        if keep_old_as is None:
            os.replace(tmp, path)
        else:
            _swap(path, tmp, keep_old_as)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise
    fsync_dir(path.parent)


def _swap(path: Path, tmp: str, aside: Path) -> None:
    """``path`` kept as ``aside`` and ``tmp`` put in its place. By a second name for the old file where the
    filesystem has them, so that a power cut in between leaves ``path`` old or new, never missing; else by two
    renames, the old file put back when the second fails."""
    try:
        os.link(path, aside)
    except OSError:  # FAT and some network shares have no second names
        os.replace(path, aside)
        try:
            os.replace(tmp, path)
        except BaseException:
            os.replace(aside, path)
            raise
        return
    try:
        os.replace(tmp, path)
    except BaseException:
        aside.unlink(missing_ok=True)  # the old file is still in place: no copy of it is needed
        raise


def replace_keeping_aside(path: str | os.PathLike, data: bytes) -> Path:
    """Write ``data`` over ``path`` with the file there kept as ``NAME.corrupt-YYYYmmdd-HHMMSS`` (see ``keep_aside``,
    a link stays one); returns the kept file. The new file is written whole before the old one moves: a full card
    raises OSError with ``path`` as it was and nothing kept aside (the old one moved first, and the next start found
    no file at all). The new file keeps the old one's permissions."""
    path = Path(path)
    if path.is_symlink():
        target = keep_aside(path)  # (a copy of what it points to: the link stays, and is written through)
        try:
            atomic_write_bytes(path, data)
        except BaseException:
            target.unlink(missing_ok=True)
            raise
        return target
    target = aside_path(path)
    atomic_write_bytes(path, data, keep_old_as=target)
    return target


def atomic_write_text(path: str | os.PathLike, text: str) -> None:
    atomic_write_bytes(path, text.encode("utf-8"))


def fsync_dir(folder: Path) -> None:
    """Make a rename durable; some filesystems (and Windows) cannot open a folder, which is fine there."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def keep_aside(path: str | os.PathLike, why: str = "corrupt") -> Path:
    """Rename a corrupt file to ``NAME.corrupt-YYYYmmdd-HHMMSS`` beside it (``why`` in place of "corrupt": a taught
    profile "replaced" by teaching afresh), never deleting it; return the new path.
    A link (a config kept in a dotfiles folder) stays: what it points to is copied aside, and the next write goes
    through the link (renamed, the next save wrote a plain file in its place)."""
    path = Path(path)
    target = aside_path(path, why)
    if path.is_symlink():
        atomic_write_bytes(target, path.read_bytes())
        return target
    os.replace(path, target)
    fsync_dir(path.parent)
    return target


def aside_path(path: Path, why: str = "corrupt") -> Path:
    """The free name ``NAME.<why>-YYYYmmdd-HHMMSS`` (``-n`` added while taken) beside ``path``."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    target = path.with_name(f"{path.name}.{why}-{stamp}")
    n = 1
    while target.exists():
        target = path.with_name(f"{path.name}.{why}-{stamp}-{n}")
        n += 1
    return target


def text_as_saved(raw: bytes) -> str:
    """A text file's words however a Windows editor saved them: UTF-8 (with or without the byte-order mark Notepad
    and Excel write), else the Windows code page, whose umlauts read as UTF-8 stopped the file at the first one.
    The few bytes cp1252 leaves undefined become U+FFFD. Notepad's "Unicode" (and Excel's "Unicode text") is UTF-16
    with its byte-order mark: read as cp1252, every letter stood beside a zero, and a config.toml so saved lost the
    family's names to the standard ones."""
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")) and not raw.startswith(b"\xff\xfe\x00\x00"):  # (not UTF-32)
        return raw.decode("utf-16", errors="replace")  # the mark says which end first; an odd byte cut off: U+FFFD
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        as_utf8 = raw.decode("utf-8-sig", errors="replace")
    if any(ord(c) > 127 and c != "\ufffd" for c in as_utf8):
        return as_utf8  # UTF-8 with a stray byte: its umlauts are UTF-8's ("Jörg", not "JÃ¶rg")
    return raw.decode("cp1252", errors="replace")


def keep_aside_where_possible(path: str | os.PathLike) -> str:
    """``keep_aside``, or the file left where it is when the card refuses the rename (gone read-only, no
    permission): the name it is kept under either way. The damage is said the same; a crash here instead would
    stop every start of the companion over a file it only wanted out of the way."""
    try:
        return keep_aside(path).name
    except OSError:
        return Path(path).name


#: a temp file older than this is one an atomic write left when the power went (a write takes seconds at most)
STALE_TEMP_SECONDS = 600.0


def remove_stale_temps(folders: list[Path], now: float | None = None) -> list[Path]:
    """Remove the temp files of atomic writes a power cut interrupted (``.NAME.xxxx.tmp``), in ``folders`` only
    (not below them): each can be the size of a taught profile, and nothing else ever looks for them. Ones younger
    than ``STALE_TEMP_SECONDS`` may be another process's write in progress (``companion teach`` beside a running
    game) and stay. Returns what was removed; a folder that cannot be read or a file that cannot be removed is
    left as it is."""
    now = time.time() if now is None else now
    removed = []
    for folder in folders:
        try:
            temps = [p for p in folder.glob(".*.tmp") if p.is_file()]
        except OSError:
            continue
        for p in temps:
            try:
                if now - p.stat().st_mtime > STALE_TEMP_SECONDS:
                    p.unlink()
                    removed.append(p)
            except OSError:
                pass
    return removed
