"""Celery tasks: take ids or nothing, have explicit names, return JSON. Each is safe to run twice."""

import logging

from celery import shared_task

from .models import SweepRun
from .services import close_stale_lobbies, sweep_due_deadlines
from .services.mail import send_due_emails
from .services.notify import queue_reminders

log = logging.getLogger(__name__)


@shared_task(name="games.sweep_deadlines", ignore_result=True)
def sweep_deadlines() -> dict:
    """Run by beat every SWEEP_INTERVAL_SECONDS, on any number of workers at once: due deadlines, lobbies
    that did not fill, reminders, and every email that is due."""
    lobbies = close_stale_lobbies()
    handled = sweep_due_deadlines()
    reminders = queue_reminders()
    emails = send_due_emails()
    SweepRun.record(handled)
    return {"deadlines": handled, "lobbies_closed": lobbies, "reminders": reminders, "emails": emails}


@shared_task(name="games.send_emails", ignore_result=True)
def send_emails() -> int:
    """Queued after a commit that made notifications, so they go out at once rather than at the next sweep."""
    return send_due_emails()


def send_emails_soon() -> None:
    """Ask a worker to send now; if the broker is unreachable the next sweep sends them anyway."""
    try:
        send_emails.apply_async(retry=False)
    except Exception:
        log.warning("could not queue games.send_emails; the next sweep will send", exc_info=True)
