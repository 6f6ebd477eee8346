"""Dice sets: which dice lie on the table and which faces they show, by the names the games use.

The built-in sets are TOML files in ``companion/dicesets/``. A player whose dice differ (an edition with other
symbols, a colour called otherwise) edits a copy in ``$XDG_DATA_HOME/table-companion/dicesets/<name>.toml``
(:func:`make_user_copy` writes one); when a copy exists it is used instead of the built-in set.

File format::

    name = "noch-x-mal"
    reader = "taught"        # "pips": read by the pip reader (taught faces may replace pip faces)
    marks = ["+X"]           # optional: suffixes a face may carry on some dice ("3+X"), taught per die
    open = false             # optional: true lets any other lowercase id be taught as an extra face
    [[dice]]                 # one table per kind of die
    kind = "colour"          # "pips", "numeral", "symbol" or "colour"
    count = 3
    faces = ["red", "orange", "yellow", "green", "blue", "color-joker"]
    [colours.red]            # optional: how a colour face is drawn (see companion.views.colour_faces)
    rgb = "#d62828"
    pattern = "stripes"
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

from companion import paths
from companion.atomic import atomic_write_text, text_as_saved
from companion.errors import DiceSetError

KINDS = ("pips", "numeral", "symbol", "colour")
READERS = ("pips", "taught")
PATTERNS = ("stripes", "dots", "checks", "cross", "waves", "diagonal", "plain", "grid")
_FACE_ID = re.compile(r"^[a-z0-9?][a-z0-9?+_-]*$")
_HEX = re.compile(r"^#[0-9a-fA-F]{6}$")
#: the built-in set files (package data beside this module; this module's name takes the package name)
_BUILTIN = resources.files("companion") / "dicesets"


@dataclass(frozen=True)
class DieKind:
    """``count`` dice that show the same ``faces`` (e.g. the 3 colour dice of Noch X-Mal!)."""

    kind: str
    count: int
    faces: tuple[str, ...]


@dataclass(frozen=True)
class DiceSet:
    name: str
    reader: str
    dice: tuple[DieKind, ...]
    marks: tuple[str, ...] = ()
    open: bool = False
    colours: dict[str, tuple[str, str]] = field(default_factory=dict)  # face -> (rgb hex, pattern)
    source: str = ""

    @property
    def n_dice(self) -> int:
        return sum(d.count for d in self.dice)

    def face_names(self) -> list[str]:
        """Every face the set's dice show, in file order, each once: what teaching must cover."""
        out: list[str] = []
        for d in self.dice:
            out.extend(f for f in d.faces if f not in out)
        return out

    def blank_faces(self) -> frozenset[str]:
        """The faces that may show no mark at all: a colour die's (a Fritzo cube is a plain colour). Every other
        face always carries one (a numeral, a symbol, pips), so a die seen without a mark is never named after it
        (``vision.taught.Profile.blank_faces``)."""
        return frozenset(f for f in self.face_names() if self.kind_of(f) == "colour")

    @property
    def plain_cubes(self) -> bool:
        """Whether every die is a colour die (Fritzo's cubes): the taught finder then looks for them as plain cubes
        (``vision.detect.find_any_dice``'s ``plain``)."""
        return all(d.kind == "colour" for d in self.dice)

    def kind_of(self, face: str) -> str:
        base = self.base(face)
        for d in self.dice:
            if base in d.faces:
                return d.kind
        return "symbol"

    def base(self, face: str) -> str:
        """The face without its mark: "3+X" -> "3"."""
        for m in self.marks:
            if face.endswith(m):
                return face[: -len(m)]
        return face

    def accepts(self, face: str) -> bool:
        """Whether ``face`` may be taught for this set (a face of it, a marked face, or any id of an open set)."""
        if face in self.face_names() or self.base(face) in self.face_names():
            return True
        return self.open and bool(_FACE_ID.match(face)) and face == face.lower()

    def value(self, face: str) -> int | str:
        """The face as the games expect it: ints 1-6 for pip dice, the face name otherwise."""
        if self.reader == "pips" and face.isdigit():
            return int(face)
        return face


#: what an empty file holds (as ``config.BLANK``): white space, or the zeros a power cut leaves in unwritten blocks
_BLANK = " \t\r\n\0"


def _line_of(text: str, *steps: str) -> int:
    """The line (1-based) where the entry a problem is about stands: each regular expression in ``steps`` found
    after the one before ("[[dice]]" number 2, then its "faces ="); 0 when it is not written there (missing)."""
    at, line = 0, 0
    for step in steps:
        found = re.compile(step, re.MULTILINE).search(text, at)
        if found is None:
            return line
        at = found.end()
        line = text.count("\n", 0, found.start()) + 1
    return line


def _key(name: str) -> str:
    """A ``name = …`` line, for ``_line_of``."""
    return rf"^[ \t]*{re.escape(name)}[ \t]*="


def _fail(source: str, what: str, entry: str = "", line: int = 0, words: str = "") -> DiceSetError:
    """The English message for the terminal, and the table's words: the file, the line and the entry it is about
    (the English details alone read half in English on a German screen)."""
    if not words:
        words = "dice.err_entry" if line else "dice.err_entry_somewhere"
    return DiceSetError(f"Dice set {source}: {what}. Fix the file, or delete your copy to use the built-in set.",
                        words, file=paths.short_path(source), line=line, entry=entry)


def parse(text: str, source: str = "<text>") -> DiceSet:
    """Check a dice set file; the first problem raises :class:`DiceSetError` naming the entry."""
    if not text.strip(_BLANK):  # "name = None is wrong" told a family nothing of a file cut off to nothing
        raise _fail(source, "is empty; write the set into it", words="dice.err_empty")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        at = re.search(r"line (\d+)", str(e))
        raise _fail(source, f"is not valid TOML ({e})", line=int(at.group(1)) if at else 0,
                    words="dice.err_toml" if at else "dice.err_toml_somewhere") from None
    except RecursionError:  # brackets nested past Python's limit
        raise _fail(source, "is not valid TOML (nested too deeply)", words="dice.err_toml_somewhere") from None
    unknown = sorted(set(data) - {"name", "reader", "dice", "marks", "open", "colours"})
    if unknown:  # a typo ("reeder") silently read the set another way
        raise _fail(source, f"has an unknown entry {unknown[0]!r}; the entries are: name, reader, marks, open, "
                            "[[dice]] and [colours]", unknown[0], _line_of(text, _key(unknown[0])))
    name = data.get("name")
    if not isinstance(name, str) or not _FACE_ID.match(name):
        raise _fail(source, f'name = {name!r} is wrong; use a lowercase id like "noch-x-mal"', "name",
                    _line_of(text, _key("name")))
    reader = data.get("reader", "taught")
    if reader not in READERS:
        raise _fail(source, f"reader = {reader!r} is wrong; use one of: {', '.join(READERS)}", "reader",
                    _line_of(text, _key("reader")))
    raw_dice = data.get("dice")
    if not isinstance(raw_dice, list) or not raw_dice:
        raise _fail(source, "has no [[dice]] table; give at least one with kind, count and faces", "[[dice]]",
                    _line_of(text, _key("dice")))
    dice = []
    for i, d in enumerate(raw_dice, 1):
        where = f"[[dice]] number {i}"
        table = [r"^[ \t]*\[\[[ \t]*dice[ \t]*\]\]"] * i  # its header: the i-th "[[dice]]"
        if not isinstance(d, dict):
            raise _fail(source, f"{where} must be a table", "[[dice]]", _line_of(text, *table))
        if extra := sorted(set(d) - {"kind", "count", "faces"}):
            raise _fail(source, f"{where}: unknown entry {extra[0]!r}; a die has kind, count and faces", extra[0],
                        _line_of(text, *table, _key(extra[0])))
        kind = d.get("kind")
        if kind not in KINDS:
            raise _fail(source, f"{where}: kind = {kind!r} is wrong; use one of: {', '.join(KINDS)}", "kind",
                        _line_of(text, *table, _key("kind")))
        count = d.get("count", 1)
        if not isinstance(count, int) or isinstance(count, bool) or not 1 <= count <= 30:
            raise _fail(source, f"{where}: count = {count!r} is wrong; use a whole number from 1 to 30", "count",
                        _line_of(text, *table, _key("count")))
        faces = d.get("faces")
        if not isinstance(faces, list) or not faces or not all(isinstance(f, str) for f in faces):
            raise _fail(source, f'{where}: faces must be a list of face names, like ["red", "blue"]', "faces",
                        _line_of(text, *table, _key("faces")))
        for f in faces:
            if not _FACE_ID.match(f):
                raise _fail(source, f"{where}: face {f!r} is not a lowercase id (letters, digits, ?, +, -, _)", "faces",
                            _line_of(text, *table, _key("faces")))
        if len(set(faces)) != len(faces):
            dup = sorted({f for f in faces if faces.count(f) > 1})
            raise _fail(source, f"{where}: face {dup[0]!r} is listed twice", "faces",
                        _line_of(text, *table, _key("faces")))
        dice.append(DieKind(kind, count, tuple(faces)))
    marks = data.get("marks", [])
    if not isinstance(marks, list) or not all(isinstance(m, str) and m.startswith("+") for m in marks):
        raise _fail(source, 'marks must be a list of suffixes starting with "+", like ["+X"]', "marks",
                    _line_of(text, _key("marks")))
    is_open = data.get("open", False)
    if not isinstance(is_open, bool):
        raise _fail(source, f"open = {is_open!r} is wrong; use true or false", "open", _line_of(text, _key("open")))
    colours: dict[str, tuple[str, str]] = {}
    raw_colours = data.get("colours", {})
    if not isinstance(raw_colours, dict):
        raise _fail(source, "colours must be tables, one per colour: [colours.red] with rgb and pattern", "colours",
                    _line_of(text, _key("colours")))
    for face, spec in raw_colours.items():
        header = rf"^[ \t]*\[[ \t]*colours\.{re.escape(face)}[ \t]*\]"
        rgb, pattern = (spec.get("rgb"), spec.get("pattern", "plain")) if isinstance(spec, dict) else (None, None)
        if not isinstance(rgb, str) or not _HEX.match(rgb):
            raise _fail(source, f'[colours.{face}]: rgb = {rgb!r} is wrong; use a colour like "#d62828"',
                        f"[colours.{face}] rgb", _line_of(text, header, _key("rgb")))
        if pattern not in PATTERNS:
            raise _fail(source, f"[colours.{face}]: pattern = {pattern!r} is wrong; use one of: {', '.join(PATTERNS)}",
                        f"[colours.{face}] pattern", _line_of(text, header, _key("pattern")))
        colours[face] = (rgb, pattern)
    return DiceSet(name, reader, tuple(dice), tuple(marks), is_open, colours, source)


def builtin_names() -> list[str]:
    return sorted(p.name[:-5] for p in _BUILTIN.iterdir() if p.name.endswith(".toml"))


def user_dir() -> Path:
    return paths.data_dir() / "dicesets"


def _builtin_text(name: str) -> str | None:
    res = _BUILTIN / f"{name}.toml"
    return res.read_text(encoding="utf-8") if res.is_file() else None


def load(name: str) -> DiceSet:
    """The set called ``name``: the player's copy if there is one, else the built-in set."""
    user = user_dir() / f"{name}.toml"
    if user.is_file():
        try:  # as Notepad saved it (a byte-order mark, the Windows code page), as config.toml is read
            text = text_as_saved(user.read_bytes())
        except OSError as e:  # left where it is: a card read again later has it back
            refused = isinstance(e, PermissionError)
            raise _fail(str(user), f"cannot be read ({e})",
                        words="dice.err_refused" if refused else "dice.err_unreadable") from None
        ds = parse(text, str(user))
    else:
        text = _builtin_text(name) if _FACE_ID.match(name) else None
        if text is None:
            known = sorted(set(builtin_names()) | {p.stem for p in user_dir().glob("*.toml")})
            raise DiceSetError(f"There is no dice set called {name!r}. Known sets: {', '.join(known)}.")
        ds = parse(text, f"built-in {name}")
    if ds.name != name:
        raise DiceSetError(f"Dice set {ds.source}: says name = {ds.name!r} but is stored as {name!r}; make them "
                           "the same. Fix the file, or delete your copy to use the built-in set.", "dice.err_name",
                           file=paths.short_path(ds.source), name=ds.name, stored=name,
                           line=_line_of(text, _key("name")))
    return ds


def make_user_copy(name: str) -> Path:
    """Write an editable copy of the built-in set into the data folder (kept if one is there) and return it."""
    target = user_dir() / f"{name}.toml"
    if not target.exists():
        text = _builtin_text(name)
        if text is None:
            raise DiceSetError(f"There is no built-in dice set called {name!r}. Known: {', '.join(builtin_names())}.")
        atomic_write_text(target, text)
    return target


#: colour name -> (RGB for the screen, pattern); a dice set's [colours] table overrides these
DEFAULT_COLOURS: dict[str, tuple[tuple[int, int, int], str]] = {
    "red": ((214, 40, 40), "stripes"),
    "orange": ((247, 127, 0), "dots"),
    "yellow": ((252, 210, 40), "checks"),
    "green": ((56, 160, 70), "waves"),
    "blue": ((40, 100, 210), "diagonal"),
    "white": ((240, 240, 235), "plain"),
    "black": ((30, 30, 30), "cross"),
    "purple": ((130, 60, 160), "grid"),
    "pink": ((240, 130, 180), "grid"),  # orange's dots beside it: ΔE 1.7 in grey
    "brown": ((130, 80, 40), "dots"),  # red's stripes beside it: ΔE 0.8 for a red-blind eye
    "grey": ((128, 128, 128), "checks"),
    "color-joker": ((30, 30, 30), "cross"),
}


def _hex(rgb: str) -> tuple[int, int, int]:
    return int(rgb[1:3], 16), int(rgb[3:5], 16), int(rgb[5:7], 16)


def colour_style(face: str, dice_set: DiceSet | None = None) -> tuple[tuple[int, int, int], str] | None:
    """(RGB, pattern) of a colour face, or None when ``face`` is not a colour: how the screen draws it (here, not
    in the views, because the reader's first guess at a colour cube compares its look with these too)."""
    if dice_set is not None and face in dice_set.colours:
        rgb, pattern = dice_set.colours[face]
        return _hex(rgb), pattern
    return DEFAULT_COLOURS.get(face)
