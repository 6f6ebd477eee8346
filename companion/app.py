"""The app loop: buttons, keys, taps and dice readings in; the active screen updated and drawn at a steady rate.

Vision runs in the dice watcher's thread, speech synthesis in the announcer's, so a slow frame never stalls the
screen. Everything that changes a game goes through a ``GameSession`` (journaled before it is shown).
"""

from __future__ import annotations

import importlib
import logging
import math
import signal
import time
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, replace
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pygame

from companion import config, paths, tonight
from companion.announce import Announcement, Sound
from companion.config import Config, level_section
from companion.display import pointer_of
from companion.errors import (
    CompanionError,
    DiceSetError,
    JournalError,
    ProfileDamaged,
    ProfileError,
    ProfileUnreadable,
)
from companion.games import GAMES, engine_class
from companion.games.base import GameError
from companion.hourglass import Hourglass
from companion.hourglass import Resume as HourglassResume
from companion.i18n import LANGUAGES, disk_words, error_words, refused_words, said, t
from companion.journal import Journal
from companion.session import Example, GameSession, StepRefused, rebuild, seat_number
from companion.views import theme
from companion.views.banner import draw_mute_indicator, first_covered
from companion.views.banner import rooms as banner_rooms
from companion.views.frame_clock import FrameClock
from companion.views.menus import MenuMode, Note, SetupStep, SetupWizard
from companion.views.widgets import (
    HINT_BAR_H,
    HINT_FRAME_GAP,
    MENU_CORNER,
    Menu,
    MenuItem,
    hint_bar,
    hint_button,
    hold_fill,
    not_time_to_roll,
    tapped_hint,
)
from hardware.buttons import (
    DOUBLE_GUARD,
    DOUBLE_PRESS,
    LONG_PRESS_BUTTONS,
    REPEAT_DELAY,
    REPEAT_INTERVAL,
    STUCK_AFTER,
    PressTracker,
    on_raspberry_pi,
)
from hardware.events import Button, ButtonEvent, Press
from vision.types import DiePicture

if TYPE_CHECKING:
    import numpy as np

    from companion.teach import Progress
    from vision.types import TrayReading

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class GameEntry:
    """How the app offers a game: its title key, its screen, the dice set it reads, and its setup questions."""

    name: str
    title_key: str
    view: str  # "module:Class"
    dice_set: str
    setup: Callable[[Config, str], list[SetupStep]]
    #: keys of the config's ``[games."<name>"]`` section that go into the setup action (house rules, letters ...)
    config_keys: tuple[str, ...] = ()
    #: more of the setup from the table's stored data (e.g. a taught Fritzo cube set); may raise CompanionError
    setup_extras: Callable[[], dict[str, Any]] | None = None
    #: what the table must know as the game starts, in ``lang`` (Fritzo with the built-in cubes), or None; told
    #: whether the notice that the dice are not taught follows it (which says where to teach: said once)
    start_note: Callable[[str, bool], str | None] | None = None
    #: the setup questions when the table plays again from a finished game's end screen, given that game's engine
    #: (Fritzo Level One: "Der Sieger einer Partie erhält bei einem neuen Spiel 14 Cubes"); None: ``setup``
    setup_again: Callable[[Config, str, Any], list[SetupStep]] | None = None


def players_steps(cfg: Config, lang: str, min_players: int = 1, max_players: int = 6,
                  limits: Callable[[dict[str, Any]], tuple[int, int]] | None = None) -> list[SetupStep]:
    """How many play (the first N names of the config, in seat order) and who of them starts.

    A game for more players than the config names (one name kept for solo games, then Haste Worte chosen) offers
    the seats it needs under numbered names, "Player 2": an empty question would be a dead end at the table (a game
    resumed in the other language names them in it: ``session.seats_in``).
    ``limits``: the fewest and most players as a function of the answers before (Fritzo's mode: Strategy is for
    two), so that no count is offered that the game then refuses.
    """

    def seats(fewest: int) -> list[str]:
        names = list(cfg.players)
        while len(names) < fewest:
            n = len(names) + 1
            while t("core.seat_name", lang, n=n) in names:
                n += 1
            names.append(t("core.seat_name", lang, n=n))
        return names

    def pick(answers: dict[str, Any]) -> tuple[list[str], int, int]:
        fewest, most = limits(answers) if limits is not None else (min_players, max_players)
        return seats(fewest), fewest, most

    def counts(answers: dict[str, Any]) -> list[tuple[str, tuple[str, ...]]]:
        names, fewest, most = pick(answers)
        # everybody in the config first: the usual evening; fewer (or solo) one NEXT away
        return [(f"{n}: {', '.join(names[:n])}", tuple(names[:n]))
                for n in range(min(most, len(names)), fewest - 1, -1)]

    def how_many(answers: dict[str, Any]) -> str:
        """The question, saying the most that may play where the config names more: five names and Echt Spitze
        offered "4: Oma, Mama, Papa, Lena" first, and nothing said why Tim was left out."""
        names, _, most = pick(answers)
        return t("core.setup_how_many_most", lang, most=most) if len(names) > most else t("core.setup_how_many", lang)

    return [
        SetupStep("_players", how_many, counts if limits is not None else counts({}), pick),
        SetupStep("start", t("core.setup_who_starts", lang),
                  lambda answers: [(name, i) for i, name in enumerate(answers.get("_players", seats(min_players)))]),
    ]


def _free_play_setup(cfg: Config, lang: str) -> list[SetupStep]:
    return []


GAME_ENTRIES: dict[str, GameEntry] = {
    "free-play": GameEntry("free-play", "core.menu_free_play", "companion.views.free_play_view:FreePlayMode", "d6",
                           _free_play_setup),
}


def register_game(entry: GameEntry) -> None:
    GAME_ENTRIES[entry.name] = entry


def setup_action(entry: GameEntry, cfg: Config, answers: dict[str, Any], seed: int) -> dict[str, Any]:
    """Turn the wizard's answers into the game's setup action (players in seat order, the start player's index)."""
    action: dict[str, Any] = {"action": "setup", "seed": seed}
    answers = dict(answers)
    players = answers.pop("_players", None)
    if players is not None:
        action["players"] = list(players)
    section = level_section(entry.name, cfg.games.get(entry.name, {}), answers.get("level"))
    action.update({k: section[k] for k in entry.config_keys if k in section})
    if entry.setup_extras is not None:
        action.update(entry.setup_extras())
    action.update(answers)
    return action


def unnamed_seats(cfg: Config, setup: dict[str, Any]) -> list[str]:
    """The seats of ``setup`` the companion named itself (``players_steps``: "Player 2", beyond the config's names),
    for the journal to record: a resume in another language names only these anew, not a player a family called
    "Player 2" (``session.seats_in``)."""
    players = setup.get("players")
    if not isinstance(players, list):
        return []
    return [p for p in players if isinstance(p, str) and p not in cfg.players and seat_number(p) is not None]


#: the pseudo dice set "fritzo-cubes": teaching the 27 cubes themselves (after their colours are taught)
FRITZO_CUBES = "fritzo-cubes"
#: how long a game started with its dice not taught (or taught in part) says so (``App._teaching_notice``): two
#: lines, long enough to be read out by whoever sits nearest; the strip covers the foot of the game's screen meanwhile
TEACHING_NOTICE_SECONDS = 8.0
ADVICE_SECONDS = 8.0  # the camera check's advice over a game (``App._say_why_unsure``)
#: a press that did nothing (``App._answer_press``): the hint bar lit this long, with this added to its colours; the
#: refusal's notes only after this long with no such press (a child pressing 2-6 times a second had the box beep
#: 60 % of the time, Haste Worte's sand too, while the family writes)
UNUSED_SHOWN = 0.6
UNUSED_LIGHT = (45, 45, 45)
UNUSED_QUIET = 2.0
#: seconds a button with a long press is held before the screen shows the hold building (a tap lasts 0.1-0.3 s)
HOLD_SHOWN = 0.3
#: how recent a finished game must be to be shown once more at the start (``App._show_last_result``): the evening's
#: last game after a power cut, not last week's at every switching on
LAST_RESULT_SECONDS = 6 * 3600
#: seconds a lasting state's strip ("not saved", the camera's trouble) stays away once tapped
STRIP_HIDDEN = 10.0
#: the longest a notice waits for a banner to leave the room its screen keeps for it (``notice_room``)
NOTICE_WAITS = 10.0
#: the key of a refusal's words said (``App._say_refusal``)
REFUSAL_KEY = "core.refused_said"
#: the key of the camera's trouble said as its strip first shows (``App._watch_camera``): once a loss, not at each retry
CAMERA_SAID_KEY = "core.camera_trouble_said"
#: seconds a live camera sends no pictures before the table is offered to go on with the built-in dice: a cable
#: pulled for a moment comes back within seconds by itself (``Camera.RETRY_SECONDS``); a broken one left the game
#: stopped, ROLL, NEXT and SELECT doing nothing, with no way on
CAMERA_GIVE_UP = 20.0
#: the volumes the pause menu's "Louder" and "Quieter" step through (silence is the mute's)
VOLUME_STEPS = (20, 40, 60, 80, 100)
#: a notice that names a folder that refused its files and the command for it (``refused_words``): read to the end
#: and maybe copied down by whoever set the companion up, as long as the notices naming a file kept aside
FOLDER_NAMED_SECONDS = 10.0
#: design pixels a finger may slide between touching and letting go and still tap (a finger rolls some 2 mm as it
#: lifts): farther, it swiped, and a swipe up the main menu from "Fritzo" opened Fritzo's setup
SWIPE = 24
#: design pixels within which a second tap lands on the spot of the first (a child's double tap; a finger's touch
#: wanders some 3 mm between two taps): only such a tap is dropped as the first one doubled (``_doubled``). Ticking
#: "Ben plays" and then "Dora plays", or a colour die and then a number die, 0.2 s apart, are two taps
DOUBLE_SPOT = 32
#: what of a screen only points at something (NEXT's highlight, a menu's scrolling) or counts time (the seconds left
#: in Haste Worte's sand): it changes under a finger that stays on the same thing, or with no finger at all, so it
#: is no change a second tap was aimed past (``_what_a_tap_changes``). Echt Spitze's "+" moved the highlight to
#: itself at its first tap, and the second of three quick taps was dropped
NOT_A_CHANGE = frozenset({"focus", "cursor", "choice", "choice_index", "main_index", "main_first", "pick_index"})
#: seconds after which a finger still down rests (a hand on the panel's edge, a lifting that never came) rather than
#: taps: another finger's touch is taken then, and the resting one's lifting does nothing. Until then a second finger
#: does nothing (the longest hold of a framed hint is 1 s)
RESTING = 2.0
#: design pixels kept free between the ≡ corner and the "sound off" sign's finger room: a finger just under ≡
#: switched the sound on
CORNER_GAP = 10


@dataclass
class _Press:
    """A finger (or the mouse's left button) on the screen: its tap is taken when it lifts where it touched."""

    pointer: Hashable
    pos: tuple[int, int]
    at: float
    hint: ButtonEvent | None = None  # the framed hint under it with a long press: held, it is that button held
    moved: bool = False  # slid farther than SWIPE: a swipe, no tap
    done: bool = False  # taken already (a banner put away, a hint held) or void (a double tap): lifting does nothing


def _what_a_tap_changes(obj: Any) -> tuple:
    """What of a screen a tap may change, to tell whether the last tap changed it: its menus' items, and its
    flags, counts and choices (what is picked, the step it is at, "really remove?"); not its words, clocks, its
    highlight (``NOT_A_CHANGE``) or what lies deeper (a name typed letter by letter, a menu's scrolling), which stay
    the same screen."""
    def menu(m: Menu) -> tuple:
        return m.title, tuple((i.label, i.enabled) for i in m.items)

    plain = (bool, int, str, Enum, type(None))
    out: list[tuple] = []
    for name, value in getattr(obj, "__dict__", {}).items():
        if name in NOT_A_CHANGE:
            continue
        if isinstance(value, Menu):
            out.append((name, menu(value)))
        elif isinstance(value, bool | int | Enum | None):
            out.append((name, value))
        elif isinstance(value, set | frozenset) and all(isinstance(v, plain) for v in value):
            out.append((name, frozenset(value)))
        elif isinstance(value, list | tuple) and all(isinstance(v, plain) for v in value):
            out.append((name, tuple(value)))
        elif isinstance(value, list | tuple):  # a stack of questions opened over the screen (a die's true face)
            out.append((name, len(value), tuple(menu(v) for v in value if isinstance(v, Menu))))
    return tuple(out)


def stepped_volume(volume: int, step: int) -> int | None:
    """The next of VOLUME_STEPS above (``step`` 1) or below (-1) ``volume`` (a config may hold any 0-100); None past
    the loudest or the quietest."""
    beyond = [v for v in VOLUME_STEPS if (v - volume) * step > 0]
    return (min if step > 0 else max)(beyond) if beyond else None


def cube_set_mode(lang: str, on_done: Callable[[], None], reader: Callable[[Any], Any] | None = None):
    """The Fritzo cube-set screen; the taught colours (``reader``: the Fritzo set's) pre-select each face when
    the camera knows them."""
    from companion.views.fritzo_cubes_view import CubeSetTeachMode

    return CubeSetTeachMode(lang, reader=reader, on_done=on_done)


def _sweep_stale_temps(journal_folder: Path) -> None:
    """The temp files power cuts left in the folders the companion writes atomically (``remove_stale_temps``)."""
    from companion import dicesets, profiles
    from companion.atomic import remove_stale_temps

    folders = [paths.config_file().parent, paths.data_dir(), profiles.profile_dir(), dicesets.user_dir(),
               journal_folder]
    for p in remove_stale_temps(folders):
        log.info("removed a temp file a power cut left: %s", p)


def tray_shows(source: Any, dice_set: str | None, dice: list[tuple[str, ...]] | None = None) -> bool:
    """Have the built-in tray ``source`` throw ``dice_set``'s dice (None: its own pip dice; ``dice``: each die's
    faces, where fewer than the whole set are wanted); whether that changed what it throws. Used by the app and by
    ``companion teach``, which on a laptop would otherwise teach a set's faces from pip dice."""
    if dice_set is None:
        return source.show(None)
    from hardware.game_dice import painter_for

    try:
        key = dice_set if dice is None else (dice_set, tuple(map(tuple, dice)))
        return source.show(key, painter_for(dice_set), dice or _tray_dice(dice_set))
    except CompanionError as exc:  # a dice set file of the owner's that does not load: its own screens say so
        log.warning("the built-in tray keeps its dice: %s", exc)
        return False


def _tray_dice(dice_set: str) -> list[tuple[str, ...]]:
    """Each die's faces for the built-in tray: as the set's file says, and for a set with marks (Echt Spitze's
    extra cross) half of the dice carrying one on one face, as the game's dice do (which face differs by die)."""
    from companion import dicesets

    ds = dicesets.load(dice_set)
    dice = [kind.faces for kind in ds.dice for _ in range(kind.count)]
    if ds.marks:
        for k in range(len(dice) // 2):
            faces = list(dice[k])
            faces[k % len(faces)] += ds.marks[0]
            dice[k] = tuple(faces)
    return dice


def _teach_title(dice_set: str, lang: str) -> str:
    """A dice set's line in the Teach menu: its name; pip dice say what there is to teach on them."""
    return t("teach.menu_d6" if dice_set == "d6" else f"dice.set.{dice_set}", lang)


def load_view(spec: str):
    module, cls = spec.split(":")
    return getattr(importlib.import_module(module), cls)


class App:
    def __init__(self, cfg: Config, *, source_spec: str | None = None, state_dir: Path | None = None,
                 display=None, announcer=None, buttons=None, clock: Callable[[], float] = time.monotonic,
                 wall_clock: Callable[[], float] = time.time, use_camera: bool = True,
                 start_free_play: bool = False, catch_failures: bool = False) -> None:
        self.cfg = cfg
        #: at the table (``runtime.run``): a game's screen that fails goes back to the main menu, said, rather than
        #: stopping the companion (tests leave it off, to see the failure itself)
        self.catch_failures = catch_failures
        self.lang = cfg.language
        self.clock = clock
        self.wall_clock = wall_clock
        #: the wall clock on the frames' steady pace, one for the run (``FrameClock``): a game left to the main menu
        #: and resumed read the raw wall clock again, and a jump of it in between ran the sand out at once
        self.frame_clock = FrameClock(wall_clock)
        # the snapshot written after the frame that shows the step (``Journal.defer_snapshot``, ``_frame``)
        self.journal = Journal((state_dir or paths.state_dir()) / "current", defer_snapshot=True)
        _sweep_stale_temps(self.journal.folder)
        self.display = display
        #: a Pi's fullscreen kiosk: "Quit" would leave a black console there, so the menu offers to switch off
        self.kiosk = bool(getattr(display, "fullscreen", False)) and on_raspberry_pi()
        self.announcer = announcer
        self.buttons = buttons
        self.running = True
        self.session: GameSession | None = None
        self.entry: GameEntry | None = None
        self.mode: Any = None
        self.game_mode: Any = None  # the game screen kept while the pause menu shows
        self.notice: str | None = None  # a message for the table (errors, "no camera")
        self.notice_until = 0.0
        # when it was asked for, and for how long (a notice may wait for the room a screen keeps it)
        self._notice_shown, self._notice_seconds = 0.0, 0.0
        self.notice_tone = "bad"  # its strip's colours (``NOTICE_COLOURS``): trouble, good news, or neither
        self.notice_answers = False  # it answers a tap or a press: shown at once, never waiting for a banner
        self.notice_screen: Any = None  # the screen a notice speaks of (``show_notice(screen=...)``), None: any
        self.notice_step: Any = None  # the game's step (a setup's question) such a notice speaks of: it goes with it
        self._taught: Progress | None = None  # how far the game's dice are taught (a taught set's, once read)
        self._trouble: str | None = None  # why the game's dice cannot be read: a damaged profile, a broken set file
        self._advised = False  # the camera check's advice was said in this game (``_say_why_unsure``)
        self._over_hints = [pygame.Rect(-99, -99, 0, 0)] * 2  # where a finished game's hints are drawn (touch)
        self.watcher = None
        self._last_frame_shown = None  # the camera frame last handed to a screen that looks at frames (teaching)
        self._thrown_seen = 0  # the watcher's throws that screen has been told of (``on_new_tray``)
        self.source_description = ""  # English, for the log
        self.source: Any = None  # the camera, photo folder or built-in tray the dice are read from
        self._banner: pygame.Rect | None = None  # where the last frame drew a banner: a tap there is the banner's
        self._press: _Press | None = None  # the finger on the screen, whose tap comes when it lifts
        #: when and where the last tap was taken, the screen before it (``_tap_state``), the row it pressed that is
        #: pressed again and again (``_repeated_row``) and the window of the framed hint it pressed (``DOUBLE_GUARD``):
        #: a tap on its spot this soon after it, when it changed the screen, was aimed at the screen before (a
        #: child's double tap)
        self._last_tap: tuple[float, tuple, tuple[int, int], Any, Hashable] | None = None
        #: the strip of words the last frame drew (rect, words, what it says: "error", "notice" or "state"), and a
        #: lasting state's words a tap put away until when
        self._strip: tuple[pygame.Rect, str, str] | None = None
        self._strip_hidden: tuple[str, float] = ("", 0.0)
        self._main_menu_mode: MenuMode | None = None  # its line about the camera changes when one is plugged in
        #: the main menu found a saved game it could not read (the card failing): switched on, the companion stays
        #: there, for free play would put that game away, whole, into the history (a card failing once is fine again)
        self._saved_unreadable = False
        self._pause_mode: MenuMode | None = None  # its line counts down a game's clock that runs on under it
        #: what the pause menu's "Say it again" lists is what was said from then on (the loop's clock): this game's
        self._said_since = float("-inf")
        #: the app's own spoken call (a sentence said again), withdrawn when the next one comes: later calls replace
        self._app_call: Announcement | None = None
        #: the game and how many refusals of it were said (``_say_refusal``)
        self._refusals_said: tuple[GameSession | None, int] = (None, 0)
        #: what the last SELECT (UNDO) pressed that is pressed again and again (``_repeats``), None: another
        self._pressed_again: dict[Button, Any] = {}
        #: until when the hint bar is lit for a press that did nothing (``_answer_press``)
        self._unused_until = float("-inf")
        self._unused_at = float("-inf")  # the last such press: the notes wait for a quiet moment (``UNUSED_QUIET``)
        #: a game was left for the main menu in this run: the menu's resume goes back to it, nothing interrupted
        self._left_game = False
        from hardware.keyboard import KeyboardButtons
        self.keys = KeyboardButtons(hold_time=cfg.buttons.hold_time, clock=clock)
        #: Backspace held while a name is typed: for how long, and when it deletes next (``_erase_repeat``)
        self._erase_held: tuple[float, float] | None = None
        #: a game finished shortly before the companion went off (the power cut at its end screen): shown once more,
        #: not put in the history unseen (``main_menu``)
        self._finished_at_start: Any = None
        self._last_answers: dict[str, dict[str, Any]] = {}  # each game's setup answers, this run
        self._stuck_said: set[Button] = set()  # buttons held down so long they were said to be stuck
        self._camera_spec = ""  # the camera the dice were read from (``_open_camera``): looked out for once left
        #: since when the live camera sends no pictures (clock seconds; None: it sends), and whether the offer to go
        #: on without it was said (``_watch_camera``)
        self._camera_lost: float | None = None
        self._offer_said = False
        #: the built-in tray the table chose lies as it came, unthrown: its rest is no throw (``_on_built_in_tray``)
        self._unthrown_tray = False
        try:
            if use_camera:
                self._open_camera(source_spec or cfg.camera)
            self._starting = True
            self.main_menu()
            self._starting = False
            try:  # a game's screen entered at the start fails as one entered later does (``frame``)
                if self._finished_at_start is None or not self._show_last_result(self._finished_at_start):
                    if start_free_play:
                        self._start_free_play()
            except Exception:
                if not self.catch_failures or self.session is None:
                    raise
                self._game_failed()
        except BaseException:
            # a start that fails lets go of what it opened: the camera, the pins, and the detector being readied,
            # which, still loading when the program ended, aborted it (status 134, "terminate called without an
            # active exception") instead of the stop said in words
            self._failed_start()
            raise

    def _failed_start(self) -> None:
        """``__init__`` failed: close what it opened and wait, bounded, for the detector's readying to end."""
        from companion.views.teach_view import wait_warm

        try:
            self.close()
        except Exception:  # noqa: BLE001 - the failure being raised is the one to see
            log.exception("closing after a failed start")
        wait_warm()

    def _start_free_play(self) -> None:
        """Switched on, the companion is ready to read dice at once: free play, its history kept across restarts.

        An unfinished *game* is never skipped past: then the main menu stays, offering to resume it first.
        """
        saved = self._resumable()
        if (saved is not None and saved.game != "free-play") or self._saved_unreadable:
            return
        if saved is None or not self.resume(saved, quiet=True):  # one set aside says why, and stays
            self.new_game(GAME_ENTRIES["free-play"], {})

    # -- devices ---------------------------------------------------------------------------------------------
    def _open_camera(self, spec: str) -> None:
        from companion.watcher import DiceWatcher
        from hardware.sources import Camera, is_camera, open_source
        from vision.pips import read_dice

        lookout = None
        self._camera_spec = spec
        try:
            source = open_source(spec)
            source.open()
        except CompanionError as exc:
            log.warning("%s", exc)  # for whoever started it at a terminal, too
            if not is_camera(spec):
                self.show_notice(said(exc, self.lang), seconds=8)
                return
            # the camera the owner named is not there (yet: a webcam the kernel enumerates after the service
            # started, one plugged in later): the built-in tray stands in as for ``auto``, and the camera is used
            # once it appears (mid-game from the next ROLL: ``CameraBack``). Without a camera the evening went on with
            # virtual dice and a word for eight seconds.
            source = open_source("synthetic")
            lookout = self._look_out(spec, back=False)
            # not "not found": refused, held by another program, no picamera2 all end here; why is in the log and
            # the doctor (the sources' words are English and technical)
            self.show_notice(t("core.camera_waiting", self.lang, camera=spec.strip()), seconds=15, info=True)
        else:
            if spec.strip().lower() == "auto" and not isinstance(source, Camera):
                lookout = self._look_out(spec, back=False)  # a webcam plugged in later is used (``_camera_back``)
        self.source_description = getattr(source, "description", spec)
        self.source = source
        self.watcher = DiceWatcher(source, read_dice, clock=self.clock)
        self.watcher.lookout = lookout
        self.watcher.start()
        from companion.views.teach_view import warm_up

        warm_up()  # the teaching screen's first die is found without the picture standing still

    def _camera_found(self) -> None:
        """The watcher moved to a camera that appeared after the start: the table is told, and the main menu's
        line about the camera says it. Or to the built-in tray the table chose in place of a camera that stopped
        (``_without_camera``)."""
        self.source = self.watcher.source
        self.source_description = getattr(self.source, "description", "")
        words = source_words(self.source, self.lang)
        if self._built_in_tray() is not None:
            self._on_built_in_tray(words)
            return
        self.show_notice(t("core.camera_found", self.lang, camera=words), seconds=8, good=True)
        from companion.views.camera_check_view import CameraCheckView

        if self.mode is self._main_menu_mode:
            self.mode.subtitle = words
        elif isinstance(self.mode, CameraCheckView):  # its dice are thrown by hand now: no ROLL to offer
            self.mode.throws = self.watcher.rolls

    def _watch_camera(self, now: float) -> None:
        """A live camera that stopped sending pictures is said aloud once, as its strip first shows (not again at
        each of its retries: the trouble lasts until a picture comes), and after CAMERA_GIVE_UP seconds in a game
        whose dice it reads the way on is said once too (``_camera_offer``)."""
        from hardware.sources import Camera

        watcher = self.watcher
        if watcher is None or watcher.error is None or not isinstance(watcher.source, Camera):
            self._camera_lost, self._offer_said = None, False
            return
        if self._camera_lost is None:
            self._camera_lost = now
            failure = watcher.failure
            words = t("core.camera_trouble", self.lang,
                      error=said(failure, self.lang) if failure is not None else watcher.error)
            self._call(Announcement(CAMERA_SAID_KEY, {"words": words}, shown=False))
        if not self._offer_said and self._camera_offer():
            self._offer_said = True
            self._call(Announcement(CAMERA_SAID_KEY, {"words": self._offer_words()}, shown=False))
            if self.mode is self._pause_mode:  # open already: its row is added where SELECT chooses it
                self.pause_menu()

    def _camera_offer(self) -> bool:
        """Whether the table is offered to go on with the built-in dice: the live camera that reads this game's dice
        has sent no pictures for CAMERA_GIVE_UP seconds. Not while the built-in tray chosen is being taken up (a dead
        camera's retries hold the watcher's thread) nor once it is read from: chosen twice, a second tray was opened
        and never closed."""
        from hardware.sources import Camera

        session, watcher = self.session, self.watcher
        if watcher is None or getattr(watcher, "switching", False) or not isinstance(watcher.source, Camera):
            return False
        return (self._camera_lost is not None and self.clock() - self._camera_lost >= CAMERA_GIVE_UP
                and session is not None and session.camera_ready and not session.engine.finished
                and getattr(session.engine, "rolls_dice", True))

    def _offer_words(self) -> str:
        """How to go on without the camera, said and added to the camera's strip: UNDO opens the pause menu on its
        row (``pause_menu``), SELECT chooses it."""
        return t("core.camera_offer", self.lang, back=t("core.btn_undo", self.lang),
                 select=t("core.btn_select", self.lang))

    def _without_camera(self) -> None:
        """The table goes on without the camera that stopped: the built-in tray throws the dice from now on, as
        when no camera is there at the start (``_open_camera``), and the camera is looked out for. Plugged in
        again, the table is told at once, and the camera reads the dice from the next ROLL on by itself
        (``CameraBack``): the family that mended the cable expects its own dice read, with no menu to go through, but
        not in the middle of a turn played with the built-in dice (the real tray's dice read against the virtual ones
        on the screen). What the game holds (the journal) is not touched: only where the next dice come from changes.
        Switched by the watcher's thread (``DiceWatcher.use``); the screen follows when it has
        (``_on_built_in_tray``)."""
        from hardware.sources import open_source

        self.watcher.use(open_source("synthetic"), self._look_out(self._camera_spec, back=True))

    @staticmethod
    def _look_out(spec: str, *, back: bool) -> CameraBack:
        """The lookout for the camera ``spec`` names (``auto``: any), while the built-in tray stands in: for one that
        stopped (``back``) and for one not there at the start alike, found mid-turn it waits for the next ROLL
        (``CameraBack``)."""
        from hardware.sources import CameraLookout

        auto = spec.strip().lower() in ("", "auto")
        return CameraBack(CameraLookout() if auto else CameraLookout(cameras=(spec.strip(),)), back=back)

    def _camera_back(self) -> None:
        """A camera plugged in while the built-in tray stands in (again, or for the first time): said once; used at
        the next ROLL, or at once with no game on (``CameraBack``)."""
        back = getattr(self.watcher, "lookout", None)
        if not isinstance(back, CameraBack) or back.found is None:
            return
        if self.session is None:
            back.due = True
        elif not back.told:
            back.told = True
            roll = t("core.btn_roll", self.lang)
            words = (t("core.camera_back", self.lang, roll=roll) if back.back else
                     t("core.camera_found_next", self.lang, camera=source_words(back.found, self.lang), roll=roll))
            self.show_notice(words, seconds=10, good=True)

    def _on_built_in_tray(self, words: str) -> None:
        """The watcher reads the built-in tray the table chose: the game's dice are thrown there, and a throw the
        game waits for (ROLL pressed before the camera stopped) is thrown now, not waited for from a dead camera."""
        self._camera_lost, self._offer_said = None, False
        self._withdraw_call()  # the camera's trouble, if it is still to be said, is over
        self.show_notice(t("core.camera_left", self.lang, roll=t("core.btn_roll", self.lang)), seconds=10,
                         info=True)
        if self.mode is self._main_menu_mode:
            self.mode.subtitle = words
        if self.session is None or self.entry is None:
            return
        self._tray_shows(None if self.entry.dice_set == "d6" else self.entry.dice_set, throw=False)
        if self.watcher.wanted_since is not None:
            self.watcher.cancel()
            self._ask_for_dice()
        else:  # its dice as they came are nobody's throw: free play counted them as a roll
            self._unthrown_tray = True

    def close(self) -> None:
        self.journal.flush_snapshot()
        if self.watcher is not None:
            self.watcher.stop()
            try:
                self.watcher.source.close()
                log.info("camera closed: %s", self.source_description)
            except Exception:  # closing a dead camera must not block shutdown
                log.exception("closing the camera")
            self.watcher = None
        if self.buttons is not None:
            self.buttons.close()
            log.info("buttons closed")
            self.buttons = None

    def show_notice(self, text: str, seconds: float = 5.0, *, good: bool = False, info: bool = False,
                    screen: Any = None, answer: bool = False) -> None:
        """A strip of words for the table: red for trouble, green for good news ("Undone", "Game resumed"), so that
        a resumed game does not look like an error; ``info`` in the panel's colours for what is neither (dice not
        taught yet, so the companion rolls: a family playing so every evening saw a red strip at every start).
        ``screen``: the words are about that screen only, and go when it does (why a press did nothing there: "Not
        time to roll: Anna: take one die" stood over the pause menu opened after it), and with the game's step it
        was said at: "Not time to roll: David picks a die" stood on after David had picked.

        ``answer``: the words answer a tap or a press that did nothing else ("Zoé's pair is set …", "Not time to
        roll"): they stand at once in the screen's first room they fit, over a banner there if need be
        (``draw``), where other notices may wait up to NOTICE_WAITS for it. Waiting, a child tapping a die saw
        nothing happen for 6.7 s, and tapped again and again."""
        self.notice = text
        self.notice_until = self.clock() + seconds
        self._notice_shown, self._notice_seconds = self.clock(), seconds
        self.notice_tone = "good" if good else "info" if info else "bad"
        self.notice_screen = screen
        self.notice_step = self._moment() if screen is not None else None
        self.notice_answers = answer

    def _moment(self) -> tuple[int | None, int | None, bool]:
        """Where the table is: the game's step, the setup's question, a name being typed (``notice_step``)."""
        return (len(self.session.actions) if self.session is not None else None,
                self.mode.index if isinstance(self.mode, SetupWizard) else None,
                bool(getattr(self.mode, "wants_text", False)))

    def _words(self, exc: CompanionError) -> str:
        """An error in the table's language where it has a catalog entry (game errors do)."""
        localized = getattr(exc, "localized", None)
        return localized(self.lang) if localized else str(exc)

    def announce(self, a: Announcement) -> None:
        if self.announcer is not None:
            self.announcer.announce(a)

    # -- screens ---------------------------------------------------------------------------------------------
    def main_menu(self) -> None:
        self._end_last_result_notice()
        if self.session is not None and self.session.engine.finished:
            self.session.finish()
        if self.session is not None and self.announcer is not None:
            # a game left: its prompts ("Ben, read your words") would play over other screens; who won is heard
            self.announcer.clear(keep_essential=self.session.engine.finished)
        self._tray_shows(None)
        if self.watcher is not None:
            self.watcher.cancel()
        self._left_game = self._left_game or (self.session is not None and not self.session.engine.finished)
        self.session = None
        self.entry = None
        self.game_mode = None
        lang = self.lang
        items: list[MenuItem] = []
        self._saved_unreadable = False
        try:
            saved = self.journal.load()
        except JournalError as exc:
            saved = None
            self.show_notice(self._aside_words("core.saved_game_damaged", exc.aside), seconds=10)
        except CompanionError as exc:
            saved = None
            self.show_notice(str(exc), seconds=10)
        except OSError as exc:
            saved = None
            self._saved_unreadable = True
            self.show_notice(t("core.saved_game_unreadable", lang, error=disk_words(exc, lang)), seconds=10)
        if saved is not None and saved.game not in GAMES:  # another version's game, or its header damaged
            self.show_notice(self._aside_words("core.saved_game_unknown", self.journal.set_aside(), game=saved.game),
                             seconds=10)
            saved = None
        if saved is not None and saved.state is None and not saved.finished and not saved.damaged:
            # the snapshot older than the journal: finished or not, the replay says. Also of a game in doubt (a line
            # cut short, lines the card lost): a finished one was offered as "Resume" at every start, its end screen
            # saying "please check" (the doubt is kept: ``Journal.caught_up``). Not of one cut back before a damaged
            # line: its end may be among the lines gone, and its resume says how many steps it lost
            saved = self._caught_up(saved)
        if saved is not None and saved.finished and self._starting and saved.game in GAME_ENTRIES \
                and self.wall_clock() - saved.saved_at < LAST_RESULT_SECONDS:
            self._finished_at_start, saved = saved, None  # its end screen comes first (``_show_last_result``)
        elif saved is not None and saved.finished:
            try:
                self.journal.archive()
            except OSError as exc:  # it is finished either way: not offered for resuming
                log.warning("the finished game stays in place: %s", exc)
            saved = None
        if saved is not None and saved.game in GAME_ENTRIES:
            when = time.strftime("%H:%M", time.localtime(saved.saved_at))
            title = t(GAME_ENTRIES[saved.game].title_key, lang)
            items.append(MenuItem(t("core.menu_resume", lang, game=title, time=when), ("resume", saved)))
        for entry in GAME_ENTRIES.values():
            items.append(MenuItem(t(entry.title_key, lang), ("new", entry.name)))
        items.append(MenuItem(t("core.menu_players", lang), ("players", None)))
        items.append(MenuItem(t("core.menu_teach", lang), ("teach", None)))
        items.append(MenuItem(t("core.menu_camera", lang), ("camera", None), enabled=self.watcher is not None))
        other = next(code for code in LANGUAGES if code != lang)
        items.append(MenuItem(t("core.menu_language", lang, other=t("core.language_name", other)),
                              ("language", other)))
        if self.kiosk:
            items.append(MenuItem(t("core.menu_power_off", lang), ("power_off", None)))
        else:
            items.append(MenuItem(t("core.menu_quit", lang), ("quit", None)))
        # UNDO goes back to the game left for the menu ("Main menu (the game stays saved)" had no way back but
        # finding its line): the first line resumes it, and so does UNDO
        resume = items[0].value if items and items[0].value[0] == "resume" else None
        # its note: who won this evening's games (the finished game went to the history above)
        self.mode = self._main_menu_mode = MenuMode(
            t("core.app_title", lang), items, self._main_choice,
            (lambda: self._main_choice(resume)) if resume is not None else None, lang,
            subtitle=source_words(self.source, lang), back_hint="core.hint_back_to_game",
            note=self._tonight_note(lang))

    def _tonight_note(self, lang: str, ended: Any = None) -> Note | None:
        """This evening's wins as a menu's note, from the history on the card (``tonight``); ``ended``: the game on
        the screen, counted where it finished (not archived yet). None where nobody won this evening."""
        wins = tonight.line(tonight.tally(self.journal.folder / "history", self.wall_clock(), ended), lang)
        return Note(*wins) if wins else None

    def _caught_up(self, saved: Any) -> Any:
        """``saved`` as a replay tells it where its snapshot could not (``Journal.caught_up``): a power cut in the
        frame after a game's last press left the snapshot of the step before, and the finished game was offered as
        "Resume" (its end screen coming back, "resumed, all as before") instead of being shown as finished."""
        checkpoints: dict[int, Any] = {}  # the replay's undo checkpoints: the latest goes into the snapshot
        try:
            engine = rebuild(engine_class(saved.game), saved.actions, checkpoints)
        except JournalError:  # a step this version refuses: the resume cuts the game back before it, and says so
            return saved
        steps = max((n for n in checkpoints if n < len(saved.actions)), default=None)
        return self.journal.caught_up(saved, engine, None if steps is None else (steps, checkpoints[steps]))

    def _main_choice(self, choice: tuple[str, Any]) -> None:
        self._end_last_result_notice()  # (play again from the end screen comes here)
        kind, value = choice
        if kind == "quit":
            self.running = False
        elif kind == "resume":
            self.resume(value)
        elif kind == "teach":
            self.teach_menu()
        elif kind == "camera":
            self.camera_check()
        elif kind == "language":
            self.switch_language(value)
        elif kind == "power_off":
            self._confirm_power_off()
        elif kind == "players":
            from companion.views.players_view import PlayersMode

            self.mode = PlayersMode(self.cfg, self.lang, on_done=self.main_menu)
        elif kind == "new" and self._puts_away():
            self._confirm_new(GAME_ENTRIES[value])
        elif kind == "new":
            entry = GAME_ENTRIES[value]
            again = entry.setup_again if self._game_over() and self.entry.name == entry.name else None
            steps = again(self.cfg, self.lang, self.session.engine) if again else entry.setup(self.cfg, self.lang)
            if not steps:
                self.new_game(entry, {})
            else:
                # play again, changed one's mind: back to the finished game's scores (they were gone for good)
                back = self._back_to_game if self._game_over() else self.main_menu
                self.mode = SetupWizard(steps, lambda answers: self.new_game(entry, answers), back,
                                        self.lang, on_names=lambda: self._names_then_setup(entry),
                                        previous=self._last_answers.get(entry.name, {}))

    def _resumable(self) -> Any:
        """The saved game the main menu shown offers to resume (its first line), or None (``SavedGame``)."""
        if self.mode is not self._main_menu_mode:
            return None
        kind, value = self.mode.menu.items[0].value
        return value if kind == "resume" else None

    def _puts_away(self) -> bool:
        """Whether starting a game from the main menu would put an unfinished one away (into the history, not
        offered again): the pause menu promised "the game stays saved", and a family choosing another game, or free
        play, lost the one it had paused without a word. Free play has nothing to keep."""
        saved = self._resumable()
        return saved is not None and saved.game != "free-play"

    def _confirm_new(self, entry: GameEntry) -> None:
        """Asked once more, the unfinished game first: resume it, or start ``entry`` and put it away (chosen from
        this screen, not the main menu, the game's setup follows without asking again)."""
        saved, lang = self._resumable(), self.lang
        assert saved is not None
        old, new = t(GAME_ENTRIES[saved.game].title_key, lang), t(entry.title_key, lang)
        items = [MenuItem(t("core.confirm_new_resume", lang, game=old), ("resume", saved)),
                 MenuItem(t("core.confirm_new_start", lang, game=new), ("start", entry.name))]

        def choose(value: tuple[str, Any]) -> None:
            if value[0] == "resume":
                self.resume(value[1])
            else:
                self._main_choice(("new", value[1]))

        self.mode = MenuMode(t("core.confirm_new_title", lang, game=old), items, choose, self.main_menu, lang)

    def _names_then_setup(self, entry: GameEntry) -> None:
        """The players screen opened from a game's setup; when it is done, that game's setup starts again with the
        names as they are now."""
        from companion.views.players_view import PlayersMode

        self.mode = PlayersMode(self.cfg, self.lang, on_done=lambda: self._main_choice(("new", entry.name)))

    def teach_menu(self) -> None:
        """Which dice set to teach; then the teaching screen fed with the camera's frames."""
        from companion import dicesets
        from companion.profiles import fresh_profile, load_profile, put_aside, save_profile
        from companion.teach import camera_name
        from companion.views.teach_view import TeachView
        from vision.taught import Profile

        lang = self.lang
        # the games' sets first; pip dice need teaching only for a face without pips (an emblem 6): last
        names = [n for n in dicesets.builtin_names() if n != "d6"] + ["d6"]

        def chosen(name: str) -> None:
            self._tray_shows(None if name == FRITZO_CUBES else name)
            if name == FRITZO_CUBES:
                self.mode = cube_set_mode(lang, self.main_menu, self._reader_for_set("fritzo"))
                return
            throw = self.watcher.throw if self.watcher is not None else None
            try:  # the owner's copy of the set's file, broken: said, the list stays (the teaching screen loads it)
                dicesets.load(name)
            except DiceSetError as exc:
                self.show_notice(t("core.teach_diceset_broken", lang, error=said(exc, lang)),
                                 seconds=TEACHING_NOTICE_SECONDS)
                return
            try:
                profile = load_profile(name)
            except ProfileUnreadable as exc:  # nothing taught now could be kept either: said, the list stays
                self.show_notice(self._unreadable_words(exc), seconds=TEACHING_NOTICE_SECONDS)
                return
            except ProfileDamaged as exc:  # kept aside: said, and taught afresh from nothing
                self._say_damaged(name, exc)
                profile = fresh_profile(name)

            def teach(how: str) -> None:
                save = save_profile
                if how == "afresh":  # a wrong answer of an earlier evening steered every sitting after it
                    save = afresh(name)
                self.mode = TeachView(name, lang, profile=fresh_profile(name) if how == "afresh" else profile,
                                      on_done=self.main_menu, throw=throw, save=save,
                                      virtual=self._built_in_tray() is not None, camera=camera_name(self.source))

            def afresh(name: str):
                """The old photos put aside at the first new answer saved: chosen by mistake and left at once, the
                set was untaught for the evening, its photos back only by renaming a file by hand."""
                aside: list[str] = []

                def save(new: Profile) -> object:
                    if not aside:
                        aside.append(put_aside(name))  # OSError: said by the teaching screen as "not saved"
                        self.show_notice(t("core.teach_afresh_done", lang, file=aside[0]), seconds=8, info=True)
                    return save_profile(new)
                return save

            if len(profile) == 0:
                teach("more")
                return
            # taught before: teaching adds to it, said so, or starts afresh (the old photos kept aside)
            self.mode = MenuMode(_teach_title(name, lang), [
                MenuItem(t("core.teach_more", lang), "more"), MenuItem(t("core.teach_afresh", lang), "afresh")],
                teach, self.teach_menu, lang, subtitle=t("core.teach_taught_before", lang, count=len(profile)))

        # faces are taught from the camera; the Fritzo cube set can be entered on the screen alone
        items = [MenuItem(_teach_title(n, lang), n, enabled=self.watcher is not None) for n in names]
        items.append(MenuItem(t("core.menu_fritzo_cubes", lang), FRITZO_CUBES))
        why = "" if self.watcher is not None else t("core.teach_needs_pictures", lang)  # greyed, and why
        self.mode = MenuMode(t("core.menu_teach", lang), items, chosen, self.main_menu, lang, subtitle=why)

    def _confirm_power_off(self) -> None:
        """Asked once more: the menu's last entry is where a finger lands after scrolling too far."""
        lang = self.lang

        def chosen(yes: bool) -> None:
            if not yes:
                self.main_menu()
                return
            from hardware.power import power_off

            why_not = power_off()
            if why_not is None:
                self.running = False  # the system is going down; leave with everything released
            else:
                log.warning("switching off refused: %s", why_not)
                self.main_menu()
                self.show_notice(t("core.power_off_failed", lang, error=why_not), seconds=10)

        # "Back" first: a second press of SELECT by habit must not switch off
        items = [MenuItem(t("core.power_off_no", lang), False), MenuItem(t("core.power_off_yes", lang), True)]
        self.mode = MenuMode(t("core.power_off_title", lang), items, chosen, self.main_menu, lang,
                             subtitle=t("core.power_off_saved", lang))

    def switch_language(self, lang: str) -> None:
        """The table's language, kept in the config like the sound: a club that got the companion set up in German
        switches from the main menu, without a keyboard or the config file. Only there, between games: a game's
        screens keep the language they started with."""
        self.lang = self.cfg.language = lang
        if self.announcer is not None:
            self.announcer.lang = lang
        self.notice_until = 0.0  # a notice in the language left ("Choose a game first.") stood over the new menu
        self.main_menu()
        index = next(i for i, item in enumerate(self.mode.menu.items) if item.value[0] == "language")
        self.mode.menu.index = index  # the entry stays under the finger: pressed again, it switches back
        self._save_config("core.language_not_saved")

    def camera_check(self) -> None:
        """The live picture with the dice read in it and advice on the camera and the light (setting up): pip dice
        first, then each dice set taught (NEXT)."""
        from companion import dicesets
        from companion.teach import camera_name
        from companion.views.camera_check_view import CameraCheckView

        if self.watcher is None:
            return
        # each taught set's reader, its profile loaded once for the screen's life
        readers = {n: r for n in dicesets.builtin_names() if n != "d6" and (r := self._reader_for_set(n)) is not None}

        def read_set(name: str) -> None:
            if name == "d6":
                self._camera_reads("d6")
            else:
                self._tray_shows(name)
                self.watcher.set_reader(readers[name])
            self.watcher.rearm()  # a reading of what lies there now, by this set's reader, not the last game's

        read_set("d6")
        self.mode = CameraCheckView(self.lang, self.main_menu, throws=self.watcher.rolls, sets=["d6", *readers],
                                    read_set=read_set, throw=self.watcher.throw,
                                    camera=lambda: camera_name(self.source))

    def _end_last_result_notice(self) -> None:
        """"That game had ended: here is its result" goes with the end screen it speaks of (left within its six
        seconds, it stood over the main menu or the next setup)."""
        if self.notice in (t("core.resumed_over", self.lang), t("core.resumed_over_check", self.lang)):
            self.notice_until = 0.0

    def new_game(self, entry: GameEntry, answers: dict[str, Any]) -> None:
        self._last_answers[entry.name] = dict(answers)  # play again starts on them (``SetupWizard.previous``)
        seed = int(self.wall_clock() * 1000) % 2**31
        if self.announcer is not None:  # the last game's words left (played again from its end), also who won and
            # its essential ones: its end screen said them, and the new game's start came under them ("+2")
            self.announcer.clear(keep_essential=False, keep_current=True)
        self._said_since = self.clock()  # "Say it again" offers this game's sentences, not the last game's
        try:
            setup = setup_action(entry, self.cfg, answers, seed)
            session = GameSession.new(engine_class(entry.name), setup, self.journal,
                                      unnamed=unnamed_seats(self.cfg, setup), **self._session_kw())
        except CompanionError as exc:
            words = self._words(exc)
            if isinstance(exc, GameError) and self.cfg.games.get(entry.name):  # the menu offers only what is allowed
                words = t("core.game_config_refused", self.lang, section=f'[games."{entry.name}"]', error=words)
            self.show_notice(words, seconds=10)
            return
        self._enter(entry, session)
        teaching = self._teaching_notice(session)
        says_where = bool(teaching) and not self._trouble  # a broken set's words say nothing of teaching
        note = entry.start_note(self.lang, says_where) if entry.start_note is not None else None
        if words := " ".join(w for w in (note, teaching) if w):
            self.show_notice(words, seconds=TEACHING_NOTICE_SECONDS, info=not (teaching and self._trouble))

    def _aside_words(self, key: str, aside: str, **params: Any) -> str:
        """A saved game set aside, said: on a card that refuses the rename (write-protected) it stays under its own
        name, and "put aside (journal.jsonl)" was said, at every start, of a file still in its place."""
        if aside == self.journal.path.name:
            key += "_stays"
        return t(key, self.lang, file=aside, **params)

    def _show_last_result(self, saved: Any) -> bool:
        """The end screen of a game finished just before the companion went off: a power cut at "Carla wins" lost
        the result the table was looking at (the game went to the history at the start, free play came up), and
        with it the UNDO of a mistyped final score. It comes at every start until it is left for the menu or played
        again; then it goes to the history. False where it could not be shown (the start goes on as without it)."""
        if self.resume(saved, quiet=True):
            if self.session is not None and self.session.engine.finished and saved.doubt:
                # its last lines may be gone (an UNDO of its end among them): the table checks, as at any resume
                # in doubt, and UNDO is there on the end screen
                self.show_notice(t("core.resumed_over_check", self.lang), seconds=TEACHING_NOTICE_SECONDS)
            elif self.session is not None and self.session.engine.finished:  # (cut back before its end: said so)
                self.show_notice(t("core.resumed_over", self.lang), seconds=6, info=True)
            return True
        self.main_menu()
        return False

    def resume(self, saved, *, quiet: bool = False) -> bool:
        """Go on with ``saved``; False when it cannot be replayed (it is then kept aside, so that the menu does not
        offer it again at every start, and the table is told)."""
        entry = GAME_ENTRIES[saved.game]
        # back to the game left for the menu (UNDO there, or after teaching dice): "resumed, all as before the
        # interruption" said of nothing interrupted
        resumed = t("core.back_in_game" if self._left_game else "core.resumed", self.lang)
        left_game = self._left_game
        try:
            try:
                session = GameSession.resume(engine_class(entry.name), saved, self.journal, **self._session_kw())
            except StepRefused as exc:
                # a line that reads but is no step of this game (another version's, bytes flipped into other JSON):
                # the game as it stood before it, as after a line that cannot be read, not the evening set aside
                log.warning("%s", exc)
                try:
                    saved = self.journal.cut_back_before(exc.step)
                except OSError as disk:
                    raise JournalError(str(disk)) from None
                session = GameSession.resume(engine_class(entry.name), saved, self.journal, **self._session_kw())
        except JournalError as exc:
            log.warning("%s", exc)
            try:
                aside = self.journal.set_aside()
            except OSError as disk:
                aside = disk_words(disk, self.lang)
            self.main_menu()
            self.show_notice(self._aside_words("core.saved_game_damaged", aside), seconds=10)
            return False
        except CompanionError as exc:
            self.show_notice(self._words(exc), seconds=10)
            return False
        self._enter(entry, session)
        # play again after a restart starts on this game's answers too (they were the run's only: after a power
        # cut at the end screen the setup stood on "4 players" and "Anna" again)
        setup = session.actions[0]
        self._last_answers.setdefault(entry.name, {
            **{k: v for k, v in setup.items() if k not in ("action", "seed", "players")},
            **({"_players": tuple(setup["players"])} if isinstance(setup.get("players"), list) else {})})
        if quiet:
            if saved.damaged:  # steps lost: said where a resume says nothing else too (free play at switch-on)
                self.show_notice(self._resumed_doubt(saved), seconds=TEACHING_NOTICE_SECONDS)
            return True
        if not left_game and self._clock_stopped_by_restart(session):
            resumed = t("core.resumed_clock_stopped", self.lang)
        if saved.doubt:  # "exactly where it stopped" was said of a game that had lost its last step
            resumed = self._resumed_doubt(saved)
            words = " ".join(w for w in (resumed, self._teaching_notice(session)) if w)
            self.show_notice(words, seconds=TEACHING_NOTICE_SECONDS)
        elif words := self._teaching_notice(session):
            self.show_notice(f"{resumed} {words}", seconds=TEACHING_NOTICE_SECONDS, info=not self._trouble)
        else:
            self.show_notice(resumed, seconds=3, good=True)
        return True

    def _clock_stopped_by_restart(self, session: GameSession) -> bool:
        """Whether the game's running clock (Haste Worte's sand, Fritzo's race clock) cannot go on after this restart:
        the wall clock reads before its start, and the screen stops it at its first frame ("Ein Neustart hielt die
        Sanduhr an."). "Spiel fortgesetzt: alles wie vor der Unterbrechung." stood under that banner."""
        engine = session.engine
        sand = getattr(engine, "hourglass", None) or getattr(getattr(engine, "state", None), "hourglass", None)
        return isinstance(sand, Hourglass) and sand.resume(self.wall_clock()) is HourglassResume.CLOCK_UNTRUSTED

    def _resumed_doubt(self, saved: Any) -> str:
        """The resume of a game that may not end where the table stopped. One cut back to the lines before a damaged
        one says how many steps it lost where the journal could count them: a family two hours in must know how far
        to set the table back ("after step 212" named a number shown nowhere else)."""
        if not saved.damaged:  # (a damaged line passed over: the game as the table left it, most likely)
            return t("core.resumed_rebuilt" if saved.rebuilt else "core.resumed_check", self.lang)
        if len(saved.actions) < 2:  # the setup alone is left
            return t("core.resumed_damaged_setup", self.lang)
        if saved.lost is None:
            return t("core.resumed_damaged_some", self.lang)
        return t("core.resumed_damaged", self.lang, lost=saved.lost)

    def _teaching_notice(self, session: GameSession) -> str | None:
        """What the table must be told when a camera looks at the tray but the game's dice are not taught: ROLL
        then rolls virtual dice, and a family throwing its real dice would see other faces on the screen with no
        word of why. Taught in part: a die showing a face not taught yet is asked about at every throw, and the
        table should know why, and where to teach the rest."""
        if self.watcher is None or session.engine.finished or not getattr(session.engine, "rolls_dice", True):
            return None
        if self._trouble:
            return self._trouble
        # without the game's name before them: the game is on the screen, and "Haste Worte? Das Würfelspiel: …" fit
        # no room beside six long names under the dice, and stood over the crystal table for its eight seconds
        if not session.camera_ready:
            return t("core.dice_not_taught", self.lang)
        taught = self._taught
        if taught is None or taught.taught >= taught.total:
            return None
        return t("core.dice_part_taught", self.lang, taught=taught.taught, total=taught.total)

    def _session_kw(self) -> dict[str, Any]:
        return {"lang": self.lang, "announce": self.announce, "wall_clock": self.wall_clock,
                "announcer": self.announcer, "config": self.cfg}

    def _enter(self, entry: GameEntry, session: GameSession) -> None:
        self.entry = entry
        self._left_game = False
        self._unthrown_tray = False  # (its dice are thrown for it: ``_camera_reads``)
        self.session = session
        self._refusals_said = (session, session.refusals)  # its refusals from here on are said
        session.unlearn = self._unlearn
        session.want_dice = self._ask_for_dice
        session.on_built_in_tray = lambda: self._built_in_tray() is not None  # (no camera: ROLL throws its dice)
        session.die_picture = self._die_picture
        session.frame_clock = self.frame_clock  # (the game's screen reads the run's clock: ``FrameClock``)
        self._taught = self._trouble = None
        self._advised = False
        session.camera_ready = self._camera_reads(entry.dice_set)
        self.mode = self.game_mode = load_view(entry.view)(session)

    def _built_in_tray(self):
        """The synthetic tray when it is the camera (no camera here), else None."""
        from hardware.synthetic import SyntheticTray

        source = getattr(self.watcher, "source", None)
        return source if isinstance(source, SyntheticTray) else None

    def _tray_shows(self, dice_set: str | None, dice: list[tuple[str, ...]] | None = None, *,
                    throw: bool = True) -> None:
        """The built-in tray (no camera) throws the dice of the set taught or played, so that a laptop without a
        camera can teach a game's dice and then play with them read (``d6``: pip dice whose 6 is an emblem, to
        teach); with None its own pip dice. ``dice``: each die's faces, when a game wants fewer than its whole set
        now (an Echt Spitze for two throws four); by default every die of the set. ``throw=False``: the caller
        throws them itself (ROLL: a second throw asked for here could be taken by the watcher apart, two throws)."""
        source = self._built_in_tray()
        if source is not None and tray_shows(source, dice_set, dice) and throw:
            self.watcher.throw()

    def _camera_reads(self, dice_set: str) -> bool:
        """Whether the camera can read this game's dice: pip dice always, taught sets once taught."""
        if self.watcher is None:
            return False
        self._tray_shows(None if dice_set == "d6" else dice_set)
        from companion.teach import load_for_reading, progress, reader_of

        try:
            loaded_set, profile = load_for_reading(dice_set)
        except ProfileDamaged as exc:
            self._say_damaged(dice_set, exc)
            loaded_set = profile = None
        except ProfileUnreadable as exc:  # not "never taught": teaching them now could not be kept either
            pips = dice_set == "d6"  # the pip reader reads on: not "ROLL rolls virtual dice"
            self._trouble = self._unreadable_words(exc, "core.profile_unreadable_pips" if pips else
                                                   "core.profile_unreadable")
            self.show_notice(self._trouble, seconds=TEACHING_NOTICE_SECONDS)
            loaded_set = profile = None
        except DiceSetError as exc:  # the owner's copy of the set's file does not load: not "never taught"
            key = "core.diceset_broken_pips" if dice_set == "d6" else "core.diceset_broken"
            self._trouble = t(key, self.lang, error=said(exc, self.lang))
            self.show_notice(self._trouble, seconds=TEACHING_NOTICE_SECONDS)
            loaded_set = profile = None
        except ProfileError:  # not taught yet
            loaded_set = profile = None
        if dice_set == "d6":  # pip dice need no teaching; a face taught for them (an emblem 6) replaces the pips'
            from vision.pips import read_dice
            self.watcher.set_reader(reader_of(loaded_set, profile) if loaded_set is not None else read_dice)
            if loaded_set is not None and self.session is not None:
                # an answer about a taught face is kept, as in the games; a pip face's is not: the pip reader reads
                # it untaught, and examples slow every reading
                self.session.learn = lambda index, face: (self._learn(dice_set, index, str(face))
                                                          if str(face) in profile.names else None)
            return True
        if loaded_set is None:
            return False
        # for the start's notice (the profile loaded once); an open set's edition may print other symbols
        self._taught = None if loaded_set.open else progress(loaded_set, profile)
        self.watcher.set_reader(reader_of(loaded_set, profile))
        self.session.learn = lambda index, face: self._learn(dice_set, index, face)
        return True

    def _say_damaged(self, dice_set: str, exc: ProfileDamaged) -> None:
        """Kept aside, the profile looks never taught from now on: the table is told this once, in its language."""
        self._trouble = t("core.profile_damaged", self.lang, set=_teach_title(dice_set, self.lang), file=exc.aside)
        self.show_notice(self._trouble, seconds=TEACHING_NOTICE_SECONDS)

    def _unreadable_words(self, exc: ProfileUnreadable, key: str = "core.profile_unreadable_elsewhere") -> str:
        """A profile the card cannot read, said where it is met: a game (virtual dice, or pips alone), or the
        teaching and camera check screens (neither used nor taught)."""
        return t(key, self.lang, set=_teach_title(exc.set_name, self.lang), error=disk_words(exc.error, self.lang))

    def _reader_for_set(self, dice_set: str) -> Callable[[Any], Any] | None:
        """``teach.reader_for_set``, a damaged or unreadable profile said rather than passed over."""
        from companion.teach import reader_for_set

        try:
            return reader_for_set(dice_set)
        except ProfileDamaged as exc:
            self._say_damaged(dice_set, exc)
            return None
        except ProfileUnreadable as exc:
            self.show_notice(self._unreadable_words(exc), seconds=TEACHING_NOTICE_SECONDS)
            return None

    def _learn(self, dice_set: str, index: int, face: Any) -> Example | None:
        """Cut the corrected die from the frame it was read in and add it to the set's examples; returns the
        Example that names it (the session takes it back through ``_unlearn`` when the step is undone or the die
        answered again), None when nothing was kept."""
        from companion.profiles import example_key
        from companion.teach import confirm, load_for_reading, reader_of

        reading, frame = self._reading_and_frame()
        if reading is None or frame is None:
            return None
        loaded_set, profile = load_for_reading(dice_set)
        try:
            kept = confirm(profile, face, frame, reading.dice[index].box, plain=loaded_set.plain_cubes)
        except OSError as exc:  # the answer still counts in the game; only the picture of the die is not kept
            self.show_notice(t("core.example_not_saved", self.lang, error=disk_words(exc, self.lang)), seconds=6)
            return None
        if kept is None:
            return None
        self.watcher.set_reader(reader_of(loaded_set, profile))  # the profile as now saved, not loaded again
        return {"set": dice_set, "face": face, "key": example_key(profile.vectors[-1])}

    def _reading_and_frame(self) -> tuple[TrayReading | None, np.ndarray | None]:
        """The game's latest reading and the frame it was read in; (None, None) where that frame is gone.

        The reading must still be the tray's last rest: one come to rest again since (a die picked up to look at it,
        the dice nudged while a roll is played; not read, the screen wanted no reading) shows the dice elsewhere,
        and a die's box would cut another die, or none (the watcher sets a rest's reading before its frame, so a
        frame of a later rest always fails here)."""
        watcher = self.watcher
        reading = self.session.latest_reading if self.session is not None else None
        frame = watcher.last_rest_frame if watcher is not None else None
        if frame is None or reading is None or watcher.last_rest is not reading:
            return None, None
        return reading, frame

    def _say_why_unsure(self, reading: TrayReading) -> None:
        """A reading with unsure dice whose picture names a cause the table can mend (dice small in the picture, too
        dark, glare, blurred, a die at the edge): said once a game, in the camera check's words, over no other
        notice. Else a family answers "which face?" all evening and never learns that the camera is too far. Once
        said, no reading is judged again in that game (9 ms of the screen's time a reading here, 30 on a Pi)."""
        if self._advised or not any(d.face is None for d in reading.dice) or self.session.error or (
                self.notice and self.clock() < self.notice_until):  # an error's strip would hide it
            return
        got, frame = self._reading_and_frame()
        if got is not reading or frame is None or frame.ndim != 3:
            return
        from companion.views.camera_check_view import MENDABLE, advice, dice_softness

        key, values = advice(frame, reading, False, blur=dice_softness(frame, reading))
        if key in MENDABLE:
            self._advised = True
            self.show_notice(t(key, self.lang, **values), seconds=ADVICE_SECONDS, info=True)

    def _die_picture(self, index: int) -> DiePicture | None:
        reading, frame = self._reading_and_frame()
        if reading is None or frame is None or not 0 <= index < len(reading.dice):
            return None
        return DiePicture.cut(frame, reading.dice[index].box)

    def _unlearn(self, example: Example) -> None:
        """Take back an example ``_learn`` added (its step was undone, or the die was answered again), also one
        the journal named after a restart. A set taught anew since, or its profile removed, holds nothing to take
        back: the undo says nothing of it (a damaged profile is said, as at any load)."""
        from companion.profiles import drop_confirmed, load_profile

        dice_set, face, key = example.get("set"), example.get("face"), example.get("key")
        if not (isinstance(dice_set, str) and isinstance(key, str)):
            log.warning("a journal's example cannot be taken back, it names no example: %r", example)
            return
        try:
            if drop_confirmed(load_profile(dice_set), face, key) is None:
                return
        except OSError as exc:  # the undo still counts; only the example stays on the card
            self.show_notice(t("core.example_not_dropped", self.lang, error=disk_words(exc, self.lang)), seconds=6)
            return
        self._hand_reader(dice_set)

    def _hand_reader(self, dice_set: str) -> None:
        """The reader keeps its profile in memory: hand the watcher one of the profile as it now is on disk."""
        reader = self._reader_for_set(dice_set)
        if reader is not None and self.watcher is not None:
            self.watcher.set_reader(reader)

    def pause_menu(self) -> None:
        self._end_last_result_notice()
        lang = self.lang
        # first where the camera stopped for good: the one way the game goes on (UNDO, then SELECT)
        camera = [MenuItem(t("core.pause_no_camera", lang), "no_camera")] if self._camera_offer() else []
        items = [*camera, MenuItem(t("core.pause_continue", lang), "continue"),
                 # second, one NEXT away: what a grandparent who did not hear the banner's sentence asks most
                 MenuItem(t("core.pause_again", lang), "again", enabled=bool(self._said())),
                 MenuItem(t("core.pause_undo", lang), "undo", enabled=bool(self.session and self.session.can_undo)),
                 MenuItem(t(self._main_menu_item(), lang), "menu"),
                 MenuItem(t(self._sound_item(), lang), "mute", enabled=self.announcer is not None),
                 *self._volume_items()]  # last: the ones seldom needed
        # this evening's wins, mid-game: a club playing round after round from the end screen never sees the main
        # menu (a game ended under the pause menu counts, not archived yet)
        ended = tonight.of_engine(self.session.engine.name, self.session.engine) if self.session else None
        # seven rows at once (46 px, rows 38 px tall as a note leaves a menu at least; this evening's wins beside the
        # title): "Quieter" was below the fold, and reaching the loudest scrolled "Quieter" under the finger that had
        # pressed "Louder"
        before = self._pause_mode if self.mode is self._pause_mode else None  # built again (a volume step)
        self.mode = self._pause_mode = MenuMode(t("core.pause_title", lang), items, self._pause_choice,
                                                self._back_to_game, lang, subtitle=self._pause_line(), row_h=46,
                                                note=self._tonight_note(lang, ended), note_beside=True)
        self._name_refused_folder(before)

    def _name_refused_folder(self, before: MenuMode | None) -> None:
        """Where a folder refused the game's files (root's after a ``sudo`` run), the pause menu names it and the
        remedy for whoever set the companion up, as the players screen and ``companion doctor`` do: its line said
        only "keine Berechtigung für diese Datei". Said in a notice over this menu as it opens (up to four lines at
        BODY down to SMALL, clear of the highlighted row; a tap puts it away), not in the line, whose one row at
        SMALL drew these words at 12 px. ``before``: the pause menu this one replaces (built again after a volume
        step): the words shown stay with their seconds, not said again at each step, and a notice of the step's own
        (the volume not kept) stays."""
        if before is not None:
            if self.notice_screen is before:
                self.notice_screen = self.mode
            return
        unsaved = self.session.unsaved if self.session is not None else None
        words = refused_words(unsaved, self.lang) if unsaved is not None else None
        if words is not None:
            self.show_notice(t("core.pause_not_saved", self.lang, error=words), seconds=FOLDER_NAMED_SECONDS,
                             screen=self.mode)

    def _said(self) -> list[Announcement]:
        """What this game said aloud, newest first (``Announcer.said``)."""
        return self.announcer.said(self._said_since) if self.announcer is not None else []

    def _said_screen(self) -> None:
        """"Say it again": the last sentences said, newest first, large enough for the table to read, and the newest
        said once more. Echt Spitze's "Ben first with lemons and melons: circle the 9 and 6, all others cross them
        out!" stood five seconds at 28 px, and a grandparent who missed it had no way to it (SELECT says the one
        highlighted again)."""
        said = self._said()
        if not said:
            return
        items = [MenuItem(self.announcer.text_of(a), a) for a in said]
        self.mode = MenuMode(t("core.said_title", self.lang), items, self._say_again, self._back_to_game, self.lang,
                             row_h=121, back_hint="core.hint_back_to_game", far_rows=True,
                             choose_hint="core.hint_say_again")
        self._say_again(said[0])

    def _say_again(self, a: Announcement) -> None:
        """Say ``a`` once more, as a call of the app's own: not over the list that shows it (no banner), no clock
        started nor call answered again, and the next such call replaces it."""
        self._call(replace(a, urgent=False, first=False, prompt=False, essential=False, until=(), shown=False,
                           sound=Sound.CHIME))

    def _say_refusal(self) -> None:
        """A refused move heard, not only shown: a short low sound at once, and its words as a call of the app's own
        (no banner: the strip shows them), replaced by a later call and taken back once the refusal is gone (the move
        made right, the strip tapped away), so the game never waits behind it. A player by ear took a refusal, which
        made no sound, for a move that counted."""
        session = self.session
        refusals = getattr(session, "refusals", 0)
        if session is None or self._refusals_said[0] is not session:  # (a game entered counts from ``_enter``)
            self._refusals_said = (session, refusals)
            return
        if refusals != self._refusals_said[1]:
            self._refusals_said = (session, refusals)
            if session.error and self.announcer is not None:
                self._withdraw_call()
                # the low sound before its words where the voice is free, else at once over it (the words wait)
                playing = self.announcer.current
                quiet = not self.announcer.queued and (playing is None or not playing.announcement.speak)
                if not quiet:
                    self.announcer.play_sound(Sound.REFUSED)
                self._call(Announcement(REFUSAL_KEY, {"words": session.error}, sound=Sound.REFUSED if quiet else
                                        Sound.NONE, shown=False, detail=True))
                return
        if session.error is None and self._app_call is not None and self._app_call.key == REFUSAL_KEY:
            self._withdraw_call()

    def _call(self, a: Announcement) -> None:
        """Say one of the app's own calls, withdrawing the last one where it still waits or plays: a later call
        replaces it (two quick "say it again" are heard once, the second)."""
        if self.announcer is None:
            return
        self._withdraw_call()
        self._app_call = a
        self.announcer.announce(a)

    def _withdraw_call(self) -> None:
        """Take back the app's last call where it still waits or plays."""
        if self._app_call is not None and self.announcer is not None:
            self.announcer.withdraw([self._app_call])
        self._app_call = None

    def _main_menu_item(self) -> str:
        """What leaving for the main menu does to the game: kept, lost (the card refuses it), or over already (a
        finished game goes to the history: "the game stays saved" promised a resume that never came)."""
        if self.session is not None and self.session.engine.finished:
            return "core.pause_main_menu_over"
        return "core.pause_main_menu_unsaved" if self._unsaved() else "core.pause_main_menu"

    def _pause_line(self) -> str:
        """The pause menu's line: a clock of the game that runs on under it (the sand, Fritzo's playing time: a
        table choosing the volume thought the game stood still), else whether every step is saved."""
        left = getattr(self.game_mode, "clock_left", lambda: None)()
        unsaved = self._unsaved("core.pause_not_saved")
        if left is None:
            return unsaved or t("core.pause_saved", self.lang)
        seconds = math.ceil(left)  # Fritzo's 10 minutes as "9:47 min", not "587 s"
        shown = f"{seconds // 60}:{seconds % 60:02d} min" if seconds >= 120 else f"{seconds} s"
        return " ".join(w for w in (t("core.pause_clock_runs", self.lang, left=shown), unsaved) if w)

    def _volume_items(self) -> list[MenuItem]:
        """Louder and quieter, each saying what it makes the volume: the table's only way to it without a keyboard
        and the config. One entry that stepped up only went from the loudest to the quietest: a table put at night
        one step quieter heard the loudest first."""
        now = self.cfg.sound.volume
        audible = self.announcer is not None and self.announcer.audio.available
        items = []
        for value, key, step in (("louder", "core.pause_louder", 1), ("quieter", "core.pause_quieter", -1)):
            then = stepped_volume(now, step)
            items.append(MenuItem(t(key, self.lang, volume=now, then=then if then is not None else now), value,
                                  enabled=audible and then is not None, repeats=True))
        return items

    def step_volume(self, step: int) -> None:
        """One step louder (``step`` 1) or quieter (-1), heard at once as a chime and kept in the config like the
        mute; a muted table that asks for a volume wants to hear it."""
        then = stepped_volume(self.cfg.sound.volume, step)
        if self.announcer is None or then is None:
            return
        self.cfg.sound.volume = self.announcer.volume = then
        if self.announcer.muted:
            self.cfg.sound.mute = self.announcer.toggle_mute()
        self.announcer.play_sound(Sound.CHIME)
        self._save_config("core.volume_not_saved", first=[t("core.volume_now", self.lang, volume=then)])

    def _sound_item(self) -> str:
        """What the pause menu's sound entry will do: a table that went quiet by a long SELECT finds the way back."""
        return "core.pause_sound_on" if self.announcer is not None and self.announcer.muted else "core.pause_sound_off"

    def _unsaved(self, key: str = "core.not_saved") -> str | None:
        """Words for the table when the game in progress cannot be written to the disk (it goes on in memory)."""
        if self.session is None or self.session.unsaved is None:
            return None
        return t(key, self.lang, error=disk_words(self.session.unsaved, self.lang))

    def _back_to_game(self) -> None:
        self.mode = self.game_mode

    def _pause_choice(self, choice: str) -> None:
        if choice == "menu":
            self.main_menu()
            return
        if choice in ("louder", "quieter"):  # stays in the menu: the next SELECT is the next step, heard at once
            self.step_volume(1 if choice == "louder" else -1)
            self.pause_menu()
            items = self.mode.menu.items
            here = [i.value for i in items].index(choice)  # at the loudest, on "quieter": the way back is one press
            self.mode.menu.index = here if items[here].enabled else here + (1 if choice == "louder" else -1)
            return
        if choice == "again":
            self._said_screen()
            return
        if choice == "undo":
            self.undo()
        elif choice == "no_camera":
            self._without_camera()
        elif choice == "mute":
            self.toggle_mute()
        self._back_to_game()

    def toggle_mute(self) -> None:
        """Sound off or on, kept in the config: a table that asked for silence has it again after a restart or a
        power cut. A config that cannot be written (read-only card) still mutes, and says it will not be kept."""
        if self.announcer is None:
            return
        self.cfg.sound.mute = self.announcer.toggle_mute()
        # said on the screen: a long SELECT by accident must not leave a table silent without knowing why
        said = [t(key, self.lang) for key in (("core.muted_hint", "core.muted") if self.cfg.sound.mute
                                              else ("core.unmuted",))]
        self.show_notice(said[0], seconds=4, good=True)
        # (in the game: the strip adds the game's own trouble)
        self._save_config("core.mute_not_saved", beside=self._unsaved(), first=said)

    def _toggle_mute_here(self) -> None:
        """``toggle_mute`` from wherever the table is (a held SELECT, the speaker sign tapped): with the pause menu
        open, its sound row is built again on the row it stood on (it said "Sound off" with the sound off)."""
        self.toggle_mute()
        menu = getattr(self.mode, "menu", None)
        if menu is not None and any(getattr(item, "value", None) == "mute" for item in menu.items):
            index = menu.index
            self.pause_menu()
            self.mode.menu.index = index

    def _save_config(self, key: str, beside: str | None = None, first: Sequence[str] = ()) -> None:
        """Keep a setting switched at the table in the config, or say with ``key`` that it holds for this run only:
        a card that refuses the write, and a file that could not be read at the start, which ``config.save`` leaves
        as it is (the mute said nothing then, and was gone after a restart). A folder that refused it (root's after
        a ``sudo`` run) is named with its remedy, as the players screen names it (``refused_words``), where the
        notice holds that at SMALL or larger with ``beside``, the words the strip says after it (a game that cannot
        be saved either: both at 14 px); else the short words, as before, and the pause menu names the game's.
        ``first``: what the switch did, said before the refusal, longest first ("Sound off: hold SELECT …", then
        "Sound off."; "Volume now 60 %."): the refusal took the place of the words saying the sound was off, and a
        table that muted by accident saw only trouble with a folder. The folder keeps its name beside the shorter
        of them where the longer leaves no room (the speaker sign says how the sound comes back); else the short
        refusal beside the longest that fits at SMALL."""
        try:
            config.save(self.cfg)
        except (CompanionError, OSError) as exc:
            error: Exception | None = exc
        else:
            error = self.cfg.unreadable
        if error is None:
            return
        def fits(words: str) -> bool:
            return _notice_layout(f"{words} {beside}" if beside else words)[1] >= theme.SMALL

        said = list(first) or [""]
        named = refused_words(error, self.lang)
        if named is not None:
            refusal = t(key, self.lang, error=named)
            words = next((w for w in (f"{f} {refusal}".strip() for f in said) if fits(w)), None)
            if words is not None:
                self.show_notice(words, seconds=FOLDER_NAMED_SECONDS)
                return
        refusal = t(key, self.lang, error=error_words(error, self.lang))
        shown = [f"{f} {refusal}".strip() for f in said]
        # (and what the switch did, read first)
        self.show_notice(next((w for w in shown if fits(w)), shown[-1]), seconds=5 + (3 if first else 0))

    def _in_game(self) -> bool:
        """A game's own screen is shown (not its pause menu, not a menu between games)."""
        return self.session is not None and self.mode is self.game_mode

    def _game_over(self) -> bool:
        """A game (not free play) has ended and its screen is shown: the table wants to know what now."""
        return (self._in_game() and self.entry is not None and self.entry.name != "free-play"
                and self.session.engine.finished)

    def undo(self) -> None:
        if self.session is None:
            return
        before = (self.notice, self.notice_until)  # an example the undo could not take back says so: not hidden
        if not self.session.undo():  # only the setup: a held UNDO that did nothing, unsaid, read as broken
            self._answer_press(t("core.nothing_to_undo", self.lang), seconds=3, here=False)
            return
        # what the step told the table, not a call to act it made: an undone roll quoted "Anna: take one die",
        # heard as an order though Anna must roll again
        told = next((a for a in self.session.undone_said if not a.prompt), None)
        # heard as well as shown: the table heard the step's sentence, and a player by ear never heard it go (the
        # green strip stood 2-3 s). A call of the app's own: the next undo's (a held UNDO) replaces it
        self._call(Announcement("core.undone_what", {"said": {"key": told.key, "params": told.params}},
                                sound=Sound.NONE, shown=False, detail=True) if told else
                   Announcement("core.undone", sound=Sound.NONE, shown=False, detail=True))
        if (self.notice, self.notice_until) == before:
            words = t("core.undone_what", self.lang, said=_quoted_within(told.text(self.lang).rstrip(".!"))) \
                if told else t("core.undone", self.lang)
            self.show_notice(words, seconds=3 if told else 2, good=True)

    # -- input -----------------------------------------------------------------------------------------------
    def on_button(self, event: ButtonEvent) -> None:
        in_game = self._in_game()
        if event.button is Button.UNDO and event.press is Press.LONG and in_game:
            # inside a step's own question (its hint: "UNDO back") a held UNDO goes back as a pressed one does: it
            # took back the step before ("Anna leaves the middle", a roll whose dice were crossed on paper already)
            if not self.mode.on_button(ButtonEvent(Button.UNDO, Press.SHORT)):
                self.undo()
            return
        if event.button is Button.SELECT and event.press is Press.LONG:
            self._toggle_mute_here()
            return
        if event.button in (Button.ROLL, Button.REROLL) and event.press is Press.LONG and in_game:
            # a held ROLL throws as a pressed one: Noch X-Mal!'s rolls and Fritzo's start roll took a short press
            # alone, and a child holding the button down saw nothing happen
            event = ButtonEvent(event.button, Press.SHORT)
        if event.button in (Button.SELECT, Button.REROLL) and event.press is Press.SHORT and self._game_over():
            # play again: the same game's setup, players may change. REROLL too: the German table's NOCHMAL
            # ("again") did nothing there
            self._main_choice(("new", self.entry.name))
            return
        if event.button is Button.ROLL and self._game_over():
            # the next throw after a finished game: nothing happened (Noch X-Mal!'s screen took the press and did
            # nothing), and the table took the button for broken
            self._answer_press(t("core.over_roll", self.lang, again=t("core.btn_select", self.lang),
                                 menu=t("core.btn_undo", self.lang)))
            return
        used = self.mode.on_button(event)  # a game screen that rolls asks the camera itself (``ask_for_dice``)
        if event.button is Button.ROLL and hasattr(self.mode, "on_frame") and self.watcher is not None:
            self.watcher.throw()  # a teaching screen: new dice from the built-in tray or the next replayed photo
        elif not used and in_game and event.button is Button.UNDO:
            self.pause_menu()
        elif not used and in_game and event.button is Button.TIMER and not getattr(self.mode, "has_hourglass", False):
            # free play, Echt Spitze, Noch X-Mal!, Fritzo without a clock: a press that did nothing and said nothing
            # read as a broken button
            self._answer_press(t("core.no_hourglass", self.lang))
        elif not used and in_game and event.button is Button.TIMER and (why := getattr(self.mode, "timer_not_now",
                                                                                        None)):
            # its hourglass, not now (Haste's picks)
            self._answer_press(why)
        elif not used and in_game and event.button in (Button.ROLL, Button.REROLL):
            # a screen that rolls nothing now ("Anna: take one die", Fritzo's building): TIMER said why not, ROLL
            # said nothing, and the table pressed it again and again
            self._answer_press(self._roll_not_now())
        elif not used and not in_game and event.button in (Button.ROLL, Button.REROLL, Button.TIMER) \
                and (key := self._no_dice_here()):
            self._answer_press(t(key, self.lang))
        elif not used and event.press is Press.SHORT and not event.repeat and event.button in (
                Button.NEXT, Button.PREV, Button.SELECT, Button.UNDO):  # a held NEXT: its first press answered alone
            self._answer_press()

    def _answer_press(self, words: str | None = None, *, seconds: float = 4.0, here: bool = True) -> None:
        """One answer to a press that did nothing, whatever the button and the screen: the hint bar lit a moment,
        where it says what works here, the refusal's two low notes, and ``words`` saying why where there are some (a
        grey strip, ``show_notice``'s ``answer``; ``here``: about the screen shown, gone with it). NEXT, SELECT or
        UNDO no screen took made no sound and changed no pixel, and the table pressed it again and again; ROLL and
        TIMER "not now" and UNDO with nothing to undo had words alone, unheard by whoever did not look, another
        answer than NEXT's beside them. Each press lights the bar; the notes sound only after a quiet moment
        (``UNUSED_QUIET``), all these answers together: a child hammering a button had them 10 times in 5 s. A held
        NEXT's repeats are not presses (``ButtonEvent.repeat``). A game's refusal of a move is said as well
        (``_say_refusal``)."""
        now = self.clock()
        quiet = now - self._unused_at >= UNUSED_QUIET
        self._unused_at, self._unused_until = now, now + UNUSED_SHOWN
        if quiet and self.announcer is not None:
            self.announcer.play_sound(Sound.REFUSED)
        if words:
            self.show_notice(words, seconds, info=True, screen=self.mode if here else None, answer=True)

    def _no_dice_here(self) -> str | None:
        """What a menu, a setup question or the players' list says to ROLL or TIMER: it did nothing and said nothing
        (the main menu alone answered), and a family at its first question pressed it again and again."""
        from companion.views.players_view import PlayersMode

        if self.mode is self._main_menu_mode:
            return "core.menu_no_game"
        if isinstance(self.mode, SetupWizard):
            return "core.setup_no_dice"
        if isinstance(self.mode, PlayersMode) and not self.mode.wants_text:
            return "core.players_no_dice"
        return "core.menu_no_dice" if isinstance(self.mode, MenuMode) else None

    def _roll_not_now(self) -> str:
        """Why ROLL or REROLL did nothing on the game's screen: the screen's own words (``roll_not_now``), else what
        the game asks for now (its ``prompt``, Haste Worte's "Ben picks a die"), else that nothing is rolled now."""
        why = getattr(self.mode, "roll_not_now", None)
        if why:
            return why
        prompt = getattr(self.session.engine, "prompt", None)
        if callable(prompt) and not self.session.engine.finished:
            return not_time_to_roll(prompt().text(self.lang), self.lang)
        return t("core.nothing_to_roll", self.lang)

    def _ask_for_dice(self) -> None:
        """Read the dice the table throws now (a game screen's roll, by ROLL or by a tap): the built-in tray throws
        the dice the game wants, as the players would put them in the tray."""
        wanted = getattr(self.game_mode, "dice_to_throw", None)
        dice = wanted() if wanted is not None else None
        if dice:
            self._tray_shows(self.entry.dice_set, dice, throw=False)
        self._unthrown_tray = False
        if isinstance(back := getattr(self.watcher, "lookout", None), CameraBack) and back.found is not None:
            back.due = True  # the camera plugged in again reads this throw (first: the watcher switches, then reads)
        self.watcher.request()  # throws them

    def on_tap(self, pos: tuple[int, int]) -> None:
        if self._banner is not None and self._banner.collidepoint(pos) and self.announcer is not None:
            self.announcer.hide_banner()  # it covered what the finger wanted: not passed to what is unseen under it
            self._banner = None
            return
        if self._tap_strip(pos):
            return
        if (mute := self._mute_area()) is not None and mute.collidepoint(pos):
            self._toggle_mute_here()
            return
        if self._in_game() and MENU_CORNER.collidepoint(pos):
            self.pause_menu()
            return
        if self._game_over():  # a table with touch alone: the two hints are its buttons
            again, menu = self._over_hints
            if again.collidepoint(pos):
                self._main_choice(("new", self.entry.name))
                return
            if menu.collidepoint(pos):
                self.pause_menu()
                return
            if pos[1] >= theme.DESIGN_SIZE[1] - HINT_BAR_H:
                return  # the game's own hints were painted over: none of them is pressed unseen
        if (press := self._framed_hint(pos)) is not None:
            self.on_button(press)  # as the button is pressed: "UNDO menu" opens the menu a screen leaves UNDO to
            return
        # a screen's answer that is no error (Noch X-Mal!'s "the pair is set; hold UNDO"): not in red
        if isinstance(said := self.mode.on_tap(pos), str):
            self.show_notice(said, seconds=6, info=True, screen=self.mode, answer=True)

    def _mute_area(self) -> pygame.Rect | None:
        """Where a finger switches the sound on: the "sound off" sign and a finger's room around it (the speaker
        alone in a game is 43 x 34, about 6 x 5 mm on the Pi's panel), clear of the ≡ corner by CORNER_GAP. Grown
        up to it, the room met the corner, and a finger aiming at ≡ a little low switched the sound on."""
        mute = self.announcer.mute_rect if self.announcer is not None else None
        if mute is None:
            return None
        area = mute.inflate(max(0, 56 - mute.w), max(0, 56 - mute.h))
        if self._in_game() and area.colliderect(MENU_CORNER.inflate(2 * CORNER_GAP, 2 * CORNER_GAP)):
            if mute.top >= MENU_CORNER.bottom:  # under the corner (where it stands in a game): cut off above
                top = max(area.top, min(mute.top, MENU_CORNER.bottom + CORNER_GAP))
                area = pygame.Rect(area.x, top, area.w, area.bottom - top)
            elif mute.right <= MENU_CORNER.left:  # left of it: cut off at the right
                area.w = min(area.right, max(mute.right, MENU_CORNER.left - CORNER_GAP)) - area.left
        return area

    def _tap_state(self) -> tuple:
        """The screen as a tap finds it (``_doubled``): which screen and question, the game's steps, its framed
        hints, a banner or strip over it, and what of the screen a tap may change (``_what_a_tap_changes``)."""
        inner = getattr(self.mode, "mode", None)  # a setup's question
        session = self.session
        return (id(self.mode), id(inner), -1 if session is None else len(session.actions),
                session is not None and session.engine.finished, self._banner is not None, self._strip is not None,
                tuple((tuple(r), e.button, e.press) for r, e in getattr(self.mode, "hint_taps", ())),
                _what_a_tap_changes(self.mode), _what_a_tap_changes(inner))

    def _doubled(self, now: float, pos: tuple[int, int]) -> bool:
        """A finger touching the last tap's spot (DOUBLE_SPOT) within DOUBLE_PRESS of it, when it changed the
        screen: a child's double tap, aimed at the screen before, as a button pressed twice that fast is the same
        press doubled. A double tap on "End the turn" rolled for the next player; on a die, Anna took it and Ben's
        turn the second; "Remove" asked "Really remove?" unseen. Taps that change nothing there (a letter typed
        twice, a scroll arrow, "+" that the highlight follows) count however fast, and so does a quick tap
        elsewhere (the next player ticked, the pair's number die after its colour die), and so do quick taps on a
        row meant to be pressed again and again (``_repeated_row``). The framed hints of ROLL and REROLL share one
        window wherever they stand, as their arcade buttons do (``DOUBLE_GUARD``): quick taps on "ROLL" and then on
        "REROLL" beside it threw twice."""
        last = self._last_tap
        if last is None or now - last[0] >= DOUBLE_PRESS:
            return False
        if last[4] is not None and self._hint_guard(pos) == last[4]:
            return True
        return (math.dist(pos, last[2]) <= DOUBLE_SPOT and self._tap_state() != last[1]
                and (last[3] is None or self._repeated_row(pos) != last[3]))

    def _hint_guard(self, pos: tuple[int, int]) -> Hashable:
        """The ``DOUBLE_PRESS`` window the framed hint at ``pos`` shares with others (``DOUBLE_GUARD``: ROLL's and
        REROLL's), else None."""
        press = self._framed_hint(pos)
        return DOUBLE_GUARD.get(press.button) if press is not None else None

    def _repeated_row(self, pos: tuple[int, int]) -> Any:
        """The value of the menu row at ``pos`` that is pressed again and again (``MenuItem.repeats``: the pause
        menu's "Louder", whose every tap changes its own line), else None. Quick taps there are each meant: three
        taps on "Louder" made it one step louder and then another, the second dropped as a double tap."""
        for screen in (getattr(self.mode, "mode", None), self.mode):  # a setup's question first
            menu = getattr(screen, "current_menu", getattr(screen, "menu", None))
            if isinstance(menu, Menu):
                return next((menu.items[i].value for i, r in menu.item_rects().items()
                             if r.collidepoint(pos) and menu.items[i].repeats and menu.items[i].enabled), None)
        return None

    def _take_tap(self, pos: tuple[int, int], act: Callable[[], Any] | None = None) -> None:
        """Take a finger's tap (or ``act`` for it), remembering the screen it found and the row it pressed
        (``_doubled``)."""
        before, row, guard = self._tap_state(), self._repeated_row(pos), self._hint_guard(pos)
        if act is None:
            self.on_tap(pos)
        else:
            act()
        self._last_tap = (self.clock(), before, pos, row, guard)

    def _framed_hint(self, pos: tuple[int, int]) -> ButtonEvent | None:
        """The press of the game's framed hint at ``pos``, where a tap there reaches it: not over the sound-off sign,
        the ≡ corner or a finished game's own two hints, which ``on_tap`` takes first. One place for both a tap and
        a held finger (``_held_hint``), so a finger held where a tap presses nothing presses nothing either."""
        if not self._in_game() or self._game_over() or MENU_CORNER.collidepoint(pos):
            return None
        if (mute := self._mute_area()) is not None and mute.collidepoint(pos):
            return None
        return tapped_hint(getattr(self.mode, "hint_taps", []), pos)

    def _held_hint(self, pos: tuple[int, int]) -> ButtonEvent | None:
        """The framed hint a tap at ``pos`` presses when its button has a long press: a finger held on "UNDO menu"
        is UNDO held, the table's way to take back a step by touch alone."""
        press = self._framed_hint(pos)
        return press if press is not None and press.button in LONG_PRESS_BUTTONS else None

    def _on_pointer(self, kind: str, pointer: Hashable, pos: tuple[int, int] | None) -> None:
        """A finger or the mouse down, moving or up: the tap is taken as it lifts where it touched, so a swipe is
        no tap; one finger at a time (a second while one is down, a hand resting on the panel, does nothing)."""
        now = self.clock()
        press = self._press
        if kind == "down":
            if press is not None and press.pointer != pointer and now - press.at < RESTING:
                return  # the first finger's tap alone: two in one moment both acted, on screens they never saw
            self._press = None
            if pos is None:
                return  # the letterbox border
            self._press = press = _Press(pointer, pos, now)
            if self._doubled(now, pos):
                press.done = True
            elif any(r is not None and r.collidepoint(pos) for r in (self._banner, self._strip and self._strip[0])):
                self._take_tap(pos)  # at the touch: the banner or strip goes at once, and nothing under it is chosen
                press.done = True
            else:
                press.hint = self._held_hint(pos)
            return
        if press is None or press.pointer != pointer:
            return
        if pos is None or math.dist(pos, press.pos) > SWIPE:
            press.moved = True
        if kind == "up":
            self._press = None
            if not press.done and not press.moved:
                self._take_tap(press.pos)
            elif not press.done and pos is not None:
                self._swiped(press.pos, pos)

    def _swiped(self, start: tuple[int, int], end: tuple[int, int]) -> None:
        """A finger swiped up or down over a menu with rows out of view: the menu scrolls by the rows it slid, as
        a phone's list does (families swiped the main menu for its ▼'s lines and nothing moved). The highlight
        comes along where its row went out of view. A screen with lists over its menu scrolls the one on top
        (``current_menu``); one that builds its menu anew each frame keeps the new page (``menu_scrolled``: Noch
        X-Mal!'s menu ignored a swipe, its next frame drawn from the page kept before it)."""
        dx, dy = end[0] - start[0], end[1] - start[1]
        if abs(dy) <= max(abs(dx), SWIPE):
            return  # sideways (no menu of ours scrolls that way), or back where it touched
        for screen in (getattr(self.mode, "mode", None), self.mode):  # a setup's question first
            menu = getattr(screen, "current_menu", getattr(screen, "menu", None))
            if isinstance(menu, Menu) and menu.rect.collidepoint(start):
                rows = max(1, round(abs(dy) / menu.row_h))
                # a finger sliding up brings the lines below
                if menu.scroll(-rows if dy > 0 else rows) and (kept := getattr(screen, "menu_scrolled", None)):
                    kept(menu)
                return

    def _hold_hint(self, now: float) -> None:
        """A finger held on a framed hint for the button's hold time is that button held: "UNDO menu" held takes
        back the last step, "TIMER ..." held stops the hourglass; lifting it then does nothing more."""
        press = self._press
        if press is None or press.hint is None or press.done or press.moved:
            return
        if now - press.at >= self.keys.tracker.hold_for(press.hint.button):
            press.done = True
            if self._held_hint(press.pos) == press.hint:  # the same hint still there (not a menu opened meanwhile)
                self._take_tap(press.pos, lambda: self.on_button(ButtonEvent(press.hint.button, Press.LONG)))

    def _draw_hold(self, surface: pygame.Surface) -> None:
        """A finger on a framed hint with a long press (``_hold_hint``) fills its frame as the hold builds: held on
        "UNDO menu", nothing showed for the second until the step was taken back."""
        press = self._press
        if press is None or press.hint is None or press.done or press.moved:
            return
        taps = getattr(self.mode, "hint_taps", ())
        room = next((r for r, e in taps if e == press.hint and r.collidepoint(press.pos)), None)
        if room is not None:  # (the hint gone meanwhile: nothing to fill)
            hold_fill(surface, room, (self.clock() - press.at) / self.keys.tracker.hold_for(press.hint.button))

    def _trackers(self) -> list[PressTracker]:
        """The keyboard's presses and the arcade buttons' (where there are any): what is held is read from both."""
        return [self.keys.tracker] + ([self.buttons.tracker] if hasattr(self.buttons, "tracker") else [])

    def _button_held(self) -> tuple[Button, float] | None:
        """The button held toward its long press and how far (0 to 1), once held past a tap's moment
        (``HOLD_SHOWN``: every SELECT would flash), else None."""
        held = max((h for tracker in self._trackers() if (h := tracker.holding()) is not None), key=lambda h: h[1],
                   default=None)
        if held is None or held[1] * self.keys.tracker.hold_for(held[0]) < HOLD_SHOWN:
            return None
        return held

    def _draw_button_hold(self, surface: pygame.Surface) -> None:
        """A button held toward its long press fills what it stands for as the hold builds, as a finger's hold on
        the hint does (``_draw_hold``): a held UNDO changed no pixel for a second until the step was taken back,
        and SELECT held for the sound showed nothing (let go at 1.8 s on "Main menu", it left the game). SELECT's
        is the sound: the pause menu's "Sound off" row where it shows, else the sign's chip (``_draw_sound_hold``)."""
        if (held := self._button_held()) is None:
            return
        button, part = held
        room = next((r for r, e in getattr(self.mode, "hint_taps", ()) if e.button is button), None)
        if room is None and button is Button.SELECT and (row := self._sound_row()) is not None:
            room = _frame_room(row)
        if room is not None:
            hold_fill(surface, room, part)

    def _sound_row(self) -> pygame.Rect | None:
        """The "Sound off"/"Sound on" row of a menu in view (the pause menu's), else None."""
        menu = next((m for screen in (self.mode, getattr(self.mode, "mode", None))  # (a setup's question)
                     if isinstance(m := getattr(screen, "menu", None), Menu)), None)
        rows = menu.item_rects() if menu is not None else {}
        return next((r for i, r in rows.items() if menu.items[i].value == "mute"), None)

    def _draw_sound_hold(self, surface: pygame.Surface, avoid: list[pygame.Rect]) -> None:
        """SELECT held for the sound where no "Sound off" row shows: the sign's chip fills where the sign stands,
        drawn after the announcer's (``avoid`` as it was given), so it is not painted over. Sound on: the "Sound off"
        sign the hold will bring, drawn there as it builds; off: the sign itself. The fill sat on the highlighted row
        ("Free play" filled like a progress bar read "hold to start it", and at 2 s the sound went off) or on ≡ (read
        "the menu is coming")."""
        held = self._button_held()
        if held is None or held[0] is not Button.SELECT or self.announcer is None or self._sound_row() is not None:
            return
        if any(e.button is Button.SELECT for _, e in getattr(self.mode, "hint_taps", ())):
            return  # (a framed SELECT hint: filled by ``_draw_button_hold``)
        sign = self.announcer.mute_rect or draw_mute_indicator(surface, t("core.sound_off", self.lang), avoid)
        hold_fill(surface, _frame_room(sign), held[1])

    def handle_pygame_event(self, ev: pygame.event.Event) -> None:
        if ev.type == pygame.QUIT:
            self.running = False
        elif ev.type == pygame.KEYDOWN and ev.key == pygame.K_ESCAPE:
            on_escape = getattr(self.mode, "on_escape", None)
            if on_escape is not None:
                on_escape()  # a screen with edits of its own leaves the way its back button does
            elif self._in_game():
                self.pause_menu()
            elif self.session is not None:
                self._back_to_game()
            else:
                self.main_menu()
        elif ev.type in (pygame.KEYDOWN, pygame.KEYUP):
            # while a name is typed, letter keys are letters (TEXTINPUT), not ROLL/REROLL/TIMER/UNDO
            # a key's release always: pressed as a button just as typing began, it stayed "held" (and stuck)
            typing = getattr(self.mode, "wants_text", False) and ev.key not in TEXT_ENTRY_BUTTON_KEYS
            erase = getattr(self.mode, "on_backspace", None) if getattr(self.mode, "wants_text", False) else None
            if erase is not None and ev.key == pygame.K_BACKSPACE and ev.type == pygame.KEYDOWN:
                # a letter deleted at every press (as UNDO, the 0.35 s double-press guard lost every other one of
                # a quick run of presses) and on while held (``_erase_repeat``), as any text field does
                erase(held=False)
                self._erase_held = (0.0, REPEAT_DELAY)
            elif ev.type == pygame.KEYUP or not typing:
                if ev.key == pygame.K_BACKSPACE:
                    self._erase_held = None
                self.keys.handle(ev)
        elif ev.type == pygame.TEXTINPUT:
            on_text = getattr(self.mode, "on_text", None)
            if on_text is not None:
                on_text(ev.text)
        elif (pointer := self.display.pointer_of(ev) if self.display is not None else
              pointer_of(ev, lambda pos: pos, _design_finger)) is not None:  # (no screen: a test's, in design pixels)
            self._on_pointer(*pointer)
        elif ev.type == pygame.VIDEORESIZE and self.display is not None:
            self.display.resized(ev.size)

    def _erase_repeat(self, dt: float) -> None:
        """Backspace held while a name is typed deletes on, after REPEAT_DELAY every REPEAT_INTERVAL (the arcade
        buttons' own pace for a held NEXT); it stops at the name's first letter and does not leave the name."""
        erase = getattr(self.mode, "on_backspace", None) if getattr(self.mode, "wants_text", False) else None
        if self._erase_held is None or erase is None:
            self._erase_held = None
            return
        held, due = self._erase_held
        held += dt
        for _ in range(32):  # a long frame's repeats at once, bounded (a name has 20 letters at most)
            if held < due:
                break
            erase(held=True)
            due += REPEAT_INTERVAL
        self._erase_held = (held, due)

    def _repeating_row(self, button: Button = Button.SELECT) -> Any:
        """What ``button`` would press where it is pressed again and again, else None: what the screen names
        (``presses_again``: a letter of the name grid, UNDO deleting one there, Echt Spitze's final +/-), or for
        SELECT a menu row so marked (``MenuItem.repeats``: the pause menu's Louder, Quieter)."""
        own = getattr(self.mode, "presses_again", None)
        if callable(own) and (value := own(button)) is not None:
            return value
        menu = getattr(self.mode, "menu", None)
        if button is not Button.SELECT or not isinstance(menu, Menu) or not menu.items:
            return None
        item = menu.items[menu.index % len(menu.items)]
        return item.value if item.repeats and item.enabled else None

    def _repeats(self, button: Button) -> bool:
        """A second press of ``button`` soon after the first is meant, no double press: what it presses is pressed
        again and again, and it is what the last such press pressed (at the loudest the highlight moves to
        "Quieter", and a second quick press on "Louder" would have turned it down; a name typed full moves it to
        Done). "Anna", "Otto", "Hannah" lost every other quick letter, and six quick "+" counted three."""
        row = self._repeating_row(button)
        return row is not None and row == self._pressed_again.get(button)

    def _say_stuck(self) -> None:
        """A button held down for STUCK_AFTER is said once, by its name on the box: stuck, a stuck NEXT spun the
        highlight for ever and a stuck SELECT lay dead after its one long press, and nobody knew why. The buttons'
        own STUCK_AFTER, when they stop repeating: a number of the app's own would drift from it."""
        stuck = {b for tracker in self._trackers() for b in tracker.stuck(STUCK_AFTER)}
        if new := sorted(stuck - self._stuck_said, key=lambda b: b.value):  # all of them in one notice
            names = ", ".join(t(f"core.btn_{b.value}", self.lang) for b in new)
            self.show_notice(t("core.button_stuck", self.lang, button=names, seconds=int(STUCK_AFTER)), seconds=8)
        self._stuck_said = stuck  # said again only after it came up and stuck anew

    # -- the loop --------------------------------------------------------------------------------------------
    def frame(self, dt: float, events: list[pygame.event.Event] | None = None) -> None:
        """One frame: events, buttons, dice, update, draw. Tests call this directly.

        A game's screen that fails (a bug: the end screen of a finished Fritzo building did) goes back to the main
        menu with a word for the table where ``catch_failures``: stopped, the kiosk came back on the same game's
        end screen (shown again for six hours) and stopped again, a black panel at the table's best moment. Every
        step is in the journal before the screen shows it, so the menu offers the game again. A failure with no game
        before or after it (the menus, the devices) still stops the companion, which says so (``runtime``)."""
        if not self.catch_failures:
            self._frame(dt, events)
            return
        in_game = self.session is not None  # or one entered in this frame (Resume): its first draw is covered too
        try:
            self._frame(dt, events)
        except Exception:
            if not in_game and self.session is None:
                raise
            self._game_failed()

    def _game_failed(self) -> None:
        """Leave the game whose screen failed for the main menu, and say so in words true of its journal."""
        log.exception("a game's screen failed; back to the main menu")
        if self.session is not None and self.session.engine.finished:
            key = "core.screen_failed_over"  # put in the history by the menu
        elif self.session is not None and self.session.unsaved is not None:
            key = "core.screen_failed_unsaved"  # a card refusing writes: "saved up to its last step" is not so
        else:
            key = "core.screen_failed"
        self.main_menu()
        self.show_notice(t(key, self.lang), seconds=20)

    def _frame(self, dt: float, events: list[pygame.event.Event] | None) -> None:
        now = self.clock()
        self.frame_clock.tick(now)
        for ev in events if events is not None else pygame.event.get():
            self.handle_pygame_event(ev)
        self._erase_repeat(dt)
        self._hold_hint(now)
        again = frozenset(b for b in (Button.SELECT, Button.UNDO) if self._repeats(b))
        for source in (self.keys, self.buttons):  # each SELECT on "Louder" counts, however quick (``again``)
            tracker = getattr(source, "tracker", None)
            if isinstance(tracker, PressTracker):
                tracker.again = again
        button_events = self.keys.poll()
        if self.buttons is not None:
            button_events += self.buttons.poll()
        for be in button_events:
            if be.button in (Button.SELECT, Button.UNDO) and be.press is Press.SHORT:
                self._pressed_again[be.button] = self._repeating_row(be.button)
            self.on_button(be)
        self._say_stuck()
        if self.watcher is not None and self.watcher.source is not self.source:
            self._camera_found()
        self._watch_camera(now)
        self._camera_back()
        if self.watcher is not None:
            # a screen may want every rest of the tray, not only after ROLL (free play; a die taken away)
            self.watcher.auto = bool(getattr(self.mode, "auto_read", False))
            # ... but a hand held still over a die is no rest where a die gone is a die taken (Echt Spitze's take)
            self.watcher.skip_hand_rests = bool(getattr(self.mode, "hand_rest_unread", False))
            while not self.watcher.readings.empty():
                reading = self.watcher.readings.get_nowait()
                if self._unthrown_tray and self.session is not None:
                    continue
                if self.session is not None and self.session.camera_ready:
                    self.session.latest_reading = reading
                    # a refusal is about the reading it refused ("3 dice seen, 4 are played"): it stood on over
                    # the next throw's question about a die, until answered; one still wrong is refused again
                    self.session.error = None
                    # a screen's answer that is no error (free play's "these dice are read already"): not in red
                    if isinstance(said := self.mode.on_dice(reading), str):
                        self.show_notice(said, seconds=6, info=True, screen=self.mode)
                    self._say_why_unsure(reading)
                elif self.session is None and getattr(self.mode, "auto_read", False):
                    self.mode.on_dice(reading)  # a screen outside the games that reads (the camera check)
            # the tray moving, after its readings (a screen shows a read on its way until the reading comes)
            on_tray, tray = getattr(self.mode, "on_tray", None), getattr(self.watcher, "tray", None)
            if on_tray is not None and tray is not None and self.session is not None and self.session.camera_ready:
                on_tray(tray(self.clock()))
        on_frame = getattr(self.mode, "on_frame", None)
        if on_frame is not None and self.watcher is not None:
            thrown = getattr(self.watcher, "thrown", 0)
            if thrown != self._thrown_seen:  # the frames from here on show the new throw (or replayed photo)
                self._thrown_seen = thrown
                new_tray = getattr(self.mode, "on_new_tray", None)
                if new_tray is not None:
                    new_tray()
            frame = self.watcher.latest_frame
            if frame is not None and frame is not self._last_frame_shown:
                self._last_frame_shown = frame
                on_frame(frame)
        self.mode.update(dt, now)
        if self.game_mode is not None and self.mode is not self.game_mode:
            # a menu over the game: its clocks run on (a sand timer does not stop for the volume) and time's up
            # is said on time, over the menu, whose line says so
            self.game_mode.update(dt, now)
            if self.mode is self._pause_mode:
                self.mode.subtitle = self._pause_line()
        self._say_refusal()
        if self.announcer is not None:
            self.announcer.update(now)
        if self.display is not None:
            self.draw(self.display.canvas)
            self.display.present()
        self.journal.flush_snapshot()  # the step on the screen first: the journal already holds it

    def draw(self, surface: pygame.Surface) -> None:
        self.mode.draw(surface)
        self._draw_hold(surface)
        self._draw_button_hold(surface)
        if self.clock() < self._unused_until:  # a press the screen took not: its hint bar lit (``_answer_press``)
            bar = pygame.Rect(0, theme.DESIGN_SIZE[1] - HINT_BAR_H, theme.DESIGN_SIZE[0], HINT_BAR_H)
            surface.fill(UNUSED_LIGHT, bar, special_flags=pygame.BLEND_RGB_ADD)
        in_game = self._in_game()
        if in_game:
            _draw_menu_corner(surface)
        if self._game_over():  # the game's own hints would offer moves there are none of
            surface.fill(theme.BG, pygame.Rect(0, theme.DESIGN_SIZE[1] - 34, theme.DESIGN_SIZE[0], 34))
            self._over_hints = [hint_button(surface, r) for r in hint_bar(surface, [
                (t("core.btn_select", self.lang), t("core.hint_play_again", self.lang)),
                (t("core.btn_undo", self.lang), t("core.hint_menu", self.lang))])]  # framed: a finger's buttons
        error = self.session.error if self.session is not None else None
        notice = self.notice if self.clock() < self.notice_until else None
        if self.notice_screen is not None and self.mode is not self.notice_screen:
            notice = None  # why a press did nothing on a screen left since
        if self.notice_step is not None and self._moment() != self.notice_step:
            notice = None  # ... or at a step of the game (a setup's question) the table has left since
        # the game that cannot be saved is said beside a refusal or a notice, never under it: on a write-protected
        # card a refusal took the strip's place, and the table played on unwarned
        unsaved = self._unsaved() if in_game else None
        kind = "error" if error else "notice" if notice else "state"
        message = f"{error or notice} {unsaved}" if (error or notice) and unsaved else error or notice or unsaved
        if self.watcher is not None and self.watcher.error:
            failure = getattr(self.watcher, "failure", None)
            if not message:
                message = t("core.camera_trouble", self.lang,
                            error=said(failure, self.lang) if failure is not None else self.watcher.error)
                if self._camera_offer() and self.mode is not self._pause_mode:  # (over the menu: its first row)
                    message = f"{message} {self._offer_words()}"
        calm = False
        if self.watcher is not None and in_game and not message:
            why = self.watcher.why_waiting(self.clock())  # ROLL pressed a while ago and no dice read: say why
            message = t(f"core.waiting_{why}", self.lang) if why else None
            calm = why in ("hand", "moving", "dark")  # the table's doing, no fault: not in the red of a camera failing
        hourglass = getattr(self.mode, "hourglass_rect", None)
        focus, in_view = self._focus_rect(), list(getattr(self.mode, "in_view", ()))
        banner = None
        if self.announcer is not None:
            corner = [MENU_CORNER] if in_game else []
            # banners keep off the hint bar (``banner.place``): at a game's end its two buttons (play again, menu)
            banner = self.announcer.draw(surface, hourglass or focus, corner, in_view,
                                         getattr(self.mode, "banner_room", None))
            self._draw_sound_hold(surface, [r for r in (hourglass or focus, banner, *corner, *in_view) if r])
        self._banner = banner
        self._strip = None
        if not message or (message == self._strip_hidden[0] and self.clock() < self._strip_hidden[1]):
            return
        tone = self.notice_tone if message is notice else "info" if calm else "bad"  # the unsaved game's: trouble
        # a refusal for the whole table to read (whose move did not count, and why): FAR where it fits
        largest = theme.FAR if kind == "error" else theme.BODY
        names = self._seat_names()  # a line breaks between names, never inside one ("Großvater / Jürgen")
        height = theme.DESIGN_SIZE[1]
        top = banner.bottom if banner is not None and banner.top < height // 3 else 0
        if hourglass is None:  # above the hint bar, and above a banner there (a game's start has both)
            low = banner is not None and banner.bottom > height * 2 // 3
            bottom = min(height - 40, banner.top - 8) if low else height - 40
            # at the top where it would cover what SELECT chooses or what the screen keeps in view (for ten
            # seconds "game resumed" hid the score buttons, "not taught yet" the only button, "Roll"); where both
            # cover some of it, the one that spares what comes first: what SELECT chooses (Noch X-Mal!'s start keeps
            # the cards in view at the top), then the screen's ``in_view`` in its order (Fritzo's start keeps its
            # colours to answer before its top line: "built-in cubes" stood over the colours under a banner there)
            keep = [r for r in (focus, *in_view) if r is not None]
            # the rooms a screen keeps free, in its order (Fritzo's band over its cubes, a banner's at their start;
            # a race's band under its clock, then beside it): the built-in cubes' notice stood over the top line or
            # the cubes' third row for its ten seconds, and a damaged game's three lines, too tall for the band under
            # the race's clock, over the clock for theirs
            room, fill, waits = None, False, False
            answer = kind == "notice" and self.notice_answers
            banner_room = getattr(self.mode, "banner_room", None)
            for each in banner_rooms(getattr(self.mode, "notice_room", None)):
                # a room the screen keeps for its banners too is filled as a banner fills it (``banner.place``)
                filled = banner_room is not None and each == banner_room
                _, size, laid = _notice_layout(message, tone=tone, room=each, fill=filled, largest=largest,
                                               names=names)
                if not (each.contains(laid) and size >= theme.SMALL):  # not 14 px lines to fit it
                    continue
                # clear of a banner: under one at the top, and off one drawn lower (the firsts' banner at Echt
                # Spitze's foot stands in the band kept under the firsts' line: the strip stood over its words).
                # An answer to a tap or press takes the first room it fits, over a banner there (``show_notice``):
                # waiting, Noch X-Mal!'s "Zoé's pair is set …" came 6.7 s after the die tapped, and a later room is
                # over what the screen keeps in view (the cards' names); the banner was heard, and shows around it
                if answer or top <= each.top and not (banner is not None and laid.colliderect(banner)):
                    # words that may wait for the banner in an earlier room wait, rather than stand in a later one
                    # over what the screen keeps in view (Noch X-Mal!'s "Zoé's pair is set …" over the cards' names,
                    # a fourth roll's banner filling the board's column over the prompt's band)
                    if not (waits and any(laid.colliderect(k) for k in keep)):
                        room, fill = each, filled
                    break
                waits = waits or (kind == "notice" and tone == "info"
                                  and self.clock() < self._notice_shown + NOTICE_WAITS)
            if room is None and waits:
                # a banner stands in the room: the words wait for it (their seconds from when they are shown),
                # rather than over the cubes' third row for the start's eight seconds
                self.notice_until = self.clock() + self._notice_seconds
                return
            if room is not None:
                rect = _draw_notice(surface, message, tone=tone, room=room, fill=fill, largest=largest, names=names)
            else:
                below = _notice_layout(message, tone=tone, bottom=bottom, largest=largest, names=names)[2]
                above = _notice_layout(message, tone=tone, top=top, at_top=True, largest=largest, names=names)[2]
                high = first_covered(above, keep) > first_covered(below, keep)
                rect = _draw_notice(surface, message, tone=tone, bottom=bottom, top=top, at_top=high, largest=largest,
                                    names=names)
        else:  # at the top, as the banners are: under a banner shown there
            rect = _draw_notice(surface, message, tone=tone, avoid=hourglass, top=top, largest=largest, names=names)
        self._strip = (rect, message, kind)  # a tap puts the refusal or notice away: the unsaved game's words stay

    def _seat_names(self) -> tuple[str, ...]:
        """The players of the game on the screen, as its setup names them (none outside a game): a notice's lines
        keep them whole."""
        players = self.session.actions[0].get("players") if self.session is not None and self.session.actions else None
        return tuple(p for p in players if isinstance(p, str)) if isinstance(players, list) else ()

    def _tap_strip(self, pos: tuple[int, int]) -> bool:
        """A tap on the strip of words puts it away: it covered what the finger wanted, and the tap must not act on
        what it hid (a menu line under "not taught yet", a step under "One step undone"). A refusal is read, a
        notice is over; a lasting state (not saved, the camera's trouble) stays away for STRIP_HIDDEN seconds. The
        camera's trouble that offers the built-in dice opens the pause menu on that row instead (touch alone)."""
        if self._strip is None or not self._strip[0].collidepoint(pos):
            return False
        _, message, kind = self._strip
        if kind == "error" and self.session is not None:
            self.session.error = None
        elif kind == "notice":
            self.notice_until = 0.0
        elif self._offer_words() in message:  # the camera's way on: a finger is taken to it (its row first)
            self.pause_menu()
        else:
            self._strip_hidden = (message, self.clock() + STRIP_HIDDEN)
        self._strip = None
        return True

    def _focus_rect(self) -> pygame.Rect | None:
        """What SELECT would choose on the screen (a view's ``focus_rect``, else its menu's highlighted item):
        a banner keeps clear of it, so the table sees what it is about to choose."""
        focus = getattr(self.mode, "focus_rect", None)
        if focus is None:
            menu = getattr(self.mode, "menu", None)
            focus = menu.focus_rect() if isinstance(menu, Menu) else None
        return focus

    def run(self, max_frames: int | None = None) -> None:
        fps = self.cfg.display.fps
        tick = pygame.time.Clock()
        previous = signal.signal(signal.SIGTERM, lambda *_: setattr(self, "running", False))
        frames = 0
        try:
            while self.running and (max_frames is None or frames < max_frames):
                dt = tick.tick(fps) / 1000.0
                self.frame(dt)
                frames += 1
        except KeyboardInterrupt:
            pass
        finally:
            signal.signal(signal.SIGTERM, previous)
            self.close()


#: keys that stay buttons while a name is typed: delete, finish, move the highlight
TEXT_ENTRY_BUTTON_KEYS = frozenset({pygame.K_BACKSPACE, pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_RIGHT,
                                    pygame.K_DOWN, pygame.K_TAB, pygame.K_LEFT, pygame.K_UP})


def _design_finger(x: float, y: float) -> tuple[int, int]:
    """A finger's 0..1 place in design pixels, for an App without a screen (tests)."""
    w, h = theme.DESIGN_SIZE
    return min(int(x * w), w - 1), min(int(y * h), h - 1)


class CameraBack:
    """The lookout for a camera while the built-in tray stands in: the one the table went on without
    (``App._without_camera``, ``back``) or one not there at the start (``App._open_camera``). A camera found is handed
    to the watcher only once ``due`` (the next ROLL, or no game on). Switched at once, the camera's first rest of the
    real tray was read against the built-in dice on the screen: "4 dice missing from the tray: who has which?"."""

    def __init__(self, lookout: Any, *, back: bool = True) -> None:
        self._lookout = lookout
        self.back = back  # the camera was there before (its words: "the camera is back")
        self.found: Any = None  # the camera found (opened), waiting for ``due``
        self.due = False
        self.told = False  # the table was told it is back (``App._camera_back``)

    def poll(self) -> Any:
        """As ``CameraLookout.poll``, on the watcher's thread: the camera, once found and due."""
        if self.found is None:
            self.found = self._lookout.poll()
        return self.found if self.due else None


def _frame_room(frame: pygame.Rect) -> pygame.Rect:
    """The finger room a hint's frame is drawn in (``hint_frame`` the other way): what ``hold_fill`` fills."""
    return pygame.Rect(frame.x - 3, frame.y, frame.w + 6, frame.h + 2 * HINT_FRAME_GAP)


def _draw_menu_corner(surface: pygame.Surface) -> None:
    r = MENU_CORNER.inflate(-12, -12)
    pygame.draw.rect(surface, theme.PANEL, r, border_radius=6)
    for k in range(3):
        y = r.y + 9 + k * 9
        pygame.draw.line(surface, theme.TEXT, (r.x + 8, y), (r.right - 8, y), 3)


def source_words(source: Any, lang: str) -> str:
    """What the dice are read from, for the main menu in the table's language: the sources' own descriptions are
    English technical words for the log and the doctor ("synthetic dice tray (640x480)")."""
    from hardware.sources import CaptureDevice, PhotoFolder, PiCamera, VideoFile
    from hardware.synthetic import SyntheticTray

    if isinstance(source, PiCamera):
        return t("core.source_pi", lang)
    if isinstance(source, CaptureDevice):
        return t("core.source_usb", lang, n=source.index)
    if isinstance(source, PhotoFolder):
        where = "/".join(source.folder.parts[-2:])  # "byler-d6/images": a photo folder is often just "images"
        return t("core.source_photos", lang, folder=where, count=len(source.paths))
    if isinstance(source, VideoFile):
        return t("core.source_video", lang, name=source.path.name)
    if isinstance(source, SyntheticTray):
        return t("core.source_builtin", lang)
    return t("core.source_none", lang) if source is None else str(getattr(source, "description", ""))


#: a notice strip's background and words by its tone: trouble, good news, and what is neither (ringed in the accent)
#: a darker red than the theme's (white on it 6.7:1, was 3.3:1); trouble and good news each also carry a sign
#: (``_strip_sign``): seen without red and green (deuteranopia) the two strips were the same khaki
NOTICE_COLOURS = {"bad": (theme.BAD_DARK, theme.TEXT), "good": (theme.GOOD, theme.BG),
                  "info": (theme.PANEL_HI, theme.TEXT)}
#: the width the sign takes at a strip's left
SIGN_W = 44


def _quoted_within(text: str) -> str:
    """``text`` to stand within quotes: its own quotes become single ones („Alle Würfel“ → ‚Alle Würfel‘)."""
    return text.translate(str.maketrans({"„": "‚", "“": "‘", "”": "’", '"': "'"}))


def _notice_layout(message: str, *, tone: str = "bad", avoid: pygame.Rect | None = None, top: int = 0,
                   bottom: int = theme.DESIGN_SIZE[1] - 40, at_top: bool = False, room: pygame.Rect | None = None,
                   fill: bool = False, largest: int = theme.BODY,
                   names: Sequence[str] = ()) -> tuple[tuple[str, ...], int, pygame.Rect]:
    """The lines, their size and the rect of a strip of words (``_draw_notice``), without drawing it: where it
    would stand (``_notice_laid``, which also says how its lines lean)."""
    return _notice_laid(message, tone=tone, avoid=avoid, top=top, bottom=bottom, at_top=at_top, room=room,
                        fill=fill, largest=largest, names=names)[:3]


def _notice_laid(message: str, *, tone: str = "bad", avoid: pygame.Rect | None = None, top: int = 0,
                 bottom: int = theme.DESIGN_SIZE[1] - 40, at_top: bool = False, room: pygame.Rect | None = None,
                 fill: bool = False, largest: int = theme.BODY, width: int = theme.DESIGN_SIZE[0],
                 lean: bool = False, names: Sequence[str] = ()) -> tuple[tuple[str, ...], int, pygame.Rect, bool]:
    """The lines, their size, the rect of a strip of words and whether its lines lean (``lean``), without drawing it.

    In ``room`` (a view's ``notice_room``) the strip stands from the room's top, its lines as large as fit the room,
    BODY down to SMALL (``theme.fit_lines``): at BODY the damaged game's three lines (116 px) did not fit the band
    under Noch X-Mal!'s cards (107) and stood over the cards for their eight seconds. ``fill``: the strip fills the
    room, its lines in the middle (a room kept for banners, which fill it: under a notice of one line Fritzo's cube
    highlighted over the chooser, drawn there to be covered, stood half out). Where it fits at none of these sizes,
    the strip at BODY from the room's top, taller than the room (the caller puts it elsewhere). ``lean``: the lines
    centred right of the sign rather than between margins as wide as it on both sides, where only that fits them
    in the room (a damaged game's three German lines beside a race's clock: 656 px, with both margins 700 needed).
    ``largest`` over BODY (a refusal: FAR): at that size on up to two even lines where they fit (``theme.far_lines``),
    else as at BODY. ``names``: the players' alone, never broken inside (nor their short forms: the fitting helpers
    expand them, ``theme.kept_whole``): a refusal stood as "... hat schon Großvater" over "Jürgen: nimm einen
    anderen.", read as two people.
    """
    if room is not None:
        for lean in (False, True):
            for size in [*([largest] if largest > theme.BODY else []), *range(theme.BODY, theme.SMALL - 1, -2)]:
                lines, at, rect, leans = _notice_laid(message, tone=tone, top=room.top, at_top=True, largest=size,
                                                      width=room.w, lean=lean, names=names)
                if rect.height <= room.height and (at >= theme.SMALL or size == theme.BODY):
                    return lines, at, pygame.Rect(room) if fill else rect.move(room.x, 0), leans
        lines, at, rect, leans = _notice_laid(message, tone=tone, top=room.top, at_top=True, width=room.w,
                                              names=names)
        return lines, at, rect.move(room.x, 0), leans
    sign = SIGN_W if tone in ("bad", "good") else 0

    def strip(x: int) -> tuple[tuple[str, ...], int, pygame.Rect]:
        w = width - x - 30 - (1 if lean else 2) * sign
        lines, size = theme.far_lines(message, largest, w, names=names) if largest > theme.BODY else ((), 0)
        if size < min(largest, theme.FAR):  # not at FAR on two lines: as many as keep it at BODY or down to SMALL
            lines, size = theme.fit_lines(message, min(largest, theme.BODY), w, max_lines=4, names=tuple(names))
        size = max(14, size)
        h = 14 + len(lines) * (size + 8)
        return lines, size, pygame.Rect(x, top if avoid is not None or at_top else bottom - h, width - x, h)

    lines, size, rect = strip(0)
    if avoid is not None and rect.colliderect(avoid):
        lines, size, rect = strip(avoid.right + 8)  # the strip beside the hourglass where it would cross it
    return lines, size, rect, lean and bool(sign)


def _draw_notice(surface: pygame.Surface, message: str, *, tone: str = "bad", avoid: pygame.Rect | None = None,
                 top: int = 0, bottom: int = theme.DESIGN_SIZE[1] - 40, at_top: bool = False,
                 room: pygame.Rect | None = None, fill: bool = False, largest: int = theme.BODY,
                 names: Sequence[str] = ()) -> pygame.Rect:
    """A strip ending at ``bottom`` (above the hint bar, or above a banner there): red for rule violations and
    device trouble, in words a player understands; green for good news; ``info`` in the panel's colour. While
    ``avoid`` (the running hourglass) is shown the strip stands at the top of the screen, over the scores and clear
    of the hourglass: the table watches the seconds, and the buttons above the hint bar must stay visible to be
    tapped. ``top``: where it starts then (under a banner at the top); ``at_top`` puts it there too. Up to four
    lines, so that a long notice stays readable. ``room``: a view's ``notice_room`` it stands in, ``fill``: fills
    (``_notice_layout``); ``names``: the players', kept whole on a line (``_notice_laid``).
    Returns the strip's rect."""
    lines, size, rect, lean = _notice_laid(message, tone=tone, avoid=avoid, top=top, bottom=bottom, at_top=at_top,
                                           room=room, fill=fill, largest=largest, names=names)
    sign = SIGN_W if tone in ("bad", "good") else 0
    back, ink = NOTICE_COLOURS[tone]
    pygame.draw.rect(surface, back, rect)
    if tone == "info":
        pygame.draw.rect(surface, theme.ACCENT, rect, width=3)
    y = rect.y
    if rect.height > 14 + len(lines) * (size + 8):  # in the middle of a room it fills (``fill``)
        y += (rect.height - (len(lines) - 1) * (size + 8) - theme.font(size, True).get_height()) // 2 - 8
    if sign:
        _strip_sign(surface, tone, (rect.x + 8 + SIGN_W // 2, y + 7 + (size + 8) // 2), ink, back)
    # right of the sign where the lines were laid too wide for a margin as wide as it on both sides (``lean``)
    middle = rect.centerx + (sign // 2 if lean else 0)
    for k, line in enumerate(lines):
        theme.text(surface, line, (middle, y + 8 + k * (size + 8)), size, ink, bold=True, anchor="midtop")
    return rect


def _strip_sign(surface: pygame.Surface, tone: str, centre: tuple[int, int], ink: tuple[int, int, int],
                back: tuple[int, int, int]) -> None:
    """A warning triangle on trouble, a tick on good news, drawn (the bundled font has neither sign)."""
    x, y = centre
    if tone == "bad":
        pygame.draw.polygon(surface, ink, [(x, y - 15), (x - 17, y + 13), (x + 17, y + 13)])
        pygame.draw.line(surface, back, (x, y - 6), (x, y + 3), 4)
        pygame.draw.circle(surface, back, (x, y + 8), 2)
    else:
        pygame.draw.lines(surface, ink, False, [(x - 13, y), (x - 4, y + 10), (x + 14, y - 11)], 6)
