"""A real Celery worker and beat, on Redis, enforcing a deadline end to end (PostgreSQL, another process).

The worker cannot see time-machine, so the game's deadline is already past when it starts.
"""

import importlib.metadata
import inspect
import os
import re
import signal
import subprocess
import sys
import time
import uuid
from datetime import timedelta
from pathlib import Path

import psycopg
import pytest
import redis
from celery import Celery
from django.utils import timezone
from kombu import Connection, Queue
from kombu.transport import redis as kombu_redis

from devtools.chaos.services import RedisServer, database_url
from games.models import ActionRecord, SweepRun
from games.tasks import sweep_deadlines
from sh_site.celery import KOMBU_CHECKED, _restore_unacked, _restore_unacked_unless_closed
from tests.conftest import REDIS_URL
from tests.factories import running_game

from .helpers import state_of
from .processes import ROOT, environment

pytestmark = [pytest.mark.processes, pytest.mark.postgres, pytest.mark.redis, pytest.mark.django_db(transaction=True)]


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
    stop(process)


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


@pytest.fixture
def own_redis():
    server = RedisServer()
    server.start()
    yield server
    server.close()


def start_worker(redis_url: str, log: Path, **settings: str) -> subprocess.Popen:
    """A worker alone (no beat: the test queues every task itself) on a Redis of the test's own."""
    command = [sys.executable, "-m", "celery", "-A", "sh_site", "worker", "--concurrency=2", "--loglevel=INFO"]
    with log.open("w") as output:
        return subprocess.Popen(
            [*command, "--without-gossip", "--without-mingle"],
            cwd=ROOT,
            env=environment(REDIS_URL=redis_url, **settings),
            stdout=output,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )


def stop(process: subprocess.Popen) -> None:
    os.killpg(process.pid, signal.SIGTERM)
    try:
        process.wait(20)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)


@pytest.fixture
def worker_on(own_redis, tmp_path):
    log = tmp_path / "worker.log"
    process = start_worker(own_redis.url, log)
    yield process, log
    stop(process)


def lobbies_closed_since(moment) -> bool:
    return SweepRun.objects.filter(task=SweepRun.Task.LOBBIES, finished_at__gt=moment).exists()


def test_a_worker_outlives_a_frozen_then_killed_broker_and_takes_the_tasks_queued_after_its_return(
    own_redis, worker_on
):
    """Issue 27: a task under way when Redis froze, then Redis killed and started again on the same port. The
    worker must not exit (kombu gave the unacknowledged message back through a connection already closed:
    "Unrecoverable error: AttributeError('NoneType' object has no attribute 'hostname')")."""
    worker, log = worker_on
    client = Celery(broker=own_redis.url)
    began = timezone.now()
    client.send_task("games.close_lobbies")
    assert wait_for(lambda: lobbies_closed_since(began)), log.read_text()
    # The next run's record waits on this lock, so its message is taken and not yet acknowledged.
    with psycopg.connect(database_url()) as holder:
        holder.execute("LOCK TABLE games_sweeprun IN ACCESS EXCLUSIVE MODE")
        client.send_task("games.close_lobbies")
        assert wait_for(lambda: waiting_on_a_lock(), 30), log.read_text()
        own_redis.freeze()
    time.sleep(4)  # the run ends and its acknowledgement meets the frozen broker
    own_redis.kill()
    time.sleep(2)
    own_redis.start()
    back = timezone.now()
    client.send_task("games.close_lobbies")
    assert wait_for(lambda: lobbies_closed_since(back), 90), log.read_text()[-6000:]
    assert worker.poll() is None and "Unrecoverable error" not in log.read_text()


def waiting_on_a_lock() -> bool:
    query = "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()"
    with psycopg.connect(database_url(), autocommit=True) as probe:
        return probe.execute(query).fetchone()[0] > 0


def test_a_channel_closed_after_its_connection_keeps_its_unacknowledged_message_for_later():
    """Issue 27: the path of the worker's exit (kombu's restore_unacked on a channel whose connection is already
    closed) raises nothing, and the message it held comes back once its visibility timeout has passed."""
    name = f"issue-27-{uuid.uuid4().hex}"
    with Connection(REDIS_URL) as publisher:
        publisher.SimpleQueue(name).put({"task": "games.close_lobbies"})
    connection = Connection(REDIS_URL)
    channel = connection.channel()
    assert Queue(name, channel=channel).get(no_ack=False) is not None
    # What a worker's Connection.collect() leaves after a connection error when closing an earlier channel
    # raised too (Redis gone): the transport has forgotten the connection's settings, this channel is still open.
    connection._do_close_transport()
    channel.close()
    with Connection(REDIS_URL, transport_options={"visibility_timeout": 0}) as later:
        later.default_channel.qos.restore_visible()
        message = later.SimpleQueue(name).get(timeout=5)
        assert message.payload == {"task": "games.close_lobbies"}
        message.ack()


def test_the_kombu_workaround_fits_the_kombu_installed():
    """sh_site/celery.py replaces a private method of kombu's Redis transport (kombu issue 970): any kombu other
    than the one it was checked against, or a method of another shape, fails here rather than in production."""
    recheck = (
        "kombu is not the one sh_site/celery.py's workaround was checked against: recheck kombu issue 970 (fixed?"
        " does QoS.restore_unacked still take (self, client=None), use self._delivered and"
        " self.channel.conn_or_acquire?), then update KOMBU_CHECKED or drop the workaround"
    )
    pinned = re.search(r"^kombu==(\S+)$", (ROOT / "requirements.txt").read_text(), re.MULTILINE)
    assert pinned and importlib.metadata.version("kombu") == pinned[1] == KOMBU_CHECKED, recheck
    assert kombu_redis.QoS.restore_unacked is _restore_unacked_unless_closed, recheck
    assert str(inspect.signature(_restore_unacked)) == "(self, client=None)", recheck
    source = inspect.getsource(_restore_unacked)
    assert "self._delivered" in source and "self.channel.conn_or_acquire(client)" in source, recheck


def test_an_idle_worker_keeps_its_broker_connection_under_the_shortest_reply_timeout(own_redis, tmp_path):
    """The reply timeout (BROKER_CONNECT_TIMEOUT) must not apply to a worker's wait for new tasks: idle for many
    times that long, it keeps its connection and takes the next task at once."""
    log = tmp_path / "worker.log"
    worker = start_worker(own_redis.url, log, BROKER_CONNECT_TIMEOUT="1")
    try:
        client = Celery(broker=own_redis.url)
        assert wait_for(lambda: "ready." in log.read_text()), log.read_text()
        time.sleep(8)
        began = timezone.now()
        client.send_task("games.close_lobbies")
        assert wait_for(lambda: lobbies_closed_since(began), 10), log.read_text()
        assert "Connection to broker lost" not in log.read_text()
    finally:
        stop(worker)
