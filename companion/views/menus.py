"""The menus around the games: main menu (resume, free play, games, teaching), pause menu, and game setup.

Every menu works with NEXT/SELECT/UNDO alone and by touch (``widgets.Menu``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pygame

from companion.i18n import t
from companion.views import theme
from companion.views.widgets import Menu, MenuItem, hint_bar
from hardware.events import ButtonEvent
from vision.types import TrayReading


class MenuMode:
    """A full-screen menu with a title and an optional subtitle."""

    def __init__(self, title: str, items: list[MenuItem], on_choose: Callable[[Any], None],
                 on_back: Callable[[], None] | None = None, lang: str = "de", subtitle: str = "") -> None:
        self.lang = lang
        self.subtitle = subtitle
        top = 20 + (40 if subtitle else 0)
        self.menu = Menu(pygame.Rect(60, top, 680, 420 - top), items, on_choose, on_back, title=title)

    def on_button(self, event: ButtonEvent) -> bool:
        return self.menu.on_button(event)

    def on_tap(self, pos: tuple[int, int]) -> bool:
        return self.menu.on_tap(pos)

    def on_dice(self, reading: TrayReading) -> None:
        pass

    def update(self, dt: float, now: float) -> None:
        pass

    def draw(self, surface: pygame.Surface) -> None:
        surface.fill(theme.BG)
        self.menu.draw(surface)
        if self.subtitle:
            size = theme.fit_text(self.subtitle, theme.SMALL, self.menu.rect.w)
            theme.text(surface, self.subtitle, (60, self.menu.rect.y - 34), size, theme.MUTED)  # above the title
        hints = [(t("core.btn_next", self.lang), t("core.hint_move", self.lang)),
                 (t("core.btn_select", self.lang), t("core.hint_choose", self.lang))]
        if self.menu.on_back is not None:
            hints.append((t("core.btn_undo", self.lang), t("core.hint_back", self.lang)))
        hint_bar(surface, hints)


@dataclass
class SetupStep:
    """One question of a game's setup: the key it sets in the setup action and the choices (label, value).

    With ``key=""`` each choice's value is a dict merged into the answers (one choice setting several keys).
    """

    key: str
    title: str
    #: (label, value) pairs, or a function of the answers so far giving them (who starts: only who plays)
    choices: list[tuple[str, Any]] | Callable[[dict[str, Any]], list[tuple[str, Any]]]


@dataclass
class SetupWizard:
    """Asks a game's setup questions one after another; UNDO goes back one question (or out of the wizard)."""

    steps: list[SetupStep]
    on_done: Callable[[dict[str, Any]], None]
    on_cancel: Callable[[], None]
    lang: str = "de"
    answers: dict[str, Any] = field(default_factory=dict)
    index: int = 0

    def __post_init__(self) -> None:
        self._build()

    def _build(self) -> None:
        step = self.steps[self.index]
        choices = step.choices(self.answers) if callable(step.choices) else step.choices
        items = [MenuItem(label, value) for label, value in choices]
        progress = f"{self.index + 1}/{len(self.steps)}"
        self.mode = MenuMode(step.title, items, self._choose, self._back, self.lang, subtitle=progress)

    def _choose(self, value: Any) -> None:
        key = self.steps[self.index].key
        if key:
            self.answers[key] = value
        else:
            self.answers.update(value)
        if self.index + 1 < len(self.steps):
            self.index += 1
            self._build()
        else:
            self.on_done(dict(self.answers))

    def _back(self) -> None:
        if self.index == 0:
            self.on_cancel()
        else:
            self.index -= 1
            self._build()

    def on_button(self, event: ButtonEvent) -> bool:
        return self.mode.on_button(event)

    def on_tap(self, pos: tuple[int, int]) -> bool:
        return self.mode.on_tap(pos)

    def on_dice(self, reading: TrayReading) -> None:
        pass

    def update(self, dt: float, now: float) -> None:
        pass

    def draw(self, surface: pygame.Surface) -> None:
        self.mode.draw(surface)
