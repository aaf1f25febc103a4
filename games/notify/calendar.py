"""The private calendar feed (iCalendar): every deadline a user owes or will owe in their running games.

Each event's UID names the game, the round and the duty, never the time, so a moved deadline (a pause, an
extension) updates the same event in the reader's calendar.
"""

import secrets
from datetime import timedelta
from urllib.parse import urlsplit

from django.conf import settings
from django.db.models import Prefetch
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from icalendar import Calendar, Event

from games.clock import snap_to_deadline_hour
from games.engine import GameState, SeatStatus, Step, waiting_for
from games.models import Game, Profile, Seat

from .messages import OWED, owed

DUTY = {
    Step.NOMINATE: "nomination",
    Step.VOTE: "vote",
    Step.DISCARD: "session",
    Step.ENACT: "session",
    Step.VETO_REPLY: "session",
    Step.INVESTIGATE: "power",
    Step.SPECIAL_ELECTION: "power",
    Step.EXECUTE: "power",
    Step.EXECUTION_VOTE: "execution-vote",
}


def calendar_for(profile: Profile) -> bytes:
    """The feed of the profile's owner, in their language: a calendar app that fetches it says none of its own, and
    the feed is theirs wherever it is read."""
    with translation.override(profile.language):
        return _calendar(profile.user)


def _calendar(user) -> bytes:
    calendar = Calendar()
    calendar.add("prodid", "-//Secret Hitler by post//deadlines//EN")
    calendar.add("version", "2.0")
    calendar.add("x-wr-calname", _("Secret Hitler deadlines"))
    mine = Prefetch("seats", queryset=Seat.objects.filter(user=user, active=True), to_attr="mine")
    games = Game.objects.filter(status=Game.Status.RUNNING, paused_at=None, seats__user=user, seats__active=True)
    for game in games.distinct().prefetch_related(mine):
        seat = game.mine[0]
        state = game.load_state()
        if seat.number is None or state.seats[seat.number].status != SeatStatus.ALIVE:
            continue
        for duty, deadline, asked in _duties(game, state, seat.number):
            calendar.add_component(_event(game, state.round, duty, deadline, asked))
    return calendar.to_ical()


def _duties(game: Game, state: GameState, seat: int):
    if game.deadline is not None and seat in waiting_for(state):
        asked = {"step": str(state.step)}
        if state.execution_target is not None:  # R23: the ballot names whose execution it is, as the notice does
            asked |= {"target": state.name(state.execution_target), "own_execution": seat == state.execution_target}
        yield DUTY[state.step], game.deadline, owed(asked)
    if state.step == Step.NOMINATE:
        # Every living player will owe a ballot when the vote closes, 7 days after the round began (T1).
        vote = snap_to_deadline_hour(game.round_started_at + game.duration("election"), game)
        yield "vote", vote, OWED["vote"]()


def _event(game: Game, round_number: int, duty: str, deadline, owed: str) -> Event:
    host = urlsplit(settings.SITE_URL).hostname or "localhost"
    event = Event()
    event.add("uid", f"game-{game.pk}-round-{round_number}-{duty}@{host}")
    event.add("dtstamp", timezone.now())
    event.add("dtstart", deadline - timedelta(minutes=30))
    event.add("dtend", deadline)
    event.add("summary", _("%(game)s: %(owed)s") % {"game": game.name, "owed": owed})
    # By its number, which works for the feed's owner alone: a feed is often shared, an unlisted game's key never.
    event.add("url", settings.SITE_URL.rstrip("/") + reverse("games:thread", args=[game.pk]) + "#panel")
    return event


def new_calendar_token(user, request=None) -> str:
    """A new secret address for the user's feed; the old one stops working."""
    token = secrets.token_urlsafe(32)
    Profile.of(user, request)
    Profile.objects.filter(user=user).update(calendar_token=token)
    return token
