"""Every frame source, on real files written here, on the shared photo datasets, and with cameras absent."""

from __future__ import annotations

import os
import sys
import time
import types
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.errors import SourceError
from hardware import sources
from hardware.sources import (
    PICAMERA_MISSING,
    CaptureDevice,
    FrameSource,
    PhotoFolder,
    PiCamera,
    VideoFile,
    open_source,
)
from hardware.synthetic import SyntheticTray


def datasets_dir() -> Path:
    default = Path(__file__).resolve().parents[2] / "shared" / "datasets"
    return Path(os.environ.get("COMPANION_DATASETS", default))


class FakeClock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def solid(value: tuple[int, int, int], size: tuple[int, int] = (64, 48)) -> np.ndarray:
    img = np.zeros((size[1], size[0], 3), np.uint8)
    img[:] = value
    return img


@pytest.fixture
def photos(tmp_path: Path) -> Path:
    """Three photos in an order only natural sorting gets right, a broken one and a file that is no photo."""
    cv2.imwrite(str(tmp_path / "throw_1.png"), solid((255, 0, 0)))
    cv2.imwrite(str(tmp_path / "throw_2.png"), solid((0, 255, 0)))
    cv2.imwrite(str(tmp_path / "throw_10.png"), solid((0, 0, 255)))
    (tmp_path / "aaa_broken.jpg").write_bytes(b"not a jpeg at all")
    (tmp_path / "notes.txt").write_text("dice photos from Friday")
    return tmp_path


def colour_of(frame: np.ndarray) -> tuple[int, int, int]:
    return tuple(int(c) for c in frame.reshape(-1, 3).mean(0).round())


# -- folder --------------------------------------------------------------------------------------------------


def test_folder_replays_photos_in_natural_order_on_each_roll(photos: Path) -> None:
    with PhotoFolder(photos, fps=None) as src:
        assert src.is_open
        assert [p.name for p in src.paths] == ["aaa_broken.jpg", "throw_1.png", "throw_2.png", "throw_10.png"]
        first = src.read()
        assert first.dtype == np.uint8 and first.shape == (48, 64, 3)
        assert colour_of(first) == (255, 0, 0)  # the broken file was skipped
        assert [p.name for p in src.unreadable] == ["aaa_broken.jpg"]
        assert colour_of(src.read()) == (255, 0, 0)  # the same photo until ROLL
        src.roll()
        assert colour_of(src.read()) == (0, 255, 0)
        src.roll()
        assert colour_of(src.read()) == (0, 0, 255)
        src.roll()
        assert colour_of(src.read()) == (255, 0, 0)  # starts over, still skipping the broken one
        assert "4 photos" in src.description and "on each roll" in src.description
    assert not src.is_open
    with pytest.raises(RuntimeError):
        src.read()


def test_a_broken_photo_in_the_folder_is_skipped_without_opencvs_own_log_line(
        photos: Path, capfd: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture) -> None:
    """The companion's warning names the file; OpenCV's decoder error beside it on stderr only confused."""
    (photos / "aab_cut.png").write_bytes(b"\x89PNG\r\n\x1a\n" + b"x" * 40)
    capfd.readouterr()
    with caplog.at_level("WARNING"), PhotoFolder(photos, fps=None) as src:
        assert colour_of(src.read()) == (255, 0, 0)
        assert [p.name for p in src.unreadable] == ["aaa_broken.jpg", "aab_cut.png"]
    assert "IHDR" not in capfd.readouterr().err
    assert "aab_cut.png" in caplog.text


def test_folder_moves_on_by_itself_every_n_seconds(photos: Path) -> None:
    clock = FakeClock()
    with PhotoFolder(photos, every=2.0, fps=None, clock=clock) as src:
        assert colour_of(src.read()) == (255, 0, 0)
        clock.now = 1.9
        assert colour_of(src.read()) == (255, 0, 0)
        clock.now = 2.0
        assert colour_of(src.read()) == (0, 255, 0)
        clock.now = 4.1
        assert colour_of(src.read()) == (0, 0, 255)


def test_folder_frames_are_paced_so_the_reader_does_not_spin(photos: Path) -> None:
    clock = FakeClock()
    with PhotoFolder(photos, fps=10.0, clock=clock) as src:
        assert src.read() is not None
        clock.now = 0.05
        assert src.read() is None
        clock.now = 0.1
        assert src.read() is not None
        clock.now = 0.15
        assert src.read() is None


def test_folder_makes_grey_and_transparent_photos_bgr(tmp_path: Path) -> None:
    cv2.imwrite(str(tmp_path / "a_grey.png"), np.full((10, 12), 77, np.uint8))
    bgra = np.dstack([solid((10, 20, 30), (12, 10)), np.full((10, 12), 128, np.uint8)])
    cv2.imwrite(str(tmp_path / "b_alpha.png"), bgra)
    with PhotoFolder(tmp_path, fps=None) as src:
        grey = src.read()
        assert grey.shape == (10, 12, 3) and colour_of(grey) == (77, 77, 77)
        src.roll()
        alpha = src.read()
        assert alpha.shape == (10, 12, 3) and colour_of(alpha) == (10, 20, 30)


def test_frames_are_copies_so_a_reader_may_draw_on_them(photos: Path) -> None:
    with PhotoFolder(photos, fps=None) as src:
        frame = src.read()
        frame[:] = 0
        assert colour_of(src.read()) == (255, 0, 0)


@pytest.mark.parametrize(
    ("setup", "message"),
    [
        (lambda p: None, "has no photos"),
        (lambda p: (p / "x.png").write_bytes(b"garbage"), "can be read"),
    ],
)
def test_folder_errors_say_what_to_do(tmp_path: Path, setup, message: str) -> None:
    setup(tmp_path)
    with pytest.raises(SourceError, match=message):
        PhotoFolder(tmp_path).open()


def test_missing_folder_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(SourceError, match="does not exist"):
        open_source(f"folder:{tmp_path / 'nope'}")
    photo = tmp_path / "dice.jpg"
    photo.write_bytes(b"x")
    with pytest.raises(SourceError, match="is a file, not a folder"):  # it exists: "does not exist" misled
        open_source(f"folder:{photo}")
    with pytest.raises(SourceError, match="cannot be read .File name too long"):  # it stopped the companion's start
        open_source(f"folder:{tmp_path / ('a' * 300)}")


@pytest.mark.parametrize("name", ["matteo-d6", "byler-d6"])
def test_folder_replays_a_real_dataset(name: str) -> None:
    images = datasets_dir() / name / "images"
    if not images.is_dir():
        pytest.skip(f"dataset {images} is absent (set COMPANION_DATASETS to its folder)")
    expected = sorted(p.name for p in images.iterdir() if p.suffix.lower() in (".jpg", ".jpeg", ".png"))
    with open_source(f"folder:{images}") as src:
        assert isinstance(src, PhotoFolder)
        assert sorted(p.name for p in src.paths) == expected
        seen = set()
        for _ in range(3):
            frame = _read_unpaced(src)
            assert frame.dtype == np.uint8 and frame.ndim == 3 and frame.shape[2] == 3
            assert frame.shape[0] >= 240 and frame.std() > 5  # a real picture, not a blank
            seen.add(src.current_path.name)
            src.roll()
        assert len(seen) == 3


def _read_unpaced(src: FrameSource) -> np.ndarray:
    frame = None
    for _ in range(200):
        frame = src.read()
        if frame is not None:
            return frame
        time.sleep(0.01)
    raise AssertionError("no frame within 2 s")


# -- video ---------------------------------------------------------------------------------------------------


@pytest.fixture
def video(tmp_path: Path) -> Path:
    path = tmp_path / "throws.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 10.0, (64, 48))
    assert writer.isOpened()
    for i in range(12):
        writer.write(solid((i * 20, i * 20, i * 20)))
    writer.release()
    return path


def test_video_plays_every_frame_in_order_then_starts_over(video: Path) -> None:
    with VideoFile(video, realtime=False) as src:
        levels = [colour_of(src.read())[0] for _ in range(14)]
    assert levels[:12] == pytest.approx([i * 20 for i in range(12)], abs=4)
    assert levels[12:] == pytest.approx([0, 20], abs=4)
    assert src.video_fps == pytest.approx(10.0)


def test_video_without_loop_ends_with_none(video: Path) -> None:
    with VideoFile(video, loop=False, realtime=False) as src:
        frames = [src.read() for _ in range(13)]
    assert all(f is not None for f in frames[:12]) and frames[12] is None


def test_video_plays_at_its_own_frame_rate(video: Path) -> None:
    clock = FakeClock()
    with VideoFile(video, clock=clock) as src:
        assert src.read() is not None
        clock.now = 0.05
        assert src.read() is None  # 10 fps: the next frame is due at 0.1 s
        clock.now = 0.1
        assert colour_of(src.read())[0] == pytest.approx(20, abs=4)


def test_unreadable_and_missing_videos_are_clear_errors(tmp_path: Path) -> None:
    bad = tmp_path / "broken.avi"
    bad.write_bytes(b"this is not a video")
    with pytest.raises(SourceError, match="cannot be played as a video"):
        open_source(f"video:{bad}")
    with pytest.raises(SourceError, match="no video file"):
        open_source(f"video:{tmp_path / 'missing.avi'}")


# -- cameras -------------------------------------------------------------------------------------------------


def test_a_camera_index_with_no_device_is_a_clear_error() -> None:
    with pytest.raises(SourceError, match=r"No camera at cam:63.*USB webcam"):
        open_source("cam:63")
    assert not CaptureDevice(63).is_open


def test_pi_camera_without_picamera2_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "picamera2", None)  # import fails on any machine, a Pi included
    with pytest.raises(SourceError) as caught:
        open_source("pi")
    assert str(caught.value) == PICAMERA_MISSING
    assert "sudo apt install python3-picamera2" in str(caught.value)
    assert "--system-site-packages" in str(caught.value)


class FakePicamera2:
    """The few picamera2 calls PiCamera makes, recorded, with the behaviour the picamera2 manual documents."""

    cameras = [{"Model": "imx708", "Num": 0}]
    instances: list[FakePicamera2] = []
    hung = False
    light: int | tuple[int, int, int] | None = None  # a grey table this bright, or of this colour (B, G, R)
    exposure = 12000

    def __init__(self, camera_num: int = 0) -> None:
        self.camera_num = camera_num
        self.calls: list[tuple] = []
        FakePicamera2.instances.append(self)

    @staticmethod
    def global_camera_info() -> list[dict]:
        return FakePicamera2.cameras

    def create_video_configuration(self, main: dict) -> dict:
        return {"main": main}

    def configure(self, config: dict) -> None:
        self.config = config

    def start(self) -> None:
        self.calls.append(("start",))

    def capture_metadata(self, wait: float | None = None) -> dict:
        return {"ExposureTime": FakePicamera2.exposure, "AnalogueGain": 2.5, "ColourGains": (1.8, 1.4)}

    def set_controls(self, controls: dict) -> None:
        self.calls.append(("set_controls", dict(controls)))

    def capture_array(self, name: str = "main", wait: float | None = None) -> np.ndarray:
        self.calls.append(("capture_array", wait))
        if FakePicamera2.hung:  # what picamera2 does when no frame came within ``wait`` seconds: the job stays
            self.pending = True
            raise TimeoutError()
        w, h = self.config["main"]["size"]
        if FakePicamera2.light is not None:
            return np.full((h, w, 3), FakePicamera2.light, np.uint8)
        frame = np.zeros((h, w, 3), np.uint8)
        frame[..., 0] = 200  # RGB888 is B, G, R in memory: blue first, as OpenCV wants
        return frame

    pending = False  # a timed-out request's job, first in the job list

    def cancel_all_and_flush(self) -> None:
        self.calls.append(("cancel_all_and_flush",))
        self.pending = False

    def stop(self) -> None:
        if self.pending:  # picamera2 queues stop_ behind the timed-out job: it would wait for ever
            raise AssertionError("stop() with a timed-out job pending blocks for ever")
        self.calls.append(("stop",))

    def close(self) -> None:
        self.calls.append(("close",))


@pytest.fixture
def fake_picamera2(monkeypatch: pytest.MonkeyPatch):
    module = types.ModuleType("picamera2")
    module.Picamera2 = FakePicamera2
    FakePicamera2.instances = []
    monkeypatch.setattr(FakePicamera2, "hung", False)
    monkeypatch.setattr(FakePicamera2, "light", None)
    monkeypatch.setattr(FakePicamera2, "exposure", 12000)
    monkeypatch.setitem(sys.modules, "picamera2", module)
    return FakePicamera2


def test_pi_camera_locks_exposure_and_white_balance_it_found(fake_picamera2) -> None:
    with PiCamera(size=(320, 240), settle=0) as cam:
        frame = cam.read()
        picam = fake_picamera2.instances[0]
        assert picam.config == {"main": {"size": (320, 240), "format": "RGB888"}}
        controls = [c[1] for c in picam.calls if c[0] == "set_controls"]
        assert controls == [{"AeEnable": False, "AwbEnable": False, "ExposureTime": 12000,
                             "AnalogueGain": 2.5, "ColourGains": (1.8, 1.4)}]
        assert frame.shape == (240, 320, 3) and colour_of(frame) == (200, 0, 0)
    assert picam.calls[-3:] == [("cancel_all_and_flush",), ("stop",), ("close",)]


class FakeCameraModule3(FakePicamera2):
    """A Camera Module 3: a motor lens, focused by one autofocus cycle (``wait`` gives its result)."""

    camera_controls = {"AfMode": (0, 2, 0), "LensPosition": (0.0, 15.0, 1.0)}
    focus: bool | Exception = True  # what the cycle ends with: sharp, nothing sharp, or an error

    def autofocus_cycle(self, wait: bool | None = None) -> str:
        self.calls.append(("autofocus_cycle", wait))
        return "af-job"

    def wait(self, job: str, timeout: float | None = None) -> bool:
        self.calls.append(("wait", job, timeout))
        if isinstance(FakeCameraModule3.focus, Exception):
            raise FakeCameraModule3.focus
        return FakeCameraModule3.focus


@pytest.mark.parametrize("focus", [True, False, TimeoutError()])
def test_a_camera_module_3_focuses_on_the_tray_once_before_the_lock(fake_picamera2, monkeypatch, focus) -> None:
    """Its lens sits focused about a metre away: dice half a metre below come out soft. A cycle that finds
    nothing sharp, or does not finish, leaves the camera working."""
    sys.modules["picamera2"].Picamera2 = FakeCameraModule3
    monkeypatch.setattr(FakeCameraModule3, "focus", focus)
    with PiCamera(size=(320, 240), settle=0) as cam:
        assert cam.read() is not None
        picam = fake_picamera2.instances[0]
        steps = [c[0] for c in picam.calls if c[0] != "cancel_all_and_flush"]  # (a timed-out focus is dropped)
        assert steps[:4] == ["start", "autofocus_cycle", "wait", "set_controls"]  # focused, then locked
        assert ("autofocus_cycle", False) in picam.calls and ("wait", "af-job", PiCamera.FOCUS_TIMEOUT) in picam.calls
        assert steps.count("autofocus_cycle") == 1


class FakeStuckFocusCamera(FakeCameraModule3):
    """A focus that does not finish in time: picamera2 leaves its job first in the job list, and every later
    frame waits behind it until the list is flushed."""

    flush_fails = False

    def wait(self, job: str, timeout: float | None = None) -> bool:
        self.calls.append(("wait", job, timeout))
        self.pending = True
        raise TimeoutError()

    def cancel_all_and_flush(self) -> None:
        if FakeStuckFocusCamera.flush_fails:
            raise RuntimeError("camera gone")
        super().cancel_all_and_flush()

    def capture_array(self, name: str = "main", wait: float | None = None) -> np.ndarray:
        if self.pending:
            raise TimeoutError()  # stuck behind the focus job
        return super().capture_array(name, wait)


def test_a_focus_that_timed_out_is_dropped_so_the_camera_goes_on(fake_picamera2, monkeypatch) -> None:
    """A timed-out autofocus stayed first in picamera2's job list: every frame after it timed out too, and the
    tray was never read."""
    sys.modules["picamera2"].Picamera2 = FakeStuckFocusCamera
    with PiCamera(size=(320, 240), settle=0) as cam:
        picam = fake_picamera2.instances[0]
        steps = [c[0] for c in picam.calls]
        assert steps.index("cancel_all_and_flush") == steps.index("wait") + 1
        assert cam.read() is not None


def test_a_focus_timeout_whose_flush_fails_does_not_stop_the_start(fake_picamera2, monkeypatch) -> None:
    sys.modules["picamera2"].Picamera2 = FakeStuckFocusCamera
    monkeypatch.setattr(FakeStuckFocusCamera, "flush_fails", True)
    cam = PiCamera(size=(320, 240), settle=0)
    cam._cam = FakeStuckFocusCamera()
    cam._focus()  # no exception: the camera's own frames say what is wrong next
    assert cam._focus_again_at is not None


def test_a_focus_that_found_nothing_sharp_is_tried_again_until_one_does(fake_picamera2, monkeypatch) -> None:
    """An empty plain tray at the start gives the autofocus nothing to find: it tries again every
    REFOCUS_SECONDS, and stops once a cycle is sharp (dice in the tray)."""
    sys.modules["picamera2"].Picamera2 = FakeCameraModule3
    monkeypatch.setattr(FakeCameraModule3, "focus", False)
    now = [100.0]
    cam = PiCamera(size=(320, 240), settle=0, clock=lambda: now[0])
    cam.open()
    picam = fake_picamera2.instances[0]

    def cycles() -> int:
        return sum(c[0] == "autofocus_cycle" for c in picam.calls)

    cam._grab()
    assert cycles() == 1
    now[0] += PiCamera.REFOCUS_SECONDS - 1
    cam._grab()
    assert cycles() == 1
    now[0] += 1
    FakeCameraModule3.focus = True  # dice in the tray now
    cam._grab()
    assert cycles() == 2
    now[0] += 10 * PiCamera.REFOCUS_SECONDS
    cam._grab()
    assert cycles() == 2  # sharp: the lens stays
    cam.close()


def test_a_camera_without_a_motor_lens_is_not_focused(fake_picamera2) -> None:
    with PiCamera(size=(320, 240), settle=0) as cam:
        cam.read()
        assert not any(c[0] == "autofocus_cycle" for c in fake_picamera2.instances[0].calls)


def test_pi_camera_keeps_given_exposure(fake_picamera2) -> None:
    with PiCamera(settle=0, exposure_us=5000, analogue_gain=1.0, colour_gains=(2.0, 1.5)) as cam:
        assert cam.locked["ExposureTime"] == 5000
        assert cam.locked["AnalogueGain"] == 1.0
        assert cam.locked["ColourGains"] == (2.0, 1.5)


def test_a_hung_pi_camera_is_started_again_by_itself(fake_picamera2) -> None:
    """A Pi camera that stops delivering frames (libcamera's "frontend has timed out") made picamera2 wait for
    ever: the dice watcher hung, and only a restart of the Pi brought the table back."""
    clock = FakeClock()
    cam = PiCamera(size=(320, 240), settle=0, clock=clock)
    cam.open()
    assert cam.read() is not None
    first = fake_picamera2.instances[0]
    assert ("capture_array", PiCamera.FRAME_TIMEOUT) in first.calls  # never waited for without a limit
    fake_picamera2.hung = True
    with pytest.raises(SourceError, match="ribbon cable.*started again by itself"):
        cam.read()
    assert first.calls[-3:] == [("cancel_all_and_flush",), ("stop",), ("close",)]  # let go: its handle stays dead
    assert cam.read() is None and len(fake_picamera2.instances) == 1  # not looked for again at once
    clock.now += PiCamera.RETRY_SECONDS
    assert cam.read() is None and len(fake_picamera2.instances) == 2  # started anew
    with pytest.raises(SourceError, match="started again by itself"):
        cam.read()  # still hung
    fake_picamera2.hung = False
    clock.now += PiCamera.RETRY_SECONDS
    assert cam.read() is None and len(fake_picamera2.instances) == 3
    frame = cam.read()
    assert frame is not None and colour_of(frame) == (200, 0, 0)
    cam.close()
    assert fake_picamera2.instances[-1].calls[-2:] == [("stop",), ("close",)]


class FakeMonoCamera(FakePicamera2):
    """A mono sensor: libcamera reports no ColourGains and offers no white balance to set."""

    def capture_metadata(self, wait: float | None = None) -> dict:
        return {"ExposureTime": 9000, "AnalogueGain": 1.5}

    def set_controls(self, controls: dict) -> None:
        if "AwbEnable" in controls or "ColourGains" in controls:
            raise RuntimeError("Control AwbEnable is not advertised by libcamera")
        super().set_controls(controls)


def test_a_mono_camera_locks_its_exposure_only(fake_picamera2) -> None:
    """Its missing ColourGains stopped the companion at start (a KeyError), every start."""
    sys.modules["picamera2"].Picamera2 = FakeMonoCamera
    with PiCamera(size=(320, 240), settle=0) as cam:
        assert cam.read() is not None
        assert cam.locked == {"AeEnable": False, "ExposureTime": 9000, "AnalogueGain": 1.5}


@pytest.mark.parametrize("failure", ["import", "focus", "setup"])
def test_a_pi_camera_library_that_fails_oddly_is_a_source_error_not_a_crash(fake_picamera2, monkeypatch,
                                                                             failure) -> None:
    """numpy 2 beside the OS's picamera2 raises ValueError at import, a picamera2 before 0.3.17 a TypeError at
    ``wait(job, timeout=)``: both escaped as crashes (the Pi service restarting into them every 3 s)."""
    if failure == "import":
        module = types.ModuleType("picamera2")

        def broken(name):
            raise ValueError("numpy.dtype size changed, may indicate binary incompatibility")

        module.__getattr__ = broken
        monkeypatch.setitem(sys.modules, "picamera2", module)
        with pytest.raises(SourceError, match="numpy.*setup.sh"):
            PiCamera(size=(320, 240), settle=0).open()
        return
    if failure == "focus":
        class OldModule3(FakeCameraModule3):
            def wait(self, job):  # picamera2 before 0.3.17
                return True

        sys.modules["picamera2"].Picamera2 = OldModule3
        with PiCamera(size=(320, 240), settle=0) as cam:  # works, the lens left where it is
            assert cam.read() is not None
        return

    class OddSetup(FakePicamera2):
        def capture_metadata(self, wait: float | None = None) -> dict:
            raise KeyError("SensorTimestamp")

    sys.modules["picamera2"].Picamera2 = OddSetup
    with pytest.raises(SourceError, match="cannot be set up"):
        PiCamera(size=(320, 240), settle=0).open()
    assert fake_picamera2.instances[-1].calls[-1] == ("close",)


def _pi_under_lamps(fake_picamera2, **kw) -> tuple[PiCamera, Callable, Callable]:
    """An open Pi camera on a fake clock; ``frames(light, seconds)`` reads that long under that light (10 frames a
    second), ``controls()`` lists what was set on the camera."""
    clock = FakeClock()
    cam = PiCamera(size=(160, 120), settle=0, clock=clock, **kw)
    cam.open()
    picam = fake_picamera2.instances[0]

    def frames(light: int | tuple[int, int, int], seconds: float) -> None:
        fake_picamera2.light = light
        for _ in range(int(seconds * 10)):
            assert cam.read() is not None
            clock.now += 0.1

    def controls() -> list[dict]:
        return [c[1] for c in picam.calls if c[0] == "set_controls"]

    return cam, frames, controls


def test_the_pi_camera_finds_its_exposure_again_when_the_light_changes_for_good(fake_picamera2) -> None:
    """Locked at the start, the exposure burnt the dice out once a ceiling light was switched on."""
    cam, frames, controls = _pi_under_lamps(fake_picamera2)
    frames(120, 3)
    frames(230, PiCamera.RELOCK_AFTER - 1)  # a white sleeve over the tray, a lamp for a moment: not for good
    frames(120, 3)
    frames(50, PiCamera.RELOCK_AFTER - 1)  # a player leaning over the tray
    frames(120, 3)
    assert controls() == [cam.locked]
    fake_picamera2.exposure = 4000  # what automatic exposure finds under the brighter light
    frames(230, PiCamera.RELOCK_AFTER + 0.5)
    assert controls()[1] == {"AeEnable": True, "AwbEnable": True}  # automatic, for a moment
    frames(150, 1.0)
    assert controls()[2:] == [cam.locked] and cam.locked["ExposureTime"] == 4000 and not cam.locked["AeEnable"]
    frames(150, 2 * PiCamera.RELOCK_AFTER)  # the new level is the one to keep
    assert len(controls()) == 3
    cam.close()


@pytest.mark.parametrize("owner_gains", [None, (1.6, 1.5)])
def test_the_pi_camera_finds_its_white_balance_again_when_the_lamps_change_colour(fake_picamera2, owner_gains) -> None:
    """Taught by daylight and read under a warm lamp of the same brightness, the taught reader asked about most
    dice: a lasting change of the light's colour is looked at again too, unless the owner gave the colour gains."""
    cam, frames, controls = _pi_under_lamps(fake_picamera2, colour_gains=owner_gains)
    daylight, lamp = (150, 150, 150), (110, 140, 170)  # the lamp: as bright, warmer (B, G, R)
    frames(daylight, 3)
    frames((140, 150, 160), PiCamera.RELOCK_AFTER + 1)  # a little warmer: within what the reader takes
    frames(lamp, PiCamera.RELOCK_AFTER - 1)  # a warm sleeve over the tray for a while: not for good
    frames(daylight, 3)
    assert controls() == [cam.locked]
    frames(lamp, PiCamera.RELOCK_AFTER + 0.5)
    if owner_gains is not None:
        assert controls() == [cam.locked] and cam.locked["ColourGains"] == owner_gains
        return
    assert controls()[1] == {"AeEnable": True, "AwbEnable": True}
    frames(daylight, 1.0)  # what the white balance makes of the tray under the lamp
    assert controls()[2:] == [cam.locked] and not cam.locked["AwbEnable"]
    frames(daylight, 2 * PiCamera.RELOCK_AFTER)
    assert len(controls()) == 3
    cam.close()


def test_pi_camera_not_connected_is_a_clear_error(fake_picamera2, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(FakePicamera2, "cameras", [])
    with pytest.raises(SourceError, match="ribbon cable"):
        open_source("pi")


# -- choosing ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("spec", "message"),
    [("webcam", "Unknown picture source"), ("cam:first", "cam:0"), ("folder:", "needs a path"),
     ("video:", "needs a path"), ("pi:x", "pi:1"), ("synthetic:three", "whole number as its seed")],
)
def test_bad_source_specs_are_clear_errors(spec: str, message: str) -> None:
    with pytest.raises(SourceError, match=message):
        open_source(spec)


def test_specs_open_the_named_kind(photos: Path, video: Path) -> None:
    kinds = [(f"folder:{photos}", PhotoFolder), (f"video:{video}", VideoFile), ("synthetic", SyntheticTray)]
    for spec, kind in kinds:
        src = open_source(spec, rng_seed=1)
        try:
            assert isinstance(src, kind) and src.is_open
            src.open()  # opening again is harmless: the app opens what open_source returned
        finally:
            src.close()


@pytest.fixture
def no_cameras(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "picamera2", None)

    def no_webcam(self: CaptureDevice) -> None:
        raise SourceError(f"No camera at cam:{self.index}")

    monkeypatch.setattr(CaptureDevice, "_open", no_webcam)


def test_auto_falls_back_to_the_synthetic_tray_and_says_why(no_cameras) -> None:
    with open_source("auto", rng_seed=5) as src:
        assert isinstance(src, SyntheticTray)
        assert [s.split(":")[0] for s in src.skipped] == ["pi", "cam"]
        assert "python3-picamera2" in src.skipped[0]
        assert src.read().shape == (480, 640, 3)


def test_auto_prefers_a_given_folder_over_the_synthetic_tray(no_cameras, photos: Path) -> None:
    with open_source("auto", folder=photos) as src:
        assert isinstance(src, PhotoFolder)
        assert len(src.skipped) == 2


def test_auto_prefers_the_pi_camera_when_there_is_one(fake_picamera2,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sources, "PI_SETTLE_SECONDS", 0.0)
    with open_source("auto") as src:
        assert isinstance(src, PiCamera) and src.skipped == []


def test_diagnose_names_what_is_missing_and_what_works(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "picamera2", None)
    lines = sources.diagnose()
    assert any("picamera2 not installed" in line and "sudo apt install" in line for line in lines)
    assert any(line.startswith("OpenCV") for line in lines)
    assert any("Synthetic" in line for line in lines)


def test_diagnose_lists_pi_cameras(fake_picamera2) -> None:
    assert any("imx708" in line for line in sources.diagnose())


class FakeWebcam:
    """cv2.VideoCapture for a USB camera that can be pulled out: a handle opened before it was pulled stays dead
    even after it is plugged back in, as a real one does."""

    plugged = True

    def __init__(self, index: int) -> None:
        self.alive = FakeWebcam.plugged

    def isOpened(self) -> bool:  # noqa: N802 - OpenCV's name
        return self.alive

    def read(self):
        if self.alive and FakeWebcam.plugged:
            return True, solid((10, 200, 30))
        self.alive = False
        return False, None

    def set(self, prop: int, value: float) -> bool:
        return True

    def release(self) -> None:
        self.alive = False


def test_a_webcam_pulled_out_and_plugged_back_in_starts_again_by_itself(monkeypatch):
    monkeypatch.setattr(sources.cv2, "VideoCapture", FakeWebcam)
    monkeypatch.setattr(FakeWebcam, "plugged", True)
    clock = FakeClock()
    cam = CaptureDevice(0, clock=clock)
    cam._fps = None  # every read, not 15 a second: the fake clock does not move by itself
    cam.open()
    assert cam.read() is not None
    FakeWebcam.plugged = False
    with pytest.raises(SourceError, match="check its cable.*plugged back in"):
        for _ in range(CaptureDevice.MAX_FAILURES):
            assert cam.read() is None
    assert cam.read() is None  # not looked for again at once
    clock.now += CaptureDevice.RETRY_SECONDS
    with pytest.raises(SourceError, match="check its cable"):
        cam.read()  # looked for: still out
    FakeWebcam.plugged = True
    assert cam.read() is None  # plugged back in, but the next look is not due yet
    clock.now += CaptureDevice.RETRY_SECONDS
    frames = [cam.read() for _ in range(2)]
    assert frames[0] is None and frames[1] is not None and frames[1][0, 0, 1] == 200  # opened anew, then pictures


def test_the_doctor_names_each_video_device_as_the_kernel_does(tmp_path) -> None:
    """On a Pi /dev/video0 can be the Pi camera's receiver and /dev/video10 a codec: the number alone sent
    owners to the wrong cam:N."""
    from hardware.sources import _video_name

    (tmp_path / "video0").mkdir()
    (tmp_path / "video0" / "name").write_text("HD Pro Webcam C920\n")
    assert _video_name(Path("/dev/video0"), tmp_path) == "HD Pro Webcam C920"
    assert _video_name(Path("/dev/video9"), tmp_path) == ""


def test_the_lookout_tries_the_cameras_only_when_a_video_device_appears(tmp_path) -> None:
    """A webcam plugged in after the start (or a camera enumerated after the service) is found; while /dev does not
    change nothing is opened, and a device that never opens is given up after a few tries."""
    from hardware.sources import CameraLookout

    clock = FakeClock()
    tried: list[str] = []
    opens: dict[str, object] = {}

    def opener(spec: str):
        tried.append(spec)
        if spec in opens:
            return opens[spec]
        raise SourceError(f"no camera at {spec}")

    (tmp_path / "null").touch()
    lookout = CameraLookout(clock=clock, dev=tmp_path, opener=opener)
    for _ in range(CameraLookout.TRIES):  # a few tries at first: a camera there may not have opened at the start
        assert lookout.poll() is None
        clock.now += CameraLookout.CHECK_SECONDS
    assert tried == ["pi", "cam:0"] * CameraLookout.TRIES
    tried.clear()
    for _ in range(5):
        assert lookout.poll() is None
        clock.now += CameraLookout.CHECK_SECONDS
    assert tried == []  # nothing new: nothing tried
    (tmp_path / "video0").touch()  # a device, not (yet) a camera that opens: tried a few times, then left alone
    for _ in range(CameraLookout.TRIES + 3):
        assert lookout.poll() is None
        clock.now += CameraLookout.CHECK_SECONDS
    assert tried == ["pi", "cam:0"] * CameraLookout.TRIES
    (tmp_path / "video0").unlink()  # unplugged: nothing to try
    clock.now += CameraLookout.CHECK_SECONDS
    assert lookout.poll() is None and len(tried) == 2 * CameraLookout.TRIES
    clock.now += CameraLookout.CHECK_SECONDS
    (tmp_path / "video0").touch()
    (tmp_path / "video1").touch()
    opens["cam:0"] = webcam = object()
    assert lookout.poll() is webcam
    clock.now += CameraLookout.CHECK_SECONDS / 2
    tried.clear()
    assert lookout.poll() is None and tried == []  # not due yet
    named = CameraLookout(clock=clock, dev=tmp_path, opener=opener, cameras=("cam:3",))  # the owner's camera only
    assert named.poll() is None and tried == ["cam:3"]
