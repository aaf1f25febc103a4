"""`manage.py bench_follow [--followers 200] [--seconds 15]`: a game followed through the API by many bridges at
once, against gunicorn (4 workers) on PostgreSQL.

Each follower is a coroutine of the benchmarks' asyncio client that asks, again and again, for the public events
after the last one it has (`GET /api/v1/games/N/events?after=INDEX`), as a bridge or a bot that polls does. Two
phases on the same server: without `If-None-Match` (every answer a 200, the list after the cursor), then with the
ETag of the last answer (nothing new: a 304 with no body). Prints reads per second, p50 and p95 of each, and
errors (a status other than the one expected). Each gunicorn worker keeps one database connection (CONN_MAX_AGE),
so 200 followers never ask PostgreSQL (which allows 100) for more than 4. Creates and deletes what it measures.
"""

import json

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import connection

from devtools.bench.http import BrowserClient, free_port, gunicorn, run, signed_in_sessions, wait_for
from games.models import Game, GameEvent
from games.services.transfer import import_script

MARK = "bench_follow"
PLAYERS = [f"bench-follow-{i}" for i in range(5)]


class _Follower(BrowserClient):
    def __init__(self, port: int, game_id: int, cursor: int, *, conditional: bool):
        super().__init__(port, {})
        self.path, self.cursor, self.conditional, self.etag = f"/api/v1/games/{game_id}/events", cursor, conditional, ""
        self.not_modified = 0

    async def step(self) -> None:
        headers = [f"If-None-Match: {self.etag}"] if self.conditional and self.etag else []
        status, answer = await self.exchange("GET", f"{self.path}?after={self.cursor}", headers)
        if status == 0:
            return  # counted as an error
        self.etag = answer.get("etag", self.etag)
        if status != 200 and not (status == 304 and self.conditional):
            self.errors += 1
        elif status == 304:
            self.not_modified += 1


class Command(BaseCommand):
    help = "Measure events-after-cursor reads per second by many concurrent followers, and what a 304 costs."

    def add_arguments(self, parser):
        parser.add_argument("--followers", type=int, default=200)
        parser.add_argument("--seconds", type=float, default=15.0)
        parser.add_argument("--workers", type=int, default=4)

    def handle(self, *args, followers, seconds, workers, **options):
        if connection.vendor != "postgresql":
            raise CommandError("bench_follow measures PostgreSQL: set DATABASE_URL (make bench-follow does)")
        try:
            script = {"players": PLAYERS, "seed": 7, "actions": [{"type": "timeout"}] * 6}
            game = import_script(script, name=MARK)
            last = GameEvent.objects.filter(game=game).order_by("-index").values_list("index", flat=True).first()
            sessions = signed_in_sessions(get_user_model().objects.filter(username__in=PLAYERS[:1]))
            port = free_port()
            server = gunicorn(port, workers)
            try:
                wait_for(port, sessions)
                results = {}
                for name, conditional in (("reads_200", False), ("reads_304", True)):
                    followers_of = [
                        _Follower(port, game.pk, last - 5, conditional=conditional) for _ in range(followers)
                    ]
                    results[name] = run(followers, seconds, lambda i, made=followers_of: made[i])
                    results[name]["not_modified"] = sum(follower.not_modified for follower in followers_of)
            finally:
                server.terminate()
                server.wait(10)
        finally:
            Game.objects.filter(name=MARK).delete()
            get_user_model().objects.filter(username__in=PLAYERS).delete()
        self.stdout.write(json.dumps({"followers": followers, "workers": workers, "events": last, **results}))
