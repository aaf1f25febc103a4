"""`manage.py bench_deadlines --games N`: how fast the sweep applies due deadlines, in the configured database.

Creates N running 7-player games whose vote deadline has passed with ballots missing, times only the
sweep until every one is handled, counts its queries, deletes everything it created and prints one JSON line.
A figure to measure and write in docs/measurements.md, not a test.
"""

import json
import time
from datetime import timedelta

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import connection, transaction
from django.utils import timezone

from games.engine import Action, apply, codec, new_game
from games.models import Game, Seat
from games.services import sweep_due_deadlines

PLAYERS = [f"bench-player-{i}" for i in range(1, 8)]
MARK = "bench_deadlines"


class QueryCounter:
    def __init__(self) -> None:
        self.count = 0

    def __call__(self, execute, sql, params, many, context):
        self.count += 1
        return execute(sql, params, many, context)


class Command(BaseCommand):
    help = "Measure how many due deadlines per second the sweep applies (creates and deletes its own games)."

    def add_arguments(self, parser):
        parser.add_argument("--games", type=int, default=1000)
        parser.add_argument("--batch-size", type=int, default=100)

    def handle(self, *args, games, batch_size, **options):
        users = self._users()
        now = timezone.now()
        try:
            self._create(games, users, now)
            counter = QueryCounter()
            with connection.execute_wrapper(counter):
                started = time.perf_counter()
                handled = sweep_due_deadlines(now=now, batch_size=batch_size)
                seconds = time.perf_counter() - started
        finally:
            Game.objects.filter(name=MARK).delete()
            get_user_model().objects.filter(username__in=PLAYERS).delete()
        result = {
            "games": games,
            "handled": handled,
            "seconds": round(seconds, 3),
            "deadlines_per_second": round(handled / seconds, 1),
            "queries_per_deadline": round(counter.count / max(handled, 1), 3),
            "database": connection.vendor,
        }
        self.stdout.write(json.dumps(result))

    def _users(self):
        User = get_user_model()
        users = []
        for name in PLAYERS:
            user, _ = User.objects.get_or_create(username=name)
            users.append(user)
        return users

    @transaction.atomic
    def _create(self, count: int, users, now) -> None:
        """Games at a vote with three ballots of seven cast, their deadline a minute ago."""
        state = new_game(PLAYERS, seed=7)
        president = state.president
        target = (president + 1) % len(PLAYERS)
        apply(state, Action("nominate", president, target))
        for seat in range(3):
            apply(state, Action("vote", seat, choice="ja"))
        stored = codec.encode(state)
        round_start = now - timedelta(hours=7 * 24, minutes=1)
        created = Game.objects.bulk_create(
            Game(
                name=MARK,
                status=Game.Status.RUNNING,
                seed=7,
                setup={"players": PLAYERS, "seed": 7},
                state=stored,
                step_number=state.step_number,
                started_at=round_start,
                round_started_at=round_start,
                session_started_at=round_start,
                step_started_at=round_start,
                deadline=now - timedelta(minutes=1),
            )
            for _ in range(count)
        )
        Seat.objects.bulk_create(
            Seat(game=game, user=user, name=user.get_username(), number=number)
            for game in created
            for number, user in enumerate(users)
        )
