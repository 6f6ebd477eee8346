"""Full-screen menus: the small line above a menu's title (a setup question's "1/3", "The game is saved")."""

from __future__ import annotations

import numpy as np
import pygame

from companion.views import theme
from companion.views.menus import MenuMode
from companion.views.widgets import Menu, MenuItem
from hardware.events import Button, ButtonEvent


def test_the_subtitle_stands_above_the_title_not_on_it(out_dir):
    pygame.init()
    mode = MenuMode("How many are playing?", [MenuItem("4: Anna, Ben, Carla, David", 4)], lambda v: None,
                    lang="en", subtitle="1/3")
    with_line, without = pygame.Surface((800, 480)), pygame.Surface((800, 480))
    mode.draw(with_line)
    pygame.image.save(with_line, str(out_dir / "menu_subtitle.png"))
    mode.subtitle = ""
    mode.draw(without)
    line = np.any(pygame.surfarray.array3d(with_line) != pygame.surfarray.array3d(without), axis=2)
    title = np.all(pygame.surfarray.array3d(without) == np.array(theme.ACCENT, np.uint8), axis=2)
    line_rows, title_rows = np.nonzero(line.any(axis=0))[0], np.nonzero(title.any(axis=0))[0]
    assert line_rows.size and title_rows.size
    assert line_rows.max() < title_rows.min()


def test_a_word_with_an_umlaut_stands_on_the_same_line_as_its_neighbours():
    """A row of hints ("WEITER bewegen  WÄHLEN auswählen  ZURÜCK zurück") drawn at one y: the renderer puts a word
    whose capital carries dots 2-3 pixels lower, unless the text is lifted back."""
    pygame.init()

    def baseline(word: str) -> int:
        surface = pygame.Surface((200, 60))
        theme.text(surface, word, (10, 20), theme.SMALL, (255, 255, 255), bold=True)
        return int(np.nonzero(pygame.surfarray.array3d(surface)[..., 0].max(axis=0) > 128)[0].max())

    assert baseline("ZURÜCK") == baseline("ZURUCK") == baseline("WEITER") == baseline("WÄHLEN")


def test_items_below_the_screen_are_reached_by_touch_and_shown_by_arrows(out_dir):
    """The main menu has more items than the screen shows. Before, a touch screen could not reach them at all (a
    tap only hits items drawn), and the buttons gave no sign that there was more below."""
    pygame.init()
    chosen: list[int] = []
    mode = MenuMode("Table companion", [MenuItem(f"Item {i}", i) for i in range(10)], chosen.append, lang="en")
    menu = mode.menu
    shown = menu.visible_range()
    assert shown == range(0, len(shown)) and len(shown) < 10
    assert set(menu.scroll_rects()) == {+1}  # nothing above yet
    surface = pygame.Surface((800, 480))
    mode.draw(surface)
    down = menu.scroll_rects()[+1]
    assert tuple(surface.get_at(down.center))[:3] == theme.ACCENT  # the arrow is drawn there
    assert all(not r.colliderect(down) for r in menu.item_rects().values())
    taps = 0
    while +1 in menu.scroll_rects():
        before = menu.visible_range()
        assert mode.on_tap(menu.scroll_rects()[+1].center)
        taps += 1
        assert before.stop - 1 in menu.visible_range()  # a page on, the last row seen kept in view
    assert taps == -(-(10 - len(shown)) // (len(shown) - 1))  # a page a tap, not a row: 2 taps for 10 items in 4
    assert menu.visible_range().stop == 10 and set(menu.scroll_rects()) == {-1}
    mode.on_tap(menu.item_rects()[9].center)
    assert chosen == [9]  # the last item, reached by touch alone
    mode.draw(surface)
    pygame.image.save(surface, str(out_dir / "menu_scrolled.png"))
    taps = 0
    while -1 in menu.scroll_rects():
        before = menu.visible_range()
        assert mode.on_tap(menu.scroll_rects()[-1].center)
        taps += 1
        assert before.start in menu.visible_range()
    assert menu.visible_range().start == 0 and taps <= 3
    few = MenuMode("Pause", [MenuItem("Continue", 1)], chosen.append, lang="en")
    assert few.menu.scroll_rects() == {} and few.menu.item_rects()[0].w == few.menu.rect.w


def test_prev_moves_the_highlight_back_past_disabled_items_and_wraps():
    """A laptop's arrow up (PREV) in a long list goes to the item above, as NEXT goes below."""
    from companion.views.widgets import Menu
    from hardware.events import Button, ButtonEvent

    items = [MenuItem("a", "a"), MenuItem("b", "b", enabled=False), MenuItem("c", "c"), MenuItem("d", "d")]
    menu = Menu(pygame.Rect(0, 0, 400, 400), items, lambda v: None)
    moves = {}
    for button in (Button.PREV, Button.PREV, Button.PREV, Button.NEXT):
        menu.on_button(ButtonEvent(button))
        moves.setdefault(button, []).append(menu.items[menu.index].value)
    assert moves == {Button.PREV: ["d", "c", "a"], Button.NEXT: ["c"]}


def test_a_later_question_with_one_answer_is_answered_without_asking():
    """Solo: "Who starts?" offered Anna alone, one more press for nothing. UNDO steps back over it."""
    from companion.views.menus import SetupStep, SetupWizard
    from hardware.events import Button, ButtonEvent

    done, cancelled = [], []
    steps = [SetupStep("players", "How many?", [("2: Anna, Ben", ("Anna", "Ben")), ("1: Anna", ("Anna",))]),
             SetupStep("start", "Who starts?", lambda answers: [(n, i) for i, n in enumerate(answers["players"])]),
             SetupStep("level", "Which level?", [("Level 1", 1), ("Level 2", 2)])]
    wizard = SetupWizard(steps, done.append, lambda: cancelled.append(True), "en")
    wizard.on_button(ButtonEvent(Button.NEXT))
    wizard.on_button(ButtonEvent(Button.SELECT))  # 1: Anna
    assert wizard.mode.menu.title == "Which level?" and wizard.answers["start"] == 0
    wizard.on_button(ButtonEvent(Button.UNDO))
    assert wizard.mode.menu.title == "How many?"
    wizard.on_button(ButtonEvent(Button.SELECT))  # 2: Anna, Ben: now there is a choice
    assert wizard.mode.menu.title == "Who starts?"
    wizard.on_button(ButtonEvent(Button.NEXT))
    wizard.on_button(ButtonEvent(Button.SELECT))
    wizard.on_button(ButtonEvent(Button.SELECT))
    assert done == [{"players": ("Anna", "Ben"), "start": 1, "level": 1}] and not cancelled
    solo = SetupWizard(steps[:2], done.append, lambda: cancelled.append(True), "en")
    assert solo.mode.menu.title == "How many?"  # the first question is asked, even were it alone
    solo.on_button(ButtonEvent(Button.NEXT))
    solo.on_button(ButtonEvent(Button.SELECT))
    assert done[-1] == {"players": ("Anna",), "start": 0}


def test_a_question_with_no_answers_is_not_asked_and_sets_nothing():
    """Fritzo's solo modes: "Who starts?" has no answer there (no turns); it was asked and its answer ignored.
    A question's title may depend on the answers before it."""
    from companion.views.menus import SetupStep, SetupWizard
    from hardware.events import Button, ButtonEvent

    done: list[dict] = []
    steps = [SetupStep("mode", "Which mode?", [("Solo", "solo"), ("Team", "team")]),
             SetupStep("start", lambda answers: f"Who starts the {answers['mode']}?",
                       lambda answers: [] if answers["mode"] == "solo" else [("Anna", 0), ("Ben", 1)]),
             SetupStep("level", "Which level?", [("Level 1", 1), ("Level 2", 2)])]
    wizard = SetupWizard(steps, done.append, lambda: None, "en")
    wizard.on_button(ButtonEvent(Button.SELECT))  # solo
    assert wizard.mode.menu.title == "Which level?"
    wizard.on_button(ButtonEvent(Button.UNDO))  # back over the question not asked
    assert wizard.mode.menu.title == "Which mode?"
    wizard.on_button(ButtonEvent(Button.NEXT))
    wizard.on_button(ButtonEvent(Button.SELECT))  # team
    assert wizard.mode.menu.title == "Who starts the team?"
    wizard.on_button(ButtonEvent(Button.NEXT))
    wizard.on_button(ButtonEvent(Button.SELECT))  # Ben
    wizard.on_button(ButtonEvent(Button.UNDO))
    wizard.on_button(ButtonEvent(Button.UNDO))  # back to the mode: solo after all
    wizard.on_button(ButtonEvent(Button.SELECT))
    wizard.on_button(ButtonEvent(Button.SELECT))
    assert done == [{"mode": "solo", "level": 1}]  # not Ben's start, answered for the team before


def test_the_question_count_leaves_out_the_questions_the_answers_skip():
    """Fritzo's Beginner showed "2/5" and then started: who starts, the playing time and the colours do not arise
    there. The count follows the answer highlighted (Fritzo's first question said "1/5" on a mode that starts at
    once); a question that needs an answer still to come counts until it is known."""
    from companion.views.menus import SetupStep, SetupWizard
    from hardware.events import Button, ButtonEvent

    steps = [SetupStep("mode", "Which mode?", [("Solo", "solo"), ("Team", "team")]),
             SetupStep("start", "Who starts?",
                       lambda answers: [] if answers["mode"] == "solo" else [("Anna", 0), ("Ben", 1)]),
             SetupStep("level", "Which level?", [("Level 1", 1), ("Level 2", 2)]),
             SetupStep("time", "How long?", lambda answers: [("5 min", 5)] if answers["mode"] == "solo" else [])]
    wizard = SetupWizard(steps, lambda answers: None, lambda: None, "en")
    assert wizard.mode.subtitle == "1/2"  # solo highlighted: the level, the time answered alone
    wizard.on_button(ButtonEvent(Button.NEXT))
    assert wizard.mode.subtitle == "1/3"  # team highlighted: who starts and the level, no time
    wizard.on_button(ButtonEvent(Button.NEXT))
    wizard.on_button(ButtonEvent(Button.SELECT))  # solo
    assert (wizard.mode.menu.title, wizard.mode.subtitle) == ("Which level?", "2/2")
    wizard.on_button(ButtonEvent(Button.UNDO))
    wizard.on_button(ButtonEvent(Button.NEXT))
    wizard.on_button(ButtonEvent(Button.SELECT))  # team
    assert (wizard.mode.menu.title, wizard.mode.subtitle) == ("Who starts?", "2/3")


def test_a_long_list_says_that_next_held_runs_through_it(monkeypatch):
    """NEXT held repeats (hardware.buttons); a table with 41 numbers before it should know."""
    pygame.init()
    drawn: list[str] = []
    text = theme.text
    monkeypatch.setattr(theme, "text", lambda surface, s, *a, **k: (drawn.append(s), text(surface, s, *a, **k))[1])
    short = MenuMode("Who?", [MenuItem(str(n), n) for n in range(3)], lambda v: None, lang="en")
    short.draw(pygame.Surface((800, 480)))
    assert "move" in drawn and "move (hold: fast)" not in drawn
    drawn.clear()
    long = MenuMode("How many symbols?", [MenuItem(str(n), n) for n in range(41)], lambda v: None, lang="de")
    long.draw(pygame.Surface((800, 480)))
    assert "bewegen (halten: schnell)" in drawn


def test_a_menu_under_a_subtitle_shows_five_rows_down_to_the_hint_bar():
    """The pause menu (five entries) and the main menu stood four rows high over an empty band: the fifth entry,
    the volume, was a NEXT press and a scroll away on the Pi's 800x480 screen."""
    pygame.init()
    items = [MenuItem(f"Entry {k}", k) for k in range(5)]
    mode = MenuMode("Pause", items, lambda v: None, lambda: None, lang="en", subtitle="Every step is saved.")
    rects = mode.menu.item_rects()
    assert sorted(rects) == list(range(5))
    surface = pygame.Surface((800, 480))
    mode.draw(surface)
    hints = np.nonzero(np.any(pygame.surfarray.array3d(surface)[:, 440:] != np.array(theme.BG, np.uint8),
                              axis=(0, 2)))[0]
    assert hints.size and rects[4].bottom < 440 + hints.min()  # the last row ends above the hint bar's words


def test_a_finger_goes_back_where_the_hint_bar_says_undo(out_dir):
    """The setup questions, the Teach menu and the pause menu could be left by the UNDO button alone: a table with
    the touch screen only, having tapped a game by mistake, had to play it (and it pushed the saved game aside)."""
    from companion.views.menus import SetupStep, SetupWizard

    cancelled: list[bool] = []
    steps = [SetupStep("mode", "Which mode?", [("Solo", "solo"), ("Team", "team")]),
             SetupStep("level", "Which level?", [("Level 1", 1), ("Level 2", 2)])]
    wizard = SetupWizard(steps, lambda answers: None, lambda: cancelled.append(True), "en")
    surface = pygame.Surface((800, 480))
    wizard.mode.draw(surface)
    wizard.on_tap((30, 460))  # the hint bar, not its back hint: nothing
    assert not cancelled and wizard.mode.menu.title == "Which mode?"
    wizard.on_tap(wizard.mode.menu.item_rects()[0].center)  # solo
    assert wizard.mode.menu.title == "Which level?"
    wizard.mode.draw(surface)
    pygame.image.save(surface, str(out_dir / "menu_back_hint.png"))
    back = wizard.mode.back_rect
    assert back is not None and back.h >= 36  # a finger's height, though the words are small
    wizard.on_tap((back.centerx, 478))
    assert wizard.mode.menu.title == "Which mode?"
    wizard.mode.draw(surface)
    wizard.on_tap(wizard.mode.back_rect.center)
    assert cancelled == [True]
    top = MenuMode("Main", [MenuItem("a", 1)], lambda v: None, None, "en")  # no way back: nothing to tap there
    top.draw(surface)
    assert top.back_rect is None and not top.on_tap((700, 460))


def test_a_tap_in_a_scrolled_list_leaves_the_rows_where_they_are():
    """The list scrolled on every tap so that the row tapped stood last: the next finger landed on another row."""
    chosen: list[int] = []
    menu = Menu(pygame.Rect(0, 0, 600, 300), [MenuItem(str(n), n) for n in range(12)], chosen.append, row_h=60)
    menu.index = 11  # the last item highlighted: the list shows its end
    before = {menu.items[i].label: r for i, r in menu.item_rects().items()}
    assert "11" in before and "0" not in before
    assert menu.on_tap(before["8"].center) and chosen == [8]
    assert {menu.items[i].label: r for i, r in menu.item_rects().items()} == before
    assert menu.on_tap(menu.scroll_rects()[-1].center)  # a page up: the old first row at the bottom, highlighted
    shown = menu.visible_range()
    assert menu.index == 7 and shown.stop - 1 == 7
    menu.on_button(ButtonEvent(Button.PREV))  # the highlight moves within the rows shown: they stay
    assert menu.index == 6 and menu.visible_range() == shown
    menu.on_button(ButtonEvent(Button.NEXT))
    menu.on_button(ButtonEvent(Button.NEXT))  # past the last row shown: one row on
    assert menu.visible_range() == range(shown.start + 1, shown.stop + 1)


def test_a_page_down_onto_greyed_lines_stays_on_that_page():
    """The last lines greyed ("Everybody done" before the roller chose): a page down wrapped the highlight to the
    top, and the page with it, so the lines between were out of a finger's reach."""
    items = [MenuItem(str(n), n, enabled=n < 6) for n in range(9)]
    menu = Menu(pygame.Rect(0, 0, 600, 300), items, lambda v: None, row_h=60)  # five rows shown
    assert menu.visible_range() == range(0, 5)
    assert menu.on_tap(menu.scroll_rects()[+1].center)
    assert menu.visible_range() == range(4, 9) and menu.index == 5  # the nearest line that can be chosen


def test_a_question_answered_again_leaves_nothing_of_its_first_answer():
    """Fritzo: "Team: Professional", UNDO, "Beginner": the team's target stayed in the game's setup."""
    from companion.config import Config
    from companion.games_ui import _fritzo_setup
    from companion.views.menus import SetupWizard

    done: list = []
    wizard = SetupWizard(_fritzo_setup(Config(), "en"), done.append, lambda: None, "en")
    wizard._choose({"mode": "team", "target": "professional"})
    wizard._back()
    wizard._choose({"mode": "beginner"})
    answers = done[0] if done else wizard.answers
    assert answers.get("mode") == "beginner" and "target" not in answers


def test_a_question_of_several_keys_clears_every_key_it_may_set():
    """A question without a key (its answers dicts) cleared only the keys of the answers it offered then: a
    rematch's ``starter`` outlived a later answer ``start`` and a mode where the question does not arise. With
    ``keys`` it clears them all, answered, not arising, or gone back past."""
    from companion.views.menus import SetupStep, SetupWizard
    from hardware.events import Button, ButtonEvent

    done: list[dict] = []
    steps = [SetupStep("", "Which mode?", [("Again", {"mode": "again"}), ("Other", {"mode": "other"}),
                                           ("Solo", {"mode": "solo"})]),
             SetupStep("", "Who starts?", lambda answers: {
                 "again": [("Anna gets it", {"starter": "Anna"}), ("Roll", {"start": 0})],
                 "other": [("Anna", {"start": 0}), ("Ben", {"start": 1})]}.get(answers["mode"], []),
                 keys=("start", "starter")),
             SetupStep("level", "Which level?", [("Level 1", 1), ("Level 2", 2)])]
    wizard = SetupWizard(steps, done.append, lambda: None, "en")
    wizard.on_button(ButtonEvent(Button.SELECT))  # again
    wizard.on_button(ButtonEvent(Button.SELECT))  # Anna gets it
    assert wizard.answers["starter"] == "Anna"
    wizard.on_button(ButtonEvent(Button.UNDO))  # asked again: its answer stands until another is given
    wizard.on_button(ButtonEvent(Button.UNDO))  # the mode
    assert "starter" not in wizard.answers  # gone back past
    wizard.on_button(ButtonEvent(Button.NEXT))
    wizard.on_button(ButtonEvent(Button.SELECT))  # other
    wizard.on_button(ButtonEvent(Button.NEXT))
    wizard.on_button(ButtonEvent(Button.SELECT))  # Ben
    wizard.on_button(ButtonEvent(Button.SELECT))
    assert done[-1] == {"mode": "other", "start": 1, "level": 1}
    wizard = SetupWizard(steps, done.append, lambda: None, "en")
    wizard.answers["starter"] = "Anna"  # as an answer taken back would leave it
    wizard.on_button(ButtonEvent(Button.NEXT))
    wizard.on_button(ButtonEvent(Button.NEXT))
    wizard.on_button(ButtonEvent(Button.SELECT))  # solo: who starts does not arise
    wizard.on_button(ButtonEvent(Button.SELECT))
    assert done[-1] == {"mode": "solo", "level": 1}


def test_a_tap_between_two_rows_chooses_the_nearer_one_and_none_beyond_the_first_and_last():
    """The 8 px between two rows chose nothing: a fifth of the reach of Noch X-Mal!'s 36 px rows under its dice. Each
    half of the gap is its row's; above the first row and below the last stands another control's room."""
    chosen: list[int] = []
    menu = Menu(pygame.Rect(0, 100, 600, 200), [MenuItem(str(n), n) for n in range(3)], chosen.append, row_h=44)
    rects = menu.item_rects()
    gap_top, gap_bottom = rects[0].bottom, rects[1].top  # 8 px between row 0 and row 1
    assert gap_bottom - gap_top == 8
    assert menu.on_tap((50, gap_top + 1)) and chosen == [0]
    assert menu.on_tap((50, gap_bottom - 2)) and chosen == [0, 1]
    assert not menu.on_tap((50, rects[0].top - 2)) and not menu.on_tap((50, rects[2].bottom + 1))
    assert chosen == [0, 1]
