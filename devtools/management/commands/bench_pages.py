"""`manage.py bench_pages [--clients 20] [--seconds 15]`: the pages players keep opening, under concurrent load
through gunicorn (4 workers) on PostgreSQL, each beside the limit measured in the same run on the same server.

The pages: the last page of a 1,000-post thread (read by a signed-in spectator), the lobby with 500 games listed
(open, running and finished), and a player's own page of a game (the thread with their private panel). The limit:
a bare view rendering a static template for a signed-in user, with the same middleware. Each page is asked for
by `--clients` concurrent clients (coroutines of a small asyncio client, devtools/bench/http.py) for
`--seconds` in all: the pages and the limit take turns, half the seconds each, twice, so that they share the
machine's quieter and busier moments; requests per second, p50 and p95, errors, and the share of the limit
are printed as one JSON line.
Creates and deletes what it measures. Needs PostgreSQL. Not a test.
"""

import json

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import connection

from devtools.bench import game_with_thread
from devtools.bench.http import BrowserClient, alternate, free_port, gunicorn, signed_in_sessions, wait_for
from games.models import Game
from games.services import create_game
from games.services.transfer import import_script

MARK = "bench_pages"
PREFIX = "bench-pages-"
TARGET_SHARE = 0.3


class _Reader(BrowserClient):
    def __init__(self, port, sessions, path, user):
        super().__init__(port, sessions)
        self.path, self.user = path, user

    async def step(self) -> None:
        if await self.get(self.path, self.user) != 200:
            self.errors += 1


class Command(BaseCommand):
    help = "Measure the thread, the lobby and a player's page under concurrent load, beside a static page."

    def add_arguments(self, parser):
        parser.add_argument("--clients", type=int, default=20)
        parser.add_argument("--seconds", type=float, default=15.0)
        parser.add_argument("--workers", type=int, default=4)
        parser.add_argument("--lobby-games", type=int, default=500)

    def handle(self, *args, clients, seconds, workers, lobby_games, **options):
        if connection.vendor != "postgresql":
            raise CommandError("bench_pages measures PostgreSQL: set DATABASE_URL (make bench-pages does)")
        try:
            pages = self._world(lobby_games)
            sessions = signed_in_sessions(get_user_model().objects.filter(username__startswith=PREFIX))
            port = free_port()
            server = gunicorn(port, workers)
            try:
                wait_for(port, sessions)
                readers = {
                    name: lambda i, path=path, user=user: _Reader(port, sessions, path, user)
                    for name, (path, user) in pages.items()
                }
                results = alternate(clients, seconds, readers)
            finally:
                server.terminate()
                server.wait(10)
        finally:
            Game.objects.filter(name=MARK).delete()
            get_user_model().objects.filter(username__startswith=PREFIX).delete()
        limit = results.pop("limit_static_page")["per_second"]
        for result in results.values():
            result["share_of_limit"] = round(result["per_second"] / limit, 3)
        self.stdout.write(json.dumps({"clients": clients, "workers": workers, "limit_per_second": limit,
                                      "target_share": TARGET_SHARE, **results}))  # fmt: skip

    def _world(self, lobby_games: int) -> dict[str, tuple[str, str]]:
        """The pages to ask for, each with who asks: path and user name."""
        players = [f"{PREFIX}{seat}" for seat in range(5)]
        thread = game_with_thread(players, 1000, MARK)
        reader = get_user_model().objects.create_user(f"{PREFIX}reader")
        creator = get_user_model().objects.get(username=players[0])
        for number in range(lobby_games):  # a third open, a third running, a third finished
            if number % 3 == 0:
                create_game(creator, name=MARK, player_count=7)
            else:
                names = [f"{PREFIX}{number}-{seat}" for seat in range(5)]
                game = import_script({"players": names, "seed": number, "actions": []}, name=MARK)
                if number % 3 == 2:
                    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED, winner="liberal")
        panel = import_script({"players": players, "seed": 1, "actions": []}, name=MARK)
        return {
            "thread_1000_posts_last_page": (f"/games/{thread.pk}/?page=40", reader.get_username()),
            "lobby_500_games": ("/", reader.get_username()),
            "players_page_with_panel": (f"/games/{panel.pk}/", players[0]),
            "limit_static_page": ("/bench/static/", reader.get_username()),
        }
