import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group


@pytest.fixture
def moderator_client(client_for):
    """A signed-in member of the moderators group (created by the moderation app's post_migrate)."""

    def moderator_client(name: str = "mod"):
        client = client_for(name)
        get_user_model().objects.get(username=name).groups.add(Group.objects.get(name="moderators"))
        return client

    return moderator_client
