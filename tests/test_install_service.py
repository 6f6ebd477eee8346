"""scripts/install-service.sh: the boot service written for this user and this folder, not the template's."""

from __future__ import annotations

import getpass
import grp
import os
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: the unit as on a Pi OS Lite, whatever sound this machine has (a laptop with PipeWire adds lines)
NO_PIPEWIRE = {"PIPEWIRE_ALSA_CONF": "/nonexistent/99-pipewire-default.conf"}


def test_the_service_is_written_for_this_user_and_this_folder():
    env = {k: v for k, v in os.environ.items() if k != "SUDO_USER"} | NO_PIPEWIRE
    unit = subprocess.run(["bash", str(ROOT / "scripts" / "install-service.sh"), "--print"], env=env, check=True,
                          capture_output=True, text=True).stdout
    lines = unit.splitlines()
    here = ROOT.resolve()
    assert f"User={getpass.getuser()}" in lines and f"Group={grp.getgrgid(os.getgid()).gr_name}" in lines
    assert f"WorkingDirectory={here}" in lines
    assert f"ExecStart={here}/.venv/bin/companion run --fullscreen" in lines
    assert "/home/pi" not in unit  # no line of the template's example left behind
    template = (ROOT / "systemd" / "companion.service").read_text().splitlines()
    assert len(lines) == len(template)  # the rest as it is (restart, groups, SDL's KMSDRM)


def test_an_install_started_with_sudo_is_for_the_user_who_asked():
    import pwd

    other = "nobody"  # a user every Debian has, not the one running the tests
    env = {**os.environ, "SUDO_USER": other} | NO_PIPEWIRE
    unit = subprocess.run(["bash", str(ROOT / "scripts" / "install-service.sh"), "--print"], env=env, check=True,
                          capture_output=True, text=True).stdout
    assert f"User={other}" in unit.splitlines()
    assert f"Group={grp.getgrgid(pwd.getpwnam(other).pw_gid).gr_name}" in unit.splitlines()


def test_on_a_pipewire_system_the_service_finds_the_users_sound_server(tmp_path):
    """Raspberry Pi OS with the desktop routes ALSA's default to PipeWire, which runs in a login session only: a
    kiosk booted to the console has none, and the companion was silent. There the unit waits for the user's manager
    (lingering starts it at boot) and points at its runtime directory; elsewhere (Pi OS Lite: ALSA alone) it is as
    the template."""
    import shutil
    import sys

    conf = tmp_path / "99-pipewire-default.conf"
    conf.write_text("pcm.!default pipewire\n")
    env = {k: v for k, v in os.environ.items() if k != "SUDO_USER"}
    script = str(ROOT / "scripts" / "install-service.sh")
    plain = subprocess.run(["bash", script, "--print"], env={**env, "PIPEWIRE_ALSA_CONF": str(tmp_path / "none")},
                           check=True, capture_output=True, text=True).stdout
    piped = subprocess.run(["bash", script, "--print"], env={**env, "PIPEWIRE_ALSA_CONF": str(conf)}, check=True,
                           capture_output=True, text=True).stdout
    uid = os.getuid()
    assert "XDG_RUNTIME_DIR" not in plain and "user@" not in plain
    lines = piped.splitlines()
    assert f"Environment=XDG_RUNTIME_DIR=/run/user/{uid}" in lines
    assert f"After=local-fs.target sound.target user@{uid}.service" in lines
    assert f"Wants=sound.target user@{uid}.service" in lines
    assert len(lines) == len(plain.splitlines()) + 1  # one line more, the rest as it was
    if shutil.which("systemd-analyze"):
        unit = tmp_path / "companion.service"
        unit.write_text(piped.replace(f"{ROOT.resolve()}/.venv/bin/companion", sys.executable))
        result = subprocess.run(["systemd-analyze", "verify", str(unit)], capture_output=True, text=True)
        problems = [line for line in (result.stdout + result.stderr).splitlines()
                    if "companion.service" in line and "Documentation" not in line]
        assert result.returncode == 0 and not problems, result.stdout + result.stderr


def test_the_doctor_says_when_the_boot_service_installed_is_out_of_date(tmp_path, monkeypatch):
    """An update kept the boot service installed before though the unit had changed: the doctor's "Start at boot"
    says so, in setup.sh's words, and what to run."""
    from companion import doctor

    monkeypatch.setattr(doctor.shutil, "which", lambda name: f"/usr/bin/{name}")
    monkeypatch.delenv("SUDO_USER", raising=False)
    monkeypatch.setenv("PIPEWIRE_ALSA_CONF", NO_PIPEWIRE["PIPEWIRE_ALSA_CONF"])
    unit = tmp_path / "companion.service"
    unit.write_text(subprocess.run(["bash", str(ROOT / "scripts" / "install-service.sh"), "--print"], check=True,
                                   capture_output=True, text=True).stdout)
    assert doctor._boot_service(unit) == [f"ok      {unit} (as ./scripts/install-service.sh writes it)"]
    unit.write_text(unit.read_text().replace("StandardInput=tty-fail\n", ""))
    assert doctor._boot_service(unit) == [f"PROBLEM {unit}: {doctor.SERVICE_OUT_OF_DATE}"]
    assert "run ./scripts/install-service.sh" in doctor.SERVICE_OUT_OF_DATE
    unit.unlink()
    assert not doctor._boot_service(unit)[0].startswith(("PROBLEM", "ok"))
