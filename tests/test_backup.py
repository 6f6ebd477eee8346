"""``companion backup FILE`` / ``companion restore FILE``: the three folders as one archive and back (a club's
organiser following the README's folder copy merged the three folders into one, landed a restore one level too high,
and replaced the other companion's game in progress unsaid)."""

from __future__ import annotations

import io
import os
import shutil
import tarfile
from pathlib import Path

import pytest

from companion import backup, paths
from companion.cli import main
from companion.errors import CompanionError
from companion.journal import Journal

MONTH_AGO = 1_700_000_000.0


def _machine(root: Path, monkeypatch) -> None:
    """Point the XDG folders at ``root``'s home-like folders (another machine, or this one)."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(root / ".config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(root / ".local" / "share"))
    monkeypatch.setenv("XDG_STATE_HOME", str(root / ".local" / "state"))


def _club_a(root: Path, monkeypatch) -> None:
    """Machine A: an English config, a taught profile, a dice set's copy, a game put away a month ago, a game on."""
    _machine(root, monkeypatch)
    paths.config_file().parent.mkdir(parents=True)
    paths.config_file().write_text('language = "en"\nplayers = ["Anna", "Ben"]\n', encoding="utf-8")
    (paths.data_dir() / "profiles").mkdir(parents=True)
    (paths.data_dir() / "profiles" / "echt-spitze.npz").write_bytes(b"taught" * 100)
    (paths.data_dir() / "dicesets").mkdir()
    (paths.data_dir() / "dicesets" / "haste-worte.toml").write_text("# copy\n", encoding="utf-8")
    journal = Journal(paths.state_dir() / "current")
    journal.start("free-play", {"action": "setup"})
    old = journal.archive()
    assert old is not None
    os.utime(old / "journal.jsonl", (MONTH_AGO, MONTH_AGO))
    journal.start("free-play", {"action": "setup", "players": ["Anna"]})


def _club_b(root: Path, monkeypatch) -> Path:
    """Machine B: German, its own game in progress. Returns that game's journal."""
    _machine(root, monkeypatch)
    paths.config_file().parent.mkdir(parents=True)
    paths.config_file().write_text('language = "de"\nplayers = ["Oma", "Lea"]\n', encoding="utf-8")
    journal = Journal(paths.state_dir() / "current")
    journal.start("free-play", {"action": "setup", "players": ["Oma"]})
    return journal.path


def test_a_backup_restored_on_another_machine_is_the_first_machines_table_and_loses_nothing(tmp_path, monkeypatch,
                                                                                           capsys):
    _club_a(tmp_path / "A", monkeypatch)
    file = tmp_path / "usb" / "club.tar.gz"
    file.parent.mkdir()
    assert main(["backup", str(file)]) == 0
    assert str(file) in capsys.readouterr().out
    b_game = _club_b(tmp_path / "B", monkeypatch).read_bytes()

    assert main(["restore", str(file)]) == 0
    said = capsys.readouterr().out
    b = tmp_path / "B"
    # each folder where it belongs, not merged into one nor a level too high
    assert 'language = "en"' in (b / ".config" / "table-companion" / "config.toml").read_text(encoding="utf-8")
    assert (b / ".local" / "share" / "table-companion" / "profiles" / "echt-spitze.npz").read_bytes() == b"taught" * 100
    assert (b / ".local" / "share" / "table-companion" / "dicesets" / "haste-worte.toml").is_file()
    assert not (b / ".local" / "share" / "profiles").exists() and not (b / ".local" / "share" / "config.toml").exists()
    current = b / ".local" / "state" / "table-companion" / "current"
    assert b'"Anna"' in (current / "journal.jsonl").read_bytes()  # A's game in progress is the one to resume
    history = sorted(p for p in (current / "history").iterdir())
    # last month's game keeps its time (tonight's wins read it); B's game is the newest put away, not gone
    assert (history[0] / "journal.jsonl").stat().st_mtime == MONTH_AGO
    assert (history[-1] / "journal.jsonl").read_bytes() == b_game
    assert str(history[-1].name) in said
    # what B had is kept beside, whole
    kept = list((b / ".config").glob("table-companion.before-restore-*"))
    assert len(kept) == 1 and 'language = "de"' in (kept[0] / "config.toml").read_text(encoding="utf-8")
    assert list((b / ".local" / "state").glob("table-companion.before-restore-*"))
    assert "companion doctor" in said and "restored" in said
    assert not list((b / ".local" / "state").glob(".table-companion.restoring-*"))


def test_a_file_that_is_not_our_backup_is_refused_in_one_line_and_nothing_changes(tmp_path, monkeypatch, capsys):
    journal = _club_b(tmp_path / "B", monkeypatch)
    before = journal.read_bytes()
    other = tmp_path / "photos.tar.gz"
    (tmp_path / "IMG_1.jpg").write_bytes(b"jpeg")
    with tarfile.open(other, "w:gz") as tar:
        tar.add(tmp_path / "IMG_1.jpg", arcname="IMG_1.jpg")
    text = tmp_path / "notes.txt"
    text.write_text("not an archive", encoding="utf-8")
    escaping = tmp_path / "escaping.tar.gz"
    with tarfile.open(escaping, "w:gz") as tar:
        tar.add(tmp_path / "IMG_1.jpg", arcname=".config/table-companion/../../evil.jpg")
    for bad in (other, text, escaping):
        assert main(["restore", str(bad)]) == 2
        err = capsys.readouterr().err
        assert err.startswith("companion: ") and "companion backup" in err and "Traceback" not in err
        assert err.count("\n") == 1
    assert journal.read_bytes() == before
    assert not list((tmp_path / "B" / ".config").glob("table-companion.before-*"))


def test_a_restore_cut_short_while_extracting_leaves_the_old_table_whole(tmp_path, monkeypatch):
    _club_a(tmp_path / "A", monkeypatch)
    file, _ = backup.backup(tmp_path / "club.tar.gz")
    journal = _club_b(tmp_path / "B", monkeypatch)
    before = journal.read_bytes()
    real = backup._extract

    def cut(tar, members, kind, target, stamp):
        if kind == "state":
            raise OSError(28, "No space left on device", str(target))
        return real(tar, members, kind, target, stamp)

    monkeypatch.setattr(backup, "_extract", cut)
    with pytest.raises(OSError):
        backup.restore(file)
    assert journal.read_bytes() == before
    assert 'language = "de"' in paths.config_file().read_text(encoding="utf-8")
    for root in (tmp_path / "B" / ".config", tmp_path / "B" / ".local" / "share", tmp_path / "B" / ".local" / "state"):
        assert not list(root.glob(".table-companion.restoring-*")) if root.is_dir() else True


def test_the_readmes_hand_made_tar_is_restored_too(tmp_path, monkeypatch):
    """The fallback the README gives (``tar -czf FILE -C ~ .config/table-companion ...``) holds the same folders."""
    _club_a(tmp_path / "A", monkeypatch)
    file = tmp_path / "by-hand.tar.gz"
    with tarfile.open(file, "w:gz") as tar:
        for name in (".config/table-companion", ".local/share/table-companion", ".local/state/table-companion"):
            tar.add(tmp_path / "A" / name, arcname=name)
    _club_b(tmp_path / "B", monkeypatch)
    done = backup.restore(file)
    assert set(done.folders) == {"config", "data", "state"} and done.put_away is not None
    assert (paths.data_dir() / "profiles" / "echt-spitze.npz").is_file()


def test_the_doctor_finds_a_copy_a_level_too_high_or_too_deep_and_says_where_it_belongs(tmp_path, monkeypatch):
    """``cp -a .../table-companion ~/.local/share/`` on a fresh card put profiles/ and dicesets/ directly in
    ~/.local/share: the games had no taught dice, and the doctor said nothing."""
    from companion import doctor

    _machine(tmp_path, monkeypatch)
    monkeypatch.setenv("HOME", str(tmp_path))
    (tmp_path / ".local" / "share" / "profiles").mkdir(parents=True)
    (tmp_path / ".local" / "share" / "dicesets").mkdir()
    (tmp_path / ".config" / "table-companion" / "table-companion").mkdir(parents=True)
    (tmp_path / ".config" / "table-companion" / "table-companion" / "config.toml").write_text("", encoding="utf-8")
    (tmp_path / ".local" / "state" / "current").mkdir(parents=True)
    said = "\n".join(doctor._misplaced())
    assert "PROBLEM found ~/.local/share/profiles: move it to ~/.local/share/table-companion/profiles" in said
    assert "mkdir -p ~/.local/share/table-companion && mv ~/.local/share/profiles" in said
    assert "found ~/.local/share/dicesets: move it to ~/.local/share/table-companion/dicesets" in said
    assert "found ~/.config/table-companion/table-companion/config.toml: move it to ~/.config/table-companion/" \
           "config.toml (a copy put it a level too deep" in said
    assert "found ~/.local/state/current: move it to ~/.local/state/table-companion/current" in said
    (tmp_path / ".local" / "state" / "table-companion.before-restore-20261207-225737").mkdir()
    assert "PROBLEM ~/.local/state/table-companion is missing and ~/.local/state/table-companion.before-restore-" \
           "20261207-225737 is there" in "\n".join(doctor._misplaced())


def test_the_doctor_names_the_machine_and_its_own_settings_first(tmp_path, monkeypatch):
    """Two companions at a club: which report is whose; after a restore from the other one, the settings that
    belong to the machine (camera, the screen's turn, the sound output, the pins) said to be checked."""
    import socket

    from companion import doctor
    from companion.config import load

    monkeypatch.setattr(socket, "gethostname", lambda: "clubpi-2")
    assert doctor._python()[1] == "this machine: clubpi-2"
    paths.config_file().parent.mkdir(parents=True)
    paths.config_file().write_text('camera = "cam:2"\n[display]\nrotate = 180\n[sound]\noutput = "USB"\n'
                                   "[buttons.pins]\nroll = 5\n", encoding="utf-8")
    line = doctor._this_machines(load(None))[0]
    assert "camera = 'cam:2'" in line and "[display] rotate = 180" in line and "[sound] output = 'USB'" in line
    assert "[buttons.pins] roll = 5" in line and "reroll" not in line


def _before_filters(monkeypatch) -> None:
    """Python before 3.11.4 (Debian bookworm's 3.11.2): no ``tarfile.data_filter``, and ``extract`` takes no
    ``filter``."""
    monkeypatch.delattr(tarfile, "data_filter")
    real = tarfile.TarFile.extract

    def extract(self, member, path="", set_attrs=True, *, numeric_owner=False, **kwargs):
        if kwargs:
            raise TypeError(f"extract() got an unexpected keyword argument {next(iter(kwargs))!r}")
        return real(self, member, path, set_attrs, numeric_owner=numeric_owner)

    monkeypatch.setattr(tarfile.TarFile, "extract", extract)


def _archive(file: Path, *members: tuple[tarfile.TarInfo, bytes | None]) -> Path:
    with tarfile.open(file, "w:gz") as tar:
        for info, data in members:
            if data is not None:
                info.size = len(data)
            tar.addfile(info, None if data is None else io.BytesIO(data))
    return file


def _member(name: str, kind: bytes = tarfile.REGTYPE, **attrs) -> tarfile.TarInfo:
    info = tarfile.TarInfo(name)
    info.type = kind
    for key, value in attrs.items():
        setattr(info, key, value)
    return info


def test_a_python_without_extraction_filters_restores_and_refuses_as_one_with_them(tmp_path, monkeypatch):
    """``extract(filter="data")`` needs Python 3.11.4; bookworm's 3.11.2 failed every restore with a TypeError. The
    member checks refuse a path leaving the folders, a link and a device all the same, and a file's mode keeps no
    set-uid bit nor anybody's write."""
    _club_a(tmp_path / "A", monkeypatch)
    file, _ = backup.backup(tmp_path / "club.tar.gz")
    journal = _club_b(tmp_path / "B", monkeypatch)
    _before_filters(monkeypatch)
    done = backup.restore(file)
    assert set(done.folders) == {"config", "data", "state"}
    assert (paths.data_dir() / "profiles" / "echt-spitze.npz").read_bytes() == b"taught" * 100
    assert b'"Anna"' in journal.read_bytes()
    for kept in done.kept.values():  # (deleted once the table is right: the next restore may come in the same second)
        shutil.rmtree(kept)

    prefix = ".config/table-companion/"
    for bad in ([(_member("/" + prefix + "config.toml"), b"x")],
                [(_member(prefix + "../../evil.toml"), b"x")],
                [(_member(prefix + "config.toml", tarfile.SYMTYPE, linkname="/etc/passwd"), None)],
                [(_member(prefix + "a.toml"), b"x"), (_member(prefix + "config.toml", tarfile.LNKTYPE,
                                                              linkname=prefix + "a.toml"), None)],
                [(_member(prefix + "tty", tarfile.CHRTYPE, devmajor=4, devminor=1), None)]):
        with pytest.raises(CompanionError):
            backup.restore(_archive(tmp_path / "bad.tar.gz", *bad))
        assert 'language = "en"' in paths.config_file().read_text(encoding="utf-8")
        assert not (tmp_path / "B" / "evil.toml").exists() and not (tmp_path / "B" / ".config" / "evil.toml").exists()

    backup.restore(_archive(tmp_path / "modes.tar.gz", (_member(prefix + "config.toml", mode=0o4777), b"x = 1\n")))
    assert paths.config_file().stat().st_mode & 0o7777 == 0o755


@pytest.mark.parametrize("longer", [True, False], ids=["longer", "shorter"])
def test_a_file_replaced_while_the_backup_reads_it_is_saved_whole(tmp_path, monkeypatch, longer):
    """A backup beside a running companion: a profile or the config replaced (an atomic write) between the backup
    reading its size and its contents was saved cut short, or failed "unexpected end of data"."""
    _club_a(tmp_path / "A", monkeypatch)
    config = paths.config_file()
    old = config.read_bytes()
    new = b"# written again\n" + old if longer else b'language = "en"\n'
    real = os.lstat

    def lstat(path, *args, **kwargs):
        found = real(path, *args, **kwargs)
        if Path(path) == config and config.read_bytes() == old:  # the companion's atomic write, just after it
            (tmp := config.with_name(".config.toml.tmp")).write_bytes(new)
            os.replace(tmp, config)
        return found

    (paths.data_dir() / "profiles" / ".echt-spitze.npz.tmp").write_bytes(b"a power cut's leftover")
    (paths.data_dir() / "link.toml").symlink_to(config)
    monkeypatch.setattr(os, "lstat", lstat)
    file, _ = backup.backup(tmp_path / "club.tar.gz")
    monkeypatch.setattr(os, "lstat", real)
    with tarfile.open(file) as tar:
        member = tar.getmember(".config/table-companion/config.toml")
        assert tar.extractfile(member).read() in (old, new)
        names = tar.getnames()
    assert ".local/share/table-companion/profiles/echt-spitze.npz" in names  # (the rest as ever: no temp, no link)
    assert not [name for name in names if name.endswith((".tmp", "link.toml"))]


def test_a_folder_moved_while_the_backup_walks_is_left_out_not_a_failure(tmp_path, monkeypatch):
    """A running companion put its game away (``current`` renamed into the history) between the backup seeing the
    folder and listing it: the backup failed with a raw "No such file or directory"."""
    _club_a(tmp_path / "A", monkeypatch)
    profiles = paths.data_dir() / "profiles"
    real = os.lstat

    def lstat(path, *args, **kwargs):
        found = real(path, *args, **kwargs)
        if Path(path) == profiles and profiles.exists():  # moved away just after it was seen
            os.replace(profiles, profiles.with_name("moved"))
        return found

    monkeypatch.setattr(os, "lstat", lstat)
    file, _ = backup.backup(tmp_path / "club.tar.gz")
    monkeypatch.setattr(os, "lstat", real)
    with tarfile.open(file) as tar:
        names = tar.getnames()
    assert ".config/table-companion/config.toml" in names
    assert not [name for name in names if "/profiles" in name]


@pytest.mark.parametrize("back", [True, False], ids=["put-back", "not-put-back"])
def test_a_restore_stopped_at_a_folders_rename_says_what_is_where(tmp_path, monkeypatch, back):
    """The card refusing the rename of the restored state folder into its place (gone read-only): the config and
    the data were restored already, the game in progress put away into the history, and the state folder was moved
    aside: the table's saved games gone unsaid, a traceback. Its old folder is put back (where the card lets it),
    and the words say which folder is restored, which is as before or where it lies, and where the game went."""
    _club_a(tmp_path / "A", monkeypatch)
    file, _ = backup.backup(tmp_path / "club.tar.gz")
    b_game = _club_b(tmp_path / "B", monkeypatch).read_bytes()
    state = paths.state_dir()
    real = os.replace

    def refused(src, dst):
        if Path(dst) == state and (Path(src).name.startswith(backup.RESTORING) or not back):
            raise OSError(30, "Read-only file system", str(src))
        return real(src, dst)

    monkeypatch.setattr(backup.os, "replace", refused)
    with pytest.raises(CompanionError) as raised:
        backup.restore(file)
    said = str(raised.value)
    monkeypatch.setattr(backup.os, "replace", real)
    assert 'language = "en"' in paths.config_file().read_text(encoding="utf-8")  # restored before the state's turn
    assert f"{paths.short_path(paths.config_file().parent)} restored" in said and "Read-only file system" in said
    games = list(state.glob("current/history/*/journal.jsonl")) if back else []
    if back:  # the state as before, its game in progress in its history, as the words say
        assert f"{paths.short_path(state)} was not restored" in said
        assert [game.read_bytes() for game in games] == [b_game] and games[0].parent.name in said
        assert paths.short_path(games[0].parent) in said
    else:  # the old state aside: the words and the doctor say where, and how to move it back
        kept = list(state.parent.glob(backup.BEFORE + "*"))
        assert not state.exists() and len(kept) == 1 and f"lies in {paths.short_path(kept[0])}" in said
        [game] = kept[0].glob("current/history/*/journal.jsonl")
        assert game.read_bytes() == b_game and paths.short_path(game.parent) in said
        from companion import doctor

        assert any(line.startswith("PROBLEM") and f"mv {paths.short_path(kept[0])}" in line
                   for line in doctor._misplaced())
    assert "companion restore again" in said
    assert not list(state.parent.glob(backup.RESTORING + "*"))  # (the new copy gone: the doctor's note says nothing)


def test_a_restore_again_in_the_same_second_keeps_both_old_folders(tmp_path, monkeypatch):
    """The old folders are kept under the restore's time to the second: a second restore in that second found the
    name taken and stopped at the first rename ("Directory not empty")."""
    _club_a(tmp_path / "A", monkeypatch)
    file, _ = backup.backup(tmp_path / "club.tar.gz")
    _club_b(tmp_path / "B", monkeypatch)
    monkeypatch.setattr(backup.time, "strftime", lambda fmt, *args: "20261207-201455")
    first, second = backup.restore(file), backup.restore(file)
    assert first.kept["config"] != second.kept["config"]
    assert 'language = "de"' in (first.kept["config"] / "config.toml").read_text(encoding="utf-8")
    assert 'language = "en"' in (second.kept["config"] / "config.toml").read_text(encoding="utf-8")
