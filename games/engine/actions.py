"""The moves of the game and one entry point, `apply`, that checks a move and then makes it.

A move is checked in full before anything changes, so an illegal one raises IllegalAction and leaves the
state untouched.
"""

from . import election, legislature, participation, powers
from .common import require_actor, require_living, require_step
from .constants import ALIVE, BALLOTS, DISCARD, ENACT, EXECUTION_VOTE, NOMINATE, POLICIES, VETO_REPLY, VOTE, Step
from .errors import IllegalAction, _
from .notation import MOVES_BY_A_SEAT, Action
from .state import GameState
from .timeouts import timeout
from .voting import cast_ballot


def apply(g: GameState, action: Action) -> list[dict]:
    """Make the move and return the public events it caused. Raises IllegalAction when the rules forbid it."""
    handler = _HANDLERS.get(action.type)
    if handler is None:
        raise IllegalAction(_("Unknown move."), code="unknown_move")
    by, target, seats = action.by, action.target, len(g.seats)
    if by is not None and (by.__class__ is not int or not 0 <= by < seats):
        raise IllegalAction(_("There is no seat %(seat)s in this game."), seat=by, code="no_such_seat")
    if target is not None and (target.__class__ is not int or not 0 <= target < seats):
        raise IllegalAction(_("There is no seat %(seat)s in this game."), seat=target, code="no_such_seat")
    if by is None and action.type in MOVES_BY_A_SEAT:
        raise IllegalAction(_("This move needs the player who makes it."), code="actor_missing")
    start = len(g.events)
    handler(g, action)
    return g.events[start:]


def _nominate(g: GameState, a: Action) -> None:
    require_step(g, NOMINATE)
    require_actor(g, a.by, g.president, _("Only %(name)s, the presidential candidate, can nominate now."))
    election.check_nominee(g, _target(a))
    participation.mark_made(g.seats[a.by])
    election.nominate(g, a.target)


_VOTE_STEPS = (VOTE, EXECUTION_VOTE)


def _vote(g: GameState, a: Action) -> None:
    # The most frequent move: its checks are those of require_step and require_living, each a comparison first.
    if g.step not in _VOTE_STEPS:
        require_step(g, *_VOTE_STEPS)
    if g.seats[a.by].status is not ALIVE:
        require_living(g, a.by)
    if a.choice not in BALLOTS:
        raise IllegalAction(_("A ballot is Ja or Nein."), code="invalid_choice")
    cast_ballot(g, a.by, a.choice)


def _discard(g: GameState, a: Action) -> None:
    require_step(g, DISCARD)
    require_actor(g, a.by, g.president, _("Only %(name)s, the president, can discard now."))
    _check_policy(g, a.choice)
    participation.mark_made(g.seats[a.by])
    legislature.discard(g, g.hand.index(a.choice))


def _enact(g: GameState, a: Action) -> None:
    require_step(g, ENACT)
    require_actor(g, a.by, g.chancellor, _("Only %(name)s, the chancellor, can enact a policy now."))
    _check_policy(g, a.choice)
    participation.mark_made(g.seats[a.by])
    legislature.enact(g, g.hand.index(a.choice))


def _veto(g: GameState, a: Action) -> None:
    require_step(g, ENACT)
    require_actor(g, a.by, g.chancellor, _("Only %(name)s, the chancellor, can ask for a veto now."))
    legislature.check_veto(g)
    participation.mark_made(g.seats[a.by])
    legislature.request_veto(g)


def _veto_reply(g: GameState, a: Action) -> None:
    require_step(g, VETO_REPLY)
    require_actor(g, a.by, g.president, _("Only %(name)s, the president, can answer the veto request now."))
    if not isinstance(a.choice, bool):
        raise IllegalAction(_("A veto is accepted or refused."), code="invalid_choice")
    participation.mark_made(g.seats[a.by])
    legislature.answer_veto(g, a.choice)


def _power(g: GameState, a: Action) -> None:
    if not g.over and g.step != a.type:
        raise IllegalAction(_("No one holds this power now."), code="wrong_step")
    require_step(g, Step(a.type))
    require_actor(g, a.by, g.president, _("Only %(name)s, the president, can use this power now."))
    powers.check_target(g, _target(a))
    participation.mark_made(g.seats[a.by])
    powers.use_power(g, a.target)


def _timeout(g: GameState, a: Action) -> None:
    require_not_over(g)
    timeout(g)


def _absence(g: GameState, a: Action) -> None:
    require_not_over(g)
    participation.require_living_player(g, a.by)
    if not isinstance(a.choice, bool):
        raise IllegalAction(_("An absence either starts or ends."), code="invalid_choice")
    participation.set_absence(g, a.by, a.choice)


def _substitute(g: GameState, a: Action) -> None:
    require_not_over(g)
    participation.add_substitute(g, _name(a))


def _withdraw(g: GameState, a: Action) -> None:
    require_not_over(g)
    participation.withdraw(g, _name(a))


def _excuse(g: GameState, a: Action) -> None:
    require_not_over(g)
    participation.require_living_player(g, _target(a))
    participation.excuse(g, a.target)


def _exile(g: GameState, a: Action) -> None:
    require_not_over(g)
    participation.require_living_player(g, _target(a))
    participation.schedule(g, "exile", a.target)


def _replace(g: GameState, a: Action) -> None:
    require_not_over(g)
    participation.require_living_player(g, _target(a))
    participation.schedule(g, "replace", a.target, _name(a))


def _cancel(g: GameState, a: Action) -> None:
    require_not_over(g)
    participation.cancel(g)


def require_not_over(g: GameState) -> None:
    if g.over:
        raise IllegalAction(_("The game is over."), code="game_over")


def _check_policy(g: GameState, policy) -> None:
    if policy not in POLICIES:
        raise IllegalAction(_("A policy is L (liberal) or F (fascist)."), code="invalid_choice")
    legislature.check_in_hand(g, policy)


def _target(a: Action) -> int:
    if a.target is None:
        raise IllegalAction(_("This move needs a player."), code="target_missing")
    return a.target


def _name(a: Action) -> str:
    if not isinstance(a.name, str) or not a.name:
        raise IllegalAction(_("A name is needed."), code="name_missing")
    return a.name


_HANDLERS = {
    "nominate": _nominate,
    "vote": _vote,
    "discard": _discard,
    "enact": _enact,
    "veto": _veto,
    "veto_reply": _veto_reply,
    "investigate": _power,
    "special_election": _power,
    "execute": _power,
    "timeout": _timeout,
    "absence": _absence,
    "substitute": _substitute,
    "withdraw": _withdraw,
    "excuse": _excuse,
    "exile": _exile,
    "replace": _replace,
    "cancel": _cancel,
}

ACTION_TYPES = tuple(_HANDLERS)
