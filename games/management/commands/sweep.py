"""`manage.py sweep`: run every periodic task once now (what beat schedules), for cron or by hand."""

from django.core.management.base import BaseCommand

from games.tasks import close_lobbies, queue_reminders_task, send_emails, sweep_deadlines


class Command(BaseCommand):
    help = "Apply every deadline that has passed, close lobbies that did not fill, queue reminders, send emails."

    def handle(self, *args, **options):
        deadlines = sweep_deadlines()
        lobbies = close_lobbies()
        reminders = queue_reminders_task()
        emails = send_emails()
        self.stdout.write(
            f"{deadlines} deadlines handled, {lobbies} lobbies closed, {reminders} reminders, {emails} emails sent"
        )
