"""The cube-set teaching screen driven as at the table: NEXT/SELECT alone, taps, a camera, UNDO, a pulled plug.

The built-in set (``cubeset.default_set()``) plays the players' real set. Screens are rendered at 800x480 into
out/ (fritzo_cubes_*.png) to be looked at.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np
import pygame
import pytest

from companion.games.fritzo import cubeset
from companion.games.fritzo.cubeset import SET_SIZE, default_set
from companion.games.fritzo.geometry import FACES, OPPOSITE, orient
from companion.views import fritzo_cubes_view as view_mod
from companion.views import theme
from companion.views.fritzo_cubes_view import BACK, DONE_SECONDS, NET_AREA, NET_POS, CubeSetTeachMode, partial_path
from hardware.events import Button, ButtonEvent, Press
from vision.types import DieReading, TrayReading

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
OUT = Path(__file__).resolve().parents[1] / "out"
TRUTH = default_set()


def press(mode: CubeSetTeachMode, button: Button, kind: Press = Press.SHORT) -> bool:
    return mode.on_button(ButtonEvent(button, kind))


def highlighted(mode: CubeSetTeachMode) -> object:
    return mode.menu.items[mode.menu.index].value


def enter_face(mode: CubeSetTeachMode, colour: str) -> None:
    """NEXT until the colour is highlighted (as a player would), then SELECT."""
    for _ in range(len(mode.menu.items) + 1):
        if highlighted(mode) == colour:
            break
        press(mode, Button.NEXT)
    assert highlighted(mode) == colour, f"{colour} is not in the list"
    assert press(mode, Button.SELECT)


def enter_cube(mode: CubeSetTeachMode, faces: tuple[str, ...]) -> None:
    for colour in faces:
        enter_face(mode, colour)


def shot(mode: CubeSetTeachMode, name: str) -> pygame.Surface:
    surface = pygame.Surface((800, 480))
    mode.draw(surface)
    OUT.mkdir(exist_ok=True)
    pygame.image.save(surface, str(OUT / f"fritzo_cubes_{name}.png"))
    return surface


def marked_faces(surface: pygame.Surface) -> list[int]:
    """Faces whose net cell carries the accent frame of "this face now"."""
    s = min(NET_AREA.w // 3, NET_AREA.h // 4)
    out = []
    for f, (cx, cy) in NET_POS.items():
        frame = pygame.Rect(NET_AREA.x + cx * s, NET_AREA.y + cy * s, s, s).inflate(-4, -4).inflate(6, 6)
        if tuple(surface.get_at((frame.centerx, frame.y + 2)))[:3] == theme.ACCENT:
            out.append(f)
    return out


def stored(path: Path) -> list[tuple[str, tuple[str, ...]]]:
    return [(c.id, c.faces) for c in cubeset.load(path, size=None).cubes]


def truth(n: int) -> list[tuple[str, tuple[str, ...]]]:
    return [(c.id, c.faces) for c in TRUTH.cubes[:n]]


def test_net_puts_opposite_faces_apart_and_follows_the_face_order():
    assert sorted(NET_POS) == list(range(len(FACES)))
    for f, (x, y) in NET_POS.items():
        ox, oy = NET_POS[OPPOSITE[f]]
        assert abs(x - ox) + abs(y - oy) != 1, f"{FACES[f]} touches its opposite face in the net"


def test_whole_set_by_buttons_only(tmp_path):
    path = tmp_path / "fritzo-cubes.json"
    done: list[int] = []
    mode = CubeSetTeachMode("de", path=path, on_done=lambda: done.append(1))
    mode.update(0.0, 100.0)
    assert (mode.cube_number, mode.face) == (1, 0)
    for i, cube in enumerate(TRUTH.cubes):
        if i == 0:
            shot(mode, "start")
        enter_face(mode, cube.faces[0])
        enter_face(mode, cube.faces[1])
        if i == 0:
            assert mode.faces == list(cube.faces[:2]) and mode.face == 2
            shot(mode, "face3")
        for colour in cube.faces[2:]:
            enter_face(mode, colour)
        if i < SET_SIZE - 1:
            assert "gespeichert" in mode.message and not mode.message_bad
            assert stored(partial_path(path)) == truth(i + 1)  # stored after every cube
            assert not path.exists()  # the real set only when all 27 are in
    assert mode.done and mode.message == "Satz gespeichert"
    assert stored(path) == truth(SET_SIZE)
    assert cubeset.load(path).cubes == TRUTH.cubes  # the full, checked load the games use
    assert not partial_path(path).exists()
    shot(mode, "saved")
    mode.update(0.1, 100.1)
    assert done == []  # "Satz gespeichert" stays on screen first
    press(mode, Button.SELECT)
    press(mode, Button.SELECT)
    assert done == [1]


def test_saved_screen_leaves_by_itself(tmp_path):
    path = tmp_path / "set.json"
    cubeset.save(TRUTH, partial_path(path))  # all 27 stored, the set file not yet written (power cut)
    done: list[int] = []
    mode = CubeSetTeachMode("en", path=path, on_done=lambda: done.append(1))
    assert mode.done and mode.message == "Set saved"
    assert cubeset.load(path).cubes == TRUTH.cubes and not partial_path(path).exists()
    mode.update(0.0, 50.0)
    mode.update(DONE_SECONDS - 0.5, 50.0 + DONE_SECONDS - 0.5)
    assert done == []
    mode.update(0.5, 50.0 + DONE_SECONDS)
    mode.update(0.5, 51.0 + DONE_SECONDS)
    assert done == [1]


def test_duplicate_cube_is_named_and_entered_again(tmp_path):
    path = tmp_path / "set.json"
    mode = CubeSetTeachMode("de", path=path)
    for cube in TRUTH.cubes[:3]:
        enter_cube(mode, cube.faces)
    turned = orient(TRUTH.cubes[1].faces, 17)
    assert turned != TRUTH.cubes[1].faces
    enter_cube(mode, turned)
    assert mode.message == "Cube 4 gleicht Cube 2 (gedreht): Bitte diesen Cube noch einmal zeigen."
    assert mode.message_bad
    assert (mode.cube_number, mode.face, mode.faces) == (4, 0, [])
    assert stored(partial_path(path)) == truth(3)
    shot(mode, "duplicate")
    enter_cube(mode, TRUTH.cubes[3].faces)
    assert stored(partial_path(path)) == truth(4) and not mode.message_bad


def test_duplicate_message_in_english(tmp_path):
    mode = CubeSetTeachMode("en", path=tmp_path / "set.json")
    enter_cube(mode, TRUTH.cubes[0].faces)
    enter_cube(mode, orient(TRUTH.cubes[0].faces, 9))
    assert mode.message == "Cube 2 is cube 1 turned: please show this cube again."
    shot(mode, "duplicate_en")


def test_a_cube_is_checked_on_its_own(tmp_path):
    mode = CubeSetTeachMode("de", path=tmp_path / "set.json")
    bad = mode.check_cube(("red", "orange", "yellow", "green", "blue", "purple"))
    assert bad is not None and "purple" in bad and "Cube 1" in bad
    five = mode.check_cube(("red", "orange", "yellow", "green", "blue"))
    assert five == "Cube 1 braucht sechs Seiten mit je einer Farbe."
    assert mode.check_cube(TRUTH.cubes[0].faces) is None


def test_restart_continues_at_the_right_cube(tmp_path):
    path = tmp_path / "set.json"
    mode = CubeSetTeachMode("de", path=path)
    for cube in TRUTH.cubes[:5]:
        enter_cube(mode, cube.faces)
    enter_cube(mode, TRUTH.cubes[5].faces[:2])  # the cube in hand when the plug is pulled
    again = CubeSetTeachMode("de", path=path)
    assert (again.cube_number, again.face) == (6, 0)
    assert again.message == "Weiter mit Cube 6 (5 gespeichert)."
    shot(again, "resumed")
    for cube in TRUTH.cubes[5:]:
        enter_cube(again, cube.faces)
    assert again.done and cubeset.load(path).cubes == TRUTH.cubes


def test_corrupt_progress_is_kept_aside_and_teaching_starts_over(tmp_path):
    path = tmp_path / "set.json"
    partial_path(path).write_text("{not json", encoding="utf-8")
    mode = CubeSetTeachMode("de", path=path)
    assert mode.cube_number == 1 and mode.message_bad and "beiseitegelegt" in mode.message
    assert list(tmp_path.glob("set.partial.json.corrupt-*"))
    enter_cube(mode, TRUTH.cubes[0].faces)
    assert stored(partial_path(path)) == truth(1)


def test_an_old_set_stays_until_the_new_one_is_complete(tmp_path):
    path = tmp_path / "set.json"
    cubeset.save(TRUTH, path)
    before = path.read_text(encoding="utf-8")
    mode = CubeSetTeachMode("de", path=path)
    assert mode.cube_number == 1  # teaching again starts at cube 1
    enter_cube(mode, TRUTH.cubes[1].faces)
    assert path.read_text(encoding="utf-8") == before
    assert stored(partial_path(path)) == [("1", TRUTH.cubes[1].faces)]


class FakeCamera:
    """Answers each frame with what the test puts in front of it; counts the reads."""

    def __init__(self) -> None:
        self.dice: tuple[DieReading, ...] = ()
        self.calls = 0

    def show(self, *faces: str | None, confidence: float = 0.9) -> None:
        self.dice = tuple(DieReading(f, confidence, (10 + 60 * i, 10, 60 + 60 * i, 60)) for i, f in enumerate(faces))

    def __call__(self, frame: np.ndarray) -> TrayReading:
        self.calls += 1
        return TrayReading(self.dice, 5.0)


def test_camera_reading_preselects_the_colour(tmp_path):
    path = tmp_path / "set.json"
    cam = FakeCamera()
    mode = CubeSetTeachMode("de", path=path, reader=cam)
    frame = np.zeros((48, 64, 3), np.uint8)
    now = 10.0
    shot(mode, "camera_empty")

    def look(*faces: str | None, confidence: float = 0.9) -> None:
        nonlocal now
        now += 0.5
        mode.update(0.5, now)
        cam.show(*faces, confidence=confidence)
        mode.on_frame(frame)

    cube = TRUTH.cubes[0].faces
    for f, colour in enumerate(cube):
        look()  # the cube is being turned: the camera sees no cube for a moment
        look(colour)
        assert mode.camera_colour == colour and highlighted(mode) == colour
        if f == 2:
            shot(mode, "camera_seen")
        assert press(mode, Button.SELECT)  # the player confirms what the camera saw
    assert stored(partial_path(path)) == truth(1)

    second = TRUTH.cubes[1].faces
    look(second[0])
    press(mode, Button.SELECT)
    look(second[0])  # the same face still up: not taken for the next face
    assert mode.camera_colour is None and mode.faces == [second[0]]
    look(second[1], confidence=0.3)  # not sure: nothing is pre-selected
    assert mode.camera_colour is None and mode.camera_state == "unsure"
    look(second[1], second[2])
    assert mode.camera_state == "many" and mode.camera_colour is None
    shot(mode, "camera_many")
    look("purple")  # not a colour of the set
    assert mode.camera_state == "unsure"
    look(second[1])
    assert highlighted(mode) == second[1]
    cam.dice = (DieReading(None, 0.0, (10, 10, 60, 60), second[2]),)  # a colour not taught yet: its look's guess
    now += 0.5
    mode.update(0.5, now)
    mode.on_frame(frame)
    assert mode.camera_state == "guess" and highlighted(mode) == second[2]
    shot(mode, "camera_guess")
    look(second[1])

    calls = cam.calls
    mode.on_frame(frame)
    mode.on_frame(frame)  # same moment: the reader is not run on every frame
    assert cam.calls == calls

    # the player overrides the camera with NEXT; the camera does not snap back while it sees the same
    press(mode, Button.NEXT)
    moved = highlighted(mode)
    look(second[1])
    assert highlighted(mode) == moved


def test_undo_steps_back_one_face_and_into_the_cube_before(tmp_path):
    path = tmp_path / "set.json"
    mode = CubeSetTeachMode("de", path=path)
    first, second = TRUTH.cubes[0].faces, TRUTH.cubes[1].faces
    enter_face(mode, first[0])
    enter_face(mode, first[1])
    assert press(mode, Button.UNDO)
    assert mode.faces == [first[0]] and mode.face == 1 and highlighted(mode) == first[1]
    enter_cube(mode, first[1:])
    assert stored(partial_path(path)) == truth(1)
    enter_face(mode, second[0])
    press(mode, Button.UNDO)
    press(mode, Button.UNDO)  # back into cube 1, at its last face; cube 1 leaves the store
    assert (mode.cube_number, mode.face) == (1, 5) and mode.faces == list(first[:5])
    assert stored(partial_path(path)) == []
    shot(mode, "undo")
    press(mode, Button.SELECT)  # its last colour is highlighted: SELECT puts it back
    assert stored(partial_path(path)) == truth(1) and mode.cube_number == 2


def test_touch_picks_colours_and_steps_back(tmp_path):
    mode = CubeSetTeachMode("de", path=tmp_path / "set.json")
    rows = mode.menu.item_rects()
    values = [mode.menu.items[i].value for i in rows]
    assert values[-1] == BACK and len(values) == len(mode.colours) + 1  # every row visible, no scrolling
    colour = TRUTH.cubes[0].faces[0]
    assert mode.on_tap(rows[values.index(colour)].center)
    assert mode.faces == [colour]
    assert mode.on_tap(rows[values.index(BACK)].center)
    assert mode.faces == []
    assert not mode.on_tap((5, 5))


def test_a_failed_save_keeps_the_cube_in_hand(tmp_path, monkeypatch):
    path = tmp_path / "set.json"
    mode = CubeSetTeachMode("de", path=path)

    def full_card(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(view_mod.cubeset, "save", full_card)
    enter_cube(mode, TRUTH.cubes[0].faces)
    assert mode.message_bad and "Speicherkarte ist voll" in mode.message  # in the table's words, not the system's
    assert mode.cubes == [] and mode.faces == list(TRUTH.cubes[0].faces[:5])
    assert highlighted(mode) == TRUTH.cubes[0].faces[5]
    shot(mode, "save_failed")
    monkeypatch.undo()
    press(mode, Button.SELECT)  # try again
    assert stored(partial_path(path)) == truth(1)


@pytest.mark.parametrize("lang", ["de", "en"])
@pytest.mark.parametrize("camera", [False, True])
def test_every_face_renders(tmp_path, lang, camera):
    mode = CubeSetTeachMode(lang, path=tmp_path / "set.json", reader=FakeCamera() if camera else None)
    enter_cube(mode, TRUTH.cubes[0].faces)
    for f, colour in enumerate(TRUTH.cubes[1].faces):
        surface = shot(mode, f"{lang}_{'cam' if camera else 'btn'}_{FACES[f]}")
        mark = marked_faces(surface)
        assert mark == [f], f"the net marks {[FACES[m] for m in mark]} while asking for {FACES[f]}"
        enter_face(mode, colour)
    data = json.loads(partial_path(tmp_path / "set.json").read_text(encoding="utf-8"))
    assert [c["faces"] for c in data["cubes"]] == [list(TRUTH.cubes[0].faces), list(TRUTH.cubes[1].faces)]


def test_undo_with_nothing_to_step_back_or_held_leaves_the_cubes_kept(tmp_path):
    """The screen had no way out for the table before cube 27 (UNDO did nothing at a cube's first face, and the
    "back" entry was greyed): some 160 presses, or a keyboard's Escape. UNDO there leaves, and a held UNDO leaves
    at any face; the cubes taught so far stay stored and the next teaching goes on from them."""
    path = tmp_path / "set.json"
    left: list[int] = []
    mode = CubeSetTeachMode("en", path=path, on_done=lambda: left.append(1))
    assert press(mode, Button.UNDO) and left == [1]
    left.clear()
    mode = CubeSetTeachMode("en", path=path, on_done=lambda: left.append(1))
    enter_cube(mode, TRUTH.cubes[0].faces)
    enter_face(mode, TRUTH.cubes[1].faces[0])
    assert press(mode, Button.UNDO, Press.LONG) and left == [1]
    assert stored(partial_path(path)) == truth(1)
    again = CubeSetTeachMode("en", path=path)
    assert again.cube_number == 2



def test_a_finger_stops_the_cube_teaching_before_cube_27(tmp_path):
    """Only UNDO (short at a first face, held elsewhere) stopped the cube teaching early: a table with the touch
    screen alone could leave it after all 27 cubes only. The hint to stop is a button; the cubes so far are kept."""
    path = tmp_path / "set.json"
    left: list[int] = []
    mode = CubeSetTeachMode("en", path=path, on_done=lambda: left.append(1))
    enter_cube(mode, TRUTH.cubes[0].faces)
    enter_face(mode, TRUTH.cubes[1].faces[0])
    shot(mode, "stop_button")
    stop = mode.stop_rect
    assert stop is not None and stop.h >= 36 and not any(stop.colliderect(r) for r in mode.menu.item_rects().values())
    assert mode.on_tap(stop.center) and left == [1]
    assert stored(partial_path(path)) == truth(1)
