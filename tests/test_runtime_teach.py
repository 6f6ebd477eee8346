"""``companion teach SET`` on a window: the loop that joins the frame source, the keys and the teaching screen.

The screen itself is tested in test_taught_teach.py; here the keys a player presses reach it, ROLL shows the next
photo, ESC leaves, and a fault while teaching ends in one line of words, never a traceback, with the answers
given so far kept.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import pygame
import pytest
from synth_dice import write_examples

from companion import profiles, runtime
from companion.config import Config
from companion.views import teach_view
from hardware.buttons import DOUBLE_PRESS


def _press(key: int) -> list[pygame.event.Event]:
    return [pygame.event.Event(pygame.KEYDOWN, key=key), pygame.event.Event(pygame.KEYUP, key=key)]


def _run(monkeypatch, tmp_path, script: Callable[[teach_view.TeachView], list[pygame.event.Event]],
         faces: list[str], lang: str = "de") -> tuple[int, list[teach_view.TeachView]]:
    """Run the loop on a folder of one photo per face, with ``script`` deciding each frame's events from what the
    screen shows; a minute is a hang (the folder shows 15 photos a second, and a busy machine reads fewer)."""
    write_examples(tmp_path / "photos", "noch-x-mal", faces, seed=5)
    views: list[teach_view.TeachView] = []

    class Watched(teach_view.TeachView):
        def __init__(self, *args, **kwargs) -> None:
            super().__init__(*args, **kwargs)
            views.append(self)

    monkeypatch.setattr(teach_view, "TeachView", Watched)
    deadline = time.monotonic() + 60
    pressed_at = [float("-inf")]

    def events() -> list[pygame.event.Event]:
        if time.monotonic() > deadline:
            pytest.fail("the teaching loop never ended")
        if time.monotonic() - pressed_at[0] < DOUBLE_PRESS + 0.05:  # a person's presses: not a double tap
            return []
        out = script(views[0])
        if out:
            pressed_at[0] = time.monotonic()
        return out

    monkeypatch.setattr(pygame.event, "get", events)
    cfg = Config(language=lang)
    cfg.display.fullscreen = False
    cfg.display.fps = 200  # the test need not wait for a person's frame rate
    code = runtime.run_teach(cfg, "noch-x-mal", source_spec=f"folder:{tmp_path / 'photos'}")
    return code, views


def test_keys_teach_roll_shows_the_next_photo_and_escape_leaves(monkeypatch, tmp_path):
    """Answer the die, ROLL to the next photo (without ROLL the one die stays answered and nothing more is asked),
    answer that one, ESC: both answers are in the saved profile."""
    answered = []

    def script(view: teach_view.TeachView) -> list[pygame.event.Event]:
        if len(answered) == 2:
            return _press(pygame.K_ESCAPE)
        if view.crop is not None:
            answered.append(view.die.centre)
            return _press(pygame.K_RETURN)  # SELECT: the face first in the list
        if view.tray_done:
            return _press(pygame.K_SPACE)  # ROLL
        return []

    code, _ = _run(monkeypatch, tmp_path, script, ["red", "blue"])
    assert code == 0
    assert sum(profiles.load_profile("noch-x-mal").counts().values()) == 2
    # each answer keeps the camera it came from, as the menu's teaching keeps it (the camera check's "taught with
    # another camera"): `companion teach` recorded the frame size alone
    assert [place.camera for _, place in profiles.taught_places("noch-x-mal")] == ["folder", "folder"]


def test_a_fault_while_teaching_is_one_line_of_words_and_keeps_the_answers(monkeypatch, tmp_path, capsys):
    def script(view: teach_view.TeachView) -> list[pygame.event.Event]:
        if view.crop is not None and not view.profile.counts():
            return _press(pygame.K_RETURN)
        if view.profile.counts():
            raise RuntimeError("a fault while teaching")
        return []

    code, _ = _run(monkeypatch, tmp_path, script, ["green"])
    assert code == 1
    err = capsys.readouterr().err
    assert "Traceback" not in err and "every face answered is saved" in err
    assert sum(profiles.load_profile("noch-x-mal").counts().values()) == 1


def test_without_a_camera_the_built_in_tray_throws_the_sets_own_dice(monkeypatch):
    """``companion teach noch-x-mal`` on a laptop showed the tray's pip dice and asked for their colour: answered,
    the colours were taught from pip dice. It throws the set's dice, as the main menu's "Teach dice" does."""
    from hardware.synthetic import SyntheticTray

    shown: list[object] = []
    show = SyntheticTray.show
    monkeypatch.setattr(SyntheticTray, "show",
                        lambda self, key, *a, **k: (shown.append(key), show(self, key, *a, **k))[1])
    monkeypatch.setattr(pygame.event, "get", lambda: _press(pygame.K_ESCAPE))
    cfg = Config()
    cfg.display.fullscreen = False
    assert runtime.run_teach(cfg, "noch-x-mal", source_spec="synthetic:3") == 0
    assert shown == ["noch-x-mal"]


@pytest.mark.parametrize(("lang", "said"), [("de", "Ein Foto von noch-x-mal schon angelernt; neue Antworten"),
                                            ("en", "1 photo of noch-x-mal taught already; new answers")])
def test_teaching_a_set_taught_before_says_the_answers_are_added(monkeypatch, tmp_path, capsys, lang, said):
    """In the config's language: a German family read it in English."""
    import numpy as np

    from vision.taught import DIM

    profile = profiles.fresh_profile("noch-x-mal")
    profile.add_vector("red", np.ones(DIM, np.float32))
    profiles.save_profile(profile)
    code, _ = _run(monkeypatch, tmp_path, lambda view: _press(pygame.K_ESCAPE), ["red"], lang)
    assert code == 0 and said in capsys.readouterr().out


def test_a_mistyped_set_is_said_before_a_window_or_camera_opens(monkeypatch):
    """``companion teach echt``: the window opened and a warning was logged before the one line that says which
    sets there are."""
    from companion import display
    from companion.errors import DiceSetError
    from hardware import sources

    opened: list[str] = []
    monkeypatch.setattr(display, "Display", lambda *a, **k: opened.append("display"))
    monkeypatch.setattr(sources, "open_source", lambda *a, **k: opened.append("camera"))
    cfg = Config()
    cfg.display.fullscreen = False
    with pytest.raises(DiceSetError, match="echt-spitze"):
        runtime.run_teach(cfg, "echt", source_spec="synthetic:3")
    assert opened == []


def test_a_finger_taps_the_teaching_screen_as_it_lifts_and_a_swipe_taps_nothing(monkeypatch, tmp_path):
    """The teaching screen took a finger at the touch, unlike every screen of ``companion run``: a finger sliding
    off a face's row answered it. A tap is taken as the finger lifts where it touched (the panel's finger events,
    with SDL's mouse copies, which count once)."""
    taps: list[tuple[int, int]] = []
    monkeypatch.setattr(teach_view.TeachView, "on_tap", lambda self, pos: taps.append(pos))

    def finger(kind: int, pos: tuple[int, int]) -> list[pygame.event.Event]:
        ev = pygame.event.Event(kind, x=(pos[0] + 0.5) / 800, y=(pos[1] + 0.5) / 480, dx=0.0, dy=0.0, touch_id=1,
                                finger_id=0, pressure=1.0)
        mouse = {pygame.FINGERDOWN: pygame.MOUSEBUTTONDOWN, pygame.FINGERUP: pygame.MOUSEBUTTONUP}.get(kind)
        return [ev] if mouse is None else [ev, pygame.event.Event(mouse, pos=pos, button=1, touch=True)]

    steps = [finger(pygame.FINGERDOWN, (400, 200)), finger(pygame.FINGERMOTION, (400, 320)),
             finger(pygame.FINGERUP, (400, 320)),  # a swipe
             finger(pygame.FINGERDOWN, (300, 100)), finger(pygame.FINGERUP, (305, 104)),  # a tap, rolling a little
             _press(pygame.K_ESCAPE)]
    code, _ = _run(monkeypatch, tmp_path, lambda view: steps.pop(0) if steps else [], ["red"])
    assert code == 0 and taps == [(300, 100)]
