"""`manage.py bench_pages [--clients 20] [--seconds 15]`: the pages players keep opening, read by many readers at
once through gunicorn (4 workers) on PostgreSQL, each beside its limit measured in the same run on the same server.

The world: `--readers` signed-in users (200) and anonymous readers, `--games` running games (50) whose threads
hold from `--min-posts` to `--max-posts` posts (200 to 1,000, spread evenly), five of the users seated in each,
and a lobby listing them among `--lobby-games` more (500: open, running and finished). Each client reads a
different game's page at each step, in turn through the games, as another reader: no page is asked twice in a row
by one reader, so that nothing kept per reader can meet the figure. The kinds, each beside its own limit:
- a thread page read anonymously, and signed in by a spectator: the last page, or at every other step another
  page of the thread (`--last-pages-only`: the last page at every step, as the peer's page was measured);
- the lobby, signed in and anonymous;
- a player's page (the thread's last page with their panel), read by one of the game's seated players.
The limits: a bare view that loads the session and the user and answers 222 bytes (devtools/views.py), through
the same middleware, read anonymously and signed in by the same rotation of readers. A page is checked: a status
other than 200, or a page without its game's name and the last post it should show (the lobby: the newest game's
name; a player's page: their panel too), counts as an error.

Each kind is asked for by `--clients` concurrent clients (coroutines of a small asyncio client, devtools/bench/
http.py) for `--seconds`: the kinds take turns, half the seconds each, twice, so that they share the machine's
quieter and busier moments; requests per second, p50 and p95, errors, and the share of its limit are printed
for each as one JSON line, with the targets. Creates and deletes what it measures. Needs PostgreSQL. Not a test.
"""

import json
import random
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import connection

from devtools.bench import game_with_thread
from devtools.bench.http import BrowserClient, alternate, free_port, gunicorn, signed_in_sessions, wait_for
from devtools.views import BARE_PAGE
from games.models import Game
from games.services import create_game
from games.services.transfer import import_script
from games.views.thread import PAGE_SIZE

MARK = "bench_pages"  # every game made here is named from it, and every user
PREFIX = "bench-pages-"
SEATS = 5
# The issue 30 targets: three times the peer's share (django-spirit's topic page) for the thread, and as much for
# the lobby and a player's page as for the signed-in thread.
TARGETS = {"thread_anonymous": 0.20, "thread_signed_in": 0.25, "lobby_signed_in": 0.25, "lobby_anonymous": 0.25,
           "players_page": 0.25}  # fmt: skip
LIMIT_OF = {"thread_anonymous": "limit_anonymous", "lobby_anonymous": "limit_anonymous"}  # else limit_signed_in


@dataclass(frozen=True)
class Thread:
    pk: int
    name: str
    posts: int
    players: tuple[str, ...]

    def pages(self) -> int:
        return max(1, -(-self.posts // PAGE_SIZE))

    def last_post_on(self, page: int) -> str:
        return f"Post {min(page * PAGE_SIZE, self.posts) - 1} of {self.name}:"


@dataclass(frozen=True)
class Visit:
    """A page to read, as whom (None: anonymous), and what its answer must hold."""

    path: str
    reader: str | None
    expected: tuple[bytes, ...]


@dataclass(frozen=True)
class World:
    threads: list[Thread]
    readers: list[str]
    last_pages_only: bool = False  # the thread kinds read only last pages, as the peer's page was measured

    def thread(self, client: int, turn: int) -> Thread:
        return self.threads[(client + turn) % len(self.threads)]

    def reader(self, client: int, turn: int, *, not_in: Thread | None = None) -> str:
        """Another reader at each turn, and another for each client; never one of `not_in`'s players."""
        start = client * 11 + turn
        candidates = (self.readers[(start + n) % len(self.readers)] for n in range(len(self.readers)))
        return next(name for name in candidates if not_in is None or name not in not_in.players)

    def thread_page(self, client: int, turn: int, picks: random.Random, *, signed_in: bool) -> Visit:
        """The thread's last page, or at every other turn another of its pages (unless `last_pages_only`)."""
        thread = self.thread(client, turn)
        page = thread.pages() if turn % 2 == 0 or self.last_pages_only else picks.randint(1, thread.pages())
        reader = self.reader(client, turn, not_in=thread) if signed_in else None
        return Visit(f"/games/{thread.pk}/?page={page}", reader, _texts(thread.name, thread.last_post_on(page)))

    def players_page(self, client: int, turn: int, picks: random.Random) -> Visit:
        thread = self.thread(client, turn)
        expected = _texts(thread.name, thread.last_post_on(thread.pages()), 'id="panel"')
        return Visit(f"/games/{thread.pk}/?page=last", thread.players[turn % SEATS], expected)

    def lobby(self, client: int, turn: int, picks: random.Random, *, signed_in: bool) -> Visit:
        reader = self.reader(client, turn) if signed_in else None
        return Visit("/", reader, _texts(self.threads[-1].name))  # the newest running game

    def bare(self, client: int, turn: int, picks: random.Random, *, signed_in: bool) -> Visit:
        return Visit("/bench/bare/", self.reader(client, turn) if signed_in else None, (BARE_PAGE,))


# Each kind of client, measured in this order (a page after its limit): client, turn, picks -> the page to read.
KINDS = {
    "limit_anonymous": partial(World.bare, signed_in=False),
    "thread_anonymous": partial(World.thread_page, signed_in=False),
    "lobby_anonymous": partial(World.lobby, signed_in=False),
    "limit_signed_in": partial(World.bare, signed_in=True),
    "thread_signed_in": partial(World.thread_page, signed_in=True),
    "lobby_signed_in": partial(World.lobby, signed_in=True),
    "players_page": World.players_page,
}


def _texts(*texts: str) -> tuple[bytes, ...]:
    return tuple(text.encode() for text in texts)


class _Reader(BrowserClient):
    """Client number `client` going from page to page: at each turn the page `visit` names, its answer checked."""

    def __init__(self, port, sessions, world: World, visit: Callable[..., Visit], client: int):
        super().__init__(port, sessions)
        self.world, self.visit, self.client = world, visit, client
        self.turn, self.picks = 0, random.Random(client)

    async def step(self) -> None:
        visit = self.visit(self.world, self.client, self.turn, self.picks)
        self.turn += 1
        status, headers, body = await self.read(visit.path, visit.reader)
        if status == 0:
            return  # a failed connection, counted already
        if status != 200 or not all(text in body for text in visit.expected) or _wrong_reader(visit, headers):
            self.errors += 1


def _wrong_reader(visit: Visit, headers: dict) -> bool:
    """A bare page read signed in answered as anonymous (an expired session): the limit would miss the user."""
    return visit.path == "/bench/bare/" and (headers.get("x-reader") == "anonymous") != (visit.reader is None)


class Command(BaseCommand):
    help = "Measure the thread, the lobby and a player's page read by many readers, each beside its bare limit."

    def add_arguments(self, parser):
        parser.add_argument("--clients", type=int, default=20)
        parser.add_argument("--seconds", type=float, default=15.0)
        parser.add_argument("--workers", type=int, default=4)
        parser.add_argument("--readers", type=int, default=200)
        parser.add_argument("--games", type=int, default=50)
        parser.add_argument("--min-posts", type=int, default=200)
        parser.add_argument("--max-posts", type=int, default=1000)
        parser.add_argument("--lobby-games", type=int, default=500)
        parser.add_argument("--last-pages-only", action="store_true", help="the thread kinds read last pages only")

    def handle(
        self, *args, clients, seconds, workers, readers, games, min_posts, max_posts, lobby_games, last_pages_only,
        **options,
    ):  # fmt: skip
        if connection.vendor != "postgresql":
            raise CommandError("bench_pages measures PostgreSQL: set DATABASE_URL (make bench-pages does)")
        if readers <= SEATS or games < 1 or not 0 < min_posts <= max_posts:
            raise CommandError("needs more readers than seats, a game, and 0 < --min-posts <= --max-posts")
        try:
            names = self._readers(readers)
            self._lobby(lobby_games, names[0])
            world = World(self._threads(games, min_posts, max_posts, names), names, last_pages_only)
            sessions = signed_in_sessions(get_user_model().objects.filter(username__in=names))
            results = self._measure(world, sessions, clients, seconds, workers)
        finally:
            Game.objects.filter(name__startswith=MARK).delete()
            get_user_model().objects.filter(username__startswith=PREFIX).delete()
        for kind, target in TARGETS.items():
            limit = results[LIMIT_OF.get(kind, "limit_signed_in")]["per_second"]
            results[kind]["share_of_limit"] = round(results[kind]["per_second"] / limit, 3) if limit else 0.0
            results[kind]["target_share"] = target
        world_sizes = {"readers": readers, "games": games, "posts": [min_posts, max_posts], "lobby_games": lobby_games,
                       "last_pages_only": last_pages_only}  # fmt: skip
        self.stdout.write(json.dumps({"clients": clients, "workers": workers, **world_sizes, **results}))

    def _measure(self, world: World, sessions: dict, clients: int, seconds: float, workers: int) -> dict:
        port = free_port()
        server = gunicorn(port, workers)
        try:
            wait_for(port, sessions)
            makers = {
                kind: lambda client, visit=visit: _Reader(port, sessions, world, visit, client)
                for kind, visit in KINDS.items()
            }
            return alternate(clients, seconds, makers)
        finally:
            server.terminate()
            server.wait(10)

    def _readers(self, count: int) -> list[str]:
        """Readers with verified addresses, as the lobby asks of whoever creates or joins a game."""
        names = [f"{PREFIX}{number:03d}" for number in range(count)]
        for name in names:
            user = get_user_model().objects.create_user(name, email=f"{name}@example.com")
            EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
        return names

    def _lobby(self, count: int, creator_name: str) -> None:
        """`count` games for the lobby, made before the threads so that those are the newest: a third open, a third
        running, a third finished."""
        creator = get_user_model().objects.get(username=creator_name)
        for number in range(count):
            name = f"{MARK} lobby {number}"
            if number % 3 == 0:
                create_game(creator, name=name, player_count=7)
            else:
                players = [f"{PREFIX}lobby-{number}-{seat}" for seat in range(SEATS)]
                game = import_script({"players": players, "seed": number, "actions": []}, name=name)
                if number % 3 == 2:
                    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED, winner="liberal")

    def _threads(self, count: int, min_posts: int, max_posts: int, readers: list[str]) -> list[Thread]:
        """`count` running games, five of `readers` seated in each, each thread longer than the one before."""
        threads = []
        for number in range(count):
            players = tuple(readers[(number * SEATS + seat) % len(readers)] for seat in range(SEATS))
            posts = min_posts + (max_posts - min_posts) * number // max(1, count - 1)
            name = f"{MARK} thread {number:03d}"
            game = game_with_thread(list(players), posts, name)
            threads.append(Thread(game.pk, name, posts, players))
        return threads
