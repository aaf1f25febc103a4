import pytest
from allauth.account.models import EmailAddress

from tests.factories import make_user

REPLY = "reply+{token}@reply.example.org"


@pytest.fixture
def reply_players(db, settings):
    """Replies by email on (REPLY_ADDRESS), and the five players ann to eve with verified addresses."""
    settings.REPLY_ADDRESS = REPLY
    for name in ("ann", "bob", "cat", "dan", "eve"):
        person = make_user(name)
        EmailAddress.objects.get_or_create(user=person, email=person.email, verified=True, primary=True)
