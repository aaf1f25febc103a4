"""The admin's bulk delete (every row of a changelist selected, the deletion confirmed) of more rows than a statement
takes parameters on PostgreSQL (65,535, bound on the server: sh_site/postgresql)."""

import pytest

from games.models import Post
from tests.factories import START, make_user, running_game, strongly_signed_in

pytestmark = [pytest.mark.postgres, pytest.mark.slow, pytest.mark.django_db]
MANY = 70_000


def test_the_admin_deletes_every_selected_post_of_a_flood(client):
    game = running_game()
    spammer = make_user("spammer")
    posts = Post.objects.bulk_create(
        Post(game=game, author=spammer, body="spam", html="<p>spam</p>", created_at=START) for _ in range(MANY)
    )
    root = make_user("root")
    root.is_staff = root.is_superuser = True
    root.save()
    strongly_signed_in(client, root)
    confirmed = {"action": "delete_selected", "select_across": "1", "index": "0", "_selected_action": posts[0].pk,
                 "post": "yes"}  # fmt: skip
    response = client.post("/admin/games/post/", confirmed)
    assert response.status_code == 302 and response["Location"] == "/admin/games/post/"
    assert not Post.objects.exists()
