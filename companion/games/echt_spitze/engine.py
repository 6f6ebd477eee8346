"""Echt Spitze as the companion runs it: turn flow, first to score, bees, shapes, solo, final scoring.

Players cross on their own paper; the engine keeps only what the table shares or forgets. Rule readings
where the rulebook leaves room (they are repeated in ``docs/echt_spitze.md``):

- Dice: players + 2 dice (solo: the 3 extra-cross dice). With 2-3 players the companion says how many dice
  *without* extra cross go back in the box; a roll may never show more than 3 extra-cross marks.
- A player's extra-cross reminder counts the mark on the die they took plus a mark on either middle die (they
  may choose it); it always adds "none if any cross would hit a soap bubble", which only the sheet knows.
- Kinds (levels 1, 2) and shapes (level 3) are named by the table with their two printed values
  ``[higher, lower]``: in the setup (``kinds``/``shapes``) or, the first time one is reported, with
  ``values``. The companion cannot see the pad, so it never guesses a value.
- Several kinds may be completed in one turn (extra crosses); only one beehive and one shape per player per
  turn. In the last turn every kind completed that turn still scores (a player may end with four kinds). A kind
  or shape scores once per player (the overview has one circle per value; a second completion is refused).
- Two kinds may be printed with the same values (pears 5/3, plums 5/3): the screen names a kind by its values, the
  first "5/3", another one "5/3 (2)" (said "5/3 no. 2"), each with its own first to score. Being first with such a
  kind where another of the same values had a first already is said with which is meant (``_which_kind``).
- Piercing turns the sheet (all levels; in level 3 the hole counts on both sides but the sheet turns once).
  Landing on an existing hole lets the player slip through (turn without a new hole); a hole must exist.
- Beehives (level 2) are the fields 1-1, 2-2, 3-3, 4-4 and 5-5 of each side: the rulebook's "crossed with the
  matching coordinates 1-1 to 5-5" read as a pair of equal numbers, as its solo rule reads it ("two equal numbers
  ... blacken the corresponding beehive field"), which names a beehive for every pair. "2-5" is no beehive.
- Bees: a beehive crossed this turn is blackened at the end of the turn by everybody who did not cross the
  same coordinate this turn, on the side they are on after this turn's piercing, unless their own hive there
  is already crossed (safe) or already blackened. A crossed hive is secured on the side the crosser was on
  when the turn began; in a turn that pierced a bubble on the side after it: such a turn's crosses are the
  bubble and "the same field on the back" (no extra cross), so a hive crossed then is that field on the back.
  Crossing the same hive on the same side twice does not release bees again: said, not refused (a game saved
  before the pierced turn's reading, which secured such a hive on the front, must replay).
- Solo: 14 rounds, odd rounds "!" (re-roll required), even "?" (optional); kinds/shapes scored in rounds 1-7
  get the higher value, later the lower; the solo game ends only after round 14. Level 2 solo: two equal
  numbers (a "?" is no number) in the roll at the start of a round blacken that beehive, never a re-roll. A
  correction of that roll before the middle dice are re-rolled applies the rule again (a beehive blackened for a
  misread pair is given back); after a re-roll the roll's other faces are gone, so it does not.
- Final scoring: levels 1, 2: kinds + stars x star value (level 2's value is not in the rulebook: give it
  in the setup or with the first ``final`` entry) + leftover symbols + honeycombs (level 2). Level 3:
  shapes + (diagonals <= 2 + diamonds <= 1) x 8 + pierced bubbles without a star. Ties go to the most holes,
  then the victory is shared.

>>> g = EchtSpitze.new({"action": "setup", "players": ["Anna", "Ben"], "kinds": {"lemons": [9, 7]}})
>>> _ = g.apply({"action": "roll", "dice": ["1", "2+X", "3", "?+X"]})
>>> _ = g.apply({"action": "take", "die": 2})
>>> g.current_taker
'Ben'
"""

from __future__ import annotations

import copy
import random
import re
from collections.abc import Callable
from dataclasses import replace
from typing import Any, ClassVar, Self

from companion.announce import Announcement, Sound
from companion.games.echt_spitze.errors import (
    DiceError,
    EchtError,
    FinalScoreError,
    ReportError,
    SetupError,
    TakeError,
    TurnError,
    UnknownActionError,
)
from companion.games.echt_spitze.state import (
    ALL_FACES,
    DEFAULT_STAR_VALUE,
    EXTRA_DICE,
    EXTRA_FACE_OF,
    EXTRA_FACES,
    GAME_END_COUNT,
    GRID,
    MIDDLE_DICE,
    PLAIN_FACES,
    SIDES,
    SOLO_HALFTIME,
    SOLO_ROUNDS,
    TOTAL_DICE,
    FinalEntry,
    Phase,
    PlayerState,
    Report,
    TableState,
    has_extra,
    hive_key,
    hive_side,
    marked_on,
    number,
    too_many_crosses,
)
from companion.names import name_key

MAX_PLAYERS = 4
MAX_NAME = 20
MAX_STARS = 2 * 2 * GRID  # rows and columns, front and back
MAX_LEFTOVER = 2 * GRID * GRID  # every field of both sides
MAX_VALUE = 99
#: the highest number each field of a final score may take (the screen's "+" stops there)
# level 3's sheet has no leftover symbols: its "leftover" points are the pierced bubbles that made no star
LEFTOVER_NAME = {3: "bubbles"}
FINAL_MAX = {"stars": MAX_STARS, "leftover": MAX_LEFTOVER, "diagonals": 2, "diamonds": 1, "star_value": MAX_VALUE}


def _screen(key: str, **params: Any) -> Announcement:
    """A reminder for the screen only: not spoken, no chime."""
    return Announcement(key, params, speak=False, sound=Sound.NONE)


def _say(key: str, **params: Any) -> Announcement:
    return Announcement(key, params)


#: a first as said: the kind's words, its higher value, and which kind it is where its values were first before
_First = tuple[str | dict[str, Any], int, list[Announcement]]


def _turn_call(player: str) -> Announcement:
    """Who starts the round: taken back once the dice are thrown (``until``), as Haste Worte's round call. Behind the
    last round's scores it came 8-10 s late in 5 turns of 5, after the roll."""
    return replace(_say("echt.turn.start", player=player), until=("roll",))


#: what answers a call: taking a die, leaving or re-rolling the middle (the call stood over the next player's turn
#: at a quick table, the middle's question over the reports)
TAKEN, MIDDLE_DONE = ("take",), ("leave", "reroll")


def _take_call(player: str) -> Announcement:
    """Whose take it is, said (it was screen-only: a player who cannot see the screen waited for a word): a call a
    take answers, taken back where it waits or plays, so a quick table never waits for it."""
    return Announcement("echt.take.next", {"player": player}, prompt=True, until=TAKEN)


def _int_field(action: dict[str, Any], key: str, lo: int, hi: int, err: Callable[..., EchtError],
               name: str | None = None) -> int:
    """``name`` is what the sheet calls the field where that differs by level (level 3's "leftover" is its pierced
    bubbles without a star, not leftover symbols)."""
    value = action.get(key, 0)
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise err(f"echt.err.final_{name or key}", value=repr(value), lo=lo, hi=hi)
    return value


def parse_coord(value: Any) -> str:
    """A beehive coordinate as "row-column": accepts "4-4", "4 4", "44", [4, 4] or the number alone (4, "4").
    Beehives are the fields 1-1 to 5-5, row and column equal (see the module's readings): "2-5" is refused."""
    if isinstance(value, list) and len(value) == 2:
        parts = [str(v) for v in value]
    elif isinstance(value, int) and not isinstance(value, bool):
        parts = [str(value)] * 2
    elif isinstance(value, str):
        cleaned = value.replace(" ", "-").replace("/", "-").strip("-")
        parts = cleaned.split("-") if "-" in cleaned else list(cleaned)
        parts = parts * 2 if len(parts) == 1 else parts
    else:
        parts = []
    digits = {str(n) for n in range(1, GRID + 1)}
    if len(parts) != 2 or not all(p in digits for p in parts):
        raise ReportError("echt.err.bad_coord", value=str(value))
    if parts[0] != parts[1]:
        raise ReportError("echt.err.not_a_hive", value=f"{parts[0]}-{parts[1]}")
    return f"{parts[0]}-{parts[1]}"


#: a kind or shape the screen named by its two values: "5/3", and "5/3 (2)" for another kind printed with the same
#: values (pears 5/3 and plums 5/3 are two kinds: merged under one name, plums scored 3 where nobody had them)
_BY_VALUES = re.compile(r"(\d+)/(\d+)(?: \((\d+)\))?")


def by_values(kind: str) -> tuple[int, int, int] | None:
    """(higher, lower, n) of a kind named by its values ("5/3" is the first such kind, n 1; "5/3 (2)" the second);
    None for a kind with a name of its own ("lemons")."""
    m = _BY_VALUES.fullmatch(kind)
    return None if m is None else (int(m[1]), int(m[2]), int(m[3] or 1))


def another_kind(overview: dict[str, list[int]], values: list[int]) -> str:
    """The name for one more kind printed with ``values`` (the first "5/3", then "5/3 (2)", "5/3 (3)")."""
    base = f"{values[0]}/{values[1]}"
    known = {k.casefold() for k in overview}
    return next(name for n in range(1, len(overview) + 2)
                if (name := base if n == 1 else f"{base} ({n})").casefold() not in known)


def kind_words(overview: dict[str, list[int]], kind: str) -> str | dict[str, Any]:
    """How a kind is said: by its name, a second kind of the same values as "5/3 no. 2" ("5/3 (2)" read aloud as
    "five three two"); a JSON value for an announcement's parameter (``Announcement.text`` says it in the language)."""
    named = by_values(kind)
    if named is None or named[2] == 1 or overview.get(kind) != list(named[:2]):
        return kind
    return {"key": "echt.kind.nth", "params": {"values": f"{named[0]}/{named[1]}", "nth": named[2]}}


def _parse_overview(raw: Any, what: str) -> dict[str, list[int]]:
    if raw is None:
        return {}
    if not isinstance(raw, dict):
        raise SetupError("echt.err.overview_format", what=what)
    out: dict[str, list[int]] = {}
    for name, values in raw.items():
        out[_check_name(name, what)] = _check_values(values, name)
    return out


def _check_name(name: Any, what: str) -> str:
    if not isinstance(name, str) or not name.strip() or len(name.strip()) > MAX_NAME:
        raise SetupError("echt.err.overview_format", what=what)
    return name.strip()


def _check_values(values: Any, name: str) -> list[int]:
    ok = (isinstance(values, list) and len(values) == 2
          and all(isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= MAX_VALUE for v in values)
          and values[0] >= values[1])
    if not ok:
        raise SetupError("echt.err.values_format", name=str(name), value=repr(values))
    return [values[0], values[1]]


class EchtSpitze:
    """The Echt Spitze engine: ``new(setup)``, ``apply(action)``, JSON round-trip (see the module doc)."""

    name: ClassVar[str] = "echt-spitze"

    def __init__(self, state: TableState) -> None:
        self.state = state

    def __eq__(self, other: object) -> bool:
        return isinstance(other, EchtSpitze) and other.state == self.state

    # -- the Engine protocol ---------------------------------------------------------------------------------
    @classmethod
    def new(cls, setup: dict[str, Any]) -> Self:
        return cls(cls._setup_state(setup))

    def apply(self, action: dict[str, Any]) -> list[Announcement]:
        handlers: dict[str, Callable[[TableState, dict[str, Any]], list[Announcement]]] = {
            "roll": self._roll,
            "take": self._take,
            "leave": self._leave,
            "reroll": self._reroll,
            "correct": self._correct,
            "report": self._report,
            "end_turn": self._end_turn,
            "final": self._final,
        }
        work = copy.deepcopy(self.state)  # every handler edits the copy: an error leaves the game untouched
        handler = handlers.get(str(action.get("action")))
        if handler is None:
            raise UnknownActionError("echt.err.unknown_action", name=str(action.get("action")),
                                     known=", ".join(handlers))
        announcements = handler(work, action)
        self.state = work
        return announcements

    def to_json(self) -> dict[str, Any]:
        return self.state.to_json()

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Self:
        return cls(TableState.from_json(data))

    @property
    def finished(self) -> bool:
        return self.state.phase is Phase.OVER

    # -- what the screen shows -------------------------------------------------------------------------------
    @property
    def opening_announcements(self) -> list[Announcement]:
        """What to say when the game starts (the setup is not an ``apply``): dice to put back, who starts."""
        return self._opening()

    @property
    def phase(self) -> Phase:
        return self.state.phase

    @property
    def start_player(self) -> str:
        return self.state.players[self.state.start].name

    @property
    def take_order(self) -> list[int]:
        n = len(self.state.players)
        return [(self.state.start + k) % n for k in range(n)]

    @property
    def current_taker(self) -> str | None:
        """Who takes a die now (None outside the taking)."""
        if self.state.phase is not Phase.TAKE:
            return None
        return self.state.players[self._next_taker(self.state)].name

    @property
    def middle(self) -> list[int]:
        """Indices (into ``state.dice``) of the dice nobody took: the two middle dice once all hold one."""
        return self._middle(self.state)

    @property
    def dice_count(self) -> int:
        return self._dice_count(self.state)

    @property
    def solo_sign(self) -> str | None:
        """"!" (re-roll required) or "?" (optional) for the solo round; None in a multiplayer game."""
        if not self.state.solo:
            return None
        return "!" if self.state.turn % 2 == 1 else "?"

    def holder(self, die: int) -> str | None:
        for p in self.state.players:
            if p.holds == die:
                return p.name
        return None

    def extra_crosses(self, player: str) -> int:
        """The most extra crosses the player may place this turn (own die's mark + a middle die's mark); none once
        the regular cross pierced a soap bubble ("If your regular cross lands on a field with a soap bubble, you may
        not place an extra cross in this turn": the reminder stood beside the reported piercing)."""
        s = self.state
        if s.phase is not Phase.SCORE:
            return 0
        p = self._player(s, player)
        if p.report.pierced:
            return 0
        own = p.holds is not None and has_extra(s.dice[p.holds])
        mid = any(has_extra(s.dice[i]) for i in self._middle(s))
        return int(own) + int(mid)

    def virtual_faces(self) -> list[tuple[str, ...]]:
        """The faces of each die to roll now (for ``session.virtual_roll`` when the table has no camera)."""
        return self._models(self.state)

    def points(self, player: str) -> int:
        """Points from scored kinds or shapes so far (what the companion knows without the sheet)."""
        return sum(self._player(self.state, player).scored.values())

    # -- setup -----------------------------------------------------------------------------------------------
    @classmethod
    def _setup_state(cls, setup: dict[str, Any]) -> TableState:
        players = setup.get("players")
        if not isinstance(players, list) or not all(isinstance(p, str) and p.strip() for p in players):
            raise SetupError("echt.err.players_format")
        names = [p.strip() for p in players]
        if not 1 <= len(names) <= MAX_PLAYERS:
            raise SetupError("echt.err.players_count", count=len(names))
        if len(set(map(name_key, names))) != len(names):
            raise SetupError("echt.err.players_unique")
        if any(len(n) > MAX_NAME for n in names):
            raise SetupError("echt.err.players_long", max=MAX_NAME)
        level = setup.get("level", 1)
        if isinstance(level, bool) or level not in (1, 2, 3):
            raise SetupError("echt.err.level", value=repr(level))
        if level == 3:
            if "kinds" in setup:
                raise SetupError("echt.err.kinds_in_level3")
            overview = _parse_overview(setup.get("shapes"), "shapes")
        else:
            if "shapes" in setup:
                raise SetupError("echt.err.shapes_in_level12", level=level)
            overview = _parse_overview(setup.get("kinds"), "kinds")
        star_value = setup.get("star_value", DEFAULT_STAR_VALUE.get(level))
        if star_value is not None and not _valid_star_value(star_value):
            raise SetupError("echt.err.star_value", value=repr(star_value))
        extra_faces = setup.get("extra_faces", "every")
        if extra_faces not in ("one", "every"):
            raise SetupError("echt.err.extra_faces", value=repr(extra_faces))
        start = setup.get("start", 0)
        folded = [name_key(n) for n in names]
        if isinstance(start, int) and not isinstance(start, bool) and 0 <= start < len(names):
            start = names[start]  # the app's setup wizard gives the seat index
        if not isinstance(start, str) or name_key(start) not in folded:
            raise SetupError("echt.err.start", value=repr(start), players=names)
        return TableState(
            players=[PlayerState(name=n) for n in names],
            level=level,
            overview=overview,
            star_value=star_value,
            seed=str(setup.get("seed", "echt-spitze")),
            extra_faces=extra_faces,
            start=folded.index(name_key(start)),
        )

    def _opening(self) -> list[Announcement]:
        s = self.state
        if s.solo:
            return [_say("echt.setup.solo", level=s.level), *self._round_start(s)]
        n = self._dice_count(s)
        # who begins first: the first roll takes the call back (``until``), and behind the 6 s of putting dice back
        # it was never heard at a table that rolled at once. The roll answers the dice's sentence too: a roll is taken
        # only with the dice played (``_faces``), and after a quick first roll "put 2 dice back in the box" was said
        # whole over the dice being taken
        setup = _say("echt.setup.all_dice") if n == TOTAL_DICE else \
            _say(f"echt.setup.put_back_{TOTAL_DICE - n}", dice=n)
        return [_turn_call(self.start_player), replace(setup, until=("roll",))]

    # -- helpers ---------------------------------------------------------------------------------------------
    @staticmethod
    def _dice_count(s: TableState) -> int:
        return EXTRA_DICE if s.solo else len(s.players) + MIDDLE_DICE

    @staticmethod
    def _middle(s: TableState) -> list[int]:
        held = {p.holds for p in s.players}
        return [i for i in range(len(s.dice)) if i not in held]

    def _next_taker(self, s: TableState) -> int:
        n = len(s.players)
        for k in range(n):
            seat = (s.start + k) % n
            if s.players[seat].holds is None:
                return seat
        raise AssertionError("everybody holds a die")  # TAKE ends when the last player takes

    @staticmethod
    def _player(s: TableState, name: Any) -> PlayerState:
        if isinstance(name, str):
            for p in s.players:
                if name_key(p.name) == name_key(name):
                    return p
        raise TurnError("echt.err.unknown_player", name=str(name), players=[p.name for p in s.players])

    def _expect(self, s: TableState, *phases: Phase) -> None:
        if s.phase in phases:
            return
        who = s.players[self._next_taker(s)].name if s.phase is Phase.TAKE else s.players[s.start].name
        raise TurnError(f"echt.err.wait_{s.phase.value}", player=who)

    def _check_actor(self, s: TableState, action: dict[str, Any], seat: int) -> None:
        """An action may name its player; if it does, it must be the one whose move it is."""
        if "player" in action and self._player(s, action["player"]) is not s.players[seat]:
            raise TurnError("echt.err.not_your_move", player=str(action["player"]),
                            expected=s.players[seat].name)

    def _faces(self, s: TableState, action: dict[str, Any], count: int,
               models: list[tuple[str, ...]]) -> list[str]:
        raw = action.get("dice")
        if raw is None:  # no camera and no faces given: roll from the seed, reproducible on replay
            rng = random.Random(f"{s.seed}:{s.rolls}")
            s.rolls += 1
            return [rng.choice(m) for m in models]
        if not isinstance(raw, list):
            raise DiceError("echt.err.dice_format")
        if len(raw) != count:  # more than played: a die put back in the box, or something that is no die, lies there
            if s.phase is Phase.REROLL:  # only the middle's dice go in: "all the dice" would fetch the taken ones too,
                key = "echt.err.reroll_too_many" if len(raw) > count else "echt.err.reroll_count"  # and they stay out
            else:
                key = "echt.err.dice_too_many" if len(raw) > count else "echt.err.dice_count"
            raise DiceError(key, expected=count, got=len(raw))
        faces: list[str] = []
        for i, face in enumerate(raw, start=1):
            if face is None:
                raise DiceError("echt.err.die_unread", die=i)
            if not isinstance(face, str) or face not in ALL_FACES:
                raise DiceError("echt.err.bad_face", die=i, face=str(face))
            faces.append(face)
        return faces

    @staticmethod
    def _check_extra_count(dice: list[str]) -> None:
        if too_many_crosses(dice):
            raise DiceError("echt.err.too_many_extra", count=sum(has_extra(f) for f in dice), max=EXTRA_DICE)

    # -- rolling and taking ----------------------------------------------------------------------------------
    def _roll(self, s: TableState, action: dict[str, Any]) -> list[Announcement]:
        self._expect(s, Phase.ROLL, Phase.REROLL)
        if s.phase is Phase.ROLL:
            models = self._models(s)
            faces = self._faces(s, action, len(models), models)
            self._check_extra_count(faces)
            s.dice = faces
            s.phase = Phase.TAKE
            out: list[Announcement] = []
            s.pair_bees = None
            if s.solo and s.level == 2:
                out += self._solo_pair_bees(s)
            out.append(_take_call(s.players[self._next_taker(s)].name))
            return out
        middle = self._middle(s)
        models = self._models(s)
        faces = self._faces(s, action, MIDDLE_DICE, models)
        dice = list(s.dice)
        for i, face in zip(middle, faces, strict=True):
            dice[i] = face
        self._check_extra_count(dice)
        s.dice = dice
        s.phase = Phase.SCORE
        return self._middle_settled(s)

    @classmethod
    def _models(cls, s: TableState) -> list[tuple[str, ...]]:
        """Faces per die for a virtual roll. Each of the 3 extra-cross dice carries its mark on one face (the first
        three dice of a roll, EXTRA_FACE_OF): with the mark on every face each roll showed three crosses, where the
        rulebook's dice show one now and then. A re-rolled middle die is one of them where it showed a mark (on
        that face), or where its place in the roll is one of theirs whose mark no other die shows; never more
        marked dice than the 3 less the marks on the dice taken (a roll read by a camera lies in any order).
        Setups from before ``extra_faces``: the mark on every face, as they were played."""
        if s.extra_faces == "every":
            if s.phase is Phase.REROLL:
                return [EXTRA_FACES if has_extra(s.dice[i]) else PLAIN_FACES for i in cls._middle(s)]
            return [EXTRA_FACES] * EXTRA_DICE + [PLAIN_FACES] * (cls._dice_count(s) - EXTRA_DICE)
        if s.phase is not Phase.REROLL:
            return [marked_on(f) for f in EXTRA_FACE_OF] + [PLAIN_FACES] * (cls._dice_count(s) - EXTRA_DICE)
        middle = cls._middle(s)
        room = EXTRA_DICE - sum(has_extra(f) for i, f in enumerate(s.dice) if i not in middle)
        shown = {number(f) for f in s.dice if has_extra(f)}
        models: list[tuple[str, ...]] = []
        for i in middle:
            mark = number(s.dice[i]) if has_extra(s.dice[i]) else \
                EXTRA_FACE_OF[i] if i < EXTRA_DICE and EXTRA_FACE_OF[i] not in shown else None
            if mark is not None and room > 0:
                models.append(marked_on(mark))
                shown.add(mark)
                room -= 1
            else:
                models.append(PLAIN_FACES)
        return models

    def _take(self, s: TableState, action: dict[str, Any]) -> list[Announcement]:
        self._expect(s, Phase.TAKE)
        seat = self._next_taker(s)
        self._check_actor(s, action, seat)
        if "die" in action:
            die = action["die"]
            if isinstance(die, bool) or not isinstance(die, int) or not 1 <= die <= len(s.dice):
                raise TakeError("echt.err.no_such_die", die=str(die), count=len(s.dice))
            index = die - 1
            holder = next((p.name for p in s.players if p.holds == index), None)
            if holder is not None:
                raise TakeError("echt.err.die_taken", die=die, face=s.dice[index], holder=holder)
        elif "face" in action:
            face = action["face"]
            free = [i for i in self._middle(s) if s.dice[i] == face]
            if not free:
                raise TakeError("echt.err.face_not_free", face=str(face),
                                free=", ".join(s.dice[i] for i in self._middle(s)))
            index = free[0]
        else:
            raise TakeError("echt.err.take_which")
        player = s.players[seat]
        player.holds = index
        taken = s.dice[index]  # "Oma takes the 5 with the extra cross": the screen showed the notation "5+X"
        out = [_screen("echt.take.done_extra", player=player.name, face=number(taken)) if has_extra(taken)
               else _screen("echt.take.done", player=player.name, face=taken)]
        if any(p.holds is None for p in s.players):
            # the take said, then the next call ("Anna nimmt die 1." "Ben: nimm einen Würfel."), both were
            # screen-only. Two sentences: in one, the next take took it back with the call and broke it off
            done = out.pop()
            return [replace(done, speak=True, sound=Sound.CHIME, detail=True),
                    _take_call(s.players[self._next_taker(s)].name)]
        s.phase = Phase.MIDDLE
        start = s.players[s.start].name
        if s.solo:
            key = "echt.solo.must_reroll" if s.turn % 2 == 1 else "echt.solo.may_reroll"
            out.append(replace(_say(key, player=start), until=MIDDLE_DONE))
        else:
            out.append(replace(_say("echt.middle.choose", player=start), until=MIDDLE_DONE))
        return out

    def _leave(self, s: TableState, action: dict[str, Any]) -> list[Announcement]:
        self._expect(s, Phase.MIDDLE)
        self._check_actor(s, action, s.start)
        if s.solo and s.turn % 2 == 1:
            raise TurnError("echt.err.solo_must_reroll", round=s.turn)
        s.middle_choice = "leave"
        s.phase = Phase.SCORE
        return [_say("echt.middle.leave", player=s.players[s.start].name), *self._middle_settled(s)]

    def _reroll(self, s: TableState, action: dict[str, Any]) -> list[Announcement]:
        self._expect(s, Phase.MIDDLE)
        self._check_actor(s, action, s.start)
        s.middle_choice = "reroll"
        s.phase = Phase.REROLL
        out = [_say("echt.middle.reroll", player=s.players[s.start].name)]
        if "dice" in action:  # decision and reading in one line (a transcript convenience)
            out += self._roll(s, {"action": "roll", "dice": action["dice"]})
        return out

    def _middle_settled(self, s: TableState) -> list[Announcement]:
        a, b = (number(s.dice[i]) for i in self._middle(s))
        return [_say("echt.middle.result", a=a, b=b), *self._extra_reminders(s)]

    def _extra_reminders(self, s: TableState) -> list[Announcement]:
        marked = [number(s.dice[i]) for i in self._middle(s) if has_extra(s.dice[i])]
        out: list[Announcement] = []
        middle_only: list[str] = []
        for p in s.players:
            own = p.holds is not None and has_extra(s.dice[p.holds])
            if own and len(marked) == 2:
                out.append(_screen("echt.extra.own_and_both", player=p.name))
            elif own and marked:
                out.append(_screen("echt.extra.own_and_middle", player=p.name, face=marked[0]))
            elif own:
                out.append(_screen("echt.extra.own", player=p.name))
            elif marked:
                middle_only.append(p.name)
        if middle_only:
            # four players' names with the sentence took four lines at FAR, over the dice: where every player (or
            # all but one) has only the middle's mark, the sentence says so without the names
            key = "echt.extra.middle_both" if len(marked) == 2 else "echt.extra.middle"
            others = [p.name for p in s.players if p.name not in middle_only]
            if len(s.players) > 1 and not others:
                out.append(_screen(f"{key}_all", face=marked[0]))
            elif len(middle_only) > 2 and len(others) == 1:
                out.append(_screen(f"{key}_but", player=others[0], face=marked[0]))
            else:
                out.append(_screen(key, players=middle_only, face=marked[0]))
        return out

    def _correct(self, s: TableState, action: dict[str, Any]) -> list[Announcement]:
        self._expect(s, Phase.TAKE, Phase.MIDDLE, Phase.SCORE)
        die = action.get("die")
        if isinstance(die, bool) or not isinstance(die, int) or not 1 <= die <= len(s.dice):
            raise DiceError("echt.err.no_such_die", die=str(die), count=len(s.dice))
        face = action.get("face")
        if not isinstance(face, str) or face not in ALL_FACES:
            raise DiceError("echt.err.bad_face", die=die, face=str(face))
        dice = list(s.dice)
        dice[die - 1] = face
        self._check_extra_count(dice)
        s.dice = dice
        out = self._pair_corrected(s) if s.solo and s.level == 2 else []
        return out + (self._middle_settled(s) if s.phase is Phase.SCORE else [])

    def _pair_corrected(self, s: TableState) -> list[Announcement]:
        """Level 2 solo: the pair rule again for a corrected roll, while the round's roll lies as thrown (before
        the middle dice are re-rolled: after, the roll's other faces are gone). A beehive blackened for a pair
        the roll did not have is taken back ("rub it out"); one the corrected roll has is blackened."""
        if s.middle_choice == "reroll":
            return []
        before, p = s.pair_bees, s.players[0]
        if before is not None:
            p.hives_blackened.remove(before)
            s.pair_bees = None
        out = self._solo_pair_bees(s)
        if s.pair_bees is not None and p.report.beehive is not None and s.pair_bees == hive_key(
                hive_side(p, p.report.pierced), p.report.beehive):
            # crossed this turn, reported before the correction: the pair lay on the table from the round's start,
            # so the hive was black before anything was crossed (it stood crossed and black, and scored)
            out.append(_say("echt.solo.bees_report_void", coord=p.report.beehive))
            p.report.beehive = None
        if s.pair_bees == before:
            return []  # the same beehive: already said
        if before is not None:
            out.insert(0, _say("echt.solo.bees_off", coord=before.split(":")[1]))
        return out

    def _solo_pair_bees(self, s: TableState) -> list[Announcement]:
        numbers = [number(f) for f in s.dice if number(f) != "?"]
        pair = next((n for n in sorted(set(numbers)) if numbers.count(n) >= 2), None)
        if pair is None:
            return []
        coord = f"{pair}-{pair}"
        p = s.players[0]
        key = hive_key(p.side, coord)
        if key in p.hives_crossed:
            return [_say("echt.solo.bees_safe", coord=coord)]
        if key in p.hives_blackened:
            return []
        p.hives_blackened.append(key)
        s.pair_bees = key
        return [_say("echt.solo.bees", coord=coord)]

    # -- what players completed ------------------------------------------------------------------------------
    def _report(self, s: TableState, action: dict[str, Any]) -> list[Announcement]:
        self._expect(s, Phase.SCORE)
        p = self._player(s, action.get("player"))
        r = copy.deepcopy(p.report)
        out: list[Announcement] = []
        kinds = action.get("kinds", [])
        if "kind" in action:
            kinds = [action["kind"], *kinds]
        if not isinstance(kinds, list):
            raise ReportError("echt.err.kinds_format")
        if kinds and s.level == 3:
            raise ReportError("echt.err.kind_in_level3")
        values = action.get("values")
        if values is not None and len(kinds) + int("shape" in action) != 1:
            raise ReportError("echt.err.values_one")
        for kind in kinds:
            kind = self._known(s, kind, values, "echt.err.unknown_kind")
            if kind in p.scored:
                raise ReportError("echt.err.kind_scored", player=p.name, kind=kind)
            if kind in r.kinds:
                raise ReportError("echt.err.kind_twice", player=p.name, kind=kind)
            r.kinds.append(kind)
            out.append(_screen("echt.report.kind", player=p.name, kind=kind_words(s.overview, kind)))
        if "shape" in action:
            if s.level != 3:
                raise ReportError("echt.err.shape_level", level=s.level)
            shape = self._known(s, action["shape"], values, "echt.err.unknown_shape")
            if r.shape is not None:
                raise ReportError("echt.err.shape_twice", player=p.name, shape=r.shape)
            if shape in p.scored:
                raise ReportError("echt.err.shape_scored", player=p.name, shape=shape)
            r.shape = shape
            out.append(_screen("echt.report.shape", player=p.name, shape=kind_words(s.overview, shape)))
        pierced = action.get("pierced", False) is True
        slipped = action.get("slip", False) is True
        if "beehive" in action:
            if s.level != 2:
                raise ReportError("echt.err.hive_level", level=s.level)
            if r.beehive is not None:
                raise ReportError("echt.err.hive_twice", player=p.name, coord=r.beehive)
            r.beehive = parse_coord(action["beehive"])
        if pierced and slipped:
            raise ReportError("echt.err.pierce_and_slip", player=p.name)
        if (pierced or slipped) and (r.pierced or r.slipped):
            raise ReportError("echt.err.pierce_twice", player=p.name)
        if slipped and p.holes == 0:
            raise ReportError("echt.err.no_hole", player=p.name)
        not_counted = None
        if r.beehive is not None and ("beehive" in action or pierced):  # checked on the side it was crossed on
            side = hive_side(p, pierced or r.pierced)
            key = hive_key(side, r.beehive)
            taken = "black" if key in p.hives_blackened else "crossed" if key in p.hives_crossed else None
            if taken == "black" and not (pierced or r.pierced):
                raise ReportError(f"echt.err.hive_black_{side}", player=p.name, coord=r.beehive)
            if taken:  # said aloud, and no bees: crossed again lets none loose; and a game saved before a pierced
                # turn's hive was the back's (checked and secured on the front then) must replay, not be put aside.
                # The screen offers neither: transcripts and old journals reach this. Another hive may be reported
                # after it (a correction), or the same after a pierce (then the back's)
                not_counted = _say(f"echt.report.hive_not_counted_{taken}_{side}", player=p.name, coord=r.beehive)
                r.beehive = None
        if r.beehive is not None and "beehive" in action:
            out.append(_screen("echt.report.hive", player=p.name, coord=r.beehive))
        if pierced or slipped:
            r.pierced, r.slipped = pierced, slipped
            other = SIDES[1 - SIDES.index(p.side)]
            how = "pierced" if pierced else "slipped"
            out.append(_screen(f"echt.report.{how}_{other}", player=p.name))
        if not_counted is not None:  # after "turn the sheet", which it is about; said, for a note is overtaken
            out.append(not_counted)
        if r == p.report and "beehive" not in action:
            raise ReportError("echt.err.report_empty")
        p.report = r
        return out

    @staticmethod
    def _known(s: TableState, name: Any, values: Any, missing_key: str) -> str:
        if not isinstance(name, str) or not name.strip():
            raise ReportError("echt.err.kinds_format")
        for known in s.overview:
            if known.casefold() == name.strip().casefold():
                if values is not None and _check_values_report(values, known) != s.overview[known]:
                    raise ReportError("echt.err.values_differ", name=known, known=str(s.overview[known]))
                return known
        if values is None:
            raise ReportError(missing_key, name=name.strip())
        s.overview[name.strip()] = _check_values_report(values, name.strip())
        return name.strip()

    # -- end of turn -----------------------------------------------------------------------------------------
    def _end_turn(self, s: TableState, action: dict[str, Any]) -> list[Announcement]:
        self._expect(s, Phase.SCORE)
        out: list[Announcement] = []
        sides_before = {p.name: p.side for p in s.players}
        for p in s.players:  # turning the sheet first: bees land on the side players end the turn on
            if p.report.pierced or p.report.slipped:
                p.side = SIDES[1 - SIDES.index(p.side)]
            if p.report.pierced:
                p.holes += 1
        out += self._score_kinds(s)
        if s.level == 2:
            out += self._bees(s, sides_before)
        for p in s.players:
            p.report = Report()
            p.holds = None
        s.dice = []
        s.middle_choice = None
        if s.solo:
            if s.turn >= SOLO_ROUNDS:
                # what to count, as the table's end says it, to one player: "Zähl deine Punkte" had the player add
                # up the kinds too, which the companion adds itself, and a symbol still to be circled was a leftover
                over, *notes = self._game_over(s, "echt.game_over.solo", [s.players[0].name])
                count = "echt.game_over.solo_count_shapes" if s.level == 3 else "echt.game_over.solo_count"
                return [*out, over, replace(_say(count), essential=True), *notes]
            s.turn += 1
            s.phase = Phase.ROLL
            return [*out, *self._round_start(s)]
        threshold = GAME_END_COUNT[s.level]
        enders = [p.name for p in s.players if len(p.scored) >= threshold]
        if enders:
            key = "echt.game_over.shapes" if s.level == 3 else "echt.game_over.kinds"
            # the end first, as a turn's call: behind the turn's firsts and later scores (five sentences at three
            # players) the table heard it 21 s after the turn. The count right after it, what everybody does now:
            # behind the results it came 13-22 s late. What the table counts (stars, leftover symbols) the results
            # do not change, the companion adds the kinds itself, and a scorer knows the kinds they reported. The
            # later scores are details then: reported by their scorers and shown in the final sum. It says what to
            # count, the final scoring's questions ("Zählt eure Punkte" had the table add up kinds and all), and to
            # circle the turn's kinds first (a symbol going into one is no leftover)
            over, *notes = self._game_over(s, key, enders)
            results = [replace(a, detail=True) if a.key.startswith("echt.later.") else a for a in out]
            count = "echt.game_over.count_shapes" if s.level == 3 else "echt.game_over.count"
            return [over, replace(_say(count), essential=True), *results, *notes]
        s.turn += 1
        s.start = (s.start + 1) % len(s.players)
        s.phase = Phase.ROLL
        # the call first: behind the turn's results (a first's sentence is 6-7 s with its chime) the roll came before
        # it and took it back; the results are heard after it all the same (a first's is essential)
        return [_turn_call(s.players[s.start].name), *out]

    def _score_kinds(self, s: TableState) -> list[Announcement]:
        """First to score: all completing a kind nobody had before get the higher value; later, the lower."""
        done: dict[str, list[PlayerState]] = {}
        for p in s.players:
            for kind in [*p.report.kinds, *([p.report.shape] if p.report.shape else [])]:
                done.setdefault(kind, []).append(p)
        order = [k for k in s.overview if k in done]
        out: list[Announcement] = []
        what = "shape" if s.level == 3 else "kind"
        firsts: dict[tuple[str, ...], list[_First]] = {}
        later: dict[str, list[str]] = {}  # kind: who scored it later
        for kind in order:
            scorers = done[kind]
            names = [p.name for p in scorers]
            high, low = s.overview[kind]
            said = kind_words(s.overview, kind)
            if s.solo:
                early = s.turn <= SOLO_HALFTIME
                scorers[0].scored[kind] = high if early else low
                key = f"echt.solo.{what}_{'high' if early else 'low'}"
                out.append(_say(key, name=said, points=high if early else low))
                continue
            if kind not in s.first:
                s.first[kind] = names
                for p in scorers:
                    p.scored[kind] = high
                # which kind, where another of its values was first before (said after the group's sentence, as
                # then): asked now, for a kind of the same values first later in this roll is not "before"
                which = [] if len(scorers) == len(s.players) else self._which_kind(s, kind, names)
                firsts.setdefault(tuple(names), []).append((said, high, which))
            else:
                for p in scorers:
                    p.scored[kind] = low
                later[kind] = names
        return [*self._firsts_said(s, firsts), *out, *self._later_said(s, later)]

    @staticmethod
    def _later_said(s: TableState, later: dict[str, list[str]]) -> list[Announcement]:
        """The later scores (``later``: each kind with who scored it later), a sentence for each player, players with
        the same kinds sharing one: a sentence for each kind ("Kiwis für Anna-Sophie: 3 Punkte.", "Birnen für
        Anna-Sophie: 5 Punkte.") took some 3 s more each with the game's end, and a player listens for their own name.
        By kind where that is fewer sentences (Anna with kiwis and pears, Ben with kiwis, Carla with pears)."""
        what = "shape" if s.level == 3 else "kind"
        kinds_of: dict[str, list[str]] = {}
        for kind, names in later.items():
            for name in names:
                kinds_of.setdefault(name, []).append(kind)
        groups: dict[tuple[str, ...], list[str]] = {}
        for p in s.players:
            if p.name in kinds_of:
                groups.setdefault(tuple(kinds_of[p.name]), []).append(p.name)
        if len(later) < len(groups):
            groups = {(kind,): names for kind, names in later.items()}
        out: list[Announcement] = []
        for kinds, names in groups.items():
            if len(kinds) == 1:
                kind = kinds[0]
                out.append(_say(f"echt.later.{what}", players=names, name=kind_words(s.overview, kind),
                                low=s.overview[kind][1]))
            else:  # several kinds (level 3 scores one shape a turn): "Anna-Sophie: Kiwis 3 und Birnen 5 Punkte."
                items = [{"key": "echt.later.item", "params": {"name": kind_words(s.overview, kind),
                                                               "low": s.overview[kind][1]}} for kind in kinds]
                out.append(_say("echt.later.kinds", players=names, items=items))
        return out

    @staticmethod
    def _firsts_said(s: TableState, firsts: dict[tuple[str, ...], list[_First]]) -> list[Announcement]:
        """Who was first with what, a sentence for each group of first scorers: one player first with three kinds
        at once heard three sentences, each with its chime (some 27 s with the game's end), and the next round's
        call after them."""
        what = "shape" if s.level == 3 else "kind"
        out: list[Announcement] = []
        for names_t, kinds in firsts.items():
            names = list(names_t)
            everybody = len(names) == len(s.players)
            many = "many" if len(names) > 1 else "one"
            if len(kinds) == 1:
                said, high, _ = kinds[0]
                key = f"echt.first.{what}_all" if everybody else f"echt.first.{what}_{many}"
                out.append(replace(_say(key, players=names, name=said, high=high), essential=True))
            else:
                key = f"echt.first.{what}s_all" if everybody else f"echt.first.{what}s_{many}"
                out.append(replace(_say(key, players=names, names=[said for said, _, _ in kinds],
                                        highs=[high for _, high, _ in kinds]), essential=True))
            out += [which for _, _, whiches in kinds for which in whiches]
        return out

    @staticmethod
    def _which_kind(s: TableState, kind: str, names: list[str]) -> list[Announcement]:
        """A kind named by its values that another kind of the same values was first with already: "everybody
        else crosses out the 5" does not say in which row. The first scorers say which symbols it is, as the rulebook
        has them announce the kind aloud, and the others cross out the number of that kind, not of the other one."""
        if by_values(kind) is None:
            return []
        earlier = [name for other, firsts in s.first.items() if other != kind and s.overview.get(other) ==
                   s.overview[kind] for name in firsts]
        if not earlier:
            return []
        high, low = s.overview[kind]
        what = "shape" if s.level == 3 else "kind"
        return [replace(_say(f"echt.first.{what}_which", players=names,
                             earlier=list(dict.fromkeys(earlier)), values=f"{high}/{low}", high=high),
                        essential=True)]

    def _bees(self, s: TableState, sides_before: dict[str, str]) -> list[Announcement]:
        crossed: dict[str, list[PlayerState]] = {}
        for p in s.players:
            if p.report.beehive:
                crossed.setdefault(p.report.beehive, []).append(p)
        out: list[Announcement] = []
        for coord in sorted(crossed):
            crossers = crossed[coord]
            for p in crossers:  # (the sheets are turned already: a pierced one's hive is on its new side)
                side = p.side if p.report.pierced else sides_before[p.name]
                p.hives_crossed.append(hive_key(side, coord))
            if s.solo:
                out.append(_screen("echt.solo.hive", coord=coord))
                continue
            victims: list[str] = []
            safe: list[str] = []
            for p in s.players:
                if p in crossers:
                    continue
                key = hive_key(p.side, coord)
                if key in p.hives_crossed:
                    safe.append(p.name)
                elif key not in p.hives_blackened:
                    p.hives_blackened.append(key)
                    victims.append(p.name)
            names = [p.name for p in crossers]
            if victims:  # a field to blacken now, as a first's number to cross out: never dropped as stale
                out.append(replace(_say("echt.bees.blacken", players=names, coord=coord, victims=victims),
                                   essential=True))
            else:
                out.append(_say("echt.bees.nobody", players=names, coord=coord))
            if safe:
                out.append(_say("echt.bees.safe", players=safe, coord=coord))
        return out

    def _round_start(self, s: TableState) -> list[Announcement]:
        out: list[Announcement] = []
        if s.turn == SOLO_HALFTIME + 1:
            out.append(_say("echt.solo.halftime"))
        key = "echt.solo.round_bang" if s.turn % 2 == 1 else "echt.solo.round_question"
        out.append(_say(key, round=s.turn, rounds=SOLO_ROUNDS))
        return out

    def _game_over(self, s: TableState, key: str, enders: list[str]) -> list[Announcement]:
        s.enders = enders
        s.phase = Phase.FINAL
        # what each level's sheet gives at the end: level 3 scores diagonals, diamonds and pierced bubbles (no
        # leftover symbols), level 2 counts its honeycombs itself
        return [replace(_say(key, players=enders), essential=True), _screen(f"echt.final.enter_level{s.level}")]

    # -- final scoring ---------------------------------------------------------------------------------------
    def _final(self, s: TableState, action: dict[str, Any]) -> list[Announcement]:
        self._expect(s, Phase.FINAL)
        p = self._player(s, action.get("player"))
        allowed = {"action", "player", "leftover", "star_value"} | (
            {"diagonals", "diamonds"} if s.level == 3 else {"stars"})
        extra = sorted(set(action) - allowed)
        if extra:
            raise FinalScoreError("echt.err.final_fields", fields=", ".join(extra),
                                  allowed=", ".join(sorted(allowed - {"action", "player"})))
        leftover = _int_field(action, "leftover", 0, FINAL_MAX["leftover"], FinalScoreError,
                              name=LEFTOVER_NAME.get(s.level))
        entry = FinalEntry(leftover=leftover)
        kinds = sum(p.scored.values())
        if "star_value" in action:  # level 2: the rulebook prints no star value; the sheet does
            if not _valid_star_value(action["star_value"]):
                raise FinalScoreError("echt.err.star_value", value=repr(action["star_value"]))
            if s.star_value is not None and action["star_value"] != s.star_value:
                raise FinalScoreError("echt.err.star_value_differs", value=s.star_value)
            s.star_value = action["star_value"]
        if s.star_value is None:
            raise FinalScoreError("echt.err.star_value_missing", level=s.level)
        if s.level == 3:
            entry.diagonals = _int_field(action, "diagonals", 0, FINAL_MAX["diagonals"], FinalScoreError)
            entry.diamonds = _int_field(action, "diamonds", 0, FINAL_MAX["diamonds"], FinalScoreError)
            entry.stars = entry.diagonals + entry.diamonds
        else:
            entry.stars = _int_field(action, "stars", 0, FINAL_MAX["stars"], FinalScoreError)
        star_points = entry.stars * s.star_value
        honey = len(p.hives_crossed) if s.level == 2 else 0
        entry.total = kinds + star_points + leftover + honey
        p.final = entry
        params = {"player": p.name, "kinds": kinds, "stars": star_points, "leftover": leftover,
                  "total": entry.total}
        if s.level == 2:
            out = [_screen("echt.final.sum_level2", honey=honey, **params)]
        else:
            out = [_screen(f"echt.final.sum_level{s.level}", **params)]
        if all(q.final is not None for q in s.players):
            out += self._winner(s)
        return out

    def _winner(self, s: TableState) -> list[Announcement]:
        s.phase = Phase.OVER
        s.winners, said = _verdict(s)
        return [said, *_ranking(s)]

    @property
    def ending(self) -> list[Announcement]:
        """How a tie at the top was decided, for the screen after the game: said once (maybe before a restart), and
        "Winner: Sara" beside Ben's equal points left the table asking why (most holes, else a shared victory)."""
        s = self.state
        if s.phase is not Phase.OVER or s.solo:
            return []
        said = _verdict(s)[1]
        return [said] if said.key in ("echt.winner.holes", "echt.winner.shared") else []


def _verdict(s: TableState) -> tuple[list[str], Announcement]:
    """Who won the finished game, and the sentence that says it (the rulebook: most points, then most holes pierced,
    then a shared victory)."""
    totals = {p.name: p.final.total for p in s.players if p.final is not None}
    if s.solo:
        name = s.players[0].name
        return [name], _say("echt.solo.total", player=name, points=totals[name])
    best = max(totals.values())
    top = [p for p in s.players if totals[p.name] == best]
    if len(top) == 1:
        return [top[0].name], _say("echt.winner.one", player=top[0].name, points=best)
    most = max(p.holes for p in top)
    by_holes = [p for p in top if p.holes == most]
    if len(by_holes) == 1:
        return [by_holes[0].name], _say("echt.winner.holes", player=by_holes[0].name, points=best, holes=most)
    winners = [p.name for p in by_holes]
    return winners, _say("echt.winner.shared", players=winners, points=best)


def _ranking(s: TableState) -> list[Announcement]:
    """Everybody else's points after the winner's sentence, best first ("Dahinter Ben mit 41 und Carla mit 38."):
    only the winner's were said, and a player who cannot read the sheets never heard where they stood."""
    rest = sorted((p for p in s.players if p.name not in s.winners and p.final is not None),
                  key=lambda p: (-p.final.total, -p.holes))  # type: ignore[union-attr]
    if s.solo or not rest:
        return []
    return [replace(_say("echt.ranking", ranks=[{"key": "echt.rank", "params": {"player": p.name,
                                                                                 "points": p.final.total}}
                                                for p in rest if p.final is not None]), detail=True)]


def _valid_star_value(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= MAX_VALUE


def _check_values_report(values: Any, name: str) -> list[int]:
    try:
        return _check_values(values, name)
    except SetupError as exc:
        raise ReportError(exc.key, **exc.params) from None
