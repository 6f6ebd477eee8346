"""A call to whoever acts next is taken back once the table has answered it (``Announcement.until``): the session
withdraws it from the announcer where it still waits. The calls measured late at a real pace (helper s70speech's
audit, espeak-ng at 150 wpm): Noch X-Mal!'s start choice said while the chosen player rolled, Echt Spitze's round call
after the roll, also the game's first one, which the setup says."""

from __future__ import annotations

from pathlib import Path

from companion.announce import Announcement
from companion.games.echt_spitze import EchtSpitze
from companion.games.noch_x_mal import NochXMal
from companion.journal import Journal
from companion.session import GameSession


class Queue:
    """The announcer's queue as the session sees it: what waits, in order; a withdrawal takes the very objects."""

    def __init__(self) -> None:
        self.waiting: list[Announcement] = []

    def announce(self, a: Announcement) -> None:
        self.waiting.append(a)

    def withdraw(self, gone: list[Announcement]) -> None:
        ids = {id(a) for a in gone}
        self.waiting = [a for a in self.waiting if id(a) not in ids]


def nxm_session(tmp_path: Path) -> tuple[GameSession, Queue]:
    queue = Queue()
    session = GameSession.new(NochXMal, {"action": "setup", "players": ["Oma Gisela", "Anna-Sophie", "Zoé"],
                                         "seed": 7}, Journal(tmp_path), announcer=queue, announce=queue.announce)
    for name, combo in (("Oma Gisela", ["yellow", "4"]), ("Anna-Sophie", ["red", "2"]), ("Zoé", ["blue", "5"])):
        assert session.apply({"action": "start_combo", "player": name, "dice": combo})
    return session, queue


def test_noch_x_mal_start_choice_is_short_and_taken_back_once_chosen(tmp_path):
    """The table chose Anna-Sophie at 15 s; "Anna-Sophie beginnt." was never heard, and the 10 s sentence asking who
    starts came at 19 s while she rolled."""
    session, queue = nxm_session(tmp_path)
    choose = [a for a in queue.waiting if a.key == "nxm.start_ready_choose"]
    assert [a.text("de") for a in choose] == ["Wer zuletzt etwas Pinkes berührt hat, beginnt: auf dem Bildschirm "
                                              "wählen."]
    assert choose[0].text("en") == "Whoever last touched something pink starts: choose on the screen."
    assert session.apply({"action": "first_player", "player": "Anna-Sophie"})
    assert "nxm.start_ready_choose" not in [a.key for a in queue.waiting]
    assert [a.text("de") for a in queue.waiting][-1] == "Anna-Sophie beginnt."


def test_noch_x_mal_start_choice_is_taken_back_by_the_roll(tmp_path):
    session, queue = nxm_session(tmp_path)
    assert session.apply({"action": "roll"})  # nobody chosen: the default starter rolls
    assert "nxm.start_ready_choose" not in [a.key for a in queue.waiting]


def test_echt_spitze_first_round_call_is_taken_back_by_the_roll(tmp_path):
    """The setup's "Anna beginnt: alle Würfel werfen!" is an opening sentence, not a step's: it was never withdrawn."""
    queue = Queue()
    session = GameSession.new(EchtSpitze, {"action": "setup", "players": ["Anna", "Ben"], "level": 1},
                              Journal(tmp_path), announcer=queue, announce=queue.announce)
    assert [a.key for a in queue.waiting] == ["echt.turn.start", "echt.setup.put_back_2"]  # who begins, first
    assert session.apply({"action": "roll", "dice": ["1", "2", "3", "4"]})
    assert "echt.turn.start" not in [a.key for a in queue.waiting]


def test_echt_spitze_dice_to_put_back_are_not_said_after_the_first_roll(tmp_path):
    """A table that rolled at once heard "Legt 2 Würfel ohne Extrakreuz zurück in die Schachtel: Ihr spielt mit 4
    Würfeln." (6 s) after its roll, over the dice being taken: a roll is taken only with the dice played, so it
    answers the sentence. Through the announcer (a fake voice of 0.05 s a letter), rolled 2 s after the start."""
    from test_announcer import RecordingAudio, fake_synth, run_from

    from companion.announcer import Announcer
    from companion.speech import Speech

    ann = Announcer("de", audio=RecordingAudio(), speech=Speech(fake_synth, threaded=False))
    session = GameSession.new(EchtSpitze, {"action": "setup", "players": ["Anna", "Ben"], "level": 1},
                              Journal(tmp_path), announcer=ann, announce=ann.announce)
    run_from(ann, 0.0, 2.0)
    assert session.apply({"action": "roll", "dice": ["1", "2", "3", "4"]})
    heard = [text for _, text in run_from(ann, 2.05, 30)]
    assert not any("Schachtel" in text for text in heard)
    assert "echt.setup.put_back_2" not in [s.announcement.key for _, s in ann.history]
