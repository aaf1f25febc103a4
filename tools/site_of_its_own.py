"""What the screenshot tools share: the site on a database of its own (SQLite in a temporary folder, development
mode, no Redis), its development server on a free port of localhost, and Debian's Chromium headless."""

import os
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "docs" / "screenshots"
CHROMIUM = {"executable_path": "/usr/bin/chromium", "args": ["--no-sandbox", "--disable-gpu", "--no-first-run"]}


def set_up(prefix: str, **environment: str) -> Path:
    """Django set up on a new SQLite database, migrated, with `environment` besides: the folder it lives in."""
    folder = Path(tempfile.mkdtemp(prefix=prefix))
    os.environ.update({
        "DJANGO_SETTINGS_MODULE": "sh_site.settings", "DEBUG": "1", "DEVTOOLS": "1", "REDIS_URL": "",
        "DJANGO_ALLOW_ASYNC_UNSAFE": "true",  # Playwright's sync API runs an event loop in this thread
        "DATABASE_URL": f"sqlite:///{folder}/db.sqlite3", **environment,
    })  # fmt: skip
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    return folder


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextmanager
def serving() -> Iterator[int]:
    """The development server on a free port until the block ends: the port."""
    port = free_port()
    server = subprocess.Popen([sys.executable, "manage.py", "runserver", f"127.0.0.1:{port}", "--noreload"], cwd=ROOT,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # fmt: skip
    try:
        _wait_for(port)
        yield port
    finally:
        server.terminate()
        server.wait()


def _wait_for(port: int) -> None:
    for _ in range(100):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError("the development server did not start")
