import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group

from tests.factories import reauthenticated, with_second_factor


@pytest.fixture
def moderator_client(client_for):
    """A signed-in member of the moderators group (created by the moderation app's post_migrate), with a second factor
    used in this session."""

    def moderator_client(name: str = "mod"):
        client = client_for(name)
        user = get_user_model().objects.get(username=name)
        user.groups.add(Group.objects.get(name="moderators"))
        return reauthenticated(with_second_factor(client, user), user)

    return moderator_client
