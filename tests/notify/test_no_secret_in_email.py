"""No secret in any email: two games with the same public moves but other roles, hands, discards and peeks
send every player exactly the same emails, with every kind of notice switched on."""

import re
from datetime import timedelta

import pytest
from django.core import mail

from games.models import Profile
from games.notify.email import send_due_emails
from games.services.transfer import import_script
from tests.factories import ACTIONS, DECK_A, DECK_B, PLAYERS, ROLES_A, ROLES_B, START, make_user

pytestmark = pytest.mark.django_db


def normalise(text: str, game_id: int) -> str:
    text = text.replace(f"/games/{game_id}/", "/games/ID/")
    return re.sub(r"/unsubscribe/[^/]+/", "/unsubscribe/TOKEN/", text)  # signed with the time


def emails_of(roles: dict, deck: list) -> dict[str, list[tuple[str, str]]]:
    mail.outbox.clear()
    script = {"players": PLAYERS, "roles": roles, "deck": deck, "first_president": "ann", "actions": ACTIONS}
    game = import_script(script, now=START, name="The same game")
    send_due_emails(now=START + timedelta(days=2))
    by_person = {}
    for message in mail.outbox:
        body, html = (normalise(text, game.pk) for text in (message.body, message.alternatives[0].content))
        by_person.setdefault(message.to[0], []).append((message.subject, body, html))
    return by_person


@pytest.mark.parametrize("reply_address", ["", "reply+{token}@reply.example.org"])
def test_every_email_is_the_same_whatever_the_secrets(settings, reply_address):
    settings.REPLY_ADDRESS = reply_address  # with it, step emails list the commands their reader may reply with
    for name in PLAYERS:
        profile = Profile.of(make_user(name))
        profile.digest_events = True
        profile.save()
    a = emails_of(ROLES_A, DECK_A)
    b = emails_of(ROLES_B, DECK_B)
    assert set(a) == {f"{name}@example.com" for name in PLAYERS}
    assert a == b
    text = "\n".join(body for messages in a.values() for _, body, _ in messages)
    assert "executes ann" in text and "peeks at the next three" in text
    assert ("    nominate " in text) == bool(reply_address)
