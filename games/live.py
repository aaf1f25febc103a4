"""Live threads: what a game's page shows, fingerprinted in one query, so that a page left open asks "anything
new?" every few seconds and is answered "no" (304) for the price of that query and the sign-in's; and a page of
the thread's posts.

The fingerprint covers everything a viewer's page of the thread shows, as each part of the page declares it
(PARTS): the game row (status, step, events, who owes a move, deadline, pause, lock, settings), the thread's posts
(new, edited, hidden or unhidden, deleted, their authors deleted), the last rename of anyone (the names it shows),
the claims, the seats, and the viewer's own moves, absences and notes (VIEWER). The ETag adds who is looking
and how: the user and their session's CSRF cookie (a cached page's forms must carry a token that still works),
the language, the time zone and the page asked for. A page loaded by a reader (not by the live script) also
carries the minute, since without JavaScript its countdown is the server's text.
"""

from collections import namedtuple
from datetime import datetime

from django.middleware.csrf import get_token
from django.utils import timezone, translation
from django.utils.crypto import salted_hmac
from django.utils.http import parse_etags

from .models import sql
from .models.game import SETTINGS_FIELDS
from .models.sql import AGGREGATES, GAME_FIELDS, moment_converter

LIVE_HEADER = "X-Live"  # sent by the page's script when it asks for news; its answers leave flash messages unread
READ_HEADER = "X-Read-Before"  # sent with it: the reader's read mark when the page was loaded ("New posts")
# The fingerprint's values by name: the game's row (GAME_FIELDS), then what is counted of the rest (AGGREGATES).
Fingerprint = namedtuple("Fingerprint", (*GAME_FIELDS, *AGGREGATES))

# What each kept part of a thread's page shows, by the fingerprint's names. A part's key in the fragment cache is
# made of these values (`shown`) and of what is the page's own (the thread, the page's number, the minute its
# countdown counts from); the page's ETag is made of every part's values and the viewer's own (VIEWER). So a part
# can show nothing the ETag does not change with, and the fingerprint reads nothing no part shows
# (tests/web/test_cache_declarations.py).
ROW = ("status", "step_number", "event_count", "waiting", "deadline", "paused_at", "thread_locked", "name",
       "visibility", "link_key")  # fmt: skip
# The thread's posts: new, edited, hidden or unhidden, deleted, their authors renamed or gone.
POSTS = ("live_posts", "live_posts_ids", "live_posts_hidden", "live_posts_signed", "live_posts_edited", "live_renamed")
TABLE = ("live_claims", "live_seats", "live_seats_ids", "live_seats_active")  # the claims and who holds each seat
# A page of the thread: its posts, announcements (a few follow the house rules) and pages; and above them the result,
# with its rematch.
PAGE = ("status", "event_count", "visibility", "link_key", "house_rules", "rematch", *POSTS)
PARTS = {
    "page": PAGE,
    # shown unfolded while the game is open, beside its sign-ups, each with their rating: the newest rating change
    # of the site (a rated game's end, a recompute) is a new key
    "settings": ("status", *SETTINGS_FIELDS, "live_ratings"),
    "history": (*ROW, *TABLE),  # the governments
    "status": (*ROW, *TABLE),  # the status box and the board
}
# A visitor's page of the game thread, below its title: every part above, with no control of a reader's own.
PARTS["visitor-body"] = tuple(dict.fromkeys(name for part in PARTS.values() for name in part))
# What the page shows of the viewer alone: their moves, absences, notes and read mark, and on a player's panel the
# table's proposals and their ballots. In no kept part.
VIEWER = ("live_own_actions", "live_own_absences", "live_own_absences_started", "live_own_absences_over",
          "live_own_notes", "live_read_mark", "live_proposals", "live_proposals_closed",
          "live_proposal_ballots")  # fmt: skip
DECLARED = tuple(dict.fromkeys(name for part in PARTS.values() for name in part)) + VIEWER


def shown(fingerprint: "Fingerprint", part: str) -> tuple:
    """The values the kept `part` of the page shows (PARTS), as the fingerprint read them: its key."""
    return tuple(getattr(fingerprint, name) for name in PARTS[part])


def fingerprint(game_id: int, thread: str, viewer_id: int | None) -> Fingerprint | None:
    """Everything the game's page of `thread` shows `viewer_id` (None: a visitor), as one tuple read in one query
    (GAME_FIELDS, then AGGREGATES); None if there is no game. Only what that viewer sees moves it: no one else's
    ballot changed, absence or resignation (a page that changes for nothing would tell that something secret
    happened). An open page asks for it every LIVE_POLL_SECONDS: it is one statement written as SQL (sql.py)."""
    row = sql.fingerprint(game_id, thread, viewer_id or 0, timezone.now())
    return None if row is None else Fingerprint._make(row)


def page_posts(game_id: int, thread: str, start: int, stop: int) -> list[tuple]:
    """Posts `start` to `stop` of the thread, in its order, as plain rows of presenters.POST_FIELDS: read at every
    page, as SQL (sql.py)."""
    return sql.page_posts(game_id, thread, start, stop)


def read_mark(fingerprint: Fingerprint) -> datetime | None:
    """The viewer's read mark in the thread, as the fingerprint read it (None: never read, or a visitor)."""
    return moment_converter()(fingerprint.live_read_mark)


def has_absences(fingerprint: Fingerprint) -> bool:
    """Whether the viewer has announced any absence in this game, as the fingerprint counted them."""
    return bool(fingerprint.live_own_absences)


def has_notes(fingerprint: Fingerprint) -> bool:
    """Whether the viewer keeps notes on this game, as the fingerprint read them."""
    return fingerprint.live_own_notes is not None


def posts(fingerprint: Fingerprint) -> int:
    """How many posts the thread holds, as the fingerprint read them."""
    return fingerprint.live_posts


def etag(request, fingerprint: Fingerprint, *, live: bool) -> str:
    """The ETag of the page the request asks for: what its parts and the viewer's own show (DECLARED), per viewer,
    session, language, time zone and address; keyed with the site's secret, so that no tag can be guessed from what
    a page shows."""
    viewer = request.user.pk if request.user.is_authenticated else 0
    parts = [
        # The reader's read mark moves a page ("New posts" is drawn from it), not a live answer: that draws the
        # line from the mark the page was loaded with (READ_HEADER), which the page holds as long as it is open.
        repr(tuple(getattr(fingerprint, name) for name in DECLARED if not (live and name == "live_read_mark"))),
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
