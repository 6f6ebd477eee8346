"""scripts/setup.sh, the README's first command, on a machine it cannot serve."""

import os
import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_setup_on_a_python_older_than_3_11_says_so_before_installing_anything(tmp_path):
    """Ubuntu 22.04's Python 3.10: pip said only "requires a different Python", minutes into a quiet download."""
    (tmp_path / "scripts").mkdir()
    shutil.copy(ROOT / "scripts" / "setup.sh", tmp_path / "scripts" / "setup.sh")
    fake = tmp_path / "bin"
    fake.mkdir()
    installed = tmp_path / "apt-get-ran"
    for name, body in (("python3", '[ "$1" = -V ] && echo "Python 3.10.12"; exit 1'),
                       ("dpkg", "exit 1"), ("apt-get", f"touch {installed}; exit 0"), ("sudo", '"$@"')):
        (fake / name).write_text(f"#!/bin/sh\n{body}\n")
        (fake / name).chmod(0o755)
    r = subprocess.run(["bash", str(tmp_path / "scripts" / "setup.sh")], capture_output=True, text=True, timeout=60,
                       env={**os.environ, "PATH": f"{fake}:/usr/bin:/bin"})
    assert r.returncode == 1
    assert "needs Python 3.11 or newer" in r.stderr and "3.10.12" in r.stderr
    assert not (tmp_path / ".venv").exists() and not installed.exists()  # no OS package installed either
