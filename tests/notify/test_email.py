"""The outbox: one email per person per sweep, in their language and zone, never stale, never twice."""

import smtplib
from datetime import timedelta

import pytest
from django.core import mail

from games.models import Notification, Profile, SentEmail
from games.notify.bell import queue_reminders
from games.notify.email import send_due_emails
from games.services import extend, make_move
from tests.factories import START, make_user, running_game
from tests.games.helpers import reload, user

pytestmark = pytest.mark.django_db
HOUR = timedelta(hours=1)


def test_your_move_email_says_what_is_owed_by_when_with_a_link():
    game = running_game()
    assert send_due_emails(now=START) == 1
    message = mail.outbox[0]
    assert message.to == ["ann@example.com"] or message.to == [user("ann").email]
    assert (
        message.subject
        == "Your move in Imported game (5 players): nominate a chancellor, by Wed 4 Mar 2026, 12:00 UTC."
    )
    assert f"http://127.0.0.1:8000/games/{game.pk}/#panel" in message.body
    assert message.alternatives[0].mimetype == "text/html"
    assert message.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert message.extra_headers["List-Unsubscribe"].startswith("<http://127.0.0.1:8000/unsubscribe/")
    record = SentEmail.objects.get()
    assert (record.to, record.kinds, record.notifications) == (message.to[0], "your_move", 1)


@pytest.fixture(autouse=True)
def emails_for_everyone(db):
    for name in ("ann", "bob", "cat", "dan", "eve"):
        make_user(name)


def test_your_move_notices_come_one_email_per_game_and_step():
    running_game()
    running_game()
    assert send_due_emails(now=START) == 2
    assert [m.subject.startswith("Your move in Imported game") for m in mail.outbox] == [True, True]


def test_everything_else_comes_in_one_digest_that_says_how_to_answer():
    game, bob = running_game(), user("bob")  # bob owes nothing yet: the digest is all he gets
    for number in (1, 2):
        Notification.objects.create(
            user=bob, game=game, kind="mention", data={"post": number, "by": "cat"}, key=f"m{number}",
            created_at=START, email=Notification.Email.PENDING, email_due_at=START,
        )  # fmt: skip
    send_due_emails(now=START)
    digest = next(m for m in mail.outbox if m.to == [bob.email])
    assert digest.subject == "2 updates in your games"
    assert "To answer, open the game on the site" in digest.body
    assert "Reply-To" not in digest.extra_headers


def test_in_the_readers_language_and_time_zone():
    profile = Profile.of(user("ann"))
    profile.language, profile.time_zone = "fr", "Europe/Paris"
    profile.save()
    running_game()
    send_due_emails(now=START)
    assert "13:00 CET (UTC+01:00)" in mail.outbox[0].subject
    assert "Bonjour" in mail.outbox[0].body or "ann" in mail.outbox[0].body


def test_nothing_is_sent_twice():
    running_game()
    assert send_due_emails(now=START) == 1
    assert send_due_emails(now=START) == 0
    assert len(mail.outbox) == 1


def test_a_move_made_before_the_email_went_out_is_not_announced():
    game = running_game()
    make_move(game.pk, user("ann"), {"type": "nominate", "target": "bob"}, 1, now=START)
    send_due_emails(now=START)
    assert user("ann").email not in [m.to[0] for m in mail.outbox if "nominate" in m.subject]
    assert Notification.objects.get(user__username="ann", data__step="nominate").email == Notification.Email.SKIPPED


def test_reminders_24_and_3_hours_before_at_most_once_each():
    game = running_game()
    send_due_emails(now=START)
    assert queue_reminders(now=START + 23 * HOUR) == 0
    assert queue_reminders(now=START + 24 * HOUR) == 1
    assert queue_reminders(now=START + 25 * HOUR) == 1  # the same one: not made twice
    assert send_due_emails(now=START + 25 * HOUR) == 1
    assert "Reminder" in mail.outbox[-1].subject
    queue_reminders(now=START + 45 * HOUR)
    assert send_due_emails(now=START + 45 * HOUR) == 1
    assert Notification.objects.filter(kind="reminder", game=game).count() == 2


def test_reminders_follow_the_preference():
    Profile.objects.filter(pk=Profile.of(user("ann")).pk).update(reminders="3")
    running_game()
    assert queue_reminders(now=START + 30 * HOUR) == 0
    assert queue_reminders(now=START + 46 * HOUR) == 1
    Profile.objects.filter(user__username="ann").update(reminders="none")
    assert queue_reminders(now=START + 47 * HOUR) == 0  # the one made stays; no new one is made
    assert Notification.objects.filter(kind="reminder").count() == 1


def test_reminders_are_rearmed_when_the_deadline_moves():
    game = running_game()
    queue_reminders(now=START + 46 * HOUR)  # "3 hours left"
    extend(game.pk, make_user("mod"), hours=24, now=START + 46 * HOUR)
    send_due_emails(now=START + 46 * HOUR)
    assert not [m for m in mail.outbox if "Reminder" in m.subject]  # stale: not sent after the extension
    queue_reminders(now=START + 70 * HOUR)
    send_due_emails(now=START + 70 * HOUR)
    assert "Thu 5 Mar 2026, 12:00 UTC" in next(m for m in mail.outbox if "Reminder" in m.subject).subject


class FlakyBackend:
    """An SMTP backend that fails the first time it is used."""

    failures = 1

    def __init__(self, *args, **kwargs):
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def open(self):
        pass

    def close(self):
        pass

    def send_messages(self, messages):
        if FlakyBackend.failures:
            FlakyBackend.failures -= 1
            raise smtplib.SMTPDataError(451, b"4.3.0 try later")  # this email, not the server
        mail.outbox.extend(messages)
        return len(messages)


def test_a_temporary_smtp_failure_is_retried_later(settings):
    settings.EMAIL_BACKEND = "tests.notify.test_email.FlakyBackend"
    running_game()
    assert send_due_emails(now=START) == 0
    notice = Notification.objects.get()
    assert (notice.email, notice.attempts) == (Notification.Email.PENDING, 1)
    assert send_due_emails(now=START) == 0  # not due again yet
    assert send_due_emails(now=START + HOUR) == 1
    assert reload(running_game()).pk  # the outbox keeps working


class VanishingBackend(FlakyBackend):
    """A mail server that takes the first email, then goes away mid-way (a restart, a dropped connection) and
    takes no new connection."""

    def open(self):
        if mail.outbox:
            raise ConnectionRefusedError(111, "Connection refused")

    def send_messages(self, messages):
        if mail.outbox:
            raise smtplib.SMTPServerDisconnected("Connection unexpectedly closed")
        return super().send_messages(messages)


def test_a_mail_server_gone_mid_way_costs_the_emails_no_try(settings):
    settings.EMAIL_BACKEND = "tests.notify.test_email.VanishingBackend"
    FlakyBackend.failures = 0
    running_game()
    running_game()  # ann owes a nomination in two games: two emails
    assert send_due_emails(now=START) == 1
    waiting = Notification.objects.get(email=Notification.Email.PENDING)
    assert (waiting.attempts, waiting.email_due_at, waiting.claimed_at) == (0, START, None)  # as it was
    assert Notification.objects.filter(email=Notification.Email.SENT).count() == 1


class PickyBackend(FlakyBackend):
    """A mail server that drops the connection on one email (too big for it, say) and takes the rest."""

    def send_messages(self, messages):
        if any("bob" in to for message in messages for to in message.to):
            raise smtplib.SMTPServerDisconnected("Connection unexpectedly closed")
        return super().send_messages(messages)


def test_an_email_the_server_always_drops_uses_its_tries_and_holds_up_no_one(settings):
    settings.EMAIL_BACKEND = "tests.notify.test_email.PickyBackend"
    FlakyBackend.failures = 0
    for name in ("ann", "bob", "cat", "dan", "eve"):
        make_user(name)
    running_game(actions=[{"type": "nominate", "by": "ann", "target": "bob"}])  # everyone owes a ballot
    assert send_due_emails(now=START) == 4  # all but bob's, in the same run
    dropped = Notification.objects.get(user__username="bob", email=Notification.Email.PENDING)
    assert dropped.attempts == 1 and dropped.email_due_at > START  # counted, and later
