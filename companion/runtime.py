"""Putting the real parts together for ``companion run`` and ``companion teach``: display, sound, buttons, camera."""

from __future__ import annotations

import logging
import math
import os
import sys
import time
from collections.abc import Callable, Hashable

from companion.config import Config

log = logging.getLogger(__name__)


def _announcer(cfg: Config):
    from companion.announcer import Announcer
    from companion.audio import open_audio

    announcer = Announcer(cfg.language, cfg.sound.volume, cfg.sound.mute, audio=open_audio(output=cfg.sound.output),
                          talk=cfg.sound.talk)
    if not cfg.sound.speech:
        announcer.speech.enabled = False
    return announcer


def _buttons(cfg: Config):
    """The arcade buttons, and words for the screen when they cannot be used: on a Pi the family presses them, and
    a log line alone would leave them pressing buttons that do nothing."""
    from companion.config import config_words
    from companion.errors import ConfigError
    from companion.i18n import join_names, t
    from hardware.buttons import ButtonPanel
    from hardware.events import Button

    try:
        panel = ButtonPanel({Button(k): v for k, v in cfg.buttons.pins.items()}, hold_time=cfg.buttons.hold_time,
                            debounce=cfg.buttons.debounce)
    except ConfigError as exc:  # two buttons on one pin: which ones, as the config says it ("buttons failed" did not)
        log.warning("buttons unavailable: %s", exc)
        return None, config_words(exc, cfg.language)
    except Exception as exc:  # GPIO busy or absent: the keyboard and touch still work
        log.warning("buttons unavailable: %s", exc)
        return None, t("core.buttons_failed", cfg.language)
    words = []
    if unusable := getattr(panel, "unusable", {}):  # one busy pin: its button named, the others work (it took all six)
        names = join_names([f"{t(f'core.btn_{b.value}', cfg.language)} (GPIO {pin})" for b, pin in unusable.items()],
                           cfg.language)
        words.append(t("core.buttons_some_failed" if len(unusable) > 1 else "core.button_some_failed", cfg.language,
                       buttons=names))
    if down := getattr(panel, "down_at_start", []):  # a shorted pin, a switch wired the wrong way: dead, unsaid
        names = join_names([t(f"core.btn_{b.value}", cfg.language) for b in down], cfg.language)
        words.append(t("core.buttons_down_at_start" if len(down) > 1 else "core.button_down_at_start", cfg.language,
                       buttons=names))
    return panel, " ".join(words) or None


def _keyboard_buttons(buttons) -> None:
    """Where the keyboard is the table's buttons (mock pins off a Pi, or none), the hint bar names its keys: a
    laptop's newcomer saw "ROLL roll" and had no key named anywhere on the screen or the terminal."""
    from companion.views.widgets import name_keys

    name_keys(buttons is None or bool(getattr(buttons, "mock", False)))


def _stopped(what_is_kept: str) -> int:
    """Never a traceback on the table's screen: log it for the bug report, tell the table in words."""
    log.exception("the companion stopped")
    print(f"companion: something went wrong and the companion stopped; {what_is_kept}. Details are in the log.",
          file=sys.stderr)
    return 1


#: how long the stopped screen's words stay before the screen is let go (systemd starts it again 3 s later): a crash
#: at the start left the kiosk black, restarting every few seconds with not a word for the family
STOPPED_SECONDS = 10.0


def _show_words(display, title: str, words: str) -> None:
    """A whole screen of words, presented at once: the first picture at switch-on, the last one when it stops. The
    table reads both from its seats (the title LARGE, the words at FAR or larger)."""
    from companion.views import theme

    canvas = display.canvas
    canvas.fill(theme.BG)
    width, height = theme.DESIGN_SIZE
    lines, size = theme.far_lines(words, theme.LARGE, width - 80, max_lines=5)
    title_h, line_h = theme.font(theme.LARGE).get_height(), theme.font(size).get_height() + 4
    y = (height - title_h - 24 - len(lines) * line_h) // 2
    theme.text(canvas, title, (width // 2, y), theme.LARGE, theme.ACCENT, anchor="midtop")
    y += title_h + 24
    for line in lines:
        theme.text(canvas, line, (width // 2, y), size, anchor="midtop")
        y += line_h
    display.present()


def _splash(display, lang: str) -> None:
    """The first picture, as soon as the screen is open: the kiosk stood black for 2 s (the built-in tray) to 6-9 s
    (a Pi camera settling and focusing) before the first frame, and a family took it for not starting."""
    from companion.i18n import t

    _show_words(display, t("core.app_title", lang), t("core.starting", lang))


def _hold(display, seconds: float, *, step: float = 0.1, sleep: Callable[[float], object] = time.sleep) -> None:
    """Keep the picture on the screen for ``seconds`` (Escape or closing the window ends it early); bounded."""
    import pygame

    for _ in range(max(0, round(seconds / step))):
        for ev in pygame.event.get():
            if ev.type == pygame.QUIT or (ev.type == pygame.KEYDOWN and ev.key == pygame.K_ESCAPE):
                return
        display.present()  # shown again after a while (``REFRESH_SECONDS``): a window covered gets it back
        sleep(step)


def _stopped_screen(display, lang: str, key: str) -> None:
    """The stopped words on the table's screen, kept :data:`STOPPED_SECONDS`, before it is let go. Called in the
    handler of what stopped it; whatever fails here is logged, and the stop goes on."""
    from companion.i18n import t

    try:
        _show_words(display, t("core.stopped_title", lang), t(key, lang))
        _hold(display, STOPPED_SECONDS)
    except Exception:  # noqa: BLE001 - the screen's last words are a courtesy: the stop itself must go on
        log.exception("showing the stopped screen")


def _forget_key_names() -> None:
    """The run's key names end with it (a test's App after it); none were named where their module never loaded
    (a start that failed before it: OpenCV comes with it, after the splash)."""
    widgets = sys.modules.get("companion.views.widgets")
    if widgets is not None:
        widgets.name_keys(False)


def _terminal_reads() -> bool:
    """Whether a person reads this run's terminal (typed over ssh or in a terminal window); not the boot service's
    journal or a desktop's menu entry, whose words nobody sees unless they are on the screen."""
    try:
        return sys.stderr is not None and sys.stderr.isatty()
    except (OSError, ValueError):
        return False


def _refused(cfg: Config, busy) -> int:
    """Another companion holds the table's files (``companion.lock``): said on the terminal, and on the screen where
    no one reads a terminal. There the words stay :data:`STOPPED_SECONDS` (and where no screen opens, the wait is
    the same), so that the boot service, which starts it again 3 s after it exits, tries about every 13 s: no
    tight loop of flashing screens, and the table is its own again soon after the other has finished."""
    from companion import lock
    from companion.display import Display
    from companion.i18n import t

    print(f"companion: {busy}", file=sys.stderr, flush=True)
    if _terminal_reads():
        return lock.BUSY_EXIT
    words = lock.busy_words(busy.pid, busy.command, cfg.language, retry=bool(os.environ.get("INVOCATION_ID")))
    display = None
    try:
        display = Display((cfg.display.width, cfg.display.height), cfg.display.fullscreen, rotate=cfg.display.rotate)
        _show_words(display, t("core.busy_title", cfg.language), words)
    except Exception:  # noqa: BLE001 - the screen is the other companion's, or none: the words are in the journal
        log.warning("the refusal could not be shown on the screen", exc_info=True)
        if display is not None:
            display.close()
        time.sleep(STOPPED_SECONDS)
        return lock.BUSY_EXIT
    try:
        _hold(display, STOPPED_SECONDS)
    finally:
        display.close()
    return lock.BUSY_EXIT


def run_app(cfg: Config, *, source_spec: str | None = None, screenshot: str | None = None,
            max_frames: int | None = None, notice: str | None = None) -> int:
    """Start the companion, holding the table's files (``companion.lock``) while it runs: a second one is refused
    (:func:`_refused`) before it opens anything. ``screenshot`` (with ``max_frames``) saves the last frame: used to
    check it headless. ``notice``: words for the table at the start (a config file that could not be used)."""
    from companion import lock

    try:
        held = lock.take("run", cfg.language)
    except lock.Busy as busy:
        return _refused(cfg, busy)
    with held:
        return _run_held(cfg, source_spec=source_spec, screenshot=screenshot, max_frames=max_frames, notice=notice)


def _run_held(cfg: Config, *, source_spec: str | None, screenshot: str | None, max_frames: int | None,
              notice: str | None) -> int:
    """The run itself, the lock held (``run_app``)."""
    import pygame

    from companion.display import Display
    from companion.i18n import t

    # the screen first, and a picture on it at once: OpenCV, the games and the camera come after, behind the splash
    display = Display((cfg.display.width, cfg.display.height), cfg.display.fullscreen, rotate=cfg.display.rotate)
    _splash(display, cfg.language)
    from companion import version

    print(f"companion: version {version()}", flush=True)  # in the journal, for whoever reads it after a bug
    announcer = None
    try:
        from companion.app import App
        from companion.audio import missing_output_words, no_sound_words
        from companion.games_ui import register_all

        register_all()
        announcer = _announcer(cfg)
        buttons, buttons_failed = _buttons(cfg)
        _keyboard_buttons(buttons)
        print(f"companion: {t('core.keys_line', cfg.language)}", flush=True)  # once: the keys on a laptop's terminal
        app = App(cfg, source_spec=source_spec, display=display, announcer=announcer, buttons=buttons,
                  start_free_play=True, catch_failures=True)
    except Exception:
        code = _stopped("nothing saved was changed")
        _stopped_screen(display, cfg.language, "core.stopped_start")
        if announcer is not None:
            announcer.close()
        display.close()
        _forget_key_names()
        return code
    if notice:
        log.warning("%s", notice)
    # no sound device (a speaker not plugged in at boot): the announcements show as banners only, and the table
    # should know that rather than wait for words that never come
    silent = None if announcer.audio.available else no_sound_words(cfg.language)
    elsewhere = getattr(announcer.audio, "output_missing", "") and missing_output_words(announcer.audio, cfg.language)
    small = display.small_words(cfg.language)  # a 3.5" panel: said once, as nothing else would say it
    notices = [n for n in (notice, small, buttons_failed, silent, elsewhere) if n]
    if notices:
        app.show_notice(" ".join(notices), seconds=30)
    if hasattr(buttons, "tracker"):  # pressed on the black screen while the app was built: acted on nothing seen
        buttons.tracker.ignore_before()
    try:
        app.run(max_frames=max_frames)
        if screenshot:
            pygame.image.save(display.canvas, screenshot)
    except Exception:
        code = _stopped("the game is saved. Start it again to resume")
        _stopped_screen(display, cfg.language, "core.stopped_run")
        return code
    finally:
        announcer.close()
        display.close()
        _forget_key_names()
    return 0


class _LiftedTaps:
    """A finger's or the mouse's taps on the teaching screen of ``companion teach``, taken as the pointer lifts
    near where it touched, as the App takes its taps (``App._on_pointer``): taken at the touch, a finger that slid
    off a face's row answered that face, and a tap here felt unlike a tap anywhere else on the table."""

    def __init__(self, on_tap: Callable[[tuple[int, int]], object]) -> None:
        self.on_tap = on_tap
        self._down: tuple[Hashable, tuple[int, int]] | None = None  # the pointer down and where it touched
        self._moved = False  # slid farther than a tap's wobble (``app.SWIPE``): no tap

    def __call__(self, kind: str, pointer: Hashable, pos: tuple[int, int] | None) -> None:
        from companion.app import SWIPE

        if kind == "down":  # the last one down is the one that taps (a lifting never seen blocks nothing)
            self._down, self._moved = (pointer, pos) if pos is not None else None, False
            return
        if self._down is None or self._down[0] != pointer:
            return
        if pos is None or math.dist(pos, self._down[1]) > SWIPE:
            self._moved = True
        if kind == "up":
            start, self._down = self._down[1], None
            if not self._moved:
                self.on_tap(start)


def run_teach(cfg: Config, dice_set: str, *, source_spec: str | None = None) -> int:
    """The interactive teaching screen: each die the camera finds is shown and the player says which face it is."""
    import pygame

    from companion import dicesets
    from companion.app import FRITZO_CUBES
    from companion.display import Display
    from companion.i18n import t
    from companion.views.teach_view import TeachView
    from companion.views.widgets import name_keys
    from hardware.events import Button
    from hardware.keyboard import KeyboardButtons
    from hardware.sources import open_source

    if dice_set != FRITZO_CUBES:  # a mistyped name: its one line ("Known sets: ...") before a window or camera opens
        dicesets.load(dice_set)
    source = open_source(source_spec or cfg.camera)  # SourceError: one clear line, before any window opens
    display = Display((cfg.display.width, cfg.display.height), cfg.display.fullscreen, rotate=cfg.display.rotate)
    keys = KeyboardButtons(hold_time=cfg.buttons.hold_time)
    buttons, _ = _buttons(cfg)  # its failure is logged on the terminal that started the teaching
    _keyboard_buttons(buttons)
    finished = False

    def done() -> None:
        nonlocal finished
        finished = True

    from companion.app import cube_set_mode, tray_shows
    from companion.teach import reader_for_set
    from hardware.synthetic import SyntheticTray

    if isinstance(source, SyntheticTray) and tray_shows(source, None if dice_set == FRITZO_CUBES else dice_set):
        source.roll()  # the set's own dice, as the main menu's "Teach dice" throws them: not pip dice
    def throw() -> None:
        source.roll()  # the built-in tray throws, a replay shows its next photo; a camera: by hand
        new_tray = getattr(view, "on_new_tray", None)
        if new_tray is not None:  # the next frame read is the new tray's: no hand over the last one
            new_tray()

    if dice_set == FRITZO_CUBES:  # a damaged Fritzo profile stops here, said in words, kept aside (ProfileDamaged)
        view = cube_set_mode(cfg.language, done, reader_for_set("fritzo"))
    else:
        from companion.teach import camera_name

        view = TeachView(dice_set, cfg.language, on_done=done, throw=throw, virtual=isinstance(source, SyntheticTray),
                         camera=camera_name(source))  # (kept with each photo: the camera check's "taught elsewhere")
        if len(view.profile):  # said, as the menu's teaching says it: the answers are added to what is there
            print(f"companion: {t('core.teach_taught_cli', cfg.language, count=len(view.profile), set=dice_set)}",
                  flush=True)
    clock = pygame.time.Clock()
    taps = _LiftedTaps(view.on_tap)
    try:
        while not finished:
            dt = clock.tick(cfg.display.fps) / 1000.0
            for ev in pygame.event.get():
                if ev.type == pygame.QUIT or (ev.type == pygame.KEYDOWN and ev.key == pygame.K_ESCAPE):
                    return 0
                if ev.type in (pygame.KEYDOWN, pygame.KEYUP):
                    keys.handle(ev)
                elif (pointer := display.pointer_of(ev)) is not None:  # a finger too: the kiosk's touch screen
                    taps(*pointer)
            for be in keys.poll() + (buttons.poll() if buttons else []):
                if be.button is Button.ROLL:
                    throw()
                view.on_button(be)
            frame = source.read()
            if frame is not None:
                view.on_frame(frame)
            view.update(dt, pygame.time.get_ticks() / 1000.0)
            view.draw(display.canvas)
            display.present()
    except Exception:
        return _stopped("every face answered is saved. Start the teaching again to go on")
    finally:
        source.close()
        if buttons:
            buttons.close()
        display.close()
        name_keys(False)
    return 0
