"""The window or kiosk screen: everything is drawn on an 800x480 design canvas, then scaled to fit.

On a Raspberry Pi without a desktop SDL drives the screen through KMSDRM; there we go fullscreen (kiosk). On a laptop
we open a resizable window. Scaling keeps the aspect ratio (letterbox), and taps are mapped back to design
coordinates, so every view works in one coordinate system whatever the screen. The picture can be turned by
quarter turns (``display.rotate``: a screen mounted upside down, a portrait panel on its side); taps are turned back.
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Callable, Hashable
from pathlib import Path

import pygame

from companion.config import AUTO_ROTATE, ROTATIONS
from companion.errors import CompanionError
from companion.views.theme import BG, DESIGN_SIZE
from hardware.buttons import on_raspberry_pi
from hardware.panels import screen_card

log = logging.getLogger(__name__)

#: a finger or the mouse's left button: what it does ("down", "move" or "up"), which one (a finger of its own, or
#: the mouse), and where in design pixels (None on the letterbox border)
Pointer = tuple[str, Hashable, tuple[int, int] | None]

_FINGER = {pygame.FINGERDOWN: "down", pygame.FINGERMOTION: "move", pygame.FINGERUP: "up"}
_MOUSE = {pygame.MOUSEBUTTONDOWN: "down", pygame.MOUSEMOTION: "move", pygame.MOUSEBUTTONUP: "up"}


def pointer_of(ev: pygame.event.Event, mouse_pos: Callable[[tuple[int, int]], tuple[int, int] | None],
               finger_pos: Callable[[float, float], tuple[int, int] | None]) -> Pointer | None:
    """A finger's or the mouse's left button's event as a :data:`Pointer`; None for other events and for the mouse
    events SDL copies from a finger (a finger counts once). The App takes a tap where a pointer comes up near where
    it went down: taken at the touch, a swipe was a tap where it began. Under the kiosk's KMSDRM a finger comes only
    as a finger: a screen that looked for mouse clicks alone took no taps."""
    if (kind := _FINGER.get(ev.type)) is not None:
        return kind, ("finger", getattr(ev, "touch_id", 0), getattr(ev, "finger_id", 0)), finger_pos(ev.x, ev.y)
    if (kind := _MOUSE.get(ev.type)) is None or getattr(ev, "touch", False):
        return None
    if kind == "move" and not getattr(ev, "buttons", (0,))[0] or kind != "move" and ev.button != 1:
        return None  # the pointer moving alone, or another button
    return kind, "mouse", mouse_pos(ev.pos)


#: how far out on the letterbox (window pixels) a tap is still taken at the picture's nearest edge: about a
#: fingertip's slip on a 7" panel (3-4 mm), less than the bars of a laptop's window or a portrait panel's ends
EDGE_REACH = 24


#: a picture scaled twice or more is scaled by a whole number (every design pixel a square of window pixels: sharp
#: text, a quarter of smoothscale's cost, and a TV's 1920x1080 took 10-19 ms a frame here, a Pi's whole budget
#: beside the dice reader) where that keeps at least this share of the width a fit to the screen would have: a TV's
#: 1920x1080 (2 of 2.25: 1600x960) and 3840x2160 (4 of 4.5); a 1920x1200 monitor (2 of 2.4) is fitted smoothly
WHOLE_SCALE_KEEPS = 0.85

#: the kiosk's screen at most this (long side, short side): a 4K TV opened at its native 3840x2160 made every frame
#: some 35 MB to scale and show; its 1920x1080 mode shows the same 800x480 picture as sharp, the TV scaling it
KIOSK_MODE_MAX = (1920, 1080)

#: a picture that has not changed is shown again, scaled and flipped, after this long anyway (seconds): a window
#: something covered gets its picture back though the canvas stood still
REFRESH_SECONDS = 1.0


#: the least share of the 800x480 design's size a screen may show it at: a 3.5" 480x320 panel shows it at 60 %,
#: the far end of the table's letters (3.8 mm on the Pi's 7" panel) at 1.8 mm, its buttons too small for a finger
SMALL_SCALE = 0.9


def picture_scale(window: tuple[int, int], rotate: int = 0) -> float:
    """How large a screen of ``window`` pixels shows the 800x480 picture turned by ``rotate`` (1.0: the Pi's panel)."""
    w, h = DESIGN_SIZE
    if rotate in (90, 270):
        w, h = h, w
    return min(window[0] / w, window[1] / h)


def small_screen_words(window: tuple[int, int], scale: float, lang: str) -> str:
    """What the table is told where a screen shows the picture smaller than :data:`SMALL_SCALE`: and what to use."""
    from companion.i18n import t

    return t("core.screen_too_small", lang, size=f"{window[0]}x{window[1]}", percent=round(scale * 100))


def auto_rotation(window: tuple[int, int], kiosk: bool) -> int:
    """``display.rotate = "auto"``: 90 where the kiosk's screen comes taller than wide, else 0. On the console the
    panel's own scan-out comes as it is: a taller one is a portrait panel lying on its side at the table (the Touch
    Display 2). A desktop turns its screens itself, and a window is dragged to any shape: those are not turned."""
    return 90 if kiosk and not _in_desktop_session() and window[1] > window[0] else 0


def kiosk_mode(native: tuple[int, int], modes: list[tuple[int, int]]) -> tuple[int, int]:
    """The mode the kiosk opens: the screen's native one (what ``set_mode((0, 0))`` takes), or on a screen larger
    than :data:`KIOSK_MODE_MAX` (a 4K TV) the largest listed mode within it of the same shape (a 16:9 TV's
    1920x1080; not 4:3 ones, which a TV stretches). (0, 0), the native one, where none fits."""
    long_max, short_max = KIOSK_MODE_MAX
    nw, nh = native
    if nw <= 0 or nh <= 0 or (max(nw, nh) <= long_max and min(nw, nh) <= short_max):
        return 0, 0
    fitting = [(w, h) for w, h in modes
               if max(w, h) <= long_max and min(w, h) <= short_max and (w > h) == (nw > nh)
               and abs(w * nh - h * nw) <= 0.02 * nw * nh and max(w, h) >= max(DESIGN_SIZE)
               and min(w, h) >= min(DESIGN_SIZE)]
    return max(fitting, key=lambda m: m[0] * m[1], default=(0, 0))


class DisplayError(CompanionError):
    """The screen cannot be opened."""


#: programs that hold the screen while a desktop runs (Raspberry Pi OS: labwc since 2024, wayfire before, Xorg with
#: LXDE before that); SDL's KMSDRM cannot draw beside them
DESKTOPS = ("labwc", "wayfire", "Xorg", "weston", "sway", "gnome-shell", "kwin_wayland", "lxsession")

#: what to do when a desktop holds the screen the kiosk wants, in the table's setup words
BOOT_TO_CONSOLE = ("for the kiosk, boot to the console: sudo raspi-config nonint do_boot_behaviour B1, then "
                   "sudo reboot (or start the companion from the desktop: .venv/bin/companion run)")


def desktop_running(proc: Path = Path("/proc")) -> str | None:
    """The desktop program running on this machine, if any.

    Raspberry Pi OS with desktop boots into it, and then the kiosk service's KMSDRM finds the screen taken and
    stops; the message that follows should name the cause, not only SDL's words for it.
    """
    try:
        entries = list(proc.iterdir())
    except OSError:
        return None
    for entry in entries:
        if not entry.name.isdigit():
            continue
        try:
            name = (entry / "comm").read_text().strip()
        except OSError:  # gone meanwhile, or not ours to read
            continue
        if name in DESKTOPS:
            return name
    return None


def _in_desktop_session() -> bool:
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


#: SDL's choice of /dev/dri/cardN for KMSDRM (a hint SDL reads from the environment, SDL 2.24 and newer)
KMSDRM_INDEX = "SDL_KMSDRM_DEVICE_INDEX"


def kmsdrm_card() -> tuple[int, str] | None:
    """The card the kiosk's KMSDRM should open, where the companion is to choose it: only on a Pi, only where SDL
    draws through KMSDRM (no desktop session, no other driver asked for) and only where the user did not set
    SDL_KMSDRM_DEVICE_INDEX. A Pi 5's 7" panel is a card of its own that SDL may not open by itself."""
    if not on_raspberry_pi() or _in_desktop_session() or KMSDRM_INDEX in os.environ:
        return None
    if os.environ.get("SDL_VIDEODRIVER", "kmsdrm").casefold() != "kmsdrm":
        return None
    return screen_card()


class Display:
    def __init__(self, size: tuple[int, int] = DESIGN_SIZE, fullscreen: bool | str = "auto",
                 title: str = "Table companion", rotate: int | str = 0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        if rotate != AUTO_ROTATE and (isinstance(rotate, bool) or rotate not in ROTATIONS):
            raise DisplayError(f"the picture can be turned by {', '.join(map(str, ROTATIONS))} degrees or "
                               f"{AUTO_ROTATE!r}, not {rotate}")
        if fullscreen == "auto":
            fullscreen = on_raspberry_pi() and not _in_desktop_session()
        if (card := kmsdrm_card()) is not None:
            os.environ[KMSDRM_INDEX] = str(card[0])
            log.info("screen %s is on /dev/dri/card%d: %s=%d", card[1], card[0], KMSDRM_INDEX, card[0])
        try:
            pygame.display.init()
            pygame.font.init()
            pygame.display.set_caption(title)
            if fullscreen:
                self.window = self._open_kiosk()
                pygame.mouse.set_visible(False)  # a touch kiosk shows no pointer
            else:
                self.window = pygame.display.set_mode(size, pygame.RESIZABLE)
        except pygame.error as exc:
            desktop = None if _in_desktop_session() else desktop_running()
            if desktop:
                raise DisplayError(f"no screen to draw on ({exc}): the desktop ({desktop}) holds it; "
                                   f"{BOOT_TO_CONSOLE}.") from None
            raise DisplayError(
                f"no screen to draw on ({exc}). On a Pi, start it on the console or the desktop (the user needs "
                "the video and render groups); to try it without a screen, set SDL_VIDEODRIVER=dummy.") from None
        self.canvas = pygame.Surface(DESIGN_SIZE)
        self.fullscreen = bool(fullscreen)
        #: degrees the picture is turned clockwise on the panel: a display mounted upside down in its case (180),
        #: or a portrait panel (Touch Display 2: 720x1280) turned on its side (90 or 270; "auto" chose 90)
        self.rotate = auto_rotation(self.window.get_size(), self.fullscreen) if rotate == AUTO_ROTATE else rotate
        #: the scaled picture kept from frame to frame, and what it was made for (the window's size, the picture's
        #: place, the turn): a panel other than 800x480 (the Pi 5's Touch Display 2, a laptop) made a new one of
        #: some 3.4 MB every frame, 6.5 ms here and over 20 on a Pi; the letterbox is filled once for it too
        self._scaled: pygame.Surface | None = None
        self._scaled_for: tuple | None = None
        #: the canvas's bytes last shown, for what (``_scaled_for``'s key), and when: a screen standing still (a menu,
        #: a game waiting for its throw) is not scaled and flipped again each frame. One buffer, compared and copied
        #: in place: a new 1.5 MB copy a frame was some 45 MB a second for a Pi's allocator
        self._last = bytearray()
        self._shown: tuple[tuple, float] | None = None
        self._clock: Callable[[], float] = clock

    @staticmethod
    def _open_kiosk() -> pygame.Surface:
        """The fullscreen kiosk at the screen's native mode, or a smaller one of its modes (:func:`kiosk_mode`).
        A mode the screen refuses after all: the native one, as before."""
        try:
            native = pygame.display.get_desktop_sizes()[0]
            modes = pygame.display.list_modes()
        except (pygame.error, IndexError):
            native, modes = (0, 0), []
        mode = kiosk_mode(native, modes if isinstance(modes, list) else [])
        if mode != (0, 0):
            try:
                log.info("screen %dx%d: the kiosk opens its %dx%d mode", *native, *mode)
                return pygame.display.set_mode(mode, pygame.FULLSCREEN)
            except pygame.error as exc:
                log.warning("the %dx%d mode failed (%s): the screen's own %dx%d", *mode, exc, *native)
        return pygame.display.set_mode((0, 0), pygame.FULLSCREEN)

    def _turned_size(self) -> tuple[int, int]:
        w, h = DESIGN_SIZE
        return (h, w) if self.rotate in (90, 270) else (w, h)

    def _placement(self) -> tuple[float, pygame.Rect]:
        ww, wh = self.window.get_size()
        tw, th = self._turned_size()
        scale = min(ww / tw, wh / th)
        if scale >= 2 and int(scale) / scale >= WHOLE_SCALE_KEEPS:
            scale = float(int(scale))
        w, h = int(tw * scale), int(th * scale)
        return scale, pygame.Rect((ww - w) // 2, (wh - h) // 2, w, h)

    def small_words(self, lang: str) -> str | None:
        """The kiosk's words at the start where its screen shows the picture too small to read from the table (a
        3.5" 480x320 panel: 60 %); nothing said before. None where it fits, and in a window one may drag larger."""
        scale = picture_scale(self.window.get_size(), self.rotate)
        if not self.fullscreen or scale >= SMALL_SCALE:
            return None
        return small_screen_words(self.window.get_size(), scale, lang)

    def to_design(self, pos: tuple[int, int]) -> tuple[int, int] | None:
        """Window pixels to design pixels. A tap on the letterbox within :data:`EDGE_REACH` of the picture is taken
        at the picture's edge: a finger beside ≡ on a 1024x600 panel (a 12 px bar) or under the hint bar on a
        480x320 one (16 px) was dropped. None further out on the border."""
        scale, rect = self._placement()
        if not rect.collidepoint(pos):
            if not rect.inflate(2 * EDGE_REACH, 2 * EDGE_REACH).collidepoint(pos):
                return None
            pos = min(max(pos[0], rect.left), rect.right - 1), min(max(pos[1], rect.top), rect.bottom - 1)
        u, v = (pos[0] + 0.5 - rect.x) / scale, (pos[1] + 0.5 - rect.y) / scale  # the pixel's middle, turned
        w, h = DESIGN_SIZE
        x, y = {0: (u, v), 90: (v, h - u), 180: (w - u, h - v), 270: (w - v, u)}[self.rotate]
        return min(max(int(x), 0), w - 1), min(max(int(y), 0), h - 1)

    def finger_to_design(self, x: float, y: float) -> tuple[int, int] | None:
        """Touch events carry 0..1 window coordinates: 1.0 is the panel's last column or row, a pixel past the
        window (a tap there was dropped)."""
        ww, wh = self.window.get_size()
        return self.to_design((min(int(x * ww), ww - 1), min(int(y * wh), wh - 1)))

    def pointer_of(self, ev: pygame.event.Event) -> Pointer | None:
        """A finger's or the mouse's event in design pixels (:func:`pointer_of`)."""
        return pointer_of(ev, self.to_design, self.finger_to_design)

    def present(self) -> None:
        """Show the canvas: turned, scaled to the window (by a whole number from twice up, see
        :data:`WHOLE_SCALE_KEEPS`), letterboxed. A canvas the same as the one last shown is left as it stands (for
        up to :data:`REFRESH_SECONDS`): every view draws each frame, mostly the same picture."""
        scale, rect = self._placement()
        key = (self.window.get_size(), tuple(rect), self.rotate)
        now = self._clock()
        # (the view is let go at once: a surface with a view held is locked, and a locked surface blits nothing)
        if self._shown is not None and self._shown[0] == key and now - self._shown[1] < REFRESH_SECONDS \
                and self._last == self.canvas.get_view("1"):  # some 0.1 ms against 1-20 ms
            return
        self._last[:] = self.canvas.get_view("1")
        self._shown = (key, now)
        picture = pygame.transform.rotate(self.canvas, -self.rotate) if self.rotate else self.canvas
        if rect.size == picture.get_size() and rect.topleft == (0, 0):
            self.window.blit(picture, (0, 0))
        else:
            if self._scaled is None or self._scaled_for != key:
                self._scaled = pygame.Surface(rect.size, 0, picture)
                self._scaled_for = key
                self.window.fill(BG)  # the letterbox: the picture covers the rest each frame
            whole = scale == int(scale) and rect.size == (picture.get_width() * int(scale),
                                                          picture.get_height() * int(scale))
            (pygame.transform.scale if whole else pygame.transform.smoothscale)(picture, rect.size, self._scaled)
            self.window.blit(self._scaled, rect)
        pygame.display.flip()

    def resized(self, size: tuple[int, int]) -> None:
        """A laptop's window dragged to ``size``: pygame 2 has resized the window's surface itself, and calling
        set_mode again (as pygame 1 needed) made the window jump while it was dragged (GNOME, pygame-ce#1238)."""
        self.window = pygame.display.get_surface() or self.window
        self._scaled_for = self._shown = None  # its letterbox is filled again, its picture shown

    def close(self) -> None:
        pygame.display.quit()
