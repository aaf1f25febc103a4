"""R11/R12: counting a vote, for an election or (variant `execution_vote`) an execution."""

import msgspec

from .constants import ALIVE, JA, NEIN
from .participation import mark_missed
from .state import GameState


class Tally(msgspec.Struct, frozen=True, gc=False):
    """A closed vote, as its public event shows it: each ballot with its voter's name, and who did not vote."""

    passed: bool
    ballots: dict[str, str]
    missing: list[str]
    ja: int
    nein: int


def count_ballots(g: GameState) -> Tally:
    """Reveal every ballot with its voter's name. Missing ballots are misses (E2) and count as T4 says.

    Ja must be a strict majority of the ballots counted: a tie fails.
    """
    ballots, missing = {}, []
    votes, ja = g.votes, 0
    for index, seat in enumerate(g.seats):
        if seat.status is not ALIVE:
            continue
        ballot = votes.get(index)
        if ballot is None:
            missing.append(seat.name)
            mark_missed(seat)
        else:
            ballots[seat.name] = ballot
            if ballot == JA:
                ja += 1
    counted = len(ballots)
    if g.settings.missing_vote == NEIN:
        counted += len(missing)
    g.votes = {}
    return Tally(ja * 2 > counted, ballots, missing, ja, counted - ja)
