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
