"""Who may open each moderation page and act: anonymous, a player, a moderator who plays, a moderator."""

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group

from games.models import Post
from games.services import join_game
from moderation.models import AuditEntry
from tests.factories import make_user, running_game

pytestmark = pytest.mark.django_db
PAGES = ["/moderation/", "/moderation/reports/", "/moderation/users/", "/moderation/audit/"]


@pytest.mark.parametrize("url", PAGES)
def test_pages_are_for_moderators_only(client, client_for, moderator_client, url):
    assert client.get(url).status_code == 302  # to the sign-in page
    assert client_for("ann").get(url).status_code == 403
    assert moderator_client().get(url).status_code == 200


def test_a_moderator_who_plays_cannot_moderate_that_game_nor_see_its_secrets(moderator_client):
    game = running_game()
    ann = moderator_client("ann")  # ann plays in the game and is a moderator
    assert ann.get(f"/moderation/games/{game.pk}/").status_code == 403
    response = ann.post(f"/moderation/games/{game.pk}/act/", {"action": "pause", "reason": "x"})
    assert response.status_code == 403
    assert f"/moderation/games/{game.pk}/" not in ann.get("/moderation/").content.decode()
    other = moderator_client("zoe")
    page = other.post(f"/moderation/games/{game.pk}/see/", follow=True).content.decode()
    assert "Secret state" in page and "hitler" in page


def test_a_moderator_signed_up_as_a_substitute_cannot_moderate_either(moderator_client):
    game = running_game()
    zoe = moderator_client("zoe")
    join_game(game.pk, get_user_model().objects.get(username="zoe"), as_substitute=True)
    assert zoe.get(f"/moderation/games/{game.pk}/").status_code == 403


@pytest.mark.parametrize(
    ("url", "data"),
    [
        ("/moderation/games/{game}/act/", {"action": "pause", "reason": "holiday"}),
        ("/moderation/posts/{post}/visibility/", {"hide": "yes", "reason": "abuse"}),
        ("/moderation/users/{user}/ban/", {"days": 3, "reason": "abuse"}),
    ],
)
def test_actions_are_refused_to_players(client_for, url, data):
    game = running_game()
    post = Post.objects.create(game=game, author=make_user("ann"), body="x", html="x", created_at=game.created_at)
    target = make_user("bob")
    response = client_for("cat").post(url.format(game=game.pk, post=post.pk, user=target.pk), data)
    assert response.status_code == 403
    assert not AuditEntry.objects.exists()


def test_the_moderators_group_has_the_permission():
    group = Group.objects.get(name="moderators")
    assert group.permissions.filter(codename="moderate").exists()
