"""Small steps shared by every part of the round: the public log, waiting steps and the end of the game."""

from .constants import (
    ALIVE,
    DEAD,
    EXILED,
    FASCIST_POLICIES_TO_WIN,
    GAME_OVER,
    LIBERAL_POLICIES_TO_WIN,
    Party,
    Step,
    WinReason,
)
from .errors import IllegalAction, _
from .events import Event, GameOver
from .state import GameState, Outcome


def emit(g: GameState, event: Event) -> None:
    """Append one event to the public log. Never put a secret in one (see events.py)."""
    g.events.append(event)


def wait_for(g: GameState, step: Step) -> None:
    """A new waiting step begins: open ballot forms and stale moves are told apart by step_number."""
    g.step = step
    g.step_number += 1


def end_game(g: GameState, winner: str | None, reason: WinReason) -> None:
    """R26/R27: the game is over; everything becomes public."""
    g.outcome = Outcome(reason, None if winner is None else Party(winner))
    wait_for(g, GAME_OVER)
    roles = {seat.name: str(seat.role) for seat in g.seats}
    emit(g, GameOver(winner=g.winner, win_reason=str(reason), roles=roles, round=g.round))


def check_policy_win(g: GameState) -> bool:
    """R26: five liberal or six fascist policies end the game. True when it ended."""
    if g.liberal_policies >= LIBERAL_POLICIES_TO_WIN:
        end_game(g, Party.LIBERAL, WinReason.LIBERAL_POLICIES)
    elif g.fascist_policies >= FASCIST_POLICIES_TO_WIN:
        end_game(g, Party.FASCIST, WinReason.FASCIST_POLICIES)
    return g.over


def require_step(g: GameState, *steps: Step) -> None:
    step = g.step
    if step in steps:
        return
    if step is GAME_OVER:
        raise IllegalAction(_("The game is over."), code="game_over")
    raise IllegalAction(_("That move is not possible now."), code="wrong_step")


def require_actor(g: GameState, seat: int, owner: int | None, refusal: str) -> None:
    """The acting seat must be the one the step waits for; `refusal` names that one with %(name)s."""
    require_living(g, seat)
    if seat != owner:
        raise IllegalAction(refusal, name=g.name(owner), code="not_your_turn")


def require_living(g: GameState, seat: int) -> None:
    status = g.seats[seat].status
    if status is ALIVE:
        return
    name = g.seats[seat].name
    if status == DEAD:
        raise IllegalAction(_("%(name)s is dead and cannot act."), name=name, code="actor_not_alive")
    if status == EXILED:
        raise IllegalAction(_("%(name)s has been exiled and cannot act."), name=name, code="actor_not_alive")
