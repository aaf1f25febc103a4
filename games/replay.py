"""Replay scripts (../shared/REPLAY.md): one game as data, played through the rules engine.

Pure Python like the engine: `manage.py replay` is a thin wrapper, and tests call `replay_script` directly.
"""

import random
from dataclasses import dataclass, field

import msgspec

from .engine import (
    GameState,
    IllegalAction,
    InvalidSetup,
    Settings,
    apply,
    new_game,
    player_view,
    public_view,
    random_move,
    secret_view,
    summary,
)
from .engine.errors import _
from .engine.events import Event
from .engine.notation import BadShape, check_shape, to_action, write_move
from .engine.rng import DEFAULT_SCHEME, SCHEMES

EXIT_OK, EXIT_ILLEGAL, EXIT_INVALID = 0, 1, 2


class ScriptError(ValueError):
    """The script is not a valid script (exit status 2)."""


@dataclass
class Script:
    players: list[str]
    roles: dict | None = None
    deck: list[str] | None = None
    first_president: str | None = None
    seed: int = 0
    rng: str = DEFAULT_SCHEME
    settings: Settings = field(default_factory=Settings)
    reshuffles: list[list[str]] = field(default_factory=list)
    actions: list[dict] = field(default_factory=list)


def parse_script(data) -> Script:
    """Check the whole script's shape before anything is played; raise ScriptError when it is invalid."""
    if not isinstance(data, dict):
        raise ScriptError("a script is a JSON object")
    players = data.get("players")
    if not isinstance(players, list) or not all(isinstance(p, str) and p for p in players):
        raise ScriptError("players must be a list of non-empty names")
    roles = _optional(data, "roles", dict, "an object of player: role")
    deck = _optional(data, "deck", list, "a list of cards")
    first = _optional(data, "first_president", str, "a player's name")
    seed = data.get("seed")
    seed = 0 if seed is None else seed
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise ScriptError("seed must be an integer")
    rng = data.get("rng")
    rng = DEFAULT_SCHEME if rng is None else rng
    if not isinstance(rng, str) or rng not in SCHEMES:
        raise ScriptError(f"rng {rng!r} is not a scheme of this project ({', '.join(SCHEMES)})")
    reshuffles = _optional(data, "reshuffles", list, "a list of card lists") or []
    if not all(isinstance(order, list) and all(c in ("L", "F") for c in order) for order in reshuffles):
        raise ScriptError("each reshuffle is a list of cards, L or F")
    actions = _optional(data, "actions", list, "a list of actions") or []
    for index, action in enumerate(actions):
        try:
            check_shape(action, f"action {index}")
        except BadShape as error:
            raise ScriptError(str(error)) from None
    settings = _optional(data, "settings", dict, "an object of setting: value") or {}
    try:
        settings = Settings.from_dict(settings)
    except InvalidSetup as error:
        raise ScriptError(str(error)) from None
    return Script(players, roles, deck, first, seed, rng, settings, reshuffles, actions)


def _optional(data: dict, key: str, kind: type, what: str):
    value = data.get(key)
    if value is not None and not isinstance(value, kind):
        raise ScriptError(f"{key} must be {what}")
    return value


def start(script: Script) -> GameState:
    try:
        return new_game(
            script.players,
            seed=script.seed,
            rng=script.rng,
            roles=script.roles,
            deck=script.deck,
            first_president=script.first_president,
            settings=script.settings,
            reshuffles=script.reshuffles,
        )
    except InvalidSetup as error:
        raise ScriptError(str(error)) from None


def play(script: Script) -> tuple[GameState, dict | None]:
    """Apply every action in order; stop at the first illegal one and say which."""
    g = start(script)
    for index, step in enumerate(script.actions):
        try:
            if g.over:
                raise IllegalAction(_("The game is over."), code="game_over")
            apply(g, to_action(g, step))
        except IllegalAction as error:
            return g, {"index": index, "message": str(error)}
        except InvalidSetup as error:
            raise ScriptError(f"action {index}: {error}") from None
    return g, None


@dataclass(frozen=True)
class Moment:
    """The game after `number` actions of its script: the action that led there (None: the deal), the events it
    logged, and the public and the secret view of that moment (engine/views.py)."""

    number: int
    action: dict | None
    events: list[Event]
    public: dict
    secret: dict


def moments(data) -> list[Moment]:
    """Every moment of a game played from its script, the deal first, as the engine reaches them: a finished
    game's step-by-step replay. Raises ScriptError if the script is invalid or breaks the rules (a stored game's
    never does: it was played by the same engine)."""
    script = parse_script(data)
    g = start(script)
    found = [Moment(0, None, list(g.events), public_view(g), secret_view(g))]
    for index, move in enumerate(script.actions):
        before = len(g.events)
        try:
            if g.over:
                raise IllegalAction(_("The game is over."), code="game_over")
            apply(g, to_action(g, move))
        except (IllegalAction, InvalidSetup) as error:
            raise ScriptError(f"action {index}: {error}") from None
        found.append(Moment(index + 1, move, g.events[before:], public_view(g), secret_view(g)))
    return found


def replay_script(data, *, view: str | None = None, reveal: bool = False) -> tuple[int, dict]:
    """Play a script and build the output object of REPLAY.md, with its exit status."""
    try:
        g, error = play(parse_script(data))
        output = {"ok": error is None, "error": error, "state": summary(g), "events": msgspec.to_builtins(g.events)}
        if view is not None:
            output["private"] = private_view_of(g, view)
    except ScriptError as error:
        return EXIT_INVALID, invalid_output(str(error))
    if reveal:
        output["secret"] = secret_view(g)
    return (EXIT_OK if error is None else EXIT_ILLEGAL), output


def private_view_of(g: GameState, name: str) -> dict:
    for index, seat in enumerate(g.seats):
        if seat.name == name:
            return player_view(g, index)
    raise ScriptError(f"--view: {name!r} is not in the game")


def invalid_output(message: str) -> dict:
    return {"ok": False, "error": {"index": None, "message": message}, "state": None}


def random_script(players: list[str], seed: int) -> dict:
    """The script of a game dealt from `seed` and played to its end by random legal moves (engine.random_move), the
    same ones for the same seed: the demo's finished tables, the screenshots' leagues, the tests' random games."""
    pick, g, actions = random.Random(seed), new_game(players, seed=seed), []
    while not g.over:
        action = random_move(g, pick)
        actions.append(write_move(g, action))
        apply(g, action)
    return {"players": list(players), "seed": seed, "actions": actions}
