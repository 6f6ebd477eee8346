"""Bad input from a family (a broken file, an unreadable one, a name the font cannot draw) gets a clear word on
the screen, never a traceback and never lost data."""

from __future__ import annotations

import pygame
import pytest

from companion import dicesets
from companion.app import App
from companion.config import Config
from companion.display import Display
from companion.i18n import t
from companion.views.teach_view import TeachView
from hardware.events import Button, ButtonEvent, Press


def _app(tmp_path, **kw) -> App:
    cfg = Config()
    return App(cfg, state_dir=tmp_path, display=Display((800, 480), fullscreen=False), use_camera=False, **kw)


def _shot(app: App, path) -> None:
    """The screen as the table sees it (a fake camera has no source for ``frame``)."""
    screen = pygame.Surface((800, 480))
    app.draw(screen)
    pygame.image.save(screen, str(path))


def _press(app: App, button: Button) -> None:
    app.on_button(ButtonEvent(button, Press.SHORT))


def test_teaching_a_set_whose_copy_is_broken_says_so_and_stays_on_the_list(tmp_path, out_dir):
    """The teaching screen loaded the set unguarded: the companion stopped, and stopped again at every try."""
    copy = dicesets.user_dir() / "fritzo.toml"
    copy.parent.mkdir(parents=True, exist_ok=True)
    copy.write_text('name = "fritzo"\nbroken\n', encoding="utf-8")
    app = _app(tmp_path)
    app.watcher = type("Camera", (), {"throw": lambda self: None, "error": None})()
    app.teach_menu()
    menu = app.mode
    values = [i.value for i in menu.menu.items]
    for _ in range(values.index("fritzo")):
        _press(app, Button.NEXT)
    _press(app, Button.SELECT)
    assert app.mode is menu and not isinstance(app.mode, TeachView)
    assert app.notice and "anlernen" in app.notice and "fritzo.toml" in app.notice
    _shot(app, out_dir / "bad_input_teach_broken_set.png")
    assert copy.read_text(encoding="utf-8") == 'name = "fritzo"\nbroken\n'  # the family's file left as it was


@pytest.mark.parametrize("lang", ["de", "en"])
def test_fritzo_with_a_cube_set_that_cannot_be_read_says_so_and_keeps_the_file(tmp_path, out_dir, lang):
    """A folder where ``fritzo-cubes.json`` belongs (or no permission): IsADirectoryError stopped the companion."""
    from companion.app import GAME_ENTRIES
    from companion.games.fritzo import cubeset
    from companion.games_ui import register_all

    register_all()
    in_the_way = cubeset.default_path()
    in_the_way.mkdir(parents=True)
    (in_the_way / "kept.txt").write_text("mine", encoding="utf-8")
    app = _app(tmp_path)
    app.lang = lang
    app.new_game(GAME_ENTRIES["fritzo"], {"mode": "level-one", "_players": ("Anna", "Ben")})
    assert app.session is None or app.entry is not GAME_ENTRIES["fritzo"]
    words = t("core.disk_in_the_way", lang)
    assert app.notice and words in app.notice and str(in_the_way) in app.notice
    assert (in_the_way / "kept.txt").read_text(encoding="utf-8") == "mine"  # nothing moved, nothing deleted
    _shot(app, out_dir / f"bad_input_fritzo_cubes_unreadable_{lang}.png")


@pytest.mark.parametrize("lang", ["de", "en"])
def test_names_typed_when_the_settings_could_not_be_read_are_said_not_kept(tmp_path, out_dir, lang):
    """``config.save`` leaves a file it could not read at the start as it is: the names typed on the players screen
    were gone after a restart without a word (the mute and the language said so)."""
    from test_players_view import finish_entry_with_buttons, select_list_item, type_with_buttons

    from companion import config
    from companion.views.players_view import PlayersMode

    config.paths.config_file().mkdir(parents=True)
    cfg, _words = config.load_for_the_table(lang=lang)
    assert cfg.unreadable is not None
    mode = PlayersMode(cfg, lang, on_done=lambda: None)
    select_list_item(mode, len(mode.players))  # "add a player"
    type_with_buttons(mode, "Ida")
    finish_entry_with_buttons(mode)
    assert "Ida" in mode.players and config.paths.config_file().is_dir()  # the folder left as it is
    assert mode.message == t("core.players_not_kept", lang,
                             error=t("core.disk_in_the_way", lang))
    screen = pygame.Surface((800, 480))
    mode.draw(screen)
    pygame.image.save(screen, str(out_dir / f"bad_input_players_not_kept_{lang}.png"))


def _copy(text: bytes, name: str = "fritzo"):
    """The family's copy of a set's file, as its editor saved it."""
    path = dicesets.user_dir() / f"{name}.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text)
    return path


def _builtin(name: str = "fritzo") -> str:
    return (dicesets._BUILTIN / f"{name}.toml").read_text(encoding="utf-8")


@pytest.mark.parametrize("saved", ["utf-8-sig", "cp1252"])
def test_a_dice_set_copy_saved_by_notepad_loads(saved):
    """Notepad's "UTF-8 with BOM" and ANSI saves counted as broken, though config.toml read them fine."""
    _copy(("# Würfel für Oma\n" + _builtin()).encode(saved))
    assert dicesets.load("fritzo").face_names() == dicesets.parse(_builtin()).face_names()


@pytest.mark.parametrize(("text", "words", "line"), [
    (b"", "dice.err_empty", 0),
    (b"\n  \n", "dice.err_empty", 0),
    (b'name = "fritzo"\nbroken\n', "dice.err_toml", 2),
    (b'name = "fritzo"\nreader = "taught"\n[[dice]]\nkind = "colour"\ncount = 99\nfaces = ["red"]\n',
     "dice.err_entry", 5),
    (b'name = "fritzo"\nreeder = "taught"\n', "dice.err_entry", 2),
    (b'name = "fritz"\n[[dice]]\nkind = "colour"\nfaces = ["red"]\n', "dice.err_name", 1),
])
def test_a_broken_dice_set_copy_is_said_in_the_tables_words_with_its_line(text, words, line):
    """The screen read "Die Würfelsatz-Datei lässt sich nicht verwenden … Dice set …: is not valid TOML (Expected
    '=' …). Fix the file, or delete your copy": half in English; an empty copy said "name = None is wrong"."""
    from companion.errors import DiceSetError
    from companion.i18n import said

    path = _copy(text)
    with pytest.raises(DiceSetError) as err:
        dicesets.load("fritzo")
    assert err.value.words == words and err.value.params["line"] == line
    assert str(path) in str(err.value)  # the terminal's words, as before
    for lang in ("de", "en"):
        shown = said(err.value, lang)
        assert str(path) in shown and "Fix the file" not in shown and "None" not in shown
        if line and words != "dice.err_name":
            assert str(line) in shown
    assert path.read_bytes() == text  # left as the family saved it


def test_the_game_start_says_a_broken_copy_in_german(tmp_path, out_dir):
    _copy(b'name = "noch-x-mal"\nbroken\n', "noch-x-mal")
    app = _app(tmp_path)
    app.watcher = type("Camera", (), {"throw": lambda self: None, "error": None, "set_reader": lambda s, r: None})()
    assert not app._camera_reads("noch-x-mal")
    assert "Zeile 2" in app.notice and "Dice set" not in app.notice and "Fix the file" not in app.notice
    _shot(app, out_dir / "bad_input_game_broken_set_de.png")


@pytest.mark.parametrize("saved", ["utf-16", "utf-16-be"])
def test_files_saved_as_notepads_unicode_are_read(saved):
    """Notepad's "Unicode" is UTF-16 with a byte-order mark: read as the Windows code page every letter stood
    beside a zero, and config.toml so saved was broken (the family's names gone to the standard ones)."""
    from companion import config
    from companion.atomic import text_as_saved

    def as_notepad(text: str) -> bytes:  # the mark first ("utf-16" writes it itself, "utf-16-be" does not)
        return (b"\xfe\xff" if saved.endswith("be") else b"") + text.encode(saved)

    words = 'players = ["Jörg", "Zoë"]\n'
    assert text_as_saved(as_notepad(words)) == words
    path = config.paths.config_file()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(as_notepad(words))
    assert config.load().players == ["Jörg", "Zoë"]
    _copy(as_notepad("# Würfel für Oma\n" + _builtin()))
    assert dicesets.load("fritzo").name == "fritzo"


def test_labels_saved_as_excels_unicode_text_are_read(tmp_path):
    """Excel's "Unicode text": UTF-16 with its mark, tabs between the columns, decimal commas on a German Windows."""
    from synth_dice import write_examples

    from companion import profiles
    from companion.teach import teach_from_examples

    folder = tmp_path / "ex"
    write_examples(folder, "fritzo", ["red", "blue"], seed=4, name="Würfel{:02d}.jpg")
    labels = folder / "labels.csv"
    rows = [row.replace(",", "\t").replace(".", ",").replace(",jpg", ".jpg") for row in labels.read_text().splitlines()]
    labels.write_bytes(("\r\n".join(rows) + "\r\n").encode("utf-16"))
    report = teach_from_examples("fritzo", folder)
    assert report.added == 2 and not report.skipped
    assert profiles.load_profile("fritzo").counts() == {"red": 1, "blue": 1}


UNDRAWABLE = ["🎲Anna", "王芳", "محمد", "👩\u200d👩\u200d👧"]


@pytest.mark.parametrize("lang", ["de", "en"])
@pytest.mark.parametrize("name", UNDRAWABLE)
def test_a_name_the_screen_cannot_draw_is_refused_naming_the_character(name, lang, out_dir):
    """Taken, such a name was a row of boxes on every screen of the evening."""
    from test_players_view import make

    from companion.views.players_view import players_problem

    problem = players_problem(["Ben", name], lang)
    assert problem is not None and f"U+{ord(name[0]):04X}" in problem and name in problem
    mode, cfg, rec, done = make(("Ben",), lang)
    mode._start_add()
    mode.on_text(name)  # as a laptop keyboard types it
    assert mode.entry.text == "" and f"U+{ord(name[0]):04X}" in mode.message
    mode.on_text("Ida" + name)
    assert mode.entry.text == "Ida"  # the letters before it kept
    if name == UNDRAWABLE[0]:
        screen = pygame.Surface((800, 480))
        mode.draw(screen)
        pygame.image.save(screen, str(out_dir / f"bad_input_players_undrawable_{lang}.png"))
    assert players_problem(["Ben", "Zoe\u0301", "Jörg-Ñuñez"], lang) is None  # accents the font has, and composed


def test_a_family_emoji_is_refused_by_config_for_what_it_is():
    """"👩‍👩‍👧" joins with U+200D: config said "without line breaks or tabs", which it has none of."""
    from companion import config
    from companion.errors import ConfigError

    with pytest.raises(ConfigError) as err:
        config.from_dict({"players": ["👩\u200d👩\u200d👧", "Ben"]})
    assert "line breaks" not in str(err.value) and "U+200D" in str(err.value)
    with pytest.raises(ConfigError, match="line breaks"):
        config.from_dict({"players": ["An\nna"]})


def _run_started_with(monkeypatch, toml: str) -> dict:
    """``companion run`` over a config file holding ``toml``: what the app would have started with."""
    from companion import cli, config, runtime

    path = config.paths.config_file()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(toml, encoding="utf-8")
    seen: dict = {}
    monkeypatch.setattr(runtime, "run_app", lambda cfg, **kw: seen.update(cfg=cfg, **kw) or 0)
    assert cli.main(["run", "--window"]) == 0
    return seen


def test_names_in_the_config_the_screen_cannot_draw_are_said_at_the_start(monkeypatch):
    """The table's config names "🎲Anna": kept (the file is the family's), and the start says where to change it."""
    seen = _run_started_with(monkeypatch, 'players = ["🎲Anna", "Ben"]\n')
    assert seen["cfg"].players == ["🎲Anna", "Ben"]
    assert seen["notice"] == t("core.players_undrawable_start", "de", name="🎲Anna", place=1, code="U+1F3B2")


def test_every_name_in_the_config_the_screen_cannot_draw_is_named_at_the_start(monkeypatch):
    """"🎲Anna" and "王芳": the start named the first alone, and the second was boxes after the first was mended."""
    seen = _run_started_with(monkeypatch, 'language = "en"\nplayers = ["🎲Anna", "Ben", "王芳"]\n')
    assert "🎲Anna" in seen["notice"] and "王芳" in seen["notice"] and "Ben" not in seen["notice"]
    assert seen["notice"].startswith("The names")


@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_players_screen_with_an_undrawable_config_name_can_be_left(lang, out_dir, monkeypatch):
    """A config name "🎲Anna" kept the players screen from being left (every UNDO said the name was wrong), and a
    rename of Ben was refused for Anna's box: the screen puts the outline on the name, says how to rename it, and the
    same press again leaves with the names as they are."""
    from drawn_texts import recording_texts
    from test_players_view import make

    from companion.views import theme
    from companion.views.players_view import MESSAGE_H, PlayersMode
    from hardware.events import Button, ButtonEvent

    mode, cfg, rec, done = make(("Ben", "🎲Anna", "Carla"), lang)
    mode._do("rename")  # Ben renamed: taken, though Anna's name has the box
    mode.on_text("Bea")
    mode.on_button(ButtonEvent(Button.SELECT))  # on "Done" after typing
    assert mode.players[0] == "Bea" and mode.message == ""
    mode.on_button(ButtonEvent(Button.UNDO))
    assert done == [] and "🎲Anna" in mode.message and "U+1F3B2" in mode.message
    assert mode.cursor == mode.chosen == 1 and mode.focus == "list"  # SELECT opens Anna's actions, rename first
    screen = pygame.Surface((800, 480))
    with recording_texts(monkeypatch) as drawn:
        mode.draw(screen)
    pygame.image.save(screen, str(out_dir / f"bad_input_players_leave_{lang}.png"))
    said = [(size, rect) for _, size, rect in drawn if rect.y < MESSAGE_H]
    assert said and all(rect.bottom <= MESSAGE_H + 6 and size >= theme.SMALL for size, rect in said)  # not on the list
    mode.on_button(ButtonEvent(Button.UNDO))  # the same again: leaves, the names as saved
    assert done == [True] and cfg.players == ["Bea", "🎲Anna", "Carla"]
    mode2 = PlayersMode(cfg, lang, on_done=lambda: done.append(True), save=rec)
    mode2.on_button(ButtonEvent(Button.UNDO))
    mode2.on_button(ButtonEvent(Button.NEXT))  # another press between: the warning again, not leaving
    mode2.on_button(ButtonEvent(Button.UNDO))
    assert done == [True] and mode2.message
    mode2.on_button(ButtonEvent(Button.SELECT))  # on Anna: her actions, rename first
    mode2.on_button(ButtonEvent(Button.SELECT))
    assert mode2.entry is not None and mode2.entry.index == 1


def test_the_doctor_checks_dice_sets_taught_dice_and_kept_files_without_moving_them():
    """``companion doctor`` said nothing of a family's dice-set copy that does not load, of a damaged profile or of
    the settings kept aside: each is found there now, and every file stays where it is."""
    import numpy as np

    from companion import config, doctor, profiles
    from companion.games.fritzo import cubeset
    from vision.taught import DIM

    _copy(b'name = "fritzo"\nbroken\n')
    _copy(_builtin("noch-x-mal").encode("utf-8-sig"), "noch-x-mal")
    taught = profiles.fresh_profile("haste-worte")
    taught.add_vector("cars", np.ones(DIM, np.float32))
    profiles.save_profile(taught)
    damaged = profiles.profile_path("echt-spitze")
    damaged.write_bytes(b"not a profile")
    cubeset.default_path().write_text("{", encoding="utf-8")
    kept = config.paths.config_file().with_name("config.toml.corrupt-20261207-120000")
    kept.parent.mkdir(parents=True, exist_ok=True)
    kept.write_text("players = [\n", encoding="utf-8")
    before = sorted(p for p in config.paths.data_dir().rglob("*")) + [kept]

    lines = doctor._dice_and_teaching()
    said = "\n".join(lines)
    assert any(s.startswith("PROBLEM dice set fritzo:") and "fritzo.toml" in s for s in lines), said
    assert any(s.startswith("ok      dice set noch-x-mal: your copy") for s in lines), said
    assert "ok      taught dice haste-worte: 1 example (" in said
    assert any(s.startswith("PROBLEM taught dice echt-spitze:") and "companion teach echt-spitze" in s
               for s in lines), said
    assert any(s.startswith("PROBLEM Fritzo cubes:") for s in lines), said
    assert f"note    kept aside: {kept}" in said
    assert sorted(p for p in config.paths.data_dir().rglob("*")) + [kept] == before  # nothing moved
    assert damaged.read_bytes() == b"not a profile"


@pytest.mark.parametrize(("text", "why"), [
    ('players = ["Jörg", "Ute", "Jörg"]\n', ("core.config_players_why_twice", {"name": "Jörg"})),
    ('players = ["Jörg", Ute]\n', ("core.config_players_why_line", {})),
    ('players = ["A", "B", "C", "D", "E", "F", "G"]\n', ("core.config_players_why_count", {"n": 7})),
])
@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_repair_notice_says_why_the_names_went_and_where_to_enter_them(text, why, lang, out_dir):
    """"Fehler in der Einstellungsdatei (players): dort gilt der Standardwert …" said neither why nor that the
    names now at the table (Anna, Ben, Carla, David) stand in for the family's, to be entered again."""
    from companion import app as app_mod
    from companion import config

    path = config.paths.config_file()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f'language = "{lang}"\n{text}', encoding="utf-8")
    cfg, words = config.load_for_the_table()
    assert cfg.players == config.Config().players and words is not None
    assert t(*why[:1], lang, **why[1]) in words
    assert t("core.menu_players", lang) in words and "Anna, Ben, Carla, David" in words
    if "Jörg" in text and "Ute]" not in text:
        screen = pygame.Surface((800, 480))
        app_mod._draw_notice(screen, words)
        pygame.image.save(screen, str(out_dir / f"bad_input_config_names_lost_{lang}.png"))


def test_the_repair_notice_says_nothing_of_names_the_file_kept():
    from companion import config

    path = config.paths.config_file()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text('players = ["Mia", "Jörg"]\n[sound]\nvolume = 150\n', encoding="utf-8")
    cfg, words = config.load_for_the_table()
    assert cfg.players == ["Mia", "Jörg"] and words and t("core.menu_players", "de") not in words


def _labels(folder, rows: list[str]) -> None:
    from synth_dice import write_examples

    write_examples(folder, "haste-worte", ["sweets"], seed=4)
    (folder / "labels.csv").write_text("image,face,x_min,y_min,x_max,y_max\n" + "".join(r + "\n" for r in rows),
                                       encoding="utf-8")


@pytest.mark.parametrize("lang", ["de", "en"])
def test_a_label_with_an_umlaut_is_told_which_letters_a_new_symbol_takes(tmp_path, lang):
    """"süßes" was told to use lowercase ("eine andere Kennung in Kleinbuchstaben"), which it is."""
    from companion.teach import ExamplesError, teach_from_examples

    _labels(tmp_path, ["img.jpg,süßes,0.1,0.1,0.3,0.3"])
    with pytest.raises(ExamplesError) as err:
        teach_from_examples("haste-worte", tmp_path, lang=lang)
    said = str(err.value)
    assert "süßes" in said and "a–z" in said and "ß" in said.replace("süßes", "")
    assert "Kleinbuchstaben" not in said and "lowercase" not in said


@pytest.mark.parametrize(("row", "key"), [
    ('"img.jpg,sweets,0.1,0.1,0.3,0.3', "teach.ex_err_quote"),
    ('img.jpg,"sweets,0.1,0.1,0.3,0.3', "teach.ex_err_quote"),
    ('img.jpg,sweets,0.1,0.1,0.3,"0.3', "teach.ex_err_quote"),
    ("img.jpg,sweets", "teach.ex_err_short"),
])
def test_a_labels_row_with_a_quote_left_open_or_cut_short_is_said_so(tmp_path, row, key):
    """A quote left open ran the row into one column: "„“ ist keine Seite" said nothing of the quote."""
    from companion.teach import ExamplesError, teach_from_examples

    _labels(tmp_path, [row])
    with pytest.raises(ExamplesError) as err:
        teach_from_examples("haste-worte", tmp_path, lang="de")
    assert str(err.value).startswith(t(key, "de", labels=tmp_path / "labels.csv", line=2, missing="", need="")[:40])
    assert "keine Seite" not in str(err.value)


def test_a_profile_that_cannot_be_read_is_said_in_words_not_errno():
    """The terminal read "cannot be read ([Errno 21] Is a directory: '…')"."""
    from companion import profiles
    from companion.errors import ProfileUnreadable

    profiles.profile_path("haste-worte").mkdir(parents=True)
    with pytest.raises(ProfileUnreadable) as err:
        profiles.load_profile("haste-worte")
    assert "Errno" not in str(err.value) and t("core.disk_in_the_way", "en") in str(err.value)
    assert profiles.profile_path("haste-worte").is_dir()  # left where it is
