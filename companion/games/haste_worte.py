"""Haste Worte? Das Würfelspiel: the shared table state (dice, picks, letter, hourglass, crystals).

Players keep their word lists on paper; the companion keeps what the whole table shares and announces the
moments everybody must hear. A round runs: ROLL (the round's first player rolls the six symbol dice), PICK
(clockwise from the roller, one die each; the rest are set aside), LETTER (the next token of a shuffled
stack), WRITING (the 90-second hourglass), READING (clockwise from the roller, each enters how many of their
words nobody else wrote, 0-3, one crystal each). The next round starts one seat to the left. After the round
in which somebody reaches 15 crystals the game ends; the most crystals win and ties all win.

Rule readings where the rulebook leaves room (also in ``docs/haste_worte.md``):

- "The game ends as soon as at least one player has collected 15": the round in progress is read out to the
  end (the issue asks for it, and every player's words of that round keep the same worth), then it ends.
- Variant 1 (letter first): the round's order becomes LETTER, ROLL, PICK, WRITING. Variant 2 (simultaneous
  grabbing): picks come in any order and each must name the player; every player still takes exactly one
  die. Both variants can be combined.
- The letter stack holds the configured tokens, shuffled once at setup; a draw takes the top token, and only
  a draw from an empty stack reshuffles all tokens (as with the physical stack). A letter entered by hand (a
  table using its physical tokens) is taken out of the companion's stack when it is still there. It may be any
  letter A-Z, Ä, Ö or Ü besides the configured tokens: the rulebook gives only the tokens' count, so the default
  21 are this project's guess, and a box with a V or a C was refused its own token.
- A reroll (ROLL again) is allowed until the first die is picked; then the dice on the table are the round's.
- A die the camera read wrongly but for sure is corrected with ``correct`` (``die`` 1-6, ``face``) from the roll
  until the round's reading ends, also a die already taken: its owner's symbol is what the screen shows for the
  writing and the reading. Nothing is scored from a symbol (players count their own words), so a correction
  changes no crystals and says nothing aloud: the screen shows the die's new name at once.
- A word count above 3 is rejected: crystals come only for your own symbol, with at most 3 words written.
- The hourglass: the time it was turned is stamped into the action (wall-clock seconds). After a restart the
  remaining time is restored from the wall clock; the app sends ``timer_expired`` if it ran out while off,
  or ``timer_interrupted`` when the wall clock reads earlier than the start stamp (a Pi without a real-time
  clock before network time arrives). An interrupted or cancelled hourglass can be turned again (a fresh full
  run), or the table declares time's up with ``timer_expired``; the same action ends the writing for tables
  that use their own sand timer and never start the companion's.

>>> g = HasteWorte.new({"action": "setup", "players": ["Anna", "Ben"], "seed": 7})
>>> _ = g.apply({"action": "roll", "dice": ["car", "animals", "fruit", "water", "toys", "cities"]})
>>> g.apply({"action": "pick", "symbol": "animals"})
[]
>>> g.prompt().text("en")
'Ben picks a die'
>>> try:
...     g.apply({"action": "pick", "die": 2})
... except DieTaken as exc:
...     print(exc.localized("de"))
Würfel 2 (Tiere) hat schon Anna genommen: wähle einen anderen Würfel.
"""

from __future__ import annotations

import copy
import hashlib
import json
import random
import re
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any, ClassVar, Self

from companion.announce import Announcement, Sound
from companion.games.base import KeyedGameError
from companion.hourglass import Hourglass
from companion.hourglass import Phase as SandPhase
from companion.i18n import DEFAULT_LANGUAGE, catalog
from companion.names import name_key

#: the rulebook's 11 symbol meanings, in the rulebook's table order
SYMBOLS: tuple[str, ...] = (
    "dishes",
    "fruit",
    "car",
    "water",
    "toys",
    "clothing",
    "animals",
    "sweets",
    "cities",
    "countries",
    "sports",
)
#: an edition may print more symbols: any lowercase id is accepted and shown by its id
SYMBOL_ID = re.compile(r"^[a-z][a-z0-9_-]{0,31}$")
DICE = 6
#: "the hourglass runs" is past once it is cancelled: its banner stood over "stopped"
CANCELLED = ("timer_cancel",)
MIN_PLAYERS, MAX_PLAYERS = 2, 6  # six dice, one per player
MAX_OWN_WORDS = 3
#: 21 tokens: the alphabet without C, Q, X, Y (hardly any German nouns start with them) and V (its German
#: words are mostly ver-/vor- verbs, and children hear it as F: "Vogel" starts a quarrel). docs/haste_worte.md
DEFAULT_LETTERS: tuple[str, ...] = tuple("ABDEFGHIJKLMNOPRSTUWZ")
#: every letter a token turned over by hand may show (with the configured tokens): A-Z and the German umlauts
ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÜ"
DEFAULT_SECONDS = 90.0
WARNING_SECONDS = 10.0
DEFAULT_GOAL = 15
#: an expiry stamped this much before the hourglass's end still counts (frame timing, stamp rounding)
EXPIRY_SLACK = 0.25
SETUP_KEYS = {
    "action",
    "players",
    "first_player",
    "start",
    "variant",
    "seed",
    "letters",
    "timer_seconds",
    "goal",
    "meanings",
}


# -- errors: each carries a catalog key so the screen can show it in the table's language

#: a count's sentence and the shorter words it has when the call to whoever acts next follows it in one sentence
_COUNT_SAID_SHORT = {"haste.scored_none": "haste.count_none", "haste.scored_one": "haste.count",
                     "haste.scored": "haste.count"}


def _then(said: Announcement, call: Announcement) -> list[Announcement]:
    """A plain count and the call after it as one sentence, "Carla: ein Kristall, jetzt 5. Runde 3: Ben würfelt.":
    said apart, the call waited behind the count's sentence and its chime, and the table had rolled (or read) before
    it came ("Runde N: X würfelt" was heard in 2 rounds of 10). It is taken back as the call is (``until``); the
    screen shows the count. A count that says the goal was reached stays a sentence of its own."""
    short = _COUNT_SAID_SHORT.get(said.key)
    if short is None:
        return [said, call]
    return [replace(call, key="haste.count_then",
                    params={"count": {"key": short, "params": said.params},
                            "call": {"key": call.key, "params": call.params}})]

def _call_then(call: Announcement, said: Announcement) -> list[Announcement]:
    """The call to the next reader and the count just entered as one sentence, the call first: "Мария liest vor.
    Anna: 3 Kristalle, jetzt 3." Said apart, "Мария, lies deine Wörter vor." waited 3-5 s behind "Anna bekommt 3
    Kristalle und hat jetzt 3." and its chime, or was cut by the next count. Taken back as the call is (``until``):
    the call has been heard first, the screen shows the count. A count that says the goal was reached stays a
    sentence of its own."""
    short = _COUNT_SAID_SHORT.get(said.key)
    if short is None:
        return [said, call]
    return [replace(call, key="haste.call_then",
                    params={"call": {"key": "haste.read_short", "params": call.params},
                            "count": {"key": short, "params": said.params}})]


class HasteError(KeyedGameError):
    """A rule or input problem with its catalog key: ``str()`` is English (logs, headless play, as the
    ``GameError`` contract says), ``localized(lang)`` is what the screen shows at the table."""

    def render_param(self, name: str, value: Any, lang: str) -> Any:
        """A symbol id becomes its name in ``lang``."""
        if name == "symbol":
            return symbol_label(value, lang)
        return super().render_param(name, value, lang)


class SetupError(HasteError):
    pass


class WrongPhase(HasteError):
    pass


class NotYourTurn(HasteError):
    pass


class UnknownPlayer(HasteError):
    pass


class BadDice(HasteError):
    pass


class DieTaken(HasteError):
    pass


class BadLetter(HasteError):
    pass


class TimerError(HasteError):
    pass


class BadWordCount(HasteError):
    pass


class UnknownAction(HasteError):
    pass


def symbol_label(symbol: str, lang: str = DEFAULT_LANGUAGE, meanings: dict[str, str] | None = None) -> str:
    """A symbol's short name for the screen: a configured meaning, else the catalog's, else its id."""
    if meanings and symbol in meanings:
        return meanings[symbol]
    return catalog(lang, "haste").get(f"haste.symbol.{symbol}", symbol)


class Phase(StrEnum):
    ROLL = "roll"
    PICK = "pick"
    LETTER = "letter"
    WRITING = "writing"
    READING = "reading"
    OVER = "over"


@dataclass
class Pick:
    player: int  # seat index
    die: int  # 0-based index into the round's dice


@dataclass
class Round:
    number: int
    first: int  # seat index of the round's first player (the roller)
    dice: list[str] | None = None
    picks: list[Pick] = field(default_factory=list)
    letter: str | None = None
    #: crystals scored this round, in reading order
    scores: list[int] = field(default_factory=list)
    timer_started_at: float | None = None
    timer_interrupted: bool = False

    def die_of(self, player: int) -> int | None:
        return next((p.die for p in self.picks if p.player == player), None)

    def owner_of(self, die: int) -> int | None:
        return next((p.player for p in self.picks if p.die == die), None)

    def to_json(self) -> dict[str, Any]:
        """As ``dataclasses.asdict`` writes it (the saved games' format), by hand: ``asdict`` copied every value
        through ``deepcopy`` and was the largest cost of a press late in a game (``HasteWorte.to_json``)."""
        return {
            "number": self.number,
            "first": self.first,
            "dice": None if self.dice is None else list(self.dice),
            "picks": [{"player": p.player, "die": p.die} for p in self.picks],
            "letter": self.letter,
            "scores": list(self.scores),
            "timer_started_at": self.timer_started_at,
            "timer_interrupted": self.timer_interrupted,
        }

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Round:
        return cls(
            number=d["number"],
            first=d["first"],
            dice=d["dice"],
            picks=[Pick(**p) for p in d["picks"]],
            letter=d["letter"],
            scores=list(d["scores"]),
            timer_started_at=d["timer_started_at"],
            timer_interrupted=d["timer_interrupted"],
        )


@dataclass
class HasteWorte:
    """The engine. Build it with :meth:`new` from a setup action; see the module docstring for the rules."""

    name: ClassVar[str] = "haste-worte"

    players: list[str]
    first_player: int
    letter_first: bool
    simultaneous: bool
    seed: str
    letters: list[str]
    goal: int
    meanings: dict[str, str]
    hourglass: Hourglass
    crystals: list[int]
    stack: list[str]  # the face-down letter tokens; the top is the last element
    shuffles: int
    phase: Phase
    round: Round
    history: list[Round] = field(default_factory=list)
    winners: list[int] = field(default_factory=list)

    # -- setup
    @classmethod
    def new(cls, setup: dict[str, Any]) -> Self:
        unknown = sorted(set(setup) - SETUP_KEYS)
        if unknown:
            raise SetupError(
                "haste.error.setup_unknown", keys=", ".join(unknown), known=", ".join(sorted(SETUP_KEYS))
            )
        players = _players(setup.get("players"))
        if "first_player" in setup and "start" in setup:
            raise SetupError("haste.error.setup_two_firsts")
        # "start" is what the app's setup screen sends (a seat index); transcripts may name the player
        first = _first_player(setup.get("first_player", setup.get("start", 0)), players)
        letter_first, simultaneous = _variant(setup.get("variant", 0))
        letters = _letters(setup.get("letters", list(DEFAULT_LETTERS)))
        seconds = setup.get("timer_seconds", DEFAULT_SECONDS)
        if isinstance(seconds, bool) or not isinstance(seconds, int | float) or not 10 <= seconds <= 600:
            raise SetupError("haste.error.setup_seconds", value=json.dumps(seconds, default=str))
        goal = setup.get("goal", DEFAULT_GOAL)
        if isinstance(goal, bool) or not isinstance(goal, int) or not 1 <= goal <= 90:
            raise SetupError("haste.error.setup_goal", value=json.dumps(goal, default=str))
        meanings = setup.get("meanings", {})
        if not isinstance(meanings, dict) or not all(
            isinstance(k, str) and SYMBOL_ID.match(k) and isinstance(v, str) and v.strip()
            for k, v in meanings.items()
        ):
            raise SetupError("haste.error.setup_meanings")
        seed = setup.get("seed")
        if seed is None:
            # Replays stay identical because the setup itself is journaled; the app should still stamp a
            # seed so that two evenings with the same players do not draw the same letters.
            seed = hashlib.sha256(json.dumps(setup, sort_keys=True).encode()).hexdigest()[:16]
        game = cls(
            players=players,
            first_player=first,
            letter_first=letter_first,
            simultaneous=simultaneous,
            seed=str(seed),
            letters=letters,
            goal=goal,
            meanings={k: v.strip() for k, v in meanings.items()},
            hourglass=Hourglass(duration=float(seconds), warning_seconds=WARNING_SECONDS),
            crystals=[0] * len(players),
            stack=[],
            shuffles=0,
            phase=Phase.ROLL,
            round=Round(number=1, first=first),
        )
        game._reshuffle()
        game.phase = game._round_start_phase()
        return game

    # -- what screens ask
    @property
    def finished(self) -> bool:
        return self.phase is Phase.OVER

    @property
    def opening_announcements(self) -> list[Announcement]:
        """Round 1 is called out as every later round is: the table hears who rolls (or turns the letter) first."""
        return [self._round_call()]

    @property
    def pick_order(self) -> list[int]:
        """Seats clockwise from the round's first player: the pick order and the reading order."""
        n = len(self.players)
        return [(self.round.first + i) % n for i in range(n)]

    @property
    def current_picker(self) -> int | None:
        """Whose pick it is (None in the simultaneous variant or outside the pick phase)."""
        if self.phase is not Phase.PICK or self.simultaneous:
            return None
        return self.pick_order[len(self.round.picks)]

    @property
    def current_reader(self) -> int | None:
        if self.phase is not Phase.READING:
            return None
        return self.pick_order[len(self.round.scores)]

    @property
    def others_limit(self) -> int:
        """At most this many words in total for the other players' symbols: the number of players."""
        return len(self.players)

    def symbol_of(self, player: int) -> str | None:
        die = self.round.die_of(player)
        return None if die is None or self.round.dice is None else self.round.dice[die]

    def label(self, symbol: str, lang: str = DEFAULT_LANGUAGE) -> str:
        return symbol_label(symbol, lang, self.meanings)

    def prompt(self) -> Announcement:
        """What the table should do now, for the screen's status line (never spoken)."""
        p = self.players
        if self.phase is Phase.ROLL:
            return _quiet("haste.prompt.roll", player=p[self.round.first])
        if self.phase is Phase.PICK:
            if self.simultaneous:
                return _quiet("haste.prompt.pick_any")
            return _quiet("haste.prompt.pick", player=p[self.current_picker])  # type: ignore[index]
        if self.phase is Phase.LETTER:
            return _quiet("haste.prompt.letter", player=p[self.round.first])
        if self.phase is Phase.WRITING:
            return _quiet("haste.prompt.writing", letter=self.round.letter)
        if self.phase is Phase.READING:
            return _quiet("haste.prompt.read", player=p[self.current_reader])  # type: ignore[index]
        return _quiet("haste.prompt.over", players=[p[i] for i in self.winners], crystals=max(self.crystals))

    # -- actions
    def apply(self, action: dict[str, Any]) -> list[Announcement]:
        """Validate on a deep copy, then adopt it: a rejected action leaves this state exactly as it was."""
        kind = action.get("action")
        handler = _HANDLERS.get(kind)  # type: ignore[arg-type]
        if handler is None:
            raise UnknownAction(
                "haste.error.unknown_action", action=json.dumps(kind), known=", ".join(_HANDLERS)
            )
        if self.phase is Phase.OVER:
            raise WrongPhase("haste.error.game_over")
        # the rounds played are never changed again (``_score`` only appends the round just read): shared with the
        # copy, not copied at every step (copying them was 97% of a replay: 0.6-2 ms a step late in a game, growing
        # with every round). The round in play is copied even where it is the last one played (the game over).
        played = {id(r): r for r in self.history if r is not self.round}
        work = copy.deepcopy(self, played)
        announcements = handler(work, action)
        self.__dict__.update(work.__dict__)
        return announcements

    def _roll(self, action: dict[str, Any]) -> list[Announcement]:
        reroll = self.phase is Phase.PICK and not self.round.picks
        if self.phase is not Phase.ROLL and not reroll:
            raise WrongPhase("haste.error.not_now_roll", expected=self._expected())
        dice = action.get("dice")
        if not isinstance(dice, list) or len(dice) != DICE:  # more: something that is no die lies in the tray too
            n = len(dice) if isinstance(dice, list) else 0
            raise BadDice("haste.error.dice_too_many" if n > DICE else "haste.error.dice_count", n=n, dice=DICE)
        for i, face in enumerate(dice, start=1):
            if face is None:
                raise BadDice("haste.error.die_unread", die=i)
            if not isinstance(face, str) or not SYMBOL_ID.match(face):
                raise BadDice("haste.error.die_face", die=i, face=str(face), known=", ".join(SYMBOLS))
        self.round.dice = list(dice)
        self.phase = Phase.PICK
        # the symbols said, as rolled (the dice are numbered so on screen): a player who cannot see the dice chose
        # blind. A re-roll makes them stale, and so does the first pick (the words being said are finished): the six
        # symbols take six seconds, and at a pick every two or three the calls to pick waited behind them, the first
        # picker's never heard. The dice lie in front of everyone; the list of what is left is on the screen
        rolled = Announcement("haste.rolled", {"symbols": [self._symbol_words(f) for f in dice]},
                              until=("roll", "pick", "letter", "timer_start"), detail=True)
        if self.simultaneous:
            # the grab's start first, for the same reason: after the six symbols the first grab had come and gone
            # (it takes the symbols back), and "Greift zu!" was said to a table already grabbing
            return [Announcement("haste.pick_any"), rolled]
        # a call to pick (``prompt``): one a re-roll made stale waits no more, and a die taken ends it ("Großvater
        # Jürgen, pick a die" stood over the screen saying that Zoé picks now). Said before the symbols, as Noch
        # X-Mal!'s call before its faces: after them (six seconds) the first pick had taken it back, never heard
        return [Announcement("haste.pick_turn", {"player": self.players[self.current_picker]},  # type: ignore[index]
                             prompt=True, until=("pick",)), rolled]

    def _symbol_words(self, symbol: str) -> str | dict[str, str]:
        """A symbol as said in the table's language: a configured meaning, else the catalog's name, else its id."""
        if symbol in self.meanings:
            return self.meanings[symbol]
        return {"key": f"haste.symbol.{symbol}"} if symbol in SYMBOLS else symbol

    def _pick(self, action: dict[str, Any]) -> list[Announcement]:
        if self.phase is not Phase.PICK:
            raise WrongPhase("haste.error.not_now_pick", expected=self._expected())
        assert self.round.dice is not None
        named = action.get("player")
        if self.simultaneous:
            if named is None:
                raise NotYourTurn("haste.error.pick_needs_player")
            player = self._player(named)
            if self.round.die_of(player) is not None:
                raise NotYourTurn("haste.error.already_picked", player=self.players[player])
        else:
            player = self.current_picker  # type: ignore[assignment]
            if named is not None and self._player(named) != player:
                raise NotYourTurn("haste.error.not_your_pick", player=str(named), turn=self.players[player])
        die = self._die_from(action)
        owner = self.round.owner_of(die)
        if owner is not None:
            raise DieTaken(
                "haste.error.die_taken", die=die + 1, symbol=self.round.dice[die], player=self.players[owner]
            )
        self.round.picks.append(Pick(player=player, die=die))
        # who took which symbol, said with the next call ("Anna: Auto. Ben, wähle."): a call the next pick takes
        # back where it waits or plays, so a quick table never waits for it (the pick was silent, screen-only)
        took = {"player": self.players[player], "symbol": self._symbol_words(self.round.dice[die])}
        if len(self.round.picks) < len(self.players):
            if self.simultaneous:
                return [Announcement("haste.picked", took, prompt=True, until=("pick",))]
            return [Announcement("haste.picked_next", {**took, "next": self.players[self.current_picker]},  # type: ignore[index]
                                 prompt=True, until=("pick",))]
        out: list[Announcement] = []
        if self.letter_first:
            self.phase = Phase.WRITING
            out.append(Announcement("haste.turn_hourglass", {"picked": took["player"], "symbol": took["symbol"],
                                                             "letter": _spelled(self.round.letter)}))
        else:
            self.phase = Phase.LETTER
            # said (it was screen-only): whoever draws the letter heard nothing once the last die was taken
            out.append(Announcement("haste.picks_done", {"picked": took["player"], "symbol": took["symbol"],
                                                         "player": self.players[self.round.first]},
                                    prompt=True, until=("letter",)))
        return out

    def _die_from(self, action: dict[str, Any]) -> int:
        """The die a pick names: ``die`` (1-6, numbered as on screen) or ``symbol`` (its first free die)."""
        dice = self.round.dice or []
        has_die, has_symbol = "die" in action, "symbol" in action
        if has_die == has_symbol:
            raise BadDice("haste.error.pick_what")
        if has_die:
            n = action["die"]
            if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= len(dice):
                raise BadDice("haste.error.no_such_die", die=json.dumps(n), dice=len(dice))
            return n - 1
        symbol = action["symbol"]
        showing = [i for i, s in enumerate(dice) if s == symbol]
        if not showing:
            raise BadDice("haste.error.symbol_not_rolled", face=str(symbol))
        free = [i for i in showing if self.round.owner_of(i) is None]
        if not free:
            i = showing[0]
            raise DieTaken(
                "haste.error.die_taken",
                die=i + 1,
                symbol=dice[i],
                player=self.players[self.round.owner_of(i)],
            )  # type: ignore[index]
        return free[0]

    def _correct(self, action: dict[str, Any]) -> list[Announcement]:
        if self.round.dice is None or self.phase not in (Phase.PICK, Phase.LETTER, Phase.WRITING, Phase.READING):
            raise WrongPhase("haste.error.not_now_correct", expected=self._expected())
        dice = self.round.dice
        n = action.get("die")
        if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= len(dice):
            raise BadDice("haste.error.no_such_die", die=json.dumps(n), dice=len(dice))
        face = action.get("face")
        if not isinstance(face, str) or not SYMBOL_ID.match(face):
            raise BadDice("haste.error.die_face", die=n, face=str(face), known=", ".join(SYMBOLS))
        dice[n - 1] = face
        return []

    def enterable_letters(self) -> list[str]:
        """What a table may enter as the token it turned over by hand, in the order a picker offers them: every
        letter A-Z, then Ä, Ö and Ü (a German box may hold them; the rulebook names no letters), each configured
        token of several letters ("SCH") after its first letter. A token not in the companion's stack is entered
        all the same: the table's box is what counts."""
        tokens = dict.fromkeys([*ALPHABET, *self.letters])
        return sorted(tokens, key=lambda x: (ALPHABET.index(x[0]) if x[0] in ALPHABET else len(ALPHABET), len(x), x))

    def _letter(self, action: dict[str, Any]) -> list[Announcement]:
        if self.phase is not Phase.LETTER:
            raise WrongPhase("haste.error.not_now_letter", expected=self._expected())
        out: list[Announcement] = []
        entered = action.get("letter")
        if entered is None:
            if not self.stack:
                self._reshuffle()
                out.append(Announcement("haste.reshuffled", {"n": len(self.stack)}, speak=False))
            letter = self.stack.pop()
        else:
            if not isinstance(entered, str) or entered.strip().upper() not in self.enterable_letters():
                raise BadLetter(
                    "haste.error.bad_letter", letter=str(entered), letters=", ".join(self.letters)
                )
            letter = entered.strip().upper()
            if letter in self.stack:  # keep the companion's stack in step with the physical tokens
                del self.stack[len(self.stack) - 1 - self.stack[::-1].index(letter)]
        self.round.letter = letter
        if self.letter_first:
            self.phase = Phase.ROLL
            out.append(
                Announcement(
                    "haste.letter_first", {"letter": _spelled(letter), "player": self.players[self.round.first]}
                )
            )
        else:
            self.phase = Phase.WRITING
            out.append(Announcement("haste.letter", {"letter": _spelled(letter)}))
        return out

    def _timer_start(self, action: dict[str, Any]) -> list[Announcement]:
        if self.phase is not Phase.WRITING:
            raise WrongPhase("haste.error.not_now_timer", expected=self._expected())
        at = _stamp(action)
        if self.hourglass.is_running(at):
            raise TimerError("haste.error.timer_running", seconds=round(self.hourglass.remaining(at)))
        self.hourglass.start(at)
        self.round.timer_started_at = at
        self.round.timer_interrupted = False
        if self.round.number > 1:  # the word limits were said in round 1 and stand on the screen: while everybody
            # writes, eight seconds of them every round would be heard over the pencils
            return [Announcement("haste.timer_started_again", {"seconds": _seconds(self.hourglass.duration)},
                                 until=CANCELLED, first=True)]
        return [
            Announcement(
                "haste.timer_started",
                {
                    "seconds": _seconds(self.hourglass.duration),
                    "own": MAX_OWN_WORDS,
                    "others": self.others_limit,
                },
                until=CANCELLED,
                first=True,  # the sand runs now: heard before the picks still waiting
            )
        ]

    def _timer_cancel(self, action: dict[str, Any]) -> list[Announcement]:
        at = _stamp(action)
        if self.phase is not Phase.WRITING or not self.hourglass.is_running(at):
            raise TimerError("haste.error.timer_not_running")
        self.hourglass.cancel(at)
        return [Announcement("haste.timer_cancelled", {"seconds": round(self.hourglass.remaining(at))})]

    def _timer_interrupted(self, action: dict[str, Any]) -> list[Announcement]:
        at = _stamp(action)
        sand = self.hourglass.phase(at)
        if self.phase is not Phase.WRITING or sand not in (SandPhase.RUNNING, SandPhase.EXPIRED):
            raise TimerError("haste.error.timer_not_running")
        self.hourglass.interrupt(at)
        self.round.timer_interrupted = True
        return [Announcement("haste.timer_interrupted", {"letter": self.round.letter})]

    def _timer_expired(self, action: dict[str, Any]) -> list[Announcement]:
        if self.phase is not Phase.WRITING:
            raise WrongPhase("haste.error.not_now_expired", expected=self._expected())
        if self.hourglass.started_at is not None and self.hourglass.stopped_at is None:
            at = _stamp(action)  # the companion's own hourglass: it must really have run out
            if at < self.hourglass.started_at + self.hourglass.duration - EXPIRY_SLACK:
                raise TimerError("haste.error.timer_not_done", seconds=round(self.hourglass.remaining(at)))
        self.phase = Phase.READING
        return [
            Announcement(
                "haste.times_up",
                {"player": self.players[self.round.first]},
                urgent=True,
                sound=Sound.TIMES_UP,
            )
        ]

    def _score(self, action: dict[str, Any]) -> list[Announcement]:
        if self.phase is not Phase.READING:
            raise WrongPhase("haste.error.not_now_score", expected=self._expected())
        reader = self.current_reader
        assert reader is not None
        named = action.get("player")
        if named is not None and self._player(named) != reader:
            raise NotYourTurn("haste.error.not_your_reading", player=str(named), turn=self.players[reader])
        words = action.get("words")
        if isinstance(words, bool) or not isinstance(words, int) or not 0 <= words <= MAX_OWN_WORDS:
            raise BadWordCount(
                "haste.error.word_count",
                value=json.dumps(words),
                player=self.players[reader],
                most=MAX_OWN_WORDS,
            )
        before = self.crystals[reader]
        self.crystals[reader] += words
        self.round.scores.append(words)
        last_reader = len(self.round.scores) == len(self.players)
        reached = before < self.goal <= self.crystals[reader] and not last_reader  # the round's end says who won
        # (nobody reaches the goal in an earlier round: that round's end ended the game)
        first = reached and not any(c >= self.goal for i, c in enumerate(self.crystals) if i != reader)
        key = {0: "haste.scored_none", 1: "haste.scored_one"}.get(words, "haste.scored")
        if reached and not first:
            # a later reacher of the round hears it in their score's sentence, which may go stale like any score's:
            # "this round is played to the end" was said already, and the winners are named at the round's end.
            # Said apart and essential, four of them queued at a quick table's end held the winners back 16 s
            key = "haste.scored_goal_too"
        out = [
            Announcement(key, {"player": self.players[reader], "n": words, "total": self.crystals[reader]})
        ]
        if first:  # the table must hear that this round is the last, however far behind the voice is
            out.append(Announcement("haste.goal_reached", {"player": self.players[reader], "goal": self.goal},
                                    essential=True))
        if not last_reader:
            # taken back once this reader's count is in: entered quickly, the round's last reader was called to read
            # ("Frieda, read out your words") after her crystals were entered, and her score's sentence came after it.
            # Said after the count (in one or apart) the call came late or was lost: the count first, a table entering
            # 4 s apart lost three counts of six with it; the count's own sentence and chime held it back 3-5 s. The
            # call first, the count after it: the call is heard at once, a count cut by the next is on the screen
            call = Announcement("haste.read_turn", {"player": self.players[self.current_reader]},  # type: ignore
                                prompt=True, until=("score",))
            if first:  # "the round is the last" stays between the count and the call
                return [*out, call]
            return _call_then(call, out[0])  # the next reader first, the count after it in the same sentence
        self.history.append(self.round)
        best = max(self.crystals)
        if best >= self.goal:
            self.phase = Phase.OVER
            self.winners = [i for i, c in enumerate(self.crystals) if c == best]
            names = [self.players[i] for i in self.winners]
            key = "haste.winner" if len(names) == 1 else "haste.winners"
            out.append(Announcement(key, {"players": names, "crystals": best}))
            return out
        first = (self.round.first + 1) % len(self.players)
        self.round = Round(number=self.round.number + 1, first=first)
        self.hourglass.reset()
        self.phase = self._round_start_phase()
        return [*out[:-1], *_then(out[-1], self._round_call())]

    # -- helpers
    def _round_call(self) -> Announcement:
        # a call to roll (or turn the letter), taken back once it is done: behind a quick table's scores it came
        # after the dice were thrown
        key, done = ("haste.new_round_letter", "letter") if self.letter_first else ("haste.new_round", "roll")
        return Announcement(key, {"number": self.round.number, "player": self.players[self.round.first]},
                            until=(done,))

    def _round_start_phase(self) -> Phase:
        return Phase.LETTER if self.letter_first else Phase.ROLL

    def _reshuffle(self) -> None:
        """All tokens back, shuffled by a generator from the seed and the shuffle count: replayable."""
        self.stack = list(self.letters)
        random.Random(f"{self.seed}:letters:{self.shuffles}").shuffle(self.stack)
        self.shuffles += 1

    def _player(self, named: Any) -> int:
        if isinstance(named, str):
            for i, p in enumerate(self.players):
                if name_key(p) == name_key(named):
                    return i
        raise UnknownPlayer("haste.error.unknown_player", player=str(named), players=", ".join(self.players))

    def _expected(self) -> Announcement:
        """What the table should do instead, rendered into the error in the error's language."""
        return self.prompt()

    # -- JSON
    def to_json(self) -> dict[str, Any]:
        """The state as the saved games hold it (the keys and their order ``dataclasses.asdict`` gave it, for every
        snapshot's text to stay the same), written out: ``asdict`` deep-copied each value of every round played and
        took 0.6-2 ms a press here late in a game (its snapshot is written at every press), growing with the rounds.
        Every list and dict is a new one: a caller may change what it is given."""
        return {
            "players": list(self.players),
            "first_player": self.first_player,
            "letter_first": self.letter_first,
            "simultaneous": self.simultaneous,
            "seed": self.seed,
            "letters": list(self.letters),
            "goal": self.goal,
            "meanings": dict(self.meanings),
            "hourglass": self.hourglass.to_json(),
            "crystals": list(self.crystals),
            "stack": list(self.stack),
            "shuffles": self.shuffles,
            "phase": self.phase.value,
            "round": self.round.to_json(),
            "history": [r.to_json() for r in self.history],
            "winners": list(self.winners),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Self:
        return cls(
            players=list(data["players"]),
            first_player=data["first_player"],
            letter_first=data["letter_first"],
            simultaneous=data["simultaneous"],
            seed=data["seed"],
            letters=list(data["letters"]),
            goal=data["goal"],
            meanings=dict(data["meanings"]),
            hourglass=Hourglass.from_json(data["hourglass"]),
            crystals=list(data["crystals"]),
            stack=list(data["stack"]),
            shuffles=data["shuffles"],
            phase=Phase(data["phase"]),
            round=Round.from_json(data["round"]),
            history=[Round.from_json(r) for r in data["history"]],
            winners=list(data["winners"]),
        )


_HANDLERS = {
    "roll": HasteWorte._roll,
    "pick": HasteWorte._pick,
    "correct": HasteWorte._correct,
    "letter": HasteWorte._letter,
    "timer_start": HasteWorte._timer_start,
    "timer_cancel": HasteWorte._timer_cancel,
    "timer_interrupted": HasteWorte._timer_interrupted,
    "timer_expired": HasteWorte._timer_expired,
    "score": HasteWorte._score,
}


def _quiet(key: str, **params: Any) -> Announcement:
    return Announcement(key, params, speak=False, sound=Sound.NONE)


def _seconds(value: float) -> int | float:
    return int(value) if float(value).is_integer() else value


def _stamp(action: dict[str, Any]) -> float:
    at = action.get("at")
    if isinstance(at, bool) or not isinstance(at, int | float):
        raise TimerError("haste.error.timer_stamp", action=str(action.get("action")))
    return float(at)


def _players(value: Any) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(p, str) and p.strip() for p in value):
        raise SetupError("haste.error.setup_players")
    names = [p.strip() for p in value]
    if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
        raise SetupError("haste.error.player_count", n=len(names), lo=MIN_PLAYERS, hi=MAX_PLAYERS)
    folded = [name_key(n) for n in names]
    twice = sorted({n for n, f in zip(names, folded, strict=True) if folded.count(f) > 1})
    if twice:
        raise SetupError("haste.error.player_twice", player=", ".join(twice))
    return names


def _first_player(value: Any, players: list[str]) -> int:
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < len(players):
        return value
    if isinstance(value, str):
        for i, p in enumerate(players):
            if name_key(p) == name_key(value):
                return i
    raise SetupError("haste.error.setup_first", player=str(value), players=", ".join(players))


#: variant names the setup screen sends, and the rulebook's numbers
VARIANTS = {"letter-first": 1, "simultaneous": 2, 1: 1, 2: 2}


def _variant(value: Any) -> tuple[bool, bool]:
    """0 / "standard"; 1 / "letter-first"; 2 / "simultaneous"; or a list of them to combine both variants."""
    if value in (0, None, "standard"):
        return False, False
    chosen = value if isinstance(value, list) else [value]
    known = all(not isinstance(v, bool) and isinstance(v, int | str) and v in VARIANTS for v in chosen)
    if not chosen or not known:
        raise SetupError("haste.error.setup_variant", value=json.dumps(value))
    numbers = {VARIANTS[v] for v in chosen}
    return 1 in numbers, 2 in numbers


#: letters said with a word ("B wie Berta", "B as in Bravo"): heard through espeak-ng, B, D, E, G, P and T sound
#: alike, and the table writes words to the letter it heard
SPELLED = frozenset(ALPHABET)


def _spelled(letter: str) -> str | dict[str, str]:
    """The letter as said: a single letter with its word, a token of several letters ("SCH") as it is."""
    return {"key": f"haste.spell.{letter}"} if letter in SPELLED else letter


def _letters(value: Any) -> list[str]:
    """Letter tokens: a string ("ABD...") or a list (["A", "SCH", ...]); upper-cased, 2 to 60 tokens."""
    tokens = list(value) if isinstance(value, str) else value
    if (
        not isinstance(tokens, list)
        or not 2 <= len(tokens) <= 60
        or not all(isinstance(x, str) and 1 <= len(x.strip()) <= 3 and x.strip().isalpha() for x in tokens)
    ):
        raise SetupError("haste.error.setup_letters", value=json.dumps(value, ensure_ascii=False, default=str))
    return [x.strip().upper() for x in tokens]
