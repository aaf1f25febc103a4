"""Wording the services, the channels and the pages share: a moment and a colon as the reader's language and
zone write them, and what a move asks and says, in the player's words. Below the pages, so that a channel (an
email's answer, a notice) says it as the page does without importing a page."""

from django.utils import timezone, translation
from django.utils.dateformat import format as date_format
from django.utils.formats import get_format
from django.utils.translation import gettext as _

from .announcements import describe
from .engine import events as ev


def when(moment) -> str:
    """A moment in the viewer's time zone with its UTC offset: "Fri 3 Jul 2026, 14:00 CEST (UTC+02:00)", the month
    as the reader's language abbreviates it (sh_site/formats: "mar 1 déc. 2026", "Wt 1 gru 2026"). One at
    the calendar's end (9999-12-31 with -14:00 is year 10000 in UTC) is shown as it was given."""
    if moment is None:
        return ""
    try:
        return when_local(timezone.localtime(moment))
    except OverflowError:
        return moment.isoformat(sep=" ")


def when_local(local) -> str:
    """`when` of a moment already in the reader's zone (the deadline tag has it at hand)."""
    text = date_format(local, f"D {get_format('DATETIME_FORMAT')} T")
    seconds = int(local.utcoffset().total_seconds())  # as the format's "O" gives it, without formatting twice
    if seconds == 0:
        return text if text.endswith("UTC") else f"{text} (UTC)"
    hours, minutes = divmod(abs(seconds) // 60, 60)
    return f"{text} (UTC{'-' if seconds < 0 else '+'}{hours:02d}:{minutes:02d})"


def colon() -> str:
    """The colon after a label, as the page's language writes it: French sets a no-break space before it."""
    return "\u00a0:" if (translation.get_language() or "").startswith("fr") else ":"


def confirm_question(move: dict, *, execution_vote: bool = False) -> str:
    """The question asked before an irreversible move, in the player's words. `execution_vote`: the game's house
    rule (R23), under which choosing whom to execute only puts the execution to the table's vote."""
    kind, target = move["type"], move.get("target", "")
    if kind == "execute" and execution_vote:
        return _("Propose executing %(name)s? The table will vote on it.") % {"name": target}
    policy = move.get("policy")
    questions = {
        "nominate": lambda: _("Nominate %(name)s as chancellor?") % {"name": target},
        "discard": lambda: (
            _("Discard a Liberal policy? The other two go to the chancellor.")
            if policy == "L"
            else _("Discard a Fascist policy? The other two go to the chancellor.")
        ),
        "enact": lambda: _("Enact a Liberal policy?") if policy == "L" else _("Enact a Fascist policy?"),
        "veto": lambda: _("Ask the president to veto this agenda?"),
        "veto_reply": lambda: (
            _("Accept the veto? Both policies are discarded and the election tracker moves on.")
            if move.get("accept")
            else _("Refuse the veto? The chancellor must enact one of the two policies.")
        ),
        "investigate": lambda: _("Investigate the party membership of %(name)s?") % {"name": target},
        "special_election": lambda: _("Choose %(name)s as the next presidential candidate?") % {"name": target},
        "execute": lambda: _("Execute %(name)s?") % {"name": target},
    }
    return questions[kind]() + " " + _("This cannot be undone.")


def done_message(move: dict, events: list[ev.Event] = ()) -> str:
    """What the player just did, in their words, told by the public `events` it caused: the answer of the
    panel's forms, of a move made by email reply and of the API."""
    kind, target = move["type"], move.get("target", "")
    policy = move.get("policy")
    messages_for = {
        "nominate": lambda: _("You nominated %(name)s as chancellor.") % {"name": target},
        "vote": lambda: _ballot_done(move.get("vote"), events),
        "discard": lambda: (
            _("You discarded a Liberal policy.") if policy == "L" else _("You discarded a Fascist policy.")
        ),
        "enact": lambda: _("You enacted a Liberal policy.") if policy == "L" else _("You enacted a Fascist policy."),
        "veto": lambda: _("You asked the president for a veto."),
        "veto_reply": lambda: _("You accepted the veto.") if move.get("accept") else _("You refused the veto."),
        "investigate": lambda: _("You investigated %(name)s: the result is in your panel.") % {"name": target},
        "special_election": lambda: _("You chose %(name)s as the next presidential candidate.") % {"name": target},
        "execute": lambda: _executed_or_proposed(target, events),
    }
    return messages_for.get(kind, lambda: _("Done."))()


def _executed_or_proposed(target: str, events: list[ev.Event]) -> str:
    """R23: under `execution_vote` the president's choice only opens the vote, as the public `events` tell."""
    if any(isinstance(event, ev.ExecutionProposed) for event in events):
        return _("You proposed executing %(name)s: the table votes on it.") % {"name": target}
    return _("You chose to execute %(name)s.") % {"name": target}


def _ballot_done(ballot: str | None, events: list[ev.Event]) -> str:
    """A ballot may be changed until the vote closes, unless it was the last one and closed the vote (T1): then
    the vote's result, as the thread announces it."""
    closed = next((e for e in events if isinstance(e, (ev.VoteClosed, ev.ExecutionVoteClosed))), None)
    if closed is None:
        if ballot == "ja":
            return _("Your ballot is Ja. You may change it until the vote closes.")
        return _("Your ballot is Nein. You may change it until the vote closes.")
    if ballot == "ja":
        said = _("Your ballot is Ja. Every living player has voted: the vote is closed.")
    else:
        said = _("Your ballot is Nein. Every living player has voted: the vote is closed.")
    return said + " " + describe(closed)
