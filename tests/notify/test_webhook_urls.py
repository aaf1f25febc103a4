"""Issue 27: a webhook URL is its owner's credential (Discord's and Slack's carry it in the path, others in the
query). Whatever becomes of a delivery, what is logged, stored or shown to anyone but the owner names the URL's
scheme and host only. A real HTTP receiver on loopback (or its port, closed) at a path carrying a secret."""

import logging
from datetime import timedelta

import pytest
import time_machine
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core import mail
from django.utils import timezone

from games.models import Notification, SweepRun, WebhookDelivery, WebhookSubscription
from games.notify.webhook_targets import redacted, without_url
from games.services import make_move
from games.tasks import deliver_webhooks, send_emails
from games.views import webhooks
from sh_site.logs import RateLimitedAdminEmailHandler
from tests.factories import make_user, running_game, strongly_signed_in, subscribe, with_second_factor
from tests.services import Receiver

pytestmark = pytest.mark.django_db

SECRET = "s3cr3tTOKEN"
PATHS = {
    "discord": f"/api/webhooks/123/{SECRET}",  # a shape the log mask knows too
    "unknown": f"/in/{SECRET}?room=7",  # one it cannot know: only the code's own care keeps it out
}


@pytest.fixture
def failing(request, settings):
    """A receiver at a secret path that answers 500, or whose port refuses connections."""
    settings.WEBHOOK_ALLOWED_ADDRESSES = ["127.0.0.1"]
    path, answer = request.param
    server = Receiver(status=500, path=PATHS[path])
    if answer == "refused":
        server.close()  # its port is free now: nothing listens
    yield server
    if answer != "refused":
        server.close()


def logged(records: list[logging.LogRecord]) -> str:
    formatter = logging.Formatter()
    return "\n".join(formatter.format(record) for record in records)


@pytest.mark.parametrize(
    "failing",
    [("discord", "500"), ("discord", "refused"), ("unknown", "500"), ("unknown", "refused")],
    indirect=True,
)
def test_a_failing_webhooks_secret_path_is_in_no_log_stored_error_or_moderators_page(failing, caplog, client_for):
    caplog.set_level(logging.DEBUG)
    game = running_game(now=timezone.now())
    urls = {
        "ann": failing.url,
        "bob": failing.url.replace(SECRET, SECRET + "\x7f"),  # http.client refuses it, naming it in its error
        "cat": failing.url.replace(SECRET, SECRET + "é"),  # http.client cannot encode it: failed for good
    }
    for owner, url in urls.items():
        subscribe("game", url, owner=owner, game=game)
    make_move(game.pk, make_user("ann"), {"type": "nominate", "target": "bob"}, 1)
    deliver_webhooks()
    with time_machine.travel(timezone.now() + timedelta(days=1, minutes=1)):
        deliver_webhooks()  # a day of failures: disabled, and the owners told
        send_emails()
    assert WebhookSubscription.objects.exclude(disabled_at=None).count() == 2
    assert WebhookDelivery.objects.filter(status=WebhookDelivery.Status.FAILED).count() == 1
    assert SECRET not in logged(caplog.records)
    errors = [
        *WebhookDelivery.objects.values_list("last_error", flat=True),
        *SweepRun.objects.values_list("errors", flat=True),
        *Notification.objects.values_list("error", flat=True),
    ]
    assert SECRET not in str(errors) and "127.0.0.1" in str(errors)  # the host, named
    moderator = client_for("mod")
    Group.objects.get(name="moderators").user_set.add(get_user_model().objects.get(username="mod"))
    with_second_factor(moderator, get_user_model().objects.get(username="mod"))
    page = moderator.get("/moderation/").content.decode()
    assert "webhook delivery could not be sent" in page and SECRET not in page
    told = [message for message in mail.outbox if SECRET in message.body]  # the owners only, of their own URL
    assert sorted(message.to[0] for message in told) == ["ann@example.com", "bob@example.com"]


def test_the_admin_lists_name_a_webhooks_host_not_its_path(client):
    game = running_game(now=timezone.now())
    subscribe("game", f"https://discord.com/api/webhooks/123/{SECRET}", game=game)
    make_move(game.pk, make_user("ann"), {"type": "nominate", "target": "bob"}, 1)
    strongly_signed_in(client, get_user_model().objects.create_superuser("root", "root@example.org", "x"))
    for page in ("webhooksubscription", "webhookdelivery"):
        text = client.get(f"/admin/games/{page}/").content.decode()
        assert SECRET not in text and ("discord.com/…" in text or page == "webhookdelivery")


@pytest.mark.parametrize(
    "url, shown",
    [
        (f"https://discord.com/api/webhooks/123/{SECRET}", "https://discord.com/…"),
        (f"https://hooks.slack.com/services/T0ABC/B0DEF/{SECRET}", "https://hooks.slack.com/…"),
        (f"https://ann:{SECRET}@example.org:8443/hook?token={SECRET}", "https://example.org:8443/…"),
        (f"http://[2001:db8::1]/{SECRET}", "http://[2001:db8::1]/…"),
        ("http://[::1/hook", "…"),
    ],
)
def test_a_url_is_shown_as_its_scheme_and_host(url, shown):
    assert redacted(url) == shown
    assert SECRET not in without_url(f"InvalidURL: {url!r} and {url}", url)


def test_an_error_emailed_to_the_admins_hides_the_url_being_subscribed(settings, monkeypatch, client_for):
    settings.DEBUG = False
    settings.ADMINS = [("ops@example.org", "ops@example.org")]
    RateLimitedAdminEmailHandler._last_sent.clear()
    monkeypatch.setattr(webhooks, "check_url", lambda url: 1 / 0)  # a fault while the form is checked
    ann = client_for("ann")
    ann.raise_request_exception = False
    assert ann.post("/profile/webhooks/", {"url": f"https://example.org/in/{SECRET}"}).status_code == 500
    (email,) = mail.outbox
    assert "ZeroDivisionError" in email.body and SECRET not in email.body
    assert "url = '****" in email.body
