"""Issue 29: posts saved by the former renderer are rendered again, with their history, by the migration."""

import importlib

import pytest
from django.apps import apps
from django.utils import timezone

from games.markup import render
from games.models import Post, PostRevision
from games.services.forum import post_message
from tests.factories import make_user, running_game

pytestmark = pytest.mark.django_db

FORMER_CODE = "<pre><code>&amp;lt;b&gt;\n</code></pre>"  # what Python-Markdown saved for a fence around <b>


def test_the_migration_renders_posts_and_their_history_again_with_mentions():
    migration = importlib.import_module("games.migrations.0018_rerender_posts_commonmark")
    game = running_game(now=timezone.now())
    post = post_message(game.pk, make_user("ann"), "```\n<b>\n```\n@bob ![map](https://example.com/m.png)")
    Post.objects.filter(pk=post.pk).update(html=FORMER_CODE)
    revision = PostRevision.objects.create(
        post=post, body="@cat ~~Ja~~", html="<p>@cat ~~Ja~~</p>", created_at=post.created_at
    )
    migration.rerender(apps, None)
    post.refresh_from_db()
    revision.refresh_from_db()
    assert post.html.startswith("<pre><code>&lt;b&gt;\n</code></pre>\n")
    assert '<a href="/users/bob/"' in post.html and '<a class="image" href="https://example.com/m.png"' in post.html
    assert revision.html == render("@cat ~~Ja~~", mentionable={"cat"})
    assert revision.html.startswith('<p><a href="/users/cat/"') and "<s>Ja</s>" in revision.html
