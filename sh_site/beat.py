"""Exactly one beat: beat holds a PostgreSQL advisory lock for as long as it runs.

A second beat, started by mistake on another machine, finds the lock held and refuses to start, naming why.
The lock lives in a connection of its own (never one of Django's, which are closed between tasks): if that
connection is lost (a database restart or failover), PostgreSQL has released the lock, so beat reconnects and
takes it again; should another beat have taken it meanwhile, this one stops. On SQLite (one machine) there is no
lock to take: a second beat there is the operator's own doing.

Advisory locks are per session: through PgBouncer in transaction mode they do not hold. Beat then needs a
direct DATABASE_URL of its own (docs/running/index.md says so).
"""

import logging
import time

import psycopg
from celery.beat import PersistentScheduler
from django.conf import settings as django_settings
from django.db import connections

from .env import database_from_url

log = logging.getLogger(__name__)

LOCK_KEY = 0x5348_6265_6174  # "SHbeat": one number for every beat of this site's database
CHECK_SECONDS = 5.0


class AnotherBeat(SystemExit):
    """Raised to stop this beat: another one holds the lock."""


# OPTIONS of Django's PostgreSQL backend that are not libpq's (the lock's one query is not worth preparing).
DJANGO_ONLY_OPTIONS = {"pool", "server_side_binding", "isolation_level", "assume_role", "cursor_factory",
                       "prepare_threshold"}  # fmt: skip
# A live beat asks every CHECK_SECONDS; a beat gone (its machine off, its network cut) leaves a session that
# PostgreSQL ends after IDLE_SESSION seconds, freeing the lock for another beat; a half-open connection is
# given up after TCP_USER_TIMEOUT_MS rather than the system's minutes.
IDLE_SESSION = "30s"
CONNECTION = {"connect_timeout": 5, "keepalives": 1, "keepalives_idle": 10, "keepalives_interval": 5,
              "keepalives_count": 3, "tcp_user_timeout": 15_000}  # fmt: skip


class BeatLock:
    def __init__(self, conninfo: dict) -> None:
        self.conninfo, self.connection = conninfo, None

    @classmethod
    def for_database(cls, alias: str = "default") -> "BeatLock | None":
        """The lock of the site's database, reached through BEAT_DATABASE_URL when set (a direct connection
        when the site's goes through PgBouncer), else as the site reaches it; None on SQLite."""
        settings = connections[alias].settings_dict
        if django_settings.BEAT_DATABASE_URL:
            settings = database_from_url(django_settings.BEAT_DATABASE_URL, django_settings.BASE_DIR)
        if not settings["ENGINE"].endswith("postgresql"):
            return None
        options = {key: value for key, value in settings.get("OPTIONS", {}).items() if key not in DJANGO_ONLY_OPTIONS}
        conninfo = {
            **CONNECTION, **options, "application_name": "sh-beat",
            "dbname": settings["NAME"], "user": settings["USER"], "password": settings["PASSWORD"],
            "host": settings["HOST"], "port": settings["PORT"],
        }  # fmt: skip
        return cls({key: value for key, value in conninfo.items() if value not in ("", None)})

    def take(self) -> bool:
        """Connect and try to take the lock: whether this beat holds it now."""
        self.close()
        self.connection = psycopg.connect(autocommit=True, **self.conninfo)
        self.connection.execute(f"SET idle_session_timeout = '{IDLE_SESSION}'")
        held = self.connection.execute("SELECT pg_try_advisory_lock(%s)", (LOCK_KEY,)).fetchone()[0]
        return bool(held)

    def alive(self) -> bool:
        if self.connection is None or self.connection.closed:
            return False
        try:
            self.connection.execute("SELECT 1")
            return True
        except psycopg.Error:
            return False

    def close(self) -> None:
        if self.connection is not None:
            self.connection.close()
            self.connection = None


class LockedScheduler(PersistentScheduler):
    """Celery's file-backed scheduler, sending tasks only while this beat holds the site's beat lock.

    The lock is taken when the schedule is set up, not when the scheduler is made: Celery makes a throwaway
    one (lazy) to print its banner."""

    lock: BeatLock | None = None
    checked = 0.0
    holding = False

    def setup_schedule(self):
        self.lock = BeatLock.for_database()
        if self.lock is not None:
            if not self.lock.take():
                self.lock.close()
                message = "another beat holds the lock of this database: only one beat may run (docs/running/index.md)"
                log.error(message)
                raise AnotherBeat(f"celery beat: {message}")
            self.holding, self.checked = True, time.monotonic()
        super().setup_schedule()

    def tick(self, *args, **kwargs):
        if self.lock is not None and time.monotonic() - self.checked >= CHECK_SECONDS:
            self.checked = time.monotonic()
            self.holding = self._keep_lock()
        if self.lock is not None and not self.holding:
            return CHECK_SECONDS  # not sure the lock is ours: send nothing until it is again
        return min(super().tick(*args, **kwargs), CHECK_SECONDS)

    def _keep_lock(self) -> bool:
        """Whether this beat holds the lock now: it still does, or it lost its connection and took it again."""
        if self.lock.alive():
            return True
        log.warning("beat lost its database connection (and so the lock): taking the lock again")
        try:
            held = self.lock.take()
        except psycopg.Error:
            log.warning("the database does not answer yet; beat sends nothing and tries again in %s s", CHECK_SECONDS)
            self.lock.close()
            return False
        if not held:
            log.error("another beat took the lock while the database was away: this beat stops")
            raise AnotherBeat("celery beat: another beat took the lock")
        log.info("beat holds the lock again")
        return True

    def close(self):
        super().close()
        if self.lock is not None:
            self.lock.close()
