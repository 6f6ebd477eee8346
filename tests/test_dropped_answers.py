"""Answers about unsure dice of a reading put aside unused are taken back.

A player answers "which face?" for an unsure die, then the table throws again (or discards the reading, or the
game refuses it and the table discards it): the answer taught a die that never counted, and the camera read that
die so from then on, sure of itself. An undo, or the same die answered again, already took a slip back; now
putting the reading aside does too, also in the journal (a restart does not bring it back)."""

from __future__ import annotations

from typing import Any

import test_haste_worte_view as haste
import test_noch_x_mal_view as nxm
from test_echt_spitze_view import camera_roll, press

from companion.journal import Journal
from hardware.events import Button
from vision.types import DieReading, TrayReading


def taught_and_taken_back(session) -> tuple[list[Any], list[Any]]:
    """What the session's answers teach (each an example naming its die and face) and what it takes back."""
    taught: list[Any] = []
    gone: list[Any] = []

    def learn(index: int, face: Any) -> dict[str, Any]:
        example = {"set": "test", "face": face, "key": f"{len(taught)}"}
        taught.append(example)
        return example

    session.learn = learn
    session.unlearn = gone.append
    return taught, gone


def test_echt_spitze_roll_again_instead_takes_the_answers_back(tmp_path):
    s, mode, _, _ = camera_roll(tmp_path, ["1", None, "3+X", None])
    taught, gone = taught_and_taken_back(s)
    mode._answer(mode._face_options().index("2"))  # die 2: "2", a slip
    assert len(taught) == 1 and mode.pending is not None
    mode._answer(len(mode._face_options()))  # "roll again instead"
    assert gone == taught
    assert Journal(s.journal.folder).load().learned == []  # nor after a restart


def test_echt_spitze_thrown_again_while_asked_takes_the_answers_back(tmp_path):
    s, mode, _, _ = camera_roll(tmp_path, ["1", None, "3+X", None])
    taught, gone = taught_and_taken_back(s)
    mode._answer(mode._face_options().index("2"))
    press(mode, Button.ROLL)
    assert gone == taught and len(taught) == 1


def test_echt_spitze_answers_of_a_roll_entered_stay(tmp_path):
    s, mode, _, _ = camera_roll(tmp_path, ["1", None, "3+X", "4"])
    taught, gone = taught_and_taken_back(s)
    mode._answer(mode._face_options().index("2"))  # the only unsure die: the roll goes in
    assert mode.pending is None and len(taught) == 1
    press(mode, Button.ROLL)  # nothing to throw now (dice are taken): nothing taken back
    assert gone == [] and Journal(s.journal.folder).load().learned != []


def haste_read(tmp_path, faces: list[str | None]):
    """Haste Worte with a camera, ROLL pressed and ``faces`` read: the screen, its session, what its answers
    teach and what is taken back."""
    view, _ = haste.make(tmp_path, haste.Clocks(), haste.SETUP)
    session = view.session
    session.camera_ready = True
    taught, gone = taught_and_taken_back(session)
    press(view, Button.ROLL)
    session.latest_reading = haste.reading(faces)
    view.on_dice(session.latest_reading)
    return view, session, taught, gone


def test_haste_worte_thrown_again_while_asked_takes_the_answers_back(tmp_path):
    view, session, taught, gone = haste_read(tmp_path, ["car", None, "fruit", None, "toys", "sports"])
    press(view, Button.SELECT)
    press(view, Button.NEXT)  # (no guess: from "take it out" to the first symbol)
    press(view, Button.SELECT)  # die 2: the first symbol, a slip
    assert len(taught) == 1 and view.pending is not None
    press(view, Button.ROLL)  # thrown again
    assert gone == taught and Journal(session.journal.folder).load().learned == []


def test_noch_x_mal_discarded_reading_takes_the_answers_back(tmp_path):
    view, session, _ = nxm.waiting_for_the_camera(tmp_path, "en")
    taught, gone = taught_and_taken_back(session)
    tray = TrayReading(tuple(DieReading(f, 0.9 if f else 0.3, (0, 0, 10, 10)) for f in
                             ["4", None, "blue", "2", "red", "5"]))
    session.latest_reading = tray
    view.on_dice(tray)
    nxm.choose(view, ("fix", 0))
    nxm.choose(view, "green")
    assert len(taught) == 1
    nxm.choose(view, ("drop-pending",))
    assert gone == taught and Journal(session.journal.folder).load().learned == []


def test_haste_worte_a_re_roll_takes_back_its_own_answers_not_the_rolls_before(tmp_path):
    """The roll entered keeps what its answers taught; the re-roll's reading, thrown again, loses only its own."""
    view, session, taught, gone = haste_read(tmp_path, ["car", None, "fruit", "water", "toys", "sports"])
    press(view, Button.SELECT)
    press(view, Button.NEXT)  # (no guess: from "take it out" to the first symbol)
    press(view, Button.SELECT)  # die 2 answered: the roll goes in
    assert view.pending is None and len(taught) == 1 and view.game.round.dice is not None
    press(view, Button.ROLL)  # before the first pick the table may throw again
    session.latest_reading = haste.reading(["car", "fruit", None, "water", "toys", "sports"])
    view.on_dice(session.latest_reading)
    press(view, Button.SELECT)
    press(view, Button.NEXT)
    press(view, Button.NEXT)
    press(view, Button.SELECT)  # die 3 answered
    assert len(taught) == 2 and view.pending is None
    session.latest_reading = haste.reading(["car", "fruit", None, "water", "toys", None])
    press(view, Button.ROLL)
    view.on_dice(session.latest_reading)
    press(view, Button.SELECT)
    press(view, Button.NEXT)
    press(view, Button.SELECT)  # an answer for the third reading, then thrown again
    assert len(taught) == 3 and view.pending is not None
    press(view, Button.ROLL)
    assert gone == [taught[2]]
    assert [e for _, e in Journal(session.journal.folder).load().learned] == taught[:2]
