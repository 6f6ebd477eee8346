"""The players screen driven like the table drives it: buttons alone, taps, and a laptop keyboard (on_text)."""

from __future__ import annotations

import errno

import pygame
import pytest

from companion import config
from companion.config import Config
from companion.errors import CompanionError, ConfigError
from companion.i18n import t
from companion.names import mixed_letter
from companion.views import theme
from companion.views.players_view import (
    ACTIONS,
    LIST_X,
    MAX_NAME_LEN,
    MAX_PLAYERS,
    MESSAGE_H,
    PAGES,
    PlayersMode,
    players_problem,
    undrawable,
)
from hardware.events import Button, ButtonEvent, Press
from tests.drawn_texts import recording_texts


class Recorder:
    """A save that keeps what it was given (a copy: the mode may change the list afterwards)."""

    def __init__(self, error: Exception | None = None) -> None:
        self.saved: list[list[str]] = []
        self.configs: list[Config] = []
        self.error = error

    def __call__(self, cfg: Config) -> None:
        if self.error is not None:
            raise self.error
        self.configs.append(cfg)
        self.saved.append(list(cfg.players))


def make(players=("Anna", "Ben", "Carla"), lang="de", save=None):
    cfg = Config()
    cfg.players = list(players)
    done: list[bool] = []
    rec = save if save is not None else Recorder()
    mode = PlayersMode(cfg, lang, on_done=lambda: done.append(True), save=rec)
    return mode, cfg, rec, done


def press(mode: PlayersMode, button: Button, times: int = 1, press: Press = Press.SHORT) -> None:
    for _ in range(times):
        mode.on_button(ButtonEvent(button, press))


def select_list_item(mode: PlayersMode, index: int) -> None:
    """NEXT until the outline is on list item ``index`` (players, then add, then done), then SELECT."""
    assert mode.focus == "list" and mode.entry is None
    for _ in range(len(mode.players) + 2):
        if mode.cursor == index:
            break
        press(mode, Button.NEXT)
    assert mode.cursor == index
    press(mode, Button.SELECT)


def do_action(mode: PlayersMode, player: int, action: str) -> None:
    """With buttons only: choose the player, NEXT to the action, SELECT it."""
    if mode.focus == "actions":
        press(mode, Button.UNDO)
    select_list_item(mode, player)
    assert mode.focus == "actions"
    for _ in range(len(ACTIONS)):
        if ACTIONS[mode.action] == action:
            break
        press(mode, Button.NEXT)
    assert ACTIONS[mode.action] == action
    press(mode, Button.SELECT)


def key_index(mode: PlayersMode, kind: str, char: str = "") -> int:
    return next(i for i, k in enumerate(mode.entry.keys) if k.kind == kind and k.char == char)


def type_with_buttons(mode: PlayersMode, text: str) -> None:
    """Each letter: NEXT until the grid's outline is on it, then SELECT. Only NEXT and SELECT are pressed."""
    for ch in text:
        target = key_index(mode, "space") if ch == " " else key_index(mode, "letter", ch.lower())
        presses = 0
        while mode.entry.cursor != target:
            press(mode, Button.NEXT)
            presses += 1
            assert presses <= len(mode.entry.keys), "NEXT never reached the key: the grid is not a ring"
        press(mode, Button.SELECT)


def finish_entry_with_buttons(mode: PlayersMode) -> None:
    target = key_index(mode, "done")
    while mode.entry.cursor != target:
        press(mode, Button.NEXT)
    press(mode, Button.SELECT)


def tap(mode: PlayersMode, rect: pygame.Rect) -> bool:
    return mode.on_tap(rect.center)


def tap_key(mode: PlayersMode, kind: str, char: str = "") -> None:
    assert tap(mode, mode.entry.keys[key_index(mode, kind, char)].rect)


# -- the rules are config's rules ------------------------------------------------------------------------------
CASES = [
    ["Anna"],
    ["Anna", "Ben", "Carla", "David", "Eva", "Fritz"],
    ["Anna", "Ben", "Carla", "David", "Eva", "Fritz", "Gerd"],
    [],
    ["Anna", "anna"],
    ["Anna", "ANNA "],
    ["Ä" * 20],
    ["Ä" * 21],
    ["Anna", "  "],
    ["Anna", ""],
    ["Anna", "Ben", "Ben", "Carla", "David", "Eva", "Fritz"],  # duplicate AND seven: config names the duplicate
    ["Zoé", "Zoe\u0301"],  # the same name, its é written as e and a combining accent (a config saved on a Mac)
    ["Zoe\u0301", "ZOÉ"],
    ["Anna", "E\u0301" * 20],  # twenty letters, forty code points
    ["Anna Maria", "Anna  Maria"],  # two spaces: the same name to every eye
    ["Anna Maria", "Anna\u00a0Maria"],  # a no-break space
    ["Anna", "\u0410nna"],  # a Cyrillic А: the same name to every eye
    ["O'Brien", "\u039f'Brien"],  # a Greek Ο
    ["Anna Мария", "Αλέξανδρος"],  # whole words in one alphabet each are names
    ["♥", "Ben"],  # nothing the announcer says: "♥ beginnt." was "beginnt."
    ["Anna", "☺☺"],
    ["♥", "☺☺"],  # refused as names with nothing said, not as twins
    ["Anna", "Anna ★"],  # both said "Anna"
    ["Anna", "Anna★", "Ben"],
    ["Anna ★", "Ben ☺", "42"],  # a letter or a digit each, said apart
]


@pytest.mark.parametrize("names", CASES)
def test_players_problem_agrees_with_config_from_dict(names):
    stripped = [n.strip() for n in names]
    try:
        config.from_dict({"players": names})
        accepted = True
    except ConfigError as exc:
        accepted = False
        config_message = str(exc)
    problem = players_problem(stripped, "en")
    assert (problem is None) == accepted, (names, problem)
    if not accepted:
        # the same problem as config's message, in the player's words
        expected = {"list of names": ["core.players_err_blank"], "no letter": ["core.players_err_unsaid"],
                    "once": ["core.players_err_duplicate", "core.players_err_said_alike"],
                    "1 to 6": ["core.players_err_too_many", "core.players_err_too_few"],
                    "20 letters": ["core.players_err_too_long"], "alphabet": ["core.players_err_mixed"]}
        keys = next(v for k, v in expected.items() if k in config_message)
        mixed = [found for n in stripped if (found := mixed_letter(n))] or [("", "")]
        allowed = {t(k, "en", name=n, max=m, letter=letter, other=o)
                   for k in keys for n in [w for w, _ in mixed] + (stripped or [""])
                   for m in (MAX_PLAYERS, MAX_NAME_LEN) for _, letter in mixed for o in stripped or [""]}
        assert problem in allowed, (config_message, problem)


def test_a_name_the_announcer_cannot_say_or_says_as_another_is_refused_in_words():
    """Emoji are left unsaid: "♥" was a player nobody heard ("♥ beginnt." said "beginnt."), and "Anna ★" beside
    "Anna" two players both said "Anna". Refused while typing, the outline on that name."""
    mode, cfg, rec, done = make(players=("Anna", "Ben"))
    select_list_item(mode, 2)  # add
    mode.on_text("♥")
    press(mode, Button.SELECT)  # Return: done
    assert mode.entry is not None and mode.players == ["Anna", "Ben"] and rec.saved == []
    assert mode.message == t("core.players_err_unsaid", "de", name="♥")
    from companion.views.players_view import name_problem
    assert name_problem(["Anna", "Ben", "Anna ★"], "en") == (
        t("core.players_err_said_alike", "en", name="Anna ★", other="Anna"), 2)
    assert name_problem(["Anna", "Ben", "☺☺"], "en") == (t("core.players_err_unsaid", "en", name="☺☺"), 2)
    assert name_problem(["Anna ★", "Ben ☺", "Zoë", "42"], "en") is None


def test_a_name_with_a_letter_of_another_alphabet_is_refused_in_words_with_its_place():
    """"Аnna" typed on a laptop with a Russian layout (its А Cyrillic) was taken beside "Anna": two seats the table
    cannot tell apart on any screen. Said with the word and the letter, the outline on that name; a name in
    Cyrillic letters alone is a name like any other."""
    mode, cfg, rec, done = make(players=("Anna", "Ben"))
    select_list_item(mode, 2)  # add
    mode.on_text("\u0410nna")
    press(mode, Button.SELECT)  # Return: done
    assert mode.entry is not None and mode.players == ["Anna", "Ben"] and rec.saved == []
    assert mode.message == t("core.players_err_mixed", "de", name="\u0410nna", letter="\u0410")
    assert players_problem(["Anna", "Ben", "Мария", "Anna Мария"]) is None
    from companion.views.players_view import name_problem
    assert name_problem(["Anna", "Ben", "Ca\u0440la"], "en") == (
        t("core.players_err_mixed", "en", name="Ca\u0440la", letter="\u0440"), 2)


def test_limits_match_config():
    config.from_dict({"players": [f"P{i}" for i in range(MAX_PLAYERS)]})
    with pytest.raises(ConfigError):
        config.from_dict({"players": [f"P{i}" for i in range(MAX_PLAYERS + 1)]})
    config.from_dict({"players": ["x" * MAX_NAME_LEN]})
    with pytest.raises(ConfigError):
        config.from_dict({"players": ["x" * (MAX_NAME_LEN + 1)]})


# -- typing a name ---------------------------------------------------------------------------------------------
def test_add_a_player_with_next_and_select_only():
    mode, cfg, rec, done = make()
    select_list_item(mode, 3)  # "add" comes after the three players
    assert mode.entry is not None and mode.wants_text
    type_with_buttons(mode, "ulrike b")
    assert mode.entry.text == "Ulrike B"  # first letter (and the grid's word starts) capitalised
    finish_entry_with_buttons(mode)
    assert mode.entry is None and not mode.wants_text
    assert mode.players == ["Anna", "Ben", "Carla", "Ulrike B"]
    assert rec.saved == [["Anna", "Ben", "Carla", "Ulrike B"]]  # saved at once: a power cut now loses nothing
    select_list_item(mode, 5)  # done
    assert rec.saved[-1] == ["Anna", "Ben", "Carla", "Ulrike B"] and done == [True]


def test_undo_deletes_the_last_letter_and_long_undo_is_left_to_the_app():
    mode, *_ = make()
    select_list_item(mode, 3)
    type_with_buttons(mode, "tim")
    press(mode, Button.UNDO)
    assert mode.entry.text == "Ti"
    assert mode.on_button(ButtonEvent(Button.UNDO, Press.LONG)) is False
    assert mode.entry.text == "Ti"
    press(mode, Button.UNDO, 2)
    assert mode.entry.text == ""
    press(mode, Button.UNDO)  # nothing left: UNDO leaves the entry without adding anyone
    assert mode.entry is None and mode.players == ["Anna", "Ben", "Carla"]


def test_roll_jumps_a_row_so_done_is_near():
    mode, *_ = make()
    select_list_item(mode, 3)
    assert mode.entry.cursor == 0
    press(mode, Button.ROLL, 3)
    assert mode.entry.keys[mode.entry.cursor].kind == "done"


def test_add_a_player_by_tapping():
    mode, cfg, rec, done = make()
    assert tap(mode, mode.add_rect())
    for ch in "jörg":
        tap_key(mode, "letter", ch)
    tap_key(mode, "letter", "x")
    tap_key(mode, "delete")
    assert mode.entry.text == "Jörg"
    tap_key(mode, "done")
    assert mode.players[-1] == "Jörg"
    assert tap(mode, mode.done_rect())
    assert rec.saved[-1] == ["Anna", "Ben", "Carla", "Jörg"] and done == [True]


def test_digits_signs_and_accents_are_on_the_grids_second_page(out_dir):
    """A table without a keyboard types "Anne-Marie 2" and "Zoé": the page key turns to digits and signs (the
    outline stays on it), a letter after the hyphen is a capital, and the page turns on round to the letters."""
    mode, cfg, rec, done = make()
    assert tap(mode, mode.add_rect())
    for ch in "anne":
        tap_key(mode, "letter", ch)
    tap_key(mode, "page")
    assert mode.entry.keys[mode.entry.cursor].kind == "page" and mode.entry.page == 1
    surface = pygame.Surface((800, 480))
    mode.draw(surface)
    pygame.image.save(surface, str(out_dir / "players_grid_symbols.png"))
    tap_key(mode, "letter", "-")
    tap_key(mode, "page")
    tap_key(mode, "page")  # round over the accents' page to the letters
    assert mode.entry.page == 0
    for ch in "marie":
        tap_key(mode, "letter", ch)
    tap_key(mode, "space")
    tap_key(mode, "page")
    tap_key(mode, "letter", "2")
    tap_key(mode, "done")
    assert mode.players[-1] == "Anne-Marie 2"
    assert tap(mode, mode.add_rect())
    tap_key(mode, "letter", "d")
    tap_key(mode, "page")
    tap_key(mode, "letter", "'")
    tap_key(mode, "page")
    tap_key(mode, "page")
    for ch in "angelo":
        tap_key(mode, "letter", ch)
    assert mode.entry.text == "D'Angelo"
    tap_key(mode, "cancel")
    select_list_item(mode, 4)  # add, with the buttons only
    type_with_buttons(mode, "zo")
    while mode.entry.keys[mode.entry.cursor].kind != "page":
        press(mode, Button.NEXT)
    press(mode, Button.SELECT)
    type_with_buttons(mode, "é")
    finish_entry_with_buttons(mode)
    assert rec.saved[-1] == ["Anna", "Ben", "Carla", "Anne-Marie 2", "Zoé"]


def type_on_any_page(mode: PlayersMode, text: str) -> None:
    """Each letter with NEXT and SELECT alone: the page key (NEXT to it, SELECT) until a page has the letter, then
    NEXT to the letter and SELECT. Each walk is bounded: a key NEXT cannot reach, or a page the key never turns
    to, fails."""
    for ch in text:
        for _ in range(len(PAGES)):
            if any(k.kind == "letter" and ch in (k.char, k.char.upper()) for k in mode.entry.keys) or ch == " ":
                break
            for _ in range(len(mode.entry.keys)):
                if mode.entry.keys[mode.entry.cursor].kind == "page":
                    break
                press(mode, Button.NEXT)
            press(mode, Button.SELECT)
        target = next(i for i, k in enumerate(mode.entry.keys)
                      if (k.kind == "space" if ch == " " else k.kind == "letter" and ch in (k.char, k.char.upper())))
        for _ in range(len(mode.entry.keys)):
            if mode.entry.cursor == target:
                break
            press(mode, Button.NEXT)
        assert mode.entry.cursor == target, "NEXT never reached the key"
        press(mode, Button.SELECT)


@pytest.mark.parametrize("name", ["Lukáš", "Jiří", "Miloš", "Željko", "Čedomir", "Zoë", "Noël", "Anaïs", "Yıldız",
                                  "İlkay Işık", "Đorđe", "Łukasz Żak", "Ștefan Țurcan", "Zoltán Győző", "Æsa",
                                  "Jędrzej", "João", "Niccolò", "Dušan"])
def test_names_from_the_neighbours_are_typed_with_the_buttons_alone(name):
    """No keyboard at the table: "Lukáš", "Jiří" or "Željko" could only be typed on a laptop, and "Yıldız" only
    as "Yildiz" (every key was lower-cased with str.lower, and there was no dotless ı)."""
    mode, cfg, rec, done = make(players=("Anna",))
    select_list_item(mode, 1)  # add
    type_on_any_page(mode, name)
    assert mode.entry.text == name
    finish_entry_with_buttons(mode)
    assert rec.saved[-1] == ["Anna", name]


def test_every_page_of_the_grid_is_drawn_and_walked_round_by_its_key(monkeypatch):
    """Every page has as many keys as the first, in the same places (the outline stays put when the page turns);
    each key types one letter, drawn by the screen's font as a capital and as a small letter; the page key names the
    page it turns to and walks round every page back to the letters."""
    assert len(PAGES) >= 3 and len({len(p) for p in PAGES}) == 1
    mode, *_ = make()
    select_list_item(mode, 3)
    labels = []
    for page in range(len(PAGES)):
        assert mode.entry.page == page
        letters = [k.char for k in mode.entry.keys if k.kind == "letter"]
        assert all(len(c) == 1 and len(c.upper()) == 1 or c == "ß" for c in letters), letters
        assert all(undrawable(c) is None and undrawable(c.upper()) is None for c in letters), letters
        surface = pygame.Surface((800, 480))
        with recording_texts(monkeypatch) as texts:
            mode.draw(surface)
        key = mode.entry.keys[next(i for i, k in enumerate(mode.entry.keys) if k.kind == "page")]
        labels.append(next(text for text, size, rect in texts if key.rect.contains(rect)))
        mode.on_tap(key.rect.center)
    assert mode.entry.page == 0
    assert len(set(labels)) == len(PAGES)
    assert labels[-1] == t("core.players_key_letters", "de")  # the last page's key goes back to the letters
    every = "".join(PAGES)
    assert len(set(every)) == len(every), "a letter on two pages"
    for ch in "ŠČŽŘĚĐËÏŐŃŚÆȚıİ":
        assert ch in every


def test_add_a_player_with_the_laptop_keyboard():
    mode, *_ = make()
    select_list_item(mode, 3)
    mode.on_text("m")
    mode.on_text("aRie-Luise")
    assert mode.entry.text == "MaRie-Luise"  # a keyboard has shift: only the first letter is forced
    press(mode, Button.UNDO)  # Backspace arrives as UNDO
    press(mode, Button.SELECT)  # Return after typing means done, not "type the highlighted letter"
    assert mode.entry is None
    assert mode.players == ["Anna", "Ben", "Carla", "MaRie-Luis"]


def test_space_and_r_typed_on_a_keyboard_do_not_move_the_outline_off_done():
    mode, *_ = make()
    select_list_item(mode, 3)
    mode.on_text("r")
    assert mode.on_button(ButtonEvent(Button.ROLL)) is False  # the same key press, seen as the ROLL button
    press(mode, Button.SELECT)
    assert mode.players[-1] == "R"


def test_keyboard_text_outside_entry_is_not_used():
    mode, *_ = make()
    assert mode.on_text("x") is False
    assert mode.players == ["Anna", "Ben", "Carla"]


def test_a_name_stops_at_twenty_letters_with_a_message():
    mode, *_ = make()
    select_list_item(mode, 3)
    mode.on_text("a" * (MAX_NAME_LEN + 3))
    assert len(mode.entry.text) == MAX_NAME_LEN
    assert mode.message == t("core.players_err_too_long", "de", max=MAX_NAME_LEN)
    tap_key(mode, "letter", "b")
    assert len(mode.entry.text) == MAX_NAME_LEN and "20" in mode.message


def test_the_twentieth_letter_moves_the_outline_to_done_and_dims_the_letters():
    """At twenty letters every letter key still looked usable and the outline stayed on one: each SELECT only
    brought back "At most 20 letters" (a child pressed it 83 times). The outline goes to Done, the letters grey."""
    mode, *_ = make()
    select_list_item(mode, 3)
    letter = key_index(mode, "letter", "a")
    for _ in range(MAX_NAME_LEN):
        mode.entry.cursor = letter
        press(mode, Button.SELECT)
    assert len(mode.entry.text) == MAX_NAME_LEN and mode.entry.keys[mode.entry.cursor].kind == "done"
    drawn: list[tuple[str, tuple[int, int, int]]] = []
    real = theme.text
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(theme, "text", lambda surface, s, pos, size, color, *a, **kw: (
            drawn.append((s, color)), real(surface, s, pos, size, color, *a, **kw))[1])
        mode.draw(pygame.Surface((800, 480)))
    keys = {k.char.lower() for k in mode.entry.keys if k.kind == "letter"}
    letters = [colour for text, colour in drawn if text.lower() in keys]
    assert len(letters) >= 20 and all(colour == theme.MUTED for colour in letters)
    press(mode, Button.SELECT)
    assert mode.entry is None and mode.players[-1] == "A" + "a" * (MAX_NAME_LEN - 1)


def test_a_blank_name_is_refused_in_words():
    mode, *_ = make()
    select_list_item(mode, 3)
    tap_key(mode, "space")
    tap_key(mode, "done")
    assert mode.entry is not None
    assert mode.message == t("core.players_err_blank", "de")
    assert mode.players == ["Anna", "Ben", "Carla"]


# -- the list --------------------------------------------------------------------------------------------------
def test_rename_with_buttons_and_with_taps():
    mode, cfg, rec, done = make()
    do_action(mode, 1, "rename")
    assert mode.entry.text == "Ben"
    press(mode, Button.UNDO, 3)
    type_with_buttons(mode, "bea")
    finish_entry_with_buttons(mode)
    assert mode.players == ["Anna", "Bea", "Carla"]
    # touch: tap the player, tap rename, fix the case of her own name (not a duplicate of herself)
    assert tap(mode, mode.player_rects()[0])
    assert tap(mode, mode.action_rects()["rename"])
    mode.on_text(" M")
    tap_key(mode, "done")
    assert mode.players == ["Anna M", "Bea", "Carla"]
    assert mode.message == ""


def test_remove_asks_once_more_then_removes():
    mode, *_ = make()
    do_action(mode, 1, "remove")
    assert mode.players == ["Anna", "Ben", "Carla"] and mode.remove_armed
    press(mode, Button.SELECT)
    assert mode.players == ["Anna", "Carla"]
    # touch: two taps on remove
    assert tap(mode, mode.player_rects()[1])
    assert tap(mode, mode.action_rects()["remove"])
    assert mode.players == ["Anna", "Carla"]
    assert tap(mode, mode.action_rects()["remove"])
    assert mode.players == ["Anna"]


def test_the_last_player_cannot_be_removed():
    mode, *_ = make(["Anna"])
    do_action(mode, 0, "remove")
    press(mode, Button.SELECT)
    assert mode.players == ["Anna"]
    assert mode.message == t("core.players_err_too_few", "de")


def test_move_a_player_one_seat_earlier_and_later():
    mode, *_ = make(["Anna", "Ben", "Carla", "David"])
    do_action(mode, 2, "earlier")
    assert mode.players == ["Anna", "Carla", "Ben", "David"]
    press(mode, Button.SELECT)  # the outline stays on "earlier" and the chosen player moves with her
    assert mode.players == ["Carla", "Anna", "Ben", "David"]
    assert not mode.action_enabled("earlier")  # seat 1 has no earlier seat
    press(mode, Button.SELECT)
    assert mode.players == ["Carla", "Anna", "Ben", "David"]
    assert tap(mode, mode.player_rects()[1])
    assert tap(mode, mode.action_rects()["later"])
    assert mode.players == ["Carla", "Ben", "Anna", "David"]


def test_a_duplicate_name_is_refused_with_the_message():
    mode, *_ = make()
    select_list_item(mode, 3)
    type_with_buttons(mode, "anna")
    finish_entry_with_buttons(mode)
    assert mode.entry is not None  # still typing: the family can add an initial
    assert mode.message == t("core.players_err_duplicate", "de", name="Anna")
    assert mode.players == ["Anna", "Ben", "Carla"]
    type_with_buttons(mode, " k")
    finish_entry_with_buttons(mode)
    assert mode.players == ["Anna", "Ben", "Carla", "Anna K"] and mode.message == ""


def test_a_seventh_player_is_refused():
    six = ["Anna", "Ben", "Carla", "David", "Eva", "Fritz"]
    mode, *_ = make(six, lang="en")
    select_list_item(mode, 6)  # add
    assert mode.entry is None
    assert mode.message == t("core.players_err_too_many", "en", max=MAX_PLAYERS)
    assert "6" in mode.message
    assert tap(mode, mode.add_rect())
    assert mode.entry is None and mode.players == six


# -- saving ----------------------------------------------------------------------------------------------------
def test_done_saves_the_new_config_and_calls_on_done(tmp_path):
    target = tmp_path / "companion.toml"
    cfg = Config()
    cfg.players = ["Anna", "Ben"]
    done: list[bool] = []
    mode = PlayersMode(cfg, on_done=lambda: done.append(True), save=lambda c: config.save(c, target))
    do_action(mode, 1, "earlier")
    press(mode, Button.UNDO)
    select_list_item(mode, 2)
    mode.on_text("Zoë")
    press(mode, Button.SELECT)
    select_list_item(mode, 4)
    assert done == [True]
    assert cfg.players == ["Ben", "Anna", "Zoë"]
    assert config.load(target).players == ["Ben", "Anna", "Zoë"]


def test_save_gets_the_config_object_it_was_given():
    mode, cfg, rec, done = make()
    do_action(mode, 0, "later")
    press(mode, Button.UNDO)
    select_list_item(mode, 4)
    assert rec.configs and all(c is cfg for c in rec.configs)
    assert rec.saved[-1] == ["Ben", "Anna", "Carla"] and done == [True]


@pytest.mark.parametrize(("error", "said"), [
    (ConfigError("config file /x is read-only"), "config file /x is read-only"),
    (CompanionError("disk full"), "disk full"),
    (PermissionError(13, "Permission denied"), "keine Berechtigung"),
])
def test_a_failing_save_shows_its_message_and_keeps_the_edits(error, said):
    mode, cfg, rec, done = make(save=Recorder(error))
    do_action(mode, 2, "remove")
    press(mode, Button.SELECT)
    press(mode, Button.UNDO)
    select_list_item(mode, 3)  # done
    assert done == []
    assert said in mode.message  # a disk's refusal in the table's words
    assert mode.message.startswith("Nicht gespeichert")
    assert mode.players == ["Anna", "Ben"]  # the edits stay for another try
    assert cfg.players == ["Anna", "Ben"]  # held for this run, as the mute and the language are
    rec.error = None
    press(mode, Button.NEXT, 3)  # the outline once round: the warning's arm is gone, this Done saves
    select_list_item(mode, 3)
    assert done == [True] and rec.saved[-1] == ["Anna", "Ben"]


def test_a_card_that_refuses_every_time_lets_the_second_done_go_on_with_the_names_for_this_run():
    """A full or read-only card refused each "Done" and each UNDO: the family stayed on this screen, and since the
    same screen opens from a game's setup, no game could start all evening."""
    mode, cfg, rec, done = make(save=Recorder(OSError(errno.ENOSPC, "No space left on device")))
    do_action(mode, 0, "later")
    press(mode, Button.UNDO)  # actions -> list
    press(mode, Button.UNDO)  # leave: the save is refused
    assert done == [] and mode.message == t("core.players_leave_unsaved", "de", error=t("core.disk_full", "de"))
    assert "Fertig nochmal" in mode.message and "Ausschalten" in mode.message
    press(mode, Button.UNDO)  # the same press again: on, without the save
    assert done == [True] and cfg.players == ["Ben", "Anna", "Carla"]


def test_a_press_between_the_warning_and_done_asks_once_more():
    mode, cfg, rec, done = make(lang="en", save=Recorder(OSError(errno.EROFS, "Read-only file system")))
    do_action(mode, 0, "later")
    press(mode, Button.UNDO)
    press(mode, Button.UNDO)
    assert done == [] and "Done again" in mode.message
    press(mode, Button.NEXT)  # the warning's promise is for the very next press
    press(mode, Button.UNDO)
    assert done == []
    press(mode, Button.UNDO)
    assert done == [True]


def test_leaving_without_an_edit_needs_no_save():
    """Nothing changed, nothing to write: a card that refuses every write must not keep the family here."""
    rec = Recorder(OSError(errno.EROFS, "Read-only file system"))
    mode, cfg, rec, done = make(save=rec)
    press(mode, Button.UNDO)
    assert done == [True] and mode.message == ""
    mode, cfg, rec, done = make(save=Recorder(OSError(errno.ENOSPC, "No space left on device")))
    do_action(mode, 0, "later")
    press(mode, Button.UNDO)
    do_action(mode, 0, "later")  # and back again: the names are as the card has them
    press(mode, Button.UNDO)
    select_list_item(mode, 4)
    assert done == [True]


def test_undo_on_the_list_leaves_with_the_edits_saved_as_done_does():
    mode, cfg, rec, done = make()
    do_action(mode, 0, "later")
    press(mode, Button.UNDO)  # from the actions: back to the list
    assert done == [] and mode.focus == "list"
    press(mode, Button.UNDO)  # from the list: leaves, as every other screen's back does
    assert done == [True] and rec.saved[-1] == ["Ben", "Anna", "Carla"]


def test_undo_on_a_list_that_cannot_be_saved_stays_and_says_why():
    mode, cfg, rec, done = make(save=Recorder(CompanionError("disk full")))
    do_action(mode, 0, "later")
    press(mode, Button.UNDO)
    press(mode, Button.UNDO)
    assert done == [] and "disk full" in mode.message


def test_other_buttons_are_not_used():
    mode, *_ = make()
    for b in (Button.ROLL, Button.REROLL, Button.TIMER):
        assert mode.on_button(ButtonEvent(b)) is False
    assert mode.on_button(ButtonEvent(Button.SELECT, Press.LONG)) is False
    assert mode.on_tap((5, 5)) is False


# -- screens ---------------------------------------------------------------------------------------------------
def _mean(surface: pygame.Surface, rect: pygame.Rect) -> tuple[float, ...]:
    arr = pygame.surfarray.pixels3d(surface)[rect.x:rect.right, rect.y:rect.bottom]
    return tuple(float(arr[..., c].mean()) for c in range(3))


@pytest.mark.parametrize("lang", ["de", "en"])
def test_screens_render(out_dir, lang):
    pygame.init()
    surface = pygame.Surface((800, 480))
    mode, *_ = make(["Anna", "Ben", "Carla", "Maximilian-Alexand", "Zoë"], lang=lang)
    mode.draw(surface)
    pygame.image.save(surface, str(out_dir / f"players_list_{lang}.png"))
    do_action(mode, 3, "later")
    mode.draw(surface)
    pygame.image.save(surface, str(out_dir / f"players_actions_{lang}.png"))
    # the chosen player (now seat 5) is filled with the accent colour
    r, g, b = _mean(surface, mode.player_rects()[4].inflate(-40, -30))
    assert r > 150 and g > 100 and b < 120
    press(mode, Button.UNDO)
    select_list_item(mode, 5)
    type_with_buttons(mode, "jörg")
    mode.draw(surface)
    pygame.image.save(surface, str(out_dir / f"players_grid_{lang}.png"))
    key = mode.entry.keys[mode.entry.cursor].rect
    r, g, b = _mean(surface, pygame.Rect(key.x + 8, key.y + 3, key.w - 16, 5))
    assert r > 200 and b < 80  # the highlighted key is the accent colour
    press(mode, Button.UNDO, 4)
    mode.on_text("anna")
    finish_entry_with_buttons(mode)
    assert mode.message
    mode.draw(surface)
    pygame.image.save(surface, str(out_dir / f"players_grid_message_{lang}.png"))
    mode.message = ""
    tap_key(mode, "cancel")
    mode.on_tap(mode.add_rect().center)  # sixth player
    tap_key(mode, "cancel")
    mode.players.append("Fritz")
    select_list_item(mode, 6)
    assert mode.message
    mode.draw(surface)
    pygame.image.save(surface, str(out_dir / f"players_list_message_{lang}.png"))


def test_failed_save_screen(out_dir):
    pygame.init()
    surface = pygame.Surface((800, 480))
    error = ConfigError("config file /home/pi/.config/table-companion/config.toml cannot be written: "
                        "[Errno 28] No space left on device")
    mode, *_ = make(["Anna", "Ben", "Carla", "David", "Eva", "Fritz"], save=Recorder(error))
    mode.players.reverse()  # an edit: leaving without one needs no save
    select_list_item(mode, 7)
    mode.draw(surface)
    pygame.image.save(surface, str(out_dir / "players_save_failed_de.png"))
    assert "No space left" in mode.message
    # the red-edged message panel sits in the title's place, above the first player
    r, g, b = _mean(surface, pygame.Rect(LIST_X, 20, 3, 20))
    assert r > 180 and g < 110
    assert mode.player_rects()[0].y >= MESSAGE_H


def test_renaming_by_typing_a_new_name_replaces_the_old_one():
    """The old name stayed and the letters went after it: "Ben", then "Mama" typed, gave "BenMama". Shown selected,
    it is replaced by the first letter; a delete or a space first keeps it to fix or lengthen it."""
    mode, *_ = make()
    do_action(mode, 1, "rename")
    assert mode.entry.fresh and mode.entry.next_is_capital()
    type_with_buttons(mode, "mama")
    finish_entry_with_buttons(mode)
    assert mode.players == ["Anna", "Mama", "Carla"]
    do_action(mode, 2, "rename")
    press(mode, Button.UNDO)  # a delete first: the name's end is fixed
    mode.on_text("o")
    assert mode.entry.text == "Carlo"


def test_a_held_undo_goes_back_as_a_pressed_one():
    """"UNDO done (saves)": a held UNDO did nothing there, where every other screen goes back with it."""
    mode, _, _, done = make()
    select_list_item(mode, 0)  # Anna's actions
    assert mode.focus == "actions"
    assert mode.on_button(ButtonEvent(Button.UNDO, Press.LONG)) and mode.focus == "list"
    assert mode.on_button(ButtonEvent(Button.UNDO, Press.LONG))
    assert done == [True]


def _renaming_with_hints(lang: str, monkeypatch):
    """The players screen renaming the second player, and the hint bars it draws (recorded, each a list)."""
    from companion.views import players_view

    mode, *_ = make(lang=lang)
    shown: list[list[tuple[str, str]]] = []
    real = players_view.hint_bar
    monkeypatch.setattr(players_view, "hint_bar",
                        lambda surface, hints: shown.append(list(hints)) or real(surface, hints))
    do_action(mode, 1, "rename")
    return mode, shown


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_select_hint_says_what_the_highlighted_key_does(lang, monkeypatch, out_dir):
    """A rename starts on "Done": the bar said "SELECT type", and SELECT saved the name and closed the keyboard."""
    mode, shown = _renaming_with_hints(lang, monkeypatch)
    select = t("core.btn_select", lang)
    surface = pygame.Surface((800, 480))
    for kind, word in (("done", "core.players_hint_done"), ("letter", "core.players_hint_type"),
                       ("delete", "core.players_hint_delete"), ("cancel", "core.players_hint_cancel"),
                       ("page", "core.players_hint_page")):
        mode.entry.cursor = next(i for i, key in enumerate(mode.entry.keys) if key.kind == kind)
        mode.draw(surface)
        assert (select, t(word, lang)) in shown[-1]
        if kind == "done":
            pygame.image.save(surface, str(out_dir / f"players_rename_done_{lang}.png"))


def test_a_list_with_two_names_alike_can_be_left_after_the_warning_without_saving_them():
    """A list the config would refuse ("Anna" and "anna", put in by hand) kept the screen from being left: the
    outline goes to the second one to rename it, and UNDO again leaves, the config's names untouched."""
    mode, cfg, rec, done = make(("Anna", "Ben", "anna"))
    cfg.players = ["Anna", "Ben", "Carla"]  # what the file holds
    press(mode, Button.UNDO)
    assert done == [] and "anna" in mode.message and mode.cursor == mode.chosen == 2
    press(mode, Button.UNDO)
    assert done == [True] and rec.saved == [] and cfg.players == ["Anna", "Ben", "Carla"]


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_undo_hint_on_an_empty_name_says_it_leaves(lang, monkeypatch):
    """On an empty name UNDO (Backspace on a laptop) closes the keyboard: the bar said "UNDO delete" there."""
    mode, shown = _renaming_with_hints(lang, monkeypatch)
    undo, surface = t("core.btn_undo", lang), pygame.Surface((800, 480))
    mode.draw(surface)
    assert (undo, t("core.players_hint_delete", lang)) in shown[-1]  # letters to delete
    while mode.entry.text:
        press(mode, Button.UNDO)
    mode.draw(surface)
    assert (undo, t("core.players_hint_cancel", lang)) in shown[-1]
    press(mode, Button.UNDO)
    assert mode.entry is None  # as the hint said


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_press_the_screen_does_not_take_keeps_the_warnings_promise(lang):
    """With a name the screen cannot draw, UNDO says "UNDO again: the names stay as they are". A ROLL, TIMER or
    REROLL press or a tap beside everything between (nothing happens, the words stay) cancelled that promise: the
    next UNDO showed the warning again. A press the screen takes (NEXT) still drops it, and its words with it."""
    for stray in (Button.ROLL, Button.TIMER, Button.REROLL, "tap"):
        mode, cfg, rec, done = make(("Anna", "🎲Ben"), lang)
        press(mode, Button.UNDO)
        promise = t("core.players_leave_anyway", lang)
        assert done == [] and mode.message.endswith(promise)
        if stray == "tap":
            assert mode.on_tap((2, 2)) is False
        else:
            assert mode.on_button(ButtonEvent(stray)) is False
        assert mode.message.endswith(promise), stray  # still said, and still meant
        press(mode, Button.UNDO)
        assert done == [True] and rec.saved == [], stray
    mode, cfg, rec, done = make(("Anna", "🎲Ben"), lang)
    press(mode, Button.UNDO)
    press(mode, Button.NEXT)
    assert not mode.message.endswith(t("core.players_leave_anyway", lang))
    press(mode, Button.UNDO)
    assert done == []


def test_a_name_with_a_combining_accent_is_the_same_name_and_stored_one_way():
    """"Zoé" written as e and a combining accent (a config saved on a Mac) looked like the "Zoé" typed on the Pi,
    and the config and the players screen took both: two players the table could not tell apart."""
    with pytest.raises(ConfigError):
        config.from_dict({"players": ["Zoé", "Zoe\u0301"]})
    assert config.from_dict({"players": ["Zoe\u0301", "Ben"]}).players == ["Zoé", "Ben"]
    mode, cfg, rec, done = make(("Zoé", "Ben", "Zoe\u0301"))  # a list given in code, not through the config
    press(mode, Button.UNDO)
    assert done == [] and mode.message.startswith(t("core.players_err_duplicate", "de", name="Zoé"))
    mode, cfg, rec, done = make(("Zoé", "Ben"))
    select_list_item(mode, 2)
    mode.on_text("Zoe\u0301")
    press(mode, Button.SELECT)
    assert mode.entry is not None and mode.message == t("core.players_err_duplicate", "de", name="Zoé")
    mode, cfg, rec, done = make(("Anna", "Ben"))
    select_list_item(mode, 2)
    mode.on_text("Zoe\u0301")
    press(mode, Button.SELECT)
    assert mode.entry is None and mode.players == ["Anna", "Ben", "Zoé"] and rec.saved[-1][-1] == "Zoé"
