"""The teaching screen's first die is found without the picture standing still: what its first search would build
and load in the screen's thread is readied off it once the camera is open (``teach_view.warm_up``)."""

from __future__ import annotations

import threading
import time
from pathlib import Path

from companion.app import App
from companion.config import Config
from companion.display import Display
from companion.views import teach_view
from hardware.sources import open_source
from vision import net


def test_the_detector_is_readied_off_the_screens_thread_and_waited_for_before_the_first_search(tmp_path, monkeypatch):
    """The first still tray found its die 160-180 ms of CPU later than the next ones (OpenCV's Lab tables built,
    the learned detector loaded and run for the first time, all in the screen's thread): the live picture stood
    still as the die was found. The app readies them in a thread of their own as the camera opens; the screen
    waits for that before its first search, never running the detector beside it."""
    monkeypatch.setattr(teach_view, "_warming", None)
    monkeypatch.setattr(net, "_detector_cache", {})
    ran_in: list[threading.Thread] = []
    real_warm = teach_view._warm

    def slow_warm() -> None:  # slower than the screen's first frames: they must wait for it, not run beside it
        ran_in.append(threading.current_thread())
        time.sleep(0.3)
        real_warm()

    monkeypatch.setattr(teach_view, "_warm", slow_warm)
    searching: list[bool] = []  # whether the readying was still running at each search of the screen
    real_find = teach_view.find_any_dice

    def find(*args, **kwargs):
        searching.append(teach_view._warming.is_alive())
        return real_find(*args, **kwargs)

    monkeypatch.setattr(teach_view, "find_any_dice", find)
    app = App(Config(), state_dir=tmp_path, display=Display((800, 480), fullscreen=False), source_spec="synthetic:5")
    try:
        assert teach_view._warming is not None and ran_in and ran_in[0] is not threading.main_thread()
        source = open_source("synthetic:5")
        source.open()
        frame = source.read()
        view = teach_view.TeachView("d6", "de", save=lambda profile: None)
        for _ in range(2):  # a still tray: the second frame is searched
            view.on_frame(frame)
        assert searching and not any(searching) and view.n_seen > 0
        assert Path(net.ANY_DICE_MODEL_PATH) in net._detector_cache
    finally:
        app.close()


def test_without_a_camera_nothing_is_readied(tmp_path, monkeypatch):
    monkeypatch.setattr(teach_view, "_warming", None)
    App(Config(), state_dir=tmp_path, display=Display((800, 480), fullscreen=False), use_camera=False)
    assert teach_view._warming is None


def test_a_start_that_fails_lets_go_of_the_camera_and_waits_for_the_readying(tmp_path, monkeypatch):
    """A bug at the start ended the program with the detector still loading in its thread: onnxruntime aborted it
    (status 134, "terminate called without an active exception") instead of the stop said in words, and the
    camera was left open. The failed start closes what it opened and waits (bounded) for the readying."""
    import pytest

    monkeypatch.setattr(teach_view, "_warming", None)
    real_warm = teach_view._warm

    def slow_warm() -> None:
        time.sleep(0.5)
        real_warm()

    monkeypatch.setattr(teach_view, "_warm", slow_warm)
    opened: list = []

    def broken(self) -> None:
        opened.append(self.watcher.source)
        raise RuntimeError("a bug at the start")

    monkeypatch.setattr(App, "_start_free_play", broken)
    with pytest.raises(RuntimeError, match="a bug at the start"):
        App(Config(), state_dir=tmp_path, display=Display((800, 480), fullscreen=False), source_spec="synthetic:5",
            start_free_play=True, catch_failures=True)
    assert teach_view._warming is not None and not teach_view._warming.is_alive()
    assert opened and not opened[0].is_open
