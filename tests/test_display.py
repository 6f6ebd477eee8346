"""The screen: a Pi booted into its desktop holds the screen the kiosk wants, and the message must say so."""

from __future__ import annotations

import pygame
import pytest

from companion import display, doctor
from companion.display import Display, DisplayError, desktop_running


def _proc(tmp_path, programs: dict[str, str]):
    for pid, comm in programs.items():
        (tmp_path / pid).mkdir()
        (tmp_path / pid / "comm").write_text(comm + "\n")
    (tmp_path / "self").mkdir()  # not a process number: skipped
    (tmp_path / "42").mkdir()  # a process gone before its comm was read
    return tmp_path


def test_the_desktop_program_is_found_among_the_processes(tmp_path):
    assert desktop_running(_proc(tmp_path, {"1": "systemd", "812": "labwc", "900": "bash"})) == "labwc"


def test_no_desktop_among_the_processes(tmp_path):
    assert desktop_running(_proc(tmp_path, {"1": "systemd", "900": "bash", "901": "labwc-helper"})) is None
    assert desktop_running(tmp_path / "missing") is None


def _refused(*_args, **_kw):
    raise pygame.error("Could not set video mode")


def test_a_screen_held_by_the_desktop_says_how_to_boot_to_the_console(monkeypatch):
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    monkeypatch.setattr(pygame.display, "set_mode", _refused)
    monkeypatch.setattr(display, "desktop_running", lambda: "labwc")
    with pytest.raises(DisplayError) as err:
        Display((800, 480), fullscreen=True)
    words = str(err.value)
    assert "the desktop (labwc) holds it" in words and "do_boot_behaviour B1" in words


def test_without_a_desktop_the_message_names_the_groups_and_the_dummy_driver(monkeypatch):
    monkeypatch.setattr(pygame.display, "set_mode", _refused)
    monkeypatch.setattr(display, "desktop_running", lambda: None)
    with pytest.raises(DisplayError) as err:
        Display((800, 480), fullscreen=True)
    assert "video and render groups" in str(err.value) and "desktop" not in str(err.value).split(".")[0]


def test_the_doctor_names_a_desktop_that_holds_a_pis_screen(monkeypatch):
    import hardware.buttons

    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    monkeypatch.setattr(hardware.buttons, "on_raspberry_pi", lambda: True)
    monkeypatch.setattr(display, "desktop_running", lambda: "labwc")
    lines = doctor._display()
    assert any(line.startswith("PROBLEM the desktop (labwc)") and "B1" in line for line in lines)
    monkeypatch.setattr(display, "desktop_running", lambda: None)
    assert not any(line.startswith("PROBLEM") for line in doctor._display())
