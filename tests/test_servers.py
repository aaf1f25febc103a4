"""The suite where a server is missing (a newcomer's machine, CI's SQLite leg): `make test` runs on SQLite and the
file broker where PostgreSQL and Redis do not answer, and the tests that need them skip, saying why. In CI such a
skip is a failure, unless the run leaves the server out on purpose (TEST_WITHOUT)."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.db import connection

from tests.services import free_port, suite_environment

ROOT = Path(__file__).resolve().parents[1]


def closed(scheme: str) -> str:
    return f"{scheme}://127.0.0.1:{free_port()}/8"


def test_where_no_server_answers_the_suite_runs_on_sqlite_and_the_file_broker():
    database, redis = closed("postgres"), closed("redis")
    environment, notes = suite_environment(database, redis)
    assert environment == {"DATABASE_URL": "sqlite:///db.sqlite3", "REDIS_URL": "", "TEST_WITHOUT": ""}
    assert notes == [
        f"PostgreSQL does not answer at {database}: the suite runs on SQLite, the tests that need PostgreSQL skipped",
        f"Redis does not answer at {redis}: the suite runs on kombu's file broker and each process's memory, "
        "the tests that need Redis skipped",
    ]


def test_sqlite_asked_for_leaves_postgresql_out_on_purpose():
    environment, notes = suite_environment("sqlite", closed("redis"))
    assert (environment["DATABASE_URL"], environment["TEST_WITHOUT"]) == ("sqlite:///db.sqlite3", "postgres")
    assert notes[0] == "SQLite asked for: the tests that need PostgreSQL are skipped, in CI too"


@pytest.mark.postgres
def test_the_suite_runs_on_postgresql_where_it_answers():
    assert connection.vendor == "postgresql"


def run_in_ci_on_sqlite(**environment: str) -> subprocess.CompletedProcess:
    env = {key: value for key, value in os.environ.items() if not key.startswith(("PYTEST_", "DATABASE_URL"))}
    test = f"{Path(__file__).relative_to(ROOT)}::test_the_suite_runs_on_postgresql_where_it_answers"
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-n", "0", test]
    return subprocess.run(command, cwd=ROOT, env={**env, "CI": "true", **environment}, capture_output=True,
                          text=True, timeout=120)  # fmt: skip


@pytest.mark.slow
def test_in_ci_a_test_that_needs_postgresql_fails_on_sqlite_unless_left_out_on_purpose():
    failed = run_in_ci_on_sqlite()
    assert failed.returncode == 1 and "CI must run this test: needs PostgreSQL" in failed.stdout, failed.stdout[-800:]
    skipped = run_in_ci_on_sqlite(TEST_WITHOUT="postgres")
    assert skipped.returncode == 0 and "1 skipped" in skipped.stdout, skipped.stdout[-800:]
