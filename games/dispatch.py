"""Waking a worker: a Celery task asked for by its name ("games.send_emails"), so that the layers below the tasks
(the channels' outboxes) need not import the tasks module, which imports them."""

import logging
import time

from celery import current_app
from django.conf import settings

log = logging.getLogger(__name__)

# When (time.monotonic(), in this process) "send now" last met a broker that did not answer, or None. It exists so
# that during an outage one request pays BROKER_CONNECT_TIMEOUT, not every request of every player: queue_now
# skips the broker until SWEEP_INTERVAL_SECONDS have passed, and the periodic runs do the work meanwhile.
_broker_failed_at: float | None = None


def queue_now(name: str) -> None:
    """Ask a worker to run the task named `name` now, without ever holding up the request that asks for longer
    than BROKER_CONNECT_TIMEOUT: a broker that does not answer gets one try, no retries (Celery's own would wait
    6 s), and each connection and each reply is given up after that many seconds (settings: the transport's socket
    timeouts). After a failure this process does not try again for SWEEP_INTERVAL_SECONDS, so that in an outage
    one request waits, not every one, nor one request twice (a move queues its emails and its webhooks). Nothing
    is lost: the periodic run of the same task does the same work within that time."""
    global _broker_failed_at
    if _broker_failed_at is not None and time.monotonic() - _broker_failed_at < settings.SWEEP_INTERVAL_SECONDS:
        log.info("not queuing %s: the broker did not answer a moment ago; its next periodic run will do it", name)
        return
    app = current_app
    try:
        with app.producer_pool.acquire(block=True, timeout=1) as producer:  # a pooled connection: no new one a move
            producer.connection.ensure_connection(max_retries=0, timeout=1)  # at once when it is still connected
            _task(app, name).apply_async(retry=False, producer=producer)
        _broker_failed_at = None
    except Exception:
        _broker_failed_at = time.monotonic()
        log.warning("could not queue %s; its next periodic run will do it", name, exc_info=True)


def _task(app, name: str):
    """The task registered under `name`, its module imported as a worker imports it: sent through the task (not
    `send_task`) so that CELERY_TASK_ALWAYS_EAGER runs it here, as the tests and a worker-less setup expect."""
    if name not in app.tasks:
        app.loader.import_default_modules()
    return app.tasks[name]
