"""Issue 27: every free-text input is bounded before it reaches a query, on SQLite (`make run`) as on PostgreSQL.

SQLite refuses a LIKE pattern longer than 50,000 bytes: a 60,000-character login made the sign-in form's
case-insensitive user lookup fail with a 500. Every form of the site and of django-allauth, every query string and
every string field of the API is sent a value longer than that, in ASCII and in 3-byte characters: a form error
or a 4xx, never a 500, nothing changed. Limits count characters, so a field that may reach a LIKE stays under
50,000 bytes even when every character takes UTF-8's 4; a post's body (20,000) is never matched. The file runs
on the suite's database, and again on SQLite in a process of its own when that is PostgreSQL."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from allauth.account import forms as allauth_forms
from django import forms
from django.conf import settings
from django.db import connection
from django.test import Client
from django.urls import get_resolver
from django.utils import timezone
from django.utils.module_loading import import_string

from games.models import ActionRecord, Post
from sh_site.accounts import Bounded
from tests.factories import Api, running_game, token_for
from tests.web.forged import FIELDS, fill, patterns, snapshot

pytestmark = [pytest.mark.slow, pytest.mark.django_db]

LIKE_LIMIT = 50_000  # bytes: SQLite's longest LIKE pattern (SQLITE_MAX_LIKE_PATTERN_LENGTH)
LONG = "x" * 60_000  # past it
WIDE = "€" * 20_001  # past it too in 3-byte characters (60,003 bytes), and past the longest field (a post's body)
ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("value", [LONG, WIDE], ids=["ascii", "3-byte"])
@pytest.mark.parametrize("who", ["stranger", "player", "moderator"])
def test_an_over_long_value_in_every_field_of_every_form_is_refused_without_a_500(world, client_for, who, value):
    client = Client() if who == "stranger" else client_for({"player": "ann"}.get(who, "mod"))
    client.raise_request_exception = False
    before = snapshot()
    failures = []
    for pattern in patterns():
        url = fill(pattern, world["real"])
        for method, data in (("post", dict.fromkeys(FIELDS, value)), ("get", {"q": value, "page": value})):
            response = getattr(client, method)(url, data)
            if response.status_code >= 500 and not (url.startswith("/healthz") and response.status_code == 503):
                failures.append(f"{response.status_code} {method.upper()} {url}")
    assert failures == [], "\n".join(failures)
    assert snapshot() == before


@pytest.mark.parametrize(
    "path, fields",
    [
        ("/accounts/login/", {"login": LONG, "password": "a-long-pass-phrase-9"}),
        ("/accounts/login/", {"login": "ann", "password": LONG}),
        ("/accounts/signup/", {"username": LONG, "email": "new@example.org", "password1": "p-9" * 5,
                               "password2": "p-9" * 5}),
        ("/accounts/signup/", {"username": "newbie", "email": "new@example.org", "password1": LONG,
                               "password2": LONG}),
        ("/accounts/password/reset/", {"email": LONG + "@example.org"}),
    ],
)  # fmt: skip
def test_an_over_long_value_in_an_allauth_form_is_a_form_error(client, path, fields):
    running_game()  # ann and the others exist
    response = client.post(path, fields)
    assert response.status_code == 200
    assert "at most" in response.content.decode()  # Django's "Ensure this value has at most N characters"


def test_every_allauth_form_is_replaced_by_a_bounded_one():
    """allauth's own fields have no length limit (its login and password fields): each of its forms a project
    may replace is replaced (ACCOUNT_FORMS) by one whose every text field has one."""
    replaceable = {
        form
        for name, form in vars(allauth_forms).items()
        if isinstance(form, type)
        and issubclass(form, forms.BaseForm)
        and form.__module__ == allauth_forms.__name__
        and not name.startswith("Base")
        and name not in ("UserForm", "RequestReauthenticationCodeForm")
    }  # fmt: skip (a form with no field of its own, and one allauth does not let a project replace)
    replaced = {import_string(path) for path in settings.ACCOUNT_FORMS.values()}
    assert all(issubclass(form, Bounded) for form in replaced)
    assert replaceable <= {base for form in replaced for base in form.__mro__}


def test_the_sites_own_forms_bound_every_text_field():
    assert get_resolver().url_patterns  # every view imported, with the forms it defines

    def subclasses(cls):
        for sub in cls.__subclasses__():
            yield sub
            yield from subclasses(sub)

    def limit(form, name: str) -> int:
        # A post's body is stored and rendered, never matched with LIKE: its limit is the forum's own, 20,000.
        # Any other field may reach a LIKE, so its limit holds there even when every character takes UTF-8's 4 bytes.
        return Post.MAX_BODY if name == "body" and form.__name__.endswith("PostForm") else LIKE_LIMIT // 4

    unbounded = [
        f"{form.__module__}.{form.__name__}.{name}"
        for form in subclasses(forms.BaseForm)
        if form.__module__.split(".")[0] in ("games", "moderation")
        for name, field in form.base_fields.items()
        if isinstance(field, forms.CharField) and (field.max_length is None or field.max_length > limit(form, name))
    ]
    assert unbounded == []


def test_a_post_of_3_byte_characters_past_the_limit_is_refused_on_the_page(client_for):
    game = running_game(now=timezone.now())
    response = client_for("ann").post(f"/games/{game.pk}/post/", {"body": WIDE, "thread": "main"})
    assert response.status_code in (200, 400) and "at most" in response.content.decode()
    assert not Post.objects.exists()


def request_bodies(schema: dict):
    """Each operation of the API that takes a JSON body: its path, and the body's schema."""
    components = schema["components"]["schemas"]
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            content = operation.get("requestBody", {}).get("content", {}).get("application/json")
            if content:
                yield method, path, components[content["schema"]["$ref"].rsplit("/", 1)[-1]]


def strings(body: dict) -> list[str]:
    def is_string(spec: dict) -> bool:
        return spec.get("type") == "string" or any(s.get("type") == "string" for s in spec.get("anyOf", []))

    return [name for name, spec in body["properties"].items() if is_string(spec)]


@pytest.mark.parametrize("value", [LONG, WIDE], ids=["ascii", "3-byte"])
def test_an_over_long_value_in_every_string_field_of_the_api_is_a_422(value):
    game = running_game(now=timezone.now())
    api = Api(token_for("ann"))
    schema = api.get("/openapi.json").json()
    sent = 0
    for method, path, body in request_bodies(schema):
        for name in strings(body):
            payload = {"type": "nominate", "step_number": 1, "round": 1, "body": "hi", "cards": "LF",
                       "starts_at": "2030-01-01T00:00:00Z", "ends_at": "2030-01-02T00:00:00Z", name: value}  # fmt: skip
            url = path.removeprefix("/api/v1").replace("{game_id}", str(game.pk))
            response = getattr(api, method)(url, payload)  # POST, or PUT (a player's notes)
            assert response.status_code == 422, (path, name, response.status_code)
            assert name in response.json()["detail"], (path, name)
            sent += 1
    assert sent >= 6
    assert not ActionRecord.objects.filter(game=game).exists() and not Post.objects.exists()


@pytest.mark.parametrize(
    "method, path, body",
    [
        ("get", "/games/{id}/events?after=" + "9" * 2_000, None),
        ("get", "/lobby?q=" + LONG, None),
        ("post", "/games/{id}/posts", {"body": "x" * 3_000_000}),  # over DATA_UPLOAD_MAX_MEMORY_SIZE
    ],
)
def test_an_oversize_address_or_body_sent_to_the_api_is_a_problem_document(method, path, body):
    game = running_game(now=timezone.now())
    api = Api(token_for("ann"))
    path = path.replace("{id}", str(game.pk))
    response = api.get(path) if method == "get" else api.post(path, body)
    assert (response.status_code, response["Content-Type"]) == (400, "application/problem+json")
    assert response.json()["code"] == "invalid_request" and response.json()["detail"]
    assert not Post.objects.exists()


@pytest.mark.postgres
def test_the_same_holds_on_sqlite(tmp_path):
    """`make run` uses SQLite: this file again, in a process of its own on a SQLite database."""
    assert connection.vendor == "postgresql"
    env = {key: value for key, value in os.environ.items() if key not in ("CI", "DATABASE_URL")}
    env["DATABASE_URL"] = f"sqlite:///{tmp_path / 'db.sqlite3'}"
    result = subprocess.run(
        [sys.executable, "-m", "pytest", __file__, "-q", "-m", "not postgres", "-p", "no:cacheprovider"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-2000:]
    assert " passed" in result.stdout and "skipped" not in result.stdout.splitlines()[-1]
