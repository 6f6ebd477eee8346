"""Noch X-Mal! (Encore X!) as the companion runs it: the shared part of the game, not the players' sheets.

The companion keeps whose turn it is, the dice of each roll and which of them the others may use, every
player's start combo and pass-track count, who was first to reach each pink-outlined bonus, the X-chips left
and the gifts held, the end of the game with its tie-break, and the solo game's 30 rolls and rating.

Rule readings where the rulebook leaves room (also in ``docs/noch_x_mal.md``):

* Jokers never match a start combo on the pass track: a colour joker does not *show* the start colour.
* A joker in a start combo rejects the whole combo; the player rolls again (the engine does so itself for
  virtual start combos).
* Claims are settled per roll: everybody who reports a goal in the roll in which it is first reached gets
  the pink bonus (also reporting after someone else in the same roll); the announcement with all names
  comes when the roll ends, after everybody has crossed. Reporting a goal taken in an earlier roll is
  refused with the reason.
* A gift received in roll *n* may be used from roll *n + 1* on ("from the next turn on"). The joker gift
  may be used at any time after that, +/-1 and all-dice only while dice are out. All-dice is refused where
  it changes nothing (the active player, rolls 1-3, an active player who passed).
* The active player's pick is required before the roll can end only from roll 4 on; in rolls 1-3 a pick is
  recorded for the screen but changes nothing for the others, and a pass after it (rolls 1-3, solo) takes its
  place; from roll 4 the others choose from the dice it left, so a pass after it is refused.
* The solo game strokes the letter fields in order: rolls 1-15 draw "/" in A..O, rolls 16-30 draw "\\" in
  A..O. Below 6 X-chip symbols the rulebook gives no rating; the companion says so kindly.
* Ties: the numbers (X-chip symbols crossed, pass-track fields crossed, columns completed) are counted on
  the sheets and entered by the tied players, since only the sheets know them.
* A die of the roll in play that the camera read wrongly but for sure (nobody was asked) is corrected with
  ``correct`` until the roll ends: a colour die stays a colour die, a number die a number die (the read roll had
  the right mix, and the physical die cannot change kind). The active player's pair stays the dice picked, now
  with the true face; pass-track counts given in that roll are counted again and a changed one is said, since
  the player has crossed the old count on paper. After ``end_roll`` the dice have moved on: a long UNDO goes back.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, ClassVar, Self

from companion.announce import Announcement, Sound
from companion.games.noch_x_mal.errors import (
    ChipError,
    DiceError,
    GoalError,
    NxmError,
    SetupError,
    TieBreakError,
    TurnError,
)
from companion.games.noch_x_mal.faces import (
    CHIP_COLOURS,
    COLOUR_FACES,
    COLOUR_JOKER,
    COLOURS,
    FIRST_RESTRICTED_ROLL,
    GOALS,
    JOKERS,
    MAX_PLAYERS,
    NUMBER_FACES,
    NUMBER_JOKER,
    NUMBERS,
    SOLO_ROLLS,
    Gift,
    colour_dice,
    face_key,
    goal_key,
    has_white_bonus,
    is_colour,
    is_number,
    normalise_goal,
    solo_rating,
    solo_stroke,
)
from companion.games.noch_x_mal.state import (
    TIE_FIELDS,
    Claim,
    Decision,
    HeldGift,
    Phase,
    Player,
    Roll,
    State,
)
from companion.names import name_key

Handler = Callable[["NochXMal", dict[str, Any]], list[Announcement]]

#: actions that answer a roll's call and make its faces sentence old: a pair chosen, a pass, the roll ended
ROLL_DONE = ("pick", "pass", "end_roll")


#: plain discards (no gift) are said aloud once a player has this many X-chips left or fewer: the end is near
CHIPS_SAID_FROM = 2


def _note(key: str, **params: Any) -> Announcement:
    """A screen-only reminder: shown, not spoken, no chime."""
    return Announcement(key, params, speak=False, sound=Sound.NONE)


def _faces_said(faces: list[str]) -> dict[str, list[dict[str, str]]]:
    """A roll's faces as words, colours and numbers apart (a joker by its name), in the order they lie sorted."""
    words = [{"key": f"nxm.face.{f}"} for f in faces]
    return {"colours": [w for w, f in zip(words, faces, strict=True) if is_colour(f)],
            "numbers": [w for w, f in zip(words, faces, strict=True) if not is_colour(f)]}


class NochXMal:
    """The Noch X-Mal! engine. One player means the solo game (2 colour + 2 number dice, 30 rolls, no chips).

    >>> game = NochXMal.new({"action": "setup", "players": ["Anna", "Ben"], "seed": 1})
    >>> _ = game.apply({"action": "start_combo", "player": "Anna", "dice": ["yellow", "4"]})
    >>> game.state.players[0].start_colour
    'yellow'
    """

    name: ClassVar[str] = "noch-x-mal"

    def __init__(self, state: State) -> None:
        self.state = state

    # -- engine protocol -------------------------------------------------------------------------------
    @classmethod
    def new(cls, setup: dict[str, Any]) -> Self:
        raw = setup.get("players")
        if not isinstance(raw, list) or not 1 <= len(raw) <= MAX_PLAYERS:
            raise SetupError("nxm.err.players_count", count=len(raw) if isinstance(raw, list) else 0,
                             most=MAX_PLAYERS)
        solo = len(raw) == 1
        players: list[Player] = []
        free = [c for c in CHIP_COLOURS]
        chosen = [p.get("chips") for p in raw if isinstance(p, dict) and p.get("chips") is not None]
        for c in chosen:
            if c not in CHIP_COLOURS:
                raise SetupError("nxm.err.chip_colour", colour=str(c), allowed=", ".join(CHIP_COLOURS))
            if chosen.count(c) > 1:
                raise SetupError("nxm.err.chip_colour_taken", colour=c)
            free.remove(c)
        for entry in raw:
            name = entry.get("name") if isinstance(entry, dict) else entry
            if not isinstance(name, str) or not name.strip():
                raise SetupError("nxm.err.player_name")
            name = name.strip()
            if any(name_key(p.name) == name_key(name) for p in players):
                raise SetupError("nxm.err.duplicate_name", name=name)
            colour = entry.get("chips") if isinstance(entry, dict) else None
            if colour is None and not solo:
                colour = free.pop(0)
            players.append(Player(name, None if solo else colour, chips=0 if solo else 10))
        seed = setup.get("seed", 0)
        if not isinstance(seed, int | str) or isinstance(seed, bool):
            raise SetupError("nxm.err.seed")
        game = cls(State(players=players, seed=seed))
        first = setup.get("first")
        start = setup.get("start")  # the app's setup wizard gives the starter's seat index
        if first is not None:
            game.state.active = game._seat(first)
            game.state.first_chosen = True
        elif start is not None:
            if not isinstance(start, int) or isinstance(start, bool) or not 0 <= start < len(players):
                raise SetupError("nxm.err.start_seat", start=str(start), count=len(players))
            game.state.active = start
            game.state.first_chosen = True
        return game

    @property
    def finished(self) -> bool:
        return self.state.phase == Phase.OVER

    def to_json(self) -> dict[str, Any]:
        return self.state.to_json()

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Self:
        return cls(State.from_json(data))

    def apply(self, action: dict[str, Any]) -> list[Announcement]:
        """Apply one table action to a copy and keep the copy only if the rules allow it."""
        name = action.get("action")
        handler = self._HANDLERS.get(name) if isinstance(name, str) else None
        if handler is None:
            raise TurnError("nxm.err.unknown_action", action=str(name), allowed=", ".join(self._HANDLERS))
        if self.state.phase == Phase.OVER:
            raise TurnError("nxm.err.game_over")
        trial = type(self)(State.from_json(self.state.to_json()))
        announcements = handler(trial, action)
        self.state = trial.state
        return announcements

    # -- reading the state (also used by the screen) ---------------------------------------------------
    @property
    def solo(self) -> bool:
        return self.state.solo

    @property
    def active_player(self) -> Player:
        return self.state.players[self.state.active]

    @property
    def dice_counts(self) -> tuple[int, int]:
        """(colour dice, number dice) rolled per turn."""
        return (2, 2) if self.solo else (3, 3)

    def player(self, name: Any) -> Player:
        return self.state.players[self._seat(name)]

    def pass_count(self, player: Player, dice: list[str]) -> int:
        """Pass-track fields to cross: dice showing start colour or start number, each once, at least 1."""
        matches = sum(1 for f in dice if f in (player.start_colour, player.start_number))
        return max(1, matches)

    def usable_gifts(self, name: str) -> list[HeldGift]:
        """The gifts ``name`` may use now, as ``use_gift`` takes them: the screen offered "+/-1" before the roll and
        "all dice" to who chooses from all dice already, and every press was refused (found by random presses)."""
        player = self.player(name)
        return [g for g in player.gifts if self._gift_refusal(player, g.kind) is None]

    def others_choose_from(self) -> list[int] | None:
        roll = self.state.roll
        return None if roll is None else roll.others_choose_from(self.solo)

    def choosable_for(self, name: str) -> list[int] | None:
        """Indices of the dice ``name`` may choose a pair from now (None: the active player decides first)."""
        roll = self.state.roll
        if roll is None or self.state.phase != Phase.ROLLED:
            return None
        if name == roll.active or name in roll.all_dice_players():
            return list(range(len(roll.dice)))
        return roll.others_choose_from(self.solo)

    def open_goals(self) -> list[str]:
        return [g for g in GOALS if g not in self.state.claims]

    # -- helpers ---------------------------------------------------------------------------------------
    def _seat(self, name: Any) -> int:
        for i, p in enumerate(self.state.players):
            if isinstance(name, str) and name_key(p.name) == name_key(name):
                return i
        names = [p.name for p in self.state.players]
        raise TurnError("nxm.err.unknown_player", name=str(name), players=names)

    def _current_roll_number(self) -> int:
        """The roll being played, or the next one between rolls (gifts count from the roll after it)."""
        return self.state.rolls if self.state.phase == Phase.ROLLED else self.state.rolls + 1

    def _require(self, *phases: Phase) -> None:
        phase = self.state.phase
        if phase in phases:
            return
        if phase == Phase.START:
            missing = [p.name for p in self.state.players if not p.has_start]
            raise TurnError("nxm.err.start_missing", players=missing)
        if phase == Phase.WAIT_ROLL:
            raise TurnError("nxm.err.no_roll", player=self.active_player.name)
        if phase == Phase.ROLLED:
            raise TurnError("nxm.err.roll_pending", roll=self.state.rolls)
        if phase == Phase.TIEBREAK:
            raise TurnError("nxm.err.in_tiebreak", players=list(self.state.finishers))
        if phase == Phase.SOLO_SCORE:
            raise TurnError("nxm.err.in_solo_score")
        raise TurnError("nxm.err.game_over")

    def _roller(self, action: dict[str, Any]) -> Player:
        """The player an action names ("player"), required to be a seat at this table."""
        if "player" not in action:
            raise TurnError("nxm.err.field_missing", field="player")
        return self.player(action["player"])

    def _draw(self, faces: tuple[str, ...]) -> str:
        rng = random.Random(f"{self.state.seed}:{self.state.draws}")
        self.state.draws += 1
        return rng.choice(faces)

    @staticmethod
    def _read_faces(raw: Any, colours: int, numbers: int) -> list[str]:
        """Validate read dice: every die read, a known face, and the right mix of colour and number dice. Returned
        colour dice first, in the order given: the camera reads the dice in no order of theirs, and the screen shows
        a roll's colour dice apart from its number dice."""
        if not isinstance(raw, list):
            raise DiceError("nxm.err.dice_list")
        if len(raw) != colours + numbers:  # more: dice not used now (the solo game's), or something that is no die
            key = "nxm.err.dice_too_many" if len(raw) > colours + numbers else "nxm.err.dice_count"
            raise DiceError(key, expected=colours + numbers, given=len(raw))
        faces: list[str] = []
        for index, value in enumerate(raw, start=1):
            if value is None:
                raise DiceError("nxm.err.die_unread", index=index)
            readable = isinstance(value, str | int) and not isinstance(value, bool)
            face = str(value).strip().lower() if readable else ""
            if face == "6":
                raise DiceError("nxm.err.six", index=index)
            if face not in COLOUR_FACES and face not in NUMBER_FACES:
                raise DiceError("nxm.err.unknown_face", index=index, face=str(value),
                                allowed=", ".join((*COLOUR_FACES, *NUMBER_FACES)))
            faces.append(face)
        got_c = colour_dice(faces)
        got_n = len(faces) - got_c
        if (got_c, got_n) != (colours, numbers):
            raise DiceError("nxm.err.dice_mix", colours=got_c, numbers=got_n, want_colours=colours,
                            want_numbers=numbers)
        return sorted(faces, key=lambda f: not is_colour(f))

    # -- actions ---------------------------------------------------------------------------------------
    def _start_combo(self, action: dict[str, Any]) -> list[Announcement]:
        if self.state.phase != Phase.START:
            raise TurnError("nxm.err.start_done_all")
        player = self._roller(action)
        if player.has_start:
            raise TurnError("nxm.err.start_done", player=player.name)
        if "dice" in action:
            raw = action["dice"]
            try:
                faces = self._read_faces(raw, 1, 1)
            except DiceError as exc:
                # fewer dice than two keep their own words: a die fallen off the tray was said to be a wrong
                # pair ("exactly one colour die and one number die") while one of the two was simply missing
                if exc.key in ("nxm.err.dice_mix", "nxm.err.dice_too_many"):
                    raise DiceError("nxm.err.start_pair", player=player.name) from None
                raise
            if any(f in JOKERS for f in faces):
                raise DiceError("nxm.err.start_joker", player=player.name)
            colour = next(f for f in faces if is_colour(f))
            number = next(f for f in faces if is_number(f))
        else:  # virtual dice: roll again while a joker shows, as the rulebook says
            colour = COLOUR_JOKER
            while colour == COLOUR_JOKER:
                colour = self._draw(COLOUR_FACES)
            number = NUMBER_JOKER
            while number == NUMBER_JOKER:
                number = self._draw(NUMBER_FACES)
        player.start_colour, player.start_number = colour, number
        out = [Announcement(f"nxm.start_combo.{colour}", {"player": player.name, "number": number})]
        if all(p.has_start for p in self.state.players):
            self.state.phase = Phase.WAIT_ROLL
            if self.state.first_chosen or self.solo:
                out.append(Announcement("nxm.start_ready", {"player": self.active_player.name}))
            else:
                # short, and taken back once the table chose or rolled: it came after "Anna-Sophie starts" while she
                # rolled already
                out.append(Announcement("nxm.start_ready_choose", {"player": self.active_player.name},
                                        until=("first_player", "roll")))
        return out

    def _first_player(self, action: dict[str, Any]) -> list[Announcement]:
        if self.state.rolls > 0:
            raise TurnError("nxm.err.first_player_late")
        self.state.active = self._seat(action.get("player"))
        self.state.first_chosen = True
        # who begins is what the table needs first (she rolls now): said at once, ahead of the start combos still
        # waiting and cutting the one playing (it goes on after it), as a clock's start; it came 2.9 s late
        return [Announcement("nxm.first_player", {"player": self.active_player.name}, first=True)]

    def _roll(self, action: dict[str, Any]) -> list[Announcement]:
        self._require(Phase.WAIT_ROLL)
        colours, numbers = self.dice_counts
        if "dice" in action:
            faces = self._read_faces(action["dice"], colours, numbers)
        else:
            faces = [self._draw(COLOUR_FACES) for _ in range(colours)]
            faces += [self._draw(NUMBER_FACES) for _ in range(numbers)]
        self.state.rolls += 1
        number = self.state.rolls
        active = self.active_player.name
        self.state.roll = Roll(number=number, active=active, dice=faces)
        self.state.phase = Phase.ROLLED
        out: list[Announcement] = []
        if self.solo:
            letter, stroke = solo_stroke(number)
            out.append(Announcement(f"nxm.roll_solo.{stroke}", {"roll": number, "letter": letter,
                                                                "total": SOLO_ROLLS}))
        # calls to act, short: whose choice it is and no more ("Ben wählt zuerst."). The roll's number is in the turn's
        # call and on the screen, and "a pair or pass" / "from all dice" in the status line: with "Ben hat gewählt.
        # Die anderen wählen aus den vier übrigen Würfeln." the two filled 8.9 s of a 6 s roll at a brisk table
        elif number < FIRST_RESTRICTED_ROLL:  # at club pace a newer call takes an unheard one's place
            out.append(Announcement("nxm.roll_open", {"roll": number, "player": active}, prompt=True, until=ROLL_DONE))
        else:  # taken back once answered: "Wurf 5: Ben wählt zuerst" came after Ben had passed
            out.append(Announcement("nxm.roll_active", {"roll": number, "player": active}, prompt=True,
                                    until=ROLL_DONE))
        # the faces said after the call ("Gewürfelt: Rot, Gelb und Farbjoker; 4, 2 und 5."): a player who cannot see
        # the tray heard only whose choice it was. A sentence of its own: in the call it made the call's banner a
        # line taller, over the board's title. Taken back once the table acts on the roll (the words being said are
        # finished): from roll 4 on it started 9 s after the roll, and the calls after it waited behind it
        out.append(Announcement("nxm.rolled", _faces_said(faces), until=("roll", *ROLL_DONE), detail=True))
        if any(f in JOKERS for f in faces):
            out.append(_note("nxm.joker_reminder"))
        return out

    def _pick(self, action: dict[str, Any]) -> list[Announcement]:
        self._require(Phase.ROLLED)
        roll = self.state.roll
        assert roll is not None
        if "player" in action and self.player(action["player"]).name != roll.active:
            who = self.player(action["player"]).name
            raise TurnError("nxm.err.not_active", player=who, active=roll.active)
        if roll.pick is not None or roll.active_passed:
            raise TurnError("nxm.err.active_decided", player=roll.active)
        raw = action.get("dice")
        if not isinstance(raw, list) or len(raw) != 2:
            raise DiceError("nxm.err.pair")
        faces = [str(f).strip().lower() if f is not None else "" for f in raw]
        for face in faces:
            if face not in COLOUR_FACES and face not in NUMBER_FACES:
                raise DiceError("nxm.err.unknown_face", index=faces.index(face) + 1, face=str(face),
                                allowed=", ".join((*COLOUR_FACES, *NUMBER_FACES)))
        if sum(1 for f in faces if is_colour(f)) != 1:
            raise DiceError("nxm.err.pair")
        chosen: list[int] = []
        for face in sorted(faces, key=lambda f: 0 if is_colour(f) else 1):
            index = next((i for i, f in enumerate(roll.dice) if f == face and i not in chosen), None)
            if index is None:
                raise DiceError("nxm.err.pair_not_rolled", face=face_key(face))
            chosen.append(index)
        roll.pick = chosen
        out: list[Announcement] = []
        if roll.open_choice and not self.solo:  # alone, "Maria has chosen" told her what she did
            out.append(_note("nxm.picked_open", player=roll.active))
        elif not self.solo:  # the others' call: over with the roll ("Ben has chosen: now the others" after it
            # ended stood over the next roller's call)
            out.append(Announcement("nxm.picked", {"player": roll.active}, prompt=True, until=("end_roll",)))
        if any(roll.dice[i] in JOKERS for i in chosen):
            out.append(_note("nxm.joker_reminder"))
        return out

    def _pass(self, action: dict[str, Any]) -> list[Announcement]:
        self._require(Phase.ROLLED)
        roll = self.state.roll
        assert roll is not None
        player = self._roller(action)
        if player.name in roll.passes:
            raise TurnError("nxm.err.already_passed", player=player.name)
        if player.name == roll.active and roll.pick is not None:
            if not (roll.open_choice or self.solo):  # the others choose from the four dice the pair left
                raise TurnError("nxm.err.active_decided", player=player.name)
            # "You can always freely decide whether you want to use a roll or not": where the pair changes nothing
            # for the others (rolls 1-3, solo) a pass after it takes its place (only UNDO got the pass line back)
            roll.pick = None
        fields = self.pass_count(player, roll.dice)
        roll.passes[player.name] = fields
        out: list[Announcement] = []
        # a detail: the passer pressed it and the screen shows the fields; said in full, it held the next roller's
        # call back behind it at a brisk table
        if fields == 1:
            out.append(Announcement("nxm.pass_fields.one", {"player": player.name}, detail=True))
        else:
            out.append(Announcement("nxm.pass_fields.many", {"player": player.name, "count": fields}, detail=True))
        if player.name == roll.active:
            roll.active_passed = True
            if not self.solo and not roll.open_choice:
                out.append(Announcement("nxm.active_passed", {"player": player.name}, until=("end_roll",)))
        return out

    def _reached(self, action: dict[str, Any]) -> list[Announcement]:
        self._require(Phase.ROLLED)
        if self.solo:
            raise GoalError("nxm.err.solo_no_goals")
        roll = self.state.roll
        assert roll is not None
        player = self._roller(action)
        raw = action.get("goals")
        if isinstance(raw, str):
            raw = [raw]
        if not isinstance(raw, list) or not raw:
            raise GoalError("nxm.err.goals_missing")
        goals: list[str] = []
        for value in raw:
            goal = normalise_goal(value)
            if goal is None:
                raise GoalError("nxm.err.unknown_goal", goal=str(value), example="column-C, colour-red, "
                                "diamonds-top, points-II, pass-end")
            claim = self.state.claims.get(goal)
            if claim is not None and claim.roll != roll.number:
                key = "nxm.err.goal_taken" if has_white_bonus(goal) else "nxm.err.goal_taken_pink_only"
                if claim.roll == roll.number - 1:  # said only after "Dice to ...": the way back to that roll
                    key += "_last_roll"
                raise GoalError(key, goal=goal_key(goal), players=list(claim.players), roll=claim.roll)
            if player.name in roll.reports.get(goal, []) or goal in goals:
                raise GoalError("nxm.err.goal_reported", player=player.name, goal=goal_key(goal))
            goals.append(goal)
        for goal in goals:
            roll.reports.setdefault(goal, []).append(player.name)
            claim = self.state.claims.setdefault(goal, Claim([], roll.number))
            claim.players.append(player.name)
        if "pass-end" in goals:  # "may immediately discard two X-chips": now, while this roll takes discards (the
            # announcement of all first reachers comes at end_roll, when the next roll's dice are already out)
            return [_note("nxm.reached_pass_end", player=player.name)]
        return [_note("nxm.reached_note", player=player.name)]

    def _discard(self, action: dict[str, Any]) -> list[Announcement]:
        self._require(Phase.ROLLED)
        if self.solo:
            raise ChipError("nxm.err.solo_no_chips")
        roll = self.state.roll
        assert roll is not None
        player = self._roller(action)
        if player.chips <= 0:
            raise ChipError("nxm.err.no_chips", player=player.name)
        gift_raw = action.get("gift")
        gift: Gift | None = None
        receiver: Player | None = None
        if gift_raw is not None:
            try:
                gift = Gift(gift_raw)
            except ValueError:
                raise ChipError("nxm.err.gift_kind", gift=str(gift_raw),
                                allowed=", ".join(g.value for g in Gift)) from None
            if action.get("to") is None:
                raise ChipError("nxm.err.gift_to_missing", player=player.name)
            receiver = self.player(action["to"])
            if receiver is player:
                raise ChipError("nxm.err.gift_to_self", player=player.name)
        elif action.get("to") is not None:
            raise ChipError("nxm.err.gift_to_without_gift")
        player.chips -= 1
        roll.discards.append([player.name, None if gift is None else gift.value,
                              None if receiver is None else receiver.name])
        out: list[Announcement] = []
        if gift is not None and receiver is not None:
            receiver.gifts.append(HeldGift(gift, player.name, roll.number + 1))
            out.append(Announcement(f"nxm.gift_given.{gift.value}",
                                    {"player": player.name, "to": receiver.name, "left": player.chips}))
        elif player.chips > CHIPS_SAID_FROM:  # each chip said aloud was a third of an evening's words: on the screen
            out.append(_note("nxm.discard", player=player.name, left=player.chips))
        elif player.chips:  # the last few are heard: the game ends with someone's tenth
            out.append(Announcement("nxm.discard", {"player": player.name, "left": player.chips}))
        if player.chips == 0:  # a tie's second finisher: that the game ends was said with the first (three times
            # the whole sentence held the tie-break back)
            others = any(p.chips == 0 for p in self.state.players if p is not player)
            out.append(Announcement("nxm.last_chip_too" if others else "nxm.last_chip", {"player": player.name}))
        return out

    def _use_gift(self, action: dict[str, Any]) -> list[Announcement]:
        self._require(Phase.WAIT_ROLL, Phase.ROLLED)
        player = self._roller(action)
        try:
            gift = Gift(action.get("gift"))
        except ValueError:
            raise ChipError("nxm.err.gift_kind", gift=str(action.get("gift")),
                            allowed=", ".join(g.value for g in Gift)) from None
        refusal = self._gift_refusal(player, gift)
        if refusal is not None:
            raise refusal
        now = self._current_roll_number()
        player.gifts.remove(next(g for g in player.gifts if g.kind == gift and g.usable_from <= now))
        roll = self.state.roll
        if roll is not None and self.state.phase == Phase.ROLLED:
            roll.gifts_used.append([player.name, gift.value])
        return [Announcement(f"nxm.gift_used.{gift.value}", {"player": player.name})]

    def _gift_refusal(self, player: Any, gift: Gift) -> ChipError | None:
        """Why ``player`` may not use ``gift`` now, or None: not held, not usable before a later roll, or (but the
        joker) not before the roll or of no use in it."""
        held = [g for g in player.gifts if g.kind == gift]
        if not held:
            return ChipError("nxm.err.no_gift", player=player.name, gift=f"nxm.gift.{gift.value}")
        if not any(g.usable_from <= self._current_roll_number() for g in held):
            return ChipError("nxm.err.gift_not_yet", player=player.name, gift=f"nxm.gift.{gift.value}",
                             roll=min(g.usable_from for g in held))
        roll = self.state.roll
        if gift != Gift.JOKER:
            if self.state.phase != Phase.ROLLED or roll is None:
                return ChipError("nxm.err.gift_needs_roll", gift=f"nxm.gift.{gift.value}")
            if gift == Gift.ALL_DICE and (player.name == roll.active or roll.open_choice or roll.active_passed
                                          or player.name in roll.all_dice_players()):
                return ChipError("nxm.err.gift_pointless", player=player.name)
        return None

    def _correct(self, action: dict[str, Any]) -> list[Announcement]:
        """The table says what a die of the roll in play really shows (the camera read it wrongly but for sure).

        Only while the roll is on: after ``end_roll`` its dice are gone to the next player, and what was crossed
        with them is on the sheets. A die keeps its kind, so the roll keeps its mix and its colours-first order,
        and the pair picked keeps its dice. What the engine derived from the faces, the pass-track counts, is
        counted again: a player whose count changes is told, having crossed the old one already."""
        st = self.state
        roll = st.roll
        if roll is None:
            raise TurnError("nxm.err.correct_no_roll")
        if st.phase != Phase.ROLLED:
            raise TurnError("nxm.err.correct_over", roll=roll.number)
        die = action.get("die")
        if isinstance(die, bool) or not isinstance(die, int) or not 1 <= die <= len(roll.dice):
            raise DiceError("nxm.err.correct_die", die=str(die), count=len(roll.dice))
        raw = action.get("face")
        readable = isinstance(raw, str | int) and not isinstance(raw, bool)
        face = str(raw).strip().lower() if readable else ""
        if face not in COLOUR_FACES and face not in NUMBER_FACES:
            raise DiceError("nxm.err.unknown_face", index=die, face=str(raw),
                            allowed=", ".join((*COLOUR_FACES, *NUMBER_FACES)))
        old = roll.dice[die - 1]
        if is_colour(old) != is_colour(face):
            raise DiceError("nxm.err.correct_colour" if is_colour(old) else "nxm.err.correct_number", die=die)
        if face == old:
            raise DiceError("nxm.err.correct_same", die=die, face=face_key(face))
        roll.dice[die - 1] = face
        out: list[Announcement] = []
        for name, before in list(roll.passes.items()):
            now = self.pass_count(self.player(name), roll.dice)
            if now != before:
                roll.passes[name] = now
                out.append(Announcement("nxm.pass_recount", {"player": name, "count": now, "before": before}))
        if face in JOKERS:
            out.append(_note("nxm.joker_reminder"))
        return out

    def _end_roll(self, action: dict[str, Any]) -> list[Announcement]:
        self._require(Phase.ROLLED)
        roll = self.state.roll
        assert roll is not None
        if not self.solo and not roll.open_choice and roll.pick is None and not roll.active_passed:
            raise TurnError("nxm.err.active_undecided", player=roll.active)
        out = self._firsts(roll)
        if self.solo:
            if self.state.rolls >= SOLO_ROLLS:
                self.state.phase = Phase.SOLO_SCORE
                out.append(Announcement("nxm.solo_over", {"total": SOLO_ROLLS}))
                return out
        else:
            finishers = [p.name for p in self.state.players if p.chips == 0]
            if finishers:
                self.state.finishers = finishers
                if len(finishers) == 1:
                    self._finish(finishers, Decision.ALONE)
                    out.append(Announcement("nxm.winner", {"player": finishers[0]}))
                else:
                    self.state.phase = Phase.TIEBREAK
                    out.append(Announcement("nxm.tiebreak_needed", {"players": finishers}))
                return out
        self.state.active = (self.state.active + 1) % len(self.state.players)
        self.state.phase = Phase.WAIT_ROLL
        next_roll = self.state.rolls + 1
        if not self.solo:  # alone, whose dice they are goes without saying: the roll's stroke sentence is enough
            # the rule changes at roll 4: said once, in the sentence of whose turn it is (a screen note was overtaken by
            # the next roll's words and never seen; a sentence of its own held the call back by its chime and gap)
            # (not a call a later one drops: the rule would go with it, and the rule is said there only)
            restricted = next_roll == FIRST_RESTRICTED_ROLL
            call = Announcement("nxm.turn_restricted" if restricted else "nxm.turn",
                                {"player": self.active_player.name, "roll": next_roll}, prompt=not restricted)
            # the call first: behind the roll's firsts (7-11 s with the chime) the next roll came before it and a
            # newer call dropped it; the firsts are heard after it all the same (essential)
            out.insert(0, call)
        return out

    def _firsts(self, roll: Roll) -> list[Announcement]:
        """Who was first with which goal in ``roll``, in one sentence: a sentence each (with its chime and gap) held
        the next roller's call back 12-16 s behind three firsts, or dropped it. The goals of the same first players
        are named together ("Rot für Anna, obere Rautenreihe und Kreuzungspunkte-Reihe I für Zoé"); goals everybody
        reached at once go in a sentence of their own (everybody gets those bonuses, nobody blackens). What the
        others do ("Alle anderen schwärzen ...") is said with the game's first firsts only: the same every time."""
        everybody = {p.name for p in self.state.players}
        alone: dict[tuple[str, ...], list[str]] = {}
        together: list[str] = []
        for goal in GOALS:
            reporters = roll.reports.get(goal)
            if not reporters:
                continue
            if set(reporters) == everybody:
                together.append(goal)
            else:
                alone.setdefault(tuple(reporters), []).append(goal)
        out: list[Announcement] = []
        if alone:
            parts = [{"key": "nxm.first_part", "params": {"players": list(players),
                                                          "goals": [{"key": f"nxm.first_goal.{g}"} for g in goals]}}
                     for players, goals in alone.items()]
            firsts = parts[-1]  # the parts apart by a comma: joined by "and" as a list, "Rot für Anna und obere
            # Rautenreihe und Kreuzungspunkte-Reihe I für Zoé" sounded as if Anna had the top row too
            for earlier in reversed(parts[:-1]):
                firsts = {"key": "nxm.first_parts", "params": {"first": earlier, "rest": firsts}}
            told = any(c.roll < roll.number and set(c.players) != everybody for c in self.state.claims.values())
            many = sum(len(goals) for goals in alone.values()) > 1
            key = "nxm.firsts" if told else "nxm.firsts_tell_many" if many else "nxm.firsts_tell"
            out.append(Announcement(key, {"firsts": firsts}, essential=True))  # who was first
        if together:
            key = "nxm.everyone_firsts" if len(together) > 1 else "nxm.everyone_first"
            out.append(Announcement(key, {"goals": [{"key": f"nxm.first_goal.{g}"} for g in together]},
                                    essential=True))
        return out

    def _finish(self, winners: list[str], how: Decision) -> None:
        self.state.winners = winners
        self.state.decided_by = how
        self.state.phase = Phase.OVER

    def _tiebreak(self, action: dict[str, Any]) -> list[Announcement]:
        if self.state.phase != Phase.TIEBREAK:
            raise TieBreakError("nxm.err.no_tiebreak")
        player = self._roller(action)
        if player.name not in self.state.finishers:
            raise TieBreakError("nxm.err.not_tied", player=player.name, players=list(self.state.finishers))
        counts: dict[str, int] = {}
        for fld in TIE_FIELDS:
            value = action.get(fld)
            if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= 99:
                raise TieBreakError("nxm.err.tiebreak_value", field=f"nxm.tie.{fld}", player=player.name)
            counts[fld] = value
        self.state.tiebreak[player.name] = counts
        if any(name not in self.state.tiebreak for name in self.state.finishers):
            return [_note("nxm.tiebreak_noted", player=player.name)]
        return self._decide_tie()

    def _decide_tie(self) -> list[Announcement]:
        """Compare symbols, then pass-track fields, then completed columns; what is still equal is shared."""
        alive = list(self.state.finishers)
        decided = {"symbols": Decision.SYMBOLS, "pass_fields": Decision.PASS_FIELDS,
                   "columns": Decision.COLUMNS}
        for fld in TIE_FIELDS:
            best = max(self.state.tiebreak[n][fld] for n in alive)
            alive = [n for n in alive if self.state.tiebreak[n][fld] == best]
            if len(alive) == 1:
                how = decided[fld]
                self._finish(alive, how)
                return [Announcement(f"nxm.winner_by.{how.value}", {"player": alive[0]})]
        self._finish(alive, Decision.SHARED)
        return [Announcement("nxm.winners_shared", {"players": alive})]

    def _solo_score(self, action: dict[str, Any]) -> list[Announcement]:
        if self.state.phase != Phase.SOLO_SCORE:
            raise TurnError("nxm.err.no_solo_score", total=SOLO_ROLLS)
        value = action.get("symbols")
        if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= 99:
            raise TieBreakError("nxm.err.solo_symbols")
        self.state.solo_symbols = value
        self._finish([self.state.players[0].name], Decision.ALONE)
        return [Announcement(solo_rating(value), {"symbols": value, "player": self.state.players[0].name})]

    _HANDLERS: ClassVar[dict[str, Handler]] = {
        "start_combo": _start_combo,
        "first_player": _first_player,
        "roll": _roll,
        "pick": _pick,
        "pass": _pass,
        "reached": _reached,
        "discard": _discard,
        "use_gift": _use_gift,
        "correct": _correct,
        "end_roll": _end_roll,
        "tiebreak": _tiebreak,
        "solo_score": _solo_score,
    }


__all__ = ["NochXMal", "NxmError", "COLOURS", "NUMBERS"]
