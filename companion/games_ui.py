"""How the app offers each game: title, screen, dice set and setup questions (the engines know none of this)."""

from __future__ import annotations

import itertools
import json
from typing import Any

from companion.app import GameEntry, players_steps, register_game
from companion.config import GAME_KEYS, Config
from companion.i18n import t
from companion.views.menus import SetupStep


def _haste_setup(cfg: Config, lang: str) -> list[SetupStep]:
    steps = players_steps(cfg, lang, 2, 6)
    steps[1].title = t("core.setup_youngest", lang)
    steps.append(SetupStep("variant", t("core.setup_variant", lang), [
        (t("haste.variant_standard", lang), "standard"), (t("haste.variant_1", lang), "letter-first"),
        (t("haste.variant_2", lang), "simultaneous"),
        (t("haste.variant_both", lang), ["letter-first", "simultaneous"])]))  # the rulebook's two combine
    return steps


def _echt_setup(cfg: Config, lang: str) -> list[SetupStep]:
    """"The player who sharpened a pencil last becomes the start player": asked so."""
    steps = players_steps(cfg, lang, 1, 4)
    steps[1].title = t("echt.setup_pencil", lang)
    steps.append(SetupStep("level", t("core.setup_level", lang), [(t("core.level_n", lang, n=n), n)
                                                                  for n in (1, 2, 3)]))
    return steps


def _echt_rules() -> dict:
    """Virtual dice carry the extra cross on one face of each of the 3 dice, as the rulebook's do; journals without
    ``extra_faces`` replay with the mark on every face, as they were played."""
    return {"extra_faces": "one"}


def _nxm_setup(cfg: Config, lang: str) -> list[SetupStep]:
    """"Whoever last touched something pink ... starts the game": asked so, the screen need not ask again."""
    steps = players_steps(cfg, lang, 1, 6)
    steps[1].title = t("nxm.setup_pink", lang)
    return steps


def _fritzo_setup(cfg: Config, lang: str, last: Any = None) -> list[SetupStep]:
    """The mode, who plays, and what each mode's start needs. ``last``: the finished game's engine when the table
    plays again from its end screen (``GameEntry.setup_again``)."""
    choices: list[tuple[str, dict]] = [(t(f"fritzo.mode_{m}", lang), {"mode": m})
                                       for m in ("beginner", "challenge", "professional")]
    # Team play builds one of the three goals together: one menu line each, so one question is enough
    choices += [(f"{t('fritzo.mode_team', lang)}: {t(f'fritzo.mode_{m}', lang)}", {"mode": "team", "target": m})
                for m in ("beginner", "challenge", "professional")]
    choices += [(t(f"fritzo.mode_{m}", lang), {"mode": m}) for m in ("level-one", "strategy")]
    from companion.games.fritzo.engine import (
        LEVEL_ONE_CHOICES,
        LEVEL_ONE_MINUTES,
        RACE_CHOICES,
        SOLO_MODES,
        Mode,
        player_limits,
    )

    players, start = players_steps(cfg, lang, limits=lambda answers: player_limits(Mode(answers["mode"])))
    names = start.choices
    assert callable(names)
    how_many = players.title
    assert callable(how_many)

    def who_builds(answers: dict[str, Any]) -> str:
        """Beginner, Challenge, Professional ("Anzahl der Spieler: 1+") have no turns: the answer is who builds (the
        top line and the end name them), alone or together. "Wie viele spielen mit?" asked for a game to play
        against each other, and no name stood on the screen afterwards."""
        return t("fritzo.setup_who_builds", lang) if Mode(answers["mode"]) in SOLO_MODES else how_many(answers)

    players.title = who_builds

    won = _level_one_winner(last)

    def rematch(answers: dict[str, Any]) -> bool:
        """Level One again with last Level One's winner playing: "Der Sieger einer Partie erhält bei einem neuen
        Spiel 14 Cubes" (asked as the roll was: the table may still roll for it)."""
        return answers["mode"] == Mode.LEVEL_ONE and won in answers["_players"]

    def who_starts(answers: dict[str, Any]) -> list[tuple[str, Any]]:
        """Nobody, in Beginner, Challenge and Professional: they have no turns (the answer was asked and ignored).
        Level One played again: last game's winner first, who gets the 14 cubes without a roll (``starter``)."""
        if Mode(answers["mode"]) in SOLO_MODES:
            return []
        rolls = [(name, {"start": i}) for name, i in names(answers)]
        if not rematch(answers):
            return rolls
        return [(t("fritzo.setup_winner_gets_14", lang, player=won), {"starter": won}),
                *[(t("fritzo.setup_roll_for_it", lang, player=name), value) for name, value in rolls]]

    def what_it_decides(answers: dict[str, Any]) -> str:
        """Team: the youngest places the first cube. Level One and Strategy begin with a roll, each for its own
        stake (said: "Who rolls first?" alone did not say that the first blue is worth 14 cubes)."""
        key = {Mode.TEAM: "core.setup_youngest", Mode.LEVEL_ONE: "fritzo.setup_rolls_first_l1"}.get(
            Mode(answers["mode"]), "fritzo.setup_rolls_first")
        if key == "fritzo.setup_rolls_first_l1" and rematch(answers):
            return t("fritzo.setup_rematch_l1", lang)
        if key == "fritzo.setup_rolls_first_l1" and answers.get("start_colour") is not None:
            from companion.views.fritzo_view import colour_name

            return t("fritzo.setup_rolls_first_colour", lang, colour=colour_name(answers["start_colour"], lang))
        return t(key, lang)

    # one question of several keys: who rolls first (``start``), or who gets the 14 cubes at once (``starter``)
    start.key, start.choices, start.title, start.keys = "", who_starts, what_it_decides, ("start", "starter")
    start.preselect = {"starter": won} if won is not None else None  # the rulebook's way first, highlighted

    def deciding_colours(answers: dict[str, Any]) -> list[tuple[str, Any]]:
        """Level One: "Derjenige Spieler, der zuerst die Farbe Blau würfelt, erhält 14 Cubes". A taught set whose
        colours are named otherwise (a dice-set copy may rename its blue) has no blue: the table says which colour
        decides instead. Without the question such a table was sent back to the main menu with "Die Startfarbe blue
        gibt es im Cube-Satz nicht." and could not play Level One at all."""
        colours = _fritzo_colours()
        if answers["mode"] != Mode.LEVEL_ONE or "blue" in colours:
            return []
        from companion.games.fritzo import cubeset
        from companion.views.fritzo_view import colour_label

        # the set's own names first: the colour the table renamed is most likely its blue
        own = sorted(colours, key=lambda c: c in cubeset.DEFAULT_COLOURS)
        return [(colour_label(c, lang), c) for c in own]

    start_colour = SetupStep("start_colour", t("fritzo.setup_start_colour", lang), deciding_colours)

    def playing_time(answers: dict[str, Any]) -> list[tuple[str, Any]]:
        """Level One: "Danach einigen sich die Spieler auf die Spieldauer" (the rulebook says "10 Minuten+")."""
        if answers["mode"] != Mode.LEVEL_ONE:
            return []
        return [(t("fritzo.setup_minutes_n", lang, minutes=m), m) for m in LEVEL_ONE_CHOICES]

    minutes = SetupStep("minutes", t("fritzo.setup_minutes", lang), playing_time,
                        preselect=int(LEVEL_ONE_MINUTES))

    def race_times(answers: dict[str, Any]) -> list[tuple[str, Any]]:
        """Beginner, Challenge, Professional: "Durch Setzen eines Zeitlimits können Wettbewerbe durchgeführt werden"
        (the engine had the race, the setup never offered it). No clock first, as the usual solo evening. Each
        value names its mode: a Level One's 10 minutes before must not stand highlighted over a Beginner's times
        (play again starts on last game's answers), and no clock is ``minutes: None`` so that it is matched too."""
        mode = answers["mode"]
        if mode not in SOLO_MODES:
            return []
        return [(t("fritzo.setup_no_clock", lang), {"mode": mode, "minutes": None}),
                *[(t("fritzo.setup_minutes_n", lang, minutes=m), {"mode": mode, "minutes": m}) for m in RACE_CHOICES]]

    # (a key of its own would undo ``minutes``). It lists no ``keys``: ``minutes`` belongs to the question before,
    # which every mode passes and which sets or clears it, and ``mode`` to the first; clearing them where the race
    # does not arise would take Level One's playing time and every game's mode
    race = SetupStep("", t("fritzo.setup_race", lang), race_times)

    def colour_splits(answers: dict[str, Any]) -> list[tuple[str, Any]]:
        """Level One and Strategy, each "Die sechs Würfelfarben werden unter den Spielern aufgeteilt" - the players
        split them; the first seat's three as the choice (the set's first three first, as before), the other seat
        the rest. The split was fixed and never said, so a table that split otherwise was scored wrongly (rows
        count for the colours' owner)."""
        if answers["mode"] not in (Mode.LEVEL_ONE, Mode.STRATEGY):
            return []
        from companion.views.fritzo_view import colour_label

        first, second = answers["_players"][:2]
        colours = _fritzo_colours()
        out = []
        for trio in itertools.combinations(colours, 3):
            rest = [c for c in colours if c not in trio]
            label = ", ".join(colour_label(c, lang) for c in trio)  # named as the cube-set screen names them
            out.append((label, {first: list(trio), second: rest}))
        return out

    def whose_colours(answers: dict[str, Any]) -> str:
        first, second = answers["_players"][:2]
        return t("fritzo.setup_colours", lang, player=first, other=second)

    split = SetupStep("colours", whose_colours, colour_splits)
    return [SetupStep("", t("fritzo.setup_mode", lang), choices), players, start_colour, start, minutes, race, split]


def _level_one_winner(last: Any) -> str | None:
    """The one winner of a finished Level One game (a draw has none), else None."""
    from companion.games.fritzo.engine import Mode

    state = getattr(last, "state", None)
    if state is None or getattr(state, "mode", None) is not Mode.LEVEL_ONE or state.result != "won":
        return None
    return state.winners[0] if len(state.winners) == 1 else None


def _fritzo_colours() -> list[str]:
    """The six colours of the cube set the game will use (the table's taught set, else the built-in one)."""
    from companion.games.fritzo import cubeset

    try:  # read, not loaded: a damaged file is set aside and said when the game starts, not here
        data = json.loads(cubeset.default_path().read_text(encoding="utf-8"))
        return list(cubeset.CubeSet.from_json(data, size=None).colours)
    except Exception:  # noqa: BLE001 - none, or damaged: the built-in colours for the question meanwhile
        return list(cubeset.DEFAULT_COLOURS)


def _fritzo_cubes() -> dict:
    """The table's taught cube set when there is one (the built-in set otherwise): it goes into the setup, so a
    replayed game never depends on a file that may change later. ``third_level``: Strategy's third level opens for
    the mover's own points only; journals without it replay under the rule they were played with (any points)."""
    from companion.games.fritzo import cubeset

    rules = {"third_level": "own"}
    if not cubeset.default_path().exists():
        return rules
    return {**rules, "cubes": cubeset.load().to_json()}


def _fritzo_note(lang: str, teaching_follows: bool) -> str | None:
    """The built-in cubes stand in for the table's own until these are taught: every place and position offered is
    checked against made-up nets that may not be the family's cubes, and nothing said so. Where the notice that
    the dice are not taught follows, it says where to teach: two sentences saying so filled half the screen."""
    from companion.games.fritzo import cubeset

    if cubeset.default_path().exists():
        return None
    return t("fritzo.builtin_cubes_short" if teaching_follows else "fritzo.builtin_cubes", lang)


ENTRIES = [
    GameEntry("haste-worte", "core.menu_haste_worte", "companion.views.haste_worte_view:HasteWorteMode",
              "haste-worte", _haste_setup, GAME_KEYS["haste-worte"]),
    GameEntry("echt-spitze", "core.menu_echt_spitze", "companion.views.echt_spitze_view:EchtSpitzeMode",
              "echt-spitze", _echt_setup, GAME_KEYS["echt-spitze"], setup_extras=_echt_rules),
    GameEntry("noch-x-mal", "core.menu_noch_x_mal", "companion.views.noch_x_mal_view:NochXMalMode",
              "noch-x-mal", _nxm_setup),
    GameEntry("fritzo", "core.menu_fritzo", "companion.views.fritzo_view:FritzoMode", "fritzo", _fritzo_setup,
              setup_extras=_fritzo_cubes, start_note=_fritzo_note, setup_again=_fritzo_setup),
]


def register_all() -> None:
    """Offer every game in the main menu (screens are imported only when a game starts)."""
    for entry in ENTRIES:
        register_game(entry)
