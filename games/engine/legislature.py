"""The legislative session (R17, R19): the president discards one of three, the chancellor enacts one of
two or asks for a veto."""

from .common import emit, wait_for
from .constants import ENACT, FASCIST, VETO_REPLY, VETO_UNLOCKED_AT
from .errors import IllegalAction, _
from .events import PresidentDiscarded, VetoAnswered, VetoRequested
from .policies import advance_tracker, enact_policy, reshuffle_if_short
from .powers import grant_power
from .rounds import advance_round
from .state import GameState


def check_in_hand(g: GameState, policy: str) -> None:
    """Only the card's holder gets this far (the actor is checked first), so the refusal reveals nothing."""
    if policy not in g.hand:
        if policy == "L":
            raise IllegalAction(_("You hold no liberal policy to choose."), code="card_not_in_hand")
        raise IllegalAction(_("You hold no fascist policy to choose."), code="card_not_in_hand")


def discard(g: GameState, position: int) -> None:
    """R17: the president discards the card at `position` face down and passes the other two."""
    card = g.hand.pop(position)
    g.discard_pile.append(card)
    g.sessions[-1].president_discarded = card
    emit(g, PresidentDiscarded(president=g.seats[g.president].name, round=g.round))
    wait_for(g, ENACT)


def enact(g: GameState, position: int) -> None:
    """R17: the chancellor enacts the card at `position`; the other is discarded face down."""
    card = g.hand.pop(position)
    other = g.hand.pop()
    g.discard_pile.append(other)
    session = g.sessions[-1]
    session.enacted = card
    session.chancellor_discarded = other
    if enact_policy(g, card, chaos=False):
        return
    if card == FASCIST:
        grant_power(g)
    else:
        advance_round(g)


def veto_allowed(g: GameState) -> bool:
    """R19/R25: after the 5th fascist policy, once per session (a refusal closes it)."""
    return g.fascist_policies >= VETO_UNLOCKED_AT and not g.veto_refused


def check_veto(g: GameState) -> None:
    if g.fascist_policies < VETO_UNLOCKED_AT:
        raise IllegalAction(_("The veto is unlocked only after the fifth fascist policy."), code="veto_locked")
    if g.veto_refused:
        raise IllegalAction(
            _("The president refused the veto: the chancellor must enact a policy."), code="veto_refused"
        )


def request_veto(g: GameState) -> None:
    g.sessions[-1].veto = "requested"
    emit(g, VetoRequested(chancellor=g.name(g.chancellor), round=g.round))
    wait_for(g, VETO_REPLY)


def answer_veto(g: GameState, accept: bool) -> None:
    """R19: an accepted veto discards both cards and advances the tracker; a refused one sends the
    chancellor back to enact, without a second request."""
    session = g.sessions[-1]
    emit(g, VetoAnswered(president=g.name(g.president), accepted=accept, round=g.round))
    if not accept:
        session.veto = "refused"
        g.veto_refused = True
        wait_for(g, ENACT)
        return
    session.veto = "accepted"
    g.discard_pile.extend(g.hand)
    g.hand = []
    reshuffle_if_short(g)  # R6: before a chaos draw
    if not advance_tracker(g):
        advance_round(g)
