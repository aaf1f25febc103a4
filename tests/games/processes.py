"""Running the project in other processes, as a worker or a second server would, against the test database."""

import os
import subprocess
import sys
from pathlib import Path

from django.db import connection

ROOT = Path(__file__).resolve().parents[2]


def database_url() -> str:
    """The URL of the database the tests use now (pytest-django's test database)."""
    db = connection.settings_dict
    if db["ENGINE"].endswith("sqlite3"):
        return f"sqlite:///{db['NAME']}"
    return f"postgres://{db['USER']}:{db['PASSWORD']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


def environment(**extra: str) -> dict:
    env = {key: value for key, value in os.environ.items() if key not in ("DJANGO_SETTINGS_MODULE",)}
    env.update(DATABASE_URL=database_url(), DJANGO_SETTINGS_MODULE="sh_site.settings", PYTHONPATH=str(ROOT))
    env.update(extra)
    return env


def python(code: str, **extra: str) -> subprocess.CompletedProcess:
    """Run `code` in a fresh interpreter with Django set up."""
    prelude = "import django; django.setup()\n"
    return subprocess.run(
        [sys.executable, "-c", prelude + code],
        cwd=ROOT,
        env=environment(**extra),
        capture_output=True,
        text=True,
        timeout=120,
    )
