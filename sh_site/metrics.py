"""Prometheus metrics at /metrics: django-prometheus's requests and database figures, and gauges of
the site's own read from the database at each scrape.

With gunicorn's or Celery's several processes, each keeps its counters in files under PROMETHEUS_MULTIPROC_DIR
(set in the environment before start, emptied at each start: deploy/), and a scrape adds them up. Without it (one
process, `make run`), the process's own registry is read. The gauges come from the database, which every
process shares, so they are computed once per scrape, by whichever process answers it, with indexed counts.

/metrics answers only a request with the bearer token METRICS_TOKEN, or one made directly (not through the
proxy: no X-Forwarded-For) from an address in METRICS_ALLOWED_ADDRESSES; with neither set it is off (404), as it
tells how busy the site is.
"""

import hmac
import os
from datetime import timedelta

from django.conf import settings
from django.db.models import Count, Min
from django.http import Http404, HttpResponse
from django.utils import timezone
from prometheus_client import CONTENT_TYPE_LATEST, REGISTRY, CollectorRegistry, generate_latest, multiprocess
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector


class SiteCollector(Collector):
    """The site's state, from the database at scrape time: what an operator must see before players do."""

    NAMES = ("sh_games", "sh_deadlines_overdue", "sh_deadline_oldest_overdue_seconds", "sh_moves_last_minute",
             "sh_task_last_run_age_seconds", "sh_task_duration_seconds", "sh_task_handled", "sh_task_failed",
             "sh_outbox_backlog",
             "sh_outbox_failed", "sh_webhooks_backlog")  # fmt: skip

    def describe(self):
        """The names alone, for the registry's check of duplicates: no query when the site starts."""
        return [GaugeMetricFamily(name, name) for name in self.NAMES]

    def collect(self):
        from games.models import ActionRecord, Game, Notification, SweepRun, WebhookDelivery

        now = timezone.now()
        games = GaugeMetricFamily("sh_games", "Games, by status", labels=["status"])
        counts = dict(Game.objects.values_list("status").annotate(n=Count("pk")).values_list("status", "n"))
        for status in Game.Status.values:
            games.add_metric([status], counts.get(status, 0))
        yield games

        due = Game.objects.filter(status=Game.Status.RUNNING, paused_at=None, deadline__lte=now)
        overdue = due.aggregate(n=Count("pk"), oldest=Min("deadline"))
        yield GaugeMetricFamily("sh_deadlines_overdue", "Deadlines passed and not yet applied", value=overdue["n"])
        oldest = (now - overdue["oldest"]).total_seconds() if overdue["oldest"] else 0.0
        yield GaugeMetricFamily(
            "sh_deadline_oldest_overdue_seconds", "Age of the oldest deadline passed and not yet applied", value=oldest
        )

        moves = GaugeMetricFamily("sh_moves_last_minute", "Moves applied in the last minute, by who made them",
                                  labels=["source"])  # fmt: skip
        recent = ActionRecord.objects.filter(created_at__gte=now - timedelta(minutes=1))
        made = dict(recent.values_list("source").annotate(n=Count("pk")).values_list("source", "n"))
        for source in ActionRecord.Source.values:
            moves.add_metric([source], made.get(source, 0))
        yield moves

        age = GaugeMetricFamily("sh_task_last_run_age_seconds", "Seconds since each periodic task last ran (lag)",
                                labels=["task"])  # fmt: skip
        duration = GaugeMetricFamily("sh_task_duration_seconds", "How long each periodic task's last run took",
                                     labels=["task"])  # fmt: skip
        handled = GaugeMetricFamily("sh_task_handled", "What each periodic task's last run handled", labels=["task"])
        failed = GaugeMetricFamily("sh_task_failed", "Rows each periodic task's last run could not handle",
                                   labels=["task"])  # fmt: skip
        for run in SweepRun.objects.all():
            age.add_metric([run.task], (now - run.finished_at).total_seconds())
            duration.add_metric([run.task], run.seconds)
            handled.add_metric([run.task], run.handled)
            failed.add_metric([run.task], run.failed)
        yield age
        yield duration
        yield handled
        yield failed

        outbox = Notification.objects.filter(email=Notification.Email.PENDING, email_due_at__lte=now)
        yield GaugeMetricFamily("sh_outbox_backlog", "Emails due and not yet sent", value=outbox.count())
        failed = Notification.objects.filter(email=Notification.Email.FAILED, email_due_at__gte=now - timedelta(days=1))
        yield GaugeMetricFamily("sh_outbox_failed", "Emails given up on (refused, or out of tries) in the last day",
                                value=failed.count())  # fmt: skip
        deliveries = WebhookDelivery.objects.filter(status=WebhookDelivery.Status.PENDING, due_at__lte=now)
        yield GaugeMetricFamily("sh_webhooks_backlog", "Webhook deliveries due and not yet made",
                                value=deliveries.count())  # fmt: skip


SITE = SiteCollector()
if not os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
    REGISTRY.register(SITE)  # one process: its own registry holds everything


def registry() -> CollectorRegistry:
    if not os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        return REGISTRY
    combined = CollectorRegistry()
    multiprocess.MultiProcessCollector(combined)  # every process's counters and histograms, added up
    combined.register(SITE)
    return combined


def allowed(request) -> bool:
    token = settings.METRICS_TOKEN
    given = request.headers.get("Authorization", "")
    if token and hmac.compare_digest(given.encode(), f"Bearer {token}".encode()):
        return True
    # An allowed address counts only for a request made to gunicorn directly: through the reverse proxy, every
    # request comes from the proxy's address, whoever sent it.
    forwarded = any(name in request.headers for name in ("X-Forwarded-For", "X-Real-IP", "Forwarded"))
    return not forwarded and request.META.get("REMOTE_ADDR") in settings.METRICS_ALLOWED_ADDRESSES


def metrics(request):
    if not allowed(request):
        raise Http404
    return HttpResponse(generate_latest(registry()), content_type=CONTENT_TYPE_LATEST)
