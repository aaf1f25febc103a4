"""Issue 20: JSON log lines naming their request and game; the request id sent back; errors emailed to the
admins once per distinct error, with the moves' and claims' POST data hidden."""

import json
import logging

import pytest
from django.core import mail
from django.test import Client

from sh_site.logs import Context, JsonFormatter, MaskSecrets, RateLimitedAdminEmailHandler, mask
from tests.conftest import LEAKED
from tests.factories import make_user, running_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def json_lines():
    """Every log record of the test, formatted as production formats it."""
    lines = []

    class Keep(logging.Handler):
        def emit(self, record):
            lines.append(json.loads(self.format(record)))

    handler = Keep()
    handler.addFilter(Context())
    handler.setFormatter(JsonFormatter())
    logging.getLogger().addHandler(handler)
    yield lines
    logging.getLogger().removeHandler(handler)


def test_a_request_has_an_id_sent_back_and_on_its_log_lines_with_the_game(client, json_lines):
    game = running_game()
    response = client.get(f"/games/{game.pk + 1000}/")  # no such game: Django logs a warning
    assert response.status_code == 404
    request_id = response["X-Request-ID"]
    assert len(request_id) == 32
    (line,) = [line for line in json_lines if line["logger"] == "django.request"]
    assert (line["request_id"], line["game_id"], line["level"]) == (request_id, game.pk + 1000, "WARNING")
    assert line["message"].startswith("Not Found") and "time" in line


def test_a_sane_request_id_from_the_proxy_is_kept_and_a_forged_one_replaced(client):
    assert client.get("/", headers={"x-request-id": "edge-4f2a9c1b"})["X-Request-ID"] == "edge-4f2a9c1b"
    forged = client.get("/", headers={"x-request-id": "x\r\nSet-Cookie: a=b"})["X-Request-ID"]
    assert len(forged) == 32 and "\n" not in forged


def test_a_sweep_names_the_game_it_could_not_handle(json_lines, monkeypatch):
    from games.services import deadlines

    game = running_game()  # long overdue: its deadline was in March
    monkeypatch.setattr(deadlines, "apply_timeout", lambda *a, **k: 1 / 0)
    deadlines.sweep_due_deadlines()
    errors = [line for line in json_lines if line["level"] == "ERROR"]
    assert errors and all(line["game_id"] == game.pk for line in errors)


def test_an_error_is_emailed_once_with_the_moves_post_data_hidden(settings, monkeypatch):
    settings.DEBUG = False
    settings.ADMINS = [("ops@example.org", "ops@example.org")]
    RateLimitedAdminEmailHandler._last_sent.clear()
    game = running_game()
    from games.views import panel

    monkeypatch.setattr(panel, "make_move", lambda *args, **kwargs: 1 / 0)
    browser = Client(raise_request_exception=False)
    browser.force_login(make_user("ann"))
    fields = {"type": "discard", "policy": "F", "step_number": 1, "confirmed": "yes"}
    for _ in range(3):
        assert browser.post(f"/games/{game.pk}/move/", fields).status_code == 500
    (email,) = mail.outbox  # three times the same error: one email
    assert email.to == ["ops@example.org"] and "ZeroDivisionError" in email.body
    assert "policy = '********************'" in email.body and "policy = 'F'" not in email.body


# Issue 27: no log line holds a secret, whatever logged it.


@pytest.fixture
def console_lines(caplog):
    """Every log record of the test, at every level, through the site's own console handler (its filters and its
    formatter). The root logger is at DEBUG for the test (INFO by default: no DEBUG record would be made)."""
    caplog.set_level(logging.DEBUG)
    console = next(handler for handler in logging.getLogger().handlers if handler.name == "console")
    lines = []

    class Keep(logging.Handler):
        def emit(self, record):
            lines.append(self.format(record))

    handler = Keep()
    handler.filters = list(console.filters)
    handler.setFormatter(console.formatter)
    logging.getLogger().addHandler(handler)
    yield lines
    logging.getLogger().removeHandler(handler)


def test_with_debug_on_a_token_in_an_unread_authorization_header_is_not_logged(settings, client, console_lines):
    """django-ninja logs an Authorization header of another scheme than Bearer, whole, at ERROR."""
    settings.DEBUG = True
    token = "shp_" + "k" * 43
    response = client.get("/api/v1/me/notifications", headers={"Authorization": f"Token {token}"})
    assert response.status_code == 401
    assert any("Unexpected auth" in line for line in console_lines)
    assert not [line for line in console_lines if token in line or "kkkkkkkk" in line]


SECRET_LINES = {
    "api token": ("a request with shp_Abc123-_def456ghi789jkl012mno", "shp_Abc123"),
    "webhook secret": ("subscribed with {'secret': 'whsec_Zyx987-_wvu654tsr321'}", "whsec_Zyx987"),
    "bearer header": ("HTTP_AUTHORIZATION='Bearer eyJhbGciOiJIUzI1NiJ9.payload.sig'", "eyJhbGci"),
    "authorization": ("Authorization: Basic YW5uOnNlY3JldHBhc3M=", "YW5uOnNlY3JldHBhc3M"),
    "password field": ("POST username=ann&password=hunter2hunter2&next=/", "hunter2"),
    "password dict": ("{'login': 'ann', 'password1': 'correct horse', 'password2': 'correct horse'}", "correct"),
    "reply address": ("from reply+abcdefghijklmnopqrstuvwxyz234567abcdefghij@reply.example.org", "abcdefghijklmnop"),
    "reply token": ("forged token abcdefghijklmnopqrstuvwxyz234567abcdefghij dropped", "abcdefghijklmnop"),
    "broker url": ("cannot reach redis://:Sup3rS3cret@10.0.0.5:6379/0", "Sup3rS3cret"),
    "calendar feed": ("Not Found: /calendar/Qw3rTy_uiOP-asdfghjkl.ics", "Qw3rTy"),
    "posted form": ("<QueryDict: {'login': ['ann'], 'password': ['hunter2hunter2']}>", "hunter2"),
    "password with a space": ("{'password1': 'correct horse battery'}", "horse"),
    "another reply address": ("to sh+abcdefghijklmnopqrstuvwxyz234567abcdefghij@example.org", "abcdefgh"),
    "request headers": ("{'HTTP_AUTHORIZATION': 'Token s3cr3t-t0ken-value', 'HTTP_HOST': 'x'}", "s3cr3t"),
    "token scheme": ("the client sent Token 9f86d081884c7d659a2feaa0c55ad015", "9f86d081"),
    "password reset link": ("GET /accounts/password/reset/key/1b-c3k2ub-7d4e2d0a1b5f4c5e2a7f/ 200", "c3k2ub"),
    "email confirmation link": ("GET /accounts/confirm-email/MQ:1tXyZa:k7Qm2vX9_pLr-4sTuVwXyZ/ 302", "k7Qm2vX9"),
    "unsubscribe link": ("POST /unsubscribe/eyJ1IjoxLCJjIjpbIm1vdmVzIl19:1tXyZa:Qw3rTyUi0pAsDf/ 200", "eyJ1Ijox"),
    "unlisted game": ("Forbidden (Permission denied): /games/u/Kq3x-Vb_8TnRw2LpYz0aMcEd5FgHiJkL/link/", "Kq3x-Vb_8"),
    "unlisted game in the api": ("Not Found: /api/v1/games/unlisted/Kq3x-Vb_8TnRw2LpYz0aMcEd5FgHiJkL/events", "Kq3x"),
}
# A webhook URL is its owner's credential: the chat services' shapes of it, and any URL's query secrets.
WEBHOOK_URL_LINES = {
    "discord webhook": ("to https://discord.com/api/webhooks/1234567890/Zq9-xT_abcDEF123 failed", "Zq9-xT_abc"),
    "discordapp webhook": ("'https://discordapp.com/api/v10/webhooks/1234567890/Zq9xTabcDEF123'", "Zq9xTabc"),
    "webhook path": ("InvalidURL: '/api/webhooks/123/s3cr3tTOKEN\\x7f'", "s3cr3tTOKEN"),
    "slack webhook": ("POST https://hooks.slack.com/services/T0ABC1234/B0DEF5678/aBcD3fGh1jKlMn0p", "aBcD3fGh1j"),
    "slack path": ("GET /services/T0ABC1234/B0DEF5678/aBcD3fGh1jKlMn0p 500", "aBcD3fGh1j"),
    "slack workflow": ("https://hooks.slack.com/triggers/T0ABC1234/5678/aBcD3fGh1jKlMn0p", "aBcD3fGh1j"),
    "query token": ("https://hooks.example.com/in?token=Tk3n-Value_99&x=1", "Tk3n-Value"),
    "query key": ("https://chat.example.com/v1/spaces/AAA/messages?key=AIzaSyD-k3yV4lue", "AIzaSyD"),
    "query secret": ("https://example.com/hook?a=1&secret=S3cr3tV4lue", "S3cr3tV4lue"),
    "query sig": ("https://h.example.com/x?sp=w&sig=s1gn4ture%2Bvalue%3D", "s1gn4ture"),
    "query access token": ("https://h.example.com/x?access_token=AcC3ssT0k", "AcC3ssT0k"),
    "query api key": ("https://h.example.com/x?api_key=Ap1K3yV4lue&y=2", "Ap1K3yV4lue"),
    "query signature": ("https://blob.example.net/c?X-Amz-Signature=5ig4ature0f", "5ig4ature0f"),
}
SECRET_LINES |= WEBHOOK_URL_LINES


@pytest.mark.parametrize("kind", SECRET_LINES)
def test_a_secret_in_a_log_line_is_masked_at_every_level(console_lines, kind):
    line, secret = SECRET_LINES[kind]
    for level in (logging.DEBUG, logging.INFO, logging.WARNING, logging.ERROR):
        logging.getLogger("games").log(level, "%s", line)
    logged = [entry for entry in console_lines if "***" in entry]
    assert len(logged) == 4 and not [entry for entry in console_lines if secret in entry], console_lines


@pytest.mark.parametrize("kind", WEBHOOK_URL_LINES)
def test_the_suites_log_scan_finds_a_webhook_urls_secret_unless_masked(kind):
    """tests/conftest.py's scan (every test's log lines) knows each shape the mask knows, so that a line the mask
    missed fails the test that logged it."""
    line, secret = WEBHOOK_URL_LINES[kind]
    assert LEAKED.search(line) and not LEAKED.search(mask(line)) and secret not in mask(line)


def test_a_secret_in_an_exception_is_masked_in_the_traceback(console_lines):
    try:
        raise ValueError("bad token shp_Abc123-_def456ghi789jkl012mno")
    except ValueError:
        logging.getLogger("games").exception("the token was refused")
    (line,) = [entry for entry in console_lines if "the token was refused" in entry]
    assert "ValueError" in line and "shp_***" in line and "shp_Abc123" not in line


def test_a_log_call_whose_arguments_do_not_fit_is_passed_on_not_raised():
    """logging reports such a call on stderr and the caller goes on: the masking filter must not raise first."""
    record = logging.LogRecord("games", logging.WARNING, __file__, 1, "%s and %s", ("only one",), None)
    assert MaskSecrets().filter(record) is True
