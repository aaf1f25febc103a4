import pytest
from allauth.account.models import EmailAddress
from django.test import Client

from tests.factories import make_user


@pytest.fixture
def client_for(db):
    """A signed-in client for a user name (created, with a verified email, if needed)."""

    def client_for(name: str) -> Client:
        user = make_user(name)
        EmailAddress.objects.get_or_create(user=user, email=user.email, defaults={"verified": True, "primary": True})
        client = Client()
        client.force_login(user)
        return client

    return client_for
