"""Issue 30: what a visitor is shown alike is kept (games/views/header.py), with this request's own values put in:
the header's links, the same bytes as the template renders them in every language and at every address, their
language form working with CSRF checks on; the whole lobby, and a thread's page with its live tag, each visitor's
own; a visitor with a message waiting sees it; a signed-in reader's links are their own."""

import re

import pytest
from django.template.loader import render_to_string
from django.test import Client, RequestFactory
from django.utils import translation

from games import fragments
from tests.factories import make_user, running_game

pytestmark = pytest.mark.django_db
TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="[^"]+"')


def nav(html: str) -> str:
    """What the header's list of links holds, the CSRF token aside."""
    start = html.index(">", html.index("<nav")) + 1
    return TOKEN.sub("TOKEN", html[start : html.index("</nav>")])


@pytest.mark.parametrize("language", ["en", "fr", "es", "pl"])
@pytest.mark.parametrize("path", ["/", "/?page=2&x=%3Cb%3E", "/accounts/login/"])
def test_a_visitors_links_from_the_cache_are_the_templates(client, language, path):
    for _ in range(2):  # made, then from the cache
        page = client.get(path, HTTP_ACCEPT_LANGUAGE=language).content.decode()
    request = RequestFactory().get(path)
    request.user = type("Visitor", (), {"is_authenticated": False})()
    with translation.override(language):
        made = render_to_string("_site_links.html", {"request": request, "LANGUAGE_CODE": language}, request)
    assert nav(page) == TOKEN.sub("TOKEN", made)


def test_the_kept_links_carry_a_token_that_this_visitor_can_post_with():
    client = Client(enforce_csrf_checks=True)
    client.get("/")
    page = client.get("/").content.decode()  # from the cache
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
    response = client.post("/language/", {"csrfmiddlewaretoken": token, "language": "fr", "next": "/"})
    assert response.status_code == 302
    assert 'lang="fr"' in client.get("/").content.decode()


def test_a_signed_in_readers_links_are_their_own(client_for):
    make_user("zed")
    page = client_for("zed").get("/").content.decode()
    assert "(zed)" in nav(page) and "/accounts/login/" not in nav(page)


def test_a_visitors_lobby_is_kept_whole_and_each_visitor_gets_a_token_of_their_own():
    first, second = Client(enforce_csrf_checks=True), Client(enforce_csrf_checks=True)
    pages = [client.get("/").content.decode() for client in (first, second, first)]
    tokens = [re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1) for page in pages]
    assert TOKEN.sub("TOKEN", pages[0]) == TOKEN.sub("TOKEN", pages[1]) == TOKEN.sub("TOKEN", pages[2])
    assert "csrf-token-of-this-request" not in "".join(pages)
    for client, token in ((first, tokens[2]), (second, tokens[1])):
        assert client.post("/language/", {"csrfmiddlewaretoken": token, "language": "es"}).status_code == 302


def test_a_visitor_with_a_message_waiting_sees_it_on_the_lobby_and_nobody_else_does(client_for):
    make_user("zed")
    leaving = client_for("zed")
    leaving.get("/")
    leaving.post("/accounts/logout/")  # "You have signed out." waits for the next page
    shown = leaving.get("/").content.decode()
    assert 'class="messages"' in shown
    assert 'class="messages"' not in Client().get("/").content.decode()
    assert 'class="messages"' not in leaving.get("/").content.decode()  # shown once


def test_a_visitors_thread_page_is_kept_whole_with_each_visitors_own_live_tag():
    game = running_game(5)
    first, second = Client(), Client()
    tags = []
    for client in (first, second, first):
        page = client.get(f"/games/{game.pk}/").content.decode()
        tags.append(re.search(r'data-etag="([^"]*)"', page).group(1).replace("&quot;", '"'))
    assert tags[0] == tags[2] != tags[1] and "etag-of-this-request" not in "".join(tags)
    asked = first.get(f"/games/{game.pk}/", HTTP_IF_NONE_MATCH=tags[0], HTTP_X_LIVE="1")
    assert asked.status_code == 304  # the page's own tag: nothing changed


def test_an_address_a_visitor_makes_up_adds_nothing_to_the_cache_and_is_put_back_escaped(client, monkeypatch):
    keys = []
    render = fragments.render_many

    def recorded(kind, items):
        keys.append((kind, tuple(repr(parts) for parts, _make in items)))
        return render(kind, items)

    monkeypatch.setattr(fragments, "render_many", recorded)
    pages = [client.get(f"/?x={n}%22%3E").content.decode() for n in range(3)]
    assert len(set(keys)) == len(keys) // 3  # the same keys at every address
    for n, page in enumerate(pages):
        assert f'name="next" type="hidden" value="/?x={n}%22%3E"' in page and "address-of-this-request" not in page
