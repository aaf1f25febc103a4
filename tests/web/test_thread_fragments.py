"""Issue 30, correctness first: a thread page made of posts from the fragment cache is byte for byte the page
rendered without the cache, for the game thread, the graveyard and a player's page with the panel, in every
language and three time zones, as posts are edited, hidden and unhidden, quoted, and their authors renamed or
deleted; and a fragment whose key misses a value it shows is caught (FRAGMENT_CHECK), not served."""

import re

import pytest
import time_machine
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.test import Client, override_settings
from django.utils import timezone

from games import fragments, live
from games.models import Post, Profile
from games.services.forum import edit_post, post_message
from moderation.services import set_post_hidden
from tests.factories import make_user, running_game

pytestmark = pytest.mark.django_db

# Each language once and each zone at least once (the whole product costs three times as long and finds no more:
# language and zone are both in every key, and a post's times are all that a zone changes).
READERS = [("en", "UTC"), ("fr", "America/Los_Angeles"), ("es", "Asia/Kolkata"), ("pl", "America/Los_Angeles")]
NO_FRAGMENTS = {**settings.CACHES, fragments.ALIAS: {"BACKEND": "django.core.cache.backends.dummy.DummyCache"}}
TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="[^"]+"')  # a new one in every answer
ETAG = re.compile(r'data-etag="[^"]+"')


def reader(client_for, name: str, language: str, zone: str) -> Client:
    client = client_for(name)
    user = get_user_model().objects.get(username=name)
    Profile.objects.update_or_create(user=user, defaults={"language": language, "time_zone": zone})
    return client


def page(client: Client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200
    return TOKEN.sub("", response.content.decode())


@pytest.fixture
def found(monkeypatch) -> list[int]:
    """How many fragments each page found in the cache."""
    counts = []
    ask = fragments._get_many

    def counted(keys):
        found = ask(keys)
        counts.append(len(found))
        return found

    monkeypatch.setattr(fragments, "_get_many", counted)
    return counts


@pytest.mark.parametrize(("language", "zone"), READERS)
@time_machine.travel("2026-03-02 10:00:00+00:00", tick=False)
def test_thread_pages_from_the_cache_are_the_pages_rendered_without_it(client_for, found, language, zone):
    """The clock is held: a page says how long is left before the deadline, and a render a second later may say
    it otherwise ("2 days", then "1 day, 23 hours") whatever is cached."""
    game = running_game(now=timezone.now())
    ann, bob, ghost = make_user("ann"), make_user("bob"), make_user("ghost")
    moderator = make_user("mod")
    moderator.groups.add(Group.objects.get(name="moderators"))
    first = post_message(game.pk, ann, "I am **liberal**.")
    quoting = post_message(game.pk, bob, "> I am liberal.\n\nSure.", quote_of=first.pk)
    Post.objects.create(game=game, author=ghost, body="boo", html="<p>boo</p>", created_at=timezone.now())
    Post.objects.create(
        game=game, author=ghost, thread=Post.Thread.GRAVEYARD, body="b", html="<p>b</p>", created_at=timezone.now()
    )
    visitor = Client(HTTP_ACCEPT_LANGUAGE=language)
    visitor.cookies["tz"] = zone
    readers = [
        (visitor, f"/games/{game.pk}/"),
        (reader(client_for, "zed", language, zone), f"/games/{game.pk}/graveyard/"),
        (reader(client_for, "ann", language, zone), f"/games/{game.pk}/"),  # a player's page, with the panel
    ]
    changes = [
        lambda: None,
        lambda: edit_post(first.pk, ann, "I am **fascist**."),  # the source of a quote, edited
        lambda: set_post_hidden(moderator, quoting.pk, True, "spam"),
        lambda: set_post_hidden(moderator, quoting.pk, False, "not spam"),
        lambda: Profile.objects.update_or_create(user=ann, defaults={"display_name": "Annie <3"}),
        lambda: ghost.delete(),
    ]
    for step, change in enumerate(changes):
        change()
        for client, url in readers:
            cached = page(client, url)
            with override_settings(CACHES=NO_FRAGMENTS):
                assert page(client, url) == cached, f"step {step}, {url}"
    assert "Annie &lt;3" in cached and f'lang="{language}"' in cached
    assert sum(found) > 0  # the pages did take fragments from the cache


def test_visitors_share_one_page_body_and_see_every_change(found):
    """A running game's thread is the same for every visitor of a language and zone: one body, kept as one
    fragment, for the next visitor too; a new post, an edit or a renamed author is another."""
    game = running_game(now=timezone.now())
    ann = make_user("ann")
    first = post_message(game.pk, ann, "Hello.")
    url = f"/games/{game.pk}/"
    one, other = Client(), Client()
    assert ETAG.sub("", page(one, url)) == ETAG.sub("", page(other, url))  # each visitor's tag is their own
    assert found[-1] >= 1  # the second visitor took the first one's body from the cache
    for change in (
        lambda: post_message(game.pk, ann, "Again."),
        lambda: edit_post(first.pk, ann, "Hello, edited."),
        lambda: Profile.objects.update_or_create(user=ann, defaults={"display_name": "Annie"}),
    ):
        change()
        cached = ETAG.sub("", page(other, url))
        with override_settings(CACHES=NO_FRAGMENTS):
            assert ETAG.sub("", page(one, url)) == cached
    assert "Annie" in cached and "Hello, edited." in cached and "Again." in cached


def test_a_part_keyed_without_a_value_it_shows_is_caught(monkeypatch):
    """The page's posts show their authors' names, so the part declares the last rename (live.PARTS): declared
    without it, a renamed author would be served the old page, and the check says so."""
    game = running_game(now=timezone.now())
    post_message(game.pk, make_user("ann"), "Hello.")
    undeclared = tuple(name for name in live.PARTS["page"] if name != "live_renamed")
    monkeypatch.setitem(live.PARTS, "page", undeclared)
    assert Client().get(f"/games/{game.pk}/").status_code == 200
    Profile.objects.update_or_create(
        user=get_user_model().objects.get(username="ann"), defaults={"display_name": "Annie"}
    )
    with pytest.raises(fragments.StaleFragment):
        Client().get(f"/games/{game.pk}/")
