"""The fragment cache failing as readers meet it. A redis-server of the test's own holds the fragments; it is
stopped, then frozen (SIGSTOP: its port still takes connections and nothing answers), and every page still answers
200 with the same bytes, an outage costing one timeout, not one a fragment; once the server is back the pages use
it again after CACHE_RETRY_SECONDS (games/fragments.py)."""

import logging
import re
import time
from datetime import timedelta

import pytest
import redis
from django.core.cache import caches
from django.test import Client, override_settings
from django.utils import timezone

from devtools.chaos.services import RedisServer, wait_until
from games import fragments
from games.models import Post
from tests.factories import make_user, running_game

# It starts a redis-server of its own: the product's Redis cache, which a machine without Redis does not use.
pytestmark = [pytest.mark.processes, pytest.mark.redis, pytest.mark.django_db]
TIMEOUT, RETRY = 0.25, 3
# What differs between two readings of the same page whatever is cached: a masked CSRF token (another at every
# render), and the live tag of a page left open (it changes with the minute).
PER_READING = re.compile(rb'\b[A-Za-z0-9]{64}\b|data-etag="[^"]*"')


@pytest.fixture
def cache_server():
    server = RedisServer()
    server.start()
    fragment_cache = {
        "BACKEND": "sh_site.cache.FragmentCache",  # production's, whatever this run's settings chose
        "LOCATION": server.url,
        "KEY_PREFIX": "fragment",
        "OPTIONS": {"socket_connect_timeout": TIMEOUT, "socket_timeout": TIMEOUT},
    }
    # Changing CACHES makes Django forget its cache connections: the fragments go to this server from here on.
    with override_settings(
        CACHES={**caches.settings, fragments.ALIAS: fragment_cache},
        CACHE_TIMEOUT_SECONDS=TIMEOUT,
        CACHE_RETRY_SECONDS=RETRY,
    ):
        yield server
    server.close()


@pytest.fixture
def pages():
    """Read every page: a thread's page, anonymous and as a spectator, and the lobby, anonymous and signed in;
    and one fragment rendered directly, so that the cache is asked whatever the pages keep in it."""
    game = running_game()
    author = make_user("ann")
    start = timezone.now() - timedelta(hours=1)
    Post.objects.bulk_create(
        Post(
            game=game, author=author, body=f"Post {n}", html=f"<p>Post {n}</p>", created_at=start + timedelta(minutes=n)
        )
        for n in range(30)
    )
    anonymous, spectator = Client(), Client()
    spectator.force_login(make_user("zed"))
    paths = [f"/games/{game.pk}/", f"/games/{game.pk}/?page=2", "/"]

    def read() -> list[bytes]:
        answers = []
        for client in (anonymous, spectator):
            for path in paths:
                response = client.get(path)
                assert response.status_code == 200, (path, response.status_code)
                answers.append(PER_READING.sub(b"", response.content))
        answers.append(fragments.render("probe", ("a post", 1), lambda: "<p>a post</p>").encode())
        return answers

    read()  # the spectator's first visit moves their "new posts" line: the pages are read as they stay after it
    return read


def failures(caplog) -> int:
    return sum("fragment cache failed" in record.getMessage() for record in caplog.records)


@pytest.fixture
def timeouts(monkeypatch) -> list[int]:
    """The port of each server that left a reply unanswered past its timeout: every wait a frozen server costs."""
    waited = []
    read_response = redis.connection.AbstractConnection.read_response

    def counted(connection, *args, **kwargs):
        try:
            return read_response(connection, *args, **kwargs)
        except redis.TimeoutError:
            waited.append(connection.port)
            raise

    monkeypatch.setattr(redis.connection.AbstractConnection, "read_response", counted)
    return waited


def hits(server: RedisServer) -> int:
    return redis.Redis(port=server.port).info("stats")["keyspace_hits"]


def test_pages_answer_the_same_with_the_fragment_cache_stopped_and_use_it_again_when_it_is_back(
    cache_server, pages, caplog
):
    warm = pages()
    assert redis.Redis(port=cache_server.port).dbsize() > 0
    cache_server.stop()
    with caplog.at_level(logging.WARNING, logger="games.fragments"):
        assert pages() == pages() == warm
    assert failures(caplog) == 1  # then passed by for CACHE_RETRY_SECONDS
    cache_server.start()
    time.sleep(RETRY)
    assert pages() == warm
    assert redis.Redis(port=cache_server.port).dbsize() > 0  # a new, empty server: filled again
    before = hits(cache_server)
    assert pages() == warm
    assert hits(cache_server) > before


def test_a_frozen_fragment_cache_costs_the_first_page_one_timeout_and_no_more(cache_server, pages, caplog, timeouts):
    warm = pages()
    cache_server.freeze()
    with caplog.at_level(logging.WARNING, logger="games.fragments"):
        frozen = [pages(), pages()]
    assert frozen == [warm, warm]
    # Within CACHE_RETRY_SECONDS, one timeout in all, not one a fragment or a page.
    assert failures(caplog) == 1 and len(timeouts) == 1
    cache_server.thaw()
    before = hits(cache_server)
    assert wait_until(lambda: pages() == warm and hits(cache_server) > before, RETRY + 5)
