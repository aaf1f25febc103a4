"""Celery tasks: take ids or nothing, have explicit names, return JSON. Each is safe to run twice, on any number
of workers at once, and each periodic one records its own last run, so /healthz tells which work has stopped."""

import logging

from celery import shared_task

from .models import SweepRun
from .services import close_stale_lobbies, sweep_due_deadlines
from .services.mail import send_due_emails
from .services.notify import queue_reminders
from .services.webhooks import deliver_due

log = logging.getLogger(__name__)


@shared_task(name="games.sweep_deadlines", ignore_result=True)
def sweep_deadlines() -> int:
    """Every deadline that has passed: its outcome applied (T4). A game that fails is set aside alone."""
    handled = sweep_due_deadlines()
    SweepRun.record(SweepRun.Task.DEADLINES, handled)
    return handled


@shared_task(name="games.close_lobbies", ignore_result=True)
def close_lobbies() -> int:
    """Lobbies that did not fill in time close."""
    closed = close_stale_lobbies()
    SweepRun.record(SweepRun.Task.LOBBIES, closed)
    return closed


@shared_task(name="games.queue_reminders", ignore_result=True)
def queue_reminders_task() -> int:
    """The 24 h and 3 h reminders of the deadlines that come near."""
    queued = queue_reminders()
    SweepRun.record(SweepRun.Task.REMINDERS, queued)
    return queued


@shared_task(name="games.send_emails", ignore_result=True)
def send_emails() -> int:
    """The outbox: every email due. Run by beat, and queued after a commit that made notifications, so that
    they go out at once rather than at the next run."""
    sent = send_due_emails()
    SweepRun.record(SweepRun.Task.OUTBOX, sent)
    return sent


@shared_task(name="games.deliver_webhooks", ignore_result=True)
def deliver_webhooks() -> int:
    """The webhooks' outbox: every delivery due. Run by beat, and queued after a commit that enqueued some."""
    delivered = deliver_due()
    SweepRun.record(SweepRun.Task.WEBHOOKS, delivered)
    return delivered


def send_emails_soon() -> None:
    """Ask a worker to send now; if the broker is unreachable the next run sends them anyway."""
    try:
        send_emails.apply_async(retry=False)
    except Exception:
        log.warning("could not queue games.send_emails; the next run will send", exc_info=True)
