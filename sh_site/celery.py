"""The Celery application: configured from Django settings (CELERY_*), tasks found in each app."""

import logging
import os

from celery import Celery, signals
from kombu.transport import redis as kombu_redis

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "sh_site.settings")

app = Celery("sh_site")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
log = logging.getLogger(__name__)


def _restore_unacked_unless_closed(qos, client=None):
    """kombu's Redis QoS gives a channel's unacknowledged messages back when the channel closes, through a new
    client built from its connection's settings. A channel closed after its connection (as a worker's can be when
    Redis went away after a freeze) has no settings left: kombu raised AttributeError("'NoneType' object has no
    attribute 'hostname'"), which no connection-error handler catches, and the worker exited for good
    (https://github.com/celery/kombu/issues/970, unfixed in 5.7.0). Such messages are still in Redis's
    unacknowledged set: kombu's restore_visible gives them back after the visibility timeout, and the periodic
    tasks they stand for run again meanwhile."""
    if client is None and getattr(qos.channel.connection, "client", None) is None:
        log.warning("broker connection closed: %d unacknowledged message(s) left to come back by themselves",
                    len(qos._delivered))  # fmt: skip
        qos._delivered.clear()
        return None
    return _restore_unacked(qos, client)


# The kombu whose QoS.restore_unacked this replaces was read and tested (requirements.txt pins it): a test fails
# on any other, so that whoever upgrades kombu rechecks that bug first.
KOMBU_CHECKED = "5.7.0"
_restore_unacked = kombu_redis.QoS.restore_unacked
kombu_redis.QoS.restore_unacked = _restore_unacked_unless_closed


@signals.task_prerun.connect
def _name_the_task_in_logs(task_id=None, **kwargs):
    """Every line a task logs carries its id as the request id (sh_site/logs.py)."""
    from sh_site.logs import request_id

    request_id.set(f"task-{task_id}")


@signals.task_postrun.connect
def _forget_the_task(**kwargs):
    from sh_site.logs import request_id

    request_id.set("")
