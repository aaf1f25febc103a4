"""Live threads: what a game's page shows, fingerprinted in one query, so that a page left open asks "anything
new?" every few seconds and is answered "no" (304) for the price of that query and the sign-in's.

The fingerprint covers everything any viewer's page of the thread shows: the game row (status, step, events,
actions, which covers every ballot cast or changed, deadline, pause, lock), the thread's posts (new, edited,
hidden or unhidden, their authors deleted), the claims, the absences and the seats. The ETag adds who is looking
and how: the user and their session's CSRF cookie (a cached page's forms must carry a token that still works),
the language, the time zone and the page asked for. A page loaded by a reader (not by the live script) also
carries the minute, since without JavaScript its countdown is the server's text.
"""

import hashlib

from django.db.models import Count, Max, OuterRef, Q, Subquery
from django.middleware.csrf import get_token
from django.utils import timezone, translation

from .models import Absence, Claim, Game, Post, Seat

GAME_FIELDS = ("status", "step_number", "event_count", "action_count", "deadline", "paused_at", "thread_locked", "name")
AGGREGATES = (
    "live_posts",
    "live_posts_hidden",
    "live_posts_signed",
    "live_posts_edited",
    "live_claims",
    "live_absences",
    "live_absences_latest",
    "live_absences_ended",
    "live_seats_count",
    "live_seats_active",
    "live_resignations",
)
LIVE_HEADER = "X-Live"  # sent by the page's script when it asks for news; its answers leave flash messages unread


def fingerprint(game_id: int, thread: str) -> tuple | None:
    """Everything the game's page of `thread` shows, as one tuple read in one query; None if there is no game."""
    posts = Post.objects.filter(game=OuterRef("pk"), thread=thread)
    claims = Claim.objects.filter(game=OuterRef("pk"))
    absences = Absence.objects.filter(seat__game=OuterRef("pk"))
    seats = Seat.objects.filter(game=OuterRef("pk"))
    return (
        Game.objects.filter(pk=game_id)
        .annotate(
            live_posts=_aggregate(posts, "game", Count("pk")),
            live_posts_hidden=_aggregate(posts, "game", Count("hidden_at")),
            live_posts_signed=_aggregate(posts, "game", Count("author")),
            live_posts_edited=_aggregate(posts, "game", Max("edited_at")),
            live_claims=_aggregate(claims, "game", Count("pk")),
            live_absences=_aggregate(absences, "seat__game", Count("pk")),
            live_absences_latest=_aggregate(absences, "seat__game", Max("created_at")),
            live_absences_ended=_aggregate(absences, "seat__game", Count("ended_early_at")),
            live_seats_count=_aggregate(seats, "game", Count("pk")),
            live_seats_active=_aggregate(seats, "game", Count("pk", filter=Q(active=True))),
            live_resignations=_aggregate(seats, "game", Count("resign_requested_at")),
        )
        .values_list(*GAME_FIELDS, *AGGREGATES)
        .first()
    )


def etag(request, fingerprint: tuple, *, live: bool) -> str:
    """The ETag of the page the request asks for: per viewer, session, language, time zone and address."""
    viewer = request.user.pk if request.user.is_authenticated else 0
    parts = [
        repr(fingerprint),
        str(viewer),
        csrf_secret(request),
        translation.get_language() or "",
        timezone.get_current_timezone_name(),
        request.get_full_path(),
        "live" if live else timezone.now().strftime("%Y%m%d%H%M"),
    ]
    return '"' + hashlib.sha256("\n".join(parts).encode()).hexdigest()[:32] + '"'


def csrf_secret(request) -> str:
    """The session's CSRF secret, which the page's forms are masked from: made now if the browser has none, so
    that the page answered now and the questions after it agree."""
    get_token(request)
    return request.META.get("CSRF_COOKIE", "")


def is_live(request) -> bool:
    return request.headers.get(LIVE_HEADER) == "1"


def _aggregate(queryset, key: str, aggregate):
    return Subquery(queryset.order_by().values(key).annotate(value=aggregate).values("value")[:1])
