"""Enacting policies, the election tracker and chaos, and the reshuffle of the deck (R5, R6, R14, R15)."""

from collections import Counter

from .common import check_policy_win, emit
from .constants import CHAOS_AT, HAND_SIZE, LIBERAL
from .errors import InvalidSetup
from .events import Chaos, DeckReshuffled, PolicyEnacted, TrackerAdvanced
from .state import GameState


def enact_policy(g: GameState, policy: str, *, chaos: bool) -> bool:
    """Put a policy on its track. True when the game ended (R26)."""
    if policy == LIBERAL:
        g.liberal_policies += 1
    else:
        g.fascist_policies += 1
    g.election_tracker = 0  # R15
    emit(
        g,
        PolicyEnacted(
            policy=policy,
            chaos=chaos,
            liberal_policies=g.liberal_policies,
            fascist_policies=g.fascist_policies,
            round=g.round,
        ),
    )
    reshuffle_if_short(g)
    return check_policy_win(g)


def advance_tracker(g: GameState) -> bool:
    """R13/R19: one more failed government; at 3 chaos enacts the top card (R14). True when the game ended."""
    g.election_tracker += 1
    emit(g, TrackerAdvanced(election_tracker=g.election_tracker, round=g.round))
    if g.election_tracker < CHAOS_AT:
        return False
    return chaos(g)


def chaos(g: GameState) -> bool:
    """R14: the top card is enacted with no power, the tracker returns to 0 and term limits are forgotten."""
    policy = g.draw_pile.pop(0)
    g.last_president = None
    g.last_chancellor = None
    emit(g, Chaos(round=g.round))
    return enact_policy(g, policy, chaos=True)


def reshuffle_if_short(g: GameState) -> None:
    """R6: with fewer than 3 cards left to draw, the discards and the rest are shuffled into a new pile."""
    if len(g.draw_pile) >= HAND_SIZE:
        return
    cards = g.draw_pile + g.discard_pile
    if g.reshuffles_done < len(g.preset_reshuffles):
        preset = list(g.preset_reshuffles[g.reshuffles_done])
        if Counter(preset) != Counter(cards):
            raise InvalidSetup(
                f"reshuffle {g.reshuffles_done + 1} must hold the {len(cards)} cards being shuffled "
                f"({cards.count(LIBERAL)} L, {len(cards) - cards.count(LIBERAL)} F)"
            )
        cards = preset
    else:
        g.rng.stream(f"reshuffle:{g.reshuffles_done + 1}").shuffle(cards)
    g.reshuffles_done += 1
    g.draw_pile = cards
    g.discard_pile = []
    emit(g, DeckReshuffled(draw_pile=len(cards), round=g.round))
