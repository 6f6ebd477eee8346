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


def test_fritzo_score_is_a_sentence_of_its_own_not_taken_back_with_the_turn_call(tmp_path):
    """Strategy's score and "Anna ist dran." were one sentence, taken back with the call when the next cube was
    placed: at a real pace (a move every 5 s, espeak-ng) every score was cut off ("…zusammen 8" lost)."""
    from test_fritzo_engine import put, strategy_set

    from companion.games.fritzo import Fritzo

    queue = Queue()
    session = GameSession.new(Fritzo, {"action": "setup", "mode": "strategy", "players": ["Anna", "Ben"],
                                       "starter": "Anna", "cubes": strategy_set().to_json()},
                              Journal(tmp_path), announcer=queue, announce=queue.announce)
    for action in (put("A", (0, 0, 0)), put("B", (1, 0, 0)), put("X", (0, 1, 0)), put("C", (2, 0, 0))):
        assert session.apply(action)
    said = [a.text("de") for a in queue.waiting if a.speak]
    assert said[-2:] == ["Ben schenkt Anna 8 Punkte, zusammen 8.", "Anna ist dran."]
    assert [a.text("en") for a in queue.waiting if a.speak][-2:] == ["Anna gets 8 points from Ben, 8 in all.",
                                                                      "Anna's turn."]
    assert session.apply(put("G", (0, 2, 0)))  # Anna places at once: her call is answered, the score stays
    said = [a.text("de") for a in queue.waiting if a.speak]
    assert "Ben schenkt Anna 8 Punkte, zusammen 8." in said and "Anna ist dran." not in said


def test_fritzo_building_problem_is_taken_back_when_the_time_is_up(tmp_path):
    """27 cubes that miss the goal are said ("two sides share a colour"); after time's up (the game is over) the
    sentence is worth nothing, yet it went on after "time's up" had cut it."""
    from test_fritzo_engine import SET, Goal, Solver, check_goal, orient

    from companion.games.fritzo import Fritzo

    sol = Solver(SET).complete({}, SET.ids, Goal.CHALLENGE)
    final = {p.cell: orient(SET.cube(p.cube).faces, p.rotation) for p in sol.placements}
    assert not check_goal(final, Goal.PROFESSIONAL).ok
    queue = Queue()
    session = GameSession.new(Fritzo, {"action": "setup", "mode": "professional", "players": ["Anna"], "minutes": 5},
                              Journal(tmp_path), announcer=queue, announce=queue.announce)
    assert session.apply({"action": "start", "at": 1000.0})
    for n, p in enumerate(sol.placements):
        assert session.apply({"action": "place", "cube": p.cube, "cell": list(p.cell), "rotation": p.rotation,
                              "at": 1001.0 + n})
    problem = [a for a in queue.waiting if a.key.startswith("fritzo.goal.side_")]
    assert problem
    assert session.apply({"action": "time_up", "at": 1300.5})
    assert not [a for a in queue.waiting if a.key.startswith("fritzo.goal.side_")]
    assert queue.waiting[-1].key == "fritzo.times_up"


def test_echt_spitze_whose_take_it_is_is_said_and_taken_back_by_the_take(tmp_path):
    """"Ben: nimm einen Würfel." and "Anna nimmt die 1." were screen-only: a player who cannot see the screen
    waited for a word. Said as a call, the take before it, and taken back once answered. The take a sentence of its
    own: said with the call ("Anna nimmt die 1. Ben: nimm einen Würfel.") it was taken back with it by the next take
    at a quick table, and broken off inside the call every time."""
    queue = Queue()
    session = GameSession.new(EchtSpitze, {"action": "setup", "players": ["Anna", "Ben", "Carl"], "level": 1},
                              Journal(tmp_path), announcer=queue, announce=queue.announce)
    assert session.apply({"action": "roll", "dice": ["1", "2", "3", "4", "5"]}), session.error
    call = queue.waiting[-1]
    assert call.speak and call.prompt and call.text("de") == "Anna: nimm einen Würfel."
    assert session.apply({"action": "take", "die": 1}), session.error
    said = [a for a in queue.waiting if a.speak]
    assert [a.text("de") for a in said] == ["Anna nimmt die 1.", "Ben: nimm einen Würfel."]
    assert [a.text("en") for a in said] == ["Anna takes the 1.", "Ben: take one die."]
    assert not said[0].until and said[1].until
    assert session.apply({"action": "take", "die": 2}), session.error
    assert [a.text("de") for a in queue.waiting if a.speak] == ["Anna nimmt die 1.", "Ben nimmt die 2.",
                                                                "Carl: nimm einen Würfel."]
