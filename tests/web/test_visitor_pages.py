"""A visitor's lobby and thread page carry what players wrote exactly as stored: a post, a quote, a game's name and a
username holding the words a kept page once stood in for a request's own values reach every visitor, from the
fragment cache or not, as the templates render them, and no visitor's CSRF token or address lands in a post."""

import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone
from django.utils.html import escape

from games import fragments
from games.markup import quote
from games.models import Game
from games.services.forum import post_message
from tests.factories import NAMES, running_game

pytestmark = pytest.mark.django_db
# What a kept page once held where this request's CSRF token, address and live tag go, and a like-named word.
WORDS = ["csrf-token-of-this-request", "address-of-this-request", "etag-of-this-request", "live-of-this-request"]
TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


@pytest.fixture
def written():
    """A running game named with every word, its first players renamed to them, a post with a link holding each
    and a quote of that post; the stored post bodies' HTML."""
    game = running_game(now=timezone.now())
    Game.objects.filter(pk=game.pk).update(name=" ".join(WORDS))
    users = get_user_model().objects
    for old, new in zip(NAMES, WORDS, strict=False):
        users.filter(username=old).update(username=new)
    said = " ".join(f"[{word}](https://evil.example/steal?t={word})" for word in WORDS)
    first = post_message(game.pk, users.get(username=WORDS[0]), f"Look here: {said}")
    quoted = quote(first.body, author=WORDS[0], link=f"/games/{game.pk}/#post-{first.pk}")
    second = post_message(game.pk, users.get(username=WORDS[1]), f"{quoted}{WORDS[2]}", quote_of=first.pk)
    game.refresh_from_db()
    return game, [first.html, second.html]


def kept_and_rendered(url: str) -> tuple[str, str, str]:
    """A visitor's page made and kept, then from the cache, then rendered by the template with nothing kept."""
    visitor = Client()
    made, kept = (visitor.get(url).content.decode() for _ in range(2))
    with fragments.bypassed():
        return made, kept, visitor.get(url).content.decode()


def without_token(page: str) -> str:
    return TOKEN.sub("TOKEN", page)


def test_a_visitors_kept_thread_page_is_what_the_template_renders_of_what_players_wrote(written):
    game, htmls = written
    made, kept, rendered = kept_and_rendered(f"/games/{game.pk}/")
    assert without_token(made) == without_token(kept) == without_token(rendered)
    for page in (made, kept):
        assert all(html in page for html in htmls)
        assert f"<h1>{escape(game.name)}" in page and f"<title>{escape(game.name)}</title>" in page
        assert all(f"{word}</" in page for word in WORDS[:2])  # the authors' names


def test_a_visitors_kept_lobby_is_what_the_template_renders_of_a_games_name(written):
    game, _htmls = written
    made, kept, rendered = kept_and_rendered("/")
    assert without_token(made) == without_token(kept) == without_token(rendered)
    assert escape(game.name) in kept


def test_a_visitors_csrf_token_is_in_their_language_form_alone_never_in_a_post(written):
    game, _htmls = written
    visitor = Client()
    for url in ("/", f"/games/{game.pk}/"):
        for page in (visitor.get(url).content.decode() for _ in range(2)):  # made, then from the cache
            tokens = TOKEN.findall(page)
            assert len(tokens) == 1 and page.count(tokens[0]) == 1
