"""The colour nearest a cube's look (the teaching screen's first guess for a colour cube)."""

from __future__ import annotations

import numpy as np

from vision.colour_guess import nearest_colour

SCREEN = {"red": (40, 40, 214), "orange": (0, 127, 247), "yellow": (40, 210, 252), "white": (235, 240, 240)}


def flat(bgr: tuple[int, int, int], size: int = 60) -> np.ndarray:
    crop = np.zeros((size, size, 3), np.uint8)  # a dark table around the die: only the middle counts
    crop[size // 5:-size // 5, size // 5:-size // 5] = bgr
    return crop


def test_a_plain_colour_is_named_even_darker_or_lighter_than_the_screens():
    assert nearest_colour(flat((30, 30, 150)), SCREEN) == "red"  # in shadow
    assert nearest_colour(flat((60, 215, 240)), SCREEN) == "yellow"
    assert nearest_colour(flat((225, 225, 225)), SCREEN) == "white"


def test_no_guess_where_the_sensor_clipped_a_channel_but_white_is_still_white():
    assert nearest_colour(flat((0, 203, 255)), SCREEN) is None  # an orange cube overexposed: its red at the top
    assert nearest_colour(flat((255, 255, 255)), SCREEN) == "white"


def test_no_guess_between_two_colours_or_without_a_choice():
    assert nearest_colour(flat((20, 85, 232)), SCREEN) is None  # halfway between red and orange
    assert nearest_colour(flat((30, 30, 150)), {"red": (40, 40, 214)}) is None
    assert nearest_colour(np.zeros((0, 0, 3), np.uint8), SCREEN) is None
    assert nearest_colour(np.zeros((1, 1, 3), np.uint8) + 200, SCREEN) == "white"  # one pixel: still a look
