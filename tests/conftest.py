"""Shared test set-up: headless SDL, private XDG folders, and where the real dice photos are."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("GPIOZERO_PIN_FACTORY", "mock")

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "out"


def datasets_dir() -> Path:
    return Path(os.environ.get("COMPANION_DATASETS", ROOT.parent / "shared" / "datasets"))


@pytest.fixture
def datasets() -> Path:
    d = datasets_dir()
    if not d.is_dir():
        pytest.skip(f"the real dice photos are not here ({d}); CI has them beside the project as ../shared/datasets")
    return d


@pytest.fixture(autouse=True)
def private_xdg(tmp_path, monkeypatch):
    """No test reads or writes the developer's own config, profiles or saved games."""
    for var, sub in (("XDG_CONFIG_HOME", "config"), ("XDG_DATA_HOME", "data"), ("XDG_STATE_HOME", "state")):
        monkeypatch.setenv(var, str(tmp_path / "xdg" / sub))


@pytest.fixture(autouse=True)
def unknown_boot(monkeypatch):
    """No test reads the machine's boot: its clock runs on while the tests set the wall clock (games' times compare
    by the wall clock, as where /proc has no boot id); tests of the boot's clock set their own."""
    from companion import boot

    monkeypatch.setattr(boot, "boot_id", lambda: None)


@pytest.fixture(autouse=True)
def stopped_screen_not_kept(monkeypatch):
    """A companion stopping on an error keeps its words on the screen ten seconds: not a test's (the ones about
    that screen count what was kept)."""
    from companion import runtime

    monkeypatch.setattr(runtime, "STOPPED_SECONDS", 0.0)


@pytest.fixture
def out_dir() -> Path:
    """Screenshots land in out/ (git-ignored) so a person can look at them."""
    OUT.mkdir(exist_ok=True)
    return OUT
