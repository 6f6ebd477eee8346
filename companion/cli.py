"""The ``companion`` command: run at the table, read photos, play transcripts, teach dice, show config, doctor.

Player-facing errors (``CompanionError``) are printed as one clear line and exit with status 2; nothing a player
does wrong prints a traceback.
"""

from __future__ import annotations

import argparse
import errno
import json
import logging
import os
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

from companion import version
from companion.errors import CompanionError, ConfigError, ImageError
from companion.i18n import disk_words
from companion.lock import BUSY_EXIT, Busy

if TYPE_CHECKING:
    import numpy as np

    from companion.config import Config
    from vision.types import TrayReading

log = logging.getLogger("companion")


def _examples_help() -> str:
    """``teach --help``'s foot: what ``--examples DIR`` holds, and each set's face names (found by an error only)."""
    from companion import dicesets

    lines = ["--examples DIR holds the photos and a labels.csv with the columns",
             "  image,face,x_min,y_min,x_max,y_max",
             "one line per die: the photo's file name, the face the die shows, and the die's box corners as shares",
             "(0 to 1) of the photo's width and height. The faces of each set:"]
    for name in ("echt-spitze", "noch-x-mal", "haste-worte", "fritzo", "d6"):
        try:
            dice_set = dicesets.load(name)
        except CompanionError:  # the owner's copy does not load: teach itself says why
            continue
        more = " (or a new symbol's name: other editions print other symbols)" if dice_set.open else \
            "".join(f" (a face with its mark: 3{m})" for m in dice_set.marks)
        lines.append(f"  {name}: {' '.join(dice_set.face_names())}{more}")
    return "\n".join(lines)


def _run_help() -> str:
    """``run --help``'s foot: the keys (a laptop's newcomer found them in the README alone) and --source's forms."""
    import textwrap

    from companion.i18n import t

    sources = ("Sources: pi (pi:1 the second Pi camera), cam:0 (a USB camera), folder:PATH (photos shown in turn), "
               "video:PATH, synthetic (synthetic:7: throws that repeat), auto (the default, unless the config's "
               "camera says otherwise).")
    return "\n\n".join(textwrap.fill(s, 79) for s in (sources, t("core.keys_line", "en")))


def _parser(argv: list[str] | None = None) -> argparse.ArgumentParser:
    """The command line; ``argv`` only decides whether ``teach --help`` is asked for, whose foot loads every dice
    set (not at every start: ``companion run`` boots the table)."""
    args = sys.argv[1:] if argv is None else argv
    teach_help = "teach" in args and ("-h" in args or "--help" in args)
    p = argparse.ArgumentParser(prog="companion", description="The table companion: reads the dice, keeps the "
                                "table state and announces what everybody must hear.")
    # with the commit, asked of git only where it is asked for (not at every start)
    p.add_argument("--version", action="version", version=f"companion {version()}" if "--version" in args else None)
    p.add_argument("--config", metavar="PATH", help="config file (default: the XDG config folder)")
    # --config after the command too (``companion run --config my.toml``, as a volunteer types it; argparse refused it
    # as "unrecognized arguments"): not given there, it leaves the one before the command as it is
    config = argparse.ArgumentParser(add_help=False)
    config.add_argument("--config", metavar="PATH", default=argparse.SUPPRESS,
                        help="config file (default: the XDG config folder)")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")

    run = sub.add_parser("run", parents=[config], help="start the companion at the table (the default command)",
                         description="Start the companion. Without a camera it uses the synthetic tray.",
                         epilog=_run_help(), formatter_class=argparse.RawDescriptionHelpFormatter)
    run.add_argument("--source", metavar="SPEC", help="pi | pi:N | cam:N | folder:PATH | video:PATH | synthetic | "
                     "synthetic:SEED | auto (default: the config's camera, auto: the first camera found, else the "
                     "synthetic tray)")
    run.add_argument("--window", action="store_true", help="a window even on a Pi")
    run.add_argument("--fullscreen", action="store_true", help="fullscreen kiosk even on a laptop")
    run.add_argument("--lang", choices=["de", "en"], help="override the config's language")
    run.add_argument("--screenshot", metavar="PNG", help=argparse.SUPPRESS)
    run.add_argument("--frames", type=int, help=argparse.SUPPRESS)

    read = sub.add_parser("read", parents=[config], help="read the dice in photos",
                          description="Read the dice in photos and print the faces; --json prints one JSON line per "
                          "photo.")
    read.add_argument("images", nargs="+", metavar="IMAGE")
    read.add_argument("--json", action="store_true", help="one JSON line per photo")
    read.add_argument("--annotate", metavar="DIR", help="write each photo with boxes and faces drawn into DIR, as "
                      "NAME-annotated.png (numbered where that is taken: no file is written over)")
    read.add_argument("--set", dest="dice_set", metavar="SET",
                      help="read the taught dice of this set, e.g. fritzo (without --set: pip dice, which need no "
                           "teaching; an unknown name lists the sets)")

    play = sub.add_parser("play", parents=[config], help="play a table transcript headless",
                          description="Feed a table transcript (JSON lines of table actions) to a game engine and "
                          "print every announcement and the final state.")
    play.add_argument("game", help="haste-worte | echt-spitze | noch-x-mal | fritzo | free-play")
    play.add_argument("--script", required=True, metavar="FILE", help="the transcript ('-' for standard input)")
    play.add_argument("--json", action="store_true", help="JSON lines instead of text")
    play.add_argument("--lang", choices=["de", "en"], help="language of the announcements")

    teach = sub.add_parser("teach", parents=[config], help="teach the companion a dice set",
                           description="Show each face of a dice set to the camera once, or teach from photos.",
                           epilog=_examples_help() if teach_help else None,
                           formatter_class=argparse.RawDescriptionHelpFormatter)
    teach.add_argument("dice_set", metavar="SET", help="echt-spitze | noch-x-mal | haste-worte | fritzo | d6, or "
                       "fritzo-cubes for the 27 Fritzo cubes themselves")
    teach.add_argument("--examples", metavar="DIR", help="photos with labels.csv: teach without the screen")
    teach.add_argument("--source", metavar="SPEC", help="camera for interactive teaching")

    sub.add_parser("config", parents=[config], help="print the effective config",
                   description="Print the effective config as TOML.")
    sub.add_parser("doctor", parents=[config], help="check the camera, buttons, display, sound and speech found, "
                   "and the config, dice sets, taught profiles and files kept aside",
                   description="Check the devices, the config, the dice sets, the taught profiles and the damaged "
                   "files kept aside, and say what is missing and how to mend it.")
    backup = sub.add_parser("backup", help="put the config, the taught dice and the saved games into one file",
                            description="Write the config, the taught dice (and dice sets' copies) and the saved "
                            "games with their history into one .tar.gz file, the files' times kept. Stop the "
                            "companion first (sudo systemctl stop companion).")
    backup.add_argument("file", metavar="FILE", help="the file to write, e.g. /media/usb/companion.tar.gz (a folder: "
                        "a file named after this machine and the day in it)")
    restore = sub.add_parser("restore", help="put back what companion backup wrote, onto this or another machine",
                             description="Put the folders in a file companion backup wrote in place of this "
                             "machine's. The game in progress here is put away into the history first, and each "
                             "folder replaced is kept beside it. Stop the companion first (sudo systemctl stop "
                             "companion).")
    restore.add_argument("file", metavar="FILE", help="the .tar.gz file companion backup wrote")
    return p


def main(argv: list[str] | None = None) -> int:
    args = _parser(argv).parse_args(argv)
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    logging.basicConfig(level=os.environ.get("COMPANION_LOG", "WARNING"),
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    command = args.command or "run"
    try:
        code = _command(command, args)
        sys.stdout.flush()  # here, not at exit: a reader that has gone (``| head``) is noticed inside the try
        return code
    except ConfigError as exc:  # in the table's language, as teaching says its own (the file's, or --lang)
        print(f"companion: {_config_said(exc, args)}", file=sys.stderr)
        return 2
    except Busy as exc:  # another companion holds the table's files: "try again later", as the boot service does
        print(f"companion: {exc}", file=sys.stderr)
        return BUSY_EXIT
    except CompanionError as exc:
        print(f"companion: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:  # Ctrl-C: said, so that a silent stop is not taken for a hang or a crash
        print(f"companion: {command} stopped (Ctrl-C)", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # the program reading the output stopped early (``companion read --json ... | head -1``): its choice, not
        # an error. What is still buffered goes nowhere, so that exiting does not raise the same error again. (Not
        # for ``run``: the companion at the table writes nothing to read, and a broken pipe there is a bug to see.)
        if command == "run":
            raise
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    except OSError as exc:
        if command == "run":
            raise  # the table's own handler shows it and logs where it came from
        # a path the system refuses to look at (a name too long, a folder on the way that may not be entered): the
        # file and the reason, not a traceback
        where = f"{exc.filename}: " if exc.filename else ""
        print(f"companion: {where}{disk_words(exc, 'en')}", file=sys.stderr)
        return 2


def _config_said(exc: ConfigError, args: argparse.Namespace) -> str:
    """A config error in the configured language: ``--lang``, else the language the file names (read line by line:
    the file as a whole did not load), else the standard one."""
    from companion import config

    path = Path(args.config) if getattr(args, "config", None) else config.paths.config_file()
    try:
        lang = getattr(args, "lang", None) or config.language_in(path) or config.Config().language
    except (OSError, ValueError):  # a folder in its place, a name the system refuses: the standard language
        lang = config.Config().language
    return config.config_words(exc, lang)


def _command(command: str, args: argparse.Namespace) -> int:
    if command == "read":
        return cmd_read(args)
    if command == "play":
        return cmd_play(args)
    if command == "teach":
        return cmd_teach(args)
    if command == "config":
        from companion import config
        sys.stdout.write(config.load(args.config).to_toml())
        return 0
    if command == "doctor":
        from companion.doctor import report
        found = report(args.config)
        sys.stdout.write(found)
        # a script or a club's check saw 0 beside "PROBLEM the desktop ... holds the screen": 1 says the table needs
        # something done before it works as set up
        return 1 if any(line.lstrip().startswith("PROBLEM") for line in found.splitlines()) else 0
    if command in ("backup", "restore"):
        return cmd_backup(args, command)
    return cmd_run(args)


def cmd_backup(args: argparse.Namespace, command: str) -> int:
    """``companion backup FILE`` and ``companion restore FILE`` (``companion.backup``), said in the config's language
    (a restore onto a fresh card: the standard one)."""
    from companion import backup, config, lock, paths
    from companion.i18n import t

    lang = config.language_in(paths.config_file()) or config.Config().language
    if not args.file:
        raise CompanionError(f"{command}: an empty name was given (give the backup's file, e.g. "
                             "/media/usb/companion.tar.gz)")
    source = Path(args.file)
    if command == "backup":
        # a backup only reads: it goes on beside a running companion, and says that the game in progress is copied
        # as it stood; where none runs, it holds the lock, so that none starts writing while it copies
        try:
            held, busy = lock.take("backup", lang), None
        except lock.Busy as exc:
            held, busy = lock.StateLock(None), exc
        with held:
            written, folders = backup.backup(source, lang)
        print(t("core.backup_done", lang, file=written,
                folders=", ".join(paths.short_path(backup.places()[kind]) for kind in folders)))
        if busy is not None and "state" in folders:
            process = t("core.busy_process", lang, pid=busy.pid) if busy.pid is not None else ""
            print(t("core.backup_as_it_stood", lang, process=process))
        return 0
    if not source.is_file():
        raise CompanionError(f"{args.file}: {disk_words(FileNotFoundError(errno.ENOENT, ''), lang)}"
                             if not source.exists() else t("core.restore_not_ours", lang))
    print(backup.restored_words(backup.restore(source, lang), source, lang))
    return 0


def cmd_run(args: argparse.Namespace) -> int:
    from companion import config
    from companion.runtime import run_app

    cfg, problem = config.load_for_the_table(args.config, getattr(args, "lang", None))
    if getattr(args, "lang", None):  # for this run: the file keeps its own (config.Config.for_this_run)
        cfg.run_with("language", args.lang)
    if getattr(args, "window", False):
        cfg.run_with("display.fullscreen", False)
    elif getattr(args, "fullscreen", False):
        cfg.run_with("display.fullscreen", True)
    # a name the screen's font cannot draw ("🎲Anna", "王芳") is a box all evening: kept, and said where to change it
    boxes = _undrawable_names(cfg.players, cfg.language)
    problem = " ".join(w for w in (problem, boxes) if w) or None
    return run_app(cfg, source_spec=getattr(args, "source", None), screenshot=getattr(args, "screenshot", None),
                   max_frames=getattr(args, "frames", None), notice=problem)


def _undrawable_names(names: list[str], lang: str) -> str | None:
    """The start notice's words for the names with a character the screen cannot draw: one said with its place and
    code, several all named (the first alone was said, and the others showed as boxes after it was mended)."""
    from companion.i18n import join_names, t
    from companion.views.players_view import undrawable, undrawable_words

    bad = [n for n in names if undrawable(n) is not None]
    if len(bad) == 1:
        return undrawable_words(bad[0], lang, "core.players_undrawable_start")
    quoted = [t("core.players_quoted", lang, name=n) for n in bad]
    return t("core.players_undrawable_start_many", lang, names=join_names(quoted, lang)) if bad else None


def load_image(path: str):
    """Read a photo for the reader; anything that is not a readable image is an ImageError naming the file."""
    from vision.frame import read_photo

    if not path:  # Path("") is the current folder: it was said to be ": a folder, not a photo"
        raise ImageError("an empty name was given, not a photo (give the photo's file name, e.g. tray.jpg)")
    p = Path(path)
    try:
        if p.is_dir():
            raise ImageError(f"{path}: a folder, not a photo (give the photos in it, e.g. {p / '*.jpg'})")
        if not p.is_file():
            raise ImageError(f"{path}: no such file")
        image = read_photo(p)
    except OSError as exc:
        raise ImageError(f"{path}: cannot be read ({disk_words(exc, 'en')})") from None
    if image is None:
        raise ImageError(f"{path}: not an image the reader can open (use a JPEG or PNG photo)")
    return image


def _annotation_folder(folder: str) -> Path:
    """The folder the annotated photos go to, made where missing; where it cannot be, the reason in words."""
    path = Path(folder)
    if path.exists() and not path.is_dir():
        raise CompanionError(f"--annotate {folder}: a file, not a folder (give a folder for the annotated photos)")
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise CompanionError(f"--annotate {folder}: the folder cannot be made ({disk_words(exc, 'en')})") from None
    return path


def _write_annotated(folder: Path, stem: str, picture: np.ndarray) -> Path:
    """Write a photo's annotated copy as ``NAME-annotated.png`` (``-2``, ``-3``... where that name is taken) and
    return where. Never over a file that is there: ``--annotate .`` wrote over the photo itself (``tray.png``), and a
    second run over the first run's pictures. The name is taken by creating the file, so no other writer slips in
    between; the PNG is encoded here and written by us, so a refusing folder is an ``OSError`` with its reason
    (OpenCV's writer printed a log line of its own beside ours)."""
    import cv2

    encoded, data = cv2.imencode(".png", picture)
    if not encoded:
        raise OSError(errno.EIO, "the picture could not be encoded as PNG")
    for k in range(1, 10_000):  # bounded: a folder holding thousands of copies of one photo says so
        out = folder / (f"{stem}-annotated.png" if k == 1 else f"{stem}-annotated-{k}.png")
        try:
            with open(out, "xb") as f:
                try:
                    f.write(data.tobytes())
                except OSError:
                    out.unlink(missing_ok=True)  # a disk full halfway: no broken picture left behind
                    raise
        except FileExistsError:
            continue
        return out
    raise OSError(errno.EEXIST, f"{stem}-annotated.png and its numbered copies up to -9999 are all there",
                  str(folder / f"{stem}-annotated.png"))


def cmd_read(args: argparse.Namespace) -> int:
    import cv2

    if args.config is not None:  # read uses no setting, but a config named and missing was passed over in silence
        from companion import config

        config.load(args.config)
    if args.dice_set is not None:  # d6 too: a face taught for pip dice (an emblem 6) replaces the pip reader's answer
        from companion.teach import load_for_reading, read_taught

        dice_set, profile = load_for_reading(args.dice_set)  # ProfileError: "teach it first"

        def reader(frame):
            return read_taught(frame, args.dice_set, profile, dice_set)
    else:
        from vision.pips import read_dice as reader
    if args.annotate == "":  # passed over as no --annotate: the pictures asked for were not written, unsaid
        raise CompanionError("--annotate: an empty name was given (give the folder for the annotated photos, e.g. "
                             "--annotate pictures)")
    annotate_dir = _annotation_folder(args.annotate) if args.annotate else None
    failures = 0
    for path in args.images:
        try:
            image = load_image(path)
        except ImageError as exc:
            failures += 1
            if args.json:
                print(json.dumps({"image": path, "error": str(exc)}, ensure_ascii=False))
            else:
                print(f"companion: {exc}", file=sys.stderr)
            continue
        start = time.perf_counter()
        reading = reader(image)
        ms = (time.perf_counter() - start) * 1000
        out, trouble = None, ""
        if annotate_dir:
            from vision.annotate import annotate
            try:
                out = _write_annotated(annotate_dir, Path(path).stem, annotate(image, reading))
            except OSError as exc:  # the reading is printed all the same; only its picture is missing
                where = exc.filename or annotate_dir / f"{Path(path).stem}-annotated.png"
                trouble = f"{where}: the annotated photo could not be written ({disk_words(exc, 'en')})"
            except cv2.error:
                trouble = f"{path}: the annotated photo could not be made"
        # where the picture went, beside its reading: its name is the first free one, not known beforehand
        if args.json:
            print(json.dumps({"image": path, "dice": [d.to_json() for d in reading.dice], "ms": round(ms, 1),
                              **({"annotated": str(out)} if out else {})}, ensure_ascii=False))
        else:
            print(reading_line(path, reading, ms) + (f"   annotated: {out}" if out else ""))
        if trouble:
            failures += 1
            print(f"companion: {trouble}", file=sys.stderr)
    return 1 if failures else 0


def reading_line(path: str, reading: TrayReading, ms: float) -> str:
    """One photo's line of ``companion read``: its dice as a person reads them (``DieReading.label``), how many,
    how many of them the reader is not sure of, and the time."""
    faces = " ".join(d.label for d in reading.dice) or "(no dice)"
    unsure = sum(d.face is None for d in reading.dice)
    n = len(reading.dice)
    count = f"{n} {'die' if n == 1 else 'dice'}" + (f", {unsure} not sure" if unsure else "")
    return f"{path}: {faces}   [{count}, {ms:.0f} ms]"


def cmd_play(args: argparse.Namespace) -> int:
    from companion import config
    from companion.games import engine_class
    from companion.games.base import journal_game, play_transcript

    # the config for its language; with --lang only one named (a missing one is said), so that a mistake in the
    # table's own config does not stop a transcript that needs nothing from it
    cfg = config.load(args.config) if args.lang is None or args.config is not None else None
    lang = args.lang or (cfg.language if cfg is not None else "de")
    engine_cls = engine_class(args.game)
    if args.script == "-":
        text = sys.stdin.read().removeprefix("\ufeff")  # a byte-order mark, as Notepad saves: not the first line's
    elif not args.script:
        raise CompanionError("--script: an empty name was given (give the transcript file, or - for standard input)")
    elif Path(args.script).is_dir():
        raise CompanionError(f"cannot read the transcript {args.script}: a folder, not a transcript file; give the "
                             f".jsonl file in it, e.g. {Path(args.script) / 'journal.jsonl'}")
    else:
        try:
            # utf-8-sig: a transcript saved by Notepad starts with a byte-order mark, "not valid JSON" on line 1
            text = Path(args.script).read_text(encoding="utf-8-sig")
        except OSError as exc:
            raise CompanionError(f"cannot read the transcript {args.script}: {disk_words(exc, 'en')}") from None
        except UnicodeDecodeError:
            raise CompanionError(f"cannot read the transcript {args.script}: it is not UTF-8 text (save it again "
                                 "as UTF-8)") from None
    lines = text.splitlines()
    if lines and not text.endswith("\n") and journal_game(lines) is not None:
        # a journal as a power cut left it (the app keeps such a file for a bug report): its last line, unended,
        # was being written and never shown as done; the app resumes without it, and so does the replay, saying
        # so (a transcript written by hand stays as strict as ever: an editor leaves its last newline off)
        print(f"line {len(lines)} was cut short (a power cut while it was written): left out", file=sys.stderr)
        lines = lines[:-1]
    play_transcript(engine_cls, lines, sys.stdout, lang=lang, as_json=args.json)
    return 0


def cmd_teach(args: argparse.Namespace) -> int:
    from companion import config, lock

    cfg = config.load(args.config)
    with lock.take("teach", cfg.language):  # Busy: another companion writes the profiles (the menu's teaching too)
        return _teach(args, cfg)


def _teach(args: argparse.Namespace, cfg: Config) -> int:
    """``companion teach``, the lock held: from photos, or on the screen."""
    from companion import teach

    if args.examples:
        if args.dice_set == "fritzo-cubes":  # each cube's six faces from its net: no photos to label
            raise CompanionError("The Fritzo cubes are taught on the screen, one cube at a time: companion teach "
                                 "fritzo-cubes (without --examples). Their colours are taught from photos with: "
                                 "companion teach fritzo --examples DIR")
        report = teach.teach_from_examples(args.dice_set, Path(args.examples), lang=cfg.language)
        print(report.summary())
        return 0
    from companion.runtime import run_teach

    return run_teach(cfg, args.dice_set, source_spec=args.source)


if __name__ == "__main__":
    raise SystemExit(main())
