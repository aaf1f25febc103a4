"""Issue 20: exactly one beat. Beat holds a PostgreSQL advisory lock (sh_site/beat.py): a second one refuses to
start while the first holds it, and the first takes it again after a database restart."""

import subprocess

import psycopg
import pytest

from devtools.chaos.services import BIN, ROOT, Site, database_url, own_database, wait_until
from sh_site.beat import LOCK_KEY

pytestmark = [pytest.mark.processes, pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def lock_holder(url: str) -> int | None:
    """The server process holding the beat lock of this database, if any."""
    query = (
        "SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted AND classid = %s AND objid = %s "
        "AND database = (SELECT oid FROM pg_database WHERE datname = current_database())"
    )
    with psycopg.connect(url, autocommit=True) as probe:
        row = probe.execute(query, (LOCK_KEY >> 32, LOCK_KEY & 0xFFFFFFFF)).fetchone()
    return row[0] if row else None


def second_beat(site: Site) -> subprocess.CompletedProcess:
    command = [str(BIN / "celery"), "-A", "sh_site", "beat", "--schedule", str(site.folder / "second-schedule")]
    return subprocess.run(command, cwd=ROOT, env=site.environment, capture_output=True, text=True, timeout=90)


def test_a_second_beat_refuses_to_start_while_one_runs():
    url = database_url()
    site = Site(SWEEP_INTERVAL_SECONDS="1")
    try:
        site.beat()
        assert wait_until(lambda: lock_holder(url) is not None, 60), site.log("beat")
        result = second_beat(site)
        assert result.returncode != 0
        assert "another beat holds the lock of this database" in result.stdout + result.stderr
        assert site.processes["beat"].poll() is None  # the first one runs on
    finally:
        site.close()
    assert wait_until(lambda: lock_holder(url) is None, 10)  # stopped: the lock is free for another


def test_beat_takes_its_lock_again_after_a_database_restart():
    with own_database("beat", SWEEP_INTERVAL_SECONDS="1") as (cluster, url, site):
        site.beat()
        assert wait_until(lambda: lock_holder(url) is not None, 60), site.log("beat")
        before = lock_holder(url)
        cluster.restart()  # every session ends: the lock with it
        assert wait_until(lambda: lock_holder(url) not in (None, before), 30), site.log("beat")
        assert site.processes["beat"].poll() is None
        refused = second_beat(site)
        assert refused.returncode != 0 and "another beat" in refused.stdout + refused.stderr
