"""CSRF on every form, the Content-Security-Policy, deployment checks, and the site's error pages."""

import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest
from django.test import Client

from tests.factories import make_user, running_game

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]


def test_every_post_needs_its_csrf_token():
    game = running_game()
    client = Client(enforce_csrf_checks=True)
    client.force_login(make_user("ann"))
    for url in ("move", "post", "claim", "absence", "resign", "join", "leave"):
        response = client.post(f"/games/{game.pk}/{url}/", {"type": "nominate", "target": "bob", "step_number": 1})
        assert response.status_code == 403, url
    assert client.post("/games/new/", {}).status_code == 403


def test_content_security_policy_allows_only_the_site(client):
    policy = client.get("/")["Content-Security-Policy"]
    assert "script-src 'self'" in policy and "frame-ancestors 'none'" in policy and "unsafe-inline" not in policy


@pytest.mark.slow
def test_check_deploy_is_clean_in_production_settings():
    env = {
        **os.environ,
        "DEBUG": "0",
        "SECRET_KEY": secrets.token_urlsafe(60),
        "ALLOWED_HOSTS": "sh.example.org",
        "SITE_URL": "https://sh.example.org",
        "DATABASE_URL": "sqlite:///unused.sqlite3",
    }
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


@pytest.mark.parametrize("status", [404, 403])
def test_error_pages_in_the_site_style(client, settings, status):
    settings.DEBUG = False
    url = "/games/424242/" if status == 404 else f"/games/{running_game().pk}/graveyard/"
    client.force_login(make_user("ann"))
    response = client.get(url)
    assert response.status_code == status
    text = response.content.decode()
    assert "Back to the lobby" in text and 'href="/static/css/site.css"' in text


def test_the_500_page_renders_without_a_request_context():
    from django.template.loader import render_to_string

    assert "Something went wrong" in render_to_string("500.html")


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("/users/%00/", "not allowed (NUL)"),
        ("/calendar/%00.ics", "not allowed (NUL)"),
        ("/moderation/audit/?q=%00", "not allowed (NUL)"),
        ("/?q=" + "x" * 50_000, "too long"),
        ("/" + "a/" * 1_500, "too long"),
    ],
)
def test_a_malformed_address_gets_a_clear_400_and_changes_nothing(client, url, message):
    response = client.get(url)
    assert response.status_code == 400
    assert message in response.content.decode() and "Nothing was changed." in response.content.decode()


def test_the_400_speaks_the_readers_language():
    response = Client(HTTP_ACCEPT_LANGUAGE="fr").get("/users/%00/")
    assert response.status_code == 400 and "Requête invalide" in response.content.decode()


def test_an_id_too_large_for_the_database_is_a_404(client):
    assert client.get("/games/99999999999999999999/").status_code == 404
    assert client.get("/games/999999999999999999/").status_code == 404


def test_a_403_is_logged_once_without_a_traceback(client_for):
    import logging

    from sh_site.logs import NoTracebackForClientErrors
    from tests.factories import running_game

    root = logging.getLogger()
    console = [h for h in root.handlers if any(isinstance(f, NoTracebackForClientErrors) for f in h.filters)]
    assert len(console) == 1 and logging.getLogger("django").handlers == []  # one way out, through the filter
    records = []

    class Collect(logging.Handler):
        def emit(self, record):
            records.append(record)

    collect = Collect()
    collect.filters = console[0].filters
    root.addHandler(collect)
    try:
        game = running_game()
        assert client_for("ann").get(f"/games/{game.pk}/graveyard/").status_code == 403
    finally:
        root.removeHandler(collect)
    forbidden = [record for record in records if "Forbidden" in record.getMessage()]
    assert len(forbidden) == 1 and forbidden[0].exc_info is None
