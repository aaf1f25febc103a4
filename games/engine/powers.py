"""Presidential powers (R20-R24) and the execution vote of variant `execution_vote`."""

from .ballots import count_ballots
from .common import emit, end_game, wait_for
from .constants import (
    ALIVE,
    DEAD,
    EXECUTE,
    EXECUTION_VOTE,
    HAND_SIZE,
    HITLER,
    INVESTIGATE,
    SPECIAL_ELECTION,
    Party,
    Power,
    Step,
    WinReason,
    power_for,
)
from .errors import IllegalAction, _
from .events import (
    Executed,
    ExecutionProposed,
    ExecutionVoteClosed,
    Investigated,
    PolicyPeeked,
    PowerForfeited,
    PowerGranted,
    SpecialElection,
)
from .rounds import advance_round
from .state import GameState, Investigation, Peek

POWER_STEPS = {
    Power.INVESTIGATE: INVESTIGATE,
    Power.SPECIAL_ELECTION: SPECIAL_ELECTION,
    Power.EXECUTE: EXECUTE,
}


def grant_power(g: GameState) -> None:
    """R20: the fascist policy a government just enacted grants the power on its slot, if any."""
    power = power_for(g.players_at_start, g.fascist_policies)
    if power is None:
        advance_round(g)
        return
    president = g.name(g.president)
    if power == Power.PEEK:
        cards = g.draw_pile[:HAND_SIZE]  # R7/R22: R6 has already run, so these are the real next three
        g.peeks.append(Peek(g.round, president, g.president, cards))
        emit(g, PolicyPeeked(president=president, round=g.round))
        advance_round(g)
        return
    if not power_targets(g, POWER_STEPS[power]):
        emit(g, PowerForfeited(president=president, power=str(power), reason="no_target", round=g.round))
        advance_round(g)
        return
    emit(g, PowerGranted(president=president, power=str(power), round=g.round))
    wait_for(g, POWER_STEPS[power])


def power_targets(g: GameState, step: Step) -> list[int]:
    """The legal targets: another living player, never investigated before for an investigation (R21)."""
    return [
        i
        for i, seat in enumerate(g.seats)
        if seat.status == ALIVE and i != g.president and not (step == INVESTIGATE and seat.investigated)
    ]


def check_target(g: GameState, target: int) -> None:
    seat = g.seats[target]
    if seat.status != ALIVE:
        raise IllegalAction(_("%(name)s is not a living player."), name=seat.name, code="target_not_alive")
    if target == g.president:
        raise IllegalAction(_("The president cannot choose themself."), code="self_target")
    if g.step == INVESTIGATE and seat.investigated:
        raise IllegalAction(
            _("%(name)s has already been investigated in this game."), name=seat.name, code="already_investigated"
        )


def use_power(g: GameState, target: int) -> None:
    """Apply the power the president holds now to `target` (already checked)."""
    if g.step == INVESTIGATE:
        _investigate(g, target)
    elif g.step == SPECIAL_ELECTION:
        g.special_pick = target
        emit(g, SpecialElection(president=g.name(g.president), candidate=g.name(target), round=g.round))
        advance_round(g)
    elif g.settings.execution_vote:
        g.execution_target = target
        g.votes = {}
        emit(g, ExecutionProposed(president=g.name(g.president), target=g.name(target), round=g.round))
        wait_for(g, EXECUTION_VOTE)
    else:
        _execute(g, target)


def forfeit_power(g: GameState) -> None:
    """T4 `forfeit`: nobody is investigated, executed or picked."""
    emit(g, PowerForfeited(president=g.name(g.president), power=str(g.step), reason="timeout", round=g.round))
    advance_round(g)


def close_execution_vote(g: GameState) -> None:
    """R23 variant: the execution happens only if the vote passes, counted as an election (R12)."""
    t = count_ballots(g)
    target, g.execution_target = g.execution_target, None
    emit(g, ExecutionVoteClosed(target=g.name(target),
         ballots=t.ballots, missing=t.missing, ja=t.ja, nein=t.nein, passed=t.passed, round=g.round))  # fmt: skip
    if t.passed:
        _execute(g, target)
    else:
        advance_round(g)


def _investigate(g: GameState, target: int) -> None:
    """R21: the president alone learns the target's party membership."""
    seat = g.seats[target]
    seat.investigated = True
    g.investigations.append(Investigation(g.round, g.name(g.president), g.president, seat.name, seat.party))
    emit(g, Investigated(president=g.name(g.president), target=seat.name, round=g.round))
    advance_round(g)


def _execute(g: GameState, target: int) -> None:
    """R23: the target is dead, role unrevealed; executing Hitler wins for the liberals."""
    seat = g.seats[target]
    seat.status = DEAD
    g.living_count -= 1
    emit(g, Executed(president=g.name(g.president), target=seat.name, round=g.round))
    if seat.role == HITLER:
        end_game(g, Party.LIBERAL, WinReason.HITLER_EXECUTED)
    else:
        advance_round(g)
