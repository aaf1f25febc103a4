"""The moves players may make now (not moderators' moves, not the passing of a deadline)."""

from collections.abc import Sequence
from typing import Protocol

from .actions import Action
from .constants import BALLOTS, MAX_PLAYERS, SeatStatus, Step
from .errors import IllegalAction, _
from .legislature import veto_allowed
from .powers import power_targets
from .state import GameState
from .terms import eligible_chancellors


class RandomSource(Protocol):
    """What random play needs of the caller's generator (random.Random has it)."""

    def choice(self, seq): ...

    def getrandbits(self, k: int) -> int: ...


_POWER_STEPS = (Step.INVESTIGATE, Step.SPECIAL_ELECTION, Step.EXECUTE)


_VOTE, _EXECUTION_VOTE, _NOMINATE, _DISCARD, _ENACT, _VETO_REPLY = (
    Step.VOTE, Step.EXECUTION_VOTE, Step.NOMINATE, Step.DISCARD, Step.ENACT, Step.VETO_REPLY
)  # fmt: skip
_ALIVE = SeatStatus.ALIVE
# A seat's two ballots, and each candidate's nominations, made once: the moves asked for most often.
_BALLOTS = [tuple(Action("vote", seat, choice=ballot) for ballot in BALLOTS) for seat in range(MAX_PLAYERS)]
_NOMINATIONS = [[Action("nominate", by, target) for target in range(MAX_PLAYERS)] for by in range(MAX_PLAYERS)]


def legal_actions(g: GameState, seat: int | None = None) -> Sequence[Action]:
    """Every move a player may make now, ballot changes included, in seat order; only `seat`'s when given
    (for a ballot: its two, without listing every living player's)."""
    step = g.step
    if step is _VOTE or step is _EXECUTION_VOTE:
        if seat is not None:
            return _BALLOTS[seat] if g.seats[seat].status is _ALIVE else ()  # made once, never changed
        return [move for i, s in enumerate(g.seats) if s.status is _ALIVE for move in _BALLOTS[i]]
    if step is _ENACT:
        if seat is not None and seat != g.chancellor:
            return []
        moves = [Action("enact", g.chancellor, choice=card) for card in sorted(set(g.hand))]
        if veto_allowed(g):
            moves.append(Action("veto", g.chancellor))
        return moves
    if seat is not None and seat != g.president:
        return []  # every other waiting step is the president's
    if step is _NOMINATE:
        moves = _NOMINATIONS[g.president]
        return [moves[target] for target in eligible_chancellors(g)]
    if step is _DISCARD:
        return [Action("discard", g.president, choice=card) for card in sorted(set(g.hand))]
    if step is _VETO_REPLY:
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
    if step == Step.GAME_OVER:
        raise IllegalAction(_("The game is over."), code="game_over")
    if step in (Step.VOTE, Step.EXECUTION_VOTE):
        votes = g.votes
        for seat, s in enumerate(g.seats):
            if s.status == SeatStatus.ALIVE and seat not in votes:
                return Action("vote", seat, choice=BALLOTS[rnd.getrandbits(1)])
        return Action("vote", rnd.choice(g.living()), choice=BALLOTS[rnd.getrandbits(1)])
    if step == Step.DISCARD:
        return Action("discard", g.president, choice=rnd.choice(g.hand))
    if step == Step.ENACT and not (veto_allowed(g) and rnd.getrandbits(2) == 0):
        return Action("enact", g.chancellor, choice=rnd.choice(g.hand))
    return rnd.choice(legal_actions(g))
