"""Ballots for the vote open now, an election (R11) or an execution (R23 variant)."""

from .constants import SeatStatus, Step
from .election import close_election
from .participation import mark_made
from .powers import close_execution_vote
from .state import GameState


def cast_ballot(g: GameState, seat: int, ballot: str) -> None:
    """R11: a secret ballot, changeable until the vote closes; T1: it closes at once when all have voted."""
    g.votes[seat] = ballot
    mark_made(g.seats[seat])
    if g.settings.close_vote_early and len(g.votes) == [s.status for s in g.seats].count(SeatStatus.ALIVE):
        close_vote(g)


def close_vote(g: GameState) -> None:
    if g.step == Step.VOTE:
        close_election(g)
    else:
        close_execution_vote(g)
