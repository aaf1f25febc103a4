"""Issue 30: a visitor's header links are kept as a fragment (games/views/header.py), with this request's CSRF
token put in: the same bytes as the template renders them, in every language and at every address, and their
language form still works with CSRF checks on; a signed-in reader's links are their own."""

import re

import pytest
from django.template.loader import render_to_string
from django.test import Client, RequestFactory
from django.utils import translation

from tests.factories import make_user

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
