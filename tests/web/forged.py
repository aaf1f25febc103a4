"""What the forged-input tests share: every field name the site's forms use, every address of the resolver, and
a snapshot of everything a forged request could change."""

import re

from django.urls import URLResolver, get_resolver

from games.models import Absence, ActionRecord, Ban, Claim, Game, GameEvent, Post, Seat
from moderation.models import AuditEntry, Report

FIELDS = [
    "action", "step", "step_number", "reason", "hours", "player", "newcomer", "type", "target", "vote", "policy",
    "accept", "round", "cards", "starts_at", "ends_at", "days", "hide", "next", "resolution", "body", "thread",
    "quote_of", "language", "confirm", "as", "q", "login", "password", "email", "name", "display_name",
    "time_zone", "reminders", "confirmed", "back", "preview", "reply_by_email", "scope", "url",
    "moves", "warnings", "mentions", "endings", "quiet_from", "quiet_to", "token",
]  # fmt: skip
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
        # A GET may write one thing: a moderator opening a game's page is on the record.
        "audit": list(AuditEntry.objects.exclude(action="view_secrets").values("pk")),
    }
