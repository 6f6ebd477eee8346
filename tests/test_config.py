import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from companion import config
from companion.errors import ConfigError
from companion.i18n import t


def test_missing_default_file_means_defaults():
    cfg = config.load()
    assert cfg.language == "de" and cfg.path is None
    assert cfg.buttons.pins["roll"] == 17


def test_effective_config_round_trips(tmp_path):
    p = tmp_path / "c.toml"
    p.write_text('language = "en"\nplayers = ["Ümit", "Zoë"]\n[sound]\nvolume = 35\n[buttons.pins]\nroll = 5\n'
                 '[games."haste-worte"]\nletters = "ABC"\n', encoding="utf-8")
    cfg = config.load(p)
    again = config.from_dict(tomllib.loads(cfg.to_toml()), p)
    assert again == cfg
    assert again.players == ["Ümit", "Zoë"] and again.sound.volume == 35 and again.buttons.pins["roll"] == 5
    assert again.games["haste-worte"]["letters"] == "ABC"


def test_what_a_file_may_hold_is_written_back_as_it_loads(tmp_path):
    """Values a hand-edited file may hold (a kind's name that needs quotes, a tab in a string) were written back
    as a file TOML cannot read: muting, the volume or the language then stopped the companion."""
    p = tmp_path / "c.toml"
    p.write_text('[games."haste-worte"]\nmeanings = { ring = "AB\\tCD\\u007f" }\n'
                 '[games."echt-spitze"]\nkinds = { "Äpfel" = [9, 7], "Oma\\"s Kuchen" = [5, 3] }\n',
                 encoding="utf-8")
    cfg = config.load(p)
    cfg.sound.mute = True
    config.save(cfg, p)
    assert config.load(p).games == cfg.games and config.load(p).sound.mute


@pytest.mark.parametrize("text, words", [
    ('language = "fr"', ["language", "'fr'", "de, en"]),
    ("[sound]\nvolume = 150", ["sound.volume", "150", "0 to 100"]),
    ("[buttons.pins]\nroll = 40", ["buttons.pins.roll", "40", "2 to 27"]),
    ("[buttons.pins]\nroll = 27", ["buttons.pins", "27", "already used by reroll"]),
    ("[buttons.pins]\nfire = 5", ["buttons.pins.fire", "buttons are"]),
    ('players = ["Anna", "anna"]', ["players", "once"]),
    ("players = []", ["players", "1 to 6"]),
    ('[display]\nfullscreen = "yes"', ["display.fullscreen", "'yes'", "true, false"]),
    ("colour = 3", ["unknown setting colour"]),
    ('camera = "webcam"', ["camera", "'webcam'", "cam:0"]),
    ('camera = "cam:abc"', ["camera", "'cam:abc'", "cam:1"]),  # was taken, and refused only at the table
    ("[sound]\noutput = 2", ["sound.output", "2", "companion doctor"]),
    ('[sound]\ntalk = "less"', ["sound.talk", "'less'", '"all"', '"calls"']),
    ("[display]\nrotate = 45", ["display.rotate", "45", "0, 90, 180 or 270"]),
    ('[display]\nrotate = "left"', ["display.rotate", "left", '"auto", 0, 90, 180 or 270']),
    ('players = ["Anna\\nBen", "Carl"]', ["players", "one line"]),
    ('[games.haste_worte]\nletters = "ABC"', ["unknown game", "haste-worte"]),
    ('[games."haste-worte"]\nleters = "ABC"', ["games.haste-worte.leters", "letters"]),
    ('[games."noch-x-mal"]\nstart = 1', ["games.noch-x-mal.start"]),
    # the games' own values: passed unsaid, and refused only when the family chose the game, after its setup
    ('[games."haste-worte"]\ntimer_seconds = -30', ["games.haste-worte.timer_seconds", "-30", "10 to 600"]),
    ('[games."haste-worte"]\ngoal = 5\nletters = 5', ["games.haste-worte.letters", "5", "2 to 60"]),
    ('[games."haste-worte"]\ntimer_seconds = "90"', ["games.haste-worte.timer_seconds", "'90'", "10 to 600"]),
    ('[games."echt-spitze"]\nstar_value = "vier"', ["games.echt-spitze.star_value", "'vier'", "0 to 99"]),
    ('[games."haste-worte"]\ngoal = 1979-05-27', ["games.haste-worte.goal", "1979-05-27", "1 to 90"]),  # a TOML date
])
def test_bad_values_name_key_value_and_what_is_allowed(tmp_path, text, words):
    p = tmp_path / "c.toml"
    p.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError) as err:
        config.load(p)
    for w in words:
        assert w in str(err.value)


def test_broken_toml_names_the_file_and_line(tmp_path):
    p = tmp_path / "c.toml"
    p.write_text("language = \n", encoding="utf-8")
    with pytest.raises(ConfigError, match=r"not valid TOML.*line 1"):
        config.load(p)


def test_explicit_missing_file_is_an_error(tmp_path):
    with pytest.raises(ConfigError, match="does not exist"):
        config.load(tmp_path / "nope.toml")


def test_companion_config_prints_effective_config_and_bad_config_is_one_clear_line(tmp_path):
    good = subprocess.run([sys.executable, "-m", "companion", "config"], capture_output=True, text=True)
    assert good.returncode == 0 and 'language = "de"' in good.stdout
    p = tmp_path / "c.toml"
    p.write_text("[sound]\nvolume = -1\n", encoding="utf-8")
    bad = subprocess.run([sys.executable, "-m", "companion", "--config", str(p), "config"], capture_output=True,
                         text=True)
    assert bad.returncode == 2
    assert "sound.volume = -1" in bad.stderr and "Traceback" not in bad.stderr


def test_save_writes_atomically_and_loads_back(tmp_path):
    cfg = config.load()
    cfg.players = ["Oma", "Opa", "Lina"]
    path = config.save(cfg)
    assert path == tmp_path / "xdg" / "config" / "table-companion" / "config.toml"
    assert config.load().players == ["Oma", "Opa", "Lina"]
    assert not list(path.parent.glob(".*.tmp"))  # no temp file left behind
    cfg.players = []
    with pytest.raises(ConfigError):  # a config that would not load again is never written
        config.save(cfg)
    assert config.load().players == ["Oma", "Opa", "Lina"]


@pytest.mark.parametrize("text, where", [
    ('players = ["Anna", "Ben"]\nvolume = 1\nmute = 2\nspeech = 3\nfps = 4\nwidth = 5\nheight = 6\n', "(volume)"),
    # "at end of document": the line it began at; a list open over more lines than a slip makes
    ('camera = "auto"\nplayers = ["Anna",\n  "Ben",\n  "Cleo",\n  "Dora",\n  "Emil",\n  "Finn"\n', "line 2"),
])
def test_at_the_table_a_bad_config_file_is_kept_aside_and_the_standard_settings_start(text, where):
    """A Pi starts the companion at boot, with nobody at a terminal: a bad file that stopped the start left a black
    screen, restarted every 3 s. At the table the standard settings start, the file is kept (renamed: the
    companion writes its config when players are entered, which would lose the player's edits) and the words
    for the screen say where the mistake is and where the file went."""
    path = config.paths.config_file()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    cfg, words = config.load_for_the_table(lang="en")
    standard = config.Config()
    standard.language = "en" if 'language = "en"' in text else standard.language  # an English table stays so
    assert cfg == standard
    assert not path.exists()
    (aside,) = path.parent.glob("config.toml.corrupt-*")
    assert aside.read_text(encoding="utf-8") == text
    assert where in words and aside.name in words and "standard settings" in words
    cfg.players = ["Oma", "Opa"]
    config.save(cfg)  # entering players now writes a new file beside the kept one
    assert aside.read_text(encoding="utf-8") == text
    assert config.load_for_the_table() == (config.load(), None)


@pytest.mark.parametrize(("text", "wrong"), [
    ('language = "en"\nplayers = ["Jörg", "Mia"]\n[sound]\nvolume = 150\n', "sound.volume"),
    ('language = "en"\nplayers = ["Jörg", "Mia"]\nvolumen = 80\n[sound]\nmute = "yes"\n', "volumen, sound.mute"),
    ('language = "en"\nplayers = ["Jörg", "Mia", "A", "B", "C", "D", "E"]\n', "players"),
    # a line that is no TOML: the sound's section without its bracket (its volume then stood outside any section)
    ('language = "en"\nplayers = ["Jörg", "Mia"]\n[sound\nvolume = 40\n', "volume, line 3"),
    ('# my settings\nlanguage = "en"\nmute true\nplayers = ["Jörg", "Mia"]\n', "line 3"),
    # the file cut short in its last value (no line named: "at end of document"): the players stayed standard
    ('language = "en"\nplayers = ["Jörg", "Mia"]\ncamera = "synth', "line 3"),
    ('language = "en"\nplayers = ["Jörg", "Mia"]\n[sound]\nmute = false\ncamera = [\n', "line 5"),
    # a quoted key with a dot in it was looked for as [sound] volume: the whole file went aside
    ('language = "en"\nplayers = ["Jörg", "Mia"]\n"sound.volume" = 30\n', '"sound.volume"'),
    ('language = "en"\nplayers = ["Jörg", "Mia"]\n[sound]\nmute = false\n"mute.now" = true\n', 'sound."mute.now"'),
])
def test_at_the_table_a_slip_in_the_config_file_costs_only_that_setting(text, wrong):
    """One value out of range (or a misspelt key) set the whole file aside: the names and the language went with
    it, and the first mute wrote the standard ones over them. The wrong settings take the standard, the others
    apply, the file as it was is kept aside, and the settings that were right are written back."""
    path = config.paths.config_file()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    cfg, words = config.load_for_the_table()
    assert cfg.language == "en" and (cfg.players == ["Jörg", "Mia"] or wrong == "players")
    assert cfg.sound.volume == config.Config().sound.volume and cfg.sound.mute is False
    (aside,) = path.parent.glob("config.toml.corrupt-*")
    assert aside.read_text(encoding="utf-8") == text
    assert f"({wrong})" in words and aside.name in words and "your other settings still apply" in words
    assert config.load_for_the_table() == (cfg, None)  # written back: the next start is clean


@pytest.mark.parametrize("text", ["", "   \n\n", "\0" * 4096, "players = " + "[" * 5000])
def test_at_the_table_an_empty_or_nested_config_file_starts_the_standard_settings_and_says_why(text):
    """An empty file went down the slip's path ("Mistake in the settings file ()"), and one nested past Python's
    limit stopped the start (a black screen at boot)."""
    path = config.paths.config_file()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    cfg, words = config.load_for_the_table(lang="en")
    assert cfg == config.Config() and "standard settings are used" in words and "()" not in words


def linked_config(tmp_path: Path, text: str) -> tuple[Path, Path]:
    """The config file as a link into a dotfiles folder, whose file holds ``text``: (the link, its file)."""
    target = tmp_path / "dotfiles" / "companion.toml"
    target.parent.mkdir()
    target.write_text(text, encoding="utf-8")
    path = config.paths.config_file()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.symlink_to(target)
    return path, target


def test_a_linked_config_file_with_a_slip_stays_a_link_and_its_file_is_copied_aside(tmp_path):
    text = 'language = "en"\nplayers = ["Oma", "Opa"]\n[sound]\nvolume = 150\n'
    path, target = linked_config(tmp_path, text)
    cfg, words = config.load_for_the_table()
    (aside,) = path.parent.glob("config.toml.corrupt-*")
    assert not aside.is_symlink() and aside.read_text(encoding="utf-8") == text and aside.name in words
    assert path.is_symlink() and "volume = 150" not in target.read_text(encoding="utf-8")
    assert config.load_for_the_table() == (cfg, None) and cfg.players == ["Oma", "Opa"]


def test_a_utf8_config_with_one_stray_byte_keeps_its_umlauts():
    path = config.paths.config_file()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes('players = ["Jörg", "Mia"]\n# a stray \xff byte\n'.encode("latin-1").replace(
        "Jörg".encode("latin-1"), "Jörg".encode()))
    assert config.load().players == ["Jörg", "Mia"]


@pytest.mark.parametrize("encoded", [b"\xef\xbb\xbf" + 'players = ["Jörg", "Mia"]\n'.encode(),
                                     'players = ["Jörg", "Mia"]\n'.encode("cp1252")],
                         ids=["notepad-byte-order-mark", "windows-code-page"])
def test_a_config_file_saved_by_a_windows_editor_is_read(encoded):
    path = config.paths.config_file()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(encoded)
    assert config.load().players == ["Jörg", "Mia"]


def test_a_linked_config_file_stays_a_link_when_saved(tmp_path):
    """A config kept in a dotfiles folder and linked into place: the first mute replaced the link by a file."""
    path, target = linked_config(tmp_path, 'players = ["Oma", "Opa"]\n')
    cfg = config.load()
    cfg.sound.mute = True
    config.save(cfg)
    assert path.is_symlink() and config.load().sound.mute and "mute = true" in target.read_text(encoding="utf-8")


def test_a_config_file_given_on_the_command_line_stays_strict(tmp_path):
    p = tmp_path / "c.toml"
    p.write_text("language = \n", encoding="utf-8")
    with pytest.raises(ConfigError, match="line 1"):
        config.load_for_the_table(p)
    assert p.read_text(encoding="utf-8") == "language = \n"


def test_companion_run_starts_on_a_bad_config_file_and_says_so():
    import os

    path = config.paths.config_file()  # in the test's private XDG folder (conftest)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("[sound]\nvolume = 150\n", encoding="utf-8")
    r = subprocess.run([sys.executable, "-m", "companion", "run", "--source", "synthetic:1", "--frames", "3",
                        "--lang", "en"], capture_output=True, text=True, timeout=120,
                       env={**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"})
    assert r.returncode == 0, r.stderr
    assert "Mistake in the settings file (sound.volume)" in r.stderr and "Traceback" not in r.stderr


def test_the_readmes_example_config_loads():
    """The README's example is where a family copies its config from: it must be one the companion accepts."""
    from pathlib import Path

    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    block = readme.split("```toml\n", 1)[1].split("```", 1)[0]
    cfg = config.from_dict(tomllib.loads(block))
    assert cfg.games["haste-worte"]["letters"] and cfg.buttons.pins["undo"] == 25


def test_what_the_command_line_set_for_one_run_is_not_written_into_the_file(tmp_path):
    """`companion run --lang en --window` over a German config, then muting: the file held language = "en" and
    fullscreen = false for good (and the Pi service's --fullscreen would write fullscreen = true)."""
    p = tmp_path / "c.toml"
    p.write_text('language = "de"\n[display]\nfullscreen = "auto"\n', encoding="utf-8")
    cfg = config.load(p)
    cfg.run_with("language", "en")
    cfg.run_with("display.fullscreen", False)
    assert cfg.language == "en" and cfg.display.fullscreen is False
    cfg.sound.mute = True
    config.save(cfg, p)
    saved = config.load(p)
    assert saved.language == "de" and saved.display.fullscreen == "auto" and saved.sound.mute
    cfg.run_with("sound.volume", 40)
    cfg.sound.volume = 100  # set at the table since: its choice now, kept
    config.save(cfg, p)
    assert config.load(p).sound.volume == 100


@pytest.mark.parametrize("text, de, en", [
    ('[games.haste-worte]\nletters = 5', "Die Buchstaben 5 gehen nicht", "the letters 5 cannot be used"),
    ('[games.haste-worte]\ntimer_seconds = -5', "Die Sanduhr kann nicht -5 Sekunden laufen",
     "the hourglass cannot run -5 seconds"),
    ('[games.haste-worte]\ngoal = "x"', '"x" Kristalle als Ziel geht nicht', 'a goal of "x" crystals is not possible'),
    ('[games.echt-spitze]\nstar_value = "vier"', "Punkte pro Stern: 'vier' geht nicht", "points per star: 'vier'"),
    ('[games.echt-spitze]\nkinds = [[1,2],[3]]', "braucht Namen mit zwei Punktwerten", "needs names with two point"),
    ('[games.echt-spitze]\nshapes = {a=1}', "a: 1 passt nicht", "a: 1 does not fit"),
    ('camera = "cam:abc"', "„cam:abc“ ist keine Kamera: cam:0 für die erste USB-Kamera, cam:1 für die nächste)",
     "‘cam:abc’ names no camera: use cam:0 for the first USB camera, cam:1 for the next)"),
    ('[sound]\noutput = 3', "ein Teil des Namens einer Ausgabe", "use a part of an output's name"),
    ('[games]\nfritzo = 3', "([games.fritzo] muss ein Abschnitt sein)", "([games.fritzo] must be a section)"),
], ids=["letters", "timer", "goal", "star_value", "kinds", "shapes", "camera", "output", "game-section"])
def test_a_refused_game_setting_camera_or_output_is_said_in_the_tables_language(text, de, en):
    """``companion config`` said "geht so nicht (the letters 5 cannot be used …)": the game's, the picture source's
    and the sound output's English inside the German sentence, where their German words were there to say."""
    with pytest.raises(ConfigError) as caught:
        config.from_dict(tomllib.loads(text))
    german, english = config.config_words(caught.value, "de"), config.config_words(caught.value, "en")
    assert german.startswith("Einstellungsdatei: ") and de in german and en not in german, german
    assert english.startswith("Settings file: ") and en in english, english
    assert ".)" not in german + english  # the inner sentence's full stop is left to the outer one



def test_the_doctor_tries_the_games_settings_as_the_games_take_them(tmp_path):
    """The config checks the game sections' key names only: letters = 5 passed "companion config" and then stopped
    every start of Haste Worte at the table. The doctor plays each section's setup and says what the game says."""
    from companion import doctor

    path = tmp_path / "config.toml"
    lines = doctor._game_settings({"haste-worte": {"letters": 5}, "echt-spitze": {"star_value": 4}})
    assert lines[0].startswith('PROBLEM [games."haste-worte"]: ') and "letters" in lines[0].lower()
    assert lines[1] == 'ok      [games."echt-spitze"] star_value for level 2 (left out at the other levels)'
    path.write_text('[games."echt-spitze"]\nshapes = {triangle = [6, 3], circle = [5, 2], square = [4, 1]}\n',
                    encoding="utf-8")  # level 3's: "Level 1 scores symbol kinds" was all the doctor said
    assert doctor._game_settings(config.load(path).games) == [
        'ok      [games."echt-spitze"] shapes for level 3 (left out at the other levels)']


@pytest.mark.parametrize(("level", "taken"), [(1, {"kinds"}), (2, {"kinds", "star_value"}), (3, {"shapes"})])
def test_each_echt_spitze_level_takes_its_own_settings_of_the_config(tmp_path, level, taken):
    """A club's section with the kinds', the shapes' and level 2's star values: it was refused at load (kinds and
    shapes together), a section with the kinds stopped level 3 at its start, and ``star_value`` scored level 1's
    stars at 4, not the rulebook's 5."""
    from companion.app import GAME_ENTRIES, setup_action
    from companion.games.echt_spitze import EchtSpitze
    from companion.games_ui import register_all

    register_all()
    path = tmp_path / "config.toml"
    path.write_text('[games."echt-spitze"]\nkinds = { lemons = [9, 7] }\nshapes = { circle = [5, 2] }\n'
                    "star_value = 4\n", encoding="utf-8")
    cfg = config.load(path)
    action = setup_action(GAME_ENTRIES["echt-spitze"], cfg, {"_players": ["Anna", "Ben"], "level": level}, 7)
    assert {"kinds", "shapes", "star_value"} & set(action) == taken
    stars = EchtSpitze.new(action).state.star_value
    assert stars == {1: 5, 2: 4, 3: 8}[level]


def test_a_folder_given_as_the_config_file_is_named_as_one(tmp_path):
    with pytest.raises(ConfigError, match=r"is a folder, not a config file; give the file in it, e\.g\. .*\.toml"):
        config.load(tmp_path)


def test_a_line_separator_in_a_comment_does_not_move_the_line_a_slip_is_named_at():
    """TOML breaks lines at newlines only: a U+2028 in a comment made the salvage name two lines for one."""
    path = config.paths.config_file()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text('# notes\u2028more notes\nmute true\nplayers = ["Jörg", "Mia"]\n', encoding="utf-8")
    cfg, words = config.load_for_the_table(lang="en")
    assert cfg.players == ["Jörg", "Mia"] and "(line 2)" in words


def test_more_slips_than_a_slip_makes_start_the_standard_settings():
    """Up to five wrong settings or lines are slips; a file with more, counted together, is not this companion's."""
    path = config.paths.config_file()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text('players = ["Jörg", "Mia"]\nvolumen = 1\nfarbe = 2\nmute true\nfps true\nwidth true\n'
                    'height true\n', encoding="utf-8")
    cfg, words = config.load_for_the_table(lang="en")
    assert cfg == config.Config() and "standard settings are used" in words


def test_a_file_saved_with_old_mac_line_ends_keeps_its_lines_through_a_slip():
    path = config.paths.config_file()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes('players = ["Jörg", "Mia"]\rmute true\r'.encode())
    cfg, words = config.load_for_the_table(lang="en")
    assert cfg.players == ["Jörg", "Mia"] and "(line 2)" in words


@pytest.mark.parametrize("lang", ["en", "de"])
def test_at_the_table_a_folder_in_place_of_the_config_file_is_said_so(lang):
    """A folder where config.toml belongs said "Mistake in the settings file (?)": no mistake of anybody's pen."""
    from companion.i18n import disk_words, t

    path = config.paths.config_file()
    path.mkdir(parents=True)
    cfg, words = config.load_for_the_table(lang=lang)
    assert cfg == config.Config() and path.is_dir() and not list(path.parent.glob("config.toml.corrupt-*"))
    assert words == t("core.config_unreadable", lang, error=disk_words(IsADirectoryError(21, "x"), lang))


def test_at_the_table_a_config_file_that_cannot_be_read_is_left_as_it_is_and_not_written_over(tmp_path, monkeypatch):
    """A card failing once: the file was renamed aside (the names gone at the next start, though it read again),
    and through a link the standard settings were written over the owner's file, no copy kept."""
    path, target = linked_config(tmp_path, 'language = "en"\nplayers = ["Oma", "Opa"]\n')
    real = Path.read_bytes

    def failing(self):
        if self == path:
            raise OSError(5, "Input/output error")
        return real(self)

    monkeypatch.setattr(Path, "read_bytes", failing)
    cfg, words = config.load_for_the_table(lang="en")
    assert "is read again at the next start" in words and cfg.players == config.Config().players
    cfg.players = ["Anna", "Ben", "Carla"]
    config.save(cfg)  # the sound switched, players entered: kept for this run, not written over the owner's file
    assert target.read_text(encoding="utf-8") == 'language = "en"\nplayers = ["Oma", "Opa"]\n'
    monkeypatch.setattr(Path, "read_bytes", real)
    assert path.is_symlink() and config.load_for_the_table() == (config.load(), None)
    assert config.load().players == ["Oma", "Opa"]


def test_a_config_link_in_a_loop_starts_the_standard_settings_and_saving_does_not_crash(tmp_path):
    """A link pointing at itself read as no file at all, and the first mute stopped the companion (RuntimeError)."""
    path = config.paths.config_file()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.symlink_to(path)
    cfg, words = config.load_for_the_table(lang="en")
    assert cfg.players == config.Config().players and "cannot be read" in words
    config.save(cfg)  # left as it is
    assert path.is_symlink()
    from companion.atomic import atomic_write_text

    with pytest.raises(OSError):
        atomic_write_text(path, "x")  # a write through the loop is a disk's refusal, which the callers say


@pytest.mark.parametrize("tail, line", [("\0" * 100, 20), ("[buttons]\nhold_time = 1.\0\0\0\0", 21)],
                         ids=["after-a-line", "in-a-line"])
def test_at_the_table_a_config_whose_end_a_power_cut_left_as_zeros_keeps_every_whole_line(tail, line):
    """Some SD cards leave the blocks a power cut kept from being written as zeros. TOML allows NUL nowhere, not
    even in the comment the salvage made of the line: the players' names, the language and the mute all went."""
    cfg = config.Config(language="en", players=["Jörg", "Anne-Marie", "Ben", "Zoë"])
    cfg.sound.mute = True
    path = config.save(cfg)
    text = path.read_text(encoding="utf-8").split("[buttons]")[0]
    assert (text + tail).split("\0")[0].count("\n") + 1 == line  # where the zeros begin
    path.write_bytes((text + tail).encode())
    loaded, words = config.load_for_the_table()
    assert loaded.players == cfg.players and loaded.language == "en" and loaded.sound.mute
    assert f"(line {line})" in words and "your other settings still apply" in words
    assert config.load_for_the_table() == (loaded, None)


def test_a_list_left_open_costs_only_its_own_line():
    """One missing ] was named two lines on, at the next section's heading, and the salvage left out that line and
    the ones after it: the sound's settings went, and the list's line kept nobody's attention."""
    path = config.paths.config_file()
    path.parent.mkdir(parents=True, exist_ok=True)
    text = '# Spieleabend\nlanguage = "en"\nplayers = ["Jörg", "Ute", "Max"\n\n[sound]\nmute = true\nvolume = 40\n'
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError, match=r"begun at line 3 \(a \], \} or quote missing there\?\)") as err:
        config.load()  # what "companion config" says
    assert err.value.line == 3
    cfg, words = config.load_for_the_table()
    assert cfg.language == "en" and cfg.players == config.Config().players
    assert cfg.sound.mute and cfg.sound.volume == 40 and "(line 3)" in words


@pytest.mark.parametrize("slip, lost", [('  Mia,', "(line 5)"), ('  "Mia"', "(line 6, line 7)")])
def test_a_slip_inside_a_list_of_names_costs_only_its_own_line(slip, lost):
    """A name written without quotes inside a list over several lines: the salvage blanked the line the list began
    on, then every line after it, and with more than five the family's whole file gave way to the standard one.
    A comma missing costs the names the parser stops at after it (the line before it reads whole)."""
    path = config.paths.config_file()
    path.parent.mkdir(parents=True, exist_ok=True)
    names = ["players = [", '  "Oma Hilde",', '  "Opa Karl",', slip, '  "Ben",', '  "Lina",', "]"]
    path.write_text('language = "en"\n' + "\n".join(names) + "\n[sound]\nvolume = 40\n", encoding="utf-8")
    cfg, words = config.load_for_the_table()
    assert cfg.language == "en" and cfg.sound.volume == 40 and lost in words
    assert cfg.players[:2] == ["Oma Hilde", "Opa Karl"]


def test_at_the_table_a_wrong_game_setting_costs_only_that_setting():
    """``timer_seconds = -30`` passed the start unsaid: the family chose Haste Worte, went through its setup, and a
    red strip said the config's section could not be played, with nobody at the table who could mend it."""
    path = config.paths.config_file()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text('language = "en"\nplayers = ["Jörg", "Mia"]\n[games."haste-worte"]\ntimer_seconds = -30\n'
                    'goal = 5\n', encoding="utf-8")
    cfg, words = config.load_for_the_table()
    assert cfg.players == ["Jörg", "Mia"] and cfg.games == {"haste-worte": {"goal": 5}}
    assert "(games.haste-worte.timer_seconds)" in words and "your other settings still apply" in words
    assert config.load().games == {"haste-worte": {"goal": 5}}  # mended in the file, the original kept aside
    assert len(list(path.parent.glob("config.toml.corrupt-*"))) == 1


def test_at_the_table_a_full_card_leaves_a_config_with_a_slip_where_it_was_and_says_so(monkeypatch):
    """The mended copy was written after the file was moved aside: on a full card it never came, "your other
    settings still apply" was said, and the next start found no config at all (German, the standard players)."""
    import errno

    from companion import atomic

    path = config.paths.config_file()
    path.parent.mkdir(parents=True, exist_ok=True)
    text = 'language = "en"\nplayers = ["Jörg", "Mia"]\n[sound]\nvolume = 150\nmute = true\n'
    path.write_text(text, encoding="utf-8")

    card = {"full": True}
    fsync = atomic.os.fsync

    def full(fd: int) -> None:
        if card["full"]:
            raise OSError(errno.ENOSPC, "No space left on device")
        fsync(fd)

    monkeypatch.setattr(atomic.os, "fsync", full)
    cfg, words = config.load_for_the_table()
    assert cfg.players == ["Jörg", "Mia"] and cfg.sound.mute
    assert "could not be saved (the memory card is full)" in words and "kept as" not in words
    assert path.read_text(encoding="utf-8") == text and not list(path.parent.glob("config.toml.*"))
    card["full"] = False  # room again: the next save keeps the file as it was aside, as the start meant to
    cfg.sound.volume = 40
    config.save(cfg)
    (aside,) = path.parent.glob("config.toml.corrupt-*")
    assert aside.read_text(encoding="utf-8") == text
    assert config.load_for_the_table() == (cfg, None) and cfg.players == ["Jörg", "Mia"]


def test_a_config_to_keep_aside_that_is_gone_since_is_written_anew(monkeypatch):
    """The file whose mended copy a full card refused was removed before the first save: every save of the evening
    failed on it (nothing there to keep aside), and each mute said "not saved"."""
    path = config.paths.config_file()
    path.parent.mkdir(parents=True, exist_ok=True)
    cfg = config.Config()
    cfg.keep_aside_first = True
    config.save(cfg)  # no file there: written, nothing kept aside
    assert path.exists() and not cfg.keep_aside_first and not list(path.parent.glob("config.toml.*"))


def test_a_mended_config_file_keeps_its_permissions():
    """The file was moved aside before the mended one was written: it came with the temp file's 0600."""
    import stat

    path = config.paths.config_file()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text('players = ["Jörg", "Mia"]\n[sound]\nvolume = 150\n', encoding="utf-8")
    path.chmod(0o644)
    cfg, words = config.load_for_the_table()
    assert cfg.players == ["Jörg", "Mia"] and words
    assert stat.S_IMODE(path.stat().st_mode) == 0o644


@pytest.mark.parametrize("links", [True, False], ids=["second-name", "no-second-names"])
def test_a_file_kept_aside_for_its_mended_copy_is_put_back_when_the_copy_cannot_take_its_place(tmp_path, monkeypatch,
                                                                                              links):
    import os

    from companion import atomic

    path = tmp_path / "config.toml"
    path.write_text("old", encoding="utf-8")
    if not links:  # FAT: the old file is renamed aside, and must come back
        monkeypatch.setattr(atomic.os, "link", lambda *a: (_ for _ in ()).throw(OSError(1, "Operation not permitted")))
    real = os.replace

    def refusing(src, dst):
        if str(src).endswith(".tmp"):
            raise OSError(5, "Input/output error")
        return real(src, dst)

    monkeypatch.setattr(atomic.os, "replace", refusing)
    with pytest.raises(OSError):
        atomic.replace_keeping_aside(path, b"new")
    assert path.read_text(encoding="utf-8") == "old" and [p.name for p in tmp_path.iterdir()] == ["config.toml"]
    monkeypatch.setattr(atomic.os, "replace", real)
    aside = atomic.replace_keeping_aside(path, b"new")
    assert path.read_text(encoding="utf-8") == "new" and aside.read_text(encoding="utf-8") == "old"


def test_a_folder_in_place_of_the_config_file_is_advised_away():
    """"give the file in it, e.g. .../config.toml/config.toml": at the default place no file is looked for in it."""
    path = config.paths.config_file()
    path.mkdir(parents=True)
    with pytest.raises(ConfigError, match="is a folder, not a config file; remove or rename that folder$"):
        config.load()
    r = subprocess.run([sys.executable, "-m", "companion", "config"], capture_output=True, text=True)
    words = t("core.config_cli_folder", config.Config().language, file=path)  # in the table's language
    assert r.returncode == 2 and r.stderr == f"companion: {words}\n" and "config.toml/config" not in r.stderr



def test_every_games_key_is_taken_by_some_level():
    """A key in GAME_KEYS that no level of LEVEL_KEYS takes would be neither checked at load nor used."""
    for game, levels in config.LEVEL_KEYS.items():
        assert set().union(*levels.values()) == set(config.GAME_KEYS[game]), game


@pytest.mark.parametrize("line", ['language = "en"', "language = 'en'", "  language='en'  # ours"])
def test_the_language_of_a_file_that_does_not_load_is_read_in_either_quotes(tmp_path, line):
    """TOML writes a string in double or single quotes: a file with 'en' and too many mistakes was set aside, and
    the standard settings said so to an English family in German."""
    from companion.config import language_in

    path = tmp_path / "config.toml"
    path.write_text(f"{line}\nfoo = 1\n", encoding="utf-8")
    assert language_in(path) == "en"
    path.write_text("language = 'en\"\n", encoding="utf-8")  # quotes that do not match: no language
    assert language_in(path) is None


def test_rotate_is_auto_unless_set_and_the_quarter_turns_still_load(tmp_path):
    """A portrait panel with no ``rotate`` showed the picture in a third of it: "auto" (the kiosk turns a screen
    taller than wide) is the default now, and a config with 0, 90, 180 or 270 keeps its turn."""
    p = tmp_path / "c.toml"
    p.write_text('language = "en"\n', encoding="utf-8")
    assert config.load(p).display.rotate == "auto"
    for turn in ('"auto"', "0", "90", "180", "270"):
        p.write_text(f"[display]\nrotate = {turn}\n", encoding="utf-8")
        cfg = config.load(p)
        assert cfg.display.rotate == (turn.strip('"') if turn.startswith('"') else int(turn))
        p.write_text(cfg.to_toml(), encoding="utf-8")  # what ``companion config`` prints loads as it was
        assert config.load(p).display.rotate == cfg.display.rotate


@pytest.mark.parametrize("names", [
    ["Anna", "\u0410nna"],  # a Cyrillic А
    ["O'Brien", "\u039f'Brien"],  # a Greek Ο
    ["Anna", "Ben \u0410nna"],
    ["Anna Maria", "Anna  Maria"],  # two spaces
    ["Anna Maria", "Anna\u00a0Maria"],  # a no-break space
    ["Anna Maria", " Anna \u2009 Maria "],  # a thin space beside an ordinary one
])
def test_names_that_look_alike_are_not_two_seats(names):
    """Each pair looks the same on every screen and was taken as two players: the players screen showed two Annas,
    a game's top bar two of the same name."""
    with pytest.raises(ConfigError):
        config.from_dict({"players": names})


def test_inner_spaces_are_one_and_words_in_one_alphabet_each_are_names():
    cfg = config.from_dict({"players": ["Anna  Maria", "Мария", "Αλέξανδρος", "Anna Мария", "Zoë\u00a0B"]})
    assert cfg.players == ["Anna Maria", "Мария", "Αλέξανδρος", "Anna Мария", "Zoë B"]
    for broken in ("Anna\nMaria", "Anna\tMaria", "Anna\u2028Maria"):  # still refused, not made one line
        with pytest.raises(ConfigError):
            config.from_dict({"players": [broken]})


@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_table_is_told_which_letter_is_of_another_alphabet(lang):
    assert config._players_why(["Anna", "Ben", "\u0410nna"], lang) == t(
        "core.config_players_why_mixed", lang, name="\u0410nna", letter="\u0410")
    assert config._players_why(["Anna\n\u0410nna"], lang) == t("core.config_players_why_sign", lang)


@pytest.mark.parametrize("names", [["♥", "Ben"], ["Anna", "☺☺"], ["Anna", "Anna ★"], ["Anna★", "Ben", "anna"]])
def test_names_the_announcer_cannot_say_or_says_alike_are_refused(names):
    """The announcer leaves emoji unsaid: "♥" was a player nobody heard ("♥ beginnt." was "beginnt."), "Anna ★" and
    "Anna" two players both said "Anna"."""
    with pytest.raises(ConfigError):
        config.from_dict({"players": names})


@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_table_is_told_which_name_is_not_said_or_said_alike(lang):
    assert config._players_why(["Anna", "♥"], lang) == t("core.config_players_why_unsaid", lang, name="♥")
    assert config._players_why(["♥", "☺☺"], lang) == t("core.config_players_why_unsaid", lang, name="♥")
    assert config._players_why(["Anna", "Ben", "Anna ★"], lang) == t(
        "core.config_players_why_said_alike", lang, name="Anna ★", other="Anna")
    assert config._players_why(["Anna", "ANNA"], lang) == t("core.config_players_why_twice", lang, name="ANNA")
    assert config.from_dict({"players": ["Anna ★", "Ben 🦄", "42"]}).players == ["Anna ★", "Ben 🦄", "42"]
