"""The load benchmarks' HTTP side: the site served by gunicorn on a free port, and clients that wait for each
answer as a browser does (threads, plain http.client; a request at a time each)."""

import http.client
import os
import secrets
import socket
import statistics
import subprocess
import sys
import threading
import time
import urllib.parse
from pathlib import Path

from django.conf import settings
from django.core.management.base import CommandError
from django.db import connection
from django.test import Client

ROOT = Path(__file__).resolve().parents[3]


class BrowserClient:
    """One player's browser, reduced to what a move needs: a session cookie, a CSRF secret, one request at a time."""

    def __init__(self, port: int, sessions: dict[str, str]):
        self.port, self.sessions = port, sessions
        self.csrf = secrets.token_hex(16)  # 32 characters: a secret Django accepts as the token itself
        self.latencies: list[float] = []
        self.errors = 0

    def post(self, path: str, fields: dict, as_user: str) -> int:
        return self.request("POST", path, as_user, urllib.parse.urlencode(fields))

    def get(self, path: str, as_user: str) -> int:
        return self.request("GET", path, as_user)

    def request(self, method: str, path: str, as_user: str, body: str | None = None) -> int:
        """One request as `as_user` (signed in, with a CSRF token); its time is kept when it is answered."""
        cookies = {settings.SESSION_COOKIE_NAME: self.sessions[as_user], settings.CSRF_COOKIE_NAME: self.csrf}
        headers = {
            "Cookie": "; ".join(f"{name}={value}" for name, value in cookies.items()),
            "X-CSRFToken": self.csrf,
        }
        if body is not None:
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        started = time.perf_counter()
        try:
            link = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
            link.request(method, path, body=body, headers=headers)
            response = link.getresponse()
            response.read()
            link.close()
        except OSError:
            self.errors += 1
            return 0
        self.latencies.append(time.perf_counter() - started)
        return response.status


def signed_in_sessions(users) -> dict[str, str]:
    """A signed-in session for each user, as its cookie's value, by user name."""
    cookies = {}
    for user in users:
        client = Client()
        client.force_login(user)
        cookies[user.get_username()] = client.cookies[settings.SESSION_COOKIE_NAME].value
    return cookies


def run(clients: int, seconds: float, make) -> dict:
    workers = [make(i) for i in range(clients)]
    stop = time.perf_counter() + seconds

    def loop(worker):
        try:
            while time.perf_counter() < stop:
                worker.step()
        finally:
            connection.close()

    threads = [threading.Thread(target=loop, args=(worker,)) for worker in workers]
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.perf_counter() - started
    latencies = sorted(t for worker in workers for t in worker.latencies)
    done = len(latencies)

    def percentile(p: float) -> float:
        return round(1000 * latencies[min(done - 1, int(p * done))], 1) if done else 0.0

    return {
        "requests": done,
        "per_second": round(done / elapsed, 1),
        "p50_ms": round(1000 * statistics.median(latencies), 1) if done else 0.0,
        "p95_ms": percentile(0.95),
        "p99_ms": percentile(0.99),
        "errors": sum(worker.errors for worker in workers),
    }


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def gunicorn(port: int, workers: int) -> subprocess.Popen:
    env = {
        **os.environ,
        "DEBUG": "0",
        "SECRET_KEY": settings.SECRET_KEY,  # the sessions made here are signed with it
        "ALLOWED_HOSTS": "127.0.0.1",
        "SECURE_SSL_REDIRECT": "0",
        "BENCH_VIEWS": "1",
        "DATABASE_URL": os.environ["DATABASE_URL"],
    }
    gunicorn = Path(sys.executable).with_name("gunicorn")
    command = [str(gunicorn), "sh_site.wsgi", "-w", str(workers), "-b", f"127.0.0.1:{port}", "--log-level", "warning"]
    return subprocess.Popen(command, cwd=ROOT, env=env)


def wait_for(port: int) -> None:
    for _ in range(100):
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            time.sleep(0.1)
    raise CommandError("gunicorn did not start")
