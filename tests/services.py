"""Is a service up? `python -m tests.services postgres URL` / `redis URL` exits 0 when it answers.

Used by the Makefile and the test suite's markers; needs nothing but the standard library.
"""

import socket
import sys
from urllib.parse import urlsplit

DEFAULT_PORTS = {"postgres": 5432, "redis": 6379}


def answers(url: str, default_port: int) -> bool:
    parts = urlsplit(url)
    try:
        with socket.create_connection((parts.hostname or "127.0.0.1", parts.port or default_port), timeout=1):
            return True
    except OSError:
        return False


if __name__ == "__main__":
    kind, url = sys.argv[1], sys.argv[2]
    sys.exit(0 if answers(url, DEFAULT_PORTS[kind]) else 1)
