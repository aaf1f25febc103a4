"""The servers the suite runs on: `python -m tests.services DATABASE_URL REDIS_URL COMMAND...` runs COMMAND (pytest)
 on PostgreSQL and Redis where they answer, else without them. And the loopback servers the tests start:
on free ports, so that tests running at once on several cores never share one.

Used by the Makefile and the test suite; needs nothing but the standard library.
"""

import os
import socket
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit

DEFAULT_PORTS = {"postgres": 5432, "redis": 6379}


def answers(url: str, default_port: int) -> bool:
    parts = urlsplit(url)
    try:
        with socket.create_connection((parts.hostname or "127.0.0.1", parts.port or default_port), timeout=1):
            return True
    except OSError:
        return False


def suite_environment(database_url: str, redis_url: str) -> tuple[dict[str, str], list[str]]:
    """The environment the suite runs in, and what to tell whoever runs it. PostgreSQL and Redis where they answer;
    else SQLite, kombu's file broker and each process's memory, which need no server, and the tests that need one
    skip (tests/conftest.py), failing in CI. `sqlite` as the database URL asks for SQLite whatever answers: CI's
    second run, where those skips are meant (TEST_WITHOUT)."""
    environment = {"DATABASE_URL": "sqlite:///db.sqlite3", "REDIS_URL": "", "TEST_WITHOUT": ""}
    if database_url == "sqlite":
        environment["TEST_WITHOUT"] = "postgres"
        notes = ["SQLite asked for: the tests that need PostgreSQL are skipped, in CI too"]
    elif answers(database_url, DEFAULT_PORTS["postgres"]):
        environment["DATABASE_URL"] = database_url
        notes = [f"PostgreSQL answers at {database_url}: the suite runs on it"]
    else:
        notes = [
            f"PostgreSQL does not answer at {database_url}: the suite runs on SQLite, the tests that need PostgreSQL "
            "skipped"
        ]
    if answers(redis_url, DEFAULT_PORTS["redis"]):
        environment["REDIS_URL"] = redis_url
        notes.append(f"Redis answers at {redis_url}: the suite's broker and fragment cache are on it")
    else:
        notes.append(
            f"Redis does not answer at {redis_url}: the suite runs on kombu's file broker and each process's memory, "
            "the tests that need Redis skipped"
        )
    return environment, notes


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Receiver:
    """An HTTP server on a free loopback port that records what it is sent and answers `status`."""

    def __init__(self, status: int = 200, path: str = "/hook"):
        self.status, self.received = status, []
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers["Content-Length"]))
                receiver.received.append((dict(self.headers), body))
                self.send_response(receiver.status)
                if 300 <= receiver.status < 400:
                    self.send_header("Location", "http://127.0.0.1:1/elsewhere")
                self.end_headers()
                self.wfile.write(b"the receiver's own words, never kept")

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_port}{path}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()


if __name__ == "__main__":
    database, redis, *command = sys.argv[1:]
    chosen, notes = suite_environment(database, redis)
    for note in notes:
        print(f"tests: {note}", flush=True)
    os.execvpe(command[0], command, {**os.environ, **chosen})
