"""Is a service up? `python -m tests.services postgres URL` / `redis URL` exits 0 when it answers. And the
loopback servers the tests start: on free ports, so that tests running at once on several cores never share one.

Used by the Makefile and the test suite; needs nothing but the standard library.
"""

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
    kind, url = sys.argv[1], sys.argv[2]
    sys.exit(0 if answers(url, DEFAULT_PORTS[kind]) else 1)
