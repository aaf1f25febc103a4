"""Issue 20: /metrics for Prometheus: protected, the site's own gauges from the database, django-prometheus's
request figures, and gunicorn's workers added up in multiprocess mode."""

import asyncio
from datetime import timedelta

import pytest
import time_machine
from django.utils import timezone
from prometheus_client.parser import text_string_to_metric_families

from devtools.bench.http import BrowserClient, free_port
from devtools.chaos.services import Site
from games.models import Notification, SweepRun
from tests.factories import START, make_user, running_game

pytestmark = pytest.mark.django_db


def samples(text: str) -> dict:
    """{(name, labels as a sorted tuple): value} of a Prometheus text exposition."""
    found = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            found[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return found


def test_metrics_are_off_without_a_token_or_an_allowed_address(client, settings):
    settings.METRICS_TOKEN, settings.METRICS_ALLOWED_ADDRESSES = "", []
    assert client.get("/metrics").status_code == 404
    settings.METRICS_TOKEN = "s3cret-token"
    assert client.get("/metrics", headers={"authorization": "Bearer wrong"}).status_code == 404
    assert client.get("/metrics", headers={"authorization": "Bearer s3cret-token"}).status_code == 200
    settings.METRICS_TOKEN, settings.METRICS_ALLOWED_ADDRESSES = "", ["127.0.0.1"]
    assert client.get("/metrics").status_code == 200  # the test client's REMOTE_ADDR
    # Through the proxy, everyone comes from the proxy's address: an allowed address is not enough.
    assert client.get("/metrics", headers={"x-forwarded-for": "203.0.113.9"}).status_code == 404


@time_machine.travel(START, tick=False)  # the ages exact, however long the test takes
def test_the_sites_gauges_say_what_is_overdue_waiting_and_running(client, settings):
    settings.METRICS_ALLOWED_ADDRESSES = ["127.0.0.1"]
    for name in ("ann", "bob", "cat", "dan", "eve"):
        make_user(name)  # with addresses: their "your move" emails wait in the outbox
    running_game(now=timezone.now() - timedelta(hours=50))  # its 48-hour nomination is 2 hours overdue
    running_game(now=timezone.now())
    SweepRun.record("deadlines", 3, 0.25)
    SweepRun.record("outbox", 4, 0.5, failed=1, errors="the email of notification 9: KeyError: 'starts_at'")
    found = samples(client.get("/metrics").content.decode())
    assert found[("sh_games", (("status", "running"),))] == 2
    assert found[("sh_deadlines_overdue", ())] == 1
    assert found[("sh_deadline_oldest_overdue_seconds", ())] == 7200
    assert found[("sh_outbox_backlog", ())] == Notification.objects.filter(email=Notification.Email.PENDING).count() > 0
    assert found[("sh_task_duration_seconds", (("task", "deadlines"),))] == 0.25
    assert found[("sh_task_handled", (("task", "deadlines"),))] == 3
    assert (
        found[("sh_task_failed", (("task", "outbox"),))] == 1
        and found[("sh_task_failed", (("task", "deadlines"),))] == 0
    )
    assert found[("sh_task_last_run_age_seconds", (("task", "deadlines"),))] == 0
    assert found[("sh_moves_last_minute", (("source", "system"),))] == 0  # the imported games' set-up is older
    assert ("sh_webhooks_backlog", ()) in found and ("sh_outbox_failed", ()) in found
    assert any(name.startswith("django_http_requests") for name, _labels in found)


@pytest.mark.processes
@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_gunicorns_workers_add_up_in_multiprocess_mode(tmp_path):
    """Four gunicorn workers, each counting its own requests in PROMETHEUS_MULTIPROC_DIR: /metrics, answered by
    any one of them, counts them all."""
    folder = tmp_path / "metrics"
    folder.mkdir()
    site = Site(PROMETHEUS_MULTIPROC_DIR=str(folder), METRICS_TOKEN="t0ken-for-tests", REDIS_URL="")
    port = free_port()
    try:
        site.web(port, workers=4)
        client = BrowserClient(port, {})

        async def many():
            return await asyncio.gather(*(client.exchange("GET", "/", []) for _ in range(40)))

        assert {status for status, _headers in asyncio.run(many())} == {200}
        status, _headers, body = asyncio.run(client.fetch("GET", "/metrics", ["Authorization: Bearer t0ken-for-tests"]))
        assert status == 200
        found = samples(body.decode())
        by_view = {labels: value for (name, labels), value in found.items()
                   if name == "django_http_responses_total_by_status_view_method_total"}  # fmt: skip
        assert by_view[(("method", "GET"), ("status", "200"), ("view", "games:home"))] == 40
        writers = {path.stem.rsplit("_", 1)[-1] for path in folder.glob("counter_*.db")}
        assert len(writers) >= 2  # the 40 requests were served by several workers, and summed above
    finally:
        site.close()


@pytest.mark.parametrize(
    "authorization",
    [
        "Bearer s3cret-token\x00",
        "Bearer " + "s" * 100_000,
        "Bearer s3cret-tökén",
        "bearer s3cret-token",
        "s3cret-token",
    ],
)
def test_forged_metrics_credentials_are_refused_without_a_fault(client, settings, authorization):
    settings.METRICS_TOKEN, settings.METRICS_ALLOWED_ADDRESSES = "s3cret-token", []
    response = client.get("/metrics", headers={"authorization": authorization})
    assert response.status_code == 404
