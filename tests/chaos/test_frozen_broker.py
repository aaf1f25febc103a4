"""Issue 27: the broker frozen (SIGSTOP: the port accepts connections, nothing ever answers) and then stopped,
under the site's real web server (gunicorn) on a Redis of the test's own. A move queues its emails at once after
commit; in an outage one request of the process waits for the broker (BROKER_CONNECT_TIMEOUT at most, its socket
timeouts), every later one passes it by, and what they wanted queued is done by the periodic runs once Redis is
back. Counted in the web process's log, not timed: a busy machine makes every request slow."""

import asyncio
from datetime import timedelta

import pytest
from django.utils import timezone

from devtools.bench.http import free_port, signed_in_sessions
from devtools.chaos.scenarios import STEP_MINUTES, ApiPlayer, Games, Player
from devtools.chaos.services import RedisServer, Site, wait_until
from games.models import ApiToken, Game, Notification

pytestmark = [pytest.mark.chaos, pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

WAITED = "could not queue"  # games.dispatch: this request waited for the broker, in vain
PASSED_BY = "not queuing"  # games.dispatch: this request did not ask the broker, which failed a moment ago


@pytest.fixture
def site():
    """gunicorn (one process, so that every request meets the same pooled broker connection) on a Redis of our
    own; a worker and beat are started only once the broker is back."""
    broker, made = RedisServer(), Games("frozen-broker")
    broker.start()
    dummy = "django.core.mail.backends.dummy.EmailBackend"
    site = Site(REDIS_URL=broker.url, EMAIL_BACKEND=dummy, API_REQUESTS_PER_MINUTE="1000")
    try:
        port = free_port()
        site.web(port)
        yield site, port, broker, made
    finally:
        site.close()
        broker.close()
        made.delete()


def api_player(port: int, made: Games, number: int) -> ApiPlayer:
    user = made.users().get(username=made.first_to_move(number))
    secret = ApiToken.new_secret()
    ApiToken.objects.create(user=user, name="frozen", digest=ApiToken.digest_of(secret), prefix=secret[:8],
                            scope=ApiToken.Scope.PLAY, created_at=timezone.now())  # fmt: skip
    return ApiPlayer(port, secret, [], seed=number)


def api_move(player: ApiPlayer, game: Game) -> int:
    """One legal move through the API, as its client sees it: the answer's status."""
    _status, view = asyncio.run(player.call("GET", f"/api/v1/games/{game.pk}/me"))
    move = {**view["moves"][0], "step_number": view["step_number"]}
    return asyncio.run(player.call("POST", f"/api/v1/games/{game.pk}/moves", move))[0]


def dispatches(site: Site) -> tuple[int, int]:
    """How many times the web process waited for the broker in vain, and how many times it passed the broker by."""
    log = (site.folder / "web.log").read_text(errors="replace")
    return log.count(WAITED), log.count(PASSED_BY)


def test_with_redis_frozen_then_stopped_one_move_waits_for_it_the_others_pass_it_by_and_emails_go_after(site):
    site, port, broker, made = site
    games = made.make([timezone.now() + timedelta(minutes=STEP_MINUTES)] * 4)
    records = {game.pk: game.actions.count() for game in games}
    players = [api_player(port, made, number) for number in range(4)]
    browser = Player(port, signed_in_sessions(made.users()))
    # The first move connects the web process's pooled producer: when the broker freezes, that connection is
    # still open, so only a reply timeout can end the wait.
    assert api_move(players[0], games[0]) == 200
    assert dispatches(site) == (0, 0)
    began = timezone.now()
    broker.freeze()
    assert api_move(players[1], games[1]) == 200
    assert dispatches(site) == (1, 0)  # the move's request waited for the broker, in vain
    assert browser.move(games[2]) == 302
    assert dispatches(site) == (1, 1)  # the next one passed it by
    assert browser.health() == 503  # the monitor is told
    broker.thaw()
    broker.kill()
    assert api_move(players[3], games[3]) == 200
    assert dispatches(site) == (1, 2)  # stopped as frozen, for SWEEP_INTERVAL_SECONDS
    assert all(game.actions.count() == records[game.pk] + 1 for game in games)  # each move on record once
    broker.start()
    site.environment["SWEEP_INTERVAL_SECONDS"] = "1"  # the web process keeps production's 30 s
    site.worker()
    site.beat()
    meant_for_email = Notification.objects.filter(game__in=games[1:], created_at__gte=began).exclude(
        email=Notification.Email.NONE
    )
    assert meant_for_email.exists()
    waiting = meant_for_email.exclude(email=Notification.Email.SENT)
    assert wait_until(lambda: not waiting.exists(), 90), site.log("worker")
