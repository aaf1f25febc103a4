"""The moderator's announcements in the thread: each public event as a sentence in the reader's language."""

from collections.abc import Callable
from typing import Any

import msgspec
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from .engine import events as ev
from .engine.constants import REBALANCED
from .engine.events import LogEntry, from_stored
from .engine.settings import HouseRules

POLICY = {"L": lambda: _("a liberal policy"), "F": lambda: _("a fascist policy")}
POWER = {
    "investigate": lambda: _("investigate a player's loyalty"),
    "peek": lambda: _("peek at the next three policies"),
    "special_election": lambda: _("call a special election"),
    "execute": lambda: _("execute a player"),
}
ROLE = {"liberal": lambda: _("Liberal"), "fascist": lambda: _("Fascist"), "hitler": lambda: _("Hitler")}
WINNER = {"liberal": lambda: _("The liberals win"), "fascist": lambda: _("The fascists win"), None: lambda: ""}
REASON = {
    "liberal_policies": lambda: _("five liberal policies were enacted"),
    "fascist_policies": lambda: _("six fascist policies were enacted"),
    "hitler_executed": lambda: _("Hitler was executed"),
    "hitler_elected": lambda: _("Hitler was elected chancellor"),
    "hitler_exiled": lambda: _("Hitler was exiled"),
    "cancelled": lambda: _("the game was cancelled by a moderator"),
}


MODERATOR_ACTIONS = {
    "pause": lambda: _("A moderator paused the game: deadlines are frozen and moves closed."),
    "resume": lambda: _("A moderator resumed the game; the deadlines move on by the time it was paused."),
    "end_now": lambda: _("A moderator ended the current deadline now."),
    "thread_locked": lambda: _("A moderator locked the thread."),
    "thread_unlocked": lambda: _("A moderator unlocked the thread."),
}


def describe(event: LogEntry, rules: HouseRules | None = None) -> str:
    """One public event as a sentence. Never holds a secret: events carry none (engine/events.py). `rules`: the
    game's house rules, which a few sentences follow (BY_RULES); without them those sentences say only what the
    event holds."""
    if getattr(event, "by_deadline", False):
        return by_deadline(event)
    if rules is not None and event.__class__ in BY_RULES:
        return BY_RULES[event.__class__](event, rules)
    return WORDING[event.__class__](event)


def _exiled(e: ev.Exiled) -> str:
    if e.reason == "missed_rounds":
        return _("%(player)s is exiled from the game: two rounds missed in a row.") % _fields(e)
    return _("%(player)s is exiled from the game.") % _fields(e)


def describe_stored(event_type: str, data: dict, rules: HouseRules | None = None) -> str:
    """A stored event (GameEvent's type and data, a notification's copy of them) as a sentence."""
    return describe(from_stored(event_type, data), rules)


def _game_started(e: ev.GameStarted) -> str:
    return _("The game begins. Seats, in order: %(players)s.") % {"players": ", ".join(e.players)}


def _vote_closed(e: ev.VoteClosed) -> str:
    """The election's count: every ballot by name, the tally, then the outcome."""
    outcome = _("The government is elected.") if e.passed else _("The election fails.")
    return _count(e, outcome)


def _count(e: ev.VoteClosed | ev.ExecutionVoteClosed, outcome: str) -> str:
    """A closed vote's ballots by name and its tally (R12), then `outcome`: an election's and an execution's alike."""
    ballots = ", ".join(
        # "ann: Ja": a string of its own, so that French sets its no-break space before the colon.
        _("%(name)s: %(ballot)s") % {"name": name, "ballot": "Ja" if ballot == "ja" else "Nein"}
        for name, ballot in e.ballots.items()
    )
    missing = " " + _("No ballot from %(names)s.") % {"names": ", ".join(e.missing)} if e.missing else ""
    if not ballots:
        return _("No ballot was cast.") + " " + outcome
    return _("Ballots: %(ballots)s (%(ja)s Ja, %(nein)s Nein).") % {"ballots": ballots, "ja": e.ja, "nein": e.nein} + (
        missing + " " + outcome
    )


def _policy_enacted(e: ev.PolicyEnacted) -> str:
    if e.chaos:
        text = _("Chaos: %(policy)s is enacted from the top of the deck") % {"policy": POLICY[e.policy]()}
    elif e.policy == "L":
        text = _("A liberal policy is enacted")
    else:
        text = _("A fascist policy is enacted")
    track = {"liberal_policies": e.liberal_policies, "fascist_policies": e.fascist_policies}
    return text + " " + _("(liberal %(liberal_policies)s of 5, fascist %(fascist_policies)s of 6).") % track


def _veto_answered(e: ev.VetoAnswered) -> str:
    text = _("%(president)s accepts the veto.") if e.accepted else _("%(president)s refuses the veto.")
    return text % {"president": e.president}


def _power_forfeited(e: ev.PowerForfeited) -> str:
    if e.reason == "timeout":  # logs from before `by_deadline`
        return by_deadline(e)
    return _("%(president)s's power is forfeited.") % {"president": e.president}


def _candidacy_lost(e: ev.CandidacyLost) -> str:
    if e.reason == "no_nomination":  # logs from before `by_deadline`
        return by_deadline(e)
    return _("%(president)s's candidacy is lost.") % {"president": e.president}


def _execution_vote_closed(e: ev.ExecutionVoteClosed) -> str:
    """R23 `execution_vote`: the ballots are public once the vote closes, as an election's."""
    text = _("The execution of %(target)s is approved.") if e.passed else _("%(target)s is spared.")
    return _count(e, text % {"target": e.target})


def _legislative_session_started(e: ev.LegislativeSessionStarted, rules: HouseRules) -> str:
    """R18: the thread is said to close only when the game's `quiet_legislature` closes it."""
    if rules.quiet_legislature:
        return _("The legislative session begins: the thread is closed until a policy is enacted.")
    return WORDING[ev.LegislativeSessionStarted](e)


def _game_started_by_rules(e: ev.GameStarted, rules: HouseRules) -> str:
    """The house rule `rebalanced` at 6 players: the fascist policy on the board from the start is announced."""
    started = _game_started(e)
    enacted = REBALANCED.get(len(e.players), (0, 0))[1] if rules.rebalanced else 0
    if enacted:
        return (
            started
            + " "
            + ngettext(
                "%(count)s fascist policy is on the board from the start (this game's rule): it grants no power.",
                "%(count)s fascist policies are on the board from the start (this game's rule): they grant no power.",
                enacted,
            )
            % {"count": enacted}
        )
    return started


def _moderator_action(e: ev.ModeratorAction) -> str:
    if e.by_table:
        return _table_decision(e)
    if e.action == "extend":
        hours = e.hours
        text = ngettext(
            "A moderator extended the deadline by %(hours)s hour.",
            "A moderator extended the deadline by %(hours)s hours.",
            hours,
        )
        return text % {"hours": hours}
    return MODERATOR_ACTIONS[e.action]()


def _table_decision(e: ev.ModeratorAction) -> str:
    """A pause, resume or extension the players proposed and passed by a vote of the table."""
    if e.action == "extend":
        text = ngettext(
            "The players voted to extend the deadline by %(hours)s hour.",
            "The players voted to extend the deadline by %(hours)s hours.",
            e.hours,
        )
        return text % {"hours": e.hours}
    if e.action == "pause":
        return _("The players voted to pause the game: deadlines are frozen and moves closed.")
    return _("The players voted to resume the game; the deadlines move on by the time it was paused.")


def _game_over(e: ev.GameOver) -> str:
    reason = REASON[e.win_reason]()
    if e.winner is None:
        return _("The game is over: %(reason)s.") % {"reason": reason}
    return _("%(winner)s: %(reason)s.") % {"winner": WINNER[e.winner](), "reason": reason}


def _fields(e) -> dict:
    return msgspec.structs.asdict(e)


WORDING: dict[type, Callable[[Any], str]] = {
    ev.GameStarted: _game_started,
    ev.RoundStarted: lambda e: _("Round %(round)s: %(president)s is the presidential candidate.") % _fields(e),
    ev.CandidacyLost: _candidacy_lost,
    ev.Nominated: lambda e: _("%(president)s nominates %(chancellor)s as chancellor. The vote is open.") % _fields(e),
    ev.VoteClosed: _vote_closed,
    ev.TrackerAdvanced: lambda e: _("The election tracker moves to %(election_tracker)s.") % _fields(e),
    ev.TrackerReset: lambda e: _("A government was elected: the election tracker goes back to 0 (this game's rule)."),
    ev.Chaos: lambda e: _("Three failed governments: the country is thrown into chaos."),
    ev.PolicyEnacted: _policy_enacted,
    ev.DeckReshuffled: lambda e: (
        _("The discards are shuffled into a new draw pile of %(draw_pile)s cards.") % _fields(e)
    ),
    ev.ConfirmedNotHitler: lambda e: _("%(player)s is confirmed not to be Hitler.") % _fields(e),
    ev.LegislativeSessionStarted: lambda e: _("The legislative session begins."),
    ev.PresidentDiscarded: lambda e: _("%(president)s passes two policies to the chancellor.") % _fields(e),
    ev.VetoRequested: lambda e: _("%(chancellor)s asks for a veto.") % _fields(e),
    ev.VetoAnswered: _veto_answered,
    ev.PowerGranted: lambda e: (
        _("%(president)s may now %(power)s.") % {"president": e.president, "power": POWER[e.power]()}
    ),
    ev.PowerForfeited: _power_forfeited,
    ev.PolicyPeeked: lambda e: _("%(president)s peeks at the next three policies.") % _fields(e),
    ev.Investigated: lambda e: _("%(president)s investigates %(target)s's loyalty.") % _fields(e),
    ev.SpecialElection: lambda e: (
        _("%(president)s calls a special election: %(candidate)s is the next candidate.") % _fields(e)
    ),
    ev.ExecutionProposed: lambda e: _("%(president)s proposes to execute %(target)s. Everyone votes.") % _fields(e),
    ev.ExecutionVoteClosed: _execution_vote_closed,
    ev.Executed: lambda e: _("%(president)s executes %(target)s.") % _fields(e),
    ev.DeadlinePassed: lambda e: _("The deadline has passed."),
    # E3 counts only the rounds in which the player owed a move: rounds 1 and 6 can be "in a row".
    ev.RoundMissed: lambda e: (
        _("%(player)s missed a round: %(missed_rounds)s in a row, counting only the rounds in which they owed a move.")
        % _fields(e)
    ),
    ev.Warned: lambda e: _("%(player)s is warned: one more missed round in a row means exile.") % _fields(e),
    ev.Exiled: _exiled,
    ev.Substituted: lambda e: _("%(player)s takes the seat of %(replaces)s as a substitute.") % _fields(e),
    ev.Replaced: lambda e: _("%(player)s takes over the seat of %(replaces)s.") % _fields(e),
    ev.SubstituteJoined: lambda e: _("%(player)s signs up as a substitute.") % _fields(e),
    ev.SubstituteWithdrawn: lambda e: _("%(player)s no longer waits as a substitute.") % _fields(e),
    ev.AbsenceStarted: lambda e: _("%(player)s is away, as announced.") % _fields(e),
    ev.AbsenceEnded: lambda e: _("%(player)s is back.") % _fields(e),
    ev.Excused: lambda e: _("A moderator excuses %(player)s's misses in this round.") % _fields(e),
    ev.ExileScheduled: lambda e: _("A moderator will exile %(player)s at the end of the round.") % _fields(e),
    ev.ReplacementScheduled: lambda e: (
        _("A moderator will hand %(player)s's seat to someone else at the end of the round.") % _fields(e)
    ),
    ev.ReplacementWithdrawn: lambda e: (
        _("%(player)s's seat will not be handed to someone else after all.") % _fields(e)
    ),
    ev.GameOver: _game_over,
    ev.ModeratorAction: _moderator_action,
}
"""Each kind of the log (events.LOG_ENTRIES), its sentence: a test checks that every kind has one."""

BY_RULES: dict[type, Callable[[Any, HouseRules], str]] = {
    ev.LegislativeSessionStarted: _legislative_session_started,
    ev.GameStarted: _game_started_by_rules,
}
"""The kinds whose sentence follows a house rule of the site, which the event cannot hold: said so when the game's
rules are known (its thread, its secret history, its replay)."""


# T4: the outcome a passed (or ended) deadline applied, by the kind of the event that carries it.
BY_DEADLINE: dict[type, Callable[[], str]] = {
    ev.CandidacyLost: lambda: _("The deadline passed: %(president)s did not nominate, and the candidacy is lost."),
    ev.Nominated: lambda: _(
        "The deadline passed: %(president)s did not nominate, so %(chancellor)s was nominated at random. "
        "The vote is open."
    ),
    ev.PresidentDiscarded: lambda: _(
        "The deadline passed: %(president)s did not discard, so a random policy was discarded; the other two go "
        "to the chancellor."
    ),
    ev.PolicyEnacted: lambda: _(
        "The deadline passed: the chancellor did not enact, so one of the two policies was enacted at random."
    ),
    ev.VetoAnswered: lambda: _("The deadline passed: %(president)s did not answer, so the veto is refused."),
    ev.PowerForfeited: lambda: _("The deadline passed: %(president)s did not use the power, which is forfeited."),
    ev.Investigated: lambda: _(
        "The deadline passed: %(president)s did not choose, so %(target)s was picked at random and is investigated."
    ),
    ev.SpecialElection: lambda: _(
        "The deadline passed: %(president)s did not choose, so %(candidate)s was picked at random as the next "
        "candidate."
    ),
    ev.ExecutionProposed: lambda: _(
        "The deadline passed: %(president)s did not choose, so %(target)s was picked at random for the execution "
        "vote. Everyone votes."
    ),
    ev.Executed: lambda: _(
        "The deadline passed: %(president)s did not choose, so %(target)s was picked at random and is executed."
    ),
}
"""The kinds a deadline's outcome may carry (besides the two votes' counts, below), each its sentence."""


def by_deadline(event: ev.Event) -> str:
    """T4: the outcome a deadline applied, said as such: never as the player's choice, and never which card was
    drawn at random (the event does not hold it)."""
    if isinstance(event, (ev.VoteClosed, ev.ExecutionVoteClosed)):
        return _vote_closed_by_deadline(event)
    if isinstance(event, ev.PolicyEnacted):  # which policy is public: the track shows it
        return BY_DEADLINE[ev.PolicyEnacted]() + " " + _policy_enacted(event)
    return BY_DEADLINE[event.__class__]() % _fields(event)


def _vote_closed_by_deadline(e: ev.VoteClosed | ev.ExecutionVoteClosed) -> str:
    """The vote closed at its deadline: how the missing ballots counted (T4 `missing_vote`), then the count."""
    count = WORDING[e.__class__](msgspec.structs.replace(e, by_deadline=msgspec.UNSET, missing=[]))
    if not e.missing:
        return _("The deadline passed: the vote is closed.") + " " + count
    names = ", ".join(e.missing)
    # Counted as Nein, the missing ballots are in the Nein count (engine/ballots.py).
    if e.ja + e.nein > len(e.ballots):
        text = _("The deadline passed: the vote is closed, and the ballots missing from %(names)s count as Nein.")
    else:
        text = _("The deadline passed: the vote is closed, and the ballots missing from %(names)s are not counted.")
    return text % {"names": names} + " " + count
