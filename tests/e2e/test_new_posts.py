"""What is new, in Chromium (issue 29): a page left open counts the posts that came since its reader last looked in
its tab's title, "(2) Game name", until they are on screen; a "New posts" line stands above the first post a
signed-in reader had not read (the server's read marker), on the open page and when they come back."""

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone
from playwright.sync_api import expect

from games.models import Post
from games.services.forum import post_message
from tests.e2e.pages import DESKTOP, PHONE, signed_in
from tests.factories import running_game

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

NEW_POSTS = {"en": "New posts", "fr": "Nouveaux messages", "pl": "Nowe posty"}
TITLE = "Imported game (5 players)"


def user(name: str):
    return get_user_model().objects.get(username=name)


def long_thread():
    """A running game whose thread is taller than any screen: twelve posts by cat, two hours ago."""
    game = running_game(now=timezone.now())
    start, cat = timezone.now() - timedelta(hours=2), user("cat")
    Post.objects.bulk_create(
        Post(game=game, author=cat, body=f"old {n}", html=f"<p>old {n}</p>", created_at=start + timedelta(minutes=n))
        for n in range(12)
    )
    return game


@pytest.mark.parametrize(
    ("language", "viewport"), [("en", DESKTOP), ("fr", PHONE)], ids=["english-desktop", "french-phone"]
)
def test_the_tab_counts_new_posts_until_the_reader_sees_them(browser, live_server, settings, language, viewport):
    settings.LIVE_POLL_SECONDS = 1
    game = long_thread()
    bob = signed_in(browser, live_server.url, "bob", language=language, viewport=viewport)
    bob.goto(f"/games/{game.pk}/")
    expect(bob).to_have_title(TITLE)
    expect(bob.locator(".new-posts")).to_have_count(0)  # his first visit: everything is new, no line
    post_message(game.pk, user("bob"), "My own post, from my phone.")  # his own: not news to him
    post_message(game.pk, user("cat"), "First news.")
    post_message(game.pk, user("dan"), "Second news.")
    expect(bob.locator("article.post .body").last).to_have_text("Second news.")  # swapped in, off screen
    expect(bob).to_have_title(f"(2) {TITLE}")
    line = bob.locator("#entries .new-posts")
    expect(line).to_have_text(NEW_POSTS[language])
    expect(bob.locator("#entries .new-posts + article.post .body")).to_have_text("First news.")
    bob.locator("#end").scroll_into_view_if_needed()  # he scrolls down to them
    expect(bob).to_have_title(TITLE)
    post_message(game.pk, user("cat"), "Third news, while he looks.")
    expect(bob.locator("article.post .body").last).to_have_text("Third news, while he looks.")
    bob.wait_for_timeout(300)
    expect(bob).to_have_title(TITLE)  # it came on screen: seen at once
    bob.context.close()


@pytest.mark.parametrize(
    ("language", "viewport"), [("en", PHONE), ("pl", DESKTOP)], ids=["english-phone", "polish-desktop"]
)
def test_a_returning_reader_finds_the_line_above_what_they_had_not_read(browser, live_server, language, viewport):
    game = running_game(now=timezone.now())
    post_message(game.pk, user("cat"), "Read before.")
    ann = signed_in(browser, live_server.url, "ann", language=language, viewport=viewport)
    ann.goto(f"/games/{game.pk}/")
    ann.goto("/")  # she leaves; meanwhile dan posts, and ann posts from elsewhere after him
    post_message(game.pk, user("ann"), "Mine, by email.")
    post_message(game.pk, user("dan"), "Unread by ann.")
    ann.goto(f"/games/{game.pk}/")
    expect(ann.locator(".new-posts")).to_have_count(1)
    expect(ann.locator(".new-posts")).to_have_text(NEW_POSTS[language])
    expect(ann.locator("#entries .new-posts + article.post .body")).to_have_text("Unread by ann.")
    expect(ann.locator("#entries .new-posts ~ article.post .body")).to_have_count(1)  # above the unread alone
    ann.reload()  # read now: the line is gone
    expect(ann.locator(".new-posts")).to_have_count(0)
    ann.context.close()
