"""The moderator's announcements in the thread: each public event as a sentence in the reader's language."""

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from .engine.events import EVENT_TYPES

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


def describe(event_type: str, data: dict) -> str:
    """One public event as a sentence. Never holds a secret: events carry none (engine/events.py)."""
    if data.get("by_deadline"):
        return by_deadline(event_type, data)
    d = data
    match event_type:
        case "game_started":
            return _("The game begins. Seats, in order: %(players)s.") % {"players": ", ".join(d["players"])}
        case "round_started":
            return _("Round %(round)s: %(president)s is the presidential candidate.") % d
        case "nominated":
            return _("%(president)s nominates %(chancellor)s as chancellor. The vote is open.") % d
        case "vote_closed":
            ballots = ", ".join(
                # "ann: Ja": a string of its own, so that French sets its no-break space before the colon.
                _("%(name)s: %(ballot)s") % {"name": name, "ballot": "Ja" if ballot == "ja" else "Nein"}
                for name, ballot in d["ballots"].items()
            )
            outcome = _("The government is elected.") if d["passed"] else _("The election fails.")
            missing = " " + _("No ballot from %(names)s.") % {"names": ", ".join(d["missing"])} if d["missing"] else ""
            if not ballots:
                return _("No ballot was cast.") + " " + outcome
            return (
                _("Ballots: %(ballots)s (%(ja)s Ja, %(nein)s Nein).") % {**d, "ballots": ballots}
                + missing
                + " "
                + outcome
            )
        case "tracker_advanced":
            return _("The election tracker moves to %(election_tracker)s.") % d
        case "chaos":
            return _("Three failed governments: the country is thrown into chaos.")
        case "policy_enacted":
            if d["chaos"]:
                text = _("Chaos: %(policy)s is enacted from the top of the deck") % {"policy": POLICY[d["policy"]]()}
            elif d["policy"] == "L":
                text = _("A liberal policy is enacted")
            else:
                text = _("A fascist policy is enacted")
            return text + " " + _("(liberal %(liberal_policies)s of 5, fascist %(fascist_policies)s of 6).") % d
        case "deck_reshuffled":
            return _("The discards are shuffled into a new draw pile of %(draw_pile)s cards.") % d
        case "confirmed_not_hitler":
            return _("%(player)s is confirmed not to be Hitler.") % d
        case "legislative_session_started":
            return _("The legislative session begins: the thread is closed until a policy is enacted.")
        case "president_discarded":
            return _("%(president)s passes two policies to the chancellor.") % d
        case "veto_requested":
            return _("%(chancellor)s asks for a veto.") % d
        case "veto_answered":
            return (_("%(president)s accepts the veto.") if d["accepted"] else _("%(president)s refuses the veto.")) % d
        case "power_granted":
            return _("%(president)s may now %(power)s.") % {**d, "power": POWER[d["power"]]()}
        case "power_forfeited":
            if d.get("reason") == "timeout":  # logs from before `by_deadline`
                return by_deadline(event_type, d)
            return _("%(president)s's power is forfeited.") % d
        case "policy_peeked":
            return _("%(president)s peeks at the next three policies.") % d
        case "investigated":
            return _("%(president)s investigates %(target)s's loyalty.") % d
        case "special_election":
            return _("%(president)s calls a special election: %(candidate)s is the next candidate.") % d
        case "execution_proposed":
            return _("%(president)s proposes to execute %(target)s. Everyone votes.") % d
        case "execution_vote_closed":
            return (_("The execution of %(target)s is approved.") if d["passed"] else _("%(target)s is spared.")) % d
        case "executed":
            return _("%(president)s executes %(target)s.") % d
        case "deadline_passed":
            return _("The deadline has passed.")
        case "round_missed":
            return _("%(player)s missed a round (%(missed_rounds)s in a row).") % d
        case "warned":
            return _("%(player)s is warned: one more missed round in a row means exile.") % d
        case "exiled":
            return _("%(player)s is exiled from the game.") % d
        case "substituted":
            return _("%(player)s takes the seat of %(replaces)s as a substitute.") % d
        case "replaced":
            return _("%(player)s takes over the seat of %(replaces)s.") % d
        case "substitute_joined":
            return _("%(player)s signs up as a substitute.") % d
        case "substitute_withdrawn":
            return _("%(player)s no longer waits as a substitute.") % d
        case "absence_started":
            return _("%(player)s is away, as announced.") % d
        case "absence_ended":
            return _("%(player)s is back.") % d
        case "excused":
            return _("A moderator excuses %(player)s's misses in this round.") % d
        case "exile_scheduled":
            return _("A moderator will exile %(player)s at the end of the round.") % d
        case "replacement_scheduled":
            return _("A moderator will hand %(player)s's seat to someone else at the end of the round.") % d
        case "replacement_withdrawn":
            return _("%(player)s's seat will not be handed to someone else after all.") % d
        case "candidacy_lost":
            if d.get("reason") == "no_nomination":  # logs from before `by_deadline`
                return by_deadline(event_type, d)
            return _("%(president)s's candidacy is lost.") % d
        case "moderator_action":
            if d["action"] == "extend":
                return (
                    ngettext(
                        "A moderator extended the deadline by %(hours)s hour.",
                        "A moderator extended the deadline by %(hours)s hours.",
                        d["hours"],
                    )
                    % d
                )
            return MODERATOR_ACTIONS[d["action"]]() % d
        case "game_over":
            reason = REASON[d["win_reason"]]()
            if d["winner"] is None:
                return _("The game is over: %(reason)s.") % {"reason": reason}
            return _("%(winner)s: %(reason)s.") % {"winner": WINNER[d["winner"]](), "reason": reason}
    assert event_type in EVENT_TYPES, event_type
    return event_type


# T4: the outcome a passed (or ended) deadline applied, by the type of the event that carries it.
BY_DEADLINE = {
    "candidacy_lost": lambda: _("The deadline passed: %(president)s did not nominate, and the candidacy is lost."),
    "nominated": lambda: _(
        "The deadline passed: %(president)s did not nominate, so %(chancellor)s was nominated at random. "
        "The vote is open."
    ),
    "president_discarded": lambda: _(
        "The deadline passed: %(president)s did not discard, so a random policy was discarded; the other two go "
        "to the chancellor."
    ),
    "policy_enacted": lambda: _(
        "The deadline passed: the chancellor did not enact, so one of the two policies was enacted at random."
    ),
    "veto_answered": lambda: _("The deadline passed: %(president)s did not answer, so the veto is refused."),
    "power_forfeited": lambda: _("The deadline passed: %(president)s did not use the power, which is forfeited."),
    "investigated": lambda: _(
        "The deadline passed: %(president)s did not choose, so %(target)s was picked at random and is investigated."
    ),
    "special_election": lambda: _(
        "The deadline passed: %(president)s did not choose, so %(candidate)s was picked at random as the next "
        "candidate."
    ),
    "execution_proposed": lambda: _(
        "The deadline passed: %(president)s did not choose, so %(target)s was picked at random for the execution "
        "vote. Everyone votes."
    ),
    "executed": lambda: _(
        "The deadline passed: %(president)s did not choose, so %(target)s was picked at random and is executed."
    ),
}


def by_deadline(event_type: str, data: dict) -> str:
    """T4: the outcome a deadline applied, said as such: never as the player's choice, and never which card was
    drawn at random (the event does not hold it)."""
    if event_type in ("vote_closed", "execution_vote_closed"):
        return _vote_closed_by_deadline(event_type, data)
    if event_type == "policy_enacted":  # which policy is public: the track shows it
        return BY_DEADLINE[event_type]() + " " + describe(event_type, {**data, "by_deadline": False})
    return BY_DEADLINE[event_type]() % data


def _vote_closed_by_deadline(event_type: str, d: dict) -> str:
    """The vote closed at its deadline: how the missing ballots counted (T4 `missing_vote`), then the count."""
    count = describe(event_type, {**d, "by_deadline": False, "missing": []})
    if not d["missing"]:
        return _("The deadline passed: the vote is closed.") + " " + count
    names = ", ".join(d["missing"])
    # Counted as Nein, the missing ballots are in the Nein count (engine/ballots.py).
    if d["ja"] + d["nein"] > len(d["ballots"]):
        text = _("The deadline passed: the vote is closed, and the ballots missing from %(names)s count as Nein.")
    else:
        text = _("The deadline passed: the vote is closed, and the ballots missing from %(names)s are not counted.")
    return text % {"names": names} + " " + count
