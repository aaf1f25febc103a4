"""`manage.py bench_engine`: complete random games per second, for 5, 7 and 10 players, on one core; and what
storing a state costs beside making a move.

Random legal play (games.engine.random_move) from a fresh game to its end, with the public event log kept,
as the engine runs inside the site. Then, over whole random games, each move's `apply` is timed alone, and so
is the codec's round trip of the state it leaves (the stored JSON text to a GameState and back, as the site
loads a game before a move and stores it after): both medians, their ratio and its limit (2) are printed.
Figures to measure and write in docs/measurements.md, not a test.
"""

import json
import random
import statistics
import time
from types import ModuleType

from django.core.management.base import BaseCommand

from devtools import engine_before
from games.engine import apply, codec, new_game, random_move

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


PASS_LINE = 3.0  # the legal-moves driver at least this many times the engine before the speed-up (issue 14)


def legal_moves_driver(engine, players: int, seconds: float, seed: int, *, by_seat: bool) -> float:
    """Complete games per second played as any client drives the engine: at each step one of the seats that owe
    a move (a seat that has cast its ballot no longer owes one) is picked uniformly, its legal moves listed, one
    of them picked uniformly and applied, to the end. `by_seat`: the engine lists one seat's moves itself (the
    engine before could only list everyone's, which the driver then filtered)."""
    uniform, names = random.Random(seed).random, NAMES[:players]  # a uniform pick: items[int(uniform() * len)]
    owing, legal, apply_move = engine.waiting_for, engine.legal_actions, engine.apply
    games = 0
    started = time.perf_counter()
    deadline = started + seconds
    while time.perf_counter() < deadline:
        g = engine.new_game(names, seed=seed + games)
        while not g.over:
            seats = owing(g)
            seat = seats[int(uniform() * len(seats))]
            moves = legal(g, seat) if by_seat else [move for move in legal(g) if move.by == seat]
            apply_move(g, moves[int(uniform() * len(moves))])
        games += 1
    return games / (time.perf_counter() - started)


def driver_against_before(engine_then: ModuleType | None, players: int, seconds: float, seed: int) -> dict:
    """The legal-moves driver on today's engine and on the engine before (`engine_then`, read from git by
    devtools/engine_before.py), in the same run, alternating halves so that neither gets the quieter moments.
    Today's alone when `engine_then` is None (git or the commit unavailable)."""
    import games.engine as engine_now

    def driver(engine: ModuleType, *, by_seat: bool) -> float:
        halves = (legal_moves_driver(engine, players, seconds / 2, seed + half, by_seat=by_seat) for half in (0, 1))
        return sum(halves) / 2

    if engine_then is None:
        return {
            "players": players,
            "driver": "legal-moves",
            "games_per_second": round(driver(engine_now, by_seat=True), 1),
        }
    before = driver(engine_then, by_seat=False)
    now = driver(engine_now, by_seat=True)
    return {
        "players": players,
        "driver": "legal-moves",
        "before_games_per_second": round(before, 1),
        "games_per_second": round(now, 1),
        "ratio": round(now / before, 2),
        "pass_line": PASS_LINE,
    }


CODEC_LIMIT = 2.0  # the codec's round trip may cost at most twice the median move


def codec_vs_apply(players: int, games: int, seed: int) -> dict:
    """Medians over every move of `games` whole random games: `apply` alone, and decode + encode of the state."""
    rnd = random.Random(seed)
    names = NAMES[:players]
    applies, trips = [], []
    clock = time.perf_counter
    for number in range(games):
        g = new_game(names, seed=seed + number)
        while not g.over:
            move = random_move(g, rnd)
            started = clock()
            apply(g, move)
            applies.append(clock() - started)
            g.events.clear()  # the site keeps the log in its own rows, not in the stored state
            started = clock()
            codec.decode(codec.encode(g), g.settings)
            trips.append(clock() - started)
    apply_median, codec_median = statistics.median(applies), statistics.median(trips)
    return {
        "players": players,
        "moves": len(applies),
        "apply_median_us": round(apply_median * 1e6, 2),
        "codec_round_trip_median_us": round(codec_median * 1e6, 2),
        "ratio": round(codec_median / apply_median, 2),
        "limit": CODEC_LIMIT,
    }


class Command(BaseCommand):
    help = "Measure complete random games per second for 5, 7 and 10 players (one core)."
    requires_system_checks = []
    requires_migrations_checks = False

    def add_arguments(self, parser):
        parser.add_argument("--seconds", type=float, default=5.0, help="time per player count (default 5)")
        parser.add_argument("--players", type=int, nargs="+", default=[5, 7, 10], choices=range(5, 11))
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--codec-games", type=int, default=300, help="whole games timed move by move")

    def handle(self, *args, seconds, players, seed, codec_games, **options):
        for count in players:
            self.stdout.write(json.dumps(bench(count, seconds, seed)))
        try:
            before = engine_before.load()
        except engine_before.EngineBeforeUnavailable as error:
            self.stderr.write(f"The engine before is unavailable, today's engine measured alone: {error}")
            before = None
        for count in players:
            self.stdout.write(json.dumps(driver_against_before(before, count, seconds, seed)))
        for count in players:
            self.stdout.write(json.dumps(codec_vs_apply(count, codec_games, seed)))
