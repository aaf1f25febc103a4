"""`manage.py bench_moves [--games 200] [--clients 8] [--seconds 30]`: moves per second through HTTP, as players
make them, against gunicorn (4 workers) on PostgreSQL; and, in the same run on the same server, the limit.

Creates `--games` running 5-player games (their players signed in: one session each), starts gunicorn on a free
port with the site's whole middleware, and runs `--clients` concurrent clients (coroutines of a small asyncio
client, devtools/bench/http.py: a client waits for its answer as a player's browser does). Each client
owns its share of the games and keeps each one's state as its players see the table: the state read once before
the clock starts, then every move the server accepted applied to it (the engine is deterministic, so the copy
is the server's). It picks a game, uniformly one of the seats that owe a move and one of that seat's legal moves
(`legal_actions`), and POSTs it to /games/N/move/ with the step number it was made for, confirmed, as that seat's
player, with that session's CSRF token. An answer other than the redirect of a made move is an error. After the
clock, every game's stored state and move count must be the client's copy and count: a move answered but not
made, or made twice, is an error too. The limit: as many clients POST to a bare view that updates one row in one
transaction, signed in, on the same server (devtools/views.py); moves and limit take turns, half the seconds
each, twice (devtools/bench/http.py `alternate`). Prints one JSON line: moves per second, p50/p95/p99 latency and
errors, and the limit's. Deletes what it made. Needs PostgreSQL (DATABASE_URL). A figure for docs/measurements.md, not a
test.
"""

import json
import random

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import connection

from devtools.bench.http import (
    BrowserClient,
    alternate,
    free_port,
    gunicorn,
    move_form,
    signed_in_sessions,
    wait_for,
)
from games.engine import apply, codec, legal_actions, waiting_for
from games.models import Game
from games.services.transfer import import_script

MARK = "bench_moves"


class Command(BaseCommand):
    help = "Measure moves per second through HTTP against gunicorn, beside a bare one-row write (PostgreSQL)."

    def add_arguments(self, parser):
        parser.add_argument("--games", type=int, default=200)
        parser.add_argument("--clients", type=int, default=8)
        parser.add_argument("--seconds", type=float, default=30.0)
        parser.add_argument("--workers", type=int, default=4)

    def handle(self, *args, games, clients, seconds, workers, **options):
        if connection.vendor != "postgresql":
            raise CommandError("bench_moves measures PostgreSQL: set DATABASE_URL (make bench-moves does)")
        made = self._games(games)
        sessions = signed_in_sessions(get_user_model().objects.filter(username__startswith="bench-moves-"))
        port = free_port()
        server = gunicorn(port, workers)
        try:
            wait_for(port, sessions)
            shares = [made[i::clients] for i in range(clients)]
            movers = [_Mover(port, shares[i], sessions, seed=i) for i in range(clients)]
            figures = alternate(
                clients, seconds, {"moves": lambda i: movers[i], "limit": lambda i: _Writer(port, made[i], sessions)}
            )
            moves, limit = figures["moves"], figures["limit"]
            moves["errors"] += sum(mover.mismatches() for mover in movers)
        finally:
            server.terminate()
            server.wait(10)
            Game.objects.filter(name=MARK).delete()
            get_user_model().objects.filter(username__startswith="bench-moves-").delete()
        self.stdout.write(json.dumps({"games": games, "clients": clients, "workers": workers, "moves": moves,
                                      "limit_one_row_write": limit,
                                      "moves_share_of_limit": round(moves["per_second"] / limit["per_second"], 3),
                                      "target_share": 0.5, "database": connection.vendor}))  # fmt: skip

    def _games(self, count: int) -> list[Game]:
        made = []
        for number in range(count):
            players = [f"bench-moves-{number}-{seat}" for seat in range(5)]
            made.append(import_script({"players": players, "seed": number, "actions": []}, name=MARK))
        return made


class _Mover(BrowserClient):
    def __init__(self, port, games, sessions, seed):
        super().__init__(port, sessions)
        self.random = random.Random(seed)
        self.games = {game.pk: game.load_state() for game in games}  # each game's table, kept up to date
        self.started, self.made = {game.pk: game.action_count for game in games}, dict.fromkeys(self.games, 0)

    async def step(self) -> None:
        playing = [pk for pk, state in self.games.items() if not state.over]
        if not playing:
            raise CommandError("every game ended: run fewer seconds or more games")
        pk = self.random.choice(playing)
        state = self.games[pk]
        seat = self.random.choice(waiting_for(state))
        action = self.random.choice(legal_actions(state, seat))
        if await self.post(f"/games/{pk}/move/", move_form(state, action), state.seats[seat].name) != 302:
            self.errors += 1
            return
        apply(state, action)
        state.events.clear()
        self.made[pk] += 1

    def mismatches(self) -> int:
        """The games whose stored state or move count is not this client's copy (checked after the clock)."""
        stored = Game.objects.in_bulk(list(self.games))
        return sum(
            1
            for pk, state in self.games.items()
            if codec.encode(stored[pk].load_state()) != codec.encode(state)
            or stored[pk].action_count != self.started[pk] + self.made[pk]
        )


class _Writer(BrowserClient):
    def __init__(self, port, game, sessions):
        super().__init__(port, sessions)
        self.game, self.player = game, game.seats.first().name

    async def step(self) -> None:
        if await self.post(f"/bench/write/{self.game.pk}/", {}, self.player) != 204:
            self.errors += 1
