"""Celery tasks: take ids or nothing, have explicit names, return JSON. Each is safe to run twice, on any number
of workers at once, and each periodic one records its own last run, so /healthz tells which work has stopped."""

import logging
import time

from celery import shared_task
from django.conf import settings

from .models import SweepRun
from .services import close_stale_lobbies, sweep_due_deadlines
from .services.failures import Failures
from .services.mail import send_due_emails
from .services.notify import queue_reminders
from .services.webhooks import deliver_due

log = logging.getLogger(__name__)

# When (time.monotonic(), in this process) "send now" last met a broker that did not answer, or None. It exists so
# that during an outage one request pays BROKER_CONNECT_TIMEOUT, not every request of every player: queue_now
# skips the broker until SWEEP_INTERVAL_SECONDS have passed, and the periodic runs do the work meanwhile.
_broker_failed_at: float | None = None


@shared_task(name="games.sweep_deadlines", ignore_result=True)
def sweep_deadlines() -> int:
    """Every deadline that has passed: its outcome applied (T4). A game that fails is set aside alone."""
    return _recorded(SweepRun.Task.DEADLINES, sweep_due_deadlines)


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


def send_emails_soon() -> None:
    """Ask a worker to send now (after a commit that made notifications)."""
    queue_now(send_emails)


def queue_now(task) -> None:
    """Ask a worker to run `task` now, without ever holding up the request that asks for longer than
    BROKER_CONNECT_TIMEOUT: a broker that does not answer gets one try, no retries (Celery's own would wait 6 s),
    and each connection and each reply is given up after that many seconds (settings: the transport's socket
    timeouts). After a failure this process does not try again for SWEEP_INTERVAL_SECONDS, so that in an outage
    one request waits, not every one, nor one request twice (a move queues its emails and its webhooks). Nothing
    is lost: the periodic run of the same task does the same work within that time."""
    global _broker_failed_at
    if _broker_failed_at is not None and time.monotonic() - _broker_failed_at < settings.SWEEP_INTERVAL_SECONDS:
        log.info("not queuing %s: the broker did not answer a moment ago; its next periodic run will do it", task.name)
        return
    from sh_site.celery import app

    try:
        with app.producer_pool.acquire(block=True, timeout=1) as producer:  # a pooled connection: no new one a move
            producer.connection.ensure_connection(max_retries=0, timeout=1)  # at once when it is still connected
            task.apply_async(retry=False, producer=producer)
        _broker_failed_at = None
    except Exception:
        _broker_failed_at = time.monotonic()
        log.warning("could not queue %s; its next periodic run will do it", task.name, exc_info=True)
