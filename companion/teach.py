"""Teaching a dice set from the players' own dice, and reading taught dice.

Entry points the CLI calls (``companion teach`` and ``companion read --set``)::

    teach_from_examples(set_name: str, examples_dir: str | os.PathLike, *, save: bool = True,
                        lang: str = "en") -> TeachReport
        # companion teach SET --examples DIR ; print(report.summary()) ; exit 0
        # raises DiceSetError / ExamplesError / ImageError / ProfileError (CompanionError: print str(e), exit 2)
    load_for_reading(set_name: str) -> tuple[DiceSet, Profile]
        # the set and its stored profile; raises ProfileError when the set still needs teaching
    read_taught(frame_bgr: np.ndarray, set_name: str, profile: Profile | None = None,
                dice_set: DiceSet | None = None) -> vision.types.TrayReading
        # companion read --set SET IMAGE... [--json]: per image, json.dumps({"image": path,
        #     "dice": [d.to_json() for d in reading.dice], "ms": reading.ms}); face = the face name (d6: int)
    reader_for_set(set_name: str) -> Callable[[np.ndarray], TrayReading] | None   # for the app's at-rest trigger
    TeachView(set_name: str, lang: str = "de")   # companion/views/teach_view.py, the interactive
        # ``companion teach SET``: a Mode; the app also calls view.on_frame(frame_bgr) with each camera frame

Why examples and not shipped pictures: the games' artwork changes between print runs (see vision/taught.py).
"""

from __future__ import annotations

import csv
import difflib
import io
import os
import time
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from companion import dicesets, profiles
from companion.atomic import text_as_saved
from companion.dicesets import DiceSet, DiceSetError
from companion.errors import CompanionError, ImageError, ProfileDamaged, ProfileError, ProfileUnreadable
from companion.i18n import disk_words, t
from vision import face_outline, taught
from vision.colour_guess import nearest_colour
from vision.datasets import COLUMNS
from vision.detect import DieCandidate, candidate_at, find_any_dice, held_twice
from vision.face_marks import canonical, table_light
from vision.frame import read_photo
from vision.taught import Profile
from vision.types import DieReading, TrayReading

#: examples per face that make a face count as well taught (one works; two survive more light and angles)
WANTED_EXAMPLES = 2


class ExamplesError(CompanionError):
    """A folder of teaching photos or its labels.csv is wrong: the message names the file, the row and the fix."""


@dataclass(frozen=True)
class Progress:
    """How far teaching is: ``taught`` of ``total`` faces have an example; ``missing`` still need one."""

    taught: int
    total: int
    missing: tuple[str, ...]
    counts: dict[str, int] = field(default_factory=dict)
    #: a pip set (``d6``): every face is read without teaching, so "36/36" would say nothing; the text names the
    #: faces taught instead (an emblem in place of the 6)
    pips: bool = False
    #: a face with a mark the set knows, none of which is taught yet ("1+X"; Echt Spitze's extra cross): the count
    #: cannot ask for them (which faces carry the mark differs by die), so the screen says to show them too
    marks_untaught: tuple[str, ...] = ()
    #: an open set (Haste Worte's symbols: as many as the edition prints, a few on each die): "66/66 faces" counted
    #: every symbol on every die, which no real die has; the text counts the symbols taught instead
    open: bool = False

    @property
    def done(self) -> bool:
        return not self.missing

    def thin(self, dice_set: DiceSet) -> list[str]:
        """The set's faces with fewer than WANTED_EXAMPLES photos (a marked one's count to its face): "36/36" came
        after one photo of each, and a face taught once is read less surely in other light or at another angle."""
        if self.pips or self.open:  # the faces to teach there are whichever the players have
            return []
        per_face = self.per_face(dice_set)
        return [f for f in dice_set.face_names() if f not in self.missing and per_face.get(f, 0) < WANTED_EXAMPLES]

    def per_face(self, dice_set: DiceSet) -> dict[str, int]:
        """The photos of each face taught, a marked face's ("3+X") counted to its face ("3")."""
        per_face: dict[str, int] = {}
        for name, n in self.counts.items():
            per_face[dice_set.base(name)] = per_face.get(dice_set.base(name), 0) + n
        return per_face

    def text(self, lang: str = "de") -> str:
        if self.pips:
            if not self.counts:
                return t("teach.pips_none", lang)
            return t("teach.pips_taught", lang, faces=", ".join(sorted(self.counts)))
        if self.open:
            return t("teach.symbols_taught", lang, n=len(self.counts))
        return t("teach.progress", lang, taught=self.taught, total=self.total)


def progress(dice_set: DiceSet, profile: Profile) -> Progress:
    """Faces of the set with at least one example, counting each die's faces (6 dice x 6 faces = 36).

    Identical dice share examples, so a face taught once counts for every die that shows it; a marked face
    ("3+X") counts for its base face ("3"), since the die that carries the mark shows it instead.
    """
    counts = profile.counts()
    taught_bases = {dice_set.base(n) for n in counts}
    total = done = 0
    missing: list[str] = []
    for kind in dice_set.dice:
        for f in kind.faces:
            total += kind.count
            if f in taught_bases:
                done += kind.count
            elif f not in missing:
                missing.append(f)
    pips = dice_set.reader == "pips"
    if pips:  # the pip reader reads every face; taught faces only replace some
        done, missing = total, []
    first = dice_set.face_names()[0]
    marks = tuple(first + m for m in dice_set.marks if not any(n.endswith(m) for n in counts))
    return Progress(done, total, tuple(missing), counts, pips, marks, dice_set.open)


@dataclass(frozen=True)
class TeachReport:
    set_name: str
    added: int
    skipped: tuple[str, ...]  # rows whose die could not be cropped, with why
    progress: Progress
    path: Path | None
    #: what ``taught.Profile.settle`` said of the faces taught, with what to do: photos left out as unlike the
    #: others, and faces whose photos do not look alike (one more photo decides)
    notes: tuple[str, ...] = ()
    lang: str = "en"  # the language of ``skipped`` and ``notes``

    def summary(self, lang: str | None = None) -> str:
        """The report as the CLI prints it, in ``lang`` (default: the language its rows and notes were said in)."""
        lang = lang or self.lang
        added = "teach.report_added_one" if self.added == 1 else "teach.report_added"
        # what is wrong with the photos before how far the set is: "66/66" first read as all done
        lines = [t(added, lang, n=self.added, set=self.set_name), *self.skipped, *self.notes, self.progress.text(lang)]
        if self.progress.missing:
            lines.append(t("teach.missing", lang, faces=", ".join(self.progress.missing)))
        elif self.progress.marks_untaught:
            lines.append(t("teach.done_marks", lang, example=self.progress.marks_untaught[0]))
        return "\n".join(lines)


def _read_image(path: Path, lang: str = "en") -> np.ndarray:
    if not path.exists():  # not "no image": a labels.csv's name written otherwise than the file's (IMG_1.JPG)
        try:
            alike = [f.name for f in path.parent.iterdir() if f.name.lower() == path.name.lower()]
        except OSError:
            alike = []
        if alike:
            raise ImageError(t("teach.ex_err_missing_as", lang, path=path, name=alike[0]))
        raise ImageError(t("teach.ex_err_missing", lang, path=path))
    try:
        img = read_photo(path) if path.is_file() else None
    except OSError:
        img = None
    if img is None:
        raise ImageError(t("teach.ex_err_image", lang, path=path))
    return img


def _pixel_box(box: tuple[float, float, float, float], frame: np.ndarray) -> tuple[int, int, int, int]:
    """A labels.csv box (corners 0..1) in the frame's pixels."""
    h, w = frame.shape[:2]
    x0, y0, x1, y1 = box
    return int(x0 * w), int(y0 * h), int(np.ceil(x1 * w)), int(np.ceil(y1 * h))


def _box_die(box: tuple[int, int, int, int]) -> DieCandidate:
    """The labelled box itself as the die, where the finder saw none whose centre lies in it (``candidate_at``)."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    rect = (((x0 + x1) / 2, (y0 + y1) / 2), (float(w), float(h)), 0.0)
    return DieCandidate(box=box, rect=rect, size=float(max(w, h)), score=0.0)


def _parse_labels(folder: Path, dice_set: DiceSet, lang: str = "en"
                  ) -> list[tuple[Path, str, tuple[float, float, float, float], int]]:
    """The rows of the folder's labels.csv; the first problem raises ``ExamplesError`` in ``lang``."""
    labels = folder / "labels.csv"
    if not folder.is_dir():
        raise ExamplesError(t("teach.ex_err_not_folder", lang, folder=folder))
    if not labels.is_file():
        raise ExamplesError(t("teach.ex_err_no_labels", lang, folder=folder))
    rows = []
    text, delimiter = _labels_text(labels, lang)
    try:
        reader = csv.DictReader(io.StringIO(text, newline=""), delimiter=delimiter)
        parsed = list(reader)
        # the header as a person may have typed it: "Image, Face" (capitals, spaces after the commas) was refused
        # beside the header wanted, the two alike to the eye
        fields = [(f or "").strip().lower() for f in reader.fieldnames] if reader.fieldnames is not None else None
    except csv.Error as exc:  # e.g. a field longer than the csv module allows: not a labels file
        raise ExamplesError(t("teach.ex_err_read", lang, labels=labels, error=exc)) from None
    if not fields:  # "it names ." said nothing of an empty file
        raise ExamplesError(t("teach.ex_err_empty", lang, labels=labels, need=",".join(COLUMNS)))
    if any(c not in fields for c in COLUMNS):
        raise ExamplesError(t("teach.ex_err_columns", lang, labels=labels, need=",".join(COLUMNS),
                              got=",".join(fields)))
    named = dict(zip(reader.fieldnames or [], fields, strict=True))
    for line, raw_row in enumerate(parsed, 2):
        row = {named.get(k, k): v for k, v in raw_row.items() if k is not None}
        if not any((v or "").strip() for v in row.values()):  # a spreadsheet's empty row (",,,,,,"): not a label
            continue
        if _quote_left_open(row, delimiter):  # it ran the row's columns (and the rows below) into one: "„“ …"
            raise ExamplesError(t("teach.ex_err_quote", lang, labels=labels, line=line))
        if missing := [k for k in COLUMNS if row.get(k) is None]:  # a row cut short: its face was "" ("„“ …")
            raise ExamplesError(t("teach.ex_err_short", lang, labels=labels, line=line, missing=",".join(missing),
                                  need=",".join(COLUMNS)))
        face = (row["face"] or "").strip()
        if not dice_set.accepts(face):
            marks = t("teach.ex_err_face_marks", lang, marks=", ".join(dice_set.marks)) if dice_set.marks else ""
            raise ExamplesError(t("teach.ex_err_face", lang, labels=labels, line=line, face=face,
                                  set=dice_set.name, faces=", ".join(dice_set.face_names()), marks=marks,
                                  open=t("teach.ex_err_face_open", lang) if dice_set.open else ""))
        try:
            box = tuple(float(row[k].replace(",", ".") if delimiter != "," else row[k]) for k in COLUMNS[2:])
        except (AttributeError, TypeError, ValueError):
            raise ExamplesError(t("teach.ex_err_numbers", lang, labels=labels, line=line)) from None
        x0, y0, x1, y1 = box
        if not (0 <= x0 < x1 <= 1 and 0 <= y0 < y1 <= 1):
            raise ExamplesError(t("teach.ex_err_box", lang, labels=labels, line=line, box=box))
        image = folder / (row["image"] or "").strip()
        rows.append((image, face, box, line))
    if not rows:
        raise ExamplesError(t("teach.ex_err_no_rows", lang, labels=labels))
    return rows


def _quote_left_open(row: dict[str, Any], delimiter: str) -> bool:
    """Whether a quote left open ran this row's columns into one: a face or a number holding the delimiter or a line
    break, or columns missing beside a value that holds one (a photo's name may be quoted for a comma in it)."""
    def spilt(v: object) -> bool:
        return isinstance(v, str) and (delimiter in v or "\n" in v)

    if any(spilt(row.get(k)) for k in COLUMNS[1:]):
        return True
    return any(row.get(k) is None for k in COLUMNS) and any(spilt(v) for v in row.values())


def _labels_text(labels: Path, lang: str) -> tuple[str, str]:
    """The labels.csv's text and its delimiter, as a spreadsheet may have saved it.

    A spreadsheet's plain "CSV" on a German Windows is in the Windows code page, its columns parted by semicolons
    and its decimals by commas (Excel's default there): read as UTF-8 with commas, such a file stopped the teaching
    with a traceback at the first umlaut in a photo's name. UTF-8 first (with or without the byte-order mark Excel's
    "CSV UTF-8" writes), else cp1252; semicolons where the first line has more of them than commas (their numbers'
    decimal commas are read as points, ``_parse_labels``)."""
    try:
        raw = labels.read_bytes()
    except OSError as exc:
        raise ExamplesError(t("teach.ex_err_read", lang, labels=labels, error=disk_words(exc, lang))) from None
    text = text_as_saved(raw)  # a photo's name spoiled by a byte cp1252 leaves undefined is not found, and says so
    first = text.split("\n", 1)[0]
    if first.count("\t") > max(first.count(";"), first.count(",")):  # Excel's "Unicode text": tabs between columns
        return text, "\t"
    return text, ";" if first.count(";") > first.count(",") else ","


def _add_once(profile: Profile, face: str, crop: np.ndarray, **kw: Any) -> bool:
    """``Profile.add``, unless the profile holds this very example of the face already (the same photo and box,
    taught before): then nothing is added and True is returned. A folder taught twice doubled every example, and
    a photo unlike the others then matched its own copy: the note that said so went silent."""
    profile.add(face, crop, **kw)
    new = profile.vectors[-1]
    if any(name == face and np.array_equal(new, profile.vectors[i]) for i, name in enumerate(profile.names[:-1])):
        profile.remove([len(profile.names) - 1])
        return True
    return False


def _refuse_typos(rows: list[tuple[Path, str, Any, int]], dice_set: DiceSet, taught_before: set[str], labels: Path,
                  lang: str) -> None:
    """An open set (Haste Worte) takes any lowercase id as a symbol of another edition: "anmals" was taught as a
    symbol of its own, silently, and read so. A new name that is all but one of the set's (or one taught before)
    is a typo: refused before anything is kept."""
    if not dice_set.open:
        return
    names = [*dice_set.face_names(), *sorted(taught_before)]
    for _, face, _, line in rows:
        if face in names:
            continue
        close = difflib.get_close_matches(face, names, n=1, cutoff=0.85)  # "anmals", "cars"; not "fishes"
        if close:
            raise ExamplesError(t("teach.ex_err_face_typo", lang, labels=labels, line=line, face=face, close=close[0]))


def teach_from_examples(set_name: str, examples_dir: str | os.PathLike, *, save: bool = True,
                        lang: str = "en") -> TeachReport:
    """Add every labelled die of ``examples_dir`` to the set's profile (kept examples stay) and store it; then
    check that each face's photos look alike (``taught.Profile.settle``), as the teaching screen does. The report
    (rows skipped, notes) and the errors (``ExamplesError``, ``ImageError``) are in ``lang``."""
    dice_set = dicesets.load(set_name)
    folder = Path(examples_dir)
    rows = _parse_labels(folder, dice_set, lang)
    profile = profiles.load_profile(set_name)
    _refuse_typos(rows, dice_set, set(profile.names), folder / "labels.csv", lang)
    hues = hue_faces(dice_set)  # the colour patches' faces, which a die's mark is judged against (``mark_look``)
    frames: dict[Path, tuple[np.ndarray, list[DieCandidate], set[int]]] = {}  # photo, its dice, those held twice
    added = 0
    skipped: list[str] = []
    taught_now: list[str] = []
    repeated: list[str] = []  # faces of photos taught before (the same folder taught twice): not kept twice
    # (face, crop, line, the light it was taken in, its photo's size): too soft to keep while a face has sharper
    blurred: list[tuple[str, np.ndarray, int, np.ndarray | None, tuple[int, int]]] = []
    untaught: list[str] = []  # pip faces the pip reader reads as labelled: they need no teaching
    pips: dict[Path, list[DieReading]] = {}  # each photo's dice as the pip reader reads them (pip sets only)
    for image, face, labelled, line in rows:
        if image not in frames:
            frame = _read_image(image, lang)
            cands = find_any_dice(frame, plain=dice_set.plain_cubes)
            frames[image] = (frame, cands, held_twice(cands, [_pixel_box(r[2], frame) for r in rows if r[0] == image]))
        frame, cands, twice = frames[image]
        box = _pixel_box(labelled, frame)
        if box[2] - box[0] < 8 or box[3] - box[1] < 8:
            skipped.append(t("teach.ex_small_box", lang, line=line))
            continue
        cand = candidate_at(cands, box)
        if cand is not None and id(cand) in twice:
            skipped.append(t("teach.ex_touching", lang, line=line))
            continue
        if dice_set.reader == "pips" and cand is not None:
            if image not in pips:  # read once for all its dice
                from vision.pips import read_dice

                pips[image] = list(read_dice(frame).dice)
            if pip_face(cand, pips[image], dice_set) == face:
                untaught.append(face)  # a plain pip face, read right untaught: taught, it would only slow reads
                continue
        crop = face_outline.die_crop(frame, cand or _box_die(box))
        look = mark_look(crop, dice_set) if hues else None  # refused as the screen refuses it (``look_refuses``)
        if why := look_refuses(face, look, hues):
            raise ExamplesError(t("teach.ex_err_no_hue" if why == NO_HUE else "teach.ex_err_hue", lang,
                                  labels=folder / "labels.csv", line=line, image=image.name, face=face, colour=look))
        light = table_light(frame)
        profiles.taking(profile, "", frame)  # a folder's photos: their camera not known, their size is
        try:
            if _add_once(profile, face, crop, sharp=True, light=light):
                repeated.append(face)
                continue
        except taught.BurnedOut:
            skipped.append(t("teach.ex_burned_out", lang, line=line, face=face))
            continue
        except taught.MarkNotSeen:
            skipped.append(t("teach.ex_no_mark", lang, line=line, face=face))
            continue
        except taught.TooSoft:
            blurred.append((face, crop, line, light, (frame.shape[1], frame.shape[0])))
            continue
        added += 1
        taught_now.append(face)
    # a blurred photo is left out where its face has a sharp one; kept where it has none (the camera may never be
    # sharper), as the teaching screen keeps it after asking twice
    kept = profile.counts()  # what each face has without its blurred photos (this folder's sharp ones, and before)
    for face, crop, line, light, size in blurred:
        profiles.taking(profile, "", size)
        if kept.get(face, 0):
            skipped.append(t("teach.ex_blurred", lang, line=line, face=face))
            continue
        if _add_once(profile, face, crop, light=light):
            repeated.append(face)
            continue
        added += 1
        taught_now.append(face)
    notes = [t("teach.ex_all_blurred", lang, face=face)
             for face in dict.fromkeys(f for f, *_ in blurred) if not kept.get(face, 0)]
    if untaught:
        faces = ", ".join(sorted(set(untaught), key=str))
        notes.append(t("teach.ex_pips_read", lang, n=len(untaught), faces=faces))
    if repeated:
        notes.append(t("teach.ex_repeated", lang, n=len(repeated)))
    for face in dict.fromkeys(taught_now + repeated):  # a folder taught again says again what is wrong with it
        said = profile.settle(face)
        if said == "dropped":
            notes.append(t("teach.ex_dropped", lang, face=face))
        elif said == "disagree" and (other := profile.looks_like(face)) is not None:
            notes.append(t("teach.ex_like_other", lang, face=face, other=other))
        elif said == "disagree":
            notes.append(t("teach.ex_differ", lang, face=face))
    try:
        path = profiles.save_profile(profile) if save else None
    except OSError as exc:  # a full card, a data folder that is a file or read-only: nothing taught is kept
        raise ExamplesError(t("teach.ex_err_save", lang, folder=profiles.profile_dir(),
                              error=disk_words(exc, lang))) from None
    return TeachReport(set_name, added, tuple(skipped), progress(dice_set, profile), path, tuple(notes), lang)


def load_for_reading(set_name: str) -> tuple[DiceSet, Profile]:
    dice_set = dicesets.load(set_name)
    profile = profiles.load_profile(set_name)
    if dice_set.reader == "taught" and len(profile) == 0:
        raise ProfileError(f"The dice set {set_name!r} has not been taught yet. Teach it first: "
                           f"companion teach {set_name} (or --examples DIR).")
    return dice_set, profile


def read_taught(frame_bgr: np.ndarray, set_name: str, profile: Profile | None = None,
                dice_set: DiceSet | None = None) -> TrayReading:
    """Read every die of a taught set in one frame; a face the reader is not sure of is None (unknown).

    For pip sets (``d6``) see ``_read_pip_set``. Never raises on odd frames: they give an empty reading.
    """
    start = time.perf_counter()
    if dice_set is None or profile is None:
        loaded_set, loaded_profile = load_for_reading(set_name)
        dice_set = dice_set or loaded_set
        profile = profile if profile is not None else loaded_profile
    if dice_set.reader == "pips" and len(profile) == 0:
        from vision.pips import read_dice  # plain pip dice: nothing taught to replace a face

        return read_dice(frame_bgr)
    try:
        cands = find_any_dice(frame_bgr, plain=dice_set.plain_cubes)
    except Exception:  # noqa: BLE001 - the finder promises not to raise; a bad frame must not end the evening
        cands = []
    found = face_outline.distinct_dice(np.asarray(frame_bgr), cands)  # a die seen from the side, once
    light = table_light(frame_bgr) if found else None
    matches = [taught.match(profile, f.crop, light) for f in found]
    of_the_set = taught.dice_of_the_set(profile, found, matches, light)  # not a die's side, not a laptop's key
    if dice_set.reader == "pips":
        dice = _read_pip_set(frame_bgr, [f.cand for f in found], matches, dice_set, set(of_the_set))
    else:
        dice = [_reading(matches[i], found[i].cand.box, dice_set, found[i].crop) for i in of_the_set]
    return TrayReading(tuple(dice), (time.perf_counter() - start) * 1000.0)


def _read_pip_set(frame_bgr: np.ndarray, cands: list[DieCandidate], matches: list[taught.Match],
                  dice_set: DiceSet, of_the_set: set[int]) -> list[DieReading]:
    """Pip dice with a taught face (a die whose 6 is an emblem): the pip reader's dice, each replaced by the taught
    face where the matcher is sure of one; a die only the taught finder saw (an emblem, which the pip reader takes
    for no die) where it is one of the set's (``of_the_set``: the indices ``taught.dice_of_the_set`` keeps, not a
    die's side) and the matcher names or offers a taught face for it. The pip reader's own detector finds touching pip
    dice better than the taught finder's (docs/vision.md), so a die only it saw is kept as it read it: before, the
    taught finder's dice alone were read, and a pip die it missed was lost. A die only the taught finder saw that
    the matcher neither names nor finds near enough a taught face to offer it (``Match.guess``) is left out: a
    laptop's edge, a cable and the tray's screws, which the taught finder takes for dice, came back as unsure dice
    (two examples of an emblem 6: 779 dice read in a sample of matteo's and byler's photos where the pip reader
    reads 516, 263 of them unsure; 517 and 1 now; with ``of_the_set`` alone 601 and 85). An emblem the matcher is
    unsure of but offers is kept, asked about as unknown. So is a die the matcher is unsure of but offers a taught
    face for that the pip reader reads otherwise: an emblem 6 whose star the pip reader counted as five pips was
    read "5" for sure (3 of about 180 emblems) where the matcher's guess was its "6"."""
    from vision.pips import read_dice  # the pip reader, only needed for pip sets

    pips = list(read_dice(frame_bgr).dice)
    used: set[int] = set()
    dice: list[DieReading] = []
    for i, (cand, m) in enumerate(zip(cands, matches, strict=True)):
        k = _nearest_reading(cand, pips, used)
        if k is not None:
            used.add(k)
        elif i not in of_the_set or (m.face is None and m.guess is None):
            continue
        if m.face is None and k is not None and pips[k].face is not None:
            if m.guess is not None and m.guess != str(pips[k].face):  # two readers, two faces: asked about
                dice.append(DieReading(None, m.confidence, cand.box, dice_set.value(m.guess)))
                continue
            dice.append(DieReading(pips[k].face, pips[k].confidence, cand.box))
        else:  # the taught face; or neither reader sure, and the taught reader's guess
            dice.append(_reading(m, cand.box, dice_set))
    return dice + [d for i, d in enumerate(pips) if i not in used]


def _reading(m: taught.Match, box: tuple[int, int, int, int], dice_set: DiceSet,
             crop: np.ndarray | None = None) -> DieReading:
    """The die as the games take it: its face (None when not sure, with the guess the screen offers first: the
    taught reader's, else for a colour cube the colour it looks like)."""
    if m.face is not None:
        return DieReading(dice_set.value(m.face), m.confidence, box)
    guess = m.guess or (colour_guess(crop, dice_set) if crop is not None else None)
    return DieReading(None, m.confidence, box, None if guess is None else dice_set.value(guess))


def colour_guess(crop: np.ndarray, dice_set: DiceSet) -> str | None:
    """The colour a cube of a set of colour cubes (Fritzo's) looks like, or the colour of the patch on a colour die
    (Noch X-Mal!'s, ``patch_colour``), where that is decisive (``vision.colour_guess``), judged against the
    colours the screen draws; None for other sets. What a screen asking about a die nobody taught, or the reader was
    unsure of, offers first: the colour is plain to see."""
    if not dice_set.plain_cubes:
        return patch_colour(mark_look(crop, dice_set))
    styles = {face: dicesets.colour_style(face, dice_set) for face in dice_set.face_names()}
    return nearest_colour(crop, {face: s[0][::-1] for face, s in styles.items() if s is not None})  # RGB as BGR


#: a colour drawn with less spread than this between its channels (0-255) is no hue (a joker's black, white, grey):
#: a patch guessed as it is ink, which a numeral has too
GREY_SPREAD = 60


#: what ``mark_look`` says of a mark with no hue: a numeral's or a joker's ink
INK = "ink"


def patch_colour(look: str | None) -> str | None:
    """The colour face a die's mark as judged (``mark_look``) offers as its guess, for a set with colour dice that
    are not plain cubes (a colour patch on a white die: Noch X-Mal!'s): its colour where that is decisive; None for
    a mark with no hue (a numeral, a joker's black cross), an unsure one, or a set without colour patches. The
    teaching screen judges a die's mark once and takes its guess from that judgement here.

    Why: the list of faces started on "red" for the first orange die, and one reflex SELECT taught it as red (the
    photos of a face are compared by their marks' shapes, and every patch is a square). The mark's colour is taken
    over the body's (the white of the die, whatever the lamp) and compared as Fritzo's cubes are: on rendered crops
    every patch of the five colours was guessed right or not at all, and every numeral and joker not at all."""
    return None if look == INK else look


def _colour_faces(dice_set: DiceSet) -> dict[str, tuple[int, int, int]]:
    """Every colour face's colour (a joker's black too), as BGR, for a set whose colour faces are marks on a die
    (not plain cubes); empty for other sets."""
    if dice_set.plain_cubes:
        return {}
    styles = {f: dicesets.colour_style(f, dice_set) for f in dice_set.face_names() if dice_set.kind_of(f) == "colour"}
    return {f: s[0][::-1] for f, s in styles.items() if s is not None}  # RGB as BGR


def hue_faces(dice_set: DiceSet) -> dict[str, tuple[int, int, int]]:
    """The colour faces whose colour is a hue (not a joker's black), as BGR, for a set whose colour faces are marks
    on a die (not plain cubes); empty for other sets."""
    return _hues_of(_colour_faces(dice_set))


def _hues_of(colours: dict[str, tuple[int, int, int]]) -> dict[str, tuple[int, int, int]]:
    """Those of ``colours`` that are a hue, not a grey."""
    return {f: c for f, c in colours.items() if max(c) - min(c) >= GREY_SPREAD}


def mark_look(crop: np.ndarray, dice_set: DiceSet, corners: np.ndarray | None = None) -> str | None:
    """What the mark of a die of a set with colour patches (``hue_faces``) shows: a colour face where its colour
    is decisive, ``INK`` where the mark has no hue (a numeral, a joker's cross), None where neither is sure (or the
    set has no patches).

    Why: a "3" or a colour joker, which no colour is guessed for, opened the list on the first missing colour, and
    a reflex SELECT taught it as "red"; the screen puts numbers and jokers first for ink and keeps no colour photo of
    an ink mark. ``corners``: the top face's (``face_outline.face_corners``), where found already (the teaching
    screen draws them)."""
    colours = _colour_faces(dice_set)
    hues = _hues_of(colours)  # (``hue_faces``, from the colours it needs as well)
    if not hues:
        return None
    try:
        cut = face_outline.as_crop(crop)
        corners = face_outline.face_corners(cut) if corners is None else corners
        marks = canonical(cut, corners)
        face = face_outline.top_face(cut, corners)
    except Exception:  # noqa: BLE001 - a guess only: an odd crop offers none
        return None
    ink = marks.channels[..., 0]
    mark, body = ink > 0.9, ink < 0.05
    if marks.frame is None or mark.sum() < 6 or body.sum() < 20:
        return None
    seen = np.median(face[mark], axis=0) / np.maximum(np.median(face[body], axis=0), 1.0) * 240.0
    guess = nearest_colour(np.full((3, 3, 3), np.clip(seen, 0, 249), np.uint8), colours)
    if guess is not None:
        return guess if guess in hues else INK
    return INK if float(seen.max() - seen.min()) < GREY_SPREAD else None


#: ``look_refuses``: a colour answered for a die whose mark has no hue (a numeral, a joker's cross)
NO_HUE = "no_hue"
#: ``look_refuses``: a face with no hue (a number, a joker) answered for a die whose mark is a colour patch
HUE = "hue"


def look_refuses(face: str, look: str | None, hues: Collection[str]) -> str | None:
    """Why the answer ``face`` is not kept for a die whose mark looks ``look`` (``mark_look``) in a set whose colour
    faces with a hue are ``hues`` (``hue_faces``): ``NO_HUE``, a colour for a mark with no hue; ``HUE``, a number or
    a joker for a colour patch; None where it is kept (also where the look is unsure, or for another colour: the
    patches' colours are told apart less surely than hue from none). The teaching screen, the corrections in play
    and ``teach --examples`` refuse the same answers.

    Why: a "3" taught as "red" had every 3 read red and a real red die then got no guess; a red die taught as "3"
    (the list opens on the missing faces, a number among them) had every red die read 3."""
    if look is None or not hues:
        return None
    if face in hues:
        return NO_HUE if look == INK else None
    return HUE if look in hues else None


def answer_refused(face: str, crop: np.ndarray, dice_set: DiceSet) -> str | None:
    """``look_refuses`` for the die in ``crop``, its mark judged here."""
    hues = hue_faces(dice_set)
    return look_refuses(face, mark_look(crop, dice_set), hues) if hues else None


def pip_guess(frame_bgr: np.ndarray, cand: DieCandidate, dice_set: DiceSet,
              readings: list[DieReading] | None = None) -> str | None:
    """The face the pip reader reads on the die at ``cand``, for pip sets (``d6``): what the teaching screen offers
    first for a plain pip die. Without it "1" stood first for every die, and one SELECT on a 2 taught the pip
    face 2 as "1": every 2 was read "1" from then on. None for other sets, or where the pip reader sees no face.
    ``readings``: the pip reader's dice of the frame, where read already (``pip_readings``)."""
    if dice_set.reader != "pips":
        return None
    return pip_face(cand, pip_readings(frame_bgr) if readings is None else readings, dice_set)


def pip_readings(frame_bgr: np.ndarray) -> list[DieReading]:
    """The pip reader's dice of a frame."""
    from vision.pips import read_dice

    return list(read_dice(frame_bgr).dice)


def pip_face(cand: DieCandidate, readings: list[DieReading], dice_set: DiceSet) -> str | None:
    """The face the pip reader's ``readings`` name for the die at ``cand``, where it is one of the set's."""
    k = _nearest_reading(cand, readings, set())
    face = readings[k].face if k is not None else None
    return str(face) if face is not None and str(face) in dice_set.face_names() else None


def _nearest_reading(cand: DieCandidate, readings: list[DieReading], used: set[int]) -> int | None:
    """The index of the pip reading nearest to ``cand``'s centre (within 0.6 of its size) not taken yet."""
    cx, cy = cand.center
    best, best_d = None, cand.size * 0.6
    for i, r in enumerate(readings):
        x0, y0, x1, y1 = r.box
        d = float(np.hypot((x0 + x1) / 2 - cx, (y0 + y1) / 2 - cy))
        if i not in used and d < best_d:
            best, best_d = i, d
    return best


def confirm(profile: Profile, face: str, frame_bgr: np.ndarray, box: tuple[int, int, int, int],
            plain: bool = False) -> Path | None:
    """The player said what the die in ``box`` shows: add it as an example and save (see profiles.add_confirmed);
    None when not kept (also an answer the die's mark refuses: a colour for a numeral, ``look_refuses``).
    ``plain``: the set's dice are plain colour cubes, found as ``read_taught`` found them."""
    cands = find_any_dice(frame_bgr, plain=plain)
    crop = face_outline.die_crop(np.asarray(frame_bgr), candidate_at(cands, box) or _box_die(box))
    try:
        dice_set: DiceSet | None = dicesets.load(profile.set_name)
    except DiceSetError:  # a profile of a set no longer on the card: kept as before
        dice_set = None
    if dice_set is not None and answer_refused(face, crop, dice_set):
        return None  # a colour for a numeral, a number for a colour patch: refused as the teaching screen does
    profiles.taking(profile, None, np.asarray(frame_bgr))  # a game's answer: this table's frames
    return profiles.add_confirmed(profile, face, crop, table_light(frame_bgr))


def camera_name(source: object) -> str:
    """The picture source as the config names it ("pi", "pi:1", "cam:0"; a folder's photos "folder", a video
    "video", the built-in tray "synthetic"; "" not known), kept with the examples taught from it
    (``profiles.Place``): a folder's path is not, it says nothing of the camera that took the photos."""
    name = getattr(source, "config_name", "")  # each source class says its own (``hardware.sources``)
    return name if isinstance(name, str) else ""


def reader_for_set(set_name: str) -> Callable[[np.ndarray], TrayReading] | None:
    """A frame reader for the at-rest trigger (``vision.rest.AtRestTrigger(reader=...)``), or None while the set
    still needs teaching (the app then offers the teaching screen). A damaged profile raises ``ProfileDamaged``."""
    try:
        dice_set, profile = load_for_reading(set_name)
    except (ProfileDamaged, ProfileUnreadable):  # the caller must say so, or the set would look never taught
        raise
    except ProfileError:
        return None
    return reader_of(dice_set, profile)


def reader_of(dice_set: DiceSet, profile: Profile) -> Callable[[np.ndarray], TrayReading]:
    """``reader_for_set`` for a profile in hand (one just changed by an answer: loading it again is its size's
    work twice)."""

    def reader(frame_bgr: np.ndarray) -> TrayReading:
        return read_taught(frame_bgr, dice_set.name, profile, dice_set)

    return reader
