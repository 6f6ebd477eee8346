"""The screen: a Pi booted into its desktop holds the screen the kiosk wants, and the message must say so."""

from __future__ import annotations

import os

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


def test_the_doctor_says_plainly_that_the_dummy_driver_shows_nothing(monkeypatch):
    """"SDL_VIDEODRIVER=dummy" alone was all it said; the sound section says the dummy audio driver is silent."""
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    assert ("SDL_VIDEODRIVER=dummy: this driver draws nowhere, nothing will be shown on a screen. Unset the variable "
            "to see the companion.") in doctor._display()
    monkeypatch.setenv("SDL_VIDEODRIVER", "kmsdrm")
    assert "SDL_VIDEODRIVER=kmsdrm" in doctor._display()


def _red_spot(window: pygame.Surface) -> tuple[int, int]:
    import numpy as np

    arr = pygame.surfarray.array3d(window)
    xs, ys = np.nonzero((arr[..., 0] > 200) & (arr[..., 1] < 60) & (arr[..., 2] < 60))
    return int(xs.min()), int(ys.min())


@pytest.mark.parametrize(("rotate", "window", "spot"), [
    (0, (800, 480), (100, 50)),
    (180, (800, 480), (800 - 1 - 103, 480 - 1 - 53)),
    (90, (480, 800), (480 - 1 - 53, 100)),  # clockwise: the design's top edge is the panel's right edge
    (270, (480, 800), (50, 800 - 1 - 103)),
])
def test_a_turned_picture_lands_where_the_panel_shows_it_and_taps_find_their_way_back(rotate, window, spot):
    """A display mounted upside down, or a portrait panel on its side: the picture is turned to fill it, and a tap
    on what the family sees is the design point drawn there."""
    d = Display(window, fullscreen=False, rotate=rotate)
    try:
        d.canvas.fill((0, 0, 0))
        d.canvas.fill((255, 0, 0), pygame.Rect(100, 50, 4, 4))
        d.present()
        assert _red_spot(d.window) == spot
        for dx, dy in ((0, 0), (3, 3)):
            found = _red_spot(d.window)
            x, y = d.to_design((found[0] + dx, found[1] + dy))
            assert 100 <= x <= 103 and 50 <= y <= 53
    finally:
        d.close()


def test_a_portrait_panel_letterboxes_the_turned_picture_and_a_tap_on_the_border_is_none():
    d = Display((720, 1280), fullscreen=False, rotate=90)
    try:
        assert d.to_design((360, 5)) is None  # above the picture (1200 of the 1280 rows: 40 free at each end)
        for x, y in (d.to_design((360, 640)), d.finger_to_design(0.5, 0.5)):  # the middle is the middle
            assert abs(x - 400) <= 1 and abs(y - 240) <= 1
    finally:
        d.close()


@pytest.mark.parametrize("rotate", [0, 90, 180, 270])
def test_a_tap_is_a_finger_or_a_click_once_and_the_panels_last_pixel_counts(rotate):
    """A finger on the panel's last column (SDL's x = 1.0) was a pixel past the window and dropped; the teaching
    screen of ``companion teach`` took clicks only, and under the kiosk's KMSDRM a finger comes as a finger."""
    size = (800, 480) if rotate in (0, 180) else (480, 800)
    d = Display(size, fullscreen=False, rotate=rotate)
    try:
        corners = {d.finger_to_design(x, y) for x in (0.0, 1.0) for y in (0.0, 1.0)}
        assert None not in corners and corners == {(0, 0), (799, 0), (0, 479), (799, 479)}
        finger = pygame.event.Event(pygame.FINGERDOWN, x=0.5, y=0.5, touch_id=0, finger_id=0)
        copied = pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(size[0] // 2, size[1] // 2), button=1, touch=True)
        click = pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(size[0] // 2, size[1] // 2), button=1, touch=False)
        assert d.pointer_of(finger) is not None and d.pointer_of(click) is not None
        assert d.pointer_of(copied) is None  # SDL's copy of the finger: one tap, not two
        assert d.pointer_of(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_a)) is None
    finally:
        d.close()


def test_fingers_and_the_mouse_are_pointers_that_go_down_move_and_come_up():
    """The App takes a tap as a pointer lifts (a swipe is no tap): each finger its own pointer, SDL's mouse copy of
    a finger none, the mouse's left button one; a mouse moving with no button down, or another button, none."""
    d = Display((1280, 720), fullscreen=False)
    try:
        def finger(kind: int, fid: int) -> pygame.event.Event:
            return pygame.event.Event(kind, x=0.5, y=0.25, touch_id=3, finger_id=fid)

        down, moved, up = (d.pointer_of(finger(k, 1)) for k in (pygame.FINGERDOWN, pygame.FINGERMOTION,
                                                                  pygame.FINGERUP))
        assert [p[0] for p in (down, moved, up)] == ["down", "move", "up"] and down[2] == (400, 120)
        assert down[1] == up[1] != d.pointer_of(finger(pygame.FINGERDOWN, 2))[1]  # another finger
        mouse = {kind: pygame.event.Event(kind, pos=(640, 180), button=1, buttons=(1, 0, 0), touch=False)
                 for kind in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEMOTION, pygame.MOUSEBUTTONUP)}
        assert [d.pointer_of(ev) for ev in mouse.values()] == [("down", "mouse", (400, 120)),
                                                               ("move", "mouse", (400, 120)),
                                                               ("up", "mouse", (400, 120))]
        for ev in mouse.values():
            ev.touch = True  # SDL's copy of a finger
            assert d.pointer_of(ev) is None
        assert d.pointer_of(pygame.event.Event(pygame.MOUSEMOTION, pos=(640, 180), buttons=(0, 0, 0))) is None
        assert d.pointer_of(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(640, 180), button=3)) is None
    finally:
        d.close()


def test_only_quarter_turns():
    with pytest.raises(DisplayError, match="0, 90, 180, 270"):
        Display((800, 480), fullscreen=False, rotate=45)


def _drm(tmp_path, connectors: dict[str, tuple[str, str]]):
    tmp_path.mkdir(parents=True, exist_ok=True)
    for name, (status, modes) in connectors.items():
        (tmp_path / name).mkdir()
        (tmp_path / name / "status").write_text(status + "\n")
        (tmp_path / name / "modes").write_text(modes)
    (tmp_path / "card1").mkdir()  # the card itself: no status
    return tmp_path


def test_the_connected_panels_and_which_way_they_stand(tmp_path):
    from hardware.panels import Panel, connected_panels

    drm = _drm(tmp_path, {"card1-DSI-1": ("connected", "720x1280\n"),
                          "card1-HDMI-A-1": ("disconnected", ""),
                          "card1-HDMI-A-2": ("connected", "1920x1080\n1280x720\n"),
                          "card1-Writeback-1": ("unknown", "")})
    assert connected_panels(drm) == [Panel("DSI-1", 720, 1280), Panel("HDMI-A-2", 1920, 1080)]
    assert connected_panels(drm)[0].portrait and not connected_panels(drm)[1].portrait
    assert connected_panels(tmp_path / "missing") == []


def test_the_doctor_says_how_to_turn_the_picture_for_a_portrait_panel(monkeypatch):
    import hardware.panels
    from hardware.panels import Panel

    monkeypatch.setattr(hardware.panels, "connected_panels", lambda: [Panel("DSI-1", 720, 1280)])
    lines = doctor._display(0)
    assert "screen DSI-1: 720x1280 (portrait)" in lines
    assert any(line.startswith("PROBLEM DSI-1 stands upright") and "rotate = 90" in line for line in lines)
    assert not any(line.startswith("PROBLEM DSI-1") for line in doctor._display(90))  # turned already
    monkeypatch.setattr(hardware.panels, "connected_panels", lambda: [Panel("DSI-1", 800, 480)])
    assert "screen DSI-1: 800x480" in doctor._display(0) and not any("PROBLEM" in x for x in doctor._display(0))


PI5_DRM = {"card0-DSI-1": ("connected", "800x480\n"),  # drm-rp1-dsi: the 7" panel, a card of its own
           "card1-HDMI-A-1": ("disconnected", ""), "card1-HDMI-A-2": ("disconnected", ""),
           "card1-Writeback-1": ("unknown", "")}  # vc4; card2 (v3d, the GPU) has no connectors


def test_the_card_with_the_screen_is_the_one_kmsdrm_should_open(tmp_path):
    from hardware.panels import screen_card

    assert screen_card(_drm(tmp_path / "pi5", PI5_DRM)) == (0, "DSI-1")
    both = {**PI5_DRM, "card1-HDMI-A-1": ("connected", "1920x1080\n")}  # an HDMI monitor too: the DSI panel's
    assert screen_card(_drm(tmp_path / "both", both)) == (0, "DSI-1")
    hdmi = {"card1-HDMI-A-1": ("connected", "1920x1080\n"), "card1-HDMI-A-2": ("connected", "1920x1080\n")}
    assert screen_card(_drm(tmp_path / "hdmi", hdmi)) == (1, "HDMI-A-1")  # one card, two screens
    two = {"card1-HDMI-A-1": ("connected", "1920x1080\n"), "card3-HDMI-A-1": ("connected", "1920x1080\n")}
    assert screen_card(_drm(tmp_path / "two", two)) is None  # not clear: SDL chooses, as before
    assert screen_card(_drm(tmp_path / "none", {"card1-HDMI-A-1": ("disconnected", "")})) is None
    assert screen_card(tmp_path / "missing") is None


@pytest.fixture
def pi5_kiosk(monkeypatch, tmp_path):
    """A Pi 5 booted to the console with the 7" panel; pygame.display.init says which card SDL was told, then stops."""
    import hardware.panels

    monkeypatch.setattr(hardware.panels, "DRM_ROOT", _drm(tmp_path, PI5_DRM))
    monkeypatch.setattr(display, "on_raspberry_pi", lambda: True)
    for name in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER", "SDL_KMSDRM_DEVICE_INDEX"):
        monkeypatch.setenv(name, "")  # (put back as it was after the test, also where Display sets it)
        monkeypatch.delenv(name)
    told: list[str | None] = []

    def init() -> None:
        told.append(os.environ.get("SDL_KMSDRM_DEVICE_INDEX"))
        raise pygame.error("stop here")

    monkeypatch.setattr(pygame.display, "init", init)
    return told


def test_a_pi_5_kiosk_tells_kmsdrm_the_dsi_panels_card(pi5_kiosk, monkeypatch, caplog):
    """SDL's KMSDRM, left to guess among a Pi 5's cards, may open none of them: the kiosk showed nothing."""
    with caplog.at_level("INFO"), pytest.raises(DisplayError):
        Display((800, 480), fullscreen=True)
    assert pi5_kiosk == ["0"]
    assert "screen DSI-1 is on /dev/dri/card0: SDL_KMSDRM_DEVICE_INDEX=0" in caplog.text
    import hardware.buttons

    monkeypatch.setattr(hardware.buttons, "on_raspberry_pi", lambda: True)
    monkeypatch.delenv("SDL_KMSDRM_DEVICE_INDEX")
    assert any(line.startswith("screen DSI-1 is on /dev/dri/card0: the kiosk opens that card")
               for line in doctor._display())


@pytest.mark.parametrize("setting", [{"SDL_KMSDRM_DEVICE_INDEX": "2"}, {"SDL_VIDEODRIVER": "x11"},
                                     {"WAYLAND_DISPLAY": "wayland-0"}, {}])
def test_the_card_is_left_to_sdl_off_a_pi_or_where_the_user_chose(pi5_kiosk, monkeypatch, setting):
    if not setting:
        monkeypatch.setattr(display, "on_raspberry_pi", lambda: False)  # a laptop: nothing changes
    for name, value in setting.items():
        monkeypatch.setenv(name, value)
    with pytest.raises(DisplayError):
        Display((800, 480), fullscreen=True)
    assert pi5_kiosk == [setting.get("SDL_KMSDRM_DEVICE_INDEX")]


def _scaled_as_drawn_fresh(d: Display) -> tuple[bytes, bytes]:
    """The window's picture and what a fresh smoothscale of the turned canvas makes of it, as raw bytes."""
    _, rect = d._placement()
    picture = pygame.transform.rotate(d.canvas, -d.rotate) if d.rotate else d.canvas
    fresh = pygame.transform.smoothscale(picture, rect.size)
    shown = d.window.subsurface(rect).copy()
    return pygame.image.tobytes(shown, "RGB"), pygame.image.tobytes(fresh.convert(shown), "RGB")


@pytest.mark.parametrize(("window", "rotate"), [((720, 1280), 90), ((1280, 720), 0), ((720, 1280), 270)])
def test_a_scaled_picture_is_made_into_one_kept_surface_with_the_same_pixels(monkeypatch, window, rotate):
    """A panel other than 800x480 (the Pi 5's Touch Display 2 on its side, a laptop) scaled the picture into a new
    surface of some 3.4 MB every frame (over 20 ms a frame on a Pi): it is scaled into one kept surface now, and
    the window shows the same pixels as a fresh scaling, its letterbox the background."""
    from companion.views.theme import BG

    d = Display(window, fullscreen=False, rotate=rotate)
    try:
        made_into = []
        scale = pygame.transform.smoothscale

        def spy(surface, size, dest=None):
            made_into.append(dest)
            return scale(surface, size) if dest is None else scale(surface, size, dest)

        for i in range(3):
            d.canvas.fill((30, 30, 40))
            d.canvas.fill((255, 0, 0), pygame.Rect(100 + 50 * i, 50, 60, 40))  # a picture that changes
            pygame.draw.circle(d.canvas, (250, 250, 250), (400, 240 + 20 * i), 90)
            with monkeypatch.context() as m:
                m.setattr(pygame.transform, "smoothscale", spy)
                d.present()
            shown, fresh = _scaled_as_drawn_fresh(d)
            assert shown == fresh
        assert made_into[0] is not None and all(dest is made_into[0] for dest in made_into)
        _, rect = d._placement()
        border = (rect.x - 1, rect.y) if rect.x > 0 else (rect.x, rect.y - 1)
        assert d.window.get_at(border)[:3] == BG and d.window.get_at((0, 0))[:3] == BG
    finally:
        d.close()


def _drag_window(d: Display, size: tuple[int, int]) -> None:
    """What dragging a laptop's window does: SDL resizes the window (and pygame its surface), then VIDEORESIZE."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # the display module's window, as pygame-ce 2.5 has it
        pygame.Window.from_display_module().size = size
    d.resized(size)


def test_a_resize_takes_the_surface_pygame_resized_and_does_not_set_the_mode_again(monkeypatch):
    """pygame 2 resizes the window's surface itself; set_mode called again on VIDEORESIZE (as pygame 1 needed) made
    the window jump while it was dragged, and on some desktops back to the old size."""
    d = Display((1280, 720), fullscreen=False)
    try:
        monkeypatch.setattr(pygame.display, "set_mode", _refused)
        _drag_window(d, (1000, 900))
        assert d.window.get_size() == (1000, 900) and d.to_design((500, 450)) == (400, 240)
    finally:
        d.close()


def test_a_resized_window_gets_its_letterbox_and_picture_again():
    """The kept surface is made for one window: a resized one (a laptop's window dragged) is scaled for its new
    size and its letterbox filled again, not left black where the new window's border is."""
    from companion.views.theme import BG

    d = Display((1280, 720), fullscreen=False)
    try:
        d.canvas.fill((200, 30, 40))
        d.present()
        _drag_window(d, (1000, 900))
        d.window.fill((0, 0, 0))  # what a new window may hold
        d.present()
        _, rect = d._placement()
        assert rect.size == (1000, 600)
        assert d.window.get_at((500, 10))[:3] == BG and d.window.get_at((500, 890))[:3] == BG
        shown, fresh = _scaled_as_drawn_fresh(d)
        assert shown == fresh
    finally:
        d.close()


@pytest.mark.parametrize(("window", "rotate", "tap", "design"), [
    ((1024, 600), 0, (1018, 10), (799, 8)),  # the 12 px bar right of ≡
    ((1024, 600), 0, (3, 590), (0, 472)),  # the bar left of the hint bar
    ((480, 320), 0, (60, 310), (100, 479)),  # the 16 px strip under the hint bar
    ((480, 320), 0, (479, 0), (799, 0)),  # the panel's corner: both edges
    ((720, 1280), 90, (360, 1260), (799, 239)),  # a portrait panel turned: the design's right edge is at the bottom
])
def test_a_tap_on_the_letterbox_right_beside_the_picture_is_taken_at_its_edge(window, rotate, tap, design):
    """A finger that slips off the picture onto the bar beside it meant what is drawn at the picture's edge (≡, the
    hint bar): it was dropped, and the family saw a button that did not answer."""
    d = Display(window, fullscreen=False, rotate=rotate)
    try:
        assert d.to_design(tap) == design
        _, rect = d._placement()
        far = (rect.right + 30, rect.centery) if rect.x >= 30 else (rect.centerx, rect.bottom + 30)
        if far[0] < window[0] and far[1] < window[1]:
            assert d.to_design(far) is None  # further out on a wide border: no tap
    finally:
        d.close()


def _flips(monkeypatch) -> list[int]:
    flips: list[int] = []
    flip = pygame.display.flip
    monkeypatch.setattr(pygame.display, "flip", lambda: (flips.append(1), flip()))
    return flips


@pytest.mark.parametrize(("window", "picture"), [((1920, 1080), (160, 60, 1600, 960)),
                                                 ((3840, 2160), (320, 120, 3200, 1920)),
                                                 ((2560, 1440), (80, 0, 2400, 1440))])
def test_a_tv_shows_each_design_pixel_as_a_whole_square_of_its_pixels(monkeypatch, window, picture):
    """A TV over HDMI smoothscaled the picture to 2.25 times its size each frame (10-19 ms here, a Pi's whole frame
    budget beside the dice reader, and soft text): it is scaled by a whole number, the little left letterboxed."""
    d = Display(window, fullscreen=False)
    try:
        monkeypatch.setattr(pygame.transform, "smoothscale", _refused)
        d.canvas.fill((30, 30, 40))
        d.canvas.fill((255, 0, 0), pygame.Rect(100, 50, 1, 1))
        d.present()
        scale, rect = d._placement()
        assert tuple(rect) == picture and scale == int(scale)
        k = int(scale)
        assert {d.window.get_at((rect.x + 100 * k + i, rect.y + 50 * k + j))[:3]
                for i in range(k) for j in range(k)} == {(255, 0, 0)}
        assert d.window.get_at((rect.x + 101 * k, rect.y + 50 * k))[:3] == (30, 30, 40)
        assert d.to_design((window[0] // 2, window[1] // 2)) == (400, 240)
    finally:
        d.close()


def test_a_screen_a_whole_number_would_leave_much_of_is_fitted_smoothly():
    """1920x1200 is 2.4 times the picture: a whole 2 would leave a sixth of its width black; it is fitted."""
    d = Display((1920, 1200), fullscreen=False)
    try:
        assert tuple(d._placement()[1]) == (0, 24, 1920, 1152)
    finally:
        d.close()


def test_a_picture_that_stands_still_is_not_scaled_and_flipped_again(monkeypatch):
    """Every view draws each frame, mostly the same picture: it was scaled and flipped each time (on a TV the most
    of a frame). The same canvas is left standing, a changed one shown, and the same one again after a while (a
    window something covered gets its picture back)."""
    now = [0.0]
    d = Display((1920, 1080), fullscreen=False, clock=lambda: now[0])
    try:
        flips = _flips(monkeypatch)
        d.canvas.fill((30, 30, 40))
        d.present()
        d.present()
        assert len(flips) == 1
        d.canvas.fill((255, 0, 0), pygame.Rect(0, 0, 1, 1))  # one pixel changed
        d.present()
        assert len(flips) == 2 and d.window.get_at((160, 60))[:3] == (255, 0, 0)
        now[0] += display.REFRESH_SECONDS
        d.present()
        assert len(flips) == 3
        _drag_window(d, (1280, 720))  # a new window: drawn though the canvas stood still
        d.present()
        assert len(flips) == 4 and d.window.get_at((40, 0))[:3] == (255, 0, 0)
    finally:
        d.close()


@pytest.mark.parametrize(("native", "modes", "opened"), [
    ((3840, 2160), [(3840, 2160), (2560, 1440), (1920, 1080), (1280, 720), (1024, 768), (720, 480)], (1920, 1080)),
    ((3840, 2160), [(3840, 2160), (1280, 1024), (1024, 768)], (0, 0)),  # no 16:9 mode within reach: the native one
    ((1920, 1080), [(1920, 1080), (1280, 720)], (0, 0)),  # a Full HD TV: its own mode
    ((800, 480), [(800, 480)], (0, 0)),  # the Pi's panel
    ((720, 1280), [(720, 1280)], (0, 0)),  # the Touch Display 2, standing
    ((2160, 3840), [(2160, 3840), (1080, 1920), (1920, 1080)], (1080, 1920)),  # a 4K screen standing
])
def test_the_kiosk_opens_a_4k_tv_at_full_hd(native, modes, opened):
    assert display.kiosk_mode(native, modes) == opened


def test_the_kiosk_asks_a_4k_tv_for_its_full_hd_mode_and_falls_back_to_the_native_one(monkeypatch):
    """A 4K TV was opened at 3840x2160: some 35 MB to scale and show each frame for an 800x480 picture."""
    asked: list[tuple[int, int]] = []
    refuse = [False]
    set_mode = pygame.display.set_mode

    def mode(size, flags=0):
        asked.append(tuple(size))
        if refuse[0] and tuple(size) == (1920, 1080):
            raise pygame.error("mode refused")
        return set_mode(size if size != (0, 0) else (3840, 2160))  # the dummy driver: a window of that size

    monkeypatch.setattr(display, "on_raspberry_pi", lambda: False)
    monkeypatch.setattr(pygame.display, "get_desktop_sizes", lambda: [(3840, 2160)])
    monkeypatch.setattr(pygame.display, "list_modes", lambda *a, **k: [(3840, 2160), (1920, 1080), (1280, 720)])
    monkeypatch.setattr(pygame.display, "set_mode", mode)
    d = Display(fullscreen=True)
    assert asked == [(1920, 1080)] and d.window.get_size() == (1920, 1080)
    d.close()
    asked.clear()
    refuse[0] = True  # a TV that lists the mode and will not take it: its own, as before
    d = Display(fullscreen=True)
    assert asked == [(1920, 1080), (0, 0)] and d.window.get_size() == (3840, 2160)
    d.close()


def test_the_doctor_says_a_small_panel_shows_the_picture_too_small_for_the_table(monkeypatch):
    """A 3.5" 480x320 panel: "screen DPI-1: 480x320" and nothing more, and the family wondered why nobody could
    read it."""
    import hardware.panels
    from hardware.panels import Panel

    def problems(panel: Panel, rotate: int = 0) -> list[str]:
        monkeypatch.setattr(hardware.panels, "connected_panels", lambda: [panel])
        return [line for line in doctor._display(rotate) if line.startswith("PROBLEM")]

    small = problems(Panel("DPI-1", 480, 320))
    assert len(small) == 1 and "at 60 %" in small[0] and "800x480 or 1024x600" in small[0]
    assert problems(Panel("HDMI-A-1", 640, 480)) and "at 80 %" in problems(Panel("HDMI-A-1", 640, 480))[0]
    for fits in (Panel("DSI-1", 800, 480), Panel("DSI-1", 1024, 600), Panel("HDMI-A-1", 1920, 1080)):
        assert problems(fits) == []
    assert problems(Panel("DSI-1", 720, 1280), 90) == []  # the Touch Display 2 on its side: 150 %
    upright = problems(Panel("DSI-1", 480, 800))  # standing, not turned: that is the one thing to say
    assert len(upright) == 1 and "stands upright" in upright[0]
    assert len(problems(Panel("DSI-1", 320, 480), 90)) == 1  # a small one turned: still small


def test_the_kiosk_tells_the_table_when_its_screen_is_too_small(monkeypatch):
    set_mode = pygame.display.set_mode
    monkeypatch.setattr(pygame.display, "set_mode", lambda size, flags=0: set_mode((480, 320)))
    d = Display(fullscreen=True)
    try:
        assert "(480x320)" in d.small_words("en") and "60 %" in d.small_words("de")
    finally:
        d.close()
    monkeypatch.setattr(pygame.display, "set_mode", lambda size, flags=0: set_mode((1024, 600)))
    d = Display(fullscreen=True)
    try:
        assert d.small_words("en") is None
    finally:
        d.close()


@pytest.mark.parametrize(("mode", "fullscreen", "desktop", "turned"), [
    ((720, 1280), True, None, 90),  # the Touch Display 2 on the console: on its side at the table
    ((480, 800), True, None, 90),
    ((800, 480), True, None, 0),
    ((1920, 1080), True, None, 0),
    ((720, 1280), True, "wayland-0", 0),  # a desktop turns its screens itself
    ((480, 800), False, None, 0),  # a window dragged tall
])
def test_rotate_auto_turns_a_kiosk_screen_that_comes_taller_than_wide(monkeypatch, mode, fullscreen, desktop, turned):
    """A portrait panel with rotate = 0 showed the picture in a third of it (36 % of a 480x800 one), and only
    ``companion doctor`` said why: "auto", the default, turns it."""
    set_mode = pygame.display.set_mode
    monkeypatch.setattr(pygame.display, "set_mode", lambda size, flags=0: set_mode(mode))
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    if desktop:
        monkeypatch.setenv("WAYLAND_DISPLAY", desktop)
    d = Display(mode, fullscreen=fullscreen, rotate="auto")
    try:
        assert d.rotate == turned
        d.canvas.fill((0, 0, 0))
        d.canvas.fill((255, 0, 0), pygame.Rect(100, 50, 4, 4))
        d.present()
        x, y = _red_spot(d.window)
        assert d.to_design((x + 1, y + 1)) in {(100 + i, 50 + j) for i in range(4) for j in range(4)}
        if turned:  # the panel's width, and most of its height: the picture's 800 design px along its long side
            rect = d._placement()[1]
            assert rect.w == mode[0] and rect.h >= 0.9 * mode[1]
    finally:
        d.close()


def test_the_doctor_says_rotate_auto_turns_a_portrait_panel():
    import hardware.panels
    from hardware.panels import Panel

    mp = pytest.MonkeyPatch()
    try:
        mp.setattr(hardware.panels, "connected_panels", lambda: [Panel("DSI-1", 720, 1280)])
        lines = doctor._display("auto")
        assert not any(line.startswith("PROBLEM") for line in lines)
        assert any("turns the picture by 90 degrees" in line and "rotate = 270" in line for line in lines)
        assert any(line.startswith("PROBLEM DSI-1 stands upright") for line in doctor._display(0))  # set by hand
    finally:
        mp.undo()
