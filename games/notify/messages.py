"""Notifications as sentences, in the active language and time zone. Only public facts and the reader's
own duties: never a role, a card or a result only they could see (checked over whole games by the tests)."""

import logging
from datetime import datetime

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.announcements import ROLE, describe_stored
from games.models import Game, Notification
from games.wording import colon, when

log = logging.getLogger(__name__)
OWED = {
    "nominate": lambda: _("nominate a chancellor"),
    "vote": lambda: _("vote on the government"),
    "discard": lambda: _("discard one of your three policies"),
    "enact": lambda: _("enact one of your two policies"),
    "veto_reply": lambda: _("answer the chancellor's veto request"),
    "investigate": lambda: _("investigate a player's loyalty"),
    "special_election": lambda: _("pick the next presidential candidate"),
    "execute": lambda: _("execute a player"),
    "execution_vote": lambda: _("vote on the execution"),
}


def owed(data: dict) -> str:
    """What the notice's reader owes; a ballot on an execution names whose (notices made before it was named do
    not), and tells its target that it is their own."""
    if data["step"] == "execution_vote" and "target" in data:
        if data.get("own_execution"):
            return _("vote on your own execution")
        return _("vote on executing %(target)s") % {"target": data["target"]}
    return OWED[data["step"]]()


def describe_in_list(notice: Notification, game: Game | None) -> str:
    """A notice in a list a player reads (the bell, the API): one whose data cannot be described is shown as such
    instead of breaking the whole list. (The outbox describes with `describe_notification`, and fails that
    notice's email alone.)"""
    try:
        return describe_notification(notice, game)
    except Exception:
        log.exception("notification %s cannot be described", notice.pk)
        return _("This notice cannot be shown.")


def _your_move(name: str, data: dict) -> str:
    if "deadline" in data:
        return _("Your move in %(game)s: %(owed)s, by %(deadline)s.") % {
            "game": name,
            "owed": owed(data),
            "deadline": when(datetime.fromisoformat(data["deadline"])),
        }
    return _("Your move in %(game)s: %(owed)s.") % {"game": name, "owed": owed(data)}


def _claim_offer(claim: dict) -> str:
    """The session the reader sat in just ended: they may say what they saw, on the game's page."""
    if claim["office"] == "president":
        offer = _(
            "Your legislative session of round %(round)s is over: you may claim the cards you drew, on the game's page."
        )
    else:
        offer = _(
            "Your legislative session of round %(round)s is over: you may claim the cards you received, on the "
            "game's page."
        )
    return " " + offer % {"round": claim["round"]}


PROPOSED = {
    "pause": lambda: _("%(name)s proposes to pause %(game)s (%(reason)s). Vote yes or no on your panel."),
    "resume": lambda: _("%(name)s proposes to resume %(game)s. Vote yes or no on your panel."),
}
OUTCOMES = {
    "passed": {
        "pause": lambda: _("The table voted to pause %(game)s."),
        "resume": lambda: _("The table voted to resume %(game)s."),
        "extend": lambda: _("The table voted to extend the deadline of %(game)s."),
    },
    "failed": {
        "pause": lambda: _("The proposal to pause %(game)s failed: no majority voted for it."),
        "resume": lambda: _("The proposal to resume %(game)s failed: no majority voted for it."),
        "extend": lambda: _("The proposal to extend the deadline of %(game)s failed: no majority voted for it."),
    },
    "lapsed": {
        "pause": lambda: _("The proposal to pause %(game)s lapsed before a majority voted for it."),
        "resume": lambda: _("The proposal to resume %(game)s lapsed before a majority voted for it."),
        "extend": lambda: _("The proposal to extend the deadline of %(game)s lapsed before a majority voted for it."),
    },
}


def _proposal(name: str, data: dict) -> str:
    """A proposal of the table: made (its terms, and that the reader may vote), or its outcome."""
    if data["outcome"]:
        return OUTCOMES[data["outcome"]][data["kind"]]() % {"game": name}
    fields = {"name": data["by"], "game": name, "reason": data.get("reason", "")}
    if data["kind"] == "extend":
        text = ngettext(
            "%(name)s proposes to extend the deadline of %(game)s by %(hours)s hour. Vote yes or no on your panel.",
            "%(name)s proposes to extend the deadline of %(game)s by %(hours)s hours. Vote yes or no on your panel.",
            data["hours"],
        )
        return text % {**fields, "hours": data["hours"]}
    text = PROPOSED[data["kind"]]() % fields
    if "until" in data:
        text += " " + _("The pause would end on %(until)s.") % {"until": when(datetime.fromisoformat(data["until"]))}
    return text


def describe_notification(notice: Notification, game: Game | None) -> str:
    name = game.name if game else ""
    data = notice.data
    match notice.kind:
        case Notification.Kind.YOUR_MOVE:
            return _your_move(name, data) + (_claim_offer(data["claim"]) if "claim" in data else "")
        case Notification.Kind.REMINDER:
            return _("Reminder: %(game)s is waiting for your move; the deadline is %(deadline)s.") % {
                "game": name,
                "deadline": when(datetime.fromisoformat(data["deadline"])),
            }
        case Notification.Kind.WARNING:
            return _(
                "You missed a round in %(game)s. One more missed round in a row and you will be exiled: "
                "announce an absence if you need to be away."
            ) % {"game": name}
        case Notification.Kind.EXILED:
            if data.get("reason") == "moderator":
                return _("A moderator exiled you from %(game)s.") % {"game": name}
            return _("You were exiled from %(game)s after missing two rounds in a row.") % {"game": name}
        case Notification.Kind.ABSENCE:
            return _("Your absence from %(game)s is announced: from %(start)s to %(end)s.") % {
                "game": name,
                "start": when(datetime.fromisoformat(data["starts_at"])),
                "end": when(datetime.fromisoformat(data["ends_at"])),
            }
        case Notification.Kind.WEBHOOK:
            return _("Your webhook to %(url)s failed for a day: it is disabled. Fix the address and make it again.") % {
                "url": data["url"]
            }
        case Notification.Kind.MENTION:
            return _("%(name)s mentioned you in %(game)s.") % {"name": data["by"], "game": name}
        case Notification.Kind.SEATED:
            return _(
                "You now hold seat %(seat)s in %(game)s, in place of %(replaces)s. Your role is on your private "
                "panel; read the game's thread to catch up."
            ) % {"seat": data["seat"] + 1, "game": name, "replaces": data["replaces"]}
        case Notification.Kind.STARTED if data["waiting"]:
            return _("%(game)s has started. You are signed up as a substitute: you wait for a seat to free up.") % {
                "game": name
            }
        case Notification.Kind.STARTED:
            return _("%(game)s has started. Your role is on your private panel, on the game's page.") % {"game": name}
        case Notification.Kind.REMOVED:
            return _("%(by)s removed you from the sign-ups of %(game)s. You may join it again while it is open.") % {
                "by": data["by"],
                "game": name,
            }
        case Notification.Kind.SETTINGS:
            return _(
                "The settings of %(game)s changed since you signed up: read them again on its rules page before it "
                "starts."
            ) % {"game": name}
        case Notification.Kind.PROPOSAL:
            return _proposal(name, data)
        case Notification.Kind.REMATCH:
            return _("%(name)s invites you to play %(finished)s again: %(game)s is open for sign-ups.") % {
                "name": data["by"],
                "finished": data["finished"],
                "game": name,
            }
        case Notification.Kind.GAME_OVER:
            return _("%(game)s is over. %(result)s The roles: %(roles)s.") % {
                "game": name,
                "result": describe_stored(data["event"], data),  # its "event" key is not a field: left out
                # by name: the stored roles keep no order (a JSON object)
                "roles": ", ".join(f"{player} ({ROLE[role]()})" for player, role in sorted(data["roles"].items())),
            }
    event = {key: value for key, value in data.items() if key != "event"}
    return f"{name}{colon()} {describe_stored(data['event'], event, game.rules if game else None)}"
