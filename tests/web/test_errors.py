"""The site's answer to its own faults (sh_site/errors.py): a database outage is a 503 that says nothing was
recorded, in the reader's language; anything else stays a 500. The real outage is in tests/chaos."""

import pytest
from django.contrib.auth.models import Group
from django.test import Client

from games.notify.unsubscribe import unsubscribe, unsubscribe_token
from tests.factories import make_user, with_second_factor
from tests.games.helpers import user


@pytest.fixture
def client(settings):
    settings.ROOT_URLCONF = "tests.web.faulty_urls"
    settings.DEBUG = False
    return Client(raise_request_exception=False)


def test_a_database_outage_is_a_503_saying_nothing_was_recorded(client):
    response = client.get("/boom/")
    assert response.status_code == 503 and response["Retry-After"] == "30"
    assert "may not have been recorded" in response.content.decode()


def test_a_database_outage_in_the_api_is_a_problem_document(client):
    response = client.get("/api/v1/boom")
    assert (response.status_code, response["Content-Type"]) == (503, "application/problem+json")
    assert response.json()["code"] == "unavailable"


def test_a_database_outage_page_is_in_the_readers_language(client):
    response = client.get("/boom/", headers={"accept-language": "fr"})
    assert "Actualisez la page" in response.content.decode()


def test_a_bug_is_still_a_500(client):
    response = client.get("/bug/")
    assert response.status_code == 500 and "Something went wrong" in response.content.decode()


def test_bad_inputs_are_not_errors(client_for, client):
    mod = with_second_factor(client_for("mod"), user("mod"))
    user("mod").groups.add(Group.objects.get(name="moderators"))
    assert mod.post("/moderation/reports/999/resolve/", {"resolution": "x"}).status_code == 404
    gone = make_user("gone")
    token = unsubscribe_token(gone.pk, ["moves"])
    gone.delete()
    unsubscribe(gone.pk if gone.pk else 0, ["moves"])
    assert client.post(f"/unsubscribe/{token}/").status_code == 200
