"""Odd frames must give a clear, empty result from every vision entry point, never an exception."""

from __future__ import annotations

import numpy as np
import pytest
from dataset_photos import dataset_photo

from vision.annotate import annotate
from vision.detect import DieCandidate, crop_die, find_dice
from vision.frame import brightest, read_photo
from vision.pips import read_dice
from vision.rest import AtRestTrigger
from vision.types import DieReading, TrayReading


@pytest.fixture
def byler_photo(datasets) -> np.ndarray:
    return dataset_photo(datasets, "byler-d6", "IMG_20191208_111228.jpg")


ODD_FRAMES = {
    "none": None,
    "empty": np.zeros((0, 0, 3), np.uint8),
    "one pixel": np.zeros((1, 1, 3), np.uint8),
    "one row": np.full((1, 640, 3), 200, np.uint8),
    "all black": np.zeros((480, 640, 3), np.uint8),
    "all white": np.full((480, 640, 3), 255, np.uint8),
    "flat grey 2-D": np.full((480, 640), 128, np.uint8),
    "noise": np.random.default_rng(1).integers(0, 256, (480, 640, 3), dtype=np.uint8),
    "float nan": np.full((64, 64, 3), np.nan, np.float32),
    "four channels": np.zeros((8, 8, 4), np.uint8),
    "1-D": np.zeros(100, np.uint8),
}


@pytest.mark.parametrize("name", list(ODD_FRAMES))
def test_odd_frames_read_as_empty_tray(name: str) -> None:
    frame = ODD_FRAMES[name]
    reading = read_dice(frame)
    assert isinstance(reading, TrayReading)
    if name != "noise":
        assert reading.dice == ()
    assert isinstance(find_dice(frame), list)
    assert annotate(frame, reading).ndim == 3


def test_huge_frame_is_read_quickly_and_in_its_own_coordinates() -> None:
    # A 12000x9000 frame with one big drawn die: boxes must come back in the big frame's pixels.
    frame = np.full((9000, 12000, 3), 90, np.uint8)
    x0, y0, side = 6000, 3000, 900
    frame[y0:y0 + side, x0:x0 + side] = 235
    for px, py in ((0.25, 0.25), (0.75, 0.75), (0.5, 0.5)):
        cx, cy = int(x0 + px * side), int(y0 + py * side)
        yy, xx = np.ogrid[-80:81, -80:81]
        disc = xx * xx + yy * yy <= 80 * 80
        frame[cy - 80:cy + 81, cx - 80:cx + 81][disc] = 20
    reading = read_dice(frame)
    assert reading.faces == [3]
    bx0, by0, bx1, by1 = reading.dice[0].box
    assert abs((bx0 + bx1) / 2 - (x0 + side / 2)) < side * 0.2
    assert abs((by0 + by1) / 2 - (y0 + side / 2)) < side * 0.2
    cands = find_dice(frame)
    assert any(c.box[0] <= x0 + side / 2 <= c.box[2] and c.box[1] <= y0 + side / 2 <= c.box[3] for c in cands)


def test_grey_and_bgra_frames_read_like_bgr(byler_photo: np.ndarray) -> None:
    import cv2

    faces = sorted(read_dice(byler_photo).faces, key=str)
    grey = cv2.cvtColor(byler_photo, cv2.COLOR_BGR2GRAY)
    bgra = cv2.cvtColor(byler_photo, cv2.COLOR_BGR2BGRA)
    assert sorted(read_dice(bgra).faces, key=str) == faces
    assert isinstance(read_dice(grey), TrayReading)


def test_crop_die_gives_requested_square_even_at_the_border() -> None:
    frame = np.zeros((100, 100, 3), np.uint8)
    cand = DieCandidate(box=(0, 0, 20, 20), rect=((5.0, 5.0), (20.0, 20.0), 30.0), size=20.0, score=1.0)
    assert crop_die(frame, cand, 48).shape == (48, 48, 3)
    assert crop_die(None, cand).shape == (64, 64, 3)


def test_trigger_ignores_unreadable_frames() -> None:
    trig = AtRestTrigger(still_seconds=0.2, reader=lambda f: TrayReading((DieReading(1, 1.0, (0, 0, 1, 1)),)))
    for i in range(10):
        assert trig.feed(None, i * 0.1) is None
        assert trig.feed(np.zeros((1, 1, 3), np.uint8), i * 0.1) is None


def test_the_same_frame_gives_the_same_dice_every_time() -> None:
    """Touching dice are split by k-means, whose first centres are drawn at random: unseeded, reading a photo a
    second time could split them a pixel apart (and a taught die then read differently)."""
    from hardware.synthetic import render_tray

    rng = np.random.default_rng(3)
    frames = [render_tray(rng, n_dice=4)[0] for _ in range(15)]
    first = [[c.rect for c in find_dice(f)] for f in frames]
    for _ in range(2):
        assert [[c.rect for c in find_dice(f)] for f in frames] == first


def test_a_photo_is_read_whatever_its_name_and_a_broken_one_quietly_is_none(tmp_path, capfd):
    """A broken file is None without OpenCV's decoder logging its own line on stderr beside the companion's
    message; a name with an umlaut opens; a file that cannot be read at all is an OSError for the caller to say."""
    import cv2

    good = tmp_path / "Würfel.png"
    cv2.imwrite(str(good), np.full((40, 60, 3), 200, np.uint8))
    (tmp_path / "cut.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    (tmp_path / "empty.jpg").write_bytes(b"")
    capfd.readouterr()
    assert read_photo(good).shape == (40, 60, 3)
    assert read_photo(tmp_path / "cut.png") is None and read_photo(tmp_path / "empty.jpg") is None
    assert capfd.readouterr().err == ""
    with pytest.raises(OSError):
        read_photo(tmp_path / "missing.png")



def test_a_photo_whose_header_claims_a_huge_size_is_no_image(tmp_path):
    """A flipped header byte claims 60000x60000: OpenCV refuses it with an error of its own, which stopped
    ``companion read`` and ``teach --examples`` with a traceback and the companion on a folder of photos."""
    import struct
    import zlib

    import cv2

    data = bytearray(cv2.imencode(".png", np.zeros((8, 8, 3), np.uint8))[1].tobytes())
    data[16:24] = struct.pack(">II", 60000, 60000)  # IHDR's width and height, its checksum made right again
    data[29:33] = struct.pack(">I", zlib.crc32(bytes(data[12:29])))
    (tmp_path / "huge.png").write_bytes(bytes(data))
    assert read_photo(tmp_path / "huge.png") is None


def test_brightest_is_the_95th_percentile_of_each_pixels_brightest_channel():
    """``vision.frame.brightest`` (a camera's light level, a crop's exposure) gives numpy's percentile exactly, for
    grey, BGR and BGRA pictures, a strided sample of a frame and a single pixel."""
    rng = np.random.default_rng(5)
    for shape in [(7, 9), (40, 40, 3), (13, 5, 4), (1, 1, 3)]:
        image = rng.integers(0, 256, shape, dtype=np.uint8)
        expected = float(np.percentile(image.max(axis=2) if image.ndim == 3 else image, 95))
        assert brightest(image) == pytest.approx(expected, abs=1e-9), shape
    frame = rng.integers(0, 256, (480, 640, 3), dtype=np.uint8)
    assert brightest(frame[::16, ::16]) == pytest.approx(float(np.percentile(frame[::16, ::16].max(axis=2), 95)))


def test_an_annotated_die_not_read_for_sure_is_labelled_apart_from_the_face_named_question_mark(monkeypatch):
    """Not by the box's colour alone (green against orange, which red-green colour-blind eyes confuse): Echt
    Spitze's "?" face, read for sure, and a die the reader is not sure of carry different labels."""
    import vision.annotate

    written = []
    real = vision.annotate.cv2.putText
    monkeypatch.setattr(vision.annotate.cv2, "putText", lambda img, text, *a, **k: (written.append(text),
                                                                                    real(img, text, *a, **k))[1])
    frame = np.full((120, 160, 3), 90, np.uint8)
    annotate(frame, TrayReading((DieReading("?", 1.0, (10, 40, 40, 70)), DieReading(None, 0.3, (80, 40, 110, 70)))))
    assert written == ["1: ?", "2: (?)"]


def test_annotated_dice_are_numbered_and_an_unsure_one_is_the_screens_magenta(monkeypatch) -> None:
    """The annotated photo named no die: a die the screen asks about by number ("die 7") was not to be found in it,
    nor a JSON line's die; an unsure die was orange where every screen draws it magenta."""
    import cv2

    from companion.views.theme import UNKNOWN

    frame = np.full((480, 640, 3), 90, np.uint8)
    reading = TrayReading((DieReading(5, 0.9, (100, 200, 160, 260)), DieReading(None, 0.3, (300, 200, 360, 260))))
    labels: list[tuple[str, tuple[int, ...]]] = []
    put_text = cv2.putText
    monkeypatch.setattr(cv2, "putText", lambda img, text, org, font, scale, colour, *a: (
        labels.append((text, tuple(colour))), put_text(img, text, org, font, scale, colour, *a))[1])
    out = annotate(frame, reading)
    magenta = tuple(UNKNOWN[::-1])  # BGR
    assert labels == [("1: 5", labels[0][1]), ("2: (?)", magenta)]
    assert tuple(int(c) for c in out[230, 300]) == magenta  # the unsure die's box
