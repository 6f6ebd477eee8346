"""What a screen writes, for the tests that check it is read from two metres: every ``theme.text`` call's string,
size and rect while the block runs."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import pygame

from companion.views import theme


@contextmanager
def recording_texts(monkeypatch) -> Iterator[list[tuple[str, int, pygame.Rect]]]:
    """``with recording_texts(monkeypatch) as drawn: view.draw(surface)``: ``drawn`` holds (text, size, rect)."""
    drawn: list[tuple[str, int, pygame.Rect]] = []
    real = theme.text

    def recording(surface, s, pos, size=theme.BODY, *args, **kwargs):
        rect = real(surface, s, pos, size, *args, **kwargs)
        drawn.append((s, size, rect))
        return rect

    with monkeypatch.context() as patch:
        patch.setattr(theme, "text", recording)
        yield drawn
