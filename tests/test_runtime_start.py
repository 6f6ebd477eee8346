"""``companion run`` at the start: what a Pi with nobody at a terminal must still say on its screen."""

from __future__ import annotations

import cv2
import numpy as np

from companion import runtime
from companion.app import App
from companion.config import Config
from companion.views import theme


def test_buttons_that_cannot_start_are_said_on_the_screen(monkeypatch, out_dir):
    """GPIO busy, or no pin library for this Pi: the keyboard and touch still work, and the screen says so. A log
    line alone left a family pressing arcade buttons that did nothing."""
    from hardware import buttons

    def broken(*args, **kwargs):
        raise RuntimeError("GPIO busy")

    monkeypatch.setattr(buttons, "ButtonPanel", broken)
    shown: list[str] = []
    show_notice = App.show_notice

    def watched(self, text, seconds=5.0, *, good=False):
        shown.append(text)
        show_notice(self, text, seconds, good=good)

    monkeypatch.setattr(App, "show_notice", watched)
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
    shown: list[str] = []
    show_notice = App.show_notice

    def watched(self, text, seconds=5.0, *, good=False):
        shown.append(text)
        show_notice(self, text, seconds, good=good)

    monkeypatch.setattr(App, "show_notice", watched)
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
    shown: list[str] = []
    show_notice = App.show_notice

    def watched(self, text, seconds=5.0, *, good=False):
        shown.append(text)
        show_notice(self, text, seconds, good=good)

    monkeypatch.setattr(App, "show_notice", watched)
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
    shown: list[str] = []
    show_notice = App.show_notice

    def watched(self, text, seconds=5.0, *, good=False):
        shown.append(text)
        show_notice(self, text, seconds, good=good)

    monkeypatch.setattr(App, "show_notice", watched)
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
