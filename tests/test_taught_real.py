"""The taught reader on real photos of real dice (../shared/datasets): taught each pip face from two photos, as a
family teaches its symbol dice, then reading the held-out photos (bench/bench_taught_real.py measures it).

On real dice the reader is far from its rendered benchmark (docs/taught-dice.md, "Real photos"): it asks about one
die in four. What it must never do there is name a die wrongly, or name a face nobody taught: at the table a
question costs a button press, a wrong answer costs the game.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

from vision import face_outline, taught
from vision.datasets import holdout_names, load_labels, select
from vision.face_outline import as_crop, distinct_dice, face_corners, side_corners

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))

import bench_taught_real  # noqa: E402


def _labelled(datasets: Path, name: str) -> Path:
    folder = datasets / name
    if not (folder / "labels.csv").is_file():
        pytest.skip(f"{folder} is missing from the datasets")
    return folder


@pytest.fixture
def matteo(datasets: Path) -> Path:
    return _labelled(datasets, "matteo-d6")


@pytest.fixture
def byler(datasets: Path) -> Path:
    return _labelled(datasets, "byler-d6")


_runs: dict[tuple[Path, int], dict] = {}


def taught_and_read(folder: Path, examples: int) -> dict:
    """bench_taught_real.run on seed 0, once per folder and number of examples (both tests need two per face)."""
    if (folder, examples) not in _runs:
        _runs[folder, examples] = bench_taught_real.run(folder, examples=examples, seed=0)
    return _runs[folder, examples]


def test_real_dice_taught_from_two_photos_per_face_are_read_or_asked_never_named_wrongly(matteo: Path) -> None:
    r = taught_and_read(matteo, 2)
    assert r["dice"] >= 100  # the finder found the held-out dice (144 of 152 when measured)
    assert r["wrong"] == 0
    assert r["confident"] == 0, "a face left out of the teaching was named"
    # measured 91.7 % (seed 0) since the side net's look confirms any miss (89.6 % before; 85 % with the top-face
    # net trained on marked sides, 59 % before near misses were measured again aligned: taught._aligned_distances)
    assert r["right"] >= 0.88 * r["dice"]
    # read whole, as a game's set is: readings of no die (a laptop's edge, its cable) 69 before readings showing no
    # mark were left out where every face carries one (taught.dice_of_the_set), 30 after
    assert r["extra"] <= 45


def test_more_examples_per_face_read_more_real_dice(matteo: Path) -> None:
    """A face is judged by whichever of its examples is within every tolerance (``taught.closest_example``). When it
    was judged by its first example in rank, six examples per face read far fewer real dice than two (61 against 86
    on this seed; 45 % against 55 % over four): the more examples, the likelier one taken under a similar lamp ranked
    first with its pips a little off. The evening adds examples, so more must not be worse. Now: 123 and 123 on
    this seed, hence a margin of two dice."""
    two = taught_and_read(matteo, 2)
    six = taught_and_read(matteo, 6)
    assert six["wrong"] == 0 and six["confident"] == 0
    assert six["right"] >= two["right"] - 2


def test_a_die_whose_pips_were_missed_is_not_named_by_its_colour(datasets: Path) -> None:
    """byler-d6's red dice have white pips, and blurred they come out blank; one of the six dice taught as "6" was
    such a red die, and a blank red "3" was named "6" by colour alone (seed 0; docs/taught-dice.md). A face marked
    on most of its examples is not a colour face: such a die is asked about."""
    folder = datasets / "byler-d6"
    if not (folder / "labels.csv").is_file():
        pytest.skip(f"{folder} is missing from the datasets")
    r = taught_and_read(folder, 6)
    assert r["dice"] >= 200
    assert r["wrong"] == 0
    assert r["confident"] == 0, "a face left out of the teaching was named"


def test_a_six_whose_first_outline_cut_a_row_of_pips_off_is_named_along_the_side_nets(matteo: Path) -> None:
    """matteo-d6's webcam sees its dice from beside them. The top-face net's outline of this 6 cuts pips off (its
    first look lies several tolerances from both taught 6s, though "6" is still its nearest face), and the side
    net's outline takes in the whole face. The side net's look now confirms any first look, not only a near miss
    (taught.match; docs/taught-dice.md, "Measured", forty-third session)."""
    photos = bench_taught_real.Photos(matteo)
    profile = bench_taught_real.teach(photos, 2, np.random.default_rng(0))
    [die] = select(matteo, "holdout")["six_10.jpg"]
    crop = photos.die("six_10.jpg", die.box)
    first = taught._judge(profile, as_crop(crop), None)
    assert first.nearest == "6" and first.distance > taught.ALIGN_UPTO
    assert taught.match(profile, crop).face == "6"


def test_a_screw_hole_in_the_tray_is_not_named_by_the_side_nets_outline(byler: Path, monkeypatch) -> None:
    """Where the first look sees no mark, the side net's much larger outline can frame a round hole in the tray as
    a die showing one pip, sure of it; the reading stays unknown, as it was before the side net's look could name
    a face of its own (taught.match; docs/taught-dice.md, "Measured", forty-fifth session). The hole at the top
    right of byler-d6's IMG_20191209_100620.jpg, taught on seed 2. Its crop is a little dark (95th percentile 169):
    since the outline nets see such a crop brightened (``face_outline.exposed``) the first look sees a mark there,
    a far "1", and the hole stays unknown at every look; as the nets saw it before, it is the case above."""
    def hole_and_profile() -> tuple[np.ndarray, taught.Profile]:
        photos = bench_taught_real.Photos(byler)
        profile = bench_taught_real.teach(photos, 2, np.random.default_rng(2))
        frame, cands = photos.found("IMG_20191209_100620.jpg")
        [hole] = [f for f in distinct_dice(frame, cands) if f.cand.box[0] > 560 and f.cand.box[3] < 80]
        return as_crop(hole.crop), profile

    crop, profile = hole_and_profile()
    assert taught.match(profile, crop).face is None
    with monkeypatch.context() as before:  # the outline nets shown the crop as it is
        before.setattr(face_outline, "exposed", lambda small: small)
        before.setattr(face_outline, "_corners_seen", {})
        crop, profile = hole_and_profile()
        assert taught._judge(profile, crop, None).blank
        assert taught._judge(profile.side_profile(), crop, side_corners(crop)).face == "1"
        assert taught.match(profile, crop).face is None


@pytest.mark.parametrize(("look", "least"), [("warm", 0.8), ("dark", 0.78)])
def test_real_dice_taught_by_daylight_are_read_under_another_lamp(matteo: Path, look: str, least: float) -> None:
    """Taught from the photos as they are, the held-out photos read as a warm lamp the webcam's white balance does
    not follow shows them, or a dim one (bench/camera_looks.py): the examples are seen in that light
    (``taught.Profile.under``). Before, 14 % (warm) and 62 % (dark) were read, seeds 0-1; then about 87 % and 74 %,
    and still none named wrongly. In the dark, a "2" whose pip the side net's outline cut off was named "1" until
    that look only confirmed the first look's near miss there (two_8.jpg: ``taught.match``'s ``confirm_only``).
    In the dark the outline nets now see the crop brightened (``face_outline.exposed``): seed 0 read 73.8 % before,
    81.9 % since."""
    r = bench_taught_real.run(matteo, examples=2, seed=0, looks=[look])
    assert r["dice"] >= 100
    assert r["wrong"] == 0
    assert r["confident"] == 0, "a face left out of the teaching was named"
    assert r["right"] >= least * r["dice"]


def test_the_top_faces_outline_stays_put_in_a_dim_room(matteo: Path) -> None:
    """The held-out dice at 0.4 of their exposure, with the noise of the gain that brings them up (as
    bench/camera_looks.py's ``dark``): the top face's outline lies where it lies in the photo as it is. Before the
    outline nets saw the crop brightened (``face_outline.exposed``), a tenth of the dice had their outline moved by
    more than a quarter of the face's side (90th percentile 0.255), cutting off a row of pips; brightened, 3.5 %
    (0.131)."""
    photos = bench_taught_real.Photos(matteo)
    rng = np.random.default_rng(0)
    shifts = []
    for name, dice in sorted(select(matteo, "holdout").items()):
        for d in dice:
            crop = photos.die(name, d.box)
            if crop is None:
                continue
            crop = as_crop(crop)
            dim = np.clip(crop * 0.4 + rng.normal(0.0, 3.0, crop.shape), 0, 255).astype(np.uint8)
            shifts.append(taught._outline_shift(face_corners(crop), face_corners(dim)))
    assert len(shifts) >= 100
    assert float(np.percentile(shifts, 90)) <= 0.16


def test_real_dice_in_a_burned_out_picture_are_asked_about_not_named_wrongly(matteo: Path) -> None:
    """The held-out photos at 1.6 times their exposure (bench/camera_looks.py's ``bright``): the white dice and the
    light table burn out into one white, and the outline of a die's top face is a guess. Four "2"s were named "1",
    sure, by an outline round one of their pips, before a die whose crop is burned out (``taught.burned_out``) was
    asked about instead."""
    r = bench_taught_real.run(matteo, examples=2, seed=0, looks=["bright"])
    assert r["dice"] >= 100
    assert r["wrong"] == 0
    assert r["confident"] == 0, "a face left out of the teaching was named"


def test_a_folder_of_photos_of_a_games_dice_is_measured_like_the_pip_folders(tmp_path: Path) -> None:
    """Real photos of the games' dice are not here (the issue measures the reader on them too), but when a folder of
    them comes, laid out as ../shared/datasets' are with the set's face names as labels, ``--set`` measures it as
    the pip folders are. Here a folder of rendered Echt Spitze photos stands in for it: taught from its train
    photos, its held-out ones read. The "4+X"s are only in the held-out photos: a face nobody taught, each of whose
    dice counts as untaught and must come back unknown."""
    from synth_dice import write_dataset

    folder = tmp_path / "echt-spitze-photos" / "ours"
    names = [f"ex{i:02d}.jpg" for i in range(50)]
    held = holdout_names(folder.name, names)
    faces = ["4+X" if n in held and i % 4 == 0 else ("1", "2", "3", "4", "5", "?")[i % 6] for i, n in enumerate(names)]
    write_dataset(folder, "echt-spitze", faces, seed=3)
    r = bench_taught_real.run(folder, examples=2, seed=0, set_name="echt-spitze")
    never = sum(f == "4+X" for f in faces)
    assert never >= 2 and r["missed"] == 0
    assert r["dice"] == len(held) - never
    assert r["wrong"] == 0 and r["right"] >= r["dice"] - 1
    # each taught face's held-out dice read once without that face's examples, and every "4+X" read as it is
    assert r["untaught"] == r["dice"] + never
    assert r["confident"] == 0


def test_labels_naming_faces_the_set_does_not_have_are_said_before_anything_is_measured(tmp_path: Path,
                                                                                        capsys) -> None:
    """A folder of pip dice measured as Echt Spitze dice (whose faces are 1-5 and "?"): its "6"s are no face of the
    set. The benchmark says so, and which set to give, instead of teaching "6" as a face of Echt Spitze."""
    folder = tmp_path / "pips"
    (folder / "images").mkdir(parents=True)
    (folder / "labels.csv").write_text("image,face,x_min,y_min,x_max,y_max\na.jpg,6,0.1,0.1,0.2,0.2\n"
                                       "a.jpg,3,0.5,0.5,0.6,0.6\n")
    assert bench_taught_real.main(["--datasets", str(tmp_path), "--set", "echt-spitze"]) == 2
    err = capsys.readouterr().err
    assert "6" in err and "echt-spitze" in err and "--set" in err
    assert bench_taught_real.main(["--datasets", str(tmp_path), "--set", "no-such-set"]) == 2
    assert "no-such-set" in capsys.readouterr().err


def test_a_folder_too_small_to_hold_photos_out_is_said(tmp_path: Path, capsys, monkeypatch) -> None:
    """Ten photos are one block of the split, and one block is never held out: the folder's row would read nothing,
    and say nothing of why."""
    from synth_dice import write_dataset

    monkeypatch.setattr(bench_taught_real, "pin_one_core", lambda: None)  # the tests after this one keep both cores
    write_dataset(tmp_path / "few", "echt-spitze", ["1", "2", "3", "4", "5", "?"], seed=1)
    assert bench_taught_real.main(["--datasets", str(tmp_path), "--set", "echt-spitze", "--examples", "1"]) == 0
    assert "few: no held-out photos" in capsys.readouterr().err


def test_a_folder_of_a_games_dice_read_as_pip_dice_says_which_line_and_what_to_use(tmp_path: Path,
                                                                                   capsys) -> None:
    """The pip reader's tools read every folder's faces as pip counts: a folder of Echt Spitze photos put among them
    names its line and the benchmark that measures it, instead of ending in int()'s message (the pip benchmark
    says so before it measures anything)."""
    import bench_dice_read

    folder = tmp_path / "echt"
    folder.mkdir()
    (folder / "labels.csv").write_text("image,face,x_min,y_min,x_max,y_max\na.jpg,3,0.1,0.1,0.2,0.2\n"
                                       "a.jpg,?,0.5,0.5,0.6,0.6\n")
    with pytest.raises(ValueError, match=r"line 3: face '\?' is no pip count .*--set"):
        load_labels(folder)
    assert [d.face for d in load_labels(folder, str)["a.jpg"]] == ["3", "?"]
    assert bench_dice_read.main(["--datasets", str(tmp_path)]) == 2
    assert "line 3: face '?' is no pip count" in capsys.readouterr().err
    (folder / "labels.csv").write_text("image,face,x_min,y_min,x_max,y_max\na.jpg,3,0.1,0.1,0.2\n")
    with pytest.raises(ValueError, match="line 2: the box is not four numbers"):
        load_labels(folder)
    (folder / "labels.csv").write_text("image,label,x0,y0,x1,y1\na.jpg,3,0.1,0.1,0.2,0.2\n")
    with pytest.raises(ValueError, match="no column face, x_min, y_min, x_max, y_max"):
        load_labels(folder)


def test_an_emblem_taught_for_pip_dice_adds_no_dice_that_are_not_there(matteo: Path, tmp_path, monkeypatch) -> None:
    """A family teaches its dice's emblem 6 (here: two photos of a pip 6, as a new user did) and reads pip dice: the
    taught finder takes a laptop's edge and a cable for dice, and they came back as unsure dice, four a photo. Only
    the dice the pip reader found are read, or a die the taught face is named on for sure."""
    from companion import dicesets, teach
    from vision.frame import read_photo
    from vision.pips import read_dice

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    labels = select(matteo, "train")
    profile = taught.Profile("d6")
    for name in sorted(labels):
        sixes = [d for d in labels[name] if d.face == 6]
        if sixes and len(profile) < 2:
            frame = read_photo(matteo / "images" / name)
            h, w = frame.shape[:2]
            x0, y0, x1, y1 = sixes[0].box
            teach.confirm(profile, "6", frame, (int(x0 * w), int(y0 * h), int(x1 * w), int(y1 * h)))
    assert len(profile) == 2
    d6 = dicesets.load("d6")
    pips = taught_dice = unsure = 0
    for name in sorted(holdout_names("matteo-d6", sorted(load_labels(matteo))))[::3]:
        frame = read_photo(matteo / "images" / name)
        pips += len(read_dice(frame).dice)
        reading = teach.read_taught(frame, "d6", profile, d6)
        taught_dice += len(reading.dice)
        unsure += sum(d.face is None for d in reading.dice)
    assert pips >= 30
    assert taught_dice <= pips + 2 and unsure <= 2, (pips, taught_dice, unsure)  # was 1.6 times the dice
