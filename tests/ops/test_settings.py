"""Issue 20: production settings read secrets from files, keep the database URL's options, and refuse to start
with a message naming what is missing. Production is the default: development mode is asked for (DEBUG=1)."""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from psycopg.conninfo import make_conninfo

from sh_site.env import ImproperlyConfiguredEnv, database_from_url, env_str

ROOT = Path(__file__).resolve().parents[2]
DEVELOPMENT = {"DEBUG": "1"}
PRODUCTION = {"SECRET_KEY": "k" * 50, "ALLOWED_HOSTS": "sh.example.org", "SITE_URL": "https://sh.example.org"}


def start(code: str = "from django.conf import settings; print(settings.SECRET_KEY[:4])", **environment: str):
    """A fresh process setting Django up with exactly this environment (and the machine's PATH), running `code`."""
    env = {"PATH": os.environ["PATH"], "DJANGO_SETTINGS_MODULE": "sh_site.settings", **environment}
    code = "import django; django.setup()\n" + code
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)


def test_production_refuses_to_start_naming_every_missing_setting():
    result = start(DEBUG="0")
    assert result.returncode != 0
    assert "DEBUG is off (production), and these settings are missing: SECRET_KEY, ALLOWED_HOSTS, SITE_URL" in (
        result.stderr
    )


def test_settings_with_no_environment_refuse_to_start_saying_how_to_set_a_key():
    result = start()
    assert result.returncode != 0
    assert "these settings are missing: SECRET_KEY, ALLOWED_HOSTS, SITE_URL" in result.stderr
    assert "SECRET_KEY=$(python3 -c 'import secrets; print(secrets.token_urlsafe(50))')" in result.stderr
    assert "DEBUG=1" in result.stderr


def test_with_debug_unset_debug_is_off_and_the_measuring_code_is_not_installed():
    code = "from django.apps import apps; from django.conf import settings; print(settings.DEBUG)\n"
    code += "print(apps.is_installed('devtools'))"
    result = start(code, **PRODUCTION)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["False", "False"]


CONFIGURATION = ROOT / "docs" / "running" / "configuration.md"


def test_the_docs_say_production_is_the_default():
    configuration = CONFIGURATION.read_text()
    rows = {line.split(" | ")[0].strip("| "): line.split(" | ")[1] for line in configuration.splitlines()
            if line.startswith("| `")}  # fmt: skip
    assert (rows["`DEBUG`"], rows["`DEVTOOLS`"]) == ("`0`", "`DEBUG`'s value")
    assert rows["`SECRET_KEY`"].startswith("none: required")
    assert "With `DEBUG` unset or `0` the site refuses to start" in configuration


def test_make_starts_the_site_and_the_measuring_commands_in_development_mode():
    """Production is the default: `make run` (the README's "Try it"), the benchmarks and the outage scenarios ask
    for development mode in every command that starts Django."""
    targets = ["run", "bench", "bench-deadlines", "bench-reminders", "bench-thread", "bench-live", "bench-moves",
               "bench-pages", "bench-follow", "bench-push", "chaos"]  # fmt: skip
    dry = subprocess.run(["make", "-n", "-W", ".venv/.installed", *targets], cwd=ROOT, capture_output=True,
                         text=True, timeout=30, check=True).stdout  # fmt: skip
    starting = [line for line in dry.splitlines() if "manage.py" in line or "honcho" in line]
    assert len(starting) >= len(targets) + 1
    assert [line for line in starting if "DEBUG=1 " not in line] == []


def test_the_file_broker_writes_nothing_outside_var(tmp_path):
    """kombu's filesystem transport keeps its exchanges in a folder relative to the working directory unless told
    where: a process queuing a task (the web, a worker, beat), started elsewhere, would leave a control/ folder."""
    code = (
        "from sh_site.celery import app\n"
        "with app.connection_for_write() as connection:\n"
        "    app.amqp.queues[app.conf.task_default_queue].bind(connection.default_channel).declare()\n"
    )
    env = {"PATH": os.environ["PATH"], "DJANGO_SETTINGS_MODULE": "sh_site.settings", "PYTHONPATH": str(ROOT),
           **DEVELOPMENT}  # fmt: skip
    result = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True,
                            timeout=60)  # fmt: skip
    assert result.returncode == 0, result.stderr[-800:]
    assert list(tmp_path.iterdir()) == []
    assert (ROOT / "var" / "broker" / "control" / "celery.exchange").exists()


def test_on_sqlite_the_test_database_is_each_processs_own_in_memory():
    """pytest-django names each xdist worker's test database after NAME, but only for Django's own SQLite backend
    does it leave one in memory: for django-prometheus's, it made a path no folder held, and every test failed."""
    entry = database_from_url("sqlite:///db.sqlite3", ROOT)
    assert entry["TEST"] == {"NAME": ":memory:"}


def test_secrets_can_be_given_as_files(tmp_path):
    secret = tmp_path / "secret_key"
    secret.write_text("abcd-from-a-file\n")
    result = start(DEBUG="0", SECRET_KEY_FILE=str(secret), ALLOWED_HOSTS="sh.example.org", SITE_URL="https://x")
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "abcd"


def test_a_secret_file_that_cannot_be_read_is_named(monkeypatch):
    monkeypatch.setenv("SECRET_KEY_FILE", "/nonexistent/secret")
    with pytest.raises(ImproperlyConfiguredEnv, match="SECRET_KEY_FILE: cannot read /nonexistent/secret"):
        env_str("SECRET_KEY", "")


def test_the_database_urls_options_are_kept():
    entry = database_from_url("postgres://sh:p%40ss@db.example.org:6432/sh?sslmode=verify-full&connect_timeout=5", ROOT)
    assert (entry["HOST"], entry["PORT"], entry["NAME"], entry["USER"], entry["PASSWORD"]) == (
        "db.example.org",
        6432,
        "sh",
        "sh",
        "p@ss",
    )
    assert entry["OPTIONS"] == {"sslmode": "verify-full", "connect_timeout": 5, "server_side_binding": True,
                                "prepare_threshold": 2}  # fmt: skip
    assert entry["CONN_HEALTH_CHECKS"] is True and entry["CONN_MAX_AGE"] == 60


def test_beat_reaches_the_database_directly_when_told_to(settings):
    """Behind PgBouncer (transaction pooling) a session's advisory lock does not hold: beat takes BEAT_DATABASE_URL."""
    from sh_site.beat import BeatLock

    settings.BEAT_DATABASE_URL = "postgres://beat:pw@db.example.org:5432/sh?sslmode=require&connect_timeout=3"
    conninfo = BeatLock.for_database().conninfo
    make_conninfo(**conninfo)  # every key one libpq knows (an unknown one raises)
    assert (conninfo["connect_timeout"], conninfo["application_name"]) == (3, "sh-beat")
    assert (conninfo["host"], conninfo["port"], conninfo["dbname"], conninfo["sslmode"]) == (
        "db.example.org",
        5432,
        "sh",
        "require",
    )
    settings.BEAT_DATABASE_URL = "sqlite:///one-machine.sqlite3"
    assert BeatLock.for_database() is None  # one machine: no lock to take


def test_pgbouncer_transaction_pooling_turns_server_side_cursors_off():
    entry = database_from_url("postgres://sh@pgbouncer:6432/sh", ROOT, behind_pgbouncer=True)
    assert entry["DISABLE_SERVER_SIDE_CURSORS"] is True


def test_pgbouncer_without_a_direct_url_for_beat_refuses_to_start():
    result = start(PGBOUNCER_TRANSACTION_POOLING="1", DATABASE_URL="postgres://sh@127.0.0.1:6432/sh", **DEVELOPMENT)
    assert result.returncode != 0 and "missing: BEAT_DATABASE_URL" in result.stderr


def test_every_setting_read_from_the_environment_is_in_the_docs_configuration_table():
    read = set(re.findall(r"\benv_\w+\(\s*\"([A-Z][A-Z0-9_]+)\"", (ROOT / "sh_site" / "settings.py").read_text()))
    table = CONFIGURATION.read_text()
    assert {name for name in read if f"`{name}`" not in table} == set()


def test_with_debug_off_a_plain_http_request_is_redirected_to_https():
    code = "from django.test import Client; r = Client().get('/rules/'); print(r.status_code, r['Location'])"
    env = {"DEBUG": "0", "SECRET_KEY": "k" * 50, "ALLOWED_HOSTS": "testserver", "SITE_URL": "https://testserver"}
    result = start(**env, code=code)
    assert result.stdout.split()[-2:] == ["301", "https://testserver/rules/"], result.stderr[-800:]


def test_make_run_needs_no_cache_server_the_fragments_stay_in_memory():
    result = start("from django.conf import settings; print(settings.CACHES['fragments']['BACKEND'])", **DEVELOPMENT)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "django.core.cache.backends.locmem.LocMemCache"


def test_the_fragments_go_to_redis_at_cache_url_or_else_redis_url():
    code = "from django.conf import settings; f = settings.CACHES['fragments']; print(f['BACKEND'], f['LOCATION'])"
    redis_cache = "sh_site.cache.FragmentCache"  # Django's RedisCache, cheaper per call
    assert start(code, REDIS_URL="redis://h:6379/0", **DEVELOPMENT).stdout.split() == [redis_cache, "redis://h:6379/0"]
    both = start(code, REDIS_URL="redis://h:6379/0", CACHE_URL="redis://c:6379/1", **DEVELOPMENT)
    assert both.stdout.split() == [redis_cache, "redis://c:6379/1"]
