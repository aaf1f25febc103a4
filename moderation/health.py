"""Is the site healthy? The database, the broker, and how long ago the deadline sweep last ran."""

import logging
from datetime import datetime, timedelta

from django.contrib.auth import get_user_model
from django.core.mail import send_mail
from django.db import connection
from django.utils import timezone

from games.models import Game, SweepRun

from .models import HealthAlert

log = logging.getLogger(__name__)
SWEEP_ALERT_AFTER = timedelta(minutes=10)


def check(now: datetime | None = None) -> dict:
    """The database, the broker, and each periodic task's last run (none for 10 minutes: stopped)."""
    now = now or timezone.now()
    report = {"database": _database(), "broker": _broker()}
    runs = dict(SweepRun.objects.values_list("task", "finished_at")) if report["database"] else {}
    report["tasks"] = {}
    for task in SweepRun.Task.values:
        last = runs.get(task)
        report["tasks"][task] = {
            "last_run_seconds_ago": None if last is None else round((now - last).total_seconds()),
            "ok": last is not None and now - last < SWEEP_ALERT_AFTER,
        }
    deadlines = report["tasks"][SweepRun.Task.DEADLINES]
    report["last_sweep_seconds_ago"], report["sweep"] = deadlines["last_run_seconds_ago"], deadlines["ok"]
    tasks_ok = all(task["ok"] for task in report["tasks"].values())
    report["ok"] = report["database"] and report["broker"] and tasks_ok
    return report


def _database() -> bool:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
        return True
    except Exception:
        log.warning("health: the database does not answer", exc_info=True)  # the monitor's to tell, not an error
        return False


def _broker() -> bool:
    from sh_site.celery import app

    try:
        with app.connection_for_write() as broker:
            broker.ensure_connection(max_retries=0, timeout=2)
        return True
    except Exception:
        log.warning("health: the broker does not answer", exc_info=True)
        return False


def alert_if_stale(now: datetime | None = None) -> bool:
    """Email the moderators once when the sweep has not run for 10 minutes. True when an alert went out."""
    now = now or timezone.now()
    last = SweepRun.objects.filter(task=SweepRun.Task.DEADLINES).values_list("finished_at", flat=True).first()
    if last is not None and now - last < SWEEP_ALERT_AFTER:
        return False
    if last is None and not Game.objects.filter(status=Game.Status.RUNNING).exists():
        return False  # a new site with nothing to enforce yet
    alert = HealthAlert.objects.first()
    if alert is not None and alert.last_sweep_at == last:
        return False  # already told about this outage
    recipients = list(
        get_user_model()
        .objects.filter(groups__name="moderators", is_active=True)
        .exclude(email="")
        .values_list("email", flat=True)
    )
    since = "never" if last is None else f"{last:%Y-%m-%d %H:%M} UTC"
    send_mail(
        "[Secret Hitler by post] the deadline sweep has stopped",
        f"The last deadline sweep ran: {since}. Deadlines are not being enforced: check the Celery workers and "
        "beat (see docs/running/index.md, deployment).",
        None,
        recipients,
    )
    HealthAlert.objects.update_or_create(pk=1, defaults={"sent_at": now, "last_sweep_at": last})
    return True
