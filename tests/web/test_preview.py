"""A Markdown preview before posting or saving an edit: the text rendered as the post would show it, kept in the
form, and nothing posted, notified or saved."""

import pytest
from django.utils import timezone

from games.models import Notification, Post
from games.services.forum import post_message
from tests.factories import make_user, running_game

pytestmark = pytest.mark.django_db


def test_a_preview_shows_the_post_and_posts_nothing(client_for):
    game = running_game(now=timezone.now())
    body = "**Ja** for @bob.\n\n> a quote"
    data = {"body": body, "thread": "main", "preview": "1"}
    page = client_for("ann").post(f"/games/{game.pk}/post/", data).content.decode()
    shown = page.split('class="entry post preview"')[1].split("</div>\n</div>")[0]
    assert "<strong>Ja</strong>" in shown and 'href="/users/bob/"' in shown and "<blockquote>" in shown
    assert "**Ja** for @bob." in page.split("<textarea")[1]  # the text stays in the form
    assert not Post.objects.exists()
    assert not Notification.objects.filter(kind=Notification.Kind.MENTION).exists()  # bob is not told


def test_a_preview_never_renders_what_a_post_would_not(client_for):
    game = running_game(now=timezone.now())
    body = "<script>alert(1)</script> [x](javascript:alert(1))"
    page = client_for("ann").post(f"/games/{game.pk}/post/", {"body": body, "thread": "main", "preview": "1"})
    shown = page.content.decode().split('class="entry post preview"')[1].split('class="body">')[1].split("</div>")[0]
    # both are shown as the text they are, as the post would show them: neither a script nor a link
    assert shown == "<p>&lt;script&gt;alert(1)&lt;/script&gt; [x](javascript:alert(1))</p>"


def test_an_edit_can_be_previewed_before_it_is_saved(client_for):
    game = running_game(now=timezone.now())
    post = post_message(game.pk, make_user("ann"), "first words")
    page = (
        client_for("ann")
        .post(f"/games/{game.pk}/posts/{post.pk}/edit/", {"body": "*second* words", "thread": "main", "preview": "1"})
        .content.decode()
    )
    assert "<em>second</em> words" in page
    post.refresh_from_db()
    assert post.body == "first words" and not post.revisions.exists()
