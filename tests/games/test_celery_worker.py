"""A real Celery worker and beat, on Redis, enforcing a deadline end to end (PostgreSQL, another process).

The worker cannot see time-machine, so the game's deadline is already past when it starts.
"""

import os
import signal
import subprocess
import sys
import time
from datetime import timedelta

import pytest
import redis
from django.utils import timezone

from games.models import ActionRecord, SweepRun
from games.tasks import sweep_deadlines
from tests.conftest import REDIS_URL
from tests.factories import running_game

from .helpers import state_of
from .processes import ROOT, environment

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def worker(tmp_path):
    redis.Redis.from_url(REDIS_URL).flushdb()
    process = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "sh_site", "worker", "--beat", "--concurrency=2", "--loglevel=INFO"],
        cwd=ROOT,
        env=environment(
            REDIS_URL=REDIS_URL,
            SWEEP_INTERVAL_SECONDS="1",
            BEAT_SCHEDULE_FILE=str(tmp_path / "beat-schedule"),
        ),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    yield process
    os.killpg(process.pid, signal.SIGTERM)
    try:
        process.wait(20)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)


def wait_for(condition, seconds: float = 60):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.25)
    return False


def test_t4_the_worker_applies_a_passed_deadline_exactly_once(worker):
    game = running_game(now=timezone.now() - timedelta(hours=49))
    assert wait_for(lambda: state_of(game)["round"] == 2), "the worker did not apply the deadline"
    assert wait_for(lambda: SweepRun.objects.filter(task="deadlines").exists())
    # Beat keeps sweeping every second and the task is sent twice more by hand: nothing more happens.
    sweep_deadlines.delay()
    sweep_deadlines.delay()
    time.sleep(3)
    assert ActionRecord.objects.filter(game=game, action={"type": "timeout"}).count() == 1
    assert state_of(game)["round"] == 2
