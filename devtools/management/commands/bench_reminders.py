"""`manage.py bench_reminders [--users 2000] [--per-user 5]`: reminders queued and emailed by the sweep.

Creates users and running 5-player games at a vote whose deadline is two hours away (everyone owes a
ballot: one due reminder per player and game), runs the sweep's reminder and email steps with the locmem
backend, prints one JSON line (reminders per second, emails sent, queries per email), and deletes what it
made. A figure for docs/measurements.md, not a test.
"""

import json
import time
from datetime import timedelta

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import connection, transaction
from django.test.utils import override_settings
from django.utils import timezone

from games.engine import Action, apply, codec, new_game
from games.models import Game, Seat
from games.notify.bell import queue_reminders
from games.notify.email import send_due_emails

from .bench_deadlines import QueryCounter

MARK = "bench_reminders"
PLAYERS = 5


class Command(BaseCommand):
    help = "Measure the reminder sweep: N users, each owing a ballot in several games (creates and deletes its data)."

    def add_arguments(self, parser):
        parser.add_argument("--users", type=int, default=2000)
        parser.add_argument("--per-user", type=int, default=5, help="games each user plays in")

    def handle(self, *args, users, per_user, **options):
        now = timezone.now()
        try:
            people = self._create(users, per_user, now)
            counter = QueryCounter()
            locmem = override_settings(EMAIL_BACKEND="django.core.mail.backends.locmem.EmailBackend")
            with locmem, connection.execute_wrapper(counter):
                started = time.perf_counter()
                reminders = queue_reminders(now=now)
                emails = send_due_emails(now=now)
                seconds = time.perf_counter() - started
        finally:
            Game.objects.filter(name=MARK).delete()
            get_user_model().objects.filter(username__startswith="bench-reminder-").delete()
        self.stdout.write(
            json.dumps(
                {
                    "users": people,
                    "reminders": reminders,
                    "emails": emails,
                    "seconds": round(seconds, 3),
                    "reminders_per_second": round(reminders / seconds, 1),
                    "queries_per_email": round(counter.count / max(emails, 1), 3),
                    "database": connection.vendor,
                }
            )
        )

    @transaction.atomic
    def _create(self, count: int, per_user: int, now) -> int:
        User = get_user_model()
        users = User.objects.bulk_create(
            User(username=f"bench-reminder-{n}", email=f"bench-reminder-{n}@example.com") for n in range(count)
        )
        games_count = count * per_user // PLAYERS
        stride = count // PLAYERS
        deadline = now + timedelta(hours=2)
        round_start = deadline - timedelta(days=7)
        games, seats = [], []
        for g in range(games_count):
            players = [users[(g + k * stride) % count] for k in range(PLAYERS)]
            names = [user.username for user in players]
            state = new_game(names, seed=g)
            apply(state, Action("nominate", state.president, (state.president + 1) % PLAYERS))
            stored = codec.encode(state)
            game = Game(
                name=MARK,
                status=Game.Status.RUNNING,
                player_count=PLAYERS,
                seed=g,
                state=stored,
                step_number=state.step_number,
                round_started_at=round_start,
                session_started_at=round_start,
                step_started_at=round_start,
                started_at=round_start,
                deadline=deadline,
            )
            games.append(game)
            seats.append([(user, number) for number, user in enumerate(players)])
        Game.objects.bulk_create(games)
        Seat.objects.bulk_create(
            Seat(game=game, user=user, name=user.username, number=number)
            for game, table in zip(games, seats, strict=True)
            for user, number in table
        )
        return count
