"""Reading settings from the environment: every value has a working default, and a bad value fails loudly
at start-up rather than misbehaving later.

Any variable can instead be given as the path of a file holding it, in NAME_FILE (a secret mounted by systemd's
LoadCredential, Docker or Kubernetes): SECRET_KEY_FILE=/run/secrets/secret_key. The file's content, without its
trailing newline, is the value; a file that cannot be read stops the site, naming it.
"""

import os
from pathlib import Path
from urllib.parse import unquote, urlsplit

import dj_database_url


class ImproperlyConfiguredEnv(ValueError):
    pass


def _raw(name: str) -> str | None:
    path = os.environ.get(f"{name}_FILE")
    if path:
        try:
            return Path(path).read_text().rstrip("\r\n")
        except OSError as error:
            raise ImproperlyConfiguredEnv(f"{name}_FILE: cannot read {path}: {error.strerror}") from None
    return os.environ.get(name)


def env_str(name: str, default: str) -> str:
    value = _raw(name)
    return default if value is None else value


def env_bool(name: str, default: bool) -> bool:
    value = _raw(name)
    if value is None or value == "":
        return default
    lowered = value.strip().lower()
    if lowered in ("1", "true", "yes", "on"):
        return True
    if lowered in ("0", "false", "no", "off"):
        return False
    raise ImproperlyConfiguredEnv(f"{name} must be a boolean (1/0, true/false), not {value!r}")


def env_int(name: str, default: int) -> int:
    value = _raw(name)
    if value is None or value == "":
        return default
    try:
        return int(value)
    except ValueError:
        raise ImproperlyConfiguredEnv(f"{name} must be an integer, not {value!r}") from None


def env_list(name: str, default: list[str]) -> list[str]:
    value = _raw(name)
    if value is None or value == "":
        return default
    return [item.strip() for item in value.split(",") if item.strip()]


def require(names: list[str], why: str, hint: str = "") -> None:
    """Stop the site, naming every one of these settings that is unset or empty, and saying how to set them."""
    missing = [name for name in names if not _raw(name)]
    if missing:
        raise ImproperlyConfiguredEnv(
            f"{why}, and these settings are missing: {', '.join(missing)}. Set each in the environment, or the "
            f"path of a file holding it in NAME_FILE (docs/running/configuration.md). {hint}".rstrip()
        )


def database_from_url(url: str, base_dir: Path, *, behind_pgbouncer: bool = False) -> dict:
    """A Django DATABASES entry from `postgres://user:pass@host:port/name?sslmode=require` (parsed by
    dj-database-url: its query options are kept) or `sqlite:///path`. Either is wrapped by django-prometheus's
    backend, which counts queries and errors for /metrics; PostgreSQL's by the site's own (sh_site/postgresql), which
    keeps a statement within the parameters PostgreSQL takes."""
    parts = urlsplit(url)
    if parts.scheme == "sqlite":
        path = unquote(parts.path[1:]) if parts.path.startswith("/") else parts.path
        name = Path(path) if path else base_dir / "db.sqlite3"
        return {
            "ENGINE": "django_prometheus.db.backends.sqlite3",
            "NAME": name if name.is_absolute() else base_dir / name,
            # Each test process's own, in memory: pytest-xdist's workers would otherwise get a file named after
            # NAME, which pytest-django makes a path no folder holds for a backend other than Django's own.
            "TEST": {"NAME": ":memory:"},
            # WAL and a busy timeout let the web server, a worker and beat write to one file.
            "OPTIONS": {
                "timeout": 20,
                "transaction_mode": "IMMEDIATE",
                "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
            },
        }
    if parts.scheme in ("postgres", "postgresql", "pgsql"):
        # Connections kept a minute and checked before reuse: a database restart costs no request an error.
        # Through PgBouncer in transaction pooling mode a server-side cursor would outlive its transaction.
        entry = dj_database_url.parse(
            url, conn_max_age=60, conn_health_checks=True, disable_server_side_cursors=behind_pgbouncer
        )
        entry["ENGINE"] = "sh_site.postgresql"
        if not behind_pgbouncer:
            # Parameters bound by the server, and a query prepared from its second run on a connection: a page asks
            # the same queries every time, and planning a short query can cost more than running it. Not through
            # PgBouncer in transaction mode: a prepared statement lives in one server connection, which PgBouncer
            # hands to another client after each transaction.
            entry["OPTIONS"] = {**entry.get("OPTIONS", {}), "server_side_binding": True, "prepare_threshold": 2}
        return entry
    raise ImproperlyConfiguredEnv(f"DATABASE_URL: unsupported scheme {parts.scheme!r} (use postgres:// or sqlite:///)")
