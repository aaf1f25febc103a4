"""Issue 30: the fragment cache's backend (sh_site/cache.py) against the suite's Redis: what it stores is what a
page reads back, kept for the time asked, as plain UTF-8 that redis-cli shows; one client kept per process."""

import pytest
from django.conf import settings
from django.core.cache import caches

from games import fragments

pytestmark = pytest.mark.skipif(
    settings.CACHES[fragments.ALIAS]["BACKEND"] != "sh_site.cache.FragmentCache",
    reason="the fragment cache is on Redis only with REDIS_URL (or CACHE_URL) set",
)
TEXTS = {"plain": "<p>Hello.</p>", "accents": "<p>¡Ja! Señor Ñandú, «élu», Zażółć gęślą jaźń</p>", "empty": ""}


@pytest.fixture
def cache():
    return caches[fragments.ALIAS]


def raw(cache, key: str):
    """The key as Redis holds it, read past the backend."""
    client = cache._cache.get_client(write=True)
    full = cache.make_key(key)
    return client.get(full), client.ttl(full)


def test_text_comes_back_as_stored_kept_for_the_time_asked_readable_as_utf8(cache):
    cache.set_many(TEXTS, 600)
    assert cache.get_many([*TEXTS, "absent"]) == TEXTS
    for key, text in TEXTS.items():
        stored, ttl = raw(cache, key)
        assert stored == text.encode() and 590 <= ttl <= 600


def test_a_timeout_of_zero_deletes_and_none_keeps_without_expiry(cache):
    cache.set_many({"gone": "a"}, 600)
    cache.set_many({"gone": "b"}, 0)
    cache.set_many({"kept": "c"}, None)
    assert cache.get_many(["gone", "kept"]) == {"kept": "c"}
    assert raw(cache, "kept") == (b"c", -1)


@pytest.mark.parametrize("value", [1, b"bytes", {"a": 1}, None])
def test_anything_but_text_is_refused_and_nothing_written(cache, value):
    with pytest.raises(TypeError, match="keeps text"):
        cache.set_many({"first": "fine", "wrong": value}, 600)
    assert cache.get_many(["first", "wrong"]) == {}


def test_one_client_serves_every_call(cache):
    first = cache._cache.get_client(write=True)
    cache.get_many(["a"])
    cache.set_many({"a": "x"}, 60)
    assert cache._cache.get_client() is first and cache._cache.get_client(write=True) is first
