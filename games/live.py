"""Live threads: what a game's page shows, fingerprinted in one query, so that a page left open asks "anything
new?" every few seconds and is answered "no" (304) for the price of that query and the sign-in's.

The fingerprint covers everything a viewer's page of the thread shows: the game row (status, step, events, who
owes a move, deadline, pause, lock), the thread's posts (new, edited, hidden or unhidden, their authors deleted),
the claims, the seats, and the viewer's own moves and absences. The ETag adds who is looking
and how: the user and their session's CSRF cookie (a cached page's forms must carry a token that still works),
the language, the time zone and the page asked for. A page loaded by a reader (not by the live script) also
carries the minute, since without JavaScript its countdown is the server's text.
"""

from django.db.models import Count, Max, OuterRef, Q, Subquery, Sum
from django.middleware.csrf import get_token
from django.utils import timezone, translation
from django.utils.crypto import salted_hmac
from django.utils.http import parse_etags

from .models import Absence, ActionRecord, Claim, Game, Post, Seat

GAME_FIELDS = ("status", "step_number", "event_count", "waiting", "deadline", "paused_at", "thread_locked", "name")
AGGREGATES = (
    "live_posts",
    "live_posts_hidden",
    "live_posts_signed",
    "live_posts_edited",
    "live_claims",
    "live_seats",
    "live_seats_ids",
    "live_seats_active",
    "live_own_actions",
    "live_own_absences",
    "live_own_absences_started",
    "live_own_absences_over",
)
LIVE_HEADER = "X-Live"  # sent by the page's script when it asks for news; its answers leave flash messages unread


def fingerprint(game_id: int, thread: str, viewer_id: int | None) -> tuple | None:
    """Everything the game's page of `thread` shows `viewer_id` (None: a visitor), as one tuple read in one query;
    None if there is no game. Only what that viewer sees moves it: no one else's ballot changed, absence or
    resignation (a page that changes for nothing would tell that something secret happened)."""
    now = timezone.now()
    posts = Post.objects.filter(game=OuterRef("pk"), thread=thread)
    seats = Seat.objects.filter(game=OuterRef("pk"))
    own_actions = ActionRecord.objects.filter(game=OuterRef("pk"), actor_id=viewer_id or 0)
    own_absences = Absence.objects.filter(seat__game=OuterRef("pk"), seat__user_id=viewer_id or 0)
    return (
        Game.objects.filter(pk=game_id)
        .annotate(
            live_posts=_aggregate(posts, "game", Count("pk")),
            live_posts_hidden=_aggregate(posts, "game", Sum("pk", filter=Q(hidden_at__isnull=False))),
            live_posts_signed=_aggregate(posts, "game", Count("author")),
            live_posts_edited=_aggregate(posts, "game", Max("edited_at")),
            live_claims=_aggregate(Claim.objects.filter(game=OuterRef("pk")), "game", Count("pk")),
            live_seats=_aggregate(seats, "game", Count("pk")),
            live_seats_ids=_aggregate(seats, "game", Sum("pk")),  # one leaving and another joining
            live_seats_active=_aggregate(seats, "game", Count("pk", filter=Q(active=True))),
            live_own_actions=_aggregate(own_actions, "game", Count("pk")),  # the viewer's own ballot, changed
            live_own_absences=_aggregate(own_absences, "seat__game", Count("pk")),
            live_own_absences_started=_aggregate(own_absences, "seat__game", Count("pk", filter=Q(starts_at__lte=now))),
            live_own_absences_over=_aggregate(
                own_absences, "seat__game", Count("pk", filter=Q(ends_at__lte=now) | Q(ended_early_at__lte=now))
            ),
        )
        .values_list(*GAME_FIELDS, *AGGREGATES)
        .first()
    )


def etag(request, fingerprint: tuple, *, live: bool) -> str:
    """The ETag of the page the request asks for: per viewer, session, language, time zone and address; keyed
    with the site's secret, so that no tag can be guessed from what a page shows."""
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
    return '"' + salted_hmac("games.live.etag", "\n".join(parts), algorithm="sha256").hexdigest()[:32] + '"'


def csrf_secret(request) -> str:
    """The session's CSRF secret, which the page's forms are masked from: made now if the browser has none, so
    that the page answered now and the questions after it agree."""
    get_token(request)
    return request.META.get("CSRF_COOKIE", "")


def unchanged(request, tag: str) -> bool:
    """The page the request holds is this one: its If-None-Match names this very tag (a "*" does not do)."""
    held = parse_etags(request.headers.get("If-None-Match", ""))
    return tag in held or tag in (f"W/{held_tag}" for held_tag in held) or f"W/{tag}" in held


def is_live(request) -> bool:
    return request.headers.get(LIVE_HEADER) == "1"


def _aggregate(queryset, key: str, aggregate):
    return Subquery(queryset.order_by().values(key).annotate(value=aggregate).values("value")[:1])
