"""Nomination and election (R9-R16, T1): the candidate nominates, everyone votes, the ballots are counted."""

from .ballots import count_ballots
from .common import emit, end_game, wait_for
from .constants import (
    ALIVE,
    DEAD,
    DISCARD,
    HAND_SIZE,
    HITLER,
    HITLER_ZONE,
    VOTE,
    Party,
    WinReason,
)
from .errors import IllegalAction, _
from .events import CandidacyLost, ConfirmedNotHitler, LegislativeSessionStarted, Nominated, TrackerReset, VoteClosed
from .policies import advance_tracker
from .rounds import advance_round
from .state import GameState, Session
from .terms import term_limited


def check_nominee(g: GameState, target: int) -> None:
    """R9/R10: the nominee must be a living player other than the candidate, not term-limited."""
    seat = g.seats[target]
    status = seat.status
    if status is not ALIVE:
        if status == DEAD:
            raise IllegalAction(
                _("%(name)s is dead and cannot be nominated."), name=seat.name, code="nominee_not_alive"
            )
        raise IllegalAction(
            _("%(name)s has been exiled and cannot be nominated."), name=seat.name, code="nominee_not_alive"
        )
    if target == g.president:
        raise IllegalAction(_("%(name)s cannot nominate themself as chancellor."), name=seat.name, code="self_target")
    if target in term_limited(g):
        raise IllegalAction(_("%(name)s is term-limited and cannot be nominated."), name=seat.name, code="term_limited")


def nominate(g: GameState, target: int) -> None:
    """The candidate's nomination is checked by the caller; the vote opens (R11)."""
    g.chancellor = target
    g.votes = {}
    seats = g.seats
    emit(g, Nominated(president=seats[g.president].name, chancellor=seats[target].name, round=g.round))
    wait_for(g, VOTE)


def close_election(g: GameState) -> None:
    """R12: the election vote closes (its deadline passed, or everyone voted)."""
    t, seats = count_ballots(g), g.seats
    emit(g, VoteClosed(president=seats[g.president].name, chancellor=seats[g.chancellor].name,
         ballots=t.ballots, missing=t.missing, ja=t.ja, nein=t.nein, passed=t.passed, round=g.round))  # fmt: skip
    if t.passed:
        _elect(g)
    elif not advance_tracker(g):  # R13
        advance_round(g)


def fail_nomination(g: GameState) -> None:
    """T4 `fail`: the candidacy is lost as if the election failed (R13)."""
    emit(g, CandidacyLost(president=g.name(g.president), reason="no_nomination", round=g.round))
    if not advance_tracker(g):
        advance_round(g)


def _elect(g: GameState) -> None:
    """R16: the government takes office; Hitler as chancellor with 3+ fascist policies wins the game."""
    g.elected = True
    g.last_president = g.president
    g.last_chancellor = g.chancellor
    if g.settings.tracker_resets_on_election and g.election_tracker:
        g.election_tracker = 0
        emit(g, TrackerReset(round=g.round))
    chancellor = g.seats[g.chancellor]
    if g.fascist_policies >= HITLER_ZONE:
        if chancellor.role == HITLER:
            end_game(g, Party.FASCIST, WinReason.HITLER_ELECTED)
            return
        chancellor.confirmed_not_hitler = True
        emit(g, ConfirmedNotHitler(player=chancellor.name, round=g.round))
    _draw_hand(g)


def _draw_hand(g: GameState) -> None:
    """R17: the president draws the top three cards (R6 guarantees there are three)."""
    g.hand = g.draw_pile[:HAND_SIZE]
    del g.draw_pile[:HAND_SIZE]
    g.veto_refused = False
    president, chancellor = g.seats[g.president].name, g.seats[g.chancellor].name
    g.sessions.append(Session(g.round, president, g.president, chancellor, g.chancellor, list(g.hand)))
    emit(g, LegislativeSessionStarted(president=president, chancellor=chancellor, round=g.round))
    wait_for(g, DISCARD)
