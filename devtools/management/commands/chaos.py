"""`manage.py chaos` (`make chaos`): the outages of issue 19 at full length, with the figures they leave.

Each scenario starts its own services on free ports (a redis-server, an SMTP server, a PostgreSQL cluster made
with initdb) and the site's real processes (gunicorn, a Celery worker, beat), stops one service while games'
deadlines pass, starts it again, and counts: deadlines due during the outage, handled after it, doubled, lost;
emails due, sent, doubled; the seconds to catch up after the service's return. Games step in minutes
(minute durations: a setting of an hour lasts a minute), so an hour of game time passes in a minute.

  broker    Redis stopped for --broker-outage seconds (600: ten minutes) while --games deadlines pass and
            players make moves through HTTP.
  database  PostgreSQL restarted in the middle of a sweep of --games due deadlines, then in the middle of a
            move.
  mail      The SMTP server stopped for --mail-outage seconds (60: an hour of game time) while --games
            deadlines pass, one address refused for good throughout; /healthz polled meanwhile.
  production gunicorn (4 workers), two Celery workers and beat; 50 players play 20 games through the API
            for --seconds with minute-long steps; a worker is killed (SIGKILL) and started again. Every game
            must replay from its export; no move lost or doubled, no deadline left overdue, no 5xx.

Needs PostgreSQL (DATABASE_URL) and the redis-server and PostgreSQL server programs. Prints a table, then one
JSON line per scenario; exits 1 if anything was lost, doubled or stuck. A measurement, not a test: the suite
runs the same scenarios with outages of seconds (tests/chaos/test_outages.py).
"""

import json
import time

from django.core.management.base import BaseCommand, CommandError
from django.db import connection

from devtools.chaos import scenarios

SCENARIOS = ("broker", "database", "mail", "production")


class Command(BaseCommand):
    help = "Stop the broker, restart the database and stop the mail server while games run; print what it cost."

    def add_arguments(self, parser):
        parser.add_argument("--only", choices=SCENARIOS, action="append", help="run only these (repeatable)")
        parser.add_argument("--broker-outage", type=float, default=600.0, help="seconds (default: 10 minutes)")
        parser.add_argument("--mail-outage", type=float, default=60.0, help="seconds (default: an hour of game time)")
        parser.add_argument("--games", type=int, default=200, help="deadlines due in each outage")
        parser.add_argument("--interval", type=int, default=30, help="SWEEP_INTERVAL_SECONDS (production's: 30)")
        parser.add_argument("--seconds", type=float, default=180.0, help="of play in the production shape")

    def handle(self, *args, only, broker_outage, mail_outage, games, interval, seconds, **options):
        if connection.vendor != "postgresql":
            raise CommandError("chaos needs PostgreSQL: set DATABASE_URL (make chaos does)")
        runs = {
            "broker": lambda: scenarios.broker_outage(outage=broker_outage, games=games, moves=20, interval=interval),
            "database": lambda: scenarios.database_restart(games=games),
            "mail": lambda: scenarios.mail_outage(outage=mail_outage, games=games, interval=interval),
            "production": lambda: scenarios.production_shape(players=50, games=20, seconds=seconds, interval=2),
        }
        results = {}
        for name in only or SCENARIOS:
            began = time.monotonic()
            self.stderr.write(f"chaos: {name} ...")
            results[name] = {"scenario": name, **runs[name](), "elapsed_seconds": round(time.monotonic() - began)}
        self.stdout.write(table(results))
        for figures in results.values():
            self.stdout.write(json.dumps(figures))
        if not all(figures["ok"] for figures in results.values()):
            raise CommandError("something was lost, doubled or stuck: see the figures above")


def table(results: dict) -> str:
    rows = [("scenario", "what", "due", "handled/sent", "doubled", "lost", "catch-up s")]
    for name, f in results.items():
        if "deadlines_due" in f:
            rows.append((name, "deadlines", f["deadlines_due"], f["deadlines_handled"], f["deadlines_doubled"],
                         f["deadlines_lost"], f["deadline_catch_up_seconds"]))  # fmt: skip
        if "emails_due" in f:
            rows.append((name, "emails", f["emails_due"], f["emails_sent"], f["emails_doubled"],
                         f["emails_due"] - f["emails_sent"], f["email_catch_up_seconds"]))  # fmt: skip
        if "moves_accepted" in f:
            rows.append((name, "moves (200)", f["moves_accepted"], f["moves_accepted"] - f["moves_lost"],
                         f["moves_doubled"], f["moves_lost"], ""))  # fmt: skip
            rows.append((name, "deadlines", "", f["deadlines_handled"], "", f["deadlines_stuck"], ""))
            rows.append((name, "emails", "", f["emails_sent"], f["emails_doubled"], "", ""))
    widths = [max(len(str(row[i])) for row in rows) for i in range(len(rows[0]))]
    return "\n".join("  ".join(str(cell).ljust(width) for cell, width in zip(row, widths, strict=True)) for row in rows)
