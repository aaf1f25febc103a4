"""`manage.py check_health`: print the health report; email the moderators if the sweep has stopped (cron)."""

import json
import sys

from django.core.management.base import BaseCommand

from moderation.health import alert_if_stale, check


class Command(BaseCommand):
    help = "Check the database, the broker and the sweep; alert the moderators by email if the sweep stopped."

    def handle(self, *args, **options):
        report = check()
        alert_if_stale()
        self.stdout.write(json.dumps(report))
        if not report["ok"]:
            sys.exit(1)
