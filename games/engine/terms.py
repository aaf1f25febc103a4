"""R9/R10: who may be nominated chancellor."""

from .constants import FULL_TERM_LIMITS_ALIVE, SeatStatus
from .state import GameState


def term_limited(g: GameState) -> set[int]:
    """R10: the last elected chancellor, and the last elected president while 6 or more are alive."""
    limited = set()
    if g.last_chancellor is not None:
        limited.add(g.last_chancellor)
    if g.last_president is not None and g.living_count >= FULL_TERM_LIMITS_ALIVE:
        limited.add(g.last_president)
    return limited


def any_eligible_chancellor(g: GameState) -> bool:
    """R9, T6: may the candidate nominate anyone at all? (The first eligible seat settles it.)"""
    limited, president, alive = term_limited(g), g.president, SeatStatus.ALIVE
    return any(seat.status is alive and i != president and i not in limited for i, seat in enumerate(g.seats))


def eligible_chancellors(g: GameState) -> list[int]:
    """R9: living players other than the candidate who are not term-limited, in seat order."""
    limited, president, alive = term_limited(g), g.president, SeatStatus.ALIVE
    return [i for i, seat in enumerate(g.seats) if seat.status is alive and i != president and i not in limited]
