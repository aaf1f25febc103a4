"""`manage.py bench_moves [--games 200] [--clients 8] [--seconds 30]`: moves per second through HTTP, as players
make them, against gunicorn (4 workers) on PostgreSQL; and, in the same run on the same server, the limit.

Creates `--games` running 5-player games (their players signed in: one session each), starts gunicorn on a free
port with the site's whole middleware, and runs `--clients` concurrent clients (threads, plain http.client: a
client waits for its answer as a player's browser does). Each client owns its share of the games: it reads a
game's state, picks uniformly one of the seats that owe a move and one of that seat's legal moves
(`legal_actions`), and POSTs it to /games/N/move/ with the step number it was made for, confirmed, as that
seat's player, with that session's CSRF token. An answer other than the redirect of a made move is an error
(a move refused counts as one: each game has one client, so none should be). Then the same clients POST to a
bare view that updates one row in one transaction, signed in, on the same server (sh_site/bench_views.py): the
limit. Prints one JSON line: moves per second, p50/p95/p99 latency and errors, and the limit's. Deletes what it
made. Needs PostgreSQL (DATABASE_URL). A figure for the README, not a test.
"""

import http.client
import json
import os
import random
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
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import connection
from django.test import Client

from games.engine import legal_actions, waiting_for
from games.models import Game
from games.services.transfer import import_script

MARK = "bench_moves"
ROOT = Path(__file__).resolve().parents[3]
FIELD = {"vote": "vote", "discard": "policy", "enact": "policy", "veto_reply": "accept"}


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
        sessions = self._sessions(made)
        port = _free_port()
        server = _gunicorn(port, workers)
        try:
            _wait_for(port)
            shares = [made[i::clients] for i in range(clients)]
            moves = _run(clients, seconds, lambda i: _Mover(port, shares[i], sessions, seed=i))
            limit = _run(clients, seconds, lambda i: _Writer(port, made[i], sessions))
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

    def _sessions(self, games: list[Game]) -> dict[str, str]:
        """A signed-in session per player, as its cookie value."""
        cookies = {}
        for user in get_user_model().objects.filter(username__startswith="bench-moves-"):
            client = Client()
            client.force_login(user)
            cookies[user.get_username()] = client.cookies[settings.SESSION_COOKIE_NAME].value
        return cookies


class _Client:
    """One player's browser, reduced to what a move needs: a session cookie, a CSRF secret, one request at a time."""

    def __init__(self, port: int, sessions: dict[str, str]):
        self.port, self.sessions = port, sessions
        self.csrf = secrets.token_hex(16)  # 32 characters: a secret Django accepts as the token itself
        self.latencies: list[float] = []
        self.errors = 0

    def post(self, path: str, fields: dict, as_user: str) -> int:
        body = urllib.parse.urlencode(fields)
        cookies = {settings.SESSION_COOKIE_NAME: self.sessions[as_user], settings.CSRF_COOKIE_NAME: self.csrf}
        headers = {
            "Content-Type": "application/x-www-form-urlencoded",
            "Cookie": "; ".join(f"{name}={value}" for name, value in cookies.items()),
            "X-CSRFToken": self.csrf,
        }
        started = time.perf_counter()
        try:
            link = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
            link.request("POST", path, body=body, headers=headers)
            response = link.getresponse()
            response.read()
            link.close()
        except OSError:
            self.errors += 1
            return 0
        self.latencies.append(time.perf_counter() - started)
        return response.status


class _Mover(_Client):
    def __init__(self, port, games, sessions, seed):
        super().__init__(port, sessions)
        self.games, self.random = list(games), random.Random(seed)

    def step(self) -> None:
        game = Game.objects.get(pk=self.random.choice(self.games).pk)
        state = game.load_state()
        if state.over:
            self.games = [g for g in self.games if g.pk != game.pk] or self.games
            return
        seat = self.random.choice(waiting_for(state))
        action = self.random.choice(legal_actions(state, seat))
        fields = {"type": action.type, "step_number": game.step_number, "confirmed": "yes"}
        if action.target is not None:
            fields["target"] = state.seats[action.target].name
        if action.type in FIELD:
            choice = action.choice
            fields[FIELD[action.type]] = ("yes" if choice else "no") if action.type == "veto_reply" else choice
        status = self.post(f"/games/{game.pk}/move/", fields, state.seats[seat].name)
        made = Game.objects.filter(pk=game.pk).values_list("action_count", flat=True).first()
        if status != 302 or made <= game.action_count:  # refused, whatever the status
            self.errors += 1


class _Writer(_Client):
    def __init__(self, port, game, sessions):
        super().__init__(port, sessions)
        self.game, self.player = game, game.seats.first().name

    def step(self) -> None:
        if self.post(f"/bench/write/{self.game.pk}/", {}, self.player) != 204:
            self.errors += 1


def _run(clients: int, seconds: float, make) -> dict:
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


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _gunicorn(port: int, workers: int) -> subprocess.Popen:
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


def _wait_for(port: int) -> None:
    for _ in range(100):
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            time.sleep(0.1)
    raise CommandError("gunicorn did not start")
