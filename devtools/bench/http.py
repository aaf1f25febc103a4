"""The load benchmarks' HTTP side: the site served by gunicorn on a free port, and a small asyncio client.

The clients are coroutines in one process, each waiting for its answer as a browser does (a request at a time,
a new connection each: gunicorn's sync workers close it after every answer). One event loop costs the machine
far less than a thread per client, so the cores go to the server being measured. The client speaks just enough
HTTP/1.1 for this: a request line, headers, a form body; the status line and the body read to the end.
"""

import asyncio
import os
import secrets
import socket
import statistics
import subprocess
import sys
import time
import urllib.parse
from collections.abc import Callable
from pathlib import Path

from django.conf import settings
from django.core.management.base import CommandError
from django.db import connections
from django.test import Client

ROOT = Path(__file__).resolve().parents[2]


class BrowserClient:
    """One player's browser, reduced to what a page or a move needs: a session cookie per user, a CSRF secret,
    one request at a time. Subclasses define `async step()`, one thing a player does."""

    def __init__(self, port: int, sessions: dict[str, str]):
        self.port, self.sessions = port, sessions
        self.csrf = secrets.token_hex(16)  # 32 characters: a secret Django accepts as the token itself
        self.latencies: list[float] = []
        self.errors = 0

    async def post(self, path: str, fields: dict, as_user: str) -> int:
        return await self.request("POST", path, as_user, urllib.parse.urlencode(fields))

    async def get(self, path: str, as_user: str | None) -> int:
        return await self.request("GET", path, as_user)

    async def read(self, path: str, as_user: str | None) -> tuple[int, dict, bytes]:
        """A page as `as_user` (None: an anonymous reader, no cookie at all): status, headers and body."""
        return await self.fetch("GET", path, self.headers(as_user))

    async def request(self, method: str, path: str, as_user: str | None, body: str | None = None) -> int:
        """One request as `as_user` (signed in, with a CSRF token); its status, or 0 when the connection failed."""
        headers = self.headers(as_user)
        payload = (body or "").encode()
        if body is not None:
            headers += ["Content-Type: application/x-www-form-urlencoded", f"Content-Length: {len(payload)}"]
        status, _headers = await self.exchange(method, path, headers, payload)
        return status

    def headers(self, as_user: str | None) -> list[str]:
        if as_user is None:
            return []
        cookies = f"{settings.SESSION_COOKIE_NAME}={self.sessions[as_user]}; {settings.CSRF_COOKIE_NAME}={self.csrf}"
        return [f"Cookie: {cookies}", f"X-CSRFToken: {self.csrf}"]

    async def exchange(self, method: str, path: str, headers: list[str], payload: bytes = b"") -> tuple[int, dict]:
        """One request with these header lines; its status and response headers (lower-case names), its time
        kept when it is answered. A connection that fails counts as an error and answers (0, {})."""
        status, headers, _body = await self.fetch(method, path, headers, payload)
        return status, headers

    async def fetch(self, method: str, path: str, headers: list[str], payload: bytes = b"") -> tuple[int, dict, bytes]:
        """As `exchange`, with the response's body as well."""
        lines = [f"{method} {path} HTTP/1.1", "Host: 127.0.0.1", "Connection: close", *headers]
        started = time.perf_counter()
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", self.port)
            try:
                writer.write("\r\n".join(lines).encode() + b"\r\n\r\n" + payload)
                answer = await asyncio.wait_for(reader.read(), 30)  # to the server's close
            finally:
                writer.close()
            raw_head, _separator, body = answer.partition(b"\r\n\r\n")
            head = raw_head.decode("latin-1").split("\r\n")
            status = int(head[0].split()[1])
        except (TimeoutError, OSError, IndexError, ValueError):
            self.errors += 1
            return 0, {}, b""
        self.latencies.append(time.perf_counter() - started)
        fields = dict(line.split(":", 1) for line in head[1:] if ":" in line)
        return status, {name.strip().lower(): value.strip() for name, value in fields.items()}, body


FORM_FIELD = {"vote": "vote", "discard": "policy", "enact": "policy", "veto_reply": "accept"}


def move_form(state, action) -> dict:
    """The fields of the panel's form that makes `action` (an engine Action) for the step under way."""
    fields = {"type": action.type, "step_number": state.step_number, "confirmed": "yes"}
    if action.target is not None:
        fields["target"] = state.seats[action.target].name
    if action.type in FORM_FIELD:
        choice = action.choice
        fields[FORM_FIELD[action.type]] = ("yes" if choice else "no") if action.type == "veto_reply" else choice
    return fields


def signed_in_sessions(users) -> dict[str, str]:
    """A signed-in session for each user, as its cookie's value, by user name."""
    cookies = {}
    for user in users:
        client = Client()
        client.force_login(user)
        cookies[user.get_username()] = client.cookies[settings.SESSION_COOKIE_NAME].value
    return cookies


def run(clients: int, seconds: float, make) -> dict:
    """`clients` clients (`make(i)`) each repeating its step for `seconds`, all at once; their figures."""
    return alternate(clients, seconds, {"only": make}, rounds=1)["only"]


def alternate(clients: int, seconds: float, makers: dict[str, Callable], *, rounds: int = 2) -> dict[str, dict]:
    """Each kind of client (`makers`, name -> make) in turn, `clients` at once, for `seconds / rounds`, the whole
    turn `rounds` times: a figure and its limit share the machine's quieter and busier moments, as the engine's
    benchmark alternates its halves. The clients are made once and keep what they know between turns."""
    crowds = {name: [make(i) for i in range(clients)] for name, make in makers.items()}
    elapsed = dict.fromkeys(crowds, 0.0)
    for _ in range(rounds):
        for name, workers in crowds.items():
            elapsed[name] += _drive(workers, seconds / rounds)
    return {name: _figures(workers, elapsed[name]) for name, workers in crowds.items()}


def _drive(workers: list, seconds: float) -> float:
    async def loop(worker, stop: float):
        while time.perf_counter() < stop:
            await worker.step()

    async def all_of_them():
        stop = time.perf_counter() + seconds
        await asyncio.gather(*(loop(worker, stop) for worker in workers))

    started = time.perf_counter()
    asyncio.run(all_of_them())
    return time.perf_counter() - started


def _figures(workers: list, elapsed: float) -> dict:
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


def database_url(db: dict | None = None) -> str:
    """The URL of a Django database entry (by default the one this process uses now: in a test, the test's)."""
    db = db or connections["default"].settings_dict
    if db["ENGINE"].endswith("sqlite3"):
        return f"sqlite:///{db['NAME']}"
    return f"postgres://{db['USER']}:{db['PASSWORD']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


def gunicorn(port: int, workers: int) -> subprocess.Popen:
    env = {
        **os.environ,
        "DEBUG": "0",
        "SECRET_KEY": settings.SECRET_KEY,  # the sessions made here are signed with it
        "ALLOWED_HOSTS": "127.0.0.1",
        "SITE_URL": "http://127.0.0.1",
        "SECURE_SSL_REDIRECT": "0",
        "DEVTOOLS": "1",
        "BENCH_VIEWS": "1",
        "DATABASE_URL": database_url(),
    }
    gunicorn = Path(sys.executable).with_name("gunicorn")
    command = [str(gunicorn), "sh_site.wsgi", "-w", str(workers), "-b", f"127.0.0.1:{port}", "--log-level", "warning"]
    return subprocess.Popen(command, cwd=ROOT, env=env)


def wait_for(port: int, sessions: dict[str, str]) -> None:
    """Until the server answers, then a few seconds of signed-in bare pages so that every worker has loaded the site
    and opened its database connection before the clock starts (a first request costs seconds)."""
    for _ in range(100):
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                break
        except OSError:
            time.sleep(0.1)
    else:
        raise CommandError("gunicorn did not start")
    user = next(iter(sessions))
    run(8, 3.0, lambda i: _Warmer(port, sessions, user))


class _Warmer(BrowserClient):
    def __init__(self, port, sessions, user):
        super().__init__(port, sessions)
        self.user = user

    async def step(self) -> None:
        await self.get("/bench/bare/", self.user)
