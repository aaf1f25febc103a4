"""Celery tasks: take ids or nothing, have explicit names, return JSON. Each is safe to run twice, on any number
of workers at once, and each periodic one records its own last run, so /healthz tells which work has stopped."""

import time

from celery import shared_task

from .models import SweepRun
from .notify.bell import queue_reminders
from .notify.email import send_due_emails
from .notify.failures import Failures
from .notify.push import send_due_pushes
from .notify.webhooks import deliver_due
from .services import close_stale_lobbies, sweep_due_deadlines
from .services.proposals import close_due_proposals


@shared_task(name="games.sweep_deadlines", ignore_result=True)
def sweep_deadlines() -> int:
    """Every deadline that has passed: its outcome applied (T4). A game that fails is set aside alone. Then the
    table's proposals whose step ended or time ran out are closed, and the table's pauses that reached their end
    resume."""
    handled = _recorded(SweepRun.Task.DEADLINES, sweep_due_deadlines)
    close_due_proposals()
    return handled


@shared_task(name="games.close_lobbies", ignore_result=True)
def close_lobbies() -> int:
    """Lobbies that did not fill in time close."""
    return _recorded(SweepRun.Task.LOBBIES, close_stale_lobbies)


@shared_task(name="games.queue_reminders", ignore_result=True)
def queue_reminders_task() -> int:
    """The 24 h and 3 h reminders of the deadlines that come near."""
    return _recorded(SweepRun.Task.REMINDERS, queue_reminders, isolated=True)


@shared_task(name="games.send_emails", ignore_result=True)
def send_emails() -> int:
    """The outbox: every email due. Run by beat, and queued after a commit that made notifications, so that
    they go out at once rather than at the next run."""
    return _recorded(SweepRun.Task.OUTBOX, send_due_emails, isolated=True)


@shared_task(name="games.deliver_webhooks", ignore_result=True)
def deliver_webhooks() -> int:
    """The webhooks' outbox: every delivery due. Run by beat, and queued after a commit that enqueued some."""
    return _recorded(SweepRun.Task.WEBHOOKS, deliver_due, isolated=True)


@shared_task(name="games.send_pushes", ignore_result=True)
def send_pushes() -> int:
    """The push outbox: every push due. Run by beat, and queued after a commit that enqueued some."""
    return _recorded(SweepRun.Task.PUSH, send_due_pushes, isolated=True)


def _recorded(task: str, work, *, isolated: bool = False) -> int:
    """Run a periodic job and record its run: when it ended, how many it handled and how long it took (/healthz
    and /metrics read them), and, for a job that handles its rows one failure at a time (`isolated`), how many
    it could not handle and why (the moderators' dashboard shows them)."""
    started = time.monotonic()
    failures = Failures()
    handled = work(failures=failures) if isolated else work()
    errors = "\n".join(failures.errors)
    SweepRun.record(task, handled, time.monotonic() - started, failed=failures.count, errors=errors)
    return handled
