"""A child at the buttons: thousands of random presses, long presses, taps and keys, in both languages, with time
jumping as it does when nobody touches anything. Any exception here would end the evening (``companion run`` stops
on one), so none may escape, whatever screen the presses lead to."""

from __future__ import annotations

import queue
import random

import pygame
import pytest

from companion.app import App
from companion.config import Config
from companion.display import Display
from companion.games_ui import register_all
from hardware.events import Button, ButtonEvent, Press

register_all()

KEYS = {pygame.K_a: "a", pygame.K_b: "ß", pygame.K_SPACE: " ", pygame.K_1: "1", pygame.K_BACKSPACE: "",
        pygame.K_RETURN: "\r", pygame.K_ESCAPE: "", pygame.K_u: "u", pygame.K_t: "t", pygame.K_RIGHT: "",
        pygame.K_UP: ""}
#: the buttons a game is played with come up more often, as at the table
WEIGHTS = {Button.NEXT: 4, Button.SELECT: 4, Button.ROLL: 3, Button.UNDO: 1.5}


class Child:
    """Presses, holds, taps and types at random on an app whose clocks it moves."""

    def __init__(self, tmp_path, seed: int) -> None:
        self.rng = random.Random(seed)
        self.now = 0.0
        cfg = Config()
        cfg.players = ["Anna", "Ben", "Carla"][:self.rng.randrange(0, 4)]
        cfg.language = ("en", "de")[seed % 2]
        self.app = App(cfg, state_dir=tmp_path, display=Display((800, 480), fullscreen=False), use_camera=False,
                       clock=lambda: self.now, wall_clock=lambda: 1.9e9 + self.now)

    def step(self) -> None:
        rng, events = self.rng, []
        r = rng.random()
        if r < 0.5:
            button = rng.choices(list(Button), [WEIGHTS.get(b, 1) for b in Button])[0]
            self.app.on_button(ButtonEvent(button, Press.LONG if rng.random() < 0.1 else Press.SHORT))
        elif r < 0.55:
            key = rng.choice(list(KEYS))
            events = [pygame.event.Event(kind, key=key, mod=0, unicode=KEYS[key], scancode=0)
                      for kind in (pygame.KEYDOWN, pygame.KEYUP)]
        elif r < 0.62:
            pos = (rng.randrange(800), rng.randrange(480))  # a click: taken as the button comes up
            events = [pygame.event.Event(kind, pos=pos, button=1)
                      for kind in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP)]
        dt = rng.choice([0.03, 0.03, 0.5, 5.0])
        self.now += dt
        self.app.frame(dt, events)


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_random_presses_never_raise(tmp_path, seed):
    child = Child(tmp_path, seed)
    screens = set()
    for _ in range(2500):
        screens.add(type(child.app.mode).__name__)
        child.step()
    assert len(screens) >= 3, screens  # the presses got somewhere: menus, a setup, a game


class ReadingsOnly:
    """The dice watcher as the app sees it, with no camera behind it: the test puts readings in its queue."""

    def __init__(self) -> None:
        self.readings: queue.Queue = queue.Queue()
        self.auto = False
        self.error = None
        self.latest_frame = self.last_rest_frame = self.source = None

    def request(self) -> None: ...

    def throw(self) -> None: ...

    def set_reader(self, reader) -> None: ...

    def why_waiting(self, now: float) -> str | None:
        return None

    rolls = False

    def rearm(self) -> None: ...

    def cancel(self) -> None: ...


@pytest.mark.parametrize("seed", [1, 2])
def test_random_presses_with_camera_readings_in_between_never_raise(tmp_path, seed):
    """As above, with the camera's readings arriving as the app delivers them, each frame: any number of dice (none,
    too few, too many), faces of the game's dice set, unsure ones (with the reader's guess or without)."""
    from companion import dicesets
    from vision.types import DieReading, TrayReading

    child = Child(tmp_path, seed)
    app, rng = child.app, child.rng
    app.watcher = ReadingsOnly()
    read = 0
    for _ in range(2500):
        if app.session is not None:
            app.session.camera_ready = True
            if rng.random() < 0.3:
                dice_set = app.entry.dice_set
                faces = [1, 2, 3, 4, 5, 6] if dice_set == "d6" else dicesets.load(dice_set).face_names()
                dice = []
                for _ in range(rng.choice([0, 1, 2, 4, 5, 6, 6, 12])):
                    face = rng.choice([*faces, None])
                    guess = rng.choice([*faces, None]) if face is None else None  # a question starts there
                    dice.append(DieReading(face, rng.random(), (0, 0, 9, 9), guess))
                app.watcher.readings.put(TrayReading(tuple(dice)))
                read += 1
        child.step()
    assert read > 100  # readings reached the games
