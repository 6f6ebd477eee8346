"""``companion backup FILE`` and ``companion restore FILE``: the table's three folders as one archive, and back.

The README's folder copy went wrong three ways at a club: ``cp -r`` of the three folders (all named
``table-companion``) merged them into one; ``cp -a`` of the data folder into ``~/.local/share/`` on a fresh card, the
folder already there, landed one level too high; and copying back over a companion replaced its game in progress
unsaid. Here the archive holds each folder under its XDG root's usual name relative to the home folder
(``.config/table-companion/...``, ``.local/share/table-companion/...``, ``.local/state/table-companion/...``, the
files' times kept: tonight's wins and "Resume (20:41)" read them), and a restore maps each back onto where this
machine keeps it (``$XDG_*_HOME`` honoured at both ends). ``tar -xzf FILE -C ~`` restores one by hand.

A restore puts the game in progress away into the history first (``Journal.archive``, as a new game does) and
keeps it in the restored history too; each folder it replaces stays beside it as
``table-companion.before-restore-<time>``. Each folder is extracted whole beside its place first, then the old one
renamed aside and the new one into its place: a power cut leaves the old folder or the new one, both whole (in the
instant between the two renames, the old one under its kept name, which the doctor points to). A rename the card
refuses (gone read-only) puts that folder's old one back where it can, and the error says what is where: the folders
restored before it, the game in progress already put away (``_stopped``).
"""

from __future__ import annotations

import io
import json
import os
import shutil
import socket
import stat
import tarfile
import tempfile
import time
from dataclasses import dataclass, replace
from pathlib import Path, PurePosixPath

from companion import lock, paths
from companion.atomic import fsync_dir
from companion.errors import CompanionError
from companion.i18n import t
from companion.journal import Journal, archive_name, is_time

#: the archive's description of itself, its first member; an archive without it is ours where every member lies in
#: the three folders (one made by the README's ``tar`` command)
MANIFEST = "table-companion-backup.json"
#: a folder being restored, beside its place (hidden: a power cut's leftover is never taken for the table's)
RESTORING = f".{paths.APP}.restoring-"
#: the folder a restore replaced, beside the restored one
BEFORE = f"{paths.APP}.before-restore-"
#: the archive's name for each folder: its XDG root's usual place in the home folder
FOLDERS = {"config": ".config", "data": ".local/share", "state": ".local/state"}


def places() -> dict[str, Path]:
    """Where this machine keeps each folder (``paths``; a ``--config`` elsewhere is not the table's folder)."""
    return {"config": paths.config_file().parent, "data": paths.data_dir(), "state": paths.state_dir()}


def _prefix(kind: str) -> str:
    return f"{FOLDERS[kind]}/{paths.APP}"


@dataclass(frozen=True)
class Restored:
    """What a restore did, for its words: the folders restored and each one's old folder kept, the game put away."""

    folders: dict[str, Path]
    kept: dict[str, Path]
    put_away: Path | None
    made: float | None
    host: str | None


def backup(target: Path, lang: str = "en", now: float | None = None) -> tuple[Path, list[str]]:
    """Write the three folders into one .tar.gz at ``target`` (a folder: a file named after this machine and the
    day in it), through a temp file renamed at the end: a full stick leaves no half archive under the name. Returns
    the file and the folders it holds."""
    now = time.time() if now is None else now
    host = socket.gethostname() or "companion"
    if target.is_dir():
        target = target / f"{paths.APP}-{host}-{time.strftime('%Y%m%d-%H%M', time.localtime(now))}.tar.gz"
    there = {kind: folder for kind, folder in places().items() if folder.is_dir()}
    if not there:
        raise CompanionError(t("core.backup_nothing", lang, folders=", ".join(
            paths.short_path(p) for p in places().values())))
    manifest = json.dumps({"backup": paths.APP, "made": now, "host": host, "folders": sorted(there)}).encode()
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as raw, tarfile.open(fileobj=raw, mode="w:gz") as tar:
            info = tarfile.TarInfo(MANIFEST)
            info.size, info.mtime, info.mode = len(manifest), int(now), 0o644
            tar.addfile(info, io.BytesIO(manifest))
            for kind, folder in there.items():
                _add(tar, folder, _prefix(kind))
        with open(tmp, "rb") as f:
            os.fsync(f.fileno())
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    fsync_dir(target.parent)
    return target, sorted(there, key=list(FOLDERS).index)


def _add(tar: tarfile.TarFile, path: Path, arcname: str, depth: int = 0) -> None:
    """``path`` into the archive as ``arcname``, a folder with what is in it: files and folders (a link, a socket
    left by a crash: not the table's), not an atomic write's temp file a power cut left. A file is opened first and
    its size read from the open file (``tar.add`` read the size by name, then opened it: a profile or config
    replaced in between by a running companion's atomic write was saved cut short, or failed "unexpected end of
    data"); one gone in between (a temp file renamed) is left out."""
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return
    if stat.S_ISDIR(mode):
        try:  # a folder a running companion moved meanwhile (a game put away into the history): left out as a file
            info, names = tar.gettarinfo(path, arcname), sorted(os.listdir(path))
        except FileNotFoundError:
            return
        tar.addfile(info)
        if depth < 64:  # (bounded: the table's folders are two or three deep)
            for name in names:
                _add(tar, path / name, f"{arcname}/{name}", depth + 1)
    elif stat.S_ISREG(mode) and not (path.name.startswith(".") and path.name.endswith(".tmp")):
        try:
            f = open(path, "rb")  # (closed below: the name may be gone by now)
        except FileNotFoundError:
            return
        with f:
            info = tar.gettarinfo(arcname=arcname, fileobj=f)
            if info.isfile():
                tar.addfile(info, f)


def _members(tar: tarfile.TarFile, lang: str) -> tuple[dict[str, list[tarfile.TarInfo]], dict]:
    """The archive's members by folder, and its manifest; CompanionError where it is not a backup of ours (a member
    outside the three folders, a link, a path leaving them, no folder at all)."""
    by_kind: dict[str, list[tarfile.TarInfo]] = {kind: [] for kind in FOLDERS}
    manifest: dict = {}
    for info in tar.getmembers():
        name = PurePosixPath(info.name.removeprefix("./"))
        if str(name) == MANIFEST and info.isfile():
            try:
                manifest = json.loads(tar.extractfile(info).read())  # type: ignore[union-attr]
            except (ValueError, AttributeError):
                raise CompanionError(t("core.restore_not_ours", lang)) from None
            if not isinstance(manifest, dict) or manifest.get("backup") != paths.APP:
                raise CompanionError(t("core.restore_not_ours", lang))
            continue
        kind = next((k for k in FOLDERS if name == PurePosixPath(_prefix(k)) or
                     PurePosixPath(_prefix(k)) in name.parents), None)
        if kind is None and info.isdir() and str(name) in {".", ".local", *FOLDERS.values()}:
            continue  # a root's own folder (``tar -C ~ .config/table-companion`` adds none, a hand's tar may)
        if kind is None or name.is_absolute() or ".." in name.parts or not (info.isfile() or info.isdir()):
            raise CompanionError(t("core.restore_not_ours", lang))
        by_kind[kind].append(info)
    if not any(by_kind.values()):
        raise CompanionError(t("core.restore_not_ours", lang))
    return {k: v for k, v in by_kind.items() if v}, manifest


def restore(source: Path, lang: str = "en") -> Restored:
    """Put the folders in the archive ``source`` in place of this machine's (see the module's words), holding the
    table's files (``companion.lock``): never under a running companion, which wrote on into the folder put aside or
    made it again (``lock.Busy``, nothing changed)."""
    with lock.take("restore", lang):
        return _restore(source, lang)


def _restore(source: Path, lang: str) -> Restored:
    """``restore`` with the lock held."""
    try:
        tar = tarfile.open(source, "r:*")
    except (tarfile.TarError, EOFError):
        raise CompanionError(t("core.restore_not_ours", lang)) from None
    with tar:
        try:
            by_kind, manifest = _members(tar, lang)
        except (tarfile.TarError, EOFError, OSError):  # (a gzip cut short: read as far as it goes)
            raise CompanionError(t("core.restore_not_ours", lang)) from None
        stamp = time.strftime("%Y%m%d-%H%M%S")
        targets = places()
        staged: dict[str, Path] = {}
        put_away = None
        try:
            for kind, members in by_kind.items():
                staged[kind] = _extract(tar, members, kind, targets[kind], stamp)
            if "state" in staged:
                put_away = _put_away(targets["state"], staged["state"])
        except BaseException:  # (a full card, a refusal): nothing half restored left beside the folders
            for folder in staged.values():
                shutil.rmtree(folder, ignore_errors=True)
            raise
    made = manifest.get("made")
    host = manifest.get("host")
    done = Restored({}, {}, None, float(made) if is_time(made) else None,
                    host if isinstance(host, str) else None)
    for kind, folder in staged.items():
        target = targets[kind]
        aside = _free(target.with_name(BEFORE + stamp))
        try:
            if target.exists():
                os.replace(target, aside)
                done.kept[kind] = aside
            os.replace(folder, target)
        except OSError as exc:  # (the card gone read-only): the folders before this one are restored already
            raise CompanionError(_stopped(done, kind, staged, targets, put_away, exc, lang)) from exc
        done.folders[kind] = target
        fsync_dir(target.parent)
    if put_away is not None:
        return replace(done, put_away=targets["state"] / put_away[1].relative_to(staged["state"]))
    return done


def _free(path: Path) -> Path:
    """``path``, or where it is taken (a restore again in the same second) the first of ``path-1``, ``path-2``..."""
    for n in range(1000):
        if not (there := path.with_name(f"{path.name}-{n}" if n else path.name)).exists():
            return there
    return path  # (the rename says what is wrong)


def _stopped(done: Restored, failed: str, staged: dict[str, Path], targets: dict[str, Path],
             put_away: tuple[Path, Path] | None, exc: OSError, lang: str) -> str:
    """What a restore stopped at a folder's rename says: the folders restored before it, this one's old folder put
    back where that went (else where it lies now, which ``companion doctor`` points to), the others as they were,
    and the game in progress already put away into this machine's history. Its new copy and the next ones' are
    removed: ``companion restore`` again puts them back."""
    aside = done.kept.pop(failed, None)
    if aside is not None:
        try:
            os.replace(aside, targets[failed])
            aside = None
        except OSError:
            pass
    for kind, folder in staged.items():
        if kind not in done.folders:
            shutil.rmtree(folder, ignore_errors=True)
    lines = [t("core.restore_stopped", lang, error=exc.strerror or exc)]
    lines += _folders_words(done, lang)
    for kind in staged:
        if kind == failed and aside is not None:
            lines.append(t("core.restore_missing", lang, folder=paths.short_path(targets[kind]),
                           kept=paths.short_path(aside)))
        elif kind not in done.folders:
            lines.append(t("core.restore_not_done", lang, folder=paths.short_path(targets[kind])))
    if put_away is not None:  # in this machine's history: its state folder was not restored
        archived = put_away[0]
        if failed == "state" and aside is not None:
            archived = aside / archived.relative_to(targets["state"])
        lines.append(t("core.restore_put_away", lang, folder=paths.short_path(archived)))
    lines.append(t("core.restore_again", lang))
    return "\n".join(lines)


def _extract(tar: tarfile.TarFile, members: list[tarfile.TarInfo], kind: str, target: Path, stamp: str) -> Path:
    """Extract one folder's members beside ``target`` (same file system: renamed into place after), files synced."""
    target.parent.mkdir(parents=True, exist_ok=True)
    staging = target.parent / (RESTORING + stamp)
    staging.mkdir()
    prefix = _prefix(kind)
    for info in members:
        relative = PurePosixPath(info.name.removeprefix("./")).relative_to(prefix)
        if str(relative) == ".":
            continue
        info = _as_data(info.replace(name=str(relative), deep=False))
        if hasattr(tarfile, "data_filter"):
            tar.extract(info, staging, filter="data")
        else:  # Python before 3.11.4 (Debian bookworm's 3.11.2): no filters; ``_members`` and ``_as_data`` do it
            tar.extract(info, staging)
        if info.isfile():
            with open(staging / relative, "rb") as f:
                os.fsync(f.fileno())
    dirs = sorted((i for i in members if i.isdir()), key=lambda i: -len(i.name))
    for info in dirs:  # folders' times after their files are in (a file written into one moved its time)
        relative = PurePosixPath(info.name.removeprefix("./")).relative_to(prefix)
        try:
            os.utime(staging / relative, (info.mtime, info.mtime))
        except OSError:
            pass
    fsync_dir(staging)
    return staging


def _as_data(info: tarfile.TarInfo) -> tarfile.TarInfo:
    """A member as the "data" extraction filter makes it, for a Python without filters (before 3.11.4): no set-uid,
    set-gid or sticky bit, nobody else's write, its file readable and writable by whoever restores it, and owned by
    them (a restore under sudo chowned the files to the archive's user). ``_members`` already refused what is not a
    file or a folder, and every path outside the three folders (absolute, "..")."""
    mode = info.mode & 0o755
    if info.isfile():
        mode |= 0o600
    return info.replace(mode=mode | (0o700 if info.isdir() else 0), uid=os.getuid(), gid=os.getgid(), uname="",
                        gname="", deep=False)


def _put_away(state: Path, staged: Path) -> tuple[Path, Path] | None:
    """This machine's game in progress put away into its history (``Journal.archive``, as a new game does), and a
    copy of it into the restored history, the newest game there: restored over, it was gone unsaid. Returns both."""
    current = state / "current"
    if not (current / "journal.jsonl").exists():
        return None
    archived = Journal(current).archive()
    if archived is None:
        return None
    history = staged / "current" / "history"
    history.mkdir(parents=True, exist_ok=True)
    names = [entry.name for entry in os.scandir(history) if entry.is_dir()]
    copy = history / archive_name(archived.name, names)
    shutil.copytree(archived, copy)  # (copy2: the files' times kept, tonight reads them)
    fsync_dir(history)
    return archived, copy


def restored_words(done: Restored, source: Path, lang: str) -> str:
    """What ``companion restore`` says it did: each folder restored, each old one kept, the game put away."""
    lines = []
    if done.made is not None:
        lines.append(t("core.restore_from", lang, file=source, host=done.host or "?",
                       when=time.strftime("%Y-%m-%d %H:%M", time.localtime(done.made))))
    lines += _folders_words(done, lang)
    if done.put_away is not None:
        lines.append(t("core.restore_put_away", lang, folder=paths.short_path(done.put_away)))
    lines.append(t("core.restore_check", lang))
    return "\n".join(lines)


def _folders_words(done: Restored, lang: str) -> list[str]:
    """Each folder restored, and where its old one is kept."""
    lines = []
    for kind, folder in done.folders.items():
        lines.append(t("core.restore_folder", lang, folder=paths.short_path(folder)))
        if kind in done.kept:
            lines.append(t("core.restore_kept", lang, folder=paths.short_path(done.kept[kind])))
    return lines

