"""`manage.py bench_live [--posts 1000] [--polls 300]`: what a game's page left open costs the server.

Serves the site over HTTP on a free local port (Django's WSGI server, the whole middleware stack),
signs a player in, and asks for a thread's last page the way the page's script does: `X-Live: 1` with the
ETag it holds. Measures the "nothing new" answer (a 304) and the answer when something changed (a 200: one
post is made between asks), each with its latency and the SQL queries the server ran for it. Prints one JSON
line, with what an open page costs per minute at the setting LIVE_POLL_SECONDS. Creates and deletes its own game.
A figure for docs/measurements.md, not a test.
"""

import http.client
import json
import statistics
import threading
import time

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.handlers.wsgi import WSGIHandler
from django.core.management.base import BaseCommand
from django.core.servers.basehttp import WSGIRequestHandler, WSGIServer
from django.db import connection
from django.test import Client, override_settings

from devtools.bench import game_with_thread
from games.models import Game
from games.services.forum import post_message

PLAYERS = [f"bench-live-{i}" for i in range(1, 6)]
MARK = "bench_live"


class QuietHandler(WSGIRequestHandler):
    def log_message(self, *args):
        pass


class Counted:
    """The site's WSGI application, counting the SQL queries of each request in the thread that serves it."""

    def __init__(self):
        self.app = WSGIHandler()
        self.queries: list[int] = []

    def __call__(self, environ, start_response):
        count = 0

        def counter(execute, sql, params, many, context):
            nonlocal count
            count += 1
            return execute(sql, params, many, context)

        with connection.execute_wrapper(counter):
            body = b"".join(self.app(environ, start_response))
        self.queries.append(count)
        return [body]


class Command(BaseCommand):
    help = "Measure what a live game page costs the server per minute (creates and deletes its own game)."

    def add_arguments(self, parser):
        parser.add_argument("--posts", type=int, default=1000)
        parser.add_argument("--polls", type=int, default=300)

    def handle(self, *args, posts, polls, **options):
        app = Counted()
        # One serving thread, as a gunicorn sync worker: its database connection is kept (CONN_MAX_AGE).
        server = WSGIServer(("127.0.0.1", 0), QuietHandler, allow_reuse_address=True)
        server.set_app(app)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        try:
            game = self._game(posts)
            url = f"/games/{game.pk}/?page={-(-posts // 25)}"
            cookie = self._session_cookie()
            ask = _Asker(server.server_address[1], url, cookie)
            ask(None)  # warm the templates
            unchanged, changed = [], []
            for n in range(polls):
                tag = ask.tag
                started = time.perf_counter()
                status = ask(tag)
                unchanged.append((time.perf_counter() - started, app.queries[-1], status))
                if n % 10 == 0:  # news: a post, then the next answer is a whole page
                    author = get_user_model().objects.get(username=PLAYERS[1 + n // 10 % 4])
                    with override_settings(POSTS_PER_MINUTE=1000, POSTS_PER_HOUR=1000):  # one author, fast
                        post_message(game.pk, author, f"news {n}")
                    started = time.perf_counter()
                    status = ask(tag)
                    changed.append((time.perf_counter() - started, app.queries[-1], status))
        finally:
            server.shutdown()
            server.server_close()
            Game.objects.filter(name=MARK).delete()
            get_user_model().objects.filter(username__in=PLAYERS).delete()
        assert {status for *_, status in unchanged} == {304}, "an unchanged page must be answered 304"
        assert {status for *_, status in changed} == {200}
        per_minute = 60 / settings.LIVE_POLL_SECONDS
        result = {
            "posts": posts,
            "polls": polls,
            "database": connection.vendor,
            "unchanged_304_median_ms": _ms(statistics.median(t for t, *_ in unchanged)),
            "unchanged_304_p95_ms": _ms(_p95([t for t, *_ in unchanged])),
            "unchanged_304_queries": max(q for _, q, _ in unchanged),
            "changed_200_median_ms": _ms(statistics.median(t for t, *_ in changed)),
            "changed_200_queries": max(q for _, q, _ in changed),
            "poll_seconds": settings.LIVE_POLL_SECONDS,
            "open_page_per_minute": {
                "requests": round(per_minute, 1),
                "server_ms_when_nothing_changes": _ms(per_minute * statistics.median(t for t, *_ in unchanged)),
                "queries_when_nothing_changes": round(per_minute * max(q for _, q, _ in unchanged), 1),
            },
        }
        self.stdout.write(json.dumps(result))

    def _game(self, count: int) -> Game:
        return game_with_thread(PLAYERS, count, MARK)

    def _session_cookie(self) -> str:
        client = Client()
        client.force_login(get_user_model().objects.get(username=PLAYERS[0]))
        return f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}"


class _Asker:
    """Asks for the page as its script does, keeping the cookies the site sets and the ETag it answers."""

    def __init__(self, port: int, url: str, cookie: str):
        self.port, self.url, self.tag = port, url, None
        self.cookies = {cookie.split("=", 1)[0]: cookie}

    def __call__(self, tag: str | None) -> int:
        connection_ = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        headers = {"X-Live": "1", "Cookie": "; ".join(self.cookies.values())}
        if tag:
            headers["If-None-Match"] = tag
        connection_.request("GET", self.url, headers=headers)
        response = connection_.getresponse()
        response.read()
        for header in response.headers.get_all("Set-Cookie") or []:
            name = header.split("=", 1)[0]
            self.cookies[name] = header.split(";", 1)[0]
        if response.status == 200:
            self.tag = response.headers["ETag"]
        connection_.close()
        return response.status


def _ms(seconds: float) -> float:
    return round(seconds * 1000, 2)


def _p95(values: list[float]) -> float:
    return sorted(values)[int(0.95 * (len(values) - 1))]
