"""T4: what happens when the deadline of the waiting step passes. Every step has an outcome (T6)."""

from .common import emit
from .constants import (
    DISCARD,
    ENACT,
    EXECUTE,
    EXECUTION_VOTE,
    INVESTIGATE,
    NOMINATE,
    SPECIAL_ELECTION,
    VETO_REPLY,
    VOTE,
)
from .election import fail_nomination, nominate
from .events import DeadlinePassed
from .legislature import answer_veto, discard, enact
from .participation import mark_missed
from .powers import forfeit_power, power_targets, use_power
from .rng import Rng
from .state import GameState
from .terms import eligible_chancellors
from .voting import close_vote


def timeout(g: GameState) -> None:
    """Apply the outcome of the current step's deadline (the caller has checked the game is not over).

    The outcome's own event, the first the outcome emits (a random discard's `president_discarded`, a refused
    veto's `veto_answered`), is marked `by_deadline`: it is announced as the deadline's doing, never as a choice
    the player made (events.py)."""
    step = g.step
    emit(g, DeadlinePassed(step=str(step), round=g.round))
    first = len(g.events)
    _OUTCOMES[step](g)
    g.events[first].by_deadline = True


def _nomination(g: GameState) -> None:
    mark_missed(g.seats[g.president])
    if g.settings.nomination_timeout == "random":
        nominate(g, _draw(g).choice(eligible_chancellors(g)))
    else:
        fail_nomination(g)


def _discard(g: GameState) -> None:
    mark_missed(g.seats[g.president])
    discard(g, _draw(g).below(len(g.hand)))


def _enact(g: GameState) -> None:
    mark_missed(g.seats[g.chancellor])
    enact(g, _draw(g).below(len(g.hand)))


def _veto_reply(g: GameState) -> None:
    mark_missed(g.seats[g.president])
    answer_veto(g, False)


def _power(g: GameState) -> None:
    mark_missed(g.seats[g.president])
    if g.settings.power_timeout == "random":
        use_power(g, _draw(g).choice(power_targets(g, g.step)))
    else:
        forfeit_power(g)


def _draw(g: GameState) -> Rng:
    # The step number names the stream: two random outcomes of one game (two random discards) never share one.
    return g.rng.stream(f"timeout:step:{g.step_number}")


_OUTCOMES = {
    NOMINATE: _nomination,
    VOTE: close_vote,
    EXECUTION_VOTE: close_vote,
    DISCARD: _discard,
    ENACT: _enact,
    VETO_REPLY: _veto_reply,
    INVESTIGATE: _power,
    SPECIAL_ELECTION: _power,
    EXECUTE: _power,
}
