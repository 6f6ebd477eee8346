import shutil
import subprocess
import sys
from pathlib import Path

import pytest

UNIT = Path(__file__).resolve().parents[1] / "systemd" / "companion.service"


def test_unit_starts_the_kiosk_restarts_on_failure_and_logs_to_the_journal():
    text = UNIT.read_text()
    assert "ExecStart=/home/pi/table-companion/.venv/bin/companion run --fullscreen" in text
    assert "Restart=on-failure" in text
    assert "StandardOutput=journal" in text and "StandardError=journal" in text
    assert "WantedBy=multi-user.target" in text


def test_the_kiosk_owns_the_first_console_and_still_logs_to_the_journal():
    """A service has no terminal: SDL could not keep the keys typed on a USB keyboard from the tty1 login prompt
    behind the kiosk, nor read the console's keymap (a German keyboard typed US letters). Like cage's kiosk unit and
    the display managers, the unit takes tty1 from its getty."""
    lines = UNIT.read_text().splitlines()
    assert "TTYPath=/dev/tty1" in lines and "StandardInput=tty-fail" in lines
    assert {"TTYReset=yes", "TTYVHangup=yes"} <= set(lines)
    assert "Conflicts=getty@tty1.service" in lines
    assert any(line.startswith("After=") and "getty@tty1.service" in line.split("=", 1)[1].split() for line in lines)
    assert "StandardOutput=journal" in lines and "StandardError=journal" in lines  # not the tty's default


@pytest.mark.skipif(not shutil.which("systemd-analyze"), reason="systemd-analyze is not installed here")
def test_systemd_analyze_verify(tmp_path):
    # The unit names the Pi's paths and user; point them at this machine so verify checks everything else.
    exe = shutil.which("companion") or sys.executable
    text = UNIT.read_text().replace("/home/pi/table-companion/.venv/bin/companion", exe)
    text = text.replace("User=pi", "User=root").replace("Group=pi", "Group=root")
    unit = tmp_path / "companion.service"
    unit.write_text(text)
    result = subprocess.run(["systemd-analyze", "verify", str(unit)], capture_output=True, text=True)
    problems = [line for line in (result.stdout + result.stderr).splitlines()
                if "companion.service" in line and "Documentation" not in line]
    assert result.returncode == 0 and not problems, result.stdout + result.stderr
