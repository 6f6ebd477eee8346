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


def _os_packages_asked(tmp_path: Path, *, pi: bool) -> list[str]:
    """The OS packages setup.sh asks apt to install on a machine that has none of them, a Pi or not (its model file
    says "Raspberry Pi" or is not there; every other grep is the real one); the version check passes and making the
    venv stops the script after the OS packages."""
    (tmp_path / "scripts").mkdir()
    shutil.copy(ROOT / "scripts" / "setup.sh", tmp_path / "scripts" / "setup.sh")
    fake = tmp_path / "bin"
    fake.mkdir()
    asked = tmp_path / "apt-get-args"
    model = "exit 0" if pi else "exit 1"
    for name, body in (
            ("grep", f'case "$*" in *device-tree/model*) {model};; esac; exec /bin/grep "$@"'),
            ("python3", 'case "$*" in *-m*) exit 1;; esac; exit 0'),
            ("dpkg", "exit 1"), ("apt-get", f'echo "$@" >> {asked}; exit 0'), ("sudo", '"$@"'), ("id", "echo 0")):
        (fake / name).write_text(f"#!/bin/sh\n{body}\n")
        (fake / name).chmod(0o755)
    subprocess.run(["bash", str(tmp_path / "scripts" / "setup.sh")], capture_output=True, text=True, timeout=60,
                   env={**os.environ, "PATH": f"{fake}:/usr/bin:/bin"})
    install = [line for line in asked.read_text().splitlines() if "install" in line.split()]
    assert install
    return install[0].split()


def test_setup_on_a_pi_installs_the_gpu_driver_the_kiosk_screen_needs(tmp_path):
    """EGL and GBM find no GPU without Mesa's vc4/v3d driver (libgl1-mesa-dri); it came only as python3-picamera2's
    Recommends, so a Pi set up without them had no fullscreen kiosk."""
    packages = _os_packages_asked(tmp_path, pi=True)
    assert "libgl1-mesa-dri" in packages
    assert "python3-picamera2" in packages


def test_setup_installs_the_font_that_draws_names_the_bundled_one_cannot(tmp_path):
    """The bundled font lacks most Vietnamese letters ("Nguyễn"): DejaVu Sans Bold draws them, on a Pi or a laptop."""
    assert "fonts-dejavu-core" in _os_packages_asked(tmp_path, pi=False)


def _setup_with_a_boot_service(tmp_path: Path) -> dict[str, list[str]]:
    """setup.sh run as an update in a copy of the project, every OS package there and the venv's installs recorded,
    with the boot service as install-service.sh writes it ("current"), an older one ("old"), and none: what it said
    of the boot service each time."""
    for part in ("scripts/setup.sh", "scripts/install-service.sh", "systemd/companion.service"):
        (tmp_path / part).parent.mkdir(exist_ok=True)
        shutil.copy(ROOT / part, tmp_path / part)
    fake = tmp_path / "bin"
    fake.mkdir()
    (tmp_path / ".venv" / "bin").mkdir(parents=True)
    venv_ran = tmp_path / "venv-python-args"
    python = f'echo "$@" >> {venv_ran}'  # what the venv's python was asked to do
    for script, body in ((fake / "dpkg", "exit 0"), (tmp_path / ".venv" / "bin" / "python", python)):
        script.write_text(f"#!/bin/sh\n{body}\n")
        script.chmod(0o755)
    unit = tmp_path / "companion.service"
    env = {k: v for k, v in os.environ.items() if k != "SUDO_USER"} | {
        "PATH": f"{fake}:/usr/bin:/bin", "COMPANION_UNIT": str(unit),
        "PIPEWIRE_ALSA_CONF": "/nonexistent/99-pipewire-default.conf"}
    current = subprocess.run(["bash", str(tmp_path / "scripts" / "install-service.sh"), "--print"], env=env,
                             check=True, capture_output=True, text=True).stdout
    said = {}
    for name, text in (("current", current), ("old", current.replace("Conflicts=getty@tty1.service\n", "")),
                       ("none", None)):
        if text is None:
            unit.unlink()
        else:
            unit.write_text(text)
        r = subprocess.run(["bash", str(tmp_path / "scripts" / "setup.sh")], capture_output=True, text=True,
                           timeout=60, env=env)
        assert r.returncode == 0, r.stderr
        said[name] = [line for line in r.stderr.splitlines() if "at boot" in line]
    return said


def test_an_update_says_when_the_boot_service_installed_is_out_of_date(tmp_path):
    """Updating by the README (git pull, ./scripts/setup.sh) kept the boot service installed before, silently, though
    the unit had changed since (the console it owns: keys typed went to the login prompt behind the picture). Setup
    says, in one line, to install it again; a service as install-service.sh writes it, or none, is not mentioned."""
    said = _setup_with_a_boot_service(tmp_path)
    assert said["current"] == said["none"] == []
    assert said["old"] == ["setup: the service that starts the companion at boot is out of date (an update changed "
                           "it): run ./scripts/install-service.sh"]


def test_setup_writes_the_bytecode_after_installing(tmp_path):
    """The first start after an update compiled every module it imported: some two seconds more on a Pi, on a black
    screen then. Setup compiles the companion's packages once the install is done."""
    _setup_with_a_boot_service(tmp_path)  # setup.sh three times
    ran = (tmp_path / "venv-python-args").read_text().splitlines()
    installs = [i for i, line in enumerate(ran) if line.startswith("-m pip install")]
    compiles = [i for i, line in enumerate(ran) if line == "-m compileall -q companion vision hardware"]
    assert len(installs) == len(compiles) == 3 and all(c == i + 1 for i, c in zip(installs, compiles, strict=True))
