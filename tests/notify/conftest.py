import email
from email import policy

import pytest
from aiosmtpd.controller import Controller
from allauth.account.models import EmailAddress

from tests.factories import make_user
from tests.services import free_port

REPLY = "reply+{token}@reply.example.org"


def one_character_changed(address: str) -> str:
    """A reply address whose token has one character of its signature changed (a character inside the token,
    so that all five of its bits are read, none of them padding)."""
    local, domain = address.split("@")
    changed = "b" if local[-5] == "a" else "a"
    return f"{local[:-5]}{changed}{local[-4:]}@{domain}"


@pytest.fixture
def reply_players(db, settings):
    """Replies by email on (REPLY_ADDRESS), and the five players ann to eve with verified addresses."""
    settings.REPLY_ADDRESS = REPLY
    for name in ("ann", "bob", "cat", "dan", "eve"):
        person = make_user(name)
        EmailAddress.objects.get_or_create(user=person, email=person.email, verified=True, primary=True)


class Inbox:
    def __init__(self) -> None:
        self.messages = []

    async def handle_DATA(self, server, session, envelope):
        self.messages.append((envelope.rcpt_tos, email.message_from_bytes(envelope.content, policy=policy.default)))
        return "250 OK"


@pytest.fixture
def smtp_server(settings):
    inbox = Inbox()
    controller = Controller(inbox, hostname="127.0.0.1", port=free_port())
    controller.start()
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", controller.port
    settings.EMAIL_USE_TLS = settings.EMAIL_USE_SSL = False
    yield inbox
    controller.stop()
