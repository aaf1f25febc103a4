"""Issue 27: the outboxes and the periodic jobs handle their rows one failure at a time, as the deadline sweep does.
A row that cannot be built or sent (corrupt data put straight into the table: nothing is mocked) is marked failed
with its error, logged and shown to the moderators, never to the players; the rows beside it go out, and the
next run neither claims it again nor stops on it."""

from datetime import timedelta

import pytest
import time_machine
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core import mail
from django.utils import timezone

from games.models import Game, Notification, SweepRun, WebhookDelivery, WebhookSubscription
from games.services import make_move
from games.services.forum import post_message
from games.tasks import deliver_webhooks, queue_reminders_task, send_emails
from tests.factories import Api, make_user, running_game, subscribe, token_for, with_second_factor
from tests.payloads import THE_ISSUE_S

pytestmark = pytest.mark.django_db


def notice(name: str, game: Game, data: dict, key: str) -> Notification:
    return Notification.objects.create(
        user=make_user(name), game=game, kind=Notification.Kind.ABSENCE, data=data, key=key,
        created_at=timezone.now(), email=Notification.Email.PENDING, email_due_at=timezone.now(),
    )  # fmt: skip


def dashboard(client_for) -> str:
    moderator = client_for("mod")
    Group.objects.get(name="moderators").user_set.add(get_user_model().objects.get(username="mod"))
    with_second_factor(moderator, get_user_model().objects.get(username="mod"))
    return moderator.get("/moderation/").content.decode()


def test_an_email_that_cannot_be_built_fails_alone_and_the_others_go_out(client_for):
    game = running_game(now=timezone.now())
    start = timezone.now() + timedelta(days=2)
    dates = {"starts_at": start.isoformat(), "ends_at": (start + timedelta(days=1)).isoformat()}
    good = notice("bob", game, dates, "g")
    bad = notice("bob", game, {"starts_at": "not a date", "ends_at": "never"}, "b")  # in the same digest
    broken = notice("cat", game, {}, "c")
    later = notice("dan", game, dates, "d")  # the next person's, after the failures
    assert send_emails() == 2
    assert sorted(message.to[0] for message in mail.outbox) == ["bob@example.com", "dan@example.com"]
    assert all(message.subject.startswith("Your absence from") for message in mail.outbox)
    assert {good.pk, later.pk} == set(Notification.objects.filter(email="sent").values_list("pk", flat=True))
    for row, error in ((bad, "ValueError"), (broken, "KeyError")):
        row.refresh_from_db()
        assert (row.email, row.error.split(":")[0]) == (Notification.Email.FAILED, error)
    run = SweepRun.objects.get(task="outbox")
    assert run.failed == 2 and f"notification {bad.pk}: ValueError: Invalid isoformat string" in run.errors
    with time_machine.travel(timezone.now() + timedelta(hours=1)):
        assert send_emails() == 0  # the next run: nothing claimed again, nothing stopped
    assert not Notification.objects.filter(email=Notification.Email.SENDING).exists()
    assert Notification.objects.get(pk=bad.pk).attempts == 1
    page = dashboard(client_for)
    assert "2 emails could not be built or sent in the last 7 days" in page and "Invalid isoformat string" in page
    bob = client_for("bob")
    assert bob.get("/moderation/").status_code == 403
    bell = bob.get("/notifications/")
    assert bell.status_code == 200 and "This notice cannot be shown." in bell.content.decode()
    assert "isoformat" not in bell.content.decode()


def test_the_issue_s_notice_left_in_the_outbox_goes_out_and_breaks_no_page(client_for):
    """A notice made before dates were bounded: its dates are shown as they were given, not converted."""
    game = running_game(now=timezone.now())
    notice("bob", game, THE_ISSUE_S, "issue")
    assert send_emails() == 1
    assert "9999-12-31 23:59:59-14:00" in mail.outbox[0].subject
    assert client_for("bob").get("/notifications/").status_code == 200
    assert Api(token_for("bob")).get("/me/notifications").status_code == 200


def test_an_email_of_a_game_whose_state_cannot_be_read_fails_alone():
    make_user("ann")  # with an email address
    game, other = running_game(now=timezone.now()), running_game(now=timezone.now())
    Game.objects.filter(pk=game.pk).update(state='{"broken": true}')
    assert send_emails() == 1  # ann's "your move" in the other game
    failed = Notification.objects.get(game=game, kind=Notification.Kind.YOUR_MOVE)
    assert failed.email == Notification.Email.FAILED and failed.error.startswith("UnreadableState")
    assert Notification.objects.get(game=other, kind=Notification.Kind.YOUR_MOVE).email == Notification.Email.SENT


def test_a_webhook_delivery_that_cannot_be_sent_fails_alone(receiver, client_for):
    game = running_game(now=timezone.now())
    subscribe("game", receiver.url, game=game)
    corrupt = subscribe("game", receiver.url, game=game, owner="bob")
    WebhookSubscription.objects.filter(pk=corrupt.pk).update(url="http://[::1/hook")  # put straight in the table
    make_move(game.pk, make_user("ann"), {"type": "nominate", "target": "bob"}, 1)
    assert deliver_webhooks() == 1 and len(receiver.received) == 1
    bad = WebhookDelivery.objects.get(subscription=corrupt)
    assert bad.status == WebhookDelivery.Status.FAILED and bad.last_error.startswith("ValueError")
    post_message(game.pk, make_user("cat"), "Bob? Really?")
    with time_machine.travel(timezone.now() + timedelta(hours=1)):
        assert deliver_webhooks() == 1  # the next run: the good subscription's next event, the bad one not retried
    assert WebhookDelivery.objects.filter(status__in=["sending", "pending"]).count() == 0
    assert WebhookSubscription.objects.get(pk=corrupt.pk).disabled_at is None
    page = dashboard(client_for)
    assert "2 webhook deliveries could not be sent in the last 7 days" in page and "Invalid IPv6 URL" in page
    assert client_for("ann").get("/moderation/").status_code == 403


def test_reminders_are_made_for_every_game_but_the_one_whose_state_cannot_be_read(client_for):
    now = timezone.now()
    made = [running_game(now=now - timedelta(hours=40)) for _ in range(3)]  # deadlines in 8 hours
    Game.objects.filter(pk=made[1].pk).update(state='{"broken": true}')
    queue_reminders_task()
    queue_reminders_task()  # the next run stops on it no more than the first
    reminded = set(Notification.objects.filter(kind=Notification.Kind.REMINDER).values_list("game_id", flat=True))
    assert reminded == {made[0].pk, made[2].pk}
    run = SweepRun.objects.get(task="reminders")
    assert run.failed == 1 and f"the reminders of game {made[1].pk}: UnreadableState" in run.errors
    page = dashboard(client_for)
    assert "The last run of “Reminders” could not handle 1 item" in page and "UnreadableState" in page
