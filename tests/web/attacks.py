"""What the tests of issue 27's attacked surfaces share (tests/web/test_forged_absences.py, _extensions,
_webhooks, _api): dates a person could send, everything an attack could change, what a refusal looks like."""

from datetime import timedelta

from django.contrib.messages import constants, get_messages
from django.utils import timezone

from games.models import Absence, ActionRecord, Game, GameEvent, Notification, Post, WebhookSubscription
from moderation.models import AuditEntry

HUGE = "9" * 60_000
LATER = timezone.now() + timedelta(days=3)
GOOD_START = LATER.isoformat()
GOOD_END = (LATER + timedelta(days=1)).isoformat()


def snapshot() -> dict:
    """Everything an attack on these addresses could change."""
    return {
        "absences": list(Absence.objects.values().order_by("pk")),
        "games": list(Game.objects.values().order_by("pk")),
        "events": GameEvent.objects.count(),
        "actions": ActionRecord.objects.count(),
        "posts": Post.objects.count(),
        "notifications": Notification.objects.count(),
        "audit": AuditEntry.objects.count(),
        "webhooks": list(WebhookSubscription.objects.values("url").order_by("pk")),
    }


def assert_refused(response, *, allowed=(400, 401, 403, 404, 405, 409, 413, 422)) -> None:
    assert response.status_code in allowed, (response.status_code, response.content[:500])


def refusal(response) -> str:
    """The error message a refused form leaves for the page it goes back to."""
    return " ".join(str(m) for m in get_messages(response.wsgi_request) if m.level == constants.ERROR)
