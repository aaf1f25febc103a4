"""Forged input at every address of the site, on PostgreSQL: never a 500, never a change to any game.

Every URL pattern of the resolver (Django's own admin aside) is requested as a stranger, a player of the game
and a moderator outside it, with its path parameters set to real ids of this game and of another one, to ids
that do not exist or overflow, to NUL bytes and huge strings; with forged query strings; and posted forms whose
every field is a NUL byte, a huge value, the wrong type, or a stale step number. What a GET may change is
listed below (reading marks a thread read; a moderator opening a game's page is written in the audit log).
"""

import re
from datetime import timedelta

import pytest
from django.contrib.auth.models import Group
from django.test import Client
from django.urls import URLResolver, get_resolver
from django.utils import timezone

from games.models import Absence, ActionRecord, Claim, Game, GameEvent, Post, Seat
from games.services import cancel
from moderation.models import AuditEntry, Ban, Report
from tests.factories import make_user, running_game

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]

HUGE = "9" * 60_000
FORGED_PATH_VALUES = ["0", "999999", "99999999999999999999999", "%00", "x" * 3000, "%3Cb%3E", "-1"]
FORGED_QUERIES = ["?q=%00&page=-1&quote=abc", f"?q={'x' * 50_000}&page=99999999999999999999&quote=99999999999"]
FIELDS = [
    "action", "step", "step_number", "reason", "hours", "player", "newcomer", "type", "target", "vote", "policy",
    "accept", "round", "cards", "starts_at", "ends_at", "days", "hide", "next", "resolution", "body", "thread",
    "quote_of", "language", "confirm", "as", "q", "login", "password", "email", "name", "display_name",
    "time_zone", "reminders", "confirmed", "back", "preview", "reply_by_email", "scope", "url",
]  # fmt: skip
# Free text is any text: "abc" in a post or a report is a post or a report, not a forgery.
TYPED = [field for field in FIELDS if field not in {"reason", "resolution", "body", "display_name", "q", "confirm"}]
PAYLOADS = {
    "empty": {},
    "nul": dict.fromkeys(FIELDS, "x\x00y"),
    "huge": dict.fromkeys(FIELDS, HUGE),
    "wrong types": dict.fromkeys(TYPED, "abc"),
    "out of range": dict.fromkeys(TYPED, str(2**70)),
}
# For the forms made for one step of the game: a move or an intervention from a page the game has left behind.
STALE = {
    "action": "end_now",
    "reason": "forged",
    "step": "0",
    "step_number": "0",
    "type": "nominate",
    "target": "bob",
    "hours": "24",
    "player": "bob",
}
# A page's script asks with its ETag (games/live.py): forged ones, a wildcard, and a stranger's tag.
FORGED_HEADERS = [
    {"HTTP_IF_NONE_MATCH": "*", "HTTP_X_LIVE": "1"},
    {"HTTP_IF_NONE_MATCH": '"' + "0" * 32 + '", W/"x\u0000y", ' + "x" * 5000, "HTTP_X_LIVE": "1"},
    {"HTTP_IF_NONE_MATCH": "\x00", "HTTP_X_LIVE": "\x00" * 10},
]
SKIPPED = {"accounts/logout/"}  # signs the client out: the rest of its requests would be a stranger's


def patterns(resolver=None, prefix=""):
    for entry in (resolver or get_resolver()).url_patterns:
        if isinstance(entry, URLResolver):
            if str(entry.pattern) != "admin/":  # Django's own admin, tested by Django
                yield from patterns(entry, prefix + str(entry.pattern))
        elif prefix + str(entry.pattern) not in SKIPPED:
            yield prefix + str(entry.pattern)


def fill(pattern: str, values: dict[str, str]) -> str:
    """A concrete path for a route (`<id:game_id>`) or a regular expression (`(?P<key>...)`)."""
    path = re.sub(r"<(?:\w+:)?(\w+)>", lambda m: str(values.get(m.group(1), "1")), pattern)
    path = re.sub(r"\(\?P<(\w+)>(?:[^()]|\([^()]*\))*\)", lambda m: str(values.get(m.group(1), "1")), path)
    return "/" + path.replace("^", "").replace("$", "").replace("\\", "")


@pytest.fixture
def world():
    """A running game (ann..eve, a vote open, posts, a report, an absence) and a finished one; a moderator."""
    now = timezone.now()
    game = running_game(now=now, actions=[{"type": "nominate", "by": "ann", "target": "bob"}])
    other = running_game(now=now)
    Game.objects.filter(pk=other.pk).update(name="Other")
    ghost = make_user("ghost")
    post = Post.objects.create(game=game, author=make_user("ann"), body="hi", html="<p>hi</p>", created_at=now)
    buried = Post.objects.create(
        game=game, author=ghost, thread=Post.Thread.GRAVEYARD, body="b", html="b", created_at=now
    )
    report = Report.objects.create(post=post, reporter=make_user("bob"), reason="rude")
    seat = Seat.objects.get(game=game, name="cat")
    absence = Absence.objects.create(seat=seat, starts_at=now + timedelta(days=2), ends_at=now + timedelta(days=3))
    ban = Ban.objects.create(user=ghost, until=now + timedelta(days=3), reason="spam")
    moderator = make_user("mod")
    moderator.groups.add(Group.objects.get(name="moderators"))
    cancel(other.pk, moderator)  # the other game is over
    ids = {
        "game_id": game.pk,
        "post_id": post.pk,
        "absence_id": absence.pk,
        "report_id": report.pk,
        "user_id": make_user("dan").pk,
        "ban_id": ban.pk,
        "username": "ann",
        "token": "forged-token",
        "key": "forged-key",
        "uidb36": "1",
    }
    elsewhere = {**ids, "game_id": other.pk, "post_id": buried.pk}
    return {"real": ids, "elsewhere": elsewhere}


def snapshot() -> dict:
    return {
        "games": list(Game.objects.order_by("pk").values()),
        "seats": list(
            Seat.objects.order_by("pk").values(
                "pk", "game", "user", "name", "number", "active", "pending", "is_substitute", "exiled_at"
            )
        ),
        "events": GameEvent.objects.count(),
        "actions": ActionRecord.objects.count(),
        "posts": list(Post.objects.order_by("pk").values("pk", "body", "hidden_at", "edited_at")),
        "claims": Claim.objects.count(),
        "absences": list(Absence.objects.order_by("pk").values("pk", "starts_at", "ends_at", "ended_early_at")),
        "reports": list(Report.objects.order_by("pk").values("pk", "resolved_at")),
        "bans": list(Ban.objects.order_by("pk").values("pk", "lifted_at")),
        # A GET may write one thing: a moderator opening a game's page is on the record (issue 9).
        "audit": list(AuditEntry.objects.exclude(action="view_secrets").values("pk")),
    }


def requests_for(world):
    for pattern in patterns():
        for values in (world["real"], world["elsewhere"]):
            url = fill(pattern, values)
            yield "get", url, None
            for query in FORGED_QUERIES:
                yield "get", url + query, None
            for headers in FORGED_HEADERS:
                yield "get", url, headers
            for payload in PAYLOADS.values():
                yield "post", url, payload
            if url.endswith(("/act/", "/move/")):
                yield "post", url, STALE
        if "<" in pattern or "(?P" in pattern:
            for forged in FORGED_PATH_VALUES:
                url = fill(pattern, dict.fromkeys({**world["real"]}, forged))
                yield "get", url, None
                yield "post", url, PAYLOADS["nul"]


@pytest.mark.parametrize("who", ["stranger", "player", "moderator"])
def test_no_forged_request_gives_a_500_or_changes_a_game(world, client_for, who):
    client = (
        Client(raise_request_exception=False) if who == "stranger" else client_for({"player": "ann"}.get(who, "mod"))
    )
    client.raise_request_exception = False
    before = snapshot()
    failures = []
    count = 0
    for method, url, data in requests_for(world):
        response = client.get(url, **(data or {})) if method == "get" else client.post(url, data)
        count += 1
        if response.status_code >= 500 and not (url.startswith("/healthz") and response.status_code == 503):
            failures.append(f"{response.status_code} {method.upper()} {url[:120]} {str(data)[:80]}")
    assert failures == [], "\n".join(failures)
    assert snapshot() == before
    assert count > 1000
