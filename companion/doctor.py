"""``companion doctor``: what the companion finds on this machine, and for what is missing, how to install it."""

from __future__ import annotations

import importlib
import os
import platform
import shutil
import socket
import subprocess
import sys
from collections.abc import Callable
from importlib import metadata
from pathlib import Path

#: where ``scripts/install-service.sh`` installs the boot service, and the script (in the checkout the companion runs
#: from; a companion installed without its scripts has none)
SERVICE_UNIT = Path("/etc/systemd/system/companion.service")
INSTALL_SERVICE = Path(__file__).resolve().parents[1] / "scripts" / "install-service.sh"
#: what setup.sh and the doctor say where the installed boot service is not what install-service.sh writes now
SERVICE_OUT_OF_DATE = ("the service that starts the companion at boot is out of date (an update changed it): "
                       "run ./scripts/install-service.sh")


def _section(title: str, lines: list[str]) -> str:
    return f"{title}\n" + "".join(f"  {line}\n" for line in lines)


def _safe(fn: Callable[[], list[str]], what: str) -> list[str]:
    try:
        return fn()
    except Exception as exc:  # the doctor reports trouble; it must not be the trouble
        return [f"could not check {what}: {exc}"]


def _python() -> list[str]:
    from companion import version

    # the machine's name at the top: a club with two companions tells which one this report is of
    lines = [f"companion {version()}", f"this machine: {socket.gethostname() or 'no name'}",
             f"Python {platform.python_version()} on {platform.machine()} ({sys.executable})"]
    for mod, pkg in (("pygame", "pygame-ce"), ("cv2", "opencv-python-headless"), ("numpy", "numpy"),
                     ("gpiozero", "gpiozero")):
        try:
            importlib.import_module(mod)
            lines.append(f"ok      {pkg} {metadata.version(pkg)}")
        except ImportError:
            lines.append(f"MISSING {pkg}: pip install {pkg}")
        except metadata.PackageNotFoundError:  # importable from the OS (a Pi venv with system site packages)
            lines.append(f"ok      {pkg} (from the system)")
    return lines


def _display(rotate: int | str = "auto") -> list[str]:
    """The screen: kiosk or window, a desktop holding the screen, and each panel, with the turn a portrait one needs
    (``rotate``: the config's ``display.rotate``; "auto" turns a portrait one in the kiosk)."""
    from companion import display
    from hardware.buttons import on_raspberry_pi
    from hardware.panels import connected_panels

    lines = []
    for panel in connected_panels():
        lines.append(f"screen {panel.connector}: {panel.width}x{panel.height}"
                     + (" (portrait)" if panel.portrait else ""))
        turn = rotate
        if rotate == "auto":
            turn = 90 if panel.portrait else 0  # as the kiosk, on the console, turns it (``auto_rotation``)
            if turn:
                lines.append(f"{panel.connector} stands upright: the kiosk turns the picture by {turn} degrees "
                             "(rotate = \"auto\"); upside down, set [display] rotate = 270 in the config")
        if panel.portrait and turn in (0, 180):
            lines.append(f"PROBLEM {panel.connector} stands upright: the picture fills a third of it; set [display] "
                         "rotate = 90 (or 270, the other way round) in the config for the whole panel")
        elif (scale := display.picture_scale((panel.width, panel.height), turn)) < display.SMALL_SCALE:
            lines.append(f"PROBLEM {panel.connector} is small: it shows the 800x480 picture at {round(scale * 100)} %, "
                         "text and buttons too small for the table; use a 7\" panel (800x480 or 1024x600) or an "
                         "HDMI screen")
    if on_raspberry_pi():
        lines.append("Raspberry Pi: fullscreen kiosk through KMSDRM (or the desktop's window system)")
    session = os.environ.get("WAYLAND_DISPLAY") or os.environ.get("DISPLAY")
    lines.append(f"desktop session: {session}" if session else "no desktop session: SDL uses KMSDRM/the console")
    if not session and on_raspberry_pi() and (desktop := display.desktop_running()):
        lines.append(f"PROBLEM the desktop ({desktop}) is running and holds the screen: the kiosk cannot draw; "
                     f"{display.BOOT_TO_CONSOLE}")
    if (card := display.kmsdrm_card()) is not None:
        lines.append(f"screen {card[1]} is on /dev/dri/card{card[0]}: the kiosk opens that card "
                     f"({display.KMSDRM_INDEX}={card[0]}; set the variable yourself to choose another)")
    elif index := os.environ.get(display.KMSDRM_INDEX):
        lines.append(f"{display.KMSDRM_INDEX}={index}: the kiosk opens /dev/dri/card{index}")
    driver = os.environ.get("SDL_VIDEODRIVER")
    if driver in ("dummy", "offscreen"):  # set for a test and left: the companion runs, and nobody sees it
        lines.append(f"SDL_VIDEODRIVER={driver}: this driver draws nowhere, nothing will be shown on a screen. "
                     "Unset the variable to see the companion.")
    elif driver:
        lines.append(f"SDL_VIDEODRIVER={driver}")
    return lines


def _models() -> list[str]:
    """Which learned models load: a missing or damaged one silently means the slower or weaker classical path."""
    from vision import face_outline, inference, net

    engine = inference.engine_name()
    if engine == "onnxruntime":
        lines = [f"ok      engine: onnxruntime {metadata.version('onnxruntime')}"]
    elif "onnxruntime" in inference.available_engines():
        lines = [f"ok      engine: OpenCV's dnn ({inference.ENGINE_ENV}=opencv; onnxruntime would be faster)"]
    else:
        lines = ["note    engine: OpenCV's dnn (onnxruntime is not installed; it runs the models 1.5-2x faster:"
                 " pip install onnxruntime)"]
    checks = (
        ("pip dice detector", net.MODEL_PATH, lambda: net.load() is not None,
         "pip dice are found and read by the classical reader alone"),
        ("taught dice detector", net.ANY_DICE_MODEL_PATH,
         lambda: net.load_detector(net.ANY_DICE_MODEL_PATH) is not None,
         "taught dice are found by the hand-made finder alone (it misses dice on busy or dark tables)"),
        ("pip face reader", net.FACE_MODEL_PATH, lambda: (m := net.load()) is not None and m.faces is not None,
         "pips are counted on the detector's own view"),
        ("taught dice top-face finder", face_outline.TOP_MODEL_PATH, lambda: face_outline.top_net() is not None,
         "taught dice use the hand-made face finder (less sure on whole trays)"),
        ("taught dice side-view finder", face_outline.SIDE_MODEL_PATH, lambda: face_outline.side_net() is not None,
         "taught dice seen from beside the tray are asked about more often"),
    )
    for label, path, loads, fallback in checks:
        if loads():
            lines.append(f"ok      {label}: {path.name}")
        elif path.is_file():
            lines.append(f"PROBLEM {label}: {path} does not load; {fallback}. Reinstall the companion.")
        else:
            lines.append(f"MISSING {label}: {path}; {fallback}. Reinstall the companion.")
    return lines


def _this_machines(cfg) -> list[str]:
    """The settings that belong to the machine, not the table: after a restore onto another one (``companion
    restore``), its camera, screen's turn, sound output and buttons' pins may not fit; each is said, for the
    sections below (the cameras, screens, sound outputs and pins found) to be held against it."""
    from companion.config import DEFAULT_PINS

    pins = cfg.buttons.pins
    changed = {name: pin for name, pin in pins.items() if DEFAULT_PINS.get(name) != pin}
    output = repr(cfg.sound.output) if cfg.sound.output else "the standard one"
    return [f"camera = {cfg.camera!r}; [display] rotate = {cfg.display.rotate!r}; [sound] output = {output}; "
            "[buttons.pins] "
            + (", ".join(f"{name} = {pin}" for name, pin in changed.items()) if changed else "the standard ones")
            + " (this machine's: after a restore from another one, check each against what is found below)"]


def _game_settings(games: dict[str, dict]) -> list[str]:
    """Each ``[games."<name>"]`` section as its game takes it: the config refuses a value no level takes
    (``letters = 5``), and the doctor says at which levels a key counts where not at all (shapes: level 3)."""
    from companion.config import game_levels, game_refusals, levels_taking  # as the config tries them at load

    lines = []
    for game, section in games.items():
        if not section:
            continue
        levels = game_levels(game)  # Echt Spitze's keys depend on the level: shapes are level 3's
        refused = game_refusals(game, section)
        if len(refused) == len(levels):
            lines.append(f'PROBLEM [games."{game}"]: {next(iter(refused.values()))}')
            continue
        # where a key counts at some levels only (shapes: level 3's; star_value: level 2's, the rulebook printing
        # level 1's and 3's), a table set on another level learns it is left out there
        some = []
        for key in section:
            at = [n for n in levels_taking(game, key) if n not in refused]
            if len(at) < len(levels):
                some.append(f"{key} for level {', '.join(str(n) for n in at)}" if at else f"{key} for no level")
        lines.append(f'ok      [games."{game}"]' + (f" {'; '.join(some)} (left out at the other levels)"
                                                    if some else ""))
    return lines


def _dice_and_teaching(config_path: str | None = None) -> list[str]:
    """Each dice set as the games load it (a family's copy that does not load made the camera read nothing that
    evening), each taught profile and the Fritzo cube set read as they are, and the files kept aside. Nothing is
    moved: the games keep a damaged file aside themselves, and a doctor that did would change what it looks at."""
    import json
    from pathlib import Path

    from companion import dicesets, paths, profiles
    from companion.errors import CompanionError
    from companion.games.fritzo import cubeset
    from companion.i18n import disk_words

    lines = []
    copies = {p.stem: p for p in sorted(dicesets.user_dir().glob("*.toml"))}
    for name in sorted(set(dicesets.builtin_names()) | set(copies)):
        try:
            dicesets.load(name)
        except CompanionError as exc:
            lines.append(f"PROBLEM dice set {name}: {exc}")
            continue
        lines.append(f"ok      dice set {name}: " + (f"your copy {copies[name]}" if name in copies else "built in"))
    for path in sorted(profiles.profile_dir().glob("*.npz")):
        try:
            profile, _ = profiles.from_bytes(path.read_bytes(), path.stem)
        except OSError as exc:
            lines.append(f"PROBLEM taught dice {path.stem}: {path} cannot be read ({disk_words(exc, 'en')}); the games "
                         "roll virtual dice for this set until it can")
        except ValueError as exc:
            lines.append(f"PROBLEM taught dice {path.stem}: {path} cannot be used ({exc}); the companion keeps it "
                         f"aside at its next use: teach the dice again with: companion teach {path.stem}")
        else:
            n = len(profile)
            lines.append(f"ok      taught dice {path.stem}: {n} example{'' if n == 1 else 's'} ({path})")
    cubes = cubeset.default_path()
    if cubes.exists():
        try:
            n = len(cubeset.CubeSet.from_json(json.loads(cubes.read_text(encoding="utf-8"))).cubes)
        except OSError as exc:
            lines.append(f"PROBLEM Fritzo cubes: {cubes} cannot be read ({disk_words(exc, 'en')})")
        except (ValueError, CompanionError) as exc:  # JSON, UTF-8, a set with cubes alike
            lines.append(f"PROBLEM Fritzo cubes: {cubes} cannot be used ({exc}); Fritzo keeps it aside at its next "
                         "start: teach the cubes again")
        else:
            lines.append(f"ok      Fritzo cubes: {n} cubes taught ({cubes})")
    config_dir = Path(config_path).parent if config_path else paths.config_file().parent
    for folder in (config_dir, paths.data_dir(), profiles.profile_dir(), dicesets.user_dir()):
        for kept in sorted(folder.glob("*.corrupt-*")) if folder.is_dir() else []:
            lines.append(f"note    kept aside: {kept} (a damaged file; look into it or delete it)")
    return lines


#: free room under which a folder's card is said to be nearly full (a game's journal is a few KB; a taught profile
#: with its photos a few MB)
LOW_ROOM = 100 * 1024 * 1024
#: the files and folders looked at inside each folder at most (a history of 1000 games has ~3000)
SCAN_AT_MOST = 5000


def _held() -> list[str]:
    """Which companion holds the table's files now (``lock``): a restore or a teach refused "already running", and
    the organiser looks here for what runs."""
    from companion import lock

    held = lock.holder()
    if held is None:
        return ["no companion is running on these files now"]
    pid, command = held
    who = f"process {pid}" if pid is not None else "a process that did not say which"
    return [f"a companion is running on these files now: {who}" + (f" ({command})" if command else "")]


def _storage(config_path: str | None = None) -> list[str]:
    """Whether the companion can write where it keeps things: each folder writable and owned by the user it runs as
    (a ``sudo companion run`` left root's folders behind, and every save was refused with no word of which folder
    or why), the card not mounted read-only, and room on it. A folder not made yet is judged by the one it will be
    made in."""
    from pathlib import Path

    from companion import paths
    from companion.paths import folder_fix

    uid = os.getuid() if hasattr(os, "getuid") else None
    config_dir = Path(config_path).parent if config_path else paths.config_file().parent
    lines = []
    places = (("settings", config_dir), ("taught dice", paths.data_dir()), ("saved games", paths.state_dir()))
    for what, folder in places:
        there = folder
        while not there.exists() and there != there.parent:
            there = there.parent
        made = "" if there == folder else f" (not made yet; it will be made in {there})"
        try:
            vfs = os.statvfs(there)
        except (OSError, AttributeError) as exc:
            lines.append(f"PROBLEM {what}: {folder} cannot be looked at: {exc}")
            continue
        if vfs.f_flag & getattr(os, "ST_RDONLY", 1):
            lines.append(f"PROBLEM {what}: {folder} is on a read-only file system: nothing is saved (remount it "
                         "read-write, or check the SD card: a card with errors is mounted read-only)")
            continue
        others = []  # in the companion's own folder, anything not the user's (a folder it may make in may be root's)
        if uid is not None and there == folder:
            for n, path in enumerate([folder, *folder.rglob("*")]):
                if n >= SCAN_AT_MOST:
                    break
                try:
                    if path.lstat().st_uid != uid:
                        others.append(path)
                except OSError:
                    continue
        if others or not os.access(there, os.W_OK):
            first = others[0] if others else there
            owner = _owner(first)
            lines.append(f"PROBLEM {what}: {first} is {f'owned by {owner}' if owner else 'not writable'}"
                         f"{f' ({len(others)} such)' if len(others) > 1 else ''}: the companion cannot save there; "
                         f"fix: {folder_fix(there)}")
            continue
        free = vfs.f_bavail * vfs.f_frsize
        room = f"{free / 1024 ** 3:.1f} GB free" if free >= 1024 ** 3 else f"{free / 1024 ** 2:.0f} MB free"
        if free < LOW_ROOM:
            lines.append(f"PROBLEM {what}: {folder}: the card is nearly full ({room}): games and names may not be "
                         "saved; make room (old photos, logs: journalctl --vacuum-size=50M)")
        else:
            lines.append(f"{what}: {folder} writable, {room}{made}")
    return lines


#: what the companion keeps in each of its folders, by where it belongs: found directly in an XDG root, a copy (``cp -a
#: .../table-companion ~/.local/share/`` where ``share`` was not there yet) put the folder's contents a level too high
MISPLACED = {"data": ("profiles", "dicesets"), "config": ("config.toml",), "state": ("current",)}


def _misplaced(config_path: str | None = None) -> list[str]:
    """The companion's files a copy left where it does not look (``MISPLACED``; a ``table-companion`` folder inside its
    own, a level too deep), and what a restore cut short left (``companion.backup``): each with where it belongs."""
    from companion import backup, paths

    folders = backup.places()
    if config_path:
        folders["config"] = Path(config_path).parent
    lines = []
    for kind, folder in folders.items():
        for name in MISPLACED[kind]:
            for there in (folder.parent / name, folder / paths.APP / name):
                if there.exists():
                    found, to = paths.short_path(there), paths.short_path(folder / name)
                    lines.append(f"PROBLEM found {found}: move it to {to} (a copy put it a level too "
                                 f"{'high' if there.parent == folder.parent else 'deep'}; the companion does not look "
                                 "there)" + (f": mkdir -p {paths.short_path(folder)} && mv {found} {to}"
                                             if not (folder / name).exists() else
                                             f"; {to} is there too: move what you want to keep into it"))
        if folder.parent.is_dir():
            here = paths.short_path(folder)
            for left in sorted(folder.parent.glob(backup.RESTORING + "*")):
                lines.append(f"note    {paths.short_path(left)}: a restore cut short left it; {here} is as it was "
                             "before (delete it, and run companion restore again)")
            for kept in sorted(folder.parent.glob(backup.BEFORE + "*")):
                aside = paths.short_path(kept)
                if folder.exists():
                    lines.append(f"note    kept from before a restore: {aside} (delete it once the table is right)")
                else:
                    lines.append(f"PROBLEM {here} is missing and {aside} is there (a restore cut short): move it "
                                 f"back: mv {aside} {here}")
    return lines


def _owner(path) -> str | None:
    """The name of who owns ``path``, None where it cannot be told."""
    try:
        import pwd

        return pwd.getpwuid(path.lstat().st_uid).pw_name
    except (ImportError, KeyError, OSError):
        return None


def report(config_path: str | None = None) -> str:
    from companion import config as config_mod

    out = [_section("Python and libraries", _python())]
    pins, output, rotate = None, "", "auto"
    try:
        cfg = config_mod.load(config_path)
        out.append(_section("Config", [f"{cfg.path or 'defaults (no config file)'}; language {cfg.language}; "
                                       f"players {', '.join(cfg.players)}", *_this_machines(cfg),
                                       *_game_settings(cfg.games)]))
        pins, output, rotate = cfg.buttons.pins, cfg.sound.output, cfg.display.rotate
    except Exception as exc:
        out.append(_section("Config", [f"PROBLEM {exc}"]))
    from hardware import buttons, sources

    out.append(_section("Dice sets and taught dice", _safe(lambda: _dice_and_teaching(config_path),
                                                           "the dice sets and taught dice")))
    out.append(_section("Storage", _safe(lambda: _storage(config_path) + _misplaced(config_path) + _held(),
                                         "where the companion saves")))
    out.append(_section("Vision models", _safe(_models, "the vision models")))
    out.append(_section("Camera", _safe(sources.diagnose, "the cameras")))
    out.append(_section("Buttons", _safe(lambda: buttons.diagnose(pins), "the buttons")))
    out.append(_section("Display", _safe(lambda: _display(rotate), "the display")))
    from companion import audio, speech

    # the doctor speaks English
    out.append(_section("Sound", _safe(lambda: audio.diagnose("en", output), "the sound device")))
    out.append(_section("Speech", _safe(lambda: speech.diagnose("en"), "speech")))
    out.append(_section("Start at boot", _safe(_boot_service, "the service that starts it at boot")))
    return "\n".join(out)


def _boot_service(unit: Path | None = None, script: Path | None = None) -> list[str]:
    """Whether the boot service installed is the one ``install-service.sh`` writes now: an update by the README (git
    pull, setup.sh) kept the old one, silently, though the unit had changed (the console it owns, its keyboard)."""
    unit, script = unit or SERVICE_UNIT, script or INSTALL_SERVICE
    if not shutil.which("systemctl"):
        return ["no systemd here: start the companion by hand with 'companion run'"]
    if not unit.is_file():
        return ["not installed (./scripts/install-service.sh starts the companion at boot, fullscreen)"]
    if not script.is_file():
        return [f"ok      {unit}"]
    wanted = subprocess.run(["bash", str(script), "--print"], capture_output=True, text=True, timeout=30,
                            check=True).stdout
    if unit.read_text(encoding="utf-8") != wanted:
        return [f"PROBLEM {unit}: {SERVICE_OUT_OF_DATE}"]
    return [f"ok      {unit} (as ./scripts/install-service.sh writes it)"]
