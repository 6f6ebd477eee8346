"""The player's settings: TOML in the XDG config folder, every value checked with a message that names the key.

A missing file means defaults (a fresh install just works). A file that is not valid TOML is a ``ConfigError``
naming the line; we do not silently fall back, because the player would not learn why their names vanished. At the
table (``companion run``) the fall-back is loud instead: the standard settings, and the screen says why.
Game sections (``[games.haste-worte]`` ...) take the keys in ``GAME_KEYS``, each value checked by the game's own setup
(as the game will take it when the family chooses it).
"""

from __future__ import annotations

import copy
import datetime
import errno
import logging
import re
import tomllib
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from companion import paths
from companion.atomic import atomic_write_text, keep_aside_where_possible, replace_keeping_aside, text_as_saved
from companion.errors import CompanionError, ConfigError
from companion.i18n import LANGUAGES, disk_words, error_words, t
from companion.i18n import said as said_error
from companion.names import FEWEST_PLAYERS, LONGEST_NAME, MOST_PLAYERS, first_name_problem, player_name
from hardware.buttons import shared_pins
from hardware.events import Button

log = logging.getLogger(__name__)

DEFAULT_PINS: dict[str, int] = {"roll": 17, "reroll": 27, "timer": 22, "next": 23, "select": 24, "undo": 25}
#: BCM GPIO numbers a button may use (the 40-pin header's general-purpose pins)
VALID_PINS = range(2, 28)


#: the turns of the picture ``display.rotate`` takes (clockwise degrees); it takes "auto" too (``AUTO_ROTATE``)
ROTATIONS = (0, 90, 180, 270)
#: ``display.rotate``'s default: the kiosk turns a screen that comes taller than wide (a portrait panel such as the
#: Touch Display 2 lying on its side) by 90 degrees; 0 otherwise. A portrait panel with 0 showed the picture in a
#: third of it, and only ``companion doctor`` said why
AUTO_ROTATE = "auto"


@dataclass
class DisplayConfig:
    width: int = 800
    height: int = 480
    #: "auto": fullscreen kiosk on a Pi, a window elsewhere
    fullscreen: bool | str = "auto"
    fps: int = 30
    #: degrees the picture is turned clockwise: 180 for a display mounted upside down, 90 or 270 for a portrait
    #: panel on its side; "auto": 90 where the kiosk's screen is taller than wide, else 0
    rotate: int | str = AUTO_ROTATE


#: ``sound.talk``'s values: every sentence, or the calls only (``Announcement.detail`` left unsaid)
TALK = ("all", "calls")


@dataclass
class SoundConfig:
    volume: int = 80
    mute: bool = False
    speech: bool = True
    #: how much is said: "all" (every sentence, for a player who cannot see the screen well) or "calls" (who acts
    #: now, what decides the game; the details a player can see, such as the faces rolled, are left unsaid)
    talk: str = "all"
    #: the sound output by (a part of) its name, as ``companion doctor`` lists them; "" the system's default
    output: str = ""


@dataclass
class ButtonConfig:
    pins: dict[str, int] = field(default_factory=lambda: dict(DEFAULT_PINS))
    hold_time: float = 1.0
    debounce: float = 0.03


#: the keys of each game's ``[games."<name>"]`` section: they go into the game's setup action (house rules,
#: letters ...), whose checks the values pass at load (``_check_game_values``); any other key is a typo and refused
GAME_KEYS: dict[str, tuple[str, ...]] = {
    "haste-worte": ("letters", "timer_seconds", "goal", "meanings"),
    "echt-spitze": ("kinds", "shapes", "star_value"),
    "noch-x-mal": (),
    "fritzo": (),
}
#: the keys each level of a game takes from its section; a key another level's: left out of that level's setup. A
#: club's config with the kinds' values made level 3 refuse to start, and ``star_value`` (level 2's, which the
#: rulebook does not print) scored level 1's stars at 4 instead of the rulebook's 5
LEVEL_KEYS: dict[str, dict[int, tuple[str, ...]]] = {
    "echt-spitze": {1: ("kinds",), 2: ("kinds", "star_value"), 3: ("shapes",)},
}


@dataclass
class Config:
    language: str = "de"
    players: list[str] = field(default_factory=lambda: ["Anna", "Ben", "Carla", "David"])
    camera: str = "auto"
    display: DisplayConfig = field(default_factory=DisplayConfig)
    sound: SoundConfig = field(default_factory=SoundConfig)
    buttons: ButtonConfig = field(default_factory=ButtonConfig)
    games: dict[str, dict[str, Any]] = field(default_factory=dict)
    path: Path | None = None
    #: what the command line set for this run only (``--lang en``, ``--window``): dotted key -> (the file's value,
    #: the run's). When the companion writes the file (players, sound, language), such a value is written as the
    #: file had it unless the table changed it since: the Pi service's ``--fullscreen`` is no setting of the file's
    for_this_run: dict[str, tuple[Any, Any]] = field(default_factory=dict, compare=False, repr=False)
    #: the file there could not be read at the start (the card failing, a folder in its place): the standard
    #: settings play, and ``save`` refuses to write over a file that may read again at the next start
    unreadable: OSError | None = field(default=None, compare=False, repr=False)
    #: the file's mistakes were left out at the start but the mended file could not be written (a full card): the
    #: first ``save`` that can write keeps the file as it was aside first, as the start meant to
    keep_aside_first: bool = field(default=False, compare=False, repr=False)

    def run_with(self, key: str, value: Any) -> None:
        """Set ``key`` ("language", "display.fullscreen") for this run only (see ``for_this_run``)."""
        owner, name = self._owner(key)
        self.for_this_run[key] = (getattr(owner, name), value)
        setattr(owner, name, value)

    def _owner(self, key: str) -> tuple[Any, str]:
        *path, name = key.split(".")
        owner: Any = self
        for part in path:
            owner = getattr(owner, part)
        return owner, name

    def for_the_file(self) -> Config:
        """This config as the file should hold it: values set for this run only, and not changed since, as they were."""
        written = copy.deepcopy(self)
        for key, (filed, run) in self.for_this_run.items():
            owner, name = written._owner(key)
            if getattr(owner, name) == run:
                setattr(owner, name, filed)
        written.for_this_run = {}
        return written

    def to_toml(self) -> str:
        """The effective config as TOML (what ``companion config`` prints; valid input for ``--config``)."""
        out = [f"# effective config{f' (from {self.path})' if self.path else ' (defaults: no config file)'}"]
        out.append(f"language = {_toml_value(self.language)}")
        out.append(f"players = {_toml_value(self.players)}")
        out.append(f"camera = {_toml_value(self.camera)}")
        for name, section in (("display", self.display), ("sound", self.sound)):
            out.append(f"\n[{name}]")
            out += [f"{f.name} = {_toml_value(getattr(section, f.name))}" for f in fields(section)]
        out.append("\n[buttons]")
        out.append(f"hold_time = {_toml_value(self.buttons.hold_time)}")
        out.append(f"debounce = {_toml_value(self.buttons.debounce)}")
        out.append("\n[buttons.pins]")
        out += [f"{k} = {v}" for k, v in self.buttons.pins.items()]
        for game, section in self.games.items():
            out.append(f"\n[games.{_toml_key(game)}]")
            out += [f"{_toml_key(k)} = {_toml_value(v)}" for k, v in section.items()]
        return "\n".join(out) + "\n"


_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")
_ESCAPES = {"\\": "\\\\", '"': '\\"', "\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f", "\r": "\\r"}


def _toml_key(k: str) -> str:
    """A bare key where TOML allows one (ASCII letters, digits, _ and -), else a quoted one: "größe"."""
    return k if _BARE_KEY.fullmatch(k) else _toml_value(k)


def _toml_string(v: str) -> str:
    """A TOML basic string: quotes, backslashes and control characters escaped (a name with a line break, loaded
    from a hand-edited file, made the rewritten file unreadable and stopped the companion at mute)."""
    return '"' + "".join(_ESCAPES.get(c, f"\\u{ord(c):04x}" if ord(c) < 32 or ord(c) == 127 else c)
                         for c in v) + '"'


def _toml_value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int | float):
        return repr(v)
    if isinstance(v, str):
        return _toml_string(v)
    if isinstance(v, datetime.date | datetime.time):  # TOML's own dates and times, as a file may hold them
        return v.isoformat()
    if isinstance(v, list | tuple):
        return "[" + ", ".join(_toml_value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{_toml_key(k)} = {_toml_value(x)}" for k, x in v.items()) + " }"
    raise TypeError(f"cannot write {type(v).__name__} to TOML")


class SaidConfigError(ConfigError):
    """A ConfigError with the table's words beside the terminal's English: the catalog key ``words`` and its
    ``params`` (a param may be a (key, params) pair of its own, or an OSError); ``config_words`` says it. The
    command line said config errors in English where teaching said its own in the configured language."""

    def __init__(self, message: str, words: str, params: dict[str, Any], **kw: Any) -> None:
        super().__init__(message, **kw)
        self.config_words = words  # not ``words``/``params``: ``i18n.said`` would take them, unresolved
        self.config_params = params


def config_words(exc: ConfigError, lang: str) -> str:
    """``exc`` in ``lang`` where it carries the words (``SaidConfigError``), else its English."""
    if not isinstance(exc, SaidConfigError):
        return str(exc)

    def said(value: Any) -> Any:
        if isinstance(value, tuple):
            return t(value[0], lang, **{k: said(v) for k, v in value[1].items()}).rstrip(". ")
        if isinstance(value, CompanionError):  # a game's refusal, a picture source's: a sentence of its own, set in
            words = value.localized(lang) if hasattr(value, "localized") else said_error(value, lang)  # ours
            words = words.rstrip(". ")
            return words[:1].lower() + words[1:] if lang == "en" else words  # ("Die Buchstaben" keeps its case)
        return disk_words(value, lang) if isinstance(value, OSError) else value

    return t(exc.config_words, lang, **{k: said(v) for k, v in exc.config_params.items()})


def _bad(key: str, value: Any, allowed: str, how: str | CompanionError = "", **params: Any) -> ConfigError:
    """A value refused: the English for the terminal and the log, and ``how`` (a catalog key, with ``params``, or
    the error of a game or source that refused it) for the table's language; without one, its English ``allowed``
    stands in the table's sentence."""
    said_how = (how, params) if isinstance(how, str) and how else how or allowed
    return SaidConfigError(f"config: {key} = {value!r} is not allowed; {allowed}", "core.config_cli_value",
                           {"setting": key, "value": _shown(value), "how": said_how}, key=key)


def pin_used(key: str, pin: int | str, other: str) -> ConfigError:
    """Two buttons on one pin (``hardware.buttons.shared_pins``): the config refuses it, and the panel a config built
    in code, in the same words."""
    return _bad(key, pin, f"GPIO {pin} is already used by {other}; give one of the two another pin",
                "core.config_how_pin_used", pin=pin, other=other)


def _shown(value: Any) -> str:
    """A value as the file writes it (``150``, ``"fünf"``, ``true``), as far as it can be written."""
    try:
        return _toml_value(value)
    except TypeError:
        return repr(value)


def _int(data: dict, key: str, prefix: str, lo: int, hi: int, default: int) -> int:
    value = data.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise _bad(f"{prefix}{key}", value, f"use a whole number from {lo} to {hi}", "core.config_how_int", lo=lo,
                   hi=hi)
    return value


def _float(data: dict, key: str, prefix: str, lo: float, hi: float, default: float) -> float:
    value = data.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int | float) or not lo <= value <= hi:
        raise _bad(f"{prefix}{key}", value, f"use a number from {lo} to {hi} (seconds)", "core.config_how_float",
                   lo=lo, hi=hi)
    return float(value)


def _bool(data: dict, key: str, prefix: str, default: bool) -> bool:
    value = data.get(key, default)
    if not isinstance(value, bool):
        raise _bad(f"{prefix}{key}", value, "use true or false", "core.config_how_bool")
    return value


def _section(data: dict, key: str, prefix: str = "") -> dict:
    value = data.get(key, {})
    if not isinstance(value, dict):
        raise _bad(f"{prefix}{key}", value, f"[{prefix}{key}] must be a table (a section)", "core.config_how_section",
                   section=f"{prefix}{key}")
    return value


def _check_unknown(data: dict, known: set[str], prefix: str) -> None:
    for key in data:
        if key not in known:
            which = f"known are: {', '.join(sorted(known))}" if known else f"[{prefix[:-1]}] takes no settings"
            words = "core.config_cli_unknown" if known else "core.config_cli_unknown_none"
            raise SaidConfigError(f"config: unknown setting {prefix}{key}; {which}", words,
                                  {"setting": f"{prefix}{_toml_key(key)}", "known": ", ".join(sorted(known)),
                                   "section": prefix[:-1]}, key=f"{prefix}{key}")


def from_dict(data: dict[str, Any], path: Path | None = None) -> Config:
    """Check every value; the first bad one raises ConfigError naming key, value and what is allowed."""
    _check_unknown(data, {"language", "players", "camera", "display", "sound", "buttons", "games"}, "")
    cfg = Config(path=path)

    lang = data.get("language", cfg.language)
    if lang not in LANGUAGES:
        raise _bad("language", lang, f"choose one of: {', '.join(LANGUAGES)}", "core.config_how_language",
                   choices=", ".join(LANGUAGES))
    cfg.language = lang

    players = data.get("players", cfg.players)
    if refused := _players_refused(players):
        allowed, how = refused
        raise _bad("players", players, allowed, **how)
    cfg.players = [player_name(p) for p in players]

    camera = data.get("camera", cfg.camera)
    if not isinstance(camera, str):
        raise _bad("camera", camera, "use auto, pi, cam:0, folder:PATH, video:PATH or synthetic",
                   "core.config_how_camera")
    if camera != "auto":
        from hardware.sources import check_spec  # the sources' own reading of a spec ("cam:abc" is none)

        try:
            check_spec(camera)
        except CompanionError as exc:
            raise _bad("camera", camera, str(exc).rstrip(". "), exc) from None
    cfg.camera = camera

    d = _section(data, "display")
    _check_unknown(d, {f.name for f in fields(DisplayConfig)}, "display.")
    cfg.display.width = _int(d, "width", "display.", 320, 7680, cfg.display.width)
    cfg.display.height = _int(d, "height", "display.", 240, 4320, cfg.display.height)
    cfg.display.fps = _int(d, "fps", "display.", 5, 120, cfg.display.fps)
    fs = d.get("fullscreen", cfg.display.fullscreen)
    if fs != "auto" and not isinstance(fs, bool):
        raise _bad("display.fullscreen", fs, 'use true, false or "auto" (fullscreen on a Pi)',
                   "core.config_how_fullscreen")
    cfg.display.fullscreen = fs
    rotate = d.get("rotate", cfg.display.rotate)
    if rotate != AUTO_ROTATE and (isinstance(rotate, bool) or rotate not in ROTATIONS):
        raise _bad("display.rotate", rotate, 'use "auto", 0, 90, 180 or 270 (degrees clockwise)',
                   "core.config_how_rotate")
    cfg.display.rotate = rotate

    s = _section(data, "sound")
    _check_unknown(s, {f.name for f in fields(SoundConfig)}, "sound.")
    cfg.sound.volume = _int(s, "volume", "sound.", 0, 100, cfg.sound.volume)
    cfg.sound.mute = _bool(s, "mute", "sound.", cfg.sound.mute)
    cfg.sound.speech = _bool(s, "speech", "sound.", cfg.sound.speech)
    talk = s.get("talk", cfg.sound.talk)
    if talk not in TALK:
        raise _bad("sound.talk", talk, 'use "all" (every sentence) or "calls" (who acts now and what decides the game, '
                   "not the details the screen shows)", "core.config_how_talk")
    cfg.sound.talk = talk
    output = s.get("output", cfg.sound.output)
    if not isinstance(output, str) or "\n" in output:
        raise _bad("sound.output", output, 'use a part of an output\'s name as "companion doctor" lists them, or "" '
                   "for the system's default", "core.config_how_output")
    cfg.sound.output = output

    b = _section(data, "buttons")
    _check_unknown(b, {"pins", "hold_time", "debounce"}, "buttons.")
    cfg.buttons.hold_time = _float(b, "hold_time", "buttons.", 0.3, 5.0, cfg.buttons.hold_time)
    cfg.buttons.debounce = _float(b, "debounce", "buttons.", 0.0, 0.5, cfg.buttons.debounce)
    pins = _section(b, "pins", "buttons.")
    names_ok = {btn.value for btn in Button}
    for key, pin in pins.items():
        if key not in names_ok:
            raise _bad(f"buttons.pins.{key}", pin, f"buttons are: {', '.join(sorted(names_ok))}",
                       "core.config_how_button", names=", ".join(sorted(names_ok)))
        if isinstance(pin, bool) or not isinstance(pin, int) or pin not in VALID_PINS:
            raise _bad(f"buttons.pins.{key}", pin, "use a BCM GPIO number from 2 to 27", "core.config_how_pin")
        cfg.buttons.pins[key] = pin
    # Blame the pin the player set, not the default it collides with.
    blamed_last = {k: cfg.buttons.pins[k] for k in [k for k in cfg.buttons.pins if k not in pins] + list(pins)}
    for key, pin, other in shared_pins(blamed_last)[:1]:
        raise pin_used(f"buttons.pins.{key}", pin, other)

    games = _section(data, "games")
    for game, section in games.items():
        if game not in GAME_KEYS:
            known = ", ".join(g for g, keys in GAME_KEYS.items() if keys)
            raise SaidConfigError(f"config: unknown game [games.{_toml_key(game)}]; games with settings are: {known}",
                                  "core.config_cli_unknown_game", {"game": f"games.{_toml_key(game)}", "known": known},
                                  key=f"games.{game}")
        if not isinstance(section, dict):
            raise _bad(f"games.{game}", section, f'[games."{game}"] must be a table', "core.config_how_section",
                       section=f"games.{_toml_key(game)}")
        _check_unknown(section, set(GAME_KEYS[game]), f"games.{game}.")
        _check_game_values(game, section)
    cfg.games = {k: dict(v) for k, v in games.items()}
    return cfg


def game_levels(game: str) -> tuple[int | None, ...]:
    """The levels ``game``'s settings are tried at (``LEVEL_KEYS``); (None,) for a game without levels."""
    return tuple(LEVEL_KEYS.get(game, {None: ()}))


def levels_taking(game: str, key: str) -> list[int | None]:
    """The levels of ``game`` whose setup takes ``key`` of its section (every one, for a game without levels)."""
    return [n for n in game_levels(game) if n is None or key in LEVEL_KEYS[game][n]]


def level_section(game: str, section: dict[str, Any], level: Any) -> dict[str, Any]:
    """The part of ``game``'s section that ``level`` takes (``LEVEL_KEYS``): all of it for a game without levels, or
    where no level is chosen."""
    keys = LEVEL_KEYS.get(game, {}).get(level)
    return dict(section) if keys is None else {k: v for k, v in section.items() if k in keys}


def game_refusals(game: str, section: dict[str, Any]) -> dict[int | None, str]:
    """What ``game``'s setup says of ``section`` at each of its levels (``game_levels``) that refuses it, each level
    given the keys it takes: the config's check at load and the doctor's report (English)."""
    return {level: str(exc) for level, exc in _game_refusals(game, section).items()}


def _game_refusals(game: str, section: dict[str, Any]) -> dict[int | None, CompanionError]:
    """``game_refusals`` as the game's errors, which say themselves in the table's language too."""
    from companion.games import engine_class
    from companion.games.base import GameError

    refused: dict[int | None, CompanionError] = {}
    for level in game_levels(game):
        try:
            engine_class(game).new({"action": "setup", "players": ["Anna", "Ben"], "seed": 0,
                                    **level_section(game, section, level),
                                    **({"level": level} if level is not None else {})})
        except GameError as exc:
            refused[level] = exc
        except Exception as exc:  # noqa: BLE001 - a value its checks did not foresee: refused, not a kiosk
            refused[level] = GameError(f"the game cannot take it ({exc})", key="core.config_how_game_crash",
                                       error=str(exc))  # that crashes at every start
    return refused


def _check_game_values(game: str, section: dict[str, Any]) -> None:
    """Each value as the game's setup takes it: ``letters = 5`` passed ``companion config`` and ``run`` unsaid, and
    stopped the game only when the family chose it, after its setup, with nobody at the table who could mend the
    file. The keys are tried in the file's order, each with those before it: the first one the game refuses at
    every level that takes it is named (``star_value = "vier"``: at level 2, the others leaving it out)."""
    tried: dict[str, Any] = {}
    for key, value in section.items():
        tried[key] = value
        refused = _game_refusals(game, tried)
        takes = levels_taking(game, key)
        if takes and all(n in refused for n in takes):
            exc = refused[takes[0]]  # what a level that takes it says, not another level's
            words = str(exc).rstrip(". ")
            raise _bad(f"games.{game}.{key}", value, words[:1].lower() + words[1:], exc)


def _checked_toml(cfg: Config) -> str:
    """The config as the file should hold it, loaded again first: a file that would not load is never written."""
    text = cfg.for_the_file().to_toml()
    from_dict(tomllib.loads(text), cfg.path)
    return text


def save(cfg: Config, path: str | Path | None = None) -> Path:
    """Write the config atomically (players entered on screen survive a power cut); returns where it went.

    The file is rewritten from the effective config, so comments in a hand-edited file are not kept.
    """
    target = Path(path) if path is not None else (cfg.path or paths.config_file())
    if cfg.unreadable is not None and path is None:  # said at the start: kept for this run, the file left as it is
        log.warning("the settings file could not be read at the start (%s): not written over", cfg.unreadable)
        return target  # (a refusal here kept the players screen from being left: its "Done" saves)
    text = _checked_toml(cfg)
    if cfg.keep_aside_first and path is None and target.exists():
        replace_keeping_aside(target, text.encode("utf-8"))
    else:  # (a file removed since has nothing to keep aside: every save failed on it, all evening)
        atomic_write_text(target, text)
    if path is None:
        cfg.keep_aside_first = False
    cfg.path = target
    return target


#: what an empty file holds: white space, or the zeros a card leaves where a power cut kept its blocks unwritten
BLANK = " \t\r\n\0"


def load(path: str | Path | None = None) -> Config:
    """Load the config from ``path`` (or the XDG default). A missing default file means defaults."""
    explicit = path is not None
    p = Path(path) if explicit else paths.config_file()
    try:
        found = p.exists()
    except OSError as exc:  # a name too long, a folder on the way that may not be looked into
        raise SaidConfigError(f"config file {p} cannot be read: {exc.strerror or exc}", "core.config_cli_unreadable",
                              {"file": str(p), "error": exc}, error=exc) from None
    if not found and p.is_symlink():
        try:
            p.resolve()
        except RuntimeError:  # links in a loop: a file that cannot be read, not none (the first save crashed)
            loop = OSError(errno.ELOOP, "Too many levels of symbolic links", str(p))
            raise SaidConfigError(f"config file {p} is a link in a loop", "core.config_cli_unreadable",
                                  {"file": str(p), "error": loop}, error=loop) from None
    if not found:
        if explicit:
            raise SaidConfigError(f"config file {p} does not exist; check the path given to --config",
                                  "core.config_cli_missing", {"file": str(p)})
        return Config()
    if p.is_dir():
        # at the default place the folder is in the way of the file (none is looked for in it)
        advice = f"give the file in it, e.g. {p / 'config.toml'}" if explicit else "remove or rename that folder"
        raise SaidConfigError(f"{p} is a folder, not a config file; {advice}",
                              "core.config_cli_folder_given" if explicit else "core.config_cli_folder",
                              {"file": str(p), "inside": str(p / "config.toml")},
                              error=IsADirectoryError(errno.EISDIR, "Is a directory", str(p)))
    try:
        text = text_as_saved(p.read_bytes())  # as Notepad saved it: a byte-order mark, or the Windows code page
        if not text.strip(BLANK):  # our writes are atomic: a copy or an editor cut it off (or a card left zeros),
            # and the players' names went
            raise SaidConfigError(f"config file {p} is empty; write the settings again or remove the file.",
                                  "core.config_cli_empty", {"file": str(p)}, line=1)
        data = tomllib.loads(text)
    except RecursionError:  # brackets nested past Python's limit: as unreadable as a line that is no TOML
        raise SaidConfigError(f"config file {p} is not valid TOML: it is nested too deeply. Fix it or remove the "
                              "file.", "core.config_cli_nested", {"file": str(p)}, line=1) from None
    except tomllib.TOMLDecodeError as exc:
        line = re.search(r"line (\d+)", str(exc))
        rows = _rows(text)
        n = _opened_at(rows, int(line.group(1)) if line else len(rows) + 1)  # "at end of document": an unclosed [
        begun = "" if line and n == int(line.group(1)) else f", in the value begun at line {n} (a ], }} or quote " \
            "missing there?)"
        fix = f"line {n}" if begun else "that line"
        raise SaidConfigError(f"config file {p} is not valid TOML: {exc}{begun}. Fix {fix} or remove the file.",
                              "core.config_cli_toml_begun" if begun else "core.config_cli_toml",
                              {"file": str(p), "n": n}, line=n) from None
    except OSError as exc:
        raise SaidConfigError(f"config file {p} cannot be read: {exc.strerror or exc}", "core.config_cli_unreadable",
                              {"file": str(p), "error": exc}, error=exc) from None
    return from_dict(data, p)


def load_for_the_table(path: str | Path | None = None, lang: str | None = None) -> tuple[Config, str | None]:
    """``companion run``'s load: the config, and words for the screen when the file could not be used.

    A Pi starts the companion at boot with nobody at a terminal: a bad file that stopped the start (as ``load``
    does) would leave the table a black screen, restarted every few seconds. So a bad default file is kept aside
    (renamed, never deleted: the player's edits are in it, and the companion would otherwise write over it when
    players are entered or the sound muted), the standard settings start, and the words say so. A file given with
    ``--config`` stays strict: whoever typed that is at a terminal and reads the line. ``lang``: the words'
    language (``--lang``), else the standard one.
    """
    try:
        return load(path), None
    except ConfigError as exc:
        if path is not None:
            raise
        if exc.error is not None:  # not a mistake in the file: it could not be read at all, and may read again at
            standard = Config(unreadable=exc.error)  # the next start: left as it is, not written over this run
            lang = lang or standard.language
            return standard, t("core.config_unreadable", lang, error=disk_words(exc.error, lang))
        if (salvaged := _salvaged(paths.config_file())) is not None:
            cfg, wrong, lines, removed = salvaged
            lang = lang or cfg.language
            where = ", ".join([*wrong, *(t("core.line", lang, n=n) for n in sorted(lines))])
            names = _names_lost(paths.config_file(), cfg, removed, lang)
            try:  # the settings that were right: the next start is clean, the mistake kept aside
                name = replace_keeping_aside(paths.config_file(), _checked_toml(cfg).encode("utf-8")).name
            except (OSError, ConfigError) as exc:  # a full card: the file stays as it was, the next save tries again
                cfg.keep_aside_first = True
                return cfg, t("core.config_salvaged_unsaved", lang, where=where, error=error_words(exc, lang)) + names
            return cfg, t("core.config_salvaged", lang, where=where, name=name) + names
        standard = Config()
        standard.language = language_in(paths.config_file()) or standard.language  # an English table stays so
        lang = lang or standard.language
        if paths.config_file().is_symlink():  # a link stays (its file copied aside): the standard settings go through
            try:  # it, or every start would keep the same file aside again
                name = replace_keeping_aside(paths.config_file(), _checked_toml(standard).encode("utf-8")).name
            except (OSError, ConfigError):  # a full card: the owner's file left as it was, not written over
                name = paths.config_file().name
                standard.keep_aside_first = True
        else:
            name = keep_aside_where_possible(paths.config_file())  # a card refusing it refuses our writes too
        where = exc.key or (t("core.line", lang, n=exc.line) if exc.line else "?")
        return standard, t("core.config_aside", lang, where=where, name=name)


#: more wrong settings than this in one file: it is not the file of this companion, the standard settings start
SALVAGE_MOST = 5


def _names_lost(path: Path, cfg: Config, removed: dict[str, Any], lang: str) -> str:
    """The family's names gone to the standard ones, said with why and where to enter them again ("" when they were
    kept): "Fehler in der Einstellungsdatei (players): dort gilt der Standardwert" told a family neither why nor
    that "Anna, Ben, Carla, David" at the table were not a mistake of the screen."""
    if cfg.players != Config().players:
        return ""
    if "players" in removed:
        why = _players_why(removed["players"], lang)
    else:  # a line of them that is no TOML ("Mia" unquoted): the players line left out with it
        try:
            text = text_as_saved(path.read_bytes())
        except OSError:
            return ""
        if not re.search(r"^\s*players\s*=", text, re.MULTILINE):
            return ""  # none in the file: the standard names are what it asked for
        why = t("core.config_players_why_line", lang)
    return " " + t("core.config_players_lost", lang, why=why, names=", ".join(cfg.players))


#: the English of ``from_dict``'s refusal of players that are no list of names, or with one blank
_PLAYERS_LIST = 'give a list of names in seat order, e.g. ["Anna", "Ben"]'


def _players_refused(value: Any) -> tuple[str, dict[str, Any]] | None:
    """Why ``from_dict`` refuses ``value`` as the players, or None where it takes them: the English, and ``_bad``'s
    ``how`` with its parameters (a ``core.config_players_why_*`` key: the repair notice says why the names went).

    The rules are the players screen's (``names.first_name_problem``); the config's own are that it checks the
    list's form first (a file can hold anything) and, with ``one_line``, the characters a file can bring that no
    key of the screen types, before the letters."""
    if not isinstance(value, list) or not all(isinstance(p, str) for p in value):
        return _PLAYERS_LIST, {"how": "core.config_players_why_form"}
    found = first_name_problem(value, one_line=True)
    if found is None:
        return None
    how, values, _ = found
    if how == "blank":
        return _PLAYERS_LIST, {"how": "core.config_players_why_blank"}
    if how in ("twice", "said_alike"):
        return ("each name may appear once, emoji aside (add an initial to tell two apart)",
                {"how": f"core.config_players_why_{how}", **values})
    if how == "count":
        return f"name {FEWEST_PLAYERS} to {MOST_PLAYERS} players", {"how": "core.config_players_why_count", **values}
    if how == "long":
        return (f"keep each name to {LONGEST_NAME} letters so it fits the screen",
                {"how": "core.config_players_why_long", **values})
    if how == "line_break":
        return "a name is written on one line, without line breaks or tabs", {"how": "core.config_players_why_sign"}
    if how == "hidden":  # "👩‍👩‍👧" joins with U+200D: it was told "without line breaks or tabs", which it has none of
        return (f"a name holds a character the screen cannot show (U+{ord(values['char']):04X}); write it with "
                "letters", {"how": "core.config_players_why_sign"})
    if how == "mixed":  # "Аnna" (Cyrillic А) beside "Anna"
        word, letter = values["name"], values["letter"]
        return (f"write each word in one alphabet: {letter} (U+{ord(letter):04X}) in {word} only looks like a letter "
                "of the others", {"how": "core.config_players_why_mixed", **values})
    return (f"{values['name']!r} has no letter or digit, so the announcer cannot say it; write the name with letters",
            {"how": "core.config_players_why_unsaid", **values})


def _players_why(value: Any, lang: str) -> str:
    """Why ``from_dict`` refused the players, in the table's words (its own words are the terminal's English)."""
    refused = _players_refused(value)
    how = refused[1] if refused else {"how": "core.config_players_why_sign"}  # (only refused players are asked)
    return t(how.pop("how"), lang, **how)


def _salvaged(path: Path) -> tuple[Config, list[str], list[int], dict[str, Any]] | None:
    """The settings of a file with a wrong value or two (``volume = 150``, a misspelt key, a line that is no TOML:
    ``[sound`` without its bracket), without those: one mistake threw away the players' names and the language with
    it, and the first mute wrote the standard ones over them. Returns the settings, the keys and the lines left
    out, and the values left out (by key); None where the file has more mistakes (``SALVAGE_MOST``) than a slip
    makes, or none we can name."""
    try:
        text = text_as_saved(path.read_bytes())
        if not text.strip(BLANK):  # no settings to keep: its zeros blanked, it read as none, "the others apply"
            return None
        data, lines = _toml_without_bad_lines(text)
    except (OSError, tomllib.TOMLDecodeError, RecursionError):
        return None
    wrong: list[str] = []
    removed: dict[str, Any] = {}
    while len(wrong) + len(lines) <= SALVAGE_MOST:
        try:
            cfg = from_dict(data, path)
        except ConfigError as exc:
            found = _key_path(data, exc.key)
            if found is None:
                return None
            *parents, last = found
            table: Any = data
            for part in parents:
                table = table[part]
            removed[exc.key] = table.pop(last)
            wrong.append(".".join(map(_toml_key, found)) if any("." in part for part in found) else exc.key)
        else:
            # none named: an empty file, or a mistake not ours to mend
            return (cfg, wrong, lines, removed) if wrong or lines else None
    return None


def _key_path(data: dict[str, Any], key: str) -> list[str] | None:
    """The tables' keys that lead to ``key`` as ``from_dict`` names it (its parts joined by "."), or None: a key
    holding a dot itself (``"sound.volume" = 30``, quoted) was looked for as [sound] volume, found nowhere, and the
    whole file went aside for it."""
    if key in data:
        return [key]
    for at in (i for i, c in enumerate(key) if c == "."):  # bounded by the key's length
        head = key[:at]
        if isinstance(data.get(head), dict) and (rest := _key_path(data[head], key[at + 1:])) is not None:
            return [head, *rest]
    return None


def _rows(text: str) -> list[str]:
    """TOML's lines: not splitlines(), which also breaks at U+2028."""
    return re.split(r"\r\n|\r|\n", text)


def _parses(text: str) -> bool:
    try:
        tomllib.loads(text)
    except (tomllib.TOMLDecodeError, RecursionError):
        return False
    return True


#: lines looked back for where a value the parser stopped in began (a list of names is a few lines at most)
OPENED_BACK = 50


def _opened_at(rows: list[str], n: int) -> int:
    """The line the value the parser stopped in at line ``n`` began on: ``players = ["Jörg", "Ute"`` without its
    ``]`` runs on over the lines below, and the parser stops at the next section's heading two lines on (or at the
    end of the file); left out there, the heading and the settings under it went, and the list's own line was
    named nowhere. It is the line after the last one up to which the file reads whole: ``n`` for a mistake that
    lies on its own line."""
    if 1 <= n <= len(rows) and not _STARTS_ANEW.match(rows[n - 1]):  # the mistake is inside the value, on its
        return n  # own line ("Mia," unquoted, a comma missing): that line alone goes, the list's others stay
    for k in range(min(n, len(rows) + 1) - 1, max(n - 1 - OPENED_BACK, 0) - 1, -1):
        if _parses("\n".join(rows[:k])):
            return k + 1
    return n


#: a line a value left open runs into: a table's heading, another key, a comment or nothing (the parser stops
#: there, lines below the slip)
_STARTS_ANEW = re.compile(r"""^\s*(\[|[A-Za-z0-9_"'.-]+\s*=|#|$)""")


def _toml_without_bad_lines(text: str) -> tuple[dict[str, Any], list[int]]:
    """``text`` as TOML, each line the parser stops at (or the value it stopped in began at) blanked, its number
    kept: the next error's line is the file's; up to ``SALVAGE_MOST``. Blanked, not made a comment: TOML allows
    no NUL in a comment either, and a power cut can leave the end of the file as zeros (an SD card's blocks
    never written), which then cost every setting. Returns the data and the lines left out. Raises
    TOMLDecodeError where a mistake names no line, or more lines than a slip makes are wrong."""
    rows = _rows(text)
    left_out: list[int] = []
    while True:
        try:
            return tomllib.loads("\n".join(rows)), left_out
        except tomllib.TOMLDecodeError as exc:
            found = re.search(r"at line (\d+)", str(exc))
            n = int(found.group(1)) if found else 0
            if not found and "end of document" in str(exc):  # a string or list left open: the file cut short
                n = len(rows) + 1
            n = _opened_at(rows, n) if n else 0
            if not 1 <= n <= len(rows) or n in left_out or len(left_out) >= SALVAGE_MOST:
                raise
            rows[n - 1] = ""
            left_out.append(n)


def language_in(path: Path) -> str | None:
    """The language a config file names, read line by line (the file as a whole did not load), if it is one; in
    double or single quotes, as TOML writes a string either way (an English family's file with 'en' and too many
    mistakes was set aside and the standard settings said so in German)."""
    try:
        found = re.search(r"""^\s*language\s*=\s*(["'])(\w+)\1""", text_as_saved(path.read_bytes()), re.MULTILINE)
    except OSError:
        return None
    return found.group(2) if found and found.group(2) in LANGUAGES else None
