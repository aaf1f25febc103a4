"""Running the project in other processes, as a worker or a second server would, against the test database."""

import os
import subprocess
import sys
from pathlib import Path

from devtools.chaos.services import database_url

ROOT = Path(__file__).resolve().parents[2]


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
