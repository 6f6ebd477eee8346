"""The Echt Spitze screen driven like the table drives it (buttons, taps, camera readings); screenshots."""

from __future__ import annotations

import random

import numpy as np
import pygame
import pytest
from drawn_texts import recording_texts
from game_apps import in_game
from test_echt_spitze import LEVEL2_KINDS, plain_roll, play_turn

from companion.games.echt_spitze import EchtSpitze, Phase
from companion.i18n import t
from companion.journal import Journal
from companion.session import GameSession
from companion.views import theme
from companion.views.echt_spitze_view import FIX_BUTTON, LEFT, RIGHT, EchtSpitzeMode
from hardware.events import Button, ButtonEvent, Press
from vision.types import DieReading, TrayReading

SIZE = (800, 480)


def session(tmp_path, setup: dict) -> GameSession:
    return GameSession.new(EchtSpitze, {"action": "setup", **setup}, Journal(tmp_path / "journal"), lang="en",
                           rng=random.Random(3))


def press(mode: EchtSpitzeMode, button: Button, press: Press = Press.SHORT) -> bool:
    return mode.on_button(ButtonEvent(button, press))


def shot(mode: EchtSpitzeMode, out_dir, name: str) -> pygame.Surface:
    surface = pygame.Surface(SIZE)
    mode.draw(surface)
    pygame.image.save(surface, str(out_dir / f"echt_spitze_{name}.png"))
    return surface


def reading(faces: list) -> TrayReading:
    return TrayReading(tuple(DieReading(f, 0.9, (0, 0, 10, 10)) for f in faces))


def select_item(mode: EchtSpitzeMode, label_start: str) -> None:
    """Move the menu highlight with NEXT to the item whose label starts so, then SELECT."""
    mode.update(0.03, 0.0)  # the app updates every frame: the menu follows the game
    assert mode.menu is not None
    labels = [i.label for i in mode.menu.items]
    target = next(k for k, lab in enumerate(labels) if lab.startswith(label_start))
    for _ in range(len(labels)):
        if mode.menu.index == target:
            break
        press(mode, Button.NEXT)
    press(mode, Button.SELECT)


def camera_roll(tmp_path, faces: list[str]) -> tuple[GameSession, EchtSpitzeMode, list[tuple[int, str]],
                                                       TrayReading]:
    """Anna and Ben, ROLL pressed and the camera's reading of ``faces`` in: the session, the screen, what answers
    and corrections teach (die index in the reading, face) and the reading."""
    s = session(tmp_path, {"players": ["Anna", "Ben"], "kinds": {"lemons": [9, 7]}})
    s.camera_ready = True
    taught: list[tuple[int, str]] = []
    s.learn = lambda index, face: taught.append((index, face))
    mode = EchtSpitzeMode(s)
    press(mode, Button.ROLL)
    read = reading(faces)
    s.latest_reading = read
    mode.on_dice(read)
    return s, mode, taught, read


def test_a_level_2_turn_with_buttons_only(tmp_path, out_dir):
    s = session(tmp_path, {"players": ["Fred", "Tilda", "Anna"], "level": 2, "kinds": LEVEL2_KINDS,
                           "star_value": 4})
    mode = EchtSpitzeMode(s)
    shot(mode, out_dir, "1_roll")
    assert press(mode, Button.ROLL)  # no camera: virtual dice
    game: EchtSpitze = s.engine
    assert game.phase is Phase.TAKE and len(game.state.dice) == 5
    for who in ("Fred", "Tilda"):
        assert game.current_taker == who
        press(mode, Button.NEXT)
        press(mode, Button.SELECT)
        game = s.engine
    assert game.current_taker == "Anna"
    shot(mode, out_dir, "2_take")
    press(mode, Button.SELECT)
    game = s.engine
    assert game.phase is Phase.MIDDLE and all(p.holds is not None for p in game.state.players)
    shot(mode, out_dir, "3_middle")
    press(mode, Button.ROLL)  # decision + virtual re-roll (ROLL as REROLL: it did nothing, unsaid)
    game = s.engine
    assert game.phase is Phase.SCORE and game.state.middle_choice == "reroll"
    # Fred reports beehive 4-4 with NEXT/SELECT: his menu, "Beehive", 4-4
    select_item(mode, "Fred")
    select_item(mode, "Beehive")
    select_item(mode, "4-4")
    select_item(mode, "Tilda")
    select_item(mode, "roses")
    assert s.engine.state.players[0].report.beehive == "4-4"
    assert s.engine.state.players[1].report.kinds == ["roses"]
    shot(mode, out_dir, "4_score")
    select_item(mode, "End the turn")
    game = s.engine
    assert game.phase is Phase.ROLL and game.start_player == "Tilda"
    assert game.state.players[2].hives_blackened == ["front:4-4"]
    assert game.state.first == {"roses": ["Tilda"]}


def test_camera_reads_and_sees_a_die_leave(tmp_path, out_dir):
    s = session(tmp_path, {"players": ["Anna", "Ben"], "kinds": {"lemons": [9, 7]}})
    s.camera_ready = True
    mode = EchtSpitzeMode(s)
    press(mode, Button.ROLL)
    assert mode.waiting and s.engine.phase is Phase.ROLL
    mode.on_dice(reading(["1", "3+X", None, "5"]))
    assert s.engine.phase is Phase.ROLL and s.error is None  # an unsure die is asked, not an error
    assert mode.pending == ["1", "3+X", None, "5"]
    assert not mode.auto_read  # rolling: only the ROLL press asks the camera
    press(mode, Button.ROLL)  # ... or the table rolls again: the tray is read anew
    assert mode.pending is None and mode.waiting
    mode.on_dice(reading(["1", "3+X", "?+X", "5"]))
    assert s.engine.state.dice == ["1", "3+X", "?+X", "5"]
    assert mode.auto_read  # taking dice: the app hands over every rest of the tray
    mode.on_dice(reading(["1", "?+X", "5"]))  # Anna lifted the 3+X out of the tray
    assert s.engine.holder(1) == "Anna"
    shot(mode, out_dir, "5_take_by_camera")  # the app draws every frame: the taps hit what is shown
    assert mode.on_tap(mode.dice.die_rects()[3].center)  # Ben taps the 5
    assert s.engine.holder(3) == "Ben"
    assert mode.on_tap(mode.menu.item_rects()[0].center)  # "Leave them"
    assert s.engine.phase is Phase.SCORE
    surface = shot(mode, out_dir, "5b_reminders")
    assert surface.get_at((RIGHT.x + 10, RIGHT.y + 10)) != surface.get_at((5, 470))  # the menu is drawn


def sara_scores_three(players: int) -> list[dict]:
    """The first turn of a game of ``players`` in which Sara scores her third kind (pears, plums, lemons): the game
    ends with it, and the final scoring follows."""
    return [{"action": "roll", "dice": [str(n) for n in range(1, players + 3)]},
            *({"action": "take", "die": n} for n in range(1, players + 1)), {"action": "leave"},
            {"action": "report", "player": "Sara", "kinds": ["pears", "plums", "lemons"]}, {"action": "end_turn"}]


def test_final_editor_and_result_screen(tmp_path, out_dir):
    s = session(tmp_path, {"players": ["Sara", "Ben"], "kinds": {"pears": [5, 3], "plums": [4, 2],
                                                                 "lemons": [9, 7]}})
    for action in sara_scores_three(2):
        assert s.apply(action), s.error
    mode = EchtSpitzeMode(s)
    select_item(mode, "Sara")
    assert mode.sub == ("final", "Sara")
    # stars: "+" three times; leftover: "+" three times; then Done
    press(mode, Button.NEXT)  # focus stars "+"
    for _ in range(3):
        press(mode, Button.SELECT)
    press(mode, Button.NEXT)  # leftover "-"
    press(mode, Button.NEXT)  # leftover "+"
    for _ in range(3):
        press(mode, Button.SELECT)
    shot(mode, out_dir, "6_final_editor")
    press(mode, Button.NEXT)
    press(mode, Button.SELECT)
    assert s.engine.state.players[0].final.total == 18 + 15 + 3
    select_item(mode, "Ben")
    mode.on_tap(mode._final_controls()[-1][2].center)  # Done with zeros
    assert s.engine.finished and s.engine.state.winners == ["Sara"]
    shot(mode, out_dir, "7_over")


@pytest.mark.parametrize("lang", ["de", "en"])
def test_solo_screen_shows_round_sign_and_halftime(tmp_path, out_dir, lang):
    s = session(tmp_path, {"players": ["Sol"], "level": 3, "shapes": {"L": [8, 5]}})
    s.lang = lang
    mode = EchtSpitzeMode(s)
    assert ("Runde 1/14" if lang == "de" else "Round 1/14") in mode._status()
    shot(mode, out_dir, f"8_solo_{lang}")
    press(mode, Button.ROLL)
    press(mode, Button.SELECT)
    assert s.engine.phase is Phase.MIDDLE
    assert not mode.menu.items[0].enabled  # "!" round: leaving is not offered


def answer(mode: EchtSpitzeMode, face: str) -> None:
    """Move the highlight with NEXT to the die showing ``face`` among the answers, then SELECT."""
    target = mode._face_options().index(face)
    for _ in range(len(mode._answer_rects())):
        if mode.choice == target:
            break
        press(mode, Button.NEXT)
    press(mode, Button.SELECT)


def test_an_unsure_die_is_asked_and_its_answer_taught(tmp_path, out_dir):
    """The camera saw every die but was not sure of two: the screen asks which face each shows (rolling again
    would change the roll), each answer becomes a taught example, and the roll goes on with all of them."""
    s = session(tmp_path, {"players": ["Anna", "Ben", "Cleo"], "level": 2, "kinds": LEVEL2_KINDS,
                           "star_value": 4})
    s.camera_ready = True
    taught: list[tuple[int, str]] = []
    s.learn = lambda index, face: taught.append((index, face))
    read = reading(["1", None, "3+X", "?", None])
    s.latest_reading = read
    mode = EchtSpitzeMode(s)
    press(mode, Button.ROLL)
    mode.on_dice(read)
    assert mode.pending == ["1", None, "3+X", "?", None] and mode.asking == 1
    options = mode._face_options()
    assert options[:6] == ["1", "2", "3", "4", "5", "?"] and "5+X" in options  # 3 of 5 dice carry crosses: 1 seen
    shot(mode, out_dir, "6_unsure_die")
    assert mode.on_tap(mode.dice.die_rects()[4].center)  # Ben taps the other unsure die first
    assert mode.asking == 4
    answer(mode, "4+X")
    assert mode.pending == ["1", None, "3+X", "?", "4+X"] and mode.asking == 1
    assert s.engine.phase is Phase.ROLL  # not yet: one die is still unsure
    assert mode.on_tap(mode._answer_rects()[options.index("2")].center)  # Anna taps the 2
    assert taught == [(4, "4+X"), (1, "2")]
    assert mode.pending is None
    assert s.engine.phase is Phase.TAKE and s.engine.state.dice == ["1", "2", "3+X", "?", "4+X"]


@pytest.mark.parametrize(("lang", "asked"), [("en", "is it 4 + extra cross?"), ("de", "ist es 4 + Extrakreuz?")])
def test_the_question_about_an_unsure_die_starts_on_the_readers_guess(tmp_path, out_dir, lang, asked):
    """The reader was not sure of two dice but found a face near enough for one ("4+X", nine presses of NEXT
    from the first face): the highlight starts there and the prompt names it, so a die that
    shows it takes one press. The die without a guess at all opens on taking it out (it may be no die of this
    game): a hasty SELECT taught it as face "1"."""
    s = session(tmp_path, {"players": ["Anna", "Ben", "Cleo"], "level": 2, "kinds": LEVEL2_KINDS,
                           "star_value": 4})
    s.lang = lang
    s.camera_ready = True
    taught: list[tuple[int, str]] = []
    s.learn = lambda index, face: taught.append((index, face))
    read = TrayReading(tuple(DieReading(f, 0.3, (0, 0, 10, 10), g)
                             for f, g in [("1", None), (None, "4+X"), ("3+X", None), ("?", None), (None, None)]))
    s.latest_reading = read
    mode = EchtSpitzeMode(s)
    press(mode, Button.ROLL)
    mode.on_dice(read)
    assert mode.asking == 1 and mode._face_options()[mode.choice] == "4+X"
    assert asked in mode._status()
    shot(mode, out_dir, f"6_unsure_guess_{lang}")
    press(mode, Button.SELECT)  # the die shows the guess: one press
    assert mode.asking == 4 and mode.choice == len(mode._answer_rects()) - 1  # no guess: on taking it out
    assert "?" in mode._status() and asked not in mode._status()
    answer(mode, "2")
    assert taught == [(1, "4+X"), (4, "2")]
    assert s.engine.phase is Phase.TAKE and s.engine.state.dice == ["1", "4+X", "3+X", "?", "2"]


def test_the_cross_is_offered_only_while_a_crossed_die_is_unaccounted(tmp_path):
    s = session(tmp_path, {"players": ["Anna", "Ben", "Cleo"], "level": 2, "kinds": LEVEL2_KINDS,
                           "star_value": 4})
    s.camera_ready = True
    mode = EchtSpitzeMode(s)
    press(mode, Button.ROLL)
    mode.on_dice(reading(["1+X", "2+X", "3+X", None, "5"]))  # the three crossed dice are all seen
    assert mode._face_options() == ["1", "2", "3", "4", "5", "?"]
    assert mode.on_tap(mode._answer_rects()[-1].center)  # the table prefers to roll again
    assert mode.pending is None and s.engine.phase is Phase.ROLL
    mode.on_dice(reading(["1", None, "5"]))  # a die missing: not asked, the engine explains the count
    assert mode.pending is None and s.error is not None and s.engine.phase is Phase.ROLL


def test_the_final_editor_follows_an_undo_that_takes_back_the_star_value(tmp_path):
    """Level 2: the first final score gives the points per star, so the next player's editor has no field for it.
    A long UNDO while that editor is open takes the first score back, and with it the star value: the editor must
    ask for it again, not fail on the field it lacked (a KeyError here ended the evening)."""
    s = GameSession.new(EchtSpitze, {"action": "setup", "seed": 7, "players": ["Fred", "Tilda"], "start": 1,
                                     "level": 2}, Journal(tmp_path / "journal"), lang="en", rng=random.Random(3))
    assert s.apply({"action": "roll", "dice": plain_roll(s.engine)})
    for action in ({"action": "take", "die": 1}, {"action": "take", "die": 2}, {"action": "leave"},
                   *({"action": "report", "player": "Fred", "kind": kind, "values": values}
                     for kind, values in (("roses", [8, 6]), ("tulips", [6, 4]), ("lilies", [7, 5]))),
                   {"action": "end_turn"}, {"action": "final", "player": "Fred", "stars": 1, "star_value": 4}):
        assert s.apply(action), s.error
    mode = EchtSpitzeMode(s)
    select_item(mode, "Tilda")
    assert mode.sub == ("final", "Tilda") and "star_value" not in mode.final_values
    press(mode, Button.SELECT)  # stars "-": 0 stays 0
    press(mode, Button.NEXT)
    press(mode, Button.SELECT)  # stars "+"
    assert s.undo()  # a long UNDO (the app's): Fred's score and the star value are gone
    mode.update(0.03, 0.0)
    assert mode._final_fields()[0] == "star_value"
    assert mode.final_values["stars"] == 1  # what Tilda counted so far stays, and the highlighted button
    assert mode._final_controls()[mode.focus][:2] == ("stars", 1)
    controls = [(field, step) for field, step, _ in mode._final_controls()]
    for _ in range((controls.index(("star_value", 1)) - mode.focus) % len(controls)):
        press(mode, Button.NEXT)
    for _ in range(4):
        press(mode, Button.SELECT)  # 4 points per star
    for _ in range(len(controls) - 1 - mode.focus):
        press(mode, Button.NEXT)
    press(mode, Button.SELECT)  # Done
    assert s.error is None and s.engine.state.star_value == 4 and s.engine.state.players[1].final is not None


def test_prev_takes_the_die_before_the_highlighted_one(tmp_path):
    """A laptop's arrow left (PREV) moves the highlight over the middle dice the other way round, skipping taken
    dice as NEXT does; the round also stops at "Correct a die", after the last free die."""
    from companion.views.echt_spitze_view import FIX_BUTTON

    s = session(tmp_path, {"players": ["Fred", "Tilda", "Anna"], "level": 2, "kinds": LEVEL2_KINDS,
                           "star_value": 4})
    mode = EchtSpitzeMode(s)
    press(mode, Button.ROLL)
    s.camera_ready = True  # as a camera read them: a die may be corrected
    press(mode, Button.SELECT)  # Fred takes the highlighted die
    stops = [*s.engine.middle, FIX_BUTTON]
    for _ in range(2):  # from the first free die, via the button, to the last free die
        before = mode.cursor
        press(mode, Button.PREV)
        assert mode.cursor == stops[(stops.index(before) - 1) % len(stops)] != before
    expected = mode.cursor
    assert expected == s.engine.middle[-1]
    press(mode, Button.SELECT)
    assert expected not in s.engine.middle  # Tilda took it


def test_a_reports_question_stands_in_the_status_line_not_over_the_dice_names(tmp_path, out_dir):
    """Four players: six dice, whose names ("Carla", "middle") stand right above the menu. The question of a
    player's report ("What does David report?") was drawn there too, over them; it is the status line now."""
    from companion.views.echt_spitze_view import DICE

    s = session(tmp_path, {"players": ["Anna", "Ben", "Carla", "David"], "kinds": {"pears": [5, 3]}})
    mode = EchtSpitzeMode(s)
    press(mode, Button.ROLL)
    for _ in range(4):
        press(mode, Button.SELECT)
    select_item(mode, "Leave")
    band = pygame.Rect(RIGHT.x, DICE.bottom, RIGHT.w, RIGHT.y - DICE.bottom)
    names = shot(mode, out_dir, "9_score_four").subsurface(band).copy()
    for item, question in (("David", "What does David report?"), ("Kind complete", "David: the kind's higher value?")):
        select_item(mode, item)
        assert mode._status() == question
        surface = shot(mode, out_dir, "9_report_question")
        if mode.menu.rect.h > RIGHT.h:  # the values 1-15: a long list takes the dice's room, names and all
            continue
        assert pygame.image.tobytes(surface.subsurface(band), "RGB") == pygame.image.tobytes(names, "RGB")


def test_the_bar_lights_whose_final_score_is_entered_and_then_the_winner(tmp_path):
    """After the game, the start player's name stayed lit: over Anna's final scoring and over David's victory."""
    s = session(tmp_path, {"players": ["Sara", "Ben", "Cleo"], "kinds": {"pears": [5, 3], "plums": [4, 2],
                                                                         "lemons": [9, 7]}})
    for action in sara_scores_three(3):
        assert s.apply(action), s.error
    mode = EchtSpitzeMode(s)
    mode.update(0.03, 0.0)
    lit = [mode._actor()]
    press(mode, Button.NEXT)
    lit.append(mode._actor())
    press(mode, Button.SELECT)  # Ben's numbers
    lit.append(mode._actor())
    for name, stars in (("Ben", 6), ("Sara", 0), ("Cleo", 0)):
        s.apply({"action": "final", "player": name, "stars": stars, "leftover": 0})
    mode.update(0.03, 0.0)
    lit.append(mode._actor())
    assert s.engine.state.winners == ["Ben"]
    assert lit == [0, 1, 1, 1]


def test_a_beehive_blackened_or_crossed_on_the_side_played_is_not_offered(tmp_path):
    """Anna's 4-4 is blackened on her front and her 2-2 crossed: offered, each was refused by the engine. The
    beehives are 1-1 to 5-5 (the engine's reading), one menu of five, not a row and then a column."""
    s = session(tmp_path, {"players": ["Anna", "Ben"], "level": 2, "kinds": LEVEL2_KINDS, "star_value": 4})
    anna = s.engine.state.players[0]
    anna.hives_blackened = ["front:4-4", "back:3-3"]
    anna.hives_crossed = ["front:2-2"]
    mode = EchtSpitzeMode(s)
    press(mode, Button.ROLL)
    press(mode, Button.SELECT)
    press(mode, Button.SELECT)
    select_item(mode, "Leave")

    def offered(*path: str) -> list[str]:
        for label in path:
            select_item(mode, label)
        labels = [i.label for i in mode.menu.items]
        while mode.sub:
            mode._back()
        return labels

    assert offered("Anna", "Beehive") == ["1-1", "3-3", "5-5"]  # 3-3 is blackened on her back only
    assert offered("Ben", "Beehive") == [f"{n}-{n}" for n in range(1, 6)]
    select_item(mode, "Anna")
    select_item(mode, "Beehive")
    select_item(mode, "5-5")
    assert s.engine.state.players[0].report.beehive == "5-5"
    anna.hives_crossed += ["front:1-1", "front:3-3", "front:5-5"]  # every beehive of her front gone
    while mode.sub:
        mode._back()
    assert not any(label.startswith("Beehive") for label in offered("Anna"))


def anna_at_the_beehives(tmp_path) -> tuple[GameSession, EchtSpitzeMode]:
    """Level 2: Anna took a 2, Ben a 3, a 5 and a 2 lie in the middle; Anna's beehive list is open."""
    s = session(tmp_path, {"players": ["Anna", "Ben"], "level": 2, "kinds": LEVEL2_KINDS, "star_value": 4})
    s.apply({"action": "roll", "dice": ["2", "3+X", "5", "2+X"]})
    s.apply({"action": "take", "die": 1})
    s.apply({"action": "take", "die": 2})
    s.apply({"action": "leave"})
    mode = EchtSpitzeMode(s)
    select_item(mode, "Anna")
    select_item(mode, "Beehive")
    return s, mode


def test_the_beehive_menu_starts_on_the_pair_the_players_dice_make(tmp_path):
    """Anna took a 2 and a 2 lies in the middle: her cross can fall on 2-2, so SELECT alone reports it. Extra
    crosses reach other beehives: the rest stay offered."""
    s, mode = anna_at_the_beehives(tmp_path)
    assert [i.label for i in mode.menu.items] == [f"{n}-{n}" for n in range(1, 6)]
    assert mode.menu.items[mode.menu.index].label == "2-2"
    mode._back()
    mode._back()
    select_item(mode, "Ben")  # a 3 with a 5 and a 2 in the middle: no pair, the menu starts at the top
    select_item(mode, "Beehive")
    assert mode.menu.index == 0


def test_the_beehive_menu_open_when_a_step_is_undone(tmp_path):
    """The beehive list was open when UNDO took the turn back to leave-or-re-roll: the highlight looked for a
    beehive among "Leave" and "Re-roll" and the screen stopped (random presses found it)."""
    s, mode = anna_at_the_beehives(tmp_path)
    s.camera_ready = True  # as a camera read them: a die may be corrected
    assert s.undo()
    mode.update(0.03, 0.0)
    assert [i.label for i in mode.menu.items] == ["Leave them", "Re-roll", "Correct a die …"]
    assert mode.sub is None and mode.menu.on_back is None  # UNDO now opens the pause menu, as its hint says


def test_a_long_report_takes_two_lines_at_full_size_where_there_is_room(tmp_path, monkeypatch):
    """Two kinds, a beehive and a hole on one line shrank to 14 px; with room below, it takes a second line."""
    from companion.views import theme

    s = GameSession.new(EchtSpitze, {"action": "setup", "players": ["Anna", "Ben"], "level": 2,
                                     "kinds": {"Zitronen": [9, 7], "Melonen": [8, 6]}, "star_value": 4},
                        Journal(tmp_path / "journal"), lang="de", rng=random.Random(3))
    s.apply({"action": "roll", "dice": ["2", "3", "5", "4"]})  # no extra crosses: no reminder lines above
    s.apply({"action": "take", "die": 1})
    s.apply({"action": "take", "die": 2})
    s.apply({"action": "leave"})
    assert s.apply({"action": "report", "player": "Anna", "kinds": ["Zitronen", "Melonen"], "beehive": "2-2",
                    "pierced": True})
    drawn: list[tuple[str, int]] = []
    text = theme.text
    monkeypatch.setattr(theme, "text", lambda surface, line, pos, size=theme.BODY, *a, **k: (
        drawn.append((line, size)), text(surface, line, pos, size, *a, **k))[1])
    mode = EchtSpitzeMode(s)
    mode.update(0.03, 0.0)
    mode.draw(pygame.Surface((800, 480)))
    report = [(line, size) for line, size in drawn if "Zitronen" in line or "durchstochen" in line]
    assert len(report) == 2 and all(size >= theme.SMALL for _, size in report), report


def test_the_final_editor_stops_at_each_fields_highest_number(tmp_path, monkeypatch):
    """Level 3: "+" on the diagonals went to 4, and "Done" then refused ("at most 2"): it stops at 2 now. Its third
    number is the pierced bubbles without a star (it asked for "Leftover symbols", level 1's count)."""
    s = session(tmp_path, {"players": ["Sara", "Ben"], "level": 3, "shapes": {"L": [8, 5], "T": [6, 4],
                                                                              "Z": [5, 3], "S": [4, 2]}})
    for shape in ("L", "T", "Z", "S"):  # a fourth shape ends a level-3 game
        for action in ({"action": "roll", "dice": ["1", "2", "3", "4"]}, {"action": "take", "die": 1},
                       {"action": "take", "die": 2}, {"action": "leave"},
                       {"action": "report", "player": "Sara", "shape": shape}, {"action": "end_turn"}):
            assert s.apply(action), s.error
    assert s.engine.phase is Phase.FINAL
    mode = EchtSpitzeMode(s)
    mode.update(0.03, 0.0)
    select_item(mode, "Sara")
    plus = {field: k for k, (field, step, _) in enumerate(mode._final_controls()) if step == 1}
    for field in ("diagonals", "diamonds"):
        for _ in range(4):
            mode._final_press(plus[field])
    assert mode.final_values["diagonals"] == 2 and mode.final_values["diamonds"] == 1
    from companion.views import theme
    drawn: list[str] = []
    text = theme.text
    monkeypatch.setattr(theme, "text", lambda surface, line, *a, **k: (
        drawn.append(line), text(surface, line, *a, **k))[1])
    mode.draw(pygame.Surface(SIZE))
    assert "Bubbles, no star" in drawn and "Leftover symbols" not in drawn
    mode._final_press(len(mode._final_controls()) - 1)  # Done
    assert s.error is None and s.engine.state.players[0].final.stars == 3


def test_a_banner_keeps_clear_of_the_final_editor_and_of_a_highlighted_menu_item(tmp_path, out_dir):
    """The final score's banner stood over the editor's "Done" (and level 2's "Leftover" row): the next player's
    score was entered blind. A menu's highlighted item likewise stays in sight."""
    from companion.announce import Announcement
    from companion.announcer import Announcer
    from companion.app import GAME_ENTRIES, App
    from companion.config import Config
    from companion.display import Display
    from companion.games_ui import register_all
    from companion.speech import Speech

    register_all()
    cfg = Config()
    cfg.language = "en"
    cfg.players = ["Sara", "Ben"]
    announcer = Announcer("en", 80, speech=Speech(lambda text, lang: None, threaded=False))
    app = App(cfg, state_dir=tmp_path, display=Display((800, 480), fullscreen=False), use_camera=False,
              announcer=announcer)
    drawn = []
    original = announcer.draw
    announcer.draw = lambda *a, **k: drawn.append(original(*a, **k)) or drawn[-1]
    setup = {"players": ["Sara", "Ben"], "kinds": {"pears": [5, 3], "plums": [4, 2], "lemons": [9, 7]}}
    app.new_game(GAME_ENTRIES["echt-spitze"], setup)
    s = app.session
    for action in sara_scores_three(2):
        assert s.apply(action), s.error
    mode = app.mode
    mode.update(0.0, 0.0)
    select_item(mode, "Sara")
    long = Announcement("core.error_language", {"value": "x" * 80, "allowed": ["a", "b"]})
    for focus in range(len(mode._final_controls())):
        mode.focus = focus
        announcer.clear()
        announcer.announce(long)
        announcer.update(1.0)
        app.draw(app.display.canvas)
        assert drawn[-1] is not None and not drawn[-1].colliderect(mode.focus_rect)
    pygame.image.save(app.display.canvas, str(out_dir / "echt_final_editor_banner.png"))
    mode._back()
    assert mode.menu is not None
    for _ in range(len(mode.menu.items)):
        announcer.clear()
        announcer.announce(long)
        announcer.update(1.0)
        app.draw(app.display.canvas)
        assert not drawn[-1].colliderect(mode.menu.focus_rect())
        press(mode, Button.NEXT)


# -- correcting a die read wrongly but for sure ---------------------------------------------------------------
def fix(mode: EchtSpitzeMode, die: int, face: str) -> None:
    """With the correction open on its dice: NEXT to ``die`` (0-based), SELECT, NEXT to ``face``, SELECT."""
    assert mode.fixing == "which"
    for _ in range(len(mode.game.state.dice)):
        if mode.fix_die == die:
            break
        press(mode, Button.NEXT)
    press(mode, Button.SELECT)
    assert mode.fixing == "face"
    answer(mode, face)


def hint_words(mode: EchtSpitzeMode) -> list[tuple[str, str]]:
    return mode._hints()


def test_a_die_read_wrongly_for_sure_is_corrected_while_dice_are_taken(tmp_path, out_dir):
    """The play-tester's evening: the camera read a 4 as "2" for sure, so nobody was asked, and the only remedy was
    a long UNDO and a new roll. While dice are taken NEXT goes round the free dice and then "Correct a die", SELECT
    opens it; the die is chosen with NEXT/SELECT, its face from the answers an unsure die gets, the face read
    highlighted. The engine's correct action changes the roll, and the die is taught from the picture it was read
    in. UNDO backs out a step at a time, changing nothing."""
    s, mode, taught, read = camera_roll(tmp_path, ["1", "3+X", "2", "5"])
    assert s.engine.phase is Phase.TAKE and s.engine.state.dice == ["1", "3+X", "2", "5"]
    for _ in range(len(s.engine.middle)):
        press(mode, Button.NEXT)  # past the four free dice: the button
    assert mode.focus_rect == mode._fix_button()
    shot(mode, out_dir, "10_take_fix_button")
    press(mode, Button.SELECT)
    assert mode.fixing == "which" and mode._status() == "Which die was read wrongly?"
    assert (("UNDO", "back") in hint_words(mode)) and mode.menu is None
    press(mode, Button.UNDO)  # out again: nothing changed, the taking goes on
    assert mode.fixing is None and s.engine.phase is Phase.TAKE and len(s.actions) == 2
    press(mode, Button.SELECT)
    press(mode, Button.NEXT)
    press(mode, Button.NEXT)
    shot(mode, out_dir, "11_fix_which")
    press(mode, Button.SELECT)  # die 3
    options = mode._face_options()
    assert mode.fixing == "face" and options[mode.choice] == "2"  # the face read: SELECT alone changes nothing
    assert mode._status() == "Correcting die 3: what does it really show?"
    assert "4+X" in options  # one of four dice shows the cross: this one may carry it too
    assert mode.focus_rect == mode._answer_rects()[mode.choice]
    shot(mode, out_dir, "12_fix_face")
    press(mode, Button.UNDO)  # back to the dice, then the face again
    assert mode.fixing == "which" and mode.fix_die == 2
    press(mode, Button.SELECT)
    answer(mode, "4")
    assert mode.fixing is None
    assert s.actions[-1] == {"action": "correct", "die": 3, "face": "4"}
    assert s.engine.state.dice == ["1", "3+X", "4", "5"] and s.engine.phase is Phase.TAKE
    assert taught == [(2, "4")]  # the reading's third die, from the picture the roll was read in
    # the taking goes on, the highlight on the die corrected: it stayed on "Correct a die", and the next SELECT,
    # meant to take a die, opened the correction again
    assert mode.cursor == 2 and mode.focus_rect != mode._fix_button()
    mode.cursor = FIX_BUTTON
    press(mode, Button.SELECT)
    fix(mode, 0, "1")  # read right after all: nothing to correct, nothing taught
    assert len(s.actions) == 3 and taught == [(2, "4")]
    assert mode.cursor == 0  # the die looked at


def test_a_correction_by_touch_offers_the_extra_cross_and_is_taught_only_from_its_own_picture(tmp_path):
    """Tapping "Correct a die", then a die, then its face. The extra cross is offered while fewer than three other
    dice show it (only three dice carry it). Once a die left the tray and the rest was read again, the picture is
    another: the correction counts, but nothing is taught from a picture the die is not in."""
    s, mode, taught, read = camera_roll(tmp_path, ["1+X", "3+X", "2+X", "5"])
    mode.draw(pygame.Surface(SIZE))
    assert mode.on_tap(mode._fix_button().center)
    assert mode.on_tap(mode.dice.die_rects()[3].center)  # the 5: three others show the cross already
    assert mode._face_options() == ["1", "2", "3", "4", "5", "?"]
    assert mode.on_tap(mode.dice.die_rects()[2].center)  # another die while the faces are shown: its faces
    assert mode.fix_die == 2 and "2+X" in mode._face_options()
    assert mode.on_tap(mode._answer_rects()[mode._face_options().index("?+X")].center)
    assert s.engine.state.dice == ["1+X", "3+X", "?+X", "5"] and taught == [(2, "?+X")]
    later = reading(["1+X", "?+X", "5"])  # Anna lifted the 3+X out of the tray: the camera saw it go
    s.latest_reading = later
    mode.on_dice(later)
    assert s.engine.holder(1) == "Anna"
    assert mode.on_tap(mode._fix_button().center)
    assert mode.on_tap(mode.dice.die_rects()[3].center)
    assert mode.on_tap(mode._answer_rects()[mode._face_options().index("4")].center)
    assert s.engine.state.dice[3] == "4" and taught == [(2, "?+X")]
    assert mode.on_tap(mode._fix_button().center)
    assert mode.on_tap(mode._answer_rects()[-1].center)  # "back": out of correcting
    assert mode.fixing is None


def test_correct_a_die_is_in_the_middle_and_crossing_menus_and_says_what_follows(tmp_path, out_dir):
    """After the taking, "Correct a die" is a menu entry: deciding on the middle and crossing. Corrected while
    crossing, the middle is said again (with its extra-cross reminders); a re-rolled middle die is taught from the
    re-roll's picture, a die a player holds (not in that picture) is not."""
    said: list[str] = []
    s = GameSession.new(EchtSpitze, {"action": "setup", "players": ["Anna", "Ben"], "kinds": {"lemons": [9, 7]}},
                        Journal(tmp_path / "journal"), lang="en", rng=random.Random(3),
                        announce=lambda a: said.append(a.text("en")))
    s.camera_ready = True
    taught: list[tuple[int, str]] = []
    s.learn = lambda index, face: taught.append((index, face))
    for action in ({"action": "roll", "dice": ["1", "2", "3", "4"]}, {"action": "take", "die": 1},
                   {"action": "take", "die": 2}):
        assert s.apply(action), s.error
    mode = EchtSpitzeMode(s)
    mode.update(0.03, 0.0)
    assert [i.label for i in mode.menu.items][-1] == "Correct a die …"
    shot(mode, out_dir, "13_middle_menu")
    select_item(mode, "Correct a die")
    fix(mode, 0, "5")  # Anna's die
    assert s.engine.state.dice == ["5", "2", "3", "4"] and s.engine.phase is Phase.MIDDLE and taught == []
    select_item(mode, "Re-roll")
    read = reading(["1", "4"])
    s.latest_reading = read
    mode.on_dice(read)
    assert s.engine.phase is Phase.SCORE and s.engine.state.dice == ["5", "2", "1", "4"]
    mode.update(0.03, 0.0)
    assert mode.menu.items[mode.menu.index].label == "Anna reports …"  # the highlight starts where it did
    shot(mode, out_dir, "14_score_menu")
    said.clear()
    select_item(mode, "Correct a die")
    fix(mode, 3, "4+X")  # the second middle die carries the cross
    assert s.engine.state.dice == ["5", "2", "1", "4+X"] and taught == [(1, "4+X")]
    assert said[0] == "Middle: 1 and 4 – place your cross!"
    assert any("extra cross" in line for line in said[1:])
    select_item(mode, "Correct a die")
    fix(mode, 1, "3")  # Ben's die: not in the re-roll's picture
    assert s.engine.state.dice[1] == "3" and taught == [(1, "4+X")]


def test_the_solo_games_end_shows_the_points_not_a_winner(tmp_path, out_dir):
    """The solo game only counts points: "Winner: Sol" crowned a player who had nobody to beat."""
    s = session(tmp_path, {"players": ["Sol"]})
    for _ in range(14):
        play_turn(s.engine)
    assert s.apply({"action": "final", "player": "Sol", "stars": 2, "leftover": 4}), s.error
    mode = EchtSpitzeMode(s)
    mode.update(0.03, 0.0)
    assert mode._status() == "Game over, Sol!"
    shot(mode, out_dir, "solo_over")


def test_a_corrected_pair_in_solo_level_2_says_to_rub_the_beehive_out(tmp_path):
    """Solo level 2: a die misread for sure made a pair, and its beehive was blackened. Corrected on the screen,
    the engine's answer is said: rub it out."""
    said: list[str] = []
    s = GameSession.new(EchtSpitze, {"action": "setup", "players": ["Sol"], "level": 2},
                        Journal(tmp_path / "journal"), lang="en", rng=random.Random(3),
                        announce=lambda a: said.append(a.text("en")))
    assert s.apply({"action": "roll", "dice": ["2+X", "2+X", "3+X"]})
    assert s.engine.state.players[0].hives_blackened == ["front:2-2"]
    s.camera_ready = True  # as a camera read them: a die may be corrected
    mode = EchtSpitzeMode(s)
    mode.update(0.03, 0.0)
    press(mode, Button.PREV)  # from the first die back round: the button
    press(mode, Button.SELECT)
    fix(mode, 1, "4+X")
    assert said[-1] == "Corrected: beehive 2-2 need not be blackened – rub it out."
    assert s.engine.state.players[0].hives_blackened == []


def test_an_undo_under_an_open_correction_closes_it(tmp_path):
    """A long UNDO (the app's) while the dice of a correction are shown: the roll it was about is gone."""
    s = session(tmp_path, {"players": ["Anna", "Ben"], "kinds": {"lemons": [9, 7]}})
    mode = EchtSpitzeMode(s)
    press(mode, Button.ROLL)
    s.camera_ready = True  # as a camera read them: a die may be corrected
    press(mode, Button.SELECT)  # Anna takes a die
    press(mode, Button.PREV)
    press(mode, Button.SELECT)
    assert mode.fixing == "which"
    s.apply({"action": "take", "die": s.engine.middle[0] + 1})  # Ben's die seen leaving the tray: still open
    mode.update(0.03, 0.0)
    assert mode.fixing == "which"
    assert s.undo() and s.undo()
    mode.update(0.03, 0.0)
    assert mode.fixing is None and mode._hints()[-1][1] != "back"


def test_virtual_dice_offer_no_correction(tmp_path):
    """Virtual dice the companion threw are what they show: "Which die was read wrongly?" made no sense there."""
    s = session(tmp_path, {"players": ["Anna", "Ben"], "kinds": {"lemons": [9, 7]}})
    mode = EchtSpitzeMode(s)
    press(mode, Button.ROLL)
    assert s.engine.phase is Phase.TAKE
    for _ in range(len(s.engine.middle) + 1):
        press(mode, Button.NEXT)
        assert mode.cursor != FIX_BUTTON
    assert not mode.on_tap(mode._fix_button().center) and mode.fixing is None
    for _ in range(2):
        assert s.apply({"action": "take", "die": s.engine.middle[0] + 1}), s.error
    assert s.apply({"action": "leave"}), s.error
    mode.update(0.03, 0.0)
    mode.draw(pygame.Surface(SIZE))
    mode.on_tap(mode.dice.die_rects()[0].center)
    assert mode.fixing is None and t("echt.view.fix_die", "en") not in [i.label for i in mode.menu.items]


def test_after_the_taking_a_tap_on_a_die_corrects_it(tmp_path):
    """Deciding on the middle or crossing, a tap on a die did nothing; the README says a tap on a die corrects it.
    Now it opens that die's faces (while taking, a tap still takes the die)."""
    s = session(tmp_path, {"players": ["Anna", "Ben"], "kinds": {"lemons": [9, 7]}})
    for action in ({"action": "roll", "dice": ["1", "2", "3", "4"]}, {"action": "take", "die": 1},
                   {"action": "take", "die": 2}, {"action": "leave"}):
        assert s.apply(action), s.error
    s.camera_ready = True  # as a camera read them: a die may be corrected
    mode = EchtSpitzeMode(s)
    mode.draw(pygame.Surface(SIZE))
    assert mode.on_tap(mode.dice.die_rects()[2].center)
    assert mode.fixing == "face" and mode.fix_die == 2 and mode._face_options()[mode.choice] == "3"
    press(mode, Button.UNDO)
    press(mode, Button.UNDO)
    assert mode.fixing is None and mode.menu is not None
    assert mode.on_tap(mode.dice.die_rects()[1].center)
    assert mode.on_tap(mode._answer_rects()[mode._face_options().index("5")].center)
    assert s.engine.state.dice == ["1", "5", "3", "4"] and s.actions[-1]["action"] == "correct"


def test_a_die_corrected_twice_keeps_only_the_last_answer_as_an_example(tmp_path):
    """A slip corrected by correcting the die again: the first answer's example would name the picture of a 4 "5"
    all evening. It is taken back, as an unsure die answered twice is; so is an unsure die's answer the table
    corrects after the roll."""
    s = session(tmp_path, {"players": ["Anna", "Ben"], "kinds": {"lemons": [9, 7]}})
    s.camera_ready = True
    kept: list[dict] = []
    s.learn = lambda index, face: kept.append({"die": index, "face": face}) or kept[-1]
    s.unlearn = kept.remove
    mode = EchtSpitzeMode(s)
    press(mode, Button.ROLL)
    read = reading(["1", "3+X", "2", None])
    s.latest_reading = read
    mode.on_dice(read)
    answer(mode, "?")  # the unsure die
    assert kept == [{"die": 3, "face": "?"}]
    for face in ("5", "4"):
        mode.cursor = FIX_BUTTON  # "Correct a die" (after a correction the highlight is on the die corrected)
        press(mode, Button.SELECT)
        fix(mode, 2, face)
    assert s.engine.state.dice == ["1", "3+X", "4", "?"]
    assert kept == [{"die": 3, "face": "?"}, {"die": 2, "face": "4"}]
    mode.cursor = FIX_BUTTON
    press(mode, Button.SELECT)
    fix(mode, 3, "5")  # the unsure die's answer was wrong too
    assert kept == [{"die": 2, "face": "4"}, {"die": 3, "face": "5"}]


@pytest.mark.parametrize("lang", ["de", "en"])
@pytest.mark.parametrize("stage", ["which", "face"])
def test_the_correction_screens_words_do_not_overlap(tmp_path, out_dir, monkeypatch, lang, stage):
    """Four players crossing: six dice with their holders' names under them. The faces' title "Die 1 shows" stood
    on the first holder's name; correcting, the status line asks instead."""
    from companion.views import theme

    s = session(tmp_path, {"players": ["Anna", "Ben", "Carla", "David"], "kinds": {"pears": [5, 3]}})
    s.lang = lang
    for action in ({"action": "roll", "dice": ["1", "3+X", "2", "5", "?+X", "4"]}, *(
            {"action": "take", "die": n} for n in range(1, 5)), {"action": "leave"}):
        assert s.apply(action), s.error
    s.camera_ready = True  # as a camera read them: a die may be corrected
    mode = EchtSpitzeMode(s)
    mode.update(0.03, 0.0)
    select_item(mode, t("echt.view.fix_die", lang))
    if stage == "face":
        press(mode, Button.SELECT)
    drawn: list[tuple[str, pygame.Rect]] = []
    text = theme.text

    def recorded(surface, line, *a, **k):
        drawn.append((line, text(surface, line, *a, **k)))
        return drawn[-1][1]

    monkeypatch.setattr(theme, "text", recorded)
    shot(mode, out_dir, f"15_fix_{stage}_four_{lang}")
    clashes = [(a, b) for i, (a, ra) in enumerate(drawn) for b, rb in drawn[i + 1:] if ra.colliderect(rb)]
    assert clashes == []
    assert any(line == "Anna" for line, _ in drawn)


def test_the_results_after_the_game_stand_by_rank(tmp_path, monkeypatch):
    """Listed in seat order, Lena's 10 stood above Tim's 11: a table reads results out from the top."""
    from companion.views import echt_spitze_view

    s = session(tmp_path, {"players": ["Sara", "Ben"], "kinds": {"pears": [5, 3], "plums": [4, 2],
                                                                 "lemons": [9, 7]}})
    for action in ({"action": "roll", "dice": ["1", "2", "3", "4"]}, {"action": "take", "die": 1},
                   {"action": "take", "die": 2}, {"action": "leave"},
                   {"action": "report", "player": "Ben", "kinds": ["pears", "plums", "lemons"]},
                   {"action": "end_turn"}, {"action": "final", "player": "Sara"},
                   {"action": "final", "player": "Ben"}):
        assert s.apply(action), s.error
    assert s.engine.finished and s.engine.state.winners == ["Ben"]
    mode = EchtSpitzeMode(s)
    drawn: list[str] = []
    original = echt_spitze_view.theme.text
    monkeypatch.setattr(echt_spitze_view.theme, "text", lambda surface, text, *a, **k: drawn.append(text)
                        or original(surface, text, *a, **k))
    mode._draw_totals(pygame.Surface((800, 480)))
    assert [line.split(":")[0] for line in drawn] == ["Ben", "Sara"]


def test_a_kinds_value_is_reached_with_few_taps(tmp_path, out_dir):
    """A kind's values 1-15 showed three lines: a finger paged to a 9 with four to six taps of the arrows. A long
    list takes the dice's room on the right."""
    s = session(tmp_path, {"players": ["Anna", "Ben"], "kinds": {"pears": [5, 3]}})
    mode = EchtSpitzeMode(s)
    press(mode, Button.ROLL)
    for _ in range(2):
        press(mode, Button.SELECT)
    select_item(mode, "Leave")
    select_item(mode, "Anna")
    select_item(mode, "Kind complete")
    shot(mode, out_dir, "9_value_list_tall")
    menu = mode.menu
    assert len(menu.visible_range()) >= 5
    target = next(k for k, item in enumerate(menu.items) if item.label == "Higher value: 9")
    taps = 0
    while target not in menu.visible_range() and taps < 10:
        mode.on_tap(menu.scroll_rects()[+1].center)
        menu, taps = mode.menu, taps + 1
    assert taps <= 2, taps


@pytest.mark.parametrize("level, word", [(3, "shape"), (2, "kind")])
def test_the_higher_value_question_names_what_the_level_scores(tmp_path, level, word):
    """Level 3 scores shapes: "Sara: the kind's higher value?" named what that level does not have."""
    mode = EchtSpitzeMode(session(tmp_path, {"players": ["Sara", "Ben"], "level": level}))
    mode.sub = ("kind_hi", "Sara")
    assert mode._menu_title() == f"Sara: the {word}'s higher value?"


def test_a_call_the_table_answered_is_taken_back(tmp_path):
    """At a quick table "Ben: take a die" stood over Carla's turn, and the middle's question over the reports."""
    from companion.announcer import Announcer
    from companion.speech import Speech

    announcer = Announcer("en", 80, speech=Speech(lambda text, lang: None, threaded=False))
    s = GameSession.new(EchtSpitze, {"action": "setup", "players": ["Anna", "Ben", "Carla"]},
                        Journal(tmp_path / "journal"), lang="en", rng=random.Random(3), announce=announcer.announce,
                        announcer=announcer)
    g = s.engine
    waiting = lambda: [a.key for a in announcer.queued]  # noqa: E731
    assert s.apply({"action": "roll", "dice": ["1", "2", "3", "4", "5"][:g.dice_count]}), s.error
    assert "echt.take.next" in waiting()
    while s.engine.current_taker is not None:
        assert s.apply({"action": "take", "die": s.engine.middle[0] + 1}), s.error
        assert waiting().count("echt.take.next") <= 1  # the one for whoever takes now, none for those who took
    assert "echt.middle.choose" in waiting() and "echt.take.next" not in waiting()
    for _ in range(20):  # the question comes up on the screen
        announcer.update(announcer._now + 5.0)
        if announcer.current is not None and announcer.current.announcement.key == "echt.middle.choose":
            break
    assert s.apply({"action": "leave"}), s.error
    assert "echt.middle.choose" not in waiting()
    assert announcer.current is None or announcer.current.announcement.key != "echt.middle.choose"  # stopped


def test_the_scoring_menu_steps_back_one_list_and_goes_on_to_the_next_reporter(tmp_path):
    """UNDO from "the lower value?" went back to the top (player and kind chosen again), and after each report the
    highlight went back to the first player: NEXT NEXT SELECT from there ended the turn before Ben reported."""
    s = session(tmp_path, {"players": ["Sara", "Ben", "Carl"]})
    for action in ({"action": "roll", "dice": ["1", "2", "3", "4", "5"]}, {"action": "take", "die": 1},
                   {"action": "take", "die": 2}, {"action": "take", "die": 3}, {"action": "leave"}):
        assert s.apply(action), s.error
    mode = EchtSpitzeMode(s)
    mode.sub = ("kind_lo", "Sara", 9)
    mode._sync()
    press(mode, Button.UNDO)
    assert mode.sub == ("kind_hi", "Sara")
    assert mode.menu.items[mode.menu.index].value == ("sub", ("kind_lo", "Sara", 9))  # the 9 chosen, highlighted
    press(mode, Button.UNDO)
    assert mode.sub == ("player", "Sara") and mode.menu.items[mode.menu.index].value == ("sub", ("kind_hi", "Sara"))
    mode._choose(("report", "Sara", "pierced", True))
    assert mode.sub is None and mode.menu.items[mode.menu.index].value == ("open", "Ben")
    s.undo()  # Sara's report taken back: hers comes first again
    mode._sync()
    assert mode.menu.items[mode.menu.index].value == ("open", "Sara")
    for name in ("Sara", "Ben", "Carl"):
        mode._choose(("report", name, "pierced", True))
    assert mode.menu.items[mode.menu.index].value == ("end_turn",)  # after the last: what comes next



def test_a_banner_spares_the_middles_choice_whole(tmp_path):
    """The start player's question covered "Re-roll" for its four seconds: the banner kept clear of "Leave" only."""
    from companion.views import banner

    s = session(tmp_path, {"players": ["Sara", "Ben"]})
    for action in ({"action": "roll", "dice": ["1", "2", "3", "4"]}, {"action": "take", "die": 1},
                   {"action": "take", "die": 2}):
        assert s.apply(action), s.error
    mode = EchtSpitzeMode(s)
    mode._sync()
    bar, status, dice, choice = mode.in_view
    assert status == mode._status_line()[2] and bar.contains(pygame.Rect(8, 4, 734, 100))
    assert all(choice.contains(r) for r in mode.menu.item_rects().values())
    assert all(dice.contains(r) for r in mode.dice.die_rects())
    rect, _, _ = banner.place((800, 480), "Sara: die zwei Würfel in der Mitte liegen lassen oder neu würfeln?",
                              mode.focus_rect, 1.0, (), mode.in_view)
    assert not rect.colliderect(choice)


def test_a_banner_spares_the_dice_everybody_crosses_from(tmp_path):
    """The extra-cross sentences stood over the dice, their marks and the middle for their seconds while the
    table crossed from them: the dice are spared, the banner goes beside the menu."""
    from companion.views import banner

    s = session(tmp_path, {"players": ["Oma Gertrud", "Jonas", "Mia-Sophie", "Papa"], "kinds": {"lemons": [9, 7]}})
    for action in ({"action": "roll", "dice": ["4", "?", "4", "5", "?", "5"]}, *({"action": "take", "die": d}
                                                                                for d in (1, 2, 3, 4)),
                   {"action": "leave"}):
        assert s.apply(action), s.error
    mode = EchtSpitzeMode(s)
    mode._sync()
    assert s.engine.phase is Phase.SCORE
    dice = mode.in_view[2]
    assert all(dice.contains(r) for r in mode.dice.die_rects())
    rect, _, _ = banner.place((800, 480), "Mia-Sophie: Dein Würfel hat ein Extrakreuz – setze es, außer dein "
                              "reguläres Kreuz trifft eine Seifenblase.", mode.focus_rect, 1.0, (), mode.in_view)
    assert not rect.colliderect(dice)


def test_more_extra_crosses_read_than_the_dice_carry_are_asked_die_by_die(tmp_path):
    """Four dice read with the extra cross where three carry one: the roll was refused with "check the dice on the
    screen", and the screen showed none. Each crossed die is asked instead, the face read offered first: SELECT
    for the three that carry it, the plain face for the one read wrongly, each answer taught."""
    s, mode, taught, _ = camera_roll(tmp_path, ["1+X", "2+X", "3+X", "4+X"])
    assert s.error is None and mode.pending == [None, None, None, None]
    assert mode._status() == "More extra crosses read than the dice carry: die 1, is it 1 + extra cross?"
    press(mode, Button.SELECT)
    press(mode, Button.SELECT)
    assert mode.asking == 2 and mode._face_options()[mode.choice] == "3+X"
    mode._answer(mode._face_options().index("3"))  # this one carries no cross
    assert mode._status().endswith("die 4, is it 4 + extra cross?")
    press(mode, Button.SELECT)
    assert s.engine.state.dice == ["1+X", "2+X", "3", "4+X"] and s.engine.phase is Phase.TAKE
    assert taught == [(0, "1+X"), (1, "2+X"), (2, "3"), (3, "4+X")]


def test_an_unsure_die_among_too_many_crosses_is_asked_as_unsure(tmp_path):
    """A die read with no face at all, in a roll read with four crosses: it was asked "more extra crosses read
    than the dice carry: die 1, is it 5?", though nothing was crossed on it."""
    s = session(tmp_path, {"players": ["Anna", "Ben", "Cleo"], "kinds": {"lemons": [9, 7]}})
    s.camera_ready = True
    s.learn = lambda index, face: None
    mode = EchtSpitzeMode(s)
    press(mode, Button.ROLL)
    read = TrayReading((DieReading(None, 0.3, (0, 0, 10, 10), "5"),
                        *(DieReading(f, 0.9, (0, 0, 10, 10)) for f in ["1+X", "2+X", "3+X", "4+X"])))
    s.latest_reading = read
    mode.on_dice(read)
    assert mode.asking == 0 and mode._status() == "Die 1 was not read for sure: is it 5?"
    press(mode, Button.SELECT)
    assert mode.asking == 1 and mode._status().startswith("More extra crosses read than the dice carry: die 2")


def test_a_banner_spares_the_answers_to_an_unsure_die(tmp_path):
    """"Anna is the start player" stood over the crossed row with "1 + extra cross" lit under it, and over "Roll
    again instead": the question's answers are what the table looks at now."""
    from companion.views import banner

    s, mode, _, _ = camera_roll(tmp_path, ["1+X", "2+X", "3+X", "4+X"])
    assert mode.pending is not None and mode.focus_rect == mode._answer_rects()[mode.choice]
    (answers,) = mode.in_view
    assert all(answers.contains(r) for r in mode._answer_rects())
    rect, _, _ = banner.place((800, 480), "Anna ist Startspielerin: alle Würfel werfen!", mode.focus_rect, 1.0, (),
                              mode.in_view)
    assert not rect.colliderect(answers)


def test_the_extra_cross_stands_out_on_a_taken_dies_grey_without_its_red():
    """The mark was the theme's red: on a taken (dimmed) die's grey 1.15:1, gone for a player who sees no red and
    in greyscale. It is a darker red with a white edge."""
    from companion.views.echt_spitze_view import CROSS_INK, _cross
    from companion.views.widgets import draw_die

    surface = pygame.Surface((200, 200))
    rect = pygame.Rect(50, 50, 96, 96)
    draw_die(surface, rect, "3+X", dimmed=True, label=str)
    _cross(surface, rect, "3+X")
    corner = pygame.surfarray.array3d(surface)[rect.right - 34:rect.right, rect.y:rect.y + 34].reshape(-1, 3)
    grey = [0.299 * r + 0.587 * g + 0.114 * b for r, g, b in corner.astype(float)]
    assert max(grey) - min(grey) > 150  # a white edge and a dark core: told apart by lightness, not hue alone
    assert (np.abs(corner.astype(int) - CROSS_INK).sum(axis=1) < 20).sum() > 30


def test_after_a_pierce_the_beehives_offered_are_the_backs():
    """A turn that pierced crosses its hive on the back: the list still followed the front, offered a hive crossed
    on the back (its highlight on it) and said "noted" and then "does not count"."""
    from companion.games.echt_spitze.state import PlayerState
    from companion.views.echt_spitze_view import _open_hives

    anna = PlayerState("Anna")
    anna.hives_crossed, anna.hives_blackened = ["back:2-2", "front:1-1"], ["back:3-3"]
    assert _open_hives(anna) == ["2-2", "3-3", "4-4", "5-5"]
    anna.report.pierced = True
    assert _open_hives(anna) == ["1-1", "4-4", "5-5"]


# -- read from two metres: what the far end of the table must read is drawn at theme.FAR or larger -------------------
FOUR = ["Johannes", "Annika", "Carla", "David"]  # typical names, up to eight letters
CROSSED = ["1+X", "3+X", "2", "5", "?+X", "4"]  # two players with up to two extra crosses, two with one


def drawn_texts(mode: EchtSpitzeMode, monkeypatch) -> list[tuple[str, int, pygame.Rect]]:
    """(line, size, rect) of every text ``mode.draw`` draws on the 800x480 canvas (bar, status, menus, hints)."""
    mode.update(0.03, 0.0)
    with recording_texts(monkeypatch) as drawn:
        mode.draw(pygame.Surface(SIZE))
    return drawn


def sized(drawn: list[tuple[str, int, pygame.Rect]], line: str) -> tuple[int, pygame.Rect]:
    found = [(size, rect) for text, size, rect in drawn if text == line]
    assert found, (line, [text for text, _, _ in drawn])
    return found[0]


def assert_apart(drawn: list[tuple[str, int, pygame.Rect]], lines: list[str]) -> None:
    """The lines stand on the canvas above the hint bar, none over another."""
    rects = [(line, sized(drawn, line)[1]) for line in lines]
    for line, rect in rects:
        assert pygame.Rect(0, 0, 800, 440).contains(rect), (line, rect)
    clashes = [(a, b) for i, (a, ra) in enumerate(rects) for b, rb in rects[i + 1:] if ra.colliderect(rb)]
    assert clashes == []


def crossing(tmp_path, lang: str, players: list[str], *then: dict) -> tuple[GameSession, EchtSpitzeMode]:
    s = session(tmp_path, {"players": players, "kinds": {"pears": [5, 3], "plums": [4, 2]}})
    s.lang = lang
    for action in ({"action": "roll", "dice": CROSSED[:len(players) + 2]},
                   *({"action": "take", "die": n} for n in range(1, len(players) + 1)), {"action": "leave"}, *then):
        assert s.apply(action), s.error
    return s, EchtSpitzeMode(s)


@pytest.mark.parametrize("lang", ["de", "en"])
@pytest.mark.parametrize("players", [FOUR[:2], FOUR[:3], FOUR], ids=["two", "three", "four"])
def test_the_bar_shows_names_large_and_each_players_side_and_holes_from_the_far_end(tmp_path, monkeypatch, lang,
                                                                                    players):
    """The bar's names were drawn at BODY and "vorne · 0 Löcher" at SMALL (13 px capitals): from the far end of
    the table nobody read whose turn it was. Names at LARGE, the note at FAR (four players: on two lines)."""
    from companion.views import theme
    from companion.views.echt_spitze_view import BAR

    s, mode = crossing(tmp_path, lang, players)
    drawn = drawn_texts(mode, monkeypatch)
    side = t("echt.view.side_front", lang)
    note = t("echt.view.note", lang, side=side, holes=0)
    for k, name in enumerate(players):
        size, rect = sized(drawn, name)  # the first "Johannes" drawn is the bar's (the dice's come later)
        assert size >= theme.LARGE, (name, size)
        cell = pygame.Rect(BAR.x + k * (BAR.w // len(players)), BAR.y, BAR.w // len(players) - 4, BAR.h)
        notes = [(size, r) for line, size, r in drawn if line in (note, side, note.split(" · ")[-1])
                 and cell.contains(r)]
        assert notes and all(size >= theme.FAR for size, _ in notes), (name, notes)
        assert all(cell.contains(r) for _, r in [(size, rect), *notes])
        lines = [rect, *(r for _, r in notes)]
        assert not any(a.colliderect(b) for i, a in enumerate(lines) for b in lines[i + 1:])


@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_status_line_is_read_from_the_far_end_in_every_phase(tmp_path, monkeypatch, lang):
    """"Anna: take one die", "Place your crosses!", "Winner: Sara" were drawn at BODY: from the far end of the table
    the prompt was not read. Four players of typical names, every phase of a game: the status line at FAR or
    larger, under the bar and over the dice."""
    from companion.views import theme
    from companion.views.echt_spitze_view import BAR, DICE

    s = session(tmp_path, {"players": FOUR, "kinds": {"pears": [5, 3], "plums": [4, 2], "lemons": [9, 7]}})
    s.lang = lang
    mode = EchtSpitzeMode(s)
    steps = [{"action": "roll", "dice": CROSSED}, {"action": "take", "die": 1},
             *({"action": "take", "die": n} for n in range(2, 5)), {"action": "leave"},
             {"action": "report", "player": "Johannes", "kinds": ["pears", "plums", "lemons"]},
             {"action": "end_turn"}, *({"action": "final", "player": p, "stars": 2} for p in FOUR)]
    seen = set()
    for step in [None, *steps]:
        if step is not None:
            assert s.apply(step), s.error
        if s.engine.phase in seen:
            continue
        seen.add(s.engine.phase)
        drawn = drawn_texts(mode, monkeypatch)
        size, rect = sized(drawn, mode._status())
        assert size >= theme.FAR, (s.engine.phase, mode._status(), size)
        assert rect.top >= BAR.bottom and rect.bottom <= DICE.top - 4 and 0 <= rect.left <= rect.right <= 800
    assert len(seen) == 6  # roll, take, middle, crossing, final scoring, the end


@pytest.mark.parametrize("lang", ["de", "en"])
@pytest.mark.parametrize("count", [2, 4])
def test_the_extra_crosses_and_the_bubble_rule_are_read_from_the_far_end(tmp_path, monkeypatch, lang, count):
    """Crossing, "Anna: +1 extra cross" stood at BODY and "None if a cross hits a bubble!" at SMALL: the rule
    everyone must follow was read at the screen only. Players with the same count share a line, a line too wide
    wraps at FAR; nothing runs into the dice, the menu or the hint bar."""
    from companion.views import theme
    from companion.views.echt_spitze_view import LEFT

    players = FOUR[:count]
    s, mode = crossing(tmp_path, lang, players)
    drawn = drawn_texts(mode, monkeypatch)
    one = [p for p in players if s.engine.extra_crosses(p) == 1]
    two = [p for p in players if s.engine.extra_crosses(p) == 2]
    assert one and (two or count == 2)  # four players: two counts, the most lines
    wanted = [t("echt.view.extra_one", lang, player=", ".join(one)),
              *([t("echt.view.extra_two", lang, player=", ".join(two))] if two else []),
              t("echt.view.no_bubble", lang)]
    lines = [line for line, _, rect in drawn if LEFT.contains(rect)]
    assert " ".join(lines) == " ".join(wanted)  # the counts, then the rule under them
    for line in lines:
        size, rect = sized(drawn, line)
        assert size >= theme.FAR, (line, size)
    menu = [rect for rect in mode.menu.item_rects().values()]
    dice = [r.inflate(10, 10) for r in mode.dice.die_rects()]
    assert_apart(drawn, lines)
    assert not any(sized(drawn, line)[1].colliderect(r) for line in lines for r in menu + dice)


@pytest.mark.parametrize("lang", ["de", "en"])
@pytest.mark.parametrize("reporters", [FOUR[2:], FOUR], ids=["two", "four"])
def test_four_players_reminders_stay_at_far_and_each_report_stands_in_its_players_menu_line(tmp_path, monkeypatch,
                                                                                           lang, reporters):
    """Four players crossing, two counts of extra crosses: the reminders fill LEFT at FAR, and the reports under them
    shrank them to 30 (four reports) or themselves to 12-14 (two), cut. The reports stand in their players' lines of
    the menu, where the one at the buttons looks ("Carla: pears, plums"), at SMALL or larger and inside the line."""
    from companion.views.echt_spitze_view import LEFT

    s, mode = crossing(tmp_path, lang, FOUR, *({"action": "report", "player": p, "kinds": ["pears", "plums"]}
                                                for p in reporters))
    drawn = drawn_texts(mode, monkeypatch)
    left = [(line, size) for line, size, rect in drawn if LEFT.contains(rect)]
    assert len(left) >= 5 and all(size >= theme.FAR for _, size in left), left
    assert not any("pears" in line for line, _ in left)
    assert_apart(drawn, [line for line, _ in left])
    for name in reporters:
        k = next(k for k, item in enumerate(mode.menu.items) if item.value == ("open", name))
        mode.menu.index = k  # the highlight, and the list, go to the player's line
        drawn = drawn_texts(mode, monkeypatch)
        row = mode.menu.item_rects()[k]
        inside = [(line, size) for line, size, rect in drawn if row.contains(rect)]
        assert " ".join(line for line, _ in inside) == f"{name}: pears, plums", inside
        assert all(size >= theme.SMALL for _, size in inside), inside
    for name in set(FOUR) - set(reporters):  # who has not reported is asked as before
        assert t("echt.view.report_player", lang, player=name) in [item.label for item in mode.menu.items]


@pytest.mark.parametrize("lang", ["de", "en"])
@pytest.mark.parametrize("count", [2, 4])
def test_the_winner_and_everyones_points_are_large_at_the_end(tmp_path, monkeypatch, lang, count):
    """After the game, "Winner: Sara" and the points were drawn at BODY: the table read them at the screen only."""
    from companion.views import theme

    players = FOUR[:count]
    s = session(tmp_path, {"players": players, "kinds": {"pears": [5, 3], "plums": [4, 2], "lemons": [9, 7]}})
    s.lang = lang
    for action in ({"action": "roll", "dice": CROSSED[:count + 2]},
                   *({"action": "take", "die": n} for n in range(1, count + 1)), {"action": "leave"},
                   {"action": "report", "player": players[-1], "kinds": ["pears", "plums", "lemons"]},
                   {"action": "end_turn"}, *({"action": "final", "player": p, "stars": 10} for p in players)):
        assert s.apply(action), s.error
    assert s.engine.finished
    mode = EchtSpitzeMode(s)
    drawn = drawn_texts(mode, monkeypatch)
    winner = t("echt.view.over", lang, players=", ".join(s.engine.state.winners))
    totals = [t("echt.view.total", lang, player=p.name, total=p.final.total, holes=p.holes)
              for p in s.engine.state.players]
    for line in [winner, *totals]:
        assert sized(drawn, line)[0] >= theme.LARGE, line
    assert_apart(drawn, [winner, *totals, *players])


@pytest.mark.parametrize("level", [2, 3])
def test_the_final_editor_with_three_numbers_ends_above_the_hint_bar(tmp_path, level):
    """Level 2 asks the star value, the stars and the leftover symbols: under the taller bar its "Done" reached into
    the hint bar (y 440). The editor stands where the dice stood (there are none after the last turn)."""
    from companion.views.echt_spitze_view import BAR

    setup = {"players": ["Sara", "Ben"], "level": level}
    setup.update({"kinds": LEVEL2_KINDS} if level == 2 else {"shapes": {"L": [8, 5], "T": [6, 4], "Z": [5, 3],
                                                                         "S": [4, 2]}})
    s = session(tmp_path, setup)
    for what in (["kinds", k] for k in list(LEVEL2_KINDS)[:3]) if level == 2 else (["shape", k] for k in "LTZS"):
        done = {"kinds": [what[1]]} if what[0] == "kinds" else {"shape": what[1]}
        for action in ({"action": "roll", "dice": ["1", "2", "3", "4"]}, {"action": "take", "die": 1},
                       {"action": "take", "die": 2}, {"action": "leave"},
                       {"action": "report", "player": "Sara", **done}, {"action": "end_turn"}):
            assert s.apply(action), s.error
        if s.engine.phase is Phase.FINAL:
            break
    assert s.engine.phase is Phase.FINAL
    mode = EchtSpitzeMode(s)
    mode.update(0.03, 0.0)
    select_item(mode, "Sara")
    rects = [rect for _, _, rect in mode._final_controls()]
    assert len(rects) == 7  # three numbers' "-" and "+", and "Done"
    assert all(rect.top > BAR.bottom + 40 and rect.bottom <= 440 for rect in rects), rects


@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_points_entered_so_far_are_read_from_the_far_end_beside_the_final_editor(tmp_path, monkeypatch, lang):
    """While David's numbers are entered, the three totals entered before stood at BODY; at FAR one was too wide
    for the room left of the editor and shrank: the holes take a line of their own."""
    from companion.views import theme
    from companion.views.echt_spitze_view import DICE

    s = session(tmp_path, {"players": FOUR, "kinds": {"pears": [5, 3], "plums": [4, 2], "lemons": [9, 7]}})
    s.lang = lang
    for action in ({"action": "roll", "dice": CROSSED}, *({"action": "take", "die": n} for n in range(1, 5)),
                   {"action": "leave"}, {"action": "report", "player": "Johannes", "kinds": ["pears", "plums",
                                                                                           "lemons"]},
                   {"action": "end_turn"}, *({"action": "final", "player": p, "stars": 3} for p in FOUR[:3])):
        assert s.apply(action), s.error
    mode = EchtSpitzeMode(s)
    mode.update(0.03, 0.0)
    select_item(mode, "David")
    assert mode.sub == ("final", "David")
    drawn = drawn_texts(mode, monkeypatch)
    points = t("echt.view.total", lang, player="Johannes", total=s.engine.state.players[0].final.total, holes=0)
    totals = {line for line, *_ in mode._total_layout()}
    left = [(line, size, rect) for line, size, rect in drawn if line in totals and rect.top >= DICE.y]
    assert " · ".join(line for line, _, _ in left[:2]) == points or left[0][0] == points
    assert len(left) >= 3 and all(size >= theme.FAR for _, size, _ in left), left
    controls = [rect for _, _, rect in mode._final_controls()]
    title = sized(drawn, t("echt.view.title_final", lang, player="David"))[1]
    rects = [rect for _, _, rect in left]
    assert not any(r.colliderect(c) for r in rects for c in [*controls, title])
    assert not any(a.colliderect(b) for i, a in enumerate(rects) for b in rects[i + 1:])
    assert all(pygame.Rect(0, 0, 800, 440).contains(r) for r in rects)


# -- the far re-audit through the app: long names, banners, the reports -------------------------------------------
LONG = ["Großvater Johannes", "Mia"]


@pytest.mark.parametrize("lang", ["de", "en"])
def test_a_long_name_in_the_status_line_is_shortened_before_the_line_shrinks_below_far(tmp_path, monkeypatch, lang):
    """"Großvater Johannes: Mitte liegen lassen oder neu würfeln?" was drawn at 30, the re-roll's prompt at 26: the
    name is shortened as people shorten it ("Großvater J.") and the line keeps FAR."""
    from companion.views import theme

    s = session(tmp_path, {"players": LONG, "kinds": {"pears": [5, 3]}})
    s.lang = lang
    shortened = 0
    for action in ({"action": "roll", "dice": ["1", "2", "3", "4"]}, {"action": "take", "die": 1},
                   {"action": "take", "die": 2}, None, {"action": "reroll"}):
        if action is not None:
            assert s.apply(action), s.error
        mode = EchtSpitzeMode(s)
        drawn = drawn_texts(mode, monkeypatch)
        status, size, rect = mode._status_line()
        assert sized(drawn, status)[0] == size and rect.contains(sized(drawn, status)[1])
        assert size >= theme.FAR, (s.engine.phase, status, size)
        assert pygame.Rect(0, 0, 800, 150).contains(rect)
        whole = mode._status()  # the names whole where that keeps FAR ("Mia: take one die")
        assert status == whole or theme.fit_text(whole, theme.LARGE, 770, True) < theme.FAR
        shortened += status != whole
    assert shortened == (2 if lang == "de" else 0)  # "Großvater J.: Mitte liegen lassen ...", "... neu würfeln"


def score_phase(tmp_path, lang: str, players: list[str], dice: list[str]) -> tuple[GameSession, EchtSpitzeMode]:
    s = session(tmp_path, {"players": players, "kinds": {"pears": [5, 3], "plums": [4, 2]}})
    s.lang = lang
    takes = ({"action": "take", "die": n} for n in range(1, len(players) + 1))
    for action in ({"action": "roll", "dice": dice}, *takes, {"action": "leave"}):
        assert s.apply(action), s.error
    mode = EchtSpitzeMode(s)
    mode.update(0.03, 0.0)
    return s, mode


@pytest.mark.parametrize("lang", ["de", "en"])
def test_a_banner_while_crossing_keeps_clear_of_the_prompt_the_menu_and_the_reminders_where_it_fits(tmp_path,
                                                                                                     monkeypatch, lang):
    """"Großvater Johannes lässt die Mitte liegen." stood at the top over the bar and "Kreuze setzen!" (only the dice
    were kept clear of); banners beside the highlighted item covered the rest of the menu. The status line, the
    whole menu and the reminders are what the table looks at: with no extra crosses a banner stands under the dice
    on the left, clear of all of them."""
    from companion.views import banner

    s, mode = score_phase(tmp_path, lang, LONG, ["1", "2", "3", "4"])
    drawn = drawn_texts(mode, monkeypatch)
    spare = mode.in_view
    status = mode._status_line()[2]
    menu = list(mode.menu.item_rects().values())
    assert any(r.contains(status) for r in spare)
    assert all(any(r.contains(item) for r in spare) for item in menu)
    assert all(any(r.contains(die) for r in spare) for die in mode.dice.die_rects())
    rect, _, _ = banner.place((800, 480), t("echt.middle.leave", lang, player=LONG[0]), mode.focus_rect, 1.0, (),
                              spare)
    assert not any(rect.colliderect(r) for r in [status, *menu, *mode.dice.die_rects()])
    assert not any(rect.colliderect(r) for _, _, r in drawn if r.bottom < 440), rect  # nothing drawn covered


@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_reminders_and_reports_are_in_view_while_crossing(tmp_path, monkeypatch, lang):
    """With extra crosses the reminders under the dice are in view too: a banner may cover them only where it
    fits nowhere else."""
    s, mode = score_phase(tmp_path, lang, FOUR[:3], CROSSED[:5])
    s.apply({"action": "report", "player": "Annika", "kinds": ["pears"]})
    drawn = drawn_texts(mode, monkeypatch)
    left = [r for _, _, r in drawn if r.colliderect(LEFT_AREA)]
    assert len(left) >= 4
    assert all(any(v.contains(r) for v in mode.in_view) for r in left)
    # nowhere to stand clear of all that: the banner may cover the reminders or the top, never the reports' list
    # (it stood under the highlighted item, over the next reporter)
    assert all(mode.focus_rect.contains(r) for r in mode.menu.item_rects().values())
    from companion.views import banner

    rect, _, _ = banner.place((800, 480), "Annika: pears complete – noted.", mode.focus_rect, 1.0, (), mode.in_view)
    assert not any(rect.colliderect(r) for r in mode.menu.item_rects().values())


LEFT_AREA = pygame.Rect(20, 260, 372, 180)


def long_names_scoring(tmp_path, lang: str, stars: int) -> GameSession:
    """LONG's game in its final scoring, the first player's score (``stars`` stars) entered."""
    s = session(tmp_path, {"players": LONG, "kinds": {"pears": [5, 3], "plums": [4, 2], "lemons": [9, 7]}})
    s.lang = lang
    for action in ({"action": "roll", "dice": ["1", "2", "3", "4"]}, {"action": "take", "die": 1},
                   {"action": "take", "die": 2}, {"action": "leave"},
                   {"action": "report", "player": LONG[0], "kinds": ["pears", "plums", "lemons"]},
                   {"action": "end_turn"}, {"action": "final", "player": LONG[0], "stars": stars}):
        assert s.apply(action), s.error
    return s


@pytest.mark.parametrize("lang", ["de", "en"])
def test_a_scores_banner_in_the_final_scoring_keeps_clear_of_who_is_still_to_score(tmp_path, monkeypatch, lang):
    """"Großvater Johannes: Symbolarten 7 + Sterne 0 + übrige Symbole 6 = 13" stood at the top over the prompt;
    "3/2 für Mia" over "Mia: Schlusswertung". The points entered, the list of who is still to score and the prompt
    are in view: the banner goes where none of them is."""
    from companion.views import banner

    s = long_names_scoring(tmp_path, lang, stars=0)
    assert s.engine.phase is Phase.FINAL
    mode = EchtSpitzeMode(s)
    drawn = drawn_texts(mode, monkeypatch)
    said = {"de": "Großvater Johannes: Symbolarten 7 + Sterne 0 + übrige Symbole 6 = 13",
            "en": "Großvater Johannes: kinds 7 + stars 0 + leftover symbols 6 = 13"}[lang]
    keep = [r for _, _, r in drawn if r.bottom < 440]  # all but the hint bar
    rect, _, _ = banner.place((800, 480), said, mode.focus_rect, 1.0, (), mode.in_view)
    assert not any(rect.colliderect(r) for r in keep), (rect, [x for x in drawn if rect.colliderect(x[2])])


@pytest.mark.parametrize("lang", ["de", "en"])
def test_a_long_names_points_beside_the_final_editor_keep_far(tmp_path, monkeypatch, lang):
    """"Großvater Johannes: 13 Punkte" (the holes on their own line) was drawn at 26 beside the editor: above the
    editor the line has the whole width, beside it the name is shortened before the points shrink below FAR."""
    from companion.views import theme

    s = long_names_scoring(tmp_path, lang, stars=3)
    mode = EchtSpitzeMode(s)
    mode.update(0.03, 0.0)
    select_item(mode, "Mia")
    assert mode.sub == ("final", "Mia")
    drawn = drawn_texts(mode, monkeypatch)
    points = [(line, size, rect) for line, size, rect in drawn if "Großvater" in line and rect.bottom < 440]
    assert points and all(size >= theme.FAR for _, size, _ in points), points
    editor = [rect for _, _, rect in mode._final_controls()]
    title = sized(drawn, t("echt.view.title_final", lang, player="Mia"))[1]
    assert not any(rect.colliderect(r) for _, _, rect in points for r in [*editor, title])


@pytest.mark.parametrize("players, under", [(["Großvater Johannes", "Mia"], "Großvater"),
                                            (["Großvater Johannes", "Großvater Klaus"], "G. J.")])
def test_a_long_name_under_a_die_is_its_first_word_or_initials_not_cut(tmp_path, monkeypatch, players, under):
    """"Großvate. J." under a taken die (fit_name's cut first word, 18 px) read as a misspelling: the first word
    alone where it tells the players apart, else the initials."""
    from companion.views import theme

    s = session(tmp_path, {"players": players, "kinds": {"pears": [5, 3]}})
    for action in ({"action": "roll", "dice": ["1", "2", "3", "4"]}, {"action": "take", "die": 1}):
        assert s.apply(action), s.error
    mode = EchtSpitzeMode(s)
    drawn = drawn_texts(mode, monkeypatch)
    die = mode.dice.die_rects()[0]
    size, rect = sized(drawn, under)
    assert size >= theme.SMALLEST and rect.top >= die.bottom and abs(rect.centerx - die.centerx) <= 1
    assert rect.w <= die.w + 12


def _names_under_taken_dice(tmp_path, monkeypatch, players: list[str]):
    """The screen after each of ``players`` took one die, in turn: the dice's rects and the texts drawn under the
    dice (line, size, rect), left to right, one per player."""
    s = session(tmp_path, {"players": players, "kinds": {"pears": [5, 3]}})
    assert s.apply({"action": "roll", "dice": ["1", "2", "3", "4", "5", "?"]}), s.error
    while s.engine.current_taker is not None:
        assert s.apply({"action": "take", "die": s.engine.middle[0] + 1}), s.error
    mode = EchtSpitzeMode(s)
    drawn = drawn_texts(mode, monkeypatch)
    dice = mode.dice.die_rects()
    under = sorted(((line, size, r) for line, size, r in drawn if dice[0].bottom <= r.top <= dice[0].bottom + 12),
                   key=lambda d: d[2].x)[:len(players)]
    assert [mode.game.holder(i) for i in range(len(players))] == players  # each took one die, in turn
    return dice, under


@pytest.mark.parametrize("players, shown", [
    (["Großmutter H.", "Maximilian", "Özlem", "Anna"], ["G. H.", "Maximil.", "Özlem", "Anna"]),
    (["Hildegard", "Maximilian", "Maximiliane", "Eva-Maria"], ["Hildegard", "Maximilian", "Maximi…", "Eva-Maria"]),
])
def test_the_names_under_the_dice_stand_at_one_readable_size(tmp_path, monkeypatch, players, shown):
    """Six dice: "Maximilian" stood whole at 18 under its die beside "G. H." at 22: tiny. A name that would shrink
    below ``DIE_NAME_MIN`` is shortened there as the others are ("Maximil."); where a cut would not tell it from
    another player's name ("Maximiliane") it is drawn as before (whole down to SMALLEST, then cut)."""
    from companion.views import theme
    from companion.views.echt_spitze_view import DIE_NAME_MIN

    _, under = _names_under_taken_dice(tmp_path, monkeypatch, players)
    holders = [(line, size) for line, size, _ in under]
    for name, (line, size) in zip(shown, holders, strict=True):
        assert line == name
        assert size >= (theme.SMALLEST if name == "Maximilian" else DIE_NAME_MIN), (line, size)


@pytest.mark.parametrize("players", [
    ["Großmutter Hildegard", "Großmutter Helga", "Maximilian", "Maximiliane"],
    ["Marie-Luise", "Marie-Louise", "Bartholomäus", "Christopher"],
    ["Großvater Karl", "Großvater Kurt", "Anneliese", "Annemarie"],
    ["Großvater Karl", "Großvater Karla", "Großvater Kurt", "Großmutter Karl"],
])
def test_no_two_players_get_the_same_name_under_their_dice(tmp_path, monkeypatch, players):
    """"Großmutter Hildegard" and "Großmutter Helga" were both "G. H." under their dice, "Marie-Luise" and
    "Marie-Louise" both "Marie-L.": nobody could tell whose die was whose. Each label is one only its player's name
    shortens to, still readable."""
    from companion.views import theme

    dice, under = _names_under_taken_dice(tmp_path, monkeypatch, players)
    labels = [line for line, _, _ in under]
    assert len(set(labels)) == len(players), labels
    for (line, size, rect), die in zip(under, dice, strict=False):
        assert size >= theme.SMALLEST and rect.w <= die.w + 12, (line, size, rect)


@pytest.mark.parametrize("lang", ["de", "en"])
def test_a_long_name_in_the_final_scoring_list_is_shortened_not_cut(tmp_path, monkeypatch, lang):
    """Four players: "Großvater Johannes: Schlusswertu…" was cut at 18 in the list of who is still to score."""
    players = ["Großvater Johannes", "Mia", "Annika", "Großmutter Hildegard"]
    s = session(tmp_path, {"players": players, "kinds": {"pears": [5, 3], "plums": [4, 2], "lemons": [9, 7]}})
    s.lang = lang
    for action in ({"action": "roll", "dice": CROSSED}, *({"action": "take", "die": n} for n in range(1, 5)),
                   {"action": "leave"}, {"action": "report", "player": "Mia", "kinds": ["pears", "plums", "lemons"]},
                   {"action": "end_turn"}):
        assert s.apply(action), s.error
    mode = EchtSpitzeMode(s)
    drawn = drawn_texts(mode, monkeypatch)
    line = t("echt.view.final_player", lang, player="Großvater J.")
    assert mode.menu.items[0].label == line
    assert sized(drawn, line)[0] >= 22 and not any(text.endswith("…") for text, _, _ in drawn)


def _over_with_tie(tmp_path, holes: tuple[int, int]) -> tuple[EchtSpitzeMode, GameSession]:
    """Sara and Ben end level 1 on 30 points each, having pierced ``holes`` bubbles."""
    s = session(tmp_path, {"action": "setup", "players": ["Sara", "Ben"], "level": 1,
                           "kinds": {"lemons": [9, 7], "kiwis": [4, 3], "pears": [5, 3], "plums": [4, 2]}})

    def turn(*reports: dict) -> None:
        for action in ({"action": "roll", "dice": ["1", "2", "3", "4"]}, {"action": "take", "die": 1},
                       {"action": "take", "die": 2}, {"action": "leave"}, *({"action": "report", **r} for r in reports),
                       {"action": "end_turn"}):
            assert s.apply(action), s.error

    for n in range(max(holes)):
        turn(*({"player": p, "pierced": True} for p, h in zip(("Sara", "Ben"), holes, strict=True) if h > n))
    turn({"player": "Sara", "kinds": ["kiwis", "pears", "plums"]})  # 13 points, the third kind: the game ends
    for action in ({"action": "final", "player": "Sara", "stars": 3, "leftover": 2},
                   {"action": "final", "player": "Ben", "stars": 6, "leftover": 0}):
        assert s.apply(action), s.error
    return EchtSpitzeMode(s), s


@pytest.mark.parametrize(("holes", "says"), [((2, 1), "Tied at 30 points – Sara wins with the most holes pierced: 2."),
                                             ((1, 1), "Tied at 30 points with as many holes: Sara and Ben share "
                                                      "the victory!")])
def test_the_end_says_how_a_tie_at_the_top_was_decided(tmp_path, monkeypatch, holes, says):
    """"Winner: Sara" stood beside Ben's equal points: the sentence that said why (most holes, or shared) was heard
    once and gone, also after a restart."""
    mode, session = _over_with_tie(tmp_path, holes)
    assert [a.text("en") for a in session.engine.ending] == [says]
    drawn = drawn_texts(mode, monkeypatch)
    shown = " ".join(line for line, size, _ in drawn if size >= theme.SMALL)
    assert says in shown or all(part in shown for part in says.split(" – "))
    lines = [(size, rect) for line, size, rect in drawn if line in says and len(line) > len("Sara and Ben")]
    assert lines and all(size >= theme.FAR and rect.bottom <= 440 for size, rect in lines)


@pytest.mark.parametrize("lang", ["de", "en"])
def test_a_reminder_on_two_lines_is_not_broken_inside_a_players_name(tmp_path, monkeypatch, lang):
    """"Annika, Großvater / Johannes: +1 extra cross" read as three people from across the table, and where the
    whole names did not fit two lines the reminder shrank below FAR: it wraps between the names, shortened
    ("Großvater J.") before it shrinks, as the other screens' far lines do (``theme.far_lines``)."""
    from companion.views import theme
    from companion.views.echt_spitze_view import LEFT

    players = ["Annika", "Großvater Johannes", "Großmutter Hildegard", "David"]
    s, mode = crossing(tmp_path, lang, players)
    drawn = drawn_texts(mode, monkeypatch)
    lines = [line for line, _, rect in drawn if LEFT.contains(rect)]
    assert len(lines) > 3  # a reminder took two lines
    assert all(sized(drawn, line)[0] >= theme.FAR for line in lines), [(x, sized(drawn, x)[0]) for x in lines]
    for p in players:  # each named on one line, whole or shortened
        assert any(p in line or theme.short_name(p) in line for line in lines), (p, lines)


@pytest.mark.parametrize("lang", ["de", "en"])
def test_four_long_names_reports_stay_left_of_the_menu_and_on_the_screen(tmp_path, monkeypatch, lang):
    """Four long names reporting in the same turn: their reports, run together, stood as one line of 947 px at 12,
    under the menu and off the screen's edge. Each stands in its player's menu line now, inside it."""
    from companion.views.echt_spitze_view import LEFT

    names = ["Großvater Johannes", "Großmutter Hildegard", "Maximilian-Alexander", "Anne-Marie Schulz"]
    kinds = {"kinds": {"pears": [5, 3], "plums": [4, 2], "lemons": [9, 7]}}
    s = session(tmp_path, {"players": names, **kinds})
    s.lang = lang
    for action in ({"action": "roll", "dice": CROSSED}, *({"action": "take", "die": n} for n in range(1, 5)),
                   {"action": "leave"},
                   *({"action": "report", "player": p, "kinds": ["pears", "plums", "lemons"]} for p in names)):
        assert s.apply(action), s.error
    mode = EchtSpitzeMode(s)
    drawn = drawn_texts(mode, monkeypatch)
    left = [(line, r) for line, _, r in drawn if r.x < LEFT.right and LEFT.top <= r.top < 440]
    assert left and all(r.right <= LEFT.right + 4 and r.bottom <= 444 for _, r in left), left
    for k in range(1, len(names) + 1):
        mode.menu.index = k
        drawn = drawn_texts(mode, monkeypatch)
        row = mode.menu.item_rects()[k]
        inside = [line for line, _, r in drawn if row.contains(r)]
        assert inside and "lemons" in inside[-1] and not any(line.endswith("…") for line in inside), inside


def test_the_names_under_neighbouring_dice_stand_apart(tmp_path, monkeypatch):
    """"GroßvaterEva-Maria": two holders' names under neighbouring dice, each as wide as the dice's pitch, ran into
    one word."""
    names = ["Großvater Johannes", "Eva-Maria"]
    s = session(tmp_path, {"players": names, "kinds": {"pears": [5, 3], "plums": [4, 2]}})
    for action in ({"action": "roll", "dice": ["1", "2", "3", "4"]}, {"action": "take", "die": 1},
                   {"action": "take", "die": 2}):
        assert s.apply(action), s.error
    mode = EchtSpitzeMode(s)
    drawn = drawn_texts(mode, monkeypatch)
    dice = mode.dice.die_rects()
    under = sorted((r for line, _, r in drawn if r.top >= dice[0].bottom and r.bottom <= dice[0].bottom + 40
                    and line.split()[0] in ("Großvater", "Eva-Maria", "G.", "Mitte", "middle")), key=lambda r: r.x)
    assert len(under) >= 2
    assert all(b.left - a.right >= 6 for a, b in zip(under, under[1:], strict=False)), under


def test_a_pair_the_player_has_already_is_a_second_kind_of_those_values_never_refused(tmp_path):
    """"Anna: higher / lower value?" offered 1/0, which Anna had reported: SELECT only repeated "each kind counts
    once" (found by the monkey), and it was greyed since. But two kinds may be printed with the same values (pears
    5/3, plums 5/3): the pair stays offered, and asks whether it is another kind of those values (the player's own
    is not offered again), which is reported as its own kind."""
    s = session(tmp_path, {"players": ["Sara", "Ben"]})
    for action in ({"action": "roll", "dice": ["1", "2", "3", "4"]}, {"action": "take", "die": 1},
                   {"action": "take", "die": 2}, {"action": "leave"},
                   {"action": "report", "player": "Sara", "kind": "1/0", "values": [1, 0]},
                   {"action": "report", "player": "Sara", "kind": "1/1", "values": [1, 1]}):
        assert s.apply(action), s.error
    mode = EchtSpitzeMode(s)
    mode.sub = ("kind_hi", "Sara")
    mode._sync()
    assert all(item.enabled for item in mode.menu.items) and mode.menu.index == 0
    mode.sub = ("kind_lo", "Sara", 1)
    mode._sync()
    assert [item.enabled for item in mode.menu.items] == [True, True]
    select_item(mode, "1 / 0")
    assert mode._status() == "Sara: which kind with 1/0?"
    assert [item.label for item in mode.menu.items] == ["Another kind with 1/0"]
    press(mode, Button.SELECT)
    assert s.engine.state.players[0].report.kinds == ["1/0", "1/1", "1/0 (2)"], s.error
    mode.update(0.03, 0.0)
    assert mode.menu.items[1].label == "Sara: 1/0, 1/1, 1/0 no. 2"


@pytest.mark.parametrize("lang", ["de", "en"])
@pytest.mark.parametrize("players", [["Oma Hilde", "Opa Heinz", "Eva Maria Berg"],
                                     ["Oma Hilde", "Opa Heinz", "Eva Maria Berg", "Lea Bauer"]], ids=["three", "four"])
@pytest.mark.parametrize("phase", ["crossing", "final"])
def test_a_menu_line_shortens_a_name_only_where_the_whole_one_would_shrink_it(tmp_path, monkeypatch, lang, players,
                                                                              phase):
    """The menu lines naming a player were fitted as if the scroll arrows stood beside them: with three lines and no
    arrows "Oma Hilde: Schlusswertung" became "Oma H.: ..." though it fitted whole; with arrows a line a few pixels
    wider than the room beside them was kept whole and shrank to 26. Each line is at BODY, its name whole wherever
    the whole name fits."""
    s = session(tmp_path, {"players": players, "kinds": {"pears": [5, 3], "plums": [4, 2], "lemons": [9, 7]}})
    s.lang = lang
    steps = [{"action": "roll", "dice": CROSSED[:len(players) + 2]},
             *({"action": "take", "die": n} for n in range(1, len(players) + 1)), {"action": "leave"}]
    if phase == "final":
        steps += [{"action": "report", "player": players[1], "kinds": ["pears", "plums", "lemons"]},
                  {"action": "end_turn"}, {"action": "final", "player": players[1], "stars": 3}]
    for action in steps:
        assert s.apply(action), s.error
    mode = EchtSpitzeMode(s)
    mode.update(0.03, 0.0)
    key = "echt.view.final_player" if phase == "final" else "echt.view.report_player"
    checked = 0
    for k, item in enumerate(mode.menu.items):
        if item.value[0] not in ("final", "open"):
            continue
        mode.menu.index = k
        drawn = drawn_texts(mode, monkeypatch)
        row = mode.menu.item_rects()[k]
        whole = t(key, lang, player=item.value[1])
        fits = theme.font(theme.BODY).size(whole)[0] <= row.w - 30
        assert (item.label == whole) == fits, (item.label, whole, row.w)
        assert sized(drawn, item.label)[0] == theme.BODY, item.label
        checked += 1
    assert checked == len(players) - (phase == "final")


@pytest.mark.parametrize("lang", ["de", "en"])
@pytest.mark.parametrize("players", [FOUR, ["Großvater Johannes", "Mia", "Annika", "Großmutter Hildegard"]],
                         ids=["typical", "long"])
@pytest.mark.parametrize("scored", [0, 1, 2, 3])
def test_the_final_scorings_list_shows_every_line_at_body(tmp_path, monkeypatch, lang, players, scored):
    """The list of who is still to enter their final score stood in RIGHT's three rows: four players' lines scrolled
    beside the arrows at 24-26 ("Johannes: Schlusswertung"), and "Großmutter H.: Schlusswertung" shrank to 24. With
    no dice after the last turn it shows every line, as wide as they need: each at BODY, whole, inside its row,
    between the prompt and the hint bar and clear of the points entered so far."""
    s = session(tmp_path, {"players": players, "kinds": {"pears": [5, 3], "plums": [4, 2], "lemons": [9, 7]}})
    s.lang = lang
    for action in ({"action": "roll", "dice": CROSSED}, *({"action": "take", "die": n} for n in range(1, 5)),
                   {"action": "leave"}, {"action": "report", "player": "Mia" if "Mia" in players else players[1],
                                         "kinds": ["pears", "plums", "lemons"]}, {"action": "end_turn"},
                   *({"action": "final", "player": p, "stars": 4} for p in players[:scored])):
        assert s.apply(action), s.error
    mode = EchtSpitzeMode(s)
    drawn = drawn_texts(mode, monkeypatch)
    rows = mode.menu.item_rects()
    assert len(rows) == len(players) - scored and not mode.menu.scroll_rects()
    status = mode._status_line()[2]
    points = [sized(drawn, line)[1] for line, *_ in mode._total_layout()]
    assert len(points) >= scored
    for k, row in rows.items():
        inside = [(line, size) for line, size, r in drawn if row.contains(r)]
        assert [line for line, _ in inside] == [mode.menu.items[k].label], inside
        assert inside[0][1] == theme.BODY and not inside[0][0].endswith("…"), inside
        assert row.top > status.bottom and row.bottom <= 440 and row.right <= 780
        assert not any(row.colliderect(r) for r in points), (row, points)


def test_reroll_at_the_start_of_a_turn_rolls_as_roll(tmp_path):
    """REROLL at "Anna: roll all dice" did nothing, unsaid, where Haste Worte's, Noch X-Mal!'s and free play's first
    roll takes it; in Echt Spitze it means the middle's re-roll alone, so the start's roll is all it can mean."""
    s = session(tmp_path, {"players": ["Anna", "Ben"]})
    mode = EchtSpitzeMode(s)
    assert press(mode, Button.REROLL)  # no camera: virtual dice
    assert s.engine.phase is Phase.TAKE


def _crossing_app(tmp_path, lang: str, players: list[str]):
    """The App (no camera, a clock the test moves) with ``players`` crossing after CROSSED's roll, its banners over."""
    from companion.announcer import Announcer
    from companion.app import GAME_ENTRIES, App
    from companion.config import Config
    from companion.display import Display
    from companion.games_ui import register_all
    from companion.speech import Speech

    register_all()
    cfg = Config()
    cfg.language = lang
    cfg.players = players
    clock = {"now": 100.0}
    announcer = Announcer(lang, 80, speech=Speech(lambda text, lang: None, threaded=False))
    app = App(cfg, state_dir=tmp_path, display=Display((800, 480), fullscreen=False), use_camera=False,
              announcer=announcer, clock=lambda: clock["now"])
    app.new_game(GAME_ENTRIES["echt-spitze"], {"players": players, "kinds": {"pears": [5, 3], "plums": [4, 2]}})
    for action in ({"action": "roll", "dice": CROSSED[:len(players) + 2]},
                   *({"action": "take", "die": n} for n in range(1, len(players) + 1)), {"action": "leave"}):
        assert app.session.apply(action), app.session.error
    announcer.clear()
    app.frame(0.03, [])
    return app, clock


@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_not_time_to_roll_notice_stands_over_the_status_line_it_repeats_not_over_the_bar(tmp_path, monkeypatch,
                                                                                             out_dir, lang):
    """ROLL while crossing: "Not time to roll: Place your crosses! ..." stood at the top for its four seconds, over
    the bar's names (whose turn). It stands in the band of the status line it repeats, clear of the bar's words, the
    dice and the menu; other notices go where the App puts them."""
    from companion.views.echt_spitze_view import BAR

    app, clock = _crossing_app(tmp_path, lang, FOUR)
    try:
        mode = app.mode
        with recording_texts(monkeypatch) as drawn:
            mode.draw(pygame.Surface(SIZE))
        # the bar's words down to their baseline: the notes ("front · 0 holes") have no descenders, their rects'
        # empty bottom rows may be covered
        bar_words = [pygame.Rect(r.x, r.y, r.w, theme.font(size).get_ascent()) for _, size, r in drawn
                     if BAR.contains(r)]
        assert len(bar_words) >= 8 and getattr(mode, "notice_room", None) is None
        app.on_button(ButtonEvent(Button.ROLL))
        app.frame(0.03, [])
        pygame.image.save(app.display.canvas, str(out_dir / f"echt_not_time_to_roll_{lang}.png"))
        assert app._strip is not None and app._strip[1].startswith(t("core.roll_not_now", lang, what="")[:8])
        strip = app._strip[0]
        keep = [*bar_words, *mode.dice.die_rects(), *mode.menu.item_rects().values()]
        assert not any(strip.colliderect(r) for r in keep), strip
        clock["now"] += 4.5  # its seconds are over: the band is the status line's again
        app.frame(0.03, [])
        assert app._strip is None and getattr(mode, "notice_room", None) is None
    finally:
        app.close()


@pytest.mark.parametrize("lang", ["de", "en"])
@pytest.mark.parametrize("players", [FOUR, FOUR[:3]], ids=["four", "three"])
def test_a_reports_banner_while_crossing_leaves_the_reminders_and_the_dice_readable(tmp_path, monkeypatch, out_dir,
                                                                                    lang, players):
    """Four players crossing fill LEFT with the extra crosses and the bubble rule, and "Annika: pears complete –
    noted." stood over them for its seconds (each report's in turn). While everybody crosses, the bar and the status
    line are what nobody acts on: the banner stands over them, clear of the reminders, the dice with their marks and
    holders, and the menu."""
    from companion.views.echt_spitze_view import LEFT

    app, _ = _crossing_app(tmp_path, lang, players)
    try:
        mode = app.mode
        with recording_texts(monkeypatch) as drawn:
            mode.draw(pygame.Surface(SIZE))
        reminders = [r for _, _, r in drawn if LEFT.contains(r)]
        assert len(reminders) >= 4
        keep = [*reminders, *(r.inflate(0, 24) for r in mode.dice.die_rects()), *mode.menu.item_rects().values()]
        for said in ({"action": "report", "player": "Annika", "kinds": ["pears"]},
                     {"action": "report", "player": "Johannes", "kinds": ["pears", "plums"]}):
            app.announcer.clear()
            assert app.session.apply(said), app.session.error
            app.frame(0.03, [])
            assert app._banner is not None
            assert not any(app._banner.colliderect(r) for r in keep), app._banner
        pygame.image.save(app.display.canvas, str(out_dir / f"echt_crossing_report_banner_{lang}.png"))
    finally:
        app.close()


@pytest.mark.parametrize("lang", ["de", "en"])
@pytest.mark.parametrize("players, reporters, rows", [
    (FOUR, ["Annika"], 4), (FOUR, FOUR, 3),
    (["Großvater Johannes", "Großmutter Hildegard", "Maximilian-Alexander", "Anne-Marie Schulz"], 3, 3)],
    ids=["four-one-report", "four-reports", "long-names"])
def test_the_reports_menus_rows_are_one_size_and_as_many_as_fit(tmp_path, monkeypatch, lang, players, reporters,
                                                                rows):
    """A report too long for one line shrank its own row alone (20-26 px beside "End the turn" at 28), and three
    of five or six rows showed, the lower players' reports only by scrolling. Every row's words are one size, SMALL
    or larger; where all stand on one line as large as on two, four rows show."""
    kinds = ["pears"] if reporters == ["Annika"] else ["pears", "plums", "lemons"]
    who = reporters if isinstance(reporters, list) else players[:reporters]
    s = session(tmp_path, {"players": players, "kinds": {"pears": [5, 3], "plums": [4, 2], "lemons": [9, 7]}})
    s.lang = lang
    for action in ({"action": "roll", "dice": CROSSED}, *({"action": "take", "die": n} for n in range(1, 5)),
                   {"action": "leave"}, *({"action": "report", "player": p, "kinds": kinds} for p in who)):
        assert s.apply(action), s.error
    mode = EchtSpitzeMode(s)
    mode.update(0.03, 0.0)
    sizes: set[int] = set()
    for k in range(len(mode.menu.items)):  # every row, scrolled into view by the highlight
        mode.menu.index = k
        drawn = drawn_texts(mode, monkeypatch)
        rects = mode.menu.item_rects()
        assert len(rects) == rows
        sizes |= {size for _, size, r in drawn if rects[k].contains(r)}
    assert len(sizes) == 1 and min(sizes) >= theme.SMALL, sizes


@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_extra_cross_sentences_stand_above_the_dice_at_far_not_over_the_reminders(tmp_path, monkeypatch, out_dir,
                                                                                      lang):
    """The extra-cross sentences, three lines at LARGE, stood over the reminders (Carla and David's "+1 extra
    cross" hidden under Johannes's sentence) or over the dice's marks: at FAR, still read from every seat, they stand
    above the dice, over the bar and the status line alone (``banner.place`` takes a smaller size down to FAR where
    that spares more of what the screen keeps in view)."""
    from companion.views.echt_spitze_view import LEFT

    app, _ = _crossing_app(tmp_path, lang, FOUR)
    try:
        mode, session = app.mode, app.session
        with recording_texts(monkeypatch) as drawn:
            mode.draw(pygame.Surface(SIZE))
        reminders = [r for _, _, r in drawn if LEFT.contains(r)]
        keep = [*reminders, *(r.inflate(0, 24) for r in mode.dice.die_rects()), *mode.menu.item_rects().values()]
        said = [a for n, a in session._said if n == len(session.actions) and a.key.startswith("echt.extra.")]
        assert len(said) == 3  # Johannes's, Annika's, Carla and David's
        for a in said:
            app.announcer.clear()
            app.announcer.announce(a)
            app.frame(0.03, [])
            assert app._banner is not None
            assert not any(app._banner.colliderect(r) for r in keep), (a.key, app._banner)
        pygame.image.save(app.display.canvas, str(out_dir / f"echt_extra_cross_banner_{lang}.png"))
    finally:
        app.close()


LONG_FOUR = ["Maximilian", "Großmutter Helga", "Anne-Marie", "Christopher"]


@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_final_lists_names_take_its_width_unless_a_scores_banner_beside_it_shrinks_below_far(tmp_path, lang):
    """"Anne-M.: Schlusswertung" was shortened to RIGHT's 342 px in a list that grows to 418 (FINAL_LIST_W): the
    names take the list's width, but not where the column left of it would hold a player's score said as it is
    entered only below FAR (English: "Großmutter Helga: final scoring" would narrow it so)."""
    from companion.views import banner

    kinds = {"pears": [5, 3], "plums": [4, 2], "lemons": [9, 7]}
    s = session(tmp_path, {"players": LONG_FOUR, "kinds": kinds})
    s.lang = lang
    for action in ({"action": "roll", "dice": ["1", "2", "3", "4", "5", "?"]},
                   *({"action": "take", "die": n} for n in range(1, 5)), {"action": "leave"},
                   {"action": "report", "player": "Maximilian", "kinds": list(kinds)},
                   {"action": "end_turn"}, {"action": "final", "player": "Maximilian", "stars": 2}):
        assert s.apply(action), s.error
    mode = EchtSpitzeMode(s)
    mode.update(0.03, 0.0)
    labels = [item.label for item in mode.menu.items]
    assert labels[1:] == [t("echt.view.final_player", lang, player=name) for name in LONG_FOUR[2:]]
    for p in LONG_FOUR:
        said = t("echt.final.sum_level1", lang, player=p, kinds=18, stars=10, leftover=3, total=36)
        _, font, _ = banner.place((800, 480), said, mode.focus_rect, 1.0, (), mode.in_view)
        assert font.get_height() >= theme.font(theme.FAR, True).get_height() or lang == "de", (p, font.get_height())


@pytest.mark.parametrize("lang", ["de", "en"])
@pytest.mark.parametrize("players, dice", [
    (["Johannes", "Annika", "Großmutter Helga", "Großvater Johannes"], CROSSED),  # two long names, the middle's ?
    (["Großmutter Helga", "Großvater Johannes", "Anne-Marie", "Christopher"], ["1", "2", "3", "4", "5+X", "?+X"]),
    (["Großmutter Helga", "Großvater Johannes", "Anne-Marie", "Christopher"], ["1+X", "2", "3", "4", "5+X", "?"]),
    (["Großvater Johannes", "Mia", "Anne-Marie", "Christopher"], ["1+X", "2+X", "3", "4", "5+X", "?"]),
], ids=["two-long", "all-middle", "all-but-one", "own-and-both"])
def test_every_extra_cross_sentence_stands_at_far_above_the_dice(tmp_path, lang, players, dice):
    """"Großmutter Helga und Großvater Johannes: Die ? in der Mitte hat ein Extrakreuz – wer sie nutzt, ..." took
    four lines at FAR over the dice's top (or three at 28 above them); four names with it were longer still. Every
    sentence now stands in three lines at FAR or larger above the dice and their marks, clear of the menu corner:
    shorter words, and the players not named where all (or all but one) have only the middle's mark."""
    from companion.announcer import Announcement
    from companion.app import MENU_CORNER
    from companion.views import banner

    s, mode = score_phase(tmp_path, lang, players, dice)
    said = [a for n, a in s._said if n == len(s.actions) and a.key.startswith("echt.extra.")]
    assert said and all(isinstance(a, Announcement) for a in said)
    marks = [r.inflate(0, 24) for r in mode.dice.die_rects()]
    for a in said:
        rect, font, lines = banner.place((800, 480), a.text(lang), mode.focus_rect, 1.0, [MENU_CORNER], mode.in_view)
        assert font.get_height() >= theme.font(theme.FAR, True).get_height(), (a.text(lang), lines)
        assert not any(rect.colliderect(r) for r in marks), (a.text(lang), rect)


def test_a_rerolled_middle_die_that_showed_no_cross_may_be_answered_with_one(tmp_path):
    """A die with the cross shows it on some faces only: a middle die that showed none may show it after the
    re-roll. Asked about an unsure die then, the table could not answer "4 + extra cross" (only dice that had
    shown a mark were offered it); now the cross is offered while the dice taken leave one unaccounted for."""
    from companion.games.echt_spitze.state import EXTRA_FACES, PLAIN_FACES

    s = session(tmp_path, {"players": ["Anna", "Ben", "Cleo"], "kinds": {"pears": [5, 3]}, "extra_faces": "one"})
    for action in ({"action": "roll", "dice": ["1+X", "2+X", "3", "4", "5"]},
                   *({"action": "take", "die": n} for n in (1, 2, 3)), {"action": "reroll"}):
        assert s.apply(action), s.error
    s.camera_ready = True
    mode = EchtSpitzeMode(s)
    press(mode, Button.ROLL)
    mode.on_dice(reading([None, "?"]))
    assert mode.pending == [None, "?"]
    assert mode._face_options() == [*PLAIN_FACES, *EXTRA_FACES]
    mode.pending[1] = "?+X"  # the other die read with a mark: the three are all seen, no more offered
    assert mode._face_options() == list(PLAIN_FACES)


def test_a_new_game_from_the_menu_rolls_virtual_dice_with_the_cross_on_one_face():
    from companion.app import GAME_ENTRIES, setup_action
    from companion.config import Config
    from companion.games_ui import register_all

    register_all()
    action = setup_action(GAME_ENTRIES["echt-spitze"], Config(), {"_players": ["Anna", "Ben"]}, seed=1)
    assert action["extra_faces"] == "one"
    assert EchtSpitze.new(action).state.extra_faces == "one"


@pytest.mark.parametrize("lang, line", [("de", "Alle: +1 Extrakreuz"), ("en", "Everyone: +1 extra cross")])
def test_a_reminder_every_player_shares_says_everyone_at_far(tmp_path, monkeypatch, lang, line):
    """Only the middle's mark, four long names: "Großmutter H., Großvater J., Anne-M., Christopher: +1 Extrakreuz"
    stood on two lines at 20 under the dice. One line at FAR says it to everybody."""
    players = ["Großmutter Helga", "Großvater Johannes", "Anne-Marie", "Christopher"]
    s, mode = score_phase(tmp_path, lang, players, ["1", "2", "3", "4", "5+X", "?+X"])
    drawn = drawn_texts(mode, monkeypatch)
    size, _ = sized(drawn, line)
    assert size >= theme.FAR
    assert all(at >= theme.FAR for text, at, r in drawn if LEFT_AREA.contains(r)), drawn


@pytest.mark.parametrize("lang", ["de", "en"])
def test_two_grandmothers_are_told_apart_in_the_reminders_and_the_reports_menu(tmp_path, monkeypatch, lang):
    """"Großmutter Helga" and "Großmutter Hilde" were "Großmutter H., Großmutter H.: bis zu +2 Extrakreuze" in the
    reminders and "Großmutter H. meldet …" twice in the menu: each is shortened to a form only hers
    (``theme.table_short_name``: "G. Helga"), the others as before."""
    players = ["Großmutter Helga", "Großmutter Hilde", "Maximilian", "Anna"]
    s = GameSession.new(EchtSpitze, {"action": "setup", "players": players, "kinds": LEVEL2_KINDS},
                        Journal(tmp_path / "journal"), lang=lang, rng=random.Random(3))
    for action in ({"action": "roll", "dice": ["1+X", "3+X", "2", "5", "?+X", "4"]},
                   *({"action": "take", "die": n} for n in range(1, 5)), {"action": "leave"}):
        assert s.apply(action), s.error
    mode = EchtSpitzeMode(s)
    mode.update(0.03, 0.0)
    with recording_texts(monkeypatch) as drawn:
        mode.draw(pygame.Surface(SIZE))
    texts = " ".join(text for text, *_ in drawn)
    assert "Großmutter H." not in texts
    assert "G. Helga" in texts and "G. Hilde" in texts
    labels = [item.label for item in mode.menu.items]
    assert len(set(labels)) == len(labels), labels
    assert any(label.startswith("G. Helga") for label in labels)
    assert any(label.startswith("Maximilian") for label in labels)  # a name no other collides with: as before


@pytest.mark.parametrize("lang", ["de", "en"])
@pytest.mark.parametrize("players", [FOUR, ["Großmutter Helga", "Großvater Johannes", "Maximilian", "Anne-Marie"]],
                         ids=["four", "long-names"])
def test_the_status_line_under_an_extra_cross_banner_stands_within_it(tmp_path, monkeypatch, out_dir, lang, players):
    """The extra-cross banner stands over the bar and the status line, left of the ≡ corner: the status line's end
    ("…g?") stood out right of it. While extra crosses are crossed the line keeps to the banner's span."""
    app, _ = _crossing_app(tmp_path, lang, players)
    try:
        mode, session = app.mode, app.session
        status = mode._status_line()[2]
        said = [a for n, a in session._said if n == len(session.actions) and a.key.startswith("echt.extra.")]
        assert said
        for a in said:
            app.announcer.clear()
            app.announcer.announce(a)
            app.frame(0.03, [])
            banner = app._banner
            assert banner is not None
            if banner.bottom > status.top:  # over the line: the whole line
                assert banner.contains(status), (a.key, banner, status)
        pygame.image.save(app.display.canvas, str(out_dir / f"echt_status_under_banner_{lang}_{len(players[0])}.png"))
    finally:
        app.close()


def _tied_end_app(tmp_path, lang: str, players: list[str]):
    """The App at the end of a game (level 1) where the first two of ``players`` tie at the top, its banners over:
    the session's actions played as the look-over scripts play them."""
    import test_every_end as T

    from companion.announcer import Announcer
    from companion.app import GAME_ENTRIES, App
    from companion.config import Config
    from companion.display import Display
    from companion.games import engine_class
    from companion.games_ui import register_all
    from companion.session import GameSession
    from companion.speech import Speech

    rolls = [["1+X", "2", "3", "4", "5+X", "?"], ["1", "2", "3", "4", "5+X", "?+X"], ["1", "2+X", "3", "4", "5", "?+X"],
             ["1", "2", "3", "4", "5", "?+X"]]
    g = T.echt(players, 1)
    for k, dice in enumerate(rolls):
        g("roll", dice=dice[:g.engine.dice_count])
        for _ in range(6):
            if g.engine.current_taker is None:
                break
            g("take", die=g.engine.middle[0] + 1)
        g("leave")
        if k == len(rolls) - 1:
            for name in players[:2]:
                g("report", player=name, kinds=["kiwis", "pears", "plums"])
        g("end_turn")
    T.echt_final(g, **{n: {"stars": 1, "leftover": 2} for n in players})
    register_all()
    cfg = Config()
    cfg.language = lang
    announcer = Announcer(lang, 80, speech=Speech(lambda text, lang: None, threaded=False))
    app = App(cfg, state_dir=tmp_path, display=Display((800, 480), fullscreen=False), use_camera=False,
              announcer=announcer)
    session = GameSession.new(engine_class("echt-spitze"), g.setup, app.journal, **app._session_kw())
    app._enter(GAME_ENTRIES["echt-spitze"], session)
    for action in g.actions:
        assert session.apply(action), session.error
    assert session.engine.finished and len(session.engine.state.winners) == 2
    announcer.clear(keep_essential=False)
    app.frame(0.03, [])
    return app


@pytest.mark.parametrize("lang", ["de", "en"])
@pytest.mark.parametrize("count", [2, 4])
def test_the_end_screens_tie_banner_covers_no_score_and_is_not_drawn_twice(tmp_path, monkeypatch, out_dir, lang,
                                                                           count):
    """With four players the three-line tie banner stood over the fourth player's points and the tie line; with two
    the tie sentence stood twice, as a line under the ranking and as the banner. The ranking comes first (the
    banner over the bar and "Won: …", or under the ranking), and the line is left out while the banner says it."""
    players = ["Großmutter Helga", "Großvater Johannes", "Maximilian", "Anne-Marie"][:count]
    app = _tied_end_app(tmp_path, lang, players)
    try:
        mode = app.mode
        tie = [a.text(lang) for a in mode.game.ending]
        assert tie
        with recording_texts(monkeypatch) as drawn:
            mode.draw(pygame.Surface(SIZE))
        scores = [r for text, _, r in drawn if any(text.startswith(f"{p}:") for p in players)]
        assert len(scores) == count
        alone = mode._status_line()
        app.announcer.clear(keep_essential=False)  # the end's banners as they come: the tie's alone
        app.announcer.announce(mode.game.ending[0])
        app.frame(0.03, [])
        banner = app._banner
        assert banner is not None
        with recording_texts(monkeypatch) as drawn:
            mode.draw(pygame.Surface(SIZE))
        assert not any(banner.colliderect(r) for r in scores), (banner, scores)
        words = " ".join(text for text, _, _ in drawn)
        assert tie[0].split(":")[0] not in words  # said by the banner alone
        status = mode._status_line()[2]
        if banner.top < status.bottom and banner.bottom > status.top:  # over "Won: …": the whole line
            assert banner.contains(status), (banner, status)
        else:  # a banner under the ranking leaves the line as it was
            assert mode._status_line() == alone
        pygame.image.save(app.display.canvas, str(out_dir / f"echt_tie_banner_{lang}_{count}.png"))
    finally:
        app.close()


# -- the camera's audit: a foreign die, two dice taken at once, the unread die's mark ----------------------------
def unread_in(tmp_path, lang: str, dice: list[tuple[str | None, str | None]]):
    """Anna and Ben, the camera's reading of ``dice`` ((face, guess) each) in: session, screen, what is taught."""
    s = session(tmp_path, {"players": ["Anna", "Ben"], "kinds": {"lemons": [9, 7]}})
    s.lang, s.camera_ready = lang, True
    taught: list[tuple[int, str]] = []
    s.learn = lambda index, face: taught.append((index, face))
    mode = EchtSpitzeMode(s)
    press(mode, Button.ROLL)
    read = TrayReading(tuple(DieReading(f, 0.9 if f else 0.3, (0, 0, 10, 10), g) for f, g in dice))
    s.latest_reading = read
    mode.on_dice(read)
    return s, mode, taught


@pytest.mark.parametrize(("lang", "asked", "button"), [
    ("de", "ein Würfel dieses Spiels?", "Nein: herausnehmen, neu würfeln"),
    ("en", "one of this game's dice?", "No: take it out, roll again")])
def test_a_die_without_any_guess_may_be_no_die_of_this_game(tmp_path, monkeypatch, lang, asked, button):
    """The audit's ivory pip 4 among the set's dice: asked "which face?" with the set's faces alone, the table
    answered 4 and it was taught as this set's 4, read wrongly and sure from then on. A die the reader found no face
    near is asked whether it is a die of this game, and the answer that throws again says to take it out (and
    teaches nothing); a die with a guess is asked as before."""
    s, mode, taught = unread_in(tmp_path, lang, [("1", None), ("2", None), ("5", None), (None, None)])
    assert mode.asking == 3 and asked in mode._status()
    lines = " ".join(text for text, _, _ in drawn_texts(mode, monkeypatch))
    assert all(word in lines for word in button.split())
    assert mode.on_tap(mode._answer_rects()[-1].center)  # take it out, roll again
    assert mode.pending is None and taught == [] and s.engine.phase is Phase.ROLL
    s, mode, taught = unread_in(tmp_path / "guess", lang, [("1", None), (None, "3"), ("5", None), ("?", None)])
    assert asked not in mode._status()
    lines = " ".join(text for text, _, _ in drawn_texts(mode, monkeypatch))
    assert button.split()[0] not in lines and t("echt.view.roll_again", lang) in lines


@pytest.mark.parametrize("lang", ["de", "en"])
def test_a_die_without_any_guess_is_asked_in_noch_x_mals_words_on_a_button_larger_than_small(tmp_path, monkeypatch,
                                                                                              lang):
    """Echt Spitze asked "Würfel 4: kein Würfel dieses Spiels? Sonst: welche Seite?" with "Herausnehmen, neu
    würfeln", Noch X-Mal! and Haste Worte "Würfel 4: ein Würfel dieses Spiels?" with "Nein: herausnehmen, neu
    würfeln": one family, one question. The answer stands on its button's two lines larger than SMALL (in the
    220 px button the German stood at 22); the button takes the room beside the faces."""
    assert t("echt.view.unsure_prompt_foreign", lang, die=4) == t("nxm.ui.fix_die_title_foreign", lang, n=4)
    assert t("echt.view.unsure_prompt_foreign", lang, die=4) == t("haste.screen.choose_symbol_foreign", lang, die=4)
    assert t("echt.view.roll_again_foreign", lang) == t("nxm.ui.take_out", lang)
    _, mode, _ = unread_in(tmp_path, lang, [("1", None), ("2", None), ("5", None), (None, None)])
    assert mode._status() == t("nxm.ui.fix_die_title_foreign", lang, n=4)
    button = mode._answer_rects()[-1]
    faces = mode._answer_rects()[:-1]
    assert not any(button.colliderect(r.inflate(20, 20)) for r in faces)  # clear of a lit face's ring
    label = [(size, rect) for text, size, rect in drawn_texts(mode, monkeypatch) if button.contains(rect)]
    words = " ".join(text for text, _, rect in drawn_texts(mode, monkeypatch) if button.contains(rect))
    assert words == t("nxm.ui.take_out", lang) and len(label) <= 2
    assert all(size > theme.SMALL for size, _ in label)


@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_faces_under_the_foreign_question_say_they_are_its_yes(tmp_path, monkeypatch, out_dir, lang):
    """A "?+X" (or any face of this game) the reader found nothing near is asked "one of this game's dice?" as a
    foreign die is: the reader cannot tell them apart, and "which face?" alone had an ivory pip die answered with its
    pips and taught as this set's. The button said "No: take it out", but the faces under "Die 4 shows" did not say
    they were the "yes": the family's own die was asked a question it had no answer for. The faces' title says so;
    a die with a guess keeps its title."""

    yes = t("echt.view.title_unsure_foreign", lang, die=4)
    _, mode, _ = unread_in(tmp_path, lang, [("1", None), ("2", None), ("5", None), (None, None)])
    drawn = [(text, size) for text, size, rect in drawn_texts(mode, monkeypatch)
             if rect.bottom <= mode._answer_rects()[0].top]
    titles = [text for text, _ in drawn]
    assert yes in titles and t("echt.view.title_unsure", lang, die=4) not in titles
    assert dict(drawn)[yes] >= theme.SMALL  # the "yes" read as the "no" button is (at 18 in grey, nobody read it)
    no = t("echt.view.roll_again_foreign", lang)
    assert (yes.split(":")[0], no.split(":")[0]) == {"de": ("Ja", "Nein"), "en": ("Yes", "No")}[lang]
    _, mode, _ = unread_in(tmp_path / "guess", lang, [("1", None), (None, "3"), ("5", None), ("?", None)])
    titles = [text for text, _, _ in drawn_texts(mode, monkeypatch)]
    assert t("echt.view.title_unsure", lang, die=2) in titles and not any(text.startswith(yes[:3]) for text in titles)
    for size in ((800, 480), (1280, 720)):
        app = in_game(tmp_path / f"app{size[0]}", lang, size, "echt-spitze",
                      {"players": ["Anna", "Ben"], "kinds": {"lemons": [9, 7]}})
        try:
            session = app.session
            session.camera_ready = True
            read = TrayReading(tuple(DieReading(f, 0.9 if f else 0.3, (0, 0, 10, 10), None)
                                     for f in ["1", "2", "5", None]))
            session.latest_reading = read
            app.game_mode.on_dice(read)
            app.frame(0.03, [])
            assert app.game_mode._unguessed()
            pygame.image.save(app.display.window, str(out_dir / f"echt_foreign_yes_{lang}_{size[0]}.png"))
        finally:
            app.close()


def test_a_die_without_any_guess_is_asked_with_taking_it_out_lit(tmp_path):
    """The re-audit: the foreign die's question opened on face "1", and one hasty SELECT taught it as this set's 1
    and the game counted it. It opens on taking it out, as Noch X-Mal!'s and Haste Worte's do: SELECT throws the
    roll again and teaches nothing. A die with a guess still opens on its guess, one without a guess among two
    unsure dice on taking it out as well, and NEXT from there goes round to the faces."""
    s, mode, taught = unread_in(tmp_path, "de", [("1", None), ("2", None), ("5", None), (None, None)])
    assert mode.choice == len(mode._answer_rects()) - 1
    press(mode, Button.SELECT)  # a hasty SELECT
    assert mode.pending is None and taught == [] and s.engine.phase is Phase.ROLL
    s, mode, taught = unread_in(tmp_path / "two", "de", [("1", None), (None, "3"), ("5", None), (None, None)])
    assert mode.asking == 1 and mode._face_options()[mode.choice] == "3"  # the guess, as before
    press(mode, Button.SELECT)
    assert mode.asking == 3 and mode.choice == len(mode._answer_rects()) - 1
    press(mode, Button.NEXT)
    assert mode.choice == 0  # round to the first face
    press(mode, Button.SELECT)
    assert taught == [(1, "3"), (3, mode._face_options()[0])] and mode.pending is None


@pytest.mark.parametrize(("lang", "said"), [("de", "2 Würfel fehlen"), ("en", "2 dice are gone")])
def test_two_dice_taken_at_once_are_said_to_be_taken_with_select(tmp_path, lang, said):
    """The camera saw two dice leave at once: which is whose it cannot tell, and the screen said nothing and kept
    "Anna: take one die". The table is told to take them with SELECT (a grey notice); nothing is taken."""
    s, mode, _, _ = camera_roll(tmp_path, ["1", "2", "3", "4"])
    s.lang = lang
    assert s.engine.phase is Phase.TAKE
    words = mode.on_dice(reading(["3", "4"]))
    assert isinstance(words, str) and words.startswith(said) and t("core.btn_select", lang) in words
    assert s.engine.phase is Phase.TAKE and s.engine.current_taker == "Anna"
    assert mode.on_dice(reading(["2", "3", "4"])) is None  # one gone: Anna took the 1, as before
    assert s.engine.holder(0) == "Anna"


def test_the_unread_die_is_not_drawn_as_the_question_mark_face(tmp_path, monkeypatch):
    """"?" is a face of this game (any number), drawn white; the unread die beside it was a magenta "?" and a child
    took it for that face. The unread die is magenta with a magnifying glass, no "?" on it."""
    s, mode, _ = unread_in(tmp_path, "en", [("1", None), (None, None), ("5", None), ("?", None)])
    surface = pygame.Surface(SIZE)
    with recording_texts(monkeypatch) as drawn:
        mode.draw(surface)
    unread, free = mode.dice.die_rects()[1], mode.dice.die_rects()[3]
    marks = [text for text, _, rect in drawn if unread.colliderect(rect)]
    assert marks == []
    assert any(text == "?" and free.contains(rect) for text, _, rect in drawn)  # the face "?" as before
    corner = (unread.x + unread.w // 8, unread.centery)  # the die's body, outside the glass: the loud colour
    assert tuple(surface.get_at(corner))[:3] == theme.UNKNOWN
    glass = [tuple(surface.get_at((x, y)))[:3] for x in range(unread.x, unread.right) for y in range(unread.y,
                                                                                                    unread.bottom)]
    assert glass.count(theme.TEXT) > unread.w  # the magnifying glass is drawn in the text's colour


def test_the_end_screen_lays_out_its_totals_and_places_its_banner_once_a_frame(tmp_path, monkeypatch):
    """The end screen laid out the ranking four times a frame (the banner's spare, the status line twice, the
    drawing) and placed the banner twice to know whether it stands over the status line: now once, again only when
    what they are laid out from changes. What is drawn stays the same."""
    import inspect

    from companion.announce import Announcement
    from companion.announcer import Announcer
    from companion.app import GAME_ENTRIES, App
    from companion.config import Config
    from companion.display import Display
    from companion.games_ui import register_all
    from companion.speech import Speech
    from companion.views import banner
    from companion.views.echt_spitze_view import EchtSpitzeMode as Mode

    register_all()
    cfg = Config()
    cfg.language = "en"
    announcer = Announcer("en", 80, speech=Speech(lambda text, lang: None, threaded=False))
    app = App(cfg, state_dir=tmp_path, display=Display((800, 480), fullscreen=False), use_camera=False,
              announcer=announcer)
    app.new_game(GAME_ENTRIES["echt-spitze"], {"players": ["Sara", "Ben", "Mia"],
                                              "kinds": {"pears": [5, 3], "plums": [4, 2], "lemons": [9, 7]}})
    s = app.session
    for action in (*sara_scores_three(3),
                   *({"action": "final", "player": p, "stars": 10} for p in ["Sara", "Ben", "Mia"])):
        assert s.apply(action), s.error
    assert s.engine.finished
    announcer.clear()
    announcer.announce(Announcement("core.error_language", {"value": "x" * 40, "allowed": ["a", "b"]}))
    announcer.update(1.0)
    laid, placed = [], []
    real_lines, real_place = Mode._total_lines, banner.place
    monkeypatch.setattr(Mode, "_total_lines", lambda self, *a, **k: laid.append(a) or real_lines(self, *a, **k))
    monkeypatch.setattr(banner, "place", lambda *a, **k: placed.append(inspect.stack()[1].function)
                        or real_place(*a, **k))
    app.draw(app.display.canvas)
    first = pygame.surfarray.array3d(app.display.canvas)
    assert len(laid) == 3  # each player's points once
    assert placed.count("_crossing_reminded") <= 1
    laid.clear()
    placed.clear()
    app.draw(app.display.canvas)
    assert laid == [] and "_crossing_reminded" not in placed  # nothing changed: nothing laid out again
    assert (pygame.surfarray.array3d(app.display.canvas) == first).all()
    mode = app.mode
    assert mode._total_layout() == mode._laid_out_totals()


@pytest.mark.parametrize("lang", ["de", "en"])
def test_who_was_first_and_the_number_to_cross_stay_readable_on_the_playing_screen(tmp_path, monkeypatch, lang):
    """Who was first with a kind, and the number everybody else crosses out, stood only in the banner's 5-7 s: a
    player who looked away read it nowhere. A line under the dice keeps the latest firsts, at FAR, through the next
    turn; a banner keeps clear of it where it can (``in_view``, last)."""
    s = session(tmp_path, {"players": FOUR[:3], "kinds": {"pears": [5, 3], "plums": [4, 2], "lemons": [9, 7]}})
    s.lang = lang
    for action in ({"action": "roll", "dice": ["1", "2", "3", "4", "5"]},
                   *({"action": "take", "die": n} for n in range(1, 4)), {"action": "leave"},
                   {"action": "report", "player": FOUR[1], "kinds": ["pears", "lemons"]},
                   {"action": "report", "player": FOUR[0], "kinds": ["plums"]}, {"action": "end_turn"}):
        assert s.apply(action), s.error
    mode = EchtSpitzeMode(s)
    for step in (None, {"action": "roll", "dice": ["1", "2", "3", "4", "5"]}, {"action": "take", "die": 1}):
        if step is not None:
            assert s.apply(step), s.error
        drawn = drawn_texts(mode, monkeypatch)
        lines = [(text, size, rect) for text, size, rect in drawn if rect.colliderect(LEFT)]
        said = " ".join(text for text, _, _ in lines).replace("\u00a0", " ")
        for kind, number in (("pears", 5), ("lemons", 9), ("plums", 4)):  # each kind with the number to cross
            assert t("echt.view.first_kind", lang, name=kind, high=number).replace("\u00a0", " ") in said, said
        assert said.index("lemons") < said.index(FOUR[1]) < said.index("plums") < said.index(FOUR[0]), said
        assert all(size >= theme.FAR for _, size, _ in lines), lines
        firsts = [rect for _, _, rect in lines]
        assert all(pygame.Rect(0, 0, 800, 440).contains(rect) for rect in firsts)
        others = [rect for _, _, rect in drawn if rect not in firsts]
        assert not any(rect.colliderect(other) for rect in firsts for other in others), drawn
        assert any(kept.contains(rect) for rect in firsts for kept in mode.in_view)


#: four long names, two of them of two words: the refusal names one ("Großvater Jürgen")
REFUSAL_NAMES = ["Anna-Sophie", "Großvater Jürgen", "Maximilian", "Großmutter Hildegard"]


def refused_take(tmp_path, lang: str, size: tuple[int, int] = SIZE):
    """The App in a game of four long names, the firsts' line standing under the dice and a take just refused
    (the die Großvater Jürgen took, taken again), its banners still to come; and its clock to move on. The caller
    closes the App."""
    from companion.announcer import Announcer
    from companion.app import GAME_ENTRIES, App
    from companion.config import Config
    from companion.display import Display
    from companion.games_ui import register_all
    from companion.speech import Speech

    register_all()
    names = REFUSAL_NAMES
    cfg = Config()
    cfg.language = lang
    cfg.players = names
    clock = {"now": 100.0}
    announcer = Announcer(lang, 80, speech=Speech(lambda text, lang: None, threaded=False))
    app = App(cfg, state_dir=tmp_path, display=Display(size, fullscreen=False), use_camera=False,
              announcer=announcer, clock=lambda: clock["now"])
    app.new_game(GAME_ENTRIES["echt-spitze"],
                 {"players": names, "kinds": {"pears": [5, 3], "plums": [4, 2], "lemons": [9, 7]}})
    s = app.session
    roll = {"action": "roll", "dice": ["1", "2", "3", "4", "5", "?"]}
    for action in (roll, *({"action": "take", "die": n} for n in range(1, 5)), {"action": "leave"},
                   {"action": "report", "player": names[1], "kinds": ["pears", "lemons"]},
                   {"action": "report", "player": names[0], "kinds": ["plums"]}, {"action": "end_turn"},
                   roll, {"action": "take", "die": 1}):
        assert s.apply(action), s.error
    assert not s.apply({"action": "take", "die": 1})  # taken already: refused
    return app, clock


@pytest.mark.parametrize("lang", ["de", "en"])
def test_a_refused_take_stands_clear_of_the_firsts_line(tmp_path, monkeypatch, out_dir, lang):
    """A refused take stands until the next move that counts, and the App's red strip above the hint bar stood over
    the firsts' line's last row ("plums 4 (Anna-Sophie)"), the number everybody crosses out hidden: the screen
    offers rooms clear of it (``notice_room``), and the strip stands in one, clear of the dice too."""
    app, clock = refused_take(tmp_path, lang)
    try:
        app.frame(0.03, [])
        # under the firsts' banner (at the bottom, over the line's place) the strip stands above it, not on it
        assert app._banner is not None and app._strip is not None and not app._strip[0].colliderect(app._banner)
        for _ in range(12):  # the banners' seconds over; the refusal stands until the next move that counts
            clock["now"] += 10
            app.frame(0.03, [])
        pygame.image.save(app.display.canvas, str(out_dir / f"echt_refusal_under_firsts_{lang}.png"))
        mode = app.mode
        with recording_texts(monkeypatch) as drawn:
            mode.draw(pygame.Surface(SIZE))
        firsts = [r for line, _, r in drawn if any(line == part for part, _, _ in mode._firsts_lines())]
        assert len(firsts) == len(mode._firsts_lines()) >= 2
        assert app._strip is not None and app._strip[2] == "error"
        strip = app._strip[0]
        assert not any(strip.colliderect(r) for r in [*firsts, *mode.dice.die_rects()]), (strip, firsts)
    finally:
        app.close()


@pytest.mark.parametrize("lang", ["de", "en"])
def test_a_refusals_lines_break_between_names_not_inside_one(tmp_path, monkeypatch, out_dir, lang):
    """A refusal at FAR on two lines above the firsts' banner stood as "Würfel 1 (1) hat schon Großvater" over
    "Jürgen: nimm einen anderen.": the far end of the table read two people. The App keeps the players' names whole
    on a notice's lines."""
    app, _ = refused_take(tmp_path, lang)
    try:
        with recording_texts(monkeypatch) as drawn:
            app.frame(0.03, [])
        pygame.image.save(app.display.canvas, str(out_dir / f"echt_refusal_names_whole_{lang}.png"))
        assert app._strip is not None and app._strip[2] == "error"
        strip = app._strip[0]
        lines = [line for line, _, rect in drawn if strip.contains(rect)]
        assert len(lines) >= 2 and "Großvater Jürgen" in app.session.error, lines
        assert any("Großvater Jürgen" in line for line in lines), lines
        assert not any(line.endswith("Großvater") for line in lines), lines
    finally:
        app.close()


@pytest.mark.parametrize("lang", ["de", "en"])
def test_a_notice_passes_over_a_room_a_banner_lower_on_the_screen_stands_in(tmp_path, monkeypatch, lang):
    """The App took a screen's room for a notice where the strip stood clear of a banner at the top only: in a room
    a banner lower down stands in, the strip stood over the banner's words (this screen offered no rooms while a
    banner stood, to work round it). A room is passed over where the strip laid in it would cover the banner."""
    app, _ = refused_take(tmp_path, lang)
    try:
        app.frame(0.03, [])
        banner = app._banner
        assert banner is not None and banner.top > 240  # the firsts' banner at the foot of the screen
        room = pygame.Rect(0, banner.top - 20, 800, 440 - (banner.top - 20))  # the band the banner stands in
        monkeypatch.setattr(EchtSpitzeMode, "notice_room", property(lambda self: [room]))
        app.frame(0.03, [])
        assert app._banner == banner and app._strip is not None and app._strip[2] == "error"
        assert not app._strip[0].colliderect(banner), (app._strip[0], banner)
    finally:
        app.close()


@pytest.mark.parametrize("lang", ["de", "en"])
def test_a_long_refusal_beside_the_menu_stands_clear_of_the_firsts_line_and_the_menus_words(tmp_path, monkeypatch,
                                                                                             out_dir, lang):
    """With "Leave them" and "Re-roll" beside the firsts' line no room of the screen's was free, and a long refusal
    ("Not yet: Großvater Jürgen first decides ...") stood at FAR above the hint bar over the line's last row and
    half of "Re-roll". It stands under the line and the menu's words now (over the foot of the last row's frame),
    smaller but read: every line of the firsts and of the menu stays whole."""
    app, clock = refused_take(tmp_path, lang)
    try:
        s = app.session
        for n in range(2, 5):
            assert s.apply({"action": "take", "die": n}), s.error
        assert not s.apply({"action": "take", "die": 5})  # the middle is decided first: refused
        for _ in range(14):  # the banners' seconds over; the refusal stands
            clock["now"] += 10
            app.frame(0.03, [])
        assert app._banner is None and app._strip is not None and app._strip[2] == "error"
        pygame.image.save(app.display.canvas, str(out_dir / f"echt_refusal_beside_menu_{lang}.png"))
        mode, strip = app.mode, app._strip[0]
        assert mode.menu is not None and len(mode._firsts_lines()) >= 2
        with recording_texts(monkeypatch) as drawn:
            mode.draw(pygame.Surface(SIZE))
        firsts = [r for line, _, r in drawn if any(line == part for part, _, _ in mode._firsts_lines())]
        labels = [item.label for item in mode.menu.items]
        words = [r for line, _, r in drawn if line in labels]
        assert len(firsts) == len(mode._firsts_lines()) and len(words) == len(labels) >= 2
        assert not any(strip.colliderect(r) for r in [*firsts, *words]), (strip, firsts, words)
        with recording_texts(monkeypatch) as drawn:
            app.frame(0.03, [])
        said = [(line, size) for line, size, r in drawn if strip.contains(r)]
        assert said and all(size >= theme.SMALL for _, size in said), said
    finally:
        app.close()



@pytest.mark.parametrize("players", [
    pytest.param(["Nguyễn Thị Mỹ Ảnh", "Trần Đức", "Phạm Ngọc", "Anna"], id="vietnamese", marks=pytest.mark.skipif(
        not theme.fallback_path(), reason="DejaVu Sans Bold is not installed (fonts-dejavu-core): these names are "
        "refused at entry")),
    pytest.param(["Großvater Jürgen", "Großmutter Hildegard", "Maximilian", "Anna"], id="german")])
@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_report_menu_breaks_no_line_inside_a_name(monkeypatch, lang, players):
    """"Nguyễn T. M. / Ả. meldet …" on two lines read as two people (the crossing's menu at 24 px): a line of
    the menu on two lines, or shrunk onto two (``row_lines``), keeps a name and its short form on one line."""
    from companion.views.echt_spitze_view import MENU_ROW, ReportsMenu, row_lines
    from companion.views.widgets import MenuItem

    names = theme.kept_whole(players)
    labels = [t("echt.view.report_player", lang, player=form) for form in names if " " in form]
    assert labels
    for label in labels:
        least = max(theme.font(theme.SMALLEST).size(form)[0] for form in names if form in label)  # never cut
        for width in range(least + 2, theme.font(theme.BODY).size(label)[0], 12):  # two lines at BODY, or shrunk
            rect = pygame.Rect(0, 0, width + 30, 3 * MENU_ROW)
            menu = ReportsMenu(rect, [MenuItem(label, "x")], lambda value: None, None, row_h=MENU_ROW,
                               size=theme.BODY, names=tuple(players))  # the names alone: the helpers expand them
            with recording_texts(monkeypatch) as drawn:
                menu.draw(pygame.Surface(theme.DESIGN_SIZE))
            for lines in ([line for line, _, _ in drawn], row_lines(label, width, MENU_ROW, tuple(players))[0]):
                assert len(lines) <= 2
                for form in (form for form in names if " " in form and form in label):
                    assert any(form in line for line in lines), (width, lines)
