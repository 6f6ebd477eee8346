import subprocess
import sys
import tomllib

import pytest

from companion import config
from companion.errors import ConfigError


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
