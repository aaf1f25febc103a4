"""`manage.py bench_thread [--posts 1000]`: how long the last page of a long game thread takes to render.

Creates a game with that many posts, renders its last page through the whole Django stack (test client,
signed in as a player) repeatedly, prints the median and the queries per render as one JSON line, and
deletes what it made. A figure for docs/measurements.md, not a test.
"""

import json
import statistics
import time

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from devtools.bench import game_with_thread
from games.models import Game

PLAYERS = [f"bench-thread-{i}" for i in range(1, 6)]
MARK = "bench_thread"


class Command(BaseCommand):
    help = "Measure the render time of the last page of a long thread (creates and deletes its own game)."

    def add_arguments(self, parser):
        parser.add_argument("--posts", type=int, default=1000)
        parser.add_argument("--renders", type=int, default=30)

    def handle(self, *args, posts, renders, **options):
        try:
            game = self._game(posts)
            client = Client(SERVER_NAME="127.0.0.1")
            client.force_login(get_user_model().objects.get(username=PLAYERS[0]))
            url = f"/games/{game.pk}/?page={-(-posts // 25)}"
            client.get(url)  # warm the template cache
            timings = []
            for _ in range(renders):
                with CaptureQueriesContext(connection) as queries:
                    started = time.perf_counter()
                    response = client.get(url)
                    timings.append(time.perf_counter() - started)
                assert response.status_code == 200
        finally:
            Game.objects.filter(name=MARK).delete()
            get_user_model().objects.filter(username__in=PLAYERS).delete()
        result = {
            "posts": posts,
            "median_ms": round(statistics.median(timings) * 1000, 1),
            "max_ms": round(max(timings) * 1000, 1),
            "queries": len(queries),
            "database": connection.vendor,
        }
        self.stdout.write(json.dumps(result))

    def _game(self, count: int) -> Game:
        return game_with_thread(PLAYERS, count, MARK)
