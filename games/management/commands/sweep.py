"""`manage.py sweep`: apply every due deadline now (what beat's periodic task does), for cron or by hand."""

from django.core.management.base import BaseCommand

from games.tasks import sweep_deadlines


class Command(BaseCommand):
    help = "Apply the outcome of every deadline that has passed, and close lobbies that did not fill."

    def handle(self, *args, **options):
        result = sweep_deadlines()
        self.stdout.write(f"{result['deadlines']} deadlines handled, {result['lobbies_closed']} lobbies closed")
