"""Live threads: what a game's page shows, fingerprinted in one query, so that a page left open asks "anything
new?" every few seconds and is answered "no" (304) for the price of that query and the sign-in's; and a page of
the thread's posts, read in one query. Both are written out as SQL, once per process.

The fingerprint covers everything a viewer's page of the thread shows: the game row (status, step, events, who
owes a move, deadline, pause, lock), the thread's posts (new, edited, hidden or unhidden, their authors deleted),
the claims, the seats, and the viewer's own moves, absences and notes. The ETag adds who is looking
and how: the user and their session's CSRF cookie (a cached page's forms must carry a token that still works),
the language, the time zone and the page asked for. A page loaded by a reader (not by the live script) also
carries the minute, since without JavaScript its countdown is the server's text.
"""

from datetime import datetime
from functools import cache

from django.contrib.auth import get_user_model
from django.db import connection
from django.middleware.csrf import get_token
from django.utils import timezone, translation
from django.utils.crypto import salted_hmac
from django.utils.http import parse_etags

from .models import Absence, ActionRecord, Claim, Game, Note, Post, Profile, Seat, ThreadRead
from .models.rows import moment_converter

User = get_user_model()

# Its visibility and link key too: who may read the page at its number, and the addresses its links carry.
GAME_FIELDS = ("status", "step_number", "event_count", "waiting", "deadline", "paused_at", "thread_locked", "name",
               "visibility", "link_key")  # fmt: skip
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
    "live_own_notes",
    "live_read_mark",
)
LIVE_HEADER = "X-Live"  # sent by the page's script when it asks for news; its answers leave flash messages unread
READ_HEADER = "X-Read-Before"  # sent with it: the reader's read mark when the page was loaded ("New posts")


def fingerprint(game_id: int, thread: str, viewer_id: int | None) -> tuple | None:
    """Everything the game's page of `thread` shows `viewer_id` (None: a visitor), as one tuple read in one query
    (GAME_FIELDS, then AGGREGATES); None if there is no game. Only what that viewer sees moves it: no one else's
    ballot changed, absence or resignation (a page that changes for nothing would tell that something secret
    happened)."""
    now = connection.ops.adapt_datetimefield_value(timezone.now())
    viewer = viewer_id or 0
    with connection.cursor() as cursor:
        cursor.execute(_fingerprint_sql(), {"game": game_id, "thread": thread, "viewer": viewer, "now": now})
        return cursor.fetchone()


@cache
def _fingerprint_sql() -> str:
    """The fingerprint's query, written out: built with the ORM (thirteen aggregate subqueries) it cost 5 ms of
    Python at every ask, ten times the query itself, and an open page asks every LIVE_POLL_SECONDS (issue 14).
    Each aggregate reads its table once; each gives one row, even over no rows. The tables are named from the
    models; the columns are written as the models name them (none sets db_column)."""
    models = (Game, Post, Claim, Seat, ActionRecord, Absence, Note, ThreadRead)
    game, post, claim, seat, action, absence, note, read = (connection.ops.quote_name(m._meta.db_table) for m in models)
    fields = ", ".join(f"g.{connection.ops.quote_name(Game._meta.get_field(name).column)}" for name in GAME_FIELDS)
    return f"""
        SELECT {fields}, p.n, p.hidden, p.signed, p.edited, c.n, s.n, s.ids, s.active, a.n, o.n, o.started, o.ended,
               n.saved, r.mark
        FROM {game} g
        CROSS JOIN (SELECT COUNT(*) AS n, SUM(CASE WHEN hidden_at IS NULL THEN 0 ELSE id END) AS hidden,
                           COUNT(author_id) AS signed, MAX(edited_at) AS edited
                    FROM {post} WHERE game_id = %(game)s AND thread = %(thread)s) p
        CROSS JOIN (SELECT COUNT(*) AS n FROM {claim} WHERE game_id = %(game)s) c
        CROSS JOIN (SELECT COUNT(*) AS n, SUM(id) AS ids, SUM(CASE WHEN active THEN 1 ELSE 0 END) AS active
                    FROM {seat} WHERE game_id = %(game)s) s
        CROSS JOIN (SELECT COUNT(*) AS n FROM {action} WHERE game_id = %(game)s AND actor_id = %(viewer)s) a
        CROSS JOIN (SELECT COUNT(*) AS n, SUM(CASE WHEN absence.starts_at <= %(now)s THEN 1 ELSE 0 END) AS started,
                           SUM(CASE WHEN absence.ends_at <= %(now)s OR absence.ended_early_at <= %(now)s
                               THEN 1 ELSE 0 END) AS ended
                    FROM {absence} absence JOIN {seat} own ON own.id = absence.seat_id
                    WHERE own.game_id = %(game)s AND own.user_id = %(viewer)s) o
        CROSS JOIN (SELECT MAX(updated_at) AS saved FROM {note} WHERE game_id = %(game)s AND author_id = %(viewer)s) n
        CROSS JOIN (SELECT MAX(last_read_at) AS mark FROM {read}
                    WHERE game_id = %(game)s AND thread = %(thread)s AND user_id = %(viewer)s) r
        WHERE g.id = %(game)s
    """


# A post as a thread's page shows it (games.presenters.POST_FIELDS), column by column.
POST_COLUMNS = ("p.id", "p.author_id", "p.html", "p.created_at", "p.edited_at", "p.hidden_at", "u.username",
                "f.display_name")  # fmt: skip
MOMENTS = tuple(POST_COLUMNS.index(column) for column in ("p.created_at", "p.edited_at", "p.hidden_at"))


def page_posts(game_id: int, thread: str, start: int, stop: int) -> list[tuple]:
    """Posts `start` to `stop` of the thread, in its order, as plain rows of POST_COLUMNS. Their ids are read from
    the thread's index alone (post_page_idx), then those rows only, joined with their authors: joined first, the
    page after an OFFSET read, joined and sorted every post before it (4.7 ms of PostgreSQL for the last page of a
    1,000-post thread). Written out like the fingerprint: built by the ORM, the query cost 3 ms of Python."""
    with connection.cursor() as cursor:
        cursor.execute(_page_sql(), {"game": game_id, "thread": thread, "start": start, "count": stop - start})
        rows = cursor.fetchall()
    convert = moment_converter()
    return [tuple(convert(value) if n in MOMENTS else value for n, value in enumerate(row)) for row in rows]


@cache
def _page_sql() -> str:
    post, user, profile = (connection.ops.quote_name(m._meta.db_table) for m in (Post, User, Profile))
    return f"""
        SELECT {", ".join(POST_COLUMNS)}
        FROM {post} p LEFT JOIN {user} u ON u.id = p.author_id LEFT JOIN {profile} f ON f.user_id = u.id
        WHERE p.id IN (SELECT id FROM {post} WHERE game_id = %(game)s AND thread = %(thread)s
                       ORDER BY created_at, id LIMIT %(count)s OFFSET %(start)s)
        ORDER BY p.created_at, p.id
    """


def public(fingerprint: tuple) -> tuple:
    """The part of a fingerprint every viewer shares: the game's row, its thread's posts, its claims and seats."""
    return fingerprint[: len(GAME_FIELDS) + AGGREGATES.index("live_own_actions")]


def read_mark(fingerprint: tuple) -> datetime | None:
    """The viewer's read mark in the thread, as the fingerprint read it (None: never read, or a visitor)."""
    return moment_converter()(_aggregate(fingerprint, "live_read_mark"))


def _aggregate(fingerprint: tuple, name: str):
    return fingerprint[len(GAME_FIELDS) + AGGREGATES.index(name)]


def has_absences(fingerprint: tuple) -> bool:
    """Whether the viewer has announced any absence in this game, as the fingerprint counted them."""
    return bool(_aggregate(fingerprint, "live_own_absences"))


def has_notes(fingerprint: tuple) -> bool:
    """Whether the viewer keeps notes on this game, as the fingerprint read them."""
    return _aggregate(fingerprint, "live_own_notes") is not None


def posts(fingerprint: tuple) -> int:
    """How many posts the thread holds, as the fingerprint read them."""
    return _aggregate(fingerprint, "live_posts")


def etag(request, fingerprint: tuple, *, live: bool) -> str:
    """The ETag of the page the request asks for: per viewer, session, language, time zone and address; keyed
    with the site's secret, so that no tag can be guessed from what a page shows."""
    viewer = request.user.pk if request.user.is_authenticated else 0
    parts = [
        # The reader's read mark moves a page ("New posts" is drawn from it), not a live answer: that draws the
        # line from the mark the page was loaded with (READ_HEADER), which the page holds as long as it is open.
        repr(fingerprint[:-1] if live else fingerprint),
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


def read_before(request) -> datetime | None:
    """The read mark a live page was loaded with, as its script sends it back; None if it sends none that reads
    as a moment (it only places the page's own "New posts" line)."""
    try:
        moment = datetime.fromisoformat(request.headers.get(READ_HEADER, ""))
    except ValueError:
        return None
    return moment if moment.tzinfo is not None else None
