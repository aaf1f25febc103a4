"""Issue 27: the broker frozen (SIGSTOP: the port accepts connections, nothing ever answers) and then stopped,
under the site's real web server (gunicorn) on a Redis of the test's own. A move queues its emails at once after
commit; that must never hold the move up for longer than BROKER_CONNECT_TIMEOUT, and what it wanted queued is
done by the periodic runs once Redis is back."""

import asyncio
import time
from datetime import timedelta

import pytest
from django.utils import timezone

from devtools.bench.http import free_port, signed_in_sessions
from devtools.chaos.scenarios import STEP_MINUTES, ApiPlayer, Games, Player
from devtools.chaos.services import RedisServer, Site, wait_until
from games.models import ApiToken, Game, Notification

pytestmark = [pytest.mark.chaos, pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

BROKER_CONNECT_TIMEOUT = 2  # the default
BOUND = BROKER_CONNECT_TIMEOUT + 3  # what a player may notice at most: the broker's timeout and the move itself


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


def api_move(player: ApiPlayer, game: Game) -> tuple[int, float]:
    """One legal move through the API, as its client sees it: the answer's status and the seconds it took."""
    _status, view = asyncio.run(player.call("GET", f"/api/v1/games/{game.pk}/me"))
    move = {**view["moves"][0], "step_number": view["step_number"]}
    began = time.monotonic()
    status, _answer = asyncio.run(player.call("POST", f"/api/v1/games/{game.pk}/moves", move))
    return status, time.monotonic() - began


def form_move(player: Player, game: Game) -> tuple[int, float]:
    began = time.monotonic()
    status = player.move(game)
    return status, time.monotonic() - began


def health(player: Player) -> tuple[int, float]:
    began = time.monotonic()
    status = player.health()
    return status, time.monotonic() - began


def test_moves_and_healthz_answer_within_the_broker_timeout_with_redis_frozen_then_stopped_and_emails_go_after(site):
    site, port, broker, made = site
    games = made.make([timezone.now() + timedelta(minutes=STEP_MINUTES)] * 4)
    records = {game.pk: game.actions.count() for game in games}
    players = [api_player(port, made, number) for number in range(4)]
    browser = Player(port, signed_in_sessions(made.users()))
    # The first move connects the web process's pooled producer: when the broker freezes, that connection is
    # still open, so only a reply timeout can end the wait.
    assert api_move(players[0], games[0])[0] == 200
    began = timezone.now()
    broker.freeze()
    frozen_api, frozen_form = api_move(players[1], games[1]), form_move(browser, games[2])
    frozen_health = health(browser)
    broker.thaw()
    broker.kill()
    stopped_api = api_move(players[3], games[3])
    print(
        {
            "frozen_api": frozen_api,
            "frozen_form": frozen_form,
            "frozen_health": frozen_health,
            "stopped_api": stopped_api,
        }
    )
    assert frozen_api[0] == 200 and frozen_api[1] < BOUND
    assert frozen_form[0] == 302 and frozen_form[1] < BOUND
    assert frozen_form[1] < BROKER_CONNECT_TIMEOUT  # after one failure the process does not wait on it again
    assert frozen_health[0] == 503 and frozen_health[1] < BOUND  # the monitor is told, in time
    assert stopped_api[0] == 200 and stopped_api[1] < BOUND
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
