"""scripts/install-service.sh: the boot service written for this user and this folder, not the template's."""

from __future__ import annotations

import getpass
import grp
import os
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_service_is_written_for_this_user_and_this_folder():
    env = {k: v for k, v in os.environ.items() if k != "SUDO_USER"}
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
    env = {**os.environ, "SUDO_USER": other}
    unit = subprocess.run(["bash", str(ROOT / "scripts" / "install-service.sh"), "--print"], env=env, check=True,
                          capture_output=True, text=True).stdout
    assert f"User={other}" in unit.splitlines()
    assert f"Group={grp.getgrgid(pwd.getpwnam(other).pw_gid).gr_name}" in unit.splitlines()
