"""How a move is written, once: its name, its fields, and the engine's Action it stands for.

A written move is what people and scripts send: seats named by their players (REPLAY.md's actions, the panel's
form, the API, email commands). An Action is what the engine applies: seats by index. `to_action` reads one
into the other and `write_move` writes it back, as python-chess's `Board.parse_uci` and `Move.uci()` do.
"""

from typing import NamedTuple

from .constants import BALLOTS, POLICIES
from .errors import IllegalAction, _
from .state import GameState


class Action(NamedTuple):
    """One move. Seats are indices in seat order.

    type      the move's name, one of MOVE_FIELDS
    by        the seat making the move
    target    the nominee, the power's target, or the player a moderator acts on
    choice    the ballot ("ja"/"nein"), the policy ("L"/"F"), a veto answer or an absence (True/False)
    name      a new person: a substitute, who takes the seat in a replacement, or who withdraws
    """

    type: str
    by: int | None = None
    target: int | None = None
    choice: str | bool | None = None
    name: str | None = None


# A field's kind: "name" (a player's name, or a new person's), "ballot", "policy", "bool".
MOVE_FIELDS: dict[str, dict[str, str]] = {
    "nominate": {"by": "name", "target": "name"},
    "vote": {"by": "name", "vote": "ballot"},
    "discard": {"by": "name", "policy": "policy"},
    "enact": {"by": "name", "policy": "policy"},
    "veto": {"by": "name"},
    "veto_reply": {"by": "name", "accept": "bool"},
    "investigate": {"by": "name", "target": "name"},
    "special_election": {"by": "name", "target": "name"},
    "execute": {"by": "name", "target": "name"},
    "timeout": {},
    "absence": {"by": "name", "away": "bool"},
    "substitute": {"name": "name"},
    "withdraw": {"name": "name"},  # this project's own: REPLAY.md has no such action (docs/moderating.md)
    "excuse": {"player": "name"},
    "exile": {"player": "name"},
    "replace": {"player": "name", "name": "name"},
    "cancel": {},
}
KIND_VALUES = {"ballot": BALLOTS, "policy": POLICIES}

PLAYER_MOVES = (
    "nominate",
    "vote",
    "discard",
    "enact",
    "veto",
    "veto_reply",
    "investigate",
    "special_election",
    "execute",
)
"""The moves a player makes from the panel, the API or email; the others are a moderator's, or the clock's."""

PLAYER_FIELDS = {name: kind for move in PLAYER_MOVES for name, kind in MOVE_FIELDS[move].items() if name != "by"}
"""What a player sends besides the move's name: the sender is the seat."""

MOVES_BY_A_SEAT = frozenset(move for move, fields in MOVE_FIELDS.items() if "by" in fields)
"""The moves `apply` refuses without the seat that makes them."""

# A written field -> the Action's field it fills; "by" and "target" hold seats, named when written.
_SLOTS = {
    "by": "by",
    "target": "target",
    "player": "target",
    "vote": "choice",
    "policy": "choice",
    "accept": "choice",
    "away": "choice",
    "name": "name",
}
_SEATS = ("by", "target")


class BadShape(ValueError):
    """A written move whose shape is wrong (REPLAY.md's first kind of wrong): no rule is asked."""


def check_shape(move, where: str = "the action") -> None:
    """Raise BadShape, saying what is wrong, unless `move` has a known type and each of its fields well formed."""
    if not isinstance(move, dict):
        raise BadShape(f"{where} is not an object")
    kind = move.get("type")
    fields = MOVE_FIELDS.get(kind) if isinstance(kind, str) else None
    if fields is None:
        raise BadShape(f"{where} has an unknown type {move.get('type')!r}")
    for name, kind in fields.items():
        if name not in move:
            raise BadShape(f"{where} ({move['type']}) needs {name!r}")
        if not _well_formed(kind, move[name]):
            raise BadShape(f"{where} ({move['type']}) has an invalid {name!r}: {move[name]!r}")


def _well_formed(kind: str, value) -> bool:
    if kind == "bool":
        return isinstance(value, bool)
    if kind == "name":
        return isinstance(value, str) and value != ""
    return value in KIND_VALUES[kind]


def to_action(g: GameState, move: dict) -> Action:
    """The engine's move for a written one (its shape already checked); a name with no seat is illegal."""
    slots = {}
    for name in MOVE_FIELDS[move["type"]]:
        slot = _SLOTS[name]
        slots[slot] = seat_of(g, move[name]) if slot in _SEATS else move[name]
    return Action(move["type"], **slots)


def write_move(g: GameState, action: Action) -> dict:
    """The written move for one of the engine's, as a replay script spells it: `to_action` reads it back."""
    move = {"type": action.type}
    for name in MOVE_FIELDS[action.type]:
        slot = _SLOTS[name]
        value = getattr(action, slot)
        move[name] = g.seats[value].name if slot in _SEATS else value
    return move


def player_move(g: GameState, action: Action) -> dict:
    """The written move without `by`, as a player sends it (the panel, the API, email): the sender is the seat."""
    move = write_move(g, action)
    del move["by"]
    return move


def seat_of(g: GameState, name: str) -> int:
    """The seat `name` holds; IllegalAction when they hold none (any more)."""
    for index, s in enumerate(g.seats):
        if s.name == name:
            return index
    if name in g.former_names:
        raise IllegalAction(_("%(name)s no longer holds a seat in this game."), code="not_seated", name=name)
    raise IllegalAction(_("%(name)s is not a player in this game."), code="no_such_player", name=name)


def pgettext(context: str, word: str) -> str:
    """Marks a word for translation in `context` (the site's catalogues pick it up); the engine speaks English."""
    return word


class CommandWord(NamedTuple):
    """A word that makes a move in an email: `takes` is the field its one argument fills (none: no argument),
    `fixed` the fields the word itself says (`accept` is a veto_reply with accept true)."""

    word: str
    move: str
    takes: str | None = None
    fixed: tuple[tuple[str, object], ...] = ()
    translated: bool = True


COMMAND_WORDS = (
    CommandWord(BALLOTS[0], "vote", fixed=(("vote", BALLOTS[0]),), translated=False),
    CommandWord(BALLOTS[1], "vote", fixed=(("vote", BALLOTS[1]),), translated=False),
    CommandWord(pgettext("email command", "nominate"), "nominate", "target"),
    CommandWord(pgettext("email command", "discard"), "discard", "policy"),
    CommandWord(pgettext("email command", "enact"), "enact", "policy"),
    CommandWord(pgettext("email command", "veto"), "veto"),
    CommandWord(pgettext("email command", "accept"), "veto_reply", fixed=(("accept", True),)),
    CommandWord(pgettext("email command", "refuse"), "veto_reply", fixed=(("accept", False),)),
    CommandWord(pgettext("email command", "investigate"), "investigate", "target"),
    CommandWord(pgettext("email command", "pick"), "special_election", "target"),
    CommandWord(pgettext("email command", "execute"), "execute", "target"),
)
"""The ballots are the game's own words in every language; the other words are translated (context "email
command") and always accepted in English too."""


def command_for(move: dict) -> tuple[CommandWord, str | None]:
    """The command word that makes a player's written move, and its argument (None: the word alone)."""
    for command in COMMAND_WORDS:
        if command.move == move["type"] and all(move.get(name) == value for name, value in command.fixed):
            return command, (move[command.takes] if command.takes else None)
    raise ValueError(f"no command word makes {move!r}")


def command_move(command: CommandWord, argument: str | None = None) -> dict:
    """The written move a command word makes, with its argument (already checked) when it takes one."""
    move = {"type": command.move, **dict(command.fixed)}
    if command.takes:
        move[command.takes] = argument
    return move
