"""Unnamed seats ("Player 2", "Spieler 2") are named in the language the game is played in now, also in a game
resumed after the language was switched: the journal keeps them as words of the language the game began in."""

from __future__ import annotations

import pytest

from companion.announce import Announcement
from companion.app import GAME_ENTRIES, App, players_steps
from companion.config import Config
from companion.display import Display
from companion.games_ui import register_all
from companion.i18n import t
from tests.drawn_texts import recording_texts

DICE = ["dishes", "fruit", "car", "water", "toys", "animals"]


def _app(tmp_path, lang: str, players: list[str]) -> App:
    cfg = Config()
    cfg.players, cfg.language = players, lang
    return App(cfg, state_dir=tmp_path, display=Display((800, 480), fullscreen=False), use_camera=False)


def _start_haste(app: App) -> tuple[str, ...]:
    """Haste Worte for the config's one name and the seat the wizard adds ("Player 2"), both grabbing at once."""
    names = players_steps(app.cfg, app.lang, 2, 6)[0].choices[0][1]
    app.new_game(GAME_ENTRIES["haste-worte"], {"_players": names, "start": 1, "variant": "simultaneous"})
    return names


def _heard(app: App) -> list[Announcement]:
    said: list[Announcement] = []
    app.announce = said.append  # (a session takes the app's announce when it is made)
    return said


@pytest.mark.parametrize(("first", "then"), [("en", "de"), ("de", "en")])
def test_an_unnamed_seat_is_named_in_the_language_the_game_is_resumed_in(tmp_path, monkeypatch, first, then):
    register_all()
    app = _app(tmp_path, first, ["Anna"])
    seat = {lang: t("core.seat_name", lang, n=2) for lang in ("de", "en")}
    try:
        assert _start_haste(app) == ("Anna", seat[first])
        assert app.session.apply({"action": "roll", "dice": DICE})
        assert app.session.apply({"action": "pick", "player": seat[first], "die": 1})  # a step naming the seat
        app.main_menu()
        app.switch_language(then)
        said = _heard(app)
        app.resume(app.mode.menu.items[0].value[1])
        assert app.session.engine.players == ["Anna", seat[then]]
        with recording_texts(monkeypatch) as drawn:
            app.frame(0.03, [])
        words = " ".join(text for text, _, _ in drawn)
        assert seat[then] in words and seat[first] not in words
        # the game goes on naming the seat so: its sentences too
        assert app.session.apply({"action": "pick", "player": "Anna", "die": 2})
        assert app.session.apply({"action": "letter", "letter": "K"})
        assert app.session.apply({"action": "timer_start", "at": 1.0})
        assert app.session.apply({"action": "timer_expired", "at": 91.0})
        assert app.session.apply({"action": "score", "words": 1})
        sentences = " ".join(a.text(then) for a in said)
        assert seat[then] in sentences and seat[first] not in sentences
        journal = app.journal.path.read_text(encoding="utf-8")
        assert seat[first] not in journal  # written whole in the words of now: one seat, one name
    finally:
        app.close()
    # switched on again in the first language: the same game, the seat named as at its start
    again = _app(tmp_path, first, ["Anna"])
    try:
        again.resume(again.mode.menu.items[0].value[1])
        assert again.session.engine.players == ["Anna", seat[first]]
        assert len(again.session.actions) == 8  # the setup and seven steps
        assert again.session.apply({"action": "score", "words": 2})
    finally:
        again.close()


def test_a_players_name_that_is_another_languages_seat_keeps_the_seats_as_they_are(tmp_path):
    """A family whose player is called "Spieler 2", with an English game's "Player 2" beside her: named in German,
    two players would have one name; the game resumes with both as they were."""
    register_all()
    app = _app(tmp_path, "en", ["Spieler 2"])
    try:
        assert _start_haste(app) == ("Spieler 2", "Player 2")
        assert app.session.apply({"action": "roll", "dice": DICE})
        app.main_menu()
        app.switch_language("de")
        assert app.resume(app.mode.menu.items[0].value[1])
        assert app.session.engine.players == ["Spieler 2", "Player 2"]
    finally:
        app.close()


@pytest.mark.parametrize(("first", "then"), [("en", "de"), ("de", "en")])
def test_a_player_called_like_a_seat_keeps_her_name_in_the_other_language(tmp_path, first, then):
    """A family that typed "Player 2" as a name: the companion's own seat beside her ("Player 3") is named in the
    language of the resume, she is not; and so again after the game was written whole in the new words."""
    register_all()
    seat = {lang: {n: t("core.seat_name", lang, n=n) for n in (2, 3)} for lang in ("de", "en")}
    app = _app(tmp_path, first, [seat[first][2]])
    try:
        assert _start_haste(app) == (seat[first][2], seat[first][3])
        assert app.session.apply({"action": "roll", "dice": DICE})
        assert app.session.apply({"action": "pick", "player": seat[first][2], "die": 1})
        app.main_menu()
        app.switch_language(then)
        assert app.resume(app.mode.menu.items[0].value[1])
        assert app.session.engine.players == [seat[first][2], seat[then][3]]
        assert app.session.apply({"action": "pick", "player": seat[then][3], "die": 2})  # written whole so
    finally:
        app.close()
    again = _app(tmp_path, first, [seat[first][2]])
    try:
        assert again.resume(again.mode.menu.items[0].value[1])
        assert again.session.engine.players == [seat[first][2], seat[first][3]]
        assert len(again.session.actions) == 4
    finally:
        again.close()


@pytest.mark.parametrize(("first", "then"), [("en", "de"), ("de", "en")])
def test_a_journal_without_the_record_of_seats_renames_them_as_before(tmp_path, first, then):
    """A game saved by a version whose header did not record the seats it named: every name that reads as a seat
    is named in the language of the resume, as it was then."""
    import json

    register_all()
    seat = {lang: t("core.seat_name", lang, n=2) for lang in ("de", "en")}
    app = _app(tmp_path, first, ["Anna"])
    try:
        _start_haste(app)
        assert app.session.apply({"action": "roll", "dice": DICE})
        app.main_menu()
        lines = app.journal.path.read_text(encoding="utf-8").splitlines()
        header = json.loads(lines[0])
        assert header["unnamed"] == [seat[first]]
        del header["unnamed"]
        app.journal.path.write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n", encoding="utf-8")
        app.switch_language(then)
        assert app.resume(app.mode.menu.items[0].value[1])
        assert app.session.engine.players == ["Anna", seat[then]]
    finally:
        app.close()
