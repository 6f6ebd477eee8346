"""The banner and mute indicator, rendered with the dummy video driver and saved to out/ to be looked at.

Each test checks what matters at the table: the hourglass rect stays untouched pixel for pixel, the sentence
is drawn large, and everything stays on screen, at the Pi's 800x480 and a laptop's 1280x720. """

from __future__ import annotations

import os
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pygame  # noqa: E402
import pytest  # noqa: E402

from companion.announce import Announcement, Sound  # noqa: E402
from companion.announcer import Announcer  # noqa: E402
from companion.audio import NullAudio  # noqa: E402
from companion.speech import Speech  # noqa: E402
from companion.views import banner, theme  # noqa: E402
from companion.views.widgets import HINT_BAR_H  # noqa: E402

OUT = Path(__file__).resolve().parents[1] / "out"
HOURGLASS = (1, 2, 3)  # a colour nothing else uses, painted where the hourglass would be
LONG = ("Bernhard war als Erster mit den Zitronen fertig: kreise die 9 ein. "
        "Alle anderen streichen die 9 bei den Zitronen durch.")


@pytest.fixture(scope="module", autouse=True)
def _pygame():
    # no pygame.quit() afterwards: the theme caches fonts, which must stay valid for later tests
    pygame.display.init()
    pygame.font.init()


def canvas(size: tuple[int, int]) -> pygame.Surface:
    surface = pygame.Surface(size)
    surface.fill(theme.BG)
    w, h = size
    for i in range(0, w, 40):  # a busy background so a banner that fails to paint itself shows
        pygame.draw.line(surface, theme.PANEL, (i, 0), (i, h), 2)
    return surface


def scaled(rect: tuple[int, int, int, int], size: tuple[int, int]) -> pygame.Rect:
    s = min(size[0] / 800, size[1] / 480)
    return pygame.Rect(*(round(v * s) for v in rect))


def untouched(surface: pygame.Surface, rect: pygame.Rect) -> bool:
    sub = pygame.surfarray.pixels3d(surface)[rect.left:rect.right, rect.top:rect.bottom]
    return bool((sub == HOURGLASS).all())


SIZES = [(800, 480), (1280, 720)]
# Where a game might put its hourglass (design pixels): right column, centre, bottom band, top right, none.
AVOIDS = {
    "right": (560, 60, 230, 410),
    "centre": (300, 120, 200, 240),
    "bottom": (0, 330, 800, 150),
    "topright": (600, 10, 190, 190),
    "none": None,
}


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("where", list(AVOIDS))
def test_banner_never_covers_the_hourglass(size, where):
    surface = canvas(size)
    avoid = scaled(AVOIDS[where], size) if AVOIDS[where] else None
    if avoid:
        surface.fill(HOURGLASS, avoid)
    rect = banner.draw_banner(surface, LONG, remaining=0.6, waiting=2, avoid=avoid)
    OUT.mkdir(exist_ok=True)
    pygame.image.save(surface, (OUT / f"banner_{size[0]}x{size[1]}_{where}.png").as_posix())
    assert surface.get_rect().contains(rect)
    scale = banner.scale_of(surface)  # never over the hint bar: its framed hints are a finger's buttons
    assert rect.bottom <= size[1] - round(HINT_BAR_H * scale)
    if avoid:
        assert not rect.colliderect(avoid)
        assert untouched(surface, avoid)
    # the banner really painted itself: its centre is banner colour, not background
    assert surface.get_at(rect.move(0, 4).midtop)[:3] != theme.BG
    _, font, lines = banner.place(size, LONG, avoid, banner.scale_of(surface))
    body = theme.font(round(theme.BODY * banner.scale_of(surface)), True)
    assert font.get_height() >= body.get_height()  # never smaller than readable across the table
    far = theme.font(round(theme.FAR * banner.scale_of(surface)), True)
    # more lines than three only at FAR (a column tall enough: read from every seat), else at BODY
    assert len(lines) <= banner.MAX_LINES or font.get_height() in (body.get_height(), far.get_height())
    assert " ".join(lines).split() == LONG.split()


def test_a_banner_at_the_top_stands_left_of_the_menu_corner():
    """A banner at the top (the focus below) covered the game's ≡ corner: a finger's first tap on it only put the
    banner away."""
    from companion.app import MENU_CORNER

    low_focus = pygame.Rect(0, 250, 800, 180)
    rect, _, lines = banner.place((800, 480), LONG, low_focus, 1.0, [MENU_CORNER])
    assert rect.bottom <= low_focus.top and not rect.colliderect(MENU_CORNER)
    assert " ".join(lines).split() == LONG.split()
    below, _, _ = banner.place((800, 480), LONG, None, 1.0, [MENU_CORNER])  # at the bottom: the full width
    assert below.w > rect.w


def test_short_sentence_keeps_the_largest_size():
    surface = canvas((800, 480))
    _, font, lines = banner.place((800, 480), "Anna ist dran", None, 1.0)
    assert lines == ["Anna ist dran"]
    assert font.get_height() == theme.font(theme.LARGE, True).get_height()
    banner.draw_banner(surface, "Anna ist dran")


def test_avoid_filling_the_screen_still_shows_the_sentence():
    surface = canvas((800, 480))
    rect = banner.draw_banner(surface, LONG, avoid=pygame.Rect(0, 0, 800, 480))
    assert surface.get_rect().contains(rect) and rect.height > 40


def test_wrap_keeps_every_word():
    font = theme.font(theme.LARGE, True)
    lines = banner.wrap(LONG, font, 500)
    assert " ".join(lines).split() == LONG.split()
    assert all(font.size(line)[0] <= 500 for line in lines)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_announcer_draws_urgent_banner_and_mute_sign_clear_of_each_other(size):
    ann = Announcer("de", muted=True, audio=NullAudio(), speech=Speech(lambda text, lang: b""))
    ann.announce(Announcement("core.sound_off", urgent=True, sound=Sound.TIMES_UP))
    ann.update(10.0)
    ann.update(11.0)
    surface = canvas(size)
    avoid = scaled(AVOIDS["topright"], size)
    surface.fill(HOURGLASS, avoid)
    ann.draw(surface, avoid)
    OUT.mkdir(exist_ok=True)
    pygame.image.save(surface, (OUT / f"banner_{size[0]}x{size[1]}_urgent_muted.png").as_posix())
    assert untouched(surface, avoid)
    drawn = ann.draw_banner(canvas(size), avoid)
    sign = ann.draw_mute_indicator(canvas(size), [avoid, drawn])
    assert sign is not None and not sign.colliderect(avoid) and not sign.colliderect(drawn)
    assert surface.get_at(drawn.center)[:3] != theme.BG
    assert 0.0 < ann.remaining() < 1.0


def test_the_mute_sign_stays_on_the_screen_under_a_banner_at_the_top():
    """A banner at the top (the focus low) put the sign "left of it", off the screen: unseen, and not tapped."""
    from companion.app import MENU_CORNER

    surface = canvas((800, 480))
    top = banner.draw_banner(surface, LONG, avoid=pygame.Rect(0, 250, 800, 180), corners=[MENU_CORNER])
    sign = banner.draw_mute_indicator(surface, "Ton aus", [top, MENU_CORNER])
    assert surface.get_rect().contains(sign) and not sign.colliderect(top) and not sign.colliderect(MENU_CORNER)
    assert sign.top < 480 - HINT_BAR_H - sign.h  # not on the hint bar's buttons


def test_nothing_drawn_when_idle_and_unmuted():
    ann = Announcer("de", audio=NullAudio(), speech=Speech(lambda text, lang: b""))
    surface = canvas((800, 480))
    before = pygame.image.tobytes(surface, "RGB")
    ann.draw(surface)
    assert pygame.image.tobytes(surface, "RGB") == before


def test_a_banner_stands_clear_of_what_the_table_looks_at_where_it_fits_elsewhere():
    """The dice just thrown, a button to tap (Haste Worte's "Correct a die" at the bottom): a banner goes elsewhere
    where it fits, and over them only where it fits nowhere else."""
    from companion.app import MENU_CORNER

    button = pygame.Rect(20, 386, 320, 50)
    rect, _, _ = banner.place((800, 480), "Anna, wähle einen Würfel.", None, 1.0, [MENU_CORNER], [button])
    assert not rect.colliderect(button) and not rect.colliderect(MENU_CORNER)
    everywhere = [pygame.Rect(0, 0, 800, 440)]
    rect, _, lines = banner.place((800, 480), LONG, None, 1.0, [MENU_CORNER], everywhere)
    assert " ".join(lines).split() == LONG.split()  # still said, where it fits


def test_a_banner_that_must_cover_something_covers_what_the_screen_lists_last():
    """Nowhere clear of what the screen keeps in view: the banner took the first place it fitted, over Echt Spitze's
    player bar and prompt (listed first) for a whole crossing, where it could have stood over the reports."""
    first = pygame.Rect(0, 360, 800, 80)  # what the screen lists first (here at the bottom, the first place tried)
    later = pygame.Rect(0, 0, 800, 120)  # listed after it, at the top
    rect, _, _ = banner.place((800, 480), "Anna ist dran", None, 1.0, (), [first, later])
    assert rect.colliderect(later) and not rect.colliderect(first)
    clear, _, _ = banner.place((800, 480), "Anna ist dran", None, 1.0, (), [later])
    assert not clear.colliderect(later)  # where a place is clear, it is taken as before


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("text", ["Ben ist dran.", "Großvater Johannes ist dran."])
def test_a_banner_stands_under_a_short_list_where_the_bands_and_columns_cover_what_is_kept(size, text):
    """Fritzo's actions at the right, the building at the left, the top line over both: every band and every column
    beside the highlighted action covered the building or the top line, and the turn banner stood over the
    building's bottom row, a cube in it. Under the short list, as wide as it, it covers nothing kept in view."""
    scale = min(size[0] / 800, size[1] / 480)

    def scaled(x, y, w, h):
        return pygame.Rect(round(x * scale), round(y * scale), round(w * scale), round(h * scale))

    focus = scaled(462, 114, 328, 48)  # the first of three actions
    building, actions, top = scaled(70, 118, 315, 318), scaled(462, 114, 328, 156), scaled(0, 0, 740, 66)
    rect, font, _ = banner.place(size, text, focus, scale, [], [building, actions, top])
    assert not any(rect.colliderect(r) for r in (building, actions, top)), rect
    assert focus.left <= rect.left and rect.right <= focus.right  # under the list, as wide as it
    assert font.get_height() == theme.font(round(theme.LARGE * scale), True).get_height()
    clear, _, _ = banner.place(size, text, focus, scale, [], [top])
    assert clear.width > focus.width  # where a band is clear, it is taken as before


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_banner_stands_in_the_room_the_screen_offers_where_it_fits_there(size):
    """Noch X-Mal!'s fourth roll: three lines at LARGE beside the menu stood from 278, over the board's title
    (268-288), which nothing else asked to spare. The screen offers the board under its title: the banner stands
    there, a little smaller (FAR at least); a sentence too long for it, or a room over what is kept, changes
    nothing."""
    scale = min(size[0] / 800, size[1] / 480)
    text = "Wurf 4: Ben wählt zuerst ein Paar oder passt."
    focus, room = scaled((10, 262, 420, 36), size), scaled((440, 288, 350, 148), size)
    kept = [scaled((0, 0, 800, 260), size), scaled((10, 262, 420, 174), size)]  # dice, prompt, cards; menu's lines
    before, _, _ = banner.place(size, text, focus, scale, (), kept)
    assert before.top < room.top  # the premise: where it stood without a room, over the title
    rect, font, _ = banner.place(size, text, focus, scale, (), kept, room)
    assert room.contains(rect) and rect.bottom == before.bottom
    assert font.get_height() >= theme.font(round(theme.FAR * scale), True).get_height()
    assert banner.place(size, LONG, focus, scale, (), kept, room) == banner.place(size, LONG, focus, scale, (), kept)
    assert banner.place(size, text, focus, scale, (), [room], room)[0] == banner.place(size, text, focus, scale, (),
                                                                                        [room])[0]
    ann = Announcer("de", audio=NullAudio(), speech=Speech(lambda text, lang: b""))
    ann.announce(Announcement("core.sound_off"))
    ann.update(10.0)
    ann.update(10.5)
    assert room.contains(ann.draw(canvas(size), focus, (), kept, room))  # the App's path passes the room on


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("text", ["Die Zeit läuft: 10 Minuten.",
                                  "Mia bekommt 14 Cubes, Großvater Johannes bekommt 13. Baut los!"])
def test_a_banner_in_the_screens_room_fills_it_its_lines_in_the_middle(size, text):
    """Fritzo's band over the cube chooser, where the cube highlighted stands large to be covered by a banner: a
    one-line banner at the band's foot left the cube's top 24 px above it, which looked like a drawing fault (two
    lines filled the band). A banner in the room fills it, one line or two, its lines in the middle."""
    scale = min(size[0] / 800, size[1] / 480)
    room = scaled((0, 66, 800, 100), size)
    kept = [scaled((10, 166, 780, 270), size)]  # the question and the cubes under the band
    rect, font, lines = banner.place(size, text, None, scale, (), kept, room)
    assert rect.top == room.top and rect.bottom == room.bottom, (rect, room)
    surface = canvas(size)
    assert banner.draw_banner(surface, text, spare=kept, room=room) == rect
    inside = rect.inflate(-4 * round(banner.BORDER * scale), -4 * round(banner.BORDER * scale))
    pixels = pygame.surfarray.pixels3d(surface)[inside.left:inside.right, inside.top:inside.bottom]
    rows = [y for y in range(inside.height) if (pixels[:, y] == theme.TEXT).all(axis=1).any()]  # the words' ink
    del pixels
    bar = round(banner.BAR * scale) + round(4 * scale)  # the time bar at the foot
    above, below = rows[0], inside.height - bar - rows[-1]
    assert abs(above - below) <= font.get_linesize() // 3, (above, below, rect, lines)
    pygame.image.save(surface, (OUT / f"banner_fills_room_{len(lines)}_{size[0]}x{size[1]}.png").as_posix())


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_banners_lines_are_even_not_a_full_line_and_a_word(size):
    """Greedy, a score's sentence stood on a full line over its last word alone ("14."), which the far end of the
    table read as another sentence; its lines now share the words."""
    scale = banner.scale_of(pygame.Surface(size))
    font = theme.font(round(theme.LARGE * scale), True)
    words = "Großvater Johannes bekommt 3 Kristalle und hat jetzt"
    text, width = f"{words} 14.", font.size(words)[0] + round(10 * scale)
    assert banner.wrap(text, font, width)[-1] == "14."  # as it was drawn
    _, lines = banner.layout(text, width, scale)
    widths = [font.size(line)[0] for line in lines]
    assert len(lines) == 2 and " ".join(lines).split() == text.split()
    assert max(widths) <= width and min(widths) > 0.6 * max(widths), lines


@pytest.mark.parametrize(("text", "first"), [
    ("Die Zeit ist um! Großvater Johannes liest zuerst vor.", "Die Zeit ist um!"),  # evened: "… um! Großvater"
    ("Der Zug geht an Großvater Johannes weiter.", "Der Zug geht an"),  # evened: "… an Großvater" / "Johannes …"
])
def test_a_banners_lines_end_with_its_sentences_and_keep_a_name_whole(text, first):
    """Evened, "Die Zeit ist um! Großvater" stood over "Johannes liest zuerst vor.": a line ends where a sentence
    does where the sentences go so, and two capitalised words (a name) stay on one line."""
    font = theme.font(theme.LARGE, True)
    width = font.size(text)[0] * 3 // 4  # two lines, as a narrower region gives
    _, lines = banner.layout(text, width, 1.0)
    assert len(lines) == 2 and lines[0].startswith(first) and " ".join(lines).split() == text.split(), lines
    assert not any(line.endswith(("Großvater", "Großmutter")) for line in lines), lines


# where the audit saw a banner at 28 px on four lines (design pixels): what the screen kept in view, its focus
SCORE = "Ben bekommt 3 Punkte für eine Treppe, zusammen 8. Anna ist dran."
FIRSTS = "Anna und Ben zugleich zuerst mit Birnen: jeder kreist die 5 ein, alle anderen streichen sie!"
NARROW_PLACES = {  # Fritzo between turns: the building, its actions, the top line; the column under the actions
    "fritzo": (SCORE, (462, 114, 328, 48), [(73, 120, 312, 312), (462, 114, 328, 156), (0, 0, 740, 66)]),
    # Echt Spitze's final scoring: the player bar, the prompt, the list, the reports; the column left of the list
    "echt": (FIRSTS, (408, 320, 372, 112), [(8, 4, 734, 100), (38, 108, 725, 38), (408, 320, 372, 112),
                                            (20, 150, 363, 30)]),
}


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("case", list(NARROW_PLACES))
def test_a_banner_in_a_narrow_column_stays_at_far_on_more_lines_where_it_is_tall_enough(size, case):
    """Three lines did not fit Fritzo's column under its actions (308 px) at FAR, and ``layout`` fell back to 28 px on
    four lines, which was taken: the scores and Echt Spitze's firsts, the sentences that matter most, at the size
    the far end of the table does not read. Where the column is tall enough, FAR on four lines; clear of all."""
    scale = min(size[0] / 800, size[1] / 480)
    text, focus, kept = NARROW_PLACES[case]
    avoid, spare = scaled(focus, size), [scaled(r, size) for r in kept]
    rect, font, lines = banner.place(size, text, avoid, scale, [scaled((748, 0, 52, 52), size)], spare)
    assert font.get_height() >= theme.font(round(theme.FAR * scale), True).get_height(), lines
    assert not any(rect.colliderect(r) for r in spare) and not rect.colliderect(avoid)
    assert " ".join(lines).split() == text.split()
    assert len(lines) * font.get_linesize() + 2 * round(banner.PAD * scale) <= rect.height


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_room_that_takes_a_banner_only_below_far_gives_way_to_a_place_at_far(size):
    """``place``'s rooms took the first size from LARGE to FAR whose lines fitted, but ``layout`` asked for FAR comes
    back at 28 px where three lines do not fit, and that was accepted: a room too low for FAR held the sentence
    small where the band under the focus took it at FAR. Only where no place takes it at FAR, the room small."""
    scale = min(size[0] / 800, size[1] / 480)
    room = scaled((462, 280, 328, 150), size)  # as narrow as Fritzo's column, too low for four lines at FAR
    focus = scaled((10, 60, 440, 40), size)
    small_in_room, font, _ = banner.place(size, SCORE, focus, scale, (), [], room)
    assert font.get_height() >= theme.font(round(theme.FAR * scale), True).get_height()
    assert not room.contains(small_in_room)  # the band under the focus, at FAR
    everywhere_else = [scaled((0, 0, 800, 280), size), scaled((0, 280, 462, 160), size)]
    rect, font, _ = banner.place(size, SCORE, focus, scale, (), everywhere_else, room)
    assert room.contains(rect)  # nowhere else clear: the room as before, smaller
    assert font.get_height() < theme.font(round(theme.FAR * scale), True).get_height()


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_banner_never_breaks_a_line_at_a_no_break_space(size):
    """Echt Spitze's later scores join a kind and its number with a no-break space, never to stand on two lines:
    the banner's word wrap split at every space and "Kiwis" stood over "3" in German at 800x480."""
    scale = banner.scale_of(pygame.Surface(size))
    font = theme.font(round(theme.LARGE * scale), True)
    text = "Anna, Ben: Zitronen\u00a04, Kiwis\u00a03 Punkte."
    width = font.size("Anna, Ben: Zitronen\u00a04, Kiwis")[0] + 2  # greedy, "3 Punkte." went to the next line
    assert [line for line in banner.wrap(text, font, width) if line.endswith("Kiwis") or line.startswith("3")] == []
    for at in (width, width * 2 // 3):
        _, lines = banner.layout(text, at, scale)
        assert " ".join(lines) == text, lines
    rect, _, lines = banner.place(size, text, None, scale)
    assert not any(line.endswith(("Kiwis", "Zitronen")) for line in lines), lines


def test_a_banners_lines_break_at_the_sentence_end_not_after_a_colon():
    """Three pieces for two lines, greedy, "Anna-Sophie nimmt die 1. Großvater Jürgen:" stood over "nimm einen
    Würfel.", read as "die 1. Großvater Jürgen": the colon's piece joins what follows it, the line ends at the
    full stop."""
    text = "Anna-Sophie nimmt die 1. Großvater Jürgen: nimm einen Würfel."
    font = theme.font(theme.LARGE, True)
    second = "Großvater Jürgen: nimm einen Würfel."
    width = font.size("Anna-Sophie nimmt die 1. Großvater Jürgen:")[0] + 4  # as drawn: that on the first line
    assert font.size(text)[0] > width  # two lines
    assert banner._even(text, font, width, 2) == ["Anna-Sophie nimmt die 1.", second]
    _, lines = banner.layout(text, width, 1.0)
    assert list(lines) == ["Anna-Sophie nimmt die 1.", second], lines


VIET_TIE = ("Gleichstand bei 20 Punkten und gleich vielen Löchern: Nguyễn Thị Mỹ Ảnh und Trần Đức-Huy teilen sich den "
            "Sieg!")
DEJAVU = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf")


class Recording(pygame.Surface):
    """A surface that keeps where each image blitted onto it has ink."""

    def __init__(self, size: tuple[int, int]) -> None:
        super().__init__(size)
        self.inks: list[pygame.Rect] = []

    def blit(self, source, dest, *args, **kwargs):  # type: ignore[override]
        self.inks.append(source.get_bounding_rect().move(pygame.Rect(dest).topleft))
        return super().blit(source, dest, *args, **kwargs)


@pytest.mark.skipif(not DEJAVU.is_file(), reason="DejaVu Sans Bold is not installed (fonts-dejavu-core): Vietnamese "
                    "names are refused, no banner holds one")
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("where", ["none", "right", "bottom"])
def test_a_banners_vietnamese_lines_keep_clear_of_each_other(size, where):
    """The line over "Trần Đức-Huy teilen sich den Sieg!" reached into its marks (4 rows at FAR): a line drawn in
    the fallback font stands from the top of its marks and reaches deeper. Each line's ink is a band of its own."""
    surface = Recording(size)
    avoid = scaled(AVOIDS[where], size) if AVOIDS[where] else None
    banner.draw_banner(surface, VIET_TIE, avoid=avoid)
    _, font, lines = banner.place(size, VIET_TIE, avoid, banner.scale_of(surface))
    inks = surface.inks[:len(lines)]  # the lines are blitted first, top to bottom
    assert len(lines) >= 2 and [ink.height > 0 for ink in inks] == [True] * len(lines)
    assert all(above.bottom <= below.top for above, below in zip(inks, inks[1:], strict=False)), (lines, inks)
