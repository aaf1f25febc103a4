"""`manage.py bench_push [--games 100] [--waves 3]`: how soon "your move" reaches a player, by push and by email,
when many games move at once: from the move to the push service taking the push, and to the SMTP server taking
the email, with the site's Celery worker doing the sending as in production.

Each wave makes `--games` new 5-player games, their players each with a device subscribed to a push service on
loopback (devtools/push_service.py: HTTPS, every VAPID JWT checked and every payload decrypted) and an email
address at an SMTP server on loopback. Then every game's first president nominates at once (20 threads, as many
web workers, each making its games' moves one after another; a chancellor picked among the legal ones, through
the service layer as the move form does): each nomination makes its five players owe a ballot, so five pushes and
five emails. A push or an email counts from the moment its
move began (so the move's own work is in the figure) to its arrival; the wave ends when every one arrived, or
after a minute. The worker (2 processes, as the Procfile runs it) is woken by the moves' commits; no beat runs.
Prints one JSON line: p50, p95 and the slowest for pushes and for emails, how many arrived and how many were
doubled (the same push or email taken twice). Needs PostgreSQL and Redis (DATABASE_URL, REDIS_URL). Deletes what
it made. A figure for docs/measurements.md, not a test.
"""

import json
import random
import statistics
import threading
import time
from collections import Counter

from celery import current_app
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import connection
from django.utils import timezone

from devtools.chaos.services import MailServer, Site, wait_until
from devtools.push_service import PushService
from games.engine import legal_actions, waiting_for
from games.engine.notation import write_move
from games.models import Game, Profile
from games.notify.webpush import new_private_key, public_key
from games.services import make_move
from games.services.devices import subscribe
from games.services.transfer import import_script

MARK = "bench_push"
TARGET_P95_SECONDS = 2.0
THREADS = 20  # moving at once: each a database connection, as a web server's workers would hold


class Command(BaseCommand):
    help = "Measure the time from a move to its push and its email, many games moving at once (PostgreSQL, Redis)."

    def add_arguments(self, parser):
        parser.add_argument("--games", type=int, default=100)
        parser.add_argument("--waves", type=int, default=3)
        parser.add_argument("--without-email", action="store_true", help="players take no email: pushes alone")

    def handle(self, *args, games, waves, without_email, **options):
        if connection.vendor != "postgresql" or not settings.REDIS_URL:
            raise CommandError("bench_push needs PostgreSQL and Redis: set DATABASE_URL and REDIS_URL")
        key = new_private_key()
        settings.VAPID_PRIVATE_KEY, settings.WEBHOOK_ALLOWED_ADDRESSES = key, ["127.0.0.1"]
        service, mail = PushService(public_key()), MailServer()
        mail.start()
        site = Site(REDIS_URL=settings.REDIS_URL, VAPID_PRIVATE_KEY=key, WEBHOOK_ALLOWED_ADDRESSES="127.0.0.1",
                    SSL_CERT_FILE=str(service.certificate), EMAIL_HOST="127.0.0.1",
                    EMAIL_PORT=str(mail.port))  # fmt: skip
        pushes, emails, doubled, bursts = [], [], 0, []
        try:
            site.worker(concurrency=2)
            if not wait_until(lambda: bool(current_app.control.ping(timeout=0.5)), 60, 0.5):
                raise CommandError(f"the worker did not start:\n{site.log('worker')}")
            for wave in range(waves):
                wave_pushes, wave_emails, burst = self._wave(wave, games, service, mail, not without_email)
                pushes += wave_pushes
                emails += wave_emails
                bursts.append(round(burst, 3))
            doubled = sum(count - 1 for count in Counter(mail.messages).values())
            doubled += sum(len(s.received) - 1 for s in service.subscriptions.values() if len(s.received) > 1)
        finally:
            site.close()
            mail.stop()
            service.close()
            Game.objects.filter(name=MARK).delete()
            get_user_model().objects.filter(username__startswith="bench-push-").delete()
        expected = games * waves * 5
        self.stdout.write(json.dumps({
            "games_moving_at_once": games, "waves": waves, "worker_processes": 2, "seconds_the_moves_took": bursts,
            "push": _figures(pushes, expected), "email": _figures(emails, 0 if without_email else expected),
            "doubled": doubled,
            "refused_by_the_push_service": len(service.refused), "target_push_p95_seconds": TARGET_P95_SECONDS,
        }))  # fmt: skip

    def _wave(self, wave: int, count: int, service: PushService, mail: MailServer, email: bool) -> tuple:
        """`count` games nominate at once: each push's and each email's seconds from its move's start, and how long
        the moves took from the first's start to the last's end."""
        users, subscriptions, made = {}, {}, []
        for number in range(count):
            names = [f"bench-push-{wave}-{number}-{seat}" for seat in range(5)]
            game = import_script({"players": names, "seed": number, "actions": []}, name=MARK, now=timezone.now())
            made.append(game)
            for name in names:
                user = get_user_model().objects.get(username=name)
                user.email = f"{name}@example.org"
                user.save(update_fields=["email"])
                users[user.email] = game.pk
                Profile.objects.update_or_create(user=user, defaults={"email_moves": email})
                subscription = service.subscribe()
                sent = subscription.as_browser_gives_it()
                subscribe(user, endpoint=sent["endpoint"], p256dh=sent["keys"]["p256dh"], auth=sent["keys"]["auth"],
                          browser="bench", now=timezone.now())  # fmt: skip
                subscriptions[subscription.number] = game.pk
        began, arrived_before = {}, len(mail.arrivals)
        already = {number: len(service.subscriptions[number].received) for number in subscriptions}
        moves = [(game, *_nomination(game, seed)) for seed, game in enumerate(made)]
        shares = [moves[i::THREADS] for i in range(THREADS)]
        barrier, ended = threading.Barrier(THREADS), []

        def nominate(share: list) -> None:
            barrier.wait()
            for game, user, move, step in share:
                began[game.pk] = time.monotonic()
                make_move(game.pk, user, move, step)
            ended.append(time.monotonic())
            connection.close()

        threads = [threading.Thread(target=nominate, args=(share,)) for share in shares]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        expected = count * 5
        expected_emails = expected if email else 0

        def delivered() -> tuple[int, int]:
            got = sum(len(service.subscriptions[n].received) - already[n] for n in subscriptions)
            return got, len(mail.arrivals) - arrived_before

        wait_until(lambda: delivered() == (expected, expected_emails), 60, 0.05)
        pushes = [
            push["at"] - began[game]
            for number, game in subscriptions.items()
            for push in service.subscriptions[number].received[already[number] :]
        ]
        emails = [at - began[users[to]] for to, at in mail.arrivals[arrived_before:] if to in users]
        return pushes, emails, max(ended) - min(began.values())


def _nomination(game: Game, seed: int) -> tuple:
    """The first president's nomination, a chancellor picked among the legal ones: who, what, at which step."""
    state = game.load_state()
    seat = waiting_for(state)[0]
    move = write_move(state, random.Random(seed).choice(legal_actions(state, seat)))
    move.pop("by", None)
    return game.seats.get(number=seat).user, move, state.step_number


def _figures(seconds: list[float], expected: int) -> dict:
    if not seconds:
        return {"arrived": 0, "expected": expected}
    ordered = sorted(seconds)
    return {
        "arrived": len(ordered),
        "expected": expected,
        "p50_seconds": round(statistics.median(ordered), 3),
        "p95_seconds": round(ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))], 3),
        "slowest_seconds": round(ordered[-1], 3),
    }
