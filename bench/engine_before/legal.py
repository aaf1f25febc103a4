"""The moves players may make now (not moderators' moves, not the passing of a deadline)."""

from typing import Protocol

from .actions import Action
from .constants import BALLOTS, SeatStatus, Step
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


def legal_actions(g: GameState) -> list[Action]:
    """Every move a player may make now, ballot changes included, in seat order."""
    step = g.step
    if step == Step.NOMINATE:
        return [Action("nominate", g.president, target) for target in eligible_chancellors(g)]
    if step in (Step.VOTE, Step.EXECUTION_VOTE):
        return [
            Action("vote", seat, choice=ballot)
            for seat, s in enumerate(g.seats)
            if s.status == SeatStatus.ALIVE
            for ballot in BALLOTS
        ]
    if step == Step.DISCARD:
        return [Action("discard", g.president, choice=card) for card in sorted(set(g.hand))]
    if step == Step.ENACT:
        moves = [Action("enact", g.chancellor, choice=card) for card in sorted(set(g.hand))]
        if veto_allowed(g):
            moves.append(Action("veto", g.chancellor))
        return moves
    if step == Step.VETO_REPLY:
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
        raise IllegalAction(_("The game is over."))
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
