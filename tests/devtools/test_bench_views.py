"""The benchmarks' limits (devtools/views.py): a bare page through the site's middleware, the session and the user
loaded and nothing else, 222 bytes; one row written in one transaction, signed in."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from devtools.views import BARE_PAGE
from tests.factories import make_user, running_game

pytestmark = [pytest.mark.django_db, pytest.mark.urls("devtools.urls")]


def test_the_bare_page_is_222_bytes_and_reads_nothing_for_an_anonymous_reader(client):
    with CaptureQueriesContext(connection) as captured:
        response = client.get("/bench/bare/")
    assert response.status_code == 200 and response.content == BARE_PAGE and len(BARE_PAGE) == 222
    assert response["X-Reader"] == "anonymous" and not captured


def test_the_bare_page_loads_the_session_and_the_user_of_a_signed_in_reader(client):
    reader = make_user("ann")
    client.force_login(reader)
    with CaptureQueriesContext(connection) as captured:
        response = client.get("/bench/bare/")
    assert response.content == BARE_PAGE and response["X-Reader"] == str(reader.pk)
    tables = " ".join(query["sql"] for query in captured)
    assert "django_session" in tables and "auth_user" in tables


def test_the_write_limit_updates_one_row_signed_in(client):
    game = running_game()
    assert client.post(f"/bench/write/{game.pk}/").status_code == 302  # to the sign-in page
    client.force_login(make_user("ann"))
    client.post(f"/bench/write/{game.pk}/")  # a session's first request lists it among its owner's sessions, once
    with CaptureQueriesContext(connection) as captured:
        assert client.post(f"/bench/write/{game.pk}/").status_code == 204
    writes = [query["sql"] for query in captured if query["sql"].startswith("UPDATE")]
    assert len(writes) == 1 and 'UPDATE "games_game"' in writes[0]
