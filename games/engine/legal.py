"""The moves players may make now (not moderators' moves, not the passing of a deadline)."""

from collections.abc import Sequence
from itertools import product
from typing import Protocol

from .constants import (
    ALIVE,
    BALLOTS,
    DISCARD,
    ENACT,
    EXECUTE,
    EXECUTION_VOTE,
    GAME_OVER,
    INVESTIGATE,
    MAX_PLAYERS,
    NOMINATE,
    POLICIES,
    SPECIAL_ELECTION,
    VETO_REPLY,
    VOTE,
)
from .errors import IllegalAction, _
from .legislature import veto_allowed
from .notation import Action
from .powers import power_targets
from .state import GameState
from .terms import eligible_chancellors


class RandomSource(Protocol):
    """What random play needs of the caller's generator (random.Random has it)."""

    def choice(self, seq): ...

    def getrandbits(self, k: int) -> int: ...


_POWER_STEPS = (INVESTIGATE, SPECIAL_ELECTION, EXECUTE)


# The moves asked for most often, made once and never changed: a seat's two ballots, each candidate's
# nominations, and a seat's choices of card for each hand it can hold (the distinct cards, in order).
_BALLOTS = [tuple(Action("vote", seat, choice=ballot) for ballot in BALLOTS) for seat in range(MAX_PLAYERS)]
_NOMINATIONS = [[Action("nominate", by, target) for target in range(MAX_PLAYERS)] for by in range(MAX_PLAYERS)]
_HANDS = [hand for size in (2, 3) for hand in product(POLICIES, repeat=size)]
_DISCARDS, _ENACTS = (
    [{hand: tuple(Action(type_, seat, choice=card) for card in sorted(set(hand))) for hand in _HANDS}
     for seat in range(MAX_PLAYERS)]
    for type_ in ("discard", "enact")
)  # fmt: skip
_VETOES = [(Action("veto", seat),) for seat in range(MAX_PLAYERS)]


def legal_actions(g: GameState, seat: int | None = None) -> Sequence[Action]:
    """Every move a player may make now, ballot changes included, in seat order; only `seat`'s when given
    (for a ballot: its two, without listing every living player's)."""
    step = g.step
    if step is VOTE or step is EXECUTION_VOTE:
        if seat is not None:
            return _BALLOTS[seat] if g.seats[seat].status is ALIVE else ()  # made once, never changed
        return [move for i, s in enumerate(g.seats) if s.status is ALIVE for move in _BALLOTS[i]]
    if step is ENACT:
        if seat is not None and seat != g.chancellor:
            return []
        moves = _ENACTS[g.chancellor][tuple(g.hand)]
        return moves + _VETOES[g.chancellor] if veto_allowed(g) else moves
    if seat is not None and seat != g.president:
        return []  # every other waiting step is the president's
    if step is NOMINATE:
        moves = _NOMINATIONS[g.president]
        return [moves[target] for target in eligible_chancellors(g)]
    if step is DISCARD:
        return _DISCARDS[g.president][tuple(g.hand)]
    if step is VETO_REPLY:
        return [Action("veto_reply", g.president, choice=answer) for answer in (True, False)]
    if step in _POWER_STEPS:
        return [Action(str(step), g.president, target) for target in power_targets(g, step)]
    return []


def random_move(g: GameState, rnd: RandomSource) -> Action:
    """A random legal move owed now, drawn without listing them all (for random play and benchmarks).

    In a vote the first living player who has not voted casts a random ballot: ballots are secret until the
    vote closes, so the order in which they come changes nothing.
    """
    step = g.step
    if step == GAME_OVER:
        raise IllegalAction(_("The game is over."), code="game_over")
    if step in (VOTE, EXECUTION_VOTE):
        votes = g.votes
        for seat, s in enumerate(g.seats):
            if s.status == ALIVE and seat not in votes:
                return Action("vote", seat, choice=BALLOTS[rnd.getrandbits(1)])
        return Action("vote", rnd.choice(g.living()), choice=BALLOTS[rnd.getrandbits(1)])
    if step == DISCARD:
        return Action("discard", g.president, choice=rnd.choice(g.hand))
    if step == ENACT and not (veto_allowed(g) and rnd.getrandbits(2) == 0):
        return Action("enact", g.chancellor, choice=rnd.choice(g.hand))
    return rnd.choice(legal_actions(g))
