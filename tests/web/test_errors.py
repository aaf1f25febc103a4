"""The site's answer to its own faults (sh_site/errors.py): a database outage is a 503 that says nothing was
recorded, in the reader's language; anything else stays a 500. The real outage is in tests/chaos."""

import pytest
from django.test import Client


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
