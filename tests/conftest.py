import logging
import os
import re
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest
from allauth.account.models import EmailAddress
from django.conf import settings as django_settings
from django.core.cache import caches
from django.test import Client
from django.utils import translation
from hypothesis import HealthCheck, settings

from games import fragments
from tests.factories import make_user, reauthenticated, strongly_signed_in
from tests.services import Receiver, answers

# CI caps the property tests; a developer can ask for more with HYPOTHESIS_PROFILE=thorough.
settings.register_profile("ci", max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("dev", max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("thorough", max_examples=2000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev"))

IN_CI = bool(os.environ.get("CI"))
# Servers this run leaves out on purpose (`make test-fast TEST_DATABASE_URL=sqlite`, CI's second run): the tests
# that need one skip, in CI too.
LEFT_OUT = set(os.environ.get("TEST_WITHOUT", "").split())
CHROMIUM = Path("/usr/bin/chromium")
# What `make test` runs at once on several cores (pytest-xdist) must not share anything a test changes: the
# database is the worker's own (pytest-django names it test_<name>_gw0, _gw1, ...; SQLite's is in the worker's
# memory), and so is the Redis database; tests that start the site's processes, or a browser, run one after another
# in a group of their own.
XDIST_GROUPS = {"processes": "processes", "chaos": "processes", "e2e": "browser"}


def _redis_url_of_this_worker() -> str:
    """REDIS_URL's database number plus the worker's (gw0 keeps it, gw1 takes the next): a test that empties its
    Redis database, or starts a Celery worker on it, never sees another worker's tasks. Set in the environment,
    which the processes a test starts inherit, and in the settings, which Django has read already."""
    url = os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/8"
    worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0")
    parts = urlsplit(url)
    url = urlunsplit(parts._replace(path=f"/{int(parts.path.strip('/') or 0) + int(worker.removeprefix('gw'))}"))
    if os.environ.get("REDIS_URL"):
        os.environ["REDIS_URL"] = django_settings.REDIS_URL = django_settings.CELERY_BROKER_URL = url
    return url


REDIS_URL = _redis_url_of_this_worker()
# Every fragment a page takes from the cache is rendered again and compared, in every test (games/fragments.py), in
# this process and in the servers the tests start; on Redis, in the worker's own database, as production does.
os.environ["FRAGMENT_CHECK"] = "1"
django_settings.FRAGMENT_CHECK = True
if os.environ.get("REDIS_URL"):
    os.environ["CACHE_URL"] = django_settings.CACHES["fragments"]["LOCATION"] = REDIS_URL


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items):
    """Before pytest-xdist reads the groups (--dist loadgroup): each test marked `processes`, `chaos` or `e2e`
    joins its group."""
    for item in items:
        for marker, group in XDIST_GROUPS.items():
            if item.get_closest_marker(marker):
                item.add_marker(pytest.mark.xdist_group(group))


def _missing(reason: str, *, server: str = "") -> None:
    if IN_CI and server not in LEFT_OUT:
        pytest.fail(f"CI must run this test: {reason}", pytrace=False)
    pytest.skip(reason)


DATABASE_FIXTURES = {"db", "transactional_db", "live_server"}


@pytest.fixture(autouse=True)
def _fresh_cache(request):
    """Every test starts with empty caches: allauth counts sign-in attempts in the default cache per address and
    account, so a test that posts to the sign-in form many times would otherwise get a later test's sign-ins refused.
    That cache is a table of the database: emptied for the tests that use the database (which then starts its
    transaction first), and untouched by the others, which may not reach the database."""
    database = request.node.get_closest_marker("django_db") is not None or bool(
        DATABASE_FIXTURES & set(request.fixturenames)
    )
    if database:
        request.getfixturevalue("_django_db_helper")  # pytest-django's own: what the marker or fixture asks
        caches["default"].clear()
    _clear_caches()
    fragments.forget_failure()
    yield
    _clear_caches()


def _clear_caches() -> None:
    """The caches outside the database emptied; on Redis, the fragments' keys alone: the worker's Redis database is
    its broker's too."""
    caches["local"].clear()
    fragment_cache = caches[fragments.ALIAS]
    if not hasattr(fragment_cache, "_cache") or not hasattr(fragment_cache._cache, "get_client"):
        fragment_cache.clear()
        return
    try:
        client = fragment_cache._cache.get_client(write=True)
        keys = list(client.scan_iter(match=f"*{django_settings.CACHES[fragments.ALIAS]['KEY_PREFIX']}:*"))
        if keys:
            client.delete(*keys)
    except Exception:  # a test that stopped Redis leaves nothing to clear
        pass


@pytest.fixture(autouse=True)
def _english_between_tests():
    """Every test starts in the site's default language: a request leaves its language active in the thread
    (LocaleMiddleware activates it and nothing deactivates it), which would translate the next test's messages."""
    translation.activate(django_settings.LANGUAGE_CODE)
    yield
    translation.activate(django_settings.LANGUAGE_CODE)


@pytest.fixture(autouse=True)
def _services(request):
    """`postgres`, `redis` and `e2e` markers: skipped where the service or the browser is missing, except in CI,
    where it fails unless the run leaves that server out (TEST_WITHOUT)."""
    on_postgres = django_settings.DATABASES["default"]["ENGINE"].endswith("postgresql")
    if request.node.get_closest_marker("postgres") and not on_postgres:
        _missing(
            "needs PostgreSQL: make test uses it when 127.0.0.1:5432 answers (or set DATABASE_URL)", server="postgres"
        )
    if request.node.get_closest_marker("redis") and not (django_settings.REDIS_URL and answers(REDIS_URL, 6379)):
        _missing("needs Redis: make test uses it when TEST_REDIS_URL answers (or set REDIS_URL)", server="redis")
    if request.node.get_closest_marker("e2e") and not CHROMIUM.exists():
        _missing(f"needs Chromium at {CHROMIUM} (Debian's chromium package); Playwright drives it, never downloads one")


# What a secret looks like in a log line that was not masked (sh_site.logs.MaskSecrets masks each into ***).
LEAKED = re.compile(
    r"\b(?:shp|whsec)_[A-Za-z0-9_-]{20,}"  # API tokens, webhook secrets
    r"|(?i:\+[a-z2-7]{42}@)"  # a reply address with its token, whatever its local part (reply+, sh+)
    r"|(?i:authorization\W{0,6}(?:bearer|token|basic)\s+[^*\s])"  # also HTTP_AUTHORIZATION': 'Token ...
    r"|(?i:\bpassword\d?[\"']?\s*[:=]\s*\[?[\"']?[^*\s\"'[\]])"  # also a QueryDict's {'password': ['...']}
    r"|/calendar/[^*/\s]+\.ics|/(?:unsubscribe|password/reset/key|confirm-email)/[^*/\s?#\"']"  # secret addresses
    r"|/games/(?:u|unlisted)/[A-Za-z0-9_-]{22}"  # an unlisted game's link key
    r"|(?i:/api/(?:v\d+/)?webhooks/[^*\s?#\"'<>])|(?i:\bhooks\.slack\.com/[^*\s?#\"'<>])"  # webhook URLs' paths
    r"|/services/T[A-Z0-9]{6,}/B[A-Z0-9]{6,}/"
    r"|(?i:[?&;](?:[\w.-]*[_.-])?(?:token|key|secret|sig|signature)=[^*\s&#\"'<>])"  # and their queries'
)


class _KeepRecords(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@pytest.fixture(autouse=True)
def _no_secret_in_logs():
    """Issue 27: no log line of any test holds a token, a password, a reply token or a webhook secret. Every record
    a test logs, at every level, is formatted as the site's console handler formats it (its filters, then text and
    JSON) and searched for the shapes of those secrets: the test that logged one fails."""
    root = logging.getLogger()
    keep = _KeepRecords()
    with _records_at_every_level(root):
        root.addHandler(keep)
        try:
            yield
        finally:
            root.removeHandler(keep)
    if keep.records:
        leaks = [line for line in _as_logged(keep.records) if LEAKED.search(line)]
        if leaks:
            pytest.fail("a secret was logged:\n" + "\n".join(leaks[:5]), pytrace=False)


@contextmanager
def _records_at_every_level(root: logging.Logger):
    """The root logger at DEBUG, so that a DEBUG record is made at all (LOG_LEVEL is INFO) and scanned; the
    console handler stays at the configured level, so that the output a failing test shows is unchanged. A logger
    with a level of its own keeps it: `django` at DEBUG adds its template lookups (5,400 records and a fifth more
    time over tests/web, notify, ops and moderation); with it at DEBUG once, the scan found nothing unmasked."""
    console = _console()
    levels = (root.level, console.level if console else None)
    if console is not None:
        console.setLevel(max(console.level, root.getEffectiveLevel()))
    root.setLevel(logging.DEBUG)
    try:
        yield
    finally:
        root.setLevel(levels[0])
        if console is not None:
            console.setLevel(levels[1])


def _console() -> logging.Handler | None:
    return next((h for h in logging.getLogger().handlers if h.name == "console"), None)


def _as_logged(records: list[logging.LogRecord]):
    from sh_site.logs import JsonFormatter

    console = _console()
    text = logging.Formatter("%(levelname)s %(name)s: %(message)s")  # the filters' work alone, nothing after
    formatters = [text, console.formatter if console is not None and console.formatter else JsonFormatter()]
    for record in records:
        if console is not None and not console.filter(record):
            continue
        for formatter in formatters:
            try:
                yield formatter.format(record)
            except (TypeError, ValueError):  # a call whose arguments do not fit its message: logging says so
                yield str(record.msg)


def pytest_configure(config):
    # Password hashing is made slow on purpose; the tests need no such protection.
    django_settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def client_for(db):
    """A signed-in client for a user name (created, with a verified email, if needed), just asked for their password
    again (allauth's reauthentication), as before making a token or a webhook. tests/web/test_second_factor.py signs
    in through the form and shows what is asked when."""

    def client_for(name: str) -> Client:
        user = make_user(name)
        EmailAddress.objects.get_or_create(user=user, email=user.email, defaults={"verified": True, "primary": True})
        client = Client()
        client.force_login(user)
        return reauthenticated(client, user)

    return client_for


@pytest.fixture
def admin_client(admin_user):
    """pytest-django's signed-in superuser, with the second factor every staff session must have used."""
    return strongly_signed_in(Client(), admin_user)


@pytest.fixture
def push_service(settings, monkeypatch):
    """The site with a VAPID key of its own, and a push service on loopback (devtools/push_service.py) that the site
    may reach and trusts, as an operator trusts a private CA (SSL_CERT_FILE)."""
    from devtools.push_service import PushService
    from games.notify.webpush import new_private_key, public_key

    settings.VAPID_PRIVATE_KEY = new_private_key()
    settings.WEBHOOK_ALLOWED_ADDRESSES = ["127.0.0.1"]
    service = PushService(public_key())
    monkeypatch.setenv("SSL_CERT_FILE", str(service.certificate))
    yield service
    service.close()


@pytest.fixture
def receiver(settings):
    """A webhook receiver on loopback, which the site is allowed to call in this test."""
    settings.WEBHOOK_ALLOWED_ADDRESSES = ["127.0.0.1"]
    server = Receiver()
    yield server
    server.close()
