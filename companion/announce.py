"""What a game wants everybody at the table to hear. Engines return these; the announcer shows and speaks them."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from companion.i18n import join_names, t


class Sound(StrEnum):
    CHIME = "chime"
    TICK = "tick"
    TIMES_UP = "timesup"
    REFUSED = "refused"
    NONE = "none"


def _words(value: Any, lang: str) -> Any:
    if isinstance(value, dict) and "key" in value:  # its own parameters said in the language too: "Anna red, Zoé
        # the top diamond row and crossing points I" names a list of players with a list of goals in one part
        return t(value["key"], lang, **{k: _words(v, lang) for k, v in value.get("params", {}).items()})
    if isinstance(value, list):
        return join_names([str(_words(x, lang)) for x in value], lang)
    return value


@dataclass(frozen=True)
class Announcement:
    """A message key of the i18n catalogs with its parameters.

    ``urgent`` announcements (time's up) jump the announcer's queue. ``speak`` is False for screen-only notes
    (reminders that need not be read aloud). ``params`` must be JSON values so announcements can be journaled
    and printed by headless play.
    """

    key: str
    params: dict[str, Any] = field(default_factory=dict)
    urgent: bool = False
    speak: bool = True
    sound: Sound = Sound.CHIME
    #: a call to whoever acts next ("Ben, read your words", "Anna's turn"): one still waiting when a newer call
    #: comes is dropped, the game has moved past it (entered fast, the table heard "Lena, read" with Mama on turn)
    prompt: bool = False
    #: a moment everybody must hear (who won, who was first): never dropped as stale when the table enters faster
    #: than the voice speaks, nor when the game is left (``Announcer``)
    essential: bool = False
    #: the actions that answer this call ("take" for "Ben, take a die"): once one is applied, the call is taken
    #: back where it still waits or shows (``GameSession.apply``); it stood over the next player's turn
    until: tuple[str, ...] = ()
    #: a start the table acts on at once ("the time runs", who begins): said now, ahead of what waits; a sentence of
    #: an earlier step still playing is cut and goes on after it from the sentence it was cut in (``Announcer``).
    #: Behind a quick table's sentences Fritzo's clock was said 12 s late, behind the seven-second sentence playing
    #: when TIMER was pressed 8 s.
    first: bool = False
    #: False: said only, its words standing elsewhere on the screen already (a refusal's strip, the list of what was
    #: said): a banner of the same words over them hid the game twice. Such a call of the app's own is not among
    #: what the game said either (``Announcer.said``)
    shown: bool = True
    #: a detail for whoever cannot see the screen or the dice well (the faces rolled, a take, the runners-up, an
    #: undo's words): left unsaid and unshown when the config asks for the calls only (``sound.talk = "calls"``)
    detail: bool = False

    def text(self, lang: str) -> str:
        """The sentence in ``lang``; list parameters (player names) are joined as 'Anna, Ben and Carl', and a part
        that is words of its own (``{"key": ..., "params": ...}``: "a stair and a triangle") is said in ``lang``."""
        return t(self.key, lang, **{k: _words(v, lang) for k, v in self.params.items()})

    def to_json(self) -> dict[str, Any]:
        return {"key": self.key, "params": self.params, "urgent": self.urgent}
