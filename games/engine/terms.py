"""R9/R10: who may be nominated chancellor."""

from .constants import ALIVE, FULL_TERM_LIMITS_ALIVE
from .state import GameState


def term_limited(g: GameState) -> tuple[int, ...]:
    """R10: the last elected chancellor, and the last elected president while 6 or more are alive."""
    chancellor, president = g.last_chancellor, g.last_president
    if chancellor is None:  # no government elected yet, or chaos (R14) forgot it
        return () if president is None or g.living_count < FULL_TERM_LIMITS_ALIVE else (president,)
    if president is None or g.living_count < FULL_TERM_LIMITS_ALIVE:
        return (chancellor,)
    return (chancellor, president)


def any_eligible_chancellor(g: GameState) -> bool:
    """R9, T6: may the candidate nominate anyone at all? (The first eligible seat settles it.)"""
    limited, president = term_limited(g), g.president
    # The living besides the candidate (living_count is kept equal to the ALIVE seats) outnumber the term-limited:
    # one of them is eligible, whoever they are, without looking at seats.
    if g.living_count - 1 > len(limited):
        return True
    return any(seat.status is ALIVE and i != president and i not in limited for i, seat in enumerate(g.seats))


def eligible_chancellors(g: GameState) -> list[int]:
    """R9: living players other than the candidate who are not term-limited, in seat order."""
    limited, president, eligible = term_limited(g), g.president, []
    for i, seat in enumerate(g.seats):  # a loop, not a comprehension: listed before every nomination
        if seat.status is ALIVE and i != president and i not in limited:
            eligible.append(i)
    return eligible
