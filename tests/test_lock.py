"""One companion at a time writes the table's state (``companion.lock``): the boot service ran the table while an
organiser typed ``companion run``, ``companion teach`` or ``companion restore`` beside it, and two processes wrote the
same journal, or a restore swapped the state folder from under a running game."""

from __future__ import annotations

import errno
import fcntl
import os
import signal
import subprocess
import sys
import tarfile
import threading
import time
from pathlib import Path

import pytest

from companion import lock, paths, runtime
from companion.cli import main
from companion.config import Config
from companion.i18n import t
from companion.journal import Journal

ROOT = Path(__file__).resolve().parents[1]

#: a companion command in another process holding the lock, as ``run``/``teach``/``restore`` take it; bounded
HOLDER = ("import sys, time\nfrom companion import lock\nheld = lock.take(sys.argv[1], 'en')\n"
          "print('held', flush=True)\ntime.sleep(60)\n")


def _holder(command: str = "run") -> subprocess.Popen:
    """Another companion holding the table's files (the test's XDG folders: the environment is inherited)."""
    proc = subprocess.Popen([sys.executable, "-c", HOLDER, command], cwd=ROOT, stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    assert proc.stdout.readline().strip() == "held"  # (the holder ends by itself within 60 s)
    return proc


def _end(proc: subprocess.Popen) -> None:
    proc.kill()
    proc.wait(timeout=10)
    if proc.stdout is not None:
        proc.stdout.close()


def _companion(*args: str, stopped_seconds: float = 0.0) -> subprocess.CompletedProcess:
    """The ``companion`` command in its own process (its screen's words kept ``stopped_seconds``, not ten)."""
    code = (f"import sys\nfrom companion import runtime\nruntime.STOPPED_SECONDS = {stopped_seconds}\n"
            "from companion.cli import main\nraise SystemExit(main(sys.argv[1:]))\n")
    return subprocess.run([sys.executable, "-c", code, *args], cwd=ROOT, capture_output=True, text=True, timeout=120)


def test_a_second_taker_in_another_process_is_refused_with_who_holds_it():
    holder = _holder("run")
    try:
        with pytest.raises(lock.Busy) as refused:
            lock.take("teach", "en")
        assert refused.value.pid == holder.pid
        assert refused.value.command == "run"
        said = str(refused.value)
        assert f"The companion is already running (process {holder.pid})." in said
        assert said.endswith("sudo systemctl stop companion")  # what to do, the command to copy last
    finally:
        _end(holder)


def test_doctor_says_which_companion_holds_the_files_without_taking_them(capsys):
    from companion import doctor

    assert lock.holder() is None
    holder = _holder("teach")
    try:
        assert lock.holder() == (holder.pid, "teach")
        assert f"a companion is running on these files now: process {holder.pid} (teach)" in doctor.report()
        with pytest.raises(lock.Busy):  # asked, not taken: the holder still holds it
            lock.take("run", "en")
    finally:
        _end(holder)
    assert lock.holder() is None and "no companion is running" in doctor._held()[0]


def test_a_look_at_the_lock_the_instant_a_companion_starts_does_not_refuse_it(monkeypatch):
    """``companion doctor`` asks who holds the lock by holding it shared for an instant: a companion starting in
    that instant refused itself as "already running"."""
    real, asked = fcntl.flock, []

    def flock(fd, how):
        asked.append(how)
        if how & fcntl.LOCK_EX and len(asked) == 1:
            raise BlockingIOError  # the doctor's look, gone a moment later
        return real(fd, how)

    monkeypatch.setattr(fcntl, "flock", flock)
    with lock.take("run", "en") as held:
        assert held.fd is not None and len(asked) == 2


def test_the_lock_is_free_again_once_its_holder_is_killed():
    holder = _holder("run")
    holder.send_signal(signal.SIGKILL)  # a power cut's way: no code of the holder's runs at its end
    holder.wait(timeout=10)
    holder.stdout.close()
    with lock.take("run", "en") as held:
        assert held.fd is not None
        assert paths.lock_file().read_text().split() == [str(os.getpid()), "run"]


def _english() -> None:
    paths.config_file().parent.mkdir(parents=True)
    paths.config_file().write_text('language = "en"\n', encoding="utf-8")


def test_two_companion_runs_the_second_is_refused_and_says_why(tmp_path):
    _english()
    Journal(paths.state_dir() / "current").start("free-play", {"action": "setup", "players": ["Oma"]})
    first = subprocess.Popen([sys.executable, "-m", "companion", "run", "--source", "synthetic:1", "--frames",
                              "100000"], cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        for _ in range(600):  # bounded: up to a minute for the first one to start on a busy machine
            words = paths.lock_file().read_text().split() if paths.lock_file().exists() else []
            if words == [str(first.pid), "run"] or first.poll() is not None:
                break
            time.sleep(0.1)
        assert first.poll() is None, first.stderr.read() if first.stderr else ""
        second = _companion("run", "--source", "synthetic:1", "--frames", "5")
        assert second.returncode == lock.BUSY_EXIT
        assert f"The companion is already running (process {first.pid})" in second.stderr
        assert "Traceback" not in second.stderr
        # restore refuses too, and changes nothing of the running table's folders
        state = paths.state_dir()
        before = sorted(p.name for p in state.parent.iterdir())
        archive = tmp_path / "b.tar.gz"
        with tarfile.open(archive, "w:gz") as tar:
            tar.add(state, arcname=f".local/state/{paths.APP}")
        restore = _companion("restore", str(archive))
        assert restore.returncode == lock.BUSY_EXIT, restore.stderr
        assert f"already running (process {first.pid})" in restore.stderr
        assert sorted(p.name for p in state.parent.iterdir()) == before  # no folder put aside, none restored
    finally:
        first.kill()
        first.wait(timeout=10)
        first.stderr.close()


def test_the_refusal_is_said_in_the_configs_language_german(tmp_path):
    paths.config_file().parent.mkdir(parents=True)
    paths.config_file().write_text('language = "de"\n', encoding="utf-8")
    holder = _holder("restore")
    try:
        r = _companion("teach", "d6", "--examples", str(tmp_path))
        assert r.returncode == lock.BUSY_EXIT
        assert f"companion restore holt gerade die Dateien des Tisches zurück (Prozess {holder.pid})." in r.stderr
        assert "Wartet, bis es fertig ist" in r.stderr
        assert not (paths.data_dir() / "profiles").exists()
    finally:
        _end(holder)


def test_restore_refuses_while_a_run_holds_the_lock_and_the_game_stays(tmp_path, capsys):
    _english()
    journal = Journal(paths.state_dir() / "current")
    journal.start("free-play", {"action": "setup", "players": ["Oma"]})
    kept = journal.path.read_bytes()
    assert main(["backup", str(tmp_path / "b.tar.gz")]) == 0
    holder = _holder("run")
    try:
        assert main(["restore", str(tmp_path / "b.tar.gz")]) == lock.BUSY_EXIT
        err = capsys.readouterr().err
        assert f"already running (process {holder.pid})" in err and "Nothing was changed." in err
        assert journal.path.read_bytes() == kept
        assert not list(paths.state_dir().parent.glob(f"{paths.APP}.before-restore-*"))
    finally:
        _end(holder)
    assert main(["restore", str(tmp_path / "b.tar.gz")]) == 0  # and once it has stopped, the restore goes on


def test_backup_goes_on_beside_a_running_companion_and_says_the_game_was_copied_as_it_stood(tmp_path, capsys):
    _english()
    Journal(paths.state_dir() / "current").start("free-play", {"action": "setup"})
    holder = _holder("run")
    try:
        assert main(["backup", str(tmp_path / "b.tar.gz")]) == 0
    finally:
        _end(holder)
    out = capsys.readouterr().out
    assert (tmp_path / "b.tar.gz").is_file()
    assert f"The companion is running (process {holder.pid}): the game in progress was copied as it stood" in out


def _refused_run(monkeypatch, *, systemd: bool, display_fails: bool = False) -> tuple[int, list, list]:
    """``run_app`` refused (another process holds the lock), as the boot service runs it (no terminal): what it
    returned, the screen's words shown, and the waits."""
    shown, slept = [], []
    monkeypatch.setattr(runtime, "_terminal_reads", lambda: False)
    monkeypatch.setattr(runtime, "_show_words", lambda display, title, words: shown.append((title, words)))
    monkeypatch.setattr(runtime, "_hold", lambda display, seconds: slept.append(seconds))
    real_sleep, main = time.sleep, threading.main_thread()
    monkeypatch.setattr(runtime.time, "sleep",  # (an earlier test's speech thread may sleep too: its own, unseen)
                        lambda seconds: slept.append(seconds) if threading.current_thread() is main else
                        real_sleep(seconds))
    monkeypatch.setattr(runtime, "STOPPED_SECONDS", 10.0)
    if systemd:
        monkeypatch.setenv("INVOCATION_ID", "0123abcd")
    else:
        monkeypatch.delenv("INVOCATION_ID", raising=False)
    if display_fails:
        import companion.display

        def no_screen(*args, **kwargs):
            raise RuntimeError("the other companion holds the screen")

        monkeypatch.setattr(companion.display, "Display", no_screen)
    holder = _holder("restore")
    try:
        code = runtime.run_app(Config(language="en"), source_spec="synthetic:1", max_frames=1)
        waited = list(slept)  # (ending the holder waits for it with sleeps of its own)
    finally:
        _end(holder)
    return code, shown, waited


def test_the_boot_services_run_refused_shows_why_on_the_screen_and_tries_again_by_itself(monkeypatch):
    code, shown, slept = _refused_run(monkeypatch, systemd=True)
    assert code == lock.BUSY_EXIT != 0  # not 0: Restart=on-failure starts it again once the other has finished
    assert [title for title, _ in shown] == [t("core.busy_title", "en")]
    words = shown[0][1]
    assert "companion restore is putting the table's files back (process" in words
    assert t("core.busy_retry", "en") in words
    # kept on the screen: with RestartSec=3 a try every 13 s, not a flashing loop (the lock asked again twice first)
    assert [s for s in slept if s != lock.RETRY_WAIT] == [10.0]


def test_a_refused_run_whose_screen_does_not_open_waits_all_the_same(monkeypatch):
    code, shown, slept = _refused_run(monkeypatch, systemd=True, display_fails=True)
    assert code == lock.BUSY_EXIT
    assert shown == []
    assert [s for s in slept if s != lock.RETRY_WAIT] == [10.0]


def test_a_run_typed_in_a_terminal_is_refused_there_at_once(monkeypatch, capsys):
    shown = []
    monkeypatch.setattr(runtime, "_terminal_reads", lambda: True)
    monkeypatch.setattr(runtime, "_show_words", lambda *a: shown.append(a))
    holder = _holder("run")
    try:
        assert runtime.run_app(Config(language="en"), source_spec="synthetic:1", max_frames=1) == lock.BUSY_EXIT
    finally:
        _end(holder)
    assert shown == []
    assert f"already running (process {holder.pid})" in capsys.readouterr().err


def test_the_boot_service_restarts_a_refused_run():
    unit = (ROOT / "systemd" / "companion.service").read_text()
    assert "Restart=on-failure" in unit and "RestartPreventExitStatus" not in unit
    assert lock.BUSY_EXIT not in (0, 1, 2)  # told apart from a crash and a player's mistake in the journal


def test_a_card_where_the_lock_cannot_be_made_does_not_stop_the_companion(tmp_path, monkeypatch, caplog):
    blocked = tmp_path / "a-file"
    blocked.write_text("")
    monkeypatch.setattr(paths, "lock_file", lambda: blocked / "state" / "table-companion.lock")
    with lock.take("run", "en") as held:
        assert held.fd is None
    assert "going on without it" in caplog.text
    assert runtime.run_app(Config(language="en"), source_spec="synthetic:1", max_frames=1) == 0


def test_a_read_only_card_still_locks_the_file_that_is_there(monkeypatch):
    paths.lock_file().parent.mkdir(parents=True)
    paths.lock_file().write_text("")
    real_open = os.open

    def read_only(path, flags, *args):
        if flags & (os.O_RDWR | os.O_WRONLY):
            raise OSError(errno.EROFS, "Read-only file system", str(path))
        return real_open(path, flags, *args)

    monkeypatch.setattr(lock.os, "open", read_only)
    with lock.take("run", "en") as held:
        assert held.fd is not None
        with pytest.raises(lock.Busy) as refused:  # (another open file: flock keeps it out, in one process too)
            lock.take("teach", "en")
        assert refused.value.pid is None  # not written on a read-only card: no process named, none wrongly
        assert str(refused.value).startswith("The companion is already running. ") or \
            str(refused.value).startswith("Another companion is using the table's files. ")
