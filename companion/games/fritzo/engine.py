"""The Fritzo engine: all six modes of the rulebook on one 3-D placement model.

Modes (setup ``"mode"``):
- ``beginner`` / ``challenge`` / ``professional``: one shared building (1+ players), touching faces DIFFERENT
  (Beginner) or the SAME colour; goal a 3x3x3 cube (Beginner and Professional: each outer side one colour, six
  different colours). Cubes may be taken off again (``remove``). Optional ``minutes``: a race against the
  hourglass (``start``, ``time_up``).
- ``team``: 2-4 players in turn build one ``target`` cube; a player who cannot place the cube in hand returns
  it (``return``). The team wins with the finished build; "the Cube" wins when no cube left can be placed, or
  when all 27 stand but the build misses the goal.
- ``level-one``: 2 players, three colours each, each builds a 3x3 plane (same colour rule), rearranging
  freely; the first to roll blue gets 14 cubes, the other 13; rows score, gaps cost a point; agreed
  ``minutes``.
- ``strategy``: 2 players, three colours each, alternate placing blindly drawn cubes (13 each) on one building
  of at most 5x5 and 3 levels, same colour rule, one joker each; rows, stairs and triangles score at once; 7+
  points in one move is a Super Fritzo and wins.

Readings where the rulebook leaves room (also in docs/fritzo.md):
- A cube above the table must stand on a cube (cubes are not glued); one that touches nothing or hangs in the
  air is refused as floating.
- The goal modes keep the building within 3x3x3 (it is meant to become the big cube), Strategy within 5x5x3.
- Level One: the rulebook does not say how the cubes are divided; a cube belongs to the player who first
  places it, and nobody may hold more than their 14 or 13. Points are those of the planes as they stand (each
  row once), which is what "only new rows with the new cube count" gives when rows are counted as they appear,
  and it cannot be farmed by taking a cube off and putting it back. A row in the opponent's colours scores for
  the opponent, also when it lies in one's own plane. Side rows count on the plane's outer edge only (its "four
  visible sides"), not on faces into a gap inside it.
- Strategy: the third level is allowed when the placement scores at once for the mover (points it gives the opponent
  do not open it) where the setup says ``third_level: "own"``; older setups: for either player. A player may pass
  (``pass``, one minus point) only when the drawn cube has no legal place without the joker. Super Fritzo counts the
  points the mover earns in that move. Tie: the player who made the last move wins.
- Level One ties: the player who declared ``done`` first wins; when time ran out with nobody done, it is a
  draw.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any, ClassVar, Self

from companion.announce import Announcement, Sound
from companion.games.base import state_copy
from companion.games.fritzo import scoring
from companion.games.fritzo.cubeset import DEFAULT_COLOURS, CubeSet, colour_key, default_set
from companion.games.fritzo.errors import (
    CubeError,
    FritzoError,
    PlacementError,
    RollError,
    SetupError,
    TurnError,
)
from companion.games.fritzo.geometry import Cell, Colouring, orient, rotation_for
from companion.games.fritzo.rules import (
    CUBE_LIMITS,
    PLANE_LIMITS,
    STRATEGY_LIMITS,
    Contact,
    Goal,
    Limits,
    cell_label,
    check_goal,
    check_placement,
)
from companion.games.fritzo.solver import Completion, Placement, Solver
from companion.hourglass import Hourglass


class Mode(StrEnum):
    BEGINNER = "beginner"
    CHALLENGE = "challenge"
    PROFESSIONAL = "professional"
    TEAM = "team"
    LEVEL_ONE = "level-one"
    STRATEGY = "strategy"


SOLO_MODES = (Mode.BEGINNER, Mode.CHALLENGE, Mode.PROFESSIONAL)


class Phase(StrEnum):
    START_ROLL = "start-roll"  # Level One / Strategy: roll a cube to find who gets 14 cubes / who starts
    BUILDING = "building"
    OVER = "over"


@dataclass(frozen=True)
class Placed:
    """A cube standing on the table: which one, how it is turned, who put it there. Frozen: no step changes one in
    place (a step replaces it), so the copy a step works on shares it (``FritzoState.__deepcopy__``)."""

    cube: str
    rotation: int
    player: str | None = None
    joker: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"cube": self.cube, "rotation": self.rotation, "player": self.player, "joker": self.joker}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Placed:
        return cls(d["cube"], d["rotation"], d.get("player"), d.get("joker", False))


Building = dict[Cell, Placed]


@dataclass
class FritzoState:
    mode: Mode
    players: list[str]
    cubeset: CubeSet
    goal: Goal | None = None  # solo modes and Team
    seed: int | str = 0
    phase: Phase = Phase.BUILDING
    building: Building = field(default_factory=dict)
    planes: dict[str, Building] = field(default_factory=dict)  # Level One
    colours: dict[str, list[str]] = field(default_factory=dict)  # Level One / Strategy: player -> own colours
    start_colour: str = "blue"  # Level One: who first rolls this gets 14 cubes
    turn: int = 0  # whose turn (Team, Strategy) or whose start roll
    scores: dict[str, int] = field(default_factory=dict)
    allowance: dict[str, int] = field(default_factory=dict)  # Level One 14/13, Strategy 13
    owner: dict[str, str] = field(default_factory=dict)  # Level One: cube id -> player who took it
    out: list[str] = field(default_factory=list)  # cubes out of play (Strategy: passed, the start-roll cube)
    moves: dict[str, int] = field(default_factory=dict)  # Strategy: cubes placed or passed per player
    jokers: dict[str, bool] = field(default_factory=dict)  # Strategy: joker still unused
    done: list[str] = field(default_factory=list)  # Level One: players done, in order
    minutes: float | None = None
    hourglass: Hourglass | None = None
    last_mover: str | None = None
    result: str | None = None  # "goal", "team", "cube", "won", "draw", "super-fritzo", "time-up"
    winners: list[str] = field(default_factory=list)
    log: list[dict[str, Any]] = field(default_factory=list)  # last formations scored (for the screen)
    #: Strategy's third level: "own" opens it only for the mover's own points (setups since the rule changed say
    #: so); "any" for points to either player, the rule a journal written before played under (``_earns``)
    third_level: str = "any"

    def __deepcopy__(self, memo: dict[int, Any]) -> FritzoState:
        """The copy a step works on (``Fritzo.apply``), and an undo's checkpoint: every dict and list new, sharing
        what no step changes in place (``state_copy``): the cubes standing (``Placed``, frozen), the cube set."""
        return state_copy(self, memo, (Placed, CubeSet))

    def to_json(self) -> dict[str, Any]:
        def building(b: Building) -> list[dict[str, Any]]:
            return [{"cell": list(c), **p.to_json()} for c, p in sorted(b.items())]

        return {
            "mode": self.mode.value,
            "players": list(self.players),
            "cubes": self.cubeset.to_json(),
            "goal": self.goal.value if self.goal else None,
            "seed": self.seed,
            "phase": self.phase.value,
            "building": building(self.building),
            "planes": {p: building(b) for p, b in self.planes.items()},
            "colours": {p: list(c) for p, c in self.colours.items()},
            "start_colour": self.start_colour,
            "turn": self.turn,
            "scores": dict(self.scores),
            "allowance": dict(self.allowance),
            "owner": dict(self.owner),
            "out": list(self.out),
            "moves": dict(self.moves),
            "jokers": dict(self.jokers),
            "done": list(self.done),
            "minutes": self.minutes,
            "hourglass": self.hourglass.to_json() if self.hourglass else None,
            "last_mover": self.last_mover,
            "result": self.result,
            "winners": list(self.winners),
            "log": copy.deepcopy(self.log),
            "third_level": self.third_level,
        }

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> FritzoState:
        def building(rows: list[dict[str, Any]]) -> Building:
            return {tuple(r["cell"]): Placed.from_json(r) for r in rows}  # type: ignore[misc]

        return cls(
            mode=Mode(d["mode"]),
            players=list(d["players"]),
            cubeset=CubeSet.from_json(d["cubes"]),
            goal=Goal(d["goal"]) if d.get("goal") else None,
            seed=d.get("seed", 0),
            phase=Phase(d["phase"]),
            building=building(d["building"]),
            planes={p: building(b) for p, b in d["planes"].items()},
            colours={p: list(c) for p, c in d["colours"].items()},
            start_colour=d.get("start_colour", "blue"),
            turn=d["turn"],
            scores=dict(d["scores"]),
            allowance=dict(d["allowance"]),
            owner=dict(d["owner"]),
            out=list(d["out"]),
            moves=dict(d["moves"]),
            jokers=dict(d["jokers"]),
            done=list(d["done"]),
            minutes=d.get("minutes"),
            hourglass=Hourglass.from_json(d["hourglass"]) if d.get("hourglass") else None,
            last_mover=d.get("last_mover"),
            result=d.get("result"),
            winners=list(d.get("winners", [])),
            log=copy.deepcopy(d.get("log", [])),
            third_level=d.get("third_level", "any"),
        )


def _a(key: str, speak: bool = True, **params: Any) -> Announcement:
    return Announcement(key, params, speak=speak)


def _colour_words(colour: str) -> str | dict[str, str]:
    """A colour as said in the table's language (a taught set's own colour name with a capital, as the setup's
    answers and questions name it: "kein navy" followed the setup's "Navy"): the start roll named no colour, and a
    table without a camera never saw the cube the companion rolled."""
    key = colour_key(colour)  # (a built-in colour's catalog key, said in the table's language as a nested key)
    return {"key": key} if colour in DEFAULT_COLOURS else key


def _earns(formations: list[scoring.Formation], player: str | None, rule: str) -> bool:
    """Strategy's third level: "nur dann ..., wenn damit sofort Punkte erzielt werden können". The mover's own points
    count, as for Super Fritzo: a row built in the opponent's colours is credited to the opponent ("gutgeschrieben"),
    the mover does not score it, and it opened the third level to either player before. ``rule`` "any" keeps that
    earlier reading for games set up under it: checked with today's rule, a saved game whose third-level cube had
    scored for the opponent resumed "damaged" and lost that cube and every move after it."""
    if rule != "own":
        return bool(formations)
    return scoring.totals(formations).get(player or "", 0) > 0


def _turn(player: str) -> Announcement:
    """Whose turn it is, said aloud as well as shown: a player looking at the building, not the screen, must hear
    it (a banner and a chime alone left the table asking "who?"). Three words, since it is said every move."""
    return Announcement("fritzo.turn", {"player": player}, prompt=True, until=TURN_TAKEN)


#: the actions that answer "Ben's turn": behind a score's sentence the call came 6-8 s late, over Ben's next cube
TURN_TAKEN = ("place", "pass", "return")


class Fritzo:
    """The Fritzo engine (see the module docstring for modes and rule readings)."""

    name: ClassVar[str] = "fritzo"

    def __init__(self, state: FritzoState) -> None:
        self.state = state
        self._solver: Solver | None = None

    # -- Engine protocol -------------------------------------------------------------------------------------
    @classmethod
    def new(cls, setup: dict[str, Any]) -> Self:
        return cls(_new_state(setup))

    def to_json(self) -> dict[str, Any]:
        return self.state.to_json()

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Self:
        return cls(FritzoState.from_json(data))

    @property
    def finished(self) -> bool:
        return self.state.phase is Phase.OVER

    @property
    def ending(self) -> list[Announcement]:
        """Why the game ended as it did, in the words that announced it, for the screen after the game: they were
        said once (maybe before a restart), and "Game over" alone leaves a table asking what beat it, as "Won: Ben"
        alone does after a tie, or beside fewer points than Anna's after a Super Fritzo. A draw's words leave out
        the "Game over" the screen already shows."""
        s = self.state
        if s.phase is not Phase.OVER:
            return []
        if s.result in ("cube", "team"):
            return self._team_end()
        if s.result == "time-up":
            return [_a("fritzo.times_up")]
        if s.result == "goal":  # "Won: Anna" alone lost what was built, and the race's time (said once)
            return [self._goal_done()]
        if not s.scores:  # no other result ends a game without scores: nothing more to say, not max() of nothing
            return []
        best = max(s.scores.values())
        if s.result == "draw":  # the announcement's "Game over: ..." under the screen's own "Game over" heading
            return [_a("fritzo.ending.draw", False, points=best)]
        if s.result == "super-fritzo":
            return [_a("fritzo.ending.super", player=s.winners[0])]
        if s.result == "won" and sum(1 for v in s.scores.values() if v == best) > 1:  # who broke the tie, and how
            key = "fritzo.l1.tie" if s.mode is Mode.LEVEL_ONE else "fritzo.strategy.tie"
            return [_a(key, player=s.winners[0], points=best)]
        return []

    @property
    def rolls_dice(self) -> bool:
        """Whether the game still throws cubes as dice (the start roll of Level One and Strategy): the others never
        ask the camera, and once the building began neither do these, so a notice that ROLL rolls virtual dice
        would only puzzle the table (it came again at a resumed game's building)."""
        return self.state.mode in (Mode.LEVEL_ONE, Mode.STRATEGY) and self.state.phase is Phase.START_ROLL

    @property
    def opening_announcements(self) -> list[Announcement]:
        """Who goes first, said as the game begins (the setup is no ``apply``, so nothing else says it): in Team the
        player who places the first cube ("the youngest", as the setup asked); with a start roll, who rolls first
        (Strategy: with the cube taken out, which does not come into play);
        with the start already known (``starter``), who starts or who gets the 14 cubes. Solo modes have no turns:
        nothing to say."""
        s = self.state
        if s.mode is Mode.TEAM and not s.building:
            return [_a("fritzo.open.first_cube", player=s.players[s.turn])]
        if s.phase is Phase.START_ROLL and s.mode is Mode.STRATEGY and not s.out:  # the screen asks which cube
            return [_a("fritzo.open.rolls_out_cube", player=s.players[s.turn])]
        if s.phase is Phase.START_ROLL:
            return [_a("fritzo.open.rolls_first", player=s.players[s.turn])]
        if s.mode is Mode.STRATEGY and s.phase is Phase.BUILDING and not any(s.moves.values()):
            return [_a("fritzo.open.starts", player=s.players[s.turn])]
        if s.mode is Mode.LEVEL_ONE and s.phase is Phase.BUILDING and not s.owner:
            most = max(s.players, key=lambda p: s.allowance[p])
            return [_a("fritzo.open.cubes", player=most, other=next(p for p in s.players if p != most))]
        return []

    def apply(self, action: dict[str, Any]) -> list[Announcement]:
        """Apply one table action to a copy; only a fully successful action replaces the state."""
        kind = action.get("action")
        handler = _HANDLERS.get(kind) if isinstance(kind, str) else None
        if handler is None:
            raise TurnError("fritzo.err.unknown_action", action=str(kind), known=", ".join(sorted(_HANDLERS)))
        if self.state.phase is Phase.OVER:
            raise TurnError("fritzo.err.game_over")
        work = copy.deepcopy(self)
        out = handler(work, action)
        self.state = work.state
        # the solver a step built is this game's (one cube set): kept, Team's steps each built it anew (27 cubes in
        # 24 turns each, ~7 ms of the ~10 ms a Team step took)
        self._solver = work._solver
        return out

    def __deepcopy__(self, memo: dict[int, Any]) -> Fritzo:
        """A copy of the game, sharing what no step changes: the cube set (frozen) and the solver built for it."""
        memo.setdefault(id(self.state.cubeset), self.state.cubeset)
        game = Fritzo(copy.deepcopy(self.state, memo))
        game._solver = self._solver
        return game

    # -- queries for screens and hints
    # ------------------------------------------------------------------------
    @property
    def solver(self) -> Solver:
        if self._solver is None:
            self._solver = Solver(self.state.cubeset)
        return self._solver

    @property
    def contact(self) -> Contact:
        if self.state.goal is not None:
            return self.state.goal.contact
        return Contact.SAME

    @property
    def limits(self) -> Limits:
        return {Mode.LEVEL_ONE: PLANE_LIMITS, Mode.STRATEGY: STRATEGY_LIMITS}.get(
            self.state.mode, CUBE_LIMITS
        )

    @property
    def current_player(self) -> str | None:
        if self.state.mode in (Mode.TEAM, Mode.STRATEGY) or self.state.phase is Phase.START_ROLL:
            return self.state.players[self.state.turn]
        return None

    def colours_at(self, building: Building) -> dict[Cell, Colouring]:
        cs = self.state.cubeset
        return {cell: orient(cs.cube(p.cube).faces, p.rotation) for cell, p in building.items()}

    def structure(self, player: str | None = None) -> dict[Cell, Colouring]:
        """Oriented colours of the shared building (or of ``player``'s Level One plane)."""
        if self.state.mode is Mode.LEVEL_ONE:
            return self.colours_at(self.state.planes[player or self.state.players[0]])
        return self.colours_at(self.state.building)

    def cubes_left(self, player: str | None = None) -> list[str]:
        """Cube ids that may still be placed (the supply; Level One: in no plane, not the other's, and for
        ``player`` with all their 14 or 13 taken, only their own: the rest would be refused)."""
        s = self.state
        if s.mode is Mode.LEVEL_ONE:
            used = {p.cube for plane in s.planes.values() for p in plane.values()}
            taken = sum(1 for h in s.owner.values() if h == player)
            full = player is not None and taken >= s.allowance.get(player, 14)
            return [
                c
                for c in s.cubeset.ids
                if c not in used and (player is None or s.owner.get(c, None if full else player) == player)
            ]
        used = {p.cube for p in s.building.values()}
        return [c for c in s.cubeset.ids if c not in used and c not in s.out]

    def owners(self) -> dict[str, str]:
        return {c: p for p, cols in self.state.colours.items() for c in cols}

    def legal_placements(
        self, cube: str, player: str | None = None, *, joker: bool = False
    ) -> list[Placement]:
        """Where and how the cube in hand may go now (the screen offers only these)."""
        if self.state.mode is Mode.LEVEL_ONE:
            plane = self.structure(player)
            return self.solver.placements(plane, [cube], Contact.SAME, PLANE_LIMITS, joker=joker)
        found = self.solver.placements(self.structure(), [cube], self.contact, self.limits, joker=joker)
        if self.state.mode is Mode.STRATEGY:
            found = [p for p in found if p.cell[2] < 2 or self._mover_scores(p)]
        return found

    def hint_completion(self, *, node_limit: int = 400_000) -> Completion:
        """A way to finish the goal build from here with the cubes left, or the proof that there is none."""
        goal = self.state.goal
        if goal is None:
            raise TurnError("fritzo.err.no_goal")
        return self.solver.complete(self.structure(), self.cubes_left(), goal, node_limit=node_limit)

    def _mover_scores(self, p: Placement) -> bool:
        """Whether the player on turn earns points with ``p`` (the third level's condition, as ``_do_place``)."""
        structure = self.structure()
        structure[p.cell] = orient(self.state.cubeset.cube(p.cube).faces, p.rotation)
        formations = scoring.formations_with(structure, p.cell, self.owners())
        return _earns(formations, self.current_player, self.state.third_level)

    # -- helpers
    # -------------------------------------------------------------------------------------------------
    def _player(self, action: dict[str, Any], *, required: bool = False) -> str | None:
        s = self.state
        who = action.get("player")
        if who is None:
            if required:
                raise TurnError("fritzo.err.player_missing", players=list(s.players))
            return self.current_player
        if who not in s.players:
            raise TurnError("fritzo.err.unknown_player", player=str(who), players=list(s.players))
        cur = self.current_player
        if cur is not None and who != cur:
            raise TurnError("fritzo.err.not_your_turn", player=who, current=cur)
        return who

    def _cube(self, action: dict[str, Any]) -> str:
        cube = action.get("cube")
        if cube is None:
            raise CubeError("fritzo.err.cube_missing")
        cube = str(cube)
        if cube not in self.state.cubeset.ids:
            raise CubeError("fritzo.err.cube_unknown", cube=cube)
        return cube

    def _rotation(self, action: dict[str, Any], cube: str) -> int:
        faces = self.state.cubeset.cube(cube).faces
        if "rotation" in action:
            r = action["rotation"]
            if not isinstance(r, int) or isinstance(r, bool) or not 0 <= r < 24:
                raise PlacementError("fritzo.err.rotation", value=str(r))
            return r
        top, north = action.get("top"), action.get("north")
        if top is None or north is None:
            raise PlacementError("fritzo.err.orientation_missing")
        options = rotation_for(faces, top, north)
        if not options:
            raise PlacementError("fritzo.err.orientation_impossible", cube=cube, top=top, north=north)
        if len(options) > 1:
            raise PlacementError("fritzo.err.orientation_ambiguous", cube=cube, top=top, north=north)
        return options[0]

    @staticmethod
    def _cell(action: dict[str, Any], *, flat: bool = False) -> Cell:
        raw = action.get("cell")
        if isinstance(raw, list) and flat and len(raw) == 2:
            raw = [*raw, 0]
        if not (
            isinstance(raw, list)
            and len(raw) == 3
            and all(isinstance(v, int) and not isinstance(v, bool) for v in raw)
        ):
            raise PlacementError("fritzo.err.cell_format", value=str(raw))
        if flat and raw[2] != 0:
            raise PlacementError("fritzo.err.plane_flat")
        return (raw[0], raw[1], raw[2])

    def _check_time(self, action: dict[str, Any]) -> None:
        h = self.state.hourglass
        at = action.get("at")
        if (
            h is not None
            and isinstance(at, int | float)
            and h.started_at is not None
            and h.expired(float(at))
        ):
            raise TurnError("fritzo.err.time_up")

    def _next_turn(self) -> list[Announcement]:
        s = self.state
        s.turn = (s.turn + 1) % len(s.players)
        return [_turn(s.players[s.turn])]

    # -- actions
    # -----------------------------------------------------------------------------------------------
    def _do_roll(self, action: dict[str, Any]) -> list[Announcement]:
        s = self.state
        if s.phase is not Phase.START_ROLL:
            raise TurnError("fritzo.err.no_roll_now")
        who = self._player(action)
        assert who is not None
        dice = action.get("dice")
        if not isinstance(dice, list) or len(dice) != 1:
            raise RollError("fritzo.err.roll_one", n=len(dice) if isinstance(dice, list) else 0)
        colour = dice[0]
        if colour is None:
            raise RollError("fritzo.err.roll_unread")
        if colour not in s.cubeset.colours:
            raise RollError("fritzo.err.roll_colour", colour=str(colour),
                            colours=[colour_key(c) for c in s.cubeset.colours])  # (German said "red und blue")
        if s.mode is Mode.STRATEGY and action.get("cube") is not None:
            cube = self._cube(action)
            if s.out and s.out[0] != cube:
                raise RollError("fritzo.err.roll_cube_changed", cube=cube, first=s.out[0])
            s.out = [cube]
        other = s.players[1 - s.turn]
        if s.mode is Mode.LEVEL_ONE:
            hit = colour == s.start_colour
        else:
            hit = colour in s.colours[other]
        if not hit:
            s.turn = 1 - s.turn
            # what was sought, said: "did not roll the colour needed" left the table asking which (the rulebook's
            # blue by name; a start colour a transcript set otherwise, as "the start colour")
            key = "fritzo.roll.again" if s.mode is not Mode.LEVEL_ONE else \
                "fritzo.roll.again_l1" if s.start_colour == "blue" else "fritzo.roll.again_start"
            return [_a(key, player=who, next=s.players[s.turn], other=other, colour=_colour_words(colour),
                       start=_colour_words(s.start_colour))]
        return self._begin(who, colour)

    def _begin(self, starter: str, colour: str | None = None) -> list[Announcement]:
        s = self.state
        s.phase = Phase.BUILDING
        other = next(p for p in s.players if p != starter)
        if s.mode is Mode.LEVEL_ONE:
            s.allowance = {starter: 14, other: 13}
            s.turn = 0
            key = "fritzo.l1.start" if s.start_colour == "blue" else "fritzo.l1.start_colour"
            if s.minutes is None:
                return [_a(key, player=starter, other=other, colour=_colour_words(s.start_colour))]
            # "Baut los!" had the table build while the clock stood: it says to start it, and TIMER answers it (cut
            # there, it was said again whole after "the time runs": 9.6 s of "start the clock" with the clock
            # running). The cubes each gets a sentence before it that TIMER does not take back: said with the call,
            # TIMER three seconds later cut them off, and nobody heard who gets 14
            counts = "fritzo.l1.counts" if s.start_colour == "blue" else "fritzo.l1.counts_colour"
            return [_a(counts, player=starter, other=other, colour=_colour_words(s.start_colour)),
                    replace(_a("fritzo.l1.start_timed", player=starter, other=other), until=("start",))]
        s.turn = s.players.index(starter)
        if colour is None:  # the setup named who starts: nothing rolled to say
            return []
        return [_a("fritzo.strategy.start", player=starter, colour=_colour_words(colour))]

    def _do_take_out(self, action: dict[str, Any]) -> list[Announcement]:
        """Strategy: the cube taken out of the box for the start roll, "der nicht ins Spiel kommt", named before it
        is rolled. Journaled as a step of its own: the screen kept it, and a power cut asked for it again under
        "all as before"."""
        s = self.state
        if s.mode is not Mode.STRATEGY:
            raise TurnError("fritzo.err.take_out_strategy_only")
        if s.phase is not Phase.START_ROLL:
            raise TurnError("fritzo.err.no_roll_now")
        cube = self._cube(action)
        if s.out:
            raise RollError("fritzo.err.out_already", cube=s.out[0])
        s.out = [cube]
        return [_a("fritzo.take_out.done", speak=False, cube=cube)]

    def _do_start(self, action: dict[str, Any]) -> list[Announcement]:
        s = self.state
        at = action.get("at")
        if s.minutes is None:
            raise TurnError("fritzo.err.no_timer")
        if not isinstance(at, int | float):
            raise TurnError("fritzo.err.at_missing")
        if s.phase is Phase.START_ROLL:
            raise TurnError("fritzo.err.roll_first")
        assert s.hourglass is not None
        h = s.hourglass
        if h.started_at is not None and not h.interrupted and not h.expired(float(at)):
            raise TurnError("fritzo.err.timer_running")
        # after an interruption, or a run whose "time's up" was undone: a fresh full run, as Haste Worte's hourglass
        h.start(float(at))
        return [replace(_a("fritzo.timer.started", minutes=_fmt_minutes(s.minutes)), first=True)]  # heard now

    def _do_timer_interrupted(self, action: dict[str, Any]) -> list[Announcement]:
        """A restart found the wall clock before the clock's start stamp (a Pi without a real-time clock after a
        power cut, before network time arrives): the time left is unknown. The clock stops, and the table either
        starts it again (``start``) or declares time's up (``time_up``), as in Haste Worte; before, the screen
        showed the full time standing still until the wall clock caught up, and said nothing."""
        h = self.state.hourglass
        at = action.get("at")
        if not isinstance(at, int | float) or isinstance(at, bool):
            raise TurnError("fritzo.err.at_missing")
        if h is None or h.started_at is None or h.stopped_at is not None:
            raise TurnError("fritzo.err.no_timer")
        h.interrupt(float(at))
        return [_a("fritzo.timer.interrupted")]

    def _do_time_up(self, action: dict[str, Any]) -> list[Announcement]:
        s = self.state
        h = s.hourglass
        at = action.get("at")
        if h is None or h.started_at is None:
            raise TurnError("fritzo.err.no_timer")
        declared = h.interrupted  # the clock a restart stopped: the table says the time is up
        if not declared and (not isinstance(at, int | float) or not h.expired(float(at))):
            raise TurnError("fritzo.err.time_not_up")
        out = [Announcement("fritzo.times_up", {}, urgent=True, sound=Sound.TIMES_UP)]
        if s.mode is Mode.LEVEL_ONE:
            return out + self._level_one_over()
        s.phase = Phase.OVER
        s.result = "time-up"
        return out

    def _do_place(self, action: dict[str, Any]) -> list[Announcement]:
        s = self.state
        if s.phase is Phase.START_ROLL:
            raise TurnError("fritzo.err.roll_first")
        self._check_time(action)
        if s.mode is Mode.LEVEL_ONE:
            return self._place_level_one(action)
        who = self._player(action)
        cube = self._cube(action)
        if cube in s.out:
            raise CubeError("fritzo.err.cube_out", cube=cube)
        if any(p.cube == cube for p in s.building.values()):
            raise CubeError("fritzo.err.cube_used", cube=cube)
        cell = self._cell(action)
        rotation = self._rotation(action, cube)
        colours = orient(s.cubeset.cube(cube).faces, rotation)
        joker = bool(action.get("joker", False))
        if joker and (s.mode is not Mode.STRATEGY or who is None):
            raise PlacementError("fritzo.err.joker_mode")
        if joker and not s.jokers.get(who, False):  # type: ignore[arg-type]
            raise PlacementError("fritzo.err.joker_used", player=who)
        structure = self.structure()
        check_placement(structure, cell, colours, contact=self.contact, limits=self.limits, joker=joker)
        structure[cell] = colours
        formations: list[scoring.Formation] = []
        if s.mode is Mode.STRATEGY:
            formations = scoring.formations_with(structure, cell, self.owners())
            if cell[2] == 2 and not _earns(formations, who, s.third_level):
                raise PlacementError("fritzo.err.third_level", player=who)
        s.building[cell] = Placed(cube, rotation, who, joker)
        s.last_mover = who
        # the screen shows the note; its grid shows where, so the words name the level only (the place's
        # coordinates stay in the parameters, for a transcript's reader)
        out = [_a("fritzo.placed", False, player=who or "", cube=cube, cell=cell_label(cell), level=cell[2] + 1)]
        if joker:
            s.jokers[who] = False  # type: ignore[index]
            out.append(_a("fritzo.joker", player=who))
        if s.mode in SOLO_MODES:
            return out + self._solo_after(action.get("at"))
        if s.mode is Mode.TEAM:
            return out + self._team_after()
        assert who is not None
        return out + self._strategy_after(who, formations)

    def _solo_after(self, at: Any) -> list[Announcement]:
        s = self.state
        assert s.goal is not None
        if len(s.building) < 27:
            return []
        check = check_goal(self.structure(), s.goal)
        if not check.ok:
            assert check.problem is not None
            # worth nothing once the time is up (the game is over): "time's up" cut it, and it went on after it
            return [replace(_a(check.problem, **check.params), until=("time_up",))]
        s.phase = Phase.OVER
        s.result = "goal"
        s.winners = list(s.players)
        h = s.hourglass
        if h is not None and isinstance(at, int | float) and h.is_running(float(at)):
            h.cancel(float(at))  # the sand stops where the goal stood: the time it took stays in the state
        return [self._goal_done()]

    def _goal_done(self) -> Announcement:
        """The goal built, in time where the clock ran to the last cube (stopped then, not interrupted)."""
        s = self.state
        assert s.goal is not None
        h = s.hourglass
        if h is not None and h.started_at is not None and h.stopped_at is not None and not h.interrupted:
            seconds = round(h.elapsed(h.stopped_at))
            return _a(f"fritzo.goal.done_in.{s.goal.value}", minutes=seconds // 60, seconds=seconds % 60)
        return _a(f"fritzo.goal.done.{s.goal.value}")

    def _team_after(self) -> list[Announcement]:
        s = self.state
        assert s.goal is not None
        if len(s.building) == 27:
            s.phase = Phase.OVER
            if check_goal(self.structure(), s.goal).ok:
                s.result, s.winners = "team", list(s.players)
            else:
                s.result = "cube"
            return self._team_end()
        if not self.solver.placements(
            self.structure(), self.cubes_left(), self.contact, self.limits, first=True
        ):
            s.phase = Phase.OVER
            s.result = "cube"
            return self._team_end()
        return self._next_turn()

    def _team_end(self) -> list[Announcement]:
        """How a team game ended, as said then and shown after it: the goal built, or the Cube's win (no cube left
        fits, or the 27 stand but not as the goal, and why)."""
        s = self.state
        assert s.goal is not None
        if s.result == "team":
            return [_a(f"fritzo.team.won.{s.goal.value}")]
        if len(s.building) < 27:
            return [_a("fritzo.team.cube_wins", count=len(self.cubes_left()))]
        check = check_goal(self.structure(), s.goal)
        problem = [_a(check.problem, **check.params)] if check.problem else []
        return [*problem, _a("fritzo.team.cube_wins_goal")]

    def _strategy_after(self, who: str, formations: list[scoring.Formation]) -> list[Announcement]:
        s = self.state
        out: list[Announcement] = []
        s.moves[who] += 1
        gained = scoring.totals(formations)
        s.log = [f.to_json() for f in formations]
        for player in s.players:
            pts = gained.get(player, 0)
            if not pts:
                continue
            s.scores[player] += pts
            mine = [f for f in formations if f.owner == player]
            counts = {shape: sum(1 for f in mine if f.shape is shape) for shape in scoring.Shape}
            # what scored, named (the shapes that did not were said too: "rows: 0, stairs: 1, triangles: 0" made
            # the sentence of nearly every move eight seconds long)
            what = [{"key": f"fritzo.shape.{shape.value}", "params": {"n": n}} for shape, n in counts.items() if n]
            key = "fritzo.score.points" if player == who else "fritzo.score.gift"
            out.append(_a(key, player=player, mover=who, points=pts, what=what, total=s.scores[player]))
        if gained.get(who, 0) >= 7:
            s.phase = Phase.OVER
            s.result = "super-fritzo"
            s.winners = [who]
            return out + [_a("fritzo.super", player=who, points=gained[who])]
        # the score a sentence of its own, the call after it: merged into one sentence taken back with the call when
        # the next cube was placed, every score was cut off at a table moving every few seconds ("zusammen 8" lost)
        return out + self._strategy_next()

    def _strategy_next(self) -> list[Announcement]:
        s = self.state
        if all(s.moves[p] >= s.allowance[p] for p in s.players):
            s.phase = Phase.OVER
            best = max(s.scores.values())
            top = [p for p in s.players if s.scores[p] == best]
            if len(top) > 1:
                s.result, s.winners = "won", [s.last_mover or top[-1]]
                return [_a("fritzo.strategy.tie", player=s.winners[0], points=best)]
            s.result, s.winners = "won", top
            return [_a("fritzo.over.winner", player=top[0], points=best)]
        nxt = s.players[1 - s.turn]
        if s.moves[nxt] < s.allowance[nxt]:
            s.turn = 1 - s.turn
        return [_turn(s.players[s.turn])]

    def _place_level_one(self, action: dict[str, Any]) -> list[Announcement]:
        s = self.state
        who = self._player(action, required=True)
        assert who is not None
        if who in s.done:
            raise TurnError("fritzo.err.already_done", player=who)
        cube = self._cube(action)
        holder = s.owner.get(cube)
        if holder is not None and holder != who:
            raise CubeError("fritzo.err.cube_other", cube=cube, player=holder)
        if any(p.cube == cube for plane in s.planes.values() for p in plane.values()):
            raise CubeError("fritzo.err.cube_used", cube=cube)
        if holder is None and sum(1 for h in s.owner.values() if h == who) >= s.allowance[who]:
            raise CubeError("fritzo.err.no_cubes_left", player=who, count=s.allowance[who])
        cell = self._cell(action, flat=True)
        rotation = self._rotation(action, cube)
        colours = orient(s.cubeset.cube(cube).faces, rotation)
        plane = self.structure(who)
        check_placement(plane, cell, colours, contact=Contact.SAME, limits=PLANE_LIMITS)
        s.planes[who][cell] = Placed(cube, rotation, who)
        s.owner[cube] = who
        plane[cell] = colours
        new = scoring.formations_with(
            plane, cell, self.owners(), points=scoring.LEVEL_ONE_POINTS, bottom=True, outer_sides=True
        )
        s.log = [f.to_json() for f in new]
        before = dict(s.scores)
        self._level_one_totals()
        out = [_a("fritzo.placed_plane", False, player=who, cube=cube, cell=cell_label(cell))]
        gained = scoring.totals(new)
        for player, pts in gained.items():
            out.append(_a("fritzo.l1.rows", False, player=player, points=pts, total=s.scores[player]))
        for player in s.players:
            # a side row counts only while it is the plane's outer edge: a cube laid beside it takes it away. The
            # score fell without a word ("now -5" after "now -2"); the placer's filled gap costs a point less
            lost = gained.get(player, 0) + (player == who) - (s.scores[player] - before[player])
            if lost > 0:
                out.append(_a("fritzo.l1.rows_lost", False, player=player, points=lost, total=s.scores[player]))
        return out

    def _level_one_totals(self) -> None:
        s = self.state
        owners = self.owners()
        totals = {p: 0 for p in s.players}
        for p in s.players:
            plane = self.structure(p)
            for player, pts in scoring.totals(scoring.all_formations(plane, owners)).items():
                totals[player] += pts
            totals[p] -= 9 - len(plane)
        s.scores = totals

    def _do_remove(self, action: dict[str, Any]) -> list[Announcement]:
        s = self.state
        if s.mode not in (*SOLO_MODES, Mode.LEVEL_ONE):
            raise TurnError("fritzo.err.no_remove")
        if s.phase is Phase.START_ROLL:
            raise TurnError("fritzo.err.roll_first")
        self._check_time(action)
        if s.mode is Mode.LEVEL_ONE:
            who = self._player(action, required=True)
            assert who is not None
            if who in s.done:
                raise TurnError("fritzo.err.already_done", player=who)
            cell = self._cell(action, flat=True)
            plane = s.planes[who]
        else:
            cell = self._cell(action)
            plane = s.building
        if cell not in plane:
            raise PlacementError("fritzo.err.cell_empty", cell=cell_label(cell))
        above = (cell[0], cell[1], cell[2] + 1)
        if above in plane:
            raise PlacementError("fritzo.err.remove_below", cell=cell_label(cell))
        placed = plane.pop(cell)
        if s.mode is Mode.LEVEL_ONE:
            self._level_one_totals()
        return [_a("fritzo.removed", False, cube=placed.cube, cell=cell_label(cell), level=cell[2] + 1)]

    def _do_return(self, action: dict[str, Any]) -> list[Announcement]:
        s = self.state
        if s.mode is not Mode.TEAM:
            raise TurnError("fritzo.err.return_team_only")
        who = self._player(action)
        cube = self._cube(action)
        if any(p.cube == cube for p in s.building.values()):
            raise CubeError("fritzo.err.cube_used", cube=cube)
        return [_a("fritzo.team.returned", player=who, cube=cube)] + self._next_turn()

    def _do_pass(self, action: dict[str, Any]) -> list[Announcement]:
        s = self.state
        if s.mode is not Mode.STRATEGY:
            raise TurnError("fritzo.err.pass_strategy_only")
        if s.phase is Phase.START_ROLL:
            raise TurnError("fritzo.err.roll_first")
        who = self._player(action)
        assert who is not None
        cube = self._cube(action)
        if cube in s.out or any(p.cube == cube for p in s.building.values()):
            raise CubeError("fritzo.err.cube_used", cube=cube)
        fits = self.legal_placements(cube)
        if fits:
            p = fits[0]
            raise PlacementError("fritzo.err.cube_fits", cube=cube, cell=cell_label(p.cell))
        s.out.append(cube)
        s.moves[who] += 1
        s.scores[who] -= 1
        s.last_mover = who
        s.log = []
        return [
            _a("fritzo.strategy.pass", player=who, cube=cube, total=s.scores[who])
        ] + self._strategy_next()

    def _do_done(self, action: dict[str, Any]) -> list[Announcement]:
        s = self.state
        if s.mode is not Mode.LEVEL_ONE:
            raise TurnError("fritzo.err.done_level_one_only")
        if s.phase is Phase.START_ROLL:
            raise TurnError("fritzo.err.roll_first")
        who = self._player(action, required=True)
        assert who is not None
        if who in s.done:
            raise TurnError("fritzo.err.already_done", player=who)
        self._check_time(action)
        s.done.append(who)
        gaps = 9 - len(s.planes[who])
        out = [_a("fritzo.l1.done", player=who, gaps=gaps)]
        if len(s.done) == len(s.players):
            out += self._level_one_over()
        return out

    def _level_one_over(self) -> list[Announcement]:
        s = self.state
        self._level_one_totals()
        s.phase = Phase.OVER
        best = max(s.scores.values())
        top = [p for p in s.players if s.scores[p] == best]
        if len(top) == 1:
            s.result, s.winners = "won", top
            return [_a("fritzo.over.winner", player=top[0], points=best)]
        first_done = [p for p in s.done if p in top]
        if first_done:
            s.result, s.winners = "won", [first_done[0]]
            return [_a("fritzo.l1.tie", player=first_done[0], points=best)]
        s.result, s.winners = "draw", top
        return [_a("fritzo.over.draw", points=best)]


LEVEL_ONE_MINUTES = 10.0
#: the playing times the setup offers for Level One (any 1-600 minutes is accepted in a transcript)
LEVEL_ONE_CHOICES = (5, 10, 15, 20)
#: the time limits the setup offers for a race in Beginner, Challenge and Professional (27 cubes take longer)
RACE_CHOICES = (5, 10, 15, 20, 30)

_HANDLERS = {
    "take_out": Fritzo._do_take_out,
    "roll": Fritzo._do_roll,
    "start": Fritzo._do_start,
    "time_up": Fritzo._do_time_up,
    "timer_interrupted": Fritzo._do_timer_interrupted,
    "place": Fritzo._do_place,
    "remove": Fritzo._do_remove,
    "return": Fritzo._do_return,
    "pass": Fritzo._do_pass,
    "done": Fritzo._do_done,
}


def _fmt_minutes(m: float) -> int | float:
    """A number, so that the catalog's plural forms match ("1 minute"): a whole number as an int."""
    return int(m) if float(m).is_integer() else m


def player_limits(mode: Mode) -> tuple[int, int]:
    """How few and how many may play ``mode``: the setup screen offers only these counts."""
    return {Mode.TEAM: (2, 4), Mode.LEVEL_ONE: (2, 2), Mode.STRATEGY: (2, 2)}.get(mode, (1, 8))


def _new_state(setup: dict[str, Any]) -> FritzoState:
    try:
        mode = Mode(setup.get("mode"))
    except ValueError:
        raise SetupError(
            "fritzo.err.mode", mode=str(setup.get("mode")), modes=", ".join(m.value for m in Mode)
        ) from None
    players = setup.get("players")
    if not isinstance(players, list) or not all(isinstance(p, str) and p.strip() for p in players):
        raise SetupError("fritzo.err.players_format")
    if len(set(players)) != len(players):
        raise SetupError("fritzo.err.players_twice")
    limits = player_limits(mode)
    if not limits[0] <= len(players) <= limits[1]:
        raise SetupError(
            "fritzo.err.player_count_exact" if limits[0] == limits[1] else "fritzo.err.player_count",
            mode=f"fritzo.mode.{mode.value}",
            low=limits[0],
            high=limits[1],
            count=len(players),
        )
    if setup.get("cubes") is not None:
        raw = setup["cubes"]
        cubeset = CubeSet.from_json(raw if isinstance(raw, dict) else {"cubes": raw})
    else:
        cubeset = default_set()
    state = FritzoState(mode=mode, players=list(players), cubeset=cubeset, seed=setup.get("seed", 0))
    if mode in SOLO_MODES:
        state.goal = Goal(mode.value)
    elif mode is Mode.TEAM:
        try:
            state.goal = Goal(setup.get("target", "beginner"))
        except ValueError:
            raise SetupError("fritzo.err.target", target=str(setup.get("target"))) from None
        state.turn = _start_index(setup, players)
    else:
        state.colours = _split_colours(setup, players, cubeset)
        state.scores = {p: 0 for p in players}
        state.phase = Phase.START_ROLL
        state.start_colour = str(setup.get("start_colour", "blue"))
        if mode is Mode.LEVEL_ONE and state.start_colour not in cubeset.colours:
            # named in the table's language, with the colours there are (the English "blue" stood in a German
            # sentence when a taught set named its blue otherwise; the setup now asks which colour decides)
            raise SetupError("fritzo.err.start_colour", colour=colour_key(state.start_colour),
                             colours=[colour_key(c) for c in cubeset.colours])
        state.planes = {p: {} for p in players} if mode is Mode.LEVEL_ONE else {}
        if mode is Mode.LEVEL_ONE:  # an empty plane is nine gaps: -9 each from the start, so that the first cube
            Fritzo(state)._level_one_totals()  # shows as the point it gains, not as a loss of 8 from 0
        if mode is Mode.STRATEGY:
            state.allowance = {p: 13 for p in players}
            state.moves = {p: 0 for p in players}
            state.jokers = {p: True for p in players}
            state.third_level = "own" if setup.get("third_level") == "own" else "any"  # absent: a journal from before
            if setup.get("excluded") is not None:
                ex = str(setup["excluded"])
                if ex not in cubeset.ids:
                    raise SetupError("fritzo.err.cube_unknown_setup", cube=ex)
                state.out = [ex]
        state.turn = _start_index(setup, players)  # who rolls first
        starter = setup.get("starter")
        if starter is not None:  # the start player is already known (rolled without the companion)
            if starter not in players:
                raise SetupError("fritzo.err.first", player=str(starter))
            Fritzo(state)._begin(starter)
    minutes = setup.get("minutes")
    if minutes is not None:
        if not isinstance(minutes, int | float) or isinstance(minutes, bool) or not 0 < minutes <= 600:
            raise SetupError("fritzo.err.minutes", value=str(minutes))
        if mode in (Mode.TEAM, Mode.STRATEGY):
            raise SetupError("fritzo.err.minutes_mode", mode=f"fritzo.mode.{mode.value}")
        state.minutes = float(minutes)
        state.hourglass = Hourglass(duration=float(minutes) * 60.0, warning_seconds=30.0)
    elif mode is Mode.LEVEL_ONE:  # "Spieldauer: 10 Minuten+": the agreed time, ten minutes unless told
        state.minutes = LEVEL_ONE_MINUTES
        state.hourglass = Hourglass(duration=LEVEL_ONE_MINUTES * 60.0, warning_seconds=30.0)
    return state


def _start_index(setup: dict[str, Any], players: list[str]) -> int:
    """``start`` as the setup wizard gives it (a seat index) or as a name; the first seat when not given."""
    start = setup.get("start", 0)
    if isinstance(start, str) and start in players:
        return players.index(start)
    if isinstance(start, int) and not isinstance(start, bool) and 0 <= start < len(players):
        return start
    raise SetupError("fritzo.err.first", player=str(start))


def _split_colours(setup: dict[str, Any], players: list[str], cubeset: CubeSet) -> dict[str, list[str]]:
    """Each player's three own colours: as given, else the set's first three / last three."""
    given = setup.get("colours")
    colours = list(cubeset.colours)
    if given is None:
        return {players[0]: colours[:3], players[1]: colours[3:]}
    if not isinstance(given, dict) or set(given) != set(players):
        raise SetupError("fritzo.err.colours_format", players=list(players))
    seen: list[str] = []
    for p in players:
        own = given[p]
        if not isinstance(own, list) or len(own) != 3 or len(set(own)) != 3:
            raise SetupError("fritzo.err.colours_three", player=p)
        for c in own:
            if c not in colours:
                raise SetupError("fritzo.err.colour_unknown", colour=str(c), colours=", ".join(colours))
        seen += own
    if len(set(seen)) != 6:
        raise SetupError("fritzo.err.colours_shared")
    return {p: list(given[p]) for p in players}


__all__ = ["Fritzo", "FritzoError", "FritzoState", "Mode", "Phase", "Placed"]
