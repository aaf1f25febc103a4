"""Issue 19 (part): the mail server away, and an address refused for good (a 5xx), with a real SMTP server."""

import email
from email import policy

import pytest
from aiosmtpd.controller import Controller
from django.utils import timezone

from games.models import Notification, Profile, SentEmail
from games.notify.email import send_due_emails
from tests.factories import START, make_user, running_game
from tests.services import free_port

pytestmark = pytest.mark.django_db


class Inbox:
    """An SMTP server's handler that refuses one address for good (550) and takes the rest."""

    def __init__(self, refused: str = "") -> None:
        self.refused, self.messages = refused, []

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if address == self.refused:
            return "550 5.1.1 No such mailbox here"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        self.messages.append((envelope.rcpt_tos, email.message_from_bytes(envelope.content, policy=policy.default)))
        return "250 OK"


def smtp(settings, inbox: Inbox, port: int) -> Controller:
    controller = Controller(inbox, hostname="127.0.0.1", port=port)
    controller.start()
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", port
    settings.EMAIL_USE_TLS = settings.EMAIL_USE_SSL = False
    return controller


def test_an_address_refused_for_good_is_not_retried_and_is_marked(settings, client_for):
    for name in ("ann", "bob", "cat", "dan", "eve"):
        make_user(name)
    inbox = Inbox(refused="ann@example.com")
    controller = smtp(settings, inbox, free_port())
    try:
        running_game()  # ann owes the nomination: her "your move" email is refused
        assert send_due_emails(now=START) == 0
        notice = Notification.objects.get(user__username="ann", kind="your_move")
        assert (notice.email, notice.attempts) == (Notification.Email.FAILED, 1)  # not retried
        profile = Profile.objects.get(user__username="ann")
        assert profile.email_refused == "ann@example.com" and profile.email_refused_reason.startswith("550")
        running_game()  # another game, another "your move": not even tried
        send_due_emails(now=START)
        assert Notification.objects.filter(user__username="ann", email=Notification.Email.SKIPPED).count() == 1
        assert inbox.messages == [] and not SentEmail.objects.exists()
    finally:
        controller.stop()
    page = client_for("ann").get("/profile/").content.decode()
    assert "refuses our emails for good" in page


def test_emails_wait_while_the_mail_server_is_away_and_go_once_when_it_is_back(settings):
    for name in ("ann", "bob", "cat", "dan", "eve"):
        make_user(name)
    port = free_port()
    inbox = Inbox()
    controller = smtp(settings, inbox, port)
    controller.stop()  # away
    running_game(now=timezone.now())
    assert send_due_emails() == 0
    notice = Notification.objects.get(user__username="ann", kind="your_move")
    assert (notice.email, notice.attempts) == (Notification.Email.PENDING, 0)  # waiting, no try used up
    controller = smtp(settings, inbox, port)  # back
    try:
        assert send_due_emails(now=notice.email_due_at) == 1
        assert send_due_emails(now=notice.email_due_at) == 0  # once
        assert [recipients for recipients, _message in inbox.messages] == [["ann@example.com"]]
    finally:
        controller.stop()
