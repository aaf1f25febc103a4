"""Ballots for the vote open now, an election (R11) or an execution (R23 variant)."""

from .constants import VOTE
from .election import close_election
from .powers import close_execution_vote
from .state import GameState


def cast_ballot(g: GameState, seat: int, ballot: str) -> None:
    """R11: a secret ballot, changeable until the vote closes; T1: it closes at once when all have voted."""
    votes = g.votes
    votes[seat] = ballot
    g.seats[seat].made = True  # E2: an action made (participation.mark_made)
    if len(votes) == g.living_count and g.settings.close_vote_early:
        close_vote(g)


def close_vote(g: GameState) -> None:
    if g.step == VOTE:
        close_election(g)
    else:
        close_execution_vote(g)
