"""``companion run`` at the start: what a Pi with nobody at a terminal must still say on its screen."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion import runtime
from companion.app import App
from companion.config import Config
from companion.views import theme


def _notices(monkeypatch) -> list[str]:
    """The words of every notice the App shows from now on (shown as well)."""
    shown: list[str] = []
    show_notice = App.show_notice

    def watched(self, text, seconds=5.0, *, good=False):
        shown.append(text)
        show_notice(self, text, seconds, good=good)

    monkeypatch.setattr(App, "show_notice", watched)
    return shown


def test_buttons_that_cannot_start_are_said_on_the_screen(monkeypatch, out_dir):
    """GPIO busy, or no pin library for this Pi: the keyboard and touch still work, and the screen says so. A log
    line alone left a family pressing arcade buttons that did nothing."""
    from hardware import buttons

    def broken(*args, **kwargs):
        raise RuntimeError("GPIO busy")

    monkeypatch.setattr(buttons, "ButtonPanel", broken)
    shown = _notices(monkeypatch)
    shot = out_dir / "run_buttons_failed.png"
    cfg = Config(language="en")
    cfg.display.fullscreen = False
    assert runtime.run_app(cfg, source_spec="synthetic:1", max_frames=3, screenshot=str(shot)) == 0
    assert any("arcade buttons do not work" in text for text in shown)
    img = cv2.imread(str(shot))
    strip = np.all(np.abs(img.astype(int) - theme.BAD_DARK[::-1]) < 8, axis=2)  # the trouble strip's red, in BGR
    assert strip[300:440].mean() > 0.2


def test_no_sound_device_is_said_on_the_screen(monkeypatch):
    """A speaker not plugged in at boot: the announcements show as banners only, and the table is told so rather
    than waiting for words that never come."""
    from companion import audio

    monkeypatch.setattr(audio, "open_audio", lambda **_: audio.NullAudio("no device"))
    monkeypatch.setattr(audio, "PIPEWIRE_ALSA_DEFAULT", "/nonexistent/99-pipewire-default.conf")  # ALSA alone
    shown: list[str] = []
    monkeypatch.setattr(App, "show_notice", lambda self, text, seconds=5.0, *, good=False: shown.append(text))
    cfg = Config(language="en")
    cfg.display.fullscreen = False
    assert runtime.run_app(cfg, source_spec="synthetic:1", max_frames=2) == 0
    assert any("No sound device" in text for text in shown)


def test_silent_because_pipewire_runs_for_nobody_says_the_fix(monkeypatch, tmp_path):
    """Raspberry Pi OS with the desktop, booted to the console for the kiosk: sound goes to PipeWire, which runs in
    login sessions only. "Plug in a speaker" sent the family to a speaker that was plugged in all along."""
    from companion import audio

    conf = tmp_path / "99-pipewire-default.conf"
    conf.write_text("pcm.!default pipewire\n")
    monkeypatch.setattr(audio, "PIPEWIRE_ALSA_DEFAULT", str(conf))
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(tmp_path))  # no pipewire-0 socket in it: nobody's PipeWire
    monkeypatch.setattr(audio, "open_audio", lambda **_: audio.NullAudio("no device"))
    shown: list[str] = []
    monkeypatch.setattr(App, "show_notice", lambda self, text, seconds=5.0, *, good=False: shown.append(text))
    cfg = Config(language="en")
    cfg.display.fullscreen = False
    assert runtime.run_app(cfg, source_spec="synthetic:1", max_frames=2) == 0
    assert any("PipeWire" in text and "install-service.sh" in text for text in shown)
    (tmp_path / "pipewire-0").touch()  # it runs (lingering): the silence has another cause
    assert not audio.pipewire_unreached()
    monkeypatch.delenv("XDG_RUNTIME_DIR")
    assert audio.pipewire_unreached()


def test_a_sound_output_not_found_is_said_on_the_screen(monkeypatch):
    """A club's config names its USB speaker, which is not plugged in tonight: the sound comes from the default
    output, and the screen says so and where the outputs are listed."""
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    shown: list[str] = []
    monkeypatch.setattr(App, "show_notice", lambda self, text, seconds=5.0, *, good=False: shown.append(text))
    cfg = Config(language="en")
    cfg.display.fullscreen = False
    cfg.sound.output = "USB speaker"
    assert runtime.run_app(cfg, source_spec="synthetic:1", max_frames=2) == 0
    assert any("Sound output “USB speaker” not found" in text and "companion doctor" in text for text in shown)


def test_on_a_laptop_the_keys_are_named_on_the_terminal_and_in_the_hint_bar(monkeypatch, capsys, out_dir):
    """A laptop's newcomer got a window and nothing printed, and a bar naming arcade buttons ("WÜRFELN würfeln"):
    no key was named anywhere but the README. Off a Pi the buttons are mock pins: the keyboard is the buttons."""
    from drawn_texts import recording_texts

    from companion.i18n import t
    from companion.views import widgets

    cfg = Config(language="de")
    cfg.display.fullscreen = False
    shot = out_dir / "run_keys_named_de.png"
    with recording_texts(monkeypatch) as drawn:
        assert runtime.run_app(cfg, source_spec="synthetic:1", max_frames=3, screenshot=str(shot)) == 0
    out = capsys.readouterr().out
    assert out.count(t("core.keys_line", "de")) == 1 and "Leertaste oder R würfeln" in out
    bar = [s for s, _, rect in drawn if rect.top >= 440]
    assert "Leertaste" in bar and "Rücktaste" in bar  # free play's "Space roll · Backspace menu", in German
    assert t("core.btn_roll", "de") not in bar
    assert widgets._key_label(t("core.btn_roll", "de")) == t("core.btn_roll", "de")  # the run's naming ends with it


def test_with_arcade_buttons_the_hint_bar_names_the_buttons(monkeypatch):
    """On a Pi with its GPIO buttons the bar says what is printed on them."""
    from drawn_texts import recording_texts

    from companion.i18n import t
    from hardware import buttons

    class Panel:
        mock = False

        def __init__(self, *args, **kwargs) -> None:
            pass

        def poll(self) -> list:
            return []

        def close(self) -> None:
            pass

    monkeypatch.setattr(buttons, "ButtonPanel", Panel)
    cfg = Config(language="en")
    cfg.display.fullscreen = False
    with recording_texts(monkeypatch) as drawn:
        assert runtime.run_app(cfg, source_spec="synthetic:1", max_frames=3) == 0
    bar = [s for s, _, rect in drawn if rect.top >= 440]
    assert t("core.btn_roll", "en") in bar and "Space" not in bar


def test_a_kiosk_screen_too_small_for_the_table_says_so_and_what_to_use(monkeypatch, out_dir):
    """A 3.5" 480x320 panel shows the 800x480 picture at 60 % (the far end's letters 1.8 mm, the buttons too small
    for a finger), and nothing said so: the family took it for the companion's fault."""
    import pygame

    set_mode = pygame.display.set_mode
    monkeypatch.setattr(pygame.display, "set_mode", lambda size, flags=0: set_mode((480, 320)))  # the panel's mode
    shown = _notices(monkeypatch)
    for lang, words in (("en", "This screen (480x320) shows the picture at only 60 %"),
                        ("de", "Dieser Bildschirm (480x320) zeigt das Bild nur zu 60 %")):
        cfg = Config(language=lang)
        cfg.display.fullscreen = True
        shown.clear()
        assert runtime.run_app(cfg, source_spec="synthetic:1", max_frames=2,
                               screenshot=str(out_dir / f"run_small_screen_{lang}.png")) == 0
        assert any(words in text and "1024x600" in text for text in shown), shown
    cfg.display.fullscreen = False  # a laptop's window, however small: dragged larger, not told
    monkeypatch.setattr(pygame.display, "set_mode", set_mode)
    cfg.display.width, cfg.display.height = 480, 320
    shown.clear()
    assert runtime.run_app(cfg, source_spec="synthetic:1", max_frames=2) == 0
    assert not any("480x320" in text for text in shown)


@pytest.mark.parametrize("lang", ["de", "en"])
@pytest.mark.parametrize("size", [(800, 480), (1280, 720)])
def test_the_screen_says_the_companion_is_starting_before_anything_else_is_opened(monkeypatch, capsys, out_dir, lang,
                                                                                     size):
    """The kiosk stood black from the moment the screen opened to its first frame: 2 s on a Pi with the built-in
    tray, 6-9 s with a Pi camera (settling, focusing), and the family took it for not starting. The companion's
    name and "starting …" are on the screen before OpenCV, the games, the sound and the camera are opened."""
    import pygame
    from drawn_texts import recording_texts

    from companion.display import Display
    from companion.i18n import t

    shown: list[pygame.Surface] = []
    present = Display.present

    def presenting(self) -> None:
        present(self)
        shown.append(pygame.display.get_surface().copy())

    monkeypatch.setattr(Display, "present", presenting)
    at_build: dict[str, object] = {}
    build = App.__init__

    def building(self, cfg, **kwargs) -> None:
        at_build.update(shown=list(shown), drawn=list(drawn))
        build(self, cfg, **kwargs)

    monkeypatch.setattr(App, "__init__", building)
    announcer = runtime._announcer

    def sound(cfg):
        at_build.setdefault("before_sound", list(shown))
        return announcer(cfg)

    monkeypatch.setattr(runtime, "_announcer", sound)
    cfg = Config(language=lang)
    cfg.display.fullscreen = False
    cfg.display.width, cfg.display.height = size
    with recording_texts(monkeypatch) as drawn:
        assert runtime.run_app(cfg, source_spec="synthetic:1", max_frames=2) == 0
    assert at_build["shown"] and at_build["before_sound"], "nothing was on the screen before the app was built"
    import companion

    assert capsys.readouterr().out.count(f"companion: version {companion.version()}\n") == 1  # the journal's, once
    window = at_build["shown"][-1]
    assert window.get_size() == size
    pygame.image.save(window, str(out_dir / f"run_splash_{lang}_{size[0]}.png"))
    said = {s: sz for s, sz, _ in at_build["drawn"]}
    assert said.get(t("core.app_title", lang), 0) >= theme.LARGE
    assert said.get(t("core.starting", lang), 0) >= theme.FAR
    lit = np.any(pygame.surfarray.array3d(window) != theme.BG, axis=2)
    assert 0.005 < lit.mean() < 0.2  # words on the panel's colour, not black, not a frame of the app


@pytest.mark.parametrize("lang", ["de", "en"])
@pytest.mark.parametrize("size", [(800, 480), (1280, 720)])
@pytest.mark.parametrize("when", ["start", "run"])
def test_a_companion_that_stops_on_an_error_says_so_on_the_screen_for_a_while(monkeypatch, out_dir, lang, size,
                                                                              when):
    """A bug at switch-on closed the screen within the second and the service started it again three seconds later:
    a black kiosk, restarting for ever, and not a word. The screen says it stopped, in the table's language, what
    is kept and what to do, and keeps it (here counted, at a Pi ten seconds) before it is let go."""
    import pygame
    from drawn_texts import recording_texts

    from companion.display import Display
    from companion.i18n import t

    def broken(self, *args, **kwargs):
        raise RuntimeError("a bug")

    monkeypatch.setattr(App, "_start_free_play" if when == "start" else "frame", broken)
    kept: list[tuple[float, pygame.Surface]] = []
    monkeypatch.setattr(runtime, "STOPPED_SECONDS", 10.0)
    monkeypatch.setattr(runtime, "_hold", lambda display, seconds: kept.append(
        (seconds, pygame.display.get_surface().copy())))
    closed: list[int] = []
    close = Display.close
    monkeypatch.setattr(Display, "close", lambda self: closed.append(len(kept)) or close(self))
    cfg = Config(language=lang)
    cfg.display.fullscreen = False
    cfg.display.width, cfg.display.height = size
    with recording_texts(monkeypatch) as drawn:
        assert runtime.run_app(cfg, source_spec="synthetic:1", max_frames=2) == 1
    assert [seconds for seconds, _ in kept] == [10.0] and closed == [1]  # kept, then let go
    window = kept[0][1]
    pygame.image.save(window, str(out_dir / f"run_stopped_{when}_{lang}_{size[0]}.png"))
    said = [(s, sz) for s, sz, _ in drawn]
    words = t(f"core.stopped_{when}", lang)
    at = next(i for i, (s, _) in enumerate(said) if s == t("core.stopped_title", lang))
    lines = said[at + 1:]
    assert " ".join(s for s, _ in lines) == words and all(sz >= theme.FAR for _, sz in lines)
    assert "companion doctor" in words


def test_the_stopped_screen_is_kept_a_bounded_while_and_escape_ends_it(monkeypatch):
    """Ten seconds at most, in steps the window stays answered in; Escape (a laptop) lets it go at once."""
    import pygame

    class Screen:
        presented = 0

        def present(self) -> None:
            self.presented += 1

    naps: list[float] = []
    monkeypatch.setattr(pygame.event, "get", lambda: [])
    screen = Screen()
    runtime._hold(screen, 10.0, sleep=naps.append)
    assert sum(naps) == pytest.approx(10.0) and screen.presented == len(naps) == 100
    monkeypatch.setattr(pygame.event, "get", lambda: [pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE)])
    naps.clear()
    runtime._hold(screen, 10.0, sleep=naps.append)
    assert naps == []


def test_a_button_down_at_switch_on_is_named_on_the_screen(monkeypatch, out_dir):
    """SELECT shorted to ground (a pin lead, a switch wired normally-closed) before the companion starts: gpiozero
    calls back on a change only, so nothing ever named it and the family pressed a dead button all evening."""
    from gpiozero.pins.mock import MockFactory, MockPin

    from hardware import buttons

    class Shorted(MockPin):
        def _set_pull(self, value: str) -> None:
            super()._set_pull(value)
            self._change_state(False)

    real = buttons.ButtonPanel

    def panel(*args, **kwargs):
        factory = MockFactory()
        factory.pin(buttons.DEFAULT_PINS[buttons.Button.SELECT], pin_class=Shorted)
        return real(*args, pin_factory=factory, **kwargs)

    monkeypatch.setattr(buttons, "ButtonPanel", panel)
    shown = _notices(monkeypatch)
    for lang, words in (("en", "The SELECT button is pressed at switch-on: stuck or wired wrong?"),
                        ("de", "Die Taste WÄHLEN ist beim Einschalten gedrückt: Klemmt sie")):
        shown.clear()
        cfg = Config(language=lang)
        cfg.display.fullscreen = False
        shot = out_dir / f"run_button_down_at_start_{lang}.png"
        assert runtime.run_app(cfg, source_spec="synthetic:1", max_frames=3, screenshot=str(shot)) == 0
        assert any(words in text for text in shown), shown


def test_a_busy_pin_names_its_button_and_the_others_work(monkeypatch, out_dir):
    """Another program holding GPIO 27: all six buttons were refused and the screen said only "The arcade buttons
    do not work". Now REROLL alone is out, and the screen says which, on which pin, and that the others work."""
    from gpiozero.pins.mock import MockFactory

    from companion.i18n import t
    from hardware import buttons

    class Busy(MockFactory):
        def pin(self, spec, **kwargs):
            if spec == 27:
                raise OSError("GPIO busy")
            return super().pin(spec, **kwargs)

    real = buttons.ButtonPanel
    opened = []

    def panel(*args, **kwargs):
        opened.append(real(*args, pin_factory=Busy(), **kwargs))
        return opened[-1]

    monkeypatch.setattr(buttons, "ButtonPanel", panel)
    shown = _notices(monkeypatch)
    for lang, words in (("en", "This arcade button does not work: REROLL (GPIO 27)"),
                        ("de", "Diese Taste funktioniert nicht: NOCHMAL (GPIO 27)")):
        shown.clear()
        cfg = Config(language=lang)
        cfg.display.fullscreen = False
        assert runtime.run_app(cfg, source_spec="synthetic:1", max_frames=3,
                               screenshot=str(out_dir / f"run_busy_pin_{lang}.png")) == 0
        assert any(words in text and t("core.buttons_failed", lang) not in text for text in shown), shown
        assert opened[-1].unusable == {buttons.Button.REROLL: 27}


def test_presses_while_the_companion_starts_act_on_no_screen(monkeypatch):
    """The buttons open before the app is built (its camera, journal and menus: seconds on a Pi): a child's NEXT,
    NEXT, SELECT on the black screen moved the highlight and chose on a menu nobody had seen, at the first frame."""
    from gpiozero.pins.mock import MockFactory

    from hardware import buttons

    real, opened = buttons.ButtonPanel, []

    def panel(*args, **kwargs):
        opened.append(real(*args, pin_factory=MockFactory(), **kwargs))
        return opened[-1]

    monkeypatch.setattr(buttons, "ButtonPanel", panel)
    build = App.__init__

    def slow_start(self, *args, **kwargs):
        for button in (buttons.Button.NEXT, buttons.Button.NEXT, buttons.Button.SELECT):  # while the screen is black
            opened[-1].pin(button).drive_low()
            opened[-1].pin(button).drive_high()
        build(self, *args, **kwargs)

    monkeypatch.setattr(App, "__init__", slow_start)
    pressed: list = []
    monkeypatch.setattr(App, "on_button", lambda self, event: pressed.append(event))
    cfg = Config(language="en")
    cfg.display.fullscreen = False
    assert runtime.run_app(cfg, source_spec="synthetic:1", max_frames=3) == 0
    assert opened and pressed == []


def test_two_buttons_on_one_pin_are_named_on_the_table(monkeypatch):
    """A config built in code with two buttons on one pin: the panel refuses it as the config does, and the table
    read the generic "buttons failed" instead of which pins clash."""
    from companion.i18n import t

    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    for lang in ("en", "de"):
        cfg = Config(language=lang)
        cfg.buttons.pins["roll"] = cfg.buttons.pins["reroll"]
        pin = cfg.buttons.pins["reroll"]
        panel, words = runtime._buttons(cfg)
        assert panel is None and words and t("core.buttons_failed", lang) not in words
        assert f"GPIO {pin}" in words and "buttons.pins.reroll" in words and "roll:" in words, words
