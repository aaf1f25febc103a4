"""Through a real SMTP server (aiosmtpd on loopback), and with two senders at once on PostgreSQL."""

import threading

import pytest
from django.core import mail
from django.db import connection

from games.models import Notification, SentEmail
from games.notify.email import send_due_emails
from tests.factories import START, make_user, running_game

pytestmark = pytest.mark.django_db


def test_emails_go_through_a_real_smtp_server(smtp_server):
    for name in ("ann", "bob", "cat", "dan", "eve"):
        make_user(name)
    running_game()
    assert send_due_emails(now=START) == 1
    recipients, message = smtp_server.messages[0]
    assert recipients == ["ann@example.com"]
    assert message["Subject"].startswith("Your move in Imported game")
    assert message["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert message.get_content_type() == "multipart/alternative"
    html = message.get_body(("html",)).get_content()
    assert "nominate a chancellor" in html
    assert SentEmail.objects.get().to == "ann@example.com"


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_senders_at_once_send_each_email_once():
    names = [f"p{i}" for i in range(30)]
    users = [make_user(name) for name in names]
    now = START
    Notification.objects.bulk_create(
        Notification(
            user=user,
            kind="mention",
            data={"post": 1, "by": "x"},
            key=f"k{user.pk}",
            created_at=now,
            email=Notification.Email.PENDING,
            email_due_at=now,
        )
        for user in users
    )
    results = []
    barrier = threading.Barrier(2)

    def sender():
        barrier.wait()
        try:
            results.append(send_due_emails(now=now, batch_size=4))
        finally:
            connection.close()

    threads = [threading.Thread(target=sender) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert sum(results) == 30
    assert sorted(m.to[0] for m in mail.outbox) == sorted(f"{name}@example.com" for name in names)
    assert SentEmail.objects.count() == 30
