"""The last page of a long thread costs the same number of queries as that of a short one."""

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games.models import Post
from tests.factories import NAMES, running_game

pytestmark = pytest.mark.django_db


def last_page_queries(client, posts: int) -> int:
    game = running_game(actions=[{"type": "timeout"}] * 3)
    authors = list(get_user_model().objects.filter(username__in=NAMES[:5]))
    start = timezone.now() - timedelta(days=3)
    Post.objects.bulk_create(
        Post(
            game=game, author=authors[n % 5], body=f"p{n}", html=f"<p>p{n}</p>", created_at=start + timedelta(minutes=n)
        )
        for n in range(posts)
    )
    with CaptureQueriesContext(connection) as queries:
        response = client.get(f"/games/{game.pk}/?page={-(-posts // 25)}")
    assert response.status_code == 200
    assert f"p{posts - 1}</p>" in response.content.decode()
    return len(queries)


def test_last_page_of_a_1000_post_thread_has_constant_queries(client_for):
    client = client_for("zed")  # signed in: the read marker is written too
    client.get("/")  # the header's link remembers the reader's permissions from here on
    assert last_page_queries(client, 1000) == last_page_queries(client, 60) <= 20


def thread_with(*, posts: int, players: int, games: int) -> str:
    """A running game of `players` seats whose thread holds `posts` posts by them and by a deleted account, among
    `games` others, each with posts; the address of its last page."""
    for _ in range(games):
        other = running_game()
        Post.objects.create(game=other, author=None, body="x", html="<p>x</p>", created_at=timezone.now())
    game = running_game(players, actions=[{"type": "timeout"}] * 3)
    authors = [*get_user_model().objects.filter(username__in=NAMES[:players]), None]
    start = timezone.now() - timedelta(days=3)
    Post.objects.bulk_create(
        Post(game=game, author=authors[n % len(authors)], body=f"p{n}", html=f"<p>p{n}</p>",
             created_at=start + timedelta(minutes=n), edited_at=start if n % 7 == 0 else None)
        for n in range(posts)
    )  # fmt: skip
    return f"/games/{game.pk}/?page={-(-posts // 25)}"


def queries(client, url: str) -> int:
    client.get(url)  # the first visit makes the read marker
    with CaptureQueriesContext(connection) as captured:
        assert client.get(url).status_code == 200
    return len(captured)


@pytest.mark.parametrize("reader", ["visitor", "zed", "ann"])  # ann: a seated player's page, with the panel
def test_a_thread_page_costs_the_same_with_more_posts_players_and_games(client_for, reader):
    client = Client() if reader == "visitor" else client_for(reader)
    client.get("/")  # the header's link remembers the reader's permissions from here on
    small = queries(client, thread_with(posts=30, players=5, games=1))
    assert queries(client, thread_with(posts=600, players=7, games=6)) == small
