"""Where the pictures of the dice tray come from: one small class per source kind, all with one surface.

Every source is used the same way, so the rest of the companion never asks which one it has::

    with open_source("auto") as source:      # or "pi", "cam:0", "folder:PATH", "video:PATH", "synthetic"
        frame = source.read()                # BGR uint8 picture, or None when there is no new picture yet
        source.roll()                        # ROLL pressed: replays move on, the synthetic tray throws

``read()`` never blocks for long: sources paced by a clock (replays, the synthetic tray) answer ``None`` until
their next frame is due, so the reading thread sleeps instead of spinning on a still picture. Cameras block
until the next frame, as cameras do.
"""

from __future__ import annotations

import logging
import os
import re
import time
from abc import ABC, abstractmethod
from collections.abc import Callable
from pathlib import Path
from types import TracebackType

import cv2
import numpy as np

from companion.errors import SourceError
from vision.face_marks import table_light
from vision.frame import brightest, opencv_quiet, read_photo

log = logging.getLogger(__name__)

Clock = Callable[[], float]

PICAMERA_MISSING = (
    "The Pi camera needs python3-picamera2: sudo apt install python3-picamera2, "
    "and a venv made with --system-site-packages"
)
PICAMERA_BROKEN = (
    "The Pi camera's library does not load ({error}). Usually numpy in the venv is not the one the OS's "
    "picamera2 is built for: run scripts/setup.sh again (it pins numpy to the OS's version)"
)
IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".webp", ".tif", ".tiff")
SPEC_HELP = "use pi, cam:0, folder:PATH, video:PATH, synthetic (or synthetic:SEED) or auto"
CAMERAS = ("pi", "cam:0")  # what ``auto`` tries before its stand-ins, in this order (and a lookout later)
#: seconds the Pi camera runs on automatic exposure before its values are locked
PI_SETTLE_SECONDS = 1.0


def three_channels(image: np.ndarray) -> np.ndarray:
    """Grey and BGRA pictures as BGR: every reader downstream expects three channels.

    Not ``vision.frame.as_bgr``, which also refuses frames too small or too odd to read: a source passes every
    frame on, so the screen can show what the camera sees even where the reader gives up on it.
    """
    if image.ndim == 2:
        return cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    if image.shape[2] == 4:
        return cv2.cvtColor(image, cv2.COLOR_BGRA2BGR)
    return image


class FrameSource(ABC):
    """A source of BGR frames of the dice tray. ``open()`` is idempotent: ``open_source`` opens it early."""

    #: reasons why ``auto`` skipped better sources before settling on this one (for the screen and the doctor)
    skipped: list[str]

    def __init__(self, *, fps: float | None = None, clock: Clock = time.monotonic) -> None:
        self.skipped = []
        self._fps = fps
        self._clock = clock
        self._next_due: float | None = None
        self._opened = False

    @property
    @abstractmethod
    def description(self) -> str:
        """A short human description ("USB camera cam:0 (1280x720)") for ``companion doctor`` and the
        screen."""

    @property
    def is_open(self) -> bool:
        return self._opened

    def open(self) -> None:
        if not self._opened:
            self._open()
            self._opened = True
            self._next_due = None

    def close(self) -> None:
        if self._opened:
            self._opened = False
            self._close()

    def read(self) -> np.ndarray | None:
        if not self._opened:
            raise RuntimeError(f"{self.description}: read() before open()")
        if not self._due():
            return None
        return self._read()

    def roll(self) -> None:  # noqa: B027 - a no-op on purpose, not a forgotten abstract method
        """The player pressed ROLL. Cameras ignore it: the real dice are thrown by hand."""

    @abstractmethod
    def _open(self) -> None: ...

    @abstractmethod
    def _read(self) -> np.ndarray | None: ...

    def _close(self) -> None:  # noqa: B027 - most sources have nothing to release
        pass

    def _due(self) -> bool:
        """Pace replays to ``fps``: without it the reading thread would analyse the same still picture flat
        out."""
        if self._fps is None:
            return True
        now = self._clock()
        if self._next_due is not None and now < self._next_due:
            return False
        period = 1.0 / self._fps
        # stay on the frame grid, but do not try to catch up after a long pause
        self._next_due = now + period if self._next_due is None or now - self._next_due > period \
            else self._next_due + period
        return True

    def __enter__(self) -> FrameSource:
        self.open()
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.description}>"


# ------------------------------------------------------------------------------------------------------------
# Cameras


def light_level(frame: np.ndarray) -> float:
    """How bright the lit part of a picture is: the 95th percentile of a sparse sample's brightest channel (the
    white dice and the lit table, which over-exposure burns out first: ``vision.frame.brightest``)."""
    return brightest(frame[::16, ::16])


def light_cast(frame: np.ndarray) -> np.ndarray:
    """The colour of the picture's light: the log ratios red/green and blue/green of the light on the table
    (``vision.face_marks.table_light``). The tray fills most of the picture, so this moves when the lamps change
    colour, and hardly when dice or a hand do; (0, 0) for a grey picture."""
    light = table_light(frame)
    if light is None:
        return np.zeros(2)
    b, g, r = light.astype(np.float64)
    return np.array([np.log(r / g), np.log(b / g)])


class Camera(FrameSource):
    """A live camera that can stop sending pictures at the table (a cable pulled, a Pi camera hung) and is then
    let go and looked for again every RETRY_SECONDS, so that plugging it back in, or the camera recovering, is
    enough: a kiosk has nobody at a terminal to restart the companion."""

    RETRY_SECONDS = 2.0

    def __init__(self, *, clock: Clock = time.monotonic) -> None:
        super().__init__(clock=clock)
        self._retry_at = 0.0
        self._lost = False
        #: times the camera came back (``_reconnect``): the dice watcher waits for a whole still spell of new frames
        #: then, not combining readings from before the cable was pulled with frames whose exposure still ramps
        self.reconnects = 0

    @abstractmethod
    def _stopped(self) -> SourceError:
        """What the screen says while the camera sends no pictures, in the player's words."""

    @abstractmethod
    def _grab(self) -> np.ndarray | None:
        """The next picture from the open device (None: none this time); raises SourceError when it is gone."""

    def _read(self) -> np.ndarray | None:
        if self._lost:
            return self._reconnect()
        try:
            return self._grab()
        except SourceError:
            self._let_go()
            raise

    def _let_go(self) -> None:
        """The device's handle stays dead even once the camera is back: close it, open it anew later."""
        self._lost = True
        self._retry_at = self._clock() + self.RETRY_SECONDS
        try:
            self._close()
        except Exception:  # a hung device may fail to close too; a new handle is opened all the same
            log.warning("%s: closing the stopped camera failed", self.description, exc_info=True)

    def _reconnect(self) -> np.ndarray | None:
        if self._clock() < self._retry_at:
            return None
        self._retry_at = self._clock() + self.RETRY_SECONDS
        try:
            self._open()
        except SourceError:
            raise self._stopped() from None
        self._lost = False
        self.reconnects += 1
        log.info("%s is back", self.description)
        return None


class PiCamera(Camera):
    """The Raspberry Pi camera through picamera2, with exposure and white balance locked.

    Why locked: under automatic exposure the picture brightens and darkens as hands and dice move in and out,
    and a reader tuned on one frame sees a different one the next. The camera first runs automatic for
    ``settle`` seconds under the table's light, then keeps exactly those values (or the ones given) until that
    light changes for good (``_follow_the_light``).
    The main stream is RGB888, which picamera2 delivers in BGR byte order: OpenCV's order, no conversion
    needed. picamera2 is imported inside ``open()`` only, since it exists only on a Pi (from the OS packages).

    A picture is waited for at most FRAME_TIMEOUT seconds: a Pi camera can hang (libcamera's "frontend has timed
    out", a loose ribbon cable), and picamera2 would then wait for ever. The camera is then closed and started
    again every RETRY_SECONDS (``Camera``), with exposure found and locked again under the light of that moment.
    (Older picamera2 releases take ``wait`` as a plain yes and wait as before.)
    """

    FRAME_TIMEOUT = 2.0  # seconds; a frame takes 33 ms, and at most one exposure (locked, well under a second)
    #: seconds one autofocus cycle of a Camera Module 3 may take (a sweep of the lens takes about one), and how
    #: long after a cycle that found nothing sharp the next one is tried
    FOCUS_TIMEOUT, REFOCUS_SECONDS = 3.0, 20.0
    #: the light has changed for good when the picture's light_level stayed below DARKER or above BRIGHTER times
    #: the level at the lock for RELOCK_AFTER seconds (closer on the bright side: burnt-out dice read worse), or
    #: its light_cast moved by more than CAST_SHIFT (a third of the taught reader's BODY_TOL) for as long
    DARKER, BRIGHTER, RELOCK_AFTER = 0.5, 1.25, 10.0
    CAST_SHIFT = 0.12

    def __init__(self, camera_num: int = 0, size: tuple[int, int] = (1280, 960), *,
                 settle: float | None = None,
                 exposure_us: int | None = None, analogue_gain: float | None = None,
                 colour_gains: tuple[float, float] | None = None, clock: Clock = time.monotonic) -> None:
        super().__init__(clock=clock)
        self.camera_num = camera_num
        self.size = size
        self.settle = PI_SETTLE_SECONDS if settle is None else settle
        self.exposure_us = exposure_us
        self.analogue_gain = analogue_gain
        self.colour_gains = colour_gains
        self.locked: dict[str, object] = {}
        self._cam = None

    @property
    def config_name(self) -> str:
        """The camera as the config names it ("pi", "pi:1"): kept with the examples taught from it."""
        return "pi" if self.camera_num == 0 else f"pi:{self.camera_num}"

    @property
    def description(self) -> str:
        w, h = self.size
        return f"Pi camera {self.camera_num} ({w}x{h})"

    def _open(self) -> None:
        try:
            from picamera2 import Picamera2
        except ImportError as exc:
            raise SourceError(PICAMERA_MISSING) from exc
        except Exception as exc:  # e.g. ValueError "numpy.dtype size changed": a numpy the OS's picamera2 is not for
            raise SourceError(PICAMERA_BROKEN.format(error=f"{type(exc).__name__}: {exc}")) from exc
        cameras = Picamera2.global_camera_info()
        if len(cameras) <= self.camera_num:
            raise SourceError(
                f"No Pi camera {self.camera_num} found ({len(cameras)} connected): check the ribbon cable "
                "(contacts towards the board) and that the camera is enabled, then restart."
            )
        try:
            cam = Picamera2(self.camera_num)
            config = cam.create_video_configuration(main={"size": tuple(self.size), "format": "RGB888"})
            cam.configure(config)
            cam.start()
        except (RuntimeError, OSError) as exc:
            raise SourceError(
                f"The Pi camera {self.camera_num} cannot be started ({exc}): close other programs using it "
                "(rpicam-hello, another companion) and try again."
            ) from exc
        self._cam = cam
        self._focus_again_at: float | None = None
        self._level, self._off_since, self._relock_at = None, None, None
        self._cast = np.zeros(2)  # the light_cast at the lock, taken with the level from the first frame
        try:
            if self.settle > 0:
                time.sleep(self.settle)  # let automatic exposure and white balance find the table's light
            self._focus()
            self._lock()
        except Exception as exc:  # whatever it is, the table falls back to another source with a word, not a crash
            self._close()
            why = str(exc) or type(exc).__name__
            if isinstance(exc, (TimeoutError, RuntimeError, OSError)):
                raise SourceError(f"The Pi camera {self.camera_num} started but sends no pictures ({why}): "
                                  "check its ribbon cable, then try again.") from exc
            raise SourceError(f"The Pi camera {self.camera_num} cannot be set up ({type(exc).__name__}: {why}); "
                              "the log has the details for a bug report.") from exc

    def _stopped(self) -> SourceError:
        return SourceError(f"The Pi camera {self.camera_num} stopped sending pictures: check its ribbon cable. "
                           "It is started again by itself.", "core.source.stopped_pi", camera=self.camera_num)

    def _focus(self) -> None:
        """One autofocus cycle where the camera has a motor lens (Camera Module 3); then the lens stays there.

        picamera2 leaves such a lens where the tuning puts it, focused about a metre away: dice 30-50 cm below
        come out soft, and a soft pip or symbol is a die asked about. The tray does not move, so one sharp cycle is
        enough; a continuous focus would hunt after every hand and make the still tray look moving. A cycle that
        finds nothing sharp (an empty plain tray at the start) is tried again every REFOCUS_SECONDS until one does
        (the watcher takes the lens's sweep for motion, and reads the tray again once it is still). A camera
        without the control (Camera Module 2, the HQ camera) is left alone.
        """
        cam = self._cam
        self._focus_again_at = None
        if "AfMode" not in getattr(cam, "camera_controls", {}):
            return
        try:
            sharp = bool(cam.wait(cam.autofocus_cycle(wait=False), timeout=self.FOCUS_TIMEOUT))
        except TypeError:  # a picamera2 before 0.3.17 cannot wait with a time limit: not waited for without one
            log.warning("Pi camera %d: this picamera2 cannot focus with a time limit; the lens stays where it is "
                        "(sudo apt upgrade python3-picamera2)", self.camera_num)
            return
        except (TimeoutError, RuntimeError, OSError) as exc:
            log.warning("Pi camera %d: autofocus did not finish (%s)", self.camera_num, exc or type(exc).__name__)
            sharp = False
            if isinstance(exc, TimeoutError):
                # picamera2 keeps a job it stopped waiting for first in its job list: every later frame would
                # wait behind the unfinished focus and the tray would never be read again. Dropped, the camera
                # goes on unfocused (and the focus is tried again later).
                try:
                    cam.cancel_all_and_flush()
                except Exception as flush_exc:  # a camera already gone: the frame after says so
                    log.warning("Pi camera %d: the unfinished autofocus could not be dropped (%s)",
                                self.camera_num, flush_exc)
        else:
            log.info("Pi camera %d: %s", self.camera_num, "focused on the tray" if sharp else
                     "autofocus found nothing sharp (an empty plain tray?); trying again later")
        if not sharp:
            self._focus_again_at = self._clock() + self.REFOCUS_SECONDS

    def _lock(self) -> None:
        """Keep the exposure and white balance the camera runs on now (or the ones given)."""
        found = self._cam.capture_metadata(wait=self.FRAME_TIMEOUT)
        self.locked = {
            "AeEnable": False,
            "ExposureTime": int(self.exposure_us or found["ExposureTime"]),
            "AnalogueGain": float(self.analogue_gain or found["AnalogueGain"]),
        }
        gains = self.colour_gains or found.get("ColourGains")
        if gains is not None:  # a mono sensor has no white balance to lock (libcamera gives it no ColourGains)
            self.locked.update({"AwbEnable": False, "ColourGains": tuple(gains)})
        self._cam.set_controls(self.locked)

    def _grab(self) -> np.ndarray | None:
        try:
            frame = self._cam.capture_array("main", wait=self.FRAME_TIMEOUT)
            self._follow_the_light(frame)
            if self._focus_again_at is not None and self._clock() >= self._focus_again_at:
                self._focus()
        except (TimeoutError, RuntimeError, OSError, KeyError) as exc:
            log.warning("Pi camera %d: %s", self.camera_num, exc or type(exc).__name__)
            raise self._stopped() from exc
        return np.ascontiguousarray(three_channels(frame))

    def _follow_the_light(self, frame: np.ndarray) -> None:
        """Find exposure and white balance again when the table's light has changed for good.

        Locked at the start, they stay right while the lamps do; but a game night runs from daylight into lamp
        light, and a ceiling light switched on later burns the white dice out (of the 147 dice of matteo-d6's
        held-out photos read right, 11 were lost with the photos made 1.6 times brighter, none at half the
        brightness). A lamp of another colour at the same brightness casts the dice beyond what the taught reader
        takes for the same body (docs/taught-dice.md, "In another light": taught by daylight, read under a warm
        cast, it asked about 86 % of matteo-d6's dice, and a cold cast had it name 3 of 288 wrongly). So when the
        brightest part of the picture (light_level) has stayed beyond DARKER / BRIGHTER of what it was at the lock,
        or its colour (light_cast) beyond CAST_SHIFT, for RELOCK_AFTER seconds (a hand or a leaning player passes
        sooner), the camera runs on automatic again for ``settle`` seconds and is locked anew. The dice watcher
        sees that second as motion and reads the tray again once it is still. Exposure given by the owner is kept,
        and colour gains given by the owner are not a reason to look again."""
        if self.exposure_us is not None or self.analogue_gain is not None:
            return
        now = self._clock()
        if self._relock_at is not None:
            if now >= self._relock_at:
                self._lock()
                self._level, self._off_since, self._relock_at = None, None, None
            return
        level, cast = light_level(frame), light_cast(frame)
        if self._level is None:
            self._level, self._cast = level, cast
            return
        shift = float(np.abs(cast - self._cast).max())
        if (self._level * self.DARKER <= level <= max(self._level * self.BRIGHTER, self._level + 8.0)
                and (shift <= self.CAST_SHIFT or self.colour_gains is not None)):
            self._off_since = None
            return
        if self._off_since is None:
            self._off_since = now
        elif now - self._off_since >= self.RELOCK_AFTER:
            log.info("Pi camera %d: the light changed (level %.0f -> %.0f, colour by %.2f): exposure and white "
                     "balance found again", self.camera_num, self._level, level, shift)
            self._cam.set_controls({"AeEnable": True, **({"AwbEnable": True} if "AwbEnable" in self.locked else {})})
            self._relock_at = now + max(self.settle, 0.5)

    def _close(self) -> None:
        """Stop and close the camera. A request that timed out stays first in picamera2's job list, and ``stop()``
        queues behind it and waits for ever (the watcher thread hung, the camera never started again):
        ``cancel_all_and_flush()`` clears it first, as picamera2 documents for "the camera cable has become
        dislodged" (picamera2 0.3.17 and later; an older one is stopped as before)."""
        cam, self._cam = self._cam, None
        if cam is not None:
            try:
                flush = getattr(cam, "cancel_all_and_flush", None)
                if flush is not None:
                    flush()
                cam.stop()
            finally:
                cam.close()


class CaptureDevice(Camera):
    """Any camera OpenCV can open (a USB webcam on a laptop or a Pi): ``cam:0`` is the first."""

    MAX_FAILURES = 30  # about a second of missing frames: the camera was unplugged, not a hiccup

    def __init__(self, index: int = 0, size: tuple[int, int] | None = None, *,
                 clock: Clock = time.monotonic) -> None:
        super().__init__(clock=clock)
        self.index = index
        self.size = size
        self._cap: cv2.VideoCapture | None = None
        self._failures = 0
        self._shape: tuple[int, int] | None = None

    @property
    def config_name(self) -> str:
        """The camera as the config names it ("cam:0"): kept with the examples taught from it."""
        return f"cam:{self.index}"

    @property
    def description(self) -> str:
        shape = f" ({self._shape[1]}x{self._shape[0]})" if self._shape else ""
        return f"USB camera cam:{self.index}{shape}"

    def _open(self) -> None:
        with opencv_quiet(errors_too=False):  # probing a missing camera prints several warnings
            cap = cv2.VideoCapture(self.index)
        if not cap.isOpened():
            cap.release()
            raise SourceError(
                f"No camera at cam:{self.index}: plug in a USB webcam, or pick another number (cam:1), "
                "or use --source synthetic to play without one."
            )
        if self.size is not None:
            cap.set(cv2.CAP_PROP_FRAME_WIDTH, self.size[0])
            cap.set(cv2.CAP_PROP_FRAME_HEIGHT, self.size[1])
        ok, frame = cap.read()
        if not ok or frame is None:
            cap.release()
            raise SourceError(
                f"The camera cam:{self.index} opened but sends no pictures: another program may be using it; "
                "close it and try again."
            )
        self._shape = frame.shape[:2]
        self._cap = cap
        self._failures = 0

    def _grab(self) -> np.ndarray | None:
        ok, frame = self._cap.read()
        if not ok or frame is None:
            self._failures += 1
            if self._failures >= self.MAX_FAILURES:
                raise self._stopped()
            return None
        self._failures = 0
        return three_channels(frame)

    def _stopped(self) -> SourceError:
        return SourceError(f"The camera cam:{self.index} stopped sending pictures: check its cable. "
                           "It starts again by itself once it is plugged back in.", "core.source.stopped_cam",
                           index=self.index)

    def _close(self) -> None:
        cap, self._cap = self._cap, None
        if cap is not None:
            cap.release()


# ------------------------------------------------------------------------------------------------------------
# Replays


def _natural_key(path: Path) -> list[object]:
    """dice_2 before dice_10, as a person numbers photos."""
    return [int(part) if part.isdigit() else part.lower() for part in re.split(r"(\d+)", path.name)]


class PhotoFolder(FrameSource):
    """The photos of a folder as if a camera looked at each in turn: for demos, tests and fixing the reader.

    ``every=None`` (the default) shows one photo until the player presses ROLL, as if the dice were thrown
    again; ``every=N`` moves on by itself every N seconds. After the last photo it starts over.
    """

    #: the picture source as the config names it (``teach.camera_name``)
    config_name = "folder"

    def __init__(self, folder: str | Path, *, every: float | None = None, fps: float | None = 15.0,
                 clock: Clock = time.monotonic) -> None:
        super().__init__(fps=fps, clock=clock)
        if every is not None and every <= 0:
            raise SourceError(f"Photos must change after more than 0 seconds, not {every}.")
        self.folder = Path(folder).expanduser()
        self.every = every
        self.paths: list[Path] = []
        self.index = 0
        self._image: np.ndarray | None = None
        self._shown_at = 0.0
        self.unreadable: list[Path] = []

    @property
    def description(self) -> str:
        how = "on each roll" if self.every is None else f"every {self.every:g} s"
        return f"photos in {self.folder} ({len(self.paths)} photos, {how})"

    @property
    def current_path(self) -> Path | None:
        return self.paths[self.index] if self.paths else None

    def _open(self) -> None:
        try:
            if self.folder.is_file():
                raise SourceError(f"{self.folder} is a file, not a folder: give the folder the photos are in after "
                                  "folder: (one photo alone: its folder).", "core.source.folder_is_file",
                                  folder=str(self.folder))
            if not self.folder.is_dir():
                raise SourceError(f"The photo folder {self.folder} does not exist: check the path after folder:.",
                                  "core.source.folder_missing", folder=str(self.folder))
            photos = (p for p in self.folder.iterdir() if p.is_file() and p.suffix.lower() in IMAGE_SUFFIXES)
            self.paths = sorted(photos, key=_natural_key)
        except OSError as exc:  # a name too long, a folder that may not be looked into: said, not a stopped start
            raise SourceError(f"The photo folder {self.folder} cannot be read ({exc.strerror or exc}): check the path "
                              "after folder: and that the folder may be read.", "core.source.folder_unreadable",
                              folder=str(self.folder)) from None
        if not self.paths:
            raise SourceError(
                f"The folder {self.folder} has no photos ({', '.join(IMAGE_SUFFIXES)}): "
                "put pictures of dice in it.", "core.source.folder_empty", folder=str(self.folder),
                kinds=", ".join(IMAGE_SUFFIXES)
            )
        self.index = 0
        self.unreadable = []
        self._load(0)
        self._shown_at = self._clock()

    def _load(self, start: int) -> None:
        """Show the photo at ``start``, or the next readable one: one broken file must not stop the
        evening."""
        for step in range(len(self.paths)):
            i = (start + step) % len(self.paths)
            try:
                image = read_photo(self.paths[i], cv2.IMREAD_UNCHANGED)
            except OSError:
                image = None
            if image is not None:
                if image.dtype != np.uint8:
                    image = cv2.convertScaleAbs(image, alpha=255.0 / max(1.0, float(image.max())))
                self.index, self._image = i, three_channels(image)
                return
            if self.paths[i] not in self.unreadable:
                log.warning("skipping %s: not a readable image", self.paths[i])
                self.unreadable.append(self.paths[i])
        raise SourceError(
            f"None of the {len(self.paths)} photos in {self.folder} can be read: are they images?",
            "core.source.photos_unreadable", count=len(self.paths), folder=str(self.folder)
        )

    def roll(self) -> None:
        if self._opened:
            self._load(self.index + 1)
            self._shown_at = self._clock()

    def _read(self) -> np.ndarray | None:
        if self.every is not None and self._clock() - self._shown_at >= self.every:
            self.roll()
        return self._image.copy()


class VideoFile(FrameSource):
    """A recorded video of the tray, played at its own frame rate (``realtime``) and started over at the
    end."""

    #: the picture source as the config names it (``teach.camera_name``)
    config_name = "video"

    def __init__(self, path: str | Path, *, loop: bool = True, realtime: bool = True,
                 clock: Clock = time.monotonic) -> None:
        super().__init__(clock=clock)
        self.path = Path(path).expanduser()
        self.loop = loop
        self.realtime = realtime
        self.video_fps = 0.0
        self.frame_count = 0
        self._cap: cv2.VideoCapture | None = None
        self._first: np.ndarray | None = None

    @property
    def description(self) -> str:
        return f"video {self.path.name} ({self.video_fps:g} fps)"

    def _open(self) -> None:
        if not self.path.is_file():
            raise SourceError(f"There is no video file {self.path}: check the path after video:.",
                              "core.source.video_missing", path=str(self.path))
        cap = cv2.VideoCapture(str(self.path))
        ok, frame = cap.read() if cap.isOpened() else (False, None)
        if not ok or frame is None:
            cap.release()
            raise SourceError(
                f"{self.path.name} cannot be played as a video: it is damaged or in a format OpenCV "
                "cannot read (convert it to MP4 or AVI).", "core.source.video_unplayable", name=self.path.name
            )
        self._cap = cap
        self._first = three_channels(frame)
        self.video_fps = float(cap.get(cv2.CAP_PROP_FPS) or 0.0)
        self.frame_count = int(cap.get(cv2.CAP_PROP_FRAME_COUNT) or 0)
        self._fps = self.video_fps if self.realtime and self.video_fps > 0 else None

    def _read(self) -> np.ndarray | None:
        if self._first is not None:
            frame, self._first = self._first, None
            return frame
        ok, frame = self._cap.read()
        if not ok or frame is None:
            if not self.loop:
                return None
            self._cap.set(cv2.CAP_PROP_POS_FRAMES, 0)
            ok, frame = self._cap.read()
            if not ok or frame is None:
                raise SourceError(
                    f"{self.path.name} cannot be played again from the start: the file is damaged.",
                    "core.source.video_damaged", name=self.path.name
                )
        return three_channels(frame)

    def _close(self) -> None:
        cap, self._cap = self._cap, None
        if cap is not None:
            cap.release()


# ------------------------------------------------------------------------------------------------------------
# Choosing one


def is_camera(spec: str) -> bool:
    """Whether ``spec`` names a camera (``pi``, ``cam:1``): one that is not there may still be plugged in."""
    return spec.strip().partition(":")[0].lower() in ("pi", "cam")


def check_spec(spec: str) -> tuple[str, str]:
    """The spec's kind and argument, or SourceError saying how it is written: the config checks a camera spec
    with it before anything is opened."""
    kind, _, arg = spec.strip().partition(":")
    kind = kind.lower()
    if kind == "pi" and arg and not arg.isdigit():
        raise SourceError(f"'{spec}' names no Pi camera: use pi or pi:1 for the second camera.",
                          "core.source.spec_pi", spec=spec)
    if kind == "cam" and not arg.isdigit():
        raise SourceError(f"'{spec}' names no camera: use cam:0 for the first USB camera, cam:1 for the next.",
                          "core.source.spec_cam", spec=spec)
    if kind == "folder" and not arg:
        raise SourceError("folder: needs a path, e.g. folder:~/dice-photos", "core.source.spec_folder")
    if kind == "video" and not arg:
        raise SourceError("video: needs a path, e.g. video:~/throws.avi", "core.source.spec_video")
    if kind == "synthetic" and arg and not arg.isdigit():
        raise SourceError(f"'{spec}': synthetic takes a whole number as its seed, e.g. synthetic:7",
                          "core.source.spec_synthetic", spec=spec)
    if kind not in ("pi", "cam", "folder", "video", "synthetic"):
        raise SourceError(f"Unknown picture source '{spec}': {SPEC_HELP}.", "core.source.spec_unknown", spec=spec)
    return kind, arg


def _parse(spec: str, rng_seed: int | None, folder_every: float | None) -> FrameSource:
    kind, arg = check_spec(spec)
    if kind == "pi":
        return PiCamera(int(arg or 0))
    if kind == "cam":
        return CaptureDevice(int(arg))
    if kind == "folder":
        return PhotoFolder(arg, every=folder_every)
    if kind == "video":
        return VideoFile(arg)
    from hardware.synthetic import SyntheticTray

    # a seed makes the throws repeat exactly: demos, bug reports and tests
    return SyntheticTray(rng_seed=int(arg) if arg else rng_seed)


def _video_name(device: Path, sysfs: Path = Path("/sys/class/video4linux")) -> str:
    """What the kernel calls a video device: on a Pi, /dev/video0 may be the Pi camera's receiver and
    /dev/video10 and up its codecs, so the number alone does not say which is the USB webcam."""
    try:
        return (sysfs / device.name / "name").read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError):
        return ""


def open_source(spec: str = "auto", *, rng_seed: int | None = None, folder: str | Path | None = None,
                folder_every: float | None = None) -> FrameSource:
    """The source named by ``spec``, already opened, so a missing camera is reported here, in the player's
    words.

    ``auto`` takes the first that works of: the Pi camera, cam:0, ``folder`` (when given), the synthetic tray.
    The returned source's ``skipped`` lists why the better ones were passed over.
    """
    if spec.strip().lower() != "auto":
        source = _parse(spec, rng_seed, folder_every)
        source.open()
        return source
    candidates = [*CAMERAS] + ([f"folder:{folder}"] if folder is not None else []) + ["synthetic"]
    skipped: list[str] = []
    for candidate in candidates:
        try:
            source = _parse(candidate, rng_seed, folder_every)
            source.open()
        except SourceError as exc:
            skipped.append(f"{candidate}: {exc}")
            continue
        source.skipped = skipped
        return source
    # not reached while the synthetic tray works; kept so a broken install still says what failed
    raise SourceError("No picture source works: " + " / ".join(skipped))


class CameraLookout:
    """Looks for a camera that appears after ``auto`` settled on the built-in tray: a webcam plugged in once the
    companion runs, or a camera the kernel enumerated after the service started. Without it the tray of virtual
    dice stayed all evening, and nobody at a kiosk table knows to restart the program.

    Cheap while nothing changes: it lists ``/dev`` every ``CHECK_SECONDS`` and tries the cameras only when video or
    media devices were added, a few times (udev gives a new device its group a moment after it appears). Called
    from the dice watcher's thread: opening a Pi camera takes seconds the screen must not wait for.
    """

    CHECK_SECONDS = 2.0
    TRIES = 5  # checks after a device appeared that try to open it (about ten seconds)

    def __init__(self, *, clock: Clock = time.monotonic, dev: Path = Path("/dev"),
                 opener: Callable[[str], FrameSource] | None = None, cameras: tuple[str, ...] = CAMERAS) -> None:
        self._clock = clock
        self._cameras = cameras  # ``auto``'s, or the one camera the owner named that was not there at the start
        self._dev = dev
        self._opener = opener or open_source
        self._next = 0.0
        self._seen = self._devices()
        # a few more tries at first too: a device already there may not have opened yet (udev had not given it its
        # group, another program held it)
        self._tries = self.TRIES

    def _devices(self) -> frozenset[str]:
        try:
            return frozenset(p.name for p in self._dev.iterdir() if p.name.startswith(("video", "media")))
        except OSError:  # no /dev (not Linux): nothing to watch, nothing found
            return frozenset()

    def poll(self) -> FrameSource | None:
        """A camera opened and ready, or None (not due yet, nothing new, or what appeared does not open)."""
        now = self._clock()
        if now < self._next:
            return None
        self._next = now + self.CHECK_SECONDS
        devices = self._devices()
        if devices != self._seen:
            self._tries = self.TRIES if devices - self._seen else 0
            self._seen = devices
        if self._tries <= 0:
            return None
        self._tries -= 1
        for spec in self._cameras:
            try:
                return self._opener(spec)
            except SourceError as exc:
                log.info("a new device, not a camera that opens as %s: %s", spec, exc)
        return None


def diagnose() -> list[str]:
    """What ``companion doctor`` says about cameras: which are found, what is missing and how to install
    it."""
    lines: list[str] = []
    try:
        from picamera2 import Picamera2
    except ImportError:
        lines.append(f"Pi camera: picamera2 not installed. {PICAMERA_MISSING}.")
    else:
        try:
            cameras = Picamera2.global_camera_info()
        except Exception as exc:  # a broken libcamera install must not break the doctor
            lines.append(f"Pi camera: picamera2 installed but libcamera fails: {exc}")
        else:
            if cameras:
                models = ", ".join(str(c.get("Model", "?")) for c in cameras)
                lines.append(f"Pi camera: {len(cameras)} found ({models}); use --source pi")
            else:
                lines.append("Pi camera: picamera2 installed, no camera connected: check the ribbon cable.")
    lines.append(f"OpenCV {cv2.__version__}")
    devices = sorted(Path("/dev").glob("video*"), key=_natural_key) if os.name == "posix" else []
    if devices:
        named = ", ".join(f"{d} ({name})" if (name := _video_name(d)) else str(d) for d in devices)
        lines.append(f"Video devices: {named} (cam:N opens /dev/videoN)")
    elif os.name == "posix":
        lines.append("Video devices: none in /dev: no USB webcam plugged in.")
    else:
        lines.append("Video devices: cannot be listed here; try --source cam:0.")
    lines.append("Synthetic dice tray: always available (--source synthetic).")
    return lines
