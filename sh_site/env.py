"""Reading settings from the environment: every value has a working default, and a bad value fails loudly
at start-up rather than misbehaving later."""

import os
from pathlib import Path
from urllib.parse import unquote, urlsplit


class ImproperlyConfiguredEnv(ValueError):
    pass


def env_str(name: str, default: str) -> str:
    return os.environ.get(name, default)


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    lowered = value.strip().lower()
    if lowered in ("1", "true", "yes", "on"):
        return True
    if lowered in ("0", "false", "no", "off"):
        return False
    raise ImproperlyConfiguredEnv(f"{name} must be a boolean (1/0, true/false), not {value!r}")


def env_int(name: str, default: int) -> int:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    try:
        return int(value)
    except ValueError:
        raise ImproperlyConfiguredEnv(f"{name} must be an integer, not {value!r}") from None


def env_list(name: str, default: list[str]) -> list[str]:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    return [item.strip() for item in value.split(",") if item.strip()]


def database_from_url(url: str, base_dir: Path) -> dict:
    """A Django DATABASES entry from `postgres://user:pass@host:port/name` or `sqlite:///path`."""
    parts = urlsplit(url)
    if parts.scheme == "sqlite":
        path = unquote(parts.path[1:]) if parts.path.startswith("/") else parts.path
        name = Path(path) if path else base_dir / "db.sqlite3"
        return {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": name if name.is_absolute() else base_dir / name,
            # WAL and a busy timeout let the web server, a worker and beat write to one file.
            "OPTIONS": {
                "timeout": 20,
                "transaction_mode": "IMMEDIATE",
                "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
            },
        }
    if parts.scheme in ("postgres", "postgresql", "pgsql"):
        return {
            "ENGINE": "django.db.backends.postgresql",
            "NAME": unquote(parts.path.lstrip("/")),
            "USER": unquote(parts.username or ""),
            "PASSWORD": unquote(parts.password or ""),
            "HOST": parts.hostname or "",
            "PORT": str(parts.port or ""),
            "CONN_MAX_AGE": 60,
            "CONN_HEALTH_CHECKS": True,
        }
    raise ImproperlyConfiguredEnv(f"DATABASE_URL: unsupported scheme {parts.scheme!r} (use postgres:// or sqlite:///)")
