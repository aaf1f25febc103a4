"""`manage.py bench_engine`: complete random games per second, for 5, 7 and 10 players, on one core.

Random legal play (games.engine.random_move) from a fresh game to its end, with the public event log kept,
as the engine runs inside the site. A figure to measure and write in the README, not a test.
"""

import json
import random
import time

from django.core.management.base import BaseCommand

from games.engine import apply, new_game, random_move

NAMES = ["ann", "bob", "cat", "dan", "eve", "fay", "gus", "hal", "ivy", "joe"]


def bench(players: int, seconds: float, seed: int) -> dict:
    rnd = random.Random(seed)
    names = NAMES[:players]
    games = moves = 0
    started = time.perf_counter()
    deadline = started + seconds
    while time.perf_counter() < deadline:
        g = new_game(names, seed=seed + games)
        while not g.over:
            apply(g, random_move(g, rnd))
            moves += 1
        games += 1
    elapsed = time.perf_counter() - started
    return {
        "players": players,
        "games": games,
        "seconds": round(elapsed, 3),
        "games_per_second": round(games / elapsed, 1),
        "moves_per_game": round(moves / games, 1),
    }


class Command(BaseCommand):
    help = "Measure complete random games per second for 5, 7 and 10 players (one core)."
    requires_system_checks = []
    requires_migrations_checks = False

    def add_arguments(self, parser):
        parser.add_argument("--seconds", type=float, default=5.0, help="time per player count (default 5)")
        parser.add_argument("--players", type=int, nargs="+", default=[5, 7, 10], choices=range(5, 11))
        parser.add_argument("--seed", type=int, default=1)

    def handle(self, *args, seconds, players, seed, **options):
        for count in players:
            self.stdout.write(json.dumps(bench(count, seconds, seed)))
