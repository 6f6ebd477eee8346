"""A face's teaching photos must look alike (``taught.Profile.settle``): a photo unlike the others is left out, and
two that disagree make the teaching ask for the face once more (the library, ``--examples`` and the screen)."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest
from synth_dice import crops, painter_for, show_still, write_examples

from companion import profiles
from companion.teach import teach_from_examples
from hardware.events import Button, ButtonEvent
from hardware.synthetic import render_tray
from vision import taught
from vision.taught import AGREE, Profile

OUT = Path(__file__).resolve().parents[1] / "out"


@pytest.fixture(autouse=True)
def data_home(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    return tmp_path / "data"


def _profile(*faces: str, seed: int = 5) -> tuple[Profile, list[np.ndarray]]:
    """A profile taught one easy photo of each face in ``faces``, every one of them as "3"."""
    rng = np.random.default_rng(seed)
    shots = [crops("echt-spitze", f, 1, rng, hard=False)[0] for f in faces]
    p = Profile("echt-spitze")
    for c in shots:
        p.add("3", c)
    return p, shots


def test_photos_of_one_face_that_agree_are_all_kept():
    p, _ = _profile("3", "3", "3")
    assert p.settle("3") == "agree" and len(p) == 3
    assert p._apart(0, 1) <= AGREE and p._apart(1, 2) <= AGREE


def test_a_photo_of_another_face_is_left_out_once_the_others_agree():
    p, _ = _profile("3", "7", "3")
    assert p._apart(0, 1) > AGREE and p._apart(1, 0) > AGREE  # a "7" is far from a "3", each way
    vectors, photos = p.vectors[[0, 2]].copy(), p.crops[[0, 2]].copy()
    assert p.settle("3") == "dropped"
    assert p.names == ["3", "3"] and np.array_equal(p.vectors, vectors) and np.array_equal(p.crops, photos)
    assert p.side is None or len(p.side) == 2


def test_two_photos_that_disagree_ask_for_one_more():
    p, _ = _profile("3", "7")
    assert p.settle("3") == "disagree" and len(p) == 2  # two cannot say which one is wrong
    p.add("3", crops("echt-spitze", "3", 1, np.random.default_rng(9), hard=False)[0])
    assert p.settle("3") == "dropped" and len(p) == 2 and p.settle("3") == "agree"


def test_the_same_face_on_a_die_of_another_colour_agrees():
    """Only the mark counts: a set of mixed dice (a red and an ivory die) shows each face in two colours."""
    a, b = crops("echt-spitze", "3", 2, np.random.default_rng(5), hard=False)
    reddened = np.clip(b * np.float32([0.45, 0.5, 1.1]), 0, 255).astype(np.uint8)  # the ivory body turned red
    p = Profile("echt-spitze")
    p.add("3", a)
    p.add("3", reddened)
    one = Profile("echt-spitze", ["3"], p.vectors[:1], crops=None, side=None)
    assert taught.worst_distance(taught.scores(one, p.crops[1])[1][0]) > AGREE  # by its colour, another face
    assert p.settle("3") == "agree" and len(p) == 2


def test_a_profile_without_photos_is_not_checked():
    p, _ = _profile("3", "7")
    q = Profile("echt-spitze", list(p.names), p.vectors, crops=None)
    assert q.settle("3") == "agree" and len(q) == 2


def _write(folder: Path, faces: list[tuple[str, str]], seed: int) -> None:
    """One photo per (face shown, face labelled)."""
    write_examples(folder, "echt-spitze", [f for f, _ in faces], seed, labels=[label for _, label in faces])


def test_teaching_from_a_folder_leaves_out_a_mislabelled_photo(tmp_path):
    _write(tmp_path / "ex", [("3", "3"), ("7", "3"), ("3", "3"), ("5", "5")], seed=2)
    report = teach_from_examples("echt-spitze", tmp_path / "ex")
    assert report.added == 4 and profiles.load_profile("echt-spitze").counts() == {"3": 2, "5": 1}
    assert len(report.notes) == 1 and "‘3’" in report.notes[0] and "left out" in report.notes[0]
    assert report.notes[0] in report.summary("en")


def test_teaching_from_a_folder_says_which_face_needs_one_more_photo(tmp_path):
    _write(tmp_path / "ex", [("3", "3"), ("7", "3")], seed=2)
    report = teach_from_examples("echt-spitze", tmp_path / "ex")
    assert profiles.load_profile("echt-spitze").counts() == {"3": 2}
    assert len(report.notes) == 1 and "‘3’" in report.notes[0] and "one more photo" in report.notes[0]


def test_the_teaching_screen_asks_for_a_face_once_more():
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    import pygame

    from companion.i18n import t
    from companion.views.colour_faces import face_label
    from companion.views.teach_view import TeachView

    pygame.init()
    saved: list[int] = []
    view = TeachView("echt-spitze", "en", profile=Profile("echt-spitze"), save=lambda p: saved.append(len(p)))
    rng = np.random.default_rng(2)

    def next_tray(faces: list[str]) -> None:
        """ROLL: the built-in tray throws the next die (another table and lamp: not a hand over the last one)."""
        view.on_new_tray()  # ROLL carried out: the app says so once the new tray's first frame has come
        show_still(view, render_tray(rng, faces=faces, painter=painter_for("echt-spitze"))[0])

    def show_and_answer(shown: str, answer: str) -> None:
        next_tray([shown])
        assert view.crop is not None
        labels = [i.value for i in view.menu.items]
        for _ in range(labels.index(answer)):
            view.on_button(ButtonEvent(Button.NEXT))
        view.on_button(ButtonEvent(Button.SELECT))

    show_and_answer("3", "3")
    assert view.message == t("teach.saved", "en", face="3") and view.again is None
    show_and_answer("7", "3")  # the wrong item chosen, or a blurred photo
    label = face_label("3", "en", view.dice_set)
    assert saved == [1, 2] and view.message == t("teach.again", "en", face=label)
    assert view.again == "3" and view.menu.items[0].value == "3"  # first in the menu for the next die
    surface = pygame.Surface((800, 480))
    view.draw(surface)
    OUT.mkdir(exist_ok=True)
    pygame.image.save(surface, str(OUT / "test_teach_view_again.png"))
    next_tray(["1"])  # another die: the request stays on the screen, below the question
    assert view.crop is not None and view.again == "3"
    view.draw(surface)
    pygame.image.save(surface, str(OUT / "test_teach_view_again_next_die.png"))
    for _ in range(len(view.menu.items) - 1):  # Skip, the last item: that die is not taught
        view.on_button(ButtonEvent(Button.NEXT))
    view.on_button(ButtonEvent(Button.SELECT))
    assert view.crop is None and saved == [1, 2]
    show_and_answer("3", "3")
    assert view.message == t("teach.dropped", "en", face=label) and view.again is None
    assert view.profile.counts() == {"3": 2} and saved == [1, 2, 2]


def _fritzo_orange(rng: np.random.Generator) -> Profile:
    """A Fritzo profile, as ``companion.profiles`` loads it (colour faces may be plain), taught two oranges."""
    p = Profile("fritzo", blank_faces=profiles.blank_faces("fritzo"))
    for c in crops("fritzo", "orange", 2, rng, hard=False):
        p.add("orange", c)
    assert p.settle("orange") == "agree"
    return p


def test_a_colour_photo_that_looks_like_another_taught_colour_is_asked_for_once_more():
    """A yellow cube photographed under a warm lamp has orange's colour: kept, every orange read later was asked
    about (the benchmark's seed 2). Here an orange cube stands for it, answered "yellow"."""
    rng = np.random.default_rng(5)
    p = _fritzo_orange(rng)
    p.add("yellow", crops("fritzo", "orange", 1, rng, hard=False)[0])
    assert p.settle("yellow") == "disagree" and p.looks_like("yellow") == "orange"
    assert p.counts() == {"orange": 2, "yellow": 1}  # nothing dropped: the next photo decides
    p.add("yellow", crops("fritzo", "yellow", 1, rng, hard=False)[0])
    assert p.settle("yellow") == "dropped" and p.counts() == {"orange": 2, "yellow": 1}
    assert p.looks_like("yellow") is None
    assert [taught.match(p, c).face for c in crops("fritzo", "orange", 5, rng, hard=False)] == ["orange"] * 5
    assert [taught.match(p, c).face for c in crops("fritzo", "yellow", 5, rng, hard=False)] == ["yellow"] * 5


def test_colours_far_apart_agree_and_marked_faces_are_not_compared_by_colour():
    rng = np.random.default_rng(5)
    p = _fritzo_orange(rng)
    p.add("blue", crops("fritzo", "blue", 1, rng, hard=False)[0])
    assert p.settle("blue") == "agree" and p.looks_like("blue") is None
    q, _ = _profile("3")  # Echt Spitze: every face carries a mark, its colour is the die's
    q.add("5", crops("echt-spitze", "3", 1, rng, hard=False)[0])
    assert q.looks_like("5") is None


def test_teaching_from_a_folder_names_the_colour_a_photo_looks_like(tmp_path):
    write_examples(tmp_path / "ex", "fritzo", ["orange", "orange"], 2, labels=["orange", "yellow"])
    report = teach_from_examples("fritzo", tmp_path / "ex")
    assert profiles.load_profile("fritzo").counts() == {"orange": 1, "yellow": 1}
    # a folder is settled after all of its photos are in: which of the two is the wrong one, no photo can say
    assert [n.split(" (")[0] for n in report.notes] == ["The photo of ‘orange’ looks like ‘yellow’",
                                                         "The photo of ‘yellow’ looks like ‘orange’"]


def test_the_teaching_screen_says_which_colour_a_photo_looks_like():
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    import pygame

    from companion.i18n import t
    from companion.views.colour_faces import face_label
    from companion.views.teach_view import TeachView

    pygame.init()
    rng = np.random.default_rng(3)
    profile = _fritzo_orange(rng)
    profile.remove([1])  # one photo of orange: an orange cube read for sure with two is answered, not asked about
    view = TeachView("fritzo", "de", profile=profile, save=lambda p: None)

    def answer_an_orange_cube_yellow() -> None:
        view.on_new_tray()  # ROLL carried out: the app says so once the new tray's first frame has come
        show_still(view, render_tray(rng, faces=["orange"], painter=painter_for("fritzo"))[0])
        assert view.crop is not None
        for _ in range([i.value for i in view.menu.items].index("yellow")):
            view.on_button(ButtonEvent(Button.NEXT))
        view.on_button(ButtonEvent(Button.SELECT))

    answer_an_orange_cube_yellow()
    yellow, orange = (face_label(f, "de", view.dice_set) for f in ("yellow", "orange"))
    assert view.again == "yellow"
    assert view.message == t("teach.like_other", "de", face=yellow, other=orange)
    surface = pygame.Surface((800, 480))
    view.draw(surface)
    OUT.mkdir(exist_ok=True)
    pygame.image.save(surface, str(OUT / "test_teach_view_like_other.png"))
    answer_an_orange_cube_yellow()  # a yellow that looks like orange in this light every time
    assert view.again == "yellow"
    answer_an_orange_cube_yellow()  # asked twice: kept, and no longer asked for (the player would have to skip)
    assert view.again is None and view.message == t("teach.still_differ", "de", face=yellow)
    assert view.profile.counts()["yellow"] == 3


def test_a_colour_patch_taught_as_another_colour_is_left_out_once_two_photos_agree():
    """Noch X-Mal!'s colour dice are a square patch on a white die: an orange die answered "red" by a reflex SELECT
    agreed with the red photos by its shape, stayed for good, and orange dice were read "red" for sure from then
    on. The patch's colour is compared too: the orange photo disagrees, and is left out once two reds agree."""
    rng = np.random.default_rng(11)
    p = profiles.fresh_profile("noch-x-mal")
    p.add("red", crops("noch-x-mal", "orange", 1, rng, hard=False)[0])
    orange = p.vectors[0].copy()
    assert p.settle("red") == "agree"  # one photo alone: nothing to compare it with
    p.add("red", crops("noch-x-mal", "red", 1, rng, hard=False)[0])
    assert p._apart(0, 1) > AGREE and p._apart(1, 0) > AGREE
    assert p.settle("red") == "disagree" and len(p) == 2  # two cannot say which is wrong: asked for once more
    p.add("red", crops("noch-x-mal", "red", 1, rng, hard=False)[0])
    assert p.settle("red") == "dropped" and p.names == ["red", "red"]
    assert not any(np.array_equal(v, orange) for v in p.vectors)
    assert p.settle("red") == "agree"


def test_photos_of_one_colour_patch_agree_and_plain_cubes_are_compared_as_before():
    """Two photos of one colour, hard ones included (tilt, lamps, blur), still agree: the mark's colour moves with the
    lamp far less than its tolerance. Fritzo's plain cubes have no patch: their photos are compared as before."""
    rng = np.random.default_rng(4)
    for set_name in ("noch-x-mal", "fritzo"):
        for face in ("red", "orange", "yellow", "green", "blue"):
            p = profiles.fresh_profile(set_name)
            for c in crops(set_name, face, 3, rng, hard=True):
                p.add(face, c)
            assert p.settle(face) == "agree", (set_name, face)
